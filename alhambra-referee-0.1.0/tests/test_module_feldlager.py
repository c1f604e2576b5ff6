"""Die Feldlager (rulebook-bigbox-de-2019.txt § DIE FELDLAGER, L1125-1211).

A camp is written ``fl:`` + price + ``b`` + bastion sides + ``a`` + arrow directions; the faces
were only in the pictures, so the faces here are the records' own statements.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import messages, view

from referee.api import score_state
from referee.catalogue import Side
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.geometry import Alhambra
from referee.modules.feldlager import Camp, camp_lines, parse_camp, score_camps
from referee.notation import format_game, parse_text
from referee.record.model import ComponentRef, Coord
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-feldlager.alh"

# a row of four buildings (north), the chambers at 1,0 with a wall south
BASE = "C9w@0,1 P8-@1,1 S9-@2,1 P7e@3,1 C9s@1,0"
# the rulebook's example: "Das Feldlager links bringt 4 Punkte, das gegenüberliegende nochmals
# die gleiche Summe. Das Feldlager unten bringt insgesamt 2 Punkte ein."
EXAMPLE_CAMPS = " fl:6bEaE@-1,1 fl:6bWaW@4,1 fl:4bNaN@1,-1"
MARKET = "Gu:fl:6bSaS Di:fl:5bEaE De:fl:4bWaW Du:C7ne"


def position(
    body: str = "", anna: str = BASE, modules: str = "feldlager", market: str = MARKET
) -> GameReport:
    return check_position(
        body,
        modules=modules,
        market=market,
        players={"Anna": ["hand Gu6 Di5 De4 Du9", f"alhambra {anna}"]},
    )


def found(rep: GameReport) -> list[str]:
    skip = ("TILE-SUPPLY", "SQUARE-FACE-UNVERIFIED")
    return [v.code for v in rep.violations if v.code not in skip]


def categories(rep: GameReport, who: str = "Anna", round_no: int = 1) -> dict[str, Any]:
    assert rep.state is not None
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        if p["name"] == who:
            return dict(p)
    raise AssertionError(who)


def camp_points(rep: GameReport, round_no: int = 1) -> int:
    cat = categories(rep, round_no=round_no).get("categories", {}).get("camps")
    return 0 if cat is None else int(cat["points"])


# --------------------------------------------------------------------------- components


def test_camp_tokens() -> None:
    # "8 Feldlagerplättchen – sie zeigen jeweils ein oder zwei ... Bastionen"; caption "Preis
    # 2 Bastionen Richtung, in die gewertet wird"
    assert parse_camp("6bSaS") == (6, frozenset({Side.S}), frozenset({Side.S}))
    assert parse_camp("7bswane") == (7, frozenset({Side.S, Side.W}), frozenset({Side.N, Side.E}))
    assert parse_camp("7bSOaN") == (7, frozenset({Side.S, Side.E}), frozenset({Side.N}))
    for bad in ("6", "6bS", "6aS", "bSaS", "6bSSaS", "6bXaS"):
        assert parse_camp(bad) is None, bad
    camp = Camp(6, frozenset({Side.S}), frozenset({Side.S}))
    assert camp.code == "fl:6bSaS" and camp.type is None and camp.walls == frozenset()
    assert camp.matches(ComponentRef("fl", "6bsas")) and camp.matches(ComponentRef("fl", "6"))
    assert not camp.matches(ComponentRef("fl", "6bNaS"))


def test_bad_tokens_and_faces_are_reported() -> None:
    rep = position(market="Gu:fl:6x Di:fl:5bNESaN De:- Du:C7ne")
    assert found(rep) == ["FELDLAGER-TOKEN", "FELDLAGER-FACE"]


def test_eight_camps_in_the_tower() -> None:
    # "8 Feldlagerplättchen", mixed into the tower: three on the market leave five
    assert view(position(), "feldlager")["table"]["in the tower"] == "5"
    six = " ".join(["fl:4bSaS"] * 6)  # and six more in a reserve: nine camps
    rep = position(anna=BASE + "\n    reserve " + six)
    assert "TILE-SUPPLY" in [v.code for v in rep.violations]


def test_switched_off() -> None:
    rep = position(modules="", market=MARKET)
    assert [v.code for v in rep.violations][:1] == ["MODULE-NOT-ENABLED"]


# ------------------------------------------------------------------------ building rules


def test_a_camp_leans_with_its_bastion_on_a_wall_and_needs_no_way_on_foot() -> None:
    # "Feldlager dürfen nur mit Bastion(en) an Stadtmauer(n) eines Gebäudeplättchens angelegt
    # werden." -- "Die „Fußgänger-Regel” gilt nicht für Feldlager." (4,1 lies behind the wall)
    rep = position("1. Anna: buy De fl:4bWaW pay De4, place fl:4bWaW@4,1")
    assert found(rep) == [], messages(rep)
    rep = position("1. Anna: buy Di fl:5bEaE pay Di5, place fl:5bEaE@-1,1")
    assert found(rep) == [], messages(rep)


def test_a_bastion_on_an_open_side_or_a_green_side_on_a_building() -> None:
    # captions: "Nicht erlaubt: Grüne Seite oder Bastion an Gebäudeseite ohne Stadtmauer."
    rep = position("1. Anna: buy Gu fl:6bSaS pay Gu6, place fl:6bSaS@1,2")
    assert found(rep) == ["PLACE-SIDE"]
    # a green side on the wall of the chambers (the bastion faces nothing): reading (c), camps
    # attach only with bastions
    rep = position("1. Anna: buy De fl:4bWaW pay De4, place fl:4bWaW@-1,1")
    assert found(rep) == ["PLACE-SIDE"]


def test_camps_touch_each_other_only_with_green_sides() -> None:
    # "Feldlager dürfen einander nur mit ihren Seiten ohne Bastion berühren." -- captions:
    # "Erlaubt: Grüne Seite an grüne Seite"; "Nicht erlaubt: Bastion oder grüne Seite an
    # Bastion"
    first = "1. Anna: buy Di fl:5bEaE pay Di5, "
    # green to green, but the second camp leans on no wall with its bastion
    rep = position(first + "buy De fl:4bWaW pay De4, place fl:5bEaE@-1,1, place fl:4bWaW@-2,1")
    assert found(rep) == ["FELDLAGER-BASTION"] and "-2,1" in messages(rep)[0]
    # a bastion against the first camp's green side
    rep = position(first + "buy Gu fl:6bSaS pay Gu6, place fl:5bEaE@-1,1, place fl:6bSaS@-1,2")
    assert found(rep) == ["PLACE-SIDE"]


def test_a_building_later_meets_a_camp_by_the_same_rules() -> None:
    # a tile placed later beside a camp: against a bastion only with a wall, against a green
    # side never
    anna = BASE + " fl:4bNaN@1,-1"
    rep = position("1. Anna: buy Du C7ne pay Du9, place C7ne@2,-1", anna=anna)
    assert "PLACE-SIDE" in found(rep)  # its west side (open) meets the camp's green side


def test_a_redesign_never_leaves_a_camp_without_its_wall() -> None:
    # "Auch nach den Umbaumaßnahmen muss die Alhambra gemäß den Bauregeln aufgebaut sein."
    anna = BASE + " fl:4bWaW@4,1"
    rep = position("1. Anna: remove P7e@3,1", anna=anna)
    assert found(rep) == ["FELDLAGER-BASTION"] and "4,1" in messages(rep)[0]
    assert found(position("1. Anna: remove P7e@3,1", anna=BASE + " fl:4bNaN@1,-1")) == []


# ------------------------------------------------------------------------------ scoring


def test_the_rulebook_example_four_four_and_two_make_ten() -> None:
    # "Beispiel: Das Feldlager links bringt 4 Punkte, das gegenüberliegende nochmals die gleiche
    # Summe. Das Feldlager unten bringt insgesamt 2 Punkte ein. Insgesamt wurden hier 10 extra
    # Siegpunkte erzielt."
    rep = position(anna=BASE + EXAMPLE_CAMPS)
    assert found(rep) == [], messages(rep)
    for round_no in (1, 2, 3):  # "Bei jeder Wertung"
        assert camp_points(rep, round_no) == 10
    cat = categories(rep)["categories"]["camps"]
    assert cat["detail"] == "fl:6bEaE@-1,1: E 4; fl:6bWaW@4,1: W 4; fl:4bNaN@1,-1: N 2"
    assert "O 4" in cat["detail_de"]


def test_camps_count_for_no_majority() -> None:
    # "Sie selbst haben keinen Punktewert"
    rep = position(anna=BASE + EXAMPLE_CAMPS)
    counts = {k: v["count"] for k, v in categories(rep)["buildings"].items()}
    assert sum(counts.values()) == 5


def test_inner_walls_do_not_break_the_line() -> None:
    # "Anmerkung: Innen liegende Stadtmauern unterbrechen diese Linie nicht."
    anna = "C9w@0,1 P7e@1,1 S7w@2,1 A8e@3,1 C9s@1,0 A9-@2,0 fl:6bEaE@-1,1"
    rep = position(anna=anna)
    assert found(rep) == [], messages(rep)
    assert camp_points(rep) == 4


def test_the_start_tile_and_squares_count_like_buildings() -> None:
    # "Anmerkung: Startplättchen und Plätze zählen hier wie Gebäude mit."
    anna = "P7e@1,0 P8-@-1,0 sq:G0@-2,0 fl:6bWaW@2,0"
    rep = position(anna=anna, modules="feldlager, plaetze")
    assert found(rep) == [], messages(rep)
    assert camp_points(rep) == 4


def test_another_camp_ends_the_line() -> None:
    # the tiles "in gerader lückenloser Linie": a camp is no building (reading (b))
    anna = "C9w@-1,0 P7e@1,0 fl:6bEaE@-2,0 fl:6bWaW@2,0"
    rep = position(anna=anna)
    assert found(rep) == [], messages(rep)
    assert camp_points(rep) == 6


def test_two_arrows_score_both_directions_and_the_line_start() -> None:
    # "Feldlager mit zwei Pfeilen werden in beide Richtungen gewertet."
    p8 = next(t for t in _tiles() if t.full_code == "P8-")
    s9 = next(t for t in _tiles() if t.full_code == "S9-")
    camp = Camp(7, frozenset({Side.S}), frozenset({Side.S, Side.E}))
    alh = Alhambra([(Coord(0, 1), camp), (Coord(1, 1), p8), (Coord(2, 1), s9)])  # type: ignore[list-item]
    assert camp_lines(alh, Coord(0, 1), camp) == [2, 1]  # east 1,1 2,1; south the fountain
    assert score_camps(alh) is not None and score_camps(alh)[0] == 3  # type: ignore[index]
    # line=touching: the line starts beside the camp; line=first skips empty cells before it
    far = Camp(7, frozenset({Side.S}), frozenset({Side.E}))
    alh = Alhambra([(Coord(-2, 0), far), (Coord(-1, 0), p8)])  # type: ignore[list-item]
    assert camp_lines(alh, Coord(-2, 0), far) == [2]
    alh2 = Alhambra([(Coord(-3, 0), far), (Coord(-1, 0), p8)])  # type: ignore[list-item]
    assert camp_lines(alh2, Coord(-3, 0), far) == [0]
    assert camp_lines(alh2, Coord(-3, 0), far, "first") == [2]


def _tiles() -> list[Any]:
    from referee.catalogue import catalogue

    return list(catalogue().tiles)


def test_a_wall_with_a_bastion_counts_like_a_wall_without() -> None:
    # "Stadtmauern mit Bastion werden genauso gewertet wie Stadtmauern ohne Bastion."
    # (switch walls=covered: the camp covers the wall it leans on)
    plain = categories(position(anna=BASE))["wall"]["length"]
    seen = categories(position(anna=BASE + EXAMPLE_CAMPS))["wall"]["length"]
    covered = categories(position(anna=BASE + EXAMPLE_CAMPS, modules="feldlager walls=covered"))
    assert seen == plain and covered["wall"]["length"] < plain


# ------------------------------------------------------------ positions and the example


def test_a_position_states_the_camps_and_show_record_round_trips() -> None:
    rep = position("1. Anna: buy De fl:4bWaW pay De4, place fl:4bWaW@4,1")
    assert rep.state is not None
    text = position_text(rep.state)
    assert "fl:4bWaW@4,1" in text
    head = '[Players "Anna, Ben, Cem"]\n[Modules "feldlager"]\n\n'
    again = check_game(parse_text(head + text, "p")[0])
    assert again.state is not None and position_text(again.state) == text


def test_legal_cells_for_a_camp() -> None:
    from referee.engine.context import Context
    from referee.engine.legal import cells_for

    rep = position(anna=BASE)
    assert rep.state is not None
    camp = Camp(4, frozenset({Side.W}), frozenset({Side.W}))
    cells = cells_for(Context(rep.state), rep.state.players[0], camp)
    assert Coord(4, 1) in cells and Coord(-1, 1) not in cells and Coord(1, 2) not in cells


def test_the_example_game_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    rep = check_game(game)
    assert rep.violations == [] and rep.complete
    assert format_game(game) == text
    assert text.count("place fl:") >= 3


def test_corruptions_of_the_example_are_caught() -> None:
    import re

    text = EXAMPLE.read_text(encoding="utf-8")
    placed = re.search(r"place (fl:\w+)@(-?\d+,-?\d+)", text)
    assert placed is not None
    moved = text.replace(placed.group(0), f"place {placed.group(1)}@9,9", 1)
    rep = check_game(parse_text(moved, "c.alh")[0])
    assert "PLACE-ADJACENT" in [v.code for v in rep.violations]
    # a camp written with another face than it was drawn with
    face = placed.group(1)
    other = face.replace("aN", "aS") if face.endswith("aN") else face[:-1] + "N"
    rep = check_game(parse_text(text.replace(f"place {face}@", f"place {other}@", 1), "c")[0])
    assert rep.violations


@pytest.mark.parametrize("bad", ["fl:6bSaS", "fl:9bNaN"])
def test_a_camp_placed_that_was_not_bought(bad: str) -> None:
    rep = position(f"1. Anna: take Gu4, place {bad}@4,1")
    assert found(rep)


def test_the_terminal_map_draws_the_bastions() -> None:
    # a camp's bastions lean on walls (L1150-1152): the map marks each bastion side with "#"
    # on the line between the camp and the wall it leans on (the SVG draws merlons there)
    from click.testing import CliRunner

    from referee.cli import cli

    root = Path(__file__).resolve().parent.parent / "examples"
    out = CliRunner().invoke(cli, ["show", str(root / "module-feldlager.alh")]).output
    lines = out.splitlines()
    row = next(i for i, line in enumerate(lines) if "F4↓" in line)
    assert "━━#━━" in lines[row + 1]  # the camp on 0,3 leans with its south bastion
    base = CliRunner().invoke(cli, ["show", str(root / "game-4p.alh")]).output
    assert "#" not in base
