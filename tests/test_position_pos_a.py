"""Positions of Die Gunst des Wesirs, Die Bonuskarten, Die neuen Wertungskärtchen and Die
Wünsche des Kalifen (rulebook-bigbox-de-2019.txt): a moment of ``examples/module-NAME.alh``
written as a ``position`` block (``show --format record``) and read back gives the same
position text, the same module views and the same ``score`` breakdown.

What a position states for them:

* ``vizier asleep`` in a player's section ("Sein Wesir muss wach sein"; the token starts awake);
* ``bonus G10 T12 hidden S9 ?`` in a player's section: the bonus cards lying revealed, then the
  face-down ones ("erhält jeder Spieler ... Bonuskarten, die er verdeckt auf die Hand nimmt"),
  ``?`` for a card the recorder did not see;
* ``scoringtile 2 st:SGTCAP`` outside the player sections ("3 Kärtchen werden zufällig
  gezogen", one per scoring);
* ``tasks task:1 task:6 task:9`` outside the player sections ("Anschließend werden 3 davon
  offen ... ausgelegt").

History a position cannot state and the rest of the game does not need: the earlier vizier
uses (the ``uses`` of the Wesir view).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation.formatter import format_game
from referee.scoring.position import score_position
from referee.scoring.state import score_state
from tests.test_position_modules import _breakdown, _game, _round_trip, _views

MODULES = ("wesir", "wertungskaertchen", "wuensche")
NEEDLES = {
    "wesir": "    vizier asleep",
    "bonuskarten": "    bonus ",
    "wertungskaertchen": "  scoringtile 1 st:",
    "wuensche": "  tasks task:",
}


def _own_views(state: Any) -> str:
    """The views, less the history a position does not state (the vizier's earlier uses)."""
    views = json.loads(_views(state))
    views.get("wesir", {}).get("table", {}).pop("uses", None)
    return json.dumps(views, sort_keys=True)


def _moments(game: Any) -> list[At]:
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    return [At("turn", k) for k in (1, n // 3, n // 2, (2 * n) // 3, n - 1)] + [
        At("scoring", 1),
        At("scoring", 2),
    ]


@pytest.mark.parametrize("name", MODULES)
def test_a_moment_written_as_a_position_reads_back_to_the_same_state_and_score(
    name: str,
) -> None:
    game = _game(name)
    texts = []
    for at in _moments(game):
        state, state2, text, again = _round_trip(game, at)
        texts.append(text)
        assert position_text(state2) == position_text(state), at
        assert _own_views(state2) == _own_views(state), at
        assert format_game(again) == text  # canonical: a fixed point of fmt
        assert check_game(again).violations == []
        found = score_position(again)
        assert [p.message() for p in found.problems] == [], at
        assert found.result is not None
        assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3)), at
    # the module's own line is written at some moment (not a round trip of nothing)
    assert any(NEEDLES[name] in t for t in texts), name
