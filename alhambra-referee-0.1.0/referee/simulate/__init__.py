"""Random legal games: the legal-move generator, a simple policy and the simulator.

* :func:`referee.engine.legal.legal_actions` lists every legal action in a game state (modules
  included); :func:`referee.engine.legal.legal_interrupts` the out-of-turn lines.
* :func:`simulate_game` / :func:`simulate_text` play a complete game with a seed.
"""

from referee.engine.legal import legal_actions
from referee.simulate.simulator import (
    FastWayReplay,
    SimulationError,
    fast_way_replays,
    game_seed,
    simulate_game,
    simulate_many,
    simulate_text,
)

__all__ = [
    "FastWayReplay",
    "SimulationError",
    "fast_way_replays",
    "game_seed",
    "legal_actions",
    "simulate_game",
    "simulate_many",
    "simulate_text",
]
