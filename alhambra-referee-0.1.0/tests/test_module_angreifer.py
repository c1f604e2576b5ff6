"""Die Angreifer (rulebook-bigbox-de-2019.txt § DIE ANGREIFER).

The open sides are tested on hand-built Alhambras, the attack through positions scored by
`score` and through the example game (examples/module-angreifer.alh), corrupted line by line.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import codes, messages, run

from referee.catalogue import Side, catalogue
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry import Alhambra
from referee.geometry.queries import open_sides
from referee.modules.angreifer import attack_penalty
from referee.modules.base import module_data
from referee.notation import parse_text
from referee.record.model import Coord

M = "angreifer"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-angreifer.alh"


def tile(code: str):  # type: ignore[no-untyped-def]
    return next(t for t in catalogue().tiles if t.full_code == code)


def alh(*placed: str) -> Alhambra:
    out = Alhambra()
    for item in placed:
        code, at = item.split("@")
        x, y = at.split(",")
        out.place(Coord(int(x), int(y)), tile(code))
    return out


def example(old: str = "", new: str = "", count: int = 1) -> GameReport:
    text = EXAMPLE.read_text(encoding="utf-8")
    if old:
        assert old in text, old
        text = text.replace(old, new, count)
    games = parse_text(text, "ex.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


# --------------------------------------------------------------------------- components


def test_four_attack_cards_six_scouts_pictures_unverified() -> None:
    data = module_data(M)["components"]
    # "4 Angriffskarten"; "6 Kundschafterkarten"; "die beiden obersten davon aufgedeckt"
    assert data["attack_cards"]["count"] == 4 and data["scouts"]["count"] == 6
    assert data["scouts"]["open"] == 2
    assert data["attack_cards"]["directions_verified"] is False
    assert data["scouts"]["types_verified"] is False
    assert data["attack_cards"]["points"] == {1: 1, 2: 2, 3: 3}


# --------------------------------------------------------------------------- open sides


def test_open_sides_face_an_empty_cell_without_a_wall_start_tile_included() -> None:
    # "Für jede offene Seite (am Rand ohne Mauer) eines Gebäudeplättchens sowie des
    # Startplättchens in dieser Richtung"
    a = alh("G10w@-1,1", "G10-@0,1", "C10-@1,1")
    assert open_sides(a, Side.N) == [Coord(-1, 1), Coord(0, 1), Coord(1, 1)]
    assert open_sides(a, Side.W) == [Coord(0, 0)]  # G10w has its wall on the west side
    assert open_sides(a, Side.E) == [Coord(1, 1), Coord(0, 0)]
    assert open_sides(a, Side.S) == [Coord(-1, 1), Coord(1, 1), Coord(0, 0)]


def test_rulebook_example_three_open_sides_minus_three_then_twelve() -> None:
    # "Der Angriff nach der 1. Wertung trifft auf insgesamt 3 offene Seiten dieser Alhambra.
    # Dem Spieler werden 3 Siegpunkte abgezogen. Nach der 3. Wertung werden auch die
    # benachbarten Seiten der Hauptangriffsrichtung in Mitleidenschaft gezogen. Es werden hier
    # 12 Punkte abgezogen."
    a = alh("G10w@-1,1", "G10-@0,1", "C10-@1,1")
    assert attack_penalty(a, "N", 1)[0] == 3
    assert attack_penalty(a, "N", 2)[0] == 6  # "Für jede offene Seite werden ... 2 ... abgezogen"
    points, en, de = attack_penalty(a, "N", 3)
    assert points == 12  # 3 × 3 + 1 open W × 1 + 2 open E × 1
    assert en == "3 open N × 3 + 1 open W × 1 + 2 open E × 1"
    assert de == "3 offen N × 3 + 1 offen W × 1 + 2 offen E × 1"


# --------------------------------------------------------------------------- positions

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  scorings 2
  attack N
  scouts sc:G
  player Anna
    score 4
    alhambra G10-@-1,1 G11-@0,1 A9-@1,1 C10-@-1,0 A10-@1,0
  player Ben
    score 30
    alhambra T11-@1,0 T12-@2,0 S9-@3,0
    scouts sc:T
  player Cem
    alhambra
end
"""
IGNORE = ("END-EARLY",)


