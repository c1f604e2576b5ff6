"""The geometry queries' fast paths on an unlayered Alhambra (referee/geometry/queries.py) are
equal to their general paths.

On an unlayered Alhambra the queries read the kept geometry (``Alhambra.geometry``: wall masks and
front entries) instead of asking the one effective-walls function side by side; the general path
stays for layered Alhambras. Here both are asked on random grids (walls drawn per tile, so two
tiles side by side need not agree about the wall between them; the geometry kept through places
and removals), and on one layered grid the public query must take the general path.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra
from referee.geometry.queries import (
    _double_walls_general,
    _rest_longest,
    _sorted,
    _walked_general,
    _walked_plain,
    distances,
    double_walls,
    farthest_building,
    second_longest_wall,
)
from referee.geometry.walls import WallMode, WallRun, outer_segments, wall_runs
from referee.record.model import Coord


@dataclass(frozen=True)
class P:
    type: BuildingType | None
    walls: frozenset[Side]


CELLS = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=24)
TYPES = list(BuildingType)


def _grid(cells: list[tuple[int, int]], seed: int, drop: int) -> Alhambra:
    """Tiles with walls drawn from ``seed`` on ``cells``; every ``drop``-th placed tile is taken
    away again (so the kept geometry has gone through removals too)."""
    alh = Alhambra()
    placed: list[Coord] = []
    for i, (x, y) in enumerate(cells):
        c = Coord(x, y)
        if c == Coord(0, 0) or c in alh.cells:
            continue
        walls = frozenset(s for k, s in enumerate(Side) if (seed >> ((i * 4 + k) % 30)) & 1)
        alh.place(c, P(TYPES[(seed + i) % 6], walls))
        placed.append(c)
    if drop:
        for c in placed[::drop]:
            alh.remove(c)
    return alh


def _second_general(alh: Alhambra, mode: WallMode, how: str) -> WallRun:
    """:func:`second_longest_wall` without its shortcut (the steps as first written)."""
    segments = outer_segments(alh)
    found = wall_runs(segments, mode)
    if not found:
        return WallRun(())
    if how == "piece":
        return found[1] if len(found) > 1 else WallRun(())
    return _rest_longest(segments, found[0], mode)


@settings(max_examples=150, deadline=None)
@given(CELLS, st.integers(0, 2**30), st.integers(0, 4))
def test_fast_paths_equal_the_general_ones(
    cells: list[tuple[int, int]], seed: int, drop: int
) -> None:
    alh = _grid(cells, seed, drop)
    assert not alh.layered
    assert double_walls(alh) == _double_walls_general(alh)
    walked = _walked_plain(alh.geometry)
    assert list(walked.items()) == list(_walked_general(alh, True).items())
    # the ways: each from the fountain by its parents (the walk as written before)
    for target, way in distances(alh).items():
        back: list[Coord] = []
        cur: Coord | None = target
        while cur is not None:
            back.append(cur)
            cur = walked[cur]
        assert way == tuple(reversed(back))
    assert farthest_building(alh) == farthest_building(alh, on_foot=True)
    modes: tuple[WallMode, ...] = ("trail", "simple-path")
    for mode in modes:
        assert second_longest_wall(alh, mode, "rest") == _second_general(alh, mode, "rest")
        assert second_longest_wall(alh, mode, "piece") == _second_general(alh, mode, "piece")


def test_a_layered_alhambra_takes_the_general_path() -> None:
    """An overlay adds a wall the tiles do not show: only the general path sees it."""
    alh = Alhambra()
    alh.place(Coord(1, 0), P(BuildingType("P"), frozenset()))
    alh.place(Coord(2, 0), P(BuildingType("S"), frozenset()))
    assert double_walls(alh) == []
    alh.add_overlay(Coord(1, 0), frozenset({Side.E}))
    assert alh.layered
    assert double_walls(alh) == _double_walls_general(alh) == [(Coord(1, 0), Side.E)]
    assert Coord(2, 0) not in distances(alh)  # the added wall bars the way


@given(st.sets(st.tuples(st.integers(-5, 5), st.integers(-5, 5))))
def test_reading_order_is_the_key_sort(cells: set[tuple[int, int]]) -> None:
    coords = [Coord(x, y) for x, y in cells]
    assert _sorted(coords) == sorted(coords, key=lambda c: (-c.y, c.x))
