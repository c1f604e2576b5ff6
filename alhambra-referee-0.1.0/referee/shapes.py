"""Classes the type checker reads as :mod:`typing` classes, made at run time without it.

A one-game ``check`` does not import :mod:`typing` (issue 34, seventeenth step): its import
(with :mod:`contextlib`) was about 12 M instructions of a check's start-up, and without it
:mod:`dataclasses` also skips its ``ClassVar`` test of each text annotation. Annotations name
typing's classes freely (they are text); what ``typing`` would make at run time is made here:

* the protocols of compiled modules (mypyc makes a protocol class from ``typing.Protocol``,
  and compiles no class defined under an ``if``): :class:`Piece` (of
  :mod:`referee.geometry.grid`), :class:`PieceLike` (of :mod:`referee.geometry.pieces`),
  :class:`ScoringCategory` (of :mod:`referee.scoring.categories`), :class:`StageOwner` (of
  :mod:`referee.engine.stages`), imported by those modules
  and named after them; :class:`Walled` and :class:`PayItem`, which their modules import for
  the type checker only. For the type checker they are protocols; at run time plain classes
  that nothing derives from or tests against (a protocol that is not ``runtime_checkable``
  cannot be used with ``isinstance`` either);
* :func:`named_tuple`, the class decorator that makes a ``NamedTuple`` class body a
  :func:`collections.namedtuple` class (the same class ``typing.NamedTuple`` makes: the same
  fields, ``repr``, ``_replace``, pickling, with the body's methods and docstring), and
  :class:`WallFacts`, the named tuple of the compiled :mod:`referee.geometry.layers` (mypyc
  makes a class-based named tuple with ``typing.NamedTupleMeta``, so it is defined here).

Type-only modules test the constant ``TYPE_CHECKING`` (the type checker treats any name
``TYPE_CHECKING`` as true; it is false at run time).
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NamedTuple as TupleBody
    from typing import Protocol, TypeVar

    from referee.catalogue import BuildingType, Currency, Side
    from referee.engine.context import Context
    from referee.engine.stages import Stage
    from referee.engine.state import PlayerState
    from referee.profiles import RuleProfile
    from referee.record.model import Turn
    from referee.scoring.categories import CategoryScore, Floor, Participant

    _C = TypeVar("_C", bound=type)

    class Piece(Protocol):
        """Anything that can lie in an Alhambra: a catalogue tile, the fountain, a module
        tile."""

        @property
        def walls(self) -> frozenset[Side]: ...

        @property
        def type(self) -> BuildingType | None: ...

    class Walled(Protocol):
        """Anything with walls (a piece in a cell of the incremental geometry)."""

        @property
        def walls(self) -> frozenset[Side]: ...

    class PayItem(Protocol):
        """What the payment search (:func:`referee.engine.actions.purchase.payments`) reads of
        an item: a money card, or a module's stand-in for one (Die Baumeister's master-builder
        card, paid as money of value 3). Compiled, an annotation is checked at run time, so the
        search must not name :class:`MoneyCard`."""

        @property
        def currency(self) -> Currency: ...

        @property
        def value(self) -> int: ...

        @property
        def sort_key(self) -> tuple[int, ...]: ...

    class PieceLike(Protocol):
        """The attributes every piece has (a catalogue tile, the fountain, a module's piece)."""

        @property
        def walls(self) -> frozenset[Side]: ...

        @property
        def type(self) -> BuildingType | None: ...

    class ScoringCategory(Protocol):
        """What a scoring category is: a key, labels, a rulebook section and a ``score`` method.

        ``score`` returns an entry for every participant the category concerns (a participant it
        leaves out gets no line, e.g. Dirk has no wall). ``order`` sorts the lines of a row
        (majorities 100, wall 200, modules 500, "zuletzt" 900); ``floor`` "scoring" or "total"
        stops the category's points from taking this scoring's points or the total below zero.
        """

        @property
        def key(self) -> str: ...

        @property
        def label_en(self) -> str: ...

        @property
        def label_de(self) -> str: ...

        @property
        def section(self) -> str: ...

        @property
        def order(self) -> int: ...

        @property
        def floor(self) -> Floor: ...

        def score(
            self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
        ) -> dict[str, CategoryScore]: ...

    class StageOwner(Protocol):
        """What the engine asks the owner of a stage (a :class:`Module`, or an engine service)."""

        def stage_line(self, ctx: Context, stage: Stage, player: PlayerState, line: Turn) -> None:
            """A line of ``player`` in ``stage`` (order already checked): check and apply it."""

        def stage_closed(self, ctx: Context, stage: Stage) -> None:
            """``stage`` is over (``stage.abandoned``: another line came first)."""

        def legal_stage_lines(self, ctx: Context, stage: Stage, player: PlayerState) -> list[Turn]:
            """The lines ``player`` may write in ``stage`` now."""

else:

    class Piece:
        """Anything that can lie in an Alhambra: a catalogue tile, the fountain, a module
        tile. (A protocol for the type checker: ``walls``, ``type``.)"""

        __module__ = "referee.geometry.grid"  # where it is defined for its users

    class Walled:
        """Anything with walls. (A protocol for the type checker: ``walls``.)"""

    class PayItem:
        """What the payment search reads of an item. (A protocol for the type checker:
        ``currency``, ``value``, ``sort_key``.)"""

    TupleBody = object

    class PieceLike:
        """The attributes every piece has (a catalogue tile, the fountain, a module's piece):
        ``walls``, ``type``. (A protocol for the type checker; no ``typing`` at run time.)"""

        __module__ = "referee.geometry.pieces"

    class ScoringCategory:
        """What a scoring category is: a key, labels, a rulebook section and a ``score`` method
        (``key``, ``label_en``, ``label_de``, ``section``, ``order``, ``floor``, ``score``). A
        protocol for the type checker; no ``typing`` at run time."""

        __module__ = "referee.scoring.categories"

    class StageOwner:
        """What the engine asks the owner of a stage (a :class:`Module`, or an engine service):
        ``stage_line``, ``stage_closed``, ``legal_stage_lines``. (A protocol for the type
        checker; no ``typing`` at run time.)"""

        __module__ = "referee.engine.stages"


# what a class body has that the named tuple made from it keeps of its own
_NOT_COPIED = frozenset({"__dict__", "__weakref__", "__module__", "__qualname__"})


def named_tuple(body: _C) -> _C:
    """The named tuple of a class body written as a ``NamedTuple`` class (``class
    Pos(TupleBody)`` with annotated fields and methods, no defaults): a
    :func:`collections.namedtuple` of the annotated names, in order, in the body's module,
    given the body's docstring, annotations and methods."""
    made = namedtuple(body.__name__, tuple(body.__annotations__), module=body.__module__)  # type: ignore[misc]
    made.__qualname__ = body.__qualname__
    for name, value in vars(body).items():
        if name not in _NOT_COPIED:
            setattr(made, name, value)
    return made  # type: ignore[return-value]


@named_tuple
class WallFacts(TupleBody):
    """The answer of :func:`referee.geometry.layers.wall_between` for one side of a cell.

    ``wall``: a wall lies on the edge (on either tile's side, an overlay, or an edge piece);
    ``double``: both tiles show a wall there (an inner wall); ``passable``: both cells hold
    tiles and one can walk across (no wall, or an edge piece opens it: a gate); ``outer``: the
    cell's side is an outer wall (a wall facing no tile, or a tile transparent for the outer
    wall)."""

    wall: bool
    double: bool
    passable: bool
    outer: bool


# where it is used and re-exported (its pickles name that module, as before)
WallFacts.__module__ = "referee.geometry.layers"
