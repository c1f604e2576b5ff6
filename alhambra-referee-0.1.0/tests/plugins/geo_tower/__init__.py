"""A test-only module (never bundled): a half-cell piece with a diagonal wall (E24, after
"Die Wachtürme").

``tower wt:Tsw @x,y`` builds a watchtower of colour ``T`` filling the south-west half of cell
``x,y`` (``sw ne se nw``). rulebook-bigbox-de-2019.txt, "Die Wachtürme" (the shape is read from
the text: "die beiden kurzen Seiten", "die lange Seite", "eine Außenkante mit einer
Außenmauer"; the digest marks it unverified):

- the two short sides (legs) are open sides and meet other tiles by the base rule ("Offene
  Seiten dürfen nicht an Mauern anliegen"); "An die lange Seite des Wachturmplättchens darf
  nichts angebaut werden": the two cell sides of the empty half are ``closed``
  (``PLACE-CLOSED``);
- one short side must touch a building of the tower's colour (``GEOTOWER-COLOUR``);
- the long side is a diagonal outer wall: one segment, joining the outer wall at its two
  corners (the longest wall runs through it);
- "Wachtürme dürfen weder in die Reserve gelegt noch umgebaut werden": the profile is
  ``locked`` (``REMOVE-LOCKED``); "Zur Erfüllung der Fußgängerregel darf der Weg über ein
  Wachturmplättchen führen"; it is no building for the majorities (no type).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.catalogue import BuildingType, Side
from referee.engine.actions.building import building_findings
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.legal import cells_for
from referee.engine.rules import Rule, register_rule
from referee.geometry.layers import read_half
from referee.geometry.pieces import HALVES, Footprint, Profile
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction
from referee.reports.svg import FILL as _FILL

register_rule(
    Rule(
        "GEOTOWER-COLOUR",
        "a watchtower touches a building of its colour",
        "ein Wachturm grenzt an ein Gebäude seiner Farbe",
        "tests/plugins/geo_tower",
        "{player}: the watchtower {token} at {at} touches no building of its colour with a "
        "short side",
        "{player}: der Wachturm {token} auf {at} grenzt mit keiner kurzen Seite an ein Gebäude "
        "seiner Farbe",
    )
)


def _type(letter: str) -> BuildingType | None:
    for t in BuildingType:
        if t.code == letter:  # type: ignore[attr-defined]
            return t
    return None


@dataclass(frozen=True, slots=True)
class Watchtower:
    colour: BuildingType
    half_at: str
    footprint: Footprint = Footprint.HALF
    profile: Profile = field(default_factory=lambda: Profile(locked=True))
    walls: frozenset[Side] = frozenset()
    type: None = None

    @property
    def code(self) -> str:
        return f"wt:{self.colour.code}{self.half_at}"  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self.code

    @property
    def cell_fill(self) -> str:
        return _FILL[self.colour]

    @property
    def cell_label(self) -> str:
        return f"{self.colour.code}wt"  # type: ignore[attr-defined]

    @property
    def legs(self) -> frozenset[Side]:
        return frozenset(Side) - HALVES[self.half_at][1]


def component_kind() -> str:
    return "wt"


def _parse(name: str) -> Watchtower | None:
    """``Tsw``: the colour letter, then the half the triangle fills (N3)."""
    read = read_half(name)
    colour = None if read is None else _type(read[0])
    if read is None or colour is None:
        return None
    return Watchtower(colour, read[1])


def _touches(alh: Any, at: Coord, piece: Watchtower) -> bool:
    """One short side touches a building of the tower's colour."""
    return any(getattr(alh.get(at.neighbour(s)), "type", None) is piece.colour for s in piece.legs)


_SIM = ((BuildingType.TOWER, "sw"), (BuildingType.GARDEN, "ne"))


class _Doing:
    """What the action was, as a message parameter (TURN-OVER, PLACE-ORDER)."""

    def text(self, lang: str = "en") -> str:
        return "einen Wachturm bauen" if lang == "de" else "building a watchtower"


DOING = _Doing()


@register_module
class GeoTower(Module):
    name = "geo_tower"
    verbs = ("tower",)
    component_kinds = ("wt",)

    def position_component(
        self, state: Any, player: Any, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """``wt:Tsw@x,y`` in an ``alhambra`` or ``reserve`` line."""
        if ref.kind != component_kind():
            return False, None
        return True, _parse(ref.name)

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        args = [a.value for a in action.args]
        piece = None
        if len(args) == 2 and isinstance(args[0], ComponentRef) and isinstance(args[1], Coord):
            piece = _parse(args[0].name)
        if piece is None:
            return []
        at: Coord = args[1]
        ctx = Context(state)
        ctx.report(building_findings(ctx, player, piece, at, action.pos))  # type: ignore[arg-type]
        alh = player.alhambra
        if not _touches(alh, at, piece):
            state.flag("GEOTOWER-COLOUR", action.pos, player.name, token=piece.code, at=str(at))
        alh.place_if_empty(at, piece)
        ctx.main_action(action.pos, player, DOING)
        ctx.end_main_action(DOING)
        return []

    def legal_actions(self, ctx: Any, player: Any) -> list[Any]:
        """A few pieces of this kind on the cells the building rules allow (the simulator's
        moves; the real module would take them from a supply)."""
        if player.counts is not None or player.alhambra_unknown or len(player.alhambra) > 12:
            return []
        out = []
        for piece in [Watchtower(c, h) for c, h in _SIM]:
            cells = [
                c for c in cells_for(ctx, player, piece) if _touches(player.alhambra, c, piece)
            ]
            for at in cells[:3]:
                ref = ComponentRef(piece.code[:2], piece.code[3:])
                out.append(ModuleAction("tower", (GenericArg(ref), GenericArg(at))))
        return out
