"""Scorings: ``rulebook-base-de-2003.txt``, sections "Wertungen", "Siegpunkte für Mehrheiten bei
den Gebäuden", "Siegpunkte für die Außenmauern", "Spielende" and "Sonderregel für das Spiel zu
zweit"."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_geometry_pictures import layout

from referee.catalogue import BuildingType
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Claim, ClaimPart, PlayerRef
from referee.scoring import (
    POINTS,
    CountAdjustment,
    ScoringEntry,
    claim_mismatches,
    render_scoring_text,
    score_round,
)

P, S, A, C, G, T = (
    BuildingType.PAVILION,
    BuildingType.SERAGLIO,
    BuildingType.ARCADES,
    BuildingType.CHAMBERS,
    BuildingType.GARDEN,
    BuildingType.TOWER,
)
NAMES = "ABCDEF"


def points_for(round_no: int, type_: BuildingType, counts: list[int]) -> list[int]:
    entries = [ScoringEntry(NAMES[i], counts={type_: n}) for i, n in enumerate(counts)]
    result = score_round(round_no, entries)
    return [row.buildings[type_].points for row in result.rows]


# ------------------------------------------------------------------- the point tables


def test_point_tables() -> None:
    # "1. Wertung": Pavillon 1 ... Turm 6; "2. Wertung": 8/1 ... 13/6; third: 16/8/1 ... 21/13/6
    assert [POINTS[1][t] for t in (P, S, A, C, G, T)] == [(1,), (2,), (3,), (4,), (5,), (6,)]
    assert POINTS[2][P] == (8, 1) and POINTS[2][T] == (13, 6)
    assert POINTS[3][P] == (16, 8, 1) and POINTS[3][T] == (21, 13, 6)
    assert POINTS[3][C] == (19, 11, 4)


# ------------------------------------------------------------------- rulebook examples


def test_rulebook_most_chambers_in_scoring_1() -> None:
    # "Der Spieler mit den meisten Gemächern bekommt 4 Punkte."
    assert points_for(1, C, [3, 2, 1]) == [4, 0, 0]


def test_rulebook_kim_and_nina_share_towers_in_scoring_2() -> None:
    # "Kim und Nina haben jeweils 4 Türme. Sie teilen sich die Punkte für den 1. und 2. Platz:
    # 13 + 6 = 19 Punkte. Jede bekommt also abgerundet 9 Punkte."
    result = score_round(
        2, [ScoringEntry("Kim", counts={T: 4}), ScoringEntry("Nina", counts={T: 4})]
    )
    kim = result.row("Kim")
    assert kim is not None
    assert kim.buildings[T].points == 9
    assert kim.buildings[T].split == "(13+6)/2 = 9"
    assert kim.buildings[T].tied_with == ("Nina",)
    assert kim.buildings[T].place == 1


def test_rulebook_pavilions_in_scoring_3() -> None:
    # "Der Spieler mit den meisten Pavillons bekommt 16 Punkte. Derjenige mit den zweitmeisten
    # Pavillons bekommt 8 Punkte. Der Spieler mit den drittmeisten Pavillons bekommt 1 Punkt."
    assert points_for(3, P, [3, 2, 1]) == [16, 8, 1]


# -------------------------------------------------------------------------- tie shapes
# (round, type, counts per player, expected points per player)
TIES: list[tuple[int, BuildingType, list[int], list[int]]] = [
    # scoring 1: only the first place pays
    (1, T, [3, 2], [6, 0]),
    (1, T, [3, 3], [3, 3]),  # (6+0)/2
    (1, T, [2, 2, 2], [2, 2, 2]),  # (6+0+0)/3
    (1, T, [1, 1, 1, 1], [1, 1, 1, 1]),  # 6/4 rounded down
    (1, T, [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]),
    (1, T, [2, 2, 2, 2, 2, 2], [1, 1, 1, 1, 1, 1]),
    (1, P, [1, 1], [0, 0]),  # (1+0)/2 rounded down
    (1, T, [3, 1, 1], [6, 0, 0]),  # tie at 2nd: unpaid
    (1, T, [0, 0, 0], [0, 0, 0]),
    (1, T, [0, 1, 0], [0, 6, 0]),
    # scoring 2: first and second
    (2, T, [5, 4, 3], [13, 6, 0]),
    (2, T, [4, 4], [9, 9]),
    (2, T, [4, 4, 3], [9, 9, 0]),  # the tie pushes the third past the paid places
    (2, T, [4, 4, 4], [6, 6, 6]),  # (13+6+0)/3
    (2, T, [4, 4, 4, 4], [4, 4, 4, 4]),  # 19/4
    (2, T, [5, 3, 3], [13, 3, 3]),  # (6+0)/2
    (2, T, [5, 3, 3, 3], [13, 2, 2, 2]),
    (2, T, [5, 3, 3, 3, 3], [13, 1, 1, 1, 1]),
    (2, T, [5, 4, 1, 1], [13, 6, 0, 0]),
    (2, P, [2, 0, 2, 0, 1, 0], [4, 0, 4, 0, 0, 0]),  # (8+1)/2; zero counts never score
    (2, T, [0, 0, 1], [0, 0, 13]),
    # scoring 3: first, second and third
    (3, T, [5, 4, 3, 2], [21, 13, 6, 0]),
    (3, T, [5, 5, 3, 2], [17, 17, 6, 0]),  # (21+13)/2; the next takes 3rd place
    (3, T, [5, 4, 4, 2], [21, 9, 9, 0]),  # (13+6)/2
    (3, T, [5, 4, 3, 3], [21, 13, 3, 3]),  # (6+0)/2
    (3, T, [5, 5, 5, 2], [13, 13, 13, 0]),  # (21+13+6)/3
    (3, T, [5, 4, 4, 4], [21, 6, 6, 6]),  # (13+6+0)/3
    (3, T, [5, 4, 3, 3, 3], [21, 13, 2, 2, 2]),  # (6+0+0)/3
    (3, T, [5, 5, 5, 5], [10, 10, 10, 10]),  # (21+13+6+0)/4
    (3, T, [5, 4, 4, 4, 4], [21, 4, 4, 4, 4]),  # (13+6+0+0)/4
    (3, T, [5, 4, 3, 3, 3, 3], [21, 13, 1, 1, 1, 1]),  # 6/4
    (3, T, [2, 2, 2, 2, 2, 2], [6, 6, 6, 6, 6, 6]),  # 40/6
    (3, P, [1, 1, 1], [8, 8, 8]),  # (16+8+1)/3
    (3, P, [2, 2, 1, 1], [12, 12, 0, 0]),  # (16+8)/2, then (1+0)/2
    (3, T, [5, 5, 4, 4, 3, 3], [17, 17, 3, 3, 0, 0]),  # 4th place onwards pays nothing
    (3, T, [2, 0, 1], [21, 0, 13]),
    (3, G, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]),
]


@pytest.mark.parametrize(("round_no", "type_", "counts", "expected"), TIES)
def test_tie_shapes(
    round_no: int, type_: BuildingType, counts: list[int], expected: list[int]
) -> None:
    assert points_for(round_no, type_, counts) == expected


def test_places_after_a_tie() -> None:
    entries = [ScoringEntry(n, counts={T: c}) for n, c in zip("ABCD", [5, 5, 3, 0], strict=True)]
    rows = score_round(3, entries).rows
    assert [r.buildings[T].place for r in rows] == [1, 1, 3, None]
    assert rows[0].buildings[T].split == "(21+13)/2 = 17"
    assert rows[2].buildings[T].split == ""
    assert rows[3].buildings[T].points == 0


def test_split_shows_unpaid_places_as_zero() -> None:
    rows = score_round(1, [ScoringEntry(n, counts={T: 2}) for n in "AB"]).rows
    assert rows[0].buildings[T].split == "(6+0)/2 = 3"


def _reference(round_no: int, type_: BuildingType, counts: list[int]) -> list[int]:
    """Straight from the rule text: sort, give each place its points, tied players share."""
    table = POINTS[round_no][type_]
    result = []
    for n in counts:
        if n == 0:
            result.append(0)
            continue
        better = sum(1 for m in counts if m > n)
        same = sum(1 for m in counts if m == n)
        paid = [table[p] if p < len(table) else 0 for p in range(better, better + same)]
        result.append(sum(paid) // same)
    return result


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([1, 2, 3]),
    st.sampled_from(list(BuildingType)),
    st.lists(st.integers(min_value=0, max_value=6), min_size=2, max_size=6),
)
def test_majorities_property(round_no: int, type_: BuildingType, counts: list[int]) -> None:
    got = points_for(round_no, type_, counts)
    assert got == _reference(round_no, type_, counts)
    for i, a in enumerate(counts):
        for j, b in enumerate(counts):
            if a == b:
                assert got[i] == got[j]
            if a > b:
                assert got[i] >= got[j]
    assert sum(got) <= sum(POINTS[round_no][type_])


# ----------------------------------------------------------------- walls, Dirk, totals


RING = """
nw  n   ne
w   F   Te
sw  Ts  Tse
"""


def test_wall_scored_from_the_alhambra() -> None:
    alh = layout(RING)
    result = score_round(1, [ScoringEntry("Kim", alh, total_before=5)])
    row = result.rows[0]
    assert row.wall is not None
    assert (row.wall.length, row.wall.points, row.wall.verified) == (12, 12, True)
    assert len(row.wall.segments) == 12
    # towers: 3 (the only player: first place, 6 points); gardens 5: 5 points
    assert row.buildings[T].count == 3 and row.buildings[T].points == 6
    assert row.buildings[G].points == 5
    assert row.points == 12 + 6 + 5
    assert row.total == 5 + 23


def test_wall_ring_in_the_simple_path_profile() -> None:
    profile = dataclasses.replace(DEFAULT_PROFILE, wall_run="simple-path")
    row = score_round(1, [ScoringEntry("Kim", layout(RING))], profile).rows[0]
    assert row.wall is not None and row.wall.points == 11


def test_reserve_never_counts_the_alhambra_holds_only_placed_tiles() -> None:
    # "Achtung: Gebäudeteile in Ihrem Reservefeld zählen bei Wertungen nicht mit."
    alh = layout("F T- T-")
    row = score_round(1, [ScoringEntry("Kim", alh), ScoringEntry("Ben", counts={T: 3})]).rows
    assert row[0].buildings[T].count == 2
    assert row[1].buildings[T].points == 6 and row[0].buildings[T].points == 0


def test_dirk_scores_majorities_never_a_wall() -> None:
    # "Bei Wertungen bekommt auch Dirk Siegpunkte für Gebäudemehrheiten, eine Außenmauer wird für
    # ihn jedoch nicht gewertet."
    entries = [
        ScoringEntry("Kim", layout("F Tn Tn")),
        ScoringEntry("Nina", layout("F T-")),
        ScoringEntry("Dirk", counts={T: 2, P: 1}, is_dirk=True, wall_claim=9),
    ]
    result = score_round(2, entries)
    kim, nina, dirk = result.rows
    assert kim.buildings[T].points == 9 and dirk.buildings[T].points == 9  # (13+6)/2
    assert nina.buildings[T].points == 0  # third place in scoring 2
    assert dirk.buildings[P].points == 8
    assert dirk.wall is None
    assert dirk.points == 17
    assert kim.wall is not None and kim.wall.points == 2
    assert result.row(None) is dirk
    assert [r.name for _k, r in result.ranking()] == ["Kim", "Nina"]


def test_counts_fallback_marks_the_wall_not_verified() -> None:
    row = score_round(3, [ScoringEntry("Ben", counts={P: 2, A: 3}, wall_claim=7)]).rows[0]
    assert row.wall is not None
    assert (row.wall.length, row.wall.points, row.wall.verified) == (7, 7, False)
    assert row.points == 16 + 18 + 7
    text = render_scoring_text(score_round(3, [ScoringEntry("Ben", counts={P: 2}, wall_claim=7)]))
    assert "wall not verified" in text


def test_adjustments_count_and_show_their_own_line() -> None:
    entries = [
        ScoringEntry("Kim", counts={T: 2}, adjustments=(CountAdjustment(T, 1, "bonus card"),)),
        ScoringEntry("Ben", counts={T: 3}),
    ]
    kim, ben = score_round(2, entries).rows
    assert kim.buildings[T].count == 3 and kim.buildings[T].base_count == 2
    assert kim.buildings[T].points == 9 and ben.buildings[T].points == 9
    assert "bonus card" in render_scoring_text(score_round(2, entries))


def test_ranking_and_shared_victory() -> None:
    # "Bei Gleichstand teilen sich die Spieler den Sieg." (Spielende)
    entries = [
        ScoringEntry("A", counts={T: 1}, total_before=10),
        ScoringEntry("B", counts={T: 1}, total_before=10),
        ScoringEntry("C", total_before=5),
    ]
    result = score_round(3, entries)
    assert [(k, r.name, r.total) for k, r in result.ranking()] == [
        (1, "A", 27),
        (1, "B", 27),
        (3, "C", 5),
    ]
    assert result.winners() == ["A", "B"]


def test_no_such_scoring() -> None:
    with pytest.raises(ValueError):
        score_round(4, [])


# ----------------------------------------------------------------------------- output


def test_to_dict_has_the_documented_keys() -> None:
    result = score_round(2, [ScoringEntry("Kim", layout(RING), total_before=3)])
    d = result.to_dict()
    assert d["round"] == 2
    player = d["players"][0]
    assert player["buildings"]["T"] == {"count": 3, "place": 1, "points": 13}
    assert player["wall"]["length"] == 12 and player["wall"]["points"] == 12
    assert player["points"] == 13 + 12 + 12
    assert player["total"] == 3 + 37


def test_text_breakdown_english_and_german() -> None:
    entries = [ScoringEntry("Kim", counts={T: 4}), ScoringEntry("Nina", counts={T: 4})]
    en = render_scoring_text(score_round(2, entries))
    de = render_scoring_text(score_round(2, entries), lang="de")
    assert "Scoring 2" in en and "(13+6)/2 = 9" in en and "towers" in en
    assert "Wertung 2" in de and "Türme" in de and "gleichauf: Nina" in de
    # the table is aligned: every type line of a block has its count in the same column
    towers = next(ln for ln in en.splitlines() if ln.startswith("  towers"))
    gardens = next(ln for ln in en.splitlines() if ln.startswith("  gardens"))
    assert re.search(r"\d", towers).start() == re.search(r"\d", gardens).start()  # type: ignore[union-attr]


# ------------------------------------------------------------------------------ claims


def _claim(name: str | None, points: int | None, total: int | None, **parts: int) -> Claim:
    keys = {"wall": "wall", **{t.code: t for t in BuildingType}}
    return Claim(
        PlayerRef(name) if name else None,
        points,
        total,
        tuple(ClaimPart(keys[k], v) for k, v in parts.items()),
    )


def test_claim_mismatches() -> None:
    entries = [
        ScoringEntry("Kim", layout("F Tn Tn"), total_before=4),
        ScoringEntry("Nina", counts={T: 2}),
        ScoringEntry("Dirk", counts={P: 1}, is_dirk=True),
    ]
    result = score_round(2, entries)  # Kim: towers 9 + wall 2 = 11, total 15
    assert claim_mismatches(result, _claim("Kim", 11, 15, T=9, wall=2)) == []
    found = claim_mismatches(result, _claim("kim", 12, 16, T=13, wall=2))
    assert [(m.what, m.claimed, m.computed) for m in found] == [
        ("points", 12, 11),
        ("total", 16, 15),
        ("T", 13, 9),
    ]
    assert "(13+6)/2 = 9" in found[2].line
    assert "Kim" in found[0].text()
    dirk = claim_mismatches(result, _claim(None, 9, None, wall=1))
    assert [(m.player, m.what, m.claimed, m.computed) for m in dirk] == [
        ("Dirk", "points", 9, 8),
        ("Dirk", "wall", 1, 0),
    ]
    assert claim_mismatches(result, _claim("Zoe", 1, 1)) == []
