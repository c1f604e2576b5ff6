"""Die Baustellen keeps the site tokens of the payment it was last asked of
(``_site_refs_kept``, issue 34, eighth step): asked four times a purchase, it walks the payment
once. These tests hold each answer equal to picking the sites out afresh, over a run of
payments where the same payment comes again, an equal one follows and others come between."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import ALL_MONEY_CARDS
from referee.modules.baustellen import Baustellen, _site_refs, _site_refs_kept
from referee.record.model import Buy, CardRef, ComponentRef


class _Purchase:
    """The one field the sites are read from: its action."""

    def __init__(self, action: Buy) -> None:
        self.action = action


PAID = st.sampled_from(ALL_MONEY_CARDS).map(lambda c: CardRef(c)) | st.builds(
    ComponentRef, st.sampled_from(["bs", "BS", "mb"]), st.sampled_from(["De", "hidden"])
)


@settings(deadline=None)
@given(
    st.lists(st.lists(PAID, max_size=4), min_size=1, max_size=4),
    st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=16),
)
def test_the_kept_sites_are_the_sites_of_the_payment_asked(
    payments: list[list[object]], asks: list[tuple[int, bool]]
) -> None:
    buys = [Buy(None, None, tuple(paid)) for paid in payments]  # type: ignore[arg-type]
    kept: list[Any] = [None, []]
    for i, fresh in asks:
        buy = buys[i % len(buys)]
        if fresh:  # an equal payment, another tuple
            buy = Buy(None, None, tuple(buy.paid))  # type: ignore[arg-type]
        purchase: Any = _Purchase(buy)
        assert _site_refs_kept(purchase, kept) == _site_refs(purchase)
        assert kept[0] is buy.paid


def test_each_module_keeps_its_own() -> None:
    a, b = Baustellen(), Baustellen()
    assert a._refs_kept is not b._refs_kept
    site = ComponentRef("bs", "De")
    purchase: Any = _Purchase(Buy(None, None, (site,)))  # type: ignore[arg-type]
    assert _site_refs_kept(purchase, a._refs_kept) == [site]
    assert b._refs_kept == [None, []]
