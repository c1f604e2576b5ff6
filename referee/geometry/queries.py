"""Read-only geometric queries on an Alhambra, for scoring lines of modules.

Nothing here changes an Alhambra or checks a building rule; every function takes the grid (and
what counts as a "building" for the question, ``member``) and returns plain data. The first user
is *Die Wünsche des Kalifen* (``referee/modules/wuensche.py``: rows and columns of three,
same-type pairs, double walls, 2×2 blocks, the longest diagonal, the second-longest wall, the
shortest way to the farthest building); the queries are written for any module.

Coordinates: x grows east, y grows north; the fountain is ``0,0``. A *run* is a gapless sequence
of cells along a line (a row, a column or a diagonal) whose pieces all satisfy ``member``.
Unless a query says otherwise, ``member`` defaults to :func:`is_building`: a piece with a
building type (the fountain and pieces without a type, e.g. squares, are no buildings).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from referee.catalogue import SIDES, BuildingType, Side, TileKind
from referee.geometry.grid import ORIGIN, Alhambra, Piece
from referee.geometry.incremental import DELTAS, Geometry, _new_coord
from referee.geometry.layers import cell_walls, wall_between
from referee.geometry.walls import (
    Segment,
    WallMode,
    WallRun,
    outer_runs_top,
    outer_segments,
    wall_runs,
)
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

Member = Callable[[Coord, Piece], bool]
Axis: TypeAlias = 'Literal["row", "column"]'
Diagonal: TypeAlias = (
    'Literal["ne", "se"]'  # towards north-east (x+1, y+1) or south-east (x+1, y-1)
)

_STEP: dict[str, tuple[int, int]] = {"row": (1, 0), "column": (0, 1), "ne": (1, 1), "se": (1, -1)}


def any_piece_or_fountain(at: Coord, piece: Piece) -> bool:
    """Every piece that occupies a cell (for rays: the start tile and squares count)."""
    return True


def is_building(at: Coord, piece: Piece) -> bool:
    """A building: a piece with a building type, never the fountain."""
    return at != ORIGIN and piece.type is not None


def building_or_fountain(at: Coord, piece: Piece) -> bool:
    """A building, or the fountain (for questions that let the fountain take part)."""
    return at == ORIGIN or piece.type is not None


def standard_building(at: Coord, piece: Piece) -> bool:
    """A standard building: one of the base game's building tiles (a catalogue tile, no
    module piece), never the fountain."""
    return at != ORIGIN and isinstance(piece, TileKind)


def _cells(alh: Alhambra, member: Member) -> set[Coord]:
    """The cells whose pieces are ``member``s. The three members of this module most asked (the
    tasks of Die Wünsche at the end of every game) are tested inline, each with its own test
    in its own order: the same set without a call per cell (issue 34)."""
    if member is is_building:
        return {c for c, p in alh.cells.items() if c != ORIGIN and p.type is not None}
    if member is building_or_fountain:
        return {c for c, p in alh.cells.items() if c == ORIGIN or p.type is not None}
    if member is standard_building:
        return {c for c, p in alh.cells.items() if c != ORIGIN and isinstance(p, TileKind)}
    return {c for c, p in alh.cells.items() if member(c, p)}


def _sorted(cells: Iterable[Coord]) -> list[Coord]:
    """Reading order: north first, then west to east (``key=lambda c: (-c.y, c.x)``, made of two
    sorts in C: by x first, then by y from north to south, a stable sort keeping the x order)."""
    return sorted(sorted(cells), key=_Y, reverse=True)


_Y = itemgetter(1)


def _plain(alh: Alhambra) -> Geometry | None:
    """The kept geometry of an unlayered Alhambra (``Alhambra.geometry``), None on a layered one.

    On an unlayered Alhambra every piece is plain (a piece with a rule profile, a two-cell or a
    half piece makes a layer), so :func:`~referee.geometry.layers.wall_between` reduces to the
    two pieces' own walls, which the kept masks hold: a wall lies between two tiles side by side
    when either shows one, and one can walk across when neither does. The fast paths below read
    the masks and the kept ``front`` entries (an occupied cell keeps its entry too: its side
    neighbours and which of them are open towards it), as ``geometry/rules.py`` does; the general
    path stays for a layered Alhambra (tests/test_geometry_queries_plain.py holds the two equal).
    """
    return None if alh.layered else alh.geometry


# ------------------------------------------------------------------------------ lines


@dataclass(frozen=True, slots=True)
class Run:
    """A gapless run of cells along a line (``direction``: row, column, ne, se), west first
    (for a column: south first)."""

    direction: str
    cells: tuple[Coord, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def line(self) -> int:
        """Which line the run lies on: a row's y, a column's x, a diagonal's x-y or x+y."""
        c = self.cells[0]
        return {"row": c.y, "column": c.x, "ne": c.x - c.y, "se": c.x + c.y}[self.direction]

    def __str__(self) -> str:
        return f"{self.cells[0]}..{self.cells[-1]}"


