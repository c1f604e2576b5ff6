"""Start-up (issue 34, tenth step): the record classes are made with evaluated annotations (no
``from __future__ import annotations`` in referee/record/model.py), so ``dataclasses`` does not
parse every field's annotation text. What the classes are and do stays the same."""

from __future__ import annotations

import dataclasses
import pickle
import typing

import pytest

from referee.catalogue import BuildingType, Currency, Side
from referee.record import model
from referee.record.model import (
    Buy,
    CardRef,
    ClaimPart,
    Coord,
    Game,
    Header,
    Pos,
    TileRef,
    Turn,
)

RECORD_CLASSES = [
    value
    for value in vars(model).values()
    if isinstance(value, type)
    and dataclasses.is_dataclass(value)
    and value.__module__ == model.__name__
]

# the ten record classes the reader makes ten of a turn, in the shape of model.py's
# _NATIVE_SHAPE (issue 34, nineteenth step): native classes in the compiled build
NATIVE_SHAPE = {
    model.CardRef,
    model.TileRef,
    model.PlayerRef,
    model.TakeMoney,
    model.Buy,
    model.Place,
    model.Turn,
    model.DisplayReveal,
    model.MarketDraw,
    model.Chance,
}
COMPILED = not model.__file__.endswith((".py", ".pyc"))


def test_every_record_class_is_a_frozen_slotted_dataclass_with_evaluated_field_types() -> None:
    """Every record class is a frozen slots dataclass, but the ten of _NATIVE_SHAPE: their own
    ``__setattr__`` refuses (tests/test_record_behaviour.py), they keep slots in pure Python and
    are native (no slots, no ``__dict__``) compiled. Pure Python the field types are the
    evaluated annotations (compiled, the native classes' are what mypyc hands ``dataclass``)."""
    assert len(RECORD_CLASSES) >= 37
    assert set(RECORD_CLASSES) >= NATIVE_SHAPE
    for cls in RECORD_CLASSES:
        if cls in NATIVE_SHAPE:
            assert not cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
            assert cls.__setattr__ is not object.__setattr__, cls
            assert ("__slots__" in vars(cls)) is not COMPILED, cls
            assert "__dict__" not in vars(cls), cls
            if COMPILED:
                continue
        else:
            assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
            assert "__slots__" in vars(cls), cls
        for f in dataclasses.fields(cls):
            assert not isinstance(f.type, str), (cls, f.name, f.type)
        # the annotations the type checker reads resolve to the same objects
        hints = typing.get_type_hints(cls)
        assert [hints[f.name] for f in dataclasses.fields(cls)] == [
            f.type for f in dataclasses.fields(cls)
        ]


@pytest.mark.skipif(COMPILED, reason="compiled: the native classes' field types are mypyc's")
def test_field_types_are_the_written_types() -> None:
    types = {f.name: f.type for f in dataclasses.fields(Turn)}
    assert types["number"] == int | None
    assert types["actions"] == tuple[model.Action, ...]
    assert types["pos"] is Pos
    buy = {f.name: f.type for f in dataclasses.fields(Buy)}
    assert buy["field"] == Currency | None and buy["tile"] == model.TileLike
    assert {f.name: f.type for f in dataclasses.fields(ClaimPart)}["key"] == BuildingType | str
    assert Coord.neighbour.__annotations__["side"] is Side


def test_fields_of_the_native_shape_keep_their_names_defaults_and_comparison() -> None:
    """What the reader's makers and memo read of the fields, in both builds."""
    for cls in NATIVE_SHAPE:
        fields = dataclasses.fields(cls)
        assert fields[-1].name in ("pos", "notes", "comment"), cls
        for f in fields:
            assert f.compare is (f.name not in ("pos", "notes", "comment")), (cls, f.name)
            if f.name == "pos":
                assert f.default == Pos(0, 0)


def test_records_compare_hash_show_and_pickle_as_before() -> None:
    pos = Pos(3, 7)
    card = CardRef(None, pos)
    assert card == CardRef(None, Pos(9, 9))  # pos does not take part in equality
    assert hash(card) == hash(CardRef(None))
    assert repr(card) == "CardRef(card=None, pos=Pos(line=3, column=7))"
    tile = TileRef(BuildingType.PAVILION, 3, frozenset({Side.N}), (), pos)
    assert repr(tile).startswith("TileRef(type=<BuildingType.PAVILION: ")
    game = Game((Header("Players", "Anna, Ben", pos),), (Turn(1, None, (), pos),))
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(game)).players == ("Anna", "Ben")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.card = None  # type: ignore[misc]
    assert Coord(1, 2).neighbour(Side.N) == Coord(1, 3)
