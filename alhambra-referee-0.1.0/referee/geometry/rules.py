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
from referee.geometry.grid import ORIGIN, Alhambra, Piece
from referee.geometry.incremental import (
    BITS,
    DELTAS,
    RING,
    RING_GROUPS,
    SIDE_RING,
    Geometry,
    component,
    enclosed_cells,
    ring_keeps,
    walk,
    wall_mask,
)
from referee.geometry.layers import is_special
from referee.messages import lookup
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_FILE = "rulebook-base-de-2003.txt"
SECTION_BUILD = "Alhambra-Bauregeln"
SECTION_REDESIGN = "Alhambra umbauen"

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

# the rules of the rule profiles and the layers (E20-E24): code -> (rulebook file, section);
# their summaries are registered by referee.engine.actions.layer_rules
LAYER_SECTION: dict[str, tuple[str, str]] = {
    PLACE_SIDE: ("rulebook-bigbox-de-2019.txt", "Die Feldlager"),
    PLACE_CLOSED: ("rulebook-bigbox-de-2019.txt", "Die Wachtürme"),
    REMOVE_LOCKED: ("rulebook-bigbox-de-2019.txt", "Die Tore der Stadt"),
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
        found = PROBLEM_SECTION.get(self.code)
        if found is None and self.code not in LAYER_SECTION:
            return _module_rule(self.code)[0]  # a module's own building rule
        return LAYER_SECTION[self.code][1] if found is None else found

    def text(self, lang: str = "en") -> str:
        """A one-line summary naming the rule, its section and the cells concerned."""
        section = self.section
        source = LAYER_SECTION[self.code][0] if self.code in LAYER_SECTION else RULES_FILE
        summary = lookup(lang, f"GEOMETRY:{self.code}") or self.code
        if self.code not in PROBLEM_SECTION and self.code not in LAYER_SECTION:
            section, name_en, name_de = _module_rule(self.code)
            source, section = section, ""
            summary = name_de if lang == "de" else name_en
        if not section:
            where = ", ".join(str(c) for c in self.cells)
            tail = f" ({where})" if where else ""
            return f"{self.code}: {summary}{tail} [{source}]"
        where = ", ".join(str(c) for c in self.cells)
        if self.sides:
            where = ", ".join(f"{c} {s.value}" for c, s in self.sides)
        tail = f" ({where})" if where else ""
        return f"{self.code}: {summary}{tail} [{source}, {section}]"


def _module_rule(code: str) -> tuple[str, str, str]:
    """The source and names of a module's registered rule (a module's own building rule)."""
    from referee.engine.rules import RULES

    r = RULES.get(code)
    return (r.section, r.name_en, r.name_de) if r is not None else ("", code, code)


# ------------------------------------------------------------------------------ helpers

_STEPS: tuple[tuple[Side, int, int, Side], ...] = tuple(
    (s, s.delta[0], s.delta[1], s.opposite) for s in SIDES
)


def _key(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


def _sorted(cells: Iterable[Coord]) -> tuple[Coord, ...]:
    return tuple(sorted(cells, key=_key))


def _ring_groups(cells: Mapping[Coord, Piece], at: Coord) -> int:
    """How many separate empty groups the side neighbours of ``at`` form around it
    (:data:`~referee.geometry.incremental.RING_GROUPS`, read on the cells)."""
    x, y = at
    mask = 0
    bit = 1
    for dx, dy in RING:
        if (x + dx, y + dy) in cells:
            mask |= bit
        bit <<= 1
    return RING_GROUPS[mask]


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
    after = enclosed_cells(cells, blocked=at)
    found: list[set[Coord]] = []
    for n in empties:
        if n not in after or any(n in h for h in found):
            continue
        found.append(component(after, n))
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


_NO, _YES, _HOLES = 0, 1, 2  # answers of _fits


def _fits(geo: Geometry, at: Coord, f: int, m: int) -> int:
    """Whether a piece with walls ``m`` may lie on the empty cell ``at`` (``f``: its front
    entry), checked on ints: ``_YES``; ``_NO`` (a problem); ``_HOLES``: walls and way are
    right, but filling the cell may enclose empty cells (:func:`_new_holes` tells)."""
    if not f & SIDE_RING:
        return _NO  # touches no tile
    shut = (f >> 8) & 15  # sides whose neighbour shows a wall towards ``at``
    open_ = (f >> 12) & 15  # sides whose neighbour is open towards ``at``
    if m & (shut | open_) != shut:
        return _NO  # a wall meets an open side
    steps = open_ & ~m  # sides open on both
    if not steps:
        return _NO
    reach = geo.reach
    if reach is not None:
        x, y = at
        for k, (dx, dy) in enumerate(DELTAS):
            if steps >> k & 1 and (x + dx, y + dy) in reach:
                break
        else:
            return _NO
    if f & SIDE_RING == SIDE_RING or (RING_GROUPS[f & 0xFF] <= 1 and at not in geo.enclosed):
        return _YES  # no empty cell beside it is cut off from the others (see RING_GROUPS)
    return _HOLES


def _has_neighbour(cells: Mapping[Coord, Piece], at: Coord) -> bool:
    x, y = at
    return (x, y + 1) in cells or (x + 1, y) in cells or (x, y - 1) in cells or (x - 1, y) in cells


def _general(alh: Alhambra, piece: object = None) -> bool:
    """Whether the general path (:mod:`referee.geometry.general`) answers: a layer holds
    something, or the piece has a rule profile or another footprint than one cell."""
    return alh.layered or (piece is not None and type(piece) is not TileKind and is_special(piece))


def _general_path() -> Any:
    from referee.geometry import general

    return general


# ---------------------------------------------------------------------------- the API


def reachable(alh: Alhambra) -> frozenset[Coord]:
    """Every cell reachable on foot from the fountain (the fountain included)."""
    reach = alh.geometry.reach
    return frozenset(alh.cells if reach is None else reach)


def holes(alh: Alhambra) -> list[tuple[Coord, ...]]:
    """Every completely enclosed empty area (4-connected empty cells that cannot reach out)."""
    enclosed = alh.geometry.enclosed
    found: list[tuple[Coord, ...]] = []
    seen: set[Coord] = set()
    for c in _sorted(enclosed):
        if c in seen:
            continue
        comp = component(enclosed, c)
        seen |= comp
        found.append(_sorted(comp))
    return found


def placement_fits(alh: Alhambra, at: Coord, piece: Piece) -> bool:
    """True when :func:`placement_problems` is surely empty, answered on ints (False: it may
    not be; ask it)."""
    if at in alh.cells or alh._layers is not None:
        return False
    if type(piece) is not TileKind and is_special(piece):
        return False
    geo = alh.geometry
    return _fits(geo, at, geo.front.get(at, 0), wall_mask(piece.walls)) == _YES


def placement_problems(alh: Alhambra, at: Coord, piece: Piece) -> list[BuildingProblem]:
    """What is wrong with putting ``piece`` on ``at`` (empty list: allowed)."""
    # the general path for a layered Alhambra or a special piece (the checks inlined: this is
    # the hot path of every placement)
    if alh._layers is not None or (type(piece) is not TileKind and is_special(piece)):
        return _general_path().placement_problems(alh, at, piece)
    cells = alh.cells
    if at in cells:
        return [BuildingProblem(PLACE_OCCUPIED, (at,))]
    geo = alh.geometry
    if _fits(geo, at, geo.front.get(at, 0), wall_mask(piece.walls)) == _YES:
        return []
    # something is wrong (or a hole may open): the detailed check, naming cells and sides
    reach: Mapping[Coord, object] | set[Coord] = cells if geo.reach is None else geo.reach
    problems: list[BuildingProblem] = []
    # one pass over the four sides: a neighbour at all, matching walls, a way on foot
    walls = piece.walls
    x, y = at
    get = cells.get
    adjacent = walk_ok = False
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
        elif not closed and not walk_ok and n in reach:
            walk_ok = True
    if not adjacent:
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        if bad_cells:
            problems.append(BuildingProblem(PLACE_WALL, _sorted(bad_cells), tuple(bad_sides)))
        if not walk_ok:
            problems.append(BuildingProblem(PLACE_WALK, (at,)))
    found = _new_holes(cells, at, geo.enclosed)
    if found:
        problems.append(BuildingProblem(PLACE_HOLE, _sorted(set().union(*found))))
    return problems


def _lost(alh: Alhambra, after: set[Coord], at: Coord) -> list[Coord]:
    """The tiles other than ``at`` reachable now but not in ``after``."""
    geo = alh.geometry
    return [c for c in alh.cells if c != at and geo.reaches(c) and c not in after]


def removal_problems(alh: Alhambra, at: Coord) -> list[BuildingProblem]:
    """What is wrong with taking the tile on ``at`` out of the Alhambra (empty list: allowed)."""
    if alh._layers is not None:
        return _general_path().removal_problems(alh, at)
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    geo = alh.geometry
    problems: list[BuildingProblem] = []
    # every tile is reachable and none through this one (a dead end): none is cut off
    # (or the ways through it go round it: ring_keeps)
    steps = geo.steps(at, geo.masks[at])
    if geo.reach is not None or (BITS[steps] > 1 and not ring_keeps(geo.masks, at, steps)):
        lost = _lost(alh, geo.walk_without(at), at)
        if lost:
            problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    # the freed cell is enclosed when no empty cell beside it is outside
    enclosed = geo.enclosed
    x, y = at
    # (plain tuples: a Coord is one, with the same hash and equality)
    beside = [(x + dx, y + dy) for dx, dy in DELTAS]
    if all(c in cells or c in enclosed for c in beside):
        area = component(enclosed | {at}, at)
        problems.append(BuildingProblem(REMOVE_HOLE, _sorted(area)))
    return problems


def swap_problems(alh: Alhambra, at: Coord, piece: Piece) -> list[BuildingProblem]:
    """What is wrong with replacing the tile on ``at`` by ``piece`` (empty list: allowed).

    The new piece lies exactly where the old one lay; the result must satisfy the building
    rules: its sides must match its neighbours (``PLACE-WALL``), it must be reachable
    (``PLACE-WALK``) and no other tile may be cut off (``REMOVE-WALK``). The cell stays
    occupied, so no hole can open or close.
    """
    if _general(alh, piece):
        return _general_path().swap_problems(alh, at, piece)
    if at == ORIGIN:
        return [BuildingProblem(REMOVE_FOUNTAIN, (at,))]
    cells = alh.cells
    if at not in cells:
        return [BuildingProblem(REMOVE_EMPTY, (at,))]
    problems: list[BuildingProblem] = []
    if not _has_neighbour(cells, at):
        problems.append(BuildingProblem(PLACE_ADJACENT, (at,)))
    else:
        bad_cells, bad_sides = _wall_mismatches(cells, at, piece)
        if bad_cells:
            problems.append(BuildingProblem(PLACE_WALL, _sorted(bad_cells), tuple(bad_sides)))
        geo = alh.geometry
        m = wall_mask(piece.walls)
        before = geo.steps(at, geo.masks[at])
        if geo.reach is None and before and before & geo.steps(at, m) == before:
            return problems  # every tile was reachable and the new piece keeps every way
        after = walk(geo.masks, skip=at, at_mask=m)
        if at not in after:
            problems.append(BuildingProblem(PLACE_WALK, (at,)))
        lost = _lost(alh, after, at)
        if lost:
            problems.append(BuildingProblem(REMOVE_WALK, _sorted(lost)))
    return problems


def layout_problems(alh: Alhambra) -> list[BuildingProblem]:
    """Every building rule a whole layout breaks (for positions typed in).

    ``PLACE-WALL``: every touching pair that does not match (the side is given from the
    western/southern tile of the pair); ``PLACE-ADJACENT``: tiles touching no other tile;
    ``PLACE-WALK``: other tiles that cannot be reached on foot; ``PLACE-HOLE``: every enclosed
    empty area. On a layered Alhambra also the rules of the rule profiles (``PLACE-SIDE``,
    ``PLACE-CLOSED``), every side read through the effective walls.
    """
    if alh._layers is not None:
        return _general_path().layout_problems(alh)
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
    geo = alh.geometry
    lonely_set = set(lonely)
    cut = [c for c in cells if not geo.reaches(c) and c not in lonely_set]
    if cut:
        problems.append(BuildingProblem(PLACE_WALK, _sorted(cut)))
    found = holes(alh)
    if found:
        problems.append(BuildingProblem(PLACE_HOLE, _sorted(c for h in found for c in h)))
    return problems


def legal_cells(alh: Alhambra, piece: Piece) -> list[Coord]:
    """Every empty cell where ``piece`` may be placed (``placement_problems`` empty)."""
    if _general(alh, piece):
        return _general_path().legal_cells(alh, piece)
    cells = alh.cells
    geo = alh.geometry
    m = wall_mask(piece.walls)
    result: list[Coord] = []
    for c, f in geo.front.items():
        if not f & SIDE_RING or c in cells:
            continue
        at = Coord(*c)
        fits = _fits(geo, at, f, m)
        if fits == _YES or (fits == _HOLES and not _new_holes(cells, at, geo.enclosed)):
            result.append(at)
    result.sort(key=_key)
    return result


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
