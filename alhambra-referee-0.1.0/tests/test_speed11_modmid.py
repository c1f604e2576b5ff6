"""Issue 34, ninth step (the other first modules): each shortcut equals the general step it
stands for.

* Tokens read once per spelling (``parse_bazaar``, ``parse_medina``, ``parse_well``: kept) as
  read afresh (the functions' ``__wrapped__``).
* The pieces of an Alhambra picked out before sorting (Bazare's, Badehäuser's and
  Wunschbrunnen's scoring lines, Medina's count) as the sorted cells filtered.
* Badehäuser's ``side_points`` (cells read by plain tuples) as the walk of its first form.
* A building majority takes its common path for a type no participant adjusts: every
  participant's line equals the general path's (``scores_by_position`` answering None forces
  that path), with adjustments of other types and of the type itself.
* The component data worked out once (tower counts, known prices and numbers, Medina's
  penalties) as worked out afresh, and each call hands out a copy of its own.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import SIDES, BuildingType, Currency, Side, catalogue
from referee.geometry.grid import Alhambra
from referee.geometry.queries import is_building
from referee.modules import badehaeuser, bazare, medina, wunschbrunnen
from referee.modules.badehaeuser import Bathhouse, score_bathhouses, side_points
from referee.modules.base import module_data
from referee.modules.bazare import Bazaar, parse_bazaar, score_bazaars
from referee.modules.medina import Medina, medinas_of, parse_medina
from referee.modules.wunschbrunnen import Well, parse_well, row_length, score_wells
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Coord
from referee.scoring import CountAdjustment, ScoringEntry
from referee.scoring import categories as cat
from referee.scoring.categories import BuildingMajority
from referee.scoring.core import participant

TYPES = list(BuildingType)
_TILES = catalogue().tiles
CELLS = st.builds(Coord, st.integers(-5, 5), st.integers(-5, 5)).filter(lambda c: c != (0, 0))
BATHS = st.builds(Bathhouse, st.tuples(*[st.sampled_from(TYPES)] * 4))
WELLS = st.builds(Well, st.sampled_from([1, 2, 3, 4]), st.sampled_from([None, *SIDES]))
BAZAARS = st.builds(
    Bazaar,
    st.sampled_from(list(Currency)),
    st.permutations(TYPES).map(lambda ts: tuple(ts[:3])),
    st.frozensets(st.sampled_from(list(Side))),
)
MEDINAS = st.builds(Medina, st.sampled_from([3, 4, 5]), st.frozensets(st.sampled_from(SIDES)))
PIECES = st.sampled_from(_TILES) | BATHS | WELLS | BAZAARS | MEDINAS


def _alhambra(cells: dict[Coord, Any]) -> Alhambra:
    return Alhambra(list(cells.items()))


def _top_down_filtered(alh: Alhambra, kind: type) -> list[tuple[Coord, Any]]:
    return [
        (at, piece)
        for at, piece in sorted(alh.items(), key=lambda x: (-x[0].y, x[0].x))
        if isinstance(piece, kind)
    ]


# ------------------------------------------------------------------ tokens, kept


@settings(deadline=None)  # no timing: a busy machine must not fail it
@given(st.text(alphabet="DuDiGuDeDPSACGTnesxwNESW0123456789", max_size=8))
def test_tokens_are_read_as_afresh(name: str) -> None:
    for read in (parse_bazaar, parse_medina, parse_well):
        assert read(name) == read.__wrapped__(name)
        assert read(name) == read.__wrapped__(name)  # kept


@pytest.mark.parametrize(
    "name", ["DuPSA", "DuPSAn", "guCGTx", "DuPPA", "5n", "5", "5x", "12nesw", "4e", "4", "x"]
)
def test_named_tokens_are_read_as_afresh(name: str) -> None:
    for read in (parse_bazaar, parse_medina, parse_well):
        assert read(name) == read.__wrapped__(name)


# ------------------------------------------------------------------ the pieces in order


def _side_points_first_form(alh: Any, at: Coord, bath: Bathhouse) -> list[Any]:
    out = []
    for side, wanted in zip(SIDES, bath.sides, strict=True):
        dx, dy = side.delta
        k, got = 1, 0
        while True:
            c = Coord(at.x + dx * k, at.y + dy * k)
            piece = alh.get(c)
            if piece is None:
                break
            if is_building(c, piece) and piece.type == wanted:
                got = k
                break
            k += 1
        out.append((side, wanted, got))
    return out


@settings(deadline=None)
@given(st.dictionaries(CELLS, PIECES, max_size=30))
def test_scoring_lines_list_the_sorted_cells_filtered(cells: dict[Coord, Any]) -> None:
    alh = _alhambra(cells)
    baths = _top_down_filtered(alh, Bathhouse)
    total = 0
    en = []
    for at, bath in baths:
        parts = _side_points_first_form(alh, at, bath)
        assert side_points(alh, at, bath) == parts
        pts = sum(p for _s, _t, p in parts)
        total += pts
        how = " + ".join(f"{t.value} {p}" for _s, t, p in parts)
        en.append(f"{bath.code}@{at.x},{at.y}: {how} = {pts}")
    assert score_bathhouses(alh) == (total, "; ".join(en), "; ".join(en))
    wells = _top_down_filtered(alh, Well)
    got = score_wells(alh)
    assert got[0] == sum(w.number for at, w in wells if row_length(alh, at, w) == w.number)
    assert got[1].count("in a row") == len(wells)
    assert [part.split(": ")[0] for part in got[1].split("; ") if part] == [
        f"{w.code}@{at.x},{at.y}" for at, w in wells
    ]
    bazaars = _top_down_filtered(alh, Bazaar)
    assert [p.split(": ")[0] for p in score_bazaars(alh)[1].split("; ") if p] == [
        f"{b.code}@{at.x},{at.y}" for at, b in bazaars
    ]
    pieces = [piece for _at, piece in alh.items()]
    assert medinas_of(pieces) == [p for p in pieces if isinstance(p, Medina)]
    assert medinas_of(iter(pieces)) == medinas_of(pieces)


# ------------------------------------------------------------ majorities, adjusted


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([1, 2, 3]),
    st.sampled_from(TYPES),
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=5),
            st.lists(st.tuples(st.sampled_from(TYPES), st.integers(-2, 3)), max_size=2),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_a_type_nobody_adjusts_scores_as_the_general_path(
    round_no: int, type_: BuildingType, rows: list[tuple[int, list[tuple[BuildingType, int]]]]
) -> None:
    names = ["Anna", "Ben", "Cem", "Dana", "Emil", "Fritz"][: len(rows)]
    people = [
        participant(
            ScoringEntry(
                name,
                counts={type_: count, TYPES[0]: 2},
                adjustments=tuple(CountAdjustment(t, n, f"{t.value}{n}") for t, n in adjs),
            )
        )
        for name, (count, adjs) in zip(names, rows, strict=True)
    ]
    category = BuildingMajority(type_)
    common = category.score(round_no, people, DEFAULT_PROFILE)
    kept = cat.scores_by_position
    cat.scores_by_position = lambda counts, table: None
    try:
        general = category.score(round_no, people, DEFAULT_PROFILE)
    finally:
        cat.scores_by_position = kept
    assert list(common) == list(general) == names
    for name in names:
        mine: Any = common[name]
        theirs: Any = general[name]
        assert mine == theirs
        assert mine.tied_with == theirs.tied_with
        assert mine.adjustments == theirs.adjustments


# --------------------------------------------------------------- component data, once


def test_component_data_worked_out_once_is_as_afresh() -> None:
    prices = [int(p) for p in module_data("medina")["components"]["medinas"]["prices"]]
    assert medina.MedinaModule().tower_components() == {
        str(p): n for p, n in Counter(prices).items()
    }
    assert medina._known_prices() == frozenset(prices)
    table = module_data("medina")["components"]["penalties"]
    assert medina.penalty_table() == {int(k): tuple(int(x) for x in v) for k, v in table.items()}
    nones = module_data("medina")["components"]["none_penalty"]
    assert medina.none_penalty() == {int(k): int(v) for k, v in nones.items()}
    n = int(module_data("bazare")["components"]["bazaars"]["per_currency"])
    assert bazare.BazareModule().tower_components() == {c.code: n for c in Currency}
    bath = badehaeuser.BadehaeuserModule()
    count = int(module_data(bath.name)["components"]["bathhouses"]["count"])
    assert bath.tower_components() == {badehaeuser.IDENTITY: count}
    numbers = wunschbrunnen.numbers()
    assert wunschbrunnen.WunschbrunnenModule().tower_components() == dict(
        Counter(str(n) for n in numbers)
    )
    assert wunschbrunnen._known_numbers() == frozenset(numbers)
    # each call a dict of its own: a caller changing it changes nobody else's
    for make in (
        medina.MedinaModule().tower_components,
        bazare.BazareModule().tower_components,
        bath.tower_components,
        wunschbrunnen.WunschbrunnenModule().tower_components,
        medina.penalty_table,
        medina.none_penalty,
    ):
        first = make()
        first.clear()
        assert make()


# ------------------------------------------------------------- scoring lines, kept


@settings(deadline=None)
@given(
    CELLS,
    st.sampled_from(_TILES),
    st.sampled_from([None, "De", "Gu"]),
    st.sampled_from(TYPES),
    st.frozensets(st.sampled_from(SIDES)),
    st.integers(1, 3),
)
def test_kept_scoring_lines_are_made_afresh(
    at: Coord,
    tile: Any,
    back: str | None,
    colour: BuildingType,
    walls: frozenset[Side],
    n: int,
) -> None:
    from referee.modules.baustellen import SitePiece, _site_line
    from referee.modules.plaetze import Square, _square_line, plural

    site = SitePiece(tile, back)
    fresh = CountAdjustment(
        site.carried_tile.type,
        0,
        f"building site {site.code}@{at}: walls only, not counted",
        f"Baustelle {site.code}@{at}: nur Mauern, zählt nicht",
    )
    for _ in range(2):  # the second time: kept
        assert _site_line(at, site, CountAdjustment) == fresh
    sq = Square(colour, walls)
    fresh = CountAdjustment(
        colour,
        n,
        f"square {sq.code}@{at}: counts as {n} {plural(colour, n)}",
        f"Platz {sq.code}@{at}: zählt wie {n} {colour.name_in('de', plural=n != 1)}",
    )
    for _ in range(2):
        assert _square_line(at, sq, n, CountAdjustment) == fresh
    # a plain tuple equal to the cell is another key (its text differs)
    plain = (at.x, at.y)
    assert _site_line(plain, site, CountAdjustment).label.endswith(
        f"@{plain}: walls only, not counted"
    )
