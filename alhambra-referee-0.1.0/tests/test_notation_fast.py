"""Differential test: the fast reader for canonical lines against the Lark grammar (issue 13).

The grammar stays the definition of the notation. For every text here the fast path
(:mod:`referee.notation.fast`) must give exactly the records Lark gives -- every field compared,
source positions, comments, annotations and notation errors included -- and every line it
declines must go to Lark. Texts: simulated records (all player counts, every rule profile, every
module alone and together), hypothesis-made records written by ``fmt``, the fuzz corpus that
``tests/test_fuzz.py`` uses (mutated records, fragments, several games, token soup, random text),
hypothesis-made edits of canonical lines, and every file of ``examples/``.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from shared_store_support import shared_text

import referee.notation.fast as fast
import referee.notation.files as files
from referee.notation import format_game, parse_text
from referee.notation.files import UnreadableInput
from referee.notation.parser import _parser, parse_chunk, parse_game_text, split_games
from referee.profiles import load_profile
from referee.simulate import fuzz, simulate_text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PROFILES = ("queen-2003", "queen-bigbox-2019", "bga", "piatnik-hu")
MODULES: tuple[tuple[str, ...], ...] = (
    (),
    ("wesir",),
    ("wechselstuben",),
    ("bonuskarten",),
    ("plaetze",),
    ("wesir", "wechselstuben", "bonuskarten", "plaetze"),
)


def deep(x: Any) -> Any:
    """Every field of a record, recursively (the records' ``==`` leaves positions out): a
    dataclass as its class name and its fields' values, a tuple (Coord and plain tuples) as its
    class name and items, a list as "list" and items, a frozenset as "frozenset" and its items'
    sorted ``repr``s, an enum member as its class name and member name, anything else as its
    class name and itself. What to do with a value is decided once per class (``_HOW``): the
    readers' comparisons spend most of their time here."""
    how = _HOW.get(type(x))
    if how is None:
        how = _HOW[type(x)] = _how(type(x))
    if how.__class__ is tuple:  # a dataclass: its fields' names
        return (type(x).__name__, *[deep(getattr(x, name)) for name in how])
    if how == "tuple":
        return (type(x).__name__, *[deep(v) for v in x])
    if how == "list":
        return ["list", *[deep(v) for v in x]]
    if how == "frozenset":
        return ("frozenset", *sorted(repr(deep(v)) for v in x))
    if how == "enum":
        return (type(x).__name__, x.name)
    return (type(x).__name__, x)


_HOW: dict[type, tuple[str, ...] | str] = {}


def same(a: Any, b: Any) -> bool:
    """``deep(a) == deep(b)``, without building either: two values of one class are compared
    as :func:`deep` writes them, field by field (a dataclass), item by item (a tuple or a list),
    by member name (an enum member) or as ``(a,) == (b,)`` (anything else: ``==`` after the
    same identity test a tuple's comparison makes); two values of different classes, and
    frozensets, by :func:`deep` itself. The readers' comparisons: a third of their time was
    building the two trees."""
    cls = type(a)
    if cls is not type(b):
        return deep(a) == deep(b)
    how = _HOW.get(cls)
    if how is None:
        how = _HOW[cls] = _how(cls)
    if how.__class__ is tuple:  # a dataclass: its fields' names
        for name in how:  # a loop: a generator in all() costs a third more here
            if not same(getattr(a, name), getattr(b, name)):
                break
        else:
            return True
        return False
    if how == "tuple" or how == "list":
        if len(a) != len(b):
            return False
        for x, y in zip(a, b, strict=True):
            if not same(x, y):
                break
        else:
            return True
        return False
    if how == "enum":
        return a.name == b.name
    if how == "value":
        return (a,) == (b,)
    return deep(a) == deep(b)


def _how(cls: type) -> tuple[str, ...] | str:
    """How :func:`deep` writes a value of class ``cls`` (the order of its tests is deep's)."""
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        return tuple(f.name for f in dataclasses.fields(cls))
    for base, name in ((tuple, "tuple"), (list, "list"), (frozenset, "frozenset")):
        if issubclass(cls, base):
            return name
    return "enum" if issubclass(cls, enum.Enum) else "value"


def both(text: str, source: str = "t.alh", start: int = 1) -> tuple[Any, Any, bool]:
    """The game read with the fast path and with Lark alone, and whether the fast path took it
    (without falling back to Lark for the whole game)."""
    took = fast.read_game(text, start - 1, parse_chunk) is not None
    fast.ENABLED = True
    try:
        quick = parse_game_text(text, source, start)
        fast.ENABLED = False
        slow = parse_game_text(text, source, start)
    finally:
        fast.ENABLED = True
    return quick, slow, took


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode("utf-8")).hexdigest()


