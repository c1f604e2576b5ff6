"""The SVG picture of Alhambras (golden files in tests/golden/render/).

``UPDATE_GOLDEN=1`` rewrites the golden files after a deliberate change.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from referee.catalogue import BuildingType, catalogue
from referee.geometry import Alhambra, longest_outer_wall
from referee.record.model import Coord
from referee.reports.svg import FILL, Panel, render_svg
from referee.reports.terminal import PlayerView, cells_of

GOLDEN = Path(__file__).parent / "golden" / "render"
TILES = {k.full_code: k for k in catalogue().tiles}
NS = "{http://www.w3.org/2000/svg}"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def anna() -> Alhambra:
    layout = {
        "0,1": "C8nw",
        "1,1": "C7ne",
        "-1,0": "A5nw",
        "1,0": "S9-",
        "2,0": "T8nes",
        "-1,-1": "G12s",
        "0,-1": "A10-",
    }
    return Alhambra((Coord(*map(int, k.split(","))), TILES[v]) for k, v in layout.items())


def panels() -> list[Panel]:
    a = anna()
    wall = longest_outer_wall(a).segments
    return [
        Panel(PlayerView('Anna <&> "Lena"', 23, alhambra=cells_of(a)), longest=tuple(wall)),
        Panel(PlayerView("Ben", None, alhambra=cells_of(Alhambra())), marks=(Coord(1, 0),)),
    ]


def test_svg_is_valid_xml_with_the_right_content() -> None:
    svg = render_svg(panels(), "en", title="Friday club")
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    rects = [r.get("fill") for r in root.iter(f"{NS}rect")]
    for type_ in (BuildingType.CHAMBERS, BuildingType.ARCADES, BuildingType.SERAGLIO):
        assert FILL[type_] in rects
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert 'Anna <&> "Lena" \u2014 23 points' in texts  # escaped in the file, intact when read
    assert "12" in texts and "10" in texts  # prices
    assert "-1" in texts and "2" in texts  # axis labels
    lines = list(root.iter(f"{NS}line"))
    longest = [ln for ln in lines if ln.get("class") == "longest"]
    assert len(longest) == 9 + 1  # the longest outer wall, one line per segment, + the legend
    walls = [ln for ln in lines if ln.get("class") == "wall"]
    assert len(walls) == len(wall_sides(anna()))


def wall_sides(alh: Alhambra) -> set[frozenset[tuple[int, int]]]:
    """Every side showing a wall, as the pair of cells it separates (shared sides once)."""
    found = set()
    for at, piece in alh.items():
        for side in piece.walls:
            n = at.neighbour(side)
            found.add(frozenset({(at.x, at.y), (n.x, n.y)}))
    return found


def test_walls_and_open_sides_are_drawn_once_per_side() -> None:
    a = Alhambra([(Coord(1, 0), TILES["P7e"])])  # one wall: the pavilion's east side
    root = ET.fromstring(render_svg([Panel(PlayerView("A", 0, alhambra=cells_of(a)))], "en"))
    lines = list(root.iter(f"{NS}line"))
    assert [ln.get("class") for ln in lines].count("wall") == 1
    assert [ln.get("class") for ln in lines].count("open") == 6  # 2 cells: 8 sides, 1 shared


def test_german_names() -> None:
    svg = render_svg(panels(), "de")
    root = ET.fromstring(svg.encode("utf-8"))
    texts = {t.text for t in root.iter(f"{NS}text")}
    assert {"Gemächer", "Turm", "längste Außenmauer"} <= texts
    assert 'Anna <&> "Lena" \u2014 23 Punkte' in texts


def test_golden_en() -> None:
    check_golden("two-players-en.svg", render_svg(panels(), "en", title="Friday club"))
