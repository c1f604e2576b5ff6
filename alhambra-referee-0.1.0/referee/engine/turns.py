"""The turn flow: named phases, main actions, and the one arbiter for out-of-turn play.

A game moves through :class:`Phase` values: ``setup`` until the first turn, then for every turn
``turn`` (its actions, then its placements "ganz am Ende des eigenen Zuges"), ``refill`` (the
display and market are refilled), ``between`` (refill closed; scorings and out-of-turn play may
happen), and ``over`` after the final scoring.

Modules attach steps to named :class:`Moment` values (turn start, end of turn, after refill,
after scoring, leftover distribution, game end...) and may act between turns through the
:class:`InterruptArbiter`: an out-of-turn line (no turn number) opens an *interrupt* with
:func:`begin_interrupt`, which saves who moves next, and :func:`end_interrupt` closes it, so play
resumes "bei demjenigen Spieler, der eigentlich an der Reihe gewesen wäre".

Checks here are pure (they return findings); the ``start_``/``end_``/``begin_`` functions change
the state and check nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.engine.findings import Finding, problem, unverifiable
from referee.messages import Text
from referee.record.model import NOWHERE, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.state import GameState, PlayerState


class Phase(StrEnum):
    """Where the game stands (``GameState.phase``; compares equal to its string value)."""

    SETUP = "setup"
    TURN = "turn"
    REFILL = "refill"
    BETWEEN = "between"
    OVER = "over"


class Settle(StrEnum):
    """What a line needs settled before it (``settle_before``): the setup finished, the refill
    closed, a due scoring flagged -- as far as the line in question needs it."""

    TURN = "turn"  # a turn (or an out-of-turn line after a complete turn)
    SCORING = "scoring"  # a scoring line (the market may still be refilled after it)
    DISTRIBUTION = "distribution"  # the leftover distribution
    END = "end"  # the record ends here (the refill closed without its completeness check)


class Moment(StrEnum):
    """The named moments of the turn flow where modules attach steps (``Module.at``)."""

    SETUP_DONE = "setup-done"  # the setup is complete, before the first turn
    TURN_START = "turn-start"  # a numbered turn begins
    TURN_END = "turn-end"  # a turn's actions and placements are over
    INTERRUPT_END = "interrupt-end"  # an out-of-turn action (vizier, sultan claim) and its
    # placements are over; ``state.turn`` is still the interrupt's (its player, its module)
    REFILL_DONE = "refill-done"  # the refill after a turn is closed
    SCORING_BEFORE = "scoring-before"  # a scoring is about to be computed (``ctx.pos``: its
    # line); the players' choices for it (``Window.BEFORE_SCORING`` lines) are written by now
    SCORING_DONE = "scoring-done"  # right after a scoring (``ctx.pos``: the scoring line)
    LEFTOVERS_BEFORE = "leftovers-before"  # the leftover tiles are about to be handed out
    LEFTOVERS_DONE = "leftovers-done"  # the leftover tiles are handed out (before scoring 3)
    GAME_END = "game-end"  # the record ends after the final scoring


# ----------------------------------------------------------------------------- main actions


TAKING = Text("ACTION/taking-money")
"""The phrase of the take action (``main_action_findings`` lets it through ``take_only``)."""


def main_action_findings(
    state: GameState, pos: Pos, player: PlayerState, what: object
) -> list[Finding]:
    """May ``player`` make a main action (take, buy, redesign, a module action) now?

    "Ein Spieler hat ... genau eine der drei Möglichkeiten"; only an exact purchase gives another
    (Zusatzaktion); every placement comes "ganz am Ende des eigenen Zuges".
    """
    t = state.turn
    out: list[Finding] = []
    if t is None:
        return out
    if t.over and not t.unsure:
        out.append(problem("TURN-OVER", pos, player.name, after=t.over_after))
    elif t.over and t.unsure:
        out.append(unverifiable(pos, "UNVERIFIED-PAYMENT-EXACT", player.name))
    if t.placing:
        out.append(problem("PLACE-ORDER", pos, player.name, action=what))
    if t.take_only is not None and what != TAKING:
        out.append(problem(t.take_only, pos, player.name, action=what))
    return out


def start_main_action(state: GameState) -> None:
    """Count a main action of the current turn."""
    if state.turn is not None:
        state.turn.main_actions += 1


def end_main_action(state: GameState, why: object) -> None:
    """The turn allows no further main action (``why``: what ended it, a catalogue phrase such
    as ``Text("ACTION/redesigning")``, shown in TURN-OVER and PLACE-ORDER)."""
    t = state.turn
    if t is None:
        return
    t.over = True
    t.unsure = False
    t.over_after = why


def grant_redesign(state: GameState, n: int = 1) -> None:
    """Grant the current turn ``n`` redesigns on top of its actions (extension point E13: e.g.
    a master-builder card played "am Ende seines Zuges" for "eine zusätzliche Umbauaktion").
    A granted redesign may follow when no main action may (the turn is over, pieces are
    placed); it does not count as the turn's main action."""
    if state.turn is not None:
        state.turn.extra_redesigns += n


