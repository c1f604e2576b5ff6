"""Die Charaktere's Tänzerin with Die Obstgärten: the building she replaces on the market takes
its fruit along, and the building she lays there gets a fruit of its own.

Rules (rulebook-bigbox-de-2019.txt): the Tänzerin "darf vor dem eigenen Zug ein Gebäude des
Bauhofs gegen ein neues Gebäude (verdeckt aus dem Turm gezogen) austauschen. Das alte Gebäude
wird zurück in den Turm geschoben" (L1094-1098); Die Obstgärten: "Wenn ein Gebäude des
Grundspiels auf den Bauhof gelegt wird, wird sofort eine Frucht aus dem Vorrat gezogen und
offen auf das Gebäudeplättchen gelegt" (L3037-3040). Reading (stated in
docs/modules/charaktere.md): the fruit on the old building goes back to the supply (as for a
building claimed off the market); the new building is laid on the market and gets a fruit.
Found by a 43-module game (queen-2003, 3 players, seed 18) where a stale fruit stayed on the
field and later buildings there were judged differently in play and on read-back.
"""

from __future__ import annotations

import functools
import re

from referee.engine import check_game
from referee.notation import parse_text
from referee.profiles import load_profile
from referee.simulate import game_seed, simulate_text

MODULES = ("charaktere", "obstgaerten")


@functools.cache
def _game(seed: int) -> str:
    event = f"simulated game 1 of run {seed}"
    return simulate_text(3, game_seed(seed, 0), load_profile("queen-2003"), event, MODULES)


def _codes(text: str) -> list[str]:
    games = parse_text(text, "<t>")
    assert not [e for g in games for e in g.errors]
    return [v.code for v in check_game(games[0]).violations if v.severity == "error"]


def test_the_simulator_draws_a_fruit_for_the_building_the_dancer_lays() -> None:
    text = _game(2)
    lines = text.splitlines()
    dancer = [i for i, line in enumerate(lines) if re.match(r"^\w+: dancer ", line)]
    assert dancer, "seed 2 uses the Tänzerin"
    for i in dancer:
        assert lines[i + 1].startswith("* fruit "), lines[i : i + 2]
    assert _codes(text) == []


def test_a_dancer_without_a_fruit_for_the_new_building_is_reported() -> None:
    lines = _game(2).splitlines()
    i = next(i for i, line in enumerate(lines) if re.match(r"^\w+: dancer ", line))
    assert lines[i + 1].startswith("* fruit ")
    codes = _codes("\n".join(lines[: i + 1] + lines[i + 2 :]) + "\n")
    assert "FRUIT-MISSING" in codes


def test_the_replaced_buildings_fruit_goes_back_to_the_supply() -> None:
    # every dancer returns one fruit, so the game draws more fruits than buildings it laid
    # with a fruit would allow without the return; the supply is never overdrawn
    text = _game(3)
    assert text.count(": dancer ") >= 2
    assert "FRUIT-SUPPLY" not in _codes(text)
    assert _codes(text) == []
