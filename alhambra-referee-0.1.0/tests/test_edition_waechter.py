"""The guards edition ("Wächter", profile ``waechter``): every sentence of the players' summary
that the referee checks, cited by line of ``../shared/rules/summary-waechter-edition-de.txt``
(``L54``), and every reading with its text (docs/profiles.md, "The guards edition").

The records are the complete legal examples ``examples/waechter.alh`` (3 players) and
``examples/waechter-two-player.alh`` (Dirk), cut after a turn where a test needs only the
beginning, and corrupted one line at a time.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pytest

from referee.engine import GameReport, check_game, replay
from referee.engine.state import EMPTY, GameState
from referee.notation import parse_text
from referee.profiles import RuleProfile, load_profile

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = (ROOT / "examples" / "waechter.alh").read_text(encoding="utf-8")
TWO = (ROOT / "examples" / "waechter-two-player.alh").read_text(encoding="utf-8")
SUMMARY = (
    Path("/work/shared/rules/summary-waechter-edition-de.txt")
    if Path("/work/shared/rules/summary-waechter-edition-de.txt").exists()
    else None
)
WAECHTER = load_profile("waechter")


def lines(text: str) -> list[str]:
    return text.split("\n")


def cut(text: str, upto: str) -> str:
    """The record up to and including the first line starting with ``upto`` (no Result)."""
    out = []
    for line in lines(text):
        if line.startswith("[Result"):
            continue
        out.append(line)
        if line.startswith(upto):
            break
    return "\n".join(out) + "\n"


def change(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def game(text: str) -> Any:
    games = parse_text(text, "w.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0]


def check(text: str, prof: RuleProfile | None = None) -> GameReport:
    return check_game(game(text), prof)


def errors(report: GameReport) -> list[str]:
    return [v.code for v in report.violations if v.severity == "error"]


def notes(report: GameReport) -> list[str]:
    return [u.key for u in report.unverifiable]


def state_of(text: str, prof: RuleProfile | None = None) -> GameState:
    state, _ = replay(game(text), prof)
    return state


def unit(state: GameState) -> Any:
    return state.modules["waechter"]


def guards(state: GameState, player: str) -> dict[str, int]:
    from referee.engine.fmt import fmt_tile

    return {fmt_tile(t): n for t, n in unit(state).guards.get(player, {}).items() if n}


def profile(**changes: object) -> RuleProfile:
    return dataclasses.replace(WAECHTER, name="test", **changes)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- the examples


@pytest.mark.parametrize("text", [EXAMPLE, TWO], ids=["three", "two"])
def test_the_examples_are_legal_and_complete(text: str) -> None:
    report = check(text)
    assert errors(report) == []
    assert report.complete and report.profile == "waechter"
    assert set(notes(report)) == {"UNVERIFIED-WAECHTER-EFFECT"}  # the abilities' effects only


def test_the_profile_switches_the_edition_on_and_the_default_does_not() -> None:
    assert WAECHTER.edition == "waechter" and load_profile("queen-2003").edition == "base"
    assert "waechter" in state_of(cut(EXAMPLE, "start")).modules
    plain = cut(EXAMPLE, "start").replace('[Rules "waechter"]', '[Rules "queen-2003"]')
    report = check(plain)
    assert "UNKNOWN-VERB" in errors(report)  # `* preview` means nothing in the base game


def test_a_modules_header_cannot_name_the_edition() -> None:
    text = cut(EXAMPLE, "start").replace('[Rules "waechter"]', '[Modules "waechter"]')
    assert errors(check(text)) == ["MODULE-UNKNOWN", "UNKNOWN-VERB"]


# ----------------------------------------------------------- buildings and guards (L15-27, L69)


def test_a_new_building_gets_one_guard_per_tower_when_built_L69() -> None:
    # L69: "Gibt es auf dem Gebäude Wächtertürme, kommt auf jeden Turm 1 WÄCHTER aus dem
    # Vorrat des Wächter-Tableaus." Default material: one tower per building (unverified).
    state = state_of(cut(EXAMPLE, "1. Anna"))
    assert guards(state, "Anna") == {"S8": 1}
    assert unit(state).tableau == 1


def test_a_building_put_into_the_reserve_gets_its_guards_too_L68_L69() -> None:
    # L68: "ob es in die ALHAMBRA oder die RESERVE ... kommt", then L69.
    state = state_of(cut(EXAMPLE, "2. Ben"))
    assert guards(state, "Ben") == {"P3": 1, "T10": 1}


def test_towers_stated_in_the_record_count() -> None:
    text = change(cut(EXAMPLE, "1. Anna"), "start Anna", "* towers S8 2\nstart Anna")
    assert guards(state_of(text), "Anna") == {"S8": 2}
    text = change(cut(EXAMPLE, "1. Anna"), "start Anna", "* towers S8 0\nstart Anna")
    assert guards(state_of(text), "Anna") == {}


def test_towers_stated_after_the_building_got_its_guards_are_late() -> None:
    text = cut(EXAMPLE, "1. Anna") + "* towers S8 2\n"
    report = check(text)
    assert "WAECHTER-MATERIAL" in errors(report)


def test_guards_stay_on_their_building_during_a_redesign_L44() -> None:
    # L44: "Wächter bleiben beim Umbau auf ihrem Gebäude." Ben moves T10 into the reserve and
    # pays with its guard there (turn 5); building it in again (turn 14) brings no new guard.
    text = cut(EXAMPLE, "4. Anna")
    text += "5. Ben: remove T10@-1,0\n"
    assert guards(state_of(text), "Ben") == {"P3": 1, "T10": 1}
    state = state_of(cut(EXAMPLE, "14. Ben"))
    assert "T10" not in guards(state, "Ben")


def test_guards_of_leftover_buildings_L124() -> None:
    # L124: "Diese Gebäude, inkl. ihrer Wächter, dürfen noch ... eingebaut werden."
    last = next(x for x in lines(EXAMPLE) if x.startswith("distribute"))
    before = state_of(cut(EXAMPLE, last).replace(last + "\n", ""))
    assert "A10" not in guards(before, "Ben")
    end = state_of(EXAMPLE)
    assert guards(end, "Ben").get("A10") == 1
    assert guards(end, "Anna").get("A9") == 1 and guards(end, "Anna").get("S5") == 1


# -------------------------------------------------------------- abilities (L46-59)


def test_an_ability_is_paid_with_a_guard_onto_the_placement_tiles_L55() -> None:
    # L55: "Der (oder die) geforderten Wächter NIMMT man aus seiner Alhambra oder seiner
    # Reserve UND STELLT diese(n) auf die nächsten freien Felder eines STELL-Plättchens."
    state = state_of(cut(EXAMPLE, "5. Ben"))
    assert guards(state, "Ben") == {}  # P3 (reserve) and T10 paid
    assert unit(state).placed == 2
    assert unit(state).paid == {"Ben": 1}  # ab:2 with a point: no guard left


def test_an_ability_used_twice_in_a_turn_L54() -> None:
    # L54: "1 - x Wächter-Fähigkeiten nutzen, jede 1-mal"
    text = change(cut(EXAMPLE, "5. Ben"), "guard ab:3 T10", "guard ab:4 T10")
    report = check(text)
    assert "WAECHTER-ABILITY" in errors(report)
    v = next(v for v in report.violations if v.code == "WAECHTER-ABILITY")
    assert "ab:4" in v.message("en") and "jede 1-mal" in v.message("de")


def test_each_ability_again_in_the_next_turn() -> None:
    # "jede 1-mal" while it is one's turn: the next turn may use it again (L81: flipped back)
    report = check(cut(EXAMPLE, "13. Anna"))
    assert errors(report) == []  # ab:2 and ab:3 used by Anna in turns 7, 10 and 13


def test_a_guard_paid_from_nowhere_L55() -> None:
    # turn 10: Anna's guard on P6 was spent in turn 7: P6 holds none now
    text = change(cut(EXAMPLE, "10. Anna"), "guard ab:3 S8", "guard ab:3 P6")
    report = check(text)
    assert "WAECHTER-PAY" in errors(report)
    v = next(v for v in report.violations if v.code == "WAECHTER-PAY")
    assert "P6" in v.message("en") and "Reserve" in v.message("de")
    # a building of another player
    text = change(cut(EXAMPLE, "7. Anna"), "guard ab:2 P6", "guard ab:2 T10")
    assert "WAECHTER-PAY" in errors(check(text))


def test_the_cost_printed_on_the_ability_tile_L55() -> None:
    # L55: "Zur Nutzung ZAHLT man die oben auf dem Wächter-Plättchen angegebenen Kosten, meist 1
    # Wächter" -- a record states another cost (unverified data)
    text = change(cut(EXAMPLE, "7. Anna"), "start Anna", "* ability ab:2 2\nstart Anna")
    assert "WAECHTER-PAY" in errors(check(text))
    text = change(text, "guard ab:2 P6", "guard ab:2 P6 S8")
    assert errors(check(text)) == []


def test_no_ability_after_the_first_placement_L54_L63() -> None:
    # L54: "Sobald man zum Zugende Gebäude einbaut, dürfen keine Wächter-Fähigkeiten mehr
    # genutzt werden."; L63: "ERST JETZT GEBÄUDE EINBAUEN!"
    text = change(
        cut(EXAMPLE, "4. Anna"),
        "4. Anna: buy Di P6 pay Di6, take Gu7, place P6@1,0",
        "4. Anna: buy Di P6 pay Di6, take Gu7, place P6@1,0, guard ab:1 S8",
    )
    assert "ABILITY-WINDOW" in errors(check(text))
    text = change(
        cut(EXAMPLE, "4. Anna"),
        "4. Anna: buy Di P6 pay Di6, take Gu7, place P6@1,0",
        "4. Anna: guard ab:1 S8, buy Di P6 pay Di6, take Gu7, place P6@1,0",
    )
    assert errors(check(text)) == []  # before the action is as good as after it


def test_no_such_ability() -> None:
    text = change(cut(EXAMPLE, "7. Anna"), "guard ab:2 P6", "guard ab:5 P6")
    assert "WAECHTER-ABILITY" in errors(check(text))


def test_an_abilitys_effect_is_unverifiable_never_legal_L46_L59() -> None:
    report = check(cut(EXAMPLE, "7. Anna"))
    assert errors(report) == []
    effects = [u for u in report.unverifiable if u.key == "UNVERIFIED-WAECHTER-EFFECT"]
    assert len(effects) == 4  # turn 5: three uses; turn 7: one
    assert "not checked" in effects[0].message("en")
    assert "ungeprüft" in effects[0].message("de")


# ------------------------------------------------------------ points instead (L57-59)


def test_points_instead_of_a_guard_only_without_guards_L57() -> None:
    # L57: "Hat man KEINEN Wächter zum Bezahlen der Fähigkeiten, darf man alternativ SP abgeben"
    text = change(
        cut(EXAMPLE, "5. Ben"),
        "guard ab:4 P3, guard ab:3 T10, guardpay ab:2 1",
        "guardpay ab:2 1, guard ab:4 P3, guard ab:3 T10",
    )
    report = check(text)
    assert "WAECHTER-VP" in errors(report)
    assert "KEINEN" in next(v for v in report.violations if v.code == "WAECHTER-VP").message()


@pytest.mark.parametrize(
    ("text", "line", "due"),
    [
        (EXAMPLE, "13. Anna: take Di7, guardpay ab:3 1", 1),  # before scoring 1
        (TWO, "25. Anna: take Di1 Di2 Di2, guard ab:3 G8ne, guard ab:2 T11n, guardpay ab:1 2", 2),
    ],
)
def test_points_by_the_scorings_held_L58_L59(text: str, line: str, due: int) -> None:
    # L58-59: "1 SP vor 1. Wertung / 2 SP zwischen 1. und 2. Wertung / 3 SP nach 2. Wertung"
    number = line.split(".")[0]
    prefix = cut(text, number + ".")
    assert errors(check(prefix)) == []
    wrong = change(prefix, f"ab:{line[-3]} {due}", f"ab:{line[-3]} {due + 1}")
    report = check(wrong)
    assert "WAECHTER-VP" in errors(report)


def test_three_points_after_the_second_scoring_L59() -> None:
    rows = lines(TWO)
    second = rows.index(next(x for x in rows if x.startswith("scoring 2")))
    pay = next(x for x in rows[second:] if "guardpay" in x)
    token = pay.split("guardpay ", 1)[1].split(",")[0]  # "ab:N 3"
    assert token.endswith(" 3")
    prefix = cut(TWO, pay.split(".")[0] + ".")
    assert errors(check(prefix)) == []
    wrong = change(prefix, "guardpay " + token, "guardpay " + token[:-1] + "2")
    assert "WAECHTER-VP" in errors(check(wrong))


def test_points_paid_are_deducted_at_the_next_scoring() -> None:
    # each `guardpay ab:N 1` before scoring 1 is one point, deducted at scoring 1
    at = lines(EXAMPLE).index(next(x for x in lines(EXAMPLE) if x.startswith("scoring 1")))
    paid: dict[str, int] = {}
    for x in lines(EXAMPLE)[:at]:
        if "guardpay" in x:
            name = x.split(": ")[0].split(". ")[1]
            paid[name] = paid.get(name, 0) + x.count("guardpay")
    state = state_of(cut(EXAMPLE, "scoring 1"))
    for row in state.scoring_results[0].rows:
        line = row.categories.get("guardpay")
        assert (-line.points if line is not None else 0) == paid.get(row.name, 0)
    assert paid  # the example pays points before the first scoring


# --------------------------------------------------- the preview board (L82-87)


def test_the_preview_slides_onto_the_market_L83_L86() -> None:
    # L83-84: "Das Gebäude auf Feld 3 auf dem Vorschau-Tableau rutscht auf das niedrigste freie
    # Feld des Bauhofs." L85-86: "Übrige Gebäude ... rutschen dort nach rechts. Wieder wird das
    # Gebäude von Feld 3 zum Bauhof gebracht usw.."
    from referee.engine.fmt import fmt_tile

    state = state_of(cut(EXAMPLE, "* preview P7 G9 P6"))
    assert [fmt_tile(t) for t in unit(state).preview] == ["P6", "G9", "P7"]  # field 3 = P7
    state = state_of(cut(EXAMPLE, "2. Ben"))
    # Ben bought Gu and Di: G9 to Gu (the lowest free field), then P6 to Di
    assert [fmt_tile(t) for t in unit(state).slid] == ["G9", "P6"]
    assert fmt_tile(state.market[0]) == "G9" and fmt_tile(state.market[1]) == "P6"
    # T9ne (drawn onto field 1 after turn 1) slid right twice: on field 3 now
    assert [s is EMPTY for s in unit(state).preview] == [True, True, False]
    assert fmt_tile(unit(state).preview[2]) == "T9ne"


def test_a_wrong_slide_statement_is_caught() -> None:
    text = change(cut(EXAMPLE, "3. Cem"), "* slide G9 P6", "* slide P6 G9")
    report = check(text)
    assert "WAECHTER-SLIDE" in errors(report)
    v = next(v for v in report.violations if v.code == "WAECHTER-SLIDE")
    assert "G9 P6" in v.message() and "Feld 3" in v.message("de")


def test_a_slide_is_not_written_by_the_market_line() -> None:
    # the record that draws the slid building from the tower instead: the field is taken
    text = change(cut(EXAMPLE, "2. Ben"), "* slide P7, preview T9ne", "* market De:T9ne")
    assert "REFILL-MARKET" in errors(check(text))


def test_the_preview_board_is_refilled_L82() -> None:
    # L82: "Die Gebäude auf dem BAUHOF und dem VORSCHAU-Tableau werden AUFGEFÜLLT"
    text = change(cut(EXAMPLE, "3. Cem"), "* slide G9 P6, preview G10n A7", "* slide G9 P6")
    assert "WAECHTER-PREVIEW" in errors(check(text))


def test_the_preview_board_at_the_start() -> None:
    text = change(cut(EXAMPLE, "1. Anna"), "* preview P7 G9 P6\n", "")
    assert "WAECHTER-PREVIEW" in errors(check(text))


def test_the_money_display_to_four_L88() -> None:
    # L88: "Falls nötig, wird die Geldkarten-Auslage auf 4 Karten aufgefüllt."
    text = change(cut(EXAMPLE, "4. Anna"), "* display Gu7\n", "")
    assert "REFILL-DISPLAY" in errors(check(text))


# ------------------------------------------------------------- two players (L95-105)


def _placed_around(text: str, line: str) -> tuple[int, int]:
    """Guards on the placement tiles before Dirk's draw ``line`` and at the start of the next
    turn, less what that turn's own guard payments and gifts put there."""
    i = lines(text).index(line)
    before = state_of("\n".join(lines(text)[:i]) + "\n")
    after = state_of("\n".join(lines(text)[: i + 2]) + "\n")  # the draw and the next turn
    turn = lines(text)[i + 1]
    own = turn.count("guard ab:") + turn.count(" dirk")
    return unit(before).placed, unit(after).placed - own


