"""The headers-only scan in blocks (issue 13) against the line-by-line scan it replaces.

``read_headers`` reads files and binary streams in blocks of lines (``files.byte_blocks``) and
looks only at the header lines (``parser.scan_header_blocks``). The line-by-line way
(``byte_lines`` + ``scan_headers``, which follows ``split_games`` line for line) is the
reference: every input must give the same headers with the same positions, the same games
(a game per header block after body lines), and the same ``UnreadableInput`` at the same place,
after the same games. Inputs: the examples, the golden notation files, simulated records, the
fuzz corpus (damaged bytes included), hypothesis-made texts over the characters that decide a
line's kind, each read in blocks of several sizes (a block boundary anywhere).
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation import _lines, read_headers
from referee.notation.files import UnreadableInput, byte_blocks, byte_lines
from referee.notation.parser import scan_header_blocks, scan_headers
from referee.simulate import fuzz, simulate_text

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(ROOT.glob("examples/*.alh")) + sorted(ROOT.glob("tests/golden/**/*.alh"))


def _outcome(scan: object) -> tuple[list[object], object]:
    """The games' headers (name, value, line, column) and the error that ended the scan."""
    games: list[object] = []
    try:
        for heads in scan:  # type: ignore[attr-defined]
            games.append([(h.name, h.value, h.pos.line, h.pos.column) for h in heads])
    except UnreadableInput as exc:
        return games, ("unreadable", exc.line, exc.column, exc.offset, exc.utf16, exc.bad)
    return games, None


def assert_same(data: bytes) -> None:
    want = _outcome(scan_headers(byte_lines(io.BytesIO(data))))
    for size in (1, 7, 64, 1 << 20):
        got = _outcome(scan_header_blocks(byte_blocks(io.BytesIO(data), size)))
        assert got == want, size
    assert _outcome(read_headers(io.BytesIO(data))) == want
    blocks = _text_or_stop(byte_blocks(io.BytesIO(data), 5))
    assert blocks == _text_or_stop(byte_lines(io.BytesIO(data)))


def _text_or_stop(pieces: object) -> str:
    """The text read before the end or the first unreadable line."""
    out: list[str] = []
    try:
        for piece in pieces:  # type: ignore[attr-defined]
            out.append(piece)
    except UnreadableInput:
        pass
    return "".join(out)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_files(path: Path) -> None:
    data = path.read_bytes()
    assert_same(data)
    assert_same(data.replace(b"\n", b"\r\n"))


def test_a_file_path_and_text_give_the_same(tmp_path: Path) -> None:
    text = "\n\n".join(simulate_text(n, 40 + n) for n in (2, 3, 5))
    path = tmp_path / "g.alh"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    want = _outcome(scan_headers(byte_lines(io.BytesIO(text.encode()))))
    assert len(want[0]) == 3 and want[1] is None
    assert _outcome(read_headers(path)) == want
    assert _outcome(read_headers(str(path))) == want
    assert _outcome(read_headers(text="\ufeff" + text)) == want
    assert _outcome(read_headers(io.StringIO(text))) == want  # a text stream: line by line


def test_the_fuzz_corpus() -> None:
    records = [simulate_text(n, 900 + n) for n in (2, 4, 6)] + fuzz.seed_records(1, 6)
    gens = fuzz.generators(records)
    seen_errors = 0
    for kind in sorted(gens):
        rng = random.Random(f"headers-{kind}")
        for _ in range(60):
            data = gens[kind](rng)
            raw = data if isinstance(data, bytes) else data.encode("utf-8")
            assert_same(raw)
            seen_errors += _outcome(scan_headers(byte_lines(io.BytesIO(raw))))[1] is not None
    assert seen_errors > 5  # unreadable bytes are part of the corpus


def test_games_before_a_bad_byte_come_first() -> None:
    text = "\n\n".join(simulate_text(n, 60 + n) for n in (2, 3)).encode()
    data = text + b'\n\n[Event "x"]\n1. A: take Gu\xff3\n'
    games, err = _outcome(scan_header_blocks(byte_blocks(io.BytesIO(data))))
    assert len(games) == 2 and err is not None and err[0] == "unreadable"
    assert _outcome(scan_headers(byte_lines(io.BytesIO(data)))) == (games, err)


_PIECES = st.sampled_from(
    [
        "[",
        "]",
        "\n",
        "\r",
        "\r\n",
        " ",
        "\t",
        "\f",
        "\v",
        "\ufeff",
        "#",
        "{",
        "}",
        '"',
        "x",
        "é",
        "1. A: take Gu3",
        '[Event "e"]',
        ' [Players "A, B"] # c',
        '\t[rules "x"]',
        '[ Date  "2026" ]',
        "* display Gu3",
        "# note",
        "{ann}",
        "\n\n",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_made_up_texts(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert_same(text.encode("utf-8"))
    want = _outcome(scan_headers(_lines(text)))  # what read_headers(text=...) read before
    assert _outcome(read_headers(text=text)) == want


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.binary(min_size=1, max_size=3), st.integers(0, 30))
def test_made_up_bytes(pieces: list[str], junk: bytes, at: int) -> None:
    data = "".join(pieces).encode("utf-8")
    at = min(at, len(data))
    assert_same(data[:at] + junk + data[at:])
