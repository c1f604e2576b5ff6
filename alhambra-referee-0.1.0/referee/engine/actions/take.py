"""Taking money ("Geld nehmen"): one card of any value, or several whose sum is at most 5.

``plan_take`` works out, without changing anything, where each named card comes from (the
display, an unknown display card it resolves, or nowhere); ``take_findings`` is the check;
``apply_take`` moves the cards. Cards of a module (``kind:name``) are handed to their module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.catalogue import MoneyCard
from referee.engine.context import Context
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.fmt import fmt_card, fmt_cards
from referee.engine.ruleset import Decision
from referee.engine.state import decrement
from referee.engine.turns import end_main_action, main_action_findings, start_main_action
from referee.messages import Join, Text
from referee.record.model import CardRef, ComponentRef, Pos, TakeMoney

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias

    from referee.engine.state import GameState, PlayerState

Source: TypeAlias = 'Literal["display", "resolve", "forget", "unknown", "missing", "module"]'


@dataclass(slots=True)
class TakeStep:
    """One card of a take: where it comes from, the card, its reference and position."""

    source: Source
    card: MoneyCard | None
    ref: Any
    pos: Pos


@dataclass(slots=True)
class TakePlan:
    """Where each card of a take comes from, and the display before it."""

    player: PlayerState
    action: TakeMoney
    steps: list[TakeStep] = field(default_factory=list)
    display_before: list[MoneyCard | None] = field(default_factory=list)


def plan_take(state: GameState, p: PlayerState, a: TakeMoney) -> TakePlan:
    """Where each card of the take comes from (the state is not changed)."""
    plan = TakePlan(p, a, display_before=list(state.display))
    display = list(state.display)
    pool_used: dict[MoneyCard, int] = {}
    for ref in a.cards:
        cpos = ref.pos or a.pos
        if isinstance(ref, ComponentRef):
            plan.steps.append(TakeStep("module", None, ref, cpos))
            continue
        if not isinstance(ref, CardRef):
            plan.steps.append(TakeStep("missing", None, ref, cpos))
            continue
        c = ref.card
        if c is None:
            if None in display:
                display.remove(None)
                plan.steps.append(TakeStep("unknown", None, ref, cpos))
            elif display:
                display = [None] * (len(display) - 1)
                plan.steps.append(TakeStep("forget", None, ref, cpos))
            else:
                plan.steps.append(TakeStep("missing", None, ref, cpos))
            continue
        if c in display:
            display.remove(c)
            plan.steps.append(TakeStep("display", c, ref, cpos))
        elif None in display and state.pool[c] - pool_used.get(c, 0) > 0:
            display.remove(None)
            pool_used[c] = pool_used.get(c, 0) + 1
            plan.steps.append(TakeStep("resolve", c, ref, cpos))
        else:
            plan.steps.append(TakeStep("missing", c, ref, cpos))
    return plan


_TAKING = Text("ACTION/taking-money")


def take_findings(ctx: Context, plan: TakePlan) -> list[Finding]:
    """The check of a take (pure)."""
    p, a = plan.player, plan.action
    state = ctx.state
    out = main_action_findings(state, a.pos, p, _TAKING)
    if not a.cards:
        out.append(problem("TAKE-EMPTY", a.pos, p.name))
    display = list(plan.display_before)
    for step in plan.steps:
        if step.source == "missing":
            ref = step.ref
            if isinstance(ref, CardRef):
                card = "?" if ref.card is None else ref.card.code
                shown = "empty" if ref.card is None else fmt_cards(display)
            else:
                card = str(getattr(ref, "number", "?"))
                shown = fmt_cards(plan.display_before)
            out.append(problem("TAKE-NOT-IN-DISPLAY", step.pos, p.name, card=card, display=shown))
        elif step.source in ("display", "resolve", "unknown"):
            if step.card in display:
                display.remove(step.card)
            elif None in display:
                display.remove(None)
        elif step.source == "forget":
            display = [None] * (len(display) - 1)
    cards = [c for c in a.cards if isinstance(c, CardRef)]
    # module cards that are money (e.g. diamonds) count in the sum like money cards
    more = [v for c in a.cards if (v := state.ext.money_value(state, c)) is not None]
    if len(cards) + len(more) > 1:
        known = [c.card for c in cards if c.card is not None]
        total = sum(c.value for c in known) + sum(more)
        if total > ctx.decide(Decision.TAKE_LIMIT, player=p):
            out.append(
                problem(
                    "TAKE-SUM",
                    a.pos,
                    p.name,
                    display=fmt_cards(plan.display_before),
                    cards=" ".join(
                        [fmt_cards(c.card for c in cards)] * bool(cards)
                        + [_token(c) for c in a.cards if isinstance(c, ComponentRef)]
                    )
                    if more
                    else fmt_cards(c.card for c in cards),
                    sum=total,
                )
            )
        elif len(known) < len(cards):
            out.append(unverifiable(a.pos, "UNVERIFIED-TAKE-SUM", p.name))
    return out


def apply_take(ctx: Context, plan: TakePlan) -> None:
    """Move the cards of a take (no checks; module cards go to their module)."""
    state = ctx.state
    p, a = plan.player, plan.action
    start_main_action(state)
    if state.turn is not None:
        state.turn.taken.extend(a.cards)
    taken: list[MoneyCard | None] = []
    for step in plan.steps:
        if step.source == "module":
            ref = step.ref
            assert isinstance(ref, ComponentRef)
            handler = state.ext.kind_handler(ref.kind)
            if handler is not None:
                state.found.extend(handler.take_component(state, p, ref, a) or [])
            else:
                from referee.engine.core import unhandled_component

                unhandled_component(state, ref, step.pos, p.name)
            continue
        if step.source == "missing":
            continue
        if step.source == "unknown":
            state.display.remove(None)
        elif step.source == "forget":
            state.pool.update(x for x in state.display if x is not None)
            state.display = [None] * (len(state.display) - 1)
        elif step.source == "display":
            state.display.remove(step.card)
        elif step.source == "resolve":
            state.display.remove(None)
            decrement(state.pool, step.card)
        if step.card is None:
            p.hand_unknown += 1
        else:
            p.hand[step.card] += 1
        taken.append(step.card)
    end_main_action(state, _taken(taken))


def take_plain(state: GameState, p: PlayerState, a: TakeMoney, check: bool) -> bool:
    """The common take in one pass: known money cards that all lie in the display, and
    nothing to report. Anything else (an unknown or module card, a card not shown, a sum over
    the limit, a main action that may not happen now) returns False with nothing changed: then
    :func:`plan_take`, :func:`take_findings` and :func:`apply_take` run, which write the
    findings. The result is the same as theirs (what ``apply_take`` does with "display" steps)."""
    t = state.turn
    refs = a.cards
    if t is None or not refs or (check and (t.over or t.placing)):
        return False
    rest = list(state.display)
    cards: list[MoneyCard] = []
    total = 0
    for ref in refs:
        c = ref.card if type(ref) is CardRef else None
        if c is None or c not in rest:
            return False
        rest.remove(c)
        cards.append(c)
        total += c.value
    if check and len(refs) > 1:
        limit = state.rules.constants.get(Decision.TAKE_LIMIT)
        if limit is None:  # a module refines the limit
            limit = Context(state).decide(Decision.TAKE_LIMIT, player=p)
        if total > limit:
            return False
    state.display[:] = rest
    hand = p.hand
    for c in cards:
        hand[c] = hand.get(c, 0) + 1
    t.main_actions += 1  # start_main_action(state)
    t.taken.extend(refs)
    phrase = _TAKEN.get(tuple(cards))  # end_main_action(state, _taken(cards)), inline
    t.over = True
    t.unsure = False
    t.over_after = phrase if phrase is not None else _taken(cards)
    return True


def _taken(taken: Sequence[MoneyCard | None]) -> Text:
    """What ended the turn's main actions: the take and its cards (joined only if the phrase is
    ever shown: a later action after the take). A phrase is a value: one per list of cards."""
    key = tuple(taken)
    phrase = _TAKEN.get(key)
    if phrase is None:
        cards = Join(tuple(_Card(c) for c in key), sep=" ")
        phrase = Text("ACTION/taking-money-cards", cards=cards)
        if len(_TAKEN) < 4096:  # cards are interned: a bounded set of keys in practice
            _TAKEN[key] = phrase
    return phrase


_TAKEN: dict[tuple[MoneyCard | None, ...], Text] = {}


def _token(ref: ComponentRef) -> str:
    return f"{ref.kind}:{ref.name}"


class _Card:
    """A money card (or ``?``) as a message parameter, written when shown."""

    __slots__ = ("card",)

    def __init__(self, card: MoneyCard | None) -> None:
        self.card = card

    def __str__(self) -> str:
        return fmt_card(self.card)

    def text(self, lang: str = "en") -> str:
        return fmt_card(self.card)
