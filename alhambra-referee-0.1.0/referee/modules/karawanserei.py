"""Die Karawanserei (the caravanserai): up to two cards per player, bought like a building for
8 / 4 / 2 by the number of base building types in the Alhambra, in any one currency; at the
start of his turn a player moves one stone a field along its card's track; the value the stone
marks pays like a money card of that field's currency and counts in the leftover distribution.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE KARAWANSEREI (L2078-2195).

Notation (names, texts, the reconstructed tracks: ``karawanserei.yaml``; rulings:
``docs/modules/karawanserei.md``):

* ``buy De kw:3 pay De4`` -- the card kw:3 bought with the action "Gebäudeplättchen kaufen",
  paid in Denar (``buy kw:3 pay De4``: the currency of the money paid); an exact payment gives
  another action; the stone starts on "0".
* ``caravan kw:3 Du2`` -- the first act of a turn: the stone of kw:3 moves one field, to the
  field showing 2 Dukaten (fields are named by the money they stand for).
* ``buy Du A7 pay Du5 kw:3`` -- the card's value pays like a money card of its field's
  currency; the stone goes back to "0".
* position blocks: ``caravan kw:3 Du2`` (or ``caravan kw:3 0``) in a player's section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import CURRENCIES, BuildingType, Currency, MoneyCard
from referee.engine.actions.purchase import allowed_currencies
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.fmt import NO_CARDS, NOTHING
from referee.engine.market_side import SideOffer
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import Arg, VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    ModulePiece,
    Scratch,
    bundled,
    market_probes,
    module_data,
    token_text,
)
from referee.record.model import Buy, CardRef, ComponentRef, GenericArg, ModuleAction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

KIND = "kw"
VERB = "caravan"
START = "0"
FIELD = re.compile(r"^(gu|di|de|du)(\d{1,2})$", re.IGNORECASE)


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("karawanserei")["components"]
    return data


def card_count() -> int:
    return int(_data()["cards"]["count"])


def per_player() -> int:
    return int(_data()["cards"]["per_player"])


def price_for(types: int) -> int | None:
    """The price of a card by the building types in the Alhambra: 4 -> 8, 5 -> 4, 6 -> 2."""
    table = _data()["price_by_types"]
    got = table.get(types, table.get(str(types)))
    return None if got is None else int(got)


def types_needed(held: int) -> int:
    """The types needed for the first (4) and the second card (5)."""
    needed = _data()["types_needed"]
    return int(needed[min(held, len(needed) - 1)])


def track(number: int) -> dict[str, list[str]]:
    """The reconstructed track of card ``number`` (unverified data): field -> next fields."""
    cards = _data()["tracks"]["cards"]
    raw = cards.get(number, cards.get(str(number), {}))
    return {str(k): [str(x) for x in v] for k, v in raw.items()}


def parse_field(value: object) -> tuple[Currency, int] | None:
    """``Du2`` (a money-card-like token) -> (Dukaten, 2); None for anything else (and for 0)."""
    if isinstance(value, CardRef):
        return (value.card.currency, value.card.value) if value.card is not None else None
    m = FIELD.match(str(value))
    if m is None or int(m.group(2)) <= 0:
        return None
    cur = Currency.of_code(m.group(1))
    return None if cur is None else (cur, int(m.group(2)))


def field_name(value: tuple[Currency, int] | None) -> str:
    return START if value is None else f"{value[0].code}{value[1]}"


def field_arg(value: tuple[Currency, int] | None) -> GenericArg:
    """A field as a line's argument: the money card it stands for (``Du2``), or ``0``."""
    return GenericArg(START if value is None else CardRef(MoneyCard(value[0], value[1])))


@dataclass(frozen=True, slots=True)
class Caravanserai(ModulePiece):
    """One caravanserai card (``kw:1`` ... ``kw:8``): no building, never placed."""

    number: int

    KIND = KIND

    @property
    def token_name(self) -> str:
        return str(self.number)

    def named_by(self, name: str) -> bool:
        return name.strip() == str(self.number)


