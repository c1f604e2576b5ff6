"""The change counter kept only where a module reads it, and the display question asked without
the refinement chain (issue 34, tenth step).

* ``GameState.changes`` (raised per action and per module step) and the steps waiting for its
  raise are kept only in a game where an enabled module declares ``Module.reads_changes``
  (``Extensions.counting``). Elsewhere the counter holds ``NOT_COUNTED``: any comparison,
  sum, hash or truth test of it raises, and so does ``wait_for_change``; so a module that
  reads the counter without declaring it fails at its first read. Every bundled module whose
  file reads the counter declares it, and every declaring module reads it.
* With a declaring module enabled, the counter moves at every action and module step, also
  beside modules that run actions of their own (``ctx.run_action``), and the findings stay
  those of the game without it.
* ``core.display_occupied`` (``core._occupied``, the engine's ``display.occupied``, asked
  before each card turned up) passes the base answer through ``Ruleset.occupied``: the same
  answer as the ruleset's chain for every display-refining module alone, for them together
  and without one.
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import pickle
import re
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar

import pytest

from referee.engine import check_game
from referee.engine.core import display_occupied, new_state
from referee.engine.extensions import MODULES, NOT_COUNTED, Extensions, Module, acts_at
from referee.engine.ruleset import Decision
from referee.engine.turns import Moment
from referee.modules import discover
from referee.modules.baumeister import DISPLAY as BAUMEISTER_DISPLAY
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_COUNTER = {"changes", "wait_for_change", "at_next_change", "before_change"}


@functools.cache  # a base class's file is asked for by every module deriving from it
def _reads_counter(path: Path) -> bool:
    """Whether a source file uses the change counter (an attribute of that name anywhere)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.Attribute) and n.attr in _COUNTER for n in ast.walk(tree))


def test_every_bundled_reader_of_the_counter_declares_it_and_only_they() -> None:
    readers = set()
    for cls in discover():
        source = inspect.getsourcefile(cls)
        assert source is not None
        # the module's own file or a file of a class it derives from (below Module)
        files = {
            Path(f)
            for k in cls.__mro__
            if k not in (Module, object) and (f := inspect.getsourcefile(k)) is not None
        }
        if any(_reads_counter(f) for f in files if "modules" in f.parts):
            readers.add(cls.name)
            assert cls.reads_changes is True, f"{cls.name} reads GameState.changes: declare it"
        else:
            assert cls.reads_changes is False, f"{cls.name} declares reads_changes, reads none"
    assert readers == {"bauland"}


def test_the_counting_answer_follows_the_declarations() -> None:
    assert Extensions().counting is False
    assert Extensions(["wesir"]).counting is False
    assert Extensions(["wesir", "diebe", "sultan"]).counting is False
    assert Extensions(["bauland"]).counting is True
    assert Extensions(["obstgaerten"]).counting is False  # its plan no longer reads it
    assert Extensions(["wesir", "bauland"]).counting is True
    every = Extensions([cls.name for cls in discover()])
    assert every.counting is True


@pytest.mark.parametrize("modules", [(), ("wesir",), ("diamanten", "baumeister")])
def test_without_a_reader_the_counter_refuses_every_use(modules: tuple[str, ...]) -> None:
    state = new_state(["A", "B", "C"], ext=Extensions(list(modules)))
    assert state.changes is NOT_COUNTED
    value = state.changes
    with pytest.raises(TypeError, match="reads_changes"):
        _ = value == 0
    with pytest.raises(TypeError, match="reads_changes"):
        _ = value < 1
    with pytest.raises(TypeError, match="reads_changes"):
        _ = value + 1
    with pytest.raises(TypeError, match="reads_changes"):
        hash(value)
    with pytest.raises(TypeError, match="reads_changes"):
        bool(value)
    with pytest.raises(TypeError, match="reads_changes"):
        state.wait_for_change(lambda s, a: None)
    # a copy of the state, a deep copy and a pickle keep the one value
    assert state.copy().changes is NOT_COUNTED
    assert copy.deepcopy(value) is NOT_COUNTED
    assert pickle.loads(pickle.dumps(value)) is NOT_COUNTED


def test_with_a_reader_the_counter_is_kept() -> None:
    state = new_state(["A", "B", "C"], ext=Extensions(["wesir", "bauland"]))
    assert state.changes == 0
    heard: list[Any] = []
    state.wait_for_change(lambda s, a: heard.append(a))
    assert state.at_next_change is not None


