"""The Alhambra grid: which piece lies on which cell. No rule is checked here.

Rulebook: ``rulebook-base-de-2003.txt``, "Alhambra-Bauregeln" (the rules themselves live in
:mod:`referee.geometry.rules`). The start tile (the lion fountain) is always at ``0,0``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from referee.catalogue import BuildingType, Side
from referee.geometry.incremental import Geometry, from_scratch
from referee.record.model import Coord

ORIGIN = Coord(0, 0)


@runtime_checkable
class Piece(Protocol):
    """Anything that can lie in an Alhambra: a catalogue tile, the fountain, a module tile."""

    @property
    def walls(self) -> frozenset[Side]: ...

    @property
    def type(self) -> BuildingType | None: ...


@dataclass(frozen=True, slots=True)
class Fountain:
    """The start tile (Löwenbrunnen): no walls, no building type."""

    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None

    def __str__(self) -> str:
        return "fountain"


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


class Alhambra:
    """A mutable grid ``Coord -> Piece``; the fountain always lies at ``0,0``.

    ``place`` and ``remove`` check no building rule (use :mod:`referee.geometry.rules` first);
    they only keep the grid consistent: a cell holds at most one piece and the fountain stays.
    """

    __slots__ = ("_cells", "_derived", "_geo", "_version")

    def __init__(self, tiles: Iterable[tuple[Coord, Piece]] = ()) -> None:
        self._cells: dict[Coord, Piece] = {ORIGIN: FOUNTAIN}
        self._version = 0
        self._derived: dict[str, object] = {}  # facts computed from the cells (see rules)
        self._geo: Geometry | None = None  # built on first use, then kept up to date
        for coord, piece in tiles:
            self.place(coord, piece)

    # ------------------------------------------------------------------ mapping protocol

    def __contains__(self, coord: object) -> bool:
        return coord in self._cells

    def __getitem__(self, coord: Coord) -> Piece:
        return self._cells[coord]

    def get(self, coord: Coord) -> Piece | None:
        return self._cells.get(coord)

    def __len__(self) -> int:
        """The number of occupied cells, fountain included."""
        return len(self._cells)

    def __iter__(self) -> Iterator[Coord]:
        return iter(self._cells)

    def items(self) -> Iterable[tuple[Coord, Piece]]:
        return self._cells.items()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Alhambra):
            return NotImplemented
        return self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        inner = ", ".join(f"{c}: {p}" for c, p in self.buildings())
        return f"Alhambra({{{inner}}})"

    @property
    def cells(self) -> dict[Coord, Piece]:
        """The underlying dict (read it, do not change it)."""
        return self._cells

    @property
    def derived(self) -> dict[str, object]:
        """A cache for facts computed from the cells; emptied by every change."""
        return self._derived

    @property
    def geometry(self) -> Geometry:
        """What the building rules read (reach, enclosed cells, the cells around, wall masks),
        kept up to date by :meth:`place` and :meth:`remove` once built (read it, do not
        change it)."""
        geo = self._geo
        if geo is None:
            geo = self._geo = from_scratch(self._cells)
        return geo

    @property
    def version(self) -> int:
        """Grows with every change; lets callers cache derived facts."""
        return self._version

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
        cells = self._cells
        if coord in cells:
            return False
        cells[coord] = piece
        self._version += 1
        if self._geo is not None:
            self._geo.placed(self._cells, coord, piece)
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
        piece = self._cells.pop(coord)  # KeyError for an empty cell
        self._version += 1
        if self._geo is not None:
            self._geo.removed(self._cells, coord)
        self._derived.clear()
        return piece

    def copy(self) -> Alhambra:
        other = Alhambra.__new__(Alhambra)
        other._cells = dict(self._cells)
        other._version = 0
        other._derived = dict(self._derived)
        other._geo = None if self._geo is None else self._geo.copy()
        return other

    # ---------------------------------------------------------------------------- views

    def buildings(self) -> list[tuple[Coord, Piece]]:
        """Every piece except the fountain, sorted by coordinate (y descending, then x)."""
        return sorted(
            ((c, p) for c, p in self._cells.items() if c != ORIGIN),
            key=lambda cp: (-cp[0].y, cp[0].x),
        )

    def counts(self) -> dict[BuildingType, int]:
        """Buildings per type (every type present as a key; pieces without a type skipped)."""
        result = dict.fromkeys(BuildingType, 0)
        for coord, piece in self._cells.items():
            if coord != ORIGIN and piece.type is not None:
                result[piece.type] += 1
        return result

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of the occupied cells (the fountain included)."""
        xs = [c.x for c in self._cells]
        ys = [c.y for c in self._cells]
        return min(xs), min(ys), max(xs), max(ys)
