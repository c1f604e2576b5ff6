"""The three scorings: building majorities (with ties) and the longest outer wall.

Rulebook: ``rulebook-base-de-2003.txt``, sections "Wertungen", "Siegpunkte für Mehrheiten bei
den Gebäuden", "Siegpunkte für die Außenmauern", "Spielende", "Sonderregel für das Spiel zu
zweit". Readings are documented in ``docs/scoring.md``.
"""

from referee.scoring.categories import (
    CATEGORIES,
    CategoryScore,
    Combined,
    Majority,
    Participant,
    Penalty,
    PointLine,
    ScoringCategory,
    ScoringParts,
    register_category,
)
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
from referee.scoring.text import category_line, ordinal, render_scoring_text

__all__ = [
    "CATEGORIES",
    "POINTS",
    "CategoryScore",
    "ClaimMismatch",
    "Combined",
    "CountAdjustment",
    "Majority",
    "Participant",
    "Penalty",
    "PointLine",
    "ScoringCategory",
    "ScoringEntry",
    "ScoringParts",
    "ScoringResult",
    "ScoringRow",
    "TypeScore",
    "WallScore",
    "breakdown_line",
    "category_line",
    "claim_mismatches",
    "ordinal",
    "place_points",
    "register_category",
    "render_scoring_text",
    "score_round",
]
