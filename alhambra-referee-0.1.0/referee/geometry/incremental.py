"""What the building rules need to know about an Alhambra, kept up to date piece by piece.

:class:`Geometry` belongs to one :class:`~referee.geometry.grid.Alhambra` (built on first use,
then updated by every ``place`` and ``remove``, never recomputed per check). It holds plain
ints and sets, no rule and no message:

* ``masks``: per occupied cell, the piece's walls as a 4-bit int (bit ``k``: a wall on side
  ``SIDES[k]``, i.e. N=1, E=2, S=4, W=8);
* ``front``: per empty cell touching the Alhambra (at a side or a corner), one int packing what
  a piece put there would meet: bits 0-7 which of the 8 cells around it are occupied (in the
  cyclic order of ``RING``; the even bits are the side neighbours N, E, S, W), bits 8-11 the
  sides whose neighbour shows a wall towards it, bits 12-15 the sides whose neighbour is there
  and open towards it;
* ``reach``: the tiles reachable on foot from the fountain; None when every tile is (the normal
  case of a legal layout: then nothing needs to be stored);
* ``enclosed``: the empty cells that cannot reach the outside (4-connected), usually none.

:func:`from_scratch` computes the same from the cells alone; the property tests
(``tests/test_geometry_incremental.py``) compare both after random sequences of changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee.catalogue import SIDES, Side
from referee.geometry.layers import Layers, cell_walls, wall_between
from referee.geometry.pieces import profile_of
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.shapes import Walled as _Walled

ORIGIN = Coord(0, 0)

RING: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""The 8 cells around a cell, in cyclic order; index ``2k`` is the side neighbour ``SIDES[k]``."""

SIDE_RING = 0x55  # the ring bits of the four side neighbours
DELTAS: tuple[tuple[int, int], ...] = tuple(s.delta for s in SIDES)  # side k -> (dx, dy)

_new_coord = tuple.__new__  # Coord(x, y) without the named tuple's Python-level __new__


_MASKS: dict[frozenset[Side], int] = {}


def wall_mask(walls: Iterable[Side]) -> int:
    """The 4-bit mask of a set of walls (cached per frozenset)."""
    try:
        m = _MASKS.get(walls)  # type: ignore[call-overload]
    except TypeError:  # an unhashable collection: no cache
        m = None
    if m is None:
        m = 0
        for k, side in enumerate(SIDES):
            if side in walls:
                m |= 1 << k
        if isinstance(walls, frozenset):
            _MASKS[walls] = m
    return m


def _contribution(i: int, m: int) -> int:
    """What a piece with walls ``m`` adds to the front entry of the empty cell at ``RING[i]``
    from it: its ring bit, and for a side neighbour a wall or open bit on the facing side."""
    bits = 1 << ((i + 4) % 8)
    if i % 2 == 0:
        k = i // 2
        facing = (k + 2) % 4  # the empty cell's side that faces the piece
        bits |= (1 << (8 + facing)) if m >> k & 1 else (1 << (12 + facing))
    return bits


# ADD[i][m]: the contribution of a piece with walls m to its ring cell i; CLEAR[i]: every bit of
# the entry of ring cell i that the piece may have set
ADD: tuple[tuple[int, ...], ...] = tuple(
    tuple(_contribution(i, m) for m in range(16)) for i in range(8)
)
CLEAR: tuple[int, ...] = tuple(ADD[i][0] | ADD[i][15] for i in range(8))


def _ring_groups_of(empty: list[bool]) -> int:
    """How many separate empty groups, each holding a side neighbour, the 8 ring cells form
    (``empty[i]``: ring cell ``RING[i]`` is empty; consecutive empty ring cells touch)."""
    if all(empty):
        return 1
    start = empty.index(False)  # rotate so that the ring starts just after an occupied cell
    groups = 0
    in_run = run_has_side = False
    for j in range(8):
        i = (start + 1 + j) % 8
        if empty[i]:
            if not in_run:
                in_run = True
                run_has_side = False
            if i % 2 == 0:
                run_has_side = True
        else:
            if in_run and run_has_side:
                groups += 1
            in_run = False
    if in_run and run_has_side:
        groups += 1
    return groups


