"""A test-only module (never bundled): a gate on an edge (E22, after "Die Tore der Stadt").

``gate @x,y e`` puts a gate on the edge between two tiles of the player's Alhambra. The rules it
exercises (rulebook-bigbox-de-2019.txt, "Die Tore der Stadt"):

- a tile may be placed that is joined to the Alhambra only through double walls; a gate then
  goes onto such a double wall "und damit ist die Fußgänger-Regel wieder erfüllt": the
  ``place.problems`` refinement drops ``PLACE-WALK`` while the player still holds a gate, and
  the gate re-validates the whole Alhambra (``LAYOUT-BROKEN`` when the walker still cannot
  reach a tile);
- the gate stands on a double wall between two tiles (``GEOGATE-EDGE``);
- "Weder das Tor noch die beiden Plättchen darunter dürfen umgebaut werden": the gate piece
  ``locks`` its two tiles, the geometry reports ``REMOVE-LOCKED``;
- later placements walk through the gate (the piece ``opens`` the edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.actions.layer_rules import revalidate
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.engine.ruleset import Decision, refines
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


@register_module
class GeoGate(Module):
    name = "geo_gate"
    verbs = ("gate",)

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
        alh.place_edge(edge[0], edge[1], Gate())
        held = state.modules.setdefault(self.name, {})
        held[player.name] = held.get(player.name, 1) - 1
        Context(state).report(revalidate(player, action.pos, f"gate {edge_text(edge)}"))
        return []

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
        held = state.modules.setdefault(self.name, {})
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
        self, ctx: Any, problems: list[Any], *, player: Any, **_: Any
    ) -> list[Any]:
        held = ctx.state.modules.get(self.name, {}).get(player.name, 1)
        if held > 0:  # the gate that follows decides (re-validation)
            return [p for p in problems if p.code != "PLACE-WALK"]
        return problems
