"""Patterns and imports kept off a one-game ``check``'s start-up (issue 34, seventh step).

Each cheaper form is held to the form it stands for, and what a valid game's check no longer
loads or compiles is checked in a process of its own."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from referee.notation import parser
from referee.reports import check_report
from referee.safe_text import PLAIN_TEXT

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"

# every code point, the lone surrogates included (a str holds them)
EVERY_CHARACTER = "".join(map(chr, range(0x110000)))


def test_some_at_finds_what_the_class_of_six_blanks_finds_at_every_code_point() -> None:
    general = re.compile(r"[^ \t\f\r\n\ufeff]")
    found = [m.start() for m in parser._SOME_AT.finditer(EVERY_CHARACTER)]
    assert found == [m.start() for m in general.finditer(EVERY_CHARACTER)]
    assert len(found) == 0x110000 - 6  # every character but the six blanks
    # as the scan uses it: a search from a position, over blanks only or not
    for text in ("", " \t\f\r\n", "\ufeff\ufeff \n", "  x", "\ufeff[", "\n\n\ufeffé"):
        for pos in range(len(text) + 1):
            ours, theirs = parser._SOME_AT.search(text, pos), general.search(text, pos)
            assert (ours and ours.span()) == (theirs and theirs.span()), (text, pos)


def test_plain_lines_is_the_plain_text_class_with_line_breaks() -> None:
    assert check_report._PLAIN_LINES.pattern == PLAIN_TEXT.replace("]*", "\n]*")
    assert check_report._PLAIN_LINES.flags == re.compile(PLAIN_TEXT).flags
    assert check_report._PLAIN_LINES.fullmatch("Anna: OK\nSchätze ¤\n") is not None
    assert check_report._PLAIN_LINES.fullmatch("Anna\x1b[2J\n") is None


def _loaded_after(args: list[str], names: tuple[str, ...]) -> list[str]:
    """Which of the modules ``names`` a process running ``main(args)`` has loaded at its end,
    and whether the report's Latin-lines pattern was compiled ("_PLAIN_LINES")."""
    script = (
        "import sys\n"
        "from referee.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "from referee.reports import check_report\n"
        f"loaded = sorted(m for m in {names!r} if m in sys.modules)\n"
        "if type(check_report._PLAIN_LINES).__name__ != '_LazyPattern':\n"
        "    loaded.append('_PLAIN_LINES')\n"
        "print(loaded, file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return ast.literal_eval(run.stderr.strip().splitlines()[-1])  # the list printed above


def test_a_valid_game_loads_no_syntax_messages_and_compiles_no_latin_class(
    tmp_path: Path,
) -> None:
    names = ("referee.notation.messages",)
    assert _loaded_after(["check", str(EX / "game-4p.alh")], names) == []
    # a game with a syntax error still loads them (its messages are localized)
    bad = tmp_path / "bad.alh"
    bad.write_text((EX / "game-4p.alh").read_text(encoding="utf-8") + "7. Anna: ??\n", "utf-8")
    assert _loaded_after(["check", str(bad)], names)[:1] == ["referee.notation.messages"]
    # a report with German text compiles the Latin class, and says the same as before
    assert "_PLAIN_LINES" in _loaded_after(["check", "--lang", "de", str(bad)], names)
