"""Issue 12, point 6: ``fmt`` is a fixed point that says the same thing, for every accepted text.

A comment line among the header tags of the second game of a file used to move to the first
game, so ``fmt`` of ``fmt``'s output differed. The property below writes multi-game texts with
comments before, among and after the headers of every game, blank lines anywhere and
annotation-only lines, and checks: fmt(fmt(x)) == fmt(x), the records read back equal, and no
comment or annotation is lost.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation import format_games, parse_text
from referee.record.model import CommentLine, Game

BODY_LINES = [
    "1. Anna: take Gu1",
    "2. Ben: buy Di A6sw pay Di4 Di2 {exact}, place A6sw@0,-1",
    "* display Gu1 Di4 De6 Du9",
    "start Anna {youngest first}",
    "scoring 1: Anna +3 =3 (T=3), Ben +0",
    "Anna: reserve T13 # into the reserve",
    "position\n  next Ben\nend",
]
HEADERS = ['[Event "Club"]', '[Players "Anna, Ben"]', '[Rules "queen-2003"]', '[Site "Home"]']

# the words of r"[a-z][a-z ]{0,10}[a-z]", put together from their letters: st.from_regex drew
# them at several times the cost of the rest of the test
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
words = st.builds(
    "{}{}{}".format,
    st.sampled_from(_LETTERS),
    st.text(alphabet=_LETTERS + " ", max_size=10),
    st.sampled_from(_LETTERS),
)
comment_line = words.map(lambda w: f"# {w}")
annotation_line = words.map(lambda w: f"{{{w}}}")
filler = st.lists(st.one_of(comment_line, annotation_line, st.just(""), st.just("   ")), max_size=3)


@st.composite
def game_texts(draw: st.DrawFn, first: bool) -> str:
    lines: list[str] = []
    lines += draw(filler)  # before the headers
    heads = draw(st.lists(st.sampled_from(HEADERS), min_size=0 if first else 1, max_size=3))
    for h in dict.fromkeys(heads):
        lines.append(h)
        lines += draw(filler)  # among / after the headers
    body = draw(st.lists(st.sampled_from(BODY_LINES), min_size=1, max_size=3))
    for b in body:
        lines.append(b)
        lines += draw(filler)
    return "\n".join(lines) + "\n"


@st.composite
def file_texts(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 3))
    return "".join(draw(game_texts(first=(i == 0))) for i in range(n))


def _notes(games: list[Game]) -> list[str]:
    """Every comment and annotation text of the games (their place may change, not their text)."""
    out: list[str] = []
    for g in games:
        items = [*g.leading_comments, *g.body]
        out += [h.comment for h in g.headers if h.comment]
        for it in items:
            if isinstance(it, CommentLine):
                out += [it.text] if it.text is not None else []
                out += [n.text for n in it.notes]
            else:
                out += [n.text for n in getattr(it, "notes", ())]
                if getattr(it, "comment", None):
                    out.append(it.comment)
                for a in getattr(it, "actions", ()):
                    out += [n.text for n in a.notes]
    return sorted(out)


@settings(max_examples=300, deadline=None)
@given(file_texts())
def test_fmt_is_a_fixed_point_with_comments_among_later_headers(text: str) -> None:
    games = parse_text(text)
    assert all(not g.errors for g in games), [g.errors for g in games]
    once = format_games(games)
    again = parse_text(once)
    assert format_games(again) == once  # fixed point
    assert again == games  # the same records (headers, body items), game by game
    assert _notes(again) == _notes(games)  # no comment or annotation lost


def test_comment_among_the_headers_of_the_second_game_stays_there() -> None:
    # the case from issue 12: it used to move to the end of the first game on the second fmt
    text = (
        '[Event "one"]\n\n1. Anna: take Gu1\n\n'
        '[Event "two"]\n# typed by Ben\n[Players "Anna, Ben"]\n\n1. Anna: take Gu2\n'
    )
    once = format_games(parse_text(text))
    twice = format_games(parse_text(once))
    assert twice == once
    first, second = parse_text(twice)
    assert [c.text for c in second.leading_comments] == ["typed by Ben"]
    assert not any(isinstance(b, CommentLine) for b in first.body)
