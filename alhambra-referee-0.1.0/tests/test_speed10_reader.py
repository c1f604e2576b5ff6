"""The reader's eighth speed step (issue 34): the short cuts give what the loops they skip give.

* ``fast._group_words`` of a group of single blanks (no comma ending a word) skips the loop's
  checks: the same words and columns as the checking loop, on hypothesis texts;
* ``fast._walk`` takes a tuple of plain values as one value in one look (told in C);
* ``parser.assemble`` puts every item after the first body record into the body at once when
  none is a header or None, and ``parser._prose_lines`` looks at no turn when no turn's first
  action is a module action: the same games and errors as item by item.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation import fast, parser
from referee.notation.parser import parse_game_text
from referee.record.model import CommentLine, Header, ModuleAction, Pos, Turn


def _reference_words(text: str, d: int = 0) -> list[Any] | None:
    """``fast._group_words`` as it was: every word checked."""
    if text[:1] == " " or text[-1:] == " ":
        return None
    out = []
    col = d + 1
    for w in text.split(" "):
        if not w:
            col += 1
            continue
        if w[-1] == ",":
            return None
        out.append((w, col, False))
        col += len(w) + 1
    return out or None


@settings(max_examples=400)
@given(st.text(alphabet="ab ,@1:", max_size=14), st.integers(0, 80))
def test_group_words_as_the_checking_loop(text: str, d: int) -> None:
    assert fast._group_words(text, d) == _reference_words(text, d)


def test_group_words_of_canonical_groups() -> None:
    assert fast._group_words("buy Gu T9es pay Gu9", 7) == [
        ("buy", 8, False),
        ("Gu", 12, False),
        ("T9es", 15, False),
        ("pay", 20, False),
        ("Gu9", 24, False),
    ]
    assert fast._group_words("take  De5") == [("take", 1, False), ("De5", 7, False)]
    assert fast._group_words("take De5,") is None
    assert fast._group_words("") is None


def test_walk_takes_a_tuple_of_plain_values_as_one() -> None:
    line = "3. Ben: buy Gu T9es pay Gu9 Gu3, place T9es@1,0"
    turn = fast.read_line(line, 3)
    consts: list[Any] = []
    shape = fast._walk(turn.actions, consts, 3, 7)
    assert shape is not None
    tile = turn.actions[0].tile
    # the tile's walls and candidates stand in the values as they are, each one value
    assert any(v is tile.candidates for v in consts)
    assert fast._walk((), consts, 3, 7) is None and consts[-1] == ()
    plain = (1, None)
    assert fast._walk(plain, consts, 3, 7) is None and consts[-1] is plain


_GAME = """[Event "e"]
[Players "Anna, Ben"]

* deal Anna Gu1 Du5
* deal Ben Du9 Gu6
start Ben
1. Ben: take Du9
# a comment among the moves
2. Anna: take Gu1
scoring 1: Anna +0 =0, Ben +0 =0
"""


def _loop_assemble(items: list[Any], problems: list[Any]) -> tuple[Any, Any, Any]:
    """The body, headers and errors ``assemble``'s item-by-item loop gives."""
    heads: list[Any] = []
    body: list[Any] = []
    errors = list(problems)
    for it in items:
        if it is None:
            continue
        if isinstance(it, Header):
            if body:
                errors.append(it)
            heads.append(it)
        else:
            body.append(it)
    return body, heads, errors


def test_assemble_puts_the_later_items_in_the_body_as_the_loop() -> None:
    got = fast.read_game(_GAME, 0, parser.parse_chunk)
    assert got is not None
    items, problems = got
    game = parser.assemble(items, "x", 1, problems)
    body, _heads, _ = _loop_assemble(items, problems)
    assert [type(b) for b in game.body] == [
        type(b) for b in body if not isinstance(b, CommentLine) or b.pos.line > 2
    ]
    assert game.errors == ()
    # a header after the moves is still an error, found by the loop
    late = Header("Site", "x", Pos(99, 2))
    again = parser.assemble([*items, None, late], "x", 1, problems)
    assert [e.pos for e in again.errors] == [late.pos]
    assert again.body == game.body


def test_prose_lines_found_and_plain_games_skip_the_loop() -> None:
    text = _GAME + "3. Ben: Then Anna thought for a long time\n"
    game = parse_game_text(text, "x", 1)
    assert [e.message[:16] for e in game.errors] == ["a line of prose,"]
    plain = parse_game_text(_GAME, "x", 1)
    assert plain.errors == ()
    turns = [b for b in plain.body if type(b) is Turn]
    assert turns and not any(isinstance(t.actions[0], ModuleAction) for t in turns)
    assert parser._prose_lines(list(plain.body)) == []
