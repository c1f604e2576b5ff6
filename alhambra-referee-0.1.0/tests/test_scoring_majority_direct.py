"""The building majorities' direct ranking of whole counts (``scores_by_position`` without
``placings``: a place is one more than the number of greater counts, a tie of two written out)
against the general path, for any points table a module may hand in (negative points, fewer
or more places than participants), ``rulebook-base-de-2003.txt``, "Siegpunkte für Mehrheiten
bei den Gebäuden": "Besitzen mehrere Spieler gleich viele Gebäude einer Sorte, so werden die
Punkte der entsprechenden Plätze geteilt. Dabei wird immer abgerundet." (issue 34, eighth
step)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.profiles import DEFAULT_PROFILE
from referee.scoring import CountAdjustment, ScoringEntry
from referee.scoring import categories as cat
from referee.scoring.categories import BuildingMajority
from referee.scoring.core import participant

NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritz")


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(list(BuildingType)),
    st.lists(st.integers(min_value=-1, max_value=6), min_size=1, max_size=6),
    st.lists(st.integers(min_value=-20, max_value=20), min_size=0, max_size=5),
)
def test_direct_ranking_is_the_general_one(
    type_: BuildingType, counts: list[int], table: list[int]
) -> None:
    """Each participant's score is the same by the direct ranking (no count adjustment) and
    by the general path (one adjustment of 0 on another type), the memo emptied first so the
    direct ranking runs."""
    names = list(NAMES[: len(counts)])
    other = next(t for t in BUILDING_TYPES if t is not type_)
    plain = [
        participant(ScoringEntry(n, counts={type_: c})) for n, c in zip(names, counts, strict=True)
    ]
    nudge = (CountAdjustment(other, 0, "nothing"),)
    general = [
        participant(ScoringEntry(n, counts={type_: c}, adjustments=nudge * (i == 0)))
        for i, (n, c) in enumerate(zip(names, counts, strict=True))
    ]
    category = BuildingMajority(type_, tuple(table))
    cat._SCORES.clear()
    common = category.score(2, plain, DEFAULT_PROFILE)
    reference = category.score(2, general, DEFAULT_PROFILE)
    assert list(common) == names
    for name in names:
        assert common[name] == reference[name]
        assert common[name].split == reference[name].split


def test_a_tie_of_two_shares_its_places() -> None:
    """Two of three with 4 buildings share the first two places of scoring 3 (16 + 8 for the
    pavilion): 12 each, "(16+8)/2 = 12"; the third, with 1, is third alone."""
    cat._SCORES.clear()
    people = [
        participant(ScoringEntry(n, counts={BuildingType.PAVILION: c}))
        for n, c in (("Anna", 4), ("Ben", 1), ("Cem", 4))
    ]
    got = BuildingMajority(BuildingType.PAVILION).score(3, people, DEFAULT_PROFILE)
    assert (got["Anna"].place, got["Anna"].points, got["Anna"].tied_with) == (1, 12, ("Cem",))
    assert got["Cem"].tied_with == ("Anna",)
    assert got["Anna"].split == "(16+8)/2 = 12"
    assert (got["Ben"].place, got["Ben"].points, got["Ben"].tied_with) == (3, 1, ())
