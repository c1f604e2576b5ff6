"""The simulator's fast way (a move applied to the game itself, no trial copy first) and its
fall-back (the game played again with trials): the records are the same either way, and every
fall-back is recorded (``referee.simulate.fast_way_replays``), so a defect of the fast way alone
shows as a failure, not only as slowness. ``tests/shared_store_support.simulated_text`` asserts
that none of the games the suite simulates there (the modules' contract games among them) fell
back for a reason other than a refused line."""

from __future__ import annotations

import pytest

from referee.profiles import load_profile
from referee.simulate import fast_way_replays, simulate_text, simulator


def test_a_failure_of_the_fast_way_is_replayed_recorded_and_gives_the_same_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = load_profile("queen-2003")
    plain = simulate_text(3, 4242, rules, "fast way", ("baumeister",))
    real = simulator._Game._redesign_lost
    calls: list[bool] = []

    def broken(state: object, spare: bool) -> bool:
        if not spare and not calls:  # asked by the fast way only, after a move it applied
            calls.append(True)
            raise TypeError("a defect of the fast way")
        return real(state, spare)  # type: ignore[arg-type]

    monkeypatch.setattr(simulator._Game, "_redesign_lost", staticmethod(broken))
    before = len(fast_way_replays())
    again = simulate_text(3, 4242, rules, "fast way", ("baumeister",))
    assert calls, "the fast way was not taken"
    assert again == plain
    (replay,) = fast_way_replays()[before:]
    assert (replay.event, replay.seed, replay.reason) == ("fast way", 4242, "TypeError")
    assert replay.message == "a defect of the fast way"


def test_a_refused_line_is_recorded_as_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_profile("queen-2003")
    plain = simulate_text(2, 77, rules, "refused", ())
    real = simulator._Game._ensure_clean
    calls: list[bool] = []

    def refusing(self: simulator._Game, before: int, what: object) -> None:
        if not self.trials and len(self.body) > 12 and not calls:
            calls.append(True)
            raise simulator.SimulationError(f"{simulator._REJECTS} {what!r}: (a test)")
        real(self, before, what)

    monkeypatch.setattr(simulator._Game, "_ensure_clean", refusing)
    before = len(fast_way_replays())
    assert simulate_text(2, 77, rules, "refused", ()) == plain
    (replay,) = fast_way_replays()[before:]
    assert replay.reason == "refused"


def test_the_record_of_replays_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulator, "_REPLAYS", [])
    monkeypatch.setattr(simulator, "_REPLAYS_KEPT", 1)
    real = simulator._Game._play
    failed: list[int] = []

    def once_broken(self: simulator._Game) -> object:
        if not self.trials:
            failed.append(self.seed)
            raise KeyError("fast way")
        return real(self)

    monkeypatch.setattr(simulator._Game, "_play", once_broken)
    for seed in (1, 2):
        simulate_text(2, seed, None, "bounded", ())
    assert failed == [1, 2]
    assert [r.seed for r in fast_way_replays()] == [1]
