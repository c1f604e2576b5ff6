"""Die Macht des Sultans (the sultan's power): sultan cards bought beside the market, a die marks
a building type, and the holder claims a tile of that type drawn for the market, out of turn.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE MACHT DES SULTANS (L1961-2077).

Names, summary, option switch and rule texts: ``sultan.yaml``.

Notation (see ``sultan.yaml`` and ``docs/modules/sultan.md``):

* ``* display Gu3 su:De`` -- a sultan card revealed from the money deck ("Jede aufgedeckte
  Sultankarte wird neben dem Spielplan offen bereitgelegt"); it takes no display place
  ("Weitere Karten werden aufgedeckt, bis die ausliegenden Geldkarten auf 4 ergänzt sind").
* ``* sultan su:De A C`` -- the die for that card: rolled arcades, marked chambers ("Entweder
  das, was er gewürfelt hat, oder dasjenige, das diesem Symbol auf dem Würfel gegenüberliegt").
* ``3. Ben: buy su:De pay De7`` -- "wie Gebäude gekauft ... 7, die benötigte Währung ist auf der
  Karte angegeben"; an exact payment gives another action (the one purchase pipeline, E15).
  ``su:DeC`` names the card by its mark too (two open Denar cards).
* ``* sultan Ben su:De G`` -- the buyer's one re-roll ("entfernt er den Stein und würfelt
  einmal"): the new face is marked (option ``reroll=choose``: ``* sultan Ben su:De G T``).
* ``Ben: sultan su:DeC C9s, place C9s@2,0`` -- out of turn, right after the market line that
  drew C9s ("darf ... das Plättchen kostenlos nehmen. Er muss es sofort in seiner Alhambra
  verbauen oder in seine Reserve legen"); the card leaves the game; the next market line fills
  the field again. ``Ben: sultan su:DeC Gu, ...`` names the field instead of the tile;
  ``Ben: sultan su:DeC C9s Cem, ...`` names a contender (precedence checked).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache

from referee.catalogue import BuildingType, Currency, TileKind
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, acts_at
from referee.engine.findings import problem
from referee.engine.fmt import fmt_ref
from referee.engine.market_side import SideOffer, take_from_market
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Claim, Moment, Phase, seat_order, start_main_action
from referee.engine.verbs import VerbSpec
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    interrupting_player,
    module_data,
)
from referee.notation import formatter
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    GenericArg,
    Give,
    ModuleAction,
    ModuleChance,
    Place,
    PlayerRef,
    Pos,
    Reserve,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KIND = "su"
VERB = "sultan"
TOKEN = re.compile(r"^(gu|di|de|du)([psacgt])?$", re.IGNORECASE)


def _data() -> dict[str, Any]:
    return module_data("sultan")["components"]


def price() -> int:
    return int(_data()["sultan_cards"]["price"])


def per_currency() -> int:
    return int(_data()["sultan_cards"]["per_currency"])


def card_count() -> int:
    return int(_data()["sultan_cards"]["count"])


@cache
def opposite(face: BuildingType) -> BuildingType:
    """The face opposite ``face`` on the building die (YAML ``die.opposite``; looked up once
    per face)."""
    for entry in _data()["die"]["opposite"]:
        a, b = (BuildingType(x) for x in entry["pair"])
        if face is a:
            return b
        if face is b:
            return a
    raise ValueError(face)  # pragma: no cover - the YAML pairs all six faces


_FACES = {t.value: t for t in BuildingType}


def _face(v: object) -> BuildingType | None:
    return _FACES.get(str(v).strip().upper())


@dataclass(eq=False)
class SultanCard:
    """One sultan card: its currency (the record states it), the die's roll and mark."""

    currency: Currency
    serial: int
    rolled: BuildingType | None = None
    mark: BuildingType | None = None
    pos: Pos = NOWHERE  # where it was revealed
    missing_told: bool = False

    type = None  # no building: it is never placed
    price = 7

    @property
    def code(self) -> str:
        return f"{KIND}:{self.currency.code}{self.mark.value if self.mark else ''}"

    @property
    def name(self) -> str:
        return self.code.partition(":")[2]

    def __str__(self) -> str:
        return self.code

    def matches(self, ref: ComponentRef) -> bool:
        """``su:De`` names any card of the currency, ``su:DeC`` the one marked chambers."""
        got = _parse_token(ref.kind, ref.name)
        if got is None or got[0] is not self.currency:
            return False
        return got[1] is None or got[1] is self.mark


