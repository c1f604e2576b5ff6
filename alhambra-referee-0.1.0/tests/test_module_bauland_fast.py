"""Neues Bauland's shortcuts (``referee/modules/bauland.py``) equal the general steps they stand
for: a plot given its building field by field (``Plot.built``) as ``dataclasses.replace`` gives
it, and the plot tokens read once per token (``parse_plot``'s bounded cache) as read afresh.
The turn-end looks that skip unchanged tables are held by the module's own tests (a plot
without a building reported once; Dirk's plots built) and by bench/same_output.py."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side
from referee.modules.bauland import Plot, parse_plot, plots_of, unbuilt_plots
from referee.record.model import Pos

WALLS = st.frozensets(st.sampled_from(list(Side)))
KINDS = st.sampled_from(list(BuildingType))


@settings(deadline=None)  # no timing: a busy machine must not fail it
@given(
    st.integers(1, 4),
    st.integers(1, 20),
    WALLS,
    st.none() | KINDS,
    st.none() | KINDS,
    st.none() | st.builds(Pos, st.integers(1, 99), st.integers(1, 99)),
    KINDS,
)
def test_built_is_replace(
    number: int,
    price: int,
    walls: frozenset[Side],
    kind: BuildingType | None,
    stated: BuildingType | None,
    stated_pos: Pos | None,
    new: BuildingType,
) -> None:
    plot = Plot(number, price, walls, kind, stated, stated_pos)
    got, want = plot.built(new), dataclasses.replace(plot, kind=new)
    assert type(got) is type(want)
    # every field, those left out of the comparison (stated, stated_pos) too
    assert [getattr(got, f.name) for f in dataclasses.fields(Plot)] == [
        getattr(want, f.name) for f in dataclasses.fields(Plot)
    ]


@settings(deadline=None)
@given(st.sampled_from(["2_12n", "2_12N_C", "1_2x", "3_7w_A", "4_5", "9_1n", "x", "2_12q", ""]))
def test_parse_plot_cached_reads_as_afresh(token: str) -> None:
    assert parse_plot(token) == parse_plot.__wrapped__(token)
    assert parse_plot(token) == parse_plot(token)


PIECES = st.lists(
    st.builds(Plot, st.integers(1, 4), st.integers(1, 20), WALLS, st.none() | KINDS)
    | st.sampled_from([None, "tile", 7]),
    max_size=20,
)


@settings(deadline=None)
@given(PIECES)
def test_unbuilt_plots_as_the_filter(pieces: list[object]) -> None:
    want = [p for p in plots_of(pieces) if p.kind is None]
    got = unbuilt_plots(tuple(pieces))
    assert got == want
    assert all(a is b for a, b in zip(got, want, strict=True))  # the same pieces, in order
