"""The user's cache folder of ``alhambra-referee`` (the grammar's tables, start-up code).

Nothing here imports more than the standard library's ``os`` and ``pathlib``: the command line
asks for the folder before anything else is loaded.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "ALHAMBRA_REFEREE_CACHE"  # a folder for the caches; "" or "0": no cache


def cache_dir() -> Path | None:
    """The folder of the caches: ``$ALHAMBRA_REFEREE_CACHE``, else
    ``$XDG_CACHE_HOME/alhambra-referee``, else ``~/.cache/alhambra-referee``. None when it is
    switched off or no home folder is known."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return Path(env) if env not in ("", "0") else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "alhambra-referee"
    try:
        return Path.home() / ".cache" / "alhambra-referee"
    except (RuntimeError, KeyError):  # no home folder
        return None


def marshal_file(stem: str) -> Path | None:
    """The cache file ``stem`` of data in ``marshal``'s format (None: no cache folder): named
    after the interpreter's bytecode tag and magic number, since the format is the
    interpreter's."""
    import sys
    from importlib.util import MAGIC_NUMBER

    folder = cache_dir()
    if folder is None:
        return None
    tag = sys.implementation.cache_tag or "python"
    return folder / f"{stem}-{tag}-{MAGIC_NUMBER.hex()}.marshal"


def write_atomically(path: Path, data: bytes) -> None:
    """Replace the file ``path`` by ``data`` (its folder made, private, when missing): readers
    see the old file or the new one, never half of one. Any failure is ignored (a cache)."""
    import contextlib

    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            tmp.unlink()
