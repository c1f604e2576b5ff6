"""Die Menagerie: two animals drawn onto every garden laid on the market, bought and built with
it; at the end of his turn a player may give up a money card to move his animals as many steps
as its value; a garden with animals of one kind only scores one point per animal at every
scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Michael Schacht: Die Menagerie (L3425-3459,
L3464-3488).

Notation: an animal is the component token ``an:`` + its kind (``1``-``8``; which animal each
number is was only in the pictures): ``an:3``.

* ``* animals Gu an:3 an:7`` -- the two animals drawn onto the garden on the field ``Gu`` (on the
  line after the refill that laid it there; at setup for the first market).
* ``animals Du4 an:3 @1,0 @1,1 an:7 @2,0 @2,1 @2,2`` -- at the end of the turn: the money card
  given up, then per animal moved its kind, its cell and the cell each step enters (a free
  action, once per turn, after the placements).
* position blocks: ``animals Gu an:3 an:7`` outside the player sections (the animals on the
  market), ``animals gone an:2`` (out of the game); ``animals @1,0 an:3 an:3 G10n an:1`` in a
  player's section (the animals per cell, then per reserve tile).

Rulings (``docs/modules/menagerie.md``): the animals stay on their tile when it goes to the
reserve and come back with it; they may step onto any tile (the start tile too); the card goes
to the discard pile; animals on a garden given to Dirk leave the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import SIDES, BuildingType, Currency, Side, TileKind
from referee.engine.context import Context
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.payment import Mix, PaymentTerms, apply_payment, payment_findings, plan_payment
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.geometry.grid import FOUNTAIN, TICKS
from referee.geometry.layers import wall_between
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    field_under,
    follow_market,
    module_data,
    printed_piece,
    rebuilt,
    section,
    token_text,
)
from referee.record.model import (
    CardRef,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
)
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE MENAGERIE"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "an"
VERB = "animals"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("menagerie")["components"]["animals"]
    return data


@cache
def kinds() -> int:
    return int(_data()["kinds"])


@cache
def per_kind() -> int:
    return int(_data()["per_kind"])


@cache
def in_play() -> int:
    """ "24 Tierplättchen"; "2 Plättchen werden verdeckt in die Schachtel zurückgelegt"."""
    return kinds() * per_kind() - int(_data()["out_unseen"])


@cache
def per_garden() -> int:
    return int(_data()["per_garden"])


def parse_animal(value: object) -> int | None:
    """``an:3`` -> 3; None: no animal token."""
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    name = value.name
    if not name.isascii() or not name.isdigit() or len(name) > 2:
        return None
    k = int(name)
    return k if 1 <= k <= kinds() else None


def animal_ref(k: int) -> ComponentRef:
    return ComponentRef(KIND, str(k))


def _side(a: Coord, b: Coord) -> Side | None:
    for side in SIDES:
        if a.neighbour(side) == b:
            return side
    return None


_GARDEN = BuildingType.GARDEN
_ABSENT = object()  # (no entry)
_TURN_START = Moment.TURN_START
_TURN_END = Moment.TURN_END


def _is_garden(piece: object) -> bool:
    return getattr(piece, "type", None) is _GARDEN


def _cells_order(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


def _cell_key(entry: tuple[Coord, list[int]]) -> tuple[int, int]:
    """A sort key of a (cell, animals) entry: :func:`_cells_order` of its cell, in one call."""
    c = entry[0]
    return (-c.y, c.x)


def _by_cell(held: dict[Coord, list[int]]) -> list[tuple[Coord, list[int]]]:
    """The cells with their animals, north first, then west."""
    return sorted(held.items(), key=_cell_key)


# a moment inside a turn (a position's player section): `bought G10n an:3` the gardens the open
# turn bought with their animals, not placed yet; `moved` the turn moved animals already
BOUGHT = ("bought", "gekauft")
MOVED = ("moved", "bewegt")


@dataclass
class AnimalScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    drawn: dict[int, int] = field(default_factory=dict)  # per kind, seen drawn
    on_market: dict[int, list[int]] = field(default_factory=dict)  # field index -> kinds
    # the garden the animals of each field lie on ("offen auf den Garten gelegt", L3441-3442):
    # when market tiles change places (Handwerker's Mörtelmischer, "Tauscht 2 Gebäude auf dem
    # Bauhof miteinander aus", L3138-3139) the animals go with their garden
    under: dict[int, object] = field(default_factory=dict)
    pending: dict[str, list[tuple[object, list[int]]]] = field(default_factory=dict)
    on_tiles: dict[str, dict[Coord, list[int]]] = field(default_factory=dict)
    carried: dict[str, list[tuple[object, list[int]]]] = field(default_factory=dict)
    gone: list[int] = field(default_factory=list)  # out of the game (gardens given to Dirk)
    moved_turn: int | None = None
    # the idle answers the engine reads first (Module.kept_idle). ``idle_start``: a copy of the
    # market at which ``idle_at`` said yes at a turn's start (while checking), idle while the
    # market holds the same pieces; None, not known. Every step that changes what the answer
    # reads besides the market (``on_market``, ``under``, ``drawn``) sets it None
    # (:func:`_unkept`). ``idle_end`` is never kept (None): the answer reads every player's
    # Alhambra and reserve, which other steps change; the engine asks ``idle_at`` there
    idle_start: list[Any] | None = field(default=None, repr=False, compare=False)
    idle_end: None = field(default=None, repr=False, compare=False)
    # the players :meth:`Menagerie.idle_at` found settled at a turn's end, with their
    # holdings' change notice then (``(player.reserve_version, player.alhambra.version)``, the
    # engine's notice: docs/modules/extension-points.md, "Whose holdings changed"): while his
    # notice is the one noted and his entry stands, he is still settled (his answer reads his
    # Alhambra, his reserve and his entries of ``on_tiles`` and ``carried``). Every step that
    # changes his animals or carried gardens drops his entry (:func:`_unsettled`). A cache:
    # not shown, not compared
    settled: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False, compare=False)
    # ``TICKS.n`` (geometry.grid) when every player was last found settled with no bought
    # garden waiting: while it stands (no holdings changed anywhere since) and no step dropped
    # it (:func:`_unsettled`, the purchase hook), they all still are (-1: not known)
    settled_at: int = field(default=-1, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Move:
    """An animal move as read: the kind of animal (None: not one), the cells named after it,
    where it stands in the line."""

    kind: int | None
    cells: tuple[Coord | None, ...]
    pos: Pos


@bundled
class Menagerie(BundledModule):
    """Animals on gardens; names and texts: the YAML."""

    verb_specs = (VerbSpec(VERB, kind="free", aliases=("tiere",)),)
    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = AnimalScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("animal", "Tier")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("moves animals", "bewegt Tiere"),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.drawn = dict.fromkeys(range(1, kinds() + 1), 0)

    # ------------------------------------------------------------------ where the animals are

    def animals_of(self, state: GameState, player: PlayerState) -> dict[Coord, list[int]]:
        """The animals in ``player``'s Alhambra by cell (reserve tiles built again bring
        theirs along)."""
        data = self.data(state)  # (taken once: _sync moves no market animals)
        self._sync(state, player, final=False, data=data)
        mine: dict[Coord, list[int]] = data.on_tiles.get(player.name, {})
        return mine

    def _sync(
        self, state: GameState, player: PlayerState, final: bool, data: AnimalScratch | None = None
    ) -> None:
        """Bring the animals up to date with where their tiles lie: bought gardens placed or
        reserved (``final``: the turn's placements are over, so a garden neither in the
        Alhambra nor in the reserve was given to Dirk), reserve tiles built again (``data``:
        the module's state just taken, its market animals following their gardens)."""
        if data is None:
            data = self.data(state)
        alh = player.alhambra
        mine = data.on_tiles.setdefault(player.name, {})
        # the cells whose tile left (no piece is None in an Alhambra's cells): looked for only
        # when not every cell with animals still holds one (one test of the two key sets)
        cells = alh.cells
        gone = [c for c in mine if c not in cells] if not mine.keys() <= cells.keys() else ()
        keep = data.carried.get(player.name)
        if gone or keep or keep is None or data.pending.get(player.name):
            # (_unsettled, inline: his animals or carried gardens may change)
            data.settled_at = -1
            data.settled.pop(player.name, None)
        for c in gone:
            del mine[c]
        if keep:
            keep, landed = rebuilt(player, keep, lambda e: e[0], mine)
            for at, (_, held) in landed:
                mine[at] = list(held)
            data.carried[player.name] = keep
        elif keep is None:  # (nothing carried: nothing lands)
            keep = data.carried[player.name] = []
        pending = data.pending.get(player.name)
        if not pending:
            return
        # the reserve as printed, less the tiles that keep their animals carried
        reserve = [printed_piece(x) for x in player.reserve]
        for piece, _ in keep:
            if piece in reserve:
                reserve.remove(piece)
        still: list[tuple[object, list[int]]] = []
        for piece, held in pending:
            if self._onto_cell(player, mine, piece, held):
                continue
            if final and printed_piece(piece) in reserve:
                reserve.remove(printed_piece(piece))
                data.carried[player.name].append((printed_piece(piece), held))
            elif final:
                # "Die Tiere auf Gärten, die Dirk geschenkt werden, werden sofort in die
                # Schachtel zurückgelegt"
                data.gone.extend(held)
            else:
                still.append((piece, held))
        data.pending[player.name] = still

    @staticmethod
    def _onto_cell(
        player: PlayerState, mine: dict[Coord, list[int]], piece: object, held: list[int]
    ) -> bool:
        alh = player.alhambra
        target = printed_piece(piece)
        for c, q in alh.items():  # (a garden turned by Handwerker's Mosaikleger: by its tile)
            if c in mine:
                continue
            # a catalogue tile (the fountain) is its own whole piece and its own printed piece
            # (no calls);
            # anything else (a part of a two-cell piece, a turned tile, a module's piece) is
            # taken as a whole and as printed
            printed = q if type(q) is TileKind or q is FOUNTAIN else printed_piece(alh.piece_at(c))
            if printed == target:
                mine[c] = list(held)
                return True
        return False

    # ------------------------------------------------------------------ the market

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* animals Gu an:3 an:7``: the two animals drawn onto the garden on a field."""
        self._market(state, event.args, event.pos, position=False)
        return []

    def _market(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, position: bool
    ) -> None:
        data = self.data(state)
        groups: list[tuple[GenericArg, list[GenericArg]]] = []
        for arg in args:
            # (a component, ``an:3``, is never a field's code: no look-up, which would spell
            # the component out first)
            if type(arg.value) is not ComponentRef and Currency.of_code(arg.value) is not None:
                groups.append((arg, []))
            elif groups:
                groups[-1][1].append(arg)
            else:
                state.flag("MENAGERIE-DRAW", arg.pos or pos, reason="form", field="?")
                return
        data.idle_start = None  # (_unkept: fields get animals, the answer is worked out again)
        for where, what in groups:
            cur = Currency.of_code(where.value)
            assert cur is not None
            wpos = where.pos or pos
            slot = cur.field - 1
            tile = state.market[slot] if 0 <= slot < len(state.market) else None
            if not _is_garden(tile):
                shown = "-" if tile is None else str(tile)
                state.flag("MENAGERIE-DRAW", wpos, reason="no-garden", field=cur.code, tile=shown)
                continue
            held = data.on_market.get(slot)
            if held:
                state.flag(
                    "MENAGERIE-DRAW",
                    wpos,
                    reason="has-animals",
                    field=cur.code,
                    held=" ".join(f"{KIND}:{k}" for k in held),
                )
                continue
            got = self._draw(state, what, wpos, data)
            if len(what) != per_garden():
                state.flag("MENAGERIE-DRAW", wpos, reason="count", field=cur.code, n=len(what))
            data.on_market[slot] = got
            data.under[slot] = tile

    def _draw(
        self,
        state: GameState,
        args: list[GenericArg],
        pos: Pos,
        data: AnimalScratch | None = None,
    ) -> list[int]:
        """Animals that leave the face-down supply, checked against it (``data``: the
        module's state just taken)."""
        if data is None:
            data = self.data(state)
        out: list[int] = []
        for arg in args:
            apos = arg.pos or pos
            k = parse_animal(arg.value)
            # (the token's text for a finding only: made where one is reported)
            if k is None:
                state.flag("MENAGERIE-TOKEN", apos, token=token_text(arg.value))
                continue
            if data.drawn[k] >= per_kind():
                token = token_text(arg.value)
                state.flag("MENAGERIE-SUPPLY", apos, reason="kind-out", token=token)
                continue
            if sum(data.drawn.values()) >= in_play():
                token = token_text(arg.value)
                state.flag("MENAGERIE-SUPPLY", apos, reason="all-out", token=token)
                continue
            data.drawn[k] += 1
            data.idle_start = None  # (the supply changed: see _unkept)
            out.append(k)
        return out

    def data(self, state: GameState) -> AnimalScratch:
        """The module's state, its market animals following their gardens (:func:`_follow`).
        The kit's first look (:func:`follow_market`: a garden with animals that is no longer on
        its field, the same object, but still on the market) is made here, and only a garden
        found so takes the kit's walk (which may move animals: the kept answer is dropped)."""
        found: AnimalScratch | None = state.modules.get(self.name)  # (the kit's data, inline)
        data: AnimalScratch = super().data(state) if found is None else found
        under = data.under
        if under:
            market = state.market
            n = len(market)
            held = data.on_market
            for slot, tile in under.items():
                if slot in held and (slot >= n or market[slot] is not tile) and tile in market:
                    _follow(state, data)
                    _unkept(data)
                    break
        return data

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Die Tiere werden zusammen mit dem Garten gekauft (ohne Aufpreis!) und eingebaut."."""
        if purchase.slot is None:
            return
        data = self.data(ctx.state)
        slot = _slot_of(data, purchase.slot, purchase.tile)
        held = data.on_market.pop(slot, None)
        data.under.pop(slot, None)
        _unkept(data)
        if held:
            data.pending.setdefault(purchase.player.name, []).append((purchase.tile, held))

    leaves_plain_purchases = True  # its leaves_plain_purchase: yes to every plain purchase

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no purchase rule; the animals go along in after_plain_purchase

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass."""
        data = self.data(state)
        slot, tile = buy.slot, buy.tile
        under = data.under
        if under.get(slot) is not tile:  # (else _slot_of's answer: the field itself)
            # _slot_of (kit field_under), inline: the same tests, without its three calls
            carried = getattr(tile, "carried_tile", None)
            here = under.get(slot, _ABSENT)
            if here is _ABSENT or not (here == tile or (carried is not None and here == carried)):
                held_on = data.on_market
                for s, t in under.items():
                    if (t == tile or (carried is not None and t == carried)) and s in held_on:
                        slot = s
                        break
        held = data.on_market.pop(slot, None)
        data.under.pop(slot, None)
        data.idle_start = None  # (see _unkept)
        if held:
            data.pending.setdefault(buy.player.name, []).append((buy.tile, held))

    def market_taken(self, state: GameState, slot: int, piece: Any, player: PlayerState) -> None:
        """A garden taken from its field without a purchase (a claim while the market is
        refilled) was never laid on the market: animals stated for it were not drawn."""
        data = self.data(state)
        slot = _slot_of(data, slot, piece)
        data.under.pop(slot, None)
        _unkept(data)
        for k in data.on_market.pop(slot, None) or []:
            data.drawn[k] -= 1

    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (AnimalScratch.idle_start: a market copy; idle_end: None)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Whether :meth:`at_moment` would change nothing: the market animals lie where their
        gardens lie (:meth:`data` has nothing to follow), and at a turn's start every garden on
        the market has its animals (or nothing is checked, or the supply is out: nothing to
        report); at a turn's end every player's animals are settled (:meth:`_sync` has nothing
        to do: his part exists, no bought garden waits, each carried garden is still in his
        reserve, each cell with animals still holds a tile). The module's part must exist.

        A yes at a turn's start while checking is kept (``idle_start``: a copy of the market):
        the answer reads the market and the module's part, and every step changing the part
        drops it (:func:`_unkept`), so while the market holds the same pieces it stands."""
        data: AnimalScratch | None = state.modules.get(self.name)
        if data is None:
            return False
        market = state.market
        held = data.on_market
        under = data.under
        # at a turn's end, a market equal to the copy kept at a yes (``idle_start``, dropped by
        # every step changing the fields' animals or the gardens under them) still has every
        # garden with animals where it was: no walk
        kept = data.idle_start
        if under and (moment is not _TURN_END or kept is None or kept != market):
            n = len(market)
            for slot, tile in under.items():
                if slot in held and (slot >= n or market[slot] != tile):
                    return False  # (a garden that moved or left: the step runs)
        if moment is _TURN_START:
            if not state.checking:
                return True
            if sum(data.drawn.values()) < in_play():
                for slot, piece in enumerate(market):
                    if slot not in held and getattr(piece, "type", None) is _GARDEN:
                        return False
            data.idle_start = market.copy()  # (kept: see above)
            return True
        if moment is not _TURN_END:
            return False
        pending = data.pending
        if pending and any(pending.values()):  # (a bought garden waits: _sync places it)
            return False
        if data.settled_at == TICKS.n:  # (nothing changed since all were found settled)
            return True
        on_tiles = data.on_tiles
        carried = data.carried
        settled = data.settled
        for p in state.players:
            name = p.name
            notice = (p.reserve_version, p.alhambra.version)
            if settled.get(name) == notice:
                continue  # (found settled at this notice, his entries unchanged since)
            mine = on_tiles.get(name)
            keep = carried.get(name)
            if mine is None or keep is None:
                return False
            # (a cell's tile left: no piece is None in an Alhambra's cells)
            if mine and not mine.keys() <= p.alhambra.cells.keys():
                return False
            if keep:  # each carried garden still in the reserve (rebuilt keeps it carried)
                if len(keep) == 1 and keep[0][0] in p.reserve:
                    continue  # (the very piece, or an equal one: the same printed piece)
                reserve = [printed_piece(x) for x in p.reserve]
                for item in keep:
                    piece = printed_piece(item[0])
                    if piece not in reserve:
                        return False
                    reserve.remove(piece)
            settled[name] = notice
        data.settled_at = TICKS.n
        return True

    @acts_at(
        Moment.TURN_START,
        Moment.TURN_END,
        Moment.SCORING_BEFORE,
        Moment.LEFTOVERS_BEFORE,
        Moment.LEFTOVERS_DONE,
    )
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        # (the kit's step acts at the setup's end only, where this one is not registered)
        state = ctx.state
        data = self.data(state)
        data.idle_start = None  # (_unkept: the step may change the fields' animals)
        if moment in (Moment.TURN_END, Moment.LEFTOVERS_BEFORE, Moment.SCORING_BEFORE):
            for p in state.players:
                self._sync(state, p, final=True, data=data)
        if moment == Moment.LEFTOVERS_DONE:
            # a garden handed out from the market at the end is not bought ("Die Tiere werden
            # zusammen mit dem Garten gekauft", L3443-3444; the text is silent on the
            # distribution): its animals go back to the box
            for slot in [s for s in data.on_market if not _is_garden(state.market[s])]:
                data.gone.extend(data.on_market.pop(slot))
                data.under.pop(slot, None)
        if moment == Moment.TURN_START and state.checking:
            if sum(data.drawn.values()) >= in_play():
                return
            for slot, tile in enumerate(state.market):
                if _is_garden(tile) and slot not in data.on_market:
                    where = ctx.pos if ctx.pos is not None else state.turn.pos
                    state.flag(
                        "MENAGERIE-MISSING",
                        where,
                        tile=str(tile),
                        field=Currency.of_field(slot + 1).code,
                    )
                    data.on_market[slot] = []  # reported once
                    data.under[slot] = tile

    # ------------------------------------------------------------------ moving animals

    def _read(self, action: ModuleAction) -> tuple[object, list[Move], bool]:
        """The card given up, the moves, and whether the line has the right form."""
        args = list(action.args)
        if not args:
            return None, [], False
        card = args[0].value
        moves: list[Move] = []
        ok = isinstance(card, CardRef)
        for arg in args[1:]:
            v = arg.value
            if isinstance(v, Coord) and moves:
                moves[-1] = Move(moves[-1].kind, (*moves[-1].cells, v), moves[-1].pos)
            elif isinstance(v, ComponentRef):
                moves.append(Move(parse_animal(v), (), arg.pos or action.pos))
            else:
                ok = False
        if not moves or any(m.kind is None or len(m.cells) < 1 for m in moves):
            ok = False
        return card, moves, ok

    def _terms(self) -> PaymentTerms:
        return PaymentTerms(
            0,
            "animals",
            mix=Mix.ANY,
            superfluous=False,
            source=section(H, "Änderungen im Spielablauf"),
        )

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """Every rule of moving animals, without changing anything."""
        state = ctx.state
        pos = action.pos
        who = player.name
        out: list[Finding] = []
        card, moves, ok = self._read(action)

        def shown() -> str:  # (the line's words, for a message only)
            return " ".join(token_text(a.value) for a in action.args) or "-"

        if not ok:
            return [problem("MENAGERIE-MOVE", pos, who, reason="form", token=shown())]
        t = state.turn
        if t is not None and self.data(state).moved_turn == t.number:
            out.append(problem("MENAGERIE-MOVE", pos, who, reason="twice", token=shown()))
        if t is not None and t.pending:
            out.append(problem("MENAGERIE-MOVE", pos, who, reason="not-end", token=shown()))
        plan = plan_payment(ctx, player, [card], self._terms(), pos)
        out.extend(payment_findings(ctx, plan))
        value = card.card.value if isinstance(card, CardRef) and card.card is not None else None
        steps = sum(len(m.cells) - 1 for m in moves)
        if value is not None and steps > value:
            out.append(
                problem(
                    "MENAGERIE-STEPS",
                    pos,
                    who,
                    card=token_text(card),
                    n=steps,
                    value=value,
                )
            )
        alh = player.alhambra
        cells, layers = alh.cells, alh.layers
        where = {c: list(ks) for c, ks in self.animals_of(state, player).items()}
        for m in moves:
            token = f"{KIND}:{m.kind}"
            start = m.cells[0]
            assert start is not None and m.kind is not None
            here = where.get(start, [])
            if m.kind not in here:
                there = " ".join(f"{KIND}:{k}" for k in here) or "-"
                out.append(
                    problem(
                        "MENAGERIE-MOVE",
                        m.pos,
                        who,
                        **_params("not-there", token=token, start=start, there=there),
                    )
                )
                continue
            here.remove(m.kind)
            cur = start
            for to in m.cells[1:]:
                assert to is not None
                side = _side(cur, to)
                why = None
                if side is None:
                    why = "not-adjacent"
                elif to not in cells:
                    why = "off-tiles"
                elif not wall_between(cells, layers, cur, side).passable:
                    why = "wall"
                if why is not None:
                    out.append(
                        problem(
                            "MENAGERIE-MOVE",
                            m.pos,
                            who,
                            **_params(why, token=token, start=cur, to=to),
                        )
                    )
                cur = to
            where.setdefault(cur, []).append(m.kind)
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The card is given up (to the discard pile) and each animal moved."""
        data = self.data(state)
        if state.turn is not None:
            data.moved_turn = state.turn.number
        card, moves, _ok = self._read(action)
        if card is not None:
            ctx = Context(state, action.pos)
            apply_payment(ctx, plan_payment(ctx, player, [card], self._terms(), action.pos))
        mine = self.animals_of(state, player)
        alh = player.alhambra
        for m in moves:
            if m.kind is None or not m.cells or m.cells[0] is None:
                continue
            here = mine.get(m.cells[0], [])
            if m.kind not in here:
                continue
            end = m.cells[-1]
            if end is None or alh.get(end) is None:
                continue
            here.remove(m.kind)
            if not here:
                del mine[m.cells[0]]
            mine.setdefault(end, []).append(m.kind)
        _unsettled(data, player.name)
        return []

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """Animals stay on their tile when it goes to the reserve (digest §10.10 a)."""
        data = self.data(state)
        _unsettled(data, player.name)
        mine = data.on_tiles.setdefault(player.name, {})
        for c in [c for c in mine if player.alhambra.get(c) is None]:
            data.carried.setdefault(player.name, []).append((piece, mine.pop(c)))
        return []

    # ------------------------------------------------------------------ scoring

    def garden_points(self, state: GameState, player: PlayerState) -> tuple[int, str]:
        """ "Für jeden Garten, auf dem sich genau 1 Tierart befindet, erhält der Spieler in
        jeder Wertung so viele Punkte, wie Tiere dort liegen. Tiere, die auf anderen Plättchen
        als Gärten stehen, erzielen keine Punkte."."""
        total = 0
        parts: list[str] = []
        cells = player.alhambra.cells  # (alh.get and _is_garden, inline: no calls a cell)
        for c, held in sorted(self.animals_of(state, player).items(), key=_cell_key):
            if held and getattr(cells.get(c), "type", None) is _GARDEN and len(set(held)) == 1:
                total += len(held)
                parts.append(f"{len(held)} {KIND}:{held[0]} @{c}")
        return total, ", ".join(parts)

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        def points(p: Any) -> tuple[int, str, str] | None:
            player = state.player_named(p.name)
            if player is None:
                return None
            n, text = self.garden_points(state, player)
            return (n, text, text) if n else None

        return ScoringParts(
            categories=(PointLine("animals", "animals", "Tiere", S_SCORE, points, order=660),)
        )

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        from referee.engine.legal import piece_ref

        data = self.data(state)
        t = state.turn
        inside = t is not None and bool(t.pending)  # a moment inside a turn, pieces unplaced
        if player is None:
            for p in state.players:  # the animals of gardens given to Dirk go first (`gone`)
                self._sync(state, p, final=not inside)
            args: list[GenericArg] = []
            for slot in sorted(data.on_market):
                held = data.on_market[slot]
                if held:
                    args.append(GenericArg(Currency.of_field(slot + 1).code))
                    args += [GenericArg(animal_ref(k)) for k in held]
            out = [ModuleAction(VERB, tuple(args))] if args else []
            if data.gone:
                gone = [GenericArg("gone"), *(GenericArg(animal_ref(k)) for k in sorted(data.gone))]
                out.append(ModuleAction(VERB, tuple(gone)))
            return out
        self._sync(state, player, final=not inside)
        parts: list[GenericArg] = []
        for c, held in sorted(self.animals_of(state, player).items(), key=_cell_key):
            if held:
                parts.append(GenericArg(c))
                parts += [GenericArg(animal_ref(k)) for k in held]
        for piece, held in data.carried.get(player.name, []):
            parts.append(GenericArg(piece_ref(piece)))
            parts += [GenericArg(animal_ref(k)) for k in held]
        bought = data.pending.get(player.name) if inside else None
        if bought:  # gardens the open turn bought, their animals with them (not placed yet)
            parts.append(GenericArg("bought"))
            for piece, held in bought:
                parts.append(GenericArg(piece_ref(piece)))
                parts += [GenericArg(animal_ref(k)) for k in held]
        if t is not None and t.player == player.index and data.moved_turn == t.number:
            parts.append(GenericArg("moved"))  # the open turn moved animals (once a turn)
        return [ModuleAction(VERB, tuple(parts))] if parts else []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() != VERB:
            return False
        if player is None:
            args = line.args
            if args and args[0].value == "gone":
                self.data(state).gone.extend(self._draw(state, list(args[1:]), line.pos))
            else:
                self._market(state, args, line.pos, position=True)
            return True
        self._position_player(state, player, line)
        return True

    def _position_player(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        from referee.engine.core import match_slot

        data = self.data(state)
        who = player.name
        _unsettled(data)
        mine = data.on_tiles.setdefault(who, {})
        carried = data.carried.setdefault(who, [])
        free = list(player.reserve)
        for piece, _held in carried:
            if piece in free:
                free.remove(piece)
        found: list[Finding] = []
        target: list[int] | None = None
        skip = False  # a group whose cell or tile was reported: its animals are left out
        t = state.turn
        bought: list[Any] | None = None  # after `bought`: the open turn's unplaced pieces
        for arg in line.args:
            v = arg.value
            apos = arg.pos or line.pos
            word = v.lower() if isinstance(v, str) else ""
            if word in MOVED and t is not None and t.player == player.index:
                data.moved_turn = t.number  # "moved": the open turn moved animals
                target, skip = None, True
                continue
            if word in BOUGHT and t is not None and bought is None:
                bought = list(t.pending)
                target, skip = None, True
                continue
            animal = isinstance(v, ComponentRef) and v.kind.lower() == KIND
            # a garden bought: a tile, or another module's piece (gm:wo_G7, a building of power)
            if bought is not None and not animal and not isinstance(v, (int, str, Coord)):
                i = match_slot(v, bought)  # type: ignore[arg-type]
                # not placed yet, or put into the reserve this turn (its animals go along at
                # the turn's end, like a garden bought and reserved in the game)
                j = match_slot(v, free) if i is None else None  # type: ignore[arg-type]
                if i is None and j is None:
                    found.append(
                        problem("MENAGERIE-POSITION", apos, who, reason="form", token=token_text(v))
                    )
                    target, skip = None, True
                    continue
                target = []
                piece = bought.pop(i) if i is not None else free.pop(j)  # type: ignore[arg-type]
                data.pending.setdefault(who, []).append((piece, target))
                continue
            if animal:
                if target is None and not skip:
                    found.append(
                        problem("MENAGERIE-POSITION", apos, who, reason="form", token=token_text(v))
                    )
                if target is not None:
                    target.extend(self._draw(state, [arg], apos))
                continue
            target, skip = None, True
            if isinstance(v, Coord):
                if player.alhambra.get(v) is None:
                    found.append(
                        problem("MENAGERIE-POSITION", apos, who, reason="empty", token=f"@{v}")
                    )
                    continue
                target = mine.setdefault(v, [])
            elif not isinstance(v, (int, str)):
                i = match_slot(v, free)  # type: ignore[arg-type]
                if i is None:
                    found.append(
                        problem(
                            "MENAGERIE-POSITION",
                            apos,
                            who,
                            reason="not-in-reserve",
                            token=token_text(v),
                        )
                    )
                    continue
                target = []
                carried.append((printed_piece(free.pop(i)), target))
            else:
                found.append(
                    problem("MENAGERIE-POSITION", apos, who, reason="form", token=token_text(v))
                )
        report(state, found)

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Drawn on the tiles (E17): the animals on each garden (``an:3 an:3``); read only, the
        state is not brought up to date."""
        return {
            at: " ".join(f"{KIND}:{k}" for k in kinds)
            for at, kinds in self.data(state).on_tiles.get(player.name, {}).items()
            if kinds and player.alhambra.get(at) is not None
        }

    def market_marks(self, state: GameState) -> dict[int, str]:
        """Drawn on the market line: the animals on each garden lying there (``an:3 an:7``)."""
        return {
            s: " ".join(f"{KIND}:{k}" for k in held)
            for s, held in self.data(state).on_market.items()
            if held
        }

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        market = " ".join(
            f"{Currency.of_field(s + 1).code}: " + " ".join(f"{KIND}:{k}" for k in held)
            for s, held in sorted(data.on_market.items())
            if held
        )
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            mine = self.animals_of(state, p)
            row: dict[str, str] = {}
            if any(mine.values()):
                row["animals"] = ", ".join(
                    f"@{c} " + " ".join(f"{KIND}:{k}" for k in held)
                    for c, held in sorted(mine.items(), key=_cell_key)
                    if held
                )
            carried = data.carried.get(p.name)
            if carried:
                row["on reserve tiles"] = ", ".join(
                    f"{piece} " + " ".join(f"{KIND}:{k}" for k in held) for piece, held in carried
                )
            if row:
                row["animal points now"] = str(self.garden_points(state, p)[0])
                players[p.name] = row
        return self.shown(
            {
                "on the market": market or "-",
                "drawn": str(sum(data.drawn.values())),
                # a heap in the box: in the animals' order, not the order they went (a block
                # writes the animals of gardens given to Dirk before the turn's end does)
                "out of the game": " ".join(f"{KIND}:{k}" for k in sorted(data.gone)) or "-",
            },
            players,
        )

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """One animal moved one or two steps, paid with the player's smallest card, once the
        turn's buildings are placed."""
        state = ctx.state
        t = state.turn
        if t is None or t.pending or self.data(state).moved_turn == t.number:
            return []
        if player.hand_unknown or player.alhambra_unknown:
            return []
        cards = sorted(player.hand.elements(), key=lambda c: (c.value, c.code))
        if not cards:
            return []
        card = cards[0]
        alh = player.alhambra
        cells, layers = alh.cells, alh.layers
        out: list[Any] = []
        for c, held in sorted(self.animals_of(state, player).items(), key=_cell_key):
            for k in sorted(set(held)):
                for side in SIDES:
                    nb = c.neighbour(side)
                    if nb in cells and wall_between(cells, layers, c, side).passable:
                        out.append(
                            ModuleAction(
                                VERB,
                                (
                                    GenericArg(CardRef(card)),
                                    GenericArg(animal_ref(k)),
                                    GenericArg(c),
                                    GenericArg(nb),
                                ),
                            )
                        )
        return out[:24]

    # ------------------------------------------------------------------ simulator

    def _pile(self, sim: Any) -> list[int]:
        def make() -> list[int]:
            pile = [k for k in range(1, kinds() + 1) for _ in range(per_kind())]
            sim.rng.shuffle(pile)
            out = int(_data()["out_unseen"])
            sim.hidden[f"{self.name}:box"] = pile[:out]
            return pile[out:]  # "2 ... in die Schachtel zurückgelegt"

        pile: list[int] = sim.mine(self, make)
        if len(pile) < per_garden():
            # animals of a garden claimed off the market before it was bought go back to the
            # supply (``market_taken``): the pile runs dry before the supply does; what the
            # engine still counts in the supply joins the pile again
            data = self.data(sim.state)
            box = sim.hidden.get(f"{self.name}:box", [])
            back = [
                k
                for k in range(1, kinds() + 1)
                for _ in range(per_kind() - data.drawn.get(k, 0) - box.count(k) - pile.count(k))
            ]
            sim.rng.shuffle(back)
            pile[:0] = back
        return pile

    def sim_setup(self, sim: Any) -> list[Any]:
        return self.sim_after_refill(sim)

    def sim_after_refill(self, sim: Any) -> list[Any]:
        """Two animals onto every garden newly laid on the market."""
        data = self.data(sim.state)
        pile = self._pile(sim)
        args: list[GenericArg] = []
        for slot, tile in enumerate(sim.state.market):
            if _is_garden(tile) and slot not in data.on_market and len(pile) >= per_garden():
                args.append(GenericArg(Currency.of_field(slot + 1).code))
                args += [GenericArg(animal_ref(pile.pop())) for _ in range(per_garden())]
        return [ModuleChance(VERB, tuple(args))] if args else []


def _unkept(data: AnimalScratch) -> None:
    """Drop the kept answer at a turn's start (``idle_start``): the step changed what
    :meth:`Menagerie.idle_at` reads there besides the market (the fields' animals, the gardens
    under them, the supply)."""
    data.idle_start = None


def _unsettled(data: AnimalScratch, name: str | None = None) -> None:
    """Drop the player's entry of ``settled`` (every entry: ``name`` None): the step changes
    his animals or carried gardens, which :meth:`Menagerie.idle_at` reads at a turn's end."""
    data.settled_at = -1
    if name is None:
        data.settled.clear()
    else:
        data.settled.pop(name, None)


def _slot_of(data: AnimalScratch, slot: int, garden: object) -> int:
    """The field whose animals lie on ``garden``, taken from field ``slot`` (kit
    :func:`field_under`)."""
    return field_under(data.on_market, data.under, slot, garden)


def _follow(state: GameState, data: AnimalScratch) -> None:
    """Animals on a market garden that changed fields move to the garden's new field (kit
    :func:`follow_market`)."""
    follow_market(state.market, data.on_market, data.under)


def _params(reason: str | None, **params: object) -> dict[str, Any]:
    """A finding's reason and parameters as one mapping (the reason chosen at run time)."""
    return {"reason": reason, **{k: str(v) for k, v in params.items()}}
