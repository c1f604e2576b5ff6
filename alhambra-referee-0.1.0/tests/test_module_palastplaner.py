"""Der Palastplaner (``referee/modules/palastplaner.py``): rulebook-bigbox-de-2019.txt § Der
Palastplaner (text L3389-3423, heading L3461-3462), the platform's placement notification
(``Module.placed``) it rests on, and the corruptions a record can contain.

A designer's side is written ``n e s w`` (``o`` for Ost); ``planner n 2`` after a laying states
where the feet point now and the points the laying brought.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import codes, messages, run, view

from referee.catalogue import Side
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.modules.palastplaner import laying_points, module_data
from referee.notation import format_game, parse_text
from referee.record.model import Coord
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-palastplaner.alh"
NOISE = ("END-EARLY",)

PLANNERS = "* planner Anna n\n* planner Ben e\n* planner Cem s\n"


SETUP_TEXT = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

{planners}* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
start Ben
"""


def setup(body: str, planners: str = PLANNERS, modules: str = "palastplaner") -> GameReport:
    """conftest's three-player setup (Ben starts with Di9 Gu8 De3; market G11 A9 P7 T12) with
    the designers set before the market is filled."""
    text = SETUP_TEXT.format(planners=planners, modules=modules) + body
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def position(
    body: str,
    anna: str = "S9@0,1",
    planner: str = "planner @0,1 n",
    modules: str = "palastplaner",
    hand: str = "Di9 Di1 Gu8 De7",
    reserve: str = "",
    market: str = "Gu:G11 Di:C10 De:P8 Du:T12",
) -> GameReport:
    """Anna to move; her seraglio S9 north of the fountain carries her designer (feet north
    unless ``planner`` says otherwise): the rulebook's example picture."""
    anna_lines = ["score 10", f"hand {hand}", f"reserve {reserve}" if reserve else ""]
    return check_position(
        body,
        modules=modules,
        market=market,
        display="Gu4 Di3 De2 Du9",
        players={
            "Anna": [*anna_lines, f"alhambra {anna}", planner],
            "Ben": ["hand Du8 Di5 Gu1", "planner @0,0 e"],
            "Cem": ["hand Gu2 Di9", "planner @0,0 s"],
        },
    )


def found(rep: GameReport) -> list[str]:
    return codes(rep, NOISE)


def reasons(rep: GameReport) -> list[str]:
    return [f"{v.code}/{v.reason}" for v in rep.violations if v.code.startswith("PALASTPLANER-")]


def who(rep: GameReport, name: str = "Anna") -> dict[str, str]:
    return dict(view(rep, "palastplaner")["players"][name])


def score(rep: GameReport, name: str = "Anna") -> int:
    assert rep.state is not None
    p = rep.state.player_named(name)
    assert p is not None
    return p.score


# ------------------------------------------------------------------ components, setup


def test_six_designers_and_the_points_two_at_the_feet_one_elsewhere() -> None:
    # "6 Palastplaner (je 1 in den 6 Spielerfarben)" (L3389-3390); "an die Füße ... 2
    # Punkten" (L3404-3406), "an eine der anderen drei Kanten ... 1 Punkt" (L3408-3409)
    data = module_data("palastplaner")["components"]
    assert data["planners"] == 6
    assert laying_points(Side.S, Side.S) == 2
    assert [laying_points(Side.S, s) for s in (Side.N, Side.E, Side.W)] == [1, 1, 1]


def test_each_designer_starts_on_the_start_tile_with_its_feet_at_a_side() -> None:
    # "platziert jeder Spieler seinen Palastplaner mit seiner geraden Kante (Fuß) an einer der
    # vier Seiten seines Startplättchens (Löwenbrunnen)" (L3393-3396)
    rep = setup("")
    assert found(rep) == [], messages(rep)
    assert who(rep, "Anna")["designer"] == "@0,0"
    assert who(rep, "Anna")["feet toward"] == "north"
    assert who(rep, "Ben")["feet toward"] == "east"
    assert rep.state is not None
    ben = rep.state.player_named("Ben")
    assert ben is not None
    assert rep.state.ext.cell_marks(rep.state, ben) == {Coord(0, 0): "pl:e"}