def check(after: str, modules: str = M) -> GameReport:
    games = parse_text(POSITION.format(modules=modules) + after, "ang.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


def test_score_shows_the_attack_last_text_json_german() -> None:
    text = POSITION.format(modules=M)
    got = CliRunner().invoke(cli, ["score", "-"], input=text)
    assert got.exit_code == 0, got.output
    assert "attack                         −13  3 open N × 3 + 2 open W × 1 + 2 open E × 1" in (
        got.output
    )
    # "unter Null kann man aber nicht fallen": Cem has 0 points and 5 open sides
    assert "-5 cut: never below zero" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--lang", "de"], input=text)
    assert "Angriff" in got.output and "3 offen N × 3" in got.output
    got = CliRunner().invoke(cli, ["score", "-", "--format", "json"], input=text)
    players = {p["name"]: p for p in json.loads(got.output)["games"][0]["scoring"]["players"]}
    assert players["Anna"]["categories"]["attack"]["points"] == -13
    assert players["Anna"]["categories"]["attack"]["label_de"] == "Angriff"
    assert players["Cem"]["categories"]["attack"]["points"] == 0
    assert players["Cem"]["categories"]["attack"]["unfloored"] == -5


def test_claims_name_the_attack_and_a_total_below_zero_is_caught() -> None:
    rep = check("scoring 3: Anna (attack=-13), Cem =0\n")
    assert codes(rep, IGNORE) == [], messages(rep)
    rep = check("scoring 3: Cem =-5\n")  # the attack would take Cem below zero
    assert codes(rep, IGNORE) == ["SCORE-CLAIM"]
    rep = check("scoring 3: Cem (attack=-5)\n")
    assert codes(rep, IGNORE) == ["SCORE-CLAIM"]


def test_show_lists_cards_scouts_and_open_sides_json_too() -> None:
    text = POSITION.format(modules=M)
    got = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert "attack cards: 3:N" in got.output and "next attack: ?" in got.output
    assert "open scouts: sc:G" in got.output
    assert "Ben: open sides N=4 E=1 S=4 W=1, scouts sc:T" in got.output
    got = CliRunner().invoke(cli, ["show", "-", "--format", "json"], input=text)
    assert '"open scouts": "sc:G"' in got.output


def test_the_attack_token_is_checked() -> None:
    games = parse_text(POSITION.format(modules=M).replace("attack N", "attack X"), "a.alh")
    assert "ATTACK-TOKEN" in codes(check_game(games[0]))


# --------------------------------------------------------------------------- the game


def test_example_game_scores_each_attack_in_its_scoring() -> None:
    rep = example()
    assert rep.valid and rep.complete, messages(rep)
    first = {r.name: r for r in rep.scorings[0].rows}
    assert all("attack" in r.modules for r in first.values())
    assert all(r.total >= 0 for s in rep.scorings for r in s.rows)


def test_attack_card_missing_early_twice_and_repeated() -> None:
    # "Direkt im Anschluss an eine Wertung wird die oberste Angriffskarte aufgedeckt."
    rep = example("* attack E\n", "")
    assert "ATTACK-MISSING" in codes(rep)
    told = next(v for v in rep.violations if v.code == "ATTACK-MISSING")
    assert "a `* attack N|E|S|W` line must state it before the scoring line" in told.message()
    assert "eine Zeile `* attack N|E|S|W` muss sie" in told.message("de")
    assert "ATTACK-TIMING" in codes(example("* attack E\n", "* attack E\n* attack W\n"))
    rep = example("1. Anna: take De9\n", "1. Anna: take De9\n* attack W\n")
    assert "ATTACK-TIMING" in codes(rep)  # no scoring due
    assert "ATTACK-SUPPLY" in codes(example("* attack S\n", "* attack E\n"))
    assert "ATTACK-TOKEN" in codes(example("* attack E\n", "* attack Q\n"))
    assert "ATTACK-TIMING" in codes(
        example(
            "scoring 3: Anna =113, Ben =101, Cem =97\n",
            "scoring 3: Anna =113, Ben =101, Cem =97\n* attack W\n",
        )
    )


def test_scout_needs_an_open_card_and_an_exact_purchase_of_its_type() -> None:
    # "Wer ein zur offenen Kundschafterkarte passendes Gebäude kauft und passend bezahlt,
    # bekommt den Kundschafter"
    assert codes(example("place A6ne@1,0, scout sc:A", "place A6ne@1,0, scout sc:T")) == [
        "SCOUT-NOT-OPEN"
    ]
    rep = example("place A6ne@1,0, scout sc:A\n", "place A6ne@1,0\n")  # not taken: allowed ("darf")
    assert codes(rep) == []
    # Cem buys A8e for 8 and pays Gu3 Gu7 = 10: not exact
    text_old = "6. Cem: buy Gu A8e pay Gu3 Gu7, place A8e@1,0\n"
    rep = example(
        "place A6ne@1,0, scout sc:A\n* market De:T11s\n" + text_old,
        "place A6ne@1,0\n* market De:T11s\n" + text_old.replace("\n", ", scout sc:A\n"),
    )
    assert codes(rep) == ["SCOUT-PURCHASE"]
    # Ben's G8ne (turn 2) is exact but a garden: the pavilion scout does not match
    rep = example("place G8ne@0,1\n", "place G8ne@0,1, scout sc:P\n")
    assert codes(rep) == ["SCOUT-PURCHASE"]
    # a scout is taken once: "Der verwendete Kundschafter wird aus dem Spiel genommen."
    rep = example("place A6ne@1,0, scout sc:A", "place A6ne@1,0, scout sc:A sc:A")
    assert codes(rep) == ["SCOUT-NOT-OPEN"]


def test_scouts_revealed_two_at_a_time_at_setup_and_after_scorings_1_and_2() -> None:
    # "Nach der 1. und 2. Wertung werden jeweils 2 neue Kundschafterkarten aufgedeckt"
    assert "SCOUT-SUPPLY" in codes(example("scouts sc:T sc:S", "scouts sc:T sc:A"))
    assert "SCOUT-REVEAL" in codes(example("scouts sc:T sc:S", "scouts sc:T"))
    rep = example("1. Anna: take De9\n", "1. Anna: take De9\n* scouts sc:T sc:S\n")
    assert "SCOUT-REVEAL" in codes(rep)
    assert "SCOUT-TOKEN" in codes(example("scouts sc:T sc:S", "scouts sc:T sc:X"))
    # "eventuell noch offen ausliegende Kundschafter kommen aus dem Spiel": sc:P is gone
    rep = example(
        "place G8nw@-4,1, place P8@-2,-1\n", "place G8nw@-4,1, place P8@-2,-1, scout sc:P\n"
    )
    assert codes(rep) == ["SCOUT-NOT-OPEN"]  # P8 paid exactly (Di1 Di7), but sc:P left


def test_open_variant_has_no_scouts() -> None:
    # "Variante mit offener Angriffskarte: Die aktuelle Angriffskarte wird aufgedeckt. Die
    # Kundschafter entfallen."
    rep = example('[Modules "angreifer"]', '[Modules "angreifer variant=open"]')
    assert "SCOUT-REVEAL" in codes(rep)


def test_attack_lines_need_the_module() -> None:
    rep = run("* attack N\n", "")
    assert "MODULE-NOT-ENABLED" in codes(rep)


def test_simulate_plays_the_module_with_scouts_and_attacks() -> None:
    from referee.simulate import simulate_text

    text = simulate_text(3, 1, None, None, ("angreifer",))
    assert "* attack " in text and "* scouts sc:" in text and "scout sc:" in text
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.valid and rep.complete, messages(rep)
    assert all("attack" in r.modules for s in rep.scorings for r in s.rows)
    text = simulate_text(2, 4, None, None, ("angreifer variant=open",))
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.valid and rep.complete, messages(rep)
    assert "* scouts" not in text


def test_option_pieces_buildings_leaves_out_pieces_without_a_type() -> None:
    # "eines Gebäudeplättchens sowie des Startplättchens": a piece without a building type
    # (e.g. a square) counts by default; option pieces=buildings leaves it out
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Square:
        walls: frozenset[Side] = frozenset()
        type: None = None

    a = Alhambra()
    a.place(Coord(0, 1), Square())
    assert attack_penalty(a, "N", 1)[0] == 1
    assert attack_penalty(a, "N", 1, "buildings")[0] == 0  # the fountain's N side is covered
    rep = check("scoring 3\n", modules="angreifer pieces=buildings")
    assert "MODULE-OPTION" not in codes(rep)


def test_a_vizier_purchase_is_exact_and_earns_a_scout() -> None:
    # "Beim „Wesir“ [siehe Seite 8] und „Der reiche Gönner“ [siehe Seite 14] wird passend
    # bezahlt: Dies ermöglicht auch den Kundschafter."
    got = CliRunner().invoke(
        cli, ["simulate", "--players", "3", "--seed", "2", "--modules", "wesir,angreifer"]
    )
    text = got.output
    line = "Cem: vizier, buy Du G8nw pay Du1 Du7, reserve G8nw\n"
    assert line in text and "scouts sc:G sc:T" in text
    text = text.replace(line, line.replace("\n", ", scout sc:G\n"))
    rep = check_game(parse_text(text, "wa.alh")[0])
    # the vizier's purchase earns sc:G; Anna's later garden finds it gone
    assert codes(rep) == ["SCOUT-NOT-OPEN"]
    assert rep.violations[0].turn == 64
