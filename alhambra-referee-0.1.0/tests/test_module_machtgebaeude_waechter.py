"""Die Gebäude der Macht with the guards edition (profile ``waechter``): the special tiles are
mixed into the tower ("Die neuen Plättchen werden mit den anderen Plättchen zusammengemischt und
in den Turm gegeben", rulebook-bigbox-de-2019.txt L3644-3645) and the guards edition fills its
preview board from the tower (summary-waechter-edition-de.txt L82-87), so a building of power
can lie on the preview board and slide onto the market. A building of power carries no guard
towers (it is no guards-edition tile; summary L69 "Gibt es auf dem Gebäude Wächtertürme").
A tile hidden under a market field (Baukunst) turns up when the field is refilled, "statt eines
zu ziehen" (L3614-3616): before the preview board slides, so the field is not free for it.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.catalogue import Currency
from referee.cli import cli
from referee.engine import check_game
from referee.notation import parse_text
from referee.profiles import load_profile
from referee.simulate import game_seed, simulate_text
from referee.simulate.combinations import Case, problems

MOD = "machtgebaeude"


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 2), (4, 1), (4, 2)])
def test_simulated_guards_games_with_buildings_of_power_check_clean(
    players: int, seed: int
) -> None:
    # once an internal error: the preview board's tiles were written as base tiles only
    assert problems(Case((MOD,), "waechter", players, seed)) == []


def test_a_building_of_power_lies_on_the_preview_board_and_slides() -> None:
    text = simulate_text(3, game_seed(1, 0), load_profile("waechter"), "pv", (MOD,))
    lines = text.splitlines()
    assert any("preview" in x and " gm:" in x for x in lines)
    assert any("slide" in x and " gm:" in x for x in lines)
    rep = check_game(parse_text(text, "pv.alh")[0])
    assert rep.valid and rep.violations == [], [v.message() for v in rep.violations]


def _hidden_then_bought() -> tuple[str, int, str]:
    """A simulated guards game cut after the turn that buys the tile above a hidden one: the
    text, the field and the hidden tile's token."""
    for seed in range(1, 30):
        text = simulate_text(3, game_seed(seed, 0), load_profile("waechter"), "h", (MOD,))
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if ", hide " not in line:
                continue
            words = line.split(", hide ")[1].split()
            cur, tile = words[1], words[2]
            for j in range(i + 1, len(lines)):
                if f": buy {cur} " in lines[j] and not lines[j].startswith("*"):
                    k = j + 1
                    while k < len(lines) and lines[k].startswith("*"):
                        k += 1
                    field = Currency.of_code(cur)
                    assert field is not None
                    return "\n".join(lines[:k]) + "\n", field.field - 1, tile
                if "hide " in lines[j] and f" {cur} " in lines[j]:
                    break
    raise AssertionError("no simulated game buys a field with a hidden tile")


def test_a_hidden_tile_turns_up_before_the_preview_board_slides() -> None:
    text, field, tile = _hidden_then_bought()
    rep = check_game(parse_text(text, "h.alh")[0])
    assert [v for v in rep.violations if v.severity == "error"] == []
    assert rep.state is not None
    on_field = rep.state.market[field]
    shown = getattr(on_field, "code", None)
    assert shown in (tile, f"gm:{tile}".replace("gm:gm:", "gm:"))


def test_simulate_plays_buildings_of_power_with_the_guards_edition() -> None:
    res = CliRunner().invoke(
        cli, ["simulate", "--rules", "waechter", "--players", "3", "--seed", "5", "--modules", MOD]
    )
    assert res.exit_code == 0 and '[Modules "machtgebaeude"]' in res.output
    rep = check_game(parse_text(res.output, "sim.alh")[0])
    assert rep.valid and rep.violations == [], [v.message() for v in rep.violations]
