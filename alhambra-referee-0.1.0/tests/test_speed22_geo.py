"""The geometry modules when silent (issue 34, twentieth step, helper geo).

Die Künste der Mauren, Die Tore der Stadt, Die Mauern and Die Ausbauten enabled in a base game
(the ``[Modules]`` header added, as the silent corpora's "header" games are) leave the turn's
steps and the one-pass placement alone where they have nothing to do, and give the verdicts
they gave before:

* Stadttore: a player holding no gate card keeps the one-pass placement
  (``leaves_plain_placement``: the refinement returns what it is given then); the turn's end
  is idle while every tile of the mover's Alhambra is reachable on foot;
* Mauern: the turn's end is idle while no piece lies on an edge of the mover's Alhambra;
* Ausbauten: the turn's end is idle while no extension is due, an answer kept as state;
* Mauren (which acts in such a game: its culture tiles are taken by themselves): a turn's end
  brings up to date only the players whose Alhambra or reserve changed since, with the same
  results as bringing everybody's up to date at every turn's end;
* every idle or kept yes of the four is a step that changes nothing (the checks of
  ``tests/test_speed10_dispatch.py`` and ``tests/test_speed13_dispatch.py``), and each module
  still acts in its example.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_text

from referee.engine import check_game
from referee.engine.turns import Moment
from referee.modules.ausbauten import Ausbauten
from referee.modules.mauern import Mauern
from referee.modules.mauren import Mauren
from referee.modules.stadttore import Stadttore
from referee.notation import parse_text
from tests.test_speed10_dispatch import _checked_idle
from tests.test_speed10_dispatch import _texts as _idle_texts
from tests.test_speed13_dispatch import _checked
from tests.test_speed13_dispatch import _texts as _kept_texts

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FOUR = ("mauren", "stadttore", "mauern", "ausbauten")


def _silent(name: str, players: int = 3, seed: int = 22) -> str:
    """A simulated base game with the module's header (the silent corpora's "header" game)."""
    base = simulated_text(players, seed, None, "base game", ())  # (once a run)
    return base.replace("[Result ", f'[Modules "{name}"]\n[Result ', 1)


def _check(text: str) -> list[Any]:
    out = []
    for game in parse_text(text):
        report = check_game(game)
        assert report.state is not None
        out.append((repr(report), repr(report.state.ext.views(report.state))))
    return out


def _steps(monkeypatch: pytest.MonkeyPatch, cls: type) -> Counter[Moment]:
    """Count the moments at which ``cls``'s step runs."""
    ran: Counter[Moment] = Counter()
    step = cls.at_moment  # type: ignore[attr-defined]

    def counted(self: Any, ctx: Any, moment: Moment) -> None:
        ran[moment] += 1
        step(self, ctx, moment)

    monkeypatch.setattr(cls, "at_moment", counted)
    return ran


@pytest.mark.parametrize("name", FOUR)
def test_a_silent_game_stays_valid(name: str) -> None:
    for game in parse_text(_silent(name)):
        report = check_game(game)
        assert report.valid and not report.violations and not report.unverifiable


def _answers(monkeypatch: pytest.MonkeyPatch) -> Counter[bool]:
    """Count Stadttore's answers to ``leaves_plain_placement``."""
    answers: Counter[bool] = Counter()
    leaves = Stadttore.leaves_plain_placement

    def counted(self: Any, state: Any, player: Any, at: Any, tile: Any) -> bool:
        answer = leaves(self, state, player, at, tile)
        answers[answer] += 1
        return answer

    monkeypatch.setattr(Stadttore, "leaves_plain_placement", counted)
    return answers


def test_stadttore_without_a_card_keeps_the_one_pass_placement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _answers(monkeypatch)
    ran = _steps(monkeypatch, Stadttore)
    _check(_silent("stadttore"))
    # every plain placement kept its one-pass path (nobody holds a card), and the turn's end
    # never ran (every tile reachable); the mover's tiles at each turn's start are the
    # engine's (Module.reads_turn_start, issue 34's twenty-second step), not a module step
    assert answers[True] > 10 and not answers[False]
    assert ran[Moment.TURN_END] == 0


