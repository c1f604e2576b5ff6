"""A test-only module (never bundled): a player's choice before a scoring.

Modelled on Der Weise of Die Charaktere (rulebook-bigbox-de-2019.txt § DIE CHARAKTERE: "Bei
jeder Wertung zählt der Besitzer ... für eine Gebäudesorte seiner Wahl einen halben Gebäude
mehr"): ``Anna: favour G`` is an out-of-turn line written after the scoring card and before the
``scoring`` line (``Window.BEFORE_SCORING``, once per scoring); at that scoring Anna counts one
building of the type more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.catalogue import BuildingType
from referee.engine.extensions import ActionKind, Module, register_module
from referee.engine.verbs import Arg, Limit, VerbSpec, Window


@dataclass
class Choices:
    chosen: dict[tuple[str, int], BuildingType] = field(default_factory=dict)

    def copy(self) -> Choices:
        return Choices(dict(self.chosen))


@register_module
class TurnChoice(Module):
    name = "turnchoice"
    verb_specs = (
        VerbSpec(
            "favour",
            kind=ActionKind.FREE,
            args=(Arg.WORD,),
            window=Window.BEFORE_SCORING,
            limit=Limit.PER_SCORING,
        ),
    )

    def scratch(self, state: Any) -> Choices:
        return state.modules.setdefault(self.name, Choices())  # type: ignore[no-any-return]

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        word = str(action.args[0].value) if action.args else ""
        kind = next((t for t in BuildingType if t.value == word.upper()), None)
        if kind is not None and state.scoring_pending:
            self.scratch(state).chosen[(player.name, state.scoring_pending[0])] = kind
        return []

    def scoring_parts(self, state: Any, round_no: int) -> Any:
        from referee.scoring import CountAdjustment, ScoringParts

        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for (name, number), kind in self.scratch(state).chosen.items():
            if number == round_no:
                line = CountAdjustment(kind, 1, f"favour {kind.value}", f"Gunst {kind.value}")
                adjustments[name] = (*adjustments.get(name, ()), line)
        return ScoringParts(adjustments)
