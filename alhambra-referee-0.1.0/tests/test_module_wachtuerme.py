"""Die Wachtürme (rulebook-bigbox-de-2019.txt § DIE WACHTÜRME, L2387-2488).

A watchtower is added to a purchase by naming it in the payment (``pay Di9 Di6 wt:A``) and
built with the half of the cell it fills (``place wt:Asw@2,0``). The shape is read from the
text (two short sides, one long side with the wall); the rulebook's pictures are lost, so the
three scoring examples (4, 11, 12 points) are rebuilt here with Alhambras that give their
numbers and their stated reason ("da beide Wachtürme nicht im längsten Abschnitt liegen",
"7 Mauer + 4 Wachtürme", "8 + 4").
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import NOISE

from referee.catalogue import BuildingType, Side
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry import longest_outer_wall
from referee.geometry.pieces import Diagonal
from referee.modules.wachtuerme import Watchtower, parse_tower, per_colour, surcharge
from referee.notation import format_game, parse_text
from referee.record.model import ComponentRef, Coord

A = BuildingType.ARCADES
P = BuildingType.PAVILION


def position(
    anna: str = "",
    *,
    hand: str = "Di9 Di6 Gu8",
    scorings: int = 0,
    modules: str = "wachtuerme",
    market: str = "Gu:G11 Di:A9 De:P7 Du:T12",
    ben: str = "",
    reserve: str = "",
) -> str:
    """A position with Anna to move: her hand and Alhambra, the market and display."""
    anna_line = f"\n    alhambra {anna}" if anna else ""
    anna_line += f"\n    reserve {reserve}" if reserve else ""
    ben_line = f"\n    alhambra {ben}" if ben else ""
    return f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  scorings {scorings}
  next Anna
  market {market}
  display Gu1 Di4 De6 Du2
  player Anna
    hand {hand}{anna_line}
  player Ben
    hand Gu3{ben_line}
  player Cem
    hand Gu4
end
"""


def check(text: str) -> GameReport:
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(report: GameReport) -> list[str]:
    return [v.code for v in report.violations if v.code not in NOISE]


def found(report: GameReport, code: str) -> str:
    return next(v.message() for v in report.violations if v.code == code)


# --------------------------------------------------------------------------- components


def test_eighteen_watchtowers_three_in_each_colour_and_the_surcharge_table() -> None:
    # "18 Wachtürme: Je 3 Plättchen in den 6 Gebäudefarben"; "vor der 1. Wertung um 6,
    # zwischen 1. und 2. Wertung um 4, zwischen 2. und 3. Wertung um 2"
    assert per_colour() * len(BuildingType) == 18
    assert [surcharge(n) for n in range(3)] == [6, 4, 2]


def test_watchtower_tokens() -> None:
    assert parse_tower("A") == (A, None)
    assert parse_tower("Asw") == (A, "sw")
    assert parse_tower("tne") == (BuildingType.TOWER, "ne")
    assert parse_tower("X") is None and parse_tower("Axy") is None and parse_tower("") is None
    tower = Watchtower(A, "sw")
    assert tower.code == "wt:Asw" and tower.matches(ComponentRef("wt", "A"))
    assert not tower.matches(ComponentRef("wt", "Ane"))
    assert Watchtower(A).matches(ComponentRef("wt", "Ane"))  # bought: built in any half
    # the legs are the sides of the half it fills; the diagonal is its wall
    assert tower.legs == {Side.S, Side.W} and tower.diagonal is Diagonal.NW_SE
    assert Watchtower(A, "se").legs == {Side.S, Side.E}


# --------------------------------------------------------------------------- purchase

BUY = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@1,0, place wt:Asw@2,0\n"


def test_the_surcharge_before_the_first_scoring_is_6_and_exact_gives_another_action() -> None:
    # "Durch den Zukauf eines Wachturms erhöht sich der Kaufpreis eines Gebäudes vor der 1.
    # Wertung um 6"; "Wird dieser Gesamtpreis passend bezahlt, ist der Spieler noch einmal an
    # der Reihe." A9 + 6 = 15 = Di9 + Di6: the take after it is the extra action.
    rep = check(position() + BUY)
    assert codes(rep) == []
    assert rep.state is not None
    view = rep.state.ext.views(rep.state)["wachtuerme"]
    assert view["table"]["left"] == "P3 S3 A2 C3 G3 T3"
    assert view["players"]["Anna"]["built"] == "wt:Asw@2,0"


