"""The simulator's cheaper ways to the same answers (eighteenth step of issue 34): a hand sorted
by the cards' kept ranks, takes with kept card references, a catalogue tile's plain terms kept
per profile, an action placed without ``dataclasses.replace``, each purchase's overpayment kept
by the policy, the cheapest three cards of Die Ausbauten. Each gives what the plain way gives,
on many hands, displays and states of simulated games."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from referee.catalogue import ALL_MONEY_CARDS
from referee.engine import legal
from referee.engine.context import Context
from referee.engine.ruleset import Decision
from referee.modules import ausbauten
from referee.profiles import load_profile
from referee.record.model import Buy, CardRef, Pos, TakeMoney
from referee.simulate import policy, simulator
from referee.simulate.simulator import SimSettings, _Game


def _hands(n: int, seed: int) -> list[Counter[Any]]:
    rng = random.Random(seed)
    return [
        Counter(rng.choice(ALL_MONEY_CARDS) for _ in range(rng.randrange(0, 16))) for _ in range(n)
    ]


def test_a_hand_sorted_by_rank_is_the_hand_sorted_by_sort_key() -> None:
    for hand in _hands(500, 1):
        hand[ALL_MONEY_CARDS[0]] += 0  # a card counted 0 times is no card of the hand
        assert legal.sorted_hand(hand) == tuple(sorted(hand.elements(), key=lambda c: c.sort_key))


def _plain_takes(display: list[Any], limit: int) -> list[TakeMoney]:
    cards = sorted((c for c in display if c is not None), key=lambda c: c.sort_key)
    seen: set[tuple[Any, ...]] = set()
    out: list[TakeMoney] = []
    for r in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, r):
            if r > 1 and sum(c.value for c in combo) > limit:
                continue
            if combo not in seen:
                seen.add(combo)
                out.append(TakeMoney(tuple(CardRef(c) for c in combo)))
    return out


def _states(modules: tuple[str, ...], players: int, seed: int, profile: str) -> list[Any]:
    """Copies of the state of a simulated game at each of its main actions."""
    states: list[Any] = []
    choose = policy.Policy.choose_main

    def kept(self: policy.Policy, options: Any, first: bool) -> Any:
        states.append(options.state.copy())
        return choose(self, options, first)

    game = _Game(SimSettings(players, load_profile(profile), modules), seed, "same")
    policy.Policy.choose_main = kept  # type: ignore[method-assign]
    try:
        game.play()
    finally:
        policy.Policy.choose_main = choose  # type: ignore[method-assign]
    return states


GAMES = [
    ((), 4, 3, "queen-2003"),
    ((), 2, 5, "bga"),
    (("wechselstuben", "bonuskarten"), 3, 1002, "piatnik-hu"),
    (("baustellen",), 5, 1001, "queen-bigbox-2019"),
]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "+".join(g[0]) or f"base-{g[1]}")
def test_takes_and_purchases_are_those_of_the_plain_way(game: Any) -> None:
    states = _states(*game)
    assert states
    for state in states[::3]:
        p = legal.mover(state)
        if p is None:
            continue
        ctx = Context(state)
        limit = int(ctx.decide(Decision.TAKE_LIMIT, player=p))
        assert legal.take_actions(ctx, p) == _plain_takes(list(state.display), limit)
        kept = legal.buy_actions(ctx, p)
        memo = state.rules.memo
        saved = dict(memo)
        try:
            memo.clear()  # the plain terms asked afresh
            legal.forget_kept()
            assert legal.buy_actions(ctx, p) == kept
        finally:
            memo.clear()
            memo.update(saved)


def test_an_action_placed_is_the_action_replaced() -> None:
    here = Pos(12, 1)
    for state in _states((), 3, 9, "queen-2003")[:40]:
        p = legal.mover(state)
        if p is None:
            continue
        for a in legal.main_actions(state)[:30]:
            placed = simulator._at(a, here)
            plain = dataclasses.replace(a, pos=here)
            assert type(placed) is type(plain)
            assert [getattr(placed, f.name) for f in dataclasses.fields(placed)] == [
                getattr(plain, f.name) for f in dataclasses.fields(plain)
            ]


def test_the_kept_overpayment_is_paid_less_price() -> None:
    for state in _states(("wechselstuben",), 4, 1003, "bga")[:60]:
        p = legal.mover(state)
        if p is None:
            continue
        for a in legal.buy_actions(Context(state), p):
            assert isinstance(a, Buy)
            want = policy._paid(a) - policy._price(a)
            assert policy._overpaid(a) == want
            assert policy._overpaid(a) == want  # asked again: the kept answer


def _plain_cheapest(combo: tuple[str, ...], cards: list[Any]) -> tuple[Any, ...] | None:
    best: tuple[Any, ...] | None = None
    for trio in itertools.combinations(cards, 3):
        cheaper = best is None or sum(c.value for c in trio) < sum(c.value for c in best)
        if cheaper and ausbauten.fits(combo, [c.currency for c in trio]):
            best = trio
    return best


def test_the_cheapest_three_cards_are_those_of_the_plain_way() -> None:
    combos = [ausbauten.parse_combination(word) for word, _numbers in ausbauten.assumed_columns()]
    combos += [("x", "y", "z"), ("gu", "gu", "x")]
    for hand in _hands(150, 2):
        cards = sorted(hand.elements(), key=lambda c: (c.value, c.code))
        for combo in combos:
            assert combo is not None
            assert ausbauten._cheapest(combo, cards) == _plain_cheapest(combo, cards)
