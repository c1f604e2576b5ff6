"""Die Plätze's shortcuts of issue 34's eighth step equal the general steps they stand for:
the squares of an Alhambra picked out before sorting (``_squares_in``) as the sorted cells
filtered (the order a scoring lists them in), and a square token read once per spelling
(``parse_square``, kept) as read afresh."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side, catalogue
from referee.modules.plaetze import Square, _squares_in, parse_square
from referee.notation.tokens import read_walls
from referee.record.model import Coord

_TILES = catalogue().tiles
CELLS = st.builds(Coord, st.integers(-6, 6), st.integers(-6, 6))
SQUARES = st.builds(
    Square,
    st.sampled_from(list(BuildingType)),
    st.frozensets(st.sampled_from(list(Side))),
)
PIECES = st.sampled_from(_TILES) | SQUARES


@settings(deadline=None)  # no timing: a busy machine must not fail it
@given(st.dictionaries(CELLS, PIECES, max_size=25))
def test_squares_in_is_the_sorted_cells_filtered(cells: dict[Coord, object]) -> None:
    want = [
        (at, piece)
        for at, piece in sorted(cells.items(), key=lambda cp: (-cp[0].y, cp[0].x))
        if isinstance(piece, Square)
    ]
    assert _squares_in(cells) == want


def _parse_plain(name: str) -> object:
    if not name:
        return None
    try:
        colour = BuildingType(name[0].upper())
    except ValueError:
        return None
    rest = name[1:].lower()
    if rest == "":
        return colour, None
    walls = read_walls(rest, none=("0", "x"))
    return None if walls is None else (colour, walls)


@settings(deadline=None)
@given(st.text(alphabet="TtGgPpAaSsCcxX0nesw NESW?", max_size=6))
def test_a_square_token_is_read_as_afresh(name: str) -> None:
    assert parse_square(name) == _parse_plain(name)
    assert parse_square(name) == _parse_plain(name)  # (the second time: kept)
