"""The twelfth speed step's changes to Die Obstgärten (issue 34), each held to the code it
replaced:

* a purchase's or a claim's hook takes the fruit lying on the bought building on its own field
  without following the market first (``obstgaerten._taken_from``); it follows first only when
  the building's fruit does not lie under it there;
* the refill's ``fruit`` line keeps the idle answer at a turn's start without asking
  ``idle_at`` (the market was followed by the line's own state access).

Every finding, result and the module's part at the game's end are the same as with the hooks
following first, over simulated games (alone, with Handwerker's market swaps, with Wesir's and
Sultan's purchases out of turn) and records with random edits; the model of the fruits'
following (tests/test_module_obstgaerten_follow.py) ends the same with the shortcut.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings

from referee.engine.state import EMPTY, GameState
from referee.engine.turns import Moment
from referee.modules import obstgaerten as og
from referee.modules.base import field_under, follow_market
from tests.purchase_onepass_support import chosen
from tests.test_module_obstgaerten_follow import _FRESH, _TILES, _games, _played
from tests.test_speed11_modrest import _outcome, _texts
from tests.test_speed12_modmid import _checked, _edited, _parsed, _part


def _taken_shortcut(market: list[object], held: dict, under: dict, field: int) -> None:
    """A building leaves the market from ``field`` through the hook as it is now: when its
    token lies under it on that field, taken without following the market first."""
    piece = market[field]
    market[field] = EMPTY
    if piece is EMPTY:
        return
    if under.get(field) is not piece:
        follow_market(market, held, under)
        field = field_under(held, under, field, piece)
    under.pop(field, None)
    held.pop(field, None)


def _played_shortcut(case: tuple, accessed: bool) -> tuple[list, list]:
    market, held, under, steps = copy.copy(case[0]), dict(case[1]), dict(case[2]), case[3]
    fresh = iter(_FRESH)
    for kind, i, j, access in steps:
        if kind == 0:
            market[i], market[j] = market[j], market[i]
        elif kind == 1:
            _taken_shortcut(market, held, under, i)
        elif market[i] is EMPTY:
            market[i] = next(fresh)
        if accessed and access:
            follow_market(market, held, under)
    follow_market(market, held, under)
    return sorted(held.items()), sorted((s, (_TILES + _FRESH).index(t)) for s, t in under.items())


@settings(max_examples=500, deadline=None)
@given(_games())
def test_taking_the_fruit_under_its_building_needs_no_follow_first(case: tuple) -> None:
    """Markets with swaps, departures and refills: the hook leaving out the follow when the
    building's token lies under it on its field ends as the hook following first does, with
    the state accessed at any step or only at the end."""
    assert _played_shortcut(case, accessed=True) == _played(case, accessed=True)
    assert _played_shortcut(case, accessed=False) == _played(case, accessed=True)


# ----------------------------------------------------------------------------- the former hooks


def _former_on_purchase(self: og.Obstgaerten, ctx: Any, purchase: Any) -> None:
    if purchase.slot is None:
        return
    data = self.data(ctx.state)
    slot = purchase.slot
    if data.under.get(slot) is not purchase.tile:
        slot = field_under(data.on_market, data.under, slot, purchase.tile)
    data.under.pop(slot, None)
    data.followed = ()
    data.idle_start = None
    if slot in data.on_market:
        data.pending.setdefault(purchase.player.name, []).append(data.on_market.pop(slot))
        data.planned = None
        data.idle_end = False


def _former_after_plain_purchase(self: og.Obstgaerten, state: GameState, buy: Any) -> None:
    data = self.data(state)
    slot = buy.slot
    if data.under.get(slot) is not buy.tile:
        slot = field_under(data.on_market, data.under, slot, buy.tile)
    data.under.pop(slot, None)
    data.followed = ()
    data.idle_start = None
    if slot in data.on_market:
        data.pending.setdefault(buy.player.name, []).append(data.on_market.pop(slot))
        data.planned = None
        data.idle_end = False


def _former(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(og, "_taken_from", lambda module, state, slot, piece: module.data(state))
    mp.setattr(og.Obstgaerten, "on_purchase", _former_on_purchase)
    mp.setattr(og.Obstgaerten, "after_plain_purchase", _former_after_plain_purchase)


# The copies each test checks, by their index among its different texts (the example, its
# copies, the simulated games, then the edited copies): the others ran no line of ``referee``
# (with the hooks as they are and as they were) that these do not (coverage, one context a
# text, on main at 350ea36: bench/README.md, issue 34, eighteenth step, one-pass tests).
KEPT = {  # by the modules played with Die Obstgärten
    (): (
        0,
        1,
        13,
        15,
        18,
        19,
        20,
        22,
        23,
        24,
        25,
        26,
        29,
        30,
        33,
        34,
        38,
        39,
        40,
        44,
        48,
        51,
        69,
        75,
        106,
        127,
        131,
    ),
    ("handwerker",): (
        12,
        13,
        15,
        18,
        20,
        21,
        23,
        26,
        27,
        28,
        29,
        30,
        31,
        32,
        34,
        37,
        40,
        41,
        42,
        44,
        54,
        57,
        69,
        75,
        106,
        133,
    ),
    ("wesir", "sultan"): (
        0,
        1,
        12,
        15,
        16,
        17,
        18,
        19,
        20,
        21,
        23,
        24,
        25,
        26,
        30,
        31,
        32,
        35,
        38,
        40,
        42,
        46,
        102,
        108,
        116,
        120,
        130,
    ),
    ("handwerker", "wechselgeld"): (
        12,
        13,
        15,
        16,
        17,
        18,
        19,
        20,
        21,
        22,
        25,
        27,
        28,
        29,
        31,
        32,
        36,
        37,
        40,
        41,
        42,
        64,
        69,
        73,
        102,
        126,
    ),
}
KEPT_SHORTCUT = (
    0,
    1,
    12,
    16,
    17,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    25,
    26,
    27,
    28,
    29,
    30,
    31,
    32,
    33,
    35,
    38,
    40,
    41,
    42,
    45,
    49,
    55,
    67,
    111,
    131,
)
KEPT_IDLE = {
    (): (
        11,
        12,
        14,
        15,
        16,
        17,
        18,
        20,
        21,
        22,
        23,
        24,
        25,
        26,
        27,
        28,
        30,
        31,
        37,
        39,
        40,
        41,
        45,
        54,
        66,
        103,
        118,
        127,
    ),
    ("handwerker",): (
        12,
        17,
        18,
        19,
        21,
        22,
        23,
        25,
        27,
        28,
        29,
        30,
        31,
        34,
        35,
        36,
        37,
        38,
        39,
        40,
        41,
        60,
        66,
        117,
        122,
    ),
}


@pytest.mark.parametrize(
    "with_", [(), ("handwerker",), ("wesir", "sultan"), ("handwerker", "wechselgeld")]
)
def test_obstgaerten_reports_as_with_the_hooks_following_first(
    with_: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = 14400 + len(with_) * 5 + len("".join(with_))
    texts = _texts("obstgaerten", seed, 3, with_)
    games = _parsed(chosen(texts + _edited(texts, seed), KEPT[with_]))  # (read once, checked
    # twice)
    now = _checked(games)
    with pytest.MonkeyPatch.context() as mp:
        _former(mp)
        before = _checked(games)
    assert len(now) == len(before) > 10
    for a, b in zip(now, before, strict=True):
        if isinstance(a, str) or isinstance(b, str):
            assert a == b
            continue
        assert _outcome(a) == _outcome(b)
        assert _part(a) == _part(b)


def test_the_hooks_take_the_shortcut_and_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In games with Handwerker's swaps (and edited copies) both ways of the purchase hooks are
    taken: the fruit under its building on its field (no follow first) and the follow first."""
    seen = {"shortcut": 0, "follow": 0}
    plain, piped = og.Obstgaerten.after_plain_purchase, og.Obstgaerten.on_purchase

    def count(state: GameState, slot: int | None, tile: Any) -> None:
        data = state.modules.get("obstgaerten")
        if slot is not None:
            shortcut = data is not None and data.under.get(slot) is tile
            seen["shortcut" if shortcut else "follow"] += 1

    def watched_plain(self: og.Obstgaerten, state: GameState, buy: Any) -> None:
        count(state, buy.slot, buy.tile)
        plain(self, state, buy)

    def watched_piped(self: og.Obstgaerten, ctx: Any, purchase: Any) -> None:
        count(ctx.state, purchase.slot, purchase.tile)
        piped(self, ctx, purchase)

    texts = _texts("obstgaerten", 14470, 3, ("handwerker",))  # (made before the watch)
    games = _parsed(chosen(texts + _edited(texts, 14470), KEPT_SHORTCUT))
    monkeypatch.setattr(og.Obstgaerten, "after_plain_purchase", watched_plain)
    monkeypatch.setattr(og.Obstgaerten, "on_purchase", watched_piped)
    _checked(games)
    assert seen["shortcut"] > 20
    assert seen["follow"] > 0


@pytest.mark.parametrize("with_", [(), ("handwerker",)])
def test_the_kept_answer_at_a_turn_start_is_what_idle_at_gives(
    with_: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wherever the module keeps its answer at a turn's start (after a refill's ``fruit`` line,
    after the turn-start step), the kept answer is ``idle_at``'s: a copy of the market when
    idle, else None."""
    seen = {"idle": 0, "busy": 0}
    keep = og.Obstgaerten._keep_idle_start

    def watched(self: og.Obstgaerten, state: GameState, data: Any) -> None:
        keep(self, state, data)
        kept = data.idle_start
        idle = self.idle_at(state, Moment.TURN_START)
        assert (kept is not None) == idle
        if idle:
            assert kept == state.market and kept is not state.market
            seen["idle"] += 1
        else:
            seen["busy"] += 1

    texts = _texts("obstgaerten", 14480 + len(with_), 3, with_)  # (made before the watch)
    games = _parsed(chosen(texts + _edited(texts, 14480), KEPT_IDLE[with_]))
    monkeypatch.setattr(og.Obstgaerten, "_keep_idle_start", watched)
    _checked(games)
    assert seen["idle"] > 20
    assert seen["busy"] > 0
