"""Several questions in one call of ``explain`` or ``legal`` (the record is read once).

Questions come from the command line (every ``--at`` point with every action or tile given:
``explain game.alh --at 10 --at 12 "take Gu1" "place T10w@1,0"`` asks four questions) and/or
from a file of queries (``--queries FILE``, ``-`` for standard input), one query per line::

    # moment  [player=NAME]  the rest
    12        place T10w@1,0
    L40       player=Ben take Gu1 Di4
    end       Ben: buy Du C9w pay Du8 Du4
    -         "player=Anna Lena" take Gu1

* the first word is the moment, as ``--at`` writes it (``12``, ``L40``, ``S2``, ``start``,
  ``end``); ``-`` means the command line's ``--at`` (else the end);
* an optional ``player=NAME`` (quoted as ``"player=Anna Lena"`` when the name has a space) is the
  command's ``--player`` for this query;
* the rest is the action (``explain``) or the tile (``legal``; empty: every market and reserve
  tile);
* blank lines and lines starting with ``#`` are skipped; a ``#`` after the query starts a comment.

Each answer echoes its question (``at``, ``player``, the action or tile and, from a file, the
query's ``line``), so a script can tell which answer belongs to which question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import click

from referee.commands._input import read_text, shown_name
from referee.commands.show import At, Situation, parse_at, situation_of
from referee.record.model import Game
from referee.reports.i18n import current_lang, register, t

register(
    "query.head",
    "Question {n}: {question}",
    "Frage {n}: {question}",
)
register("query.error", "cannot answer: {error}", "nicht beantwortbar: {error}")
register(
    "err.query",
    "{where}: {problem} (a query is: MOMENT [player=NAME] {what})",
    "{where}: {problem} (eine Anfrage ist: ZEITPUNKT [player=NAME] {what})",
)
register("err.query_moment", "no moment", "kein Zeitpunkt")
register("err.query_player", "player= without a name", "player= ohne Namen")
register(
    "err.query_stdin",
    "FILE and --queries cannot both read standard input (-)",
    "FILE und --queries können nicht beide die Standardeingabe (-) lesen",
)

_PLAYER = re.compile(r'^(?:"player=(?P<q>[^"]*)"|player=(?P<w>\S*))(?:\s+|$)', re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    """One question: the moment (as written and as read), the player, the action or tile."""

    at_text: str
    at: At
    player: str | None
    subject: str | None  # the action (explain) or the tile (legal); None: every tile
    source: str | None = None  # the queries file, when the question comes from one
    line: int | None = None

    def echo(self) -> dict[str, Any]:
        """The question as data, for the answer to carry."""
        out: dict[str, Any] = {"at": self.at_text, "player": self.player}
        if self.source is not None:
            out["file"] = self.source
            out["line"] = self.line
        return out

    def label(self, what: str) -> str:
        """The question for people: ``--at 12 --player Ben "take Gu1"``."""
        parts = [f"--at {self.at_text}"]
        if self.player:
            parts.append(f"--player {self.player}")
        if self.subject:
            parts.append(f'"{self.subject}"' if what == "action" else f"--tile {self.subject}")
        if self.source is not None:
            parts.append(f"({self.source}:{self.line})")
        return " ".join(parts)


def read_queries(path: str, default_at: tuple[str, At], what: str) -> list[Query]:
    """The queries of a file (format in the module's docstring); errors exit with code 2."""
    source = shown_name(path)
    lang = current_lang()
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise click.ClickException(t("err.unreadable", lang, path=source, why=why)) from exc
    out: list[Query] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        where = f"{source}:{number}"
        moment, _, rest = line.partition(" ")
        rest = rest.strip()
        if moment == "-":
            at_text, at = default_at
        else:
            try:
                at_text, at = moment, parse_at(moment)
            except click.BadParameter as exc:
                problem = exc.format_message()
                raise click.ClickException(
                    t("err.query", lang, where=where, problem=problem, what=what)
                ) from exc
        player = None
        m = _PLAYER.match(rest)
        if m:
            player = (m.group("q") if m.group("q") is not None else m.group("w")).strip()
            if not player:
                raise click.ClickException(
                    t(
                        "err.query",
                        lang,
                        where=where,
                        problem=t("err.query_player", lang),
                        what=what,
                    )
                )
            rest = rest[m.end() :].strip()
        out.append(Query(at_text, at, player, rest or None, source, number))
    return out


def _strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (a ``#`` inside quotes is kept)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


class Situations:
    """The situations of one game, each moment replayed once however often it is asked."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._cache: dict[At, Situation] = {}

    def at(self, at: At) -> Situation:
        if at not in self._cache:
            self._cache[at] = situation_of(self.game, at)
        return self._cache[at]


def check_sources(file: str, queries: str | None) -> None:
    if queries == "-" and file == "-":
        raise click.UsageError(t("err.query_stdin", current_lang()))
