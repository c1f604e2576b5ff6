"""Scorings, scoring cards, the game end and the result (rulebook-base-de-2003.txt, "Wertungen",
"Spielende", "Spielvorbereitung")."""

from __future__ import annotations

from referee.engine import GameReport, apply_item, replay, run_game
from referee.engine.state import GameState
from referee.notation import parse_text
from referee.record.model import Coord

POSITION = """position
  next Anna
  market Gu:T10 Di:G8ne De:A6sw Du:C9w
  display Gu1 Di4 De6 Du9
  player Anna
    hand Gu3 Gu7
  player Ben
    hand Du8
  player Cem
    hand Di2
end
"""

LAST_TURN = "1. Anna: buy Gu T10 pay Gu3 Gu7, take Gu1, place T10@0,1\n* display Gu2\n"
GOOD_END = "distribute Di:G8ne Cem reserve, De:A6sw none, Du:C9w Ben@-1,0\nscoring 3\n"


def run_with_empty_bag(body: str, headers: str = "") -> tuple[GameReport, GameState]:
    """A position whose bag is empty, then ``body``: the market cannot be refilled."""
    text = f'[Players "Anna, Ben, Cem"]\n{headers}\n' + POSITION + body
    games = parse_text(text, "e.alh")
    assert not games[0].errors, games[0].errors
    g = games[0]
    state, _ = replay(g, until_line=len(POSITION.splitlines()) + 2 + headers.count("\n"))
    state.bag.clear()
    state.bag_count = 0
    state.bag_uncertain = False  # this test knows the bag is empty
    n_pos = sum(1 for it in g.body if it.pos.line <= len(POSITION.splitlines()) + 2)
    report = run_game(g, state, g.body[n_pos:])
    return report, state


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def test_game_end_legal() -> None:
    rep, state = run_with_empty_bag(LAST_TURN + GOOD_END)
    assert codes(rep) == [], [v.message() for v in rep.violations]
    assert state.game_over and 3 in state.scorings_done
    assert state.players[1].alhambra.get(Coord(-1, 0)) is not None
    assert [t.code for t in state.players[2].reserve if t] == ["G8ne"]


def test_end_distribute_wrong_player_and_tie() -> None:
    rep, _ = run_with_empty_bag(
        LAST_TURN + "distribute Di:G8ne Cem reserve, De:A6sw Anna, Du:C9w Cem\nscoring 3\n"
    )
    found = [v for v in rep.violations if v.code == "END-DISTRIBUTE"]
    assert len(found) == 2
    assert "nobody" in found[0].message() and "Ben" in found[1].message()


def test_end_distribute_missing_award() -> None:
    rep, _ = run_with_empty_bag(LAST_TURN + "distribute Di:G8ne Cem reserve\nscoring 3\n")
    assert codes(rep) == ["END-DISTRIBUTE"]
    assert "C9" in rep.violations[0].message() and "Ben" in rep.violations[0].message()


def test_turn_after_end() -> None:
    rep, _ = run_with_empty_bag(LAST_TURN + "2. Ben: take Du9\n* display Gu4\n" + GOOD_END)
    assert "TURN-AFTER-END" in codes(rep)


def test_scoring_3_missing() -> None:
    rep, state = run_with_empty_bag(LAST_TURN + GOOD_END.replace("scoring 3\n", ""))
    assert codes(rep) == ["SCORING-MISSING"]
    assert 3 in state.scorings_done  # computed anyway


def test_end_early() -> None:
    text = '[Players "Anna, Ben, Cem"]\n\n' + POSITION + LAST_TURN + "* market Gu:T12\n" + GOOD_END
    g = parse_text(text, "e.alh")[0]
    from referee.engine import check_game

    rep = check_game(g)
    assert codes(rep).count("END-EARLY") == 2  # the distribution and scoring 3


