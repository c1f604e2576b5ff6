"""Issue 12, input side, end to end through the commands (points 1-5, 7, 8).

Every input that used to hang, crash or mislead must now answer promptly with a clear error
that names file:line:column, and the right exit code (2 syntax / unreadable, 1 violation).
"""

from __future__ import annotations

import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from referee.cli import cli
from referee.notation import parse_text
from referee.notation.errors import EXCERPT_WIDTH, MESSAGES
from referee.notation.messages import GERMAN, has_german, localize
from referee.notation.parser import COORD_LIMIT, MAX_DIGITS

HUGE = "9" * 5000

GAME = """[Event "hardening"]
[Players "Anna, Ben"]

position
  next Anna
  player Anna
    alhambra A9@1,0
  player Ben
end
1. Anna: build T12@5,5
2. Ben: take Gu1
3. Anna: remove @5,5
"""


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str, float]:
    """Exit code (as ``main()`` gives it), output (stdout and stderr) and seconds taken."""
    started = time.monotonic()
    result = CliRunner().invoke(
        cli, list(args), input=input, catch_exceptions=False, standalone_mode=False
    )
    code = result.return_value if isinstance(result.return_value, int) else result.exit_code
    return code, result.output, time.monotonic() - started


def write(tmp_path: Path, text: str | bytes, name: str = "game.alh") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    return str(path)


# ----------------------------------------------------------------- point 1: far tile removed


def test_check_a_disconnected_tile_removed_answers_promptly_with_the_violation(
    tmp_path: Path,
) -> None:
    # point 1: the x/y slip (T12@5,5) and its removal used to flood-fill an unbounded plane
    path = write(tmp_path, GAME)
    code, out, secs = run("check", path)
    assert code == 1
    assert f"{path}:10:10 turn 1 Anna: PLACE-ADJACENT" in out
    assert secs < 10


# ------------------------------------------------------------- point 2: coordinate range


@pytest.mark.parametrize("coord", ["999999999,0", "100000,0", f"{COORD_LIMIT + 1},0", "0,-100"])
def test_check_a_coordinate_out_of_range_is_a_notation_error_at_once(
    tmp_path: Path, coord: str
) -> None:
    path = write(tmp_path, GAME.replace("@5,5\n2.", f"@{coord}\n2."))
    code, out, secs = run("check", path)
    assert code == 2
    assert f"{path}:10:20: COORD-RANGE: coordinate {coord} out of range" in out
    assert secs < 10
    code, out, _ = run("check", "--lang", "de", path)
    assert "außerhalb des Bereichs: x und y liegen zwischen -99 und 99" in out


def test_the_coordinate_limits_themselves_are_accepted() -> None:
    for coord in (f"{COORD_LIMIT},-{COORD_LIMIT}", f"-{COORD_LIMIT},{COORD_LIMIT}"):
        (game,) = parse_text(f"1. Anna: place T13@{coord}\n")
        assert game.errors == ()


# ---------------------------------------------------------------- point 3: huge numbers

NUMBERS = {
    "claim points": (f"scoring 1: Anna +{HUGE}\n", 1, 18),
    "claim total": (f"scoring 1: Anna +3 ={HUGE}\n", 1, 21),
    "claim part": (f"scoring 1: Anna +3 (T={HUGE})\n", 1, 23),
    "scoring number": (f"scoring {HUGE}\n", 1, 9),
    "turn number": (f"{HUGE}. Anna: take Gu1\n", 1, 1),
    "coordinate": (f"1. Anna: place T13@{HUGE},0\n", 1, 20),
    "market field": (f"* market {HUGE}:T13\n", 1, 10),
    "module number": (f"1. Anna: bonus -{HUGE}\n", 1, 17),
    "position scorings": (f"position\n  scorings {HUGE}\nend\n", 2, 12),
    "position score": (f"position\n  player Anna\n  score {HUGE}\nend\n", 3, 9),
    "position counts": (f"position\n  player Anna\n  counts T={HUGE}\nend\n", 3, 12),
    "tile price": (f"1. Anna: place T{HUGE}@1,0\n", 1, 16),
    # a module's component token: no module ever converts the digits (the module fuzzer found
    # `* fruit Du fr:<5000 digits>` reaching Obstgärten's int() as an internal error)
    "module component (chance)": (f"* fruit Du fr:{HUGE}\n", 1, 12),
    "module component (payment)": (f"1. Anna: buy Gu T13 pay dm:{HUGE}\n", 1, 25),
}


