"""Three views at a game's end that came back different after a block (the seventeenth step's
sweep, eighteenth step): Baustellen's worthless money (now in the cards' order, as a block
writes a hand), Die Menagerie's animals out of the game (a heap in the box: in the animals'
order) and Die Obstgärten's fruits drawn (a leftover's fruit nobody took, stated by ``fruit
gone N``). Each: the record's moment written as a block, the rest appended, and the end's
snapshot (the modules' views included) the same as the record's own.
"""

from __future__ import annotations

import pytest

from referee.engine.position_compare import snapshot
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at, walk
from referee.notation import parse_text
from referee.notation.formatter import format_games
from referee.simulate import simulate_game
from referee.simulate.roundtrip import headers


@pytest.mark.parametrize(
    ("modules", "players", "seed", "line", "word"),
    [
        (("baustellen",), 4, 1060, 221, "worthless"),
        (("baustellen", "grossprojekte", "menagerie"), 2, 5004, 239, "out of the game"),
        (("obstgaerten",), 3, 110, 271, "fruits drawn"),
    ],
)
def test_the_end_reads_the_same_after_a_block(
    modules: tuple[str, ...], players: int, seed: int, line: int, word: str
) -> None:
    text = format_games([simulate_game(players, seed, modules=modules)])
    lines = text.splitlines(keepends=True)
    (game,) = parse_text(text)
    end = snapshot(list(walk(game))[-1].state)
    assert any(word in x for x in end)  # the view concerned is there at the end
    state, _ = state_at(game, At("line", line))
    block = headers(game) + "\n\n" + position_text(state)
    (again,) = parse_text(block + "".join(lines[line:]))
    assert snapshot(list(walk(again))[-1].state) == end


def test_fruits_gone_are_read_and_written() -> None:
    text = format_games([simulate_game(3, 110, modules=("obstgaerten",))])
    (game,) = parse_text(text)
    state, _ = state_at(game, At("line", 271))
    block = position_text(state)
    assert "  fruit gone 1\n" in block
    bad = block.replace("  fruit gone 1\n", "  fruit gone x\n")
    (again,) = parse_text(headers(game) + "\n\n" + bad)
    found = [v.code for step in walk(again, finish=False) for v in step.violations]
    assert "FRUIT-TOKEN" in found
