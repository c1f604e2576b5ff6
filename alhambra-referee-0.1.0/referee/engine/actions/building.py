"""Putting a piece into an Alhambra and taking it out: the building rules as findings.

``building_findings`` asks the ruleset's ``place.problems`` decision (the base building rules of
:mod:`referee.geometry`, refined by the modules) and turns each problem into a finding whose
parameters name the cells and sides concerned; ``build`` puts the piece down (no checks).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalogue import SIDES, BuildingType, TileKind
from referee.engine.actions import layer_rules  # noqa: F401  (registers the layer rules)
from referee.engine.core import match_slot
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.ruleset import Decision
from referee.engine.state import EMPTY
from referee.geometry.rules import placement_fits
from referee.messages import Join, Text
from referee.record.model import Coord, Pos, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.context import Context
    from referee.engine.state import GameState, HeldPiece, PlayerState
    from referee.geometry import BuildingProblem, Piece

FOUNTAIN = Coord(0, 0)


def piece_name(piece: object, lang: str) -> str:
    """``tower T12`` for a building tile; a module's piece or an unknown tile as written."""
    if piece is None:
        return "?"
    kind = getattr(piece, "type", None)
    code = getattr(piece, "code", None) or str(piece)
    return f"{kind.name_in(lang)} {code}" if isinstance(kind, BuildingType) else str(code)


@dataclass(frozen=True, slots=True)
class PieceName:
    """A piece as a message parameter, named in the language the message is shown in."""

    piece: Any

    def text(self, lang: str = "en") -> str:
        return piece_name(self.piece, lang)


def sides_towards(at: Coord, nb: Coord) -> list:  # list[Side]
    return [s for s in SIDES if at.neighbour(s) == nb]


def problem_params(
    pr: BuildingProblem, tile: Piece | None, at: Coord, p: PlayerState
) -> dict[str, object]:
    """The message parameters of a building problem (cells, sides, occupant)."""
    cells = ", ".join(str(c) for c in pr.cells)
    params: dict[str, object] = {
        "tile": PieceName(tile),
        "at": str(at),
        "cells": cells,
        "cells_word": "cell" if len(pr.cells) == 1 else "area",
    }
    if pr.code == "PLACE-OCCUPIED":
        occ = p.alhambra.get(at)
        params["occupant"] = "the fountain" if at == FOUNTAIN else str(occ)
        if occ is None and pr.cells:  # a two-cell piece whose second cell is taken
            taken = pr.cells[0]
            there = p.alhambra.get(taken)
            params["occupant"] = "the fountain" if taken == FOUNTAIN else f"{there}@{taken}"
    if pr.code == "PLACE-WALL" and tile is not None:
        parts: list[Text] = []
        its = "arcades" if getattr(tile, "type", None) is BuildingType.ARCADES else "other"
        for nb in pr.cells:
            q = p.alhambra.get(nb)
            if q is None:
                continue
            for side in sides_towards(at, nb):
                mine = "wall" if side in tile.walls else "open"
                theirs = "wall" if side.opposite in q.walls else "open"
                of = (
                    Text("PLACE-WALL.of/fountain")
                    if nb == FOUNTAIN
                    else Text("PLACE-WALL.of/tile", tile=str(q))
                )
                parts.append(
                    Text(
                        "PLACE-WALL.side/text",
                        its=Text(f"PLACE-WALL.its/{its}"),
                        side=Text(f"SIDE/{side.name}"),
                        mine=Text(f"PLACE-WALL.mine/{mine}"),
                        theirs=Text(f"PLACE-WALL.theirs/{theirs}"),
                        opposite=Text(f"SIDE/{side.opposite.name}"),
                        neighbour=of,
                        at=str(nb),
                    )
                )
        params["detail"] = Join(tuple(parts), sep="; ", empty=cells)
    return params


def problems_as_findings(
    problems: list[BuildingProblem], tile: Piece | None, at: Coord, p: PlayerState, pos: Pos
) -> list[Finding]:
    return [Finding(pr.code, pos, p.name, problem_params(pr, tile, at, p)) for pr in problems]


def unknown_tile_note(pos: Pos, player: str | None) -> Finding:
    return unverifiable(pos, "UNVERIFIED-BUILD-UNKNOWN-TILE", player)


