"""The layers of an Alhambra beside its cells, and the one effective-walls function.

An Alhambra is one grid with several layers (``docs/architecture.md``, "Geometry layers"):

* **cells** (``Coord -> piece``, the base game's layer; a two-cell piece lies there as two
  :class:`~referee.geometry.pieces.Part` objects, a half piece as itself);
* **edges** (:data:`Edge` ``-> piece``): pieces on the side between two cells (a gate, E22).
  An edge is written ``@x,y e`` (the side word after the coordinate, N1) and kept in its
  canonical form, the north or east side of a cell (:func:`edge_key`);
* **corners** (``Coord -> piece``): pieces on the crossing of four cells (a falcon, E23), keyed
  by the cell whose north-east corner it is (``@x,y ne``, N2; :func:`corner_key`);
* **overlays** (``Coord -> sides``): walls added to the tile on a cell after it was laid
  (wooden walls, E21, also on the fountain). They belong to the tile: removing the tile takes
  them along (:meth:`~referee.geometry.grid.Alhambra.remove_with_overlay`).

:func:`wall_between` is the one answer to "between this cell and the next one across
``side``: is there a wall, is it double, can one walk across, is it an outer wall?". Every rule
and every picture asks it (or the wall masks of the kept geometry, which hold the same
effective walls as ints: :func:`cell_walls`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from referee.catalogue import SIDES, Side
from referee.geometry.pieces import (
    PLAIN_PROFILE,
    Diagonal,
    Footprint,
    Part,
    Profile,
    diagonal_of,
    profile_of,
)
from referee.record.model import Coord
from referee.shapes import WallFacts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Edge = tuple[Coord, Side]
"""An edge in canonical form: a cell and its north or east side."""

_EDGE_WORDS = {"n": Side.N, "e": Side.E, "s": Side.S, "w": Side.W, "o": Side.E}
_CORNER_WORDS = {"ne": (0, 0), "nw": (-1, 0), "se": (0, -1), "sw": (-1, -1)}


def edge_key(at: Coord, side: Side) -> Edge:
    """The canonical form of the side ``side`` of cell ``at`` (a south side is the north side of
    the cell below, a west side the east side of the cell to the west)."""
    if side is Side.S:
        return at.neighbour(Side.S), Side.N
    if side is Side.W:
        return at.neighbour(Side.W), Side.E
    return at, side


def edge_cells(edge: Edge) -> tuple[Coord, Coord]:
    """The two cells an edge lies between."""
    at, side = edge
    return at, at.neighbour(side)


def read_edge(at: Coord, word: str) -> Edge | None:
    """``@x,y e`` read: the coordinate and the side word (``n e s w``, German ``o`` for Ost),
    canonical; None when the word is no side."""
    side = _EDGE_WORDS.get(word.lower())
    return None if side is None else edge_key(at, side)


def edge_text(edge: Edge) -> str:
    """The canonical way to write an edge: ``@x,y n`` or ``@x,y e``."""
    at, side = edge
    return f"@{at} {side.value.lower()}"


def read_half(name: str) -> tuple[str, str] | None:
    """A half piece's token name read (N3): ``Tsw`` -> (``T``, ``sw``): the stem and the half
    it fills (``sw ne se nw``); None when the name does not end in a half."""
    half = name[-2:].lower()
    if len(name) < 3 or half not in ("sw", "ne", "se", "nw"):
        return None
    return name[:-2], half


def read_second(name: str) -> tuple[str, Side] | None:
    """A two-cell piece's token name read (N3): ``PSe`` -> (``PS``, east): the stem and the
    side of the anchor where its second cell lies; None when the name ends in no side."""
    side = _EDGE_WORDS.get(name[-1:].lower()) if len(name) > 1 else None
    return None if side is None else (name[:-1], side)


def corner_key(at: Coord, word: str = "ne") -> Coord | None:
    """The cell whose north-east corner is the corner ``word`` (``ne nw se sw``) of ``at``."""
    d = _CORNER_WORDS.get(word.lower())
    return None if d is None else Coord(at.x + d[0], at.y + d[1])


def corner_text(key: Coord) -> str:
    return f"@{key} ne"


def corner_cells(key: Coord) -> tuple[Coord, Coord, Coord, Coord]:
    """The four cells around the north-east corner of ``key``."""
    x, y = key
    return key, Coord(x + 1, y), Coord(x, y + 1), Coord(x + 1, y + 1)


def edges_of_cell(at: Coord) -> list[Edge]:
    return [edge_key(at, s) for s in SIDES]


@dataclass
class Layers:
    """The layers of one Alhambra beside its cells (see the module text); empty dicts when a
    layer holds nothing. ``special``: the cells whose piece has a rule profile, covers two
    cells or half a cell (then the building rules take the general path). ``returned``: layer
    pieces that left because a cell under them was redesigned, in order (the caller hands them
    back to the supply and clears the list). ``carried``: the added walls of tiles taken out of
    the Alhambra (into the reserve): they come back with the tile when it is placed again."""

    edges: dict[Edge, Any] = field(default_factory=dict)
    corners: dict[Coord, Any] = field(default_factory=dict)
    overlays: dict[Coord, frozenset[Side]] = field(default_factory=dict)
    special: dict[Coord, Any] = field(default_factory=dict)
    returned: list[tuple[str, object, Any]] = field(default_factory=list)
    carried: dict[Any, frozenset[Side]] = field(default_factory=dict)

    def copy(self) -> Layers:
        return Layers(
            dict(self.edges),
            dict(self.corners),
            dict(self.overlays),
            dict(self.special),
            list(self.returned),
            dict(self.carried),
        )

    def empty(self) -> bool:
        return not (self.edges or self.corners or self.overlays or self.special or self.carried)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layers):
            return NotImplemented
        return (self.edges, self.corners, self.overlays, self.special) == (
            other.edges,
            other.corners,
            other.overlays,
            other.special,
        )

    def opened(self, at: Coord, side: Side) -> bool:
        """Whether an edge piece opens the edge on ``side`` of ``at`` for the walk rule."""
        piece = self.edges.get(edge_key(at, side))
        return piece is not None and bool(getattr(piece, "opens", False))

    def edge_wall(self, at: Coord, side: Side) -> bool:
        """Whether an edge piece adds a wall on the edge."""
        piece = self.edges.get(edge_key(at, side))
        return piece is not None and bool(getattr(piece, "adds_wall", False))


_SPECIAL_NAMES = ("footprint", "half_at", "profile")
# piece classes none of whose instances can be special: no instance dictionary, none of the
# names above on the class, the plain attribute look-up (filled by is_special as it meets them)
_PLAIN_TYPES: set[type] = set()


def is_special(piece: object) -> bool:
    """Whether a piece needs the general path of the building rules: a rule profile other than
    the base game's, or a footprint other than one cell (a part of a two-cell piece too)."""
    t = type(piece)
    if t in _PLAIN_TYPES:  # each look-up below would miss (a module's piece, issue 34)
        return False
    if t is Part:
        return True
    if getattr(piece, "footprint", Footprint.CELL) != Footprint.CELL:
        return True
    if getattr(piece, "half_at", None) is not None:
        return True
    prof = getattr(piece, "profile", None)
    if prof is not None:
        return not prof.plain
    if _plain_type(t):
        _PLAIN_TYPES.add(t)
    return False


