"""The engine's legal-move generator (:mod:`referee.engine.legal`), with and without modules.

Properties, over positions of simulated games (2-6 players, every profile, each bundled module
and all four together):

* every generated action is accepted by the checker (``check_action`` finds no error), and
  every generated out-of-turn line (``legal_interrupts``) applies without an error;
* the converse for the building rules: every empty cell where the ruleset lets a piece enter
  is offered (placements and builds), every removable piece is offered for removal;
* a module's refinement of a decision changes the generated moves (two test-only modules).

And the perft-like regression: the number of legal actions at fixed positions of the examples
(``tests/golden/legal/perft.txt``; ``python tests/test_legal_generator.py`` rewrites it).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.catalogue import Currency, TileKind
from referee.engine import apply_action, apply_item, check_action, replay
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Module
from referee.engine.legal import (
    build_actions,
    cells_for,
    legal_actions,
    legal_interrupts,
    piece_ref,
    placement_actions,
    remove_actions,
)
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState
from referee.engine.walk import walk
from referee.geometry import placement_problems
from referee.notation import parse_text
from referee.profiles import load_profile
from referee.record.model import (
    BuildFromReserve,
    Buy,
    ComponentRef,
    Coord,
    Place,
    RemoveToReserve,
    TakeMoney,
    Turn,
)
from referee.simulate import simulate_text

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "legal" / "perft.txt"
PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]
ALL = ("wesir", "wechselstuben", "bonuskarten", "plaetze")
MODULE_SETS: list[tuple[str, ...]] = [(), *((m,) for m in ALL), ALL]


def _errors(found: list[Any]) -> list[str]:
    return [v.message() for v in found if v.severity == "error"]


def positions(text: str, every: int, rng: random.Random) -> Iterator[GameState]:
    """States of a record (one walk, :func:`referee.engine.walk.walk`): before every
    ``every``-th numbered turn, and inside that turn after each of its actions but the last."""
    game = parse_text(text, "sim.alh")[0]
    before: GameState | None = None
    n = rng.randrange(every)
    for step in walk(game, finish=False):
        item = step.item
        if isinstance(item, Turn) and item.number is not None and before is not None:
            n += 1
            if n % every == 0:
                state = before.copy()
                yield state.copy()
                for a in item.actions[:-1]:
                    apply_action(state, a)
                    yield state.copy()
        before = step.state


def _assert_generated_moves_are_legal(state: GameState, rng: random.Random) -> int:
    actions = legal_actions(state)
    assert actions, "a player to move always has a legal action"
    for a in rng.sample(actions, min(30, len(actions))):
        assert _errors(check_action(state, a)) == [], a
    lines = legal_interrupts(state)
    for line in rng.sample(lines, min(5, len(lines))):
        trial = state.copy()
        before = len(trial.found)
        apply_item(trial, line)
        assert _errors(trial.found[before:]) == [], line
    return len(actions) + len(lines)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    profile=st.sampled_from(PROFILES),
    modules=st.sampled_from(MODULE_SETS),
)
def test_every_generated_move_is_accepted_by_the_checker(
    players: int, seed: int, profile: str, modules: tuple[str, ...]
) -> None:
    rng = random.Random(seed)
    text = simulate_text(players, seed, load_profile(profile), None, modules)
    seen = 0
    for state in positions(text, 25, rng):
        seen += _assert_generated_moves_are_legal(state, rng)
    assert seen > 0


@pytest.mark.parametrize("modules", [m for m in MODULE_SETS if m], ids="+".join)
def test_module_moves_are_generated_and_accepted(modules: tuple[str, ...]) -> None:
    """Each module's own moves show up in the generator at some position, and are accepted."""
    rng = random.Random(7)
    kinds: set[str] = set()
    for seed in (1, 2):
        text = simulate_text(4, seed, None, None, modules)
        for state in positions(text, 1, rng):
            if want_all(kinds, modules):
                break
            for a in legal_actions(state):
                verb = getattr(a, "verb", None)
                paid = getattr(a, "paid", ()) + getattr(a, "cards", ())
                tokens = {getattr(c, "kind", None) for c in paid}
                if verb is None and "ex" not in tokens:
                    continue
                name = verb or f"{type(a).__name__}:ex"
                if name not in kinds:
                    assert _errors(check_action(state, a)) == [], a
                kinds.add(name)
            for line in legal_interrupts(state):
                kinds.add(f"line:{getattr(line.actions[0], 'verb', '')}")
    for m in modules:
        assert WANT[m] <= kinds, (m, kinds)


WANT = {
    "wesir": {"wake", "line:vizier"},
    "wechselstuben": {"TakeMoney:ex", "Buy:ex"},
    "bonuskarten": {"bonus", "line:bonus"},
    "plaetze": {"square"},
}


def want_all(kinds: set[str], modules: tuple[str, ...]) -> bool:
    return all(WANT[m] <= kinds for m in modules)