def assert_same_games(text: str, again: bool = False) -> int:
    """Every game of ``text`` the same both ways; the number of games the fast path read.
    ``again``: ``text`` is read by more than one test of the run (the examples, here and in
    test_notation_native_memo): Lark's reading of each game is kept as a digest (``deep``'s
    ``repr``; records hold no floats, so two equal ``repr``s are equal readings) in the run's
    shared store (``shared_store_support``: once a run, whichever xdist worker reads it first),
    and a later read compares the fast reading with it (a different digest: both read again
    and compared field by field, as the first time)."""
    taken = 0
    lines = fuzz_lines(text)
    for start, chunk in split_games(lines):
        if not again:
            quick, slow, took = both(chunk, start=start)
            assert same(quick, slow) or deep(quick) == deep(slow), chunk
            taken += took
            continue
        first: list[bool] = []

        def make(chunk: str = chunk, start: int = start, first: list[bool] = first) -> str:
            quick, slow, took = both(chunk, start=start)
            assert same(quick, slow) or deep(quick) == deep(slow), chunk
            reading = deep(slow)
            first.append(took)
            return _digest(reading)

        lark_read = shared_text("lark-read", (_digest((chunk, start)),), make)
        if first:
            took = first[0]
        else:
            took = fast.read_game(chunk, start - 1, parse_chunk) is not None
            fast.ENABLED = True  # as ``both`` reads it
            quick = parse_game_text(chunk, "t.alh", start)
            if _digest(deep(quick)) != lark_read:
                quick, slow, took = both(chunk, start=start)
                assert same(quick, slow) or deep(quick) == deep(slow), chunk
        taken += took
    return taken


def fuzz_lines(text: str) -> Iterator[str]:
    import io

    yield from io.StringIO(text.removeprefix("\ufeff"), newline=None)


def lark_line(line: str) -> Any:
    """What Lark reads from one line alone: its records, or None on a syntax error."""
    try:
        return parse_chunk(line, 0)
    except UnexpectedInput:
        return None


def assert_line(line: str) -> bool:
    """The fast reader reads ``line`` exactly as Lark does, or declines it; whether it read it."""
    got = fast.read_line(line, 1)
    if got is None:
        return False
    lark = lark_line(line)
    assert lark is not None, f"fast path accepted a line Lark rejects: {line!r}"
    items, problems = lark
    assert problems == [], f"fast path accepted a line with notation errors: {line!r}"
    if got is fast.BLANK:
        assert items == [], line
    else:
        assert len(items) == 1, line
        assert same(items[0], got) or deep(items[0]) == deep(got), line
    return True


# --------------------------------------------------------------- the token patterns


def test_the_fast_paths_patterns_are_the_grammars() -> None:
    lark, _ = _parser()
    # Lark writes a newline in a character class as the character itself
    terminals = {t.name: t.pattern.to_regexp().replace("\n", "\\n") for t in lark.terminals}
    for name, pattern in fast.PATTERNS.items():
        assert terminals[name] == pattern, name


# -------------------------------------------------------------------- simulated records


@pytest.mark.parametrize("profile", PROFILES)
def test_simulated_records_of_every_profile_and_player_count(profile: str) -> None:
    rules = load_profile(profile)
    for players in (2, 3, 4, 5, 6):
        text = simulate_text(players, 1000 + players, rules)
        assert assert_same_games(text) == 1  # read by the fast path, not the whole-game fallback
        for line in text.splitlines():
            assert assert_line(line), line  # canonical: every line on the fast path


