"""The fast reader tells an ASCII word card, scoring card, tile, field or word without its
patterns (``referee.notation.fast``: the patterns are compiled when first used, for the other
words): each plain test answers what the grammar's pattern answers, for the tokens' own
spellings in every case, with every ending, and for random words."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from referee.notation import fast

_PATTERNS = {name: re.compile(text) for name, text in fast.PATTERNS.items()}
_NAMES = sorted(
    set(fast._CURRENCIES.split("|"))
    | set(fast._TYPES.split("|"))
    | {"wertung", "score", "w", "pay", "take", "buy", "dirk", "anna", "x", "k", "s"}
)
_ENDINGS = [
    "",
    "0",
    "1",
    "2",
    "3",
    "9",
    "10",
    "01",
    "12",
    "123",
    "1n",
    "1ne",
    "1nesow",
    "1-",
    "1--",
    "1-x",
    "1-1",
    "1n-",
    "1nx",
    "1e_",
    "1w'",
    "1:",
    "1:x",
    "1@1,0",
    "2sw:3",
    "1 ",
    "1.",
    "9o",
    "7north",
    "1-'",
    "1'",
    "_",
    "'",
    "-",
    ":",
    "1n:T",
    "1,",
    "12-",
    "3s'x",
    "4e,5",
]
_ALPHABET = "aAbcdDeEgGiklnNopPrsStTuUwWxz0123456789_-':@?.,\"{}# "


def _answers() -> list[tuple[str, Callable[[str], object], Callable[[str], object]]]:
    p = _PATTERNS
    return [
        ("card", fast._is_card, lambda w: p["CARD"].fullmatch(w) is not None),
        ("scorecard", fast._is_scorecard, lambda w: p["SCORECARD"].fullmatch(w) is not None),
        ("field", fast._is_field, lambda w: p["FIELD"].fullmatch(w) is not None),
        ("tile", fast._is_tile, lambda w: p["TILE"].fullmatch(w) is not None),
        ("tile prefix", fast._tile_prefix, lambda w: p["TILE"].match(w) is not None),
        ("word", fast._is_word, lambda w: p["WORD"].fullmatch(w) is not None),
        (
            "field end",
            fast._field_end,
            lambda w: -1 if (m := p["FIELD"].match(w)) is None else m.end(),
        ),
        (
            "priority prefix",
            fast._prefix_token,
            lambda w: any(p[n].match(w) for n in ("CARD", "SCORECARD", "TILE", "FIELD")),
        ),
        (
            "marg prefix",
            fast._marg_prefix,
            lambda w: any(p[n].match(w) for n in ("CARD", "SCORECARD", "TILE")),
        ),
    ]


def _spellings() -> list[str]:
    words = []
    for name in _NAMES:
        for spelt in (name, name.upper(), name.capitalize(), name.swapcase()):
            words += [spelt + ending for ending in _ENDINGS]
            words += [ending + spelt for ending in _ENDINGS if ending]
    return words


def _random_words(count: int) -> list[str]:
    rng = random.Random(34)
    words = []
    for _ in range(count):
        if rng.random() < 0.5:  # a name, then random characters
            head = rng.choice(_NAMES)
            head = "".join(c.upper() if rng.random() < 0.3 else c for c in head)
        else:
            head = ""
        tail = "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 6)))
        words.append(head + tail)
    return words


@pytest.mark.parametrize("what", [a[0] for a in _answers()])
def test_the_plain_tests_answer_what_the_patterns_answer(what: str) -> None:
    (_, plain, pattern) = next(a for a in _answers() if a[0] == what)
    words = _spellings() + _random_words(20_000)  # (with gemächer: a word beyond ASCII too)
    wrong = [w for w in words if plain(w) != pattern(w)]
    assert wrong == []
    assert len({pattern(w) for w in words}) > 1  # both answers (more: where a field ends)


@pytest.mark.parametrize(
    "word", ["Gemächer3", "gemÄcher3n", "GU\u212a1", "ſcore1", "Dí1", "ä", "Ärger", "T1né"]
)
def test_a_word_beyond_ascii_is_asked_of_the_pattern(word: str) -> None:
    for _, plain, pattern in _answers():
        assert plain(word) == pattern(word), word


def test_the_readings_of_the_tokens() -> None:
    assert fast._is_card("Gu3") and fast._is_card("DUKATEN9") and not fast._is_card("Gu0")
    assert fast._is_scorecard("W1") and not fast._is_scorecard("W3")
    assert fast._is_tile("T10ne") and fast._is_tile("pavilion8-") and not fast._is_tile("T10x")
    assert fast._is_field("Di") and not fast._is_field("Di1")
    assert fast._field_end("Di:G6") == 2 and fast._field_end("Dix") == -1
    assert fast._is_word("Anna") and fast._is_word("_a'b-c") and not fast._is_word("'a")


def test_the_token_readers_take_a_spelling_apart_as_their_patterns_do() -> None:
    """``tokens._card_parts`` and ``tokens._tile_parts`` (read_card's and read_tile's first
    step) give the groups of the patterns ``tokens`` compiles when first used."""
    from referee.notation import tokens

    card = re.compile(r"(?P<cur>[^\W\d]+)(?P<value>\d)", re.IGNORECASE)
    tile = re.compile(r"(?P<type>[^\W\d]+)(?P<price>\d+)(?P<walls>[^\W\d]+|-)?", re.IGNORECASE)
    words = _spellings() + _random_words(20_000) + ["_1", "a_b12c_d", "T1é", "Gä3", "x٣"]
    for w in words:
        m = card.fullmatch(w)
        assert tokens._card_parts(w) == (None if m is None else (m["cur"], m["value"])), w
        m = tile.fullmatch(w)
        expected = None if m is None else (m["type"], m["price"], m["walls"])
        assert tokens._tile_parts(w) == expected, w
    assert tokens._tile_parts("T10ne") == ("T", "10", "ne")
    assert tokens._tile_parts("pavilion8-") == ("pavilion", "8", "-")
    assert tokens._card_parts("Gu3") == ("Gu", "3")