def test_a_designer_set_after_the_market_filling_is_reported() -> None:
    text = """[Players "Anna, Ben, Cem"]
[Modules "palastplaner"]

* planner Anna n
* planner Ben e
* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
* planner Cem s
start Ben
"""
    rep = check_game(parse_text(text, "t.alh")[0])
    assert reasons(rep) == ["PALASTPLANER-SETUP/after-market"]


def test_a_missing_twice_or_wrong_setup_is_reported() -> None:
    rep = setup("1. Ben: take Di4", planners="* planner Anna n\n* planner Cem s\n")
    assert reasons(rep) == ["PALASTPLANER-SETUP/missing"]
    rep = setup("", planners=PLANNERS + "* planner Anna s\n")
    assert reasons(rep) == ["PALASTPLANER-SETUP/twice"]
    rep = setup("", planners="* planner Anna x\n* planner Ben e\n* planner Cem s\n")
    assert reasons(rep) == ["PALASTPLANER-SETUP/side"]
    rep = setup("", planners="* planner Anna\n* planner Ben e\n* planner Cem s\n")
    assert reasons(rep) == ["PALASTPLANER-SETUP/form"]


# ------------------------------------------------------------------ scoring at once


def test_the_rulebook_example_two_above_the_seraglio_one_beside_it() -> None:
    # "Der Spieler erhält 2 Punkte, wenn er das Gemach über dem Serail anlegt und 1 Punkt,
    # wenn er es daneben anlegt." (L3421-3423): the designer on the seraglio, feet at its top
    above = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@0,2")
    assert found(above) == [], messages(above)
    assert score(above) == 10 + 2
    beside = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,1")
    assert found(beside) == [], messages(beside)
    assert score(beside) == 10 + 1


def test_the_points_are_scored_at_once_and_kept_by_the_scorings() -> None:
    # "Die Punkte werden sofort auf der Zähltafel abgetragen." (L3411)
    rep = setup("1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0, planner n 2")
    assert found(rep) == [], messages(rep)
    assert score(rep, "Ben") == 2 and who(rep, "Ben")["designer points so far"] == "2"
    from referee.scoring.state import score_state

    assert rep.state is not None
    row = next(r for r in score_state(rep.state.copy(), 1).rows if r.name == "Ben")
    assert row.total_before == 2 and row.total >= 2


def test_the_designer_moves_onto_the_new_tile_with_the_feet_the_player_chooses() -> None:
    # "Der Palastplaner wandert anschließend auf das neu angelegte Plättchen. Der Spieler
    # bestimmt dabei selbst, an welche Kante der Palastplaner mit seinen Füßen angelegt wird."
    # (L3413-3416)
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,1, planner s 1")
    assert found(rep) == [], messages(rep)
    assert who(rep)["designer"] == "@1,1" and who(rep)["feet toward"] == "south"
    # written without a planner line: the feet point as before
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,1")
    assert who(rep)["designer"] == "@1,1" and who(rep)["feet toward"] == "north"


def test_a_tile_laid_elsewhere_scores_nothing_and_the_designer_stays() -> None:
    # "unmittelbar an dem Plättchen ..., auf dem sich der Palastplaner befindet" (L3401-3402):
    # beside the fountain, not beside the seraglio
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,0")
    assert found(rep) == [], messages(rep)
    assert score(rep) == 10 and who(rep)["designer"] == "@0,1"
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,0, planner s")
    assert reasons(rep) == ["PALASTPLANER-TURN/not-moved"]


def test_each_tile_of_a_turn_scores_against_the_designers_tile_of_that_moment() -> None:
    # two tiles bought (exact, then another purchase): the first beside the seraglio (1), the
    # designer moves onto it with its feet east; the second at those feet (2)
    rep = position(
        "1. Anna: buy Di C10 pay Di9 Di1, buy Gu G11 pay Gu8 Gu4, "
        "place C10@1,1, planner e 1, place G11@2,1, planner n 2",
        hand="Di9 Di1 Gu8 Gu4",
    )
    assert found(rep) == [], messages(rep)
    assert score(rep) == 10 + 1 + 2 and who(rep)["designer"] == "@2,1"


