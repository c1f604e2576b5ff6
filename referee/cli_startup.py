"""Start-up of the command line: the compiled code of the record classes, kept between runs.

A ``@dataclass`` writes the source text of its ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``... and compiles it with ``exec`` when the class is created. The referee has about a
hundred such classes (the record model alone 38), and compiling their 500 methods took 90 ms of
the 240 ms a one-game ``check`` needed (measured with ``python -X importtime`` and a timer around
``dataclasses._process_class``; bench/README.md, "Start-up and reader, second pass").

:func:`install` points the ``dataclasses`` module's ``exec`` at :func:`_exec`, which looks the
source text up in a table of code objects (the table the previous run wrote) and compiles only
what is not there. The classes are the same: the code object is what ``exec`` would compile
from the same text (the text is the key, so a change in the class or in Python's
``dataclasses`` is a new entry, never a stale one). :func:`save` writes the table back when it
grew. The file lives in the user's cache folder (:func:`referee.cache.cache_dir`,
never a shared temporary folder, since it holds code), is named after the interpreter's
bytecode tag and magic number (``marshal``'s format is the interpreter's), and is replaced
atomically. It holds at most 4,000 texts: past that, only the texts this run used are written
(what other Pythons or older classes left is dropped). A missing, unreadable or damaged file,
or a folder that cannot be written (a read-only home), means: compile as before. Only the
command line installs this; ``import referee`` leaves ``dataclasses`` alone.
"""

from __future__ import annotations

import builtins
import marshal
from types import CodeType
from typing import Any

_MAX_ENTRIES = 4000  # a bound on the file (the referee's own classes need about 500)

_table: dict[str, CodeType] = {}
_used: set[str] = set()  # the texts this run looked up
_grown = False
_path: str | None = None  # the table's file (a plain string: no pathlib at start-up)


def _file() -> str | None:
    from referee.cache import marshal_file

    return marshal_file("dataclass-code")


_MAX_BYTES = 16 * 1024 * 1024  # a larger file is not read


def _load(path: str) -> dict[str, CodeType]:
    """The table in ``path``, read only when the folder and the file are the user's and
    writable by nobody else (:func:`referee.cache.read_trusted`): it holds code."""
    from referee.cache import read_trusted

    raw = read_trusted(path, _MAX_BYTES)
    if raw is None:
        return {}
    try:
        data = marshal.loads(raw)
    except (EOFError, ValueError, TypeError, MemoryError):
        return {}
    if not isinstance(data, dict):
        return {}
    # marshal makes exact types: a table of texts and code objects is taken as it is (the types
    # looked at in C); anything else is filtered entry by entry
    if set(map(type, data)) <= {str} and set(map(type, data.values())) <= {CodeType}:
        return data
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType)}


def compiled(source: str) -> CodeType:
    """The code ``exec(source)`` would compile, from the table when it holds the text.

    Also for other generated code made at import (the reader's record makers,
    ``referee.notation.fast``): without :func:`install` the table starts empty and only saves
    compiling a text twice in this process."""
    global _grown
    code = _table.get(source)
    if code is None:
        code = compile(source, "<string>", "exec")
        _table[source] = code
        _grown = True
    _used.add(source)
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` with compiled code looked up by its source text."""
    if not isinstance(source, str):
        builtins.exec(source, globals, locals)
        return
    builtins.exec(compiled(source), globals, locals)


def install() -> None:
    """Read the table and let ``dataclasses`` use it (idempotent)."""
    global _path
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        return
    _path = _file()
    if _path is not None:
        _table.update(_load(_path))
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # shadows the builtin there


def uninstall() -> None:
    """Give ``dataclasses`` its builtin ``exec`` back (tests)."""
    import dataclasses

    if getattr(dataclasses, "exec", None) is _exec:
        del dataclasses.exec  # type: ignore[attr-defined]


def save() -> None:
    """Write the table when this run compiled something new; any failure is ignored."""
    global _grown
    if not _grown or _path is None:
        return
    _grown = False
    table = _table
    if len(table) > _MAX_ENTRIES:  # old entries (another Python, changed classes): this run's
        table = {k: v for k, v in _table.items() if k in _used}
    try:
        blob = marshal.dumps(table)
    except (ValueError, MemoryError):  # pragma: no cover - code objects and texts only
        return
    from referee.cache import write_atomically

    write_atomically(_path, blob)
