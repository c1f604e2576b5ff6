"""A record placed without its position made (issue 34, twenty-fifth step).

The ten record classes the reader makes ten of a turn (referee/record/model.py's
_NATIVE_SHAPE) keep their position in their base ``_FrozenRecord``: a ``Pos``, or the two ints
``_line`` and ``_column`` that :meth:`_FrozenRecord._place` leaves there, made into the ``Pos``
when ``pos`` is first read and kept. The compiled reader places its records so; pure Python
``_place`` makes the ``Pos`` at once. These tests hold a placed record to the record made with
its ``Pos`` (fields, ``==``, ``hash``, ``repr``, pickles, copies, ``replace``), the reader's
placing paths to the ones that make the ``Pos`` (in either build: the compiled-only ones are
called by hand), and the two engine sites that now read a position later to what they gave.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

import referee.notation.fast as fast
from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
from referee.engine import check_game
from referee.makers import slots_twin
from referee.notation import parse_text
from referee.record import model
from referee.record.model import (
    NOWHERE,
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

ROOT = Path(__file__).resolve().parent.parent
_CARD = MoneyCard(Currency.DENAR, 3)
_KIND = catalogue().tiles[7]


def _ten(pos: Pos) -> list[Any]:
    """One record of each of the ten classes at ``pos``."""
    card = CardRef(_CARD, pos)
    tile = TileRef(BuildingType.PAVILION, 3, frozenset({Side.N}), (_KIND,), pos)
    player = PlayerRef("Anna", pos)
    take = TakeMoney((card,), pos)
    buy = Buy(Currency.DENAR, tile, (card,), pos)
    place = Place(tile, Coord(1, 0), pos)
    reveal = DisplayReveal((card,), pos)
    draw = MarketDraw(((Currency.GULDEN, tile),), pos)
    turn = Turn(3, player, (take, buy, place), pos, (), "c")
    chance = Chance((reveal, draw), pos)
    return [card, tile, player, take, buy, place, reveal, draw, turn, chance]


def _placed(line: int, column: int) -> list[Any]:
    """The same ten records, each made at NOWHERE and placed at ``line``, ``column``."""
    out = []
    for rec in _ten(NOWHERE):
        got = rec._place(line, column)
        assert got is rec
        out.append(rec)
    return out


@pytest.mark.parametrize("i", range(10))
def test_a_placed_record_is_the_record_made_with_its_position(i: int) -> None:
    made = _ten(Pos(12, 7))[i]
    placed = _placed(12, 7)[i]
    names = [f.name for f in dataclasses.fields(made)]
    assert [f.name for f in dataclasses.fields(placed)] == names
    assert type(placed.pos) is Pos and placed.pos == Pos(12, 7) == made.pos
    assert placed.pos is placed.pos  # made once, then kept
    assert placed == made and hash(placed) == hash(made)
    assert repr(placed) == repr(made)
    for again in (pickle.loads(pickle.dumps(placed)), copy.copy(placed), copy.deepcopy(placed)):
        assert type(again) is type(placed)
        assert all(getattr(again, n) == getattr(placed, n) for n in names)  # pos too
    moved = dataclasses.replace(placed, pos=Pos(3, 1))
    assert moved.pos == Pos(3, 1) and moved == placed
    with pytest.raises(dataclasses.FrozenInstanceError):
        placed.pos = Pos(1, 1)


@pytest.mark.parametrize("i", range(10))
def test_the_fields_the_match_arguments_and_the_repr_keep_pos_in_its_place(i: int) -> None:
    rec = _ten(Pos(2, 5))[i]
    names = [f.name for f in dataclasses.fields(rec)]
    assert names.count("pos") == 1
    assert names[-1] == "pos" or names[names.index("pos") + 1] in ("notes", "comment")
    assert type(rec).__match_args__ == tuple(names)
    field = dataclasses.fields(rec)[names.index("pos")]
    assert field.default == NOWHERE and not field.compare and field.init
    # the type as every other record class's pos field has it (compiled: as mypyc gives it)
    assert field.type is dataclasses.fields(model.ScoringCardRef)[1].type
    assert type(rec).__annotations__["pos"] is field.type
    shown = ", ".join(f"{n}={getattr(rec, n)!r}" for n in names)
    assert repr(rec) == f"{type(rec).__name__}({shown})"
    assert "pos=Pos(line=2, column=5)" in repr(rec)


def test_pure_python_places_at_once_compiled_when_read() -> None:
    card = CardRef(_CARD, NOWHERE)._place(4, 9)
    if model._SLOTS:  # pure Python: pos is the _pos slot, made by _place
        assert card._pos == Pos(4, 9)
        assert type(card).pos is vars(model._FrozenRecord)["_pos"]
    else:  # compiled: the two ints until pos is read
        assert card._pos is None and (card._line, card._column) == (4, 9)
    assert card.pos == Pos(4, 9) and card._pos is card.pos


def test_a_twin_under_the_slots_base_makes_the_record() -> None:
    if not model._SLOTS:
        pytest.skip("compiled records have no slots twin")
    twin = slots_twin(CardRef)
    assert twin is not None and twin.__bases__ == (model._FrozenRecord,)
    o: Any = twin()
    o.card = _CARD
    o.pos = Pos(6, 2)  # the _pos slot, through _FrozenRecord's pos
    o.__class__ = CardRef
    assert o == CardRef(_CARD, Pos(6, 2)) and o.pos == Pos(6, 2)
    assert repr(o) == repr(CardRef(_CARD, Pos(6, 2)))


@pytest.mark.parametrize("word", ["Di3", "Gu12", "?", "W1", "ex:GuDe", "nonsense!", "De5", "Du1"])
def test_the_placed_card_is_the_card_made_at_its_position(word: str) -> None:
    got = fast._card_placed(word, 8, 14)
    want = fast._make_card(word, Pos(8, 14))
    assert got == want and type(got) is type(want)
    if got is not None:
        assert got.pos == want.pos == Pos(8, 14) and repr(got) == repr(want)


@pytest.mark.parametrize("word", ["T9ne", "A6sw", "G8", "?", "sq:T", "X99", "P2"])
def test_the_placed_tile_is_the_tile_made_at_its_position(word: str) -> None:
    got = fast._tile_placed(word, 3, 21)
    want = fast._make_tile(word, Pos(3, 21))
    assert got == want and type(got) is type(want)
    if got is not None:
        assert got.pos == want.pos == Pos(3, 21) and repr(got) == repr(want)


def test_the_line_records_are_placed_where_they_were_made() -> None:
    turn = fast._native_turn(7, "Anna", 4, (), 31)
    assert repr(turn) == repr(Turn(7, PlayerRef("Anna", Pos(31, 4)), (), Pos(31, 1), (), None))
    chance = fast._native_chance((), 32)
    assert repr(chance) == repr(Chance((), Pos(32, 1), (), None))


def test_a_placed_node_builds_the_record_its_position_of_the_line() -> None:
    value = fast._Node(fast._VALUE, 0, None, None, (), [])
    nowhere = fast._Node(fast._CONSTANT, 0, NOWHERE, None, (), [])
    node = fast._Node(fast._NATIVE_PLACED, 1, model.CardRef, None, (), [value, nowhere])
    got = fast._run(node, 40, 5, (_CARD, 3))
    assert repr(got) == repr(CardRef(_CARD, Pos(40, 8)))


@pytest.mark.parametrize("name", ["game-4p.alh", "final-2p-dirk.alh", "game-6p.alh"])
def test_the_reader_gives_the_records_lark_gives_with_their_positions(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An example read by the word-by-word reader (whose take, buy, place, display and market
    records, money cards and tiles are placed when its records are compiled ones) against the
    records the Lark parser builds: the same fields, positions included (``repr``)."""
    path = ROOT / "examples" / name
    if not path.exists():
        pytest.skip(f"no {name}")
    text = path.read_text(encoding="utf-8")
    fast_game = parse_text(text)[0]
    monkeypatch.setattr(fast, "ENABLED", False)
    lark_game = parse_text(text)[0]
    assert fast_game.body and repr(fast_game.body) == repr(lark_game.body)
    positions = [item.pos for item in fast_game.body]
    assert all(type(p) is Pos for p in positions)


def test_the_end_of_a_cut_record_is_at_its_last_line() -> None:
    """run_game's end position: the last line applied (its pos read once, at the end)."""
    text = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    cut = "\n".join(lines[: body[5] + 1]) + "\n"
    report = check_game(parse_text(cut)[0])
    early = [v for v in report.unverifiable if v.key == "UNVERIFIED-RECORD-ENDS-EARLY"]
    assert early and (early[0].line, early[0].column) == (body[5] + 1, 1)