# the value of _ring_groups_of for each of the 256 masks, written out: computing it took 1 % of
# a one-game check's start-up (tests/test_startup_tables.py compares the two)
# fmt: off
RING_GROUPS: tuple[int, ...] = (
    1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1,
    1, 2, 2, 2, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1,
    1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 2, 2, 2, 2,
    1, 2, 2, 2, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1,
    1, 1, 2, 1, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    1, 1, 2, 1, 1, 0, 1, 0, 1, 1, 2, 1, 1, 0, 1, 0,
    1, 1, 2, 1, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    1, 1, 2, 1, 1, 0, 1, 0, 1, 1, 2, 1, 1, 0, 1, 0,
    1, 1, 2, 1, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    2, 2, 3, 2, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    2, 2, 3, 2, 3, 2, 3, 2, 3, 3, 4, 3, 3, 2, 3, 2,
    2, 2, 3, 2, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    1, 1, 2, 1, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    1, 1, 2, 1, 1, 0, 1, 0, 1, 1, 2, 1, 1, 0, 1, 0,
    1, 1, 2, 1, 2, 1, 2, 1, 2, 2, 3, 2, 2, 1, 2, 1,
    1, 1, 2, 1, 1, 0, 1, 0, 1, 1, 2, 1, 1, 0, 1, 0,
)
# fmt: on
"""Per ring occupancy (bit i: ``RING[i]`` occupied): how many separate empty groups holding a
side neighbour the ring forms. When it is at most 1, filling the middle cell cuts no empty cell
off from the others around it (so, if the middle cell was outside, no hole appears)."""


# ------------------------------------------------------------------------ from the cells


# per wall mask m: the steps a tile with walls m lets one take, (dx, dy, the bit of the wall the
# neighbour there would show back): the open sides only, so that a walk tests no wall of its own
_STEPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((DELTAS[k][0], DELTAS[k][1], 1 << ((k + 2) % 4)) for k in range(4) if not m >> k & 1)
    for m in range(16)
)


def walk(masks: Mapping[Coord, int], skip: Coord | None = None, at_mask: int = -1) -> set[Coord]:
    """Cells reachable on foot from the fountain (no wall crossed, never off the tiles).

    ``skip``: a cell read differently: as empty (``at_mask`` -1) or with walls ``at_mask``.
    """
    if skip is not None:  # walked over a copy that reads ``skip`` so (a C-level copy)
        masks = dict(masks)
        if at_mask >= 0:
            masks[skip] = at_mask
        elif skip == ORIGIN:
            return {ORIGIN}  # a fountain read as empty leads nowhere
        else:
            masks.pop(skip, None)
    seen = {ORIGIN}
    stack: list[tuple[tuple[int, int], int]] = [(ORIGIN, masks[ORIGIN])]
    get = masks.get
    steps = _STEPS
    while stack:
        (x, y), m = stack.pop()
        for dx, dy, back in steps[m]:
            t = (x + dx, y + dy)
            if t in seen:
                continue
            q = get(t)  # type: ignore[call-overload]
            if q is None or q & back:
                continue
            seen.add(_new_coord(Coord, t))
            stack.append((t, q))
    return seen


def walk_layered(
    cells: Mapping[Coord, Any], layers: Layers, skip: frozenset[Coord] = frozenset()
) -> set[Coord]:
    """Cells reachable on foot from the fountain in a layered Alhambra: a step is allowed
    where :func:`~referee.geometry.layers.wall_between` says ``passable`` (``skip``: cells read
    as empty)."""
    if skip:
        cells = {c: p for c, p in cells.items() if c not in skip}
    seen = {ORIGIN}
    stack = [ORIGIN]
    while stack:
        c = stack.pop()
        for side in SIDES:
            n = c.neighbour(side)
            if n in seen or n not in cells:
                continue
            if wall_between(cells, layers, c, side).passable:
                seen.add(n)
                stack.append(n)
    return seen


