"""The public Python API: what a club's script needs, re-exported from :mod:`referee`.

Read records from files (``read_game``, ``read_games``, ``iter_games``, ``read_headers``) or
from text (``parse_game``, ``parse_text``), walk a game's
positions (``walk``, ``state_at``, ``At``), check a whole game or one action (``check_game``,
``check_action``, ``parse_action``), list the legal actions (``legal_actions``), score a
position (``score_position``, ``score_state``), write records (``format_game``,
``format_action``) and choose rules (``load_profile``). ``docs/api.md`` shows each with a run
example (a test runs them). The command line (``alhambra-referee``) is a layer over these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from referee.engine import GameReport
from referee.engine import check_game as engine_check_game
from referee.engine.core import apply_action
from referee.engine.core import check_action as check_action_node
from referee.engine.rules import Unverifiable, Violation
from referee.engine.state import GameState
from referee.engine.walk import At, NotReached, Step, state_at, walk
from referee.notation import format_game, format_games, iter_games, parse_text, read_headers
from referee.profiles import DEFAULT_PROFILE, RuleProfile, load_profile
from referee.record.model import Action, Game, NotationError, Turn

# Kept equal to referee._API (the lazily loaded names of ``import referee``; a test checks it).
__all__ = [
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
]


class ActionSyntaxError(ValueError):
    """An action text that is not one turn line of the notation; ``errors`` holds the
    :class:`~referee.record.model.NotationError` items (with line and column)."""

    def __init__(self, text: str, errors: list[NotationError]) -> None:
        detail = "; ".join(f"{e.pos.line}:{e.pos.column}: {e.message}" for e in errors)
        super().__init__(f"not an action: {text!r}" + (f" ({detail})" if detail else ""))
        self.text = text
        self.errors = errors


def read_games(source: str | Path | IO[str]) -> list[Game]:
    """Every game of a record file (a path) or an open text stream. For large files use
    :func:`iter_games`, which holds one game at a time; for a record's text use
    :func:`parse_text`."""
    _not_text(source, "read_games", "parse_text")
    return list(iter_games(source))


def read_game(source: str | Path | IO[str]) -> Game:
    """The single game of a record file (a path) or an open text stream, as
    :func:`read_games` reads it (raises ``ValueError`` when there is not exactly one game);
    for a record's text use :func:`parse_game`."""
    _not_text(source, "read_game", "parse_game")
    games = read_games(source)
    if len(games) != 1:
        raise ValueError(f"{_name(source)}: {len(games)} games found, one expected")
    return games[0]


def parse_game(text: str, source: str = "<text>") -> Game:
    """The single game of a record's text (raises ``ValueError`` when there is not exactly
    one); :func:`parse_text` gives every game of a text."""
    games = parse_text(text, source)
    if len(games) != 1:
        raise ValueError(f"{source}: {len(games)} games found, one expected")
    return games[0]


def _name(source: object) -> str:
    return str(getattr(source, "name", source))


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name no file system allows (too long, a NUL)
        return False


def _not_text(source: object, function: str, instead: str) -> None:
    """A path is a path: a record's text given where a path is expected is refused with the
    function that reads text (instead of an error about a file of that name)."""
    if isinstance(source, str) and "\n" in source and not _exists(source):
        raise ValueError(
            f"{function}() reads a file or a text stream, and this looks like a record's text: "
            f"use referee.{instead}(text)"
        )


def check_game(game: Game, profile: RuleProfile | None = None, strict: bool = False) -> GameReport:
    """Check every line of ``game``: a :class:`GameReport` (violations, unverifiable points,
    scorings, result). A game with syntax errors (``game.errors``: lines the notation could not
    read) is never valid: what could not be read could not be checked."""
    report = engine_check_game(game, profile, strict)
    if game.errors and report.valid:
        report = dataclasses.replace(report, valid=False)
    return report


def parse_action(text: str) -> Turn:
    """One turn line of the notation, e.g. ``"buy Di A6sw pay Di6, place A6sw@1,0"`` or
    ``"Ben: take Gu3"``, as a :class:`~referee.record.model.Turn` (its ``actions`` are what
    :func:`check_action` and :func:`apply_action` take)."""
    line = " ".join(text.split())
    games = parse_text(line + "\n", "<action>")
    errors = [e for g in games for e in g.errors]
    turns = [item for g in games for item in g.body if isinstance(item, Turn)]
    if errors or len(turns) != 1 or not turns[0].actions:
        raise ActionSyntaxError(text, errors)
    return turns[0]


def check_action(state: GameState, action: Action | str) -> list[Violation]:
    """The violations one action of the player to move would cause here (the state is not
    changed). ``action`` may be a record node or its text (one action)."""
    if isinstance(action, str):
        found: list[Violation] = []
        trial = state.copy()
        for a in parse_action(action).actions:
            found.extend(apply_action(trial, a))
        return found
    return list(check_action_node(state, action))


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the player to move (module actions included)."""
    try:
        from referee.engine.legal import (  # type: ignore[import-not-found,unused-ignore]
            legal_actions as generate,
        )
    except ImportError:  # pragma: no cover - before the engine generator existed
        from referee.engine.legal import legal_actions as generate
    return list(generate(state))


def format_action(action: Action) -> str:
    """An action in canonical notation (``buy Di A6sw pay Di6``)."""
    from referee.notation.formatter import action as fmt

    return fmt(action)


def score_position(game: Game, profile: RuleProfile | None = None, round_no: int = 3) -> Any:
    """Check the layouts of a ``position`` record and score it (scoring ``round_no``):
    a :class:`~referee.scoring.position.PositionScore`."""
    from referee.scoring.position import score_position as score

    return score(game, profile or DEFAULT_PROFILE, round_no)


def score_state(state: GameState, round_no: int) -> Any:
    """Score a game state as scoring ``round_no`` would now: a
    :class:`~referee.scoring.ScoringResult` (``rows``, ``to_dict()``)."""
    from referee.scoring.state import score_state as score

    return score(state, round_no)


def positions(game: Game, profile: RuleProfile | None = None) -> Iterator[GameState]:
    """Each position of a game (a snapshot after every record line), as :func:`walk` gives."""
    for step in walk(game, profile):
        yield step.state
