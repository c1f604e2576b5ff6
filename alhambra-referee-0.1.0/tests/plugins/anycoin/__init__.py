"""A test-only module (never bundled): Gulden pay for a tile on any market field.

It exists to show that a module changes which currencies may pay through the ruleset's
``pay.currencies`` decision: the checker, the payment search and the legal-move generator all
follow without any edit elsewhere.
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import Currency
from referee.engine.extensions import Module, register_module
from referee.engine.ruleset import Decision, refines


@register_module
class AnyCoin(Module):
    name = "anycoin"

    @refines(Decision.PAY_CURRENCIES)
    def gulden_pay_everywhere(
        self, ctx: Any, allowed: frozenset[Currency], **_: Any
    ) -> frozenset[Currency]:
        return allowed | {Currency.GULDEN}
