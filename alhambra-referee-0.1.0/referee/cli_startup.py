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
never a shared temporary folder, since it holds code), is named after the interpreter
(:func:`referee.cache.interpreter_key`: ``marshal``'s format is the interpreter's), and is replaced
atomically. It holds at most 4,000 texts: past that, only the texts this run used are written
(what other Pythons or older classes left is dropped). A missing, unreadable or damaged file,
or a folder that cannot be written (a read-only home), means: compile as before. Only the
command line installs this; ``import referee`` leaves ``dataclasses`` alone.
"""

from __future__ import annotations

import builtins
import marshal
from types import CodeType, ModuleType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MAX_ENTRIES = 4000  # a bound on the file (the referee's own classes need about 500)

_table: dict[str, CodeType] = {}
_used: set[str] = set()  # the texts this run looked up
_grown = False
_path: str | None = None  # the table's file (a plain string: no pathlib at start-up)


def _file() -> str | None:
    from referee.cache import marshal_file

    # "-2": the texts of dataclasses compiled without postponed annotations (the first files
    # held them compiled with)
    return marshal_file("dataclass-code-2")


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


def compiled(source: str, inherit: bool = True) -> CodeType:
    """The code ``exec(source)`` would compile, from the table when it holds the text.

    Also for other generated code made at import (the reader's record makers,
    ``referee.notation.fast``): without :func:`install` the table starts empty and only saves
    compiling a text twice in this process. ``inherit``: compiled with this module's future
    imports (postponed annotations), as ``exec`` in the referee's modules compiles; False: with
    none, as ``exec`` in ``dataclasses`` compiles (:func:`_exec`)."""
    global _grown
    code = _table.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=not inherit)
        _table[source] = code
        _grown = True
    _used.add(source)
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` with compiled code looked up by its source text: compiled as ``exec`` in
    ``dataclasses`` compiles it, without this module's postponed annotations (with them, the
    ``__init__`` of a class showed its annotations as the names of ``dataclasses``' local
    variables, ``'_type_x'``, in ``inspect.signature`` and the ``__doc__`` made from it)."""
    if not isinstance(source, str):
        builtins.exec(source, globals, locals)
        return
    builtins.exec(compiled(source, inherit=False), globals, locals)


# the standard-library modules ``dataclasses`` imports at its top but uses only in rare cases:
# ``inspect`` (with ``ast``, ``dis``, ``tokenize``, ``linecache``) for the ``__doc__`` of a
# class that has none, ``copy`` (with ``weakref``) for ``asdict``/``astuple``; both together
# were 24 M instructions of a one-game check's 307 M (regular install; compiled 33 M of 269 M)
_DEFERRED = ("inspect", "copy")


class _Deferred(ModuleType):
    """The stand-in ``dataclasses`` holds for a module of :data:`_DEFERRED` until it first asks
    it for a name: then the module is imported as any import does, put in the stand-in's place
    in ``dataclasses`` and asked. Only ``dataclasses`` sees a stand-in; ``sys.modules`` never
    keeps one, so every other ``import inspect`` gets the module itself."""

    def __getattr__(self, name: str) -> Any:
        import dataclasses
        import importlib

        real = importlib.import_module(self.__name__)
        if getattr(dataclasses, self.__name__, None) is self:
            setattr(dataclasses, self.__name__, real)
        return getattr(real, name)


def _import_dataclasses() -> None:
    """Import ``dataclasses`` with stand-ins (:class:`_Deferred`) for those modules of
    :data:`_DEFERRED` that nothing has imported yet (already imported: the module itself)."""
    import sys

    if "dataclasses" in sys.modules:
        return
    modules = sys.modules
    placed = [name for name in _DEFERRED if name not in modules]
    for name in placed:
        modules[name] = _Deferred(name)
    try:
        import dataclasses  # noqa: F401 - imported here, with the stand-ins
    finally:
        for name in placed:
            if type(modules.get(name)) is _Deferred:
                del modules[name]


def install() -> None:
    """Read the table and let ``dataclasses`` use it (idempotent). ``dataclasses`` is imported
    here when nothing has imported it yet, without ``inspect`` and ``copy``
    (:func:`_import_dataclasses`)."""
    global _path
    _import_dataclasses()
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
