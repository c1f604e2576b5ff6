"""The compiled reader's makers and builders make what the generated ones make (issue 34,
tenth step).

Compiled (setup.py's MYPYC_MODULES), with the records left Python, ``referee/notation/fast.py``
makes records with :class:`fast._TwinMaker`, builds memoised groups and lines with
:class:`fast._ShapeBuilder` and the line records with ``_twin_turn``/``_twin_chance``, instead
of the generated Python makers and builders (``fast.SELF_COMPILED``). These tests run them in
either build against the generated code and the record classes themselves: same class, every
field (positions included) the same, new position objects.
"""

from __future__ import annotations

import dataclasses
import enum
import types
from collections.abc import Iterator
from typing import Any

import pytest

import referee.notation.fast as fast
from referee.record import model
from referee.simulate import simulate_text

# (self-contained: the compiled install's tests run from outside the source tree, where the
# ``tests`` package is not importable)
MODULES: tuple[tuple[str, ...], ...] = (
    (),
    ("wesir",),
    ("wechselstuben",),
    ("bonuskarten",),
    ("plaetze",),
    ("wesir", "wechselstuben", "bonuskarten", "plaetze"),
)
MEMO_TABLES = (
    "_actions",
    "_events",
    "_heads",
    "_builders",
    "_uses",
    "_turn_lines",
    "_chance_lines",
)


def deep(x: Any) -> Any:
    """Every field of a record, recursively (the records' ``==`` leaves positions out)."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, *(deep(getattr(x, f.name)) for f in dataclasses.fields(x)))
    if isinstance(x, tuple):
        return (type(x).__name__, *(deep(v) for v in x))
    if isinstance(x, frozenset):
        return ("frozenset", *sorted(repr(deep(v)) for v in x))
    if isinstance(x, enum.Enum):
        return (type(x).__name__, x.name)
    return (type(x).__name__, x)


def empty_tables(names: tuple[str, ...]) -> Iterator[None]:
    """The reader's tables emptied in place for a test, their entries put back after it."""
    tables = [getattr(fast, name) for name in names]
    saved = [dict(t) for t in tables]
    for t in tables:
        t.clear()
    try:
        yield
    finally:
        for t, entries in zip(tables, saved, strict=True):
            t.clear()
            t.update(entries)


def _positions(x: Any) -> list[Any]:
    if isinstance(x, model.Pos):
        return [x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [p for f in dataclasses.fields(x) for p in _positions(getattr(x, f.name))]
    if isinstance(x, tuple):
        return [p for v in x for p in _positions(v)]
    return []


def test_self_compiled_tells_the_build() -> None:
    compiled = not fast.__file__.endswith((".py", ".pyc"))
    assert fast.SELF_COMPILED is compiled
    assert isinstance(fast._probe, types.FunctionType) is not compiled


def test_the_readers_makers_are_the_compiled_ones_when_compiled() -> None:
    if fast.NATIVE_RECORDS:  # the native classes called themselves, the others' twin makers
        assert fast._NATIVE and model.Turn in fast._NATIVE and fast.Turn is model.Turn
        assert fast._turn_record is fast._native_turn and fast.SELF_COMPILED
        assert isinstance(fast.Deal, fast._TwinMaker)
        return
    assert not fast._NATIVE
    assert isinstance(fast.Turn, fast._TwinMaker) is fast.SELF_COMPILED
    assert (fast._turn_record is fast._twin_turn) is fast.SELF_COMPILED


def test_twin_makers_build_what_the_classes_build() -> None:
    made = native = 0
    # each class once (model.py's loop over the native classes leaves its name ``_native``)
    for cls in sorted({v for v in vars(model).values() if isinstance(v, type)}, key=repr):
        name = cls.__name__
        if (
            not (isinstance(cls, type) and dataclasses.is_dataclass(cls))
            or cls.__module__ != model.__name__
        ):
            continue
        if cls in fast._NATIVE:
            native += 1  # no twin: the reader calls the class (its native constructor)
            continue
        maker = fast._twin_maker(cls)
        assert maker is not None, name  # every other record is a slots class under object
        fields = dataclasses.fields(cls)
        values = [f"v{i}" for i in range(len(fields))]
        a, b = maker(*values), cls(*values)
        assert type(a) is cls and a == b and repr(a) == repr(b) and hash(a) == hash(b)
        assert all(getattr(a, f.name) == v for f, v in zip(fields, values, strict=True))
        required = [f for f in fields if f.default is dataclasses.MISSING]
        short = values[: len(required)]
        assert repr(maker(*short)) == repr(cls(*short))  # the defaults of the other fields
        assert all(getattr(maker(*short), f.name) is f.default for f in fields[len(required) :])
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, fields[0].name, None)
        with pytest.raises(TypeError):
            maker(*values, "one too many")
        if required:
            with pytest.raises(TypeError):
                maker(*short[:-1])
        made += 1
    assert made + native >= 30 and native == len(fast._NATIVE)


