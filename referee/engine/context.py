"""The engine as a module sees it: one :class:`Context` per game state.

A module never imports ``referee.engine.core`` or any private engine name (a test enforces it).
Everything it may do goes through the context it is handed:

* read the table: ``ctx.state`` (the :class:`~referee.engine.state.GameState`), ``ctx.players``,
  ``ctx.player_named``; its own part of the state: ``module.data(ctx.state)``;
* ask the rules: ``ctx.decide(Decision.X, **args)`` (the same answer every consumer gets);
* report: ``ctx.report(findings)``, ``ctx.flag(code, pos, player, reason=..., **params)``,
  ``ctx.unverifiable(pos, key, player, **params)`` (texts: :mod:`referee.messages`);
* run base actions inside its own (e.g. the vizier's purchase and placement):
  ``ctx.run_action(action)``; open and close out-of-turn play: ``ctx.begin_interrupt`` /
  ``ctx.end_interrupt``; count and end main actions: ``ctx.start_main_action`` /
  ``ctx.end_main_action``; settle the table before a moment: ``ctx.settle_before``.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.engine.findings import Finding, report
from referee.engine.turns import (
    Interrupt,
    Settle,
    begin_interrupt,
    end_interrupt,
    end_main_action,
    grant_redesign,
    main_action_findings,
    start_main_action,
)
from referee.record.model import Action, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from referee.engine.state import GameState, PlayerState


class _Later:
    """The engine functions a context hands work to whose modules import this one (so they
    cannot be imported at its top): looked up once by :func:`_later`, then kept, since an
    ``import`` statement inside a method costs about 8,700 instructions each time it runs."""

    __slots__ = ("close_placements", "run_action", "settle_before")

    def __init__(self) -> None:
        from referee.engine.actions import run_action
        from referee.engine.actions.placement import close_placements
        from referee.engine.core import settle_before

        self.run_action = run_action
        self.close_placements = close_placements
        self.settle_before = settle_before


_LATER: list[_Later] = []  # (read inline by the methods below once made: no call of _later)


def _later() -> _Later:
    """The engine functions of :class:`_Later` (imported on first use)."""
    if not _LATER:
        _LATER.append(_Later())
    return _LATER[0]


class Context:
    """The public face of the engine for one game state (cheap: make one when needed)."""

    __slots__ = ("pos", "state")

    out_of_turn: ClassVar[bool] = False
    """True while the engine asks for out-of-turn lines (``legal_interrupts``: a vizier's
    purchase, a claim): a rule that holds only in one's own turn (e.g. a gate set "als Teil
    des eigenen Zuges") must not be counted on then (:class:`OutOfTurnContext`)."""

    def __init__(self, state: GameState, pos: Pos | None = None) -> None:
        self.state = state
        self.pos = pos  # the record line a moment belongs to (None: not known / not given)

    # ---------------------------------------------------------------- reading

    @property
    def players(self) -> list[PlayerState]:
        return self.state.players

    def player_named(self, name: str) -> PlayerState | None:
        return self.state.player_named(name)

    def decide(self, decision: str, **args: Any) -> Any:
        """The game's answer to a rule decision (base layer refined by the modules)."""
        return self.state.rules.answer[decision](self, **args)

    # -------------------------------------------------------------- reporting

    def report(self, findings: Iterable[Finding]) -> None:
        if findings:  # (an empty list or tuple: nothing to record, no call; an iterator is true)
            report(self.state, findings)

    def flag(
        self,
        code: str,
        pos: Pos,
        player: str | None = None,
        *,
        severity: str = "error",
        reason: str | None = None,
        **params: object,
    ) -> None:
        self.state.flag(code, pos, player, severity=severity, reason=reason, **params)

    def unverifiable(self, pos: Pos, key: str, player: str | None = None, **params: object) -> None:
        self.state.note(pos, key, player, **params)

    # ------------------------------------------------------------- turn flow

    def main_action(self, pos: Pos, player: PlayerState, what: object) -> None:
        """Check that a main action may happen now, and count it."""
        self.report(main_action_findings(self.state, pos, player, what))
        start_main_action(self.state)

    def grant_redesign(self, n: int = 1) -> None:
        """Grant the current turn ``n`` redesigns on top of its actions
        (``turns.grant_redesign``)."""
        grant_redesign(self.state, n)

    def end_main_action(self, why: object) -> None:
        end_main_action(self.state, why)

    def begin_interrupt(self, player: PlayerState, module: str, pos: Pos) -> Interrupt:
        return begin_interrupt(self.state, player, module, pos)

    def end_interrupt(self, saved: Interrupt) -> None:
        end_interrupt(self.state, saved)

    def settle_before(self, pos: Pos, moment: Settle | str) -> None:
        (_LATER[0] if _LATER else _later()).settle_before(self.state, pos, moment)

    def run_action(self, action: Action) -> None:
        """Check and apply one base (or module) action of the player whose turn is under way."""
        (_LATER[0] if _LATER else _later()).run_action(self.state, action)

    def close_placements(self, pos: Pos, player: PlayerState) -> None:
        """End of a (mini-)turn: bought tiles not placed go to the reserve (reported), the
        reserve limit is checked."""
        (_LATER[0] if _LATER else _later()).close_placements(self.state, player, pos)


def kept_context(state: GameState) -> Context:
    """The context the engine hands to a module call it makes without a record line: the
    state's kept one (``GameState.context``) while :func:`~referee.engine.run.run_game` runs
    the game, else a new one (a context is two fields and its methods read only them, so one
    serves every such call; a module never sets them). Hot paths read ``state.context or
    kept_context(state)``."""
    ctx = state.context
    return Context(state) if ctx is None else ctx


class OutOfTurnContext(Context):
    """A :class:`Context` for the question "which out-of-turn lines are legal now"."""

    __slots__ = ()
    out_of_turn: ClassVar[bool] = True
