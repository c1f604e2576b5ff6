"""Die neuen Wertungskärtchen (rulebook-bigbox-de-2019.txt § DIE NEUEN WERTUNGSKÄRTCHEN).

The tiles' orders and the indicator's values were printed only in pictures: the YAML holds a
reading (unverified). The tests here use that data where they need a tile of the set, and state
what the rulebook's sentences require of any data.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import codes, messages

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.modules.base import module_data
from referee.modules.wertungskaertchen import (
    indicator_points,
    listed_orders,
    parse_order,
    points_table,
)
from referee.notation import parse_text
from referee.scoring import render_scoring_text
from referee.scoring.core import POINTS

M = "wertungskaertchen"
P, S, A, C, G, T = BUILDING_TYPES
IGNORE = ("SCORING-CARD-PILE",)  # W1 turns up early on purpose

HEAD = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
"""
TILES = "* scoringtile 1 st:APGCTS, scoringtile 2 st:SGTCAP, scoringtile 3 st:TSPGCA\n"
# Ben builds an arcade, Anna a pavilion; then W1 turns up and scoring 1 follows
TURNS = """start Ben
1. Ben: buy Di A9 pay Di9, place A9@1,0
* market Di:G6
2. Cem: take Du2
* display Du5
3. Anna: buy De P7 pay De7, place P7@0,1
* market De:T8
* display W1
"""


