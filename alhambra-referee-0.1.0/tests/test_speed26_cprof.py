"""The compiled reader's and turn loop's native calls (issue 34, twenty-fourth step).

Compiled (setup.py's MYPYC_MODULES), ``referee/notation/fast.py`` calls a memo's shape builder
(``_build``), a line record's maker (``_line_turn``, ``_line_chance``) and a group reader
(``_read_group``) as compiled functions where the object is the one they stand for; pure
Python the callers call the objects as before. These tests hold the new calls to the objects'
own answers in either build, and the reader switched to the compiled branches
(``SELF_COMPILED`` set) to the reader as it is, over simulated games; and they check that a
line handler put in ``referee/engine/run.py``'s table in place of the engine's own is the one
called (``run_game`` calls the table's objects: calling the engine's handlers natively there
was tried this step and measured no gain, so it was taken out in the review).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from typing import Any

import pytest

import referee.notation.fast as fast
from referee.engine import check_game, core
from referee.notation import parse_game_text
from referee.record import model
from referee.simulate import simulate_text

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


@pytest.fixture
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Empty memo tables (their entries put back after), every shape hot at its first use."""
    monkeypatch.setattr(fast._SETTINGS, "hot", 1)
    tables = [getattr(fast, name) for name in MEMO_TABLES]
    saved = [dict(t) for t in tables]
    for t in tables:
        t.clear()
    try:
        yield
    finally:
        for t, entries in zip(tables, saved, strict=True):
            t.clear()
            t.update(entries)


def _plain_lines(modules: tuple[str, ...] = ()) -> list[str]:
    text = simulate_text(3, 30, modules=modules)
    return [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]


@pytest.mark.usefixtures("fresh_memo")
def test_build_is_the_builders_own_answer() -> None:
    if not fast._MEMO:
        pytest.skip("no builders in this build")
    for n, line in enumerate(_plain_lines(), 1):
        fast.read_line(line, n)
        fast.read_line(line, n + 300)
    entries = [
        e
        for table in (fast._actions, fast._events, fast._turn_lines, fast._chance_lines)
        for e in table.values()
        if e is not None and e is not fast._SEEN and e[0] is not None
    ]
    assert len(entries) > 20
    for build, values, shape in entries:
        shaped = fast._shape_builder(shape)
        assert shaped is not None and build is not None
        for ln, d in ((5, 0), (901, 17)):
            want = build(ln, d, values)
            for got in (fast._build(build, ln, d, values), fast._build(shaped, ln, d, values)):
                assert type(got) is type(want) and deep(got) == deep(want)


def test_line_makers_are_the_line_records() -> None:
    Pos = model.Pos
    actions: Any = (model.TakeMoney((), Pos(7, 9)),)
    turn = fast._line_turn(12, "Ben", 5, actions, 7)
    assert deep(turn) == deep(fast._TURN_RECORD(12, "Ben", 5, actions, 7))
    assert deep(turn) == deep(
        model.Turn(12, model.PlayerRef("Ben", Pos(7, 5)), actions, Pos(7, 1), (), None)
    )
    chance = fast._line_chance(actions, 3)
    assert deep(chance) == deep(fast._CHANCE_RECORD(actions, 3))
    assert deep(chance) == deep(model.Chance(actions, Pos(3, 1), (), None))


def test_read_group_is_the_readers_answer() -> None:
    words = fast._group_words("buy Gu T9es pay Gu9", 10)
    assert words is not None
    want = fast._ACTION(words, 4)
    assert want is not None and deep(fast._read_group(fast._ACTION, words, 4)) == deep(want)
    seen: list[Any] = []

    def other(w: list[Any], ln: int) -> str:  # any other reader is called as it is
        seen.append((w, ln))
        return "other"

    assert fast._read_group(other, words, 4) == "other" and seen == [(words, 4)]
    event = fast._group_words("display Gu2 Di9 De5 Gu3", 2)
    assert event is not None and fast._EVENT(event, 9) is not None
    assert deep(fast._read_group(fast._EVENT, event, 9)) == deep(fast._EVENT(event, 9))


@pytest.mark.parametrize("modules", [(), ("wesir", "bonuskarten")], ids=["base", "modules"])
def test_the_compiled_branches_read_what_the_reader_reads(
    monkeypatch: pytest.MonkeyPatch, modules: tuple[str, ...]
) -> None:
    """The reader with its compiled branches taken (pure: ``_build`` calls the generated
    builders, ``_line_turn`` the generated makers) reads every line as it reads it now, from
    empty tables and again from the tables that first reading left."""
    lines = _plain_lines(modules)
    tables = [getattr(fast, name) for name in MEMO_TABLES]
    saved = [dict(t) for t in tables]
    try:
        monkeypatch.setattr(fast._SETTINGS, "hot", 2)
        for t in tables:
            t.clear()
        want = [deep(fast.read_line(line, n)) for n, line in enumerate(lines * 2, 1)]
        for t in tables:
            t.clear()
        monkeypatch.setattr(fast, "SELF_COMPILED", True)
        got = [deep(fast.read_line(line, n)) for n, line in enumerate(lines * 2, 1)]
        again = [deep(fast.read_line(line, n)) for n, line in enumerate(lines * 2, 1)]
    finally:
        for t, entries in zip(tables, saved, strict=True):
            t.clear()
            t.update(entries)
    assert got == want and again == want


def test_a_line_handler_put_in_place_of_the_engines_is_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = parse_game_text(simulate_text(4, 12), "<sim>", 1)
    handlers = core.line_handlers()
    before = check_game(game)
    calls: list[str] = []
    own_turn, own_chance = handlers[model.Turn], handlers[model.Chance]

    def turn(state: Any, item: Any) -> None:
        calls.append("turn")
        own_turn(state, item)

    def chance(state: Any, item: Any) -> None:
        calls.append("chance")
        own_chance(state, item)

    monkeypatch.setitem(handlers, model.Turn, turn)
    monkeypatch.setitem(handlers, model.Chance, chance)
    after = check_game(game)
    turns = sum(type(i) is model.Turn for i in game.body)
    chances = sum(type(i) is model.Chance for i in game.body)
    assert calls.count("turn") == turns > 0 and calls.count("chance") == chances > 0
    assert after.valid == before.valid and after.result == before.result
    assert [v.code for v in after.violations] == [v.code for v in before.violations]
