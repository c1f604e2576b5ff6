"""``alhambra-referee headers FILE...``: the header tags of every game, without reading the moves.

The headers-only scan (:func:`referee.notation.read_headers`' block reader): files are read in
blocks and only their header lines are looked at, so a file of many thousands of games is listed
at more than 10,000 games a second, with memory bounded whatever its size (rows are written as
they are found; the text table looks ahead at most :data:`LOOKAHEAD` games to choose its columns
and their widths).

Output (``--format``):

* ``text``: a table, one row per game: file, the line of its first header, then one column per
  header tag (``--columns``, else the tags of the first games: the standard ones in their usual
  order, then the others as they come). Values longer than 40 characters are cut with "…".
* ``csv``: the same rows and columns (a header row first), values whole.
* ``json``: ``{"games": [{"file", "line", "headers": [{"name", "value"}...]}...], "ok"}``:
  every header of every game, in file order (names as ``fmt`` writes them).

Exit codes: 0 every input read, 2 an input cannot be read or holds no game.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import click

from referee.commands._input import STDIN, no_games_message, shown_name
from referee.notation.files import is_folder, scan_folder
from referee.reports.i18n import current_lang, lang_option, register, t

EXIT_OK, EXIT_SYNTAX = 0, 2
LOOKAHEAD = 1000  # games read before the text table's columns are chosen
WIDTH = 40  # the widest column of the text table

register("headers.file", "file", "Datei")
register("headers.line", "line", "Zeile")
register(
    "err.headers_unreadable", "{where}: cannot read: {reason}", "{where}: nicht lesbar: {reason}"
)

Row = tuple[str, int, tuple[tuple[str, str], ...]]  # file, line (0: no header), (name, value)


def _files(paths: tuple[str, ...]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if raw != STDIN and is_folder(path):
            found, skipped = scan_folder(path)
            for entry in skipped:  # dangling links, FIFOs named *.alh: said, never silent
                click.echo(entry.message(current_lang()), err=True)
            yield from found
            if not found:
                yield path  # a folder without games: "no games found"
        else:
            yield path


class _Reader:
    """The rows of every input, in order; a problem goes to standard error when it is met."""

    def __init__(self, paths: tuple[str, ...], lang: str) -> None:
        self.paths, self.lang = paths, lang
        self.problems = 0

    def rows(self) -> Iterator[Row]:
        from referee.notation import _open_blocks
        from referee.notation.files import UnreadableInput
        from referee.notation.parser import scan_header_games

        for path in _files(self.paths):
            name = shown_name(str(path))
            games = 0
            try:
                if not is_folder(path):
                    blocks = _open_blocks(STDIN if str(path) == STDIN else path)
                    assert blocks is not None  # files and standard input are read as bytes
                    for heads, real in scan_header_games(blocks):
                        if not heads and not real:
                            continue  # only comments and blank lines: no game
                        games += 1
                        line = heads[0].pos.line if heads else 0
                        yield name, line, tuple((h.name, h.value) for h in heads)
            except UnreadableInput as exc:
                where = name if exc.utf16 else f"{name}:{exc.line}:{exc.column}"
                self._problem(
                    t(
                        "err.headers_unreadable",
                        self.lang,
                        where=where,
                        reason=exc.message(self.lang),
                    )
                )
                continue
            except OSError as exc:
                reason = exc.strerror or str(exc)
                self._problem(t("err.headers_unreadable", self.lang, where=name, reason=reason))
                continue
            if not games:
                self._problem(no_games_message(str(path), self.lang))

    def _problem(self, message: str) -> None:
        self.problems += 1
        sys.stdout.flush()  # the rows before it first, when both go to one terminal
        click.echo(message, err=True)


def _columns(rows: list[Row]) -> list[str]:
    from referee.notation.parser import KNOWN_HEADERS

    seen: dict[str, None] = {}
    for _, _, heads in rows:
        for name, _ in heads:
            seen.setdefault(name, None)
    known = [h for h in KNOWN_HEADERS if h in seen]
    return known + [h for h in seen if h not in KNOWN_HEADERS]


def _value(heads: tuple[tuple[str, str], ...], column: str) -> str:
    """The value of a tag (several of the same name: joined with "; ")."""
    low = column.lower()
    return "; ".join(v for n, v in heads if n.lower() == low)


def _cut(text: str) -> str:
    from referee.safe_text import line

    text = line(" ".join(text.split()))  # a table cell is one line, shown, never obeyed
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "…"


def _text(rows: Iterator[Row], columns: list[str] | None, lang: str) -> None:
    ahead = list(islice(rows, LOOKAHEAD))
    cols = columns if columns is not None else _columns(ahead)
    titles = [t("headers.file", lang), t("headers.line", lang), *map(_cut, cols)]

    def cells(row: Row) -> list[str]:
        source, line, heads = row
        return [_cut(source), str(line) if line else "", *(_cut(_value(heads, c)) for c in cols)]

    widths = [len(x) for x in titles]
    for row in ahead:
        widths = [max(w, len(c)) for w, c in zip(widths, cells(row), strict=True)]

    def show(parts: list[str]) -> None:
        out = [
            p.rjust(w) if i == 1 else p.ljust(w)
            for i, (p, w) in enumerate(zip(parts, widths, strict=True))
        ]
        click.echo("  ".join(out).rstrip())

    show(titles)
    for row in ahead:
        show(cells(row))
    for row in rows:
        show(cells(row))


def _csv(rows: Iterator[Row], columns: list[str] | None, lang: str) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    ahead = list(islice(rows, LOOKAHEAD)) if columns is None else []
    cols = columns if columns is not None else _columns(ahead)
    from referee.safe_text import csv_cell

    # a cell starting with = + - @ would be run as a formula by a spreadsheet: csv_cell
    writer.writerow([t("headers.file", lang), t("headers.line", lang), *map(csv_cell, cols)])
    for source, line, heads in (*ahead, *rows) if ahead else rows:
        values = (csv_cell(_value(heads, c)) for c in cols)
        writer.writerow([csv_cell(source), line or "", *values])


def _json(rows: Iterator[Row], reader: _Reader) -> None:
    n = 0
    click.echo('{\n  "games": [', nl=False)
    for source, line, heads in rows:
        entry = {
            "file": source,
            "line": line or None,
            "headers": [{"name": name, "value": value} for name, value in heads],
        }
        body = json.dumps(entry, ensure_ascii=False)
        click.echo(("," if n else "") + "\n    " + body, nl=False)
        n += 1
    click.echo(("\n  ]" if n else "]") + f',\n  "ok": {json.dumps(not reader.problems)}' + "\n}")


@click.command("headers")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "csv", "json"], case_sensitive=False),
    default="text",
    show_default=True,
    help="Output: an aligned table, CSV (one row per game) or JSON (every header).",
)
@click.option(
    "--columns",
    metavar="TAG,...",
    default=None,
    help="Header tags to show as columns of text/CSV output, in this order "
    "(default: the tags of the first games, standard ones first).",
)
@lang_option
def command(files: tuple[str, ...], fmt: str, columns: str | None, lang: str) -> int:
    """List the header tags of every game in FILES, without reading the moves.

    FILES are .alh records or folders (searched for *.alh); - reads standard input. One row per
    game: the file, the line of its first header, and its tags (Event, Date, Players, Rules,
    Modules, Result...). Fast (the moves are skipped, not parsed) and streamed: any number of
    games in bounded memory. Problems (unreadable input, no games) go to standard error.

    \b
    Examples:
      alhambra-referee headers examples/
      alhambra-referee headers --columns Event,Result --format csv club.alh > club.csv
      alhambra-referee simulate --games 100 | alhambra-referee headers --format json -

    \b
    Exit codes: 0 every input read, 2 an input cannot be read or holds no game.
    """
    reader = _Reader(files, lang)
    rows = reader.rows()
    cols = [c.strip() for c in columns.split(",") if c.strip()] if columns is not None else None
    fmt = fmt.lower()
    if fmt == "json":
        _json(rows, reader)
    elif fmt == "csv":
        _csv(rows, cols, lang)
    else:
        _text(rows, cols, lang)
    sys.stdout.flush()
    return EXIT_SYNTAX if reader.problems else EXIT_OK
