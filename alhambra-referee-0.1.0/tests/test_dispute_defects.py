"""Issue 31: each defect class of the dispute tools, with the rule text it rests on.

Rule texts quoted from /work/shared/rules/rulebook-bigbox-de-2019.txt (modules) and
rulebook-base-de-2003.txt (base game).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from forked_run_support import ForkedRuns

import referee
from referee.cli import cli
from referee.commands import explain, legal
from referee.commands.show import At, load_game, situation_of
from referee.replay import page_html

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def run(*args: str) -> tuple[int, str]:
    """The command as a user runs it (the entry point maps outcomes to the exit codes)."""
    env = {**os.environ, "LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}
    res = subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, env=env
    )
    return res.returncode, res.stdout + res.stderr


def sit(name: str, at: At):  # type: ignore[no-untyped-def]
    return situation_of(load_game(str(EX / name)), at)


# ------------------------------------------------------------------ out-of-turn lines


def test_a_vizier_purchase_out_of_turn_is_legal_as_check_says() -> None:
    """ "Jedesmal, wenn ein Spielzug eines beliebigen Spielers komplett beendet ist, darf ein
    Spieler die normale Zugreihenfolge unterbrechen und als Sonderaktion ein Gebäudeplättchen
    des Bauhofes kaufen und platzieren" -- "Sein Wesir muss wach sein" (DIE GUNST DES WESIRS):
    the record's line 20 is accepted by `check`; explain gives the same verdict, by name or
    with --player."""
    code, out = run(
        "explain",
        str(EX / "module-wesir.alh"),
        "--at",
        "L19",
        "Anna: vizier, buy Du S5 pay Du5, reserve S5",
    )
    assert code == 0 and out.startswith("Legal:"), out
    assert "TURN-ORDER" not in out and "WESIR-TIMING" not in out
    code, out = run(
        "explain",
        str(EX / "module-wesir.alh"),
        "--at",
        "L19",
        "--player",
        "Anna",
        "vizier, buy Du S5 pay Du5, reserve S5",
        "--lang",
        "de",
    )
    assert code == 0 and out.startswith("Erlaubt:"), out


def test_may_anna_use_her_vizier_now() -> None:
    """The question "may Anna use her vizier now?": `legal --player Anna` lists the vizier
    lines open to her (from the engine's generator), and explain of a line for a sleeping
    vizier says why not: "Der Spieler dreht seinen Wesirstein um (schlafende Seite nach oben),
    dieser schläft nun" -- "Sein Wesir muss wach sein" (WESIR-ASLEEP)."""
    s = sit("module-wesir.alh", At("line", 19))
    ans = legal.answer(s, None, "Anna", "en", False)
    assert any(line.startswith("vizier, buy") for line in ans.data["out_of_turn"])
    asleep = sit("module-wesir.alh", At("line", 21))
    no = explain.answer(asleep, "vizier, buy Du A8e pay Du8, reserve A8e", "Anna", "de", False)
    assert not no.legal
    assert any("WESIR-ASLEEP" in line for line in no.lines)
    assert any("darf jetzt keine Zeile außerhalb des Zuges spielen" in x for x in no.lines)


def test_a_thief_and_a_sultan_claim_out_of_turn() -> None:
    """Thieves: "Jedesmal, wenn ein Spielzug komplett beendet ist, darf ein Spieler die normale
    Zugreihenfolge unterbrechen und als Sonderaktion seinen Dieb einsetzen" (DIE DIEBE); the
    sultan claim follows the market line that drew the tile (DIE MACHT DES SULTANS)."""
    for name, line in (
        ("module-diebe.alh", "Ben: thief th:Du, take Du1"),
        ("module-sultan.alh", "Anna: sultan su:GuA A8n, place A8n@0,1"),
    ):
        lines = (EX / name).read_text(encoding="utf-8").splitlines()
        at = lines.index(line)  # the record's line (1-based: at + 1); the moment before it
        game = load_game(str(EX / name))
        ans = explain.answer(situation_of(game, At("line", at)), line, None, "en", False)
        assert ans.legal, ans.lines
        assert referee.check_game(game).valid


# ------------------------------------------------------------- module pieces and money


def test_module_tiles_on_the_market_are_shown_listed_and_placeable() -> None:
    """ "Wenn ein Medinaplättchen aus dem Turm gezogen wird, kommt es genau wie die anderen
    Gebäudeplättchen auf den Bauhof zum Verkauf" (MEDINA)."""
    path = str(EX / "module-medina.alh")
    code, out = run("show", path, "--at", "3")
    assert "De: md:3ns (medina 3)" in out
    code, out = run("show", path, "--at", "3", "--format", "json")
    assert json.loads(out)["market"]["De"] == "md:3ns"
    code, out = run("legal", path, "--at", "3", "--tile", "md:3ns", "--lang", "de")
    assert code == 0 and "Erlaubte Felder für md:3ns (Medina 3): -1,0 1,0" in out
    code, out = run("legal", path, "--at", "3")
    assert "md:3ns (medina 3)" in out
    code, out = run("explain", path, "--at", "3", "--player", "Anna", "place md:3ns@0,1")
    assert code == 1 and "Legal cells for md:3ns (medina 3): -1,0 1,0" in out
    code, out = run("legal", str(EX / "module-plaetze.alh"), "--at", "4", "--tile", "sq:Tw")
    assert code == 0 and "sq:Tw (square)" in out


def test_purchases_with_module_money_are_alternatives_in_words() -> None:
    """ "Mit ihnen kann man beliebige Plättchen vom Bauhof kaufen. Diamanten ersetzen dabei jede
    andere Währung" (DIE DIAMANTEN): a player holding diamonds can afford tiles the base hand
    cannot pay; a payment is named, never "(none)"."""
    s = sit("module-diamanten.alh", At("start"))
    ans = explain.answer(s, "buy De C10 pay dm:4", None, "en", False)
    assert not ans.legal
    text = "\n".join(ans.lines)
    assert "(none)" not in text and "the payment (dm:4)" in text
    assert "exact with dm:4 (diamond 4) dm:6 (diamond 6)" in text
    buys = ans.data["steps"][0]["alternatives"]["purchases"]
    assert {"field": "De", "tile": "C10"}.items() <= buys[2].items()


def test_one_mistake_one_finding_in_a_purchase() -> None:
    """ "Dazu zahlt man mindestens den aufgedruckten Preis in der Währung, die der Bauhof für das
    gewählte Plättchen anzeigt" (rulebook-base-de-2003.txt, Kaufen): a card of another currency
    is BUY-CURRENCY, and the shortfall it causes is not a second finding; a refused purchase
    leaves no tile to place (no PLACE-MISSING)."""
    s = sit("game-3p.alh", At("turn", 3))
    ans = explain.answer(s, "buy Du S8 pay Du3 Gu5", None, "en", False)
    codes = [v["code"] for st in ans.data["steps"] for v in st["violations"]]
    assert "BUY-CURRENCY" in codes and "BUY-UNDERPAID" not in codes
    assert "PLACE-MISSING" not in codes


def test_messages_name_the_action_as_written() -> None:
    """A vizier buys one tile, nothing else ("Er hat keinen Bonuszug"): the message names the
    action the record wrote (``take Gu8``), never an internal class name."""
    s = sit("module-wesir.alh", At("line", 19))
    ans = explain.answer(s, "Anna: vizier, buy Du S5 pay Du5, take Gu8", None, "en", False)
    text = "\n".join(ans.lines)
    assert "does 'take Gu8' with the vizier" in text
    assert "takemoney" not in text.lower()


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "did you mean 'buy'?"), ("de", "meinten Sie 'buy'?")]
)
def test_an_unknown_verb_names_the_closest(lang: str, said: str) -> None:
    code, out = run("explain", str(EX / "game-3p.alh"), "--at", "3", "kaufe Gu T13", "--lang", lang)
    assert code == 1 and "UNKNOWN-VERB" in out and said in out


