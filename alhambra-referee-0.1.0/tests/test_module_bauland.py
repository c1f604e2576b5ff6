"""Neues Bauland (``referee/modules/bauland.py``): rulebook-bigbox-de-2019.txt § Dirk Henn:
Neues Bauland.

Every sentence of the section, its example (a plot for 12 Denar receiving a pavilion, arcades or
chambers), the two-player rule, the readings the text leaves open, and the corruptions a record
can contain (a building from the wrong column, a plot without its building, Dirk's plot with
another building than the topmost).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import view

from referee.catalogue import BuildingType
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.modules.bauland import Plot
from referee.notation import parse_text

BL = "bauland"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "module-bauland.alh"

# Ben (3 cards) starts. Column 1 holds a pavilion, arcades and chambers: the section's example
# ("ob er dieses Baugrundstück mit einem Pavillon, einer Arkade oder mit Gemächern bestücken
# will"); the plot of number 1 costs 12 Denar ("zum Preis von 12 Denar (blaue Währung)").
SETUP = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 De9 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
{plots}* market Gu:G11 Di:bl:1_2x De:bl:1_12n Du:T12
start Ben
"""
PLOTS = "* plots 1 P A C, plots 2 S G T, plots 3 A G P, plots 4 C T S\n"


def run(body: str, plots: str = PLOTS, modules: str = BL) -> GameReport:
    games = parse_text(SETUP.format(modules=modules, plots=plots) + body, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def found(rep: GameReport, code: str) -> list:  # type: ignore[type-arg]
    return [v for v in rep.violations if v.code == code]


def plots_of(rep: GameReport, name: str) -> list[Plot]:
    assert rep.state is not None
    p = rep.state.player_named(name)
    assert p is not None
    return [x for _c, x in p.alhambra.items() if isinstance(x, Plot)] + [
        x for x in p.reserve if isinstance(x, Plot)
    ]


def columns(rep: GameReport) -> dict[int, list[str]]:
    table = view(rep, BL)["table"]  # "number tile 1": "P A" ("-": empty, "?": not laid out)
    return {
        int(key.rsplit(" ", 1)[1]): [] if text == "-" else text.split()
        for key, text in table.items()
        if key.startswith("number tile ") and text != "?"
    }


BUY = "1. Ben: buy De bl:1_12n pay De9 De3"


# ------------------------------------------------------------------ the section's example


def test_example_the_plot_for_12_denar_receives_chambers() -> None:
    # "Beispiel: Das Baugrundstück kann zum Preis von 12 Denar (blaue Währung) gekauft werden.
    # Dann wählt der Spieler, ob er dieses Baugrundstück mit einem Pavillon, einer Arkade oder
    # mit Gemächern bestücken will, nimmt sich das entsprechende Plättchen aus der Auslage und
    # legt es sofort auf sein Baugrundstück."
    rep = run(BUY + ", plot C, place bl:1_12n_C@1,0\n")
    assert codes(rep) == []
    (plot,) = plots_of(rep, "Ben")
    assert plot.type is BuildingType.CHAMBERS and plot.price == 12
    assert columns(rep)[1] == ["P", "A"]  # taken from the display under number tile 1


@pytest.mark.parametrize("kind", ["P", "A", "C"])
def test_any_building_of_the_column_may_be_chosen(kind: str) -> None:
    # "sucht er sofort eines der Baugebäude aus, die unter dem entsprechenden Zahlenplättchen
    # liegen" -- any of them, not only the topmost
    rep = run(BUY + f", plot {kind}, place bl:1_12n@1,0\n")
    assert codes(rep) == []
    assert plots_of(rep, "Ben")[0].type is BuildingType(kind)


def test_the_plot_is_bought_for_its_price() -> None:
    # "so kann ein Spieler dieses Grundstück für den darauf angegebenen Preis kaufen"
    rep = run("1. Ben: buy De bl:1_12n pay De9, plot C, reserve bl:1_12n\n")
    assert "BUY-UNDERPAID" in codes(rep)


def test_the_building_also_goes_on_a_plot_in_the_reserve() -> None:
    # "(auch in dem Fall, dass das Gebäude in die Reserve gelegt wird)"
    rep = run(BUY + ", plot A, reserve bl:1_12n\n")
    assert codes(rep) == []
    assert rep.state is not None
    ben = rep.state.player_named("Ben")
    assert ben is not None and [str(x) for x in ben.reserve] == ["bl:1_12n_A"]


def test_plot_buildings_count_like_other_buildings() -> None:
    # "Die so entstandenen Gebäude zählen bei einer Wertung wie die anderen Gebäuden des
    # gleichen Typs."
    text = (
        '[Players "A, B"]\n[Modules "bauland"]\n\nposition\n  scorings 0\n'
        "  player A\n    score 0\n    alhambra bl:1_12n_C@1,0\n"
        "  player B\n    score 0\n    alhambra C5@1,0 C6@2,0\nend\n"
    )
    out = CliRunner().invoke(cli, ["score", "-", "--round", "1", "--format", "json"], input=text)
    assert out.exit_code == 0, out.output
    rows = {p["name"]: p for p in json.loads(out.output)["games"][0]["scoring"]["players"]}
    assert rows["A"]["buildings"]["C"]["count"] == 1
    assert rows["B"]["buildings"]["C"]["count"] == 2


def test_the_plot_keeps_its_own_walls() -> None:
    # reading (a): the plot tile carries the walls; its wall north meets the fountain's open
    # side when laid below it
    rep = run(BUY + ", plot C, place bl:1_12n@0,-1\n")
    assert "PLACE-WALL" in codes(rep)


# ------------------------------------------------------------------ corruptions


def test_a_building_from_the_wrong_column() -> None:
    rep = run(BUY + ", plot T, place bl:1_12n@1,0\n")
    (v,) = found(rep, "BAULAND-CHOICE")
    assert v.reason == "not-in-column"
    assert "T does not lie under number tile 1" in v.message()
    assert "liegt nicht unter Zahlenplättchen 1" in v.message("de")
    assert v.rule.name("de") == "Baugebäude nicht regelgerecht genommen"


def test_a_building_already_taken_is_no_longer_in_the_column() -> None:
    rep = run(
        BUY + ", plot C, buy Di bl:1_2x pay Di9, plot C, place bl:1_12n@1,0, place bl:1_2x@-1,0\n"
    )
    assert [v.reason for v in found(rep, "BAULAND-CHOICE")] == ["not-in-column"]


def test_a_bought_plot_without_its_building() -> None:
    rep = run(BUY + ", place bl:1_12n@1,0\n* market De:T9ne\n2. Cem: take Du2\n")
    (v,) = found(rep, "BAULAND-CHOICE")
    assert v.reason == "missing" and v.player == "Ben"
    assert "chose no building" in v.message() and "kein Gebäude" in v.message("de")


def test_a_choice_without_a_bought_plot() -> None:
    rep = run("1. Ben: take Gu1 Di4, plot C\n")
    assert [v.reason for v in found(rep, "BAULAND-CHOICE")] == ["no-plot"]


def test_the_choice_comes_before_the_plot_is_placed() -> None:
    # "Anschließend sucht er sofort eines der Baugebäude aus ... und platziert das Plättchen"
    # (rulebook-bigbox-de-2019.txt § Dirk Henn: Neues Bauland, Änderungen im Spielablauf,
    # L2857-2864). One mistake, one finding: the choice came late; the plot carries it.
    rep = run(BUY + ", place bl:1_12n@1,0, plot C\n* market De:T9ne\n2. Cem: take Du2\n")
    assert [v.reason for v in found(rep, "BAULAND-CHOICE")] == ["late"]
    assert [p.type for p in plots_of(rep, "Ben")] == [BuildingType.CHAMBERS]
    assert columns(rep)[1] == ["P", "A"]


# "Liegt auf dem Bauhof ein Baugrundstückplättchen aus, so kann ein Spieler dieses Grundstück
# für den darauf angegebenen Preis kaufen. Anschließend sucht er sofort eines der Baugebäude
# aus, die unter dem entsprechenden Zahlenplättchen liegen" (rulebook-bigbox-de-2019.txt
# § Dirk Henn: Neues Bauland, Änderungen im Spielablauf, L2857-2864): the building is chosen
# right after the purchase, before any other action.
@pytest.mark.parametrize(
    "between",
    [
        "take Gu1",  # money taken with the extra action of the exact purchase
        "reserve bl:1_12n",  # the plot put into the reserve first
        "place bl:1_12n@1,0",  # the plot placed first
        "buy Di bl:1_2x pay Di9",  # another plot bought first
    ],
)
def test_the_choice_comes_right_after_the_purchase(between: str) -> None:
    rep = run(BUY + f", {between}, plot C\n")
    late = [v for v in found(rep, "BAULAND-CHOICE") if v.reason == "late"]
    assert len(late) == 1, rep.violations
    (v,) = late
    assert v.player == "Ben" and v.code == "BAULAND-CHOICE"
    assert "right after the purchase" in v.message()
    assert "sofort nach dem Kauf" in v.message("de")
    assert "Anschließend sucht er sofort" in v.message("de")


def test_actions_after_the_choice_are_free() -> None:
    # right after the choice, the turn goes on as usual (the exact purchase's extra action)
    rep = run(BUY + ", plot C, take Gu1, reserve bl:1_12n\n")
    assert codes(rep) == []


def test_a_plot_stated_with_a_building_on_the_market() -> None:
    text = SETUP.format(modules=BL, plots=PLOTS).replace("De:bl:1_12n", "De:bl:1_12n_P")
    rep = check_game(parse_text(text + BUY + ", plot C, place bl:1_12n@1,0\n", "t.alh")[0])
    assert [v.reason for v in found(rep, "BAULAND-TOKEN")] == ["built"]


def test_a_plot_stated_two_ways() -> None:
    rep = run(BUY + ", plot C, place bl:1_12e@1,0\n")
    assert "BAULAND-FACE" in codes(rep)


@pytest.mark.parametrize(
    ("token", "reason"),
    [("bl:12n", "form"), ("bl:5_12n", "no-such-number"), ("bl:1_40n", "no-such-price")],
)
def test_bad_plot_tokens(token: str, reason: str) -> None:
    text = SETUP.format(modules=BL, plots=PLOTS).replace("bl:1_12n", token)
    rep = check_game(parse_text(text, "t.alh")[0])
    got = found(rep, "BAULAND-TOKEN")
    assert got and got[0].reason == reason, [v.message() for v in rep.violations]
    assert got[0].message("de")


def test_more_plots_of_a_number_than_exist() -> None:
    # two plots per number tile (component data, unverified): a third is TILE-SUPPLY
    rep = run(BUY + ", plot C, place bl:1_12n@1,0\n* market De:bl:1_9w\n")
    assert "TILE-SUPPLY" in codes(rep)


# ------------------------------------------------------------------ the columns


def test_columns_laid_out_wrongly() -> None:
    rep = run("", plots="* plots 1 P A, plots 2 S G T, plots 3 A G P, plots 4 C T S S\n")
    reasons = sorted(v.reason for v in found(rep, "BAULAND-SETUP"))
    assert reasons == ["count", "count", "supply"]


def test_a_column_twice_and_a_missing_column() -> None:
    rep = run(BUY + ", plot C\n", plots="* plots 1 P A C, plots 1 S G T\n")
    reasons = sorted(v.reason for v in found(rep, "BAULAND-SETUP"))
    assert reasons == ["missing", "twice"]
    v = next(v for v in found(rep, "BAULAND-SETUP") if v.reason == "missing")
    assert "2, 3, 4" in v.message()


def test_columns_after_play_began() -> None:
    rep = run(BUY + ", plot C, place bl:1_12n@1,0\n* plots 1 P A C\n", plots="")
    assert "after-play" in [v.reason for v in found(rep, "BAULAND-SETUP")]


def test_switched_off() -> None:
    rep = run("", modules="")
    assert "MODULE-NOT-ENABLED" in codes(rep)


# ------------------------------------------------------------------ two players: Dirk

TWO = """[Players "Anna, Ben"]
[Modules "bauland"]

* deal Anna Gu1 Du5 Gu9 Du2 De4
* deal Ben Du9 Gu6 De8
* display Gu2 Di9 De5 Gu3
* market Gu:C5 Di:C7ne De:A9 Du:G11
* dirk P4 G7 G8ne S7 T12 {dirk}
* plots 1 G S T, plots 2 A A C, plots 3 P S T, plots 4 G C P
start Ben
1. Ben: take Di9
"""


def test_dirk_takes_the_topmost_building() -> None:
    # "Erhält Dirk ein Baugrundstück, so nimmt er das am weitesten oben liegende Baugebäude."
    rep = check_game(parse_text(TWO.format(dirk="bl:4_5w"), "t.alh")[0])
    assert codes(rep) == []
    assert rep.state is not None and rep.state.dirk is not None
    (plot,) = [x for x in rep.state.dirk if isinstance(x, Plot)]
    assert plot.type is BuildingType.GARDEN  # the top of column 4
    assert columns(rep)[4] == ["C", "P"]


def test_dirk_with_another_building_is_caught() -> None:
    rep = check_game(parse_text(TWO.format(dirk="bl:4_5w_P"), "t.alh")[0])
    (v,) = found(rep, "BAULAND-DIRK")
    assert "that is G, not P" in v.message() and "das ist G, nicht P" in v.message("de")


def test_a_plot_given_to_dirk_without_a_building_takes_the_top() -> None:
    text = (
        TWO.format(dirk="A8n")
        .replace("De:A9", "De:bl:3_12n")
        .replace("1. Ben: take Di9\n", "1. Ben: buy De bl:3_12n pay De8 De4, give bl:3_12n dirk\n")
    )
    text = text.replace("* deal Anna Gu1 Du5 Gu9 Du2 De4", "* deal Anna Gu1 Du5 Gu9 Du2 Di4")
    text = text.replace("* deal Ben Du9 Gu6 De8", "* deal Ben Du9 De4 De8")
    rep = check_game(parse_text(text + "* market De:T9ne\n2. Anna: take Gu2\n", "t.alh")[0])
    assert "BAULAND-CHOICE" not in codes(rep), [v.message() for v in rep.violations]
    assert rep.state is not None and rep.state.dirk is not None
    (plot,) = [x for x in rep.state.dirk if isinstance(x, Plot)]
    assert plot.type is BuildingType.PAVILION


# ------------------------------------------------------------------ example, views, modules


def test_the_example_game_is_clean_and_uses_every_rule() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "plot " in text and "reserve bl:" in text and "* dirk" in text
    rep = check_game(parse_text(text, str(EXAMPLE))[0])
    assert rep.valid and rep.complete


def test_show_json_and_render_carry_the_plots() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    shown = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert shown.exit_code == 0, shown.output
    assert "New Building Land" in shown.output and "number tile 1:" in shown.output
    de = CliRunner().invoke(cli, ["show", "-", "--lang", "de"], input=text)
    assert "Neues Bauland" in de.output
    data = json.loads(CliRunner().invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    view = data["modules"]["bauland"]
    assert view["table"]["plots in the tower"] == "0"
    assert any("bl:" in v["plots built"] for v in view["players"].values())
    svg = CliRunner().invoke(cli, ["render", "-", "-o", "-"], input=text)
    assert svg.exit_code == 0 and "#c8b48a" in svg.output


@pytest.mark.parametrize("lang", ["en", "de"])
def test_modules_lists_bauland(lang: str) -> None:
    out = CliRunner().invoke(cli, ["modules", "--lang", lang]).output
    assert "bauland" in out
    assert ("Baugrundstücke" in out) == (lang == "de")


def test_the_simulator_chooses_before_placing() -> None:
    sim = CliRunner().invoke(
        cli, ["simulate", "--modules", BL, "--players", "3", "--seed", "5", "-n", "2"]
    )
    assert sim.exit_code == 0, sim.output
    text = sim.output
    assert ", plot " in text
    for line in text.splitlines():
        if ", plot " in line:  # the building is chosen before the plot is placed or reserved
            head = line.partition(", plot ")[0]
            assert "bl:" in head and "place bl:" not in head and "reserve bl:" not in head
    for game in parse_text(text, "sim.alh"):
        rep = check_game(game)
        assert rep.valid and rep.complete, [v.message() for v in rep.violations]


def test_a_position_states_the_columns_and_plots() -> None:
    text = (
        '[Players "A, B"]\n[Modules "bauland"]\n\nposition\n  scorings 1\n'
        "  plots 1 P\n  plots 2\n  plots 3 A G P\n  plots 4 C T\n"
        "  player A\n    score 10\n    reserve bl:2_7x_S\n    alhambra bl:1_12n_C@1,0\n"
        "  player B\n    score 12\n    alhambra C5@1,0\nend\n"
    )
    rep = check_game(parse_text(text, "t.alh")[0])
    assert "BAULAND-SETUP" not in codes(rep), [v.message() for v in rep.violations]
    assert columns(rep) == {1: ["P"], 2: [], 3: ["A", "G", "P"], 4: ["C", "T"]}
    assert [str(x) for x in plots_of(rep, "A")] == ["bl:1_12n_C", "bl:2_7x_S"]
