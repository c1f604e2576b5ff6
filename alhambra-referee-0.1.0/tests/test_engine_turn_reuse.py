"""The one-pass turn resets the last turn's ``TurnState`` instead of making a new one (issue 34,
eighth step), in base and module games alike. Each action of a game sees the same turn, field for
field, as when every turn is new; the findings and scores are the same; a copy of the state
never shares the kept turn."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

from referee.engine import start_state
from referee.engine.actions import PLAIN
from referee.engine.core import apply_item
from referee.engine.state import TurnState
from referee.notation import iter_games
from referee.record.model import Game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = (
    "game-3p.alh",
    "game-4p.alh",
    "game-6p.alh",
    "final-2p-dirk.alh",
    "illegal-buy.alh",
    # every module example: no module keeps a turn or its lists past its hook
    *sorted(p.name for p in EXAMPLES.glob("module-*.alh")),
    "illegal-module.alh",
)


def _fields(t: TurnState | None) -> tuple[Any, ...] | None:
    """The turn's fields, its lists as tuples (what they hold now, not the list kept on)."""
    if t is None:
        return None
    values = (getattr(t, f.name) for f in fields(TurnState))
    return tuple(tuple(v) if isinstance(v, list) else v for v in values)


def _run(game: Game, keep: bool) -> tuple[list[Any], int]:
    """What every one-pass action sees of its turn and what every line leaves (findings, turn
    number, scores); the turns reused (``keep`` False: the kept turn dropped after each line,
    so every turn is new)."""
    plain_of = PLAIN  # the one-pass steps the engine's turn runs (the same table)
    originals = dict(plain_of)
    seen: list[Any] = []

    def wrap(step: Any) -> Any:
        def watched(state: Any, p: Any, action: Any, check: bool) -> Any:
            seen.append(_fields(state.turn))
            return step(state, p, action, check)

        return watched

    state = start_state(game)
    state.checking = True
    reused = 0
    try:
        for kind, step in originals.items():
            plain_of[kind] = wrap(step)
        for item in game.body:
            spare = state.spare_turn
            apply_item(state, item)
            if not keep:
                state.spare_turn = None
            elif spare is not None and state.spare_turn is spare:
                reused += 1
            found = [repr(v) for v in state.found]
            seen.append((item.pos, found, state.turn_no, [p.score for p in state.players]))
    finally:
        plain_of.update(originals)
    return seen, reused


def test_a_reused_turn_is_a_new_turn() -> None:
    total = 0
    for name in GAMES:
        for game in iter_games(EXAMPLES / name):
            kept, reused = _run(game, keep=True)
            new, none = _run(game, keep=False)
            assert none == 0
            assert kept == new
            total += reused
    assert total > 50  # the games' turns did take the kept one


def test_a_copy_never_shares_the_kept_turn() -> None:
    game = next(iter(iter_games(EXAMPLES / "game-3p.alh")))
    state = start_state(game)
    copies = []
    for item in game.body:
        apply_item(state, item)
        if state.spare_turn is not None:
            twin = state.copy()
            assert twin.spare_turn is None
            copies.append((twin, _fields(twin.turn), twin.turn_no))
    assert copies
    for twin, turn, number in copies:  # the game went on: each copy kept its own
        assert (_fields(twin.turn), twin.turn_no) == (turn, number)