@cache
def card_piece(number: int) -> Caravanserai:
    """The one piece of card ``number`` (its offers in the four currencies share it)."""
    return Caravanserai(number)


def parse_card(value: object) -> int | None:
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    name = value.name.strip()
    if not name.isdigit() or not 1 <= int(name) <= card_count():
        return None
    return int(name)


@dataclass
class CaravanScratch(Scratch):
    # per player: card number -> the field its stone is on (None: the start "0")
    """The module's own part of the game state (``state.modules``), copied with the state."""

    held: dict[str, dict[int, tuple[Currency, int] | None]] = field(default_factory=dict)
    moved: dict[str, int] = field(default_factory=dict)  # player -> the turn of its move
    seen: dict[int, set[tuple[str, str]]] = field(default_factory=dict)  # card -> moves stated


def types_built(player: PlayerState) -> list[BuildingType]:
    """The base building types in the player's Alhambra (the reserve does not count; "Nur die
    6 Gebäudearten des Basisspiels zählen"); a position's ``counts`` line when it has one."""
    counts: Any = player.counts if player.counts is not None else player.alhambra.counts()
    return [t for t in BuildingType if counts.get(t, 0) > 0]


@bundled
class Karawanserei(BundledModule):
    """Caravanserai cards bought beside the market; a stone on each card's track; its value
    pays like money."""

    purchases_by_components = True  # its purchase refinements read only its own pieces

    verb_specs = (VerbSpec(VERB, kind="free", args=(Arg.COMPONENT, Arg.CARD)),)
    component_kinds = (KIND,)
    scratch_type = CaravanScratch
    helpers = ("on_offer",)
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("caravanserai", "Karawanserei")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("moves a caravanserai stone", "schiebt einen Karawanserei-Stein")
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.held = {p.name: {} for p in state.players}

    def held(self, state: GameState, player: PlayerState) -> dict[int, tuple[Currency, int] | None]:
        return self.data(state).held.setdefault(player.name, {})

    def _held_text(self, state: GameState, player: PlayerState) -> object:
        cards = self.held(state, player)
        return " ".join(f"{KIND}:{n}" for n in sorted(cards)) or NO_CARDS

    def on_offer(self, state: GameState) -> list[int]:
        taken = {n for cards in self.data(state).held.values() for n in cards}
        return [n for n in range(1, card_count() + 1) if n not in taken]

    # ------------------------------------------------------------- buying (E15)

    def _price(self, state: GameState, player: PlayerState | None) -> int | None:
        if player is None:
            return None
        held = len(self.held(state, player))
        types = len(types_built(player))
        if held >= per_player() or types < types_needed(held):
            return None
        return price_for(types)

    def side_offers(self, state: GameState) -> list[Any]:
        """Each card left, in each currency ("Der Preis muss in einer Währung entrichtet werden,
        die beliebig wählbar ist"), priced for the player to move by the types in his Alhambra
        (None: he may not buy one now); any payment, exact -> another action; no placement."""
        from referee.engine.legal import mover

        price = self._price(state, mover(state))
        return [
            SideOffer(card_piece(n), self, cur, price, False, "KARAWANSEREI-BUY", True, False)
            for n in self.on_offer(state)
            for cur in CURRENCIES
        ]

    def take_side_offer(self, state: GameState, piece: object) -> None:
        """ "sucht sich eine aus, legt diese offen vor sich aus und platziert einen
        Markierungsstein auf dem Feld 0" """
        if not isinstance(piece, Caravanserai) or state.turn is None:
            return
        if piece.number not in self.on_offer(state):
            return
        buyer = state.players[state.turn.player]
        self.held(state, buyer)[piece.number] = None

    def _is_card_purchase(self, purchase: Any) -> bool:
        offer = getattr(purchase, "offer", None)
        return offer is not None and offer.module is self

    @refines(Decision.PAY_PROBLEMS)
    def card_purchase_rules(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """A card bought: not out of turn (the vizier, L2159-2160); at most 2 cards; 4 types
        for the first, 5 for the second (L2088-2089, L2101-2105)."""
        out = list(found)
        a = purchase.action
        state = ctx.state
        if self._is_card_purchase(purchase):
            tile = token_text(a.tile)
            t = state.turn
            if t is not None and t.interrupt is not None:
                out.append(problem("KARAWANSEREI-VIZIER", a.pos, player.name, tile=tile))
            held = self.held(state, player)
            types = types_built(player)
            which = " ".join(x.value for x in types) or NOTHING
            common: dict[str, Any] = {"tile": tile, "types": len(types), "which": which}
            if len(held) >= per_player():
                reason = "limit"
            elif len(types) < types_needed(len(held)):
                reason = "second" if held else "types"
            else:
                reason = ""
            if reason:
                out.append(
                    problem(
                        "KARAWANSEREI-BUY",
                        a.pos,
                        player.name,
                        reason=reason,
                        held=self._held_text(state, player),
                        **common,
                    )
                )
        out.extend(self._paid_problems(ctx, player, purchase))
        return out

    # ------------------------------------------------------------- paying

    def _paid(self, purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    @refines(Decision.PAY_VALUE)
    def card_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Der komplette Betrag kann im Spiel beim Bezahlen wie eine entsprechende Geldkarte
        verwendet werden" (L2130-2133): the value of a held card's field, in its currency."""
        refs = self._paid(purchase)
        if not refs or purchase.field is None:
            return value
        allowed = allowed_currencies(ctx, purchase)
        held = self.held(ctx.state, purchase.player)
        for ref in refs:
            n = parse_card(ref)
            at = held.get(n) if n is not None else None
            if at is not None and (at[0] in allowed or at[0] is purchase.field):
                value += at[1]
        return value

    def _paid_problems(self, ctx: Any, player: PlayerState, purchase: Any) -> list[Finding]:
        refs = self._paid(purchase)
        if not refs or purchase.field is None:
            return []
        out: list[Finding] = []
        held = self.held(ctx.state, player)
        allowed = allowed_currencies(ctx, purchase)
        used: set[int] = set()
        tile = token_text(purchase.action.tile)
        for ref in refs:
            pos = ref.pos or purchase.action.pos
            card = f"{ref.kind}:{ref.name}"
            n = parse_card(ref)
            if n is None:
                found = problem("KARAWANSEREI-TOKEN", pos, player.name, reason="card", token=card)
                out.append(found)
            elif n not in held or n in used:
                out.append(
                    problem(
                        "KARAWANSEREI-NOT-HELD",
                        pos,
                        player.name,
                        card=card,
                        held=self._held_text(ctx.state, player),
                    )
                )
            elif held[n] is None:
                out.append(problem("KARAWANSEREI-EMPTY", pos, player.name, card=card))
            else:
                at = held[n]
                assert at is not None
                if at[0] not in allowed and at[0] is not purchase.field:
                    out.append(
                        problem(
                            "KARAWANSEREI-CURRENCY",
                            pos,
                            player.name,
                            card=card,
                            field=field_name(at),
                            tile=tile,
                            currency=purchase.field.code,
                        )
                    )
            if n is not None:
                used.add(n)
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Wird das Geld eingesetzt, kommt der Markierungsstein ... zurück auf das Feld 0" """
        held = self.held(ctx.state, purchase.player)
        for ref in self._paid(purchase):
            n = parse_card(ref)
            if n is not None and n in held:
                held[n] = None

    @refines(Decision.DISTRIBUTION_MONEY)
    def counts_at_the_end(
        self, ctx: Any, money: int | None, *, player: PlayerState, currency: Currency, **_: Any
    ) -> int | None:
        """ "zählt der aktuelle Betrag jeder Karawanserei mit" (L2172-2176)."""
        if money is None:
            return None
        return money + sum(
            at[1] for at in self.held(ctx.state, player).values() if at and at[0] is currency
        )

    # ------------------------------------------------------------- moving the stone

    @acts_at(Moment.SETUP_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)

    def _move(self, action: ModuleAction) -> tuple[int | None, tuple[Currency, int] | None]:
        if len(action.args) != 2:
            return None, None
        return parse_card(action.args[0].value), parse_field(action.args[1].value)

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """ "Wer ein oder zwei Karawanserei-Karten besitzt, darf zu Beginn seines Spielzuges –
        als erste Handlung – 1 Markierungsstein ein Feld weiterschieben" (L2113-2118, L2142-2143,
        L2162-2166)."""
        state = ctx.state
        pos = action.pos
        who = player.name
        if len(action.args) != 2:
            return []  # VERB-ARGS (the declared shape: a card and a field)
        number, to = self._move(action)
        card = token_text(action.args[0].value)
        if number is None:
            return [problem("KARAWANSEREI-TOKEN", pos, who, reason="card", token=card)]
        if to is None:
            return []  # not a field named as money: VERB-ARGS
        out: list[Finding] = []
        t = state.turn
        if t is not None and t.interrupt is not None:
            out.append(problem("KARAWANSEREI-OUT-OF-TURN", pos, who, card=card))
        elif t is not None and (t.main_actions or t.placing):
            when = Text("WORD/after placing" if t.placing else "WORD/after an action of the turn")
            out.append(problem("KARAWANSEREI-FIRST", pos, who, card=card, when=when))
        data = self.data(state)
        turn_no = t.number if t is not None else state.turn_no
        if data.moved.get(who) == turn_no and t is not None and t.interrupt is None:
            out.append(problem("KARAWANSEREI-ONE-STONE", pos, who, card=card))
        held = self.held(state, player)
        if number not in held:
            out.append(
                problem(
                    "KARAWANSEREI-NOT-HELD",
                    pos,
                    who,
                    card=card,
                    held=self._held_text(state, player),
                )
            )
            return out
        out.extend(self._track_findings(state, who, number, held[number], to, pos))
        return out

    def _track_findings(
        self,
        state: GameState,
        who: str,
        number: int,
        at: tuple[Currency, int] | None,
        to: tuple[Currency, int],
        pos: Any,
    ) -> list[Finding]:
        card = f"{KIND}:{number}"
        frm, dest = field_name(at), field_name(to)
        where: dict[str, Any] = {"card": card, "from": frm, "to": dest}
        if self.option("tracks") == "data":
            nexts = track(number).get(frm, [])
            if dest not in nexts:
                shown = " ".join(nexts) or NOTHING
                return [problem("KARAWANSEREI-TRACK", pos, who, reason="data", next=shown, **where)]
            return []
        if at is not None and to[1] < at[1]:
            return [problem("KARAWANSEREI-TRACK", pos, who, reason="lower", **where)]
        if to[1] > (at[1] if at is not None else 0) + 1:
            return [problem("KARAWANSEREI-TRACK", pos, who, reason="step", **where)]
        if frm == dest or _reaches(self.data(state).seen.get(number, set()), dest, frm):
            return [problem("KARAWANSEREI-TRACK", pos, who, reason="back", **where)]
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        number, to = self._move(action)
        data = self.data(state)
        t = state.turn
        if t is not None and t.interrupt is None:
            data.moved[player.name] = t.number
        held = self.held(state, player)
        if number is None or to is None or number not in held:
            return []
        data.seen.setdefault(number, set()).add((field_name(held[number]), field_name(to)))
        held[number] = to
        return []

    # ------------------------------------------------------------- position, view

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``caravan kw:3 Du2`` / ``caravan kw:3 0`` in a player's section: a card held, its
        stone's field."""
        if player is None or line.verb.lower() != VERB or len(line.args) != 2:
            return False
        pos = line.pos
        number = parse_card(line.args[0].value)
        if number is None:
            token = token_text(line.args[0].value)
            state.flag("KARAWANSEREI-TOKEN", pos, player.name, reason="card", token=token)
            return True
        raw = line.args[1].value
        to = parse_field(raw)
        if to is None and str(raw).strip() != START:
            token = token_text(raw)
            state.flag("KARAWANSEREI-TOKEN", pos, player.name, reason="field", token=token)
            return True
        if number not in self.on_offer(state):
            state.flag("KARAWANSEREI-TOKEN", pos, player.name, reason="twice", token=f"kw:{number}")
            return True
        self.held(state, player)[number] = to
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        if player is None:
            return []
        return [
            ModuleAction(
                VERB,
                (GenericArg(ComponentRef(KIND, str(n))), field_arg(at)),
            )
            for n, at in sorted(self.held(state, player).items())
        ]

    def view(self, state: GameState) -> dict[str, Any]:
        """The cards on offer, and each player's cards with the field of their stone."""
        offer = " ".join(f"{KIND}:{n}" for n in self.on_offer(state)) or "-"
        players: dict[str, dict[str, object]] = {}
        for p in state.players:
            cards = sorted(self.held(state, p).items())
            if cards:
                players[p.name] = {
                    "caravanserais": {
                        "en": ", ".join(f"{KIND}:{n} {_words(at, 'en')}" for n, at in cards),
                        "de": ", ".join(f"{KIND}:{n} {_words(at, 'de')}" for n, at in cards),
                    }
                }
        return self.shown({"cards on offer": offer}, players)

    # ------------------------------------------------------------- legal moves

    def _moves(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        """Each stone one field further along its card's (reconstructed) track."""
        out: list[ModuleAction] = []
        for n, at in sorted(self.held(state, player).items()):
            for dest in track(n).get(field_name(at), []):
                parsed = parse_field(dest)
                if parsed is None or self._track_findings(state, player.name, n, at, parsed, None):
                    continue
                out.append(
                    ModuleAction(VERB, (GenericArg(ComponentRef(KIND, str(n))), field_arg(parsed)))
                )
        return out

    def _may_move(self, state: GameState, player: PlayerState) -> bool:
        t = state.turn
        if t is not None and (t.interrupt is not None or t.main_actions or t.placing):
            return False
        number = t.number if t is not None else state.turn_no + 1
        return self.data(state).moved.get(player.name) != number

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """A stone moved (first act of the turn), and each market purchase paid with a card's
        value (with hand cards of that currency, none superfluous)."""
        from referee.engine.actions.purchase import payments
        from referee.engine.legal import card_ref, tile_ref

        state = ctx.state
        out: list[Any] = self._moves(state, player) if self._may_move(state, player) else []
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        for n, at in sorted(self.held(state, player).items()):
            if at is None:
                continue
            token = ComponentRef(KIND, str(n))
            for cur, tile, allowed, price in market_probes(ctx, player, (token,)):
                if at[0] not in allowed:
                    continue
                need = price - at[1]
                if need <= 0:
                    out.append(Buy(cur, tile_ref(tile), (token,)))
                    continue
                for pay in payments(hand, allowed, need):
                    if sum(c.value for c in pay) >= price:
                        continue  # the card would be superfluous
                    out.append(Buy(cur, tile_ref(tile), (*(card_ref(c) for c in pay), token)))
        return out

    def sim_turn_start(self, sim: Any, player: PlayerState) -> list[Any]:
        """The stone moves the simulator may make as the first act of a turn."""
        state = sim.state
        return self._moves(state, player) if self._may_move(state, player) else []

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a card bought, or a purchase paid with a card's value."""
        if sim.rng.random() >= 0.5:
            return []
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and (
                any(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
                or (isinstance(a.tile, ComponentRef) and a.tile.kind == KIND)
            )
        ]


def _words(at: tuple[Currency, int] | None, lang: str) -> str:
    """A stone's field in words: ``stone on Du2 (2 Dukaten)`` / ``Stein auf Du2 (2 Dukaten)``."""
    stone, on, start = ("Stein", "auf", "Start") if lang == "de" else ("stone", "on", "start")
    if at is None:
        return f"{stone} {on} 0 ({start})"
    return f"{stone} {on} {field_name(at)} ({at[1]} {at[0].name.title()})"


def _reaches(moves: set[tuple[str, str]], start: str, goal: str) -> bool:
    """Whether the stated moves lead from ``start`` to ``goal`` (a move back would close a
    loop: "aber nicht zurück")."""
    todo, seen = [start], {start}
    while todo:
        here = todo.pop()
        if here == goal:
            return True
        for a, b in moves:
            if a == here and b not in seen:
                seen.add(b)
                todo.append(b)
    return False
