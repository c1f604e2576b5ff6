"""Die Angreifer counts the open sides of an attack without listing them (issue 34): the count
is the number of pieces ``queries.open_sides`` lists, for every side and both readings of
which pieces take part, over the final Alhambras of every bundled example (module pieces,
walls on edges and overlays included) and of simulated Angreifer games."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.catalogue import SIDES, Side
from referee.engine import check_game
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN
from referee.modules.angreifer import DIRECTIONS, _building_or_start, open_sides_text
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


def _fresh_text(alh: object) -> str:
    return " ".join(f"{d}={q.open_side_count(alh, Side(d))}" for d in DIRECTIONS)


def test_the_kept_open_sides_of_the_view_are_counted_afresh_after_every_change() -> None:
    """The view's open sides kept per Alhambra state (``open_sides_text``, issue 34 sixth
    step) equal a fresh count after each piece placed or removed, on the Alhambra and on its
    copies, over simulated games replayed move by move."""
    profile = load_profile("queen-bigbox-2019")
    checked = 0
    for seed in range(3):
        text = simulate_text(3 + seed, 5300 + seed, profile, f"kept {seed}", ("angreifer",))
        for alh in _alhambras(text, f"kept-{seed}.alh"):
            cells = [(at, piece) for at, piece in alh.items() if at != ORIGIN]
            for at, _piece in reversed(cells):  # take it apart, asking at every step
                assert open_sides_text(alh) == _fresh_text(alh)
                copied = alh.copy()
                alh.remove(at)
                assert open_sides_text(alh) == _fresh_text(alh)
                assert open_sides_text(copied) == _fresh_text(copied)
                checked += 1
            for at, piece in cells:  # and build it again
                alh.place(at, piece)
                assert open_sides_text(alh) == _fresh_text(alh)
    assert checked >= 20
