"""A test-only module (never bundled): a gate on an edge (E22, after "Die Tore der Stadt").

``gate @x,y e`` puts a gate on the edge between two tiles of the player's Alhambra. The rules it
exercises (rulebook-bigbox-de-2019.txt, "Die Tore der Stadt"):

- a tile may be placed that is joined to the Alhambra only through double walls; a gate then
  goes onto such a double wall "und damit die Fußgänger-Regel wieder erfüllt": the
  ``place.problems`` refinement drops ``PLACE-WALK`` while the player still holds a gate, and
  the gate re-validates the whole Alhambra (``LAYOUT-BROKEN`` when the walker still cannot
  reach a tile);
- the gate stands on a double wall between two tiles (``GEOGATE-EDGE``);
- "Weder ein platziertes Stadttor noch die beiden darunter liegenden Gebäudeplättchen dürfen
  umgebaut werden": the gate piece
  ``locks`` its two tiles, the geometry reports ``REMOVE-LOCKED``;
- later placements walk through the gate (the piece ``opens`` the edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.catalogue import Side
from referee.engine.actions.layer_rules import layout_now, revalidate
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.engine.ruleset import Decision, refines
from referee.engine.turns import Moment
from referee.geometry import layout_problems, reachable
from referee.geometry.layers import edge_text, read_edge, wall_between
from referee.geometry.pieces import Footprint
from referee.record.model import Coord, GenericArg, ModuleAction

register_rule(
    Rule(
        "GEOGATE-EDGE",
        "a gate stands on a double wall",
        "ein Tor steht auf einer Doppelmauer",
        "tests/plugins/geo_gate",
        "{player}: the gate {edge} does not stand on a double wall between two tiles",
        "{player}: das Tor {edge} steht nicht auf einer Doppelmauer zwischen zwei Plättchen",
    )
)

register_rule(
    Rule(
        "GEOGATE-MISSING",
        "the gate that lets the walker pass",
        "das Tor, das den Fußgänger durchlässt",
        "tests/plugins/geo_gate",
        "{player}: the turn ends and {cells} cannot be reached on foot: no gate was placed",
        "{player}: der Zug endet und {cells} ist nicht zu Fuß erreichbar: kein Tor gesetzt",
    )
)


@dataclass(frozen=True, slots=True)
class Gate:
    """A wooden gate: on an edge, opens it for the walker, locks both tiles."""

    footprint: Footprint = Footprint.EDGE
    opens: bool = True
    locks: bool = True
    walls: frozenset[Any] = frozenset()
    type: None = None
    code: str = "gate"

    def __str__(self) -> str:
        return "gate"


def _data(state: Any) -> dict[str, dict[str, Any]]:
    """The module's part of the state: gates each player still holds (one each to start),
    the tiles each player could not reach at the start of the turn."""
    return state.modules.setdefault("geo_gate", {"held": {}, "cut": {}})  # type: ignore[no-any-return]


@register_module
class GeoGate(Module):
    name = "geo_gate"
    verbs = ("gate",)
    verb_kinds: ClassVar[dict[str, str]] = {"gate": "free"}  # "kein eigener Spielzug"

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        args = [a.value for a in action.args]
        edge = None
        if len(args) == 2 and isinstance(args[0], Coord) and isinstance(args[1], str):
            edge = read_edge(args[0], args[1])
        if edge is None:
            state.flag("GEOGATE-EDGE", action.pos, player.name, edge=" ".join(map(str, args)))
            return []
        alh = player.alhambra
        facts = wall_between(alh.cells, alh.layers, edge[0], edge[1])
        if not facts.double or alh.edge(*edge) is not None:
            state.flag("GEOGATE-EDGE", action.pos, player.name, edge=edge_text(edge))
            return []
        before = layout_now(player)
        alh.place_edge(edge[0], edge[1], Gate())
        held = _data(state)["held"]
        held[player.name] = held.get(player.name, 1) - 1
        ctx = Context(state)
        ctx.report(revalidate(player, action.pos, f"gate {edge_text(edge)}", before))
        return []

    def legal_actions(self, ctx: Any, player: Any) -> list[Any]:
        """A gate on a double wall between two own tiles, while the player holds one."""
        if _data(ctx.state)["held"].get(player.name, 1) <= 0:
            return []
        alh = player.alhambra
        before = set(layout_now(player))
        out = []
        for at in sorted(alh.cells, key=lambda c: (-c.y, c.x)):
            for side in (Side.N, Side.E):
                facts = wall_between(alh.cells, alh.layers, at, side)
                if facts.double and alh.edge(at, side) is None:
                    trial = alh.copy()
                    trial.place_edge(at, side, Gate())
                    if set(layout_problems(trial)) <= before:  # it breaks nothing
                        word = side.value.lower()
                        out.append(ModuleAction("gate", (GenericArg(at), GenericArg(word))))
        return out

    def owed_actions(self, ctx: Any, player: Any) -> list[Any]:
        """The gate a placement waits for: while the mover has tiles that could be reached at
        the turn's start and cannot now (a tile placed behind a double wall), the gates that
        open the way to all of them again ("und damit ist die Fußgänger-Regel wieder
        erfüllt"); the turn cannot end before one is placed."""
        state = ctx.state
        if state.turn is None or state.players[state.turn.player] is not player:
            return []
        if player.counts is not None or player.alhambra_unknown:
            return []
        alh = player.alhambra
        earlier = set(_data(state)["cut"].get(player.name, []))
        if not set(alh.cells) - set(reachable(alh)) - earlier:
            return []
        out = []
        for gate in self.legal_actions(ctx, player):
            at, word = (a.value for a in gate.args)
            edge = read_edge(at, word)
            assert edge is not None
            trial = alh.copy()
            trial.place_edge(edge[0], edge[1], Gate())
            if not set(trial.cells) - set(reachable(trial)) - earlier:
                out.append(gate)
        return out

    def position_line(self, state: Any, player: Any, line: Any) -> bool:
        """``gate @x,y e`` in a player section: a gate stands there (N11)."""
        if player is None or line.verb.lower() != "gate":
            return False
        args = [a.value for a in line.args]
        edge = None
        if len(args) == 2 and isinstance(args[0], Coord) and isinstance(args[1], str):
            edge = read_edge(args[0], args[1])
        if edge is None or player.alhambra.edge(*edge) is not None:
            state.flag("GEOGATE-EDGE", line.pos, player.name, edge=" ".join(map(str, args)))
            return True
        player.alhambra.place_edge(edge[0], edge[1], Gate())
        held = _data(state)["held"]
        held[player.name] = held.get(player.name, 1) - 1
        return True

    def position_lines(self, state: Any, player: Any) -> list[Any]:
        layers = None if player is None else player.alhambra.layers
        if layers is None:
            return []
        return [
            ModuleAction("gate", (GenericArg(at), GenericArg(side.value.lower())))
            for (at, side), piece in sorted(
                layers.edges.items(), key=lambda e: (-e[0][0].y, e[0][0].x, e[0][1].value)
            )
            if isinstance(piece, Gate)
        ]

    @refines(Decision.PLACE_PROBLEMS)
    def walk_waits_for_the_gate(
        self, ctx: Any, problems: list[Any], *, player: Any, at: Any, piece: Any, **_: Any
    ) -> list[Any]:
        """``PLACE-WALK`` waits for the gate while the player holds one and a gate on a double
        wall of the new tile would open the way ("und damit ist die Fußgänger-Regel wieder
        erfüllt"); the gate that follows re-validates, the turn's end checks it came."""
        held = _data(ctx.state)["held"].get(player.name, 1)
        if held <= 0 or not any(p.code == "PLACE-WALK" for p in problems):
            return problems
        if piece is None or not isinstance(at, Coord):
            return problems
        trial = player.alhambra.copy()
        if not trial.place_if_empty(at, piece):
            return problems
        for side in (Side.N, Side.E, Side.S, Side.W):
            if (
                trial.edge(at, side) is None
                and wall_between(trial.cells, trial.layers, at, side).double
            ):
                with_gate = trial.copy()
                with_gate.place_edge(at, side, Gate())
                if at in reachable(with_gate):
                    return [p for p in problems if p.code != "PLACE-WALK"]
        return problems

    def at_moment(self, ctx: Any, moment: Any) -> None:
        """At the turn's end every tile of the mover must be reachable again (a tile placed
        while the walk rule waited for a gate, and no gate came: ``GEOGATE-MISSING``)."""
        state = ctx.state
        if state.turn is None or moment not in (Moment.TURN_START, Moment.TURN_END):
            return
        player = state.players[state.turn.player]
        if player.counts is not None or player.alhambra_unknown:
            return
        cut = set(player.alhambra.cells) - set(reachable(player.alhambra))
        marks = _data(state)["cut"]
        if moment == Moment.TURN_START:
            marks[player.name] = sorted(cut, key=lambda c: (c.x, c.y))
            return
        new = sorted(cut - set(marks.get(player.name, [])), key=lambda c: (-c.y, c.x))
        if new:
            where = ", ".join(str(c) for c in new)
            ctx.flag("GEOGATE-MISSING", ctx.pos or state.turn.pos, player.name, cells=where)