_OWN_MOMENTS = (Moment.TURN_START, Moment.LEFTOVERS_BEFORE, Moment.GAME_END)
"""The moments of :meth:`Sultan.at_moment`'s own steps (not a refill's close: the draws noted
lapse there by themselves, see ``SultanScratch.fresh_closed``)."""
_TURN_START = Moment.TURN_START
_REFILL = Phase.REFILL


# a player's ``sultan`` line in a position: the cards bought in the turn just played, those of
# them re-rolled already (English, German)
_BOUGHT, _REROLLED = "bought", "rerolled"
_POSITION_WORDS = {"bought": _BOUGHT, "gekauft": _BOUGHT, "rerolled": _REROLLED}
_POSITION_WORDS["gewuerfelt"] = _REROLLED


@dataclass
class SultanScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    revealed: Counter[str] = field(default_factory=Counter)  # per currency code
    serials: int = 0
    open: list[SultanCard] = field(default_factory=list)  # beside the board
    held: dict[str, list[SultanCard]] = field(default_factory=dict)
    used: list[tuple[str, str, str]] = field(default_factory=list)  # (player, card, tile)
    # drawn in the open refill: (field, piece) noted while ``fresh_closed`` refills had closed
    # (GameState.refills_closed); read only while that count holds (:func:`_live`): a refill's
    # close lapses them as clearing them there did, without a step
    fresh: list[tuple[int, Any]] = field(default_factory=list)
    fresh_closed: int = 0
    just_bought: dict[str, list[int]] = field(default_factory=dict)  # serials, this turn
    rerolled: set[int] = field(default_factory=set)
    # the kept answer at a turn's start (Module.kept_idle): True once a step or idle_at found
    # nothing to do there (no fresh draw, no card bought this turn, every open card marked or
    # told); None (ask idle_at) after anything that may change that: a draw outside a refill (a
    # refill's draws lapse when it closes, before the next turn's start), a purchase, a card laid
    idle_start: bool | None = field(default=None, repr=False, compare=False)


def _live(state: GameState, data: SultanScratch) -> list[tuple[int, Any]]:
    """The draws noted in the open refill (``fresh``), none once a refill closed after them."""
    return data.fresh if data.fresh_closed == state.refills_closed else []


def _parse(ref: ComponentRef) -> tuple[Currency, BuildingType | None] | None:
    return _parse_token(ref.kind, ref.name)


@lru_cache(maxsize=256)
def _parse_token(kind: str, name: str) -> tuple[Currency, BuildingType | None] | None:
    """A sultan card's token (``su:DeC``): its currency and mark, or None (read once per
    spelling: the cards' tokens repeat through a game)."""
    m = TOKEN.match(name) if kind.lower() == KIND else None
    if m is None:
        return None
    cur = Currency.of_code(m.group(1))
    if cur is None:  # pragma: no cover - the pattern admits the four codes only
        return None
    return cur, (_face(m.group(2)) if m.group(2) else None)


