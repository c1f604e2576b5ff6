"""Die Bazare (``referee/modules/bazare.py``): rulebook-bigbox-de-2019.txt § DIE BAZARE.

Every sentence of the section, its example exactly as printed (4 × 3 = 12, without the tower
3 × 2 = 6), the engine's market-draw interception (E14) and side offers (E15) it uses, and the
corruptions a record can contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import beside as beside_market
from conftest import codes, run

from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry.grid import Alhambra
from referee.modules.bazare import Bazaar, bazaar_points, parse_bazaar, score_bazaars
from referee.notation import parse_text
from referee.record.model import ComponentRef, Coord

BZ = "bazare"
# Ben buys the arcade A9 exactly (another action), takes Gu1 and keeps A9 in his reserve; the
# refill draws a bazaar for the Dirham field, lays it beside the market, and draws A6ne.
REFILL = (
    "1. Ben: buy Di A9 pay Di9, take Gu1, reserve A9\n"
    "* display Du5, aside bz:DePSA, market Di:A6ne\n"
    "2. Cem: take Di4\n"
    "* display De5\n"
)


def bazaars_beside(rep: GameReport) -> list[str]:
    return [code for _field, code in beside_market(rep, BZ)]


# ------------------------------------------------------------------ the market (E14)


def test_a_bazaar_drawn_while_refilling_lies_beside_the_market() -> None:
    # "Wird beim Auffüllen des Bauhofs ein Bazar gezogen, wird er offen neben den Bauhof gelegt.
    # Es werden solange weitere Gebäudeplättchen gezogen, bis wieder 4 Gebäude auf dem Bauhof
    # liegen."
    rep = run(REFILL, BZ)
    assert codes(rep) == []
    assert bazaars_beside(rep) == ["bz:DePSA"]
    state = rep.state
    assert state is not None
    assert str(state.market[1]) == "A6ne"  # the next tile filled the Dirham field
    assert state.bag_count == 54 + 8 - 4 - 2  # the tower holds the eight bazaars too


def test_any_number_of_bazaars_may_wait_beside_the_market() -> None:
    # "Es können beliebig viele Bazare neben dem Bauhof im Angebot liegen."
    body = REFILL.replace("aside bz:DePSA,", "aside bz:DePSA, aside Di bz:GuCGT,")
    rep = run(body, BZ)
    assert codes(rep) == []
    assert bazaars_beside(rep) == ["bz:DePSA", "bz:GuCGT"]


def test_a_bazaar_written_on_a_market_field_is_reported_and_set_aside() -> None:
    body = REFILL.replace("aside bz:DePSA, market Di:A6ne", "market Di:bz:DePSA")
    rep = run(body, BZ)
    assert "BAZAAR-ASIDE" in codes(rep)
    v = next(v for v in rep.violations if v.code == "BAZAAR-ASIDE")
    assert "neben den Bauhof gelegt" in v.message() and "* aside bz:DePSA" in v.message("de")
    assert bazaars_beside(rep) == ["bz:DePSA"]
    assert "REFILL-MARKET" in codes(rep)  # the Dirham field was then not refilled


def test_aside_needs_a_piece_that_a_module_sets_aside() -> None:
    rep = run(REFILL.replace("aside bz:DePSA", "aside Di"), BZ)
    assert "MARKET-ASIDE" in codes(rep)


def test_the_game_end_counts_only_the_market_fields() -> None:
    # "Der Bauhof kann nicht mehr komplett aufgefüllt werden": pieces beside it never count.
    from referee.engine.core import settle_before
    from referee.engine.state import EMPTY
    from referee.engine.turns import Phase  # the phase is an enum (compared by identity)
    from referee.record.model import NOWHERE

    rep = run(REFILL, BZ)
    assert rep.state is not None
    full = rep.state.copy()
    full.phase, full.bag_count = Phase.REFILL, 0
    settle_before(full, NOWHERE, "turn")
    assert not full.game_over  # four buildings on the market, a bazaar beside it
    short = rep.state.copy()
    short.phase, short.bag_count = Phase.REFILL, 0
    short.market[2] = EMPTY
    settle_before(short, NOWHERE, "turn")
    assert short.game_over  # the bazaar beside the market does not fill the field


# ------------------------------------------------------------------ buying (E15)


def test_a_bazaar_is_bought_exactly_for_the_price_on_its_currency_field() -> None:
    # "Die Münze auf dem Plättchen zeigt die benötigte Währung an. Der Preis entspricht dem des
    # Gebäudeplättchens, welches auf dem Bauhof bei der entsprechenden Währung liegt. ... Der
    # Spieler ist nochmal an der Reihe." De field: P7, so the Denar bazaar costs 7.
    body = REFILL + "3. Anna: buy bz:DePSA pay De7, take De5, place bz:DePSA@1,0\n"
    rep = run(body, BZ)
    assert codes(rep) == []
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None
    assert [str(p) for c, p in anna.alhambra.items() if isinstance(p, Bazaar)] == ["bz:DePSA"]
    assert bazaars_beside(rep) == []
    assert str(state.market[2]) != "-"  # the price-setting building stays on the market


def test_a_bazaar_must_be_paid_exactly() -> None:
    # "Ein Bazar darf nur passend bezahlt werden."
    rep = run(REFILL + "3. Anna: buy bz:DePSA pay Gu9\n", BZ)
    assert "BUY-CURRENCY" in codes(rep)  # its coin's currency only
    body = REFILL + "3. Anna: buy bz:DePSA pay De7 De2\n"
    rep = run(body, BZ)
    found = [v for v in rep.violations if v.code == "BAZAAR-PRICE"]
    assert found and found[0].reason == "not-exact"
    assert "nur passend bezahlt" in found[0].message("de")


def test_a_bazaar_whose_price_field_is_empty_cannot_be_bought() -> None:
    # "Fehlt das Preis bestimmende Gebäude im Bauhof (es wurde gerade erworben), kann der
    # entsprechende Bazar momentan nicht gekauft werden."
    body = REFILL + "3. Anna: buy De P7 pay De7, buy bz:DePSA pay De2\n"
    rep = run(body, BZ)
    found = [v for v in rep.violations if v.code == "BAZAAR-PRICE"]
    assert found and found[0].reason == "no-price"
    assert "momentan nicht gekauft" in found[0].message("en")


def test_a_bazaar_named_with_another_field_is_reported() -> None:
    rep = run(REFILL + "3. Anna: buy Gu bz:DePSA pay De7, take De5\n", BZ)
    assert "BUY-FIELD" in codes(rep)


def test_the_legal_move_generator_offers_the_bazaar_exactly() -> None:
    from referee.engine.legal import legal_actions
    from referee.record.model import Buy

    rep = run(REFILL, BZ)
    assert rep.state is not None
    from referee.engine.core import settle_before
    from referee.record.model import NOWHERE

    state = rep.state.copy()
    settle_before(state, NOWHERE, "turn")
    buys = [
        a
        for a in legal_actions(state)
        if isinstance(a, Buy) and isinstance(a.tile, ComponentRef) and a.tile.kind == "bz"
    ]
    paid = sorted(" ".join(c.card.code for c in b.paid) for b in buys)  # type: ignore[union-attr]
    assert paid == ["De7"]  # Anna holds Gu9 De7 De2 Du3: exactly 7 in Denar only


# ------------------------------------------------------------------ scoring


def example_alhambra(with_tower: bool = True) -> Alhambra:
    from referee.catalogue import catalogue

    tiles = {t.full_code: t for t in catalogue().tiles}
    cells = [
        (Coord(1, 1), Bazaar(*parse_bazaar("GuCGT")[:2], frozenset())),  # type: ignore[index,misc]
        (Coord(2, 2), tiles["G10-"]),
        (Coord(2, 1), tiles["C10-"]),
        (Coord(2, 0), tiles["C11-"]),
        (Coord(1, 0), tiles["P8-"]),
        (Coord(0, 1), tiles["S9-"]),
    ]
    if with_tower:
        cells.append((Coord(1, 2), tiles["T12-"]))
    return Alhambra(cells)  # type: ignore[arg-type]


def test_the_rulebook_example_four_times_three_and_without_the_tower() -> None:
    # "Der Bazar hat 6 Nachbargebäude, 2 Plätze sind unbesetzt. 4 dieser Gebäude passen
    # farblich zum Bazar. Alle 3 Farben des Bazars sind als Gebäude in der Nachbarschaft
    # vorhanden. Das ergibt: 4 Gebäude x 3 Farben = 12 Siegpunkte. Würde der Turm in diesem
    # Beispiel fehlen, fiele das Ergebnis deutlich magerer aus: 3 Gebäude x 2 Farben = 6"
    alh = example_alhambra()
    bz = alh.get(Coord(1, 1))
    assert bazaar_points(alh, Coord(1, 1), bz) == (4, 3)  # type: ignore[arg-type]
    assert score_bazaars(alh)[0] == 12
    assert score_bazaars(example_alhambra(with_tower=False))[0] == 6
    assert "4 × 3 = 12" in score_bazaars(alh)[1]


def test_diagonals_count_walls_do_not_and_a_building_counts_for_several_bazaars() -> None:
    # "Auch diagonal angrenzende Gebäude gelten als benachbart." "Ein Gebäude kann, bei passender
    # Lage, auch für mehrere Bazare zählen." "Die Wertung eines Bazars wird durch Mauern nicht
    # beeinflusst."
    from referee.catalogue import catalogue

    tiles = {t.full_code: t for t in catalogue().tiles}
    walled = next(t for t in catalogue().tiles if t.full_code.startswith("T") and t.walls)
    a = Bazaar(*parse_bazaar("GuCGT")[:2], frozenset())  # type: ignore[index,misc]
    b = Bazaar(*parse_bazaar("DiPAT")[:2], frozenset())  # type: ignore[index,misc]
    alh = Alhambra(
        [(Coord(1, 0), a), (Coord(2, 1), walled), (Coord(3, 0), b), (Coord(5, 5), tiles["G10-"])]
    )  # type: ignore[list-item]
    assert bazaar_points(alh, Coord(1, 0), a) == (1, 1)
    assert bazaar_points(alh, Coord(3, 0), b) == (1, 1)


def test_squares_and_the_fountain_do_not_count() -> None:
    # "Benachbarte Plätze ... zählen bei der Wertung eines Bazars nicht."
    from referee.catalogue import BuildingType
    from referee.modules.plaetze import Square

    a = Bazaar(*parse_bazaar("GuCGT")[:2], frozenset())  # type: ignore[index,misc]
    sq = Square(BuildingType.TOWER, frozenset())  # type: ignore[call-arg]
    alh = Alhambra([(Coord(1, 0), a), (Coord(1, 1), sq)])  # type: ignore[list-item]
    assert bazaar_points(alh, Coord(1, 0), a) == (0, 0)


POSITION = """[Players "Anna, Ben"]
[Modules "bazare"]

