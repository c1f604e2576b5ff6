"""Die Diamanten (rulebook-bigbox-de-2019.txt § DIE DIAMANTEN).

Most tests start from a position (three players) with the market of the rulebook's example:
the seraglio 9, arcades and a pavilion cheaper than 9, and the tower 12.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import codes, messages, module, run, view

from referee.catalogue import Currency
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.notation import parse_text

X = "diamanten"

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  market Gu:S9 Di:A7 De:P6 Du:T12
  display {display}
  next Anna
  player Anna
    hand {hand}
  player Ben
    hand Du9 Gu3
  player Cem
    hand De5 Gu2
end
"""


def at(
    body: str,
    hand: str = "dm:5 dm:4 Gu3",
    display: str = "Gu1 Di4 De6 Du2",
    modules: str = X,
) -> GameReport:
    text = POSITION.format(modules=modules, hand=hand, display=display) + body
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def diamonds(rep: GameReport, name: str = "Anna") -> list[int]:
    assert rep.state is not None
    player = rep.state.player_named(name)
    assert player is not None
    return sorted(module(rep, X).hand(rep.state, player).elements())


# ------------------------------------------------------------------ the rulebook example


def test_rulebook_example_5_and_4_pay_the_seraglio_9_exactly() -> None:
    # "Ein Spieler hat zwei Diamanten-Karten mit den Werten 5 und 4 auf der Hand. Er hat nun
    # die Wahl: Entweder bezahlt er 9 Diamanten passend für das Serail" -- on the Gulden field
    rep = at("1. Anna: buy Gu S9 pay dm:5 dm:4, take Gu1, reserve S9\n")
    assert codes(rep) == [], messages(rep)  # exact: the take is a second action
    assert diamonds(rep) == []
    assert view(rep, X)["table"]["discard"] == "dm:4 dm:5"  # to the discard pile


def test_rulebook_example_or_overpay_the_arcades_or_the_pavilion() -> None:
    # "oder er überzahlt die Arkaden oder den Pavillon" (Dirham and Denar fields)
    rep = at("1. Anna: buy Di A7 pay dm:5 dm:4, reserve A7\n")
    assert codes(rep) == []
    rep = at("1. Anna: buy De P6 pay dm:5 dm:4, take Gu1, reserve P6\n")
    assert codes(rep) == ["TURN-OVER"]  # overpaid: no further action


def test_rulebook_example_not_the_tower_with_diamonds_and_gulden() -> None:
    # "Nicht erlaubt ist der Kauf des Turmes mit einer Kombination aus Diamanten und Gulden."
    # Corruption: diamonds mixed with Gulden.
    rep = at("1. Anna: buy Du T12 pay dm:5 dm:4 Gu3, reserve T12\n")
    assert "DIAMOND-MIX" in codes(rep)
    mix = next(v for v in rep.violations if v.code == "DIAMOND-MIX")
    assert "dm:5 dm:4 together with Gu3" in mix.message()
    assert "dürfen nicht mit anderen Währungen kombiniert werden" in mix.message("de")


def test_diamonds_mixed_with_the_field_currency_are_forbidden_too() -> None:
    # "Allerdings dürfen sie nicht mit anderen Währungen kombiniert werden": no currency at all
    rep = at("1. Anna: buy Gu S9 pay dm:5 Gu3 Gu1, reserve S9\n", hand="dm:5 Gu3 Gu1")
    # reported once, under Die Diamanten: Gu3 and Gu1 are the field's own currency, so the base
    # rule (BUY-CURRENCY) has nothing to say about them, and 5 + 3 + 1 pays the 9
    assert codes(rep) == ["DIAMOND-MIX"], messages(rep)
    # a card of another currency is wrong twice over: not the field's currency, and mixed
    rep = at("1. Anna: buy Gu S9 pay dm:5 Du3 Gu1, reserve S9\n", hand="dm:5 Du3 Gu1")
    assert {"BUY-CURRENCY", "DIAMOND-MIX"} <= set(codes(rep)), messages(rep)


