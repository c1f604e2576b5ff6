"""The compiled turn's engine side (issue 34, twenty-fifth step).

- The seven plan classes of ``engine.actions`` (``TakeStep``, ``TakePlan``, ``PayStep``,
  ``Purchase``, ``PlainPurchase``, ``PendingPick``, ``ReservePick``) are written for
  ``referee.dataclass_methods.plain_dataclass``: no method generated at import, and each
  behaves as the ``@dataclass`` it was (held here against a twin made by ``dataclasses``).
- The answers of the modules the turn reads on every turn are copied into one object,
  ``Extensions.kept`` (``referee.engine.ext_reads.ExtReads``; compiled, native fields), made
  anew each time the answers are worked out: held equal to the attributes for every bundled
  module alone and all together, and after ``modules_changed``.
- ``core._turn`` calls the engine's own one-pass take, purchase and placement by their C entry
  when compiled and ``actions.PLAIN`` holds them (``core._OWN_PLAIN``, ``core._native_actions``);
  any other step the table holds is called as an object. Pure Python ``_OWN_PLAIN`` stays
  empty; the compiled branch is run here in pure Python with the three names bound as the
  compiled module sees them, and it gives the same verdicts over simulated games.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from typing import Any

import pytest

from referee.catalogue import CURRENCIES, MoneyCard
from referee.dataclass_methods import plain_dataclass
from referee.engine import check_game, core
from referee.engine.actions import PLAIN, placement, purchase, redesign, take
from referee.engine.ext_reads import ExtReads
from referee.engine.extensions import Extensions
from referee.engine.state import PlayerState
from referee.notation import parse_game_text
from referee.record.model import Buy, Place, Pos, TakeMoney
from referee.simulate import simulate_text

CLASSES = (
    take.TakeStep,
    take.TakePlan,
    purchase.PayStep,
    purchase.Purchase,
    purchase.PlainPurchase,
    placement.PendingPick,
    redesign.ReservePick,
)


def _values(cls: type) -> list[dict[str, Any]]:
    """Two sets of field values of ``cls`` of its annotated types (the compiled classes check
    them), the second differing from the first in every field given."""
    anna, ben = PlayerState("Anna", 0), PlayerState("Ben", 1)
    # actions of a simulated game's record (compiled, a record's fields are type-checked)
    acts = [a for item in _games()[0].body for a in getattr(item, "actions", ())]
    buy1, buy2 = [a for a in acts if type(a) is Buy][:2]
    take1, take2 = [a for a in acts if type(a) is TakeMoney][:2]
    card1, card2 = MoneyCard(CURRENCIES[0], 3), MoneyCard(CURRENCIES[1], 5)
    tile1 = tile2 = None
    if cls in (take.TakeStep, purchase.PayStep):
        return [
            {"source": "display", "card": card1, "ref": "x", "pos": Pos(1, 1)},
            {"source": "missing", "card": card2, "ref": "y", "pos": Pos(1, 2)},
        ]
    if cls is take.TakePlan:
        return [
            {"player": anna, "action": take1},
            {"player": ben, "action": take2, "steps": [], "display_before": [card1]},
        ]
    if cls is purchase.Purchase:
        return [
            {"player": anna, "action": buy1},
            {"player": ben, "action": buy2, "slot": 2, "price": 5, "value": 6, "from_bag": True},
        ]
    if cls is purchase.PlainPurchase:
        first = {
            "player": anna,
            "action": buy1,
            "slot": 0,
            "tile": tile1,
            "field": CURRENCIES[0],
            "cards": (card1,),
            "allowed": frozenset(CURRENCIES[:1]),
            "price": 3,
            "total": 3,
            "exact": True,
        }
        second = dict(first, player=ben, action=buy2, slot=1, price=4, total=5, exact=False)
        second["tile"] = tile2
        return [first, second]
    return [{"index": 0, "tile": None}, {"index": 1, "tile": None, "resolves": None}]


def _twin(cls: type) -> type:
    """A ``@dataclass`` (``eq``, not frozen) of the same fields, made by ``dataclasses``."""
    spec = [(f.name, Any, f) for f in dataclasses.fields(cls)]
    fields = []
    for name, kind, f in spec:
        kw: dict[str, Any] = {"init": f.init, "repr": f.repr, "compare": f.compare}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        fields.append((name, kind, dataclasses.field(**kw)))
    return dataclasses.make_dataclass(cls.__name__, fields)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_each_plan_class_behaves_as_its_generated_twin(cls: type) -> None:
    twin = _twin(cls)
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(twin)]
    assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    assert cls.__hash__ is None and twin.__hash__ is None
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.init and params.repr and params.eq and not params.frozen
    for name in ("__repr__", "__eq__"):
        assert getattr(cls, name).__module__ == "referee.dataclass_methods", name
    first, second = _values(cls)
    a, b, a2 = cls(**first), cls(**second), cls(**first)
    ta, tb = twin(**first), twin(**second)
    assert repr(a) == repr(ta) and repr(b) == repr(tb)
    assert a == a2 and a != b and (a == a2) is True and (a != b) is True
    assert a.__eq__(ta) is NotImplemented
    for f in dataclasses.fields(cls):  # defaults and factories as the generated __init__'s
        assert getattr(a, f.name) == getattr(ta, f.name), f.name
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(a, f.name) is not getattr(a2, f.name)
    assert dataclasses.replace(a, **{k: v for k, v in second.items()}) == b
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(b)) == b


def test_a_recursive_repr_and_a_class_of_its_own_methods() -> None:
    @plain_dataclass
    @dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)
    class Node:
        value: Any

        def __init__(self, value: Any) -> None:
            self.value = value

    n = Node(None)
    n.value = [n]
    assert repr(n).endswith(".Node(value=[...])")

    @plain_dataclass
    @dataclasses.dataclass(init=False, repr=False, eq=False)
    class Own:
        x: int

        def __init__(self, x: int) -> None:
            self.x = x

        def __repr__(self) -> str:
            return "own"

        def __hash__(self) -> int:
            return 7

    assert repr(Own(1)) == "own" and hash(Own(1)) == 7 and Own(1) == Own(1) != Own(2)


def test_importing_the_actions_generates_no_method_of_the_plan_classes() -> None:
    code = (
        "import dataclasses, sys\n"
        "import referee.engine.core\n"
        "made = []\n"
        "real = dataclasses._create_fn\n"
        "def spy(name, *a, **k):\n"
        "    made.append(name)\n"
        "    return real(name, *a, **k)\n"
        "dataclasses._create_fn = spy\n"
        "import referee.engine.actions\n"
        "print(sorted(made))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    # only building.PieceName, a frozen dataclass, still has its six methods generated
    assert out.strip() == str(
        sorted(["__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"])
    )


def _games() -> list[Any]:
    return [parse_game_text(simulate_text(n, seed), "<sim>", 1) for n, seed in ((3, 5), (4, 12))]


def _outcome(report: Any) -> Any:
    return (report.valid, report.result, [(v.code, v.line) for v in report.violations])


def test_the_native_dispatch_gives_the_tables_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled action loop of ``_turn`` (``core._native_actions``), run in pure Python
    (the three names bound as the compiled module sees them, ``_OWN_PLAIN`` filled as
    ``_runner`` fills it compiled): the same verdicts, every one-pass action through its named
    call."""
    games = _games()
    before = [_outcome(check_game(g)) for g in games]
    if core._SELF_COMPILED:  # compiled: filled by the first action, the table's own objects
        assert [PLAIN[TakeMoney], PLAIN[Buy], PLAIN[Place]] == core._OWN_PLAIN
        return
    assert core._OWN_PLAIN == []
    calls: list[str] = []

    def named(name: str, fn: Any) -> Any:
        def call(*args: Any) -> Any:
            calls.append(name)
            return fn(*args)

        return call

    monkeypatch.setattr(core, "_take_plain", named("take", take.take_plain), raising=False)
    monkeypatch.setattr(
        core, "_purchase_plain", named("buy", purchase.purchase_plain), raising=False
    )
    monkeypatch.setattr(core, "_place_plain", named("place", placement.place_plain), raising=False)
    monkeypatch.setattr(core, "_OWN_PLAIN", [PLAIN[TakeMoney], PLAIN[Buy], PLAIN[Place]])
    # (``typing.cast``, imported for the type checker only: compiled a type check, no call)
    monkeypatch.setattr(core, "cast", lambda _kind, value: value, raising=False)
    assert [_outcome(check_game(g)) for g in games] == before
    assert {"take", "buy", "place"} <= set(calls)
    # a step put in the table in place of the engine's own is called as an object
    seen: list[str] = []

    def other_take(*args: Any) -> bool:
        seen.append("take")
        return bool(take.take_plain(*args))

    monkeypatch.setitem(PLAIN, TakeMoney, other_take)
    calls.clear()
    assert [_outcome(check_game(g)) for g in games] == before
    assert seen and "take" not in calls and "buy" in calls


