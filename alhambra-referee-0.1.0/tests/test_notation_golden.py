"""Golden round trips: each tests/golden/notation/X.alh formats to X.canon.alh exactly.

One input per construct (headers, chance events, start, turns, scoring, distribution,
positions, comments and annotations, module verbs, unknown tiles/cards, BOM and CRLF, several
games). The canonical output is a fixed point and reads back to the same record.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.notation import format_games, parse_text

GOLDEN = Path(__file__).parent / "golden" / "notation"
INPUTS = sorted(p for p in GOLDEN.glob("*.alh") if not p.name.endswith(".canon.alh"))
EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.alh"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def test_there_is_a_golden_file_per_construct() -> None:
    names = {p.stem for p in INPUTS}
    expected = {"headers", "chance", "start", "turns", "scoring", "distribute", "position"}
    assert expected | {"comments", "module", "unknown", "multigame", "bom_crlf"} <= names


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_golden_file_formats_to_its_canonical_form(path: Path) -> None:
    games = parse_text(_read(path), str(path))
    assert [e for g in games for e in g.errors] == []
    expected = _read(path.with_name(path.stem + ".canon.alh"))
    assert format_games(games) == expected


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_canonical_form_is_a_fixed_point_with_the_same_record(path: Path) -> None:
    canon = _read(path.with_name(path.stem + ".canon.alh"))
    again = parse_text(canon)
    assert format_games(again) == canon
    assert again == parse_text(_read(path))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_parses_and_is_canonical(path: Path) -> None:
    text = _read(path)
    games = parse_text(text, str(path))
    assert [e for g in games for e in g.errors] == []
    assert format_games(games) == text


def test_examples_together_use_every_construct() -> None:
    text = "\n".join(_read(p) for p in EXAMPLES if p.name.startswith("notation-"))
    for needle in [
        "* deal",
        "display",
        "market",
        "* dirk",
        "reshuffle",
        " W1",
        "start",
        "youngest",
        "take",
        "buy",
        "build",
        "remove",
        "swap",
        "place",
        "reserve",
        "give",
        "scoring 1:",
        "distribute",
        " none",
        "# ",
        "{",
        " ?",
        "position",
        "[Table",
    ]:
        assert needle in text, needle
    club = parse_text(_read(Path(__file__).parents[1] / "examples" / "notation-club-3p.alh"))
    assert len(club) == 2
    assert (Path(__file__).parents[1] / "examples" / "position-midgame.alh").is_file()


DOCS = Path(__file__).parents[1] / "docs"


@pytest.mark.parametrize("name", ["notation.md", "cheatsheet.md"])
def test_records_shown_in_the_docs_parse(name: str) -> None:
    import re

    text = (DOCS / name).read_text("utf-8")
    blocks = [
        b.replace("...\n", "")
        for b in re.findall(r"```\n(.*?)```", text, re.S)
        if b.startswith(("[", "position", "*"))
    ]
    assert blocks
    for block in blocks:
        assert [e.message for g in parse_text(block) for e in g.errors] == [], block
