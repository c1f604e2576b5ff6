"""Helpers for commands that read record files: expanding paths, reading text, error lines."""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Iterable, Iterator

from referee.lazy_re import lazy_pattern
from referee.record.model import NotationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO

EXTENSION = ".alh"

_BOM_UTF8 = b"\xef\xbb\xbf"

# The longest line a record may have, in bytes (its line end not counted). A record's lines are
# short (the longest canonical line of the examples is under 300 characters; a Players header of
# six long names, a comment of a paragraph stay far below); a longer line is a notation error
# (LineTooLong), found while reading, so that a file of one huge line (or /dev/zero) costs
# bounded memory. See docs/security.md.
MAX_LINE = 100_000


class UnreadableInput(UnicodeDecodeError):
    """Input that is not UTF-8 text: where the bad byte is, or which other encoding it is.

    A :class:`UnicodeDecodeError`, so every ``except UnicodeDecodeError`` handler catches it;
    ``str()`` is one friendly sentence (English), :meth:`message` gives it in German too.
    """

    def __init__(
        self,
        data: bytes,
        start: int,
        line: int = 0,
        column: int = 0,
        utf16: str = "",
    ) -> None:
        super().__init__("utf-8", data[start : start + 1] or b"\0", 0, 1, "not UTF-8")
        self.offset = start
        self.bad = data[start : start + 1]
        self.line = line
        self.column = column
        self.utf16 = utf16  # "with BOM" / "without BOM" when the text is UTF-16

    def message(self, lang: str = "en") -> str:
        if self.utf16:
            bom = self.utf16 == "with BOM"
            if lang == "de":
                how = "mit" if bom else "ohne"
                return (
                    f"die Datei ist UTF-16-Text ({how} Byte-Order-Mark), nicht UTF-8: "
                    "bitte als UTF-8 speichern"
                )
            how = "with" if bom else "without"
            return f"the file is UTF-16 text ({how} byte order mark), not UTF-8: save it as UTF-8"
        byte = f"0x{self.bad.hex().upper()}" if self.bad else "?"
        if lang == "de":
            return (
                f"kein UTF-8-Text: Byte {byte} in Zeile {self.line}, Spalte {self.column} "
                f"(Byte-Position {self.offset}) ist ungültig: bitte als UTF-8 speichern"
            )
        return (
            f"not UTF-8 text: byte {byte} at line {self.line}, column {self.column} "
            f"(byte offset {self.offset}) cannot be read: save the file as UTF-8"
        )

    def __str__(self) -> str:
        return self.message("en")


class LineTooLong(UnreadableInput):
    """A line longer than :data:`MAX_LINE` bytes: reported as a syntax error at its start, and
    read no further (a :class:`UnreadableInput`, so every reader's handler reports it)."""

    def __init__(self, line: int, offset: int) -> None:
        super().__init__(b"", 0, line, 1)
        self.offset = offset
        self.code = "LINE-TOO-LONG"

    def message(self, lang: str = "en") -> str:
        if lang == "de":
            return (
                f"Syntaxfehler: Zeile {self.line} ist länger als {MAX_LINE:,} Bytes "
                f"(Byte-Position {self.offset}); eine Partie-Zeile ist nie so lang".replace(
                    ",", "."
                )
            )
        return (
            f"syntax error: line {self.line} is longer than {MAX_LINE:,} bytes (byte offset "
            f"{self.offset}); no line of a game record is that long"
        )


def _bounded_line(stream: IO[bytes], n: int, offset: int) -> bytes:
    """The next line of ``stream`` (b"" at the end); :class:`LineTooLong` when it is longer than
    :data:`MAX_LINE` bytes (at most that many bytes are read for it)."""
    raw = stream.readline(MAX_LINE + 2)
    if len(raw) > MAX_LINE and not (len(raw) <= MAX_LINE + 2 and raw.endswith(b"\n")):
        raise LineTooLong(n, offset)
    if len(raw) == MAX_LINE + 1 and raw.endswith(b"\r"):  # CRLF cut in the middle: fine
        raw += stream.readline(1)
    return raw


