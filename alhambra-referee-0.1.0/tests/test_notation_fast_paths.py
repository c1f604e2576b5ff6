"""The reader's first-pass shortcuts of issue 34's sixth step against the general code they
stand for.

* ``fast._walk`` takes a record's or a tuple's items of a plain type, and the positions of the
  line, inline instead of a call each: its shapes and values must be those of the walk that
  calls itself for every item (kept here as the reference, as it was written before).
* ``parser.assemble`` takes the items after the first body record in one pass when all are
  turn and chance lines: it must give the game the item-by-item loop gives, for any sequence of
  headers, comment lines, gaps (None), turns, chance lines and other body records.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import referee.notation.fast as fast
from referee.notation.parser import _BODY_RECORDS, _prose_lines, assemble, parse_game_text
from referee.record.model import Chance, CommentLine, Game, Header, NotationError, Pos, Turn
from referee.simulate import simulate_text

ROOT = Path(__file__).resolve().parent.parent


def _reference_walk(x: Any, consts: list[Any], ln: int, d: int) -> Any:
    """``fast._walk`` as it was before: one call for every item."""
    t = type(x)
    if t is Pos:
        if x.line == ln:
            consts.append(x.column - d)
            return fast._POS
    elif t in fast._FIELDS_OF:
        return (t, *[_reference_walk(v, consts, ln, d) for v in fast._FIELDS_OF[t](x)])
    elif t is tuple:
        mark = len(consts)
        inner = [_reference_walk(v, consts, ln, d) for v in x]
        if inner.count(None) < len(inner):
            return (tuple, *inner)
        del consts[mark:]
    elif isinstance(x, tuple) and (_reference_walk(tuple(x), [], ln, d) is not None):
        raise fast._NoTemplate(t.__name__)
    consts.append(x)
    return None


def _body_records(text: str) -> list[Any]:
    game = parse_game_text(text, "t.alh", 1)
    assert not game.errors
    return [item for item in game.body if type(item) in _BODY_RECORDS]


def _records() -> list[Any]:
    out: list[Any] = []
    for players in (2, 4, 6):
        out += _body_records(simulate_text(players=players, seed=60 + players))
    for path in sorted((ROOT / "examples").glob("*.alh"))[:12]:
        game = parse_game_text(path.read_text(encoding="utf-8"), path.name, 1)
        out += [item for item in game.body if type(item) in _BODY_RECORDS]
    return out


@pytest.mark.parametrize("shift", [0, 3])
def test_walk_gives_the_reference_walks_template(shift: int) -> None:
    records = _records()
    assert len(records) > 500
    for rec in records:
        for part in (rec, *getattr(rec, "actions", ()), *getattr(rec, "events", ())):
            ln = part.pos.line
            got: list[Any] = []
            want: list[Any] = []
            assert fast._walk(part, got, ln, shift) == _reference_walk(part, want, ln, shift)
            assert got == want
            assert [type(v) for v in got] == [type(v) for v in want]


def _reference_assemble_split(items: list[Any]) -> tuple[list[Any], list[Any], list[Any], int]:
    """The item-by-item loop ``assemble`` had: headers, leading comments, body, and how many
    "header after the moves" errors it found."""
    headers: list[Any] = []
    leading: list[Any] = []
    body: list[Any] = []
    late = 0
    for it in items:
        if body and type(it) in _BODY_RECORDS:
            body.append(it)
            continue
        if it is None:
            continue
        if isinstance(it, Header):
            if body:
                late += 1
            headers.append(it)
        elif isinstance(it, CommentLine) and not body:
            leading.append(it)
        else:
            body.append(it)
    return headers, leading, body, late


def _item(kind: int, ln: int) -> Any:
    pos = Pos(ln, 1)
    if kind == 0:
        return None
    if kind == 1:
        return Header("Event", f"e{ln}", pos, None)
    if kind == 2:
        return CommentLine(f"c{ln}", pos, ())
    if kind == 3:
        return Chance((), pos, (), None)
    return Turn(ln, None, (), pos, (), None)


@given(st.lists(st.integers(0, 4), max_size=30))
def test_assemble_gives_the_loops_game(kinds: list[int]) -> None:
    items = [_item(k, i + 1) for i, k in enumerate(kinds)]
    game = assemble(items, "t.alh", 1, [])
    headers, leading, body, late = _reference_assemble_split(items)
    # the reference's split, then what assemble does after its loop (unchanged)
    if headers and leading:
        last = headers[-1].pos.line
        lead = [c for c in leading if c.pos.line < last]
        after = [c for c in leading if c.pos.line > last]
        leading, body = lead, after + body
    elif not headers and leading:
        body, leading = leading + body, []
    assert list(map(id, game.body)) == list(map(id, body))  # the same objects, in order
    assert list(map(id, game.leading_comments)) == list(map(id, leading))
    assert sorted(map(id, game.headers)) == sorted(map(id, headers))
    late_errors = [e for e in game.errors if "header tag must come before" in e.message]
    assert len(late_errors) == late
    assert len(game.errors) == late + len(_prose_lines(body))
    assert isinstance(game, Game)


def test_assemble_on_a_real_game_in_both_orders() -> None:
    text = simulate_text(players=3, seed=7)
    game = parse_game_text(text, "t.alh", 1)
    items = [*game.headers, *game.body]
    rng = random.Random(1)
    late = [NotationError("x", Pos(1, 1), "SYNTAX")]
    assert list(map(id, assemble(items, "t.alh", 1, []).body)) == list(map(id, game.body))
    mixed = list(items)
    mixed.insert(rng.randrange(len(game.headers) + 1, len(mixed)), game.headers[0])
    got = assemble(mixed, "t.alh", 1, late)
    assert len(got.body) == len(game.body)
    assert [e.code for e in got.errors].count("SYNTAX") == 2
