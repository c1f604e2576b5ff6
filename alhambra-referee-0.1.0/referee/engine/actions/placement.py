"""Placing what was bought ("ganz am Ende des eigenen Zuges"): into the Alhambra, into the
reserve, or (two players; house rule: anyone) as a gift; and closing the placements at the end
of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalogue import TileKind
from referee.engine.actions.building import build, building_findings, plain_slot
from referee.engine.context import Context
from referee.engine.core import match_slot
from referee.engine.findings import Finding, problem, report
from referee.engine.fmt import fmt_ref, fmt_tile, fmt_tiles
from referee.engine.orientation import orient
from referee.engine.ruleset import Decision
from referee.geometry.rules import placement_fits
from referee.messages import Text
from referee.record.model import ComponentRef, Give, Place, Pos, Reserve, TileLike, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.state import GameState, HeldPiece, PlayerState


@dataclass(slots=True)
class PendingPick:
    """Which bought tile a placement means: its slot among the pending ones, its kind, and
    the kind an unknown pending tile turns out to be."""

    index: int | None
    tile: HeldPiece  # a catalogue tile, None (unknown) or a module's piece
    resolves: TileKind | None = None


def plan_pending(state: GameState, ref: TileLike) -> PendingPick:
    """Which bought tile a placement means."""
    t = state.turn
    assert t is not None
    i = match_slot(ref, t.pending)
    resolves: TileKind | None = None
    if i is None and None in t.pending:
        i = t.pending.index(None)
        if isinstance(ref, TileRef) and ref.known:
            resolves = (
                ref.kind if ref.kind is not None else ref.candidates[0] if ref.candidates else None
            )
    if i is None and isinstance(ref, TileRef) and not ref.known and t.pending:
        i = 0
    if i is None:
        return PendingPick(None, ref.kind if isinstance(ref, TileRef) else None)
    tile = resolves if resolves is not None else t.pending[i]
    return PendingPick(i, tile, resolves)


def pending_findings(
    state: GameState, p: PlayerState, ref: TileLike, pick: PendingPick, pos: Pos
) -> list[Finding]:
    t = state.turn
    assert t is not None
    if pick.index is None:
        return [
            problem(
                "PLACE-NOT-BOUGHT",
                getattr(ref, "pos", pos) or pos,
                p.name,
                tile=fmt_ref(ref),
                pending=fmt_tiles(t.pending) if t.pending else "none",
            )
        ]
    return []


def _take_pending(state: GameState, pick: PendingPick) -> HeldPiece:
    t = state.turn
    assert t is not None and pick.index is not None
    if pick.resolves is not None:
        t.pending[pick.index] = pick.resolves
    return t.pending.pop(pick.index)


def place(ctx: Context, p: PlayerState, a: Place, check: bool) -> None:
    state = ctx.state
    pick = plan_pending(state, a.tile)
    # a piece that may be turned lies as the record states (E6: engine/orientation.py)
    turned, turn_found = orient(pick.tile, a.tile, a.pos, p.name)
    if check:
        if pick.index is None:
            ctx.report(pending_findings(state, p, a.tile, pick, a.pos))
        else:
            found = building_findings(ctx, p, turned, a.at, a.pos, "place")
            if turn_found or found:
                ctx.report(turn_found + found)
    assert state.turn is not None
    state.turn.placing = True
    if pick.index is None:
        return
    _take_pending(state, pick)
    tile = turned
    if not build(p, tile, a.at):
        p.reserve_add(tile)
    else:
        state.ext.placed(state, p, a.at, tile, "place", a.pos)


def place_plain(state: GameState, p: PlayerState, a: Place, check: bool) -> bool:
    """The common placement in one pass: a bought catalogue tile into a free cell where the
    building rules find nothing (:func:`~referee.engine.actions.building.plain_slot`). Anything
    else returns False with nothing changed: then :func:`place` runs (the same result)."""
    t = state.turn
    if t is None:
        return False
    pending = t.pending
    i = plain_slot(state, p, pending, a.tile, a.at, check)
    if i < 0:
        if type(a.tile) is ComponentRef and state.ext.modules:
            return _place_piece(state, p, a, check)
        return False
    t.placing = True
    tile = pending.pop(i)
    p.alhambra.place_if_empty(a.at, tile)  # type: ignore[arg-type]  # a tile
    # (Extensions.placed asks only those told of a ``place``; () without modules)
    if state.ext.placing_place:
        state.ext.placed(state, p, a.at, tile, "place", a.pos)
    return True


def _place_piece(state: GameState, p: PlayerState, a: Place, check: bool) -> bool:
    """:func:`place_plain` for a module's piece the record names by its token (a medina, a
    plot with its building, a bathhouse): in one pass when :func:`place` would find nothing
    to report and put it where the line says: the piece is among the turn's bought pieces
    (:func:`plan_pending`'s pick), it lies as the token states
    (:func:`~referee.engine.orientation.orient` has nothing to say), the Alhambra is known
    tile by tile, no module refines ``place.problems`` and the base building rules find
    nothing (:func:`~referee.geometry.rules.placement_fits`: False for a piece with rules of
    its own); not checking, the cell is empty. Else False with nothing changed (the stages
    run and write the findings)."""
    if p.counts is not None or p.alhambra_unknown:
        return False
    t = state.turn
    assert t is not None
    pending = t.pending
    i = match_slot(a.tile, pending)
    if i is None:
        return False
    piece = pending[i]
    if piece is None:
        return False
    turned, found = orient(piece, a.tile, a.pos, p.name)
    if found:
        return False
    at = a.at
    if check:
        if Decision.PLACE_PROBLEMS in state.rules.refined or not placement_fits(
            p.alhambra, at, turned
        ):
            return False
    elif at in p.alhambra.cells:
        return False
    t.placing = True
    pending.pop(i)
    p.alhambra.place_if_empty(at, turned)
    if state.ext.placing_place:
        state.ext.placed(state, p, at, turned, "place", a.pos)
    return True


def reserve(ctx: Context, p: PlayerState, a: Reserve, check: bool) -> None:
    state = ctx.state
    pick = plan_pending(state, a.tile)
    if check:
        ctx.report(pending_findings(state, p, a.tile, pick, a.pos))
    assert state.turn is not None
    state.turn.placing = True
    if pick.index is not None:
        p.reserve_add(_take_pending(state, pick))


def give_findings(ctx: Context, p: PlayerState, a: Give, pick: PendingPick) -> list[Finding]:
    state = ctx.state
    found = pending_findings(state, p, a.tile, pick, a.pos)
    tname = fmt_tile(pick.tile) if pick.index is not None else fmt_ref(a.tile)
    if a.to is None:
        if state.dirk is None:
            found.append(
                problem(
                    "GIFT-NOT-ALLOWED",
                    a.pos,
                    p.name,
                    tile=tname,
                    to="Dirk",
                    why=Text("GIFT-NOT-ALLOWED.why/dirk-only-exists", n_players=len(state.players)),
                )
            )
        return found
    other = state.player_named(a.to.name)
    if other is None:
        found.append(
            problem("UNKNOWN-PLAYER", a.to.pos or a.pos, a.to.name, players=", ".join(state.names))
        )
    elif other is p:
        found.append(
            problem(
                "GIFT-NOT-ALLOWED",
                a.pos,
                p.name,
                tile=tname,
                to=other.name,
                why=Text("GIFT-NOT-ALLOWED.why/a-player-cannot"),
            )
        )
    elif state.profile.gifts != "any-player":
        found.append(
            problem(
                "GIFT-NOT-ALLOWED",
                a.pos,
                p.name,
                tile=tname,
                to=other.name,
                why=Text("GIFT-NOT-ALLOWED.why/a-bought-tile"),
            )
        )
    if other is not None and pick.index is not None:
        found += reserve_limit_findings(ctx, other, a.pos, extra=1)
    return found


def give(ctx: Context, p: PlayerState, a: Give, check: bool) -> None:
    state = ctx.state
    pick = plan_pending(state, a.tile)
    if check:
        ctx.report(give_findings(ctx, p, a, pick))
    assert state.turn is not None
    state.turn.placing = True
    tile = _take_pending(state, pick) if pick.index is not None else None
    ok = pick.index is not None
    if a.to is None:
        if not ok:
            return
        if state.dirk is None:
            p.reserve_add(tile)
        else:
            state.dirk.append(tile)
        return
    other = state.player_named(a.to.name)
    if other is None:
        if ok:
            p.reserve_add(tile)
        return
    if ok:
        other.reserve_add(tile)  # the receiver keeps it in the reserve (house rule)


def reserve_limit_findings(ctx: Context, p: PlayerState, pos: Pos, extra: int = 0) -> list[Finding]:
    return _reserve_limit_findings(ctx.state, p, pos, extra, ctx)


def _reserve_limit_findings(
    state: GameState, p: PlayerState, pos: Pos, extra: int = 0, ctx: Context | None = None
) -> list[Finding]:
    constants = state.rules.constants  # the limit of the profile, when no module refines it
    if Decision.RESERVE_LIMIT in constants:
        limit = constants[Decision.RESERVE_LIMIT]
    else:
        limit = (ctx or Context(state)).decide(Decision.RESERVE_LIMIT, player=p)
    n = len(p.reserve) + extra
    if limit is not None and n > limit:
        return [problem("RESERVE-LIMIT", pos, p.name, n=n, limit=limit, profile=state.profile.name)]
    return []


def close_placements(state: GameState, p: PlayerState, pos: Pos, check: bool = True) -> None:
    """End of a (mini-)turn: bought tiles not placed are reported and put into the reserve
    (as played: they lie somewhere near the player); the reserve limit is checked."""
    t = state.turn
    if t is not None and t.pending:
        missing = list(t.pending)
        for tile in t.refused:  # a refused purchase is one finding already
            if tile in missing:
                missing.remove(tile)
        if check and missing:
            report(
                state,
                [
                    problem(
                        "PLACE-MISSING",
                        pos,
                        p.name,
                        tiles=fmt_tiles(missing),
                        them="it" if len(missing) == 1 else "them",
                    )
                ],
            )
        p.reserve_extend(t.pending)
        t.pending.clear()
    if check and p.reserve:  # an empty reserve is within every limit
        found = _reserve_limit_findings(state, p, pos)
        if found:
            report(state, found)
