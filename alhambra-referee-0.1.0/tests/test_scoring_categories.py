"""Scoring categories (``referee/scoring/categories.py``): the building blocks modules score with.

Majorities over any quantity (most / fewest, shared places rounded down / up, tie-breakers, own
tables, who may rank), point lines and penalties (negative, floored at zero), half counts, a
replacement points table, claims with module parts, and Medina's examples
(``rulebook-bigbox-de-2019.txt`` § MEDINA) modelled as a test-only category.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType
from referee.engine import Module, check_game
from referee.engine.extensions import MODULES
from referee.notation import parse_text
from referee.notation.formatter import format_game
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Claim, ClaimPart, PlayerRef
from referee.scoring import (
    CountAdjustment,
    ScoringEntry,
    ScoringParts,
    category_line,
    claim_mismatches,
    render_scoring_text,
    score_round,
)
from referee.scoring.categories import (
    ORDER_LAST,
    Combined,
    Majority,
    Participant,
    Penalty,
    PointLine,
    num_text,
    placings,
    rank,
    register_category,
    share,
    unregister_category,
)

G, T, S = BuildingType.GARDEN, BuildingType.TOWER, BuildingType.SERAGLIO
MEDINA_SECTION = "rulebook-bigbox-de-2019.txt § MEDINA: Wertungsänderungen"


def entries(*names: str, totals: Mapping[str, int] | None = None) -> list[ScoringEntry]:
    return [
        ScoringEntry(n, counts={}, total_before=(totals or {}).get(n, 0), wall_claim=0)
        for n in names
    ]


def scores(result: Any, key: str) -> dict[str, int]:
    return {r.name: r.categories[key].points for r in result.rows if key in r.categories}


# ---------------------------------------------------------------------- the ranking


def test_most_shares_places_rounding_down() -> None:
    placed = rank([("A", 4, None), ("B", 4, None), ("C", 2, None)], (13, 6))
    assert (placed["A"].place, placed["A"].points, placed["A"].split) == (1, 9, "(13+6)/2 = 9")
    assert placed["B"].tied_with == ("A",)
    assert (placed["C"].place, placed["C"].points) == (3, 0)  # after the two tied players


def test_fewest_ranks_the_smallest_first() -> None:
    placed = rank([("A", 3, None), ("B", 1, None), ("C", 2, None)], (-9, -6, -3), "fewest")
    assert {n: p.place for n, p in placed.items()} == {"B": 1, "C": 2, "A": 3}
    assert {n: p.points for n, p in placed.items()} == {"B": -9, "C": -6, "A": -3}


def test_rounding_is_by_magnitude() -> None:
    assert share(13, 2, "down") == 6 and share(13, 2, "up") == 7
    assert share(-15, 2, "up") == -8 and share(-15, 2, "down") == -7
    assert share(-3, 2, "up") == -2  # Medina, scoring 1: two without medina share the 3
    placed = rank([("A", 0, None), ("B", 0, None)], (-9, -6, -3), "fewest", "up")
    assert placed["A"].points == -8 and placed["A"].split == "(-9-6)/2 = -8"


def test_tie_breaker_separates_equal_quantities_and_equal_breakers_share() -> None:
    most = rank([("A", 3, 5), ("B", 3, 8), ("C", 3, 8)], (10, 4, 1))
    assert most["A"].place == 3 and most["B"].place == most["C"].place == 1
    assert most["B"].points == 7  # (10+4)/2
    fewest = rank([("A", 3, 8), ("B", 3, 5)], (-6, -3), "fewest")
    assert fewest["B"].place == 1 and fewest["A"].place == 2  # the lower breaker loses


def test_majority_own_table_direction_and_who_ranks() -> None:
    chests = Majority(
        "chests",
        "chests",
        "Truhen",
        "test",
        quantity={"Anna": 3, "Ben": 0, "Dirk": 5},
        table={1: (5,), 2: (8, 2)},
        dirk=False,
    )
    result = score_round(
        2, [*entries("Anna", "Ben"), ScoringEntry("Dirk", counts={}, is_dirk=True)], extra=[chests]
    )
    got = {r.name: r.categories.get("chests") for r in result.rows}
    assert got["Dirk"] is None  # Dirk does not rank here
    assert got["Anna"] is not None and got["Anna"].points == 8
    assert got["Ben"] is not None and got["Ben"].points == 0  # "most" needs at least one
    assert got["Ben"].place is None  # type: ignore[attr-defined]
    with_dirk = score_round(
        2,
        [*entries("Anna", "Ben"), ScoringEntry("Dirk", counts={}, is_dirk=True)],
        extra=[Majority("chests", "chests", "Truhen", "t", {"Anna": 3, "Dirk": 5}, {2: (8, 2)})],
    )
    assert scores(with_dirk, "chests") == {"Anna": 2, "Dirk": 8}


def test_majority_quantity_may_be_a_function_of_the_participant() -> None:
    towers_twice = Majority(
        "double",
        "double towers",
        "doppelte Türme",
        "t",
        quantity=lambda p: 2 * p.counts[T],
        table=lambda r: (r, 1),
    )
    es = [ScoringEntry("Anna", counts={T: 2}), ScoringEntry("Ben", counts={T: 1})]
    result = score_round(3, es, extra=[towers_twice])
    assert scores(result, "double") == {"Anna": 3, "Ben": 1}
    assert result.rows[0].categories["double"].quantity_text() == "4"


# ------------------------------------------------------------------- point lines


def test_point_lines_may_be_negative_and_have_labels() -> None:
    tasks = PointLine(
        "task1",
        "task 1",
        "Aufgabe 1",
        "t",
        points=lambda p: (6, "2 rows × 3", "2 Reihen × 3") if p.name == "Anna" else None,
    )
    fine = Penalty("fine", "fine", "Strafe", "t", points={"Ben": 4}, detail_en="late")
    result = score_round(3, entries("Anna", "Ben"), extra=[tasks, fine])
    anna, ben = result.rows
    assert anna.categories["task1"].points == 6 and "fine" not in anna.categories
    assert ben.categories["fine"].points == -4 and "task1" not in ben.categories
    assert ben.points == -4
    assert category_line(anna, "task1") == "Anna, task 1 +6 (2 rows × 3)"
    assert category_line(anna, "task1", "de") == "Anna, Aufgabe 1 +6 (2 Reihen × 3)"
    assert category_line(ben, "fine") == "Ben, fine \u22124 (late)"


def test_floor_at_zero_for_the_total_and_for_the_scoring() -> None:
    total = Penalty(
        "inv", "invaders", "Angreifer", "t", points={"Anna": 10, "Ben": 3}, floor="total"
    )
    result = score_round(1, entries("Anna", "Ben", totals={"Anna": 4, "Ben": 9}), extra=[total])
    anna, ben = result.rows
    assert anna.categories["inv"].points == -4 and anna.total == 0  # "nicht unter Null"
    assert anna.categories["inv"].unfloored == -10  # type: ignore[attr-defined]
    assert "never below zero" in anna.categories["inv"].detail("en")
    assert ben.categories["inv"].points == -3 and ben.total == 6  # not cut
    per_scoring = Penalty("x", "x", "x", "t", points={"Anna": 10}, floor="scoring")
    es = [ScoringEntry("Anna", counts={T: 1}, total_before=50)]
    result = score_round(1, es, extra=[per_scoring])
    assert result.rows[0].points == 0 and result.rows[0].total == 50  # 6 for towers, -6
    unfloored = Penalty("x", "x", "x", "t", points={"Anna": 10})
    assert score_round(1, entries("Anna"), extra=[unfloored]).rows[0].total == -10


def test_order_puts_last_categories_last() -> None:
    late = PointLine("late", "late", "spät", "t", {"Anna": 1}, order=ORDER_LAST)
    early = PointLine("early", "early", "früh", "t", {"Anna": 1})
    row = score_round(1, entries("Anna"), extra=[late, early]).rows[0]
    assert list(row.categories)[-2:] == ["early", "late"]
    assert list(row.categories)[:7] == [*(f"majority:{t.code}" for t in BuildingType), "wall"]


# ------------------------------------------------------------------- half counts


def test_half_counts_tie_exactly_and_print_as_halves() -> None:
    half = CountAdjustment(T, Fraction(1, 2), "the sage: +½ tower", "der Weise: +½ Turm")
    es = [
        ScoringEntry("Anna", counts={T: 2}, adjustments=(half,)),
        ScoringEntry("Ben", counts={T: 2}),
        ScoringEntry("Cem", counts={T: 2}, adjustments=(half,)),
    ]
    result = score_round(2, es)
    towers = {r.name: r.buildings[T] for r in result.rows}
    assert towers["Anna"].count == Fraction(5, 2) and towers["Anna"].points == 9  # (13+6)/2
    assert towers["Anna"].tied_with == ("Cem",) and towers["Ben"].place == 3
    assert towers["Ben"].count == 2 and isinstance(towers["Ben"].count, int)
    text = render_scoring_text(result)
    assert "2½" in text and "+½" in text
    doc = json.loads(json.dumps(result.to_dict()))
    assert doc["players"][0]["buildings"]["T"]["count"] == 2.5
    assert doc["players"][1]["buildings"]["T"]["count"] == 2  # an int stays an int
    assert num_text(Fraction(4, 2)) == "2" and num_text(Fraction(-1, 2)) == "-½"


def test_whole_adjustments_keep_int_counts() -> None:
    one = CountAdjustment(G, Fraction(2, 2), "two halves", "zwei Hälften")
    row = score_round(1, [ScoringEntry("Anna", counts={G: 1}, adjustments=(one,))]).rows[0]
    assert row.buildings[G].count == 2 and type(row.buildings[G].count) is int


# ---------------------------------------------------------------- replacement table


def test_replacement_points_table_for_one_scoring() -> None:
    # the new scoring tiles: another order of the six types, the indicator's values
    order = (T, G, BuildingType.CHAMBERS, BuildingType.ARCADES, S, BuildingType.PAVILION)
    table = {t: (8 + i, 1 + i) for i, t in enumerate(order)}
    es = [ScoringEntry("Anna", counts={T: 2, S: 1}), ScoringEntry("Ben", counts={T: 1, S: 2})]
    base = score_round(2, es)
    new = score_round(2, es, table=table)
    assert base.row("Anna").buildings[T].points == 13  # type: ignore[union-attr]
    assert new.row("Anna").buildings[T].points == 8  # type: ignore[union-attr]
    assert new.row("Ben").buildings[S].points == 12  # type: ignore[union-attr]
    assert new.row("Anna").buildings[S].points == 5  # type: ignore[union-attr]


# -------------------------------------------------------------- Medina (test only)

MEDINA_TABLE = {1: (-3,), 2: (-6, -3), 3: (-9, -6, -3)}


def medina_for(round_no: int, count: Mapping[str, int], dearest: Mapping[str, int]) -> Combined:
    """Medina as the rulebook states it, from the generic blocks: the fewest medinas pay the
    table (places shared rounded up), the dearest medina breaks ties (the lower price loses),
    players without a medina lose 1 / 2 / 3 more; scored last; Dirk does not rank."""
    ranked = Majority(
        "medina",
        "medina",
        "Medina",
        MEDINA_SECTION,
        quantity=dict(count),
        table=MEDINA_TABLE,
        direction="fewest",
        rounding="up",
        tiebreak=dict(dearest),
        tiebreak_label=("dearest", "teuerste"),
        dirk=False,
    )
    none = Penalty(
        "medina-none",
        "no medina",
        "keine Medina",
        MEDINA_SECTION,
        points={n: round_no for n, c in count.items() if c == 0},
        detail_en="no medina",
        detail_de="keine Medina",
    )
    return Combined("medina", "medina", "Medina", MEDINA_SECTION, (ranked, none), order=ORDER_LAST)


def test_medina_example_dearest_medina_breaks_the_tie() -> None:
    # "Spieler C hat die wenigsten Medinas und bekommt 9 Minuspunkte. Spieler A und B haben
    # beide 3 Medinas. Da der höchste Kaufpreis einer Medina von Spieler B eine 5 und von
    # Spieler A eine 8 ist, ist Spieler A der Gewinner und bekommt nur 3 Minuspunkte, während
    # Spieler B 6 Minuspunkte bekommt."
    cat = medina_for(3, {"A": 3, "B": 3, "C": 2}, {"A": 8, "B": 5, "C": 6})
    result = score_round(3, entries("A", "B", "C"), extra=[cat])
    assert scores(result, "medina") == {"A": -3, "B": -6, "C": -9}
    b = result.row("B")
    assert b is not None
    assert category_line(b, "medina") == "B, medina \u22126 (2nd fewest, dearest 5)"
    assert "2. Platz wenigste, teuerste 5" in category_line(b, "medina", "de")
    assert list(b.categories)[-1] == "medina"  # "Die Medinas werden zuletzt gewertet"


def test_medina_caption_two_players_without_medina() -> None:
    # caption "Beispiel: Eingebaute Medinas", 3. Wertung: -11 -11 -3 0; "Falls 2 Spieler keine
    # Medina eingebaut haben, werden die Minuspunkte für den 1. und 2. Platz geteilt
    # (aufrunden!), die für den 3. Platz werden wie gewöhnlich vergeben" + 3 for no medina.
    cat = medina_for(3, {"A": 0, "B": 0, "C": 1, "D": 2}, {"C": 4, "D": 9})
    result = score_round(3, entries("A", "B", "C", "D"), extra=[cat])
    assert scores(result, "medina") == {"A": -11, "B": -11, "C": -3, "D": 0}
    a = result.row("A")
    assert a is not None
    line = category_line(a, "medina")
    assert line.startswith("A, medina \u221211 (fewest, tie: B, (-9-6)/2 = -8")
    assert "no medina \u22123" in line
    text = render_scoring_text(result)
    assert "medina" in text and "\u221211" in text
    doc = result.to_dict()["players"][0]
    assert doc["categories"]["medina"]["points"] == -11
    assert doc["categories"]["medina"]["label_de"] == "Medina"


@pytest.mark.parametrize(
    ("round_no", "count", "expected"),
    [
        # 1. Wertung: "Alle Spieler ohne Medina teilen die 3 Minuspunkte unter sich auf
        # (aufrunden)" -> 2 each, plus 1 for no medina
        (1, {"A": 0, "B": 0, "C": 1}, {"A": -3, "B": -3, "C": 0}),
        # 2. Wertung: several without share places 1 and 2 (9 points), rounded up, + 2 each
        (2, {"A": 0, "B": 0, "C": 0, "D": 1}, {"A": -5, "B": -5, "C": -5, "D": 0}),
        # 3. Wertung: three or more without share "die 18 Punkte" (aufrunden!) + 3 each
        (3, {"A": 0, "B": 0, "C": 0, "D": 0}, {"A": -8, "B": -8, "C": -8, "D": -8}),
    ],
)
def test_medina_shared_places_without_medina(
    round_no: int, count: dict[str, int], expected: dict[str, int]
) -> None:
    cat = medina_for(round_no, count, {n: 5 for n, c in count.items() if c})
    result = score_round(round_no, entries(*count), extra=[cat])
    assert scores(result, "medina") == expected


# --------------------------------------------------------------- claims with parts


@pytest.fixture
def medina_key() -> Iterator[None]:
    from referee.scoring.categories import CATEGORIES

    before = CATEGORIES.get("medina")  # the bundled Medina module registers the key too
    register_category(medina_for(3, {}, {}))
    yield
    unregister_category("medina")
    if before is not None:
        register_category(before)


def test_claim_parts_parse_negative_and_module_keys(medina_key: None) -> None:
    text = '[Players "Anna, Ben"]\n\nscoring 2: Anna +21 =30 (T=21, Medina=-6, wall=3), Ben +0\n'
    game = parse_text(text, "t.alh")[0]
    assert game.errors == ()
    claim = game.body[0].claims[0]  # type: ignore[attr-defined]
    assert [(p.key, p.points) for p in claim.parts] == [(T, 21), ("medina", -6), ("wall", 3)]
    formatted = format_game(game)
    assert "(T=21, medina=-6, wall=3)" in formatted
    again = parse_text(formatted, "t.alh")[0]
    assert again.body == game.body  # a fixed point


def test_unknown_claim_part_is_an_error_in_both_languages() -> None:
    # ("chests" became a real part with Die Schatzkammer: "crates" is none)
    game = parse_text('[Players "Anna"]\n\nscoring 1: Anna +3 (crates=3)\n', "t.alh")[0]
    (err,) = game.errors
    assert (err.pos.line, err.pos.column, err.code) == (3, 21, "UNKNOWN-TYPE")
    assert "unknown claim part 'crates'" in err.message
    assert "unbekannter Wertungsteil 'crates'" in err.message


def test_claim_mismatches_compare_module_parts() -> None:
    cat = medina_for(3, {"A": 3, "B": 3, "C": 2}, {"A": 8, "B": 5, "C": 6})
    result = score_round(3, entries("A", "B", "C"), extra=[cat])
    claim = Claim(PlayerRef("B"), None, None, (ClaimPart("medina", -3), ClaimPart(T, 0)))
    (mm,) = claim_mismatches(result, claim)
    assert (mm.what, mm.claimed, mm.computed) == ("medina", -3, -6)
    assert "B, medina \u22126" in mm.line
    # a part for a category this scoring does not have counts 0
    other = Claim(PlayerRef("B"), None, None, (ClaimPart("task1", 6),))
    assert [(m.what, m.computed) for m in claim_mismatches(result, other)] == [("task1", 0)]


class _TestMedina(Module):
    """A module that exists only in this test: scores Medina from fixed counts."""

    name: ClassVar[str] = "testmedina"
    counts: ClassVar[dict[str, int]] = {"Anna": 3, "Ben": 3, "Cem": 2}
    dearest: ClassVar[dict[str, int]] = {"Anna": 8, "Ben": 5, "Cem": 6}

    def scoring_parts(self, state: Any, round_no: int) -> ScoringParts:
        return ScoringParts(categories=(medina_for(round_no, self.counts, self.dearest),))


GAME = """[Players "Anna, Ben, Cem"]
[Modules "testmedina"]

