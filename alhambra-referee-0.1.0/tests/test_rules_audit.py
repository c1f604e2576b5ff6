"""Verdicts an audit against the rulebook corrected (issue "Hardening", three rule defects).

Each test quotes the sentence of ``rulebook-base-de-2003.txt`` it checks.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine import check_game, start_state
from referee.engine.core import apply_item
from referee.engine.state import GameState
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE, load_profile
from referee.record.model import Chance, DirkDraw, Scoring

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _game(text: str):  # type: ignore[no-untyped-def]
    games = parse_text(text, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0]


def _codes(text: str, profile=None) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in check_game(_game(text), profile).violations]


def test_w2_before_w1_is_reported() -> None:
    # Spielvorbereitung: „In den zweiten Stapel mischen Sie die Karte „1. Wertung“, in den
    # vierten Stapel die Karte „2. Wertung“." W1 always lies above W2.
    text = (EXAMPLES / "game-4p.alh").read_text(encoding="utf-8")
    assert "SCORING-CARD-ORDER" not in _codes(text)
    swapped = (
        text.replace("W1", "W@")
        .replace("W2", "W1")
        .replace("W@", "W2")
        .replace("scoring 1", "scoring @")
        .replace("scoring 2", "scoring 1")
        .replace("scoring @", "scoring 2")
    )
    found = check_game(_game(swapped)).violations
    order = [v for v in found if v.code == "SCORING-CARD-ORDER"]
    assert len(order) == 1
    assert "vierten Stapel" in order[0].message() and "zuerst" in order[0].message("de")


def test_the_display_is_laid_out_after_the_start_money() -> None:
    # Spielvorbereitung: „Anschließend werden weitere 4 Geldkarten offen neben den Bauhof ...
    # gelegt." — after the start money is dealt.
    text = (EXAMPLES / "game-4p.alh").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    display = next(i for i, line in enumerate(lines) if line.startswith("* display"))
    first_deal = next(i for i, line in enumerate(lines) if line.startswith("* deal"))
    moved = [*lines[:first_deal], lines[display], *lines[first_deal:display], *lines[display + 1 :]]
    found = check_game(_game("".join(moved))).violations
    setup_order = [v for v in found if v.code == "SETUP-ORDER"]
    assert len(setup_order) == 4  # each of the four deals comes after the display
    assert "display" in setup_order[0].message()


def _replay_until(text: str, stop: type, after_round: int | None = None) -> tuple[GameState, list]:
    game = _game(text)
    state = start_state(game, load_profile("queen-2003"))
    rest = list(game.body)
    while rest:
        item = rest.pop(0)
        apply_item(state, item)
        if isinstance(item, Scoring) and item.round == after_round:
            break
    return state, rest


def test_no_dirk_draw_when_a_third_rounds_down_to_zero() -> None:
    # Sonderregel für das Spiel zu zweit: „Nach der 2. Wertung bekommt Dirk nochmals
    # Gebäudeplättchen ... ein Drittel – abgerundet – der noch im Beutel verbliebenen
    # Plättchen." With 2 tiles left a third is 0: no draw happens, none can be demanded.
    text = (EXAMPLES / "two-player-queen-2003.alh").read_text(encoding="utf-8")
    for bag, expect_missing in ((2, False), (3, True)):
        state, rest = _replay_until(text, Scoring, after_round=2)
        state.bag_count = bag
        before = len(state.found)
        for item in rest:
            if isinstance(item, Chance) and any(isinstance(e, DirkDraw) for e in item.events):
                continue  # the record writes no draw
            apply_item(state, item)
            if state.turn_no and state.dirk_due is None:
                break
        dirk = [v for v in state.found[before:] if v.code == "DIRK-DRAW"]
        assert bool(dirk) is expect_missing, (bag, [v.message() for v in dirk])


def test_no_dirk_draw_when_the_bag_is_empty_after_scoring_1() -> None:
    # „Unmittelbar nach der 1. Wertung bekommt Dirk 6 weitere Plättchen" — from an empty bag
    # nothing can be drawn, so no `* dirk` line is due.
    text = (EXAMPLES / "two-player-queen-2003.alh").read_text(encoding="utf-8")
    state, rest = _replay_until(text, Scoring, after_round=1)
    state.bag_count = 0
    before = len(state.found)
    for item in rest[:3]:
        if isinstance(item, Chance) and any(isinstance(e, DirkDraw) for e in item.events):
            continue
        apply_item(state, item)
    assert "DIRK-DRAW" not in [v.code for v in state.found[before:]]


def test_the_extra_action_may_be_declined_or_must_be_taken_by_profile() -> None:
    # Kaufen: „Kann man hingegen den Preis genau passend bezahlen, ist man sogar noch einmal an
    # der Reihe" — read as a right (default, `extra_action: optional`); `compulsory` is the
    # other reading.
    from conftest import SETUP

    setup = SETUP.format(players="Anna, Ben, Cem", modules="")
    declined = setup + "1. Ben: buy Di A9 pay Di9, place A9@1,0\n"
    taken = setup + "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0\n"
    assert DEFAULT_PROFILE.extra_action == "optional"
    assert _codes(declined) == [] and _codes(taken) == []
    strict = DEFAULT_PROFILE.__class__(name="strict", extra_action="compulsory")
    found = check_game(_game(declined), strict).violations
    assert [v.code for v in found] == ["TURN-EXTRA-ACTION"]
    assert found[0].player == "Ben" and found[0].turn == 1
    assert "strict" in found[0].message() and "Pflicht" in found[0].message("de")
    assert _codes(taken, strict) == []
    # a purchase that was not exact ends the turn: nothing is due
    assert (
        _codes(setup + "1. Ben: buy Gu G11 pay Gu8 Di9, place G11@1,0\n", strict).count(
            "TURN-EXTRA-ACTION"
        )
        == 0
    )