@pytest.mark.parametrize("what", sorted(NUMBERS))
def test_a_number_of_thousands_of_digits_is_a_clear_error_in_every_command(
    tmp_path: Path, what: str
) -> None:
    text, line, column = NUMBERS[what]
    path = write(tmp_path, text)
    where = f"{path}:{line}:{column}: "
    for args in (["parse"], ["fmt", "--check"], ["check"], ["score"]):
        code, out, secs = run(*args, path)
        assert code == 2, (args, out)
        assert "Traceback" not in out and "INTERNAL" not in out and "internal" not in out
        assert where in out, (args, out)
        assert "too large" in out or "out of range" in out, (args, out)
        assert len(out) < 3000  # the 5000 digits are not echoed
        assert secs < 10


def test_six_digits_are_still_read() -> None:
    (game,) = parse_text(f"scoring 1: Anna +{'9' * MAX_DIGITS}\n")
    assert game.errors == ()
    assert game.body[0].claims[0].points == 999_999


# ------------------------------------------------------------------------ point 4: excerpts


def test_excerpts_escape_control_characters(tmp_path: Path) -> None:
    path = write(tmp_path, "1. Anna: take Gu1 \x00\x1b[31m\n")
    code, out, _ = run("parse", path)
    assert code == 2
    assert "\x00" not in out and "\x1b" not in out
    assert f"{path}:1:19: unexpected character '\\x00'" in out
    assert "1. Anna: take Gu1 \\x00\\x1b[31m" in out


def test_a_huge_line_is_cut_around_the_column(tmp_path: Path) -> None:
    # a line just under the bound (referee.notation.files.MAX_LINE, issue 32); a longer one
    # is refused before it is parsed (tests/test_hardening_resources.py)
    path = write(tmp_path, "1. Anna: take Gu1, " + "x" * 99_000 + " Gu1 ;\n")
    code, out, secs = run("parse", path)
    assert code == 2
    assert len(out) < 2 * EXCERPT_WIDTH + 500
    excerpt, caret = out.splitlines()[1:3]
    assert excerpt.strip().startswith("...") and excerpt.rstrip().endswith(";")
    assert excerpt[caret.index("^")] == ";"  # the caret still points at the bad character
    assert secs < 30


# ------------------------------------------------------------------ point 5: unreadable input


def test_a_bad_byte_is_named_with_its_position_in_every_command(tmp_path: Path) -> None:
    path = write(tmp_path, b'[Event "x"]\n\n1. Anna: take Gu1 # K\xe4se\n', "latin.alh")
    for args in (["parse"], ["fmt", "--check"], ["check"], ["score"]):
        code, out, _ = run(*args, path)
        assert code == 2, (args, out)
        assert "Traceback" not in out
        assert "byte 0xE4 at line 3, column 22 (byte offset 34)" in out, (args, out)
        assert "save the file as UTF-8" in out
    code, out, _ = run("parse", "--lang", "de", path)
    assert f"{path}:3:22: nicht lesbar: kein UTF-8-Text: Byte 0xE4 in Zeile 3, Spalte 22" in out


@pytest.mark.parametrize(
    ("encoding", "bom"), [("utf-16", "with"), ("utf-16-le", "without"), ("utf-16-be", "without")]
)
def test_utf16_is_recognised_and_named(tmp_path: Path, encoding: str, bom: str) -> None:
    path = write(tmp_path, '[Event "x"]\n\n1. Anna: take Gu1\n'.encode(encoding), "u16.alh")
    for args in (["parse"], ["fmt", "--check"], ["check"], ["score"]):
        code, out, _ = run(*args, path)
        assert code == 2, (args, out)
        assert f"UTF-16 text ({bom} byte order mark)" in out, (args, out)
        assert "save it as UTF-8" in out


def test_utf16_on_standard_input_too() -> None:
    data = '[Event "x"]\n\n1. Anna: take Gu1\n'.encode("utf-16")
    for args in (["parse", "-"], ["fmt", "-"], ["check", "-"]):
        code, out, _ = run(*args, input=data)
        assert code == 2, (args, out)
        assert "UTF-16" in out, (args, out)


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, b'\xef\xbb\xbf[Event "x"]\n\n1. Anna: take Gu1\n', "bom.alh")
    assert run("parse", path)[0] == 0
    assert run("check", "--no-scoring", path)[0] in (0, 1)  # read: rules checked
    assert run("fmt", "--check", path)[0] == 1  # the canonical form has no BOM
    code, out, _ = run("fmt", "-", input=Path(path).read_bytes())
    assert code == 0 and out.startswith('[Event "x"]')


