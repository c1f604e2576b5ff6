"""``legal``: every legal cell for a tile, checked against the placement rules one cell at a time.

Rules: rulebook-base-de-2003.txt, "Alhambra-Bauregeln".
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, TileKind, catalogue
from referee.cli import cli
from referee.commands.legal import read_tile_option
from referee.engine.context import Context
from referee.engine.legal import cells_for
from referee.engine.state import GameState, PlayerState
from referee.geometry import Alhambra, placement_problems
from referee.record.model import Coord

TILES = catalogue().tiles


def legal_targets(alh: Alhambra, piece: TileKind) -> list[Coord]:
    """The cells the engine's legal-move generator offers (what ``legal`` shows)."""
    state = GameState(players=[PlayerState("Anna", 0, alhambra=alh)])
    cells = cells_for(Context(state), state.players[0], piece)
    return sorted(cells, key=lambda c: (-c.y, c.x))


BY_CODE = {k.full_code: k for k in TILES}


def brute_force(alh: Alhambra, piece: TileKind) -> list[Coord]:
    """Try every empty cell next to the Alhambra through the placement checks."""
    empty_neighbours = {
        c.neighbour(side) for c in alh.cells for side in SIDES if c.neighbour(side) not in alh.cells
    }
    ok = [c for c in empty_neighbours if not placement_problems(alh, c, piece)]
    return sorted(ok, key=lambda c: (-c.y, c.x))


@st.composite
def alhambras(draw: st.DrawFn) -> Alhambra:
    """A random Alhambra grown by legal placements (up to 14 different tiles)."""
    alh = Alhambra()
    n = draw(st.integers(0, 14))
    order = draw(st.permutations(TILES))  # each tile at most once, as in the game
    for tile in order[:n]:
        cells = sorted(
            (c.neighbour(s) for c in alh.cells for s in SIDES if c.neighbour(s) not in alh.cells),
            key=lambda c: (c.x, c.y),
        )
        ok = [c for c in dict.fromkeys(cells) if not placement_problems(alh, c, tile)]
        if ok:
            alh.place(draw(st.sampled_from(ok)), tile)
    return alh


@settings(max_examples=150, deadline=None)
@given(alhambras(), st.sampled_from(TILES))
def test_legal_agrees_with_the_placement_checks(alh: Alhambra, tile: TileKind) -> None:
    assert legal_targets(alh, tile) == brute_force(alh, tile)


def test_fountain_alone() -> None:
    # The fountain has no walls: a tile fits on a side only where it shows no wall.
    t10w = BY_CODE["T10w"]  # wall on the west side
    cells = legal_targets(Alhambra(), t10w)
    assert cells == [Coord(0, 1), Coord(-1, 0), Coord(0, -1)]  # not 1,0: its west wall


def test_read_tile_option() -> None:
    assert read_tile_option("T13") == BY_CODE["T13e"]
    assert read_tile_option("garten10N") == BY_CODE["G10n"]
    with pytest.raises(click.BadParameter, match="G10n"):
        read_tile_option("G10")
    with pytest.raises(click.BadParameter, match="no tower costing 14"):
        read_tile_option("T14")
    with pytest.raises(click.BadParameter, match="not a tile"):
        read_tile_option("@@")


def position_text(alh: Alhambra) -> str:
    placed = " ".join(f"{p.full_code}@{c.x},{c.y}" for c, p in alh.buildings())
    line = f"    alhambra {placed}\n" if placed else ""
    return f'[Players "Anna, Ben"]\nposition\n  next Anna\n  player Anna\n{line}end\n'


@settings(max_examples=25, deadline=None)
@given(alhambras(), st.sampled_from(TILES))
def test_legal_command_agrees_with_the_placement_checks(alh: Alhambra, tile: TileKind) -> None:
    """The command end to end: a position file in the notation, cells as JSON."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "position.alh"
        path.write_text(position_text(alh), encoding="utf-8")
        result = CliRunner().invoke(
            cli, ["legal", str(path), "--tile", tile.full_code, "--format", "json"]
        )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["player"] == "Anna"
    expected = [f"{c.x},{c.y}" for c in brute_force(alh, tile)]
    assert data["tiles"] == [
        {"tile": tile.code, "name": data["tiles"][0]["name"], "cells": expected}
    ]


def test_legal_text_marks_the_cells() -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "position.alh"
        path.write_text(position_text(Alhambra()), encoding="utf-8")
        result = CliRunner().invoke(
            cli, ["legal", str(path), "--tile", "T10w", "--lang", "de", "--color", "never"]
        )
    assert result.exit_code == 0
    assert "Erlaubte Felder für T10 (Turm 10): 0,1 -1,0 0,-1" in result.output
    assert result.output.count("+") == 3 + 1  # three cells and the legend
    assert "Alhambra-Bauregeln" in result.output
