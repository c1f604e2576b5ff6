"""The simulator plays the stages modules open (issue 26): an auction opened by a card revealed
in a refill (``tests/plugins/turn_auction``: the refill line ends with the card, the bids and
passes follow, the refill goes on, N12), crates handed on to the left neighbour
(``turn_handover``) and bids on a standing offer across turns (``turn_standing``). A simulated
game with the three is complete, checks clean and is a ``fmt`` fixed point.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator

import pytest

from referee.engine import check_game
from referee.notation import parse_text
from referee.notation.formatter import format_game
from referee.simulate.simulator import simulate_text

PLUGINS = (
    ("plugins.turn_auction", "TurnAuction", "turnauction"),
    ("plugins.turn_handover", "TurnHandover", "turnhandover"),
    ("plugins.turn_standing", "TurnStanding", "turnstanding"),
)
MODULES = tuple(name for _, _, name in PLUGINS)


@pytest.fixture(autouse=True)
def test_modules() -> Iterator[None]:
    from referee.engine.extensions import MODULES as REGISTRY
    from referee.engine.extensions import register_module

    for folder, cls_name, _ in PLUGINS:
        register_module(getattr(importlib.import_module(folder), cls_name))
    yield
    for _, _, name in PLUGINS:
        REGISTRY.pop(name, None)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 1), (4, 2)])
def test_a_simulated_game_with_stages_checks_clean_and_is_a_fmt_fixed_point(
    players: int, seed: int
) -> None:
    text = simulate_text(players, seed, modules=MODULES)
    game = parse_text(text, "sim.alh")[0]
    assert not game.errors
    report = check_game(game)
    assert [v.message() for v in report.violations] == []
    assert format_game(game) == text
    state = report.state
    assert state is not None and state.game_over
    # every part was played: the auction cards revealed alone on a refill line, each followed
    # by the auction's lines (a pass or a bid of every player still in) ...
    lines = text.splitlines()
    reveals = [i for i, line in enumerate(lines) if re.match(r"\* display .*ta:\w+$", line)]
    assert reveals and len(reveals) == text.count("ta:")
    for i in reveals:
        assert re.match(r"\w+: (pass|bid \d+ pay)", lines[i + 1])
    sold = state.modules["turnauction"]
    assert len(sold.unsold) + sum(len(v) for v in sold.won.values()) == len(reveals)
    # ... crates handed on and kept, and standing offers won at the bidder's turn start
    assert any(re.fullmatch(r"\w+: crate \d", line) for line in lines)
    assert re.search(r"^\d+\. \w+: .*\bbid \d+ pay", text, re.M)
    assert state.modules["turnstanding"].won
