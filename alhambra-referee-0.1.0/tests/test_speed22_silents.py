"""Silent module turns of Die Menagerie, Der Schlüssel zum Tor, Die Bediensteten and Die
Schatzkammer (issue 34, twentieth step).

Each of these modules registered for every turn's start or end (``at_moment``) without an idle
answer, so every turn built a context and ran its step, and the turn lost its one-pass paths,
though in most turns the step changes nothing: the animals lie where they lay, no key tile is
due, the servants' row is full, no chest was bought. Now each answers ``idle_at`` there; Der
Schlüssel zum Tor leaves a plain purchase to the one-pass path outside its "buy for 14" bonus
(the key tile an arcade earns is given in ``after_plain_purchase``), and Die Bediensteten's
placement refinement promises to leave a catalogue tile placed or built alone (only a swap may
put the marshal's tile away).

* every idle yes is held to a step that changes nothing (the step run on a copy of the state:
  the findings, every module's part, the turn), over the module's example with lines left out
  and simulated games of the module; each module answers yes somewhere;
* in a silent game (the module's pieces in play, no player using them: ``bench/
  silent_corpus.py``) the step runs in few turns, and Schlüssel's purchases and Bedienstete's
  placements take the one-pass paths;
* the module still acts in its example game, and the example's verdict is the same.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import PATCHES_ENGINE
from shared_store_support import simulated_many

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Extensions, Module
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.notation import parse_text
from referee.record.model import Game

ROOT = Path(__file__).resolve().parent.parent
_EXAMPLES = ROOT / "examples"
FOUR = ("menagerie", "schluessel", "bedienstete", "schatzkammer")
_TURN = (Moment.TURN_START, Moment.TURN_END)
KEEPING = ("bedienstete", "schatzkammer")  # (Menagerie, Schlüssel: kept answers None, asked)


def _texts(name: str, first: int | None = None) -> list[str]:
    """The module's example with copies leaving one line of play out, and simulated games
    (the ``first`` of them only: the games are simulated only if they are among them)."""
    text = (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(4, len(body) // 6)
    variants = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[2::step]]
    if first is not None and len(variants) >= first:
        return variants[:first]
    texts = variants + simulated_many(2, 7220 + len(name), 3, (name,))  # (once a run)
    return texts if first is None else texts[:first]


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (
        len(state.found),
        repr(state.found[-3:]),
        repr(sorted(state.modules.items())),
        repr(state.turn),
        state.phase,
    )


_KEPT = {Moment.TURN_START: "idle_start", Moment.TURN_END: "idle_end"}


def _kept_yes(m: Module, state: GameState, moment: Any) -> bool:
    """Whether ``m``'s kept answer says idle, read as ``core._turn`` reads it."""
    part = state.modules.get(m.name)
    if part is None or moment not in type(m).kept_idle:
        return False
    q = getattr(part, _KEPT[moment])
    return q is True or q == state.market


