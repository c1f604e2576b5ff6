"""Der Sultan keeps its idle answer at a turn's start (issue 34, thirteenth step:
``Module.kept_idle``, ``SultanScratch.idle_start``): set after its turn-start step and after
the refill's close when nothing is left to do there, cleared by a draw for the market, a
purchase of an open card and a card laid open. Every kept yes is a yes of ``idle_at`` and a
step that changes nothing (on a copy), and the findings and views are those with every kept
answer ignored (``Extensions.at`` asked at every moment), alone and beside the other keepers
and the modules that change the market or buy in other ways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_text

from referee.engine import check_game
from referee.engine.extensions import Extensions
from referee.engine.turns import Moment
from referee.modules.sultan import Sultan
from referee.notation import parse_text
from referee.simulate.simulator import game_seed
from tests.purchase_onepass_support import chosen
from tests.test_speed13_dispatch import _checked, _outcome

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "module-sultan.alh"
_WITH = ("obstgaerten", "bauland", "baumeister", "wesir", "handwerker", "wechselgeld", "bazare")


# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` that these do not (coverage, one context a text, on main at 350ea36:
# bench/README.md, issue 34, eighteenth step, one-pass tests).
KEPT_YES = {
    "alone": (0, 1, 4, 6, 9, 12),
    "mixed": (1, 4, 6, 9, 11, 12),
}
KEPT_FINDINGS = {
    "alone": (1, 4, 6, 9, 10, 12),
    "mixed": (1, 4, 6, 9, 11, 12),
}


def _texts(seed: int, modules: tuple[str, ...] = ("sultan",)) -> list[str]:
    text = _EXAMPLE.read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(3, len(body) // 10)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[1::step]]
    # simulate_many(4, seed, 2, modules=modules)'s two games, simulated once a run (the two
    # tests below share the games of a seed)
    for i in range(2):
        event = f"simulated game {i + 1} of run {seed}"
        out.append(simulated_text(4, game_seed(seed, i), None, event, modules))
    return out


def test_sultan_keeps_its_turn_start_answer_only() -> None:
    assert Sultan.kept_idle == frozenset({Moment.TURN_START})
    ext = Extensions(["obstgaerten", "sultan"])
    assert set(ext.kept_start or ()) == {"obstgaerten", "sultan"} and ext.ask_start == ()


@pytest.mark.parametrize("modules", [("sultan",), ("sultan", *_WITH)], ids=["alone", "mixed"])
def test_a_kept_yes_is_a_yes_of_idle_at_and_changes_nothing(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    yes = _checked(monkeypatch)
    texts = _texts(1530 + len(modules), modules)
    texts = chosen(texts, KEPT_YES["mixed" if len(modules) > 1 else "alone"])
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes[("sultan", str(Moment.TURN_START))] > 20, yes


@pytest.mark.parametrize("modules", [("sultan",), ("sultan", *_WITH)], ids=["alone", "mixed"])
def test_the_findings_are_those_without_kept_answers(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(1530 + len(modules), modules)  # the games of the test above
    texts = chosen(texts, KEPT_FINDINGS["mixed" if len(modules) > 1 else "alone"])
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast


def test_a_wrong_kept_yes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sultan keeping a yes through a purchase of an open card (its just_bought list is read
    # at the next turn's start): the check above must catch it
    take = Sultan.take_side_offer

    def kept_through(self: Any, state: Any, piece: object) -> None:
        take(self, state, piece)
        state.modules[self.name].idle_start = True

    monkeypatch.setattr(Sultan, "take_side_offer", kept_through)
    _checked(monkeypatch)
    with pytest.raises(AssertionError):
        for text in _texts(1551):
            for game in parse_text(text):
                check_game(game)
