"""Outer wall runs (``rulebook-base-de-2003.txt``, "Siegpunkte für die Außenmauern").

"Außer den Punkten für Gebäudemehrheiten erhält jeder Spieler Punkte für sein längstes
zusammenhängendes Stück Außenmauer. Jede Plättchenkante mit einem Stück Außenmauer bringt
1 Punkt. Doppelt liegende Stadtmauern, also Innenmauern, bringen keine Siegpunkte."

A *segment* is a tile side showing a wall whose neighbouring cell is empty. Segments are the
edges of a graph whose vertices are grid corners (cell ``x,y`` spans the corners ``x..x+1`` by
``y..y+1``). A wall between two tiles is no segment, so it breaks a run. Two modes:

- ``"trail"`` (default): the longest run using each segment at most once; a corner may be
  passed twice (where two walls cross at a corner). A closed ring of N segments counts N.
- ``"simple-path"``: no corner visited twice, so a closed ring of N segments counts N - 1
  (how one online implementation counts; profile parameter ``wall_run``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from referee.catalogue import SIDES, Side
from referee.geometry.grid import Alhambra
from referee.geometry.incremental import DELTAS
from referee.geometry.layers import edge_cells
from referee.geometry.pieces import Diagonal, diagonal_of, profile_of
from referee.record.model import Coord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal, TypeAlias


WallMode: TypeAlias = 'Literal["trail", "simple-path"]'
Segment = tuple[Coord, Side | Diagonal]
"""A segment of wall: a cell and its side, or a cell and its diagonal (a half piece's wall,
from corner to corner across the cell: it counts one segment like a side)."""
Corner = tuple[int, int]


@dataclass(frozen=True, slots=True)
class WallRun:
    """One connected run of outer wall: its segments in order along the wall."""

    segments: tuple[Segment, ...]
    closed: bool = field(default=False)

    @property
    def length(self) -> int:
        return len(self.segments)


def _ends(c: Coord, side: Side | Diagonal) -> tuple[Corner, Corner]:
    x, y = c.x, c.y
    if side is Diagonal.SW_NE:
        return (x, y), (x + 1, y + 1)
    if side is Diagonal.NW_SE:
        return (x, y + 1), (x + 1, y)
    if side is Side.N:
        return (x, y + 1), (x + 1, y + 1)
    if side is Side.S:
        return (x, y), (x + 1, y)
    if side is Side.E:
        return (x + 1, y), (x + 1, y + 1)
    return (x, y), (x, y + 1)


# the corners (dx1, dy1, dx2, dy2) a side of cell x,y runs between, as in _ends
_END_OFFSETS: Final[dict[Side | Diagonal, tuple[int, int, int, int]]] = {
    s: (a[0], a[1], b[0], b[1]) for s in (*Side, *Diagonal) for a, b in [_ends(Coord(0, 0), s)]
}
_SIDE_ORDER: Final[dict[Side | Diagonal, int]] = {
    Side.N: 0,
    Side.E: 1,
    Side.S: 2,
    Side.W: 3,
    Diagonal.SW_NE: 4,
    Diagonal.NW_SE: 5,
}
_DELTA: Final = {s: s.delta for s in Side}


def outer_segments(alh: Alhambra) -> list[Segment]:
    """Every tile side that shows a wall and faces an empty cell, in reading order.

    On a layered Alhambra every side is read through the effective walls
    (:func:`~referee.geometry.layers.wall_between`: added walls, walls of edge pieces, pieces
    transparent for the outer wall) and a half piece adds its diagonal wall."""
    if alh._layers is not None:
        return _layered_segments(alh)
    cells = alh.cells
    found: list[tuple[int, int, int, Segment]] = []
    order = _SIDE_ORDER
    delta = _DELTA
    for c, piece in cells.items():
        walls = piece.walls
        if not walls:
            continue  # the fountain (and any piece without walls)
        x, y = c
        for side in walls:
            dx, dy = delta[side]
            if (x + dx, y + dy) not in cells:
                found.append((-y, x, order[side], (c, side)))
    found.sort()  # (-y, x, side order) is unique per segment: the segment is never compared
    return [f[3] for f in found]


def _layered_segments(alh: Alhambra) -> list[Segment]:
    """:func:`outer_segments` of a layered Alhambra: a side is outer where
    :func:`~referee.geometry.layers.wall_between` says so -- a wall of the tile (its effective
    walls: the kept mask) or of an edge piece, the tile not transparent for the outer wall, no
    tile or a transparent one beside it; read off the kept masks, the edge pieces and the
    special pieces (only they can be transparent)."""
    cells = alh.cells
    layers = alh.layers
    masks = alh.geometry.masks
    special = layers.special if layers is not None else {}
    clear = {c for c, p in special.items() if profile_of(p).transparent}
    on_edges: set[tuple[Coord, Side]] = set()
    if layers is not None:
        for edge, piece in layers.edges.items():
            if getattr(piece, "adds_wall", False):
                a, b = edge_cells(edge)
                on_edges.add((a, edge[1]))
                on_edges.add((b, edge[1].opposite))
    found: dict[Segment, tuple[int, int, int]] = {}
    for c, m in masks.items():
        if c not in clear and (m or on_edges):
            x, y = c
            for k, side in enumerate(SIDES):
                if m >> k & 1 or (c, side) in on_edges:
                    dx, dy = DELTAS[k]
                    n = (x + dx, y + dy)
                    if n not in cells or n in clear:
                        found[(c, side)] = (-y, x, _SIDE_ORDER[side])
        if c in special:
            d = diagonal_of(cells[c])
            if d is not None:
                found[(c, d)] = (-c.y, c.x, _SIDE_ORDER[d])
    if layers is not None:
        # a wall an edge piece adds on an edge with a tile on one side only
        for edge, piece in layers.edges.items():
            if not getattr(piece, "adds_wall", False):
                continue
            a, b = edge_cells(edge)
            c, side = (a, edge[1]) if a in cells else (b, edge[1].opposite)
            if c in cells and (c.neighbour(side) not in cells):
                found.setdefault((c, side), (-c.y, c.x, _SIDE_ORDER[side]))
    return sorted(found, key=found.__getitem__)


@dataclass
class _Chain:
    """A maximal path of segments whose inner corners have degree 2."""

    a: Corner
    b: Corner
    edges: list[int]  # segment indices from a to b


class _Graph:
    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments
        ends: list[tuple[Corner, Corner]] = []
        adj: dict[Corner, list[int]] = defaultdict(list)
        offsets = _END_OFFSETS
        for i, (c, side) in enumerate(segments):
            x, y = c
            ax, ay, bx, by = offsets[side]
            p, q = (x + ax, y + ay), (x + bx, y + by)
            ends.append((p, q))
            adj[p].append(i)
            adj[q].append(i)
        self.ends = ends
        self.adj = adj

    def other(self, edge: int, corner: Corner) -> Corner:
        p, q = self.ends[edge]
        return q if p == corner else p

    def components(self) -> list[list[int]]:
        seen: set[int] = set()
        comps: list[list[int]] = []
        for start in range(len(self.segments)):
            if start in seen:
                continue
            comp: list[int] = []
            stack = [start]
            seen.add(start)
            while stack:
                e = stack.pop()
                comp.append(e)
                for corner in self.ends[e]:
                    for f in self.adj[corner]:
                        if f not in seen:
                            seen.add(f)
                            stack.append(f)
            comps.append(sorted(comp))
        return comps

    def chains(self, comp: list[int]) -> tuple[list[_Chain], list[Corner]]:
        """Split a component into chains between junctions (corners of degree != 2)."""
        ends, adj = self.ends, self.adj
        corners = set()
        for e in comp:
            p, q = ends[e]
            corners.add(p)
            corners.add(q)
        junctions = sorted(c for c in corners if len(adj[c]) != 2)
        used: set[int] = set()
        chains: list[_Chain] = []
        for j in junctions:
            for e in adj[j]:
                if e in used:
                    continue
                edges = [e]
                used.add(e)
                p, q = ends[e]
                cur = q if p == j else p
                last = e
                while len(here := adj[cur]) == 2:
                    nxt = here[1] if here[0] == last else here[0]  # the other edge at cur
                    if nxt in used:  # pragma: no cover - only in a junction-free ring
                        break
                    edges.append(nxt)
                    used.add(nxt)
                    p, q = ends[nxt]
                    cur = q if p == cur else p
                    last = nxt
                chains.append(_Chain(j, cur, edges))
        return chains, junctions

    def ring(self, comp: list[int]) -> list[int]:
        """A junction-free component (a simple ring) in order along the ring."""
        start = comp[0]
        order = [start]
        corner = self.ends[start][1]
        while True:
            nxt = next(f for f in self.adj[corner] if f != order[-1])
            if nxt == start:
                break
            order.append(nxt)
            corner = self.other(nxt, corner)
        return order


def _longest(chains: list[_Chain], junctions: list[Corner], simple: bool) -> tuple[list[int], bool]:
    """The longest run over a chain graph: segment indices in order, and whether it closes."""
    at: dict[Corner, list[int]] = defaultdict(list)
    for i, ch in enumerate(chains):
        at[ch.a].append(i)
        if ch.b != ch.a:
            at[ch.b].append(i)
        else:
            at[ch.a].append(i)  # a loop leaves and enters the same junction
    best: list[list[int]] = [[]]
    best_len = [0]

    def walk(chain: int, start: Corner) -> list[int]:
        ch = chains[chain]
        return list(ch.edges) if start == ch.a else list(reversed(ch.edges))

    def dfs(cur: Corner, used: set[int], visited: set[Corner], path: list[int]) -> None:
        if len(path) > best_len[0]:
            best_len[0] = len(path)
            best[0] = list(path)
        for ci in dict.fromkeys(at[cur]):
            if ci in used:
                continue
            ch = chains[ci]
            nxt = ch.b if ch.a == cur else ch.a
            edges = walk(ci, cur)
            if simple and (nxt in visited):
                # a path may run into the chain but must stop before the visited corner
                partial = edges[:-1]
                if len(path) + len(partial) > best_len[0]:
                    best_len[0] = len(path) + len(partial)
                    best[0] = path + partial
                continue
            used.add(ci)
            visited.add(nxt)
            dfs(nxt, used, visited, path + edges)
            visited.discard(nxt)
            used.discard(ci)

    for j in junctions:
        dfs(j, set(), {j}, [])
    if simple:
        # a path may also start inside a chain, next to its far end, and run to the junction
        for ci, ch in enumerate(chains):
            for start, end in ((ch.a, ch.b), (ch.b, ch.a)):
                edges = walk(ci, start)[1:]
                if edges:
                    dfs(end, {ci}, {end}, edges)
    run = best[0]
    return run, False


def outer_wall_runs(alh: Alhambra, mode: WallMode = "trail") -> list[WallRun]:
    """The longest run of each connected piece of outer wall, longest first.

    Ties keep reading order (the run whose first segment comes first in reading order).
    """
    return wall_runs(outer_segments(alh), mode)


def wall_runs(segments: list[Segment], mode: WallMode = "trail") -> list[WallRun]:
    """The longest run of each connected piece of a set of wall segments, longest first (the
    outer wall, or what is left of it once a run is taken away: ``geometry.queries``)."""
    if mode not in ("trail", "simple-path"):
        raise ValueError(f"unknown wall mode {mode!r}")
    simple = mode == "simple-path"
    graph = _Graph(segments)
    runs: list[tuple[int, int, WallRun]] = []
    for comp in graph.components():
        run = _run_of(graph, comp, simple)
        runs.append((-run.length, min(comp), run))
    runs.sort(key=lambda r: (r[0], r[1]))
    return [r[2] for r in runs]


def _run_of(graph: _Graph, comp: list[int], simple: bool) -> WallRun:
    """The longest run of one connected piece (``comp``: its segment indices, sorted)."""
    segments = graph.segments
    chains, junctions = graph.chains(comp)
    if not junctions:
        order = graph.ring(comp)
        if simple:
            order = order[:-1]
        return WallRun(tuple(segments[i] for i in order), closed=not simple)
    if len(chains) == 1 and chains[0].a != chains[0].b:
        order = chains[0].edges  # a plain path: the whole of it, from its first end
    else:
        order, _closed = _longest(chains, junctions, simple)
    closed = False
    if order and not simple and len(order) > 1:
        first, last = graph.ends[order[0]], graph.ends[order[-1]]
        start = first[0] if first[1] in graph.ends[order[1]] else first[1]
        before = graph.ends[order[-2]]
        end = last[1] if last[0] in before else last[0]
        closed = start == end
    return WallRun(tuple(segments[i] for i in order), closed=closed)


def longest_wall_run(segments: list[Segment], mode: WallMode = "trail") -> WallRun:
    """``wall_runs(segments, mode)[0]`` (an empty run when there are no segments), working out
    only the pieces of wall that can hold it: a piece's run is at most as long as the piece, so
    the pieces are taken largest first and the search stops at the first one too small."""
    if mode not in ("trail", "simple-path"):
        raise ValueError(f"unknown wall mode {mode!r}")
    simple = mode == "simple-path"
    graph = _Graph(segments)
    comps = graph.components()
    comps.sort(key=lambda comp: (-len(comp), comp[0]))
    best: WallRun | None = None
    best_key = (1, 0)
    for comp in comps:
        if best is not None and len(comp) < best.length:
            break
        run = _run_of(graph, comp, simple)
        key = (-run.length, comp[0])
        if best is None or key < best_key:
            best, best_key = run, key
    return best if best is not None else WallRun(())


def longest_outer_wall(alh: Alhambra, mode: WallMode = "trail") -> WallRun:
    """The longest outer wall run (empty when there is no outer wall)."""
    if mode not in ("trail", "simple-path"):
        raise ValueError(f"unknown wall mode {mode!r}")
    run = None if alh._layers is not None else _plain_longest(alh, mode == "simple-path")
    return run if run is not None else longest_wall_run(outer_segments(alh), mode)


def longest_runs(alh: Alhambra, mode: WallMode = "trail") -> list[WallRun]:
    """Every run as long as the longest outer wall, one per connected piece of wall, in
    reading order: the runs a player may choose among when several are equally long (E25,
    Wachtürme: "Besitzt ein Spieler mehrere gleichlange längste Mauerabschnitte, wählt er
    einen davon aus, den er wertet")."""
    found = outer_wall_runs(alh, mode)
    if not found:
        return []
    return [r for r in found if r.length == found[0].length]


def chosen_longest(alh: Alhambra, segment: Segment, mode: WallMode = "trail") -> WallRun | None:
    """The longest run the player chose by naming one of its segments (N10: ``longest @x,y
    n``); None when no equally long longest run holds that segment."""
    for run in longest_runs(alh, mode):
        if segment in run.segments:
            return run
    return None


# Corners as ints for :func:`_plain_longest` (-_BOUND <= coordinate < _BOUND): a corner x,y
# is x * _K + y, so ints order as the (x, y) tuples; a cell's reading-order key (-y, x) is
# (-y) * _K + x.
_K: Final = 1 << 12
_BOUND: Final = 1 << 10
_OUT_OF_RANGE: Final = 11  # ((x + _BOUND) | (y + _BOUND)) >> 11 is 0 exactly when both are in range
# per 4-bit wall mask (bit k: a wall on side SIDES[k], as in the kept geometry): per wall, in
# reading order (SIDES is N, E, S, W), the side and the two corners' offsets (as in _ends)
_MASK_SEGMENTS: Final[tuple[tuple[tuple[Side, int, int], ...], ...]] = tuple(
    tuple(
        (side, dx1 * _K + dy1, dx2 * _K + dy2)
        for k, side in enumerate(SIDES)
        if m >> k & 1
        for dx1, dy1, dx2, dy2 in [_END_OFFSETS[side]]
    )
    for m in range(16)
)
# per ring occupancy of a cell's kept entry (bits 0-7, the side neighbours on the even bits):
# the sides (as a 4-bit mask) whose neighbour is not a tile
_SIDES_FREE: Final[tuple[int, ...]] = tuple(
    sum(1 << k for k in range(4) if not ring >> (2 * k) & 1) for ring in range(256)
)


def _plain_links(alh: Alhambra) -> tuple[list[Segment], list[int]] | None:
    """The outer wall of an unlayered Alhambra as :func:`_plain_longest` walks it: the segments
    in reading order and the link of each slot (slot ``2e`` at segment ``e``'s first corner,
    ``2e + 1`` at its second: the slot of the other segment at that corner, -1 where none).
    None when a corner joins three or four segments or a coordinate is out of range (then the
    general search decides); no segment: two empty lists."""
    geo = alh.geometry
    around = geo.front.get
    free_sides = _SIDES_FREE
    walled: list[tuple[int, int, Coord, int]] = []  # (reading-order key, corner x,y, cell, walls)
    for c, m in geo.masks.items():
        if m:  # not the fountain (nor any piece without walls)
            outer = m & free_sides[around(c, 0) & 0xFF]
            if outer:
                x, y = c
                if ((x + _BOUND) | (y + _BOUND)) >> _OUT_OF_RANGE:
                    return None  # a coordinate out of range (a negative int too: its bits)
                walled.append((x - y * _K, x * _K + y, c, outer))
    if not walled:
        return [], []
    walled.sort()  # the key is unique per cell: nothing else is compared
    by_mask = _MASK_SEGMENTS
    segs: list[Segment] = []
    link = [-1] * (8 * len(walled))
    # corner -> the first slot found at it: a second slot there is linked with it, a third
    # finds it linked already (a junction)
    corners: dict[int, int] = {}
    first_at = corners.setdefault
    t = 0  # the first slot of the next segment
    for _key, base, c, outer in walled:
        for side, oa, ob in by_mask[outer]:
            segs.append((c, side))
            # the segment at its two corners (written out: this loop is the hot part)
            f = first_at(base + oa, t)
            if f != t:
                if link[f] >= 0:
                    return None  # three segments meet: a junction
                link[f] = t
                link[t] = f
            t += 1
            f = first_at(base + ob, t)
            if f != t:
                if link[f] >= 0:
                    return None
                link[f] = t
                link[t] = f
            t += 1
    return segs, link


def _plain_longest(alh: Alhambra, simple: bool) -> WallRun | None:
    """:func:`longest_wall_run` of the outer wall in the common case, in one pass over the
    cells: no corner joins more than two segments, so every connected piece of wall is a path
    or a ring and its run is all of it. None when a corner joins three or four segments (or a
    coordinate is out of range): then the general search decides.

    The outer walls of a tile are read from the kept geometry (its wall mask less the sides
    whose neighbour is a tile, both ints), not side by side from the cells. The cells are taken
    in reading order, so a segment's index orders as its reading-order key.

    Each segment ``e`` has two *slots*, ``2e`` at its first corner and ``2e + 1`` at its second
    (as in :func:`_ends`); ``link[t]`` is the slot of the other segment at slot ``t``'s corner
    (-1: none, an end of a path). A walk enters a segment by one slot and leaves by the other.

    It walks the pieces as :meth:`_Graph.chains` and :meth:`_Graph.ring` do: a path from its
    smaller end corner, a ring from its first segment in reading order towards that segment's
    second corner."""
    got = _plain_links(alh)
    if got is None:
        return None
    segs, link = got
    if not segs:
        return WallRun(())
    # the pieces in reading order of their first segment (so a tie keeps the piece found
    # first): walked from that segment towards its second corner, back to it for a ring, and
    # for a path on from its first corner too; only the longest is then walked in order.
    # (outer_runs_top walks them with the same loop but keeps every piece: one walker for both
    # cost a base turn +0.44 %, bench/README.md, issue 34, twenty-third step, all together)
    n = len(segs)
    seen = [False] * n
    best_len = -1
    best_first = best_end = best_back = 0
    for first in range(n):
        if seen[first]:
            continue
        seen[first] = True
        count = 1
        t = link[2 * first + 1]
        while t >= 0:
            e = t >> 1
            if seen[e]:
                break  # back at the first segment: a ring
            seen[e] = True
            count += 1
            out = t ^ 1
            t = link[out]
        if t >= 0:
            length = count - 1 if simple else count
            if length > best_len:
                best_len, best_first, best_end = length, first, -1
            continue
        end = out if count > 1 else 2 * first + 1  # the path's end slot this way
        back = 2 * first  # and the other way
        t = link[back]
        while t >= 0:
            seen[t >> 1] = True
            count += 1
            back = t ^ 1
            t = link[back]
        if count > best_len:
            best_len, best_first, best_end, best_back = count, first, end, back
    run: list[Segment] = []
    if best_end < 0:  # a ring, from its first segment towards that segment's second corner
        run.append(segs[best_first])
        t = link[2 * best_first + 1]
        while (e := t >> 1) != best_first:
            run.append(segs[e])
            t = link[t ^ 1]
        if simple:
            return WallRun(tuple(run[:-1]))
        return WallRun(tuple(run), True)
    # a path, from its smaller end corner (its two ends are two corners)
    t = best_end if _slot_corner(segs, best_end) < _slot_corner(segs, best_back) else best_back
    while t >= 0:
        run.append(segs[t >> 1])
        t = link[t ^ 1]
    return WallRun(tuple(run))


def outer_runs_top(
    alh: Alhambra, mode: WallMode = "trail", k: int = 2
) -> tuple[list[WallRun], int, int]:
    """The first ``k`` runs of :func:`outer_wall_runs` (longest first), the sum of the lengths
    of all its runs, and the number of outer wall segments. In the common case of
    :func:`_plain_longest` (an unlayered Alhambra, no corner joining three segments) from its
    links: each piece of wall is counted once, and only the ``k`` runs given are walked in
    order, as :meth:`_Graph.chains` and :meth:`_Graph.ring` walk them (a path from its smaller
    end corner, a ring from its first segment towards that segment's second corner, one
    segment short in ``simple-path`` mode); else by the general search
    (tests/test_speed25_silents.py holds the two equal)."""
    if mode not in ("trail", "simple-path"):
        raise ValueError(f"unknown wall mode {mode!r}")
    got = None if alh._layers is not None else _plain_links(alh)
    if got is None:
        segments = outer_segments(alh)
        found = wall_runs(segments, mode)
        return found[:k], sum([run.length for run in found]), len(segments)
    segs, link = got
    simple = mode == "simple-path"
    n = len(segs)
    seen = [False] * n
    # per piece: (-length, first segment, end slot, other end slot): a ring's end slot -1
    pieces: list[tuple[int, int, int, int]] = []
    total = 0
    for first in range(n):
        if seen[first]:
            continue
        seen[first] = True
        count = 1
        t = link[2 * first + 1]
        out = 2 * first + 1
        while t >= 0:  # towards the first segment's second corner
            e = t >> 1
            if seen[e]:
                break  # back at the first segment: a ring
            seen[e] = True
            count += 1
            out = t ^ 1
            t = link[out]
        if t >= 0:
            length = count - 1 if simple else count
            pieces.append((-length, first, -1, 0))
            total += length
            continue
        back = 2 * first  # on from its first corner
        t = link[back]
        while t >= 0:
            seen[t >> 1] = True
            count += 1
            back = t ^ 1
            t = link[back]
        pieces.append((-count, first, out, back))
        total += count
    pieces.sort()  # (the first segment is unique per piece: nothing else is compared)
    runs: list[WallRun] = []
    for _length, first, end, back in pieces[:k]:
        run: list[Segment] = []
        if end < 0:  # a ring, from its first segment towards that segment's second corner
            run.append(segs[first])
            t = link[2 * first + 1]
            while (e := t >> 1) != first:
                run.append(segs[e])
                t = link[t ^ 1]
            runs.append(WallRun(tuple(run[:-1])) if simple else WallRun(tuple(run), True))
            continue
        # a path, from its smaller end corner
        t = end if _slot_corner(segs, end) < _slot_corner(segs, back) else back
        while t >= 0:
            run.append(segs[t >> 1])
            t = link[t ^ 1]
        runs.append(WallRun(tuple(run)))
    return runs, total, n


# per side, the offsets of its first and second corner from its cell's corner x,y (as in _ends)
_CORNER_OFFSETS: Final[dict[Side | Diagonal, tuple[Corner, Corner]]] = {
    s: ((a[0], a[1]), (a[2], a[3])) for s, a in _END_OFFSETS.items()
}


def _slot_corner(segs: list[Segment], slot: int) -> Corner:
    """The corner of a slot (as in :func:`_plain_longest`)."""
    (x, y), side = segs[slot >> 1]
    dx, dy = _CORNER_OFFSETS[side][slot & 1]
    return x + dx, y + dy


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