def test_diamonds_pay_on_every_field() -> None:
    # "Mit ihnen kann man beliebige Plättchen vom Bauhof kaufen. Diamanten ersetzen dabei jede
    # andere Währung."
    for buy in ("Gu S9", "Di A7", "De P6"):
        rep = at(f"1. Anna: buy {buy} pay dm:5 dm:4, reserve {buy.split()[1]}\n")
        assert "BUY-CURRENCY" not in codes(rep) and "BUY-UNDERPAID" not in codes(rep)


def test_too_few_diamonds_underpay() -> None:
    rep = at("1. Anna: buy Du T12 pay dm:5 dm:4, reserve T12\n")
    assert codes(rep) == ["BUY-UNDERPAID"]


def test_only_diamonds_held_pay() -> None:
    rep = at("1. Anna: buy Gu S9 pay dm:9, reserve S9\n")
    assert codes(rep) == ["DIAMOND-NOT-HELD"]
    assert "diamonds held: dm:4 dm:5" in messages(rep)[0]


def test_no_such_diamond() -> None:
    # "mit den Werten 3 bis 9"
    rep = at("1. Anna: buy Gu S9 pay dm:5 dm:2, reserve S9\n", hand="dm:5 Gu3")
    assert "DIAMOND-CARD" in codes(rep)


def test_never_with_an_exchange_card() -> None:
    # Anmerkungen: "Diamanten dürfen nicht zusammen mit einer Wechselstubenkarte eingesetzt
    # werden." (the exchange card is recognised by what it does: it lets another currency pay)
    rep = at(
        "1. Anna: buy Gu S9 pay dm:5 dm:4 ex:GuDe, reserve S9\n",
        hand="dm:5 dm:4 ex:GuDe",
        modules="diamanten, wechselstuben",
    )
    assert codes(rep) == ["DIAMOND-EXCHANGE"], messages(rep)
    rep = at(
        "1. Anna: buy Gu S9 pay dm:5 dm:4 ex:GuDe, reserve S9\n",
        hand="dm:5 dm:4 ex:GuDe",
        modules="wechselstuben, diamanten",  # the order of the modules does not matter
    )
    assert codes(rep) == ["DIAMOND-EXCHANGE"], messages(rep)


def test_a_treasure_is_no_currency_and_may_go_with_diamonds() -> None:
    # Schätze: "ihm Geld einer beliebigen Währung fehlt": diamonds are short, a treasure bribes
    rep = at(
        "1. Anna: buy Du T12 pay dm:5 dm:4 sz:3, take Gu1, reserve T12\n",
        hand="dm:5 dm:4",
        modules="diamanten, schaetze",
    )
    assert codes(rep) == [], messages(rep)


def test_a_stored_credit_is_another_currency() -> None:
    # Wechselscheine: the credit pays "genauso wie bei einer Geldkarte", so not with diamonds
    text = POSITION.format(modules="diamanten, wechselscheine", hand="dm:5 dm:3", display="Gu1")
    text = text.replace("    hand dm:5 dm:3\n", "    hand dm:5 dm:3\n    certificate ws:Gu1\n")
    rep = check_game(parse_text(text + "1. Anna: buy Gu S9 pay dm:5 dm:3 ws:Gu1\n", "t")[0])
    # issue 31: reported as the diamonds' rule, naming the credit (a Gu credit on the Gu field
    # is no wrong currency, and it counts: 5 + 3 + 1 = 9, no "((none))" underpayment)
    (mix,) = [v for v in rep.violations if v.code == "DIAMOND-MIX"]
    assert "together with ws:Gu1" in mix.message()
    assert "zusammen mit ws:Gu1" in mix.message("de")
    assert "CERTIFICATE-CURRENCY" not in codes(rep)
    assert "BUY-UNDERPAID" not in codes(rep)
    assert all("(none)" not in v.message() for v in rep.violations)
    # a credit of another currency than the field's is still CERTIFICATE-CURRENCY
    other = text.replace("certificate ws:Gu1", "certificate ws:Di1")
    rep = check_game(parse_text(other + "1. Anna: buy Gu S9 pay dm:5 dm:3 ws:Di1\n", "t")[0])
    assert "CERTIFICATE-CURRENCY" in codes(rep)


