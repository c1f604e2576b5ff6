"""Silent Die Wünsche and Die Bediensteten cheaper (issue 34, twenty-third step).

Die Wünsche's cost in a game where nobody heeds the tasks is their scoring at the end: each
open task a geometric question about every Alhambra. Task 4 (the second-longest outer wall)
took the walls' general search (a graph, its components and chains) for every Alhambra;
``walls.outer_runs_top`` now counts the pieces of wall in one pass from the links
``_plain_longest`` makes (the usual Alhambra: no corner joins three segments) and walks only
the two runs it gives. ``_runs`` leaves out the cells that cannot start a run long enough
before its sort (tasks 1 and 2), and ``longest_diagonal`` passes over a cell that cannot start
a run longer than the longest so far (task 8). Die Bediensteten's penalty at every scoring
reads a catalogue tile's colour without a call.

* ``outer_runs_top`` equals the general search (its runs, their lengths' sum, the number of
  segments), and ``second_longest_wall`` its former form, on random grids with junctions,
  rings and pieces that are no catalogue tile, in both wall modes;
* ``without_servant`` equals its former form for every kind of piece, under both options,
  with servants on some cells;
* both examples keep their verdicts, task and servant lines (checked with the former forms
  patched in).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine import check_game
from referee.geometry import Alhambra, walls
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN
from referee.modules import bedienstete as bed
from referee.notation import parse_text
from referee.record.model import Coord

ROOT = Path(__file__).resolve().parent.parent
TYPES = [*BuildingType, None]


@dataclass(frozen=True)
class P:
    """A piece that is no catalogue tile (a module's piece), with or without a type."""

    type: BuildingType | None
    walls: frozenset[Side]


def _grids(seed: int, n: int) -> list[Alhambra]:
    """``n`` random Alhambras around the fountain: catalogue tiles and other pieces, walls
    drawn at random (junctions, rings and several pieces of wall among them)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        alh = Alhambra()
        for _ in range(rng.randint(0, 30)):
            c = Coord(rng.randint(-3, 3), rng.randint(-3, 3))
            if c in alh.cells:
                continue
            walls_of = frozenset(s for s in Side if rng.random() < 0.45)
            kind = rng.choice(TYPES)
            if kind is not None and rng.random() < 0.8:
                alh.place(c, TileKind(kind, rng.randint(2, 13), walls_of))
            else:
                alh.place(c, P(kind, walls_of))
        out.append(alh)
    return out


def _second_before(alh: Alhambra, mode: Any, how: str) -> walls.WallRun:
    """``second_longest_wall`` as it was: the general search for the runs."""
    segments = walls.outer_segments(alh)
    found = walls.wall_runs(segments, mode)
    if not found:
        return walls.WallRun(())
    if how == "piece" or sum(run.length for run in found) == len(segments):
        return found[1] if len(found) > 1 else walls.WallRun(())
    return q._rest_longest(segments, found[0], mode)


def _same(a: object, b: object) -> None:
    assert a == b
    assert repr(a) == repr(b)


def test_outer_runs_top_equals_the_general_search() -> None:
    kinds = {"plain": 0, "junction": 0, "ring": 0, "pieces": 0}
    for i, alh in enumerate(_grids(25, 120)):
        kinds["plain" if walls._plain_links(alh) is not None else "junction"] += 1
        for mode in ("trail", "simple-path"):
            segments = walls.outer_segments(alh)
            every = walls.wall_runs(segments, mode)  # type: ignore[arg-type]
            total = sum(run.length for run in every)
            for k in (1, 2, 50) if i % 4 == 0 else (2,):
                _same(
                    walls.outer_runs_top(alh, mode, k),  # type: ignore[arg-type]
                    (every[:k], total, len(segments)),
                )
            kinds["ring"] += any(run.closed for run in every)
            kinds["pieces"] += len(every) > 1
            for how in ("rest", "piece"):
                _same(
                    q.second_longest_wall(alh, mode, how),  # type: ignore[arg-type]
                    _second_before(alh, mode, how),
                )
    # the grids hold each case the one pass meets
    assert min(kinds.values()) >= 8, kinds
    with pytest.raises(ValueError):
        walls.outer_runs_top(Alhambra(), "ring")  # type: ignore[arg-type]


def _without_before(module: bed.Bedienstete, state: Any, player: Any) -> list[Coord]:
    mine = module.servants_of(state, player)
    return [
        c
        for c, piece in player.alhambra.items()
        if c != ORIGIN and module.colour(piece) is not None and c not in mine
    ]


@dataclass
class _Player:
    name: str
    alhambra: Alhambra
    reserve: list[object]


class _State:
    def __init__(self) -> None:
        self.modules: dict[str, Any] = {}


@pytest.mark.parametrize("buildings", ["typed", "base"])
def test_without_servant_equals_its_former_form(buildings: str) -> None:
    module = bed.Bedienstete()
    module.settings = {"buildings": buildings}
    for alh in _grids(7, 60):
        state = _State()
        player = _Player("Anna", alh, [])
        # a servant on every third building of its colour
        on = {
            c: t
            for k, (c, piece) in enumerate(sorted(alh.items()))
            if k % 3 == 0 and (t := module.colour(piece)) is not None
        }
        module.data(state).on_tiles["Anna"] = dict(on)
        got = module.without_servant(state, player)  # type: ignore[arg-type]
        module.data(state).on_tiles["Anna"] = dict(on)
        _same(got, _without_before(module, state, player))


def _checked(name: str) -> tuple[object, ...]:
    (game,) = parse_text((ROOT / "examples" / name).read_text(encoding="utf-8"))
    report = check_game(game)
    return report.valid, repr(report.violations), repr([s.rows for s in report.scorings])


@pytest.mark.parametrize(("name", "word"), [("wuensche", "task4"), ("bedienstete", "servants")])
def test_the_examples_keep_their_verdicts_and_lines(name: str, word: str) -> None:
    now = _checked(f"module-{name}.alh")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(q, "second_longest_wall", _second_before)
        mp.setattr(bed.Bedienstete, "without_servant", _without_before)
        before = _checked(f"module-{name}.alh")
    assert now == before
    assert now[0] and now[1] == "[]"
    assert f"'{word}'" in now[2], name  # the module's line is scored
