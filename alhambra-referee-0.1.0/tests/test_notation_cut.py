"""Cutting a file into games a block at a time (issue 13): the games of the line-by-line cut.

:func:`split_game_blocks` finds only the header lines of a block and looks backwards from each
to the last body line; :func:`split_games` classifies every line. Both must give the same games
(first line numbers and texts) for any text, cut into blocks anywhere: simulated records, the
fuzz corpus, the examples, and hypothesis-made texts of the lines that decide where a game ends
(headers, body lines, comments and annotations, blank lines, odd blanks and line breaks).
"""

from __future__ import annotations

import functools
import io
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation import iter_games
from referee.notation.files import UnreadableInput, byte_blocks, byte_lines, open_games
from referee.notation.parser import split_game_blocks, split_games
from referee.simulate import fuzz, simulate_text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SIZES = (1, 3, 64, 1 << 20)


def _cut(split: Any, read: Any, data: bytes) -> tuple[list[tuple[int, str]], Any]:
    """The games cut from ``data``, and the error that stopped the reading (or None)."""
    out: list[tuple[int, str]] = []
    try:
        for game in split(read(io.BytesIO(data))):
            out.append(game)
    except UnreadableInput as exc:
        return out, (exc.offset, exc.line, exc.column)
    return out, None


def assert_same_cut(data: bytes) -> None:
    expected = _cut(split_games, byte_lines, data)
    for size in SIZES:
        got = _cut(split_game_blocks, lambda s, n=size: byte_blocks(s, n), data)
        assert got == expected, (size, data[:300])


@functools.cache  # the same for the three tests that read it: made once a process
def _texts() -> tuple[str, ...]:
    records = [simulate_text(n, 700 + n) for n in (2, 3, 5)] + fuzz.seed_records(2, 4)
    texts = ["\n".join(records), "\n\n".join(records), "", "\n", " \n\n", "# only a comment"]
    texts += [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.alh"))]
    gens = fuzz.generators(records)
    for kind in ("fragment", "several-games", "mutated-record", "token-soup", "random-text"):
        rng = random.Random(f"cut-{kind}")
        texts += [gens[kind](rng) for _ in range(40)]
    return tuple(texts)


def test_records_examples_and_the_fuzz_corpus_are_cut_as_line_by_line() -> None:
    for text in _texts():
        assert_same_cut(text.encode("utf-8"))


# the lines that decide where a game ends, in their usual and odd spellings
_LINES = [
    '[Event "x"]',
    ' \t[Players "Anna, Ben"]',
    "\ufeff[",
    "[ not a header",
    "1. Ben: take Gu3",
    "* display Gu3",
    "start Ben",
    "x [y",
    "# a comment",
    "  # an indented comment",
    "{an annotation}",
    "",
    " ",
    "\t\f",
    "\ufeff",
    "\x0b",
    "a\x85b",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_LINES), max_size=30),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
)
def test_any_sequence_of_lines_is_cut_as_line_by_line(
    lines: list[str], newline: str, last_newline: bool
) -> None:
    text = newline.join(lines) + (newline if last_newline and lines else "")
    assert_same_cut(text.encode("utf-8"))


@pytest.mark.parametrize(
    "data",
    [
        b'[Event "a"]\n1. Ben: take Gu3\n\n# next\n[Event "b"]\n1. Ben: take \xff\n',
        b'[Event "a"]\n1. Ben: take Gu3\n[Event "b"]\n\xc3',
        b'\xef\xbb\xbf[Event "a"]\n1. Ben: take Gu3\n',
        "[Event]\n1. Ben".encode("utf-16"),
    ],
)
def test_the_games_before_an_unreadable_line_and_its_error(data: bytes) -> None:
    assert_same_cut(data)


def _fifo_games(path: Path, data: bytes) -> list[tuple[int, str]]:
    """The games ``open_games`` reads from a pipe (line by line) that ``data`` is written to."""
    import threading

    fifo = path / "pipe.alh"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        return list(open_games(str(fifo)))
    finally:
        writer.join()


def test_open_games_reads_files_and_pipes_alike(tmp_path: Path) -> None:
    data = "\n".join(_texts()[:8]).encode("utf-8")
    file = tmp_path / "games.alh"
    file.write_bytes(data)
    expected = list(split_games(byte_lines(io.BytesIO(data))))
    assert list(open_games(str(file))) == expected
    if hasattr(os, "mkfifo"):
        assert _fifo_games(tmp_path, data) == expected


def test_iter_games_of_a_path_and_of_a_stream_are_the_same(tmp_path: Path) -> None:
    data = "\n\n".join(_texts()[:1] + _texts()[2:6]).encode("utf-8")
    file = tmp_path / "games.alh"
    file.write_bytes(data)
    from_path = [(g.start_line, repr(g)) for g in iter_games(file)]
    from_stream = [(g.start_line, repr(g)) for g in iter_games(io.BytesIO(data), str(file))]
    assert from_path == from_stream and len(from_path) > 3
