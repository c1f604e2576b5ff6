"""The building rules on a layered Alhambra: the general path.

:mod:`referee.geometry.rules` answers on ints from the kept geometry while an Alhambra holds
base pieces only (the base game: every record without the geometry modules). As soon as a layer
holds something (an edge piece, a corner piece, an added wall, a piece with a rule profile, a
two-cell or a half piece) or the piece in question is such a piece, it asks this module, which
answers every question the same way for base pieces (``tests/test_geometry_layers.py`` compares
both on random layouts) but reads every side through the one effective-walls function
(:func:`~referee.geometry.layers.wall_between`) and judges a piece on all of its cells at once:
it lays the piece into a copy and looks at the result.

The rules added by the rule profiles (E20, ``geometry/pieces.py``):

- ``PLACE-SIDE``: a bastion side must meet a building side *with* a wall; a green side meets
  only a green side (Feldlager, captions: "Nicht erlaubt: Bastion oder grüne Seite an Bastion",
  "Grüne Seite oder Bastion an Gebäudeseite ohne Stadtmauer"; "Erlaubt: Grüne Seite an grüne
  Seite sowie Bastion an Stadtmauer");
- ``PLACE-CLOSED``: nothing may lie on a closed side (Wachtürme: "An der langen Seite darf
  nichts angebaut werden");
- ``REMOVE-LOCKED``: a piece locks the cell against removal and swap (Tore der Stadt: "Weder
  ein platziertes Stadttor noch die beiden darunter liegenden Gebäudeplättchen dürfen umgebaut
  werden"; Wachtürme: never
  redesigned).
"""

from __future__ import annotations

from referee.catalogue import SIDES, Side, TileKind
from referee.geometry.codes import (
    PLACE_ADJACENT,
    PLACE_CLOSED,
    PLACE_HOLE,
    PLACE_OCCUPIED,
    PLACE_SIDE,
    PLACE_WALK,
    PLACE_WALL,
    REMOVE_EMPTY,
    REMOVE_FOUNTAIN,
    REMOVE_HOLE,
    REMOVE_LOCKED,
    REMOVE_WALK,
)
from referee.geometry.grid import ORIGIN, Alhambra
from referee.geometry.incremental import SIDE_RING, component, walk_layered
from referee.geometry.layers import Layers, cell_walls, corner_cells, edges_of_cell
from referee.geometry.pieces import Footprint, SideKind, parts_of, profile_of
from referee.geometry.rules import BuildingProblem, _sorted
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PLAIN, _BASTION = SideKind.PLAIN, SideKind.BASTION
_GREEN, _CLOSED = SideKind.GREEN, SideKind.CLOSED


def side_problem(
    cells: dict[Coord, Any], layers: Layers | None, at: Coord, side: Side
) -> str | None:
    """Whether the side ``side`` of the piece on ``at`` may meet the piece beside it (both
    there): None, or the code of the rule it breaks."""
    nb = at.neighbour(side)
    mine = profile_of(cells[at]).side(side)
    theirs = profile_of(cells[nb]).side(side.opposite)
    if mine is _CLOSED or theirs is _CLOSED:
        return PLACE_CLOSED
    wall_here = side in cell_walls(cells, layers, at)
    wall_there = side.opposite in cell_walls(cells, layers, nb)
    if mine is _PLAIN and theirs is _PLAIN:
        return None if wall_here == wall_there else PLACE_WALL
    if mine is _GREEN and theirs is _GREEN:
        return None
    if mine is _BASTION and theirs is _PLAIN:
        return None if wall_there else PLACE_SIDE
    if theirs is _BASTION and mine is _PLAIN:
        return None if wall_here else PLACE_SIDE
    return PLACE_SIDE


def _new_cells(at: Coord, piece: object) -> list[Coord]:
    if getattr(piece, "footprint", Footprint.CELL) == Footprint.TWO_CELLS:
        return [c for c, _ in parts_of(piece, at)]
    return [at]


