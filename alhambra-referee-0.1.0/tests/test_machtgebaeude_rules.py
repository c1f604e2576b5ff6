"""Die Gebäude der Macht, the groundwork (``referee/modules/machtgebaeude.py``): the rules of
rulebook-bigbox-de-2019.txt § Mike Elliott: Die Gebäude der Macht (L3605-3706) that do not
depend on the turn platform, tested from the rulebook's text and its example, and the platform's
tower replacement (engine and simulator). The module itself: tests/test_module_machtgebaeude.py."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from referee.catalogue import BuildingType, Side
from referee.geometry import Alhambra
from referee.modules.machtgebaeude import (
    HiddenAward,
    alhambra_defence_points,
    defence_points,
    hidden_tile_awards,
    prosperity_after_use,
    prosperity_price,
)
from referee.record.model import Coord


@dataclass(frozen=True)
class P:
    type: BuildingType | None
    walls: frozenset[Side]


def test_the_rulebook_example_eight_plus_five_is_thirteen() -> None:
    # "Der Spieler hat 2 schwarze Würfel in seiner Alhambra (2 und 3 Augen). Längstes
    # Mauerstück: 8, zweitlängstes Mauerstück: 6. Der Spieler erhält also 8+5=13 Mauerpunkte.
    # Hätte er besser gewürfelt (z.B. 5 statt 2), so hätte er 8+6=14 Punkte erhalten."
    # (L3701-3706)
    assert defence_points(8, 6, [2, 3]).points == 13
    assert defence_points(8, 6, [5, 3]).points == 14
    assert defence_points(8, 6, []).points == 8  # no black die: the base rule


def test_the_example_on_an_alhambra_with_walls_of_eight_and_six() -> None:
    # a north wall of 8 over row y=1 and a south wall of 6 under row y=-1: two pieces of wall
    alh = Alhambra()
    for x in range(-4, 4):
        alh.place(Coord(x, 1), P(BuildingType.GARDEN, frozenset({Side.N})))
    for x in range(-2, 4):
        alh.place(Coord(x, -1), P(BuildingType.TOWER, frozenset({Side.S})))
    got = alhambra_defence_points(alh, [2, 3])
    assert (got.longest, got.second, got.cap, got.points) == (8, 6, 5, 13)
    assert alhambra_defence_points(alh, [2, 3], how="piece").points == 13


def test_a_white_die_lowers_one_purchase_by_one_and_counts_down() -> None:
    # "Dadurch wird das Gebäude um 1 billiger. Hat er den weißen Würfel benutzt, dreht er ihn um
    # 1 Auge herunter. Nach der 1 geht der Würfel aus dem Spiel." (L3678-3682)
    assert prosperity_price(9, 1) == 8 and prosperity_price(9, 0) == 9
    with pytest.raises(ValueError):
        prosperity_price(9, 2)  # "Auch wenn er mehrere besitzt, darf er nur einen einsetzen"
    assert [prosperity_after_use(p) for p in (6, 2, 1)] == [5, 1, None]
    with pytest.raises(ValueError):
        prosperity_after_use(7)


def test_hidden_tiles_at_the_end_go_to_the_most_and_second_most_money() -> None:
    # L3687-3697
    assert hidden_tile_awards({"Anna": 9, "Ben": 5, "Cem": 2}) == HiddenAward("Anna", "Ben")
    # "Haben mehrere Spieler das meiste Geld, so gehen beide Plättchen aus dem Spiel."
    assert hidden_tile_awards({"Anna": 9, "Ben": 9, "Cem": 2}) == HiddenAward(None, None)
    # "Haben mehrere Spieler das zweitmeiste Geld, so geht das übriggebliebene Plättchen aus
    # dem Spiel."
    assert hidden_tile_awards({"Anna": 9, "Ben": 5, "Cem": 5}) == HiddenAward("Anna", None)
    assert hidden_tile_awards({"Anna": 9, "Ben": 0}) == HiddenAward("Anna", None)
    assert hidden_tile_awards({"Anna": 0}) == HiddenAward(None, None)


def test_the_platform_takes_replaced_base_tiles_out_of_the_tower() -> None:
    """Platform gap 1 of the plan: ``Module.tower_replaces`` -- "Die Spezialplättchen ersetzen
    die entsprechenden Plättchen des Basisspiels ... Die aussortierten Basis-Plättchen kommen
    zurück in die Schachtel." (L3641-3647)"""
    from referee.catalogue import catalogue
    from referee.engine.core import new_state
    from referee.engine.extensions import Extensions, Module

    class Replacing(Module):  # a module class of the test only (never registered)
        name = "replacing-test"

        def tower_replaces(self) -> dict[str, int]:
            return {"T9ne": 1, "S9": 1}

        def tower_components(self) -> dict[str, int]:
            return {"T9ne": 1, "S9": 1}

    ext = Extensions()
    ext.modules.append(Replacing())
    state = new_state(["Anna", "Ben", "Cem"], ext=ext)
    plain = new_state(["Anna", "Ben", "Cem"])
    t9 = next(t for t in catalogue().tiles if t.code == "T9ne")
    assert state.bag[t9] == plain.bag[t9] - 1
    assert state.bag_count == plain.bag_count  # 54: two out, two special ones in
    assert sum(state.tower.values()) == 2


def test_the_simulator_leaves_the_replaced_base_tiles_in_the_box() -> None:
    # the simulator's tower is the base tiles less Module.tower_replaces() plus the module's
    # tiles: a replaced base tile is never drawn, the total stays 54
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    replaced = {"A8n", "C9w", "T11n", "P4", "S5", "A7", "C8", "G9", "T10", "P6", "S7", "G7"}
    for seed in (1, 2):
        text = simulate_text(3, seed, load_profile("queen-2003"), "box", ("machtgebaeude",))
        words = set(text.replace(",", " ").replace("@", " ").split())
        drawn = {w.split(":", 1)[1] for w in words if w[:3] in ("Gu:", "Di:", "De:", "Du:")}
        assert not drawn & replaced, drawn & replaced
