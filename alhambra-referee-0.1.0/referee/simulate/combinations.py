"""Simulated games of random module combinations, each held to what a game must be.

For issue 32 ("Simulation of module combinations"): a set of modules (any size), a rule profile,
2 to 6 players and a seed give one simulated game; :func:`problems` plays it and returns what is
wrong with it, as short lines (empty: nothing):

* the simulator stopped (an internal error: the legal-move generator offered something the
  engine refuses, or a module's hook failed);
* the record does not read back without notation errors;
* the record is not a ``fmt`` fixed point (formatting its reading gives other text);
* ``check`` finds a rule violation in it.

:func:`random_case` draws a case; ``tests/test_simulate_combinations.py`` runs a few in the
suite (seconds), ``bench/combinations.py`` thousands (minutes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

PROFILES = ("queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga")


@dataclass(frozen=True)
class Case:
    modules: tuple[str, ...]
    profile: str
    players: int
    seed: int
    # ``raw``: ``seed`` is the game's own seed (the regression cases of the suite, found before
    # the harness played the command's game); otherwise the game is the first of a ``simulate``
    # run with ``seed``, the one ``command`` plays
    raw: bool = False

    def command(self) -> str:
        """The command line that plays this game."""
        mods = f" --modules {','.join(self.modules)}" if self.modules else ""
        if self.raw:
            return (
                "python -c 'from referee.simulate.combinations import Case, problems; "
                f"print(problems(Case({self.modules!r}, {self.profile!r}, {self.players}, "
                f"{self.seed}, raw=True)))'"
            )
        return (
            f"alhambra-referee simulate --players {self.players} --seed {self.seed} "
            f"--rules {self.profile}{mods}"
        )


def module_names() -> tuple[str, ...]:
    """Every bundled module's name, sorted."""
    from referee.engine.extensions import MODULES, load_bundled_modules

    load_bundled_modules()
    return tuple(sorted({cls.name for cls in MODULES.values()}))


def random_case(rng: random.Random, names: tuple[str, ...] | None = None) -> Case:
    """A module set of any size (small sets more often, all of them now and then), a profile,
    2 to 6 players and a seed."""
    names = names if names is not None else module_names()
    size = rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, 7, 11, len(names)))
    modules = tuple(sorted(rng.sample(names, min(size, len(names)))))
    return Case(modules, rng.choice(PROFILES), rng.randint(2, 6), rng.randrange(1_000_000))


def problems(case: Case) -> list[str]:
    """What is wrong with the game of ``case`` (empty: it plays, reads, formats and checks)."""
    from referee.engine import check_game
    from referee.notation import format_games, parse_text
    from referee.profiles import load_profile
    from referee.simulate import game_seed, simulate_text

    # exactly the game that ``case.command()`` plays: the first game of a run with the seed
    event = "combo" if case.raw else f"simulated game 1 of run {case.seed}"
    try:
        text = simulate_text(
            case.players,
            case.seed if case.raw else game_seed(case.seed, 0),
            load_profile(case.profile),
            event,
            case.modules,
        )
    except Exception as exc:  # the simulator's own failure: what the test is for
        return [f"internal error: {type(exc).__name__}: {str(exc)[:400]}"]
    games = parse_text(text, "<simulated>")
    errors = [e for g in games for e in g.errors]
    if errors:
        return [f"notation error: {errors[0].message}"]
    out: list[str] = []
    if format_games(games) != text:
        out.append("not a fmt fixed point")
    report = check_game(games[0])
    bad = [v for v in report.violations if v.severity == "error"]
    if bad:
        out.append(f"violation {bad[0].code}: {bad[0].message()[:300]}")
    if not report.complete:
        out.append("the game does not reach its end")
    return out
