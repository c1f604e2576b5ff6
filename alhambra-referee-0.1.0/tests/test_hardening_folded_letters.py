"""Tokens with the letters beyond ASCII that Python's case-insensitive patterns match as ASCII
letters (İ and ı as i, ſ as s, the Kelvin sign as k): the grammar accepts ``T9nſ`` as a tile,
so the reader reads it as ``T9ns`` instead of failing inside (exit 4, "internal error", before
this file). Found by the reader's mutation test (bench/README.md, twelfth step)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.notation.parser import parse_game_text
from referee.notation.tokens import fold, needs_quotes, read_card, read_field, read_tile

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("written", "ascii"),
    [("T9nſ", "T9ns"), ("pavılion3", "pavilion3"), ("PAVİLION3", "PAVILION3"), ("T9\u212a", "T9")],
)
def test_a_tile_with_a_folded_letter_is_the_ascii_tile(written: str, ascii: str) -> None:
    if "\u212a" in written:  # the Kelvin sign is no wall letter: lower() already gives k
        assert fold(written) == "t9k"
        return
    assert read_tile(written) == read_tile(ascii)


def test_cards_and_fields_with_a_folded_letter() -> None:
    assert read_card("florinſ3") == read_card("florins3")
    assert read_card("DİRHAM5") == read_card("dirham5")
    assert read_field("dırham") == read_field("dirham")
    assert read_card("Du\u212aaten2") == read_card("dukaten2")


def test_a_name_folding_to_a_keyword_is_quoted() -> None:
    """``give T9 dırk`` would read back as a gift to Dirk: the name is written quoted."""
    assert needs_quotes("dırk") and needs_quotes("ſcore")
    assert not needs_quotes("Anna")


RECORD = (
    '[Players "Anna, Ben, Cem"]\n'
    "* deal Anna Gu3 Di4, deal Ben De2, deal Cem Du5\n"
    "1. Anna: reserve T9nſ\n"
    "2. Ben: reserve pavılion3\n"
)


def test_a_record_with_folded_letters_reads_as_its_ascii_twin() -> None:
    folded = parse_game_text(RECORD, "x.alh", 1)
    plain = parse_game_text(RECORD.replace("ſ", "s").replace("ı", "i"), "x.alh", 1)
    assert folded.body == plain.body and len(folded.body) == 3
    assert [e.message for e in folded.errors] == [e.message for e in plain.errors]


@pytest.mark.parametrize("command", ["parse", "check", "fmt"])
def test_no_internal_error_for_folded_letters(command: str, tmp_path: Path) -> None:
    path = tmp_path / "folded.alh"
    path.write_text(RECORD, encoding="utf-8")
    args = [command, str(path)] + (["--check"] if command == "fmt" else [])
    done = subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    both = done.stdout + done.stderr
    assert done.returncode != 4 and "internal error" not in both, both
    assert "Traceback" not in both