def redesign_findings(
    state: GameState, pos: Pos, player: PlayerState, what: object
) -> list[Finding]:
    """May ``player`` redesign now: a granted redesign, else a main action."""
    t = state.turn
    if t is not None and t.extra_redesigns > 0:
        return []
    return main_action_findings(state, pos, player, what)


def start_redesign(state: GameState) -> None:
    """Count a redesign: a granted one is used up first, else it is a main action."""
    t = state.turn
    if t is not None and t.extra_redesigns > 0:
        t.extra_redesigns -= 1
        return
    start_main_action(state)


def turn_goes_on_unsure(state: GameState, why: object) -> None:
    """Whether the turn goes on cannot be told (an unknown payment)."""
    t = state.turn
    if t is None:
        return
    t.over = True
    t.unsure = True
    t.over_after = why


# ----------------------------------------------------------------------------- seats


def seat_order(state: GameState, first: int | None = None) -> list[PlayerState]:
    """Every player in seat order starting with ``first`` (default: who moves next)."""
    n = len(state.players)
    if n == 0:
        return []
    start = first if first is not None else (state.next_player or 0)
    return [state.players[(start + i) % n] for i in range(n)]


# ----------------------------------------------------------------------------- interrupts


@dataclass(frozen=True, slots=True)
class Claim:
    """A wish to act out of turn at one moment: who, with what (the module's name)."""

    player: Any  # a PlayerState (a compiled build makes this class before engine.state)
    module: str
    pos: Pos = NOWHERE


class InterruptArbiter:
    """The one arbiter for everything out of turn: who may act first when several players
    (through one or several modules) want to act at the same moment.

    One precedence setting: modules by their declared ``Module.interrupt_rank`` (lower acts
    first; e.g. the Sultan's claim before the vizier: "Erst nach der Aktion 'Macht des Sultans'
    kommt ggf. die Aktion 'Gunst des Wesirs'"), then seats starting with the player who would
    move next, the one who just moved last ("Der Spieler, der eigentlich am Zug wäre, ist der
    Erste – der Spieler, der gerade seinen Zug beendet hat, ist der Letzte"). The same rank
    orders which module reads an out-of-turn line first (``Extensions.out_of_turn``).

    Precedence belongs only to players who could really make their claim: a contender counts
    when the arbiter's seat rules allow him (``interrupt_not_next``, ``interrupt_in_refill``)
    *and* his module says he could (``Module.could_claim``: holds a thief of that currency, an
    awake vizier and a tile he can pay exactly, a matching sultan card ...).
    """

    def __init__(
        self,
        ranks: dict[str, int],
        interrupting: Sequence[str] = (),
        not_next: frozenset[str] = frozenset(),
        in_refill: frozenset[str] = frozenset(),
        modules: Mapping[str, Any] | None = None,
    ) -> None:
        self.ranks = ranks
        # modules with a verb of kind ``interrupt``, in precedence order
        self.interrupting = tuple(sorted(interrupting, key=lambda m: ranks.get(m, 0)))
        self.not_next = not_next  # modules the player who would move next may not use
        self.in_refill = in_refill  # modules whose out-of-turn play is inside the refill
        self.modules: Mapping[str, Any] = modules or {}

    def may_interrupt(self, state: GameState, player: PlayerState, module: str) -> bool:
        """Whether ``player`` may interrupt with ``module`` now by the seat rules: a module that
        declares ``Module.interrupt_not_next`` bars the player who would move next ("Vor dem
        eigenen Zug darf ein Spieler keinen Dieb einsetzen"); every other module allows every
        player."""
        return not (module in self.not_next and player.index == state.next_player)

    def could_claim(self, ctx: Any, player: PlayerState, module: str, want: object) -> bool:
        """Whether ``player`` could really make a claim with ``module`` now, for ``want`` (what
        the acting line takes: a money card, a tile; None: anything): the seat rules, the
        refill window, and the module's own condition (``Module.could_claim``)."""
        state = ctx.state
        if not self.may_interrupt(state, player, module):
            return False
        if module in self.in_refill and state.phase is not Phase.REFILL:
            return False
        m = self.modules.get(module)
        return m is None or bool(m.could_claim(ctx, player, want))

    def possible_claims(
        self, state: GameState, player: PlayerState, pos: Pos, want: object = None
    ) -> list[Claim]:
        """The claims ``player`` could really make now with the enabled interrupting modules,
        in precedence order (see :meth:`could_claim`)."""
        from referee.engine.context import Context

        ctx = Context(state, pos)
        return [
            Claim(player, m, pos)
            for m in self.interrupting
            if self.could_claim(ctx, player, m, want)
        ]

    def key(self, state: GameState, claim: Claim) -> tuple[int, int]:
        n = len(state.players) or 1
        nxt = state.next_player if state.next_player is not None else 0
        return (self.ranks.get(claim.module, 0), (claim.player.index - nxt) % n)

    def first(self, state: GameState, claims: Sequence[Claim]) -> Claim | None:
        """The claim that acts first (None: no claim)."""
        return min(claims, key=lambda c: self.key(state, c), default=None)

    def precedence_findings(
        self, state: GameState, acting: Claim, others: Sequence[Claim], code: str
    ) -> list[Finding]:
        """``code`` for each other claim that should have come before ``acting``."""
        if not others:  # nobody else wanted to act now (nearly every line): nothing to order
            return []
        mine = self.key(state, acting)
        order = " → ".join(p.name for p in seat_order(state))
        return [
            problem(code, o.pos or acting.pos, acting.player.name, other=o.player.name, order=order)
            for o in others
            if o.player is not acting.player and self.key(state, o) < mine
        ]

    def contest(
        self,
        ctx: Any,
        acting: Claim,
        named: Sequence[Any],
        code: str,
        *,
        want: object = None,
        modules: Sequence[str] | None = None,
        refused: Callable[[PlayerState, Pos], None] | None = None,
    ) -> None:
        """The one check of a line that names other players who also wanted to act now
        (``Anna: thief th:De Cem, take De5``): each name (a verb argument) is resolved
        (``UNKNOWN-PLAYER``), the acting player himself is skipped, and a contender counts only
        with a claim he could really make (:meth:`could_claim`, with ``modules``: the modules
        he may claim with, default: the acting module only; every interrupting module when
        ``modules`` is ``()``). ``refused`` hears each contender who could not (the module may
        report its own finding, e.g. an asleep vizier); then ``code`` is reported for each
        contender who should have come first."""
        state = ctx.state
        pos = acting.pos
        mods = (acting.module,) if modules is None else (tuple(modules) or self.interrupting)
        others: list[Claim] = []
        for arg in named:
            value = getattr(arg, "value", arg)
            name = getattr(value, "name", None) or str(value)
            apos = getattr(arg, "pos", None) or pos
            other = state.player_named(name)
            if other is None:
                ctx.flag("UNKNOWN-PLAYER", apos, name, players=", ".join(state.names))
                continue
            if other is acting.player:
                continue
            claims = [Claim(other, m, apos) for m in mods if self.could_claim(ctx, other, m, want)]
            if not claims:
                if refused is not None:
                    refused(other, apos)
                continue
            first = self.first(state, claims)
            assert first is not None
            others.append(first)
        ctx.report(self.precedence_findings(state, acting, others, code))


