"""The fountain copies, deep-copies and pickles in both builds (issue 34, nineteenth step).

Compiled by mypyc, a frozen slots dataclass's ``__setstate__`` went through the refusing
``__setattr__``: ``copy.deepcopy(FOUNTAIN)`` raised ``FrozenInstanceError``, so copying the
state of a Stadttore or Schlüssel game whose module scratch holds the fountain failed in the
compiled build only (found by tests/test_position_roundtrip.py run against the compiled
install). Copied with the other tests to a folder without ``referee/``, this tests the
installed build.
"""

from __future__ import annotations

import copy
import pickle

from referee.geometry.grid import FOUNTAIN, Fountain
from referee.simulate import simulate_game


def test_the_fountain_is_its_own_copy_and_pickles_to_an_equal_one() -> None:
    assert copy.copy(FOUNTAIN) is FOUNTAIN
    assert copy.deepcopy(FOUNTAIN) is FOUNTAIN
    assert copy.deepcopy([FOUNTAIN, {"f": FOUNTAIN}]) == [FOUNTAIN, {"f": FOUNTAIN}]
    again = pickle.loads(pickle.dumps(FOUNTAIN))
    assert isinstance(again, Fountain) and again == FOUNTAIN
    assert str(again) == "fountain" and again.walls == frozenset() and again.type is None


def test_a_state_whose_module_scratch_holds_the_fountain_copies() -> None:
    from referee.engine.walk import At, state_at

    # seed 0 of each: the moments where the module's scratch holds the fountain (the
    # compiled build raised at the first copy of them)
    for module in ("stadttore", "schluessel"):
        game = simulate_game(3, 0, modules=(module,))
        last, _ = state_at(game, At("end"))
        state, _ = state_at(game, At("turn", max(1, last.turn_no // 2)))
        twin = state.copy()
        assert twin is not state and twin.turn_no == state.turn_no
        assert [p.score for p in twin.players] == [p.score for p in state.players]
