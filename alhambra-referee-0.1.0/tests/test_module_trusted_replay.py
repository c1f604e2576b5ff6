"""A module verb's check is apart from its change (issue 26, "Declared verbs"): a trusted replay
(``walk(..., check=False)``: no check runs, only the changes) ends in the same state as the
checking one. Run over the example game of each module whose verbs were split into
``check_verb`` and ``action``, and over simulated games of each (seeded: the same games every
run), also a record with mistakes in it (the change must not depend on the check)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import SETUP, run

from referee.engine.state import GameState
from referee.engine.walk import walk
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Game
from referee.simulate.simulator import SimSettings, _Game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SPLIT = ("plaetze", "wechselscheine", "obstgaerten")


def end_state(game: Game, check: bool) -> GameState:
    *_, last = walk(game, snapshots=False, check=check)
    return last.state


def picture(state: GameState) -> dict[str, Any]:
    """What a game's end looks like: every player's money, Alhambra, reserve and score, and
    every module's view."""
    return {
        "players": [
            (
                p.name,
                sorted(str(c) for c in p.hand.elements()),
                sorted((str(at), str(x)) for at, x in p.alhambra.items()),
                [str(x) for x in p.reserve],
                p.score,
            )
            for p in state.players
        ],
        "market": [str(x) for x in state.market],
        "views": state.ext.views(state),
    }


@pytest.mark.parametrize("name", SPLIT)
def test_the_example_game_replays_trusted_to_the_same_end(name: str) -> None:
    path = EXAMPLES / f"module-{name}.alh"
    game = parse_text(path.read_text(encoding="utf-8"), str(path))[0]
    assert picture(end_state(game, False)) == picture(end_state(game, True))


@pytest.mark.parametrize("name", SPLIT)
@pytest.mark.parametrize("seed", [11, 12])
def test_simulated_games_replay_trusted_to_the_same_end(name: str, seed: int) -> None:
    game = _Game(SimSettings(3, DEFAULT_PROFILE, (name,)), seed, "t").play()
    assert picture(end_state(game, False)) == picture(end_state(game, True))


MISTAKES = {
    # a square of a stack whose face is another, a fourth square, a bad token
    "plaetze": "* squares sq:Tne sq:Pn\n1. Ben: square sq:Tn, reserve sq:Tn\n"
    "2. Cem: square sq:P, reserve sq:Pn\n3. Anna: square xx:1\n",
    # an amount that is not the overpayment, a second credit on a full certificate, one with no
    # purchase in its line, a bad token
    "wechselscheine": "1. Ben: buy Di A9 pay Di9, certificate ws:De5, reserve A9\n"
    "* display Du5, market Di:A6ne\n"
    "2. Cem: buy Di A6 pay Di8, certificate ws:De1, certificate ws:Gu2, reserve A6\n"
    "* market Di:A5\n3. Anna: take Du5, certificate De5\n",
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_record_with_mistakes_replays_trusted_to_the_same_end(name: str) -> None:
    rep = run(MISTAKES[name], name)
    assert rep.violations  # the record does break rules
    text = SETUP.format(players="Anna, Ben, Cem", modules=name) + MISTAKES[name]
    game = parse_text(text, "t.alh")[0]
    assert picture(end_state(game, False)) == picture(end_state(game, True))


def test_orchard_fruits_laid_wrongly_replay_trusted_to_the_same_end() -> None:
    # a fruit on a field of another kind, one on no field, one not held, one face down while a
    # field is free: each is reported, and the trusted replay makes the same changes
    path = EXAMPLES / "module-obstgaerten.alh"
    text = path.read_text(encoding="utf-8")
    for old, new in (
        ("fruit fr:2 17", "fruit fr:2 16"),
        ("fruit fr:3 18", "fruit fr:3 40"),
        ("fruit fr:1 2", "fruit fr:5 2"),
        ("fruit fr:1 8", "fruit fr:1 down"),
    ):
        text = text.replace(old, new, 1)
    game = parse_text(text, "t.alh")[0]
    checked = end_state(game, True)
    assert {v.code for v in checked.found} >= {"FRUIT-FIELD", "FRUIT-NOT-HELD", "FRUIT-FACEDOWN"}
    assert picture(end_state(game, False)) == picture(checked)
