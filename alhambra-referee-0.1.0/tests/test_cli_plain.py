"""A plain ``check FILE...`` runs without Click (referee/cli_plain.py) and says, writes and
exits exactly as the same arguments run through Click (referee/cli.py) do."""

from __future__ import annotations

import atexit
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from forked_run_support import ForkedRuns

from referee import cli_plain
from referee.cli_plain import plain_check
from referee.safe_text import TerminalStream

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GAME = str(EXAMPLES / "game-4p.alh")

# the process's entry (referee.__main__.run: the plain path when the arguments allow it) and
# the command line through Click for the same arguments (referee.cli.entry)
PLAIN = "import sys; from referee.__main__ import run; run()"
CLICK = "import sys; from referee.cli import entry; entry()"


def _plain_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output and error as a process has them (pytest's capture is in their place
    while a test runs)."""
    for name in ("stdout", "stderr"):
        monkeypatch.setattr(sys, name, io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))


def _process(code: str, args: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    env = {k: v for k, v in os.environ.items() if k != "_ALHAMBRA_REFEREE_COMPLETE"}
    env["PYTHONPATH"] = str(ROOT)
    env["ALHAMBRA_REFEREE_CACHE"] = "0"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


# The plain path and Click's on the same arguments, each run a process of its own forked from
# one waiting process that has imported what a plain check imports (forked_run_support): the
# interpreter's start and the program's import paid once, not 24 times. Not Click: the Click
# path loads it in its own process, as it does when started (whether the plain path loads
# Click is asked of a process started anew, test_a_plain_check_loads_no_click).
_FORKED = ForkedRuns(
    preload=[
        *("referee.__main__", "referee.cli_plain", "referee.cli_outcome", "referee.cli_startup"),
        *("referee.engine", "referee.engine.walk", "referee.notation", "referee.datacache"),
        *("referee.commands", "referee.reports", "referee.reports.terminal", "referee.messages"),
    ],
    env={
        **{k: v for k, v in os.environ.items() if k != "_ALHAMBRA_REFEREE_COMPLETE"},
        "PYTHONPATH": str(ROOT),
        "ALHAMBRA_REFEREE_CACHE": "0",
    },
    cwd=ROOT,
    absent=["click"],
    # the Lark reader built once (about 1 s without a cache: six runs read a syntax error or
    # an empty file with it); each run reads with the same tables, built from the same grammar
    prepare="from referee.notation import lark_reader\nlark_reader._parser()\n",
)
atexit.register(_FORKED.close)


@pytest.fixture(scope="module", autouse=True)
def _forked_runs_end() -> Iterator[None]:
    yield
    _FORKED.close()


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--lang", "en", "game-4p.alh"],
        ["check", "--lang=de", "illegal-take.alh"],
        ["check", "--format", "json", "illegal-take.alh", "game-3p.alh"],
        ["check", "--format=text", "--no-scoring", "game-3p.alh", "illegal-take.alh"],
        ["check", "--strict", "illegal-take.alh", "game-3p.alh"],
        ["check", "missing.alh", "game-3p.alh"],
        ["check", "--lang", "de", "--format", "json", "missing.alh"],
        ["check", "empty.alh", "--lang", "de"],
        ["check", "folder", "syntax.alh"],
        ["check", "--format", "json", "folder", "empty.alh", "syntax.alh"],
        ["check", "styled.alh"],
        ["check", ""],
    ],
)
def test_a_plain_check_says_writes_and_exits_as_under_click(
    tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _plain_streams(monkeypatch)
    for name in ("game-4p.alh", "game-3p.alh", "illegal-take.alh"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    (tmp_path / "empty.alh").write_text("; nothing but a comment\n", encoding="utf-8")
    (tmp_path / "syntax.alh").write_text('[Players "A, B"]\n\n1. A: ???\n', encoding="utf-8")
    (tmp_path / "styled.alh").write_text(
        '[Players "A\x1b[31m, B"]\n[Event "\x1b[1mbold\x1b[0m"]\n\n1. A: take\n',
        encoding="utf-8",
    )
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "a.alh").write_bytes((EXAMPLES / "game-3p.alh").read_bytes())
    assert plain_check(args) is not None  # these arguments take the plain path
    plain = _FORKED.run(PLAIN, args, tmp_path)
    under_click = _FORKED.run(CLICK, args, tmp_path)
    assert plain == under_click
    assert plain[1] or plain[2]


def test_a_plain_check_loads_no_click(tmp_path: Path) -> None:
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('click' + str('click' in sys.modules)))\n"
        "from referee.__main__ import run\n"
        "run()\n"
    )
    status, out, err = _process(code, ["check", GAME], tmp_path)
    assert status == 0 and b"1 valid" in out
    assert err.endswith(b"clickFalse")
    status, out, err = _process(code, ["check", "--jobs", "1", GAME], tmp_path)  # Click's
    assert status == 0 and b"1 valid" in out
    assert err.endswith(b"clickTrue")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["check"],
        ["check", "--lang", "de"],
        ["show", GAME],
        ["--lang", "de", "check", GAME],
        ["check", "-", GAME],
        ["check", "--", GAME],
        ["check", "--help", GAME],
        ["check", "-h", GAME],
        ["check", "--lang", "DE", GAME],
        ["check", "--lang", "fr", GAME],
        ["check", "--lang"],
        ["check", GAME, "--lang"],
        ["check", "--lang", "de", "--lang", "en", GAME],
        ["check", "--strict", "--strict", GAME],
        ["check", "--format", "yaml", GAME],
        ["check", "--format", "JSON", GAME],
        ["check", "--jobs", "2", GAME],
        ["check", "-j2", GAME],
        ["check", "--max-violations", "3", GAME],
        ["check", "--rules", "queen-2003", GAME],
        ["check", "--progress", GAME],
        ["check", "--no-strict", GAME],
        ["check", "--lan", "de", GAME],
    ],
)
def test_every_other_argument_goes_to_click(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _plain_streams(monkeypatch)
    assert plain_check(args) is None


@pytest.mark.parametrize(
    ("args", "files", "options"),
    [
        (["check", GAME], (GAME,), {}),
        (["check", GAME, GAME], (GAME, GAME), {}),
        (
            ["check", "--lang", "de", GAME, "--format=json", "--no-scoring", "--strict"],
            (GAME,),
            {"lang": "de", "fmt": "json", "no_scoring": True, "strict": True},
        ),
        (["check", "--lang=en", "x.alh"], ("x.alh",), {"lang": "en"}),
    ],
)
def test_the_plain_arguments_are_read_as_click_reads_them(
    args: list[str],
    files: tuple[str, ...],
    options: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _plain_streams(monkeypatch)
    plain = plain_check(args)
    assert plain is not None
    assert plain.files == files and plain.options == options


def test_shell_completion_goes_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    _plain_streams(monkeypatch)
    monkeypatch.setenv("_ALHAMBRA_REFEREE_COMPLETE", "bash_complete")
    assert plain_check(["check", GAME]) is None


def test_a_file_click_would_refuse_goes_to_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plain_streams(monkeypatch)
    secret = tmp_path / "secret.alh"
    secret.write_text("", encoding="utf-8")
    secret.chmod(0)
    try:
        if os.access(secret, os.R_OK):  # pragma: no cover - run as root: readable anyway
            pytest.skip("every file is readable for this user")
        assert plain_check(["check", str(secret)]) is None  # Click: "is not readable", 3
    finally:
        secret.chmod(0o600)


def test_streams_click_would_wrap_go_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    assert plain_check(["check", GAME]) is None
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert plain_check(["check", GAME]) is None
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))
    assert plain_check(["check", GAME]) is not None  # (the second stream: not ASCII either)
    assert plain_check(["check", GAME]) is not None


class _Tty(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "message", ["", "plain", "ä \x1b[31mred\x1b[0m and \x1b]0;title\x07", "\x1b[1m", "a\nb"]
)
@pytest.mark.parametrize("nl", [True, False])
@pytest.mark.parametrize("err", [False, True])
@pytest.mark.parametrize("kind", ["file", "terminal", "guarded terminal"])
def test_echo_writes_what_click_echo_writes(
    monkeypatch: pytest.MonkeyPatch, message: str, nl: bool, err: bool, kind: str
) -> None:
    def stream() -> tuple[io.BytesIO, object]:
        raw = io.BytesIO()
        text: object = (io.TextIOWrapper if kind == "file" else _Tty)(raw, encoding="utf-8")
        if kind == "guarded terminal":
            text = TerminalStream(text, err)  # type: ignore[arg-type]
        return raw, text

    written = []
    for say in (click.echo, cli_plain.echo):
        raw, text = stream()
        monkeypatch.setattr(sys, "stderr" if err else "stdout", text)
        say(message, nl=nl, err=err)
        written.append(raw.getvalue())
    assert written[0] == written[1]
