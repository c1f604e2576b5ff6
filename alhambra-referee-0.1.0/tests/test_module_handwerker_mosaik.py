"""Die Wanderhandwerker, the Mosaikleger (``referee/modules/handwerker.py``):
rulebook-bigbox-de-2019.txt § Klaus-Jürgen Wrede: Die Wanderhandwerker, "Die einzelnen
Handwerker" (L3128-3129):

    "Mosaikleger: Erlaubt es, 1 Gebäude (auch aus der Reserve) beliebig gedreht einzubauen."

``mosaikleger C7ne sw`` names a building bought this turn (not yet placed) or one of the
reserve and its walls as it will lie; the placement or the build from the reserve that follows
places it so. The tile stays the printed C7ne (supply, scoring type, price); C7ne turned has
the walls of another catalogue tile (C7sw), which stays in the supply. Each test quotes the
sentence it tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.catalogue import Side, TileKind
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.state import GameState
from referee.engine.walk import At, state_at
from referee.geometry.walls import longest_outer_wall
from referee.modules.handwerker import TurnedTile
from referee.notation import format_game, parse_text
from referee.record.model import Coord, Game

RULE = '"Erlaubt es, 1 Gebäude (auch aus der Reserve) beliebig gedreht einzubauen." (L3128-3129)'
MOSAIC = "craftsmen hw:mosaikleger hw:schreiner"
WEST = Coord(-1, 0)  # C7ne there: its wall E meets the fountain's open side; turned sw it fits
BUY = "buy Du C7ne pay Du5 Du3"
NO_C7NE = "Gu:G11- Di:T11n De:P7e Du:G7"  # a market without the C7ne (it lies with Anna)


def make(
    body: str,
    anna: str = MOSAIC,
    build: str = "",
    reserve: str = "",
    market: str = "Gu:G11- Di:T11n De:P7e Du:C7ne",
    modules: str = "handwerker",
) -> Game:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market {market}
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Gu9
    {f"reserve {reserve}" if reserve else ""}
    {f"alhambra {build}" if build else ""}
    {anna}
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:moertelmischer hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
{body}"""
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0]


def run(body: str, **kw: str) -> GameReport:
    return check_game(make(body, **kw))


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def reasons(rep: GameReport) -> list[tuple[str, Any]]:
    return [(v.code, v.reason) for v in rep.violations]


def clean(rep: GameReport) -> None:
    assert rep.violations == [], [v.message() for v in rep.violations]


def end(body: str, **kw: str) -> GameState:
    state, _ = state_at(make(body, **kw), At("end"))
    return state


def anna_at(state: GameState, at: Coord) -> object:
    return state.players[0].alhambra.get(at)


def c7ne() -> TileKind:
    return next(t for t in _tiles() if t.code == "C7ne")


def _tiles() -> tuple[TileKind, ...]:
    from referee.catalogue import catalogue

    return tuple(catalogue().tiles)


# ---------------------------------------------------------------- "beliebig gedreht einzubauen"


