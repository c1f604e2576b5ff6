"""The simulator's cheaper steps give what the slower ones gave: the payments kept by
:func:`referee.engine.legal.paid_refs`, the lines between turns without a settled copy when no
module offers any, a frozen module piece in a scratch copied as ``copy.deepcopy`` copies it,
and the main actions enumerated once while the engine refuses offers."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import dataclass, field
from typing import Any

from referee.catalogue import ALL_MONEY_CARDS, BuildingType, Currency, Side
from referee.engine import legal
from referee.engine.actions.purchase import payments
from referee.engine.extensions import Module
from referee.engine.state import GameState
from referee.modules.base import Scratch
from referee.modules.bauland import Plot
from referee.profiles import load_profile
from referee.record.model import CardRef
from referee.simulate import simulator
from referee.simulate.simulator import simulate_text


def test_kept_payments_are_the_engines_payments() -> None:
    rng = random.Random(17)
    currencies = list(Currency)
    for _ in range(300):
        hand = tuple(
            sorted(rng.sample(ALL_MONEY_CARDS, rng.randrange(0, 9)), key=lambda c: c.sort_key)
        )
        allowed = frozenset(rng.sample(currencies, rng.randrange(1, len(currencies) + 1)))
        price = rng.randrange(2, 14)
        exact = rng.random() < 0.3
        want = [tuple(CardRef(c) for c in pay) for pay in payments(hand, allowed, price, exact)]
        assert list(legal.paid_refs(hand, allowed, price, exact)) == want
        assert list(legal.paid_refs(hand, allowed, price, exact)) == want  # asked again: kept


def test_kept_payments_of_a_rulebook_hand() -> None:
    # "Kann man hingegen den Preis genau passend bezahlen" -- a tile of 7 paid from Gu 3, Gu 4,
    # Gu 5: exactly with 3 + 4, else with 3 + 5 or 4 + 5 (no superfluous card), 5 + 4 + 3 never
    gulden = Currency.GULDEN
    cards = {c.value: c for c in ALL_MONEY_CARDS if c.currency is gulden}
    hand = tuple(cards[v] for v in (3, 4, 5))
    got = legal.paid_refs(hand, frozenset({gulden}), 7, False)
    values = [tuple(r.card.value for r in pay if r.card is not None) for pay in got]
    assert values == [(3, 4), (3, 5), (4, 5)]
    assert legal.paid_refs(hand, frozenset({gulden}), 7, True) == got[:1]


def test_no_module_offering_lines_between_turns_gives_the_early_lines(monkeypatch: Any) -> None:
    """Every simulated game of modules without ``legal_interrupts`` writes the same record
    when ``legal_interrupts`` makes its settled copy as before."""
    fast = [
        simulate_text(3, seed, load_profile("queen-bigbox-2019"), "lines", modules)
        for seed, modules in ((1001, ("obstgaerten",)), (1002, ("handwerker", "menagerie")))
    ]
    copies = 0
    real_copy = GameState.copy

    def counted(self: GameState) -> GameState:
        nonlocal copies
        copies += 1
        return real_copy(self)

    monkeypatch.setattr(GameState, "copy", counted)
    simulate_text(3, 1001, load_profile("queen-bigbox-2019"), "lines", ("obstgaerten",))
    few = copies
    every = {"legal_interrupts": None, "owed_actions": Module.owed_actions}
    monkeypatch.setattr(legal, "Module", type("AnyModule", (), every))
    slow = [
        simulate_text(3, seed, load_profile("queen-bigbox-2019"), "lines", modules)
        for seed, modules in ((1001, ("obstgaerten",)), (1002, ("handwerker", "menagerie")))
    ]
    assert slow == fast
    assert copies > 2 * few  # the slow way copied the state between turns too


@dataclass
class _Plots(Scratch):
    plots: list[Plot] = field(default_factory=list)
    by_number: dict[int, Plot] = field(default_factory=dict)


def test_a_frozen_piece_in_a_scratch_is_copied_as_deepcopy_copies_it() -> None:
    walls = frozenset({Side.N, Side.W})
    one = Plot(3, 7, walls, BuildingType.ARCADES)
    two = Plot(5, 9, frozenset(), None)
    s = _Plots([one, two, one], {3: one})
    mine, ref = s.copy(), copy.deepcopy(s)
    assert pickle.dumps(mine) == pickle.dumps(ref)
    assert isinstance(mine, _Plots)
    assert mine.plots == [one, two, one]
    assert mine.plots[0] is not one  # a new object, as deepcopy makes
    assert mine.plots[0] is mine.plots[2] is mine.by_number[3]  # one object stays one


def test_main_actions_are_enumerated_once_a_state(monkeypatch: Any) -> None:
    """The buys are listed once for each state the policy chooses in, however often the engine
    refused an offer, and the records are those of a generator asked anew each time."""
    calls = 0
    real = simulator.buy_actions

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    def game() -> list[str]:
        return [
            simulate_text(players, seed, load_profile(profile), "once", modules)
            for players, seed, profile, modules in (
                (2, 1000, "queen-bigbox-2019", ("baumeister", "wesir")),
                (3, 1004, "piatnik-hu", ("charaktere",)),
                (4, 1002, "bga", ("diebe",)),
            )
        ]

    monkeypatch.setattr(simulator, "buy_actions", counted)
    once = game()
    kept = calls
    calls = 0
    monkeypatch.setattr(simulator.LazyOptions, "_once", lambda self, kind, make: self._ok(make()))
    anew = game()
    assert anew == once
    assert kept <= calls


def test_take_over_sets_every_field() -> None:
    state = simulator._Game(simulator.SimSettings(3), 5, "t").state
    trial = state.copy()
    trial.turn_no = 41
    trial.reshuffles = 7
    simulator._take_over(state, trial)
    assert simulator._TAKEN  # every field but the findings and the spare turn
    for name in simulator._TAKEN:
        assert getattr(state, name) is getattr(trial, name)
    assert state.turn_no == 41 and state.reshuffles == 7
