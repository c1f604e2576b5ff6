"""Der Palastplaner (the palace designer): a walker with a facing on each player's Alhambra; a
tile laid right at its tile scores at once (2 at its feet, 1 at another side), then the
designer moves onto the new tile.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Der Palastplaner (text L3389-3423, heading
L3461-3462; rulings: ``docs/modules/palastplaner.md``).

Notation (a side is ``n e s w``, ``o`` for Ost too):

* ``* planner Anna s`` -- the setup, before the market is first filled: Anna's designer on her
  start tile, its feet toward the south side;
* ``place C9s@0,-1, planner n 2`` -- the tile laid at the designer scored 2 (its feet pointed
  south), the designer moved onto it and now has its feet toward north. The points are stated
  for the reader and checked (``PALASTPLANER-POINTS``); the referee counts them itself. A laying
  without a ``planner`` line leaves the feet pointing as they did;
* ``planner @1,0 e`` -- after the designer's tile was removed (redesign): it jumps onto a tile;
* position blocks: ``planner @0,-1 n 5`` (its tile, its feet, the points it brought so far) or
  ``planner off 5`` in a player's section.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.catalogue import SIDES, Side
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, acts_at
from referee.engine.findings import Finding, problem
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment, Phase
from referee.engine.verbs import VerbSpec
from referee.geometry.grid import ORIGIN
from referee.messages import Term, Text
from referee.modules.base import BundledModule, Scratch, bundled, module_data, named_player
from referee.record.model import Coord, GenericArg, ModuleAction, ModuleChance, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

VERB = "planner"
OFF = "off"
# a moment inside a turn: the designer just moved onto the tile laid and its feet are still to
# be chosen, `planner @1,0 e 3 moved @0,0 w n 2` (from the tile @0,0, laid at its side w, its
# feet toward n before, 2 points)
MOVED = ("moved", "gewandert")
LETTERS = {"n": Side.N, "e": Side.E, "o": Side.E, "s": Side.S, "w": Side.W}
SIDE_WORDS = {"north": Side.N, "east": Side.E, "south": Side.S, "west": Side.W}
SIDE_NAMES = {side: word for word, side in SIDE_WORDS.items()}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("palastplaner")["components"]
    return data


def read_side(value: object) -> Side | None:
    """``n`` / ``e`` / ``o`` / ``s`` / ``w`` (or the English word) -> the side; else None."""
    if not isinstance(value, str):
        return None
    low = value.lower()
    return LETTERS.get(low) or SIDE_WORDS.get(low)


def side_letter(side: Side) -> str:
    return side.value.lower()


def side_term(side: Side) -> Term:
    return Term(side.value, "SIDE")


def side_towards(at: Coord, new: Coord) -> Side | None:
    """The side of the tile at ``at`` that ``new`` lies against (None: not a neighbour)."""
    for side in SIDES:
        if at.neighbour(side) == new:
            return side
    return None


def laid_against(tile: list[Coord], new: list[Coord]) -> Side | None:
    """The side of the designer's piece (its cells ``tile``) that the new piece (its cells
    ``new``) lies against, or None when they share no side. A piece of two cells (a major
    project) has a side of two edges: a tile against either lies at that side."""
    for c in tile:
        for n in new:
            side = side_towards(c, n)
            if side is not None and n not in tile:
                return side
    return None


def laying_points(feet: Side, side: Side) -> int:
    """ "an die Füße des Palastplaners angelegt ... 2 Punkten"; "an eine der anderen drei
    Kanten ... 1 Punkt" (L3404-3409)."""
    d = _data()
    return int(d["points_at_the_feet"] if side is feet else d["points_at_another_side"])


@dataclass
class Laying:
    """The last tile laid at a designer: its cell, the designer's tile, the side it lay
    against, where the feet pointed, the points."""

    cell: Coord
    tile: Coord
    side: Side
    feet: Side
    points: int


@dataclass
class PlannerScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    at: dict[str, Coord | None] = field(default_factory=dict)  # None: off the Alhambra
    feet: dict[str, Side] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)  # brought so far (in the score too)
    last: dict[str, Laying] = field(default_factory=dict)
    # the designer moved onto a new tile in this line and its feet were not stated yet
    open: dict[str, Coord] = field(default_factory=dict)
    flagged: set[str] = field(default_factory=set)


