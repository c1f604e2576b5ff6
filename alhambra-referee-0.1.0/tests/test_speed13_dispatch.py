"""Idle answers kept as state (``Module.kept_idle``, issue 34, eleventh step).

A module may keep its ``idle_at`` answer at a turn's start or end in its part
(``idle_start`` / ``idle_end``: True, or a copy of the market at which it is idle), and the
engine's one-pass turn reads it without a call. The risk is a stale kept yes; so:

* at every moment a bundled module's kept answer says idle (read where the engine reads it),
  ``idle_at`` says yes too, and the step run on a copy of the state changes nothing -- over the
  module's example with lines left out, records with random lines dropped, and simulated
  games, alone and together with other modules (each keeps a yes somewhere);
* a wrong kept yes is caught by that check;
* the findings, views and results are those of the same games with every kept answer
  ignored (the engine asking ``idle_at`` at every moment, as before);
* the engine reads kept answers only where every module asked keeps one.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_many

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Extensions, Module
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.modules import discover
from referee.notation import parse_text
from referee.record.model import Game
from tests.purchase_onepass_support import chosen

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_ATTR = {Moment.TURN_START: "idle_start", Moment.TURN_END: "idle_end"}


# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` that these do not (coverage, one context a text, on main at 350ea36:
# bench/README.md, issue 34, eighteenth step, one-pass tests).
KEPT_YES = {
    "bauland": (0, 1, 2, 3, 7, 9, 10, 13, 14, 15, 17, 18, 19),
    "obstgaerten": (0, 1, 2, 3, 5, 9, 10, 13, 14, 17, 18),
    "baumeister": (0, 1, 4, 5, 6, 15, 16, 18, 19),
}
KEPT_FINDINGS = {
    "bauland": (1, 2, 3, 7, 9, 13, 14, 15, 17, 18, 20, 21),
    "obstgaerten": (1, 3, 9, 15, 16, 17, 19, 20),
    "baumeister": (1, 4, 5, 6, 14, 15, 18, 19, 20, 21),
}


def _keepers() -> list[str]:
    discover()
    return sorted(name for name, cls in MODULES.items() if cls.kept_idle and cls.name == name)


KEEPERS = ("bauland", "obstgaerten", "baumeister")


def test_the_keepers_are_the_ones_checked_here() -> None:
    # (Sultan: tests/test_module_sultan_kept.py; Wechselgeld: tests/test_speed21_silentw.py;
    # Ausbauten: tests/test_speed22_geo.py; Arbeiter, Wachtürme: tests/test_speed22_silenth.py;
    # Bedienstete, Menagerie, Schatzkammer, Schlüssel: tests/test_speed22_silents.py;
    # Farben: tests/test_speed22_silentt.py; Marktplatz: tests/test_speed26_silentc.py)
    elsewhere = (
        "marktplatz",
        "sultan",
        "wechselgeld",
        "ausbauten",
        "arbeiter",
        "wachtuerme",
        "bedienstete",
        "menagerie",
        "schatzkammer",
        "schluessel",
        "farben",
    )
    assert _keepers() == sorted((*KEEPERS, *elsewhere))


def _kept_yes(m: Module, state: GameState, moment: Any) -> bool:
    """Whether ``m``'s kept answer says idle, read as ``core._turn`` reads it."""
    part = state.modules.get(m.name)
    if part is None:
        return False
    q = getattr(part, _ATTR[moment])
    if type(q) is dict:  # a note per seat: idle while the mover's reserve is the one noted
        t = state.turn
        return t is not None and q.get(t.player) == state.players[t.player].reserve_version
    return q is True or q == state.market


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (
        len(state.found),
        repr(state.found[-3:]),
        repr(sorted(state.modules.items())),
        repr(state.turn),
        state.phase,
        repr(state.market),
    )


def _checked(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """The engine asks at every turn moment (no kept answer read: ``Extensions.at`` is called
    where ``core._turn`` would read them); at each, every asked module whose kept answer says
    idle must answer ``idle_at`` yes, and its step run on a copy must change nothing."""
    yes: Counter[tuple[str, str]] = Counter()
    at = Extensions.at
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())

    def checked(self: Extensions, moment: Any, state: GameState, pos: Any = None) -> None:
        if moment in _ATTR:
            for m in self._asked_at(moment):
                if moment in type(m).kept_idle and _kept_yes(m, state, moment):
                    yes[(m.name, str(moment))] += 1
                    assert m.idle_at(state, moment), (m.name, moment)
                    twin = state.copy()
                    before = _snapshot(twin)
                    m.at_moment(Context(twin, pos), moment)
                    assert _snapshot(twin) == before, (m.name, moment)
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "at", checked)
    return yes