def runs(alh: Alhambra, direction: str, member: Member = is_building) -> list[Run]:
    """Every maximal run of member cells along ``direction`` (``row``, ``column``, ``ne``,
    ``se``), single cells included, in reading order of their first cell."""
    return [Run(direction, cells) for cells in _runs(_cells(alh, member), direction)]


def _runs(
    cells: set[Coord], direction: str, at_least: int = 1, ordered: list[Coord] | None = None
) -> list[tuple[Coord, ...]]:
    """The cells of :func:`runs` of the member ``cells`` (in reading order, ``ordered`` when
    given): only the runs of ``at_least`` cells, without a :class:`Run` made for each (most
    runs are single cells, and the tasks ask for the long ones)."""
    dx, dy = _STEP[direction]
    found: list[tuple[Coord, ...]] = []
    if ordered is None and at_least > 1:
        # a run of ``at_least`` cells holds the cell ``at_least - 1`` steps on from its first:
        # only the cells with a member there can start one (the rest left out before the sort;
        # the runs are walked in ``cells`` as before)
        kx, ky = dx * (at_least - 1), dy * (at_least - 1)
        ordered = _sorted([c for c in cells if (c[0] + kx, c[1] + ky) in cells])
    for c in _sorted(cells) if ordered is None else ordered:
        x, y = c
        if (x - dx, y - dy) in cells:  # a Coord is a tuple: the same hash and equality
            continue  # not the start of a run
        x += dx
        y += dy
        if (x, y) not in cells:  # a single cell
            if at_least <= 1:
                found.append((c,))
            continue
        run = [c]
        while (x, y) in cells:
            run.append(_new_coord(Coord, (x, y)))
            x += dx
            y += dy
        if len(run) >= at_least:
            found.append(tuple(run))
    return found


def lines_with_run(
    alh: Alhambra, axis: Axis, at_least: int = 3, member: Member = is_building
) -> dict[int, list[Run]]:
    """The rows (y) or columns (x) holding at least one run of ``at_least`` member cells, with
    those runs. A wall between two cells does not break a run (the question is about cells)."""
    out: dict[int, list[Run]] = {}
    for cells in _runs(_cells(alh, member), axis, at_least):
        run = Run(axis, cells)
        out.setdefault(run.line, []).append(run)
    return dict(sorted(out.items(), key=lambda kv: -kv[0] if axis == "row" else kv[0]))


def longest_diagonal(alh: Alhambra, member: Member = building_or_fountain) -> Run | None:
    """The longest gapless diagonal run (cells touching at corners, either direction); on a tie
    the first in reading order, north-east runs before south-east ones. None: no cell."""
    mine = _cells(alh, member)
    ordered = _sorted(mine)  # (one reading order for both directions)
    best: tuple[Coord, ...] = ()
    best_direction = ""
    n = 0  # the length of the longest run so far
    for direction in ("ne", "se"):
        dx, dy = _STEP[direction]
        ndx, ndy = n * dx, n * dy  # (n steps on: worked out when n changes, not a cell)
        for c in ordered:
            # (_runs' walk: only a run longer than the longest so far is kept, and such a run
            # holds the cell ``n`` steps on from its first: a cell without it is passed over)
            x, y = c
            if n and (x + ndx, y + ndy) not in mine:
                continue
            if (x - dx, y - dy) in mine:
                continue  # not the start of a run
            run = [c]
            x += dx
            y += dy
            while (x, y) in mine:
                run.append(_new_coord(Coord, (x, y)))
                x += dx
                y += dy
            if len(run) > n:
                best, best_direction, n = tuple(run), direction, len(run)
                ndx, ndy = n * dx, n * dy
    return Run(best_direction, best) if best else None


