"""The payment service: "pay at least N" without a market tile.

A module asks for a payment with :class:`PaymentTerms`: how much ("mindestens"), in which
currencies (the one currency named, like a market field; any one currency, "in einer
Währung"; or any combination, "in beliebiger Kombination der Währungen"), whether it must be
exact, and whether module money (diamonds, coins, certificates ...) may pay. It runs the same
stages as a market purchase (:mod:`referee.engine.actions.purchase`), with the same codes:

1. **sources**: :func:`~referee.engine.actions.purchase.pay_sources` (hand cards, unknown
   cards, module components);
2. **currencies**: ``BUY-CURRENCY``-like checks per the terms (``PAY-CURRENCY``,
   ``PAY-ONE-CURRENCY``), and the modules' own payment rules (decision ``pay.problems``);
3. **value and exactness**: decision ``pay.value`` (what module money adds), ``BUY-UNDERPAID``,
   ``PAY-NOT-EXACT``, ``BUY-SUPERFLUOUS`` (the profile's rule on superfluous cards), decision
   ``pay.exact``;
4. **spent**: the cards go to the discard pile; module components where their module puts them
   (``Module.on_purchase``).

:func:`plan_payment` resolves what the record names (pure), :func:`payment_findings` checks it
(pure), :func:`apply_payment` carries it out (no checks). The plan is a
:class:`Payment`: a purchase's record without a tile (``Payment.terms`` set), so every
module rule on payments (``pay.value``, ``pay.problems``, ``on_purchase``) applies to it
unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from enum import StrEnum

from referee.catalogue import Currency, MoneyCard, TileKind
from referee.engine.actions.purchase import (
    PayStep,
    _paid,
    card_findings,
    overpaid,
    pay_sources,
    payment_value,
    spend_cards,
)
from referee.engine.context import Context
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.fmt import fmt_cards
from referee.engine.market_side import SideOffer
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.engine.ruleset import Decision
from referee.engine.state import PlayerState  # at run time: compiled, Payment looks it up
from referee.record.model import Buy, ComponentRef, Pos, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Mix(StrEnum):
    """Which currencies may pay."""

    FIELD = "field"  # the terms' currency (and what modules allow for it), like a market field
    ONE = "one"  # any one currency, every card of it ("in einer Währung")
    ANY = "any"  # any combination ("in beliebiger Kombination der Währungen")


@dataclass(frozen=True, slots=True)
class PaymentTerms:
    """What a payment must be."""

    amount: int  # at least this much ("mindestens")
    what: Any  # what is paid for, as findings name it (a tile, "chests", "a bid of 8")
    currency: Currency | None = None  # Mix.FIELD: the currency asked
    mix: Mix = Mix.FIELD
    exact: bool = False  # must be exactly ``amount`` (``PAY-NOT-EXACT``)
    superfluous: bool = True  # the profile's rule on superfluous cards applies
    components: bool = True  # module money (diamonds, coins, certificates ...) may pay
    source: str = ""  # the rule section that asks for the payment (named in PAY-* findings)
    payee: str | None = None  # the player who receives the money cards (None: the discard)


_NO_TILE = TileRef(None, None, None, ())


@dataclass(slots=True)
class Payment:
    """A payment planned against the state: a purchase without a tile. Its own record with
    :class:`~referee.engine.actions.purchase.Purchase`'s fields (same names, order and
    defaults) and ``terms``, not a subclass of it, so that each can be a native class of the
    compiled build (a native class cannot derive from a Python one); the purchase stages a
    payment goes through take either (``Purchase | Payment``)."""

    player: PlayerState
    action: Buy
    slot: int | None = None
    tile: TileKind | None = None
    from_bag: bool = False
    price: int | None = None
    field: Currency | None = None
    steps: list[PayStep] = dc_field(default_factory=list)
    locate: list[Finding] = dc_field(default_factory=list)
    allowed: frozenset[Currency] | None = None
    value: int | None = None
    offer: SideOffer | None = None
    terms: PaymentTerms | None = None
    # ``modules_paid`` as last made, and the ``steps`` list it was made from
    _modules: tuple[ComponentRef, ...] = dc_field(default=(), init=False, repr=False, compare=False)
    _modules_of: list[PayStep] | None = dc_field(
        default=None, init=False, repr=False, compare=False
    )

    @property
    def modules_paid(self) -> tuple[ComponentRef, ...]:
        """Module components named in the payment (made once for the payment's ``steps``)."""
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

    @property
    def total_known(self) -> bool:
        return self.unknown_paid == 0


def _rule(code: str, name_en: str, name_de: str, msg_en: str, msg_de: str) -> None:
    register_rule(
        Rule(
            code,
            name_en,
            name_de,
            f"{BIGBOX}: a payment a module asks for (its section is named in the message)",
            msg_en,
            msg_de,
        )
    )


_rule(
    "PAY-CURRENCY",
    "wrong currency",
    "falsche Währung",
    "{card} is not {currency}: {what} is paid in {currency} ({source})",
    "{card} ist kein {currency}: {what} wird in {currency} bezahlt ({source})",
)
_rule(
    "PAY-ONE-CURRENCY",
    "one currency",
    "eine Währung",
    "{card} is not {currency} like the cards before it: {what} is paid in one currency ({source})",
    "{card} ist nicht {currency} wie die Karten davor: {what} wird in einer Währung bezahlt "
    "({source})",
)
_rule(
    "PAY-NOT-EXACT",
    "not exact",
    "nicht passend",
    "{what} is paid exactly {price}, but the payment ({cards}) comes to {sum} ({source})",
    "{what} wird genau passend mit {price} bezahlt, die Zahlung ({cards}) ergibt aber {sum} "
    "({source})",
)
_rule(
    "PAY-SOURCE",
    "no module money",
    "kein Modulgeld",
    "{token} may not pay for {what}: only money cards do ({source})",
    "{token} darf {what} nicht bezahlen: nur Geldkarten ({source})",
)


def plan_payment(
    ctx: Context,
    player: PlayerState,
    paid: Sequence[object],
    terms: PaymentTerms,
    pos: Pos,
) -> Payment:
    """Resolve a payment against the state (nothing is changed)."""
    field = terms.currency if terms.mix is Mix.FIELD else None
    tile = terms.what if isinstance(terms.what, TileRef) else _NO_TILE  # what is paid for
    pay = Payment(player, Buy(field, tile, tuple(paid), pos))  # type: ignore[arg-type]
    pay.field = field
    pay.price = terms.amount
    pay.terms = terms
    pay.steps = pay_sources(ctx.state, player, paid, pos)
    return pay


def payment_findings(ctx: Context, pay: Payment) -> list[Finding]:
    """The check of a payment (pure)."""
    terms = pay.terms
    assert terms is not None
    p = pay.player
    pos = pay.action.pos
    out: list[Finding] = []
    if not terms.components:
        for ref in pay.modules_paid:
            token = f"{ref.kind}:{ref.name}"
            out.append(
                problem(
                    "PAY-SOURCE",
                    ref.pos or pos,
                    p.name,
                    token=token,
                    what=terms.what,
                    source=terms.source,
                )
            )
    out.extend(ctx.decide(Decision.PAY_PROBLEMS, player=p, purchase=pay))
    first: list[MoneyCard] = []
    one: set[Currency] = set()  # Mix.ONE: the currencies that count as the first card's
    allowed = (
        frozenset(ctx.decide(Decision.PAY_CURRENCIES, player=p, field=pay.field, purchase=pay))
        if pay.field is not None
        else frozenset()
    )

    def wrong_currency(c: MoneyCard, cpos: Pos) -> Finding | None:
        if terms.mix is Mix.FIELD and pay.field is not None:
            if c.currency not in allowed and c.currency is not pay.field:
                return problem(
                    "PAY-CURRENCY",
                    cpos,
                    p.name,
                    card=c.code,
                    currency=pay.field.code,
                    what=terms.what,
                    source=terms.source,
                )
        elif terms.mix is Mix.ONE:
            if not first:
                first.append(c)
                if terms.components:  # module money may pay: what a module allows with the
                    # first card's currency counts as that one currency (an exchange card:
                    # "eine Wechselstubenkarte darf genutzt werden", Charaktere L1037-1039)
                    one.update(
                        ctx.decide(
                            Decision.PAY_CURRENCIES, player=p, field=c.currency, purchase=pay
                        )
                    )
            elif c.currency is not first[0].currency and c.currency not in one:
                return problem(
                    "PAY-ONE-CURRENCY",
                    cpos,
                    p.name,
                    card=c.code,
                    currency=first[0].currency.code,
                    what=terms.what,
                    source=terms.source,
                )
        return None

    out.extend(card_findings(ctx, p, pay.steps, wrong_currency))
    if pay.unknown_paid:
        out.append(unverifiable(pos, "UNVERIFIED-PAYMENT-AMOUNT", p.name))
        return out
    total = payment_value(ctx, pay)
    price = terms.amount
    shown = fmt_cards(pay.cards_paid) or "-"
    if total < price:
        out.append(
            problem(
                "BUY-UNDERPAID", pos, p.name, tile=terms.what, price=price, cards=shown, sum=total
            )
        )
    elif total > price and terms.exact:
        exact = ctx.decide(Decision.PAY_EXACT, player=p, purchase=pay, value=total, price=price)
        if not exact:
            out.append(
                problem(
                    "PAY-NOT-EXACT",
                    pos,
                    p.name,
                    what=terms.what,
                    price=price,
                    cards=shown,
                    sum=total,
                    source=terms.source,
                )
            )
    elif total > price and terms.superfluous and not _paid(ctx.state, total, price):
        profile = ctx.state.profile
        for c in pay.cards_paid:
            if total - c.value >= price:
                out.append(
                    problem(
                        "BUY-SUPERFLUOUS",
                        pos,
                        p.name,
                        severity="warning" if profile.overpay_superfluous == "warn" else "error",
                        tile=terms.what,
                        price=price,
                        cards=shown,
                        card=c.code,
                        profile=profile.name,
                    )
                )
                break
    return out


def apply_payment(ctx: Context, pay: Payment) -> bool:
    """Carry out a payment (no checks): the cards to the discard pile (or into the hand of the
    terms' ``payee``), module components where their modules put them. Returns whether it was
    exact (decision ``pay.exact``; False when the amount is not known)."""
    state = ctx.state
    payee = pay.terms.payee if pay.terms is not None else None
    spend_cards(state, pay.player, pay.steps, state.player_named(payee) if payee else None)
    for m in state.ext.modules:
        m.on_purchase(ctx, pay)
    if pay.price is None or pay.unknown_paid:
        return False
    return payment_value(ctx, pay) >= pay.price and overpaid(ctx, pay) == 0


def pay(
    ctx: Context, player: PlayerState, paid: Sequence[object], terms: PaymentTerms, pos: Pos
) -> tuple[Payment, bool]:
    """Plan, check (findings reported at ``pos``) and carry out a payment; returns the plan
    and whether it was exact."""
    plan = plan_payment(ctx, player, paid, terms, pos)
    if ctx.state.checking:
        ctx.report(payment_findings(ctx, plan))
    return plan, apply_payment(ctx, plan)


__all__ = [
    "Mix",
    "Payment",
    "PaymentTerms",
    "apply_payment",
    "pay",
    "payment_findings",
    "plan_payment",
]

# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