@pytest.mark.parametrize("modules", [(), ALL], ids=["base", "all-four"])
def test_no_move_once_the_game_has_ended(modules: tuple[str, ...]) -> None:
    """After the refill that cannot fill the market the game is over: no action, no vizier
    ("Wenn bei Spielende die letzten Gebäudeplättchen verteilt werden, kann der Wesirstein
    nicht mehr eingesetzt werden")."""
    text = simulate_text(3, 8, None, None, modules)
    game = parse_text(text, "sim.alh")[0]
    turns = [i for i, item in enumerate(game.body) if isinstance(item, Turn) and item.number]
    last = game.body[turns[-1] + 1]  # the refill after the last turn
    state, _ = replay(game, until_line=last.pos.line)
    assert legal_actions(state) == []
    assert all(line.actions[0].verb != "vizier" for line in legal_interrupts(state))  # type: ignore[union-attr]
    before, _ = replay(game, until_line=game.body[turns[-1]].pos.line - 1)
    assert legal_actions(before)


# ------------------------------------------------------------------------- completeness


def _frontier(state: GameState, p: Any) -> set[Coord]:
    cells = p.alhambra.cells
    return {
        Coord(c.x + dx, c.y + dy)
        for c in cells
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if Coord(c.x + dx, c.y + dy) not in cells
    }


@pytest.mark.parametrize(("players", "seed", "modules"), [(3, 41, ()), (4, 42, ALL), (2, 43, ALL)])
def test_every_cell_the_building_rules_allow_is_offered(
    players: int, seed: int, modules: tuple[str, ...]
) -> None:
    """The converse: each empty cell next to the Alhambra where the ruleset lets the piece
    enter is offered, for bought pieces (place) and reserve pieces (build); every removable
    piece is offered for removal (rulebook-base-de-2003.txt, Alhambra-Bauregeln)."""
    text = simulate_text(players, seed, None, None, modules)
    game = parse_text(text, "sim.alh")[0]
    checked = 0
    for item in game.body:
        if not isinstance(item, Turn) or item.number is None:
            continue
        state, _ = replay(game, until_line=item.pos.line - 1)
        ctx = Context(state)
        p = state.players[state.next_player or 0]
        if p.reserve:
            got = {(a.tile, a.at) for a in build_actions(ctx, p) if isinstance(a, BuildFromReserve)}
            for piece in {t for t in p.reserve if t is not None}:
                key = piece_ref(piece)
                want = {
                    c
                    for c in _frontier(state, p)
                    if not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=c, piece=piece)
                }
                assert {at for k, at in got if k == key} == want
                checked += 1
        want_rm = {
            at
            for at, piece in p.alhambra.items()
            if at != Coord(0, 0)
            and not ctx.decide(Decision.REMOVE_PROBLEMS, player=p, at=at, piece=piece)
        }
        got_rm = {a.at for a in remove_actions(ctx, p) if isinstance(a, RemoveToReserve)}
        assert got_rm == want_rm
        # the bought pieces, after the turn's main actions
        k = next((i for i, a in enumerate(item.actions) if isinstance(a, Place)), None)
        if k is None:
            continue
        for a in item.actions[:k]:
            apply_action(state, a)
        assert state.turn is not None
        p = state.players[state.turn.player]
        places = [a for a in placement_actions(state) if isinstance(a, Place)]
        for piece in {t for t in state.turn.pending if t is not None}:
            want = {
                c
                for c in _frontier(state, p)
                if not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=c, piece=piece)
            }
            if hasattr(piece, "price"):  # a tile: the base building rules say the same
                assert want == {
                    c for c in _frontier(state, p) if not placement_problems(p.alhambra, c, piece)
                }
            got = {a.at for a in places if a.tile == piece_ref(piece)}
            assert got == want
            checked += 1
        assert item.actions[k] in placement_actions(state)  # what was played is offered
    assert checked > 5


# ------------------------------------------------------------------- refinements count


class _TakeSeven(Module):
    """Test-only: a take may add up to 7."""

    name = "test-take-seven"

    @refines(Decision.TAKE_LIMIT)
    def seven(self, ctx: Any, limit: int, **_: Any) -> int:
        return 7


class _AnyCurrency(Module):
    """Test-only: every currency pays for every field."""

    name = "test-any-currency"

    @refines(Decision.PAY_CURRENCIES)
    def any_currency(self, ctx: Any, allowed: frozenset[Currency], **_: Any) -> frozenset[Any]:
        return frozenset(Currency)


class _NoWallRule(Module):
    """Test-only: walls need not match (the building rule relaxed for every piece)."""

    name = "test-no-walls"

    @refines(Decision.PLACE_PROBLEMS)
    def walls_open(self, ctx: Any, problems: list[Any], **_: Any) -> list[Any]:
        return [p for p in problems if "WALL" not in str(getattr(p, "code", p)).upper()]


@pytest.fixture
def test_modules() -> Iterator[None]:
    for cls in (_TakeSeven, _AnyCurrency, _NoWallRule):
        MODULES[cls.name] = cls
    yield
    for cls in (_TakeSeven, _AnyCurrency, _NoWallRule):
        MODULES.pop(cls.name, None)


