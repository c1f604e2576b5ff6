"""The simulator's view of a game for a module's ``sim_*`` hooks (:class:`SimContext`).

Its own module, kept Python in the compiled build (issue 34): its fields name classes that
:mod:`referee.engine.extensions` imports for mypy only (``random.Random``, the context), and a
class made in a compiled module looks its fields' classes up when it is made. Modules import
it from :mod:`referee.engine.extensions`, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random  # the simulator's (a check does not import it)

    from referee.engine.context import Context
    from referee.engine.extensions import Module
    from referee.engine.state import GameState


@dataclass
class SimContext:
    """What the simulator (:mod:`referee.simulate.simulator`) hands a module's ``sim_*`` hooks.

    ``ctx`` is the game as the engine holds it (everything written so far is applied); ``rng``
    is the simulator's seeded random generator, the only source of chance (so the same seed
    gives the same game); ``hidden`` holds each module's part of the table that the record does
    not show yet (``hidden[module.name]``, e.g. the order of a face-down stack), kept for the
    whole game.
    """

    ctx: Context
    rng: random.Random
    hidden: dict[str, Any] = field(default_factory=dict)
    bag: list[Any] = field(default_factory=list)
    """The simulator's tiles still in the bag or tower (top = last): a module that draws tiles
    onto its own board (an edition's preview board) pops them here, so they are drawn once."""
    deck: list[Any] = field(default_factory=list)
    """The simulator's money deck (index 0 is the top card; a money card, a scoring card as
    the number 1 or 2, a module card as its token). A module line that turns cards up inside a
    turn names the top cards from here (the Schmied, the Bettler): the simulator itself takes
    off the money cards the engine drew while applying the line (``state.money_draws``); a
    module takes off any other card its line drew (a scoring or module card: the Bettler, in
    :meth:`Module.sim_played`)."""

    @property
    def state(self) -> GameState:
        return self.ctx.state

    def mine(self, module: Module, factory: Callable[[], Any]) -> Any:
        """``module``'s hidden part of the table (made by ``factory`` on first use)."""
        if module.name not in self.hidden:
            self.hidden[module.name] = factory()
        return self.hidden[module.name]


__all__ = ["SimContext"]
