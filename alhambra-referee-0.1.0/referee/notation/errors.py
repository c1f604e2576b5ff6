"""Syntax errors in plain language.

Lark reports *where* the parser stopped; this module says *what is wrong* for the common
mistakes. Each mistake has a few small malformed examples; Lark's ``match_examples`` finds the
example that fails in the same parser state as the real text, and its label picks the message.
A few lexical mistakes (an unclosed string or annotation, a stray character) are told apart by
the character the lexer could not read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from referee.catalogue.components import CURRENCY_SPELLINGS, TYPE_SPELLINGS
from referee.notation.tokens import KEYWORDS
from referee.record.model import NotationError, Pos

ACTION_VERBS = frozenset({"take", "buy", "build", "remove", "swap", "place", "reserve", "give"})

# label -> malformed examples (each a complete one-game text). Order matters only for ties.
EXAMPLES: dict[str, list[str]] = {
    "missing-pay": [
        "buy Di A6sw Di4\n",
        "buy A6sw Di4\n",
        "buy Di A6sw\n",
        "buy Di A6sw, place A6sw@0,1\n",
    ],
    "coord-two-numbers": [
        "place A6sw@1\n",
        "place A6sw@1,\n",
        "place A6sw@\n",
        "place A6sw@x,1\n",
        "place A6sw@1,x\n",
        "place A6sw@1,-x\n",
        "place A6sw@-x,1\n",
        "place A6sw@1 2\n",
        "place A6sw@1;2\n",
        "distribute Gu:T9ne Ben@1\n",
        "position\nalhambra T9ne@1\n",
    ],
    "not-a-card": [
        "take Gx3\n",
        "take Gu10\n",
        "buy Di A6sw pay Dx4\n",
        "buy Di A6sw pay Di4 Dx4\n",
        "* deal Anna Gx3\n",
        "* deal Anna Gu3 Gx3\n",
        "* display Gx3\n",
        "* display Gu1 Gx3\n",
        "position\nhand Gx3\n",
        "position\nhand Gu3 Gx3\n",
        "position\ndisplay Gx3\n",
        "position\ndisplay Gu3 Gx3\n",
    ],
    "turn-number-dot": [
        "12 Ben: take Gu1\n",
        "12 take Gu1\n",
        '12 "Anna Lena": take Gu1\n',
    ],
    "header-unterminated": [
        '[Event "Friday"\n',
        '[Event "Friday" x]\n',
    ],
    "header-quotes": [
        "[Event Friday]\n",
        "[Event]\n",
        "[Event 12]\n",
    ],
    "header-name": [
        '["Event" "x"]\n',
        "[]\n",
    ],
    "missing-end": [
        "position\n",
        "position\nnext Ben\n",
    ],
    "not-a-tile": [
        "place X13@1,2\n",
        "build X13@1,2\n",
        "reserve X13\n",
        "give X13 dirk\n",
        "swap X13@1,2\n",
        "swap T13@1,2 for X13\n",
        "remove X13@1,2\n",
        "buy Di X13 pay Di4\n",
        "buy X13 pay Di4\n",
        "* market Gu:X13\n",
        "* dirk X13\n",
        "* dirk T9ne X13\n",
        "distribute Gu:X13 Ben\n",
        "position\nreserve X13\n",
        "position\nreserve T13 X13\n",
        "position\nalhambra X13@1,2\n",
        "position\nalhambra T13@1,2 X13@1,2\n",
        "position\ndirk X13\n",
        "position\ndirk T9ne X13\n",
    ],
    "missing-coord": [
        "place A6sw\n",
        "build A6sw\n",
        "swap A6sw\n",
        "place A6sw, reserve G8ne\n",
        "place A6sw 1,2\n",
        "remove\n",
        "position\nalhambra T13\n",
        "position\nalhambra T13 1,2\n",
    ],
    "give-to": [
        "give A6sw\n",
        "give A6sw, take Gu1\n",
    ],
    "chance-empty": [
        "*\n",
        "* deal Anna Gu3,\n",
    ],
    "scoring-number": [
        "scoring: Anna +3\n",
        "scoring\n",
        "scoring Anna +3\n",
    ],
    "claim-sign": [
        "scoring 1: Anna 9\n",
        "scoring 1: Anna +9 23\n",
        "scoring 1: Anna +9 =23 (T 6)\n",
        "scoring 1: Anna (T=6) 9\n",
    ],
    "claim-part": [
        "scoring 1: Anna +9 =23 (T=6 wall=3)\n",
        "scoring 1: Anna +9 =23 (T=6\n",
        "scoring 1: Anna +9 =23 (T=)\n",
        "scoring 1: Anna +9 =23 ()\n",
        "position\ncounts T\n",
        "position\ncounts T=\n",
    ],
    "market-colon": [
        "* market Gu T10n\n",
        "* market Gu\n",
        "position\nmarket Gu T10n\n",
        "distribute Gu T9ne Ben\n",
    ],
    "distribute-receiver": [
        "distribute Gu:T9ne\n",
        "distribute Gu:T9ne, Di:G6 none\n",
        "distribute T9ne\n",
    ],
    "player-name": [
        "start\n",
        "* deal\n",
        "* deal Gu3\n",
        "position\nplayer\n",
        "position\nnext\n",
        "1. : take Gu1\n",
        "start Gu3\n",
    ],
    "action-missing": [
        "1. Ben:\n",
        "1.\n",
        "1. Ben: take Gu1,\n",
        "Ben:\n",
    ],
    "missing-comma": [
        "take Gu1 buy\n",
        "take Gu1 Di4 place\n",
        "buy Di A6sw pay Di4 place\n",
        "place A6sw@0,1 take\n",
        "reserve A6sw take\n",
    ],
    "annotation-place": [
        "1. Ben: {x} take Gu1\n",
        "* {x} deal Anna Gu3\n",
    ],
    "position-line": [
        "position\nfoo: bar\n",
        "position\n3 4\n",
        "position\nscore\n",
        "position\nscore x\n",
        "position\nscorings\n",
    ],
    "display-tile": [
        "* display T13\n",
        "take T13\n",
        "* deal Anna T13\n",
    ],
}


def _variants(text: str) -> list[str]:
    """The example as the first, second and a later line (of the file or position block).

    Lark expands ``(line? _NL)*`` so that the parser state at the start of the first line, of
    the second line and of any later line differ; a mistake must be recognised in all three.
    """
    out = [text, "# -\n" + text, "# -\n# -\n" + text]
    if text.startswith("position\n"):
        rest = text[len("position\n") :]
        out += ["position\n# -\n" + rest, "position\n# -\n# -\n" + rest]
    return out


EXAMPLES = {label: [v for t in texts for v in _variants(t)] for label, texts in EXAMPLES.items()}

# Messages: ``{tok}`` is the offending text.
MESSAGES: dict[str, str] = {
    "missing-pay": "missing 'pay' before the cards paid: buy FIELD TILE pay CARD CARD...",
    "coord-two-numbers": "a coordinate needs two whole numbers: @x,y (e.g. @1,-2)",
    "not-a-card": "'{tok}' is not a money card: write a currency (Gu, Di, De, Du) and a value 1-9",
    "turn-number-dot": "a turn number must end with a dot: '12. Ben: ...'",
    "header-unterminated": 'unterminated header: write [Name "value"] on one line',
    "header-quotes": 'a header value must be in double quotes: [Name "value"]',
    "header-name": 'a header needs a name first: [Name "value"]',
    "missing-end": "missing 'end' of the position block",
    "not-a-tile": (
        "'{tok}' is not a building tile: write the type (P S A C G T) and the price, "
        "plus the walls where needed (T13, G10n)"
    ),
    "missing-coord": "missing coordinate: write the tile and where it goes, e.g. A6sw@0,-1",
    "give-to": "'give' needs a receiver: give TILE dirk, or give TILE PLAYER",
    "chance-empty": "an event is missing after '*' or ',' (deal, display, market, dirk...)",
    "scoring-number": "a scoring needs its number: scoring 1, scoring 2 or scoring 3",
    "claim-sign": (
        "write claimed figures as +points, =total and (T=6, wall=3): e.g. Anna +9 =23 (T=6)"
    ),
    "claim-part": "write a breakdown as (TYPE=points, ..., wall=points), e.g. (T=6, wall=3)",
    "market-colon": "join the market field and its tile with ':' (Gu:T10n)",
    "distribute-receiver": (
        "say who gets each leftover tile: Gu:T9ne Ben@3,1, Gu:T9ne Ben reserve, or Gu:T9ne none"
    ),
    "player-name": 'a player name is missing here (quote names with spaces: "Anna Lena")',
    "action-missing": "an action is missing here (take, buy, build, remove, swap, place...)",
    "missing-comma": "missing ',' between two actions: write 'take Gu1, buy ...'",
    "annotation-place": "an annotation {...} goes after the action or event it is about",
    "position-line": (
        "not a line of a position block: next, scorings, market, display, dirk, player, "
        "score, hand, reserve, alhambra, counts (or a module line)"
    ),
    "display-tile": "'{tok}' is a building tile, but money cards are expected here",
}


class _SameLRState:
    """Compares equal to a parser state in the same LR state, whatever the stack depth.

    Lark compares states by LR state *and* stack depth, and the depth depends on what came
    before the mistake (how many lines, whether the turn had a number). The LR state alone says
    what the parser expected, which is what a mistake's description depends on.
    """

    def __init__(self, state: object) -> None:
        self.position = getattr(state, "position", state)

    def __eq__(self, other: object) -> bool:
        return self.position == getattr(other, "position", other)

    def __hash__(self) -> int:
        return hash(self.position)


_EXAMPLE_ERRORS: dict[str, UnexpectedInput | None] = {}


def _parse_example(example: str) -> object:
    """``parse_fn`` for ``match_examples``: example errors are computed once and cached."""
    from referee.notation.parser import parse_chunk

    if example not in _EXAMPLE_ERRORS:
        try:
            parse_chunk(example)
            _EXAMPLE_ERRORS[example] = None
        except UnexpectedInput as exc:
            exc.state = _SameLRState(exc.state)
            exc.interactive_parser = None  # type: ignore[assignment]
            _EXAMPLE_ERRORS[example] = exc
    err = _EXAMPLE_ERRORS[example]
    if err is not None:
        raise err
    return None


_INDEX: dict[object, list[tuple[str, UnexpectedInput]]] = {}


def _example_index() -> dict[object, list[tuple[str, UnexpectedInput]]]:
    """LR state -> the example errors in that state (label, error), in the examples' order."""
    if not _INDEX:
        # built apart and kept whole: a failure half-way (memory exhausted) keeps no half index
        # that would give other messages to later games of the same process
        index: dict[object, list[tuple[str, UnexpectedInput]]] = {}
        for label, texts in EXAMPLES.items():
            for text in texts:
                try:
                    _parse_example(text)
                except UnexpectedInput as ut:
                    key = getattr(ut.state, "position", ut.state)
                    index.setdefault(key, []).append((label, ut))
        index.setdefault(None, [])
        _INDEX.update(index)
    return _INDEX