class _Reader(Module):
    """Reads the change counter at every turn's start and end (declared)."""

    name = "counter-reader-test"
    reads_changes = True
    seen: ClassVar[list[tuple[str, int]]] = []

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        _Reader.seen.append((str(moment), ctx.state.changes))


class _Undeclared(Module):
    """Reads the change counter at every turn's end without declaring it."""

    name = "counter-undeclared-test"

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        _Undeclared.seen.append(ctx.state.changes + 0)

    seen: ClassVar[list[int]] = []


def _with_module(path: Path, name: str) -> str:
    text = path.read_text(encoding="utf-8")
    header = re.search(r'\[Modules "([^"]*)"\]', text)
    if header is None:
        return text.replace('[Rules "', f'[Modules "{name}"]\n[Rules "', 1)
    return text.replace(header.group(0), f'[Modules "{header.group(1)}, {name}"]')


def _findings(report: Any) -> list[tuple[Any, ...]]:
    # (the module header may move every later line by one)
    return [(v.code, v.turn, v.player, repr(v.params)) for v in report.violations]


def test_a_module_reading_the_counter_undeclared_fails_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(MODULES, _Undeclared.name, _Undeclared)
    monkeypatch.setattr(_Undeclared, "seen", [])
    text = _with_module(_EXAMPLES / "game-4p.alh", _Undeclared.name)
    with pytest.raises(TypeError, match="reads_changes"):
        check_game(parse_text(text)[0])
    assert _Undeclared.seen == []


@pytest.mark.parametrize(
    "example",
    [
        "game-4p.alh",
        "module-wesir.alh",
        "module-diebe.alh",
        "module-sultan.alh",
        "module-bauland.alh",
        "module-obstgaerten.alh",
    ],
)
def test_beside_a_declaring_module_the_counter_moves_at_every_step(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the modules of the example (some run actions of their own through ctx.run_action) and a
    # module that reads the counter: it is kept, it moves at each turn (its own steps and the
    # turn line's actions), and the findings are those of the game without the reader
    monkeypatch.setitem(MODULES, _Reader.name, _Reader)
    seen: ClassVar[list[tuple[str, int]]] = []
    monkeypatch.setattr(_Reader, "seen", seen)
    path = _EXAMPLES / example
    plain = check_game(parse_text(path.read_text(encoding="utf-8"))[0])
    read = check_game(parse_text(_with_module(path, _Reader.name))[0])
    assert _findings(read) == _findings(plain)
    assert len(seen) > 40
    counts = [n for _moment, n in seen]
    assert all(type(n) is int for n in counts)
    assert counts == sorted(set(counts))  # every step asked raised it
    # a turn's end is at least two raises after its start (the turn line's action and the
    # end's own step); the engine raises it once per action, so a turn of several actions
    # moves it further
    gaps = [
        later[1] - earlier[1]
        for earlier, later in pairwise(seen)
        if earlier[0] == str(Moment.TURN_START) and later[0] == str(Moment.TURN_END)
    ]
    assert gaps and min(gaps) >= 2 and max(gaps) >= 3


_DISPLAY_REFINERS = ("baumeister", "diamanten", "wechselstuben")


@pytest.mark.parametrize(
    "modules",
    [
        (),
        ("wesir",),
        ("baumeister",),
        ("diamanten",),
        ("wechselstuben",),
        ("baumeister", "diamanten"),
        _DISPLAY_REFINERS,
        ("wechselstuben", "wesir", "baumeister"),
    ],
)
def test_the_engines_display_question_answers_as_the_chain(modules: tuple[str, ...]) -> None:
    from referee.engine.context import Context

    ext = Extensions(list(modules))
    state = new_state(["A", "B", "C"], ext=ext)
    rules = state.rules
    refining = [m for m in modules if m in _DISPLAY_REFINERS]
    assert len(rules.occupied) == len(refining)
    assert rules.refined_by(Decision.DISPLAY_OCCUPIED) == [
        m.name for m in rules.modules if m.name in refining
    ]
    # each refining module's part holding pieces in the display (its refinement's own read)
    for m in ext.modules:
        if m.name == "baumeister":  # two master-builder cards known in the display
            m.data(state).cards.held(BAUMEISTER_DISPLAY)["builder"] += 2
        elif m.name in ("diamanten", "wechselstuben"):
            m.data(state).display.extend([None, None, None][: 1 + len(m.name) % 2])
    for display in ([], [None], [None, None, None]):
        state.display[:] = display
        chained = rules.answer[Decision.DISPLAY_OCCUPIED](Context(state))
        assert display_occupied(state) == chained
        if refining:
            assert chained > len(display)
        else:
            assert chained == len(display)
