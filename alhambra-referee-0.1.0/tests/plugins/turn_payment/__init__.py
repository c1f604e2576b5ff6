"""A test-only module (never bundled): a payment of "at least 8 in any mix".

Modelled on Die Schatzkammer (rulebook-bigbox-de-2019.txt § DIE SCHATZKAMMER): "Er muss dafür
mindestens 8 bezahlen, und zwar in beliebiger Kombination der Währungen ... passendes Bezahlen
bringt keine Zusatzaktion" -- ``chests pay <cards>`` is a main action paid through the engine's
payment service (no market tile); it always ends the turn's main actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.payment import Mix, PaymentTerms, pay
from referee.messages import Text

SOURCE = "rulebook-bigbox-de-2019.txt § DIE SCHATZKAMMER (test module turnpayment)"
TERMS = PaymentTerms(8, "4 chests", mix=Mix.ANY, source=SOURCE)


@dataclass
class Bought:
    by: list[tuple[str, bool]] = field(default_factory=list)  # (player, exact)

    def copy(self) -> Bought:
        return Bought(list(self.by))


@register_module
class TurnPayment(Module):
    name = "turnpayment"
    verbs = ("chests",)

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        ctx = Context(state, action.pos)
        ctx.main_action(action.pos, player, Text("ACTION/buying"))
        args = [a.value for a in action.args]
        if args and isinstance(args[0], str) and args[0].lower() == "pay":
            args = args[1:]
        _, exact = pay(ctx, player, args, TERMS, action.pos)
        data: Bought = state.modules.setdefault(self.name, Bought())
        data.by.append((player.name, exact))
        ctx.end_main_action(Text("ACTION/buying"))  # never an extra action
        return []
