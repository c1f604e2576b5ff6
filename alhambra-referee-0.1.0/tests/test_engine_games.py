"""Complete games: a small deterministic random-game generator, and the engine on its output.

The generator is the engine-driven simulator (:mod:`referee.simulate.simulator`; the former
scripted generator that wrote ``examples/game-{3,4,6}p.alh`` is gone, those files are goldens).
It plays legal (not clever) games of the base rules as written in ``rulebook-base-de-2003.txt``:
start money until 20, start player by fewest cards / lower total / youngest, the five-pile deck
with W1 in pile 2 and W2 in pile 4, exact payments giving another action, placements by the
building rules, refills, reshuffles, scorings, the game end with the leftover tiles. Its records
reveal every card and tile, and carry the claimed totals so that the record checks itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import check_game
from referee.notation import parse_text
from referee.record.model import Coord
from referee.simulate import simulate_text
from referee.simulate.simulator import NAMES

__all__ = ["NAMES", "generate"]


def generate(n: int, seed: int, event: str = "") -> str:
    """A complete legal game of ``n`` players (the engine-driven simulator)."""
    return simulate_text(n, seed, None, event or None)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _generated_ok(n: int, seed: int) -> str:
    text = generate(n, seed)
    return text


@pytest.mark.parametrize(("n", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (3, 5)])
def test_generated_games_are_legal(n: int, seed: int) -> None:
    text = _generated_ok(n, seed)
    rep = check_game(parse_text(text, "gen.alh")[0])
    assert rep.violations == [], [v.message() for v in rep.violations]
    assert rep.complete and rep.winners
    assert [s.round for s in rep.scorings] == [1, 2, 3]


@pytest.mark.parametrize("name", ["game-3p.alh", "game-4p.alh", "game-6p.alh"])
def test_example_games_are_legal_and_complete(name: str) -> None:
    path = EXAMPLES / name
    games = parse_text(path.read_text("utf-8"), str(path))
    assert len(games) == 1 and not games[0].errors
    rep = check_game(games[0])
    assert rep.valid and rep.violations == [], [v.message() for v in rep.violations]
    assert rep.complete and rep.winners
    assert rep.unverifiable == []
    assert len(rep.players) == int(name[5])


def test_a_changed_move_is_caught() -> None:
    text = generate(3, 7)
    lines = text.splitlines()
    # swap the order of two seats in one turn line: the turn order breaks
    idx = next(i for i, line in enumerate(lines) if line.startswith("5. "))
    name = lines[idx].split(":")[0].split()[1]
    other = next(n for n in NAMES[:3] if n != name)
    lines[idx] = lines[idx].replace(f" {name}:", f" {other}:", 1)
    rep = check_game(parse_text("\n".join(lines) + "\n", "gen.alh")[0])
    assert "TURN-ORDER" in [v.code for v in rep.violations]


def _coord(c: Coord) -> str:  # pragma: no cover - helper kept for readability
    return str(c)
