"""Issue 12, the command side: standard input for every command, "no games found", report
caps, batch questions for explain/legal, score of a complete record, --player help."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run the CLI entry in-process: ``(exit code, standard output, standard error)``."""
    runner = CliRunner()
    with runner.isolation(input=stdin) as (out, err, _mixed):
        try:
            main(list(argv))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")


# ------------------------------------------------------------------------ standard input

STDIN_CASES = {
    "check": (["check", "--no-scoring"], "illegal-take.alh"),
    "show": (["show", "--at", "10", "--color", "never"], "game-4p.alh"),
    "legal": (["legal", "--at", "10", "--tile", "T10w", "--color", "never"], "game-4p.alh"),
    "explain": (["explain", "--at", "10", "--color", "never"], "game-4p.alh"),
    "render": (["render", "--at", "10"], "game-4p.alh"),
    "score": (["score"], "final-2p-dirk.alh"),
}


@pytest.mark.parametrize("name", sorted(STDIN_CASES))
def test_every_command_reads_standard_input_as_it_reads_the_file(name: str) -> None:
    args, example = STDIN_CASES[name]
    path = EX / example
    extra = ["take Gu1"] if name == "explain" else []
    code_f, out_f, _ = run(*args, str(path), *extra)
    code_s, out_s, _ = run(*args, "-", *extra, stdin=path.read_text("utf-8"))
    assert code_s == code_f
    assert out_s == out_f.replace(str(path), "<stdin>")
    assert out_s.strip()


@pytest.mark.parametrize("name", sorted(STDIN_CASES))
def test_standard_input_is_named_stdin_in_messages(name: str) -> None:
    args, _example = STDIN_CASES[name]
    extra = ["take Gu1"] if name == "explain" else []
    broken = '[Players "Anna, Ben, Cem"]\n\n1. Anna: take Gu1 ((\n'
    code, out, err = run(*args, "-", *extra, stdin=broken)
    assert code == 2
    assert "<stdin>:3:" in out + err


def test_queries_and_the_record_cannot_both_come_from_standard_input() -> None:
    code, _out, err = run("explain", "-", "--queries", "-", stdin="")
    assert code == 3
    assert "standard input" in err


# ----------------------------------------------------------------------- no games found

RECORD_COMMANDS = {
    "check": ["check"],
    "show": ["show"],
    "legal": ["legal"],
    "explain": ["explain", "--at", "start", "take Gu1"],
    "render": ["render"],
    "score": ["score"],
}