# ------------------------------------------------------------------------- German


def test_syntax_errors_in_german(tmp_path: Path) -> None:
    bad = tmp_path / "bad.alh"
    bad.write_text('[Players "A, B"]\n\nposition\n  player A\n', encoding="utf-8")
    for args in (
        ["show", str(bad)],
        ["legal", str(bad)],
        ["score", str(bad)],
        ["explain", str(bad), "take Gu1"],
    ):
        code, out = run(*args, "--lang", "de")
        assert code == 2 and "des Positionsblocks fehlt" in out, (args, out)
    code, out = run("explain", str(EX / "game-3p.alh"), "buy Gu T99 pay Gu1", "--lang", "de")
    assert "es gibt kein Plättchen Turm zum Preis 99" in out


def test_german_wall_traces_write_o_for_east() -> None:
    code, out = run("score", str(EX / "final-6p.alh"), "--lang", "de")
    assert code == 0
    wall = [ln for ln in out.splitlines() if "Außenmauer " in ln and "," in ln]
    assert (
        wall
        and any(" O" in ln for ln in wall)
        and not any(re.search(r",-?\d+ E\b", ln) for ln in wall)
    )


def test_a_missing_file_in_german_is_no_game(tmp_path: Path) -> None:
    code, out = run(
        "check", str(EX / "game-3p.alh"), str(tmp_path / "nope.alh"), "--lang", "de", "--no-scoring"
    )
    assert code == 2
    assert "nope.alh: die Datei kann nicht gelesen werden (Datei nicht gefunden)" in out
    assert "1 Partie(n): 1 gültig" in out


