"""The one replay walker: every position of a record, in order, in O(n).

:func:`walk` applies a game's body line by line and yields a :class:`Step` after each line: the
line, an independent snapshot of the state after it, and the findings that line produced. The
first step is the state before the first body line (``kind == "start"``); after the last line
the game end is completed and one more step (``kind == "end"``) carries what that found.

Every consumer that needs "the state after line N" (``show``, ``explain``, ``legal``,
``render``, the HTML replay) asks this walker instead of replaying by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
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
    stop_before: Callable[[GameState, BodyItem], bool] | None = None,
    state: GameState | None = None,
    items: Sequence[BodyItem] | None = None,
) -> Iterator[Step]:
    """Every position of ``game``: the start, one step per body line, then the end.

    ``snapshots`` False hands out the live state (cheaper; each step's state is then the same
    object, changed by the next step). ``finish`` False leaves out the end step (the record
    is taken to go on). ``check`` False replays a trusted record: no rule is checked and no
    finding reported, only the changes are made (faster). ``stop_before(state, item)`` ends the
    walk before the first line for which it is true (no end step then). ``state`` starts from a
    prepared state instead of the game's start; ``items`` walks these lines instead of the body.
    """
    from referee.engine import start_state
    from referee.engine.core import apply_item
    from referee.engine.core import finish as finish_game

    if state is None:
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
    for item in game.body if items is None else items:
        if stop_before is not None and stop_before(state, item):
            return
        apply_item(state, item)
        last = item.pos
        index += 1
        yield step(index, "item", item)
    if finish:
        finish_game(state, Pos(last.line, 1))
        index += 1
        yield step(index, "end", None)


# ----------------------------------------------------------------------------- moments

AtKind = Literal["turn", "line", "start", "end", "scoring"]


@dataclass(frozen=True, slots=True)
class At:
    """A moment of a record: after turn N, after line N, the start, the end, or scoring N.

    * turn N: every line up to the next turn after turn N (the refill and any scoring that
      followed turn N included: what the next player sees);
    * line N: every item that starts on lines 1-N;
    * start: everything before the first turn (the setup completed: the start player known);
    * scoring N: every item up to and including the line ``scoring N``;
    * end: the whole record, with the game end completed.
    """

    kind: AtKind
    n: int = 0


class NotReached(ValueError):
    """The record ends before the moment asked for (``turns`` played, or no such scoring)."""

    def __init__(self, at: At, turns: int) -> None:
        super().__init__(f"{at.kind} {at.n} is not in the record ({turns} turns)")
        self.at = at
        self.turns = turns


def state_at(
    game: Game, at: At, profile: RuleProfile | None = None, check: bool = True
) -> tuple[GameState, list[Violation]]:
    """The state at the moment ``at`` and every violation found up to it.

    Raises :class:`NotReached` when the record ends before it."""
    from referee.engine.core import settle_before
    from referee.record.model import Scoring, Turn

    stopped: list[BodyItem] = []

    def stop(state: GameState, item: BodyItem) -> bool:
        if at.kind == "line":
            hit = item.pos.line > at.n
        elif at.kind == "start":
            hit = isinstance(item, Turn)
        elif at.kind == "turn":
            hit = isinstance(item, Turn) and state.turn_no >= at.n and state.turn is None
            if hit and state.stages:  # other players acting inside the turn (chests handed
                # on, bids) belong to it: the moment after turn k comes after their lines
                from referee.engine.stages import belongs

                hit = isinstance(item, Turn) and not belongs(state.stages[-1], item)
        else:
            hit = False
        if hit:
            stopped.append(item)
        return hit

    state: GameState | None = None
    found: list[Violation] = []
    reached = at.kind in ("end", "start", "line")
    for step in walk(
        game,
        profile,
        snapshots=False,
        finish=at.kind == "end",
        check=check,
        stop_before=None if at.kind in ("end", "scoring") else stop,
    ):
        state = step.state
        found.extend(step.violations)
        if at.kind == "scoring" and isinstance(step.item, Scoring) and step.item.round == at.n:
            reached = True
            break
    assert state is not None
    if at.kind == "start" and stopped:
        # the setup is complete just before the first turn (the start player known)
        before = len(state.found)
        settle_before(state, stopped[0].pos, "turn")
        found.extend(state.found[before:])
    if at.kind == "turn":
        reached = state.turn_no >= at.n
    if not reached:
        raise NotReached(at, state.turn_no)
    return state, found
