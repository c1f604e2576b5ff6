"""Silent Die Bediensteten, Frische Farben, Die Obstgärten and Die Wünsche cheaper (issue 34,
twenty-fourth step).

* Die Bediensteten's penalty counts the buildings without a servant by
  ``count_without_servant``: while no servant stands in the Alhambra and every piece but the
  fountain is a catalogue tile, by C loops over the pieces; it equals
  ``len(without_servant(...))`` for every kind of piece, under both options, with and without
  servants;
* a one-pass placement asks no module's ``leaves_plain_placement`` once the engine knows that
  none must be asked (``Extensions.place_askers == ()``): the answers stay those of
  ``_modules_refine_here``;
* the module examples keep their verdicts and lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine import check_game
from referee.geometry import Alhambra
from referee.geometry.grid import ORIGIN, Fountain
from referee.modules import bedienstete as bed
from referee.notation import parse_text
from referee.record.model import Coord

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class P:
    """A piece that is no catalogue tile (a module's piece), with or without a type."""

    type: BuildingType | None
    walls: frozenset[Side]


def _tiles() -> list[TileKind]:
    return [TileKind(t, p, frozenset()) for t in BuildingType for p in (2, 5, 9)]


def _grids(seed: int, n: int, others: bool) -> list[Alhambra]:
    """``n`` random Alhambras around the fountain: catalogue tiles, and with ``others``
    some pieces that are no catalogue tile (with or without a type)."""
    rng = random.Random(seed)
    tiles = _tiles()
    out = []
    for k in range(n):
        alh = Alhambra()
        for _ in range(rng.randint(0, 25)):
            c = Coord(rng.randint(-3, 3), rng.randint(-3, 3))
            if c == ORIGIN or c in alh:
                continue
            if others and rng.random() < 0.2:
                piece: Any = P(rng.choice([*BuildingType, None]), frozenset())
            else:
                piece = rng.choice(tiles)
            alh.place(c, piece)
        if k % 7 == 3:  # the fountain replaced by one with a type (never so in a game)
            alh._cells[ORIGIN] = Fountain(type=BuildingType.PAVILION)
        out.append(alh)
    return out


@dataclass
class _Player:
    name: str
    alhambra: Alhambra
    reserve: list[object]


class _State:
    def __init__(self) -> None:
        self.modules: dict[str, Any] = {}


@pytest.mark.parametrize("buildings", ["typed", "base"])
@pytest.mark.parametrize("others", [False, True])
def test_count_without_servant_equals_the_list(buildings: str, others: bool) -> None:
    module = bed.Bedienstete()
    module.settings = {"buildings": buildings}
    fast = 0
    for k, alh in enumerate(_grids(11 + others, 80, others)):
        state = _State()
        player = _Player("Anna", alh, [])
        on: dict[Coord, BuildingType] = {}
        if k % 3 == 0:  # a servant on every second building of its colour
            on = {
                c: t
                for j, (c, piece) in enumerate(sorted(alh.items()))
                if j % 2 == 0 and (t := module.colour(piece)) is not None
            }
        module.data(state).on_tiles["Anna"] = dict(on)
        got = module.count_without_servant(state, player)  # type: ignore[arg-type]
        module.data(state).on_tiles["Anna"] = dict(on)
        want = len(module.without_servant(state, player))  # type: ignore[arg-type]
        assert got == want, (k, sorted(alh.items()))
        fast += not on and all(type(p) is TileKind for c, p in alh.items() if c != ORIGIN)
    assert fast >= 10  # the short way taken on many of them


def _checked(name: str) -> tuple[object, ...]:
    (game,) = parse_text((ROOT / "examples" / name).read_text(encoding="utf-8"))
    report = check_game(game)
    return report.valid, repr(report.violations), repr([s.rows for s in report.scorings])


def _count_before(self: bed.Bedienstete, state: Any, player: Any) -> int:
    return len(self.without_servant(state, player))


def test_the_servant_example_keeps_its_verdict_and_lines() -> None:
    now = _checked("module-bedienstete.alh")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bed.Bedienstete, "count_without_servant", _count_before)
        before = _checked("module-bedienstete.alh")
    assert now == before
    assert now[0] and now[1] == "[]"
    assert "'servants'" in now[2]
