"""The scoring's cheap paths equal the general ones: records made by ``record_maker`` equal
those of the dataclass's ``__init__``; the building majority's memo by position (no count
adjustment) gives what the general ranking gives; the pieces' count equals ``Alhambra.counts``."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.geometry import Alhambra
from referee.makers import record_maker
from referee.record.model import Coord
from referee.scoring.categories import (
    BuildingMajority,
    Participant,
    rank,
)
from referee.scoring.core import (
    POINTS,
    CountAdjustment,
    ScoringEntry,
    ScoringResult,
    ScoringRow,
    TypeScore,
    WallScore,
    _building_counts,
    participant,
)

T = BuildingType.TOWER


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    assert a == b
    assert a.__dict__ == b.__dict__
    assert list(a.__dict__) == list(b.__dict__)  # field order too
    assert repr(a) == repr(b)


def test_maker_equals_init_with_defaults_and_factories() -> None:
    _same(record_maker(ScoringEntry)("Anna"), ScoringEntry("Anna"))
    _same(
        record_maker(ScoringEntry)("Ben", counts={T: 2}, is_dirk=True, total_before=7),
        ScoringEntry("Ben", counts={T: 2}, is_dirk=True, total_before=7),
    )
    row = record_maker(ScoringRow)("Anna", False, {}, 3)  # labels: the default factory
    _same(row, ScoringRow("Anna", False, {}, 3))
    assert row.labels == {} and row.labels is not record_maker(ScoringRow)("B", False, {}, 0).labels
    _same(record_maker(ScoringResult)(1, ()), ScoringResult(1, ()))
    _same(record_maker(WallScore)(4, 4, (), True), WallScore(4, 4, (), verified=True))
    args = (3, 3, (), 1, ("Ben",), 13, "(21+13+6)/3 = 13")
    _same(record_maker(TypeScore)(*args), TypeScore(*args))
    made = record_maker(Participant)("Anna", False, {T: 1}, {T: 1}, ())
    _same(made, Participant("Anna", False, {T: 1}, {T: 1}, ()))
    assert hash(made.adjustments) == hash(())


def test_maker_keeps_the_record_frozen() -> None:
    import dataclasses

    import pytest

    entry = record_maker(ScoringEntry)("Anna")
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.name = "Ben"  # type: ignore[misc]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=7),
    st.sampled_from([1, 2, 3]),
    st.booleans(),
)
def test_majority_by_position_equals_the_general_ranking(
    counts: list[int], round_no: int, adjusted: bool
) -> None:
    names = [f"P{i}" for i in range(len(counts))]
    zero = CountAdjustment(T, 0, "nothing")  # an adjustment: the general path, same counts
    people = [
        participant(
            ScoringEntry(n, counts={T: c}, adjustments=(zero,) if adjusted and i == 0 else ())
        )
        for i, (n, c) in enumerate(zip(names, counts, strict=True))
    ]
    table = POINTS[round_no][T]
    got = BuildingMajority(T).score(round_no, people, None)  # type: ignore[arg-type]
    expected = rank([(n, c, None) for n, c in zip(names, counts, strict=True) if c > 0], table)
    assert list(got) == names
    for n, c in zip(names, counts, strict=True):
        s = got[n]
        assert isinstance(s, TypeScore)
        assert (s.count, s.base_count) == (c, c)
        pl = expected.get(n)
        if pl is None:
            assert (s.place, s.tied_with, s.points, s.split) == (None, (), 0, "")
        else:
            assert (s.place, s.tied_with, s.points, s.split) == (
                pl.place,
                pl.tied_with,
                pl.points,
                pl.split,
            )
        assert s.adjustments == ((zero,) if adjusted and n == "P0" else ())


def test_half_counts_take_the_general_path() -> None:
    half = CountAdjustment(T, Fraction(1, 2), "half")
    people = [
        participant(ScoringEntry("A", counts={T: 2}, adjustments=(half,))),
        participant(ScoringEntry("B", counts={T: 2})),
    ]
    got = BuildingMajority(T).score(1, people, None)  # type: ignore[arg-type]
    assert got["A"].points == 6 and got["B"].points == 0  # type: ignore[attr-defined]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(BUILDING_TYPES), max_size=20))
def test_building_counts_equal_the_alhambra_counts(types: list[BuildingType]) -> None:
    from referee.catalogue import TileKind

    alh = Alhambra()
    for i, t in enumerate(types):
        alh.place(Coord(i + 1, 0), TileKind(t, 2, frozenset()))
    assert _building_counts(alh) == alh.counts()
    assert list(_building_counts(alh)) == list(BUILDING_TYPES)
