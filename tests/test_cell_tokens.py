"""Tokens standing on tiles (extension point E17, ``Module.cell_tokens``): the drawings show a
module's tokens on their tiles, the terminal map as a mark after the tile's text, the SVG as a
badge named in words (record text escaped)."""

from __future__ import annotations

import xml.dom.minidom
from dataclasses import dataclass

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra
from referee.record.model import Coord
from referee.reports.svg import alhambra_fragment
from referee.reports.terminal import CellView, cells_of, draw_alhambra, with_tokens


@dataclass(frozen=True)
class Block:
    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None
    price: int | None = None


def _cells() -> dict[Coord, CellView]:
    alh = Alhambra()
    alh.place(Coord(1, 0), Block(frozenset({Side.E}), BuildingType.GARDEN, 8))
    return cells_of(alh)


def test_with_tokens_puts_the_tokens_on_occupied_cells_only() -> None:
    cells = _cells()
    got = with_tokens(cells, {Coord(1, 0): (("▣", "a chest", "eine Truhe"),), Coord(5, 5): ()})
    assert got[Coord(1, 0)].tokens == (("▣", "a chest", "eine Truhe"),)
    assert got[Coord(0, 0)].tokens == ()
    assert Coord(5, 5) not in got
    assert cells[Coord(1, 0)].tokens == ()  # the input is not changed


def test_the_terminal_map_draws_the_mark_after_the_tile_text() -> None:
    cells = with_tokens(_cells(), {Coord(1, 0): (("▣", "a chest", "eine Truhe"),)})
    text = "\n".join(draw_alhambra(cells))
    assert "▣" in text
    assert "▣" not in "\n".join(draw_alhambra(_cells()))


def test_the_svg_badge_is_named_in_words_and_escaped() -> None:
    hostile = '<"Anna"> & x'
    cells = with_tokens(_cells(), {Coord(1, 0): (("▣", hostile, "Truhe"),)})
    svg_en = alhambra_fragment(cells, "en")
    svg_de = alhambra_fragment(cells, "de")
    assert "&lt;" in svg_en and '<"Anna">' not in svg_en and "x @1,0</title>" in svg_en
    assert "Truhe @1,0" in svg_de
    xml.dom.minidom.parseString(svg_en)  # still well-formed XML
