"""Issue 34, eighteenth step: what a module that does not act costs a turn (silent Wechselgeld,
silent Sultan).

* ``core._turn`` reads no kept answers at a turn's start or end when no enabled module is asked
  then (``Extensions.read_start`` / ``read_end`` empty): nothing ran there before either, since
  an empty ``read_start`` comes with an empty ``ask_start``.
* ``Module.leaves_plain_purchases``: a module promising a yes to every plain purchase is not
  asked (``Extensions.purchase_askers``); Wechselgeld's answer was a constant yes.
* Wechselgeld's claim for change is a ``NamedTuple`` made without a Python frame on every
  purchase (``_tuple_new``); it reads as the dataclass did.
* ``market_side.intercept`` asks ``Extensions.drawing`` (``overriding("market_draw")``, kept).
"""

from __future__ import annotations

import pytest

from referee.engine.extensions import Extensions, Module
from referee.engine.turns import Moment
from referee.modules import BUNDLED
from referee.modules.wechselgeld import ChangeClaim, Wechselgeld, _tuple_new

_NAMES = [cls.name for cls in BUNDLED]


@pytest.mark.parametrize("name", _NAMES)
def test_an_empty_kept_read_means_nobody_is_asked(name: str) -> None:
    ext = Extensions([name])
    for moment, read, ask in (
        (Moment.TURN_START, ext.read_start, ext.ask_start),
        (Moment.TURN_END, ext.read_end, ext.ask_end),
    ):
        if read == ():  # core._turn leaves the moment out
            assert ask == ()
            assert not ext._asked_at(moment) or not ext.in_turn_flow


@pytest.mark.parametrize("name", _NAMES)
def test_intercept_asks_the_modules_overriding_market_draw(name: str) -> None:
    ext = Extensions([name])
    assert ext.drawing == ext.overriding("market_draw")


def test_wechselgeld_is_not_asked_and_would_say_yes() -> None:
    ext = Extensions(["wechselgeld", "sultan", "obstgaerten"])
    coins = next(m for m in ext.modules if m.name == "wechselgeld")
    assert coins in ext.purchase_takers()
    assert coins not in ext.purchase_askers()
    assert coins.leaves_plain_purchase(None, None, 0)  # type: ignore[arg-type]
    assert not Module.leaves_plain_purchases
    assert Wechselgeld.leaves_plain_purchases


def test_a_claim_made_in_c_is_the_claim() -> None:
    made = _tuple_new(ChangeClaim, (2, 3, 9, 3, None, 0))
    plain = ChangeClaim(2, 3, 9, 3, None, 0)  # type: ignore[arg-type]
    assert type(made) is ChangeClaim and made == plain
    assert (made.due, made.full, made.paid, made.price, made.pos) == (2, 3, 9, 3, None)