def _checked_idle(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Wrap ``Extensions.at``, asked at every moment (no kept answer read where ``core._turn``
    reads them): at each moment, every asked module answering yes, or whose kept answer says
    yes (then ``idle_at`` must say yes too), has its step run on a copy of the state, which
    must change nothing. Counts the yes answers (``kept``: the kept ones)."""
    yes: Counter[tuple[str, str]] = Counter()
    at = Extensions.at
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())

    def checked(self: Extensions, moment: Any, state: GameState, pos: Any = None) -> None:
        for m in self._asked_at(moment):
            if _kept_yes(m, state, moment):
                yes[(m.name, f"kept {moment}")] += 1
                assert m.idle_at(state, moment), (m.name, moment)
            if type(m).idle_at is not Module.idle_at and m.idle_at(state, moment):
                yes[(m.name, str(moment))] += 1
                twin = state.copy()
                before = _snapshot(twin)
                m.at_moment(Context(twin, pos), moment)
                assert _snapshot(twin) == before, (m.name, moment)
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "at", checked)
    return yes


@pytest.mark.parametrize("name", FOUR)
def test_an_idle_answer_means_the_step_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(name)  # (made before the watch: it checks the games, not their simulation)
    yes = _checked_idle(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    said = {moment for module, moment in yes if module == name}
    assert str(Moment.TURN_START) in said, yes
    if name != "bedienstete":  # (idle only at a turn's start: it has no turn's end step)
        assert str(Moment.TURN_END) in said, yes
    if name in KEEPING:  # the answers it keeps as state are read somewhere
        assert any(moment.startswith("kept") for moment in said), yes


def _outcome(text: str | list[Game]) -> list[Any]:
    """Each game's report and views (``text``: a record, or its games read once before)."""
    out: list[Any] = []
    for game in parse_text(text) if isinstance(text, str) else text:
        report = check_game(game)
        state = report.state
        views = None if state is None else repr(state.ext.views(state))
        out.append((repr(report), views))
    return out


@pytest.mark.parametrize("name", FOUR)
def test_the_findings_are_those_without_kept_answers(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [parse_text(t) for t in _texts(name, first=4)]  # (read once, checked twice)
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast


def _steps(monkeypatch: pytest.MonkeyPatch, name: str) -> Counter[str]:
    """Count the module's steps that run (``at_moment``), by moment."""
    cls = MODULES[name]
    ran: Counter[str] = Counter()
    step = cls.at_moment

    def counted(self: Any, ctx: Any, moment: Any) -> None:
        ran[str(moment)] += 1
        step(self, ctx, moment)

    monkeypatch.setattr(cls, "at_moment", counted)
    return ran


@pytest.fixture(scope="module")
def silent_games() -> dict[str, str]:
    """One silent game a module, two players (bench/silent_corpus.py's player)."""
    bench = str(ROOT / "bench")
    sys.path.insert(0, bench)
    try:
        import silent_corpus as sc
    finally:
        sys.path.remove(bench)
    out = {}
    for name in FOUR:
        row = sc.make_corpus(name, [], games=1, tries=4, players=(2,))
        assert row["source"] == "sim"
        (out[name],) = row["texts"]
    return out


@pytest.mark.parametrize("name", FOUR)
def test_a_silent_game_runs_few_turn_steps(
    name: str, silent_games: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (game,) = parse_text(silent_games[name])
    ran = _steps(monkeypatch, name)
    report = check_game(game)
    assert report.valid and not report.violations
    turns = sum(1 for line in silent_games[name].splitlines() if line[:1].isdigit())
    assert sum(ran[str(m)] for m in _TURN) * 4 < turns, (ran, turns)


def test_schluessel_purchases_take_the_one_pass_path(
    silent_games: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine.actions import purchase
    from referee.modules.schluessel import KeyScratch

    piped: Counter[str] = Counter()
    plan = purchase.plan_purchase

    def counted(*args: Any, **kw: Any) -> Any:
        piped["plan"] += 1
        return plan(*args, **kw)

    monkeypatch.setattr(purchase, "plan_purchase", counted)
    (game,) = parse_text(silent_games["schluessel"])
    report = check_game(game)
    assert report.valid
    assert piped["plan"] == 0
    # the keys the arcades earned were given all the same (the record lays them: `* key`)
    assert "* key" in silent_games["schluessel"]
    assert KeyScratch  # (the module's part, read in the example test below)


@PATCHES_ENGINE
def test_bedienstete_placements_take_the_one_pass_path(
    silent_games: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine.actions import building

    asked: list[bool] = []
    refine = building._modules_refine_here

    def counted(*args: Any) -> bool:
        got = refine(*args)
        asked.append(got)
        return got

    monkeypatch.setattr(building, "_modules_refine_here", counted)
    (game,) = parse_text(silent_games["bedienstete"])
    assert check_game(game).valid
    assert asked and not any(asked)


@pytest.mark.parametrize("name", FOUR)
def test_the_example_still_acts(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = _steps(monkeypatch, name)
    text = (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    (game,) = parse_text(text)
    report = check_game(game)
    assert report.valid and not report.violations
    # the module's turn step ran where it had something to do (Die Bediensteten's row is
    # always full there: its step before the leftovers are handed out)
    want = (Moment.LEFTOVERS_BEFORE,) if name == "bedienstete" else _TURN
    assert any(ran[str(m)] for m in want), (name, ran)
