"""Issue 12, point 1: geometry is bounded by the number of tiles, for any layout.

A tile that does not touch the Alhambra (an x/y slip), later removed or swapped, made the
removal/hole test flood-fill an unbounded plane. Every routine must now finish quickly however
far apart the tiles lie, and give the same verdicts as a plain flood fill inside the bounding box
(the reference below) on every layout, connected or not.
"""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import catalogue
from referee.geometry import (
    ORIGIN,
    REMOVE_HOLE,
    Alhambra,
    holes,
    layout_problems,
    legal_cells,
    longest_outer_wall,
    placement_problems,
    reachable,
    removal_problems,
    swap_problems,
)
from referee.record.model import Coord

TILES = catalogue().tiles
PLAIN = next(t for t in TILES if not t.walls)  # a tile without walls

FAR = 10**9


def _reference_holes(cells: set[Coord]) -> set[Coord]:
    """Enclosed empty cells: a flood fill from the ring around the bounding box."""
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    ring = [Coord(x, y) for x in range(x0, x1 + 1) for y in (y0, y1)]
    ring += [Coord(x, y) for y in range(y0, y1 + 1) for x in (x0, x1)]
    seen = set(ring)
    stack = list(ring)
    while stack:
        c = stack.pop()
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            n = Coord(c.x + dx, c.y + dy)
            if x0 <= n.x <= x1 and y0 <= n.y <= y1 and n not in seen and n not in cells:
                seen.add(n)
                stack.append(n)
    return {
        Coord(x, y)
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
        if Coord(x, y) not in seen and Coord(x, y) not in cells
    }


def _ring(cx: int, cy: int) -> list[Coord]:
    """The 8 cells around ``cx,cy`` (a closed ring: the centre is a hole)."""
    return [Coord(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _alhambra(coords: list[Coord]) -> Alhambra:
    return Alhambra((c, PLAIN) for c in coords if c != ORIGIN)


def test_removing_a_far_disconnected_tile_finishes_and_is_allowed() -> None:
    # point 1: the x/y slip case (T12@5,5 instead of next to the Alhambra), then removed
    for far in (Coord(5, 5), Coord(FAR, 0), Coord(-FAR, FAR)):
        alh = _alhambra([Coord(1, 0), far])
        started = time.process_time()  # CPU time: a hang guard, not a speed test
        assert removal_problems(alh, far) == []
        assert [p.code for p in swap_problems(alh, far, PLAIN)] == ["PLACE-ADJACENT"]
        assert [p.code for p in placement_problems(alh, Coord(far.x + 2, far.y), PLAIN)] == [
            "PLACE-ADJACENT"
        ]
        assert far not in reachable(alh)
        assert holes(alh) == []
        assert [p.code for p in layout_problems(alh)] == ["PLACE-ADJACENT"]
        assert Coord(2, 0) in legal_cells(alh, PLAIN)
        longest_outer_wall(alh)
        assert time.process_time() - started < 1.0


def test_a_hole_far_away_is_found_and_removal_inside_it_is_a_hole() -> None:
    # a closed ring of tiles far from the fountain: its centre is a hole (point 1)
    ring = _ring(FAR, FAR)
    alh = _alhambra([Coord(1, 0), *ring])
    started = time.process_time()  # CPU time: a hang guard, not a speed test
    assert holes(alh) == [(Coord(FAR, FAR),)]
    # removing a ring tile opens the hole: allowed geometry-wise (nothing reachable is lost)
    assert removal_problems(alh, Coord(FAR + 1, FAR)) == []
    # filling the centre: it touches the ring, but cannot be reached on foot from the fountain
    assert [p.code for p in placement_problems(alh, Coord(FAR, FAR), PLAIN)] == ["PLACE-WALK"]
    assert time.process_time() - started < 1.0


def test_removing_the_centre_of_a_far_block_leaves_a_hole() -> None:
    block = [Coord(FAR + dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    alh = _alhambra([Coord(1, 0), *block])
    problems = removal_problems(alh, Coord(FAR, 0))
    assert [p.code for p in problems] == [REMOVE_HOLE]
    assert problems[0].cells == (Coord(FAR, 0),)


coords = st.builds(Coord, st.integers(-6, 6), st.integers(-6, 6))


@settings(max_examples=150, deadline=None)
@given(st.lists(coords, min_size=1, max_size=30, unique=True))
def test_holes_match_the_bounding_box_flood_fill_on_any_layout(cells: list[Coord]) -> None:
    # disconnected and impossible layouts included: the verdict equals the plain reference
    alh = _alhambra(cells)
    occupied = set(alh)
    assert {c for h in holes(alh) for c in h} == _reference_holes(occupied)
    for at in cells:
        if at == ORIGIN:
            continue
        rest = occupied - {at}
        expect_hole = at in _reference_holes(rest)
        got = REMOVE_HOLE in [p.code for p in removal_problems(alh, at)]
        assert got == expect_hole


@settings(max_examples=60, deadline=None)
@given(
    st.lists(coords, min_size=1, max_size=20, unique=True),
    st.integers(-(10**6), 10**6),
    st.integers(-(10**6), 10**6),
)
def test_far_shifted_copies_give_the_same_holes(cells: list[Coord], dx: int, dy: int) -> None:
    # the same cluster shifted far away from the fountain: same holes, shifted (point 1)
    near = _alhambra([Coord(c.x + 20, c.y) for c in cells])
    far = _alhambra([Coord(c.x + dx + 20, c.y + dy) for c in cells])
    started = time.process_time()  # CPU time: a hang guard, not a speed test
    got = {Coord(c.x - dx, c.y - dy) for h in holes(far) for c in h}
    assert got == {c for h in holes(near) for c in h}
    assert time.process_time() - started < 2.0
