"""The simulator plays Die Charaktere's hidden draws and choices (issue 29): the Bettler's card
from the top of the simulator's deck (``SimContext.deck``, taken in ``sim_played``, one more
card after it), the Tänzerin's building from the top of the tower (``sim.bag``) and the Weise's
type before each due scoring (``sim_interrupts``); each simulated game checks clean."""

from __future__ import annotations

import re

from referee.engine import check_game
from referee.notation import parse_text
from referee.simulate import simulate_text

CARD_MODULES = ("charaktere", "sultan", "wechselstuben", "diamanten", "baumeister")


def _clean(text: str) -> None:
    (game,) = parse_text(text, "sim.alh")
    assert not game.errors
    rep = check_game(game)
    assert rep.violations == [], [v.message() for v in rep.violations][:5]
    assert rep.unverifiable == [], [u.message() for u in rep.unverifiable][:5]


def test_simulated_games_use_the_bettler_the_taenzerin_and_the_weise() -> None:
    used = {"beggar": 0, "dancer": 0, "sage": 0}
    for players, seed in ((3, 1), (4, 2), (4, 7)):
        text = simulate_text(players, seed, None, None, ("charaktere",))
        _clean(text)
        for verb in used:
            used[verb] += len(re.findall(rf"(?m)(^\w+: |, |^\d+\. \w+: ){verb} ", text))
    assert all(n > 0 for n in used.values()), used


def test_the_simulated_bettler_draws_scoring_and_module_cards() -> None:
    drawn: list[str] = []
    for players, seed in ((2, 2), (3, 7)):
        text = simulate_text(players, seed, None, None, CARD_MODULES)
        _clean(text)
        drawn += re.findall(r"beggar (\S+?)[,\n]", text)
    assert any(re.fullmatch(r"W[12]", d) for d in drawn), drawn  # a scoring card
    kinds = {d.split(":")[0] for d in drawn if ":" in d}
    assert {"su", "mb"} <= kinds, drawn  # a sultan card (beside), a master builder (hand)


def test_positions_of_a_game_with_the_draws_read_back_the_same() -> None:
    """``show --format record`` at turns around the Bettler's draw, the Tänzerin's swaps and
    the Weise's choice writes a block that reads back to the same state and legal moves."""
    from referee.engine.legal import legal_actions
    from referee.engine.walk import At, state_at
    from referee.notation.formatter import action as written
    from referee.simulate import simulate_game
    from referee.simulate.roundtrip import read_back, snapshot

    game = simulate_game(3, 1, modules=("charaktere",))
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    for k in sorted({1, n // 4, n // 3, n // 2, (2 * n) // 3, (3 * n) // 4, n - 1}):
        state, state2, text, again, errors = read_back(game, At("turn", k))
        assert not again.errors and errors == [], (k, text)
        assert snapshot(state2) == snapshot(state), k
        moves = sorted(map(written, legal_actions(state)))
        assert sorted(map(written, legal_actions(state2))) == moves, k


def test_the_weise_names_a_type_for_the_final_scoring_too() -> None:
    # "Der Weise – zählt bei jeder Wertung für eine Gebäudeart wie ein halbes Gebäude extra.
    # (Bei jeder Wertung sucht sich der Spieler eine Gebäudeart aus.)" (L1090-1092): the final
    # scoring too ("Die dritte und letzte Wertung findet am Spielende statt", base rules)
    from fractions import Fraction

    text = simulate_text(3, 1, None, None, ("charaktere",))
    assert "\nCem: sage T\nscoring 3:" in text
    (game,) = parse_text(text, "sim.alh")
    rep = check_game(game)
    assert rep.violations == [] and rep.state is not None
    (adj,) = rep.state.ext.scoring_parts(rep.state, 3).for_participant("Cem")
    assert adj.amount == Fraction(1, 2) and adj.type.code == "T"
    # once per scoring: a second type before the same scoring is reported
    twice = text.replace("\nCem: sage T\n", "\nCem: sage T\nCem: sage G\n")
    (game,) = parse_text(twice, "sim.alh")
    assert "ABILITY-LIMIT" in [v.code for v in check_game(game).violations]
