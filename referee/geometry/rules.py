"""The building rules of an Alhambra (``rulebook-base-de-2003.txt``, "Alhambra-Bauregeln").

The rulebook's five rules, and how they are checked here:

- "Alle Gebäudeplättchen haben die gleiche Ausrichtung wie das eigene Startplättchen": tiles are
  never rotated; a piece's ``walls`` are always read as printed, so nothing to check.
- "Es dürfen nur gleiche Seiten aneinandergrenzen, d.h. die sich berührenden Seiten zeigen beide
  eine Stadtmauer oder eben nicht." -> ``PLACE-WALL``.
- "Jedes neue Gebäudeplättchen muss „zu Fuß“ vom Startplättchen aus erreichbar sein, ohne dass
  dabei eine Stadtmauer überquert werden muss oder die Plättchen verlassen werden müssen."
  -> ``PLACE-WALK`` (a step between two touching tiles is possible when neither shows a wall on
  the touching side).
- "Jedes neue Plättchen muss mit mindestens einer Seite an die Alhambra angrenzen (d.h. nicht
  „über Eck“ bauen)." -> ``PLACE-ADJACENT``.
- "Es dürfen keine „Löcher“ (vollständig umbaute leere Bereiche) entstehen." -> ``PLACE-HOLE``
  (an empty area of any size, 4-connected, that cannot reach the outside).

Section "Alhambra umbauen": "Auch nach den Umbaumaßnahmen muss die Alhambra gemäß den Bauregeln
aufgebaut sein. Das Startplättchen darf niemals umgebaut oder entfernt werden." -> removal codes
``REMOVE-FOUNTAIN``, ``REMOVE-EMPTY``, ``REMOVE-WALK`` (a tile can no longer be reached),
``REMOVE-HOLE`` (the freed cell is enclosed); a swap ("Dabei muss das neue Gebäudeplättchen exakt
an die freigewordene Position in der Alhambra gelegt werden") reports ``PLACE-WALL`` and
``PLACE-WALK`` for the new piece and ``REMOVE-WALK`` for other tiles it cuts off.

Every function reports each distinct problem once (one :class:`BuildingProblem` per code, its
``cells`` listing every cell concerned) but not problems implied by another: a piece that
touches no tile is reported ``PLACE-ADJACENT``, not also ``PLACE-WALK``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from referee.catalogue import SIDES, Side
from referee.geometry.grid import ORIGIN, Alhambra, Piece, register_place_updater
from referee.messages import lookup
from referee.record.model import Coord

RULES_FILE = "rulebook-base-de-2003.txt"
SECTION_BUILD = "Alhambra-Bauregeln"
SECTION_REDESIGN = "Alhambra umbauen"

PLACE_OCCUPIED = "PLACE-OCCUPIED"
PLACE_ADJACENT = "PLACE-ADJACENT"
PLACE_WALL = "PLACE-WALL"
PLACE_WALK = "PLACE-WALK"
PLACE_HOLE = "PLACE-HOLE"
REMOVE_FOUNTAIN = "REMOVE-FOUNTAIN"
REMOVE_EMPTY = "REMOVE-EMPTY"
REMOVE_WALK = "REMOVE-WALK"
REMOVE_HOLE = "REMOVE-HOLE"

# code -> rulebook section; the summaries (English, German) are in the message catalogue
# (referee.messages, keys ``GEOMETRY:CODE``).
PROBLEM_SECTION: dict[str, str] = {
    PLACE_OCCUPIED: SECTION_BUILD,
    PLACE_ADJACENT: SECTION_BUILD,
    PLACE_WALL: SECTION_BUILD,
    PLACE_WALK: SECTION_BUILD,
    PLACE_HOLE: SECTION_BUILD,
    REMOVE_FOUNTAIN: SECTION_REDESIGN,
    REMOVE_EMPTY: SECTION_REDESIGN,
    REMOVE_WALK: SECTION_REDESIGN,
    REMOVE_HOLE: SECTION_REDESIGN,
}


@dataclass(frozen=True, slots=True)
class BuildingProblem:
    """One broken building rule.

    ``cells``: the cells involved (the mismatching neighbours, the enclosed empty cells, the
    unreachable tiles, the placed cell for ``PLACE-OCCUPIED``/``PLACE-ADJACENT``...), sorted.
    ``sides``: for wall mismatches, each touching side as ``(cell, side)`` of the piece checked
    (for a whole layout: of the western/southern tile of the pair).
    """

    code: str
    cells: tuple[Coord, ...] = ()
    sides: tuple[tuple[Coord, Side], ...] = ()

    @property
    def section(self) -> str:
        return PROBLEM_SECTION[self.code]

    def text(self, lang: str = "en") -> str:
        """A one-line summary naming the rule, its section and the cells concerned."""
        section = PROBLEM_SECTION[self.code]
        summary = lookup(lang, f"GEOMETRY:{self.code}") or self.code
        where = ", ".join(str(c) for c in self.cells)
        if self.sides:
            where = ", ".join(f"{c} {s.value}" for c, s in self.sides)
        tail = f" ({where})" if where else ""
        return f"{self.code}: {summary}{tail} [{RULES_FILE}, {section}]"


# ------------------------------------------------------------------------------ helpers

_RING: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)  # the 8 cells around a cell, in cyclic order; even indices are the 4 side neighbours
_STEPS: tuple[tuple[Side, int, int, Side], ...] = tuple(
    (s, s.delta[0], s.delta[1], s.opposite) for s in SIDES
)


_new_coord = tuple.__new__  # Coord(x, y) without the named tuple's Python-level __new__


def _key(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


def _sorted(cells: Iterable[Coord]) -> tuple[Coord, ...]:
    return tuple(sorted(cells, key=_key))


def _reach(cells: Mapping[Coord, Piece]) -> set[Coord]:
    """Cells reachable on foot from the fountain (no wall crossed, never off the tiles)."""
    seen = {ORIGIN}
    stack = [ORIGIN]
    get = cells.get
    while stack:
        c = stack.pop()
        x, y = c
        walls = cells[c].walls
        for side, dx, dy, opp in _STEPS:
            if side in walls:
                continue
            t = (x + dx, y + dy)
            if t in seen:
                continue
            q = get(t)  # type: ignore[call-overload]
            if q is None or opp in q.walls:
                continue
            n = _new_coord(Coord, t)
            seen.add(n)
            stack.append(n)
    return seen


def _enclosed(cells: Mapping[Coord, Piece], blocked: Coord | None = None) -> set[Coord]:
    """Empty cells that cannot reach the outside (``blocked`` counts as occupied).

    Bounded by the number of pieces, wherever they lie (even far apart): a cell in a column or
    a row that holds no piece is outside (that column or row is empty all the way out), so only
    the cells at a piece's column *and* a piece's row can be enclosed, at most ``n * n`` cells
    for ``n`` pieces. They are flooded from those next to an outside cell.
    """
    xs = {c.x for c in cells}
    ys = {c.y for c in cells}
    if blocked is not None:
        xs.add(blocked.x)
        ys.add(blocked.y)

    def filled(c: Coord) -> bool:
        return c in cells or c == blocked

    candidates = {Coord(x, y) for x in xs for y in ys}
    candidates = {c for c in candidates if not filled(c)}
    stack = [
        c
        for c in candidates
        if any(
            (n := Coord(c.x + dx, c.y + dy)) not in candidates and not filled(n)
            for _s, dx, dy, _o in _STEPS
        )
    ]
    out = set(stack)
    while stack:
        c = stack.pop()
        for _side, dx, dy, _opp in _STEPS:
            n = Coord(c.x + dx, c.y + dy)
            if n in candidates and n not in out:
                out.add(n)
                stack.append(n)
    return candidates - out


def _component(area: set[Coord], start: Coord) -> set[Coord]:
    """The 4-connected part of ``area`` (a set of enclosed cells) that contains ``start``."""
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for _side, dx, dy, _opp in _STEPS:
            n = Coord(c.x + dx, c.y + dy)
            if n in area and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


_Memo = tuple[set[Coord], set[Coord]]


def _memo(alh: Alhambra) -> tuple[set[Coord], set[Coord]]:
    """(reachable tiles, enclosed empty cells) of the Alhambra, cached until it changes.

    An empty cell that is not enclosed is outside. A placement that keeps the layout legal
    updates the cache instead (:func:`_after_place`).
    """
    cached: _Memo | None = alh.derived.get("rules")  # type: ignore[assignment]
    if cached is None:
        cells = alh.cells
        cached = (_reach(cells), _enclosed(cells))
        alh.derived["rules"] = cached
    return cached[0], cached[1]


def _after_place(alh: Alhambra, value: object, at: Coord, piece: Piece) -> _Memo | None:
    """The cache after ``piece`` was put on ``at``, when that is cheap to know for sure.

    It is, when every tile was reachable before, the new piece is reachable, it stood on an
    outside cell, and its empty neighbours stay connected around it (so no empty cell is cut
    off: the enclosed cells stay as they were). Otherwise: recompute later.
    """
    reach, enclosed = cast(_Memo, value)
    cells = alh.cells
    if at in enclosed or len(reach) != len(cells) - 1:
        return None
    if not _walk_ok(cells, reach, at, piece) or _ring_groups(cells, at) > 1:
        return None
    new_reach = set(reach)
    new_reach.add(at)
    return new_reach, enclosed


register_place_updater("rules", _after_place)


def _ring_groups_of(empty: list[bool]) -> int:
    """How many separate empty groups, each holding a side neighbour, the 8 ring cells form
    (``empty[i]``: ring cell ``_RING[i]`` is empty; consecutive empty ring cells touch)."""
    if all(empty):
        return 1
    # rotate so that the ring starts just after an occupied cell
    start = empty.index(False)
    order = [(start + 1 + i) % 8 for i in range(8)]
    groups = 0
    in_run = False
    run_has_side = False
    for i in order:
        if empty[i]:
            if not in_run:
                in_run = True
                run_has_side = False
            if i % 2 == 0:
                run_has_side = True
        else:
            if in_run and run_has_side:
                groups += 1
            in_run = False
    if in_run and run_has_side:
        groups += 1
    return groups


# the answer of _ring_groups_of for each occupancy of the ring (bit i set: _RING[i] occupied)
_RING_GROUPS: tuple[int, ...] = tuple(
    _ring_groups_of([not (mask >> i) & 1 for i in range(8)]) for mask in range(256)
)


def _ring_groups(cells: Mapping[Coord, Piece], at: Coord) -> int:
    """How many separate empty groups the side neighbours of ``at`` form around it.

    Looking only at the 8 cells around ``at``: consecutive empty ring cells are 4-connected.
    When all empty side neighbours lie in one run, filling ``at`` cannot cut any of them off
    the outside (if ``at`` itself was outside). (A table lookup on the ring's occupancy; the
    cells are probed with plain tuples, which hash and compare like a ``Coord``.)
    """
    x, y = at
    mask = 0
    bit = 1
    for dx, dy in _RING:
        if (x + dx, y + dy) in cells:
            mask |= bit
        bit <<= 1
    return _RING_GROUPS[mask]


def _new_holes(
    cells: Mapping[Coord, Piece], at: Coord, enclosed: set[Coord] | None
) -> list[set[Coord]]:
    """Enclosed empty areas next to ``at`` once ``at`` is filled (``cells`` without ``at``).

    ``enclosed``: the enclosed cells before filling (None: unknown, compute).
    """
    x, y = at
    if (x, y + 1) in cells and (x + 1, y) in cells and (x, y - 1) in cells and (x - 1, y) in cells:
        return []
    if enclosed is not None and at not in enclosed and _ring_groups(cells, at) <= 1:
        return []
    empties = [Coord(x + dx, y + dy) for _s, dx, dy, _o in _STEPS]
    empties = [n for n in empties if n not in cells]
    after = _enclosed(cells, blocked=at)
    found: list[set[Coord]] = []
    for n in empties:
        if n not in after or any(n in h for h in found):
            continue
        found.append(_component(after, n))
    return found


def _wall_mismatches(
    cells: Mapping[Coord, Piece], at: Coord, piece: Piece
) -> tuple[list[Coord], list[tuple[Coord, Side]]]:
    bad_cells: list[Coord] = []
    bad_sides: list[tuple[Coord, Side]] = []
    walls = piece.walls
    x, y = at
    get = cells.get
    for side, dx, dy, opp in _STEPS:
        q = get((x + dx, y + dy))  # type: ignore[call-overload]
        if q is not None and (side in walls) != (opp in q.walls):
            bad_cells.append(Coord(x + dx, y + dy))
            bad_sides.append((at, side))
    return bad_cells, bad_sides


def _walk_ok(cells: Mapping[Coord, Piece], reach: set[Coord], at: Coord, piece: Piece) -> bool:
    walls = piece.walls
    x, y = at
    for side, dx, dy, opp in _STEPS:
        if side in walls:
            continue
        n = (x + dx, y + dy)
        if n not in reach:
            continue
        q = cells.get(n)
        if q is not None and opp not in q.walls:
            return True
    return False


def _has_neighbour(cells: Mapping[Coord, Piece], at: Coord) -> bool:
    x, y = at
    return (x, y + 1) in cells or (x + 1, y) in cells or (x, y - 1) in cells or (x - 1, y) in cells


# ---------------------------------------------------------------------------- the API


def reachable(alh: Alhambra) -> frozenset[Coord]:
    """Every cell reachable on foot from the fountain (the fountain included)."""
    return frozenset(_memo(alh)[0])


def holes(alh: Alhambra) -> list[tuple[Coord, ...]]:
    """Every completely enclosed empty area (4-connected empty cells that cannot reach out)."""
    enclosed = _memo(alh)[1]
    found: list[tuple[Coord, ...]] = []
    seen: set[Coord] = set()
    for c in _sorted(enclosed):
        if c in seen:
            continue
        comp = _component(enclosed, c)
        seen |= comp
        found.append(_sorted(comp))
    return found


def placement_problems(alh: Alhambra, at: Coord, piece: Piece) -> list[BuildingProblem]:
    """What is wrong with putting ``piece`` on ``at`` (empty list: allowed)."""
    cells = alh.cells
    if at in cells:
        return [BuildingProblem(PLACE_OCCUPIED, (at,))]
    reach, enclosed = _memo(alh)
    problems: list[BuildingProblem] = []
    # one pass over the four sides: a neighbour at all, matching walls, a way on foot
    walls = piece.walls
    x, y = at
    get = cells.get
    adjacent = walk = False
    bad_cells: list[Coord] = []
    bad_sides: list[tuple[Coord, Side]] = []
    for side, dx, dy, opp in _STEPS:
        n = (x + dx, y + dy)
        q = get(n)  # type: ignore[call-overload]
        if q is None:
            continue
        adjacent = True
        closed = side in walls
        if closed != (opp in q.walls):
            bad_cells.append(Coord(x + dx, y + dy))
            bad_sides.append((at, side))
        elif not closed and not walk and n in reach:
            walk = True
    if not adjacent:
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        if bad_cells:
            problems.append(BuildingProblem(PLACE_WALL, _sorted(bad_cells), tuple(bad_sides)))
        if not walk:
            problems.append(BuildingProblem(PLACE_WALK, (at,)))
    found = _new_holes(cells, at, enclosed)
    if found:
        problems.append(BuildingProblem(PLACE_HOLE, _sorted(set().union(*found))))
    return problems


def removal_problems(alh: Alhambra, at: Coord) -> list[BuildingProblem]:
    """What is wrong with taking the tile on ``at`` out of the Alhambra (empty list: allowed)."""
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    reach, _enclosed_before = _memo(alh)
    rest = dict(cells)
    del rest[at]
    problems: list[BuildingProblem] = []
    after = _reach(rest)
    lost = [c for c in rest if c in reach and c not in after]
    if lost:
        problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    enclosed = _enclosed(rest)
    if at in enclosed:
        problems.append(BuildingProblem(REMOVE_HOLE, _sorted(_component(enclosed, at))))
    return problems


def swap_problems(alh: Alhambra, at: Coord, piece: Piece) -> list[BuildingProblem]:
    """What is wrong with replacing the tile on ``at`` by ``piece`` (empty list: allowed).

    The new piece lies exactly where the old one lay; the result must satisfy the building
    rules: its sides must match its neighbours (``PLACE-WALL``), it must be reachable
    (``PLACE-WALK``) and no other tile may be cut off (``REMOVE-WALK``). The cell stays
    occupied, so no hole can open or close.
    """
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    reach, _enclosed_before = _memo(alh)
    rest = dict(cells)
    rest[at] = piece
    problems: list[BuildingProblem] = []
    if not _has_neighbour(cells, at):
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        bad_cells, bad_sides = _wall_mismatches(cells, at, piece)
        if bad_cells:
            problems.append(BuildingProblem(PLACE_WALL, _sorted(bad_cells), tuple(bad_sides)))
        after = _reach(rest)
        if at not in after:
            problems.append(BuildingProblem(PLACE_WALK, (at,)))
        lost = [c for c in rest if c != at and c in reach and c not in after]
        if lost:
            problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    return problems


def layout_problems(alh: Alhambra) -> list[BuildingProblem]:
    """Every building rule a whole layout breaks (for positions typed in).

    ``PLACE-WALL``: every touching pair that does not match (the side is given from the
    western/southern tile of the pair); ``PLACE-ADJACENT``: tiles touching no other tile;
    ``PLACE-WALK``: other tiles that cannot be reached on foot; ``PLACE-HOLE``: every enclosed
    empty area.
    """
    cells = alh.cells
    problems: list[BuildingProblem] = []
    bad_cells: set[Coord] = set()
    bad_sides: list[tuple[Coord, Side]] = []
    for c in _sorted(cells):
        walls = cells[c].walls
        for side in (Side.E, Side.N):
            n = c.neighbour(side)
            q = cells.get(n)
            if q is not None and (side in walls) != (side.opposite in q.walls):
                bad_cells.update((c, n))
                bad_sides.append((c, side))
    if bad_sides:
        problems.append(BuildingProblem(PLACE_WALL, _sorted(bad_cells), tuple(bad_sides)))
    lonely = [c for c in cells if c != ORIGIN and not _has_neighbour(cells, c)]
    if lonely:
        problems.append(BuildingProblem(PLACE_ADJACENT, _sorted(lonely)))
    reach = _memo(alh)[0]
    lonely_set = set(lonely)
    cut = [c for c in cells if c not in reach and c not in lonely_set]
    if cut:
        problems.append(BuildingProblem(PLACE_WALK, _sorted(cut)))
    found = holes(alh)
    if found:
        problems.append(BuildingProblem(PLACE_HOLE, _sorted(c for h in found for c in h)))
    return problems


def legal_cells(alh: Alhambra, piece: Piece) -> list[Coord]:
    """Every empty cell where ``piece`` may be placed (``placement_problems`` empty)."""
    cells = alh.cells
    reach, enclosed = _memo(alh)
    candidates: set[Coord] = set()
    for c in cells:
        for _s, dx, dy, _o in _STEPS:
            n = Coord(c.x + dx, c.y + dy)
            if n not in cells:
                candidates.add(n)
    result: list[Coord] = []
    walls = piece.walls
    for at in candidates:
        ok = True
        for side, dx, dy, opp in _STEPS:
            q = cells.get(Coord(at.x + dx, at.y + dy))
            if q is not None and (side in walls) != (opp in q.walls):
                ok = False
                break
        if not ok or not _walk_ok(cells, reach, at, piece):
            continue
        if _new_holes(cells, at, enclosed):
            continue
        result.append(at)
    result.sort(key=_key)
    return result
