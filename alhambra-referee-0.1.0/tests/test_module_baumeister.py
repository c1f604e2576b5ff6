"""Die Baumeister (rulebook-bigbox-de-2019.txt § DIE BAUMEISTER).

Setup tests play the setup lines; the others start from a position (hands with master-builder
cards ``mb:Gu``, a display, an Alhambra). Each test quotes the sentence it tests.
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

X = "baumeister"

SETUP = """[Players "{players}"]
[Modules "baumeister"]

{builders}* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
start Ben
"""
BUILDERS = "* builders Anna mb:Gu mb:Gu\n* builders Ben ? ?\n* builders Cem mb:De mb:Du\n"

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "baumeister"]

position
  next Anna
  market Gu:T12 Di:A9 De:G10- Du:T13
  display {display}
  player Anna
    hand {anna}
    alhambra P8@1,0
  player Ben
    hand {ben}
  player Cem
    hand Du9
end
"""


def parse(text: str) -> GameReport:
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def setup(builders: str = BUILDERS, body: str = "", players: str = "Anna, Ben, Cem") -> GameReport:
    return parse(SETUP.format(players=players, builders=builders) + body)


def game(body: str, anna: str, ben: str = "Di9", display: str = "Gu1 Di4 De6 Du2") -> str:
    return POSITION.format(anna=anna, ben=ben, display=display) + body


def run(body: str, anna: str, ben: str = "Di9", display: str = "Gu1 Di4 De6 Du2") -> GameReport:
    return parse(game(body, anna, ben, display))


def cards(rep: GameReport) -> HiddenSupply:
    assert rep.state is not None
    supply: HiddenSupply = module(rep, X).supply(rep.state)
    return supply


# ------------------------------------------------------------------------- setup


def test_two_cards_each_face_down_before_the_start_money() -> None:
    # "Jeder Spieler erhält davon 2 Karten verdeckt auf die Hand. Danach bekommt jeder Spieler
    # sein Startgeld."
    rep = setup(body="1. Ben: take Gu1\n")
    assert codes(rep) == [], messages(rep)
    supply = cards(rep)
    assert supply.held("Anna") == {"Gu": 2}
    assert supply.unseen["Ben"] == 2
    assert "UNVERIFIED-HIDDEN-DRAW" in [u.key for u in rep.unverifiable]


def test_leftover_cards_leave_the_game_with_fewer_than_five_players() -> None:
    # "Bei weniger als 5 Spielern bleiben Baumeisterkarten übrig. Sie werden aus dem Spiel
    # genommen." 3 players: 6 dealt, 3 + 3 in piles 3 and 5, 4 out of the game.
    supply = cards(setup(body="1. Ben: take Gu1\n"))
    assert supply.gone_unseen == 4 and supply.in_pool() == 6


def test_six_players_put_one_card_into_pile_five() -> None:
    # "Bei 6 Spielern kommt in den 5. Stapel nur 1 Baumeisterkarte." 12 + 3 + 1 = 16.
    from referee.modules.baumeister import piles_for

    assert piles_for(6) == {3: 3, 5: 1} and piles_for(4) == {3: 3, 5: 3}
    builders = "".join(f"* builders {n} ? ?\n" for n in ("Anna", "Ben", "Cem", "Dana", "Emil"))
    rep = parse(
        SETUP.format(players="Anna, Ben, Cem, Dana, Emil, Fritz", builders=builders)
        + "* builders Fritz ? ?\n"
    )
    supply = cards(rep)
    assert supply.gone_unseen == 0 and supply.in_pool() == 4


def test_wrong_number_of_cards_dealt() -> None:
    rep = setup(BUILDERS.replace("mb:De mb:Du", "mb:De"))
    assert codes(rep) == ["BAUMEISTER-DEAL"]
    assert "gets 1 master-builder cards, not 2" in messages(rep)[0]


def test_dealt_twice_and_missing() -> None:
    rep = setup(BUILDERS.replace("* builders Cem", "* builders Ben"))
    assert sorted(codes(rep)) == ["BAUMEISTER-DEAL", "BAUMEISTER-DEAL"]
    assert any("twice" in m for m in messages(rep)) and any("no master" in m for m in messages(rep))


def test_dealt_after_the_start_money() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", builders="")
    text = text.replace("start Ben\n", BUILDERS + "start Ben\n")
    rep = parse(text)
    assert codes(rep) == ["BAUMEISTER-DEAL"] * 3
    assert "after the start money" in messages(rep)[0]


