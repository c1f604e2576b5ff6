"""Die Macht des Sultans (``referee/modules/sultan.py``): rulebook-bigbox-de-2019.txt § DIE
MACHT DES SULTANS (L1961-2077).

Every sentence of the section (setup, reveal and die, purchase, re-roll, claim, two players,
Anmerkungen), the rulebook's example (arcades -> arcades or chambers), the corruptions a record
can contain, and the stated cross-module rules with both modules enabled (the vizier, exchange
cards, diamonds, coins). Each test quotes the sentence it tests.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_module_common import codes, messages, run, view

from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game, start_state
from referee.engine.core import apply_item, settle_before
from referee.modules.base import module_data
from referee.modules.sultan import opposite
from referee.notation import parse_text
from referee.record.model import NOWHERE
from referee.simulate.simulator import simulate_text

SU = "sultan"
# SETUP (test_module_common): Anna Gu9 De7 De2 Du3, Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3;
# display Gu1 Di4 De6 Du2; market Gu:G11 Di:A9 De:P7 Du:T12; Ben starts, then Cem, Anna.
# A Denar card turns up with Gu3 (rolled arcades, marked chambers); Anna buys it for exactly 7
# and takes De5 with her extra action.
BASE = (
    "1. Ben: take Gu1\n"
    "* display Gu3 su:De, sultan su:De A C\n"
    "2. Cem: take Gu3\n"
    "* display De5\n"
    "3. Anna: buy su:De pay De7, take De5\n"
    "* display Du4\n"
)
# Ben buys A9; the refill draws a chamber for the Dirham field: Anna claims it out of turn.
DRAW = "4. Ben: buy Di A9 pay Di9, reserve A9\n* market Di:C9s\n"
CLAIM = DRAW + "Anna: sultan su:DeC C9s, place C9s@1,0\n* market Di:T9ne\n"


def sultan(rep: GameReport) -> dict[str, Any]:
    """The module's public view (``show``): the open cards, each player's cards and uses."""
    return view(rep, SU)


def held(rep: GameReport, name: str) -> list[str]:
    row = sultan(rep)["players"].get(name, {})
    return re.findall(r"su:\w+", row.get("sultan cards", ""))


def used(rep: GameReport) -> list[tuple[str, str, str]]:
    """(player, card, tile) of every claim made, from the view's ``used`` rows."""
    out = []
    for name, row in sultan(rep)["players"].items():
        out += [(name, c, t) for c, t in re.findall(r"(su:\w+) took (\S+)", row["used"])]
    return out


# ------------------------------------------------------------------ setup


def test_three_two_three_cards_go_into_the_first_three_piles() -> None:
    # "werden 3 Sultankarten in den 1., 2 Karten in den 2. und 3 Karten in den 3. Stapel
    # eingemischt" ("8 Sultankarten")
    data = module_data(SU)["components"]["sultan_cards"]
    assert data["piles"] == {1: 3, 2: 2, 3: 3} and data["piles_verified"] is True
    assert data["count"] == 8 == sum(data["piles"].values())
    assert data["per_currency_verified"] is False  # the currencies were only in the picture


def test_the_die_pairs_arcades_with_chambers_as_the_example_says() -> None:
    # "Beispiel: Wer eine Arkade würfelt, markiert sie oder die Gemächer auf der Sultankarte."
    assert opposite(BuildingType.ARCADES) is BuildingType.CHAMBERS
    assert opposite(BuildingType.CHAMBERS) is BuildingType.ARCADES
    die = module_data(SU)["components"]["die"]
    pairs = {tuple(e["pair"]): e["verified"] for e in die["opposite"]}
    assert pairs == {("A", "C"): True, ("P", "S"): False, ("G", "T"): False}
    assert {opposite(t) for t in BuildingType} == set(BuildingType)


# ------------------------------------------------------------------ reveal and die


def test_a_revealed_card_lies_beside_the_board_and_takes_no_display_place() -> None:
    # "Jede aufgedeckte Sultankarte wird neben dem Spielplan offen bereitgelegt." "Weitere
    # Karten werden aufgedeckt, bis die ausliegenden Geldkarten auf 4 ergänzt sind."
    rep = run(BASE.split("2. Cem")[0], SU)
    assert codes(rep) == []
    assert rep.state is not None and len(rep.state.display) == 4
    view = rep.state.ext.views(rep.state)[SU]
    assert view["table"]["open beside the board"] == "su:DeC (marks C, rolled A)"


