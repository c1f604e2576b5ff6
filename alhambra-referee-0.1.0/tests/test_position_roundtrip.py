"""Positions round-trip (issue 32): a moment written as a ``position`` block (``show --format
record``) and read back gives the same state, the same legal actions and the same ``score``
breakdown -- for every moment of simulated games (a property test), for the end position of
a finished game (over, no TASK-LATE), and with a negative score (a legal medina penalty).

Every module too: moments of simulated one-module games, and the turns of every module example
(``bench/roundtrip.py`` measures every moment of the examples, scorings and ends included).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import check_game
from referee.engine.legal import legal_actions
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import format_games, parse_text
from referee.notation.formatter import action as written
from referee.record.model import Game
from referee.scoring.state import score_state
from referee.simulate import simulate_game
from referee.simulate.combinations import module_names
from referee.simulate.roundtrip import read_back, snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _headers(game: Game) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def _read_back(game: Game, at: At) -> tuple[Any, Any, str]:
    state, _ = state_at(game, at)
    text = _headers(game) + "\n\n" + position_text(state)
    (again,) = parse_text(text)
    assert not again.errors, again.errors
    assert format_games([again]) == text  # canonical
    state2, found = state_at(again, At("end"))
    assert [v.code for v in found if v.severity == "error"] == [], text
    return state, state2, text


def _table(state: Any) -> Any:
    return (
        [
            (p.name, p.score, sorted(c.code for c in p.hand.elements()), p.hand_unknown)
            for p in state.players
        ],
        [str(x) for x in state.market],
        [str(x) for x in state.display],
        state.game_over,
        list(state.scorings_done),
    )


def _breakdown(state: Any) -> Any:
    result = score_state(state.copy(), 3)
    return json.dumps(result.to_dict(), sort_keys=True, default=str)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10_000),
    fraction=st.floats(min_value=0.0, max_value=1.0),
)
def test_any_moment_of_a_simulated_game_reads_back_the_same(
    players: int, seed: int, fraction: float
) -> None:
    game = simulate_game(players, seed)
    last, _ = state_at(game, At("end"))
    turn = max(1, round(fraction * last.turn_no))
    state, state2, _ = _read_back(game, At("turn", turn))
    assert position_text(state2) == position_text(state)
    assert _table(state2) == _table(state)
    assert sorted(map(written, legal_actions(state2))) == sorted(map(written, legal_actions(state)))
    assert _breakdown(state2) == _breakdown(state)


def test_the_end_position_of_a_finished_game_is_over_when_read_back() -> None:
    for name in ("game-3p.alh", "module-wuensche.alh", "module-medina.alh"):
        (game,) = parse_text((EXAMPLES / name).read_text("utf-8"))
        state, state2, text = _read_back(game, At("end"))
        assert state.game_over and state2.game_over, name
        assert "scorings 3" in text
        assert legal_actions(state2) == []  # nobody moves after the end
        assert _table(state2) == _table(state)


def test_a_negative_score_is_written_and_read_back() -> None:
    text = (
        '[Players "Anna, Ben, Cem"]\n\nposition\n  next Anna\n  scorings 1\n'
        "  market Gu:- Di:- De:- Du:-\n  display Gu1\n  player Anna\n    score -3\n"
        "  player Ben\n    score 0\n  player Cem\nend\n"
    )
    (game,) = parse_text(text)
    assert not game.errors
    state, _ = state_at(game, At("end"))
    assert state.players[0].score == -3
    assert "    score -3" in position_text(state)
    assert format_games([game]) == text


MODULES = module_names()


@settings(max_examples=22, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    module=st.sampled_from(MODULES),
    seed=st.integers(min_value=0, max_value=1_000),
    fraction=st.floats(min_value=0.0, max_value=1.0),
)
def test_any_moment_of_a_module_game_reads_back_the_same(
    module: str, seed: int, fraction: float
) -> None:
    """Every module: the same state (position text, the module's view without its history,
    hands with module cards, market, display), legal actions and score breakdown."""
    game = simulate_game(3 + seed % 3, seed, modules=(module,))
    last, _ = state_at(game, At("end"))
    at = At("turn", max(1, round(fraction * (last.turn_no - 1))))
    state, state2, text, again, errors = read_back(game, at)
    assert not again.errors and errors == [], (module, text)
    assert snapshot(state2) == snapshot(state), module
    assert sorted(map(written, legal_actions(state2))) == sorted(map(written, legal_actions(state)))
    assert _breakdown(state2) == _breakdown(state)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("module-*.alh")))
def test_the_module_examples_read_back_the_same_at_their_turns(name: str) -> None:
    (game,) = parse_text((EXAMPLES / name).read_text("utf-8"))
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    for k in sorted({1, n // 3, n // 2, (2 * n) // 3, n - 1}):
        state, state2, text, again, errors = read_back(game, At("turn", k))
        assert not again.errors and errors == [], (k, text)
        assert snapshot(state2) == snapshot(state), k


# the end position of this game breaks the walk rule when read back: the geometry modules'
# layers (gates, camps, watchtowers) are not yet taken into account where a position block's
# Alhambra is validated (open; closing note of 2026-11-28)
@pytest.mark.parametrize(
    "name",
    sorted(p.name for p in EXAMPLES.glob("*.alh") if p.name.startswith(("module-", "game-"))),
)
def test_the_end_position_of_every_example_checks_clean_when_read_back(name: str) -> None:
    """``show --format record`` at the end of a game writes a block that ``check`` reads back
    without a violation (a garden handed out at the end, workers left on an emptied field)."""
    (game,) = parse_text((EXAMPLES / name).read_text("utf-8"))
    state, _ = state_at(game, At("end"))
    (again,) = parse_text(_headers(game) + "\n\n" + position_text(state))
    assert not again.errors, again.errors
    assert [v.message() for v in check_game(again).violations] == []