def test_a_bought_building_turned_fits_where_the_printed_one_does_not() -> None:
    """Mosaikleger: "Erlaubt es, 1 Gebäude ... beliebig gedreht einzubauen." The bought C7ne
    (walls n, e) cannot lie west of the fountain (its wall e meets the fountain's open side);
    turned to s, w it fits."""
    turned = run(f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n")
    clean(turned)
    state = turned.state
    assert state is not None
    piece = anna_at(state, WEST)
    assert isinstance(piece, TurnedTile)
    assert piece.walls == frozenset({Side.S, Side.W})
    assert piece.carried_tile == c7ne() and piece.type == c7ne().type and piece.price == 7
    plain = run(f"1. Anna: {BUY}, place C7ne@-1,0, handover hw:schreiner\n")
    assert "PLACE-WALL" in codes(plain)
    assert anna_at(end(f"1. Anna: {BUY}, place C7ne@-1,0, handover hw:schreiner\n"), WEST) == c7ne()


def test_the_turned_walls_must_fit_the_building_rules() -> None:
    """The building rules judge the building as turned ("gedreht einzubauen": built in, so
    the Bauregeln apply): C7ne turned to e, s still meets the fountain with a wall."""
    rep = run(f"1. Anna: {BUY}, mosaikleger C7ne es, place C7ne@-1,0, handover hw:mosaikleger\n")
    assert "PLACE-WALL" in codes(rep)


def test_only_a_rotation_of_the_printed_walls() -> None:
    """ "beliebig gedreht": turned, never with other walls (C7ne has two walls at a corner)."""
    for word in ("n", "ns", "nesw", "q", "nn"):
        rep = run(
            f"1. Anna: {BUY}, mosaikleger C7ne {word}, place C7ne@1,0, handover hw:mosaikleger\n"
        )
        assert ("HANDWERKER-ARGS", "mosaic-walls") in reasons(rep), word
        v = next(v for v in rep.violations if v.reason == "mosaic-walls")
        assert "ne, es, sw, nw" in v.message()
        assert "Mosaikleger" in v.message("de") and "gedreht" in v.message("de")


def test_the_building_must_be_bought_this_turn_or_in_the_reserve() -> None:
    """ "1 Gebäude (auch aus der Reserve)": a building of this turn's purchases not yet placed,
    or one of the reserve; not one still on the market, not one already placed."""
    before = run("1. Anna: mosaikleger C7ne sw, take Gu4, handover hw:mosaikleger\n")
    assert ("HANDWERKER-ARGS", "mosaic-tile") in reasons(before)
    msg = next(v for v in before.violations if v.reason == "mosaic-tile")
    assert "C7ne" in msg.message() and "Reserve" in msg.message("de")
    placed = run(f"1. Anna: {BUY}, place C7ne@1,0, mosaikleger C7ne sw, handover hw:mosaikleger\n")
    assert ("HANDWERKER-ARGS", "mosaic-tile") in reasons(placed)


def test_one_building_one_turn_only() -> None:
    """ "1 Gebäude": one ability a turn ("die besondere Fähigkeit eines seiner beiden offen
    ausliegenden Handwerker", L3097-3099), so a second turned building is refused (the
    record is then followed as played, as for every refused line)."""
    body = (
        f"1. Anna: {BUY}, mosaikleger C7ne sw, mosaikleger A8n s, place C7ne@-1,0, "
        "handover hw:mosaikleger\n"
    )
    rep = run(body, reserve="A8n")
    assert codes(rep) == ["ABILITY-LIMIT"]
    assert isinstance(anna_at(end(body, reserve="A8n"), WEST), TurnedTile)


def test_without_the_mosaikleger_open_the_turn_is_refused() -> None:
    """Only an open craftsman's ability may be used (L3097-3099)."""
    rep = run(
        f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:schreiner\n",
        anna="craftsmen hw:goldschmied hw:schreiner",
    )
    assert "HANDWERKER-NOT-OPEN" in codes(rep)


def test_a_building_of_the_reserve_turned() -> None:
    """ "(auch aus der Reserve)": the reserve's C7ne built in turned by the turn's redesign."""
    turned = run(
        "1. Anna: mosaikleger C7ne sw, build C7ne@-1,0, handover hw:mosaikleger\n",
        reserve="C7ne",
        market=NO_C7NE,
    )
    clean(turned)
    assert isinstance(anna_at(turned.state, WEST), TurnedTile)  # type: ignore[arg-type]
    plain = run("1. Anna: build C7ne@-1,0, handover hw:schreiner\n", reserve="C7ne", market=NO_C7NE)
    assert "PLACE-WALL" in codes(plain)


def test_a_swap_from_the_reserve_turned() -> None:
    """A redesign's swap builds the reserve's building in too ("einzubauen")."""
    rep = run(
        "1. Anna: mosaikleger C7ne sw, swap C7ne@-1,0 for A8n, handover hw:mosaikleger\n",
        reserve="C7ne",
        build="A8n@-1,0",
        market=NO_C7NE,
    )
    assert "PLACE-WALL" not in codes(rep), [v.message() for v in rep.violations]
    assert isinstance(anna_at(rep.state, WEST), TurnedTile)  # type: ignore[arg-type]


# ---------------------------------------------------------------- still the printed tile


def test_the_turned_tile_is_the_printed_one_in_the_supply() -> None:
    """C7ne turned to s, w has the walls of C7sw, another tile of the supply: the turned tile
    is still C7ne (bought once), so C7ne cannot turn up again and C7sw still can ("Die
    Gebäudeplättchen" are each one tile)."""
    turn = f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n"
    again = run(turn + "* market Du:C7ne\n")
    assert "TILE-SUPPLY" in codes(again)
    other = run(turn + "* market Du:C7sw\n")
    clean(other)


def test_the_turned_walls_count_for_the_longest_wall() -> None:
    """The walls as the building lies score ("die längste zusammenhängende Stadtmauer"): C7ne
    turned to n, w beside A8n (wall n) makes an outer wall of 3; as printed (n, e) its wall e
    would lie inside, against A8n."""
    rep = run(
        f"1. Anna: {BUY}, mosaikleger C7ne nw, place C7ne@-1,1, handover hw:mosaikleger\n",
        build="A8n@0,1",
    )
    clean(rep)
    state = rep.state
    assert state is not None
    assert longest_outer_wall(state.players[0].alhambra).length == 3


def test_moved_to_the_reserve_it_is_the_printed_tile_again() -> None:
    """Reading: the turn belongs to building it in ("gedreht einzubauen"); taken out by a
    redesign the building lies in the reserve as printed, and building it again turned needs
    the Mosaikleger again."""
    turn = f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n"
    out = turn + "2. Ben: take Du8, handover hw:moertelmischer\n"
    out += "3. Cem: take Gu2, handover hw:schmied\n"
    out += "4. Anna: remove C7ne@-1,0, handover hw:schreiner\n"
    state = end(out)
    assert state.players[0].reserve == [c7ne()]
    rep = run(
        out + "5. Ben: take Di5, handover hw:bauherr\n6. Cem: take Gu2, handover hw:muenzer\n"
        "7. Anna: build C7ne@-1,0, handover hw:mosaikleger\n"
    )
    assert "PLACE-WALL" in codes(rep)


def test_a_turned_building_not_built_is_the_printed_tile_in_the_reserve() -> None:
    """The Mosaikleger used and the building put into the reserve: the craftsman is used
    (passed on), the building lies there as printed."""
    rep = run(f"1. Anna: {BUY}, mosaikleger C7ne sw, reserve C7ne, handover hw:mosaikleger\n")
    clean(rep)
    assert rep.state is not None and rep.state.players[0].reserve == [c7ne()]


# ---------------------------------------------------------------- positions, replays


def test_position_round_trip() -> None:
    """``show --format record`` writes the printed tile in the Alhambra line and
    ``mosaikleger C7ne sw`` in the player's section; read back, the same table."""
    rep = run(f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n")
    state = rep.state
    assert state is not None
    text = position_text(state)
    assert "alhambra C7ne@-1,0" in text and "mosaikleger C7ne sw" in text
    again = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "handwerker"]\n\n' + text)[0]
    state2, found = state_at(again, At("end"))
    assert found == []
    assert position_text(state2) == text
    assert anna_at(state2, WEST) == anna_at(state, WEST)
    assert format_game(again) == format_game(parse_text(format_game(again))[0])


@pytest.mark.parametrize(
    ("line", "ok"),
    [("mosaikleger C7ne sw", True), ("mosaikleger C7ne n", False), ("mosaikleger A8n s", False)],
)
def test_a_position_states_a_turned_building(line: str, ok: bool) -> None:
    """A position names the printed tile of its Alhambra and the walls it lies with; a tile
    not there or walls that are no rotation of it are ``HANDWERKER-TURNED``."""
    rep = run("", anna=f"{MOSAIC}\n    {line}", build="C7ne@-1,0", market=NO_C7NE)
    if ok:
        clean(rep)
        assert isinstance(anna_at(rep.state, WEST), TurnedTile)  # type: ignore[arg-type]
    else:
        assert "HANDWERKER-TURNED" in codes(rep)
        v = next(v for v in rep.violations if v.code == "HANDWERKER-TURNED")
        assert "L3128-3129" in v.message() and "gedreht" in v.message("de")


def test_a_trusted_replay_ends_in_the_same_state() -> None:
    """``check_verb`` only checks, ``action`` only changes: a replay without checks ends the
    same."""
    from tests.test_module_trusted_replay import end_state, picture

    game = make(
        f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n"
        "2. Ben: take Du8, handover hw:moertelmischer\n"
    )
    assert picture(end_state(game, True)) == picture(end_state(game, False))


def test_other_modules_see_the_turned_building_as_a_building() -> None:
    """A turned building is an "eingebautes Gebäude" of its type for the other modules: a
    treasure chest may lie on it (Die Schatzkammer: the free buildings of its colour) and it
    makes a key's half building count (Schlüssel zum Tor: "Wirkt nur bei mindestens 1
    eingebautem Gebäude des Typs"); only a building site (Baustellen) is no building."""
    anna = f"{MOSAIC}\n    mosaikleger C7ne sw"
    game = make(
        "", anna=anna, build="C7ne@-1,0", market=NO_C7NE, modules="handwerker, schatzkammer"
    )
    state, found = state_at(game, At("end"))
    assert [f for f in found if f.severity == "error"] == []
    player = state.players[0]
    assert isinstance(player.alhambra.get(WEST), TurnedTile)
    chests = next(m for m in state.ext.modules if type(m).__name__ == "Schatzkammer")
    assert chests.free_cells(state, player, "C") == [WEST]  # type: ignore[attr-defined]
    keys = make("", anna=anna, build="C7ne@-1,0", market=NO_C7NE, modules="handwerker, schluessel")
    state, _ = state_at(keys, At("end"))
    module = next(m for m in state.ext.modules if type(m).__name__ == "Schluessel")
    module.data(state).halves["Anna"] = ["C"]  # type: ignore[attr-defined]
    parts = module.scoring_parts(state, 1)
    assert parts is not None
    assert any(a.type.code == "C" for a in parts.adjustments["Anna"])


# ---------------------------------------------------------------- legal moves, the simulator


def _legal_mosaic(line: str, done: int, **kw: str) -> tuple[GameState, list[Any]]:
    """The state inside turn 1 (``line``) after its first ``done`` actions, and the
    Mosaikleger moves the generator offers there."""
    from referee.engine import apply_action
    from referee.engine.legal import legal_actions
    from referee.engine.walk import walk
    from referee.record.model import Turn

    state: GameState | None = None
    before: GameState | None = None
    for step in walk(make(line, **kw), finish=False):
        if isinstance(step.item, Turn) and before is not None:
            state = before.copy()
            for a in step.item.actions[:done]:
                apply_action(state, a)
            break
        before = step.state
    assert state is not None
    return state, [a for a in legal_actions(state) if getattr(a, "verb", "") == "mosaikleger"]


def test_legal_moves_turn_a_reserve_building_or_a_bought_one() -> None:
    """The generator offers each rotation but the printed one: for the reserve's buildings
    before the turn's first action ("auch aus der Reserve"), for a building bought and not
    yet placed after the purchase; each is accepted."""
    from referee.engine import check_action
    from referee.notation.formatter import action as written
    from tests.test_legal_generator import _errors

    line = "1. Anna: take Gu4, handover hw:schreiner\n"
    state, moves = _legal_mosaic(line, 0, reserve="C7ne", market=NO_C7NE)
    assert sorted(written(a) for a in moves) == [
        "mosaikleger C7ne es",
        "mosaikleger C7ne nw",
        "mosaikleger C7ne sw",
    ]
    assert all(_errors(check_action(state, a)) == [] for a in moves)
    line = f"1. Anna: {BUY}, mosaikleger C7ne sw, place C7ne@-1,0, handover hw:mosaikleger\n"
    state, moves = _legal_mosaic(line, 1)
    assert len(moves) == 3 and all(_errors(check_action(state, a)) == [] for a in moves)
    _state, after = _legal_mosaic(line, 2)
    assert after == []  # one ability a turn


def test_a_simulated_game_builds_a_turned_building() -> None:
    """The simulator sometimes turns a building of the reserve before the turn's action (a
    game where it builds it so), and the engine accepts the game."""
    from referee.simulate import simulate_text

    text = simulate_text(5, 8, modules=("handwerker",))
    assert "mosaikleger C7ne es, build C7ne@-1,-1" in text
    game = parse_text(text, "sim.alh")[0]
    clean(check_game(game))
    assert format_game(game) == text


def test_replaced_by_the_ziegelmacher_it_is_the_printed_tile_at_once() -> None:
    """Ziegelmacher: "Das ersetzte Plättchen baut der Spieler dann ... unmittelbar wieder in
    seine Alhambra ein oder legt es in seine Reserve" (L3160-3163): a turned building
    replaced is the printed tile again ("gedreht einzubauen" belongs to its building in)."""
    anna = "craftsmen hw:ziegelmacher hw:schreiner\n    mosaikleger C7ne sw"
    body = (
        "1. Anna: buy Gu G11- pay Gu4 Gu9, ziegelmacher G11- @-1,0, reserve C7ne, "
        "handover hw:ziegelmacher\n"
    )
    rep = run(body, anna=anna, build="C7ne@-1,0", market=NO_C7NE)
    clean(rep)
    assert rep.state is not None
    assert rep.state.players[0].reserve == [c7ne()]
    again = run(
        "1. Anna: buy Gu G11- pay Gu4 Gu9, ziegelmacher G11- @-1,0, place C7ne@0,1, "
        "handover hw:ziegelmacher\n",
        anna=anna,
        build="C7ne@-1,0",
        market=NO_C7NE,
    )
    assert "PLACE-WALL" not in codes(again)  # C7ne as printed (n, e) fits north of the fountain
    assert again.state is not None and anna_at(again.state, Coord(0, 1)) == c7ne()


def test_a_position_keeps_the_order_of_the_alhambra_line() -> None:
    """Read back, a turned building keeps its place in the Alhambra line (``fmt`` and
    ``show --format record`` write the same block again)."""
    anna = f"{MOSAIC}\n    mosaikleger C7ne sw"
    rep = run("", anna=anna, build="P8-@1,0 C7ne@-1,0 A8n@0,1", market=NO_C7NE)
    clean(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "alhambra P8@1,0 C7ne@-1,0 A8n@0,1" in text
    again = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "handwerker"]\n\n' + text)[0]
    state2, found = state_at(again, At("end"))
    assert found == [] and position_text(state2) == text
