"""A file name the system cannot even look at is an unreadable input, never a fault of the tool.

``check``, ``parse``, ``fmt`` and ``headers`` asked ``Path.is_dir`` whether each name was a
folder; for a name longer than the system allows (``ENAMETOOLONG``) that raises instead of
answering, and the command ended with "internal error ... nothing above is a verdict"
(exit 4), where ``show`` and ``score`` already said "cannot read the file (File name too
long)" (exit 2). Now every command reads such a name as a file and says why it cannot
(:func:`referee.notation.files.is_folder`), and ``--rules`` with such a name says that there
is no profile of that name (exit 3, a usage error), as for any other missing file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.notation.files import expand_paths, is_folder

_LONG = "a" * 300 + ".alh"  # one name part over the 255 bytes Linux allows
_GAME = Path(__file__).resolve().parent.parent / "examples" / "game-4p.alh"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ALHAMBRA_REFEREE_CACHE": "0", "LANG": "C", "LC_ALL": "C"}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["check", "--jobs", "2"],
        ["check", "--format", "json"],
        ["check", "--lang", "de"],
        ["parse"],
        ["fmt"],
        ["fmt", "--check"],
        ["headers"],
        ["show"],
        ["score"],
    ],
    ids=lambda c: "-".join(c),
)
def test_a_name_too_long_is_unreadable_input(tmp_path: Path, command: list[str]) -> None:
    got = _run(*command, _LONG, cwd=tmp_path)
    assert got.returncode == 2, got.stderr
    assert "internal error" not in got.stderr and "Traceback" not in got.stderr
    said = got.stdout + got.stderr
    assert _LONG[:40] in said  # the name is said ...
    if "--format" not in command:  # ... and why it cannot be read (the system's words)
        assert "File name too long" in said or "Dateiname zu lang" in said


def test_a_long_name_beside_a_game_still_checks_the_game(tmp_path: Path) -> None:
    got = _run("check", str(_GAME), _LONG, cwd=tmp_path)
    assert got.returncode == 2
    assert "1 valid" in got.stdout and "File name too long" in got.stdout + got.stderr


def test_rules_with_a_name_too_long_is_a_usage_error(tmp_path: Path) -> None:
    got = _run("check", "--rules", "b" * 300 + ".yaml", str(_GAME), cwd=tmp_path)
    assert got.returncode == 3
    assert "no bundled profile and no file of this name" in got.stderr
    assert "Errno" not in got.stderr and "internal error" not in got.stderr


def test_is_folder_answers_for_every_name(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "f.alh").write_text("", "utf-8")
    os.symlink(tmp_path / "d", tmp_path / "link")
    assert is_folder(tmp_path / "d") and is_folder(str(tmp_path / "link"))
    for name in ("f.alh", "missing", "f.alh/x", "a" * 300, "a" * 5000, "nul\0name"):
        assert is_folder(str(tmp_path / name)) is False, name[:20]
    # a folder still stands for its games; a long name stays itself, to be read and refused
    (tmp_path / "d" / "g.alh").write_text("", "utf-8")
    long = str(tmp_path / _LONG)
    assert expand_paths([str(tmp_path / "d"), long]) == [str(tmp_path / "d" / "g.alh"), long]
