"""Outer wall runs: ``rulebook-base-de-2003.txt``, "Siegpunkte für die Außenmauern".

"Jede Plättchenkante mit einem Stück Außenmauer bringt 1 Punkt. Doppelt liegende Stadtmauern,
also Innenmauern, bringen keine Siegpunkte." Each picture below (north up, ``F`` fountain,
``.`` empty, tokens are a tile's walls, ``-`` none) comes with the expected longest run in
``trail`` mode (a closed ring of N counts N) and in ``simple-path`` mode (N - 1).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_geometry import grown
from test_geometry_pictures import layout

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra, longest_outer_wall, outer_segments, outer_wall_runs
from referee.geometry.walls import longest_wall_run
from referee.record.model import Coord

# (name, picture, trail length, simple-path length)
CASES: list[tuple[str, str, int, int]] = [
    ("fountain only", "F", 0, 0),
    ("one segment", "F n", 1, 1),
    ("around a corner of one tile", "F ne", 2, 2),
    ("three sides of one tile", "F nes", 3, 3),
    ("straight", "F n n n", 3, 3),
    ("long straight", "F n n n n n n", 6, 6),
    ("gap splits a straight wall", "F n - n", 1, 1),
    ("two equal runs", "F n n - n n", 2, 2),
    ("two runs of different length", "n F n n", 2, 2),
    ("wall facing the fountain is no outer wall", "F w", 0, 0),
    ("inner wall only", "F e w", 0, 0),
    ("inner wall meeting the outer wall at a corner: the run goes on", "F en wn", 2, 2),
    (
        "inner wall breaks a straight run",
        """
        .  .  s  .
        F  n  n  n
        """,
        1,
        1,
    ),
    (
        "L shape",
        """
        F  n  ne
        .  .  e
        """,
        4,
        4,
    ),
    (
        "U shape",
        """
        w   F   e
        sw  s   se
        """,
        7,
        7,
    ),
    (
        "staircase",
        """
        .   nw  ne
        F   -   e
        """,
        5,
        5,
    ),
    (
        "concave corner",
        """
        n   ne  .
        F   -   n
        """,
        4,
        4,
    ),
    (
        "south row",
        """
        F   -
        s   s
        """,
        2,
        2,
    ),
    (
        "west side turning south",
        """
        w   F
        sw  .
        """,
        3,
        3,
    ),
    (
        "walls of two fountain neighbours meet at the fountain's corner",
        """
        .   nw
        nw  F
        """,
        4,
        4,
    ),
    (
        "each fountain neighbour walled outwards: four runs of one",
        """
        .   n   .
        w   F   e
        .   s   .
        """,
        1,
        1,
    ),
    (
        "row above the fountain",
        """
        nw  n   ne
        .   F   .
        """,
        5,
        5,
    ),
    (
        "full ring 3x3 around the fountain",
        """
        nw  n   ne
        w   F   e
        sw  s   se
        """,
        12,
        11,
    ),
    (
        "full ring of a plus: walls on every fountain neighbour",
        """
        .    nwe  .
        nsw  F    nse
        .    swe  .
        """,
        12,
        11,
    ),
    (
        "full ring 4x3",
        """
        nw  n   n   ne
        w   F   -   e
        sw  s   s   se
        """,
        14,
        13,
    ),
    (
        "full ring 5x3",
        """
        nw  n   n   n   ne
        w   -   F   -   e
        sw  s   s   s   se
        """,
        16,
        15,
    ),
    (
        "ring with one gap is a path",
        """
        nw  -   ne
        w   F   e
        sw  s   se
        """,
        11,
        11,
    ),
    (
        "ring opened by a tile outside it, whose wall continues the run",
        """
        nw  n   ne  .
        w   F   e   nw
        sw  s   se  .
        """,
        12,
        12,
    ),
    (
        "ring with the fountain on its edge is a path",
        """
        nw  n   ne
        w   -   e
        sw  F   se
        """,
        11,
        11,
    ),
    (
        "walls round an enclosed hole form a ring (layout breaks the hole rule)",
        """
        -   s   -
        e   .   w
        F   n   -
        """,
        4,
        3,
    ),
    (
        "four walls meeting at one corner (a star; the layout has a hole)",
        """
        .   sw  -
        ne  .   -
        F   -   -
        """,
        2,
        2,
    ),
    (
        "figure eight: two rings through one corner (the layout has holes)",
        """
        .   s   -   .
        e   .   sw  -
        -   ne  .   w
        .   F   n   -
        """,
        8,
        6,
    ),
]


@pytest.mark.parametrize(("name", "text", "trail", "simple"), CASES, ids=[c[0] for c in CASES])
def test_longest_outer_wall(name: str, text: str, trail: int, simple: int) -> None:
    alh = layout(text)
    assert longest_outer_wall(alh).length == trail
    assert longest_outer_wall(alh, "simple-path").length == simple
    runs = outer_wall_runs(alh)
    assert [r.length for r in runs] == sorted((r.length for r in runs), reverse=True)


def test_at_least_thirty_layouts() -> None:
    assert len(CASES) >= 30


def test_two_equal_runs_are_both_returned_in_reading_order() -> None:
    runs = outer_wall_runs(layout("F n n - n n"))
    assert [r.length for r in runs] == [2, 2]
    assert runs[0].segments == ((Coord(1, 0), Side.N), (Coord(2, 0), Side.N))
    assert runs[1].segments == ((Coord(4, 0), Side.N), (Coord(5, 0), Side.N))


@pytest.mark.parametrize("ring_y", [5, -5])
def test_one_pass_ties_go_to_the_piece_read_first(ring_y: int) -> None:
    """A lone tile walled all round (a ring of 4: 4 in ``trail`` mode, 3 in ``simple-path``)
    and a straight wall of 3: in ``simple-path`` mode the two tie and the piece read first
    (north first) wins; the one pass decides (no corner joins three segments) as the general
    search does."""
    from referee.geometry.walls import _plain_longest

    alh = Alhambra()
    for x in (1, 2, 3):
        alh.place(Coord(x, 0), _Piece(frozenset({Side.N}), BuildingType.TOWER))
    alh.place(Coord(5, ring_y), _Piece(frozenset(Side), BuildingType.TOWER))
    for mode in ("trail", "simple-path"):
        run = _plain_longest(alh, mode == "simple-path")
        assert run is not None
        assert run == longest_wall_run(outer_segments(alh), mode)
    ring = longest_outer_wall(alh)
    assert ring.closed
    assert ring.segments == tuple((Coord(5, ring_y), s) for s in (Side.N, Side.E, Side.S, Side.W))
    tie = longest_outer_wall(alh, "simple-path")
    assert not tie.closed
    if ring_y > 0:
        assert tie.segments == ring.segments[:3]
    else:
        assert tie.segments == tuple((Coord(x, 0), Side.N) for x in (1, 2, 3))


def test_four_single_runs_around_the_fountain() -> None:
    runs = outer_wall_runs(
        layout(
            """
            .   n   .
            w   F   e
            .   s   .
            """
        )
    )
    assert [r.length for r in runs] == [1, 1, 1, 1]
    assert runs[0].segments == ((Coord(0, 1), Side.N),)


def test_run_segments_follow_the_wall() -> None:
    run = longest_outer_wall(
        layout(
            """
            w   F   e
            sw  s   se
            """
        )
    )
    segs = list(run.segments)
    assert len(segs) == 7
    assert set(segs) == {
        (Coord(-1, 0), Side.W),
        (Coord(-1, -1), Side.W),
        (Coord(-1, -1), Side.S),
        (Coord(0, -1), Side.S),
        (Coord(1, -1), Side.S),
        (Coord(1, -1), Side.E),
        (Coord(1, 0), Side.E),
    }
    # consecutive segments share a corner
    ends = [_ends(c, s) for c, s in segs]
    for a, b in pairwise(ends):
        assert set(a) & set(b)
    assert not run.closed


def test_ring_is_closed_in_trail_mode_only() -> None:
    alh = layout(
        """
        nw  n   ne
        w   F   e
        sw  s   se
        """
    )
    assert longest_outer_wall(alh).closed
    assert not longest_outer_wall(alh, "simple-path").closed
    assert len(outer_segments(alh)) == 12


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError):
        outer_wall_runs(Alhambra(), "ring")  # type: ignore[arg-type]


# ------------------------------------------------------------- a brute-force reference


def _ends(c: Coord, side: Side) -> tuple[tuple[int, int], tuple[int, int]]:
    x, y = c.x, c.y
    return {
        Side.N: ((x, y + 1), (x + 1, y + 1)),
        Side.S: ((x, y), (x + 1, y)),
        Side.E: ((x + 1, y), (x + 1, y + 1)),
        Side.W: ((x, y), (x, y + 1)),
    }[side]


def _brute(alh: Alhambra, simple: bool) -> int:
    segs = [(c, s) for c, p in alh.buildings() for s in p.walls if c.neighbour(s) not in alh.cells]
    adj: dict[tuple[int, int], list[int]] = defaultdict(list)
    ends = [_ends(c, s) for c, s in segs]
    for i, (a, b) in enumerate(ends):
        adj[a].append(i)
        adj[b].append(i)
    best = 0

    def go(v: tuple[int, int], used: set[int], seen: set[tuple[int, int]]) -> None:
        nonlocal best
        best = max(best, len(used))
        for e in adj[v]:
            if e in used:
                continue
            a, b = ends[e]
            w = b if a == v else a
            if simple and w in seen:
                continue
            added = w not in seen
            used.add(e)
            seen.add(w)
            go(w, used, seen)
            used.discard(e)
            if added:
                seen.discard(w)

    for v in list(adj):
        go(v, set(), {v})
    return best


@pytest.mark.parametrize(("name", "text", "trail", "simple"), CASES, ids=[c[0] for c in CASES])
def test_cases_agree_with_brute_force(name: str, text: str, trail: int, simple: int) -> None:
    alh = layout(text)
    assert _brute(alh, simple=False) == trail
    assert _brute(alh, simple=True) == simple


@settings(max_examples=80, deadline=None)
@given(grown())
def test_random_legal_alhambras_agree_with_brute_force(alh: Alhambra) -> None:
    assert longest_outer_wall(alh).length == _brute(alh, simple=False)
    assert longest_outer_wall(alh, "simple-path").length == _brute(alh, simple=True)
    # runs never share a segment, and never use more segments than there are
    runs = outer_wall_runs(alh)
    used = [seg for r in runs for seg in r.segments]
    assert len(used) == len(set(used))
    assert set(used) <= set(outer_segments(alh))


@settings(max_examples=80, deadline=None)
@given(grown())
def test_outer_walls_never_cross_in_a_legal_alhambra(alh: Alhambra) -> None:
    """docs/scoring.md: crossing walls need a diagonal contact, which always encloses a hole."""
    degree: dict[tuple[int, int], int] = defaultdict(int)
    for c, s in outer_segments(alh):
        for corner in _ends(c, s):
            degree[corner] += 1
    assert all(d <= 2 for d in degree.values())


# any layout, legal or not: walls may meet three or four at a corner (a diagonal contact)
_cells = st.lists(
    st.tuples(
        st.integers(-3, 3),
        st.integers(-3, 3),
        st.sets(st.sampled_from(list(Side))),
        st.sampled_from(list(BuildingType)),
    ),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(_cells)
def test_one_pass_agrees_with_the_general_search(
    cells: list[tuple[int, int, set[Side], BuildingType]],
) -> None:
    """``longest_outer_wall`` walks the wall in one pass when no corner joins more than two
    segments and searches chains and junctions otherwise: both give the same run (segments,
    order, closed) as the general search of ``longest_wall_run`` on every layout."""
    alh = Alhambra()
    for x, y, walls, kind in cells:
        if Coord(x, y) not in alh:
            alh.place(Coord(x, y), _Piece(frozenset(walls), kind))
    for mode in ("trail", "simple-path"):
        assert longest_outer_wall(alh, mode) == longest_wall_run(outer_segments(alh), mode)


def test_far_coordinates_take_the_general_search() -> None:
    alh = Alhambra()
    for x in range(5000, 5004):
        alh.place(Coord(x, 0), _Piece(frozenset({Side.N, Side.S}), BuildingType.TOWER))
    run = longest_outer_wall(alh)
    assert run == longest_wall_run(outer_segments(alh))
    assert run.length == 4
    assert [c.x for c, _s in run.segments] == [5000, 5001, 5002, 5003]


@pytest.mark.parametrize(
    ("x", "y", "one_pass"),
    [
        (-1024, 0, True),
        (1020, 0, True),
        (0, -1024, True),
        (0, 1023, True),
        (1021, 0, False),  # the row 1021..1024: its last cell is out of range
        (-1025, 0, False),
        (0, 1024, False),
        (0, -1025, False),
    ],
)
def test_the_one_pass_range_edges(x: int, y: int, one_pass: bool) -> None:
    """The one pass takes coordinates from -1024 to 1023 (its corner ints stay apart) and
    leaves any other Alhambra to the general search; either way the run is the same."""
    from referee.geometry.walls import _plain_longest

    alh = Alhambra()
    for dx in range(4):
        alh.place(Coord(x + dx, y), _Piece(frozenset({Side.N, Side.S}), BuildingType.TOWER))
    for mode in ("trail", "simple-path"):
        run = _plain_longest(alh, mode == "simple-path")
        assert (run is not None) is one_pass
        assert longest_outer_wall(alh, mode) == longest_wall_run(outer_segments(alh), mode)
    assert longest_outer_wall(alh).length == 4


@dataclass(frozen=True)
class _Piece:
    walls: frozenset[Side]
    type: BuildingType


_steps = st.lists(
    st.tuples(
        st.integers(-3, 3),
        st.integers(-3, 3),
        st.sets(st.sampled_from(list(Side))),
        st.booleans(),  # take the piece off when the cell is occupied
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(_steps)
def test_one_pass_on_the_kept_geometry_after_every_step(
    steps: list[tuple[int, int, set[Side], bool]],
) -> None:
    """The one pass reads the outer walls from the geometry the Alhambra keeps up to date
    (wall masks, which neighbours are tiles): after every placement and removal, on any
    layout, its run is the general search's on the cells."""
    alh = Alhambra()
    assert alh.geometry is not None  # built now, then only updated
    for x, y, walls, off in steps:
        at = Coord(x, y)
        if at in alh:
            if not off or at == Coord(0, 0):
                continue
            alh.remove(at)
        else:
            alh.place(at, _Piece(frozenset(walls), BuildingType.TOWER))
        for mode in ("trail", "simple-path"):
            assert longest_outer_wall(alh, mode) == longest_wall_run(outer_segments(alh), mode)
