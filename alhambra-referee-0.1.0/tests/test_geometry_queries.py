"""The read-only geometry queries (referee/geometry/queries.py) on hand-built layouts.

Layouts are drawn as text, north at the top: each cell is two characters, a building type code
(P S A C G T) or ``F`` for the fountain (always at 0,0) or ``..`` for an empty cell, followed by
a mark: ``|`` a wall on the cell's east side, ``_`` a wall on its south side, ``+`` both, a space
for none. The building rules are not checked here (queries are read-only on any grid).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side
from referee.geometry import FOUNTAIN, Alhambra
from referee.geometry.queries import (
    blocks_2x2,
    building_types,
    disjoint_pairs,
    distances,
    double_walls,
    farthest_building,
    groups,
    lines_with_run,
    longest_diagonal,
    most_types_in_a_line,
    neighbours8,
    runs,
    same_type_pairs,
    second_longest_wall,
)
from referee.record.model import Coord


@dataclass(frozen=True)
class P:
    type: BuildingType | None
    walls: frozenset[Side]


def layout(text: str, fountain: tuple[int, int]) -> Alhambra:
    """A grid from the drawing; ``fountain`` = (column, row) of ``F`` in the drawing."""
    rows = [r for r in text.strip("\n").splitlines()]
    fx, fy = fountain
    walls: dict[Coord, set[Side]] = {}
    kinds: dict[Coord, str] = {}
    for j, row in enumerate(rows):
        for i in range(0, len(row), 2):
            ch, mark = row[i], (row[i + 1] if i + 1 < len(row) else " ")
            if ch == ".":
                continue
            c = Coord(i // 2 - fx, fy - j)
            kinds[c] = ch
            w = walls.setdefault(c, set())
            if mark in "|+":
                w.add(Side.E)
            if mark in "_+":
                w.add(Side.S)
    # a wall is shown by both tiles: mirror onto the neighbours
    for c, w in list(walls.items()):
        for side in list(w):
            nb = c.neighbour(side)
            if nb in walls:
                walls[nb].add(side.opposite)
    alh = Alhambra()
    for c, ch in kinds.items():
        if ch == "F":
            assert c == Coord(0, 0)
            continue
        alh.place(c, P(BuildingType(ch), frozenset(walls[c])))
    return alh


L1 = """
G G G ..T
P F A A A
..C ..C ..
"""  # fountain at column 1, row 1


def test_runs_rows_and_columns_of_three() -> None:
    alh = layout(L1, (1, 1))
    rows = lines_with_run(alh, "row")
    # row y=1: P F A A A -> the fountain is no building: the run A A A (x 1..3)
    assert list(rows) == [1, 0]
    assert [str(r) for r in rows[1]] == ["-1,1..1,1"]
    assert [str(r) for r in rows[0]] == ["1,0..3,0"]
    assert lines_with_run(alh, "column") == {}
    assert [r.length for r in runs(alh, "row")] == [3, 1, 1, 3, 1, 1]


def test_a_row_with_two_runs_of_three_lists_both() -> None:
    alh = layout("G G G ..T T T \n......F ......\n", (3, 1))
    rows = lines_with_run(alh, "row")
    assert list(rows) == [1] and len(rows[1]) == 2


def test_double_walls_do_not_break_a_run_but_are_counted() -> None:
    alh = layout("G|G G \nP F ..\n", (1, 1))
    assert lines_with_run(alh, "row")[1][0].length == 3
    assert double_walls(alh) == [(Coord(-1, 1), Side.E)]


def test_same_type_pairs_every_pair_and_disjoint() -> None:
    alh = layout("G G G \n..F ..\n", (1, 1))
    pairs = same_type_pairs(alh)
    assert pairs == [(Coord(-1, 1), Coord(0, 1)), (Coord(0, 1), Coord(1, 1))]
    assert len(disjoint_pairs(pairs)) == 1
    square = layout("G G ..\nG G ..\n..F ..\n", (1, 2))
    assert len(same_type_pairs(square)) == 4
    assert len(disjoint_pairs(same_type_pairs(square))) == 2


def test_pairs_of_different_types_or_diagonal_do_not_count() -> None:
    alh = layout("G ..\n..G \nF ..\n", (0, 2))
    assert same_type_pairs(alh) == []
    alh = layout("G T \nF ..\n", (0, 1))
    assert same_type_pairs(alh) == []


def test_blocks_2x2_overlap_and_exclude_the_fountain() -> None:
    alh = layout("G G G \nA A A \n..F ..\n", (1, 2))
    assert blocks_2x2(alh) == [Coord(-1, 1), Coord(0, 1)]  # two overlapping blocks
    with_fountain = layout("G G \nF A \n", (0, 1))
    assert blocks_2x2(with_fountain) == []


def test_longest_diagonal_may_run_through_the_fountain() -> None:
    alh = layout("....G \n..G ..\nF ....\n", (0, 2))
    d = longest_diagonal(alh)
    assert d is not None and d.length == 3 and d.cells[0] == Coord(0, 0)
    alh = layout("G ......\n..G ....\n....F ..\n......G \n", (2, 2))
    d = longest_diagonal(alh)
    assert d is not None and d.length == 4 and d.direction == "se"


def test_second_longest_wall() -> None:
    # a north wall of 3 over row y=1 and a lone south wall of 1 under 1,0: two pieces of wall
    alh = Alhambra()
    north = frozenset({Side.N})
    for x in (-1, 0, 1):
        alh.place(Coord(x, 1), P(BuildingType.GARDEN, north))
    alh.place(Coord(1, 0), P(BuildingType.TOWER, frozenset({Side.S})))
    assert second_longest_wall(alh).length == 1
    assert second_longest_wall(alh, how="piece").length == 1
    alh.remove(Coord(1, 0))
    assert second_longest_wall(alh).length == 0  # only one run


def test_second_longest_wall_of_one_branching_piece() -> None:
    # four outer walls meet at the corner 2,1 (cells 1,1 and 2,0 touch there, 2,1 and 1,0 are
    # empty): one piece of wall, a star of four arms. The longest run is 2, the other 2 are the
    # rest ("rest"); "piece" finds no other piece of wall.
    alh = Alhambra()
    alh.place(Coord(0, 1), P(BuildingType.GARDEN, frozenset()))
    alh.place(Coord(1, 1), P(BuildingType.GARDEN, frozenset({Side.E, Side.S})))
    for c in (Coord(0, -1), Coord(1, -1), Coord(2, -1)):
        alh.place(c, P(BuildingType.TOWER, frozenset()))
    alh.place(Coord(2, 0), P(BuildingType.TOWER, frozenset({Side.N, Side.W})))
    assert second_longest_wall(alh, "simple-path", how="piece").length == 0
    assert second_longest_wall(alh, "simple-path", how="rest").length == 2
    assert second_longest_wall(alh, "trail", how="rest").length == 2  # a star: 2 of its 4 arms


def test_shortest_way_to_the_farthest_building_on_foot_and_over_walls() -> None:
    # G G      a wall between 0,1 and 1,1 forces the walker round by 0,1 -> -1,1? no: by 1,0
    # F|A      the fountain shows no wall, the arcade shows one on its west side
    alh = Alhambra()
    alh.place(Coord(1, 0), P(BuildingType.ARCADES, frozenset({Side.W})))
    alh.place(Coord(0, 1), P(BuildingType.GARDEN, frozenset()))
    alh.place(Coord(1, 1), P(BuildingType.GARDEN, frozenset()))
    ways = distances(alh)
    assert ways[Coord(1, 0)] == (Coord(0, 0), Coord(0, 1), Coord(1, 1), Coord(1, 0))
    assert farthest_building(alh) == ways[Coord(1, 0)]
    assert len(farthest_building(alh, on_foot=False)) == 3  # 0,0 -> 0,1 -> 1,1 (first of two)


def test_types_groups_and_neighbours() -> None:
    alh = layout(L1, (1, 1))
    assert building_types(alh) == {
        BuildingType.GARDEN,
        BuildingType.TOWER,
        BuildingType.PAVILION,
        BuildingType.ARCADES,
        BuildingType.CHAMBERS,
    }
    n, run = most_types_in_a_line(alh)
    assert n == 2 and run is not None
    assert [len(g) for g in groups(alh)] == [9, 1]  # the chambers at 0,-1 touch only the fountain
    assert len(neighbours8(Coord(0, 0))) == 8


def test_queries_leave_the_alhambra_unchanged() -> None:
    alh = layout(L1, (1, 1))
    before = dict(alh.cells)
    for q in (same_type_pairs, double_walls, blocks_2x2, farthest_building, second_longest_wall):
        q(alh)  # type: ignore[operator]
    assert dict(alh.cells) == before
    assert alh.get(Coord(0, 0)) == FOUNTAIN


# ------------------------------------------------------------------ properties (random grids)


CELLS = st.sets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=20)
TYPES = list(BuildingType)


def _grid(cells: set[tuple[int, int]], seed: int) -> Alhambra:
    alh = Alhambra()
    for i, (x, y) in enumerate(sorted(cells)):
        if (x, y) == (0, 0):
            continue
        walls = frozenset(s for k, s in enumerate(Side) if (seed >> ((i * 4 + k) % 30)) & 1)
        alh.place(Coord(x, y), P(TYPES[(seed + i) % 6], walls))
    return alh


@settings(max_examples=60, deadline=None)
@given(CELLS, st.integers(0, 2**30))
def test_queries_agree_with_brute_force(cells: set[tuple[int, int]], seed: int) -> None:
    alh = _grid(cells, seed)
    grid = alh.cells
    b = {c for c, p in grid.items() if c != Coord(0, 0)}
    # 2x2 blocks: every window of four buildings
    brute = [
        Coord(x, y)
        for x in range(-4, 4)
        for y in range(-4, 4)
        if {Coord(x, y), Coord(x + 1, y), Coord(x, y + 1), Coord(x + 1, y + 1)} <= b
    ]
    assert sorted(blocks_2x2(alh)) == sorted(brute)
    # pairs: side by side and of one type; disjoint pairs share no cell and are no more
    pairs = same_type_pairs(alh)
    for a, c in pairs:
        assert abs(a.x - c.x) + abs(a.y - c.y) == 1 and grid[a].type is grid[c].type
    chosen = disjoint_pairs(pairs)
    used = [c for p in chosen for c in p]
    assert len(used) == len(set(used)) and len(chosen) <= len(pairs)
    assert bool(chosen) == bool(pairs)
    # ways on foot: each step to a side neighbour, never across a wall; shortest (BFS layers)
    for target, way in distances(alh).items():
        assert way[0] == Coord(0, 0) and way[-1] == target
        for a, c in itertools.pairwise(way):
            side = next(s for s in Side if a.neighbour(s) == c)
            assert side not in grid[a].walls and side.opposite not in grid[c].walls
    grid_ways = distances(alh, on_foot=False)
    assert all(len(grid_ways[c]) <= len(w) for c, w in distances(alh).items())
    # runs: every cell of a row run is a building, and runs of one row do not touch
    for run in runs(alh, "row"):
        assert set(run.cells) <= b
        assert Coord(run.cells[-1].x + 1, run.cells[-1].y) not in b
    # double walls lie between two pieces
    for c, side in double_walls(alh):
        assert c in grid and c.neighbour(side) in grid