def test_a_fifth_money_card_beside_a_sultan_card_is_too_many() -> None:
    rep = run("1. Ben: take Gu1\n* display Gu3 su:De Di1, sultan su:De A C\n", SU)
    assert "REFILL-DISPLAY" in codes(rep)


@pytest.mark.parametrize("marked", ["A", "C"])
def test_the_rolled_face_or_the_opposite_one_is_marked(marked: str) -> None:
    # "Nun sucht er sich ein Symbol aus: Entweder das, was er gewürfelt hat, oder dasjenige,
    # das diesem Symbol auf dem Würfel gegenüberliegt."
    rep = run(f"1. Ben: take Gu1\n* display Gu3 su:De, sultan su:De A {marked}\n", SU)
    assert codes(rep) == []
    assert re.findall(r"marks (\w)", sultan(rep)["table"]["open beside the board"]) == [marked]


@pytest.mark.parametrize("marked", ["P", "S", "G", "T"])
def test_a_wrong_die_mark_is_caught(marked: str) -> None:
    # "Eines dieser beiden Symbole muss er auf der Sultankarte markieren."
    rep = run(f"1. Ben: take Gu1\n* display Gu3 su:De, sultan su:De A {marked}\n", SU)
    assert codes(rep) == ["SULTAN-MARK"]
    assert "A or C" in messages(rep)[0]


def test_a_card_revealed_without_its_die_is_reported() -> None:
    # "Dann würfelt ein Spieler mit dem Gebäudewürfel und markiert das Ergebnis mit einem
    # Stein auf der Karte."
    rep = run(BASE.replace(", sultan su:De A C", ""), SU)
    assert "SULTAN-MARK" in codes(rep)


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("* sultan su:De A X", "SULTAN-MARK"),  # no face of the die
        ("* sultan su:Du A C", "SULTAN-MARK"),  # no open Dukaten card
        ("* sultan su:De A", "SULTAN-MARK"),  # the form
        ("* sultan su:Xy A C", "SULTAN-CARD"),  # no currency
    ],
)
def test_bad_die_lines_are_caught(line: str, code: str) -> None:
    rep = run("1. Ben: take Gu1\n* display Gu3 su:De, sultan su:De A C\n" + line + "\n", SU)
    assert code in codes(rep)


def test_more_cards_of_a_currency_than_exist() -> None:
    # two per currency (reading: the currencies were only in the picture)
    body = "1. Ben: take Gu1\n* display Gu3 su:De su:De su:De\n"
    rep = run(body, SU)
    assert "SULTAN-SUPPLY" in codes(rep)


def test_a_card_from_a_late_pile_is_caught() -> None:
    # piles 1 to 3 of five: a card turning up after more than 3/5 of the deck (with the
    # profile's pile tolerance) cannot be one of them
    rep = run("1. Ben: take Gu1\n* display Gu3\n", SU)
    state = rep.state
    assert state is not None
    mod = state.ext.modules[0]
    from referee.record.model import ComponentRef

    state.money_draws = state.setup_after  # the whole deck is through
    mod.display_component(state, ComponentRef("su", "Gu"), NOWHERE)
    assert state.found[-1].code == "SULTAN-PILE"
    state.reshuffles = 1
    mod.display_component(state, ComponentRef("su", "Di"), NOWHERE)
    assert state.found[-1].code == "SULTAN-PILE"


# ------------------------------------------------------------------ buying


def test_a_card_is_bought_for_7_in_its_currency_and_exact_gives_another_action() -> None:
    # "Offene Sultankarten können wie Gebäude gekauft werden (Aktion: Gebäudeplättchen
    # kaufen). Der Kaufpreis beträgt für jede Sultankarte 7, die benötigte Währung ist auf der
    # Karte angegeben. Wer passend bezahlt, ist noch einmal an der Reihe." "Der Käufer legt
    # die Karte mit der Markierung offen vor sich ab."
    rep = run(BASE, SU)
    assert codes(rep) == []  # the exact payment allowed `take De5`; no placement owed
    assert held(rep, "Anna") == ["su:DeC"]
    assert sultan(rep)["table"]["open beside the board"] == "none"
    view = rep.state.ext.views(rep.state)[SU]  # type: ignore[union-attr]
    assert view["players"]["Anna"]["sultan cards"] == "su:DeC (marks C, rolled A)"


