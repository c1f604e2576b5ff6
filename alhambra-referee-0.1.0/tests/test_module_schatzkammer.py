"""Die Schatzkammer (rulebook-bigbox-de-2019.txt § DIE SCHATZKAMMER, L1512-1604).

A chest is written by its colour, the building letter (P blau, S rot, A braun, C weiß, G grün,
T lila). The points table is only in the picture of the chamber: the values used are data marked
unverified (schatzkammer.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, run, view

from referee.api import score_state
from referee.engine import GameReport, check_game
from referee.modules.schatzkammer import per_colour, points_table
from referee.notation import format_game, parse_text

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-schatzkammer.alh"

# Anna: gardens north and east, a tower west, chambers south; Ben: a garden, a pavilion;
# Cem: a garden, an arcade
ANNA = "G10-@0,1 G11-@1,0 T11-@-1,0 C10-@0,-1"
BEN = "G10-@0,1 P8-@1,0"
CEM = "G11-@0,1 A9-@1,0"
ROOMS = "  chests 1 G G T P\n  chests 2 A C S G\n  chests 3 T T P A\n"


def position(
    body: str,
    *,
    modules: str = "schatzkammer",
    anna: str = ANNA,
    ben: str = BEN,
    cem: str = CEM,
    rooms: str = ROOMS,
    extra: str = "",
    anna_more: str = "",
    players: str = "Anna, Ben, Cem",
) -> GameReport:
    names = [n.strip() for n in players.split(",")]
    sections = {
        "Anna": f"    hand Du3 De3 Di4 Gu9 Gu2\n    alhambra {anna}\n{anna_more}",
        "Ben": f"    hand Du8 Di5 Gu1\n    alhambra {ben}\n",
        "Cem": f"    hand Gu2 Di9\n    alhambra {cem}\n",
    }
    text = f"""[Players "{players}"]
[Modules "{modules}"]

