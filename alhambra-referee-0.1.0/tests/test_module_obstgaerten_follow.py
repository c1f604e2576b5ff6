"""The kit's ``follow_market``, through Die Obstgärten's state access (``Obstgaerten.data``) and
Die Menagerie's ``_follow``, walks the market (``_follow_moved``) only where a token may move:
when every building a token lies on is still on its field (the same object) or has left the
market, one look tells that nothing moves. These tests hold the look equal to walking every
time, over markets
where buildings stay, swap, leave, come back as equal copies and lie beyond the market's end
(issue 34, sixth step)."""

from __future__ import annotations

import copy
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine import check_game
from referee.engine.state import EMPTY
from referee.engine.turns import Moment
from referee.modules.base import _follow_moved, field_under, follow_market
from referee.modules.menagerie import Menagerie
from referee.modules.obstgaerten import Obstgaerten

_TILES = [
    TileKind(BuildingType.GARDEN, 8, frozenset({Side.N})),
    TileKind(BuildingType.TOWER, 9, frozenset()),
    TileKind(BuildingType.PAVILION, 3, frozenset({Side.S, Side.W})),
    TileKind(BuildingType.ARCADES, 6, frozenset({Side.E})),
    TileKind(BuildingType.CHAMBERS, 7, frozenset({Side.W})),
]
# besides the interned tiles: pieces compared by value only (an equal copy is another object),
# as a module's piece on the market may be
_PIECES = ["mg:C12ns", "md:5e"]


def _piece(i: int) -> object:
    if i < len(_TILES):
        return _TILES[i]
    if i < len(_TILES) + len(_PIECES):
        return "".join(_PIECES[i - len(_TILES)])  # a new, equal string object
    return EMPTY


_pieces = st.integers(0, len(_TILES) + len(_PIECES))


@st.composite
def _markets(draw: st.DrawFn) -> tuple[list[object], dict[int, int | None], dict[int, object]]:
    size = draw(st.integers(1, 5))
    market = [_piece(i) for i in draw(st.lists(_pieces, min_size=size, max_size=size))]
    slots = draw(st.lists(st.integers(0, size + 1), unique=True, max_size=size + 2))
    under: dict[int, object] = {}
    held: dict[int, int | None] = {}
    for slot in slots:
        # mostly the building on that field, else any piece (moved, left, a copy)
        if slot < size and draw(st.booleans()):
            under[slot] = market[slot]
        else:
            under[slot] = _piece(draw(_pieces))
        if draw(st.integers(0, 4)):  # now and then a building without a token of its own
            held[slot] = draw(st.one_of(st.none(), st.integers(1, 7)))
    return market, held, under


def _accessed(
    market: list[object], held: dict, under: dict, module_type: type = Obstgaerten
) -> tuple[dict, dict]:
    """``held`` and ``under`` after the module's state access (``data``)."""
    module = module_type()
    data = module.scratch_type()
    data.on_market, data.under = held, under
    state = SimpleNamespace(modules={module.name: data}, market=market, changes=0)
    got = module.data(state)
    assert got is data
    return data.on_market, data.under


@settings(max_examples=600, deadline=None)
@given(_markets(), st.sampled_from([Obstgaerten, Menagerie]))
def test_the_state_access_follows_the_market_as_follow_market_does(
    case: tuple, module_type: type
) -> None:
    """Die Obstgärten's fruits and Die Menagerie's animals on market buildings."""
    market, held, under = case
    want_held, want_under = copy.copy(held), copy.copy(under)
    _follow_moved(market, want_held, want_under)
    got_held, got_under = _accessed(market, copy.copy(held), copy.copy(under), module_type)
    assert got_held == want_held and list(got_held) == list(want_held)
    assert list(got_under.items()) == list(want_under.items())
    assert all(got_under[s] is want_under[s] for s in got_under)


def test_the_shortcut_and_the_general_path_on_named_cases() -> None:
    g, t, p = _TILES[0], _TILES[1], _TILES[2]
    # everything on its field: nothing moves
    assert _accessed([g, t, p], {0: 1, 1: 2, 2: 3}, {0: g, 1: t, 2: p}) == (
        {0: 1, 1: 2, 2: 3},
        {0: g, 1: t, 2: p},
    )
    # a building bought (its field empty): its fruit waits on its field for the hook
    assert _accessed([g, EMPTY, p], {0: 1, 1: 2, 2: 3}, {0: g, 1: t, 2: p}) == (
        {0: 1, 1: 2, 2: 3},
        {0: g, 1: t, 2: p},
    )
    # two buildings swapped: their fruits go with them (the general path)
    held, under = _accessed([t, g, p], {0: 1, 1: 2, 2: 3}, {0: g, 1: t, 2: p})
    assert held == {0: 2, 1: 1, 2: 3} and under == {0: t, 1: g, 2: p}


