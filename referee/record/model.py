"""Typed, immutable game records: what a record *says*, with where it says it.

This layer knows the notation's meaning (which tile, which card, which coordinate) but no rule
of the game: a record may describe an illegal game; the engine decides that. Every node carries
its source position (``pos``) so that any later message can point at ``file:line:column``.

Text -> (referee.notation) -> these records -> (referee.engine) -> verdicts and scores.
"""

# (no ``from __future__ import annotations``: the field types are evaluated when each class is
# made, so that ``dataclasses`` does not parse each field's annotation text three times -- for
# ``ClassVar``, ``InitVar`` and ``KW_ONLY`` -- a fifth of the cost of making a record class at
# start-up; every name an annotation uses is defined above it)
import dataclasses
import types
from dataclasses import dataclass, field

from referee.catalogue import BuildingType, Currency, MoneyCard, Side, TileKind
from referee.interpreted import interpreted_class
from referee.record.tuples import Coord, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final


def _probe() -> None:
    """A function of this module: its type tells whether the module runs compiled."""


# _NATIVE_SHAPE: the ten record classes the reader makes ten of a turn (issue 34, seventeenth
# step: CardRef, TileRef, PlayerRef, TakeMoney, Buy, Place, Turn, DisplayReveal, MarketDraw,
# Chance) are written so that the compiled build, which lists this module (setup.py's
# MYPYC_MODULES, since issue 34's twentieth step), makes them native classes, which its
# compiled reader builds through their native constructors and its compiled engine reads as
# native fields, while they behave as the frozen dataclasses they were
# (tests/test_record_behaviour.py; compiled, their native constructors also check each field's
# annotated type, so a field given a value of another type raises TypeError where Python takes
# it: a record holds values of its fields' declared types): their own
# ``__init__`` sets each field with
# ``object.__setattr__`` (what a frozen dataclass's does; compiled, a native store), their base
# ``_FrozenRecord``'s ``__setattr__``/``__delattr__`` refuse with ``FrozenInstanceError``, its
# ``__reduce__`` pickles and copies them by their fields; ``dataclass`` gives ``==`` and
# ``hash`` without ``pos``/``notes``/``comment``, ``repr``, ``fields`` and ``replace``. Pure
# Python they keep their slots (``slots=_SLOTS``: ``dataclass`` makes a slots class, so the
# reader's slots twins and member descriptors serve as before); compiled, ``slots`` is False (a
# native class has its fields in its own layout and cannot be made anew by ``dataclass``). The
# other record classes stay Python classes in the compiled build (``interpreted_class``).
_SLOTS = isinstance(_probe, types.FunctionType)


# Pos and Coord, the records' two named tuples, live in a module that stays Python in the
# compiled build (a compiled module makes a class-based named tuple through ``typing``): see
# referee/record/tuples.py.
NOWHERE = Pos(0, 0)


