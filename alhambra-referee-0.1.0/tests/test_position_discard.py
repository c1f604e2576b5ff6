"""The discard pile in a position block (eighteenth step): ``discard CARD ...``, the money
cards spent. "Ist der Stapel mit den Geldkarten aufgebraucht, wird der Ablagestapel gemischt
und bildet einen neuen verdeckten Stapel" (rulebook-base-de-2003.txt L235): without the line a
block read the spent cards as still in the deck, so a reshuffle after it brought back only the
cards spent after the block. docs/notation.md ("A moment between lines").
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


def _end(text: str) -> tuple[object, list[str]]:
    """The state a whole record's walk ends in, and its errors' codes."""
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    steps = list(walk(game))
    return steps[-1].state, [v.code for s in steps for v in s.violations if v.severity == "error"]


def test_the_discard_pile_is_stated_and_the_reshuffle_after_it_brings_it_back() -> None:
    """game-4p.alh: a block at line 200, the deck reshuffled at line 235."""
    record = (EXAMPLES / "game-4p.alh").read_text("utf-8")
    lines = record.splitlines(keepends=True)
    assert lines[234].startswith("* reshuffle")
    (game,) = parse_text(record)
    state, _ = state_at(game, At("line", 200))
    block = headers(game) + "\n\n" + position_text(state)
    spent = sorted(state.discard.elements(), key=lambda c: c.sort_key)
    assert spent and f"  discard {' '.join(c.code for c in spent)}\n" in block
    assert format_games(parse_text(block)) == block  # fmt keeps it
    assert fast_or_none(block) is not None and fast_or_none(block) == lark(block)
    back = None
    for step in walk(parse_text(block)[0], finish=False):
        back = step.state
    assert back is not None and back.discard == state.discard
    assert back.deck_size == state.deck_size  # the spent cards are not in the deck
    end, found = _end(record)
    rest = "".join(lines[200:])
    got, errors = _end(block + rest)
    assert errors == found == []
    assert got.deck_known == end.deck_known and got.deck_size == end.deck_size  # type: ignore[attr-defined]
    assert [p.score for p in got.players] == [p.score for p in end.players]  # type: ignore[attr-defined]
    # without the line, the reshuffle's new deck lacks the cards spent before the block
    without = "".join(x for x in block.splitlines(keepends=True) if not x.startswith("  discard"))
    other, _ = _end(without + rest)
    assert other.deck_known != end.deck_known  # type: ignore[attr-defined]


_BLOCK = (
    '[Players "Anna, Ben, Cem"]\n\nposition\n  next Ben\n'
    "  market Gu:P7 Di:G9 De:P6 Du:G12\n{line}  turns 10\n  player Anna\n    score 0\nend\n"
)


def test_unknown_cards_on_the_pile_are_read_and_written() -> None:
    (game,) = parse_text(_BLOCK.format(line="  discard ? De4 Gu3 ?\n"))
    state = None
    for step in walk(game, finish=False):
        state = step.state
        assert not [v for v in step.violations if v.severity == "error"]
    assert state is not None and state.discard_size == 4 and state.discard_unknown == 2
    assert "  discard Gu3 De4 ? ?\n" in position_text(state)


@pytest.mark.parametrize(("line", "column"), [("  discard Gu3 7\n", 3), ("  discard Gu3 x\n", 15)])
def test_a_malformed_discard_line_is_position_invalid(line: str, column: int) -> None:
    text = _BLOCK.format(line=line)
    assert fast_or_none(text) == lark(text)  # both readers alike
    (game,) = parse_text(text)
    found = [v for step in walk(game, finish=False) for v in step.violations]
    bad = [v for v in found if (v.code, v.reason) == ("POSITION-INVALID", "discard-line")]
    assert len(bad) == 1, found
    assert bad[0].line == 6 and bad[0].column == column
    assert "'discard CARD ...'" in bad[0].message("en")
    assert "'discard KARTE ...'" in bad[0].message("de")