def check_line_lengths(data: bytes | str, first_line: int = 1, offset: int = 0) -> None:
    """Raise :class:`LineTooLong` at the first line of ``data`` longer than :data:`MAX_LINE`."""
    nl = b"\n" if isinstance(data, bytes) else "\n"
    if len(data) <= MAX_LINE:
        return
    # A line longer than MAX_LINE + 1 (its line end not counted) is a run of at least 2 * step
    # characters without a line end, so it covers one whole slice [k * step, (k + 1) * step):
    # when every such slice holds a line end (found at its start for short lines), no line is
    # too long, and the lines need not be walked one by one.
    step = (MAX_LINE + 2) // 2
    size = len(data)
    if all(data.find(nl, k, k + step) >= 0 for k in range(0, size - step + 1, step)):  # type: ignore[arg-type]
        return
    start = 0
    n = first_line
    while start < len(data):
        end = data.find(nl, start)  # type: ignore[arg-type]
        stop = len(data) if end < 0 else end
        if stop - start > MAX_LINE + 1:
            raise LineTooLong(n, offset + start)
        if end < 0:
            return
        start = end + 1
        n += 1


def _utf16(head: bytes) -> str:
    """ "with BOM" / "without BOM" when ``head`` (the first bytes) looks like UTF-16, else ""."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "with BOM"
    sample = head[:200]
    if len(sample) < 2:
        return ""
    even, odd = sample[0::2], sample[1::2]
    for zeros, other in ((odd, even), (even, odd)):
        if zeros.count(0) >= max(2, len(zeros) * 6 // 10) and other.count(0) == 0:
            return "without BOM"
    return ""


def _decode_line(raw: bytes, line: int, offset: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        err = UnreadableInput(raw, exc.start, line, len(good) + 1)
        err.offset = offset + exc.start
        raise err from None


def decode_text(data: bytes, keep_bom: bool = False) -> str:
    """``data`` as text: UTF-8 (a BOM is dropped unless ``keep_bom``). Raises
    :class:`UnreadableInput` otherwise."""
    kind = _utf16(data)
    if kind:
        raise UnreadableInput(data, 0, utf16=kind)
    bom = ""
    skipped = 0
    if data.startswith(_BOM_UTF8):
        data = data[3:]
        bom = "\ufeff" if keep_bom else ""
        skipped = 3
    try:
        return bom + data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        begin = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[begin : exc.start].decode("utf-8", errors="replace")) + 1
        err = UnreadableInput(data, exc.start, line, column)
        err.offset += skipped  # the offset in the file, BOM included
        raise err from None


def byte_lines(stream: IO[bytes]) -> Iterator[str]:
    """The lines of a binary stream as text, decoded one by one (memory stays flat).

    UTF-8 only (a BOM at the start is dropped); line ends become ``\n`` (CRLF and CR too).
    Raises :class:`UnreadableInput` at the first line that is not UTF-8, naming the position
    of the bad byte, or at once when the text is UTF-16.
    """
    offset = 0
    n = 0
    while True:
        raw = _bounded_line(stream, n + 1, offset)
        if not raw:
            return
        n += 1
        if n <= 3:  # UTF-16 shows in the first lines (its first line may be empty)
            kind = _utf16(raw)
            if kind:
                raise UnreadableInput(raw, 0, utf16=kind)
            if n == 1 and raw.startswith(_BOM_UTF8):
                raw = raw[3:]
                offset += 3
        text = _decode_line(raw, n, offset)
        offset += len(raw)
        if "\r" in text:
            yield from io.StringIO(text, newline=None)
        else:
            yield text


_BLOCK = 1 << 20  # bytes read at a time by byte_blocks


def byte_blocks(stream: IO[bytes], size: int = _BLOCK) -> Iterator[str]:
    """The text of a binary stream in blocks of whole lines (about ``size`` bytes each).

    The same text, split the same way, as :func:`byte_lines` (``"".join(byte_lines(s)) ==
    "".join(byte_blocks(s))``, line ends as ``\n``, a BOM at the start dropped), and the same
    :class:`UnreadableInput` at the same place: the lines before a bad one are yielded first.
    Each block but the last ends with ``\n``. For scans that look at a few lines of many (the
    headers-only scan): one decode per block instead of one per line.
    """
    n = 0  # lines (LF) before the block
    offset = 0  # bytes before the block
    # the first lines as byte_lines reads them (UTF-16 shows there; the BOM is dropped)
    for _ in range(3):
        raw = _bounded_line(stream, n + 1, offset)
        if not raw:
            break
        n += 1
        kind = _utf16(raw)
        if kind:
            raise UnreadableInput(raw, 0, utf16=kind)
        if n == 1 and raw.startswith(_BOM_UTF8):
            raw = raw[3:]
            offset += 3
        text = _decode_line(raw, n, offset)
        offset += len(raw)
        if text:
            yield _newlines(text)
        if not raw.endswith(b"\n"):
            break
    carry = b""
    while True:
        chunk = stream.read(size)
        data = carry + chunk if carry else chunk
        if not chunk:
            if not data:
                return
            cut = len(data)
        else:
            cut = data.rfind(b"\n") + 1
            if not cut:  # a line longer than the block: read on (up to MAX_LINE)
                if len(data) > MAX_LINE + 1:
                    raise LineTooLong(n + 1, offset)
                carry = data
                continue
        block, carry = data[:cut], data[cut:]
        if len(block) > MAX_LINE or len(carry) > MAX_LINE:
            check_line_lengths(block, n + 1, offset)
            if len(carry) > MAX_LINE + 1:
                raise LineTooLong(n + 1 + block.count(b"\n"), offset + len(block))
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError as exc:
            good = block.rfind(b"\n", 0, exc.start) + 1
            if good:
                yield _newlines(block[:good].decode("utf-8"))
            line = n + block.count(b"\n", 0, good) + 1
            end = block.find(b"\n", good)
            _decode_line(block[good : end + 1 if end >= 0 else len(block)], line, offset + good)
            raise AssertionError("unreachable: the line above does not decode") from exc
        n += block.count(b"\n")
        offset += len(block)
        yield _newlines(text)
        if not chunk:
            return


def _newlines(text: str) -> str:
    """CRLF and CR as LF (what ``io.StringIO(text, newline=None)`` reads)."""
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# the line breaks str.splitlines knows besides LF (CR is gone from byte_blocks' text)
_OTHER_BREAKS = lazy_pattern("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # 0.75 ms to compile


def file_lines(stream: IO[bytes]) -> Iterator[str]:
    """The lines of :func:`byte_lines` (the same text, lines and :class:`UnreadableInput`),
    decoded a block at a time (:func:`byte_blocks`): for files, where reading a block does not
    wait for more input the way a pipe would."""
    for block in byte_blocks(stream):
        if _OTHER_BREAKS.search(block) is None:
            yield from block.splitlines(True)
            continue
        parts = block.split("\n")
        last = parts.pop()
        for part in parts:
            yield part + "\n"
        if last:
            yield last


def open_lines(source: str | os.PathLike[str] | IO[bytes]) -> Iterator[str]:
    """The lines of a file (path, ``-`` for standard input) or of a binary stream, as text."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            buffer = getattr(sys.stdin, "buffer", None)
            if buffer is None:  # standard input replaced by a text stream (tests, embedding)
                yield from io.StringIO(sys.stdin.read(), newline=None)
                return
            yield from byte_lines(buffer)
            return
        from pathlib import Path

        with Path(source).open("rb") as fh:
            regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)  # not a pipe (a FIFO)
            yield from file_lines(fh) if regular else byte_lines(fh)
        return
    yield from byte_lines(source)


