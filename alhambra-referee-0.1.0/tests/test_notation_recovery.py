"""After a syntax error the parser goes on with the next line, so one typed-in game reports all
of its typos at once (one event per line lets it resynchronise)."""

from referee.notation import parse_text
from referee.notation.parser import MAX_SYNTAX_ERRORS

TEXT = """[Players "A, B, C"]

1. A: buy Di A6sw Di4
2. B: take Gu3 @1,
3. C: take Gu3
4. A: take Xx9
"""


def test_every_bad_line_is_reported_with_its_position() -> None:
    (game,) = parse_text(TEXT, "typos.alh")
    assert [(e.pos.line, e.pos.column) for e in game.errors] == [(3, 19), (4, 16), (6, 12)]
    assert "pay" in game.errors[0].message
    assert "Xx" in game.errors[2].message
    assert game.header("Players") == "A, B, C"  # headers are still recovered


def test_a_good_game_after_a_broken_one_is_untouched() -> None:
    broken, good = parse_text(TEXT + '\n[Players "D, E, F"]\n\n1. D: take Gu3\n', "two.alh")
    assert len(broken.errors) == 3
    assert good.ok and good.start_line == 8


def test_the_number_of_errors_is_bounded() -> None:
    lines = "".join(f"{n}. A: take Gu3 @\n" for n in range(1, 60))
    (game,) = parse_text('[Players "A, B, C"]\n\n' + lines, "many.alh")
    assert len(game.errors) == MAX_SYNTAX_ERRORS
    assert [e.pos.line for e in game.errors] == list(range(3, 3 + MAX_SYNTAX_ERRORS))