def test_an_overpaid_card_gives_no_extra_action() -> None:
    body = (
        "1. Ben: take Gu1\n* display Gu3 su:Gu, sultan su:Gu G T\n2. Cem: take Gu3\n"
        "* display De5\n3. Anna: take De5\n* display Du4\n"
    )
    assert codes(run(body + "4. Ben: buy su:Gu pay Gu8\n", SU)) == []
    assert codes(run(body + "4. Ben: buy su:Gu pay Gu8, take Du4\n", SU)) == ["TURN-OVER"]


@pytest.mark.parametrize(
    ("pay", "code"),
    [
        ("Du3 De2 De7", "BUY-CURRENCY"),  # "die benötigte Währung ist auf der Karte angegeben"
        ("De2", "BUY-UNDERPAID"),  # "Der Kaufpreis beträgt ... 7"
    ],
)
def test_a_card_bought_with_the_wrong_currency_or_too_little(pay: str, code: str) -> None:
    rep = run(BASE.replace("buy su:De pay De7, take De5", f"buy su:De pay {pay}"), SU)
    assert code in codes(rep)


def test_a_card_that_is_not_open_cannot_be_bought() -> None:
    rep = run(BASE.replace("buy su:De pay De7", "buy su:Du pay Du3"), SU)
    assert "BUY-NOT-IN-MARKET" in codes(rep)


# ------------------------------------------------------------------ the buyer's re-roll


def test_the_buyer_may_remove_the_stone_and_roll_once() -> None:
    # "Sagt ihm dabei die markierte Gebäudesorte nicht zu, entfernt er den Stein und würfelt
    # einmal." (reading: the new roll stands)
    rep = run(BASE + "* sultan Anna su:DeC G\n", SU)
    assert codes(rep) == []
    assert held(rep, "Anna") == ["su:DeG"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("* sultan Ben su:DeC G", "not-bought"),  # not the buyer
        ("* sultan Anna su:DeC G\n* sultan Anna su:DeG T", "twice"),  # "würfelt einmal"
        ("* sultan Anna su:DeC G T", "faces"),  # the new roll stands (default)
    ],
)
def test_a_wrong_re_roll_is_caught(line: str, reason: str) -> None:
    rep = run(BASE + line + "\n", SU)
    assert "SULTAN-REROLL" in codes(rep)
    assert any(v.reason == reason for v in rep.violations if v.code == "SULTAN-REROLL")


def test_a_re_roll_after_the_next_turn_is_too_late() -> None:
    # "dabei": when the buyer lays the card down
    rep = run(BASE + "4. Ben: take Du4\n* display Du5\n* sultan Anna su:DeC G\n", SU)
    assert "SULTAN-REROLL" in codes(rep)


def test_the_option_reroll_choose_allows_the_opposite_face() -> None:
    rep = run(BASE + "* sultan Anna su:DeC G T\n", "sultan reroll=choose")
    assert codes(rep) == []
    assert held(rep, "Anna") == ["su:DeT"]
    rep = run(BASE + "* sultan Anna su:DeC G A\n", "sultan reroll=choose")
    assert codes(rep) == ["SULTAN-MARK"]


# ------------------------------------------------------------------ claims


def test_a_drawn_tile_of_the_marked_type_is_claimed_for_free_out_of_turn() -> None:
    # "Wird ein Gebäudeplättchen beim Auffüllen des Bauhofes gezogen ..., darf ein Spieler mit
    # einer Sultankarte, auf der diese Gebäudeart markiert ist, das Plättchen kostenlos nehmen.
    # Er muss es sofort in seiner Alhambra verbauen oder in seine Reserve legen. Die
    # entsprechende Sultankarte kommt aus dem Spiel." "Danach wird der Bauhof weiter aufgefüllt."
    rep = run(BASE + CLAIM, SU)
    assert codes(rep) == []
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None
    assert [str(t) for _c, t in anna.alhambra.items() if str(t) == "C9s"] == ["C9s"]
    assert anna.hand.total() == 4  # Gu9 De2 Du3 De5: nothing paid
    assert str(state.market[1]) == "T9ne"  # the field filled again
    assert held(rep, "Anna") == [] and used(rep) == [("Anna", "su:DeC", "C9s")]
    assert state.next_player == 2  # Cem moves next, as before the claim


def test_a_claim_may_name_the_field_and_reserve_the_tile() -> None:
    rep = run(BASE + DRAW + "Anna: sultan su:De Di, reserve C9s\n* market Di:T9ne\n", SU)
    assert codes(rep) == []


