"""Positions inside a turn (thirteenth step): a moment after some of a turn's actions (after a
purchase and before its placement, after a module's action and before the build) is written
with a ``turn`` line (the open turn) and a ``bought`` line (what it bought and did not place
yet), and read back to the same table; the next turn line continues that turn. What a block
cannot state is said in it (a comment) and by ``show`` (EN/DE), never dropped silently.

docs/notation.md ("A moment inside a turn").
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import cli
from referee.engine import apply_action, check_game
from referee.engine.position_compare import read_back_losses
from referee.engine.position_text import position_text, unstated
from referee.engine.walk import At, state_at, walk
from referee.notation import parse_text
from referee.notation.formatter import action as written
from referee.notation.formatter import format_games
from referee.record.model import Turn
from referee.simulate import simulate_game
from referee.simulate.roundtrip import headers, snapshot
from tests.test_notation_fast_position import fast_or_none, lark

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# the example of docs/notation.md: Ben bought G8ne (not exact: his turn's actions are over)
MIDTURN = """[Players "Anna, Ben, Cem"]

position
  next Ben
  market Gu:T10 Di:- De:- Du:C9w
  display Gu1 Di4 De6 Du9
  turn 12 Ben 1 over
  bought G8ne
  player Anna
    hand Gu3 De7
  player Ben
    hand Gu3
    alhambra C6@1,0
  player Cem
    hand ?
