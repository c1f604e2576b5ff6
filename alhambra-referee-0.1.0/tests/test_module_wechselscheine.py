"""Die Wechselscheine (rulebook-bigbox-de-2019.txt § DIE WECHSELSCHEINE).

The tests start from a position (three players: two stones of each currency in the middle)
with the arcades 4 on the Gulden field and the tower 12 on the Denar field, the buildings of
the rulebook's two examples.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import codes, messages, view

from referee.catalogue import Currency
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.modules.wechselscheine import parse_credit, stones_per_currency
from referee.notation import parse_text

X = "wechselscheine"
DE, GU, DU = Currency.DENAR, Currency.GULDEN, Currency.DUKATEN

POSITION = """[Players "{players}"]
[Modules "{modules}"]

position
  market Gu:A4 Di:A9 De:T12 Du:P7
  display Gu1 Di4 De6 Du2
  next Anna
  player Anna
    hand {hand}
    {anna}
  player Ben
    hand Du9 Gu3
    {ben}
{more}end
"""
CEM = "  player Cem\n    hand De5 Gu2\n"
# turns 2 and 3 of Ben and Cem between two turns of Anna
BETWEEN = "* display Gu5\n2. Ben: take Gu5\n* display Gu6\n3. Cem: take Gu6\n* display Gu7\n"


def at(
    body: str,
    hand: str = "Gu9 De8",
    anna: str = "",
    ben: str = "",
    modules: str = X,
    players: str = "Anna, Ben, Cem",
) -> GameReport:
    more = CEM if "Cem" in players else ""
    text = POSITION.format(
        players=players, modules=modules, hand=hand, anna=anna, ben=ben, more=more
    )
    games = parse_text(text + body, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def shown(rep: GameReport) -> tuple[dict[str, str], str]:
    """Each player's certificate and the stones in the middle, as the view shows them."""
    v = view(rep, X)
    return {n: row["certificate"] for n, row in v["players"].items()}, v["table"][
        "stones in the middle"
    ]


NOISE = ("EXCHANGE-PILE", "REFILL-DISPLAY")


def test_rulebook_example_arcades_4_paid_with_9_gulden_stores_5_denar() -> None:
    # "Der Spieler bezahlt Arkaden-4 mit 9 Gulden (gelb), überzahlt also 5 Gulden. Er wählt
    # einen blauen Währungsstein und markiert damit auf seinem Währungsschein, sodass er nun
    # 5 Dinar (blau) besitzt."
    rep = at("1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, reserve A4\n")
    assert codes(rep) == [], messages(rep)
    held, stones = shown(rep)
    assert held["Anna"] == "ws:De5" and held["Ben"] == "-"
    assert stones == "Gu 2, Di 2, De 1, Du 2"


def test_rulebook_example_the_credit_overpays_the_tower_and_is_stored_again() -> None:
    # "würde der Spieler gerne einen 12er-Turm kaufen, hat aber nur einen blauen 8er-Schein auf
    # der Hand. Er kann jetzt das Guthaben zum Kauf nutzen, aber damit ist der Turm
    # überbezahlt." -- "Der Spieler darf den überbezahlten Denar auch direkt wieder auf seinem
    # Wechselschein speichern."
    rep = at(
        "1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, reserve A4\n"
        + BETWEEN
        + "4. Anna: buy De T12 pay De8 ws:De5, certificate ws:De1, reserve T12\n"
    )
    assert codes(rep, NOISE) == [], messages(rep)
    held, stones = shown(rep)  # ws:De5 paid (the price 12 is covered only with it) ...
    assert held["Anna"] == "ws:De1"  # ... and the overpaid 1 stored again
    assert "De 1," in stones  # the stone went back and was taken again


def test_the_credit_pays_like_a_money_card_of_its_value() -> None:
    # "Dabei muss man den vollen Betrag des Guthabens nutzen, genauso wie bei einer Geldkarte
    # gleicher Höhe": 8 + 4 = 12 is exact, so another action follows
    rep = at(
        "1. Anna: buy De T12 pay De8 ws:De4, take Gu1, reserve T12\n", anna="certificate ws:De4"
    )
    assert codes(rep) == [], messages(rep)
    rep = at("1. Anna: buy De T12 pay De8 ws:De3, reserve T12\n", anna="certificate ws:De3")
    assert codes(rep) == ["BUY-UNDERPAID"]