def run(tiles: str = TILES, scoring: str = "scoring 1\n", modules: str = M) -> GameReport:
    text = HEAD.format(modules=modules) + tiles + TURNS + scoring
    games = parse_text(text, "wk.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def row(rep: GameReport, name: str, scoring: int = 0):  # type: ignore[no-untyped-def]
    return next(r for r in rep.scorings[scoring].rows if r.name == name)


# ---------------------------------------------------------------------------- components


def test_eighteen_tiles_each_another_order_of_the_six_types() -> None:
    # "18 Wertungskärtchen, jedes mit einer anderen Reihenfolge der 6 Gebäudearten"
    orders = listed_orders()
    assert len(orders) == 18 and len(set(orders)) == 18
    assert all(len(o) == 6 and set(o) == set(BUILDING_TYPES) for o in orders)
    data = module_data(M)["components"]
    assert data["tiles"]["count"] == 18 and data["tiles"]["count_verified"] is True
    # picture-only facts are marked and sourced
    assert data["tiles"]["orders_verified"] is False and data["tiles"]["orders_source"]
    assert data["indicator"]["points_verified"] is False and data["indicator"]["points_source"]
    assert data["indicator"]["slots"] == 3  # "Aussparungen, um 3 Kärtchen einzulegen"


def test_indicator_reading_is_the_base_table_by_position() -> None:
    # the reading: the k-th position of a tile pays what the k-th type pays in the base game
    for r in (1, 2, 3):
        assert indicator_points(r) == tuple(POINTS[r][t] for t in BUILDING_TYPES)
    # the base game's own order reproduces the base table exactly
    assert points_table(tuple(BUILDING_TYPES), 3) == POINTS[3]


def test_tile_tokens() -> None:
    assert parse_order("PCTSAG") == (P, C, T, S, A, G)
    assert parse_order("pctsag") == (P, C, T, S, A, G)
    assert parse_order("PCTSA") is None and parse_order("PCTSAA") is None
    assert parse_order("PCTSAX") is None


# ---------------------------------------------------------------------- scoring changes


def test_each_scoring_pays_by_its_tile() -> None:
    # "Welche Gebäudesorte wie viele Punkte einbringt, kann man dem Punkteanzeiger und dem
    # eingelegten Wertungskärtchen entnehmen." Tile 1 st:APGCTS: arcades lowest (1 point),
    # pavilions 2 -- the base game would pay 3 for the arcade and 1 for the pavilion.
    rep = run(scoring="scoring 1: Anna +3 (P=2, wall=1), Ben +1 (A=1)\n")
    assert codes(rep, IGNORE) == [], messages(rep)
    assert row(rep, "Anna").buildings[P].points == 2
    assert row(rep, "Ben").buildings[A].points == 1


def test_the_base_points_are_not_used() -> None:
    # "Die Siegpunkte auf den Wertungskarten und den Reservetableaus des Basisspiels werden
    # nicht berücksichtigt." A claim by the base table is wrong.
    rep = run(scoring="scoring 1: Ben +3 (A=3)\n")
    assert codes(rep, IGNORE) == ["SCORE-CLAIM", "SCORE-CLAIM"]
    assert "computed" in " ".join(messages(rep)) or "rules give 1" in " ".join(messages(rep))


def test_the_highest_points_may_go_to_another_type() -> None:
    # "Gab es bislang für die Mehrheit an Türmen die meisten Punkte, kann es nun die
    # Höchstpunktzahl z.B. für die meisten Serails geben." Tile st:TSPGCA: arcades pay most.
    table = points_table(parse_order("TSPGCA"), 3)  # type: ignore[arg-type]
    assert table[A] == (21, 13, 6) and table[T] == (16, 8, 1)
    table = points_table(parse_order("SGTCAP"), 2)  # type: ignore[arg-type]
    assert max(table, key=lambda t: table[t]) is P


def test_the_base_scoring_cards_still_trigger_the_scorings() -> None:
    # "Die beiden Wertungskarten des Basisspiels werden wie üblich eingemischt und lösen wie
    # gehabt die entsprechende Wertung aus, wenn sie gezogen werden."
    text = HEAD.format(modules=M) + TILES + TURNS.replace("* display W1\n", "") + "scoring 1\n"
    rep = check_game(parse_text(text, "wk.alh")[0])
    assert "SCORING-UNEXPECTED" in codes(rep)
    rep = run(scoring="")  # W1 drawn, scoring 1 not written
    assert codes(rep, IGNORE) == ["SCORING-MISSING"]
    rep = run(scoring="4. Cem: take Du5\n")
    assert "SCORING-MISSING" in codes(rep, IGNORE)


def test_dirk_scores_by_the_same_table() -> None:
    # Two players: Dirk ranks in the majorities ("Bei Wertungen bekommt auch Dirk Siegpunkte
    # für Gebäudemehrheiten"), by the tile's table like everybody.
    text = """[Players "Anna, Ben"]
[Modules "wertungskaertchen"]

position
  scorings 1
  scoringtile 2 st:SGTCAP
  dirk S6es S7 T8nes
  player Anna
    alhambra T12-@1,0
  player Ben
    alhambra A9-@1,0
end
"""
    runner = CliRunner()
    got = runner.invoke(cli, ["score", "-", "--round", "2", "--format", "json"], input=text)
    assert got.exit_code == 0, got.output
    data = json.loads(got.output)
    assert data["games"][0]["problems"] == []
    result = data["games"][0]["scoring"]
    players = {p["name"]: p for p in result["players"]}
    # SGTCAP at scoring 2: S (8, 1), G (9, 2), T (10, 3), C (11, 4), A (12, 5), P (13, 6)
    assert players["Dirk"]["buildings"]["S"]["points"] == 8
    assert players["Dirk"]["buildings"]["T"]["place"] == 1  # Dirk 1 tower, Anna 1: tie
    assert players["Anna"]["buildings"]["T"]["points"] == (10 + 3) // 2
    assert players["Ben"]["buildings"]["A"]["points"] == 12
    assert result["table"]["label"] == "scoring tile 2 st:SGTCAP"


def test_breakdown_names_the_tile_in_text_json_and_german() -> None:
    rep = run()
    result = rep.scorings[0]
    text = render_scoring_text(result)
    assert "scoring tile 1 st:APGCTS: S 6, T 5, C 4, G 3, P 2, A 1" in text
    de = render_scoring_text(result, "de")
    assert "Wertungskärtchen 1 st:APGCTS" in de
    d = result.to_dict()
    assert d["table"]["points"]["A"] == [1] and d["table"]["label_de"].startswith("Wertungsk")


# --------------------------------------------------------------------- statements checked


def test_a_tile_stated_twice_is_caught() -> None:
    # "3 Kärtchen werden zufällig gezogen" -- each tile exists once
    rep = run("* scoringtile 1 st:APGCTS, scoringtile 2 st:APGCTS\n")
    assert "SCORINGTILE-TWICE" in codes(rep)


def test_a_tile_that_does_not_exist_is_caught() -> None:
    rep = run("* scoringtile 1 st:PSACGT\n")  # an order, but not one of the 18 listed
    assert codes(rep, IGNORE)[0] == "SCORINGTILE-TOKEN"
    assert "not one of the 18" in messages(rep)[0]
    rep = run("* scoringtile 1 st:PPACGT\n")  # no order of the six types
    assert codes(rep, IGNORE)[0] == "SCORINGTILE-TOKEN"
    rep = run("* scoringtile st:PCTSAG\n")  # no slot
    assert codes(rep, IGNORE)[0] == "SCORINGTILE-TOKEN"


def test_the_option_tiles_any_accepts_any_order() -> None:
    rep = run("* scoringtile 1 st:PSACGT\n", modules=f"{M} tiles=any")
    assert "SCORINGTILE-TOKEN" not in codes(rep)
    assert row(rep, "Ben").buildings[A].points == 3  # PSACGT is the base order
    rep = run(modules=f"{M} tiles=some")
    assert "MODULE-OPTION" in codes(rep)


def test_slots_are_one_to_three_and_a_tile_does_not_change() -> None:
    assert codes(run("* scoringtile 4 st:APGCTS\n"), IGNORE)[0] == "SCORINGTILE-SLOT"
    rep = run(TILES + "* scoringtile 1 st:SGTCAP\n")
    assert "SCORINGTILE-SLOT" in codes(rep)
    rep = run(TILES + "* scoringtile 1 st:APGCTS\n")  # the same again is no contradiction
    assert codes(rep, IGNORE) == []


def test_a_scoring_without_its_tile_is_reported() -> None:
    rep = run("* scoringtile 2 st:SGTCAP\n")
    assert codes(rep, IGNORE) == ["SCORINGTILE-MISSING"]
    rep = run("", scoring="scoring 1\n* scoringtile 1 st:APGCTS\n")
    assert codes(rep, IGNORE) == ["SCORINGTILE-MISSING", "SCORINGTILE-SLOT"]


def test_messages_in_both_languages() -> None:
    rep = run("* scoringtile 1 st:APGCTS, scoringtile 2 st:APGCTS\n")
    v = next(v for v in rep.violations if v.code == "SCORINGTILE-TWICE")
    assert "slot 2" in v.message("en") and "Aussparung 2" in v.message("de")
    assert v.rule.section.endswith(
        "DIE NEUEN WERTUNGSKÄRTCHEN: Änderungen in der Spielvorbereitung"
    )


def test_show_and_json_show_the_indicator() -> None:
    text = HEAD.format(modules=M) + TILES + TURNS + "scoring 1\n"
    got = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert "scoring 1: st:APGCTS: S6 T5 C4 G3 P2 A1 (scored)" in got.output
    got = CliRunner().invoke(cli, ["show", "-", "--format", "json"], input=text)
    assert "st:SGTCAP" in got.output
    got = CliRunner().invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Die neuen Wertungskärtchen" in got.output


def test_a_type_missing_from_everyone_pays_nothing() -> None:
    # the majority rule is the base game's: "dass man mindestens 1 Gebäudeteil besitzen muss"
    rep = run()
    assert all(r.buildings[G].points == 0 for r in rep.scorings[0].rows)
    assert BuildingType.GARDEN is G


def test_replay_page_names_the_tile() -> None:
    from referee.replay.page import scoring_table

    assert "scoring tile 1 st:APGCTS" in scoring_table(run().scorings[0], "en")


def test_module_options_are_checked() -> None:
    # an option the module does not offer, a value it does not allow, a word without "="
    for header in (f"{M} foo=bar", f"{M} tiles=some", f"{M} tiles"):
        rep = run(modules=header)
        found = [v for v in rep.violations if v.code == "MODULE-OPTION"]
        assert len(found) == 1, header
        assert "tiles=" in found[0].message("en") and "Voreinstellung" in found[0].message("de")
    assert codes(run(modules=f"{M} tiles=listed"), IGNORE) == []
