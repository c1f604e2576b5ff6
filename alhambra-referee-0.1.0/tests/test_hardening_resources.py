"""Resources a hostile record may claim (issue 32, "Resources"): lines are read with a bound,
an impossible table is not replayed, output per finding is bounded, and a failure of the tool
itself never exits with the code of rule violations."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from referee.notation.files import (
    MAX_LINE,
    LineTooLong,
    byte_blocks,
    byte_lines,
    read_source,
)

ROOT = Path(__file__).resolve().parents[1]
GAME3 = ROOT / "examples" / "game-3p.alh"


def _cli(*args: str, limit_mb: int | None = None) -> subprocess.CompletedProcess[str]:
    code = "from referee.cli import main; main()"
    pre = None
    if limit_mb is not None:
        import resource

        def pre() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        preexec_fn=pre,
        check=False,
    )


@pytest.mark.parametrize("reader", [byte_lines, byte_blocks])
def test_a_line_over_the_bound_is_a_syntax_error_at_its_line(reader: object) -> None:
    data = b'[Event "x"]\n' + b"a" * (MAX_LINE + 5) + b"\nmore\n"
    with pytest.raises(LineTooLong) as caught:
        list(reader(io.BytesIO(data)))  # type: ignore[operator]
    assert caught.value.line == 2 and caught.value.offset == 12
    assert "line 2 is longer than 100,000 bytes" in caught.value.message("en")
    assert "Zeile 2 ist länger als 100.000 Bytes" in caught.value.message("de")


@pytest.mark.parametrize("reader", [byte_lines, byte_blocks])
def test_lines_at_the_bound_are_read_as_before(reader: object) -> None:
    data = b"x" * MAX_LINE + b"\r\n" + b"y" * MAX_LINE + b"\n" + b"z" * MAX_LINE
    text = "".join(reader(io.BytesIO(data)))  # type: ignore[operator]
    assert text == "x" * MAX_LINE + "\n" + "y" * MAX_LINE + "\n" + "z" * MAX_LINE


def test_the_whole_file_reader_stops_at_an_over_long_line(tmp_path: Path) -> None:
    path = tmp_path / "g.alh"
    path.write_bytes(b"ok\n" * 10 + b"b" * (3 * MAX_LINE))
    with pytest.raises(LineTooLong) as caught:
        read_source(str(path))
    assert caught.value.line == 11 and caught.value.offset == 30
    path.write_bytes(b"ok\n" * 10)
    assert read_source(str(path)) == "ok\n" * 10


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["check", "parse", "fmt", "headers", "score", "show"])
def test_dev_zero_gives_a_clear_answer_in_bounded_memory(command: str) -> None:
    done = _cli(command, "/dev/zero", limit_mb=600)
    assert done.returncode == 2, done.stderr[-500:]
    out = done.stdout + done.stderr
    assert "line 1 is longer than 100,000 bytes" in out
    assert "Traceback" not in out and "MemoryError" not in out


def test_a_50_mb_line_costs_no_more_than_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "big.alh"
    text = GAME3.read_text(encoding="utf-8")
    path.write_text("# " + "x" * 50_000_000 + "\n" + text, encoding="utf-8")
    for args in (["check", str(path)], ["render", "--html", str(path), "-o", str(tmp_path)]):
        done = _cli(*args, limit_mb=400)
        assert done.returncode == 2, done.stderr[-500:]
        assert "line 1 is longer than 100,000 bytes" in done.stdout + done.stderr


def test_check_names_an_over_long_line_at_its_line_in_the_users_language(
    tmp_path: Path,
) -> None:
    path = tmp_path / "long.alh"
    path.write_bytes(b'[Event "x"]\n1. A: ' + b"x" * (MAX_LINE + 10) + b"\n")
    en = _cli("check", str(path))
    assert en.returncode == 2
    assert f"{path}:2:1: LINE-TOO-LONG:" in en.stdout
    assert "line 2 is longer than 100,000 bytes" in en.stdout
    assert f"{path}:1: : " not in en.stdout  # no empty list of players in the game's head
    de = _cli("check", "--lang", "de", str(path))
    assert f"{path}:2:1: LINE-TOO-LONG:" in de.stdout
    assert "Zeile 2 ist länger als 100.000 Bytes" in de.stdout and "longer than" not in de.stdout


def _many_players(tmp_path: Path, n: int) -> Path:
    import re

    names = ", ".join(f"P{i}" for i in range(n))
    text = re.sub(r'\[Players "[^"]*"\]', f'[Players "{names}"]', GAME3.read_text("utf-8"))
    path = tmp_path / "many.alh"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_table_of_thousands_is_not_replayed_and_the_output_is_small(tmp_path: Path) -> None:
    path = _many_players(tmp_path, 3000)
    done = _cli("check", str(path))
    assert done.returncode == 2
    assert len(done.stdout) < 2000
    assert "SETUP-PLAYERS: the Players header names 3000 players" in done.stdout
    assert "P7, ... (+2992)" in done.stdout
    de = _cli("check", "--lang", "de", str(path))
    assert "der Players-Kopf nennt 3000 Spieler" in de.stdout
    html = _cli("render", "--html", str(path), "-o", str(tmp_path / "x.html"))
    assert html.returncode == 2 and not (tmp_path / "x.html").exists()
    assert "names 3000 players" in html.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["show"],
        ["score"],
        ["legal"],
        ["explain", "--player", "P0", "--at", "1", "FILE", "take Gu3"],
    ],
    ids=["show", "score", "legal", "explain"],
)
def test_the_dispute_tools_refuse_a_table_of_thousands_too(
    tmp_path: Path, command: list[str]
) -> None:
    # the same cut as check and render: the game is not replayed, the answer is one short error
    path = _many_players(tmp_path, 3000)
    args = [str(path) if a == "FILE" else a for a in command]
    if "FILE" not in command:
        args.append(str(path))
    done = _cli(*args)
    assert done.returncode == 2, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "the Players header names 3000 players" in out and "P7, ... (+2992)" in out
    assert len(out) < 3000
    de = _cli(args[0], "--lang", "de", *args[1:])
    assert "der Players-Kopf nennt 3000 Spieler" in de.stdout + de.stderr


def test_a_table_of_seven_is_still_replayed_with_the_engines_finding(tmp_path: Path) -> None:
    done = _cli("check", str(_many_players(tmp_path, 7)))
    assert done.returncode == 1
    assert "SETUP-PLAYERS" in done.stdout and "Alhambra is for 3 to 6 players" in done.stdout


def test_every_line_of_a_finding_is_bounded(tmp_path: Path) -> None:
    # 12 names of 5,000 letters: replayed, and each finding naming them is cut
    names = [chr(ord("A") + i) * 5000 for i in range(12)]
    import re

    text = re.sub(
        r'\[Players "[^"]*"\]', f'[Players "{", ".join(names)}"]', GAME3.read_text("utf-8")
    )
    path = tmp_path / "long-names.alh"
    path.write_text(text, encoding="utf-8")
    done = _cli("check", "--no-scoring", str(path))
    assert done.returncode in (1, 2)
    assert max(len(x) for x in done.stdout.splitlines()) < 2200
    assert "more characters left out" in done.stdout


def test_an_internal_failure_exits_with_4_never_with_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee import cli
    from referee.commands import check

    def broken(*paths: object) -> object:
        raise MemoryError

    monkeypatch.setattr(check, "_jobs", broken)
    with pytest.raises(SystemExit) as stop:
        cli.main(["check", str(GAME3)])
    assert stop.value.code == cli.EXIT_INTERNAL == 4
    err = capsys.readouterr().err
    assert "internal error (MemoryError)" in err and "interner Fehler" in err
    assert "Traceback" not in err

    def bug(*paths: object) -> object:
        raise KeyError("\x1b]0;title\x07")

    monkeypatch.setattr(check, "_jobs", bug)
    with pytest.raises(SystemExit) as stop:
        cli.main(["check", str(GAME3)])
    assert stop.value.code == 4
    err = capsys.readouterr().err
    assert "KeyError" in err and "\x1b" not in err and "\\x1b]0;title\\x07" in err


def test_the_exit_codes_are_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "**4** an internal error" in readme
    from click.testing import CliRunner

    from referee.cli import cli

    assert "4 a fault of the tool itself" in CliRunner().invoke(cli, ["--help"]).output
