"""Cheaper end-of-game tasks of Die Wünsche des Kalifen and a cheaper servant colour of Die
Bediensteten (issue 34, twenty-first step).

Die Wünsche's silent cost is its rule work: at the final scoring each open task is a geometric
question about every Alhambra (``referee/geometry/queries.py``). The queries it asks most now
find the same answers with less work: ``_cells`` tests the two common members inline,
``runs``' cells are found without a :class:`Run` per single cell (``lines_with_run`` and
``longest_diagonal`` make one only for the runs they give), ``same_type_pairs`` looks its
neighbours up in the member set, ``farthest_building`` counts the ways and makes only the
farthest one. Die Bediensteten's ``colour`` reads its option only for a
piece that is not a base building.

* the queries equal their former, plain forms (kept here) on random grids, for the members the
  tasks use and one of their own;
* every task, under every option, scores the same on random grids as with the former queries;
* ``colour`` equals its former form for every kind of piece under both options;
* the two example games keep their verdicts and their task and servant lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine import check_game
from referee.geometry import Alhambra
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN
from referee.modules import wuensche
from referee.modules.bedienstete import Bedienstete
from referee.notation import parse_text
from referee.record.model import Coord

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class P:
    type: BuildingType | None
    walls: frozenset[Side]


TYPES = [*BuildingType, None]  # (a piece without a type: no building)
CELLS = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=26)


def _grid(cells: list[tuple[int, int]], seed: int, tiles: bool) -> Alhambra:
    """Pieces on ``cells`` (the fountain stays at 0,0): catalogue tiles or plain pieces, some
    without a type, walls drawn from ``seed``."""
    alh = Alhambra()
    for i, (x, y) in enumerate(cells):
        c = Coord(x, y)
        if c in alh.cells:
            continue
        walls = frozenset(s for k, s in enumerate(Side) if (seed >> ((i * 4 + k) % 30)) & 1)
        kind = TYPES[(seed + i) % len(TYPES)]
        if tiles and kind is not None and (seed + i) % 3:
            alh.place(c, TileKind(kind, 2 + (seed + i) % 9, walls))
        else:
            alh.place(c, P(kind, walls))
    return alh


# ------------------------------------------------------------ the former queries, plainly


def _cells_before(alh: Alhambra, member: Any) -> set[Coord]:
    return {c for c, p in alh.cells.items() if member(c, p)}


def _runs_before(alh: Alhambra, direction: str, member: Any) -> list[q.Run]:
    dx, dy = q._STEP[direction]
    cells = _cells_before(alh, member)
    found = []
    for c in sorted(cells, key=lambda c: (-c.y, c.x)):
        if Coord(c.x - dx, c.y - dy) in cells:
            continue
        run = [c]
        nxt = Coord(c.x + dx, c.y + dy)
        while nxt in cells:
            run.append(nxt)
            nxt = Coord(nxt.x + dx, nxt.y + dy)
        found.append(q.Run(direction, tuple(run)))
    return found


def _lines_before(alh: Alhambra, axis: str, at_least: int, member: Any) -> dict[int, list[q.Run]]:
    out: dict[int, list[q.Run]] = {}
    for run in _runs_before(alh, axis, member):
        if run.length >= at_least:
            out.setdefault(run.line, []).append(run)
    return dict(sorted(out.items(), key=lambda kv: -kv[0] if axis == "row" else kv[0]))


def _diagonal_before(alh: Alhambra, member: Any) -> q.Run | None:
    best = None
    for direction in ("ne", "se"):
        for run in _runs_before(alh, direction, member):
            if best is None or run.length > best.length:
                best = run
    return best


def _pairs_before(alh: Alhambra, member: Any) -> list[tuple[Coord, Coord]]:
    cells = alh.cells
    out = []
    for c in sorted(_cells_before(alh, member), key=lambda c: (-c.y, c.x)):
        for side in (Side.E, Side.N):
            other = c.neighbour(side)
            nb = cells.get(other)
            if nb is not None and member(other, nb) and nb.type is cells[c].type:
                out.append((c, other))
    return out


def _farthest_before(alh: Alhambra, on_foot: bool, member: Any) -> tuple[Coord, ...]:
    ways = q.distances(alh, on_foot)
    best: tuple[Coord, ...] = ()
    for c in sorted(ways, key=lambda c: (-c.y, c.x)):
        if member(c, alh.cells[c]) and len(ways[c]) > len(best):
            best = ways[c]
    return best


def _odd(at: Coord, piece: Any) -> bool:  # a member of the tests' own: no call saved for it
    return (at.x + at.y) % 2 == 1 or piece.type is BuildingType.GARDEN


MEMBERS = [q.is_building, q.building_or_fountain, wuensche._standard, _odd]


def _same(a: object, b: object) -> None:
    """Equal, and written the same (the coordinates are Coords, the texts alike)."""
    assert a == b
    assert repr(a) == repr(b)


@settings(max_examples=40, deadline=None)
@given(CELLS, st.integers(0, 2**30), st.booleans())
def test_the_queries_equal_their_former_forms(cells, seed, tiles):
    alh = _grid(cells, seed, tiles)
    for member in MEMBERS:
        _same(q._cells(alh, member), _cells_before(alh, member))
        for direction in ("row", "column", "ne", "se"):
            _same(q.runs(alh, direction, member), _runs_before(alh, direction, member))
        for axis in ("row", "column"):
            for at_least in (1, 2, 3):
                _same(
                    q.lines_with_run(alh, axis, at_least, member),  # type: ignore[arg-type]
                    _lines_before(alh, axis, at_least, member),
                )
        _same(q.longest_diagonal(alh, member), _diagonal_before(alh, member))
        _same(q.same_type_pairs(alh, member), _pairs_before(alh, member))
        for on_foot in (True, False):
            _same(q.farthest_building(alh, on_foot, member), _farthest_before(alh, on_foot, member))
        _same(q.blocks_2x2(alh, member), q.blocks_2x2(alh, lambda c, p, m=member: m(c, p)))
        _same(q.groups(alh, member), q.groups(alh, lambda c, p, m=member: m(c, p)))


SETTINGS = [
    {},
    {"task5": "line", "rows": "run", "pairs": "disjoint", "fountain": "building"},
    {"wall2": "piece", "path": "grid", "pathcount": "tiles"},
]


@settings(max_examples=15, deadline=None)
@given(CELLS, st.integers(0, 2**30))
def test_every_task_scores_as_with_the_former_queries(cells, seed):
    alh = _grid(cells, seed, True)
    now = [wuensche.score_task(n, alh, options) for n in wuensche.TASKS for options in SETTINGS]
    former = {
        "runs": lambda alh, d, member=q.is_building: _runs_before(alh, d, member),
        "lines_with_run": lambda alh, a, k=3, member=q.is_building: _lines_before(
            alh, a, k, member
        ),
        "longest_diagonal": lambda alh, member=q.building_or_fountain: _diagonal_before(
            alh, member
        ),
        "same_type_pairs": lambda alh, member=q.is_building: _pairs_before(alh, member),
        "farthest_building": lambda alh, on_foot=True, member=q.is_building: _farthest_before(
            alh, on_foot, member
        ),
    }
    with pytest.MonkeyPatch.context() as mp:
        for name, fn in former.items():
            mp.setattr(q, name, fn)
        before = [
            wuensche.score_task(n, alh, options) for n in wuensche.TASKS for options in SETTINGS
        ]
    _same(now, before)


def _colour_before(module: Bedienstete, piece: object) -> BuildingType | None:
    if piece is None or piece is ORIGIN:
        return None
    if module.option("buildings") == "base" and not isinstance(piece, TileKind):
        return None
    t = getattr(piece, "type", None)
    return t if isinstance(t, BuildingType) else None


def test_the_servant_colour_is_as_before():
    pieces: list[object] = [None, ORIGIN, object(), "Gu", P(None, frozenset())]
    pieces += [TileKind(t, 5, frozenset({Side.N})) for t in BuildingType]
    pieces += [P(t, frozenset()) for t in BuildingType]
    for option in ("typed", "base"):
        module = Bedienstete()
        module.settings = {"buildings": option}
        for piece in pieces:
            assert module.colour(piece) == _colour_before(module, piece), (option, piece)


@pytest.mark.parametrize(("name", "word"), [("wuensche", "task"), ("bedienstete", "servants")])
def test_the_examples_keep_their_verdicts_and_lines(name, word):
    text = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    (game,) = parse_text(text)
    report = check_game(game)
    assert report.valid and not report.violations
    assert any(f"'{word}" in repr(s.rows) for s in report.scorings), name