class _FrozenRecord:
    """The base of the ten records of _NATIVE_SHAPE: what makes them behave as frozen
    dataclasses, written once. ``__setattr__``/``__delattr__`` refuse with
    ``FrozenInstanceError``; ``__reduce__`` copies and pickles a record by its class and its
    fields in order (compiled, mypyc's own ``__setstate__`` would set each field through the
    refusing ``__setattr__``); ``__repr__`` is the dataclass ``repr``. No dataclass fields of its
    own: pure Python each record keeps its slots layout (its fields' slots, and ``_pos``),
    and the reader's slots twins derive from this class too (referee/makers.py,
    :func:`slots_twin`); compiled it is a native class, the records' native base.

    Where a record is (its dataclass field ``pos``, a :class:`Pos`) is kept here (issue 34,
    twenty-fifth step): ``_pos`` holds the position, or None while it is kept as the two ints
    ``_line`` and ``_column`` (:meth:`_place`), made into the :class:`Pos` when ``pos`` is first
    read and kept then. A compiled reader places its records so (a position made in C costs
    some 700 instructions, through ``tuple.__new__``'s generic entry, and most are never read);
    pure Python ``pos`` is the ``_pos`` slot itself and every record holds its position made
    (:func:`_place` makes it at once), as before. ``fields``, ``replace``, ``repr``, ``==``,
    ``hash``, pickles and copies see ``pos`` as the field it was (tests/test_record_behaviour.py).
    """

    # pure Python one slot, ``_pos`` (``_place`` makes the Pos at once: the two ints are never
    # kept, and a record has the size it had); compiled the native layout is the three
    # attributes annotated below (mypyc makes no slots)
    __slots__ = ("_pos",)

    _pos: Pos | None
    _line: int
    _column: int

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        names = _FIELD_NAMES[type(self)]
        return (type(self), tuple([getattr(self, name) for name in names]))

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in _FIELD_NAMES[type(self)]])
        return f"{type(self).__qualname__}({shown})"

    @property
    def pos(self) -> Pos:
        """Where the record is (line and column): made from ``_line`` and ``_column`` when
        first read after :meth:`_place`, then kept. (Pure Python the ``_pos`` slot itself.)"""
        p = self._pos
        if p is None:
            made: Pos = _TNEW(_POS_CLASS, (self._line, self._column))
            object.__setattr__(self, "_pos", made)
            return made
        return p

    def _at(self, pos: Pos) -> None:
        """Its ``__init__``'s store of ``pos`` (here: a compiled class sets an attribute of its
        base natively only in the base's own methods)."""
        object.__setattr__(self, "_pos", pos)

    def _place(self, line: int, column: int) -> "_FrozenRecord":
        """The record, placed at ``line``, ``column`` (for the reader that has just made it, and
        nobody else: the record is frozen once handed on). Compiled its position is made when
        first read; pure Python at once."""
        if _EAGER:
            object.__setattr__(self, "_pos", _TNEW(_POS_CLASS, (line, column)))
        else:
            object.__setattr__(self, "_line", line)
            object.__setattr__(self, "_column", column)
            object.__setattr__(self, "_pos", None)
        return self


# how _FrozenRecord makes a position (a named tuple made in C, without its Python __new__);
# ``_EAGER``: pure Python, where _place makes it at once (``Final``: compiled a C static, where
# ``_SLOTS`` is a look-up in the module's dict at every use)
_EAGER: "Final[bool]" = _SLOTS
_TNEW: "Final[Callable[..., Any]]" = tuple.__new__
_POS_CLASS: "Final[Any]" = Pos


# --------------------------------------------------------------------------------- tokens


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class CardRef(_FrozenRecord):
    """A money card as written. ``card`` is None for the unknown card ``?``."""

    card: MoneyCard | None

    def __init__(self, card: MoneyCard | None, pos: Pos = NOWHERE) -> None:
        object.__setattr__(self, "card", card)
        self._at(pos)

    @property
    def known(self) -> bool:
        return self.card is not None


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class ScoringCardRef:
    """A scoring card (``W1`` / ``W2``) revealed from the money deck."""

    number: int
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class TileRef(_FrozenRecord):
    """A building tile as written.

    ``type``/``price`` None means the unknown tile ``?``. ``walls`` None means the walls were not
    written (short form); ``candidates`` are the catalogue tiles the text can mean (one when the
    short form is unambiguous, several when walls are needed to tell them apart, none when no such
    tile exists). The engine narrows an ambiguous reference by context (e.g. the market).
    """

    type: BuildingType | None
    price: int | None
    walls: frozenset[Side] | None
    candidates: tuple[TileKind, ...]

    def __init__(
        self,
        type: BuildingType | None,
        price: int | None,
        walls: frozenset[Side] | None,
        candidates: tuple[TileKind, ...],
        pos: Pos = NOWHERE,
    ) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "price", price)
        object.__setattr__(self, "walls", walls)
        object.__setattr__(self, "candidates", candidates)
        self._at(pos)

    @property
    def known(self) -> bool:
        return self.type is not None

    @property
    def kind(self) -> TileKind | None:
        """The catalogue tile when the reference is unambiguous, else None."""
        return self.candidates[0] if len(self.candidates) == 1 else None


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class ComponentRef:
    """A module's component token, written ``kind:name`` (e.g. ``ex:GuDe``, ``sq:T``).

    The notation layer does not interpret it; the module that owns ``kind`` does.
    """

    kind: str
    name: str
    pos: Pos = field(default=NOWHERE, compare=False)


