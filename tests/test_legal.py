"""``legal``: every legal cell for a tile, checked against the placement rules one cell at a time.

Rules: rulebook-base-de-2003.txt, "Alhambra-Bauregeln".
"""

from __future__ import annotations

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, TileKind, catalogue
from referee.commands.legal import legal_targets, read_tile_option
from referee.geometry import Alhambra, placement_problems
from referee.record.model import Coord

TILES = catalogue().tiles
BY_CODE = {k.full_code: k for k in TILES}


def brute_force(alh: Alhambra, piece: TileKind) -> list[Coord]:
    """Try every empty cell next to the Alhambra through the placement checks."""
    empty_neighbours = {
        c.neighbour(side) for c in alh.cells for side in SIDES if c.neighbour(side) not in alh.cells
    }
    ok = [c for c in empty_neighbours if not placement_problems(alh, c, piece)]
    return sorted(ok, key=lambda c: (-c.y, c.x))


@st.composite
def alhambras(draw: st.DrawFn) -> Alhambra:
    """A random Alhambra grown by legal placements (0-14 tiles)."""
    alh = Alhambra()
    n = draw(st.integers(0, 14))
    for _ in range(n):
        tile = draw(st.sampled_from(TILES))
        cells = sorted(
            (c.neighbour(s) for c in alh.cells for s in SIDES if c.neighbour(s) not in alh.cells),
            key=lambda c: (c.x, c.y),
        )
        ok = [c for c in dict.fromkeys(cells) if not placement_problems(alh, c, tile)]
        if ok:
            alh.place(draw(st.sampled_from(ok)), tile)
    return alh


@settings(max_examples=150, deadline=None)
@given(alhambras(), st.sampled_from(TILES))
def test_legal_agrees_with_the_placement_checks(alh: Alhambra, tile: TileKind) -> None:
    assert legal_targets(alh, tile) == brute_force(alh, tile)


def test_fountain_alone() -> None:
    # The fountain has no walls: a tile fits on a side only where it shows no wall.
    t10w = BY_CODE["T10w"]  # wall on the west side
    cells = legal_targets(Alhambra(), t10w)
    assert cells == [Coord(0, 1), Coord(-1, 0), Coord(0, -1)]  # not 1,0: its west wall


def test_read_tile_option() -> None:
    assert read_tile_option("T13") == BY_CODE["T13e"]
    assert read_tile_option("garten10N") == BY_CODE["G10n"]
    with pytest.raises(click.BadParameter, match="G10n"):
        read_tile_option("G10")
    with pytest.raises(click.BadParameter, match="no tower costing 14"):
        read_tile_option("T14")
    with pytest.raises(click.BadParameter, match="not a tile"):
        read_tile_option("@@")
