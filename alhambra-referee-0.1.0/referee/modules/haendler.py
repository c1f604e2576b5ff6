"""Der fliegende Händler (the flying trader): a trader tile beside each Alhambra carries three
residents; a building laid on the trader's cell takes in a resident of its colour, and residents
in buildings score sets of different colours at every scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DER FLIEGENDE HÄNDLER (L1414-1511; rulings:
``docs/modules/haendler.md``).

Notation (a resident is ``rs:`` + its building colour ``P S A C G T``; ``rs:hidden`` one not
revealed):

* ``* trader Anna @0,-1 rs:P rs:S rs:G`` -- the setup: the trader's cell beside the start tile
  and the three residents chosen "verdeckt" (``rs:hidden`` for each one the record does not reveal;
  it is revealed when it moves into a building or is swapped);
* ``resident rs:G @0,-1`` -- after a building was laid on the trader's cell: the matching
  resident moves from the trader onto it;
* ``trader rs:T`` -- then a new resident from the general supply onto the trader;
* ``trade rs:P rs:A`` -- instead, when no colour matches: the trader's P for an A of the supply;
* ``trader @1,-1`` -- "ganz am Ende des Zuges (nach dem Bauen)": the trader onto a free cell
  beside any own building;
* position blocks: ``trader @1,-1 rs:S rs:G rs:T`` and ``resident rs:G @0,-1`` in a player's
  section;
* ``scoring 1: Anna +14 (G=8, residents=6)`` -- the resident line may be claimed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import SIDES, BuildingType
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment, Phase
from referee.engine.verbs import VerbSpec
from referee.geometry.grid import ORIGIN
from referee.modules.base import BundledModule, Scratch, bundled, module_data, named_player, section
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DER FLIEGENDE HÄNDLER"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "rs"
TRADER = "trader"  # the setup (chance), the new resident, the move at the end of the turn
RESIDENT = "resident"  # a resident moves into the building laid on the trader's cell
TRADE = "trade"  # a resident of the trader swapped with one of the supply
UNKNOWN = "?"  # a resident the record does not reveal (written rs:hidden)
HIDDEN = "hidden"
COLOURS = tuple(t.code for t in BuildingType)


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("haendler")["components"]
    return data


def per_colour() -> dict[str, int]:
    return dict(_per_colour())


@cache
def _per_colour() -> dict[str, int]:  # (made once; read it, do not change it)
    return {k: int(v) for k, v in _data()["residents"]["per_colour"].items()}


@cache
def _in_all() -> int:
    return sum(_per_colour().values())


def set_points(residents: Counter[str]) -> int:
    """The rulebook's sets: set k holds every colour with k or more residents; a set of m
    colours scores the table's points for m ("3 rote, 2 weiße, 2 grüne und 1 blauen" -> 17)."""
    table = [int(n) for n in _data()["set_points"]]
    total, k = 0, 1
    while True:
        m = sum(1 for n in residents.values() if n >= k)
        if m == 0:
            return total
        total += table[min(m, len(table) - 1)]
        k += 1


def colour_word(letter: str, lang: str = "en") -> str:
    if letter == UNKNOWN:
        return "?"
    return BuildingType(letter).name_in(lang)


def read_resident(value: object) -> str | None:
    """``rs:G`` -> ``G``; ``rs:hidden`` -> ``?``; anything else None."""
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    name = value.name.upper()
    if name == HIDDEN.upper():
        return UNKNOWN
    return name if name in COLOURS else None


def token(value: object) -> str:
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    return str(value)


def _ref(letter: str) -> GenericArg:
    return GenericArg(ComponentRef(KIND, HIDDEN if letter == UNKNOWN else letter))


