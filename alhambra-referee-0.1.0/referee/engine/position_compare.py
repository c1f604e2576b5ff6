"""Comparing a state with what its ``position`` block reads back to (beside the writer,
:mod:`referee.engine.position_text`).

:func:`snapshot` is what two states are compared by: the block's lines (its comments aside),
the modules' views without their history, the players' scores, hands and reserves, the market,
the display and whether the game is over. :func:`read_back_losses` writes nothing: it reads a
block back and names what comes back different (``show --format record`` says it in the block
and to the user). Used by ``show``, the simulator's round trips
(:mod:`referee.simulate.roundtrip`) and the tests of positions.
"""

from __future__ import annotations

import json
import re
from typing import Any

from referee.engine.position_text import position_text

# what a position does not state: history (cards played, used, given, discarded, attacks
# suffered, the vizier's uses, the faces stated so far) and counts that follow from it
HISTORY = {
    "attacks",
    "used",
    "played",
    "given",
    "uses",
    "revealed",
    "faces stated",
    "discard",
    "in the deck",
    "master builders in the deck",
    "master builders out of the game",
    "in the gate tableau",  # a key tile whose bonuses are being taken: an open stage
}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _strip(v)
            for k, v in value.items()
            if k not in HISTORY and not (isinstance(v, dict) and v.get("sultan cards") == "none")
        }
    if isinstance(value, str):  # the face a sultan card's mark was rolled from: history
        return re.sub(r", rolled [PSACGT]\)", ")", value)
    return value


def snapshot(state: Any) -> list[str]:
    """The lines two states are compared by (history left out, see :data:`HISTORY`)."""
    views = _strip(json.loads(json.dumps(state.ext.views(state), default=str)))
    players = [
        f"{p.name}: score {p.score}, hand {sorted(c.code for c in p.hand.elements())} "
        f"+{p.hand_unknown}?, reserve {[str(t) for t in p.reserve]}"
        for p in state.players
    ]
    table = [
        f"market {[str(x) for x in state.market]}",
        f"display {[str(x) for x in state.display]}",
        f"bag {state.bag_count}",  # the tiles still to draw (Dirk's third, the game's end)
    ]
    return [
        # the block's lines, its comments aside (what it cannot state is said there)
        *(x for x in position_text(state).splitlines() if not x.lstrip().startswith("#")),
        *json.dumps(views, sort_keys=True).replace("}, ", "}\n").splitlines(),
        *players,
        *table,
        f"over {state.game_over}",
    ]


def read_back_losses(state: Any, text: str) -> list[str]:
    """What the record ``text`` (a moment of ``state`` written as a position) does not give
    back when read: the parts of the table and of the modules' state (their history left out,
    as :func:`snapshot` leaves it) that differ, each cut to a readable length. Empty: the block
    reads back to the same state."""
    from referee.engine.walk import walk
    from referee.notation import parse_text

    again = parse_text(text)[0]
    if again.errors:  # pragma: no cover - the writer writes what the readers read
        return [again.errors[0].message]
    state2 = None
    for step in walk(again, finish=False, snapshots=False):
        state2 = step.state
    if state2 is None:  # pragma: no cover - a walk has its start step
        return []
    before = [x for x in snapshot(state) if not x.lstrip().startswith("#")]
    after = set(snapshot(state2))
    return [_cut(x.strip()) for x in before if x not in after]


def _cut(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."
