"""Die Baustellen's shortcuts (``referee/modules/baustellen.py``) equal the general steps they
stand for: the sites of an Alhambra picked out before sorting (``_sites_in``) as the sorted
cells filtered (the order ``sites_of`` and ``_find`` had written), and the site tokens of a
payment (``_site_refs``) with its early answer for a payment of money cards only."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import ALL_MONEY_CARDS, catalogue
from referee.modules.baustellen import (
    CURRENCIES,
    HIDDEN,
    SitePiece,
    _back,
    _site_refs,
    _sites_in,
)
from referee.record.model import Buy, CardRef, ComponentRef, Coord

_TILES = catalogue().tiles
CELLS = st.builds(Coord, st.integers(-6, 6), st.integers(-6, 6))
PIECES = st.sampled_from(_TILES) | st.builds(
    SitePiece, st.sampled_from(_TILES), st.none() | st.sampled_from(["De", "Di", "Du", "Gu"])
)


@settings(deadline=None)  # no timing: a busy machine must not fail it
@given(st.dictionaries(CELLS, PIECES, max_size=25))
def test_sites_in_is_the_sorted_cells_filtered(cells: dict[Coord, object]) -> None:
    want = [
        (at, piece)
        for at, piece in sorted(cells.items(), key=lambda x: (x[0].x, x[0].y))
        if isinstance(piece, SitePiece)
    ]
    assert _sites_in(cells) == want


class _Purchase:
    """The one field ``_site_refs`` reads of a purchase: its action."""

    def __init__(self, action: Buy) -> None:
        self.action = action


PAID = st.sampled_from(ALL_MONEY_CARDS).map(lambda c: CardRef(c)) | st.builds(
    ComponentRef, st.sampled_from(["bs", "BS", "mb", "di"]), st.sampled_from(["De", "hidden"])
)


@settings(deadline=None)
@given(st.lists(PAID, max_size=5))
def test_site_refs_as_the_whole_filter(paid: list[object]) -> None:
    buy = Buy(None, None, tuple(paid))  # type: ignore[arg-type]
    want = [r for r in paid if isinstance(r, ComponentRef) and r.kind.lower() == "bs"]
    assert _site_refs(_Purchase(buy)) == want  # type: ignore[arg-type]


@settings(deadline=None)
@given(st.sampled_from(["De", "de", "DI", "dU", "Gu", "hidden", "VERDECKT", "x", "", "Gux"]))
def test_back_as_the_loop_over_the_currencies(name: str) -> None:
    low = name.lower()
    want = (
        (True, None)
        if low in HIDDEN
        else next(((True, c) for c in CURRENCIES if low == c.lower()), (False, None))
    )
    assert _back(name) == want