@dataclass
class TraderScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    cell: dict[str, Coord | None] = field(default_factory=dict)  # None: set aside
    held: dict[str, list[str]] = field(default_factory=dict)  # on the trader ("?" unrevealed)
    homes: dict[str, dict[Coord, str]] = field(default_factory=dict)  # residents in buildings
    flagged: set[str] = field(default_factory=set)  # players told that their trader is missing
    # the current turn
    aside: Coord | None = None  # the cell the mover's trader left in this turn
    moved_in: bool = False
    refilled: bool = False
    traded: bool = False
    moved: bool = False

    def new_turn(self) -> None:
        self.aside, self.moved_in, self.refilled, self.traded, self.moved = (
            None,
            False,
            False,
            False,
            False,
        )


@bundled
class Haendler(BundledModule):
    """A trader beside each Alhambra; residents move into the buildings laid on its cell."""

    verb_specs = (
        VerbSpec(RESIDENT, kind=ActionKind.FREE, aliases=("bewohner",)),
        VerbSpec(TRADER, kind=ActionKind.FREE, aliases=("haendler", "händler")),
        VerbSpec(TRADE, kind=ActionKind.FREE, aliases=("tausch",)),
    )
    chance_verbs = (TRADER,)
    component_kinds = (KIND,)
    scratch_type = TraderScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("resident", "Bewohner")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        RESIDENT: ("moves a resident into the building", "stellt einen Bewohner ins Gebäude"),
        "bewohner": ("moves a resident into the building", "stellt einen Bewohner ins Gebäude"),
        TRADER: ("sets or moves the flying trader", "stellt oder versetzt den fliegenden Händler"),
        "haendler": ("sets or moves the flying trader", "stellt oder versetzt den Händler"),
        "händler": ("sets or moves the flying trader", "stellt oder versetzt den Händler"),
        TRADE: ("swaps a resident with the supply", "tauscht einen Bewohner mit dem Vorrat"),
        "tausch": ("swaps a resident with the supply", "tauscht einen Bewohner mit dem Vorrat"),
    }

    # ------------------------------------------------------------------ the supply

    def _out(self, data: TraderScratch) -> Counter[str]:
        """Residents of each known colour on traders and in buildings (not in the supply)."""
        out: Counter[str] = Counter()
        for held in data.held.values():
            out.update(c for c in held if c != UNKNOWN)
        for homes in data.homes.values():
            out.update(homes.values())
        return out

    def supply_total(self, state: GameState) -> int:
        data = self.data(state)
        used = sum(len(h) for h in data.held.values()) + sum(len(h) for h in data.homes.values())
        return _in_all() - used

    def _supply_finding(
        self, state: GameState, colour: str, pos: Pos, who: str, back: str | None = None
    ) -> list[Finding]:
        """Taking ``colour`` from the supply (``back``: a resident put back first)."""
        data = self.data(state)
        out = self._out(data)
        if back is not None and back != UNKNOWN:
            out[back] -= 1
        if _per_colour()[colour] - out[colour] >= 1:
            return []
        where = [f"{n}: {' '.join(h)}" for n, h in data.held.items() if colour in h]
        where += [
            f"{n} @{c}" for n, homes in data.homes.items() for c, x in homes.items() if x == colour
        ]
        return [
            problem(
                "HAENDLER-SUPPLY",
                pos,
                who,
                colour=colour_word(colour),
                where="; ".join(where),
            )
        ]

    # ------------------------------------------------------------------ the trader's place

    def displaced(self, state: GameState, player: PlayerState) -> Coord | None:
        """The cell the trader had to leave in this turn ("Wird nun ein Gebäude an dem Platz
        eines Händlerplättchens ... errichtet, wird das Händlerplättchen zunächst zur Seite
        gelegt"), or None."""
        data = self.data(state)
        t = state.turn
        mover = t is not None and state.players[t.player] is player
        cell = data.cell.get(player.name)
        if cell is not None and player.alhambra.get(cell) is not None:
            return cell
        if mover and data.aside is not None:
            return data.aside
        return None

    def _moved(self, state: GameState, player: PlayerState) -> bool:
        """Whether the trader was moved on in this turn and still stands where it may end the
        turn: free and beside an own building (a later redesign may have changed either)."""
        data = self.data(state)
        cell = data.cell.get(player.name)
        if not data.moved or cell is None:
            return False
        return player.alhambra.get(cell) is None and self._beside(player, cell)

    def _settle(self, state: GameState, player: PlayerState) -> None:
        """Set the trader aside when a building now lies on its cell."""
        data = self.data(state)
        cell = data.cell.get(player.name)
        if cell is not None and player.alhambra.get(cell) is not None:
            data.aside, data.moved = cell, False
            data.cell[player.name] = None

    def _beside(self, player: PlayerState, at: Coord) -> bool:
        """Whether ``at`` shares a side with an own building (only the ban on "über Eck")."""
        alh = player.alhambra
        # with no building left (all redesigned away) the start tile serves, as at the setup
        start = self.option("beside") == "tile" or not any(c != ORIGIN for c in alh.cells)
        for side in SIDES:
            n = at.neighbour(side)
            if alh.get(n) is not None and (n != ORIGIN or start):
                return True
        return False

    def _unsure(self, player: PlayerState) -> bool:
        return player.counts is not None or bool(player.alhambra_unknown)

    # ------------------------------------------------------------------ the setup

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* trader Anna @0,-1 rs:P rs:S rs:G``: the trader and its three residents."""
        pos = event.pos
        args = list(event.args)
        if not args:
            state.flag("HAENDLER-SETUP", pos, None, reason="form")
            return []
        player = named_player(state, args[0], pos)
        if player is None:
            return []
        who = player.name
        data = self.data(state)
        vals = [a.value for a in args[1:]]
        at = vals[0] if vals and isinstance(vals[0], Coord) else None
        chosen = [read_resident(v) for v in vals[1:]]
        if at is None or any(c is None for c in chosen):
            bad = [token(v) for v in vals[1:] if read_resident(v) is None]
            if bad:
                state.flag("HAENDLER-TOKEN", pos, who, token=bad[0])
            else:
                state.flag("HAENDLER-SETUP", pos, who, reason="form")
            return []
        letters = [c for c in chosen if c is not None]
        if state.phase != Phase.SETUP:
            state.flag("HAENDLER-SETUP", pos, who, reason="after-play")
        if who in data.held:
            state.flag("HAENDLER-SETUP", pos, who, reason="twice")
            return []
        if len(letters) != int(_data()["chosen_at_setup"]):
            state.flag("HAENDLER-SETUP", pos, who, reason="count", n=len(letters))
        twice = [c for c, n in Counter(letters).items() if n > 1 and c != UNKNOWN]
        if twice:
            state.flag("HAENDLER-SETUP", pos, who, reason="same-colour", colour=twice[0])
        if at not in [ORIGIN.neighbour(s) for s in SIDES]:
            state.flag("HAENDLER-SETUP", pos, who, reason="cell", cell=str(at))
        data.cell[who] = at
        data.held[who] = letters
        data.homes.setdefault(who, {})
        return []

    # ------------------------------------------------------------------ the verbs

    def _args(self, action: ModuleAction) -> tuple[list[str | None], list[object], Coord | None]:
        vals: list[object] = [a.value for a in action.args]
        coords = [v for v in vals if isinstance(v, Coord)]
        others = [v for v in vals if not isinstance(v, Coord)]
        return [read_resident(v) for v in others], others, coords[0] if coords else None

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Every rule of the three verbs, without changing anything."""
        state = ctx.state
        pos, who = action.pos, player.name
        letters, raw, at = self._args(action)
        bad = [token(v) for v, c in zip(raw, letters, strict=True) if c is None]
        if bad:
            return [problem("HAENDLER-TOKEN", pos, who, token=bad[0])]
        if self._unsure(player):
            return []
        verb = action.verb.lower()
        if verb in (RESIDENT, "bewohner"):
            return self._resident_findings(state, player, letters, raw, at, pos)
        if verb in (TRADE, "tausch"):
            return self._trade_findings(state, player, letters, raw, pos)
        if at is not None and not raw:
            return self._move_findings(state, player, at, pos)
        if len(letters) == 1 and at is None:
            return self._refill_findings(state, player, letters[0] or UNKNOWN, token(raw[0]), pos)
        return [problem("HAENDLER-MOVE", pos, who, reason="form")]

    def _resident_findings(
        self,
        state: GameState,
        player: PlayerState,
        letters: list[str | None],
        raw: list[object],
        at: Coord | None,
        pos: Pos,
    ) -> list[Finding]:
        who = player.name
        data = self.data(state)
        tok = token(raw[0]) if raw else "-"
        cell = str(at) if at is not None else "-"
        if len(letters) != 1 or at is None:
            return [problem("HAENDLER-POSITION", pos, who, line=f"resident {tok} @{cell}")]
        colour = letters[0] or UNKNOWN
        if colour == UNKNOWN:
            return [problem("HAENDLER-TOKEN", pos, who, token=tok)]

        def bad(reason: str, **kw: Any) -> list[Finding]:
            return [
                problem("HAENDLER-RESIDENT", pos, who, reason=reason, token=tok, cell=cell, **kw)
            ]

        aside = self.displaced(state, player)
        if aside is None:
            return bad("not-displaced")
        if self._moved(state, player):
            return bad("after-move")
        if data.moved_in:
            return bad("twice")
        if data.traded:
            return bad("traded")
        if at != aside:
            return bad("cell", place=str(aside))
        held = data.held.get(who, [])
        if colour not in held and UNKNOWN not in held:
            return bad("not-on-trader", held=" ".join(f"rs:{c}" for c in held) or "-")
        piece = player.alhambra.get(at)
        kind = getattr(piece, "type", None)
        if kind is None:
            return [
                problem("HAENDLER-NO-BUILDING", pos, who, token=tok, piece=str(piece), cell=cell)
            ]
        if kind.code != colour:
            return bad("colour", building=f"{piece} ({kind.name_in('en')})")
        return []

    def _refill_findings(
        self, state: GameState, player: PlayerState, colour: str, tok: str, pos: Pos
    ) -> list[Finding]:
        who = player.name
        data = self.data(state)

        def bad(reason: str, **kw: Any) -> list[Finding]:
            return [problem("HAENDLER-REFILL", pos, who, reason=reason, token=tok, **kw)]

        if self.displaced(state, player) is None or not data.moved_in:
            return bad("no-move-in")
        if data.refilled:
            return bad("twice")
        if self._moved(state, player):
            return bad("after-move")
        if colour == UNKNOWN:
            return bad("unknown")
        if self.supply_total(state) <= 0:
            return bad("empty")
        return self._supply_finding(state, colour, pos, who)

    def _trade_findings(
        self,
        state: GameState,
        player: PlayerState,
        letters: list[str | None],
        raw: list[object],
        pos: Pos,
    ) -> list[Finding]:
        who = player.name
        data = self.data(state)
        if len(letters) != 2:
            line = " ".join(token(v) for v in raw)
            return [problem("HAENDLER-POSITION", pos, who, line=f"trade {line}")]
        give, get = letters[0] or UNKNOWN, letters[1] or UNKNOWN

        def bad(reason: str, **kw: Any) -> list[Finding]:
            return [
                problem(
                    "HAENDLER-TRADE",
                    pos,
                    who,
                    reason=reason,
                    token=token(raw[0]),
                    other=token(raw[1]),
                    **kw,
                )
            ]

        aside = self.displaced(state, player)
        if aside is None:
            return bad("not-displaced")
        if self._moved(state, player):
            return bad("after-move")
        if data.moved_in:
            return bad("moved-in")
        if data.traded:
            return bad("twice")
        held = data.held.get(who, [])
        piece = player.alhambra.get(aside)
        kind = getattr(piece, "type", None)
        if kind is not None and kind.code in held:
            return bad("match", building=f"{piece} ({kind.name_in('en')})")
        if give not in held:
            return bad("not-on-trader", held=" ".join(f"rs:{c}" for c in held) or "-")
        if get == UNKNOWN:
            return bad("unknown")
        return self._supply_finding(state, get, pos, who, back=give)

    def _move_findings(
        self, state: GameState, player: PlayerState, at: Coord, pos: Pos
    ) -> list[Finding]:
        who = player.name
        cell = str(at)

        def bad(reason: str, **kw: Any) -> list[Finding]:
            return [problem("HAENDLER-MOVE", pos, who, reason=reason, cell=cell, **kw)]

        if self.displaced(state, player) is None:
            return bad("not-displaced")
        if self._moved(state, player):
            return bad("twice")
        piece = player.alhambra.get(at)
        if piece is not None:
            return bad("occupied", piece=str(piece))
        if not self._beside(player, at):
            return bad("not-beside")
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Carry a verb out (checked by :meth:`check_verb`)."""
        if self._unsure(player):
            return []
        self._settle(state, player)
        data = self.data(state)
        who = player.name
        held = data.held.setdefault(who, [])
        letters, raw, at = self._args(action)
        verb = action.verb.lower()
        if verb in (RESIDENT, "bewohner"):
            colour = letters[0] if letters else None
            if colour is None or at is None or colour == UNKNOWN:
                return []
            kind = getattr(player.alhambra.get(at), "type", None)
            if self.displaced(state, player) != at or kind is None or kind.code != colour:
                return []  # refused (one finding): nothing moves, nothing new is owed
            _take(held, colour)
            data.homes.setdefault(who, {})[at] = colour
            data.moved_in = True
        elif verb in (TRADE, "tausch"):
            if len(letters) != 2 or letters[0] is None or letters[1] is None:
                return []
            if self.displaced(state, player) is None:
                return []
            _take(held, letters[0])
            held.append(letters[1])
            data.traded = True
        elif at is not None and not raw:
            data.cell[who] = at
            data.moved = True
        elif len(letters) == 1 and letters[0] is not None:
            held.append(letters[0])
            data.refilled = True
        return []

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """ "Wird ein Gebäude mit Bewohner abgebaut, kommt der Bewohner zurück in den
        allgemeinen Vorrat" (into the reserve or swapped)."""
        self.data(state).homes.get(player.name, {}).pop(at, None)
        return []

    # ------------------------------------------------------------------ the turn

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """The turn start forgets the last turn; its end wants the trader moved on after a
        building took its place, and a new resident after one moved in."""
        super().at_moment(ctx, moment)
        state = ctx.state
        t = state.turn
        if t is None or moment not in (Moment.TURN_START, Moment.TURN_END):
            return
        data = self.data(state)
        player = state.players[t.player]
        who = player.name
        if moment == Moment.TURN_START:
            data.new_turn()
            if who not in data.held and who not in data.flagged and state.checking:
                data.flagged.add(who)
                ctx.flag("HAENDLER-SETUP", t.pos, who, reason="missing")
            return
        if not self._unsure(player):
            self._settle(state, player)
            pos = ctx.pos or t.pos
            cell = data.cell.get(who)
            if state.checking and data.aside is not None and not data.moved:
                ctx.flag("HAENDLER-MOVE", pos, who, reason="missing", cell=str(data.aside))
            elif (
                state.checking
                and data.moved
                and cell is not None
                and not self._moved(state, player)
            ):
                # "ganz am Ende des Zuges (nach dem Bauen)": the place must hold after the
                # turn's last redesign
                ctx.flag("HAENDLER-MOVE", pos, who, reason="not-beside", cell=str(cell))
            if state.checking and data.moved_in and not data.refilled:
                left = self.supply_total(state)
                if left > 0:
                    ctx.flag("HAENDLER-REFILL", pos, who, reason="missing", n=left, token="-")
        data.new_turn()

    # ------------------------------------------------------------------ scoring

    def residents(self, state: GameState, name: str) -> Counter[str]:
        return Counter(self.data(state).homes.get(name, {}).values())

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Gewertet werden alle Bewohner auf Gebäudeplättchen, dabei werden Serien
        unterschiedlicher Farbe betrachtet": a ``residents`` line at every scoring."""
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        def points(p: Any) -> tuple[int, str, str] | None:
            held = self.residents(state, p.name)
            if not held:
                return None
            pts = set_points(held)
            en = " ".join(f"{n} {colour_word(c)}" for c, n in sorted(held.items()))
            de = " ".join(f"{n} {colour_word(c, 'de')}" for c, n in sorted(held.items()))
            return pts, f"{en} -> {pts}", f"{de} -> {pts}"

        line = PointLine("residents", "residents", "Bewohner", S_SCORE, points, order=645)
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``trader @x,y rs:C ...`` and ``resident rs:C @x,y`` for each resident in a building."""
        if player is None:
            return []
        data = self.data(state)
        if player.name not in data.held:
            return []
        cell = data.cell.get(player.name)
        where = (GenericArg(cell),) if cell is not None else ()
        out = [ModuleAction(TRADER, (*where, *(_ref(c) for c in data.held[player.name])))]
        for at, c in sorted(
            data.homes.get(player.name, {}).items(), key=lambda x: (-x[0].y, x[0].x)
        ):
            out.append(ModuleAction(RESIDENT, (_ref(c), GenericArg(at))))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        if player is None or verb not in (TRADER, RESIDENT, "haendler", "händler", "bewohner"):
            return False
        data = self.data(state)
        who = player.name
        letters, raw, at = self._args(line)
        text = f"{line.verb} " + " ".join(token(a.value) for a in line.args)
        if any(c is None for c in letters):
            state.flag("HAENDLER-POSITION", line.pos, who, line=text)
            return True
        known = [c for c in letters if c is not None]
        if verb in (RESIDENT, "bewohner"):
            if len(known) != 1 or at is None or known[0] == UNKNOWN:
                state.flag("HAENDLER-POSITION", line.pos, who, line=text)
                return True
            piece = player.alhambra.get(at)
            kind = getattr(piece, "type", None)
            found: list[Finding] = []
            if kind is None or kind.code != known[0]:
                found.append(
                    problem(
                        "HAENDLER-NO-BUILDING",
                        line.pos,
                        who,
                        token=token(raw[0]),
                        piece=str(piece) if piece is not None else "-",
                        cell=str(at),
                    )
                )
            found += self._supply_finding(state, known[0], line.pos, who)
            report(state, found)
            data.homes.setdefault(who, {})[at] = known[0]
            return True
        for c in known:
            if c != UNKNOWN:
                report(state, self._supply_finding(state, c, line.pos, who))
        data.cell[who] = at
        data.held[who] = known
        data.homes.setdefault(who, {})
        return True

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Drawn on the tiles (E17): the resident in each building (``rs:G``). The trader
        stands on a free cell beside the Alhambra: it is named in words (the view)."""
        return {
            at: f"{KIND}:{c}"
            for at, c in self.data(state).homes.get(player.name, {}).items()
            if player.alhambra.get(at) is not None
        }

    def view(self, state: GameState) -> dict[str, Any]:
        """The supply, each player's trader, its residents and the residents in buildings."""
        data = self.data(state)
        out = self._out(data)
        unknown = sum(h.count(UNKNOWN) for h in data.held.values())
        left = " ".join(f"{c} {per_colour()[c] - out[c]}" for c in COLOURS)
        table = {"in the supply": f"{self.supply_total(state)} ({left})"}
        if unknown:
            table["unknown"] = str(unknown)
        table["options"] = f"beside={self.option('beside')}"
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            if p.name not in data.held:
                continue
            cell = data.cell.get(p.name)
            homes = data.homes.get(p.name, {})
            players[p.name] = {
                "trader": f"@{cell}" if cell is not None else "set aside",
                "on the trader": " ".join(data.held[p.name]) or "none",
                "residents in buildings": " ".join(
                    f"{c}@{at}" for at, c in sorted(homes.items(), key=lambda x: (-x[0].y, x[0].x))
                )
                or "none",
                "resident points now": str(set_points(Counter(homes.values()))),
            }
        return self.shown(table, players)

    # ------------------------------------------------------------------ moves

    def _moves(self, ctx: Any, player: PlayerState, every: bool) -> list[Any]:
        state = ctx.state
        t = state.turn
        if t is None or state.players[t.player] is not player or self._unsure(player):
            return []
        aside = self.displaced(state, player)
        data = self.data(state)
        if aside is None or self._moved(state, player):
            return []
        if not every and t.pending:
            return []  # the simulated player finishes building first
        held = data.held.get(player.name, [])
        kind = getattr(player.alhambra.get(aside), "type", None)
        supply = [c for c in COLOURS if not self._supply_finding(state, c, NOWHERE, "")]
        out: list[Any] = []
        if data.moved_in and not data.refilled and self.supply_total(state) > 0:
            refills = [ModuleAction(TRADER, (_ref(c),)) for c in supply]
            if not every:
                return refills  # the new resident comes before the move on
            out += refills
        elif not (data.moved_in or data.traded):
            if kind is not None and kind.code in held:
                move_in = ModuleAction(RESIDENT, (_ref(kind.code), GenericArg(aside)))
                if not every:
                    return [move_in]  # the simulated player lets the resident move in
                out.append(move_in)
            else:
                for give in sorted(set(held)) if every else sorted(set(held))[:1]:
                    gets = [c for c in supply if c != give][: None if every else 1]
                    out += [ModuleAction(TRADE, (_ref(give), _ref(get))) for get in gets]
                if out and not every:
                    return out  # the simulated player swaps when it can
        out += [ModuleAction(TRADER, (GenericArg(c),)) for c in self._free_beside(player)]
        return out

    def _free_beside(self, player: PlayerState) -> list[Coord]:
        alh = player.alhambra
        cells: set[Coord] = set()
        for at in alh.cells:
            for side in SIDES:
                n = at.neighbour(side)
                if alh.get(n) is None and self._beside(player, n):
                    cells.add(n)
        return sorted(cells, key=lambda c: (-c.y, c.x))

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """After a building took the trader's place: the resident of its colour moving in,
        the new resident from the supply, a swap when no colour matches, the move onto a free
        cell beside an own building."""
        return self._moves(ctx, player, every=True)

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """What the simulator does after the trader was displaced: the matching resident
        moves in and a new one follows, or else one resident is swapped; then the move on,
        owed once nothing bought is left to place ("ganz am Ende des Zuges (nach dem
        Bauen)")."""
        return self._moves(ctx, player, every=False)

    def sim_setup(self, sim: Any) -> list[Any]:
        """Each player's trader beside the start tile with three different residents."""
        out: list[Any] = []
        n = int(_data()["chosen_at_setup"])
        for p in sim.state.players:
            chosen = sim.rng.sample(COLOURS, n)
            at = ORIGIN.neighbour(sim.rng.choice(SIDES))
            out.append(
                ModuleChance(
                    TRADER,
                    (GenericArg(p.name), GenericArg(at), *(_ref(c) for c in chosen)),
                )
            )
        return out


def _take(held: list[str], colour: str) -> None:
    """A resident of ``colour`` leaves the trader (an unrevealed one when none is known)."""
    if colour in held:
        held.remove(colour)
    elif UNKNOWN in held:
        held.remove(UNKNOWN)