def _texts(name: str, seed: int) -> list[str]:
    """The module's example, copies leaving one line of play out, copies with random lines
    dropped, and simulated games of the module alone."""
    text = (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(3, len(body) // 12)
    variants = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[1::step]]
    rng = random.Random(seed)
    for _ in range(4):
        drop = set(rng.sample(body, min(len(body), 3)))
        variants.append("\n".join(x for i, x in enumerate(lines) if i not in drop) + "\n")
    return variants + simulated_many(4, seed, 2, (name,))  # (once a run)


def _mixed(seed: int) -> list[str]:
    """Simulated games of the keepers with modules that change the market or add turn steps."""
    return simulated_many(3, seed, 2, (*KEEPERS, "handwerker", "wesir", "sultan"))  # once a run


def _read(texts: list[str]) -> list[list[Game]]:
    """The games of each text, read once for the checks that compare them (the records are
    frozen: a check changes none)."""
    return [parse_text(text) for text in texts]


def _outcome(text: str | list[Game]) -> list[Any]:
    """Each game's report and views (``text``: a record, or its games read once before)."""
    out: list[Any] = []
    for game in parse_text(text) if isinstance(text, str) else text:
        report = check_game(game)
        state = report.state
        views = None if state is None else repr(state.ext.views(state))
        out.append((repr(report), views))
    return out


@pytest.mark.parametrize("name", KEEPERS)
def test_a_kept_yes_means_the_step_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = chosen(_texts(name, 1300 + len(name)), KEPT_YES[name])  # (made before the watch)
    yes = _checked(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert (name, str(Moment.TURN_START)) in yes, yes
    assert (name, str(Moment.TURN_END)) in yes, yes


def test_kept_yes_of_the_keepers_together(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _mixed(1313)  # (made before the watch: it checks the games, not their simulation)
    yes = _checked(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert {module for module, _moment in yes} == {*KEEPERS, "sultan"}, yes  # (Sultan: 13th)


def test_a_wrong_kept_yes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Die Obstgärten keeping a yes at every turn's start, whatever the market holds: at a turn
    # start after a refill without its ``fruit`` line its step reports FRUIT-MISSING
    from referee.modules.obstgaerten import Obstgaerten

    texts = _texts("obstgaerten", 1331)  # (made with the module as it is)

    def always(self: Any, state: GameState, data: Any) -> None:
        data.idle_start = True

    monkeypatch.setattr(Obstgaerten, "_keep_idle_start", always)
    _checked(monkeypatch)
    with pytest.raises(AssertionError):
        for text in texts:
            for game in parse_text(text):
                check_game(game)


@pytest.mark.parametrize("name", KEEPERS)
def test_the_findings_are_those_without_kept_answers(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _read(chosen(_texts(name, 1400 + len(name)) + _mixed(1414), KEPT_FINDINGS[name]))
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast


def test_kept_answers_are_read_only_where_every_asked_module_keeps_one() -> None:
    assert Extensions().kept_start is None and Extensions().kept_end is None
    ext = Extensions(["obstgaerten"])
    assert ext.kept_start == ("obstgaerten",) and ext.kept_end == ("obstgaerten",)
    assert not ext.refill_asked
    both = Extensions(["obstgaerten", "baumeister"])
    assert both.kept_start == both.kept_end == ("baumeister", "obstgaerten") or (
        set(both.kept_start or ()) == {"baumeister", "obstgaerten"}
    )
    # Sultan answers idle_at but keeps no answer: read beside it, it is asked (twelfth step:
    # Extensions.ask_start, tests/test_speed14_dispatch.py)
    mixed = Extensions(["obstgaerten", "sultan"])
    assert set(mixed.kept_start or ()) == {"obstgaerten", "sultan"}  # (thirteenth step)
    assert mixed.kept_end == ("obstgaerten",)
    # a module acting at no turn moment: nobody to ask, nothing to read
    wesir = Extensions(["wesir"])
    assert wesir.kept_start == () or wesir.kept_start is None
