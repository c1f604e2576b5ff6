"""A class kept a Python class in the compiled build (issue 34).

mypyc makes every class of a compiled module a *native* class unless the class carries a class
decorator other than ``dataclass``, ``final``, ``trait`` or ``mypyc_attr`` (mypyc's own rule:
such a class is built at run time as Python builds it, its methods still compiled). A native
class cannot derive from most built-in types (``TypeError``), and Python code (the bundled
modules, plug-ins, tests) may not derive from it. :func:`interpreted_class` is that decorator:
it returns the class unchanged (the pure build sees no difference at all), and it needs no
``mypy_extensions`` at run time, which is no dependency of the package.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    _C = TypeVar("_C", bound=type)


def interpreted_class(cls: _C) -> _C:
    """The class itself; compiled, it stays a Python class (see the module)."""
    return cls


__all__ = ["interpreted_class"]
