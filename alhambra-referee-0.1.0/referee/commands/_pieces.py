"""The pieces a dispute tool can ask about at a moment: building tiles and modules' pieces.

``legal`` and ``explain`` ask where a piece may go; the piece is one the table holds at that
moment (a market field, beside the market, a reserve, a piece bought this turn) or one a
module's action would hand the player now (a square taken from its stack: the engine's legal
generator lists the action, and the action is carried out on a copy of the state to see the
piece it gives). Nothing here knows a module's rules: the engine and the modules decide.
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import TileKind
from referee.record.model import ComponentRef


def _on_the_table(state: Any, p: Any) -> list[Any]:
    from referee.engine.market_side import side_offers
    from referee.engine.state import EMPTY

    out: list[Any] = [x for x in state.market[:4] if x is not None and x is not EMPTY]
    if state.ext:
        out += [o.piece for o in side_offers(state)]
    out += [x for x in p.reserve if x is not None]
    if state.turn is not None:
        out += [x for x in state.turn.pending if x is not None]
    return out


def _from_module_actions(state: Any, p: Any) -> list[Any]:
    """The pieces the player's module actions would hand over now (each action tried on a
    copy of the state as the start of a turn of that player)."""
    from referee.engine import core
    from referee.engine.context import Context
    from referee.engine.legal import module_actions

    if not state.ext or state.game_over:
        return []
    trial = state.copy()
    out: list[Any] = []
    if trial.turn is None or trial.turn.player != p.index:
        if trial.turn is not None:
            return []
        core.begin_trial_turn(trial, p.index)
        if trial.turn is not None:  # what the turn's start hands over (a project won)
            out += [x for x in trial.turn.pending if x is not None]
    me = trial.players[p.index]
    for action in module_actions(Context(trial), me):
        probe = trial.copy()
        before = list(probe.turn.pending) if probe.turn is not None else []
        core.apply_action(probe, action)
        if probe.turn is None:
            continue
        out += [x for x in probe.turn.pending if x is not None and x not in before]
    return out


def distinct(pieces: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for x in pieces:
        if x not in seen:
            seen.append(x)
    return seen


def candidate_pieces(state: Any, p: Any) -> list[Any]:
    """Every piece ``p`` could build at this moment, tiles and module pieces: the market, the
    pieces beside it, the reserve, what this turn bought, what a module action would give."""
    return distinct(_on_the_table(state, p) + _from_module_actions(state, p))


def resolve_piece(state: Any, p: Any, wanted: TileKind | ComponentRef) -> Any | None:
    """The piece a ``--tile`` names: a catalogue tile as it is; a module token (``md:5n``,
    ``sq:Tw``) the piece of the table or of a module action it names (the piece says whether
    the token means it); None when no piece at this moment is named so."""
    if isinstance(wanted, TileKind):
        return wanted
    for piece in _on_the_table(state, p) + _from_module_actions(state, p):
        matches = getattr(piece, "matches", None)
        if matches is not None and matches(wanted):
            return _as_named(piece, wanted)
    return None


def _as_named(piece: Any, wanted: TileKind | ComponentRef) -> Any:
    """A piece whose token states how it lies (``orient_by_token``: the half a watchtower
    fills, ``wt:Tsw``) as the token names it; the piece as it is when the token states no
    orientation."""
    orient = getattr(piece, "orient_by_token", None)
    if orient is None or not isinstance(wanted, ComponentRef):
        return piece
    from referee.record.model import NOWHERE

    turned, found = orient(wanted, NOWHERE, None)
    return piece if found else turned


def is_piece(x: Any) -> bool:
    """Whether ``x`` is something that can be built (a tile or a module piece with walls)."""
    return isinstance(x, TileKind) or hasattr(x, "walls")