position
  scorings {scorings}
  player Anna
    score 40
    alhambra bz:GuCGT@1,1 G10-@2,2 C10-@2,1 C11-@2,0 P8-@1,0 S9-@0,1 T12-@1,2
  player Ben
    score 40
    alhambra G11-@1,0
end
"""


def score_cli(text: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["score", "-", *args], input=text)
    assert result.exit_code == 0, result.output
    return result.output


def test_bazaars_score_only_in_the_last_scoring_in_both_languages() -> None:
    # "Bazare erzielen nur in der letzten Wertung Siegpunkte."
    out = score_cli(POSITION.format(scorings=2))
    assert "bazaars" in out and "bz:GuCGT@1,1: 4 × 3 = 12" in out
    assert "Bazare" in score_cli(POSITION.format(scorings=2), "--lang", "de")
    doc = json.loads(score_cli(POSITION.format(scorings=2), "--format", "json"))
    rows = {p["name"]: p for p in doc["games"][0]["scoring"]["players"]}
    assert rows["Anna"]["categories"]["bazaar"]["points"] == 12
    assert "bazaar" not in rows["Ben"].get("categories", {})
    from referee.modules.bazare import BazareModule

    # (with a bazaar built in: with none, no player has a line and no part is added)
    rep = run(REFILL + "3. Anna: buy bz:DePSA pay De7, take De5, place bz:DePSA@1,0\n", BZ)
    assert rep.state is not None
    module = BazareModule()
    assert module.scoring_parts(rep.state, 1) is None
    assert module.scoring_parts(rep.state, 2) is None
    assert module.scoring_parts(rep.state, 3) is not None
    unbuilt = run(REFILL, BZ).state
    assert unbuilt is not None and module.scoring_parts(unbuilt, 3) is None


# ------------------------------------------------------------------ tokens, faces, supply


@pytest.mark.parametrize(("token", "reason"), [("bz:DuPS", "form"), ("bz:DuPPA", "colours")])
def test_bad_bazaar_tokens(token: str, reason: str) -> None:
    rep = run(REFILL.replace("bz:DePSA", token), BZ)
    found = [v for v in rep.violations if v.code == "BAZAAR-TOKEN"]
    assert found and found[0].reason == reason
    assert found[0].message("de")


def test_a_bazaar_stated_two_ways() -> None:
    body = REFILL + "3. Anna: buy bz:DePSA pay De7, take De5, place bz:DePSAn@1,0\n"
    rep = run(body, BZ)
    assert "BAZAAR-FACE" in codes(rep)


def test_more_bazaars_of_a_currency_than_exist() -> None:
    # two per currency (unverified reading): a third Denar bazaar is more than exist
    body = REFILL.replace("aside bz:DePSA,", "aside bz:DePSA, aside bz:DeCGT, aside bz:DeSAG,")
    rep = run(body, BZ)
    assert "TILE-SUPPLY" in codes(rep)


def test_switched_off() -> None:
    rep = run(REFILL, "")
    assert "MODULE-NOT-ENABLED" in codes(rep)


def test_unsold_bazaars_are_not_handed_out_and_the_example_is_clean() -> None:
    # "Unverkaufte Bazare werden bei Spielende nicht an die Spieler verteilt."
    path = Path(__file__).resolve().parents[1] / "examples" / "module-bazare.alh"
    game = parse_text(path.read_text(encoding="utf-8"), str(path))[0]
    rep = check_game(game)
    assert [v.code for v in rep.violations] == []
    assert rep.state is not None
    assert rep.state.game_over
    text = path.read_text(encoding="utf-8")
    assert "buy bz:" in text and "(bazaar=" in text


def test_show_lists_the_bazaars_beside_the_market() -> None:
    rep = run(REFILL, BZ)
    assert rep.state is not None
    view = rep.state.ext.views(rep.state)[BZ]
    assert view["table"]["beside the market"] == "bz:DePSA (De 7)"


def test_the_vizier_may_buy_a_bazaar() -> None:
    # "Mit „Wesir“ [siehe Seite 8] ... können Bazare gekauft werden." (both modules on)
    body = REFILL + "Anna: vizier, buy bz:DePSA pay De7, place bz:DePSA@1,0\n3. Anna: take De5\n"
    rep = run(body, "bazare, wesir")
    assert codes(rep) == []
    assert bazaars_beside(rep) == []
    rep = run(REFILL + "Anna: vizier, buy bz:DePSA pay De7 De2\n", "bazare, wesir")
    assert "BAZAAR-PRICE" in codes(rep)


def test_a_bazaar_is_never_a_building_site() -> None:
    # Die Baustellen, "Anmerkungen" (L2563-2564): "Feldlager [siehe Seite 15] und Bazare [siehe
    # Seite 23] können nicht als Baustellen eingerichtet werden" (both modules enabled)
    body = REFILL + "3. Anna: buy bz:DePSA pay De4 bs:De, reserve bz:DePSA\n"
    rep = run(body, "bazare, baustellen")
    assert "SITE-PIECE" in codes(rep), [v.message() for v in rep.violations]
    msg = next(v.message() for v in rep.violations if v.code == "SITE-PIECE")
    assert "bz:DePSA" in msg and "L2563" in msg
    # bought without a site, the same bazaar is fine
    body = REFILL + "3. Anna: buy bz:DePSA pay De7, take De5, place bz:DePSA@1,0\n"
    assert "SITE-PIECE" not in codes(run(body, "bazare, baustellen"))