position
  next Anna
  market Gu:S9 Di:T11n De:P7e Du:S7
  display Gu4 Di3 De8 Du2
{rooms}{extra}"""
    for n in names:
        text += f"  player {n}\n{sections[n]}"
    text += "end\n" + body
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def found(rep: GameReport) -> list[str]:
    # the positions reuse tiles across players: that note aside
    return [c for c in codes(rep) if c != "TILE-SUPPLY"]


def chest_messages(rep: GameReport) -> list[str]:
    return [v.message() for v in rep.violations if v.code.startswith("CHEST-")]


def table(rep: GameReport) -> dict[str, str]:
    return dict(view(rep, "schatzkammer")["table"])


def chests(rep: GameReport, who: str) -> str:
    return str(view(rep, "schatzkammer")["players"].get(who, {}).get("chests", "-"))


def chest_line(rep: GameReport, round_no: int) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("chests")
        if cat:
            out[p["name"]] = cat
    return out


# --------------------------------------------------------------------------- components


def test_forty_two_chests_in_six_colours_three_rooms_of_four() -> None:
    # "42 Schatztruhen, 5x blau/rot, 7x braun/weiß, 9x grün/lila"; "1 Schatzkammer mit 3 Räumen"
    assert per_colour() == {"P": 5, "S": 5, "A": 7, "C": 7, "G": 9, "T": 9}
    assert sum(per_colour().values()) == 42
    # picture-only: "Die Verteilung der Siegpunkte ist auf dem Plan der Schatzkammer abgedruckt"
    assert points_table() == {1: (7,), 2: (14, 7), 3: (22, 14, 7)}


def test_setup_rooms_are_drawn_from_the_bag_and_shown() -> None:
    # "Alle 42 Schatztruhen kommen in den Stoffbeutel. Jeweils 4 Truhen werden aus dem Beutel
    # gezogen und auf die 3 Räume der Schatzkammer platziert."
    rep = run(
        "* chests 1 G G T P, chests 2 A C S G, chests 3 T T P A\n1. Ben: take Gu1\n", "schatzkammer"
    )
    assert codes(rep) == []
    t = table(rep)
    assert (t["room 1"], t["room 2"], t["room 3"]) == ("G G T P", "A C S G", "T T P A")
    assert t["in the bag"] == "30" and t["refills"] == "go on"


def test_setup_rooms_not_stated_are_reported() -> None:
    rep = run("* chests 1 G G T P\n1. Ben: take Gu1\n", "schatzkammer")
    assert codes(rep) == ["CHEST-REFILL", "CHEST-REFILL"]
    assert "room 2" in messages(rep)[0] and "* chests 2" in messages(rep)[0]


def test_setup_draws_are_checked_against_the_bag() -> None:
    # five blue chests exist: a sixth drawn is caught
    rep = run(
        "* chests 1 P P P P, chests 2 P P A C, chests 3 T T T T\n1. Ben: take Gu1\n", "schatzkammer"
    )
    assert codes(rep) == ["CHEST-SUPPLY"]
    assert "blue (P)" in messages(rep)[0] and "at most 1" in messages(rep)[0]


def test_a_room_holds_four_and_a_chest_is_a_colour_letter() -> None:
    rep = run(
        "* chests 1 G G T, chests 2 A C S G, chests 3 T T P X\n1. Ben: take Gu1\n", "schatzkammer"
    )
    assert codes(rep) == ["CHEST-REFILL", "CHEST-TOKEN", "CHEST-REFILL"]
    rep = run("* chests 4 G G T P\n", "schatzkammer")
    assert "CHEST-ROOM" in codes(rep)


# ------------------------------------------------------------------ buying chests


def test_the_rulebook_example_three_three_four_no_change() -> None:
    # "Er bezahlt 3 Dukaten, 3 Dinar und 4 Dirham. Er nimmt sich die 4 Schatztruhen eines
    # beliebigen Raumes der Schatzkammer. Wechselgeld erhält er nicht zurück."
    rep = position(
        "1. Anna: chests 1 pay Du3 De3 Di4, chest G @0,1, chest G @1,0, chest T @-1,0\n"
        "Ben: chest P @1,0\n"
        "* chests 1 S S A C\n"
    )
    assert found(rep) == [], messages(rep)
    assert chests(rep, "Anna") == "G@0,1 T@-1,0 G@1,0"
    assert chests(rep, "Ben") == "P@1,0"
    assert table(rep)["room 1"] == "S S A C"
    assert rep.state is not None
    hand = sorted(c.code for c in rep.state.player_named("Anna").hand.elements())
    assert hand == ["Gu2", "Gu9"]  # the ten paid, nothing back


def test_at_least_eight_in_any_mix() -> None:
    # "bezahlt man mindestens den Preis 8 in einer beliebigen Kombination von Währungen"
    rep = position("1. Anna: chests 3 pay Du3 De3, chest T @-1,0\n")
    assert "BUY-UNDERPAID" in found(rep)
    rep = position("1. Anna: chests 3 pay Gu9, chest T @-1,0\n* chests 3 G G G G\n")
    assert found(rep) == [], messages(rep)


def test_exact_payment_gives_no_extra_action() -> None:
    # "Achtung: Wer die Schatztruhen genau passend bezahlt, bekommt keinen Extrazug!"
    rep = position(
        "1. Anna: chests 3 pay Du3 De3 Gu2, chest T @-1,0, take Gu4\n* chests 3 G G G G\n"
    )
    assert "TURN-OVER" in found(rep)


def test_chests_as_the_extra_action_after_an_exact_purchase() -> None:
    # buying chests is an action ("eine neue Aktion"): it may follow an exact purchase; the
    # building bought this turn may receive a chest ("Auch Gebäude, die in diesem Zug gekauft
    # wurden, können eine Truhe erhalten")
    rep = position(
        "1. Anna: buy Gu S9 pay Gu9, chests 2 pay Du3 De3 Di4, place S9@0,-2, "
        "chest S @0,-2, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\n* chests 2 G G G G\n"
    )
    assert found(rep) == [], messages(rep)
    assert "S@0,-2" in chests(rep, "Anna") and chests(rep, "Cem") == "A@1,0"


def test_the_chest_goes_on_a_building_of_its_colour_of_the_one_who_places_it() -> None:
    rep = position(
        "1. Anna: buy Gu S9 pay Gu9, chests 2 pay Du3 De3 Di4, place S9@0,-2, "
        "chest S @0,-2, chest C @0,-1, chest G @0,1\n"
        "Ben: chest A @1,0\n* chests 2 G G G G\n"
    )
    assert found(rep) == ["CHEST-COLOUR"]  # Ben's building @1,0 is a pavilion
    assert "Ben" in chest_messages(rep)[0] and "P8" in chest_messages(rep)[0]


def test_not_on_buildings_in_the_reserve() -> None:
    # "nicht jedoch Gebäude, die in der Reserve liegen"
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest S @0,-2, chest G @0,1, chest C @0,-1\n"
        "* chests 2 G G G G\n",
        anna_more="    reserve S9\n",
    )
    assert found(rep) == ["CHEST-COLOUR"]
    assert "reserve" in chest_messages(rep)[0]


def test_a_chest_on_the_wrong_colour_is_caught() -> None:
    # "auf farblich passende Gebäude verteilt"
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @-1,0, chest T @1,0\n* chests 1 A A A A\n"
    )
    assert found(rep)[:2] == ["CHEST-COLOUR", "CHEST-COLOUR"]
    assert "tower" in chest_messages(rep)[0] or "T11" in chest_messages(rep)[0]


def test_one_chest_per_building() -> None:
    # "In jedes Gebäude darf nur 1 Truhe gestellt werden."
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @0,1, chest T @-1,0\n* chests 1 A A A A\n"
    )
    assert "CHEST-FULL" in found(rep)


def test_only_the_chests_of_the_room_bought() -> None:
    rep = position("1. Anna: chests 3 pay Gu9, chest G @0,1\n* chests 3 A A A A\n")
    assert "CHEST-HELD" in found(rep)
    assert "T T P A" in chest_messages(rep)[0]
    rep = position("1. Anna: take Gu4, chest G @0,1\n")
    assert found(rep) == ["CHEST-HELD"]


def test_the_buyer_must_place_what_he_can() -> None:
    # "Die Schatztruhen müssen in dem Zug, in dem sie gekauft wurden, auf farblich passende
    # Gebäude verteilt werden"; only what "nicht ... verteilt werden" can goes on
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1\nBen: chest G @0,1, chest P @1,0\n"
        "* chests 1 A A A A\n"
    )
    assert found(rep) == ["CHEST-UNPLACED", "CHEST-UNPLACED"]
    assert "@1,0" in chest_messages(rep)[0] and "@-1,0" in chest_messages(rep)[1]


def test_handed_on_to_the_left_then_round_the_table_then_into_the_bag() -> None:
    # "gibt man die restlichen Truhen an den linken Nachbarn weiter, der nun die Möglichkeit
    # hat, diese Truhen auf seine Gebäude zu verteilen. Bleiben auch hier Truhen übrig,
    # wandern sie weiter. Truhen, die von keinem Spieler platziert werden können, gehen zurück
    # in den Beutel."
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\n* chests 2 T T T T\n"
    )
    assert found(rep) == [], messages(rep)
    # Ben let them pass (he has no arcade or seraglio); Cem took the arcade; the seraglio went back
    assert chests(rep, "Cem") == "A@1,0" and chests(rep, "Ben") == "-"
    assert table(rep)["in the bag"] == str(42 - 12 - 3)


def test_handed_on_in_seat_order() -> None:
    # Ben is the left neighbour: once Cem, the last, has written his line, the hand-over is
    # over and the seraglio chest is back in the bag
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\nBen: chest S @1,0\n* chests 2 T T T T\n"
    )
    assert found(rep) == ["CHEST-PASS"]
    assert chests(rep, "Ben") == "-"


def test_a_neighbour_may_let_them_pass() -> None:
    # "der nun die Möglichkeit hat": Ben may place the pavilion chest, but need not
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @-1,0\n* chests 1 A A A A\n"
    )
    assert found(rep) == []
    assert chests(rep, "Ben") == "-"


def test_option_neighbours_must_place() -> None:
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @-1,0\n"
        "* chests 1 A A A A\n",
        modules="schatzkammer neighbours=must",
    )
    assert found(rep) == ["CHEST-UNPLACED"]
    assert "Ben" in chest_messages(rep)[0]


def test_a_chest_line_out_of_turn_without_a_hand_over() -> None:
    rep = position("1. Anna: take Gu4\nBen: chest G @0,1\n")
    assert "CHEST-PASS" in found(rep)


def test_two_players_dirk_takes_first() -> None:
    # "Beim 2-Personen-Spiel werden Schatztruhen, die nicht platziert werden können, immer
    # zuerst an Dirk (unser virtueller 3. Spieler) weitergegeben, bei dem sie auf passende
    # Gebäude platziert werden. Ein eventueller Rest wird dann weitergegeben."
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @-1,0\n"
        "Ben: chest P @1,0\n* chests 1 A A A A\n",
        players="Anna, Ben",
        extra="  dirk P8 C8nw\n",
    )
    # Dirk has a pavilion: the pavilion chest is his, nothing is left for Ben
    assert found(rep) == ["CHEST-PASS"]
    assert table(rep)["Dirk's chests"] == "P"
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @-1,0\n"
        "Ben: chest P @1,0\n* chests 1 A A A A\n",
        players="Anna, Ben",
        extra="  dirk S9 C8nw\n",
    )
    assert found(rep) == [], messages(rep)
    assert chests(rep, "Ben") == "P@1,0" and "Dirk's chests" not in table(rep)


# ------------------------------------------------------------------ refilling the rooms


def test_the_emptied_room_is_filled_again_and_the_draw_is_checked() -> None:
    # "Nun wird der geleerte Raum der Schatzkammer mit 4 zufällig gezogenen Truhen wieder gefüllt."
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\n2. Ben: take Gu4\n"
    )
    assert found(rep) == ["CHEST-REFILL"]
    assert "room 2" in chest_messages(rep)[0]
    # 9 purples: 3 in rooms 1 and 3, so at most 6 are in the bag
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\n* chests 2 T T T T\n"
    )
    assert found(rep) == [], messages(rep)
    # with 6 purples in rooms 1 and 3, at most 3 are in the bag
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\n"
        "Cem: chest A @1,0\n* chests 2 T T T T\n",
        rooms="  chests 1 G G T T\n  chests 2 A C S G\n  chests 3 T T T T\n",
    )
    assert found(rep) == ["CHEST-SUPPLY"]
    assert "at most 3" in chest_messages(rep)[0]


def test_a_full_room_is_not_filled() -> None:
    rep = position("1. Anna: take Gu4\n* chests 2 G G G G\n")
    assert "CHEST-ROOM" in found(rep)


def test_fewer_than_four_left_the_room_stays_empty_and_refills_stop() -> None:
    # "Sollten zu diesem Zeitpunkt nicht mehr ausreichend Truhen vorhanden sein, bleibt der
    # Raum leer. Von nun an werden keine Truhen mehr nachgelegt."
    # 42 chests: 12 in the rooms, 28 with Dirk -> 2 in the bag (an arcade and a chambers)
    many = " ".join("G" * 7 + "T" * 8 + "P" * 4 + "S" * 4 + "A" * 5)
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\nCem: chest A @1,0\n"
        "2. Ben: take Gu4\n",
        rooms="  chests 1 G T P C\n  chests 2 A C S G\n  chests 3 C C C C\n",
        extra=f"  chests dirk {many}\n",
    )
    # the bag holds 2 + the seraglio back = 3 < 4: the room stays empty, no refill is missing
    assert found(rep) == [], messages(rep)
    assert table(rep)["room 2"] == "empty" and table(rep)["refills"] == "stopped"
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\nCem: chest A @1,0\n"
        "* chests 2 S A A\n",
        rooms="  chests 1 G T P C\n  chests 2 A C S G\n  chests 3 C C C C\n",
        extra=f"  chests dirk {many}\n",
    )
    assert "CHEST-REFILL" in found(rep)
    assert "keine Truhen mehr nachgelegt" in chest_messages(rep)[0]


# ------------------------------------------------------------------ redesign, squares, sites


def test_a_removed_building_returns_its_chest_to_the_bag() -> None:
    # "Wird ein Gebäude mit Schatztruhe abgebaut, wird die Truhe zurück in den Beutel gelegt."
    rep = position(
        "1. Anna: remove G11-@1,0\n",
        anna_more="    chest G @1,0\n    chest G @0,1\n",
    )
    assert found(rep) == []
    assert chests(rep, "Anna") == "G@0,1"
    assert table(rep)["in the bag"] == str(42 - 12 - 1)


def test_a_swapped_out_building_returns_its_chest_to_the_bag() -> None:
    rep = position(
        "1. Anna: swap S9@1,0 for G11-\n",
        anna_more="    reserve S9\n    chest G @1,0\n",
    )
    assert found(rep) == []
    assert chests(rep, "Anna") == "-"


def test_no_chests_on_squares() -> None:
    # "Truhen dürfen nicht auf Plätzen [siehe Seite 11] platziert werden."
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @0,2\n* chests 1 A A A A\n",
        modules="schatzkammer, plaetze",
        anna="G10-@0,1 G11-@1,0 sq:T0@0,2 C10-@0,-1",
    )
    assert "CHEST-COLOUR" in found(rep)
    assert "sq:T" in chest_messages(rep)[0] and "Plätzen" in chest_messages(rep)[0]


def test_chests_only_on_finished_building_sites() -> None:
    # DIE BAUSTELLEN (L2572-2576): "Schatztruhen dürfen erst nach Fertigstellung der Baustelle
    # auf den fertigen Gebäudeplättchen platziert werden."
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest P @0,2, chest T @-1,0\n"
        "* chests 1 A A A A\n",
        modules="schatzkammer, baustellen",
        anna=ANNA + " P7e@0,2",
        anna_more="    sites P7e bs:De\n",
    )
    assert "CHEST-COLOUR" in found(rep), messages(rep)
    assert any("building site" in m for m in chest_messages(rep))


# ------------------------------------------------------------------ scoring


def test_chest_majority_at_every_scoring() -> None:
    # "Wer die meisten Truhen hat, bekommt die Punkte für den 1. Platz. Wer die zweit- oder
    # drittmeisten Truhen hat, bekommt entsprechend die Siegpunkte für den 2. bzw. 3. Platz."
    rep = position(
        "",
        anna_more="    chest G @1,0\n    chest G @0,1\n    chest T @-1,0\n",
    )
    assert chest_line(rep, 1)["Anna"]["points"] == 7
    assert chest_line(rep, 3)["Anna"]["points"] == 22
    # the colour plays no part, only the count; ties share like the buildings (rounded down)
    text = position(
        "",
        anna_more="    chest G @1,0\n",
    )
    assert chest_line(text, 2)["Anna"]["points"] == 14


def test_ties_are_shared_like_the_building_scorings() -> None:
    # "Bei Gleichstand mehrerer Spieler wird wie in den Wertungen der Gebäude verfahren."
    rep = position("", anna_more="    chest G @1,0\n")
    assert rep.state is not None
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "schatzkammer"]

position
  next Anna
{ROOMS}  player Anna
    alhambra {ANNA}
    chest G @1,0
  player Ben
    alhambra {BEN}
    chest G @0,1
  player Cem
    alhambra {CEM}
end
"""
    game = parse_text(text, "t.alh")[0]
    rep = check_game(game)
    line = chest_line(rep, 3)
    assert line["Anna"]["points"] == line["Ben"]["points"] == 18  # (22 + 14) / 2


