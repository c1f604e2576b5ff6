"""The simulator and the legal-move generator (issue 5).

Property: every simulated game (2-6 players, every bundled profile) passes ``check`` without a
violation or an unverifiable point, reaches all three scorings, and is a fixed point of ``fmt``.
The legal-move generator agrees with the engine's own ``check_action`` on every action it lists,
and the simulator produces varied games (chained exact purchases, overpayments, redesigns,
reserve, Dirk's gifts, reshuffles).
"""

from __future__ import annotations

import atexit
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.catalogue import Currency, MoneyCard
from referee.cli import cli
from referee.engine import check_action, check_game, replay
from referee.engine.actions.purchase import payments
from referee.engine.context import Context
from referee.engine.legal import placement_actions, take_actions
from referee.geometry import placement_problems
from referee.notation import format_game, parse_text
from referee.profiles import load_profile
from referee.record.model import Place, TakeMoney, Turn
from referee.simulate import game_seed, legal_actions, simulate_text

# `python -m referee` runs outside the source tree, so that it runs the installed package (an
# unpacked sdist's referee/ lacks referee.grammar, which setup.cfg maps from grammar/).
# an empty folder of its own: a stray *.py in the shared temp folder (say gettext.py) would
# shadow the standard library for "python -m referee" run there
OUTSIDE = tempfile.mkdtemp(prefix="alhambra-referee-cwd-")
atexit.register(shutil.rmtree, OUTSIDE, ignore_errors=True)  # removed at the end of the run

PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]


def _check(text: str) -> tuple[object, object]:
    games = parse_text(text, "sim.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0], check_game(games[0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10**9),
    profile=st.sampled_from(PROFILES),
)
def test_every_simulated_game_checks_and_is_canonical(
    players: int, seed: int, profile: str
) -> None:
    text = simulate_text(players, seed, load_profile(profile))
    game, rep = _check(text)
    assert rep.violations == [], [v.message() for v in rep.violations]  # type: ignore[attr-defined]
    assert rep.unverifiable == []  # type: ignore[attr-defined]
    assert rep.complete and rep.winners  # type: ignore[attr-defined]
    assert [s.round for s in rep.scorings][-1] == 3  # type: ignore[attr-defined]
    assert format_game(game) == text  # a fixed point of fmt
    assert f'[Rules "{profile}"]' in text
    assert len(rep.players) == players  # type: ignore[attr-defined]


def test_same_seed_same_bytes_other_seed_other_game() -> None:
    a = simulate_text(4, 123)
    assert simulate_text(4, 123) == a
    assert simulate_text(4, 124) != a


def test_simulate_command_writes_checkable_multi_game_file(tmp_path: Path) -> None:
    out = tmp_path / "games.alh"
    runner = CliRunner()
    args = ["simulate", "--players", "3", "--seed", "5", "--games", "3", "-o", str(out)]
    res = runner.invoke(cli, args)
    assert res.exit_code == 0, res.output
    text = out.read_text("utf-8")
    assert text.count("[Event ") == 3
    again = tmp_path / "again.alh"
    res = runner.invoke(cli, [*args[:-1], str(again)])
    assert again.read_bytes() == out.read_bytes()
    games = parse_text(text, str(out))
    assert [g.header("Event") for g in games] == [f"simulated game {i} of run 5" for i in (1, 2, 3)]
    for g in games:
        assert check_game(g).valid
    # game i of a run is the single game with the derived seed
    single = simulate_text(3, game_seed(5, 1), None, "simulated game 2 of run 5")
    assert format_game(games[1]) == single
    res = runner.invoke(cli, ["check", str(out)])
    assert res.exit_code == 0, res.output


