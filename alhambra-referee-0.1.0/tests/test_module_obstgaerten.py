"""Die Obstgärten (rulebook-bigbox-de-2019.txt § Emanuele Ornella: Die Obstgärten).

The end scoring is tested on boards filled by hand, the fruit flow through the example game
(examples/module-obstgaerten.alh), corrupted line by line.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import codes, messages, view

from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.modules.base import module_data
from referee.modules.obstgaerten import BOARDS, board_fields, orchard_points
from referee.notation import parse_text

M = "obstgaerten"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-obstgaerten.alh"


def fields(rep: GameReport) -> dict[str, dict[int, int]]:
    """Each player's fruits by orchard field, as the module's view shows them (``12:fr:4``)."""
    out: dict[str, dict[int, int]] = {}
    for name, row in view(rep, M)["players"].items():
        parts = [t.split(":") for t in row["fields"].split()] if row["fields"] != "-" else []
        out[name] = {int(n): int(k) for n, _fr, k in parts}
    return out


def example(old: str = "", new: str = "", count: int = 1) -> GameReport:
    text = EXAMPLE.read_text(encoding="utf-8")
    if old:
        assert old in text, old
        text = text.replace(old, new, count)
    games = parse_text(text, "ex.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


def test_components_and_the_unverified_board_layouts() -> None:
    data = module_data(M)["components"]
    # "7 Früchtetafeln"; "56 Früchte (je 8 in 7 Sorten)"
    assert data["boards"]["count"] == 7 == len(BOARDS)
    assert data["fruits"]["kinds"] * data["fruits"]["per_kind"] == 56
    assert data["boards"]["layouts_verified"] is False
    assert [p for p, _ in BOARDS[1]] == [1, 2, 4, 7, 11, 16]


def test_rulebook_example_one_two_eleven_and_two_face_down_is_sixteen() -> None:
    # "Der Spieler konnte die Gruppen für 1, 2 und 11 Punkte komplett mit passenden Früchten
    # belegen. Die 4er, 7er- und 16er Punktegruppen sind unvollständig belegt. Außerdem konnte
    # er zwei Früchte nicht mehr platzieren (2 Punkte). Insgesamt erhält er also
    # 1 + 2 + 11 + 2 = 16 Punkte."
    kinds = board_fields(1)
    full = {1, 2, 3, 11, 12, 13, 14, 15}  # groups 1 (1 field), 2 (2), 11 (fields 11-15)
    partial = {4, 5, 7, 16, 17, 18}  # groups 4, 7 and 16 incomplete
    fields = {f: kinds[f - 1] for f in full | partial}
    assert orchard_points(1, fields, 2) == (
        16,
        "groups 1+2+11, 2 face down",
        "Gruppen 1+2+11, 2 verdeckt",
    )


def test_example_game_scores_the_orchards_at_the_end_only() -> None:
    rep = example()
    assert rep.valid and rep.complete, messages(rep)
    assert all("orchard" not in r.modules for s in rep.scorings[:-1] for r in s.rows)
    assert all("orchard" in r.modules for r in rep.scorings[-1].rows)


def test_fruit_on_a_wrong_field_taken_field_and_face_down_too_early() -> None:
    # "die er auf ein passendes Feld seiner Früchtetafel legt"
    rep = example(
        "place T9nw@-1,0, fruit fr:2 17", "place T9nw@-1,0, fruit fr:2 16"
    )  # field 16 of board 7 shows fr:1
    assert codes(rep) == ["FRUIT-FIELD"]
    assert "field shows fr:1" in messages(rep)[0]
    rep = example("place T9nw@-1,0, fruit fr:2 17", "place T9nw@-1,0, fruit fr:2 30")
    assert codes(rep) == ["FRUIT-FIELD"]
    # "Dies ist nicht erlaubt, solange es noch ein der Frucht entsprechendes freies
    # Fruchtfeld gibt."
    rep = example("place T9nw@-1,0, fruit fr:2 17", "place T9nw@-1,0, fruit fr:2 down")
    assert codes(rep)[0] == "FRUIT-FACEDOWN"  # it lies face down all the same: +1 at the end


def test_fruit_only_with_a_bought_tile() -> None:
    # "Erwirbt ein Spieler nun eines dieser Gebäude, bekommt er neben dem Gebäude auch die Frucht"
    rep = example("2. Ben: take Gu7\n", "2. Ben: take Gu7, fruit fr:5 1\n")
    assert codes(rep) == ["FRUIT-NOT-HELD"]
    rep = example(
        "place T9nw@-1,0, fruit fr:2 17", "place T9nw@-1,0, fruit fr:3 18"
    )  # the tile carried fr:2
    assert "FRUIT-NOT-HELD" in codes(rep)
    rep = example("place T9nw@-1,0, fruit fr:2 17", "place T9nw@-1,0, fruit fr:8 17")
    assert codes(rep) == ["FRUIT-TOKEN"]


def test_fruit_drawn_for_every_base_building_on_the_market() -> None:
    # "wird sofort eine Frucht aus dem Vorrat gezogen und offen auf das Gebäudeplättchen gelegt"
    rep = example("* fruit De fr:3\n", "")
    assert codes(rep) == ["FRUIT-MISSING"]
    rep = example("* fruit De fr:3\n", "* fruit De fr:3 Di fr:4\n")
    assert codes(rep) == ["FRUIT-DRAW"]  # the Di tile carries its fruit already
    rep = example("* fruit De fr:3\n", "* fruit De\n")
    assert codes(rep) == ["FRUIT-DRAW", "FRUIT-MISSING"]  # the De tile is left without fruit


def test_fruit_supply_and_boards_checked() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    lines = [
        " ".join("fr:1" if w.startswith("fr:") else w for w in ln.split(" "))
        if ln.startswith("* fruit")
        else ln
        for ln in text.splitlines()
    ]
    rep = check_game(parse_text("\n".join(lines) + "\n", "ex.alh")[0])
    assert "FRUIT-SUPPLY" in codes(rep)  # "je 8 in 7 Sorten"
    assert "ORCHARD-BOARD" in codes(example("Ben bd:4", "Ben bd:7"))
    assert "ORCHARD-BOARD" in codes(example("Ben bd:4", "Ben bd:9"))
    assert "ORCHARD-BOARD" in codes(example("Ben bd:4", "Dora bd:4"))


def test_score_show_json_and_german() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    got = CliRunner().invoke(cli, ["score", "-"], input=text)
    assert got.exit_code == 0, got.output
    assert "orchard" in got.output and "face down" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--lang", "de"], input=text)
    assert "Obstgarten" in got.output and "verdeckt" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--format", "json"], input=text)
    players = json.loads(got.output)["games"][0]["scoring"]["players"]
    assert all("orchard" in p["categories"] for p in players)
    got = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert "board bd:7" in got.output


def test_simulate_plays_the_module() -> None:
    from referee.simulate import simulate_text

    text = simulate_text(4, 3, None, None, ("obstgaerten",))
    assert "* orchard " in text and "* fruit " in text
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.valid and rep.complete, messages(rep)


def test_a_taken_field_and_the_reserve() -> None:
    # Anna's fr:4 of turn 37 lies on field 19; turn 49 cannot put another there
    rep = example("place G10-@1,0, fruit fr:4 5", "place G10-@1,0, fruit fr:4 19")
    assert codes(rep)[0] == "FRUIT-FIELD" and "already taken" in messages(rep)[0]
    # "Die Frucht bekommt ein Spieler auch, wenn er das Gebäude in seine Reserve legt."
    rep = example()
    assert fields(rep)["Anna"][12] == 4  # turn 67: reserve C7sw, fruit fr:4 12


def test_every_bought_or_handed_out_tile_brings_its_fruit() -> None:
    # reading: the leftover tiles handed out at the end take their fruit along
    text = EXAMPLE.read_text(encoding="utf-8")
    rep = example()
    shown = view(rep, M)
    assert shown["table"]["fruits drawn"] <= 56
    for name in ("Anna", "Ben", "Cem"):
        bought = sum(
            ln.count(" buy ")
            for ln in text.splitlines()
            if f". {name}: " in ln or ln.startswith(f"{name}: ")
        )
        handed = text.split("\ndistribute ")[1].splitlines()[0].count(f" {name}@")
        have = len(fields(rep)[name]) + shown["players"][name]["face down"]
        assert have == bought + handed, name


# ------------------------------------------------------------- the boards' layouts (issue 16)

ORCHARD_LINE = "* orchard Anna bd:7 Ben bd:4 Cem bd:1\n"
# the YAML's placeholder for board 7, written as a record states a printed board
BD7 = "bd:7 1 fr:7 2 fr:1 fr:2 4 fr:3 fr:4 fr:5 7 fr:6 fr:7 fr:1 fr:2 11 fr:3 fr:4 fr:5 fr:6 fr:7 16 fr:1 fr:2 fr:3 fr:4 fr:5 fr:6"  # noqa: E501


def with_layout(line: str, old: str = ORCHARD_LINE, header: str = "") -> GameReport:
    rep_old, rep_new = old, old + line + "\n"
    if header:
        text = EXAMPLE.read_text(encoding="utf-8")
        text = text.replace('[Modules "obstgaerten"]', f'[Modules "obstgaerten {header}"]')
        text = text.replace(rep_old, rep_new, 1) if line else text
        games = parse_text(text, "ex.alh")
        assert not games[0].errors, games[0].errors
        return check_game(games[0])
    return example(rep_old, rep_new)


def test_the_yaml_marks_what_the_text_gives_as_verified_and_the_rest_not() -> None:
    """The text gives: "7 Früchtetafeln", fields that match a fruit ("ein passendes Feld"),
    several fields of a kind ("alle seine entsprechenden Fruchtfelder"), point groups ("jede
    komplett mit Früchten belegte Punktegruppe ... die dort angegebenen Punkte") and the example
    board's groups 1, 2, 4, 7, 11, 16 (1 + 2 + 11 + 2 = 16). Not: how many fields, which fruit
    on which field, whether every board has the same groups."""
    boards = module_data(M)["components"]["boards"]
    assert boards["count_verified"] is True and boards["group_points_verified"] is True
    assert all(f["verified"] is True for f in boards["text_facts"])
    assert any("1 + 2 + 11 + 2 = 16" in f["text"] for f in boards["text_facts"])
    assert boards["group_points_on_every_board_verified"] is False
    assert boards["fields_count"] is None and boards["fields_count_verified"] is False
    assert boards["field_fruits_verified"] is False and boards["layouts_verified"] is False
    assert all(g["verified"] is False for groups in boards["layouts"].values() for g in groups)


def test_a_stated_board_layout_replaces_the_placeholder() -> None:
    # the placeholder stated as printed: the game stays clean, the view no longer says
    # "placeholder"
    rep = with_layout(f"* fruitboard {BD7}")
    assert rep.valid and codes(rep) == [], messages(rep)
    # field 17 of the stated board shows fr:3 (fields 17 and 18 swapped): Anna's fr:2 on
    # field 17 at turn 1 no longer fits ("die er auf ein passendes Feld seiner Früchtetafel
    # legt")
    swapped = BD7.replace("16 fr:1 fr:2 fr:3", "16 fr:1 fr:3 fr:2")
    rep = with_layout(f"* fruitboard {swapped}")
    assert codes(rep)[0] == "FRUIT-FIELD"
    assert "field 17" in messages(rep)[0] and "shows fr:3" in messages(rep)[0]


def test_board_layout_statements_are_checked_against_each_other_and_the_supply() -> None:
    other = BD7.replace("1 fr:7 2", "1 fr:6 2")
    rep = with_layout(f"* fruitboard {BD7}\n* fruitboard {other}")
    assert codes(rep) == ["ORCHARD-LAYOUT"] and "never changes" in messages(rep)[0]
    # stated after a fruit was laid on the board (turn 1): too late
    rep = example("* market De:P6\n", f"* market De:P6\n* fruitboard {BD7}\n")
    assert codes(rep) == ["ORCHARD-LAYOUT"] and "after fruits" in messages(rep)[0]
    # "56 Früchte (je 8 in 7 Sorten)": no board has 9 fields of one kind
    nine = "bd:5 16 " + " ".join(["fr:1"] * 9)
    rep = with_layout(f"* fruitboard {nine}")
    assert "ORCHARD-LAYOUT" in codes(rep)
    assert any("9 fields of fr:1" in m for m in messages(rep))
    for bad, words in (
        ("bd:5 fr:1 2 fr:3", "neither a group's points"),
        ("bd:9 1 fr:1", "bd:9 is no board"),
        ("bd:5 1", "at least one field"),
        ("bd:5 0 fr:1", "at least 1"),
    ):
        rep = with_layout(f"* fruitboard {bad}")
        assert codes(rep) == ["ORCHARD-LAYOUT"], (bad, messages(rep))
        assert words in messages(rep)[0], (bad, messages(rep))


def test_option_boards_stated_refuses_the_placeholder() -> None:
    rep = with_layout("", header="boards=stated")
    assert "ORCHARD-LAYOUT" in codes(rep)
    assert any("no line states" in m for m in messages(rep))
    # Anna's board stated: her fruits are fine, the others' boards are still reported
    rep = with_layout(f"* fruitboard {BD7}", header="boards=stated")
    assert all("Anna" not in m for m in messages(rep) if "no line states" in m)


def _score_position(body: str) -> object:
    from referee.scoring.position import score_position

    text = f'[Players "Anna, Ben"]\n[Modules "{M}"]\n\nposition\n{body}end\n'
    return score_position(parse_text(text, "p.alh")[0])


def test_rulebook_example_on_a_board_stated_in_a_position() -> None:
    """ "Der Spieler konnte die Gruppen für 1, 2 und 11 Punkte komplett mit passenden Früchten
    belegen. Die 4er, 7er- und 16er Punktegruppen sind unvollständig belegt. Außerdem konnte er
    zwei Früchte nicht mehr platzieren (2 Punkte). Insgesamt erhält er also 1 + 2 + 11 + 2 = 16
    Punkte." -- on a board stated in the player's section (its own layout, not the
    placeholder's)."""
    layout = "1 fr:4 2 fr:5 fr:6 4 fr:1 fr:2 7 fr:3 fr:7 11 fr:1 fr:2 fr:3 16 fr:4 fr:5 fr:6 fr:7"
    body = (
        "  player Anna\n    alhambra G6@0,-1\n"
        f"    orchard bd:3 {layout}\n"
        # groups 1 (field 1), 2 (fields 2, 3) and 11 (fields 8-10) full; 4 and 7 and 16 not
        "    fruit fr:4 1 fr:5 2 fr:6 3 fr:1 4 fr:3 6 fr:1 8 fr:2 9 fr:3 10 fr:4 11 down 2\n"
        "  player Ben\n    alhambra S6@0,-1\n    orchard bd:4\n"
        "  player Dirk\n    counts P=1\n"
    )
    found = _score_position(body)
    assert [p.code for p in found.problems] == []  # type: ignore[attr-defined]
    row = found.result.rows[0]  # type: ignore[attr-defined]
    assert row.categories["orchard"].points == 16
    assert row.categories["orchard"].detail("en") == "groups 1+2+11, 2 face down"
    # a fruit on the wrong field of the stated board: FRUIT-FIELD
    wrong = body.replace("fr:4 1 fr:5 2", "fr:5 1 fr:5 2")
    found = _score_position(wrong)
    assert [p.code for p in found.problems] == ["FRUIT-FIELD"]  # type: ignore[attr-defined]
    assert "shows fr:4" in found.problems[0].message()  # type: ignore[attr-defined]


def test_the_fruitboard_line_is_read_alike_by_the_fast_reader_and_the_grammar() -> None:
    from test_notation_fast import assert_same_games

    text = EXAMPLE.read_text(encoding="utf-8").replace(
        ORCHARD_LINE, ORCHARD_LINE + f"* fruitboard {BD7}\n", 1
    )
    assert assert_same_games(text) == 1  # the fast reader takes it, exactly as Lark reads it
    game = parse_text(text, "ex.alh")[0]
    from referee.notation import format_game

    assert f"* fruitboard {BD7}\n" in format_game(game)


def test_every_player_has_a_board_when_play_begins() -> None:
    # "Jedem Spieler wird eine Früchtetafel zugelost."
    rep = example("* orchard Anna bd:7 Ben bd:4 Cem bd:1\n", "* orchard Anna bd:7 Ben bd:4\n")
    assert codes(rep)[0] == "ORCHARD-BOARD"
    assert "no board is stated for Cem" in messages(rep)[0]
    assert codes(rep).count("ORCHARD-BOARD") == 1


def test_option_leftovers_none_keeps_the_fruits_of_the_handed_out_tiles_back() -> None:
    """The section says nothing of the leftover distribution: by default a tile handed out at
    the end takes its fruit along (Cem gets T13 and its fruit, Ben G11 and T11s and theirs);
    `leftovers=none` for groups that hand out the tiles without their fruits."""
    text = EXAMPLE.read_text(encoding="utf-8")
    counts = {}
    for opt in ("", " leftovers=none"):
        game = parse_text(text.replace(f'[Modules "{M}"]', f'[Modules "{M}{opt}"]'))[0]
        rep = check_game(game)
        counts[opt] = {name: len(f) for name, f in fields(rep).items()}
        claims = [v for v in rep.violations if v.code == "SCORE-CLAIM"]
        assert bool(claims) == bool(opt)  # the example's claims count the fruits along
    assert counts[""]["Cem"] == counts[" leftovers=none"]["Cem"] + 1
    assert counts[""]["Ben"] == counts[" leftovers=none"]["Ben"] + 2
    assert counts[""]["Anna"] == counts[" leftovers=none"]["Anna"]
