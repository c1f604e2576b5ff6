"""The user's cache folder of ``alhambra-referee`` (the grammar's tables, start-up code).

Nothing here imports more than the standard library's ``os``: the command line asks for the
folder before anything else is loaded. The files of a check's caches are named by plain strings
(``os.path``); only :func:`cache_dir`, for the grammar's tables, hands out a ``Path`` (``pathlib``
with the ``urllib.parse`` and ``ipaddress`` it imports was 5 % of a one-game check's
instructions in a regular install).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

CACHE_ENV = "ALHAMBRA_REFEREE_CACHE"  # a folder for the caches; "" or "0": no cache


def cache_dir() -> Path | None:
    """The folder of the caches: ``$ALHAMBRA_REFEREE_CACHE``, else
    ``$XDG_CACHE_HOME/alhambra-referee``, else ``~/.cache/alhambra-referee``. None when it is
    switched off or no home folder is known."""
    folder = _folder()
    if folder is None:
        return None
    from pathlib import Path

    return Path(folder)


def _folder() -> str | None:
    """:func:`cache_dir` as a string (the same folder; ``Path.home()`` is ``~`` expanded by
    ``os.path.expanduser``, which gives ``~`` back when no home folder is known)."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return env if env not in ("", "0") else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return os.path.join(base, "alhambra-referee")
    home = os.path.expanduser("~")
    if home.startswith("~"):  # no home folder (pathlib's RuntimeError)
        return None
    return os.path.join(home, ".cache", "alhambra-referee")


def trusted(path: str | os.PathLike[str]) -> bool:
    """Whether the cache file or folder ``path`` may be loaded: it is there, no symbolic link,
    owned by this user and writable by nobody else (no group or world write bit).

    A cache holds code (``marshal``'d code objects, Lark's pickled tables): whoever can write
    the file or replace it in its folder runs code in every later run. So a cache is read only
    when the folder and the file pass this test; anything else means no cache (see
    docs/security.md)."""
    import stat

    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    if stat.S_ISLNK(st.st_mode):
        return False
    geteuid = getattr(os, "geteuid", None)
    if geteuid is not None and st.st_uid != geteuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def trusted_folder() -> str | None:
    """The cache folder (:func:`cache_dir`) when it may hold caches to load: made when missing
    (private), then :func:`trusted`; None otherwise (no cache is read or written)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except (OSError, ValueError):
        return None
    return folder if trusted(folder) else None


def read_trusted(path: str | os.PathLike[str], limit: int) -> bytes | None:
    """The bytes of the cache file ``path`` (at most ``limit``; a longer file gives None) when
    its folder and the file itself are :func:`trusted` and it is a regular file; else None.

    The file is opened without following a symbolic link and checked again on the open
    descriptor, so a file swapped in between is not read."""
    import stat

    path = os.fspath(path)
    if not trusted(os.path.dirname(path) or ".") or not trusted(path):
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        geteuid = getattr(os, "geteuid", None)
        if (
            not stat.S_ISREG(st.st_mode)
            or (geteuid is not None and st.st_uid != geteuid())
            or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            return None
        if st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # the file's size, not the limit: a read of n bytes reserves n bytes first, and
            # under a memory limit (a harness, a container) the limit alone could exhaust it
            data = fh.read(st.st_size + 1)
            if len(data) > st.st_size:  # grown since: read on, up to the limit
                data += fh.read(limit + 1 - len(data))
    except (OSError, MemoryError):
        return None
    finally:
        os.close(fd)
    return data if len(data) <= limit else None


def marshal_file(stem: str) -> str | None:
    """The cache file ``stem`` of data in ``marshal``'s format (None: no cache folder, or one
    that is not :func:`trusted`): named after the interpreter (:func:`interpreter_key`), since
    the format, and the bytecode of the code objects such a file holds, are the interpreter's."""
    folder = trusted_folder()
    if folder is None:
        return None
    return os.path.join(folder, f"{stem}-{interpreter_key()}.marshal")


