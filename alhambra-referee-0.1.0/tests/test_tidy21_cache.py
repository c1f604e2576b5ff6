"""Issue 34, nineteenth step (tidy): the cache folder keeps no files of earlier interpreters.

Writing a ``marshal`` cache file (``referee.cache.marshal_file``: ``{stem}-{tag}-{key}.marshal``)
removes the same cache's files of an earlier version of the same Python (a lower
``sys.hexversion``) and of the earlier naming by magic number; nothing else: no other cache, no
other Python, no newer version, no name the tool does not write, no symbolic link (nor what it
points to), no folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from referee.cache import interpreter_key, marshal_file, write_atomically


def _files(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_writing_a_cache_removes_only_its_earlier_interpreters_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "c"
    monkeypatch.setenv("ALHAMBRA_REFEREE_CACHE", str(folder))
    path = marshal_file("bundled-data")
    assert path is not None and Path(path).parent == folder
    tag = sys.implementation.cache_tag
    older, newer = f"{sys.hexversion - 0x100:08x}", f"{sys.hexversion + 0x100:08x}"
    stale = {
        f"bundled-data-{tag}-{older}.marshal",  # an earlier micro version
        f"bundled-data-{tag}-{older}-0badf00d.marshal",  # an earlier build between releases
        f"bundled-data-{tag}-a70d0d0a.marshal",  # the earlier naming (a magic number)
    }
    kept = {
        f"bundled-data-{tag}-{newer}.marshal",  # a newer version's: it stays
        f"bundled-data-{tag}-{sys.hexversion:08x}-0badf00d.marshal",  # the same version's build
        f"dataclass-code-2-{tag}-{older}.marshal",  # another cache
        f"bundled-data-cpython-99-{older}.marshal",  # another Python
        f"bundled-data-{tag}-{older}.marshal.123.tmp",  # not a name of the tool's caches
        f"bundled-data-{tag}-0000000g.marshal",
        f"bundled-data-{tag}-{older}-x.marshal",
        "grammar-c4a2d686cee2ac31118e.lark-cache",
        "notes.txt",
    }
    for name in stale | kept:
        (folder / name).write_bytes(b"x")
    target = tmp_path / "elsewhere.marshal"
    target.write_bytes(b"kept")
    (folder / f"bundled-data-{tag}-{older}-00000001.marshal").symlink_to(target)
    (folder / f"bundled-data-{tag}-{older}-00000002.marshal").mkdir()
    kept |= {
        f"bundled-data-{tag}-{older}-00000001.marshal",
        f"bundled-data-{tag}-{older}-00000002.marshal",
    }
    write_atomically(path, b"new")
    assert Path(path).read_bytes() == b"new"
    assert path.endswith(f"-{interpreter_key()}.marshal")
    assert _files(folder) == kept | {os.path.basename(path)}
    assert target.read_bytes() == b"kept"


def test_a_file_gone_meanwhile_or_another_write_prunes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "c"
    monkeypatch.setenv("ALHAMBRA_REFEREE_CACHE", str(folder))
    path = marshal_file("dataclass-code-2")
    assert path is not None
    stale = folder / f"dataclass-code-2-{sys.implementation.cache_tag}-00000000.marshal"
    stale.write_bytes(b"x")
    write_atomically(folder / "other.bin", b"y")  # not a marshal cache of this interpreter
    assert stale.exists()
    real_scandir = os.scandir

    def gone_first(where: str) -> object:
        entries = list(real_scandir(where))
        stale.unlink()  # another process removed it meanwhile: no error
        return entries

    monkeypatch.setattr(os, "scandir", gone_first)
    write_atomically(path, b"new")
    assert Path(path).read_bytes() == b"new" and not stale.exists()
