"""Positions of Die Baustellen, Die Diebe, Die Schätze and Die Wechselscheine: a moment of the
module's example game written as a ``position`` block (``show --format record``) and read back
gives the same table, the same module views and the same ``score`` breakdown."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import parse_text
from referee.notation.formatter import format_game
from referee.scoring.position import score_position
from referee.scoring.state import score_state
from tests.test_position_modules import _breakdown, _game, _round_trip
from tests.test_position_modules import _views as _wave_c_views

MODULES = ("baustellen", "diebe", "schaetze", "wechselscheine")


def _views(state: Any) -> str:
    """The module views without the history a position does not state: the treasures given
    (to whom and when; the treasures kept are stated), the thieves played (out of the game;
    the thieves held are stated)."""
    views = json.loads(_wave_c_views(state))
    diebe = views.get("diebe", {})
    diebe.get("table", {}).pop("played", None)
    for player in diebe.get("players", {}).values():
        player.pop("played", None)
    for player in views.get("schaetze", {}).get("players", {}).values():
        player.pop("given", None)
    return json.dumps(views, sort_keys=True)


MOMENTS = ("early", "third", "middle", "late", "scoring-1", "scoring-2")


def _at(name: str, moment: str) -> At:
    """Turn 1, a third, half, the last turn but one, after scoring 1 and after scoring 2."""
    if moment.startswith("scoring-"):
        return At("scoring", int(moment[-1]))
    last, _ = state_at(_game(name), At("end"))
    n = last.turn_no
    turn = {"early": 1, "third": n // 3, "middle": n // 2, "late": n - 1}[moment]
    return At("turn", max(1, turn))


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("name", MODULES)
def test_a_moment_of_the_module_round_trips(name: str, moment: str) -> None:
    game = _game(name)
    at = _at(name, moment)
    state, state2, text, again = _round_trip(game, at)
    assert position_text(state2) == position_text(state)
    assert _views(state2) == _views(state)
    assert format_game(again) == text
    assert check_game(again).violations == []
    found = score_position(again)
    assert not found.problems, [p.message() for p in found.problems]
    assert found.result is not None
    assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3))


NEEDLES = {
    "baustellen": "    sites ",
    "diebe": "    thieves ",
    "schaetze": "    treasures ",
    "wechselscheine": "    certificate ws:",
}


@pytest.mark.parametrize("name", MODULES)
def test_the_module_states_its_part_in_some_moment(name: str) -> None:
    """The round trip is not vacuous: some moment of the example states the module's line."""
    game = _game(name)
    texts = [_round_trip(game, _at(name, m))[2] for m in MOMENTS]
    assert any(NEEDLES[name] in t for t in texts), name


def _position(body: str) -> tuple[Any, list[str]]:
    text = f'[Players "Anna, Ben, Cem"]\n[Modules "baustellen"]\n\nposition\n{body}end\n'
    state, found = state_at(parse_text(text, "p.alh")[0], At("end"))
    return state, [v.code for v in found]


def test_completed_sites_left_the_game() -> None:
    """ "Das Baustellenplättchen kommt nach der Fertigstellung eines Gebäudes aus dem Spiel":
    a completed building stated after ``completed`` takes its site out of the stack ("8
    achteckige Baustellenplättchen: Je 2x in jeder der 4 Währungen") and its back is known."""
    body = (
        "  player Anna\n    reserve T13 C8\n"
        "    sites T13 bs:hidden completed C8 bs:Di\n  player Ben\n  player Cem\n"
    )
    state, found = _position(body)
    assert found == []
    view = state.ext.views(state)["baustellen"]
    assert view["table"] == {"stack": 6, "backs seen": "Di 1"}
    assert view["players"]["Anna"] == {"sites": "~T13 bs:? (reserve)", "completed": "C8"}
    assert "    sites T13 bs:hidden completed C8 bs:Di\n" in position_text(state)
    # two more Di sites: more than exist
    _s, found = _position(body.replace("C8 bs:Di", "C8 bs:Di P3 bs:Di G10n bs:Di"))
    assert found == ["SITE-SUPPLY"]
    _s, found = _position(body.replace("completed C8", "completed De5"))
    assert found == ["SITE-TOKEN"]
