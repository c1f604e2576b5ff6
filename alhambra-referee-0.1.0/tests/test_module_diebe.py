"""Die Diebe (rulebook-bigbox-de-2019.txt § DIE DIEBE).

The setup of ``test_module_common``: Ben moves first, then Cem, then Anna. Hands: Anna Gu9 De7
De2 Du3, Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3; display Gu1 Di4 De6 Du2; market Gu:G11 Di:A9
De:P7 Du:T12. After ``T1`` the display is De6 Du2 De5 Du5 and Cem moves next.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from test_module_common import SETUP, codes, messages, run, view

from referee.catalogue import Currency, MoneyCard
from referee.cli import cli
from referee.engine import check_game
from referee.notation import parse_text
from referee.record.model import NOWHERE

D = "diebe"
T1 = "1. Ben: take Gu1 Di4\n* display De5 Du5\n"
T2 = "2. Cem: take Du2\n* display Gu3\n"


def test_a_thief_takes_one_card_of_its_currency_whatever_its_value() -> None:
    # "darf ein Spieler die normale Zugreihenfolge unterbrechen und als Sonderaktion seinen
    # Dieb einsetzen, indem er eine Geldkarte in der abgebildeten Währung aus der Auslage
    # nimmt"; "nur eine Karte ..., egal welchen Wert sie besitzt" (De6 > 5).
    rep = run(T1 + "Anna: thief th:De, take De6\n* display Gu3\n2. Cem: take Du2\n", D)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None and anna.hand[MoneyCard(Currency.DENAR, 6)] == 1
    # "Der gespielte Dieb kommt aus dem Spiel": 4 unknown thieves dealt (3 players), 3 left
    assert view(rep, D)["players"]["Anna"] == {"thieves": "? ? ?", "played": "th:De"}
    assert view(rep, D)["table"]["played"] == "after turn 1: Anna th:De De6"
    # play resumes with the player who was next (Cem): no TURN-ORDER above


def test_the_player_who_moves_next_may_not_play_a_thief() -> None:
    # "Vor dem eigenen Zug darf ein Spieler keinen Dieb einsetzen."
    rep = run(T1 + "Cem: thief th:De, take De6\n* display Gu3\n2. Cem: take Du2\n", D)
    assert codes(rep) == ["THIEF-NEXT-PLAYER"]
    assert "Vor dem eigenen Zug" in messages(rep)[0]


def test_a_thief_takes_only_a_card_of_its_own_currency() -> None:
    rep = run(T1 + "Anna: thief th:Gu, take De6\n* display Gu3\n", D)
    assert codes(rep) == ["THIEF-CURRENCY"]


def test_one_card_per_thief_not_several_up_to_5() -> None:
    # "Ein Spieler darf für jeden ausgespielten Dieb nur eine Geldkarte nehmen. Es ist nicht
    # erlaubt, mehrere Geldkarten im Wert bis zu 5 zu nehmen."
    rep = run(T1 + "Anna: thief th:Du, take Du2 Du5\n* display Gu3\n", D)
    assert codes(rep) == ["THIEF-ONE-CARD"]
    rep = run(T1 + "Anna: thief th:Du\n", D)
    assert codes(rep) == ["THIEF-ONE-CARD"]


def test_a_thief_line_holds_nothing_else() -> None:
    rep = run(
        T1 + "Anna: thief th:Du, take Du2, buy De P7 pay De7, place P7@1,0\n* display Gu3\n", D
    )
    assert "THIEF-ACTION" in codes(rep)


def test_several_thieves_in_a_row_with_a_refill_after_each() -> None:
    # "Ein Spieler darf gleichzeitig mehrere Diebe ausspielen. Nach jedem Dieb werden die
    # ausliegenden Geldkarten wieder auf 4 ergänzt."
    body = T1 + "Anna: thief th:De, take De6\n* display Gu3\nAnna: thief th:Du, take Du5\n"
    rep = run(body + "* display Gu4\nBen: thief th:Gu, take Gu3\n* display Gu5\n" + T2, D)
    assert codes(rep) == [], messages(rep)
    rep = run(
        T1 + "Anna: thief th:De, take De6\nAnna: thief th:Du, take Du5\n* display Gu3 Gu4\n", D
    )
    assert codes(rep) == ["REFILL-DISPLAY"]


def test_thieves_are_played_between_turns_only() -> None:
    # "Jedesmal, wenn ein Spielzug komplett beendet ist"
    rep = run(T1 + "2. Cem: thief th:De, take De6\n", D)
    assert "THIEF-TIMING" in codes(rep)
    rep = run("Anna: thief th:De, take De6\n* display Gu3\n" + "1. Ben: take Gu1\n", D)
    assert "THIEF-TIMING" in codes(rep)


def test_the_deal_by_player_count() -> None:
    # "Bei 2 und 3 Spielern erhält jeder 4 Diebe, bei 4 Spielern erhält jeder 3 Diebe und bei
    # 5 und 6 Spielern erhält jeder 2 Diebe."
    deal = "* thieves Anna th:Gu th:De ? ?\n"
    text = SETUP.format(players="Anna, Ben, Cem", modules=D).replace(
        "start Ben", deal + "start Ben"
    )
    rep = check_game(parse_text(text + T1 + "Anna: thief th:De, take De6\n* display Gu3\n", "t")[0])
    assert [v.code for v in rep.violations] == [], messages(rep)
    short = text.replace(deal, "* thieves Anna th:Gu ?\n")
    rep = check_game(parse_text(short + T1, "t")[0])
    assert [v.code for v in rep.violations] == ["THIEF-DEAL"]
    late = SETUP.format(players="Anna, Ben, Cem", modules=D) + T1 + deal
    rep = check_game(parse_text(late, "t")[0])
    assert "THIEF-DEAL" in [v.code for v in rep.violations]


def test_twelve_thieves_three_per_currency() -> None:
    # "12 Diebkarten, je 3 passend zu den 4 Geldfarben"
    deal = "* thieves Anna th:Gu th:Gu th:Gu ?\n* thieves Ben th:Gu ? ? ?\n"
    text = SETUP.format(players="Anna, Ben, Cem", modules=D).replace(
        "start Ben", deal + "start Ben"
    )
    rep = check_game(parse_text(text + T1, "t")[0])
    assert [v.code for v in rep.violations] == ["THIEF-SUPPLY"]
    deal = "* thieves Anna th:Gu th:Gu th:Gu ?\n"
    text = SETUP.format(players="Anna, Ben, Cem", modules=D).replace(
        "start Ben", deal + "start Ben"
    )
    body = T1 + "Ben: thief th:Gu, take De6\n"
    rep = check_game(parse_text(text + body, "t")[0])
    assert "THIEF-SUPPLY" in [v.code for v in rep.violations]


def test_a_thief_not_held_cannot_be_played() -> None:
    deal = "* thieves Anna th:Gu th:Gu th:Di th:Di\n"
    text = SETUP.format(players="Anna, Ben, Cem", modules=D).replace(
        "start Ben", deal + "start Ben"
    )
    rep = check_game(parse_text(text + T1 + "Anna: thief th:De, take De6\n* display Gu3\n", "t")[0])
    assert [v.code for v in rep.violations] == ["THIEF-NOT-HELD"]
    # four unknown thieves (3 players): the fifth is not held
    body = T1
    for cur, card, new in [
        ("De", "De6", "Gu3"),
        ("Du", "Du2", "Gu4"),
        ("De", "De5", "Gu5"),
        ("Du", "Du5", "Gu6"),
        ("Gu", "Gu3", "Gu7"),
    ]:
        body += f"Anna: thief th:{cur}, take {card}\n* display {new}\n"
    rep = run(body, D)
    assert codes(rep) == ["THIEF-NOT-HELD"]


def test_no_such_thief_card() -> None:
    rep = run(T1 + "Anna: thief ex:GuDe, take De6\n* display Gu3\n", D)
    assert "THIEF-CARD" in codes(rep)


def test_precedence_in_seat_order_from_the_next_player() -> None:
    # "hat derjenige Vorrang, der in der Spielreihenfolge am Weitesten vorne ist. (Der Spieler,
    # der eigentlich am Zug wäre, ist der Erste - der Spieler, der gerade seinen Zug beendet
    # hat, ist der Letzte ...)". After Ben's turn the order is Cem, Anna, Ben.
    rep = run(T1 + "Ben: thief th:De Anna, take De6\n* display Gu3\n", D)
    assert codes(rep) == ["THIEF-PRIORITY"]
    rep = run(T1 + "Anna: thief th:De Ben, take De6\n* display Gu3\n", D)
    assert codes(rep) == []


def test_the_next_player_named_as_a_contender_without_the_vizier() -> None:
    # "Der Spieler am Zug darf keinen Dieb spielen": without another interruption Cem had no
    # claim, so Ben's thief is not blamed.
    rep = run(T1 + "Ben: thief th:De Cem, take De6\n* display Gu3\n", D)
    assert codes(rep) == []


# ------------------------------------------------------------------ thieves and the vizier


def test_thief_and_vizier_seat_order_alone_decides() -> None:
    # "Will ein Spieler den Wesir, ein anderer den Dieb spielen, entscheidet alleine die
    # Spielreihenfolge. ... (Beachte: Der Spieler am Zug darf aber lediglich den Wesirstein
    # spielen.)" With the vizier, Cem (next) could interrupt with it and comes first.
    both = "wesir, diebe"
    rep = run(T1 + "Ben: thief th:De Anna, take De6\n* display Gu3\n", both)
    assert codes(rep) == ["THIEF-PRIORITY"]
    # after Cem's turn Anna moves next: no thief for her, but her awake vizier and De7 pay the
    # P7 exactly, so she would have come first
    rep = run(T1 + T2 + "Ben: thief th:Gu Anna, take Gu3\n* display Gu4\n", both)
    assert codes(rep) == ["THIEF-PRIORITY"], messages(rep)


def test_a_contender_who_cannot_act_has_no_precedence() -> None:
    # Issue 31: precedence belongs only to players who could make the claim. Cem moves next,
    # so "Der Spieler am Zug darf keinen Dieb spielen", and with Du9 Di8 Gu2 De3 he can pay no
    # market tile (G11 A9 P7 T12) "genau passend", as the vizier needs: he does not come first.
    both = "wesir, diebe"
    rep = run(T1 + "Ben: thief th:De Cem, take De6\n* display Gu3\n", both)
    assert codes(rep) == [], messages(rep)
    # a contender whose thieves are all known and of other currencies: "Wollen mehrere Spieler
    # gleichzeitig eine bestimmte Geldkarte nehmen" -- Anna could not take the De6
    rep = run(
        "* thieves Anna th:Gu th:Gu th:Di th:Du\n"
        + T1
        + "Ben: thief th:De Anna, take De6\n* display Gu3\n",
        D,
    )
    assert codes(rep) == [], messages(rep)


def test_the_next_player_may_only_use_the_vizier() -> None:
    # After Cem's turn 2 Anna moves next: her vizier is fine, her thief is not.
    both = "wesir, diebe"
    rep = run(T1 + T2 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n", both)
    assert codes(rep) == [], messages(rep)
    rep = run(T1 + T2 + "Anna: thief th:Gu, take Gu3\n* display Gu4\n", both)
    assert codes(rep) == ["THIEF-NEXT-PLAYER"]


def test_a_thief_then_the_vizier_is_allowed() -> None:
    # "Einem Spieler ist es aber erlaubt, erst einen Dieb und im Anschluss den Wesirstein zu
    # spielen."
    body = (
        T1 + "Anna: thief th:De, take De6\n* display Gu3\n"
        "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n" + T2
    )
    rep = run(body, "wesir, diebe")
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    assert view(rep, "wesir")["players"]["Anna"]["vizier"] == "asleep"
    assert view(rep, D)["players"]["Anna"]["thieves"] == "? ? ?"


def test_thieves_may_follow_a_vizier_purchase() -> None:
    body = (
        T1 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
        "Ben: thief th:De, take De6\n* display Gu3\n" + T2
    )
    rep = run(body, "wesir, diebe")
    assert codes(rep) == [], messages(rep)


# ------------------------------------------------------------------------------ views


def test_state_is_shown_in_show_and_json_and_german() -> None:
    deal = "* thieves Anna th:Gu th:De ? ?\n"
    text = SETUP.format(players="Anna, Ben, Cem", modules=D).replace(
        "start Ben", deal + "start Ben"
    )
    text += T1 + "Anna: thief th:De, take De6\n* display Gu3\n"
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-"], input=text)
    assert out.exit_code == 0, out.output
    assert "The Thieves" in out.output and "th:Gu ? ?" in out.output
    out = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Die Diebe" in out.output
    out = runner.invoke(cli, ["show", "-", "--format", "json"], input=text)
    data = json.loads(out.output)
    assert data["modules"]["diebe"]["players"]["Anna"] == {
        "thieves": "th:Gu ? ?",
        "played": "th:De",
    }


def test_position_block_states_the_thieves_held() -> None:
    text = (
        '[Players "Anna, Ben, Cem"]\n[Modules "diebe"]\n\nposition\n  next Ben\n'
        "  market Gu:G11 Di:A9 De:P7 Du:T12\n  display Gu1 Di4 De6 Du2\n"
        "  player Anna\n    hand Gu9\n    thieves th:Gu ?\n  player Ben\n    hand Di9\n"
        "    thieves th:De\n  player Cem\n    hand Du9\nend\n"
        "Anna: thief th:Gu, take Gu1\n* display Gu3\n"
    )
    games = parse_text(text, "p.alh")
    assert not games[0].errors, games[0].errors
    rep = check_game(games[0])
    assert [v.code for v in rep.violations] == [], [v.message() for v in rep.violations]
    assert rep.state is not None
    assert view(rep, D)["players"]["Anna"] == {"thieves": "?", "played": "th:Gu"}


def test_messages_in_both_languages_cite_the_section() -> None:
    from referee.engine.rules import rule

    rep = run(T1 + "Cem: thief th:De, take De6\n* display Gu3\n", D)
    v = rep.violations[0]
    assert (
        rule(v.code).section
        == "rulebook-bigbox-de-2019.txt § DIE DIEBE: Wie werden Diebe eingesetzt?"
    )
    assert "Cem" in v.message("en") and "Vor dem eigenen Zug" in v.message("en")
    assert "vor dem eigenen Zug" in v.message("de")
    assert v.line == 12 and v.turn == 1


def test_no_thief_after_the_game_end() -> None:
    # reading: the refill that fails ends the game; the leftover tiles follow at once
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "examples" / "module-diebe.alh").read_text(
        encoding="utf-8"
    )
    assert "\ndistribute " in text
    late = text.replace("\ndistribute ", "\nAnna: thief th:Gu, take Gu1\ndistribute ", 1)
    rep = check_game(parse_text(late, "late.alh")[0])
    assert [v.code for v in rep.violations] == ["THIEF-TIMING"]
    assert "game has ended" in rep.violations[0].message()


def test_the_arbiter_knows_who_may_interrupt() -> None:
    # the platform's answer, by declared kinds: thieves bar the next player, the vizier does not
    rep = run(T1, "wesir, diebe")
    state = rep.state
    assert state is not None
    arbiter = state.ext.arbiter
    cem, anna = state.player_named("Cem"), state.player_named("Anna")
    assert cem is not None and anna is not None and state.next_player == cem.index
    assert not arbiter.may_interrupt(state, cem, "diebe")
    assert arbiter.may_interrupt(state, cem, "wesir") and arbiter.may_interrupt(
        state, anna, "diebe"
    )
    # Cem may not play a thief as the next player, and cannot pay any tile exactly for the
    # vizier ("genau passend bezahlen (können)"): he has no claim he could really make
    assert [c.module for c in arbiter.possible_claims(state, cem, NOWHERE)] == []
    assert sorted(c.module for c in arbiter.possible_claims(state, anna, NOWHERE)) == [
        "diebe",
        "wesir",
    ]


# --------------------------------------------------------------- issue 31 defect classes

BUILDER_POSITION = """[Players "Anna, Ben, Cem"]
[Modules "baumeister, diebe"]

