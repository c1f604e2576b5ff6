"""The incremental geometry of an Alhambra (``referee.geometry.incremental``) against
computations from scratch.

Every ``place`` and ``remove`` updates reach, enclosed cells, wall masks and the cells around the
Alhambra instead of flooding them again at each check. These property tests run random sequences
of placements, removals and swaps (legal or not: the engine applies illegal moves as played) and
compare, after each step:

* the kept state with :func:`~referee.geometry.incremental.from_scratch`;
* the answers of the building rules (placement, removal, swap, holes, reach, legal cells) with
  plain reference implementations written here from the rule text ("Jedes neue
  Gebäudeplättchen muss „zu Fuß“ vom Startplättchen aus erreichbar sein ...", "Es dürfen keine
  „Löcher“ (vollständig umbaute leere Bereiche) entstehen", rulebook-base-de-2003.txt,
  "Alhambra-Bauregeln").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, Side
from referee.geometry import (
    PLACE_ADJACENT,
    PLACE_HOLE,
    PLACE_OCCUPIED,
    PLACE_WALK,
    PLACE_WALL,
    REMOVE_EMPTY,
    REMOVE_FOUNTAIN,
    REMOVE_HOLE,
    REMOVE_WALK,
    Alhambra,
    BuildingProblem,
    holes,
    legal_cells,
    placement_problems,
    reachable,
    removal_problems,
    swap_problems,
)
from referee.geometry.incremental import Geometry, from_scratch
from referee.record.model import Coord

ORIGIN = Coord(0, 0)


@dataclass(frozen=True)
class Block:
    """A test piece: walls, no building type."""

    walls: frozenset[Side]
    type: None = None


def block(mask: int) -> Block:
    return Block(frozenset(s for k, s in enumerate(SIDES) if mask >> k & 1))


# ------------------------------------------------------------------- reference answers


def key(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


def ordered(cells: object) -> tuple[Coord, ...]:
    return tuple(sorted(cells, key=key))  # type: ignore[call-overload]


def nb(c: Coord, side: Side) -> Coord:
    return c.neighbour(side)


def ref_reach(cells: dict[Coord, Block]) -> set[Coord]:
    seen = {ORIGIN}
    todo = [ORIGIN]
    while todo:
        c = todo.pop()
        for side in SIDES:
            n = nb(c, side)
            q = cells.get(n)
            if q is None or n in seen or side in cells[c].walls or side.opposite in q.walls:
                continue
            seen.add(n)
            todo.append(n)
    return seen


def ref_enclosed(cells: dict[Coord, Block]) -> set[Coord]:
    """Empty cells of the bounding box not connected to a cell outside the box."""
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    lo_x, hi_x, lo_y, hi_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    box = {
        Coord(x, y)
        for x in range(lo_x, hi_x + 1)
        for y in range(lo_y, hi_y + 1)
        if Coord(x, y) not in cells
    }
    start = [c for c in box if c.x in (lo_x, hi_x) or c.y in (lo_y, hi_y)]
    out = set(start)
    while start:
        c = start.pop()
        for side in SIDES:
            n = nb(c, side)
            if n in box and n not in out:
                out.add(n)
                start.append(n)
    return box - out


def ref_area(area: set[Coord], c: Coord) -> set[Coord]:
    seen = {c}
    todo = [c]
    while todo:
        cur = todo.pop()
        for side in SIDES:
            n = nb(cur, side)
            if n in area and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def ref_walls(cells: dict[Coord, Block], at: Coord, piece: Block) -> BuildingProblem | None:
    bad = [
        (nb(at, s), (at, s))
        for s in SIDES
        if nb(at, s) in cells and (s in piece.walls) != (s.opposite in cells[nb(at, s)].walls)
    ]
    if not bad:
        return None
    return BuildingProblem(PLACE_WALL, ordered(c for c, _ in bad), tuple(s for _, s in bad))


def ref_placement(cells: dict[Coord, Block], at: Coord, piece: Block) -> list[BuildingProblem]:
    if at in cells:
        return [BuildingProblem(PLACE_OCCUPIED, (at,))]
    out: list[BuildingProblem] = []
    around = [s for s in SIDES if nb(at, s) in cells]
    if not around:
        out.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        wall = ref_walls(cells, at, piece)
        if wall is not None:
            out.append(wall)
        reach = ref_reach(cells)
        if not any(
            s not in piece.walls and s.opposite not in cells[nb(at, s)].walls and nb(at, s) in reach
            for s in around
        ):
            out.append(BuildingProblem(PLACE_WALK, (at,)))
    after = ref_enclosed({**cells, at: piece})
    found: set[Coord] = set()
    for s in SIDES:
        if nb(at, s) in after:
            found |= ref_area(after, nb(at, s))
    if found:
        out.append(BuildingProblem(PLACE_HOLE, ordered(found)))
    return out


def ref_removal(cells: dict[Coord, Block], at: Coord) -> list[BuildingProblem]:
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    rest = {c: p for c, p in cells.items() if c != at}
    out: list[BuildingProblem] = []
    before, after = ref_reach(cells), ref_reach(rest)
    lost = [c for c in rest if c in before and c not in after]
    if lost:
        out.append(BuildingProblem(REMOVE_WALK, ordered(lost)))
    enclosed = ref_enclosed(rest)
    if at in enclosed:
        out.append(BuildingProblem(REMOVE_HOLE, ordered(ref_area(enclosed, at))))
    return out


def ref_swap(cells: dict[Coord, Block], at: Coord, piece: Block) -> list[BuildingProblem]:
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    out: list[BuildingProblem] = []
    if not any(nb(at, s) in cells for s in SIDES):
        return [BuildingProblem(PLACE_ADJACENT, (at,))]
    wall = ref_walls(cells, at, piece)
    if wall is not None:
        out.append(wall)
    after_cells = {**cells, at: piece}
    before, after = ref_reach(cells), ref_reach(after_cells)
    if at not in after:
        out.append(BuildingProblem(PLACE_WALK, (at,)))
    lost = [c for c in cells if c != at and c in before and c not in after]
    if lost:
        out.append(BuildingProblem(REMOVE_WALK, ordered(lost)))
    return out


# ----------------------------------------------------------------------- comparisons


def same_state(a: Geometry, b: Geometry, n_cells: int) -> None:
    assert a.masks == b.masks
    assert a.front == b.front
    assert a.enclosed == b.enclosed
    assert (a.reach is None) == (b.reach is None)
    if a.reach is not None:
        assert a.reach == b.reach
        assert len(a.reach) < n_cells
    for c in a.enclosed:
        assert type(c) is Coord


def check_all(alh: Alhambra, probes: list[tuple[int, int, int]]) -> None:
    cells = dict(alh.cells)
    same_state(alh.geometry, from_scratch(alh.cells), len(cells))
    assert reachable(alh) == frozenset(ref_reach(cells))
    enclosed = ref_enclosed(cells)
    assert {c for h in holes(alh) for c in h} == enclosed
    for x, y, mask in probes:
        at, piece = Coord(x, y), block(mask)
        assert placement_problems(alh, at, piece) == ref_placement(cells, at, piece)
        assert removal_problems(alh, at) == ref_removal(cells, at)
        assert swap_problems(alh, at, piece) == ref_swap(cells, at, piece)
    # legal cells: exactly the cells next to the Alhambra without a placement problem
    piece = block(probes[0][2] if probes else 0)
    around = {nb(c, s) for c in cells for s in SIDES} - set(cells)
    expected = [c for c in ordered(around) if not ref_placement(cells, c, piece)]
    assert legal_cells(alh, piece) == expected


# a small board and mostly open pieces, so that tiles touch, ways branch and holes appear
coord = st.integers(-2, 2)
walls = st.one_of(st.just(0), st.sampled_from([1, 2, 4, 8]), st.integers(0, 15))
op = st.tuples(st.sampled_from(["place", "place", "place", "remove", "swap"]), coord, coord)
ops = st.lists(st.tuples(op, walls), max_size=50)
probes = st.lists(st.tuples(coord, coord, walls), min_size=1, max_size=4)


def apply(alh: Alhambra, kind: str, at: Coord, mask: int) -> None:
    if kind == "place" and at not in alh:
        alh.place(at, block(mask))
    elif kind == "remove" and at in alh and at != ORIGIN:
        alh.remove(at)
    elif kind == "swap" and at in alh and at != ORIGIN:
        alh.remove(at)
        alh.place(at, block(mask))


@settings(max_examples=200, deadline=None)
@given(ops, probes)
def test_kept_state_and_answers_match_a_computation_from_scratch(
    steps: list[tuple[tuple[str, int, int], int]], probe: list[tuple[int, int, int]]
) -> None:
    alh = Alhambra()
    assert alh.geometry.reach is None  # built now: every later change updates it
    for (kind, x, y), mask in steps:
        apply(alh, kind, Coord(x, y), mask)
        same_state(alh.geometry, from_scratch(alh.cells), len(alh))
    check_all(alh, probe)


@settings(max_examples=60, deadline=None)
@given(ops, probes, st.integers(0, 40))
def test_built_late_and_copies_are_independent(
    steps: list[tuple[tuple[str, int, int], int]], probe: list[tuple[int, int, int]], split: int
) -> None:
    alh = Alhambra()
    for (kind, x, y), mask in steps[:split]:
        apply(alh, kind, Coord(x, y), mask)
    check_all(alh, probe)  # built from scratch on first use
    twin = alh.copy()
    for (kind, x, y), mask in steps[split:]:
        apply(alh, kind, Coord(x, y), mask)
    check_all(alh, probe)
    check_all(twin, probe)  # untouched by the changes of the original


def test_a_ring_of_tiles_encloses_its_middle_and_freeing_a_side_opens_it() -> None:
    """A 3x3 ring around 1,1 (all walls open): the middle is a hole; removing one side tile
    lets it out again, and placing it back closes it."""
    alh = Alhambra()
    assert alh.geometry.reach is None
    ring = [Coord(x, y) for x in range(3) for y in range(3) if (x, y) not in ((0, 0), (1, 1))]
    for c in sorted(ring, key=lambda c: (abs(c.x) + abs(c.y), c.x)):
        alh.place(c, block(0))
    assert alh.geometry.enclosed == {Coord(1, 1)}
    assert removal_problems(alh, Coord(1, 0)) == []
    alh.remove(Coord(1, 0))
    assert alh.geometry.enclosed == set()
    assert [p.code for p in placement_problems(alh, Coord(1, 0), block(0))] == [PLACE_HOLE]
    alh.place(Coord(1, 0), block(0))
    assert alh.geometry.enclosed == {Coord(1, 1)}
    same_state(alh.geometry, from_scratch(alh.cells), len(alh))


def test_a_tile_behind_walls_is_unreachable_until_a_way_opens() -> None:
    alh = Alhambra()
    assert alh.geometry.reach is None
    alh.place(Coord(1, 0), block(0b0010))  # wall on E
    alh.place(Coord(2, 0), block(0b1000))  # wall on W: cannot be walked to
    assert alh.geometry.reach == {ORIGIN, Coord(1, 0)}
    alh.place(Coord(1, 1), block(0))
    alh.place(Coord(2, 1), block(0))  # the way round: 2,0 is reached from 2,1
    assert alh.geometry.reach is None
    same_state(alh.geometry, from_scratch(alh.cells), len(alh))


# The seeded sequences checked by test_long_random_sequences_keep_the_state_exact, by their
# index in the stream of 100 made from seed 13: the first ten, and the three later ones that
# ran lines of ``referee`` the earlier ones did not (56: a placed tile that opens the way to
# every tile cut off; 83, 84: ``ring_keeps``, a tile removed from a layout where every tile was
# reachable, its ways going round it). The other 87 ran no line of ``referee`` these do not
# (coverage: bench/README.md, issue 34, twenty-first step, suite b).
LONG_SEQUENCES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 56, 83, 84)


def _long_sequences() -> list[list[tuple[str, Coord, int, list[tuple[int, int, int]] | None]]]:
    """The 100 sequences of 60 steps of seed 13: (kind, cell, mask, probes or None) each. The
    draws do not depend on the Alhambra, so every sequence is the same as when each was played
    as it was drawn."""
    rng = random.Random(13)
    kinds = ["place", "place", "place", "remove", "swap"]
    sequences = []
    for _ in range(100):
        steps: list[tuple[str, Coord, int, list[tuple[int, int, int]] | None]] = []
        for _ in range(60):
            at = Coord(rng.randint(-2, 2), rng.randint(-2, 2))
            mask = rng.choice([0, 0, 0, 1, 2, 4, 8, rng.randint(0, 15)])
            kind = rng.choice(kinds)
            probe = None
            if rng.random() < 0.2:  # and the answers of the building rules
                probe = [(rng.randint(-3, 3), rng.randint(-3, 3), mask) for _ in range(3)]
            steps.append((kind, at, mask, probe))
        sequences.append(steps)
    return sequences


def test_long_random_sequences_keep_the_state_exact() -> None:
    """Longer sequences (seeded, so every run checks the same ones): the kept state after
    every step equals the state computed from scratch."""
    sequences = _long_sequences()
    for index in LONG_SEQUENCES:
        alh = Alhambra()
        assert alh.geometry.reach is None
        for kind, at, mask, probe in sequences[index]:
            apply(alh, kind, at, mask)
            same_state(alh.geometry, from_scratch(alh.cells), len(alh))
            if probe is not None:
                check_all(alh, probe)