CardLike = CardRef | ScoringCardRef | ComponentRef
TileLike = TileRef | ComponentRef


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class PlayerRef(_FrozenRecord):
    """A player named in the body. Names are matched against the ``Players`` header."""

    name: str

    def __init__(self, name: str, pos: Pos = NOWHERE) -> None:
        object.__setattr__(self, "name", name)
        self._at(pos)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Annotation:
    """A ``{...}`` annotation attached to the preceding item (text without braces)."""

    text: str
    pos: Pos = field(default=NOWHERE, compare=False)


# ----------------------------------------------------------------------- player actions
# Every action has ``pos`` (where it starts) and ``notes`` (annotations written after it).


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class TakeMoney(_FrozenRecord):
    """``take Gu1 Di4``: cards taken from the display."""

    cards: tuple[CardLike, ...]
    notes: tuple[Annotation, ...] = field(default=(), compare=False)

    def __init__(
        self, cards: tuple[CardLike, ...], pos: Pos = NOWHERE, notes: tuple[Annotation, ...] = ()
    ) -> None:
        object.__setattr__(self, "cards", cards)
        self._at(pos)
        object.__setattr__(self, "notes", notes)


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class Buy(_FrozenRecord):
    """``buy Di A6sw pay Di4 Di2``: the tile on a market field and the exact cards paid.

    ``field`` is the field's currency, or None when the record left it out.
    """

    field: Currency | None
    tile: TileLike
    paid: tuple[CardLike, ...]
    notes: tuple[Annotation, ...] = dataclasses.field(default=(), compare=False)

    def __init__(
        self,
        field: Currency | None,
        tile: TileLike,
        paid: tuple[CardLike, ...],
        pos: Pos = NOWHERE,
        notes: tuple[Annotation, ...] = (),
    ) -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "paid", paid)
        self._at(pos)
        object.__setattr__(self, "notes", notes)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class BuildFromReserve:
    """Redesign option 1, ``build T9ne@1,2``: a reserve tile into the Alhambra."""

    tile: TileLike
    at: Coord
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class RemoveToReserve:
    """Redesign option 2, ``remove T9ne@1,2`` (tile optional): Alhambra tile to the reserve."""

    tile: TileLike | None
    at: Coord
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Swap:
    """Redesign option 3, ``swap G8sw@1,0 for A6ne``: reserve tile in, the tile there out.

    ``tile`` comes from the reserve and goes exactly to ``at``; ``out`` (optional in the
    record) is the tile that stood there and goes to the reserve.
    """

    tile: TileLike
    at: Coord
    out: TileLike | None
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class Place(_FrozenRecord):
    """End-of-turn placement of a tile acquired this turn: ``place T9ne@1,2``."""

    tile: TileLike
    at: Coord
    notes: tuple[Annotation, ...] = field(default=(), compare=False)

    def __init__(
        self, tile: TileLike, at: Coord, pos: Pos = NOWHERE, notes: tuple[Annotation, ...] = ()
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "at", at)
        self._at(pos)
        object.__setattr__(self, "notes", notes)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Reserve:
    """End-of-turn placement into the reserve: ``reserve T9ne``."""

    tile: TileLike
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Give:
    """End-of-turn gift of a bought tile: ``give T9ne dirk`` (two players) or ``give T9ne Ben``.

    ``to`` is None for Dirk.
    """

    tile: TileLike
    to: PlayerRef | None
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class GenericArg:
    """One argument of a module verb: a typed token (card, tile, coord, number, word...)."""

    value: CardRef | ScoringCardRef | TileRef | ComponentRef | Coord | int | str | PlayerRef
    pos: Pos = field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class ModuleAction:
    """A verb the base grammar does not know (``verb arg...``); a module interprets it.

    Kept as written so a record with an unknown or disabled module's verb is reported, not lost.
    """

    verb: str
    args: tuple[GenericArg, ...]
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


