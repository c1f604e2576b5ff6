"""A test-only module (never bundled): walls added to a tile (E21, after "Die Mauern").

``wall @x,y NE`` builds wooden walls on the sides named (letters N, E, S, W) of the tile on
``x,y`` of the player's own Alhambra, the fountain included ("Mauern dürfen auf jedem
geeigneten Gebäudeplättchen der eigenen Alhambra errichtet werden, auch auf dem
Startplättchen"). Rules (rulebook-bigbox-de-2019.txt, "Die Mauern"):

- "Die vorhandenen aufgedruckten Mauern dürfen hierbei nicht überbaut werden"
  (``GEOWALL-COVERED``), and a wall needs a tile (``GEOWALL-NO-TILE``);
- the new walls "gehören, wie aufgedruckte Mauern, zum Gebäudeplättchen" (they move with it to
  the reserve and back);
- "Auch nach dem Bauen einer Mauer muss die Alhambra gemäß den Bauregeln aufgebaut sein": the
  whole Alhambra is re-validated (``LAYOUT-BROKEN`` naming the rule: a new wall facing an
  open side breaks ``PLACE-WALL``, one cutting the way breaks ``PLACE-WALK``);
- the added walls count like printed ones for the longest outer wall.
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import Side
from referee.engine.actions.layer_rules import layout_now, revalidate
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.record.model import Coord, GenericArg, ModuleAction

register_rule(
    Rule(
        "GEOWALL-COVERED",
        "a wooden wall never covers a printed wall",
        "eine Holzmauer überbaut nie eine aufgedruckte Mauer",
        "tests/plugins/geo_walls",
        "{player}: the tile at {at} already shows a wall on {sides}",
        "{player}: das Plättchen auf {at} zeigt schon eine Mauer auf {sides}",
    )
)
register_rule(
    Rule(
        "GEOWALL-NO-TILE",
        "a wooden wall needs a tile",
        "eine Holzmauer braucht ein Plättchen",
        "tests/plugins/geo_walls",
        "{player}: there is no tile at {at}",
        "{player}: auf {at} liegt kein Plättchen",
    )
)

_LETTERS = {"N": Side.N, "E": Side.E, "O": Side.E, "S": Side.S, "W": Side.W}


class _Doing:
    """What the action was, as a message parameter (TURN-OVER, PLACE-ORDER)."""

    def text(self, lang: str = "en") -> str:
        return "eine Mauer errichten" if lang == "de" else "building a wall"


DOING = _Doing()


@register_module
class GeoWalls(Module):
    name = "geo_walls"
    verbs = ("wall",)

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        args = [a.value for a in action.args]
        at = args[0] if args and isinstance(args[0], Coord) else None
        word = str(args[1]).upper() if len(args) > 1 else ""
        sides = frozenset(_LETTERS[ch] for ch in word if ch in _LETTERS)
        alh = player.alhambra
        if at is None or at not in alh or not sides:
            state.flag("GEOWALL-NO-TILE", action.pos, player.name, at=str(at))
            return []
        covered = sides & (alh[at].walls | alh.overlay(at))
        if covered:
            names = " ".join(s.value for s in sorted(covered, key=lambda s: s.value))
            state.flag("GEOWALL-COVERED", action.pos, player.name, at=str(at), sides=names)
            return []
        before = layout_now(player)
        alh.add_overlay(at, sides)
        ctx = Context(state)
        ctx.report(revalidate(player, action.pos, f"wall @{at} {word}", before))
        ctx.main_action(action.pos, player, DOING)
        ctx.end_main_action(DOING)
        return []

    def legal_actions(self, ctx: Any, player: Any) -> list[Any]:
        """A wall on a side of an own tile that faces no tile and shows no wall yet (the
        Alhambra stays within the building rules)."""
        alh = player.alhambra
        if player.counts is not None or player.alhambra_unknown:
            return []
        out = []
        for at in sorted(alh.cells, key=lambda c: (-c.y, c.x)):
            shown = alh[at].walls | alh.overlay(at)
            for side in (Side.N, Side.E, Side.S, Side.W):
                if side not in shown and at.neighbour(side) not in alh:
                    out.append(ModuleAction("wall", (GenericArg(at), GenericArg(side.value))))
        return out

    def position_line(self, state: Any, player: Any, line: Any) -> bool:
        """``wall @x,y NE`` in a player section: the tile there carries these added walls."""
        if player is None or line.verb.lower() != "wall":
            return False
        args = [a.value for a in line.args]
        if len(args) == 2 and isinstance(args[0], Coord) and args[0] in player.alhambra:
            sides = frozenset(_LETTERS[ch] for ch in str(args[1]).upper() if ch in _LETTERS)
            player.alhambra.add_overlay(args[0], sides)
        else:
            state.flag("GEOWALL-NO-TILE", line.pos, player.name, at=str(args[:1]))
        return True

    def position_lines(self, state: Any, player: Any) -> list[Any]:
        layers = None if player is None else player.alhambra.layers
        if layers is None:
            return []
        order = "NESW"
        return [
            ModuleAction(
                "wall",
                (
                    GenericArg(at),
                    GenericArg("".join(sorted((s.value for s in sides), key=order.index))),
                ),
            )
            for at, sides in sorted(layers.overlays.items(), key=lambda e: (-e[0].y, e[0].x))
            if sides
        ]
