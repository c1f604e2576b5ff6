"""The engine's stepping API (for the dispute tools and the simulator): replay to a line or a
turn, copy a state, check or apply one action."""

from __future__ import annotations

from pathlib import Path

from referee.engine import apply_action, check_action, replay
from referee.engine.core import end_turn
from referee.notation import parse_text
from referee.record.model import Turn

GAME = Path(__file__).resolve().parent.parent / "examples" / "game-3p.alh"


def _game():
    return parse_text(GAME.read_text("utf-8"), str(GAME))[0]


def test_replay_until_turn_and_line() -> None:
    g = _game()
    state, found = replay(g, until_turn=10)
    assert found == [] and state.turn_no == 10
    line = next(it.pos.line for it in g.body if isinstance(it, Turn) and it.number == 5)
    state, _ = replay(g, until_line=line)
    assert state.turn_no == 5


def test_copy_is_independent_and_check_action_does_not_mutate() -> None:
    g = _game()
    state, _ = replay(g, until_turn=10)
    turn11 = next(it for it in g.body if isinstance(it, Turn) and it.number == 11)
    snapshot = (list(state.display), [p.hand.copy() for p in state.players], state.turn_no)
    assert check_action(state, turn11.actions[0]) == []
    assert (list(state.display), [p.hand.copy() for p in state.players], state.turn_no) == snapshot
    branch = state.copy()
    for action in turn11.actions:
        assert apply_action(branch, action) == []
    end_turn(branch, turn11.pos)
    assert branch.turn_no == 11 and state.turn_no == 10
    assert [p.hand for p in branch.players] != [p.hand for p in state.players]
