"""The engine's generic cost of an enabled module (issue 34, twenty-fourth step).

``core._refill_checks`` tests whether the market has an open field at a refill's close. In a
game with a module enabled, the market may hold a module's pieces, which are compared by
identity (never with their ``__eq__``). That test read ``_EMPTY_ID in map(id, market)``: a map
object, an ``id()`` call (with its audit hook) and a new int for each field, each turn. A
market of four fields is now read field by field with ``is``; another number of fields keeps
the ``map(id, ...)`` test. Both answer the same: held here over every pattern of open fields,
with pieces whose ``__eq__`` fails if it is called, and over games.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game, core, start_state
from referee.engine.state import EMPTY
from referee.notation import parse_text
from referee.record.model import Pos

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class _NoEq:
    """A module's piece whose equality must never be asked (the identity test)."""

    def __eq__(self, other: object) -> bool:
        raise AssertionError("a market field compared with __eq__")

    __hash__ = object.__hash__


def _with(text: str, name: str) -> str:
    return text.replace("[Result ", f'[Modules "{name}"]\n[Result ', 1)


@pytest.fixture(scope="module")
def base_text() -> str:
    return (_EXAMPLES / "game-4p.alh").read_text(encoding="utf-8")


def _market_open(state: Any, market: list[Any]) -> bool:
    """``_refill_checks``' answer for ``market``: read through the one place it shows without
    a record line (a position's unknown bag: an open field makes the game maybe over)."""
    state.market = market
    state.phase = core._REFILL
    state.maybe_over = False
    state.bag_uncertain = True
    state.unrefilled = []
    core._refill_checks(state, Pos(1, 1), False)
    return bool(state.maybe_over)


@pytest.mark.parametrize("size", [4, 3, 5])
def test_the_market_test_of_a_module_game_is_an_identity_test_of_every_field(
    base_text: str, size: int
) -> None:
    (game,) = parse_text(_with(base_text, "bonuskarten"))
    state = start_state(game)
    assert state.ext.modules  # the module game's branch
    for open_at in itertools.product((False, True), repeat=size):
        market = [EMPTY if o else _NoEq() for o in open_at]
        # the general answer: the identity map the four-field reading replaces
        expected = id(EMPTY) in map(id, market)
        assert expected == any(open_at)
        assert _market_open(state, market) is expected


def test_the_base_game_keeps_its_equality_test(base_text: str) -> None:
    (game,) = parse_text(base_text)
    state = start_state(game)
    assert not state.ext.modules
    full = [object(), object(), object(), object()]
    assert _market_open(state, list(full)) is False
    for i in range(4):
        market = list(full)
        market[i] = EMPTY
        assert _market_open(state, market) is True


@pytest.mark.parametrize("name", ["bonuskarten", "wachtuerme", "mauern"])
def test_a_silent_module_game_checks_as_the_base_game(base_text: str, name: str) -> None:
    (base,) = parse_text(base_text)
    (game,) = parse_text(_with(base_text, name))
    want = check_game(base)
    got = check_game(game)
    assert got.valid and want.valid
    assert [p.score for p in got.state.players] == [p.score for p in want.state.players]
    assert [v.code for v in got.violations] == [v.code for v in want.violations]
    assert got.state.market == want.state.market
    assert got.state.game_over == want.state.game_over


def test_an_unrefilled_market_field_is_reported_in_a_module_game(base_text: str) -> None:
    """A refill line left out: REFILL-MARKET in a module game as in the base game (the open
    field found by the four-field test)."""
    lines = base_text.splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if line.startswith("* market "))
    cut = next(i for i, line in enumerate(lines) if i > cut and line.startswith("* market "))
    text = "".join(lines[:cut] + lines[cut + 1 :])
    (base,) = parse_text(text)
    (game,) = parse_text(_with(text, "bonuskarten"))
    want = [v.code for v in check_game(base).violations]
    got = [v.code for v in check_game(game).violations]
    assert "REFILL-MARKET" in want
    assert got == want
