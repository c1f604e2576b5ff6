"""A test-only module (never bundled): arcades may be built with walls that do not match.

It exists to show that a module relaxes a base building rule through the ruleset without any
edit elsewhere: one folder, one refinement of ``place.problems`` for one piece kind.
"""

from __future__ import annotations

from typing import Any

from referee.catalogue import BuildingType
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.engine.ruleset import Decision, refines

register_rule(
    Rule(
        "OPENGATE-DEMO",
        "open gate (test module)",
        "offenes Tor (Testmodul)",
        "tests/plugins/opengate",
        "{player}: the open gate demo rule",
        "{player}: die Demoregel des offenen Tors",
    )
)


@register_module
class OpenGate(Module):
    name = "opengate"

    @refines(Decision.PLACE_PROBLEMS)
    def arcades_ignore_walls(
        self, ctx: Any, problems: list[Any], *, piece: Any, **_: Any
    ) -> list[Any]:
        if getattr(piece, "type", None) is BuildingType.ARCADES:
            return [p for p in problems if p.code != "PLACE-WALL"]
        return problems
