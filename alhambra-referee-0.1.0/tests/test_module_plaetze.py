"""Die Plätze (rulebook-bigbox-de-2019.txt § DIE PLÄTZE).

Squares are written ``sq:`` + colour (building type code) + the sides with a wall; their faces
are not in the texts, so the faces used here are invented for the tests.
"""

from __future__ import annotations

from conftest import codes, messages, run
from hypothesis import given
from hypothesis import strategies as st

from referee.catalogue import SIDES, BuildingType, Side, catalogue
from referee.geometry import Alhambra, longest_outer_wall
from referee.modules.plaetze import Square, parse_square, per_colour, square_count
from referee.record.model import ComponentRef, Coord

Q = "plaetze"
TOP = "* squares sq:Pn sq:Se sq:An sq:Cw sq:Gs sq:Tne\n"
A = BuildingType.ARCADES
T = BuildingType.TOWER


def tile(code: str):  # type: ignore[no-untyped-def]
    return next(t for t in catalogue().tiles if t.full_code == code)


def sq(name: str) -> Square:
    parsed = parse_square(name)
    assert parsed is not None and parsed[1] is not None
    return Square(parsed[0], parsed[1])


# --------------------------------------------------------------------------- components


def test_twenty_four_squares_in_the_six_colours() -> None:
    # "Es gibt 3 blaue … 4 braune … 5 grüne … 3 rote … 4 weiße und 5 lila Plätze."
    counts = per_colour()
    assert sum(counts.values()) == 24
    assert [counts[t] for t in BuildingType] == [3, 3, 4, 4, 5, 5]


def test_square_tokens() -> None:
    assert parse_square("Tne") == (T, frozenset({Side.N, Side.E}))
    assert parse_square("T") == (T, None)
    assert parse_square("a0") == (A, frozenset())
    assert parse_square("X") is None and parse_square("Tnn") is None
    assert sq("Aws").code == "sq:Asw"
    assert sq("Tne").matches(ComponentRef("sq", "T")) and sq("Tne").matches(
        ComponentRef("sq", "Ten")
    )
    assert not sq("Tne").matches(ComponentRef("sq", "Tn"))


# ------------------------------------------------------------------------ taking squares


def test_taking_a_square_is_free_and_gives_no_extra_action() -> None:
    # "Ein Platz kostet kein Geld (und kann deshalb auch nicht passend bezahlt werden: d.h.
    # dafür gibt es keinen Extra-Spielzug)."
    rep = run(TOP + "1. Ben: square sq:Tne, place sq:Tne@0,1\n* squares sq:Tn\n", Q)
    assert codes(rep) == [], messages(rep)
    rep = run(TOP + "1. Ben: square sq:Tne, take Gu1, place sq:Tne@0,1\n", Q)
    assert "TURN-OVER" in codes(rep)


def test_a_square_after_an_exact_purchase() -> None:
    rep = run(
        TOP + "1. Ben: buy Di A9 pay Di9, square sq:An, place A9@1,0, place sq:An@2,0\n"
        "* market Di:T9ne, squares sq:As\n",
        Q,
    )
    assert codes(rep) == [], messages(rep)


def test_at_most_three_squares_per_player_reserve_included() -> None:
    # "Jeder Spieler darf höchstens drei Plätze besitzen, dazu zählen auch Plätze in der
    # Reserve."
    turns = []
    faces = ["Pn", "Se", "An", "Cw", "Gs", "Tne", "Gn", "Ts", "Ae", "Tw"]
    players = ["Ben", "Cem", "Anna"]
    for i, face in enumerate(faces):
        who = players[i % 3]
        turns.append(f"* squares sq:{face}\n{i + 1}. {who}: square sq:{face}, reserve sq:{face}\n")
    rep = run("".join(turns), Q)
    assert codes(rep) == ["SQUARE-LIMIT"]  # Ben's fourth, turn 10
    assert rep.violations[0].turn == 10


def test_a_used_up_stack() -> None:
    # "Ist ein Stapel aufgebraucht, steht diese Sorte nicht mehr zur Verfügung." (3 blue)
    turns = "".join(
        ("* squares sq:Pn\n" if i < 3 else "") + f"{i + 1}. {who}: square sq:Pn, reserve sq:Pn\n"
        for i, who in enumerate(["Ben", "Cem", "Anna", "Ben"])
    )
    assert codes(run(turns, Q)) == ["SQUARE-SUPPLY"]