def test_an_overpaid_total_gives_no_extra_action() -> None:
    rep = check(position(hand="Di9 Di8 Gu8") + BUY.replace("Di6", "Di8"))
    assert codes(rep) == ["TURN-OVER"]


def test_the_price_without_the_surcharge_is_underpaid() -> None:
    # "Beide Plättchen werden zusammen in der Währung bezahlt, die für das Gebäudeplättchen
    # gefordert ist": 9 alone does not pay 15
    rep = check(position(hand="Di9 Gu8") + "1. Anna: buy Di A9 pay Di9 wt:A, place A9@1,0\n")
    assert "BUY-UNDERPAID" in codes(rep)
    assert "15" in found(rep, "BUY-UNDERPAID")


@pytest.mark.parametrize(
    ("scorings", "hand", "paid"), [(1, "Di9 Di4", "Di9 Di4"), (2, "Di9 Di2", "Di9 Di2")]
)
def test_the_surcharge_falls_to_4_and_2_after_the_scorings(
    scorings: int, hand: str, paid: str
) -> None:
    # "zwischen 1. und 2. Wertung um 4, zwischen 2. und 3. Wertung um 2" (exact: 13, 11)
    line = f"1. Anna: buy Di A9 pay {paid} wt:A, take Gu1, place A9@1,0, place wt:Asw@2,0\n"
    assert codes(check(position(hand=hand, scorings=scorings) + line)) == []


def test_the_watchtower_has_the_colour_of_the_building() -> None:
    # "darf der Spieler einen Wachturm der gleichen Farbe dazukaufen"
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:T, take Gu1, place A9@1,0, place wt:Tsw@2,0\n"
    rep = check(position() + line)
    assert codes(rep)[0] == "WACHT-COLOUR"
    assert "A9" in found(rep, "WACHT-COLOUR")


def test_only_three_watchtowers_of_a_colour() -> None:
    # "Beachte: Für jede Farbe gibt es nur 3 Wachtürme."
    ben = "A10-@1,0 wt:Asw@2,0 wt:Anw@1,-1 wt:Ase@1,1"
    rep = check(position(ben=ben) + BUY)
    assert codes(rep) == ["WACHT-SUPPLY"]
    assert "3" in found(rep, "WACHT-SUPPLY")


def test_one_watchtower_per_purchase_and_a_readable_token() -> None:
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A wt:A, place A9@1,0, place wt:Asw@2,0\n"
    assert "WACHT-TOKEN" in codes(check(position() + line))
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:Q, place A9@1,0\n"
    assert "WACHT-TOKEN" in codes(check(position() + line))


def test_a_placement_must_state_the_half() -> None:
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@1,0, place wt:A@2,0\n"
    rep = check(position() + line)
    assert codes(rep) == ["WACHT-TOKEN"]
    assert "wt:Tsw" in found(rep, "WACHT-TOKEN")


# --------------------------------------------------------------------------- building


def test_tower_and_building_in_any_order_touching_with_a_short_side() -> None:
    # "Erworbene Wachturm- und Gebäudeplättchen werden in beliebiger Reihenfolge am Ende des
    # Spielzuges so in die Alhambra eingebaut, dass jeder Wachturm mit mindestens einer der
    # beiden kurzen Seiten an einem Gebäudeplättchen gleicher Farbe anliegt": the tower first
    # (beside the fountain), its arcade after it, north of it
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place wt:Anw@1,0, place A9@1,1\n"
    assert codes(check(position("A8n@0,1") + line)) == []


def test_not_necessarily_the_building_just_bought() -> None:
    # "Das muss nicht das gerade gekaufte Plättchen sein."
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place wt:Asw@1,1, reserve A9\n"
    assert codes(check(position("A8n@0,1") + line)) == []


