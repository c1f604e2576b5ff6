"""Positions of Die Gunst des Wesirs, Die Bonuskarten, Die neuen Wertungskärtchen and Die
Wünsche des Kalifen (rulebook-bigbox-de-2019.txt): a moment of ``examples/module-NAME.alh``
written as a ``position`` block (``show --format record``) and read back gives the same
position text, the same module views and the same ``score`` breakdown.

What a position states for them:

* ``vizier asleep`` in a player's section ("Sein Wesir muss wach sein"; the token starts awake);
* ``bonus G10 T12 hidden S9 ?`` in a player's section: the bonus cards lying revealed, then the
  face-down ones ("erhält jeder Spieler ... Bonuskarten, die er verdeckt auf die Hand nimmt"),
  ``?`` for a card the recorder did not see;
* ``scoringtile 2 st:SGTCAP`` outside the player sections ("3 Kärtchen werden zufällig
  gezogen", one per scoring);
* ``tasks task:1 task:6 task:9`` outside the player sections ("Anschließend werden 3 davon
  offen ... ausgelegt").

History a position cannot state and the rest of the game does not need: the earlier vizier
uses (the ``uses`` of the Wesir view).
"""

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
from tests.test_position_modules import _breakdown, _game, _round_trip, _views

MODULES = ("wesir", "bonuskarten", "wertungskaertchen", "wuensche")
NEEDLES = {
    "wesir": "    vizier asleep",
    "bonuskarten": "    bonus ",
    "wertungskaertchen": "  scoringtile 1 st:",
    "wuensche": "  tasks task:",
}


def _own_views(state: Any) -> str:
    """The views, less the history a position does not state (the vizier's earlier uses)."""
    views = json.loads(_views(state))
    views.get("wesir", {}).get("table", {}).pop("uses", None)
    return json.dumps(views, sort_keys=True)


def _moments(game: Any) -> list[At]:
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    return [At("turn", k) for k in (1, n // 3, n // 2, (2 * n) // 3, n - 1)] + [
        At("scoring", 1),
        At("scoring", 2),
    ]


@pytest.mark.parametrize("name", MODULES)
def test_a_moment_written_as_a_position_reads_back_to_the_same_state_and_score(
    name: str,
) -> None:
    game = _game(name)
    texts = []
    for at in _moments(game):
        state, state2, text, again = _round_trip(game, at)
        texts.append(text)
        assert position_text(state2) == position_text(state), at
        assert _own_views(state2) == _own_views(state), at
        assert format_game(again) == text  # canonical: a fixed point of fmt
        assert check_game(again).violations == []
        found = score_position(again)
        assert [p.message() for p in found.problems] == [], at
        assert found.result is not None
        assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3)), at
    # the module's own line is written at some moment (not a round trip of nothing)
    assert any(NEEDLES[name] in t for t in texts), name


# ------------------------------------------------------------------ hand-written positions


def _read(body: str, modules: str) -> tuple[Any, list[str]]:
    text = f'[Players "Anna, Ben, Cem"]\n[Modules "{modules}"]\n\nposition\n{body}end\n'
    state, found = state_at(parse_text(text, "p.alh")[0], At("end"))
    return state, [v.code for v in found]


def _players(anna: str = "", ben: str = "", cem: str = "") -> str:
    return (
        f"  player Anna\n    alhambra G10-@0,-1 S9@1,-1\n{anna}"
        f"  player Ben\n    alhambra T12@0,-1\n{ben}"
        f"  player Cem\n{cem}"
    )


def test_bonus_cards_face_down_in_a_position() -> None:
    """ "Bei 2 und 3 Spielern erhält jeder Spieler 3 Bonuskarten": ``hidden`` states the
    face-down cards (``?`` unseen); without it the rest of the deal is held unseen."""
    state, codes = _read(_players(anna="    bonus G10- hidden T11- ?\n"), "bonuskarten")
    assert codes == []
    players = state.ext.views(state)["bonuskarten"]["players"]
    assert players["Anna"] == {"revealed": "G10-", "face down": "T11- ?"}
    assert players["Ben"] == {"revealed": "-", "face down": "? ? ?"}
    text = position_text(state)
    assert "    bonus G10- hidden T11- ?\n" in text
    assert "  player Ben\n    alhambra T12@0,-1\n  player Cem" in text  # the default: no line
    only_shown, codes = _read(_players(anna="    bonus G10- S9\n"), "bonuskarten")
    assert codes == []
    assert only_shown.ext.views(only_shown)["bonuskarten"]["players"]["Anna"] == {
        "revealed": "G10- S9",
        "face down": "?",
    }
    assert "    bonus G10- S9\n" in position_text(only_shown)


def test_bonus_cards_in_a_position_are_checked() -> None:
    """Each card exists once ("Die 10 Karten zeigen all diejenigen Gebäudeplättchen, die über
    keinerlei Stadtmauer verfügen"), the deal has its size, a revealed card's tile is built."""
    _s, codes = _read(
        _players(anna="    bonus G10 hidden T12\n", ben="    bonus T12\n"), "bonuskarten"
    )
    assert "BONUS-SUPPLY" in codes
    _s, codes = _read(_players(anna="    bonus G10 hidden ? ? ?\n"), "bonuskarten")
    assert codes == ["BONUS-DEAL"]
    _s, codes = _read(_players(anna="    bonus T12 hidden ? ?\n"), "bonuskarten")
    assert "BONUS-NOT-BUILT" in codes
    _s, codes = _read(_players(anna="    bonus hidden G10 G10 ?\n"), "bonuskarten")
    assert "BONUS-SUPPLY" in codes


def test_a_scoring_tile_of_a_scoring_over_may_be_stated() -> None:
    """ "3 Kärtchen werden zufällig gezogen": the tile of scoring 1 stays in its slot, so a
    position after scoring 1 states it; a record stating it only after scoring 1 is flagged."""
    tiles = "  scoringtile 1 st:SGTCAP\n  scoringtile 2 st:ACGSPT\n"
    state, codes = _read("  scorings 1\n" + tiles + _players(), "wertungskaertchen")
    assert codes == []
    assert tiles in position_text(state)
    assert "(scored)" in state.ext.views(state)["wertungskaertchen"]["table"]["scoring 1"]


def test_a_vizier_is_stated_when_asleep_only() -> None:
    """ "Sein Wesir muss wach sein": the token starts awake, so only ``vizier asleep`` is
    written; ``vizier awake`` is read as well."""
    state, codes = _read(_players(anna="    vizier asleep\n", ben="    vizier awake\n"), "wesir")
    assert codes == []
    players = state.ext.views(state)["wesir"]["players"]
    assert players == {
        "Anna": {"vizier": "asleep"},
        "Ben": {"vizier": "awake"},
        "Cem": {"vizier": "awake"},
    }
    text = position_text(state)
    assert "    vizier asleep\n" in text and "vizier awake" not in text


def test_open_tasks_are_written_in_the_order_stated() -> None:
    state, codes = _read("  tasks task:9 task:1 task:6\n" + _players(), "wuensche")
    assert codes == []
    assert "  tasks task:9 task:1 task:6\n" in position_text(state)