def _taken(market: list[object], held: dict, under: dict, field: int) -> None:
    """A building leaves the market from ``field`` as a purchase or a claim takes it: the hook
    (``on_purchase``, ``after_plain_purchase``, ``market_taken``) follows the market first and
    takes the tokens lying on the building."""
    piece = market[field]
    market[field] = EMPTY
    if piece is EMPTY:
        return
    follow_market(market, held, under)
    slot = field_under(held, under, field, piece)
    under.pop(slot, None)
    held.pop(slot, None)


@st.composite
def _games(draw: st.DrawFn) -> tuple[list[object], dict, dict, list[tuple[int, int, int, bool]]]:
    """A market of distinct buildings (tokens on some of them) and steps: two fields swapped
    (Handwerker's Mörtelmischer), a building taken through its hook, an empty field refilled
    with a building not seen before; after each step the module's state is accessed (or not)."""
    size = draw(st.integers(1, 5))
    pieces = draw(st.permutations(range(len(_TILES))))
    market: list[object] = [_TILES[i] if draw(st.integers(0, 4)) else EMPTY for i in pieces[:size]]
    held: dict[int, int | None] = {}
    under: dict[int, object] = {}
    for slot, piece in enumerate(market):
        if piece is not EMPTY and draw(st.booleans()):
            held[slot], under[slot] = draw(st.integers(1, 7)), piece
    steps = draw(
        st.lists(
            st.tuples(
                st.integers(0, 2),
                st.integers(0, size - 1),
                st.integers(0, size - 1),
                st.booleans(),
            ),
            max_size=8,
        )
    )
    return market, held, under, steps


_FRESH = [
    TileKind(BuildingType.SERAGLIO, price, frozenset()) for price in range(20, 30)
]  # refills: buildings not seen before


def _played(case: tuple, accessed: bool) -> tuple[list, list]:
    market, held, under, steps = copy.copy(case[0]), dict(case[1]), dict(case[2]), case[3]
    fresh = iter(_FRESH)
    for kind, i, j, access in steps:
        if kind == 0:
            market[i], market[j] = market[j], market[i]
        elif kind == 1:
            _taken(market, held, under, i)
        elif market[i] is EMPTY:
            market[i] = next(fresh)
        if accessed and access:
            follow_market(market, held, under)
    follow_market(market, held, under)
    # by field (the order of the fields in the dicts may differ: every reader looks a field up
    # or sorts, and the tokens laid in turn from them are of one field each)
    return sorted(held.items()), sorted((s, (_TILES + _FRESH).index(t)) for s, t in under.items())


@settings(max_examples=400, deadline=None)
@given(_games())
def test_following_at_the_next_reading_access_is_following_at_every_access(case: tuple) -> None:
    """Die Obstgärten's steps that read no market fruits (a ``fruit`` line, a turn's end) take
    the state without following the market (``Obstgaerten._kept``): the fruits follow at the
    next access that reads them. That ends the same as following at every access, as long as
    buildings leave the market through a hook that follows first (every purchase and claim)."""
    assert _played(case, accessed=False) == _played(case, accessed=True)


@cache
def _simulated(modules: tuple[str, ...]) -> list[Any]:
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    return [
        parse_text(simulate_text(n, 7300 + n, profile, f"follow {n}", modules), f"f{n}.alh")[0]
        for n in (2, 3, 4, 6)
    ]


@pytest.mark.parametrize("modules", [("obstgaerten",), ("obstgaerten", "handwerker")])
def test_a_turn_start_leaves_out_only_a_follow_that_moves_nothing(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a turn's start Die Obstgärten follows the market only when its pieces changed since
    its fruits last followed it (``Obstgaerten.at_moment``): wherever it leaves the follow out,
    following would have moved no fruit (games with Handwerker's market swaps among them)."""
    games = _simulated(modules)  # simulated before the module is watched
    seen = {"left out": 0, "starts": 0}
    step = Obstgaerten.at_moment

    def watched(self: Obstgaerten, ctx: Any, moment: Any) -> None:
        state = ctx.state
        data = state.modules.get(self.name)
        if moment == Moment.TURN_START and data is not None and data.under:
            seen["starts"] += 1
            if data.followed == tuple(state.market):
                seen["left out"] += 1
                held, under = dict(data.on_market), dict(data.under)
                follow_market(list(state.market), held, under)
                assert list(held.items()) == list(data.on_market.items())
                assert list(under.items()) == list(data.under.items())
        step(self, ctx, moment)

    watched.acts_at = step.acts_at  # type: ignore[attr-defined]  # asked as the module is
    monkeypatch.setattr(Obstgaerten, "at_moment", watched)
    # every turn start runs the watched step (its idle answer would leave the idle ones out)
    monkeypatch.setattr(Obstgaerten, "idle_at", lambda self, state, moment: False)
    monkeypatch.setattr(Obstgaerten, "kept_idle", frozenset())  # (kept answers: not asked)
    for game in games:
        report = check_game(game)
        assert report.valid and report.complete
    assert seen["left out"] > 50 and seen["starts"] > seen["left out"]
