"""A test-only module (never bundled): Anna shows 20 more Dukaten at the game end.

It exists to show that a module changes what counts as money in the end-of-game distribution
of the leftover tiles through the ruleset's ``distribution.money`` decision: the checker and
the simulator both follow without any edit elsewhere.
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import Currency
from referee.engine.extensions import Module, register_module
from referee.engine.ruleset import Decision, refines


@register_module
class Hoard(Module):
    name = "hoard"

    @refines(Decision.DISTRIBUTION_MONEY)
    def twenty_more_dukaten_for_anna(
        self, ctx: Any, money: int, *, player: Any, currency: Currency, **_: Any
    ) -> int:
        if currency is Currency.DUKATEN and player.name == "Anna":
            return money + 20
        return money
