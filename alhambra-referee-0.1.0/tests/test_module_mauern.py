"""Die Mauern (``referee/modules/mauern.py``): every rule of the section
(rulebook-bigbox-de-2019.txt § DIE MAUERN, L1212-1288), each test with the sentence it tests,
and the stated rules with Die Tore der Stadt and Die Baustellen (both modules enabled); the
readings are in docs/modules/mauern.md."""

from __future__ import annotations

from contextlib import chdir
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import Side
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry import longest_outer_wall
from referee.notation import parse_text
from referee.record.model import Coord

# Ben starts (20 in 3 cards). Cem: De7 for the pavilion P7 (wall east), Gu9 Gu1 for the
# arcades A10 (no walls).
SETUP = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem De7 Gu9 Gu1 Du3
* display Gu2 Di4 De6 Du2
* market Gu:A10 Di:A9 De:P7 Du:T12
start Ben
"""

REVEAL = "1. Ben: take Du2\n* display wl:ne wl:w Gu5\n"


def run(body: str, modules: str = "mauern") -> GameReport:
    games = parse_text(SETUP.format(modules=modules) + body, "walls.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(report: GameReport, keep_pile: bool = False) -> list[str]:
    skip = () if keep_pile else ("MAUERN-PILE", "GATE-PILE")
    return [v.code for v in report.violations if v.code not in skip]


def wall_view(report: GameReport) -> dict[str, object]:
    assert report.state is not None
    return report.state.ext.views(report.state)["mauern"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ the cards


def test_revealed_wall_cards_lie_open_beside_the_board() -> None:
    # "Wird während des Spiels eine Mauerkarte aufgedeckt, wird diese neben dem Plan offen
    # bereitgelegt. (Es können auch mehrere Karten offen ausliegen.) Die Währungskarten in der
    # Auslage werden wieder auf 4 ergänzt."
    rep = run(REVEAL)
    assert codes(rep) == []
    assert wall_view(rep)["table"] == {
        "open beside the board": "wl:ne wl:w",
        "cards used": 0,
        "sticks left": 12,
    }
    assert rep.state is not None and len(rep.state.display) == 4


def test_wall_cards_lie_in_piles_two_to_five() -> None:
    # "werden je 2 Mauerkarten in den 2., 3., 4. und 5 Stapel eingemischt"
    rep = run(REVEAL)
    assert codes(rep, keep_pile=True) == ["MAUERN-PILE", "MAUERN-PILE"]
    assert "before pile 2" in rep.violations[0].message()


def test_a_wall_card_shows_one_or_two_sides() -> None:
    # "8 Mauerkarten, die je ein bestimmtes Mauersegment zeigen" built "mit einem bzw. zwei
    # Holzstäbchen"; two opposite sides: a warning (unverified picture fact)
    assert codes(run("1. Ben: take Du2\n* display wl:nes Gu5\n")) == ["MAUERN-CARD"]
    rep = run("1. Ben: take Du2\n* display wl:ns Gu5\n")
    assert [(v.code, v.severity) for v in rep.violations if v.code != "MAUERN-PILE"] == [
        ("MAUERN-CARD-UNVERIFIED", "warning")
    ]


def test_eight_wall_cards() -> None:
    nine = " ".join(["wl:n"] * 9)
    assert codes(run(f"1. Ben: take Du2\n* display {nine} Gu5\n")) == ["MAUERN-SUPPLY"]


# ------------------------------------------------------------------ the action


def test_building_a_wall_on_the_fountain() -> None:
    # "Mauern dürfen auf jedem geeigneten Gebäudeplättchen der eigenen Alhambra errichtet
    # werden, auch auf dem Startplättchen." / "Bei den Wertungen zählen die Mauern wie die
    # aufgedruckten Mauern der Gebäudeplättchen."
    rep = run(REVEAL + "2. Cem: wall wl:ne @0,0\n")
    assert codes(rep) == []
    assert wall_view(rep)["table"] == {
        "open beside the board": "wl:w",
        "cards used": 1,
        "sticks left": 10,
    }
    assert wall_view(rep)["players"] == {
        "Cem": {"walls built": "@0,0 ne", "in the reserve": "none"}
    }
    assert rep.state is not None
    assert longest_outer_wall(rep.state.players[2].alhambra).length == 2


def test_building_a_wall_is_a_whole_action() -> None:
    # "Ab jetzt gibt es eine neue Aktion: Mauer errichten" (nothing is paid: no extra action)
    rep = run(REVEAL + "2. Cem: wall wl:ne @0,0, take Gu5\n")
    assert codes(rep) == ["TURN-OVER"]


def test_the_card_must_lie_open() -> None:
    # "Ein Spieler darf sich eine beliebige offen ausliegende Mauerkarte nehmen."
    rep = run(REVEAL + "2. Cem: wall wl:s @0,0\n")
    assert codes(rep) == ["MAUERN-NOT-OPEN"]
    rep = run(REVEAL + "2. Cem: wall wl:ne @0,0\n3. Anna: wall wl:ne @0,0\n")
    assert codes(rep) == ["MAUERN-NOT-OPEN"]  # used: out of the game


def test_a_wall_on_a_tile_just_bought_goes_with_it() -> None:
    # "Dabei ist es egal, ob das Plättchen gerade neu gekauft wurde oder sich in der Alhambra
    # bzw. in der Reserve befindet." / "gehören, wie aufgedruckte Mauern, zum Gebäudeplättchen"
    body = REVEAL + "2. Cem: buy De P7 pay De7, wall wl:ne P7, place P7@1,0\n"
    rep = run(body + "* market De:C5\n")
    assert codes(rep) == ["MAUERN-COVERED"]  # P7 shows a wall east already
    body = REVEAL + "2. Cem: buy Gu A10 pay Gu9 Gu1, wall wl:ne A10, place A10@1,0\n"
    rep = run(body + "* market Gu:C5\n")
    assert codes(rep) == []
    assert wall_view(rep)["players"]["Cem"]["walls built"] == "@1,0 ne"  # type: ignore[index]


def test_a_wall_in_the_reserve_and_the_tile_built_later() -> None:
    body = REVEAL + "2. Cem: buy Gu A10 pay Gu9 Gu1, wall wl:ne A10, reserve A10\n"
    body += "* market Gu:C5\n3. Anna: take De6\n* display De5\n4. Ben: take De5\n"
    body += "* display Du7\n"
    rep = run(body)
    assert codes(rep) == []
    assert wall_view(rep)["players"]["Cem"]["in the reserve"] == "A10 ne"  # type: ignore[index]
    # the walls come with the tile and the building rules see them: on 1,0 its added walls
    # face nothing; on -1,0 its added east wall faces the open fountain
    assert codes(run(body + "5. Cem: build A10@1,0\n")) == []
    rep = run(body + "5. Cem: build A10@-1,0\n")
    assert codes(rep) == ["PLACE-WALL", "PLACE-WALK"]


def test_never_over_a_printed_wall() -> None:
    # "Die vorhandenen aufgedruckten Mauern dürfen hierbei nicht überbaut werden."
    body = REVEAL + "2. Cem: buy De P7 pay De7, place P7@0,1\n* market De:C5\n"
    body += "3. Anna: take De6\n* display De5\n4. Ben: take De5\n* display Du7\n"
    rep = run(body + "5. Cem: wall wl:ne @0,1\n")
    assert codes(rep) == ["MAUERN-COVERED"]
    assert "already shows a wall on E" in [v.message() for v in rep.violations][-1]


def test_the_alhambra_still_obeys_the_building_rules() -> None:
    # "Auch nach dem Bauen einer Mauer muss die Alhambra gemäß den Bauregeln aufgebaut sein."
    body = REVEAL + "2. Cem: buy Gu A10 pay Gu9 Gu1, place A10@1,0\n* market Gu:C5\n"
    body += "3. Anna: take De6\n* display De5\n4. Ben: take De5\n* display Du7\n"
    rep = run(body + "5. Cem: wall wl:w @1,0\n")  # a wall facing the open fountain
    assert codes(rep) == ["LAYOUT-BROKEN", "LAYOUT-BROKEN"]
    assert [v.params["broken"] for v in rep.violations if v.code == "LAYOUT-BROKEN"] == [
        "PLACE-WALL",
        "PLACE-WALK",
    ]
    assert "wall @1,0 w" in rep.violations[-1].message()


def test_the_walls_as_shown_or_turned() -> None:
    # "Er baut nun die dort dargestellten Mauern wie abgebildet ... nach"
    assert codes(run(REVEAL + "2. Cem: wall wl:ne @0,0 es\n")) == ["MAUERN-TURN"]
    assert codes(run(REVEAL + "2. Cem: wall wl:ne @0,0 es\n", "mauern rotate=any")) == []
    assert codes(run(REVEAL + "2. Cem: wall wl:ne @0,0 ns\n", "mauern rotate=any")) == [
        "MAUERN-TURN"
    ]


def test_walls_stay_with_their_tile_in_a_redesign() -> None:
    # "Die neue Mauer(n) dürfen bis zum Spielende nicht mehr verändert werden und gehören, wie
    # aufgedruckte Mauern, zum Gebäudeplättchen."
    body = REVEAL + "2. Cem: buy Gu A10 pay Gu9 Gu1, wall wl:ne A10, place A10@0,1\n"
    body += "* market Gu:C5\n3. Anna: take De6\n* display De5\n4. Ben: take De5\n"
    body += "* display Du7\n5. Cem: remove A10@0,1\n"
    rep = run(body)
    assert codes(rep) == []
    assert wall_view(rep)["players"]["Cem"] == {  # type: ignore[index]
        "walls built": "none",
        "in the reserve": "A10 ne",
    }


def test_the_position_states_walls_and_round_trips(tmp_path: Path) -> None:
    body = REVEAL + "2. Cem: buy Gu A10 pay Gu9 Gu1, wall wl:ne A10, reserve A10\n"
    body += "* market Gu:C5\n3. Anna: wall wl:w @0,0\n"
    runner = CliRunner()
    with chdir(tmp_path):
        Path("g.alh").write_text(SETUP.format(modules="mauern") + body, encoding="utf-8")
        first = runner.invoke(cli, ["show", "g.alh", "--format", "record"])
        assert first.exit_code == 0, first.output
        assert "  wall used 2 sticks 3\n" in first.output
        assert "    wall @0,0 w\n" in first.output and "    wall A10 ne\n" in first.output
        Path("p.alh").write_text(first.output, encoding="utf-8")
        again = runner.invoke(cli, ["show", "p.alh", "--format", "record"])
        assert again.output == first.output
        assert "MAUERN-" not in runner.invoke(cli, ["check", "p.alh"]).output


def test_twelve_sticks(tmp_path: Path) -> None:
    body = REVEAL + "2. Cem: wall wl:ne @0,0\n"
    runner = CliRunner()
    with chdir(tmp_path):
        Path("g.alh").write_text(SETUP.format(modules="mauern") + body, encoding="utf-8")
        text = runner.invoke(cli, ["show", "g.alh", "--format", "record"]).output
        text = text.replace("wall used 1 sticks 2 open wl:w", "wall used 7 sticks 12 open wl:w")
        text += "1. Cem: wall wl:w @0,0\n"
        Path("p.alh").write_text(text, encoding="utf-8")
        out = runner.invoke(cli, ["check", "p.alh"]).output
        assert "MAUERN-SUPPLY" in out and "needs 1 sticks, 0 are left" in out


def test_the_pictures_draw_added_walls(tmp_path: Path) -> None:
    runner = CliRunner()
    with chdir(tmp_path):
        Path("g.alh").write_text(
            SETUP.format(modules="mauern") + REVEAL + "2. Cem: wall wl:ne @0,0\n", encoding="utf-8"
        )
        out = runner.invoke(cli, ["show", "g.alh"]).output
        assert "┍═════┓" in out  # the added north wall drawn double
        svg = runner.invoke(cli, ["render", "g.alh", "--player", "Cem"])
        assert svg.exit_code == 0, svg.output
        assert svg.output.count('<line class="added"') == 2  # north and east, drawn as added
        page = runner.invoke(cli, ["render", "g.alh", "--html", "-o", "g.html"])
        assert page.exit_code == 0, page.output


def test_legal_moves_build_walls_that_break_nothing() -> None:
    rep = run(REVEAL)
    assert rep.state is not None
    from referee.engine.context import Context

    module = next(m for m in rep.state.ext.modules if m.name == "mauern")
    moves = module.legal_actions(Context(rep.state), rep.state.players[2])
    assert [" ".join(str(getattr(a.value, "name", a.value)) for a in m.args) for m in moves] == [
        "ne 0,0",
        "w 0,0",
    ]


def test_the_module_switched_off() -> None:
    assert "MODULE-NOT-ENABLED" in codes(run(REVEAL + "2. Cem: wall wl:ne @0,0\n", ""))


# ------------------------------------------------------------------ with other modules


GATE_SETUP = "1. Ben: take Du2\n* display gate:card wl:w Gu5\n2. Cem: take gate:card\n"
GATE_SETUP += "3. Anna: take De6\n* display De5\n4. Ben: take De5\n* display Du7\n"


def test_gates_only_over_printed_walls() -> None:
    # Die Mauern: "Mit einem Stadttor aus Holz dürfen nur aufgedruckte Mauern überbaut werden."
    body = GATE_SETUP + "5. Cem: buy De P7 pay De7, buy Gu A10 pay Gu9 Gu1, wall wl:w A10, "
    body += "place P7@1,0, place A10@2,0, gate @1,0 e\n"
    rep = run(body, "stadttore, mauern")
    # no gate may open the wooden wall, so the walker rule holds for the tile, and the gate
    # set there anyway is reported
    assert codes(rep) == ["PLACE-WALK", "MAUERN-GATE"]
    assert "stands on a wooden wall" in rep.violations[-1].message()
    assert rep.violations[-1].column > 60  # named at the gate


def test_a_gate_over_printed_walls_with_both_modules() -> None:
    text = SETUP.replace("Gu:A10", "Gu:G10w")
    body = GATE_SETUP + "5. Cem: buy De P7 pay De7, buy Gu G10w pay Gu9 Gu1, "
    body += "place P7@1,0, place G10w@2,0, gate @1,0 e\n"
    rep = check_game(parse_text(text.format(modules="stadttore, mauern") + body, "g.alh")[0])
    assert codes(rep) == []
    # the double wall under the gate is no outer wall; the wooden walls count
    assert rep.state is not None
    assert longest_outer_wall(rep.state.players[2].alhambra).length == 0


SITE_SETUP = SETUP.replace("* deal Cem De7 Gu9 Gu1 Du3", "* deal Cem De7 De8 Du3 Gu2")


def _site(body: str, modules: str) -> GameReport:
    text = SITE_SETUP.format(modules=modules) + body
    return check_game(parse_text(text, "sites.alh")[0])


def test_walls_on_a_building_site_stay_on_the_finished_building() -> None:
    # Die Baustellen: "Tore ... und Mauern ... können auf Baustellen errichtet werden."
    body = "1. Ben: take Du2\n* display wl:n Gu5\n"
    body += "2. Cem: buy De P7 pay De7 bs:hidden, place P7@1,0\n* market De:C5\n"
    body += "3. Anna: take De6\n* display De5\n4. Ben: take De5\n* display Du7\n"
    body += "5. Cem: wall wl:n @1,0\n6. Anna: take Gu5\n* display Gu6\n7. Ben: take Gu6\n"
    body += "* display Gu7\n"
    rep = _site(body, "mauern, baustellen")
    assert codes(rep) == []
    assert wall_view(rep)["players"]["Cem"]["walls built"] == "@1,0 n"  # type: ignore[index]
    rep = _site(body + "8. Cem: complete P7 bs:De pay De8\n", "mauern, baustellen")
    assert codes(rep) == []
    assert rep.state is not None
    alh = rep.state.players[2].alhambra
    assert type(alh[Coord(1, 0)]).__name__ == "TileKind"
    assert wall_view(rep)["players"]["Cem"]["walls built"] == "@1,0 n"  # type: ignore[index]


def test_a_gate_on_a_building_site() -> None:
    # Die Baustellen: "Tore ... können auf Baustellen errichtet werden."
    text = SITE_SETUP.replace("Gu:A10", "Gu:G10w").replace("De7 De8 Du3 Gu2", "De7 Gu9 Gu1 Du3")
    body = "1. Ben: take Du2\n* display gate:card Gu5\n2. Cem: take gate:card\n"
    body += "3. Anna: take De6\n* display De5\n4. Ben: take De5\n* display Du7\n"
    body += "5. Cem: buy De P7 pay De7, buy Gu G10w pay Gu9 bs:hidden, place P7@1,0, "
    body += "place G10w@2,0, gate @1,0 e\n"
    rep = check_game(parse_text(text.format(modules="stadttore, baustellen") + body, "s.alh")[0])
    assert codes(rep) == []
    assert rep.state is not None
    layers = rep.state.players[2].alhambra.layers
    assert layers is not None and len(layers.edges) == 1


def test_explain_answers_for_the_wall_action(tmp_path: Path) -> None:
    runner = CliRunner()
    with chdir(tmp_path):
        Path("g.alh").write_text(SETUP.format(modules="mauern") + REVEAL, encoding="utf-8")
        ok = runner.invoke(cli, ["explain", "g.alh", "wall wl:ne @0,0"])
        assert "wall wl:ne @0,0: legal" in ok.output
        bad = runner.invoke(cli, ["explain", "g.alh", "wall wl:s @0,0"])
        assert "MAUERN-NOT-OPEN" in bad.output


# ------------------------------------------------------------------ a property


@dataclass(frozen=True)
class _Tile:
    walls: frozenset[Side]
    n: int
    type: None = None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(list(Side)), st.sets(st.sampled_from(list(Side)))),
        min_size=1,
        max_size=6,
    ),
    st.lists(st.sets(st.sampled_from(list(Side))), min_size=7, max_size=7),
)
def test_wooden_walls_count_like_printed_ones(
    steps: list[tuple[Side, set[Side]]], added: list[set[Side]]
) -> None:
    # "Bei den Wertungen zählen die Mauern wie die aufgedruckten Mauern der Gebäudeplättchen."
    # A row of tiles grown from the fountain: the same walls once printed, once part printed
    # and part added (an overlay) give the same longest outer wall and the same walker.
    from referee.geometry import Alhambra, reachable

    printed = Alhambra()
    layered = Alhambra()
    at = Coord(0, 0)
    cells = [at]
    for i, (side, walls) in enumerate(steps):
        nxt = at.neighbour(side)
        if nxt in cells:
            continue
        at = nxt
        cells.append(at)
        extra = frozenset(added[i]) - frozenset(walls)
        printed.place(at, _Tile(frozenset(walls) | extra, i))  # type: ignore[arg-type]
        layered.place(at, _Tile(frozenset(walls), i))  # type: ignore[arg-type]
        if extra:
            layered.add_overlay(at, extra)
    assert longest_outer_wall(printed).length == longest_outer_wall(layered).length
    assert reachable(printed) == reachable(layered)


def test_corruptions_of_the_example_are_caught() -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "module-mauern.alh"
    text = path.read_text(encoding="utf-8")
    assert "33. Cem: wall wl:e @1,-1" in text
    for corrupt, code in (
        (
            text.replace("33. Cem: wall wl:e @1,-1", "33. Cem: wall wl:ne @1,-1", 1),
            "MAUERN-NOT-OPEN",
        ),
        (text.replace("33. Cem: wall wl:e @1,-1", "33. Cem: wall wl:e @9,9", 1), "MAUERN-TILE"),
        (text.replace("33. Cem: wall wl:e @1,-1", "33. Cem: wall wl:e", 1), "MAUERN-WALL"),
    ):
        rep = check_game(parse_text(corrupt, "corrupt.alh")[0])
        assert code in [v.code for v in rep.violations], code