@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_simulated_records_with_modules(modules: tuple[str, ...]) -> None:
    for players in (2, 3, 5):
        text = simulate_text(players, 2000 + players, modules=modules)
        assert assert_same_games(text) == 1
        for line in text.splitlines():
            assert assert_line(line), line


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    profile=st.sampled_from(PROFILES),
    modules=st.sampled_from(MODULES),
)
def test_hypothesis_simulated_records(
    players: int, seed: int, profile: str, modules: tuple[str, ...]
) -> None:
    text = simulate_text(players, seed, load_profile(profile), modules=modules)
    assert assert_same_games(text) == 1


# ---------------------------------------------------------- records made by hypothesis


def _roundtrip_games() -> Any:
    import test_notation_roundtrip as rt  # the record strategies of the round-trip test

    return rt.games


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.deferred(_roundtrip_games))
def test_hypothesis_records_written_by_fmt(game: Any) -> None:
    """Arbitrary records (odd names, comments, annotations, module verbs, positions), as
    ``fmt`` writes them: the fast path reads them as Lark does, or hands them on."""
    text = format_game(game)
    assert_same_games(text)
    for line in text.splitlines():
        assert_line(line)


# ------------------------------------------------------------------ edited canonical lines

_SAMPLE = simulate_text(4, 77, modules=("wesir", "plaetze")) + simulate_text(2, 78)
_SAMPLE_LINES = [ln for ln in _SAMPLE.splitlines() if ln]
_INSERTS = (
    " ",
    "  ",
    "\t",
    ",",
    ", ",
    "#",
    " # note",
    "{",
    "}",
    " {a, b}",
    "{x}",
    '"',
    '"A b"',
    ":",
    "@",
    "@1,2",
    "-",
    "?",
    "(",
    ")",
    "=",
    "+",
    "0",
    "9999999",
    "x",
    "Gu",
    "Gu3",
    "T10",
    "sq:T",
    "take",
    "Take",
    "pay",
    "dirk",
    "none",
    "youngest",
    "reserve",
    "position",
    "\ufeff",
    "\x00",
    "ä",
    "'",
)


@settings(max_examples=1500, deadline=None)
@given(
    line=st.sampled_from(_SAMPLE_LINES),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1),
            st.sampled_from(("insert", "delete", "swapcase", "replace")),
            st.sampled_from(_INSERTS),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_edited_lines_are_read_as_lark_reads_them_or_declined(
    line: str, edits: list[tuple[float, str, str]]
) -> None:
    for where, how, what in edits:
        i = int(where * len(line))
        if how == "insert":
            line = line[:i] + what + line[i:]
        elif how == "delete":
            line = line[:i] + line[i + 1 :]
        elif how == "swapcase":
            line = line[:i] + line[i:].swapcase()
        else:
            line = line[:i] + what + line[i + len(what) :]
    assert_line(line)
    assert_same_games(_SAMPLE.split("\n\n", 1)[0] + "\n\n" + line + "\n")


@pytest.mark.parametrize(
    "line",
    [
        "12. Ben: buy Di A6sw pay Di4 Di2 {exact, cheap} {2nd}, place A6sw@0,-1 # a comment",
        '3. "Anna Lena": take Gu3 W1 ex:GuDe ? # quoted',
        "* deal Anna Gu3 De7, display Gu1 W1 Di4, reshuffle, market Gu:T10w ex:Ab, dirk T9ne {x}",
        "scoring 2: Anna +21 =30 (T=13, G=5, wall=3), Ben +8, dirk +12 {checked} # ok",
        "scoring 1: Anna -2 =-2 (wall=1), Ben +0 =0",  # penalties below zero (Medina)
        "distribute Gu:T9ne Ben@3,1, Di:G6 none, De:A7 Cem reserve # end",
        "start Cem youngest {coin} # drawn",
        "{only a note} {two} # and a comment",
        "# just a comment",
        '[Event "Club night, round 3"] # header comment',
        'Ben: vizier -3 @1,2 x:y "A b" ? true W1 T10 Gu3, wake',
        "12. Ben: remove @1,2, swap G8sw@1,0 for A6ne, build T9ne@1,2, give T10 Anna",
        "12. Ben: give T10 dirk, reserve ?",
    ],
)
def test_hand_typed_lines_with_comments_and_annotations_stay_on_the_fast_path(line: str) -> None:
    assert assert_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "12. Ben: Take Gu3",  # a keyword in another spelling
        "12. Ben: take T14",  # no such tile: a notation error, Lark reports it
        "12. Ben: place T10@100,0",  # out of range: a notation error
        "12. Ben: take Gu3,",  # a comma at the end: a syntax error
        "12. Ben: take Gu3 , take Di4",  # a comma on its own
        "12.\tBen: take Gu3",  # a tab
        "12. Ben: take Gu3#x",  # a comment glued to a token
        "position",  # a block over several lines
        "1234567. Ben: take Gu3",  # a number of seven digits
        "scoring 1: Anna =-2-",  # not a number
        "12. Ben: place T10 @1,0",  # not fmt's spacing
        "Gu3: take Di4",  # a name spelled like a card (fmt quotes it)
    ],
)
def test_lines_the_fast_path_declines(line: str) -> None:
    assert fast.read_line(line, 1) is None
    assert_same_games(f'[Event "x"]\n\n{line}\n')


