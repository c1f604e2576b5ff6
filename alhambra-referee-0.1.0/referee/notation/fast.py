"""A hand-written reader for canonical lines, with the Lark grammar as the fallback.

The grammar (``grammar/alhambra.lark``) stays the definition of the notation. This module reads
the lines that ``fmt`` and ``simulate`` write (single spaces, ``, `` between actions and events,
tokens in their canonical spelling) and builds exactly the record objects the Lark parser's
transformer builds, with the same positions. Trailing ``# comments`` and ``{annotations}`` are
read here too, so hand-typed records benefit.

What it does not fully accept it hands back, line by line:

* :func:`read_line` returns ``None`` for a line it is not sure about (an unknown token, a
  keyword in another spelling, a token that would be a notation error, a position block...);
* :func:`read_game` then parses that line alone with Lark. The grammar reduces every line when
  its newline arrives, so the parser is in the same state at the start of every line and one
  line read alone gives the record it gives inside its game. A line Lark cannot read alone is
  a syntax error: :func:`read_game` returns ``None`` and the caller parses the whole game with
  Lark, so every error message and every recovery stays exactly what it was.
* A position block (``position`` ... ``end``) spans lines: :func:`_position` reads it whole
  (the lines ``fmt``, ``show --format record``, ``simulate`` and the examples write, and
  hand-typed ones in the same tokens) into the records Lark's transformer builds, with the same
  notation errors (``POSITION-NO-PLAYER``). A block it is not sure about sends the whole game
  to Lark, as every block did before (tests/test_notation_fast_position.py).

``tests/test_notation_fast.py`` holds the fast path to Lark: simulated records of every player
count, profile and module, the fuzz corpus, the examples and hypothesis-made lines must give the
same records (positions included), and every line the fast path declines must be one it cannot
read exactly.

Token patterns are the grammar's own (the test compares them with the terminals Lark builds).
A word is read as a token only when the token covers the whole word and no higher-priority
terminal matches a prefix of it (the contextual lexer would cut the word there).
"""

from __future__ import annotations

import operator
import os
import re
import types
from collections.abc import Callable

from referee.catalogue.components import TYPE_SPELLINGS
from referee.cli_startup import compiled
from referee.lazy_re import lazy_pattern
from referee.makers import record_maker, slots_twin
from referee.notation import tokens as tk
from referee.record import model as _model
from referee.record.model import Coord, NotationError

# ------------------------------------------------------------------ building the records
# A frozen dataclass's __init__ sets each field with object.__setattr__: about 1 µs a record,
# and a turn line makes some fifteen records. The reader builds them without __init__ instead:
# a new object of the class, each slot set through its member descriptor (a third of the
# time). The objects are the same: same class, every field set, compared, hashed and shown as
# the dataclass says (tests/test_notation_fast.py compares them with Lark's). A position (ten
# a turn) is a named tuple: ``tuple.__new__(Pos, (line, column))``, one call in C.

_new: Final[Callable[[type], Any]] = object.__new__
# a position made in C: ``_tnew(Pos, (line, column))`` (``Pos(line, column)`` runs the named
# tuple's ``__new__``, a Python function, first: twice the instructions)
_tnew: Final[Callable[..., Any]] = tuple.__new__


# Compiled records (the mypyc build, setup.py's MYPYC_MODULES): the record classes the reader
# makes ten of a turn are native classes (referee/record/model.py, _NATIVE_SHAPE), whose own
# constructors are made in C and which no maker can fill: the reader calls them (the compiled
# reader: their native constructors) and its memo's builders do too (_NATIVE_RECORD); the
# other record classes stay Python classes with slots twins, made as before.
NATIVE_RECORDS: Final = not _model.__file__.endswith((".py", ".pyc"))