def _state_with(modules: str, text: str, line: int) -> GameState:
    if modules:  # in place of the Result header: the line numbers stay
        lines = text.splitlines(keepends=True)
        k = next(i for i, s in enumerate(lines) if s.startswith("[Result "))
        lines[k] = f'[Modules "{modules}"]\n'
        text = "".join(lines)
    game = parse_text(text, "x.alh")[0]
    state, _ = replay(game, until_line=line)
    return state


def test_a_refinement_changes_the_generated_moves(test_modules: None) -> None:
    """The generator asks the ruleset: a module refining ``take.limit``, ``pay.currencies`` or
    ``place.problems`` changes the moves it lists (and they are still accepted)."""
    text = (ROOT / "examples" / "game-4p.alh").read_text("utf-8")
    starts = [i for i, s in enumerate(text.splitlines(), 1) if s[:1].isdigit()]
    more_takes = more_buys = more_cells = 0
    for line in starts[5:60:6]:
        base_state = _state_with("", text, line - 1)
        base = legal_actions(base_state)
        seven_state = _state_with("test-take-seven", text, line - 1)
        seven = legal_actions(seven_state)
        takes = {a for a in base if isinstance(a, TakeMoney)}
        more = {a for a in seven if isinstance(a, TakeMoney)}
        assert takes <= more
        assert all(
            len(a.cards) == 1 or sum(c.card.value for c in a.cards) <= 7  # type: ignore[union-attr]
            for a in more
        )
        for a in more - takes:
            assert _errors(check_action(seven_state, a)) == [], a
            assert _errors(check_action(base_state, a)), a  # the base game forbids it
        more_takes += len(more - takes)
        anyc = _state_with("test-any-currency", text, line - 1)
        buys = {a for a in legal_actions(anyc) if isinstance(a, Buy)}
        base_buys = {a for a in base if isinstance(a, Buy)}
        assert base_buys <= buys
        for a in list(buys - base_buys)[:5]:
            assert _errors(check_action(anyc, a)) == [], a
        more_buys += len(buys - base_buys)
        walls = _state_with("test-no-walls", text, line - 1)
        p = base_state.players[base_state.next_player or 0]
        q = walls.players[walls.next_player or 0]
        for tile in (t for t in walls.market if isinstance(t, TileKind)):
            relaxed = set(cells_for(Context(walls), q, tile))
            assert relaxed >= set(cells_for(Context(base_state), p, tile))
            more_cells += len(relaxed) - len(cells_for(Context(base_state), p, tile))
    assert more_takes and more_buys and more_cells


# ------------------------------------------------------------------------------ perft


PERFT_POSITIONS = [
    ("examples/game-3p.alh", 30),
    ("examples/game-4p.alh", 60),
    ("examples/game-6p.alh", 90),
    ("examples/notation-dirk-2p.alh", 25),
    ("examples/two-player-bga.alh", 30),
    ("examples/position-midgame.alh", 0),
    ("examples/module-wesir.alh", 93),  # vizier lines open
    ("examples/module-wechselstuben.alh", 57),  # an exchange card in the display
    ("examples/module-wechselstuben.alh", 93),  # exchange cards held: purchases with them
    ("examples/module-bonuskarten.alh", 159),  # a bonus card may be revealed
    ("examples/module-plaetze.alh", 80),  # squares to take, one to build
    ("examples/module-all-four.alh", 37),
    ("examples/module-all-four.alh", 200),
]


def perft(path: str, line: int) -> str:
    """``path:line`` and the counts of legal actions by kind and of out-of-turn lines in the
    position after that line (0: the whole record)."""
    game = parse_text((ROOT / path).read_text("utf-8"), path)[0]
    state, _ = replay(game, until_line=line or None)
    actions = legal_actions(state)
    kinds: dict[str, int] = {}
    for a in actions:
        name = getattr(a, "verb", None) or type(a).__name__
        tokens = [*getattr(a, "paid", ()), *getattr(a, "cards", ())]
        if any(isinstance(c, ComponentRef) for c in tokens):
            name += "+" + next(c.kind for c in tokens if isinstance(c, ComponentRef))
        kinds[name] = kinds.get(name, 0) + 1
    parts = " ".join(f"{k}={v}" for k, v in sorted(kinds.items()))
    return f"{path}:{line} actions={len(actions)} interrupts={len(legal_interrupts(state))} {parts}"


def test_perft_counts_at_fixed_positions() -> None:
    want = GOLDEN.read_text("utf-8").splitlines()
    got = [perft(path, line) for path, line in PERFT_POSITIONS]
    assert got == want


if __name__ == "__main__":  # pragma: no cover - rewrites the golden file
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("\n".join(perft(p, n) for p, n in PERFT_POSITIONS) + "\n", "utf-8")
    print("wrote", GOLDEN, file=sys.stderr)
