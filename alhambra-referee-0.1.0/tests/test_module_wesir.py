"""Die Gunst des Wesirs (rulebook-bigbox-de-2019.txt § DIE GUNST DES WESIRS).

The setup of ``test_module_common``: Ben moves first, then Cem, then Anna. Hands: Anna Gu9 De7
De2 Du3, Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3; market Gu:G11 Di:A9 De:P7 Du:T12.
"""

from __future__ import annotations

from pathlib import Path

from test_module_common import SETUP, codes, messages, run, view

from referee.engine import check_game, replay
from referee.notation import parse_text

W = "wesir"
T1 = "1. Ben: take Gu1 Di4\n* display De5 Du5\n"


def test_vizier_buys_out_of_turn_and_play_resumes_with_the_next_player() -> None:
    # "Jedesmal, wenn ein Spielzug eines beliebigen Spielers komplett beendet ist, darf ein
    # Spieler ... ein Gebäudeplättchen des Bauhofes kaufen und platzieren" (Anna, not next).
    rep = run(
        T1 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
        "2. Cem: take Du2\n* display Gu3\n3. Anna: take Gu3\n",
        W,
    )
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None and len(anna.alhambra) == 2
    awake = {name: row["vizier"] for name, row in view(rep, "wesir")["players"].items()}
    assert awake == {"Anna": "asleep", "Ben": "awake", "Cem": "awake"}


def test_the_vizier_tile_may_go_to_the_reserve() -> None:
    rep = run(T1 + "Anna: vizier, buy De P7 pay De7, reserve P7\n* market De:G10n\n", W)
    assert codes(rep) == []