end
"""


def _errors(text: str) -> list[str]:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    return [v.code for v in check_game(game).violations if v.severity == "error"]


def _state(text: str) -> Any:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    state = None
    for step in walk(game, finish=False):
        state = step.state
    return state


def test_the_open_turn_and_its_bought_piece_are_read() -> None:
    state = _state(MIDTURN)
    t = state.turn
    assert t is not None and t.number == 12 and state.players[t.player].name == "Ben"
    assert (t.main_actions, t.over, t.placing, t.unsure) == (1, True, False, False)
    assert [x.code for x in t.pending] == ["G8ne"]
    assert position_text(state) == MIDTURN.split("\n\n", 1)[1]  # written back as read


def test_the_next_line_of_the_same_turn_places_the_bought_piece() -> None:
    text = MIDTURN + "12. Ben: place G8ne@0,1\n13. Cem: take Gu1\n"
    assert _errors(text) == []
    state = _state(text)
    ben = state.player_named("Ben")
    cells = {(c.x, c.y): getattr(t, "code", str(t)) for c, t in ben.alhambra.items()}
    assert cells[(0, 1)] == "G8ne"
    assert state.turn is None  # turn 12 ended with its line, turn 13 too


def test_another_turn_closes_the_open_one_and_reports_the_piece_left_unplaced() -> None:
    codes = _errors(MIDTURN + "13. Cem: take Gu1\n")
    assert "PLACE-MISSING" in codes


def test_a_main_action_after_an_over_turn_is_reported_as_in_any_turn() -> None:
    codes = _errors(MIDTURN + "12. Ben: take Gu1, place G8ne@0,-1\n")
    assert "TURN-OVER" in codes


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("turn Ben 12 1", "turn-line"),
        ("turn 12 Ben 1 later", "turn-line"),
        ("turn 12 Ben", "turn-line"),
    ],
)
def test_a_turn_line_of_another_form_is_reported(line: str, reason: str) -> None:
    text = MIDTURN.replace("  turn 12 Ben 1 over\n", f"  {line}\n")
    (game,) = parse_text(text)
    found = [v for v in check_game(game).violations if v.code == "POSITION-INVALID"]
    assert [v.reason for v in found][:1] == [reason]


def test_bought_without_a_turn_line_is_reported() -> None:
    (game,) = parse_text(MIDTURN.replace("  turn 12 Ben 1 over\n", ""))
    found = [v for v in check_game(game).violations if v.code == "POSITION-INVALID"]
    assert [v.reason for v in found] == ["bought-without-turn"]


def test_both_readers_read_the_open_turn_alike_and_fmt_keeps_it() -> None:
    assert fast_or_none(MIDTURN) is not None  # read without Lark
    assert fast_or_none(MIDTURN) == lark(MIDTURN)
    assert format_games(parse_text(MIDTURN)) == MIDTURN


# ------------------------------------------------------------------ round trips inside turns


def inside_turns(game: Any, every: int = 1) -> list[tuple[Turn, int, Any, Any]]:
    """(turn line, actions made, state, state after the line) after each proper prefix of
    each numbered turn line of the player to move (not a line played out of turn)."""
    out: list[tuple[Turn, int, Any, Any]] = []
    body = game.body
    before = None
    n = 0
    # the live state of the walk, copied only before a numbered turn line of two actions or
    # more (the only lines with moments inside) and after a line that made a moment: the same
    # states as the walk's copy of every step, without the copies no moment reads
    for step in walk(game, finish=False, snapshots=False):
        item = step.item
        own = isinstance(item, Turn) and before is not None and item.number is not None
        if own and item.player is not None:
            who = before.player_named(item.player.name)
            own = who is not None and who.index == before.next_player
        after = None
        if own and not before.stages:
            for k in range(1, len(item.actions)):
                n += 1
                if n % every:
                    continue
                state = before.copy()
                for a in item.actions[:k]:
                    apply_action(state, a)
                if state.turn is not None:
                    if after is None:
                        after = step.state.copy()
                    out.append((item, k, state, after))
        ahead = body[step.index] if step.index < len(body) else None
        looks = isinstance(ahead, Turn) and ahead.number is not None and len(ahead.actions) > 1
        before = step.state.copy() if looks else None
    return out


def _same_or_said(game: Any, item: Turn, k: int, state: Any, after: Any) -> None:
    """The block of ``state`` reads back to the same table and open turn, or says what it
    does not state; the rest of the turn line after it ends the turn as the record did."""
    text = headers(game) + "\n\n" + position_text(state)
    (again,) = parse_text(text)
    assert not again.errors, again.errors
    assert fast_or_none(text) == lark(text)
    back = None
    for step in walk(again, finish=False, snapshots=False):  # the last state only
        back = step.state
    assert back is not None and back.turn is not None
    t, u = state.turn, back.turn
    assert (t.number, t.player, t.main_actions, t.over, t.unsure, t.placing) == (
        u.number,
        u.player,
        u.main_actions,
        u.over,
        u.unsure,
        u.placing,
    )
    assert [str(x) for x in t.pending] == [str(x) for x in u.pending]
    a = [x for x in snapshot(state) if not x.lstrip().startswith("#")]
    b = snapshot(back)
    if a != b:  # never silently: the block or show's check names the loss
        lost = [x for x in a if x not in b]
        assert unstated(state) or read_back_losses(state, text), (text, lost)
        return
    # the rest of the turn line after the block: the turn ends as the record's did
    rest = ", ".join(written(x) for x in item.actions[k:])
    who = state.players[t.player].name
    (whole,) = parse_text(f"{text}{t.number}. {who}: {rest}\n")
    done = None
    for step in walk(whole, finish=False, snapshots=False):
        done = step.state
    assert done is not None and done.turn is None
    assert snapshot(done) == snapshot(after)


EXAMPLE_NAMES = [
    "game-3p.alh",
    "module-handwerker.alh",
    "module-baustellen.alh",
    "module-charaktere.alh",
    "module-machtgebaeude.alh",
    "module-baumeister.alh",
    "module-magisch.alh",
]


STEPS = {"module-handwerker.alh": 9, "module-charaktere.alh": 9}


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_moment_inside_a_turn_of_module_examples_reads_back(name: str) -> None:
    (game,) = parse_text((EXAMPLES / name).read_text("utf-8"))[:1]
    # every third moment: the seven examples' moments at a step of 3 run the same referee/
    # lines as every moment (13,170 of them, coverage, twentieth step) at a third of the cost;
    # handwerker and charaktere at every ninth (twenty-first step, coverage of each example at
    # steps 3, 6, 9): charaktere's run every line its step 3 ran, handwerker's all but two of
    # the reader's (notation/fast.py 612, 1317: a "?" argument, a position of another line),
    # which test_notation_fast's test_the_fuzz_corpus runs
    moments = inside_turns(game, STEPS.get(name, 3))
    assert moments
    for item, k, state, after in moments:
        _same_or_said(game, item, k, state, after)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000), players=st.integers(2, 5))
def test_moments_inside_turns_of_simulated_games_read_back(seed: int, players: int) -> None:
    game = simulate_game(players, seed)
    moments = inside_turns(game)
    rng = random.Random(seed)
    for item, k, state, after in rng.sample(moments, min(8, len(moments))):
        _same_or_said(game, item, k, state, after)


# ------------------------------------------------------------- what a block cannot state


def test_a_moment_with_a_stage_open_says_so_in_the_block_and_to_the_user() -> None:
    path = EXAMPLES / "module-schatzkammer.alh"
    (game,) = parse_text(path.read_text("utf-8"))[:1]
    state, _ = state_at(game, At("line", 76))
    assert state.stages
    assert "other players are still acting" in position_text(state)
    runner = CliRunner()
    for lang, words in (("en", "does not state everything"), ("de", "nicht vollständig")):
        got = runner.invoke(
            cli, ["show", str(path), "--at", "L76", "--format", "record", "--lang", lang]
        )
        assert got.exit_code == 0, got.output
        assert "# not stated in this block" in got.stdout
        assert words in got.stderr


def test_a_whole_moment_says_nothing_more() -> None:
    path = EXAMPLES / "game-3p.alh"
    got = CliRunner().invoke(cli, ["show", str(path), "--at", "L40", "--format", "record"])
    assert got.exit_code == 0
    assert "#" not in got.stdout and got.stderr == ""