def test_at_most_6_can_be_stored() -> None:
    # "Das gespeicherte Geld kann den Betrag 6 nicht überschreiten. Wer also 7 oder mehr
    # überzahlt, kann dieses Geld nicht speichern, da die Überzahlung komplett angezeigt werden
    # muss."  Corruption: a certificate over 6.
    rep = at("1. Anna: buy Du P7 pay Du9 Du5, certificate ws:Du7, reserve P7\n", hand="Du9 Du5")
    assert codes(rep) == ["CERTIFICATE-OVER-6"]
    rep = at("1. Anna: buy Du P7 pay Du9 Du5, certificate ws:Du6, reserve P7\n", hand="Du9 Du5")
    assert codes(rep) == ["CERTIFICATE-OVER-6"]  # 7 overpaid: not even 6 of it
    assert "7 were overpaid" in messages(rep)[0]


def test_the_whole_overpayment_is_marked() -> None:
    # "indem er den überzahlten Betrag markiert"
    rep = at("1. Anna: buy Gu A4 pay Gu9, certificate ws:De4, reserve A4\n")
    assert codes(rep) == ["CERTIFICATE-AMOUNT"]
    assert "overpaid 5" in messages(rep)[0]


def test_only_an_overpayment_is_stored() -> None:
    # "Kauft ein Spieler ein Gebäude und überzahlt dabei"
    rep = at("1. Anna: buy De T12 pay De8 De4, certificate ws:De1, reserve T12\n", hand="De8 De4")
    assert codes(rep) == ["CERTIFICATE-NO-OVERPAY"]
    assert "was exact" in messages(rep)[0]
    rep = at("1. Anna: take Gu1, certificate ws:De1\n")
    assert codes(rep) == ["CERTIFICATE-NO-OVERPAY"]
    assert "no purchase of theirs in this line" in messages(rep)[0]


def test_one_stone_per_certificate() -> None:
    # "Auf einem Wechselschein kann nur ein Währungsstein platziert werden."
    rep = at(
        "1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, reserve A4\n", anna="certificate ws:Gu2"
    )
    assert codes(rep) == ["CERTIFICATE-OCCUPIED"]


def test_a_stone_must_lie_in_the_middle() -> None:
    # two players: one stone of each colour; Ben's certificate holds the Denar stone
    rep = at(
        "1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, give A4 Dirk\n",
        ben="certificate ws:De3",
        players="Anna, Ben",
    )
    assert "CERTIFICATE-NO-STONE" in codes(rep, ("POSITION-INVALID",)), messages(rep)
    rep = at(
        "1. Anna: buy Gu A4 pay Gu9, certificate ws:Gu5, give A4 Dirk\n",
        ben="certificate ws:De3",
        players="Anna, Ben",
    )
    assert "CERTIFICATE-NO-STONE" not in codes(rep)


