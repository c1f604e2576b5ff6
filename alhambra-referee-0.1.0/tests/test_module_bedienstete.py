"""Die Bediensteten (rulebook-bigbox-de-2019.txt § Emanuele Ornella: Die Bediensteten,
L2961-3025).

Servants are written ``sv:`` + the building colour; the marshal's walk ``marshal @x,y ...`` names
the cell each step enters. The servants a walk brings follow from the rule (the colour of the
entered building, if one of that colour lies open), so the record does not name them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, view

from referee.api import score_state
from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.modules.bedienstete import parse_servant, per_colour
from referee.notation import format_game, parse_text
from referee.record.model import ComponentRef
from tests.module_support import assert_moment_round_trips, check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-bedienstete.alh"

# Anna: a garden north of the fountain, chambers north-east, arcades east, a tower beyond them
# (no walls between them): the rulebook's example path "Garten, Gemach, Arkade und Turm"
ANNA = "G10-@0,1 C10@1,1 A9@1,0 T12@2,0"
# the open row of the example: no chamber servant ("Für das Gemach ist leider kein Bediensteter
# in der Auslage vorhanden")
ROW = "sv:G sv:A sv:T sv:P sv:S sv:P"


def position(
    body: str,
    anna: str = ANNA,
    row: str = ROW,
    modules: str = "bedienstete",
    extra: str = "",
    hand: str = "Gu3 De7 Du2",
    score: int = 0,
) -> GameReport:
    return check_position(
        body,
        modules=modules,
        market="Gu:G11 Di:T11n De:P7 Du:C7ne",
        display="Gu4 Di3 De2 Du9",
        table=f"servants {row}" if row else "",
        players={"Anna": [f"score {score}", f"hand {hand}", f"alhambra {anna}", extra]},
    )


def found(rep: GameReport) -> list[str]:
    return codes(rep)


def servants(rep: GameReport, who: str = "Anna") -> str:
    return str(view(rep, "bedienstete")["players"][who]["servants"])


def table(rep: GameReport) -> dict[str, Any]:
    return dict(view(rep, "bedienstete")["table"])


# --------------------------------------------------------------------------- components


def test_fifty_four_servants_in_the_six_colours() -> None:
    # "54 Bedienstete (7x/ 7x/ 9x/ 9x/ 11x/ 11x in der Farbe von Pavillon/ Serail/ Arkaden/
    # Gemächer/ Gärten und Türmen)" (L2966-2967)
    counts = per_colour()
    assert sum(counts.values()) == 54
    assert [counts[t] for t in BuildingType] == [7, 7, 9, 9, 11, 11]
    assert parse_servant(ComponentRef("sv", "g")) is BuildingType.GARDEN
    for bad in (ComponentRef("sv", "X"), ComponentRef("sv", "GG"), ComponentRef("an", "G"), "G"):
        assert parse_servant(bad) is None


def test_setup_six_open_servants_and_the_marshal_on_the_start_tile() -> None:
    # "Dann werden 6 Bedienstete gezogen und offen neben dem Bauhof platziert. Jeder Spieler
    # stellt den Hofmarschall in seiner Spielerfarbe auf sein Startplättchen." (L2974-2976)
    rep = position("")
    assert found(rep) == []
    assert table(rep)["open"] == ROW
    assert table(rep)["in the supply"] == "P 5 S 6 A 8 C 9 G 10 T 10"
    assert view(rep, "bedienstete")["players"]["Ben"]["marshal"] == "start tile"


# ------------------------------------------------------------------ the marshal's walk


def test_the_rulebook_example_two_denar_four_steps() -> None:
    # "Der Spieler nimmt 2 Denar, darf mit dem Hofmarschall also 6-2=4 Schritte laufen. Er
    # wählt seinen Weg so, dass er Garten, Gemach, Arkade und Turm betritt. Er darf also auf
    # die betretenen Garten-, Arkaden- und Turmplättchen je 1 Bediensteten aus der Auslage
    # legen. Für das Gemach ist leider kein Bediensteter in der Auslage vorhanden." (L3017-3023)
    rep = position("1. Anna: take De2, marshal @0,1 @1,1 @1,0 @2,0")
    assert found(rep) == [], messages(rep)
    assert servants(rep) == "G@0,1 A@1,0 T@2,0"
    assert view(rep, "bedienstete")["players"]["Anna"]["marshal"] == "@2,0"
    assert view(rep, "bedienstete")["players"]["Anna"]["buildings without a servant"] == "1"
    assert table(rep)["open"] == "sv:P sv:S sv:P"


def test_more_steps_than_six_minus_the_value() -> None:
    # "Der Spieler zieht von der Zahl 6 seinen genommenen Geldwert ab und darf dem Ergebnis
    # entsprechend seinen Hofmarschall um so viele Plättchen / Schritte bewegen." (L2984-2986)
    rep = position("1. Anna: take Gu4, marshal @0,1 @1,1 @1,0")
    assert found(rep) == ["BEDIENSTETE-STEPS"]
    assert "3 steps, more than 6 - 4 = 2" in messages(rep)[0]
    # two cards worth 5 together: one step
    rep = position("1. Anna: take Di3 De2, marshal @0,1")
    assert found(rep) == [], messages(rep)
    rep = position("1. Anna: take Di3 De2, marshal @0,1 @1,1")
    assert found(rep) == ["BEDIENSTETE-STEPS"]


def test_fewer_steps_and_entering_a_tile_again_are_allowed() -> None:
    # "darf ... um so viele Plättchen / Schritte bewegen": up to that many; a tile entered
    # again brings nothing more (it has its servant)
    rep = position("1. Anna: take De2, marshal @0,1")
    assert found(rep) == [] and servants(rep) == "G@0,1"
    rep = position("1. Anna: take De2, marshal @0,1 @0,0 @0,1 @1,1")
    assert found(rep) == [] and servants(rep) == "G@0,1"
    assert table(rep)["open"] == "sv:A sv:T sv:P sv:S sv:P"


def test_only_after_taking_money_worth_less_than_six() -> None:
    # "Wählt ein Spieler die Aktion: Geld nehmen und nimmt sich Geld im Wert von weniger als 6,
    # so darf er seinen Hofmarschall ... bewegen" (L2979-2981)
    rep = position("1. Anna: take Du9, marshal @0,1")
    assert found(rep) == ["BEDIENSTETE-TAKE"]
    assert "worth 9 (Du9), not less than 6" in messages(rep)[0]
    rep = position("1. Anna: buy Di T11n pay Di3 Du2, marshal @0,1", hand="Di3 Di9 Du2")
    assert "BEDIENSTETE-TAKE" in found(rep)
    assert any('without the action "Geld nehmen"' in m for m in messages(rep))
    # "Geld im Wert von 0 zu nehmen ist nicht zulässig" (L2982): a take of nothing is refused
    rep = position("1. Anna: take, marshal @0,1")
    assert "TAKE-EMPTY" in found(rep)


def test_one_walk_per_take() -> None:
    rep = position("1. Anna: take De2, marshal @0,1, marshal @1,1")
    assert found(rep) == ["BEDIENSTETE-TAKE"]
    assert "a second time" in messages(rep)[0]


def test_the_marshal_may_not_cross_a_wall() -> None:
    # "Dabei muss er jedes Gebäude „zu Fuß" erreichen. Er darf also keine Stadtmauer
    # überqueren oder die Plättchen verlassen." (L2987-2989): T13 (wall east) and T10 (wall
    # west) meet with a double wall; G10-/T12 join them round the north
    anna = "T13@1,0 T10@2,0 G10-@1,1 T12@2,1"
    rep = position("1. Anna: take De2, marshal @1,0 @2,0", anna=anna)
    assert found(rep) == ["BEDIENSTETE-WALK"]
    assert "from @1,0 to @2,0: a city wall lies between them" in messages(rep)[0]
    rep = position("1. Anna: take De2, marshal @1,0 @1,1 @2,1 @2,0", anna=anna)
    assert found(rep) == [], messages(rep)


def test_the_marshal_stays_on_the_tiles_and_steps_to_neighbours() -> None:
    rep = position("1. Anna: take De2, marshal @-1,0")
    assert found(rep) == ["BEDIENSTETE-WALK"]
    assert "no tile lies there" in messages(rep)[0]
    rep = position("1. Anna: take De2, marshal @1,1")
    assert found(rep) == ["BEDIENSTETE-WALK"]
    assert "not a step to a neighbouring tile" in messages(rep)[0]
    rep = position("1. Anna: take De2, marshal up")
    assert found(rep) == ["BEDIENSTETE-WALK"]


def test_a_wall_added_by_die_mauern_stops_the_marshal() -> None:
    # the walls come from the one effective-walls function: a wooden wall counts like a
    # printed one (a wall built on A9's west side and on the fountain's east side)
    rep = position(
        "1. Anna: take De2, marshal @1,0",
        modules="bedienstete, mauern",
        extra="wall @1,0 w\n    wall @0,0 e",
    )
    assert found(rep) == ["BEDIENSTETE-WALK"], messages(rep)
    rep = position("1. Anna: take De2, marshal @0,1 @1,1 @1,0", modules="bedienstete, mauern")
    assert found(rep) == [], messages(rep)


def test_an_unknown_card_leaves_the_number_of_steps_unchecked() -> None:
    text = position("1. Anna: take ?, marshal @0,1 @1,1")
    assert found(text) == []
    assert any("unknown card" in u.message() for u in text.unverifiable)


def test_one_servant_per_building_only_if_one_of_its_colour_lies_open() -> None:
    # "Für jedes so betretene Plättchen ohne Bediensteten erhält der Spieler 1 Bediensteten der
    # entsprechenden Farbe, sofern mindestens ein Plättchen in dieser Farbe ausliegt." (L2991)
    rep = position("1. Anna: take De2, marshal @0,1 @1,1", row="sv:C sv:C sv:S sv:P sv:P sv:S")
    assert servants(rep) == "C@1,1"
    assert table(rep)["open"] == "sv:C sv:S sv:P sv:P sv:S"


# ------------------------------------------------------------------ the reserve


def test_the_marshals_tile_may_not_go_to_the_reserve() -> None:
    # "Ein Gebäudeplättchen, auf dem der Hofmarschall steht, darf nicht in die Reserve gelegt
    # werden." (L2998-2999)
    rep = position("1. Anna: remove C10@1,1", extra="marshal @1,1")
    assert found(rep) == ["BEDIENSTETE-RESERVE"]
    assert "Anna: the court marshal stands on chambers C10 @1,1" in messages(rep)[0]
    rep = position("1. Anna: swap C11@1,1 for C10", extra="marshal @1,1\n    reserve C11")
    assert found(rep) == ["BEDIENSTETE-RESERVE"]
    rep = position("1. Anna: remove T12@2,0", extra="marshal @1,1")
    assert found(rep) == []


def test_servants_travel_with_their_tile() -> None:
    # "Bedienstete werden mit dem Gebäudeplättchen in die Reserve gelegt." (L2999-3000)
    body = "1. Anna: remove T12@2,0\n2. Ben: take Du9\n3. Cem: take Gu4\n4. Anna: build T12@2,1"
    rep = position(body, extra="servants @2,0 @0,1")
    assert found(rep) == [], messages(rep)
    assert servants(rep) == "G@0,1 T@2,1"
    rep = position(body.split("\n")[0], extra="servants @2,0 @0,1")
    assert servants(rep) == "G@0,1"
    assert view(rep, "bedienstete")["players"]["Anna"]["on reserve tiles"] == "T12"


# ------------------------------------------------------------------ the open row


def test_the_row_is_refilled_to_six_after_the_turn() -> None:
    # "Nach dem Zug werden die ausliegenden Bediensteten wieder auf 6 aufgefüllt." (L2995)
    body = "1. Anna: take De2, marshal @0,1\n* display Gu5, servants sv:C\n2. Ben: take Du9"
    rep = position(body)
    assert found(rep) == [], messages(rep)
    assert table(rep)["open"] == "sv:A sv:T sv:P sv:S sv:P sv:C"
    rep = position(body.replace(", servants sv:C", ""))
    assert found(rep) == ["BEDIENSTETE-REFILL"]
    assert "5 open, not refilled to 6" in messages(rep)[0]
    rep = position(body.replace("sv:C", "sv:C sv:G"))
    assert found(rep) == ["BEDIENSTETE-REFILL"]
    assert "more than 6" in messages(rep)[0]


def test_draws_are_checked_against_the_supply() -> None:
    # seven pavilion servants exist: an eighth drawn is too many
    extra = "servants @0,1 @1,1 @1,0 @2,0"
    rep = position("", row="sv:P sv:P sv:P sv:P sv:P sv:P")
    assert found(rep) == []
    body = "1. Anna: take De2\n* servants sv:P\n2. Ben: take Du9"
    rep = position(body, row="sv:P sv:P sv:P sv:P sv:P sv:P sv:P", extra=extra)
    # a seventh open servant in the position, one more drawn though six lie open
    assert found(rep) == ["BEDIENSTETE-REFILL", "BEDIENSTETE-REFILL"], messages(rep)
    rep = position(
        "1. Anna: take De2, marshal @0,1\n* servants sv:P\n2. Ben: take Du9",
        row="sv:P sv:P sv:P sv:P sv:P sv:G",
        extra="servants @1,1 @1,0 @2,0",
    )
    assert found(rep) == [], messages(rep)
    rep = position(
        "1. Anna: take De2, marshal @0,1\n* servants sv:P\n2. Ben: take Du9",
        row="sv:P sv:P sv:P sv:P sv:P sv:P",
        anna=ANNA + " P2@-1,0",
        extra="servants @-1,0",
    )
    assert "BEDIENSTETE-SUPPLY" in found(rep)
    assert "all 7 servants of this colour are drawn already" in " ".join(messages(rep))
    rep = position("", row="sv:X sv:G")
    assert found(rep) == ["BEDIENSTETE-TOKEN"]


# ------------------------------------------------------------------ scoring


def servant_line(rep: GameReport, round_no: int) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("servants")
        if cat:
            out[p["name"]] = cat
    return out


def test_minus_one_per_building_without_a_servant_never_below_zero() -> None:
    # "Nach der üblichen Punktevergabe erhalten die Spieler jetzt noch 1 Minuspunkt für jedes
    # Standardgebäude in der Alhambra ohne Bedienstete (Ausnahme: Startplättchen). Ein Spieler
    # kann aber auf der Zähltafel nie unter 0 sinken." (L3003-3008)
    rep = position("", extra="servants @0,1", score=10)
    line = servant_line(rep, 1)["Anna"]
    assert line["points"] == -3 and "3 without a servant" in line["detail"]
    assert "Ben" not in servant_line(rep, 1)  # no building, no line
    rep = position("", extra="servants @0,1", score=0, anna="G10-@0,1 C10@1,1 A9@1,0 T11-@2,0")
    assert rep.state is not None
    row = next(p for p in score_state(rep.state, 1).to_dict()["players"] if p["name"] == "Anna")
    # Anna wins nothing in scoring 1 with one building each (others have none): she scores the
    # majorities, then at most that many points are lost
    assert row["total"] >= 0
    assert row["categories"]["servants"]["points"] == -min(3, row["total"] + 3)


def test_the_third_scoring_counts_before_the_leftover_tiles_are_handed_out() -> None:
    # "Hier erhalten die Spieler die Minuspunkte nach gleichem Prinzip, aber noch bevor die
    # restlichen Gebäudeplättchen vom Bauhof an die Spieler verteilt werden." (L3012-3015)
    game = parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]
    before, _ = state_at(game, At("end"))
    rep = check_game(game)
    assert rep.violations == []
    third = servant_line(rep, 3)
    assert third, "the example ends with a servants line"
    assert all("before the leftover tiles" in c["detail"] for c in third.values())
    text = EXAMPLE.read_text(encoding="utf-8")
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("distribute"))
    cut = parse_text("\n".join(lines[:k]) + "\n")[0]
    at_end, _ = state_at(cut, At("end"))
    module = at_end.ext.modules[[m.name for m in at_end.ext.modules].index("bedienstete")]
    for p in at_end.players:
        n = len(module.without_servant(at_end, p))
        if n:
            assert third[p.name]["detail"].startswith(f"{n} without"), p.name
    assert before is not None


# ------------------------------------------------------------------ positions and example


def test_a_position_states_the_row_the_marshal_and_the_servants() -> None:
    rep = position("1. Anna: take De2, marshal @0,1 @1,1 @1,0 @2,0")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "  servants sv:P sv:S sv:P\n" in text
    assert "    marshal @2,0\n" in text
    assert "    servants @0,1 @1,0 @2,0\n" in text
    # a reserve tile that carries a servant is named after the cells
    rep = position("", extra="reserve T13\n    servants @0,1 T13")
    assert found(rep) == [], messages(rep)
    assert view(rep, "bedienstete")["players"]["Anna"]["on reserve tiles"] == "T13"
    assert rep.state is not None
    assert "    servants @0,1 T13\n" in position_text(rep.state)
    rep = position("", extra="servants @-1,0 T13 @0,0")
    assert found(rep) == ["BEDIENSTETE-POSITION"] * 3


def _example() -> Any:
    return parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]


def test_the_example_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = _example()
    assert format_game(game) == text
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == []
    assert text.count("marshal @") >= 5
    assert "* servants sv:" in text


@pytest.mark.parametrize("moment", ["early", "middle", "late", "scoring-1", "scoring-2"])
def test_a_moment_of_the_example_round_trips(moment: str) -> None:
    assert_moment_round_trips(_example(), moment)


def test_german_texts() -> None:
    rep = position("1. Anna: take Gu4, marshal @0,1 @1,1 @1,0")
    german = [v.message("de") for v in rep.violations]
    assert german[0].startswith("Anna nimmt Geld im Wert von 4"), german
    de = view(rep, "bedienstete", "de")
    assert "Hofmarschall" in str(de)
