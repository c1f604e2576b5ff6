"""Issue 26, "Declared verbs": a module verb's check is pure and runs only while checking, its
``action`` only changes the state. So a trusted replay (``walk(..., check=False)``: no check
runs) ends in the same state as the checked run -- also when the record breaks rules (the
action applies what the record says as far as it can, never crashes).

The records: each module's example game, and lines that break the module's verb rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.position_text import position_text
from referee.engine.walk import walk
from referee.notation import parse_text

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("angreifer", "bauland", "baumeister", "bonuskarten")


def _end(text: str, check: bool) -> tuple[str, dict[str, object], int]:
    games = parse_text(text, "replay.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    steps = list(walk(games[0], snapshots=False, check=check))
    state = steps[-1].state
    return position_text(state), state.ext.views(state, "en"), len(state.found)


def _same(text: str) -> int:
    checked_text, checked_views, found = _end(text, True)
    trusted_text, trusted_views, silent = _end(text, False)
    assert trusted_text == checked_text
    assert trusted_views == checked_views
    assert silent == 0  # nothing is reported in a trusted replay
    return found


@pytest.mark.parametrize("name", MODULES)
def test_trusted_replay_of_the_example_ends_in_the_same_state(name: str) -> None:
    text = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    assert _same(text) == 0


def _broken(name: str, old: str, new: str) -> str:
    text = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new, 1)


BROKEN = {
    # a scout not open, one taken twice, a token that is no scout
    "angreifer": [
        ("place A6ne@1,0, scout sc:A", "place A6ne@1,0, scout sc:Q sc:A sc:A sc:P"),
        ("place S4@3,0, scout sc:S", "place S4@3,0, scout sc:T sc:S"),
    ],
    # a building chosen late (after the plot was placed or reserved), not in the column, none
    "bauland": [
        ("plot A, place bl:2_6x_A@2,0", "place bl:2_6x@2,0, plot A"),
        ("plot T, swap G11@2,1 for S9, reserve bl:3_7w_T", "reserve bl:3_7w, plot T"),
        ("plot C, place T9nw@-2,2", "plot Q, plot P, plot C bl:1_2x, place T9nw@-2,2"),
    ],
    # a master builder before placing, two in a turn, one not held, a token that is none
    "baumeister": [
        ("place A6ne@1,0, master mb:Du,", "master mb:Di, place A6ne@1,0, master mb:Du mb:Gu,"),
        ("master mb:De, remove A10@0,-1", "master mb:Xy, master mb:De, remove A10@0,-1"),
    ],
    # a card not built (stays in the hand), one revealed twice, one of another player's, no card
    "bonuskarten": [
        ("build S9@1,0, bonus S9", "build S9@1,0, bonus A9, bonus S9, bonus S9"),
        ("build S9@1,0, bonus S9", "build S9@1,0, bonus T12, bonus S9, bonus X1"),
        ("bonus P8\n", "bonus P8\nAnna: bonus G11\nBen: bonus G11 T11\n"),
    ],
}


@pytest.mark.parametrize(
    ("name", "old", "new"), [(n, o, w) for n, cases in BROKEN.items() for o, w in cases]
)
def test_trusted_replay_of_a_broken_record_ends_in_the_same_state(
    name: str, old: str, new: str
) -> None:
    assert _same(_broken(name, old, new)) > 0