def test_a_watchtower_touching_no_building_of_its_colour() -> None:
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@1,0, place wt:Ase@-1,0\n"
    rep = check(position() + line)
    assert codes(rep) == ["WACHT-SECURE"]
    assert "-1,0" in found(rep, "WACHT-SECURE")
    # the tower placed first, its building then elsewhere: reported at the turn's end
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place wt:Ase@-1,0, place A9@1,0\n"
    assert codes(check(position() + line)) == ["WACHT-SECURE"]


def test_the_long_side_is_closed_and_the_short_sides_are_open() -> None:
    # caption: "An die lange Seite des Wachturmplättchens darf nichts angebaut werden";
    # "Offene Seiten dürfen nicht an Mauern anliegen."
    base = "A10-@1,0 wt:Asw@2,0"
    rep = check(position(base, hand="Gu8 Gu3") + "1. Anna: buy Gu G11 pay Gu8 Gu3, place G11@2,1\n")
    assert codes(rep) == ["PLACE-CLOSED"]
    # the leg (open) against a wall: A8e's east wall faces the tower's west leg
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@0,1, place wt:Asw@2,0\n"
    assert codes(check(position("A8e@1,0") + line))[0] == "PLACE-WALL"


def test_the_walk_may_lead_across_a_watchtower() -> None:
    # caption: "Zur Erfüllung der Fußgängerregel darf der Weg über ein Wachturmplättchen führen."
    # G11 at 2,-1 is reached from the fountain only across the tower at 1,-1 (its north leg
    # meets the arcade A9 at 1,0 ... its east leg meets G11)
    anna = "A10-@1,0 wt:Ane@1,-1"
    rep = check(
        position(anna, hand="Gu8 Gu3") + "1. Anna: buy Gu G11 pay Gu8 Gu3, place G11@2,-1\n"
    )
    assert codes(rep) == []


def test_never_in_the_reserve_and_never_redesigned() -> None:
    # "Wachtürme dürfen weder in die Reserve gelegt noch umgebaut werden."
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@1,0, reserve wt:A\n"
    rep = check(position() + line)
    assert codes(rep) == ["WACHT-RESERVE"]
    rep = check(position("A10-@1,0 wt:Asw@2,0") + "1. Anna: remove wt:Asw@2,0\n")
    assert codes(rep) == ["REMOVE-LOCKED"]


def test_a_building_may_be_redesigned_only_while_the_watchtower_stays_secured() -> None:
    # "Ein an einem Wachturm anliegendes Gebäudeplättchen darf nur umgebaut werden, wenn der
    # Wachturm nach dem Umbau Kontakt zu wenigstens einem gleichfarbigen Gebäude hat."
    anna = "A10-@1,0 wt:Asw@2,0"
    rep = check(position(anna) + "1. Anna: remove A10@1,0\n")
    assert "WACHT-REDESIGN" in codes(rep)
    assert "2,0" in found(rep, "WACHT-REDESIGN")
    # a second arcade on the other leg keeps it secured
    anna2 = "A10-@1,0 C11-@0,-1 C10-@1,-1 A7es@2,-1 wt:Asw@2,0"
    assert codes(check(position(anna2) + "1. Anna: remove A10@1,0\n")) == []
    # a swap for a building of its colour keeps it secured, of another colour does not
    swap = "1. Anna: swap {tile}@1,0 for A10\n"
    assert codes(check(position(anna, reserve="A8n") + swap.format(tile="A8n"))) == []
    rep = check(position(anna, reserve="C11-") + swap.format(tile="C11"))
    assert codes(rep) == ["WACHT-REDESIGN"]


# --------------------------------------------------------------------------- scoring

# the rulebook's three examples: a) 4, b) 11 = 7 + 4, c) 12 = 8 + 4
EXAMPLE_A = "P5nw@-1,1 T11n@0,1 P6n@1,1 A10-@1,0 wt:Asw@2,0 wt:Anw@1,-1"
EXAMPLE_B = "P5nw@-1,1 T11n@0,1 P6n@1,1 A10-@1,0 C10-@2,0 A8n@3,0 wt:Psw@2,1 wt:Asw@4,0"
EXAMPLE_C = EXAMPLE_B + " C9w@-1,0"


