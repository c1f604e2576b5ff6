"""The per-game answers the turn's hot paths read as attributes (issue 34, ninth step).

``Extensions`` works out, once per game, the modules that override the hooks of every turn
(``refilling_from``, ``drawing``, ``placing``, ``after_plain``) and whether a module is asked
in the turn flow (``in_turn_flow``): the same answers as ``overriding(...)`` and
``acting_at(...)``, read as attributes by the engine's one-pass paths, which leave a hook's
call out when no enabled module overrides it.

* The kept answers equal the asked ones for every bundled module alone, for all of them
  together and without modules.
* The paths that now read them still reach a module that overrides the hook: ``placed`` is
  told of every piece entering an Alhambra (the Alhambras' sizes agree with the tellings), a
  module's ``market_refill_from`` is asked at the refills, and a module acting at a turn's end
  is asked there, while one acting only at a scoring keeps the one-pass turn.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.extensions import MODULES, Extensions, Module, acts_at
from referee.engine.turns import Moment
from referee.modules import discover
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_FLOW = (Moment.REFILL_DONE, Moment.TURN_START, Moment.TURN_END)
_KEPT = {
    "refilling_from": "market_refill_from",
    "drawing": "market_draw",
    "placing": "placed",
    "after_plain": "after_plain_purchase",
}


def _bundled() -> list[str]:
    return [cls.name for cls in discover()]


def _same_answers(ext: Extensions) -> None:
    for attr, hook in _KEPT.items():
        assert getattr(ext, attr) == ext.overriding(hook), (attr, [m.name for m in ext.modules])
    assert ext.in_turn_flow == ext.acting_at(_FLOW)


def test_without_modules_every_kept_answer_is_empty() -> None:
    ext = Extensions()
    for attr in _KEPT:
        assert getattr(ext, attr) == ()
    assert ext.in_turn_flow is False
    _same_answers(ext)


@pytest.mark.parametrize("name", _bundled())
def test_kept_answers_equal_the_asked_ones_for_each_module(name: str) -> None:
    _same_answers(Extensions([name]))


def test_kept_answers_equal_the_asked_ones_for_all_modules_together() -> None:
    ext = Extensions(_bundled())
    assert len(ext.modules) > 20
    _same_answers(ext)
    # the hooks of every turn are overridden by some bundled module (not dead answers)
    assert ext.placing and ext.refilling_from and ext.after_plain and ext.in_turn_flow


def test_modules_changed_works_the_kept_answers_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MODULES, _Teller.name, _Teller)
    monkeypatch.setitem(MODULES, _AtScoring.name, _AtScoring)
    ext = Extensions([_AtScoring.name])
    assert ext.placing == () and ext.refilling_from == ()
    ext.modules[:] = [_Teller()]  # a tool swaps the module in place
    ext.modules_changed()
    assert [m.name for m in ext.placing] == [_Teller.name] == [m.name for m in ext.refilling_from]
    _same_answers(ext)
    ext.modules.clear()
    ext.modules_changed()
    assert ext.placing == () and ext.in_turn_flow is False
    _same_answers(ext)


class _Teller(Module):
    """Counts what the engine tells and asks it; changes nothing."""

    name = "teller-test"
    heard: Counter[str]
    sizes: dict[str, list[int]]

    def placed(self, ctx: Any, player: Any, at: Any, piece: Any, how: str) -> None:
        assert player.alhambra.get(at) is not None  # the piece lies there already
        self.heard[how] += 1

    def removed(self, state: Any, player: Any, at: Any, piece: Any) -> list[Any]:
        self.heard["removed"] += 1
        return []

    def market_refill_from(self, state: Any, field: int, ref: object, pos: Any) -> None:
        self.heard["refill"] += 1
        return None

    @acts_at(Moment.SETUP_DONE, Moment.GAME_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        self.sizes[str(moment)] = [len(p.alhambra) for p in ctx.state.players]


class _TurnEnd(Module):
    name = "turn-end-test"

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        _TurnEnd.ends += 1

    ends = 0


class _AtScoring(Module):
    name = "at-scoring-test"

    @acts_at(Moment.SCORING_DONE)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        _AtScoring.scorings += 1

    scorings = 0


def _with_module(path: Path, name: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert "[Modules" not in text
    return text.replace('[Rules "', f'[Modules "{name}"]\n[Rules "', 1)


def _findings(report: Any) -> list[tuple[Any, ...]]:
    # (the module header moves every later line by one)
    return [(v.code, v.turn, v.player, repr(v.params)) for v in report.violations]


@pytest.mark.parametrize("example", ["game-4p.alh", "game-3p.alh", "game-6p.alh"])
def test_a_module_overriding_the_hooks_is_told_and_asked(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(MODULES, _Teller.name, _Teller)
    heard: Counter[str] = Counter()
    sizes: dict[str, list[int]] = {}
    monkeypatch.setattr(_Teller, "heard", heard, raising=False)
    monkeypatch.setattr(_Teller, "sizes", sizes, raising=False)
    path = _EXAMPLES / example
    plain = check_game(parse_text(path.read_text(encoding="utf-8"))[0])
    told = check_game(parse_text(_with_module(path, _Teller.name))[0])
    assert _findings(told) == _findings(plain)  # the module changes nothing
    assert heard["place"] > 10 and heard["build"] > 0 and heard["refill"] > 0
    entered = heard["place"] + heard["build"] + heard["swap"] + heard["distribute"]
    # every piece that entered an Alhambra was told (and every one that left it)
    grown = sum(sizes[str(Moment.GAME_END)]) - sum(sizes[str(Moment.SETUP_DONE)])
    assert grown == entered - heard["removed"]


@pytest.mark.parametrize(
    "example", ["module-angreifer.alh", "module-baumeister.alh", "module-charaktere.alh"]
)
def test_beside_other_modules_every_placement_and_removal_is_told(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # games with redesigns (pieces removed and swapped), the teller enabled after the game's
    # own modules: Extensions.removed asks only the modules overriding it, the teller among them
    monkeypatch.setitem(MODULES, _Teller.name, _Teller)
    heard: Counter[str] = Counter()
    sizes: dict[str, list[int]] = {}
    monkeypatch.setattr(_Teller, "heard", heard, raising=False)
    monkeypatch.setattr(_Teller, "sizes", sizes, raising=False)
    text = (_EXAMPLES / example).read_text(encoding="utf-8")
    header = re.search(r'\[Modules "([^"]*)"\]', text)
    assert header is not None
    told_text = text.replace(header.group(0), f'[Modules "{header.group(1)}, {_Teller.name}"]')
    plain = check_game(parse_text(text)[0])
    told = check_game(parse_text(told_text)[0])
    assert _findings(told) == _findings(plain)
    assert heard["removed"] > 0 and heard["place"] > 10
    entered = heard["place"] + heard["build"] + heard["swap"] + heard["distribute"]
    grown = sum(sizes[str(Moment.GAME_END)]) - sum(sizes[str(Moment.SETUP_DONE)])
    assert grown == entered - heard["removed"]


def test_turn_flow_modules_are_asked_there_and_others_keep_the_one_pass_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for cls in (_TurnEnd, _AtScoring):
        monkeypatch.setitem(MODULES, cls.name, cls)
    assert Extensions([_TurnEnd.name]).in_turn_flow is True
    assert Extensions([_AtScoring.name]).in_turn_flow is False
    path = _EXAMPLES / "game-4p.alh"
    monkeypatch.setattr(_TurnEnd, "ends", 0)
    monkeypatch.setattr(_AtScoring, "scorings", 0)
    plain = check_game(parse_text(path.read_text(encoding="utf-8"))[0])
    for cls in (_TurnEnd, _AtScoring):
        report = check_game(parse_text(_with_module(path, cls.name))[0])
        assert _findings(report) == _findings(plain)
    turns = path.read_text(encoding="utf-8").count("\n", 0)  # an upper bound of the turns
    assert 50 < _TurnEnd.ends < turns
    assert _AtScoring.scorings == 3
