"""The scoring tables' aligned numbers (issue 34, seventh step): the count and points columns
take strings from :class:`referee.scoring.text._Padded` instead of formatting each number with
a width; every string must be what ``format(n, f">{width}")`` gives."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from referee.catalogue import BUILDING_TYPES
from referee.scoring.categories import num_text
from referee.scoring.core import CountAdjustment, type_score
from referee.scoring.text import _lang, _Padded


@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(min_value=0, max_value=12))
def test_padded_int_is_the_width_format(n: int, width: int) -> None:
    col = _Padded(width)
    assert col[n] == format(n, f">{width}")
    assert col[n] == format(n, f">{width}")  # the stored entry, asked again
    assert col.text(n) == format(n, f">{width}")


def _outcome(f: Callable[[object], str], x: object) -> object:
    try:
        return f(x)
    except TypeError as exc:
        return type(exc)


def test_padded_other_numbers_go_through_format() -> None:
    col = _Padded(6)
    for x in (True, False, 2.5, -0.5):
        assert col.text(x) == format(x, ">6")
    # a fraction: whatever the width format gives (Python 3.11 raises TypeError, 3.12 formats)
    for x in (Fraction(9, 2), Fraction(-1, 2)):
        assert _outcome(col.text, x) == _outcome(lambda v: format(v, ">6"), x)
    col[1]  # an int entry first: True shares its key and its text
    assert col.text(True) == format(True, ">6") == col[1]


def test_padded_is_bounded() -> None:
    col = _Padded(4)
    for n in range(10_000):
        assert col[n] == format(n, ">4")
    assert len(col) <= 4096


def test_language_columns_have_the_header_widths() -> None:
    for lang, count_w, points_w in (("en", 5, 6), ("de", 6, 6)):
        tongue = _lang(lang)
        assert (tongue.count_w, tongue.points_w) == (count_w, points_w)
        assert tongue.count_col[7] == format(7, f">{count_w}")
        assert tongue.points_col[13] == format(13, f">{points_w}")


@given(
    st.sampled_from(["en", "de"]),
    st.integers(min_value=0, max_value=30),
    st.one_of(st.none(), st.integers(min_value=1, max_value=12)),
    st.lists(st.sampled_from(["Ben", "Dirk", "Cleo"]), max_size=3, unique=True),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["", "(13+6)/2 = 9", "(5+0)/2 = 2"]),
)
def test_type_parts_are_the_line_columns(
    lang: str, count: int, place: int | None, tied: list[str], points: int, split: str
) -> None:
    """A type's columns, worked out once per score and kept by its id, are those of the line
    formatted with the widths: count and points aligned right, the place as `place` says."""
    tongue = _lang(lang)
    score = type_score(count, count, (), place, tuple(tied), points, split)
    want = (
        format(count, f">{tongue.count_w}"),
        tongue.place(score),
        format(points, f">{tongue.points_w}"),
        f"  {split}" if split else "",
    )
    assert tongue.type_parts(score) == want
    assert tongue.parts[id(score)] == want  # kept: the table asks the cache first
    # the score itself is kept while its id is a key (a score asked again is kept again)
    assert any(kept is score for kept in tongue.kept)
    assert len(tongue.parts) <= len(tongue.kept) <= 4096


def test_type_parts_with_adjustments_are_not_kept() -> None:
    tongue = _lang("en")
    adj = (CountAdjustment(BUILDING_TYPES[0], Fraction(1, 2), "half a tower"),)
    score = type_score(Fraction(5, 2), 2, adj, 1, (), 8, "")
    parts = tongue.type_parts(score)
    assert parts[0] == num_text(Fraction(5, 2)).rjust(tongue.count_w)
    assert id(score) not in tongue.parts
