"""Frozen dataclasses of the scoring without methods generated at run time (issue 34).

``@dataclass(frozen=True)`` writes the source text of six methods of each class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and ``exec``s each
when the class is made: for the 21 classes of ``scoring.core`` and ``scoring.categories``,
imported by the first scoring of a check, that was about 90 M instructions a process, compiled
(mypyc hands its native dataclasses to ``dataclasses`` too) and pure alike (issue 34,
twenty-first and twenty-third steps' profiles).

A class written for :func:`frozen_dataclass` is decorated ``@dataclass(init=False,
repr=False, eq=False)`` (the fields, ``fields()``, ``replace()``, ``__match_args__``: nothing is
``exec``ed) and writes its own ``__init__`` (each field set with ``object.__setattr__``, as the
generated one does; compiled, a native store). :func:`frozen_dataclass`, called once on the
class after it is made, gives it what ``@dataclass(frozen=True)`` would have generated, as
closures of plain functions of this module (this module stays Python in the compiled build:
a compiled function set on a class would not bind as a method):

- ``__repr__``: ``Name(field=value, ...)`` over the fields with ``repr=True``, ``...`` for a
  recursive reference (``dataclasses``' own guard);
- ``__eq__``: the same class and the tuples of the ``compare=True`` fields equal, else
  ``NotImplemented``; ``__hash__``: the hash of the tuple of the fields with
  ``hash=True`` (or ``hash=None`` and ``compare=True``), unless the class has its own;
- ``__setattr__``/``__delattr__``: ``FrozenInstanceError`` for the class itself or any of its
  fields' names, else ``super()``'s (the generated ones' rule);
- its ``__dataclass_params__`` say ``init``, ``repr``, ``eq`` and ``frozen``, as a frozen
  dataclass's do (a frozen dataclass may derive from it; ``frozen_copies`` mends it).

A compiled (native) class's type runs no ``__init__`` of its own when called from Python with
``init=False`` (mypyc leaves its ``tp_init`` empty): the class's ``__init__`` (its own or its
base's) is set on it again, as ``record/model.py`` does for its native records.
``tests/test_speed26_native.py`` compares every such class with a ``@dataclass(frozen=True)``
twin of the same fields: equality, hash, repr, refusals, ``fields``, ``replace``, copies.
"""

from __future__ import annotations

import dataclasses

from referee.dataclass_methods import _values, repr_and_eq

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    _C = TypeVar("_C", bound=type)


def frozen_dataclass(cls: _C) -> _C:
    """``cls`` (decorated ``@dataclass(init=False, repr=False, eq=False)``, with an
    ``__init__`` of its own) made to behave as ``@dataclass(frozen=True)`` (see the module)."""
    fields = dataclasses.fields(cls)
    klass: Any = cls
    field_names = frozenset(f.name for f in fields)
    hashed = _values(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
    FrozenInstanceError = dataclasses.FrozenInstanceError
    __repr__, __eq__ = repr_and_eq(cls)

    def __hash__(self: Any) -> int:
        return hash(hashed(self))

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is klass or name in field_names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(klass, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is klass or name in field_names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(klass, self).__delattr__(name)

    own = vars(cls)
    made: dict[str, Callable[..., Any]] = {"__repr__": __repr__, "__eq__": __eq__}
    if "__hash__" not in own:  # dataclass keeps a class's own __hash__ (eq and frozen)
        made["__hash__"] = __hash__
    for name in ("__setattr__", "__delattr__"):
        if name in own:  # what dataclass(frozen=True) refuses
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    made["__setattr__"], made["__delattr__"] = __setattr__, __delattr__
    for name, fn in made.items():
        if name in ("__repr__", "__eq__") and name in own:
            continue  # a class's own __repr__ or __eq__ stays (dataclass's rule)
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, fn)
    for base in cls.__mro__:  # a native class's type runs it only when set again (module)
        init = vars(base).get("__init__")
        if init is not None:
            setattr(cls, "__init__", init)  # noqa: B010
            break
    params: Any = getattr(cls, "__dataclass_params__")  # noqa: B009
    params.init = params.repr = params.eq = params.frozen = True
    return cls


__all__ = ["frozen_dataclass"]