@dataclasses.dataclass(frozen=True)
class _NoSlots:
    x: int


def test_no_twin_maker_without_a_twin() -> None:
    assert fast._twin_maker(_NoSlots) is None
    assert fast._maker(_NoSlots)(4) == _NoSlots(4)  # the generated maker instead


def test_the_compiled_line_records_are_the_generated_ones() -> None:
    Pos = model.Pos
    actions = (model.TakeMoney((), Pos(7, 9)),)
    turn = model.Turn(12, model.PlayerRef("Ben", Pos(7, 5)), actions, Pos(7, 1), (), None)
    chance = model.Chance(actions, Pos(3, 1), (), None)
    turns = [fast._native_turn(12, "Ben", 5, actions, 7)]
    chances = [fast._native_chance(actions, 3)]
    if not fast.NATIVE_RECORDS:  # the twins' and the generated ones (records in Python)
        space = dict(fast._SPACE)
        exec(fast._TWIN_LINE_SOURCE, space)
        turns += [
            fast._twin_turn(12, "Ben", 5, actions, 7),
            space["turn"](12, "Ben", 5, actions, 7),
        ]
        chances += [fast._twin_chance(actions, 3), space["chance"](actions, 3)]
    for got in turns:
        assert type(got) is model.Turn and type(got.player) is model.PlayerRef
        assert deep(got) == deep(turn)
    for got in chances:
        assert type(got) is model.Chance and deep(got) == deep(chance)


@pytest.fixture
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Empty memo tables; every shape gets its builder at its first use."""
    monkeypatch.setattr(fast._SETTINGS, "hot", 1)
    yield from empty_tables(MEMO_TABLES)


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_shape_builders_build_what_the_generated_builders_build(modules: tuple[str, ...]) -> None:
    if not fast._MEMO:
        pytest.skip("native records: no builders")
    text = simulate_text(3, 40, modules=modules)
    plain = [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]
    for n, line in enumerate(plain, 1):
        fast.read_line(line, n)
        fast.read_line(line, n + 500)
    entries = [
        e
        for table in (fast._actions, fast._events, fast._turn_lines, fast._chance_lines)
        for e in table.values()
        if e is not None and e is not fast._SEEN and e[0] is not None
    ]
    assert len(entries) > 20
    for _, values, shape in entries:
        built = fast._shape_builder(shape)
        assert built is not None
        for ln, d in ((3, 0), (77, 14)):
            got = built(ln, d, values)
            # what it built has its shape and values again, read at that line and shift
            assert fast._template(got, ln, d) == (shape, values)
            if fast.NATIVE_RECORDS:  # no generated builder can fill a native record
                continue
            space = dict(fast._SPACE)
            exec(f"def build(ln, d, K):\n    {fast._source(shape)}\n", space)
            want = space["build"](ln, d, values)
            assert type(got) is type(want) and deep(got) == deep(want) and got == want
            again = built(ln, d, values)
            assert not {id(p) for p in _positions(got)} & {id(p) for p in _positions(again)}