def test_dirk_after_scoring_1_half_his_guards_rounded_up_L99() -> None:
    # L99: "Nach 1. Wertung erhält DIRK 6 weitere Gebäude wie anfangs. Die Hälfte der darauf
    # abgebildeten Wächter (aufgerundet) kommt auf die Stell-Plättchen."
    line = next(x for x in lines(TWO) if x.startswith("* dirk P8"))
    before, after = _placed_around(TWO, line)
    towers = 6  # one tower on each of the 6 buildings (default material)
    assert after - before == math.ceil(towers / 2)


def test_dirk_after_scoring_2_a_third_of_the_tower_L100() -> None:
    # L100: "Nach 2. Wertung erhält DIRK weitere Gebäude (1/3 der Plättchen im Turm,
    # abgerundet)"; the reading `dirk_second_thirds: 1` (docs/profiles.md)
    line = next(x for x in lines(TWO) if x.startswith("* dirk P7"))
    before, after = _placed_around(TWO, line)
    assert after - before == 1  # one building, one tower: half rounded up
    assert errors(check(TWO, profile(dirk_second_thirds=2))) == ["DIRK-DRAW"]


def test_a_gift_to_dirk_puts_its_guards_on_the_placement_tiles_L104_L105() -> None:
    # L104-105: "Sie dürfen DIRK nun Gebäude schenken. Evtl. darauf sitzende Wächter kommen nun
    # aber auf die Stell-Plättchen."
    line = next(x for x in lines(TWO) if "give T8 dirk" in x)
    i = lines(TWO).index(line)
    before = state_of("\n".join(lines(TWO)[:i]) + "\n")
    after = state_of("\n".join(lines(TWO)[: i + 1]) + "\n")
    assert unit(after).placed - unit(before).placed == 1


