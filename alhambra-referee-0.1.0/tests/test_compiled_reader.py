"""The fast reader as the compiled build runs it (issue 34, eighth step).

setup.py compiles ``referee/notation/fast.py`` and leaves the records Python, so the compiled
reader keeps its memo: a group or line seen once is marked with one object (``fast._SEEN``),
told apart by identity, and a shape used often enough (``fast._SETTINGS.hot`` times) gets a
generated builder. Compiled, a test ``known is _SEEN`` placed after a test that lets the type
checker narrow ``known`` to the memo's fixed-length tuple type compared a new box of it (never the
same object): every line seen again was taken for a template of shape None and its builder
stopped with ``IndexError`` once hot. These tests read the same games far past that and
ask for Lark's records every time; they run against the source and, with the compiled build
installed, against it (``bench/README.md``, "Issue 34, eighth step: the compiled build").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.notation import fast
from referee.notation.parser import parse_game_text, split_games

ROOT = Path(__file__).resolve().parents[1]


def _games(path: Path) -> list[tuple[int, str]]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return list(split_games(lines))


def _lark(text: str, source: str, start: int) -> str:
    fast.ENABLED = False
    try:
        return repr(parse_game_text(text, source, start))
    finally:
        fast.ENABLED = True


@pytest.mark.parametrize("name", ["game-4p.alh", "game-6p.alh", "final-2p-dirk.alh"])
def test_games_read_again_past_hot_give_larks_records(name: str) -> None:
    path = ROOT / "examples" / name
    games = _games(path)
    assert games
    expected = [_lark(text, name, start) for start, text in games]
    assert all("errors=()" in e for e in expected)  # games the fast path reads to the end
    for _ in range(fast._SETTINGS.hot + 3):  # every line's shape hot: built by its builder
        got = [repr(parse_game_text(text, name, start)) for start, text in games]
        assert got == expected


def test_a_line_seen_twice_gets_a_template_not_the_seen_mark() -> None:
    """The memo entry of a turn line's actions read twice is a template of its shape (a
    tuple of records) and keeps no shape None: what the compiled build got wrong."""
    line = "take Gu8, take Di3"
    text = f'[Players "Ann, Ben"]\n\n1. Ann: {line}\n2. Ben: {line}\n'
    fast._turn_lines.pop(line, None)
    before = _lark(text, "t.alh", 1)
    assert repr(parse_game_text(text, "t.alh", 1)) == before
    if fast._MEMO:
        entry = fast._turn_lines[line]
        assert entry is not fast._SEEN and entry is not None
        assert entry[2] is not None and entry[2][0] is tuple
        assert len(entry[2]) == 3  # two actions