Action = (
    TakeMoney
    | Buy
    | BuildFromReserve
    | RemoveToReserve
    | Swap
    | Place
    | Reserve
    | Give
    | ModuleAction
)


# -------------------------------------------------------------------------- body lines
# Each body line keeps its trailing ``# comment`` (without the ``#``) in ``comment``.


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class Turn(_FrozenRecord):
    """One line ``12. Ben: action, action, ...``.

    ``number`` and ``player`` are optional in the text (redundant, checked when present).
    An interrupting out-of-turn line (e.g. a vizier) has no number.
    """

    number: int | None
    player: PlayerRef | None
    actions: tuple[Action, ...]
    notes: tuple[Annotation, ...] = field(default=(), compare=False)
    comment: str | None = field(default=None, compare=False)

    def __init__(
        self,
        number: int | None,
        player: PlayerRef | None,
        actions: tuple[Action, ...],
        pos: Pos = NOWHERE,
        notes: tuple[Annotation, ...] = (),
        comment: str | None = None,
    ) -> None:
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "actions", actions)
        self._at(pos)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "comment", comment)


# Chance events (a line ``* event, event, ...``): what was revealed, in order.


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Deal:
    """Setup: ``deal Anna Gu3 De7 Du2 Di9``, start money in the order dealt face up."""

    player: PlayerRef
    cards: tuple[CardLike, ...]
    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class DisplayReveal(_FrozenRecord):
    """``display Gu3 W1 De4``: cards turned up into the money display, in order."""

    cards: tuple[CardLike, ...]

    def __init__(self, cards: tuple[CardLike, ...], pos: Pos = NOWHERE) -> None:
        object.__setattr__(self, "cards", cards)
        self._at(pos)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Reshuffle:
    """``reshuffle``: the discard pile is shuffled into a new deck."""

    pos: Pos = field(default=NOWHERE, compare=False)


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class MarketDraw(_FrozenRecord):
    """``market Gu:T10n Di:G8ne``: tiles drawn onto market fields (field given as currency)."""

    entries: tuple[tuple[Currency | None, TileLike], ...]

    def __init__(
        self, entries: tuple[tuple[Currency | None, TileLike], ...], pos: Pos = NOWHERE
    ) -> None:
        object.__setattr__(self, "entries", entries)
        self._at(pos)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class DirkDraw:
    """``dirk T9ne G6 ...``: tiles drawn from the bag for Dirk (two-player game)."""

    tiles: tuple[TileLike, ...]
    pos: Pos = field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class ModuleChance:
    """A chance event the base grammar does not know (``verb arg...``), for modules."""

    verb: str
    args: tuple[GenericArg, ...]
    pos: Pos = field(default=NOWHERE, compare=False)


ChanceEvent = Deal | DisplayReveal | Reshuffle | MarketDraw | DirkDraw | ModuleChance


