"""Positions round-trip (issue 32): a moment written as a ``position`` block and read back.

:func:`read_back` writes the state at a moment of a game as a position (``show --format
record``) and reads it back; :func:`snapshot` (:mod:`referee.engine.position_compare`,
beside the position writer) is what the two states are compared by. Used by
``tests/test_position_roundtrip.py`` and ``bench/roundtrip.py``.
"""

from __future__ import annotations

from typing import Any

from referee.engine.position_compare import HISTORY, snapshot
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


def _headers(game: Any) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


__all__ = ["HISTORY", "headers", "read_back", "snapshot"]
