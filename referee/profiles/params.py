"""Rule parameters: every point where editions, online implementations or house rules differ.

A :class:`RuleProfile` is what the engine and scoring read; they never test an edition's name.
Bundled profiles and user files (YAML) are loaded by :mod:`referee.profiles.loader`.
The defaults are the 2003 Queen rulebook (``queen-2003``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ScoringCardPlacement = Literal["shuffled", "top"]
StartTiebreak = Literal["cards-total-youngest", "cards-youngest"]
GiftRule = Literal["dirk-only", "any-player"]
OverpayRule = Literal["allowed", "warn", "illegal"]
WallRun = Literal["trail", "simple-path"]
GameEnd = Literal["market-incomplete", "bag-empty"]


@dataclass(frozen=True)
class RuleProfile:
    name: str = "queen-2003"
    description: str = "Queen Games base rulebook, 2003 (default)"
    # Where the two scoring cards go in piles 2 and 4: shuffled in, or laid on top.
    scoring_card_placement: ScoringCardPlacement = "shuffled"
    # How far a pile of the 5-pile setup may differ from an even fifth, as a fraction of it
    # ("fünf etwa gleichhohe Stapel": roughly equal).
    pile_tolerance: float = 0.25
    # Start player tie-break after "fewest cards".
    start_tiebreak: StartTiebreak = "cards-total-youngest"
    # Money cards per (currency, value) in a two-player game (one of three removed).
    two_player_money_copies: int = 2
    # Dirk's draw after the 2nd scoring: None = a third of the tiles left (rounded down).
    dirk_second_draw: int | None = None
    # House rules.
    reserve_limit: int | None = None
    gifts: GiftRule = "dirk-only"
    overpay_superfluous: OverpayRule = "allowed"
    # Wall scoring: "trail" counts every segment of a closed ring (N); "simple-path" N-1.
    wall_run: WallRun = "trail"
    # Game end: the market cannot be completely refilled, or the bag runs out during a refill.
    game_end: GameEnd = "market-incomplete"
    # Where each parameter's value comes from (file and section), for `profiles show`.
    sources: dict[str, str] = field(default_factory=dict, compare=False)


DEFAULT_PROFILE = RuleProfile()