def enclosed_cells(cells: Mapping[Coord, object], blocked: Coord | None = None) -> set[Coord]:
    """Empty cells that cannot reach the outside (``blocked`` counts as occupied).

    Bounded by the number of pieces, wherever they lie (even far apart): a cell in a column or
    a row that holds no piece is outside (that column or row is empty all the way out), so only
    the cells at a piece's column *and* a piece's row can be enclosed, at most ``n * n`` cells
    for ``n`` pieces. They are flooded from those next to an outside cell.
    """
    xs = {c[0] for c in cells}
    ys = {c[1] for c in cells}
    if blocked is not None:
        xs.add(blocked.x)
        ys.add(blocked.y)

    def filled(c: tuple[int, int]) -> bool:
        return c in cells or c == blocked

    candidates = {_new_coord(Coord, (x, y)) for x in xs for y in ys}
    candidates = {c for c in candidates if not filled(c)}
    stack = [
        c
        for c in candidates
        if any((n := (c.x + dx, c.y + dy)) not in candidates and not filled(n) for dx, dy in DELTAS)
    ]
    out = set(stack)
    while stack:
        c = stack.pop()
        for dx, dy in DELTAS:
            n = _new_coord(Coord, (c[0] + dx, c[1] + dy))
            if n in candidates and n not in out:
                out.add(n)
                stack.append(n)
    return candidates - out


def component(area: set[Coord], start: Coord) -> set[Coord]:
    """The 4-connected part of ``area`` that contains ``start``."""
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for dx, dy in DELTAS:
            n = _new_coord(Coord, (c[0] + dx, c[1] + dy))
            if n in area and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


# --------------------------------------------------------------------------- the state


# per wall mask m: what a piece with walls m adds to each ring cell's entry, in RING's order
_ADD_AROUND: tuple[tuple[int, ...], ...] = tuple(
    tuple(ADD[i][m] for i in range(8)) for m in range(16)
)
assert RING == ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
# each ring cell's offset and the bits of its entry a piece may have set
_CLEAR_AROUND: tuple[tuple[int, int, int], ...] = tuple(
    (RING[i][0], RING[i][1], CLEAR[i]) for i in range(8)
)


BITS: tuple[int, ...] = tuple(bin(m).count("1") for m in range(16))  # set bits of a 4-bit mask


def ring_keeps(masks: Mapping[Coord, int], at: tuple[int, int], steps: int) -> bool:
    """Whether the tiles beside ``at`` that one walks to from it (``steps``: those sides, as a
    wall mask) still reach each other on foot once ``at`` is gone, through the eight cells
    around ``at`` alone (False: not that way; they may still meet further out).

    When every tile was reachable and this holds, every tile stays reachable: a way through
    ``at`` enters and leaves it by two of those tiles, and goes round it instead."""
    x, y = at
    get = masks.get
    n = get((x, y + 1))  # type: ignore[call-overload]
    e = get((x + 1, y))  # type: ignore[call-overload]
    s = get((x, y - 1))  # type: ignore[call-overload]
    w = get((x - 1, y))  # type: ignore[call-overload]
    ne = get((x + 1, y + 1))  # type: ignore[call-overload]
    se = get((x + 1, y - 1))  # type: ignore[call-overload]
    sw = get((x - 1, y - 1))  # type: ignore[call-overload]
    nw = get((x - 1, y + 1))  # type: ignore[call-overload]
    # joined[k]: side neighbour k and side neighbour k + 1 meet through the corner cell between
    # them (walls as masks: N=1, E=2, S=4, W=8); e.g. N to NE (N's east, NE's west open), NE to
    # E (NE's south, E's north open)
    joined = (
        n is not None and ne is not None and e is not None and not (n & 2 or ne & 12 or e & 1),
        e is not None and se is not None and s is not None and not (e & 4 or se & 9 or s & 2),
        s is not None and sw is not None and w is not None and not (s & 8 or sw & 3 or w & 4),
        w is not None and nw is not None and n is not None and not (w & 1 or nw & 6 or n & 8),
    )
    k = first = _LOWEST[steps]
    reached = 1 << first
    while joined[k] and not reached >> ((k + 1) & 3) & 1:  # clockwise
        k = (k + 1) & 3
        reached |= 1 << k
    k = first
    while joined[(k - 1) & 3] and not reached >> ((k - 1) & 3) & 1:  # and the other way
        k = (k - 1) & 3
        reached |= 1 << k
    return not steps & ~reached


