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


# ------------------------------------------------------------------ rule profiles (E20)


from referee.geometry import longest_outer_wall, reachable  # noqa: E402
from referee.geometry.pieces import Profile, SideKind  # noqa: E402

BASTION, GREEN = SideKind.BASTION, SideKind.GREEN


@dataclass(frozen=True)
class Camp:
    """A camp after "Die Feldlager": a bastion on one side, green sides elsewhere, the walk
    rule does not apply, transparent for the outer wall (reading A of the digest, L1179:
    "Stadtmauern mit Bastion werden genauso gewertet wie Stadtmauern ohne Bastion")."""

    bastion: Side = Side.S
    walls: frozenset[Side] = frozenset()
    type: None = None

    @property
    def profile(self) -> Profile:
        sides = {s: (BASTION if s is self.bastion else GREEN) for s in SIDES}
        return Profile(sides, walk_exempt=True, transparent=True)


def _codes(found: list[rules.BuildingProblem]) -> list[str]:
    return [p.code for p in found]


def test_a_bastion_meets_a_city_wall_and_green_only_green() -> None:
    # "Erlaubt: Grüne Seite an grüne Seite sowie Bastion an Stadtmauer"
    alh = Alhambra([(Coord(1, 0), block(0b0001))])  # a wall on its north side
    assert rules.placement_problems(alh, Coord(1, 1), Camp()) == []
    # "Nicht erlaubt: ... Bastion an Gebäudeseite ohne Stadtmauer": the fountain is open
    found = rules.placement_problems(alh, Coord(0, 1), Camp())
    assert _codes(found) == ["PLACE-SIDE"]
    assert found[0].sides == ((Coord(0, 1), Side.S),)
    alh.place(Coord(1, 1), Camp())
    # green beside green: allowed (a second camp whose bastion faces an empty cell)
    assert rules.placement_problems(alh, Coord(2, 1), Camp()) == []
    # "Grüne Seite ... an Gebäudeseite ohne Stadtmauer": a tile on the camp's green north side
    found = rules.placement_problems(alh, Coord(1, 2), block(0b0000))
    assert _codes(found)[0] == "PLACE-SIDE"
    assert found[0].sides == ((Coord(1, 2), Side.S),)
    # the same read on a whole layout
    alh.place(Coord(1, 2), block(0b0000))
    assert "PLACE-SIDE" in _codes(rules.layout_problems(alh))


def test_a_camp_is_exempt_from_the_walker_and_transparent_for_the_outer_wall() -> None:
    alh = Alhambra([(Coord(1, 0), block(0b0001))])
    alh.place(Coord(1, 1), Camp())
    # not reachable on foot (across the wall), yet no walker problem: the rule does not apply
    assert Coord(1, 1) not in reachable(alh)
    assert rules.layout_problems(alh) == []
    # the wall under the bastion still counts as outer wall
    assert (Coord(1, 0), Side.N) in longest_outer_wall(alh).segments
    # nobody walks across a camp: a tile beyond it is cut off
    alh.place(Coord(1, 2), block(0b0000))
    assert "PLACE-WALK" in _codes(rules.layout_problems(alh))


def test_a_half_piece_is_walked_across_by_its_legs() -> None:
    @dataclass(frozen=True)
    class Tower:
        half_at: str = "sw"
        walls: frozenset[Side] = frozenset()
        type: None = None

    alh = Alhambra([(Coord(0, 1), block(0))])
    alh.place(Coord(1, 1), Tower())  # legs west (to 0,1) and south (to 1,0)
    assert rules.placement_problems(alh, Coord(1, 0), block(0)) == []
    alh.place(Coord(1, 0), block(0))
    assert Coord(1, 1) in reachable(alh)
    # the closed sides: nothing north or east of it
    assert _codes(rules.placement_problems(alh, Coord(2, 1), block(0))) == ["PLACE-CLOSED"]


# --------------------------------------------------------------- two cells, locks (E24, E22)


@dataclass(frozen=True)
class Pair:
    """A piece over two cells, its second cell on the east, no walls."""

    second: Side = Side.E
    types: tuple[None, None] = (None, None)
    part_walls: tuple[frozenset[Side], frozenset[Side]] = (frozenset(), frozenset())
    footprint: str = "two-cells"
    walls: frozenset[Side] = frozenset()
    type: None = None


