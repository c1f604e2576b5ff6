"""Folder scans (issue 32, "Files and caches"): ``fmt`` on a folder never rewrites a file
outside it through a symbolic link, and a dangling link or a FIFO named ``*.alh`` is reported
by every command that scans folders, never skipped silently (nor waited on)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.notation.files import scan_folder

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-3p.alh"
NOT_CANONICAL = '[Players "A, B, C"]\n[Event  "x"]\n\n\n'


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    scan = tmp_path / "scan"
    (scan / "sub").mkdir(parents=True)
    (scan / "a.alh").write_text(GAME.read_text("utf-8"), encoding="utf-8")
    (scan / "sub" / "inner.alh").write_text(NOT_CANONICAL, encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.alh").write_text(NOT_CANONICAL, encoding="utf-8")
    (scan / "evil.alh").symlink_to(outside / "victim.alh")
    (scan / "inside.alh").symlink_to(scan / "sub" / "inner.alh")
    (scan / "dangling.alh").symlink_to(tmp_path / "nowhere.alh")
    os.mkfifo(scan / "pipe.alh")
    return scan


def test_the_scan_names_what_it_does_not_read(folder: Path) -> None:
    found, skipped = scan_folder(folder)
    assert [p.name for p in found] == ["a.alh", "evil.alh", "inside.alh", "inner.alh"]
    assert [(s.path.name, s.reason) for s in skipped] == [
        ("dangling.alh", "dangling"),
        ("pipe.alh", "not-a-file"),
    ]
    found, skipped = scan_folder(folder, inside_only=True)
    assert "evil.alh" not in [p.name for p in found]
    assert ("evil.alh", "outside") in [(s.path.name, s.reason) for s in skipped]
    pipe = next(s for s in skipped if s.reason == "not-a-file")
    assert "a named pipe (FIFO)" in pipe.message("en")
    assert "eine benannte Pipe (FIFO)" in pipe.message("de")


def test_fmt_on_a_folder_never_rewrites_a_file_outside_it(folder: Path) -> None:
    victim = folder.parent / "outside" / "victim.alh"
    done = _cli("fmt", str(folder))
    assert done.returncode == 0, done.stderr
    assert victim.read_text("utf-8") == NOT_CANONICAL  # untouched
    assert (folder / "evil.alh").is_symlink()
    assert (folder / "sub" / "inner.alh").read_text("utf-8") != NOT_CANONICAL  # inside: done
    assert "evil.alh: skipped: a symbolic link out of the folder" in done.stderr
    assert "dangling.alh: skipped: a symbolic link to nothing" in done.stderr
    assert "pipe.alh: skipped: not a regular file (a named pipe (FIFO))" in done.stderr
    listed = json.loads(_cli("fmt", "--check", "--format", "json", str(folder)).stdout)
    reasons = {Path(str(f["file"])).name: f.get("reason") for f in listed["files"]}
    assert reasons["evil.alh"] == "outside" and reasons["pipe.alh"] == "not-a-file"


@pytest.mark.parametrize("command", ["check", "headers", "parse"])
def test_scanning_commands_report_dangling_links_and_fifos(folder: Path, command: str) -> None:
    done = _cli(command, str(folder))  # a FIFO is never opened: no hang
    assert "dangling.alh: skipped: a symbolic link to nothing" in done.stderr
    assert "pipe.alh: skipped: not a regular file" in done.stderr
    assert "Traceback" not in done.stderr
