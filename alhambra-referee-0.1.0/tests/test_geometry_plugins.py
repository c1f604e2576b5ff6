"""The geometry platform proved by test-only modules (``tests/plugins/geo_*``, one folder each,
registered only here): a gate on an edge, walls added to tiles, a falcon on a corner, a
two-cell project and a half-cell watchtower with a diagonal wall. Each test names the rule it
exercises (rulebook-bigbox-de-2019.txt, the module's section; the plugins' docstrings quote
them)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from referee.catalogue import BuildingType, Side
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Extensions, register_module
from referee.engine.ruleset import Decision
from referee.engine.state import GameState, PlayerState
from referee.geometry import longest_outer_wall, reachable
from referee.geometry.pieces import Diagonal, Part
from referee.geometry.walls import chosen_longest, longest_runs
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, Pos

PLUGINS = (
    ("plugins.geo_gate", "GeoGate"),
    ("plugins.geo_walls", "GeoWalls"),
    ("plugins.geo_falcon", "GeoFalcon"),
    ("plugins.geo_project", "GeoProject"),
    ("plugins.geo_tower", "GeoTower"),
)
NAMES = [f.split(".")[1] for f, _ in PLUGINS]
ORIGIN = Coord(0, 0)
POS = Pos(line=7, column=1)


@pytest.fixture(autouse=True)
def geo_modules() -> Iterator[None]:
    for folder, cls_name in PLUGINS:
        register_module(getattr(importlib.import_module(folder), cls_name))
    yield
    for name in NAMES:
        MODULES.pop(name, None)


@dataclass(frozen=True)
class Block:
    walls: frozenset[Side] = frozenset()
    type: BuildingType | None = None


def walls(text: str) -> frozenset[Side]:
    return frozenset(Side(ch) for ch in text)


def game(*modules: str) -> tuple[GameState, PlayerState]:
    state = GameState(players=[PlayerState("Anna", 0)], ext=Extensions(list(modules)))
    return state, state.players[0]


def act(state: GameState, player: PlayerState, verb: str, *args: object) -> list[str]:
    before = len(state.found)
    handler = state.ext.verb_handler(verb)
    assert handler is not None
    handler.action(state, player, ModuleAction(verb, tuple(GenericArg(a) for a in args), POS))
    return [v.code for v in state.found[before:]]


def place_codes(state: GameState, player: PlayerState, at: Coord, piece: object) -> list[str]:
    found = Context(state).decide(Decision.PLACE_PROBLEMS, player=player, at=at, piece=piece)
    return [p.code for p in found]


def remove_codes(state: GameState, player: PlayerState, at: Coord) -> list[str]:
    found = Context(state).decide(Decision.REMOVE_PROBLEMS, player=player, at=at, piece=None)
    return [p.code for p in found]


# ------------------------------------------------------------------------------ the gate


def test_a_gate_makes_a_double_wall_passable_and_locks_its_tiles() -> None:
    # "Die Tore der Stadt": a tile joined only by a double wall, then the gate on it
    plain_state, plain = game()
    plain.alhambra.place(Coord(1, 0), Block(walls("E")))
    assert place_codes(plain_state, plain, Coord(2, 0), Block(walls("W"))) == ["PLACE-WALK"]

    state, anna = game("geo_gate")
    alh = anna.alhambra
    alh.place(Coord(1, 0), Block(walls("E")))
    assert place_codes(state, anna, Coord(2, 0), Block(walls("W"))) == []  # waits for the gate
    alh.place(Coord(2, 0), Block(walls("W")))
    assert Coord(2, 0) not in reachable(alh)
    assert act(state, anna, "gate", Coord(1, 0), "e") == []
    assert Coord(2, 0) in reachable(alh)
    # "Weder ein platziertes Stadttor noch die beiden darunter liegenden Gebäudeplättchen
    # dürfen umgebaut werden"
    assert remove_codes(state, anna, Coord(1, 0)) == ["REMOVE-LOCKED", "REMOVE-WALK"]
    assert remove_codes(state, anna, Coord(2, 0)) == ["REMOVE-LOCKED"]
    # later placements walk through the gate (the gate is used: no waiver any more)
    assert place_codes(state, anna, Coord(3, 0), Block()) == []
    # without the gate the same tile could not be reached
    alh.remove_edge(Coord(2, 0), Side.W)
    assert place_codes(state, anna, Coord(3, 0), Block()) == ["PLACE-WALK"]


def test_a_gate_stands_on_a_double_wall_only() -> None:
    state, anna = game("geo_gate")
    anna.alhambra.place(Coord(1, 0), Block(walls("E")))
    assert act(state, anna, "gate", ORIGIN, "e") == ["GEOGATE-EDGE"]  # open on both sides
    assert act(state, anna, "gate", Coord(1, 0), "e") == ["GEOGATE-EDGE"]  # no tile beyond
    assert act(state, anna, "gate", Coord(1, 0), "x") == ["GEOGATE-EDGE"]  # no side word


def test_the_gate_revalidates_the_whole_alhambra() -> None:
    # two tiles behind double walls; the gate opens the way to one of them only
    state, anna = game("geo_gate")
    alh = anna.alhambra
    alh.place(Coord(1, 0), Block(walls("E")))
    alh.place(Coord(2, 0), Block(walls("WS")))
    alh.place(Coord(2, -1), Block(walls("NW")))
    found = act(state, anna, "gate", Coord(1, 0), "e")
    assert found == ["LAYOUT-BROKEN"]
    v = state.found[-1]
    assert v.params["broken"] == "PLACE-WALK" and v.params["cells"] == "2,-1"
    assert "walker rule" in v.message("en") and "Fußgänger-Regel" in v.message("de")


# ------------------------------------------------------------------------ wall overlays


def test_walls_on_the_fountain_join_the_longest_wall() -> None:
    # "Die Mauern": also on the start tile; they count like printed walls
    state, anna = game("geo_walls")
    alh = anna.alhambra
    alh.place(Coord(1, 0), Block(walls("N")))
    assert longest_outer_wall(alh).length == 1
    assert act(state, anna, "wall", ORIGIN, "N") == []
    run = longest_outer_wall(alh)
    assert run.length == 2 and (ORIGIN, Side.N) in run.segments


def test_a_wall_never_covers_a_printed_wall_and_needs_a_tile() -> None:
    state, anna = game("geo_walls")
    anna.alhambra.place(Coord(1, 0), Block(walls("N")))
    assert act(state, anna, "wall", Coord(1, 0), "N") == ["GEOWALL-COVERED"]
    assert act(state, anna, "wall", Coord(5, 5), "N") == ["GEOWALL-NO-TILE"]


def test_a_wall_facing_an_open_side_breaks_the_building_rules() -> None:
    # "Auch nach dem Bauen einer Mauer muss die Alhambra gemäß den Bauregeln aufgebaut sein"
    state, anna = game("geo_walls")
    anna.alhambra.place(Coord(1, 0), Block())
    found = act(state, anna, "wall", ORIGIN, "E")
    assert found == ["LAYOUT-BROKEN", "LAYOUT-BROKEN"]
    broken = [v.params["broken"] for v in state.found]
    assert broken == ["PLACE-WALL", "PLACE-WALK"]


def test_added_walls_move_with_their_tile() -> None:
    state, anna = game("geo_walls")
    alh = anna.alhambra
    tile = Block(type=BuildingType.GARDEN)
    alh.place(Coord(1, 0), tile)
    act(state, anna, "wall", Coord(1, 0), "S")
    assert alh.remove(Coord(1, 0)) == tile
    alh.place(Coord(0, 1), tile)
    assert alh.overlay(Coord(0, 1)) == walls("S")
    assert (Coord(0, 1), Side.S) not in longest_outer_wall(alh).segments  # it faces the fountain


# ------------------------------------------------------------------------- the falcon


def _square(alh: object) -> None:
    for c in (Coord(1, 0), Coord(0, 1), Coord(1, 1)):
        alh.place(c, Block(type=BuildingType.GARDEN))  # type: ignore[attr-defined]


def test_a_falcon_stands_where_four_tiles_meet() -> None:
    state, anna = game("geo_falcon")
    _square(anna.alhambra)
    assert act(state, anna, "falcon", ORIGIN, "ne") == []
    assert act(state, anna, "falcon", Coord(1, 1), "sw") == ["GEOFALCON-CORNER"]  # taken
    assert act(state, anna, "falcon", Coord(1, 1), "ne") == ["GEOFALCON-CORNER"]  # 1 tile
    assert state.modules["geo_falcon"]["supply"] == 4


def test_a_falcon_goes_back_when_a_tile_under_it_is_redesigned() -> None:
    from referee.engine.actions.redesign import remove
    from referee.record.model import RemoveToReserve

    state, anna = game("geo_falcon")
    _square(anna.alhambra)
    act(state, anna, "falcon", ORIGIN, "ne")
    remove(Context(state), anna, RemoveToReserve(None, Coord(1, 1), POS), check=False)
    assert anna.alhambra.corner(ORIGIN) is None
    assert state.modules["geo_falcon"]["supply"] == 5


# ------------------------------------------------------------------------ the project


def test_a_two_cell_project_is_built_counted_and_removed_as_one() -> None:
    state, anna = game("geo_project")
    alh = anna.alhambra
    assert act(state, anna, "project", ComponentRef("gp", "PSe"), Coord(1, 0)) == []
    assert isinstance(alh.get(Coord(2, 0)), Part)
    counts = alh.counts()
    assert counts[BuildingType.PAVILION] == 1 and counts[BuildingType.SERAGLIO] == 1
    assert len(alh.pieces()) == 1
    # its second cell occupied: the whole piece is refused
    assert act(state, anna, "project", ComponentRef("gp", "GCn"), Coord(2, -1)) == [
        "PLACE-OCCUPIED"
    ]
    # "zählt beim Umbau als ein Plättchen": removing either cell frees both
    piece = alh.remove(Coord(2, 0))
    assert str(piece) == "gp:PSe" and Coord(1, 0) not in alh and Coord(2, 0) not in alh


def test_a_project_is_judged_on_both_cells_at_once() -> None:
    state, anna = game("geo_project")
    alh = anna.alhambra
    alh.place(Coord(1, 0), Block(walls("N")))
    # the anchor touches nothing, the second cell the fountain: allowed as one piece
    assert act(state, anna, "project", ComponentRef("gp", "PSs"), Coord(0, 2)) == []
    # a project whose cell meets a wall with an open side
    assert act(state, anna, "project", ComponentRef("gp", "GCe"), Coord(0, -1)) == []
    found = act(state, anna, "project", ComponentRef("gp", "TAw"), Coord(2, 1))
    assert found == ["PLACE-WALL"]


# ------------------------------------------------------------------------- the tower


def _tower_ground(state: GameState, anna: PlayerState) -> None:
    alh = anna.alhambra
    alh.place(Coord(0, -1), Block(type=BuildingType.TOWER))
    alh.place(Coord(1, -1), Block(walls("E"), BuildingType.TOWER))


def test_a_watchtower_has_a_diagonal_wall_that_joins_the_outer_wall() -> None:
    state, anna = game("geo_tower", "geo_walls")
    _tower_ground(state, anna)
    assert act(state, anna, "tower", ComponentRef("wt", "Tsw"), Coord(1, 0)) == []
    alh = anna.alhambra
    run = longest_outer_wall(alh)
    assert run.length == 2
    assert (Coord(1, 0), Diagonal.NW_SE) in run.segments
    # a wooden wall on the fountain's north side joins the diagonal at its other end
    act(state, anna, "wall", ORIGIN, "N")
    run = longest_outer_wall(alh)
    assert run.segments == (
        (ORIGIN, Side.N),
        (Coord(1, 0), Diagonal.NW_SE),
        (Coord(1, -1), Side.E),
    )
    assert longest_outer_wall(alh, "simple-path").length == 3


def test_nothing_may_be_built_on_the_long_side_of_a_watchtower() -> None:
    state, anna = game("geo_tower")
    _tower_ground(state, anna)
    act(state, anna, "tower", ComponentRef("wt", "Tsw"), Coord(1, 0))
    assert place_codes(state, anna, Coord(1, 1), Block()) == ["PLACE-CLOSED"]
    assert place_codes(state, anna, Coord(0, 1), Block()) == []
    assert remove_codes(state, anna, Coord(1, 0)) == ["REMOVE-LOCKED"]


def test_a_watchtower_touches_its_colour_with_a_short_side() -> None:
    state, anna = game("geo_tower")
    _tower_ground(state, anna)
    found = act(state, anna, "tower", ComponentRef("wt", "Gsw"), Coord(1, 0))
    assert found == ["GEOTOWER-COLOUR"]
    # a short side (an open side) meeting a wall breaks the base rule
    state2, ben = game("geo_tower")
    ben.alhambra.place(Coord(0, -1), Block(type=BuildingType.TOWER))
    ben.alhambra.place(Coord(1, -1), Block(walls("N"), BuildingType.TOWER))
    found = act(state2, ben, "tower", ComponentRef("wt", "Tsw"), Coord(1, 0))
    assert found == ["PLACE-WALL"]


def test_the_player_chooses_among_equally_long_longest_walls() -> None:
    # E25 / Wachtürme: "Besitzt ein Spieler mehrere gleichlange längste Mauerabschnitte,
    # wählt er einen davon aus, den er wertet"
    from referee.geometry import Alhambra

    alh = Alhambra([(Coord(1, 0), Block(walls("N"))), (Coord(-1, 0), Block(walls("S")))])
    runs = longest_runs(alh)
    # both one segment long, in reading order
    assert [r.segments for r in runs] == [((Coord(-1, 0), Side.S),), ((Coord(1, 0), Side.N),)]
    chosen = chosen_longest(alh, (Coord(1, 0), Side.N))
    assert chosen is not None and chosen.segments == ((Coord(1, 0), Side.N),)
    assert chosen_longest(alh, (Coord(5, 5), Side.N)) is None


# ------------------------------------------------------------------- through the engine

RECORD = """[Players "Anna, Ben, Cem"]
[Modules "geo_gate"]

