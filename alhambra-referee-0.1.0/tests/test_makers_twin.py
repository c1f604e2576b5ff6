"""Records filled through a slots twin (``referee.makers.slots_twin``) are the records the
classes make: the record's own class, every slot set, equal, hashed, shown, copied and pickled
alike; a class the twin cannot stand for keeps the member-descriptor setters."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass

import pytest

from referee.makers import record_maker, slots_twin
from referee.notation.fast import NATIVE_RECORDS
from referee.record import model
from referee.record.model import Coord, Place, Pos, TileRef, Turn

# the compiled build's ten reader records are native classes (no slots, no twin: the compiled
# reader constructs them natively, record/model.py); these tests are of the pure build's twins
PURE_RECORDS = pytest.mark.skipif(
    NATIVE_RECORDS, reason="native record classes (compiled build) have no slots twin"
)


@dataclass(frozen=True, slots=True)
class _Base:
    a: int


@dataclass(frozen=True, slots=True)
class _Child(_Base):
    b: int = 2


@dataclass(frozen=True)
class _NoSlots:
    a: int


@PURE_RECORDS
def test_every_record_class_of_the_reader_has_a_twin() -> None:
    for name in ("Place", "Turn", "Chance", "TileRef", "CardRef", "PlayerRef", "GenericArg"):
        assert slots_twin(getattr(model, name)) is not None, name


@PURE_RECORDS
def test_a_made_record_is_the_class_s_own() -> None:
    tile = record_maker(TileRef)("t", 9, ("e", "s"), (), Pos(3, 14))
    made = record_maker(Place)(tile, Coord(1, 0), Pos(3, 8))
    plain = Place(TileRef("t", 9, ("e", "s"), (), Pos(3, 14)), Coord(1, 0), Pos(3, 8))
    assert type(made) is Place and type(made.tile) is TileRef
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert made.notes == () and made.pos == Pos(3, 8)
    assert copy.deepcopy(made) == plain
    assert pickle.loads(pickle.dumps(made)) == plain
    with pytest.raises(AttributeError):  # still frozen
        made.at = Coord(0, 0)  # type: ignore[misc]


def test_the_reader_s_builders_make_the_class_s_records() -> None:
    from referee.notation import fast

    rec = fast.read_line("7. Ben: take Gu3 Di5, place T9es@1,0", 12)
    assert type(rec) is Turn
    assert all(type(a).__name__.endswith("Twin") is False for a in rec.actions)


def test_classes_the_twin_cannot_stand_for() -> None:
    assert slots_twin(_Child) is None  # a base of its own
    assert slots_twin(_NoSlots) is None  # no slots
    assert record_maker(_NoSlots)(4) == _NoSlots(4)
