"""Building rules: ``rulebook-base-de-2003.txt``, "Alhambra-Bauregeln" and "Alhambra umbauen".

Pictures: see ``test_geometry_pictures.py`` (north up; ``F`` fountain, ``.`` empty, tokens are
walls, ``-`` none, an upper-case letter first gives the building type).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_geometry_pictures import layout, tile

from referee.catalogue import BuildingType, Side, TileKind, catalogue
from referee.geometry import (
    FOUNTAIN,
    ORIGIN,
    Alhambra,
    BuildingProblem,
    holes,
    layout_problems,
    legal_cells,
    placement_problems,
    reachable,
    removal_problems,
    swap_problems,
)
from referee.record.model import Coord


def codes(problems: list[BuildingProblem]) -> list[str]:
    return [p.code for p in problems]


# ------------------------------------------------------------------------------ the grid


def test_fountain_always_at_origin_and_never_removed() -> None:
    alh = Alhambra()
    assert alh[ORIGIN] is FOUNTAIN
    assert alh.buildings() == []
    with pytest.raises(ValueError):
        alh.remove(ORIGIN)
    with pytest.raises(ValueError):
        alh.place(ORIGIN, tile("-"))
    with pytest.raises(KeyError):
        alh.remove(Coord(1, 0))


def test_grid_place_remove_copy_counts_bounds() -> None:
    alh = Alhambra()
    alh.place(Coord(1, 0), tile("T-"))
    alh.place(Coord(0, -1), tile("A-"))
    other = alh.copy()
    assert other == alh
    assert alh.remove(Coord(1, 0)) == tile("T-")
    assert Coord(1, 0) not in alh and Coord(1, 0) in other
    assert other.counts()[BuildingType.TOWER] == 1
    assert alh.counts()[BuildingType.TOWER] == 0
    assert other.bounds() == (0, -1, 1, 0)
    assert [c for c, _ in other.buildings()] == [Coord(1, 0), Coord(0, -1)]
    assert len(other) == 3


# ---------------------------------------------------------------------------- placement
# Rulebook "Alhambra-Bauregeln": "NICHT erlaubt sind folgende Kombinationen" (pictures).


def test_first_tiles_around_the_fountain() -> None:
    alh = Alhambra()
    assert legal_cells(alh, tile("-")) == [Coord(0, 1), Coord(-1, 0), Coord(1, 0), Coord(0, -1)]
    # a wall never faces the fountain (it has none)
    assert legal_cells(alh, tile("s")) == [Coord(-1, 0), Coord(1, 0), Coord(0, -1)]
    assert legal_cells(alh, tile("n")) == [Coord(0, 1), Coord(-1, 0), Coord(1, 0)]
    assert legal_cells(alh, tile("nes")) == [Coord(1, 0)]  # only its west side is open
    assert legal_cells(alh, tile("new")) == [Coord(0, 1)]


def test_occupied() -> None:
    alh = layout("F -")
    assert codes(placement_problems(alh, Coord(1, 0), tile("-"))) == ["PLACE-OCCUPIED"]
    assert codes(placement_problems(alh, ORIGIN, tile("-"))) == ["PLACE-OCCUPIED"]


def test_corner_only_contact_is_not_adjacent() -> None:
    # "Gebäudeplättchen berühren sich nicht mit mindestens einer Seite."
    #   .  X        X = 1,1 touches the fountain over the corner only
    #   F  .
    alh = Alhambra()
    problems = placement_problems(alh, Coord(1, 1), tile("-"))
    assert codes(problems) == ["PLACE-ADJACENT"]  # not also PLACE-WALK (implied)
    assert problems[0].cells == (Coord(1, 1),)
    assert codes(placement_problems(alh, Coord(3, 0), tile("-"))) == ["PLACE-ADJACENT"]


def test_wall_meets_no_wall() -> None:
    # "Seite mit Stadtmauer trifft auf Seite ohne Stadtmauer"
    #   F  -  X       X has a west wall, the tile at 1,0 has no east wall
    alh = layout("F -")
    problems = placement_problems(alh, Coord(2, 0), tile("w"))
    assert codes(problems) == ["PLACE-WALL", "PLACE-WALK"]
    assert problems[0].cells == (Coord(1, 0),)
    assert problems[0].sides == ((Coord(2, 0), Side.W),)
    # and the other way round: a wall on the neighbour, none on the new tile
    alh = layout("F e")
    assert codes(placement_problems(alh, Coord(2, 0), tile("-"))) == ["PLACE-WALL", "PLACE-WALK"]
    # a wall facing an empty cell is fine
    alh = layout("F -")
    assert placement_problems(alh, Coord(2, 0), tile("e")) == []


def test_wall_mismatch_on_one_side_only() -> None:
    #   -  X          X has a west wall: it meets 0,1 (no east wall); its south side is open
    #   F  -
    alh = layout(
        """
        -   .
        F   -
        """
    )
    problems = placement_problems(alh, Coord(1, 1), tile("w"))
    assert codes(problems) == ["PLACE-WALL"]  # reachable from 1,0: no PLACE-WALK
    assert problems[0].cells == (Coord(0, 1),)
    assert problems[0].sides == ((Coord(1, 1), Side.W),)


def test_walker_rule_tower_behind_a_wall() -> None:
    # "„Fussgänger-Regel“ verletzt: man kommt vom Startplättchen nicht zum Turm ohne eine
    # Stadtmauer zu überqueren."
    #   F  e  X       walls match (e meets w), but the way to the tower crosses the wall
    alh = layout("F e")
    problems = placement_problems(alh, Coord(2, 0), tile("Tw"))
    assert codes(problems) == ["PLACE-WALK"]
    assert problems[0].cells == (Coord(2, 0),)


def test_walker_rule_reach_via_another_side() -> None:
    #   -  X          X at 1,1: reached from 0,1 or from 1,0 (e has no north wall)
    #   F  e
    alh = layout(
        """
        -   .
        F   e
        """
    )
    # X at 1,1: west side open to 0,1 (reachable), south side meets e's north (no wall)
    assert placement_problems(alh, Coord(1, 1), tile("T-")) == []
    assert codes(placement_problems(alh, Coord(1, 1), tile("Tw"))) == ["PLACE-WALL"]


def test_enclosed_empty_area_by_an_arcade() -> None:
    # "Die Platzierung der Arkaden erzeugt einen vollständig umbauten leeren Bereich."
    #   -  -  -
    #   -  .  X       X = arcades at 2,1 closes the ring around 1,1
    #   F  -  -
    alh = layout(
        """
        -  -  -
        -  .  .
        F  -  -
        """
    )
    problems = placement_problems(alh, Coord(2, 1), tile("A-"))
    assert codes(problems) == ["PLACE-HOLE"]
    assert problems[0].cells == (Coord(1, 1),)
    assert Coord(2, 1) not in legal_cells(alh, tile("A-"))
    assert Coord(1, 1) in legal_cells(alh, tile("A-"))  # filling the gap first is fine


def test_hole_of_two_cells_and_larger() -> None:
    #   -  -  -  -
    #   -  .  .  X
    #   F  -  -  -
    alh = layout(
        """
        -  -  -  -
        -  .  .  .
        F  -  -  -
        """
    )
    problems = placement_problems(alh, Coord(3, 1), tile("-"))
    assert codes(problems) == ["PLACE-HOLE"]
    assert problems[0].cells == (Coord(1, 1), Coord(2, 1))


def test_hole_and_wall_mismatch_both_reported() -> None:
    alh = layout(
        """
        -  -  -
        -  .  .
        F  -  -
        """
    )
    problems = placement_problems(alh, Coord(2, 1), tile("n"))
    assert codes(problems) == ["PLACE-WALL", "PLACE-HOLE"]
    assert problems[0].cells == (Coord(2, 2),)


def test_corner_only_tile_can_close_a_hole() -> None:
    # The empty cell 0,1 is closed in by -1,1, 0,2, the fountain and X = 1,1, which touches
    # the Alhambra over corners only:
    #   .  -  .
    #   -  .  X
    #   .  F  .
    alh = layout(
        """
        .  -  .
        -  .  .
        .  F  .
        """
    )
    problems = placement_problems(alh, Coord(1, 1), tile("-"))
    assert codes(problems) == ["PLACE-ADJACENT", "PLACE-HOLE"]
    assert problems[1].cells == (Coord(0, 1),)


def test_no_hole_when_the_area_stays_open() -> None:
    #   -  -  -  X
    #   -  .  .  .    1,1 and 2,1 stay open to the east through 3,1
    #   F  -  -  X
    alh = layout(
        """
        -  -  -  .
        -  .  .  .
        F  -  -  .
        """
    )
    assert placement_problems(alh, Coord(3, 2), tile("-")) == []
    assert placement_problems(alh, Coord(3, 0), tile("-")) == []
    alh.place(Coord(3, 2), tile("-"))
    alh.place(Coord(3, 0), tile("-"))
    assert codes(placement_problems(alh, Coord(3, 1), tile("-"))) == ["PLACE-HOLE"]


# ------------------------------------------------------------------------------ removal
# "Auch nach den Umbaumaßnahmen muss die Alhambra gemäß den Bauregeln aufgebaut sein. Das
# Startplättchen darf niemals umgebaut oder entfernt werden." ("Alhambra umbauen")


def test_remove_fountain_and_empty() -> None:
    alh = layout("F -")
    assert codes(removal_problems(alh, ORIGIN)) == ["REMOVE-FOUNTAIN"]
    assert codes(removal_problems(alh, Coord(5, 5))) == ["REMOVE-EMPTY"]
    assert removal_problems(alh, Coord(1, 0)) == []
    assert codes(swap_problems(alh, ORIGIN, tile("-"))) == ["REMOVE-FOUNTAIN"]
    assert codes(swap_problems(alh, Coord(2, 0), tile("-"))) == ["REMOVE-EMPTY"]


def test_remove_cuts_tiles_off() -> None:
    #   F  -  -  T-     removing 1,0 leaves 2,0 and 3,0 cut off
    alh = layout("F - - T-")
    problems = removal_problems(alh, Coord(1, 0))
    assert codes(problems) == ["REMOVE-WALK"]
    assert problems[0].cells == (Coord(2, 0), Coord(3, 0))
    assert removal_problems(alh, Coord(3, 0)) == []


def test_remove_cuts_walking_path_but_keeps_contact() -> None:
    #   e   we  Tw      the tower at 2,1 is reached through 2,0 only (1,1 faces it with a wall)
    #   F   -   -
    alh = layout(
        """
        e   we  Tw
        F   -   -
        """
    )
    assert layout_problems(alh) == []
    # 2,1 is reached via 2,0; removing 2,0 leaves it touching 1,1 over a wall only
    problems = removal_problems(alh, Coord(2, 0))
    assert codes(problems) == ["REMOVE-WALK"]
    assert problems[0].cells == (Coord(2, 1),)


def test_remove_opens_a_hole() -> None:
    #   -  -  -
    #   -  X  -      removing the middle tile leaves an enclosed empty cell
    #   F  -  -
    alh = layout(
        """
        -  -  -
        -  -  -
        F  -  -
        """
    )
    problems = removal_problems(alh, Coord(1, 1))
    assert codes(problems) == ["REMOVE-HOLE"]
    assert problems[0].cells == (Coord(1, 1),)
    assert removal_problems(alh, Coord(2, 1)) == []


def test_swap_rules() -> None:
    alh = layout("F - -")
    assert swap_problems(alh, Coord(2, 0), tile("T-")) == []
    assert swap_problems(alh, Coord(2, 0), tile("Te")) == []
    assert codes(swap_problems(alh, Coord(2, 0), tile("Tw"))) == ["PLACE-WALL", "PLACE-WALK"]
    # the middle tile with a wall to the east: walls mismatch and 2,0 is cut off
    problems = swap_problems(alh, Coord(1, 0), tile("e"))
    assert codes(problems) == ["PLACE-WALL", "REMOVE-WALK"]
    assert problems[1].cells == (Coord(2, 0),)
    # the grid itself is unchanged
    assert alh[Coord(1, 0)] == tile("-")


# ------------------------------------------------------------------------------ layouts


def test_valid_layout_has_no_problems() -> None:
    alh = layout(
        """
        nw  n   ne
        w   F   e
        sw  s   se
        """
    )
    assert layout_problems(alh) == []
    assert reachable(alh) == frozenset(alh.cells)
    assert holes(alh) == []


def test_layout_reports_every_rule() -> None:
    # 4,2 touches nothing; 1,1 is enclosed; 1,0 shows a wall to the fountain (mismatch) and
    # one to 2,0 (matching), so nobody can walk to it
    alh = layout(
        """
        -   -   -   .   -
        -   .   -   .   .
        F   ew  w   .   .
        """
    )
    found = {p.code: p for p in layout_problems(alh)}
    assert set(found) == {"PLACE-WALL", "PLACE-ADJACENT", "PLACE-WALK", "PLACE-HOLE"}
    assert found["PLACE-WALL"].sides == ((ORIGIN, Side.E),)
    assert found["PLACE-ADJACENT"].cells == (Coord(4, 2),)
    assert found["PLACE-HOLE"].cells == (Coord(1, 1),)
    assert found["PLACE-WALK"].cells == (Coord(1, 0),)


def test_holes_lists_each_area() -> None:
    alh = layout(
        """
        -  -  -  -  -
        -  .  -  .  -
        F  -  -  -  -
        """
    )
    assert holes(alh) == [(Coord(1, 1),), (Coord(3, 1),)]


# ----------------------------------------------------------------------- properties

_TILES = catalogue().tiles


@st.composite
def grown(draw: st.DrawFn) -> Alhambra:
    """An Alhambra grown by legal placements (and some legal removals) of catalogue tiles."""
    alh = Alhambra()
    steps = draw(st.integers(min_value=0, max_value=30))
    for _ in range(steps):
        if alh.buildings() and draw(st.integers(0, 5)) == 0:
            at = draw(st.sampled_from([c for c, _ in alh.buildings()]))
            if not removal_problems(alh, at):
                alh.remove(at)
            continue
        piece = draw(st.sampled_from(_TILES))
        cells = legal_cells(alh, piece)
        if cells:
            alh.place(draw(st.sampled_from(cells)), piece)
    return alh


def _frontier(alh: Alhambra) -> set[Coord]:
    x0, y0, x1, y1 = alh.bounds()
    return {
        Coord(x, y)
        for x in range(x0 - 2, x1 + 3)
        for y in range(y0 - 2, y1 + 3)
        if Coord(x, y) not in alh
    }


@settings(max_examples=60, deadline=None)
@given(grown(), st.sampled_from(_TILES))
def test_legal_cells_are_exactly_the_problem_free_cells(alh: Alhambra, piece: TileKind) -> None:
    assert layout_problems(alh) == []
    expected = sorted(
        (c for c in _frontier(alh) if not placement_problems(alh, c, piece)),
        key=lambda c: (-c.y, c.x),
    )
    assert legal_cells(alh, piece) == expected


@settings(max_examples=60, deadline=None)
@given(grown(), st.sampled_from(_TILES), st.data())
def test_problems_match_the_resulting_layout(
    alh: Alhambra, piece: TileKind, data: st.DataObject
) -> None:
    """Placing where the only problem is a hole creates exactly that hole; legal places none."""
    cells = sorted(_frontier(alh), key=lambda c: (c.x, c.y))
    at = data.draw(st.sampled_from(cells))
    problems = placement_problems(alh, at, piece)
    after = alh.copy()
    after.place(at, piece)
    found = {p.code: p for p in problems}
    hole_cells = tuple(sorted((c for h in holes(after) for c in h), key=lambda c: (-c.y, c.x)))
    if "PLACE-HOLE" in found:
        assert found["PLACE-HOLE"].cells == hole_cells
    else:
        assert hole_cells == ()
    if not problems:
        assert layout_problems(after) == []
        # nothing depends on the newest tile yet: taking it away again is allowed
        assert removal_problems(after, at) == []


@settings(max_examples=40, deadline=None)
@given(grown(), st.data())
def test_removals_keep_the_layout_valid(alh: Alhambra, data: st.DataObject) -> None:
    tiles = [c for c, _ in alh.buildings()]
    if not tiles:
        return
    at = data.draw(st.sampled_from(tiles))
    problems = removal_problems(alh, at)
    after = alh.copy()
    after.remove(at)
    assert (problems == []) == (layout_problems(after) == [])
    piece = data.draw(st.sampled_from(_TILES))
    swapped = alh.copy()
    swapped.remove(at)
    swapped.place(at, piece)
    assert (swap_problems(alh, at, piece) == []) == (layout_problems(swapped) == [])