def _walk_exempt(cells: dict[Coord, Any], c: Coord) -> bool:
    return profile_of(cells[c]).walk_exempt


def _reach(alh: Alhambra) -> set[Coord]:
    reach = alh.geometry.reach
    return set(alh.cells) if reach is None else set(reach)


def _sides_found(
    cells: dict[Coord, Any], layers: Layers | None, new: list[Coord], existing: set[Coord]
) -> tuple[bool, list[BuildingProblem]]:
    """Adjacency and the side rules of the new cells against the cells in ``existing``."""
    adjacent = False
    found: dict[str, tuple[list[Coord], list[tuple[Coord, Side]]]] = {}
    for c in new:
        for side in SIDES:
            n = c.neighbour(side)
            if n not in existing:
                continue
            adjacent = True
            code = side_problem(cells, layers, c, side)
            if code is not None:
                bad_cells, bad_sides = found.setdefault(code, ([], []))
                bad_cells.append(n)
                bad_sides.append((c, side))
    problems = [
        BuildingProblem(code, _sorted(set(bc)), tuple(bs))
        for code in (PLACE_WALL, PLACE_SIDE, PLACE_CLOSED)
        if code in found
        for bc, bs in [found[code]]
    ]
    return adjacent, problems


def _holes_touching(after: set[Coord], touching: list[Coord]) -> list[Coord]:
    """The enclosed cells (``after``: all of them) in the areas beside the cells
    ``touching``."""
    area: set[Coord] = set()
    for c in touching:
        for side in SIDES:
            n = c.neighbour(side)
            if n in after and n not in area:
                area |= component(after, n)
    return sorted(area, key=lambda c: (-c.y, c.x))


def placement_problems(alh: Alhambra, at: Coord, piece: object) -> list[BuildingProblem]:
    """:func:`referee.geometry.rules.placement_problems` on the general path."""
    cells = alh.cells
    new = _new_cells(at, piece)
    taken = [c for c in new if c in cells]
    if taken:
        return [BuildingProblem(PLACE_OCCUPIED, _sorted(taken))]
    _ = alh.geometry  # built once here, copied with the trial, then kept up to date by both
    trial = alh.copy()
    trial.place(at, piece)  # type: ignore[arg-type]
    tc = trial.cells
    problems: list[BuildingProblem] = []
    adjacent, side_problems = _sides_found(tc, trial.layers, new, set(cells))
    if not adjacent:
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        problems += side_problems
        if not profile_of(piece).walk_exempt:
            reach = trial.geometry.reach
            cut = [c for c in new if reach is not None and c not in reach]
            if cut:
                problems.append(BuildingProblem(PLACE_WALK, _sorted(cut)))
    area = _holes_touching(trial.geometry.enclosed, new)
    if area:
        problems.append(BuildingProblem(PLACE_HOLE, tuple(area)))
    return problems


def lock_problem(alh: Alhambra, at: Coord) -> BuildingProblem | None:
    """``REMOVE-LOCKED`` when a piece locks the piece on ``at`` against redesign: its own
    profile (``locked``), a piece on one of its edges or corners with ``locks``."""
    layers = alh.layers
    cells = alh.cells
    locked: list[Coord] = []
    for c in alh.cells_of(at):
        if profile_of(cells[c]).locked:
            locked.append(c)
            continue
        if layers is None:
            continue
        if any(getattr(layers.edges.get(e), "locks", False) for e in edges_of_cell(c)):
            locked.append(c)
            continue
        for key, piece in layers.corners.items():
            if getattr(piece, "locks", False) and c in corner_cells(key):
                locked.append(c)
                break
    return BuildingProblem(REMOVE_LOCKED, _sorted(locked)) if locked else None


