"""Der persönliche Marktplatz (``referee/modules/marktplatz.py``): rulebook-bigbox-de-2019.txt
§ Louis-David Péloquin: Der persönliche Marktplatz (text L3880-3916, heading L3918-3919).

Every sentence of the section, each test quoting the sentence it tests: the four market tiles
instead of the reserve board (L3882-3887), a building not built or removed goes under any
tile (L3889-3893), every other player may buy it in his turn for its price in the tile's
currency (L3893-3897), the cards paid go to the owner (L3898-3899), the owner may still build
it by a redesign (L3901-3904), buildings without a price are not for sale (L3909-3911), one
building per tile, a fifth replaces one or goes back to the box (L3913-3916). Positions are
used to set the table up; the module's state is read through its view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner
from conftest import view

from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.engine.legal import legal_actions
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import format_game, parse_text
from referee.record.model import Buy
from referee.simulate import simulate_text
from tests.module_support import check_position

MP = "marktplatz"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-marktplatz.alh"


def position(
    body: str,
    modules: str = MP,
    anna_reserve: str = "T9ne",
    anna_stalls: str = "stall De T9ne",
    anna_more: str = "",
    ben_hand: str = "De5 De4 De6 Du8",
    next_player: str = "Ben",
) -> GameReport:
    anna = ["hand Gu2 Di6 Du3", "alhambra A6ne@1,0", f"reserve {anna_reserve}"]
    return check_position(
        body,
        modules=modules,
        players={"Anna": [*anna, anna_stalls, anna_more], "Ben": f"hand {ben_hand}"},
        market="Gu:G11- Di:T11n De:P7e Du:C7ne",
        display="Gu4 Di3 De6 Du2",
        to_move=next_player,
    )


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def reasons(rep: GameReport) -> list[tuple[str, Any]]:
    return [(v.code, v.reason) for v in rep.violations]


def hand(rep: GameReport, name: str) -> str:
    assert rep.state is not None
    p = rep.state.player_named(name)
    assert p is not None
    return " ".join(sorted(c.code for c in p.hand.elements()))


def tiles(rep: GameReport, name: str = "Anna", lang: str = "en") -> str:
    players = view(rep, MP, lang).get("players", {})
    row = players.get(name, {})
    return str(row.get("market tiles", row.get("Marktplättchen", "")))


EMPTY_TILES = "Gu: - | Di: - | De: - | Du: -"

# --------------------------------------------------------------------------- L3882-3887


def test_four_tiles_one_per_currency_instead_of_the_reserve() -> None:
    """ "24 Marktplättchen (1 4er-Satz je Spieler)" / "Die Spieler erhalten statt des normalen
    Reservetableaus einen Satz Marktplättchen" (L3882, L3884-3887): four tiles, each showing
    a currency (one per currency: a reading, the picture is not in the text)."""
    rep = position("")
    assert codes(rep) == []
    assert tiles(rep) == "Gu: - | Di: - | De: T9ne (tower 9, 9 De) | Du: -"
    assert tiles(rep, lang="de") == "Gu: - | Di: - | De: T9ne (Turm 9, 9 De) | Du: -"


def test_a_currency_that_no_tile_shows() -> None:
    rep = position("1. Ben: take Gu4", anna_stalls="stall Xy T9ne")
    assert "MARKET-TOKEN" in codes(rep)


# --------------------------------------------------------------------------- L3889-3893


def test_a_building_not_built_goes_under_a_tile() -> None:
    """ "Kann oder will ein Spieler ein gekauftes Gebäude nicht in seine Alhambra einbauen ...
    so legt er das Gebäude unter ein beliebiges Marktplättchen" (L3889-3893)."""
    rep = position("1. Ben: buy De P7e pay De4 De6, reserve P7e, stall Du P7e")
    assert codes(rep) == []
    assert "Du: P7 (pavilion 7, 7 Du)" in tiles(rep, "Ben")


def test_stall_alone_reserves_a_building_bought_this_turn() -> None:
    """``stall Gu P7e`` names the tile and reserves the building in one line."""
    rep = position("1. Ben: buy De P7e pay De4 De6, stall Gu P7e")
    assert codes(rep) == []
    assert tiles(rep, "Ben").startswith("Gu: P7 (pavilion 7, 7 Gu)")


def test_a_building_removed_in_a_redesign_goes_under_a_tile() -> None:
    """ "oder baut er im Zuge einer Umbauaktion ein Gebäude aus, so legt er das Gebäude unter
    ein beliebiges Marktplättchen" (L3890-3893)."""
    rep = position("1. Anna: remove A6ne@1,0, stall Gu A6ne", next_player="Anna")
    assert codes(rep) == []
    assert tiles(rep).startswith("Gu: A6ne (arcades 6, 6 Gu)")


