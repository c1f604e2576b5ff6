"""bench/silent_corpus.py makes valid, silent games (issue 34, nineteenth step).

A silent corpus measures what a module costs when it is enabled and never used; it measures
that only when each game is a valid record in which no player line uses the module. One
simulated game a way (cheap): a module whose set-up needs its own lines (Obstgärten: a fruit
board a player, fruit on the market) is simulated with the silent player; a module a base game
stays valid with gets the base game with the header.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def silent_corpus():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    try:
        import silent_corpus as sc
    finally:
        sys.path.remove(str(BENCH))
    return sc


def test_a_simulated_silent_game_is_valid_and_never_uses_the_module(silent_corpus) -> None:  # type: ignore[no-untyped-def]
    from referee.api import check_game, parse_game
    from referee.simulate import simulator

    before = simulator.LazyOptions, simulator.Policy
    row = silent_corpus.make_corpus("obstgaerten", [], games=1, tries=3, players=(2,))
    assert (simulator.LazyOptions, simulator.Policy) == before  # the patch is put back
    assert row["source"] == "sim"
    (text,) = row["texts"]
    game = parse_game(text)
    report = check_game(game)
    assert report.valid and not report.violations and not report.unverifiable
    assert '[Modules "obstgaerten"]' in text
    players, chances, kinds = silent_corpus.module_lines(game)
    assert players == 0  # no player line names a module verb or piece
    assert kinds["* orchard"] == 1 and kinds["* fruit"] > 0  # its pieces are in play
    assert chances == sum(
        1
        for line in text.splitlines()
        if line.startswith("* ") and ("orchard" in line or "fruit" in line)
    )


def test_a_base_game_that_stays_valid_gets_the_header(silent_corpus) -> None:  # type: ignore[no-untyped-def]
    from referee.simulate import simulate_text

    base = simulate_text(2, 7, event="base game")
    row = silent_corpus.make_corpus("wesir", [base], games=1, tries=0)
    assert row["source"] == "header"
    assert row["texts"] == [base.replace("[Result ", '[Modules "wesir"]\n[Result ', 1)]


def test_a_game_using_the_module_is_not_silent(silent_corpus) -> None:  # type: ignore[no-untyped-def]
    from referee.api import parse_game

    text = (Path(__file__).resolve().parent.parent / "examples" / "module-wesir.alh").read_text(
        encoding="utf-8"
    )
    players, _chances, _kinds = silent_corpus.module_lines(parse_game(text))
    assert players > 0


def test_wachtuerme_is_idle_at_every_turn_until_a_tower_is_taken(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Silent Wachtürme (no tower bought): its turn steps are left out; in a game that buys
    towers they run again from the first one on, with the same findings as before."""
    from shared_store_support import simulated_text

    from referee.api import check_game, parse_game
    from referee.engine.turns import Moment
    from referee.modules.wachtuerme import Wachtuerme

    ran: list[object] = []
    step = Wachtuerme.at_moment

    def counted(self, ctx, moment):  # type: ignore[no-untyped-def]
        ran.append(moment)
        return step(self, ctx, moment)

    monkeypatch.setattr(Wachtuerme, "at_moment", counted)
    base = simulated_text(3, 11, None, "base game", ())  # (once a run)
    silent = base.replace("[Result ", '[Modules "wachtuerme"]\n[Result ', 1)
    assert check_game(parse_game(silent)).valid
    assert Moment.TURN_START not in ran and Moment.TURN_END not in ran
    ran.clear()
    example = Path(__file__).resolve().parent.parent / "examples" / "module-wachtuerme.alh"
    report = check_game(parse_game(example.read_text(encoding="utf-8")))
    assert report.valid
    assert Moment.TURN_END in ran  # towers bought: the turn's end is checked again
