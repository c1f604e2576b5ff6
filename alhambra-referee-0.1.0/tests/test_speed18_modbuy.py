"""Issue 34, sixteenth step: the context kept while a game's lines run, and a plain purchase
asking only the modules that can say no.

* ``GameState.context``: ``run_game`` keeps one context without a record line for the module
  calls the engine makes without one (a refinement of ``display.occupied``, a moment's step, a
  module verb's handler) and clears it at the end (the two would hold each other); a copy of
  the state starts without one; elsewhere each call gets a new context, as before.
* ``Extensions.purchase_askers``: the modules taking part in purchases less those whose answer
  to ``leaves_plain_purchase`` is their class's yes (the default, with
  ``purchases_by_components`` True); the answer of the plain purchase is the same as when
  every module taking part is asked.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.actions import purchase
from referee.engine.context import Context, kept_context
from referee.engine.extensions import Extensions, Module
from referee.modules.baumeister import Baumeister
from referee.modules.obstgaerten import Obstgaerten


@cache
def _simulated(modules: tuple[str, ...]) -> list[Any]:
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    return [
        parse_text(simulate_text(n, 8600 + n, profile, f"buy18 {n}", modules), f"b{n}.alh")[0]
        for n in (2, 4)
    ]


_MODULES = ("obstgaerten", "baumeister", "sultan", "wechselgeld", "schaetze", "diamanten")


def test_one_context_serves_the_calls_without_a_line_and_is_cleared_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = _simulated(_MODULES)  # simulated before the modules are watched
    steps: list[Any] = []
    refines: list[Any] = []
    step, refine = Obstgaerten.at_moment, Baumeister.builders_in_display

    def stepped(self: Obstgaerten, ctx: Any, moment: Any) -> None:
        if ctx.pos is None:  # (a moment the engine steps without a record line)
            steps.append(ctx)
        step(self, ctx, moment)

    def refined(self: Baumeister, ctx: Any, occupied: int, **args: Any) -> int:
        refines.append(ctx)  # (the engine's question, or a module's own context asking)
        return refine(self, ctx, occupied, **args)

    monkeypatch.setattr(Obstgaerten, "at_moment", stepped)
    monkeypatch.setattr(Baumeister, "builders_in_display", refined)
    for game in games:
        steps.clear()
        refines.clear()
        report = check_game(game)
        assert report.valid and report.complete
        assert len(steps) > 20 and len(refines) > 20
        assert {id(ctx.state) for ctx in steps + refines} == {id(report.state)}  # not a copy
        kept = steps[0]
        assert type(kept) is Context and kept.pos is None
        assert all(ctx is kept for ctx in steps)  # one context for every step without a line
        # the engine's display question (_occupied) hands it too; the others are contexts a
        # module made itself (a card of its own turned up: Baumeister, Diamanten)
        assert sum(ctx is kept for ctx in refines) > len(refines) / 2
        assert report.state.context is None  # cleared: no cycle left behind


def test_outside_run_game_each_call_gets_a_new_context_and_a_copy_starts_without_one() -> None:
    game = _simulated(_MODULES)[0]
    state = check_game(game).state
    assert state.context is None
    one, two = kept_context(state), kept_context(state)
    assert one is not two and one.state is state and two.state is state
    state.context = Context(state)
    assert kept_context(state) is state.context
    assert state.copy().context is None
    state.context = None


def test_a_plain_purchase_asks_only_the_modules_that_can_say_no() -> None:
    ext = Extensions(
        ["baumeister", "obstgaerten", "wechselgeld", "sultan", "diamanten", "schaetze"]
    )
    takers, askers = ext.purchase_takers(), ext.purchase_askers()
    default = Module.leaves_plain_purchase
    for m in takers:
        keeps = type(m).leaves_plain_purchase is default
        asked = not m.leaves_plain_purchases and (not keeps or not m.purchases_by_components)
        assert (m in askers) == asked
        if m not in askers:  # left out: its answer is always yes
            assert m.leaves_plain_purchase(None, None, 0)  # type: ignore[arg-type]
    assert [m for m in takers if m in askers] == list(askers)  # module order kept
    assert len(askers) < len(takers)


def test_a_module_keeping_the_default_with_the_flag_false_is_asked_and_says_no() -> None:
    class Refuser(Module):
        name = "refuser-18"
        purchases_by_components = False

        def on_purchase(self, ctx: Any, purchase: Any) -> None:
            return None

    ext = Extensions()
    ext.modules.append(Refuser())
    ext.modules_changed()
    assert list(ext.purchase_askers()) == ext.modules
    assert not ext.modules[0].leaves_plain_purchase(None, None, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("modules", [_MODULES, ("wechselgeld", "obstgaerten", "bauland")])
def test_the_purchases_answer_as_when_every_taker_is_asked(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _simulated(modules)
    asked: list[bool] = []
    short = purchase._modules_leave_purchases

    def both(state: Any, p: Any, idx: int) -> bool:
        got = short(state, p, idx)
        every = all(m.leaves_plain_purchase(state, p, idx) for m in state.ext.purchase_takers())
        assert got == every
        asked.append(got)
        return got

    monkeypatch.setattr(purchase, "_modules_leave_purchases", both)
    for game in games:
        report = check_game(game)
        assert report.valid and report.complete
    assert any(asked)


def test_the_context_is_cleared_when_a_line_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module (or the engine) raising while the lines run leaves no state/context cycle
    behind: ``run_game`` clears ``GameState.context`` whatever happens (seventeenth step)."""
    from referee.engine import start_state
    from referee.engine.run import run_game

    game = _simulated(_MODULES)[0]
    step = Obstgaerten.at_moment
    seen: list[Any] = []

    def failing(self: Obstgaerten, ctx: Any, moment: Any) -> None:
        seen.append(ctx.state.context)
        if len(seen) == 30:
            raise RuntimeError("a module's defect")
        step(self, ctx, moment)

    monkeypatch.setattr(Obstgaerten, "at_moment", failing)
    state = start_state(game)
    with pytest.raises(RuntimeError, match="a module's defect"):
        run_game(game, state)
    assert type(seen[-1]) is Context  # the context was kept while the lines ran
    assert state.context is None