def test_stadttore_with_a_card_is_asked_and_acts_in_its_example(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _answers(monkeypatch)
    text = (_EXAMPLES / "module-stadttore.alh").read_text(encoding="utf-8")
    for game in parse_text(text):
        report = check_game(game)
        assert report.state is not None
        assert any(Stadttore().gates(p) for p in report.state.players)  # a gate was set
    assert answers[True] and answers[False]  # no card: the one-pass path; a card: asked
    # the gate left out: the tile behind the double wall waits, and the turn's end says so
    cut = text.replace("build T9ne@-1,-3, gate @-1,-3 e", "build T9ne@-1,-3")
    assert cut != text
    codes = [f.code for game in parse_text(cut) for f in check_game(game).violations]
    assert "GATE-MISSING" in codes


@pytest.mark.parametrize("cls", [Mauern, Ausbauten], ids=lambda c: c.name)
def test_the_turns_end_step_never_runs_in_a_silent_game(
    cls: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = _steps(monkeypatch, cls)
    _check(_silent(cls.name))  # type: ignore[attr-defined]
    assert ran[Moment.TURN_END] == 0


def test_ausbauten_still_checks_its_extensions_at_the_turns_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran = _steps(monkeypatch, Ausbauten)
    text = (_EXAMPLES / "module-ausbauten.alh").read_text(encoding="utf-8")
    _check(text)
    assert ran[Moment.TURN_END]


def _every_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mauren as before: every player's tiles brought up to date at every turn's end."""
    step = Mauren.at_moment

    def forgetting(self: Any, ctx: Any, moment: Moment) -> None:
        self.data(ctx.state).synced.clear()
        step(self, ctx, moment)

    monkeypatch.setattr(Mauren, "at_moment", forgetting)


def test_mauren_brings_up_to_date_only_whom_a_turn_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    synced: Counter[str] = Counter()
    sync = Mauren._sync

    def counted(self: Any, state: Any, player: Any) -> None:
        synced[player.name] += 1
        sync(self, state, player)

    monkeypatch.setattr(Mauren, "_sync", counted)
    text = _silent("mauren", players=4)
    shortcut = _check(text)
    turns = sum(1 for line in text.splitlines() if line[:1].isdigit())
    # (before: every player at every turn's end)
    assert 0 < sum(synced.values()) < turns * 4 // 2
    held = shortcut[0][1]
    assert "culture" in held  # the module acts: culture tiles were taken
    with monkeypatch.context() as m:
        _every_turn(m)
        assert _check(text) == shortcut


_MAUREN_GAMES = {  # (made when a test asks, once a run: not in every worker's collection)
    "sim2": (2, 2202, ("mauren",)),
    "sim3": (3, 2203, ("mauren",)),
    "sim5": (5, 2205, ("mauren",)),
    "mixed": (3, 2207, ("mauren", "wesir", "baustellen", "mauern")),
}


@pytest.mark.parametrize("game", ["example", "sim2", "sim3", "sim5", "mixed"])
def test_mauren_gives_what_it_gave_with_everybody_brought_up_to_date(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if game == "example":
        text = (_EXAMPLES / "module-mauren.alh").read_text(encoding="utf-8")
    else:
        players, seed, modules = _MAUREN_GAMES[game]
        text = simulated_text(players, seed, None, None, modules)
    shortcut = _check(text)
    _every_turn(monkeypatch)
    assert _check(text) == shortcut


@pytest.mark.parametrize("name", ["stadttore", "mauern", "ausbauten"])
def test_an_idle_answer_means_the_step_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (Mauren has no idle answer: its step leaves out the players it need not look at)
    texts = [*_idle_texts(name), _silent(name, 2, 23)]  # (made before the watch: it checks
    # the games, not their simulation)
    yes = _checked_idle(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes[(name, str(Moment.TURN_END))], yes


def test_a_kept_yes_of_ausbauten_means_the_step_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [*_kept_texts("ausbauten", 2222), _silent("ausbauten", 2, 24)]  # (made before
    # the watch: it checks the games, not their simulation)
    yes = _checked(monkeypatch)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes[("ausbauten", str(Moment.TURN_END))]