def test_a_tile_built_from_the_reserve_extends_the_alhambra_too() -> None:
    rep = position("1. Anna: build C11@0,2, planner w 2", reserve="C11")
    assert found(rep) == [], messages(rep)
    assert score(rep) == 12 and who(rep)["designer"] == "@0,2"


def test_a_planner_scored_at_the_wrong_side_is_reported() -> None:
    # the corruption of issue 27: 2 points stated for a tile laid beside the feet
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,1, planner n 2")
    assert found(rep) == ["PALASTPLANER-POINTS"]
    msg = messages(rep)[0]
    assert "states 2 points" in msg and "at another side of @0,1" in msg and ": 1 (" in msg
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@0,2, planner n 1")
    assert found(rep) == ["PALASTPLANER-POINTS"]
    assert "at the designer's feet" in messages(rep)[0]
    assert score(rep) == 12  # the referee counts the points itself


def test_a_wrong_side_word_or_form_is_reported() -> None:
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@0,2, planner up")
    assert reasons(rep) == ["PALASTPLANER-TURN/side"]
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@0,2, planner n 2 3")
    assert reasons(rep) == ["PALASTPLANER-TURN/form"]


# ------------------------------------------------------------------ removal and jump


def test_a_removed_tile_takes_the_designer_off_and_it_may_jump_anywhere() -> None:
    # "Wird ein Plättchen, auf dem sich ein Palastplaner befindet, aus der Alhambra entfernt,
    # darf der Palastplaner auf ein beliebiges Plättchen der Alhambra umgesetzt werden."
    # (L3416-3419)
    anna = "S9@0,1 A9@1,0"
    rep = position("1. Anna: remove S9@0,1", anna=anna)
    assert found(rep) == [], messages(rep)
    assert who(rep)["designer"].startswith("off the Alhambra")
    rep = position("1. Anna: remove S9@0,1, planner @1,0 w", anna=anna)
    assert found(rep) == [], messages(rep)
    assert who(rep)["designer"] == "@1,0" and who(rep)["feet toward"] == "west"
    # now a tile laid at its feet (west of the arcade: the fountain's cell is taken) ... off
    # the Alhambra nothing scores
    rep = position("1. Anna: remove S9@0,1", anna=anna)
    assert score(rep) == 10


def test_a_jump_needs_a_removed_tile_and_lands_on_a_tile() -> None:
    anna = "S9@0,1 A9@1,0"
    rep = position("1. Anna: take Di3, planner @1,0 w", anna=anna)
    assert reasons(rep) == ["PALASTPLANER-JUMP/on-tile"]
    rep = position("1. Anna: remove S9@0,1, planner @5,5 w", anna=anna)
    assert reasons(rep) == ["PALASTPLANER-JUMP/no-tile"]


def test_a_swap_does_not_extend_but_removes_the_designers_tile() -> None:
    # the swapped-out tile leaves the Alhambra (L3416-3417); the one swapped in fills a built
    # cell: no extension, no points
    rep = position("1. Anna: swap C11@0,1 for S9", reserve="C11")
    assert found(rep) == [], messages(rep)
    assert score(rep) == 10 and who(rep)["designer"].startswith("off the Alhambra")


# ------------------------------------------------------------------ leftovers


def _leftovers(modules: str) -> GameReport:
    return position("distribute Di:C10 Anna@0,2", modules=modules, hand="Di9 Di1")


def test_leftover_tiles_built_at_the_end_count_unless_switched_off() -> None:
    # "Immer dann, wenn ein Spieler die Alhambra ... erweitert" (L3400-3401): a leftover tile
    # built in extends it as well (switch leftovers=skip: it does not)
    rep = _leftovers("palastplaner")
    assert [c for c in found(rep) if c.startswith("PALASTPLANER")] == []
    assert score(rep) == 12
    rep = _leftovers("palastplaner leftovers=skip")
    assert score(rep) == 10


# ------------------------------------------------------------------ positions and pictures