def removal_problems(alh: Alhambra, at: Coord) -> list[BuildingProblem]:
    """:func:`referee.geometry.rules.removal_problems` on the general path."""
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    problems: list[BuildingProblem] = []
    locked = lock_problem(alh, at)
    if locked is not None:
        problems.append(locked)
    freed = alh.cells_of(at)
    before = _reach(alh)
    trial = alh.copy()
    trial.remove(at)
    tc = trial.cells
    after = _reach(trial)
    lost = [c for c in tc if c in before and c not in after and not _walk_exempt(tc, c)]
    if lost:
        problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    enclosed = trial.geometry.enclosed
    area: set[Coord] = set()
    for c in freed:
        if c in enclosed and c not in area:
            area |= component(enclosed, c)
    if area:
        problems.append(BuildingProblem(REMOVE_HOLE, _sorted(area)))
    return problems


def swap_problems(alh: Alhambra, at: Coord, piece: object) -> list[BuildingProblem]:
    """:func:`referee.geometry.rules.swap_problems` on the general path: the new piece lies
    where the old one lay (at its anchor); both are judged on all their cells."""
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    problems: list[BuildingProblem] = []
    locked = lock_problem(alh, at)
    if locked is not None:
        problems.append(locked)
    anchor = alh.anchor_of(at)
    freed = alh.cells_of(at)
    before = _reach(alh)
    trial = alh.copy()
    trial.remove(anchor)
    new = _new_cells(anchor, piece)
    taken = [c for c in new if c in trial.cells]
    if taken:
        return [*problems, BuildingProblem(PLACE_OCCUPIED, _sorted(taken))]
    trial.place(anchor, piece)  # type: ignore[arg-type]
    tc = trial.cells
    others = set(tc) - set(new)
    adjacent, side_problems = _sides_found(tc, trial.layers, new, others)
    if not adjacent:
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
        return problems
    problems += side_problems
    after = _reach(trial)
    if not profile_of(piece).walk_exempt:
        cut = [c for c in new if c not in after]
        if cut:
            problems.append(BuildingProblem(PLACE_WALK, _sorted(cut)))
    lost = [
        c for c in tc if c not in new and c in before and c not in after and not _walk_exempt(tc, c)
    ]
    if lost:
        problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    empty_now = [c for c in freed if c not in tc]
    if empty_now:
        enclosed = trial.geometry.enclosed
        area: set[Coord] = set()
        for c in empty_now:
            if c in enclosed:
                area |= component(enclosed, c)
        if area:
            problems.append(BuildingProblem(REMOVE_HOLE, _sorted(area)))
    return problems


def layout_problems(alh: Alhambra) -> list[BuildingProblem]:
    """:func:`referee.geometry.rules.layout_problems` on the general path (the whole Alhambra
    re-validated: after an added wall, an edge or corner piece added or removed, E21)."""
    cells = alh.cells
    layers = alh.layers
    geo = alh.geometry
    masks = geo.masks
    special = layers.special if layers is not None else {}
    found: dict[str, tuple[set[Coord], list[tuple[Coord, Side]]]] = {}
    for c in _sorted(cells):
        m = masks[c]
        for k, side in _EAST_NORTH:
            n = c.neighbour(side)
            q = masks.get(n)
            if q is None:
                continue
            if c in special or n in special:
                if _same_piece(cells, c, n):
                    continue
                code = side_problem(cells, layers, c, side)
            elif (m >> k & 1) == (q >> ((k + 2) % 4) & 1):  # base pieces: the masks decide
                continue
            else:
                code = PLACE_WALL
            if code is not None:
                bad_cells, bad_sides = found.setdefault(code, (set(), []))
                bad_cells.update((c, n))
                bad_sides.append((c, side))
    problems = [
        BuildingProblem(code, _sorted(found[code][0]), tuple(found[code][1]))
        for code in (PLACE_WALL, PLACE_SIDE, PLACE_CLOSED)
        if code in found
    ]
    front = geo.front
    lonely = [
        c
        for c in cells
        if c != ORIGIN
        and not (front.get(c, 0) & SIDE_RING if c not in special else _touches_other(alh, c))
    ]
    if lonely:
        problems.append(BuildingProblem(PLACE_ADJACENT, _sorted(lonely)))
    reach = _reach(alh)
    lonely_set = set(lonely)
    cut = [
        c for c in cells if c not in reach and c not in lonely_set and not _walk_exempt(cells, c)
    ]
    if cut:
        problems.append(BuildingProblem(PLACE_WALK, _sorted(cut)))
    enclosed = geo.enclosed
    if enclosed:
        problems.append(BuildingProblem(PLACE_HOLE, _sorted(enclosed)))
    return problems