# ------------------------------------------------ the modules' per-turn answers as one object

_READS = (
    "counting",
    "refill_asked",
    "turn_asked",
    "refilling_from",
    "draw_heard",
    "draw_types",
    "after_plain",
)


def _same_reads(ext: Extensions) -> None:
    kept = ext.kept
    assert type(kept) is ExtReads
    assert kept.modules is ext.modules  # the same list: a module put into it in place is seen
    for name in _READS:
        assert getattr(kept, name) == getattr(ext, name), name


def _bundled() -> list[str]:
    from referee.modules import discover

    return [cls.name for cls in discover()]


def test_the_kept_reads_are_the_kept_answers_for_each_module_and_all_together() -> None:
    _same_reads(Extensions())
    names = _bundled()
    for name in names:
        _same_reads(Extensions([name]))
    ext = Extensions(names)
    _same_reads(ext)
    # every answer copied is a live one for some module (no dead copy)
    kept = ext.kept
    assert kept.counting and kept.refill_asked and kept.turn_asked and kept.after_plain
    assert kept.refilling_from and kept.draw_heard is not None


def test_modules_changed_makes_the_kept_reads_again() -> None:
    ext = Extensions()
    first = ext.kept
    assert not first.modules and not first.counting and first.draw_heard is None
    ext.modules.extend(Extensions(["bauland", "sultan"]).modules)
    assert first.modules  # (in place: the list is the same)
    ext.modules_changed()
    assert ext.kept is not first
    _same_reads(ext)
    assert ext.kept.draw_heard is not None  # (Sultan hears the market's draws)
    ext.modules.clear()
    ext.modules_changed()
    _same_reads(ext)
    assert not ext.kept.counting and ext.kept.draw_heard is None


def test_a_state_given_other_modules_reads_their_answers() -> None:
    """The engine reads ``state.ext.kept`` (not a copy of its own): a state whose ``ext`` is
    replaced reads the new one's answers (Sultan hears the market's draws)."""
    from referee.engine.state import GameState

    state = GameState(players=[])
    assert state.ext.kept.draw_heard is None
    state.ext = Extensions(["sultan"])
    assert state.ext.kept.draw_heard is not None
