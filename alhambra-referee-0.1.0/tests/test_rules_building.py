"""Building rules and redesign (rulebook-base-de-2003.txt, "Alhambra-Bauregeln" and
"Alhambra umbauen"): every "NICHT erlaubt" example of the rulebook, as a redesign from the
reserve or a placement of a bought tile, each with a legal counterpart."""

from __future__ import annotations

import pytest

from referee.engine import check_game
from referee.notation import parse_text


def position(alhambra: str, reserve: str, hand: str = "Gu3 De7", market: str = "") -> str:
    market = market or "Gu:T10 Di:G8ne De:A6sw Du:C9w"
    return (
        '[Players "Anna, Ben, Cem"]\n\n'
        "position\n"
        "  next Anna\n"
        f"  market {market}\n"
        "  display Gu1 Di4 De6 Du9\n"
        "  player Anna\n"
        f"    hand {hand}\n"
        f"    reserve {reserve}\n"
        f"    alhambra {alhambra}\n"
        "  player Ben\n"
        "    hand Du8\n"
        "  player Cem\n"
        "    hand Di2\n"
        "end\n"
    )


def check(text: str):
    games = parse_text(text, "b.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(rep) -> list[str]:
    return [v.code for v in rep.violations]


NO_WALLS = "A9@1,0 C10@2,0 C11@2,1 A10@0,1 G11@0,2"


@pytest.mark.parametrize(
    ("alhambra", "reserve", "action", "expected", "detail"),
    [
        # "Seite mit Stadtmauer trifft auf Seite ohne Stadtmauer": P3sw's west wall meets the
        # fountain's open east side
        ("A9@0,-1", "P3sw", "build P3sw@1,0", "PLACE-WALL", "W side (wall)"),
        # "Fussgänger-Regel verletzt": S8s sits on the north wall of G10n, walls match but
        # nobody can walk across them
        ("G10n@0,1", "S8s", "build S8s@0,2", "PLACE-WALK", "0,2"),
        # "Gebäudeplättchen berühren sich nicht mit mindestens einer Seite": corner contact
        ("A9@0,-1", "P8", "build P8@1,1", "PLACE-ADJACENT", "1,1"),
        # "Die Platzierung ... erzeugt einen vollständig umbauten leeren Bereich"
        (NO_WALLS, "T12", "build T12@1,2", "PLACE-HOLE", "1,1"),
        # the cell is taken
        ("A9@0,-1", "P8", "build P8@0,-1", "PLACE-OCCUPIED", "A9"),
    ],
)
def test_building_rule_examples(
    alhambra: str, reserve: str, action: str, expected: str, detail: str
) -> None:
    text = position(alhambra, reserve) + f"1. Anna: {action}\n"
    rep = check(text)
    # a wall against an open side also blocks the way on foot: both are reported
    assert codes(rep)[0] == expected, [v.message() for v in rep.violations]
    v = rep.violations[0]
    assert v.line == len(text.splitlines()) and v.turn == 1 and v.player == "Anna"
    assert detail in v.message()
    assert "Alhambra-Bauregeln" in v.rule.section


@pytest.mark.parametrize(
    ("alhambra", "reserve", "action"),
    [
        ("A9@0,-1", "P4es", "build P4es@1,0"),  # open west side meets the open fountain
        ("G10n@0,1", "S8s", "build S8s@1,0"),
        ("A9@0,-1", "P8", "build P8@1,-1"),
        (NO_WALLS, "T12", "build T12@1,1"),  # filling the would-be hole is fine
    ],
)
def test_building_rule_legal(alhambra: str, reserve: str, action: str) -> None:
    rep = check(position(alhambra, reserve) + f"1. Anna: {action}\n")
    assert codes(rep) == [], [v.message() for v in rep.violations]


def test_hole_of_two_cells() -> None:
    # an enclosed empty area of any size counts, not only single cells
    alh = "A9@1,0 C10@2,0 S9@3,0 C11@3,1 A10@0,1 G11@0,2 T11-@3,2"
    rep = check(position(alh, "T12 P8", hand="Gu3") + "1. Anna: build T12@1,2\n")
    assert codes(rep) == []
    rep = check(position(alh + " T12@1,2", "P8") + "1. Anna: build P8@2,2\n")
    # 1,1 and 2,1 are enclosed together
    assert codes(rep) == ["PLACE-HOLE"]
    assert "1,1, 2,1" in rep.violations[0].message()


def test_placement_of_bought_tile_checked() -> None:
    rep = check(position("A9@0,-1", "P8") + "1. Anna: buy Gu T10 pay Gu3 De7, place T10@1,1\n")
    assert "PLACE-ADJACENT" in codes(rep)


def test_remove_rules() -> None:
    base = position("A9@1,0", "P8")
    assert codes(check(base + "1. Anna: remove @0,0\n")) == ["REMOVE-FOUNTAIN"]
    assert codes(check(base + "1. Anna: remove @5,5\n")) == ["REMOVE-EMPTY"]
    # 1,1 is reached only through 1,0 (0,1 has a north wall ... 1,1 touches 0,1 on its west)
    ring = "A9@1,0 C10@2,0 C11@2,1 A10@0,1 G11@0,2 T12@1,2 T11-@1,1"
    assert codes(check(position(ring, "P8") + "1. Anna: remove T11-@1,1\n")) == ["REMOVE-HOLE"]
    chain = "A9@0,1 A10@0,2"
    rep = check(position(chain, "P8") + "1. Anna: remove @0,1\n")
    assert codes(rep) == ["REMOVE-WALK"]
    assert codes(check(position(chain, "P8") + "1. Anna: remove A10@0,2\n")) == []
    # naming a tile that does not lie there ("Ein Gebäudeteil Ihrer Alhambra abbauen")
    assert codes(check(position(chain, "P8") + "1. Anna: remove T13@0,2\n")) == [
        "REDESIGN-WRONG-TILE"
    ]


def test_swap_rules() -> None:
    alh = "A9@1,0 A10@0,1"
    ok = check(position(alh, "P8") + "1. Anna: swap P8@1,0 for A9\n")
    assert codes(ok) == []
    # the swap puts the tile exactly where the removed one was: no tile there
    assert codes(check(position(alh, "P8") + "1. Anna: swap P8@2,0\n")) == ["REDESIGN-SWAP-EMPTY"]
    assert codes(check(position(alh, "P8") + "1. Anna: swap P8@1,0 for T13\n")) == [
        "REDESIGN-WRONG-TILE"
    ]
    # the new tile must fit: P3sw's west wall against the fountain
    assert codes(check(position(alh, "P3sw") + "1. Anna: swap P3sw@1,0\n"))[0] == "PLACE-WALL"
    assert codes(check(position(alh, "P8") + "1. Anna: swap T13@1,0\n")) == [
        "REDESIGN-NOT-IN-RESERVE"
    ]
    assert codes(check(position(alh, "P8") + "1. Anna: swap P8@0,0\n")) == ["REMOVE-FOUNTAIN"]


def test_redesign_ends_the_turn() -> None:
    rep = check(position("A9@1,0", "P8") + "1. Anna: build P8@2,0, take Gu1\n")
    assert codes(rep) == ["TURN-OVER"]


def test_redesign_after_exact_purchase_then_place() -> None:
    # Beispiel (Alhambra umbauen): exact purchases, then a redesign, then the placements
    text = (
        position("A9@1,0", "P8", hand="Du9 Gu3 De7")
        + "1. Anna: buy Du C9w pay Du9, build P8@2,0, place C9w@-1,0\n"
    )
    rep = check(text)
    assert codes(rep) == [], [v.message() for v in rep.violations]


def test_position_layout_checked() -> None:
    rep = check(position("P3sw@1,0", "P8"))
    assert "POSITION-INVALID" in codes(rep)
