"""What the reader's records do, as callers see it: the behaviour a change of their shape (issue
34: native records of the compiled build) must keep. The ten classes the reader makes ten of a
turn (bench/README.md, "seventeenth step: the compiled build"), each made by its class from
Python: refused assignment and deletion (``FrozenInstanceError``), equality and hash that leave
out ``pos`` (and ``notes``/``comment``), the dataclass ``repr``, pickling, copies,
``dataclasses.replace`` (the simulator and the Lark parser use it) and ``dataclasses.fields`` (the
reader's makers and memo read it). Runs against whichever build is imported."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
from referee.record.model import (
    Annotation,
    Buy,
    CardRef,
    Chance,
    Coord,
    DisplayReveal,
    MarketDraw,
    Place,
    PlayerRef,
    Pos,
    TakeMoney,
    TileRef,
    Turn,
)

_CARD = MoneyCard(Currency.DENAR, 3)
_KIND = catalogue().tiles[7]
_NOTE = (Annotation("n", Pos(9, 9)),)


def _samples(pos: Pos, notes: tuple[Annotation, ...]) -> list[Any]:
    """One record of each hot class at ``pos`` (with ``notes`` where it has them)."""
    card = CardRef(_CARD, pos)
    tile = TileRef(BuildingType.PAVILION, 3, frozenset({Side.N}), (_KIND,), pos)
    player = PlayerRef("Anna", pos)
    take = TakeMoney((card,), pos, notes)
    buy = Buy(Currency.DENAR, tile, (card,), pos, notes)
    place = Place(tile, Coord(1, 0), pos, notes)
    reveal = DisplayReveal((card, CardRef(None, pos)), pos)
    draw = MarketDraw(((Currency.GULDEN, tile), (None, tile)), pos)
    turn = Turn(3, player, (take, buy, place), pos, notes, "c" if notes else None)
    chance = Chance((reveal, draw), pos, notes, "c" if notes else None)
    return [card, tile, player, take, buy, place, reveal, draw, turn, chance]


@pytest.mark.parametrize("i", range(10))
def test_a_record_refuses_assignment_and_deletion(i: int) -> None:
    rec = _samples(Pos(2, 5), ())[i]
    first = dataclasses.fields(rec)[0].name
    before = getattr(rec, first)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rec, first, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.pos = Pos(1, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(rec, first)
    assert getattr(rec, first) is before and rec.pos == Pos(2, 5)


# For each of _samples' records, another value of its first field's declared type. (A value of
# another type -- None where the type admits none -- is no record: a native record of the
# compiled build checks each field's type, as its other compiled code does, and raises
# TypeError; issue 34, twentieth step, bench/README.md "native records switched on".)
_OTHER_FIRST: tuple[object, ...] = (
    None,  # CardRef.card: MoneyCard | None
    None,  # TileRef.type: BuildingType | None
    "Ben",  # PlayerRef.name: str
    (),  # TakeMoney.cards
    None,  # Buy.field: Currency | None
    TileRef(BuildingType.PAVILION, 4, None, ()),  # Place.tile
    (),  # DisplayReveal.cards
    (),  # MarketDraw.entries
    None,  # Turn.number: int | None
    (),  # Chance.events
)


@pytest.mark.parametrize("i", range(10))
def test_equality_and_hash_leave_the_position_and_notes_out(i: int) -> None:
    a = _samples(Pos(2, 5), ())[i]
    b = _samples(Pos(7, 1), _NOTE)[i]
    assert a == b and hash(a) == hash(b) and (a != b) is False
    assert a.pos == Pos(2, 5) and b.pos == Pos(7, 1)
    first = dataclasses.fields(a)[0].name
    other = dataclasses.replace(a, **{first: _OTHER_FIRST[i]})
    assert other != a and type(other) is type(a) and other.pos == a.pos
    assert a != (a,) and a != None  # noqa: E711 (a record equals records of its class only)


@pytest.mark.parametrize("i", range(10))
def test_repr_is_the_dataclass_repr(i: int) -> None:
    rec = _samples(Pos(2, 5), ())[i]
    names = [f.name for f in dataclasses.fields(rec)]
    shown = ", ".join(f"{n}={getattr(rec, n)!r}" for n in names)
    assert repr(rec) == f"{type(rec).__name__}({shown})"


@pytest.mark.parametrize("i", range(10))
def test_a_record_pickles_and_copies_whole(i: int) -> None:
    rec = _samples(Pos(2, 5), _NOTE)[i]
    names = [f.name for f in dataclasses.fields(rec)]
    for again in (pickle.loads(pickle.dumps(rec)), copy.copy(rec), copy.deepcopy(rec)):
        assert type(again) is type(rec) and again == rec
        assert all(getattr(again, n) == getattr(rec, n) for n in names)  # pos and notes too
    assert copy.copy(rec).pos is rec.pos


def test_the_fields_in_order_with_the_defaults_callers_leave_out() -> None:
    def names(cls: type) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    assert names(CardRef) == ["card", "pos"]
    assert names(TileRef) == ["type", "price", "walls", "candidates", "pos"]
    assert names(Turn) == ["number", "player", "actions", "pos", "notes", "comment"]
    assert names(Chance) == ["events", "pos", "notes", "comment"]
    assert names(Buy) == ["field", "tile", "paid", "pos", "notes"]
    assert names(MarketDraw) == ["entries", "pos"]
    assert CardRef(None).pos == Pos(0, 0) and TakeMoney(()).notes == ()
    assert Turn(None, None, ()).comment is None and Chance(()).notes == ()
    made = dataclasses.replace(Turn(1, None, ()), pos=Pos(4, 1))
    assert made.pos == Pos(4, 1) and made.number == 1 and made.notes == ()