# ------------------------------------------------------------------------ score


def test_score_layout_findings_name_tile_and_side(tmp_path: Path) -> None:
    """ "Es dürfen nur gleiche Seiten aneinandergrenzen, d.h. die sich berührenden Seiten zeigen
    beide eine Stadtmauer oder eben nicht" (rulebook-base-de-2003.txt, Alhambra-Bauregeln):
    one finding per side, with the tile, as explain names it; two tiles in one cell say which
    one the scoring left out."""
    path = tmp_path / "p.alh"
    path.write_text(
        '[Players "A, B"]\n\nposition\n  player A\n    score 3\n'
        "    alhambra G8sw@0,1 P2@1,0 T9es@1,0\n  player B\n    score 0\nend\n",
        encoding="utf-8",
    )
    code, out = run("score", str(path))
    walls = [ln for ln in out.splitlines() if "PLACE-WALL" in ln]
    assert len(walls) == 2
    assert any(
        "the garden G8sw at 0,1: its S side (wall) meets the open N side" in w for w in walls
    )
    assert any(
        "the pavilion P2 at 1,0: its W side (wall) meets the open E side" in w for w in walls
    )
    assert "two tiles at 1,0: P2 is scored, T9es is left out" in out
    # a player without a score line is said to be scored from 0, not silently counted
    path.write_text(path.read_text(encoding="utf-8").replace("    score 0\n", ""), "utf-8")
    code, out = run("score", str(path))
    assert "No score line (the points before scoring 3 are taken as 0): B" in out
    code, out = run("score", str(path), "--lang", "de")
    assert code == 1  # a layout problem
    assert "ihre W-Seite" in out or "seine W-Seite" in out
    assert "offene O-Seite des Brunnens" in out


# -------------------------------------------------------------------------- API


def test_check_game_with_syntax_errors_is_not_valid() -> None:
    bad = referee.parse_game('[Players "Anna, Ben"]\n\n1. Anna: tkae Gu3\n2. Ben: take ,\n')
    assert bad.errors and referee.check_game(bad).valid is False


def test_read_game_and_read_games_take_paths(tmp_path: Path) -> None:
    path = EX / "game-3p.alh"
    assert referee.read_game(path).players == referee.read_games(str(path))[0].players
    with path.open(encoding="utf-8") as fh:
        assert referee.read_game(fh).players == ("Anna", "Ben", "Cem")
    text = path.read_text(encoding="utf-8")
    assert referee.parse_game(text).players == ("Anna", "Ben", "Cem")
    for read in (referee.read_game, referee.read_games):
        with pytest.raises(ValueError, match="parse_"):
            read(text)  # type: ignore[arg-type]


# -------------------------------------------------------------------------- CLI


COMMANDS = [
    "check",
    "explain",
    "fmt",
    "headers",
    "legal",
    "modules",
    "parse",
    "profiles",
    "render",
    "score",
    "show",
    "simulate",
]