_LOWEST: tuple[int, ...] = (0, *(((m & -m).bit_length() - 1) for m in range(1, 16)))
"""The lowest set bit's index of a 4-bit mask (0 for 0)."""


class Geometry:
    """The incremental facts of one Alhambra (see the module text). Change it only through
    :meth:`placed` and :meth:`removed` (the Alhambra calls them).

    ``front`` also keeps the entries of occupied cells (what their neighbours show towards
    them): a freed cell then has its entry at hand, and a change needs no look-up of which
    cells around are occupied. Readers look at the entries of empty cells only.
    """

    __slots__ = ("enclosed", "front", "masks", "reach", "spare")

    def __init__(self) -> None:
        self.masks: dict[Coord, int] = {}
        self.front: dict[tuple[int, int], int] = {}
        self.reach: set[Coord] | None = None
        self.enclosed: set[Coord] = set()
        # the last :meth:`walk_without` (the cell, the walk) while no mask has changed since
        self.spare: tuple[Coord, set[Coord]] | None = None

    def copy(self) -> Geometry:
        other = Geometry.__new__(Geometry)
        other.masks = dict(self.masks)
        other.front = dict(self.front)
        other.reach = None if self.reach is None else set(self.reach)
        other.enclosed = set(self.enclosed)
        other.spare = None
        return other

    def walk_without(self, at: Coord) -> set[Coord]:
        """``walk(self.masks, skip=at)``: the tiles reachable on foot once the tile on ``at``
        is gone. Kept until a mask changes: the removal that usually follows the question
        (:meth:`removed`) takes it instead of walking again."""
        after = walk(self.masks, skip=at)
        self.spare = (at, after)
        return after

    def reaches(self, c: tuple[int, int]) -> bool:
        """Whether the tile on ``c`` is reachable on foot (``c`` must be occupied)."""
        return self.reach is None or c in self.reach

    def steps(self, at: tuple[int, int], m: int) -> int:
        """The sides of ``at`` a piece with walls ``m`` could walk through: the neighbour is
        there and both sides are open."""
        return (self.front.get(at, 0) >> 12) & ~m & 15

    def _add_front(self, at: Coord, m: int) -> None:
        """The entries of the 8 cells around ``at`` take what a piece with walls ``m`` on it
        adds: for each ring cell ``c`` (``RING``, in its order), ``front[c] = front.get(c, 0)
        | add``. Written out cell by cell (a placement's hottest lines; a loop over RING with
        its unpacking costs about a third more)."""
        front = self.front
        get = front.get
        a0, a1, a2, a3, a4, a5, a6, a7 = _ADD_AROUND[m]
        x, y = at
        west, east, south, north = x - 1, x + 1, y - 1, y + 1
        c = (x, north)
        front[c] = get(c, 0) | a0
        c = (east, north)
        front[c] = get(c, 0) | a1
        c = (east, y)
        front[c] = get(c, 0) | a2
        c = (east, south)
        front[c] = get(c, 0) | a3
        c = (x, south)
        front[c] = get(c, 0) | a4
        c = (west, south)
        front[c] = get(c, 0) | a5
        c = (west, y)
        front[c] = get(c, 0) | a6
        c = (west, north)
        front[c] = get(c, 0) | a7

    def _fill(self, cells: Mapping[Coord, _Walled], at: Coord, m: int) -> int:
        """The empty cell ``at`` now holds a piece with the wall mask ``m`` (``cells`` holds it
        already): its mask, the front of empty cells around it and the enclosed cells follow.
        Returns the front bits ``at`` had while it was empty."""
        self.masks[at] = m
        self.spare = None
        f = self.front.get(at, 0)
        self._add_front(at, m)
        enclosed = self.enclosed
        if enclosed and at in enclosed:
            enclosed.discard(at)  # filling an enclosed cell frees no other
        elif RING_GROUPS[f & 0xFF] > 1:
            # the empty cells around may now be cut off from each other: find out for sure
            self.enclosed = enclosed_cells(cells)
        return f

    def placed(self, cells: Mapping[Coord, _Walled], at: Coord, piece: _Walled) -> None:
        """``piece`` was just put on the empty cell ``at`` (``cells`` holds it already)."""
        m = wall_mask(piece.walls)
        f = self._fill(cells, at, m)
        # reach: the new tile joins when it is open towards an open reachable neighbour
        reach = self.reach
        steps = (f >> 12) & ~m & 15
        if reach is None:
            if not steps:
                self.reach = {c for c in cells if c != at}
            return
        x, y = at
        for k in range(4):
            if steps >> k & 1:
                dx, dy = DELTAS[k]
                if (x + dx, y + dy) in reach:
                    break
        else:
            return  # not reachable: nothing changes
        # the new tile may also open the way to tiles that were cut off
        reach.add(at)
        stack = [at]
        masks = self.masks
        while stack:
            c = stack.pop()
            cx, cy = c
            cm = masks[c]
            for k in range(4):
                if cm >> k & 1:
                    continue
                dx, dy = DELTAS[k]
                t = (cx + dx, cy + dy)
                q = masks.get(t)  # type: ignore[call-overload]
                if q is None or t in reach or q >> ((k + 2) % 4) & 1:
                    continue
                n = _new_coord(Coord, t)
                reach.add(n)
                stack.append(n)
        if len(reach) == len(cells):
            self.reach = None

    def removed(
        self, cells: Mapping[Coord, object], at: Coord, layers: Layers | None = None
    ) -> None:
        """The piece on ``at`` was just taken off (``cells`` no longer holds it; ``layers``: of
        a layered Alhambra, where the way on foot is walked again)."""
        m = self.masks.pop(at)
        spare = self.spare
        self.spare = None
        front = self.front
        x, y = at
        for dx, dy, clear in _CLEAR_AROUND:
            c = (x + dx, y + dy)
            v = front[c] & ~clear
            if v:
                front[c] = v
            else:
                del front[c]
        # the freed cell is outside when an empty side neighbour is; then so is every enclosed
        # area it touches
        enclosed = self.enclosed
        if not enclosed:  # the common case: outside unless every side neighbour is a tile
            if cells.keys() >= {(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)}:  # (in C)
                enclosed.add(at)
        else:
            empty_sides = [
                n for dx, dy in DELTAS if (n := _new_coord(Coord, (x + dx, y + dy))) not in cells
            ]
            if any(c not in enclosed for c in empty_sides):
                for c in empty_sides:
                    if c in enclosed:
                        enclosed -= component(enclosed, c)
            else:
                enclosed.add(at)
        if layers is not None:
            self.rewalk(cells, layers)  # type: ignore[arg-type]
            return
        if self.reach is None:
            steps = self.steps(at, m)
            if BITS[steps] <= 1:
                return  # every tile was reachable, and none through this one (a dead end)
            if ring_keeps(self.masks, at, steps):
                return  # every tile was reachable, and the ways through this one go round it
        # the walk without this tile, when :meth:`walk_without` just asked for it
        after = spare[1] if spare is not None and spare[0] == at else walk(self.masks)
        self.reach = None if len(after) == len(cells) else after

    # ------------------------------------------------------------- a layered Alhambra
    #
    # The same facts for an Alhambra with layers (edges, corners, overlays, special pieces):
    # the masks hold the effective walls (a tile's own and the overlays on it), the way on foot
    # is the one of :func:`~referee.geometry.layers.wall_between`. The common changes (a piece
    # or a tile put down, walls added to a tile, an edge piece put down or taken off; a corner
    # piece changes nothing here) are followed step by step; the Alhambra rebuilds the rest
    # (a piece taken out, a redesign) with :func:`from_scratch`.

    def placed_layered(
        self, cells: Mapping[Coord, _Walled], layers: Layers, new: Iterable[Coord]
    ) -> None:
        """The pieces on the cells ``new`` were just put down on a layered Alhambra (``cells``
        and ``layers`` hold them already, the overlays they carried included)."""
        overlays = layers.overlays
        masks = self.masks
        fresh = []
        for at in new:
            piece = cells[at]
            extra = overlays.get(at)
            self._fill(cells, at, wall_mask(piece.walls | extra if extra else piece.walls))
            fresh.append(at)
        # reach only grows: the edges of the new cells are the only ones that changed
        reach = self.reach
        exempt = _exempt(layers)
        edges = layers.edges
        if reach is None:
            # every tile was reachable: a new one that steps onto an old one is, and opens no
            # way to another (the common case, answered without listing the tiles)
            if len(fresh) == 1 and not exempt:
                at = fresh[0]
                x, y = at
                for k in range(4):
                    dx, dy = DELTAS[k]
                    t = (x + dx, y + dy)
                    if t in masks and t != at and _passable(masks, edges, exempt, at, k, t):
                        return
            reach = {c for c in cells if c not in fresh}
        starts = []
        for at in fresh:
            if at in reach or at in exempt:
                continue
            x, y = at
            for k in range(4):
                dx, dy = DELTAS[k]
                t = (x + dx, y + dy)
                if t in reach and _passable(masks, edges, exempt, at, k, t):
                    reach.add(at)
                    starts.append(at)
                    break
        if starts:
            _grow(masks, edges, exempt, reach, starts)
        self.reach = None if len(reach) == len(cells) else reach

    def walls_added(self, cells: Mapping[Coord, _Walled], layers: Layers, at: Coord) -> None:
        """Walls were just added to the tile on ``at`` (an overlay): its mask, the entries of
        the cells around it, and the way on foot when the tile was reachable."""
        m = wall_mask(cell_walls(cells, layers, at))
        if m == self.masks.get(at):
            return
        self.masks[at] = m
        self.spare = None
        front = self.front
        get = front.get
        x, y = at
        for i, (dx, dy) in enumerate(RING):
            c = (x + dx, y + dy)
            front[c] = (get(c, 0) & ~CLEAR[i]) | ADD[i][m]
        if self.reaches(at):  # a wall more can only cut ways, and only ways through ``at``
            self.rewalk(cells, layers)

    def edge_changed(
        self, cells: Mapping[Coord, _Walled], layers: Layers, at: Coord, side: Side, before: bool
    ) -> None:
        """An edge piece was put on or taken off the edge of ``at`` towards ``side``; ``before``:
        whether one could walk across that edge before."""
        if wall_between(cells, layers, at, side).passable == before:
            return
        if before:  # a way closed
            self.rewalk(cells, layers)
            return
        other = at.neighbour(side)  # a way opened: the walk grows from the side it reached
        reach = self.reach
        if reach is None:
            return
        if (at in reach) != (other in reach):
            start = other if at in reach else at
            reach.add(start)
            _grow(self.masks, layers.edges, _exempt(layers), reach, [start])
            if len(reach) == len(cells):
                self.reach = None

    def rewalk(self, cells: Mapping[Coord, _Walled], layers: Layers) -> None:
        """The way on foot walked again from the fountain (the rest is kept)."""
        reach = walk_kept(self.masks, layers)
        self.reach = None if len(reach) == len(cells) else reach


