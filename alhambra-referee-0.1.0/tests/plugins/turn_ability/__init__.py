"""A test-only module (never bundled): an ability usable once per round at the turn start.

Modelled on Der Händler of Die Charaktere (rulebook-bigbox-de-2019.txt § DIE CHARAKTERE: "darf
... Geld bis zu einem Gesamtwert von 7 nehmen") with a usage symbol "Ein Spieler darf in einer
Runde nur 1 Karte mit [Symbol] nutzen": ``trader`` (a free verb, declared with
``Window.TURN_START`` and ``Limit.PER_ROUND``) lets the player take money up to 7 in that turn.
The option ``holder`` names the one player who holds the card (default: everyone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.engine.extensions import ActionKind, Module, register_module
from referee.engine.ruleset import Decision, refines
from referee.engine.verbs import Arg, Limit, VerbSpec, Window


@dataclass
class Used:
    turns: dict[str, int] = field(default_factory=dict)  # player -> turn of the last use

    def copy(self) -> Used:
        return Used(dict(self.turns))


@register_module
class TurnAbility(Module):
    name = "turnability"
    verb_specs = (
        VerbSpec(
            "trader",
            kind=ActionKind.FREE,
            args=(),
            window=Window.TURN_START,
            limit=Limit.PER_ROUND,
            aliases=("händler",),
        ),
    )
    options: ClassVar[dict[str, tuple[str, tuple[str, ...], str, str]]] = {
        "holder": ("all", ("all", "anna", "ben", "cem"), "who holds the card", "wer die Karte hat")
    }

    def scratch(self, state: Any) -> Used:
        return state.modules.setdefault(self.name, Used())  # type: ignore[no-any-return]

    def holds_ability(self, ctx: Any, player: Any, ability: str) -> bool:
        holder = self.option("holder")
        return holder == "all" or player.key == holder

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        self.scratch(state).turns[player.name] = state.turn.number
        return []

    @refines(Decision.TAKE_LIMIT)
    def up_to_seven(self, ctx: Any, limit: int, *, player: Any, **_: Any) -> int:
        t = ctx.state.turn
        if t is not None and self.scratch(ctx.state).turns.get(player.name) == t.number:
            return 7
        return limit


_ = Arg  # the argument shapes are declared with Arg (none here: `trader` alone)
