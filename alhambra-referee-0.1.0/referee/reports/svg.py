"""Alhambras as SVG: tiles in the game's colours with their price, walls thick, the longest
outer wall highlighted, coordinates on the axes, each player's name and score.

Works from the same views as the terminal drawing (:mod:`referee.reports.terminal`). The
output is a standalone SVG 1.1 document (valid XML, no external files, no scripts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from referee.catalogue import BuildingType, Side
from referee.geometry.pieces import HALVES, Diagonal
from referee.record.model import Coord
from referee.reports.i18n import t, type_name
from referee.reports.terminal import CellView, PlayerView, area_lines, cells_of
from referee.safe_text import xml as escape  # record text: markup and forbidden characters
from referee.safe_text import xml_attr

CELL = 64  # pixels per cell
MARGIN = 28  # room for the axis labels
GAP = 36  # between two Alhambras
TITLE_H = 40  # room for name and score above each Alhambra
LEGEND_H = 34
AREA_LINE = 15  # one line of the player's area (Module.player_area) under the Alhambra

# The game's colours by building type.
FILL: dict[BuildingType, str] = {
    BuildingType.PAVILION: "#2f6fc4",  # blue
    BuildingType.SERAGLIO: "#c0392b",  # red
    BuildingType.ARCADES: "#8b5a2b",  # brown
    BuildingType.CHAMBERS: "#dcdcdc",  # white/grey
    BuildingType.GARDEN: "#3d9a3d",  # green
    BuildingType.TOWER: "#7b3f9e",  # purple
}
TEXT_ON: dict[BuildingType, str] = {
    BuildingType.CHAMBERS: "#222222",
}
FOUNTAIN_FILL = "#bfe3f0"
WALL_COLOUR = "#3b2a1a"
OPEN_COLOUR = "#9a9a9a"
LONGEST_COLOUR = "#ffb000"
MARK_COLOUR = "#ff7a00"
BACKGROUND = "#fbf7ef"
ADDED_COLOUR = "#d89a3e"  # a wooden wall added to a tile
GATE_COLOUR = "#e8c170"  # an edge piece that opens the way (a gate)
EDGE_COLOUR = "#8b5a2b"  # another edge piece
CORNER_COLOUR = "#333333"  # a corner piece (a falcon)


def quoteattr(value: str) -> str:
    """An attribute value in double quotes (:func:`referee.safe_text.xml_attr`)."""
    return xml_attr(value)


@dataclass(frozen=True)
class Panel:
    """One Alhambra to draw, with what to say about it."""

    player: PlayerView
    longest: tuple[tuple[Coord, Side | Diagonal], ...] = ()  # the longest outer wall
    marks: tuple[Coord, ...] = ()  # empty cells to mark (legal cells)


def _bounds(cells: Iterable[Coord]) -> tuple[int, int, int, int]:
    cs = list(cells) or [Coord(0, 0)]
    return (
        min(c.x for c in cs),
        min(c.y for c in cs),
        max(c.x for c in cs),
        max(c.y for c in cs),
    )


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _attr_name(key: str) -> str:
    """``class_`` -> ``class``, ``text_anchor`` -> ``text-anchor``."""
    return key.rstrip("_").replace("_", "-")


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: object) -> None:
        attr = " ".join(
            f"{_attr_name(k)}={quoteattr(_fmt(v) if isinstance(v, float) else str(v))}"
            for k, v in attrs.items()
            if v is not None
        )
        if text is None:
            self.parts.append(f"<{tag} {attr}/>")
        else:
            self.parts.append(f"<{tag} {attr}>{escape(text)}</{tag}>")

    def raw(self, text: str) -> None:
        self.parts.append(text)


def _panel_size(panel: Panel, lang: str) -> tuple[int, int]:
    cells = (
        cells_of(panel.player.alhambra)
        if not _is_views(panel.player.alhambra)
        else dict(panel.player.alhambra)
    )
    x0, y0, x1, y1 = _bounds(list(cells) + list(panel.marks))
    width = MARGIN + (x1 - x0 + 1) * CELL + 8
    height = TITLE_H + MARGIN + (y1 - y0 + 1) * CELL + 8
    title_w = int(len(_title(panel, lang)) * 11) + 8
    area = area_lines(panel.player, lang)
    if area:
        height += AREA_LINE * len(area) + 4
        title_w = max(title_w, max(int(len(x) * 6.2) + 8 for x in area))
    return max(width, title_w, 180), height


def _title(panel: Panel, lang: str) -> str:
    title = panel.player.name
    if panel.player.score is not None:
        title += f" \u2014 {panel.player.score} {t('points', lang)}"
    return title


def _is_views(obj: object) -> bool:
    return isinstance(obj, Mapping) and all(isinstance(v, CellView) for v in obj.values())


def _draw_panel(svg: _Svg, panel: Panel, ox: float, oy: float, lang: str) -> None:
    alh = panel.player.alhambra
    cells: dict[Coord, CellView] = dict(alh) if _is_views(alh) else cells_of(alh)
    x0, y0, x1, y1 = _bounds(list(cells) + list(panel.marks))
    gx = ox + MARGIN  # left of column x0
    gy = oy + TITLE_H + MARGIN  # top of row y1

    def left(x: int) -> float:
        return gx + (x - x0) * CELL

    def top(y: int) -> float:
        return gy + (y1 - y) * CELL

    # title: name and score
    svg.add("text", _title(panel, lang), x=ox, y=oy + 22, class_="title")
    # axes
    for x in range(x0, x1 + 1):
        svg.add("text", str(x), x=left(x) + CELL / 2, y=gy - 8, class_="axis", text_anchor="middle")
    for y in range(y0, y1 + 1):
        svg.add("text", str(y), x=gx - 8, y=top(y) + CELL / 2 + 5, class_="axis", text_anchor="end")
    # marked empty cells
    for at in panel.marks:
        if at in cells:
            continue
        svg.add(
            "rect",
            x=left(at.x) + 4,
            y=top(at.y) + 4,
            width=CELL - 8,
            height=CELL - 8,
            class_="mark",
        )
        svg.add(
            "text",
            "+",
            x=left(at.x) + CELL / 2,
            y=top(at.y) + CELL / 2 + 8,
            class_="marktext",
            text_anchor="middle",
        )
    # tiles
    for at in sorted(cells, key=lambda c: (-c.y, c.x)):
        cell = cells[at]
        lx, ty = left(at.x), top(at.y)
        if cell.type is None:
            svg.raw("<g>")
            what = t("fountain", lang) if cell.label is None else cell.label
            svg.raw(f"<title>{escape(f'{what} @{at.x},{at.y}')}</title>")
            svg.add("rect", x=lx, y=ty, width=CELL, height=CELL, fill=cell.fill or FOUNTAIN_FILL)
            if cell.label is None:
                svg.add("circle", cx=lx + CELL / 2, cy=ty + CELL / 2, r=CELL / 4, class_="fountain")
            else:
                svg.add(
                    "text",
                    cell.label,
                    x=lx + CELL / 2,
                    y=ty + CELL / 2 + 6,
                    class_="price",
                    text_anchor="middle",
                )
            svg.raw("</g>")
            continue
        fill = FILL[cell.type]
        ink = TEXT_ON.get(cell.type, "#ffffff")
        svg.raw("<g>")
        name = type_name(cell.type, lang)
        price = "" if cell.price is None else str(cell.price)
        on = f" + {cell.tokens}" if cell.tokens else ""
        svg.raw(f"<title>{escape(f'{name} {price} @{at.x},{at.y}{on}')}</title>")
        svg.add("rect", x=lx, y=ty, width=CELL, height=CELL, fill=fill)
        svg.add(
            "text",
            price,
            x=lx + CELL / 2,
            y=ty + CELL / 2 + 8,
            class_="price",
            fill=ink,
            text_anchor="middle",
        )
        code = cell.type.code if cell.label is None else cell.label  # a module piece's label
        svg.add("text", code, x=lx + 6, y=ty + 15, class_="code", fill=ink)
        if cell.label is not None:  # a module piece of a building type (magic building): ringed
            svg.add(
                "rect",
                x=lx + 5,
                y=ty + 5,
                width=CELL - 10,
                height=CELL - 10,
                fill="none",
                stroke=cell.fill or "#ffd700",
                stroke_width=3,
                stroke_dasharray="6 3",
            )
        if cell.tokens:  # module tokens on the tile (E17): a badge in its lower right corner
            svg.add(
                "text",
                cell.tokens,
                x=lx + CELL - 5,
                y=ty + CELL - 6,
                class_="code",
                fill=ink,
                text_anchor="end",
            )
        svg.raw("</g>")
    # sides: open thin, walls thick (drawn after the tiles so that they lie on top)
    for at, cell in cells.items():
        for side in (Side.N, Side.E, Side.S, Side.W):
            other = cells.get(at.neighbour(side))
            if other is not None and side in (Side.S, Side.W):
                continue  # each shared side once (from the cell on its north/east... side)
            if _no_line(cell, other, side):
                continue
            wall = side in cell.walls or (other is not None and side.opposite in other.walls)
            x_a, y_a, x_b, y_b = _side_line(left(at.x), top(at.y), side)
            svg.add("line", x1=x_a, y1=y_a, x2=x_b, y2=y_b, class_="wall" if wall else "open")
    # the geometry layers: added walls, half and two-cell pieces, edge and corner pieces
    for shape in layer_shapes(cells, left, top):
        svg.raw(shape)
    # the longest outer wall, highlighted on top
    for at, seg in panel.longest:
        x_a, y_a, x_b, y_b = _side_line(left(at.x), top(at.y), seg)
        svg.add("line", x1=x_a, y1=y_a, x2=x_b, y2=y_b, class_="longest")
    # the player's area (module cards, boards, tiles before him): lines under the Alhambra
    below = gy + (y1 - y0 + 1) * CELL + 8
    for i, line in enumerate(area_lines(panel.player, lang)):
        ly = below + AREA_LINE * (i + 1)
        svg.add("text", line, x=ox + MARGIN, y=ly, class_="area", font_size=11, fill="#333")


def _no_line(cell: CellView, other: CellView | None, side: Side) -> bool:
    """No line on this side: inside a two-cell piece, or on the open half of a half piece."""
    if cell.joined is side or (other is not None and other.joined is side.opposite):
        return True
    half = cell.half
    return half is not None and other is None and side in HALVES[half][1]


def _bastion(lx: float, ty: float, side: Side, at: Coord) -> str:
    """A bastion (Feldlager, E20): three merlons along the side, inside the cell."""
    c = CELL
    merlons = []
    for k in range(3):
        a = c * (0.15 + 0.3 * k)
        w, d = c * 0.2, 7.0
        x, y, width, height = {
            Side.N: (lx + a, ty + 4, w, d),
            Side.S: (lx + a, ty + c - d - 4, w, d),
            Side.W: (lx + 4, ty + a, d, w),
            Side.E: (lx + c - d - 4, ty + a, d, w),
        }[side]
        merlons.append(
            f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(width)}" height="{_fmt(height)}" '
            f'style="fill:{WALL_COLOUR};stroke:none"/>'
        )
    title = escape(f"bastion {side.value} @{at.x},{at.y}")
    return f'<g class="bastion"><title>{title}</title>{"".join(merlons)}</g>'


def layer_shapes(
    cells: Mapping[Coord, CellView],
    left: Callable[[int], float],
    top: Callable[[int], float],
) -> list[str]:
    """SVG elements for the geometry layers, each recognisable on its own: a wooden wall added
    to a tile (light brown on the wall), a half piece (its empty half cut away, its diagonal
    wall), a two-cell piece (one dashed outline around both cells), a piece on an edge (a
    small gate block across the edge: light when it opens the way), a piece on a corner (a
    dark disc on the crossing). Inline styles, so that the page and the document need no new
    CSS; each piece has a ``<title>`` naming it and where it is."""
    out: list[str] = ['<g class="layers">']
    c = CELL
    for at in sorted(cells, key=lambda q: (-q.y, q.x)):
        cell = cells[at]
        lx, ty = left(at.x), top(at.y)
        nw, ne, se, sw = (lx, ty), (lx + c, ty), (lx + c, ty + c), (lx, ty + c)
        if cell.half in HALVES:
            empty = {"sw": (nw, ne, se), "ne": (nw, sw, se), "se": (nw, ne, sw), "nw": (ne, se, sw)}
            pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in empty[cell.half])
            out.append(f'<polygon points="{pts}" style="fill:{BACKGROUND};stroke:none"/>')
            xa, ya, xb, yb = _side_line(lx, ty, HALVES[cell.half][0])
            out.append(
                f'<line x1="{_fmt(xa)}" y1="{_fmt(ya)}" x2="{_fmt(xb)}" y2="{_fmt(yb)}" '
                f'style="stroke:{WALL_COLOUR};stroke-width:7;stroke-linecap:round"/>'
            )
        for side in sorted(cell.bastions, key=lambda s: s.value):
            out.append(_bastion(lx, ty, side, at))
        for side in sorted(cell.added, key=lambda s: s.value):
            xa, ya, xb, yb = _side_line(lx, ty, side)
            out.append(
                f'<line class="added" x1="{_fmt(xa)}" y1="{_fmt(ya)}" x2="{_fmt(xb)}" '
                f'y2="{_fmt(yb)}" style="stroke:{ADDED_COLOUR};stroke-width:4;'
                f'stroke-dasharray:9 3"><title>+ {side.value} @{at.x},{at.y}</title></line>'
            )
        if cell.joined in (Side.N, Side.E):
            x2 = lx + (2 * c if cell.joined is Side.E else c)
            y_top = ty - (c if cell.joined is Side.N else 0)
            height = 2 * c if cell.joined is Side.N else c
            out.append(
                f'<rect x="{_fmt(lx + 3)}" y="{_fmt(y_top + 3)}" width="{_fmt(x2 - lx - 6)}" '
                f'height="{_fmt(height - 6)}" style="fill:none;stroke:#222;stroke-width:3;'
                'stroke-dasharray:8 4"/>'
            )
        for side, label, opens in cell.edges:
            xa, ya, xb, yb = _side_line(lx, ty, side)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            w, h = (24, 14) if ya == yb else (14, 24)
            fill = GATE_COLOUR if opens else EDGE_COLOUR
            out.append(
                f"<g><title>{escape(f'{label} @{at.x},{at.y} {side.value.lower()}')}</title>"
                f'<rect x="{_fmt(mx - w / 2)}" y="{_fmt(my - h / 2)}" width="{w}" height="{h}" '
                f'rx="3" style="fill:{fill};stroke:#3b2a1a;stroke-width:2"/>'
                f'<text x="{_fmt(mx)}" y="{_fmt(my + 4)}" text-anchor="middle" '
                f'style="font-size:11px;font-weight:bold;fill:#3b2a1a">'
                f"{escape(label[:1].upper())}</text></g>"
            )
        if cell.corner:
            out.append(
                f"<g><title>{escape(f'{cell.corner} @{at.x},{at.y} ne')}</title>"
                f'<circle cx="{_fmt(ne[0])}" cy="{_fmt(ne[1])}" r="10" '
                f'style="fill:{CORNER_COLOUR};stroke:#ffffff;stroke-width:2"/>'
                f'<text x="{_fmt(ne[0])}" y="{_fmt(ne[1] + 4)}" text-anchor="middle" '
                f'style="font-size:11px;font-weight:bold;fill:#ffffff">'
                f"{escape(cell.corner[:1].upper())}</text></g>"
            )
    out.append("</g>")
    return out if len(out) > 2 else []


def _side_line(lx: float, ty: float, side: Side | Diagonal) -> tuple[float, float, float, float]:
    if side is Diagonal.NW_SE:
        return lx, ty, lx + CELL, ty + CELL
    if side is Diagonal.SW_NE:
        return lx, ty + CELL, lx + CELL, ty
    if side is Side.N:
        return lx, ty, lx + CELL, ty
    if side is Side.S:
        return lx, ty + CELL, lx + CELL, ty + CELL
    if side is Side.W:
        return lx, ty, lx, ty + CELL
    return lx + CELL, ty, lx + CELL, ty + CELL


_STYLE = f"""
text {{ font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; }}
.title {{ font-size: 18px; font-weight: bold; fill: #222; }}
.axis {{ font-size: 12px; fill: #555; }}
.price {{ font-size: 22px; font-weight: bold; }}
.code {{ font-size: 12px; }}
.legend {{ font-size: 13px; fill: #222; }}
.open {{ stroke: {OPEN_COLOUR}; stroke-width: 1; }}
.wall {{ stroke: {WALL_COLOUR}; stroke-width: 7; stroke-linecap: square; }}
.longest {{ stroke: {LONGEST_COLOUR}; stroke-width: 4; stroke-linecap: round; }}
.fountain {{ fill: #4aa8d8; stroke: #1d6a96; stroke-width: 2; }}
.mark {{ fill: none; stroke: {MARK_COLOUR}; stroke-width: 3; stroke-dasharray: 6 4; }}
.marktext {{ font-size: 24px; font-weight: bold; fill: {MARK_COLOUR}; }}
"""


def render_svg(
    panels: Sequence[Panel],
    lang: str,
    *,
    title: str | None = None,
    mark_label: str | None = None,
    market: str | None = None,
) -> str:
    """An SVG document with the given Alhambras side by side (wrapping after three);
    ``market``: the market line (with the module tokens on its fields, ``Module.market_marks``)
    written under the title, when there is one."""
    per_row = 3
    sizes = [_panel_size(p, lang) for p in panels]
    rows = [list(range(i, min(i + per_row, len(panels)))) for i in range(0, len(panels), per_row)]
    top_h = 30 if title else 0
    market_y = top_h + 20
    if market:
        top_h += 26
    width = 16.0
    height = top_h + 16.0
    placements: list[tuple[float, float]] = [(0.0, 0.0)] * len(panels)
    for row in rows:
        x = 16.0
        row_h = 0
        for i in row:
            placements[i] = (x, height)
            x += sizes[i][0] + GAP
            row_h = max(row_h, sizes[i][1])
        width = max(width, x - GAP + 16)
        height += row_h + GAP
    height += LEGEND_H
    width = max(width, _legend_width(lang, mark_label) + 32)
    if market:
        width = max(width, 8 * len(market) + 32)
    svg = _Svg()
    svg.raw('<?xml version="1.0" encoding="UTF-8"?>')
    svg.raw(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_fmt(width)}" '
        f'height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}">'
    )
    svg.raw(f"<style>{escape(_STYLE)}</style>")
    svg.add("rect", x=0, y=0, width=_fmt(width), height=_fmt(height), fill="#fbf7ef")
    if title:
        svg.add("text", title, x=16, y=26, class_="title")
    if market:  # record text: escaped by ``add``
        # its look inline: the style sheet of every other picture stays as it was
        svg.add("text", market, x=16, y=market_y, class_="market", font_size=14, fill="#222")
    for panel, (px, py) in zip(panels, placements, strict=True):
        svg.raw(f"<g class={quoteattr('alhambra')} data-player={quoteattr(panel.player.name)}>")
        _draw_panel(svg, panel, px, py, lang)
        svg.raw("</g>")
    _legend(svg, 16.0, height - LEGEND_H + 6, lang, mark_label)
    svg.raw("</svg>")
    return "\n".join(svg.parts) + "\n"


def _legend_width(lang: str, mark_label: str | None = None) -> float:
    labels = [type_name(type_, lang) for type_ in BuildingType]
    width = sum(26 + 8 * len(label) for label in labels) + 32 + 8 * len(t("longest_wall", lang))
    if mark_label:
        width += 40 + 8 * len(mark_label)
    return width


def _legend(svg: _Svg, x: float, y: float, lang: str, mark_label: str | None = None) -> None:
    for type_ in BuildingType:
        svg.add("rect", x=x, y=y, width=14, height=14, fill=FILL[type_], stroke="#444")
        label = type_name(type_, lang)
        svg.add("text", label, x=x + 19, y=y + 12, class_="legend")
        x += 26 + 8 * len(label)
    svg.add("line", x1=x, y1=y + 7, x2=x + 26, y2=y + 7, class_="longest")
    wall = t("longest_wall", lang)
    svg.add("text", wall, x=x + 32, y=y + 12, class_="legend")
    if mark_label:
        x += 32 + 8 * len(wall) + 12
        svg.add("rect", x=x, y=y - 1, width=16, height=16, class_="mark")
        svg.add("text", mark_label, x=x + 22, y=y + 12, class_="legend")


# ------------------------------------------------------------------ inline fragments
# A compact drawing of one Alhambra for embedding in an HTML page (the HTML replay): no XML
# prolog, no namespace declaration (HTML gives inline SVG its namespace), no inline style,
# CSS classes instead of fills (``fragment_css``), every wall in one path. The cells are
# ``<g class="c t.." data-at="x,y">``; the ``<svg>`` element carries ``data-x0``/``data-y1``
# (the west column, the north row), ``data-cell`` and ``data-margin`` so that a script can
# find the pixel box of any cell (to highlight it).


def fragment_css(prefix: str = ".alh") -> str:
    """The stylesheet of :func:`alhambra_fragment` (the same colours as :func:`render_svg`)."""
    rules = [f"{prefix} text {{ font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; }}"]
    for type_, fill in FILL.items():
        ink = TEXT_ON.get(type_, "#ffffff")
        rules.append(f"{prefix} .t{type_.code} rect {{ fill: {fill}; }}")
        rules.append(f"{prefix} .t{type_.code} text {{ fill: {ink}; }}")
    rules += [
        f"{prefix} .tF rect {{ fill: {FOUNTAIN_FILL}; }}",
        f"{prefix} .tF text {{ fill: #1d3d4f; }}",
        f"{prefix} .ax {{ font-size: 12px; fill: #555; }}",
        f"{prefix} .pr {{ font-size: 22px; font-weight: bold; }}",
        f"{prefix} .cd {{ font-size: 12px; }}",
        f"{prefix} .lb {{ font-size: 14px; font-weight: bold; }}",
        f"{prefix} .open {{ stroke: {OPEN_COLOUR}; stroke-width: 1; fill: none; }}",
        f"{prefix} .wall {{ stroke: {WALL_COLOUR}; stroke-width: 7; stroke-linecap: square; "
        "fill: none; }",
        f"{prefix} .longest {{ stroke: {LONGEST_COLOUR}; stroke-width: 5; "
        "stroke-linecap: round; fill: none; }",
        f"{prefix} .fountain {{ fill: #4aa8d8; stroke: #1d6a96; stroke-width: 2; }}",
    ]
    return "\n".join(rules) + "\n"


def _path(lines: Iterable[tuple[float, float, float, float]]) -> str:
    """One SVG path ``d`` for many straight lines (``M x y H x`` / ``M x y V y``)."""
    parts: list[str] = []
    for xa, ya, xb, yb in lines:
        if ya == yb:
            parts.append(f"M{_fmt(xa)} {_fmt(ya)}H{_fmt(xb)}")
        elif xa == xb:
            parts.append(f"M{_fmt(xa)} {_fmt(ya)}V{_fmt(yb)}")
        else:
            parts.append(f"M{_fmt(xa)} {_fmt(ya)}L{_fmt(xb)} {_fmt(yb)}")
    return "".join(parts)


def alhambra_fragment(
    cells: Mapping[Coord, CellView],
    lang: str,
    *,
    longest: Sequence[tuple[Coord, Side | Diagonal]] = (),
    pad: int = 0,
) -> str:
    """One Alhambra as an inline ``<svg>`` element (see :func:`fragment_css`).

    ``longest`` (segments of the longest outer wall) is drawn as a ``path.longest`` on top;
    ``pad`` adds that many empty rows/columns around the layout (room for highlights).
    """
    x0, y0, x1, y1 = _bounds(list(cells))
    x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    width = MARGIN + (x1 - x0 + 1) * CELL + 8
    height = MARGIN + (y1 - y0 + 1) * CELL + 8

    def left(x: int) -> float:
        return MARGIN + (x - x0) * CELL

    def top(y: int) -> float:
        return MARGIN + (y1 - y) * CELL

    out: list[str] = [
        f'<svg class="alh" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" data-x0="{x0}" data-y1="{y1}" data-cell="{CELL}" '
        f'data-margin="{MARGIN}">'
    ]
    for x in range(x0, x1 + 1):
        out.append(
            f'<text class="ax" x="{_fmt(left(x) + CELL / 2)}" y="{MARGIN - 8}" '
            f'text-anchor="middle">{x}</text>'
        )
    for y in range(y0, y1 + 1):
        out.append(
            f'<text class="ax" x="{MARGIN - 6}" y="{_fmt(top(y) + CELL / 2 + 5)}" '
            f'text-anchor="end">{y}</text>'
        )
    half = CELL / 2
    for at in sorted(cells, key=lambda c: (-c.y, c.x)):
        cell = cells[at]
        lx, ty = left(at.x), top(at.y)
        if cell.type is None:
            what = t("fountain", lang) if cell.label is None else cell.label
            inner = (
                f'<circle class="fountain" cx="{_fmt(lx + half)}" cy="{_fmt(ty + half)}" '
                f'r="{_fmt(CELL / 4)}"/>'
                if cell.label is None
                else f'<text class="lb" x="{_fmt(lx + half)}" y="{_fmt(ty + half + 5)}" '
                f'text-anchor="middle">{escape(cell.label)}</text>'
            )
            out.append(
                f'<g class="c tF" data-at="{at.x},{at.y}"><title>'
                f"{escape(f'{what} @{at.x},{at.y}')}</title>"
                f'<rect x="{_fmt(lx)}" y="{_fmt(ty)}" width="{CELL}" height="{CELL}"'
                + (f' style="fill:{cell.fill}"' if cell.fill else "")
                + f"/>{inner}</g>"
            )
            continue
        price = "" if cell.price is None else str(cell.price)
        name = type_name(cell.type, lang)
        code = cell.type.code if cell.label is None else cell.label  # a module piece's label
        ring = (
            f'<rect x="{_fmt(lx + 5)}" y="{_fmt(ty + 5)}" width="{CELL - 10}" '
            f'height="{CELL - 10}" style="fill:none;stroke:{cell.fill or "#ffd700"};'
            f'stroke-width:3;stroke-dasharray:6 3"/>'
            if cell.label is not None
            else ""
        )
        on = f" + {cell.tokens}" if cell.tokens else ""
        badge = (
            f'<text class="cd" x="{_fmt(lx + CELL - 5)}" y="{_fmt(ty + CELL - 6)}" '
            f'text-anchor="end">{escape(cell.tokens)}</text>'
            if cell.tokens
            else ""
        )
        out.append(
            f'<g class="c t{cell.type.code}" data-at="{at.x},{at.y}"><title>'
            f"{escape(f'{name} {price} @{at.x},{at.y}{on}')}</title>"
            f'<rect x="{_fmt(lx)}" y="{_fmt(ty)}" width="{CELL}" height="{CELL}"/>'
            f'<text class="pr" x="{_fmt(lx + half)}" y="{_fmt(ty + half + 8)}" '
            f'text-anchor="middle">{price}</text>'
            f'<text class="cd" x="{_fmt(lx + 6)}" y="{_fmt(ty + 15)}">{escape(code)}</text>'
            f"{ring}{badge}</g>"
        )
    walls: list[tuple[float, float, float, float]] = []
    opens: list[tuple[float, float, float, float]] = []
    for at, cell in cells.items():
        for side in (Side.N, Side.E, Side.S, Side.W):
            other = cells.get(at.neighbour(side))
            if other is not None and side in (Side.S, Side.W):
                continue
            if _no_line(cell, other, side):
                continue
            wall = side in cell.walls or (other is not None and side.opposite in other.walls)
            (walls if wall else opens).append(_side_line(left(at.x), top(at.y), side))
    if opens:
        out.append(f'<path class="open" d="{_path(sorted(opens))}"/>')
    if walls:
        out.append(f'<path class="wall" d="{_path(sorted(walls))}"/>')
    out.extend(layer_shapes(cells, left, top))
    if longest:
        segs = [_side_line(left(at.x), top(at.y), side) for at, side in longest]
        out.append(f'<path class="longest" d="{_path(segs)}"/>')
    out.append("</svg>")
    return "".join(out)