def test_dirk_scores_majorities_L97() -> None:
    report = check(TWO)
    assert any(row.is_dirk and row.points > 0 for s in report.scorings for row in s.rows)


# ------------------------------------------------------ the guard scoring (L126-129)


def test_the_guard_scoring_at_the_end_L126_L129() -> None:
    # L129: "je Wächter auf seiner längsten zusammenhängenden Außenmauer so viele SP, wie die Zahl
    # unterhalb des Stell-Plättchens zeigt, das am weitesten rechts liegt und mit 1 - x
    # Wächter(n) besetzt ist."
    from referee.editions.waechter import Waechter

    state = state_of(EXAMPLE)
    w = next(m for m in state.ext.modules if isinstance(m, Waechter))
    boxes, numbers = w.stell(state)
    placed = unit(state).placed
    assert w.stell_value(state) == numbers[(placed - 1) // boxes]
    final = state.scoring_results[-1]
    for row in final.rows:
        if row.is_dirk:
            assert "guards" not in row.categories
            continue
        p = state.player_named(row.name)
        assert p is not None
        expect = w.guards_on_wall(state, p) * w.stell_value(state)
        assert row.categories["guards"].points == expect
    assert [r.categories["guards"].points for r in final.rows] == [30, 0, 12]
    # the scorings before the end have no guard line (L50, L126)
    assert all("guards" not in r.categories for r in state.scoring_results[0].rows)


def test_a_wrong_guard_scoring_claim_is_caught() -> None:
    last = next(x for x in lines(EXAMPLE) if x.startswith("scoring 3"))
    wrong = change(EXAMPLE, last, last.replace("Anna =144", "Anna =144 (guards=24)"))
    report = check(wrong)
    assert errors(report) == ["SCORE-CLAIM"]
    right = change(EXAMPLE, last, last.replace("Anna =144", "Anna =144 (guards=30)"))
    assert errors(check(right)) == []


def test_guards_at_every_scoring_is_a_switch() -> None:
    # the score pad's reading (digest §11, b): guards at every scoring
    report = check(EXAMPLE, profile(guard_scoring="every"))
    assert errors(report)  # the claims of scorings 1 and 2 now differ
    state = state_of(cut(EXAMPLE, "scoring 1"), profile(guard_scoring="every"))
    assert all("guards" in r.categories for r in state.scoring_results[0].rows)


def test_a_guard_counts_when_its_building_has_a_side_in_the_longest_wall() -> None:
    from referee.editions.waechter import Waechter
    from referee.geometry.walls import longest_outer_wall

    state = state_of(EXAMPLE)
    w = next(m for m in state.ext.modules if isinstance(m, Waechter))
    for p in state.players:
        run = longest_outer_wall(p.alhambra, "trail")
        cells = {seg[0] for seg in run.segments}
        on = 0
        for at, piece in p.alhambra.items():
            if at in cells:
                on += unit(state).guards.get(p.name, {}).get(piece, 0)
        assert w.guards_on_wall(state, p) == on
    # guards in the reserve never count
    anna = state.player_named("Anna")
    assert anna is not None
    reserve = [t for t in anna.reserve if t in unit(state).guards.get("Anna", {})]
    assert reserve  # S5, a leftover put in the reserve with its guard
    assert w.guards_on_wall(state, anna) * w.stell_value(state) == 30


# ----------------------------------------------------------- positions and output


def test_show_writes_a_position_that_reads_back_to_the_same_guards() -> None:
    from click.testing import CliRunner

    from referee.cli import cli

    path = ROOT / "examples" / "waechter.alh"
    out = CliRunner().invoke(cli, ["show", str(path), "--at", "9", "--format", "record"])
    assert out.exit_code == 0, out.output
    assert "preview " in out.output and "guards " in out.output and "placed " in out.output
    assert "paid 1" in out.output  # Ben's point for ab:2 in turn 5, due at scoring 1
    state = state_of(cut(EXAMPLE, "* slide G10n"))  # turn 9 and its refill
    text = out.output
    back = state_of(text if text.lstrip().startswith("[") else '[Rules "waechter"]\n' + text)
    for p in state.players:
        assert guards(back, p.name) == guards(state, p.name)
    assert unit(back).placed == unit(state).placed
    assert unit(back).preview == unit(state).preview
    assert unit(back).paid == unit(state).paid
    assert errors(check(text)) == []


def test_show_and_json_know_the_edition_in_english_and_german() -> None:
    from click.testing import CliRunner

    from referee.cli import cli

    path = str(ROOT / "examples" / "waechter.alh")
    en = CliRunner().invoke(cli, ["show", path, "--at", "4"])
    de = CliRunner().invoke(cli, ["show", path, "--at", "4", "--lang", "de"])
    js = CliRunner().invoke(cli, ["show", path, "--at", "4", "--format", "json"])
    assert en.exit_code == de.exit_code == js.exit_code == 0
    assert "preview board: 1:S9 2:A7 3:G10n" in en.output
    assert "Vorschau-Tableau: 1:S9 2:A7 3:G10n" in de.output
    assert "Wächter P6×1 S8×1" in de.output
    assert "waechter" in js.output and "P6×1" in js.output


def test_the_summary_lines_cited_here_say_what_the_tests_say() -> None:
    if SUMMARY is None:
        pytest.skip("the rules folder is not on this machine")
    text = SUMMARY.read_text(encoding="utf-8").split("\n")
    assert "Wächter bleiben beim Umbau auf ihrem Gebäude" in text[43]  # L44
    assert "jede 1-mal" in text[53]  # L54
    assert "STELL-Plättchens" in text[54]  # L55
    assert "1 SP vor 1. Wertung" in text[57]  # L58
    assert "3 SP nach 2. Wertung" in text[58]  # L59
    assert "Wächtertürme" in text[68]  # L69
    assert "Feld 3" in text[83]  # L84
    assert "genauso viele Gebäude-Plättchen" in text[99]  # L100
    assert "Stell-Plättchen" in text[104]  # L105
    assert "weitesten rechts" in text[128]  # L129


# ----------------------------------------------------------------- the simulator


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulate_plays_legal_games_that_check_clean(players: int) -> None:
    from referee.simulate.simulator import simulate_text

    text = simulate_text(players, 300 + players, WAECHTER)
    report = check(text)
    assert errors(report) == [] and report.complete
    assert "* preview " in text and "guard" in text
    assert set(notes(report)) <= {"UNVERIFIED-WAECHTER-EFFECT", "UNVERIFIED-WAECHTER-STELL-FULL"}
    # fmt writes the record it reads (a fixed point), and the fast reader agrees with Lark
    from referee.notation.formatter import format_game

    assert format_game(game(text)) == text


def test_simulate_follows_the_every_scoring_switch() -> None:
    from referee.simulate.simulator import simulate_text

    every = profile(guard_scoring="every")
    text = simulate_text(3, 77, every)
    assert errors(check(text, every)) == []


# ------------------------------------------------------------- the other commands


def _cli(*args: str) -> str:
    from click.testing import CliRunner

    from referee.cli import cli

    out = CliRunner().invoke(cli, list(args))
    assert out.exception is None or isinstance(out.exception, SystemExit), out.output
    return out.output


def test_legal_offers_each_ability_with_each_guard_or_points() -> None:
    path = str(ROOT / "examples" / "waechter.alh")
    out = _cli("legal", path, "--at", "4")
    for n in (1, 2, 3, 4):
        assert f"guard ab:{n} P3" in out and f"guard ab:{n} T10" in out
    out = _cli("legal", path, "--at", "5")  # Cem holds no guard: points, 1 before scoring 1
    assert "guardpay ab:1 1" in out


def test_explain_names_the_rule_in_english_and_german() -> None:
    path = str(ROOT / "examples" / "waechter.alh")
    en = _cli("explain", path, "--at", "4", "guard ab:4 P6")
    de = _cli("explain", path, "--at", "4", "--lang", "de", "guardpay ab:4 1")
    assert "WAECHTER-PAY" in en and "summary-waechter-edition-de.txt L55-57" in en
    assert "WAECHTER-VP" in de and "KEINEN Wächter" in de
    assert "ungeprüft" in de  # the effect: not checkable, never legal


def test_score_and_the_replay_show_the_guard_scoring() -> None:
    path = str(ROOT / "examples" / "waechter.alh")
    out = _cli("score", path)
    assert "guards on the longest outer wall" in out and "5 guards × 6" in out
    de = _cli("score", path, "--lang", "de")
    assert "Wächter auf der längsten Außenmauer" in de
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "w.html"
        _cli("render", path, "--html", "-o", str(html))
        page = html.read_text(encoding="utf-8")
    assert "preview board" in page and "guards on the longest outer wall" in page


def test_simulate_refuses_modules_that_fill_the_tower_with_the_edition() -> None:
    # the preview board is filled from the tower (summary L82); the summary knows no module
    # pieces there, so a module mixing its pieces into the tower is refused with a clear
    # message (a usage error, no internal error); a module without tower pieces plays
    from click.testing import CliRunner

    from referee.cli import cli

    res = CliRunner().invoke(
        cli, ["simulate", "--rules", "waechter", "--players", "3", "--modules", "bazare"]
    )
    assert res.exit_code not in (0, 1) and "Traceback" not in res.output
    assert "bazare" in res.output and "tower" in res.output
    de = CliRunner().invoke(
        cli,
        ["simulate", "--rules", "waechter", "--modules", "medina", "--lang", "de"],
    )
    assert "Turm" in de.output and "medina" in de.output
    ok = CliRunner().invoke(
        cli,
        ["simulate", "--rules", "waechter", "--players", "3", "--seed", "5", "--modules", "wesir"],
    )
    assert ok.exit_code == 0 and '[Modules "wesir"]' in ok.output