def test_a_tile_left_open_by_the_record_is_the_first_free_one_noted() -> None:
    """ "unter ein beliebiges Marktplättchen": the record should say which; when it does not,
    the first free tile is assumed and the record is noted as not verifiable."""
    rep = position("1. Ben: buy De P7e pay De4 De6, reserve P7e")
    assert codes(rep) == []
    notes = [n.key for n in rep.unverifiable]
    assert "UNVERIFIED-MARKET-TILE" in notes
    assert tiles(rep, "Ben").startswith("Gu: P7")


def test_stall_of_a_building_not_held_or_already_under_a_tile() -> None:
    rep = position("1. Ben: buy De P7e pay De4 De6, stall Gu C7ne, reserve P7e, stall Gu P7e")
    assert ("MARKET-STALL", "not-held") in reasons(rep)
    rep = position("1. Anna: take Gu4, stall Gu T9ne", next_player="Anna")
    assert reasons(rep) == [("MARKET-STALL", "under")]


# --------------------------------------------------------------------------- L3893-3899


def test_another_player_buys_it_and_the_owner_gets_the_cards() -> None:
    """ "Dieses Gebäude kann ab sofort von allen anderen Spielern in ihrem jeweiligen Zug für
    den Gebäudepreis in der darüberstehenden Währung gekauft werden" (L3893-3896); "Die beim
    Kauf ausgespielten Währungskarten erhält der ursprüngliche Besitzer" (L3898-3899)."""
    rep = position("1. Ben: buy T9ne pay De5 De4, place T9ne@1,0")
    assert codes(rep) == []
    assert hand(rep, "Anna") == "De4 De5 Di6 Du3 Gu2"
    assert hand(rep, "Ben") == "De6 Du8"
    assert rep.state is not None and rep.state.discard.total() == 0
    assert tiles(rep) == EMPTY_TILES  # nothing left under Anna's tiles


def test_an_exact_payment_gives_another_action() -> None:
    """ "(wenn möglich kann auch passend bezahlt werden)" (L3896-3897): exact as on the
    market, another action follows."""
    rep = position("1. Ben: buy T9ne pay De5 De4, take Gu4, place T9ne@1,0")
    assert codes(rep) == []


def test_an_inexact_payment_ends_the_turn() -> None:
    rep = position("1. Ben: buy T9ne pay De6 De4, take Gu4, place T9ne@1,0")
    assert codes(rep) == ["TURN-OVER"]
    assert hand(rep, "Anna") == "De4 De6 Di6 Du3 Gu2"


def test_it_is_paid_in_the_currency_of_its_tile_and_in_full() -> None:
    rep = position("1. Ben: buy T9ne pay Du8 De4, place T9ne@1,0")
    assert "BUY-CURRENCY" in codes(rep)
    rep = position("1. Ben: buy T9ne pay De5, place T9ne@1,0")
    assert "BUY-UNDERPAID" in codes(rep)


def test_the_owner_cannot_buy_from_his_own_market() -> None:
    """Only "allen anderen Spielern" (L3893-3895)."""
    rep = position("1. Anna: buy T9ne pay Di6, place T9ne@0,1", next_player="Anna")
    assert "MARKET-OWN" in codes(rep)


def test_not_out_of_turn_with_the_vizier() -> None:
    """ "in ihrem jeweiligen Zug" (L3894-3895): a vizier's purchase is from the market only."""
    body = "1. Cem: take Gu4\nBen: vizier, buy T9ne pay De5 De4, place T9ne@1,0\n2. Anna: take Di3"
    rep = position(body, modules="marktplatz, wesir", next_player="Cem")
    assert codes(rep) == ["MARKET-OUT-OF-TURN"]


def test_a_building_reserved_out_of_turn_gets_its_tile_in_its_owners_turn() -> None:
    """A vizier's building (out of turn) waits for its owner's own turn: ``stall`` there; the
    turns of the others in between leave it under no tile (not for sale yet, nothing noted)."""
    body = (
        "1. Cem: take Gu4\n"
        "Ben: vizier, buy De P7e pay De3 De4, reserve P7e\n"
        "2. Anna: take Di3\n"
        "3. Ben: take Du2, stall Gu P7e\n"
    )
    rep = position(body, modules="marktplatz, wesir", next_player="Cem", ben_hand="De3 De4 Du8")
    assert codes(rep) == []
    assert [n.key for n in rep.unverifiable if n.key == "UNVERIFIED-MARKET-TILE"] == []
    assert tiles(rep, "Ben").startswith("Gu: P7 (pavilion 7, 7 Gu)")


