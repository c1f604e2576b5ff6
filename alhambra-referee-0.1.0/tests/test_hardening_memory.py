"""A process with little memory (a club's harness, a container with a memory limit): every
answer is a line a person can read and a documented status, never a traceback.

Found by running ``check`` under ``ulimit -v``: the start-up cache's reader asked for its whole
limit (16 MB) at once, and a memory error while loading the program ended in a traceback with
status 1, the status of rule violations."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from shared_store_support import shared_text

from referee.cache import read_trusted

ROOT = Path(__file__).resolve().parents[1]
resource = pytest.importorskip("resource")  # POSIX only

EXAMPLES = ("game-4p.alh", "module-obstgaerten.alh", "final-6p.alh")


def test_a_cache_file_is_read_by_its_size_not_by_the_limit(tmp_path: Path) -> None:
    """A limit far beyond any memory: the old read reserved ``limit + 1`` bytes first."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    path = folder / "table.marshal"
    path.write_bytes(b"0123456789")
    os.chmod(path, 0o600)
    assert read_trusted(path, 1 << 50) == b"0123456789"
    assert read_trusted(path, 10) == b"0123456789"
    assert read_trusted(path, 9) is None  # longer than the limit: not read


def _vm_kb() -> int:
    """The address space a bare interpreter of this Python takes (VmPeak, kB), or 0."""
    probe = "print(open('/proc/self/status').read().split('VmPeak:')[1].split()[0])"
    try:
        out = subprocess.run(
            [sys.executable, "-S", "-c", probe], capture_output=True, text=True, timeout=60
        )
        return int(out.stdout.strip() or 0)
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return 0


def _limit(limit_kb: int) -> Callable[[], None]:
    """What the child runs before the program: its address space limited to ``limit_kb``."""

    def pre() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_kb << 10, limit_kb << 10))

    return pre


def _run_argv(
    limit_kb: int, argv: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``argv`` run from the project's folder with its address space limited to ``limit_kb``
    (its output taken; the environment ``env``, or this process's when None)."""
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        preexec_fn=_limit(limit_kb),
        check=False,
    )


def _run(limit_kb: int, *args: str, cache: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ALHAMBRA_REFEREE_CACHE=cache)
    return _run_argv(limit_kb, [sys.executable, "-m", "referee", *args], env)


def _starts(limit_kb: int) -> bool:
    """Whether the interpreter itself gets as far as loading the standard library's modules
    the program's first line needs (``typing``) under the limit: below that, no Python
    program can answer (seen: CPython's own ``SystemError`` while importing ``typing``).
    Asked once a run for each limit (``shared_text``: the six runs over the same limits
    asked it each, 84 processes for 14 answers)."""

    def make() -> str:
        argv = [sys.executable, "-c", "import os, typing, gc; print(os.getcwd())"]
        return "yes" if _run_argv(limit_kb, argv).returncode == 0 else "no"

    return shared_text("memory-starts", (limit_kb,), make) == "yes"


def _statuses(cache: str, name: str, base: int, tmp_path: Path) -> list[int]:
    """``check`` of the example ``name`` under each limit from where the interpreter just
    starts to where a check passes (steps of 3 MB, up to 42 MB above a bare interpreter; it
    stops at the second limit in a row where the check passes: more memory than a passing
    check had changes nothing of what it does), every answer a line and a documented
    status; the statuses seen. Made once a run (``shared_text``): the per-example test and
    the test over all three examples take the same answers."""

    def make() -> str:
        tmp_path.mkdir(parents=True, exist_ok=True)
        folder = "0" if cache == "0" else str(tmp_path / "cache")
        if cache == "own":  # a warm cache: the start-up tables are read under the limit
            for example in EXAMPLES:
                subprocess.run(
                    [sys.executable, "-m", "referee", "check", f"examples/{example}"],
                    cwd=ROOT,
                    env=dict(os.environ, ALHAMBRA_REFEREE_CACHE=folder),
                    capture_output=True,
                    timeout=120,
                    check=False,
                )
        seen: set[int] = set()
        passed = 0  # checks passed at the last limits in a row
        for extra in range(0, 42 * 1024, 3 * 1024):
            if passed == 2:
                break
            limit = base + extra
            if not _starts(limit):
                continue
            done = _run(limit, "check", f"examples/{name}", cache=folder)
            both = done.stdout + done.stderr
            assert "Traceback" not in both, (limit, name, both[-2000:])
            assert done.returncode in (0, 2, 4), (limit, name, done.returncode, both[-2000:])
            if done.returncode == 4:
                assert "nothing above is a verdict" in done.stderr, (limit, name, done.stderr)
            elif done.returncode == 2:  # the game's INTERNAL error, the others go on
                # (mostly "not enough memory to check this game"; under a limit CPython may
                # also fail to compile a module it loads late, with a SyntaxError of its own)
                assert ": INTERNAL: " in done.stdout, (limit, name, both)
            seen.add(done.returncode)
            passed = passed + 1 if done.returncode == 0 else 0
        return json.dumps(sorted(seen))

    return list(json.loads(shared_text("memory", (cache, name, base), make)))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("cache", ["0", "own"])
def test_under_a_memory_limit_every_answer_is_a_line_never_a_traceback(
    cache: str, name: str, tmp_path: Path
) -> None:
    base = _vm_kb()
    if not base:
        pytest.skip("the address space of an interpreter is not known here")
    assert _statuses(cache, name, base, tmp_path)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
@pytest.mark.parametrize("cache", ["0", "own"])
def test_under_a_memory_limit_the_range_reaches_a_limit_where_the_checks_pass(
    cache: str, tmp_path: Path
) -> None:
    """Over the three examples (their answers taken from the test above when it ran first)."""
    base = _vm_kb()
    if not base:
        pytest.skip("the address space of an interpreter is not known here")
    seen: set[int] = set()
    for name in EXAMPLES:
        seen.update(_statuses(cache, name, base, tmp_path / name.removesuffix(".alh")))
    assert 0 in seen  # the range reached a limit where the checks pass