def test_nobody_wants_the_tile_it_lies_on_the_market() -> None:
    # "Möchte kein Spieler mit entsprechender Sultankarte das Gebäude haben, wird es auf den
    # Bauhof gelegt."
    rep = run(BASE + DRAW + "5. Cem: take Du4\n* display Du5\n", SU)
    assert codes(rep) == []
    assert held(rep, "Anna") == ["su:DeC"]
    assert rep.state is not None and str(rep.state.market[1]) == "C9s"


@pytest.mark.parametrize(
    ("line", "code", "reason"),
    [
        # a claim by the wrong player: Cem holds no sultan card
        ("Cem: sultan su:DeC C9s, place C9s@1,0", "SULTAN-CLAIM", "not-held"),
        # the wrong type: the tile on the Gulden field is a garden, not a chamber
        ("Anna: sultan su:DeC G11, place G11@1,0", "SULTAN-CLAIM", "not-drawn"),
        # a buy on a claim line
        ("Anna: sultan su:DeC C9s, place C9s@1,0, buy Gu G11 pay Gu9", "SULTAN-ACTION", None),
        # the claimed tile must be built or reserved at once
        ("Anna: sultan su:DeC C9s", "PLACE-MISSING", None),
        # a malformed claim
        ("Anna: sultan su:DeC", "SULTAN-CLAIM", "form"),
    ],
)
def test_corrupt_claims_are_caught(line: str, code: str, reason: str | None) -> None:
    rep = run(BASE + DRAW + line + "\n* market Di:T9ne\n", SU)
    assert code in codes(rep), messages(rep)
    if reason is not None:
        assert any(v.reason == reason for v in rep.violations if v.code == code)


def test_a_claim_of_the_wrong_type_is_caught() -> None:
    body = BASE + "4. Ben: buy Di A9 pay Di9, reserve A9\n* market Di:G8ne\n"
    rep = run(body + "Anna: sultan su:DeC G8ne, place G8ne@1,0\n* market Di:T9ne\n", SU)
    assert codes(rep) == ["SULTAN-CLAIM"]
    assert rep.violations[0].reason == "wrong-type"
    assert "marks C" in messages(rep)[0]


def test_a_card_leaves_the_game_after_one_claim() -> None:
    body = BASE + CLAIM.replace("* market Di:T9ne", "* market Di:C9w")
    rep = run(body + "Anna: sultan su:DeC C9w, place C9w@0,1\n* market Di:T9ne\n", SU)
    assert "SULTAN-CLAIM" in codes(rep)  # "kommt aus dem Spiel": not held any more


def test_a_claim_after_the_next_turn_is_too_late() -> None:
    body = BASE + DRAW + "5. Cem: take Du4\n* display Du5\n"
    rep = run(body + "Anna: sultan su:DeC C9s, place C9s@1,0\n* market Di:T9ne\n", SU)
    assert "SULTAN-CLAIM" in codes(rep)


def test_the_claim_verb_inside_a_turn_is_caught() -> None:
    rep = run(BASE + DRAW + "5. Cem: sultan su:DeC C9s\n", SU)
    assert "SULTAN-TIMING" in codes(rep)


def test_several_holders_the_next_in_turn_order_comes_first() -> None:
    # "Sollten mehrere Spieler über eine passend markierte Sultankarte verfügen, gilt unter
    # ihnen die Spielreihenfolge, beginnend bei dem Spieler, der als Nächster von ihnen an der
    # Reihe wäre."
    body = (
        "1. Ben: take Gu1\n"
        "* display Gu3 su:De su:Du, sultan su:De A C, sultan su:Du A C\n"
        "2. Cem: buy su:Du pay Du9\n"
        "3. Anna: buy su:De pay De7, take Gu3\n"
        "* display Du4\n" + DRAW
    )
    # after Ben's turn Cem would move next, then Anna: Cem comes first
    rep = run(body + "Anna: sultan su:DeC C9s Cem, place C9s@1,0\n* market Di:T9ne\n", SU)
    assert codes(rep) == ["SULTAN-ORDER"]
    assert "Cem comes first" in messages(rep)[0]
    rep = run(body + "Cem: sultan su:DuC C9s Anna, place C9s@1,0\n* market Di:T9ne\n", SU)
    assert codes(rep) == []


