"""Die Schätze (rulebook-bigbox-de-2019.txt § Frank Sander: Die Schätze).

Most tests start from a position (three players, known hands) with the arcades 9 on the Dirham
field, the building of the rulebook's example.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import codes, messages, module, run, view

from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.notation import parse_text

X = "schaetze"

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  market Gu:G11 Di:A9 De:P7 Du:T12
  display Gu1 Di4 De6 Du2
  next Anna
  player Anna
    hand {hand}
    {treasures}
  player Ben
    hand Du9 Gu3
  player Cem
    hand De5 Gu2
end
"""


def at(body: str, hand: str = "Di4 Di3 Gu2", treasures: str = "", modules: str = X) -> GameReport:
    text = POSITION.format(modules=modules, hand=hand, treasures=treasures) + body
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def treasures(rep: GameReport, name: str = "Anna") -> list[int]:
    assert rep.state is not None
    player = rep.state.player_named(name)
    assert player is not None
    return sorted(module(rep, X).kept(rep.state, player))


def test_rulebook_example_arcades_9_for_7_and_the_3_treasure() -> None:
    # "Der Spieler will eine Arkade im Wert von 9 kaufen, hat aber nur 7. Da er seinen
    # 2er-Schatz schon vorher weggegeben hat, kann er nun seinen 3er-Schatz abgeben und die
    # Arkade für 10 kaufen. Der Kauf gilt trotzdem als passend."
    rep = at(
        "1. Anna: buy Di A9 pay Di4 Di3 sz:3, take Gu1, reserve A9\n",
        treasures="treasures 1 3 4 5",
    )
    assert codes(rep) == [], messages(rep)  # exact: the take is a second action
    assert treasures(rep) == [1, 4, 5]
    shown = view(rep, X)["players"]  # the treasure given, as `show` prints it
    assert [shown[n]["given"] for n in ("Anna", "Ben", "Cem")] == ["sz:3", "-", "-"]


def test_without_a_treasure_the_same_payment_is_underpaid() -> None:
    rep = at("1. Anna: buy Di A9 pay Di4 Di3, reserve A9\n")
    assert codes(rep) == ["BUY-UNDERPAID"]


def test_the_treasure_reduces_the_cost_by_its_value() -> None:
    # "Der Schatz reduziert die Kosten für ein Gebäudeplättchen um die Anzahl die auf dem
    # Schatzplättchen abgedruckt ist": 7 + 1 do not reach 9.
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:1, reserve A9\n")
    assert codes(rep) == ["BUY-UNDERPAID"]
    assert "comes to only 8" in messages(rep)[0]
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:2, take Gu1, reserve A9\n")
    assert codes(rep) == []


def test_the_purchase_is_exact_even_when_the_treasure_is_worth_more() -> None:
    # "Egal, mit welchem Schatz er den Bauherrn besticht, der Kauf gilt immer als passend, auch
    # wenn der Schatz mehr wert ist, als für das passende Bezahlen nötig wäre."
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:5, take Gu1, reserve A9\n")
    assert codes(rep) == [], messages(rep)
    # an overpayment with cards alone ends the turn's actions
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 Di5, take Gu1, reserve A9\n", hand="Di4 Di3 Di5")
    assert codes(rep) == ["TURN-OVER"]


def test_a_treasure_alone_may_cover_a_price() -> None:
    rep = at(
        "1. Anna: buy De P7 pay sz:5 De2, take Gu1, reserve P7\n", hand="De2 Gu2", treasures=""
    )
    assert codes(rep) == [], messages(rep)


def test_only_when_money_is_lacking() -> None:
    # "und ihm Geld einer beliebigen Währung fehlt": the cards paid reach the price already
    rep = at("1. Anna: buy Di A9 pay Di9 sz:1, reserve A9\n", hand="Di9 Gu2")
    assert codes(rep) == ["SCHATZ-NOT-SHORT"]
    assert "a treasure is given only when money is lacking" in messages(rep)[0]


