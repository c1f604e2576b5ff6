"""Resolving a named tile against the tiles not yet seen (the bag or tile tower)."""

from __future__ import annotations

from referee.catalogue import TileKind
from referee.engine.findings import Finding, problem
from referee.engine.fmt import fmt_ref
from referee.engine.state import decrement
from referee.messages import Text
from referee.record.model import Pos, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.state import GameState


def bag_text(state: GameState, dative: bool = False) -> Text:
    """Where tiles are drawn from (profile ``tile_supply``): the bag or the tile tower, as a
    catalogue phrase (``BAG/...``; ``dative``: the German "im Beutel" form)."""
    tower = state.profile.tile_supply == "tower"
    return Text(f"BAG/{'tower' if tower else 'bag'}{'-in' if dative else ''}")


def resolve_from_bag(
    state: GameState, ref: TileRef, pos: Pos
) -> tuple[TileKind | None, bool, list[Finding]]:
    """Which unseen tile a known reference means: (tile, whether it is taken out of the unseen
    tiles, findings). Pure."""
    cands = ref.candidates
    if len(cands) == 1 and state.bag.get(cands[0], 0) > 0:  # the common case
        return cands[0], True, []
    if not cands:
        return (
            None,
            False,
            [
                problem(
                    "TILE-SUPPLY",
                    pos,
                    reason="no-such-tile",
                    tile=fmt_ref(ref),
                )
            ],
        )
    free = [t for t in cands if state.bag[t] > 0]
    if not free:
        tile = cands[0]
        return (
            tile,
            False,
            [
                problem(
                    "TILE-SUPPLY",
                    pos,
                    reason="twice",
                    tile=tile.full_code,
                    bag=bag_text(state),
                )
            ],
        )
    out: list[Finding] = []
    if len(free) > 1:
        out.append(
            problem(
                "UNKNOWN-TILE",
                pos,
                tile=fmt_ref(ref),
                candidates=", ".join(t.full_code for t in free),
            )
        )
    return free[0], True, out


def take_out_of_bag(state: GameState, tile: TileKind) -> None:
    """The tile has been seen: it is no longer among the unseen tiles."""
    decrement(state.bag, tile)
