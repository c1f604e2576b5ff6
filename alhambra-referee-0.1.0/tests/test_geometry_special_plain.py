"""``is_special`` keeps the classes whose pieces can never be special (issue 34, eleventh step):
the answer stays the one of the attribute look-ups for every kind of class, also after a plain
instance of the same class was asked first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.catalogue import Side
from referee.geometry import layers
from referee.geometry.layers import is_special
from referee.geometry.pieces import Footprint


@dataclass(frozen=True, slots=True)
class _Slotted:
    walls: frozenset[Side] = frozenset()


@dataclass(frozen=True, slots=True)
class _SlottedHalf:
    half_at: Any = None
    walls: frozenset[Side] = frozenset()


class _WithDict:
    walls: frozenset[Side] = frozenset()


class _ClassFootprint:
    __slots__ = ()
    footprint = Footprint.TWO_CELLS
    walls: frozenset[Side] = frozenset()


class _Dynamic:
    __slots__ = ("special",)

    def __init__(self, special: bool) -> None:
        self.special = special

    def __getattr__(self, name: str) -> Any:
        if name == "footprint" and self.special:
            return Footprint.EDGE
        raise AttributeError(name)


class _Profile:
    def __init__(self, plain: bool) -> None:
        self.plain = plain


def test_a_slotted_class_without_the_names_is_plain_and_kept() -> None:
    assert not is_special(_Slotted())
    assert _Slotted in layers._PLAIN_TYPES
    assert not is_special(_Slotted())


def test_a_slotted_field_is_read_per_piece() -> None:
    assert not is_special(_SlottedHalf())
    assert _SlottedHalf not in layers._PLAIN_TYPES  # the field is a slot on the class
    assert is_special(_SlottedHalf(half_at=(0, 1)))


def test_an_instance_dictionary_is_read_per_piece() -> None:
    plain = _WithDict()
    assert not is_special(plain)
    assert _WithDict not in layers._PLAIN_TYPES
    odd = _WithDict()
    odd.footprint = Footprint.CORNER  # type: ignore[attr-defined]
    assert is_special(odd)
    other = _WithDict()
    other.profile = _Profile(plain=False)  # type: ignore[attr-defined]
    assert is_special(other)
    same = _WithDict()
    same.profile = _Profile(plain=True)  # type: ignore[attr-defined]
    assert not is_special(same)


def test_a_class_attribute_and_a_dynamic_look_up_are_not_kept() -> None:
    assert is_special(_ClassFootprint())
    assert not is_special(_Dynamic(special=False))
    assert _Dynamic not in layers._PLAIN_TYPES
    assert is_special(_Dynamic(special=True))