# ------------------------------------------------------------------ getting diamonds


def test_diamonds_are_dealt_as_start_money_and_count_for_it() -> None:
    # "Die Diamanten-Karten werden zusammen mit den anderen Geldkarten gemischt. Dann erhalten
    # die Spieler ihr Startgeld" -- a diamond counts towards the 20 ("Gesamtwert 20 oder mehr
    # (unabhängig von den verschiedenen Währungen)") and as a card for the start player
    text = (
        '[Players "Anna, Ben"]\n[Modules "diamanten"]\n\n'
        "* deal Anna Gu9 dm:7 De5\n* deal Ben Di9 Gu8 De3\n"
        "* display Gu1 dm:4 De6 Du2\n* market Gu:G11 Di:A9 De:P7 Du:T12\n"
        "* dirk T13 G12 S9 A10 C11 P8\n"
        "start Ben\n1. Ben: take dm:4\n"
    )
    rep = check_game(parse_text(text, "t")[0])
    assert codes(rep) == [], messages(rep)
    assert diamonds(rep) == [7] and diamonds(rep, "Ben") == [4]
    # dealing goes on after 20 was reached: the diamond counted
    rep = check_game(parse_text(text.replace("Gu9 dm:7 De5", "Gu9 dm:7 De5 Du1"), "t")[0])
    assert "SETUP-DEAL" in codes(rep)
    # three cards each, the diamond one of Anna's; the lower total (Ben's 20) starts
    rep = check_game(parse_text(text.replace("start Ben\n1. Ben", "start Anna\n1. Anna"), "t")[0])
    assert "SETUP-START" in codes(rep)


def test_diamonds_are_taken_like_money_cards() -> None:
    # "Diamanten bekommt man wie andere Geldkarten auch": one card of any value, or several
    # with a sum of at most 5
    rep = at("1. Anna: take dm:3 Gu1\n", display="Gu1 dm:3 De6 Du2")
    assert codes(rep) == []
    rep = at("1. Anna: take dm:3 Gu1 Du2\n", display="Gu1 dm:3 De6 Du2")
    assert codes(rep) == ["TAKE-SUM"]
    assert "dm:3" in messages(rep)[0]
    rep = at("1. Anna: take dm:9\n", display="Gu1 dm:9 De6 Du2")
    assert codes(rep) == [] and diamonds(rep) == [4, 5, 9]
    rep = at("1. Anna: take dm:8\n", display="Gu1 dm:9 De6 Du2")
    assert codes(rep) == ["TAKE-NOT-IN-DISPLAY"]


def test_diamonds_take_places_in_the_display() -> None:
    rep = run("1. Ben: take Gu1 Di4\n* display dm:5 Du5 Gu3\n", X)
    assert "DIAMOND-DISPLAY" in codes(rep) or "REFILL-DISPLAY" in codes(rep)
    rep = run("1. Ben: take Gu1 Di4\n* display dm:5 Du5\n", X)
    assert codes(rep) == [], messages(rep)


def test_ten_diamonds_and_the_stated_values() -> None:
    # "10 Diamanten-Karten ... mit den Werten 3 bis 9"; which values repeat is stated
    rep = run("* diamonds 3 4 5 6 7 8 9\n", X)
    assert codes(rep) == ["DIAMOND-STATED"]
    body = "* diamonds 3 4 5 5 6 6 7 7 8 9\n1. Ben: take Gu1 Di4\n* display dm:3 dm:3\n"
    rep = run(body, X)
    assert codes(rep) == ["DIAMOND-SUPPLY"]
    assert "every dm:3 is out of the deck" in messages(rep)[0]


