"""The two named tuples of the records, :class:`Pos` and :class:`Coord`, in a module that stays
Python in the compiled build (setup.py's ``MYPYC_MODULES`` lists ``record/model.py``, not this).

A compiled module makes a class-based named tuple through ``typing``'s machinery, so a compiled
``record/model.py`` holding them imported ``typing`` at every start-up (issue 34, nineteenth
step: about 12 M instructions). Here :func:`referee.shapes.named_tuple` makes them with
:func:`collections.namedtuple`, as ``referee/shapes.py`` makes ``WallFacts``.
``referee.record.model`` re-exports both, and they name it as their module (their pickles,
``repr`` and every import stay as before).
"""

from referee.catalogue import Side
from referee.shapes import TupleBody, named_tuple


@named_tuple
class Pos(TupleBody):
    """A source position: 1-based line and column.

    A named tuple (not a frozen dataclass) because the reader makes one for every record of
    every line (about ten a turn): a tuple is made and freed in C. Like any tuple it equals a
    tuple of the same numbers and orders by line, then column."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


@named_tuple
class Coord(TupleBody):
    """A cell of an Alhambra: the fountain is 0,0; x grows east, y grows north.

    A named tuple (not a frozen dataclass) because the engine hashes and creates coordinates in
    its inner loop (flood fills of the building rules); tuples do both in C.
    """

    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.x},{self.y}"

    def __repr__(self) -> str:
        return f"Coord({self.x}, {self.y})"

    def neighbour(self, side: Side) -> "Coord":
        dx, dy = side.delta
        return Coord(self.x + dx, self.y + dy)


# where they are used and re-exported (their pickles name that module, as before)
Pos.__module__ = "referee.record.model"
Coord.__module__ = "referee.record.model"
