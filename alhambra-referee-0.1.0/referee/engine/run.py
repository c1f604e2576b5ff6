"""The per-line loop of a checked game: :func:`run_game` (re-exported by
:mod:`referee.engine`, its public home).

A module of its own so that the compiled build can compile it (setup.py's ``MYPYC_MODULES``;
a package's ``__init__`` stays Python, issue 34); the pure build runs it as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.context import Context
from referee.engine.core import finish, line_handlers, winners
from referee.engine.state import GameState
from referee.record.model import BodyItem, Game, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine import GameReport

_GAME_REPORT: list[Any] = []
"""``referee.engine.GameReport`` once :func:`run_game` has imported it (the package imports this
module: not at the top; an import statement run per game costs about 4,000 instructions)."""


def _claimed_result(game: Game) -> dict[str, int] | None:
    raw = game.header("Result")
    if not raw or raw.strip() == "*":
        return None
    out: dict[str, int] = {}
    for part in raw.split(","):
        bits = part.strip().rsplit(None, 1)
        if len(bits) == 2:
            try:
                out[bits[0].strip().strip('"')] = int(bits[1])
            except ValueError:
                continue
    return out


def run_game(
    game: Game,
    state: GameState,
    items: Sequence[BodyItem] | None = None,
    strict: bool = False,
) -> GameReport:
    """Apply ``items`` (default: the whole body) to ``state``, finish the game, compare the
    ``Result`` header and report. Lets a caller start from a prepared state."""
    # the walk's loop (``walk.walk`` with the live state, no end step), without a Step per line;
    # ``apply_item``'s dispatch, inline
    handlers = line_handlers()
    stopped = False
    last = Pos(game.start_line, 1)
    state.checking = True
    # the context the engine hands to module calls without a record line, kept while the lines
    # run (GameState.context; cleared at the end, whatever happens: it and the state hold each
    # other)
    state.context = Context(state)
    try:
        for item in game.body if items is None else items:
            if strict and any(v.severity == "error" for v in state.found):
                stopped = True
                break
            apply = handlers.get(type(item))
            if apply is not None:
                apply(state, item)
            last = item.pos
        end_pos = Pos(last.line, 1)
        if not stopped:
            finish(state, end_pos)
            claimed = _claimed_result(game)
            if claimed and 3 not in state.scorings_done:
                state.note(_header_pos(game, "Result"), "UNVERIFIED-RESULT-UNCHECKED")
            if claimed is not None and 3 in state.scorings_done:
                for name, total in claimed.items():
                    p = state.player_named(name)
                    if p is None:
                        state.flag(
                            "UNKNOWN-PLAYER",
                            _header_pos(game, "Result"),
                            name,
                            players=", ".join(state.names),
                        )
                    elif p.score != total:
                        state.flag(
                            "RESULT",
                            _header_pos(game, "Result"),
                            p.name,
                            claimed=total,
                            computed=p.score,
                        )
    finally:
        state.context = None  # also when a line raised: no state/context cycle left
    if strict:
        first = next((v for v in state.found if v.severity == "error"), None)
        violations = [first] if first is not None else []
    else:
        violations = list(state.found)
    complete = 3 in state.scorings_done
    if not _GAME_REPORT:
        from referee.engine import GameReport as report_class

        _GAME_REPORT.append(report_class)
    return _GAME_REPORT[0](
        source=game.source,
        start_line=game.start_line,
        players=state.names,
        valid=not any(v.severity == "error" for v in violations),
        violations=violations,
        unverifiable=list(state.unverifiable),
        scorings=list(state.scoring_results),
        result={p.name: p.score for p in state.players},
        winners=winners(state) if complete else [],
        complete=complete,
        profile=state.profile.name,
        headers={h.name: h.value for h in game.headers},
        state=state,
    )


def _header_pos(game: Game, name: str) -> Pos:
    for h in game.headers:
        if h.name.lower() == name.lower():
            return h.pos
    return Pos(game.start_line, 1)
