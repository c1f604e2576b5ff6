"""Die Arbeiter (rulebook-bigbox-de-2019.txt § Stefan Feld: Die Arbeiter, L3770-3850 and
L3857-3878).

``roll 1 6 Di``: the dice rolled at the start of the turn, then where the worker goes (a market
field, an own building ``@x,y`` or a reserve tile; nothing: without success). ``wk:down`` /
``wk:up`` in a payment spend a worker on the field bought from. ``* workers Di Anna``: the players
who take their workers on a field back after a purchase from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import codes, messages, view
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.api import score_state
from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.modules.arbeiter import faces, is_joker, largest_group, per_player, results
from referee.notation import format_game, parse_text
from referee.record.model import Coord
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-arbeiter.alh"

# Anna: a 5 north of the fountain, a 12 east, a 9 north-east (no walls)
ANNA = "A5nw@0,1 G12s@1,0 A9@1,1"


def position(
    body: str,
    anna: str = ANNA,
    market: str = "Gu:G11 Di:S7w De:P3sw Du:C8nw",
    table: str = "",
    mine: str = "",
    hand: str = "Gu3 De7 Du2 Di1 Di6",
    reserve: str = "",
    players: str = "Anna, Ben, Cem",
    options: str = "",
) -> GameReport:
    seats = players.split(", ")
    anna_lines = [f"hand {hand}", f"reserve {reserve}" if reserve else "", f"alhambra {anna}", mine]
    given = {"Anna": anna_lines, **{n: "hand Du8 Di5 Gu1" for n in seats[1:] if n != "Dirk"}}
    return check_position(
        body,
        modules=f"arbeiter{options}",
        players=given,
        market=market,
        display="Gu4 Di3 De2 Du9",
        table=["dirk G6 T9ne" if len(seats) == 2 else "", table],
        names=players,
    )


def row(rep: GameReport, who: str = "Anna") -> dict[str, Any]:
    return dict(view(rep, "arbeiter")["players"][who])


def market(rep: GameReport) -> str:
    return str(view(rep, "arbeiter")["table"]["on the market"])


# --------------------------------------------------------------------------- components


def test_eight_workers_per_player_and_three_dice() -> None:
    # "48 Arbeiter (je 8 Arbeiter in einer Spielerfarbe)" (L3771); "3 Würfel (blau)" (L3773)
    assert per_player() == 8
    assert faces() == (1, 2, 3, 4, 5, 6)
    rep = position("")
    assert row(rep)["workers left"] == "8"


def test_what_a_roll_reaches() -> None:
    # 1st roll: the die; 2nd: "die Summe oder die Differenz der beiden Würfel" (L3805-3810);
    # 3rd: "eine beliebige Kombination aus der Summe/Differenz der drei Würfel" (L3811-3816)
    assert results((4,)) == {4}
    assert results((1, 6)) == {7, 5}
    assert results((3, 3)) == {6}  # a difference of 0 reaches nothing
    assert results((1, 6, 5)) == {12, 10, 2}
    assert 7 not in results((1, 6, 5))  # 1+6 leaves the third die out
    assert 7 in results((1, 6, 5), "subsets")
    # "Ein Dreierpasch zählt als Joker-Wurf" (L3817)
    assert is_joker((4, 4, 4)) and not is_joker((4, 4)) and not is_joker((4, 4, 5))


# --------------------------------------------------------------------------- the roll


def test_the_rulebook_example_one_then_six() -> None:
    # "Der Spieler wirft mit dem ersten Würfel eine 1. ... wirft eine 6. Jetzt kann er entweder
    # 6+1=7 erreichen und einen Arbeiter (Vorderseite) auf den Marktplatz mit der grünen Währung
    # (Dirham) legen oder 6-1=5 erreichen und einen Arbeiter (Rückseite) auf sein 5er-Gebäude
    # legen." (L3838-3844)
    rep = position("1. Anna: roll 1 6 Di, take Gu4")
    assert codes(rep) == [], messages(rep)
    assert market(rep) == "Di: Anna"
    assert row(rep)["workers left"] == "7"
    rep = position("1. Anna: roll 1 6 @0,1, take Gu4")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on tiles"] == "@0,1"
    # "Er darf jedoch auch weiter würfeln, um z.B. sein 12er-Gebäude belegen zu können, falls
    # er noch eine 5 würfelt." (L3845-3847)
    rep = position("1. Anna: roll 1 6 5 @1,0, take Gu4")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on tiles"] == "@1,0"


def test_a_roll_that_does_not_match_is_reported() -> None:
    # the corruption the issue names: a worker roll that does not match
    rep = position("1. Anna: roll 1 5 Di, take Gu4")
    assert codes(rep) == ["ARBEITER-MATCH"]
    assert "the dice give 4, 6, not the price 7" in messages(rep)[0]
    assert "L3791-3801" in messages(rep)[0]
    rep = position("1. Anna: roll 1 6 5 @1,1, take Gu4")  # the 9: 12, 10 or 2
    assert codes(rep) == ["ARBEITER-MATCH"]
    rep = position("1. Anna: roll 9 Di, take Gu4")
    assert codes(rep) == ["ARBEITER-ROLL"]
    assert "9 is no face of a die" in messages(rep)[0]
    rep = position("1. Anna: roll 1 2 3 4 Di, take Gu4")
    assert codes(rep) == ["ARBEITER-ROLL"]
    rep = position("1. Anna: roll Di, take Gu4")
    assert codes(rep) == ["ARBEITER-ROLL"]


def test_one_building_when_the_result_fits_several() -> None:
    # "Passt das Ergebnis für mehrere Gebäude, so muss sich der Spieler für ein Gebäude
    # entscheiden." (L3802-3803): one target per roll
    rep = position("1. Anna: roll 1 6 Di @0,1, take Gu4")
    assert codes(rep) == ["ARBEITER-ROLL"]
    assert "more than one target" in messages(rep)[0]
    assert row(rep)["workers left"] == "8"


def test_a_roll_without_success_lays_no_worker() -> None:
    # "Wenn auch dieses Ergebnis nicht passt, war das Würfeln ohne Erfolg." (L3823-3824)
    rep = position("1. Anna: roll 1 2 4, take Gu4")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["workers left"] == "8"


def test_a_triple_is_a_joker_even_for_the_fountain() -> None:
    # "Dafür kann sich der Spieler ein beliebiges Plättchen (am Bauhof, in der eigenen Alhambra,
    # der eigenen Reserve oder sogar den Löwenbrunnen oder ein beliebiges anderes Gebäude ohne
    # Preis) auswählen." (L3817-3822)
    rep = position("1. Anna: roll 2 2 2 @0,0, take Gu4")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on tiles"] == "@0,0"
    rep = position("1. Anna: roll 2 2 4 @0,0, take Gu4")
    assert codes(rep) == ["ARBEITER-MATCH"]
    assert "only a triple (the joker) reaches it" in messages(rep)[0]
    rep = position("1. Anna: roll 5 5 5 Du, take Gu4")
    assert codes(rep) == [] and market(rep) == "Du: Anna"


def test_one_worker_per_own_building_on_the_market_several() -> None:
    # "auf das entsprechende, noch nicht mit einem Arbeiter belegte Gebäude" (L3798-3800)
    rep = position("1. Anna: roll 5 @0,1, take Gu4", mine="workers @0,1")
    assert codes(rep) == ["ARBEITER-TARGET"]
    assert "a worker lies on that building already" in messages(rep)[0]
    rep = position("1. Anna: roll 5 @3,3, take Gu4")
    assert codes(rep) == ["ARBEITER-TARGET"]
    rep = position("1. Anna: roll 3 Gu, take Gu4", market="Gu:- Di:S7w De:P3sw Du:C8nw")
    assert codes(rep) == ["ARBEITER-TARGET"]
    assert "no building lies on that market field" in messages(rep)[0]
    # a market field holds any number of workers ("Liegen dort mehrere seiner Arbeiter", L3835)
    rep = position("1. Anna: roll 3 De, take Gu4", table="workers De Anna Ben")
    assert codes(rep) == [] and market(rep) == "De: Anna Ben Anna"


def test_a_worker_on_a_reserve_tile() -> None:
    # "eines eigenen Gebäudes (in die eigene Alhambra eingebaut oder in der Reserve)" (L3796-3797)
    rep = position("1. Anna: roll 4 6 G10n, take Gu4", reserve="G10n")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on reserve tiles"] == "G10n"
    rep = position("1. Anna: roll 4 6 G10n, take Gu4")
    assert codes(rep) == ["ARBEITER-TARGET"]
    assert "his reserve holds no such tile" in messages(rep)[0]


def test_no_ninth_worker() -> None:
    mine = "workers @0,1 @1,0 @1,1 gone 5"
    rep = position("1. Anna: roll 3 De, take Gu4", mine=mine)
    assert row(rep)["workers left"] == "0"
    assert codes(rep) == ["ARBEITER-SUPPLY"]


def test_after_rolling_the_only_action_is_taking_money() -> None:
    # "Würfelt er, darf er ausschließlich die Aktion: Geld nehmen ausführen." (L3780-3782)
    rep = position("1. Anna: roll 1 6 Di, buy De P3sw pay De7, place P3sw@-1,0")
    assert codes(rep) == ["ARBEITER-ONLY-TAKE"]
    assert "the only action is taking money" in messages(rep)[0]
    rep = position("1. Anna: roll 1 6 Di, remove A9@1,1")
    assert codes(rep) == ["ARBEITER-ONLY-TAKE"]
    rep = position("1. Anna: buy De P3sw pay De7, place P3sw@-1,0")  # without a roll: fine
    assert codes(rep) == []


def test_only_at_the_start_of_the_turn_never_in_a_bonus_action() -> None:
    # "Gewürfelt werden darf nur zu Beginn des Zuges. Bei Zusatzzügen nach dem passenden Kauf
    # eines Gebäudeplättchens darf nicht gewürfelt werden." (L3783-3786)
    rep = position("1. Anna: buy Di S7w pay Di1 Di6, roll 3 De, take Gu4, place S7w@-1,0")
    assert codes(rep) == ["ABILITY-WINDOW"]
    assert "only at the start of one's turn" in messages(rep)[0]
    rep = position("1. Anna: roll 1 6 Di, roll 3 De, take Gu4")
    assert codes(rep) == ["ABILITY-LIMIT"]
    # "Anschließend führt der Spieler die Aktion: Geld nehmen aus." (L3826-3827)
    rep = position("1. Anna: roll 1 6 Di")
    assert codes(rep) == ["TURN-EMPTY"]


# --------------------------------------------------------------------------- on the market


def test_a_buyer_spends_his_workers_to_change_the_price() -> None:
    # "so darf er diesen Arbeiter einsetzen, um den Preis des Gebäudes um 1 zu erhöhen oder zu
    # senken. Liegen dort mehrere seiner Arbeiter, so darf er beliebig viele davon einsetzen."
    # (L3831-3836); "Eingesetzte Arbeiter gehen aus dem Spiel." (L3857)
    table = "workers Di Anna Anna Ben"
    rep = position("1. Anna: buy Di S7w pay Di6 wk:down, place S7w@-1,0", table=table)
    assert codes(rep) == [], messages(rep)
    assert row(rep)["out of the game"] == "1"
    assert market(rep) == "Di: Anna Ben"
    # exact thanks to the worker: another action follows
    rep = position(
        "1. Anna: buy Di S7w pay Di6 wk:down, take Gu4, place S7w@-1,0", table=table, hand="Di6"
    )
    assert codes(rep) == [], messages(rep)
    rep = position(
        "1. Anna: buy Di S7w pay Di6 Di2 wk:up, take Gu4, place S7w@-1,0",
        table=table,
        hand="Di6 Di2",
    )
    assert codes(rep) == [], messages(rep)  # 8 paid exactly: another action
    rep = position("1. Anna: buy Di S7w pay Di6 wk:down wk:down, place S7w@-1,0", table=table)
    assert codes(rep) == [], messages(rep)  # price 5, overpaid
    assert row(rep)["out of the game"] == "2" and market(rep) == "Di: Ben"


def test_only_own_workers_on_that_field_are_spent() -> None:
    rep = position("1. Anna: buy Di S7w pay Di6 wk:down, place S7w@-1,0", table="workers Di Ben")
    assert "ARBEITER-SPEND" in codes(rep)
    assert "1 of his workers spent, but 0 of them lie on the field Di" in messages(rep)[0]
    rep = position(
        "1. Anna: buy Di S7w pay Di6 wk:sideways, place S7w@-1,0", table="workers Di Anna"
    )
    assert "ARBEITER-SPEND" in codes(rep)


def test_the_others_take_theirs_back_or_leave_them() -> None:
    # "Sollten nach dem Kauf eines Gebäudes noch weitere Arbeiter (eigene oder fremde) dort
    # liegen, so kann vor dem Legen eines neuen Gebäudes beginnend mit dem Startspieler jeder
    # betroffene Spieler für sich entscheiden, ob er seine/n Arbeiter zurücknimmt oder
    # liegenlässt." (L3857-3862)
    table = "workers Di Anna Ben Cem"
    buy = "1. Anna: buy Di S7w pay Di6 Di1, place S7w@-1,0\n"
    rep = position(buy + "* workers Di Ben\n", table=table)
    assert codes(rep) == [], messages(rep)
    assert market(rep) == "Di: Anna Cem"
    assert row(rep, "Ben")["workers left"] == "8"
    rep = position(buy + "* workers Di Cem Anna\n", table=table)
    assert codes(rep) == ["ARBEITER-BACK"]
    assert "seat order from the start player: Anna, Ben, Cem" in messages(rep)[0]
    rep = position("1. Anna: take Gu4\n* workers Di Ben\n", table=table)
    assert codes(rep) == ["ARBEITER-BACK"]
    assert "no building was bought from Di" in messages(rep)[0]
    rep = position(buy + "* workers Di Ben Ben\n", table=table)
    assert codes(rep) == ["ARBEITER-BACK"]


# --------------------------------------------------------------------------- scoring


def test_largest_connected_group() -> None:
    cells = {Coord(0, 0), Coord(1, 0), Coord(1, 1), Coord(2, 1), Coord(3, 2)}
    assert largest_group(cells) == 4
    assert largest_group(set()) == 0


def _workers_line(rep: GameReport, round_no: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in score_state(rep.state, round_no).to_dict()["players"]:
        cat = p.get("categories", {}).get("workers")
        if cat:
            out[p["name"]] = cat
    return out


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_the_rulebook_example_four_connected_and_one_diagonal(round_no: int) -> None:
    # "Alhambra mit 4 zusammenhängend mit Arbeitern besetzten Gebäuden und 1 Arbeiter nur mit
    # diagonaler Verbindung: Der Spieler erhält 4 Punkte bei der Wertung." (L3876-3878)
    anna = "A5nw@0,1 G12s@1,0 A9@1,1 P8@1,2 G10-@2,2"
    rep = position("", anna=anna, mine="workers @0,0 @1,0 @1,1 @0,1 @2,2")
    assert codes(rep) == [], messages(rep)
    assert _workers_line(rep, round_no)["Anna"]["points"] == 4
    assert row(rep)["largest group now"] == "4"


def test_double_walls_do_not_separate() -> None:
    # "Auch durch Doppelmauern getrennte Plättchen sind benachbart." (L3872-3873)
    anna = "A6en@0,1 G12s@1,0 C9w@1,1"  # a double wall between @0,1 and @1,1
    rep = position("", anna=anna, mine="workers @0,1 @1,1")
    assert codes(rep) == [], messages(rep)
    assert _workers_line(rep, 1)["Anna"]["points"] == 2


def test_a_worker_stays_with_its_tile_through_the_reserve() -> None:
    # ruling (a): the worker lies on the building, it moves with it
    rep = position("1. Anna: remove A9@1,1", mine="workers @1,1 @1,0")
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on tiles"] == "@1,0" and row(rep)["on reserve tiles"] == "A9"
    rep = position(
        "1. Anna: remove A9@1,1\n2. Ben: take Du9\n3. Cem: take Gu4\n4. Anna: build A9@2,0",
        mine="workers @1,1 @1,0",
    )
    assert codes(rep) == [], messages(rep)
    assert row(rep)["on tiles"] == "@1,0 @2,0"


# --------------------------------------------------------------------------- positions, views


def test_position_lines_are_written_and_read_back() -> None:
    rep = position(
        "",
        table="workers Di Anna Ben",
        mine="workers @1,0 @0,1 G10n gone 2",
        reserve="G10n",
    )
    assert codes(rep) == [], messages(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "  workers Di Anna Ben\n" in text
    assert "    workers @0,1 @1,0 G10n gone 2\n" in text
    assert row(rep)["workers left"] == "2"  # 8 - 2 on tiles - 1 in the reserve - Di - 2 gone
    rep = position("", mine="workers @5,5 G9 hello")
    assert codes(rep) == ["ARBEITER-POSITION"] * 3


def test_workers_are_drawn_on_their_tiles() -> None:
    rep = position("", mine="workers @1,0")
    assert rep.state is not None
    marks = rep.state.ext.cell_marks(rep.state, rep.state.players[0])
    assert marks == {Coord(1, 0): "wk"}
    de = view(rep, "arbeiter", "de")
    assert "Arbeiter übrig" in str(de)


# --------------------------------------------------------------------------- the example


def _example() -> Any:
    return parse_text(EXAMPLE.read_text(encoding="utf-8"))[0]


def test_the_example_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = _example()
    assert format_game(game) == text
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == []
    assert text.count(": roll ") >= 10
    assert "wk:down" in text and "wk:up" in text
    assert "workers " in text


def test_a_corrupted_roll_in_the_example_is_caught() -> None:
    import re

    text = EXAMPLE.read_text(encoding="utf-8")
    found = re.search(r": roll ([1-6]) (Gu|Di|De|Du),", text)
    assert found is not None
    die = int(found.group(1))
    wrong = die + 1 if die < 6 else 1  # a single die one off no longer meets the same price
    bad = text[: found.start()] + f": roll {wrong} {found.group(2)}," + text[found.end() :]
    (game,) = parse_text(bad)
    rep = check_game(game)
    assert codes(rep)[:1] == ["ARBEITER-MATCH"]


@pytest.mark.parametrize("moment", ["early", "middle", "late", "scoring-1", "scoring-2"])
def test_a_moment_of_the_example_round_trips(moment: str) -> None:
    from referee.scoring.position import score_position
    from referee.scoring.state import score_state as score_now
    from tests.test_position_modules import _breakdown, _round_trip, _views

    game = _example()
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    at = (
        At("scoring", int(moment[-1]))
        if moment.startswith("scoring-")
        else At("turn", {"early": 2, "middle": n // 2, "late": n - 1}[moment])
    )
    state, state2, text, again = _round_trip(game, at)
    assert position_text(state2) == position_text(state)
    assert _views(state2) == _views(state)
    assert format_game(again) == text
    assert check_game(again).violations == []
    got = score_position(again)
    assert not got.problems, [p.message() for p in got.problems]
    assert got.result is not None
    assert _breakdown(got.result) == _breakdown(score_now(state.copy(), 3))


def test_the_generator_offers_rolls_first_then_only_takes() -> None:
    from referee.engine.core import apply_action, check_action
    from referee.engine.legal import legal_actions
    from referee.record.model import Buy, ModuleAction, TakeMoney

    rep = position("", table="workers Di Anna")
    assert rep.state is not None
    state = rep.state.copy()
    first = legal_actions(state)
    rolls = [a for a in first if isinstance(a, ModuleAction) and a.verb == "roll"]
    assert rolls and all(check_action(state, a) == [] for a in rolls)
    # the buy spending Anna's worker on Di: S7w for 6, paid exactly
    spend = [a for a in first if isinstance(a, Buy) and any("wk" in str(p) for p in a.paid)]
    assert spend and all(check_action(state, a) == [] for a in spend)
    roll = next(a for a in rolls if len(a.args) == 3 and a.args[2].value == "Di")  # 1 + 6 = 7
    assert apply_action(state, roll) == []
    after = legal_actions(state)
    assert after and all(isinstance(a, TakeMoney) for a in after)
    assert all(check_action(state, a) == [] for a in after)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=1_000),
    fraction=st.floats(min_value=0.0, max_value=1.0),
)
def test_any_moment_of_a_simulated_game_reads_back_the_same(seed: int, fraction: float) -> None:
    """The round-trip property test of every module, for this one (workers on the market, on
    tiles, on reserve tiles and out of the game all written and read back)."""
    from referee.engine.legal import legal_actions
    from referee.notation.formatter import action as written
    from referee.simulate import simulate_game
    from referee.simulate.roundtrip import read_back, snapshot

    game = simulate_game(2 + seed % 5, seed, modules=("arbeiter",))
    last, _ = state_at(game, At("end"))
    at = At("turn", max(1, round(fraction * (last.turn_no - 1))))
    state, state2, text, again, errors = read_back(game, at)
    assert not again.errors and errors == [], text
    assert snapshot(state2) == snapshot(state)
    assert sorted(map(written, legal_actions(state2))) == sorted(map(written, legal_actions(state)))


def test_workers_are_drawn_in_the_map_the_svg_and_the_replay(tmp_path: Path) -> None:
    # E17 (Module.cell_marks): a worker lies on its building in every drawing
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    shown = runner.invoke(cli, ["show", str(EXAMPLE), "--at", "40"])
    assert shown.exit_code == 0, shown.output
    assert "  + S8@0,-1: wk" in shown.output and shown.output.count(": wk\n") == 5
    assert "on the market: Di: Anna, De: Cem Cem Anna" in shown.output
    # and on the market line itself, beside the field's tile (Module.market_marks)
    market = next(line for line in shown.output.splitlines() if line.startswith("Market: "))
    assert "[wk Anna]" in market.split("|")[1] and "[wk Cem Cem Anna]" in market.split("|")[2]
    first = runner.invoke(cli, ["show", str(EXAMPLE), "--at", "1", "--lang", "de"])
    assert "De: S8 (Serail 8) [wk Anna]" in first.output, first.output
    svg = tmp_path / "t.svg"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--at", "40", "-o", str(svg)])
    assert res.exit_code == 0, res.output
    text = svg.read_text(encoding="utf-8")
    assert ">wk</text>" in text and text.count(" + wk</title>") == 5
    page = tmp_path / "t.html"
    res = runner.invoke(cli, ["render", str(EXAMPLE), "--html", "--lang", "de", "-o", str(page)])
    assert res.exit_code == 0, res.output
    html = page.read_text(encoding="utf-8")
    assert "+ wk" in html and "Arbeiter" in html


def test_the_platform_take_only_bars_every_main_action_but_a_take() -> None:
    # TurnState.take_only (referee/engine/state.py): the module's code for any other main action
    from referee.engine.state import TurnState
    from referee.engine.turns import TAKING, main_action_findings
    from referee.messages import Text
    from referee.record.model import NOWHERE

    rep = position("")
    assert rep.state is not None
    state = rep.state.copy()
    anna = state.players[0]
    state.turn = TurnState(1, anna.index)
    assert main_action_findings(state, NOWHERE, anna, Text("ACTION/buying")) == []
    state.turn.take_only = "ARBEITER-ONLY-TAKE"
    found = main_action_findings(state, NOWHERE, anna, Text("ACTION/buying"))
    assert [f.code for f in found] == ["ARBEITER-ONLY-TAKE"]
    assert main_action_findings(state, NOWHERE, anna, TAKING) == []
    copied = state.copy()
    assert copied.turn is not None and copied.turn.take_only == "ARBEITER-ONLY-TAKE"
