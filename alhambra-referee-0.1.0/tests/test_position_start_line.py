"""The start player in a position block (sixteenth step): ``start PLAYER``, written when the
record's start player is not the first of ``[Players]`` (what a block without the line is read
with). Play goes round from the start player ("Gespielt wird reihum im Uhrzeigersinn, beginnend
mit dem Startspieler", rulebook-base-de-2003.txt L120), and Die Arbeiter's owners decide in
that order after a purchase from a field with their workers on it ("beginnend mit dem
Startspieler jeder betroffene Spieler für sich entscheiden, ob er seine/n Arbeiter zurücknimmt
oder liegenlässt", rulebook-bigbox-de-2019.txt L3857-3862). docs/notation.md ("A moment
between lines").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at, walk
from referee.notation import parse_text
from referee.notation.formatter import format_games
from referee.simulate.roundtrip import headers
from tests.test_notation_fast_position import fast_or_none, lark

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _errors(text: str) -> list[tuple[str, str | None, int]]:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    return [
        (v.code, v.reason, v.line)
        for step in walk(game)
        for v in step.violations
        if v.severity == "error"
    ]


def _rotated(decision: str) -> list[str]:
    """module-arbeiter.alh seated "Ben, Cem, Anna" (Anna still starts: the same game), with
    ``decision`` added to the line after turn 15 (Cem bought from De, where Anna's and Cem's
    workers lie)."""
    text = (EXAMPLES / "module-arbeiter.alh").read_text("utf-8")
    text = text.replace('[Players "Anna, Ben, Cem"]', '[Players "Ben, Cem, Anna"]')
    lines = text.splitlines(keepends=True)
    assert lines[50].startswith("* display Du9")
    lines[50] = lines[50].rstrip("\n") + f", {decision}\n"
    return lines


def _shifted(found: list[tuple[str, str | None, int]], after: int, by: int) -> list[tuple]:
    return sorted((c, r, n - by) for c, r, n in found if n > after)


@pytest.mark.parametrize("decision", ["workers De Anna Cem", "workers De Cem Anna"])
def test_the_start_player_is_stated_and_the_workers_decide_in_his_order(decision: str) -> None:
    lines = _rotated(decision)
    record = "".join(lines)
    (game,) = parse_text(record)
    state, _ = state_at(game, At("line", 50))  # after "15. Cem: buy De P6 ..."
    block = headers(game) + "\n\n" + position_text(state)
    assert "  start Anna\n" in block
    assert format_games(parse_text(block)) == block  # fmt keeps it
    assert fast_or_none(block) is not None and fast_or_none(block) == lark(block)
    rest = "".join(lines[50:])
    head = block.count("\n")
    want = _shifted(_errors(record), 50, 50)
    assert ("ARBEITER-BACK", "order", 1) in want or decision.endswith("Anna Cem")
    assert _shifted(_errors(block + rest), head, head) == want
    # without the line the block is read with Ben (the first seated) as start player
    without = block.replace("  start Anna\n", "")
    assert _shifted(_errors(without + rest), head - 1, head - 1) != want


def test_the_start_player_of_the_first_seat_is_not_written() -> None:
    (game,) = parse_text((EXAMPLES / "module-arbeiter.alh").read_text("utf-8"))
    state, _ = state_at(game, At("line", 50))
    assert state.start_claim is not None and state.start_claim[0] == "Anna"
    assert "start" not in position_text(state)


_BLOCK = (
    '[Players "Anna, Ben, Cem"]\n\nposition\n  next Ben\n'
    "  market Gu:P7 Di:G9 De:P6 Du:G12\n{line}  turns 10\n  player Anna\n    score 0\nend\n"
)


@pytest.mark.parametrize(
    "line",
    ["  start\n", "  start Ben Cem\n", "  start 3\n", "  start Cem\n  start Ben\n"],
)
def test_a_malformed_or_second_start_line_is_position_invalid(line: str) -> None:
    text = _BLOCK.format(line=line)
    assert fast_or_none(text) == lark(text)  # both readers alike
    (game,) = parse_text(text)
    found = [v for step in walk(game, finish=False) for v in step.violations]
    bad = [v for v in found if (v.code, v.reason) == ("POSITION-INVALID", "start-line")]
    assert len(bad) == 1
    assert bad[0].line == 6 + line.count("\n") - 1 and bad[0].column == 3
    assert "'start PLAYER'" in bad[0].message("en")
    assert "'start SPIELER'" in bad[0].message("de")


def test_a_start_line_names_a_player_of_the_game() -> None:
    text = _BLOCK.format(line="  start Dora\n")
    (game,) = parse_text(text)
    found = [v for step in walk(game, finish=False) for v in step.violations]
    assert [v.code for v in found if v.line == 6] == ["UNKNOWN-PLAYER"]


def test_a_stated_start_player_is_read() -> None:
    (game,) = parse_text(_BLOCK.format(line='  start "Cem"\n'))
    state = None
    for step in walk(game, finish=False):
        state = step.state
    assert state is not None and state.start_claim is not None
    assert state.start_claim[0] == "Cem"
    assert "  start Cem\n" in position_text(state)


def test_a_second_abilities_line_for_a_player_is_position_invalid() -> None:
    """Each player's uses of abilities are one line (a name twice on it: used twice, as the
    writer writes a second use); a second line for the same player is reported, not merged
    silently, and adds nothing to the ledger."""
    text = _BLOCK.format(line="  abilities Anna roll\n  abilities anna roll\n")
    assert fast_or_none(text) == lark(text)
    (game,) = parse_text(text)
    found = [v for step in walk(game, finish=False) for v in step.violations]
    bad = [v for v in found if (v.code, v.reason) == ("POSITION-INVALID", "abilities-twice")]
    assert len(bad) == 1 and bad[0].line == 7 and bad[0].column == 3
    assert "'abilities'" in bad[0].message("en") and "'abilities'" in bad[0].message("de")
    state = None
    for step in walk(parse_text(text)[0], finish=False):
        state = step.state
    assert state is not None and sum(len(v) for v in state.abilities.values()) == 1
    once = _BLOCK.format(line="  abilities Anna roll roll\n")
    (game,) = parse_text(once)
    assert not [v for step in walk(game, finish=False) for v in step.violations]
