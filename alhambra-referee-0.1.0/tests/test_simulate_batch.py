"""Batch checking (issue 5): many files, folders and multi-game files, ``--jobs N``, the progress
line on a terminal only, the summary table, and memory that stays flat on long files."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import yaml
from click.testing import CliRunner

from referee.cli import cli
from referee.commands.check import _jobs, _Options, _results
from referee.simulate import simulate_many

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(*args: str):
    runner = CliRunner()
    return runner.invoke(cli, ["check", *args], standalone_mode=False, catch_exceptions=False)


def _code(result) -> int:
    return result.return_value if isinstance(result.return_value, int) else result.exit_code


def _corpus(tmp_path: Path) -> list[str]:
    many = tmp_path / "many.alh"
    many.write_text("\n".join(simulate_many(3, 9, 4)), "utf-8")
    folder = tmp_path / "folder" / "deep"
    folder.mkdir(parents=True)
    (folder / "two.alh").write_text("\n".join(simulate_many(2, 10, 2)), "utf-8")
    (folder / "bad.alh").write_text((EXAMPLES / "illegal-take.alh").read_text("utf-8"), "utf-8")
    (folder / "broken.alh").write_text('[Players "A, B, C"]\n\n1. A: take Gu99 !!\n', "utf-8")
    return [str(many), str(tmp_path / "folder"), str(EXAMPLES / "illegal-buy.alh")]


def test_files_folders_and_multi_game_files_with_a_summary_table(tmp_path: Path) -> None:
    res = _run("--no-scoring", *_corpus(tmp_path))
    assert _code(res) == 2  # the broken file wins over the violations
    out = res.output
    assert "9 game(s): 6 valid, 2 with violations, 1 unreadable" in out
    table = out[out.index("9 game(s)") :]
    assert "violations by rule:" in table
    assert "TAKE-SUM" in table and "BUY-NOT-HELD" in table
    lines = [ln.split() for ln in table.splitlines()]
    # the counts appear once, in the summary line (issue 31), not again in a table
    assert out.count("9 game(s)") == 1 and ["games", "9"] not in lines
    assert any(ln[:2] == ["TAKE-SUM", "1"] for ln in lines)


def test_jobs_give_the_same_output_in_the_same_order(tmp_path: Path) -> None:
    paths = _corpus(tmp_path)
    for fmt in ("text", "json", "yaml"):
        one = _run("--format", fmt, *paths)
        two = _run("--format", fmt, "--jobs", "2", *paths)
        assert one.output == two.output, fmt
        assert _code(one) == _code(two) == 2
    doc = json.loads(_run("--format", "json", "-j", "3", *paths).output)
    assert len(doc["games"]) == 9 and doc["valid"] is False
    assert [g["valid"] for g in doc["games"][:4]] == [True] * 4
    doc = yaml.safe_load(_run("--format", "yaml", *paths).output)
    assert len(doc["games"]) == 9 and doc["valid"] is False


def test_empty_json_and_yaml_documents_are_valid(tmp_path: Path) -> None:
    # a folder without games is well-formed JSON/YAML, but not "valid" (issue 12: "no games
    # found", exit 2)
    (tmp_path / "empty").mkdir()
    empty = str(tmp_path / "empty")
    result = _run("--format", "json", empty)
    assert json.loads(result.output) == {"games": [], "valid": False, "no_games": [empty]}
    assert _code(result) == 2
    doc = yaml.safe_load(_run("--format", "yaml", empty).output)
    assert doc == {"games": [], "valid": False, "no_games": [empty]}


def test_progress_only_when_asked_or_on_a_terminal(tmp_path: Path) -> None:
    paths = _corpus(tmp_path)[:1]
    # click 8.1 mixes stderr into the output unless told not to; 8.2+ keeps them apart anyway
    separate = "mix_stderr" in CliRunner.__init__.__code__.co_varnames
    runner = CliRunner(mix_stderr=False) if separate else CliRunner()  # type: ignore[call-arg]
    quiet = runner.invoke(cli, ["check", *paths], standalone_mode=False)
    assert "checking:" not in quiet.output  # not a terminal: no progress
    shown = runner.invoke(cli, ["check", "--progress", *paths], standalone_mode=False)
    assert "checking:" not in shown.stdout
    assert "checking: " in shown.stderr and "\r" in shown.stderr


def test_strict_stops_at_the_first_invalid_game(tmp_path: Path) -> None:
    paths = _corpus(tmp_path)
    doc = json.loads(_run("--format", "json", "--strict", "-j", "2", *paths).output)
    assert doc["valid"] is False
    assert doc["games"][-1]["valid"] is False
    assert len(doc["games"]) < 9


def _peak(path: Path) -> int:
    opts = _Options(None, False, "json", "en", False)
    tracemalloc.start()
    try:
        n = sum(1 for _ in _results(_jobs((str(path),)), opts, 1))
        return tracemalloc.get_traced_memory()[1] if n else 0
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_on_a_long_file(tmp_path: Path) -> None:
    one = (EXAMPLES / "illegal-take.alh").read_text("utf-8")
    short, long = tmp_path / "short.alh", tmp_path / "long.alh"
    short.write_text("\n".join([one] * 20), "utf-8")
    long.write_text("\n".join([one] * 400), "utf-8")
    a, b = _peak(short), _peak(long)
    # twenty times the games, not twenty times the memory (the file is never held whole)
    assert b < 2 * a + 200_000, (a, b)