# ------------------------------------------------------------------------ fuzz corpus


def test_the_fuzz_corpus() -> None:
    """The inputs of tests/test_fuzz.py's kinds (and more of them), whole games and lines."""
    records = [simulate_text(n, 700 + n) for n in (2, 3, 4, 6)] + fuzz.seed_records(0, 10)
    gens = fuzz.generators(records)
    taken = declined = 0
    for kind in sorted(gens):
        rng = random.Random(f"fast-{kind}")
        for _ in range(40):
            data = gens[kind](rng)
            if isinstance(data, bytes):
                try:
                    data = data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
            assert_same_games(data)
            for line in data.split("\n")[:120]:
                if assert_line(line):
                    taken += 1
                else:
                    declined += 1
    assert taken > 1500 and declined > 300  # both sides of the fast path are exercised


# ----------------------------------------------------------------------------- examples


# The example lines already compared in this process: a third of the examples' lines are
# written the same in another example (headers, blank and comment lines, common turns), and a
# line is read the same wherever it stands (``assert_line`` reads it as line 1).
_EXAMPLE_LINES_READ: set[str] = set()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.alh")), ids=lambda p: p.name)
def test_examples(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert_same_games(text, again=True)  # also read by test_notation_native_memo
    for line in text.split("\n"):
        if line not in _EXAMPLE_LINES_READ:
            assert_line(line)
            _EXAMPLE_LINES_READ.add(line)


def test_canonical_examples_are_read_without_lark() -> None:
    """Comments, annotations and module lines do not push a game onto the slow path."""
    calls = []

    def counting(line: str, off: int) -> Any:
        calls.append(line)
        return parse_chunk(line, off)

    for name in ("game-4p.alh", "module-all-four.alh", "notation-club-3p.alh"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        for start, chunk in split_games(fuzz_lines(text)):
            assert fast.read_game(chunk, start - 1, counting) is not None, name
    assert calls == []


def test_a_position_block_is_read_by_the_fast_path() -> None:
    text = (EXAMPLES / "position-midgame.alh").read_text(encoding="utf-8")
    (chunk,) = [c for _, c in split_games(fuzz_lines(text))]
    assert fast.read_game(chunk, 0, parse_chunk) is not None
    assert_same_games(text)


def test_syntax_errors_are_lark_s() -> None:
    text = simulate_text(3, 5)
    broken = re.sub(r"(\n\d+\. \w+: take)", r"\1 @", text, count=1)
    (quick,) = parse_text(broken)
    fast.ENABLED = False
    try:
        (slow,) = parse_text(broken)
    finally:
        fast.ENABLED = True
    assert quick.errors and deep(quick) == deep(slow)
    assert [e.excerpt for e in quick.errors] == [e.excerpt for e in slow.errors]


# ------------------------------------------------------------------------- headers only


def _headers_the_long_way(text: str) -> list[Any]:
    """The headers-only scan as it was: each game's text cut out, then its header lines."""
    from referee.notation.parser import recover_headers

    return [recover_headers(chunk, start - 1) for start, chunk in split_games(fuzz_lines(text))]


def test_the_headers_only_scan_reads_what_cutting_the_games_reads() -> None:
    from referee.notation import read_headers

    records = [simulate_text(n, 900 + n) for n in (2, 4, 6)] + fuzz.seed_records(1, 5)
    texts = ["\n".join(records), "", "\n\n", "# only a comment\n"]
    texts += [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.alh"))]
    gens = fuzz.generators(records)
    for kind in ("fragment", "several-games", "mutated-record", "token-soup", "random-text"):
        rng = random.Random(f"headers-{kind}")
        texts += [gens[kind](rng) for _ in range(60)]
    for text in texts:
        assert isinstance(text, str)
        got = [deep(h) for h in read_headers(text=text)]
        assert got == [deep(h) for h in _headers_the_long_way(text)], text[:200]


# ------------------------------------------------------------------------ record makers


def test_the_record_makers_build_what_the_classes_build() -> None:
    """fast.py builds records without __init__: same class, every field set, same equality,
    hash and repr as the dataclass's own constructor, defaults included."""
    import dataclasses

    from referee.record import model

    made = 0
    for name in dir(model):
        maker = getattr(fast, name, None)
        cls = getattr(model, name)
        if maker is None or maker is cls or not isinstance(cls, type):
            continue
        fields = dataclasses.fields(cls)
        values = [f"v{i}" for i in range(len(fields))]
        a, b = maker(*values), cls(*values)
        assert type(a) is cls and a == b and repr(a) == repr(b) and hash(a) == hash(b)
        assert all(getattr(a, f.name) == v for f, v in zip(fields, values, strict=True))
        required = [f for f in fields if f.default is dataclasses.MISSING]
        short = values[: len(required)]
        assert repr(maker(*short)) == repr(cls(*short))  # the defaults of the other fields
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(a, fields[0].name, None)
        with pytest.raises(TypeError):
            maker(*values, "one too many")
        made += 1
    assert made + len(fast._NATIVE) >= 30  # a native record class (compiled) has no maker


# ------------------------------------------------------------------ memoised groups


def _general(line: str, ln: int) -> Any:
    """A plain turn or chance line read by the general path (word by word, no memo)."""
    got = fast._words(line)
    assert got is not None
    read = fast._chance if line.startswith("*") else fast._turn
    return read(got[0], got[1], ln)


def _positions(x: Any) -> list[Any]:
    """Every Pos object inside a record."""
    if isinstance(x, fast._model.Pos):
        return [x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [p for f in dataclasses.fields(x) for p in _positions(getattr(x, f.name))]
    if isinstance(x, tuple):
        return [p for v in x for p in _positions(v)]
    return []


# the reader's memo tables (emptied for the tests that count what they hold)
MEMO_TABLES = (
    "_actions",
    "_events",
    "_heads",
    "_builders",
    "_uses",
    "_turn_lines",
    "_chance_lines",
)


def empty_tables(names: tuple[str, ...]) -> Iterator[None]:
    """The reader's tables ``names`` emptied for a test, their entries put back after it (the
    tables are the module's ``Final`` objects: emptied in place, never replaced)."""
    tables = [getattr(fast, name) for name in names]
    saved = [dict(t) for t in tables]
    for t in tables:
        t.clear()
    try:
        yield
    finally:
        for t, entries in zip(tables, saved, strict=True):
            t.clear()
            t.update(entries)


@pytest.fixture
def empty_memo() -> Iterator[None]:
    """Empty memo tables."""
    yield from empty_tables(MEMO_TABLES)


@pytest.fixture
def fresh_memo(empty_memo: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty memo tables; every shape gets its builder at its first use."""
    monkeypatch.setattr(fast._SETTINGS, "hot", 1)


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_memoised_groups_are_made_anew_at_every_line_and_column(modules: tuple[str, ...]) -> None:
    """A group read once (memo) gives, at any other line and column, exactly what the general
    path reads there; no position object is shared between two reads."""
    text = simulate_text(3, 40, modules=modules)
    plain = [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]
    assert plain
    for n, line in enumerate(plain, 1):
        first = fast.read_line(line, n)
        again = fast.read_line(line, n + 1000)  # from the memo, at another line
        assert deep(first) == deep(_general(line, n)), line
        assert deep(again) == deep(_general(line, n + 1000)), line
        assert not {id(p) for p in _positions(first)} & {id(p) for p in _positions(again)}
        # the same groups at other columns: the actions in reverse order
        head, sep, rest = line.partition(": ") if line[0] != "*" else ("*", " ", line[2:])
        turned = head + sep + ", ".join(reversed(rest.split(", ")))
        assert deep(fast.read_line(turned, n)) == deep(_general(turned, n)), turned
    assert fast._builders  # the lines were made by builders


def _moved(line: str, k: int) -> str:
    """``line`` with another turn number and player name (its actions at another column)."""
    if line[0] == "*":
        return line
    rest = line.partition(": ")[2]
    return f"{7**k}. {'Bo' * k}: {rest}"


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_whole_lines_from_the_memo_are_the_general_path_s(modules: tuple[str, ...]) -> None:
    """A plain line read again and again (marked, then its template, then its builder) gives
    at every line, and its actions at every column, what the general path reads there; no
    position object is shared between two reads."""
    text = simulate_text(4, 41, modules=modules)
    plain = [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]
    assert plain
    for n, line in enumerate(plain, 1):
        reads = []  # kept alive: no id is reused
        for k in range(4):
            moved, at = _moved(line, k), n + 1000 * k
            reads.append(fast.read_line(moved, at))
            assert deep(reads[-1]) == deep(_general(moved, at)), (moved, at)
        ids = [{id(p) for p in _positions(got)} for got in reads]  # shared within a read
        assert sum(map(len, ids)) == len(set().union(*ids)), line
    lines = [*fast._turn_lines.values(), *fast._chance_lines.values()]
    assert sum(t[0] is not None for t in lines) > len(plain) // 2  # most made by builders


@pytest.mark.usefixtures("fresh_memo")
def test_whole_line_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast._SETTINGS, "limit", 5)
    for k in range(1, 60):
        line = f"{k}. Ben: take Gu{k % 9 + 1} Di{k % 3 + 1}" + ", take Gu1" * (k % 4)
        chance = f"* display Gu{k % 9 + 1}" + ", market Gu:T9es" * (k % 3)
        for text in (line, chance):
            assert deep(fast.read_line(text, k)) == deep(_general(text, k)), text
        assert len(fast._turn_lines) <= 5 and len(fast._chance_lines) <= 5
        assert len(fast._builders) <= 5


@pytest.mark.usefixtures("empty_memo")
def test_a_shape_gets_its_builder_when_it_is_used_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until then its lines are read by the general path: the same records either way. A
    group seen once is read where it stands (no template, no use of its shape)."""
    monkeypatch.setattr(fast._SETTINGS, "hot", 3)
    for k in range(1, 6):
        line = f"{k}. Ben: take Gu{k} De{k}"
        for n in (k, k + 100):  # seen once, then again: its template, a use of its shape
            assert deep(fast.read_line(line, n)) == deep(_general(line, n)), line
        template = fast._actions[f"take Gu{k} De{k}"]
        assert template is not fast._SEEN and (template[0] is not None) == (k >= 3)


@pytest.mark.usefixtures("fresh_memo")
def test_a_group_seen_once_is_only_marked() -> None:
    line = "3. Ben: take Gu3 De4, place T9es@1,0"
    assert deep(fast.read_line(line, 7)) == deep(_general(line, 7))
    assert fast._actions == {"take Gu3 De4": fast._SEEN, "place T9es@1,0": fast._SEEN}
    assert not fast._builders and not fast._uses


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize(
    "line",
    [
        "12. Ben: take Gu3,  take Di4",  # two blanks after the comma
        "12. Ben: take Gu3 ,take Di4",
        "12. Ben:  take Gu3",
        "12. Ben: take  Gu3, place T9es@1,0 ",
        "*  display Gu3",
        "* display Gu3,, market Gu:T9es",
        "12. Ben: ",
        "* ",
    ],
)
def test_lines_the_memo_leaves_to_the_general_path(line: str) -> None:
    """Blanks and commas the general path cuts otherwise: read as it reads them (or declined)."""
    got = fast.read_line(line, 3)
    general = fast._words(line)
    expected = None
    if general is not None and general[0] and not general[0][-1][2]:
        expected = _general(line, 3)
    assert deep(got) == deep(expected), line
    assert_line(line)


@pytest.mark.usefixtures("fresh_memo")
def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast._SETTINGS, "limit", 5)
    for k in range(1, 30):
        line = f"{k}. Ben: take Gu{k % 9 + 1} Di{k % 7 + 1}" + ", take Gu1" * (k % 4)
        assert deep(fast.read_line(line, k)) == deep(_general(line, k)), line
        assert len(fast._actions) <= 5 and len(fast._builders) <= 5 and len(fast._heads) <= 5


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize(
    "head",
    [
        "12. Ben",
        "007. Ben",
        "12. Ben: x",  # a second ": " in the actions
        "1234567. Ben",  # seven digits: too many for an INT
        "12. take",  # a keyword is no name
        "12. Gu3",  # a card is no name
        "12.  Ben",
        "12 . Ben",
        "12. Ben:",
        "12. Be:n",
        "x. Ben",
        "12. Ben Bo",
        "\u0661\u0662. Ben",  # digits, not ASCII ones
    ],
)
def test_turn_heads_from_the_memo_are_the_general_path_s(head: str) -> None:
    """A head read from the memo gives, at another line, what the general path reads there;
    the player's position is new per line."""
    line = head + ": take Gu3, take Di4"
    for n in (1, 2, 1000):
        got = fast.read_line(line, n)
        general = fast._words(line)
        expected = None
        if general is not None and general[0] and not general[0][-1][2]:
            expected = _general(line, n)
        assert deep(got) == deep(expected), (line, n)
    first, again = fast.read_line(line, 5), fast.read_line(line, 6)
    if isinstance(first, fast._model.Turn) and isinstance(again, fast._model.Turn):
        assert first.player.pos is not again.player.pos


def _lines_or_error(read: Any, data: bytes) -> tuple[list[str], Any]:
    out: list[str] = []
    try:
        for line in read(io.BytesIO(data)):
            out.append(line)
    except UnreadableInput as exc:
        return out, (exc.start, exc.offset, exc.line, exc.column, exc.message())
    return out, None


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"a",
        b"\n",
        b'\xef\xbb\xbf[Event "x"]\n1. Ben: take Gu3\n',
        b"a\r\nb\rc\n\rd",
        b"a\x0cb\n\x0b\x1c\x1d\x1e\nc\xc2\x85d\xe2\x80\xa8e\xe2\x80\xa9f\n",
        b"1. Ben: take Gu3\n" * 50 + b"2. Ben: \xff\n3. x\n",
        b"x\n" * 5 + b"\xc3",
        "a\nb".encode("utf-16"),
    ],
)
@pytest.mark.parametrize("size", [1, 3, 1 << 20])
def test_file_lines_are_byte_lines(data: bytes, size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Block by block, the same lines and the same error after the same lines."""
    monkeypatch.setattr(files, "_BLOCK", size)
    monkeypatch.setattr(files.byte_blocks, "__defaults__", (size,))
    assert _lines_or_error(files.file_lines, data) == _lines_or_error(files.byte_lines, data)


@pytest.mark.parametrize(
    "line",
    [
        '[Players "Anna, Ben"]',
        '[players "Anna, Ben"]',  # a known header in another spelling: shown as "Players"
        '[SPIELER "Anna, Ben"]',
        '[Notationsversion "1"]',  # the German tag of Notation
        '[Club "Löwen"]  # a comment',
        '[Gu1x "a name a card pattern would cut"]',  # declined: Lark cuts it
        '[Dirk7 "x"]',
    ],
)
def test_a_header_reads_the_same_every_time_its_name_comes_back(line: str) -> None:
    """The header names are kept per name (``fast._header_names``): the first reading, the
    reading from the memo and Lark's agree, and a name the fast path declines stays declined."""
    fast._header_names.clear()
    first = assert_line(line)
    again = assert_line(line)
    assert first == again
    name = line[1:].split(" ", 1)[0]
    assert name in fast._header_names
    assert (fast._header_names[name] is None) == (not first)


@pytest.mark.parametrize(
    "line",
    [
        "* fruit Gu fr:5 Di fr:4 De fr:7 Du fr:2",  # a field's spelling as an argument
        "* aside Gu bh:TPAG, market Gu:S7",
        "* display Di8 Du1, aside Du bh:GTSA, market Du:T13",
        "* reshuffle, display De9, aside Di bh:ACTP",
        "11. Anna: complete P6 bs:De pay De6",  # a keyword's letters as an argument
        "14. Cem: buy Di T9ne pay Di9, complete G6 bs:Di pay Di7, place T9ne@0,1",
        "12. Ben: vizier take dirk none Pay",
    ],
)
def test_module_lines_with_field_or_keyword_arguments_are_read_fast(line: str) -> None:
    """Where a module argument stands Lark's lexer tries no FIELD and no keyword: ``Gu`` and
    ``pay`` are plain words there (issue 34: these lines went to Lark)."""
    assert assert_line(line), line
    assert_same_games(f'[Event "x"]\n\n{line}\n')


def test_a_component_whose_kind_is_a_field_s_spelling_is_left_to_lark() -> None:
    """``Di:G6`` as a module argument is a component (kind ``Di``) to Lark; the fast reader
    declines it rather than read a field and a tile (a mutated record, issue 34)."""
    line = "* display Du5, market sc:C Du:C7ne, scouts Di:G6 sc:A"
    assert fast.read_line(line, 1) is None
    assert_same_games(f'[Event "x"]\n\n{line}\n')


@pytest.mark.usefixtures("fresh_memo")
@pytest.mark.parametrize("modules", MODULES, ids=lambda m: "+".join(m) or "base")
def test_line_templates_put_together_from_groups_are_the_walked_ones(
    modules: tuple[str, ...],
) -> None:
    """A whole line's template made from its groups' templates (issue 34: no walk over the
    records on a first pass) is the one :func:`fast._walk` makes from the line's records; and
    games read line by line through ``read_game`` (first sight, second sight, builders) give
    the records of the general path.

    The test looks at the memo and calls :func:`fast._composed` itself rather than wrapping
    ``fast._remember``: the compiled reader calls ``_remember`` natively, past the module's
    attribute, so a wrapper would see nothing there."""
    text = simulate_text(4, 43, modules=modules)
    lines = text.splitlines()
    for k in range(3):  # the game three times: first sight, second sight, builders
        got = fast.read_game(text, 1000 * k, parse_chunk)
        assert got is not None
        items = got[0]
        general = []
        for n, line in enumerate(lines, 1000 * k + 1):
            rec = fast.read_line(line, n) if line[:1] == "[" else fast._read_words(line, n)
            if rec is not None and rec is not fast.BLANK:
                general.append(rec)
        assert [deep(x) for x in items] == [deep(x) for x in general]
    composed = 0
    for n, line in enumerate(lines, 1):
        chance = line[:1] == "*"
        end = line.find(": ")
        if chance:
            memo, key, d, groups, col = fast._chance_lines, line, 0, fast._events, 3
        elif line[:1].isdigit() and end > 0:
            memo, key, d, groups, col = (
                fast._turn_lines,
                line[end + 2 :],
                end + 2,
                fast._actions,
                end + 3,
            )
        else:
            continue
        entry = memo.get(key)
        if entry is None or entry is fast._SEEN:
            continue  # not a plain line, or seen once only
        rec = _general(line, n)
        walked = fast._template(rec if chance else rec.actions, n, d)
        assert walked is not None, line
        # the template the memo holds, put together at the line's second sight
        assert (entry[2], entry[1]) == walked, line
        if chance and (rec.notes != () or rec.comment is not None):
            continue
        # the groups' templates put together again (every group has its template by now)
        parts: list[Any] = []
        read = fast._event if chance else fast._action
        got_groups = fast._plain_groups(groups, read, line[col - 1 :], n, col, parts)
        assert got_groups is not None, line
        assert parts and parts[-1] is not None, line
        inner, consts = fast._composed(parts, d)
        if chance:
            shape = (fast._model.Chance, inner, fast._POS, None, None)
            assert (shape, (*consts, 1 - d, (), None)) == walked, line
        else:
            assert (inner, tuple(consts)) == walked, line
        composed += 1
    assert composed > 10
