"""Die magischen Gebäude (``referee/modules/magisch.py``): rulebook-bigbox-de-2019.txt
§ DIE MAGISCHEN GEBÄUDE.

Every sentence of the section, its example (two ways to build the magic pavilion left of the
garden), turning at every placement (bought, from the reserve, in a redesign, at the game end),
and the corruptions: a building stated two ways, more than exist, a rotation that is not one of
the printed tile's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import format_action, parse_action
from referee.catalogue import Side
from referee.cli import cli
from referee.engine import GameState, apply_action, check_game, replay
from referee.engine.core import begin_trial_turn
from referee.engine.legal import placement_actions
from referee.engine.orientation import rotations
from referee.notation import parse_text

MG = "magisch"

# Ben has built a garden without walls above the fountain; the magic pavilion (printed with
# walls north and east) lies on the Gulden field.
POSITION = """\
[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Ben
  scorings 1
  market Gu:mg:P9ne Di:T11n De:C7ne Du:A9
  display Gu4 Di3 De8 Du2
  player Anna
    score 9
    hand Gu3 De7
    alhambra G10-@0,1
  player Ben
    score 4
    hand Gu9 Di5 Gu4
    alhambra G11@0,1
  player Cem
    score 6
    hand Du8
    alhambra T13@1,0
end
"""


def check(body: str, modules: str = MG) -> list[str]:
    text = POSITION.format(modules=modules) + body
    games = parse_text(text, "t.alh")
    assert not games[0].errors, games[0].errors
    rep = check_game(games[0])
    return [v.code for v in rep.violations]


def state_after_buying() -> GameState:
    game = parse_text(POSITION.format(modules=MG), "t.alh")[0]
    state, found = replay(game)
    assert not found, [v.message() for v in found]
    begin_trial_turn(state, 1)
    for a in parse_action("buy Gu mg:P9 pay Gu9").actions:
        apply_action(state, a)
    return state


# ------------------------------------------------------------------ the section's example


def test_example_two_ways_left_of_the_garden() -> None:
    # "Der Spieler möchte den magischen Pavillon links neben dem Garten in seine Alhambra
    # einbauen. Gemäß den Bauregeln hat er nun 2 unterschiedliche Möglichkeiten, das magische
    # Gebäude an dieser Stelle zu errichten"
    state = state_after_buying()
    there = [
        format_action(a)
        for a in placement_actions(state)
        if format_action(a).startswith("place") and format_action(a).endswith("@-1,1")
    ]
    # printed walls n, e: turned so that the east side (towards the garden) stays open
    assert sorted(there) == ["place mg:P9nw@-1,1", "place mg:P9sw@-1,1"]


@pytest.mark.parametrize(
    ("placed", "found"),
    [
        ("mg:P9sw", []),  # one of the two ways
        ("mg:P9nw", []),  # the other
        # its east wall meets the garden's open side, and no open side leads to the fountain
        ("mg:P9ne", ["PLACE-WALL", "PLACE-WALK"]),
        ("mg:P9n", ["MAGIC-ROTATION"]),  # one wall: not the printed tile
        ("mg:P9ns", ["MAGIC-ROTATION"]),  # opposite walls are no turn of a corner
    ],
)
def test_every_building_rule_after_the_rotation_check(placed: str, found: list[str]) -> None:
    # "Bei jedem Einbau darf das Gebäude dann beliebig gedreht werden"; "darf er es gemäß den
    # Bauregeln in seine Alhambra einbauen"
    got = check(f"1. Ben: buy Gu mg:P9 pay Gu9, place {placed}@-1,1\n* market Gu:T9ne\n")
    assert got == found


def test_a_wrong_rotation_names_the_printed_walls_in_both_languages() -> None:
    text = POSITION.format(modules=MG) + "1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9n@-1,1\n"
    rep = check_game(parse_text(text, "t.alh")[0])
    v = next(v for v in rep.violations if v.code == "MAGIC-ROTATION")
    assert "printed ne" in v.message() and "ne, es, sw, nw" in v.message()
    assert "aufgedruckt ne" in v.message("de")
    assert v.rule.section.endswith("DIE MAGISCHEN GEBÄUDE: Änderungen im Spielablauf")
    line = text.splitlines()[v.line - 1]
    assert line.startswith("1. Ben:") and (v.player, v.turn) == ("Ben", 1)
    assert line[v.column - 1 :].startswith("mg:P9n@")  # file:line:column of the token


def test_rotations_of_a_wall_set() -> None:
    n, e, s, w = Side.N, Side.E, Side.S, Side.W
    assert rotations(frozenset({n})) == [frozenset(x) for x in ({n}, {e}, {s}, {w})]
    assert len(rotations(frozenset({n, s}))) == 2
    assert rotations(frozenset()) == [frozenset()]
    assert len(rotations(frozenset({n, e, s}))) == 4


# ------------------------------------------------------------------ every placement


def test_turned_again_when_built_from_the_reserve() -> None:
    # "Dabei ist es egal, ob es gerade erworben, aus der Reserve genommen oder umgebaut wird."
    body = (
        "1. Ben: buy Gu mg:P9 pay Gu9, reserve mg:P9ne\n* market Gu:T9ne\n"
        "2. Cem: take Gu4\n* display Gu5\n"
        "3. Anna: take Gu5\n* display Gu6\n"
        "4. Ben: build mg:P9sw@-1,1\n"
    )
    assert check(body) == []
    assert "MAGIC-ROTATION" in check(body.replace("build mg:P9sw", "build mg:P9e"))


def test_turned_again_in_a_redesign_swap() -> None:
    body = (
        "1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9sw@-1,1\n* market Gu:T9ne\n"
        "2. Cem: take Gu4\n* display Gu5\n"
        "3. Anna: take Gu5\n* display Gu6\n"
        "4. Ben: remove mg:P9@-1,1\n* market\n"
    )
    got = check(body)
    assert got == [], got
    turned = body + (
        "5. Cem: take Gu6\n* display Gu7\n"
        "6. Anna: take Gu7\n* display Gu8\n"
        "7. Ben: build mg:P9nw@-1,1\n"
    )
    assert check(turned) == []


def test_an_orientation_left_out_is_noted() -> None:
    text = POSITION.format(modules=MG) + "1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9@-1,2\n"
    rep = check_game(parse_text(text, "t.alh")[0])
    assert "UNVERIFIED-ORIENTATION" in [u.key for u in rep.unverifiable]


# ------------------------------------------------------------------ scoring


def test_it_counts_like_any_building_of_its_type_and_its_walls_as_turned() -> None:
    # "Die magischen Gebäude zählen bei einer Wertung wie jedes andere Gebäude derselben Sorte."
    text = POSITION.format(modules=MG).replace("alhambra G11@0,1", "alhambra G11@0,1 mg:P9sw@-1,1")
    text = text.replace("market Gu:mg:P9ne", "market Gu:S4")
    out = CliRunner().invoke(cli, ["score", "-", "--round", "2", "--format", "json"], input=text)
    assert out.exit_code == 0, out.output
    ben = next(
        p for p in json.loads(out.output)["games"][0]["scoring"]["players"] if p["name"] == "Ben"
    )
    assert ben["buildings"]["P"]["count"] == 1 and ben["buildings"]["P"]["place"] == 1
    # the walls as turned: south and west of -1,1 are outer wall (2 segments in one run)
    assert ben["wall"]["length"] == 2


# ------------------------------------------------------------------ supply and faces


def test_more_magic_buildings_than_exist() -> None:
    # one per type (component data, unverified): a second magic pavilion is too many
    body = "1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9sw@-1,1\n* market Gu:mg:P9ne\n"
    got = check(body)
    assert "TILE-SUPPLY" in got


def test_a_magic_building_stated_two_ways() -> None:
    # the magic pavilion drawn as P9ne, stated again as P10: price and printed walls never change
    body = "1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9sw@-1,1\n* market Gu:mg:P10n\n"
    got = check(body)
    assert "MAGIC-FACE" in got and "TILE-SUPPLY" in got
    # placed with walls that are no turn of what the market showed
    assert "MAGIC-ROTATION" in check("1. Ben: buy Gu mg:P9 pay Gu9, place mg:P9nes@-1,1\n")


@pytest.mark.parametrize(("token", "reason"), [("mg:X9n", "form"), ("mg:P9", "no-face")])
def test_bad_tokens(token: str, reason: str) -> None:
    text = POSITION.format(modules=MG).replace("Gu:mg:P9ne", f"Gu:{token}")
    rep = check_game(parse_text(text, "t.alh")[0])
    found = [v for v in rep.violations if v.code == "MAGIC-TOKEN"]
    assert found and found[0].reason == reason
    assert found[0].message("de")


def test_switched_off() -> None:
    assert "MODULE-NOT-ENABLED" in check("", modules="")


def test_dirk_may_receive_a_magic_building() -> None:
    text = (
        '[Players "Anna, Ben"]\n[Modules "magisch"]\n\n'
        "* deal Anna Gu9 De7 De2 Du3\n* deal Ben Di9 Gu8 De3\n* display Gu1 Di4 De6 Du2\n"
        "* market Gu:G11 Di:A9 De:P7 Du:T12\n* dirk mg:T14nes P6 G9 S4 A5 C6\nstart Ben\n"
    )
    rep = check_game(parse_text(text, "t.alh")[0])
    assert rep.violations == []
    assert rep.state is not None and rep.state.dirk is not None
    assert "mg:T14nes" in [str(t) for t in rep.state.dirk]
    assert rep.state.bag_count == 54 + 6 - 4 - 6


# ------------------------------------------------------------------ show, render, modules


def test_show_and_render_draw_magic_buildings() -> None:
    text = POSITION.format(modules=MG).replace("alhambra G11@0,1", "alhambra G11@0,1 mg:A11e@1,0")
    text = text.replace("market Gu:mg:P9ne", "market Gu:S4")
    shown = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert shown.exit_code == 0, shown.output
    assert "A11*" in shown.output and "magic buildings" in shown.output
    data = json.loads(CliRunner().invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    assert data["modules"]["magisch"]["players"]["Ben"]["magic buildings"] == "mg:A11e@1,0"
    svg = CliRunner().invoke(cli, ["render", "-", "-o", "-"], input=text)
    assert svg.exit_code == 0
    assert ">A11*<" in svg.output and "stroke-dasharray" in svg.output  # a gold dashed ring


@pytest.mark.parametrize("lang", ["en", "de"])
def test_modules_lists_it(lang: str) -> None:
    out = CliRunner().invoke(cli, ["modules", "--lang", lang]).output
    title = "Die magischen Gebäude" if lang == "de" else "The Magic Buildings"
    assert title in out and "DIE MAGISCHEN GEBÄUDE" in out


EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "module-magisch.alh"


def test_the_example_turns_a_magic_building() -> None:
    """The example game builds at least one magic building turned from its printed walls."""
    text = EXAMPLE.read_text(encoding="utf-8")
    rep = check_game(parse_text(text, str(EXAMPLE))[0])
    assert rep.valid and rep.complete
    assert rep.state is not None
    from referee.modules.magisch import MagicBuilding

    turned = [
        x
        for p in rep.state.players
        for _at, x in p.alhambra.items()
        if isinstance(x, MagicBuilding) and x.walls != x.printed_walls
    ]
    assert turned
