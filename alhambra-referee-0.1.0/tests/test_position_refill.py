"""A refill still open in a position block (eighteenth step): ``refill FIELD ...`` between
lines, the market fields drawn in the refill after the turn just played whose tiles still lie
there. A sultan card's holder may take such a tile while the refill is open ("Wird ein
Gebäudeplättchen beim Auffüllen des Bauhofes gezogen ..., darf ein Spieler mit einer
Sultankarte, auf der diese Gebäudeart markiert ist, das Plättchen kostenlos nehmen",
rulebook-bigbox-de-2019.txt L2017-2021); a block without the line read back as a refill
closed with nothing drawn (`SULTAN-TIMING` no-refill, `SULTAN-CLAIM` not-drawn, then the
market's refill and the placements reported). docs/notation.md ("A moment between lines").
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.position_compare import snapshot
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at, walk
from referee.notation import parse_text
from referee.notation.formatter import format_games
from referee.simulate import simulate_game
from referee.simulate.roundtrip import headers
from tests.test_notation_fast_position import fast_or_none, lark

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@cache
def _game_text() -> str:
    """The sweep's game (seventeenth step): mauren + plaetze + sultan, 3 players, seed 5009;
    claims at lines 113 (T12, drawn at 111), 236 and 238 (two in one refill)."""
    return format_games([simulate_game(3, 5009, modules=("mauren", "plaetze", "sultan"))])


def _errors(text: str) -> list[tuple[str, str | None, int]]:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    return [
        (v.code, v.reason, v.line)
        for step in walk(game)
        for v in step.violations
        if v.severity == "error"
    ]


def _shifted(found: list[tuple[str, str | None, int]], after: int) -> list[tuple]:
    return sorted((c, r, n - after) for c, r, n in found if n > after)


@pytest.mark.parametrize(
    ("line", "stated", "claim"),
    [
        (111, "De", "Ben: sultan su:DeT T12"),  # the sweep's moment (L111+0)
        (235, "Du", "Anna: sultan su:DuT T11-"),  # drawn after a purchase
        (237, "Du", "Ben: sultan su:DeT T11s"),  # redrawn after a claim: the same refill
        (110, "", "Ben: sultan su:DeT T12"),  # right after the turn: open, nothing drawn yet
        (236, "", "Ben: sultan su:DeT T11s"),  # after a claim, its field not yet refilled
    ],
)
def test_a_refill_still_open_is_stated_and_the_claim_after_it_stands(
    line: int, stated: str, claim: str
) -> None:
    record = _game_text()
    lines = record.splitlines(keepends=True)
    assert any(x.startswith(claim) for x in lines[line : line + 3])  # the claim follows
    (game,) = parse_text(record)
    state, _ = state_at(game, At("line", line))
    block = headers(game) + "\n\n" + position_text(state)
    said = f"  refill {stated}".rstrip() + "\n"
    assert said in block
    assert format_games(parse_text(block)) == block  # fmt keeps it
    assert fast_or_none(block) is not None and fast_or_none(block) == lark(block)
    back = None
    for step in walk(parse_text(block)[0], finish=False):
        back = step.state
    assert back is not None and back.phase == "refill"
    assert snapshot(back) == [x for x in snapshot(state) if not x.lstrip().startswith("#")]
    rest = "".join(lines[line:])
    head = block.count("\n")
    want = _shifted(_errors(record), line)
    assert _shifted(_errors(block + rest), head) == want
    # without the line: the refill read as closed, the claim outside it
    without = block.replace(said, "")
    got = _shifted(_errors(without + rest), head - 1)
    assert ("SULTAN-TIMING", "no-refill") in [x[:2] for x in got] and got != want


def test_no_refill_line_where_no_module_hears_the_draws() -> None:
    """A base game's refill is stated by nothing but its lines (the draws are not kept)."""
    (game,) = parse_text((EXAMPLES / "game-4p.alh").read_text("utf-8"))
    lines = [
        s.item.pos.line
        for s in walk(game, finish=False)
        if s.item is not None and s.state.phase == "refill" and type(s.item).__name__ != "Turn"
    ]
    assert lines
    state, _ = state_at(game, At("line", lines[len(lines) // 2]))
    assert state.refill_drawn is None and "refill" not in position_text(state)


_BLOCK = (
    '[Players "Anna, Ben, Cem"]\n[Modules "sultan"]\n\nposition\n  next Ben\n'
    "  market Gu:P7 Di:- De:P6 Du:G12\n{line}  turns 10\n  player Anna\n    score 0\nend\n"
)


@pytest.mark.parametrize(
    "line",
    [
        "  refill De\n  refill Du\n",  # a second line
        "  refill Xx\n",
        "  refill De De\n",
        "  refill Di\n",  # an empty field
        "  refill 3\n",
        "  turn 11 Ben 0\n  refill De\n",  # a turn open: no refill is
    ],
)
def test_a_malformed_refill_line_is_position_invalid(line: str) -> None:
    text = _BLOCK.format(line=line)
    assert fast_or_none(text) == lark(text)  # both readers alike
    (game,) = parse_text(text)
    found = [v for step in walk(game, finish=False) for v in step.violations]
    bad = [v for v in found if (v.code, v.reason) == ("POSITION-INVALID", "refill-line")]
    assert len(bad) == 1, found
    assert bad[0].line == 7 + line.count("\n") - 1
    assert bad[0].column in (3, 10, 13)  # the line, or the word at fault
    assert "'refill FIELD ...'" in bad[0].message("en")
    assert "'refill FELD ...'" in bad[0].message("de")


def test_a_stated_refill_is_read_and_told_to_the_sultan() -> None:
    (game,) = parse_text(_BLOCK.format(line="  refill Du Gu\n"))
    state = None
    for step in walk(game, finish=False):
        state = step.state
        assert not [v for v in step.violations if v.severity == "error"]
    assert state is not None and state.phase == "refill"
    assert [f for f, _ in state.modules["sultan"].fresh] == [3, 0]
    assert "  refill Gu Du\n" in position_text(state)  # written in the fields' order
