"""The simulator's fast way (sixteenth step of issue 34): offers applied to the state itself, a
game replayed with trial copies when the engine refuses a line there; the purchases of a
catalogue tile kept; free actions not asked of modules without a free verb. Each writes the
records the trials write."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine import legal
from referee.engine.context import Context
from referee.profiles import load_profile
from referee.simulate import simulator
from referee.simulate.simulator import SimSettings, _Game

CASES = [
    ((), 2, 11, "queen-2003"),  # the engine's own turns
    (("baumeister", "wesir"), 2, 1000, "queen-bigbox-2019"),  # granted redesigns, the vizier
    (("charaktere",), 3, 1004, "piatnik-hu"),  # auction lines (pick_line)
    (("wachtuerme",), 4, 1002, "bga"),  # watchtowers bought, owed places
    (("wechselstuben", "bonuskarten", "plaetze"), 3, 7, "queen-2003"),  # module ways to pay
]


def _play(modules: tuple[str, ...], players: int, seed: int, profile: str, trials: bool) -> Any:
    game = _Game(SimSettings(players, load_profile(profile), modules), seed, "fast", trials)
    return game, game.play()


@pytest.mark.parametrize("case", CASES, ids=lambda c: "+".join(c[0]) or "base")
def test_the_fast_way_writes_the_records_the_trials_write(case: Any) -> None:
    _, fast = _play(*case, trials=False)
    _, tried = _play(*case, trials=True)
    assert fast == tried


def test_a_refusal_on_the_fast_way_plays_the_game_again_with_trials(monkeypatch: Any) -> None:
    """The marshal's walk after a master-builder card (the refusal of
    test_simulate_combinations): the fast way meets it, the game is played again from its
    start with trials, and the harness sees the trials' game (its refusal kept)."""
    plays: list[bool] = []
    play = _Game._play

    def counted(self: _Game) -> Any:
        plays.append(self.trials)
        return play(self)

    monkeypatch.setattr(_Game, "_play", counted)
    settings = SimSettings(3, load_profile("queen-2003"), ("arbeiter", "baumeister", "bedienstete"))
    game = _Game(settings, simulator.game_seed(7, 0), "simulated game 1 of run 7")
    record = game.play()
    assert plays == [False, True]
    assert len(game.refused) == 1 and game.refused[0].endswith(simulator._LOST)
    monkeypatch.undo()
    again = _Game(settings, simulator.game_seed(7, 0), "simulated game 1 of run 7", True)
    assert again.play() == record


def test_a_failure_on_the_fast_way_is_the_trials_failure(monkeypatch: Any) -> None:
    """Anything that fails on the fast way is asked again with trials: the error raised is the
    one the trials raise."""
    boom = RuntimeError("only with trials")

    def refusal(self: _Game, action: Any, here: Any) -> str | None:
        if self.trials:
            raise boom
        return None

    def end_turn(state: Any, here: Any) -> None:
        raise ValueError("the fast way fails")

    monkeypatch.setattr(_Game, "refusal", refusal)
    monkeypatch.setattr(simulator, "end_turn", end_turn)
    with pytest.raises(RuntimeError) as got:
        _Game(SimSettings(3), 5, "t").play()
    assert got.value is boom


def _states(modules: tuple[str, ...], seed: int) -> list[Any]:
    """Copies of the state at each main action of a simulated game."""
    seen: list[Any] = []
    real = simulator.LazyOptions.__init__

    def keep(self: Any, state: Any, sim: Any = None) -> None:
        seen.append(state.copy())
        real(self, state, sim)

    simulator.LazyOptions.__init__ = keep  # type: ignore[method-assign]
    try:
        simulator.simulate_game(3, seed, load_profile("queen-2003"), None, modules)
    finally:
        simulator.LazyOptions.__init__ = real  # type: ignore[method-assign]
    return seen


def test_kept_purchases_equal_those_made_anew() -> None:
    for modules, seed in (((), 3), (("wesir",), 4), (("handwerker",), 5)):
        for state in _states(modules, seed)[::3]:
            p = legal.mover(state)
            if p is None:
                continue
            for exact, must in ((False, None), (True, None), (False, frozenset(p.hand))):
                must_use = frozenset(c.currency for c in must) if must else None
                kept = legal.buy_actions(Context(state), p, (), exact, must_use)
                legal.forget_kept()
                fresh = legal.buy_actions(Context(state), p, (), exact, must_use)
                assert kept == fresh


def test_no_free_action_without_a_free_verb() -> None:
    """Without a module that declares a free verb, the module actions hold none of kind
    ``free``: what free_actions gave when it asked them."""
    for modules in (("wesir",), ("plaetze", "sultan")):
        assert not simulator._has_free_verbs(_states(modules, 6)[0].ext)
        for state in _states(modules, 6)[::5]:
            p = legal.mover(state)
            if p is None:
                continue
            kinds = [
                state.ext.verb_kind(a.verb)
                for a in legal.module_actions(Context(state), p)
                if hasattr(a, "verb")
            ]
            assert "free" not in kinds
            assert simulator.free_actions(state) == []
