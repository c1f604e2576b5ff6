"""The one purchase pipeline ("Ein Gebäude kaufen und platzieren").

Every purchase, in a turn or out of it (the vizier), goes through the same stages:

1. **locate**: which market field and tile the record names (``BUY-FIELD``,
   ``BUY-NOT-IN-MARKET``);
2. **sources**: what pays: hand cards, and components of modules (exchange cards ...); a
   module owns its components' part of the payment (:meth:`Module.on_purchase`);
3. **price**: the tile's printed price (modules may change it through the pipeline's price
   stage, e.g. building sites; the payment's sources are known by then);
4. **currencies**: which currencies may pay for the field (decision ``pay.currencies``);
5. **value and exactness**: what the payment counts for (``pay.value``), whether it was exact
   (``pay.exact``) and whether exactness gives another action (``turn.extra_action``); further
   payment rules of modules (``pay.problems``);
6. **spent**: the hand cards go to the discard pile; module components where their module
   puts them;
7. **after**: the tile waits to be placed at the end of the turn; a purchase that is not exact
   ends the turn's main actions.

:func:`plan_purchase` resolves the record (pure), :func:`purchase_findings` checks it (pure),
:func:`apply_purchase` carries it out (no checks). :func:`payments` is the one payment search
(used by ``explain``, the legal-move generator and the simulator).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from itertools import combinations

from referee.catalogue import CURRENCIES, Currency, MoneyCard, TileKind
from referee.engine.actions.supply import resolve_from_bag, take_out_of_bag
from referee.engine.context import Context
from referee.engine.core import match_slot, unhandled_component_finding
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.fmt import fmt_cards, fmt_hand, fmt_market, fmt_ref, fmt_tile
from referee.engine.market_side import SideOffer, find_offer, pick_offer
from referee.engine.ruleset import Decision
from referee.engine.state import EMPTY, decrement
from referee.engine.turns import (
    end_main_action,
    main_action_findings,
    start_main_action,
    turn_goes_on_unsure,
)
from referee.messages import Text
from referee.record.model import Buy, CardRef, ComponentRef, Pos, TileLike, TileRef
from referee.shapes import PayItem  # (public here: in ``__all__``)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, Literal, TypeAlias, TypeVar

    from referee.engine.payment import Payment
    from referee.engine.state import GameState, HeldPiece, PlayerState

    _Item = TypeVar("_Item", bound=PayItem)

PaySource: TypeAlias = (
    'Literal["hand", "resolve", "unknown", "forget", "missing", "module", "other"]'
)

# names of other modules read on every purchase, as ``Final`` aliases (the same objects):
# compiled, a read is a C static instead of a look-up in the module's dict
_CURRENCIES: Final = CURRENCIES
_EMPTY: Final = EMPTY
_CARD_REF: Final = CardRef
_COMPONENT_REF: Final = ComponentRef
_TILE_REF: Final = TileRef


@dataclass(slots=True)
class PayStep:
    """One item of a payment and where it comes from."""

    source: PaySource
    card: MoneyCard | None
    ref: Any
    pos: Pos


@dataclass(slots=True)
class Purchase:
    """A purchase as the record states it, resolved against the state."""

    player: PlayerState
    action: Buy
    slot: int | None = None  # market field index (0-3) the tile comes from
    tile: HeldPiece = None  # a catalogue tile, None (unknown) or a module's piece
    from_bag: bool = False  # the market held an unknown tile the record now names
    price: int | None = None
    field: Currency | None = None  # the field's currency
    steps: list[PayStep] = dc_field(default_factory=list)
    locate: list[Finding] = dc_field(default_factory=list)
    # answers of the ruleset for this purchase, asked once (see allowed_currencies/payment_value)
    allowed: frozenset[Currency] | None = None
    value: int | None = None
    offer: SideOffer | None = None  # a piece beside the market (E15), not a market field
    # ``modules_paid`` as last made, and the ``steps`` list it was made from
    _modules: tuple[ComponentRef, ...] = dc_field(default=(), init=False, repr=False, compare=False)
    _modules_of: list[PayStep] | None = dc_field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def modules_paid(self) -> tuple[ComponentRef, ...]:
        """Module components named in the payment (made once for the purchase's ``steps``:
        every module reacting to a purchase asks, several times each)."""
        steps = self.steps
        if self._modules_of is not steps:
            self._modules = tuple([s.ref for s in steps if s.source == "module"])
            self._modules_of = steps
        return self._modules

    @property
    def cards_paid(self) -> list[MoneyCard]:
        """Known money cards named in the payment (held or not)."""
        return [s.card for s in self.steps if s.card is not None]

    @property
    def unknown_paid(self) -> int:
        return sum(1 for s in self.steps if s.source in ("unknown", "forget"))


@dataclass(slots=True)
class PlainPurchase:
    """A plain purchase carried out in one pass (:func:`purchase_plain`), as the modules that
    react to it see it (:meth:`~referee.engine.extensions.Module.after_plain_purchase`): a
    catalogue tile from market field ``slot``, paid with the known money ``cards`` of the hand,
    the base layer's answers (every module left the purchase alone); ``slot`` None: a piece
    beside the market bought from its module's offer (``_purchase_side_offer``; ``field`` the
    offer's currency, ``price`` its price). Read only for the modules;
    in a purchase with the components of the one module taking part
    (``_purchase_with_components``), ``cards`` are the money cards only and ``total`` counts
    the components' value too (what that module's ``plain_components`` vouched for). Not a
    frozen dataclass, whose ``__init__`` sets each of the ten fields through
    ``object.__setattr__`` (about 3,500 instructions a purchase, issue 34)."""

    player: PlayerState
    action: Buy
    slot: int | None  # market field index (0-3) the tile comes from; None: a side offer
    tile: HeldPiece  # the catalogue tile, or a piece put in its stead before (see below)
    field: Currency  # the field's currency
    cards: tuple[MoneyCard, ...]
    allowed: frozenset[Currency]  # ``pay.currencies``
    price: int  # ``pay.price``
    total: int  # what the payment counts for (``pay.value``)
    exact: bool  # ``pay.exact``

    @property
    def overpaid(self) -> int:
        """What :func:`overpaid` gives for the same purchase."""
        return 0 if self.exact else max(0, self.total - self.price)


def _match(ref: TileLike | None, slots: Sequence[object]) -> int | None:
    return match_slot(ref, slots)


def plan_purchase(state: GameState, p: PlayerState, a: Buy, ctx: Context | None = None) -> Purchase:
    """Resolve a purchase against the state (nothing is changed); ``ctx``: the context the
    price stage asks in (the action's, when a handler has one; else a new one)."""
    buy = Purchase(p, a)
    ref = a.tile
    tpos = getattr(ref, "pos", a.pos) or a.pos
    market = state.market
    found = _match(ref, market)
    idx: int | None
    offer = find_offer(state, ref, a.field, a.paid) if found is None and state.ext else None
    if offer is not None:  # E15: a piece beside the market, bought in its offer's currency
        buy.offer, buy.tile, buy.field = offer, offer.piece, offer.currency
        if a.field is not None and a.field != offer.currency:
            buy.locate.append(
                problem(
                    "BUY-FIELD",
                    tpos,
                    p.name,
                    tile=fmt_ref(ref),
                    actual=offer.currency.code,
                    claimed=a.field.code,
                )
            )
        buy.price = offer.price
        idx = None
    elif a.field is not None:
        idx = a.field.field - 1
        slot = market[idx]
        # a component token fits the field only when the piece lying there is the one it names
        # (``buy De ww:5`` for a well that is not beside the market is BUY-NOT-IN-MARKET, not
        # a purchase of the De field's tile)
        fits = slot is not EMPTY and (
            slot is None
            or (isinstance(ref, ComponentRef) and _match(ref, [slot]) is not None)
            or (isinstance(ref, TileRef) and (not ref.known or slot in ref.candidates))
        )
        if not fits:
            if found is not None:
                buy.locate.append(
                    problem(
                        "BUY-FIELD",
                        tpos,
                        p.name,
                        tile=fmt_ref(ref),
                        actual=Currency.of_field(found + 1).code,
                        claimed=a.field.code,
                    )
                )
                idx = found
            else:
                buy.locate.append(
                    problem(
                        "BUY-NOT-IN-MARKET",
                        tpos,
                        p.name,
                        tile=fmt_ref(ref),
                        market=fmt_market(market),
                    )
                )
                idx = None
    else:
        idx = found
        if idx is None:
            unknown_slots = [i for i, s in enumerate(market) if s is None]
            if isinstance(ref, TileRef) and not ref.known:
                occupied = [i for i, s in enumerate(market) if s is not EMPTY]
                if occupied:
                    idx = occupied[0]
                    buy.locate.append(unverifiable(tpos, "UNVERIFIED-BUY-UNKNOWN-TILE", p.name))
            elif unknown_slots:
                idx = unknown_slots[0]
                buy.locate.append(unverifiable(tpos, "UNVERIFIED-BUY-FIELD", p.name))
            if idx is None:
                buy.locate.append(
                    problem(
                        "BUY-NOT-IN-MARKET",
                        tpos,
                        p.name,
                        tile=fmt_ref(ref),
                        market=fmt_market(market),
                    )
                )
    buy.slot = idx
    if offer is not None:
        pass
    elif idx is not None:
        slot = market[idx]
        if slot is None and isinstance(ref, TileRef) and ref.known:
            tile, taken, found_bag = resolve_from_bag(state, ref, tpos)
            buy.tile, buy.from_bag = tile, taken
            buy.locate.extend(found_bag)
        elif slot is not None and slot is not EMPTY:
            buy.tile = slot
        buy.field = Currency.of_field(idx + 1)
    else:
        buy.field = a.field if a.field is not None else None
        if isinstance(ref, TileRef) and ref.kind is not None:
            buy.tile = ref.kind
    # payment sources (before the price stage: a price may depend on what is paid, e.g. a
    # building site's "mindestens die Hälfte")
    buy.steps = pay_sources(state, p, a.paid, a.pos)
    if offer is not None:
        pass  # a piece beside the market: its offer's price (set above)
    elif buy.tile is not None:
        buy.price = buy.tile.price
    elif isinstance(ref, TileRef) and ref.price is not None:
        buy.price = ref.price
    if buy.price is not None:  # price stage: modules may change what the tile costs
        if ctx is None:
            ctx = Context(state)
        buy.price = int(ctx.decide(Decision.PAY_PRICE, player=p, purchase=buy, printed=buy.price))
    return buy


def pay_sources(
    state: GameState, p: PlayerState, paid: Sequence[object], pos: Pos
) -> list[PayStep]:
    """Stage "sources" of every payment (a purchase, a bid, chests, a site ...): where each
    item of ``paid`` comes from (pure): a card of the hand, an unknown hand card the record
    now names ("resolve"), an unknown card, a card the hand does not hold ("missing"), a
    module component ("module": its module values it through ``pay.value`` and moves it in
    ``on_purchase``)."""
    steps: list[PayStep] = []
    hand = p.hand  # read only: what this payment has used so far is counted in `used`
    used: dict[MoneyCard, int] = {}
    n_used = 0
    forgotten = False
    hand_unknown = p.hand_unknown
    pool_used: dict[MoneyCard, int] = {}
    for cref in paid:
        cpos = getattr(cref, "pos", pos) or pos
        if isinstance(cref, _COMPONENT_REF):
            steps.append(PayStep("module", None, cref, cpos))
            continue
        if not isinstance(cref, _CARD_REF):
            steps.append(PayStep("other", None, cref, cpos))
            continue
        c = cref.card
        if c is None:
            left = 0 if forgotten else hand.total() - n_used
            if hand_unknown > 0:
                hand_unknown -= 1
                steps.append(PayStep("unknown", None, cref, cpos))
            elif left > 0:
                hand_unknown = left - 1
                forgotten = True
                steps.append(PayStep("forget", None, cref, cpos))
            else:
                steps.append(PayStep("missing", None, cref, cpos))
            continue
        if not forgotten and hand[c] - used.get(c, 0) > 0:
            used[c] = used.get(c, 0) + 1
            n_used += 1
            steps.append(PayStep("hand", c, cref, cpos))
        elif hand_unknown > 0 and state.pool[c] - pool_used.get(c, 0) > 0:
            hand_unknown -= 1
            pool_used[c] = pool_used.get(c, 0) + 1
            steps.append(PayStep("resolve", c, cref, cpos))
        else:
            steps.append(PayStep("missing", c, cref, cpos))
    return steps


def allowed_currencies(ctx: Context, buy: Purchase | Payment) -> frozenset[Currency]:
    """The currencies that may pay (decision ``pay.currencies``), asked once per purchase."""
    if buy.field is None:
        return frozenset()
    if buy.allowed is None:
        buy.allowed = frozenset(
            ctx.decide(Decision.PAY_CURRENCIES, player=buy.player, field=buy.field, purchase=buy)
        )
    return buy.allowed


def counted_cards(ctx: Context, buy: Purchase | Payment) -> list[MoneyCard]:
    """The known cards that count towards the price: of an allowed currency, or of the field's
    own currency (a module that bars even that one reports it under its own rule, and the
    payment still counts what was laid down)."""
    if buy.field is None:
        return list(buy.cards_paid)
    allowed = allowed_currencies(ctx, buy)
    return [c for c in buy.cards_paid if c.currency in allowed or c.currency is buy.field]


# findings that already say why a payment falls short: a card of a currency the field does
# not take (it does not count), a diamond mixed with another currency
_PAID_WRONG: Final = frozenset({"BUY-CURRENCY", "DIAMOND-MIX"})


def payment_value(ctx: Context, buy: Purchase | Payment) -> int:
    """What the payment counts for (decision ``pay.value``), asked once per purchase."""
    if buy.value is None:
        buy.value = int(
            ctx.decide(
                Decision.PAY_VALUE, player=buy.player, purchase=buy, counted=counted_cards(ctx, buy)
            )
        )
    return buy.value


def overpaid(ctx: Context, buy: Purchase | Payment) -> int | None:
    """How much a purchase overpaid ("überzahlt"): what the payment counts for (``pay.value``)
    less the price, 0 when the purchase was exact (``pay.exact``: e.g. a treasure makes it so)
    or short; None when the price or the payment is not known. The one definition every
    reaction to an overpayment uses (change, a stored certificate), so they agree when they
    happen together."""
    if buy.price is None or buy.unknown_paid:
        return None
    total = payment_value(ctx, buy)
    exact = ctx.decide(
        Decision.PAY_EXACT, player=buy.player, purchase=buy, value=total, price=buy.price
    )
    return 0 if exact else max(0, total - buy.price)


_BUYING: Final = Text("ACTION/buying")


def purchase_findings(ctx: Context, buy: Purchase) -> list[Finding]:
    """The check of a purchase (pure)."""
    state = ctx.state
    p, a = buy.player, buy.action
    out = main_action_findings(state, a.pos, p, _BUYING)
    out.extend(buy.locate)
    allowed = allowed_currencies(ctx, buy)
    out.extend(ctx.decide(Decision.PAY_PROBLEMS, player=p, purchase=buy))

    def wrong_currency(c: MoneyCard, pos: Pos) -> Finding | None:
        # the base rule asks for the field's currency; a module that bars even that currency
        # (diamonds "dürfen nicht mit anderen Währungen kombiniert werden") reports it itself
        if buy.field is not None and c.currency not in allowed and c.currency is not buy.field:
            return problem("BUY-CURRENCY", pos, p.name, card=c.code, currency=buy.field.code)
        return None

    out.extend(card_findings(ctx, p, buy.steps, wrong_currency))
    price = buy.price
    offer = buy.offer
    if offer is not None and price is None:
        if not any(f.code == offer.rule for f in out):  # the module said why (one finding)
            out.append(problem(offer.rule, a.pos, p.name, reason="no-price", tile=fmt_ref(a.tile)))
        return out
    if offer is not None and offer.exact_only and not buy.unknown_paid and price is not None:
        total = payment_value(ctx, buy)
        if not ctx.decide(Decision.PAY_EXACT, player=p, purchase=buy, value=total, price=price):
            shown = _payment_text(buy)
            out.append(
                problem(
                    offer.rule,
                    a.pos,
                    p.name,
                    reason="not-exact",
                    tile=fmt_ref(a.tile),
                    price=price,
                    cards=shown,
                    sum=total,
                )
            )
            return out
    if price is None or buy.unknown_paid:
        out.append(unverifiable(a.pos, "UNVERIFIED-PAYMENT-AMOUNT", p.name))
        return out
    total = payment_value(ctx, buy)
    if _paid(state, total, price):
        return out  # paid: nothing to report (the common case; no text is built)
    counted = counted_cards(ctx, buy)
    shown = _payment_text(buy)
    tile_text = fmt_tile(buy.tile) if buy.tile is not None else fmt_ref(a.tile)
    if total < price and any(f.code in _PAID_WRONG for f in out):
        return out  # one mistake, one finding: a card that may not pay is the fault
    if total < price:
        out.append(
            problem(
                "BUY-UNDERPAID", a.pos, p.name, tile=tile_text, price=price, cards=shown, sum=total
            )
        )
    elif total > price and state.profile.overpay_superfluous != "allowed":
        for c in counted:
            if total - c.value >= price:
                out.append(
                    problem(
                        "BUY-SUPERFLUOUS",
                        getattr(c, "pos", a.pos) or a.pos,
                        p.name,
                        severity="warning"
                        if state.profile.overpay_superfluous == "warn"
                        else "error",
                        tile=tile_text,
                        price=price,
                        cards=shown,
                        card=c.code,
                        profile=state.profile.name,
                    )
                )
                break
    return out


def _payment_text(buy: Purchase) -> str:
    """The payment as a finding names it: the cards (unknown ones as ``?``) and the module
    money paid (``mb:Gu``, ``dm:3``): module money is money, so a payment of it alone is never
    "(none)"."""
    shown = fmt_cards([*buy.cards_paid, *([None] * buy.unknown_paid)])
    if buy.modules_paid:
        tokens = " ".join(f"{r.kind}:{r.name}" for r in buy.modules_paid)
        shown = tokens if not buy.cards_paid and not buy.unknown_paid else f"{shown} {tokens}"
    return shown


def card_findings(
    ctx: Context,
    p: PlayerState,
    steps: Sequence[PayStep],
    wrong_currency: Callable[[MoneyCard, Pos], Finding | None],
) -> list[Finding]:
    """The check of a payment's items (pure): each card held (``BUY-NOT-HELD``, the hand as
    the payment goes on), each module component owned by an enabled module, each card's
    currency (``wrong_currency``: the payment's own rule)."""
    state = ctx.state
    out: list[Finding] = []
    # the hand as the payment goes on: copied only when a card is missing or forgotten
    needs_hand = any(s.source in ("missing", "forget") for s in steps)
    hand = p.hand.copy() if needs_hand else p.hand
    hand_unknown = p.hand_unknown
    for step in steps:
        if step.source == "module":
            ref = step.ref
            assert isinstance(ref, ComponentRef)
            if state.ext.kind_handler(ref.kind) is None:
                out.append(unhandled_component_finding(ref, step.pos, p.name))
            continue
        if step.source == "missing" and step.card is None:
            out.append(problem("BUY-NOT-HELD", step.pos, p.name, card="?", hand="empty"))
            continue
        c = step.card
        if c is None:
            if step.source == "unknown":
                hand_unknown -= 1
            elif step.source == "forget":
                hand_unknown = hand.total() - 1
                hand.clear()
            continue
        wrong = wrong_currency(c, step.pos)
        if wrong is not None:
            out.append(wrong)
        if step.source == "hand":
            if needs_hand:
                hand[c] -= 1
        elif step.source == "resolve":
            hand_unknown -= 1
        elif step.source == "missing":
            shown = _hand_text(hand, hand_unknown)
            out.append(problem("BUY-NOT-HELD", step.pos, p.name, card=c.code, hand=shown))
    return out


def _paid(state: GameState, total: int, price: int) -> bool:
    """Whether a payment worth ``total`` pays ``price`` with nothing to report: exact, or more
    when the profile allows superfluous cards ("mindestens den aufgedruckten Preis")."""
    return total == price or (total > price and state.profile.overpay_superfluous == "allowed")


def _hand_text(hand: Counter[MoneyCard], unknown: int) -> str:
    cards: list[MoneyCard | None] = list(hand.elements())
    cards += [None] * unknown
    return fmt_cards(cards) if cards else "empty"


def apply_purchase(ctx: Context, buy: Purchase) -> None:
    """Carry out a purchase as played (no checks)."""
    state = ctx.state
    p, a = buy.player, buy.action
    t = state.turn
    start_main_action(state)
    if buy.offer is not None:
        buy.offer.module.take_side_offer(state, buy.offer.piece)
    elif buy.slot is not None:
        if buy.from_bag and buy.tile is not None:
            take_out_of_bag(state, buy.tile)
        state.market[buy.slot] = EMPTY
    payee = state.player_named(buy.offer.payee) if buy.offer and buy.offer.payee else None
    spend_cards(state, p, buy.steps, payee)
    # every enabled module's on_purchase, in module order; only those whose class overrides it
    # are called (the default does nothing)
    for m in state.ext.overriding("on_purchase"):
        m.on_purchase(ctx, buy)
    if t is None:
        return
    if buy.offer is None or buy.offer.placed:  # a side offer may be no building (E15)
        t.pending.append(buy.tile)
    if buy.price is None or buy.unknown_paid:
        turn_goes_on_unsure(state, Text("ACTION/unknown-payment"))
        return
    total = payment_value(ctx, buy)
    exact = bool(
        ctx.decide(Decision.PAY_EXACT, player=p, purchase=buy, value=total, price=buy.price)
    )
    if not exact or not ctx.decide(Decision.TURN_EXTRA_ACTION, player=p, purchase=buy):
        end_main_action(state, _paying(total, buy.tile, a, buy.price))


def spend_cards(
    state: GameState, p: PlayerState, steps: Sequence[PayStep], to: PlayerState | None = None
) -> None:
    """Stage "spent" for the cards of a payment: they leave ``p``'s hand for the discard pile
    (an unknown card as an unknown one; module components are their modules'), or for the hand
    of ``to``, the player paid (E30: a building bought from another player's market)."""
    for step in steps:
        c = step.card
        if step.source == "unknown":
            p.hand_unknown -= 1
            _receive(state, to, None)
        elif step.source == "forget":
            p.hand_unknown = p.hand.total() - 1
            state.pool.update(p.hand)
            p.hand.clear()
            _receive(state, to, None)
        elif step.source == "hand" and c is not None:
            decrement(p.hand, c)
            _receive(state, to, c)
        elif step.source == "resolve" and c is not None:
            p.hand_unknown -= 1
            decrement(state.pool, c)
            _receive(state, to, c)


def _receive(state: GameState, to: PlayerState | None, card: MoneyCard | None) -> None:
    """A spent card (None: one the record does not name) to the discard pile or into the hand
    of the player paid."""
    if to is None:
        if card is None:
            state.discard_unknown += 1
        else:
            state.discard[card] += 1
    elif card is None:
        to.hand_unknown += 1
    else:
        to.hand[card] += 1


def _paying(total: int, tile: HeldPiece, a: Buy, price: int) -> Text:
    """What ended the turn's main actions: a payment that was not exact (a phrase is a value:
    one per catalogue tile, price and total)."""
    if type(tile) is not TileKind:  # unknown, or a module's piece
        tile_text = fmt_tile(tile) if tile is not None else fmt_ref(a.tile)
        return Text("ACTION/paying", total=total, tile=tile_text, price=price)
    key = (total, tile, price)
    phrase = _PAYING.get(key)
    if phrase is None:
        phrase = Text("ACTION/paying", total=total, tile=fmt_tile(tile), price=price)
        if len(_PAYING) < 4096:
            _PAYING[key] = phrase
    return phrase


_PAYING: Final[dict[tuple[int, TileKind, int], Text]] = {}


def _plain_terms(
    state: GameState, p: PlayerState, idx: int, printed: int
) -> tuple[int, frozenset[Currency], bool]:
    """The base layer's answers for buying a tile printed at ``printed`` from market field
    ``idx`` in a plain purchase: (price, currencies that may pay, whether the purchase has
    problems of its own). Kept per profile (:attr:`Ruleset.memo`): the enabled modules leave
    the purchase alone (:func:`_modules_leave_purchases`) and the base answers read only these
    values."""
    rules = state.rules
    key = ("pay.plain", idx, printed)
    terms: tuple[int, frozenset[Currency], bool] | None = rules.memo.get(key)
    if terms is None:
        answer = rules.base_answer
        ctx = Context(state)
        terms = rules.memo[key] = (
            int(answer[Decision.PAY_PRICE](ctx, player=p, purchase=None, printed=printed)),
            answer[Decision.PAY_CURRENCIES](ctx, player=p, field=_CURRENCIES[idx], purchase=None),
            bool(answer[Decision.PAY_PROBLEMS](ctx, player=p, purchase=None)),
        )
    return terms


_PLAIN_DECISIONS: Final = frozenset(
    {
        Decision.PAY_PRICE,
        Decision.PAY_CURRENCIES,
        Decision.PAY_PROBLEMS,
        Decision.PAY_VALUE,
        Decision.PAY_EXACT,
        Decision.TURN_EXTRA_ACTION,
    }
)
"""The decisions the one-pass purchase asks (with ``purchase=None``)."""


_ON_PURCHASE: Final = ("on_purchase",)


def _modules_leave_purchases(state: GameState, p: PlayerState, idx: int) -> bool:
    """Whether the enabled modules leave ``p``'s plain purchase from market field ``idx`` (a
    catalogue tile, paid with money cards of the hand) as the base game has it: each module that
    refines a decision the purchase asks or hears of purchases (``on_purchase``) says so now
    (:meth:`~referee.engine.extensions.Module.leaves_plain_purchase`). Then the one-pass
    path gives what the pipeline gives, as in a game without modules. Which modules are asked
    is derived once per game from their classes (their ``@refines`` marks and overridden
    hooks), so a module that takes no part in purchases needs nothing; nor is one asked whose
    class promises a yes to every plain purchase
    (:attr:`~referee.engine.extensions.Module.leaves_plain_purchases`:
    ``Extensions.purchase_askers``)."""
    for m in state.ext.purchase_askers():  # noqa: SIM110 - a loop, not all() (cheaper)
        if not m.leaves_plain_purchase(state, p, idx):
            return False
    return True


def purchase_plain(state: GameState, p: PlayerState, a: Buy, check: bool) -> bool:
    """The common purchase of a game without modules in one pass: a known tile on a market
    field, paid with known cards of the hand in allowed currencies, nothing to report.
    Anything else returns False with nothing changed: then :func:`plan_purchase`,
    :func:`purchase_findings` and :func:`apply_purchase` run (they write the findings, and the
    modules' hooks see the :class:`Purchase`). The result is the same as theirs.

    Every rule question goes to the game's ruleset's base layer (``Ruleset.base_answer``):
    with no module enabled, or every module that refines a purchase decision or hears of
    purchases leaving this one alone (:meth:`Module.leaves_plain_purchase`), the answers are
    the base layer's, which reads neither ``purchase`` (none is built: ``purchase=None``) nor
    a context (:class:`BaseRules`: ``ctx=None``)."""
    t = state.turn
    if t is None or (check and (t.over or t.placing)):
        return False
    ref = a.tile
    market = state.market
    tile: Any
    if type(ref) is _TILE_REF and ref.type is not None:
        idx = match_slot(ref, market) if a.field is None else _CURRENCIES.index(a.field)
        if idx is None:
            return False
        tile = market[idx]
        if type(tile) is not TileKind or tile not in ref.candidates:
            return False
        # (``Extensions.leave_askers`` ``()``: no module is asked, so no call; None: not known
        # yet, the first purchase's call works it out)
        if (
            state.ext.modules
            and state.ext.leave_askers != ()
            and not _modules_leave_purchases(state, p, idx)
        ):
            return False
    elif type(ref) is _COMPONENT_REF and state.ext.modules:  # a module's piece on a field
        owner = state.ext.kind_handler(ref.kind)
        if owner is not None and owner.plain_side_offers and match_slot(ref, market) is None:
            return _purchase_side_offer(state, p, a, ref, owner, check)  # a piece beside it
        idx = _plain_piece_field(state, p, a, ref)
        if idx is None:
            return False
        tile = market[idx]
    elif type(ref) is _TILE_REF and a.field is not None and state.ext.modules:
        # ``buy Gu ?``: the unknown tile on a named field, which the pipeline takes to be what
        # lies there (no finding); one pass for a module's piece as when its token names it
        idx = _unnamed_piece_field(state, p, a.field)
        if idx is None:
            return False
        tile = market[idx]
    else:
        return False
    hand = p.hand
    cards: list[MoneyCard] = []
    total = 0  # the base layer's PAY_VALUE (BaseRules.pay_value, never refined here): the sum
    for cref in a.paid:
        c = cref.card if type(cref) is _CARD_REF else None
        if c is None or hand.get(c, 0) <= cards.count(c):
            if type(cref) is _COMPONENT_REF and state.ext.modules:
                return _purchase_with_components(state, p, a, idx, tile, check)
            return False
        cards.append(c)
        total += c.value
    rules = state.rules
    terms = rules.memo.get(("pay.plain", idx, tile.price))  # _plain_terms' memo, read inline
    if terms is None:
        terms = _plain_terms(state, p, idx, tile.price)
    price, allowed, troubled = terms
    # modules reacting to the purchase (``after_plain_purchase``) see what the pipeline counts
    hooked = state.ext.after_plain  # kept per game (``Extensions.after_plain``; () without modules)
    if check or hooked:
        if troubled:
            return False
        field = _CURRENCIES[idx]
        for c in cards:
            if c.currency not in allowed and c.currency is not field:
                return False
    if check and total != price and not _paid(state, total, price):
        return False
    t.main_actions += 1  # start_main_action(state)
    market[idx] = _EMPTY
    discard = state.discard
    for c in cards:
        n = hand[c] - 1  # decrement(hand, c), inline (the card is in the hand)
        if n:
            hand[c] = n
        else:
            dict.__delitem__(hand, c)
        discard[c] = discard.get(c, 0) + 1
    if hooked:  # stage "spent": each module reacting to it hears of it, in module order
        # (a module naming the building types it hears of, Module.plain_purchase_types, is
        # not told of another piece; the purchase's record is made for the first one told)
        kind = getattr(tile, "type", None)
        buy: PlainPurchase | None = None
        for m in hooked:
            types = m.plain_purchase_types
            if types is not None and kind not in types:
                continue
            if buy is None:
                exact: bool | None = rules.memo.get(("pay.exact", total, price))
                if exact is None:
                    exact = _exact(state, p, total, price)
                buy = PlainPurchase(
                    p, a, idx, tile, _CURRENCIES[idx], tuple(cards), allowed, price, total, exact
                )
            m.after_plain_purchase(state, buy)
    t.pending.append(tile)
    memo = rules.memo
    key = ("pay.goes-on", total, price)  # exact, and an exact payment gives another action
    goes_on: bool | None = memo.get(key)
    if goes_on is None:
        answer = rules.base_answer
        goes_on = memo[key] = bool(
            answer[Decision.PAY_EXACT](None, player=p, purchase=None, value=total, price=price)
        ) and bool(answer[Decision.TURN_EXTRA_ACTION](None, player=p, purchase=None))
    if not goes_on:  # end_main_action(state, ...), inline
        t.over = True
        t.unsure = False
        t.over_after = _paying(total, tile, a, price)
    return True


def _plain_piece_field(state: GameState, p: PlayerState, a: Buy, ref: ComponentRef) -> int | None:
    """The market field (0-3) of the module's piece that ``a`` buys, when :func:`purchase_plain`
    may buy it as a catalogue tile: its module promises that its pieces on a market field are
    bought so (:attr:`~referee.engine.extensions.Module.plain_market_pieces`: at their
    ``price``, its purchase refinements and ``on_purchase`` leaving the purchase alone, the
    piece placed as a tile is), every other module taking part in purchases promises to leave
    a purchase naming none of its components alone (``purchases_by_components``) or hears of
    it as of a plain one (``hears_component_purchases``), and each of them leaves this one
    alone now (``leaves_plain_purchase``). Else None (the pipeline runs)."""
    ext = state.ext
    owner = ext.kind_handler(ref.kind)
    if owner is None or not owner.plain_market_pieces:
        return None
    market = state.market
    if a.field is None:
        idx = match_slot(ref, market)
        if idx is None:
            return None  # (a piece beside the market, or none: the pipeline)
    else:
        idx = _CURRENCIES.index(a.field)
        if match_slot(ref, (market[idx],)) is None:
            return None  # BUY-FIELD, BUY-NOT-IN-MARKET
    return _others_leave_piece(state, p, idx, owner)


def _unnamed_piece_field(state: GameState, p: PlayerState, field: Currency) -> int | None:
    """:func:`_plain_piece_field` for the unknown tile ``?`` bought from the named market field
    ``field`` (``buy Gu ? pay Gu7 co:Gu``): the pipeline takes the piece lying there, as a
    token naming it would find it (no finding either way), so when it is a module's piece the
    same promises let the one-pass path buy it (a catalogue tile or an unknown one there: the
    pipeline). The modules' purchase refinements and hooks read the piece, never the line's
    token (``purchases_by_components``, ``plain_market_pieces``)."""
    idx = field.field - 1
    piece = state.market[idx]
    if piece is None or piece is _EMPTY or type(piece) is TileKind:
        return None
    kind = getattr(piece, "KIND", None)
    if type(kind) is not str:
        return None
    owner = state.ext.kind_handler(kind)
    if owner is None or not owner.plain_market_pieces:
        return None
    return _others_leave_piece(state, p, idx, owner)


def _others_leave_piece(state: GameState, p: PlayerState, idx: int, owner: Any) -> int | None:
    """``idx`` when the module's piece on market field ``idx`` (of ``owner``, which promises
    :attr:`~referee.engine.extensions.Module.plain_market_pieces`) has a printed price and
    every other module taking part in purchases promises to leave it alone or hear of it and
    leaves it alone now; else None."""
    if type(getattr(state.market[idx], "price", None)) is not int:
        return None
    kept = state.ext.component_purchases()  # (kept per game: Extensions.component_purchases)
    for m in kept[1]:  # a module taking part that promises neither
        if m is not owner:
            return None
    for m in kept[5]:  # (the others promise a yes: leaves_plain_purchases, not asked)
        if not m.leaves_plain_purchase(state, p, idx):
            return None
    return idx


def _purchase_side_offer(
    state: GameState, p: PlayerState, a: Buy, ref: ComponentRef, owner: Any, check: bool
) -> bool:
    """:func:`purchase_plain` for a piece beside the market (E15) of a module that promises
    such purchases plain (:attr:`~referee.engine.extensions.Module.plain_side_offers`): the
    offer the line names among that module's offers (as :func:`find_offer` picks it), bought
    in its currency at its price with known money cards of the hand, in a turn's main action
    (or an out-of-turn line, when the owner takes no part in purchases: no refinement or
    ``on_purchase`` of it can tell one from the other), every other module taking part in
    purchases promising to leave
    it alone (``purchases_by_components``) or hearing of it as of a plain one
    (``hears_component_purchases``: :meth:`after_plain_purchase` with ``slot`` None), nothing
    to report. Else False with nothing changed (the pipeline runs and writes the findings).
    What the pipeline does then, in its order: the module takes the piece
    (``take_side_offer``), the cards go to the discard pile, the hearers hear of it, a piece
    that is a building waits to be placed, and a payment that is not exact (or an exact one
    that gives no other action) ends the turn's main actions."""
    t = state.turn
    assert t is not None
    if t.take_only is not None:
        return False
    if t.interrupt is not None and owner in state.ext.purchase_takers():
        return False  # out of turn: the owner's refinements may tell (Sultan's pay.problems)
    offer = pick_offer(owner.side_offers(state), ref, a.field, a.paid)
    if offer is None or offer.payee is not None or offer.module is not owner:
        return False
    price = offer.price
    field = offer.currency
    if price is None or (a.field is not None and a.field is not field):
        return False  # the offer's rule (no-price), BUY-FIELD
    hand = p.hand
    cards: list[MoneyCard] = []
    total = 0
    for cref in a.paid:
        c = cref.card if type(cref) is _CARD_REF else None
        if c is None or hand.get(c, 0) <= cards.count(c):
            if type(cref) is _COMPONENT_REF:
                return _side_offer_with_components(state, p, a, offer, check)
            return False  # unknown or missing: the pipeline
        cards.append(c)
        total += c.value
    ext = state.ext
    for m in ext.component_purchases()[1]:  # a module taking part that promises neither
        if m is not owner:
            return False
    price, allowed, troubled = _plain_terms(state, p, field.field - 1, price)
    if troubled:
        return False
    for c in cards:
        if c.currency not in allowed and c.currency is not field:
            return False  # BUY-CURRENCY
    rules = state.rules
    exact: bool | None = rules.memo.get(("pay.exact", total, price))
    if exact is None:
        exact = _exact(state, p, total, price)
    if offer.exact_only and not exact:
        return False  # the offer's rule (not-exact)
    if check and total != price and not _paid(state, total, price):
        return False  # BUY-UNDERPAID, BUY-SUPERFLUOUS
    t.main_actions += 1  # start_main_action(state)
    piece = offer.piece
    owner.take_side_offer(state, piece)
    discard = state.discard
    for c in cards:
        decrement(hand, c)
        discard[c] += 1
    hooked = ext.after_plain
    if hooked:
        buy = PlainPurchase(p, a, None, piece, field, tuple(cards), allowed, price, total, exact)
        for m in hooked:
            m.after_plain_purchase(state, buy)
    if offer.placed:
        t.pending.append(piece)
    if not exact or not rules.base_answer[Decision.TURN_EXTRA_ACTION](
        None, player=p, purchase=None
    ):
        t.over = True  # end_main_action(state, ...), inline
        t.unsure = False
        t.over_after = _paying(total, piece, a, price)
    return True


def _split_payment(
    ext: Any, owner: Any, hand: Counter[MoneyCard], a: Buy
) -> tuple[list[MoneyCard], tuple[ComponentRef, ...], int] | None:
    """A component purchase's payment (``a.paid``) split into the money cards of ``hand`` it
    names, the components it names (each of ``owner``'s kind) and the cards' sum; None when a
    component is another module's, a card is unknown (``?``) or not held as often as named
    (the pipeline reports those). Shared by :func:`_purchase_with_components` and
    :func:`_side_offer_with_components`."""
    cards: list[MoneyCard] = []
    refs: list[ComponentRef] = []
    total = 0
    for cref in a.paid:
        if type(cref) is _COMPONENT_REF:
            if ext.kind_handler(cref.kind) is not owner:
                return None
            refs.append(cref)
            continue
        c = cref.card if type(cref) is _CARD_REF else None
        if c is None or hand.get(c, 0) <= cards.count(c):
            return None
        cards.append(c)
        total += c.value
    return cards, tuple(refs), total


def _side_offer_with_components(
    state: GameState, p: PlayerState, a: Buy, offer: SideOffer, check: bool
) -> bool:
    """:func:`_purchase_side_offer` for a piece beside the market paid with money cards of the
    hand and components of the one module owning them (``buy Di bh:TPAG pay Di6 De2
    ex:DiDe``): what :func:`_purchase_with_components` asks of that
    module for a tile on a field, asked for the offer's currency and price, when the module
    promises its answers read the field and the payment, never the piece
    (:attr:`~referee.engine.extensions.Module.plain_components_pieces`) and leaves a purchase
    naming none of its components alone (``purchases_by_components``: its refinements read
    only its own components, and the offer's currency is the purchase's field), and every
    other module taking part in purchases promises the same or to hear of it
    (``hears_component_purchases``). Else False with nothing changed (the pipeline runs). What
    the pipeline does then, in its order: the offer's module takes the piece
    (``take_side_offer``), the cards go to the discard pile, the components' module spends
    them and the hearers hear of it in module order (:func:`_spend_and_hear`), a piece that
    is a building waits to be placed, and a payment that is not exact (or an exact one that
    gives no other action) ends the turn's main actions. An out-of-turn line comes here only
    when the offer's module takes no part in purchases (:func:`_purchase_side_offer`); the
    components' module answers it as :func:`_purchase_with_components` does."""
    ext = state.ext
    kept = ext.component_purchases()  # (kept per game: Extensions.component_purchases)
    if kept[1]:
        return False  # a module taking part that promises neither (the offer's own too)
    plain_hearers = kept[2]
    if len(plain_hearers) > 1:
        return False
    owner = _components_owner(ext, a, kept[0], ())
    if owner is None or owner not in kept[3] or not owner.plain_components_pieces:
        return False
    if plain_hearers and plain_hearers[0] is not owner:
        return False
    price = offer.price
    field = offer.currency
    if price is None or (a.field is not None and a.field is not field):
        return False  # the offer's rule (no-price), BUY-FIELD
    hand = p.hand
    split = _split_payment(ext, owner, hand, a)
    if split is None:
        return False
    cards, refs, total = split
    price, allowed, troubled = _plain_terms(state, p, field.field - 1, price)
    if troubled:
        return False
    components = refs
    paying = allowed
    if owner in kept[4]:  # (an exchange card's two currencies: plain_currencies)
        paying = owner.plain_currencies(state, p, components, field, allowed)
    for c in cards:
        if c.currency not in paying and c.currency is not field:
            return False  # BUY-CURRENCY
    paid = tuple(cards)
    got = owner.plain_components(state, p, components, paid, allowed, price)
    if got is None or len(got) != 2:
        return False  # (an answer naming the price too: a tile's on a field only)
    total += got[0]
    answer = state.rules.base_answer
    exact = got[1] or bool(
        answer[Decision.PAY_EXACT](None, player=p, purchase=None, value=total, price=price)
    )
    if offer.exact_only and not exact:
        return False  # the offer's rule (not-exact)
    if (
        check
        and total != price
        and not _paid(state, total, price)
        and (total < price or any(total - c.value >= price for c in cards))
    ):
        return False  # BUY-UNDERPAID, BUY-SUPERFLUOUS
    t = state.turn
    assert t is not None
    t.main_actions += 1  # start_main_action(state)
    piece = offer.piece
    offer.module.take_side_offer(state, piece)
    discard = state.discard
    for c in cards:
        decrement(hand, c)
        discard[c] += 1
    heard = PlainPurchase(p, a, None, piece, field, paid, paying, price, total, exact)
    got_piece = _spend_and_hear(state, owner, components, heard, ext.after_plain)
    if offer.placed:
        t.pending.append(got_piece)
    if not exact or not answer[Decision.TURN_EXTRA_ACTION](None, player=p, purchase=None):
        t.over = True  # end_main_action(state, ...), inline
        t.unsure = False
        t.over_after = _paying(total, got_piece, a, price)
    return True


def _purchase_with_components(
    state: GameState, p: PlayerState, a: Buy, idx: int, tile: Any, check: bool
) -> bool:
    """:func:`purchase_plain` for a purchase that names components of the one module taking
    part in purchases (e.g. a bribe: money cards and a treasure) beside known money cards of
    the hand: in one pass when that module vouches for the pipeline's answers
    (:meth:`~referee.engine.extensions.Module.plain_components`) and the engine's own checks
    of the payment find nothing; else False with nothing changed (the pipeline runs). When
    that module also hears of plain purchases (``after_plain_purchase``, e.g. change for an
    overpayment paid partly with coins), it hears of this one after
    ``spend_plain_components``, with ``total`` the whole sum (cards and components) and
    ``exact`` as the pipeline decides it; another module hearing of them: the pipeline runs.
    Several modules taking part: the owner of the components answers when every other one
    promises to leave such a purchase alone (:func:`_components_owner`).
    A module whose answer names the price too (``(value, exact, price)``: its ``pay.price``
    refinement lowers it, e.g. a building site's half price) answers ``pay.exact`` outright,
    and the piece ``spend_plain_components`` returns (a site on the tile) waits to be placed
    in the tile's stead, as its ``on_purchase`` would make it. A module whose
    ``pay.currencies`` refinement lets another currency pay (an exchange card) answers it
    first (:meth:`~referee.engine.extensions.Module.plain_currencies`). ``tile`` is a catalogue
    tile, or another module's piece on the field (``_plain_piece_field`` found it) when the
    owner promises its answers for such pieces too
    (:attr:`~referee.engine.extensions.Module.plain_components_pieces`)."""
    ext = state.ext
    # the modules hearing of plain purchases (``after_plain_purchase``): the owner itself
    # (its ``on_purchase``: spend, then the hook) and those that vouch for a purchase naming
    # another module's components (``hears_component_purchases``); any other: declined first
    hooked = ext.after_plain
    kept = ext.component_purchases()  # (kept per game: Extensions.component_purchases)
    plain_hearers = kept[2]
    if len(plain_hearers) > 1:
        return False  # (asked first: cheap, before the payment is walked)
    taking = kept[0]
    if len(taking) == 1:
        owner = taking[0]
    else:  # several take part: the owner, when each other one leaves the purchase alone
        found = _components_owner(ext, a, taking, kept[1])
        if found is None:
            return False
        owner = found
    if owner not in kept[3]:
        return False  # (no answer to ask: e.g. Wechselscheine's certificates)
    if plain_hearers and plain_hearers[0] is not owner:
        return False
    if type(tile) is not TileKind and not owner.plain_components_pieces:
        return False  # another module's piece: only an owner promising its answers for it
    hand = p.hand
    split = _split_payment(ext, owner, hand, a)
    if split is None:
        return False
    cards, refs, total = split
    price, allowed, troubled = _plain_terms(state, p, idx, tile.price)
    if troubled:
        return False
    field = _CURRENCIES[idx]
    components = refs
    paying = allowed  # ``pay.currencies`` as the pipeline answers it (the base layer's: asked)
    if owner in kept[4]:  # (e.g. an exchange card's two currencies: plain_currencies)
        paying = owner.plain_currencies(state, p, components, field, allowed)
    for c in cards:
        if c.currency not in paying and c.currency is not field:
            return False
    paid = tuple(cards)
    got = owner.plain_components(state, p, components, paid, allowed, price)
    if got is None:
        return False
    total += got[0]
    answer = state.rules.base_answer
    if len(got) == 3:  # the module answers the price and the exactness outright (a site)
        price = got[2]
    if (
        check
        and total != price
        and not _paid(state, total, price)
        and (total < price or any(total - c.value >= price for c in cards))
    ):
        return False  # BUY-UNDERPAID, BUY-SUPERFLUOUS
    exact = got[1] or (
        len(got) == 2
        and bool(
            answer[Decision.PAY_EXACT](None, player=p, purchase=None, value=total, price=price)
        )
    )
    t = state.turn
    assert t is not None
    t.main_actions += 1  # start_main_action(state)
    state.market[idx] = _EMPTY
    discard = state.discard
    for c in cards:
        decrement(hand, c)
        discard[c] += 1
    if len(hooked) > 1 or (hooked and hooked[0] is not owner):  # others hear of it too
        heard = PlainPurchase(p, a, idx, tile, field, paid, paying, price, total, exact)
        piece = _spend_and_hear(state, owner, components, heard, hooked)
    else:
        piece = owner.spend_plain_components(state, p, components, a, tile)
        if piece is None:
            piece = tile  # (else what waits to be placed in its stead: a building site on it)
        if hooked:  # the owner's on_purchase, second half: as for a plain purchase of this sum
            owner.after_plain_purchase(
                state, PlainPurchase(p, a, idx, tile, field, paid, paying, price, total, exact)
            )
    t.pending.append(piece)
    if not exact or not answer[Decision.TURN_EXTRA_ACTION](None, player=p, purchase=None):
        t.over = True  # end_main_action(state, ...), inline
        t.unsure = False
        t.over_after = _paying(total, piece, a, price)
    return True


def _spend_and_hear(
    state: GameState,
    owner: Any,
    components: tuple[ComponentRef, ...],
    heard: PlainPurchase,
    hooked: tuple[Any, ...],
) -> HeldPiece:
    """Stage "spent" of a one-pass purchase with ``owner``'s components that modules hear of:
    what the pipeline's ``on_purchase`` calls do, in module order. The owner's components go
    where they go (``spend_plain_components``) at the owner's place in that order, and the
    owner, when it hears of plain purchases, hears of this one right after (the two halves of
    its ``on_purchase``). Each other module hearing of it (its promise:
    :attr:`~referee.engine.extensions.Module.hears_component_purchases`) hears at its own
    place, with the tile as its ``on_purchase`` would find it there: the catalogue tile before
    the owner's place, the piece the owner put in its stead (a building site) after it.
    Returns what waits to be placed."""
    modules = state.ext.modules
    at = modules.index(owner)
    tile = heard.tile
    piece: HeldPiece = None
    spent = False
    for m in hooked:
        if not spent and (m is owner or modules.index(m) > at):
            piece = owner.spend_plain_components(
                state, heard.player, components, heard.action, tile
            )
            spent = True
            if m is owner:  # the second half of its on_purchase (of the tile bought, as alone)
                owner.after_plain_purchase(state, heard)
            if piece is not None:  # the modules after it find the piece where the tile was
                heard = PlainPurchase(
                    heard.player,
                    heard.action,
                    heard.slot,
                    piece,
                    heard.field,
                    heard.cards,
                    heard.allowed,
                    heard.price,
                    heard.total,
                    heard.exact,
                )
            if m is owner:
                continue
        m.after_plain_purchase(state, heard)
    if not spent:
        piece = owner.spend_plain_components(state, heard.player, components, heard.action, tile)
    return tile if piece is None else piece


def _components_owner(
    ext: Any, a: Buy, taking: tuple[Any, ...], unpromising: tuple[Any, ...]
) -> Any:
    """The module owning the first component a purchase names, when several modules take part
    in purchases and every other one promises to leave a purchase that names none of its
    components alone (:attr:`~referee.engine.extensions.Module.purchases_by_components`: its
    purchase refinements return what they get, its ``on_purchase`` does nothing) or to hear of
    it (``hears_component_purchases``); else None (the pipeline runs). ``unpromising``: the
    modules of ``taking`` that promise neither (kept per game:
    ``Extensions.component_purchases``). What the owner then answers (``plain_components``)
    reads the base layer's answers, as when it takes part alone."""
    for cref in a.paid:
        if type(cref) is ComponentRef:
            owner = ext.kind_handler(cref.kind)
            break
    else:
        return None
    if owner is None or owner not in taking:
        return None
    for m in unpromising:
        if m is not owner:
            return None
    return owner


def _exact(state: GameState, p: PlayerState, total: int, price: int) -> bool:
    """The base layer's ``pay.exact`` for a payment of ``total`` for ``price`` (kept per
    profile: :attr:`Ruleset.memo`, key ``("pay.exact", total, price)``)."""
    rules = state.rules
    exact = rules.memo[("pay.exact", total, price)] = bool(
        rules.base_answer[Decision.PAY_EXACT](
            None, player=p, purchase=None, value=total, price=price
        )
    )
    return exact


# ----------------------------------------------------------------------------- payment search


def payments(
    hand: Sequence[_Item], currencies: frozenset[Currency], price: int, exact_only: bool = False
) -> Iterator[tuple[_Item, ...]]:
    """Every way to pay ``price`` from ``hand`` in the given currencies with no superfluous
    card ("keine überflüssige Karte"): sets reaching the price from which no card can be left
    out. Exact payments first. Each distinct multiset once. The items are money cards or a
    module's stand-ins (:class:`PayItem`); each payment is a tuple of the items given."""
    usable = sorted((c for c in hand if c.currency in currencies), key=lambda c: c.sort_key)
    seen: set[tuple[_Item, ...]] = set()
    found: list[tuple[int, tuple[_Item, ...]]] = []
    for k in range(1, len(usable) + 1):
        for combo in combinations(usable, k):
            if combo in seen:
                continue
            seen.add(combo)
            total = sum(c.value for c in combo)
            if total < price:
                continue
            if any(total - c.value >= price for c in combo):
                continue  # a superfluous card
            if exact_only and total != price:
                continue
            found.append((total - price, combo))
    found.sort(key=lambda x: (x[0], len(x[1])))
    for _, combo in found:
        yield combo


__all__ = [
    "PayItem",
    "PayStep",
    "PlainPurchase",
    "Purchase",
    "allowed_currencies",
    "apply_purchase",
    "card_findings",
    "counted_cards",
    "fmt_hand",
    "overpaid",
    "pay_sources",
    "payment_value",
    "payments",
    "plan_purchase",
    "purchase_findings",
    "spend_cards",
]
