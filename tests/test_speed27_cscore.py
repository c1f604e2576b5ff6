"""The scoring's compiled-build paths (issue 34, twenty-fifth step, helper cscore).

``scoring.categories`` and ``scoring.text`` take a few loops in plain form when they run
compiled (their ``_COMPILED``): a compiled ``map`` over a getter or a bound ``dict.get`` pays a
Python-level call per item, a plain loop over a typed dict does not. Pure Python keeps the
``map`` forms. Both forms must give the same scores and the same text; here the plain forms
run pure too (the flag set by the test: in a compiled module the flag is a C constant, so
there both runs take the compiled form). ``geometry.walls`` compares a path's two end corners
by int keys instead of tuples: the keys must order as the corners.
"""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import BUILDING_TYPES, SIDES, BuildingType
from referee.engine import check_game
from referee.geometry import walls
from referee.notation import parse_text
from referee.record.model import Coord
from referee.scoring import categories, text
from referee.scoring.core import CountAdjustment, ScoringEntry, ScoringRow, score_round
from referee.scoring.text import _type_scores, render_scoring_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# base games, Dirk (Bauland, Menagerie: two players), count adjustments (Bonuskarten,
# Baustellen, Schlüssel), a replacement points table (Wertungskärtchen), diagonal walls
# (Wachtürme), module lines
GAMES = [
    "game-3p.alh",
    "game-4p.alh",
    "game-6p.alh",
    "illegal-claim.alh",
    "module-all-four.alh",
    "module-bauland.alh",
    "module-baustellen.alh",
    "module-bonuskarten.alh",
    "module-menagerie.alh",
    "module-schluessel.alh",
    "module-wachtuerme.alh",
    "module-wave-f.alh",
    "module-wertungskaertchen.alh",
]


def _scorings(name: str) -> list[Any]:
    path = EXAMPLES / name
    out: list[Any] = []
    for game in parse_text(path.read_text(encoding="utf-8"), str(path)):
        assert not game.errors, game.errors
        out += check_game(game).scorings
    return out


def _shown(results: list[Any]) -> list[object]:
    out: list[object] = []
    for r in results:
        out.append(r.to_dict())
        for lang in ("en", "de"):
            out.append(render_scoring_text(r, lang))
            out.append(render_scoring_text(r, lang, ranking=False))
    return out


@pytest.fixture
def plain_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled build's loop forms, in this run."""
    monkeypatch.setattr(categories, "_COMPILED", True)
    monkeypatch.setattr(text, "_COMPILED", True)


@pytest.mark.parametrize("name", GAMES)
def test_plain_loops_give_the_same_scorings_and_text(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _shown(_scorings(name))
    assert before  # every example here has a scoring
    monkeypatch.setattr(categories, "_COMPILED", not categories._COMPILED)
    monkeypatch.setattr(text, "_COMPILED", not text._COMPILED)
    assert _shown(_scorings(name)) == before


def _entries(rng: random.Random, adjusted: bool) -> list[ScoringEntry]:
    names = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"][: rng.randint(2, 6)]
    out = []
    for n in names:
        counts = {t: rng.choice([0, 0, 1, 2, 2, 3, 5]) for t in BUILDING_TYPES}
        adj: tuple[CountAdjustment, ...] = ()
        if adjusted and rng.random() < 0.5:
            t = rng.choice(BUILDING_TYPES)
            adj = (CountAdjustment(t, rng.choice([1, 2, -1]), "bonus card", "Bonuskarte"),)
        out.append(ScoringEntry(n, counts=counts, wall_claim=rng.randint(0, 9), adjustments=adj))
    if rng.random() < 0.3:
        out.append(
            ScoringEntry(
                "Dirk", counts={t: rng.randint(0, 4) for t in BUILDING_TYPES}, is_dirk=True
            )
        )
    return out


def _scored(entries: list[ScoringEntry], round_no: int) -> list[object]:
    result = score_round(round_no, entries)
    return [result.to_dict(), render_scoring_text(result), render_scoring_text(result, "de")]


@pytest.mark.parametrize("adjusted", [False, True])
def test_majorities_ties_and_adjustments_agree(
    adjusted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(27 + adjusted)
    cases = [(_entries(rng, adjusted), rng.randint(1, 3)) for _ in range(60)]
    before = [_scored(e, r) for e, r in cases]
    monkeypatch.setattr(categories, "_COMPILED", not categories._COMPILED)
    monkeypatch.setattr(text, "_COMPILED", not text._COMPILED)
    assert [_scored(e, r) for e, r in cases] == before


def test_a_row_without_all_type_scores_takes_its_buildings(plain_loops: None) -> None:
    result = score_round(1, [ScoringEntry("Anna", counts={BuildingType.TOWER: 2})])
    row = result.rows[0]
    assert _type_scores(row) == list(row.buildings.values())
    # a row missing a type's score (a module's own row): the scores it has, in type order
    cats = {k: s for k, s in row.categories.items() if k != "majority:P"}
    short = ScoringRow(row.name, row.is_dirk, cats, row.total_before)
    assert _type_scores(short) == list(short.buildings.values())
    assert len(_type_scores(short)) == len(BUILDING_TYPES) - 1
    text._COMPILED = False  # (the fixture sets it back)
    assert _type_scores(short) == list(short.buildings.values())


def test_slot_keys_order_as_the_corners() -> None:
    rng = random.Random(2725)
    segs = [
        (Coord(rng.randint(-1024, 1023), rng.randint(-1024, 1023)), rng.choice(SIDES))
        for _ in range(400)
    ]
    segs += [(Coord(x, y), s) for x in (-1024, 0, 1023) for y in (-1024, -1, 1023) for s in SIDES]
    corners = []
    for i, (c, side) in enumerate(segs):
        ends = walls._ends(c, side)
        for slot in (2 * i, 2 * i + 1):
            corner = ends[slot & 1]
            key = walls._slot_key(segs, slot)
            assert key == corner[0] * walls._K + corner[1]
            corners.append((corner, key))
    rng.shuffle(corners)
    for (a, ka), (b, kb) in pairwise(corners):
        assert (a < b) == (ka < kb) and (a == b) == (ka == kb)