def interpreter_key() -> str:
    """The part of a cache file's name that names the interpreter: its bytecode tag and its
    whole version (``cpython-311-030b07f0``: ``sys.hexversion``, with the micro version, the
    release level and serial), for a build that is not a CPython release also a checksum of its
    build string.

    What must not be shared between interpreters is ``marshal``'s format and the bytecode of the
    code objects (``importlib.util.MAGIC_NUMBER`` names it; ``importlib.util`` imports
    ``contextlib``, which a check does not otherwise need). A CPython release keeps its bytecode
    for its whole version, and every release has its own ``sys.hexversion``, so the name changes
    whenever the magic number can; the same version of another build (a build between releases,
    ``3.14.0a1+``, whose bytecode changes without a new version, or another implementation,
    whose own version is not the language's) is told apart by ``sys.version``, which names the
    build (its source revision and date). All of it is public and loaded with the interpreter:
    nothing is imported for a CPython release."""
    import sys

    tag = sys.implementation.cache_tag or "python"
    key = f"{tag}-{sys.hexversion:08x}"
    release = (
        sys.implementation.name == "cpython"
        and sys.version_info.releaselevel == "final"
        and not sys.version.split(" ", 1)[0].endswith("+")
    )
    if not release:
        import binascii

        key += f"-{binascii.crc32(sys.version.encode()):08x}"
    return key


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file ``path`` by ``data`` (its folder made, private, when missing): readers
    see the old file or the new one, never half of one. Any failure is ignored (a cache). A
    file of :func:`marshal_file` written, the same cache's files of earlier interpreters go
    (:func:`prune_stale`)."""
    import contextlib

    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path) or ".", mode=0o700, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return
    prune_stale(path)


def _hex8(text: str) -> int | None:
    """``text`` read as eight lower-case hexadecimal digits (as :func:`interpreter_key` writes
    them), else None."""
    if len(text) != 8 or text.strip("0123456789abcdef"):
        return None
    return int(text, 16)


def prune_stale(path: str) -> None:
    """Remove the files of the cache ``path`` (a :func:`marshal_file` of this interpreter) that
    an earlier interpreter of the same Python left in its folder: each Python micro update (and
    the tool's earlier naming, by ``importlib.util.MAGIC_NUMBER``) left a pair of files behind.

    Only files this tool wrote go: the name is the same cache's (``{stem}-{tag}-{key}.marshal``,
    ``tag`` this interpreter's :attr:`sys.implementation.cache_tag`) with a key as
    :func:`interpreter_key` writes it, whose version (``sys.hexversion``) is lower than this
    interpreter's, or a magic number (ending in ``0d0a``: ``\\r\\n``); the file is a regular
    file of this user, no symbolic link (none is followed). A newer interpreter's file stays (two
    interpreters of one Python sharing the folder do not remove each other's in turn). A file
    removed or replaced by another process meanwhile is harmless: a cache is made again when
    missing. Any failure is ignored."""
    import stat
    import sys

    key = interpreter_key()
    folder, name = os.path.split(path)
    tail = f"-{key}.marshal"
    if not name.endswith(tail):
        return
    tag = sys.implementation.cache_tag or "python"
    head = f"{name[: -len(tail)]}-{tag}-"  # the same cache (stem) of the same Python (tag)
    geteuid = getattr(os, "geteuid", None)
    try:
        entries = list(os.scandir(folder or "."))
    except (OSError, ValueError):
        return
    for entry in entries:
        other = entry.name
        if other == name or not other.startswith(head) or not other.endswith(".marshal"):
            continue
        parts = other[len(head) : -len(".marshal")].split("-")
        version = _hex8(parts[0])
        if version is None or len(parts) > 2 or (len(parts) == 2 and _hex8(parts[1]) is None):
            continue
        if version >= sys.hexversion and not (len(parts) == 1 and parts[0].endswith("0d0a")):
            continue  # this interpreter's version or a newer one's
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or (geteuid is not None and st.st_uid != geteuid()):
                continue
            os.unlink(entry.path)
        except (OSError, ValueError):
            continue
