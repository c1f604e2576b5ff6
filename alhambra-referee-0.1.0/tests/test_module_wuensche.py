"""Die Wünsche des Kalifen (rulebook-bigbox-de-2019.txt § Stefan Schiltz: Die Wünsche des
Kalifen).

Each task is tested on hand-built Alhambras (base tiles from the catalogue, so "Standard-Gebäude"
are what they are in a game), then through the engine: a position scored by `score`, claims at
the final scoring, the statements of the open tasks, the options, the view.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import codes, messages, run

from referee.catalogue import Side, catalogue
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry import Alhambra
from referee.modules.base import module_data
from referee.modules.wuensche import DEFAULTS, score_task, types_table
from referee.notation import parse_text
from referee.record.model import Coord
from referee.scoring import render_scoring_text

M = "wuensche"


def tile(code: str):  # type: ignore[no-untyped-def]
    return next(t for t in catalogue().tiles if t.full_code == code)


def alh(*placed: str) -> Alhambra:
    """``alh("G10-@-1,1", ...)``: base tiles at coordinates (the building rules not checked)."""
    out = Alhambra()
    for item in placed:
        code, at = item.split("@")
        x, y = at.split(",")
        out.place(Coord(int(x), int(y)), tile(code))
    return out


def pts(n: int, a: Alhambra, **settings: str) -> int:
    return score_task(n, a, settings).points


# Anna's layout of the position tests (no walls anywhere):
#   G10 G11 A9
#   C10  F  A10
ANNA = ("G10-@-1,1", "G11-@0,1", "A9-@1,1", "C10-@-1,0", "A10-@1,0")


# --------------------------------------------------------------------------- components


def test_nine_task_tiles_three_open_task_five_unverified() -> None:
    data = module_data(M)["components"]["tasks"]
    assert data["count"] == 9 and data["open"] == 3  # "9 Aufgabenplättchen"; "3 davon offen"
    assert data["list"][5]["condition_verified"] is False and data["list"][5]["condition_source"]
    # "1 Punkt bei 2 Gebäudetypen, 3 Punkte bei 3 ..., 6 ... 4, 10 ... 5, 15 Punkte bei 6"
    assert types_table() == {2: 1, 3: 3, 4: 6, 5: 10, 6: 15}


# --------------------------------------------------------------------------- the tasks


def test_task1_rows_of_three_contiguous_buildings() -> None:
    # "3 Punkte für jede waagerechte Reihe in der eigenen Alhambra, in der sich mindestens 3
    # zusammenhängende Gebäude befinden (d.h. ohne Lücke, Doppelmauern sind erlaubt)."
    a = alh(*ANNA)
    assert pts(1, a) == 3  # y=1: G G A; y=0: C F A -- the fountain is no building
    assert pts(1, a, fountain="building") == 6
    assert score_task(1, a).en == "1 row × 3 (y = 1)"
    assert score_task(1, a).de == "1 Reihe × 3 (y = 1)"


def test_task1_double_walls_are_allowed_and_a_row_scores_once() -> None:
    # G10w | G9e: G9e shows a wall east, T13e... a double wall between two tiles of one row
    a = alh("G9e@1,0", "T10w@2,0", "T11-@3,0")
    assert pts(1, a) == 3
    # two separate runs of three in one row: "für jede waagerechte Reihe" -> once (option: run)
    b = alh("G10-@1,0", "G11-@2,0", "T11-@3,0", "A9-@5,0", "A10-@6,0", "C10-@7,0", "C11-@4,1")
    assert pts(1, b) == 3 and pts(1, b, rows="run") == 6


def test_task2_columns() -> None:
    # "3 Punkte für jede senkrechte Reihe ..."
    a = alh("G10-@0,1", "G11-@0,2", "A9-@0,3", "A10-@1,0", "C10-@1,1", "C11-@1,2")
    assert pts(2, a) == 6 and score_task(2, a).en == "2 columns × 3 (x = 0, 1)"


def test_task3_same_type_pairs_side_by_side() -> None:
    # "3 Punkte für je 2 Standard-Gebäude gleichen Typs, die benachbart sind (Seite an Seite)."
    a = alh(*ANNA)
    assert pts(3, a) == 6  # G10-G11 and A9-A10
    row = alh("G10-@1,0", "G11-@2,0", "G9e@3,0")  # three gardens in a row: two pairs
    assert pts(3, row) == 6 and pts(3, row, pairs="disjoint") == 3
    diagonal = alh("G10-@1,0", "G11-@0,1")  # corners only: no pair
    assert pts(3, diagonal) == 0


def test_task4_second_longest_wall() -> None:
    # "Die zweitlängste Mauer bringt ebenfalls Punkte (nur am Ende des Spiels!)."
    # T8nes at 1,0 (walls N, E, S: one run of 3); P6n at -1,0 (wall N: a run of 1)
    a = alh("T8nes@1,0", "P6n@-1,0")
    r = score_task(4, a)
    assert r.points == 1 and r.en.startswith("second-longest wall 1")
    assert pts(4, alh("T8nes@1,0")) == 0


def test_task5_building_types() -> None:
    a = alh(*ANNA)  # gardens, arcades, chambers: 3 types -> 3 points
    assert pts(5, a) == 3 and score_task(5, a).de == "3 Gebäudetypen: 3"
    six = alh("P8-@1,0", "S9-@2,0", "A9-@3,0", "C10-@-1,0", "G10-@-2,0", "T11-@-3,0")
    assert pts(5, six) == 15
    assert pts(5, alh("G10-@1,0")) == 0  # one type: the table starts at 2
    # option task5=line: the most types in one gapless row or column (P S A | C G T) -> 3
    assert pts(5, six, task5="line") == 3


def test_task6_double_walls() -> None:
    # "3 Punkte für jede Doppelmauer."
    a = alh("G9e@1,0", "T10w@2,0", "C9w@3,0")  # G9e|T10w, and T10's east side open vs C9w wall
    assert pts(6, a) == 6  # every edge between two tiles with a wall counts (both show it)
    assert pts(6, alh(*ANNA)) == 0


def test_task7_2x2_blocks_rulebook_example() -> None:
    # "2 Punkte für jedes 2x2-Feld von Gebäuden, einzelne Plättchen dürfen doppelt gezählt
    # werden." -- "Beispiel: 3 x 2 = 6 Punkte": a 2 x 4 block holds three 2x2 fields.
    a = alh(
        *(
            f"{c}@{x},{y}"
            for c, (x, y) in zip(
                ("G10-", "G11-", "A9-", "A10-", "C10-", "C11-", "T11-", "T12-"),
                ((1, 0), (2, 0), (3, 0), (4, 0), (1, 1), (2, 1), (3, 1), (4, 1)),
                strict=True,
            )
        )
    )
    r = score_task(7, a)
    assert (r.points, r.en, r.de) == (6, "3 2×2 blocks × 2", "3 2×2-Felder × 2")


def test_task8_longest_diagonal_fountain_may_count() -> None:
    # "2 Punkte für jedes Gebäude, das sich auf der längsten Diagonale befindet. Der
    # Löwenbrunnen darf, muss sich aber nicht in dieser Diagonale befinden. Er würde ggfs. auch
    # 2 Punkte zählen." A diagonal F, 1,1, 2,2 (plus the tiles that connect them): 3 x 2 = 6.
    a = alh("G10-@1,0", "G11-@1,1", "A9-@2,1", "A10-@2,2")
    r = score_task(8, a)
    assert r.points == 6 and r.en.startswith("diagonal of 3 × 2")
    b = alh("G10-@1,0", "G11-@2,0", "A9-@2,1", "A10-@3,1", "C10-@3,2")  # 1,0 2,1 3,2: no F
    assert pts(8, b) == 6


def test_task9_shortest_way_to_the_farthest_building() -> None:
    # "1 Punkt je Plättchen auf dem Weg vom Löwenbrunnen zum am weitesten entfernten Gebäude
    # (es muss der kürzest-mögliche Weg gezählt werden)."
    a = alh("G10-@1,0", "G11-@2,0", "A9-@3,0", "A10-@0,1")
    assert pts(9, a) == 3 and score_task(9, a).en == "way of 3 tiles to 3,0"
    assert pts(9, a, pathcount="tiles") == 4
    # on foot: a wall forces a detour (G9e at 1,0 shows a wall east; T10w at 2,0 west)
    walled = alh("G9e@1,0", "T10w@2,0", "G10-@1,1", "G11-@2,1")
    assert pts(9, walled) == 4  # on foot F -> 1,0 -> 1,1 -> 2,1 -> 2,0 (round the wall)
    assert pts(9, walled, path="grid") == 3  # over the wall: 2,0 is 2 away, 2,1 is 3


def test_every_default_option_is_declared() -> None:
    assert DEFAULTS == {
        "task5": "types",
        "rows": "row",
        "pairs": "every",
        "wall2": "rest",
        "path": "walk",
        "pathcount": "steps",
        "fountain": "gap",
    }


# --------------------------------------------------------------------------- the engine

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  scorings 2
  tasks task:1 task:3 task:7
  player Anna
    alhambra G10-@-1,1 G11-@0,1 A9-@1,1 C10-@-1,0 A10-@1,0
  player Ben
    alhambra T11-@1,0 T12-@2,0 S9-@3,0
  player Cem
    alhambra
end
"""


