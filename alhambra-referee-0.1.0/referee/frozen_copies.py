"""Copies and pickles of the frozen dataclasses of compiled modules (issue 34, twentieth step).

mypyc makes a dataclass of a compiled module (setup.py's ``MYPYC_MODULES``) a native class
whose ``copy``, ``deepcopy`` and ``pickle`` go through mypyc's own state methods: ``__new__``
calls the class's ``__init__`` without arguments (``TypeError`` when a field has no default)
and ``__setstate__`` sets each attribute through the class's ``__setattr__``, which a frozen
dataclass refuses (``FrozenInstanceError``: the nineteenth step's ``geometry.grid.Fountain``).
Pure Python, ``dataclass`` gives a frozen slots class state methods that pass by
``object.__setattr__``, and a frozen class with a ``__dict__`` needs none.

:func:`mend_frozen_copies`, called once at the end of such a module, gives every frozen
dataclass the module defines with mypyc's state methods (and no ``__reduce__`` of its own) a
``__reduce__`` that makes the copy by the class's constructor from its fields, which is what a
copy or an unpickled record of the pure build holds: the same class, each field equal (a deep
copy: each field deep-copied). Pure Python it finds no such class and changes nothing.
"""

from __future__ import annotations

import dataclasses

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def _remade(cls: type, values: dict[str, object]) -> object:
    """An instance of ``cls`` made by its constructor from ``values`` (what a pickle or copy of
    a mended class calls)."""
    return cls(**values)


def _reduce_by_fields(self: object) -> tuple[object, ...]:
    """``__reduce__`` of a mended class: its constructor and its ``init`` fields by name."""
    values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}  # type: ignore[arg-type]
    return (_remade, (type(self), values))


def _mypyc_state(cls: type) -> bool:
    """``cls`` pickles through mypyc's ``__setstate__`` (a C method, where a Python class has
    none of its own or ``dataclass``'s Python function)."""
    setstate = vars(cls).get("__setstate__")
    return setstate is not None and type(setstate).__name__ == "method_descriptor"


def mend_frozen_copies(namespace: Mapping[str, object]) -> None:
    """Give each frozen dataclass defined in the module of ``namespace`` (its ``globals()``)
    that mypyc compiled, and that has no ``__reduce__`` of its own, :func:`_reduce_by_fields`."""
    if str(namespace.get("__file__", "")).endswith(".py"):
        return  # the pure build: dataclass's own state methods serve
    module = namespace.get("__name__")
    for value in tuple(namespace.values()):
        if (
            isinstance(value, type)
            and value.__module__ == module
            and dataclasses.is_dataclass(value)
            and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
            and "__reduce__" not in vars(value)
            and _mypyc_state(value)
        ):
            value.__reduce__ = _reduce_by_fields  # type: ignore[method-assign]