def _match_label(exc: UnexpectedInput) -> str | None:
    """The label of the example that fails like ``exc`` (what Lark's ``match_examples`` with
    ``use_accepts=False`` finds, looked up by LR state instead of trying every example).

    Among the examples failing in the same LR state, the first one that also failed at the
    same token wins; else the first one in that state.
    """
    same = _example_index().get(getattr(exc.state, "position", exc.state), [])
    if not same:
        return None
    token_like = (UnexpectedToken, UnexpectedEOF)
    if isinstance(exc, token_like):
        for label, ut in same:
            if isinstance(ut, token_like) and ut.token == exc.token:
                return label
    return same[0][0]


_CARDLIKE = re.compile(r"([^\W\d]+)(\d+)")


def _line_of(text: str, line: int) -> str:
    if line < 1:
        return ""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


EXCERPT_WIDTH = 100  # characters of the line shown around the column (a long line is cut)
TOKEN_WIDTH = 40  # characters of an offending token echoed in a message


def _escape(ch: str) -> str:
    """A character as shown: control and invisible format characters as escapes."""
    if ch == "\t" or not (ch < " " or ch == "\x7f" or unicodedata.category(ch) in _HIDDEN):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def visible(text: str, limit: int | None = TOKEN_WIDTH) -> str:
    """``text`` safe to print: control characters escaped, cut to ``limit`` characters."""
    cut = limit is not None and len(text) > limit
    if cut:
        text = text[:limit]
    shown = "".join(_escape(ch) for ch in text)
    return shown + "..." if cut else shown


