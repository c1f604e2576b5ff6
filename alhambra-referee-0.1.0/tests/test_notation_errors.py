"""Syntax and notation mistakes: the exact file position and plain-language message.

Every case below is one distinct mistake typed after two good lines (so positions are file
positions, not positions inside the game). Messages name the problem, not the parser state.
"""

from __future__ import annotations

import pytest

from referee.engine.extensions import load_bundled_modules
from referee.notation import parse_text
from referee.scoring.categories import module_claim_keys

PRE = '[Event "mistakes"]\n\n1. Anna: take Gu1\n'

# (name, text after PRE, line, column, message)
# the claim keys of the bundled modules' scoring categories (task1 ... of Die Wünsche des
# Kalifen): the message lists whatever is registered
load_bundled_modules()
_MODULE_KEYS = ", ".join(module_claim_keys())

CASES = [
    (
        "missing pay",
        "2. Ben: buy Di A6sw Di4 Di2\n",
        4,
        21,
        "missing 'pay' before the cards paid: buy FIELD TILE pay CARD CARD...",
    ),
    (
        "coord one number",
        "2. Ben: place A6sw@1\n",
        4,
        20,
        "a coordinate needs two whole numbers: @x,y (e.g. @1,-2)",
    ),
    (
        "coord not number",
        "2. Ben: build A6sw@1,x\n",
        4,
        20,
        "a coordinate needs two whole numbers: @x,y (e.g. @1,-2)",
    ),
    (
        "unknown currency",
        "2. Ben: take Gx3\n",
        4,
        14,
        (
            "unknown currency 'Gx' in 'Gx3': the currencies are Gu "
            "(Gulden/florin), Di (Dirham), De (Denar/dinar), Du (Dukaten/ducat)"
        ),
    ),
    ("card value", "* display Gu1 Gu10\n", 4, 15, "'Gu10': a money card's value is 1-9"),
    ("turn dot", "2 Ben: take Gu1\n", 4, 1, "a turn number must end with a dot: '12. Ben: ...'"),
    (
        "header unterminated",
        '[Site "Graz"\n',
        4,
        13,
        'unterminated header: write [Name "value"] on one line',
    ),
    (
        "header quotes",
        "[Site Graz]\n",
        4,
        7,
        'a header value must be in double quotes: [Name "value"]',
    ),
    (
        "missing end",
        "position\n  next Ben\n  player Ben\n    score 3\n",
        7,
        12,
        "missing 'end' of the position block",
    ),
    (
        "unknown tile type",
        "2. Ben: reserve X13\n",
        4,
        17,
        (
            "unknown building type 'X' in 'X13': the types are P (pavilion), S "
            "(seraglio), A (arcades), C (chambers), G (garden), T (tower)"
        ),
    ),
    (
        "missing coordinate",
        "2. Ben: place A6sw\n",
        4,
        19,
        "missing coordinate: write the tile and where it goes, e.g. A6sw@0,-1",
    ),
    (
        "give receiver",
        "2. Ben: give A6sw\n",
        4,
        18,
        "'give' needs a receiver: give TILE dirk, or give TILE PLAYER",
    ),
    (
        "empty chance",
        "*\n",
        4,
        2,
        "an event is missing after '*' or ',' (deal, display, market, dirk...)",
    ),
    (
        "scoring number",
        "scoring: Anna +3\n",
        4,
        8,
        "a scoring needs its number: scoring 1, scoring 2 or scoring 3",
    ),
    (
        "claim sign",
        "scoring 1: Anna 9\n",
        4,
        17,
        "write claimed figures as +points, =total and (T=6, wall=3): e.g. Anna +9 =23 (T=6)",
    ),
    (
        "claim part",
        "scoring 1: Anna +9 (T=6 wall=3)\n",
        4,
        25,
        "write a breakdown as (TYPE=points, ..., wall=points), e.g. (T=6, wall=3)",
    ),
    (
        "market colon",
        "* market Gu T10\n",
        4,
        13,
        "join the market field and its tile with ':' (Gu:T10n)",
    ),
    (
        "distribute receiver",
        "distribute Gu:T9ne, Di:G6 none\n",
        4,
        19,
        "say who gets each leftover tile: Gu:T9ne Ben@3,1, Gu:T9ne Ben reserve, or Gu:T9ne none",
    ),
    (
        "player name",
        "start\n",
        4,
        6,
        'a player name is missing here (quote names with spaces: "Anna Lena")',
    ),
    (
        "action missing",
        "2. Ben:\n",
        4,
        8,
        "an action is missing here (take, buy, build, remove, swap, place...)",
    ),
    (
        "missing comma",
        "2. Ben: take Gu1 place A6sw@0,1\n",
        4,
        18,
        "missing ',' between two actions: write 'take Gu1, buy ...'",
    ),
    (
        "annotation place",
        "2. Ben: {hm} take Gu1\n",
        4,
        9,
        "an annotation {...} goes after the action or event it is about",
    ),
    (
        "position line",
        "position\n  3 4\nend\n",
        5,
        3,
        (
            "not a line of a position block: next, scorings, market, display, "
            "dirk, player, score, hand, reserve, alhambra, counts (or a module "
            "line)"
        ),
    ),
    (
        "tile among cards",
        "* display Gu1 T13\n",
        4,
        15,
        "'T13' is a building tile, but money cards are expected here",
    ),
    ("stray char", "2. Ben: take Gu1 $\n", 4, 18, "unexpected character '$'"),
    (
        "unclosed annotation",
        "2. Ben: take Gu1 {nice\n",
        4,
        18,
        "unterminated annotation: a closing } is missing",
    ),
    ("unclosed string", '* deal "Anna Gu3\n', 4, 8, 'unterminated string: a closing " is missing'),
    (
        "no such tile price",
        "2. Ben: reserve T14\n",
        4,
        17,
        "there is no tower costing 14 (the towers cost 7, 8, 9, 10, 11, 12, 13)",
    ),
    (
        "no such walls",
        "2. Ben: reserve T13n\n",
        4,
        17,
        "there is no tower 13 with walls 'n' (there is T13e)",
    ),
    (
        "field number",
        "* market 5:T13\n",
        4,
        10,
        "there is no market field 5: the fields are 1-4 (Gu, Di, De, Du)",
    ),
    (
        "claim type",
        "scoring 1: Anna +3 (X=3)\n",
        4,
        21,
        "unknown claim part 'X' (write P, S, A, C, G, T or their names, wall, or a scoring "
        f"category of a module: {_MODULE_KEYS}) / unbekannter Wertungsteil 'X' (P, S, A, C, G, "
        f"T oder ihre Namen, wall oder eine Wertungskategorie eines Moduls: {_MODULE_KEYS})",
    ),
    (
        "position no player",
        "position\n  score 3\nend\n",
        5,
        3,
        "'score' describes a player: write 'player NAME' on a line before it",
    ),
]


