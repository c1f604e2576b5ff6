"""Die Badehäuser (``referee/modules/badehaeuser.py``): rulebook-bigbox-de-2019.txt
§ Klaus-Jürgen Wrede: Die Badehäuser.

Every sentence of the section, its example (chamber 2 away -> 2, garden 3 away -> 3), the
market-draw interception (E14) and side offer (E15) it uses, and the corruptions a record can
contain.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import beside as beside_market
from conftest import codes, run

from referee.catalogue import catalogue
from referee.engine import GameReport, check_game
from referee.geometry.grid import Alhambra
from referee.modules.badehaeuser import Bathhouse, parse_bath, score_bathhouses, side_points
from referee.notation import parse_text
from referee.record.model import Coord

BH = "badehaeuser"
# Ben buys A9 exactly, takes Gu1, keeps A9; the refill draws a bathhouse for the Dirham field:
# it lies beside the market next to that field, and A6ne is drawn for the field.
REFILL = (
    "1. Ben: buy Di A9 pay Di9, take Gu1, reserve A9\n"
    "* display Du5, aside Di bh:PSAC, market Di:A6ne\n"
)


def beside(rep: GameReport) -> list[tuple[int, str]]:
    return beside_market(rep, BH)


def test_a_drawn_bathhouse_lies_next_to_its_field_and_another_tile_is_drawn() -> None:
    # "Ein neu gezogenes Badehaus kommt neben den Bauhof angrenzend zu der Währung, für die es
    # gezogen wurde. Dann wird zusätzlich ein weiteres Gebäude gezogen, das auf den Bauhof zur
    # entsprechenden Währung gelegt wird."
    rep = run(REFILL, BH)
    assert codes(rep) == []
    assert beside(rep) == [(1, "bh:PSAC")]
    assert rep.state is not None and str(rep.state.market[1]) == "A6ne"
    view = rep.state.ext.views(rep.state)[BH]
    assert view["table"]["beside the market"] == "bh:PSAC (Di 8)"


def test_several_bathhouses_in_a_row_all_lie_beside_the_market() -> None:
    # "Wenn nötig, wird solange weitergezogen, bis ein anderes Gebäude als ein Badehaus gezogen
    # wird. In diesem Fall werden alle gezogenen Badehäuser neben den Bauhof gelegt"
    rep = run(REFILL.replace("aside Di bh:PSAC,", "aside Di bh:PSAC, aside Di bh:SCGT,"), BH)
    assert codes(rep) == []
    assert beside(rep) == [(1, "bh:PSAC"), (1, "bh:SCGT")]


def test_a_bathhouse_written_on_a_field_is_reported() -> None:
    rep = run(REFILL.replace("aside Di bh:PSAC, market Di:A6ne", "market Di:bh:PSAC"), BH)
    assert "BATH-ASIDE" in codes(rep)
    assert beside(rep) == [(1, "bh:PSAC")]


def test_a_purchase_in_that_currency_may_take_a_bathhouse_for_8() -> None:
    # "so kann der Spieler bei einem Kauf in der entsprechenden Währung wählen, ob er das
    # Gebäude oder ein Badehaus kauft. Alle Badehäuser kosten 8 Geld in der entsprechenden
    # Währung." "Ein Badehaus darf beliebig gedreht in die Alhambra eingebaut werden."
    body = REFILL + "2. Cem: buy Di bh:PSAC pay Di8, take Du5, place bh:CPSA@1,0\n"
    rep = run(body, BH)
    assert codes(rep) == []  # exact: another action (take Du5)
    assert rep.state is not None
    cem = rep.state.player_named("Cem")
    assert cem is not None
    built = [p for _c, p in cem.alhambra.items() if isinstance(p, Bathhouse)]
    assert [b.code for b in built] == ["bh:CPSA"]  # turned a quarter clockwise
    assert beside(rep) == []
    assert str(rep.state.market[1]) == "A6ne"  # the field's building stays


def test_a_bathhouse_bought_in_another_currency_is_caught() -> None:
    rep = run(REFILL + "2. Cem: buy Du bh:PSAC pay Du9\n", BH)
    assert "BUY-FIELD" in codes(rep)
    rep = run(REFILL + "2. Cem: buy bh:PSAC pay Du9\n", BH)
    assert "BUY-CURRENCY" in codes(rep)


def test_a_bathhouse_is_turned_never_rearranged() -> None:
    rep = run(REFILL + "2. Cem: buy Di bh:PSAC pay Di8, place bh:PCSA@1,0\n", BH)
    found = [v for v in rep.violations if v.code == "BATH-ROTATION"]
    assert found and "CPSA" in found[0].message() and found[0].message("de")


@pytest.mark.parametrize(("token", "reason"), [("bh:PSA", "form"), ("bh:PPAC", "types")])
def test_bad_bathhouse_tokens(token: str, reason: str) -> None:
    rep = run(REFILL.replace("bh:PSAC", token), BH)
    found = [v for v in rep.violations if v.code == "BATH-TOKEN"]
    assert found and found[0].reason == reason


def test_more_bathhouses_than_exist() -> None:
    many = ", ".join(f"aside Di bh:{f}" for f in ["PSAC"] * 7)
    rep = run(REFILL.replace("aside Di bh:PSAC", many), BH)
    assert "TILE-SUPPLY" in codes(rep)


def test_switched_off() -> None:
    assert "MODULE-NOT-ENABLED" in codes(run(REFILL, ""))


# ------------------------------------------------------------------ scoring


def example(gap: bool = False) -> tuple[Alhambra, Bathhouse]:
    tiles = {t.full_code: t for t in catalogue().tiles}
    walled = next(t for t in catalogue().tiles if t.full_code.startswith("A") and t.walls)
    bath = Bathhouse(parse_bath("CGPS"))  # type: ignore[arg-type]
    cells = [
        (Coord(1, 0), bath),
        (Coord(1, 1), tiles["T12-"]),
        (Coord(1, 2), tiles["C10-"]),  # the chamber 2 away (north)
        (Coord(2, 0), walled),  # double walls on the way are allowed
        (Coord(4, 0), tiles["G10-"]),  # the garden 3 away (east)
    ]
    if not gap:
        cells.append((Coord(3, 0), tiles["P8-"]))
    return Alhambra(cells), bath  # type: ignore[arg-type]


def test_the_rulebook_example_chamber_2_garden_3() -> None:
    # "Für das 2 Plättchen entfernt eingebaute Gemach erhält er 2 Punkte, für den in 3 Plättchen
    # Entfernung eingebauten Garten 3 Punkte."
    alh, bath = example()
    got = {s.value: p for s, _t, p in side_points(alh, Coord(1, 0), bath)}
    assert got == {"N": 2, "E": 3, "S": 0, "W": 0}
    assert score_bathhouses(alh)[0] == 5


def test_a_gap_on_the_way_scores_nothing() -> None:
    # "Dabei dürfen sich Doppelmauern auf dem Weg befinden, jedoch keine Lücken."
    alh, bath = example(gap=True)
    got = {s.value: p for s, _t, p in side_points(alh, Coord(1, 0), bath)}
    assert got["E"] == 0 and got["N"] == 2


def test_the_example_game_scores_every_scoring_and_is_clean() -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "module-badehaeuser.alh"
    text = path.read_text(encoding="utf-8")
    rep = check_game(parse_text(text, str(path))[0])
    assert [v.code for v in rep.violations] == []
    assert "scoring 1:" in text and "(bathhouse=" in text.split("scoring 1:")[1].split("\n")[0]
    # "Bei der Schlussverteilung der noch liegenden Gebäude werden die Badehäuser nicht mehr
    # verteilt": the leftovers never include one
    assert "bh:" not in text.split("distribute")[-1].split("\n")[0]


def test_option_final_scores_the_last_scoring_only() -> None:
    from referee.modules.badehaeuser import BadehaeuserModule

    # (with a bathhouse built in: with none, no player has a line and no part is added)
    rep = run(REFILL + "2. Cem: buy Di bh:PSAC pay Di8, take Du5, place bh:CPSA@1,0\n", BH)
    assert rep.state is not None
    m = BadehaeuserModule()
    assert m.scoring_parts(rep.state, 1) is not None
    m.settings = {"scoring": "final"}
    assert m.scoring_parts(rep.state, 1) is None
    assert m.scoring_parts(rep.state, 3) is not None
    unbuilt = run(REFILL, BH).state
    assert unbuilt is not None and BadehaeuserModule().scoring_parts(unbuilt, 3) is None


def test_parse_bath_cached_reads_as_afresh() -> None:
    """``parse_bath`` keeps its answers per token (bounded): each as read afresh."""
    from referee.modules.badehaeuser import parse_bath

    for token in ("PSAC", "psac", "GTPS", "PPSA", "PSA", "PSAX", "", "PSAC"):
        assert parse_bath(token) == parse_bath.__wrapped__(token)
