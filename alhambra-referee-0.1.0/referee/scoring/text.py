"""Scoring breakdowns as text for people (English or German)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, repeat

from referee.catalogue import BUILDING_TYPES, BuildingType, Side
from referee.geometry.pieces import Diagonal
from referee.scoring.categories import num_text, signed
from referee.scoring.core import ScoringResult, ScoringRow, TypeScore, WallScore

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


class _Padded(dict[int, str]):
    """Whole numbers right-aligned in a column of one width, ``format(n, f">{width}")`` worked
    out on first use (bounded): the tables' count and points columns hand these strings to a
    plain ``{}`` field instead of formatting the number with a width spec every time (an int
    formatted with a width costs about ten times a dictionary look-up: the thousands grouping,
    the locale and the spec parsed anew). Only ``int`` keys (``True`` would share ``1``'s
    entry, which holds the same text); anything else goes through :meth:`text`."""

    __slots__ = ("spec",)

    def __init__(self, width: int) -> None:
        super().__init__()
        self.spec = f">{width}"

    def __missing__(self, n: int) -> str:
        if len(self) >= 4096:
            self.clear()
        text = self[n] = format(n, self.spec)
        return text

    def text(self, n: object) -> str:
        """``format(n, f">{width}")`` for any number (a fraction of a module, a bool)."""
        return self[n] if type(n) is int else format(n, self.spec)


class _Ranks(dict[int, str]):
    """A rank's ordinal right-aligned to 4 (``f"{ordinal:>4}"``), worked out on first use."""

    __slots__ = ("tongue",)

    def __init__(self, tongue: _Lang) -> None:
        super().__init__()
        self.tongue = tongue

    def __missing__(self, rank: int) -> str:
        if len(self) >= 4096:
            self.clear()
        text = self[rank] = f"{self.tongue.ordinal(rank):>4}"
        return text


class _Lang:
    """What a breakdown in one language needs again and again, worked out once per language:
    its words, the plural type names, the widest fixed label, the places' ordinals and the
    aligned numbers of the count and points columns (their widths are the language's)."""

    __slots__ = (
        "count_col",
        "count_w",
        "kept",
        "label_w",
        "lang",
        "names",
        "ordinals",
        "parts",
        "points_col",
        "points_w",
        "ranks",
        "totals",
        "words",
    )

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.words = words = _WORDS.get(lang, _WORDS["en"])
        self.names = tuple(t.name_in(lang, plural=True) for t in BUILDING_TYPES)
        fixed = (*self.names, words["wall"], words["sum"], words["total"])
        self.label_w = max(len(n) for n in fixed)
        self.ordinals = {n: ordinal(n, lang) for n in range(1, 10)}
        self.count_w = max(len(words["count"]), 3)
        self.points_w = max(len(words["points"]), 4)
        self.count_col, self.points_col = _Padded(self.count_w), _Padded(self.points_w)
        # the standings' columns: a rank's ordinal and a total, right-aligned to 4
        self.ranks = _Ranks(self)
        self.totals = _Padded(4)
        # type_parts of the scores without adjustments, by id; ``kept`` holds those scores, so
        # that no id of a live entry is another object's (cleared together, bounded)
        self.parts: dict[int, tuple[str, str, str, str]] = {}
        self.kept: list[TypeScore] = []

    def ordinal(self, n: int) -> str:
        return self.ordinals.get(n) or ordinal(n, self.lang)

    def type_parts(self, score: TypeScore) -> tuple[str, str, str, str]:
        """The columns of a type's line after its label: the count aligned, the place (not yet
        aligned: its width is the table's), the points aligned and ``"  how"`` (or ``""``).
        Kept by the score's id when it has no count adjustments: the scores of the base game
        are shared records (``scoring.core.type_score``), most of a table's come again."""
        count, points, split = score.count, score.points, score.split
        parts = (
            self.count_col[count] if type(count) is int else num_text(count).rjust(self.count_w),
            self.place(score),
            self.points_col.text(points),
            f"  {split}" if split else "",
        )
        if not score.adjustments:
            if len(self.kept) >= 4096:
                self.parts.clear()
                self.kept.clear()
            self.parts[id(score)] = parts
            self.kept.append(score)
        return parts

    def place(self, score: TypeScore) -> str:
        """The place column of a type: ``1st``, ``1st (tie: Ben)``, ``-``."""
        place = score.place
        if place is None:
            return self.words["none"]
        text = self.ordinals.get(place) or ordinal(place, self.lang)
        if score.tied_with:
            text += f" ({self.words['tie']}: {', '.join(score.tied_with)})"
        return text


