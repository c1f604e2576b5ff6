"""``render``: SVG of one or all Alhambras at a moment (golden file in tests/golden/render/)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.cli import main

GOLDEN = Path(__file__).parent / "golden" / "render"
NS = "{http://www.w3.org/2000/svg}"

POSITION = """\
[Event "Render test"]
[Players "Anna, Ben"]

position
  next Ben
  scorings 1
  market Gu:T10w Di:G8ne De:- Du:C9w
  player Anna
    score 23
    alhambra C8nw@0,1 C7ne@1,1 A5nw@-1,0 S9@1,0 T8@2,0 G12@-1,-1 A10@0,-1
  player Ben
    score 10
    alhambra P8@1,0 A9@2,0 T11-@0,-1 G6esw@2,-1
end
"""


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("render") / "position.alh"
    path.write_text(POSITION, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 0), out, err


def test_render_all_players(
    capsys: pytest.CaptureFixture[str], position: Path, tmp_path: Path
) -> None:
    out_file = tmp_path / "out.svg"
    code, out, _ = run(capsys, "render", str(position), "-o", str(out_file), "--lang", "de")
    assert code == 0
    assert str(out_file) in out
    svg = out_file.read_text(encoding="utf-8")
    root = ET.fromstring(svg)  # valid XML
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "alhambra"]
    assert [g.get("data-player") for g in groups] == ["Anna", "Ben"]
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Anna \u2014 23 Punkte" in texts and "Ben \u2014 10 Punkte" in texts
    # Anna's longest outer wall has 9 segments, Ben's 3 (the garden's east, south, west)
    longest = [
        len([ln for ln in g.iter(f"{NS}line") if ln.get("class") == "longest"]) for g in groups
    ]
    assert longest == [9, 3]
    path = GOLDEN / "position-de.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(svg, encoding="utf-8")
    assert svg == path.read_text(encoding="utf-8")


def test_render_one_player_to_stdout(capsys: pytest.CaptureFixture[str], position: Path) -> None:
    code, out, _ = run(capsys, "render", str(position), "--player", "ben")
    assert code == 0
    root = ET.fromstring(out)
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "alhambra"]
    assert [g.get("data-player") for g in groups] == ["Ben"]


def test_render_usage_errors(capsys: pytest.CaptureFixture[str], position: Path) -> None:
    code, _, err = run(capsys, "render", str(position), "--scoring", "2", "--at", "3")
    assert code == 3 and "either --at or --scoring" in err
    code, _, err = run(capsys, "render", str(position), "--scoring", "4")
    assert code == 3
    code, _, err = run(capsys, "render", str(position), "--scoring", "1")
    assert code == 3 and "scoring 1" in err  # a position file has no scoring line
    assert "Traceback" not in err


def test_render_marks_legal_cells(capsys: pytest.CaptureFixture[str], position: Path) -> None:
    code, out, _ = run(capsys, "render", str(position), "--player", "Anna", "--tile", "T10w")
    assert code == 0
    root = ET.fromstring(out)
    marks = [r for r in root.iter(f"{NS}rect") if r.get("class") == "mark"]
    assert len(marks) == 2 + 1  # the legal cells -2,-1 and 0,-2, and the legend's box
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Legal cells for T10" in texts
