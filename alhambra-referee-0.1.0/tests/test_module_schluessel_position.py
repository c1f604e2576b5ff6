"""Positions of Der Schlüssel zum Tor: a moment of the module's example game written as a
``position`` block (``show --format record``) and read back gives the same table, the same
module views and the same ``score`` breakdown (the key tiles laid, those held face down, the
bonus points not scored yet, the half buildings taken)."""

from __future__ import annotations

import pytest

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.notation.formatter import format_game
from referee.scoring.position import score_position
from referee.scoring.state import score_state
from tests.test_position_modules import _breakdown, _game, _round_trip, _views
from tests.test_position_pos_b import MOMENTS
from tests.test_position_pos_b import _at as _moment

NAME = "schluessel"


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_moment_of_the_key_game_round_trips(moment: str) -> None:
    game = _game(NAME)
    state, state2, text, again = _round_trip(game, _moment(NAME, moment))
    assert position_text(state2) == position_text(state)
    assert _views(state2) == _views(state)
    assert format_game(again) == text
    assert check_game(again).violations == []
    found = score_position(again)
    assert not found.problems, [p.message() for p in found.problems]
    assert found.result is not None
    assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3))


def test_some_moment_states_the_keys() -> None:
    game = _game(NAME)
    texts = [_round_trip(game, _moment(NAME, m))[2] for m in MOMENTS]
    assert any("  key laid " in t for t in texts)
    assert any("    key halves " in t for t in texts)