def test_simulated_games_with_the_vizier_are_legal() -> None:
    """The generator never offers a market building to a vizier line or to a player not to
    move (``SideOffer.own_turn``)."""
    for seed in (1, 2, 3):
        text = simulate_text(players=3, seed=seed, modules=("wesir", MP))
        rep = check_game(parse_text(text, "sim.alh")[0])
        assert codes(rep) == [] and rep.unverifiable == [], seed


# --------------------------------------------------------------------------- L3901-3904


def test_the_owner_still_builds_it_by_a_redesign() -> None:
    """ "Der Besitzer kann das Gebäude später durch eine eigene Umbauaktion in seine Alhambra
    einbauen (siehe: „Reserve“), sofern es dann dort noch liegt" (L3901-3904)."""
    rep = position("1. Anna: build T9ne@0,1", next_player="Anna")
    assert codes(rep) == []
    assert tiles(rep) == EMPTY_TILES


def test_not_once_another_player_bought_it() -> None:
    """ "sofern es dann dort noch liegt" (L3903-3904)."""
    body = "1. Ben: buy T9ne pay De5 De4, place T9ne@1,0\n2. Cem: take Gu4\n3. Anna: build T9ne@0,1"
    rep = position(body)
    assert codes(rep)[0] == "REDESIGN-NOT-IN-RESERVE"


# --------------------------------------------------------------------------- L3909-3916


def test_a_building_without_a_price_is_not_for_sale() -> None:
    """ "Gebäude ohne Preis können zwar unter den eigenen Marktplättchen platziert, aber nicht
    von anderen Spielern gekauft werden" (L3909-3911): a bazaar has no printed price."""
    anna = "stall Di bz:DuPSA"
    rep = position(
        "1. Ben: buy bz:DuPSA pay De5, place bz:DuPSA@1,0",
        modules="marktplatz, bazare",
        anna_reserve="bz:DuPSA",
        anna_stalls=anna,
    )
    assert "MARKET-NO-PRICE" in codes(rep)


def test_one_building_per_tile() -> None:
    """ "An jedem Marktplättchen darf nur 1 Gebäude liegen" (L3913)."""
    rep = position("1. Ben: buy De P7e pay De4 De6, stall Du P7e")
    assert codes(rep) == []
    rep = position("1. Anna: take Gu4, remove A6ne@1,0, stall De A6ne", next_player="Anna")
    assert "MARKET-ONE" in codes(rep)


FULL = "A7 G10- S9 P8"  # Anna's four tiles all taken
FULL_STALLS = "stall Gu A7\n    stall Di G10-\n    stall De S9\n    stall Du P8"


def full(body: str) -> GameReport:
    return position(
        body,
        anna_reserve=FULL,
        anna_stalls=FULL_STALLS,
        anna_more="",
        next_player="Anna",
    )


def test_a_fifth_building_replaces_one_which_goes_back_to_the_box() -> None:
    """ "Falls alle 4 Plätze belegt sind, darf ein hinzukommendes Gebäude ausgetauscht ...
    werden" (L3914-3916): the building it replaces goes back to the box."""
    rep = full("1. Anna: buy Di T11n pay Di6 Du3 Gu2, stall De T11n")
    assert "MARKET-" not in " ".join(codes(rep))
    assert "De: T11n (tower 11, 11 De)" in tiles(rep)
    assert view(rep, MP)["table"]["back in the box"] == "S9"
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and len(anna.reserve) == 4


def test_or_the_incoming_building_goes_back_to_the_box_unused() -> None:
    """ "... oder ungenutzt in die Schachtel zurückgelegt werden" (L3914-3916)."""
    rep = full("1. Anna: remove A6ne@1,0, box A6ne")
    assert codes(rep) == []
    assert view(rep, MP)["table"]["back in the box"] == "A6ne"


def test_the_buildings_back_in_the_box_read_back_from_a_position() -> None:
    rep = full("1. Anna: remove A6ne@1,0, box A6ne")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "\n  box A6ne\n" in text
    again = parse_text(EXAMPLE_HEADER + text, "again.alh")[0]
    state2, found = state_at(again, At("end"))
    assert found == [] and position_text(state2) == text
    assert state2.ext.views(state2)[MP] == rep.state.ext.views(rep.state)[MP]


def test_box_only_when_all_four_are_taken() -> None:
    rep = position("1. Ben: buy De P7e pay De4 De6, box P7e")
    assert reasons(rep) == [("MARKET-BOX", "free")]