# ------------------------------------------------------------------------------ pairs


def _neighbours(c: Coord) -> list[tuple[Side, Coord]]:
    return [(s, c.neighbour(s)) for s in SIDES]


def same_type_pairs(alh: Alhambra, member: Member = is_building) -> list[tuple[Coord, Coord]]:
    """Every pair of side-by-side member pieces of the same building type (a wall between them
    does not matter), each pair once, the western/southern cell first."""
    cells = alh.cells
    mine = _cells(alh, member)
    out: list[tuple[Coord, Coord]] = []
    for c in _sorted(mine):
        kind = cells[c].type
        x, y = c
        # the neighbour to the east, then to the north (Side.E, Side.N): a member there is one
        # of ``mine`` (each piece asked once, above; a Coord is a tuple)
        east = (x + 1, y)
        if east in mine and cells[east].type is kind:
            out.append((c, _new_coord(Coord, east)))
        north = (x, y + 1)
        if north in mine and cells[north].type is kind:
            out.append((c, _new_coord(Coord, north)))
    return out


def disjoint_pairs(pairs: list[tuple[Coord, Coord]]) -> list[tuple[Coord, Coord]]:
    """As many of ``pairs`` as possible with no cell in two of them (a maximum matching; the
    grid is bipartite by the parity of x+y, so augmenting paths find it)."""
    left: dict[Coord, list[Coord]] = {}
    for a, b in pairs:
        even, odd = (a, b) if (a.x + a.y) % 2 == 0 else (b, a)
        left.setdefault(even, []).append(odd)
    match: dict[Coord, Coord] = {}  # odd cell -> its even partner

    def augment(u: Coord, seen: set[Coord]) -> bool:
        for v in left[u]:
            if v in seen:
                continue
            seen.add(v)
            if v not in match or augment(match[v], seen):
                match[v] = u
                return True
        return False

    for u in _sorted(left):
        augment(u, set())
    chosen = [(u, v) for v, u in match.items()]
    return sorted(
        (tuple(sorted(p, key=lambda c: (c.x, c.y))) for p in chosen),  # type: ignore[misc]
        key=lambda p: (-p[0].y, p[0].x),
    )


def double_walls(alh: Alhambra) -> list[Segment]:
    """Every tile edge between two pieces that shows a wall (on either piece: by the building
    rules both show one), each once as ``(cell, E)`` or ``(cell, N)``."""
    geo = _plain(alh)
    if geo is not None:  # the same, read off the kept geometry (see _plain)
        out: list[Segment] = []
        masks = geo.masks
        front = geo.front
        for c in _sorted(masks):
            # the sides (4-bit mask, bit k: SIDES[k]) where a tile lies beside ``c`` behind a
            # wall: the side neighbours there (ring bits 0, 2, 4, 6 of its front entry) less
            # those one can walk to (geo.steps(c, masks[c]), inline: no call a cell)
            f = front.get(c, 0)
            beside = (f & 1) | (f >> 1 & 2) | (f >> 2 & 4) | (f >> 3 & 8)
            closed = beside & ~((f >> 12) & ~masks[c] & 15)
            if closed & 2:
                out.append((c, Side.E))
            if closed & 1:
                out.append((c, Side.N))
        return out
    return _double_walls_general(alh)


def _double_walls_general(alh: Alhambra) -> list[Segment]:
    """:func:`double_walls` through the one effective-walls function (any Alhambra)."""
    cells = alh.cells
    out: list[Segment] = []
    for c in _sorted(cells):
        for side in (Side.E, Side.N):
            if c.neighbour(side) in cells and _wall(alh, c, side):
                out.append((c, side))
    return out


def blocks_2x2(alh: Alhambra, member: Member = is_building) -> list[Coord]:
    """Every 2×2 square of member cells, named by its south-west cell; blocks may overlap (a
    cell can be in up to four)."""
    cells = _cells(alh, member)
    return [
        c
        for c in _sorted(cells)
        if (c[0] + 1, c[1]) in cells  # a Coord is a tuple: the same hash and equality
        and (c[0], c[1] + 1) in cells
        and (c[0] + 1, c[1] + 1) in cells
    ]


def neighbours8(c: Coord) -> list[Coord]:
    """The eight cells around ``c`` (sides and corners), clockwise from north."""
    x, y = c
    return [
        _new_coord(Coord, (x + dx, y + dy))
        for dx, dy in ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
    ]


