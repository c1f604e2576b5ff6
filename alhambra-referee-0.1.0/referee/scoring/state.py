"""Scoring a game state: the one code path the engine (at a ``scoring`` line) and the ``score``
command (on a position block) share.

The participants are the players (their Alhambra, or stated counts plus any pieces placed
since), and Dirk in a two-player game ("Sonderregel für das Spiel zu zweit"). The enabled
modules add count adjustments, categories and a replacement points table through
``Module.scoring_parts``.
"""

from __future__ import annotations

from referee.catalogue import BUILDING_TYPES
from referee.makers import record_maker
from referee.scoring.categories import ScoringParts
from referee.scoring.core import ScoringEntry, ScoringResult, score_round

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.state import GameState

_new_entry = record_maker(ScoringEntry)  # ``ScoringEntry(...)`` without the frozen __init__


def scoring_entries(
    state: GameState, round_no: int, parts: ScoringParts | None = None
) -> list[ScoringEntry]:
    """The participants of a scoring of ``state``, with the modules' count adjustments."""
    if parts is None:
        parts = state.ext.scoring_parts(state, round_no)
    adjusted = bool(parts.adjustments)
    entries: list[ScoringEntry] = []
    for p in state.players:
        adjustments = parts.for_participant(p.name) if adjusted else ()
        if p.counts is not None:
            counts = dict(p.counts)
            for _c, piece in p.alhambra.buildings():
                if piece.type is not None:
                    counts[piece.type] = counts.get(piece.type, 0) + 1
            entries.append(
                _new_entry(
                    p.name,
                    counts=counts,
                    wall_claim=p.wall_claim,
                    adjustments=adjustments,
                    total_before=p.score,
                )
            )
            continue
        entries.append(
            _new_entry(p.name, alhambra=p.alhambra, adjustments=adjustments, total_before=p.score)
        )
    if state.dirk is not None:
        dirk = dict.fromkeys(BUILDING_TYPES, 0)
        for t in state.dirk:
            if t is not None and getattr(t, "type", None) is not None:
                dirk[t.type] += 1
        for kind, n in (state.modules.get("_dirk_counts") or {}).items():
            dirk[kind] += n  # a `player Dirk` section with counts (engine/position.py)
        entries.append(
            _new_entry(
                "Dirk",
                counts=dirk,
                is_dirk=True,
                adjustments=parts.for_participant(None),
                total_before=state.modules.get("_dirk_score", 0),
            )
        )
    return entries


def score_state(state: GameState, round_no: int) -> ScoringResult:
    """Score scoring ``round_no`` (1, 2 or 3) of ``state`` with its profile and modules."""
    parts = state.ext.scoring_parts(state, round_no)
    return score_round(
        round_no,
        scoring_entries(state, round_no, parts),
        state.profile,
        extra=parts.categories,
        table=parts.table,
        table_label=parts.table_label,
    )
