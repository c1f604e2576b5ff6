"""Expansion modules, one unit each: ``<name>.py`` (code) + ``<name>.yaml`` (component data).

Importing this package registers every bundled module with the engine
(:data:`referee.engine.extensions.MODULES`); a record's ``Modules`` header switches them on.
How to write one: ``docs/modules.md``.
"""

from referee.modules import bonuskarten, plaetze, wechselstuben, wesir

BUNDLED = (wesir.Wesir, wechselstuben.Wechselstuben, bonuskarten.Bonuskarten, plaetze.Plaetze)

__all__ = ["BUNDLED", "bonuskarten", "plaetze", "wechselstuben", "wesir"]
