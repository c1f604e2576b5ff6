"""Complete legal games with the modules of "Die Gunst des Wesirs", and the bundled examples.

The simulator (:mod:`referee.simulate.simulator`) plays the modules through the engine's
legal-move generator (:mod:`referee.engine.legal`): for each module and all four together, games
of 2, 3, 4 and 6 players under every rule profile check with no violation, are fixed points of
``fmt``, use their module (a vizier used, an exchange card paid, a square taken, a bonus card
revealed), and the same seed gives the same bytes.

``examples/module-*.alh`` were written by the former scripted generator; they are goldens now:
the checker must accept them as they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import check_game
from referee.notation import format_game, parse_text
from referee.profiles import load_profile
from referee.record.model import Buy, ComponentRef, Game, ModuleAction, Place, TakeMoney, Turn
from referee.simulate import simulate_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ALL = ("wesir", "wechselstuben", "bonuskarten", "plaetze")
MODULE_SETS = [(m,) for m in ALL] + [ALL]
PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]
RUN = 3  # games of a run: at least one of them uses each module

EXAMPLE_GAMES = {
    "module-wesir.alh": (3, ("wesir",)),
    "module-wechselstuben.alh": (4, ("wechselstuben",)),
    "module-bonuskarten.alh": (3, ("bonuskarten",)),
    "module-plaetze.alh": (4, ("plaetze",)),
    "module-all-four.alh": (5, ALL),
}


def uses(game: Game) -> dict[str, bool]:
    """Whether a record uses each module: a vizier line, a purchase paid with an exchange card
    (and one taken), a bonus card revealed, a square taken and built."""
    lines = [item for item in game.body if isinstance(item, Turn)]
    actions = [a for t in lines for a in t.actions]
    verbs = {a.verb.lower() for a in actions if isinstance(a, ModuleAction)}

    def tokens(refs: tuple[object, ...]) -> set[str]:
        return {r.kind for r in refs if isinstance(r, ComponentRef)}

    return {
        "wesir": any(
            t.number is None
            and isinstance(t.actions[0], ModuleAction)
            and t.actions[0].verb == "vizier"
            for t in lines
        ),
        "wechselstuben": any(isinstance(a, Buy) and "ex" in tokens(a.paid) for a in actions)
        and any(isinstance(a, TakeMoney) and "ex" in tokens(a.cards) for a in actions),
        "bonuskarten": "bonus" in verbs,
        "plaetze": "square" in verbs
        and any(isinstance(a, Place) and isinstance(a.tile, ComponentRef) for a in actions),
    }


def _checked(text: str, players: int, modules: tuple[str, ...], profile: str) -> Game:
    games = parse_text(text, "sim.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    game = games[0]
    assert format_game(game) == text  # a fixed point of fmt
    assert [m.strip() for m in (game.header("Modules") or "").split(",")] == list(modules)
    assert game.header("Rules") == profile and len(game.players) == players
    rep = check_game(game)
    assert rep.violations == [], [v.message() for v in rep.violations][:5]
    assert rep.unverifiable == [], [u.message() for u in rep.unverifiable][:5]
    assert rep.valid and rep.complete and [s.round for s in rep.scorings][-1] == 3
    return game


@pytest.mark.parametrize("modules", MODULE_SETS, ids="+".join)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_module_games_check_use_their_modules_and_are_canonical(
    modules: tuple[str, ...], players: int
) -> None:
    """The profile turns with the player count, so each module set meets every profile."""
    profile = PROFILES[[2, 3, 4, 6].index(players)]
    used = dict.fromkeys(modules, False)
    for k in range(RUN):
        seed = 1000 * players + 10 * len(modules) + k
        text = simulate_text(players, seed, load_profile(profile), None, modules)
        game = _checked(text, players, modules, profile)
        for m, yes in uses(game).items():
            if m in used:
                used[m] |= yes
        if all(used.values()):
            break
    assert all(used.values()), used


@pytest.mark.parametrize("profile", PROFILES)
def test_all_four_modules_under_every_profile_with_dirk(profile: str) -> None:
    text = simulate_text(2, 77, load_profile(profile), None, ALL)
    game = _checked(text, 2, ALL, profile)
    assert "* dirk " in text
    assert any(uses(game).values())


def test_exchange_cards_come_back_after_a_reshuffle() -> None:
    """ "der Ablagestapel – inklusive abgeworfener Wechselstuben – gemischt": a played exchange
    card goes into the new deck and turns up again (seed chosen so that it does)."""
    text = simulate_text(3, 4, None, None, ("wechselstuben",))
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if "reshuffle" in line)
    assert any(line.startswith("* ") and " ex:" in line for line in lines[k:])
    _checked(text, 3, ("wechselstuben",), "queen-2003")


def test_same_seed_same_bytes() -> None:
    for modules in MODULE_SETS[:2]:
        a = simulate_text(3, 5, None, None, modules)
        assert simulate_text(3, 5, None, None, modules) == a
        assert simulate_text(3, 6, None, None, modules) != a


# ----------------------------------------------------------------------------- the examples


@pytest.mark.parametrize("name", sorted(EXAMPLE_GAMES))
def test_module_examples_are_legal_complete_and_use_their_modules(name: str) -> None:
    path = EXAMPLES / name
    games = parse_text(path.read_text("utf-8"), str(path))
    assert len(games) == 1 and not games[0].errors
    game = games[0]
    rep = check_game(game)
    assert rep.valid and rep.violations == [], [v.message() for v in rep.violations][:5]
    assert rep.complete and rep.winners
    assert rep.unverifiable == []
    n, modules = EXAMPLE_GAMES[name]
    assert len(rep.players) == n
    assert [m.strip() for m in (game.header("Modules") or "").split(",")] == list(modules)
    assert all(uses(game)[m] for m in modules)


def test_a_module_example_without_its_module_is_reported() -> None:
    text = (EXAMPLES / "module-all-four.alh").read_text("utf-8")
    text = text.replace('[Modules "wesir, wechselstuben, bonuskarten, plaetze"]', "")
    rep = check_game(parse_text(text, "off.alh")[0])
    assert "MODULE-NOT-ENABLED" in {v.code for v in rep.violations}


@pytest.mark.parametrize("name", sorted(EXAMPLE_GAMES))
def test_module_examples_are_in_canonical_form(name: str) -> None:
    text = (EXAMPLES / name).read_text("utf-8")
    game = parse_text(text, name)[0]
    assert text.endswith(format_game(game).split("\n[Event", 1)[1])
