"""Der Wunschbrunnen (``referee/modules/wunschbrunnen.py``): rulebook-bigbox-de-2019.txt
§ Klaus-Jürgen Wrede: Der Wunschbrunnen.

Every sentence of the section, its example (exactly 3 buildings in the spout's direction -> 3
points), the market-draw interception (E14) and side offer (E15) it uses, and the corruptions a
record can contain.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import beside as beside_market
from conftest import codes, messages, run

from referee.catalogue import catalogue
from referee.engine import GameReport, check_game
from referee.geometry.grid import Alhambra
from referee.modules.wunschbrunnen import Well, row_length, score_wells
from referee.notation import parse_text
from referee.record.model import Coord

WW = "wunschbrunnen"
# Ben buys A9 exactly, takes Gu1, keeps A9; the refill draws the well 4 for the Dirham field:
# it lies beside the market next to that field, and A6ne is drawn for the field.
REFILL = (
    "1. Ben: buy Di A9 pay Di9, take Gu1, reserve A9\n"
    "* display Du5, aside Di ww:4, market Di:A6ne\n"
)


def beside(rep: GameReport) -> list[tuple[int, str]]:
    return beside_market(rep, WW)


def test_a_drawn_well_lies_next_to_its_field_and_another_tile_is_drawn() -> None:
    # "Ein neu gezogener Wunschbrunnen kommt neben den Bauhof angrenzend zu der Währung, für die
    # er gezogen wurde. Er kann ab sofort gekauft werden. Dann wird sofort ein zusätzliches
    # Plättchen gezogen, das an die entsprechende Währung gelegt wird."
    rep = run(REFILL, WW)
    assert codes(rep) == []
    assert beside(rep) == [(1, "ww:4")]
    assert rep.state is not None and str(rep.state.market[1]) == "A6ne"
    assert rep.state.ext.views(rep.state)[WW]["table"]["beside the market"] == "ww:4 (Di 4)"


def test_wells_drawn_in_a_row_all_lie_beside_the_market() -> None:
    # "Wenn nötig, wird solange weitergezogen, bis ein anderes Gebäude als ein Wunschbrunnen
    # gezogen wird. In diesem Fall werden alle gezogenen Wunschbrunnen ... gelegt"
    rep = run(REFILL.replace("aside Di ww:4,", "aside Di ww:4, aside Di ww:5,"), WW)
    assert codes(rep) == []
    assert beside(rep) == [(1, "ww:4"), (1, "ww:5")]


def test_a_well_written_on_a_field_is_reported() -> None:
    rep = run(REFILL.replace("aside Di ww:4, market Di:A6ne", "market Di:ww:4"), WW)
    assert "WELL-ASIDE" in codes(rep)


def test_a_well_costs_its_number_in_that_currency_and_is_turned_freely() -> None:
    # "Der Preis für einen Wunschbrunnen entspricht der Zahl auf dem Plättchen. Wird der
    # Wunschbrunnen eingebaut, kann er beliebig ausgerichtet werden." Cem holds Di8: 8 >= 4,
    # one card, not exact: his turn ends.
    body = REFILL + "2. Cem: buy Di ww:4 pay Di8, place ww:4s@1,0\n"
    rep = run(body, WW)
    assert codes(rep) == []
    assert rep.state is not None
    cem = rep.state.player_named("Cem")
    assert cem is not None
    assert [str(p) for _c, p in cem.alhambra.items() if isinstance(p, Well)] == ["ww:4s"]
    assert beside(rep) == []


def test_a_well_paid_wrongly_is_caught() -> None:
    rep = run(REFILL + "2. Cem: buy Di ww:4 pay Gu2\n", WW)
    assert "BUY-CURRENCY" in codes(rep)
    rep = run(REFILL + "2. Cem: buy Di ww:4 pay De3\n", WW)
    # the Denar card counts nothing for a Dirham well: BUY-CURRENCY, and the shortfall is not
    # a second finding (one mistake, one finding: issue 31)
    assert "BUY-CURRENCY" in codes(rep) and "BUY-UNDERPAID" not in codes(rep)
    rep = run(REFILL + "2. Cem: buy Du ww:4 pay Du9\n", WW)
    assert "BUY-FIELD" in codes(rep)


def test_a_well_built_in_without_its_spout_is_refused() -> None:
    # "Wird der Wunschbrunnen eingebaut, kann er beliebig ausgerichtet werden" and it scores
    # the buildings "in der Richtung des Wasserspeiers": the direction is chosen when it is
    # built in, and a record that leaves it out cannot be scored (issue 26/31: it was noted only)
    rep = run(REFILL + "2. Cem: buy Di ww:4 pay Di8, place ww:4@1,0\n", WW)
    found = [v for v in rep.violations if v.code == "WELL-DIRECTION"]
    assert codes(rep) == ["WELL-DIRECTION"] and found[0].player == "Cem"
    assert "ww:4e" in found[0].message("en") and "Wasserspeiers" in found[0].message("de")
    # stated, the same placement is clean
    assert codes(run(REFILL + "2. Cem: buy Di ww:4 pay Di8, place ww:4w@1,0\n", WW)) == []


@pytest.mark.parametrize("well", ["ww:93", "ww:5", "ww:4"])
def test_a_well_not_beside_that_field_is_not_bought_as_the_field_s_tile(well: str) -> None:
    # "Liegt ein (oder mehrere) Wunschbrunnen neben dem Bauhof, so kann der Spieler bei einem
    # Kauf in der entsprechenden Währung wählen, ob er das Gebäude oder einen dort liegenden
    # Wunschbrunnen kauft": a well token names a well, never the building on the field. ww:93
    # and ww:5 lie nowhere beside the market: one finding, BUY-NOT-IN-MARKET (it used to buy
    # the De field's P7 and report BUY-UNDERPAID for it); ww:4 lies beside the Di field:
    # BUY-FIELD as before.
    rep = run(REFILL + f"2. Cem: buy De {well} pay De3\n", WW)
    buy_codes = [c for c in codes(rep) if c.startswith("BUY-")]
    if well == "ww:4":
        assert "BUY-FIELD" in buy_codes
    else:
        assert buy_codes == ["BUY-NOT-IN-MARKET"]
        assert not any("P7 costs" in m or "bought P7" in m for m in messages(rep))


@pytest.mark.parametrize(("token", "reason"), [("ww:4q", "form"), ("ww:7", "no-such-number")])
def test_bad_well_tokens(token: str, reason: str) -> None:
    rep = run(REFILL.replace("ww:4", token), WW)
    found = [v for v in rep.violations if v.code == "WELL-TOKEN"]
    assert found and found[0].reason == reason and found[0].message("de")


def test_more_wells_of_a_number_than_exist() -> None:
    rep = run(REFILL.replace("aside Di ww:4,", "aside Di ww:4, aside Di ww:4, aside Di ww:4,"), WW)
    assert "TILE-SUPPLY" in codes(rep)


def test_switched_off() -> None:
    assert "MODULE-NOT-ENABLED" in codes(run(REFILL, ""))


# ------------------------------------------------------------------ scoring


def layout(n: int, spout: str = "e") -> Alhambra:
    from referee.catalogue import Side

    tiles = [t for t in catalogue().tiles if t.walls][: n + 1]
    well = Well(3, Side(spout.upper()))
    cells = [(Coord(0, 1), well)] + [(Coord(1 + i, 1), t) for i, t in enumerate(tiles[:n])]
    return Alhambra(cells)  # type: ignore[arg-type]


def test_the_rulebook_example_exactly_three_in_a_row() -> None:
    # "Beispiel: Der Spieler erhält 3 Punkte für seinen Wunschbrunnen, denn es liegen genau 3
    # Gebäudeplättchen in der vom Pfeil angegebenen Richtung" -- walls on the way do not matter
    assert row_length(layout(3), Coord(0, 1), layout(3).get(Coord(0, 1))) == 3  # type: ignore[arg-type]
    assert score_wells(layout(3))[0] == 3


def test_exactly_as_many_a_longer_or_shorter_row_scores_nothing() -> None:
    # "Liegen genau so viele Gebäude in ununterbrochener Reihenfolge in der Richtung des
    # Wasserspeiers ..., wie die Zahl auf dem Wunschbrunnen angibt"
    assert score_wells(layout(2))[0] == 0
    assert score_wells(layout(4))[0] == 0
    assert score_wells(layout(4), "atleast")[0] == 3  # the switch row=atleast
    assert score_wells(layout(3, "w"))[0] == 0  # the spout points away from the row


def test_the_example_game_claims_every_scoring_and_is_clean() -> None:
    # "Bei der Schlussverteilung der noch liegenden Gebäude werden die Wunschbrunnen nicht mehr
    # verteilt."
    path = Path(__file__).resolve().parents[1] / "examples" / "module-wunschbrunnen.alh"
    text = path.read_text(encoding="utf-8")
    rep = check_game(parse_text(text, str(path))[0])
    assert [v.code for v in rep.violations] == []
    assert "Anna =31 (well=3)" in text
    assert "ww:" not in text.split("\ndistribute")[-1].split("\n")[0]


def test_the_three_market_modules_and_the_vizier_play_together() -> None:
    # bazaars, bathhouses and wells beside the market at once, bought in turns and by the
    # vizier ("Mit „Wesir“ ... können Bazare gekauft werden"): simulated games check clean
    from referee.profiles import DEFAULT_PROFILE
    from referee.simulate.simulator import SimSettings, _Game

    modules = ("bazare", "badehaeuser", "wunschbrunnen", "wesir")
    game = _Game(SimSettings(4, DEFAULT_PROFILE, modules), 5000015, "t").play()
    rep = check_game(game)
    assert [v.code for v in rep.violations] == []
    kinds = {
        getattr(a.tile, "kind", None)
        for t in game.body
        for a in getattr(t, "actions", ())
        if type(a).__name__ == "Buy"
    }
    assert {"bz", "bh", "ww"} & kinds


def test_option_walls_stop_lets_a_wall_interrupt_the_row() -> None:
    """ "in ununterbrochener Reihenfolge" names no walls: by default a wall between two
    buildings of the row does not interrupt it; `walls=stop` (a switch for groups that read
    a wall as an interruption) ends the row at the first wall across it."""
    from referee.catalogue import Side

    plain = [t for t in catalogue().tiles if not t.walls][:3]
    walled = next(t for t in catalogue().tiles if Side.W in t.walls and t not in plain)
    well = Well(3, Side.E)
    row = [(Coord(0, 1), well)] + [(Coord(1 + i, 1), t) for i, t in enumerate(plain)]
    open_row = Alhambra(row)  # type: ignore[arg-type]
    assert score_wells(open_row, "exact", "stop")[0] == 3  # no wall across: 3 in a row
    cut = Alhambra([*row[:2], (Coord(2, 1), walled), row[3]])  # type: ignore[arg-type]
    assert score_wells(cut)[0] == 3  # default: the wall does not interrupt
    assert row_length(cut, Coord(0, 1), well, "stop") == 1
    assert score_wells(cut, "exact", "stop")[0] == 0