def test_dirk_ranks_in_the_chest_majority() -> None:
    rep = position(
        "",
        players="Anna, Ben",
        extra="  dirk P8 C8nw\n  chests dirk P C\n",
        anna_more="    chest G @1,0\n",
    )
    line = chest_line(rep, 3)
    assert line["Dirk"]["points"] == 22 and line["Anna"]["points"] == 14


# ------------------------------------------------------------------ positions and example


def test_position_lines_round_trip() -> None:
    rep = position(
        "1. Anna: chests 1 pay Gu9, chest G @0,1, chest G @1,0, chest T @-1,0\n"
        "Ben: chest P @1,0\n* chests 1 S S A C\n"
    )
    assert rep.state is not None
    mod = next(m for m in rep.state.ext.modules if m.name == "schatzkammer")
    outside = [
        str(a.verb) + " " + " ".join(str(x.value) for x in a.args)
        for a in mod.position_lines(rep.state, None)
    ]
    assert outside == ["chests 1 S S A C", "chests 2 A C S G", "chests 3 T T P A"]
    anna = mod.position_lines(rep.state, rep.state.player_named("Anna"))
    assert len(anna) == 3


def test_module_switched_off_is_reported() -> None:
    rep = run("1. Ben: chests 1 pay Di9\n", "")
    assert "MODULE-NOT-ENABLED" in codes(rep)