@pytest.mark.parametrize("players,stones", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_stones_in_the_middle_by_player_count(players: int, stones: int) -> None:
    # "2 Spieler 1 Währungsstein jeder Farbe / 3 Spieler 2 / 4 Spieler 2 / 5 Spieler 3 /
    # 6 Spieler 3"
    assert stones_per_currency(players) == stones


def test_a_credit_not_stored_cannot_pay() -> None:
    rep = at("1. Anna: buy De T12 pay De8 ws:De4, reserve T12\n")
    assert codes(rep) == ["CERTIFICATE-NOT-HELD"]
    rep = at("1. Anna: buy De T12 pay De8 ws:De4, reserve T12\n", anna="certificate ws:De5")
    assert codes(rep) == ["CERTIFICATE-NOT-HELD"]


def test_a_credit_pays_only_in_its_currency() -> None:
    # corruption: a stored value paid in the wrong currency
    rep = at("1. Anna: buy Gu A4 pay ws:De5, reserve A4\n", anna="certificate ws:De5")
    assert codes(rep) == ["CERTIFICATE-CURRENCY", "BUY-UNDERPAID"]
    assert "pays like a money card of its currency" in messages(rep)[0]


def test_with_an_exchange_card_the_credit_of_the_other_currency_pays() -> None:
    # the stored amount pays "genauso wie bei einer Geldkarte": the exchange card lets Gulden
    # and Denar pay for the tower on the Denar field
    rep = at(
        "1. Anna: buy De T12 pay De8 ws:Gu4 ex:GuDe, take Gu1, reserve T12\n",
        hand="De8 ex:GuDe",
        anna="certificate ws:Gu4",
        modules="wechselscheine, wechselstuben",
    )
    assert codes(rep) == [], messages(rep)


def test_a_bribed_purchase_is_exact_so_nothing_is_stored() -> None:
    # Schätze: "der Kauf gilt immer als passend" -- nothing overpaid
    rep = at(
        "1. Anna: buy De T12 pay De8 sz:5, certificate ws:De1, reserve T12\n",
        modules="wechselscheine, schaetze",
    )
    assert codes(rep) == ["CERTIFICATE-NO-OVERPAY"]


def test_no_such_credit() -> None:
    rep = at("1. Anna: buy Gu A4 pay Gu9, certificate ws:Xx5, reserve A4\n")
    assert codes(rep) == ["CERTIFICATE-TOKEN"]
    assert parse_credit("De5") == (DE, 5) and parse_credit("De0") is None


def test_the_stored_credit_is_no_money_in_the_distribution() -> None:
    # reading: the leftover tiles go to "das meiste Geld ... auf der Hand"; a certificate is
    # not in the hand. Ben holds Du9 and ws:Du6: he shows 9 Dukaten (decision
    # distribution.money, which the end-of-game distribution asks).
    from referee.engine.context import Context
    from referee.engine.ruleset import Decision

    rep = at("", ben="certificate ws:Du6")
    assert rep.state is not None
    ben = rep.state.players[1]
    assert shown(rep)[0]["Ben"] == "ws:Du6"
    ctx = Context(rep.state)
    assert ctx.decide(Decision.DISTRIBUTION_MONEY, player=ben, currency=DU) == 9


def test_the_overpayment_is_one_figure_for_every_reaction() -> None:
    # the engine's one definition of an overpayment (Wechselgeld gives change from the same
    # figure: "zusätzlich wird der überzahlte Betrag auf dem Wechselschein markiert")
    from referee.engine.actions.purchase import overpaid, plan_purchase
    from referee.engine.context import Context
    from referee.record.model import Buy, CardRef, TileRef

    rep = at("")
    state = rep.state
    assert state is not None
    anna = state.players[0]
    a4 = next(t for t in state.market if getattr(t, "price", None) == 4)
    gu9 = next(c for c in anna.hand if c.value == 9)
    buy = Buy(GU, TileRef(a4.type, 4, a4.walls, (a4,)), (CardRef(gu9),))  # type: ignore[union-attr]
    assert overpaid(Context(state), plan_purchase(state, anna, buy)) == 5


def test_show_and_json_carry_the_certificates() -> None:
    text = POSITION.format(
        players="Anna, Ben, Cem", modules=X, hand="Gu9", anna="", ben="", more=CEM
    )
    text += "1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, reserve A4\n"
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text).output
    assert "Die Wechselscheine" in out and "Anna: Wechselschein ws:De5" in out
    assert "Steine in der Mitte: Gu 2, Di 2, De 1, Du 2" in out
    data = json.loads(runner.invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    assert data["modules"][X]["players"]["Anna"] == {"certificate": "ws:De5"}


def test_messages_in_german() -> None:
    rep = at("1. Anna: buy Du P7 pay Du9 Du5, certificate ws:Du7, reserve P7\n", hand="Du9 Du5")
    text = rep.violations[0].message("de")
    assert (
        "überzahlt wurden aber 7" in text and "DIE WECHSELSCHEINE" in rep.violations[0].rule.section
    )


def test_legal_moves_store_with_each_stone_and_pay_with_the_credit() -> None:
    from referee import format_action, legal_actions, state_at
    from referee.engine.walk import At

    text = POSITION.format(
        players="Anna, Ben, Cem", modules=X, hand="Gu9 De8", anna="", ben="", more=CEM
    )
    from referee import parse_action
    from referee.engine import apply_action
    from referee.engine.core import begin_trial_turn

    state, _ = state_at(parse_text(text, "t.alh")[0], At("end"))
    begin_trial_turn(state, 0)
    apply_action(state, parse_action("buy Gu A4 pay Gu9").actions[0])
    moves = [format_action(a) for a in legal_actions(state)]
    assert {m for m in moves if m.startswith("certificate")} == {
        "certificate ws:Gu5",
        "certificate ws:Di5",
        "certificate ws:De5",
        "certificate ws:Du5",
    }
    game = parse_text(
        text.replace("\n  player Ben", "\n    certificate ws:De5\n  player Ben"), "t"
    )[0]
    state, _ = state_at(game, At("end"))
    moves = [format_action(a) for a in legal_actions(state)]
    assert "buy De T12 pay De8 ws:De5" in moves


def test_a_position_states_certificates() -> None:
    rep = at("", anna="certificate none", ben="certificate ws:Du6")
    assert codes(rep) == [], messages(rep)
    held, stones = shown(rep)
    assert held == {"Anna": "-", "Ben": "ws:Du6", "Cem": "-"}
    assert stones.endswith("Du 1")
    rep = at("", ben="certificate ws:Du7")  # "kann den Betrag 6 nicht überschreiten"
    assert codes(rep) == ["CERTIFICATE-TOKEN"]