def test_the_market_is_refilled_after_the_vizier() -> None:
    # "Der Bauhof wird dann wieder auf 4 Gebäude aufgefüllt."
    rep = run(T1 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n2. Cem: take Du2\n", W)
    assert "REFILL-MARKET" in codes(rep)


def test_a_sleeping_vizier_cannot_be_used() -> None:
    # "Sein Wesir muss wach sein"; after use "dieser schläft nun".
    rep = run(
        T1 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
        "2. Cem: take Du2\n* display Gu3\n"
        "Anna: vizier, buy Gu G11 pay Gu9 Gu2, place G11@-1,0\n* market Gu:T10w\n",
        W,
    )
    assert "WESIR-ASLEEP" in codes(rep)


def test_waking_the_vizier_is_an_action_and_makes_it_usable_again() -> None:
    body = (
        T1 + "Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
        "2. Cem: take Du2\n* display Gu3\n"
        "3. Anna: wake\n"
        "4. Ben: take Gu3\n* display Gu2\n"
        "Anna: vizier, buy Gu G11 pay Gu9 Gu2, place G11@-1,0\n* market Gu:T10w\n"
    )
    rep = run(body, W)
    assert "WESIR-ASLEEP" not in codes(rep), messages(rep)


def test_waking_uses_the_turn() -> None:
    body = T1 + "Anna: vizier, buy De P7 pay De7, reserve P7\n* market De:G10n\n"
    rep = run(body + "2. Cem: take Du2\n* display Gu3\n3. Anna: wake, take Gu3\n", W)
    assert "TURN-OVER" in codes(rep)


def test_waking_an_awake_vizier_is_reported() -> None:
    rep = run(T1 + "2. Cem: wake\n", W)
    assert codes(rep) == ["WESIR-AWAKE"]


def test_the_vizier_purchase_must_be_exact() -> None:
    # "Er muss das Gebäudeplättchen genau passend bezahlen (können)."
    rep = run(T1 + "Anna: vizier, buy De P7 pay De2, place P7@1,0\n* market De:G10n\n", W)
    assert "WESIR-EXACT" in codes(rep)
    assert "BUY-UNDERPAID" in codes(rep)


def test_no_bonus_action_after_the_vizier_purchase() -> None:
    # "Er hat keinen Bonuszug."
    rep = run(
        T1 + "Anna: vizier, buy De P7 pay De7, buy Gu G11 pay Gu9 De2, place P7@1,0, "
        "place G11@-1,0\n* market Gu:T10w De:G10n\n",
        W,
    )
    assert "WESIR-ACTION" in codes(rep)
    rep = run(T1 + "Anna: vizier, buy De P7 pay De7, take De5, reserve P7\n", W)
    assert "WESIR-ACTION" in codes(rep)


def test_the_vizier_must_buy_something() -> None:
    rep = run(T1 + "Anna: vizier\n", W)
    assert codes(rep) == ["WESIR-ACTION"]
    assert "uses the vizier without buying a tile" in messages(rep)[0]


def test_a_vizier_line_doing_something_else_is_one_finding() -> None:
    # "Er hat keinen Bonuszug": taking money instead of buying is one mistake, one finding
    # (it used to be reported twice: the other action and, again, no purchase). The message
    # names the action as the record wrote it, never an internal name.
    rep = run(T1 + "Anna: vizier, take De5\n", W)
    assert codes(rep) == ["WESIR-ACTION"]
    assert "Anna does 'take De5' with the vizier" in messages(rep)[0]
    assert "takemoney" not in messages(rep)[0].lower()


def test_a_vizier_line_before_the_refill_is_a_timing_fault_of_the_line() -> None:
    # "Jedesmal, wenn ein Spielzug eines beliebigen Spielers komplett beendet ist" -- a turn is
    # over with its refill ("Am Ende seines Zuges füllt der Spieler die Auslage wieder auf",
    # rulebook-base-de-2003.txt): a vizier line written before the turn's display refill is
    # the vizier line's fault (WESIR-TIMING), not a missing refill; the refill may follow it.
    body = (
        "1. Ben: take Gu1 Di4\nAnna: vizier, buy De P7 pay De7, place P7@1,0\n"
        "* display De5 Du5\n* market De:G10n\n2. Cem: take Du2\n"
    )
    rep = run(body, W)
    assert codes(rep) == ["WESIR-TIMING"], messages(rep)
    assert "before the refill after the move before it is written" in messages(rep)[0]
    assert "REFILL-DISPLAY" not in codes(rep)


def test_the_vizier_tile_must_be_placed_or_reserved() -> None:
    rep = run(T1 + "Anna: vizier, buy De P7 pay De7\n* market De:G10n\n", W)
    assert "PLACE-MISSING" in codes(rep)


def test_the_vizier_cannot_take_a_square() -> None:
    # Anmerkungen: "Der Einsatz des Wesirsteins erlaubt einem Spieler nicht, sich einen Platz
    # zu nehmen."
    rep = run(T1 + "Anna: vizier, square sq:Tne, reserve sq:Tne\n", "wesir, plaetze")
    assert "WESIR-NO-SQUARE" in codes(rep)


def test_not_before_the_first_turn_and_not_inside_a_turn() -> None:
    rep = run("Anna: vizier, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n", W)
    assert "WESIR-TIMING" in codes(rep)
    rep = run("1. Ben: vizier, buy Di A9 pay Di9, place A9@1,0\n", W)
    assert "WESIR-TIMING" in codes(rep)


def test_several_claimants_the_next_player_comes_first() -> None:
    # "hat derjenige den Vorrang, der in der Spielerreihenfolge am weitesten vorne ist. (Der
    # Spieler, der eigentlich am Zug wäre, ist der Erste – der Spieler, der gerade seinen Zug
    # beendet hat, ist der Letzte in dieser Reihenfolge.)" After Ben's turn: Cem, Anna, Ben.
    buy = "buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
    rep = run(T1 + "Anna: vizier Ben, " + buy, W)
    assert codes(rep) == []
    rep = run(T1 + "Ben: vizier Anna, buy Di A9 pay Di9, place A9@1,0\n* market Di:G10n\n", W)
    assert "WESIR-PRIORITY" in codes(rep)
    assert "Cem → Anna → Ben" in " ".join(messages(rep))


def test_a_contender_who_cannot_pay_a_tile_exactly_does_not_come_first() -> None:
    # "Allerdings muss er dazu folgende Bedingungen erfüllen: Sein Wesir muss wach sein. Er
    # muss das Gebäudeplättchen genau passend bezahlen (können)." Cem (next) holds Du9 Di8 Gu2
    # De3 and the market is G11 A9 P7 T12: no tile he can pay exactly, so he could not have
    # used his vizier and has no precedence over Anna (issue 31: precedence belongs only to a
    # player who could make the claim).
    buy = "buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
    rep = run(T1 + "Anna: vizier Cem, " + buy, W)
    assert codes(rep) == [], messages(rep)
    # with an asleep vizier he could not either (reported as before)
    rep = run(
        T1 + "Anna: vizier, " + buy + "2. Cem: take Du2\n* display Gu3\n"
        "Ben: vizier Anna, buy Di A9 pay Di9, place A9@1,0\n* market Di:T9ne\n",
        W,
    )
    assert codes(rep) == ["WESIR-ASLEEP"], messages(rep)


def test_the_others_may_decide_again_after_a_vizier() -> None:
    # "Alle anderen Spieler dürfen sich danach wieder neu entscheiden": two in a row.
    rep = run(
        T1 + "Anna: vizier Ben, buy De P7 pay De7, place P7@1,0\n* market De:G10n\n"
        "Ben: vizier, buy Di A9 pay Di9, place A9@1,0\n* market Di:T9ne\n"
        "2. Cem: take Du2\n",
        W,
    )
    assert codes(rep) == [], messages(rep)


def test_the_vizier_line_is_no_turn_of_its_own() -> None:
    # "es geht bei demjenigen Spieler weiter, der eigentlich an der Reihe gewesen wäre"
    text = SETUP.format(players="Anna, Ben, Cem", modules=W)
    game = parse_text(text + T1 + "Anna: vizier, buy De P7 pay De7, reserve P7\n")[0]
    state, found = replay(game)
    assert found == [] or all(v.code == "REFILL-MARKET" for v in found)
    assert state.turn_no == 1
    assert state.next_player == 2  # Cem (seat index 2) moves next


def test_not_usable_in_the_end_of_game_distribution() -> None:
    # Anmerkungen: "Wenn bei Spielende die letzten Gebäudeplättchen verteilt werden, kann der
    # Wesirstein nicht mehr eingesetzt werden."
    path = Path(__file__).resolve().parent.parent / "examples" / "game-3p.alh"
    lines = path.read_text("utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("distribute"))
    lines.insert(at, "Anna: vizier, buy Gu T10 pay Gu9 Gu1, place T10@1,-3")
    lines.insert(2, '[Modules "wesir"]')
    rep = check_game(parse_text("\n".join(lines) + "\n", "end.alh")[0])
    assert "WESIR-GAME-END" in [v.code for v in rep.violations]