position
  next Anna
  market Gu:T12 Di:A9 De:G10- Du:T13
  display Gu1 Di4 De6 mb:Du
  player Anna
    hand Gu9
  player Ben
    hand Di9
    thieves {thieves}
  player Cem
    hand Du9
end
"""


def builder_game(thieves: str, line: str) -> list[str]:
    text = BUILDER_POSITION.format(thieves=thieves) + line
    games = parse_text(text, "p.alh")
    assert not games[0].errors, games[0].errors
    return [v.code for v in check_game(games[0]).violations]


def test_a_thief_may_take_a_master_builder_card_of_its_currency() -> None:
    # A thief takes "eine Geldkarte in der abgebildeten Währung aus der Auslage" (§ DIE DIEBE,
    # Wie werden Diebe eingesetzt?); a master-builder card "ist eine normale Geldkarte mit dem
    # Wert 3" of its currency (§ DIE BAUMEISTER): a thief of that currency may take it.
    assert builder_game("th:Du", "Ben: thief th:Du, take mb:Du\n* display Gu3\n") == []
    # ... but a thief of another currency may not
    assert builder_game("th:Gu", "Ben: thief th:Gu, take mb:Du\n* display Gu3\n") == [
        "THIEF-CURRENCY"
    ]


def test_a_thief_line_names_other_actions_as_written() -> None:
    # "als Sonderaktion seinen Dieb einsetzen, indem er eine Geldkarte ... aus der Auslage
    # nimmt": anything else on the line is named as the record wrote it.
    rep = run(T1 + "Anna: thief th:De, take De6, buy De P7 pay De7\n* display Gu3\n", D)
    assert codes(rep) == ["THIEF-ACTION"]
    assert "'buy De P7 pay De7'" in messages(rep)[0]
