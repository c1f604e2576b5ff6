"""The start-up caches hold code: they are loaded only from the user's own folder (issue 32,
"Files and caches").

``referee.cli_startup`` keeps ``marshal``'d code objects, the Lark reader keeps its tables as a
pickle, ``referee.datacache`` keeps parsed data. Whoever can write such a file (or replace it in
its folder) would run code in every later run. Each test plants a poisoned cache that leaves a
marker file when it is loaded; the first case shows the poison works (a trusted folder loads
it), the others show a group- or world-writable folder, a folder or file of another owner and a
symbolic link are not loaded, and the run gives the same output as without a cache.
"""

from __future__ import annotations

import marshal
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from referee import cache

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"
# a position the fast reader declines (a tab between two tokens), so Lark reads it and keeps its
# tables in the grammar cache: the example itself is read by the fast reader
POSITION_TEXT = (
    (ROOT / "examples" / "position-midgame.alh")
    .read_text(encoding="utf-8")
    .replace("    score 4\n", "    score\t4\n", 1)
)

_RUN = """
import sys
from referee.cli import main
main({args!r})
"""

OTHER_UID = 4242  # an owner that is not the user running the tests


def _run(folder: Path | str, args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _RUN.format(args=args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "ALHAMBRA_REFEREE_CACHE": str(folder)},
        check=False,
    )


def _poison_code_cache(path: Path, marker: Path) -> None:
    """Replace every code object of the dataclass table by one that writes ``marker`` first."""
    table = marshal.loads(path.read_bytes())
    touch = f"open({str(marker)!r}, 'w').close()\n"
    poisoned = {source: compile(touch + source, "<string>", "exec") for source in table}
    path.write_bytes(marshal.dumps(poisoned))


def _poison_grammar_cache(path: Path, marker: Path) -> None:
    """Keep the digest line Lark checks and put a pickle that writes ``marker`` after it."""

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str, str]]:
            return (open, (str(marker), "w"))

    head = path.read_bytes().split(b"\n", 1)[0]
    path.write_bytes(head + b"\n" + pickle.dumps(Evil()))


def _position(folder: Path) -> Path:
    """The Lark-read position, beside the cache ``folder``."""
    path = folder.parent / "position-tab.alh"
    if not path.exists():
        path.write_text(POSITION_TEXT, encoding="utf-8")
    return path


def _make_cache(folder: Path) -> None:
    for args in (["check", str(GAME)], ["score", str(_position(folder))]):
        assert _run(folder, args).returncode in (0, 1)
    assert _files(folder, "dataclass-code-") and _files(folder, "grammar-")


def _files(folder: Path, prefix: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(prefix))


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder as the program writes it (made once for the file: each test poisons a
    copy; the caches' bytes do not depend on the folder they are in)."""
    folder = tmp_path_factory.mktemp("made") / "cache"
    _make_cache(folder)
    return folder


@pytest.fixture(scope="module")
def plain_check() -> str:
    """The output of ``check`` without a cache (the same for every case)."""
    return _run("", ["check", str(GAME)]).stdout


@pytest.fixture
def planted(made: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A cache folder whose code and grammar caches leave ``marker`` when they are loaded."""
    folder = tmp_path / "cache"
    shutil.copytree(made, folder)  # the files' modes kept (copy2), owned by this user
    marker = tmp_path / "marker"
    (code_file,) = _files(folder, "dataclass-code-")
    _poison_code_cache(code_file, marker)
    for lark_file in _files(folder, "grammar-"):
        _poison_grammar_cache(lark_file, marker)
    return folder, marker


def _loads(folder: Path, marker: Path) -> bool:
    marker.unlink(missing_ok=True)
    for args in (["check", str(GAME)], ["score", str(_position(folder))]):
        _run(folder, args)
    return marker.exists()


def test_the_poison_works_in_a_trusted_folder(planted: tuple[Path, Path]) -> None:
    folder, marker = planted
    assert cache.trusted(folder)
    assert _loads(folder, marker)  # so the cases below would see a load


def test_the_grammar_poison_alone_works_in_a_trusted_folder(made: Path, tmp_path: Path) -> None:
    # the Lark tables' pickle by itself is loaded from a trusted folder (the cases below cover
    # it too, not only the code cache)
    folder = tmp_path / "cache"
    shutil.copytree(made, folder)
    marker = tmp_path / "marker"
    for lark_file in _files(folder, "grammar-"):
        _poison_grammar_cache(lark_file, marker)
    assert _loads(folder, marker)


@pytest.mark.parametrize("bits", [stat.S_IWGRP, stat.S_IWOTH])
def test_a_folder_others_may_write_is_not_loaded(
    planted: tuple[Path, Path], bits: int, plain_check: str
) -> None:
    folder, marker = planted
    folder.chmod(0o700 | bits)
    assert not cache.trusted(folder)
    assert not _loads(folder, marker)
    assert _run(folder, ["check", str(GAME)]).stdout == plain_check


needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root"
)


@needs_root
def test_a_folder_of_another_owner_is_not_loaded(planted: tuple[Path, Path]) -> None:
    folder, marker = planted
    os.chown(folder, OTHER_UID, -1)
    assert not cache.trusted(folder)
    assert not _loads(folder, marker)


@needs_root
def test_a_file_of_another_owner_or_writable_by_others_is_not_loaded(
    planted: tuple[Path, Path],
) -> None:
    folder, marker = planted
    files = [*_files(folder, "dataclass-code-"), *_files(folder, "grammar-")]
    for f in files:
        os.chown(f, OTHER_UID, -1)
    assert not _loads(folder, marker)
    for f in files:
        os.chown(f, os.geteuid(), -1)
        f.chmod(0o666)
    assert not _loads(folder, marker)


def test_a_symbolic_link_to_a_cache_is_not_loaded(
    planted: tuple[Path, Path], tmp_path: Path
) -> None:
    folder, marker = planted
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for f in [*_files(folder, "dataclass-code-"), *_files(folder, "grammar-")]:
        target = elsewhere / f.name
        f.rename(target)
        f.symlink_to(target)
    assert not _loads(folder, marker)


def test_read_trusted_checks_folder_file_and_size(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    path = folder / "x"
    path.write_bytes(b"12345")
    path.chmod(0o600)
    assert cache.read_trusted(path, 10) == b"12345"
    assert cache.read_trusted(path, 4) is None  # longer than the bound
    folder.chmod(0o777)
    assert cache.read_trusted(path, 10) is None
    folder.chmod(0o700)
    path.chmod(0o620)
    assert cache.read_trusted(path, 10) is None
    assert cache.read_trusted(folder / "missing", 10) is None