def test_a_face_is_never_stated_two_ways() -> None:
    rep = run(TOP + "1. Ben: square sq:Tn, reserve sq:Tn\n", Q)
    assert codes(rep) == ["SQUARE-FACE"]
    rep = run(TOP + "* squares sq:Tn\n1. Ben: take Gu1\n", Q)
    assert codes(rep) == ["SQUARE-FACE"]
    rep = run(TOP + "1. Ben: square sq:Tne, place sq:Tn@0,1\n", Q)
    assert "PLACE-NOT-BOUGHT" in codes(rep)


def test_the_colour_alone_takes_the_face_up_square() -> None:
    rep = run(TOP + "1. Ben: square sq:T, place sq:Tne@0,1\n", Q)
    assert codes(rep) == []
    rep = run("1. Ben: square sq:T, reserve sq:T\n", Q)  # face never revealed
    assert codes(rep) == ["SQUARE-NOT-REVEALED"]


def test_a_square_must_have_been_revealed() -> None:
    # "Anschließend wird von jedem Stapel der oberste Platz aufgedeckt." / "Dann wird der
    # nächste Platz des Stapels aufgedeckt." (DIE PLÄTZE): taking a face no `* squares` line
    # revealed is reported, as a missing market refill is.
    rep = run("1. Ben: square sq:Tne, reserve sq:Tne\n", Q)
    assert codes(rep) == ["SQUARE-NOT-REVEALED"]
    assert "* squares" in rep.violations[0].message()
    assert "aufgedeckt" in rep.violations[0].message("de")
    # revealed, taken, and the next one taken without a reveal in between
    body = TOP + "1. Ben: square sq:Tne, reserve sq:Tne\n2. Cem: square sq:Tn, reserve sq:Tn\n"
    assert codes(run(body, Q)) == ["SQUARE-NOT-REVEALED"]
    assert run(body, Q).violations[0].turn == 2


def test_squares_follow_the_building_rules() -> None:
    # "Am Ende des Spielzuges platziert man den Platz ... gemäß den Bauregeln"
    rep = run(TOP + "1. Ben: square sq:Tne, place sq:Tne@0,-1\n", Q)
    assert "PLACE-WALL" in codes(rep)


def test_squares_are_redesigned_like_tiles() -> None:
    # "Die Regeln für den Umbau der Alhambra gelten auch für die Plätze."
    body = (
        TOP + "1. Ben: square sq:Tne, place sq:Tne@0,1\n2. Cem: take Du2\n* display Gu3\n"
        "3. Anna: take Gu3\n* display Gu4\n4. Ben: remove sq:Tne@0,1\n"
        "5. Cem: take Gu4\n* display Gu5\n6. Anna: take Gu5\n* display Gu6\n"
        "7. Ben: build sq:Tne@0,1\n"
    )
    rep = run(body, Q)
    assert codes(rep) == [], messages(rep)
    assert rep.state is not None
    ben = rep.state.player_named("Ben")
    assert ben is not None and ben.alhambra.get(Coord(0, 1)) == sq("Tne")


# ------------------------------------------------------------------------------ scoring


def _alhambra(pieces: dict[tuple[int, int], object]) -> Alhambra:
    alh = Alhambra()
    for (x, y), piece in pieces.items():
        alh.place(Coord(x, y), piece)  # type: ignore[arg-type]
    return alh


class _P:  # the smallest stand-in for a PlayerState: square_count reads .alhambra only
    def __init__(self, alh: Alhambra) -> None:
        self.alhambra = alh


def test_rulebook_example_brown_squares_count_two_and_one() -> None:
    # "Der obere braune Platz hat zwei Arkaden als Nachbarn ohne Stadtmauer dazwischen, und
    # zählt deshalb wie 2 Arkaden bei einer Wertung. Der untere braune Platz hat eine Arkade
    # benachbart und zählt deshalb selbst wie 1 Arkade."
    upper, lower = sq("An"), sq("Aw")
    alh = _alhambra(
        {
            (1, 0): tile("A9-"),
            (2, 1): tile("A10-"),
            (1, 1): upper,  # arcades at 1,0 (south) and 2,1 (east), no wall between
            (2, 0): lower,  # arcades at 1,0 is west: walled off; 2,1 north: open
        }
    )
    p = _P(alh)
    assert square_count(p, Coord(1, 1), upper) == 2  # type: ignore[arg-type]
    assert square_count(p, Coord(2, 0), lower) == 1  # type: ignore[arg-type]


