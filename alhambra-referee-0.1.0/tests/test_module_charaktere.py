"""Die Charaktere (``referee/modules/charaktere.py``): rulebook-bigbox-de-2019.txt § DIE
CHARAKTERE (L1014-1124, heading L1117).

The setup and auction sentences (piles 2-4, the auction at once on the engine's auction service,
one currency, no bid -> out of the game), each ability with its window and limit, the usage
symbols (picture-only: unverified data a record may state), the corruptions a record can
contain, and the rulebook's notes on other modules with both modules enabled. Each test quotes
the sentence it tests.
"""

from __future__ import annotations

from fractions import Fraction

from conftest import SETUP, view

from referee.engine import GameReport, check_game
from referee.engine.legal import legal_actions, legal_interrupts
from referee.engine.state import GameState
from referee.notation import parse_text
from referee.notation.formatter import action as written
from referee.scoring.state import score_state

CH = "charaktere"
IGNORE = ("CHARAKTERE-PILE", "EXCHANGE-PILE")  # unit tests reveal cards early on purpose


def run(body: str, modules: str = CH) -> GameReport:
    games = parse_text(SETUP.format(players="Anna, Ben, Cem", modules=modules) + body, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def _replayed(body: str, **kw: str) -> GameState:
    """The state where ``body`` stops (not finished: a due scoring stays due)."""
    from referee.engine import replay

    (game,) = parse_text(_text(body, **kw), "t.alh")
    state, _ = replay(game)
    return state


def position(
    body: str,
    modules: str = CH,
    anna: str = "",
    hand: str = "Gu4 De8 De4 De2 Du5 Du3 Di2",
    alhambra: str = "P8-@-1,0 S9-@0,1",
    ben: str = "",
    market: str = "Gu:G11- Di:T11n De:P7e Du:C7ne",
    display: str = "Gu4 Di3 De6 Du2",
    table: str = "",
) -> GameReport:
    text = _text(body, modules, anna, hand, alhambra, ben, market, display, table)
    games = parse_text(text, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def _text(
    body: str,
    modules: str = CH,
    anna: str = "",
    hand: str = "Gu4 De8 De4 De2 Du5 Du3 Di2",
    alhambra: str = "P8-@-1,0 S9-@0,1",
    ben: str = "",
    market: str = "Gu:G11- Di:T11n De:P7e Du:C7ne",
    display: str = "Gu4 Di3 De6 Du2",
    table: str = "",
) -> str:
    return f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market {market}
  display {display}
{table}  player Anna
    hand {hand}
    alhambra {alhambra}
    {anna}
  player Ben
    hand Du8 Di5 Gu1
    {ben}
  player Cem
    hand Gu2 Di9
end
{body}"""


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations if v.code not in IGNORE]


def reasons(rep: GameReport) -> list[tuple[str, object]]:
    return [(v.code, v.reason) for v in rep.violations if v.code not in IGNORE]


def owned(rep: GameReport, name: str) -> str:
    return str(view(rep, CH)["players"].get(name, {}).get("characters", ""))


T1 = "1. Ben: take Gu1 Di4\n"  # Cem moves next: the auctioneer
REST = "* display De4\n2. Cem: take De4\n"


def _state(rep: GameReport) -> GameState:
    assert rep.state is not None
    return rep.state


# ------------------------------------------------------------------ the auction


def test_a_revealed_card_is_auctioned_at_once_from_the_next_player() -> None:
    # "Wird eine Charakterkarte vom Stapel aufgedeckt, wird das Spiel sofort unterbrochen und
    # die Karte versteigert. Der Spieler, der als nächstes an der Reihe ist, übernimmt die Rolle
    # des Auktionators und macht das erste Gebot oder passt. Reihum muss nun jeder das Gebot
    # erhöhen oder passen." "Der Spieler mit dem höchsten Gebot legt die entsprechenden
    # Geldkarten ab, bekommt die Charakterkarte" (L1030-1043)
    body = (
        T1 + "* display Gu3 ch:Weise\n"
        "Cem: bid 6 pay Di8\nAnna: bid 7 pay De7\nBen: pass\nCem: pass\n" + REST
    )
    rep = run(body)
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Anna") == "ch:Weise"
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None and sum(anna.hand.values()) == 3  # De7 paid
    # the auctioneer is Cem: Anna first is out of order
    rep = run(T1 + "* display Gu3 ch:Weise\nAnna: bid 7 pay De7\n" + REST)
    assert "STAGE-ORDER" in codes(rep)


def test_a_card_nobody_bids_for_leaves_the_game() -> None:
    # "Eine Charakterkarte, für die niemand ein Gebot abgibt, kommt ganz aus dem Spiel."
    rep = run(T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: pass\nBen: pass\n" + REST)
    assert codes(rep) == []
    assert view(rep, CH)["table"]["out of the game"] == "ch:Weise"
    assert owned(rep, "Anna") == ""


def test_a_bid_is_payable_in_one_currency() -> None:
    # "Man darf nur Beträge bieten, die man in einer Währung bezahlen kann"
    rep = run(T1 + "* display Gu3 ch:Weise\nCem: bid 5 pay De3 Gu2\nAnna: pass\nBen: pass\n" + REST)
    assert codes(rep) == ["PAY-ONE-CURRENCY"]


def test_a_player_who_passed_bids_no_more() -> None:
    # "Wer passt, darf für diese Karte kein Gebot mehr abgeben."
    body = T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: bid 2 pay De2\nCem: bid 3 pay De3\n"
    assert "STAGE-PLAYER" in codes(run(body + "Ben: pass\n" + REST))


def test_any_number_of_cards_may_be_owned() -> None:
    # "Man darf beliebig viele Charakterkarten besitzen."
    body = (
        T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: bid 2 pay De2\nBen: pass\n"
        "* display ch:Bettler\nCem: pass\nAnna: bid 3 pay Du3\nBen: pass\n" + REST
    )
    rep = run(body)
    assert codes(rep) == []
    assert owned(rep, "Anna") == "ch:Weise ch:Bettler"


def test_cards_come_from_piles_2_to_4_each_once() -> None:
    # "kommen je 2 Charakterkarten verdeckt in den 2., 3. und 4. Stapel" (L1021-1024)
    rep = run(T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: pass\nBen: pass\n" + REST)
    assert [(v.code, v.reason) for v in rep.violations] == [("CHARAKTERE-PILE", "early")]
    text = SETUP.format(players="Anna, Ben, Cem", modules=CH).replace(
        "* display Gu1 Di4 De6 Du2", "* display Gu1 Di4 De6 Du2 ch:Weise"
    )
    (game,) = parse_text(text + T1 + "* display Gu3 De4\n")
    rep = check_game(game)
    assert ("CHARAKTERE-PILE", "opening") in [(v.code, v.reason) for v in rep.violations]
    twice = (
        T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: pass\nBen: pass\n"
        "* display ch:Weise\nCem: pass\nAnna: pass\nBen: pass\n" + REST
    )
    assert codes(run(twice)) == ["CHARAKTERE-SUPPLY"]
    assert codes(run(T1 + "* display Gu3 ch:Zauberer\n" + REST)) == ["CHARAKTERE-TOKEN"]


def test_the_module_switched_off_reports_its_lines() -> None:
    rep = run(T1 + "* display Gu3 ch:Weise\n" + REST, modules="")
    assert "MODULE-NOT-ENABLED" in [v.code for v in rep.violations]


# ------------------------------------------------------------------ the Gauklerin


GAUKLERIN = T1 + "* display Gu3 ch:Gauklerin\nCem: pass\nAnna: bid 2 pay De2\nBen: pass\n"


def test_the_gauklerin_is_kept_for_8_points_or_swapped_at_once() -> None:
    # "Der Spieler muss sich sofort entscheiden, ob er die Gauklerin behält (Wert: 8
    # Siegpunkte) oder austauscht. In dem Fall wird die Gauklerin gegen die oberste verdeckt
    # beiseite gelegte Charakterkarte ausgetauscht. Die neue Karte legt der Spieler offen aus
    # und kann sie ab sofort benutzen." (L1082-1088)
    rep = run(GAUKLERIN + "Anna: juggler keep\n" + REST)
    assert codes(rep) == []
    assert view(rep, CH)["players"]["Anna"]["kept, 8 points"] == "ch:Gauklerin"
    assert rep.state is not None
    final = score_state(rep.state.copy(), 3).to_dict()
    assert "juggler" in str(final) and "8" in str(final)
    rep = run(GAUKLERIN + "Anna: juggler ch:Stadtwache\n" + REST)
    assert codes(rep) == []
    assert owned(rep, "Anna") == "ch:Stadtwache"
    assert view(rep, CH)["table"]["set aside"] == "ch:Gauklerin"


def test_the_gauklerin_decision_is_due_at_once_and_only_then() -> None:
    rep = run(GAUKLERIN + REST)  # no decision written: STAGE-OPEN, she is kept
    assert codes(rep) == ["STAGE-OPEN"]
    rep = run(T1 + "Anna: juggler keep\n")
    assert reasons(rep) == [("CHARAKTERE-JUGGLER", "no-decision")]
    # the card taken must lie aside: the Weise was revealed and left the game
    body = (
        T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: pass\nBen: pass\n* display ch:Gauklerin\n"
        "Cem: pass\nAnna: bid 2 pay De2\nBen: pass\nAnna: juggler ch:Weise\n" + REST
    )
    assert reasons(run(body)) == [("CHARAKTERE-JUGGLER", "not-aside")]


# ------------------------------------------------------------------ the abilities


def test_goenner_pays_exactly_without_cards_once() -> None:
    # "Der reiche Gönner – Bei einem Gebäudekauf bezahlt er ohne Abgabe von Geldkarten genau
    # passend, der Spieler bekommt also das Gebäude kostenlos und einen Bonuszug." (L1065-1067)
    rep = position(
        "1. Anna: buy Gu G11- pay ch:Goenner, take Gu4, place G11-@1,0\n",
        anna="characters ch:Goenner",
    )
    assert codes(rep) == []
    assert owned(rep, "Anna") == ""  # the once symbol (unverified data): out of the game
    assert view(rep, CH)["table"]["out of the game"] == "ch:Goenner"
    rep = position(
        "1. Anna: buy Gu G11- pay Gu4 ch:Goenner, place G11-@1,0\n", anna="characters ch:Goenner"
    )
    assert reasons(rep) == [("CHARAKTERE-PATRON", "cards")]
    rep = position("1. Anna: buy Gu G11- pay ch:Goenner, place G11-@1,0\n")
    assert codes(rep) == ["CHARAKTERE-NOT-HELD"]


def test_geizhals_takes_an_open_card_after_a_purchase_of_10_or_more() -> None:
    # "Der Geizhals – Kauft der Spieler ein Gebäude zu einem Preis von 10 oder mehr, darf er
    # sich sofort eine offene Geldkarte auf die Hand nehmen." (L1069-1071)
    rep = position(
        "1. Anna: buy De P7e pay De8, place P7e@1,0, miser Gu4\n", anna="characters ch:Geizhals"
    )
    assert reasons(rep) == [("CHARAKTERE-MISER", "no-purchase")]
    rep = position(
        "1. Anna: buy Gu G11- pay Gu4 Gu2 Gu5, miser Di3, place G11-@1,0\n",
        anna="characters ch:Geizhals",
        hand="Gu4 Gu2 Gu5",
    )
    assert codes(rep) == []
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None and sorted(c.code for c in anna.hand.elements()) == ["Di3"]
    rep = position(
        "1. Anna: buy Gu G11- pay Gu4 Gu2 Gu5, miser Di9, place G11-@1,0\n",
        anna="characters ch:Geizhals",
        hand="Gu4 Gu2 Gu5",
    )
    assert reasons(rep) == [("CHARAKTERE-MISER", "not-shown")]


def test_baumeister_gives_a_redesign_at_the_end_of_the_turn() -> None:
    # "Der Baumeister – bietet dem Spieler am Ende des Zuges (nach dem eventuellen Platzieren
    # neuer Gebäude) einen zusätzlichen Umbauzug." (L1073-1075)
    rep = position(
        "1. Anna: take Gu4, architect, remove S9-@0,1\n", anna="characters ch:Baumeister"
    )
    assert codes(rep) == []
    rep = position("1. Anna: architect, take Gu4\n", anna="characters ch:Baumeister")
    assert "CHARAKTERE-TIMING" in codes(rep)
    rep = position(
        "1. Anna: buy De P7e pay De8, architect, place P7e@1,0\n", anna="characters ch:Baumeister"
    )
    assert ("CHARAKTERE-TIMING", "before-placing") in reasons(rep)


def test_haendler_takes_up_to_7() -> None:
    # "Der Händler – erlaubt, mehrere Geldkarten zu nehmen, wenn ihre Summe nicht größer als 7
    # ist (statt sonst 5)." (L1077-1080)
    assert codes(position("1. Anna: merchant, take Gu4 Di3\n", anna="characters ch:Haendler")) == []
    assert codes(position("1. Anna: take Gu4 Di3\n", anna="characters ch:Haendler")) != []
    rep = position("1. Anna: merchant, take Gu4 Di3\n")
    assert "ABILITY-NOT-HELD" in codes(rep)


def test_weise_adds_half_a_building_of_the_type_chosen_at_each_scoring() -> None:
    # "Der Weise – zählt bei jeder Wertung für eine Gebäudeart wie ein halbes Gebäude extra.
    # (Bei jeder Wertung sucht sich der Spieler eine Gebäudeart aus.)" (L1090-1092)
    due = "1. Anna: take Gu4\n* display W1 Gu5\n"  # scoring 1 is due
    rep = position(due + "Anna: sage S\nscoring 1\n", anna="characters ch:Weise")
    assert codes(rep) == [], rep.violations
    state = rep.state
    assert state is not None
    parts = state.ext.scoring_parts(state, 1)
    (adj,) = parts.for_participant("Anna")
    assert adj.amount == Fraction(1, 2) and adj.type.code == "S"
    rep = position(due + "Anna: sage X\nscoring 1\n", anna="characters ch:Weise")
    assert codes(rep) == ["CHARAKTERE-SAGE"]
    # once per scoring, and only before one
    rep = position(due + "Anna: sage S\nAnna: sage G\nscoring 1\n", anna="characters ch:Weise")
    assert codes(rep) == ["ABILITY-LIMIT"]
    rep = position("1. Anna: take Gu4\nAnna: sage S\n", anna="characters ch:Weise")
    assert codes(rep) == ["ABILITY-WINDOW"]


def test_stadtwache_scores_one_point_per_3_wall_segments() -> None:
    # "Die Stadtwache – Bei jeder Wertung der Mauer bekommt der Spieler für je 3
    # Mauersegmente 1 Punkt extra." (L1111-1114)
    walls = "T9nw@-1,1 G8ne@0,1"  # an outer wall of 4 segments: 1 point extra
    rep = position("1. Anna: take Gu4\n", anna="characters ch:Stadtwache", alhambra=walls)
    anna = score_state(_state(rep).copy(), 1).to_dict()["players"][0]
    assert anna["wall"]["length"] == 4
    assert anna["categories"]["guard"]["points"] == 1
    more = walls + " C8nw@-1,2 A6ne@0,2"
    rep = position("1. Anna: take Gu4\n", anna="characters ch:Stadtwache", alhambra=more)
    anna = score_state(_state(rep).copy(), 1).to_dict()["players"][0]
    assert anna["categories"]["guard"]["points"] == anna["wall"]["length"] // 3
    rep = position("1. Anna: take Gu4\n", alhambra=walls)  # without the card: nothing
    assert "categories" not in score_state(_state(rep).copy(), 1).to_dict()["players"][0]


def test_geldwechsler_changes_for_an_open_card_of_at_most_equal_value() -> None:
    # "Der Geldwechsler – darf vor seinem Zug eine Geldkarte von der Hand auf den Ablagestapel
    # legen und sich dafür eine höchstens gleich hohe offen ausliegende Karte beliebiger
    # Währung aus der Auslage nehmen." (L1099-1102)
    rep = position("1. Anna: changer De8 De6, take Gu4\n", anna="characters ch:Geldwechsler")
    assert codes(rep) == []
    rep = position("1. Anna: changer De2 De6, take Gu4\n", anna="characters ch:Geldwechsler")
    assert reasons(rep) == [("CHARAKTERE-CHANGER", "higher")]
    rep = position("1. Anna: take Gu4, changer De8 De6\n", anna="characters ch:Geldwechsler")
    assert "ABILITY-WINDOW" in codes(rep)


def test_bettler_draws_with_at_most_two_money_cards() -> None:
    # "Der Bettler – Man darf sich bei Zugbeginn die oberste Geldkarte vom Stapel nehmen, falls
    # man keine, nur 1 oder 2 Geldkarten auf der Hand hat." (L1104-1106)
    rep = position("1. Anna: beggar Gu5, take Gu4\n", anna="characters ch:Bettler", hand="Du3 Di2")
    assert codes(rep) == [], rep.violations
    rep = position("1. Anna: beggar Gu5, take Gu4\n", anna="characters ch:Bettler")
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "too-many")]
    # "Der Spieler darf eine weitere Karte ziehen": a second card (switch beggar=again), not a
    # third; with beggar=other only after a card that was no money card
    bettler = {"anna": "characters ch:Bettler", "hand": "Du3 Di2"}
    rep = position("1. Anna: beggar Gu5, beggar Di1, take Gu4\n", **bettler)
    assert codes(rep) == []
    rep = position("1. Anna: beggar Gu5, beggar Di1, beggar De2, take Gu4\n", **bettler)
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "again")]
    other = "charaktere beggar=other"
    rep = position("1. Anna: beggar Gu5, beggar Di1, take Gu4\n", other, **bettler)
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "again")]


def test_bettler_drawing_a_character_card_auctions_it() -> None:
    # "Ist dies keine Geld- oder Wechselstubenkarte, wird nach der entsprechenden Regel
    # verfahren. Der Spieler darf eine weitere Karte ziehen." (L1106-1109): a character card is
    # auctioned at once, from the player who moves next (Ben); then one more card
    body = "1. Anna: beggar ch:Weise, beggar Gu5, take Gu4\n"
    body += "Ben: pass\nCem: pass\nAnna: bid 3 pay Du3\n"
    rep = position(body, "charaktere beggar=other", anna="characters ch:Bettler", hand="Du3 Di2")
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Anna") == "ch:Bettler ch:Weise"
    rep = position("1. Anna: beggar ex:GuDe, take Gu4\n", anna="characters ch:Bettler", hand="Du3")
    assert reasons(rep) == [("CHARAKTERE-BEGGAR", "form")]  # no exchange cards without the module


def test_taenzerin_swaps_a_market_building_for_one_from_the_tower() -> None:
    # "Die Tänzerin – darf vor dem eigenen Zug ein Gebäude des Bauhofs gegen ein neues
    # Gebäude (verdeckt aus dem Turm gezogen) austauschen. Das alte Gebäude wird zurück in den
    # Turm geschoben." (L1094-1097)
    dancer = {"anna": "characters ch:Taenzerin"}
    rep = position("Anna: dancer Di T9ne\n1. Anna: take Gu4\n", **dancer)
    assert codes(rep) == [], rep.violations
    state = _state(rep)
    assert str(state.market[1]).startswith("T9")
    before = _state(position("1. Anna: take Gu4\n", **dancer))
    assert state.bag_count == before.bag_count  # one out of the tower, one back in
    assert state.bag[before.market[1]] == before.bag[before.market[1]] + 1  # T11n is back
    # before one's own turn only
    rep = position("Anna: dancer Di T9ne\n1. Anna: take Gu4\n", ben="characters ch:Taenzerin")
    assert "ABILITY-NOT-HELD" in codes(rep)
    body = "1. Anna: take Gu4\n* display Gu5\nAnna: dancer Di T9ne\n2. Ben: take Du2\n"
    assert ("CHARAKTERE-DANCER", "not-next") in reasons(position(body, **dancer))
    rep = position("1. Anna: take Gu4, dancer Di T9ne\n", **dancer)
    assert "ABILITY-WINDOW" in codes(rep)
    rep = position(
        "Anna: dancer Di T9ne\n1. Anna: take Gu4\n",
        anna="characters ch:Taenzerin",
        market="Gu:G11- Di:- De:P7e Du:C7ne",
    )
    assert ("CHARAKTERE-DANCER", "empty") in reasons(rep)


def test_only_one_round_card_per_round_and_symbols_may_be_stated() -> None:
    # "Ein Spieler darf in einer Runde nur 1 Karte mit [Symbol] nutzen." (L1052-1055); the
    # symbols are pictures: charaktere.yaml holds a guess, a record may state them
    both = "characters ch:Haendler ch:Geldwechsler"
    rep = position("1. Anna: merchant, changer De8 De6, take Gu4\n", anna=both)
    assert codes(rep) == ["CHARAKTERE-ROUND"]
    stated = "* symbol ch:Haendler none\n"
    rep = position(stated + "1. Anna: merchant, changer De8 De6, take Gu4\n", anna=both)
    assert codes(rep) == []
    rep = position(stated + "* symbol ch:Haendler round\n")
    assert reasons(rep) == [("CHARAKTERE-SYMBOL", "changed")]


# ------------------------------------------------------------------ explain / legal


def test_legal_answers_may_anna_use_the_geldwechsler_now() -> None:
    rep = position("", anna="characters ch:Geldwechsler")
    moves = list(map(written, legal_actions(_state(rep))))
    assert "changer De8 De6" in moves
    assert "changer De2 De6" not in moves  # higher than the card given
    rep = position("")
    assert not [m for m in map(written, legal_actions(_state(rep))) if m.startswith("changer")]


def test_legal_answers_what_may_ben_bid() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", modules=CH) + T1
    text += "* display Gu3 ch:Weise\nCem: bid 6 pay Di8\nAnna: pass\n"
    (game,) = parse_text(text, "t.alh")
    from referee.engine import replay

    state, _ = replay(game)
    lines = legal_interrupts(state)
    assert {line.player.name for line in lines if line.player} == {"Ben"}
    shown = sorted(" ".join(str(a.value) for a in line.actions[0].args) for line in lines)
    assert "" in shown  # pass
    assert any(s.startswith("7 pay") for s in shown), shown  # the lowest raise Ben can pay


def test_explain_answers_both_questions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # "may Anna use the Geldwechsler now?" and "what may Ben bid?" (issue 29)
    from click.testing import CliRunner

    from referee.cli import cli

    pos = tmp_path / "pos.alh"
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "{CH}"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu4 De8 De2
    alhambra P8-@-1,0 S9-@0,1
    characters ch:Geldwechsler
  player Ben
    hand Du8 Di5 Gu1
  player Cem
    hand Gu2 Di9
end
"""
    pos.write_text(text, "utf-8")
    got = CliRunner().invoke(cli, ["explain", str(pos), "Anna: changer De8 De6"])
    assert got.exit_code == 0 and "legal" in got.output
    got = CliRunner().invoke(cli, ["explain", str(pos), "Anna: changer De2 De6", "--lang", "de"])
    assert got.exit_code == 1 and "CHARAKTERE-CHANGER" in got.output
    rec = tmp_path / "auction.alh"
    body = T1 + "* display Gu3 ch:Weise\nCem: bid 6 pay Di8\nAnna: pass\n"
    rec.write_text(SETUP.format(players="Anna, Ben, Cem", modules=CH) + body, "utf-8")
    line = len((SETUP.format(players="Anna, Ben, Cem", modules=CH) + body).splitlines())
    got = CliRunner().invoke(cli, ["explain", str(rec), "--at", f"L{line}", "Ben: bid 6 pay Gu8"])
    assert got.exit_code == 1 and "AUCTION-RAISE" in got.output
    assert "bid 7 pay Gu8" in got.output  # the legal alternatives: what Ben may bid
    got = CliRunner().invoke(cli, ["explain", str(rec), "--at", f"L{line}", "Ben: bid 7 pay Gu8"])
    assert got.exit_code == 0, got.output


def test_every_generated_move_of_a_simulated_game_is_accepted() -> None:
    import random

    from test_legal_generator import _assert_generated_moves_are_legal, positions

    from referee.simulate import simulate_text

    rng = random.Random(3)
    seen = 0
    for players, seed in ((3, 6), (4, 2)):
        text = simulate_text(players, seed, None, None, (CH,))
        for state in positions(text, 6, rng):
            seen += _assert_generated_moves_are_legal(state, rng)
    assert seen > 0


def test_legal_lists_the_weise_choice_before_a_due_scoring() -> None:
    from referee.engine.core import apply_item

    due = "1. Anna: take Gu4\n* display W1 Gu5\n"
    state = _replayed(due, anna="characters ch:Weise")
    lines = [ln for ln in legal_interrupts(state) if written(ln.actions[0]).startswith("sage")]
    assert sorted(written(ln.actions[0]) for ln in lines) == [f"sage {t}" for t in sorted("PSACGT")]
    for line in lines:
        trial = state.copy()
        before = len(trial.found)
        apply_item(trial, line)
        assert [v.code for v in trial.found[before:] if v.severity == "error"] == []
    assert not legal_interrupts(_replayed(due))  # without the card: none


def test_play_goes_on_with_the_auctioneer() -> None:
    # "Nach der Versteigerung geht es mit dem Spieler weiter, der vorher Auktionator war."
    body = T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: bid 2 pay De2\nBen: pass\n"
    assert codes(run(body + REST)) == []  # Cem, the auctioneer, moves next
    assert "TURN-ORDER" in codes(run(body + "* display De4\n2. Anna: take De4\n"))


def test_the_swapped_in_card_is_usable_at_once() -> None:
    # "Die neue Karte legt der Spieler offen aus und kann sie ab sofort benutzen."
    body = GAUKLERIN + "Anna: juggler ch:Haendler\n* display De4\n2. Cem: take De4\n"
    body += "* display Gu4\n3. Anna: merchant, take Gu3 Gu4\n"
    rep = run(body)
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Anna") == "ch:Haendler"


def test_corrupt_positions_and_payments_are_caught() -> None:
    # each card exists once: a position giving the same card to two players
    rep = position("1. Anna: take Gu4\n", anna="characters ch:Weise", ben="characters ch:Weise")
    assert codes(rep) == ["CHARAKTERE-SUPPLY"]
    # only the Gönner pays for a building
    rep = position(
        "1. Anna: buy Gu G11- pay ch:Weise, place G11-@1,0\n", anna="characters ch:Weise"
    )
    assert "CHARAKTERE-TOKEN" in codes(rep)
    # a symbol statement names a symbol
    assert reasons(position("* symbol ch:Weise sometimes\n")) == [("CHARAKTERE-SYMBOL", "form")]
    # a character card in the display lies in no place of it: a fifth money card is too many
    rep = run(T1 + "* display Gu3 ch:Weise De4\nCem: pass\nAnna: pass\nBen: pass\n")
    assert "REFILL-DISPLAY" not in codes(rep)
