"""Redesigning the Alhambra ("Die Alhambra umbauen"): build from the reserve, remove a tile to
the reserve, or swap a reserve tile with a built one. A redesign is a main action and ends the
turn ("Ihr Spielzug ist damit beendet").

Each kind has a pure ``*_findings`` check and an ``apply_*`` change; ``plan_reserve_tile``
resolves which reserve tile the record means.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalogue import TileKind
from referee.engine.actions.building import (
    FOUNTAIN,
    build,
    building_findings,
    plain_slot,
    problems_as_findings,
    unknown_tile_note,
)
from referee.engine.core import match_slot
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.fmt import fmt_ref, fmt_tiles
from referee.engine.orientation import orient
from referee.engine.ruleset import Decision
from referee.engine.turns import end_main_action, redesign_findings, start_redesign
from referee.messages import Text
from referee.record.model import (
    BuildFromReserve,
    ComponentRef,
    Coord,
    Pos,
    RemoveToReserve,
    Swap,
    TileLike,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.context import Context
    from referee.engine.state import GameState, HeldPiece, PlayerState

REDESIGN = Text("ACTION/redesigning")


@dataclass(slots=True)
class ReservePick:
    """Which reserve tile a record's reference means: ``index`` into the reserve (None: not
    there), the tile, and the tile an unknown reserve entry turns out to be."""

    index: int | None
    tile: HeldPiece  # a catalogue tile, None (unknown) or a module's piece
    resolves: TileKind | None = None


def plan_reserve_tile(p: PlayerState, ref: TileLike) -> ReservePick:
    i = match_slot(ref, p.reserve)
    resolves: TileKind | None = None
    if i is None and isinstance(ref, ComponentRef) and None in p.reserve:
        i = p.reserve.index(None)
    elif i is None and isinstance(ref, TileRef) and ref.known and None in p.reserve:
        i = p.reserve.index(None)
        resolves = ref.kind if ref.kind is not None else (ref.candidates or (None,))[0]
    if i is None and isinstance(ref, TileRef) and not ref.known and p.reserve:
        i = len(p.reserve) - 1
    if i is None:
        return ReservePick(None, ref.kind if isinstance(ref, TileRef) else None)
    tile = resolves if resolves is not None else p.reserve[i]
    return ReservePick(i, tile, resolves)


def reserve_findings(p: PlayerState, ref: TileLike, pick: ReservePick, pos: Pos) -> list[Finding]:
    if pick.index is None:
        return [
            problem(
                "REDESIGN-NOT-IN-RESERVE",
                pos,
                p.name,
                tile=fmt_ref(ref),
                reserve=fmt_tiles(p.reserve),
            )
        ]
    return []


def take_from_reserve(p: PlayerState, pick: ReservePick) -> HeldPiece:
    assert pick.index is not None
    if pick.resolves is not None:
        p.reserve_set(pick.index, pick.resolves)
    return p.reserve_pop(pick.index)


def named_tile_findings(
    p: PlayerState, named: TileLike | None, present: object, at: Coord, pos: Pos
) -> list[Finding]:
    """A redesign that names the tile it takes out must name the one lying there."""
    if (
        isinstance(named, TileRef)
        and named.known
        and isinstance(present, TileKind)
        and present not in named.candidates
    ):
        return [
            problem(
                "REDESIGN-WRONG-TILE",
                pos,
                p.name,
                at=str(at),
                actual=present.code,
                claimed=fmt_ref(named),
            )
        ]
    return []


# ----------------------------------------------------------------------------- build


def build_from_reserve(ctx: Context, p: PlayerState, a: BuildFromReserve, check: bool) -> None:
    pick = plan_reserve_tile(p, a.tile)
    turned, turn_found = orient(pick.tile, a.tile, a.pos, p.name)  # E6: stated walls
    if check:
        found = redesign_findings(ctx.state, a.pos, p, REDESIGN)
        found += reserve_findings(p, a.tile, pick, a.pos)
        found += turn_found
        found += building_findings(ctx, p, turned, a.at, a.pos, "build")
        ctx.report(found)
    start_redesign(ctx.state)
    if pick.index is not None:
        take_from_reserve(p, pick)
    tile = turned
    placed = build(p, tile, a.at)
    if pick.index is not None and not placed:
        p.reserve_add(tile)
    elif placed:
        ctx.state.ext.placed(ctx.state, p, a.at, tile, "build", a.pos)
    end_main_action(ctx.state, REDESIGN)


def build_plain(state: GameState, p: PlayerState, a: BuildFromReserve, check: bool) -> bool:
    """The common build from the reserve in one pass: a redesign that may happen now, a
    catalogue tile of the reserve into a free cell where the building rules find nothing
    (:func:`~referee.engine.actions.building.plain_slot`). Anything else returns False with
    nothing changed: then :func:`build_from_reserve` runs (the same result)."""
    t = state.turn
    if t is None or (check and not t.extra_redesigns and (t.over or t.placing)):
        return False
    reserve = p.reserve
    i = plain_slot(state, p, reserve, a.tile, a.at, check)
    if i < 0:
        return False
    start_redesign(state)
    tile = p.reserve_pop(i)
    p.alhambra.place_if_empty(a.at, tile)  # type: ignore[arg-type]  # a tile
    if state.ext.placing:  # (Extensions.placed asks only those; () without modules)
        state.ext.placed(state, p, a.at, tile, "build", a.pos)
    end_main_action(state, REDESIGN)
    return True


# ----------------------------------------------------------------------------- remove


def remove_findings(ctx: Context, p: PlayerState, a: RemoveToReserve) -> list[Finding]:
    at = a.at
    present = p.alhambra.get(at)
    found = redesign_findings(ctx.state, a.pos, p, REDESIGN)
    if p.alhambra_unknown:
        found.append(unverifiable(a.pos, "UNVERIFIED-REMOVE-UNKNOWN-TILES", p.name))
    else:
        problems = ctx.decide(Decision.REMOVE_PROBLEMS, player=p, at=at, piece=present)
        tile = present if isinstance(present, TileKind) else None
        found += problems_as_findings(problems, tile, at, p, a.pos)
    found += named_tile_findings(p, a.tile, present, at, a.pos)
    return found


def remove(ctx: Context, p: PlayerState, a: RemoveToReserve, check: bool) -> None:
    if check:
        ctx.report(remove_findings(ctx, p, a))
    state = ctx.state
    start_redesign(state)
    at = a.at
    # the piece as a whole (a two-cell piece goes to the reserve as one, E24)
    present = p.alhambra.piece_at(at)
    if present is not None and at != FOUNTAIN:
        p.alhambra.remove(at)
        p.reserve_add(present)
        state.found.extend(state.ext.removed(state, p, at, present))
    end_main_action(state, REDESIGN)


# ----------------------------------------------------------------------------- swap


def swap_findings(ctx: Context, p: PlayerState, a: Swap, pick: ReservePick) -> list[Finding]:
    at = a.at
    present = p.alhambra.get(at)
    found = redesign_findings(ctx.state, a.pos, p, REDESIGN)
    found += reserve_findings(p, a.tile, pick, a.pos)
    if at == FOUNTAIN:
        found.append(problem("REMOVE-FOUNTAIN", a.pos, p.name, at=str(at)))
    elif present is None:
        found.append(problem("REDESIGN-SWAP-EMPTY", a.pos, p.name, at=str(at)))
    else:
        found += named_tile_findings(p, a.out, present, at, a.pos)
        tile, turn_found = orient(pick.tile, a.tile, a.pos, p.name)  # E6: stated walls
        found += turn_found
        if tile is None or p.alhambra_unknown:
            found.append(unknown_tile_note(a.pos, p.name))
        else:
            problems = ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=at, piece=tile, how="swap")
            found += problems_as_findings(problems, tile, at, p, a.pos)
    return found


def swap(ctx: Context, p: PlayerState, a: Swap, check: bool) -> None:
    pick = plan_reserve_tile(p, a.tile)
    if check:
        ctx.report(swap_findings(ctx, p, a, pick))
    state = ctx.state
    start_redesign(state)
    at = a.at
    present = p.alhambra.piece_at(at)  # a two-cell piece as a whole (E24)
    tile, _ = orient(pick.tile, a.tile, a.pos, p.name)
    if pick.index is not None:
        take_from_reserve(p, pick)
    if present is not None and at != FOUNTAIN and tile is not None:
        at = p.alhambra.anchor_of(at)
        p.alhambra.remove(at)
        state.found.extend(state.ext.removed(state, p, at, present))
        p.alhambra.place(at, tile)
        p.reserve_add(present)
        state.ext.placed(state, p, at, tile, "swap", a.pos)
    elif pick.index is not None:
        p.reserve_add(tile)
    end_main_action(state, REDESIGN)
