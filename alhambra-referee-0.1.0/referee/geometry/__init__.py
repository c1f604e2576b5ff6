"""Geometry of an Alhambra: the grid, the building rules and the outer wall runs.

Rulebook: ``rulebook-base-de-2003.txt``, sections "Alhambra-Bauregeln", "Alhambra umbauen" and
"Siegpunkte für die Außenmauern".
"""

from referee.geometry.grid import FOUNTAIN, ORIGIN, Alhambra, Fountain, Piece
from referee.geometry.layers import Layers, WallFacts, wall_between
from referee.geometry.rules import (
    PLACE_ADJACENT,
    PLACE_HOLE,
    PLACE_OCCUPIED,
    PLACE_WALK,
    PLACE_WALL,
    PROBLEM_SECTION,
    REMOVE_EMPTY,
    REMOVE_FOUNTAIN,
    REMOVE_HOLE,
    REMOVE_WALK,
    BuildingProblem,
    holes,
    layout_problems,
    legal_cells,
    placement_problems,
    reachable,
    removal_problems,
    swap_problems,
)
from referee.geometry.walls import (
    Segment,
    WallMode,
    WallRun,
    chosen_longest,
    longest_outer_wall,
    longest_runs,
    outer_segments,
    outer_wall_runs,
)

__all__ = [
    "FOUNTAIN",
    "ORIGIN",
    "PLACE_ADJACENT",
    "PLACE_HOLE",
    "PLACE_OCCUPIED",
    "PLACE_WALK",
    "PLACE_WALL",
    "PROBLEM_SECTION",
    "REMOVE_EMPTY",
    "REMOVE_FOUNTAIN",
    "REMOVE_HOLE",
    "REMOVE_WALK",
    "Alhambra",
    "BuildingProblem",
    "Fountain",
    "Layers",
    "Piece",
    "Segment",
    "WallFacts",
    "WallMode",
    "WallRun",
    "chosen_longest",
    "holes",
    "layout_problems",
    "legal_cells",
    "longest_outer_wall",
    "longest_runs",
    "outer_segments",
    "outer_wall_runs",
    "placement_problems",
    "reachable",
    "removal_problems",
    "swap_problems",
    "wall_between",
]
