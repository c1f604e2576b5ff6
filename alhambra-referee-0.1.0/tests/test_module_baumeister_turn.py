"""Die Baumeister tells a card played outside the player's own turn (``BAUMEISTER-TIMING``,
reason ``out-of-turn``) from the turn itself (``TurnState.interrupt``: an out-of-turn line
runs in a turn of its own), instead of noting where each turn began at its start (issue 34,
eighth step: its turn-start step then does nothing at most turns). These tests hold the two
answers equal wherever the module checks a ``master`` line, in and out of turn."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.turns import Moment
from referee.modules.baumeister import Baumeister


@cache
def _simulated(modules: tuple[str, ...]) -> list[Any]:
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    return [
        parse_text(simulate_text(n, 8200 + n, profile, f"builders {n}", modules), f"b{n}.alh")[0]
        for n in (2, 3, 4, 6)
    ]


@pytest.mark.parametrize("modules", [("baumeister",), ("baumeister", "wesir", "diebe")])
def test_out_of_turn_is_the_turn_begun_elsewhere(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _simulated(modules)  # simulated before the module is watched
    began: dict[int, Any] = {}  # id(state) -> where its last own turn began (TURN_START)
    seen = {"checked": 0}
    step, check = Baumeister.at_moment, Baumeister.check_verb

    def watched_step(self: Baumeister, ctx: Any, moment: Any) -> None:
        if moment == Moment.TURN_START:
            turn = ctx.state.turn
            began[id(ctx.state)] = turn.pos if turn is not None else None
        step(self, ctx, moment)

    def watched_check(self: Baumeister, ctx: Any, player: Any, action: Any) -> list[Any]:
        turn = ctx.state.turn
        if turn is not None and id(ctx.state) in began:
            seen["checked"] += 1
            assert (turn.interrupt is not None) == (turn.pos != began[id(ctx.state)])
        return check(self, ctx, player, action)

    watched_step.acts_at = step.acts_at  # type: ignore[attr-defined]  # asked as the module is
    monkeypatch.setattr(Baumeister, "at_moment", watched_step)
    monkeypatch.setattr(Baumeister, "check_verb", watched_check)
    # every turn start runs the watched step (its idle answer would leave the idle ones out)
    monkeypatch.setattr(Baumeister, "idle_at", lambda self, state, moment: False)
    monkeypatch.setattr(Baumeister, "kept_idle", frozenset())  # (nor a kept answer)
    for game in games:
        began.clear()
        report = check_game(game)
        assert report.complete
    assert seen["checked"] > 0


def test_a_card_in_a_vizier_line_is_out_of_turn_and_in_the_turn_is_not() -> None:
    from test_module_baumeister import game, parse

    text = game(
        "1. Anna: take Gu1\n* display Gu3\nCem: vizier, buy Du T13 pay Du9 Du4, reserve T13, "
        "master mb:Du, remove P8@1,0\n",
        anna="De9",
    ).replace('[Modules "baumeister"]', '[Modules "baumeister, wesir"]')
    text = text.replace("    hand Du9\n", "    hand Du9 Du4 mb:Du\n")
    report = parse(text)
    timing = [v for v in report.violations if v.code == "BAUMEISTER-TIMING"]
    assert len(timing) == 1 and "outside his own turn" in timing[0].message("en")
