"""The Alhambra grid: which piece lies on which cell. No rule is checked here.

Rulebook: ``rulebook-base-de-2003.txt``, "Alhambra-Bauregeln" (the rules themselves live in
:mod:`referee.geometry.rules`). The start tile (the lion fountain) is always at ``0,0``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from referee.catalogue import BuildingType, Side, TileKind
from referee.geometry.incremental import Geometry, from_scratch
from referee.geometry.layers import (
    Edge,
    Layers,
    corner_cells,
    edge_cells,
    edge_key,
    is_special,
    wall_between,
)
from referee.geometry.pieces import Footprint, Part, parts_of
from referee.record.model import Coord
from referee.shapes import Piece

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

ORIGIN = Coord(0, 0)


@dataclass(frozen=True, slots=True)
class Fountain:
    """The start tile (Löwenbrunnen): no walls, no building type."""

    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None

    def __str__(self) -> str:
        return "fountain"

    # Immutable, so a copy is the object itself (as the catalogue's tiles and cards). Said
    # here, not left to ``dataclasses``: compiled by mypyc, a frozen slots dataclass's
    # ``__setstate__`` goes through the refusing ``__setattr__``, so ``copy``, ``deepcopy``
    # and ``pickle`` of the fountain raised FrozenInstanceError in the compiled build (a
    # module's scratch that holds the fountain, e.g. Stadttore's or Schlüssel's, is deep
    # copied by ``GameState.copy``).
    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Fountain, (self.walls, self.type))

    def __copy__(self) -> Fountain:
        return self

    def __deepcopy__(self, memo: object) -> Fountain:
        return self


FOUNTAIN = Fountain()


PlaceUpdater = Callable[["Alhambra", object, Coord, Piece], object | None]
_PLACE_UPDATERS: dict[str, PlaceUpdater] = {}


def register_place_updater(key: str, updater: PlaceUpdater) -> None:
    """Let the derived fact ``key`` survive :meth:`Alhambra.place`.

    ``updater(alhambra, old_value, coord, piece)`` runs after the piece was put down and returns
    the new value, or None when it cannot update cheaply (the fact is then recomputed on demand).
    It must not change ``old_value`` in place: copies of an Alhambra share it.
    """
    _PLACE_UPDATERS[key] = updater


def _hashable(piece: object) -> bool:
    try:
        hash(piece)
    except TypeError:
        return False
    return True


def _carried_key(carried: dict[Any, frozenset[Side]], piece: object) -> object | None:
    """The key of ``carried`` whose added walls belong to ``piece``: the piece itself, or a
    piece that carried it (a building site with the tile on it, ``carried_tile``: the walls
    built on the site stay on the finished building, "gehören ... zum Gebäudeplättchen")."""
    if piece in carried:
        return piece
    for key in carried:
        if getattr(key, "carried_tile", None) == piece:
            return key
    return None


class Ticks:
    """The numbers :attr:`Alhambra.version` and ``PlayerState.reserve_version``
    (referee.engine.state) take: each change adds one to :attr:`n` and takes it, so no two
    changes anywhere in a run share a number. An Alhambra or a reserve whose number is the one
    noted earlier has not changed since (a copy keeps the number of what it copies, and the two
    never meet another's number again); and while :attr:`n` is the value noted, no Alhambra and
    no reserve changed anywhere (the engine's change notice, docs/modules/extension-points.md,
    "Whose holdings changed"). Read ``n``; only the changes add to it."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n: int = 0


TICKS: Final = Ticks()


class Alhambra:
    """A mutable grid ``Coord -> Piece``; the fountain always lies at ``0,0``.

    ``place`` and ``remove`` check no building rule (use :mod:`referee.geometry.rules` first);
    they only keep the grid consistent: a cell holds at most one piece and the fountain stays.

    Three plain attributes are read without a call (read them, never change or rebind them;
    only the Alhambra's own methods do): :attr:`cells`, the underlying dict ``Coord -> Piece``;
    :attr:`kept_geometry`, the kept :class:`~referee.geometry.incremental.Geometry` when it was
    built, else None (:attr:`geometry` builds it); :attr:`version`, the change notice's number.
    (Plain attributes, not properties: a property is a call at every read in the pure build,
    and the engine and the modules read these at every turn.)
    """

    __slots__ = ("_derived", "_layers", "cells", "kept_geometry", "version")

    def __init__(self, tiles: Iterable[tuple[Coord, Piece]] = ()) -> None:
        self.cells: dict[Coord, Piece] = {ORIGIN: FOUNTAIN}  # (read it, do not change it)
        # a number no other change anywhere has (:data:`TICKS`), taken at each change of the
        # cells or the layers: while it is the number noted, nothing changed; a copy keeps it.
        # Lets callers cache derived facts (the change notice, with
        # ``PlayerState.reserve_version``).
        # A plain attribute (read it, do not change it): the modules read it at every turn
        TICKS.n += 1
        self.version: int = TICKS.n
        self._layers: Layers | None = None  # edges, corners, overlays (None: all empty)
        self._derived: dict[str, object] = {}  # facts computed from the cells (see rules)
        # what :attr:`geometry` answers once built (None: not built yet, or dropped by a change
        # it could not follow); built on first use, then kept up to date (read it, do not set it)
        self.kept_geometry: Geometry | None = None
        for coord, piece in tiles:
            self.place(coord, piece)

    # ------------------------------------------------------------------ mapping protocol

    def __contains__(self, coord: object) -> bool:
        return coord in self.cells

    def __getitem__(self, coord: Coord) -> Piece:
        return self.cells[coord]

    def get(self, coord: Coord) -> Piece | None:
        return self.cells.get(coord)

    def __len__(self) -> int:
        """The number of occupied cells, fountain included."""
        return len(self.cells)

    def __iter__(self) -> Iterator[Coord]:
        return iter(self.cells)

    def items(self) -> Iterable[tuple[Coord, Piece]]:
        return self.cells.items()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Alhambra):
            return NotImplemented
        if self.cells != other.cells:
            return False
        mine, theirs = self._layers, other._layers
        if mine is None or theirs is None:
            return (mine is None or mine.empty()) and (theirs is None or theirs.empty())
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        inner = ", ".join(f"{c}: {p}" for c, p in self.buildings())
        return f"Alhambra({{{inner}}})"

    @property
    def derived(self) -> dict[str, object]:
        """A cache for facts computed from the cells; emptied by every change."""
        return self._derived

    @property
    def geometry(self) -> Geometry:
        """What the building rules read (reach, enclosed cells, the cells around, wall masks),
        kept up to date by :meth:`place` and :meth:`remove` once built (read it, do not
        change it)."""
        geo = self.kept_geometry
        if geo is None:
            geo = self.kept_geometry = from_scratch(self.cells, self._layers)
        return geo

    @property
    def layers(self) -> Layers | None:
        """The edge, corner and overlay layers and the cells of special pieces
        (:mod:`referee.geometry.layers`); None while all are empty, the base game's case
        (read it, do not change it)."""
        return self._layers

    @property
    def layered(self) -> bool:
        """Whether any layer holds something (then the building rules take the general path)."""
        return self._layers is not None

    # -------------------------------------------------------------------------- changes

    def place(self, coord: Coord, piece: Piece) -> None:
        """Put ``piece`` on the empty cell ``coord`` (no rule check).

        Derived facts are dropped, except those whose owner registered an updater
        (:func:`register_place_updater`) that can bring them up to date cheaply.
        """
        if not self.place_if_empty(coord, piece):
            raise ValueError(f"cell {coord} is occupied")

    def place_if_empty(self, coord: Coord, piece: Piece) -> bool:
        """:meth:`place`, or False (nothing changes) when ``coord`` is occupied."""
        cells = self.cells
        if coord in cells:
            return False
        if type(piece) is not TileKind and is_special(piece):
            return self._place_special(coord, piece)
        cells[coord] = piece
        self.version = TICKS.n = TICKS.n + 1
        lay = self._layers
        if lay is not None:
            if lay.carried and _hashable(piece):
                key = _carried_key(lay.carried, piece)
                if key is not None:
                    lay.overlays[coord] = lay.carried.pop(key)
            if self.kept_geometry is not None:
                self.kept_geometry.placed_layered(cells, lay, (coord,))
            self._changed(keep_geo=True)
            return True
        if self.kept_geometry is not None:
            self.kept_geometry.placed(self.cells, coord, piece)
        old = self._derived
        if old:
            kept: dict[str, object] = {}
            for key, value in old.items():
                updater = _PLACE_UPDATERS.get(key)
                if updater is not None:
                    updated = updater(self, value, coord, piece)
                    if updated is not None:
                        kept[key] = updated
            self._derived = kept
        return True

    def remove(self, coord: Coord) -> Piece:
        """Take the piece off ``coord`` and return it (no rule check; never the fountain)."""
        if coord == ORIGIN:
            raise ValueError("the fountain is never removed")
        if self._layers is not None:
            piece, overlay = self.remove_with_overlay(coord)
            if overlay and _hashable(piece):  # the added walls stay with the tile (E21)
                self._lay().carried[piece] = overlay
            return piece
        piece = self.cells.pop(coord)  # KeyError for an empty cell
        self.version = TICKS.n = TICKS.n + 1
        if self.kept_geometry is not None:
            self.kept_geometry.removed(self.cells, coord)
        self._derived.clear()
        return piece

    def copy(self) -> Alhambra:
        other = Alhambra.__new__(Alhambra)
        other.cells = dict(self.cells)
        other.version = self.version  # (the same cells: the same number, TICKS)
        other._derived = dict(self._derived)
        other.kept_geometry = None if self.kept_geometry is None else self.kept_geometry.copy()
        other._layers = None if self._layers is None else self._layers.copy()
        return other

    # ------------------------------------------------------------------- layered changes

    def _changed(self, keep_geo: bool = False) -> None:
        """After a change of a layered Alhambra: derived facts dropped; the kept geometry too
        (rebuilt on next use) unless the change brought it up to date (``keep_geo``: the common
        changes, see :meth:`~referee.geometry.incremental.Geometry.placed_layered`)."""
        self.version = TICKS.n = TICKS.n + 1
        if not keep_geo:
            self.kept_geometry = None
        self._derived.clear()
        lay = self._layers
        if lay is not None and lay.empty() and not lay.returned:
            self._layers = None

    def _lay(self) -> Layers:
        lay = self._layers
        if lay is None:
            lay = self._layers = Layers()
        return lay

    def _place_special(self, coord: Coord, piece: Piece) -> bool:
        """Put a piece with a rule profile, a two-cell or a half piece down (atomically)."""
        cells = self.cells
        if getattr(piece, "footprint", Footprint.CELL) == Footprint.TWO_CELLS:
            parts = parts_of(piece, coord)
            if any(c in cells for c, _ in parts):
                return False
            lay = self._lay()
            for c, part in parts:
                cells[c] = part
                lay.special[c] = part
            new = [c for c, _ in parts]
        else:
            cells[coord] = piece
            lay = self._lay()
            lay.special[coord] = piece
            new = [coord]
        if self.kept_geometry is not None:
            self.kept_geometry.placed_layered(cells, lay, new)
        self._changed(keep_geo=True)
        return True

    def cells_of(self, coord: Coord) -> list[Coord]:
        """Every cell of the piece on ``coord`` (two for a two-cell piece), anchor first."""
        piece = self.cells.get(coord)
        if type(piece) is not Part:
            return [coord] if piece is not None else []
        return [c for c, _ in parts_of(piece.whole, self.anchor_of(coord))]

    def anchor_of(self, coord: Coord) -> Coord:
        """The anchor cell of the piece on ``coord`` (itself but for a part of a two-cell
        piece)."""
        piece = self.cells.get(coord)
        if type(piece) is Part and piece.index == 1:
            second: Side = piece.whole.second
            return coord.neighbour(second.opposite)
        return coord

    def piece_at(self, coord: Coord) -> object | None:
        """The piece on ``coord`` as a whole (a two-cell piece, not its part)."""
        piece = self.cells.get(coord)
        return piece.whole if type(piece) is Part else piece

    def remove_with_overlay(self, coord: Coord) -> tuple[Piece, frozenset[Side]]:
        """Take the piece on ``coord`` out (the whole of a two-cell piece) with the walls added
        to it (they belong to the tile, E21). Pieces on a corner or an edge of a freed cell
        that leave on a redesign go to ``layers.returned``."""
        if coord == ORIGIN:
            raise ValueError("the fountain is never removed")
        cells = self.cells
        if coord not in cells:
            raise KeyError(coord)
        whole = self.piece_at(coord)
        freed = self.cells_of(coord)
        lay = self._layers
        overlay: frozenset[Side] = frozenset()
        for c in freed:
            del cells[c]
        if lay is not None:
            overlay = lay.overlays.pop(coord, frozenset())
            for c in freed:
                lay.special.pop(c, None)
                if c != coord:
                    lay.overlays.pop(c, None)
            for key in [k for k in lay.corners if set(corner_cells(k)) & set(freed)]:
                piece = lay.corners[key]
                if getattr(piece, "leaves_on_redesign", False):
                    lay.returned.append(("corner", key, lay.corners.pop(key)))
            for edge in [e for e in lay.edges if set(edge_cells(e)) & set(freed)]:
                piece = lay.edges[edge]
                if getattr(piece, "leaves_on_redesign", False):
                    lay.returned.append(("edge", edge, lay.edges.pop(edge)))
        geo = self.kept_geometry
        if geo is not None and len(freed) == 1:
            geo.removed(cells, coord, lay if lay is not None else Layers())
            self._changed(keep_geo=True)
        else:  # a two-cell piece: rebuilt on next use
            self._changed()
        return whole, overlay  # type: ignore[return-value]

    def place_with_overlay(self, coord: Coord, piece: Piece, overlay: frozenset[Side]) -> None:
        """:meth:`place`, then the walls that belong to the tile back on it."""
        self.place(coord, piece)
        if overlay:
            self.add_overlay(coord, overlay)

    def add_overlay(self, coord: Coord, sides: frozenset[Side]) -> None:
        """Add walls to the tile on ``coord`` (the fountain too), no rule check (E21)."""
        if coord not in self.cells:
            raise KeyError(coord)
        lay = self._lay()
        lay.overlays[coord] = lay.overlays.get(coord, frozenset()) | frozenset(sides)
        if self.kept_geometry is not None:
            self.kept_geometry.walls_added(self.cells, lay, coord)
        self._changed(keep_geo=True)

    def overlay(self, coord: Coord) -> frozenset[Side]:
        """The walls added to the tile on ``coord``."""
        lay = self._layers
        return frozenset() if lay is None else lay.overlays.get(coord, frozenset())

    def carry_walls(self, piece: object, sides: frozenset[Side]) -> None:
        """Add walls to ``piece`` while it lies outside the Alhambra (in the reserve, or just
        bought): they come onto its cell when it is placed (E21, "Dabei ist es egal, ob das
        Plättchen gerade neu gekauft wurde oder sich in der Alhambra bzw. in der Reserve
        befindet"); no rule check."""
        lay = self._lay()
        key = _carried_key(lay.carried, piece) if lay.carried else None
        key = piece if key is None else key
        lay.carried[key] = lay.carried.get(key, frozenset()) | frozenset(sides)
        self._changed(keep_geo=True)  # nothing in the Alhambra changed

    def carried_walls(self, piece: object) -> frozenset[Side]:
        """The walls added to ``piece`` while it lies outside the Alhambra."""
        lay = self._layers
        if lay is None or not lay.carried or not _hashable(piece):
            return frozenset()
        key = _carried_key(lay.carried, piece)
        return frozenset() if key is None else lay.carried[key]

    def place_edge(self, at: Coord, side: Side, piece: object) -> Edge:
        """Put ``piece`` on the edge of ``at`` towards ``side`` (no rule check); the canonical
        edge is returned. An edge holds one piece."""
        edge = edge_key(at, side)
        lay = self._lay()
        if edge in lay.edges:
            raise ValueError(f"edge {edge} is occupied")
        geo = self.kept_geometry
        before = geo is not None and wall_between(self.cells, lay, at, side).passable
        lay.edges[edge] = piece
        if geo is not None:
            geo.edge_changed(self.cells, lay, at, side, before)
        self._changed(keep_geo=True)
        return edge

    def remove_edge(self, at: Coord, side: Side) -> object:
        lay = self._layers
        edge = edge_key(at, side)
        if lay is None or edge not in lay.edges:
            raise KeyError(edge)
        geo = self.kept_geometry
        before = geo is not None and wall_between(self.cells, lay, at, side).passable
        piece = lay.edges.pop(edge)
        if geo is not None:
            geo.edge_changed(self.cells, lay, at, side, before)
        self._changed(keep_geo=True)
        return piece

    def edge(self, at: Coord, side: Side) -> object | None:
        lay = self._layers
        return None if lay is None else lay.edges.get(edge_key(at, side))

    def place_corner(self, key: Coord, piece: object) -> None:
        """Put ``piece`` on the north-east corner of ``key`` (no rule check)."""
        lay = self._lay()
        if key in lay.corners:
            raise ValueError(f"corner {key} is occupied")
        lay.corners[key] = piece
        self._changed(keep_geo=True)  # no wall, no way on foot changes

    def remove_corner(self, key: Coord) -> object:
        lay = self._layers
        if lay is None or key not in lay.corners:
            raise KeyError(key)
        piece = lay.corners.pop(key)
        self._changed(keep_geo=True)  # no wall, no way on foot changes
        return piece

    def corner(self, key: Coord) -> object | None:
        lay = self._layers
        return None if lay is None else lay.corners.get(key)

    def take_returned(self) -> list[tuple[str, object, object]]:
        """The layer pieces that left because a cell under them was redesigned (and forget
        them): ``("corner", key, piece)`` or ``("edge", edge, piece)``."""
        lay = self._layers
        if lay is None or not lay.returned:
            return []
        out = list(lay.returned)
        lay.returned.clear()
        if lay.empty():
            self._layers = None
        return out

    # ---------------------------------------------------------------------------- views

    def buildings(self) -> list[tuple[Coord, Piece]]:
        """Every piece except the fountain, sorted by coordinate (y descending, then x)."""
        return sorted(
            ((c, p) for c, p in self.cells.items() if c != ORIGIN),
            key=lambda cp: (-cp[0].y, cp[0].x),
        )

    def pieces(self) -> list[tuple[Coord, object]]:
        """Every piece except the fountain as a whole, with its anchor cell, in the order of
        :meth:`buildings` (a two-cell piece once, at its anchor)."""
        out: list[tuple[Coord, object]] = []
        for c, p in self.buildings():
            if type(p) is Part:
                if p.index == 0:
                    out.append((c, p.whole))
            else:
                out.append((c, p))
        return out

    def counts(self) -> dict[BuildingType, int]:
        """Buildings per type (every type present as a key; pieces without a type skipped)."""
        result = dict.fromkeys(BuildingType, 0)
        for coord, piece in self.cells.items():
            if coord != ORIGIN and piece.type is not None:
                result[piece.type] += 1
        return result

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of the occupied cells (the fountain included)."""
        xs = [c.x for c in self.cells]
        ys = [c.y for c in self.cells]
        return min(xs), min(ys), max(xs), max(ys)