@bundled
class Sultan(BundledModule):
    """Sultan cards beside the market; the die's mark; claims of drawn tiles out of turn."""

    purchases_by_components = True  # its purchase refinements read only its own pieces
    plain_side_offers = True  # an open card bought in turn: at 7, its take_side_offer only

    verb_specs = (VerbSpec(VERB, kind=ActionKind.INTERRUPT),)
    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = SultanScratch
    interrupt_rank = -10  # "Erst nach der Aktion Macht des Sultans kommt ... Gunst des Wesirs"
    interrupt_in_refill = True
    reads_refills_closed = True  # the draws noted lapse when the refill closes (_live)

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.held = {p.name: [] for p in state.players}

    def held(self, state: GameState, player: PlayerState) -> list[SultanCard]:
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        return data.held.setdefault(player.name, [])

    # ------------------------------------------------------------- reveal and die

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        piles = _data()["sultan_cards"]["piles"]
        return {int(k): [None] * int(v) for k, v in piles.items()}

    def display_place(self, ref: ComponentRef) -> bool:
        """A sultan card lies beside the board, not in one of the display's four places."""
        return False

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        """ "Jede aufgedeckte Sultankarte wird neben dem Spielplan offen bereitgelegt." """
        data = state.modules.get(self.name) or self.data(state)
        token = f"{ref.kind}:{ref.name}"
        got = _parse(ref)
        if got is None:
            state.flag("SULTAN-CARD", pos, reason="form", token=token)
            return []
        cur, mark = got
        if mark is not None:
            state.flag("SULTAN-CARD", pos, reason="marked-on-reveal", token=token)
        if sum(data.revealed.values()) >= card_count():
            state.flag("SULTAN-SUPPLY", pos, reason="count", token=token, count=card_count())
        elif data.revealed[cur.code] >= per_currency():
            state.flag("SULTAN-SUPPLY", pos, reason="currency", token=token, n=per_currency())
        self._check_pile(state, token, pos)
        data.revealed[cur.code] += 1
        data.serials += 1
        data.open.append(SultanCard(cur, data.serials, pos=pos))
        data.idle_start = None
        return []

    def _check_pile(self, state: GameState, token: str, pos: Pos) -> None:
        if state.phase == "setup" or state.deck_uncertain:
            return
        if state.reshuffles > 0:
            state.flag("SULTAN-PILE", pos, reason="after-reshuffle", token=token)
            return
        n = state.setup_after
        if n <= 0:
            return
        hi = min(n, math.ceil(3 * n / 5 * (1 + state.profile.pile_tolerance)))
        k = state.money_draws
        if k > hi:
            state.flag("SULTAN-PILE", pos, reason="late", token=token, k=k, n=n, hi=hi)

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        args = list(event.args)
        if args and isinstance(args[0].value, str) and state.player_named(args[0].value):
            self._reroll(state, event, args)
            return []
        if len(args) != 3 or not isinstance(args[0].value, ComponentRef):
            state.flag("SULTAN-MARK", event.pos, reason="form")
            return []
        ref = args[0].value
        got = _parse(ref)
        token = f"{ref.kind}:{ref.name}"
        if got is None:
            state.flag("SULTAN-CARD", args[0].pos or event.pos, reason="form", token=token)
            return []
        card = next(
            (
                c
                for c in (state.modules.get(self.name) or self.data(state)).open
                if c.currency is got[0] and c.mark is None
            ),
            None,
        )
        if card is None:
            state.flag("SULTAN-MARK", args[0].pos or event.pos, reason="no-card", card=token)
            return []
        faces = self._faces(state, card, args[1:], event.pos)
        if faces is None:
            return []
        rolled, marked = faces
        self._check_choice(state, card, rolled, marked, args[2].pos or event.pos)
        card.rolled, card.mark = rolled, marked
        return []

    def _faces(
        self, state: GameState, card: SultanCard, args: list[GenericArg], pos: Pos
    ) -> list[BuildingType] | None:
        out: list[BuildingType] = []
        for a in args:
            f = _face(a.value)
            if f is None:
                state.flag("SULTAN-MARK", a.pos or pos, reason="face", card=card.code, face=a.value)
                return None
            out.append(f)
        return out

    @staticmethod
    def _check_choice(
        state: GameState, card: SultanCard, rolled: BuildingType, marked: BuildingType, pos: Pos
    ) -> None:
        """ "Eines dieser beiden Symbole muss er auf der Sultankarte markieren." """
        if marked not in (rolled, opposite(rolled)):
            state.flag(
                "SULTAN-MARK",
                pos,
                reason="not-rolled",
                card=card.code,
                rolled=rolled.value,
                marked=marked.value,
                opposite=opposite(rolled).value,
            )

    def _reroll(self, state: GameState, event: ModuleChance, args: list[GenericArg]) -> None:
        """``* sultan Ben su:De G``: the buyer's one re-roll."""
        data = self.data(state)
        player = state.player_named(str(args[0].value))
        assert player is not None
        if len(args) < 3 or not isinstance(args[1].value, ComponentRef):
            state.flag("SULTAN-MARK", event.pos, reason="form")
            return
        ref = args[1].value
        token = f"{ref.kind}:{ref.name}"
        # two held cards may read alike (same currency and mark): the one just bought, not yet
        # re-rolled, is the one meant
        fresh = data.just_bought.get(player.name, [])
        alike = [c for c in self.held(state, player) if c.matches(ref)]
        alike.sort(key=lambda c: (c.serial not in fresh, c.serial in data.rerolled))
        card = alike[0] if alike else None
        if card is None:
            state.flag(
                "SULTAN-REROLL",
                args[1].pos or event.pos,
                player.name,
                reason="not-bought",
                card=token,
            )
            return
        faces = self._faces(state, card, args[2:], event.pos)
        if faces is None:
            return
        if card.serial not in data.just_bought.get(player.name, []):
            state.flag(
                "SULTAN-REROLL",
                args[1].pos or event.pos,
                player.name,
                reason="not-bought",
                card=token,
            )
        elif card.serial in data.rerolled:
            state.flag(
                "SULTAN-REROLL", args[1].pos or event.pos, player.name, reason="twice", card=token
            )
        choose = self.option("reroll") == "choose"
        if len(faces) == 2 and choose:
            self._check_choice(state, card, faces[0], faces[1], args[3].pos or event.pos)
        elif len(faces) != 1:
            state.flag(
                "SULTAN-REROLL", args[2].pos or event.pos, player.name, reason="faces", card=token
            )
        data.rerolled.add(card.serial)
        card.rolled, card.mark = faces[0], faces[-1]

    # ------------------------------------------------------------- buying (E15)

    def side_offers(self, state: GameState) -> list[Any]:
        """Each open card: "Der Kaufpreis beträgt für jede Sultankarte 7, die benötigte Währung
        ist auf der Karte angegeben"; any payment (exact -> another action); no placement."""
        return [
            SideOffer(c, self, c.currency, price(), False, "SULTAN-BUY", placed=False)
            for c in self.data(state).open
        ]

    def take_side_offer(self, state: GameState, piece: object) -> None:
        """ "Der Käufer legt die Karte mit der Markierung offen vor sich ab." """
        data = self.data(state)
        if not isinstance(piece, SultanCard) or piece not in data.open or state.turn is None:
            return
        data.open.remove(piece)
        buyer = state.players[state.turn.player]
        self.held(state, buyer).append(piece)
        data.just_bought.setdefault(buyer.name, []).append(piece.serial)
        data.idle_start = None

    @refines(Decision.PAY_PROBLEMS)
    def no_sultan_card_out_of_turn(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """ "Mit einem Wesir kann man keine Sultankarte kaufen": a sultan card is bought with
        the action "Gebäudeplättchen kaufen" of one's own turn, never in an out-of-turn line
        (whatever module opened it)."""
        offer = getattr(purchase, "offer", None)
        t = ctx.state.turn
        if offer is None or offer.module is not self or t is None or t.interrupt is None:
            return found
        a = purchase.action
        return [
            *found,
            problem(
                "SULTAN-BUY-TIMING",
                a.pos,
                player.name,
                tile=f"{a.tile.kind}:{a.tile.name}"
                if isinstance(a.tile, ComponentRef)
                else str(a.tile),
            ),
        ]

    # ------------------------------------------------------------- claims (E14)

    def market_draw(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        """Every building drawn for a market field is noted (a holder may claim it until the
        refill is closed); it lies on the field meanwhile (None: not set aside)."""
        if type(piece) is TileKind or isinstance(getattr(piece, "type", None), BuildingType):
            # (a catalogue tile: always a building type; tested first, without the attribute)
            # self.data(state) without its call once the module's part exists
            data = state.modules.get(self.name) or self.data(state)
            closed = state.refills_closed
            if data.fresh_closed != closed:  # a refill closed since the last note: lapsed
                data.fresh.clear()
                data.fresh_closed = closed
            data.fresh.append((field, piece))
            if state.phase is not _REFILL:
                # a draw outside a refill (the setup's market, a draw inside a turn) may still
                # be open at the next turn's start: ask again there. A refill's draw keeps the
                # answer: the engine closes every refill before the next turn begins (and
                # counts it in GameState.refills_closed), so at that turn's start the note has
                # lapsed (_live), and the step's clearing it changes nothing anybody reads
                data.idle_start = None
        return None

    @acts_at(*_OWN_MOMENTS)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        # (of the three own moments: TURN_START and LEFTOVERS_BEFORE clear the fresh draws;
        # all three report unmarked cards; the one asked every turn is told apart first)
        state = ctx.state
        if moment == _TURN_START:  # (asked every turn whose kept answer is not idle)
            # self.data(state) without its call once the module's part exists
            data = state.modules.get(self.name) or self.data(state)
            if data.fresh:
                data.fresh.clear()
            if data.just_bought:
                data.just_bought.clear()
        elif moment not in _OWN_MOMENTS:  # the kit's step only (the module's part exists)
            super().at_moment(ctx, moment)
            return
        else:
            data = state.modules.get(self.name) or self.data(state)  # (as at a turn's start)
            if moment != Moment.GAME_END:
                data.fresh.clear()
        for card in data.open:
            if card.mark is None and not card.missing_told:
                card.missing_told = True
                state.flag("SULTAN-MARK", card.pos, reason="missing", card=card.code)
        if moment is _TURN_START:  # nothing left to do there: idle_at's answer now
            data.idle_start = True

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``sultan`` inside a numbered turn: a claim is made while the market is refilled."""
        return [problem("SULTAN-TIMING", action.pos, player.name, reason="inside-turn")]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        start_main_action(state)  # whatever it was, the player did something (reported)
        return []

    out_of_turn_verbs = frozenset({VERB})  # (its out_of_turn reads a `sultan` line only)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction) or acts[0].verb.lower() != VERB:
            return None
        player = interrupting_player(state, turn)
        if player is None:
            return []
        self._claim(state, player, turn)
        return []

    def _held_text(self, state: GameState, player: PlayerState) -> str:
        return " ".join(c.code for c in self.held(state, player)) or "-"

    def _claim(self, state: GameState, player: PlayerState, turn: Turn) -> None:
        ctx = Context(state)
        data = self.data(state)
        use = turn.actions[0]
        assert isinstance(use, ModuleAction)
        pos = turn.pos
        args = list(use.args)
        if state.phase != Phase.REFILL:
            state.flag("SULTAN-TIMING", use.pos, player.name, reason="no-refill")
        if state.scoring_pending:
            state.flag("SULTAN-TIMING", use.pos, player.name, reason="scoring-first")
        if len(args) < 2 or not isinstance(args[0].value, ComponentRef):
            state.flag("SULTAN-CLAIM", use.pos, player.name, reason="form")
            return
        ref = args[0].value
        token = f"{ref.kind}:{ref.name}"
        if _parse(ref) is None:
            state.flag(
                "SULTAN-CARD", args[0].pos or use.pos, player.name, reason="form", token=token
            )
            return
        found = self._find_fresh(state, args[1].value)
        tile_text = (
            str(args[1].value) if not isinstance(args[1].value, TileRef) else _ref(args[1].value)
        )
        if found is None:
            dirk = state.dirk or []
            is_dirk = isinstance(args[1].value, TileRef) and any(
                t is not None and t in args[1].value.candidates for t in dirk
            )
            if is_dirk:
                state.flag("SULTAN-DIRK", args[1].pos or use.pos, player.name, tile=tile_text)
            else:
                state.flag(
                    "SULTAN-CLAIM",
                    args[1].pos or use.pos,
                    player.name,
                    reason="not-drawn",
                    tile=tile_text,
                )
            return
        fld, tile = found
        cards = [c for c in self.held(state, player) if c.matches(ref)]
        card = next((c for c in cards if c.mark is tile.type), cards[0] if cards else None)
        if card is None:
            state.flag(
                "SULTAN-CLAIM",
                args[0].pos or use.pos,
                player.name,
                reason="not-held",
                card=token,
                held=self._held_text(state, player),
            )
        elif card.mark is not None and card.mark is not tile.type:
            state.flag(
                "SULTAN-CLAIM",
                args[1].pos or use.pos,
                player.name,
                reason="wrong-type",
                card=card.code,
                marked=card.mark.value,
                tile=tile.code,
                type=tile.type.value,
            )
        self._check_order(ctx, player, tile, args[2:], use)
        saved = ctx.begin_interrupt(player, self.name, pos)
        t = state.turn
        assert t is not None
        take_from_market(state, fld, player)  # the other modules hear of it (E14)
        data.fresh = [(f, x) for f, x in data.fresh if f != fld]
        t.pending.append(tile)
        if card is not None:
            self.held(state, player).remove(card)  # "Die entsprechende Sultankarte kommt aus
            data.used.append((player.name, card.code, tile.code))  # dem Spiel."
        extra = self._line_findings(state, player, turn) if state.checking else {}
        for i, a in enumerate(turn.actions[1:], 1):
            ctx.report(extra.get(i, ()))
            if self._placing(state, a):
                ctx.run_action(a)
        ctx.close_placements(pos, player)
        ctx.end_interrupt(saved)  # the next market line fills the field again

    def _line_findings(
        self, state: GameState, player: PlayerState, turn: Turn
    ) -> dict[int, list[Any]]:
        """The claim line's own faults (pure), by the index of the action concerned: "Er muss
        es sofort in seiner Alhambra verbauen oder in seine Reserve legen" -- anything else on
        the line is named as the record wrote it, never by a class name."""
        out: dict[int, list[Any]] = {}
        for i, a in enumerate(turn.actions[1:], 1):
            if not self._placing(state, a):
                apos = getattr(a, "pos", None) or turn.pos
                what = formatter.action(a)
                out[i] = [problem("SULTAN-ACTION", apos, player.name, what=what)]
        return out

    @staticmethod
    def _placing(state: GameState, a: Any) -> bool:
        """An action a claim line may hold: the tile placed or reserved, or a free action."""
        free = isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE
        return isinstance(a, Place | Reserve | Give) or free

    def _find_fresh(self, state: GameState, value: object) -> tuple[int, Any] | None:
        """The tile just drawn that the claim names (by the tile, or by its field's
        currency), still lying on its field."""
        cur = Currency.of_code(value) if isinstance(value, str) else None
        for fld, tile in reversed(_live(state, self.data(state))):
            if state.market[fld] != tile:
                continue
            if cur is not None and cur.field - 1 == fld:
                return fld, tile
            if isinstance(value, TileRef) and tile in value.candidates:
                return fld, tile
            if isinstance(value, ComponentRef) and _same_piece(tile, value):
                return fld, tile  # a module building (a magic building mg:P9n) by its token
        return None

    def _check_order(
        self, ctx: Context, player: PlayerState, tile: Any, named: list[GenericArg], use: Any
    ) -> None:
        """ "Sollten mehrere Spieler über eine passend markierte Sultankarte verfügen, gilt
        unter ihnen die Spielreihenfolge, beginnend bei dem Spieler, der als Nächster von ihnen
        an der Reihe wäre." Contenders named on the line who hold such a card are ranked by
        the arbiter (seats from the player who would move next)."""
        state = ctx.state

        def not_held(other: PlayerState, pos: Pos) -> None:
            if self.could_claim(ctx, other, tile):
                return  # he holds the card; the claim is outside the refill (reported)
            state.flag(
                "SULTAN-CLAIM",
                pos,
                other.name,
                reason="not-held",
                card=f"{KIND}:?{tile.type.value}",
                held=self._held_text(state, other),
            )

        acting = Claim(player, self.name, use.pos)
        state.ext.arbiter.contest(ctx, acting, named, "SULTAN-ORDER", want=tile, refused=not_held)

    def could_claim(self, ctx: Context, player: PlayerState, want: object) -> bool:
        """A tile just drawn may be claimed by a player holding a sultan card marked with its
        type ("Sollten mehrere Spieler über eine passend markierte Sultankarte verfügen")."""
        kind = getattr(want, "type", None)
        return any(
            c.mark is kind if kind is not None else True for c in self.held(ctx.state, player)
        )

    # ------------------------------------------------------------- positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``sultan su:DeC ...``: in a player's section the cards held, outside the open ones
        beside the board (each with its mark). In a player's section the cards after
        ``bought`` (``gekauft``) were bought in the turn just played (or the open one) and may
        still be re-rolled ("Der Käufer legt die Karte mit der Markierung offen vor sich ab.
        Sagt ihm dabei die markierte Gebäudesorte nicht zu, entfernt er den Stein und würfelt
        einmal", rulebook-bigbox-de-2019.txt L2012-2014); those after ``rerolled``
        (``gewuerfelt``) were, and were re-rolled already (once)."""
        if line.verb.lower() != VERB:
            return False
        data = self.data(state)
        mode = ""
        for arg in line.args:
            v = arg.value
            word = v.lower() if isinstance(v, str) else None
            if player is not None and word in _POSITION_WORDS:
                mode = _POSITION_WORDS[word]
                continue
            got = _parse(v) if isinstance(v, ComponentRef) else None
            if got is None:
                state.flag("SULTAN-CARD", arg.pos or line.pos, reason="form", token=str(v))
                continue
            data.serials += 1
            data.revealed[got[0].code] += 1
            card = SultanCard(got[0], data.serials, mark=got[1], pos=arg.pos or line.pos)
            card.missing_told = True  # a position need not state the mark (then: unknown)
            (self.held(state, player) if player is not None else data.open).append(card)
            if player is not None and mode:
                data.just_bought.setdefault(player.name, []).append(card.serial)
                if mode == _REROLLED:
                    data.rerolled.add(card.serial)
            data.idle_start = None
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """The open cards beside the board (outside the player sections) and each player's
        held cards, each with its mark, as :meth:`position_line` reads them back."""
        data = self.data(state)
        cards = data.open if player is None else self.held(state, player)
        if not cards:
            return []
        fresh = data.just_bought.get(player.name, []) if player is not None else []
        kept = [c for c in cards if c.serial not in fresh]
        bought = [c for c in cards if c.serial in fresh and c.serial not in data.rerolled]
        rerolled = [c for c in cards if c.serial in fresh and c.serial in data.rerolled]
        args = [GenericArg(ComponentRef(KIND, c.name)) for c in kept]
        for word, group in ((_BOUGHT, bought), (_REROLLED, rerolled)):
            if group:
                args += [GenericArg(word), *(GenericArg(ComponentRef(KIND, c.name)) for c in group)]
        return [ModuleAction(VERB, tuple(args))]

    # ------------------------------------------------------------- legal moves

    def legal_refill_interrupts(self, ctx: Context) -> list[Turn]:
        """Each holder of a card marking the type of a tile just drawn (and still on its
        field): the claim with each place it may go. None while a scoring is due."""
        from referee.engine import legal

        state = ctx.state
        if state.scoring_pending or state.game_over or state.phase != "refill":
            return []
        out: list[Turn] = []
        for fld, tile in _live(state, self.data(state)):
            if state.market[fld] != tile:
                continue
            for p in seat_order(state):
                card = next((c for c in self.held(state, p) if c.mark is tile.type), None)
                if card is None:
                    continue
                use = ModuleAction(
                    VERB,
                    (GenericArg(ComponentRef(KIND, card.name)), GenericArg(legal.piece_ref(tile))),
                )
                for where in legal.placements_of(ctx, p, tile):
                    out.append(Turn(None, PlayerRef(p.name), (use, where)))
        return out

    # ------------------------------------------------------------- simulator

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """The eight cards (two per currency, unverified), shuffled into piles 1-3."""
        cards = [c.code for c in Currency for _ in range(per_currency())]
        sim.rng.shuffle(cards)
        out: dict[int, list[object]] = {}
        for pile, count in sorted(
            (int(k), int(v)) for k, v in _data()["sultan_cards"]["piles"].items()
        ):
            out[pile] = [ComponentRef(KIND, cards.pop()) for _ in range(count)]
        return out

    def sim_after_refill(self, sim: Any) -> list[Any]:
        """The die for each card just revealed; sometimes the buyer's re-roll."""
        data = self.data(sim.state)
        out: list[Any] = []
        faces = list(BuildingType)
        for card in data.open:
            if card.mark is None:
                rolled = sim.rng.choice(faces)
                marked = sim.rng.choice((rolled, opposite(rolled)))
                args = (
                    GenericArg(ComponentRef(KIND, card.currency.code)),
                    GenericArg(rolled.value),
                    GenericArg(marked.value),
                )
                out.append(ModuleChance(VERB, args))
        for name, serials in data.just_bought.items():
            for card in data.held.get(name, []):
                fresh = card.serial in serials and card.serial not in data.rerolled
                if fresh and sim.rng.random() < 0.3:
                    face = sim.rng.choice(faces)
                    args = (
                        GenericArg(name),
                        GenericArg(ComponentRef(KIND, card.name)),
                        GenericArg(face.value),
                    )
                    out.append(ModuleChance(VERB, args))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like sultan cards (so that simulated games use the module)."""
        from referee.record.model import Buy

        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and isinstance(a.tile, ComponentRef)
            and a.tile.kind.lower() == KIND
        ]

    # ------------------------------------------------------------- view

    @staticmethod
    def _card_text(c: SultanCard) -> str:
        if c.mark is None:
            return f"{c.code} (unmarked)"
        rolled = f", rolled {c.rolled.value}" if c.rolled is not None else ""
        return f"{c.code} (marks {c.mark.value}{rolled})"

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        players: dict[str, dict[str, str]] = {}
        for name, cards in data.held.items():
            mine = [u for u in data.used if u[0] == name]
            if cards or mine:
                players[name] = {
                    "sultan cards": " ".join(self._card_text(c) for c in cards) or "none",
                    "used": "; ".join(f"{card} took {tile}" for _n, card, tile in mine) or "none",
                }
        table = {
            "open beside the board": " ".join(self._card_text(c) for c in data.open) or "none",
            "revealed": str(sum(data.revealed.values())),
        }
        return self.shown(table, players)

    # ------------------------------------------------------------ idle moments

    kept_idle = frozenset({Moment.TURN_START})  # (idle_start)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's start with no fresh draw still open
        (``fresh`` empty or lapsed: :func:`_live`), no card bought in the last turn
        (``just_bought`` empty) and every open card marked or its missing mark reported (the
        module's part exists). A yes is kept (``idle_start``) until something changes that."""
        # (asked at a turn's start whose kept answer is not known: the part's tests first, the
        # open cards looked at in a plain loop)
        data = state.modules.get(self.name)
        if data is None or moment is not _TURN_START or data.just_bought:
            return False
        if data.fresh:
            if data.fresh_closed == state.refills_closed:
                return False
            data.fresh.clear()  # lapsed (nothing reads them): as the step clears them
        for card in data.open:  # (a loop, not all() over a generator: cheaper)
            if card.mark is None and not card.missing_told:
                return False
        data.idle_start = True  # (the step would change nothing, and sets the same)
        return True


def _ref(ref: TileRef) -> str:
    return fmt_ref(ref)


def _same_piece(piece: Any, ref: ComponentRef) -> bool:
    """Whether the module piece ``piece`` is the one the token ``ref`` names (its ``code`` is
    ``kind:name``, compared without regard to case)."""
    kind, _, name = str(getattr(piece, "code", "")).partition(":")
    return kind.lower() == ref.kind.lower() and name.lower() == ref.name.lower()
