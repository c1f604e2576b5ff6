"""``show``: the table at any moment of a record or of a position file (golden files in
tests/golden/show/; ``UPDATE_GOLDEN=1`` rewrites them). Output is plain when not a terminal."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import cli, main

GOLDEN = Path(__file__).parent / "golden" / "show"

RECORD = """\
[Event "Friday club"]
[Players "Anna, Ben, Cem"]
[Rules "queen-2003"]

* deal Anna Gu3 De7 Du2 Di9
* deal Ben Du8 Du4 Gu2 De9
* deal Cem Di6 De5 Gu9
* display Gu1 Di4 De6 Du9
* market Gu:T10w Di:G8ne De:A6sw Du:C9w
start Cem
1. Cem: take Gu1 Di4
* display De3 Du5
2. Anna: buy De A6sw pay De7, place A6sw@0,-1
* market De:P8
3. Ben: buy Du C9w pay Du8 Du4, reserve C9w
* market Du:G10n
"""

POSITION = """\
[Players "Anna, Ben"]

position
  next Ben
  scorings 1
  market Gu:T10w Di:G8ne De:- Du:C9w
  display Gu1 Di4 De6 Du9
  dirk S4 P5 G6
  player Anna
    score 23
    hand Gu3 De7
    reserve T9ne
    alhambra C8nw@0,1 C7ne@1,1 A5nw@-1,0 S9@1,0 T8@2,0 G12@-1,-1 A10@0,-1
  player Ben
    score 10
    hand ? ? ?
end
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("show")
    (d / "game.alh").write_text(RECORD, encoding="utf-8")
    (d / "position.alh").write_text(POSITION, encoding="utf-8")
    return {"game": str(d / "game.alh"), "position": str(d / "position.alh"), "dir": str(d)}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 0), out, err


def check_golden(name: str, text: str, files: dict[str, str]) -> None:
    text = text.replace(files["dir"], "DIR")
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_position_golden(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, "show", files["position"], "--lang", "en")
    assert code == 0
    assert "\x1b[" not in out  # not a terminal: plain
    check_golden("position-en.txt", out, files)