_LANGS: dict[str, _Lang] = {}


def _lang(lang: str) -> _Lang:
    found = _LANGS.get(lang)
    if found is None:
        found = _LANGS[lang] = _Lang(lang)
    return found


def _place(score: TypeScore, lang: str) -> str:
    return _lang(lang).place(score)


# a half piece's diagonal wall (a watchtower, E24) is written ``x,y d``
_SIDE_CODE: dict[Side | Diagonal, str] = {s: s.value for s in Side}
_SIDE_CODE.update({d: "d" for d in Diagonal})


class _SegmentTexts(dict[tuple[tuple[int, int], Side | Diagonal], str]):
    """``-1,0 S`` per wall segment (cell and side), worked out on first use (bounded)."""

    def __missing__(self, segment: tuple[tuple[int, int], Side | Diagonal]) -> str:
        if len(self) >= 20_000:
            self.clear()
        c, s = segment
        text = self[segment] = f"{c[0]},{c[1]} {_SIDE_CODE[s]}"
        return text


_SEGMENT_TEXT = _SegmentTexts()


def _segments_text(wall: WallScore, lang: str = "en") -> str:
    """``-1,0 S, -1,0 W``: the wall's segments (cell and side; in German east is ``O``)."""
    if lang == "de":
        return ", ".join(
            f"{c[0]},{c[1]} {'O' if s is Side.E else _SIDE_CODE[s]}" for c, s in wall.segments
        )
    return ", ".join(map(_SEGMENT_TEXT.__getitem__, wall.segments))


def _segments(row: ScoringRow, lang: str = "en") -> str:
    wall = row.wall
    return "" if wall is None else _segments_text(wall, lang)


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
    where = f" [{_segments(row, lang)}]" if row.wall.segments else ""
    return (
        f"{row.name}, {_w(lang, 'wall')}: {row.wall.length} -> {row.wall.points} "
        f"{_w(lang, 'points')}{where}{extra}"
    )


def render_scoring_text(result: ScoringResult, lang: str = "en", ranking: bool = True) -> str:
    """An aligned table per participant, then the standings (``ranking`` False: leave out)."""
    return "\n".join(_scoring_text_parts(result, lang, ranking)).rstrip() + "\n"


def _escaped(text: str) -> str:
    """``text`` as a literal inside a format string."""
    return text.replace("{", "{{").replace("}", "}}")


class _Layout:
    """The prepared formats of one breakdown table: a language and its column widths. A line
    is one ``format`` call with its label already in place; a line whose last column ("how")
    is empty has no trailing blanks, so it needs no ``rstrip``. ``row`` makes a whole
    participant of the base game (no count adjustments, no module lines) in one call. The
    count and points columns of ``types``, ``wall``, ``sum``, ``total`` and ``row`` are plain
    ``{}`` fields taking the numbers already aligned (``counts`` and ``points``, see
    :class:`_Padded`): ``"{}".format(counts[n])`` is ``"{:>w}".format(n)``."""

    __slots__ = (
        "counts",
        "fmt",
        "header",
        "no_wall",
        "points",
        "row",
        "sum",
        "total",
        "types",
        "wall",
    )

    def __init__(self, tongue: _Lang, label_w: int, place_w: int) -> None:
        w = tongue.words
        count_w, points_w = tongue.count_w, tongue.points_w
        # label, count, place, points, how (the general line, trailing blanks cut by callers)
        self.fmt = fmt = (
            f"  {{:<{label_w}}}  {{:>{count_w}}}  {{:<{place_w}}}  {{:>{points_w}}}  {{}}".format
        )
        self.header = fmt("", w["count"], w["place"], w["points"], w["how"]).rstrip()
        self.no_wall = fmt(w["wall"], "", "", "0", w["no wall"]).rstrip()
        blank_count, blank_place = " " * count_w, " " * place_w
        self.counts, self.points = tongue.count_col, tongue.points_col

        def labelled(label: str, count: str = "{}", place: str = blank_place) -> str:
            head = _escaped(f"{label:<{label_w}}")
            return f"  {head}  {count}  {place}  {{}}"

        # a type: count, place, points (then "  how" when there is one)
        types = [labelled(name, place=f"{{:<{place_w}}}") for name in tongue.names]
        self.types = tuple(t.format for t in types)
        self.wall = labelled(w["wall"]).format  # length, points
        total = labelled(w["total"], count=blank_count) + "  {} + {}"  # total, before, points
        self.sum = labelled(w["sum"], count=blank_count).format  # points
        self.total = total.format
        # a participant of the base game, one block: its literal pieces with a slot between
        # each two, for the name; per type the count, the place (aligned), the points and
        # "  how" or ""; the wall line; the points; the total, the total before and the points.
        # The slots ``[1::2]`` set and the list joined make the block without scanning a long
        # format's literal text (about 700 characters) every time
        row = "\n".join(
            [
                "{}",
                _escaped(self.header),
                *(labelled(name, place="{}") + "{}" for name in tongue.names),
                "{}",
                labelled(w["sum"], count=blank_count),
                total,
                "",
            ]
        )
        self.row = _pieces(row.format, 4 * len(types) + 6)