def check(after: str, modules: str = M, tasks: str | None = None) -> GameReport:
    text = POSITION.format(modules=modules)
    if tasks is not None:
        text = text.replace("  tasks task:1 task:3 task:7\n", tasks)
    games = parse_text(text + after, "wu.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


IGNORE = ("END-EARLY",)  # the position is no finished game; the scoring is what is tested


def test_score_a_position_with_the_tasks_text_json_german() -> None:
    text = POSITION.format(modules=M)
    got = CliRunner().invoke(cli, ["score", "-"], input=text)
    assert got.exit_code == 0, got.output
    assert "task 1                           3  1 row × 3 (y = 1)" in got.output
    assert "task 3                           6  2 pairs × 3" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--lang", "de"], input=text)
    assert "Aufgabe 3" in got.output and "2 Paare × 3" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--format", "json"], input=text)
    players = {p["name"]: p for p in json.loads(got.output)["games"][0]["scoring"]["players"]}
    cats = players["Anna"]["categories"]
    assert cats["task1"]["points"] == 3 and cats["task1"]["label"] == "task 1"
    assert cats["task3"]["label_de"] == "Aufgabe 3" and cats["task7"]["points"] == 0
    assert cats["task1"]["detail"] == "1 row × 3 (y = 1)"
    assert cats["task1"]["detail_de"] == "1 Reihe × 3 (y = 1)"


def test_tasks_only_at_the_end_of_the_game() -> None:
    # "Neben den üblichen Punkten werden am Ende des Spiels die Sonderpunkte ... vergeben."
    text = POSITION.format(modules=M).replace("scorings 2", "scorings 1")
    got = CliRunner().invoke(cli, ["score", "-", "--round", "2"], input=text)
    assert got.exit_code == 0, got.output
    assert "task" not in got.output


def test_claims_name_the_tasks_and_a_wrong_task_claim_is_caught() -> None:
    rep = check("scoring 3: Anna (task1=3, task3=6, task7=0), Ben (task1=3, task3=3)\n")
    assert codes(rep, IGNORE) == [], messages(rep)
    rep = check("scoring 3: Anna (task3=9)\n")
    assert codes(rep, IGNORE) == ["SCORE-CLAIM"]
    assert "task 3 +6 (2 pairs × 3)" in messages(rep)[-1]
    rep = check("scoring 3: Anna (task5=3)\n")  # a task that is not open gives 0
    assert codes(rep, IGNORE) == ["SCORE-CLAIM"]


def test_open_tasks_are_checked_against_each_other_and_the_supply() -> None:
    rep = check("scoring 3\n", tasks="  tasks task:1 task:1 task:7\n")
    assert "TASK-TWICE" in codes(rep)
    rep = check("scoring 3\n", tasks="  tasks task:1 task:10 task:7\n")
    assert "TASK-TOKEN" in codes(rep)
    rep = check("scoring 3\n", tasks="  tasks task:1 task:3 task:7 task:9\n")
    assert "TASK-COUNT" in codes(rep)
    rep = check("scoring 3\n", tasks="  tasks task:1 task:3\n")
    assert "TASK-MISSING" in codes(rep)
    rep = check("scoring 3\n", tasks="")
    assert "TASK-MISSING" in codes(rep)


def test_tasks_stated_by_a_chance_line_and_again_and_too_late() -> None:
    body = "* tasks task:2 task:4 task:6\n* tasks task:2\n"
    rep = run(body, M)
    assert codes(rep) == [], messages(rep)
    rep = run(body + "* tasks task:8\n", M)
    assert codes(rep) == ["TASK-COUNT"]


def test_options_change_the_readings() -> None:
    rep = check("scoring 3: Anna (task7=4)\n", modules=f"{M} fountain=building")
    assert codes(rep, IGNORE) == [], messages(rep)  # with the fountain: two 2x2 blocks
    rep = check("scoring 3\n", modules=f"{M} task5=colours")
    assert "MODULE-OPTION" in codes(rep)
    v = next(v for v in rep.violations if v.code == "MODULE-OPTION")
    assert "task5=types|line" in v.message("en") and "Voreinstellung" in v.message("de")


def test_dirk_has_no_tasks() -> None:
    text = """[Players "Anna, Ben"]
[Modules "wuensche"]

position
  scorings 2
  tasks task:3
  dirk G10- G11-
  player Anna
    alhambra G9e@-1,0
  player Ben
    alhambra
end
"""
    got = CliRunner().invoke(cli, ["score", "-", "--format", "json"], input=text)
    players = {p["name"]: p for p in json.loads(got.output)["games"][0]["scoring"]["players"]}
    assert "categories" not in players["Dirk"]
    assert players["Anna"]["categories"]["task3"]["points"] == 0


def test_show_lists_the_open_tasks_and_what_they_give_now() -> None:
    got = CliRunner().invoke(cli, ["show", "-"], input=POSITION.format(modules=M))
    assert "task:1 (rows) task:3 (pairs) task:7 (blocks)" in got.output
    assert "6 (2 pairs × 3)" in got.output


def test_breakdown_text_of_a_final_scoring() -> None:
    rep = check("scoring 3\n")
    text = render_scoring_text(rep.scorings[-1])
    assert "1 row × 3 (y = 1)" in text
    assert Side.N  # the geometry works on sides; see tests/test_geometry_queries.py


def test_replay_page_shows_each_task_line() -> None:
    from referee.replay.page import scoring_table

    rep = check("scoring 3\n")
    html = scoring_table(rep.scorings[-1], "de")
    assert "Aufgabe 3" in html and "2 Paare × 3" in html


def test_simulate_plays_the_module_with_options() -> None:
    from referee.simulate import simulate_text

    text = simulate_text(2, 9, None, None, ("wuensche task5=line pathcount=tiles",))
    assert '[Modules "wuensche task5=line pathcount=tiles"]' in text and "* tasks task:" in text
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.valid and rep.complete, messages(rep)
    assert any(k.startswith("task") for r in rep.scorings[-1].rows for k in r.modules)
