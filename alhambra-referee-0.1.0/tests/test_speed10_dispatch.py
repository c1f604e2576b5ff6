"""A module's "idle at this moment" answer (``Module.idle_at``, issue 34, eighth step).

* The contract: ``Extensions.at`` leaves a moment's step out when every module asked there
  answers that it is idle now (no context, no step, the change counter unmoved); one module
  that is busy, or that keeps the default answer (no), or whose ``idle_moments`` leave the
  moment out, makes every asked module's step run.
* The bundled answers (Baumeister, Wechselgeld, Sultan, Obstgärten, Neues Bauland): at every
  moment a module answers yes, its step run on a copy of the state changes nothing (the
  findings, every module's part of the state, the turn) -- over the module's example with
  lines left out, and simulated games of the module alone and of the five together. Each
  answers yes somewhere (the answers are not dead code).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import PATCHES_ENGINE
from shared_store_support import simulated_many

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Extensions, Module, acts_at, idle_answers
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FIVE = ("baumeister", "wechselgeld", "sultan", "obstgaerten", "bauland")


class _Sleepy(Module):
    name = "sleepy-test"
    busy = False
    reads_changes = True  # the engine keeps the change counter (asserted below)

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        ctx.state.heard.append((self.name, str(moment)))

    def idle_at(self, state: GameState, moment: Any) -> bool:
        state.asked.append(self.name)
        return not self.busy


class _Sleepy2(_Sleepy):
    name = "sleepy2-test"


class _Silent(Module):  # acts at the turn's end, keeps the default answer (never idle)
    name = "silent-test"

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        ctx.state.heard.append((self.name, str(moment)))


def _state() -> Any:
    # a state stand-in with the engine's change counter (GameState.changes)
    return SimpleNamespace(changes=0, at_next_change=None, context=None, heard=[], asked=[])


def test_default_answer_is_busy() -> None:
    assert Module().idle_at(_state(), Moment.TURN_END) is False


@PATCHES_ENGINE
def test_at_leaves_the_step_out_when_every_module_asked_is_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for cls in (_Sleepy, _Sleepy2, _Silent):
        monkeypatch.setitem(MODULES, cls.name, cls)
    ext = Extensions([_Sleepy.name, _Sleepy2.name])
    state = _state()
    ext.at(Moment.TURN_END, state)
    assert state.heard == [] and state.changes == 0
    assert state.asked == ["sleepy-test", "sleepy2-test"]
    ext.at(Moment.TURN_START, state)  # nobody asked there: no answer wanted
    assert state.asked == ["sleepy-test", "sleepy2-test"]
    # one busy module: every asked module's step runs (each step is harmless when idle)
    second = ext.modules[1]
    monkeypatch.setattr(second, "busy", True)
    state = _state()
    ext.at(Moment.TURN_END, state)
    assert state.heard == [("sleepy-test", "turn-end"), ("sleepy2-test", "turn-end")]
    assert state.changes == 1
    # a module without an answer of its own: the step runs, and nobody is asked
    ext = Extensions([_Sleepy.name, _Silent.name])
    state = _state()
    ext.at(Moment.TURN_END, state)
    assert state.asked == []
    assert state.heard == [("sleepy-test", "turn-end"), ("silent-test", "turn-end")]


class _Morning(_Sleepy):  # can be idle only at a turn's start
    name = "morning-test"
    idle_moments = frozenset({Moment.TURN_START})

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        ctx.state.heard.append((self.name, str(moment)))


@PATCHES_ENGINE
def test_idle_moments_name_where_an_answer_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (_Sleepy, _Morning):
        monkeypatch.setitem(MODULES, cls.name, cls)
    assert idle_answers(_Morning, Moment.TURN_START) and not idle_answers(_Morning, "turn-end")
    assert idle_answers(_Sleepy, Moment.TURN_END) and not idle_answers(_Silent, "turn-end")
    ext = Extensions([_Sleepy.name, _Morning.name])
    state = _state()
    ext.at(Moment.TURN_START, state)
    assert state.heard == [] and state.asked == ["morning-test"]
    # at a turn's end the morning module cannot be idle: its step and the other's run, and
    # nobody is asked
    ext.at(Moment.TURN_END, state)
    assert state.asked == ["morning-test"]
    assert state.heard == [("sleepy-test", "turn-end"), ("morning-test", "turn-end")]


def _texts(name: str) -> list[str]:
    """The module's example with copies leaving one line of play out, and simulated games."""
    text = (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(4, len(body) // 8)
    variants = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[2::step]]
    return variants + simulated_many(3, 7100 + len(name), 2, (name,))  # (once a run)


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (
        len(state.found),
        repr(state.found[-3:]),
        repr(sorted(state.modules.items())),
        repr(state.turn),
        state.phase,
    )


def _checked_idle(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Wrap ``Extensions.at``, asked at every moment (no kept answer read, no idle module asked
    by the turn loop itself: ``Extensions.at`` is called there): at each moment, every asked
    module answering yes has its step run on a copy of the state, which must change nothing.
    Counts the yes answers."""
    yes: Counter[tuple[str, str]] = Counter()
    at = Extensions.at
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())

    def checked(self: Extensions, moment: Any, state: GameState, pos: Any = None) -> None:
        for m in self._asked_at(moment):
            if type(m).idle_at is not Module.idle_at and m.idle_at(state, moment):
                yes[(m.name, str(moment))] += 1
                twin = state.copy()
                before = _snapshot(twin)
                m.at_moment(Context(twin, pos), moment)
                assert _snapshot(twin) == before, (m.name, moment)
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "at", checked)
    return yes


@pytest.mark.parametrize("name", FIVE)
def test_an_idle_answer_means_the_step_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(name)  # (made before the watch: it checks the games, not their simulation)
    yes = _checked_idle(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert any(module == name for module, _moment in yes), yes


def test_idle_answers_of_the_five_together(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = simulated_many(4, 7177, 2, FIVE)  # (made before the watch; once a run)
    yes = _checked_idle(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes


def test_a_wrong_yes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # the check above has teeth: Baumeister answering yes at every moment (at a turn's start
    # its step notes where the turn began) is caught
    from referee.modules.baumeister import Baumeister

    texts = _texts("baumeister")  # (made with the module as it is: the store keeps them)
    monkeypatch.setattr(Baumeister, "idle_at", lambda self, state, moment: True)
    _checked_idle(monkeypatch)
    with pytest.raises(AssertionError):
        for text in texts:
            for game in parse_text(text):
                check_game(game)
