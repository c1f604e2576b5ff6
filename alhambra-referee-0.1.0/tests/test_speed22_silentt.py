"""Issue 34, twentieth step (helper "silentt"): silent Frische Farben and Der Marktplatz.

A module enabled in a game where nobody uses it should cost little (bench/README.md, "Issue 34,
twentieth step: silent Farben, Marktplatz ..."). Farben answers that it is idle at a turn's
start and end while no purchase is pending and every project field holds a tile (kept answers
``idle_start`` / ``idle_end``); Marktplatz at a turn's end while the mover's reserve is empty
and no building lies under his market tiles. These tests hold that the steps are left out in a
silent game, that they still run where the module acts, and that no verdict changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


@pytest.fixture(scope="module")
def silent_corpus():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    try:
        import silent_corpus as sc
    finally:
        sys.path.remove(str(BENCH))
    return sc


def _counting(monkeypatch, cls):  # type: ignore[no-untyped-def]
    """Count the moments at which ``cls.at_moment`` runs."""
    ran: list[object] = []
    step = cls.at_moment

    def counted(self, ctx, moment):  # type: ignore[no-untyped-def]
        ran.append(moment)
        return step(self, ctx, moment)

    monkeypatch.setattr(cls, "at_moment", counted)
    return ran


def _never_idle(monkeypatch, cls) -> None:  # type: ignore[no-untyped-def]
    """The module as it was before: no idle answer, nothing kept (every step runs)."""
    from referee.engine.extensions import Module

    monkeypatch.setattr(cls, "idle_at", Module.idle_at)
    monkeypatch.setattr(cls, "idle_moments", None)
    monkeypatch.setattr(cls, "kept_idle", frozenset())


def _report(text: str) -> str:
    from referee.api import check_game, parse_game

    return repr(check_game(parse_game(text)))


def _example(name: str) -> str:
    return (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")


def test_silent_farben_leaves_the_turn_start_out_and_the_turn_end_after_a_purchase_only(
    silent_corpus, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from referee.api import check_game, parse_game
    from referee.engine.turns import Moment
    from referee.modules.farben import Farben

    row = silent_corpus.make_corpus("farben", [], games=1, tries=3, players=(3,))
    (text,) = row["texts"]
    ran = _counting(monkeypatch, Farben)
    report = check_game(parse_game(text))
    assert report.valid and not report.violations and not report.unverifiable
    turns = sum(1 for line in text.splitlines() if line[:1].isdigit())
    buys = text.count(": buy ") + text.count(", buy ")
    assert Moment.TURN_START not in ran  # every field holds a tile, nothing pending
    assert 0 < ran.count(Moment.TURN_END) <= buys < turns  # only to clear a purchase's note
    ran.clear()
    _never_idle(monkeypatch, Farben)
    assert repr(check_game(parse_game(text))) == repr(report)  # the same verdict, every step run
    assert ran.count(Moment.TURN_START) == turns


@pytest.mark.parametrize("name", ["farben", "marktplatz"])
def test_the_module_example_keeps_its_verdict(name: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Where the module acts (its example game), the report is the one every step run gives."""
    from referee.modules.farben import Farben
    from referee.modules.marktplatz import Marktplatz

    cls = {"farben": Farben, "marktplatz": Marktplatz}[name]
    text = _example(name)
    ran = _counting(monkeypatch, cls)
    now = _report(text)
    assert ran  # the module's step still runs in a game that uses it
    _never_idle(monkeypatch, cls)
    assert _report(text) == now


def test_farben_reports_a_missing_project_field_at_the_next_turn_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A project field left empty (a project taken, no refill line) is still reported at the
    next turn's start: the field is no longer full, so the start is not idle."""
    from referee.api import check_game, parse_game
    from referee.modules.farben import Farben

    text = _example("farben")
    lines = text.splitlines()
    refills = [i for i, line in enumerate(lines) if line.startswith("* projects") and i > 0]
    later = [i for i in refills if any(ln[:1].isdigit() for ln in lines[:i])]
    if not later:
        pytest.skip("the example refills no project field")
    cut = "\n".join(ln for i, ln in enumerate(lines) if i != later[0]) + "\n"
    now = check_game(parse_game(cut))
    codes = [v.code for v in now.violations]
    _never_idle(monkeypatch, Farben)
    before = check_game(parse_game(cut))
    assert repr(now) == repr(before)
    assert "FARBEN-MISSING" in codes


def test_silent_marktplatz_leaves_the_turn_end_out(silent_corpus, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.api import check_game, parse_game
    from referee.engine.turns import Moment
    from referee.modules.marktplatz import Marktplatz

    row = silent_corpus.make_corpus("marktplatz", [], games=1, tries=6, players=(2,))
    (text,) = row["texts"]
    ran = _counting(monkeypatch, Marktplatz)
    report = check_game(parse_game(text))
    assert report.valid and not report.violations
    assert Moment.TURN_END not in ran  # nothing in the reserve, nothing under a market tile
    _never_idle(monkeypatch, Marktplatz)
    assert repr(check_game(parse_game(text))) == repr(report)
    assert Moment.TURN_END in ran


def test_a_kept_farben_yes_means_the_step_changes_nothing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Farben's kept answers (idle_start, idle_end) over its example, copies with lines left
    out and simulated games: at each kept yes ``idle_at`` says yes and the step run on a copy
    changes nothing (tests/test_speed13_dispatch.py's check)."""
    from referee.engine import check_game
    from referee.engine.turns import Moment
    from referee.notation import parse_text
    from tests.test_speed13_dispatch import _checked, _texts

    texts = _texts("farben", 2201)  # (made before the watch: it checks the games, not their
    # simulation)
    yes = _checked(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes[("farben", str(Moment.TURN_START))] and yes[("farben", str(Moment.TURN_END))]


def test_farben_findings_are_those_without_kept_answers(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.engine.extensions import Extensions
    from tests.test_speed13_dispatch import _outcome, _read, _texts

    texts = _read(_texts("farben", 2202))  # (read once, checked twice)
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast
