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


def test_every_record_class_is_a_frozen_slotted_dataclass_with_evaluated_field_types() -> None:
    assert len(RECORD_CLASSES) >= 37
    for cls in RECORD_CLASSES:
        assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        assert "__slots__" in vars(cls), cls
        for f in dataclasses.fields(cls):
            assert not isinstance(f.type, str), (cls, f.name, f.type)
        # the annotations the type checker reads resolve to the same objects
        hints = typing.get_type_hints(cls)
        assert [hints[f.name] for f in dataclasses.fields(cls)] == [
            f.type for f in dataclasses.fields(cls)
        ]


def test_field_types_are_the_written_types() -> None:
    types = {f.name: f.type for f in dataclasses.fields(Turn)}
    assert types["number"] == int | None
    assert types["actions"] == tuple[model.Action, ...]
    assert types["pos"] is Pos
    buy = {f.name: f.type for f in dataclasses.fields(Buy)}
    assert buy["field"] == Currency | None and buy["tile"] == model.TileLike
    assert {f.name: f.type for f in dataclasses.fields(ClaimPart)}["key"] == BuildingType | str
    assert Coord.neighbour.__annotations__["side"] is Side


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
