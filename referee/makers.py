"""Records made without their dataclass ``__init__``, for the hot paths that make many.

A frozen dataclass's ``__init__`` sets every field with a call of ``object.__setattr__``. The
reader makes some fifteen records a turn line and a scoring dozens of result records, so both
build them with a *maker*: a function taking the same arguments as ``cls(...)`` (the defaults
and default factories included) that makes a new instance of the class and fills its fields
directly: a slots class right under ``object`` as an instance of its :func:`slots_twin` (made by
calling the twin: ``type_call`` without the argument tuple ``object.__new__`` takes, about 500
instructions less a record) filled by plain stores and then given its class; another slots
class through each slot's member descriptor; otherwise into its ``__dict__`` (in field order,
as ``copy`` and ``pickle`` fill it). The object is the same: same class, every field set,
equal to and hashed and shown as the one ``cls(...)`` makes (held by
tests/test_notation_fast.py and tests/test_scoring_makers.py). The maker's code is generated
once per class, as ``dataclasses`` makes ``__init__``, and compiled through the command line's
code table (:func:`referee.cli_startup.compiled`), so it is kept between runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields

from referee.cli_startup import compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")


_NO_VALUE = object()  # a field with a default factory that the caller left out


def slots_twin(cls: type) -> type | None:
    """A plain class with the slots of ``cls`` (a frozen slots dataclass right under
    ``object``), whose instances may take ``cls`` as their class, or None.

    Setting a slot of a frozen record through its member descriptor (``Cls.__dict__[name]
    .__set__(o, value)``) is a call through the descriptor's wrapper: about ten times the
    instructions of a plain attribute store. An instance of the twin has the same memory
    layout (same slots in the same order, no ``__dict__``, no ``__weakref__``), takes its
    values by plain stores (specialised to slot stores by the interpreter) and then its class
    is set to ``cls`` (``o.__class__ = cls``, which Python allows between types of one
    layout): the object is then exactly one ``cls(...)`` makes.

    One twin a class (:data:`_TWIN_OF`): the reader asks twice for each of its 32 record
    classes (its makers and its builders), and making a class is some 70,000 instructions."""
    if cls in _TWIN_OF:
        return _TWIN_OF[cls]
    twin: type | None = None
    slots = cls.__dict__.get("__slots__")
    bases = cls.__bases__
    if (
        (bases == (object,) or _empty_base(bases))
        and isinstance(slots, tuple)
        and "__dict__" not in slots
    ):
        # under such a base (record/model.py's _FrozenRecord) the twin derives from it too,
        # the layouts' condition, with object's own attribute setting and deleting back: both
        # (one slot of the type serves the two), else every store of the twin goes through
        # a Python-level __setattr__ call (three times a plain store's cost)
        space = {
            "__slots__": slots,
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
        }
        twin = type(f"_{cls.__name__}Twin", bases if bases != (object,) else (), space)
        try:
            probe: Any = object.__new__(twin)
            probe.__class__ = cls  # the layouts agree (else TypeError)
        except TypeError:
            twin = None
    _TWIN_OF[cls] = twin
    return twin


_TWIN_OF: dict[type, type | None] = {}  # slots_twin's answers, by class


def _empty_base(bases: tuple[type, ...]) -> bool:
    """Whether ``bases`` is one class right under ``object`` with ``__slots__`` a tuple and no
    ``__dict__`` nor ``__weakref__`` slot (record/model.py's _FrozenRecord, whose slots
    keeps a record's position), itself neither a dataclass nor with an ``__init__`` of its own (a
    twin is made by calling it with no arguments): a twin deriving from it too, with the slots of
    a class under it, has that class's layout (``probe.__class__ = cls`` below checks it)."""
    if len(bases) != 1 or bases[0].__bases__ != (object,):
        return False
    own = bases[0].__dict__
    if "__init__" in own or "__dataclass_fields__" in own:
        return False  # (a twin is called empty, ``_twin()``: no fields or __init__ of a base)
    slots = own.get("__slots__")
    return isinstance(slots, tuple) and not {"__dict__", "__weakref__"} & set(slots)


def record_maker(cls: type[_T]) -> Callable[..., _T]:
    """The maker of ``cls``, a frozen dataclass without ``__post_init__`` (see the module)."""
    assert not hasattr(cls, "__post_init__"), cls
    slots = "__slots__" in cls.__dict__
    twin = slots_twin(cls) if slots else None
    space: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_no_value": _NO_VALUE}
    space["_twin"] = twin
    params, body = [], []
    for i, f in enumerate(fields(cls)):  # type: ignore[arg-type]
        assert f.init and not f.name.startswith("_"), (cls, f.name)
        value = f.name
        if f.default is not MISSING:
            space[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        elif f.default_factory is not MISSING:
            space[f"_factory{i}"] = f.default_factory
            params.append(f"{f.name}=_no_value")
            value = f"_factory{i}() if {f.name} is _no_value else {f.name}"
        else:
            params.append(f.name)
        if twin is not None:
            body.append(f"    _o.{f.name} = {value}\n")
        elif slots:
            space[f"_set{i}"] = cls.__dict__[f.name].__set__
            body.append(f"    _set{i}(_o, {value})\n")
        else:
            body.append(f"    _d[{f.name!r}] = {value}\n")
    if twin is not None:
        head = "    _o = _twin()\n"  # a twin has neither __new__ nor __init__: called, it is empty
        body.append("    _o.__class__ = _cls\n")
    else:
        head = "    _o = _new(_cls)\n" + ("" if slots else "    _d = _o.__dict__\n")
    source = f"def make({', '.join(params)}):\n{head}{''.join(body)}    return _o\n"
    exec(compiled(source), space)
    make: Callable[..., _T] = space["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    return make