def test_the_example_game_is_clean_and_canonical() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    assert format_game(game) == text.split("\n\n", 1)[1] or format_game(game) in text
    rep = check_game(game)
    assert rep.violations == [] and rep.valid
    assert "chests 1 pay" in text and "\nBen: chest " in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_view_in_both_languages(lang: str) -> None:
    rep = position("", anna_more="    chest G @1,0\n")
    v = view(rep, "schatzkammer", lang)
    assert v["players"]


def _headers(game: Any) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def _breakdown(result: Any) -> dict[str, Any]:
    return {
        row.name: {k: (c.points, c.detail("en")) for k, c in row.categories.items()}
        for row in result.rows
    }


def test_every_moment_of_the_example_round_trips_through_a_position() -> None:
    # `show --format record` writes the rooms, Dirk's chests and each player's chests; `check`
    # and `score` read them back to the same state, view and chest scoring
    from referee.engine.position_text import position_text
    from referee.engine.walk import At, state_at
    from referee.scoring.state import score_state as score_now

    game = parse_text(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))[0]
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    seen_chests = 0
    for k in sorted({1, 28, 29, 36, 72, 73, 75, n // 2, n - 1}):
        state, _ = state_at(game, At("turn", k))
        text = _headers(game) + "\n\n" + position_text(state)
        again = parse_text(text, "position.alh")[0]
        assert not again.errors, text
        state2, found2 = state_at(again, At("end"))
        assert found2 == [], [v.message() for v in found2]
        assert position_text(state2) == position_text(state), k
        v1 = state.ext.views(state)["schatzkammer"]
        v2 = state2.ext.views(state2)["schatzkammer"]
        assert v1 == v2, k
        assert format_game(again) == text
        seen_chests += text.count("    chest ")
        assert _breakdown(score_now(state2.copy(), 3)) == _breakdown(score_now(state.copy(), 3))
    assert seen_chests > 0


def test_a_position_with_more_chests_of_a_colour_than_exist_is_caught() -> None:
    rep = position("", extra="  chests dirk P P P P\n")  # rooms hold 2 blue already
    assert found(rep) == ["CHEST-SUPPLY"]


def test_a_position_states_a_room_waiting_for_its_refill() -> None:
    due = "  chests 1 G G T P\n  chests 2 due\n  chests 3 T T P A\n"
    rep = position("* chests 2 T T T T\n1. Anna: take Gu4\n", rooms=due)
    assert found(rep) == [], messages(rep)
    assert table(rep)["room 2"] == "T T T T"
    rep = position("1. Anna: take Gu4\n", rooms=due)
    assert found(rep) == ["CHEST-REFILL"]
    # "empty": the refills have stopped
    rep = position("1. Anna: take Gu4\n", rooms=due.replace("due", "empty"))
    assert found(rep) == [] and table(rep)["refills"] == "stopped"


def test_chests_are_drawn_on_their_tiles_in_the_map_the_svg_and_the_replay(tmp_path: Path) -> None:
    # E17 (Module.cell_marks): the chest stands on its building in every drawing
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    shown = runner.invoke(cli, ["show", str(EXAMPLE), "--at", "29"])
    assert shown.exit_code == 0, shown.output
    assert "C5+" in shown.output  # Cem's chambers 5 holds a chest
    assert "+ C5@-1,0: chest C" in shown.output and shown.output.count(": chest ") == 4
    svg = tmp_path / "t.svg"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--at", "29", "-o", str(svg)])
    assert res.exit_code == 0, res.output
    text = svg.read_text(encoding="utf-8")
    assert "@2,-1 + chest T" in text and text.count("+ chest ") == 4
    page = tmp_path / "t.html"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--html", "--lang", "de", "-o", str(page)])
    assert res.exit_code == 0, res.output
    assert "@2,-1 + chest T" in page.read_text(encoding="utf-8")


def test_the_moment_after_a_turn_comes_after_the_hand_over_lines() -> None:
    # walk.py: the lines of the players the chests were handed to belong to the buyer's turn
    from referee.engine.walk import At, state_at

    game = parse_text(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))[0]
    state, _ = state_at(game, At("turn", 28))  # 28. Cem buys room 1; "Ben: chest G ..." follows
    assert not state.stages
    v = state.ext.views(state)["schatzkammer"]
    assert v["players"]["Ben"]["chests"] == "P@1,1 G@-2,-1"


def test_the_last_four_chests_of_the_bag_fill_a_room() -> None:
    # 42 chests: 12 in the rooms, 27 with Dirk, 3 in the bag; the seraglio chest nobody can
    # place goes back: exactly 4 are left, so the room is filled with them
    many = " ".join("G" * 7 + "T" * 8 + "P" * 4 + "S" * 4 + "A" * 4)
    rep = position(
        "1. Anna: chests 2 pay Gu9, chest C @0,-1, chest G @0,1\nCem: chest A @1,0\n"
        "* chests 2 A A C S\n2. Ben: take Gu4\n",
        rooms="  chests 1 G T P C\n  chests 2 A C S G\n  chests 3 C C C C\n",
        extra=f"  chests dirk {many}\n",
    )
    assert found(rep) == [], messages(rep)
    assert table(rep)["in the bag"] == "0" and table(rep)["refills"] == "go on"
