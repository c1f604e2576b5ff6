"""The answers of a game's modules that the engine's turn reads on every turn, as one object of
native fields (issue 34, twenty-fifth step).

:class:`~referee.engine.extensions.Extensions` works out per game the answers a path of every
turn asks (its kept attributes: ``counting``, ``refill_asked``, ``refilling_from``, ...) and
keeps them as attributes of a Python object: compiled code reads each through Python's
generic attribute look-up (about 200 instructions a read; ``core._turn`` read three a turn).
:class:`ExtReads` holds copies of those read on the engine's per-turn paths (and the list
``modules`` itself, so that a module put into the list in place is seen as before); compiled
(setup.py's ``MYPYC_MODULES``), a native class whose fields compiled code reads as C fields.
The engine reads ``state.ext.kept`` once where it read several of these attributes, then the
fields.

``Extensions`` makes it at the one place its answers are worked out, the end of
``Extensions._keep_answers`` (``__init__``, and ``modules_changed`` when a tool changes the
modules): every answer here is the attribute's value as worked out then. The attributes stay
the answers' home (the modules, tools and tests read them there); like them, the copies are
the engine's, read-only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ExtReads:
    """The kept answers of one ``Extensions`` read on every turn (see the module)."""

    __slots__ = (
        "after_plain",
        "counting",
        "draw_heard",
        "draw_types",
        "modules",
        "refill_asked",
        "refilling_from",
        "turn_asked",
    )

    def __init__(
        self,
        modules: list[Any],
        counting: bool,
        refill_asked: bool,
        turn_asked: bool,
        refilling_from: tuple[Any, ...],
        draw_heard: Any,
        draw_types: Any,
        after_plain: tuple[Any, ...],
    ) -> None:
        self.modules = modules
        """``Extensions.modules``, the same list (a module put into it in place is in it)."""
        self.counting = counting
        """``Extensions.counting``."""
        self.refill_asked = refill_asked
        """``Extensions.refill_asked``."""
        self.turn_asked = turn_asked
        """``Extensions.turn_asked``."""
        self.refilling_from = refilling_from
        """``Extensions.refilling_from``."""
        self.draw_heard = draw_heard
        """``Extensions.draw_heard``."""
        self.draw_types = draw_types
        """``Extensions.draw_types``."""
        self.after_plain = after_plain
        """``Extensions.after_plain``."""


__all__ = ["ExtReads"]
