"""first22, the nineteenth step of issue 34.

* ``InterruptArbiter.precedence_findings`` answers at once when no other claim was named (no
  seat-order text made for nothing): the same findings as the full question, with and without
  other claims.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine import check_game
from referee.engine.turns import Claim, InterruptArbiter, seat_order
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _full(arbiter: InterruptArbiter, state: object, acting: Claim, others: list[Claim]) -> list:
    """The findings as the question made them before this step (no early answer)."""
    from referee.engine.findings import problem

    mine = arbiter.key(state, acting)  # type: ignore[arg-type]
    order = " → ".join(p.name for p in seat_order(state))  # type: ignore[arg-type]
    return [
        problem(
            "WESIR-PRIORITY",
            o.pos or acting.pos,
            acting.player.name,
            other=o.player.name,
            order=order,
        )
        for o in others
        if o.player is not acting.player and arbiter.key(state, o) < mine  # type: ignore[arg-type]
    ]


def test_precedence_findings_without_others_and_with_them() -> None:
    game = parse_text((_EXAMPLES / "module-wesir.alh").read_text(encoding="utf-8"))[0]
    state = check_game(game).state
    assert state is not None
    arbiter = state.ext.arbiter
    players = state.players
    assert len(players) >= 2
    for who in players:
        acting = Claim(who, "wesir")
        assert arbiter.precedence_findings(state, acting, [], "WESIR-PRIORITY") == []
        others = [Claim(p, "wesir") for p in players if p is not who]
        got = arbiter.precedence_findings(state, acting, others, "WESIR-PRIORITY")
        assert got == _full(arbiter, state, acting, others)
    # someone comes before someone else in seat order: the findings are not all empty
    assert any(
        arbiter.precedence_findings(
            state, Claim(who, "wesir"), [Claim(p, "wesir") for p in players], "WESIR-PRIORITY"
        )
        for who in players
    )
