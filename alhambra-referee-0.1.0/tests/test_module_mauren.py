"""Die Künste der Mauren (``referee/modules/mauren.py``): rulebook-bigbox-de-2019.txt § DIE
KÜNSTE DER MAUREN (L2196-2292).

Every sentence of the section (taking and marking, the action "weiterentwickeln", the
Anmerkungen, the scoring, the two-player rule), the statements of the picture-only faces, the
corruptions a record or position can contain, and the stated cross-module rules with both
modules enabled (the vizier and the sultan: L2258-2261; building sites: Baustellen L2578-2579).
Each test quotes the sentence it tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import view

from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.modules.mauren import face, mark_index, price_class, tile_counts
from referee.notation import format_game, parse_text
from referee.scoring.state import score_state
from referee.simulate import simulate_text
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-mauren.alh"
M = "mauren"


def position(
    body: str,
    modules: str = M,
    reserve: str = "S7",
    anna_more: str = "",
    ben_more: str = "",
    cem_more: str = "",
    market: str = "Gu:P7 Di:T12 De:A8n Du:C7ne",
    players: str = "Anna, Ben, Cem",
) -> GameReport:
    given = {
        "Anna": ["hand Gu4 Gu3 De8 De5 Di9 Di3 Du5 Du3 Du2", f"reserve {reserve}", anna_more],
        "Ben": ["hand Du8 Du7 Di5 Gu1", ben_more],
        "Cem": ["hand Gu2 Di9", cem_more],
    }
    seats = players.split(", ")
    return check_position(
        body,
        modules=modules,
        players={n: lines for n, lines in given.items() if n in seats},
        market=market,
        display="Gu4 Di3 De6 Du2",
        names=players,
    )


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def reasons(rep: GameReport) -> list[tuple[str, Any]]:
    return [(v.code, v.reason) for v in rep.violations]


def tiles(rep: GameReport, name: str = "Anna", lang: str = "en") -> str:
    """The player's culture tiles in words, from the module's view (``show``)."""
    key = "Kulturplättchen" if lang == "de" else "culture tiles"
    return str(view(rep, M, lang).get("players", {}).get(name, {}).get(key, ""))


def culture_line(rep: GameReport, round_no: int = 1) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("culture")
        if cat:
            out[p["name"]] = cat
    return out


BUY_P7 = "1. Anna: buy Gu P7 pay Gu4 Gu3, reserve P7\n"
REST = "2. Ben: take Du2\n* display De2\n3. Cem: take Gu4\n* display Du7\n"


# ---------------------------------------------------------------- components


def test_twenty_tiles_in_seven_price_classes_and_twelve_is_thirteen() -> None:
    # "20 sechseckige Kulturplättchen"; "Alle Gebäude mit dem Preis „12” oder „13” gelten als
    # Gebäude mit dem gleichen Preis."
    assert sum(tile_counts().values()) == 20
    assert price_class(13) == price_class(12) == 12
    assert price_class(8) == 8
    # the reconstructed face: "0" first (L2227-2229), the maxima 3/6/10/15/21 (unverified)
    assert face(8)[0] == (0, 0) and [p for p, _ in face(8)] == [0, 3, 6, 10, 15, 21]


def test_the_stone_lies_on_the_highest_section_showing_that_many_squares() -> None:
    # "Der Stein wird auf den Abschnitt gelegt, der die entsprechende Anzahl kleiner schwarzer
    # Quadrate zeigt. Gibt es mehrere solcher Abschnitte, wird der Stein auf denjenigen mit der
    # höchsten Zahl gelegt." "Ein Kulturplättchen kann nur bis zum angegebenen Höchstwert
    # markiert werden."
    assert mark_index(8, 2) == 1 and mark_index(8, 4) == 3
    assert mark_index(8, 9) == 5  # capped at the tile's maximum


# ---------------------------------------------------------------- taking and marking


def test_two_buildings_of_one_price_give_a_tile_at_the_end_of_the_turn() -> None:
    # "Wer am Ende seines Zuges zwei oder mehr Gebäude mit gleichem Preis besitzt (in der
    # Alhambra und/oder in der Reserve), darf sich ... ein Kulturplättchen mit dem
    # entsprechenden Preis ... nehmen." "Das Kulturplättchen wird ... so ... angelegt, dass der
    # Wert „0” auf den Edelstein zeigt." "Dies kostet weder Geld noch einen Zug."
    rep = position(BUY_P7)
    assert codes(rep) == []
    assert tiles(rep) == "7: stone on 2 buildings, turned 0 step(s), 0 at the gem (data)"
    assert tiles(rep, "Ben", "de") == ""
    assert tiles(rep, lang="de").startswith("7: Stein auf 2 Gebäuden, 0 Stufe(n) gedreht")


def test_one_building_of_a_price_gives_none_and_tiles_of_several_prices_at_once() -> None:
    # "Trifft dies für unterschiedliche Preise zu, nimmt man sich auch die anderen
    # entsprechenden Kulturplättchen."
    assert tiles(position(BUY_P7, reserve="S8")) == ""
    both = position(BUY_P7, reserve="S7 S8 C8")
    assert tiles(both).startswith("7: stone on 2") and "8: stone on 2" in tiles(both)


def test_a_third_building_moves_the_stone_and_gives_no_second_tile() -> None:
    # "Wenn am Ende eines Zuges neu gekaufte Gebäude in die Alhambra eingebaut oder in die
    # Reserve gelegt werden, werden die entsprechenden Markierungssteine aktualisiert."
    # "Jeder Spieler darf von jeder Sorte Kulturplättchen höchstens eins besitzen."
    rep = position(BUY_P7, reserve="S7 A7")
    assert tiles(rep) == "7: stone on 3 buildings, turned 0 step(s), 0 at the gem (data)"


def test_twelve_and_thirteen_are_one_price() -> None:
    # "Alle Gebäude mit dem Preis „12” oder „13” gelten als Gebäude mit dem gleichen Preis."
    rep = position("1. Anna: buy Di T12 pay Di9 Di3, reserve T12\n", reserve="T13")
    assert codes(rep) == []
    assert tiles(rep).startswith("12/13: stone on 2 buildings")


def test_the_tile_is_taken_at_the_end_of_the_turn_not_before() -> None:
    # "Wer am Ende seines Zuges ..." -- a develop in the same turn still finds no tile
    body = "1. Anna: buy Gu P7 pay Gu4 Gu3, develop, reserve P7\n"
    assert ("MAUREN-DEVELOP", "none") in reasons(position(body))


def test_only_base_buildings_count() -> None:
    # "Es zählen nur die Gebäude aus dem Basisspiel." A magic building priced 7 is none.
    rep = position(BUY_P7, modules=f"magisch, {M}", reserve="mg:S7n")
    assert codes(rep) == []
    assert tiles(rep) == ""
    # the switch buildings=typed counts every piece of a building type with a price
    typed = position(BUY_P7, modules=f"magisch, {M} buildings=typed", reserve="mg:S7n")
    assert tiles(typed).startswith("7: stone on 2 buildings")


def test_dirk_gets_no_culture_tiles() -> None:
    # "Dirk erhält keine Kulturplättchen." (two players: Dirk's buildings never give one)
    text = simulate_text(2, 77, modules=(M,))
    rep = check_game(parse_text(text)[0])
    assert rep.violations == []
    assert "Dirk" not in view(rep, M).get("players", {})
    assert "Dirk" not in culture_line(rep, 3)


def test_the_stacks_run_out_and_the_switch_opens_them() -> None:
    # "Die Plättchen werden nach den Werten auf ihrer Rückseite (braun) sortiert und jeweils
    # als Stapel bereitgelegt": the number per price is printed only (mauren.yaml, unverified)
    held = "culture 7 2 0"
    full = position(BUY_P7, ben_more=held, cem_more=held, anna_more="")
    assert tile_counts()[7] == 3
    assert tiles(full).startswith("7: stone on 2")  # the third tile of 7
    more = position("1. Anna: take Gu4\n", ben_more=held, cem_more=held, anna_more=held)
    assert codes(more) == []
    # a fourth holder in a position is more than the stack holds
    four = "culture 7 2 0\n    reserve S7 A7"
    over = position(
        "",
        players="Anna, Ben, Cem, Dan",
        anna_more=held,
        ben_more=held,
        cem_more=held + "\n  player Dan\n    hand Gu1\n    " + four,
    )
    assert "MAUREN-SUPPLY" in codes(over)
    opened = position(
        "",
        modules=f"{M} supply=open",
        players="Anna, Ben, Cem, Dan",
        anna_more=held,
        ben_more=held,
        cem_more=held + "\n  player Dan\n    hand Gu1\n    " + four,
    )
    assert "MAUREN-SUPPLY" not in codes(opened)
    # nobody takes from an empty stack (Dan holds the third tile of 7), unless supply=open
    dan = held + "\n  player Dan\n    hand Gu1\n    culture 7 2 0\n    reserve G7 T7"
    empty = position(BUY_P7, players="Anna, Ben, Cem, Dan", ben_more=held, cem_more=dan)
    assert codes(empty) == [] and tiles(empty) == ""
    got = position(
        BUY_P7,
        modules=f"{M} supply=open",
        players="Anna, Ben, Cem, Dan",
        ben_more=held,
        cem_more=dan,
    )
    assert tiles(got).startswith("7: stone on 2")


# ---------------------------------------------------------------- the action


def test_develop_turns_every_tile_one_step_until_its_stone_faces_the_gem() -> None:
    # "Bei diesem Zug werden alle eigenen Kulturplättchen um 1 Stufe gegen den Uhrzeigersinn
    # gedreht. Ein Plättchen, dessen Markierungsstein auf dem Abschnitt steht, der zum
    # Edelstein des Anlegestreifens zeigt, wird nicht weitergedreht."
    more = "culture 7 3 0\n    culture 8 2 0"
    rep = position("1. Anna: develop\n", anna_more=more, reserve="S7 A7 G7 S8 C8")
    assert codes(rep) == []
    assert "7: stone on 3 buildings, turned 1 step(s), 3 at the gem" in tiles(rep)
    assert "8: stone on 2 buildings, turned 1 step(s), 3 at the gem" in tiles(rep)
    body = "1. Anna: develop\n" + REST + "4. Anna: develop\n"
    again = position(body, anna_more=more, reserve="S7 A7 G7 S8 C8")
    assert codes(again) == []
    assert "7: stone on 3 buildings, turned 2 step(s), 6 at the gem" in tiles(again)
    assert "8: stone on 2 buildings, turned 1 step(s), 3 at the gem" in tiles(again)


def test_develop_needs_a_tile_that_can_turn() -> None:
    # "Ein Spieler, der Kulturplättchen besitzt, hat eine neue Aktion zur Auswahl"; "Ein
    # Kulturplättchen, dessen Markierungsstein zum Edelstein zeigt, darf nicht weitergedreht
    # werden."
    assert ("MAUREN-DEVELOP", "none") in reasons(position("1. Anna: develop\n"))
    stuck = position("1. Anna: develop\n", anna_more="culture 7 2 1", reserve="S7 A7")
    assert ("MAUREN-DEVELOP", "stuck") in reasons(stuck)


def test_develop_is_an_action_of_the_turn() -> None:
    # "hat eine neue Aktion zur Auswahl: Aktion: Kulturplättchen weiterentwickeln"
    more = "culture 7 2 0"
    rep = position("1. Anna: take Gu4, develop\n", anna_more=more, reserve="S7 A7")
    assert "TURN-OVER" in codes(rep)
    exact = position("1. Anna: buy Du C7ne pay Du5 Du2, develop, reserve C7ne\n", anna_more=more)
    assert codes(exact) == []


def test_a_new_building_lets_a_stopped_tile_turn_on() -> None:
    # "werden die entsprechenden Markierungssteine aktualisiert": the stone moves on, the tile
    # turns again
    body = BUY_P7 + "* market Gu:G8sw\n" + REST + "4. Anna: develop\n"
    rep = position(body, anna_more="culture 7 2 1", reserve="S7 A7")
    assert codes(rep) == []
    assert "7: stone on 3 buildings, turned 2 step(s), 6 at the gem" in tiles(rep)


# ---------------------------------------------------------------- scoring and stated faces


def test_every_scoring_pays_the_value_facing_the_gem() -> None:
    # "Bei jeder Wertung erhält ein Spieler zusätzliche Siegpunkte für seine Kulturplättchen.
    # Die Zahl auf dem Kulturplättchen, die nach oben (in Richtung Edelstein) zeigt, gibt die
    # Anzahl Siegpunkte an"
    more = "culture 7 3 2\n    culture 8 2 0"
    rep = position("", anna_more=more, reserve="S7 A7 G7 S8 C8")
    for round_no in (1, 2, 3):
        line = culture_line(rep, round_no)["Anna"]
        assert line["points"] == 6 and line["detail"] == "7: 6, 8: 0"
    assert "Ben" not in culture_line(rep)


def test_a_stated_value_scores_and_later_statements_must_agree() -> None:
    # The faces are printed only: the record states the value at the gem ("culture 7 4"),
    # which then scores; the same section stated otherwise later is reported.
    more = "culture 7 3 1"
    rep = position("1. Anna: take Gu4, culture 7 4\n", anna_more=more, reserve="S7 A7 G7")
    assert codes(rep) == []
    assert "7: stone on 3 buildings, turned 1 step(s), 4 at the gem (stated)" in tiles(rep)
    assert culture_line(rep)["Anna"]["points"] == 4
    ben = "culture 7 2 1"
    clash = position(
        "1. Anna: take Gu4, culture 7 4\n* display Gu9\nBen: culture 7 5\n",
        anna_more=more,
        ben_more=ben + "\n    reserve S7 A7",
        reserve="S7 A7 G7",
    )
    assert ("MAUREN-FACE", "stated") in reasons(clash)


def test_statements_are_checked_against_the_tile_and_the_data() -> None:
    # "dass der Wert „0” auf den Edelstein zeigt"; the switch faces=data checks the data
    assert ("MAUREN-FACE", "zero") in reasons(
        position("1. Anna: take Gu4, culture 7 2\n", anna_more="culture 7 2 0", reserve="S7 A7")
    )
    assert "MAUREN-NOT-HELD" in codes(position("1. Anna: take Gu4, culture 9 3\n"))
    body = "1. Anna: take Gu4, culture 7 4\n"
    data = position(body, modules=f"{M} faces=data", anna_more="culture 7 3 1", reserve="S7 A7")
    assert ("MAUREN-FACE", "data") in reasons(data)


def test_a_claimed_culture_part_is_checked() -> None:
    # a scoring line may claim the part (culture=N); the example's scoring 1 gives Anna 6
    # (7: 0, 8: 3, 11: 3 stated)
    text = EXAMPLE.read_text(encoding="utf-8")
    for claim, ok in (("culture=6", True), ("culture=5", False)):
        claimed = text.replace("scoring 1: Anna =15,", f"scoring 1: Anna =15 ({claim}),")
        assert claimed != text
        rep = check_game(parse_text(claimed)[0])
        assert (codes(rep) == []) is ok
        if not ok:
            assert codes(rep) == ["SCORE-CLAIM"]
            assert "culture tiles +6 (7: 0, 8: 3, 11: 3)" in rep.violations[0].message()


# ---------------------------------------------------------------- positions


def test_position_lines_are_checked() -> None:
    # "Jeder Spieler darf von jeder Sorte Kulturplättchen höchstens eins besitzen."
    twice = position("", anna_more="culture 7 2 0\n    culture 7 2 0", reserve="S7 A7")
    assert ("MAUREN-TOKEN", "twice") in reasons(twice)
    assert ("MAUREN-TOKEN", "price") in reasons(position("", anna_more="culture 3 2 0"))
    assert ("MAUREN-TOKEN", "steps") in reasons(position("", anna_more="culture 7 2 6"))
    # a tile turned past its stone is reachable too (the stone followed a building that left
    # the player after the tile was turned): no error
    assert reasons(position("", anna_more="culture 7 2 3")) == []
    # a tile whose stone marks fewer than two buildings is reachable (a building left the
    # player: sold from his personal market, swapped by the Tänzerin): no error
    assert ("MAUREN-TOKEN", "marked") not in reasons(position("", anna_more="culture 7 1 0"))
    assert ("MAUREN-TOKEN", "form") in reasons(position("", anna_more="culture 7 2"))


def test_a_position_writes_the_tiles_and_reads_them_back() -> None:
    more = "culture 7 3 1 4\n    culture 8 2 0"
    rep = position("", anna_more=more, reserve="S7 A7 G7 S8 C8")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "    culture 7 3 1 4\n    culture 8 2 0\n" in text
    again = check_game(parse_text('[Players "Anna, Ben, Cem"]\n[Modules "mauren"]\n\n' + text)[0])
    assert again.state is not None
    assert position_text(again.state) == text
    assert again.state.ext.views(again.state)[M] == rep.state.ext.views(rep.state)[M]


# ---------------------------------------------------------------- with other modules


def test_with_the_vizier_the_tile_is_taken_at_once() -> None:
    # "Für Gebäude, die man außerhalb des normalen Zuges erhält („Wesir” und „Sultan”) gilt:
    # Sofort Kulturplättchen nehmen bzw. Markierung anpassen."
    mods = f"wesir, {M}"
    body = "1. Anna: take Gu4\n* display Gu9\nBen: vizier, buy Du C7ne pay Du7, reserve C7ne\n"
    rep = position(body, modules=mods, ben_more="reserve A7\n    vizier awake")
    assert codes(rep) == []
    assert tiles(rep, "Ben").startswith("7: stone on 2 buildings")


def test_with_the_sultan_the_tile_is_taken_at_once() -> None:
    # the same note, for a tile claimed with a sultan card (Macht des Sultans)
    mods = f"sultan, {M}"
    body = (
        "1. Anna: buy Gu P7 pay Gu4 Gu3, reserve P7\n* market Gu:C7sw\n"
        "Ben: sultan su:GuC C7sw, reserve C7sw\n"
    )
    rep = position(body, modules=mods, reserve="S8", ben_more="reserve S7\n    sultan su:GuC")
    assert codes(rep) == []
    assert tiles(rep, "Ben").startswith("7: stone on 2 buildings")


def test_a_building_site_counts_only_when_completed() -> None:
    # Baustellen: "Gebäude auf Baustellen zählen bei den Künsten der Mauren erst nach ihrer
    # Fertigstellung." (L2578-2579)
    mods = f"baustellen, {M}"
    site = "1. Anna: buy Gu P7 pay Gu3 bs:hidden, reserve P7\n"
    rep = position(site, modules=mods)
    assert codes(rep) == []
    assert tiles(rep) == ""
    done = site + "* market Gu:G8sw\n" + REST + "4. Anna: complete P7 bs:De pay De8\n"
    rep2 = position(done, modules=mods, anna_more="")
    assert tiles(rep2).startswith("7: stone on 2 buildings"), [v.message() for v in rep2.violations]


# ---------------------------------------------------------------- the example, simulation


def test_the_example_is_clean_canonical_and_develops() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    rep = check_game(game)
    assert rep.violations == [], [v.message() for v in rep.violations][:3]
    assert format_game(game) == text
    assert ": develop" in text or ", develop" in text


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulated_games_check_clean(players: int) -> None:
    text = simulate_text(players, 4100 + players, modules=(M,))
    rep = check_game(parse_text(text)[0])
    assert rep.violations == [], [v.message() for v in rep.violations][:3]


def test_simulated_games_with_the_vizier_sultan_and_sites_check_clean() -> None:
    text = simulate_text(4, 4242, modules=("wesir", "sultan", "baustellen", M))
    rep = check_game(parse_text(text)[0])
    assert rep.violations == [], [v.message() for v in rep.violations][:3]


def test_a_moment_of_the_example_round_trips_as_a_position() -> None:
    from tests.test_position_modules import _game, _round_trip

    game = _game(M)
    last, _ = state_at(game, At("end"))
    state, state2, text, again = _round_trip(game, At("turn", max(1, last.turn_no - 2)))
    assert position_text(state2) == position_text(state)
    assert state2.ext.views(state2)[M] == state.ext.views(state)[M]
    assert check_game(again).violations == []
    assert "    culture " in text


def test_the_tiles_are_drawn_in_the_players_area_not_on_the_map() -> None:
    # the tiles lie on docking strips before their owner ("an den Anlegestreifen angelegt"):
    # the terminal names them in the player's block, the SVG under the Alhambra, in EN and DE
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    path = str(EXAMPLE)
    out = runner.invoke(cli, ["show", path, "--at", "60", "--player", "Anna"]).output
    lines = out[out.index("Anna  (to move)") :].splitlines()
    after = lines[next(i for i, x in enumerate(lines) if x.startswith("Reserve:")) + 1 :]
    assert after[:3] == [
        "culture tile 7: 3 at the gem (stone on 2, turned 1)",
        "culture tile 8: 6 at the gem (stone on 3, turned 2)",
        "culture tile 11: 3 at the gem (stone on 2, turned 1)",
    ]
    de = runner.invoke(cli, ["show", path, "--at", "60", "--lang", "de"]).output
    assert "Kulturplättchen 11: 3 am Edelstein (Stein auf 2, 1 gedreht)" in de
    svg = runner.invoke(cli, ["render", path, "--at", "60", "-o", "-", "--lang", "de"]).output
    assert 'class="area"' in svg and "Kulturplättchen 8: 6 am Edelstein" in svg
    assert "culture" not in svg.split('class="area"')[0]  # nothing on the tiles
    json_out = runner.invoke(cli, ["show", path, "--at", "60", "--format", "json"]).output
    assert "stone on 3 buildings, turned 2 step(s), 6 at the gem (data)" in json_out


def test_explain_and_legal_answer_for_the_action_and_the_statement() -> None:
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    path = str(EXAMPLE)
    no = runner.invoke(cli, ["explain", path, "--at", "2", "develop", "--lang", "de"]).output
    assert "MAUREN-DEVELOP" in no and "besitzt keines" in no
    yes = runner.invoke(cli, ["explain", path, "--at", "45", "develop"]).output
    assert "develop: legal" in yes
    held = runner.invoke(cli, ["explain", path, "--at", "2", "culture 8 3"]).output
    assert "MAUREN-NOT-HELD" in held
    legal = runner.invoke(cli, ["legal", path, "--at", "45"]).output
    assert "develop" in legal.split("Module actions")[1]


def test_the_example_replays_trusted_to_the_same_end_and_the_replay_names_the_tiles() -> None:
    # check_verb is pure and action only changes: a trusted replay ends in the same state
    from test_module_trusted_replay import end_state, picture

    game = parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]
    assert picture(end_state(game, True)) == picture(end_state(game, False))
    import json

    from referee.replay import game_data

    for lang, words in (("en", "turned 2 step(s), 6 at the gem"), ("de", "2 Stufe(n) gedreht")):
        data = json.dumps(game_data(game, lang), ensure_ascii=False)
        assert words in data
