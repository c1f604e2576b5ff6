"""The compiled build's memo of the fast reader (issue 34), run here on the pure records.

A compiled build (setup.py's ``MYPYC_MODULES``) makes the records native classes, for which
the reader can generate no builders; it keeps each group's record as first read and makes it
anew wherever the group comes again (``referee.notation.fast._native_groups``). The walk calls
the record classes, so it runs on the pure classes too: these tests switch the reader to it
(``fast._SETTINGS.memo`` off, as with compiled records) and hold it to the general path and to Lark,
positions included.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import referee.notation.fast as fast
from referee.simulate import simulate_text
from tests.test_notation_fast import (
    EXAMPLES,
    MODULES,
    _general,
    _moved,
    _positions,
    assert_same_games,
    deep,
    empty_tables,
)

NATIVE_TABLES = ("_native_actions", "_native_events", "_heads", "_turn_lines", "_chance_lines")


@pytest.fixture
def native_memo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reader as with compiled records: no generated builders, the native memo, empty
    tables."""
    monkeypatch.setattr(fast._SETTINGS, "memo", False)
    yield from empty_tables(NATIVE_TABLES)


@pytest.mark.usefixtures("native_memo")
@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_groups_from_the_native_memo_are_the_general_path_s(modules: tuple[str, ...]) -> None:
    """A line read again at other lines, with another head (its groups at other columns) and
    with its groups in reverse order gives what the general path reads there; no position
    object is shared between two reads."""
    text = simulate_text(4, 41, modules=modules)
    plain = [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]
    assert plain
    for n, line in enumerate(plain, 1):
        reads = []  # kept alive: no id is reused
        for k in range(3):
            moved, at = _moved(line, k), n + 1000 * k
            reads.append(fast.read_line(moved, at))
            assert deep(reads[-1]) == deep(_general(moved, at)), (moved, at)
        ids = [{id(p) for p in _positions(got)} for got in reads]
        assert sum(map(len, ids)) == len(set().union(*ids)), line
        head, sep, rest = line.partition(": ") if line[0] != "*" else ("*", " ", line[2:])
        turned = head + sep + ", ".join(reversed(rest.split(", ")))
        assert deep(fast.read_line(turned, n)) == deep(_general(turned, n)), turned
    assert fast._native_actions and fast._native_events
    assert not fast._turn_lines and not fast._chance_lines  # no generated builders


@pytest.mark.usefixtures("native_memo")
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.alh")), ids=lambda p: p.name)
def test_examples_read_twice_with_the_native_memo_are_lark_s(path: Path) -> None:
    """Every example game the same as Lark reads it, first read and read again (memo)."""
    text = path.read_text(encoding="utf-8")
    assert_same_games(text, again=True)
    assert_same_games(text, again=True)  # Lark's reading compared with is the first one's


def test_a_declined_group_is_remembered_and_declined_again(
    native_memo: None,
) -> None:
    line = "3. Ben: take du3, take du0"
    assert fast._native_groups(fast._native_actions, fast._action, "take du0", 3, 9) is None
    assert fast._native_actions["take du0"] is fast._DECLINED
    assert deep(fast.read_line(line, 3)) == deep(fast._read_words(line, 3))


def test_the_native_memo_is_bounded(native_memo: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast._SETTINGS, "limit", 5)
    for n in range(1, 40):
        assert fast.read_line(f"{n}. Ben: take Du{n % 9 + 1}, place C7ne@0,{n}", n) is not None
        assert len(fast._native_actions) <= 5


def test_a_record_walk_makes_every_record_and_moved_position_anew() -> None:
    """The walk: records made again by their class, positions of the first line moved, other
    values (positions of other lines, coordinates, strings) taken as they are."""
    m = fast._model
    place = m.Place(m.TileRef(None, 3, None, (), m.Pos(7, 12)), m.Coord(0, 1), m.Pos(7, 10), ())
    again = fast._made_anew(place, 7, 30, 5)
    assert type(again) is m.Place and again is not place
    assert again.pos == m.Pos(30, 15) and again.tile.pos == m.Pos(30, 17)
    assert again.at is place.at
    elsewhere = m.Pos(2, 4)
    assert fast._made_anew((elsewhere, "x"), 7, 30, 5) == (elsewhere, "x")
    assert fast._made_anew((elsewhere, "x"), 7, 30, 5)[0] is elsewhere
