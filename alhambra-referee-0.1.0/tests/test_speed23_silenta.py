"""Silent turns of Die Menagerie and Der Schlüssel zum Tor (issue 34, twenty-first step).

* Der Schlüssel zum Tor keeps both idle answers as state (``idle_start``: no key tile due;
  ``idle_end``: none due and none held), so the engine reads them without a call; Die
  Menagerie keeps its turn-start answer as a copy of the market (set where ``idle_at`` says
  yes, dropped by every step changing the fields' animals, the gardens under them or the
  supply). Every kept yes is held to ``idle_at``'s yes and to a step that changes nothing on a
  copy of the state (the module's example and a simulated game; tests/test_speed22_silents.py
  holds every kept and idle yes of the two over copies with lines left out too), and the
  findings and views are those of the same games with no kept answer read.
* In a silent game (the module's pieces in play, no player using them) Schlüssel's
  ``idle_at`` is asked in few turns, and Menagerie's turn-start question mostly not at all.
* (Die Künste der Mauren's turn end, trimmed: tests/test_speed22_geo.py holds it to a step
  that brings every player up to date at every turn's end.)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Extensions, Module
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.modules import discover
from referee.notation import parse_text
from referee.simulate import simulate_many

ROOT = Path(__file__).resolve().parent.parent
_EXAMPLES = ROOT / "examples"
_KEPT = {Moment.TURN_START: "idle_start", Moment.TURN_END: "idle_end"}
KEEPERS = ("menagerie", "schluessel")


def _example(name: str) -> str:
    return (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")


def _texts(name: str) -> list[str]:
    """The module's example and a simulated game of the module."""
    sims = list(simulate_many(3, 2361 + len(name), 1, modules=(name,)))
    return [_example(name), *sims]


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (
        len(state.found),
        repr(state.found[-3:]),
        repr(sorted(state.modules.items())),
        repr(state.turn),
        state.phase,
        repr(state.market),
    )


def _kept_yes(m: Module, state: GameState, moment: Any) -> bool:
    """Whether ``m``'s kept answer says idle, read as ``core._turn`` reads it."""
    part = state.modules.get(m.name)
    if part is None or moment not in type(m).kept_idle:
        return False
    q = getattr(part, _KEPT[moment])
    return q is True or q == state.market


def _checked(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """``Extensions.at`` asked at every turn moment (no kept answer read by the engine): at
    each, a module whose kept answer says idle must answer ``idle_at`` yes, and its step run
    on a copy must change nothing. Counts the kept yes answers."""
    yes: Counter[tuple[str, str]] = Counter()
    at = Extensions.at
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())

    def checked(self: Extensions, moment: Any, state: GameState, pos: Any = None) -> None:
        if moment in _KEPT:
            for m in self._asked_at(moment):
                if _kept_yes(m, state, moment):
                    yes[(m.name, str(moment))] += 1
                    assert m.idle_at(state, moment), (m.name, moment)
                    twin = state.copy()
                    before = _snapshot(twin)
                    m.at_moment(Context(twin, pos), moment)
                    assert _snapshot(twin) == before, (m.name, moment)
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "at", checked)
    return yes


@pytest.fixture(scope="module")
def texts() -> dict[str, list[str]]:
    return {name: _texts(name) for name in KEEPERS}


@pytest.mark.parametrize("name", KEEPERS)
def test_a_kept_yes_means_the_step_changes_nothing(
    name: str, texts: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    yes = _checked(monkeypatch)
    for text in texts[name]:
        for game in parse_text(text):
            check_game(game)
    said = {moment for module, moment in yes if module == name}
    assert str(Moment.TURN_START) in said, yes
    if name == "schluessel":
        assert str(Moment.TURN_END) in said, yes


def _outcome(text: str) -> list[Any]:
    out: list[Any] = []
    for game in parse_text(text):
        report = check_game(game)
        state = report.state
        views = None if state is None else repr(state.ext.views(state))
        out.append((repr(report), views))
    return out


@pytest.mark.parametrize("name", KEEPERS)
def test_the_findings_are_those_without_kept_answers(
    name: str, texts: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [_outcome(t) for t in texts[name]]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts[name]] == fast


@pytest.fixture(scope="module")
def silent_games() -> dict[str, str]:
    """One silent game of each keeper, two players (bench/silent_corpus.py's player)."""
    bench = str(ROOT / "bench")
    sys.path.insert(0, bench)
    try:
        import silent_corpus as sc
    finally:
        sys.path.remove(bench)
    out = {}
    for name in KEEPERS:
        row = sc.make_corpus(name, [], games=1, tries=4, players=(2,))
        assert row["source"] == "sim"
        (out[name],) = row["texts"]
    return out


@pytest.mark.parametrize("name", KEEPERS)
def test_a_silent_game_asks_idle_at_seldom(
    name: str, silent_games: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    discover()
    cls = MODULES[name]
    asked: Counter[str] = Counter()
    idle_at = cls.idle_at

    def counted(self: Any, state: GameState, moment: Any) -> bool:
        asked[str(moment)] += 1
        return idle_at(self, state, moment)

    monkeypatch.setattr(cls, "idle_at", counted)
    (game,) = parse_text(silent_games[name])
    report = check_game(game)
    assert report.valid and not report.violations
    turns = sum(1 for line in silent_games[name].splitlines() if line[:1].isdigit())
    start = asked[str(Moment.TURN_START)]
    if name == "schluessel":  # (only in turns where a key tile is held or due)
        assert (start + asked[str(Moment.TURN_END)]) * 4 < turns, (asked, turns)
    else:  # (the market as when last asked: the kept copy is read)
        assert start < turns, (asked, turns)