# ------------------------------------------------- the way on foot read off the kept masks

# per side k: where the canonical key of the edge on side k of x,y lies (the cell's offset and
# the side, north or east: as :func:`~referee.geometry.layers.edge_key`)
_EDGE_AT: tuple[tuple[int, int, Side], ...] = tuple(
    (0, 0, s) if s in (Side.N, Side.E) else (s.delta[0], s.delta[1], s.opposite) for s in SIDES
)
_NO_CELLS: frozenset[Coord] = frozenset()


def _exempt(layers: Layers) -> frozenset[Coord] | set[Coord]:
    """The cells of pieces the walk rule does not apply to (nobody walks onto or across them,
    ``walk_exempt``); only a special piece can be one."""
    special = layers.special
    if not special:
        return _NO_CELLS
    return {c for c, p in special.items() if profile_of(p).walk_exempt}


def _passable(
    masks: Mapping[Coord, int],
    edges: Mapping[Any, object],
    exempt: frozenset[Coord] | set[Coord],
    c: tuple[int, int],
    k: int,
    t: tuple[int, int],
) -> bool:
    """Whether one walks from the tile on ``c`` to the cell ``t`` beside it on side ``k``:
    :func:`~referee.geometry.layers.wall_between`'s ``passable``, read off the masks (the
    effective walls), the edge pieces and the exempt cells."""
    q = masks.get(t)  # type: ignore[call-overload]
    if q is None or t in exempt:
        return False
    walled = masks[c] >> k & 1 or q >> ((k + 2) % 4) & 1  # type: ignore[index]
    if edges:
        dx, dy, side = _EDGE_AT[k]
        piece = edges.get((_new_coord(Coord, (c[0] + dx, c[1] + dy)), side))
        if piece is not None:
            if getattr(piece, "adds_wall", False):
                walled = 1
            return not walled or bool(getattr(piece, "opens", False))
    return not walled