def test_no_card_in_the_opening_display() -> None:
    # "Wenn die Geldkarten des Basisspiels in die fünf Stapel aufgeteilt werden, werden je 3
    # Baumeisterkarten in den 3. Stapel und 5. Stapel eingemischt."
    rep = setup(body="1. Ben: take Gu1\n* display mb:Di\n")
    assert "BAUMEISTER-PILE" in codes(rep)  # turns up after 1 money card: pile 1


# ------------------------------------------------------------------- money function


def test_rulebook_example_two_gulden_builders_and_nine_gulden_buy_the_tower() -> None:
    # "Ein Spieler hat zwei Baumeister-Karten (in Gulden) und eine weitere Karte (9 Gulden) auf
    # der Hand. Er kann nun den Turm kaufen oder er hebt seine Baumeister-Karten für eine
    # spätere Verwendung auf." 9 + 3 = 12 pays the tower T12 exactly (another action follows).
    rep = run(
        "1. Anna: buy Gu T12 pay Gu9 mb:Gu, take Gu1, place T12@0,1\n", anna="Gu9 mb:Gu mb:Gu"
    )
    assert codes(rep) == [], messages(rep)
    supply = cards(rep)
    assert supply.held("Anna") == {"Gu": 1}
    assert supply.gone["Gu"] == 1  # "kommen ... nach dem Ausspielen ... aus dem Spiel"


def test_rulebook_example_he_may_keep_them() -> None:
    rep = run("1. Anna: take Gu1\n* display Gu3\n", anna="Gu9 mb:Gu mb:Gu")
    assert codes(rep) == []
    assert cards(rep).held("Anna") == {"Gu": 2}


def test_a_builder_card_of_another_currency_does_not_pay() -> None:
    rep = run("1. Anna: buy Gu T12 pay Gu9 mb:Di, reserve T12\n", anna="Gu9 mb:Di")
    # one mistake, one finding (issue 31): the shortfall the card causes is not reported again
    assert codes(rep) == ["BUY-CURRENCY"]


def test_a_builder_card_already_played_is_caught() -> None:
    # played as money in turn 1, paid again in turn 4
    rep = run(
        "1. Anna: buy Gu T12 pay Gu9 mb:Gu, reserve T12\n* market Gu:C11\n"
        "2. Ben: take Di4\n* display Di2\n3. Cem: take Du2\n* display Du3\n"
        "4. Anna: buy Gu C11 pay Gu8 mb:Gu, reserve C11\n",
        anna="Gu9 Gu8 mb:Gu",
    )
    assert codes(rep) == ["BAUMEISTER-NOT-HELD"]
    assert "played so far: mb:Gu" in messages(rep)[0]


def test_taken_like_money_within_the_sum_of_five() -> None:
    # "Auch für diese Karten gelten alle Regeln, die das Geld betreffen (z.B. Karten im
    # Gesamtwert von „5” nehmen)."
    display = "Gu1 Di2 De6 mb:Du"
    rep = run("1. Anna: take mb:Du Di2\n* display Gu3 Du4\n", anna="Gu9", display=display)
    assert codes(rep) == [], messages(rep)
    assert cards(rep).held("Anna") == {"Du": 1}
    rep = run("1. Anna: take mb:Du Di2 Gu1\n", anna="Gu9", display=display)
    assert codes(rep) == ["TAKE-SUM"]
    assert "6" in messages(rep)[0]


def test_a_builder_card_takes_a_place_of_the_display() -> None:
    rep = run("1. Anna: take Gu1\n* display Gu3 Du4\n", anna="Gu9", display="Gu1 Di2 De6 mb:Du")
    assert "REFILL-DISPLAY" in codes(rep)  # 3 money cards + the builder card: one refill only


def test_builder_cards_count_in_the_leftover_distribution() -> None:
    # "Zunächst ist jede Baumeisterkarte eine normale Geldkarte mit dem Wert „3”"
    rep = run("", anna="Gu4 mb:Gu", ben="Gu6")
    assert rep.state is not None
    winner, known, shown = core.most_money(rep.state, Currency.GULDEN)
    assert known and winner is not None and winner.name == "Anna" and "Anna 7" in shown


# ------------------------------------------------------------------- build function


