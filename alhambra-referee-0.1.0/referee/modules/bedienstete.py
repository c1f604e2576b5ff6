"""Die Bediensteten (palace staff): a player who takes money worth less than 6 walks his court
marshal 6 minus that value steps through his Alhambra and puts an open servant of its colour on
each entered building without one; every building without a servant costs a point at each
scoring (never below zero).

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Emanuele Ornella: Die Bediensteten (L2961-3025).

Notation: a servant is the component token ``sv:`` + its building colour (``P S A C G T``):
``sv:G`` works in a garden.

* ``* servants sv:S sv:G sv:G sv:T sv:P sv:A`` -- the six open servants at setup, and the
  servants drawn after a turn to fill the row up to six again (chance: what the record states is
  checked against 7/7/9/9/11/11 per colour).
* ``take De2, marshal @1,0 @1,1 @2,1 @2,0`` -- after taking money worth less than 6, the
  marshal's steps (the cell entered by each); a free action. The servants follow from the rule:
  each entered building without a servant receives an open one of its colour, if one lies open.
* position blocks: ``servants sv:A sv:G ...`` outside the player sections (the open row);
  ``marshal @1,0`` and ``servants @1,0 @0,1 G10n`` in a player's section (the cells with a
  servant, then the reserve tiles that carry one).

Rulings (``docs/modules/bedienstete.md``): the marshal may stop early and enter a tile again;
the servants are not chosen (the colour decides); "Standardgebäude" are the pieces with a
building colour (switch ``buildings=base``: the base game's tiles only); the penalty of the
third scoring is counted and floored when the leftover tiles are about to be handed out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter, itemgetter

from referee.catalogue import SIDES, BuildingType, Side, TileKind
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report, unverifiable
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.geometry.grid import ORIGIN, Fountain
from referee.geometry.layers import wall_between
from referee.geometry.rules import BuildingProblem
from referee.modules.base import BundledModule, Scratch, bundled, module_data, section, token_text
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
from referee.scoring.categories import ORDER_LAST, Penalty

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE BEDIENSTETEN"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "sv"
VERB = "marshal"
CHANCE_VERB = "servants"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("bedienstete")["components"]
    return data


def per_colour() -> dict[BuildingType, int]:
    """ "54 Bedienstete (7x/ 7x/ 9x/ 9x/ 11x/ 11x in der Farbe von Pavillon/ Serail/ Arkaden/
    Gemächer/ Gärten und Türmen)"."""
    return dict(_per_colour())


@cache
def _per_colour() -> dict[BuildingType, int]:  # (made once; read it, do not change it)
    return {BuildingType(k): int(v) for k, v in _data()["servants"]["per_colour"].items()}


@cache
def open_size() -> int:
    return int(_data()["servants"]["open"])


@cache
def steps_from() -> int:
    return int(_data()["steps_from"])


def parse_servant(value: object) -> BuildingType | None:
    """``sv:G`` -> the gardens' colour; None: no servant token."""
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    try:
        return BuildingType(value.name.upper())
    except ValueError:
        return None


def servant_ref(colour: BuildingType) -> ComponentRef:
    return ComponentRef(KIND, colour.code)


def side_towards(a: Coord, b: Coord) -> Side | None:
    """The side of ``a`` that ``b`` lies beyond (None: no orthogonal neighbour)."""
    for side in SIDES:
        if a.neighbour(side) == b:
            return side
    return None


@dataclass
class ServantScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    drawn: dict[BuildingType, int] = field(default_factory=dict)  # left the face-down pile
    open: list[BuildingType] = field(default_factory=list)  # beside the market
    marshal: dict[str, Coord] = field(default_factory=dict)  # by player (default: start tile)
    on_tiles: dict[str, dict[Coord, BuildingType]] = field(default_factory=dict)
    carried: dict[str, list[object]] = field(default_factory=dict)  # reserve tiles with one
    moved_turn: int | None = None  # the turn whose marshal has moved
    # the third scoring's penalty, taken before the leftover tiles are handed out: by player,
    # (buildings without a servant, points lost after the floor at zero)
    final: dict[str, tuple[int, int]] | None = None
    # the idle answer kept for the engine at a turn's start (Module.kept_idle, ``idle_at``'s
    # answer): True only while the open row is full (set when it fills, undone when a servant
    # leaves it); None: not known, ``idle_at`` is asked
    idle_start: bool | None = field(default=None, repr=False, compare=False)