def test_simulate_command_stdout_json_and_usage_errors() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "simulate", "--players", "2", "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
        cwd=OUTSIDE,
    )
    assert proc.returncode == 0 and '[Players "Anna, Ben"]' in proc.stdout
    assert "* dirk " in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "simulate", "--format", "json", "--seed", "2"],
        capture_output=True,
        text=True,
        check=False,
        cwd=OUTSIDE,
    )
    assert proc.returncode == 0 and '"turns"' in proc.stdout and '"record"' in proc.stdout
    for bad in (["--players", "7"], ["--players", "1"], ["--rules", "nope"], ["--modules", "x"]):
        proc = subprocess.run(
            [sys.executable, "-m", "referee", "simulate", *bad],
            capture_output=True,
            text=True,
            check=False,
            cwd=OUTSIDE,
        )
        assert proc.returncode == 3, (bad, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_games_are_varied() -> None:
    """Over a few games every kind of move the policy should make shows up."""
    seen: Counter[str] = Counter()
    for n in (2, 3, 4, 5, 6):
        for seed in range(3):
            text = simulate_text(n, seed)
            for line in text.splitlines():
                if re.match(r"\d+\. ", line):
                    buys = line.count(" buy ") + line.startswith("buy")
                    seen["chain"] += line.count("buy ") >= 2
                    seen["buy"] += buys > 0
                    seen["take"] += "take " in line
                    seen["place"] += "place " in line
                    seen["reserve"] += "reserve " in line
                    seen["build"] += "build " in line
                    seen["remove"] += "remove " in line
                    seen["swap"] += "swap " in line
                    seen["dirk"] += " dirk" in line
                    seen["buy-then-redesign"] += bool(
                        re.search(r"buy .*(build|remove|swap) ", line)
                    )
                seen["reshuffle"] += "reshuffle" in line
                seen["scoring2"] += line.startswith("scoring 2")
            seen["overpay"] += _overpaid(text)
    for kind in (
        "chain",
        "buy",
        "take",
        "place",
        "reserve",
        "build",
        "remove",
        "swap",
        "dirk",
        "reshuffle",
        "scoring2",
        "overpay",
        "buy-then-redesign",
    ):
        assert seen[kind] > 0, (kind, seen)
    assert seen["take"] > seen["build"] and seen["buy"] > seen["build"]


def _overpaid(text: str) -> int:
    game = parse_text(text, "x")[0]
    rep = check_game(game)
    assert rep.valid
    n = 0
    for item in game.body:
        if isinstance(item, Turn):
            for a in item.actions:
                if type(a).__name__ == "Buy":
                    paid = sum(c.card.value for c in a.paid)  # type: ignore[union-attr]
                    n += paid > (a.tile.price or 0)  # type: ignore[union-attr]
    return n


# ------------------------------------------------------------------------- legal moves


def _states(text: str, every: int) -> list[object]:
    game = parse_text(text, "sim.alh")[0]
    lines = [item.pos.line for item in game.body if isinstance(item, Turn)]
    out = []
    for line in lines[::every]:
        state, _ = replay(game, until_line=line - 1)
        out.append(state)
    return out


@pytest.mark.parametrize(("n", "seed"), [(2, 11), (3, 12), (5, 13)])
def test_every_listed_action_is_legal_for_the_engine(n: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for state in _states(simulate_text(n, seed), 9):
        actions = legal_actions(state)  # type: ignore[arg-type]
        assert actions, "a player always has a legal action"
        for a in rng.sample(actions, min(25, len(actions))):
            problems = [v for v in check_action(state, a) if v.severity == "error"]  # type: ignore[arg-type]
            assert problems == [], (a, [v.message() for v in problems])
            checked += 1
    assert checked > 50


def test_takes_are_exactly_the_rulebook_ones() -> None:
    """ "eine beliebige Geldkarte ..., oder sogar mehrere Geldkarten, wenn ihre Summe nicht
    größer als 5 ist" (rulebook-base-de-2003.txt, Geld nehmen)."""
    g1, g4, d2, u9 = (
        MoneyCard(Currency.GULDEN, 1),
        MoneyCard(Currency.GULDEN, 4),
        MoneyCard(Currency.DENAR, 2),
        MoneyCard(Currency.DUKATEN, 9),
    )
    state = _states(simulate_text(3, 3), 50)[0]
    p = state.players[0]  # type: ignore[attr-defined]
    state.display = [g1, g4, d2, u9]  # type: ignore[attr-defined]
    takes = {tuple(c.card.code for c in t.cards) for t in take_actions(Context(state), p)}  # type: ignore[arg-type, union-attr]
    assert takes == {("Gu1",), ("Gu4",), ("De2",), ("Du9",), ("Gu1", "Gu4"), ("Gu1", "De2")}
    # copies are not listed twice
    state.display = [g1, g1, u9, u9]  # type: ignore[attr-defined]
    assert len(take_actions(Context(state), p)) == 3  # type: ignore[arg-type]


def test_payments_pay_at_least_the_price_without_superfluous_cards() -> None:
    """ "Dazu zahlt man mindestens den aufgedruckten Preis in der Währung, die der Bauhof ...
    anzeigt" (rulebook-base-de-2003.txt, Kaufen). The one payment search of the engine lists
    payments without a superfluous card (one that could be left out and still pay)."""
    hand = [
        MoneyCard(Currency.DIRHAM, 2),
        MoneyCard(Currency.DIRHAM, 5),
        MoneyCard(Currency.DIRHAM, 7),
        MoneyCard(Currency.GULDEN, 9),
    ]
    di = frozenset({Currency.DIRHAM})

    def values(price: int, exact: bool = False) -> set[tuple[int, ...]]:
        return {tuple(sorted(c.value for c in p)) for p in payments(hand, di, price, exact)}

    assert values(7) == {(7,), (2, 5)}
    assert values(6) == {(7,), (2, 5)}  # never 7+2 (the 2 is superfluous)
    assert values(6, exact=True) == set()
    assert values(15) == set()
    assert values(14) == {(2, 5, 7)}
    assert values(9, exact=True) == {(2, 7)}
    assert values(9) == {(2, 7), (5, 7)}  # exact payments first
    assert [sum(c.value for c in p) for p in payments(hand, di, 9)] == [9, 12]


def test_placements_are_every_legal_cell_and_the_reserve() -> None:
    text = simulate_text(3, 21)
    game = parse_text(text, "sim.alh")[0]
    found = 0
    for item in game.body:
        if not isinstance(item, Turn) or not any(isinstance(a, Place) for a in item.actions):
            continue
        k = next(i for i, a in enumerate(item.actions) if isinstance(a, Place))
        state, _ = replay(game, until_line=item.pos.line - 1)
        from referee.engine import apply_action

        for a in item.actions[:k]:
            apply_action(state, a)
        options = placement_actions(state)
        places = [o for o in options if isinstance(o, Place)]
        p = state.players[state.turn.player]  # type: ignore[union-attr]
        for o in places:
            assert placement_problems(p.alhambra, o.at, o.tile.kind) == []  # type: ignore[union-attr]
        assert any(type(o).__name__ == "Reserve" for o in options)
        assert item.actions[k] in options
        found += 1
        if found > 10:
            break
    assert found > 3


def test_no_take_over_five_is_listed() -> None:
    for state in _states(simulate_text(4, 31), 7):
        for a in legal_actions(state):  # type: ignore[arg-type]
            if isinstance(a, TakeMoney) and len(a.cards) > 1:
                assert sum(c.card.value for c in a.cards) <= 5  # type: ignore[union-attr]


def test_placements_and_builds_are_complete() -> None:
    """Every empty cell next to the Alhambra without a building-rule problem is offered
    (rulebook-base-de-2003.txt, Alhambra-Bauregeln; Alhambra umbauen)."""
    from referee.engine.legal import build_actions, remove_actions
    from referee.geometry import removal_problems
    from referee.record.model import BuildFromReserve, Coord, RemoveToReserve

    checked = 0
    for state in _states(simulate_text(3, 41), 11):
        for p in state.players:  # type: ignore[attr-defined]
            cells = p.alhambra.cells
            around = {
                Coord(c.x + dx, c.y + dy)
                for c in cells
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            } - set(cells)
            builds = build_actions(Context(state), p)  # type: ignore[arg-type]
            for tile in {t for t in p.reserve if t is not None}:
                want = {c for c in around if not placement_problems(p.alhambra, c, tile)}
                got = {
                    a.at for a in builds if isinstance(a, BuildFromReserve) and a.tile.kind == tile
                }
                assert got == want
                checked += 1
            want_rm = {c for c in cells if c != Coord(0, 0) and not removal_problems(p.alhambra, c)}
            got_rm = {
                a.at
                for a in remove_actions(Context(state), p)  # type: ignore[arg-type]
                if isinstance(a, RemoveToReserve)
            }
            assert got_rm == want_rm
    assert checked > 0
