"""Die Wanderhandwerker, the Schmied (``referee/modules/handwerker.py``):
rulebook-bigbox-de-2019.txt § Klaus-Jürgen Wrede: Die Wanderhandwerker, "Die einzelnen
Handwerker" (L3151-3156):

    "Schmied: Die Auslage der Geldkarten wird sofort auf 6 Karten erweitert. Die Auslage wird
    erst wieder wie gewohnt auf 4 Karten aufgefüllt, wenn am Ende eines Spielzuges weniger als
    4 Geldkarten offen ausliegen. Sollte dabei eine Wertung aufgedeckt werden, so wird sie am
    Ende des Spielerzuges abgehandelt."

Each test quotes the sentence it tests. The games start from the setup (the deck is known, so
the number of cards turned up is checked exactly) or from a position block.
"""

from __future__ import annotations

from typing import Any

from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import format_game, parse_text
from referee.record.model import Game
from tests.test_module_handwerker import codes, position, reasons

SETUP = """[Players "Anna, Ben, Cem, Dana"]
[Modules "handwerker"]

* deal Anna De5 Gu8 De4 Du9
* deal Ben De2 De7 Gu7 De1 Du7
* deal Cem Gu3 Du5 De9 Di5
* deal Dana Di1 De4 Gu1 De3 Du4 Du8
* display Gu3 De2 Di6 Di3
* market Gu:P6 Di:P2 De:A6ne Du:G8ne
* craftsmen Anna hw:schreiner hw:steinmetz
* craftsmen Ben hw:bauherr hw:mosaikleger
* craftsmen Cem hw:schmied hw:moertelmischer
* craftsmen Dana hw:goldschmied hw:muenzer
start Cem
"""


def game(body: str) -> Game:
    games = parse_text(SETUP + body, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0]


def run(body: str) -> GameReport:
    return check_game(game(body))


def clean(rep: GameReport) -> None:
    assert rep.violations == [], [v.message() for v in rep.violations]


def display(body: str) -> list[str]:
    state, _ = state_at(game(body), At("end"))
    return [c.code if c is not None else "?" for c in state.display]


def test_the_display_is_widened_to_6_at_once() -> None:
    """ "Die Auslage der Geldkarten wird sofort auf 6 Karten erweitert." (L3151-3152): the
    line names the two cards turned up; they lie in the display at once (a take may take
    them in the same turn)."""
    body = "1. Cem: schmied Du1 De7, take De7, handover hw:schmied\n"
    clean(run(body))
    assert display(body) == ["Gu3", "De2", "Di6", "Di3", "Du1"]
    assert display("1. Cem: schmied Du1 De7, handover hw:schmied\n")[-2:] == ["Du1", "De7"]


def test_the_number_of_cards_turned_up_is_checked() -> None:
    """ "auf 6 Karten erweitert": with 4 cards lying there, exactly 2 are turned up; after a
    take of two, 4 are (the display is widened from what lies there)."""
    few = run("1. Cem: schmied Du1, take De2, handover hw:schmied\n")
    assert ("HANDWERKER-ARGS", "smith-count") in reasons(few)
    many = run("1. Cem: schmied Du1 De7 Du2, take De2, handover hw:schmied\n")
    assert ("HANDWERKER-ARGS", "smith-count") in reasons(many)
    not_card = run("1. Cem: schmied Du1 @1,0, take De2, handover hw:schmied\n")
    assert ("HANDWERKER-ARGS", "smith-card") in reasons(not_card)
    after_take = run("1. Cem: take Gu3 De2, schmied Du1 De7 Du2 De9, handover hw:schmied\n")
    clean(after_take)


def test_a_card_the_deck_does_not_hold_is_the_refill_check() -> None:
    """The cards come from the money deck: a card the deck no longer holds (all three Gu3
    are out, Cem holds one and the display another) is reported as for any refill line."""
    rep = run("1. Cem: schmied Gu3 Gu3, take De2, handover hw:schmied\n")
    assert any(c.startswith("REFILL-") or c.startswith("CARD-") for c in codes(rep)), codes(rep)


def test_a_display_of_4_or_more_is_not_refilled() -> None:
    """ "Die Auslage wird erst wieder wie gewohnt auf 4 Karten aufgefüllt, wenn am Ende eines
    Spielzuges weniger als 4 Geldkarten offen ausliegen." (L3152-3154): 5 cards after the
    turn stay 5 (no refill); a card turned up then is one too many."""
    body = "1. Cem: schmied Du1 De7, take De7, handover hw:schmied\n"
    clean(run(body + "2. Dana: take Di3, handover hw:goldschmied\n"))
    assert len(display(body)) == 5
    extra = run(body + "* display Du2\n")
    assert ("REFILL-DISPLAY", "display-full") in reasons(extra)