def groups(
    alh: Alhambra, member: Member = is_building, walls_separate: bool = False
) -> list[list[Coord]]:
    """Connected groups of member cells (side by side; ``walls_separate``: not across a wall),
    largest first, each in reading order."""
    mine = _cells(alh, member)
    seen: set[Coord] = set()
    out: list[list[Coord]] = []
    for start in _sorted(mine):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [start], [start]
        while todo:
            c = todo.pop()
            for side, nb in _neighbours(c):
                if nb in mine and nb not in seen and not (walls_separate and _wall(alh, c, side)):
                    seen.add(nb)
                    group.append(nb)
                    todo.append(nb)
        out.append(_sorted(group))
    out.sort(key=len, reverse=True)
    return out


# ------------------------------------------------------------------------------ types


def building_types(alh: Alhambra, member: Member = is_building) -> set[BuildingType]:
    """The building types present."""
    if member is is_building:  # (its test inline: no call per cell, as _cells)
        return {p.type for c, p in alh.cells.items() if c != ORIGIN and p.type is not None}
    return {p.type for c, p in alh.cells.items() if member(c, p) and p.type is not None}


def most_types_in_a_line(alh: Alhambra, member: Member = is_building) -> tuple[int, Run | None]:
    """The most building types in one gapless row or column run, and the first such run."""
    cells = alh.cells
    best: tuple[int, Run | None] = (0, None)
    for axis in ("row", "column"):
        for run in runs(alh, axis, member):
            n = len({cells[c].type for c in run.cells})
            if n > best[0]:
                best = (n, run)
    return best


# ------------------------------------------------------------------------------ walls


def ray(
    alh: Alhambra,
    start: Coord,
    side: Side,
    *,
    cross_walls: bool = True,
    member: Member = any_piece_or_fountain,
) -> tuple[Coord, ...]:
    """The straight gapless line of member cells from ``start`` (excluded) towards ``side``,
    until the first cell that is empty or no member; with ``cross_walls`` False also until the
    first wall (read through the one effective-walls function: added walls count, a gate
    opens). Feldlager: "in Richtung des aufgedruckten Pfeiles die Gebäude, die sich in
    gerader lückenloser Linie befinden", "Innen liegende Stadtmauern unterbrechen diese Linie
    nicht" (``cross_walls`` True)."""
    cells = alh.cells
    out: list[Coord] = []
    at = start
    while True:
        if not cross_walls and _barred_or_wall(alh, at, side):
            break
        nxt = at.neighbour(side)
        piece = cells.get(nxt)
        if piece is None or not member(nxt, piece):
            break
        out.append(nxt)
        at = nxt
    return tuple(out)


def _barred_or_wall(alh: Alhambra, c: Coord, side: Side) -> bool:
    facts = wall_between(alh.cells, alh.layers, c, side)
    return facts.wall and not facts.passable


def second_longest_wall(
    alh: Alhambra, mode: WallMode = "trail", how: Literal["rest", "piece"] = "rest"
) -> WallRun:
    """The second-longest outer wall. ``rest``: the longest run of the outer wall left once the
    longest run is taken away (a branch of the same piece of wall may be it); ``piece``: the
    longest run of another connected piece of outer wall. Empty when there is none."""
    # (the two longest runs, the sum of every run's length and the number of segments: counted
    # in one pass where no corner joins three segments, the usual Alhambra, and only the two
    # runs walked in order: walls.outer_runs_top)
    found, total, count = outer_runs_top(alh, mode, 2)
    if not found:
        return WallRun(())
    if how == "piece" or total == count:
        # "piece"; or "rest" where each run is the whole of its piece of wall (the usual
        # case: no corner joins three walls, and trails): taking the longest away leaves
        # the other pieces as they were, so the longest of the rest is the second piece's run
        # (the general step below finds the same: tests/test_geometry_queries_plain.py)
        return found[1] if len(found) > 1 else WallRun(())
    return _rest_longest(outer_segments(alh), found[0], mode)


def _rest_longest(segments: list[Segment], longest: WallRun, mode: WallMode) -> WallRun:
    """The longest run of ``segments`` once the run ``longest`` is taken away (empty: none)."""
    used = set(longest.segments)
    rest = wall_runs([s for s in segments if s not in used], mode)
    return rest[0] if rest else WallRun(())


