"""Scoring breakdowns as text for people (English or German)."""

from __future__ import annotations

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.scoring.categories import num_text, signed
from referee.scoring.core import ScoringResult, ScoringRow, TypeScore

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "scoring": "Scoring",
        "final": "final",
        "type": "",
        "count": "count",
        "place": "place",
        "points": "points",
        "how": "how",
        "wall": "wall",
        "no wall": "no wall (Dirk)",
        "not verified": "wall not verified (stated length)",
        "sum": "this scoring",
        "total": "total",
        "tie": "tie",
        "ranking": "Ranking",
        "standings": "Standings",
        "winner": "winner",
        "winners": "winners (shared victory)",
        "mode_trail": "longest wall: every segment of a closed ring counts",
        "mode_simple-path": "longest wall: a closed ring of N segments counts N-1",
        "none": "-",
        "place_word": "place",
        "of": "of",
        "segments": "segments",
        "not scored": "not scored in this game",
    },
    "de": {
        "scoring": "Wertung",
        "final": "Schlusswertung",
        "type": "",
        "count": "Anzahl",
        "place": "Platz",
        "points": "Punkte",
        "how": "Berechnung",
        "wall": "Außenmauer",
        "no wall": "keine Mauer (Dirk)",
        "not verified": "Mauer nicht geprüft (angegebene Länge)",
        "sum": "diese Wertung",
        "total": "gesamt",
        "tie": "gleichauf",
        "ranking": "Endstand",
        "standings": "Stand",
        "winner": "Sieger",
        "winners": "Sieger (geteilter Sieg)",
        "mode_trail": "längste Mauer: jedes Stück eines geschlossenen Rings zählt",
        "mode_simple-path": "längste Mauer: ein geschlossener Ring aus N Stücken zählt N-1",
        "none": "-",
        "place_word": "Platz",
        "of": "von",
        "segments": "Stücke",
        "not scored": "in diesem Spiel nicht gewertet",
    },
}


def _w(lang: str, key: str) -> str:
    return _WORDS.get(lang, _WORDS["en"])[key]


def ordinal(n: int, lang: str = "en") -> str:
    if lang == "de":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _place(score: TypeScore, lang: str) -> str:
    if score.place is None:
        return _w(lang, "none")
    text = ordinal(score.place, lang)
    if score.tied_with:
        text += f" ({_w(lang, 'tie')}: {', '.join(score.tied_with)})"
    return text


def _segments(row: ScoringRow) -> str:
    if row.wall is None:
        return ""
    return ", ".join(f"{c} {s.value}" for c, s in row.wall.segments)


def type_line(row: ScoringRow, t: BuildingType, lang: str = "en") -> str:
    """One line for a claim message: ``Anna, towers: 4, 1st (tie: Ben), (13+6)/2 = 9``."""
    s = row.buildings[t]
    how = s.split or str(s.points)
    return (
        f"{row.name}, {t.name_in(lang, plural=True)}: {num_text(s.count)}, {_place(s, lang)}, "
        f"{how} {_w(lang, 'points')}"
    )


def category_line(row: ScoringRow, key: str, lang: str = "en") -> str:
    """One line for a module category: ``Anna, medina −6 (2nd fewest (3), dearest 5)``."""
    s = row.categories.get(key)
    if s is None:
        return f"{row.name}, {row.label(key, lang)} 0 ({_w(lang, 'not scored')})"
    detail = s.detail(lang)
    text = f"{row.name}, {row.label(key, lang)} {signed(s.points)}"
    return f"{text} ({detail})" if detail else text


def wall_line(row: ScoringRow, lang: str = "en") -> str:
    """One line for a claim message about the wall."""
    if row.wall is None:
        return f"{row.name}: {_w(lang, 'no wall')}"
    extra = "" if row.wall.verified else f" ({_w(lang, 'not verified')})"
    where = f" [{_segments(row)}]" if row.wall.segments else ""
    return (
        f"{row.name}, {_w(lang, 'wall')}: {row.wall.length} -> {row.wall.points} "
        f"{_w(lang, 'points')}{where}{extra}"
    )


