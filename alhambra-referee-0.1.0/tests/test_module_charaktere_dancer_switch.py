"""Die Charaktere's switch ``dancer``: what lies on the building the Tänzerin replaces.

Rules (rulebook-bigbox-de-2019.txt): "Die Tänzerin – darf vor dem eigenen Zug ein Gebäude des
Bauhofs gegen ein neues Gebäude (verdeckt aus dem Turm gezogen) austauschen. Das alte Gebäude
wird zurück in den Turm geschoben." (L1094-1098); Die Obstgärten: "Wenn ein Gebäude des
Grundspiels auf den Bauhof gelegt wird, wird sofort eine Frucht aus dem Vorrat gezogen und offen
auf das Gebäudeplättchen gelegt" (L3037-3040).

``dancer=supply`` (the default): the fruit goes back to the supply with the old building, the
new one gets its own (no ``* fruit`` line for it: FRUIT-MISSING). ``dancer=field``: only the
building is exchanged; the fruit stays on the field, on the new building (a ``* fruit`` line for
that field: FRUIT-DRAW ``has-fruit``), and goes to whoever buys the new building.
"""

from __future__ import annotations

import re

import pytest
from test_module_charaktere_dancer_tokens import _game

from referee.engine import check_game
from referee.notation import parse_text


def _around_the_first_dancer(fruit_line: bool, switch: str) -> str:
    """Simulated game (seed 2) up to the turn after its first Tänzerin swap."""
    lines = _game(2).splitlines()
    i = next(i for i, line in enumerate(lines) if re.match(r"^\w+: dancer ", line))
    assert lines[i + 1].startswith("* fruit ")
    nxt = next(j for j in range(i + 1, len(lines)) if re.match(r"^\d+\. ", lines[j]))
    keep = lines[: nxt + 1] if fruit_line else lines[: i + 1] + lines[i + 2 : nxt + 1]
    out = [
        line.replace('"charaktere,', f'"charaktere{switch},')
        if line.startswith("[Modules")
        else line
        for line in keep
    ]
    return "\n".join(out) + "\n"


def _errors(text: str) -> list[tuple[str, str | None]]:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    return [(v.code, v.reason) for v in check_game(game).violations if v.severity == "error"]


@pytest.mark.parametrize("switch", ["", " dancer=supply"])
def test_supply_the_new_building_gets_its_own_fruit(switch: str) -> None:
    assert _errors(_around_the_first_dancer(True, switch)) == []
    assert _errors(_around_the_first_dancer(False, switch)) == [("FRUIT-MISSING", None)]


def test_field_the_fruit_stays_on_the_field_for_the_new_building() -> None:
    assert _errors(_around_the_first_dancer(False, " dancer=field")) == []
    assert _errors(_around_the_first_dancer(True, " dancer=field")) == [("FRUIT-DRAW", "has-fruit")]


def test_the_switch_is_listed_with_its_rule_text() -> None:
    from referee.modules.charaktere import Charaktere

    default, values, en, de = Charaktere.options["dancer"]
    assert (default, values) == ("supply", ("supply", "field"))
    assert "L1094-1098" in en and "L1094-1098" in de
