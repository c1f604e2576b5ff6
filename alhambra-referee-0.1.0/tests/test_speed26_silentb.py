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
* Frische Farben's note of a one-pass purchase and Die Obstgärten's default laying of a bought
  fruit are the same as their former forms (the examples, and Farben under ``column=paid``);
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
from referee.engine.fmt import fmt_tile
from referee.geometry import Alhambra
from referee.geometry.grid import ORIGIN, Fountain
from referee.modules import bedienstete as bed
from referee.modules import farben as fa
from referee.modules import obstgaerten as ob
from referee.notation import parse_text
from referee.record.model import Coord
from tests.conftest import PATCHES_ENGINE

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
            alh.cells[ORIGIN] = Fountain(type=BuildingType.PAVILION)
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


@PATCHES_ENGINE  # (and hands the compiled function a stand-in state)
def test_the_place_askers_shortcut_gives_the_same_answers() -> None:
    """With every refining module's promise made (``place_askers == ()``) the one-pass
    placement's shortcut and ``_modules_refine_here`` agree: both let the placement through."""
    from referee.engine.actions import building

    calls: list[object] = []
    real = building._modules_refine_here

    def spy(*args: Any) -> bool:
        got = real(*args)
        calls.append(got)
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(building, "_modules_refine_here", spy)
        now = _checked("module-bedienstete.alh")
    # the general question, where it is still asked, says no refinement every time here
    assert all(c is False for c in calls)
    assert now[0] and now[1] == "[]"
    # and with the askers known and none, its answer is the shortcut's: no refinement
    from types import SimpleNamespace

    from referee.engine.ruleset import Decision

    state = SimpleNamespace(
        rules=SimpleNamespace(refined={Decision.PLACE_PROBLEMS}),
        ext=SimpleNamespace(place_askers=()),
    )
    tile = _tiles()[0]
    assert real(state, None, Coord(1, 0), tile) is False  # type: ignore[arg-type]


def _farben_note_before(self: fa.Farben, state: Any, buy: Any) -> None:
    cols = {buy.field}
    if self.option("column") == "paid":
        cols |= {c.currency for c in buy.cards if c.currency in buy.allowed}
    data = self.data(state)
    data.pending[buy.player.name] = (
        buy.action.pos.line,
        buy.overpaid,
        frozenset(cols),
        fmt_tile(buy.tile),
        False,
    )
    data.idle_start = data.idle_end = False


def _lay_before(self: ob.Obstgaerten, state: Any, name: str, data: Any) -> None:
    held = data.pending.pop(name, None)
    data.planned = None
    data.idle_end = not data.pending
    board = data.boards.get(name)
    if board is None:
        return
    fields = data.fields
    if not held:
        if name not in fields:
            fields[name] = {}
        return
    kinds = ob._kinds_of(data, board)
    data.used.add(board)
    taken = fields.setdefault(name, {})
    for k in held:
        free = ob._free_field(kinds, taken, k) if k is not None else None
        if free is not None and k is not None:
            taken[free] = k
        else:
            data.face_down[name] = data.face_down.get(name, 0) + 1


def _checked_text(text: str) -> tuple[object, ...]:
    (game,) = parse_text(text)
    report = check_game(game)
    return report.valid, repr(report.violations), repr([s.rows for s in report.scorings])


@pytest.mark.parametrize(
    ("name", "header", "patch"),
    [
        ("farben", "", (fa.Farben, "after_plain_purchase", _farben_note_before)),
        ("farben", " column=paid", (fa.Farben, "after_plain_purchase", _farben_note_before)),
        ("obstgaerten", "", (ob.Obstgaerten, "_lay_default", _lay_before)),
    ],
)
def test_the_examples_keep_their_verdicts_and_lines(
    name: str, header: str, patch: tuple[Any, str, Any]
) -> None:
    text = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    text = text.replace(f'[Modules "{name}"]', f'[Modules "{name}{header}"]')
    assert header in text
    now = _checked_text(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(*patch)
        before = _checked_text(text)
    assert now == before
    if not header:
        assert now[0] and now[1] == "[]"
