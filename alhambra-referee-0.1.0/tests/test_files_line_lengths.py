"""``check_line_lengths`` looks at one slice of ``MAX_LINE / 2`` characters at a time and walks
the lines only where a slice holds no line end: it must raise exactly where walking every line
raises (the same line number and offset), and stay silent exactly where that stays silent."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation import files
from referee.notation.files import LineTooLong, check_line_lengths


def _walked(data: str, first_line: int, offset: int) -> tuple[int, int] | None:
    """Where walking every line finds one too long: (line, offset), or None."""
    start, n = 0, first_line
    for line in data.split("\n"):
        if len(line) > files.MAX_LINE + 1:
            return n, offset + start
        start += len(line) + 1
        n += 1
    return None


def _found(data: str | bytes, first_line: int, offset: int) -> tuple[int, int] | None:
    try:
        check_line_lengths(data, first_line, offset)
    except LineTooLong as exc:
        return exc.line, exc.offset
    return None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=12),
    st.booleans(),
    st.integers(min_value=1, max_value=50),
)
def test_the_slices_find_what_walking_the_lines_finds(
    lengths: list[int], final_break: bool, first_line: int
) -> None:
    mp = pytest.MonkeyPatch()
    mp.setattr(files, "MAX_LINE", 9)  # lines of 11 characters or more are too long
    try:
        data = "\n".join("x" * k for k in lengths) + ("\n" if final_break else "")
        assert _found(data, first_line, 7) == _walked(data, first_line, 7)
        raw = data.encode()
        assert _found(raw, first_line, 7) == _walked(data, first_line, 7)
    finally:
        mp.undo()


@pytest.mark.parametrize("extra", [0, 1, 2, 3])
@pytest.mark.parametrize("at", [0, 1, 49_999, 50_000, 50_001, 150_003])
def test_lines_at_the_bound_in_real_sizes(extra: int, at: int) -> None:
    """A line of MAX_LINE + 1 + extra characters at every place of a block of 300,000."""
    line = "y" * (files.MAX_LINE + extra)
    head = ("ab\n" * (at // 3 + 1))[:at]
    head = head[: head.rfind("\n") + 1] if "\n" in head else ""
    data = head + line + "\n" + "cd\n" * 50_000
    assert _found(data, 1, 0) == _walked(data, 1, 0)
    assert (_found(data, 1, 0) is None) == (extra <= 1)
