"""Das Wechselgeld (rulebook-bigbox-de-2019.txt § DAS WECHSELGELD).

Each test starts from a position (hands, coins, market known) and quotes the sentence it tests.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import codes, messages, module

from referee.catalogue import Currency
from referee.cli import cli
from referee.engine import GameReport, check_game, core
from referee.engine.hidden import HiddenSupply
from referee.notation import parse_text

X = "wechselgeld"

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market Gu:P8 Di:A9 De:G10- Du:T12
  display Gu1 Di4 De6 Du2
  player Anna
    hand {anna}
  player Ben
    hand {ben}
  player Cem
    hand {cem}
end
"""


def game(
    body: str,
    anna: str = "De9 De8 Gu4",
    ben: str = "Di9 Gu3",
    modules: str = X,
    cem: str = "Du9",
) -> str:
    return POSITION.format(modules=modules, anna=anna, ben=ben, cem=cem) + body


def run(
    body: str,
    anna: str = "De9 De8 Gu4",
    ben: str = "Di9 Gu3",
    modules: str = X,
    cem: str = "Du9",
) -> GameReport:
    games = parse_text(game(body, anna, ben, modules, cem), "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def coins(rep: GameReport) -> HiddenSupply:
    assert rep.state is not None
    supply: HiddenSupply = module(rep, X).supply(rep.state)
    return supply


BUY_17 = "1. Anna: buy De G10- pay De9 De8, place G10-@1,0\n"


# --------------------------------------------------------------- rulebook example


def test_rulebook_example_garden_10_paid_with_17_draws_3_coins() -> None:
    # "Ein Spieler bezahlt für den Garten 17 Denar, obwohl er nur 10 kostet. Er hat also 7
    # Denar überzahlt. Dafür darf er 3 Münzen aus dem Beutel ziehen."
    rep = run(BUY_17 + "* market De:C10, change Anna co:Gu co:De co:Du\n")
    assert codes(rep) == [], messages(rep)
    supply = coins(rep)
    assert supply.held("Anna") == {"Gu": 1, "De": 1, "Du": 1}
    assert supply.in_pool() == 21


def test_a_fourth_coin_for_7_overpaid_is_too_many() -> None:
    # "Für je zwei überzahlte Geldeinheiten darf der Spieler eine Münze aus dem Beutel ziehen."
    rep = run(BUY_17 + "* market De:C10, change Anna co:Gu co:De co:Du co:Di\n")
    assert codes(rep) == ["WECHSELGELD-COUNT"]
    assert "at most 3" in messages(rep)[0]


def test_one_unit_overpaid_gives_no_coin() -> None:
    # 10 paid with 11: "je zwei überzahlte Geldeinheiten" -> none for one unit
    rep = run(
        "1. Anna: buy De G10- pay De9 De2, place G10-@1,0\n* market De:C10, change Anna co:Gu\n",
        anna="De9 De2",
    )
    assert codes(rep) == ["WECHSELGELD-CLAIM"]


def test_change_without_any_purchase_is_reported() -> None:
    # "Überzahlt ein Spieler beim Gebäudekauf, hat er nun Anspruch auf Wechselgeld."
    rep = run("1. Anna: take Gu1\n* display Gu3, change Anna co:Gu\n")
    assert codes(rep) == ["WECHSELGELD-CLAIM"]
    assert "no purchase" in messages(rep)[0]


def test_only_the_payer_draws() -> None:
    rep = run(BUY_17 + "* market De:C10, change Ben co:Gu co:De co:Du\n")
    assert "WECHSELGELD-CLAIM" in codes(rep)


def test_change_not_drawn_lapses_with_a_warning() -> None:
    # "darf ... ziehen": a claim; not drawing it is reported as a warning, never an error
    rep = run(BUY_17 + "* market De:C10\n2. Ben: take Gu1\n* display Gu3\n")
    assert [v.code for v in rep.violations] == ["WECHSELGELD-FORFEIT"]
    assert rep.violations[0].severity == "warning"
    assert coins(rep).held("Anna").total() == 0


def test_fewer_coins_than_due_is_a_warning() -> None:
    rep = run(BUY_17 + "* market De:C10, change Anna co:Gu\n")
    assert [(v.code, v.severity) for v in rep.violations] == [("WECHSELGELD-FORFEIT", "warning")]


def test_deliberate_overpaying_is_allowed() -> None:
    # "Es ist erlaubt, bewusst hoch zu überzahlen, um mehr Münzen zu erhalten."
    rep = run(
        "1. Anna: buy Gu P8 pay Gu9 Gu4, place P8@1,0\n* market Gu:C11, change Anna co:Gu co:Di\n",
        anna="Gu9 Gu4",
    )
    assert codes(rep) == [], messages(rep)


# ------------------------------------------------------------------------- the bag


def test_a_coin_from_an_empty_bag_is_reported() -> None:
    # "Es kann vorkommen, das der Stoffbeutel ... leer ist. In diesem Fall gibt es kein
    # Wechselgeld zurück." Ben holds 23 coins: one left in the bag, but 3 are drawn.
    many = " ".join(["co:Gu"] * 6 + ["co:Di"] * 6 + ["co:Du"] * 6 + ["co:De"] * 5)
    rep = run(
        BUY_17 + "* market De:C10, change Anna co:De co:Gu co:Di\n",
        ben=f"Di9 {many}",
    )
    found = codes(rep)
    assert "WECHSELGELD-BAG-EMPTY" in found
    assert "WECHSELGELD-COUNT" not in found  # 3 are due for 7 overpaid: the bag is the limit


def test_with_one_coin_left_one_is_drawn() -> None:
    many = " ".join(["co:Gu"] * 6 + ["co:Di"] * 6 + ["co:Du"] * 6 + ["co:De"] * 5)
    rep = run(BUY_17 + "* market De:C10, change Anna co:De\n", ben=f"Di9 {many}")
    assert codes(rep) == [], messages(rep)
    assert coins(rep).in_pool() == 0


def test_paid_coins_go_back_into_the_bag() -> None:
    # "Wird mit Münzen bezahlt, kommen diese zurück in den Beutel."
    rep = run("1. Anna: buy Gu P8 pay Gu4 Gu3 co:Gu, place P8@1,0\n", anna="Gu4 Gu3 co:Gu De2")
    assert codes(rep) == [], messages(rep)
    assert coins(rep).in_pool() == 24
    assert coins(rep).held("Anna").total() == 0


def test_more_coins_of_a_currency_than_exist() -> None:
    # 24 coins "in den 4 Währungen": six each (component data, unverified)
    rep = run(
        BUY_17 + "* market De:C10, change Anna co:Gu co:De co:Du\n", ben="Di9 " + "co:Gu " * 6
    )
    assert codes(rep) == ["WECHSELGELD-SUPPLY"]


# --------------------------------------------------------------- coins as money


def test_a_coin_pays_like_a_card_of_its_currency_and_makes_a_payment_exact() -> None:
    # "Sie haben den Wert 1 und werden wie eine Geldkarte in der entsprechenden Währung
    # eingesetzt." 4 + 1 = 5 exactly: another action follows.
    rep = run(
        "1. Anna: buy Gu P8 pay Gu4 Gu3 co:Gu, take Gu1, place P8@1,0\n"
        "* display Gu3, market Gu:C11\n",
        anna="Gu4 Gu3 co:Gu De2",
    )
    assert codes(rep) == [], messages(rep)


def test_a_coin_of_another_currency_does_not_pay() -> None:
    rep = run("1. Anna: buy Gu P8 pay Gu4 Gu3 co:De, place P8@1,0\n", anna="Gu4 Gu3 co:De")
    # one mistake, one finding (issue 31): the shortfall the coin causes is not reported again
    assert codes(rep) == ["BUY-CURRENCY"]


def test_a_coin_not_held_is_reported() -> None:
    rep = run("1. Anna: buy Gu P8 pay Gu4 Gu3 co:Gu, place P8@1,0\n", anna="Gu4 Gu3")
    assert codes(rep) == ["WECHSELGELD-NOT-HELD"]


def test_a_coin_is_no_display_card() -> None:
    rep = run("1. Anna: take Gu1\n* display co:Gu\n")
    assert "WECHSELGELD-TOKEN" in codes(rep)


def test_not_a_coin_token() -> None:
    rep = run(BUY_17 + "* market De:C10, change Anna co:Xy co:Gu co:De\n")
    assert codes(rep) == ["WECHSELGELD-TOKEN"]


# ------------------------------------------------------------- hidden draws (E12)


def test_an_unseen_coin_is_unverifiable_and_revealed_when_paid() -> None:
    rep = run(
        BUY_17 + "* market De:C10, change Anna ? ? co:Du\n"
        "2. Ben: take Gu1\n* display Gu2\n3. Cem: take Gu2\n* display Gu5\n"
        "4. Anna: buy Gu P8 pay Gu4 Gu1 co:Gu co:Gu co:Gu, place P8@0,1\n",
        anna="De9 De8 Gu4 Gu1",
    )
    assert codes(rep) == ["WECHSELGELD-NOT-HELD"]  # two unseen coins: a third Gulden coin is not
    keys = [u.key for u in rep.unverifiable]
    assert "UNVERIFIED-HIDDEN-DRAW" in keys
    draw = next(u for u in rep.unverifiable if u.key == "UNVERIFIED-HIDDEN-DRAW")
    assert "Anna gets 2 × co:? unseen" in draw.message()
    assert "Anna erhält 2 × co:? ungesehen" in draw.message("de")


def test_an_unseen_coin_revealed_beyond_the_supply() -> None:
    rep = run(
        BUY_17 + "* market De:C10, change Anna ? co:De co:De\n"
        "2. Ben: take Gu1\n* display Gu2\n3. Cem: take Gu2\n* display Gu5\n"
        "4. Anna: buy Gu P8 pay Gu4 Gu3 co:Gu, place P8@0,1\n",
        anna="De9 De8 Gu4 Gu3",
        ben="Di9 co:Gu co:Gu co:Gu co:Gu co:Gu co:Gu",
    )
    assert "WECHSELGELD-SUPPLY" in codes(rep)


# ---------------------------------------------------------- the leftover distribution


def test_coins_count_in_the_leftover_distribution() -> None:
    # "Wenn bei Spielende die restlichen Gebäudeplättchen des Bauhofes an die Spieler verteilt
    # werden, die jeweils das meiste Geld der entsprechenden Währung vorweisen können, zählen
    # die Münzen mit."
    rep = run("", anna="Gu4 co:Gu", ben="Gu5")
    assert rep.state is not None
    winner, known, shown = core.most_money(rep.state, Currency.GULDEN)
    assert known and winner is None and "Anna 5" in shown and "Ben 5" in shown  # a tie
    rep = run("", anna="Gu4 co:Gu co:Gu", ben="Gu5")
    assert rep.state is not None
    winner, known, _ = core.most_money(rep.state, Currency.GULDEN)
    assert winner is not None and winner.name == "Anna"


def test_unseen_coins_leave_the_majority_unknown() -> None:
    rep = run(BUY_17 + "* market De:C10, change Anna ? ? ?\n")
    assert rep.state is not None
    _, known, _ = core.most_money(rep.state, Currency.DENAR)
    assert not known


def test_without_the_module_coins_do_not_count() -> None:
    rep = run("", anna="Gu4", ben="Gu3", modules="")
    assert rep.state is not None
    winner, _, _ = core.most_money(rep.state, Currency.GULDEN)
    assert winner is not None and winner.name == "Anna"


# --------------------------------------------------------------- state shown


def test_show_json_and_german_show_the_coins() -> None:
    text = game(BUY_17 + "* market De:C10, change Anna co:Gu co:De ?\n")
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-", "--format", "json"], input=text)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    blob = json.dumps(data)
    assert "co:De co:Gu ?" in blob and "coins in the bag" in blob
    de = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Das Wechselgeld" in de.output and "co:De co:Gu ?" in de.output


def test_german_message() -> None:
    rep = run(BUY_17 + "* market De:C10, change Anna co:Gu co:De co:Du co:Di\n")
    v = rep.violations[0]
    assert "höchstens 3" in v.message("de")


# ------------------------------------------------------------- with other modules


def test_coins_pay_with_an_exchange_card_in_its_second_currency() -> None:
    # Wechselstuben: "in jeder beliebigen Kombination der beiden abgebildeten Währungen"; a
    # coin is money of its currency, so Denar coins pay with the yellow-blue card.
    rep = run(
        "1. Anna: buy Gu P8 pay Gu4 Gu2 co:De co:De ex:GuDe, take Gu1, place P8@1,0\n"
        "* display Gu3, market Gu:C11\n",
        anna="Gu4 Gu2 co:De co:De ex:GuDe",
        modules="wechselgeld, wechselstuben",
    )
    assert codes(rep) == [], messages(rep)
    assert coins(rep).in_pool() == 24


def test_a_vizier_purchase_is_exact_and_brings_no_change() -> None:
    # Wesir: "passend bezahlt"; a coin may make it exact, and no change follows
    text = (
        "1. Anna: take Gu1\n* display Gu3\n"
        "Cem: vizier, buy Du T12 pay Du9 Du2 co:Du, place T12@1,0\n* market Du:C11\n"
    )
    cem = "Du9 Du2 co:Du"
    rep = run(text, modules="wechselgeld, wesir", cem=cem)
    assert codes(rep) == [], messages(rep)
    rep = run(text + "* change Cem co:Gu\n", modules="wechselgeld, wesir", cem=cem)
    assert codes(rep) == ["WECHSELGELD-CLAIM"]


def test_overpaying_with_master_builder_cards_brings_change() -> None:
    # Baumeister cards are "eine normale Geldkarte": 4 + 3 + 3 = 10 for 8, 2 overpaid: 1 coin
    body = "1. Anna: buy Gu P8 pay Gu4 mb:Gu mb:Gu, place P8@1,0\n* market Gu:C11, "
    rep = run(
        body + "change Anna co:Di\n", anna="Gu4 mb:Gu mb:Gu", modules="wechselgeld, baumeister"
    )
    assert codes(rep) == [], messages(rep)
    rep = run(
        body + "change Anna co:Di co:Gu\n",
        anna="Gu4 mb:Gu mb:Gu",
        modules="wechselgeld, baumeister",
    )
    assert codes(rep) == ["WECHSELGELD-COUNT"]


def test_simulated_games_with_both_modules_and_the_first_expansion_check_clean() -> None:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    mods = ("wesir", "wechselstuben", "bonuskarten", "plaetze", "wechselgeld", "baumeister")
    for k, profile in enumerate(("queen-2003", "bga")):
        text = simulate_text(3 + k, 77 + k, load_profile(profile), "both", mods)
        g = parse_text(text, "sim.alh")[0]
        rep = check_game(g)
        assert rep.valid and rep.complete, [v.message() for v in rep.violations][:3]
        assert rep.unverifiable == []
        assert " co:" in text and " mb:" in text


def test_generated_coin_payments_are_accepted() -> None:
    """The legal-move generator lists purchases paid with coins; the checker accepts each."""
    import random

    from test_legal_generator import _assert_generated_moves_are_legal, _errors, positions

    from referee.engine import check_action
    from referee.engine.legal import legal_actions
    from referee.simulate.simulator import simulate_text

    rng = random.Random(5)
    found = 0
    text = simulate_text(3, 5, None, None, (X,))
    for state in positions(text, 1, rng):
        for a in legal_actions(state):
            if any(getattr(c, "kind", None) == "co" for c in getattr(a, "paid", ())):
                assert _errors(check_action(state, a)) == [], a
                found += 1
        if found > 20:
            break
    assert found > 0
    assert sum(_assert_generated_moves_are_legal(s, rng) for s in positions(text, 10, rng)) > 0