def test_rulebook_example_a_wall_between_square_and_building() -> None:
    # "Der lila Platz zählt nicht, da er zwar zum Turm benachbart, aber durch eine Stadtmauer
    # von ihm getrennt ist."
    purple = sq("Te")
    alh = _alhambra({(-1, 0): purple, (0, 1): tile("T11n"), (-1, 1): tile("P6n")})
    assert square_count(_P(alh), Coord(-1, 0), purple) == 0  # type: ignore[arg-type]
    alh2 = _alhambra({(1, 0): sq("Tn"), (2, 0): tile("T13e")})
    assert square_count(_P(alh2), Coord(1, 0), sq("Tn")) == 1  # type: ignore[arg-type]


def test_at_most_three_and_only_buildings_of_its_colour() -> None:
    # "Bei einer Wertung zählt ein Platz wie null bis drei Gebäudeplättchen der gleichen Farbe."
    centre = sq("A0")
    alh = _alhambra(
        {
            (0, 2): centre,
            (0, 1): tile("A9-"),
            (1, 2): tile("A10-"),
            (-1, 2): tile("A6ne"),
            (0, 3): tile("A8e"),
        }
    )
    assert square_count(_P(alh), Coord(0, 2), centre) == 3  # type: ignore[arg-type]
    other = _alhambra({(0, 1): sq("Tn"), (1, 1): tile("A9-"), (-1, 1): sq("T0")})
    assert square_count(_P(other), Coord(0, 1), sq("Tn")) == 0  # type: ignore[arg-type]


def test_a_square_is_no_building_of_its_own() -> None:
    alh = _alhambra({(0, 1): sq("Tn")})
    assert alh.counts()[T] == 0


def test_square_walls_count_for_the_outer_wall() -> None:
    # "Die Stadtmauern auf den Plätzen werden wie üblich gewertet."
    alh = _alhambra({(0, 1): sq("Tnew"), (1, 1): tile("T13e")})
    assert longest_outer_wall(alh).length >= 2


def test_scoring_breakdown_shows_the_square_on_its_own_line() -> None:
    rep = run(
        TOP + "1. Ben: buy Di A9 pay Di9, square sq:An, place A9@1,0, place sq:An@2,0\n"
        "* market Di:T9ne, squares sq:As, display W1\nscoring 1\n",
        Q,
    )
    assert [c for c in codes(rep) if c != "SCORING-CARD-PILE"] == [], messages(rep)
    row = next(r for r in rep.scorings[0].rows if r.name == "Ben")
    assert row.buildings[A].count == 2  # A9 and the square next to it
    from referee.scoring import render_scoring_text

    assert "square sq:An@2,0: counts as 1 arcade" in render_scoring_text(rep.scorings[0])


@given(
    walls=st.sets(st.sampled_from(SIDES)),
    neighbours=st.lists(
        st.sampled_from(["A9-", "A8n", "A6ne", "T12-", "sq", None]), min_size=4, max_size=4
    ),
)
def test_property_count_is_the_open_like_neighbours_capped_at_three(
    walls: set[Side], neighbours: list[str | None]
) -> None:
    square = Square(A, frozenset(walls))
    pieces: dict[tuple[int, int], object] = {(5, 5): square}
    expected = 0
    for side, code in zip(SIDES, neighbours, strict=True):
        if code is None:
            continue
        at = Coord(5, 5).neighbour(side)
        piece = sq("An") if code == "sq" else tile(code)
        pieces[(at.x, at.y)] = piece
        open_between = side not in walls and side.opposite not in piece.walls
        if code != "sq" and piece.type is A and open_between:
            expected += 1
    got = square_count(_P(_alhambra(pieces)), Coord(5, 5), square)  # type: ignore[arg-type]
    assert 0 <= got <= 3 and got == min(expected, 3)
