"""A test-only module (never bundled): a marker on a corner (E23, after "Die Falkner").

``falcon @x,y ne`` puts a falcon on the crossing of four tiles of the player's Alhambra
(rulebook-bigbox-de-2019.txt, "Die Falkner": "auf einem Kreuzungspunkt abgelegt, an dem 4
Gebäudeplättchen zusammentreffen"; ``GEOFALCON-CORNER`` otherwise, also for a crossing that holds a
falcon already: "An einer Kreuzung kann nur 1 Falke platziert werden"). "Beim Umbau eines
der 4 Plättchen, auf denen ein Falke platziert ist, wird der Falke wieder in den allgemeinen
Vorrat zurückgelegt": the piece ``leaves_on_redesign``; the grid takes it off when a cell
under it is freed, and the module's ``removed`` hook puts it back into the supply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.geometry.layers import corner_cells, corner_key, corner_text
from referee.geometry.pieces import Footprint
from referee.record.model import Coord, GenericArg, ModuleAction

register_rule(
    Rule(
        "GEOFALCON-CORNER",
        "a falcon stands where four tiles meet",
        "ein Falke steht, wo 4 Plättchen aneinanderstoßen",
        "tests/plugins/geo_falcon",
        "{player}: no falcon may stand on {corner}",
        "{player}: auf {corner} darf kein Falke stehen",
    )
)

SUPPLY = 5


@dataclass(frozen=True, slots=True)
class Falcon:
    footprint: Footprint = Footprint.CORNER
    leaves_on_redesign: bool = True
    walls: frozenset[Any] = frozenset()
    type: None = None
    code: str = "falcon"


class _Doing:
    """What the action was, as a message parameter (TURN-OVER, PLACE-ORDER)."""

    def text(self, lang: str = "en") -> str:
        return "einen Falken setzen" if lang == "de" else "placing a falcon"


DOING = _Doing()


@register_module
class GeoFalcon(Module):
    name = "geo_falcon"
    verbs = ("falcon",)

    def _supply(self, state: Any) -> dict[str, int]:
        return state.modules.setdefault(self.name, {"supply": SUPPLY})  # type: ignore[no-any-return]

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        args = [a.value for a in action.args]
        key = None
        if len(args) == 2 and isinstance(args[0], Coord) and isinstance(args[1], str):
            key = corner_key(args[0], args[1])
        alh = player.alhambra
        if (
            key is None
            or alh.corner(key) is not None
            or not all(c in alh for c in corner_cells(key))
        ):
            shown = corner_text(key) if key is not None else " ".join(map(str, args))
            state.flag("GEOFALCON-CORNER", action.pos, player.name, corner=shown)
            return []
        alh.place_corner(key, Falcon())
        self._supply(state)["supply"] -= 1
        ctx = Context(state)
        ctx.main_action(action.pos, player, DOING)
        ctx.end_main_action(DOING)
        return []

    def legal_actions(self, ctx: Any, player: Any) -> list[Any]:
        """A falcon on every free crossing of four own tiles, while the supply lasts."""
        alh = player.alhambra
        if self._supply(ctx.state)["supply"] <= 0 or player.alhambra_unknown:
            return []
        return [
            ModuleAction("falcon", (GenericArg(key), GenericArg("ne")))
            for key in sorted(alh.cells, key=lambda c: (-c.y, c.x))
            if alh.corner(key) is None and all(c in alh for c in corner_cells(key))
        ]

    def position_line(self, state: Any, player: Any, line: Any) -> bool:
        """``falcon @x,y ne`` in a player section: a falcon stands on that crossing."""
        if player is None or line.verb.lower() != "falcon":
            return False
        args = [a.value for a in line.args]
        key = None
        if len(args) == 2 and isinstance(args[0], Coord) and isinstance(args[1], str):
            key = corner_key(args[0], args[1])
        if key is None or player.alhambra.corner(key) is not None:
            state.flag("GEOFALCON-CORNER", line.pos, player.name, corner=" ".join(map(str, args)))
            return True
        player.alhambra.place_corner(key, Falcon())
        self._supply(state)["supply"] -= 1
        return True

    def position_lines(self, state: Any, player: Any) -> list[Any]:
        layers = None if player is None else player.alhambra.layers
        if layers is None:
            return []
        return [
            ModuleAction("falcon", (GenericArg(key), GenericArg("ne")))
            for key in sorted(layers.corners, key=lambda c: (-c.y, c.x))
        ]

    def removed(self, state: Any, player: Any, at: Coord, piece: Any) -> list[Any]:
        for what, _key, _piece in player.alhambra.take_returned():
            if what == "corner":
                self._supply(state)["supply"] += 1
        return []