@dataclass(slots=True)
class Interrupt:
    """An out-of-turn action under way: what to restore when it ends."""

    player: int
    module: str
    saved_next: int | None
    saved_phase: str


_TURN_STATE: list[Any] = []
"""``referee.engine.state.TurnState`` once :func:`begin_interrupt` has looked it up (an
``import`` statement inside a function costs about 8,700 instructions each time it runs)."""


def begin_interrupt(state: GameState, player: PlayerState, module: str, pos: Pos) -> Interrupt:
    """Open an out-of-turn action of ``player`` (a mini-turn with the current turn number)."""
    if not _TURN_STATE:  # engine.state imports this module: looked up on first use, then kept
        import importlib  # (a compiled build: no module bound by an import inside a function)

        _TURN_STATE.append(importlib.import_module("referee.engine.state").TurnState)
    saved = Interrupt(player.index, module, state.next_player, state.phase)
    # TurnState(state.turn_no, player.index, pos=pos, interrupt=module) with every field given
    # (the three lists as [] rather than by their default factory; no keywords): as core._turn
    state.turn = _TURN_STATE[0](
        state.turn_no, player.index, 0, False, None, False, False, [], pos, module, 0, [], [], None
    )
    state.phase = Phase.TURN
    return saved


def end_interrupt(state: GameState, saved: Interrupt) -> None:
    """Close an out-of-turn action: a refill follows, and the player who was next moves next.
    The modules hear of it first (``Moment.INTERRUPT_END``: "Für Gebäude, die man außerhalb
    des normalen Zuges erhält ...: Sofort Kulturplättchen nehmen", Künste der Mauren)."""
    if state.ext.modules:
        state.ext.at(Moment.INTERRUPT_END, state, state.turn.pos if state.turn else None)
    state.turn = None
    state.phase = Phase.REFILL
    state.next_player = saved.saved_next


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
