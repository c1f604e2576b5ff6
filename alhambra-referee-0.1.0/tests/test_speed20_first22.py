"""Fewer calls on module turns (issue 34, eighteenth step).

* A refill's close: ``core._turn`` asks the modules asked then itself when each of them
  answers ``idle_at`` there (``Extensions.refill_idle``), instead of calling
  ``Extensions.at``: the kept tuple is ``at``'s own question list (or empty), and the findings,
  results and views are those of the engine calling ``at`` every time, in simulated games of
  the modules asked then (Der Sultan, Das Wechselgeld) beside others.
* ``Context.report`` and a module verb's checks leave out the report of no findings: an
  empty list or tuple records nothing, an iterator of findings is still recorded.
* The modules' parts read without ``data``'s call (Wesir, Sultan, Schätze, Bonuskarten,
  Wechselscheine) are made as ``data`` makes them when missing; the building types' letters
  read from ``TYPE_LETTER`` are their values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import BuildingType
from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import Extensions
from referee.engine.findings import problem
from referee.engine.turns import Moment
from referee.modules import discover
from referee.modules.base import TYPE_LETTER
from referee.modules.schaetze import Schaetze, treasure_values
from referee.modules.sultan import Sultan
from referee.modules.wesir import Wesir
from referee.notation import parse_text
from referee.record.model import Pos
from referee.simulate import simulate_many
from tests.test_speed13_dispatch import _outcome, _read

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_MIX = ("sultan", "wechselgeld", "wesir", "obstgaerten", "schaetze", "bonuskarten", "bazare")


def _refill_idle_as_at(ext: Extensions) -> None:
    asked = ext._asked_at(Moment.REFILL_DONE) if ext.modules else ()
    if asked and ext.in_turn_flow and ext._idle[Moment.REFILL_DONE]:
        assert ext.refill_idle == asked
    else:
        assert ext.refill_idle == ()
    assert ext.refill_asked == bool(asked and ext.in_turn_flow)


def test_refill_idle_is_the_question_list_of_at() -> None:
    _refill_idle_as_at(Extensions())
    for cls in discover():
        _refill_idle_as_at(Extensions([cls.name]))
    every = Extensions([cls.name for cls in discover()])
    _refill_idle_as_at(every)
    mix = Extensions(["sultan", "wechselgeld"])
    # (Sultan is not asked at a refill's close since the twentieth step: its draws lapse by
    # GameState.refills_closed; tests/test_speed22_silentm.py)
    assert [m.name for m in mix.refill_idle] == ["wechselgeld"]


@pytest.mark.parametrize("players", [2, 4])
def test_the_findings_are_those_of_at_at_every_refill_close(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = list(simulate_many(players, 2000 + players, 2, modules=_MIX))
    texts.append((_EXAMPLES / "module-sultan.alh").read_text(encoding="utf-8"))
    games = _read(texts)  # (read once, checked twice)
    fast = [_outcome(t) for t in games]
    keep = Extensions._keep_answers
    asked: list[Any] = []
    at = Extensions.at

    def without(self: Extensions) -> None:
        keep(self)
        self.refill_idle = ()  # core._turn calls Extensions.at, as before this step

    def counted(self: Extensions, moment: Any, state: Any, pos: Any = None) -> None:
        if moment is Moment.REFILL_DONE:
            asked.append(moment)
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "_keep_answers", without)
    monkeypatch.setattr(Extensions, "at", counted)
    assert [_outcome(t) for t in games] == fast
    assert len(asked) > 20  # (the refill's close was asked through at() this time)


def _state(name: str) -> Any:
    game = parse_text((_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8"))[0]
    state = check_game(game).state
    assert state is not None
    return state


def test_context_report_of_nothing_records_nothing() -> None:
    state = _state("wesir")
    ctx = Context(state)
    before = len(state.found)
    ctx.report([])
    ctx.report(())
    assert len(state.found) == before
    found = problem("WESIR-ASLEEP", Pos(1, 1), state.players[0].name)
    ctx.report(iter([found]))  # an iterator is true: reported as before
    assert len(state.found) == before + 1


def test_parts_read_inline_are_made_when_missing() -> None:
    for name, ask in (
        ("wesir", lambda m, s, p: m.awake(s, p)),
        ("sultan", lambda m, s, p: m.held(s, p)),
        ("schaetze", lambda m, s, p: m.kept(s, p)),
    ):
        state = _state(name)
        module = next(m for m in state.ext.modules if m.name == name)
        p = state.players[0]
        state.modules.pop(module.name, None)
        got = ask(module, state, p)
        assert module.name in state.modules  # made, as data() makes it
        fresh = state.modules[module.name]
        assert module.data(state) is fresh
        if isinstance(module, Wesir):
            assert got == bool(fresh.awake.get(p.name, True))
        elif isinstance(module, Sultan):
            assert got is fresh.held[p.name]
        else:
            assert isinstance(module, Schaetze)
            assert got is fresh.kept[p.name] and got == list(treasure_values())


def test_type_letters_are_the_values() -> None:
    assert {t: t.value for t in BuildingType} == TYPE_LETTER


def test_an_interrupts_turn_is_the_keyword_one() -> None:
    from referee.engine.state import TurnState
    from referee.engine.turns import begin_interrupt

    state = _state("wesir")
    state.turn = None
    p = state.players[1]
    begin_interrupt(state, p, "wesir", Pos(7, 1))
    assert state.turn == TurnState(state.turn_no, p.index, pos=Pos(7, 1), interrupt="wesir")
    assert state.turn.pending == [] and state.turn.refused == [] and state.turn.taken == []


def test_a_known_card_taken_leaves_the_same_counter_without_zero_counts() -> None:
    from collections import Counter

    from referee.modules.base import HiddenHands

    hands = HiddenHands()
    hands.hand["Anna"] = held = Counter({"a": 1, "b": 2, "c": 0})
    assert hands.take_known("Anna", "a") and hands.hand["Anna"] is held
    assert held == Counter({"b": 2}) and list(held) == ["b"]  # (the zero counts dropped)
    assert hands.take_known("Anna", "b") and list(held.items()) == [("b", 1)]
    assert not hands.take_known("Anna", "x") and not hands.take_known("Anna", "a")