def test_a_position_states_the_designer_and_reads_it_back() -> None:
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@0,2, planner e 2")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "    planner @0,2 e 2\n" in text
    assert "    planner @0,0 e 0\n" in text
    rep = position("", planner="planner @3,3 n")
    assert reasons(rep) == ["PALASTPLANER-POSITION/no-tile"]
    rep = position("", planner="planner n")
    assert reasons(rep) == ["PALASTPLANER-POSITION/form"]
    rep = position("", planner="planner off w 4")
    assert found(rep) == [] and who(rep)["designer"].startswith("off")


def test_the_designer_is_drawn_on_its_tile_in_show_svg_and_replay(tmp_path: Path) -> None:
    rep_text = EXAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "g.alh"
    path.write_text(rep_text, encoding="utf-8")
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert ": pl:" in shown.output and "The Palace Designer" in shown.output
    german = CliRunner().invoke(cli, ["show", str(path), "--lang", "de"])
    assert "Der Palastplaner" in german.output and "Füße nach" in german.output
    svg = tmp_path / "g.svg"
    got = CliRunner().invoke(cli, ["render", str(path), "-o", str(svg)])
    assert got.exit_code == 0, got.output
    assert "pl:" in svg.read_text(encoding="utf-8")
    html = tmp_path / "g.html"
    got = CliRunner().invoke(cli, ["render", str(path), "--html", "-o", str(html)])
    assert got.exit_code == 0, got.output
    assert "pl:" in html.read_text(encoding="utf-8")


def _turn_state(text: str, before: int = 0) -> Any:
    """The state inside the record's last turn (``before``: the turns played before it)."""
    from referee.engine.core import apply_action

    (g,) = parse_text(text, "t.alh")
    state, _ = state_at(g, At("turn", before) if before else At("start"))
    for a in g.body[-1].actions:
        apply_action(state, a)
    return state


def test_legal_and_owed_moves_after_a_laying() -> None:
    from referee.engine.legal import can_end_turn, legal_actions, owed_actions
    from referee.notation.formatter import action as written

    head = SETUP_TEXT.format(planners=PLANNERS, modules="palastplaner")
    state = _turn_state(head + "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0\n")
    owed = sorted(written(a) for a in owed_actions(state))
    assert owed == ["planner e 2", "planner n 2", "planner s 2", "planner w 2"]
    assert "planner s 2" in [written(a) for a in legal_actions(state)]
    assert not can_end_turn(state)
    state = _turn_state(head + "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0, planner s 2\n")
    assert owed_actions(state) == [] and can_end_turn(state)
    state = _turn_state(
        head + "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0, planner s 2\n"
        "2. Cem: take Di4\n3. Anna: take De6\n4. Ben: remove A9@1,0\n",
        before=3,
    )
    jumps = [written(a) for a in legal_actions(state) if written(a).startswith("planner")]
    assert jumps == ["planner @0,0 n", "planner @0,0 e", "planner @0,0 s", "planner @0,0 w"]


def test_german_texts() -> None:
    rep = position("1. Anna: buy Di C10 pay Di9 Di1, place C10@1,1, planner n 2")
    german = [v.message("de") for v in rep.violations]
    assert german[0].startswith("Anna gibt 2 Punkte für das Plättchen auf @1,1 an"), german
    assert "an eine andere Kante von @0,1" in german[0]
    de = view(rep, "palastplaner", "de")
    assert "Füße nach" in str(de)


# ------------------------------------------------------------------ the example


def _example() -> Any:
    return parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]


def test_the_example_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = _example()
    assert format_game(game) == text
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == []
    assert text.count(", planner ") >= 5
    assert "* planner " in text


