"""The HTML replay page without a browser: one file, every step, the engine's figures.

The browser tests (``test_replay_browser.py``) check what a person sees; these check what the
page holds, quickly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import cli, main
from referee.commands.show import read_games
from referee.engine.extensions import MODULES, Module, register_module
from referee.engine.walk import walk
from referee.record.model import Turn
from referee.replay import game_data, page_html
from referee.replay.page import violation_cells

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SVG_NS = "http://www.w3.org/2000/svg"


def page_data(html: str) -> dict[str, Any]:
    """The JSON the page carries (what its script draws from)."""
    m = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the page carries its data"
    return json.loads(m.group(1))


def show_json(path: Path, at: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["show", str(path), "--at", at, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else 0), out, err


@pytest.fixture(scope="module")
def six() -> tuple[Any, str]:
    game = read_games(str(EXAMPLES / "game-6p.alh"))[0]
    return game, page_html(game, "en")


# ------------------------------------------------------------------ self-contained


def test_page_is_self_contained(six: tuple[Any, str]) -> None:
    _, html = six
    assert html.startswith("<!DOCTYPE html>")
    # nothing is loaded from anywhere: no src/href attributes except page-internal anchors
    for attr in re.findall(r'\b(?:src|href)\s*=\s*["\']([^"\']*)', html):
        assert attr.startswith("#"), attr
    assert "<link" not in html
    assert "@import" not in html and "url(" not in html
    # the only URL is the SVG namespace name (an identifier, never fetched)
    urls = set(re.findall(r"https?://[^\s\"'<>)\\]+", html))
    assert urls <= {SVG_NS}, urls
    assert "<script src" not in html


def test_page_contains_every_step(six: tuple[Any, str]) -> None:
    game, html = six
    steps = list(walk(game))
    data = page_data(html)
    assert len(data["steps"]) == len(steps) == len(game.body) + 2
    ids = [int(x) for x in re.findall(r'<li id="ln(\d+)" data-step=', html)]
    assert ids == list(range(len(steps)))
    for step, entry in zip(steps, data["steps"], strict=True):
        assert entry["kind"] == step.kind
        assert entry["line"] == step.line
    # every record line is listed with its line number
    for item in game.body:
        assert f"line {item.pos.line}<" in html


def test_six_player_page_small(six: tuple[Any, str]) -> None:
    # its speed is measured in bench/, never asserted here (a loaded machine fails any bound)
    game, html = six
    size = len(html.encode("utf-8"))
    assert size < 1_000_000, size
    assert page_html(game, "en") == html  # the same page again: nothing depends on a clock


def test_german_labels() -> None:
    game = read_games(str(EXAMPLES / "game-4p.alh"))[0]
    html = page_html(game, "de")
    assert '<html lang="de">' in html
    data = page_data(html)
    assert data["ui"]["market"] == "Bauhof"
    assert data["ui"]["display"] == "Auslage"
    assert "Aufzeichnung" in html  # the record list's heading
    assert "Zeile " in html  # "line" in the list
    assert "kauft " in html and "nimmt " in html  # the actions in words
    assert "Erste Stellung" in html  # the first-position button's label
    en = page_html(game, "en")
    assert "kauft " not in en and "buys " in en


# ------------------------------------------------------------ the engine's figures


def _after_turn_step(game: Any, n: int) -> int:
    """The step shown for "after turn n": the position just before turn n+1's line."""
    for i, item in enumerate(game.body):
        if isinstance(item, Turn) and item.number == n + 1:
            return i  # step i is the state after body item i-1
    raise AssertionError(f"no turn {n + 1}")


@pytest.mark.parametrize("turn", [1, 12, 40, 75])
def test_step_figures_equal_show(six: tuple[Any, str], turn: int) -> None:
    game, html = six
    data = page_data(html)
    index = _after_turn_step(game, turn)
    assert data["turn_steps"][str(turn)] == index
    state = data["states"][data["steps"][index]["state"]]
    shown = show_json(EXAMPLES / "game-6p.alh", str(turn))
    assert [p["score"] for p in state["players"]] == [p["score"] for p in shown["players"]]
    assert state["market"] == list(shown["market"].values())
    assert state["display"] == shown["display"]
    assert state["to_move"] == shown["to_move"]
    for mine, theirs in zip(state["players"], shown["players"], strict=True):
        tiles = [c for c in theirs["alhambra"] if c["tile"] != "fountain"]
        assert mine["tiles"] == len(tiles)
        assert mine["hand"] == theirs["hand"]
        assert mine["reserve"] == theirs["reserve"]


