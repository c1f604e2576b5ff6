"""The building majorities' common path (no count adjustment, whole counts: kept scores by
position, a tie of two written out) against their general path (a line per participant from
:func:`placings`), ``rulebook-base-de-2003.txt``, "Siegpunkte für Mehrheiten bei den Gebäuden":
"Besitzen mehrere Spieler gleich viele Gebäude einer Sorte, so werden die Punkte der
entsprechenden Plätze geteilt. Dabei wird immer abgerundet." (issue 34, seventh step)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType
from referee.profiles import DEFAULT_PROFILE
from referee.scoring import CountAdjustment, ScoringEntry
from referee.scoring.categories import BuildingMajority
from referee.scoring.core import participant

NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritz")


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([1, 2, 3]),
    st.sampled_from(list(BuildingType)),
    st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=6),
    st.booleans(),
)
def test_common_path_is_the_general_path(
    round_no: int, type_: BuildingType, counts: list[int], dirk: bool
) -> None:
    """Each participant's score of a type is the same whether the category takes its common
    path or its general one (taken when any participant has a count adjustment of the type:
    here one of 0, which leaves every count of ``type_`` as it is; an adjustment of another
    type alone keeps the common path since the ninth step)."""
    names = [*NAMES[: len(counts)]]
    if dirk:
        names[-1] = "Dirk"
    plain = [
        participant(ScoringEntry(n, counts={type_: c}, is_dirk=n == "Dirk"))
        for n, c in zip(names, counts, strict=True)
    ]
    nudge = (CountAdjustment(type_, 0, "nothing"),)
    general = [
        participant(
            ScoringEntry(n, counts={type_: c}, is_dirk=n == "Dirk", adjustments=nudge * (i == 0))
        )
        for i, (n, c) in enumerate(zip(names, counts, strict=True))
    ]
    category = BuildingMajority(type_)
    common = category.score(round_no, plain, DEFAULT_PROFILE)
    reference = category.score(round_no, general, DEFAULT_PROFILE)
    assert list(common) == list(reference) == names  # every participant, in order
    for name in names:
        # the same score, place and ties; the reference names its (empty) adjustment
        assert common[name] == replace(reference[name], adjustments=common[name].adjustments)
        assert common[name].tied_with == reference[name].tied_with
        # a tie names the others who have as many, never the participant itself
        assert name not in common[name].tied_with
        mine = counts[names.index(name)]
        assert all(counts[names.index(o)] == mine for o in common[name].tied_with)
