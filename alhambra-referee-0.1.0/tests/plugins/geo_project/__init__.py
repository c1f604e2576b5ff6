"""A test-only module (never bundled): a piece over two cells (E24, after "Die Großprojekte").

``project gp:PSe @x,y`` builds a major project in the player's Alhambra: the first letter the
building on ``x,y`` (the anchor), the second the building on the cell beside it, the last
letter where that cell lies (``n e s w``). rulebook-bigbox-de-2019.txt, "Die Großprojekte": it
brings "gleich zwei neue Gebäude", "wird ... nach den üblichen Bauregeln in die eigene
Alhambra eingebaut" and "Bei einem Umbau werden die Großprojekte als ein Plättchen
betrachtet": the geometry judges both cells at once (no intermediate state), counts two
buildings, and removes, reserves and swaps it as one. Its parts show no walls (the printed walls
of the real tiles are picture-only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.catalogue import BuildingType, Side
from referee.engine.actions.building import building_findings
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.legal import cells_for
from referee.engine.rules import Rule, register_rule
from referee.geometry.layers import read_second
from referee.geometry.pieces import Footprint
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction

register_rule(
    Rule(
        "GEOPROJECT-TOKEN",
        "a major project token",
        "ein Großprojekt-Kürzel",
        "tests/plugins/geo_project",
        "{player}: {token} is no major project (two building letters and a side)",
        "{player}: {token} ist kein Großprojekt (zwei Gebäudebuchstaben und eine Seite)",
    )
)


def _type(letter: str) -> BuildingType | None:
    for t in BuildingType:
        if t.code == letter:  # type: ignore[attr-defined]
            return t
    return None


@dataclass(frozen=True, slots=True)
class Project:
    """A major project: two buildings side by side, one piece."""

    types: tuple[BuildingType, BuildingType]
    second: Side
    footprint: Footprint = Footprint.TWO_CELLS
    part_walls: tuple[frozenset[Side], frozenset[Side]] = (frozenset(), frozenset())
    walls: frozenset[Side] = frozenset()
    type: None = None

    @property
    def code(self) -> str:
        a, b = (t.code for t in self.types)  # type: ignore[attr-defined]
        return f"gp:{a}{b}{self.second.value.lower()}"

    def __str__(self) -> str:
        return self.code

    def matches(self, ref: object) -> bool:
        return isinstance(ref, ComponentRef) and f"gp:{ref.name}".lower() == self.code.lower()


def component_kind() -> str:
    return "gp"


def parse(name: str) -> Project | None:
    """``PSe``: the two building letters, then the side of the second cell (N3)."""
    read = read_second(name)
    if read is None or len(read[0]) != 2:
        return None
    a, b = _type(read[0][0]), _type(read[0][1])
    if a is None or b is None:
        return None
    return Project((a, b), read[1])


_SIM = (
    (BuildingType.PAVILION, BuildingType.SERAGLIO, Side.E),
    (BuildingType.GARDEN, BuildingType.TOWER, Side.N),
)


class _Doing:
    """What the action was, as a message parameter (TURN-OVER, PLACE-ORDER)."""

    def text(self, lang: str = "en") -> str:
        return "ein Großprojekt bauen" if lang == "de" else "building a project"


DOING = _Doing()


@register_module
class GeoProject(Module):
    name = "geo_project"
    verbs = ("project",)
    component_kinds = ("gp",)

    def position_component(
        self, state: Any, player: Any, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """``gp:PSe@x,y`` in an ``alhambra`` or ``reserve`` line."""
        if ref.kind != component_kind():
            return False, None
        return True, parse(ref.name)

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        args = [a.value for a in action.args]
        piece = None
        if len(args) == 2 and isinstance(args[0], ComponentRef) and isinstance(args[1], Coord):
            piece = parse(args[0].name)
        if piece is None:
            token = " ".join(map(str, args))
            state.flag("GEOPROJECT-TOKEN", action.pos, player.name, token=token)
            return []
        at = args[1]
        ctx = Context(state)
        ctx.report(building_findings(ctx, player, piece, at, action.pos))  # type: ignore[arg-type]
        player.alhambra.place_if_empty(at, piece)
        ctx.main_action(action.pos, player, DOING)
        ctx.end_main_action(DOING)
        return []

    def legal_actions(self, ctx: Any, player: Any) -> list[Any]:
        """A few pieces of this kind on the cells the building rules allow (the simulator's
        moves; the real module would take them from a supply)."""
        if player.counts is not None or player.alhambra_unknown:
            return []
        out = []
        for piece in [Project((a, b), s) for a, b, s in _SIM]:
            if len(player.alhambra) > 12:
                break
            for at in cells_for(ctx, player, piece)[:3]:
                ref = ComponentRef(piece.code[:2], piece.code[3:])
                out.append(ModuleAction("project", (GenericArg(ref), GenericArg(at))))
        return out
