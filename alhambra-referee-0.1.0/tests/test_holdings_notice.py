"""The engine's change notice of a player's holdings (issue 34, twenty-third step, helper
notice): ``PlayerState.reserve_version`` takes a new number at every change of the reserve, and
``Alhambra.version`` at every change of the Alhambra (docs/modules/extension-points.md, "Whose
holdings changed"). A module that skips a player whose two numbers are the ones it noted
(Die Menagerie, Die Künste der Mauren) is only right if no change goes past them.

This file guards that: every bundled module's example and the base examples are checked with
each reserve a list that refuses a change made past ``PlayerState.reserve_*`` and with every
method of the Alhambra watched (a change of its cells or layers must move its version). A new
site that changes a reserve in place (``p.reserve.append(...)``) fails here at once.

The pure build only: compiled, the engine changes its lists with the C calls past a Python
subclass's methods, and a compiled class is not patched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.engine.state import PlayerState
from referee.geometry.grid import Alhambra
from tests.conftest import PATCHES_ENGINE

ROOT = Path(__file__).resolve().parents[1]
# the examples that run every reserve site of the engine and the modules (chosen over all the
# examples: the fewest that reach each site), the six waves (each several modules together),
# and the modules that move buildings between the reserve and the Alhambra of their own
EXAMPLES = [
    ROOT / "examples" / f"{name}.alh"
    for name in (
        "module-bauland",
        "module-marktplatz",
        "final-2p-dirk",
        "illegal-gift",
        "illegal-place-missing",
        "module-baustellen",
        "module-bedienstete",
        "module-menagerie",
        "module-handwerker",
        *(f"module-wave-{w}" for w in "abcdef"),
    )
]


class _Refused(AssertionError):
    pass


class _Watched(list):  # type: ignore[type-arg]
    """A reserve that refuses a change made while no ``PlayerState.reserve_*`` method runs."""

    open = 0  # how many reserve_* calls are running

    def _guard(self) -> None:
        if not _Watched.open:
            raise _Refused("a reserve changed past PlayerState.reserve_* (no change notice)")


def _guarded(name: str) -> Callable[..., Any]:
    base = getattr(list, name)

    def method(self: _Watched, *args: Any, **kwargs: Any) -> Any:
        self._guard()
        return base(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name in (
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "clear",
    "sort",
    "reverse",
    "__setitem__",
    "__delitem__",
    "__iadd__",
    "__imul__",
):
    setattr(_Watched, _name, _guarded(_name))


_RESERVE_METHODS = (
    "reserve_add",
    "reserve_extend",
    "reserve_pop",
    "reserve_remove",
    "reserve_set",
    "reserve_replace",
)
# the Alhambra's methods that may change it (every public method but the plain reads)
_READS = {
    "get",
    "items",
    "cells_of",
    "anchor_of",
    "piece_at",
    "overlay",
    "carried_walls",
    "edge",
    "corner",
    "buildings",
    "pieces",
    "counts",
    "bounds",
    "copy",
}


def watch(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Reserves refusing a change past ``PlayerState.reserve_*``, each ``reserve_*`` call and
    each change of an Alhambra held to a new notice number; returns the counts of both."""
    seen = {"reserve": 0, "alhambra": 0}
    post_init = PlayerState.__post_init__

    def start(self: PlayerState) -> None:
        post_init(self)
        self.reserve = _Watched(self.reserve)

    monkeypatch.setattr(PlayerState, "__post_init__", start)

    def reserve_method(name: str) -> Callable[..., Any]:
        original = getattr(PlayerState, name)

        def method(self: PlayerState, *args: Any) -> Any:
            before = self.reserve_version
            _Watched.open += 1
            try:
                out = original(self, *args)
            finally:
                _Watched.open -= 1
            if not isinstance(self.reserve, _Watched):  # (reserve_replace: a new list)
                self.reserve = _Watched(self.reserve)
            if args and args[0] == [] and name == "reserve_extend":
                return out
            assert self.reserve_version != before, f"{name} took no new notice number"
            seen["reserve"] += 1
            return out

        return method

    for name in _RESERVE_METHODS:
        monkeypatch.setattr(PlayerState, name, reserve_method(name))

    def alhambra_method(name: str) -> Callable[..., Any]:
        original = getattr(Alhambra, name)

        def method(self: Alhambra, *args: Any, **kwargs: Any) -> Any:
            cells, layers = dict(self.cells), self.layers
            layers = None if layers is None else layers.copy()
            version = self.version
            out = original(self, *args, **kwargs)
            same = self.cells == cells and (
                self.layers == layers
                or (self.layers is None and layers is not None and layers.empty())
                or (layers is None and self.layers is not None and self.layers.empty())
            )
            if not same:
                assert self.version != version, f"Alhambra.{name} changed it, the version stayed"
                seen["alhambra"] += 1
            return out

        return method

    for name, value in list(vars(Alhambra).items()):
        if name.startswith("__") or name in _READS or not callable(value):
            continue
        monkeypatch.setattr(Alhambra, name, alhambra_method(name))
    return seen


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    yield watch(monkeypatch)


@PATCHES_ENGINE
def test_every_change_of_a_reserve_or_an_alhambra_moves_its_notice(
    watched: dict[str, int],
) -> None:
    from referee.api import check_game, parse_game

    for path in EXAMPLES:
        check_game(parse_game(path.read_text(encoding="utf-8"), source=str(path)))
    # the games ran the sites (not an empty pass)
    assert watched["reserve"] > 50
    assert watched["alhambra"] > 500


@PATCHES_ENGINE
def test_a_change_past_the_methods_is_refused(watched: dict[str, int]) -> None:
    p = PlayerState("Ann", 0)
    p.reserve_add(None)
    with pytest.raises(_Refused):
        p.reserve.append(None)
    with pytest.raises(_Refused):
        p.reserve[0] = None
    first = p.reserve_version
    p.reserve_replace([None, None])
    assert p.reserve_version != first and isinstance(p.reserve, _Watched)
    q = p.copy()
    assert q.reserve_version == p.reserve_version and isinstance(q.reserve, _Watched)
    alh = Alhambra()
    v = alh.version
    assert alh.copy().version == v