def test_end_step_equals_show_end(six: tuple[Any, str]) -> None:
    _, html = six
    data = page_data(html)
    state = data["states"][data["steps"][-1]["state"]]
    shown = show_json(EXAMPLES / "game-6p.alh", "end")
    assert [p["score"] for p in state["players"]] == [p["score"] for p in shown["players"]]
    assert state["over"] is True and shown["game_over"] is True


def test_scoring_steps_carry_breakdown_and_wall(six: tuple[Any, str]) -> None:
    _, html = six
    data = page_data(html)
    report = CliRunner().invoke(cli, ["check", str(EXAMPLES / "game-6p.alh"), "--format", "json"])
    scorings = json.loads(report.output)["games"][0]["scorings"]
    marked = [s for s in data["steps"] if s.get("scorings")]
    assert len(marked) == len(scorings) == 3
    for step, scoring in zip(marked, scorings, strict=True):
        (table,) = [data["scorings"][k] for k in step["scorings"]]
        assert f'data-round="{scoring["round"]}"' in table
        for row in scoring["players"]:
            assert f'data-total="{row["name"]}">{row["total"]}<' in table
        # each player's drawing at that step has the longest wall traced (shown in gold there)
        state = data["states"][step["state"]]
        for p, row in zip(state["players"], scoring["players"], strict=True):
            svg = data["layouts"][p["layout"]]
            if row["wall"]["length"]:
                path = re.search(r'<path class="longest" d="([^"]*)"', svg)
                assert path, p["name"]
                assert len(re.findall(r"M", path.group(1))) == row["wall"]["length"]


def test_violation_marked_at_its_step() -> None:
    game = read_games(str(EXAMPLES / "illegal-place.alh"))[0]
    html = page_html(game, "en")
    data = page_data(html)
    bad = [(i, s) for i, s in enumerate(data["steps"]) if s.get("violations")]
    assert len(bad) == 1
    index, step = bad[0]
    codes = {v["code"] for v in step["violations"]}
    assert codes == {"PLACE-WALL", "PLACE-WALK"}
    v = step["violations"][0]
    assert v["section"].endswith("Alhambra-Bauregeln")
    assert v["player"] == "Cem" and v["at"] == ["1,0"]
    assert v["where"] == f"{game.source}:14:30"
    # the line is marked red in the list, with its code
    li = re.search(rf'<li id="ln{index}" [^>]*class="([^"]*)"', html)
    assert li and "bad" in li.group(1).split()
    assert '<span class="vcode">PLACE-WALL</span>' in html


def test_violation_cells_read_from_params() -> None:
    assert violation_cells({"at": "1,0", "cells": "0,0, 1,-1"}) == (["1,0"], ["0,0", "1,-1"])
    assert violation_cells({"at": "-2,3"}) == (["-2,3"], [])
    assert violation_cells({"tile": "T13"}) == ([], [])


# ------------------------------------------------------------------------- modules


class _Counter(Module):
    """Test-only module: shows a shared figure and one per player through ``view``."""

    name = "replaytestcounter"

    def view(self, state: Any) -> dict[str, Any]:
        return {
            "labels": {"en": "Lantern count", "de": "Laternenzählung"},
            "table": {"lanterns lit": state.turn_no * 2},
            "players": {p.name: {"cards held": p.hand_size} for p in state.players},
        }


@pytest.fixture
def counter_module() -> Any:
    register_module(_Counter)
    yield _Counter
    MODULES.pop(_Counter.name, None)


def test_module_view_in_page(counter_module: Any) -> None:
    text = (EXAMPLES / "game-3p.alh").read_text(encoding="utf-8")
    text = text.replace("[Players", '[Modules "replaytestcounter"]\n[Players', 1)
    from referee.commands.show import parse_text

    game = parse_text(text, "counter.alh")[0]
    data = game_data(game, "de")
    walked = list(walk(game))
    for step, entry in zip(walked, data["steps"], strict=True):
        views = data["states"][entry["state"]]["modules"]
        view = views["replaytestcounter"]
        assert view["labels"]["de"] == "Laternenzählung"
        assert view["table"]["lanterns lit"] == step.state.turn_no * 2
        assert view["players"] == {p.name: {"cards held": p.hand_size} for p in step.state.players}


# ----------------------------------------------------------------------- command


