"""Small ASCII pictures of Alhambras for the geometry, wall and scoring tests.

A picture is a grid of tokens, north at the top, one token per cell, separated by spaces:

- ``.`` an empty cell, ``F`` the fountain (it fixes the origin ``0,0``),
- a tile: an optional building-type letter (``P S A C G T``, default garden) followed by its
  walls as lowercase ``n e s w`` letters, or ``-`` for no walls: ``-``, ``ne``, ``Tsw``, ``T-``.
"""

from __future__ import annotations

from referee.catalogue import BuildingType, Side, TileKind
from referee.geometry import FOUNTAIN, Alhambra, Piece
from referee.record.model import Coord

_TYPES = {t.code: t for t in BuildingType}


def tile(spec: str, price: int = 5) -> TileKind:
    """A tile from a token such as ``Tne`` or ``-`` (any walls; not necessarily in the bag)."""
    type_ = BuildingType.GARDEN
    if spec and spec[0] in _TYPES:
        type_ = _TYPES[spec[0]]
        spec = spec[1:]
    walls = frozenset() if spec in ("", "-") else frozenset(Side[ch.upper()] for ch in spec)
    return TileKind(type_, price, walls)


def picture(text: str) -> dict[Coord, Piece | None]:
    """Every token of a picture by coordinate (None for ``.``), the fountain at ``0,0``."""
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    origin = None
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token == "F":
                origin = (c, r)
    assert origin is not None, "a picture needs the fountain F"
    ox, oy = origin
    result: dict[Coord, Piece | None] = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            at = Coord(c - ox, oy - r)
            if token == ".":
                result[at] = None
            elif token == "F":
                result[at] = FOUNTAIN
            else:
                result[at] = tile(token)
    return result


def layout(text: str) -> Alhambra:
    """The Alhambra drawn in ``text``."""
    alh = Alhambra()
    for at, piece in picture(text).items():
        if piece is not None and piece is not FOUNTAIN:
            alh.place(at, piece)
    return alh


def test_picture_axes_north_up_east_right() -> None:
    alh = layout(
        """
        .  Tn
        F  -
        """
    )
    assert alh[Coord(1, 1)] == tile("Tn")
    assert alh[Coord(1, 0)].walls == frozenset()
    assert Coord(0, 1) not in alh
    assert alh.counts()[BuildingType.TOWER] == 1
    assert alh.counts()[BuildingType.GARDEN] == 1


def test_picture_fountain_anywhere() -> None:
    alh = layout(
        """
        Ps  .
        F   .
        """
    )
    assert alh[Coord(0, 1)].type is BuildingType.PAVILION
    assert alh[Coord(0, 1)].walls == frozenset({Side.S})