def _pieces(fmt: Callable[..., str], fields: int) -> list[str]:
    """The literal pieces of a format of ``fields`` plain fields with a slot (``""``) between
    each two: the slots ``[1::2]`` set to strings and the list joined is ``fmt`` of them. The
    pieces are taken by formatting marks that occur nowhere in the literal text."""
    marks = [f"\x00{i}\x00" for i in range(fields)]
    text = fmt(*marks)
    pieces: list[str] = []
    for mark in marks:
        head, text = text.split(mark)  # exactly one occurrence of each mark
        pieces += (head, "")
    pieces.append(text)
    return pieces


_LAYOUTS: dict[tuple[str, int, int], _Layout] = {}


def _layout(tongue: _Lang, label_w: int, place_w: int) -> _Layout:
    key = (tongue.lang, label_w, place_w)
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) >= 512:  # a few widths in practice; bounded whatever the names
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = _Layout(tongue, label_w, place_w)
    return found


def scoring_text_lines(result: ScoringResult, lang: str = "en", ranking: bool = True) -> list[str]:
    """The lines of :func:`render_scoring_text` (the last ones may be empty)."""
    return "\n".join(_scoring_text_parts(result, lang, ranking)).split("\n")


_TYPE_KEYS = tuple(f"majority:{t.code}" for t in BUILDING_TYPES)
_ONLY_TYPE_SCORES = {TypeScore}


def _type_scores(row: ScoringRow) -> list[TypeScore]:
    """The values of ``row.buildings``: a base game's row has all six, straight from its
    categories."""
    found = list(map(row.categories.get, _TYPE_KEYS))
    if set(map(type, found)) == _ONLY_TYPE_SCORES:
        return found  # type: ignore[return-value]
    return list(row.buildings.values())


