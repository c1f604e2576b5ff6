"""Positions round-trip (issue 32): a moment written as a ``position`` block and read back.

:func:`read_back` writes the state at a moment of a game as a position (``show --format
record``) and reads it back; :func:`snapshot` is what the two states are compared by: the
position text, the modules' views without their history, the players' scores, hands and
reserves, market, display and whether the game is over. Used by
``tests/test_position_roundtrip.py`` and ``bench/roundtrip.py``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import parse_text
from referee.record.model import Game


def headers(game: Game) -> str:
    """The headers a position needs from its game: players, rules, modules."""
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def read_back(game: Game, at: At) -> tuple[Any, Any, str, Game, list[Any]]:
    """The state at ``at``, the state its position block reads back to, the block's text,
    the game read from it and the findings of reading it."""
    state, _ = state_at(game, at)
    text = headers(game) + "\n\n" + position_text(state)
    again = parse_text(text)[0]
    if again.errors:
        return state, None, text, again, list(again.errors)
    state2, found = state_at(again, At("end"))
    return state, state2, text, again, [v for v in found if v.severity == "error"]


# what a position does not state: history (cards played, used, given, discarded, attacks
# suffered, the vizier's uses, the faces stated so far) and counts that follow from it
HISTORY = {
    "attacks",
    "used",
    "played",
    "given",
    "uses",
    "revealed",
    "faces stated",
    "discard",
    "in the deck",
    "master builders in the deck",
    "master builders out of the game",
    "in the gate tableau",  # a key tile whose bonuses are being taken: an open stage
}


def _headers(game: Any) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _strip(v)
            for k, v in value.items()
            if k not in HISTORY and not (isinstance(v, dict) and v.get("sultan cards") == "none")
        }
    if isinstance(value, str):  # the face a sultan card's mark was rolled from: history
        return re.sub(r", rolled [PSACGT]\)", ")", value)
    return value


def snapshot(state: Any) -> list[str]:
    views = _strip(json.loads(json.dumps(state.ext.views(state), default=str)))
    players = [
        f"{p.name}: score {p.score}, hand {sorted(c.code for c in p.hand.elements())} "
        f"+{p.hand_unknown}?, reserve {[str(t) for t in p.reserve]}"
        for p in state.players
    ]
    table = [
        f"market {[str(x) for x in state.market]}",
        f"display {[str(x) for x in state.display]}",
    ]
    return [
        # the block's lines, its comments aside (what it cannot state is said there)
        *(x for x in position_text(state).splitlines() if not x.lstrip().startswith("#")),
        *json.dumps(views, sort_keys=True).replace("}, ", "}\n").splitlines(),
        *players,
        *table,
        f"over {state.game_over}",
    ]
