"""Die Obstgärten's shortcuts of issue 34's eighth step, each held to the general form it stands
for: the state access (``Obstgaerten.data``) follows the market only when its pieces changed
since the fruits last followed it; a fruit's first free field (``_free_field``) and a fruit
token (``_fruit``) are found with fewer Python steps."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_game
from referee.modules.base import follow_market
from referee.modules.obstgaerten import KINDS, Obstgaerten, _free_field, _fruit
from referee.record.model import ComponentRef


def _free_field_plain(kinds: list[int], taken: dict[int, int], kind: int) -> int | None:
    return next((i + 1 for i, s in enumerate(kinds) if s == kind and i + 1 not in taken), None)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.integers(1, 5), max_size=14),
    st.dictionaries(st.integers(0, 16), st.integers(1, 5), max_size=10),
    st.integers(0, 6),
)
def test_the_first_free_field_is_the_plain_search(
    kinds: list[int], taken: dict[int, int], kind: int
) -> None:
    assert _free_field(kinds, taken, kind) == _free_field_plain(kinds, taken, kind)


def _fruit_plain(value: object) -> int | None:
    if isinstance(value, ComponentRef) and value.kind.lower() == "fr" and value.name.isdigit():
        n = int(value.name)
        return n if 1 <= n <= KINDS else None
    return None


@pytest.mark.parametrize("kind", ["fr", "FR", "Fr", "bd", "x"])
@pytest.mark.parametrize(
    "name", ["1", "2", str(KINDS), str(KINDS + 1), "0", "01", "007", "-1", "x", "", "\u0663", "1a"]
)
def test_a_fruit_token_is_read_as_before(kind: str, name: str) -> None:
    ref = ComponentRef(kind, name)
    assert _fruit(ref) == _fruit_plain(ref)


def test_a_fruit_token_of_another_type_is_none() -> None:
    assert _fruit("fr:1") is None and _fruit(3) is None and _fruit(None) is None


@cache
def _simulated(modules: tuple[str, ...]) -> list[Any]:
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    return [
        parse_text(simulate_text(n, 8100 + n, profile, f"orchard {n}", modules), f"o{n}.alh")[0]
        for n in (2, 3, 5)
    ]


@pytest.mark.parametrize("modules", [("obstgaerten",), ("obstgaerten", "handwerker")])
def test_the_state_access_leaves_out_only_a_follow_that_moves_nothing(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wherever ``Obstgaerten.data`` leaves the follow out (the market as when the fruits last
    followed it), following would have moved no fruit: at every access of every game, market
    swaps (Handwerker's Mörtelmischer) among them."""
    games = _simulated(modules)  # simulated before the module is watched
    seen = {"left out": 0, "accesses": 0}
    access = Obstgaerten.data

    def watched(self: Obstgaerten, state: Any) -> Any:
        data = state.modules.get(self.name)
        if data is not None and data.under:
            seen["accesses"] += 1
            if data.followed == tuple(state.market):
                seen["left out"] += 1
                held, under = dict(data.on_market), dict(data.under)
                follow_market(list(state.market), held, under)
                got = access(self, state)
                assert list(held.items()) == list(got.on_market.items())
                assert list(under.items()) == list(got.under.items())
                return got
        return access(self, state)

    monkeypatch.setattr(Obstgaerten, "data", watched)
    # every moment runs its step (the idle answer would leave idle ones out, and their accesses)
    monkeypatch.setattr(Obstgaerten, "idle_at", lambda self, state, moment: False)
    monkeypatch.setattr(Obstgaerten, "kept_idle", frozenset())  # (kept answers: not asked)
    for game in games:
        report = check_game(game)
        assert report.valid and report.complete
    assert seen["left out"] > 50 and seen["accesses"] > seen["left out"]
