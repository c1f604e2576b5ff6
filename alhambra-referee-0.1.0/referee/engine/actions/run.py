"""One action of the current turn's player: :func:`run_action` with its tables
(:data:`PLAIN`, :data:`HANDLERS`), re-exported by :mod:`referee.engine.actions`, their public home,
whose docstring describes them. A module of its own so that the compiled build can compile it
(setup.py's ``MYPYC_MODULES``; a package's ``__init__`` stays Python, issue 34).
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine.actions import placement, purchase, redesign, take
from referee.engine.context import Context, kept_context
from referee.engine.core import module_action
from referee.record.model import (
    Action,
    BuildFromReserve,
    Buy,
    Give,
    ModuleAction,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.state import GameState, PlayerState


def _take(ctx: Context, p: PlayerState, a: TakeMoney, check: bool) -> None:
    plan = take.plan_take(ctx.state, p, a)
    if check:
        ctx.report(take.take_findings(ctx, plan))
    take.apply_take(ctx, plan)


def _buy(ctx: Context, p: PlayerState, a: Buy, check: bool) -> None:
    plan = purchase.plan_purchase(ctx.state, p, a, ctx)
    if not check:
        purchase.apply_purchase(ctx, plan)
        return
    found = purchase.purchase_findings(ctx, plan)
    ctx.report(found)
    t = ctx.state.turn
    before = len(t.pending) if t is not None else 0
    purchase.apply_purchase(ctx, plan)
    if not found:
        return
    if t is not None and any(f.severity == "error" and not f.unverifiable for f in found):
        t.refused.extend(t.pending[before:])  # no PLACE-MISSING for a refused purchase
    state = ctx.state
    if plan.slot in state.unrefilled and any(f.code == "TILE-SUPPLY" for f in found):
        # the tile named was out of the bag already: the unknown tile an unwritten refill
        # left on the field is still there (a repeated purchase line takes nothing twice)
        state.market[plan.slot] = None


def _module(ctx: Context, p: PlayerState, a: ModuleAction, check: bool) -> None:
    module_action(ctx.state, p, a)


HANDLERS: dict[type, Callable[[Context, Any, Any, bool], None]] = {
    TakeMoney: _take,
    Buy: _buy,
    BuildFromReserve: redesign.build_from_reserve,
    RemoveToReserve: redesign.remove,
    Swap: redesign.swap,
    Place: placement.place,
    Reserve: placement.reserve,
    Give: placement.give,
    ModuleAction: _module,
}


PLAIN: dict[type, Callable[[GameState, PlayerState, Any, bool], bool]] = {
    TakeMoney: take.take_plain,
    Buy: purchase.purchase_plain,
    Place: placement.place_plain,
    BuildFromReserve: redesign.build_plain,
}
"""The one-pass common case of an action kind: True when done, False (nothing changed) when
the handler must run."""


def run_action(state: GameState, action: Action, check: bool | None = None) -> None:
    """Check (unless ``check`` is False; default: the state's ``checking``) and apply one
    action of the current turn's player."""
    if check is None:
        check = state.checking
    if state.ext.counting:  # (GameState.changes: kept when a module reads it)
        if state.at_next_change is not None:
            state.before_change(action)
        state.changes += 1
    t = state.turn
    assert t is not None
    kind = type(action)
    p = state.players[t.player]
    plain = PLAIN.get(kind)
    if plain is not None and plain(state, p, action, check):
        return
    handler = HANDLERS.get(kind)
    if handler is not None:
        handler(state.context or kept_context(state), p, action, check)
