"""Drawing the table in a terminal: each Alhambra with its walls, the market, display and hands.

The drawing works from a small *view* of the table (:class:`TableView`, :class:`PlayerView`)
so that it does not depend on where the position came from (a replayed record or a position
block). The commands build the view (:mod:`referee.commands.show`); this module only draws.

An Alhambra is drawn north up (y grows upwards, x to the right), one box per cell, with the
coordinates on the axes::

          -1    0     1
             ┌─────┬─────┒
     0    +  │  ** │  P7 ┃      fountain, pavilion 7 (wall east)
             ┟─────┼─────┚
    -1       ┃  A6 │            arcades 6 (walls south and west)
             ┗━━━━━┙

Heavy lines are walls, light lines open sides, ``**`` the fountain, ``+`` a marked (legal)
empty cell. Colour (ANSI, by building type, the game's colours) only when asked for.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Literal

from referee.catalogue import BuildingType, Currency, Side
from referee.record.model import Coord
from referee.reports.i18n import fmt_card, fmt_tile, t

# ------------------------------------------------------------------------------- views


@dataclass(frozen=True)
class CellView:
    """What stands on one cell: building type (None = fountain), price, walls, a label."""

    type: BuildingType | None
    price: int | None
    walls: frozenset[Side]
    label: str | None = None  # overrides the text in the cell (module pieces)
    fill: str | None = None  # a module piece's own colour in drawings (``cell_fill``)
    # the geometry layers (referee.geometry.layers), drawn so that each is recognisable:
    added: frozenset[Side] = frozenset()  # walls added to the tile (in ``walls`` too)
    half: str | None = None  # a half piece: the half it fills ("sw", "ne", "se", "nw")
    joined: Side | None = None  # a part of a two-cell piece: the side towards its other part
    edges: tuple[tuple[Side, str, bool], ...] = ()  # pieces on its sides: side, label, opens
    corner: str | None = None  # the label of a piece on its north-east corner
    bastions: frozenset[Side] = frozenset()  # sides of a rule profile's kind "bastion" (E20)
    tokens: str | None = None  # module tokens lying on the tile (E17, ``Module.cell_marks``)

    @property
    def is_fountain(self) -> bool:
        return self.type is None and self.price is None and self.label is None

    @property
    def text(self) -> str:
        if self.label is not None:
            return self.label
        if self.type is None:
            return "**"
        return f"{self.type.code}{self.price if self.price is not None else ''}"


FOUNTAIN = CellView(None, None, frozenset())


def cell_of(piece: Any) -> CellView:
    """A cell view of any piece (catalogue tile, the fountain, a module piece)."""
    if isinstance(piece, CellView):
        return piece
    walls = frozenset(getattr(piece, "walls", None) or ())
    type_ = getattr(piece, "type", None)
    price = getattr(piece, "price", None)
    if not isinstance(type_, BuildingType):
        type_ = None
    if not isinstance(price, int):
        price = None
    label = getattr(piece, "cell_label", None)  # a module piece names itself (``Md5``, ``P9*``)
    if label is None and type_ is None and price is None and not _is_fountain(piece):
        label = str(getattr(piece, "code", None) or getattr(piece, "name", None) or "?")[:5]
    return CellView(type_, price, walls, label, getattr(piece, "cell_fill", None))


def _is_fountain(piece: Any) -> bool:
    if piece is None:
        return True
    name = type(piece).__name__.lower()
    if "fountain" in name or "start" in name:
        return True
    return bool(getattr(piece, "is_fountain", False))


def cells_of(alhambra: Any, marks: Mapping[Coord, str] | None = None) -> dict[Coord, CellView]:
    """The cells of an Alhambra-like object: a mapping ``Coord -> piece`` or an object with
    ``items()``, ``cells`` or ``tiles``. Coordinates may be ``Coord`` or ``(x, y)``. ``marks``:
    module tokens on tiles, per cell (``Extensions.cell_marks``)."""
    out = _cells_of(alhambra)
    if marks:
        from dataclasses import replace

        for at, text in marks.items():
            if at in out:
                out[at] = replace(out[at], tokens=text)
    return out


def _cells_of(alhambra: Any) -> dict[Coord, CellView]:
    if alhambra is None:
        return {}
    source: Any = alhambra
    if not hasattr(source, "items"):
        for attr in ("cells", "tiles", "grid"):
            inner = getattr(alhambra, attr, None)
            if inner is not None and hasattr(inner, "items"):
                source = inner
                break
        else:
            return {}
    out: dict[Coord, CellView] = {}
    for at, piece in source.items():
        coord = at if isinstance(at, Coord) else Coord(int(at[0]), int(at[1]))
        out[coord] = cell_of(piece)
    layers = getattr(alhambra, "layers", None)
    if layers is not None or any(
        type(p).__name__ == "Part" or getattr(p, "half_at", None) for _, p in source.items()
    ):
        out = _with_layers(source, layers, out)
    return out


def _label(piece: object) -> str:
    text = getattr(piece, "cell_label", None) or getattr(piece, "code", None) or str(piece)
    return str(text)


def _with_layers(
    cells: Mapping[Coord, Any], layers: Any, views: dict[Coord, CellView]
) -> dict[Coord, CellView]:
    """The cell views with what the geometry layers put on them: added walls (the effective
    walls: :func:`referee.geometry.layers.cell_walls`), half and two-cell pieces, pieces on
    edges (kept at the cell on the edge's west or south side, else the other one) and on
    corners (at the cell whose north-east corner it is, else another of the four)."""
    from dataclasses import replace

    from referee.geometry.layers import cell_walls, edge_cells
    from referee.geometry.pieces import Part

    out = dict(views)
    for at, piece in cells.items():
        view = out[at]
        changes: dict[str, Any] = {}
        if layers is not None:
            added = layers.overlays.get(at, frozenset())
            if added:
                changes["added"] = frozenset(added)
                changes["walls"] = cell_walls(cells, layers, at)
        half = getattr(piece, "half_at", None)
        if half:
            changes["half"] = str(half)
        prof = getattr(piece, "profile", None)
        if prof is not None and prof.sides:
            bastions = frozenset(k for k, v in prof.sides.items() if v == "bastion")
            if bastions:
                changes["bastions"] = bastions
        if type(piece) is Part:
            second = piece.whole.second
            changes["joined"] = second if piece.index == 0 else second.opposite
        if changes:
            out[at] = replace(view, **changes)
    if layers is None:
        return out
    for edge, piece in layers.edges.items():
        a, b = edge_cells(edge)
        at, side = (a, edge[1]) if a in out else (b, edge[1].opposite)
        if at in out:
            mark = (side, _label(piece), bool(getattr(piece, "opens", False)))
            out[at] = replace(out[at], edges=(*out[at].edges, mark))
    for key, piece in layers.corners.items():
        if key in out:
            out[key] = replace(out[key], corner=_label(piece))
    return out


@dataclass(frozen=True)
class PlayerView:
    """One player's side of the table. None means unknown (not stated in the record)."""

    name: str
    score: int | None = None
    hand: tuple[Any, ...] | None = None  # money cards (MoneyCard / CardRef)
    reserve: tuple[Any, ...] = ()  # tiles
    alhambra: Mapping[Coord, CellView] = field(default_factory=dict)
    counts: Mapping[str, int] | None = None  # fallback "counts" (no layout typed in)
    wall: int | None = None  # longest outer wall, when known
    unknown_tiles: int = 0  # tiles built whose kind and cell the record does not say
    area: tuple[tuple[str, str], ...] = ()  # module lines for the player's area (en, de)


@dataclass(frozen=True)
class TableView:
    """The whole table at one moment."""

    players: tuple[PlayerView, ...]
    market: Mapping[Currency, Any] | None = None  # field -> tile (None = empty field)
    market_marks: Mapping[Currency, str] | None = None  # module tokens on fields
    display: tuple[Any, ...] | None = None
    dirk: tuple[Any, ...] | None = None
    to_move: str | None = None
    game_over: bool = False
    scorings_done: int | None = None
    where: str | None = None  # "after turn 12", already in the output language


# ----------------------------------------------------------------------------- colour

ColorMode = Literal["auto", "always", "never"]

# ANSI colours by building type (the game's colours: pavilion blue, seraglio red, arcades
# brown, chambers white/grey, garden green, tower purple).
_ANSI = {
    BuildingType.PAVILION: "38;5;33",
    BuildingType.SERAGLIO: "38;5;160",
    BuildingType.ARCADES: "38;5;130",
    BuildingType.CHAMBERS: "38;5;250",
    BuildingType.GARDEN: "38;5;34",
    BuildingType.TOWER: "38;5;93",
}
_ANSI_FOUNTAIN = "38;5;45"
_ANSI_MARK = "1;38;5;208"


def want_color(
    mode: ColorMode, stream: IO[str] | None, environ: Mapping[str, str] | None = None
) -> bool:
    """Whether to colour: ``always``/``never`` as said; ``auto`` = a terminal and no NO_COLOR."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def _paint(text: str, code: str | None, color: bool) -> str:
    if not color or not code or not text.strip():
        return text
    return f"\x1b[{code}m{text}\x1b[0m"


# -------------------------------------------------------------------------- box drawing

# (up, right, down, left) with 0 = none, 1 = light, 2 = heavy -> box-drawing character.
_Weights = tuple[int, int, int, int]


def _box_table() -> dict[_Weights, str]:
    table: dict[_Weights, str] = {}
    words = {
        "UP": "u",
        "DOWN": "d",
        "LEFT": "l",
        "RIGHT": "r",
        "VERTICAL": "ud",
        "HORIZONTAL": "lr",
    }
    skip = ("DOUBLE", "SINGLE", "DASH", "ARC", "DIAGONAL")
    for cp in range(0x2500, 0x2580):
        name = unicodedata.name(chr(cp), "")
        if not name.startswith("BOX DRAWINGS ") or any(s in name for s in skip):
            continue
        weights: dict[str, int] = {}
        weight = 0
        for part in name.removeprefix("BOX DRAWINGS ").split(" AND "):
            tokens = part.split()
            for tok in tokens:
                if tok in ("LIGHT", "HEAVY"):
                    weight = 1 if tok == "LIGHT" else 2
            for tok in tokens:
                for d in words.get(tok, ""):
                    weights[d] = weight
        key = (weights.get("u", 0), weights.get("r", 0), weights.get("d", 0), weights.get("l", 0))
        table.setdefault(key, chr(cp))
    table[(0, 0, 0, 0)] = " "
    return table


_BOX = _box_table()
_HORIZONTAL = {0: " ", 1: "─", 2: "━", 3: "═"}
_VERTICAL = {0: " ", 1: "│", 2: "┃", 3: "║"}

CELL_WIDTH = 5  # characters inside a cell


def _edge_weight(cells: Mapping[Coord, CellView], a: Coord, side: Side) -> int:
    """The line between cell ``a`` and its neighbour on ``side``: none, light or heavy."""
    b = a.neighbour(side)
    pa, pb = cells.get(a), cells.get(b)
    if pa is None and pb is None:
        return 0
    if pa is not None and pa.joined is side:
        return 0  # inside a two-cell piece: one tile
    wall = (pa is not None and side in pa.walls) or (pb is not None and side.opposite in pb.walls)
    if wall and (
        (pa is not None and side in pa.added) or (pb is not None and side.opposite in pb.added)
    ):
        return 3  # a wall added to a tile: double line
    return 2 if wall else 1


_HALF_GLYPH = {"sw": "◣", "se": "◢", "nw": "◤", "ne": "◥"}


def _edge_mark(cells: Mapping[Coord, CellView], a: Coord, side: Side) -> str | None:
    """The letter of a piece on the edge between ``a`` and its neighbour on ``side``."""
    for at, s in ((a, side), (a.neighbour(side), side.opposite)):
        cell = cells.get(at)
        if cell is not None:
            for es, label, _opens in cell.edges:
                if es is s:
                    return (label[:1] or "?").upper()
    for at, s in ((a, side), (a.neighbour(side), side.opposite)):
        cell = cells.get(at)
        if cell is not None and s in cell.bastions:
            return BASTION_MARK  # a camp's bastion on this side (Feldlager, E20)
    return None


BASTION_MARK = "#"  # a bastion in the terminal map: the merlons the SVG draws


def draw_alhambra(
    alhambra: Mapping[Coord, CellView] | Any,
    *,
    marks: Iterable[Coord] = (),
    mark_text: str = "+",
    color: bool = False,
    highlight: Iterable[Coord] = (),
) -> list[str]:
    """The Alhambra as lines of text (north up), with coordinates on the axes.

    ``marks`` are empty cells to mark (e.g. legal cells, shown as ``+``); the area drawn grows
    to include them. ``highlight`` cells are emphasised when colouring.
    """
    cells = alhambra if _is_cell_map(alhambra) else cells_of(alhambra)
    marked = {m for m in marks if m not in cells}
    lit = set(highlight)
    every = set(cells) | marked
    if not every:
        return []
    xs = [c.x for c in every]
    ys = [c.y for c in every]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    label_w = max(len(str(y)) for y in range(y0, y1 + 1)) + 1
    pad = " " * label_w
    lines: list[str] = []
    # column labels, centred over each cell
    head = pad
    for x in range(x0, x1 + 1):
        head += " " + str(x).center(CELL_WIDTH)
    lines.append(head.rstrip())
    for y in range(y1 + 1, y0 - 1, -1):
        # the boundary line above row y-1 / below row y (vertices at the corners)
        line = pad
        for x in range(x0, x1 + 2):
            line += _vertex(cells, x, y)
            if x <= x1:
                # the horizontal edge between (x, y) above and (x, y-1) below
                w = _edge_weight(cells, Coord(x, y - 1), Side.N)
                edge = _HORIZONTAL[w] * CELL_WIDTH
                mark = _edge_mark(cells, Coord(x, y - 1), Side.N)
                if mark is not None:  # a piece on the edge: its letter in the middle
                    edge = edge[:2] + mark + edge[3:]
                line += edge
        lines.append(line.rstrip())
        if y == y0:
            break
        row = y - 1
        text = str(row).rjust(label_w - 1) + " "
        for x in range(x0, x1 + 2):
            w = _edge_weight(cells, Coord(x - 1, row), Side.E)
            mark = _edge_mark(cells, Coord(x - 1, row), Side.E)
            text += _VERTICAL[w] if mark is None else mark
            if x <= x1:
                text += _cell_text(cells, marked, lit, Coord(x, row), mark_text, color)
        lines.append(text.rstrip())
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _is_cell_map(obj: Any) -> bool:
    if not isinstance(obj, Mapping):
        return False
    return all(isinstance(v, CellView) for v in obj.values())


def _cell_text(
    cells: Mapping[Coord, CellView],
    marked: set[Coord],
    lit: set[Coord],
    at: Coord,
    mark_text: str,
    color: bool,
) -> str:
    cell = cells.get(at)
    if cell is None:
        if at in marked:
            return _paint(mark_text.center(CELL_WIDTH), _ANSI_MARK, color)
        return " " * CELL_WIDTH
    text = cell.text[:CELL_WIDTH].center(CELL_WIDTH)
    if cell.tokens:  # module tokens on the tile: a "+" after its text (listed under the map)
        text = (cell.text[: CELL_WIDTH - 1] + "+").center(CELL_WIDTH)
    if cell.half:  # a half piece: the triangle it fills, then its text
        text = (_HALF_GLYPH.get(cell.half, "◣") + cell.text)[:CELL_WIDTH].center(CELL_WIDTH)
    code = _ANSI_FOUNTAIN if cell.type is None else _ANSI.get(cell.type)
    if at in lit and code:
        code = "1;4;" + code
    return _paint(text, code, color)


def _vertex(cells: Mapping[Coord, CellView], x: int, y: int) -> str:
    """The corner at the top-left of cell (x, y-1), i.e. between cells (x-1..x, y-1..y)."""
    # vertical edge above the vertex: between (x-1, y) and (x, y)
    up = _edge_weight(cells, Coord(x - 1, y), Side.E)
    down = _edge_weight(cells, Coord(x - 1, y - 1), Side.E)
    left = _edge_weight(cells, Coord(x - 1, y - 1), Side.N)
    right = _edge_weight(cells, Coord(x, y - 1), Side.N)
    corner = cells.get(Coord(x - 1, y - 1))  # the vertex is the north-east corner of this cell
    if corner is not None and corner.corner:
        return "◆"  # a piece on the crossing (a falcon)
    heavy = {3: 2}
    key = (heavy.get(up, up), heavy.get(right, right), heavy.get(down, down), heavy.get(left, left))
    return _BOX[key]


# ------------------------------------------------------------------------------ table


def _cards(cards: Sequence[Any] | None, lang: str) -> str:
    if cards is None:
        return t("unknown", lang)
    if not cards:
        return t("none", lang)
    return " ".join(fmt_card(c, lang) for c in cards)


def _hand_total(cards: Sequence[Any]) -> str:
    totals: dict[Currency, int] = {}
    for c in cards:
        mc = getattr(c, "card", c)
        cur = getattr(mc, "currency", None)
        val = getattr(mc, "value", None)
        if isinstance(cur, Currency) and isinstance(val, int):
            totals[cur] = totals.get(cur, 0) + val
    return " ".join(f"{cur.code}={totals[cur]}" for cur in Currency if cur in totals)


def _tiles(tiles: Sequence[Any] | None, lang: str) -> str:
    if tiles is None:
        return t("unknown", lang)
    if not tiles:
        return t("none", lang)
    return ", ".join(fmt_tile(x, lang) for x in tiles)


def _dirk(tiles: Sequence[Any], lang: str) -> str:
    """Dirk's tiles by type (what his scoring needs): ``7 tiles: P=1 T=3 ...``."""
    if len(tiles) <= 4:
        return _tiles(tiles, lang)
    counts: dict[BuildingType, int] = {}
    unknown = 0
    for x in tiles:
        type_ = cell_of(x).type if x is not None else None
        if type_ is None:
            unknown += 1
        else:
            counts[type_] = counts.get(type_, 0) + 1
    parts = [f"{bt.code}={counts[bt]}" for bt in BuildingType if bt in counts]
    if unknown:
        parts.append(f"?={unknown}")
    return f"{len(tiles)} {t('tiles', lang)}: " + " ".join(parts)


def area_lines(player: PlayerView, lang: str) -> list[str]:
    """The module lines of the player's area (``Module.player_area``) in ``lang``, with
    control characters of record text removed."""
    return [
        "".join(ch for ch in (de if lang == "de" else en) if ch.isprintable())
        for en, de in player.area
    ]


def draw_player(
    player: PlayerView,
    lang: str,
    *,
    color: bool = False,
    to_move: bool = False,
    marks: Iterable[Coord] = (),
) -> list[str]:
    """One player's block: name (and whether to move), score, hand, reserve, the Alhambra."""
    title = player.name
    if to_move:
        title += f"  ({t('to_move', lang)})"
    lines = [title, "=" * len(title)]
    score = t("unknown", lang) if player.score is None else str(player.score)
    lines.append(f"{t('score', lang)}: {score}")
    hand = _cards(player.hand, lang)
    total = _hand_total(player.hand or ())
    if total:
        hand += f"   ({total})"
    lines.append(f"{t('hand', lang)}: {hand}")
    lines.append(f"{t('reserve', lang)}: {_tiles(player.reserve, lang)}")
    lines.extend(area_lines(player, lang))  # what modules keep before him (player_area)
    if player.wall is not None:
        lines.append(f"{t('longest_wall', lang)}: {player.wall}")
    if player.counts:
        counts = ", ".join(f"{k}={v}" for k, v in player.counts.items())
        lines.append(f"{t('alhambra', lang)}: {counts}")
    if player.unknown_tiles:
        key = "unknown_tiles.one" if player.unknown_tiles == 1 else "unknown_tiles"
        lines.append(t(key, lang, n=player.unknown_tiles))
    drawing = draw_alhambra(player.alhambra, marks=marks, color=color)
    if drawing:
        lines.append("")
        lines.extend("  " + d if d else d for d in drawing)
    on_tiles = [(at, c) for at, c in player.alhambra.items() if c.tokens]
    for at, c in sorted(on_tiles, key=lambda ac: (-ac[0].y, ac[0].x)):
        lines.append(f"  + {c.text}@{at}: {c.tokens}")
    return lines


def draw_market(
    market: Mapping[Currency, Any] | None,
    lang: str,
    *,
    color: bool = False,
    marks: Mapping[Currency, str] | None = None,
) -> str:
    """``Market: Gu T10n (tower 10) | Di - | ...`` (one line); module tokens lying on a field
    (``Module.market_marks``) follow its tile in brackets."""
    if market is None:
        return f"{t('market', lang)}: {t('unknown', lang)}"
    parts = []
    for cur in Currency:
        if cur not in market:
            continue
        tile = market[cur]
        text = t("empty", lang) if tile is None else fmt_tile(tile, lang)
        kind = cell_of(tile) if tile is not None else None
        if kind is not None and kind.type is not None:
            text = _paint(text, _ANSI.get(kind.type), color)
        if marks and marks.get(cur):
            shown = "".join(ch for ch in marks[cur] if ch.isprintable())  # record text
            text += f" [{shown}]"
        parts.append(f"{cur.code}: {text}")
    return f"{t('market', lang)}: " + ("  |  ".join(parts) if parts else t("empty", lang))


def draw_table(
    table: TableView,
    lang: str,
    *,
    color: bool = False,
    only: str | None = None,
    marks: Mapping[str, Iterable[Coord]] | None = None,
) -> str:
    """The whole table as text: where, who moves, market, display, then each player."""
    out: list[str] = []
    if table.where:
        out.append(t("position_at", lang, where=table.where))
    if table.game_over:
        out.append(t("nobody_to_move", lang))
    elif table.to_move:
        out.append(t("player_to_move", lang, player=table.to_move))
    else:
        out.append(t("unknown_to_move", lang))
    if table.scorings_done is not None:
        out.append(t("scorings_done", lang, n=table.scorings_done))
    out.append(draw_market(table.market, lang, color=color, marks=table.market_marks))
    out.append(f"{t('display', lang)}: {_cards(table.display, lang)}")
    if table.dirk is not None:
        out.append(f"{t('dirk', lang)}: {_dirk(table.dirk, lang)}")
    for player in table.players:
        if only is not None and player.name.lower() != only.lower():
            continue
        out.append("")
        out.extend(
            draw_player(
                player,
                lang,
                color=color,
                to_move=(not table.game_over and player.name == table.to_move),
                marks=(marks or {}).get(player.name, ()),
            )
        )
    out.append("")
    out.append(f"{t('legend', lang)}: {t('legend_walls', lang)}")
    return "\n".join(out) + "\n"


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
