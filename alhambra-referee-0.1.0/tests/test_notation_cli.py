"""The ``parse`` and ``fmt`` commands: exit codes, reports, never rewriting a broken file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from referee.cli import cli, main

MESSY = '[Players "A, B"]\n[Event "x"]\n1.A:take   gu1\n'
CANON = '[Event "x"]\n[Players "A, B"]\n\n1. A: take Gu1\n'
BROKEN = '[Event "x"]\n1. A: take Gx3\n'


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("messy", MESSY), ("canon", CANON), ("broken", BROKEN)):
        p = tmp_path / f"{name}.alh"
        p.write_text(text, "utf-8")
        out[name] = p
    return out


def test_fmt_check_exit_codes(files: dict[str, Path]) -> None:
    assert run("fmt", "--check", str(files["canon"]))[0] == 0
    code, out = run("fmt", "--check", str(files["messy"]), str(files["canon"]))
    assert code == 1
    assert f"would reformat {files['messy']}" in out
    assert files["messy"].read_text("utf-8") == MESSY  # --check writes nothing


def test_fmt_rewrites_in_place_and_then_is_canonical(files: dict[str, Path]) -> None:
    code, out = run("fmt", str(files["messy"]))
    assert code == 0 and "reformatted" in out
    assert files["messy"].read_text("utf-8") == CANON
    assert run("fmt", "--check", str(files["messy"]))[0] == 0


def test_fmt_diff_prints_a_unified_diff_and_writes_nothing(files: dict[str, Path]) -> None:
    code, out = run("fmt", "--diff", str(files["messy"]))
    assert code == 1
    assert "--- " in out and "+++ " in out
    assert "+1. A: take Gu1" in out and "-1.A:take   gu1" in out
    assert files["messy"].read_text("utf-8") == MESSY


def test_fmt_never_rewrites_a_file_with_syntax_errors(files: dict[str, Path]) -> None:
    code, out = run("fmt", str(files["broken"]), str(files["messy"]))
    assert code == 2
    assert f"{files['broken']}:2:12: unknown currency 'Gx'" in out
    assert files["broken"].read_text("utf-8") == BROKEN
    assert files["messy"].read_text("utf-8") == CANON  # the good file is still formatted


def test_fmt_never_rewrites_a_file_with_an_unknown_tile(tmp_path: Path) -> None:
    p = tmp_path / "t.alh"
    p.write_text("reserve   T14\n", "utf-8")
    assert run("fmt", str(p))[0] == 2
    assert p.read_text("utf-8") == "reserve   T14\n"


def test_fmt_stdin_to_stdout() -> None:
    code, out = run("fmt", "-", input=MESSY)
    assert code == 0
    assert out == CANON


def test_fmt_folder_means_every_alh_file_below(files: dict[str, Path], tmp_path: Path) -> None:
    files["broken"].unlink()
    code, out = run("fmt", "--check", str(tmp_path))
    assert code == 1
    assert "1 file(s) would be reformatted, 1 file(s) unchanged" in out


def test_fmt_json_report(files: dict[str, Path]) -> None:
    code, out = run("fmt", "--check", "--format", "json", str(files["messy"]))
    assert code == 1
    assert json.loads(out)["files"] == [{"file": str(files["messy"]), "status": "changed"}]


def test_parse_ok_and_errors_in_text(files: dict[str, Path]) -> None:
    assert run("parse", str(files["canon"])) == (0, f"{files['canon']}: OK (1 game)\n")
    code, out = run("parse", str(files["broken"]))
    assert code == 2
    assert out.splitlines()[0].startswith(f"{files['broken']}:2:12: unknown currency 'Gx'")
    assert "^" in out


def test_parse_json_and_yaml(files: dict[str, Path]) -> None:
    code, out = run("parse", "--format", "json", str(files["broken"]), str(files["canon"]))
    assert code == 2
    doc = json.loads(out)
    assert doc["ok"] is False
    broken, canon = doc["files"]
    (game,) = broken["games"]
    assert game["headers"] == [{"name": "Event", "value": "x"}]
    assert [(e["line"], e["column"]) for e in game["errors"]] == [(2, 12)]
    assert canon["games"][0]["body_items"] == 1 and canon["games"][0]["errors"] == []
    code, out = run("parse", "--format", "yaml", str(files["canon"]))
    assert code == 0 and yaml.safe_load(out)["ok"] is True


def test_unreadable_input_is_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.alh"
    bad.write_bytes('[Event "M\xfcnchen"]\n'.encode("latin-1"))
    for cmd in ("parse", "fmt"):
        code, out = run(cmd, str(bad), str(tmp_path / "missing.alh"))
        assert code == 2
        assert "Traceback" not in out


def test_usage_error_is_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["fmt", "--no-such-option", "x.alh"])
    assert exc.value.code == 3
    with pytest.raises(SystemExit) as exc:
        main(["parse"])
    assert exc.value.code == 3


def test_exit_codes_through_main(files: dict[str, Path]) -> None:
    for args, expected in (
        (["parse", str(files["canon"])], 0),
        (["parse", str(files["broken"])], 2),
        (["fmt", "--check", str(files["messy"])], 1),
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == expected


def test_parse_reads_stdin() -> None:
    assert run("parse", "-", input=MESSY) == (0, "<stdin>: OK (1 game)\n")
    code, out = run("parse", "-", input=BROKEN)
    assert code == 2 and out.startswith("<stdin>:2:12: unknown currency 'Gx'")