@pytest.mark.parametrize(
    ("name", "body", "line", "column", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_mistake_is_reported_at_its_place_in_plain_words(
    name: str, body: str, line: int, column: int, message: str
) -> None:
    games = parse_text(PRE + body, "m.alh")
    errors = [e for g in games for e in g.errors]
    assert [(e.pos.line, e.pos.column, e.message) for e in errors] == [(line, column, message)]


def test_there_are_at_least_fifteen_distinct_messages() -> None:
    assert len({c[4] for c in CASES}) >= 15


def test_error_carries_a_caret_excerpt() -> None:
    (game,) = parse_text(PRE + "2. Ben: buy Di A6sw Di4\n", "m.alh")
    (err,) = game.errors
    assert err.excerpt.split("\n") == ["2. Ben: buy Di A6sw Di4", " " * 20 + "^"]


def test_end_of_file_error_points_at_the_end_of_the_text() -> None:
    (game,) = parse_text("position\n  next Ben\n\n\n", "m.alh")
    (err,) = game.errors
    assert (err.pos.line, err.pos.column) == (2, 11)
    assert "end" in err.message


def test_positions_count_from_the_start_of_the_file_in_a_multi_game_file() -> None:
    text = '[Event "a"]\n1. Ann: take Gu1\n[Event "b"]\n\n1. Ben: take Gx3\n'
    games = parse_text(text, "m.alh")
    assert [g.start_line for g in games] == [1, 3]
    (err,) = games[1].errors
    assert (err.pos.line, err.pos.column) == (5, 14)


def test_a_broken_game_keeps_its_headers() -> None:
    (game,) = parse_text('[Event "x"]\n[Foo "bar"]\n1. Ben: take Gx3\n')
    assert [(h.name, h.value) for h in game.headers] == [("Event", "x"), ("Foo", "bar")]
    assert game.body == ()
    assert not game.ok