def render_scoring_text(result: ScoringResult, lang: str = "en", ranking: bool = True) -> str:
    """An aligned table per participant, then the standings (``ranking`` False: leave out)."""
    title = f"{_w(lang, 'scoring')} {result.round}"
    if result.round == 3:
        title += f" ({_w(lang, 'final')})"
    lines = [title, f"  ({_w(lang, 'mode_' + result.wall_mode)})"]
    if result.table is not None:
        lines.append(f"  ({result.table_text(lang)})")
    lines.append("")
    names = [t.name_in(lang, plural=True) for t in BUILDING_TYPES]
    extra = [r.label(k, lang) for r in result.rows for k in r.modules]
    label_w = max(
        len(n) for n in [*names, *extra, _w(lang, "wall"), _w(lang, "sum"), _w(lang, "total")]
    )
    # each row's buildings and module categories, looked up once (they are computed properties)
    buildings = [r.buildings for r in result.rows]
    modules = [r.modules for r in result.rows]
    places = [_place(s, lang) for b in buildings for s in b.values()]
    places += [s.place_text(lang) for m in modules for s in m.values()]
    place_w = max([len(_w(lang, "place")), *(len(p) for p in places)])
    count_w = max(len(_w(lang, "count")), 3)
    points_w = max(len(_w(lang, "points")), 4)

    def row_text(label: str, count: str, place: str, points: str, how: str) -> str:
        text = f"  {label:<{label_w}}  {count:>{count_w}}  {place:<{place_w}}  {points:>{points_w}}"
        return f"{text}  {how}".rstrip()

    for row, row_buildings, row_modules in zip(result.rows, buildings, modules, strict=True):
        lines.append(row.name)
        lines.append(
            row_text("", _w(lang, "count"), _w(lang, "place"), _w(lang, "points"), _w(lang, "how"))
        )
        for t, name in zip(BUILDING_TYPES, names, strict=True):
            s = row_buildings[t]
            count = num_text(s.count)
            lines.append(row_text(name, count, _place(s, lang), str(s.points), s.split))
            for adj in s.adjustments:
                sign = "+" if adj.amount >= 0 else "-"
                size = num_text(-adj.amount if adj.amount < 0 else adj.amount)
                lines.append(row_text("", f"{sign}{size}", "", "", adj.text(lang)))
        if row.wall is None:
            lines.append(row_text(_w(lang, "wall"), "", "", "0", _w(lang, "no wall")))
        else:
            how = _segments(row) if row.wall.verified else _w(lang, "not verified")
            lines.append(
                row_text(_w(lang, "wall"), str(row.wall.length), "", str(row.wall.points), how)
            )
        for key, cs in row_modules.items():
            points = signed(cs.points) if cs.points < 0 else str(cs.points)
            lines.append(
                row_text(
                    row.label(key, lang),
                    cs.quantity_text(),
                    cs.place_text(lang),
                    points,
                    cs.detail(lang),
                )
            )
        lines.append(row_text(_w(lang, "sum"), "", "", str(row.points), ""))
        lines.append(
            row_text(
                _w(lang, "total"),
                "",
                "",
                str(row.total),
                f"{row.total_before} + {row.points}",
            )
        )
        lines.append("")
    if ranking:
        head = _w(lang, "ranking") if result.round == 3 else _w(lang, "standings")
        lines.append(head)
        ranked = result.ranking()
        name_w = max((len(r.name) for _k, r in ranked), default=0)
        for rank, r in ranked:
            lines.append(f"  {ordinal(rank, lang):>4}  {r.name:<{name_w}}  {r.total:>4}")
        dirk = result.row(None)
        if dirk is not None:
            lines.append(f"        ({dirk.name}  {dirk.total})")
        if result.round == 3:
            winners = result.winners()
            word = _w(lang, "winner") if len(winners) == 1 else _w(lang, "winners")
            lines.append(f"  {word}: {', '.join(winners)}")
    return "\n".join(lines).rstrip() + "\n"
