"""Reading records for the commands: one name for standard input, one test for "no games".

Every command that reads a record accepts ``-`` for standard input and names it
:data:`STDIN_NAME` in its messages (``<stdin>:14:9: ...``), as ``parse`` and ``fmt`` do. A file
that holds no game (empty, only blank lines and comments) or a folder without ``*.alh`` files is
not "valid": the commands say "no games found" and exit with code 2.
"""

from __future__ import annotations

from referee.record.model import CommentLine, Game
from referee.reports.i18n import register, t

STDIN = "-"
STDIN_NAME = "<stdin>"

register("err.no_games", "{path}: no games found", "{path}: keine Partien gefunden")


def shown_name(path: str) -> str:
    """The name of an input in messages: ``<stdin>`` for ``-``, else the path as given."""
    return STDIN_NAME if path == STDIN else path


def read_text(path: str) -> str:
    """The text of a record file, or of standard input for ``-`` (a leading BOM dropped).

    Raises ``OSError`` or ``UnicodeDecodeError`` when it cannot be read.
    """
    from referee.notation.files import read_source

    # the shared reader: names a bad byte by line and column, recognises UTF-16
    return read_source(path).removeprefix("\ufeff")


def is_empty_game(game: Game) -> bool:
    """Whether a parsed "game" is no game at all: no headers, no errors, only comments."""
    if game.headers or game.errors:
        return False
    return all(isinstance(item, CommentLine) for item in game.body)


def real_games(games: list[Game], lang: str | None = None) -> list[Game]:
    """The games of a file without the comment-only chunk of an otherwise empty file.

    A game whose ``Players`` header names more players than are ever replayed gets that as an
    error of its own (:func:`referee.record_limits.table_error`), so that ``show``, ``score``,
    ``explain``, ``legal`` and the table page refuse it as ``check`` and ``render`` do instead
    of replaying thousands of names.
    """
    import dataclasses

    from referee.record_limits import table_error
    from referee.reports.i18n import current_lang

    out: list[Game] = []
    for g in games:
        if is_empty_game(g):
            continue
        err = table_error(g, lang or current_lang())
        if err is not None:
            g = dataclasses.replace(g, errors=(*g.errors, err))
        out.append(g)
    return out


def no_games_message(path: str, lang: str) -> str:
    """``FILE: no games found`` in the language of the output."""
    return t("err.no_games", lang, path=shown_name(path))


# why a file cannot be read, in German (the system's own text is English)
_OS_REASONS_DE = {
    "ENOENT": "Datei nicht gefunden",
    "EACCES": "keine Berechtigung zum Lesen",
    "EPERM": "keine Berechtigung zum Lesen",
    "EISDIR": "ist ein Ordner",
    "ENOTDIR": "ein Teil des Pfades ist kein Ordner",
    "ELOOP": "zu viele symbolische Verknüpfungen",
    "ENAMETOOLONG": "Dateiname zu lang",
}


def os_reason(exc: BaseException, lang: str) -> str:
    """Why a file cannot be read, in ``lang`` (``No such file or directory`` /
    ``Datei nicht gefunden``)."""
    import errno

    if isinstance(exc, OSError) and exc.errno is not None:
        name = errno.errorcode.get(exc.errno, "")
        if lang == "de" and name in _OS_REASONS_DE:
            return _OS_REASONS_DE[name]
        if exc.strerror:
            return exc.strerror
    if isinstance(exc, UnicodeDecodeError):
        return "keine UTF-8-Datei" if lang == "de" else "not a UTF-8 file"
    return str(exc)