def _excerpt(text: str, line: int, column: int) -> str:
    """The line with a caret under the column: escaped, and cut around the column if long."""
    src = _line_of(text, line).rstrip("\r")
    col = max(column - 1, 0)
    start = 0
    if len(src) > EXCERPT_WIDTH:
        start = max(0, min(col - EXCERPT_WIDTH // 2, len(src) - EXCERPT_WIDTH))
    part = src[start : start + EXCERPT_WIDTH]
    head = "..." if start > 0 else ""
    tail = "..." if start + EXCERPT_WIDTH < len(src) else ""
    shown = head + "".join(_escape(ch) for ch in part) + tail
    before = head + "".join(_escape(ch) for ch in part[: col - start])
    pad = "".join("\t" if ch == "\t" else " " for ch in before)
    return f"{shown}\n{pad}^"


def _end_of_text(text: str) -> tuple[int, int]:
    lines = text.rstrip(" \t\r\n").split("\n")
    return len(lines), len(lines[-1]) + 1


def _refine(label: str, tok: str) -> str:
    """The message for a label, sharpened by the offending token where that helps."""
    from referee.notation.parser import token_kind

    low = tok.lower()
    if tok.startswith("{"):
        return MESSAGES["annotation-place"]
    kind = token_kind(tok)
    if kind == "TILE" and label in ("not-a-card", "missing-pay", "display-tile"):
        return MESSAGES["display-tile"].replace("{tok}", tok)
    if kind in ("CARD", "SCORECARD") and label == "not-a-tile":
        return f"'{tok}' is a money card, but a building tile is expected here"
    in_list = label in ("not-a-card", "not-a-tile", "display-tile", "missing-pay")
    if in_list and low in KEYWORDS and low in ACTION_VERBS:
        return MESSAGES["missing-comma"]
    if label == "not-a-card":
        m = _CARDLIKE.fullmatch(tok)
        if m:
            cur = m.group(1)
            if cur.lower() not in CURRENCY_SPELLINGS:
                return (
                    f"unknown currency '{cur}' in '{tok}': the currencies are "
                    "Gu (Gulden/florin), Di (Dirham), De (Denar/dinar), Du (Dukaten/ducat)"
                )
            return f"'{tok}': a money card's value is 1-9"
        if tok and tok[0].lower() in TYPE_SPELLINGS and any(ch.isdigit() for ch in tok):
            return MESSAGES["display-tile"].replace("{tok}", tok)
    if label == "not-a-tile":
        m = _CARDLIKE.match(tok)
        if m and m[1].lower() not in TYPE_SPELLINGS:
            return (
                f"unknown building type '{m[1]}' in '{tok}': the types are P (pavilion), "
                "S (seraglio), A (arcades), C (chambers), G (garden), T (tower)"
            )
    return MESSAGES[label].replace("{tok}", tok)


def _what(tok: str, type_: str) -> str:
    if type_ == "_NL":
        return "the end of the line"
    if type_ == "$END":
        return "the end of the text"
    return f"'{tok}'"


def describe(exc: UnexpectedInput, text: str, line_offset: int = 0) -> NotationError:
    """A :class:`NotationError` for a Lark error in ``text`` (one game's text). Never raises."""
    try:
        return _describe(exc, text, line_offset)
    except MemoryError:  # no verdict at all, rather than another message than with memory
        raise
    except Exception:  # the description must never hide the error itself
        line = getattr(exc, "line", 1)
        column = getattr(exc, "column", 1)
        line = line if isinstance(line, int) and line > 0 else 1
        column = column if isinstance(column, int) and column > 0 else 1
        return NotationError("syntax error", Pos(line + line_offset, column), "SYNTAX")


def _describe(exc: UnexpectedInput, text: str, line_offset: int) -> NotationError:

    label = None
    if exc.state is not None:
        try:
            label = _match_label(exc)
        except MemoryError:
            raise
        except Exception:  # a failed lookup must never hide the real error
            label = None

    if isinstance(exc, UnexpectedCharacters):
        line, column = exc.line, exc.column
        at = exc.pos_in_stream or 0
        ch = text[at] if at < len(text) else ""
        src = _line_of(text, line)
        if ch == '"':
            if src.lstrip().startswith("["):
                message = MESSAGES["header-unterminated"]
            else:
                message = 'unterminated string: a closing " is missing'
        elif ch == "{":
            message = "unterminated annotation: a closing } is missing"
        elif label is not None and label != "header-unterminated" and (ch.isalnum() or ch == "_"):
            word = re.match(r"[^\s,]{1,200}", text[exc.pos_in_stream :])
            message = _refine(label, visible(word.group(0)) if word else visible(ch))
        else:
            message = f"unexpected character '{visible(ch)}'"
        code = "SYNTAX"
        excerpt = _excerpt(text, line, column)
    elif isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        tok = exc.token
        line, column = tok.line, tok.column
        if label is not None:
            message = _refine(label, visible(str(tok)))
        else:
            message = f"unexpected {_what(visible(str(tok)), tok.type)}"
        code = "SYNTAX"
        excerpt = _excerpt(text, line, column)
    else:
        line, column = _end_of_text(text)
        message = MESSAGES["missing-end"] if label in (None, "missing-end") else MESSAGES[label]
        code = "SYNTAX"
        excerpt = _excerpt(text, line, column)
    return NotationError(message, Pos(int(line) + line_offset, int(column)), code, excerpt)


# For the documentation and the tests: every label with its message.
def labels() -> list[str]:
    return list(EXAMPLES)


DescribeFn = Callable[[UnexpectedInput, str, int], NotationError]
