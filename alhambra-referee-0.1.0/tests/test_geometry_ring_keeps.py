"""``ring_keeps`` (issue 34, eleventh step): when every tile is reachable on foot and it holds
for a tile, taking that tile away leaves every other tile reachable, as the full walk finds;
and a removal that takes this shortcut keeps the same geometry as one computed from scratch."""

from __future__ import annotations

import random

from referee.catalogue import SIDES, Side
from referee.geometry.grid import ORIGIN, Alhambra
from referee.geometry.incremental import BITS, Geometry, from_scratch, ring_keeps, walk
from referee.record.model import Coord


class _Tile:
    """A plain piece: its walls only."""

    __slots__ = ("walls",)

    def __init__(self, walls: frozenset[Side]) -> None:
        self.walls = walls

    def __repr__(self) -> str:
        return f"_Tile({''.join(sorted(s.value for s in self.walls))})"


def _layout(rng: random.Random, n: int, wall_chance: float) -> Alhambra:
    """A random connected layout of ``n`` tiles around the fountain (walls anywhere)."""
    alh = Alhambra()
    while len(alh) < n:
        c = rng.choice(list(alh))
        side = rng.choice(SIDES)
        t = c.neighbour(side)
        if t in alh:
            continue
        walls = frozenset(s for s in SIDES if rng.random() < wall_chance)
        alh.place(t, _Tile(walls))  # type: ignore[arg-type]
    return alh


def _same(a: Geometry, b: Geometry) -> bool:
    return (
        a.masks == b.masks
        and {k: v for k, v in a.front.items() if k not in a.masks}
        == {k: v for k, v in b.front.items() if k not in b.masks}
        and a.reach == b.reach
        and a.enclosed == b.enclosed
    )


def test_ring_keeps_agrees_with_the_full_walk() -> None:
    rng = random.Random(34)
    held = checked = 0
    for _ in range(400):
        alh = _layout(rng, rng.randint(3, 30), rng.choice((0.0, 0.15, 0.3)))
        geo = alh.geometry
        if geo.reach is not None:
            continue  # the shortcut is only taken when every tile is reachable
        for at in list(alh):
            if at == ORIGIN:
                continue
            steps = geo.steps(at, geo.masks[at])
            if BITS[steps] <= 1:
                continue
            checked += 1
            if ring_keeps(geo.masks, at, steps):
                held += 1
                after = walk(geo.masks, skip=at)
                assert after == {c for c in alh if c != at}, (sorted(alh), at)
    assert checked > 200 and 0 < held < checked  # both answers were met


def test_removals_keep_the_geometry_of_a_fresh_computation() -> None:
    rng = random.Random(11)
    for _ in range(150):
        alh = _layout(rng, rng.randint(4, 25), rng.choice((0.0, 0.2)))
        assert alh.geometry.masks  # built: kept up to date from here on
        for _ in range(rng.randint(1, 6)):
            cells = [c for c in alh if c != ORIGIN]
            if not cells:
                break
            alh.remove(rng.choice(cells))
            assert _same(alh.geometry, from_scratch(alh.cells))


def test_a_two_by_two_block_goes_round_and_a_corridor_does_not() -> None:
    open_tile = _Tile(frozenset())
    block = Alhambra(
        [(Coord(1, 0), open_tile), (Coord(0, 1), open_tile), (Coord(1, 1), open_tile)]  # type: ignore[list-item]
    )
    geo = block.geometry
    at = Coord(1, 0)
    assert ring_keeps(geo.masks, at, geo.steps(at, geo.masks[at]))
    corridor = Alhambra(
        [(Coord(1, 0), open_tile), (Coord(2, 0), open_tile), (Coord(3, 0), open_tile)]  # type: ignore[list-item]
    )
    geo = corridor.geometry
    at = Coord(2, 0)
    assert not ring_keeps(geo.masks, at, geo.steps(at, geo.masks[at]))