# -------------------------------------------------------------- point 7: notation version


def test_notation_version_1_is_accepted_and_kept_first_by_fmt(tmp_path: Path) -> None:
    path = write(tmp_path, '[Players "Anna, Ben"]\n[notation "1"]\n\n1. Anna: take Gu1\n')
    assert run("parse", path)[0] == 0
    code, out, _ = run("fmt", "-", input=Path(path).read_text("utf-8"))
    assert code == 0
    assert out.startswith('[Notation "1"]\n[Players "Anna, Ben"]\n')


@pytest.mark.parametrize("header", ['[Notation "2"]', '[Notationsversion "1.1"]'])
def test_an_unknown_notation_version_is_a_clear_error(tmp_path: Path, header: str) -> None:
    path = write(tmp_path, header + '\n[Players "Anna, Ben"]\n\n1. Anna: take Gu1\n')
    for args in (["parse"], ["check"], ["fmt", "--check"]):
        code, out, _ = run(*args, path)
        assert code == 2
        assert f"{path}:1:2: " in out
        assert "unknown notation version" in out
        assert "this referee reads notation version 1" in out
    code, out, _ = run("check", "--lang", "de", path)
    assert "unbekannte Notationsversion" in out


# ---------------------------------------------------------------- point 8: German messages


def test_every_syntax_message_has_a_german_twin() -> None:
    for label, message in MESSAGES.items():
        filled = message.replace("{tok}", "X9")
        assert has_german(filled), label
        assert localize(filled, "de") != filled, label
    assert len(GERMAN) >= len(MESSAGES)


@pytest.mark.parametrize(
    ("text", "german"),
    [
        ("1. Anna: take Gx3\n", "unbekannte Währung 'Gx' in 'Gx3'"),
        ("1. Anna: buy Di A6sw Di4\n", "'pay' fehlt vor den bezahlten Karten"),
        ("1. Anna: place A6sw@1\n", "eine Koordinate braucht zwei ganze Zahlen"),
        ("1. Anna: place T14@1,0\n", "es gibt kein Plättchen Turm zum Preis 14"),
        ("12 Anna: take Gu1\n", "eine Zugnummer endet mit einem Punkt"),
        ("position\n  next Anna\n", "das 'end' des Positionsblocks fehlt"),
    ],
)
def test_parse_fmt_and_check_speak_german_with_lang_de(
    tmp_path: Path, text: str, german: str
) -> None:
    path = write(tmp_path, text)
    for args in (["parse"], ["fmt", "--check"], ["check"]):
        code, out, _ = run(*args, "--lang", "de", path)
        assert code == 2, (args, out)
        assert german in out, (args, out)
        code, out, _ = run(*args, "--lang", "en", path)
        assert german not in out


def test_parse_and_fmt_summaries_in_german(tmp_path: Path) -> None:
    good = write(tmp_path, '[Event "x"]\n\n1. Anna: take Gu1\n', "good.alh")
    bad = write(tmp_path, "1. Anna: take Gx3\n", "bad.alh")
    assert f"{good}: OK (1 Partie)" in run("parse", "--lang", "de", good)[1]
    assert "1 Fehler in 1 von 1 Partie(n)" in run("parse", "--lang", "de", bad)[1]
    out = run("fmt", "--check", "--lang", "de", good, bad)[1]
    assert f"{bad}: nicht formatiert (Syntaxfehler)" in out
    assert "0 Datei(en) würden neu formatiert, 1 Datei(en) unverändert" in out


def test_show_and_score_read_through_the_shared_reader(tmp_path: Path) -> None:
    # point 5: show (and explain, legal, render, which read through it) and score's standard
    # input name UTF-16 and bad bytes the same way
    data = '[Event "x"]\n\n1. Anna: take Gu1\n'.encode("utf-16")
    path = write(tmp_path, data, "u16.alh")
    with pytest.raises(click.ClickException, match=r"UTF-16 text \(with byte order mark\)"):
        run("show", path)  # main() shows a ClickException and exits 2
    code, out, _ = run("score", "-", input=data)
    assert code == 2 and "UTF-16 text (with byte order mark)" in out