def _scoring_text_parts(result: ScoringResult, lang: str, ranking: bool) -> list[str]:
    """The text of a scoring as parts to join with line breaks: lines, or (a participant of the
    base game) a block of lines made by one format call."""
    tongue = _lang(lang)
    w = tongue.words
    title = f"{w['scoring']} {result.round}"
    if result.round == 3:
        title += f" ({w['final']})"
    lines = [title, f"  ({w['mode_' + result.wall_mode]})"]
    if result.table is not None:
        lines.append(f"  ({result.table_text(lang)})")
    lines.append("")
    rows = result.rows
    # each row's building scores and module categories, looked up once
    buildings = [_type_scores(r) for r in rows]
    modules = [r.modules for r in rows]
    label_w = tongue.label_w
    for r, m in zip(rows, modules, strict=True):
        for k in m:
            label_w = max(label_w, len(r.label(k, lang)))
    # the place column of every type (``1st``, ``1st (tie: Ben)``, ``-``), and whether a row
    # has count adjustments; per type the values of its line: count, place, points, how
    counts, points_col = tongue.count_col, tongue.points_col  # aligned numbers (_Padded)
    parts_of = tongue.parts.get  # a score's columns worked out before (_Lang.type_parts)
    values: list[list[str]] = []
    adjusted: list[bool] = []
    place_w = len(w["place"])
    for b in buildings:
        # the columns of every score worked out before, in C; the others one by one
        found = list(map(parts_of, map(id, b)))
        row_adjusted = False
        if None in found:
            for i, s in enumerate(b):
                if found[i] is None:
                    found[i] = tongue.type_parts(s)
                    if s.adjustments:
                        row_adjusted = True
        row_values = list(chain.from_iterable(found))  # type: ignore[arg-type]
        place_w = max(place_w, max(map(len, row_values[1::4]), default=0))
        values.append(row_values)
        adjusted.append(row_adjusted)
    for m in modules:
        for cs in m.values():
            place_w = max(place_w, len(cs.place_text(lang)))
    layout = _layout(tongue, label_w, place_w)
    fmt = layout.fmt
    add = lines.append
    english, segment_text = lang != "de", _SEGMENT_TEXT.__getitem__
    for row, row_buildings, row_values, row_modules, row_adjusted in zip(
        rows, buildings, values, modules, adjusted, strict=True
    ):
        wall = row.wall
        if wall is None:
            wall_line = layout.no_wall
        else:
            length, wall_points = wall.length, wall.points
            wall_line = layout.wall(
                counts[length] if type(length) is int else counts.text(length),
                points_col[wall_points]
                if type(wall_points) is int
                else points_col.text(wall_points),
            )
            if not wall.verified:
                wall_line = f"{wall_line}  {w['not verified']}"
            elif wall.segments:  # "-1,0 S, -1,0 W" (German: _segments_text)
                how = (
                    ", ".join(map(segment_text, wall.segments))
                    if english
                    else _segments_text(wall, lang)
                )
                wall_line = f"{wall_line}  {how}"
        points, total = row.points, row.total
        points_text = points_col[points] if type(points) is int else points_col.text(points)
        total_text = points_col[total] if type(total) is int else points_col.text(total)
        if not row_modules and not row_adjusted and len(row_buildings) == len(layout.types):
            # the block's pieces with their slots set (str() is what a plain field writes)
            row_values[1::4] = map(str.ljust, row_values[1::4], repeat(place_w))
            block = layout.row.copy()
            block[1::2] = [
                row.name,
                *row_values,
                wall_line,
                points_text,
                total_text,
                str(row.total_before),
                str(points),
            ]
            add("".join(block))
            continue
        add(row.name)
        add(layout.header)
        for i, (type_fmt, s) in enumerate(zip(layout.types, row_buildings, strict=True)):
            line = row_values[4 * i : 4 * i + 4]  # count, place, points, how
            add(f"{type_fmt(*line[:3])}{line[3]}")
            for adj in s.adjustments:
                sign = "+" if adj.amount >= 0 else "-"
                size = num_text(-adj.amount if adj.amount < 0 else adj.amount)
                add(fmt("", f"{sign}{size}", "", "", adj.text(lang)).rstrip())
        add(wall_line)
        for key, cs in row_modules.items():
            label = row.label(key, lang)
            add(
                fmt(
                    label,
                    cs.quantity_text(),
                    cs.place_text(lang),
                    signed(cs.points) if cs.points < 0 else str(cs.points),
                    cs.detail(lang),
                ).rstrip()
            )
        add(layout.sum(points_text))
        add(layout.total(total_text, row.total_before, points))
        add("")
    if ranking:
        add(w["ranking"] if result.round == 3 else w["standings"])
        ranked = result.ranking()
        name_w = max(map(len, [r.name for _k, r in ranked]), default=0)
        ranks, totals = tongue.ranks, tongue.totals  # aligned to 4, worked out once
        for rank, r in ranked:
            total = r.total
            add(
                f"  {ranks[rank]}  {r.name.ljust(name_w)}  "
                f"{totals[total] if type(total) is int else totals.text(total)}"
            )
        dirk = result.row(None)
        if dirk is not None:
            add(f"        ({dirk.name}  {dirk.total})")
        if result.round == 3:
            winners = [r.name for rank, r in ranked if rank == 1]
            word = w["winner"] if len(winners) == 1 else w["winners"]
            add(f"  {word}: {', '.join(winners)}")
    return lines
