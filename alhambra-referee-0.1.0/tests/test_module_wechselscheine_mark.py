"""Die Wechselscheine keeps each player's latest purchase (its overpayment, for a ``certificate``
line of the same line) and once dropped what a turn kept at every turn's start and end. It now
acts at neither moment (so its games take the engine's one-pass turn paths, issue 34, seventh
step): a kept purchase counts only while the turn mark it was kept with holds. These tests hold
the mark equal to the dropping, at every moment of simulated games with the module."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.extensions import Extensions
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.modules.wechselscheine import Wechselscheine, _kept
from referee.notation import parse_text


@cache
def _games() -> list[Any]:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    texts = [
        simulate_text(players, 7100 + players, profile, f"mark {players}", ("wechselscheine",))
        for players in (2, 3, 4, 5)
    ]
    return [parse_text(t, f"mark-{i}.alh")[0] for i, t in enumerate(texts)]


@pytest.mark.parametrize("game", range(4))
def test_a_kept_purchase_counts_exactly_until_the_next_turn_start_or_end(
    game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = _games()[game]  # simulated before the engine is watched
    live: dict[int, set[str]] = {}  # per state: the players whose kept purchase the drop left
    seen = {"moments": 0, "kept": 0, "asked": 0}

    def compare(state: Any) -> None:
        data = state.modules.get(Wechselscheine.name)
        if data is None:
            return
        for p in state.players:
            by_mark = _kept(data, state, p.name) is not None
            # (a certificate line takes the kept purchase away: in both readings)
            dropped = p.name not in live.get(id(state), set()) or p.name not in data.pending
            assert by_mark == (not dropped), (p.name, state.turn_no)
            seen["asked"] += 1
            seen["kept"] += by_mark

    at = Extensions.at

    def at_moment(self: Extensions, moment: Any, state: Any, pos: Any = None) -> None:
        # the turn's end is asked before the turn closes (the mark moves just after), its
        # start after the turn number grew (the mark moved just before)
        if moment != Moment.TURN_START:
            compare(state)
        if moment in (Moment.TURN_START, Moment.TURN_END):  # where the module dropped them
            live.pop(id(state), None)
            seen["moments"] += 1
        if moment == Moment.TURN_START:
            compare(state)
        at(self, moment, state, pos)

    def kept_by(method: Any, player_of: Any) -> Any:
        def wrapped(self: Wechselscheine, first: Any, purchase: Any) -> None:
            method(self, first, purchase)
            state = getattr(first, "state", first)
            live.setdefault(id(state), set()).add(player_of(purchase).name)
            compare(state)

        return wrapped

    copy = GameState.copy

    def copied(state: GameState, *args: Any, **kwargs: Any) -> GameState:
        twin = copy(state, *args, **kwargs)  # a trial state: the same purchases kept
        live[id(twin)] = set(live.get(id(state), set()))
        return twin

    monkeypatch.setattr(Extensions, "at", at_moment)
    # the general turn paths, so that every turn's start and end passes Extensions.at (the
    # one-pass paths the module's games now take leave the call out: no module acts there)
    monkeypatch.setattr(Extensions, "acting_at", lambda self, moments: True)
    # nor read kept idle answers instead (Module.kept_idle; nobody asked there reads as idle)
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    monkeypatch.setattr(GameState, "copy", copied)
    monkeypatch.setattr(
        Wechselscheine,
        "after_plain_purchase",
        kept_by(Wechselscheine.after_plain_purchase, lambda b: b.player),
    )
    monkeypatch.setattr(
        Wechselscheine, "on_purchase", kept_by(Wechselscheine.on_purchase, lambda b: b.player)
    )
    report = check_game(played)
    assert report.valid and report.complete
    assert seen["moments"] > 50 and seen["kept"] > 10 and seen["asked"] > seen["kept"]
