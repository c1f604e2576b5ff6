"""Frische Farben (rulebook-bigbox-de-2019.txt § Marco Ruskowski & Marcel Süßelbeck: Frische
Farben, L3286-3385).

Each test starts from a position (three players; the four project fields filled) and quotes
the sentence it tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, view

from referee.api import score_state
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.modules.farben import parse_colour, parse_project, per_type
from referee.notation import parse_text
from referee.record.model import ComponentRef
from tests.module_support import check_position

X = "farben"
FIELDS = "projects Gu fp:Gbnw Di fp:T De fp:A Du fp:C"
ROW = "P5@-1,0 P8@1,0 P6@2,0 C10@3,0 C11@4,0"  # three pavilions, two chambers


def position(
    body: str,
    hand: str = "Gu9 Gu2 Di9 De8",
    mine: str = "",
    table: str = FIELDS,
    modules: str = X,
    players: str = "Anna, Ben, Cem",
    alhambra: str = "",
    market: str = "Gu:A4 Di:A9 De:T12 Du:P7",
) -> GameReport:
    seats = players.split(", ")
    anna_lines = [f"hand {hand}", f"alhambra {alhambra}" if alhambra else "", mine]
    given = {"Anna": anna_lines, **{n: "hand Du8 Di5 Gu1" for n in seats[1:] if n != "Dirk"}}
    return check_position(
        body,
        modules=modules,
        players=given,
        market=market,
        display="Gu4 Di3 De2 Du9",
        table=["dirk G6 T9ne" if len(seats) == 2 else "", table],
        names=players,
    )


NOISE = ("REFILL-DISPLAY", "FARBEN-MISSING")


def c(rep: GameReport) -> list[str]:
    return codes(rep, ignore=NOISE)


def anna(rep: GameReport, lang: str = "en") -> dict[str, Any]:
    row: dict[str, Any] = view(rep, X, lang)["players"].get("Anna", {})
    return row


# ------------------------------------------------------------------ tokens and components


def test_tokens() -> None:
    assert parse_colour(ComponentRef("fc", "p")) == "p"
    assert parse_colour(ComponentRef("fc", "x")) is None
    p = parse_project(ComponentRef("fp", "Prbr"))
    assert p is not None and p.type.value == "P" and p.recipe == "brr" and p.code == "fp:Pbrr"
    assert parse_project(ComponentRef("fp", "Q")) is None
    assert parse_project(ComponentRef("fp", "Pbbbbbb")) is None  # 6 > "mehr als 5"


def test_star_tiles_leave_with_two_or_three_players() -> None:
    # "Im Spiel zu zweit und zu dritt: Die Projektplättchen mit einem Stern ... kommen zurück in
    # die Schachtel." (L3296-3299); "18 Projektplättchen (je 3x pro Gebäudeart)" (L3347-3348)
    assert per_type(2) == per_type(3) == 2 and per_type(4) == per_type(6) == 3
    rep = position("")
    assert view(rep, X)["table"]["projects in the stack"] == str(12 - 4)
    rep = position("", players="Anna, Ben, Cem, Dan")
    assert view(rep, X)["table"]["projects in the stack"] == str(18 - 4)


# ------------------------------------------------------------------ the overpayment


@pytest.mark.parametrize(
    "take, held",
    [
        ("colour fc:p fc:p", "2 purple"),
        ("colour fc:b", "1 blue"),
        ("colour fc:n", "1 brown"),
    ],
)
def test_the_gulden_example_offers(take: str, held: str) -> None:
    # "Der Spieler kauft ein Gebäude in der Währung Gulden (Gelb) und überzahlt dieses. Er darf
    # deshalb entweder das Garten-Projektplättchen, das Projektplättchen vom Stapel oder 2 lila
    # Farbplättchen oder 1 blaues Farbplättchen oder 1 braunes Farbplättchen nehmen." (L3313-3316)
    rep = position(f"1. Anna: buy Gu A4 pay Gu9, {take}, reserve A4\n")
    assert c(rep) == [], messages(rep)
    assert anna(rep)["colour tiles"] == held
    de = {"2 purple": "2 lila", "1 blue": "1 blau", "1 brown": "1 braun"}[held]
    assert anna(rep, "de")["Farbplättchen"] == de


def test_the_gulden_example_projects() -> None:
    rep = position("1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n")
    assert c(rep) == [], messages(rep)
    assert anna(rep)["projects"] == "fp:Gbnw (unfinished; blue + brown + white)"
    assert view(rep, X)["table"]["project fields"].startswith("Gu - ")
    rep = position("1. Anna: buy Gu A4 pay Gu9, project stack fp:Pbrr, reserve A4\n")
    assert c(rep) == [], messages(rep)
    assert "fp:Pbrr" in anna(rep)["projects"]
    assert view(rep, X)["table"]["projects in the stack"] == "7"


def test_another_colour_is_not_on_the_gulden_column() -> None:
    rep = position("1. Anna: buy Gu A4 pay Gu9, colour fc:r, reserve A4\n")
    assert c(rep) == ["FARBEN-COLUMN"]
    assert "2 purple" not in anna(rep).get("colour tiles", "")
    rep = position("1. Anna: buy Gu A4 pay Gu9, colour fc:b fc:b, reserve A4\n")
    assert c(rep) == ["FARBEN-COLUMN"]
    rep = position("1. Anna: buy Gu A4 pay Gu9, colour fc:b fc:n, reserve A4\n")
    assert c(rep) == ["FARBEN-COLUMN"]  # an offer is one tile or a pair of one colour


def test_only_an_overpaid_building_gives_a_take() -> None:
    # "Wenn ein Spieler die Aktion: Gebäudeplättchen kaufen wählt und das Gebäude überbezahlt"
    rep = position("1. Anna: buy Gu A4 pay Gu2 Gu2, colour fc:b, reserve A4\n", hand="Gu2 Gu2 De8")
    assert c(rep) == ["FARBEN-NO-OVERPAY"]
    assert "exactly" in messages(rep)[0]
    rep = position("1. Anna: take Gu4, colour fc:b\n")
    assert c(rep) == ["FARBEN-NO-OVERPAY"]


def test_one_take_per_overpaid_purchase() -> None:
    # "entweder ... oder ... oder"
    rep = position("1. Anna: buy Gu A4 pay Gu9, colour fc:b, project fp:G, reserve A4\n")
    assert c(rep) == ["FARBEN-NO-OVERPAY"]


def test_the_column_of_the_paid_currency() -> None:
    # "darf er aus der Spalte der bezahlten Währung entweder das Projektplättchen der
    # zugehörigen Währung ..." (L3307-3312): a Dirham purchase takes the Dirham project
    rep = position("1. Anna: buy Di A9 pay Di9 Di1, project fp:G, reserve A9\n", hand="Di9 Di1")
    assert c(rep) == ["FARBEN-PROJECT"]
    assert "holds fp:T" in messages(rep)[0]
    rep = position("1. Anna: buy Di A9 pay Di9 Di1, project fp:T, reserve A9\n", hand="Di9 Di1")
    assert c(rep) == [], messages(rep)


def test_a_stated_column_is_checked_and_holds_three_offers() -> None:
    rep = position(
        "* column Di gg r w\n1. Anna: buy Di A9 pay Di9 Di1, colour fc:b, reserve A9\n",
        hand="Di9 Di1",
    )
    assert c(rep) == ["FARBEN-COLUMN"]
    body = (
        "1. Anna: buy Di A9 pay Di9 Di1, colour fc:r, reserve A9\n* market Di:P3\n"
        "2. Ben: buy Di P3 pay Di5, colour fc:w, reserve P3\n* market Di:S4\n"
        "3. Cem: buy Di S4 pay Di5, colour fc:g fc:g, reserve S4\n* market Di:A5\n"
    )
    rep = position(body, hand="Di9 Di1 Di9")
    assert c(rep) == [], messages(rep)
    assert view(rep, X)["table"]["columns seen"] == "Di gg r w"
    rep = position(
        body + "4. Anna: buy Di A5 pay Di9, colour fc:p, reserve A5\n", hand="Di9 Di1 Di9"
    )
    assert c(rep) == ["FARBEN-COLUMN"], messages(rep)
    assert "three other offers" in messages(rep)[0]
    rep = position("* column Gu gg r w\n")
    assert c(rep) == ["FARBEN-COLUMN"]  # the Gulden column is in the text


def test_the_reconstructed_columns_with_the_switch() -> None:
    rep = position(
        "1. Anna: buy Di A9 pay Di9 Di1, colour fc:b, reserve A9\n",
        hand="Di9 Di1",
        modules="farben columns=data",
    )
    assert c(rep) == ["FARBEN-COLUMN"]
    assert "unverified" in messages(rep)[0]


# ------------------------------------------------------------------ at most 5 colour tiles


def test_the_rulebook_example_five_tiles_and_two_green() -> None:
    # "Der Spieler besitzt bereits fünf Farbplättchen. Er darf sich wegen einer Überbezahlung
    # zwei grüne Farbplättchen nehmen, muss jedoch danach zwei Farbplättchen aus seinem Besitz
    # in den Vorrat zurücklegen. Das kann auch ein soeben erhaltenes Farbplättchen sein."
    # (L3339-3345)
    five = "colour fc:b fc:b fc:r fc:w fc:n"
    body = (
        "* column Di gg r w\n1. Anna: buy Di A9 pay Di9 Di1, colour fc:g fc:g{drop}, reserve A9\n"
    )
    rep = position(body.format(drop=" drop fc:r fc:g"), hand="Di9 Di1", mine=five)
    assert c(rep) == [], messages(rep)
    assert anna(rep)["colour tiles"] == "2 blue, 1 green, 1 brown, 1 white"
    rep = position(body.format(drop=""), hand="Di9 Di1", mine=five)
    assert c(rep) == ["FARBEN-OVER-5"]
    rep = position(body.format(drop=" drop fc:r fc:g fc:g"), hand="Di9 Di1", mine=five)
    assert c(rep) == ["FARBEN-DROP"]  # only the surplus
    rep = position(body.format(drop=" drop fc:p fc:g"), hand="Di9 Di1", mine=five)
    assert c(rep) == ["FARBEN-DROP", "FARBEN-OVER-5"]  # not held: he still holds 6


def test_the_colour_supply() -> None:
    # "36 Farbplättchen (je 6x Blau, Rot, Braun, Weiß, Grün und Lila)" (L3354-3355)
    rep = position(
        "1. Anna: buy Gu A4 pay Gu9, colour fc:p fc:p, reserve A4\n",
        mine="colour fc:p fc:p fc:p",
        table=FIELDS + "\n  player Ben\n    colour fc:p fc:p\n",
    )
    assert "FARBEN-SUPPLY" in c(rep)


# ------------------------------------------------------------------ projects


def test_one_project_per_type_and_two_unfinished() -> None:
    # "Es ist nicht erlaubt, mehrere Projektplättchen der gleichen Gebäudeart oder mehr als 2
    # unvollendete Projektplättchen zu besitzen." (L3323-3325)
    rep = position("1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n", mine="projects fp:G")
    assert c(rep) == ["FARBEN-PROJECT-TYPE"]
    rep = position(
        "1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n", mine="projects done fp:G"
    )
    assert c(rep) == ["FARBEN-PROJECT-TYPE"]  # finished or not
    rep = position(
        "1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n", mine="projects fp:P fp:S"
    )
    assert c(rep) == ["FARBEN-PROJECT-LIMIT"]
    rep = position(
        "1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n",
        mine="projects fp:P\n    projects done fp:S",
    )
    assert c(rep) == [], messages(rep)


def test_a_taken_field_is_refilled_from_the_stack() -> None:
    # reading: as at the setup, "mit dem jeweils obersten Projektplättchen belegt" (L3292-3294)
    body = "1. Anna: buy Gu A4 pay Gu9, project fp:G, reserve A4\n"
    rep = position(body + "2. Ben: take Du9\n")
    assert codes(rep, ignore=("REFILL-DISPLAY",)) == ["FARBEN-MISSING"]
    rep = position(body + "* projects Gu fp:S\n2. Ben: take Du9\n")
    assert codes(rep, ignore=("REFILL-DISPLAY",)) == [], messages(rep)
    rep = position(body + "* projects Di fp:S\n")
    assert c(rep) == ["FARBEN-FIELD"]  # occupied
    rep = position(body + "* projects Gu fp:S\n", modules="farben refill=none")
    assert c(rep) == ["FARBEN-FIELD"]


def test_the_project_supply_per_type() -> None:
    # with three players two tiles per type are in play
    rep = position("", table="projects Gu fp:G Di fp:G De fp:G Du fp:C")
    assert c(rep) == ["FARBEN-SUPPLY"]


# ------------------------------------------------------------------ finishing


def test_finishing_a_project() -> None:
    # "Der Spieler legt die erforderlichen Farbplättchen für ein oder zwei unvollendete
    # Projektplättchen zurück in den Vorrat und darf jedes nun vollendete Projektplättchen
    # umdrehen." (L3330-3333)
    mine = "colour fc:b fc:r fc:r fc:w\n    projects fp:Pbrr"
    rep = position("1. Anna: finish fp:P fc:b fc:r fc:r\n", mine=mine)
    assert c(rep) == [], messages(rep)
    assert anna(rep)["colour tiles"] == "1 white"
    assert anna(rep)["projects"] == "fp:Pbrr (finished; blue + red + red)"
    assert "6 red" in view(rep, X)["table"]["colour tiles in the supply"]
    rep = position("1. Anna: finish fp:P fc:b fc:r fc:w\n", mine=mine)
    assert c(rep) == ["FARBEN-FINISH"] and "needs" in messages(rep)[0]
    rep = position("1. Anna: finish fp:S fc:b\n", mine=mine)
    assert c(rep) == ["FARBEN-FINISH"]
    rep = position("1. Anna: finish fp:P fc:b fc:r fc:r\n", mine="projects fp:Pbrr")
    assert c(rep) == ["FARBEN-FINISH"]  # colours not held


def test_two_projects_at_once_and_an_unknown_recipe() -> None:
    mine = "colour fc:b fc:r fc:r fc:w fc:g\n    projects fp:Pbrr fp:S"
    rep = position("1. Anna: finish fp:P fp:S fc:b fc:r fc:r fc:w fc:g\n", mine=mine)
    assert c(rep) == [], messages(rep)
    assert "fp:Sgw (finished" in anna(rep)["projects"]
    rep = position("1. Anna: finish fp:P fp:S fc:b fc:r fc:r\n", mine=mine)
    assert c(rep) == ["FARBEN-FINISH"]  # nothing left for the second project


def test_finishing_is_the_action_of_the_turn() -> None:
    # "Neue Aktion: Projekt abschließen"
    mine = "colour fc:b fc:r fc:r\n    projects fp:Pbrr"
    rep = position("1. Anna: take Gu4, finish fp:P fc:b fc:r fc:r\n", mine=mine)
    assert c(rep) == ["TURN-OVER"], messages(rep)


# ------------------------------------------------------------------ scoring


def project_line(rep: GameReport, round_no: int) -> dict[str, Any]:
    assert rep.state is not None
    out = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("projects")
        if cat:
            out[p["name"]] = cat
    return out


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_the_rulebook_example_ten_points(round_no: int) -> None:
    # "Der Spieler kann während der zweiten Wertung zwei vollendete Projekte vorweisen (Pavillon
    # und Gemächer). Er hat in seiner Alhambra drei Pavillons und zwei Gemächer liegen. Für
    # diese fünf Gebäude erhält er nun 10 Punkte (2 Punkte pro Gebäude)." (L3368-3375)
    rep = position("", alhambra=ROW, mine="projects done fp:P fp:C\n    projects fp:S")
    assert c(rep) == [], messages(rep)
    line = project_line(rep, round_no)
    assert line["Anna"]["points"] == 10
    assert "Ben" not in line
    assert anna(rep)["project points now"] == "10"


def test_an_unfinished_project_scores_nothing() -> None:
    rep = position("", alhambra=ROW, mine="projects fp:P fp:C")
    assert project_line(rep, 1) == {}


def test_dirk_gets_nothing() -> None:
    # "Sonderregel im Spiel zu zweit: Dirk erhält weder Farben noch Projektplättchen."
    # (L3365-3366): Dirk never buys, so he never overpays; he has no colours, projects or points
    rep = position(
        "1. Anna: buy Gu A4 pay Gu9, colour fc:b, give A4 dirk\n",
        players="Anna, Ben",
    )
    assert c(rep) == [], messages(rep)
    assert set(view(rep, X)["players"]) == {"Anna"}
    assert "Dirk" not in project_line(rep, 1)


# ------------------------------------------------------------------ positions


def test_a_position_states_fields_colours_and_projects() -> None:
    mine = "colour fc:b fc:r\n    projects fp:Pbrr\n    projects done fp:C"
    rep = position("* column Di gg r w\n", mine=mine)
    assert c(rep) == [], messages(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "  projects Gu fp:Gbnw Di fp:T De fp:A Du fp:C\n" in text
    assert "  column Di gg r w\n" in text
    assert "    colour fc:b fc:r\n    projects fp:Pbrr\n    projects done fp:C\n" in text
    rep = position("", mine="projects fp:Q")
    assert c(rep) == ["FARBEN-POSITION"]
    rep = position("", mine="colour fc:b fc:b fc:b fc:r fc:r fc:w")
    assert c(rep) == ["FARBEN-OVER-5"]


# ------------------------------------------------------------------ switched off


def test_the_module_switched_off() -> None:
    rep = position("1. Anna: buy Gu A4 pay Gu9, colour fc:b, reserve A4\n", table="", modules="")
    assert "MODULE-NOT-ENABLED" in codes(rep)


# ------------------------------------------------------------------ the example game


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-farben.alh"


def test_the_example_completes_a_project_and_its_points_may_be_claimed() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "finish fp:" in text and ", colour fc:" in text and ", project fp:" in text
    last = "scoring 3: Anna =112, Ben =118, Cem =125"
    assert last in text
    for claim, want in (("4", []), ("6", ["SCORE-CLAIM"])):
        games = parse_text(text.replace(last, f"{last} (projects={claim})"), "ex.alh")
        assert codes(check_game(games[0])) == want


def test_colours_and_projects_show_in_the_terminal_the_svg_and_the_replay(tmp_path: Path) -> None:
    """The player area (Module.player_area): under the player's name in the terminal table and
    under his Alhambra in the SVG, in words in both languages; the replay shows the view."""
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    res = runner.invoke(cli, ["show", str(EXAMPLE), "--at", "97", "--player", "Cem"])
    assert res.exit_code == 0, res.output
    assert "Fresh Colours: colour tiles 1 blue, 2 green, 1 brown, 1 purple; projects" in res.output
    assert "fp:Cbgp (unfinished)" in res.output
    res = runner.invoke(cli, ["show", str(EXAMPLE), "--at", "97", "--lang", "de"])
    assert "Frische Farben: Farbplättchen 1 blau, 2 grün, 1 braun, 1 lila" in res.output
    svg = tmp_path / "t.svg"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--at", "97", "-o", str(svg)])
    assert res.exit_code == 0, res.output
    text = svg.read_text(encoding="utf-8")
    want = ">Fresh Colours: colour tiles 2 red, 2 white; projects fp:Pbnr (unfinished), fp:Abbn"
    assert want in text
    page = tmp_path / "t.html"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--html", "--lang", "de", "-o", str(page)])
    assert res.exit_code == 0, res.output
    html = page.read_text(encoding="utf-8")
    assert "Farbplättchen im Vorrat" in html and "Projektplättchen (fp:Abbn)" in html


def test_the_module_s_generated_moves_are_accepted_along_the_example() -> None:
    """``legal`` / the simulator: every colour take, project take and completion the module
    offers inside the example's turns is accepted by the checker, and each kind turns up."""
    import random

    from test_legal_generator import positions

    from referee.engine import check_action
    from referee.engine.legal import legal_actions

    rng = random.Random(3)
    kinds: set[str] = set()
    for state in positions(EXAMPLE.read_text(encoding="utf-8"), 2, rng):
        for a in legal_actions(state):
            verb = getattr(a, "verb", None)
            if verb in ("colour", "project", "finish") and verb not in kinds:
                errors = [v.message() for v in check_action(state, a) if v.severity == "error"]
                assert errors == [], (a, errors)
                kinds.add(verb)
    assert kinds == {"colour", "project", "finish"}


