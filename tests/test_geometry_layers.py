"""The general path of the building rules (``referee.geometry.general``) and the layers.

The general path answers every question for a layered Alhambra. For base pieces it must say
exactly what the fast path says (``referee.geometry.rules`` on ints): the property test below
compares both on random layouts, so a module's layer never changes a base verdict by being
there. The rules are those of ``rulebook-base-de-2003.txt``, "Alhambra-Bauregeln" and "Alhambra
umbauen".
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, Side
from referee.geometry import Alhambra, general, rules
from referee.geometry.layers import edge_key, read_edge, wall_between
from referee.record.model import Coord

ORIGIN = Coord(0, 0)


@dataclass(frozen=True)
class Block:
    walls: frozenset[Side]
    type: None = None


def block(mask: int) -> Block:
    return Block(frozenset(s for k, s in enumerate(SIDES) if mask >> k & 1))


def _random_alhambra(seed: int, n: int) -> Alhambra:
    rnd = random.Random(seed)
    alh = Alhambra()
    for _ in range(n):
        x, y = rnd.randint(-3, 3), rnd.randint(-3, 3)
        c = Coord(x, y)
        if c not in alh:
            alh.place(c, block(rnd.randrange(16)))
    return alh


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 18))
def test_the_general_path_agrees_with_the_fast_path(seed: int, n: int) -> None:
    alh = _random_alhambra(seed, n)
    rnd = random.Random(seed + 1)
    assert general.layout_problems(alh) == rules.layout_problems(alh)
    for _ in range(6):
        c = Coord(rnd.randint(-4, 4), rnd.randint(-4, 4))
        piece = block(rnd.randrange(16))
        assert general.placement_problems(alh, c, piece) == rules.placement_problems(
            alh, c, piece
        ), (c, piece)
        assert general.removal_problems(alh, c) == rules.removal_problems(alh, c), c
        assert general.swap_problems(alh, c, piece) == rules.swap_problems(alh, c, piece)
    piece = block(rnd.randrange(16))
    assert general.legal_cells(alh, piece) == rules.legal_cells(alh, piece)


def test_edges_are_canonical_north_or_east() -> None:
    # N1: "@x,y e" / "@x,y n"; the canonical form is the north or east edge of a cell
    assert edge_key(Coord(1, 1), Side.W) == (Coord(0, 1), Side.E)
    assert edge_key(Coord(1, 1), Side.S) == (Coord(1, 0), Side.N)
    assert read_edge(Coord(2, 0), "w") == (Coord(1, 0), Side.E)
    assert read_edge(Coord(2, 0), "o") == (Coord(2, 0), Side.E)  # German "Ost"
    assert read_edge(Coord(2, 0), "x") is None


def test_wall_between_reads_printed_walls_overlays_and_edges() -> None:
    alh = Alhambra([(Coord(1, 0), block(0b1000))])  # a wall on its west side
    facts = wall_between(alh.cells, alh.layers, ORIGIN, Side.E)
    assert facts.wall and not facts.double and not facts.passable and not facts.outer
    # the wall seen from the tile's side is not outer either: the fountain lies there
    assert not wall_between(alh.cells, alh.layers, Coord(1, 0), Side.W).outer
    # an overlay on the fountain (wooden walls may be built on the start tile)
    alh.add_overlay(ORIGIN, frozenset({Side.E, Side.N}))
    assert wall_between(alh.cells, alh.layers, ORIGIN, Side.E).double
    assert wall_between(alh.cells, alh.layers, ORIGIN, Side.N).outer

    # a gate on the double wall opens it for the walker
    @dataclass(frozen=True)
    class Gate:
        opens: bool = True
        locks: bool = True

    alh.place_edge(Coord(1, 0), Side.W, Gate())
    facts = wall_between(alh.cells, alh.layers, Coord(1, 0), Side.W)
    assert facts.wall and facts.double and facts.passable
