"""The engine's turn loop pays less in every module game (issue 34, twenty-first step: a silent
module <= 1.10x a base turn).

* No ``import`` statement runs inside the engine's functions while a game is checked (after
  the first game: each such statement costs about 7,900 instructions a call on CPython 3.11,
  even with its module loaded): the modules are imported at the top, or on first use and
  kept (``core._later``, ``extensions._later``, a one-item list);
* a module asked at a turn's start or end that keeps no answer there but answers
  ``idle_at`` is asked by ``core._turn`` itself (``Extensions.start_idle`` /
  ``Extensions.end_idle``), without the call of ``Extensions.at``; a no runs the step
  (``Extensions.run_at``) as ``at`` would have run it.

Held to games: a base game with Die Mauern's header checks as the base game does (the same
scores), the module's example is valid and still acts.
"""

from __future__ import annotations

import builtins
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.extensions import Extensions
from referee.engine.turns import Moment
from referee.notation import parse_text
from tests.conftest import PATCHES_ENGINE

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_ROOT = str(Path(__file__).resolve().parent.parent / "referee")


@pytest.fixture(scope="module")
def base_text() -> str:
    return (_EXAMPLES / "game-4p.alh").read_text(encoding="utf-8")


def _with(text: str, name: str) -> str:
    return text.replace("[Result ", f'[Modules "{name}"]\n[Result ', 1)


def _checked(text: str) -> Any:
    (game,) = parse_text(text)
    report = check_game(game)
    assert report.valid, [v.message() for v in report.violations]
    return report


def _scores(report: Any) -> list[int]:
    return [p.score for p in report.state.players]


@pytest.mark.parametrize("name", [None, "mauern", "sultan", "wachtuerme", "grossprojekte"])
def test_no_import_statement_runs_in_the_engine_while_a_game_is_checked(
    base_text: str, name: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = base_text if name is None else _with(base_text, name)
    _checked(text)  # the first game imports what it needs (on first use)
    (game,) = parse_text(text)
    seen: list[str] = []
    real = builtins.__import__

    def counted(*args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code
        if caller.co_filename.startswith(_ROOT):
            seen.append(f"{caller.co_filename}:{caller.co_name} {args[0]}")
        return real(*args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counted)
    report = check_game(game)
    monkeypatch.undo()
    assert report.valid
    engine = [s for s in seen if "/engine/" in s or "modules/base.py" in s or "record_limits" in s]
    assert engine == []


def test_silent_mauern_is_asked_at_a_turn_end_without_at(base_text: str) -> None:
    from referee.modules.mauern import Mauern

    ext = Extensions(["mauern"])
    assert ext.read_end is None  # Die Mauern keeps no answer at a turn's end ...
    assert [type(m) for m in ext.end_idle] == [Mauern]  # ... and answers idle_at there
    assert ext.start_idle == ()  # not asked at a turn's start
    assert Extensions([]).end_idle == () and Extensions(["sultan"]).end_idle == ()
    silent = _checked(_with(base_text, "mauern"))
    assert _scores(silent) == _scores(_checked(base_text))


@PATCHES_ENGINE
def test_the_turn_end_asks_idle_at_and_runs_the_step_on_a_no(
    base_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.modules.mauern import Mauern

    at_calls: list[Any] = []
    steps: list[Any] = []
    real_at = Extensions.at
    real_step = Mauern.at_moment

    def at(self: Extensions, moment: Any, state: Any, pos: Any = None) -> None:
        at_calls.append(moment)
        real_at(self, moment, state, pos)

    def step(self: Any, ctx: Any, moment: Any) -> None:
        steps.append(moment)
        real_step(self, ctx, moment)

    monkeypatch.setattr(Extensions, "at", at)
    monkeypatch.setattr(Mauern, "at_moment", step)
    text = _with(base_text, "mauern")
    report = _checked(text)
    turns = report.state.turn_no
    by_at = at_calls.count(Moment.TURN_END)  # (end_turn's path: a turn with a finding)
    assert by_at < turns // 2  # the turn's end asked by _turn itself ...
    assert Moment.TURN_END not in steps  # ... and idle every turn: nothing runs
    monkeypatch.setattr(Mauern, "idle_at", lambda self, state, moment: False)
    (game,) = parse_text(text)
    again = check_game(game)
    assert at_calls.count(Moment.TURN_END) == 2 * by_at  # still asked by _turn itself ...
    assert steps.count(Moment.TURN_END) == turns  # ... and the step runs at each turn's end
    assert [v.code for v in again.violations] == [v.code for v in report.violations]


def test_one_module_keeping_its_answer_is_read_without_a_loop(base_text: str) -> None:
    ext = Extensions(["wachtuerme"])
    assert ext.start_solo is not None and ext.start_solo[0] == "wachtuerme"
    assert ext.end_solo is not None and ext.end_solo[0] == "wachtuerme"
    sultan = Extensions(["sultan"])
    assert sultan.start_solo is not None and sultan.end_solo is None
    both = Extensions(["wachtuerme", "arbeiter"])  # two keep an answer at a turn's start
    assert both.start_solo is None and both.read_start is not None
    assert Extensions([]).start_solo is None
    silent = _checked(_with(base_text, "wachtuerme"))
    assert _scores(silent) == _scores(_checked(base_text))


def test_the_mauern_and_sultan_examples_still_act() -> None:
    for name, owned in (("mauern", "mauern"), ("sultan", "sultan"), ("wachtuerme", "wachtuerme")):
        report = _checked((_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8"))
        assert report.state.modules.get(owned) is not None
