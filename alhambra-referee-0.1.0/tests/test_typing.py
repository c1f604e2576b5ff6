"""`mypy referee` reports no error (settings in setup.cfg, section [mypy]).

mypy comes with the ``test`` extra; its cache goes to a temporary folder so the run never
writes into the tree (a first run takes about half a minute on the CI machine).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    if shutil.which("mypy") is None and not _importable("mypy"):  # pragma: no cover
        pytest.fail("mypy is missing: install the test extra (pip install -e '.[test]')")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "setup.cfg"),
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            "--no-error-summary",
            "referee",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None
