"""alhambra-referee: game-record notation, rules referee and scorer for Alhambra.

The public API (see ``docs/api.md``)::

    import referee
    game = referee.read_games("examples/game-4p.alh")[0]
    report = referee.check_game(game)
    for step in referee.walk(game): ...
    state, _ = referee.state_at(game, referee.At("turn", 12))
    referee.legal_actions(state)

Names are loaded on first use, so ``import referee`` stays cheap for the command line.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


__version__ = "0.1.0"

_API = (
    "DEFAULT_PROFILE",
    "ActionSyntaxError",
    "At",
    "Game",
    "GameReport",
    "GameState",
    "NotReached",
    "NotationError",
    "RuleProfile",
    "Step",
    "Unverifiable",
    "Violation",
    "apply_action",
    "check_action",
    "check_game",
    "format_action",
    "format_game",
    "format_games",
    "iter_games",
    "legal_actions",
    "load_profile",
    "parse_action",
    "parse_game",
    "parse_text",
    "positions",
    "read_game",
    "read_games",
    "read_headers",
    "score_position",
    "score_state",
    "state_at",
    "walk",
)

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        from referee import api

        return getattr(api, name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