position
  scorings 2
  player Anna
    score 10
    counts T=1
  player Ben
    score 10
    counts G=1
  player Cem
    score 10
end
scoring 3: Anna +18 (T=21, medina=-3), Ben (medina=-3), Cem =1 (medina=-9)
"""


def test_engine_scores_module_categories_and_reports_claim_mismatches(
    medina_key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(MODULES, "testmedina", _TestMedina)
    game = parse_text(GAME, "m.alh")[0]
    assert game.errors == ()
    report = check_game(game, DEFAULT_PROFILE)
    claims = [v for v in report.violations if v.code == "SCORE-CLAIM"]
    got = {(v.player, v.params["what"], v.params["claimed"], v.params["computed"]) for v in claims}
    # Anna: T=21 and medina=-3 right, +18 right (21 - 3); Ben: medina is -6; Cem: 10 - 9 = 1
    assert got == {("Ben", "medina", -3, -6)}
    (ben,) = claims
    assert "Ben, medina \u22126 (2nd fewest, dearest 5)" in ben.message("en")


def test_participant_counts_include_adjustments() -> None:
    from referee.scoring.core import participant

    adj = CountAdjustment(G, 1, "bonus card G10", "Bonuskarte G10")
    p = participant(ScoringEntry("Anna", counts={G: 2}, adjustments=(adj,)))
    assert isinstance(p, Participant)
    assert p.counts[G] == 3 and p.base_counts[G] == 2


def test_a_player_named_dirk_and_dirk_are_scored_apart() -> None:
    es = [
        ScoringEntry("Dirk", counts={T: 2}),
        ScoringEntry("Anna", counts={T: 1}),
        ScoringEntry("Dirk", counts={T: 3}, is_dirk=True),
    ]
    result = score_round(2, es)
    player, dirk = result.row("Dirk"), result.row(None)
    assert player is not None and dirk is not None
    assert (player.buildings[T].place, dirk.buildings[T].place) == (2, 1)
    assert (player.buildings[T].points, dirk.buildings[T].points) == (6, 13)


class _TestTiles(Module):
    """A test-only module replacing the base table for every scoring (as the new scoring tiles
    do), and giving Dirk half a tower."""

    name: ClassVar[str] = "testtiles"

    def scoring_parts(self, state: Any, round_no: int) -> ScoringParts:
        table = {t: (1 + i, 0) for i, t in enumerate(reversed(list(BuildingType)))}
        half = CountAdjustment(T, Fraction(1, 2), "half a tower", "ein halber Turm")
        return ScoringParts({None: (half,)}, table=table)


def test_engine_uses_a_modules_replacement_table_and_dirks_adjustments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(MODULES, "testtiles", _TestTiles)
    text = (
        '[Players "Anna, Ben"]\n[Modules "testtiles"]\n\nposition\n  scorings 2\n'
        "  dirk T13\n  player Anna\n    counts T=1 P=1\n  player Ben\n    counts T=1\nend\n"
        "scoring 3: Anna +6 (T=0, P=6), Ben +0, dirk +1 (T=1)\n"
    )
    game = parse_text(text, "t.alh")[0]
    assert game.errors == ()
    report = check_game(game, DEFAULT_PROFILE)
    assert [v for v in report.violations if v.code == "SCORE-CLAIM"] == []


# ------------------------------------------------- the building majorities' kept placings


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(0, 6), st.fractions(0, 6, max_denominator=2)),
        min_size=1,
        max_size=7,
    ),
    st.lists(st.integers(-5, 25), min_size=1, max_size=3),
)
def test_kept_placings_are_the_general_ranking(counts: list[Any], table: list[int]) -> None:
    """``placings`` (kept per counts and table, by position) gives every participant the
    place, the tie, the points and the split of the general ``rank`` ("most" wins, at least
    one building to rank, shared places summed and rounded down), asked twice."""
    names = [f"p{i}" for i in range(len(counts))]
    ranked = rank([(n, q, None) for n, q in zip(names, counts, strict=True) if q > 0], table)
    for _ in range(2):  # computed, then from the memo
        got = placings(counts, table)
        for i, name in enumerate(names):
            want = ranked.get(name)
            if want is None:
                assert got[i] is None
                continue
            assert got[i] is not None
            place, tied, points, split = got[i]
            assert (place, points, split) == (want.place, want.points, want.split)
            assert tuple(names[j] for j in tied) == want.tied_with