def score_of(anna: str, *args: str) -> dict[str, object]:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "wachtuerme"]

position
  scorings 1
  player Anna
    score 0
    alhambra {anna}
  player Ben
    score 0
  player Cem
    score 0
end
"""
    result = CliRunner().invoke(cli, ["score", "-", "--format", "json", *args], input=text)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    rows = {p["name"]: p for p in doc["games"][0]["scoring"]["players"]}
    anna_row = rows["Anna"]
    return {
        "wall": anna_row["wall"]["points"],
        "watchtower": anna_row["categories"]["watchtower"]["points"],
    }


@pytest.mark.parametrize(
    ("anna", "wall", "bonus"), [(EXAMPLE_A, 4, 0), (EXAMPLE_B, 7, 4), (EXAMPLE_C, 8, 4)]
)
def test_the_rulebook_examples_4_11_and_12(anna: str, wall: int, bonus: int) -> None:
    # "Wachtürme besitzen eine Außenkante mit einer Außenmauer und zählen bei der Feststellung
    # des längsten zusammenhängenden Mauerstückes jeweils 1 Punkt. Anschließend bringt jeder
    # Wachturm im längsten Mauerabschnitt einen Bonus von 2 weiteren Punkten." "Die obigen
    # Beispiele bringen a) 4 Punkte, da beide Wachtürme nicht im längsten Abschnitt liegen;
    # b) 11 Punkte (7 Mauer +4 Wachtürme); c) 12 Pkte (8+4)."
    assert score_of(anna) == {"wall": wall, "watchtower": bonus}


def test_the_diagonal_is_one_segment_of_the_wall_graph() -> None:
    from referee.geometry import Alhambra

    tower = Watchtower(P, "sw")
    alh = Alhambra([(Coord(1, 0), tower)])  # type: ignore[list-item]
    run = longest_outer_wall(alh)
    assert run.segments == ((Coord(1, 0), Diagonal.NW_SE),)


def test_the_scoring_is_shown_in_both_languages() -> None:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "wachtuerme"]

position
  scorings 1
  player Anna
    score 0
    alhambra {EXAMPLE_B}
  player Ben
    score 0
  player Cem
    score 0
end
"""
    en = CliRunner().invoke(cli, ["score", "-"], input=text).output
    de = CliRunner().invoke(cli, ["score", "-", "--lang", "de"], input=text).output
    assert "watchtowers" in en and "2 in the longest wall" in en and "2,1 d" in en
    assert "Wachtürme" in de and "im längsten Mauerabschnitt" in de


def bonus(rep: GameReport) -> int:
    """Anna's watchtower points at the first scoring."""
    row = next(r for r in rep.scorings[0].rows if r.name == "Anna")
    return int(row.categories["watchtower"].points)


# a tie: the arcade's west wall at -1,0 and the watchtower's diagonal at 2,0 (one each)
TIE = "C9w@-1,0 A10-@1,0 wt:Asw@2,0"
BEFORE_SCORING = """1. Anna: take Gu1
* display W1 Gu5
"""


def test_the_player_chooses_among_equally_long_longest_walls() -> None:
    # "Besitzt ein Spieler mehrere gleichlange längste Mauerabschnitte, wählt er einen davon
    # aus, den er wertet." The default (no line): the run with the most watchtowers.
    base = position(TIE) + BEFORE_SCORING
    rep = check(base + "scoring 1\n")
    assert codes(rep) == [] and bonus(rep) == 2
    rep = check(base + "Anna: longest @-1,0 w\nscoring 1\n")
    assert codes(rep) == [] and bonus(rep) == 0
    rep = check(base + "Anna: longest @2,0 d\nscoring 1\n")
    assert codes(rep) == [] and bonus(rep) == 2
    # the claim is checked against the choice: wall 1 + 2 for the tower, arcades 3, chambers 4
    rep = check(base + "Anna: longest @2,0 d\nscoring 1: Anna +10 (wall=1, watchtower=2)\n")
    assert codes(rep) == []
    # the choice line is kept by fmt
    once = format_game(parse_text(base + "Anna: longest @2,0 d\nscoring 1\n", "t.alh")[0])
    assert "Anna: longest @2,0 d\nscoring 1" in once
    assert format_game(parse_text(once, "t.alh")[0]) == once
    # a stated choice that is no longest wall
    rep = check(base + "Anna: longest @1,0 n\nscoring 1\n")
    assert codes(rep) == ["WACHT-LONGEST"]
    assert "@1,0 n" in found(rep, "WACHT-LONGEST")