def test_strict_reading_the_hand_could_pay_is_a_warning() -> None:
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:2, take Gu1, reserve A9\n", hand="Di4 Di3 Di5")
    assert codes(rep) == ["SCHATZ-COULD-PAY"]
    assert rep.valid  # a warning: groups reading "fehlt" as "the payment lacks" play on
    assert rep.violations[0].severity == "warning"


def test_one_treasure_per_purchase() -> None:
    # "darf er den Bauherrn bestechen und ihm einen seiner Schätze geben"
    rep = at("1. Anna: buy Di A9 pay Di4 sz:3 sz:2, reserve A9\n")
    assert "SCHATZ-ONE-PER-BUY" in codes(rep)


def test_a_treasure_already_given_cannot_bribe_again() -> None:
    # corruption: "Da er seinen 2er-Schatz schon vorher weggegeben hat"
    rep = at(
        "1. Anna: buy Di A9 pay Di4 Di3 sz:2, take Gu1, reserve A9\n"
        "* display Gu5, market Di:P5\n"
        "2. Ben: take Gu5\n* display Gu6\n3. Cem: take Gu6\n* display Gu7\n"
        "4. Anna: buy De P7 pay De5 sz:2, reserve P7\n",
        hand="Di4 Di3 De5",
    )
    assert codes(rep) == ["SCHATZ-SPENT"], messages(rep)
    spent = next(v for v in rep.violations if v.code == "SCHATZ-SPENT")
    assert "given to the master builder in line 16" in spent.message()
    assert "in Zeile 16 dem Bauherrn gegeben" in spent.message("de")


def test_a_treasure_not_among_those_stated_in_the_position() -> None:
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:2, reserve A9\n", treasures="treasures 1 3")
    assert codes(rep) == ["SCHATZ-SPENT"]


def test_no_such_treasure() -> None:
    # "je Satz Schätze in den Werten 1-5"
    rep = at("1. Anna: buy Di A9 pay Di4 Di3 sz:6, reserve A9\n")
    assert "SCHATZ-TOKEN" in codes(rep) and "BUY-UNDERPAID" in codes(rep)


def test_treasures_are_stated_and_checked() -> None:
    rep = run(
        "* treasures Anna 1 2 3 4 5\n1. Ben: take Gu1 Di4\n* display De5 Du5\n"
        "* treasures Ben 1 2\n",
        X,
    )
    assert codes(rep) == ["SCHATZ-STATED"]
    assert (
        "Ben's treasures are stated as sz:1 sz:2, but Ben has sz:1 sz:2 sz:3 sz:4 sz:5"
        in (messages(rep)[0])
    )


def test_every_player_starts_with_the_five_treasures() -> None:
    # "Jeder Spieler erhält die 5 Schätze in seiner Spielerfarbe, die er vor sich ablegt."
    rep = run("1. Ben: take Gu1 Di4\n", X)
    assert {n: treasures(rep, n) for n in ("Anna", "Ben", "Cem")} == {
        n: [1, 2, 3, 4, 5] for n in ("Anna", "Ben", "Cem")
    }


def test_the_vizier_may_bribe_and_the_purchase_counts_as_exact() -> None:
    # the vizier needs an exact purchase ("passend"); a bribed purchase "gilt immer als passend"
    rep = at(
        "1. Anna: take Gu1\n* display Gu5\nBen: vizier, buy Du T12 pay Du9 sz:3, reserve T12\n",
        modules="schaetze, wesir",
    )
    assert codes(rep) == [], messages(rep)


def test_kept_treasures_score_their_value_at_the_end() -> None:
    # "Schätze, die ein Spieler zu Spielende noch besitzt, zählen ihrem Wert entsprechend
    # Punkte."
    text = POSITION.format(modules=X, hand="Di4", treasures="treasures 2 5") + "scoring 3\n"
    rep = check_game(parse_text(text, "t.alh")[0])
    rows = {r.name: r for r in rep.scorings[-1].rows}
    assert rows["Anna"].categories["treasures"].points == 7
    assert rows["Ben"].categories["treasures"].points == 15  # all five kept
    # nothing built: the treasures are the whole scoring
    assert (rows["Anna"].points, rows["Ben"].points) == (7, 15)