def test_result_header_checked() -> None:
    rep, state = run_with_empty_bag(LAST_TURN + GOOD_END)
    totals = {p.name: p.score for p in state.players}
    good = ", ".join(f"{k} {v}" for k, v in totals.items())
    rep, _ = run_with_empty_bag(LAST_TURN + GOOD_END, headers=f'[Result "{good}"]\n')
    assert codes(rep) == []
    bad = ", ".join(f"{k} {v + 1}" for k, v in totals.items())
    rep, _ = run_with_empty_bag(LAST_TURN + GOOD_END, headers=f'[Result "{bad}"]\n')
    assert codes(rep) == ["RESULT"] * 3


def test_score_claim() -> None:
    rep, state = run_with_empty_bag(LAST_TURN + GOOD_END)
    anna = state.players[0].score
    rep, _ = run_with_empty_bag(
        LAST_TURN + GOOD_END.replace("scoring 3", f"scoring 3: Anna ={anna}")
    )
    assert codes(rep) == []
    rep, _ = run_with_empty_bag(
        LAST_TURN + GOOD_END.replace("scoring 3", f"scoring 3: Anna ={anna + 5}")
    )
    assert codes(rep) == ["SCORE-CLAIM"]
    msg = rep.violations[0].message()
    assert str(anna + 5) in msg and str(anna) in msg


# ------------------------------------------------------------------ scoring cards in the deck

SETUP = (
    '[Players "Anna, Ben, Cem"]\n\n'
    "* deal Anna Gu3 De7 Du2 Di9\n* deal Ben Du8 Du4 Gu2 De9\n* deal Cem De6 De5 Gu9\n"
    "* display Gu1 Di4 De6 Du9\n* market Gu:T10 Di:G8ne De:A6sw Du:C9w\nstart Cem\n"
)


def test_scoring_card_too_early_and_scoring() -> None:
    # 108 - 11 dealt - 4 displayed = 93 cards in five piles of about 18.6: W1 (pile 2) cannot
    # turn up after only one card
    text = SETUP + "1. Cem: take Gu1\n* display W1 Gu2\nscoring 1\n2. Anna: take Gu2\n"
    from referee.engine import check_game

    rep = check_game(parse_text(text, "s.alh")[0])
    assert "SCORING-CARD-PILE" in codes(rep)
    assert "SCORING-MISSING" not in codes(rep)
    assert "SCORING-UNEXPECTED" not in codes(rep)


def test_scoring_card_in_range_is_legal() -> None:
    text = SETUP + "1. Cem: take Gu1\n* display W1 Gu2\nscoring 1\n"
    g = parse_text(text, "s.alh")[0]
    state, _ = replay(g, until_line=9)  # up to the first turn
    state.money_draws = 20  # as if 20 cards had been revealed since the setup
    for item in g.body:
        if item.pos.line > 9:
            apply_item(state, item)
    assert [v.code for v in state.found] == []
    assert state.scorings_done == [1]


def test_scoring_missing_and_unexpected() -> None:
    from referee.engine import check_game

    text = SETUP + "1. Cem: take Gu1\n* display W1 Gu2\n2. Anna: take Gu2\n* display Gu3\n"
    rep = check_game(parse_text(text, "s.alh")[0])
    assert "SCORING-MISSING" in codes(rep)
    text = SETUP + "1. Cem: take Gu1\n* display Gu2\nscoring 1\n"
    rep = check_game(parse_text(text, "s.alh")[0])
    assert "SCORING-UNEXPECTED" in codes(rep)


def test_dirk_only_in_two_player_games() -> None:
    from referee.engine import check_game

    text = SETUP + "* dirk T13\n1. Cem: take Gu1\n* display Gu2\n"
    rep = check_game(parse_text(text, "s.alh")[0])
    assert "DIRK-DRAW" in codes(rep)


def test_market_refilled_after_the_scoring_is_fine() -> None:
    # the refill and the scoring both happen before the next turn; their order is free
    text = (
        SETUP + "1. Cem: buy De A6sw pay De6, take Gu1, reserve A6sw\n* display W1 Gu2\nscoring 1\n"
    )
    text += "* market De:T12\n2. Anna: take Gu2\n* display Gu3\n"
    g = parse_text(text, "s.alh")[0]
    state, _ = replay(g, until_line=9)
    state.money_draws = 20
    for item in g.body:
        if item.pos.line > 9:
            apply_item(state, item)
    assert [v.code for v in state.found] == []