def test_a_fifth_building_left_over_is_reported() -> None:
    rep = full("1. Anna: remove A6ne@1,0")
    assert codes(rep) == ["MARKET-FULL"]
    assert "L3913-3916" in rep.violations[0].message()


# --------------------------------------------------------------------------- tools


def test_position_block_round_trip() -> None:
    """``show --format record`` writes the tiles; reading them back gives the same view."""
    rep = position("1. Ben: buy De P7e pay De4 De6, stall Du P7e")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "stall Du P7" in text and "stall De T9ne" in text
    again = parse_text(EXAMPLE_HEADER + text, "again.alh")[0]
    state2, found = state_at(again, At("end"))
    assert found == []
    assert position_text(state2) == text
    assert state2.ext.views(state2)[MP] == rep.state.ext.views(rep.state)[MP]


EXAMPLE_HEADER = '[Players "Anna, Ben, Cem"]\n[Modules "marktplatz"]\n\n'


def test_the_generator_offers_the_purchase_and_the_tiles() -> None:
    rep = position("")
    assert rep.state is not None
    buys = [a for a in legal_actions(rep.state) if isinstance(a, Buy)]
    tower = [b for b in buys if str(b.tile.candidates[0].code) == "T9ne"]  # type: ignore[union-attr]
    assert tower and all(c.card.currency.code == "De" for b in tower for c in b.paid)  # type: ignore[union-attr]


def test_explain_may_ben_buy_annas_tower_with_these_cards(tmp_path: Path) -> None:
    rep_text = position_record()
    path = tmp_path / "p.alh"
    path.write_text(rep_text, encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(cli, ["explain", str(path), "Ben: buy T9ne pay De5 De4"]).output
    assert "buy T9ne pay De5 De4: legal" in out
    out = runner.invoke(cli, ["explain", str(path), "Ben: buy T9ne pay Du8 De4"]).output
    assert "BUY-CURRENCY" in out
    out = runner.invoke(
        cli, ["explain", str(path), "--player", "Anna", "buy T9ne pay Di6", "--lang", "de"]
    ).output
    assert "MARKET-OWN" in out and "eigenen Marktplatz" in out
    legal = runner.invoke(cli, ["legal", str(path), "--tile", "T9ne"]).output
    assert legal.strip()


def position_record() -> str:
    return f"""{EXAMPLE_HEADER}position
  next Ben
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu2 Di6 Du3
    alhambra A6ne@1,0
    reserve T9ne
    stall De T9ne
  player Ben
    hand De5 De4 De6 Du8
  player Cem
    hand Gu2 Di9
end
"""


def test_show_and_render_draw_the_tiles_in_the_player_area(tmp_path: Path) -> None:
    """The terminal's player block and the SVG under each Alhambra name the four tiles and the
    building under each, in English and German (``Module.player_area``)."""
    path = tmp_path / "p.alh"
    path.write_text(position_record(), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(cli, ["show", str(path), "--player", "Anna"]).output
    assert "Market tiles: Gu: - | Di: - | De: T9ne (tower 9, 9 De) | Du: -" in out
    out = runner.invoke(cli, ["show", str(path), "--lang", "de"]).output
    assert "Marktplättchen: Gu: - | Di: - | De: T9ne (Turm 9, 9 De) | Du: -" in out
    svg = tmp_path / "p.svg"
    runner.invoke(cli, ["render", str(path), "-o", str(svg), "--lang", "de"])
    assert "Marktplättchen: Gu: - | Di: - | De: T9ne (Turm 9, 9 De) | Du: -" in svg.read_text()
    data = runner.invoke(cli, ["show", str(path), "--format", "json"]).output
    assert "De: T9ne (tower 9, 9 De)" in data


def test_switched_off() -> None:
    rep = position("1. Ben: take Gu4, stall Gu T9ne", modules="", anna_stalls="")
    assert "MODULE-NOT-ENABLED" in codes(rep)


def test_simulated_games_are_legal_for_2_to_6_players() -> None:
    for n in range(2, 7):
        text = simulate_text(players=n, seed=n, modules=(MP,))
        game = parse_text(text, "sim.alh")[0]
        rep = check_game(game)
        assert [v for v in rep.violations if v.severity == "error"] == [], (n, rep.violations[:3])


def test_the_example_is_clean_and_canonical() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    rep = check_game(game)
    assert codes(rep) == []
    assert format_game(game) == text
    bought = [a for a in _actions(game) if isinstance(a, Buy) and "stall" not in str(a)]
    assert bought


def _actions(game: Any) -> list[Any]:
    return [a for item in game.body for a in getattr(item, "actions", ())]
