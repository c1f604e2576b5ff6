"""The turn flow's shortcuts for games without modules (issue 13) change nothing.

A game without modules skips what only a module could need: the moment calls, a context for
``display.occupied``, a ruleset of its own. A module that does nothing at all must therefore
leave every finding of every game as it is: with one enabled, the engine takes its general path
everywhere.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from shared_store_support import simulated_many

from referee.engine import GameReport, check_game, run_game, start_state
from referee.engine.core import begin_turn
from referee.engine.extensions import Module
from referee.engine.ruleset import Decision, Ruleset
from referee.engine.state import TurnState
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE, list_profiles, load_profile
from referee.record.model import Pos
from referee.simulate import simulate_many
from referee.simulate.fuzz import mutate_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROFILES = [load_profile(name) for name in list_profiles() if name != DEFAULT_PROFILE.name]


class _Nothing(Module):
    """Enabled, and changes nothing: no verbs, no refinements, no steps."""

    name = "nothing"


@functools.cache  # the same for the four parts: made once a process
def _records() -> tuple[str, ...]:
    """Simulated games, mutated records (violations of many kinds) and the examples."""
    rng = random.Random(17)
    # simulate_many(n, 60 + n, 2)'s games, simulated once a run (the four parts run in both
    # xdist workers, each made them before)
    sources = [t for n in (2, 3, 4, 6) for t in simulated_many(n, 60 + n, 2)]
    mutated = [mutate_record(rng, rng.choice(sources), edits=1 + i % 4) for i in range(80)]
    examples = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.alh"))]
    return (*sources, *mutated, *examples)


def _outcome(report: GameReport) -> tuple[object, ...]:
    return (
        report.valid,
        report.violations,
        report.unverifiable,
        report.result,
        [s.totals if hasattr(s, "totals") else s for s in report.scorings],
    )


# The records whose games the test below compares (of the 81 records with a game it can
# compare: a game without errors and without modules): the others ran no line of ``referee``
# that these do not (each record's comparison under every profile recorded alone, coverage,
# one Coverage object a record after a warm-up pass: 9,710 lines for the 177 records, the
# same 9,710 for these and the records with nothing to compare, which are still read;
# bench/README.md, issue 34, twenty-third step, suite i). Chosen over the four parts together,
# then records added in the order of the list until each part compares more than 40 games
# and more than 5 invalid ones, as asserted. The simulated and mutated records by their index
# in :func:`_records`, the examples by name (an example added or renamed moves the indices);
# the examples left out are named, so a new example is compared.
_KEPT_MADE = frozenset(
    {0, 2, 3, 4, 7, 16, 17, 20, 26, 29, 33, 34, 35, 41, 43, 47, 52, 54, 62, 70, 80}
)
_LEFT_OUT_EXAMPLES = frozenset(
    {
        "final-6p.alh",
        "final-counts.alh",
        "game-3p.alh",
        "game-4p.alh",
        "game-6p.alh",
        "illegal-buy.alh",
        "illegal-end.alh",
        "illegal-module.alh",
        "illegal-order.alh",
        "illegal-refill.alh",
        "illegal-scoring.alh",
        "illegal-setup.alh",
        "illegal-supply.alh",
        "notation-dirk-2p.alh",
        "two-player-bga.alh",
        "two-player-bigbox-2019.alh",
        "two-player-piatnik-hu.alh",
        "two-player-queen-2003.alh",
        "waechter-two-player.alh",
    }
)
"""The examples with a game to compare that are not compared (their lines are run by the kept
records); every other example is compared, so an example added later is compared until it is
shown to run no line of its own (13 of the 32 examples with a game to compare are now)."""


@functools.cache
def _compared() -> frozenset[int]:
    """The indices in :func:`_records` of the records whose games are compared."""
    made = 8 + 80  # the simulated games, then the mutated records, then the examples
    names = [p.name for p in sorted(EXAMPLES.glob("*.alh"))]
    return _KEPT_MADE | {made + i for i, name in enumerate(names) if name not in _LEFT_OUT_EXAMPLES}


@pytest.mark.parametrize("part", range(4))
def test_a_module_doing_nothing_changes_no_finding(part: int) -> None:
    seen = invalid = 0
    records = _records()
    for i in range(part, len(records), 4):
        try:
            games = parse_text(records[i], "flow.alh")
        except Exception:  # a mutation the notation refuses: nothing to walk
            continue
        if i not in _compared():
            continue
        for game in games:
            if game.errors or game.header("Modules"):
                continue
            for profile in (None, *PROFILES):
                plain = check_game(game, profile)
                state = start_state(game, profile)
                state.ext.modules.append(_Nothing())  # every "no module" shortcut is off now
                general = run_game(game, state)
                assert _outcome(general) == _outcome(plain), game.start_line
                seen += 1
                invalid += not plain.valid
    assert seen > 40 and invalid > 5


def test_begin_turn_makes_the_turn_state_of_its_arguments() -> None:
    game = parse_text(next(simulate_many(3, 2, 1)), "flow.alh")[0]
    state = start_state(game)
    begin_turn(state, 1, 7, Pos(9, 3))
    assert state.turn == TurnState(7, 1, pos=Pos(9, 3))
    assert state.phase == "turn" and state.turn_no == 1


def test_a_game_without_modules_shares_its_profiles_ruleset() -> None:
    other = PROFILES[0]
    assert Ruleset.of(DEFAULT_PROFILE) is Ruleset.of(DEFAULT_PROFILE)
    assert Ruleset.of(other) is not Ruleset.of(DEFAULT_PROFILE)
    assert Ruleset.of(DEFAULT_PROFILE, [_Nothing()]) is not Ruleset.of(DEFAULT_PROFILE)
    assert Ruleset.of(DEFAULT_PROFILE).refined == frozenset()


def test_refined_names_the_decisions_a_module_refines() -> None:
    from referee.engine.extensions import Extensions

    ext = Extensions(["wechselstuben"])
    rules = Ruleset.of(DEFAULT_PROFILE, ext.modules)
    assert Decision.DISPLAY_OCCUPIED in rules.refined
    assert rules.refined == frozenset(d for d in rules.refined if rules.refined_by(d))
    assert Decision.TAKE_LIMIT not in rules.refined or rules.refined_by(Decision.TAKE_LIMIT)
