"""The source distribution carries what its tests need, and a LICENSE file (issue 12).

The sdist is built with setuptools' PEP 517 backend (what ``python -m build --sdist`` calls),
in a separate process. The full check, installing the sdist in a fresh virtualenv and running
its tests, is slow and needs the package index; README.md ("Packaging") describes it.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEEDED = ("examples", "docs", "tests", "grammar")
SKIP_PARTS = {"__pycache__", ".pytest_cache", ".hypothesis"}


def _build_sdist(out: Path) -> Path:
    pytest.importorskip("setuptools")
    code = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    # one build at a time: the backend writes its egg-info into the source tree, and two test
    # workers (pytest -n 2) building at once remove each other's files
    with _build_lock():
        run = subprocess.run(
            [sys.executable, "-c", code, str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    return out / run.stdout.strip().splitlines()[-1]


@contextlib.contextmanager
def _build_lock() -> Iterator[None]:
    """An exclusive lock shared by the test processes of this machine (none where ``fcntl``
    is missing: the tests then run in one process)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(Path(tempfile.gettempdir()) / "alhambra-referee-sdist.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def sdist_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    path = _build_sdist(tmp_path_factory.mktemp("sdist"))
    with tarfile.open(path) as tar:
        return {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name and m.isfile()}


def test_the_sdist_carries_every_file_the_tests_need(sdist_names: set[str]) -> None:
    wanted = {
        str(p.relative_to(ROOT))
        for folder in NEEDED
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and not SKIP_PARTS.intersection(p.parts) and p.suffix not in (".pyc", ".pyo")
    }
    assert wanted, "nothing found to compare"
    missing = sorted(wanted - sdist_names)
    assert not missing, missing[:20]
    assert {"tests/golden/score/final-6p.txt", "examples/game-3p.alh"} <= sdist_names


def test_the_sdist_has_the_mit_license(sdist_names: set[str]) -> None:
    assert "LICENSE" in sdist_names
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 alhambra-referee contributors" in text
    assert "setup.cfg" in sdist_names and "pyproject.toml" in sdist_names