def test_german_verb_aliases() -> None:
    mine = "colour fc:b fc:r fc:r\n    projects fp:Pbrr"
    rep = position("1. Anna: abschliessen fp:P fc:b fc:r fc:r\n", mine=mine)
    assert c(rep) == [], messages(rep)
    rep = position("1. Anna: buy Gu A4 pay Gu9, farbe fc:b, reserve A4\n")
    assert c(rep) == [] and anna(rep)["colour tiles"] == "1 blue"


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 22), (4, 9), (6, 3)])
def test_any_moment_of_a_simulated_game_reads_back_the_same(players: int, seed: int) -> None:
    """The round trip of the position property test, at several moments of farben games: the
    position text, the module's view, the legal actions and the score breakdown."""
    from test_position_roundtrip import _breakdown, written

    from referee.engine.legal import legal_actions
    from referee.engine.walk import At, state_at
    from referee.simulate import simulate_game
    from referee.simulate.roundtrip import read_back, snapshot

    game = simulate_game(players, seed, modules=(X,))
    last, _ = state_at(game, At("end"))
    for k in sorted({1, last.turn_no // 3, (2 * last.turn_no) // 3, last.turn_no - 1}):
        state, state2, text, again, errors = read_back(game, At("turn", k))
        assert not again.errors and errors == [], (k, text)
        assert snapshot(state2) == snapshot(state), k
        ours = sorted(map(written, legal_actions(state)))
        assert sorted(map(written, legal_actions(state2))) == ours, k
        assert _breakdown(state2) == _breakdown(state), k


@pytest.mark.parametrize(
    ("players", "profile"), [(2, "queen-bigbox-2019"), (5, "bga"), (6, "piatnik-hu")]
)
def test_simulated_games_check_clean(players: int, profile: str) -> None:
    from referee.profiles import load_profile
    from referee.simulate import simulate_text

    text = simulate_text(players, 11, load_profile(profile), None, (X,))
    (game,) = parse_text(text, "sim.alh")
    rep = check_game(game)
    assert rep.violations == [] and rep.complete, messages(rep)[:3]