def test_switch_choice_stated_asks_for_the_line() -> None:
    text = position(TIE).replace('"wachtuerme"', '"wachtuerme choice=stated"') + BEFORE_SCORING
    rep = check(text + "scoring 1\n")
    assert codes(rep) == ["WACHT-LONGEST"]
    assert codes(check(text + "Anna: longest @2,0 d\nscoring 1\n")) == []


# --------------------------------------------------------------------------- other modules


def test_squares_do_not_secure_a_watchtower() -> None:
    # "Die Farben der Plätze und der Bazare sichern nicht die Platzierung der Wachtürme."
    anna = "sq:An@1,0"
    line = "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place wt:Asw@2,0, place A9@0,1\n"
    rep = check(position(anna, modules="wachtuerme, plaetze") + line)
    assert codes(rep) == ["WACHT-SECURE"]


def test_no_watchtower_with_a_bazaar() -> None:
    # "Wachtürme können nicht zusammen mit Plätzen, Feldlagern oder Bazaren gekauft werden."
    from conftest import run

    body = (
        "1. Ben: buy Di A9 pay Di9, take Gu1, reserve A9\n"
        "* display Du5, aside bz:DePSA, market Di:A6ne\n"
        "2. Cem: take Di4\n"
        "* display De5\n"
        "3. Anna: buy bz:DePSA pay De7 De2 wt:P, place bz:DePSA@1,0\n"
    )
    rep = run(body, "bazare, wachtuerme")
    assert "WACHT-BASE" in codes(rep)
    assert "bz:DePSA" in found(rep, "WACHT-BASE")


def test_no_watchtower_with_a_building_site() -> None:
    # Die Baustellen, Anmerkungen: "Wachtürme können nicht zusammen mit Baustellen erworben
    # werden."
    line = "1. Anna: buy Di A9 pay Di6 Di4 bs:hidden wt:A, place A9@1,0, place wt:Asw@2,0\n"
    rep = check(position(modules="wachtuerme, baustellen", hand="Di6 Di4 Gu8") + line)
    assert "WACHT-SITE" in codes(rep)


def test_switched_off_the_watchtower_is_reported() -> None:
    rep = check(position(modules="") + BUY)
    assert "MODULE-NOT-ENABLED" in codes(rep)


# --------------------------------------------------------------------------- records


def test_a_position_states_the_watchtowers_and_round_trips() -> None:
    text = position(EXAMPLE_B)
    result = CliRunner().invoke(cli, ["show", "-", "--format", "record"], input=text)
    assert result.exit_code == 0, result.output
    assert "wt:Psw@2,1" in result.output and "wt:Asw@4,0" in result.output
    again = CliRunner().invoke(cli, ["show", "-", "--format", "record"], input=result.output)
    assert again.output == result.output
    game = parse_text(result.output, "pos.alh")[0]
    assert format_game(game) == result.output


def test_the_legal_cells_of_a_watchtower() -> None:
    text = position("A8n@0,1")
    result = CliRunner().invoke(cli, ["legal", "-", "--tile", "wt:Asw"], input=text)
    assert result.exit_code == 0, result.output
    assert "Legal cells for wt:Asw (watchtower): 1,1" in result.output


def test_the_pictures_draw_the_triangle() -> None:
    text = position(EXAMPLE_A)
    result = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert "◣" in result.output
    svg = CliRunner().invoke(cli, ["render", "-"], input=text).output
    assert svg.count("<polygon") >= 2  # the empty half of each watchtower's cell


