"""The three scorings: building majorities (with ties) and the longest outer wall.

Rulebook: ``rulebook-base-de-2003.txt``, sections "Wertungen", "Siegpunkte für Mehrheiten bei
den Gebäuden", "Siegpunkte für die Außenmauern", "Spielende", "Sonderregel für das Spiel zu
zweit". Readings are documented in ``docs/scoring.md``.
"""

from referee.scoring.core import (
    POINTS,
    ClaimMismatch,
    CountAdjustment,
    ScoringEntry,
    ScoringResult,
    ScoringRow,
    TypeScore,
    WallScore,
    breakdown_line,
    claim_mismatches,
    place_points,
    score_round,
)
from referee.scoring.text import ordinal, render_scoring_text

__all__ = [
    "POINTS",
    "ClaimMismatch",
    "CountAdjustment",
    "ScoringEntry",
    "ScoringResult",
    "ScoringRow",
    "TypeScore",
    "WallScore",
    "breakdown_line",
    "claim_mismatches",
    "ordinal",
    "place_points",
    "render_scoring_text",
    "score_round",
]