def test_a_two_cell_piece_closing_a_pocket_is_judged_as_one() -> None:
    # a ring of tiles round the pocket 1,1-2,1, open towards 0,1: one tile on 1,1 alone would
    # shut 2,1 in; the pair fills both cells at once ("Bei einem Umbau werden die
    # Großprojekte als ein Plättchen betrachtet")
    ring = [(1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 2), (1, 2)]
    alh = Alhambra([(Coord(x, y), block(0)) for x, y in ring])
    assert rules.holes(alh) == []
    assert _codes(rules.placement_problems(alh, Coord(1, 1), block(0))) == ["PLACE-HOLE"]
    assert rules.placement_problems(alh, Coord(1, 1), Pair()) == []
    alh.place(Coord(1, 1), Pair())
    assert len(alh.pieces()) == len(ring) + 1
    # removed as one (either cell): both cells free, the pocket open again
    assert rules.removal_problems(alh, Coord(2, 1)) == []
    # swapped for a one-cell tile at its anchor: 2,1 is left shut in
    found = rules.swap_problems(alh, Coord(2, 1), block(0))
    assert found == [rules.BuildingProblem("REMOVE-HOLE", (Coord(2, 1),))]
    assert rules.swap_problems(alh, Coord(2, 1), Pair()) == []
    trial = alh.copy()
    trial.remove(Coord(2, 1))
    assert Coord(1, 1) not in trial and Coord(2, 1) not in trial


def test_a_locking_edge_piece_forbids_swap_and_removal() -> None:
    @dataclass(frozen=True)
    class Lock:
        locks: bool = True

    alh = Alhambra([(Coord(1, 0), block(0)), (Coord(2, 0), block(0))])
    alh.place_edge(Coord(2, 0), Side.W, Lock())
    assert _codes(rules.swap_problems(alh, Coord(2, 0), block(0))) == ["REMOVE-LOCKED"]
    assert _codes(rules.removal_problems(alh, Coord(1, 0))) == ["REMOVE-LOCKED", "REMOVE-WALK"]
    assert rules.removal_problems(alh, ORIGIN) == [
        rules.BuildingProblem("REMOVE-FOUNTAIN", (ORIGIN,))
    ]
    text = rules.removal_problems(alh, Coord(2, 0))[0].text("de")
    assert "REMOVE-LOCKED" in text and "Die Tore der Stadt" in text


def test_rays_and_the_second_longest_wall_read_the_effective_walls() -> None:
    from referee.geometry.queries import ray, second_longest_wall

    alh = Alhambra([(Coord(1, 0), block(0b0010)), (Coord(2, 0), block(0b1000))])
    alh.place(Coord(3, 0), block(0))
    # "inner walls do not break it" (Feldlager) unless asked: the double wall between 1,0 and 2,0
    assert ray(alh, ORIGIN, Side.E) == (Coord(1, 0), Coord(2, 0), Coord(3, 0))
    assert ray(alh, ORIGIN, Side.E, cross_walls=False) == (Coord(1, 0),)

    @dataclass(frozen=True)
    class Gate:
        opens: bool = True

    alh.place_edge(Coord(1, 0), Side.E, Gate())
    assert ray(alh, ORIGIN, Side.E, cross_walls=False)[-1] == Coord(3, 0)  # a gate opens it
    # an added wall on the fountain: a wall run of its own beside the tiles' runs
    alh.add_overlay(ORIGIN, frozenset({Side.W}))
    alh.add_overlay(Coord(3, 0), frozenset({Side.N, Side.E}))
    assert longest_outer_wall(alh).length == 2
    assert second_longest_wall(alh, how="piece").segments == ((ORIGIN, Side.W),)


def test_footprints_are_read_from_a_token_name() -> None:
    # N3: "wt:Tsw" (the triangle fills the SW half), "gp:PSe" (the second cell to the east)
    from referee.geometry.layers import corner_key, read_half, read_second

    assert read_half("Tsw") == ("T", "sw") and read_half("Tx") is None
    assert read_second("PSe") == ("PS", Side.E) and read_second("PSx") is None
    assert corner_key(Coord(1, 1), "sw") == ORIGIN and corner_key(ORIGIN, "up") is None