def open_games(source: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """The games of a file (``-``: standard input) as :func:`~referee.notation.parser.split_games`
    cuts the lines of :func:`open_lines`: ``(first line number, text)`` per game.

    A regular file is cut a block at a time (:func:`~referee.notation.parser.split_game_blocks`:
    the same games, without a Python step per line); standard input and pipes line by line, so
    each game is handed on as soon as its text has arrived.
    """
    from referee.notation.parser import split_game_blocks, split_games

    if str(source) != "-":
        with open(source, "rb") as fh:  # (``Path.open`` is this call: the same file, errors)
            if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                yield from split_game_blocks(byte_blocks(fh))
            else:  # a pipe (a FIFO)
                yield from split_games(byte_lines(fh))
        return
    yield from split_games(open_lines(source))


_SKIPPED = {
    "dangling": (
        "{path}: skipped: a symbolic link to nothing ({target})",
        "{path}: übersprungen: ein symbolischer Link ins Leere ({target})",
    ),
    "not-a-file": (
        "{path}: skipped: not a regular file ({kind})",
        "{path}: übersprungen: keine gewöhnliche Datei ({kind})",
    ),
    "outside": (
        "{path}: skipped: a symbolic link out of the folder ({target}); it is not rewritten",
        "{path}: übersprungen: ein symbolischer Link aus dem Ordner hinaus ({target}); er wird "
        "nicht neu geschrieben",
    ),
}
_KINDS = {
    stat.S_IFIFO: ("a named pipe (FIFO)", "eine benannte Pipe (FIFO)"),
    stat.S_IFSOCK: ("a socket", "ein Socket"),
    stat.S_IFCHR: ("a character device", "ein Zeichengerät"),
    stat.S_IFBLK: ("a block device", "ein Blockgerät"),
    stat.S_IFDIR: ("a folder", "ein Ordner"),
}


class Skipped:
    """A ``*.alh`` entry of a folder scan that is not read, and why (``reason``: ``dangling``
    symbolic link, ``not-a-file`` such as a FIFO, a symbolic link ``outside`` the folder)."""

    def __init__(self, path: Path, reason: str, target: str = "", mode: int = 0) -> None:
        self.path, self.reason, self.target, self.mode = path, reason, target, mode

    def message(self, lang: str = "en") -> str:
        from referee.safe_text import line

        de = lang == "de"
        kind = _KINDS.get(stat.S_IFMT(self.mode), ("not a file", "keine Datei"))[de]
        text = _SKIPPED[self.reason][de]
        return text.format(path=line(str(self.path)), target=line(self.target), kind=kind)


def scan_folder(folder: Path, inside_only: bool = False) -> tuple[list[Path], list[Skipped]]:
    """The ``*.alh`` files below ``folder`` (sorted), and the entries so named that are not
    read: symbolic links to nothing, FIFOs, sockets, devices and (``inside_only``, for ``fmt``,
    which rewrites files) symbolic links that lead out of the folder. Symbolic links to folders
    are not entered (as ``Path.rglob`` did)."""
    from pathlib import Path

    found: list[Path] = []
    skipped: list[Skipped] = []
    root = folder.resolve()
    for here, dirs, names in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in names + [d for d in dirs if os.path.islink(os.path.join(here, d))]:
            if not name.endswith(EXTENSION):
                continue
            path = Path(here) / name
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                target = os.readlink(path)
                try:
                    real = os.stat(path)
                except OSError:
                    skipped.append(Skipped(path, "dangling", target))
                    continue
                if inside_only and not path.resolve().is_relative_to(root):
                    skipped.append(Skipped(path, "outside", str(path.resolve())))
                    continue
                if not stat.S_ISREG(real.st_mode):
                    if not stat.S_ISDIR(real.st_mode):  # a link to a folder: not entered
                        skipped.append(Skipped(path, "not-a-file", target, real.st_mode))
                    continue
                found.append(path)
            elif stat.S_ISREG(st.st_mode):
                found.append(path)
            else:
                skipped.append(Skipped(path, "not-a-file", mode=st.st_mode))
    return sorted(found), sorted(skipped, key=lambda x: x.path)


def is_folder(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is a folder (a link to one too). Any failure to look (a name longer than
    the system allows, a folder on the way not searchable, a NUL in the name) is "not a
    folder": the name is then read as a file, and reading it says what failed ("cannot read the
    file (File name too long)", exit 2). ``Path.is_dir`` answers False only for some failures
    and raises the others, which ended a ``check`` of a 300-character name as an internal error
    of the tool (exit 4)."""
    try:
        return stat.S_ISDIR(os.stat(name).st_mode)
    except (OSError, ValueError):
        return False


def expand_paths(
    paths: Iterable[str], skipped: list[Skipped] | None = None, inside_only: bool = False
) -> list[str]:
    """Files as given; a directory stands for every ``*.alh`` file below it (sorted). The
    entries a folder scan does not read (:func:`scan_folder`) go to ``skipped`` when it is
    given; ``inside_only`` skips symbolic links out of a folder too (``fmt``: never rewrite a
    file outside the folder it was given)."""
    from pathlib import Path

    out: list[str] = []
    for p in paths:
        if p != "-" and is_folder(p):
            files, left = scan_folder(Path(p), inside_only)
            out.extend(str(f) for f in files)
            if skipped is not None:
                skipped.extend(left)
        else:
            out.append(p)
    return out


def read_source(name: str) -> str:
    """The text of a file (or stdin for ``-``), exactly as stored (BOM and CRLF kept).

    Raises ``OSError``, or :class:`UnreadableInput` (a ``UnicodeDecodeError``) when the text is
    not UTF-8.
    """
    if name == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # standard input replaced by a text stream (tests, embedding)
            return sys.stdin.read()
        return decode_text(_read_bounded(buffer), keep_bom=True)
    from pathlib import Path

    with Path(name).open("rb") as fh:
        return decode_text(_read_bounded(fh), keep_bom=True)


def _read_bounded(stream: IO[bytes]) -> bytes:
    """The whole of ``stream``, read a block at a time; :class:`LineTooLong` as soon as a line
    grows past :data:`MAX_LINE` (so ``/dev/zero`` ends at once, in bounded memory)."""
    parts: list[bytes] = []
    run = 0  # bytes since the last line end
    n = 1
    offset = 0
    while True:
        chunk = stream.read(_BLOCK)
        if not chunk:
            return b"".join(parts)
        last = chunk.rfind(b"\n")
        if last < 0:
            run += len(chunk)
        else:
            first = chunk.find(b"\n")
            if run + first > MAX_LINE + 1:  # the line begun in the blocks before
                raise LineTooLong(n, offset - run)
            check_line_lengths(chunk[first + 1 : last + 1], n + 1, offset + first + 1)
            n += chunk.count(b"\n")
            run = len(chunk) - last - 1
        if run > MAX_LINE + 1:
            raise LineTooLong(n, offset + len(chunk) - run)
        offset += len(chunk)
        parts.append(chunk)


def error_line(source: str, err: NotationError, excerpt: bool = True) -> str:
    """``file:line:column: message`` plus the caret excerpt, indented."""
    text = f"{source}:{err.pos.line}:{err.pos.column}: {err.message}"
    if excerpt and err.excerpt:
        text += "\n" + "\n".join("    " + ln for ln in err.excerpt.split("\n"))
    return text


def error_dict(err: NotationError) -> dict[str, object]:
    return {
        "line": err.pos.line,
        "column": err.pos.column,
        "code": err.code,
        "message": err.message,
    }
