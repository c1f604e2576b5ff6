"""The text report's one-match safety check gives what the line-by-line escaping gives.

``render_text`` shows record text only through ``safe_text.line`` and ``bounded``; a report
whose lines are all plain Latin text and within the bound is now checked in one match (issue
34). Here every report is rendered both ways (the one-match check switched off: it answers
no) and must be the same text: plain games, hostile names (controls, bidi, a line break,
thousands of characters), violations, German. The check's ASCII shortcut answers as its
pattern does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.commands.check import _check_job, _jobs, _Options
from referee.reports import check_report

ROOT = Path(__file__).resolve().parent.parent
GAME = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")


def _both(monkeypatch: pytest.MonkeyPatch, text: str, tmp_path: Path, lang: str) -> None:
    path = tmp_path / "g.alh"
    path.write_text(text, encoding="utf-8")
    opts = _Options(None, False, "text", lang, True)

    def run() -> list[Any]:
        return [_check_job(job, opts).text for job in _jobs((str(path),))]

    fast = run()
    with monkeypatch.context() as m:
        m.setattr(check_report, "_plain_lines", lambda text: False)
        slow = run()
    assert fast == slow
    assert all(fast)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(
    "name",
    [
        None,  # the example as it is
        "Zoë",
        "Ann\x1b]0;title\x07a",
        "Ann\u202ea",
        "Ann\u2028a",
        "A" * 3000,
        "Ännchen\x85",
    ],
)
def test_same_report_both_ways(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str | None, lang: str
) -> None:
    text = GAME
    if name is not None:
        first = re.search(r'\[Players "([^",]+)', GAME)
        assert first is not None
        text = GAME.replace(first[1], name)
    _both(monkeypatch, text, tmp_path, lang)


def test_violations_and_errors_both_ways(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lines = GAME.splitlines()
    turns = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    broken = list(lines)
    broken[turns[5]] = broken[turns[5]].replace("take", "take Gu9 Di9 De9")
    _both(monkeypatch, "\n".join(broken) + "\n", tmp_path, "en")
    bad_syntax = list(lines)
    bad_syntax[turns[3]] += " ,, \x1b[2J"
    _both(monkeypatch, "\n".join(bad_syntax) + "\n", tmp_path, "de")


def test_every_example_both_ways(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for path in sorted((ROOT / "examples").glob("*.alh"))[:20]:
        _both(monkeypatch, path.read_text(encoding="utf-8"), tmp_path, "en")


@given(st.text(alphabet=st.characters(max_codepoint=0x400), max_size=40))
def test_plain_lines_is_the_pattern(text: str) -> None:
    """The ASCII shortcut of the one-match check answers as the pattern does."""
    expected = check_report._PLAIN_LINES.fullmatch(text) is not None
    assert check_report._plain_lines(text) is expected


@pytest.mark.parametrize("code", range(0x100))
def test_plain_lines_every_byte(code: int) -> None:
    for text in (chr(code), f"ab\n{chr(code)}cd", f"x{chr(code)}"):
        expected = check_report._PLAIN_LINES.fullmatch(text) is not None
        assert check_report._plain_lines(text) is expected
