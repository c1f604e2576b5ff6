"""Die Karawanserei (``referee/modules/karawanserei.py``): rulebook-bigbox-de-2019.txt § DIE
KARAWANSEREI (L2078-2195).

Every sentence of the section (the purchase, the price by the building types, the stone moved
as the first act, the value paid like money, the Anmerkungen), the rulebook's example (stone A
on 2 Dukaten, stone B on 3 Denar), the corruptions a record can contain, and the stated
cross-module rules with both modules enabled (the vizier, the sultan, the leftover
distribution). Each test quotes the sentence it tests. The tracks are printed on the cards
only: karawanserei.yaml holds a reconstruction (unverified) that cards 1 and 2 build around the
rulebook's example.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import view

from referee.catalogue import Currency
from referee.engine import GameReport, check_game
from referee.engine.context import Context
from referee.engine.legal import legal_actions
from referee.engine.position_text import position_text
from referee.engine.ruleset import Decision
from referee.engine.walk import At, state_at
from referee.modules.base import token_text
from referee.modules.karawanserei import price_for, track, types_needed
from referee.notation import format_game, parse_text
from referee.simulate import simulate_text
from tests.module_support import MOMENTS, assert_moment_round_trips, check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-karawanserei.alh"
KW = "karawanserei"
FOUR = "P8-@-1,0 S9-@0,1 A9-@1,0 C10-@0,-1"  # four types
FIVE = FOUR + " G10-@1,1"
SIX = FIVE + " T11-@-1,1"


def position(
    body: str,
    modules: str = KW,
    anna: str = FOUR,
    anna_more: str = "",
    ben_more: str = "",
    hand: str = "Gu4 De8 De4 De2 Du5 Du3 Di2",
) -> GameReport:
    return check_position(
        body,
        modules=modules,
        market="Gu:G11- Di:T11n De:P7e Du:C7ne",
        display="Gu4 Di3 De6 Du2",
        players={
            "Anna": [f"hand {hand}", f"alhambra {anna}", anna_more],
            "Ben": ["hand Du8 Di5 Gu1", ben_more],
        },
    )


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def reasons(rep: GameReport) -> list[tuple[str, Any]]:
    return [(v.code, v.reason) for v in rep.violations]


def cards(rep: GameReport, name: str = "Anna") -> str:
    """The player's cards and the fields of their stones, from the module's view (``show``)."""
    shown = str(view(rep, KW)["players"].get(name, {}).get("caravanserais", ""))
    return re.sub(r" \(.*?\)", "", shown).replace("stone on ", "on ")


# ---------------------------------------------------------------- buying a card


def test_a_card_is_bought_like_a_building_for_8_with_four_types_and_exact_gives_an_action() -> None:
    # "Eine Karawanserei-Karte wird wie ein Gebäudeplättchen (Aktion: Gebäudeplättchen kaufen)
    # erworben." "Bei vier Gebäudearten kostet die Karte 8 ... Bei genau passender Bezahlung
    # hat der Spieler einen weiteren Zug." "legt diese offen vor sich aus und platziert einen
    # Markierungsstein auf dem Feld 0"
    rep = position("1. Anna: buy De kw:3 pay De8, take Gu4\n")
    assert codes(rep) == []
    assert cards(rep) == "kw:3 on 0"
    assert "kw:3" not in view(rep, KW)["table"]["cards on offer"]


def test_the_currency_is_any_one_and_may_be_left_to_the_payment() -> None:
    # "Der Preis muss in einer Währung entrichtet werden, die beliebig wählbar ist."
    assert codes(position("1. Anna: buy kw:3 pay De8\n")) == []
    assert codes(position("1. Anna: buy Du kw:3 pay Du5 Du3\n")) == []
    mixed = position("1. Anna: buy De kw:3 pay De4 Gu4\n")
    assert "BUY-CURRENCY" in codes(mixed)


@pytest.mark.parametrize(("types", "price"), [(4, 8), (5, 4), (6, 2)])
def test_the_price_follows_the_building_types(types: int, price: int) -> None:
    # "Bei vier Gebäudearten kostet die Karte 8, bei fünf Arten kostet sie 4 und wenn alle Arten
    # in der Alhambra vorhanden sind, kostet die Karte 2."
    assert price_for(types) == price
    alh = {4: FOUR, 5: FIVE, 6: SIX}[types]
    pay = {8: "De8", 4: "De4", 2: "De2"}[price]
    assert codes(position(f"1. Anna: buy De kw:1 pay {pay}, take Gu4\n", anna=alh)) == []
    short = {8: "De4 De2", 4: "De2", 2: "Di2"}[price]
    under = position(f"1. Anna: buy De kw:1 pay {short}\n", anna=alh)
    assert codes(under)[0] in ("BUY-UNDERPAID", "BUY-CURRENCY")


def test_the_first_card_needs_four_types_in_the_alhambra_not_the_reserve() -> None:
    # "Wer seine erste Karawanserei-Karte kaufen will, muss in diesem Moment mindestens 4
    # Gebäudearten in seiner Alhambra eingebaut haben" "(Gebäude in der Reserve zählen nicht)"
    three = "P8-@-1,0 S9-@0,1 A9-@1,0"
    rep = position("1. Anna: buy De kw:1 pay De8\n", anna=three, anna_more="reserve C10-")
    assert reasons(rep) == [("KARAWANSEREI-BUY", "types")]
    assert "3 building types (P S A)" in rep.violations[0].message()
    assert types_needed(0) == 4


def test_the_second_card_needs_five_types() -> None:
    # "für die zweite Karte werden mindestens 5 Arten benötigt"
    rep = position("1. Anna: buy De kw:2 pay De8\n", anna_more="caravan kw:1 0")
    assert reasons(rep) == [("KARAWANSEREI-BUY", "second")]
    ok = position("1. Anna: buy De kw:2 pay De4, take Gu4\n", anna=FIVE, anna_more="caravan kw:1 0")
    assert codes(ok) == []
    assert cards(ok) == "kw:1 on 0, kw:2 on 0"


def test_at_most_two_cards_per_player() -> None:
    # "Jeder Spieler darf höchstens 2 Karten besitzen."
    more = "caravan kw:1 0\n    caravan kw:2 Du1"
    rep = position("1. Anna: buy De kw:3 pay De2\n", anna=SIX, anna_more=more)
    assert reasons(rep) == [("KARAWANSEREI-BUY", "limit")]


def test_a_card_bought_is_gone_from_the_offer() -> None:
    # "Die 8 Karten werden bereitgelegt" -- each card once
    rep = position("1. Anna: buy De kw:1 pay De8\n", ben_more="caravan kw:1 0")
    assert codes(rep) == ["BUY-NOT-IN-MARKET"]
    assert "twice" in {
        v.reason
        for v in position("", anna_more="caravan kw:1 0", ben_more="caravan kw:1 Du1").violations
    }


# ---------------------------------------------------------------- moving the stone

HOLD_A = "caravan kw:1 Du2"  # the rulebook's stone A (card 1 of the reconstruction)
HOLD_AB = HOLD_A + "\n    caravan kw:2 De3"  # and stone B


def test_a_stone_moves_one_field_as_the_first_act_of_the_turn() -> None:
    # "Wer ein oder zwei Karawanserei-Karten besitzt, darf zu Beginn seines Spielzuges – als
    # erste Handlung – 1 Markierungsstein ein Feld weiterschieben."
    rep = position("1. Anna: caravan kw:1 Du3, take Gu4\n", anna_more=HOLD_A)
    assert codes(rep) == []
    assert cards(rep) == "kw:1 on Du3"
    late = position("1. Anna: take Gu4, caravan kw:1 Du3\n", anna_more=HOLD_A)
    assert codes(late) == ["KARAWANSEREI-FIRST"]


def test_the_stone_may_stay() -> None:
    # "Es ist erlaubt, den Stein stehen zu lassen."
    rep = position("1. Anna: take Gu4\n", anna_more=HOLD_A)
    assert codes(rep) == [] and cards(rep) == "kw:1 on Du2"


def test_only_one_stone_moves_even_with_two_cards() -> None:
    # "Auch wer über 2 Karawansereikarten verfügt, darf höchstens 1 Markierungsstein
    # weiterschieben."
    rep = position("1. Anna: caravan kw:1 Du3, caravan kw:2 De4, take Gu4\n", anna_more=HOLD_AB)
    assert codes(rep) == ["KARAWANSEREI-ONE-STONE"]


def test_a_stone_of_a_card_not_held_does_not_move() -> None:
    rep = position("1. Anna: caravan kw:5 Du1, take Gu4\n", anna_more=HOLD_A)
    assert codes(rep) == ["KARAWANSEREI-NOT-HELD"]
    assert codes(position("1. Anna: caravan kw:9 Du1, take Gu4\n")) == ["KARAWANSEREI-TOKEN"]


def test_the_rulebook_example_stone_a_and_stone_b() -> None:
    # "Wird kein Stein bewegt, stehen dem Spieler 2 Dukaten und 3 Denar zur Verfügung.
    # Alternativ könnte er den Stein A auch auf 2 Dirham oder 3 Dukaten verschieben. Würde er
    # stattdessen den Stein B verschieben, hätte er 3 Dukaten oder 4 Denar."
    assert sorted(track(1)["Du2"]) == ["Di2", "Du3"]
    assert sorted(track(2)["De3"]) == ["De4", "Du3"]
    rep = position("", anna_more=HOLD_AB)
    state = rep.state
    assert state is not None
    moves = sorted(
        " ".join(token_text(a.value) for a in x.args)
        for x in legal_actions(state)
        if getattr(x, "verb", "") == "caravan"
    )
    assert moves == ["kw:1 Di2", "kw:1 Du3", "kw:2 De4", "kw:2 Du3"]
    mod = f"{KW} tracks=data"
    for ok in ("kw:1 Di2", "kw:1 Du3", "kw:2 Du3", "kw:2 De4"):
        good = position(f"1. Anna: caravan {ok}, take Gu4\n", modules=mod, anna_more=HOLD_AB)
        assert codes(good) == [], ok
    bad = position("1. Anna: caravan kw:1 Du4, take Gu4\n", modules=mod, anna_more=HOLD_AB)
    assert reasons(bad) == [("KARAWANSEREI-TRACK", "data")]
    assert "leads from Du2 to Du3 Di2 only" in bad.violations[0].message()


def test_never_back_and_never_to_a_lower_value_under_stated_tracks() -> None:
    # "Der Stein darf nur nach oben, an den Abzweigungen auch nach außen, aber nicht zurück
    # geschoben werden." "Ihr Wert steigt langsam an" (L2190)
    lower = position("1. Anna: caravan kw:1 Du1, take Gu4\n", anna_more=HOLD_A)
    assert reasons(lower) == [("KARAWANSEREI-TRACK", "lower")]
    # "1 Markierungsstein ein Feld weiterschieben": in the example one field adds 0 or 1
    far = position("1. Anna: caravan kw:1 Du4, take Gu4\n", anna_more=HOLD_A)
    assert reasons(far) == [("KARAWANSEREI-TRACK", "step")]
    back = position(
        "1. Anna: caravan kw:1 Di2, take Gu4\n2. Ben: take Di3\n3. Cem: take De6\n"
        "4. Anna: caravan kw:1 Du2, take Du2\n",
        anna_more=HOLD_A,
    )
    assert reasons(back) == [("KARAWANSEREI-TRACK", "back")]


# ---------------------------------------------------------------- paying with the value


def test_the_value_pays_like_a_money_card_and_the_stone_goes_back_to_0() -> None:
    # "Der markierte Wert stellt Geld in der entsprechend farbigen Währung dar. Der komplette
    # Betrag kann im Spiel beim Bezahlen wie eine entsprechende Geldkarte verwendet werden.
    # Wird das Geld eingesetzt, kommt der Markierungsstein der Karawanserei zurück auf das
    # Feld 0."
    rep = position(
        "1. Anna: buy Du C7ne pay Du5 kw:1, take Gu4, place C7ne@2,0\n", anna_more=HOLD_A
    )
    assert codes(rep) == []  # 5 + 2 = 7: exact, another action
    assert cards(rep) == "kw:1 on 0"
    # the next round it moves again: "Zu Beginn der folgenden Runde kann der Stein wieder
    # verschoben werden."
    again = position(
        "1. Anna: buy Du C7ne pay Du5 kw:1, take Gu4, place C7ne@2,0\n"
        "2. Ben: take Di3\n3. Cem: take De6\n4. Anna: caravan kw:1 Du1, take Du2\n",
        anna_more=HOLD_A,
    )
    assert codes(again) == []


def test_the_value_pays_only_in_its_currency_and_not_from_0() -> None:
    wrong = position("1. Anna: buy De P7e pay De4 kw:1\n", anna_more=HOLD_A)
    assert "KARAWANSEREI-CURRENCY" in codes(wrong)
    empty = position("1. Anna: buy Du C7ne pay Du5 kw:1\n", anna_more="caravan kw:1 0")
    assert "KARAWANSEREI-EMPTY" in codes(empty)
    other = position("1. Anna: buy Du C7ne pay Du5 kw:2\n", anna_more=HOLD_A)
    assert "KARAWANSEREI-NOT-HELD" in codes(other)


def test_the_value_counts_in_the_leftover_distribution() -> None:
    # "Wenn bei Spielende die restlichen Gebäudeplättchen des Bauhofes an diejenigen Spieler
    # verteilt werden, die jeweils das meiste Geld der entsprechenden Währung vorweisen
    # können, zählt der aktuelle Betrag jeder Karawanserei mit."
    rep = position("", anna_more=HOLD_AB, hand="Du5 De1")
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    ctx = Context(state)
    money = {
        c.code: ctx.decide(Decision.DISTRIBUTION_MONEY, player=anna, currency=c) for c in Currency
    }
    assert money == {"Gu": 0, "Di": 0, "De": 4, "Du": 7}


# ---------------------------------------------------------------- with other modules


def test_with_the_vizier_no_card_is_bought_and_no_stone_moved() -> None:
    # "Mit einem Wesir kann man keine Karawanserei-Karten außerhalb der Reihe kaufen." "Ist
    # ein Spieler durch die Gunst des Wesirs ... außerhalb der normalen Spielreihenfolge an der
    # Reihe, darf er den Markierungsstein auf der Karawanserei-Karte nicht verschieben."
    mods = f"wesir, {KW}"
    awake = HOLD_A + "\n    vizier awake"
    base = "1. Anna: take Gu4\n2. Ben: take Di3\n"
    buy = position(base + "Anna: vizier, buy De kw:3 pay De8\n", modules=mods, anna_more=awake)
    assert "KARAWANSEREI-VIZIER" in codes(buy)
    move = position(
        base + "Anna: vizier, caravan kw:1 Du3, buy Du C7ne pay Du5 Du3, place C7ne@2,0\n",
        modules=mods,
        anna_more=awake,
    )
    assert "KARAWANSEREI-OUT-OF-TURN" in codes(move)
    # using the value out of turn is allowed (only moving is barred): a reading, documented
    pay = position(
        base + "Anna: vizier, buy Du C7ne pay Du5 kw:1, place C7ne@2,0\n",
        modules=mods,
        anna_more=awake,
    )
    assert codes(pay) == []
    assert cards(pay) == "kw:1 on 0"


def test_with_the_sultan_no_stone_moves_in_a_claim() -> None:
    # "Ist ein Spieler durch ... die Macht des Sultans außerhalb der normalen
    # Spielreihenfolge an der Reihe, darf er den Markierungsstein ... nicht verschieben."
    mods = f"sultan, {KW}"
    more = HOLD_A + "\n    sultan su:DeC"
    body = (
        "1. Anna: buy Du C7ne pay Du5 Du3, place C7ne@2,0\n* market Du:C9s\n"
        "Anna: sultan su:DeC C9s, caravan kw:1 Du3, place C9s@0,-2\n* market Du:T9ne\n"
    )
    rep = position(body, modules=mods, anna_more=more)
    assert "KARAWANSEREI-OUT-OF-TURN" in codes(rep)
    clean = body.replace(", caravan kw:1 Du3", "")
    assert codes(position(clean, modules=mods, anna_more=more)) == []


def test_the_module_switched_off_is_reported() -> None:
    rep = position("1. Anna: buy De kw:3 pay De8\n", modules="wesir")
    assert "MODULE-NOT-ENABLED" in codes(rep) or "BUY-NOT-IN-MARKET" in codes(rep)
    moved = position("1. Anna: caravan kw:1 Du3, take Gu4\n", modules="wesir")
    assert "MODULE-NOT-ENABLED" in codes(moved)


# ---------------------------------------------------------------- positions, example, simulation


def test_a_position_states_the_cards_and_their_stones_and_reads_back() -> None:
    rep = position("1. Anna: caravan kw:1 Di2, take Gu4\n", anna_more=HOLD_AB)
    state = rep.state
    assert state is not None
    text = position_text(state)
    assert "caravan kw:1 Di2" in text and "caravan kw:2 De3" in text
    again = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "karawanserei"]\n\n' + text)[0]
    state2, found = state_at(again, At("end"))
    assert found == []
    assert position_text(state2) == text
    assert state2.ext.views(state2)[KW] == state.ext.views(state)[KW]


def test_show_names_the_cards_and_stones_in_words_in_both_languages() -> None:
    rep = position("", anna_more=HOLD_A + "\n    caravan kw:2 0")
    en = view(rep, KW)
    assert en["players"]["Anna"] == {
        "caravanserais": "kw:1 stone on Du2 (2 Dukaten), kw:2 stone on 0 (start)"
    }
    de = view(rep, KW, "de")
    assert de["players"]["Anna"] == {
        "Karawansereien": "kw:1 Stein auf Du2 (2 Dukaten), kw:2 Stein auf 0 (Start)"
    }
    assert de["table"] == {"ausliegende Karten": "kw:3 kw:4 kw:5 kw:6 kw:7 kw:8"}


def test_the_example_game_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text)[0]
    assert format_game(game) == text
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == []
    assert re.search(r"buy \w+ kw:\d", text)
    assert re.search(r"(?m)^\d+\. \w+: caravan kw:\d \w\w\d", text)
    assert re.search(r"pay [^,\n]*kw:\d", text)


@pytest.mark.parametrize("profile", ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"])
def test_simulated_games_check_clean_for_2_to_6_players(profile: str) -> None:
    from referee.profiles import load_profile

    for players in (2, 3, 6):
        text = simulate_text(players, 2900 + players, load_profile(profile), modules=(KW,))
        rep = check_game(parse_text(text)[0])
        assert rep.violations == [], [v.message() for v in rep.violations][:3]
        assert "caravan kw:" in text or players == 2


def test_simulated_games_with_the_vizier_and_the_sultan_check_clean() -> None:
    for seed in (1, 2):
        text = simulate_text(4, 2950 + seed, modules=("wesir", "sultan", KW))
        rep = check_game(parse_text(text)[0])
        assert rep.violations == [], [v.message() for v in rep.violations][:3]


def test_explain_and_legal_answer_for_the_cards_and_the_stones() -> None:
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    path = str(EXAMPLE)
    out = runner.invoke(cli, ["explain", path, "--at", "41", "caravan kw:2 Di2"]).output
    assert "KARAWANSEREI-NOT-HELD" in out and "Ben uses kw:2, but holds kw:8" in out
    de = runner.invoke(cli, ["explain", path, "--at", "41", "buy kw:3 pay De5", "--lang", "de"])
    assert "für die zweite Karte werden mindestens 5 Arten benötigt" in de.output
    # each card is named once among the purchases out of reach (offered in four currencies)
    assert de.output.count("kw:3 (Karawanserei)") == 1
    legal = runner.invoke(cli, ["legal", path, "--at", "41"]).output
    assert "caravan kw:8 Di2" in legal


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_moment_of_the_example_round_trips_as_a_position(moment: str) -> None:
    """``show --format record`` writes the cards and stones (``caravan kw:5 Du1``); ``check``
    and ``score`` read the block back to the same table, views and breakdown."""
    from tests.test_position_modules import _game

    text = assert_moment_round_trips(_game(KW), moment)
    if moment in ("middle", "late", "scoring-2"):
        assert "    caravan kw:" in text
