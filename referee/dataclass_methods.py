"""Dataclasses (not frozen) without methods generated at run time (issue 34, twenty-fifth step).

``@dataclass`` writes the source text of ``__init__``, ``__repr__`` and ``__eq__`` of each
class and ``exec``s each when the class is made; mypyc hands the dataclasses of a compiled
module to ``dataclasses`` too (``CPyDataclass_SleightOfHand``), so the compiled build pays the
same at import although its ``__init__`` is native code. The seven plan classes of the lazily
imported ``engine.actions`` modules were a share of a first pass's one-time cost (issue 34,
twenty-fourth step's profiles). :mod:`referee.scoring.frozen` does the same for the scoring's
frozen classes.

A class written for :func:`plain_dataclass` is decorated ``@dataclass(init=False,
repr=False, eq=False)`` (the fields, ``fields()``, ``replace()``, ``__match_args__``; nothing
is ``exec``ed) and writes its own ``__init__`` (each field set as the generated one sets it,
a ``default_factory`` field made anew when no value is given, an ``init=False`` field set to
its default). :func:`plain_dataclass`, called once on the class after it is made, gives it
what ``@dataclass`` (``eq=True``, not frozen) would have generated, as closures of plain
functions of this module (this module stays Python in the compiled build: a compiled function
set on a class would not bind as a method):

- ``__repr__``: ``Name(field=value, ...)`` over the fields with ``repr=True``, ``...`` for a
  recursive reference (``dataclasses``' own guard);
- ``__eq__``: the same class and the tuples of the ``compare=True`` fields equal, else
  ``NotImplemented``;
- ``__hash__`` None (a mutable dataclass with ``eq``: unhashable), unless the class has its
  own;
- its ``__dataclass_params__`` say ``init``, ``repr`` and ``eq``, as a plain dataclass's do.

A class's own ``__repr__`` or ``__eq__`` stays (``dataclass``'s rule). A compiled (native)
class's type runs no ``__init__`` of its own when called from Python with ``init=False``
(mypyc leaves its ``tp_init`` empty): the class's ``__init__`` is set on it again, as
``record/model.py`` and ``scoring/frozen.py`` do; then mypyc's own state methods would call it
without arguments, so such a class copies and pickles through its constructor from its
``init`` fields (``referee/frozen_copies.py``'s way; a field with ``init=False`` starts at its
default in the copy). ``tests/test_speed27_cturn.py`` compares
every such class with a ``@dataclass`` twin of the same fields.
"""

from __future__ import annotations

import dataclasses
from _thread import get_ident
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    _C = TypeVar("_C", bound=type)


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an object's attributes ``names`` (``(self.a, self.b,)``)."""
    if not names:
        return lambda obj: ()
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda obj: (get(obj),)
    return get


def repr_and_eq(cls: type) -> tuple[Callable[..., str], Callable[..., Any]]:
    """The ``__repr__`` and ``__eq__`` ``@dataclass`` would give ``cls`` (its fields with
    ``repr=True``, ``dataclasses``' own recursion guard ``...``; the same class and the tuples
    of the ``compare=True`` fields, else ``NotImplemented``): for :func:`plain_dataclass` and
    ``scoring/frozen.py``'s ``frozen_dataclass``."""
    fields = dataclasses.fields(cls)
    shown = tuple(f.name for f in fields if f.repr)
    compared = _values(tuple(f.name for f in fields if f.compare))
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join([f"{name}={getattr(self, name)!r}" for name in shown])
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({inner})"

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    return __repr__, __eq__


def plain_dataclass(cls: _C) -> _C:
    """``cls`` (decorated ``@dataclass(init=False, repr=False, eq=False)``, with an
    ``__init__`` of its own) made to behave as ``@dataclass`` (see the module)."""
    __repr__, __eq__ = repr_and_eq(cls)
    own = vars(cls)
    for name, fn in (("__repr__", __repr__), ("__eq__", __eq__)):
        if name in own:
            continue  # a class's own __repr__ or __eq__ stays (dataclass's rule)
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, fn)
    if own.get("__hash__") is None:  # eq without frozen: unhashable, as dataclass sets it
        setattr(cls, "__hash__", None)  # noqa: B010
    for base in cls.__mro__:  # a native class's type runs it only when set again (module)
        init = vars(base).get("__init__")
        if init is not None:
            setattr(cls, "__init__", init)  # noqa: B010
            break
    setstate = vars(cls).get("__setstate__")
    if setstate is not None and type(setstate).__name__ == "method_descriptor":
        # compiled: mypyc's state methods make a copy through ``__new__``, which runs the
        # class's ``__init__`` (set again above) without arguments; a copy or a pickle is made
        # by the constructor from the ``init`` fields instead (referee/frozen_copies.py's way)
        setattr(cls, "__reduce__", _reduce_by_fields)  # noqa: B010
    params: Any = getattr(cls, "__dataclass_params__")  # noqa: B009
    params.init = params.repr = params.eq = True
    return cls


def _remade(cls: type, values: dict[str, object]) -> object:
    """An instance of ``cls`` made by its constructor from ``values`` (a copy, an unpickling)."""
    return cls(**values)


def _reduce_by_fields(self: Any) -> tuple[object, ...]:
    """``__reduce__`` of a compiled class: its constructor and its ``init`` fields by name."""
    values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
    return (_remade, (type(self), values))


__all__ = ["plain_dataclass"]