def test_the_treasures_line_is_claimed_and_checked() -> None:
    text = POSITION.format(modules=X, hand="Di4", treasures="treasures 2 5")
    good = check_game(parse_text(text + "scoring 3: Anna +7 (treasures=7)\n", "t.alh")[0])
    assert "SCORE-CLAIM" not in codes(good)
    bad = check_game(parse_text(text + "scoring 3: Anna +8 (treasures=8)\n", "t.alh")[0])
    assert "SCORE-CLAIM" in codes(bad)


def test_treasures_are_no_money_in_the_distribution() -> None:
    # treasures are given to the master builder, never money: the leftover tiles go by cards
    rep = at("distribute Di:A9 Anna, Gu:G11 Ben, De:P7 Cem, Du:T12 Ben\n", hand="Di4")
    assert "END-DISTRIBUTE" not in codes(rep, ignore=("END-EARLY",)), messages(rep)


def test_show_and_json_carry_the_treasures() -> None:
    text = POSITION.format(modules=X, hand="Di4 Di3", treasures="treasures 1 3 4 5")
    text += "1. Anna: buy Di A9 pay Di4 Di3 sz:3, reserve A9\n"
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Die Schätze" in out.output
    assert "Anna: Schätze sz:1 sz:4 sz:5, Wert 10, abgegeben sz:3" in out.output
    data = json.loads(runner.invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    anna = data["modules"][X]["players"]["Anna"]
    assert anna == {"treasures": "sz:1 sz:4 sz:5", "worth": 10, "given": "sz:3"}


def test_messages_in_german() -> None:
    rep = at("1. Anna: buy Di A9 pay Di9 sz:1, reserve A9\n", hand="Di9 Gu2")
    text = rep.violations[0].message("de")
    assert "ein Schatz wird nur gegeben, wenn Geld fehlt" in text
    assert "Frank Sander: Die Schätze" in rep.violations[0].rule.section


def test_legal_moves_bribe_only_when_the_hand_lacks_the_money() -> None:
    from referee import format_action, legal_actions, state_at
    from referee.engine.walk import At

    text = POSITION.format(modules=X, hand="Di4 Di3 Gu2", treasures="treasures 1 3")
    game = parse_text(text, "t.alh")[0]
    state, _ = state_at(game, At("end"))
    moves = [format_action(a) for a in legal_actions(state)]
    bribes = [m for m in moves if "sz:" in m]
    assert bribes, moves
    assert not [m for m in bribes if "sz:2" in m or "sz:5" in m]  # not kept


def test_the_treasures_line_in_json_and_german() -> None:
    text = POSITION.format(modules=X, hand="Di4", treasures="treasures 2 5") + "scoring 3\n"
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["check", "-", "--format", "json"], input=text).output)
    game = data["games"][0] if "games" in data else data
    found = json.dumps(game, ensure_ascii=False)
    assert (
        '"treasures": {"label": "treasures", "label_de": "Schätze", "points": 7, '
        '"detail": "2+5", "detail_de": "2+5"}' in found
    )
    out = runner.invoke(cli, ["check", "-", "--lang", "de"], input=text).output
    assert "Schätze" in out and "2+5" in out


def test_the_profile_decides_whether_the_hand_must_lack_the_money() -> None:
    # treasure_hand_short: "ihm Geld ... fehlt" read for the payment (allowed), for the hand
    # (illegal), or pointed out (warn, the default)
    from dataclasses import replace

    from referee.profiles import DEFAULT_PROFILE

    text = POSITION.format(modules=X, hand="Di4 Di3 Di5", treasures="")
    text += "1. Anna: buy Di A9 pay Di4 Di3 sz:2, take Gu1, reserve A9\n"
    game = parse_text(text, "t.alh")[0]
    for value, found, valid in (
        ("allowed", [], True),
        ("warn", ["SCHATZ-COULD-PAY"], True),
        ("illegal", ["SCHATZ-COULD-PAY"], False),
    ):
        rep = check_game(game, replace(DEFAULT_PROFILE, treasure_hand_short=value))
        assert codes(rep) == found and rep.valid is valid, value
