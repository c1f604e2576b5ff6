"""What the engine needs to know about a piece, as data (no rule lives here).

Every piece that lies in an Alhambra — a catalogue tile, the fountain, a module's piece (a
square, a magic building, a bazaar, a gate, a falcon, a watchtower …) — answers a few
questions. A piece class states the answers as attributes; the base game's tiles state none of
the optional ones and get the defaults of :class:`PieceDefaults` (read them with
:func:`piece_attr`, or :func:`describe` for the geometric ones):

* **footprint** (:class:`Footprint`): where it lies. Base tiles fill one ``cell``. Pieces on an
  ``edge`` between two cells (a gate) and on a ``corner`` where four cells meet (a falcon) lie
  on the layers of :mod:`referee.geometry.layers`; a ``two-cells`` piece (a major project)
  fills its anchor cell and the cell beside it (``second``); a ``half`` piece (a watchtower)
  fills half a cell, cut along a diagonal (``half_at``: the corner side it fills, ``sw`` …).
* **walls**: the sides with a wall, as placed (a rotatable piece states its walls as placed;
  the module checks them against the printed ones up to rotation).
* **building_rules**: which building rules apply to it (rule codes of
  :mod:`referee.geometry.rules`); default: all of them.
* **profile** (:class:`Profile`): how its sides meet others (plain, bastion, green, closed),
  whether the walk rule applies to it, whether it is transparent for the outer wall, whether it
  may be redesigned. Default: :data:`PLAIN_PROFILE`, the base game's rules.
* **counts_as**: what it counts as at a scoring: building type -> amount (half counts allowed,
  as :class:`fractions.Fraction`); default: one of its ``type``, nothing without a type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from referee.catalogue import BuildingType, Side
from referee.geometry import codes as rules
from referee.interpreted import interpreted_class
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction  # (kept out of the check's start-up)
    from typing import Any

ALL_RULES: frozenset[str] = frozenset(
    {
        rules.PLACE_OCCUPIED,
        rules.PLACE_ADJACENT,
        rules.PLACE_WALL,
        rules.PLACE_WALK,
        rules.PLACE_HOLE,
        rules.PLACE_SIDE,
        rules.PLACE_CLOSED,
        rules.REMOVE_FOUNTAIN,
        rules.REMOVE_EMPTY,
        rules.REMOVE_WALK,
        rules.REMOVE_HOLE,
        rules.REMOVE_LOCKED,
    }
)


class Footprint(StrEnum):
    """Where a piece lies on the grid."""

    CELL = "cell"
    EDGE = "edge"
    CORNER = "corner"
    TWO_CELLS = "two-cells"
    HALF = "half"


class SideKind(StrEnum):
    """How one side of a piece meets the side of a neighbour (E20).

    * ``plain``: the base rule, "Es dürfen nur gleiche Seiten aneinandergrenzen" (a wall meets
      a wall, an open side an open side);
    * ``bastion``: must meet a plain side *with* a wall (Feldlager, caption: "Erlaubt: ...
      Bastion an Stadtmauer");
    * ``green``: meets only another ``green`` side (Feldlager: "Grüne Seite an grüne Seite");
    * ``closed``: nothing may lie on this side (Wachtürme, caption: "An die lange Seite des
      Wachturmplättchens darf nichts angebaut werden").
    """

    PLAIN = "plain"
    BASTION = "bastion"
    GREEN = "green"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Profile:
    """A piece's rule profile (E20); the defaults are the base game's.

    ``sides``: the kind of each side that is not ``plain``. ``walk_exempt``: the walk rule does
    not apply to it (it need not be reached on foot; nobody walks across it). ``transparent``:
    for the outer wall the cell counts as empty (the walls of its neighbours facing it are
    outer walls, its own walls never are). ``locked``: it is never removed or swapped (a
    watchtower: "Wachtürme dürfen weder in die Reserve gelegt noch umgebaut werden").
    """

    sides: Mapping[Side, SideKind] = field(default_factory=dict, hash=False)
    walk_exempt: bool = False
    transparent: bool = False
    locked: bool = False

    def side(self, side: Side) -> SideKind:
        return self.sides.get(side, SideKind.PLAIN)

    @property
    def plain(self) -> bool:
        """The base game's profile (nothing special)."""
        return not (self.sides or self.walk_exempt or self.transparent or self.locked)


PLAIN_PROFILE = Profile()


class Diagonal(StrEnum):
    """A diagonal wall across a cell: from its south-west to its north-east corner, or from its
    north-west to its south-east corner."""

    SW_NE = "sw-ne"
    NW_SE = "nw-se"


# which half of a cell a half piece fills -> its diagonal wall and its two closed sides (the
# sides of the empty half: "An die lange Seite des Wachturmplättchens darf nichts angebaut
# werden")
HALVES: dict[str, tuple[Diagonal, frozenset[Side]]] = {
    "sw": (Diagonal.NW_SE, frozenset({Side.N, Side.E})),
    "ne": (Diagonal.NW_SE, frozenset({Side.S, Side.W})),
    "se": (Diagonal.SW_NE, frozenset({Side.N, Side.W})),
    "nw": (Diagonal.SW_NE, frozenset({Side.S, Side.E})),
}


@interpreted_class  # compiled: a Python class (modules may derive from it; read by vars())
class PieceDefaults:
    """The optional attributes of a piece with their defaults (what a catalogue tile means by
    not stating them). The engine, the geometry and the reports read them through
    :func:`piece_attr`, so a module's piece states only those that differ.

    A module may subclass this (``class Gate(PieceDefaults)``) for documentation and type
    checking; it is not required.
    """

    from_tower: bool = False  # drawn from the tile tower (tower.py)
    rotatable: bool = False  # its walls may be stated rotated (orientation.py, E6)
    rotation_rule: str | None = None  # the rule code of a wrong rotation
    printed_walls: frozenset[Side] | None = None  # walls as printed (before a rotation)
    stated_walls: frozenset[Side] | None = None  # walls as written in the token
    turned: bool = False  # laid rotated
    orientations: tuple[frozenset[Side], ...] = ()  # the allowed wall sets
    orient_by_token: bool = False  # the token states the orientation
    carried_tile: object | None = None  # the tile a wrapper carries (baustellen)
    code: str | None = None  # the token text (tiles: "T9ne")
    cell_fill: str | None = None  # the drawing's fill colour
    cell_label: str | None = None  # the drawing's label
    building_rules: frozenset[str] = ALL_RULES  # the building rules that apply to it
    footprint: Footprint = Footprint.CELL  # where it lies
    profile: Profile = PLAIN_PROFILE  # how its sides meet others (E20)
    second: Side | None = None  # two-cells: where the second cell lies from the anchor
    half_at: str | None = None  # half: which half it fills ("sw", "ne", "se", "nw")
    opens: bool = False  # edge: makes the edge passable for the walk rule (a gate)
    adds_wall: bool = False  # edge: adds a wall on the edge (for pieces on no tile)
    locks: bool = False  # edge/corner: the cells beside it may not be redesigned
    leaves_on_redesign: bool = False  # corner/edge: goes back when a cell under it changes

    def matches(self, ref: object) -> bool:  # pragma: no cover - documentation only
        """Whether a record's token names this piece."""
        return False


_DEFAULTS: dict[str, Any] = {
    k: v for k, v in vars(PieceDefaults).items() if not k.startswith("_") and not callable(v)
}


def piece_attr(piece: object, name: str) -> Any:
    """The attribute ``name`` of ``piece``, or its documented default (:class:`PieceDefaults`)."""
    return getattr(piece, name, _DEFAULTS[name])


def profile_of(piece: object) -> Profile:
    """The rule profile of a piece; for a half piece its closed sides are part of it."""
    prof: Profile = getattr(piece, "profile", PLAIN_PROFILE)
    half = getattr(piece, "half_at", None)
    if half is not None and half in HALVES:
        closed = HALVES[half][1]
        sides = dict(prof.sides)
        for s in closed:
            sides.setdefault(s, SideKind.CLOSED)
        prof = Profile(sides, prof.walk_exempt, prof.transparent, prof.locked)
    return prof


def diagonal_of(piece: object) -> Diagonal | None:
    """The diagonal wall a half piece carries (None: none)."""
    half = getattr(piece, "half_at", None)
    return HALVES[half][0] if half in HALVES else None


@dataclass(frozen=True, slots=True)
class Part:
    """One cell of a piece that covers two cells (a major project: "Bei einem Umbau werden
    die Großprojekte als ein Plättchen betrachtet"). Each part has its own building type and
    walls (the project brings "gleich zwei neue Gebäude"); ``whole`` is the piece, ``index`` 0
    the anchor cell, 1 the second cell."""

    whole: Any
    index: int
    type: BuildingType | None
    walls: frozenset[Side]

    @property
    def code(self) -> str:
        return f"{piece_attr(self.whole, 'code') or self.whole}"

    @property
    def profile(self) -> Profile:
        return profile_of(self.whole)

    def __str__(self) -> str:
        return f"{self.code}/{self.index + 1}"


def parts_of(piece: Any, anchor: Coord) -> list[tuple[Coord, Part]]:
    """The cells a two-cell piece covers with its part on each: the anchor and the cell on its
    ``second`` side. The piece states ``types`` (two building types) and ``part_walls`` (two
    wall sets, each as the part lies)."""
    second: Side = piece.second
    types = tuple(piece.types)
    part_walls = tuple(piece.part_walls)
    other = anchor.neighbour(second)
    return [
        (anchor, Part(piece, 0, types[0], frozenset(part_walls[0]))),
        (other, Part(piece, 1, types[1], frozenset(part_walls[1]))),
    ]


@dataclass(frozen=True, slots=True)
class PieceFacts:
    """The geometric answers for one piece."""

    footprint: Footprint
    walls: frozenset[Side]
    rules: frozenset[str]
    counts_as: dict[BuildingType, Fraction | int]
    profile: Profile = PLAIN_PROFILE


def describe(piece: object) -> PieceFacts:
    """The facts of ``piece``, with the base game's defaults for what it does not state."""
    footprint = Footprint(getattr(piece, "footprint", Footprint.CELL))
    walls = frozenset(getattr(piece, "walls", frozenset()))
    rules_ = frozenset(getattr(piece, "building_rules", ALL_RULES))
    counts = getattr(piece, "counts_as", None)
    if counts is None:
        kind = getattr(piece, "type", None)
        if footprint is Footprint.TWO_CELLS and hasattr(piece, "types"):
            counts = {}
            for t in piece.types:
                if isinstance(t, BuildingType):
                    counts[t] = counts.get(t, 0) + 1
        else:
            counts = {kind: 1} if isinstance(kind, BuildingType) else {}
    return PieceFacts(footprint, walls, rules_, dict(counts), profile_of(piece))


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