# ------------------------------------------------------------------------------ paths


def _wall(alh: Alhambra, c: Coord, side: Side) -> bool:
    """Whether a wall lies between ``c`` and its neighbour across ``side`` (the one
    effective-walls function: either piece's walls, added walls, an edge piece's wall)."""
    return wall_between(alh.cells, alh.layers, c, side).wall


def _barred(alh: Alhambra, c: Coord, side: Side) -> bool:
    """Whether a walker cannot step from ``c`` across ``side`` to the tile there (a wall, unless
    an edge piece opens it: a gate)."""
    return not wall_between(alh.cells, alh.layers, c, side).passable


def distances(alh: Alhambra, on_foot: bool = True) -> dict[Coord, tuple[Coord, ...]]:
    """The shortest way from the fountain to every piece it reaches, over pieces side by side
    (``on_foot``: never across a wall, as the base game's walker), as the cells of the way from
    the fountain (included) to the piece. Of equal ways the one first in the order N, E, S, W."""
    cells = alh.cells
    if ORIGIN not in cells:
        return {}
    geo = _plain(alh) if on_foot else None
    parent = _walked_plain(geo) if geo is not None else _walked_general(alh, on_foot)
    # a cell's way is its parent's way and itself (the walk found every parent before its
    # children, so the parent's way is there)
    out: dict[Coord, tuple[Coord, ...]] = {}
    for c, before in parent.items():
        out[c] = (c,) if before is None else (*out[before], c)
    return out


def _walked_general(alh: Alhambra, on_foot: bool) -> dict[Coord, Coord | None]:
    """The breadth-first walk of :func:`distances` through the one effective-walls function:
    each cell reached with the cell it was reached from, in the order reached."""
    cells = alh.cells
    parent: dict[Coord, Coord | None] = {ORIGIN: None}
    todo = deque([ORIGIN])
    while todo:
        c = todo.popleft()
        for side, nb in _neighbours(c):
            if nb in cells and nb not in parent and not (on_foot and _barred(alh, c, side)):
                parent[nb] = c
                todo.append(nb)
    return parent


def _walked_plain(geo: Geometry) -> dict[Coord, Coord | None]:
    """:func:`_walked_general` on foot on an unlayered Alhambra, read off the kept geometry
    (see :func:`_plain`): the sides one can walk across from a tile are ``geo.steps``."""
    masks = geo.masks
    front = geo.front
    parent: dict[Coord, Coord | None] = {ORIGIN: None}
    todo = deque([ORIGIN])
    while todo:
        c = todo.popleft()
        steps = (front.get(c, 0) >> 12) & ~masks[c] & 15  # geo.steps(c, masks[c]), inline
        if not steps:
            continue
        x, y = c
        # the sides in SIDES' order, N, E, S, W (bit k: DELTAS[k], written out: no loop and
        # unpacking a side; a Coord made only for a cell reached first, a Coord being a tuple;
        # ``t`` a name of its own: compiled, a local first holding a plain pair keeps that type,
        # and the Coord stored in it would be unboxed to a plain tuple)
        if steps & 1:
            t = (x, y + 1)
            if t not in parent:
                nb = _new_coord(Coord, t)
                parent[nb] = c
                todo.append(nb)
        if steps & 2:
            t = (x + 1, y)
            if t not in parent:
                nb = _new_coord(Coord, t)
                parent[nb] = c
                todo.append(nb)
        if steps & 4:
            t = (x, y - 1)
            if t not in parent:
                nb = _new_coord(Coord, t)
                parent[nb] = c
                todo.append(nb)
        if steps & 8:
            t = (x - 1, y)
            if t not in parent:
                nb = _new_coord(Coord, t)
                parent[nb] = c
                todo.append(nb)
    return parent


assert DELTAS == ((0, 1), (1, 0), (0, -1), (-1, 0))  # (_walked_plain's sides, written out)