def test_an_eleventh_diamond_is_reported() -> None:
    cards = " ".join(f"dm:{v}" for v in (3, 4, 5, 5, 6, 6, 7, 7, 8, 9))
    rep = at("1. Anna: take Gu1\n* display dm:9\n", hand=cards)
    assert codes(rep) == ["DIAMOND-SUPPLY"]


def test_paid_diamonds_come_back_with_the_discard_pile() -> None:
    # paid diamonds lie on the discard pile like money and are shuffled into the new deck;
    # a reshuffle while diamonds are still in the deck is reported
    from referee.record.model import NOWHERE

    rep = at("1. Anna: buy Gu S9 pay dm:5 dm:4, take Gu1, reserve S9\n")
    assert rep.state is not None
    deck = view(rep, X)["table"]["in the deck"]
    module = rep.state.ext.kind_handler("dm")
    assert module is not None
    module.reshuffle(rep.state, NOWHERE)
    after = view(rep, X)["table"]
    assert after["in the deck"] == deck + 2 and after["discard"] == "-"
    assert "DIAMOND-RESHUFFLE" in [v.code for v in rep.state.found]


# ------------------------------------------------------------------ the end


def test_diamonds_do_not_count_in_the_leftover_distribution() -> None:
    # Anmerkungen: "Wenn bei Spielende die restlichen Gebäudeplättchen des Bauhofes an die
    # Spieler verteilt werden, die jeweils das meiste Geld der entsprechenden Währung
    # vorweisen können, gelten Diamanten nicht."
    from referee.engine.context import Context
    from referee.engine.ruleset import Decision

    rep = at("", hand="dm:9 dm:8 Gu3")
    assert rep.state is not None
    ctx = Context(rep.state)
    anna = rep.state.players[0]
    for cur in Currency:
        want = 3 if cur is Currency.GULDEN else 0
        assert ctx.decide(Decision.DISTRIBUTION_MONEY, player=anna, currency=cur) == want


def test_show_and_json_carry_the_diamonds() -> None:
    text = POSITION.format(modules=X, hand="dm:5 dm:4 Gu3", display="Gu1 dm:3 De6 Du2")
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text).output
    assert "Die Diamanten" in out and "Anna: Diamanten dm:4 dm:5" in out
    data = json.loads(runner.invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    assert data["modules"][X]["table"]["display"] == "dm:3"
    assert data["modules"][X]["players"]["Anna"] == {"diamonds": "dm:4 dm:5"}


def test_legal_moves_take_and_pay_with_diamonds_alone() -> None:
    from referee import format_action, legal_actions, state_at
    from referee.engine.walk import At

    text = POSITION.format(modules=X, hand="dm:5 dm:4 Gu3", display="Gu1 dm:3 De6 Du2")
    state, _ = state_at(parse_text(text, "t")[0], At("end"))
    moves = [format_action(a) for a in legal_actions(state)]
    assert "take dm:3" in moves and "take Gu1 dm:3" in moves
    assert "buy Gu S9 pay dm:4 dm:5" in moves or "buy Gu S9 pay dm:5 dm:4" in moves
    assert not [m for m in moves if "dm:" in m and "Gu3" in m and m.startswith("buy")]


def test_the_three_payment_modules_together() -> None:
    """examples/modules-payments.alh: diamonds, treasures and certificates in one game, checked
    clean and complete, a fmt fixed point, each module used."""
    from pathlib import Path

    from referee.notation import format_game

    path = Path(__file__).resolve().parents[1] / "examples" / "modules-payments.alh"
    text = path.read_text(encoding="utf-8")
    game = parse_text(text, str(path))[0]
    rep = check_game(game)
    assert rep.valid and rep.complete and not rep.violations, messages(rep)
    assert format_game(game) == text
    assert " dm:" in text and " sz:" in text and "certificate ws:" in text
    assert [m.strip() for m in (game.header("Modules") or "").split(",")] == [
        "diamanten",
        "schaetze",
        "wechselscheine",
    ]