@bundled
class Bedienstete(BundledModule):
    """Servants beside the market, a court marshal per player; names and texts: the YAML."""

    verb_specs = (VerbSpec(VERB, kind="free", aliases=("hofmarschall",)),)
    chance_verbs = (CHANCE_VERB,)
    component_kinds = (KIND,)
    scratch_type = ServantScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("servant", "Bediensteter")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("moves the court marshal", "bewegt den Hofmarschall"),
        CHANCE_VERB: ("servants drawn", "Bedienstete gezogen"),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.drawn = dict.fromkeys(BuildingType, 0)

    # ------------------------------------------------------------------ pieces and state

    def colour(self, piece: object) -> BuildingType | None:
        """The colour of a "Standardgebäude" (None: the start tile, a piece without a building
        colour, or with ``buildings=base`` a module piece)."""
        if piece is None or piece is ORIGIN:
            return None
        # (a base building, the usual piece, whatever the option says: its option read only
        # for the other pieces; asked for every tile of every Alhambra at each scoring)
        if not isinstance(piece, TileKind) and self.option("buildings") == "base":
            return None
        t = getattr(piece, "type", None)
        return t if isinstance(t, BuildingType) else None

    def marshal_of(self, state: GameState, player: PlayerState) -> Coord:
        at = self.data(state).marshal.get(player.name, ORIGIN)
        return at if player.alhambra.get(at) is not None else ORIGIN

    def servants_of(self, state: GameState, player: PlayerState) -> dict[Coord, BuildingType]:
        """The cells of ``player``'s Alhambra with a servant (brought up to date: servants that
        went to the reserve with their tile come back onto it when it is built again)."""
        self._sync(state, player)
        mine: dict[Coord, BuildingType] = self.data(state).on_tiles.get(player.name, {})
        return mine

    def _sync(self, state: GameState, player: PlayerState) -> None:
        data = self.data(state)
        alh = player.alhambra
        mine = data.on_tiles.setdefault(player.name, {})
        for c in [c for c, t in mine.items() if self.colour(alh.get(c)) is not t]:
            del mine[c]
        carried = data.carried.get(player.name)
        if not carried:
            return
        reserve = list(player.reserve)
        keep: list[object] = []
        for piece in carried:
            if piece in reserve:
                reserve.remove(piece)
                keep.append(piece)
                continue
            # "Bedienstete werden mit dem Gebäudeplättchen in die Reserve gelegt": built again,
            # the tile brings its servant along
            for c, q in alh.items():
                t = self.colour(q)
                if t is not None and c not in mine and alh.piece_at(c) == piece:
                    mine[c] = t
                    break
        data.carried[player.name] = keep

    def without_servant(self, state: GameState, player: PlayerState) -> list[Coord]:
        """ "jedes Standardgebäude in der Alhambra ohne Bedienstete (Ausnahme:
        Startplättchen)"."""
        mine = self.servants_of(state, player)
        colour = self.colour
        # (a catalogue tile, the usual piece: its colour is its type, :meth:`colour`'s answer
        # without the call; any other piece asks :meth:`colour`. Asked for every player at
        # every scoring: issue 34)
        return [
            c
            for c, piece in player.alhambra.items()
            if c != ORIGIN
            and (
                type(piece.type) is BuildingType
                if type(piece) is TileKind
                else colour(piece) is not None
            )
            and c not in mine
        ]

    def count_without_servant(self, state: GameState, player: PlayerState) -> int:
        """``len(without_servant(state, player))``: the buildings the penalty counts. While no
        servant stands in the Alhambra and every piece but the fountain on 0,0 is a catalogue
        tile (a silent game's Alhambra: asked for every player at every scoring), the count
        is the number of those tiles whose type is a building type (:meth:`colour`'s answer
        for a catalogue tile whatever the option says), found by C loops over the pieces
        without a call per tile, and without :meth:`servants_of`'s ``_sync`` while no servant
        is on a cell or carried in the reserve (it would change nothing then) (issue 34); any
        other Alhambra takes :meth:`without_servant` (tests/test_speed26_silentb.py holds the
        two equal)."""
        data: ServantScratch | None = state.modules.get(self.name)
        if data is None:
            return len(self.without_servant(state, player))
        name = player.name
        mine = data.on_tiles.get(name)
        if mine is None:
            mine = data.on_tiles[name] = {}  # (as _sync makes it)
        if mine or data.carried.get(name):  # (servants_of's _sync may change something)
            return len(self.without_servant(state, player))
        # (no servant on a cell, none carried in the reserve: _sync would change nothing)
        alh = player.alhambra
        origin = alh.get(ORIGIN)
        if type(origin) is Fountain:
            pieces = list(map(_PIECE, alh.items()))
            if list(map(type, pieces)).count(TileKind) == len(pieces) - 1:
                # (the one piece that is no catalogue tile is the fountain on 0,0, left out)
                n = list(map(type, map(_TYPE, pieces))).count(BuildingType)
                return n - 1 if type(origin.type) is BuildingType else n
        return len(self.without_servant(state, player))

    def pile_left(self, state: GameState) -> dict[BuildingType, int]:
        drawn = self.data(state).drawn
        return {t: n - drawn.get(t, 0) for t, n in _per_colour().items()}

    # ------------------------------------------------------------------ the marshal

    def taken_value(self, state: GameState) -> tuple[int | None, str]:
        """The value of the money the turn's takes took (None: an unknown card among them)
        and the cards as written."""
        t = state.turn
        total: int | None = 0
        shown: list[str] = []
        for ref in t.taken if t is not None else ():
            shown.append(token_text(ref))
            if isinstance(ref, CardRef):
                v = None if ref.card is None else ref.card.value
            else:
                v = state.ext.money_value(state, ref)
            total = None if total is None or v is None else total + v
        return total, " ".join(shown)

    def _steps(self, action: ModuleAction) -> list[Coord | None]:
        return [a.value if isinstance(a.value, Coord) else None for a in action.args]

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """Every rule of the marshal's walk, without changing anything."""
        state = ctx.state
        pos = action.pos
        who = player.name
        out: list[Finding] = []
        t = state.turn
        value, cards = self.taken_value(state)
        steps = self._steps(action)
        if t is None or not t.taken:
            out.append(problem("BEDIENSTETE-TAKE", pos, who, reason="no-take"))
        elif value is not None and value >= steps_from():
            out.append(
                problem("BEDIENSTETE-TAKE", pos, who, reason="value", value=value, cards=cards)
            )
        if t is not None and self.data(state).moved_turn == t.number:
            out.append(problem("BEDIENSTETE-TAKE", pos, who, reason="twice"))
        if t is not None and t.taken and value is None:
            out.append(
                unverifiable(
                    pos,
                    "UNVERIFIED-BEDIENSTETE-VALUE",
                    who,
                    name=who,
                    n=len(steps),
                    cards=cards,
                )
            )
        elif value is not None and 0 < value < steps_from() and len(steps) > steps_from() - value:
            out.append(
                problem(
                    "BEDIENSTETE-STEPS",
                    pos,
                    who,
                    value=value,
                    cards=cards,
                    n=len(steps),
                    most=steps_from() - value,
                )
            )
        alh = player.alhambra
        cur = self.marshal_of(state, player)
        for arg, to in zip(action.args, steps, strict=True):
            apos = arg.pos or pos
            if to is None:
                out.append(
                    problem(
                        "BEDIENSTETE-WALK",
                        apos,
                        who,
                        reason="form",
                        start=str(cur),
                        to="?",
                        token=token_text(arg.value),
                    )
                )
                continue
            side = side_towards(cur, to)
            why = None
            if side is None:
                why = "not-adjacent"
            elif alh.get(to) is None:
                why = "off-tiles"
            elif not wall_between(alh.cells, alh.layers, cur, side).passable:
                why = "wall"
            if why is not None:
                out.append(
                    # the reason is chosen above: its {detail} is checked at run time
                    problem("BEDIENSTETE-WALK", apos, who, **_params(why, start=cur, to=to))
                )
            cur = to
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The marshal walks (checked by :meth:`check_verb`): "Für jedes so betretene Plättchen
        ohne Bediensteten erhält der Spieler 1 Bediensteten der entsprechenden Farbe, sofern
        mindestens ein Plättchen in dieser Farbe ausliegt. Diesen Bediensteten legt er auf das
        entsprechende Gebäude."."""
        data = self.data(state)
        if state.turn is not None:
            data.moved_turn = state.turn.number
        mine = self.servants_of(state, player)
        alh = player.alhambra
        cur = self.marshal_of(state, player)
        for to in self._steps(action):
            if to is None or alh.get(to) is None:
                continue
            cur = to
            t = self.colour(alh.get(to))
            if t is not None and to not in mine and t in data.open:
                data.open.remove(t)
                data.idle_start = None
                mine[to] = t
        data.marshal[player.name] = cur
        return []

    # ------------------------------------------------------------------ the reserve

    def _marshal_here(self, ctx: Any, player: Any, at: Any) -> bool:
        if player is None or not isinstance(at, Coord) or player.alhambra.get(at) is None:
            return False
        m = self.marshal_of(ctx.state, player)
        return m != ORIGIN and m in player.alhambra.cells_of(at)

    @refines(Decision.REMOVE_PROBLEMS)
    def marshal_tile_stays(
        self, ctx: Any, problems: list[Any], *, player: Any, at: Any, **_: Any
    ) -> list[Any]:
        """ "Ein Gebäudeplättchen, auf dem der Hofmarschall steht, darf nicht in die Reserve
        gelegt werden"."""
        if self._marshal_here(ctx, player, at):
            return [*problems, BuildingProblem("BEDIENSTETE-RESERVE", (at,))]
        return problems

    @refines(Decision.PLACE_PROBLEMS)
    def marshal_tile_not_swapped(
        self, ctx: Any, problems: list[Any], *, player: Any, at: Any, how: str = "place", **_: Any
    ) -> list[Any]:
        """A swap puts the tile it replaces into the reserve: not the marshal's tile."""
        if how == "swap" and self._marshal_here(ctx, player, at):
            return [*problems, BuildingProblem("BEDIENSTETE-RESERVE", (at,))]
        return problems

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """ "Bedienstete werden mit dem Gebäudeplättchen in die Reserve gelegt": the servants
        of the freed cells travel with the piece."""
        data = self.data(state)
        mine = data.on_tiles.setdefault(player.name, {})
        for c in [c for c in mine if player.alhambra.get(c) is None]:
            del mine[c]
            data.carried.setdefault(player.name, []).append(piece)
        return []

    # ------------------------------------------------------------------ the open row

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* servants sv:G ...``: servants drawn from the face-down pile and laid open."""
        self._draw(state, event.args, event.pos)
        return []

    def _draw(self, state: GameState, args: tuple[GenericArg, ...], pos: Pos) -> None:
        data = self.data(state)
        total = per_colour()
        for arg in args:
            apos = arg.pos or pos
            t = parse_servant(arg.value)
            token = token_text(arg.value)
            if t is None:
                state.flag("BEDIENSTETE-TOKEN", apos, token=token)
                continue
            if data.drawn[t] >= total[t]:
                state.flag("BEDIENSTETE-SUPPLY", apos, reason="colour-out", token=token, n=total[t])
                continue
            if len(data.open) >= open_size():
                state.flag(
                    "BEDIENSTETE-REFILL",
                    apos,
                    reason="too-many",
                    shown=self._row(data.open),
                    token=token,
                    n=len(data.open) + 1,
                )
                continue
            data.drawn[t] += 1
            data.open.append(t)
            if len(data.open) >= open_size():
                data.idle_start = True

    @staticmethod
    def _row(row: list[BuildingType]) -> str:
        return " ".join(f"{KIND}:{t.code}" for t in row) or "-"

    placements_by_pieces = True  # place.problems: only a swap may put the marshal's tile away
    idle_moments = frozenset({Moment.TURN_START})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_start: kept where the open row changes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Nothing to report at a turn's start while the open row is full, or nothing is left
        to fill it with, or the record is not checked (:meth:`at_moment`). The module's part
        must exist (its step would make it)."""
        data = state.modules.get(self.name)
        if data is None or moment != Moment.TURN_START:
            return False
        if not state.checking or len(data.open) >= open_size():
            return True
        return sum(self.pile_left(state).values()) <= 0

    @acts_at(Moment.TURN_START, Moment.LEFTOVERS_BEFORE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment == Moment.TURN_START and state.checking:
            data = self.data(state)
            left = sum(self.pile_left(state).values()) if len(data.open) < open_size() else 0
            if left > 0:
                state.flag(
                    "BEDIENSTETE-REFILL",
                    ctx.pos if ctx.pos is not None else state.turn.pos,
                    reason="missing",
                    shown=self._row(data.open),
                    n=len(data.open),
                    left=left,
                )
        elif moment == Moment.LEFTOVERS_BEFORE:
            # "Hier erhalten die Spieler die Minuspunkte nach gleichem Prinzip, aber noch bevor
            # die restlichen Gebäudeplättchen vom Bauhof an die Spieler verteilt werden."
            final: dict[str, tuple[int, int]] = {}
            for p in state.players:
                n = self.count_without_servant(state, p)
                final[p.name] = (n, min(n, p.score) if p.score_known else n)
            self.data(state).final = final

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """A ``servants`` penalty line at every scoring, scored last: -1 per building without a
        servant, never below zero; the third scoring's is the one taken before the leftover
        tiles were handed out."""

        final = self.data(state).final if round_no == 3 else None

        def points(p: Any) -> tuple[int, str, str] | None:
            player = state.player_named(p.name)
            if player is None:
                return None
            if final is not None and p.name in final:
                n, lost = final[p.name]
                if n == 0:
                    return None
                return (
                    lost,
                    f"{n} without a servant before the leftover tiles",
                    f"{n} ohne Bediensteten vor dem Verteilen der restlichen Plättchen",
                )
            n = self.count_without_servant(state, player)
            if n == 0:
                return None
            return n, f"{n} without a servant", f"{n} ohne Bediensteten"

        line = Penalty(
            "servants",
            "servants",
            "Bedienstete",
            S_SCORE,
            points,
            order=ORDER_LAST,
            floor=None if final is not None else "total",
        )
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """The open row outside the player sections; a player's marshal (when it left the
        start tile) and servants (cells, then reserve tiles)."""
        from referee.engine.legal import piece_ref

        data = self.data(state)
        if player is None:
            row = tuple(GenericArg(servant_ref(t)) for t in data.open)
            return [ModuleAction(CHANCE_VERB, row)] if row else []
        out: list[ModuleAction] = []
        m = self.marshal_of(state, player)
        if m != ORIGIN:
            out.append(ModuleAction(VERB, (GenericArg(m),)))
        cells = sorted(self.servants_of(state, player), key=lambda c: (-c.y, c.x))
        args: list[GenericArg] = [GenericArg(c) for c in cells]
        args += [GenericArg(piece_ref(x)) for x in data.carried.get(player.name, [])]
        if args:
            out.append(ModuleAction(CHANCE_VERB, tuple(args)))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        if player is None:
            if verb != CHANCE_VERB:
                return False
            self._draw(state, line.args, line.pos)
            return True
        if verb == VERB:
            self._position_marshal(state, player, line)
            return True
        if verb == CHANCE_VERB:
            self._position_servants(state, player, line)
            return True
        return False

    def _position_marshal(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        who = player.name
        at = line.args[0].value if len(line.args) == 1 else None
        if not isinstance(at, Coord):
            shown = " ".join(token_text(a.value) for a in line.args) or "-"
            state.flag("BEDIENSTETE-POSITION", line.pos, who, reason="form", token=shown)
            return
        if player.alhambra.get(at) is None:
            state.flag("BEDIENSTETE-POSITION", line.pos, who, reason="empty", token=f"@{at}")
            return
        self.data(state).marshal[who] = at

    def _position_servants(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        from referee.engine.core import match_slot

        data = self.data(state)
        who = player.name
        mine = data.on_tiles.setdefault(who, {})
        carried = data.carried.setdefault(who, [])
        free = list(player.reserve)
        for x in carried:
            if x in free:
                free.remove(x)
        found: list[Finding] = []
        for arg in line.args:
            v = arg.value
            apos = arg.pos or line.pos
            piece: object = None
            if isinstance(v, Coord):
                piece = player.alhambra.get(v)
                token = f"@{v}"
                why = "empty" if piece is None else None
            else:
                token = token_text(v)
                i = match_slot(v, free) if not isinstance(v, (int, str)) else None  # type: ignore[arg-type]
                why = "not-in-reserve" if i is None else None
                piece = None if i is None else free.pop(i)
            t = self.colour(piece) if why is None else None
            if why is None and t is None:
                why = "no-colour"
            if why is not None or t is None:
                found.append(
                    problem("BEDIENSTETE-POSITION", apos, who, **_params(why, token=token))
                )
                continue
            if data.drawn[t] >= _per_colour()[t]:
                found.append(
                    problem(
                        "BEDIENSTETE-SUPPLY",
                        apos,
                        who,
                        reason="colour-out",
                        token=f"{KIND}:{t.code}",
                        n=per_colour()[t],
                    )
                )
                continue
            data.drawn[t] += 1
            if isinstance(v, Coord):
                mine[v] = t
            else:
                carried.append(piece)
        report(state, found)

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Drawn on the tiles (E17): the court marshal (``hm``, on a tile other than the start
        tile) and each servant (``sv:G``); read only, the state is not brought up to date."""
        out: dict[Coord, str] = {}
        m = self.marshal_of(state, player)
        if m != ORIGIN:
            out[m] = "hm"
        for at, colour in self.data(state).on_tiles.get(player.name, {}).items():
            if player.alhambra.get(at) is not None:
                mark = f"{KIND}:{colour.code}"
                out[at] = f"{out[at]} {mark}" if at in out else mark
        return out

    def view(self, state: GameState) -> dict[str, Any]:
        """The open row, the face-down pile by colour, each player's marshal and servants."""
        data = self.data(state)
        left = self.pile_left(state)
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            mine = self.servants_of(state, p)
            m = self.marshal_of(state, p)
            cells = sorted(mine.items(), key=lambda ct: (-ct[0].y, ct[0].x))
            row: dict[str, str] = {
                "marshal": "start tile" if m == ORIGIN else f"@{m}",
                "servants": " ".join(f"{t.code}@{c}" for c, t in cells) or "-",
                "buildings without a servant": str(len(self.without_servant(state, p))),
            }
            carried = data.carried.get(p.name)
            if carried:
                row["on reserve tiles"] = " ".join(str(x) for x in carried)
            players[p.name] = row
        return self.shown(
            {
                "open": self._row(data.open),
                "in the supply": " ".join(f"{t.code} {n}" for t, n in left.items()),
                "options": f"buildings={self.option('buildings')}",
            },
            players,
        )

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Walks of the marshal after a take worth less than 6: walks that enter no tile twice,
        of every length up to 6 minus the value (re-entering is allowed too, but never needed
        to reach a tile), a bounded number, the longest first."""
        state = ctx.state
        t = state.turn
        if t is None or not t.taken or self.data(state).moved_turn == t.number:
            return []
        if player.alhambra_unknown:
            return []
        value, _cards = self.taken_value(state)
        if value is None or not 0 < value < steps_from():
            return []
        most = steps_from() - value
        alh = player.alhambra
        cells, layers = alh.cells, alh.layers
        start = self.marshal_of(state, player)
        paths: list[tuple[Coord, ...]] = []

        def walk(path: tuple[Coord, ...]) -> None:
            if len(paths) >= 200:
                return
            if path:
                paths.append(path)
            if len(path) >= most:
                return
            cur = path[-1] if path else start
            for side in SIDES:
                nb = cur.neighbour(side)
                if (
                    nb != start
                    and nb not in path
                    and nb in cells
                    and wall_between(cells, layers, cur, side).passable
                ):
                    walk((*path, nb))

        walk(())
        paths.sort(key=lambda p: -len(p))
        return [ModuleAction(VERB, tuple(GenericArg(c) for c in p)) for p in paths[:24]]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like small takes (so that the marshal walks)."""
        from referee.record.model import TakeMoney

        out = []
        for a in actions:
            if isinstance(a, TakeMoney) and all(isinstance(c, CardRef) for c in a.cards):
                value = sum(c.card.value for c in a.cards if isinstance(c, CardRef) and c.card)
                if 0 < value < steps_from():
                    out.append(a)
        return out

    # ------------------------------------------------------------------ simulator

    def _pile(self, sim: Any) -> list[BuildingType]:
        def make() -> list[BuildingType]:
            pile = [t for t, n in per_colour().items() for _ in range(n)]
            sim.rng.shuffle(pile)
            return pile

        pile: list[BuildingType] = sim.mine(self, make)
        return pile

    def _fill(self, sim: Any) -> list[Any]:
        pile = self._pile(sim)
        data = self.data(sim.state)
        drawn: list[BuildingType] = []
        while pile and len(data.open) + len(drawn) < open_size():
            drawn.append(pile.pop())
        if not drawn:
            return []
        return [ModuleChance(CHANCE_VERB, tuple(GenericArg(servant_ref(t)) for t in drawn))]

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "Dann werden 6 Bedienstete gezogen und offen neben dem Bauhof platziert"."""
        return self._fill(sim)

    def sim_refill(self, sim: Any) -> list[Any]:
        """ "Nach dem Zug werden die ausliegenden Bediensteten wieder auf 6 aufgefüllt"."""
        return self._fill(sim)


_PIECE = itemgetter(1)  # a cell's piece, of an (at, piece) pair
_TYPE = attrgetter("type")  # a piece's building type (catalogue tiles and the fountain)


def _params(reason: str | None, **params: object) -> dict[str, Any]:
    """A finding's reason and parameters as one mapping (the reason chosen at run time)."""
    return {"reason": reason, **{k: str(v) for k, v in params.items()}}
