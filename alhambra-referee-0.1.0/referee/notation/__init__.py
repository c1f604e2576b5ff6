"""The notation layer: ``.alh`` text <-> typed records (:mod:`referee.record.model`).

Public API:

- :func:`parse_text` -- all games of a text.
- :func:`iter_games` -- games of a file or stream, read incrementally (memory stays flat).
- :func:`read_headers` -- only the header tags of each game (fast; no body parse).
- :func:`format_game`, :func:`format_games` -- canonical text.

Syntax errors do not raise: a game that cannot be read comes back with ``errors`` (file
positions, plain-language message, caret excerpt) and the headers that could be recovered.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator

from referee.notation.files import (
    UnreadableInput,
    _newlines,
    byte_blocks,
    byte_lines,
    decode_text,
    open_games,
    open_lines,
)
from referee.notation.parser import (
    parse_game_text,
    scan_header_blocks,
    scan_headers,
    split_games,
)
from referee.record.model import Game, Header, NotationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO, TypeAlias

    from referee.notation.formatter import format_game, format_games

PathOrStream: TypeAlias = "str | os.PathLike[str] | IO[str] | IO[bytes]"

__all__ = [
    "Game",
    "NotationError",
    "UnreadableInput",
    "decode_text",
    "format_game",
    "format_games",
    "iter_games",
    "parse_text",
    "read_headers",
]


def __getattr__(name: str) -> object:
    """:func:`format_game` and :func:`format_games`, imported on first use: a check writes no
    record, and the formatter's module was imported only for these two names."""
    if name in ("format_game", "format_games"):
        from referee.notation import formatter

        found = globals()[name] = getattr(formatter, name)
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _lines(text: str) -> Iterator[str]:
    # universal newlines: CRLF and CR become LF; a BOM at the very start is dropped
    if text.startswith("\ufeff"):
        text = text[1:]
    yield from io.StringIO(text, newline=None)


def _open_lines(path_or_stream: PathOrStream, source: str | None) -> tuple[Iterable[str], str]:
    if isinstance(path_or_stream, (str, os.PathLike)):
        from pathlib import Path

        path = Path(path_or_stream)
        name = source if source is not None else str(path)
        return open_lines(path), name
    stream = path_or_stream
    name = source if source is not None else str(getattr(stream, "name", "<stream>"))
    if isinstance(stream, io.TextIOBase) or hasattr(stream, "encoding"):
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:  # a text stream over bytes (stdin): read the bytes ourselves
            return byte_lines(buffer), name
        return _stream_lines(stream), name  # type: ignore[arg-type]
    return byte_lines(stream), name  # type: ignore[arg-type]


def _stream_lines(stream: IO[str]) -> Iterator[str]:
    first = True
    for line in stream:
        if first:
            first = False
            if line.startswith("\ufeff"):
                line = line[1:]
        if "\r" in line:
            line = line.replace("\r\n", "\n").replace("\r", "\n")
        yield line


def parse_text(text: str, source: str = "<text>") -> list[Game]:
    """Every game of ``text``, in order. Broken games carry ``errors``; the others are read."""
    return [parse_game_text(chunk, source, start) for start, chunk in split_games(_lines(text))]


def iter_games(path_or_stream: PathOrStream, source: str | None = None) -> Iterator[Game]:
    """The games of a file (path) or an open stream, one at a time.

    The text is read a block at a time (files) or line by line (streams) and cut at game
    boundaries, so only one game's text (and one block) is held in memory at any time. Raises
    ``OSError``, or :class:`UnreadableInput` (a ``UnicodeDecodeError`` naming the bad byte's
    position, or UTF-16) if it cannot be read.
    """
    if isinstance(path_or_stream, (str, os.PathLike)):  # a file: cut a block at a time
        from pathlib import Path

        name = source if source is not None else str(Path(path_or_stream))
        games = open_games(path_or_stream)
    else:
        lines, name = _open_lines(path_or_stream, source)
        games = split_games(lines)
    for start, chunk in games:
        yield parse_game_text(chunk, name, start)


def read_headers(
    path_or_stream: PathOrStream | None = None,
    source: str | None = None,
    *,
    text: str | None = None,
) -> Iterator[tuple[Header, ...]]:
    """The header tags of every game, without parsing the bodies (fast path).

    Files and binary streams are read in blocks of lines (:func:`byte_blocks`), and only the
    header lines are looked at (:func:`scan_header_blocks`); other text streams line by line.
    The same headers and positions either way, and the same :class:`UnreadableInput`.
    """
    if text is not None:
        if text.startswith("\ufeff"):
            text = text[1:]
        yield from scan_header_blocks((_newlines(text),))
        return
    assert path_or_stream is not None, "give a path, a stream or text="
    blocks = _open_blocks(path_or_stream)
    if blocks is not None:
        yield from scan_header_blocks(blocks)
        return
    lines, _ = _open_lines(path_or_stream, source)
    yield from scan_headers(lines)


def _open_blocks(path_or_stream: PathOrStream) -> Iterator[str] | None:
    """Blocks of lines of a path (``-``: standard input) or a binary stream; None for a text
    stream that has no bytes under it."""
    if isinstance(path_or_stream, (str, os.PathLike)):
        if str(path_or_stream) == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            return None if buffer is None else byte_blocks(buffer)
        from pathlib import Path

        return _file_blocks(Path(path_or_stream))
    stream = path_or_stream
    if isinstance(stream, io.TextIOBase) or hasattr(stream, "encoding"):
        buffer = getattr(stream, "buffer", None)
        return None if buffer is None else byte_blocks(buffer)
    return byte_blocks(stream)  # type: ignore[arg-type]


def _file_blocks(path: Path) -> Iterator[str]:
    with path.open("rb") as fh:
        yield from byte_blocks(fh)
