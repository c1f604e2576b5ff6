"""A number written with thousands of leading zeros is a notation error, never a Python error.

The notation reads a number of at most six digits and lets leading zeros through (``fr:01``,
``01.``), but Python converts at most 4,300 digits: a record with ``fr:000...2`` or a turn
number ``000...1.`` made the reader or a module's ``int()`` raise (an INTERNAL error of the
game). Since then a number written with more than ``tokens.MAX_WRITTEN`` digits is refused
like an over-long one (NUMBER-RANGE), in the fast reader, in the Lark reader and inside a
module's component token.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import check_game
from referee.notation import fast, parse_text
from referee.notation import tokens as tk

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_ZEROS = "0" * 5000
_FILES = (
    "game-3p.alh",
    "module-obstgaerten.alh",
    "module-schaetze.alh",
    "module-diamanten.alh",
    "module-wuensche.alh",
    "module-karawanserei.alh",
    "module-menagerie.alh",
    "module-schluessel.alh",
    "position-midgame.alh",
)


def _padded(text: str, every: int) -> list[tuple[int, str]]:
    """The text with 5,000 zeros put before one run of digits outside comments, for every
    ``every``-th such run: (line number, text)."""
    out: list[tuple[int, str]] = []
    runs = [
        m
        for m in re.finditer(r"(?<![0-9A-Za-z])[0-9]+|(?<=:)[0-9]+|(?<=[A-Za-z])[0-9]+", text)
        if not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].lstrip().startswith("#")
    ]
    for m in runs[::every]:
        line = text.count("\n", 0, m.start()) + 1
        out.append((line, text[: m.start()] + _ZEROS + text[m.start() :]))
    return out


@pytest.mark.parametrize("name", _FILES)
def test_thousands_of_leading_zeros_never_raise(name: str) -> None:
    text = (_EXAMPLES / name).read_text(encoding="utf-8")
    cases = _padded(text, 7)
    assert len(cases) > 5
    refused = 0
    for line, padded in cases:
        games = parse_text(padded, name)  # must not raise
        assert games
        for game in games:
            if game.errors:
                refused += 1
                assert all(e.code != "INTERNAL" for e in game.errors), (line, game.errors)
            else:
                check_game(game)  # must not raise
    assert refused > len(cases) // 2  # most such numbers are refused outright


def test_a_few_leading_zeros_still_read_as_before() -> None:
    text = (_EXAMPLES / "module-obstgaerten.alh").read_text(encoding="utf-8")
    padded = text.replace("T9nw@-1,0, fruit fr:2 17", "T9nw@-1,0, fruit fr:0000000002 17", 1)
    assert padded != text
    (game,) = parse_text(padded)
    assert not game.errors
    result = check_game(game)
    (plain,) = parse_text(text)
    assert [str(v) for v in result.violations] == [str(v) for v in check_game(plain).violations]
    assert not tk.digits_too_long("fr:" + "0" * 20 + "2")
    assert tk.digits_too_long("fr:" + "0" * 30 + "2")
    assert tk.digits_too_long("fr:1234567")


def test_the_fast_reader_and_the_tokens_agree_on_the_written_limit() -> None:
    assert fast._MAX_WRITTEN == tk.MAX_WRITTEN  # (a literal in fast.py: a C constant compiled)
    assert fast._number("0" * tk.MAX_WRITTEN) == 0
    assert fast._number("0" * tk.MAX_WRITTEN + "1") is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("\n1. Cem: take Di6", "\n" + _ZEROS + "1. Cem: take Di6"),
        ("1. Cem: take Di6", "1. Cem: take Di6 # " + _ZEROS),  # a comment: read as before
    ],
)
def test_the_command_names_the_number_not_an_internal_error(
    tmp_path: Path, old: str, new: str
) -> None:
    text = (_EXAMPLES / "game-3p.alh").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "padded.alh"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    out = done.stdout + done.stderr
    assert "INTERNAL" not in out
    assert "Traceback" not in out
    if "#" in new:
        assert done.returncode == 0, out
    else:
        assert done.returncode == 2, out
        assert "NUMBER-RANGE" in out and ":12:1:" in out