def test_extra_redesign_at_the_end_of_the_turn() -> None:
    # "Alternativ zu ihrer Geldfunktion ermöglicht die Baumeisterkarte dem Spieler am Ende
    # seines Zuges (nach dem eventuellen Einsetzen gerade gekaufter Gebäude) eine zusätzliche
    # Umbauaktion."
    rep = run(
        "1. Anna: buy De G10- pay De9 De2, place G10-@0,1, master mb:Du, remove P8@1,0\n",
        anna="De9 De2 mb:Du",
    )
    assert codes(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and [t.code for t in anna.reserve if t] == ["P8"]
    assert cards(rep).gone["Du"] == 1  # out of the game


def test_only_one_builder_card_per_turn_for_redesigning() -> None:
    # "Man darf pro Zug nur 1 Baumeisterkarte zum Umbauen einsetzen."
    rep = run(
        "1. Anna: take Gu1, master mb:Du, remove P8@1,0, master mb:Gu, build P8@1,0\n",
        anna="De9 mb:Du mb:Gu",
    )
    assert "BAUMEISTER-ONE-PER-TURN" in codes(rep)
    assert "TURN-OVER" in codes(rep)  # no second extra redesign was granted


def test_a_second_redesign_after_one_card_is_caught() -> None:
    rep = run("1. Anna: take Gu1, master mb:Du, remove P8@1,0, build P8@1,0\n", anna="De9 mb:Du")
    assert codes(rep) == ["TURN-OVER"]


def test_not_before_the_turns_action() -> None:
    rep = run("1. Anna: master mb:Du, remove P8@1,0, take Gu1\n", anna="De9 mb:Du")
    assert "BAUMEISTER-TIMING" in codes(rep)
    assert "before the turn's action" in messages(rep)[0]


def test_not_before_the_bought_buildings_are_placed() -> None:
    rep = run(
        "1. Anna: buy De G10- pay De9 De2, master mb:Du, remove P8@1,0, place G10-@0,1\n",
        anna="De9 De2 mb:Du",
    )
    assert "BAUMEISTER-TIMING" in codes(rep)
    assert "not placed yet" in messages(rep)[0]


def test_a_card_played_for_a_redesign_that_never_comes() -> None:
    rep = run("1. Anna: take Gu1, master mb:Du\n", anna="De9 mb:Du")
    assert codes(rep) == ["BAUMEISTER-REDESIGN"]


def test_a_card_played_for_building_leaves_the_game_and_cannot_pay_later() -> None:
    # "Anders als normale Geldkarten kommen Baumeisterkarten nach dem Ausspielen (egal in
    # welcher Funktion) aus dem Spiel."
    rep = run(
        "1. Anna: take Gu1, master mb:Gu, remove P8@1,0\n* display Gu3\n"
        "2. Ben: take Di4\n* display Di2\n3. Cem: take Du2\n* display Du3\n"
        "4. Anna: buy Gu T12 pay Gu9 mb:Gu, reserve T12\n",
        anna="Gu9 mb:Gu",
    )
    assert codes(rep) == ["BAUMEISTER-NOT-HELD"]


def test_a_card_not_held_cannot_be_played_for_building() -> None:
    rep = run("1. Anna: take Gu1, master mb:De, remove P8@1,0\n", anna="Gu9 mb:Gu")
    assert codes(rep) == ["BAUMEISTER-NOT-HELD"]


def test_face_down_cards_are_revealed_when_played() -> None:
    rep = setup(body="1. Ben: take Gu1, master mb:Di, build ?@1,0\n")
    assert "BAUMEISTER-NOT-HELD" not in codes(rep)
    assert cards(rep).unseen["Ben"] == 1


def test_a_fifth_card_of_a_currency_is_caught() -> None:
    # "16 Baumeisterkarten, je 4 Geldkarten in den verschiedenen Währungen"
    rep = setup(
        "* builders Anna mb:Gu mb:Gu\n* builders Ben mb:Gu mb:Gu\n* builders Cem mb:Gu mb:Du\n"
    )
    assert codes(rep) == ["BAUMEISTER-SUPPLY"]


def test_not_a_builder_card() -> None:
    rep = run("1. Anna: take Gu1, master mb:Xy\n", anna="Gu9 mb:Gu")
    assert codes(rep) == ["BAUMEISTER-TOKEN"]


# --------------------------------------------------------------------- state shown


def test_show_json_and_german_show_the_cards() -> None:
    text = game(
        "1. Anna: take Gu1, master mb:Gu, remove P8@1,0\n* display Gu3\n", anna="Gu9 mb:Gu mb:De"
    )
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-", "--format", "json"], input=text)
    assert out.exit_code == 0, out.output
    blob = json.dumps(json.loads(out.output))
    assert "master builders" in blob and "mb:De" in blob and "mb:Gu" in blob
    de = runner.invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Die Baumeister" in de.output and "mb:De" in de.output


def test_german_message() -> None:
    rep = run("1. Anna: take Gu1, master mb:Du\n", anna="De9 mb:Du")
    assert "aber im Zug folgt kein Umbau" in rep.violations[0].message("de")


def test_not_in_an_out_of_turn_line() -> None:
    # "am Ende seines Zuges": a vizier line is no turn of one's own
    text = game(
        "1. Anna: take Gu1\n* display Gu3\nCem: vizier, buy Du T13 pay Du9 Du4, reserve T13, "
        "master mb:Du, remove P8@1,0\n",
        anna="De9",
    ).replace('[Modules "baumeister"]', '[Modules "baumeister, wesir"]')
    text = text.replace("    hand Du9\n", "    hand Du9 Du4 mb:Du\n")
    rep = parse(text)
    assert "BAUMEISTER-TIMING" in codes(rep), messages(rep)
    assert any("outside his own turn" in m for m in messages(rep))


# ------------------------------------------------------------------- legal moves


def test_generated_moves_with_the_module_are_accepted() -> None:
    """The legal-move generator lists the module's moves (a card taken, a card paid, ``master``
    and the granted redesign after it), and the checker accepts each."""
    import random

    from test_legal_generator import _assert_generated_moves_are_legal, _errors, positions

    from referee.engine import check_action
    from referee.engine.legal import legal_actions
    from referee.simulate.simulator import simulate_text

    rng = random.Random(3)
    kinds: set[str] = set()
    for seed in (1, 2):
        text = simulate_text(4, seed, None, None, (X,))
        for state in positions(text, 1, rng):
            t = state.turn
            granted = t is not None and t.extra_redesigns > 0
            for a in legal_actions(state):
                paid = getattr(a, "paid", ()) + getattr(a, "cards", ())
                name = getattr(a, "verb", None) or (
                    f"{type(a).__name__}:mb"
                    if any(getattr(c, "kind", None) == KIND for c in paid)
                    else ("granted" if granted else None)
                )
                if name is not None and name not in kinds:
                    assert _errors(check_action(state, a)) == [], a
                    kinds.add(name)
            if len(kinds) >= 4:
                break
    assert {"master", "granted", "TakeMoney:mb", "Buy:mb"} <= kinds, kinds
    # and a sample of every move at some positions, as the generator's property test does
    text = simulate_text(3, 9, None, None, (X, "wechselgeld"))
    assert sum(_assert_generated_moves_are_legal(s, rng) for s in positions(text, 15, rng)) > 0


KIND = "mb"


def test_a_missing_deal_is_reported_at_the_start_line() -> None:
    rep = setup(BUILDERS.replace("* builders Cem mb:De mb:Du\n", ""))
    assert codes(rep) == ["BAUMEISTER-DEAL"]
    v = rep.violations[0]
    text = SETUP.format(players="Anna, Ben, Cem", builders=BUILDERS)
    start_line = text.splitlines().index("start Ben")  # one builders line fewer: 1-based
    assert v.player == "Cem" and v.line == start_line


def test_a_builder_card_in_the_opening_display() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", builders=BUILDERS)
    rep = parse(text.replace("* display Gu1 Di4 De6 Du2", "* display Gu1 Di4 De6 mb:Du"))
    assert "BAUMEISTER-PILE" in codes(rep)  # (and the base SETUP-DISPLAY: 3 money cards)
    assert any("opening display" in m for m in messages(rep))


def test_two_builder_cards_are_more_than_five() -> None:
    # 3 + 3 = 6: several cards only "im Gesamtwert von „5”"
    rep = run("1. Anna: take mb:Du mb:Gu\n", anna="Gu9", display="Gu1 Di2 mb:Gu mb:Du")
    assert codes(rep) == ["TAKE-SUM"]
    rep = run("1. Anna: take mb:Du\n* display Gu3\n", anna="Gu9", display="Gu1 Di2 mb:Gu mb:Du")
    assert codes(rep) == []  # one card of any value