def farthest_building(
    alh: Alhambra, on_foot: bool = True, member: Member = is_building
) -> tuple[Coord, ...]:
    """The shortest way from the fountain to the building farthest from it (by that shortest
    way), fountain first; of equally far buildings the first in reading order. Empty: none."""
    cells = alh.cells
    if ORIGIN not in cells:
        return ()
    geo = _plain(alh) if on_foot else None
    parent = _walked_plain(geo) if geo is not None else _walked_general(alh, on_foot)
    # the length of each cell's way (distances' way, counted: the walk found every parent
    # before its children), then the way of the farthest only
    far: dict[Coord, int] = {}
    for c, before in parent.items():
        far[c] = 1 if before is None else far[before] + 1
    mine = _cells(alh, member)
    best: Coord | None = None
    most = 0
    for c in _sorted(parent):
        if c in mine and far[c] > most:
            best, most = c, far[c]
    way: list[Coord] = []
    at = best
    while at is not None:
        way.append(at)
        at = parent[at]
    return tuple(reversed(way))


# ------------------------------------------------------------------------------ open sides


def any_piece(at: Coord, piece: Piece) -> bool:
    """Every piece that occupies a cell, the fountain (the start tile) included."""
    return True


def open_sides(alh: Alhambra, side: Side, member: Member = any_piece) -> list[Coord]:
    """The member pieces whose ``side`` is open: it faces an empty cell (the edge of the
    Alhambra, also inside a notch) and carries no wall. Pieces are taken as laid (roofs north).
    In the order of :func:`_sorted` (rows from north to south, each west to east)."""
    cells = alh.cells
    out: list[Coord] = []
    for c in _sorted(_cells(alh, member)):
        if c.neighbour(side) in cells:
            continue
        if side not in cell_walls(cells, alh.layers, c):
            out.append(c)
    return out


_SIDE_BIT: dict[Side, int] = {side: 1 << k for k, side in enumerate(SIDES)}  # as wall masks


def open_side_count(alh: Alhambra, side: Side, member: Member | None = None) -> int:
    """``len(open_sides(alh, side, member))`` (``member`` None: every piece) without listing
    and sorting the pieces: Die Angreifer count them for every player at every scoring."""
    cells = alh.cells
    layers = alh.layers
    n = 0
    if layers is None:  # the walls are the pieces' own: read off the kept wall masks
        bit = _SIDE_BIT[side]
        ring = bit * bit  # the side neighbour's ring bit (2k) in the kept front entry
        geo = alh.geometry
        masks = geo.masks  # one per occupied cell
        front = geo.front  # an occupied cell keeps its entry too: its ring bits (see below)
        for c, m in masks.items():
            if m & bit or front.get(c, 0) & ring:
                continue
            if member is None or member(c, cells[c]):
                n += 1
        return n
    dx, dy = side.delta
    for c, piece in cells.items():
        if (c[0] + dx, c[1] + dy) in cells:  # a Coord is a tuple: the same hash and equality
            continue
        if member is not None and not member(c, piece):
            continue
        if side not in cell_walls(cells, layers, c):
            n += 1
    return n


# the sides (bits of a wall mask, ``SIDES`` order) whose neighbour is there, by the side
# neighbours' ring bits of a front entry (``entry & 0x55``: ring bits 0, 2, 4, 6 = N, E, S, W)
_SIDES_AROUND: tuple[int, ...] = tuple(
    sum(1 << k for k in range(4) if ring >> (2 * k) & 1) for ring in range(0x56)
)


def open_side_counts(alh: Alhambra, sides: Sequence[Side]) -> list[int]:
    """``[open_side_count(alh, side) for side in sides]`` (every piece a member) in one walk
    over the occupied cells: a cell's closed sides are its wall mask or'ed with the sides whose
    neighbour is there, read off the cell's own entry in the kept geometry's ``front`` (an
    occupied cell keeps its entry, the ring bits of the cells around it; no entry: none around;
    ``tests/test_geometry_incremental.py`` holds every entry equal to ``from_scratch``'s). One
    side, or a layered Alhambra: :func:`open_side_count`."""
    if len(sides) != 3 or alh.layers is not None:
        return [open_side_count(alh, side) for side in sides]
    b0, b1, b2 = (_SIDE_BIT[side] for side in sides)
    geo = alh.geometry
    front = geo.front
    around = _SIDES_AROUND
    n0 = n1 = n2 = 0
    for c, m in geo.masks.items():
        closed = m | around[front.get(c, 0) & 0x55]
        if not closed & b0:
            n0 += 1
        if not closed & b1:
            n1 += 1
        if not closed & b2:
            n2 += 1
    return [n0, n1, n2]


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
