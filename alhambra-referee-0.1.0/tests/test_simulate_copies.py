"""The copies the simulator's trials make: a module's scratch copied by kind (the same as
``copy.deepcopy``), and an accepted trial taken over as the new state (the same record as
applying the line again)."""

from __future__ import annotations

import copy
import enum
import pickle
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.catalogue import ALL_MONEY_CARDS, catalogue
from referee.engine.state import EMPTY
from referee.modules.base import Scratch
from referee.profiles import load_profile
from referee.record.model import Pos
from referee.simulate import simulator
from referee.simulate.simulator import simulate_text


class _Colour(enum.Enum):
    RED = 1
    BLUE = 2


class _At(NamedTuple):
    x: int
    y: int


@dataclass
class _Held:
    name: str
    items: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class _Frozen:
    value: int
    tags: tuple[str, ...] = ()


class _Odd:
    """A class with its own deep copy that is not itself."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __deepcopy__(self, memo: dict[int, Any]) -> _Odd:
        return _Odd(self.n + 1)


@dataclass
class _Sample(Scratch):
    atoms: dict[str, int] = field(default_factory=dict)
    nested: dict[str, list[int]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    deep_counts: dict[str, Counter[_Colour]] = field(default_factory=dict)
    seen: set[tuple[int, int]] = field(default_factory=set)
    frozen: frozenset[str] = frozenset()
    pairs: list[tuple[str, list[int]]] = field(default_factory=list)
    plain: tuple[int, str, None] = (1, "a", None)
    at: _At | None = None
    held: _Held | None = None
    frozen_rec: _Frozen | None = None
    odd: _Odd | None = None
    pos: Pos | None = None
    alias_a: list[int] = field(default_factory=list)
    alias_b: list[int] = field(default_factory=list)
    cards: list[Any] = field(default_factory=list)
    kind: type | None = None


def _sample() -> _Sample:
    shared = [1, 2, 3]
    s = _Sample(
        atoms={"a": 1, "b": 2},
        nested={"x": [1, 2], "y": []},
        counts=Counter({"Gu": 2, "Di": 0}),
        deep_counts={"Anna": Counter({_Colour.RED: 1})},
        seen={(0, 1), (5, -2), (3, 3)},
        frozen=frozenset({"p", "q"}),
        pairs=[("a", shared)],
        at=_At(1, -1),
        held=_Held("h", [_At(0, 0), {"k": [1]}]),
        frozen_rec=_Frozen(3, ("t",)),
        odd=_Odd(4),
        pos=Pos(3, 7),
        alias_a=shared,
        alias_b=shared,
        cards=[ALL_MONEY_CARDS[0], catalogue().tiles[0], EMPTY, _Colour.BLUE, None],
        kind=_Colour,
    )
    s.held.items.append(s.held)  # type: ignore[union-attr]  # an object that holds itself
    return s


def _mutable_ids(root: object) -> set[int]:
    """The ids of the mutable objects reachable from ``root``."""
    seen: set[int] = set()
    out: set[int] = set()
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type):
            continue
        seen.add(id(o))
        if isinstance(o, list | dict | set) or hasattr(o, "__dict__"):
            out.add(id(o))
        if isinstance(o, dict):
            stack.extend([*o.keys(), *o.values()])
        elif isinstance(o, list | tuple | set | frozenset):
            stack.extend(o)
        elif hasattr(o, "__dict__"):
            stack.extend(vars(o).values())
    return out


def test_a_scratch_copy_is_what_deepcopy_gives() -> None:
    s = _sample()
    mine = s.copy()
    ref = copy.deepcopy(s)
    assert type(mine) is _Sample
    # pickle writes every value, the order of sets and dicts, and which values are one object
    # (not ``==``: the sample holds an object that holds itself)
    assert pickle.dumps(mine) == pickle.dumps(ref)
    # the copy shares exactly what deepcopy shares with the original (immutable values only)
    assert _mutable_ids(s) & _mutable_ids(mine) == _mutable_ids(s) & _mutable_ids(ref)
    assert mine.alias_a is mine.alias_b is mine.pairs[0][1]
    assert mine.alias_a is not s.alias_a
    assert mine.held is not None and mine.held.items[-1] is mine.held
    assert mine.plain is s.plain  # a tuple of immutable values: deepcopy keeps it too
    assert mine.cards[0] is s.cards[0] and mine.cards[2] is EMPTY
    assert mine.odd is not None and mine.odd.n == 5  # the class's own __deepcopy__
    assert mine.kind is _Colour


def test_a_scratch_copy_is_independent_of_the_original() -> None:
    s = _sample()
    mine = s.copy()
    assert isinstance(mine, _Sample)
    mine.nested["x"].append(9)
    mine.counts["Gu"] += 1
    mine.deep_counts["Anna"][_Colour.BLUE] += 1
    mine.seen.add((9, 9))
    mine.alias_a.append(4)
    assert s.nested["x"] == [1, 2]
    assert s.counts["Gu"] == 2
    assert s.deep_counts["Anna"] == Counter({_Colour.RED: 1})
    assert (9, 9) not in s.seen
    assert s.alias_b == [1, 2, 3]
    assert isinstance(mine.counts, Counter)
    assert mine.counts["Di"] == 0 and "Di" in mine.counts  # zero counts kept, as deepcopy


def _records(monkeypatch: Any, take: bool) -> list[str]:
    if not take:  # the line applied a second time, as before the trials were kept
        monkeypatch.setattr(simulator._Game, "_take_trial", lambda self, item, here=None: False)
    out = []
    for modules, players, seed, profile in (
        ((), 2, 11, "queen-2003"),  # the engine's own turns
        (("baumeister", "wesir"), 2, 1000, "queen-bigbox-2019"),  # granted redesigns, vizier
        (("charaktere",), 3, 1004, "piatnik-hu"),  # auction lines (pick_line)
    ):
        out.append(simulate_text(players, seed, load_profile(profile), "trial", modules))
    monkeypatch.undo()
    return out


def test_an_accepted_trial_taken_over_writes_the_same_records(monkeypatch: Any) -> None:
    assert _records(monkeypatch, take=True) == _records(monkeypatch, take=False)
