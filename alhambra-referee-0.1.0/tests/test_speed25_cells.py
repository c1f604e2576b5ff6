"""The legal cells of a piece in one batch (issue 34, twenty-third step, helper cells).

The legal-move generator's ``cells_for`` answers "every cell where this piece may enter"; while
a module refines ``place.problems`` it asked the whole chain cell by cell. Now:

* a catalogue tile placed or built from the reserve is judged in one batch: a cell every
  refining module leaves alone (``Module.leaves_plain_placement``) takes the base rules' answer
  from ``legal_cells`` (worked out once), the others are asked as before;
* on the general path (a layered Alhambra) ``legal_cells`` judges a catalogue tile's sides
  before it copies the Alhambra for the rest of the building rules.

Both answers equal the per-cell questions' for every call made while simulating contract games
of the modules refining ``place.problems`` (and a game with two-cell pieces), per piece,
orientation and way (place, build).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine import legal
from referee.engine.context import Context
from referee.engine.ruleset import Decision
from referee.geometry import general
from referee.modules.feldlager import Feldlager
from referee.profiles import load_profile
from referee.record.model import Coord
from referee.simulate.simulator import simulate_game

_PROFILES = ("queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga")

GAMES: tuple[tuple[tuple[str, ...], int], ...] = (
    (("feldlager",), 0),
    (("stadttore",), 0),
    (("wachtuerme",), 0),
    (("bedienstete",), 0),
    (("grossprojekte",), 0),
    (("stadttore", "feldlager", "mauren"), 3),
)
"""Contract games (players, seed, profile as ``shared_store_support.contract_game``) whose
simulation asks ``cells_for`` under a ``place.problems`` refinement or on the general path."""


def _per_cell(ctx: Context, p: Any, piece: Any, how: str) -> list[Any]:
    """``cells_for``'s answer before the batch: the whole chain asked cell by cell."""
    return [
        at
        for at in legal._frontier(p, piece)
        if not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=at, piece=piece, how=how)
    ]


def _each_cell(alh: Any, piece: Any) -> list[Any]:
    """``general.legal_cells`` before the side pre-check."""
    return [
        c for c in general.frontier(alh, piece) if not general.placement_problems(alh, c, piece)
    ]


def _compare(games: tuple[tuple[tuple[str, ...], int], ...]) -> dict[str, int]:
    """Simulate ``games``, comparing each batched answer with the per-cell one as it is
    asked; counts of the comparisons made."""
    seen = {"tile": 0, "asked": 0, "general": 0, "general-tile": 0}
    real_tile, real_general = legal._tile_cells, general.legal_cells
    bad: list[str] = []

    def tile_cells(ctx: Context, p: Any, tile: Any, how: str) -> list[Any]:
        got = real_tile(ctx, p, tile, how)
        want = _per_cell(ctx, p, tile, how)
        if got != want:
            bad.append(f"cells_for {tile} {how}: {got} != {want}")
        seen["tile"] += 1
        askers = ctx.state.ext.placement_askers()
        if any(
            not m.leaves_plain_placement(ctx.state, p, at, tile)
            for at in legal._frontier(p, tile)
            for m in askers
        ):
            seen["asked"] += 1
        return got

    def general_cells(alh: Any, piece: Any) -> list[Any]:
        got = real_general(alh, piece)
        want = _each_cell(alh, piece)
        if got != want:
            bad.append(f"legal_cells {piece}: {got} != {want}")
        seen["general"] += 1
        seen["general-tile"] += type(piece).__name__ == "TileKind"
        return got

    legal._tile_cells = tile_cells  # type: ignore[assignment]
    general.legal_cells = general_cells  # type: ignore[assignment]
    try:
        for modules, k in games:
            simulate_game(
                2 + k % 5,
                1000 + k,
                load_profile(_PROFILES[k % 4]),
                f"contract {modules[0]} {k}",
                modules,
            )
    finally:
        legal._tile_cells = real_tile  # type: ignore[assignment]
        general.legal_cells = real_general  # type: ignore[assignment]
    assert not bad, bad[:5]
    return seen


@pytest.fixture(scope="module")
def compared() -> dict[str, int]:
    return _compare(GAMES)


def test_batched_tile_cells_equal_the_per_cell_question(compared: dict[str, int]) -> None:
    assert compared["tile"] > 50  # catalogue tiles placed or built under a refinement
    assert compared["asked"] > 0  # some of them with a module that does not leave a cell alone


def test_general_legal_cells_equal_each_cells_trial(compared: dict[str, int]) -> None:
    assert compared["general-tile"] > 20  # the side pre-check's case
    assert compared["general"] > compared["general-tile"]  # and special pieces (no pre-check)


def test_feldlager_judges_only_camps_entering() -> None:
    """``Feldlager.placements_by_pieces``: its refinement returns what it is given for a
    catalogue tile entering (only a camp is judged), so the one-pass placement and the batch
    need not ask it (``tests/test_module_dispatch.py`` compares the one-pass placement with the
    chain over the module's example)."""
    assert Feldlager.placements_by_pieces
    given: list[Any] = []
    tile = TileKind(BuildingType.GARDEN, 8, frozenset({Side.N}))
    for how in ("place", "build"):
        got = Feldlager.camps_lean_on_walls(
            None,  # type: ignore[arg-type]
            None,
            given,
            player=None,
            at=Coord(1, 0),
            piece=tile,
            how=how,
        )
        assert got is given