# ``python -m referee COMMAND --help`` each a process of its own, forked from one waiting
# process that has imported the command line (forked_run_support; the same status and output
# as a process started anew, 24 of 24 compared): the interpreter's start paid once, not 24 times
_HELP_RUNS = ForkedRuns(
    preload=["referee.cli", "click"],
    env={**os.environ, "LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""},
    cwd=Path.cwd(),
)
atexit.register(_HELP_RUNS.close)
_AS_MODULE = "import runpy; runpy.run_module('referee', run_name='__main__', alter_sys=True)"


@pytest.fixture(scope="module")
def help_runs() -> Iterator[ForkedRuns]:
    yield _HELP_RUNS
    _HELP_RUNS.close()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_lists_the_exit_codes(command: str, help_runs: ForkedRuns) -> None:
    for lang, word in (("en", "Exit code"), ("de", "Rückgabewerte")):
        code, out, err = help_runs.run(_AS_MODULE, [command, "--help", "--lang", lang], Path.cwd())
        assert code == 0, (command, lang, err)
        assert word in out or (lang == "en" and "exit code" in out.lower()), (command, lang, out)


def test_german_help_of_the_dispute_commands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "referee", "explain", "--help", "--lang", "de"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Ist AKTION zu diesem Zeitpunkt erlaubt?" in out and "Optionen:" in out
    assert "Die Person, die handelt" in out


def test_shell_completion_works() -> None:
    env = {**os.environ, "_ALHAMBRA_REFEREE_COMPLETE": "bash_source"}
    script = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    assert (
        "complete -o nosort -F" in script and "_ALHAMBRA_REFEREE_COMPLETE=bash_complete" in script
    )
    env = {
        **os.environ,
        "_ALHAMBRA_REFEREE_COMPLETE": "bash_complete",
        "COMP_WORDS": "alhambra-referee ex",
        "COMP_CWORD": "1",
    }
    got = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    assert "plain,explain" in got
    env["COMP_WORDS"], env["COMP_CWORD"] = "alhambra-referee show --format ", "3"
    got = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()"],
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    assert "plain,record" in got


def test_simulate_says_what_it_wrote(tmp_path: Path) -> None:
    out_file = tmp_path / "g.alh"
    res = CliRunner().invoke(cli, ["simulate", "-n", "2", "-o", str(out_file), "--lang", "de"])
    assert res.exit_code == 0
    assert f"{out_file}: 2 Partien geschrieben (3 Personen, Startwert 0)" in res.output
    assert out_file.read_text(encoding="utf-8").count("[Event ") == 2


def test_check_summary_appears_once() -> None:
    code, out = run("check", "--no-scoring", str(EX / "game-3p.alh"), str(EX / "illegal-place.alh"))
    assert code == 1
    assert out.count("2 game(s)") == 1
    assert not any(ln.split() == ["games", "2"] for ln in out.splitlines())
    assert "violations by rule:" in out


# ------------------------------------------------------------------------ replay


def test_replay_module_lines_in_words_and_a_legend() -> None:
    game = load_game(str(EX / "module-diebe.alh"))
    for lang, words in (("en", "plays a thief card"), ("de", "spielt eine Diebkarte aus")):
        html = page_html(game, lang)
        data = json.loads(
            re.search(r'id="replay-data"[^>]*>(.*?)</script>', html, re.S)
            .group(1)
            .replace("\\u003c", "<")
            .replace("\\u003e", ">")
            .replace("\\u0026", "&")
        )
        said = [
            s["words"] for s in data["steps"] if s["text"].split(": ", 1)[-1].startswith("thief")
        ]
        assert said and all(words in w for w in said), said[:2]
        assert data["colours"] and data["legends"]
        assert '"turn_lines"' in html and "hashchange" in html and "#t" in html


def test_replay_building_sites_are_not_drawn_in_the_fountain_colour() -> None:
    from referee.reports.svg import FOUNTAIN_FILL

    html = page_html(load_game(str(EX / "module-baustellen.alh")), "de")
    data = json.loads(
        re.search(r'id="replay-data"[^>]*>(.*?)</script>', html, re.S)
        .group(1)
        .replace("\\u003c", "<")
        .replace("\\u003e", ">")
        .replace("\\u0026", "&")
    )
    names = {label: fill for fill, label in data["colours"]}
    assert "Baustelle" in names and names["Baustelle"] != FOUNTAIN_FILL
    assert names.get("Brunnen") == FOUNTAIN_FILL


# --------------------------------------------------------------- base game: Dirk


def _position_game(left_in_bag: int) -> str:
    from referee.catalogue import catalogue

    tiles = [t.full_code for t in catalogue().tiles]
    market, rest = tiles[:4], tiles[4:]
    dirk = rest[: len(rest) - left_in_bag]
    return f"""[Players "Anna, Ben"]
[Rules "queen-2003"]

position
  next Anna
  scorings 1
  market Gu:{market[0]} Di:{market[1]} De:{market[2]} Du:{market[3]}
  display Gu1 Di2 De3 Du4
  dirk {" ".join(dirk)}
  player Anna
    score 10
    hand Gu5
  player Ben
    score 12
    hand Di5
end
1. Anna: take Gu1
* display W2 Du5
scoring 2
2. Ben: take Di2
"""


def test_no_dirk_line_is_due_when_a_third_of_the_bag_rounds_to_zero() -> None:
    """ "Nach der 2. Wertung bekommt Dirk nochmals Gebäudeplättchen. Doch diesmal nicht
    unbedingt 6 Stück sondern ein Drittel – abgerundet – der noch im Beutel verbliebenen
    Plättchen" (rulebook-base-de-2003.txt, Sonderregel für das Spiel zu zweit): with 2 tiles
    left a third is 0, so no `* dirk` line is due -- also when the game starts from a position
    block (whose bag count is an upper bound of the real bag)."""
    report = referee.check_game(referee.parse_game(_position_game(2)))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    # with 3 tiles left one is due, and a record without the line is told so
    report = referee.check_game(referee.parse_game(_position_game(3)))
    assert "DIRK-DRAW" in [v.code for v in report.violations]
