"""The one replay walker: every position of a record, in order, in O(n).

:func:`walk` applies a game's body line by line and yields a :class:`Step` after each line: the
line, an independent snapshot of the state after it, and the findings that line produced. The
first step is the state before the first body line (``kind == "start"``); after the last line
the game end is completed and one more step (``kind == "end"``) carries what that found.

Every consumer that needs "the state after line N" (``show``, ``explain``, ``legal``,
``render``, the HTML replay) asks this walker instead of replaying by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from referee.engine.rules import Unverifiable, Violation
from referee.engine.state import GameState
from referee.profiles import RuleProfile
from referee.record.model import NOWHERE, BodyItem, Game, Pos

StepKind = Literal["start", "item", "end"]


@dataclass(frozen=True, slots=True)
class Step:
    """One position of a record.

    ``index`` counts steps from 0 (the start); ``item`` is the body line just applied (None for
    the start and the end step); ``state`` is a snapshot the caller may keep or change;
    ``violations`` / ``unverifiable`` are the findings of this step alone.
    """

    index: int
    kind: StepKind
    item: BodyItem | None
    state: GameState
    violations: tuple[Violation, ...]
    unverifiable: tuple[Unverifiable, ...]

    @property
    def line(self) -> int | None:
        """The record line of this step's item (None for start and end)."""
        return None if self.item is None else self.item.pos.line


def walk(
    game: Game,
    profile: RuleProfile | None = None,
    *,
    snapshots: bool = True,
    finish: bool = True,
    check: bool = True,
) -> Iterator[Step]:
    """Every position of ``game``: the start, one step per body line, then the end.

    ``snapshots`` False hands out the live state (cheaper; each step's state is then the same
    object, changed by the next step). ``finish`` False leaves out the end step (the record
    is taken to go on). ``check`` False replays a trusted record: no rule is checked and no
    finding reported, only the changes are made (faster).
    """
    from referee.engine import start_state
    from referee.engine.core import apply_item
    from referee.engine.core import finish as finish_game

    state = start_state(game, profile)
    state.checking = check
    seen_v = len(state.found)
    seen_u = len(state.unverifiable)

    def step(index: int, kind: StepKind, item: BodyItem | None) -> Step:
        nonlocal seen_v, seen_u
        new_v = tuple(state.found[seen_v:])
        new_u = tuple(state.unverifiable[seen_u:])
        seen_v, seen_u = len(state.found), len(state.unverifiable)
        snap = state.copy() if snapshots else state
        return Step(index, kind, item, snap, new_v, new_u)

    index = 0
    yield step(index, "start", None)
    last: Pos = Pos(game.start_line, 1) if game.start_line else NOWHERE
    for item in game.body:
        apply_item(state, item)
        last = item.pos
        index += 1
        yield step(index, "item", item)
    if finish:
        finish_game(state, Pos(last.line, 1))
        index += 1
        yield step(index, "end", None)