@dataclass(init=False, eq=True, unsafe_hash=True, repr=False, slots=_SLOTS)  # type: ignore[literal-required]
class Chance(_FrozenRecord):
    """A line ``* event, event, ...``."""

    events: tuple[ChanceEvent, ...]
    notes: tuple[Annotation, ...] = field(default=(), compare=False)
    comment: str | None = field(default=None, compare=False)

    def __init__(
        self,
        events: tuple[ChanceEvent, ...],
        pos: Pos = NOWHERE,
        notes: tuple[Annotation, ...] = (),
        comment: str | None = None,
    ) -> None:
        object.__setattr__(self, "events", events)
        self._at(pos)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "comment", comment)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class StartPlayer:
    """``start Cem`` (optionally ``start Cem youngest``): the claimed start player."""

    player: PlayerRef
    youngest: bool
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)
    comment: str | None = field(default=None, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class ClaimPart:
    """One claimed breakdown figure: a building type's points, ``wall`` (key ``"wall"``), or a
    registered scoring category of a module (key: its claim key, e.g. ``"medina"``); the points
    may be negative (``medina=-6``)."""

    key: BuildingType | str
    points: int
    pos: Pos = field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Claim:
    """What the table claimed for one player: ``Anna +9 =23 (T=6, wall=3)``.

    ``player`` None means Dirk. Every figure is optional.
    """

    player: PlayerRef | None
    points: int | None
    total: int | None
    parts: tuple[ClaimPart, ...]
    pos: Pos = field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Scoring:
    """``scoring 2: Anna +9 =23, Ben +4 =15``: a scoring took place here, with claims."""

    round: int
    claims: tuple[Claim, ...]
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)
    comment: str | None = field(default=None, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Award:
    """One leftover market tile at game end: ``Gu:T9ne Ben@3,1`` / ``Di:G6 none``.

    ``player`` None: nobody gets it (tie). ``at`` None and ``reserve`` False: not placed.
    """

    field: Currency | None
    tile: TileLike
    player: PlayerRef | None
    at: Coord | None
    reserve: bool
    pos: Pos = dataclasses.field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Distribution:
    """``distribute Gu:T9ne Ben@3,1, Di:G6 none``: the end-of-game distribution."""

    awards: tuple[Award, ...]
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)
    comment: str | None = field(default=None, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class CommentLine:
    """A line holding only ``# comment`` (or only annotations), kept in body order."""

    text: str | None
    pos: Pos = field(default=NOWHERE, compare=False)
    notes: tuple[Annotation, ...] = field(default=(), compare=False)


# -------------------------------------------------------------------------- positions


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile at a coordinate in a position block: ``A6sw@1,0``."""

    tile: TileLike
    at: Coord
    pos: Pos = field(default=NOWHERE, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class PlayerPosition:
    """One ``player NAME`` section of a position block.

    ``counts`` and ``wall`` are the fallback for a physical game whose layout was not typed in
    (``counts P=2 A=3 wall=7``): building counts per type and a claimed wall length.
    """

    player: PlayerRef
    score: int | None
    hand: tuple[CardLike, ...] | None
    reserve: tuple[TileLike, ...]
    alhambra: tuple[PlacedTile, ...]
    counts: tuple[ClaimPart, ...]
    wall: int | None
    extra: tuple[ModuleAction, ...]
    pos: Pos = field(default=NOWHERE, compare=False)
    comments: tuple[CommentLine, ...] = field(default=(), compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Position:
    """A ``position ... end`` block: a whole situation, as a record's start or on its own."""

    to_move: PlayerRef | None
    scorings_done: int | None
    market: tuple[tuple[Currency | None, TileLike | None], ...] | None
    display: tuple[CardLike, ...] | None
    players: tuple[PlayerPosition, ...]
    dirk: tuple[TileLike, ...] | None
    extra: tuple[ModuleAction, ...]
    pos: Pos = field(default=NOWHERE, compare=False)
    comments: tuple[CommentLine, ...] = field(default=(), compare=False)


BodyItem = Turn | Chance | StartPlayer | Scoring | Distribution | CommentLine | Position


# ------------------------------------------------------------------------------ games


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Header:
    """``[Name "value"]``. Unknown names are kept as written."""

    name: str
    value: str
    pos: Pos = field(default=NOWHERE, compare=False)
    comment: str | None = field(default=None, compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class NotationError:
    """A problem in the text itself (syntax, unknown token), found before any rule check."""

    message: str
    pos: Pos
    code: str = "SYNTAX"
    excerpt: str = field(default="", compare=False)


@interpreted_class  # compiled: a Python class (see _NATIVE_SHAPE)
@dataclass(frozen=True, slots=True)
class Game:
    """One game of a file: its headers and body items in source order.

    A game whose text could not be read has ``errors`` (and whatever could be recovered).
    ``source`` names the file; ``start_line`` is where the game starts in it.
    """

    headers: tuple[Header, ...]
    body: tuple[BodyItem, ...]
    source: str = field(default="<text>", compare=False)
    start_line: int = field(default=1, compare=False)
    errors: tuple[NotationError, ...] = field(default=(), compare=False)
    leading_comments: tuple[CommentLine, ...] = field(default=(), compare=False)

    def header(self, name: str) -> str | None:
        """The value of the first header with this name (case-insensitive), or None."""
        low = name.lower()
        for h in self.headers:
            if h.name.lower() == low:
                return h.value
        return None

    @property
    def players(self) -> tuple[str, ...]:
        """Player names from the ``Players`` header, in seating order."""
        raw = self.header("Players")
        if not raw:
            return ()
        return tuple(p.strip() for p in raw.split(",") if p.strip())

    @property
    def ok(self) -> bool:
        return not self.errors


# each record class of _FrozenRecord: its fields' names in order (its __reduce__, __repr__)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}

# the field ``pos`` of the ten (kept by _FrozenRecord, not declared in their bodies), as every
# other record class declares it: ``pos: Pos = field(default=NOWHERE, compare=False)``
_POS_FIELD = ScoringCardRef.__dataclass_fields__["pos"]


def _with_pos(cls: type) -> None:
    """``pos`` made a dataclass field of ``cls`` again, where it stood in the class before
    _FrozenRecord kept it: after the fields without a default, before ``notes`` and
    ``comment`` (``fields``, ``replace``, ``__match_args__``, the annotations)."""
    declared: dict[str, object] = getattr(cls, "__dataclass_fields__")  # noqa: B009
    spots: list[tuple[str, object]] = []
    for name, f in declared.items():
        if name in ("notes", "comment") and not any(n == "pos" for n, _ in spots):
            spots.append(("pos", _POS_FIELD))
        spots.append((name, f))
    if not any(n == "pos" for n, _ in spots):
        spots.append(("pos", _POS_FIELD))
    setattr(cls, "__dataclass_fields__", dict(spots))  # noqa: B010
    setattr(cls, "__match_args__", tuple([n for n, _ in spots]))  # noqa: B010
    notes = vars(cls).get("__annotations__")
    if isinstance(notes, dict) and "pos" not in notes:
        typed = {n: notes.get(n, _POS_FIELD.type) for n, _ in spots}
        notes.clear()
        notes.update(typed)


# pure Python ``pos`` reads the ``_pos`` slot in C, which every record fills (see _FrozenRecord)
if _SLOTS:
    setattr(_FrozenRecord, "pos", vars(_FrozenRecord)["_pos"])  # noqa: B010

# A call of a native class from Python runs its type's tp_init, which mypyc leaves empty for a
# dataclass with ``init=False``: pointed here at the class's own ``__init__`` (pure Python this
# sets what is already there).
for _native in (
    CardRef,
    TileRef,
    PlayerRef,
    TakeMoney,
    Buy,
    Place,
    Turn,
    DisplayReveal,
    MarketDraw,
    Chance,
):
    setattr(_native, "__init__", vars(_native)["__init__"])  # noqa: B010
    _with_pos(_native)
    _FIELD_NAMES[_native] = tuple([f.name for f in dataclasses.fields(_native)])
