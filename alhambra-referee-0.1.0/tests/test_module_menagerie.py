"""Die Menagerie (rulebook-bigbox-de-2019.txt § Michael Schacht: Die Menagerie, L3425-3459 and
L3464-3488).

Animals are written ``an:`` + their kind (1-8: which animal each number stands for was only in the
pictures, so the record's numbers name the kinds). ``* animals Gu an:3 an:7`` draws two onto the
garden on a field; ``animals Du4 an:3 @1,0 @1,1`` moves them at the end of the turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, view

from referee.api import score_state
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.modules.menagerie import in_play, kinds, parse_animal, per_kind
from referee.notation import format_game, parse_text
from referee.record.model import ComponentRef
from tests.module_support import assert_moment_round_trips, check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-menagerie.alh"

# Anna: gardens north of the fountain and far east, chambers north-east, arcades east
ANNA = "G10-@0,1 C10@1,1 A9@1,0 G12@2,0"


def position(
    body: str,
    anna: str = ANNA,
    market: str = "Gu:G11 Di:T11n De:P7 Du:C7ne",
    table: str = "animals Gu an:1 an:2",
    mine: str = "animals @0,1 an:1 @1,0 an:2",
    hand: str = "Gu3 De7 Du2 Di1",
    players: str = "Anna, Ben, Cem",
) -> GameReport:
    two = len(players.split(", ")) == 2
    return check_position(
        body,
        modules="menagerie",
        market=market,
        display="Gu4 Di3 De2 Du9",
        table=["dirk G6 T9ne" if two else "", table],
        players={
            n: [f"hand {hand}", f"alhambra {anna}", mine] if n == "Anna" else "hand Du8 Di5 Gu1"
            for n in players.split(", ")
        },
        names=players,
    )


def animals(rep: GameReport, who: str = "Anna") -> str:
    return str(view(rep, "menagerie")["players"].get(who, {}).get("animals", "-"))


def table(rep: GameReport) -> dict[str, Any]:
    return dict(view(rep, "menagerie")["table"])


# --------------------------------------------------------------------------- components


def test_twenty_four_animals_two_out_unseen() -> None:
    # "24 Tierplättchen (je 3 von 8 Tierarten)" (L3431); "2 Plättchen werden verdeckt in die
    # Schachtel zurückgelegt" (L3436-3437)
    assert (kinds(), per_kind(), in_play()) == (8, 3, 22)
    assert parse_animal(ComponentRef("an", "3")) == 3
    for bad in ("0", "9", "x", "33"):
        assert parse_animal(ComponentRef("an", bad)) is None


# ------------------------------------------------------------------ animals on the market


def test_two_animals_onto_every_garden_laid_on_the_market() -> None:
    # "Wird im Bauhof ein Garten aufgedeckt, werden 2 der bereitliegenden Tiere gezogen und
    # offen auf den Garten gelegt." (L3440-3442)
    rep = position("")
    assert codes(rep) == []
    assert table(rep)["on the market"] == "Gu: an:1 an:2"
    rep = position("1. Anna: take Gu4", table="")
    assert codes(rep) == ["MENAGERIE-MISSING"]
    assert "the garden G11 on the field Gu has no animals" in messages(rep)[0]
    rep = position("", table="animals Di an:1 an:2 Gu an:3 an:4")
    assert codes(rep) == ["MENAGERIE-DRAW"]
    assert "no garden lies there" in messages(rep)[0]
    rep = position("", table="animals Gu an:1")
    assert codes(rep) == ["MENAGERIE-DRAW"]
    assert "1 animals, not 2" in messages(rep)[0]


def test_draws_are_checked_against_the_supply() -> None:
    # three of each kind: a fourth monkey does not exist
    rep = position("", table="animals Gu an:1 an:1", mine="animals @0,1 an:1 an:1 @1,0 an:2")
    assert codes(rep) == ["MENAGERIE-SUPPLY"]
    assert "all 3 animals of this kind are drawn already" in messages(rep)[0]
    rep = position("", table="animals Gu an:9 an:1")
    assert codes(rep) == ["MENAGERIE-TOKEN"]


def test_animals_are_bought_and_built_with_the_garden() -> None:
    # "Die Tiere werden zusammen mit dem Garten gekauft (ohne Aufpreis!) und eingebaut."
    # (L3443-3444)
    rep = position("1. Anna: buy Gu G11 pay Gu9 Gu2, place G11@0,2", hand="Gu9 Gu2 Du2", mine="")
    assert codes(rep) == [], messages(rep)
    assert animals(rep) == "@0,2 an:1 an:2"
    assert table(rep)["on the market"] == "-"
    rep = position("1. Anna: buy Gu G11 pay Gu9 Gu2, reserve G11", hand="Gu9 Gu2 Du2", mine="")
    assert view(rep, "menagerie")["players"]["Anna"]["on reserve tiles"] == "G11 an:1 an:2"


def test_animals_on_a_garden_given_to_dirk_leave_the_game() -> None:
    # "Die Tiere auf Gärten, die Dirk geschenkt werden, werden sofort in die Schachtel
    # zurückgelegt." (L3486-3488)
    rep = position(
        "1. Anna: buy Gu G11 pay Gu9 Gu2, give G11 dirk",
        hand="Gu9 Gu2 Du2",
        mine="",
        players="Anna, Ben",
    )
    assert codes(rep) == [], messages(rep)
    assert table(rep)["out of the game"] == "an:1 an:2"
    assert animals(rep) == "-"


# ------------------------------------------------------------------ moving animals


MINE = "animals @0,1 an:1 @1,0 an:2"


def test_a_discarded_card_gives_as_many_steps_as_its_value() -> None:
    # "Der Geldwert der Karte entspricht dabei der Anzahl von Schritten, die sich die Tiere auf
    # den Plättchen bewegen können." (L3448-3450); "Die Schritte können für 1 Tier verwendet
    # oder auf mehrere Tiere aufgeteilt werden. Es ist auch erlaubt, Schritte verfallen zu
    # lassen." (L3455-3457); the example: "Eine gespielte 4 bedeutet, dass die Tiere des
    # Spielers bis zu 4 Schritte weit laufen dürfen." (L3425-3428)
    body = "1. Anna: take Gu4, animals Du2 an:1 @0,1 @1,1 an:2 @1,0 @1,1"
    rep = position(body)
    assert codes(rep) == [], messages(rep)
    assert animals(rep) == "@1,1 an:1 an:2"
    rep = position("1. Anna: take Gu4, animals Du2 an:1 @0,1 @1,1")  # a step forfeited
    assert codes(rep) == []
    rep = position("1. Anna: take Gu4, animals Di1 an:1 @0,1 @1,1 @1,0")
    assert codes(rep) == ["MENAGERIE-STEPS"]
    assert "moves the animals 2 steps, more than 1" in messages(rep)[0]
    assert rep.state is not None
    assert rep.state.players[0].hand_size == 4  # Gu3 De7 Du2 + Gu4 (Di1 given up)


def test_animals_walk_on_foot() -> None:
    # "Ein Tier kann nur horizontal und vertikal, nicht aber diagonal bewegt werden. Es darf
    # nicht über Stadtmauern hinweggezogen werden." (L3452-3454)
    rep = position("1. Anna: take Gu4, animals Du2 an:1 @0,1 @1,0")
    assert codes(rep) == ["MENAGERIE-MOVE"]
    assert "horizontal und vertikal" in messages(rep)[0]
    rep = position("1. Anna: take Gu4, animals Du2 an:1 @0,1 @-1,1")
    assert codes(rep) == ["MENAGERIE-MOVE"]
    anna = "T13@1,0 T10@2,0 G10-@1,1 T12@2,1"
    rep = position(
        "1. Anna: take Gu4, animals Du2 an:1 @1,0 @2,0", anna=anna, mine="animals @1,0 an:1"
    )
    assert codes(rep) == ["MENAGERIE-MOVE"]
    assert "Stadtmauern" in messages(rep)[0]


def test_only_animals_that_are_there_once_at_the_end_of_the_turn() -> None:
    # "Besitzt ein Spieler Tiere in seiner Alhambra, so kann er diese am Ende seines Zuges
    # gegen Abgabe einer Geldkarte bewegen." (L3444-3446)
    rep = position("1. Anna: take Gu4, animals Du2 an:3 @0,1 @1,1", mine=MINE)
    assert codes(rep) == ["MENAGERIE-MOVE"]
    assert "no such animal lies there (an:1)" in messages(rep)[0]
    rep = position("1. Anna: take Gu4, animals Du2 an:1 @0,1 @1,1, animals Di1 an:2 @1,0 @1,1")
    assert codes(rep) == ["MENAGERIE-MOVE"]
    assert "a second time" in messages(rep)[0]
    rep = position(
        "1. Anna: buy Gu G11 pay Gu9 Gu2, animals Du2 an:1 @0,1 @1,1, place G11@0,2",
        hand="Gu9 Gu2 Du2",
    )
    assert "MENAGERIE-MOVE" in codes(rep)
    rep = position("1. Anna: take Gu4, animals De9 an:1 @0,1 @1,1")
    assert codes(rep) != [] and "MENAGERIE-MOVE" not in codes(rep)  # a card not held


# ------------------------------------------------------------------ scoring


def animal_line(rep: GameReport, round_no: int = 1) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("animals")
        if cat:
            out[p["name"]] = cat
    return out


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_the_rulebook_example_three_monkeys_score_three(round_no: int) -> None:
    # "Auf einem Garten stehen 3 Affen (und kein weiteres Tier), der Spieler erhält 3 Punkte.
    # Auf dem zweiten Garten stehen 2 Tauben und 1 Gepard – keine Punkte." (L3469-3475);
    # "Tiere, die auf anderen Plättchen als Gärten stehen, erzielen keine Punkte." (L3481-3483)
    mine = "animals @0,1 an:1 an:1 an:1 @2,0 an:2 an:2 an:3 @1,0 an:4"
    rep = position("", mine=mine, table="")
    line = animal_line(rep, round_no)["Anna"]
    assert line["points"] == 3 and "3 an:1 @0,1" in line["detail"]
    rep = position("", mine="animals @2,0 an:2 an:2 @0,1 an:5", table="")
    assert animal_line(rep, round_no)["Anna"]["points"] == 3


# ------------------------------------------------------------------ positions and example


def test_a_position_states_the_animals() -> None:
    rep = position("1. Anna: buy Gu G11 pay Gu9 Gu2, reserve G11", hand="Gu9 Gu2 Du2", mine=MINE)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "    animals @0,1 an:1 @1,0 an:2 G11 an:1 an:2\n" in text
    rep = position("", mine="animals @5,5 an:1 G9 an:2")
    assert codes(rep) == ["MENAGERIE-POSITION", "MENAGERIE-POSITION"]


def _example() -> Any:
    return parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]


def test_the_example_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = _example()
    assert format_game(game) == text
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == []
    assert text.count("* animals ") >= 5
    assert any(line.count(", animals ") for line in text.splitlines())


@pytest.mark.parametrize("moment", ["early", "middle", "late", "scoring-1", "scoring-2"])
def test_a_moment_of_the_example_round_trips(moment: str) -> None:
    assert_moment_round_trips(_example(), moment)


def test_german_texts() -> None:
    rep = position("1. Anna: take Gu4, animals Di1 an:1 @0,1 @1,1 @1,0")
    german = [v.message("de") for v in rep.violations]
    assert german[0].startswith("Anna gibt Di1 ab und bewegt die Tiere 2 Schritte"), german
    assert "Tiere" in str(view(rep, "menagerie", "de"))


def test_the_animals_on_a_market_garden_are_drawn_on_the_market_line() -> None:
    # Module.market_marks: "zwei Tiere ... auf den Garten gelegt" while it lies on the market
    from click.testing import CliRunner

    from referee.cli import cli

    shown = CliRunner().invoke(cli, ["show", str(EXAMPLE), "--at", "1"])
    assert shown.exit_code == 0, shown.output
    market = next(line for line in shown.output.splitlines() if line.startswith("Market: "))
    assert "De: G11 (garden 11) [an:7 an:2]" in market