def test_command_writes_one_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.html"
    code, stdout, _ = run(capsys, "render", str(EXAMPLES / "game-4p.alh"), "--html", "-o", str(out))
    assert code == 0
    assert str(out) in stdout
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["start"] == 0


def test_command_several_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "club.alh"
    record.write_text(
        (EXAMPLES / "game-3p.alh").read_text(encoding="utf-8")
        + "\n"
        + (EXAMPLES / "game-4p.alh").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    code, _, _ = run(capsys, "render", str(record), "--html", "-o", str(tmp_path / "g.html"))
    assert code == 0
    first = page_data((tmp_path / "g-1.html").read_text(encoding="utf-8"))
    second = page_data((tmp_path / "g-2.html").read_text(encoding="utf-8"))
    assert len(first["players"]) == 3 and len(second["players"]) == 4
    folder = tmp_path / "pages"
    code, out, _ = run(
        capsys, "render", str(record), "--html", "-o", f"{folder}/", "--format", "json"
    )
    assert code == 0
    pages = json.loads(out)["pages"]
    assert [Path(p["file"]).name for p in pages] == ["club-1.html", "club-2.html"]
    assert all(p["bytes"] < 1_000_000 for p in pages)
    code, out, err = run(capsys, "render", str(record), "--html")
    assert code == 3 and "--game" in err
    code, out, _ = run(capsys, "render", str(record), "--html", "--game", "2")
    assert code == 0 and len(page_data(out)["players"]) == 4


def test_command_reads_stdin_and_opens_at_moment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    text = (EXAMPLES / "game-4p.alh").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, _ = run(capsys, "render", "-", "--html", "--at", "20", "--lang", "de")
    assert code == 0
    data = page_data(out)
    game = read_games(str(EXAMPLES / "game-4p.alh"))[0]
    assert data["start"] == _after_turn_step(game, 20)
    assert data["lang"] == "de"


def test_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "game-4p.alh")
    code, _, err = run(capsys, "render", path, "--html", "--at", "999")
    assert code == 3 and "999" in err
    code, _, err = run(capsys, "render", path, "--html", "--player", "Anna")
    assert code == 3 and "--player" in err
    code, _, err = run(capsys, "render", path, "--html", "--scoring", "2", "--lang", "de")
    assert code == 0


def test_position_file_without_players_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "pos.alh"
    record.write_text(
        "position\n  next Ben\n  market Gu:T10w Di:G8ne De:- Du:C9w\n"
        "  player Anna\n    score 23\n    alhambra C8nw@0,1 C7ne@1,1 A5nw@-1,0\n"
        "  player Ben\n    score 10\n    alhambra P8@1,0 A9@2,0\n  dirk T12\nend\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "render", str(record), "--html", "--at", "end")
    assert code == 0
    data = page_data(out)
    assert data["players"] == ["Anna", "Ben"]
    last = data["states"][data["steps"][data["start"]]["state"]]
    assert [(p["score"], p["tiles"]) for p in last["players"]] == [(23, 3), (10, 2)]
    assert last["market"] == list(show_json(record, "end")["market"].values())
    assert last["market"][1:] == ["G8ne", None, "C9w"]
    assert not any(s.get("violations") for s in data["steps"])


def test_interrupting_lines_keep_their_player_and_no_number() -> None:
    game = read_games(str(EXAMPLES / "module-all-four.alh"))[0]
    data = game_data(game, "en")
    unnumbered = [
        (item, entry)
        for item, entry in zip(game.body, data["steps"][1:], strict=False)
        if isinstance(item, Turn) and item.number is None
    ]
    assert unnumbered
    for item, entry in unnumbered:
        assert entry["turn"] is None
        assert entry["player"] == item.player.name
    numbered = [
        (item, entry)
        for item, entry in zip(game.body, data["steps"][1:], strict=False)
        if isinstance(item, Turn) and item.number is not None
    ]
    assert all(entry["turn"] == item.number for item, entry in numbered)


@pytest.mark.parametrize("name", ["game-6p.alh", "module-all-four.alh"])
def test_live_walk_gives_the_same_page_as_snapshots(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page reads each step's state at once, so the walker's live state is enough: the
    page must be the same as one built from independent snapshots."""
    import referee.replay.page as page_module

    game = read_games(str(EXAMPLES / name))[0]
    live = page_html(game, "en")
    monkeypatch.setattr(
        page_module, "walk", lambda g, profile=None, **_: walk(g, profile, snapshots=True)
    )
    assert page_html(game, "en") == live
