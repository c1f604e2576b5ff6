"""A closed output pipe (``alhambra-referee ... | head``) ends every command quietly with 141.

Each command runs in a real process whose standard output is a pipe; the test closes the read
end before the command writes, so its first write meets a closed pipe (as with ``| head -0``).
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# `python -m referee` runs outside the source tree, so that it runs the installed package (an
# unpacked sdist's referee/ lacks referee.grammar, which setup.cfg maps from grammar/).
# an empty folder of its own: a stray *.py in the shared temp folder (say gettext.py) would
# shadow the standard library for "python -m referee" run there
OUTSIDE = tempfile.mkdtemp(prefix="alhambra-referee-cwd-")
atexit.register(shutil.rmtree, OUTSIDE, ignore_errors=True)  # removed at the end of the run

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"

COMMANDS: dict[str, list[str]] = {
    "check": ["check", str(EX)],
    "check-json": ["check", "--format", "json", str(EX / "game-3p.alh")],
    "check-jobs": ["check", "--jobs", "2", str(EX)],
    "show": ["show", str(EX / "game-4p.alh"), "--at", "10"],
    "legal": ["legal", str(EX / "game-4p.alh"), "--at", "10"],
    "explain": ["explain", str(EX / "game-4p.alh"), "--at", "10", "take Gu1"],
    "render": ["render", str(EX / "game-3p.alh")],
    "score": ["score", str(EX / "final-6p.alh")],
    "simulate": ["simulate", "--games", "2"],
    "modules": ["modules"],
    "profiles": ["profiles"],
    "profiles-show": ["profiles", "show", "bga"],
    "parse": ["parse", str(EX / "game-3p.alh")],
    "fmt": ["fmt", "-"],
    "help": ["--help"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_closed_pipe_ends_quietly_with_141(name: str) -> None:
    stdin = (EX / "game-3p.alh").read_bytes() if name == "fmt" else b""
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", *COMMANDS[name]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=OUTSIDE,
    )
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    proc.stdout.close()  # nobody reads: the first write fails with EPIPE
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:  # pragma: no cover - the command did not read its input
        pass
    err = proc.stderr.read().decode("utf-8", "replace")
    code = proc.wait(timeout=120)
    assert code == 141, (code, err)
    assert "internal error" not in err.lower()
    assert "Traceback" not in err and "Exception ignored" not in err
    assert err == ""


def test_an_open_pipe_still_gives_the_usual_exit_codes() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "referee", "check", str(EX / "illegal-take.alh")],
        capture_output=True,
        cwd=OUTSIDE,
        timeout=120,
    )
    assert run.returncode == 1
    assert b"TAKE-SUM" in run.stdout