position
  market Gu:C9w Di:- De:- Du:-
  display Gu1 Di4 De6 Du2
  player Anna
    hand Gu9
    alhambra A8e@1,0
  player Ben
    hand
  player Cem
    hand
  next Anna
end
1. Anna: buy Gu C9w pay Gu9, place C9w@2,0{gate}
"""


@pytest.mark.parametrize(
    ("gate", "expected"),
    [
        (", gate @1,0 e", []),  # the gate on the new double wall: the walker passes
        ("", ["GEOGATE-MISSING"]),  # the walk rule waited for a gate that never came
        (", gate @2,0 n", ["GEOGATE-EDGE", "GEOGATE-MISSING"]),  # not on a double wall
    ],
)
def test_a_record_places_a_tile_behind_a_double_wall_and_its_gate(
    gate: str, expected: list[str]
) -> None:
    from referee.engine import check_game
    from referee.notation import parse_text

    game = parse_text(RECORD.format(gate=gate), "gate.alh")[0]
    assert not game.errors
    found = check_game(game).violations
    assert [v.code for v in found] == expected
    if expected:
        assert "2,0" in found[-1].message("en") and "Tor" in found[-1].message("de")


@pytest.mark.parametrize(
    ("modules", "players"), [("geo_walls, geo_falcon", 4), ("geo_project, geo_tower", 2)]
)
def test_the_simulator_plays_the_geometry_modules(modules: str, players: int) -> None:
    from referee.engine import check_game
    from referee.notation import parse_text
    from referee.simulate.simulator import simulate_text

    names = [m.strip() for m in modules.split(",")]
    text = simulate_text(players, 4, modules=names)
    game = parse_text(text, "sim.alh")[0]
    assert check_game(game).violations == []
    verbs = {
        "geo_walls": " wall @",
        "geo_falcon": " falcon @",
        "geo_project": " project gp:",
        "geo_tower": " tower wt:",
    }
    for name in names:  # every module's verb is played
        assert verbs[name] in text, name


def _without_first_owed_gate(text: str) -> tuple[str, int] | None:
    """The record with the first gate that directly follows a placement left out, and the
    line it stood on (None: no such gate)."""
    import re

    gate = re.compile(r"(, place [^,]*@-?\d+,-?\d+(?:\{[^}]*\})?), gate @-?\d+,-?\d+ [nesw]")
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if gate.search(line):
            return "".join([*lines[:i], gate.sub(r"\1", line, count=1), *lines[i + 1 :]]), i + 1
    return None


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_simulator_plays_the_gate_a_placement_waits_for(players: int) -> None:
    # "Die Tore der Stadt": a tile joined only through double walls is placed, and the gate
    # follows in the same turn ("und damit ist die Fußgänger-Regel wieder erfüllt"); the
    # simulator asks the engine what is owed (``owed_actions``) right after each placement
    from referee.engine import check_game
    from referee.notation import format_games, parse_text
    from referee.simulate.simulator import simulate_text

    owed = 0
    for seed in (1, 2):
        text = simulate_text(players, seed, modules=["geo_gate"])
        games = parse_text(text, "sim.alh")
        assert not games[0].errors
        assert check_game(games[0]).violations == []
        assert format_games(games) == text  # a fmt fixed point
        assert " gate @" in text
        cut = _without_first_owed_gate(text)
        if cut is None:
            continue
        # without that gate its turn breaks the walk rule: the gate was owed, not chosen
        found = check_game(parse_text(cut[0], "cut.alh")[0]).violations
        if found and found[0].code == "GEOGATE-MISSING":
            assert found[0].line == cut[1]
            owed += 1
    assert owed > 0
