"""Issue 34, nineteenth step (tidy): one function tells the hearers of a market draw.

``market_side.intercept`` serves the draws in play (the first module setting the piece aside
keeps it; the later ones are not told) and, with ``every``, a position's ``refill`` line
(``position.position_refill``: every hearer told, what it answers ignored, the piece stays on
its field). ``position._arg_at``: a finding about an argument without a place of its own
points at its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.catalogue import Currency
from referee.engine.extensions import Extensions, Module
from referee.engine.market_side import intercept
from referee.engine.position import position_discard, position_refill
from referee.engine.state import EMPTY, GameState
from referee.engine.turns import Phase
from referee.engine.walk import At, state_at
from referee.notation import parse_text
from referee.record.model import GenericArg, ModuleAction, Pos

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game-4p.alh"
HEARD: list[tuple[str, int, object]] = []  # (module, field, piece) as told


class _Aside(Module):
    name = "aside-tidy21"

    def market_draw(self, state: Any, field: int, piece: object, pos: Pos) -> str | None:
        HEARD.append((self.name, field, piece))
        return "ASIDE-TIDY21"


class _Listener(Module):
    name = "listener-tidy21"

    def market_draw(self, state: Any, field: int, piece: object, pos: Pos) -> str | None:
        HEARD.append((self.name, field, piece))
        return None


def _between() -> GameState:
    """The example's state after turn 3 with its refill closed (a moment between lines), the
    market's draws heard by the two modules."""
    (game,) = parse_text(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    state, _ = state_at(game, At("turn", 3))
    state.turn, state.phase, state.refill_drawn = None, Phase.BETWEEN, None
    state.found.clear()
    ext = Extensions()
    ext.modules.extend([_Aside(), _Listener()])
    ext.modules_changed()
    state.ext = ext
    HEARD.clear()
    return state


def test_a_draw_in_play_stops_at_the_module_setting_it_aside() -> None:
    state = _between()
    assert [m.name for m in state.ext.drawing] == ["aside-tidy21", "listener-tidy21"]
    assert intercept(state, 1, "piece", Pos(5, 1)) == "ASIDE-TIDY21"
    assert HEARD == [("aside-tidy21", 1, "piece")]


def test_every_hearer_is_told_of_a_stated_draw_and_the_answers_are_ignored() -> None:
    state = _between()
    assert intercept(state, 2, "piece", Pos(5, 1), True) is None
    assert HEARD == [("aside-tidy21", 2, "piece"), ("listener-tidy21", 2, "piece")]


def test_a_refill_line_tells_every_hearer_and_keeps_the_pieces_on_their_fields() -> None:
    state = _between()
    assert state.phase is Phase.BETWEEN and state.turn is None and state.refill_drawn is None
    market = list(state.market)
    filled = [i for i, t in enumerate(market) if t is not EMPTY and t is not None][:2]
    codes = {c.field - 1: c.value for c in Currency}
    line = ModuleAction(
        "refill", tuple(GenericArg(codes[i], Pos(9, 8 + 3 * i)) for i in filled), Pos(9, 1)
    )
    position_refill(state, line)
    assert not state.found
    assert state.phase is Phase.REFILL
    assert list(state.market) == market
    assert state.refill_drawn == tuple((i, market[i]) for i in filled)
    told = [(n, i, market[i]) for i in filled for n in ("aside-tidy21", "listener-tidy21")]
    assert told == HEARD


def test_an_argument_without_a_place_is_reported_at_its_line() -> None:
    state = _between()
    nums = (GenericArg(7), GenericArg("Xx", Pos(9, 12)))
    position_refill(state, ModuleAction("refill", nums, Pos(9, 1)))
    position_discard(state, ModuleAction("discard", nums, Pos(10, 1)))
    found = [(v.code, v.reason, v.line, v.column) for v in state.found]
    assert found == [
        ("POSITION-INVALID", "refill-line", 9, 1),
        ("POSITION-INVALID", "refill-line", 9, 12),
        ("POSITION-INVALID", "discard-line", 10, 1),
        ("POSITION-INVALID", "discard-line", 9, 12),
    ]