def test_a_scoring_due_comes_before_the_claim() -> None:
    # "Nach dem Ende eines Zuges ist darauf zu achten, dass zunächst die Geldkarten ergänzt
    # werden (und ggf. eine Wertung durchgeführt wird). Danach werden die Gebäudeplättchen auf
    # dem Bauhof ergänzt."
    body = (
        BASE + "4. Ben: buy Di A9 pay Di9, take Du4, reserve A9\n* display W1 Gu5, market Di:C9s\n"
    )
    claim = "Anna: sultan su:DeC C9s, place C9s@1,0\n* market Di:T9ne\n"
    early = run(body + claim + "scoring 1\n", SU)
    assert "SULTAN-TIMING" in codes(early)
    late = run(body + "scoring 1\n" + claim, SU)
    assert "SULTAN-TIMING" not in codes(late)


def test_the_game_end_refill_may_be_claimed_and_the_claimed_tile_never_fills_the_market() -> None:
    # "(egal, ob während des Spiels oder bei Spielende)"; "Der Bauhof kann nicht mehr komplett
    # aufgefüllt werden" counts only what lies on the market.
    text = _game_text(BASE + DRAW + "Anna: sultan su:DeC C9s, place C9s@1,0\n")
    game = parse_text(text, "t.alh")[0]
    before_claim = start_state(game)
    for item in game.body[:-1]:
        apply_item(before_claim, item)
    assert before_claim.phase == "refill"
    full = before_claim.copy()
    full.bag_count = 0  # the last tile of the tower was C9s
    settle_before(full, NOWHERE, "turn")
    assert not full.game_over  # four buildings on the market
    claimed = before_claim.copy()
    claimed.bag_count = 0
    apply_item(claimed, game.body[-1])
    assert not [v for v in claimed.found if v.code.startswith("SULTAN")]
    settle_before(claimed, NOWHERE, "turn")
    assert claimed.game_over  # the field stays empty: the game is over
    anna = claimed.player_named("Anna")
    assert anna is not None and any(str(t) == "C9s" for _c, t in anna.alhambra.items())


def _game_text(body: str, modules: str = SU) -> str:
    from test_module_common import SETUP

    return SETUP.format(players="Anna, Ben, Cem", modules=modules) + body


# ------------------------------------------------------------------ two players


TWO = """[Players "Anna, Ben"]
[Modules "sultan"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
* dirk C9s G8ne T9nw A6sw S4 P5
start Ben
1. Ben: take Gu1
* display Gu3 su:De, sultan su:De A C
2. Anna: buy su:De pay De7, take Gu3
* display Du4
3. Ben: buy Di A9 pay Di9, reserve A9
* market Di:C9w
"""


def _two(body: str) -> list[str]:
    game = parse_text(TWO + body, "t.alh")[0]
    assert not game.errors, game.errors
    return [v.code for v in check_game(game).violations]


def test_dirks_tiles_cannot_be_taken() -> None:
    # "Dirk erhält nach den beiden ersten Wertungen Gebäudeplättchen, diese können ihm mit
    # der „Macht des Sultans“ nicht entzogen werden."
    rep = check_game(parse_text(TWO + "Anna: sultan su:DeC C9s, place C9s@1,0\n", "t.alh")[0])
    assert [v.code for v in rep.violations] == ["SULTAN-DIRK"]


def test_a_claimed_tile_may_be_given_to_dirk() -> None:
    # "Ein mittels „Macht des Sultans“ erworbenes Gebäude darf Dirk geschenkt werden."
    assert _two("Anna: sultan su:DeC C9w, give C9w dirk\n* market Di:T9ne\n") == []


# ------------------------------------------------------------------ with other modules


def test_claims_come_before_the_vizier() -> None:
    # "Erst nach der Aktion „Macht des Sultans“ kommt ggf. die Aktion „Gunst des Wesirs“ dran."
    vizier = "Anna: vizier, buy De P7 pay De2 De5, reserve P7\n* market De:G8ne\n"
    claim = "Anna: sultan su:DeC C9s, place C9s@1,0\n* market Di:T9ne\n"
    ok = run(BASE + DRAW + claim + vizier, "sultan, wesir")
    assert codes(ok) == []
    late = run(BASE + DRAW + vizier + claim, "sultan, wesir")
    assert "SULTAN-CLAIM" in codes(late)
    assert any(v.reason == "not-drawn" for v in late.violations)


