"""Der Bettler drawing a card that is no money card (``referee/modules/charaktere.py``):

    "Der Bettler – Man darf sich bei Zugbeginn die oberste Geldkarte vom Stapel nehmen, falls
    man keine, nur 1 oder 2 Geldkarten auf der Hand hat. Ist dies keine Geld- oder
    Wechselstubenkarte, wird nach der entsprechenden Regel verfahren. Der Spieler darf eine
    weitere Karte ziehen." (rulebook-bigbox-de-2019.txt L1104-1109)

Each kind of card the money deck holds goes where its own rule puts it when it turns up: money
and the cards that lie in the display like money (diamonds, exchange cards, master-builder
cards) into the hand; a scoring card is scored before the next player's turn; the cards laid
beside the board (character, sultan, wall, gate cards) where their module lays them. Each
module is asked through the platform (``display_place``, ``display_component``,
``deal_component``, ``position_component``, ``position_held``), never by name.
"""

from __future__ import annotations

from conftest import view
from test_module_charaktere import codes, owned, position, reasons

from referee.engine import GameReport

BETTLER = "characters ch:Bettler"


def _hand(rep: GameReport, name: str) -> str:
    assert rep.state is not None
    p = rep.state.player_named(name)
    assert p is not None
    return " ".join(sorted(c.code for c in p.hand.elements()))


def test_a_scoring_card_drawn_is_scored_before_the_next_players_turn() -> None:
    # base rule: "Wird eine Wertungskarte aufgedeckt, wird sie vor den Spieler gelegt, der als
    # nächstes an der Reihe ist ... Bevor der nächste Spieler seinen Zug beginnt, findet die
    # Wertung statt." (L412-418)
    body = "1. Anna: beggar W1, take Gu4\n* display Gu5\nscoring 1\n2. Ben: take Du2\n"
    rep = position(body, anna=BETTLER, hand="Du3")
    assert codes(rep) == [], rep.violations
    assert rep.state is not None and 1 in rep.state.scorings_done
    # the scoring is due: a turn without it is reported
    body = "1. Anna: beggar W1, take Gu4\n* display Gu5\n2. Ben: take Du2\n"
    assert ("SCORING-MISSING", "due") in reasons(position(body, anna=BETTLER, hand="Du3"))
    # the card is in the hand of nobody
    rep = position(
        "1. Anna: beggar W1, take Gu4\n* display Gu5\nscoring 1\n", anna=BETTLER, hand="Du3"
    )
    assert "W1" not in _hand(rep, "Anna")


def test_a_sultan_card_drawn_is_laid_beside_the_board() -> None:
    # "Jede aufgedeckte Sultankarte wird neben dem Spielplan offen bereitgelegt." (Sultan)
    rep = position(
        "1. Anna: beggar su:Gu, take Gu4\n", "charaktere, sultan", anna=BETTLER, hand="Du3"
    )
    assert [c for c in codes(rep) if not c.startswith("SULTAN-PILE")] == [], rep.violations
    assert "su:Gu" not in _hand(rep, "Anna")
    assert "Gu" in str(view(rep, "sultan"))


def test_a_wall_card_and_a_gate_card_drawn_are_laid_out_by_their_modules() -> None:
    rep = position(
        "1. Anna: beggar wl:e, take Gu4\n", "charaktere, mauern", anna=BETTLER, hand="Du3"
    )
    assert [c for c in codes(rep) if not c.startswith("MAUERN-PILE")] == [], rep.violations
    assert view(rep, "mauern") != {}
    rep = position(
        "1. Anna: beggar gate:card, take Gu4\n", "charaktere, stadttore", anna=BETTLER, hand="Du3"
    )
    assert [c for c in codes(rep) if not c.startswith("GATE-PILE")] == [], rep.violations
    # the open gate card may now be taken instead of money (the gate module's rule)
    body = "1. Anna: beggar gate:card, take Gu4\n* display Gu5\n2. Ben: take gate:card\n"
    rep = position(body, "charaktere, stadttore", anna=BETTLER, hand="Du3")
    assert [c for c in codes(rep) if not c.startswith("GATE-PILE")] == [], rep.violations


def test_an_exchange_card_and_a_master_builder_card_go_into_the_hand() -> None:
    # "Ist dies keine Geld- oder Wechselstubenkarte": an exchange card is taken like money
    rep = position(
        "1. Anna: beggar ex:GuDe, take Gu4\n", "charaktere, wechselstuben", anna=BETTLER, hand="Du3"
    )
    assert codes(rep) == [], rep.violations
    assert "GuDe" in str(view(rep, "wechselstuben")["players"]["Anna"])
    # and pays with the hand afterwards
    body = "1. Anna: beggar ex:GuDe, buy De P7e pay Gu4 De3 ex:GuDe, place P7e@1,0\n"
    rep = position(body, "charaktere, wechselstuben", anna=BETTLER, hand="Gu4 De3")
    assert codes(rep) == [], rep.violations
    # a master-builder card is "eine normale Geldkarte mit dem Wert 3" (Baumeister)
    rep = position(
        "1. Anna: beggar mb:Gu, take Gu4\n", "charaktere, baumeister", anna=BETTLER, hand="Du3"
    )
    assert [c for c in codes(rep) if not c.startswith("BAUMEISTER-")] == [], rep.violations
    assert "mb:Gu" in str(view(rep, "baumeister")["players"]["Anna"])


