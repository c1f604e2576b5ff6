"""The pictures draw every geometry layer so that it is recognisable without a legend: the
terminal map (``reports/terminal.py``), the SVG document and the replay's inline fragment
(``reports/svg.py``). The pieces are those of the test-only modules in ``tests/plugins/geo_*``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra, longest_outer_wall
from referee.geometry.pieces import Diagonal
from referee.record.model import Coord
from referee.reports.svg import (
    ADDED_COLOUR,
    CORNER_COLOUR,
    GATE_COLOUR,
    Panel,
    alhambra_fragment,
    render_svg,
)
from referee.reports.terminal import PlayerView, cells_of, draw_alhambra


@pytest.fixture(autouse=True)
def _unregister() -> Iterator[None]:
    """Importing the plugins registers their modules (imported inside the tests, never at
    collection): take them out again afterwards, so no other test sees them."""
    from referee.engine.extensions import MODULES

    yield
    for name in ("geo_gate", "geo_walls", "geo_falcon", "geo_project", "geo_tower"):
        MODULES.pop(name, None)


def _pieces() -> tuple[Any, Any, Any, Any]:
    from plugins.geo_falcon import Falcon
    from plugins.geo_gate import Gate
    from plugins.geo_project import parse
    from plugins.geo_tower import Watchtower

    return Falcon, Gate, parse, Watchtower


@dataclass(frozen=True)
class Block:
    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None
    price: int | None = None


def _walls(text: str) -> frozenset[Side]:
    return frozenset(Side(ch) for ch in text)


def _layered() -> Alhambra:
    Falcon, Gate, parse, Watchtower = _pieces()
    alh = Alhambra()
    alh.place(Coord(1, 0), Block(_walls("E"), BuildingType.GARDEN, 8))
    alh.place(Coord(2, 0), Block(_walls("WN"), BuildingType.ARCADES, 5))
    alh.place_edge(Coord(1, 0), Side.E, Gate())
    alh.place(Coord(0, -1), Block(frozenset(), BuildingType.TOWER, 7))
    alh.place(Coord(1, -1), Block(_walls("E"), BuildingType.TOWER, 9))
    alh.place(Coord(0, 1), Block(_walls("N"), BuildingType.CHAMBERS, 6))
    alh.place(Coord(-1, 0), Block(frozenset(), BuildingType.SERAGLIO, 4))
    alh.place(Coord(-1, 1), Block(frozenset(), BuildingType.PAVILION, 3))
    alh.place_corner(Coord(-1, 0), Falcon())
    project = parse("PSs")
    assert project is not None
    alh.place(Coord(-2, 0), project)
    alh.place(Coord(-1, -1), Watchtower(BuildingType.SERAGLIO, "se"))
    alh.add_overlay(Coord(0, 1), frozenset({Side.W}))
    return alh


def test_the_terminal_map_shows_every_layer() -> None:
    lines = draw_alhambra(_layered())
    text = "\n".join(lines)
    row0 = next(line for line in lines if line.startswith(" 0 "))
    assert "G8 G  A5" in row0  # the gate's letter on its edge, between G8 and A5
    assert "◆" in text  # the falcon on the crossing
    assert "◢" in text  # the watchtower's triangle (south-east half)
    assert "║" in text  # the wall added to the chambers' west side: a double line
    # inside the two-cell project no line is drawn between its pavilion and its seraglio
    below0 = lines[lines.index(row0) + 1]
    assert below0.startswith("   │     ├")


def test_the_svg_draws_every_layer_and_the_longest_wall_through_a_diagonal() -> None:
    alh = _layered()
    cells = cells_of(alh)
    svg = render_svg([Panel(PlayerView("Anna", alhambra=cells))], "en")
    assert f"fill:{GATE_COLOUR}" in svg and "<title>gate @1,0 e</title>" in svg
    assert f"fill:{CORNER_COLOUR}" in svg and "<title>falcon @-1,0 ne</title>" in svg
    assert f"stroke:{ADDED_COLOUR}" in svg  # the added wall
    assert "stroke-dasharray:8 4" in svg  # the outline around the two-cell project
    assert "<polygon" in svg  # the empty half of the watchtower cut away
    fragment = alhambra_fragment(cells, "de")
    assert f"fill:{GATE_COLOUR}" in fragment and "<polygon" in fragment
    # a diagonal wall in the longest run is traced corner to corner
    Watchtower = _pieces()[3]
    tower_alh = Alhambra()
    tower_alh.place(Coord(0, -1), Block(type=BuildingType.TOWER))
    tower_alh.place(Coord(1, -1), Block(_walls("E"), BuildingType.TOWER))
    tower_alh.place(Coord(1, 0), Watchtower(BuildingType.TOWER, "sw"))
    run = longest_outer_wall(tower_alh)
    assert (Coord(1, 0), Diagonal.NW_SE) in run.segments
    drawn = alhambra_fragment(cells_of(tower_alh), "en", longest=run.segments)
    assert 'class="longest"' in drawn and "L" in drawn.split('class="longest" d="')[1][:40]


def test_record_text_in_layer_titles_is_escaped() -> None:
    alh = Alhambra()
    alh.place(Coord(1, 0), Block(_walls("W"), BuildingType.GARDEN, 8))
    alh.add_overlay(Coord(0, 0), frozenset({Side.E}))

    @dataclass(frozen=True)
    class Odd:
        code: str = "<b>&"
        opens: bool = False

    alh.place_edge(Coord(0, 0), Side.E, Odd())
    svg = render_svg([Panel(PlayerView("Anna", alhambra=cells_of(alh)))], "en")
    assert "<b>&" not in svg and "&lt;b&gt;&amp;" in svg