def test_fewer_than_4_are_refilled_to_4_as_usual() -> None:
    """ "wenn am Ende eines Spielzuges weniger als 4 Geldkarten offen ausliegen": after takes
    that leave 3, the refill is owed again, up to 4 (not 6)."""
    body = (
        "1. Cem: schmied Du1 De7, take De7, handover hw:schmied\n"
        "2. Dana: take Gu3 De2, handover hw:goldschmied\n"
    )
    missing = run(body + "3. Anna: take Di3, handover hw:schreiner\n")
    assert ("REFILL-DISPLAY", "not-refilled") in reasons(missing)
    refilled = run(body + "* display Du2\n3. Anna: take Du2, handover hw:schreiner\n")
    clean(refilled)
    too_many = run(body + "* display Du2 De9\n")
    assert ("REFILL-DISPLAY", "display-full") in reasons(too_many)


def test_a_scoring_card_turned_up_is_scored_at_the_end_of_the_turn() -> None:
    """ "Sollte dabei eine Wertung aufgedeckt werden, so wird sie am Ende des Spielerzuges
    abgehandelt." (L3154-3156): the scoring card takes no place (two money cards still turn
    up) and is due after the turn: the record writes the scoring line after the turn's
    refill, as after any refill; without it the next turn finds it missing."""
    cem = "craftsmen hw:moertelmischer hw:muenzer"
    anna = "craftsmen hw:schmied hw:schreiner down hw:steinmetz"
    ben = "craftsmen hw:goldschmied hw:bauherr"
    turn = "1. Anna: schmied Gu1 W1 Du4, take Gu4, handover hw:schmied\n"
    ok = position(turn + "scoring 1: Anna =0, Ben =0, Cem =0\n", anna, ben, cem)
    assert ok.violations == [], [v.message() for v in ok.violations]
    assert ok.state is not None and ok.state.scorings_done
    late = position(turn + "2. Ben: take De6, handover hw:goldschmied\n", anna, ben, cem)
    assert ("SCORING-MISSING", "due") in reasons(late)


def test_the_widened_display_in_a_position_reads_back() -> None:
    """A position states the widened display as the cards lying there (6); ``show --format
    record`` writes them and ``check`` reads the block back to the same table."""
    body = "1. Cem: schmied Du1 De7, handover hw:schmied\n"
    state, _ = state_at(game(body), At("end"))
    text = position_text(state)
    assert "display Gu3 De2 Di6 Di3 Du1 De7" in text
    assert "  turns 1\n" in text  # the block states the turns played: the next line is 2.
    again = parse_text('[Players "Anna, Ben, Cem, Dana"]\n[Modules "handwerker"]\n\n' + text)[0]
    state2, found = state_at(again, At("end"))
    assert found == []
    assert position_text(state2) == text
    more = parse_text(
        '[Players "Anna, Ben, Cem, Dana"]\n[Modules "handwerker"]\n\n'
        + text
        + "\n2. Dana: take Di6, handover hw:goldschmied\n"
    )[0]
    rep = check_game(more)
    assert rep.violations == [], [v.message() for v in rep.violations]


def test_legal_lists_the_smith_and_explain_answers() -> None:
    """``legal`` lists ``schmied`` with a ``?`` for each card it turns up; the simulator's own
    game names the cards (see the simulated-games tests)."""
    from referee.engine.context import Context
    from referee.engine.legal import module_actions

    g = game("")
    state, _ = state_at(g, At("end"))
    cem = state.players[2]
    moves: list[Any] = module_actions(Context(state), cem)
    written = [" ".join([m.verb, *(str(a.value) for a in m.args)]) for m in moves]
    assert "schmied ? ?" in written, written


def test_simulated_games_use_the_smith() -> None:
    """Simulated games play the Schmied (the cards the deck holds) and check clean."""
    from referee.simulate import simulate_text

    used = 0
    for players, seed in ((3, 5), (4, 7), (5, 3)):
        text = simulate_text(players, seed, modules=("handwerker",))
        games = parse_text(text, "sim.alh")
        rep = check_game(games[0])
        assert rep.violations == [], [v.message() for v in rep.violations]
        assert format_game(games[0]) == text
        used += text.count(": schmied ")
    assert used > 0
