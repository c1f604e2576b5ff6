"""Kept idle answers read beside modules that keep none (issue 34, twelfth step).

At a turn's start or end the engine reads the kept answers (``Module.kept_idle``) of the
modules that keep one and, when they all say idle, asks only the others (``idle_at``); one no
runs the step of every module asked then (``Extensions.run_at``), as ``Extensions.at`` would
after its questions. Neues Bauland keeps its answers (in games without Dirk). Checked here:

* which modules are read and which are asked (``kept_start`` / ``ask_start``);
* the findings, results and views are those of the engine asking at every moment, also with
  the asked module answering no at every moment (its steps always run) and in games of the
  first 22 modules' mix of keepers and askers;
* Neues Bauland's kept yes is a yes of ``idle_at`` and a step that changes nothing, in
  simulated games of three and four players (with Dirk, two players, it keeps none).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from shared_store_support import simulated_many

from referee.engine import check_game
from referee.engine.extensions import Extensions
from referee.engine.turns import Moment
from referee.modules.sultan import Sultan
from referee.notation import parse_text
from tests.test_speed13_dispatch import _checked, _outcome, _read

_MIX = ("obstgaerten", "baumeister", "bauland", "sultan", "wechselgeld", "diamanten")


def _games(players: int, seed: int, modules: tuple[str, ...] = _MIX) -> list[str]:
    return simulated_many(players, seed, 2, modules)  # (once a run)


def test_kept_answers_are_read_and_the_others_asked() -> None:
    ext = Extensions(["obstgaerten", "sultan"])  # (Sultan keeps one too: thirteenth step)
    assert set(ext.kept_start or ()) == {"obstgaerten", "sultan"} and ext.ask_start == ()
    assert ext.kept_end == ("obstgaerten",) and ext.ask_end == ()
    every = Extensions(["obstgaerten", "bauland", "baumeister"])
    assert set(every.kept_start or ()) == {"obstgaerten", "bauland", "baumeister"}
    assert every.ask_start == every.ask_end == ()
    assert Extensions().ask_start == Extensions().ask_end == ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_findings_are_those_without_kept_answers(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _read(_games(players, 1400 + players))  # (read once, checked twice)
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast


def test_an_asked_no_runs_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sultan answering no at every moment: where the kept answers say idle, the step runs
    # (run_at) as it runs when the engine asks everyone (Extensions.at)
    texts = _read(_games(3, 1451))  # (made with the module as it is; read once)
    monkeypatch.setattr(Sultan, "idle_at", lambda self, state, moment: False)
    runs: Counter[Any] = Counter()
    run_at = Extensions.run_at

    def counted(self: Extensions, moment: Any, state: Any) -> None:
        runs[moment] += 1
        run_at(self, moment, state)

    monkeypatch.setattr(Extensions, "run_at", counted)
    fast = [_outcome(t) for t in texts]
    assert runs[Moment.TURN_START] > 0
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast


@pytest.mark.parametrize("players", [3, 4])
def test_bauland_keeps_a_yes_only_where_its_step_changes_nothing(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _games(players, 1460 + players, ("bauland", "sultan", "handwerker"))
    yes = _checked(monkeypatch)  # (the games made before the watch: it checks them, not their
    # simulation)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert ("bauland", str(Moment.TURN_START)) in yes, yes
    assert ("bauland", str(Moment.TURN_END)) in yes, yes


def test_with_dirk_bauland_keeps_no_answer() -> None:
    seen: list[Any] = []
    for text in _games(2, 1470, ("bauland",)):
        for game in parse_text(text):
            state = check_game(game).state
            if state is not None and "bauland" in state.modules:
                part = state.modules["bauland"]
                seen.append((part.idle_start, part.idle_end))
    assert seen and all(kept == (None, None) for kept in seen), seen
