"""The stable codes of the building rules (:mod:`referee.geometry.rules` explains each)."""

from __future__ import annotations

PLACE_OCCUPIED = "PLACE-OCCUPIED"
PLACE_ADJACENT = "PLACE-ADJACENT"
PLACE_WALL = "PLACE-WALL"
PLACE_WALK = "PLACE-WALK"
PLACE_HOLE = "PLACE-HOLE"
PLACE_SIDE = "PLACE-SIDE"  # a side of a rule profile meets a side it may not meet (E20)
PLACE_CLOSED = "PLACE-CLOSED"  # something lies on a side where nothing may lie (E20)
REMOVE_FOUNTAIN = "REMOVE-FOUNTAIN"
REMOVE_EMPTY = "REMOVE-EMPTY"
REMOVE_WALK = "REMOVE-WALK"
REMOVE_HOLE = "REMOVE-HOLE"
REMOVE_LOCKED = "REMOVE-LOCKED"  # a piece locks the cell against redesign (E22, E24)