@bundled
class Palastplaner(BundledModule):
    """A palace designer on each Alhambra; tiles laid at its tile score at once."""

    verb_specs = (VerbSpec(VERB, kind=ActionKind.FREE, aliases=("planer", "palastplaner")),)
    chance_verbs = (VERB,)
    scratch_type = PlannerScratch
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("turns or sets the palace designer", "stellt den Palastplaner"),
        "planer": ("turns or sets the palace designer", "stellt den Palastplaner"),
        "palastplaner": ("turns or sets the palace designer", "stellt den Palastplaner"),
    }

    # ------------------------------------------------------------------ reading

    @staticmethod
    def _args(action: ModuleAction) -> tuple[Coord | None, list[object], list[int]]:
        vals = [a.value for a in action.args]
        coords = [v for v in vals if isinstance(v, Coord)]
        ints = [v for v in vals if isinstance(v, int) and not isinstance(v, bool)]
        words: list[object] = [v for v in vals if not isinstance(v, Coord | int)]
        return (coords[0] if coords else None), words, ints

    def planner_of(self, state: GameState, name: str) -> tuple[Coord | None, Side | None]:
        """Where ``name``'s designer stands and where its feet point (None, None: not set up;
        (None, side): off the Alhambra)."""
        data = self.data(state)
        if name not in data.at:
            return None, None
        return data.at[name], data.feet.get(name)

    def _unsure(self, player: PlayerState) -> bool:
        return player.counts is not None or bool(player.alhambra_unknown)

    # ------------------------------------------------------------------ the setup

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* planner Anna s``: Anna's designer on her start tile, feet toward the south."""
        pos = event.pos
        args = list(event.args)
        if not args:
            state.flag("PALASTPLANER-SETUP", pos, None, reason="form")
            return []
        player = named_player(state, args[0], pos)
        if player is None:
            return []
        who = player.name
        rest = [a.value for a in args[1:]]
        if len(rest) != 1:
            state.flag("PALASTPLANER-SETUP", pos, who, reason="form")
            return []
        side = read_side(rest[0])
        if side is None:
            state.flag("PALASTPLANER-SETUP", pos, who, reason="side", side=str(rest[0]))
            return []
        data = self.data(state)
        if who in data.at:
            state.flag("PALASTPLANER-SETUP", pos, who, reason="twice")
            return []
        if state.phase != Phase.SETUP:
            state.flag("PALASTPLANER-SETUP", pos, who, reason="after-play")
        elif any(slot is not EMPTY for slot in state.market):
            state.flag("PALASTPLANER-SETUP", pos, who, reason="after-market")
        data.at[who] = ORIGIN
        data.feet[who] = side
        data.points.setdefault(who, 0)
        return []

    # ------------------------------------------------------------------ a tile laid

    def placed(self, ctx: Any, player: PlayerState, at: Coord, piece: Any, how: str) -> None:
        """ "Immer dann, wenn ein Spieler die Alhambra unmittelbar an dem Plättchen erweitert,
        auf dem sich der Palastplaner befindet, erhält er einen oder zwei Punkte" (L3400-3403);
        "Die Punkte werden sofort auf der Zähltafel abgetragen" (L3411); "Der Palastplaner
        wandert anschließend auf das neu angelegte Plättchen" (L3413-3414). A swap does not
        extend the Alhambra (it fills a cell that was built); leftover tiles count unless the
        ``leftovers=skip`` switch says otherwise."""
        if how == "swap" or (how == "distribute" and self.option("leftovers") == "skip"):
            return
        state = ctx.state
        data = self.data(state)
        who = player.name
        tile = data.at.get(who)
        if tile is None or player.counts is not None:
            return
        alh = player.alhambra
        side = laid_against(alh.cells_of(tile), alh.cells_of(at) if at in alh else [at])
        if side is None:
            return
        at = alh.anchor_of(at) if at in alh else at
        feet = data.feet[who]
        points = laying_points(feet, side)
        player.score += points
        data.points[who] = data.points.get(who, 0) + points
        data.last[who] = Laying(at, tile, side, feet, points)
        data.at[who] = at
        data.open[who] = at  # the player now chooses the feet ("Der Spieler bestimmt dabei")

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """ "Wird ein Plättchen, auf dem sich ein Palastplaner befindet, aus der Alhambra
        entfernt, darf der Palastplaner auf ein beliebiges Plättchen der Alhambra umgesetzt
        werden" (L3416-3419): until it is, it stands off the Alhambra."""
        data = self.data(state)
        tile = data.at.get(player.name)
        # a piece of two cells may be named by either of them: the designer's cell is empty now
        if tile is not None and (tile == at or player.alhambra.get(tile) is None):
            data.at[player.name] = None
            data.open.pop(player.name, None)
        return []

    # ------------------------------------------------------------------ the verb

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``planner SIDE [POINTS]`` (the feet on the new tile) or ``planner @x,y SIDE`` (a
        jump after the designer's tile was removed), without changing anything."""
        state = ctx.state
        pos, who = action.pos, player.name
        at, words, ints = self._args(action)
        side = read_side(words[0]) if len(words) == 1 else None
        shown = side_term(side) if side is not None else (str(words[0]) if words else "-")
        if len(words) != 1 or len(ints) > 1 or (at is not None and ints):
            return [problem("PALASTPLANER-TURN", pos, who, reason="form", side=shown)]
        if side is None:
            return [problem("PALASTPLANER-TURN", pos, who, reason="side", side=shown)]
        data = self.data(state)
        if at is not None:
            return self._jump_findings(state, player, at, pos)
        if who not in data.open:
            return [problem("PALASTPLANER-TURN", pos, who, reason="not-moved", side=shown)]
        if ints:
            return self._points_findings(data.last[who], ints[0], pos, who)
        return []

    def _jump_findings(
        self, state: GameState, player: PlayerState, at: Coord, pos: Pos
    ) -> list[Finding]:
        who = player.name
        data = self.data(state)

        def bad(reason: str, **kw: Any) -> list[Finding]:
            return [problem("PALASTPLANER-JUMP", pos, who, reason=reason, cell=str(at), **kw)]

        if who not in data.at:
            return bad("no-planner")
        tile = data.at[who]
        if tile is not None:
            return bad("on-tile", tile=str(tile))
        if self._unsure(player):
            return []
        if player.alhambra.get(at) is None:
            return bad("no-tile")
        return []

    @staticmethod
    def _points_findings(last: Laying, stated: int, pos: Pos, who: str) -> list[Finding]:
        if stated == last.points:
            return []
        where = "feet" if last.side is last.feet else "other"
        return [
            problem(
                "PALASTPLANER-POINTS",
                pos,
                who,
                stated=stated,
                cell=str(last.cell),
                tile=str(last.tile),
                where=Text(f"PALASTPLANER-POINTS.where/{where}"),
                side=side_term(last.side),
                feet=side_term(last.feet),
                points=last.points,
            )
        ]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Carry the verb out (checked by :meth:`check_verb`)."""
        at, words, _ints = self._args(action)
        side = read_side(words[0]) if len(words) == 1 else None
        if side is None:
            return []
        data = self.data(state)
        who = player.name
        if at is not None:
            if who in data.at and data.at[who] is None and player.alhambra.get(at) is not None:
                data.at[who] = at
                data.feet[who] = side
            return []
        if who in data.open:
            data.feet[who] = side
            del data.open[who]
        return []

    # ------------------------------------------------------------------ the turn

    @acts_at(Moment.TURN_START)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """A new turn: the feet of an earlier laying can no longer be chosen; a player without
        a designer is told so once."""
        super().at_moment(ctx, moment)
        state = ctx.state
        t = state.turn
        if moment != Moment.TURN_START or t is None:
            return
        data = self.data(state)
        data.open.clear()
        who = state.players[t.player].name
        if who not in data.at and who not in data.flagged and state.checking:
            data.flagged.add(who)
            ctx.flag("PALASTPLANER-SETUP", t.pos, who, reason="missing")

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``planner @x,y SIDE POINTS`` (or ``planner off SIDE POINTS``) in a player's
        section."""
        if player is None:
            return []
        data = self.data(state)
        who = player.name
        if who not in data.at:
            return []
        at = data.at[who]
        where = GenericArg(at) if at is not None else GenericArg(OFF)
        feet = GenericArg(side_letter(data.feet[who]))
        args = [where, feet, GenericArg(data.points.get(who, 0))]
        last = data.last.get(who)
        if state.turn is not None and who in data.open and last is not None:
            args += [GenericArg("moved"), GenericArg(last.tile)]
            args += [GenericArg(side_letter(last.side)), GenericArg(side_letter(last.feet))]
            args.append(GenericArg(last.points))
        return [ModuleAction(VERB, tuple(args))]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if player is None or line.verb.lower() not in (VERB, "planer", "palastplaner"):
            return False
        vals = [a.value for a in line.args]
        text = f"{line.verb} " + " ".join(str(v) for v in vals)
        who = player.name
        moved = next(
            (i for i, v in enumerate(vals) if isinstance(v, str) and v.lower() in MOVED), None
        )
        laying = vals[moved + 1 :] if moved is not None else None
        vals = vals[:moved] if moved is not None else vals
        at = vals[0] if vals and isinstance(vals[0], Coord) else None
        off = bool(vals) and isinstance(vals[0], str) and vals[0].lower() == OFF
        side = read_side(vals[1]) if len(vals) >= 2 else None
        points = vals[2] if len(vals) == 3 else 0
        if (at is None and not off) or side is None or len(vals) > 3 or not isinstance(points, int):
            state.flag("PALASTPLANER-POSITION", line.pos, who, reason="form", line=text)
            return True
        if at is not None and player.alhambra.get(at) is None and not self._unsure(player):
            state.flag(
                "PALASTPLANER-POSITION", line.pos, who, reason="no-tile", line=text, cell=str(at)
            )
            return True
        data = self.data(state)
        data.at[who] = at
        data.feet[who] = side
        data.points[who] = points
        if laying is not None:
            self._position_moved(state, player, at, laying, line.pos, text)
        return True

    def _position_moved(
        self,
        state: GameState,
        player: PlayerState,
        at: Coord | None,
        laying: list[Any],
        pos: Pos,
        text: str,
    ) -> None:
        """``moved @x,y SIDE FEET POINTS`` after a designer's place (a moment inside a turn):
        the designer has just moved onto the tile laid at side SIDE of its tile @x,y, its feet
        toward FEET then, for POINTS; "Der Spieler bestimmt dabei" the new feet
        (L3413-3415), which the turn's next ``planner SIDE`` line states."""
        old = laying[0] if laying else None
        side = read_side(laying[1]) if len(laying) == 4 else None
        feet = read_side(laying[2]) if len(laying) == 4 else None
        points = laying[3] if len(laying) == 4 else None
        if (
            state.turn is None
            or at is None
            or not isinstance(old, Coord)
            or side is None
            or feet is None
            or not isinstance(points, int)
        ):
            state.flag("PALASTPLANER-POSITION", pos, player.name, reason="form", line=text)
            return
        data = self.data(state)
        data.last[player.name] = Laying(at, old, side, feet, points)
        data.open[player.name] = at

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Drawn on its tile (E17): ``pl:s`` -- the designer, its feet toward the south."""
        at, feet = self.planner_of(state, player.name)
        if at is None or feet is None or player.alhambra.get(at) is None:
            return {}
        return {at: f"pl:{side_letter(feet)}"}

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's designer: its tile, its feet, the points it brought so far."""
        data = self.data(state)
        table = {"options": f"leftovers={self.option('leftovers')}"}
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            if p.name not in data.at:
                players[p.name] = {"designer": "not set up"}
                continue
            at = data.at[p.name]
            feet = data.feet[p.name]
            row = {
                "designer": f"@{at}" if at is not None else "off the Alhambra",
                "feet toward": SIDE_NAMES[feet],
                "designer points so far": str(data.points.get(p.name, 0)),
            }
            if at is None:
                row["designer"] = "off the Alhambra (may jump onto any tile)"
            players[p.name] = row
        return self.shown(table, players)

    # ------------------------------------------------------------------ moves

    def _moves(self, ctx: Any, player: PlayerState) -> list[Any]:
        state = ctx.state
        t = state.turn
        if t is None or state.players[t.player] is not player:
            return []
        data = self.data(state)
        who = player.name
        if who in data.open:
            pts = data.last[who].points
            return [
                ModuleAction(VERB, (GenericArg(side_letter(s)), GenericArg(pts))) for s in SIDES
            ]
        return []

    def _jumps(self, ctx: Any, player: PlayerState) -> list[Any]:
        state = ctx.state
        t = state.turn
        data = self.data(state)
        who = player.name
        if t is None or state.players[t.player] is not player or self._unsure(player):
            return []
        if who not in data.at or data.at[who] is not None:
            return []
        cells = sorted(player.alhambra.cells, key=lambda c: (-c.y, c.x))
        return [
            ModuleAction(VERB, (GenericArg(c), GenericArg(side_letter(s))))
            for c in cells
            if player.alhambra.get(c) is not None
            for s in SIDES
        ]

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The feet on the tile the designer just moved onto (with the points the laying
        brought), or a jump onto any tile after its tile was removed."""
        return self._moves(ctx, player) + self._jumps(ctx, player)

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """What the simulator writes right after a tile laid at the designer: where the feet
        point now (a record may leave it out: the feet then point as before)."""
        return self._moves(ctx, player)

    def sim_deal(self, sim: Any) -> list[Any]:
        """Each player's designer on the start tile, "Vor der ersten Belegung des Bauhofs"."""
        return [
            ModuleChance(VERB, (GenericArg(p.name), GenericArg(side_letter(sim.rng.choice(SIDES)))))
            for p in sim.state.players
        ]