# the record classes as the reader builds them: in pure Python each name is rebound to its
# class's maker (for the type checker, the class itself: a maker takes the same values; a
# position is a named tuple, made in C, see :func:`_source`); compiled, the classes themselves
from referee.record.model import (  # noqa: E402
    Annotation,
    Award,
    BuildFromReserve,
    Buy,
    CardRef,
    Chance,
    Claim,
    ClaimPart,
    CommentLine,
    ComponentRef,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    GenericArg,
    Give,
    Header,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    Place,
    PlayerRef,
    Pos,
    RemoveToReserve,
    Reserve,
    Reshuffle,
    Scoring,
    ScoringCardRef,
    StartPlayer,
    Swap,
    TakeMoney,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeAlias


def _probe() -> None:
    """A function of this module: its type tells whether the module runs compiled."""


# Whether this module is compiled (the mypyc build, setup.py's MYPYC_MODULES): its functions
# are then native, not Python functions. Compiled, with the records left Python, the reader
# makes records with :class:`_TwinMaker` and builds memoised groups and lines with
# :class:`_ShapeBuilder` instead of generated Python code (no interpreter frame per record).
SELF_COMPILED: Final = not isinstance(_probe, types.FunctionType)
# the memo of templates and builders: pure Python its generated builders, compiled its
# _ShapeBuilder nodes (native records with a pure reader would have neither: never built so)
_MEMO: Final = SELF_COMPILED or not NATIVE_RECORDS

# the record classes the reader makes
_READ_NAMES: Final = (
    "Annotation",
    "Award",
    "BuildFromReserve",
    "Buy",
    "CardRef",
    "Chance",
    "Claim",
    "ClaimPart",
    "CommentLine",
    "ComponentRef",
    "Deal",
    "DirkDraw",
    "DisplayReveal",
    "Distribution",
    "GenericArg",
    "Give",
    "Header",
    "MarketDraw",
    "ModuleAction",
    "ModuleChance",
    "Place",
    "PlayerRef",
    "RemoveToReserve",
    "Reserve",
    "Reshuffle",
    "Scoring",
    "ScoringCardRef",
    "StartPlayer",
    "Swap",
    "TakeMoney",
    "TileRef",
    "Turn",
)
# the native ones (compiled, without slots: see referee/record/model.py); none pure
_NATIVE: Final[frozenset[type]] = frozenset(
    cls
    for cls in (getattr(_model, name) for name in _READ_NAMES)
    if NATIVE_RECORDS and "__slots__" not in vars(cls)
)


class _TwinMaker:
    """A record class's maker as compiled code: ``maker(*values)`` makes what ``cls(*values)``
    makes (positional values, the defaults of the fields left out), as :func:`record_maker`'s
    maker does, without an interpreter frame: a new instance of the class's slots twin, each
    field set by an attribute store (compiled: ``PyObject_SetAttr``), then the record's class
    (see :func:`referee.makers.slots_twin`)."""

    def __init__(self, cls: type, twin: type) -> None:
        import dataclasses

        self.cls: Any = cls
        self.twin: Any = twin
        fields = dataclasses.fields(cls)
        self.names: tuple[str, ...] = tuple(f.name for f in fields)
        self.defaults: tuple[Any, ...] = tuple(
            f.default for f in fields if f.default is not dataclasses.MISSING
        )
        self.required: int = len(fields) - len(self.defaults)

    def __call__(self, *values: Any) -> Any:
        names = self.names
        n = len(values)
        if n < self.required or n > len(names):
            raise TypeError(
                f"{self.cls.__name__}() takes {self.required} to {len(names)} values, {n} given"
            )
        o: Any = self.twin()
        i = 0
        for v in values:
            setattr(o, names[i], v)
            i += 1
        while i < len(names):
            setattr(o, names[i], self.defaults[i - self.required])
            i += 1
        o.__class__ = self.cls
        return o


def _twin_maker(cls: type) -> _TwinMaker | None:
    """The compiled maker of ``cls``, or None (no slots twin, or a default factory)."""
    import dataclasses

    twin = slots_twin(cls)
    if twin is None or any(
        f.default_factory is not dataclasses.MISSING for f in dataclasses.fields(cls)
    ):
        return None
    return _TwinMaker(cls, twin)


def _maker(cls: type) -> Any:
    """The reader's maker of ``cls``: compiled, :class:`_TwinMaker` where it serves; else
    :func:`record_maker`'s generated one."""
    made = _twin_maker(cls) if SELF_COMPILED else None
    return made if made is not None else record_maker(cls)


# each name rebound to its class's maker, but a native class's (called itself)
globals().update(
    {
        name: _maker(getattr(_model, name))
        for name in _READ_NAMES
        if getattr(_model, name) not in _NATIVE
    }
)

# the record classes the reader builds, by class (the memoised groups below rebuild them)
_MAKER_NAMES: Final[dict[type, str]] = {getattr(_model, name): name for name in _READ_NAMES}

# The makers (compiled records: the classes) the word-by-word reader calls, bound once here,
# after the names above: compiled, a module name that is not ``Final`` is a look-up in the
# module's dict at every use (about 140 instructions, against 2 for a ``Final`` one: issue 34,
# sixteenth step); ``Final`` ones are C statics. Nothing rebinds the names above after this.
# Pure Python reads either the same way (one LOAD_GLOBAL).
# The ten record classes of referee/record/model.py's _NATIVE_SHAPE are called by their own
# names instead: pure Python the name is the maker (one LOAD_GLOBAL, as here), compiled the
# class, whose native constructor the compiled reader calls in C.
_R_ANNOTATION: Final[Any] = Annotation
_R_BUILD_FROM_RESERVE: Final[Any] = BuildFromReserve
_R_COMPONENT_REF: Final[Any] = ComponentRef
_R_DEAL: Final[Any] = Deal
_R_DIRK_DRAW: Final[Any] = DirkDraw
_R_GIVE: Final[Any] = Give
_R_MODULE_ACTION: Final[Any] = ModuleAction
_R_MODULE_CHANCE: Final[Any] = ModuleChance
_R_REMOVE_TO_RESERVE: Final[Any] = RemoveToReserve
_R_RESERVE: Final[Any] = Reserve
_R_RESHUFFLE: Final[Any] = Reshuffle
_R_SWAP: Final[Any] = Swap

# Off switch (benchmarks, comparisons): ALHAMBRA_REFEREE_LARK_ONLY=1 reads every game with Lark.
ENABLED = os.environ.get("ALHAMBRA_REFEREE_LARK_ONLY", "") in ("", "0")

# ------------------------------------------------------------------ the grammar's patterns
# The regular expressions of the grammar's terminals, as Lark compiles them
# (tests/test_notation_fast.py checks that they are the same).
_CURRENCIES = (
    "gulden|gu|florins|florin|dirhams|dirham|di|denare|denars|denar|dinar|de|dukaten|dukate"
    "|ducats|ducat|du"
)
_TYPES = (
    "pavilion|pavillon|seraglio|serail|arcades|arcade|arkaden|arkade|chambers|chamber|gemächer"
    "|gemaecher|gemach|garden|garten|tower|turm|p|s|a|c|g|t"
)
PATTERNS = {
    "CARD": rf"(?i:(?:{_CURRENCIES})[1-9](?![\w-]))",
    "SCORECARD": r"(?i:(?:wertung|score|w)[12](?![\w-]))",
    "TILE": rf"(?i:(?:{_TYPES})\d+(?:[nesow]+|-)?(?![\w-]))",
    "FIELD": rf"(?i:(?:{_CURRENCIES})(?![\w-]))",
    "COMPONENT": r"[^\W\d]\w*:\w+",
    "WORD": r"(?i:[^\W\d][\w'-]*)",
    "STRING": r'"(?:[^"\\\n]|\\.)*"',
    "ANNOTATION": r"\{[^{}\n]*\}",
}
# Every pattern is compiled when first used: a canonical base game has no component, string or
# annotation, and an ASCII word is told card, scoring card, tile, field or word by the plain
# tests below (what the pattern answers for it, tests/test_notation_fast_ascii.py); the
# case-insensitive alternations of the card, tile and field patterns were most of the 8.8 M
# instructions a one-game ``check`` spent compiling the reader's patterns at import.
_CARD: Final = lazy_pattern(PATTERNS["CARD"])
_SCORECARD: Final = lazy_pattern(PATTERNS["SCORECARD"])
_TILE: Final = lazy_pattern(PATTERNS["TILE"])
_FIELD: Final = lazy_pattern(PATTERNS["FIELD"])
_COMPONENT: Final = lazy_pattern(PATTERNS["COMPONENT"])
_WORD: Final = lazy_pattern(PATTERNS["WORD"])
_STRING: Final = lazy_pattern(PATTERNS["STRING"])
_ANNOTATION: Final = lazy_pattern(PATTERNS["ANNOTATION"])
_PRIORITY: Final = (_CARD, _SCORECARD, _TILE, _FIELD)  # priority 2: tried before the others
# The component terminals by name, in the grammar's order (``parser.token_kind``).
COMPONENT_PATTERNS = (
    ("CARD", _CARD),
    ("SCORECARD", _SCORECARD),
    ("TILE", _TILE),
    ("FIELD", _FIELD),
)
# A coordinate as fmt writes it (ASCII digits, no blanks); the grammar's XY accepts more,
# which goes to Lark.
_XY: Final = re.compile(r"(-?[0-9]{1,6}),(-?[0-9]{1,6})")
# Words of a line that holds a string or an annotation: a string, an annotation or a run of
# other characters, glued together, then a comment, single blanks, or anything else.
_SCAN: Final = lazy_pattern(
    r'(?P<w>(?:"(?:[^"\\\n]|\\.)*"|\{[^{}\n]*\}|[^ "{#]+)+)|(?P<c>#.*)|(?P<s> +)|(?P<x>.)'
)

_KEYWORDS: Final = tk.KEYWORDS

# ------------------------------------------------------- the terminals read without patterns
# For a word of ASCII characters only, a case-insensitive match is a match of its lower case
# (the patterns' other case pairs, such as K and the Kelvin sign, are not ASCII), ``\d`` is
# 0-9 and ``\w`` is a letter, a digit or ``_``. A currency, a building type and a scoring
# card's name hold no digit, so such a token's name is the word up to its first digit. Any
# other word is asked of the pattern.
_CURRENCY_NAMES: Final = frozenset(_CURRENCIES.split("|"))
_TYPE_NAMES: Final = frozenset(_TYPES.split("|"))
_SCORECARD_NAMES: Final = frozenset(("wertung", "score", "w"))
_WORD_OR_DASH: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _first_digit(low: str) -> int:
    """The index of the first ASCII digit of ``low``, or -1."""
    for i, ch in enumerate(low):
        if "0" <= ch <= "9":
            return i
    return -1


def _ends_token(low: str, at: int) -> bool:
    """Whether a token may end before ``low[at]``: the patterns' ``(?![\\w-])``."""
    return at >= len(low) or low[at] not in _WORD_OR_DASH


def _is_card(word: str) -> bool:
    """``_CARD.fullmatch(word)`` is not None: a currency and one digit 1-9."""
    if not word.isascii():
        return _CARD.fullmatch(word) is not None
    return len(word) >= 2 and word[-1] in "123456789" and word[:-1].lower() in _CURRENCY_NAMES


def _is_scorecard(word: str) -> bool:
    """``_SCORECARD.fullmatch(word)`` is not None: ``W``, ``score`` or ``wertung`` and 1 or 2."""
    if not word.isascii():
        return _SCORECARD.fullmatch(word) is not None
    return len(word) >= 2 and word[-1] in "12" and word[:-1].lower() in _SCORECARD_NAMES


def _is_field(word: str) -> bool:
    """``_FIELD.fullmatch(word)`` is not None: a currency."""
    if not word.isascii():
        return _FIELD.fullmatch(word) is not None
    return word.lower() in _CURRENCY_NAMES


def _tile_end(low: str) -> int:
    """Where the digits of a tile word ``low`` (ASCII, lower case) end, or -1: not a building
    type and digits."""
    j = _first_digit(low)
    if j <= 0 or low[:j] not in _TYPE_NAMES:
        return -1
    n = len(low)
    while j < n and "0" <= low[j] <= "9":
        j += 1
    return j


def _is_tile(word: str) -> bool:
    """``_TILE.fullmatch(word)`` is not None: a building type, digits, then walls or ``-``."""
    if not word.isascii():
        return _TILE.fullmatch(word) is not None
    low = word.lower()
    k = _tile_end(low)
    if k < 0:
        return False
    rest = low[k:]
    return rest == "" or rest == "-" or rest.strip("nesow") == ""


def _tile_prefix(word: str) -> bool:
    """``_TILE.match(word)`` is not None: a tile at the start of ``word``."""
    if not word.isascii():
        return _TILE.match(word) is not None
    low = word.lower()
    k = _tile_end(low)
    if k < 0:
        return False
    if k < len(low) and low[k] == "-":
        return _ends_token(low, k + 1)
    while k < len(low) and low[k] in "nesow":
        k += 1
    return _ends_token(low, k)


def _card_prefix(word: str, names: frozenset[str], digits: str) -> bool:
    """A card (``names`` the currencies, ``digits`` "123456789") or a scoring card (the
    scoring cards' names, "12") at the start of ASCII ``word``: its pattern's ``match``."""
    low = word.lower()
    j = _first_digit(low)
    return j > 0 and low[:j] in names and low[j] in digits and _ends_token(low, j + 1)


def _field_end(word: str) -> int:
    """Where ``_FIELD.match(word)`` ends, or -1: a currency at the start of ``word``."""
    if not word.isascii():
        m = _FIELD.match(word)
        return -1 if m is None else m.end()
    low = word.lower()
    k = 0
    while k < len(low) and low[k] in _WORD_OR_DASH:
        k += 1
    return k if low[:k] in _CURRENCY_NAMES else -1


def _is_word(word: str) -> bool:
    """``_WORD.fullmatch(word)`` is not None: a letter or ``_``, then letters, digits, ``_``,
    ``'`` and ``-``."""
    if not word.isascii():
        return _WORD.fullmatch(word) is not None
    plain = word.replace("'", "_").replace("-", "_")
    return word[:1] not in ("", "'", "-") and plain.isidentifier()


_COORD_LIMIT: Final = 99
_MAX_DIGITS: Final = 6
_MAX_WRITTEN: Final = 24  # tokens.MAX_WRITTEN: digits written, leading zeros too


def _prefix_token(word: str) -> bool:
    """Whether a priority-2 terminal (card, scoring card, tile, field) matches the start of
    ``word``: where the contextual lexer accepts it, it would cut the word there."""
    if not word.isascii():
        return any(r.match(word) for r in _PRIORITY)
    return (
        _card_prefix(word, _CURRENCY_NAMES, "123456789")
        or _card_prefix(word, _SCORECARD_NAMES, "12")
        or _tile_prefix(word)
        or _field_end(word) >= 0
    )


def _marg_prefix(word: str) -> bool:
    """Whether a priority-2 terminal a ``marg`` may be (card, scoring card, tile) matches the
    start of ``word``."""
    if not word.isascii():
        return any(r.match(word) for r in _MARG_PRIORITY)
    return (
        _card_prefix(word, _CURRENCY_NAMES, "123456789")
        or _card_prefix(word, _SCORECARD_NAMES, "12")
        or _tile_prefix(word)
    )


# -------------------------------------------------------------- cached word classification
# Each maps a word to its reading in one context (None: not sure, the line goes to Lark).

_names: Final[dict[str, str | None]] = {}
_cards: Final[dict[str, tuple[type, Any] | None]] = {}
_tiles: Final[dict[str, tuple[Any, ...] | None]] = {}
_fields: Final[dict[str, Any]] = {}
_coords: Final[dict[str, Coord | None]] = {}
_margs: Final[dict[str, tuple[str, Any] | None]] = {}

_MISSING: Final = object()


def _name(word: str) -> str | None:
    """A player name (WORD or STRING) that reads as the same name in every name context."""
    got = _names.get(word, _MISSING)
    if got is not _MISSING:
        return got  # type: ignore[return-value]
    out: str | None = None
    if word[:1] == '"':
        if _STRING.fullmatch(word):
            out = tk.unquote(word)
    elif _is_word(word) and word.lower() not in _KEYWORDS and not _prefix_token(word):
        out = word
    if len(_names) < 10_000:
        _names[word] = out
    return out


def _card(word: str) -> tuple[type, Any] | None:
    """A card-like token in a card context (take, pay, deal, display): CARD, SCORECARD,
    COMPONENT or ``?``."""
    got = _cards.get(word, _MISSING)
    if got is not _MISSING:
        return got  # type: ignore[return-value]
    out: tuple[type, Any] | None = None
    if word == "?":
        out = (CardRef, None)
    elif _is_card(word):
        out = (CardRef, tk.read_card(word))
    elif _is_scorecard(word):
        out = (ScoringCardRef, int(word[-1]))
    elif _COMPONENT.fullmatch(word) and not _prefix_token(word) and not tk.digits_too_long(word):
        out = (ComponentRef, tuple(word.split(":", 1)))  # an over-long number: Lark says so
    if len(_cards) < 10_000:
        _cards[word] = out
    return out


def _make_card(word: str, pos: Pos) -> Any:
    got = _cards[word] if word in _cards else _card(word)
    if got is None:
        return None
    cls, value = got
    if cls is _R_COMPONENT_REF:
        return _R_COMPONENT_REF(value[0], value[1], pos)
    if cls is CardRef:
        return CardRef(value, pos)
    return cls(value, pos)


def _tile_reading(word: str) -> tuple[Any, ...] | None:
    """A tile-like token (TILE, COMPONENT or ``?``): ``(type, price, walls, candidates)`` or
    ``("component", kind, name)``. A tile the catalogue does not know goes to Lark."""
    got = _tiles.get(word, _MISSING)
    if got is not _MISSING:
        return got  # type: ignore[return-value]
    out: tuple[Any, ...] | None = None
    if word == "?":
        out = (None, None, None, ())
    elif _is_tile(word):
        type_, price, walls, cands, problem = tk.read_tile(word)
        if problem is None:
            out = (type_, price, walls, cands)
    elif _COMPONENT.fullmatch(word) and not _prefix_token(word) and not tk.digits_too_long(word):
        kind, name = word.split(":", 1)
        out = ("component", kind, name)
    if len(_tiles) < 10_000:
        _tiles[word] = out
    return out


def _make_tile(word: str, pos: Pos) -> Any:
    got = _tiles[word] if word in _tiles else _tile_reading(word)
    if got is None:
        return None
    if got[0] == "component":
        return _R_COMPONENT_REF(got[1], got[2], pos)
    return TileRef(got[0], got[1], got[2], got[3], pos)


def _field(word: str) -> Any:
    """A market field written as a currency (``Gu``): its currency, or _MISSING."""
    got = _fields.get(word, _MISSING)
    if got is _MISSING and len(_fields) < 1_000:
        got = tk.read_field(word)[0] if _is_field(word) else _MISSING
        _fields[word] = got
    return got


def _coord(text: str) -> Coord | None:
    got = _coords.get(text, _MISSING)
    if got is not _MISSING:
        return got  # type: ignore[return-value]
    out = None
    m = _XY.fullmatch(text)
    if m:
        x, y = int(m[1]), int(m[2])
        if abs(x) <= _COORD_LIMIT and abs(y) <= _COORD_LIMIT:
            out = Coord(x, y)
    if len(_coords) < 10_000:
        _coords[text] = out
    return out


def _number(digits: str) -> int | None:
    """An INT token (ASCII digits, at most six significant ones) or None."""
    if (
        digits.isascii()
        and digits.isdigit()
        and len(digits) <= _MAX_WRITTEN
        and len(digits.lstrip("0")) <= _MAX_DIGITS
    ):
        return int(digits)
    return None


def _marg(word: str, pos: Pos) -> GenericArg | None:
    """One argument of a module verb (or chance event), as the transformer's ``marg``."""
    if word in _margs:
        got = _margs[word]
    else:
        got = _marg_kind(word)
        if len(_margs) < 10_000:
            _margs[word] = got
    if got is None:
        return None
    kind, value = got
    if kind == "plain":  # a coordinate or a number: no position of its own
        return GenericArg(value)
    if kind == "word":
        return GenericArg(value, pos)
    if kind == "string":
        return GenericArg(PlayerRef(value, pos), pos)
    if kind == "card":
        return GenericArg(_make_card(word, pos), pos)
    return GenericArg(_make_tile(word, pos), pos)


def _marg_kind(word: str) -> tuple[str, Any] | None:
    if word == "?":
        return ("word", "?")
    first = word[0]
    if first == '"':
        return ("string", tk.unquote(word)) if _STRING.fullmatch(word) else None
    if first == "@":
        c = _coord(word[1:])
        return ("plain", c) if c is not None else None
    if first == "-":
        n = _number(word[1:])
        return ("plain", -n) if n is not None else None
    if first.isdigit():
        n = _number(word)
        return ("plain", n) if n is not None else None
    if _is_card(word) or _is_scorecard(word):
        return ("card", None)
    if _is_tile(word):
        return ("tile", None) if _tile_reading(word) is not None else None
    # Where an argument stands the lexer tries only the terminals a ``marg`` may be: of the
    # priority ones CARD, SCORECARD and TILE (no FIELD), and no keyword (a keyword's letters
    # are a WORD there). So ``Gu`` (a field's spelling, ``* fruit Gu fr:5``) and ``pay``
    # (``complete P6 bs:De pay De6``) are plain words, as Lark reads them.
    if _marg_prefix(word):
        return None
    field_end = _field_end(word)
    if field_end >= 0 and field_end != len(word):
        return None  # ``Di:G6``: a component to Lark, a field and a tile to the tile maker
    if _COMPONENT.fullmatch(word):
        return ("tile", None) if not tk.digits_too_long(word) else None
    if _is_word(word):
        return ("word", word)
    return None


_MARG_PRIORITY: Final = (_CARD, _SCORECARD, _TILE)  # the priority-2 terminals a ``marg`` may be


def _verb(word: str) -> bool:
    """Whether ``word`` is read as a module's verb (a WORD that is no keyword)."""
    return _is_word(word) and word.lower() not in _KEYWORDS and not _prefix_token(word)


# ----------------------------------------------------------------------------- the words

Word = tuple[str, int, bool]  # text, column, followed by a comma


def _words(line: str) -> tuple[list[Word], str | None, int] | None:
    """The words of a body line, its comment (text after ``#``, or None) and the column of
    the first word; None when the line is not for the fast path."""
    if '"' in line or "{" in line:
        return _scan_words(line)
    comment = None
    cut = line.find("#")
    if cut >= 0:
        if cut and line[cut - 1] != " ":
            return None
        comment = line[cut + 1 :].strip()
        line = line[:cut]
    body = line.rstrip(" ")
    start = len(body) - len(body.lstrip(" "))
    out: list[Word] = []
    col = start + 1
    for w in body[start:].split(" "):
        if not w:
            col += 1
            continue
        if w == ",":
            return None
        if w[-1] == ",":
            out.append((w[:-1], col, True))
        else:
            out.append((w, col, False))
        col += len(w) + 1
    return out, comment, start + 1


def _scan_words(line: str) -> tuple[list[Word], str | None, int] | None:
    out: list[Word] = []
    comment = None
    after_blank = True
    for m in _SCAN.finditer(line):
        kind = m.lastgroup
        if kind == "s":
            after_blank = True
            continue
        if kind == "x" or not after_blank:
            return None
        if kind == "c":
            comment = m.group()[1:].strip()
            break
        w = m.group()
        col = m.start() + 1
        if w == ",":
            return None
        if w[-1] == ",":
            out.append((w[:-1], col, True))
        else:
            out.append((w, col, False))
        after_blank = False
    first = out[0][1] if out else 1
    return out, comment, first


def _notes(words: list[Word], ln: int) -> tuple[tuple[Annotation, ...], int] | None:
    """Annotations at the end of ``words``: (notes, index where they start)."""
    end = len(words)
    i = end
    while i and words[i - 1][0][:1] == "{":
        i -= 1
    if i == end:
        return (), end
    notes = []
    for w, col, sep in words[i:end]:
        # a comma may follow the last word only (it ends the action; callers see to it)
        if (sep and col != words[-1][1]) or not _ANNOTATION.fullmatch(w):
            return None
        notes.append(_R_ANNOTATION(w[1:-1].strip(), _tnew(_POS_CLASS, (ln, col))))
    return tuple(notes), i


def _groups(words: list[Word], begin: int) -> list[list[Word]] | None:
    """``words[begin:]`` cut at the commas (a comma after the last word is an error)."""
    groups: list[list[Word]] = []
    cur: list[Word] = []
    for w in words[begin:]:
        if not w[0]:
            return None
        cur.append(w)
        if w[2]:
            groups.append(cur)
            cur = []
    if not cur:
        return None
    groups.append(cur)
    return groups


# ---------------------------------------------------------------------------- actions


def _tile_at(word: str, ln: int, col: int, optional: bool = False) -> tuple[Any, Coord] | None:
    """``T9ne@1,2`` (for ``remove`` the tile may be left out: ``@1,2``)."""
    tile_text, at, xy = word.partition("@")
    if not at:
        return None
    c = _coord(xy)
    if c is None:
        return None
    if not tile_text:
        return (None, c) if optional else None
    t = _make_tile(tile_text, _tnew(_POS_CLASS, (ln, col)))
    if t is None:
        return None
    return t, c


def _action(words: list[Word], ln: int) -> Any:
    if words[-1][0][0] == "{":
        got = _notes(words, ln)
        if got is None:
            return None
        notes, end = got
        if end == 0:
            return None
    else:
        notes, end = (), len(words)
    verb, vcol, _ = words[0]
    pos = _tnew(_POS_CLASS, (ln, vcol))
    n = end - 1  # arguments
    if verb == "take":
        cards = []
        for w, col, _ in words[1:end]:
            c = _make_card(w, _tnew(_POS_CLASS, (ln, col)))
            if c is None:
                return None
            cards.append(c)
        return TakeMoney(tuple(cards), pos, notes)
    if verb == "buy":
        i = 1
        cur = None
        if n >= 1 and (f := _field(words[1][0])) is not _MISSING:
            cur = f
            i = 2
        if end < i + 2 or words[i + 1][0] != "pay":
            return None
        tile = _make_tile(words[i][0], _tnew(_POS_CLASS, (ln, words[i][1])))
        if tile is None:
            return None
        paid = []
        for w, col, _ in words[i + 2 : end]:
            c = _make_card(w, _tnew(_POS_CLASS, (ln, col)))
            if c is None:
                return None
            paid.append(c)
        return Buy(cur, tile, tuple(paid), pos, notes)
    if verb == "place" or verb == "build":
        if n != 1:
            return None
        got2 = _tile_at(words[1][0], ln, words[1][1])
        if got2 is None:
            return None
        if verb == "place":
            return Place(got2[0], got2[1], pos, notes)
        return _R_BUILD_FROM_RESERVE(got2[0], got2[1], pos, notes)
    if verb == "reserve":
        if n != 1:
            return None
        tile = _make_tile(words[1][0], _tnew(_POS_CLASS, (ln, words[1][1])))
        return None if tile is None else _R_RESERVE(tile, pos, notes)
    if verb == "remove":
        if n != 1:
            return None
        got2 = _tile_at(words[1][0], ln, words[1][1], optional=True)
        return None if got2 is None else _R_REMOVE_TO_RESERVE(got2[0], got2[1], pos, notes)
    if verb == "swap":
        if n not in (1, 3):
            return None
        got2 = _tile_at(words[1][0], ln, words[1][1])
        if got2 is None:
            return None
        out = None
        if n == 3:
            if words[2][0] != "for":
                return None
            out = _make_tile(words[3][0], _tnew(_POS_CLASS, (ln, words[3][1])))
            if out is None:
                return None
        return _R_SWAP(got2[0], got2[1], out, pos, notes)
    if verb == "give":
        if n != 2:
            return None
        tile = _make_tile(words[1][0], _tnew(_POS_CLASS, (ln, words[1][1])))
        if tile is None:
            return None
        w, col, _ = words[2]
        if w == "dirk":
            return _R_GIVE(tile, None, pos, notes)
        name = _name(w)
        return (
            None
            if name is None
            else _R_GIVE(tile, PlayerRef(name, _tnew(_POS_CLASS, (ln, col))), pos, notes)
        )
    if not _verb(verb):
        return None
    args = _margs_of(words[1:end], ln)
    return None if args is None else _R_MODULE_ACTION(verb, args, pos, notes)


def _margs_of(words: list[Word], ln: int) -> tuple[GenericArg, ...] | None:
    args = []
    for w, col, _ in words:
        a = _marg(w, _tnew(_POS_CLASS, (ln, col)))
        if a is None:
            return None
        args.append(a)
    return tuple(args)


def _turn(words: list[Word], comment: str | None, ln: int) -> Turn | None:
    i = 0
    number = None
    pos = None
    player = None
    w, col, sep = words[0]
    if w[-1] == "." and not sep:
        number = _number(w[:-1])
        if number is None:
            return None
        pos = _tnew(_POS_CLASS, (ln, col))
        i = 1
    if i < len(words):
        w, col, sep = words[i]
        if w[-1] == ":" and not sep:
            name = _name(w[:-1])
            if name is None:
                return None
            player = PlayerRef(name, _tnew(_POS_CLASS, (ln, col)))
            if pos is None:
                pos = player.pos
            i += 1
    groups = _groups(words, i)
    if groups is None:
        return None
    actions = []
    for g in groups:
        a = _action(g, ln)
        if a is None:
            return None
        actions.append(a)
    return Turn(number, player, tuple(actions), pos or actions[0].pos, (), comment)


# ------------------------------------------------------------------------ chance events


def _market_entry(word: str, ln: int, col: int) -> tuple[Any, Any] | None:
    head, colon, tail = word.partition(":")
    if colon:
        cur = _field(head)
        if cur is not _MISSING:
            t = _make_tile(tail, _tnew(_POS_CLASS, (ln, col + len(head) + 1)))
            return None if t is None else (cur, t)
    t = _make_tile(word, _tnew(_POS_CLASS, (ln, col)))
    return None if t is None else (None, t)


def _event(words: list[Word], ln: int) -> Any:
    verb, vcol, _ = words[0]
    pos = _tnew(_POS_CLASS, (ln, vcol))
    if verb == "display":
        cards = []
        for w, col, _ in words[1:]:
            c = _make_card(w, _tnew(_POS_CLASS, (ln, col)))
            if c is None:
                return None
            cards.append(c)
        return DisplayReveal(tuple(cards), pos)
    if verb == "market":
        entries = []
        for w, col, _ in words[1:]:
            e = _market_entry(w, ln, col)
            if e is None:
                return None
            entries.append(e)
        return MarketDraw(tuple(entries), pos)
    if verb == "deal":
        if len(words) < 2:
            return None
        name = _name(words[1][0])
        if name is None:
            return None
        cards = []
        for w, col, _ in words[2:]:
            c = _make_card(w, _tnew(_POS_CLASS, (ln, col)))
            if c is None:
                return None
            cards.append(c)
        return _R_DEAL(PlayerRef(name, _tnew(_POS_CLASS, (ln, words[1][1]))), tuple(cards), pos)
    if verb == "reshuffle":
        return _R_RESHUFFLE(pos) if len(words) == 1 else None
    if verb == "dirk":
        tiles = []
        for w, col, _ in words[1:]:
            t = _make_tile(w, _tnew(_POS_CLASS, (ln, col)))
            if t is None:
                return None
            tiles.append(t)
        return _R_DIRK_DRAW(tuple(tiles), pos)
    if not _verb(verb):
        return None
    args = _margs_of(words[1:], ln)
    return None if args is None else _R_MODULE_CHANCE(verb, args, pos)


def _chance(words: list[Word], comment: str | None, ln: int) -> Chance | None:
    _, col, sep = words[0]
    if sep or len(words) < 2:
        return None
    if words[-1][0][0] == "{":
        got = _notes(words, ln)
        if got is None:
            return None
        notes, end = got
    else:
        notes, end = (), len(words)
    groups = _groups(words[:end], 1)
    if groups is None:
        return None
    events = []
    for g in groups:
        e = _event(g, ln)
        if e is None:
            return None
        events.append(e)
    return Chance(tuple(events), _tnew(_POS_CLASS, (ln, col)), notes, comment)


# -------------------------------------------------------------------------- other lines


def _start(words: list[Word], comment: str | None, ln: int) -> StartPlayer | None:
    got = _notes(words, ln)
    if got is None:
        return None
    notes, end = got
    if end not in (2, 3) or any(w[2] for w in words[:end]):
        return None
    youngest = False
    if end == 3:
        if words[2][0] != "youngest":
            return None
        youngest = True
    name = _name(words[1][0])
    if name is None:
        return None
    player = PlayerRef(name, _tnew(_POS_CLASS, (ln, words[1][1])))
    return StartPlayer(player, youngest, _tnew(_POS_CLASS, (ln, words[0][1])), notes, comment)


def _claim_key(word: str) -> Any:
    """The key of a claimed breakdown figure, or None (the line goes to Lark)."""
    low = word.lower()
    if low in tk.WALL_KEYS:
        return "wall"
    if low in TYPE_SPELLINGS:
        return TYPE_SPELLINGS[low]
    if not _is_word(word):
        return None
    from referee.scoring.categories import CATEGORIES, category_for_claim

    found = category_for_claim(low)
    return None if found is None else CATEGORIES[found.lower()].claim_key


def _claim_part(text: str, ln: int, col: int) -> ClaimPart | None:
    key_text, eq, value = text.partition("=")
    if not eq or not key_text:
        return None
    key = _claim_key(key_text)
    if key is None:
        return None
    if value[:1] == "-":
        n = _number(value[1:])
        if n is None:
            return None
        n = -n
    else:
        n = _number(value)
        if n is None:
            return None
    return ClaimPart(key, n, _tnew(_POS_CLASS, (ln, col)))


def _claim(words: list[Word], ln: int) -> Claim | None:
    w, col, _ = words[0]
    if w == "dirk":
        player = None
    else:
        name = _name(w)
        if name is None:
            return None
        player = PlayerRef(name, _tnew(_POS_CLASS, (ln, col)))
    points = total = None
    i = 1
    n = len(words)
    if i < n and words[i][0][:1] in ("+", "-"):  # "+21", or "-3" (penalties outweigh)
        points = _number(words[i][0][1:])
        if points is None:
            return None
        if words[i][0][0] == "-":
            points = -points
        i += 1
    if i < n and words[i][0][:1] == "=":
        negative = words[i][0][1:2] == "-"  # "=-3": a total below zero
        total = _number(words[i][0][2:] if negative else words[i][0][1:])
        if total is None:
            return None
        if negative:
            total = -total
        i += 1
    parts: list[ClaimPart] = []
    if i < n:
        w, col, _ = words[i]
        if w[:1] != "(":
            return None
        # the parts: "(T=13," "G=5," "wall=3)"
        rest = words[i:]
        for k, (w, col, sep) in enumerate(rest):
            last = k == len(rest) - 1
            if k == 0:
                w, col = w[1:], col + 1
            if last:  # its comma (if any) ends the claim
                if w[-1:] != ")":
                    return None
                w = w[:-1]
            elif not sep:
                return None
            p = _claim_part(w, ln, col)
            if p is None:
                return None
            parts.append(p)
    pos = player.pos if player is not None else _tnew(_POS_CLASS, (ln, words[0][1]))
    return Claim(player, points, total, tuple(parts), pos)


def _scoring(words: list[Word], comment: str | None, ln: int) -> Scoring | None:
    got = _notes(words, ln)
    if got is None:
        return None
    notes, end = got
    if end < 2 or words[0][2] or words[1][2]:
        return None
    text = words[1][0]
    colon = text[-1:] == ":"
    number = _number(text[:-1] if colon else text)
    if number is None:
        return None
    claims: list[Claim] = []
    if colon:
        if end == 2:
            return None  # "scoring 1:" with no claim: not what fmt writes
        # claims are cut at commas outside the parentheses of their parts
        cur: list[Word] = []
        depth = False
        for w in words[2:end]:
            cur.append(w)
            if w[0][:1] == "(":
                depth = True
            if depth and w[0][-1:] == ")":
                depth = False
            if w[2] and not depth:
                c = _claim(cur, ln)
                if c is None:
                    return None
                claims.append(c)
                cur = []
        if not cur or depth:
            return None
        c = _claim(cur, ln)
        if c is None:
            return None
        claims.append(c)
    elif end != 2:
        return None
    return Scoring(number, tuple(claims), _tnew(_POS_CLASS, (ln, words[0][1])), notes, comment)


def _award(words: list[Word], ln: int) -> Award | None:
    entry = _market_entry(words[0][0], ln, words[0][1])
    if entry is None:
        return None
    cur, tile = entry
    n = len(words)
    player = None
    at = None
    reserve = False
    if n == 2 and words[1][0] == "none":
        pass
    elif n in (2, 3):
        w, col, _ = words[1]
        head, sign, xy = w.rpartition("@")
        if sign and head and (c := _coord(xy)) is not None:
            if n != 2:
                return None
            w, at = head, c
        name = _name(w)
        if name is None:
            return None
        player = PlayerRef(name, _tnew(_POS_CLASS, (ln, col)))
        if n == 3:
            if words[2][0] != "reserve":
                return None
            reserve = True
    else:
        return None
    return Award(cur, tile, player, at, reserve, tile.pos)


def _distribute(words: list[Word], comment: str | None, ln: int) -> Distribution | None:
    if words[0][2]:
        return None
    got = _notes(words, ln)
    if got is None:
        return None
    notes, end = got
    groups = _groups(words[:end], 1)
    if groups is None:
        return None
    awards = []
    for g in groups:
        a = _award(g, ln)
        if a is None:
            return None
        awards.append(a)
    return Distribution(tuple(awards), _tnew(_POS_CLASS, (ln, words[0][1])), notes, comment)


_HEADER: Final = re.compile(r'( *)\[([^\W\d][\w\'-]*) ("(?:[^"\\\n]|\\.)*")\](?: *(#.*))?')


def _header(line: str, ln: int) -> Header | None:
    m = _HEADER.fullmatch(line)
    if m is None:
        return None
    name = m[2]
    shown = _header_names.get(name, _MISSING)
    if shown is _MISSING:
        shown = _header_name(name)
    if shown is None:
        return None
    comment = m[4][1:].strip() if m[4] is not None else None
    return Header(shown, tk.unquote(m[3]), _tnew(_POS_CLASS, (ln, len(m[1]) + 2)), comment)


_header_names: Final[dict[str, Any]] = {}  # a header's name as written -> as shown (None: to Lark)


def _header_name(name: str) -> str | None:
    """How the name of a header reads (a known header in its own spelling), or None: after
    "[" the parser accepts a WORD only, so a keyword's letters are a plain name here
    ([Youngest "Anna"]); a name a card or tile pattern would cut goes to Lark. Kept per name
    (the same few start every game)."""
    from referee.notation.parser import _KNOWN_BY_LOWER

    shown = None if _prefix_token(name) else _KNOWN_BY_LOWER.get(name.lower(), name)
    if len(_header_names) >= _SETTINGS.limit:
        _header_names.clear()
    _header_names[name] = shown
    return shown


# ------------------------------------------------------------ canonical lines, memoised
# The same few thousand actions and events ("take Di6", "place T9es@1,0", "market Gu:G8ne")
# come back in every game. A canonical turn or chance line is cut at its ", " into groups; a
# group seen for the first time is read where it stands and marked, and when seen again its
# text is read by _action or _event as above at a stand-in line number (_LN0) and its own
# columns. From that record a builder is made that makes the same records at any line and
# column: every Pos of the stand-in line is made anew, the other fields are the values read
# (immutable: cards, tiles, coordinates, names). Records of one shape (the same classes in the
# same places, e.g. "take" with two cards) share one builder, generated as Python source once
# per shape (as dataclasses makes __init__; the source names only the record classes, their
# setters and indexes into the values, never text of the record). Whole lines seen again get
# templates the same way (below). A line that is not plain (a string, an annotation, a
# comment) or not canonical (no number or player, a group a comma or blank does not cut as the
# general path does) goes to the general path.

_LN0: Final = -1  # the stand-in line number of the groups read for the memo (no line has it)


class _Settings:
    """The memo's settings in one object. The compiled build reads a native object's
    attributes directly (a module global that is not ``Final`` is a dict look-up there, and a
    ``Final`` one a constant no test could change); tests set them with
    ``monkeypatch.setattr(fast._SETTINGS, name, value)``."""

    def __init__(self, memo: bool) -> None:
        # the memo of templates and generated builders (records in Python); off: the
        # compiled records' memo (_native_groups)
        self.memo = memo
        self.limit = 20_000  # groups remembered per table (the table starts afresh when full)
        self.hot = 32  # a shape gets its builder at its hot-th use (see _builder)


_SETTINGS: Final = _Settings(_MEMO)


class _NoTemplate(Exception):
    """A record holding a value the builders cannot make anew (none does today)."""


# A shape: the classes of a record and of the records inside, and where its positions are:
# a record is ``(class, shape of each field...)``, a tuple holding records ``(tuple, ...)``, a
# position made anew _POS, a value taken as it is None. Two records of one shape are built by
# one builder; the values (the columns of the positions, the other values in order) differ.
Shape: TypeAlias = "Any"
_POS: Final = "pos"


def _walk(x: Any, consts: list[Any], ln: int, d: int) -> Shape:
    """The shape of ``x`` (read at line ``ln``, columns shifted by ``d``); its values are
    appended to ``consts`` (a position's column less ``d``, every other value as it is)."""
    t = type(x)
    get = _FIELDS_OF.get(t)
    if get is not None:
        items = get(x)
    elif t is tuple:
        if _VALUE_TYPES.issuperset(map(type, x)):  # only plain values (told in C): one value
            consts.append(x)
            return None
        items = x
        mark = len(consts)
    else:
        return _walk_other(x, consts, ln, d)
    # The items of a record or a tuple. An item of a plain value's type and an item that is a
    # position of the line are taken here, without a call: what _walk_other gives for them.
    inner: list[Shape] = []
    for v in items:
        tv = type(v)
        if tv in _VALUE_TYPES:
            consts.append(v)
            inner.append(None)
        elif tv is _POS_CLASS and v.line == ln:
            consts.append(v.column - d)
            inner.append(_POS)
        else:
            inner.append(_walk(v, consts, ln, d))
    if get is not None:
        return (t, *inner)
    if inner.count(None) < len(inner):
        return (tuple, *inner)
    del consts[mark:]  # no record or position inside: the tuple is one value
    consts.append(x)
    return None


# Types whose objects _walk takes as one value: no record class, no tuple (a named tuple may
# hold a record), no position (found as they come: cards, tiles, enums, ints, strings, None).
_VALUE_TYPES: Final[set[type]] = set()


def _walk_other(x: Any, consts: list[Any], ln: int, d: int) -> Shape:
    """:func:`_walk` of ``x``, neither a record nor a plain tuple."""
    t = type(x)
    if t is _model.Pos:
        if x.line == ln:
            consts.append(x.column - d)
            return _POS
    elif isinstance(x, tuple):
        if _walk(tuple(x), [], ln, d) is not None:
            raise _NoTemplate(t.__name__)  # e.g. a record inside a named tuple
    else:
        _VALUE_TYPES.add(t)
    consts.append(x)
    return None


def _fields_getter(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """Every field of a record of ``cls`` at once, in the dataclass's order."""
    names = tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda x: (one(x),)
    return lambda x: ()


_FIELDS_OF: Final = {cls: _fields_getter(cls) for cls in _MAKER_NAMES}  # what _walk reads


def _source(shape: Shape) -> str:
    """The body of the builder of ``shape``: ``build(ln, d, K)`` makes its records at line
    ``ln``, columns shifted by ``d``, from its values ``K`` (in :func:`_walk`'s order); each
    record is built by statements (as the makers build it, without their calls) into a local."""
    code: list[str] = []
    at = 0  # the next value's index

    def emit(k: Shape) -> str:
        nonlocal at
        if k is None:
            at += 1
            return f"K[{at - 1}]"
        if k == _POS:
            at += 1
            local = f"o{len(code)}"
            code.append(f"{local} = tnew(Pos, (ln, d + K[{at - 1}]))")
            return local
        if k[0] is tuple:
            return "(" + "".join(emit(v) + ", " for v in k[1:]) + ")"
        else:
            name, args = k[0].__name__, [emit(v) for v in k[1:]]
        local = f"o{len(code)}"
        if k[0] in _TWINS:  # plain stores into a twin, then the record's class (see makers)
            code.append(f"{local} = {name}_twin()")
            fields = k[0].__dataclass_fields__
            code.extend(f"{local}.{f} = {a}" for f, a in zip(fields, args, strict=True))
            code.append(f"{local}.__class__ = {name}")
        else:
            code.append(f"{local} = new({name})")
            code.extend(f"{name}_{i}({local}, {a})" for i, a in enumerate(args))
        return local

    code.append(f"return {emit(shape)}")
    return "\n    ".join(code)


# what the builders' code names: the record classes and their fields' setters (``Turn_0``),
# and tuple.__new__ for the positions
_SPACE: Final[dict[str, Any]] = {"new": _new, "tnew": tuple.__new__, "Pos": _model.Pos}
_TWINS: Final[dict[type, type]] = {}  # the record classes with a slots twin (referee.makers)
for _cls, _name_of in _MAKER_NAMES.items():
    _SPACE[_name_of] = _cls
    _twin = slots_twin(_cls) if _MEMO else None
    if _twin is not None:
        _TWINS[_cls] = _SPACE[f"{_name_of}_twin"] = _twin
    if _cls not in _NATIVE:  # a native class's fields are no slots (its builders call it)
        for _i, _f in enumerate(_cls.__dataclass_fields__):  # type: ignore[attr-defined]
            _SPACE[f"{_name_of}_{_i}"] = _cls.__dict__[_f].__set__


Builder: TypeAlias = "Callable[[int, int, tuple[Any, ...]], Any]"

# The compiled builders (SELF_COMPILED, records in Python): a shape made once into a tree of
# nodes, which _run walks to build its records as the generated code does (the records filled
# through their twins, a position per _POS), without an interpreter frame.
_VALUE: Final = 0
_POS_CLASS: Final[Any] = _model.Pos  # also what every function above makes positions of
_POSITION: Final = 1
_TUPLE: Final = 2
_RECORD: Final = 3
_NATIVE_RECORD: Final = 4  # a native record: made by its constructor (_native_record)


class _Node:
    """A value, position, tuple or record of a shape (``kind``): a value or a position's
    column is ``K[index]``; a tuple or a record is made of ``items`` (a record: its class
    ``cls``, filled as its ``twin`` by field ``names``)."""

    def __init__(
        self, kind: int, index: int, cls: Any, twin: Any, names: tuple[str, ...], items: list[_Node]
    ) -> None:
        self.kind = kind
        self.index = index
        self.cls = cls
        self.twin = twin
        self.names = names
        self.items = items


def _nodes(shape: Shape, at: list[int]) -> _Node | None:
    """The node of ``shape``, its values numbered from ``at[0]`` on (as :func:`_source`
    numbers them), or None: a record class without a twin."""
    if shape is None or shape == _POS:
        at[0] += 1
        return _Node(_VALUE if shape is None else _POSITION, at[0] - 1, None, None, (), [])
    items: list[_Node] = []
    for k in shape[1:]:
        node = _nodes(k, at)
        if node is None:
            return None
        items.append(node)
    cls = shape[0]
    if cls is tuple:
        return _Node(_TUPLE, 0, None, None, (), items)
    twin = _TWINS.get(cls)
    if twin is None:
        if cls in _NATIVE:
            return _Node(_NATIVE_RECORD, 0, cls, None, (), items)
        return None
    return _Node(_RECORD, 0, cls, twin, tuple(cls.__dataclass_fields__), items)


def _run(node: _Node, ln: int, d: int, K: tuple[Any, ...]) -> Any:
    """The object of ``node`` at line ``ln``, columns shifted by ``d``, from the values ``K``."""
    kind = node.kind
    if kind == _VALUE:
        return K[node.index]
    if kind == _POSITION:
        return _tnew(_POS_CLASS, (ln, d + K[node.index]))
    if kind == _TUPLE:
        return tuple([_run(item, ln, d, K) for item in node.items])
    if kind == _NATIVE_RECORD:
        return _native_record(node.cls, [_run(item, ln, d, K) for item in node.items])
    o: Any = node.twin()
    names = node.names
    for i, item in enumerate(node.items):
        if item.kind == _VALUE:
            setattr(o, names[i], K[item.index])
        else:
            setattr(o, names[i], _run(item, ln, d, K))
    o.__class__ = node.cls
    return o


def _native_record(cls: type, a: list[Any]) -> Any:
    """The native record of ``cls`` with the fields ``a`` (all of them, in order): the compiled
    reader calls each native class's constructor itself (a call in C; ``cls(*a)``, the class
    held as an object, goes through the type's call)."""
    if cls is CardRef:
        return CardRef(a[0], a[1])
    if cls is PlayerRef:
        return PlayerRef(a[0], a[1])
    if cls is TileRef:
        return TileRef(a[0], a[1], a[2], a[3], a[4])
    if cls is TakeMoney:
        return TakeMoney(a[0], a[1], a[2])
    if cls is Buy:
        return Buy(a[0], a[1], a[2], a[3], a[4])
    if cls is Place:
        return Place(a[0], a[1], a[2], a[3])
    if cls is DisplayReveal:
        return DisplayReveal(a[0], a[1])
    if cls is MarketDraw:
        return MarketDraw(a[0], a[1])
    if cls is Turn:
        return Turn(a[0], a[1], a[2], a[3], a[4], a[5])
    if cls is Chance:
        return Chance(a[0], a[1], a[2], a[3])
    return cls(*a)


class _ShapeBuilder:
    """A shape's builder as compiled code: called as the generated ``build(ln, d, K)``."""

    def __init__(self, root: _Node) -> None:
        self.root = root

    def __call__(self, ln: int, d: int, K: tuple[Any, ...]) -> Any:
        return _run(self.root, ln, d, K)


def _shape_builder(shape: Shape) -> _ShapeBuilder | None:
    """The compiled builder of ``shape``, or None (a record class without a twin)."""
    root = _nodes(shape, [0])
    return None if root is None else _ShapeBuilder(root)


_builders: Final[dict[Shape, Builder]] = {}
_uses: Final[dict[Shape, int]] = {}  # the uses of the shapes without a builder yet
# A shape gets its builder at its _SETTINGS.hot-th use (generating one costs about as much as
# reading a few hundred groups); until then its lines go to the general path, so checking one
# game in a new process does not pay for builders it hardly uses.


def _template(rec: Any, ln: int = _LN0, d: int = 0) -> tuple[Shape, tuple[Any, ...]] | None:
    """The shape of ``rec`` and its values (``rec`` read at line ``ln``, its columns shifted
    by ``d``), or None."""
    consts: list[Any] = []
    try:
        shape = _walk(rec, consts, ln, d)
    except _NoTemplate:
        return None
    return shape, tuple(consts)


def _builder(shape: Shape) -> Builder | None:
    """The builder of a shape, once the shape is used often enough."""
    build = _builders.get(shape)
    if build is None:
        uses = _uses[shape] = _uses.get(shape, 0) + 1
        if uses < _SETTINGS.hot:
            return None
        if len(_builders) >= _SETTINGS.limit:
            _builders.clear()
            _uses.clear()
        build = _shape_builder(shape) if SELF_COMPILED else None
        if build is None:
            space = dict(_SPACE)
            exec(f"def build(ln, d, K):\n    {_source(shape)}\n", space)
            build = space["build"]
        _builders[shape] = build
    return build


# a group's text -> its builder (None until its shape is hot), values and shape
Template: TypeAlias = "tuple[Builder | None, tuple[Any, ...], Shape]"
Memo: TypeAlias = "dict[str, Template | None]"
_actions: Final[Memo] = {}
_events: Final[Memo] = {}
# a group or line text seen once, told apart by identity (``is _SEEN``): typed Any so that the
# compiled build keeps this one object (mypyc holds a value typed as a fixed-length tuple
# unboxed and boxes a new tuple at each use, so ``is`` would never match)
_SEEN: Final[Any] = (None, (), None)
_UNSEEN: Final[Any] = object()


def _group_words(text: str, d: int = 0) -> list[Word] | None:
    """The words of one group of a plain line (no string, annotation or comment: the callers
    see to it), its columns shifted by ``d`` (from ``d + 1``), or None: not read so (what
    :func:`_words` gives for such a text, in one split)."""
    # a group the general path may cut otherwise (a blank at either end) goes there
    if text[:1] == " " or text[-1:] == " ":
        return None
    out: list[Word] = []
    col = d + 1
    if text and "  " not in text and ", " not in text and text[-1] != ",":
        # the common group: single blanks (no empty word), no word ending with a comma: the
        # loop below without its checks
        for w in text.split(" "):
            out.append((w, col, False))
            col += len(w) + 1
        return out
    for w in text.split(" "):
        if not w:  # two blanks
            col += 1
            continue
        if w[-1] == ",":  # a comma the cut at ", " left: not read so
            return None
        out.append((w, col, False))
        col += len(w) + 1
    return out or None


def _first_group(
    memo: Memo, read: Callable[[list[Word], int], Any], text: str, ln: int, d: int
) -> Any:
    """The record of a group seen for the first time, read where it stands (line ``ln``,
    columns shifted by ``d``), as the general path reads it; the group is marked (its template
    is made when it is seen again: most groups of a file are seen once or many times)."""
    words = _group_words(text, d)
    rec = (
        None
        if words is None
        else _read_group(read, words, ln)
        if SELF_COMPILED
        else read(words, ln)
    )
    if len(memo) >= _SETTINGS.limit:
        memo.clear()
    memo[text] = None if rec is None else _SEEN
    return rec


def _memo_group(
    memo: Memo, read: Callable[[list[Word], int], Any], text: str, ln: int, d: int
) -> tuple[Any, Template | None]:
    """The record of a group seen for the second time, read where it stands (line ``ln``,
    columns shifted by ``d``), and its template, made from that record (as from the group
    read at any other line: every position of the line is a value less ``d``), which is now
    its memo entry; (None, None) when not read so."""
    words = _group_words(text, d)
    rec = (
        None
        if words is None
        else _read_group(read, words, ln)
        if SELF_COMPILED
        else read(words, ln)
    )
    template = None
    if rec is not None:
        shape = _template(rec, ln, d)
        if shape is not None:
            template = (_builder(shape[0]), shape[1], shape[0])
    memo[text] = template
    return rec, template


# A group's template as one part of a line's: its shape, its values, its columns' shift.
Part: TypeAlias = "tuple[Shape, tuple[Any, ...], int]"


def _plain_groups(
    memo: Memo,
    read: Callable[[list[Word], int], Any],
    text: str,
    ln: int,
    col: int,
    parts: list[Part | None] | None = None,
) -> tuple[Any, ...] | None:
    """The records of ``text`` (groups parted by ", ", the first at column ``col``). With
    ``parts``, each group's template is appended to it while every group has one (a group
    read for the first time has none: then ``parts`` ends with None).

    A group seen before is built by its shape's builder; one whose template is made now
    (its second sight) or whose shape has no builder yet is read where it stands."""
    out = []
    d = col - 1
    for g in text.split(", "):
        got = memo.get(g, _UNSEEN)
        if got is _UNSEEN:
            rec = _first_group(memo, read, g, ln, d)
            if rec is None:
                return None
            out.append(rec)
            if parts is not None:
                parts.append(None)
                parts = None
            d += len(g) + 2
            continue
        if got is _SEEN:
            rec, got = _memo_group(memo, read, g, ln, d)
            if rec is None:
                return None
        elif got is None:
            return None
        else:
            # the entry taken apart once (compiled: ``got`` is unboxed once into a native
            # tuple, not looked into with a boxed index per item)
            entry: Template = got
            build, values, shape = entry
            if build is None:
                build = _builder(shape)
                if build is not None:
                    memo[g] = (build, values, shape)
            if build is not None:
                rec = _build(build, ln, d, values) if SELF_COMPILED else build(ln, d, values)
            else:  # its shape is not hot yet: read where it stands
                words = _group_words(g, d)
                rec = (
                    None
                    if words is None
                    else _read_group(read, words, ln)
                    if SELF_COMPILED
                    else read(words, ln)
                )
                if rec is None:
                    return None
        out.append(rec)
        if parts is not None:
            if got is None:  # a record no template holds (none today)
                parts.append(None)
                parts = None
            else:
                parts.append((got[2], got[1], d))
        d += len(g) + 2
    return tuple(out)


# ------------------------------------------------------------------ the compiled build's memo
# Compiled records are native classes: no builder can be generated for them (no code made at
# run time on the compiled path) and none fills their slots. So the compiled reader keeps, per
# group text, the record as first read (its line, its columns' shift) and makes it anew at
# another line and column by walking it: every record is made again by calling its class with
# its fields, every position of the first line at the new line and column, every other value
# taken as it is (what a builder does with a template's values). No call here fills a slot.

# the record classes (frozen dataclasses, every field an __init__ argument) -> their fields' getter
_RECORD_FIELDS: Final[dict[type, Callable[[Any], tuple[Any, ...]]]] = {
    cls: _fields_getter(cls)
    for cls in vars(_model).values()
    if isinstance(cls, type) and hasattr(cls, "__dataclass_fields__")
}
_DECLINED: Final[Any] = object()  # a group text the group reader declines
_native_actions: Final[dict[str, Any]] = {}  # group text -> (record, line, shift) or _DECLINED
_native_events: Final[dict[str, Any]] = {}


def _made_anew(x: Any, ln0: int, ln: int, shift: int) -> Any:
    """``x`` (read at line ``ln0``) as read at line ``ln``, its columns shifted by ``shift``."""
    t = type(x)
    if t is str or t is int or x is None:
        return x
    if t is Pos:
        return Pos(ln, x[1] + shift) if x[0] == ln0 else x
    get = _RECORD_FIELDS.get(t)
    if get is not None:
        return t(*[_made_anew(v, ln0, ln, shift) for v in get(x)])
    if isinstance(x, tuple) and x:
        items = [_made_anew(v, ln0, ln, shift) for v in x]
        for new, old in zip(items, x, strict=True):
            if new is not old:
                return tuple(items) if t is tuple else t(*items)
    return x


def _native_groups(
    memo: dict[str, Any], read: Callable[[list[Word], int], Any], text: str, ln: int, col: int
) -> tuple[Any, ...] | None:
    """:func:`_plain_groups` for compiled records: every group read where it first stands,
    made anew from that record wherever it comes again."""
    out = []
    d = col - 1
    for g in text.split(", "):
        got = memo.get(g)
        if got is None:
            words = _group_words(g, d)
            rec = None if words is None else read(words, ln)
            if len(memo) >= _SETTINGS.limit:
                memo.clear()
            memo[g] = _DECLINED if rec is None else (rec, ln, d)
        elif got is _DECLINED:
            rec = None
        else:
            rec = _made_anew(got[0], got[1], ln, d - got[2])
        if rec is None:
            return None
        out.append(rec)
        d += len(g) + 2
    return tuple(out)


# a shape -> the indexes of its positions' values
_positions: Final[dict[Shape, tuple[int, ...]]] = {}


def _positions_of(shape: Shape) -> tuple[int, ...]:
    """Which of a shape's values (in :func:`_walk`'s order) are positions' columns."""
    found = _positions.get(shape)
    if found is None:
        out: list[int] = []
        at = 0

        def go(k: Shape) -> None:
            nonlocal at
            if k is None:
                at += 1
            elif k == _POS:
                out.append(at)
                at += 1
            else:
                for v in k[1:]:
                    go(v)

        go(shape)
        if len(_positions) >= _SETTINGS.limit:
            _positions.clear()
        found = _positions[shape] = tuple(out)
    return found


def _composed(parts: list[Part | None], d: int) -> tuple[Shape, list[Any]]:
    """The template of a tuple of groups from the groups' templates (what :func:`_walk` gives
    for their records read at one line, columns shifted by ``d``), without walking records.
    Called only when every part has a template (a None ends the list, see
    :func:`_plain_groups`). ``parts`` is typed with its None: compiled, a ``list[Part]`` is
    unboxed to a native tuple at each read, and a None there raised ``TypeError``."""
    consts: list[Any] = []
    shapes: list[Shape] = []
    for part in parts:
        if part is None:  # (never: see above)
            continue
        shape, values, at = part
        shapes.append(shape)
        shift = at - d
        if shift:
            moved = list(values)
            for i in _positions_of(shape):
                moved[i] += shift
            consts.extend(moved)
        else:
            consts.extend(values)
    return (tuple, *shapes), consts


# The records of a plain line around its groups, built as the builders build (the makers'
# statements without their calls): Turn(number, PlayerRef(name, Pos(ln, column)), actions,
# Pos(ln, 1), (), None) and Chance(events, Pos(ln, 1), (), None).
_LINE_SOURCE = """
def turn(number, name, column, actions, ln):
    p = tnew(Pos, (ln, column))
    r = new(PlayerRef); PlayerRef_0(r, name); PlayerRef_1(r, p)
    q = tnew(Pos, (ln, 1))
    o = new(Turn); Turn_0(o, number); Turn_1(o, r); Turn_2(o, actions); Turn_3(o, q)
    Turn_4(o, ()); Turn_5(o, None)
    return o

def chance(events, ln):
    q = tnew(Pos, (ln, 1))
    o = new(Chance); Chance_0(o, events); Chance_1(o, q); Chance_2(o, ()); Chance_3(o, None)
    return o
"""
# the same with the records' twins (see _source)
_TWIN_LINE_SOURCE = """
def turn(number, name, column, actions, ln):
    r = PlayerRef_twin(); r.name = name; r.pos = tnew(Pos, (ln, column))
    r.__class__ = PlayerRef
    o = Turn_twin(); o.number = number; o.player = r; o.actions = actions
    o.pos = tnew(Pos, (ln, 1)); o.notes = (); o.comment = None
    o.__class__ = Turn
    return o

def chance(events, ln):
    o = Chance_twin(); o.events = events; o.pos = tnew(Pos, (ln, 1)); o.notes = ()
    o.comment = None
    o.__class__ = Chance
    return o
"""


def _native_turn(number: int, name: str, column: int, actions: tuple[Any, ...], ln: int) -> Turn:
    """_LINE_SOURCE's ``turn`` for compiled records."""
    player = PlayerRef(name, _tnew(_POS_CLASS, (ln, column)))
    return Turn(number, player, actions, _tnew(_POS_CLASS, (ln, 1)), (), None)


def _native_chance(events: tuple[Any, ...], ln: int) -> Chance:
    """_LINE_SOURCE's ``chance`` for compiled records."""
    return Chance(events, _tnew(_POS_CLASS, (ln, 1)), (), None)


# the twins of the line records (SELF_COMPILED: _twin_turn and _twin_chance), or None
_PLAYER_REF_TWIN: Final[Any] = _TWINS.get(_model.PlayerRef)
_TURN_TWIN: Final[Any] = _TWINS.get(_model.Turn)
_CHANCE_TWIN: Final[Any] = _TWINS.get(_model.Chance)
_PLAYER_REF: Final[Any] = _model.PlayerRef
_TURN: Final[Any] = _model.Turn
_CHANCE: Final[Any] = _model.Chance


def _twin_turn(number: int, name: str, column: int, actions: tuple[Any, ...], ln: int) -> Turn:
    """_TWIN_LINE_SOURCE's ``turn`` as compiled code."""
    r: Any = _PLAYER_REF_TWIN()
    r.name = name
    r.pos = _tnew(_POS_CLASS, (ln, column))
    r.__class__ = _PLAYER_REF
    o: Any = _TURN_TWIN()
    o.number = number
    o.player = r
    o.actions = actions
    o.pos = _tnew(_POS_CLASS, (ln, 1))
    o.notes = ()
    o.comment = None
    o.__class__ = _TURN
    return o


def _twin_chance(events: tuple[Any, ...], ln: int) -> Chance:
    """_TWIN_LINE_SOURCE's ``chance`` as compiled code."""
    o: Any = _CHANCE_TWIN()
    o.events = events
    o.pos = _tnew(_POS_CLASS, (ln, 1))
    o.notes = ()
    o.comment = None
    o.__class__ = _CHANCE
    return o


_turn_record: Callable[[int, str, int, tuple[Any, ...], int], Turn] = _native_turn
_chance_record: Callable[[tuple[Any, ...], int], Chance] = _native_chance
if NATIVE_RECORDS:
    pass  # the native constructors (_native_turn, _native_chance)
elif SELF_COMPILED and None not in (_PLAYER_REF_TWIN, _TURN_TWIN, _CHANCE_TWIN):
    _turn_record = _twin_turn
    _chance_record = _twin_chance
else:
    _line_space = dict(_SPACE)
    _twinned = all(c in _TWINS for c in (_model.PlayerRef, _model.Turn, _model.Chance))
    exec(compiled(_TWIN_LINE_SOURCE if _twinned else _LINE_SOURCE), _line_space)
    _turn_record = _line_space["turn"]
    _chance_record = _line_space["chance"]

# the line records' makers and the group readers the line functions below pass on, as C statics
# of the compiled reader (a name that is not ``Final`` is a look-up in the module's dict there)
_TURN_RECORD: Final = _turn_record
_CHANCE_RECORD: Final = _chance_record
_ACTION: Final = _action
_EVENT: Final = _event


# The compiled reader's calls of a builder, a line record's maker and a group reader: a native
# call of the compiled function where the object is the one it stands for, instead of a call
# of the object through Python's call protocol (its arguments boxed, then parsed and unboxed
# again by the function's Python entry). Pure Python the callers call the objects as before
# (each call site asks ``SELF_COMPILED`` first).


def _build(build: Builder, ln: int, d: int, K: tuple[Any, ...]) -> Any:
    """``build(ln, d, K)``: a compiled shape builder's walk called natively."""
    if type(build) is _ShapeBuilder:
        return _run(build.root, ln, d, K)
    return build(ln, d, K)


def _line_turn(number: int, name: str, column: int, actions: tuple[Any, ...], ln: int) -> Turn:
    """``_TURN_RECORD(number, name, column, actions, ln)``, the native maker called natively."""
    if NATIVE_RECORDS:
        return _native_turn(number, name, column, actions, ln)
    return _TURN_RECORD(number, name, column, actions, ln)


def _line_chance(events: tuple[Any, ...], ln: int) -> Chance:
    """``_CHANCE_RECORD(events, ln)``, the native maker called natively."""
    if NATIVE_RECORDS:
        return _native_chance(events, ln)
    return _CHANCE_RECORD(events, ln)


def _read_group(read: Callable[[list[Word], int], Any], words: list[Word], ln: int) -> Any:
    """``read(words, ln)``; compiled, the two group readers called natively."""
    if SELF_COMPILED:
        if read is _ACTION:
            return _action(words, ln)
        if read is _EVENT:
            return _event(words, ln)
    return read(words, ln)


_TURN_HEAD: Final = re.compile(r"([0-9]+)\. ([^ ,:]+)")
# a turn line's head ``12. Ben`` (the text before its first ": ") -> its number, player name
# and the name's column, or None (not a canonical head); the positions are made per line
_heads: Final[dict[str, tuple[int, str, int] | None]] = {}


def _head(head: str) -> tuple[int, str, int] | None:
    """The number, name and name column of a turn line's head (memoised)."""
    out = None
    m = _TURN_HEAD.fullmatch(head)
    if m is not None:
        number = _number(m[1])
        name = _name(m[2])
        if number is not None and name is not None:
            out = (number, name, len(m[1]) + 3)
    if len(_heads) >= _SETTINGS.limit:
        _heads.clear()
    _heads[head] = out
    return out


def _plain_turn(line: str, ln: int) -> Turn | None:
    """A canonical turn line ``12. Ben: action, action``, or None."""
    # the head holds no ":" (digits, ". ", a name without ":"): its end is the first ": "
    end = line.find(": ")
    if end < 0:
        return None
    head = line[:end]
    got = _heads[head] if head in _heads else _head(head)
    if got is None:
        return None
    text = line[end + 2 :]
    known = _turn_lines.get(text)
    if known is not None:
        build, values, _ = known
        if build is not None:
            number, name, column = got
            if SELF_COMPILED:
                return _line_turn(number, name, column, _build(build, ln, end + 2, values), ln)
            return _TURN_RECORD(number, name, column, build(ln, end + 2, values), ln)
    return _turn_text(got, text, end, ln, known)


def _turn_text(
    got: tuple[int, str, int], text: str, end: int, ln: int, known: Template | None
) -> Turn | None:
    """A canonical turn line whose head is ``got`` and actions ``text`` (after ``": "`` at
    ``end``), its text not built by a whole-line builder (``known``: its memo entry)."""
    if _SETTINGS.memo:
        parts: list[Part | None] | None = [] if known is _SEEN else None
        actions = _plain_groups(_actions, _ACTION, text, ln, end + 3, parts)
        if actions is None:
            return None
        _remember(_turn_lines, text, known, actions, ln, end + 2, parts)
    else:
        actions = _native_groups(_native_actions, _ACTION, text, ln, end + 3)
        if actions is None:
            return None
    number, name, column = got
    if SELF_COMPILED:
        return _line_turn(number, name, column, actions, ln)
    return _TURN_RECORD(number, name, column, actions, ln)


def _plain_chance(line: str, ln: int) -> Chance | None:
    """A canonical chance line ``* event, event``, or None."""
    known = _chance_lines.get(line)
    if known is not None:
        build, values, _ = known
        if build is not None:
            return _build(build, ln, 0, values) if SELF_COMPILED else build(ln, 0, values)
    return _chance_text(line, ln, known)


def _chance_text(line: str, ln: int, known: Template | None) -> Chance | None:
    """A canonical chance line not built by a whole-line builder (``known``: its memo entry)."""
    if line[1:2] != " ":
        return None
    if _SETTINGS.memo:
        parts: list[Part | None] | None = [] if known is _SEEN else None
        events = _plain_groups(_events, _EVENT, line[2:], ln, 3, parts)
        if events is None:
            return None
        rec = _line_chance(events, ln) if SELF_COMPILED else _CHANCE_RECORD(events, ln)
        _remember(_chance_lines, line, known, rec, ln, 0, parts)
        return rec
    events = _native_groups(_native_events, _EVENT, line[2:], ln, 3)
    return None if events is None else _CHANCE_RECORD(events, ln)


# Whole lines: a plain line's text seen again (a turn's actions after ``12. Ben: ``, a whole
# chance line) is built by one builder for the whole line instead of group by group. Its
# template is made from the records its groups gave (every position at that line, as a
# group's template is made from the group's record at _LN0); its shape's builder is made at
# the shape's _SETTINGS.hot-th use like a group's. A text seen once is only marked: most
# texts of a file are seen once or many times.
_turn_lines: Final[Memo] = {}
_chance_lines: Final[Memo] = {}


def _remember(
    memo: Memo,
    text: str,
    known: Template | None,
    rec: Any,
    ln: int,
    d: int,
    parts: list[Part | None] | None = None,
) -> None:
    """Note that ``text`` was read as ``rec`` (at line ``ln``, columns shifted by ``d``): mark
    it when first seen, make its template when seen again, its builder when its shape is hot.
    ``parts``: the templates of its groups (see :func:`_plain_groups`), from which the line's
    template is put together without walking ``rec`` (called with the memo on only)."""
    # ``is _SEEN`` first: after ``known is None`` the type checker takes ``known`` for a
    # Template, a fixed-length tuple, which mypyc unboxes and boxes anew for ``is`` (never the
    # same object: issue 34, eighth step)
    if known is _SEEN:
        shape = None
        if parts and parts[-1] is not None:
            inner, consts = _composed(parts, d)
            if type(rec) is tuple:  # a turn's actions
                shape = (inner, tuple(consts))
            elif type(rec) is _model.Chance and rec.notes == () and rec.comment is None:
                # Chance(events, Pos(ln, 1), (), None), as _walk gives it
                consts += (1 - d, (), None)
                shape = ((_model.Chance, inner, _POS, None, None), tuple(consts))
        if shape is None:
            shape = _template(rec, ln, d)
        if shape is not None:
            memo[text] = (_builder(shape[0]), shape[1], shape[0])
    elif known is None:
        if len(memo) >= _SETTINGS.limit:
            memo.clear()
        memo[text] = _SEEN
    else:
        # taken apart once (compiled: one unboxing); not named ``shape``, which the branch
        # above types as a template (a compiled local keeps one type)
        _, values, its_shape = known
        build = _builder(its_shape)
        if build is not None:
            memo[text] = (build, values, its_shape)


# ------------------------------------------------------------------------------ lines

BLANK: Final = object()  # read_line's answer for a blank line


def read_line(line: str, ln: int) -> Any:
    """The record of one line (without its newline) at line number ``ln``: :data:`BLANK`,
    a record, or None when the fast path does not read it (Lark must)."""
    first = line[:1]
    if first == "[":
        return _header(line, ln)
    stripped = line.lstrip(" ")
    if not stripped:
        return BLANK
    if stripped[0] == "#":
        return CommentLine(
            stripped[1:].strip(), _tnew(_POS_CLASS, (ln, len(line) - len(stripped) + 1)), ()
        )
    if '"' not in line and "{" not in line and "#" not in line:
        rec = _plain_turn(line, ln) if first != "*" else _plain_chance(line, ln)
        if rec is not None:
            return rec
    return _read_words(line, ln)


def _read_words(line: str, ln: int) -> Any:
    """:func:`read_line` for a line that is no header, blank or comment line and not read
    by the memo: word by word."""
    got = _words(line)
    if got is None:
        return None
    words, comment, _ = got
    if not words or words[-1][2]:  # nothing, or a comma at the end
        return None
    head = words[0][0]
    if head[:1] == "{":
        got2 = _notes(words, ln)
        if got2 is None or got2[1] != 0:
            return None
        return CommentLine(comment, got2[0][0].pos, got2[0])
    if head == "*":
        return _chance(words, comment, ln)
    if head == "start":
        return _start(words, comment, ln)
    if head == "scoring":
        return _scoring(words, comment, ln)
    if head == "distribute":
        return _distribute(words, comment, ln)
    if head[:1] == "[":
        return None
    return _turn(words, comment, ln)


# ------------------------------------------------------------------------ position blocks
# A ``position`` ... ``end`` block (docs/notation.md) spans lines, so Lark cannot read its
# lines one at a time. The block's lines as ``fmt``, ``show --format record``, ``simulate``
# and the examples write them (and hand-typed ones in the same tokens: any case of the
# keywords, indentation of spaces and tabs, extra spaces, blank and comment lines) are read
# here into the records the transformer's ``_assemble_position`` builds. A line not read
# exactly (a token Lark would cut or report, a comma, a tab between tokens, a keyword of
# another kind...) declines the block, and the whole game goes to Lark as before.

# the keywords that open a line of a block (tokens.KEYWORDS holds them)
_POS_KEYS: Final = frozenset(
    (
        "next",
        "scorings",
        "market",
        "display",
        "dirk",
        "player",
        "score",
        "hand",
        "reserve",
        "alhambra",
        "counts",
    )
)
_BLOCK_BLANKS: Final = ("\t", "\f", "\ufeff")  # Lark's blanks besides the space


def _block_words(line: str) -> tuple[list[Word], str | None, int] | None:
    """The words of a line of a position block, its comment (text after ``#``, or None) and
    the comment's column; None when the line is not read here. Indentation may hold tabs
    (a tab is one column, as Lark counts); between tokens only spaces."""
    lead = len(line) - len(line.lstrip(" \t"))
    text = " " * lead + line[lead:]
    out: list[Word] = []
    comment = None
    column = 0
    after_blank = True
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "s":
            after_blank = True
            continue
        if kind == "x" or not after_blank:
            return None
        if kind == "c":
            comment = m.group()[1:].strip()
            column = m.start() + 1
            break
        w = m.group()
        for blank in _BLOCK_BLANKS:
            if blank in w:
                return None
        out.append((w, m.start() + 1, False))
        after_blank = False
    return out, comment, column


def _block_name(word: str) -> str | None:
    """A name after ``next`` or ``player``, where the parser accepts a WORD or a STRING only
    (so a keyword's or a card's letters are a name there)."""
    if word[:1] == '"':
        return tk.unquote(word) if _STRING.fullmatch(word) else None
    return word if _is_word(word) else None


def _block_part(word: str, ln: int, col: int) -> ClaimPart | None:
    """``P=2``, ``wall=9``: a ``part`` of a ``counts`` line (a building type or the wall, a
    number without a sign)."""
    key_text, eq, value = word.partition("=")
    if not eq or not _is_word(key_text):
        return None
    low = key_text.lower()
    key: Any
    if low in tk.WALL_KEYS:
        key = "wall"
    elif low in TYPE_SPELLINGS:
        key = TYPE_SPELLINGS[low]
    else:
        return None  # an unknown type: Lark reports it
    n = _number(value)
    return None if n is None else ClaimPart(key, n, _tnew(_POS_CLASS, (ln, col)))


def _block_values(key: str, words: list[Word], ln: int) -> Any:
    """The values of a block line opened by keyword ``key`` (``_MISSING``: not read here)."""
    if key == "next" or key == "player":
        if len(words) != 2:
            return _MISSING
        w, col, _ = words[1]
        name = _block_name(w)
        return _MISSING if name is None else PlayerRef(name, _tnew(_POS_CLASS, (ln, col)))
    if key == "scorings" or key == "score":
        if len(words) != 2:
            return _MISSING
        w = words[1][0]
        if key == "score" and w[:1] == "-":  # a score below 0: EMPTY and INT
            n = _number(w[1:])
            return _MISSING if n is None else -n
        n = _number(w)
        return _MISSING if n is None else n
    values: list[Any] = []
    for w, col, _ in words[1:]:
        got: Any
        if key == "market":
            if w == "-":
                got = (None, None)
            else:
                head, colon, tail = w.partition(":")
                cur = _field(head) if colon else _MISSING
                if cur is not _MISSING and tail == "-":
                    got = (cur, None)
                else:
                    got = _market_entry(w, ln, col)
        elif key == "display" or key == "hand":
            got = _make_card(w, _tnew(_POS_CLASS, (ln, col)))
        elif key == "dirk" or key == "reserve":
            got = _make_tile(w, _tnew(_POS_CLASS, (ln, col)))
        elif key == "alhambra":
            at = _tile_at(w, ln, col)
            got = None if at is None else _model.PlacedTile(at[0], at[1], at[0].pos)
        else:  # counts
            got = _block_part(w, ln, col)
        if got is None:
            return _MISSING
        values.append(got)
    return tuple(values)


def _position(lines: list[str], index: int, ln: int, items: list[Any], problems: list[Any]) -> int:
    """Read the position block whose ``position`` line is ``lines[index]`` (line number
    ``ln``) into ``items`` (its :class:`Position`) and ``problems`` (its notation errors):
    the line number of its ``end``, or -1 when the block is not read here (nothing added)."""
    got = _block_words(lines[index])
    if got is None:
        return -1
    words, comment, column = got
    if len(words) != 1 or not words[0][0].isascii() or words[0][0].lower() != "position":
        return -1
    pos = _tnew(_POS_CLASS, (ln, words[0][1]))
    first: list[Any] = []  # the comments after ``position`` and ``end``, then the others
    if comment is not None:
        first.append(CommentLine(comment, _tnew(_POS_CLASS, (ln, column)), ()))
    comments: list[Any] = []
    found: list[Any] = []
    to_move: Any = None
    scorings: Any = None
    market: Any = None
    display: Any = None
    dirk: Any = None
    extra: list[Any] = []
    players: list[list[Any]] = []
    n = len(lines)
    i = index
    while True:
        i += 1
        ln += 1
        if i >= n:
            return -1  # no ``end``: a syntax error
        got = _block_words(lines[i])
        if got is None:
            return -1
        words, comment, column = got
        cl = None if comment is None else CommentLine(comment, _tnew(_POS_CLASS, (ln, column)), ())
        cur = players[-1] if players else None
        if not words:
            if cl is not None:
                (cur[9] if cur is not None else comments).append(cl)
            continue
        kw, kcol, _ = words[0]
        if not kw.isascii():
            return -1  # a keyword may be spelled with letters beyond ASCII (``ſcore``)
        key = kw.lower()
        if key == "end":
            if len(words) != 1:
                return -1
            if cl is not None:
                first.append(cl)
            break
        if key in _POS_KEYS:
            values = _block_values(key, words, ln)
        elif _verb(kw) or key == "start":  # a keyword elsewhere, a word in a block (Lark)
            args = _margs_of(words[1:], ln)
            if args is None:
                return -1
            values = ModuleAction(kw, args, _tnew(_POS_CLASS, (ln, kcol)))
        else:
            return -1
        if values is _MISSING:
            return -1
        if key == "player":
            players.append(
                [values, _tnew(_POS_CLASS, (ln, kcol)), None, None, (), (), (), None, [], []]
            )
            if cl is not None:
                players[-1][9].append(cl)
            continue
        if cl is not None:
            (cur[9] if cur is not None else comments).append(cl)
        if key == "next":
            to_move = values
        elif key == "scorings":
            scorings = values
        elif key == "market":
            market = values
        elif key == "display":
            display = values
        elif key == "dirk":
            dirk = values
        elif key not in _POS_KEYS:  # a module's line
            (cur[8] if cur is not None else extra).append(values)
        elif cur is None:
            found.append(
                NotationError(
                    f"'{kw}' describes a player: write 'player NAME' on a line before it",
                    _tnew(_POS_CLASS, (ln, kcol)),
                    "POSITION-NO-PLAYER",
                )
            )
        elif key == "score":
            cur[2] = values
        elif key == "hand":
            cur[3] = values
        elif key == "reserve":
            cur[4] = values
        elif key == "alhambra":
            cur[5] = values
        else:  # counts
            counts = []
            for part in values:
                if part.key == "wall":
                    cur[7] = part.points
                else:
                    counts.append(part)
            cur[6] = tuple(counts)
    built = tuple(
        _model.PlayerPosition(
            p[0], p[2], p[3], p[4], p[5], p[6], p[7], tuple(p[8]), p[1], tuple(p[9])
        )
        for p in players
    )
    items.append(
        _model.Position(
            to_move,
            scorings,
            market,
            display,
            built,
            dirk,
            tuple(extra),
            pos,
            tuple(first + comments),
        )
    )
    problems.extend(found)
    return ln


_PLAIN_START: Final = frozenset("0123456789*")  # the first characters of turn and chance lines
_DIGITS: Final = frozenset("0123456789")

LarkLine: TypeAlias = "Callable[[str, int], tuple[list[Any], list[NotationError]]]"


def read_game(text: str, off: int, lark_line: LarkLine) -> tuple[list[Any], list[Any]] | None:
    """The records and notation errors of one game's text, as the Lark parse gives them, or
    None when the whole game must go to Lark (a syntax error, a position block not read
    here, a carriage return).

    ``lark_line(line, off)`` parses one line with Lark (raising its ``UnexpectedInput``); it
    reads the lines this module declines.
    """
    if "\r" in text:
        return None
    items: list[Any] = []
    problems: list[Any] = []
    lines = text.split("\n")
    ln = off
    while True:
        # the lines up to the end of the game or the next position block
        at = _read_lines(lines if ln == off else lines[ln - off :], ln, items, problems, lark_line)
        if at <= 0:
            return (items, problems) if at == 0 else None
        ln = _position(lines, at - off - 1, at, items, problems)
        if ln < 0:
            return None  # a block not read here: the whole game goes to Lark


def _read_lines(
    lines: list[str], ln: int, items: list[Any], problems: list[Any], lark_line: LarkLine
) -> int:
    """:func:`read_game`'s line loop over ``lines`` (the first one is line ``ln + 1``): 0 when
    every line is read, -1 when the game must go to Lark, or the line number of a
    ``position`` line (its block is read by :func:`_position`)."""
    append = items.append
    chance_lines, turn_lines, heads, turn_record = _chance_lines, _turn_lines, _heads, _turn_record
    native = SELF_COMPILED  # (a local: pure Python, no global read a line)
    for line in lines:
        ln += 1
        if not line:
            continue
        # A line seen before, by its builder (only plain lines have one): _plain_chance's and
        # _plain_turn's first steps, without their calls.
        first = line[0]
        rec: Any = _UNSEEN  # not read yet
        if first == "*":
            known = chance_lines.get(line)
            if known is not None:
                # the entry taken apart once (compiled: one unboxing of the tuple, not one
                # per item read)
                build, values, _ = known
                if build is not None:
                    append(_build(build, ln, 0, values) if native else build(ln, 0, values))
                    continue
            if '"' not in line and "{" not in line and "#" not in line:
                # _plain_chance's path from here (its memo entry is known)
                rec = _chance_text(line, ln, known)
                if rec is None:
                    rec = _read_words(line, ln)
        elif first in _DIGITS:
            end = line.find(": ")
            head = heads.get(line[:end]) if end > 0 else None
            if head is not None:
                rest = line[end + 2 :]
                known = turn_lines.get(rest)
                if known is not None:
                    build, values, _ = known
                    if build is not None:
                        number, name, column = head
                        if native:  # native calls (see _build and _line_turn)
                            actions = _build(build, ln, end + 2, values)
                            append(_line_turn(number, name, column, actions, ln))
                        else:
                            append(
                                turn_record(number, name, column, build(ln, end + 2, values), ln)
                            )
                        continue
                if '"' not in line and "{" not in line and "#" not in line:
                    # _plain_turn's path from here (its head and memo entry are known)
                    rec = _turn_text(head, rest, end, ln, known)
                    if rec is None:
                        rec = _read_words(line, ln)
        if rec is _UNSEEN:
            # read_line's path for a plain turn or chance line, without its call and checks
            if first in _PLAIN_START and '"' not in line and "{" not in line and "#" not in line:
                rec = _plain_turn(line, ln) if first != "*" else _plain_chance(line, ln)
                if rec is None:
                    rec = _read_words(line, ln)
            else:
                rec = read_line(line, ln)
        if rec is BLANK:
            continue
        if rec is None:
            if not line.strip(" \t\f\ufeff"):
                continue  # blank for Lark too
            low = line.lstrip(" \t\f\ufeff")[:8].lower()
            if low == "position":
                return ln  # a block over several lines
            from lark.exceptions import UnexpectedInput

            try:
                got, found = lark_line(line, ln - 1)
            except UnexpectedInput:
                return -1
            items.extend(got)
            problems.extend(found)
            continue
        append(rec)
    return 0