def building_findings(
    ctx: Context, p: PlayerState, tile: HeldPiece, at: Coord, pos: Pos, how: str = "place"
) -> list[Finding]:
    """Everything the building rules say about ``tile`` entering ``p``'s Alhambra at ``at``."""
    if tile is None:
        return [unknown_tile_note(pos, p.name)]
    if p.counts is not None:
        return [unverifiable(pos, "UNVERIFIED-LAYOUT-COUNTS", p.name, name=p.name)]
    if p.alhambra_unknown:
        out = [unverifiable(pos, "UNVERIFIED-ALHAMBRA-UNKNOWN-TILES", p.name, name=p.name)]
        if at in p.alhambra:
            out.append(
                problem(
                    "PLACE-OCCUPIED",
                    pos,
                    p.name,
                    tile=tile.code,
                    at=str(at),
                    occupant=str(p.alhambra.get(at)),
                )
            )
        return out
    # ctx.decide without its layer (one call less per placement)
    answer = ctx.state.rules.answer[Decision.PLACE_PROBLEMS]
    problems = answer(ctx, player=p, at=at, piece=tile, how=how)
    return problems_as_findings(problems, tile, at, p, pos) if problems else []


def plain_slot(
    state: GameState, p: PlayerState, slots: list[Any], ref: object, at: Coord, check: bool
) -> int:
    """For the one-pass placements (``placement.place_plain``, ``redesign.build_plain``): the
    index in ``slots`` (bought tiles, the reserve) of the catalogue tile ``ref`` names, when
    building it at ``at`` is the common case: the slot :func:`~referee.engine.core.match_slot`
    picks holds a catalogue tile (it lies as printed: :func:`~referee.engine.orientation.orient`
    has nothing to say), the Alhambra is known tile by tile, the cell is empty and, when
    checking, no module refines ``place.problems`` and the base building rules find nothing
    (:func:`~referee.geometry.rules.placement_fits`). Else -1: the caller changes nothing and
    the stages run (they write the findings)."""
    if type(ref) is not TileRef or p.counts is not None or p.alhambra_unknown:
        return -1
    if ref.type is None:  # match_slot's answer for an unknown tile
        return -1
    cands = ref.candidates
    for i, tile in enumerate(slots):  # noqa: B007  (match_slot's first loop, inline)
        if tile is not None and tile is not EMPTY and tile in cands:
            break
    else:
        found = match_slot(ref, slots)  # a module piece carrying a tile, or nothing
        if found is None:
            return -1
        i, tile = found, slots[found]
    if type(tile) is not TileKind:
        return -1
    if check:
        if (
            Decision.PLACE_PROBLEMS in state.rules.refined  # _modules_refine_here's first test
            # (its answer without the call once the askers are known and none: every module
            # refining ``place.problems`` promised ``placements_by_pieces``)
            and state.ext.place_askers != ()
            and _modules_refine_here(state, p, at, tile)
        ) or not placement_fits(p.alhambra, at, tile):
            return -1
    elif at in p.alhambra.cells:
        return -1
    return i


def _modules_refine_here(state: GameState, p: PlayerState, at: Coord, tile: TileKind) -> bool:
    """Whether an enabled module's ``place.problems`` refinement may change the answer for
    ``tile`` entering ``p``'s Alhambra at ``at`` (placed or built from the reserve): each
    module refining it is asked (:meth:`~referee.engine.extensions.Module.leaves_plain_placement`;
    by default it may); none refining it: no."""
    if Decision.PLACE_PROBLEMS not in state.rules.refined:
        return False
    # (the modules whose yes the class does not give: Extensions.placement_askers, kept)
    askers = state.ext.place_askers
    if askers is None:
        askers = state.ext.placement_askers()
    for m in askers:
        if not m.leaves_plain_placement(state, p, at, tile):
            break
    else:  # (none asked, or every one leaves it alone)
        return False
    return True


def build(p: PlayerState, tile: HeldPiece, at: Coord) -> bool:
    """Put ``tile`` into ``p``'s Alhambra (no checks); False when the cell is taken (the tile
    then cannot lie there physically)."""
    if tile is None:
        p.alhambra_unknown += 1
        return True
    if p.counts is not None:
        p.counts[tile.type] = p.counts.get(tile.type, 0) + 1
        return True
    return p.alhambra.place_if_empty(at, tile)


def check_and_build(
    ctx: Context, p: PlayerState, tile: HeldPiece, at: Coord, pos: Pos, how: str = "place"
) -> bool:
    """Report the building findings, then build as played."""
    ctx.report(building_findings(ctx, p, tile, at, pos, how))
    return build(p, tile, at)


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
