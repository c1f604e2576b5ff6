"""Notation of the geometry layers (N1-N3, N11; docs/notation.md, "Edges, corners and
footprints"): an edge ``@x,y e``, a corner ``@x,y ne``, a piece's footprint in its token
(``gp:PSe``, ``wt:Tsw``), read alike by the fast reader and the Lark grammar, written by ``fmt``
as a fixed point and stated in position blocks (the test-only modules ``tests/plugins/geo_*``
read and write their lines)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from referee.engine import check_game
from referee.engine.extensions import MODULES, register_module
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import fast, parse_text
from referee.notation.formatter import format_game

PLUGINS = (
    ("plugins.geo_gate", "GeoGate"),
    ("plugins.geo_walls", "GeoWalls"),
    ("plugins.geo_falcon", "GeoFalcon"),
    ("plugins.geo_project", "GeoProject"),
    ("plugins.geo_tower", "GeoTower"),
)

HEAD = """[Players "Anna, Ben, Cem"]
[Modules "geo_gate, geo_walls, geo_falcon, geo_project, geo_tower"]

"""

POSITION = (
    HEAD
    + """position
  player Anna
    alhambra A8e@1,0 C9w@2,0 G10-@0,1 T12@-1,0 S9@-1,1 gp:PSs@-2,1 wt:Tne@0,-1
    gate @2,0 w
    wall @0,1 N
    falcon @0,1 sw
end
"""
)

TURNS = (
    HEAD
    + """* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
start Ben
1. Ben: gate @1,1 e, falcon fk:KTG @0,0 ne
2. Cem: project gp:PSe @1,0, tower wt:Tsw @2,1, wall @0,0 NE
"""
)


@pytest.fixture(autouse=True)
def geo_modules() -> Iterator[None]:
    for folder, cls_name in PLUGINS:
        register_module(getattr(importlib.import_module(folder), cls_name))
    yield
    for folder, _ in PLUGINS:
        MODULES.pop(folder.split(".")[1], None)


def test_the_fast_reader_and_the_grammar_read_edges_corners_and_footprints_alike() -> None:
    fast_game = parse_text(TURNS, "t.alh")[0]
    saved = fast.ENABLED
    fast.ENABLED = False
    try:
        lark_game = parse_text(TURNS, "t.alh")[0]
    finally:
        fast.ENABLED = saved
    assert not fast_game.errors and not lark_game.errors
    assert fast_game.body == lark_game.body
    gate = fast_game.body[-2].actions[0]
    assert [a.value for a in gate.args][1] == "e"
    project = fast_game.body[-1].actions[0]
    ref = project.args[0].value
    assert (ref.kind, ref.name) == ("gp", "PSe")  # type: ignore[union-attr]


def test_fmt_writes_the_layer_verbs_as_a_fixed_point() -> None:
    once = format_game(parse_text(TURNS, "t.alh")[0])
    assert "gate @1,1 e" in once and "falcon fk:KTG @0,0 ne" in once
    assert "tower wt:Tsw @2,1" in once
    assert format_game(parse_text(once, "t.alh")[0]) == once


def test_a_position_states_every_layer_and_reads_back_the_same() -> None:
    game = parse_text(POSITION, "p.alh")[0]
    assert check_game(game).violations == []
    state, found = state_at(game, At("end"))
    assert found == []
    text = position_text(state)
    # canonical forms: the north or east edge, the north-east corner; a two-cell piece once
    assert "    gate @1,0 e\n" in text
    assert "    falcon @-1,0 ne\n" in text
    assert "    wall @0,1 N\n" in text
    assert text.count("gp:PSs@") == 1
    again = parse_text(HEAD + text, "again.alh")[0]
    state2, found2 = state_at(again, At("end"))
    assert found2 == []
    assert position_text(state2) == text
    assert state2.players[0].alhambra == state.players[0].alhambra
    assert format_game(again) == HEAD + text


def test_a_position_without_the_gate_breaks_the_walker_rule() -> None:
    text = POSITION.replace("    gate @2,0 w\n", "")
    found = check_game(parse_text(text, "p.alh")[0]).violations
    assert [v.code for v in found] == ["POSITION-INVALID"]
    assert "2,0" in found[0].message("en")