def test_a_card_of_no_enabled_module_or_no_card_of_the_deck_is_reported() -> None:
    # without Die Wechselstuben there is no exchange card in the deck
    rep = position("1. Anna: beggar ex:GuDe, take Gu4\n", anna=BETTLER, hand="Du3")
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "form")]
    # a tile is no card of the deck
    rep = position("1. Anna: beggar T9ne, take Gu4\n", anna=BETTLER, hand="Du3")
    assert ("CHARAKTERE-BEGGAR", "form") in reasons(rep)


def test_one_more_card_after_any_card_or_only_after_one_that_is_no_money() -> None:
    # "Der Spieler darf eine weitere Karte ziehen." (L1108-1109): switch beggar=again (any
    # first card) or beggar=other (only after a card "keine Geld- oder Wechselstubenkarte")
    two = "1. Anna: beggar W1, beggar Gu5, take Gu4\n* display Gu5\nscoring 1\n"
    for switch in ("charaktere", "charaktere beggar=other"):
        assert codes(position(two, switch, anna=BETTLER, hand="Du3")) == []
    two = "1. Anna: beggar ex:GuDe, beggar Gu5, take Gu4\n"
    mods = "charaktere, wechselstuben"
    assert codes(position(two, mods, anna=BETTLER, hand="Du3")) == []
    rep = position(two, "charaktere beggar=other, wechselstuben", anna=BETTLER, hand="Du3")
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "again")]
    two = "1. Anna: beggar su:Gu, beggar Gu5, take Gu4\n"
    rep = position(two, "charaktere beggar=other, sultan", anna=BETTLER, hand="Du3")
    assert [c for c in codes(rep) if not c.startswith("SULTAN-PILE")] == [], rep.violations


def test_the_count_of_money_cards_includes_diamonds_and_master_builder_cards() -> None:
    # "falls man keine, nur 1 oder 2 Geldkarten auf der Hand hat" (L1104-1106): diamonds are
    # "Diamanten-Karten in der neuen Währung" (L955-957), money cards
    body = "1. Anna: beggar Gu5, take Gu4\n"
    rep = position(body, "charaktere, diamanten", anna=BETTLER, hand="Du3 dm:5")
    assert codes(rep) == [], rep.violations
    rep = position(body, "charaktere, diamanten", anna=BETTLER, hand="Du3 dm:5 dm:4")
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "too-many")]
    assert "he holds 3" in rep.violations[0].message()
    rep = position(body, "charaktere, baumeister", anna=BETTLER, hand="Du3 Di2 mb:Gu")
    assert ("CHARAKTERE-BEGGAR", "too-many") in reasons(rep)


def test_exchange_cards_count_only_with_the_switch() -> None:
    # the Bettler's text names them apart ("keine Geld- oder Wechselstubenkarte"): by default
    # they are no money cards for the count; beggar_hand=exchange counts them
    body = "1. Anna: beggar Gu5, take Gu4\n"
    hand = "Du3 Di2 ex:GuDe"
    rep = position(body, "charaktere, wechselstuben", anna=BETTLER, hand=hand)
    assert codes(rep) == [], rep.violations
    rep = position(body, "charaktere beggar_hand=exchange, wechselstuben", anna=BETTLER, hand=hand)
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "too-many")]


def test_a_character_card_drawn_is_auctioned_from_the_next_player() -> None:
    # "wird nach der entsprechenden Regel verfahren": "Wird eine Charakterkarte vom Stapel
    # aufgedeckt, wird das Spiel sofort unterbrochen und die Karte versteigert. Der Spieler,
    # der als nächstes an der Reihe ist, übernimmt die Rolle des Auktionators" (L1030-1035)
    body = "1. Anna: beggar ch:Weise, take Gu4\nBen: bid 2 pay Du8\nCem: pass\nAnna: pass\n"
    rep = position(body, anna=BETTLER, hand="Du3")
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Ben") == "ch:Weise"
    body = "1. Anna: beggar ch:Weise, take Gu4\nCem: bid 2 pay Gu2\n"
    assert "STAGE-ORDER" in codes(position(body, anna=BETTLER, hand="Du3"))


def test_legal_lists_the_bettler_s_draw_with_the_card_unknown() -> None:
    from test_module_charaktere import _state

    from referee.engine.legal import legal_actions
    from referee.notation.formatter import action as written

    rep = position("", anna=BETTLER, hand="Du3")
    assert "beggar ?" in list(map(written, legal_actions(_state(rep))))
    rep = position("", anna=BETTLER)  # seven money cards: he may not draw
    assert "beggar ?" not in list(map(written, legal_actions(_state(rep))))


def test_explain_answers_may_anna_draw_with_the_bettler(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner
    from test_module_charaktere import _text

    from referee.cli import cli

    pos = tmp_path / "pos.alh"
    pos.write_text(_text("", "charaktere, sultan", anna=BETTLER, hand="Du3"), "utf-8")
    got = CliRunner().invoke(cli, ["explain", str(pos), "Anna: beggar su:Gu"])
    assert got.exit_code == 0 and "legal" in got.output, got.output
    pos.write_text(_text("", anna=BETTLER), "utf-8")  # seven money cards in the hand
    got = CliRunner().invoke(cli, ["explain", str(pos), "Anna: beggar W1", "--lang", "de"])
    assert got.exit_code == 1 and "CHARAKTERE-BEGGAR" in got.output, got.output
    assert "er hat 7" in got.output
