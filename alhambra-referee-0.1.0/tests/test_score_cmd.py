"""``alhambra-referee score FILE``: layout checks and the final scoring of a finished game.

Golden breakdowns of the example files are in ``tests/golden/score/``. Set ``UPDATE_GOLDEN=1``
to rewrite them after a deliberate change (then read the diff before committing).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden" / "score"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["score", *args])
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # file names in the output are relative: examples/...


# ---------------------------------------------------------------------------- goldens


@pytest.mark.parametrize(
    ("example", "args", "golden"),
    [
        ("final-6p", (), "final-6p.txt"),
        ("final-6p", ("--format", "json"), "final-6p.json"),
        ("final-2p-dirk", (), "final-2p-dirk.txt"),
        ("final-2p-dirk", ("--lang", "de"), "final-2p-dirk-de.txt"),
        ("final-2p-dirk", ("--format", "yaml"), "final-2p-dirk.yaml"),
        ("final-counts", (), "final-counts.txt"),
        ("final-6p", ("--round", "2"), "final-6p-round2.txt"),
    ],
)
def test_examples_match_golden(
    capsys: pytest.CaptureFixture[str], example: str, args: tuple[str, ...], golden: str
) -> None:
    code, out, err = run(capsys, f"examples/{example}.alh", *args)
    assert code == 0, err
    check_golden(golden, out)


# ----------------------------------------------------------------------------- content


def test_six_player_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "examples/final-6p.alh", "--format", "json")
    assert code == 0
    game = json.loads(out)["games"][0]
    assert game["possible"] is True and game["problems"] == []
    scoring = game["scoring"]
    assert scoring["round"] == 3
    assert len(scoring["players"]) == 6
    for player in scoring["players"]:
        assert set(player["buildings"]) == {"P", "S", "A", "C", "G", "T"}
        for entry in player["buildings"].values():
            assert {"count", "place", "points"} <= set(entry)
        assert {"length", "points"} <= set(player["wall"])
        assert player["total"] == player["total_before"] + player["points"]
        assert player["points"] == player["wall"]["points"] + sum(
            b["points"] for b in player["buildings"].values()
        )
    best = max(p["total"] for p in scoring["players"])
    assert game["winners"] == [p["name"] for p in scoring["players"] if p["total"] == best]


def test_two_player_dirk_scores_majorities_but_no_wall(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "Bei Wertungen bekommt auch Dirk Siegpunkte für Gebäudemehrheiten, eine Außenmauer wird für
    # ihn jedoch nicht gewertet." (Sonderregel für das Spiel zu zweit)
    code, out, _ = run(capsys, "examples/final-2p-dirk.alh", "--format", "yaml")
    assert code == 0
    players = yaml.safe_load(out)["games"][0]["scoring"]["players"]
    dirk = next(p for p in players if p["dirk"])
    assert dirk["wall"] is None
    assert dirk["points"] > 0
    assert [p["name"] for p in players] == ["Kim", "Nina", "Dirk"]


def test_intermediate_scorings(capsys: pytest.CaptureFixture[str]) -> None:
    totals = {}
    for r in ("1", "2", "3"):
        code, out, _ = run(capsys, "examples/final-6p.alh", "--round", r, "--format", "json")
        assert code == 0
        scoring = json.loads(out)["games"][0]["scoring"]
        assert scoring["round"] == int(r)
        totals[r] = sum(p["points"] for p in scoring["players"])
        if r == "1":  # scoring 1 pays the first place only
            for p in scoring["players"]:
                for b in p["buildings"].values():
                    assert b["points"] == 0 or b["place"] == 1
    assert totals["1"] < totals["2"] < totals["3"]


def test_counts_fallback_is_marked_not_verified(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "examples/final-counts.alh", "--format", "json")
    assert code == 0
    game = json.loads(out)["games"][0]
    assert game["counts_only"] == ["Ben", "Cem"]
    ben = next(p for p in game["scoring"]["players"] if p["name"] == "Ben")
    assert ben["wall"] == {"length": 9, "points": 9, "verified": False}
    code, out, _ = run(capsys, "examples/final-counts.alh")
    assert "wall not verified" in out


# ------------------------------------------------------------------ problems and exits


def _write(tmp_path: Path, body: str, players: str = "Anna, Ben") -> str:
    path = tmp_path / "game.alh"
    path.write_text(f'[Players "{players}"]\n\nposition\n{body}end\n', encoding="utf-8")
    return str(path)


def test_a_tile_used_twice_is_reported_not_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        "  player Anna\n    score 10\n    alhambra T13@1,0\n"
        "  player Ben\n    score 12\n    reserve T13\n",
    )
    code, out, _ = run(capsys, path)
    assert code == 1
    assert f"{path}:9:13: Ben: TILE-TWICE" in out
    assert "Spielmaterial" in out
    assert "Scoring 3" in out  # still scored


def test_building_rule_problems_name_file_line_player_and_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A10 at 5,5 touches nothing; C7ne at 0,-1 shows a wall to the fountain (which has none),
    # so nobody can walk to it either.
    path = _write(
        tmp_path,
        "  player Anna\n    score 10\n    alhambra G10n@1,0 A10@5,5 C7ne@0,-1\n"
        "  player Ben\n    score 12\n    alhambra T12@-1,0\n  player Cem\n",
        players="Anna, Ben, Cem",  # three: two players without Dirk are reported (DIRK-MISSING)
    )
    code, out, _ = run(capsys, path)
    assert code == 1
    assert f"{path}:6:23: Anna: PLACE-ADJACENT" in out
    # the layout finding names the tile and both sides, as explain does (issue 31)
    assert f"{path}:6:31: Anna: PLACE-WALL" in out
    assert (
        "the chambers C7ne at 0,-1: its N side (wall) meets the open S side of the fountain" in out
    )
    assert f"{path}:6:31: Anna: PLACE-WALK" in out
    assert "[rulebook-base-de-2003.txt, Alhambra-Bauregeln]" in out
    code, out, _ = run(capsys, path, "--format", "json")
    problems = json.loads(out)["games"][0]["problems"]
    assert {p["code"] for p in problems} == {"PLACE-ADJACENT", "PLACE-WALL", "PLACE-WALK"}
    assert all(p["player"] == "Anna" for p in problems)


def test_german_problem_messages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "  player Anna\n    alhambra A10@5,5\n  player Ben\n")
    code, out, _ = run(capsys, path, "--lang", "de")
    assert code == 1
    assert "nur über Eck" in out and "Wertung 3" in out


def test_ambiguous_tile_is_reported(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "  player Anna\n    alhambra G10@1,0\n  player Ben\n")
    code, out, _ = run(capsys, path)
    assert code == 1
    assert "TILE-AMBIGUOUS" in out and "G10n" in out


def test_dirk_outside_a_two_player_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "  dirk T13\n  player Anna\n  player Ben\n  player Cem\n",
        players="Anna, Ben, Cem",
    )
    code, out, _ = run(capsys, path)
    assert code == 1
    assert "DIRK-PLAYERS" in out


def test_missing_player_section(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "  player Anna\n", players="Anna, Ben")
    code, out, _ = run(capsys, path)
    assert code == 1
    assert "PLAYER-MISSING" in out and "Ben" in out


def test_stated_wall_is_compared_with_the_layout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(
        tmp_path, "  player Anna\n    alhambra G10n@1,0\n    counts G=1 wall=3\n  player Ben\n"
    )
    code, out, _ = run(capsys, path)
    assert code == 1
    assert "WALL-DIFFERS" in out and "stated wall 3" in out


def test_syntax_error_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "  player Anna\n    alhambra T13@@1\n")
    code, out, _ = run(capsys, path)
    assert code == 2
    assert "Traceback" not in out


def test_no_position_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.alh"
    path.write_text('[Players "Anna, Ben"]\n\n# nothing here\n', encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 2
    assert "NO-POSITION" in out


def test_unreadable_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = run(capsys, str(tmp_path / "missing.alh"))
    assert code == 2
    assert "cannot read" in err


def test_bad_round_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, _err = run(capsys, "examples/final-6p.alh", "--round", "4")
    assert code == 3


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    text = (ROOT / "examples" / "final-2p-dirk.alh").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "-")
    assert code == 0
    assert out.startswith("<stdin>: game at line")


def test_wall_ring_and_the_bga_profile(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # A closed ring of 12 wall segments round a 3x3 Alhambra: N by default, N-1 in `bga`
    # (docs/scoring.md, "A wall that closes into a ring").
    path = _write(
        tmp_path,
        "  player Anna\n    alhambra P5@-1,1 P6@0,1 S4@1,1 S7@-1,0 P7@1,0 P3@-1,-1 S8@0,-1 "
        "P4@1,-1\n  player Ben\n  player Cem\n",
        players="Anna, Ben, Cem",  # three: two players without Dirk are reported (DIRK-MISSING)
    )
    code, out, _ = run(capsys, path, "--format", "json")
    assert code == 0
    anna = json.loads(out)["games"][0]["scoring"]["players"][0]
    assert anna["wall"]["length"] == 12
    code, out, _ = run(capsys, path, "--format", "json", "--rules", "bga")
    assert code == 0
    anna = json.loads(out)["games"][0]["scoring"]["players"][0]
    assert anna["wall"]["length"] == 11
    code, _out, _err = run(capsys, path, "--rules", "no-such-profile")
    assert code == 3


def test_rules_header_names_only_bundled_profiles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    profile = tmp_path / "mine.yaml"
    profile.write_text("name: mine\nwall_run: simple-path\n", encoding="utf-8")
    path = tmp_path / "game.alh"
    path.write_text(
        # three players: one player alone is reported (SETUP-PLAYERS)
        f'[Players "Anna, Ben, Cem"]\n[Rules "{profile}"]\n\nposition\n  player Anna\n'
        "  player Ben\n  player Cem\nend\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, str(path))
    assert code == 0
    assert "rules: queen-2003" in out and "not a bundled profile" in out


# ------------------------------------------------------------------ module positions

MODULE_POSITIONS = GOLDEN  # the end of examples/module-*.alh written as position blocks


@pytest.mark.parametrize(
    ("name", "args", "golden"),
    [
        ("module-plaetze-final", (), "module-plaetze-final.txt"),
        ("module-plaetze-final", ("--lang", "de"), "module-plaetze-final-de.txt"),
        ("module-bonuskarten-final", (), "module-bonuskarten-final.txt"),
        ("module-bonuskarten-final", ("--format", "json"), "module-bonuskarten-final.json"),
    ],
)
def test_module_positions_match_golden(
    capsys: pytest.CaptureFixture[str], name: str, args: tuple[str, ...], golden: str
) -> None:
    path = MODULE_POSITIONS.relative_to(ROOT) / f"{name}.alh"
    code, out, err = run(capsys, str(path), *args)
    assert code == 0, out + err
    check_golden(golden, out)


@pytest.mark.parametrize("name", ["module-plaetze-final", "module-bonuskarten-final"])
def test_module_positions_score_what_the_game_scored(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # the position is the table of examples/module-*.alh before its scoring 3 line: `score`
    # (engine position reader + the engine's scoring) must give that game's final totals
    path = MODULE_POSITIONS / f"{name}.alh"
    result = next(
        line.split('"')[1] for line in path.read_text().splitlines() if line.startswith("[Result")
    )
    expected = {n: int(v) for n, v in (x.split() for x in result.split(", "))}
    code, out, _ = run(capsys, str(path), "--format", "json")
    assert code == 0
    game = json.loads(out)["games"][0]
    assert {r["name"]: r["total"] for r in game["scoring"]["ranking"]} == expected
    assert game["problems"] == []


def test_module_lines_appear_in_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    path = MODULE_POSITIONS / "module-plaetze-final.alh"
    _code, out, _ = run(capsys, str(path))
    assert "square sq:Tn@-1,2: counts as 1 tower" in out
    _code, out, _ = run(capsys, str(path), "--lang", "de")
    assert "Platz sq:Tn@-1,2: zählt wie 1 Turm" in out
    _code, out, _ = run(capsys, str(MODULE_POSITIONS / "module-bonuskarten-final.alh"))
    assert "bonus card S9" in out


def test_module_component_without_its_module_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (MODULE_POSITIONS / "module-plaetze-final.alh").read_text()
    path = tmp_path / "nomodule.alh"
    path.write_text(text.replace('[Modules "plaetze"]\n', ""), encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert f"{path}:14:33: Anna: MODULE-NOT-ENABLED" in out  # one header less and "sq:Tn" in out
    assert "Scoring 3" in out  # still scored, without the squares
    assert "counts as" not in out


def test_module_rule_in_a_position_is_reported_with_its_section(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # four seraglio squares: "Es gibt 3 blaue ... Plätze" (DIE PLÄTZE, Spielmaterial)
    text = (MODULE_POSITIONS / "module-plaetze-final.alh").read_text()
    text = text.replace("sq:Tn@-1,2", "sq:Sn@-1,2").replace("sq:Pn@1,0", "sq:Sn@1,0")
    path = tmp_path / "squares.alh"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--format", "json")
    problems = json.loads(out)["games"][0]["problems"]
    supply = [p for p in problems if p["code"] == "SQUARE-SUPPLY"]
    assert code == 1 and supply
    assert supply[0]["rule"].startswith("rulebook-bigbox-de-2019.txt § DIE PLÄTZE")


def test_a_second_section_for_a_player_is_reported_not_scored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        "  player Anna\n    alhambra T13@1,0\n  player Ben\n  player Cem\n  player anna\n"
        "    alhambra G10n@1,0\n",
        players="Anna, Ben, Cem",
    )
    code, out, _ = run(capsys, path, "--format", "json")
    game = json.loads(out)["games"][0]
    assert code == 1
    assert [p["code"] for p in game["problems"]] == ["PLAYER-TWICE"]
    assert [r["name"] for r in game["scoring"]["players"]] == ["Anna", "Ben", "Cem"]
    assert game["scoring"]["players"][0]["buildings"]["T"]["points"] == 21
