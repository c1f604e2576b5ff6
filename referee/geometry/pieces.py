"""What the engine needs to know about a piece, as data (no rule lives here).

Every piece that lies in an Alhambra — a catalogue tile, the fountain, a module's piece (a
square, a magic building, a bazaar, …) — answers four questions. A piece class states the
answers as attributes; :func:`describe` fills in the base game's defaults for the ones it does
not state, so the tiles of the base game need none of them:

* **footprint** (:class:`Footprint`): where it lies. Base tiles fill one ``cell``. Later modules
  bring pieces on an ``edge`` between two cells (wooden walls), on a ``corner``, over
  ``two-cells``, or on ``half`` a cell: the grid keys such pieces by the cell they are
  anchored at plus the footprint (e.g. ``Coord`` + ``Side`` for an edge), and the building
  rules read a layer per footprint — the cell layer is the base game's ``Coord -> Piece`` map.
* **walls**: the sides with a wall, as placed (a rotatable piece states its walls as placed;
  the module checks them against the printed ones up to rotation).
* **rules**: which building rules apply to it (rule codes of :mod:`referee.geometry.rules`);
  default: all of them. A module that relaxes a rule for its piece refines the
  ``place.problems`` decision (:mod:`referee.engine.ruleset`); this attribute documents it for
  tools that only need the data (``legal``, the drawing).
* **counts_as**: what it counts as at a scoring: building type -> amount (half counts allowed,
  as :class:`fractions.Fraction`); default: one of its ``type``, nothing without a type.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from referee.catalogue import BuildingType, Side
from referee.geometry import rules

ALL_RULES: frozenset[str] = frozenset(
    {
        rules.PLACE_OCCUPIED,
        rules.PLACE_ADJACENT,
        rules.PLACE_WALL,
        rules.PLACE_WALK,
        rules.PLACE_HOLE,
        rules.REMOVE_FOUNTAIN,
        rules.REMOVE_EMPTY,
        rules.REMOVE_WALK,
        rules.REMOVE_HOLE,
    }
)


class Footprint(StrEnum):
    """Where a piece lies on the grid."""

    CELL = "cell"
    EDGE = "edge"
    CORNER = "corner"
    TWO_CELLS = "two-cells"
    HALF = "half"


@dataclass(frozen=True, slots=True)
class PieceFacts:
    """The four answers for one piece."""

    footprint: Footprint
    walls: frozenset[Side]
    rules: frozenset[str]
    counts_as: dict[BuildingType, Fraction | int]


def describe(piece: object) -> PieceFacts:
    """The facts of ``piece``, with the base game's defaults for what it does not state."""
    footprint = Footprint(getattr(piece, "footprint", Footprint.CELL))
    walls = frozenset(getattr(piece, "walls", frozenset()))
    rules = frozenset(getattr(piece, "building_rules", ALL_RULES))
    counts = getattr(piece, "counts_as", None)
    if counts is None:
        kind = getattr(piece, "type", None)
        counts = {kind: 1} if isinstance(kind, BuildingType) else {}
    return PieceFacts(footprint, walls, rules, dict(counts))
