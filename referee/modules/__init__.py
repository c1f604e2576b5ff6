"""Expansion modules, one unit each: ``<name>.py`` or a folder ``<name>/`` (code) plus
``<name>.yaml`` (component data).

Importing this package imports every module of this folder, which registers it with the engine
(:data:`referee.engine.extensions.MODULES`); a record's ``Modules`` header switches them on.
Adding a module is adding its file(s): nothing here or anywhere else is edited.
How to write one: ``docs/modules.md``.
"""

from __future__ import annotations

import importlib
import pkgutil

from referee.modules.base import BundledModule


def _discover() -> tuple[type[BundledModule], ...]:
    for info in pkgutil.iter_modules(__path__):
        if info.name != "base" and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    found = {  # an edition's rules unit (referee/editions/) is no module
        cls
        for cls in _subclasses(BundledModule)
        if cls.name and not cls.__module__.startswith("referee.editions")
    }
    return tuple(sorted(found, key=lambda cls: (cls.page, cls.name)))


def _subclasses(cls: type[BundledModule]) -> list[type[BundledModule]]:
    out: list[type[BundledModule]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


BUNDLED: tuple[type[BundledModule], ...] = _discover()
"""Every bundled module class, in rulebook order."""

__all__ = ["BUNDLED"]
