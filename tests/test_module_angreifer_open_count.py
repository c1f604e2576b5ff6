"""Die Angreifer counts the open sides of an attack without listing them (issue 34): the count
is the number of pieces ``queries.open_sides`` lists, for every side and both readings of
which pieces take part, over the final Alhambras of every bundled example (module pieces,
walls on edges and overlays included) and of simulated Angreifer games."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.catalogue import SIDES
from referee.engine import check_game
from referee.geometry import queries as q
from referee.modules.angreifer import _building_or_start
from referee.notation import parse_text
from referee.profiles import load_profile
from referee.simulate.simulator import simulate_text

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.alh"))


def _alhambras(text: str, name: str) -> list:
    out = []
    for game in parse_text(text, name):
        report = check_game(game)
        if report.state is not None:
            out += [p.alhambra for p in report.state.players if p.alhambra is not None]
    return out


def _same_counts(alhambras: list) -> int:
    checked = 0
    for alh in alhambras:
        for side in SIDES:
            assert q.open_side_count(alh, side, None) == len(q.open_sides(alh, side))
            want = len(q.open_sides(alh, side, _building_or_start))
            assert q.open_side_count(alh, side, _building_or_start) == want
            checked += 1
    return checked


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_open_count_is_the_listed_open_sides_in_every_example(path: Path) -> None:
    assert _same_counts(_alhambras(path.read_text(encoding="utf-8"), path.name))


def test_open_count_is_the_listed_open_sides_in_simulated_attack_games() -> None:
    profile = load_profile("queen-bigbox-2019")
    total = 0
    for seed in range(4):
        text = simulate_text(3 + seed, 5200 + seed, profile, f"open {seed}", ("angreifer",))
        total += _same_counts(_alhambras(text, f"open-{seed}.alh"))
    assert total >= 4 * 3 * 4