@pytest.mark.parametrize("name", sorted(RECORD_COMMANDS))
@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n\n# and another\n"])
def test_an_empty_file_is_no_games_found(name: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / "empty.alh"
    path.write_text(text, encoding="utf-8")
    args = RECORD_COMMANDS[name]
    argv = [args[0], str(path), *args[1:]]
    code, out, err = run(*argv)
    assert code == 2, (out, err)
    assert f"{path}: no games found" in out + err
    code, out, err = run(*argv, "--lang", "de")
    assert code == 2
    assert f"{path}: keine Partien gefunden" in out + err
    # and from standard input
    argv = [args[0], "-", *args[1:]]
    code, out, err = run(*argv, stdin=text)
    assert code == 2
    assert "<stdin>: no games found" in out + err


def test_check_of_a_folder_without_games(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    code, out, _ = run("check", str(tmp_path))
    assert code == 2
    assert f"{tmp_path}: no games found" in out
    code, out, _ = run("check", "--format", "json", str(tmp_path))
    doc = json.loads(out)
    assert code == 2 and doc["valid"] is False and doc["no_games"] == [str(tmp_path)]


def test_an_empty_file_among_good_ones_is_named_and_the_exit_code_is_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.alh"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    code, out, _ = run("check", "--no-scoring", str(EX / "game-3p.alh"), str(empty))
    assert code == 2
    assert ": OK" in out and f"{empty}: no games found" in out
    assert "1 game(s): 1 valid" in out


# -------------------------------------------------------------------------- report caps


def _many_violations(tmp_path: Path, n: int) -> Path:
    text = (EX / "illegal-take.alh").read_text("utf-8")
    lines = [f"{i}. Anna: take Gu1 De6" for i in range(2, n + 2)]
    path = tmp_path / "many.alh"
    path.write_text(text + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_violations_are_capped_per_game_and_the_rest_is_counted(tmp_path: Path) -> None:
    path = _many_violations(tmp_path, 300)
    code, out, _ = run("check", "--no-scoring", str(path))
    assert code == 1
    shown = re.findall(r"^  \S+:\d+:\d+ turn", out, re.MULTILINE)
    assert len(shown) == 100
    total = int(re.search(r": (\d+) violations$", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert total > 300
    assert f"... and {total - 100} more violations not shown (--max-violations 100" in out
    code, out, _ = run("check", "--no-scoring", "--lang", "de", str(path))
    assert f"... und {total - 100} weitere Regelverstöße nicht gezeigt" in out
    code, out, _ = run("check", "--no-scoring", "--max-violations", "0", str(path))
    assert code == 1 and "not shown" not in out
    assert len(re.findall(r"^  \S+:\d+:\d+ turn", out, re.MULTILINE)) == total
    code, out, _ = run("check", "--max-violations", "5", "--format", "json", str(path))
    game = json.loads(out)["games"][0]
    assert code == 1
    assert len(game["violations"]) == 5
    assert game["violation_count"] == total
    assert game["violations_omitted"] == total - 5 and game["truncated"] is True
    code, out, _ = run("check", "--max-violations", "5", "--format", "yaml", str(path))
    game = yaml.safe_load(out)["games"][0]
    assert len(game["violations"]) == 5 and game["violation_count"] == total


def test_a_game_under_the_cap_is_shown_whole(tmp_path: Path) -> None:
    _code, out, _ = run("check", "--format", "json", str(EX / "illegal-take.alh"))
    game = json.loads(out)["games"][0]
    assert game["violation_count"] == len(game["violations"]) == 1
    assert game["violations_omitted"] == 0 and game["truncated"] is False


def test_violation_counts_are_singular_and_plural() -> None:
    _, out, _ = run("check", "--no-scoring", str(EX / "illegal-take.alh"))
    assert ": 1 violation\n" in out
    _, out, _ = run("check", "--no-scoring", "--lang", "de", str(EX / "illegal-take.alh"))
    assert ": 1 Regelverstoß\n" in out and "/-" not in out


# ------------------------------------------------------------------- batch explain/legal


def test_explain_answers_every_action_at_every_moment_in_one_call() -> None:
    game = str(EX / "game-4p.alh")
    code, out, _ = run(
        "explain", game, "--at", "10", "--at", "12", "take Gu1", "take Gu9", "--format", "json"
    )
    doc = json.loads(out)
    questions = [(q["question"]["at"], q["question"]["action"]) for q in doc["questions"]]
    assert questions == [
        ("10", "take Gu1"),
        ("10", "take Gu9"),
        ("12", "take Gu1"),
        ("12", "take Gu9"),
    ]
    # each answer is the one a single call gives
    for q in doc["questions"]:
        at, action = q["question"]["at"], q["question"]["action"]
        one_code, one_out, _ = run("explain", game, "--at", at, action, "--format", "json")
        assert q["answer"] == json.loads(one_out)
        assert one_code == (0 if q["answer"]["legal"] else 1)
    assert code == (0 if all(q["answer"]["legal"] for q in doc["questions"]) else 1)
    assert doc["legal"] is (code == 0)


def test_explain_text_shows_each_answer_under_its_question() -> None:
    code, out, _ = run(
        "explain", str(EX / "game-4p.alh"), "--at", "10", "take Gu1", "take Gu9", "--color", "never"
    )
    first = out.index('Question 1: --at 10 "take Gu1"')
    second = out.index('Question 2: --at 10 "take Gu9"')
    assert first < out.index("  Not legal: take Gu1") < second
    assert code == 1


def test_explain_and_legal_read_a_file_of_queries(tmp_path: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text(
        "# moment  [player=NAME]  action\n"
        "10 take Gu9\n"
        "\n"
        "12 player=Anna take Gu1   # Anna is to move after turn 12\n"
        "- take Gu1\n"
        "L30 bogus ((\n",
        encoding="utf-8",
    )
    game = str(EX / "game-4p.alh")
    code, out, _ = run("explain", game, "--queries", str(queries), "--format", "yaml")
    doc = yaml.safe_load(out)
    echo = [q["question"] for q in doc["questions"]]
    assert [(e["at"], e["player"], e["action"], e["line"]) for e in echo] == [
        ("10", None, "take Gu9", 2),
        ("12", "Anna", "take Gu1", 4),
        ("end", None, "take Gu1", 5),
        ("L30", None, "bogus ((", 6),
    ]
    assert all(e["file"] == str(queries) for e in echo)
    assert "answer" in doc["questions"][0] and "error" in doc["questions"][3]
    assert code == 2  # one question cannot be answered
    # legal: MOMENT [player=NAME] [TILE]
    queries.write_text("10 T10w\n12 player=Anna G10n\nstart\n", encoding="utf-8")
    code, out, _ = run(
        "legal", game, "--queries", "-", "--format", "json", stdin=queries.read_text()
    )
    doc = json.loads(out)
    assert code == 0
    got = [
        (q["question"]["at"], q["question"]["tile"], q["answer"]["player"])
        for q in doc["questions"]
    ]
    assert got == [("10", "T10w", "Cem"), ("12", "G10n", "Anna"), ("start", None, "Anna")]
    one = json.loads(run("legal", game, "--at", "10", "--tile", "T10w", "--format", "json")[1])
    assert doc["questions"][0]["answer"] == one


def test_legal_asks_every_tile_at_every_moment() -> None:
    code, out, _ = run(
        "legal",
        str(EX / "game-4p.alh"),
        "--at",
        "10",
        "--at",
        "20",
        "--tile",
        "T13",
        "--tile",
        "G10n",
        "--format",
        "json",
    )
    doc = json.loads(out)
    assert code == 0
    assert [(q["question"]["at"], q["question"]["tile"]) for q in doc["questions"]] == [
        ("10", "T13"),
        ("10", "G10n"),
        ("20", "T13"),
        ("20", "G10n"),
    ]


def test_a_single_question_keeps_the_single_answer_document() -> None:
    _, out, _ = run("explain", str(EX / "position-midgame.alh"), "take Gu4 Di3", "--format", "json")
    assert json.loads(out)["action"] == "take Gu4 Di3"


def test_explain_without_an_action_is_a_usage_error() -> None:
    code, _out, err = run("explain", str(EX / "game-4p.alh"))
    assert code == 3 and "ACTION" in err


# ------------------------------------------------------------ score of a complete record


def test_score_of_a_complete_record_is_the_final_scoring_check_computes() -> None:
    path = str(EX / "game-3p.alh")
    code, out, _ = run("score", path, "--format", "json")
    assert code == 0
    scored = json.loads(out)["games"][0]
    _, out, _ = run("check", path, "--format", "json")
    checked = json.loads(out)["games"][0]
    assert scored["record"] is True
    assert scored["scoring"] == checked["scorings"][-1]
    assert scored["winners"] == checked["winners"]
    totals = {p["name"]: p["total"] for p in scored["scoring"]["players"]}
    assert totals == checked["result"]
    code, out, _ = run("score", path, "--round", "2", "--format", "json")
    assert json.loads(out)["games"][0]["scoring"] == checked["scorings"][1]


def test_score_of_a_record_that_ends_early_says_to_use_check() -> None:
    code, out, _ = run("score", str(EX / "illegal-take.alh"))
    assert code == 3
    assert "no scoring 3" in out and "alhambra-referee check" in out
    code, out, _ = run("score", str(EX / "illegal-take.alh"), "--lang", "de")
    assert code == 3 and "keine 3. Wertung" in out


# ------------------------------------------------------------------------ --player help


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("show", "Show only this player's Alhambra"),
        ("legal", "player to move"),
        ("explain", "player to move"),
        ("render", "Draw only this player's Alhambra"),
    ],
)
def test_player_help_says_what_it_does(command: str, words: str) -> None:
    _, out, _ = run(command, "--help")
    flat = " ".join(out.split())
    assert words in flat
