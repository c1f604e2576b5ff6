"""Issue 34, twenty-second step (helper silentq): the cells at a turn's start kept by the
engine (``Module.reads_turn_start``, ``GameState.turn_start``) instead of a module step at
every turn's start (Die Tore der Stadt).

Kept cheap (the suite's budget): the module's example and one cut copy of it, a base example.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine.extensions import MODULES, Extensions, acts_at
from referee.engine.turns import Moment
from referee.modules.stadttore import Stadttore

ROOT = Path(__file__).resolve().parents[1]
TEXT = (ROOT / "examples" / "module-stadttore.alh").read_text(encoding="utf-8")
# the first gate left out: its tile waits for it at the turn's end (GATE-MISSING)
CUT = TEXT.replace(", gate @-1,-3 e", "", 1)


class _StepGates(Stadttore):
    """Stadttore as it was before the engine kept the cells: a step of its own at every
    turn's start copies the mover's cells (into the same table the module reads now)."""

    reads_turn_start = False

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        state = ctx.state
        t = state.turn
        if moment is Moment.TURN_START:
            if t is not None:
                state.turn_start[t.player] = state.players[t.player].alhambra.cells.copy()
            return
        super().at_moment(ctx, moment)


def _report(text: str) -> str:
    from referee.api import check_game, parse_game

    return repr(check_game(parse_game(text)))


def test_the_reports_are_those_of_a_step_at_every_turn_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert CUT != TEXT
    now = [_report(t) for t in (TEXT, CUT)]
    assert "GATE-MISSING" in now[1] and "GATE-MISSING" not in now[0]
    monkeypatch.setitem(MODULES, "stadttore", _StepGates)
    assert [_report(t) for t in (TEXT, CUT)] == now


def test_the_engine_keeps_the_cells_only_where_a_module_reads_them() -> None:
    from referee.engine import replay
    from referee.notation import parse_text

    gates = Extensions(["stadttore"])
    assert gates.turn_start_kept and gates.turn_asked
    assert not any(isinstance(m, Stadttore) for m in gates._asked_at(Moment.TURN_START))
    assert not Extensions([]).turn_start_kept and not Extensions(["wesir"]).turn_start_kept

    (game,) = parse_text(TEXT)
    state, _found = replay(game)
    kept = state.turn_start
    assert kept and all(type(v) is dict for v in kept.values())
    for p in state.players:  # each a table of the player's cells (tiles laid since: fewer)
        if p.index in kept:
            assert kept[p.index].keys() <= p.alhambra.cells.keys()
            assert kept[p.index] is not p.alhambra.cells
    copy = state.copy()
    assert copy.turn_start == kept and copy.turn_start is not kept

    (base,) = parse_text((ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8"))
    plain, _found = replay(base)
    assert plain.turn_start == {}
