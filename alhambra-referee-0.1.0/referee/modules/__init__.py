"""Expansion modules, one unit each: ``<name>.py`` or a folder ``<name>/`` (code) plus
``<name>.yaml`` (component data).

A module registers itself with the engine (:data:`referee.engine.extensions.MODULES`) when its
file is imported; a record's ``Modules`` header switches it on. The engine imports only the
modules a record names (:func:`load`: a command checking a game with one module does not pay
for the other forty); :func:`discover` (and :data:`BUNDLED`, which calls it) imports every one,
for lists, hints and unknown names. Adding a module is adding its file(s): nothing here or
anywhere else is edited.
How to write one: ``docs/modules.md``.
"""

from __future__ import annotations

import importlib
from functools import cache

from referee.modules.base import BundledModule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@cache
def discover() -> tuple[type[BundledModule], ...]:
    """Import every module of this folder (once) and return their classes in rulebook order."""
    for name in _module_names():
        if name != "base" and not name.startswith("_"):
            importlib.import_module(f"{__name__}.{name}")
    found = {  # the classes of this folder's files (an edition's rules unit, a test's is none)
        cls
        for cls in _subclasses(BundledModule)
        if cls.name and cls.__module__.startswith(f"{__name__}.")
    }
    return tuple(sorted(found, key=lambda cls: (cls.page, cls.name)))


def _module_names() -> list[str]:
    """The names of this folder's Python modules and packages, sorted: a file with a suffix
    the import system reads (``.py``, a compiled one) or a folder with an ``__init__.py``. Read
    from the folder itself; only a package not in a folder (a zip file) asks :mod:`pkgutil`,
    whose import loads :mod:`inspect` and :mod:`typing` (about 12 M instructions in a check
    naming an unknown module, whose hint lists every module)."""
    import os
    from importlib.machinery import all_suffixes

    suffixes = sorted(all_suffixes(), key=len, reverse=True)  # ".cpython-311-....so" first
    names: set[str] = set()
    for folder in __path__:
        if not os.path.isdir(folder):
            import pkgutil

            names.update(info.name for info in pkgutil.iter_modules([folder]))
            continue
        for entry in os.scandir(folder):
            name = entry.name
            if entry.is_dir():
                if os.path.isfile(os.path.join(entry.path, "__init__.py")):
                    names.add(name)
                continue
            for suffix in suffixes:
                if name.endswith(suffix):
                    names.add(name[: -len(suffix)])
                    break
    return sorted(n for n in names if n.isidentifier() and n != "__init__")


def load(name: str) -> None:
    """Import the one module whose file is named ``name`` (``wesir`` -> ``wesir.py``), when
    there is such a file; anything else (an alias, a misspelling, text that is no Python name)
    imports nothing. ``name`` comes from a record: it is only ever looked for as a module of
    this folder (a Python name without a dot: the import system searches this package's
    folder only), never used as a path."""
    if not (name.isascii() and name.isidentifier()) or name.startswith("_") or name == "base":
        return
    full = f"{__name__}.{name}"
    try:  # (the import system looks for it in this folder only: ``name`` has no dot)
        importlib.import_module(full)
    except ModuleNotFoundError as e:
        if e.name != full:  # a module that is there but imports something missing
            raise


def _subclasses(cls: type[BundledModule]) -> list[type[BundledModule]]:
    out: list[type[BundledModule]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def __getattr__(attr: str) -> Any:
    if attr == "BUNDLED":  # every bundled module class, in rulebook order (imports them all)
        return discover()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


__all__ = ["BUNDLED", "discover", "load"]
