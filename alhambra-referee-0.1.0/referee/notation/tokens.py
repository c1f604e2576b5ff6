"""Reading single tokens of the notation: cards, tiles, fields, names (no Lark here).

Each reader returns the record object plus an optional problem message; the parser turns the
message into a :class:`~referee.record.model.NotationError` with the token's position. Results
are cached by spelling because the same few dozen spellings repeat through a whole file.
"""

from __future__ import annotations

import re
from functools import lru_cache

from referee.catalogue import SIDES, BuildingType, Currency, MoneyCard, Side, TileKind, catalogue
from referee.catalogue.components import (
    CURRENCY_SPELLINGS,
    SIDE_SPELLINGS,
    TYPE_SPELLINGS,
    wall_code,
)
from referee.lazy_re import lazy_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# (compiled when first used: an ASCII spelling is taken apart by :func:`_tile_parts` and
# :func:`_card_parts` without them, tests/test_notation_fast_ascii.py)
_TILE_RE = lazy_pattern(r"(?P<type>[^\W\d]+)(?P<price>\d+)(?P<walls>[^\W\d]+|-)?", re.IGNORECASE)
_CARD_RE = lazy_pattern(r"(?P<cur>[^\W\d]+)(?P<value>\d)", re.IGNORECASE)
_WORD_RE = lazy_pattern(r"[^\W\d][\w'-]*")

# Every keyword of the grammar: a player name spelled like one must be quoted when written.
KEYWORDS = frozenset(
    [
        "deal",
        "display",
        "reshuffle",
        "market",
        "dirk",
        "start",
        "youngest",
        "scoring",
        "distribute",
        "none",
        "take",
        "buy",
        "pay",
        "build",
        "remove",
        "swap",
        "for",
        "place",
        "reserve",
        "give",
        "position",
        "end",
        "next",
        "scorings",
        "player",
        "score",
        "hand",
        "alhambra",
        "counts",
    ]
)

# Keys of claimed points / counts besides the building types.
WALL_KEYS = frozenset({"wall", "walls", "mauer"})


# The letters beyond ASCII that a case-insensitive pattern of Python's (the grammar's keywords,
# CARD, TILE, FIELD) matches as ASCII letters: dotted and dotless I, the long s, the Kelvin
# sign. A token the grammar accepted with one of them is read as if written in ASCII (``T9nſ``
# is ``T9ns``, ``pavılion3`` is ``pavilion3``); each maps to one letter, before ``lower``
# (``"İ".lower()`` is two characters).
_ASCII_FOLD: Final = str.maketrans({"İ": "i", "ı": "i", "ſ": "s", "\u212a": "k"})


def fold(text: str) -> str:
    """``text`` in lower case as the grammar's case-insensitive patterns compare it."""
    return text.lower() if text.isascii() else text.translate(_ASCII_FOLD).lower()


def _letters(text: str) -> bool:
    """Whether ASCII ``text`` is one or more of ``[^\\W\\d]`` (letters and ``_``)."""
    return text.replace("_", "a").isalpha()


def _card_parts(text: str) -> tuple[str, str] | None:
    """``_CARD_RE.fullmatch(text)``'s ``cur`` and ``value``, or None: no match."""
    if text.isascii():
        if len(text) >= 2 and "0" <= text[-1] <= "9" and _letters(text[:-1]):
            return text[:-1], text[-1]
        return None
    m = _CARD_RE.fullmatch(text)
    return None if m is None else (m["cur"], m["value"])


def _tile_parts(text: str) -> tuple[str, str, str | None] | None:
    """``_TILE_RE.fullmatch(text)``'s ``type``, ``price`` and ``walls``, or None: no match."""
    if text.isascii():
        j = 0
        while j < len(text) and not "0" <= text[j] <= "9":
            j += 1
        k = j
        while k < len(text) and "0" <= text[k] <= "9":
            k += 1
        walls = text[k:]
        if j == 0 or k == j or not _letters(text[:j]):
            return None
        if walls == "":
            return text[:j], text[j:k], None
        return (text[:j], text[j:k], walls) if walls == "-" or _letters(walls) else None
    m = _TILE_RE.fullmatch(text)
    return None if m is None else (m["type"], m["price"], m["walls"])


@lru_cache(maxsize=4096)
def read_card(text: str) -> MoneyCard:
    """A money-card spelling the grammar accepted (``Gu3``, ``gulden3``, ``Ducat5``)."""
    parts = _card_parts(text)
    assert parts is not None, text
    return MoneyCard(CURRENCY_SPELLINGS[fold(parts[0])], int(parts[1]))


@lru_cache(maxsize=4096)
def read_field(text: str) -> tuple[Currency | None, str | None]:
    """A market field: a currency spelling or a number 1-4."""
    if text.isdigit():
        n = int(text)
        if 1 <= n <= 4:
            return Currency.of_field(n), None
        return None, f"there is no market field {n}: the fields are 1-4 (Gu, Di, De, Du)"
    return CURRENCY_SPELLINGS[fold(text)], None