def _plain_type(t: type) -> bool:
    """Whether no instance of ``t`` can have any of ``_SPECIAL_NAMES``: they are not on the
    class (not as class attributes, properties or slots), its instances have no dictionary, and
    attributes are looked up the ordinary way."""
    return (
        t.__dictoffset__ == 0
        and t.__getattribute__ is object.__getattribute__  # type: ignore[comparison-overlap]
        and not hasattr(t, "__getattr__")
        and not any(hasattr(t, name) for name in _SPECIAL_NAMES)
    )


# ------------------------------------------------------------------ the effective walls


def cell_walls(cells: Mapping[Coord, Any], layers: Layers | None, at: Coord) -> frozenset[Side]:
    """The effective walls of the piece on ``at``: its own (as placed) and the overlays on it.
    Empty for an empty cell."""
    piece = cells.get(at)
    if piece is None:
        return frozenset()
    walls: frozenset[Side] = piece.walls
    if layers is not None:
        extra = layers.overlays.get(at)
        if extra:
            walls = walls | extra
    return walls


def profile_at(cells: Mapping[Coord, Any], at: Coord) -> Profile:
    piece = cells.get(at)
    return PLAIN_PROFILE if piece is None else profile_of(piece)


def wall_between(
    cells: Mapping[Coord, Any], layers: Layers | None, at: Coord, side: Side
) -> WallFacts:
    """The one effective-walls function (see the module text and :class:`WallFacts`)."""
    nb = at.neighbour(side)
    here = cells.get(at)
    there = cells.get(nb)
    mine = here is not None and side in cell_walls(cells, layers, at)
    theirs = there is not None and side.opposite in cell_walls(cells, layers, nb)
    on_edge = layers is not None and layers.edge_wall(at, side)
    wall = mine or theirs or on_edge
    passable = False
    if (
        here is not None
        and there is not None
        and not (profile_of(here).walk_exempt or profile_of(there).walk_exempt)
    ):
        passable = not wall or (layers is not None and layers.opened(at, side))
    outer = False
    if here is not None and (mine or on_edge) and not profile_of(here).transparent:
        outer = there is None or profile_of(there).transparent
    return WallFacts(wall, mine and theirs, passable, outer)


def diagonals(cells: Mapping[Coord, Any]) -> Iterator[tuple[Coord, Diagonal]]:
    """The diagonal walls of the half pieces, cell by cell."""
    for at, piece in cells.items():
        d = diagonal_of(piece)
        if d is not None:
            yield at, d
