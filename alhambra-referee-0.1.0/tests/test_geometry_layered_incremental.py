"""The kept geometry of a layered Alhambra against :func:`from_scratch` (issue 34).

A layered Alhambra (an edge, corner or overlay piece, a piece with a rule profile, a half or a
two-cell piece) keeps its geometry up to date for the common changes: a tile or a special piece
put down, walls added to a tile (Die Mauern, E21), an edge piece put down or taken off (Die
Tore der Stadt, E22), a corner piece put down or taken off (Die Falkner, E23: it changes no
wall and no way). A piece taken out (a redesign) rebuilds it. These property tests run random
sequences of such changes, with the pieces of the geometry modules themselves (gate, falcon,
watchtower, camp) and a two-cell piece, and compare after every step what is kept (wall masks,
the entries of the cells around, the way on foot, the enclosed cells) with the geometry
computed from the cells and layers alone -- and the general path's answers on the kept
geometry with those on a copy that rebuilds it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, BuildingType, Side
from referee.geometry import Alhambra, BuildingProblem, general, reachable
from referee.geometry.incremental import (
    Geometry,
    enclosed_cells,
    from_scratch,
    walk,
    walk_layered,
)
from referee.geometry.layers import wall_between
from referee.geometry.pieces import diagonal_of
from referee.geometry.walls import _SIDE_ORDER, _layered_segments, outer_segments
from referee.modules.falkner import Falcon
from referee.modules.feldlager import Camp
from referee.modules.stadttore import Gate
from referee.modules.wachtuerme import Watchtower
from referee.record.model import Coord

ORIGIN = Coord(0, 0)
HALVES = ("sw", "ne", "se", "nw")


@dataclass(frozen=True)
class Block:
    """A test tile: walls, no building type."""

    walls: frozenset[Side]
    type: None = None


@dataclass(frozen=True)
class Pair:
    """A piece over two cells, its second cell on the east (as a major project)."""

    second: Side
    part_walls: tuple[frozenset[Side], frozenset[Side]]
    types: tuple[None, None] = (None, None)
    footprint: str = "two-cells"
    walls: frozenset[Side] = frozenset()
    type: None = None


@dataclass(frozen=True)
class Fence:
    """An edge piece that adds a wall (``adds_wall``) and opens nothing."""

    adds_wall: bool = True
    walls: frozenset[Side] = frozenset()
    type: None = None


def sides_of(mask: int) -> frozenset[Side]:
    return frozenset(s for k, s in enumerate(SIDES) if mask >> k & 1)


def kept(geo: Geometry) -> tuple[object, ...]:
    return (geo.masks, geo.front, geo.reach, geo.enclosed)


def assert_kept_is_fresh(alh: Alhambra) -> None:
    geo = alh.kept_geometry
    if geo is None:
        return
    fresh = from_scratch(alh.cells, alh.layers)
    assert kept(geo) == kept(fresh)
    # the way on foot as the one effective-walls function walks it, side by side
    cells, layers = alh.cells, alh.layers
    walked = walk(fresh.masks) if layers is None else walk_layered(cells, layers)
    assert geo.reach == (None if len(walked) == len(cells) else walked)


def step(alh: Alhambra, rnd: random.Random, pieces: list[object]) -> None:
    """One random change (legal or not: the engine applies illegal moves as played)."""
    c = Coord(rnd.randint(-3, 3), rnd.randint(-3, 3))
    side = rnd.choice(SIDES)
    kind = rnd.randrange(13)
    if 6 <= kind <= 9 and rnd.random() < 0.8:
        c = rnd.choice(list(alh))  # a layer change: mostly on or beside a tile
    elif kind <= 5 and rnd.random() < 0.5:
        c = rnd.choice(list(alh)).neighbour(side)  # a piece put down: often beside a tile
    if kind <= 2:
        alh.place_if_empty(c, Block(sides_of(rnd.randrange(16))))  # type: ignore[arg-type]
    elif kind == 3:
        camp = Camp(rnd.randint(1, 9), sides_of(rnd.randrange(16)), frozenset(), rnd.random() < 0.7)
        alh.place_if_empty(c, camp)  # type: ignore[arg-type]
    elif kind == 4:
        tower = Watchtower(rnd.choice(list(BuildingType)), rnd.choice(HALVES))
        alh.place_if_empty(c, tower)  # type: ignore[arg-type]
    elif kind == 5:
        pair = Pair(side, (sides_of(rnd.randrange(16)), sides_of(rnd.randrange(16))))
        alh.place_if_empty(c, pair)  # type: ignore[arg-type]
    elif kind == 6 and c in alh:
        alh.add_overlay(c, sides_of(rnd.randrange(1, 16)))
    elif kind == 7:
        if alh.edge(c, side) is None:
            alh.place_edge(c, side, Gate() if rnd.random() < 0.7 else Fence())
        else:
            alh.remove_edge(c, side)
    elif kind == 8:
        if alh.corner(c) is None:
            alh.place_corner(c, Falcon("r", (BuildingType.GARDEN, BuildingType.TOWER)))
        else:
            alh.remove_corner(c)
    elif kind == 9 and c != ORIGIN and c in alh and rnd.random() < 0.5:
        pieces.append(alh.remove(c))  # a redesign: rebuilt from scratch
        alh.take_returned()
    elif kind == 10 and pieces:
        piece = pieces.pop(rnd.randrange(len(pieces)))
        if rnd.random() < 0.5:
            alh.carry_walls(piece, sides_of(rnd.randrange(1, 16)))
        alh.place_if_empty(c, piece)  # type: ignore[arg-type]
    elif kind == 11:
        _ = alh.geometry  # built now: later changes update it
    elif kind == 12:
        trial = alh.copy()  # a copy keeps its own geometry up to date
        trial.place_if_empty(c, Block(sides_of(rnd.randrange(16))))  # type: ignore[arg-type]
        assert_kept_is_fresh(trial)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 40))
def test_the_kept_layered_geometry_equals_the_one_from_scratch(seed: int, n: int) -> None:
    rnd = random.Random(seed)
    alh = Alhambra()
    _ = alh.geometry
    pieces: list[object] = []
    for _i in range(n):
        step(alh, rnd, pieces)
        assert_kept_is_fresh(alh)


def _rebuilt(alh: Alhambra) -> Alhambra:
    other = alh.copy()
    other.kept_geometry = None
    return other


def _segments_read_side_by_side(alh: Alhambra) -> list[object]:
    """The outer wall segments of a layered Alhambra, each side read through
    :func:`wall_between` (the reading :func:`outer_segments` must give)."""
    cells, layers = alh.cells, alh.layers
    found: dict[object, tuple[int, int, int]] = {}
    order = _SIDE_ORDER
    for c, piece in cells.items():
        for side in SIDES:
            if wall_between(cells, layers, c, side).outer:
                found[(c, side)] = (-c.y, c.x, order[side])
        d = diagonal_of(piece)
        if d is not None:
            found[(c, d)] = (-c.y, c.x, order[d])
    if layers is not None:
        for (a, side), piece in layers.edges.items():
            if not getattr(piece, "adds_wall", False):
                continue
            b = a.neighbour(side)
            c, s = (a, side) if a in cells else (b, side.opposite)
            if c in cells and c.neighbour(s) not in cells:
                found.setdefault((c, s), (-c.y, c.x, order[s]))
    return sorted(found, key=found.__getitem__)


def _layout_side_by_side(alh: Alhambra) -> list[object]:
    """:func:`general.layout_problems` with every side read through the side rules of
    :func:`general.side_problem` and every tile's neighbours looked up (the reading the kept
    masks and cell entries must give)."""
    cells, layers = alh.cells, alh.layers
    found: dict[str, tuple[set[Coord], list[tuple[Coord, Side]]]] = {}
    for c in sorted(cells, key=lambda c: (-c.y, c.x)):
        for side in (Side.E, Side.N):
            n = c.neighbour(side)
            if n not in cells or general._same_piece(cells, c, n):
                continue
            code = general.side_problem(cells, layers, c, side)
            if code is not None:
                bad_cells, bad_sides = found.setdefault(code, (set(), []))
                bad_cells.update((c, n))
                bad_sides.append((c, side))
    problems: list[object] = [
        BuildingProblem(code, general._sorted(found[code][0]), tuple(found[code][1]))
        for code in ("PLACE-WALL", "PLACE-SIDE", "PLACE-CLOSED")
        if code in found
    ]
    lonely = [c for c in cells if c != ORIGIN and not general._touches_other(alh, c)]
    if lonely:
        problems.append(BuildingProblem("PLACE-ADJACENT", general._sorted(lonely)))
    walked = walk_layered(cells, layers) if layers is not None else set(reachable(alh))
    cut = [
        c
        for c in cells
        if c not in walked and c not in lonely and not general._walk_exempt(cells, c)
    ]
    if cut:
        problems.append(BuildingProblem("PLACE-WALK", general._sorted(cut)))
    holes = enclosed_cells(cells)
    if holes:
        problems.append(BuildingProblem("PLACE-HOLE", general._sorted(holes)))
    return problems


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 30))
def test_the_general_path_answers_the_same_on_the_kept_geometry(seed: int, n: int) -> None:
    rnd = random.Random(seed)
    alh = Alhambra()
    _ = alh.geometry
    pieces: list[object] = []
    for _i in range(n):
        step(alh, rnd, pieces)
    if alh.layers is None:
        return
    fresh = _rebuilt(alh)
    assert general.layout_problems(alh) == general.layout_problems(fresh)
    assert general.layout_problems(alh) == _layout_side_by_side(alh)
    assert general.walk_all(alh) == general.walk_all(fresh)
    assert outer_segments(alh) == outer_segments(fresh) == _layered_segments(fresh)
    assert outer_segments(alh) == _segments_read_side_by_side(alh)
    for _j in range(6):
        c = Coord(rnd.randint(-4, 4), rnd.randint(-4, 4))
        piece = Block(sides_of(rnd.randrange(16)))
        assert general.placement_problems(alh, c, piece) == general.placement_problems(
            _rebuilt(alh), c, piece
        )
        assert general.removal_problems(alh, c) == general.removal_problems(_rebuilt(alh), c)
        assert general.swap_problems(alh, c, piece) == general.swap_problems(
            _rebuilt(alh), c, piece
        )


def test_a_tile_laid_behind_a_gate_is_reached_through_it() -> None:
    # "Das eingesetzte Stadttor „öffnet“ die Stadtmauer" (E22): the gate lies on the edge
    # first, the walled tile comes later and is reached across its wall
    alh = Alhambra()
    _ = alh.geometry
    alh.place_edge(ORIGIN, Side.E, Gate())
    alh.place(Coord(1, 0), Block(frozenset({Side.W})))  # type: ignore[arg-type]
    assert alh.geometry.reach is None
    alh.place(Coord(1, 1), Block(frozenset({Side.S})))  # type: ignore[arg-type]
    assert alh.geometry.reach == {ORIGIN, Coord(1, 0)}
    alh.place_edge(Coord(1, 1), Side.S, Gate())
    assert alh.geometry.reach is None
    alh.place_edge(Coord(0, 1), Side.E, Fence())  # a wall on an edge with one tile beside it
    alh.place(Coord(0, 1), Block(frozenset()))  # type: ignore[arg-type]
    assert alh.geometry.reach is None  # reached from the fountain below
    assert_kept_is_fresh(alh)


def test_a_tile_taken_out_of_a_ring_leaves_a_hole_in_the_kept_geometry() -> None:
    # "Es dürfen keine „Löcher“ ... entstehen" (rulebook-base-de-2003.txt, "Alhambra umbauen"):
    # the kept enclosed cells of a layered Alhambra follow a tile taken out of the middle
    ring = [(1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 2), (1, 2), (1, 1)]
    alh = Alhambra([(Coord(x, y), Block(frozenset())) for x, y in ring])  # type: ignore[misc]
    alh.place(Coord(2, 1), Block(frozenset()))  # type: ignore[arg-type]
    alh.place_corner(Coord(1, 1), Falcon("r", (BuildingType.GARDEN, BuildingType.TOWER)))
    _ = alh.geometry
    alh.remove(Coord(2, 1))
    assert alh.kept_geometry is not None and alh.geometry.enclosed == {Coord(2, 1)}
    assert alh.take_returned()[0][0] == "corner"  # the falcon leaves on the redesign (E23)
    assert_kept_is_fresh(alh)
    alh.remove(Coord(1, 1))  # the hole opens to the outside again
    assert alh.geometry.enclosed == set()
    assert_kept_is_fresh(alh)
