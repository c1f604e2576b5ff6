"""Standing offers across turns (the auction service, E27; modelled on Die Großprojekte,
rulebook-bigbox-de-2019.txt § Dirk Henn: Die Großprojekte) with the test-only module
``tests/plugins/turn_standing`` (registered only here).

The setup of ``conftest``: Ben moves first, then Cem, then Anna. Hands: Anna Gu9 De7 De2 Du3,
Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3; display Gu1 Di4 De6 Du2. The module lays out ``ts:1``
when the setup is complete (lowest bid 5 unless the option ``min`` says 15).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from conftest import codes, messages, run

from referee.catalogue import Currency, MoneyCard
from referee.engine import check_action, check_game, legal, replay
from referee.engine.position_text import position_text
from referee.engine.walk import walk
from referee.notation import parse_text
from referee.notation.formatter import action as format_action
from referee.record.model import ModuleAction

S = "turnstanding"
HEAD = f'[Players "Anna, Ben, Cem"]\n[Modules "{S}"]\n\n'


@pytest.fixture(autouse=True)
def standing_module() -> Iterator[None]:
    from referee.engine.extensions import MODULES, register_module

    register_module(importlib.import_module("plugins.turn_standing").TurnStanding)
    yield
    MODULES.pop(S, None)


def card(code: str) -> MoneyCard:
    return MoneyCard(Currency(code[:2]), int(code[2:]))


# Ben bids 8, Cem overbids with 9, Anna and Ben take money; Cem's bid still lies there when
# his next turn begins: he has won ts:1, and bids at once on ts:2
GAME = (
    "1. Ben: bid 8 pay Gu8\n"
    "2. Cem: bid 9 pay Du9\n"
    "3. Anna: take Gu1 Di4\n* display De5 Du5\n"
    "4. Ben: take Du2\n* display Gu3\n"
    "5. Cem: bid 8 pay Di8\n"
)


def test_a_legal_game_overbid_refund_and_win_at_the_turn_start() -> None:
    rep = run(GAME, S)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    # "Der überbotene Spieler bekommt Geld und Marker zurück"
    ben = state.player_named("Ben")
    assert ben is not None and ben.hand[card("Gu8")] == 1
    # "Liegt zu Beginn des eigenen Zuges ein eigenes Gebot ... ersteigert ... Das gebotene Geld
    # wird auf den Geld-Ablagestapel gelegt"
    assert state.modules[S].won == {"Cem": [(1, 9)]}
    assert state.discard[card("Du9")] == 1
    cem = state.player_named("Cem")
    assert cem is not None and cem.hand[card("Du9")] == 0 and cem.hand[card("Di8")] == 0
    # "Ein neues Großprojekt wird aufgedeckt, auf das der aktive Spieler sofort wieder bieten
    # darf": Cem's 8 lies beside ts:2
    [offer] = state.standing
    assert (offer.key, offer.high, offer.held) == ("ts:2", 8, (card("Di8"),))
    assert offer.leader == cem.index


def test_the_money_of_a_bid_lies_beside_the_offer_until_it_is_overbid() -> None:
    rep = run("1. Ben: bid 8 pay Gu8\n", S)
    state = rep.state
    assert state is not None
    ben = state.player_named("Ben")
    assert ben is not None and ben.hand[card("Gu8")] == 0  # "legt das gebotene Geld ... neben"
    assert state.discard[card("Gu8")] == 0
    rep = run("1. Ben: bid 8 pay Gu8\n2. Cem: bid 9 pay Du9\n", S)
    state = rep.state
    assert state is not None
    ben = state.player_named("Ben")
    assert ben is not None and ben.hand[card("Gu8")] == 1
    assert [(o.leader, o.high) for o in state.standing] == [(2, 9)]


def test_an_overbid_must_be_higher_and_the_first_bid_at_least_the_lowest() -> None:
    rep = run("1. Ben: bid 8 pay Gu8\n2. Cem: bid 8 pay Di8\n", S)
    assert codes(rep) == ["STANDING-LOW"]
    assert "Ben's bid of 8 lies there; an overbid must be higher" in messages(rep)[0]
    assert "Die Großprojekte" in messages(rep)[0]  # the rule section
    rep = run("1. Ben: bid 3 pay De3\n", S)
    assert codes(rep) == ["STANDING-LOW"]
    assert "the lowest bid is 5" in messages(rep)[0]
    # "ein Gebot von mindestens 15 Geld"
    rep = run("1. Ben: bid 9 pay Di9\n", S + " min=15")
    assert codes(rep) == ["STANDING-LOW"]
    assert "the lowest bid is 15" in messages(rep)[0]


def test_a_bid_is_in_one_currency_and_is_the_money_laid_down() -> None:
    # "aus einer beliebigen Währung bestehen muss"
    rep = run("1. Ben: bid 11 pay Gu8 De3\n", S)
    assert codes(rep) == ["PAY-ONE-CURRENCY"], messages(rep)
    # the bid is the money laid down: the number written is its value
    rep = run("1. Ben: bid 7 pay Gu8\n", S)
    assert codes(rep) == ["PAY-NOT-EXACT"]
    rep = run("1. Ben: bid 8\n", S)
    assert codes(rep) == ["STANDING-BID"]
    rep = run("1. Ben: bid 9 pay Du9\n", S)
    assert codes(rep) == ["BUY-NOT-HELD"]
    # "Die Währung muss nicht der des vorherigen Gebots entsprechen"
    rep = run("1. Ben: bid 8 pay Gu8\n2. Cem: bid 9 pay Du9\n", S)
    assert codes(rep) == []


def test_a_module_may_ask_for_one_currency() -> None:
    rep = run("1. Ben: bid 8 pay Gu8\n", S + " currency=de")
    assert "PAY-CURRENCY" in codes(rep)
    assert "Gu8 is not De" in messages(rep)[0]
    body = "1. Ben: take Gu1 Di4\n* display De5 Du5\n2. Cem: take Du5\n* display Gu3\n"
    rep = run(body + "3. Anna: bid 9 pay De7 De2\n", S + " currency=de")
    assert codes(rep) == [], messages(rep)


def test_a_bid_is_the_turn_s_action_and_not_on_one_s_own_bid() -> None:
    # "Der Spieler am Zug hat nun eine weitere Aktionsmöglichkeit"
    rep = run("1. Ben: bid 8 pay Gu8, take Gu1\n", S)
    assert codes(rep) == ["TURN-OVER"]
    assert "after bidding" in messages(rep)[0]
    # "Liegt ein Gebot eines anderen Spielers ... darf ein nachfolgender Spieler ... überbieten"
    rep = run("1. Ben: bid 8 pay Gu8, bid 9 pay Di9\n", S)
    assert codes(rep) == ["TURN-OVER", "STANDING-OWN"]
    assert "his own bid of 8 lies there" in messages(rep)[1]


def test_a_bid_names_an_open_offer() -> None:
    rep = run("1. Ben: bid ts:4 8 pay Gu8\n", S)
    assert codes(rep) == ["STANDING-BID"]
    assert "no offer ts:4 is open (open: ts:1)" in messages(rep)[0]
    rep = run("1. Ben: bid ts:1 8 pay Gu8\n", S)
    assert codes(rep) == []


def test_the_findings_speak_german() -> None:
    rep = run("1. Ben: bid 8 pay Gu8\n2. Cem: bid 8 pay Di8\n", S)
    assert "dort liegt das Gebot von Ben über 8" in rep.violations[0].message("de")


def test_a_trusted_replay_ends_in_the_same_state() -> None:
    game = parse_text(HEAD.replace("\n\n", "\n") + _setup() + GAME, "t.alh")[0]
    checked, _ = replay(game)
    *_, last = walk(game, snapshots=False, check=False)
    trusted = last.state
    assert position_text(trusted) == position_text(checked)


def _setup() -> str:
    from conftest import SETUP

    return SETUP.split("\n\n", 1)[1]


def test_the_standing_bid_round_trips_through_a_position_block() -> None:
    rep = run("1. Ben: bid 8 pay Gu8\n2. Cem: bid 9 pay Du9\n", S)
    assert rep.state is not None
    block = position_text(rep.state)
    assert "  offer ts:1\n  bid Cem 9 pay Du9\n" in block
    again, _ = replay(parse_text(HEAD + block, "p.alh")[0])
    assert position_text(again) == block
    assert again.standing[0].held == (card("Du9"),)
    # play goes on from the position (numbered on from the turns it states): Cem's bid wins
    # at the start of his turn
    assert "  turns 2\n" in block
    rest = "3. Anna: take Gu1 Di4\n* display De5 Du5\n4. Ben: take Du2\n* display Gu3\n"
    rep = check_game(parse_text(HEAD + block + rest + "5. Cem: bid 8 pay Di8\n", "p.alh")[0])
    assert [v.code for v in rep.violations] == []
    assert rep.state is not None and rep.state.modules[S].won == {"Cem": [(1, 9)]}
    assert rep.state.discard[card("Du9")] == 1


def test_the_legal_moves_include_the_lowest_bid_in_each_currency() -> None:
    game = parse_text(HEAD.replace("\n\n", "\n") + _setup() + "1. Ben: bid 8 pay Gu8\n", "t.alh")
    state, _ = replay(game[0])
    from referee.engine.core import settle_before

    settle_before(state, state.turn.pos if state.turn else game[0].body[-1].pos, "turn")
    bids = [a for a in legal.legal_actions(state) if isinstance(a, ModuleAction)]
    shown = sorted(format_action(a) for a in bids)
    # Cem (Du9 Di8 Gu2 De3) must beat 8: Du9 only
    assert shown == ["bid 9 pay Du9"]
    for a in bids:
        assert not [v for v in check_action(state, a) if v.severity == "error"]