def _grow(
    masks: Mapping[Coord, int],
    edges: Mapping[Any, object],
    exempt: frozenset[Coord] | set[Coord],
    reach: set[Coord],
    stack: list[Coord],
) -> None:
    """Add every cell reachable on foot from the cells on ``stack`` (each in ``reach``
    already) to ``reach``."""
    get = masks.get
    while stack:
        c = stack.pop()
        x, y = c
        m = masks[c]
        for k in range(4):
            dx, dy = DELTAS[k]
            t = (x + dx, y + dy)
            if t in reach:
                continue
            q = get(t)  # type: ignore[call-overload]
            if q is None or t in exempt:
                continue
            walled = m >> k & 1 or q >> ((k + 2) % 4) & 1
            if edges:
                ex, ey, side = _EDGE_AT[k]
                piece = edges.get((_new_coord(Coord, (x + ex, y + ey)), side))
                if piece is not None:
                    if getattr(piece, "adds_wall", False):
                        walled = 1
                    if walled and not getattr(piece, "opens", False):
                        continue
                elif walled:
                    continue
            elif walled:
                continue
            n = _new_coord(Coord, t)
            reach.add(n)
            stack.append(n)


def walk_kept(masks: Mapping[Coord, int], layers: Layers) -> set[Coord]:
    """:func:`walk_layered` read off the kept wall masks (the effective walls of every cell),
    the edge pieces and the exempt cells: the same cells, without asking
    :func:`~referee.geometry.layers.wall_between` side by side."""
    reach = {ORIGIN}
    _grow(masks, layers.edges, _exempt(layers), reach, [ORIGIN])
    return reach


def from_scratch(cells: Mapping[Coord, _Walled], layers: Layers | None = None) -> Geometry:
    """The geometry of ``cells`` computed from the cells alone (and the layers: the masks are
    the effective walls, the way on foot is :func:`~referee.geometry.layers.wall_between`'s)."""
    geo = Geometry()
    if layers is not None:
        overlays = layers.overlays
        for at, piece in cells.items():
            extra = overlays.get(at)
            geo.masks[at] = wall_mask(piece.walls | extra if extra else piece.walls)
    else:
        for at, piece in cells.items():
            geo.masks[at] = wall_mask(piece.walls)
    for at, m in geo.masks.items():
        geo._add_front(at, m)
    reach = walk(geo.masks) if layers is None else walk_kept(geo.masks, layers)
    geo.reach = None if len(reach) == len(cells) else reach
    geo.enclosed = enclosed_cells(cells)
    return geo
