"""Die Obstgärten (rulebook-bigbox-de-2019.txt § Emanuele Ornella: Die Obstgärten).

The end scoring is tested on boards filled by hand, the fruit flow through the example game
(examples/module-obstgaerten.alh), corrupted line by line.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from test_module_common import codes, messages

from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.modules.base import module_data
from referee.modules.obstgaerten import BOARDS, board_fields, orchard_points
from referee.notation import parse_text

M = "obstgaerten"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-obstgaerten.alh"


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
    assert rep.state is not None
    assert rep.state.modules[M].fields["Anna"][12] == 4  # turn 67: reserve C7sw, fruit fr:4 12


def test_every_bought_or_handed_out_tile_brings_its_fruit() -> None:
    # reading: the leftover tiles handed out at the end take their fruit along
    text = EXAMPLE.read_text(encoding="utf-8")
    rep = example()
    assert rep.state is not None
    data = rep.state.modules[M]
    assert sum(data.drawn.values()) <= 56
    for name in ("Anna", "Ben", "Cem"):
        bought = sum(
            ln.count(" buy ")
            for ln in text.splitlines()
            if f". {name}: " in ln or ln.startswith(f"{name}: ")
        )
        handed = text.split("\ndistribute ")[1].splitlines()[0].count(f" {name}@")
        have = len(data.fields.get(name, {})) + data.face_down.get(name, 0)
        assert have == bought + handed, name
