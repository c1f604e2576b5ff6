"""Die Wechselscheine's certificate paid in a one-pass purchase (issue 34, eleventh step):
``Wechselscheine.plain_components`` vouches only for what ``credit_problems`` passes (one
token, a stored amount the payer holds, of a currency that may pay) and counts the amount as
``credit_value`` does; the whole check of such purchases against the pipeline is
tests/test_purchase_components_onepass.py (every module answering the hook), beside other
modules tests/test_purchase_hearers_onepass.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from referee.catalogue import CURRENCIES, Currency
from referee.modules.wechselscheine import Wechselscheine, max_stored
from referee.record.model import ComponentRef


def _state(held: tuple[Currency, int] | None) -> Any:
    data = SimpleNamespace(held={"Anna": held})
    return SimpleNamespace(modules={"wechselscheine": data})


def test_the_certificate_answer_names_the_stored_amount_and_declines_the_rest() -> None:
    module = Wechselscheine()
    anna = SimpleNamespace(name="Anna")
    de = CURRENCIES[0]
    every = frozenset(CURRENCIES)
    token = (ComponentRef("ws", f"{de.code}3"),)
    held = _state((de, 3))
    assert module.plain_components(held, anna, token, (), every, 7) == (3, False)
    # what credit_problems reports: the pipeline runs
    assert module.plain_components(_state(None), anna, token, (), every, 7) is None
    assert module.plain_components(_state((de, 2)), anna, token, (), every, 7) is None
    assert module.plain_components(held, anna, token * 2, (), every, 7) is None
    bad = (ComponentRef("ws", "Xy3"),)
    assert module.plain_components(held, anna, bad, (), every, 7) is None
    big = (ComponentRef("ws", f"{de.code}{max_stored() + 1}"),)
    big_held = _state((de, max_stored() + 1))
    assert module.plain_components(big_held, anna, big, (), every, 7) is None
    assert module.plain_components(held, anna, token, (), every - {de}, 7) is None
    # no part of the module's state yet: nothing is held
    empty = SimpleNamespace(modules={})
    assert module.plain_components(empty, anna, token, (), every, 7) is None
