"""Text -> records: game splitting, the fast reader with the Lark parser behind it, assembly.

The grammar (``grammar/alhambra.lark``) is the single source of truth for the syntax.
:func:`split_games` cuts a file into games with a tiny line scanner (a new game starts at a
header line that follows body lines), so a huge multi-game file is read one game at a time and a
broken game does not stop the others. Each game is read by :func:`parse_game_text`: canonical
lines by the fast reader (:mod:`referee.notation.fast`), the rest by the Lark parser
(:mod:`referee.notation.lark_reader`, imported only when needed, so a canonical record is read
without loading Lark at all). The Lark parser and its transformer are reachable from here as
before (``_parser``, ``_plain_parser``, ``parse_chunk``).
"""

from __future__ import annotations

import dataclasses
import gc
import operator
import re
from collections.abc import Iterable, Iterator
from itertools import compress, repeat

from referee.lazy_re import lazy_pattern
from referee.notation import fast
from referee.notation import tokens as tk
from referee.record.model import (
    Chance,
    CommentLine,
    Game,
    Give,
    Header,
    ModuleAction,
    NotationError,
    PlayerRef,
    Pos,
    Scoring,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Known header tags in canonical order (their spelling is normalised to this one).
KNOWN_HEADERS: tuple[str, ...] = (
    "Notation",
    "Event",
    "Site",
    "Date",
    "Round",
    "Players",
    "Youngest",
    "Rules",
    "Modules",
    "Result",
)
_KNOWN_BY_LOWER = {h.lower(): h for h in KNOWN_HEADERS}
_KNOWN_BY_LOWER["notationsversion"] = "Notation"  # the German name of the tag

# The notation versions this referee reads (``[Notation "1"]``, optional; docs/notation.md).
NOTATION_VERSIONS: tuple[str, ...] = ("1",)

UNKNOWN_TILE = TileRef(None, None, None, ())

# The largest number the notation reads (scores, claims, counts, turn numbers, module numbers):
# six digits. A longer number is a notation error, never a Python error.
MAX_DIGITS = 6

# The coordinate range: |x| <= COORD_LIMIT and |y| <= COORD_LIMIT. Every piece of a legal
# Alhambra is joined to the fountain by a chain of side-touching pieces (walker rule), so it
# lies at most as many cells away as the Alhambra has pieces: 54 tiles plus at most 3 squares
# (Plätze) per player. 99 leaves room for further modules (docs/notation.md, "Coordinates").
COORD_LIMIT = 99


def number_too_long(digits: str) -> bool:
    """Whether a written number (sign allowed) has more than :data:`MAX_DIGITS` digits, or is
    written with more than ``tokens.MAX_WRITTEN`` (leading zeros: ``0001`` is 1, but thousands
    of zeros are no number a record means, and Python converts at most 4,300 digits)."""
    bare = digits.lstrip("+-")
    return len(bare) > tk.MAX_WRITTEN or len(bare.lstrip("0")) > MAX_DIGITS


digits_too_long = tk.digits_too_long  # a component with an over-long number


# ------------------------------------------------------------------ the Lark parser, lazily

_LARK_NAMES = frozenset(
    {
        "_Build",
        "_assemble_position",
        "_parser",
        "_plain_parser",
        "_token_res",
        "_build_lark",
        "cache_dir",
        "CACHE_ENV",
        "WALL_KEYS_LOWER",
    }
)


def __getattr__(name: str) -> Any:
    """The Lark side's names (``_parser``...) and Lark's exceptions, imported on first use."""
    if name in _LARK_NAMES:
        from referee.notation import lark_reader

        return getattr(lark_reader, name)
    if name in ("UnexpectedCharacters", "UnexpectedInput", "UnexpectedToken"):
        import lark.exceptions

        return getattr(lark.exceptions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse_chunk(text: str, line_offset: int = 0) -> tuple[list[Any], list[NotationError]]:
    """Parse one game's text with Lark: its lines as records, and the notation errors found.

    Raises Lark's ``UnexpectedInput`` on a syntax error (positions relative to ``text``).
    """
    from referee.notation.lark_reader import parse_chunk as lark_parse

    return lark_parse(text, line_offset)


def token_kind(text: str) -> str | None:
    """``CARD``, ``TILE``, ``FIELD`` or ``SCORECARD`` when ``text`` reads as one, else None.

    The patterns are the grammar's terminals (tests/test_notation_fast.py compares them).
    """
    for name, r in fast.COMPONENT_PATTERNS:
        if r.fullmatch(text):
            return name
    return None


def looks_like_component_token(text: str) -> bool:
    """Whether ``text`` would be read as a card, tile, field or scoring card."""
    return token_kind(text) is not None


# ---------------------------------------------------------------------- game splitting

_HEADER_LINE = lazy_pattern(r'^[\t \ufeff]*\[\s*([^\W\d][\w\'-]*)\s+("(?:[^"\\\n]|\\.)*")\s*\]')


def _line_kind(line: str) -> str:
    c = line[:1]
    if c and c not in " \t\f\r\n\ufeff":  # the first character decides (most lines)
        return "header" if c == "[" else "note" if c in "#{" else "body"
    s = line.strip(" \t\f\r\n\ufeff")
    if not s:
        return "blank"
    c = s[0]
    if c == "[":
        return "header"
    if c in "#{":
        return "note"
    return "body"


# first characters of body lines (_line_kind's answer for them), to skip its call
_BODY_START = frozenset("0123456789*")


def split_games(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Cut a stream of lines into games: ``(first line number, text)`` per game.

    A game ends where a header line follows body lines (comment-only and blank lines are not
    body lines for this purpose). Comment lines between the two games go with the next game
    when a blank line parts them from the last body line (that is how the formatter writes the
    comments before and among the headers of a later game), else with the previous one (as a
    comment at the end of its body). Lines are consumed lazily.
    """
    buf: list[str] = []
    start = 1
    seen_body = False
    cut = -1  # index in buf of the first comment after a blank line after the last body line
    blank_after_body = False
    n = 0
    for n, line in enumerate(lines, 1):
        # the first character decides most lines
        kind = "body" if line[:1] in _BODY_START else _line_kind(line)
        if kind == "header" and seen_body:
            at = cut if cut >= 0 else len(buf)
            yield start, "".join(buf[:at])
            buf = buf[at:]
            start = n - len(buf)
            seen_body = False
            cut, blank_after_body = -1, False
        elif kind == "body":
            seen_body = True
            cut, blank_after_body = -1, False
        elif seen_body and kind == "blank":
            blank_after_body = True
        elif seen_body and kind == "note" and blank_after_body and cut < 0:
            cut = len(buf)
        buf.append(line if line[-1:] == "\n" else line + "\n")
    if buf and any(_line_kind(x) != "blank" for x in buf):
        yield start, "".join(buf)
    elif n == 0 or not buf:
        return


def split_game_blocks(blocks: Iterable[str]) -> Iterator[tuple[int, str]]:
    """:func:`split_games` over blocks of whole lines (each block but the last ending with
    ``\n``, line ends as ``\n``: :func:`referee.notation.files.byte_blocks`): the same games,
    with the same first line numbers and texts.

    Only the header lines are found one by one (:func:`_header_starts`); a game's text is a
    slice of its block (joined with the end of the block before when it spans two). At a
    header line the lines before it are looked at backwards up to the last body line: only
    they decide where the game ends (comment lines after a blank line go with the next game).
    The body lines themselves are never split or classified.
    """
    pending: list[str] = []  # the current game's text in the blocks before
    plen = 0  # its length
    start = 1  # the current game's first line
    seen_body = False
    blank_after_body = False
    cut = -1  # offset in the game's text of the first comment after a blank after its body
    text = ""
    for text in blocks:
        gstart = 0  # where the current game's text starts in this block
        pos = 0  # a line start: the lines before it are looked at
        for at in (*_header_starts(text), len(text)):
            # the lines in [pos, at) (none a header line), from the last one back to a body line
            tail: list[tuple[int, str]] = []
            p = at
            while p > pos:
                b = text.rfind("\n", pos, p - 1) + 1 or pos
                kind = _line_kind(text[b:p])
                if kind == "body":
                    seen_body, blank_after_body, cut = True, False, -1
                    break
                tail.append((b, kind))
                p = b
            if seen_body:
                for b, kind in reversed(tail):
                    if kind == "blank":
                        blank_after_body = True
                    elif blank_after_body and cut < 0:  # a comment line
                        cut = plen + b - gstart
            if at == len(text):
                break
            if seen_body:  # a header line after body lines: the game ends before it
                if pending:
                    whole = "".join(pending) + text[gstart:at]
                    pending, plen = [], 0
                else:
                    whole = text[gstart:at]
                end = cut if cut >= 0 else len(whole)
                yield start, whole[:end]
                start += whole.count("\n", 0, end)
                if end < len(whole):  # the comment lines go with the next game
                    pending, plen = [whole[end:]], len(whole) - end
                gstart = at
                seen_body, blank_after_body, cut = False, False, -1
            pos = text.find("\n", at) + 1 or len(text)
        if gstart < len(text):
            pending.append(text[gstart:])
            plen += len(text) - gstart
    rest = "".join(pending)
    if _SOME_AT.search(rest):
        yield start, rest if rest[-1] == "\n" else rest + "\n"


def scan_headers(lines: Iterable[str]) -> Iterator[tuple[Header, ...]]:
    """The headers of every game of a stream of lines, as :func:`recover_headers` reads them
    from each game :func:`split_games` cuts, without assembling the games' texts.

    A game ends where a header line follows body lines; its headers are the header lines from
    its start to there (the comment lines :func:`split_games` moves between games hold none).
    """
    heads: list[Header] = []
    seen_body = False
    content = False
    for n, line in enumerate(lines, 1):
        kind = _line_kind(line)
        if kind == "header":
            if seen_body:
                yield tuple(heads)
                heads, seen_body = [], False
            m = _HEADER_LINE.match(line)
            if m:
                name = _KNOWN_BY_LOWER.get(m[1].lower(), m[1])
                heads.append(Header(name, tk.unquote(m[2]), Pos(n, m.start(1) + 1)))
        elif kind == "body":
            seen_body = True
        if kind != "blank":
            content = True
    if content:
        yield tuple(heads)


# a body line (its first character not blank, "[", "#" or "{") and any
# non-blank character, as _line_kind tells them, found in a block of lines
_BODY_AT = lazy_pattern(r"^[ \t\f\r\ufeff]*[^ \t\f\r\n\ufeff\[#{]", re.M)
# any non-blank character: the class [^ \t\f\r\n\ufeff] written as an ASCII class and a
# look-behind for the byte-order mark, which match the same characters (tests/
# test_startup_patterns.py compares them over every code point): a class holding \ufeff
# compiles into a table of every 16-bit character, 2.5 M instructions at import
_SOME_AT = re.compile(r"[^ \t\f\r\n](?<!\ufeff)")


def _header_starts(text: str) -> Iterator[int]:
    """The start of every header line of ``text`` (a line whose first non-blank character is
    ``[``): each ``[`` is found by ``str.find`` (a memchr), then its line is looked at."""
    at = text.find("[")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        if start == at or not text[start:at].strip(" \t\f\r\ufeff"):
            yield start
            nxt = text.find("\n", at)
            if nxt < 0:
                return
            at = text.find("[", nxt)
        else:
            at = text.find("[", at + 1)


def scan_header_blocks(blocks: Iterable[str]) -> Iterator[tuple[Header, ...]]:
    """:func:`scan_headers` over blocks of whole lines: see :func:`scan_header_games`."""
    for heads, _ in scan_header_games(blocks):
        yield heads


def scan_header_games(blocks: Iterable[str]) -> Iterator[tuple[tuple[Header, ...], bool]]:
    """:func:`scan_headers` over blocks of whole lines (each block but the last ending with
    ``\n``, line ends as ``\n``: :func:`referee.notation.files.byte_blocks`): the same games'
    headers, with the same positions; with each, whether the game has a header or body line
    (one of neither holds only comments and blank lines: no game, as ``check`` counts it).

    Only the header lines are looked at one by one; between two of them a regular expression
    tells whether a body line is there (a new game starts at the next header line). The body
    lines of a game, almost all of its text, are never split or classified: 2-3 times the
    line-by-line scan's speed.
    """
    heads: list[Header] = []
    seen_body = False
    content = False
    header_line = False  # a header line in the last game (read as a header or not)
    n = 0  # lines before the block
    for text in blocks:
        pos = 0  # a line start: what lies before it is scanned
        line = n + 1  # the number of the line at pos
        for at in _header_starts(text):
            if at > pos:
                if not seen_body and _BODY_AT.search(text, pos, at):
                    seen_body = True
                line += text.count("\n", pos, at)
            if seen_body:
                yield tuple(heads), True
                heads, seen_body = [], False
            content = header_line = True
            end = text.find("\n", at) + 1 or len(text)
            h = _HEADER_LINE.match(text[at:end])
            if h:
                name = _KNOWN_BY_LOWER.get(h[1].lower(), h[1])
                heads.append(Header(name, tk.unquote(h[2]), Pos(line, h.start(1) + 1)))
            pos = end
            line += 1
        if pos < len(text):
            if not seen_body and _BODY_AT.search(text, pos):
                seen_body = True
            if not content and _SOME_AT.search(text, pos):
                content = True
        n += text.count("\n")
    if content:
        yield tuple(heads), seen_body or header_line


def recover_headers(text: str, line_offset: int) -> tuple[Header, ...]:
    """Headers of a game whose text did not parse, read by a simple line pattern."""
    out = []
    for i, line in enumerate(text.split("\n")):
        m = _HEADER_LINE.match(line)
        if m:
            name = _KNOWN_BY_LOWER.get(m[1].lower(), m[1])
            out.append(Header(name, tk.unquote(m[2]), Pos(i + 1 + line_offset, m.start(1) + 1)))
    return tuple(out)


# records that are body records wherever they stand (exact classes, no Header among them)
_BODY_RECORDS = frozenset((Turn, Chance))
_NONE = type(None)


PROSE_WORDS = 4  # plain words on a line with no action verb that make it prose
_ACTIONS = operator.attrgetter("actions")
_FIRST = operator.itemgetter(0)


def _prose_lines(body: list[Any], modules: str = "") -> list[NotationError]:
    """A syntax error for each line of prose read as a turn (issue 32): a line whose actions
    are all generic module actions, none with the verb of any module, whose words are plain
    words (no card, tile, coordinate) and at least :data:`PROSE_WORDS` of them ("Then Anna
    thought for a long time ..."). A short line with an unknown verb ("Anna: fly Gu3") stays a
    turn, reported by the engine as ``UNKNOWN-VERB``. The verbs of the modules the game's
    ``Modules`` header (``modules``) names are looked at first, every module's only for a line
    none of them takes (the engine imports only the modules a record names)."""
    out: list[NotationError] = []
    # the types of the turns' first actions, found in C: a line of prose is a turn whose
    # first action is a module action, so with none of them the loop below finds nothing
    turns = compress(body, map(operator.is_, map(type, body), repeat(Turn)))
    firsts = set(map(type, map(_FIRST, filter(None, map(_ACTIONS, turns)))))
    if not any(issubclass(t, ModuleAction) for t in firsts):
        return out
    verbs: set[str] | None = None
    everything = False
    for item in body:
        if type(item) is not Turn or not item.actions:
            continue
        if not isinstance(item.actions[0], ModuleAction):  # the common turn: not all are
            continue
        acts = [a for a in item.actions if isinstance(a, ModuleAction)]
        if len(acts) != len(item.actions):
            continue
        words = [a.verb for a in acts] + [g.value for a in acts for g in a.args]
        if len(words) < PROSE_WORDS or not all(isinstance(w, str) for w in words):
            continue
        if verbs is None:
            verbs = _module_verbs(modules)
        if any(a.verb.lower() in verbs for a in acts):
            continue
        if not everything:
            everything, verbs = True, _module_verbs(None)
            if any(a.verb.lower() in verbs for a in acts):
                continue
        out.append(
            NotationError(
                "a line of prose, not a line of the notation (no action verb: take, buy, "
                "place, build, remove, swap, or a module's verb): write it as a comment "
                "after #",
                item.pos,
                "SYNTAX",
            )
        )
    return out


def _module_verbs(names: str | None) -> set[str]:
    """The verbs (lower case) of the modules a ``Modules`` header's value ``names`` names, or
    of every bundled module (``None``)."""
    from referee.engine.extensions import MODULES, load_bundled_modules, load_module

    if names is None:
        load_bundled_modules()
        classes = list(MODULES.values())
    else:
        found = (load_module(entry.split()[0]) for entry in names.split(",") if entry.split())
        classes = [cls for cls in found if cls is not None]
    out: set[str] = set()
    for cls in classes:
        out.update(v.lower() for v in getattr(cls, "verbs", ()))
        out.update(v.lower() for v in getattr(cls, "chance_verbs", ()))
    return out


def assemble(items: list[Any], source: str, start_line: int, problems: list[NotationError]) -> Game:
    """Headers, leading comments and body of one parsed game."""
    headers: list[Header] = []
    leading: list[CommentLine] = []
    body: list[Any] = []
    errors = list(problems)
    rest = iter(items)
    for it in rest:  # up to the first body record
        if it is None:
            continue
        if isinstance(it, Header):
            headers.append(it)
        elif isinstance(it, CommentLine):
            leading.append(it)
        else:
            body.append(it)
            break
    later = list(rest)
    kinds = set(map(type, later))
    if _BODY_RECORDS.issuperset(kinds) or not any(
        t is _NONE or issubclass(t, Header) for t in kinds
    ):
        # the common game: no item after the first body record is a header or None (its
        # types found in one pass in C), so the loop below would put every one in the body
        body += later
        later = []
    for it in later:
        if type(it) in _BODY_RECORDS:
            body.append(it)
        elif it is None:
            continue
        elif isinstance(it, Header):
            errors.append(
                NotationError(
                    "a header tag must come before the moves of its game", it.pos, "SYNTAX"
                )
            )
            headers.append(it)
        else:
            body.append(it)
    # comment lines after the headers belong to the body; before/among headers they lead
    if headers and leading:
        last_header_line = headers[-1].pos.line
        lead = [c for c in leading if c.pos.line < last_header_line]
        after = [c for c in leading if c.pos.line > last_header_line]
        leading, body = lead, after + body
    elif not headers and leading and body:
        body = leading + body
        leading = []
    elif not headers and leading and not body:
        body, leading = leading, []
    named = next((h.value for h in headers if h.name == "Modules"), "")
    errors.extend(_prose_lines(body, named))
    for h in headers:
        if h.name == "Notation" and h.value.strip() not in NOTATION_VERSIONS:
            from referee.notation.errors import visible

            errors.append(
                NotationError(
                    f"unknown notation version '{visible(h.value)}': this referee reads "
                    f"notation version {', '.join(NOTATION_VERSIONS)}",
                    h.pos,
                    "NOTATION-VERSION",
                )
            )
    errors.sort(key=lambda e: (e.pos.line, e.pos.column))
    # known tags in canonical order, then the others as written (header order carries no
    # meaning, and this keeps parse(format(parse(x))) == parse(x))
    rank = {name: i for i, name in enumerate(KNOWN_HEADERS)}
    headers.sort(key=lambda h: rank.get(h.name, len(rank)))
    return Game(
        tuple(headers),
        tuple(body),
        source=source,
        start_line=start_line,
        errors=tuple(errors),
        leading_comments=tuple(leading),
    )


_MODULES_HEADER = lazy_pattern(r'(?m)^[ \t]*\[Modules[ \t]+"([^"\n]{0,2000})"')


def _import_named_modules(text: str) -> None:
    """Import the modules a game's ``Modules`` header names (each alone, see
    :func:`referee.engine.extensions.load_module`), so that their claim keys and verbs are
    registered when the reader meets them; a name that is no module is left to the engine."""
    from referee.engine.extensions import load_module

    found = _MODULES_HEADER.search(text)
    if found is None:
        return
    for entry in found.group(1).split(",")[:64]:
        words = entry.split()
        if words and len(words[0]) <= 40 and words[0].isascii() and words[0].isidentifier():
            load_module(words[0])


def parse_game_text(text: str, source: str, start_line: int) -> Game:
    """One game: parsed, or with its syntax error and the headers that could be recovered.

    Canonical lines are read by the fast reader (:mod:`referee.notation.fast`), the lines it
    declines by Lark one at a time; a game it cannot read that way (a syntax error, a position
    block it does not read) is parsed here whole by Lark, so every error message stays Lark's.
    """
    off = start_line - 1
    if "[Modules" in text:  # its modules' claim keys and verbs known before its lines are read
        _import_named_modules(text)
    if fast.ENABLED:
        # The records are trees (no reference cycles): a garbage collection while they are
        # built finds nothing to free, yet it runs every 700 new objects and promotes the half
        # built game towards the oldest generation, whose full collections then walk every
        # object the caller keeps. Collections wait until the game is built.
        collecting = gc.isenabled()
        gc.disable()
        try:
            got = fast.read_game(text, off, parse_chunk)
            if got is not None:
                return _player_dirk(assemble(got[0], source, start_line, got[1]), text)
        finally:
            if collecting:
                gc.enable()
    from lark.exceptions import UnexpectedInput

    from referee.notation.errors import describe

    try:
        items, problems = parse_chunk(text, off)
    except UnexpectedInput as exc:
        return Game(
            recover_headers(text, off),
            (),
            source=source,
            start_line=start_line,
            errors=_all_syntax_errors(text, off, describe(exc, text, off)),
        )
    return _player_dirk(assemble(items, source, start_line, problems), text)


def _player_dirk(game: Game, text: str) -> Game:
    """A player really named Dirk (docs/notation.md, "A player named Dirk"): the neutral Dirk
    of a two-player game is the keyword ``dirk``, read in any case; when a player of the game
    is named like it (``Dirk``, ``DIRK``), a claim or gift written with exactly that player's
    spelling (``Dirk +7 =7``, ``give C5 Dirk``) is the player's, and the neutral Dirk is
    written in lower case (``dirk +14``), as the formatter writes him."""
    named = [n for n in game.players if n.casefold() == "dirk" and n != "dirk"]
    if not named or not game.body:
        return game
    name = named[0]
    lines = text.split("\n")
    word = re.compile(re.escape(name) + r"(?![\w@])")

    def spelled(pos: Pos) -> bool:
        at = pos.line - game.start_line
        return 0 <= at < len(lines) and word.match(lines[at], pos.column - 1) is not None

    def give_to_player(a: Any, turn: Turn) -> bool:
        at = a.pos.line - game.start_line
        if not 0 <= at < len(lines):
            return False
        m = re.compile(r"(?i:give)\s+\S+\s+" + re.escape(name) + r"(?![\w@])")
        return m.match(lines[at], a.pos.column - 1) is not None

    body: list[Any] = []
    changed = False
    for item in game.body:
        if type(item) is Scoring and any(c.player is None for c in item.claims):
            claims = tuple(
                dataclasses.replace(c, player=PlayerRef(name, c.pos))
                if c.player is None and spelled(c.pos)
                else c
                for c in item.claims
            )
            if claims != item.claims:
                item = dataclasses.replace(item, claims=claims)
                changed = True
        elif type(item) is Turn and any(type(a) is Give and a.to is None for a in item.actions):
            acts = tuple(
                dataclasses.replace(a, to=PlayerRef(name, a.pos))
                if type(a) is Give and a.to is None and give_to_player(a, item)
                else a
                for a in item.actions
            )
            if acts != item.actions:
                item = dataclasses.replace(item, actions=acts)
                changed = True
        body.append(item)
    return dataclasses.replace(game, body=tuple(body)) if changed else game


MAX_SYNTAX_ERRORS = 20


_BLANK = lazy_pattern(r"[\t \f\r]*")


def _no_block_before(lines: list[str], index: int) -> bool:
    """Whether no line before line ``index`` may open a position block."""
    return not any(ln.lstrip(" \t\f\r\ufeff")[:8].lower() == "position" for ln in lines[:index])


def _all_syntax_errors(text: str, off: int, first: NotationError) -> tuple[NotationError, ...]:
    """The first syntax error and those after it: one event per line lets the parser go on.

    The line of each error is blanked (line numbers stay) and the game parsed again, until it
    parses, an error repeats, the error lies at the end of the text (nothing left to skip), or
    ``MAX_SYNTAX_ERRORS`` were found. A line skipped this way can cause a follow-up error (e.g.
    a skipped ``end`` of a position block); those point at a later line and are rare.
    """
    from lark.exceptions import UnexpectedInput

    from referee.notation.errors import describe

    errors = [first]
    lines = text.split("\n")
    err = first
    while len(errors) < MAX_SYNTAX_ERRORS:
        index = err.pos.line - off - 1
        if not 0 <= index < len(lines) or not lines[index].strip():
            break
        lines[index] = ""
        # Outside a position block every line is reduced when its line end arrives, so the
        # parser's state after a line does not depend on what the line said: when no line
        # before the blanked one may open a block, the lines before it are read again as bare
        # comments (blank lines stay blank), which is much cheaper than their full text.
        if _no_block_before(lines, index):
            stand_in = ["" if _BLANK.fullmatch(ln) else "#" for ln in lines[:index]]
            retry = "\n".join([*stand_in, "", *lines[index + 1 :]])
        else:
            retry = "\n".join(lines)
        try:
            parse_chunk(retry, off)
        except UnexpectedInput as exc:
            err = describe(exc, retry, off)
            if err.pos.line - off - 1 <= index:
                break  # no progress: the rest cannot be read line by line
            errors.append(err)
            continue
        break
    return tuple(errors)


__all__ = [
    "KNOWN_HEADERS",
    "NOTATION_VERSIONS",
    "UNKNOWN_TILE",
    "assemble",
    "looks_like_component_token",
    "parse_chunk",
    "parse_game_text",
    "recover_headers",
    "split_games",
]