@lru_cache(maxsize=4096)
def read_tile(
    text: str,
) -> tuple[BuildingType, int, frozenset[Side] | None, tuple[TileKind, ...], str | None]:
    """A tile spelling the grammar accepted: type, price, walls, catalogue candidates, problem.

    When the text names exactly one catalogue tile, the walls are that tile's walls whether or
    not they were written (so ``T13`` and ``T13n`` are the same reference and the canonical
    form is the shortest). When it names none, the problem says why.
    """
    parts = _tile_parts(text)
    assert parts is not None, text
    written_type, written_price, raw_walls = parts
    type_ = TYPE_SPELLINGS[fold(written_type)]
    if len(written_price.lstrip("0")) > 6 or len(written_price) > MAX_WRITTEN:
        shown = text if len(text) <= 12 else text[:12] + "..."
        return type_, 0, None, (), f"number too large in tile '{shown}': no tile costs that much"
    price = int(written_price)
    walls: frozenset[Side] | None
    if raw_walls is None:
        walls = None
    elif raw_walls == "-":
        walls = frozenset()
    else:
        letters = fold(raw_walls)
        walls = frozenset(SIDE_SPELLINGS[c] for c in letters)
        if len(walls) != len(letters):
            shown = text if len(text) <= 40 else text[:40] + "..."
            return type_, price, walls, (), f"wall letter written twice in tile '{shown}'"
    same_price = catalogue().by_type_price(type_, price)
    if not same_price:
        prices = sorted({t.price for t in catalogue().tiles if t.type is type_})
        listed = ", ".join(str(p) for p in prices)
        problem = (
            f"there is no {type_.name_in('en')} costing {price} "
            f"(the {type_.name_in('en', plural=True)} cost {listed})"
        )
        return type_, price, walls, (), problem
    candidates = catalogue().find(type_, price, walls)
    if not candidates:
        assert walls is not None
        options = ", ".join(t.full_code for t in same_price)
        problem = (
            f"there is no {type_.name_in('en')} {price} with walls '{wall_code(walls)}' "
            f"(there is {options})"
        )
        return type_, price, walls, (), problem
    if len(candidates) == 1:
        walls = candidates[0].walls
    return type_, price, walls, candidates, None


def needs_quotes(name: str) -> bool:
    """Whether a player name must be written in double quotes to read back as itself."""
    return _WORD_RE.fullmatch(name) is None or fold(name) in KEYWORDS or _is_token(name)


@lru_cache(maxsize=4096)
def _is_token(name: str) -> bool:
    # a name spelled like a card, tile or field would be read as that token in some places
    from referee.notation.parser import looks_like_component_token

    return looks_like_component_token(name)


def quote(text: str) -> str:
    """A double-quoted string with ``\\`` and ``"`` escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unquote(text: str) -> str:
    """The value of a double-quoted string token (escapes resolved)."""
    body = text[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    it = iter(body)
    for ch in it:
        if ch == "\\":
            out.append(next(it, ""))
        else:
            out.append(ch)
    return "".join(out)


def write_name(name: str) -> str:
    return quote(name) if needs_quotes(name) else name


# ------------------------------------------------------------------ walls in module tokens

WALL_LETTERS: dict[str, Side] = {"n": Side.N, "e": Side.E, "o": Side.E, "s": Side.S, "w": Side.W}
"""The letters of a module token's walls (``mg:P9ne``): n e s w, and o (Ost) for east."""


def read_walls(
    text: str, none: tuple[str, ...] = ("x",), letters: str = "neosw"
) -> frozenset[Side] | None:
    """The sides with a wall that the tail of a module token states, read one way for every
    module: ``ne`` -> {N, E}; a spelling in ``none`` (``x``) -> no wall; each letter of
    ``letters`` at most once. None when the text is no walls (empty, an unknown or repeated
    letter): the caller says which finding that is."""
    if text in none:
        return frozenset()
    walls: set[Side] = set()
    for ch in text:
        side = WALL_LETTERS.get(ch) if ch in letters else None
        if side is None or side in walls:
            return None
        walls.add(side)
    return frozenset(walls) if walls else None


def walls_token(walls: frozenset[Side], none: str = "x") -> str:
    """The walls as a module token writes them: ``ne`` in the order n e s w; ``none`` when
    there is no wall."""
    return "".join(s.value.lower() for s in SIDES if s in walls) or none


# a run of digits with more than 6 significant digits (parser.MAX_DIGITS) inside a word
# ... or a run of more than MAX_WRITTEN digits however many of them are leading zeros
# (Python converts at most 4,300 digits; ``fr:0000...2`` must stay a notation error)
MAX_WRITTEN = 24
_LONG_DIGITS = lazy_pattern(r"[1-9][0-9]{6,}|[0-9]{25,}")


def digits_too_long(word: str) -> bool:
    """Whether a token (e.g. a component ``fr:123...``) holds a number of more than six digits
    (``parser.MAX_DIGITS``) or one written with more than MAX_WRITTEN digits (leading zeros):
    read as a syntax error like any over-long number, so that no module ever converts
    thousands of digits (Python refuses more than 4,300)."""
    return _LONG_DIGITS.search(word) is not None
