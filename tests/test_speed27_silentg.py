"""Issue 34, twenty-fifth step (silent Angreifer, Farben, Wechselgeld): the shortcuts give the
general path's answers.

* ``queries.open_side_counts`` (three sides in one walk over the occupied cells, read off
  the kept geometry's front entries and wall masks) equals ``len(open_sides(...))`` side by
  side, and ``open_side_count`` (which reads the neighbour off the front entry too), on random
  Alhambras taken apart and built again (the kept geometry changed by ``place`` and
  ``remove``), on copies, and on a layered Alhambra (the general count);
* ``angreifer.attack_penalty`` gives the points and both explanations of the attack written
  out with ``open_sides`` (every round, every direction, both readings of ``pieces``);
* Frische Farben's purchase note names the tile by ``fmt_tile`` (its code kept per tile);
* the bundled examples of the three modules keep their verdicts, findings and scorings.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import SIDES, BuildingType, Side, TileKind
from referee.engine import check_game
from referee.engine.fmt import fmt_tile
from referee.geometry import Alhambra
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN
from referee.modules import angreifer as an
from referee.modules import farben as fa
from referee.notation import parse_text
from referee.record.model import Coord

ROOT = Path(__file__).resolve().parent.parent


def _tiles() -> list[TileKind]:
    walls = [frozenset(), frozenset({Side.N}), frozenset({Side.E, Side.S}), frozenset(SIDES)]
    return [TileKind(t, p, w) for t in BuildingType for p in (2, 5, 9) for w in walls]


def _grids(seed: int, n: int) -> list[Alhambra]:
    rng = random.Random(seed)
    tiles = _tiles()
    out = []
    for _ in range(n):
        alh = Alhambra()
        for _ in range(rng.randint(0, 30)):
            c = Coord(rng.randint(-4, 4), rng.randint(-4, 4))
            if c == ORIGIN or c in alh:
                continue
            alh.place(c, rng.choice(tiles))
        out.append(alh)
    return out


def _listed(alh: Alhambra, side: Side, member: Any = None) -> int:
    return len(q.open_sides(alh, side) if member is None else q.open_sides(alh, side, member))


def _check(alh: Alhambra) -> None:
    assert q.open_side_counts(alh, SIDES) == [_listed(alh, s) for s in SIDES]
    for side in SIDES:
        assert q.open_side_count(alh, side) == _listed(alh, side)
    assert q.open_side_counts(alh, (Side.W,)) == [_listed(alh, Side.W)]
    for k in range(4):  # the three sides of a final attack, in one walk
        three = (SIDES[k], SIDES[(k + 1) % 4], SIDES[(k + 3) % 4])
        assert q.open_side_counts(alh, three) == [_listed(alh, s) for s in three]
    assert q.open_side_counts(alh, ()) == []


def test_open_side_counts_are_the_listed_open_sides_while_the_alhambra_changes() -> None:
    checked = 0
    for alh in _grids(2701, 40):
        _check(alh)
        cells = [(at, piece) for at, piece in alh.items() if at != ORIGIN]
        for at, _piece in reversed(cells):  # taken apart: the kept geometry follows
            copied = alh.copy()
            alh.remove(at)
            _check(alh)
            _check(copied)
            checked += 1
        for at, piece in cells:  # and built again
            alh.place(at, piece)
            _check(alh)
    assert checked > 200


def test_a_layered_alhambra_is_counted_as_before() -> None:
    """With layers (an edge wall, an overlay) the general count runs: the same answers."""
    report = _checked(_example("mauern"))
    layered = [
        p.alhambra
        for p in report.state.players
        if p.alhambra is not None and p.alhambra.layers is not None
    ]
    assert layered
    for alh in layered:
        _check(alh)
    for alh in _grids(2702, 10):
        _check(alh)


def _penalty_written_out(
    alh: Alhambra, direction: str, round_no: int, pieces: str
) -> tuple[int, str, str]:
    member = None if pieces == "all" else an._building_or_start
    main = _listed(alh, Side(direction), member)
    per = an.POINTS[round_no]
    points = main * per
    en = f"{main} open {direction} × {per}"
    de = f"{main} offen {direction} × {per}"
    if round_no == 3:
        for other in an.NEIGHBOURS[direction]:
            n = _listed(alh, Side(other), member)
            points += n * an.NEIGHBOUR_POINTS
            en += f" + {n} open {other} × {an.NEIGHBOUR_POINTS}"
            de += f" + {n} offen {other} × {an.NEIGHBOUR_POINTS}"
    return points, en, de


@pytest.mark.parametrize("pieces", ["all", "buildings"])
def test_attack_penalty_is_the_written_out_count(pieces: str) -> None:
    checked = 0
    for alh in _grids(2703, 25):
        for direction in an.DIRECTIONS:
            for round_no in (1, 2, 3):
                want = _penalty_written_out(alh, direction, round_no, pieces)
                assert an.attack_penalty(alh, direction, round_no, pieces) == want
                checked += 1
    assert checked == 25 * len(an.DIRECTIONS) * 3


def test_open_sides_text_is_counted_side_by_side() -> None:
    for alh in _grids(2704, 20):
        want = " ".join(f"{d}={_listed(alh, Side(d))}" for d in an.DIRECTIONS)
        assert an.open_sides_text(alh) == want


def test_farben_note_names_the_tile_as_fmt_tile() -> None:
    fa._TILE_CODE.clear()
    for tile in _tiles():
        for _ in range(2):  # the first time made, then read from the table
            code = fa._TILE_CODE.get(tile)
            if code is None:
                code = tile.code
                fa._TILE_CODE[tile] = code
            assert code == fmt_tile(tile)
    text = _example("farben")
    report = _checked(text)
    assert report.valid
    # every note kept in the example names its tile as fmt_tile does (or "?")
    data = report.state.modules["farben"]
    for _line, _over, _cols, tile, _used in data.pending.values():
        assert tile == "?" or tile in {fmt_tile(t) for t in _tiles_of_catalogue()}


def _tiles_of_catalogue() -> list[TileKind]:
    from referee.catalogue import catalogue

    return list(catalogue().tiles)


def _example(name: str) -> str:
    return (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")


def _checked(text: str) -> Any:
    (game,) = parse_text(text)
    return check_game(game)


def _outcome(text: str) -> tuple[object, ...]:
    report = _checked(text)
    return report.valid, repr(report.violations), repr([s.rows for s in report.scorings])


def _old_open_side_count(alh: Alhambra, side: Side, member: Any = None) -> int:
    return _listed(alh, side, member)


@pytest.mark.parametrize("name", ["angreifer", "farben", "wechselgeld"])
def test_the_examples_keep_their_verdicts_findings_and_scorings(name: str) -> None:
    """The example scored with the open sides counted by listing them and Farben's tile code
    read through ``fmt_tile`` each time: the same verdict, findings and rows."""
    text = _example(name)
    now = _outcome(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(q, "open_side_count", _old_open_side_count)
        mp.setattr(q, "open_side_counts", lambda alh, sides: [_listed(alh, s) for s in sides])
        fa._TILE_CODE.clear()
        mp.setattr(fa, "_TILE_CODE", _NeverKept())
        before = _outcome(text)
    assert now == before
    assert now[0]


class _NeverKept(dict):  # type: ignore[type-arg]
    """A table that keeps nothing: every note reads the tile's ``code``."""

    def __setitem__(self, key: object, value: object) -> None:
        return None


def _as_before(mp: pytest.MonkeyPatch) -> None:
    """The general answers: open sides listed, Farben's tile read through ``code`` each time."""
    mp.setattr(q, "open_side_count", _old_open_side_count)
    mp.setattr(q, "open_side_counts", lambda alh, sides: [_listed(alh, s) for s in sides])
    mp.setattr(fa, "_TILE_CODE", _NeverKept())


@pytest.mark.parametrize("module", ["angreifer", "farben"])
def test_simulated_games_keep_their_outcome(module: str) -> None:
    """Simulated games of the module (its attacks at every scoring, every purchase noted):
    the same verdict, findings and scoring rows (attack lines included) as the general path,
    and the same notes of the last purchases."""
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    for seed in range(2):
        text = simulate_text(3 + seed, 2710 + seed, profile, f"g {seed}", (module,))
        now = _outcome(text)
        notes = repr(getattr(_checked(text).state.modules.get(module), "pending", None))
        with pytest.MonkeyPatch.context() as mp:
            _as_before(mp)
            assert _outcome(text) == now
            assert repr(getattr(_checked(text).state.modules.get(module), "pending", None)) == notes
        assert "attack" in now[2] or module != "angreifer"