def test_a_tile_drawn_after_a_vizier_purchase_may_be_claimed() -> None:
    vizier = "Anna: vizier, buy De P7 pay De2 De5, reserve P7\n* market De:C8\n"
    claim = "Anna: sultan su:DeC C8, place C8@0,1\n* market De:T9ne\n"
    body = BASE + "4. Ben: take Du4\n* display Du5\n" + vizier + claim
    assert codes(run(body, "wesir, sultan")) == []


def test_no_sultan_card_is_bought_with_the_vizier() -> None:
    # "Mit einem Wesir kann man keine Sultankarte kaufen."
    body = BASE.split("3. Anna")[0] + "Anna: vizier, buy su:De pay De7\n"
    rep = run(body, "wesir, sultan")
    assert "SULTAN-BUY-TIMING" in codes(rep)
    assert "Mit einem Wesir kann man keine Sultankarte kaufen" in " ".join(messages(rep))


POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market Gu:P8 Di:A9 De:G10- Du:T12
  display Gu1 Di4 De6 Du2
  sultan su:DeC
  player Anna
    hand {anna}
  player Ben
    hand Di9
  player Cem
    hand Du9
end
"""


def _pos(anna: str, modules: str, body: str) -> list[str]:
    game = parse_text(POSITION.format(anna=anna, modules=modules) + body, "t.alh")[0]
    assert not game.errors, game.errors
    return [v.code for v in check_game(game).violations]


@pytest.mark.parametrize(
    ("modules", "anna", "pay"),
    [
        # "Wechselstuben ..., Diamanten ... und Münzen ... können zum Erwerb von Sultankarten
        # eingesetzt werden."
        ("sultan, wechselstuben", "Gu4 Gu3 ex:GuDe", "Gu4 Gu3 ex:GuDe"),
        ("sultan, diamanten", "dm:7 Gu4", "dm:7"),
        ("sultan, wechselgeld", "De4 De2 co:De", "De4 De2 co:De"),
    ],
)
def test_exchange_cards_diamonds_and_coins_pay_for_sultan_cards(
    modules: str, anna: str, pay: str
) -> None:
    body = f"1. Anna: buy su:DeC pay {pay}, take Gu1\n* display Gu5\n"
    assert _pos(anna, modules, body) == []  # exact: the extra action (take Gu1) is allowed
    # without the module's component the Gulden/Dukaten cards are the wrong currency
    if "ex:" in pay:
        assert "BUY-CURRENCY" in _pos("Gu4 Gu3", "sultan", "1. Anna: buy su:DeC pay Gu4 Gu3\n")


def test_a_thief_contender_is_not_outranked_by_a_sultan_card() -> None:
    # claims belong to the refill; once it is closed the arbiter leaves them out
    body = BASE + "4. Ben: take Du4\n* display Du5\n"
    # Cem would move next: he may not play a thief, and his sultan card has nothing to claim
    rep = run(body + "Anna: thief th:Du Cem, take Du5\n* display Gu5\n", "sultan, diebe")
    assert "THIEF-PRIORITY" not in codes(rep)


# ------------------------------------------------------------------ the whole game


def test_the_example_game_is_clean_and_uses_every_part() -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "module-sultan.alh"
    text = path.read_text(encoding="utf-8")
    rep = check_game(parse_text(text, str(path))[0])
    assert [v.code for v in rep.violations] == []
    assert "buy su:" in text and "* sultan su:" in text and ": sultan su:" in text
    assert used(rep)


@pytest.mark.parametrize("modules", [["sultan", "wesir"], ["sultan", "diamanten", "wechselgeld"]])
def test_simulated_games_with_other_modules_check_clean(modules: list[str]) -> None:
    for players in (2, 4):
        text = simulate_text(players, 7, modules=modules)
        rep = check_game(parse_text(text, "sim.alh")[0])
        assert [v.code for v in rep.violations] == [], text


def test_the_docs_example_re_roll_then_claim() -> None:
    # docs/modules.md: the buyer re-rolls a garden, then claims the garden drawn next
    body = (
        BASE + "* sultan Anna su:DeC G\n4. Ben: buy Di A9 pay Di9, reserve A9\n"
        "* market Di:G8ne\nAnna: sultan su:DeG G8ne, place G8ne@1,0\n* market Di:T9ne\n"
    )
    rep = run(body, SU)
    assert codes(rep) == []
    assert used(rep) == [("Anna", "su:DeG", "G8ne")]