@pytest.mark.parametrize("moment", ["early", "middle", "late", "scoring-1", "scoring-2"])
def test_a_moment_of_the_example_round_trips(moment: str) -> None:
    from referee.scoring.position import score_position
    from referee.scoring.state import score_state as score_now
    from tests.test_position_modules import _breakdown, _round_trip, _views

    game = _example()
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    at = (
        At("scoring", int(moment[-1]))
        if moment.startswith("scoring-")
        else At("turn", {"early": 2, "middle": n // 2, "late": n - 1}[moment])
    )
    state, state2, text, again = _round_trip(game, at)
    assert position_text(state2) == position_text(state)
    assert _views(state2) == _views(state)
    assert format_game(again) == text
    assert check_game(again).violations == []
    got = score_position(again)
    assert not got.problems, [p.message() for p in got.problems]
    assert got.result is not None
    assert _breakdown(got.result) == _breakdown(score_now(state.copy(), 3))


def test_switched_off_the_lines_are_reported() -> None:
    rep = run("1. Ben: take Di4, planner n", modules="")
    assert "MODULE-NOT-ENABLED" in codes(rep)


# ------------------------------------------------------------------ the platform hook


def test_a_trusted_replay_scores_the_same_through_the_one_pass_placements() -> None:
    """``Module.placed`` (the notification this module added to the platform) is called from
    the one-pass placement and build paths too (``place_plain``, ``build_plain``: a trusted
    replay takes them), so a replay without checks gives the same scores and designers."""
    from tests.test_module_trusted_replay import end_state, picture

    game = _example()
    checked, trusted = end_state(game, True), end_state(game, False)
    assert picture(trusted) == picture(checked)
    assert [p.score for p in trusted.players] == [p.score for p in checked.players]


def test_the_platform_tells_each_placement_in_order_with_how_it_came() -> None:
    from referee.engine.extensions import Module
    from referee.modules.palastplaner import Palastplaner

    seen: list[tuple[str, str, str]] = []

    class Probe(Palastplaner):
        def placed(self, ctx: Any, player: Any, at: Coord, piece: Any, how: str) -> None:
            seen.append((player.name, str(at), how))
            super().placed(ctx, player, at, piece, how)

    assert Module.placed is not Palastplaner.placed  # the hook is overridden, not the default
    game = parse_text(
        SETUP_TEXT.format(planners=PLANNERS, modules="palastplaner")
        + "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0, planner n 2\n"
    )[0]
    from referee.engine.walk import walk

    walker = walk(game, snapshots=False)
    first = next(walker)
    ext = first.state.ext
    ext.modules[:] = [Probe() if isinstance(m, Palastplaner) else m for m in ext.modules]
    ext.modules_changed()
    for _ in walker:
        pass
    assert seen == [("Ben", "1,0", "place")]


# ------------------------------------------------------------------ with other modules


def test_a_tile_placed_in_a_vizier_line_scores_at_the_viziers_designer() -> None:
    # Der Wesir: "sofort ein Gebäude vom Bauhof kaufen ... und einbauen" out of turn; the tile
    # extends the Alhambra of the vizier's player like any placement (ruling 1); the feet are
    # stated in the vizier line
    body = (
        "1. Ben: take Gu1\n* display Du5\n"
        "Anna: vizier, buy De P7 pay De7, place P7@0,1, planner e 2\n"
        "* market De:G10-\n2. Cem: take Di4\n"
    )
    rep = setup(body, modules="palastplaner, wesir")
    assert found(rep) == [], messages(rep)
    assert score(rep) == 2
    assert who(rep)["designer"] == "@0,1" and who(rep)["feet toward"] == "east"
    # written without the feet: they point as before; the next turn closes the choice
    rep = setup(
        body.replace(", planner e 2", "") + "3. Anna: take De6, planner e\n",
        modules="palastplaner, wesir",
    )
    assert reasons(rep) == ["PALASTPLANER-TURN/not-moved"]
    assert who(rep)["feet toward"] == "north"


def test_a_piece_of_two_cells_lies_against_the_side_it_touches() -> None:
    # a major project (Die Großprojekte) covers two cells: a tile against either of them lies
    # at that side of the piece; a designer on it scores for either cell's neighbours
    from referee.modules.palastplaner import laid_against

    assert laid_against([Coord(0, 1)], [Coord(0, 2), Coord(1, 2)]) is Side.N
    assert laid_against([Coord(0, 1), Coord(1, 1)], [Coord(1, 2)]) is Side.N
    assert laid_against([Coord(0, 1), Coord(1, 1)], [Coord(2, 1)]) is Side.E
    assert laid_against([Coord(0, 1)], [Coord(2, 2)]) is None
