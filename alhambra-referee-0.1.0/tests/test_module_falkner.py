"""Die Falkner (rulebook-bigbox-de-2019.txt § DIE FALKNER, L2293-2386).

Falcons are written ``fk:`` + the falcon colour (K schwarz, B braun, W weiß) + the two building
colours on the back; the backs are only in the pictures, so the faces used here are the
records' own statements (the referee checks them against each other and 5 per colour).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, run, view

from referee.api import score_state
from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game
from referee.modules.falkner import Falcon, parse_falcon, per_colour, points_table
from referee.notation import format_game, parse_text
from referee.record.model import ComponentRef
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-falkner.alh"

# Anna: towers east, gardens north, chambers north-east of the fountain (the rulebook's example:
# lila, grün, weiß at one crossing, the fourth tile the start tile); pavilion and seraglio west.
ANNA = "T11-@1,0 G10-@0,1 C10-@1,1 P8-@-1,0 S9-@-1,1"
# five crossings: @0,0 ne T G C, @-1,0 ne P S G, @1,0 ne T A C, @0,-1 ne C G T, @-1,-1 ne T C P
ANNA9 = ANNA + " A9-@2,0 A10-@2,1 C11-@0,-1 G11-@1,-1 T12-@-1,-1"
BLACK5 = "".join(
    f"\n    falcon fk:{s}"
    for s in ("KTC @0,0 ne", "KPS @-1,0 ne", "KAC @1,0 ne", "KCG @0,-1 ne", "KPT @-1,-1 ne")
)


def position(body: str, modules: str = "falkner", anna: str = ANNA, ben: str = "") -> GameReport:
    diamonds = " dm:7 mb:Gu" if "diamanten" in modules else ""
    return check_position(
        body,
        modules=modules,
        market="Gu:G11- Di:T11n De:P7e Du:C7ne",
        players={
            "Anna": [f"hand Gu3 De7 Du2 Di1{diamonds}", f"alhambra {anna}"],
            "Ben": ["hand Du8 Di5 Gu1", f"alhambra {ben}" if ben else ""],
        },
    )


def found(rep: GameReport) -> list[str]:
    # the tests reuse tiles across players and squares without walls: those notes aside
    return [c for c in codes(rep) if c not in ("TILE-SUPPLY", "SQUARE-FACE-UNVERIFIED")]


def falkner_messages(rep: GameReport) -> list[str]:
    return [v.message() for v in rep.violations if v.code.startswith("FALKNER-")]


def falcons(rep: GameReport, who: str = "Anna") -> str:
    return str(view(rep, "falkner")["players"].get(who, {}).get("falcons", "-"))


def supply(rep: GameReport) -> str:
    return str(view(rep, "falkner")["table"]["in the supply"])


def falcon_line(rep: GameReport, round_no: int = 1) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("falcons")
        if cat:
            out[p["name"]] = cat
    return out


# --------------------------------------------------------------------------- components


def test_fifteen_falcons_five_per_colour_and_the_points_table() -> None:
    # "15 Falken, je 5 Plättchen in den 3 Farben schwarz, braun und weiß"; "1 Falke 2 Punkte,
    # 2 Falken einer Farbe 6 Punkte, 3 ... 12, 4 ... 20, 5 (alle) Falken einer Farbe 30 Punkte"
    assert per_colour() == {"K": 5, "B": 5, "W": 5}
    assert points_table() == [0, 2, 6, 12, 20, 30]


def test_falcon_tokens() -> None:
    # "Die Rückseiten zeigen neben der Falkenfarbe jeweils 2 Gebäudefarben"
    f = parse_falcon("KTG")
    assert f == Falcon("K", (BuildingType.GARDEN, BuildingType.TOWER))
    assert f == parse_falcon("kgt") and f is not None and f.code == "fk:KGT"
    assert f.matches(ComponentRef("fk", "KTG")) and not f.matches(ComponentRef("fk", "BTG"))
    for bad in ("KTT", "XTG", "KT", "KTGA", "K1G"):
        assert parse_falcon(bad) is None


# ------------------------------------------------------------------ placing a falcon


def test_the_rulebook_example_two_of_the_three_colours_at_the_crossing() -> None:
    # "Ein Falke, der an dieser Stelle platziert werden soll, muss auf der Rückseite 2 der 3
    # Farben lila (Türme), grün (Gärten) und weiß (Gemächer) aufweisen."
    for ok in ("KTG", "KTC", "KGC"):
        rep = position(f"1. Anna: falcon fk:{ok} @0,0 ne pay Gu3")
        assert found(rep) == [], (ok, messages(rep))
    for bad in ("KTP", "KGS", "KPA"):
        rep = position(f"1. Anna: falcon fk:{bad} @0,0 ne pay Gu3")
        assert found(rep) == ["FALKNER-COLOURS"], bad
        assert "@0,0 ne" in messages(rep)[0]


def test_the_start_tile_forms_a_crossing_but_supplies_no_colour() -> None:
    # "Falken können auch über das Startplättchen platziert werden, diese liefern jedoch
    # keine geforderte Farbe."; crossing @-1,0 ne: pavilion, seraglio, gardens, fountain
    assert found(position("1. Anna: falcon fk:BPS @-1,0 ne pay Gu3")) == []
    assert found(position("1. Anna: falcon fk:BPG @-1,0 ne pay Gu3")) == []
    rep = position("1. Anna: falcon fk:BPA @-1,0 ne pay Gu3")
    assert found(rep) == ["FALKNER-COLOURS"] and "missing" not in messages(rep)[0]


def test_a_crossing_of_four_tiles_of_the_own_alhambra() -> None:
    # "auf einem Kreuzungspunkt abgelegt, an dem 4 Gebäudeplättchen zusammentreffen"
    rep = position("1. Anna: falcon fk:KTC @1,0 ne pay Gu3")  # 2,0 and 2,1 are empty
    assert found(rep) == ["FALKNER-CROSSING"] and "2,0" in messages(rep)[0]
    # Ben's Alhambra is only his fountain: Anna's tiles do not count for him
    rep = position("1. Anna: take Gu4\n2. Ben: falcon fk:KTC @0,0 ne pay Gu1")
    assert "FALKNER-CROSSING" in found(rep)
    # a corner written in another way names the same crossing
    assert found(position("1. Anna: falcon fk:KTC @1,1 sw pay Gu3")) == []
    assert found(position("1. Anna: falcon fk:KTC @0,0 up pay Gu3")) == ["FALKNER-CROSSING"]


def test_one_falcon_per_crossing() -> None:
    # "An einer Kreuzung kann nur 1 Falke platziert werden."
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu3, falcon fk:WTG @0,0 ne pay De7")
    assert found(rep) == ["FALKNER-TAKEN"] and "fk:KCT" in messages(rep)[0]
    assert falcons(rep) == "fk:KCT @0,0 ne"


def test_only_base_buildings_supply_colours_and_form_the_crossing() -> None:
    # "Es gelten hierbei nur die Gebäude des Basisspiels": a square (Die Plätze) lies at the
    # crossing: it is no building tile (switch crossing=buildings, the default) ...
    anna = "T11-@1,0 G10-@0,1 sq:C0@1,1"
    rep = position("1. Anna: falcon fk:KTG @0,0 ne pay Gu3", "falkner, plaetze", anna)
    assert found(rep) == ["FALKNER-CROSSING"]
    # ... and with crossing=any it forms the crossing but shows no colour
    mods = "falkner crossing=any, plaetze"
    assert found(position("1. Anna: falcon fk:KTG @0,0 ne pay Gu3", mods, anna)) == []
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu3", mods, anna)
    assert found(rep) == ["FALKNER-COLOURS"]


# ------------------------------------------------------------------------ the action


def test_several_falcons_in_one_turn_each_for_one_card_of_any_value_and_currency() -> None:
    # "Ein Spieler darf in seinem Zug beliebig viele Falken kaufen, vorausgesetzt, er kann
    # jeden einzelnen platzieren." "Der Kaufpreis für jeden Falken ist 1 Geldkarte, egal in
    # welcher Höhe und Währung."
    rep = position(
        "1. Anna: falcon fk:KTC @0,0 ne pay De7, falcon fk:BPG @-1,0 ne pay Di1\n2. Ben: take Gu4"
    )
    assert found(rep) == []
    assert falcons(rep) == "fk:BPG @-1,0 ne fk:KCT @0,0 ne"
    assert supply(rep) == "black 4 brown 4 white 5"
    assert rep.state is not None
    assert sorted(c.code for c in rep.state.players[0].hand.elements()) == ["Du2", "Gu3"]


def test_the_only_action_of_the_turn_never_after_another_or_as_a_bonus() -> None:
    # "Diese Aktion kann nur als die einzige Aktion der Runde gewählt werden! Sie darf nicht
    # als Bonusaktion für passendes Zahlen ausgeführt werden."
    rep = position("1. Anna: take Gu4, falcon fk:KTC @0,0 ne pay Gu3")
    assert found(rep) == ["FALKNER-ONLY"] and "after another action" in messages(rep)[0]
    rep = position("1. Anna: buy De P7e pay De7, falcon fk:KTC @0,0 ne pay Gu3, place P7e@2,0")
    assert "FALKNER-ONLY" in found(rep) and "exact payment" in " ".join(messages(rep))
    # nothing after the falcons: the turn's action is over
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu3, take Gu4")
    assert found(rep) == ["TURN-OVER"] and "buying and placing falcons" in messages(rep)[0]


def test_one_money_card_per_falcon() -> None:
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu3 Du2")
    assert found(rep) == ["FALKNER-PAY"] and "not 2" in messages(rep)[0]
    rep = position("1. Anna: falcon fk:KTC @0,0 ne")
    assert found(rep) == ["FALKNER-PAY"] and "not 0" in messages(rep)[0]
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu9")  # not in her hand
    assert found(rep) and "FALKNER-PAY" not in found(rep)


def test_diamonds_and_master_builders_pay_for_falcons() -> None:
    # "Falken können mit Diamanten [siehe Seite 13] und Baumeisterkarten [siehe Seite 21]
    # bezahlt werden."
    mods = "falkner, diamanten, baumeister"
    rep = position(
        "1. Anna: falcon fk:KTC @0,0 ne pay dm:7, falcon fk:WPS @-1,0 ne pay mb:Gu\n"
        "2. Ben: take Gu4",
        mods,
    )
    assert found(rep) == [], messages(rep)
    assert falcons(rep) == "fk:WPS @-1,0 ne fk:KCT @0,0 ne"
    assert rep.state is not None
    assert rep.state.players[0].hand.total() == 4  # the diamond and the card are spent
    # a diamond still counts as one card
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay dm:7 Gu3", mods)
    assert found(rep) == ["FALKNER-PAY"]


def test_other_module_money_is_no_money_card() -> None:
    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay sq:T", "falkner, plaetze")
    assert "FALKNER-PAY" in found(rep) and "sq:T is no money card" in messages(rep)[0]


def test_bad_tokens_and_arguments() -> None:
    rep = position("1. Anna: falcon fk:KTT @0,0 ne pay Gu3")
    assert found(rep) == ["FALKNER-TOKEN"]
    rep = position("1. Anna: falcon @0,0 ne pay Gu3")
    assert "VERB-ARGS" in found(rep)


def test_switched_off() -> None:
    rep = run("1. Ben: falcon fk:KTC @0,0 ne pay Gu8\n")
    assert codes(rep)[:1] == ["MODULE-NOT-ENABLED"]


# ----------------------------------------------------------- supply and redesign


def test_five_falcons_of_a_colour_at_most() -> None:
    # "15 Falken, je 5 Plättchen in den 3 Farben"
    four = BLACK5.rsplit("\n", 1)[0]
    assert found(position("1. Anna: falcon fk:KPT @-1,-1 ne pay Gu3", anna=ANNA9 + four)) == []
    rep = position("1. Anna: take Gu4", anna=ANNA9 + BLACK5)
    assert found(rep) == [] and supply(rep) == "black 0 brown 5 white 5"
    rep = position("1. Anna: falcon fk:KAT @1,0 ne pay Gu3", anna=ANNA9 + BLACK5)
    assert "FALKNER-SUPPLY" in found(rep) and "all 5 black falcons" in " ".join(messages(rep))


def test_faces_stated_are_checked_against_each_other() -> None:
    # the backs are picture-only: five different black faces are stated, so each black falcon
    # shows one of them; Anna's redesign returns the falcons on @0,0 ne and @1,0 ne
    ben = "T12-@1,0 G11-@0,1 C11-@1,1"
    first = "1. Anna: remove C10-@1,1\n2. Ben: "
    rep = position(first + "falcon fk:KTC @0,0 ne pay Du8", anna=ANNA9 + BLACK5, ben=ben)
    assert found(rep) == [], messages(rep)  # the returned falcon, bought again
    rep = position(first + "falcon fk:KCG @0,0 ne pay Du8", anna=ANNA9 + BLACK5, ben=ben)
    assert found(rep) == ["FALKNER-SUPPLY"] and "at most 1" in falkner_messages(rep)[0]
    rep = position(first + "falcon fk:KGT @0,0 ne pay Du8", anna=ANNA9 + BLACK5, ben=ben)
    assert found(rep) == ["FALKNER-SUPPLY"]
    assert "6 different faces" in falkner_messages(rep)[0]


def test_redesigning_a_tile_under_a_falcon_returns_it_to_the_supply() -> None:
    # "Beim Umbau eines der 4 Plättchen, auf denen ein Falke platziert ist, wird der Falke
    # wieder in den allgemeinen Vorrat zurückgelegt. Dort kann er erneut von jedem Spieler
    # erworben werden." -- "Falken dürfen weder umgebaut noch in die Reserve gelegt werden"
    anna = ANNA + "\n    falcon fk:KTC @0,0 ne"
    ben = "T12-@1,0 G11-@0,1 C11-@1,1"
    body = "1. Anna: remove C10-@1,1\n2. Ben: falcon fk:KTC @0,0 ne pay Du8"
    rep = position(body, anna=anna, ben=ben)
    assert found(rep) == [], messages(rep)
    assert falcons(rep) == "-" and falcons(rep, "Ben") == "fk:KCT @0,0 ne"
    assert supply(rep) == "black 4 brown 5 white 5"
    # the falcon scores no more for Anna
    assert list(falcon_line(rep)) == ["Ben"]


# ------------------------------------------------------------------------ scoring


@pytest.mark.parametrize(("n", "points"), [(1, 2), (2, 6), (3, 12), (4, 20), (5, 30)])
def test_falcons_of_one_colour_score_by_the_table(n: int, points: int) -> None:
    # "Die Falken jeder Farbe werden separat gewertet." (at every scoring)
    spots = ["fk:WTC @0,0 ne", "fk:WPS @-1,0 ne", "fk:WAC @1,0 ne", "fk:WCG @0,-1 ne"]
    spots += ["fk:WPT @-1,-1 ne"]
    lines = "".join(f"\n    falcon {s}" for s in spots[:n])
    rep = position("", anna=ANNA9 + lines)
    assert found(rep) == [], messages(rep)
    for round_no in (1, 2, 3):
        line = falcon_line(rep, round_no)["Anna"]
        assert line["points"] == points and line["detail"] == f"{n} white -> {points}"


def test_colours_are_scored_separately() -> None:
    anna = ANNA + "\n    falcon fk:KTC @0,0 ne\n    falcon fk:BPS @-1,0 ne"
    rep = position("", anna=anna)
    line = falcon_line(rep)["Anna"]
    assert line["points"] == 4 and line["detail_de"] == "1 schwarz -> 2, 1 braun -> 2"


# ------------------------------------------------------------ positions and the example


def test_a_position_states_the_falcons_and_show_record_round_trips() -> None:
    from referee.engine.position_text import position_text

    rep = position("1. Anna: falcon fk:KTC @0,0 ne pay Gu3, falcon fk:BPG @-1,0 ne pay De7")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "falcon fk:BPG @-1,0 ne" in text and "falcon fk:KCT @0,0 ne" in text
    again = check_game(
        parse_text('[Players "Anna, Ben, Cem"]\n[Modules "falkner"]\n\n' + text, "p")[0]
    )
    assert again.state is not None and position_text(again.state) == text
    assert falcons(again) == falcons(rep)


def test_a_falcon_in_a_position_is_checked_like_a_placement() -> None:
    rep = position("", anna=ANNA + "\n    falcon fk:KTC @1,0 ne")
    assert found(rep) == ["FALKNER-CROSSING"]
    rep = position("", anna=ANNA + "\n    falcon fk:KPA @0,0 ne")
    assert found(rep) == ["FALKNER-COLOURS"]


def test_legal_moves_offer_falcons_on_crossings_with_both_colours() -> None:
    from referee.engine.context import Context
    from referee.notation.formatter import action

    rep = position("")
    assert rep.state is not None
    state = rep.state
    fk = next(m for m in state.ext.modules if m.name == "falkner")
    moves = fk.legal_actions(Context(state), state.players[0])
    # @0,0 ne shows T G C, @-1,0 ne P S G; @1,0 ne is no crossing of four tiles
    assert {" ".join(str(a.value) for a in m.args[1:3]) for m in moves} == {
        "0,0 ne",
        "-1,0 ne",
    }
    for m in moves:  # every move offered is accepted
        assert found(position(f"1. Anna: {action(m)}")) == [], action(m)


def test_the_example_game_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    rep = check_game(game)
    assert rep.violations == [] and rep.complete
    assert format_game(game) == text
    assert text.count(": falcon ") + text.count(", falcon ") >= 10


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("falcon fk:BPC @0,-1 ne pay Du5", "falcon fk:BPC @0,-1 ne pay Du5 Gu1", "FALKNER-PAY"),
        ("falcon fk:BPC @0,-1 ne pay Du5", "falcon fk:BAT @0,-1 ne pay Du5", "FALKNER-COLOURS"),
        ("falcon fk:BPC @0,-1 ne pay Du5", "falcon fk:BPC @5,5 ne pay Du5", "FALKNER-CROSSING"),
    ],
)
def test_corruptions_of_the_example_are_caught(old: str, new: str, code: str) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text
    rep = check_game(parse_text(text.replace(old, new, 1), "c.alh")[0])
    assert code in [v.code for v in rep.violations]


def test_a_swap_under_a_falcon_returns_it_too() -> None:
    # "Beim Umbau eines der 4 Plättchen": a swap is a redesign as well
    anna = ANNA + "\n    reserve C11-\n    falcon fk:KTC @0,0 ne"
    rep = position("1. Anna: swap C11-@1,1 for C10-", anna=anna)
    assert found(rep) == [], messages(rep)
    assert falcons(rep) == "-" and supply(rep) == "black 5 brown 5 white 5"
