"""Die Tore der Stadt (``referee/modules/stadttore.py``): every rule of the section
(rulebook-bigbox-de-2019.txt § DIE TORE DER STADT, L877-952), each test with the sentence it
tests; the readings are in docs/modules/stadttore.md."""

from __future__ import annotations

from contextlib import chdir
from pathlib import Path

from click.testing import CliRunner

from referee.catalogue import Side, catalogue
from referee.cli import cli
from referee.engine import GameReport, check_game
from referee.geometry import longest_outer_wall
from referee.notation import format_game, parse_text
from referee.record.model import NOWHERE, ComponentRef, Coord, TakeMoney

# Ben starts (20 in 3 cards); Cem holds De7 and Gu9 Gu1 for the arcade P7 (wall east) on De
# and the garden G10w (wall west) on Gu: P7@1,0 and G10w@2,0 meet with a double wall.
SETUP = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem De7 Gu9 Gu1 Du3
* display Gu2 Di4 De6 Du2
* market Gu:G10w Di:A9 De:P7 Du:T12
start Ben
"""

# the gate card revealed in the first refill, taken by Cem (piles 3-5 are not reached in
# a short record: GATE-PILE is left out of ``codes`` unless a test asks for it)
OPENING = """1. Ben: take Du2
* display gate:card Gu5
2. Cem: take gate:card
3. Anna: take De6
* display De5
4. Ben: take De5
* display Du7
"""

BEHIND = "5. Cem: buy De P7 pay De7, buy Gu G10w pay Gu9 Gu1, place P7@1,0, place G10w@2,0"


def run(body: str, modules: str = "stadttore") -> GameReport:
    games = parse_text(SETUP.format(modules=modules) + body, "gates.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(report: GameReport, keep_pile: bool = False) -> list[str]:
    skip = () if keep_pile else ("GATE-PILE",)
    return [v.code for v in report.violations if v.code not in skip]


def gate_view(report: GameReport) -> dict[str, object]:
    assert report.state is not None
    return report.state.ext.views(report.state)["stadttore"]  # type: ignore[no-any-return]


def cem(report: GameReport) -> object:
    assert report.state is not None
    return report.state.players[2]


# ------------------------------------------------------------------ the cards


def test_a_revealed_gate_card_lies_beside_the_gates_not_in_the_display() -> None:
    # "Wird eine Stadttorkarte aufgedeckt, wird diese neben den Holztoren offen bereitgelegt
    # ... Dann wird eine weitere Karte vom Stapel aufgedeckt, bis wieder vier Karten in der
    # Auslage bereitliegen."
    rep = run("1. Ben: take Du2\n* display gate:card Gu5\n")
    assert codes(rep) == []
    table = gate_view(rep)["table"]
    assert table == {"open beside the gates": 1, "on the discard pile": 0, "still in the deck": 2}
    assert rep.state is not None and len(rep.state.display) == 4


def test_a_second_gate_card_goes_onto_the_discard_pile() -> None:
    # "... oder auf den Ablagestapel geworfen, falls noch eine Stadttorkarte ausliegt."
    rep = run("1. Ben: take Du2\n* display gate:card gate:card Gu5\n")
    assert codes(rep) == []
    assert gate_view(rep)["table"]["on the discard pile"] == 1  # type: ignore[index]


def test_one_gate_card_per_player() -> None:
    # "Für jeden Spieler kommen ein Stadttor aus Holz und eine entsprechende Karte ins Spiel."
    rep = run("1. Ben: take Du2\n* display gate:card gate:card gate:card gate:card Gu5\n")
    assert codes(rep) == ["GATE-SUPPLY"]


def test_gate_cards_lie_in_piles_three_to_five() -> None:
    # "kommen die Stadttorkarten ... verdeckt in den 3., 4. und 5. Stapel"
    rep = run("1. Ben: take Du2\n* display gate:card Gu5\n")
    assert codes(rep, keep_pile=True) == ["GATE-PILE"]
    assert "before pile 3" in rep.violations[0].message()
    opening = SETUP.replace("* display Gu2 Di4 De6 Du2", "* display Gu2 gate:card Di4 De6 Du2")
    rep = check_game(parse_text(opening.format(modules="stadttore"), "o.alh")[0])
    assert [v.code for v in rep.violations] == ["GATE-PILE"]


def test_the_gate_card_is_taken_instead_of_money() -> None:
    # "Ab jetzt darf man anstelle einer Geldkarte [oder Wechselstube] auch die Stadttorkarte
    # auf die Hand nehmen."
    rep = run(OPENING)
    assert codes(rep) == []
    assert gate_view(rep)["players"] == {"Cem": {"gate cards": 1, "gates": "none"}}
    assert gate_view(rep)["table"]["open beside the gates"] == 0  # type: ignore[index]


def test_the_gate_card_is_the_whole_take_by_default() -> None:
    body = "1. Ben: take Du2\n* display gate:card Gu5\n2. Cem: take gate:card Gu2\n* display Di2\n"
    rep = run(body)
    assert codes(rep) == ["GATE-TAKE"]
    assert "together with other cards" in rep.violations[-1].message()
    assert codes(run(body, "stadttore take=in-sum")) == []  # the other reading, a switch


def test_no_gate_card_to_take() -> None:
    rep = run("1. Ben: take gate:card\n")
    assert codes(rep) == ["GATE-TAKE"]
    assert "none lies open" in rep.violations[0].message()


def test_a_player_may_hold_several_gate_cards() -> None:
    # "Ein Spieler darf mehrere Stadttorkarten auf der Hand halten."
    body = OPENING + "5. Cem: take Gu5\n* display gate:card Gu6\n6. Anna: take Du7\n"
    body += "* display Di5\n7. Ben: take Di5\n* display Di6\n8. Cem: take gate:card\n"
    rep = run(body)
    assert codes(rep) == []
    assert gate_view(rep)["players"]["Cem"]["gate cards"] == 2  # type: ignore[index]


def test_a_wrong_gate_token() -> None:
    rep = run("1. Ben: take Du2\n* display gate:red Gu5\n")
    assert codes(rep) == ["GATE-CARD"]


# ------------------------------------------------------------------ the gate


def test_a_tile_behind_a_double_wall_with_a_gate() -> None:
    # "Vielmehr erlaubt das Stadttor, ein Gebäudeplättchen zu legen, das nur durch
    # Doppelmauer(n) mit der Alhambra verbunden ist und nicht „zu Fuß“ vom Startplättchen aus
    # erreichbar ist. Auf eine entstandene Doppelmauer wird ein Holztor gesetzt und damit die
    # Fußgänger-Regel wieder erfüllt. Die eingesetzte Stadttorkarte kommt aus dem Spiel."
    rep = run(OPENING + BEHIND + ", gate @1,0 e\n")
    assert codes(rep) == []
    assert gate_view(rep)["players"] == {"Cem": {"gate cards": 0, "gates": "@1,0 e"}}
    assert gate_view(rep)["table"]["still in the deck"] == 2  # type: ignore[index]
    # the same edge written from the other side
    assert codes(run(OPENING + BEHIND + ", gate @2,0 w\n")) == []


def test_without_a_gate_the_turn_cannot_end() -> None:
    rep = run(OPENING + BEHIND + "\n* market Gu:T13 De:C5\n")
    assert codes(rep) == ["GATE-MISSING"]
    assert "2,0 cannot be reached on foot" in rep.violations[-1].message()


def test_without_a_gate_card_the_walker_rule_holds() -> None:
    body = "1. Ben: take Du2\n* display gate:card Gu5\n2. Cem: take Gu5\n* display Gu6\n"
    body += "3. Anna: take gate:card\n4. Ben: take De6\n* display De5\n"
    rep = run(body + BEHIND + ", gate @1,0 e\n")
    assert codes(rep) == ["PLACE-WALK", "GATE-NO-CARD"]


def test_the_gate_stands_on_a_double_wall() -> None:
    rep = run(OPENING + BEHIND + ", gate @0,0 e\n")
    assert codes(rep) == ["GATE-EDGE", "GATE-MISSING"]
    assert "does not stand on a double wall" in rep.violations[1].message()
    rep = run(OPENING + BEHIND + ", gate @2,0 e\n")  # no tile beyond
    assert codes(rep) == ["GATE-EDGE", "GATE-MISSING"]
    rep = run(OPENING + BEHIND + ", gate @2,0 x\n")
    assert codes(rep) == ["GATE-EDGE", "GATE-MISSING"]


def _after_the_gate() -> tuple[object, object, object]:
    rep = run(OPENING + BEHIND + ", gate @1,0 e\n")
    state = rep.state
    assert state is not None
    module = next(m for m in state.ext.modules if m.name == "stadttore")
    player = state.players[2]
    state.modules["stadttore"].held["Cem"] = 1  # one more card, for the questions below
    state.turn_start[player.index] = dict(player.alhambra.items())  # a new turn
    player.alhambra.remove_edge(Coord(1, 0), Side.E)
    return state, module, player


def _gate(state: object, module: object, player: object) -> list[str]:
    found = module.gate_findings(state, player, (Coord(1, 0), Side.E), NOWHERE, "")  # type: ignore[attr-defined]
    return [f.code for f in found]


def test_the_gate_goes_with_a_tile_of_this_turn() -> None:
    # "Auf eine entstandene Doppelmauer wird ein Holztor gesetzt": the double wall came with a
    # tile laid in this turn; the switch where=any lets a gate stand on any double wall
    state, module, player = _after_the_gate()
    assert _gate(state, module, player) == ["GATE-NEW-TILE"]
    module.settings["where"] = "any"  # type: ignore[attr-defined]
    assert _gate(state, module, player) == []


def test_a_gate_nobody_needs_is_a_warning() -> None:
    # the gate is for a tile "nicht „zu Fuß“ vom Startplättchen aus erreichbar": when both
    # tiles can be reached anyway the card is spent for nothing (a warning)
    state, module, player = _after_the_gate()
    module.settings["where"] = "any"  # type: ignore[attr-defined]
    for at, code in ((Coord(0, 1), "T12"), (Coord(1, 1), "A9"), (Coord(2, 1), "S9")):
        player.alhambra.place(at, next(t for t in catalogue().tiles if t.code == code))  # type: ignore[attr-defined]
    found = module.gate_findings(state, player, (Coord(1, 0), Side.E), NOWHERE, "")  # type: ignore[attr-defined]
    assert [(f.code, f.severity) for f in found] == [("GATE-NEEDLESS", "warning")]


def test_several_gates_in_one_turn_and_in_a_redesign() -> None:
    # "Ein Spieler darf mehrere Stadttorkarten in einem Zug einsetzen." / "Die Stadttorkarte
    # darf auch beim Spielzug „Eigene Alhambra umbauen“ eingesetzt werden."
    body = (
        OPENING + "5. Cem: buy De P7 pay De7, buy Gu G10w pay Gu9 Gu1, reserve G10w, place P7@1,0\n"
    )
    body += "* market Gu:T13 De:C5\n6. Anna: take Gu5\n* display Gu6\n7. Ben: take Gu6\n"
    body += "* display Gu7\n8. Cem: build G10w@2,0, gate @1,0 e\n"
    rep = run(body)
    assert codes(rep) == []
    assert gate_view(rep)["players"]["Cem"]["gates"] == "@1,0 e"  # type: ignore[index]


def test_neither_the_gate_nor_its_tiles_may_be_redesigned() -> None:
    # "Weder ein platziertes Stadttor noch die beiden darunter liegenden Gebäudeplättchen
    # dürfen umgebaut werden."
    body = OPENING + BEHIND + ", gate @1,0 e\n* market Gu:T13 De:C5\n6. Anna: take Gu5\n"
    body += "* display Gu6\n7. Ben: take Gu6\n* display Gu7\n8. Cem: remove G10w@2,0\n"
    rep = run(body)
    assert codes(rep) == ["REMOVE-LOCKED"]
    rep = run(body.replace("remove G10w@2,0", "remove P7@1,0"))
    assert "REMOVE-LOCKED" in codes(rep)


def test_later_tiles_walk_through_the_gate(tmp_path: Path) -> None:
    # "Das eingesetzte Stadttor „öffnet“ die Stadtmauer, so dass die „Fußgänger-Regel“ wieder
    # befolgt werden kann."
    text = SETUP.format(modules="stadttore") + OPENING + BEHIND + ", gate @1,0 e\n"
    runner = CliRunner()
    with chdir(tmp_path):
        with open("t.alh", "w", encoding="utf-8") as f:
            f.write(text)
        res = runner.invoke(cli, ["legal", "t.alh", "--player", "Cem", "--tile", "T12"])
        assert res.exit_code == 0, res.output
        cells = res.output.split("Legal cells for T12")[1].splitlines()[0]
        assert "3,0" in cells.split()
        no_gate = text.replace(", gate @1,0 e", "")
        with open("t.alh", "w", encoding="utf-8") as f:
            f.write(no_gate)
        res = runner.invoke(cli, ["legal", "t.alh", "--player", "Cem", "--tile", "T12"])
        cells = res.output.split("Legal cells for T12")[1].splitlines()[0]
        assert "3,0" not in cells.split()


def test_the_double_wall_under_a_gate_never_scores() -> None:
    rep = run(OPENING + BEHIND + ", gate @1,0 e\n")
    assert rep.state is not None
    alh = rep.state.players[2].alhambra
    # the outer wall: P7's east side is an inner wall (a double wall), G10w's west too
    assert longest_outer_wall(alh).length == 0


def test_legal_moves_offer_the_card_and_the_owed_gate() -> None:
    rep = run("1. Ben: take Du2\n* display gate:card Gu5\n")
    assert rep.state is not None
    from referee.engine.context import Context

    module = next(m for m in rep.state.ext.modules if m.name == "stadttore")
    moves = module.legal_actions(Context(rep.state), rep.state.players[2])
    assert moves == [TakeMoney((ComponentRef("gate", "card"),))]


def test_the_position_states_gates_and_cards_and_round_trips(tmp_path: Path) -> None:
    body = OPENING + BEHIND + ", gate @1,0 e\n* market Gu:T13 De:C5\n"
    body += "6. Anna: take Gu5\n* display gate:card gate:card Gu6\n"
    text = SETUP.format(modules="stadttore") + body
    runner = CliRunner()
    with chdir(tmp_path):
        with open("g.alh", "w", encoding="utf-8") as f:
            f.write(text)
        first = runner.invoke(cli, ["show", "g.alh", "--format", "record"])
        assert first.exit_code == 0, first.output
        assert "    gate @1,0 e\n" in first.output
        assert "  gate open 1 discard 1\n" in first.output
        with open("p.alh", "w", encoding="utf-8") as f:
            f.write(first.output)
        again = runner.invoke(cli, ["show", "p.alh", "--format", "record"])
        assert again.output == first.output
        checked = runner.invoke(cli, ["check", "p.alh"])
        assert "GATE-" not in checked.output


def test_the_pictures_draw_the_gate(tmp_path: Path) -> None:
    text = SETUP.format(modules="stadttore") + OPENING + BEHIND + ", gate @1,0 e\n"
    runner = CliRunner()
    with chdir(tmp_path):
        with open("g.alh", "w", encoding="utf-8") as f:
            f.write(text)
        res = runner.invoke(cli, ["show", "g.alh"])
        assert "P7 G G10" in res.output
        svg = runner.invoke(cli, ["render", "g.alh", "--player", "Cem"])
        assert svg.exit_code == 0, svg.output
        assert 'font-weight:bold;fill:#3b2a1a">G</text>' in svg.output  # the gate on its edge


def test_the_module_switched_off() -> None:
    rep = run(OPENING, modules="")
    assert "MODULE-NOT-ENABLED" in [v.code for v in rep.violations]


def test_a_simulated_game_uses_gates_and_is_canonical() -> None:
    from referee.simulate.simulator import simulate_text

    text = simulate_text(4, 1, None, "gates", ("stadttore",))
    game = parse_text(text, "sim.alh")[0]
    rep = check_game(game)
    assert rep.valid and rep.complete
    assert format_game(game) == text
    assert "gate:card" in text


def test_legal_lists_the_cell_behind_a_double_wall_while_a_card_is_held(tmp_path: Path) -> None:
    # the question `legal` answers asks the engine's placement decision, which the module refines
    body = OPENING + "5. Cem: buy De P7 pay De7, place P7@1,0\n* market De:C5\n"
    body += "6. Anna: take Gu5\n* display Gu6\n7. Ben: take Gu6\n* display Gu7\n"  # Cem moves
    runner = CliRunner()
    with chdir(tmp_path):
        Path("g.alh").write_text(SETUP.format(modules="stadttore") + body, encoding="utf-8")
        res = runner.invoke(cli, ["legal", "g.alh", "--player", "Cem", "--tile", "G10w"])
        cells = res.output.split("Legal cells for G10w")[1].splitlines()[0]
        assert "2,0" in cells.split()


def test_a_discarded_gate_card_comes_back_with_the_discard_pile() -> None:
    # reading (d): "auf den Ablagestapel geworfen" -- shuffled back like any card there
    rep = run("1. Ben: take Du2\n* display gate:card gate:card Gu5\n")
    assert rep.state is not None
    module = next(m for m in rep.state.ext.modules if m.name == "stadttore")
    assert gate_view(rep)["table"]["still in the deck"] == 1  # type: ignore[index]
    module.reshuffle(rep.state, NOWHERE)
    assert gate_view(rep)["table"] == {
        "open beside the gates": 1,
        "on the discard pile": 0,
        "still in the deck": 2,
    }


def test_no_gate_for_a_tile_bought_out_of_turn() -> None:
    # a gate is set in one's own turn ("Das Ausspielen bzw. Einsetzen eines Stadttores ist
    # kein eigener Spielzug": it goes with the placement of that turn); a tile bought with the
    # vizier, out of turn, obeys the walker rule as written
    body = OPENING + "5. Cem: buy De P7 pay De7, place P7@1,0\n* market De:C5\n"
    body += "6. Anna: take Gu5\n* display Gu6\n"
    body += "Cem: vizier, buy Gu G10w pay Gu9 Gu1, place G10w@2,0\n* market Gu:T13\n"
    text = SETUP.format(modules="stadttore, wesir") + body
    rep = check_game(parse_text(text, "v.alh")[0])
    assert codes(rep) == ["PLACE-WALK"]


def _example() -> str:
    path = Path(__file__).resolve().parents[1] / "examples" / "module-stadttore.alh"
    return path.read_text(encoding="utf-8")


def test_corruptions_of_the_example_are_caught() -> None:
    text = _example()
    assert ", gate @-1,-3 e" in text
    for corrupt, code in (
        (text.replace(", gate @-1,-3 e", "", 1), "GATE-MISSING"),
        (text.replace(", gate @-1,-3 e", ", gate @-1,-3 n", 1), "GATE-EDGE"),
        (
            text.replace("53. Anna: take gate:card", "53. Anna: take gate:card gate:card", 1),
            "GATE-TAKE",
        ),
    ):
        rep = check_game(parse_text(corrupt, "corrupt.alh")[0])
        assert code in [v.code for v in rep.violations], code


def test_no_gate_waits_for_a_tile_laid_at_the_leftover_distribution() -> None:
    # "Das Ausspielen bzw. Einsetzen eines Stadttores ist kein eigener Spielzug. Vielmehr
    # erlaubt das Stadttor, ein Gebäudeplättchen zu legen ...": a gate goes with a placement of
    # one's own turn, and no turn follows the leftover distribution. Anna holds a gate card at
    # the end of the combined wave-E example; the tower T10 given to her there cannot be laid
    # behind her double wall at 3,-1 (the walker cannot reach it), only into her reserve.
    path = Path(__file__).parents[1] / "examples" / "module-wave-e-first-expansion.alh"
    text = path.read_text("utf-8")
    kept = "distribute Gu:T10 Anna reserve,"
    assert kept in text
    assert check_game(parse_text(text)[0]).valid
    broken = text.replace(kept, "distribute Gu:T10 Anna@3,-1,")
    rep = check_game(parse_text(broken)[0])
    found = [(v.code, v.player) for v in rep.violations]
    assert found == [("PLACE-WALK", "Anna")]
