"""``score`` and ``check`` agree on players (issue 12): both commands run on the same inputs.

* a section for a player not in the ``Players`` header is an error in both, and not scored;
* ``player Dirk`` in a two-player game is Dirk (rulebook-base-de-2003.txt, "Sonderregel für
  das Spiel zu zweit": "Bei Wertungen bekommt auch Dirk Siegpunkte für Gebäudemehrheiten, eine
  Außenmauer wird für ihn jedoch nicht gewertet"), given as tiles or as counts: never a winner;
* fewer players than the game allows (1; 2 without Dirk) is reported by both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hardening_cli import run

HEAD = '[Players "{players}"]\n\nposition\n  scorings 2\n'
KIM = "  player Kim\n    score 10\n    counts P=2 A=3 wall=7\n"
NINA = "  player Nina\n    score 12\n    counts P=1 A=1 wall=5\n"

CASES: dict[str, tuple[str, str, set[str], set[str]]] = {
    # name: (players, body, score's problem codes, check's violation codes)
    "unknown player": (
        "Kim, Nina",
        "  dirk S9 T8 C8\n" + KIM + NINA + "  player Zed\n    score 1\n    counts P=3 wall=2\n",
        {"UNKNOWN-PLAYER"},
        {"UNKNOWN-PLAYER"},
    ),
    "Dirk as counts": (
        "Kim, Nina",
        KIM + NINA + "  player Dirk\n    score 20\n    counts P=3 A=4 T=6\n",
        set(),
        set(),
    ),
    "Dirk as tiles": (
        "Kim, Nina",
        KIM + NINA + "  player Dirk\n    reserve P5 A7 T9ne S9\n",
        set(),
        set(),
    ),
    "Dirk line": ("Kim, Nina", "  dirk P5 A7 T9ne S9\n" + KIM + NINA, set(), set()),
    "one player": ("Kim", KIM, {"SETUP-PLAYERS"}, {"SETUP-PLAYERS"}),
    "two without Dirk": ("Kim, Nina", KIM + NINA, {"DIRK-MISSING"}, {"POSITION-INVALID"}),
    "three players": (
        "Kim, Nina, Ola",
        KIM + NINA + "  player Ola\n    score 3\n    counts G=2 wall=1\n",
        set(),
        set(),
    ),
}


def _write(tmp_path: Path, name: str) -> Path:
    players, body, _s, _c = CASES[name]
    path = tmp_path / "game.alh"
    path.write_text(HEAD.format(players=players) + body + "end\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_score_and_check_agree(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, name)
    _p, _b, score_codes, check_codes = CASES[name]
    s_code, s_out, _ = run("score", str(path), "--format", "json")
    c_code, c_out, _ = run("check", str(path), "--format", "json")
    scored = json.loads(s_out)["games"][0]
    checked = json.loads(c_out)["games"][0]
    got_score = {p["code"] for p in scored["problems"]}
    got_check = {v["code"] for v in checked["violations"] if v["severity"] == "error"}
    assert got_score == score_codes
    assert got_check == check_codes
    # the same verdict: both find a problem, or neither does
    assert (s_code == 1) == (c_code == 1) == bool(score_codes)
    assert s_code in (0, 1) and c_code in (0, 1)


@pytest.mark.parametrize("name", ["Dirk as counts", "Dirk as tiles", "Dirk line"])
def test_dirk_is_scored_as_dirk_and_never_wins(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, name)
    _, out, _ = run("score", str(path), "--format", "json")
    game = json.loads(out)["games"][0]
    rows = {p["name"]: p for p in game["scoring"]["players"]}
    assert set(rows) == {"Kim", "Nina", "Dirk"}
    assert rows["Dirk"]["dirk"] is True
    assert rows["Dirk"]["wall"] is None or rows["Dirk"]["wall"]["points"] == 0
    assert "Dirk" not in game["winners"]
    assert {r["name"] for r in game["scoring"]["ranking"]} == {"Kim", "Nina"}
    if name == "Dirk as counts":
        assert rows["Dirk"]["buildings"]["T"]["count"] == 6
        assert rows["Dirk"]["total"] >= 20  # his score line is his total before the scoring


def test_dirk_counts_reach_checks_scoring(tmp_path: Path) -> None:
    # the position followed by the final scoring line: check scores Dirk's counts as score does
    # (check also says END-EARLY: the bag is not empty; the scoring is computed all the same)
    path = _write(tmp_path, "Dirk as counts")
    path.write_text(path.read_text("utf-8") + "scoring 3\n", encoding="utf-8")
    _, c_out, _ = run("check", str(path), "--format", "json")
    checked = json.loads(c_out)["games"][0]
    assert checked["scorings"], checked
    c_rows = {p["name"]: p for p in checked["scorings"][-1]["players"]}
    path.write_text(path.read_text("utf-8").replace("scoring 3\n", ""), encoding="utf-8")
    _, s_out, _ = run("score", str(path), "--format", "json")
    s_rows = {p["name"]: p for p in json.loads(s_out)["games"][0]["scoring"]["players"]}
    assert c_rows["Dirk"]["buildings"] == s_rows["Dirk"]["buildings"]
    assert c_rows["Dirk"]["total"] == s_rows["Dirk"]["total"]
    assert {n: r["total"] for n, r in c_rows.items()} == {n: r["total"] for n, r in s_rows.items()}
    assert "Dirk" not in checked["winners"]


def test_a_player_named_dirk_in_the_header_is_a_player(tmp_path: Path) -> None:
    path = tmp_path / "game.alh"
    path.write_text(
        HEAD.format(players="Kim, Dirk, Ola")
        + KIM
        + "  player Dirk\n    score 30\n    counts P=5 wall=9\n"
        + "  player Ola\n    score 3\n    counts G=2 wall=1\n"
        + "end\n",
        encoding="utf-8",
    )
    code, out, _ = run("score", str(path), "--format", "json")
    rows = {p["name"]: p for p in json.loads(out)["games"][0]["scoring"]["players"]}
    assert code == 0 and rows["Dirk"]["dirk"] is False
    code, _out, _ = run("check", str(path))
    assert code == 0