# the east and north sides with their bits in a wall mask (bit k: ``SIDES[k]``)
_EAST_NORTH: tuple[tuple[int, Side], ...] = tuple((SIDES.index(s), s) for s in (Side.E, Side.N))


def _touches_other(alh: Alhambra, c: Coord) -> bool:
    """Whether the piece on ``c`` (all of its cells) touches another piece with a side."""
    cells = alh.cells
    own = alh.cells_of(c)
    return any((n := q.neighbour(s)) in cells and n not in own for q in own for s in SIDES)


def _same_piece(cells: dict[Coord, Any], a: Coord, b: Coord) -> bool:
    pa, pb = cells.get(a), cells.get(b)
    whole_a = getattr(pa, "whole", None)
    return whole_a is not None and whole_a is getattr(pb, "whole", None)


def frontier(alh: Alhambra, piece: object = None) -> list[Coord]:
    """The anchor cells where ``piece`` could lie beside the Alhambra (no rule checked): the
    empty cells beside a tile, for a two-cell piece also those whose second cell is beside
    one. The legal-move generator asks the building rules about these cells only."""
    cells = alh.cells
    front: set[Coord] = set()
    for c in cells:
        for side in SIDES:
            n = c.neighbour(side)
            if n not in cells:
                front.add(n)
    if getattr(piece, "footprint", Footprint.CELL) == Footprint.TWO_CELLS:
        second: Side = piece.second  # type: ignore[attr-defined]
        front |= {c.neighbour(second.opposite) for c in front}
    return sorted((c for c in front if c not in cells), key=lambda c: (-c.y, c.x))


def legal_cells(alh: Alhambra, piece: object) -> list[Coord]:
    """Every anchor cell where ``piece`` may be placed, on the general path (the cells of
    :func:`frontier` the building rules allow).

    A catalogue tile is first judged on its sides alone where the trial of
    :func:`placement_problems` would change nothing but the cell itself (no added walls
    carried by a tile waiting to be placed): the same sides are read through the same function
    (:func:`_sides_found`) on the cells with the tile in them, so a cell failing there
    (``PLACE-ADJACENT`` or a side rule) has a problem and needs no copy of the Alhambra; every
    other cell is judged by :func:`placement_problems` itself."""
    cells = alh.cells
    layers = alh.layers
    if type(piece) is not TileKind or (layers is not None and layers.carried):
        return [c for c in frontier(alh, piece) if not placement_problems(alh, c, piece)]
    out: list[Coord] = []
    existing = set(cells)
    with_tile = dict(cells)  # the cells with the tile on ``c`` (one cell at a time)
    for c in frontier(alh, piece):
        if c in cells:
            continue  # PLACE-OCCUPIED (the frontier holds empty cells only)
        with_tile[c] = piece
        adjacent, side_problems = _sides_found(with_tile, layers, [c], existing)
        del with_tile[c]
        if not adjacent or side_problems:
            continue
        if not placement_problems(alh, c, piece):
            out.append(c)
    return out


def walk_all(alh: Alhambra) -> set[Coord]:
    """The cells reachable on foot (the fountain included) on the general path."""
    layers = alh.layers
    if layers is None:
        return _reach(alh)
    return walk_layered(alh.cells, layers)