def test_record_after_turn_golden_de(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, out, _ = run(capsys, "show", files["game"], "--at", "2", "--lang", "de")
    assert code == 0
    check_golden("record-turn2-de.txt", out, files)
    assert "Stellung nach Zug 2" in out
    assert "Ben ist am Zug" in out
    assert "Bauhof: Gu: T10 (Turm 10)  |  Di: G8ne (Garten 8)  |  De: P8 (Pavillon 8)" in out


def test_at_line_and_start(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    _, out, _ = run(capsys, "show", files["game"], "--at", "L11", "--format", "json")
    data = json.loads(out)
    assert data["at"] == "after line 11"
    assert data["to_move"] == "Anna"  # turn 1 (line 11) is over, its refill is on line 12
    assert data["display"] == ["De6", "Du9"]
    _, out, _ = run(capsys, "show", files["game"], "--at", "start", "--format", "json")
    data = json.loads(out)
    assert data["to_move"] == "Cem"
    assert [p["hand"] for p in data["players"]][2] == ["Gu9", "Di6", "De5"]


def test_at_scoring(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).parent.parent / "examples" / "game-3p.alh"
    if not example.exists():
        pytest.skip("examples/game-3p.alh not present")
    code, out, _ = run(capsys, "show", str(example), "--at", "S1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["at"] == "after scoring 1" and data["scorings_done"] == 1


def test_after_turn_includes_its_refill(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    _, out, _ = run(capsys, "show", files["game"], "--at", "3", "--format", "yaml")
    assert "Du: G10n" in out  # the refill after turn 3 is what the next player sees


def test_player_filter(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    code, out, _ = run(capsys, "show", files["game"], "--player", "ben")
    assert code == 0
    assert "\nBen\n" in out and "\nAnna" not in out
    code, _, err = run(capsys, "show", files["game"], "--player", "Dora")
    assert code == 3 and "Dora" in err


def test_colour_only_on_request(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    _, out, _ = run(capsys, "show", files["position"], "--color", "always")
    assert "\x1b[" in out


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--at", "99"], 3),  # the record has 3 turns
        (["--at", "x12"], 3),
        (["--lang", "fr"], 3),
    ],
)
def test_usage_errors(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], argv: list[str], code: int
) -> None:
    got, _, err = run(capsys, "show", files["game"], *argv)
    assert got == code
    assert "Traceback" not in err


def test_unreadable_input(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    bad = Path(files["dir"]) / "bad.alh"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and "Traceback" not in err
    code, _, err = run(capsys, "show", str(Path(files["dir"]) / "missing.alh"))
    assert code == 2 and "Traceback" not in err
    syntax = Path(files["dir"]) / "syntax.alh"
    syntax.write_text('[Players "A, B"]\n1. A: take Gu1 ]\n', encoding="utf-8")
    code, _, err = run(capsys, "show", str(syntax))
    assert code == 2 and "syntax.alh:2:" in err


def test_game_without_players(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    path = Path(files["dir"]) / "noplayers.alh"
    path.write_text("* deal Anna Gu3 De7 Du2 Di9\n1. Anna: take Gu1\n", encoding="utf-8")
    code, _, err = run(capsys, "show", str(path))
    assert code == 2 and "names no players" in err and "noplayers.alh:1" in err


_PIECES = [
    '[Players "Anna, Ben"]',
    "position",
    "  next Ben",
    "  player Anna",
    "    alhambra T10w@0,1 G8ne@-1,0 P8@1,0",
    "    hand Gu3 ?",
    "  market Gu:T10w Di:-",
    "end",
    "* deal Anna Gu3 De7 Du2 Di9 Gu9",
    "* deal Ben Du8 Du4 Gu2 De9",
    "* display Gu1 Di4 De6 Du9",
    "* market Gu:T10w Di:G8ne De:A6sw Du:C9w",
    "1. Anna: take Gu1",
    "2. Ben: buy Gu T10w pay Gu2, place T10w@0,1",
    "Anna: remove @0,1",
    "scoring 1: Anna =3",
    "distribute Gu:T9ne Ben@3,1",
    "# comment",
]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=12), st.sampled_from(["end", "start", "1", "L3"])
)
def test_no_traceback_for_any_record(lines: list[str], at: str) -> None:
    """Whatever the lines, every dispute command ends with a documented exit code, cleanly."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "any.alh"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        runner = CliRunner()
        for argv in (
            ["show", str(path), "--at", at],
            ["legal", str(path), "--tile", "G8ne"],
            ["explain", str(path), "place G8ne@0,-1"],
            ["render", str(path), "-o", str(Path(d) / "out.svg")],
        ):
            result = runner.invoke(cli, argv)
            assert result.exit_code in (0, 1, 2), (argv, result.output)
            assert "internal error" not in result.output, (argv, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit)


def test_position_without_players_header(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    path = Path(files["dir"]) / "noheader.alh"
    path.write_text(
        "position\n  next Ben\n  player Anna\n    alhambra P8@1,0\n  player Ben\nend\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "show", str(path), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [p["name"] for p in data["players"]] == ["Anna", "Ben"]
    assert data["to_move"] == "Ben"
    anna = data["players"][0]
    assert anna["hand"] is None and anna["score"] is None  # not stated: unknown
    assert {"at": "1,0", "tile": "P8", "type": "pavilion", "price": 8, "walls": ""} in anna[
        "alhambra"
    ]


def test_errors_in_german(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    # --lang is read first, so even an error in an earlier option is written in German
    code, _, err = run(capsys, "show", files["game"], "--at", "99", "--lang", "de")
    assert code == 3 and "die Aufzeichnung hat 3 Züge, nicht 99" in err
    code, _, err = run(capsys, "show", files["game"], "--at", "x", "--lang", "de")
    assert code == 3 and "Zugnummer" in err
    code, _, err = run(capsys, "show", files["game"], "--player", "Dora", "--lang", "de")
    assert code == 3 and "kein Spieler 'Dora'" in err