def test_an_unplaced_watchtower_is_reported_once() -> None:
    # a watchtower never placed is the base rule's PLACE-MISSING (it is kept in the reserve by
    # the engine): not reported again as WACHT-RESERVE
    rep = check(position() + "1. Anna: buy Di A9 pay Di9 Di6 wt:A, take Gu1, place A9@1,0\n")
    assert codes(rep) == ["PLACE-MISSING"]


def test_explain_answers_for_a_watchtower() -> None:
    text = position("A8n@0,1", hand="Di9 Di4 Gu8", scorings=1)
    args = ["explain", "-", "Anna: buy Di A9 pay Di9 Di4 wt:A, take Gu1, place wt:Asw@-1,1"]
    result = CliRunner().invoke(cli, args, input=text)
    assert result.exit_code == 1
    assert "buy Di A9 pay Di9 Di4 wt:A: legal" in result.output
    assert "PLACE-CLOSED" in result.output
    # the watchtower bought is owed a place (Module.owed_actions): explain lists the places
    # left for it, 1,1 among them (the rest of the Alhambra closes the other halves)
    alternatives = result.output.split("Legal alternatives:")[1]
    assert "place wt:Asw@1,1" in alternatives
    args[2] = "Anna: buy Di A9 pay Di9 Di4 wt:A, take Gu1, place wt:Asw@1,1, place A9@1,0"
    assert CliRunner().invoke(cli, args, input=text).exit_code == 0


def test_the_replay_page_draws_the_triangle(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.alh"
    path.write_text(position() + BUY, encoding="utf-8")
    out = tmp_path / "game.html"
    result = CliRunner().invoke(cli, ["render", "--html", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "polygon points=" in out.read_text(encoding="utf-8")  # inside the page's data


EXAMPLE = "examples/module-wachtuerme.alh"
LINE = "24. Dana: buy Di A8e pay Di7 Di8 wt:A, place wt:Ane@1,-1, place A8e@0,1"


@pytest.mark.parametrize(
    ("corrupt", "code"),
    [
        ("24. Dana: buy Di A8e pay Di8 wt:A, place wt:Ane@1,-1, place A8e@0,1", "BUY-UNDERPAID"),
        ("24. Dana: buy Di A8e pay Di7 Di8 wt:T, place wt:Tne@1,-1, place A8e@0,1", "WACHT-COLOUR"),
        ("24. Dana: buy Di A8e pay Di7 Di8 wt:A, reserve wt:A, place A8e@0,1", "WACHT-RESERVE"),
        ("24. Dana: buy Di A8e pay Di7 Di8 wt:A, place wt:Asw@1,-1, place A8e@0,1", "PLACE-CLOSED"),
        (
            "24. Dana: buy Di A8e pay Di7 Di8 wt:A wt:A, place wt:Ane@1,-1, place A8e@0,1",
            "WACHT-TOKEN",
        ),
    ],
)
def test_corruptions_of_the_example_are_caught(corrupt: str, code: str) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / EXAMPLE).read_text(encoding="utf-8")
    assert LINE in text and codes(check(text)) == []
    rep = check(text.replace(LINE, corrupt))
    assert codes(rep)[0] == code, codes(rep)
    first = rep.violations[0]
    assert first.line == 67 and first.player == "Dana" and first.turn == 24


def test_a_simulated_game_with_squares_bazaars_and_sites_checks_clean() -> None:
    # the cross-module rules in play together: simulated watchtowers next to squares, bazaars
    # and building sites; the game checks clean and is a fmt fixed point
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    modules = ("wachtuerme", "plaetze", "bazare", "baustellen")
    text = simulate_text(4, 3, load_profile("queen-2003"), "combined", modules)
    game = parse_text(text, "combined.alh")[0]
    assert not game.errors
    rep = check_game(game)
    assert rep.valid and rep.complete, [v.message() for v in rep.violations]
    assert format_game(game) == text
    assert " wt:" in text and "sq:" in text
