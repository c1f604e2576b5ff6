"""Die Diamanten (diamonds): a fifth currency that buys any market tile but never mixes with
another currency.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE DIAMANTEN.

Notation: a diamond card is the component token ``dm:7`` (its value, 3 to 9). Diamonds are
money: dealt as start money (``* deal Anna Gu3 dm:7 De9``), revealed into the display
(``* display dm:5 Gu2``), taken like money cards (``take dm:3 Gu2``: the sum of several is at
most 5) and paid for a tile on any field (``buy Du T11 pay dm:5 dm:6``). The ten values may be
stated (``* diamonds 3 4 5 5 6 6 7 7 8 9``): only the picture showed which values repeat.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from referee.catalogue import Currency, TileKind
from referee.engine.context import Context
from referee.engine.core import display_occupied
from referee.engine.findings import problem
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    module_data,
    section,
    takes_with_money,
)
from referee.record.model import Buy, ComponentRef, ModuleChance, Pos, TakeMoney

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE DIAMANTEN"
S_USE = section(H, "Wie setzt man Diamanten ein?")
S_NOTES = section(H, "Anmerkungen")
KIND = "dm"
STATE_VERB = "diamonds"


_D = module_data("diamanten")["components"]["diamonds"]
VALUES = tuple(int(v) for v in _D["values"])  # the values a diamond card may have
COUNT = int(_D["count"])
ASSUMED = [int(v) for v in _D["assumed_values"]]  # the ten cards (reading: see the YAML)


def diamond_value(ref: object) -> int | None:
    """The value of a diamond token (``dm:7`` -> 7), or None when it is none."""
    if not isinstance(ref, ComponentRef) or ref.kind.lower() != KIND or not ref.name.isdigit():
        return None
    value = int(ref.name)
    return value if value in VALUES else None


def _fmt(values: Counter[int] | list[int]) -> str:
    items = sorted(values.elements()) if isinstance(values, Counter) else sorted(values)
    return " ".join(f"{KIND}:{v}" for v in items) or "-"


@dataclass
class DiamondScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    in_deck: int = 0  # diamond cards in the money deck
    stated: Counter[int] | None = None  # the ten values, when the record states them
    display: list[int] = field(default_factory=list)
    hands: dict[str, Counter[int]] = field(default_factory=dict)
    discard: Counter[int] = field(default_factory=Counter)
    out: Counter[int] = field(default_factory=Counter)  # out of the deck (dealt, revealed)


@bundled
class Diamanten(BundledModule):
    """Ten diamond cards in the money deck: a fifth currency paying for any tile, alone."""

    purchases_by_components = True  # its purchase refinements read only its own pieces

    component_kinds = (KIND,)
    chance_verbs = (STATE_VERB,)
    scratch_type = DiamondScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        # "Die Diamanten-Karten werden zusammen mit den anderen Geldkarten gemischt": all ten
        # in the deck (also in a two-player game: diamonds have no copies to remove)
        scratch.in_deck = COUNT
        scratch.hands = {p.name: Counter() for p in state.players}

    def hand(self, state: GameState, player: PlayerState) -> Counter[int]:
        # as ``hands.setdefault(player.name, Counter())``, without a new empty multiset (and
        # data's call) at each call
        hands = (state.modules.get(self.name) or self.data(state)).hands
        got = hands.get(player.name)
        if got is None:
            got = hands[player.name] = Counter()
        return got

    def view(self, state: GameState) -> dict[str, Any]:
        """Diamonds in the display, the deck, the discard pile and each hand."""
        data = self.data(state)
        return self.shown(
            {
                "display": _fmt(data.display),
                "in the deck": data.in_deck,
                "discard": _fmt(data.discard),
            },
            {p.name: {"diamonds": _fmt(self.hand(state, p))} for p in state.players},
        )

    # ------------------------------------------------------------------ money

    def money_value(self, state: GameState, ref: ComponentRef) -> int | None:
        """ "Diamanten bekommt man wie andere Geldkarten auch": a diamond is money."""
        return diamond_value(ref)

    def _where(self, state: GameState) -> str:
        data = self.data(state)
        parts = [f"{name} {_fmt(h)}" for name, h in data.hands.items() if +h]
        if data.display:
            parts.append(f"display {_fmt(data.display)}")
        if +data.discard:
            parts.append(f"discard {_fmt(data.discard)}")
        return ", ".join(parts) or "-"

    def _leave_deck(self, state: GameState, value: int, pos: Pos, who: str | None) -> None:
        """One diamond card leaves the deck (dealt or revealed): checked against the supply."""
        data = state.modules.get(self.name) or self.data(state)
        card = f"{KIND}:{value}"
        if data.in_deck <= 0:
            where = self._where(state)
            state.flag("DIAMOND-SUPPLY", pos, who, reason="count", card=card, where=where)
        elif data.stated is not None and data.out[value] >= data.stated[value]:
            stated, where = _fmt(data.stated), self._where(state)
            state.flag(
                "DIAMOND-SUPPLY", pos, who, reason="value", card=card, stated=stated, where=where
            )
        data.in_deck = max(0, data.in_deck - 1)
        data.out[value] += 1

    def _card(self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None) -> int | None:
        value = diamond_value(ref)
        if value is None:
            state.flag("DIAMOND-CARD", pos, who, token=f"{ref.kind}:{ref.name}")
        return value

    def deal_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, pos: Pos
    ) -> list[Any]:
        """A diamond dealt as start money ("Dann erhalten die Spieler ihr Startgeld")."""
        value = self._card(state, ref, pos, player.name)
        if value is not None:
            self._leave_deck(state, value, pos, player.name)
            self.hand(state, player)[value] += 1
        return []

    # its refinement adds its part's pieces in the display, as the engine may read them
    display_places = ("diamonds_in_display", "display")

    @refines(Decision.DISPLAY_OCCUPIED)
    def diamonds_in_display(self, ctx: Any, occupied: int, **_: Any) -> int:
        """Diamonds lying in the display take places of its four (they are money cards)."""
        state = ctx.state  # (asked at every display question: self.data(state) without its
        # call once the module's part exists, the same state.modules entry)
        return occupied + len((state.modules.get(self.name) or self.data(state)).display)

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        value = self._card(state, ref, pos, None)
        if value is None:
            return []
        ctx = Context(state)
        # (the engine's own question of ``display.occupied``: the rule chain's answer, with the
        # promised refinements read instead of called, ``Module.display_places``)
        occupied = int(display_occupied(state))
        if occupied >= int(ctx.decide(Decision.DISPLAY_SIZE)):
            state.flag("DIAMOND-DISPLAY", pos, occupied=occupied, card=f"{KIND}:{value}")
        self._leave_deck(state, value, pos, None)
        (state.modules.get(self.name) or self.data(state)).display.append(value)
        return []

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Any]:
        """A diamond taken from the display like a money card (the sum of several cards is
        checked by the engine, diamonds included: ``money_value``)."""
        data = state.modules.get(self.name) or self.data(state)
        pos = ref.pos or action.pos
        value = self._card(state, ref, pos, player.name)
        if value is None:
            return []
        if value in data.display:
            data.display.remove(value)
        else:
            from referee.engine.fmt import fmt_cards

            money = fmt_cards(state.display) if state.display else ""
            shown = " ".join(x for x in (money, _fmt(data.display)) if x and x != "-") or "empty"
            card = f"{KIND}:{value}"
            state.flag("TAKE-NOT-IN-DISPLAY", pos, player.name, card=card, display=shown)
        self.hand(state, player)[value] += 1
        return []

    def reshuffle(self, state: GameState, pos: Pos) -> list[Any]:
        """ "der Ablagestapel wird gemischt": paid diamonds come back into the deck."""
        data = self.data(state)
        if data.in_deck > 0:
            state.flag("DIAMOND-RESHUFFLE", pos, n=data.in_deck)
        back = data.discard.total()
        data.in_deck += back
        data.out -= data.discard
        data.discard.clear()
        return []

    # ------------------------------------------------------- purchase pipeline

    @staticmethod
    def _paid(purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    @refines(Decision.PAY_CURRENCIES)
    def diamonds_alone(
        self, ctx: Any, allowed: frozenset[Currency], *, purchase: Any, **_: Any
    ) -> frozenset[Currency]:
        """ "Diamanten ersetzen dabei jede andere Währung. Allerdings dürfen sie nicht mit
        anderen Währungen kombiniert werden": a payment with diamonds lets no other currency
        pay (the diamonds themselves pay for any field)."""
        return frozenset() if self._paid(purchase) else allowed

    @refines(Decision.PAY_VALUE)
    def diamonds_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Mit ihnen kann man beliebige Plättchen vom Bauhof kaufen": the diamonds count
        whatever the field's currency."""
        return value + sum(diamond_value(r) or 0 for r in self._paid(purchase))

    @refines(Decision.PAY_PROBLEMS)
    def diamond_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """Held diamonds, no other currency, no exchange card."""
        refs = self._paid(purchase)
        if not refs:
            return found
        out = list(found)
        a = purchase.action
        state = ctx.state
        hand = Counter(self.hand(state, player))
        for ref in refs:
            pos = ref.pos or a.pos
            value = diamond_value(ref)
            if value is None:
                out.append(
                    problem("DIAMOND-CARD", pos, player.name, token=f"{ref.kind}:{ref.name}")
                )
                continue
            if hand[value] > 0:
                hand[value] -= 1
            else:
                card, held = f"{KIND}:{value}", _fmt(+self.hand(state, player))
                out.append(problem("DIAMOND-NOT-HELD", pos, player.name, card=card, held=held))
        shown = " ".join(f"{r.kind}:{r.name}" for r in refs)
        cards = [s for s in purchase.steps if s.source != "module"]
        # module money paid along (a master-builder card "eine normale Geldkarte mit dem Wert
        # 3", a coin, a stored credit): found by asking the ruleset what it counts, never by name
        money = [
            s
            for s in purchase.steps
            if s.source == "module"
            and isinstance(s.ref, ComponentRef)
            and s.ref.kind.lower() != KIND
            and self._counts_as_money(ctx, player, purchase, s)
        ]
        if cards or money:
            from referee.engine.fmt import fmt_cards

            first = min((*cards, *money), key=lambda s: (s.pos.line, s.pos.column))
            named = [fmt_cards([s.card for s in cards])] if cards else []
            named += [f"{s.ref.kind}:{s.ref.name}" for s in money]
            mixed = " ".join(named)
            out.append(problem("DIAMOND-MIX", first.pos, player.name, diamonds=shown, cards=mixed))
        # a module component that lets another currency pay (an exchange card): found by
        # asking the ruleset, never by the component's name
        # (no other module component paid: no probe to make, nor the plain purchase's answer
        # they are compared with, a decision that changes nothing)
        others = [r for r in purchase.modules_paid if r.kind.lower() != KIND]
        if purchase.field is not None and others:
            plain = dataclasses.replace(
                purchase, steps=[s for s in purchase.steps if s.source != "module"]
            )
            plain.allowed, plain.value = None, None
            base = self._allowed(ctx, player, purchase.field, plain)
            for other in others:
                probe = dataclasses.replace(
                    purchase,
                    steps=[
                        *plain.steps,
                        *(s for s in purchase.steps if s.ref is other),
                    ],
                )
                probe.allowed, probe.value = None, None
                if self._allowed(ctx, player, purchase.field, probe) - base:
                    token = f"{other.kind}:{other.name}"
                    at = other.pos or a.pos
                    out.append(problem("DIAMOND-EXCHANGE", at, player.name, token=token))
        return out

    @staticmethod
    def _counts_as_money(ctx: Any, player: PlayerState, purchase: Any, step: Any) -> bool:
        """Whether a module component paid is money of a currency: alone (without the
        diamonds and the cards) it pays on the field of some currency but not on every field
        (a treasure, money "einer beliebigen Währung", pays everywhere and is no currency)."""
        pays = 0
        for cur in Currency:
            probe = dataclasses.replace(purchase, steps=[step], field=cur)
            probe.allowed, probe.value = None, None
            if ctx.decide(Decision.PAY_VALUE, player=player, purchase=probe, counted=[]):
                pays += 1
        return 0 < pays < len(Currency)

    @staticmethod
    def _allowed(ctx: Any, player: PlayerState, field: Currency, purchase: Any) -> frozenset[Any]:
        return frozenset(
            ctx.decide(Decision.PAY_CURRENCIES, player=player, field=field, purchase=purchase)
        )

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[Any, ...],
        allowed: frozenset[Any],
        price: int,
    ) -> tuple[int, bool] | None:
        """A payment with diamonds alone that :meth:`diamond_problems` passes (no money card
        beside them; every token a diamond's value, as many of each held): their sum, exact as
        the base rule has it. (:meth:`diamonds_alone` lets no currency pay beside them: with
        no card paid nothing reads that answer.)"""
        if cards:
            return None  # DIAMOND-MIX
        # self.data(state) without its call once the module's part exists
        hand = (state.modules.get(self.name) or self.data(state)).hands.get(player.name)
        if not hand:
            return None
        need: dict[int, int] = {}
        total = 0
        for ref in refs:
            value = diamond_value(ref)
            if value is None:
                return None  # DIAMOND-CARD
            n = need.get(value, 0) + 1
            if hand[value] < n:
                return None  # DIAMOND-NOT-HELD
            need[value] = n
            total += value
        return total, False

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> None:
        """:meth:`on_purchase` for a payment :meth:`plain_components` passed."""
        data = self.data(state)
        hand = self.hand(state, player)
        for ref in refs:
            value = diamond_value(ref)
            assert value is not None
            hand[value] -= 1
            if hand[value] == 0:
                del hand[value]
            data.discard[value] += 1

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """The diamonds paid go to the discard pile like money cards."""
        refs = self._paid(purchase)
        if not refs:
            return
        data = self.data(ctx.state)
        hand = self.hand(ctx.state, purchase.player)
        for ref in refs:
            value = diamond_value(ref)
            if value is None:
                continue
            if hand[value] > 0:
                hand[value] -= 1
                if hand[value] == 0:
                    del hand[value]
            data.discard[value] += 1

    # ------------------------------------------------------------- statements

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* diamonds 3 4 5 5 6 6 7 7 8 9``: the ten values (only the picture showed them)."""
        data = self.data(state)
        pos = event.pos
        values: list[int] = []
        for arg in event.args:
            raw = str(arg.value)
            if raw.lower().startswith(f"{KIND}:"):
                raw = raw[len(KIND) + 1 :]
            values.append(int(raw) if raw.lstrip("-").isdigit() else -1)
        stated = Counter(values)
        shown = " ".join(str(v) for v in values) or "-"
        if len(values) != COUNT or any(v not in VALUES for v in values):
            state.flag("DIAMOND-STATED", pos, reason="count", stated=shown)
            return []
        if data.stated is not None and data.stated != stated:
            before = " ".join(str(v) for v in sorted(data.stated.elements()))
            state.flag("DIAMOND-STATED", pos, reason="twice", stated=shown, before=before)
            return []
        if data.out - stated:
            state.flag("DIAMOND-STATED", pos, reason="seen", stated=shown, seen=_fmt(data.out))
        data.stated = stated
        return []

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        """The diamonds in ``player``'s hand (None: in the display), as a position's ``hand`` /
        ``display`` line names them (read back by :meth:`position_component`)."""
        if player is None:
            values = sorted(self.data(state).display)
        else:
            values = sorted(self.hand(state, player).elements())
        return [ComponentRef(KIND, str(v)) for v in values]

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A diamond in a position's display or in a player's hand."""
        if where not in ("display", "hand") or (where == "hand" and player is None):
            return False, None
        value = self._card(state, ref, ref.pos, player.name if player else None)
        if value is None:
            return True, None
        self._leave_deck(state, value, ref.pos, player.name if player else None)
        if where == "display":
            self.data(state).display.append(value)
        else:
            assert player is not None
            self.hand(state, player)[value] += 1
        return True, None

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Diamonds taken like money (one card, or several with a sum of at most the take
        limit, diamonds and money cards together), and each purchase paid with diamonds only
        (any field; no superfluous card)."""
        from referee.engine.legal import tile_ref

        state = ctx.state
        data = self.data(state)
        shown = [(ComponentRef(KIND, str(v)), v) for v in sorted(set(data.display))]
        out = takes_with_money(ctx, player, shown, last=True)
        hand = sorted(self.hand(state, player).elements())
        if not hand:
            return out
        ways: set[tuple[int, ...]] = set()
        for k in range(1, len(hand) + 1):
            ways.update(combinations(hand, k))
        for i, tile in enumerate(state.market):
            if not isinstance(tile, TileKind):
                continue
            cur = Currency.of_field(i + 1)
            price = tile.price
            for way in sorted(ways):
                total = sum(way)
                if total < price or any(total - v >= price for v in way):
                    continue  # short, or a superfluous card
                paid = tuple(ComponentRef(KIND, str(v)) for v in way)
                out.append(Buy(cur, tile_ref(tile), paid))
        return out

    # ------------------------------------------------------------ simulator

    def sim_deck_components(self, sim: Any) -> list[object]:
        """ "Die Diamanten-Karten werden zusammen mit den anderen Geldkarten gemischt. Dann
        erhalten die Spieler ihr Startgeld": the ten cards (assumed values, see the YAML)."""
        return [ComponentRef(KIND, str(v)) for v in ASSUMED]

    def sim_reshuffle(self, sim: Any) -> list[object]:
        data = self.data(sim.state)
        return [ComponentRef(KIND, str(v)) for v in sorted(data.discard.elements())]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then an exact purchase with diamonds."""
        if sim.rng.random() >= 0.5:
            return []
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and a.paid
            and all(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
            and sum(diamond_value(r) or 0 for r in a.paid) == getattr(a.tile, "price", -1)
        ]
