"""The three scorings: building majorities with ties, and the longest outer wall.

Rulebook ``rulebook-base-de-2003.txt``:

- "Wertungen": "Bei jeder Wertung werden sowohl Siegpunkte für Gebäudemehrheiten als auch für
  Außenmauern der Alhambra vergeben."
- "Siegpunkte für Mehrheiten bei den Gebäuden": scoring 1 pays the 1st place only, scoring 2 the
  1st and 2nd, scoring 3 the 1st to 3rd (tables "1. Wertung", "2. Wertung", and the table before
  "Diese Punkte werden bei der 3. Wertung verteilt."). "Besitzen mehrere Spieler gleich viele
  Gebäude einer Sorte, so werden die Punkte der entsprechenden Plätze geteilt. Dabei wird immer
  abgerundet." (example: Kim and Nina, 4 towers each in scoring 2: (13 + 6) / 2 -> 9 each).
  "Achtung: Gebäudeteile in Ihrem Reservefeld zählen bei Wertungen nicht mit." "... dass man
  mindestens 1 Gebäudeteil besitzen muss, um überhaupt Siegpunkte für die entsprechende
  Gebäudeart zu erlangen."
- "Siegpunkte für die Außenmauern": one point per outer-wall tile edge of the longest connected
  run (see :mod:`referee.geometry.walls`).
- "Sonderregel für das Spiel zu zweit": "Bei Wertungen bekommt auch Dirk Siegpunkte für
  Gebäudemehrheiten, eine Außenmauer wird für ihn jedoch nicht gewertet."

Readings (see ``docs/scoring.md``): tied players occupy as many places as they are; places past
the paid ones add 0 to the shared sum; the next player takes the place after the tied ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import attrgetter

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.geometry import Alhambra, Segment
from referee.interpreted import interpreted_class
from referee.makers import record_maker
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import Claim
from referee.scoring.categories import (
    BASE_KEYS,
    CATEGORIES,
    CategoryScore,
    Floor,
    LineScore,
    Number,
    Participant,
    ScoringCategory,
    base_categories,
    norm,
    num_json,
)
from referee.scoring.frozen import frozen_dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _V = TypeVar("_V")


RULES_FILE = "rulebook-base-de-2003.txt"
SECTION_MAJORITIES = "Siegpunkte für Mehrheiten bei den Gebäuden"
SECTION_WALLS = "Siegpunkte für die Außenmauern"
SECTION_SCORINGS = "Wertungen"
SECTION_TWO_PLAYERS = "Sonderregel für das Spiel zu zweit"

# Points per place, by scoring round and building type (pavilion ... tower).
POINTS: dict[int, dict[BuildingType, tuple[int, ...]]] = {
    1: {t: (i + 1,) for i, t in enumerate(BUILDING_TYPES)},
    2: {t: (8 + i, 1 + i) for i, t in enumerate(BUILDING_TYPES)},
    3: {t: (16 + i, 8 + i, 1 + i) for i, t in enumerate(BUILDING_TYPES)},
}


def place_points(round_no: int, type_: BuildingType, place: int) -> int:
    """What a place (1-based) pays for a type in a scoring; 0 past the paid places."""
    table = POINTS[round_no][type_]
    return table[place - 1] if 1 <= place <= len(table) else 0


# ------------------------------------------------------------------------------ input


@dataclass(init=False, repr=False, eq=False)
class CountAdjustment:
    """A module's contribution to a building count, shown on its own breakdown line.

    ``amount`` may be a :class:`~fractions.Fraction` (half buildings); an int stays an int."""

    type: BuildingType
    amount: Number
    label: str
    label_de: str | None = None  # the German line (the English one is used when missing)

    def __init__(
        self,
        type: BuildingType,
        amount: Number,
        label: str,
        label_de: str | None = None,
    ) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "label_de", label_de)

    def text(self, lang: str = "en") -> str:
        return self.label_de if lang == "de" and self.label_de else self.label


frozen_dataclass(CountAdjustment)


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class ScoringEntry:
    """One participant of a scoring: a player (with an Alhambra or counts) or Dirk."""

    name: str
    alhambra: Alhambra | None = None  # None: Dirk, or the counts fallback
    counts: Mapping[BuildingType, int] | None = None  # used when alhambra is None
    wall_claim: int | None = None  # fallback: stated wall length ("wall not verified")
    is_dirk: bool = False  # Dirk: majorities, never a wall
    adjustments: tuple[CountAdjustment, ...] = ()  # module contributions, own breakdown lines
    total_before: int = 0

    def __init__(
        self,
        name: str,
        alhambra: Alhambra | None = None,
        counts: Mapping[BuildingType, int] | None = None,
        wall_claim: int | None = None,
        is_dirk: bool = False,
        adjustments: tuple[CountAdjustment, ...] = (),
        total_before: int = 0,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "alhambra", alhambra)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "wall_claim", wall_claim)
        object.__setattr__(self, "is_dirk", is_dirk)
        object.__setattr__(self, "adjustments", adjustments)
        object.__setattr__(self, "total_before", total_before)


frozen_dataclass(ScoringEntry)


# ----------------------------------------------------------------------------- output


# (type, its majority category key), in the types' order
_MAJORITY_KEYS: tuple[tuple[BuildingType, str], ...] = tuple(
    (t, f"majority:{t.code}") for t in BUILDING_TYPES
)


# (a type's code, its majority category key), in the types' order
_MAJORITY_CODES: tuple[tuple[str, str], ...] = tuple((t.code, k) for t, k in _MAJORITY_KEYS)


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class TypeScore(CategoryScore):
    """One participant's result for one building type (category ``majority:<type>``)."""

    count: Number  # including adjustments
    base_count: int
    adjustments: tuple[CountAdjustment, ...]
    place: int | None  # 1-based; None with no building of the type
    tied_with: tuple[str, ...]
    points: int
    split: str  # how a shared place was split, e.g. "(13+6)/2 = 9"; "" when not shared

    def __init__(
        self,
        count: Number,
        base_count: int,
        adjustments: tuple[CountAdjustment, ...],
        place: int | None,
        tied_with: tuple[str, ...],
        points: int,
        split: str,
    ) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "base_count", base_count)
        object.__setattr__(self, "adjustments", adjustments)
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "tied_with", tied_with)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "split", split)

    def to_dict(self) -> dict[str, Any]:
        count = self.count
        d: dict[str, Any] = {
            "count": count if type(count) is int else num_json(count),
            "place": self.place,
            "points": self.points,
        }
        if self.tied_with:
            d["tied_with"] = list(self.tied_with)
            d["split"] = self.split
        if self.adjustments:
            d["base_count"] = self.base_count
            d["adjustments"] = [
                {"amount": num_json(a.amount), "label": a.label} for a in self.adjustments
            ]
        return d


frozen_dataclass(TypeScore)


# TypeScores without count adjustments, by their fields: a score is immutable, and the same
# few (no building, 0 points; 1st place alone with 3 ...) come back in every scoring
_TYPE_SCORES: dict[tuple[int, int, int | None, tuple[str, ...], int, str], TypeScore] = {}
_TYPE_SCORES_MAX = 20_000  # bounded whatever the names (a tie names the others)


def type_score(
    count: Number,
    base_count: int,
    adjustments: tuple[CountAdjustment, ...],
    place: int | None,
    tied_with: tuple[str, ...],
    points: int,
    split: str,
) -> TypeScore:
    """``TypeScore(...)``, made by its :func:`record_maker`. Every scoring needs one per type
    and participant; one without adjustments and with a whole count is handed out again when
    the same fields come back (scores are immutable)."""
    if adjustments or type(count) is not int:
        return _type_score(count, base_count, adjustments, place, tied_with, points, split)
    key = (count, base_count, place, tied_with, points, split)
    score = _TYPE_SCORES.get(key)
    if score is None:
        if len(_TYPE_SCORES) >= _TYPE_SCORES_MAX:
            _TYPE_SCORES.clear()
        score = _TYPE_SCORES[key] = _type_score(
            count, base_count, (), place, tied_with, points, split
        )
    return score


_type_score = record_maker(TypeScore)


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class WallScore(CategoryScore):
    """The longest outer wall of a player's Alhambra (or the stated length, not verified)."""

    length: int
    points: int
    # a segment is a cell's side or, with Die Wachtürme, its diagonal (geometry.walls.Segment);
    # compiled, the loop in to_dict checks each item against this annotation
    segments: tuple[Segment, ...]
    verified: bool

    def __init__(
        self,
        length: int,
        points: int,
        segments: tuple[Segment, ...],
        verified: bool,
    ) -> None:
        object.__setattr__(self, "length", length)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "segments", segments)
        object.__setattr__(self, "verified", verified)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"length": self.length, "points": self.points}
        d["verified"] = self.verified
        if self.segments:
            d["segments"] = [
                {"at": at, "side": side}
                for at, side in map(_SEGMENT_JSON.__getitem__, self.segments)
            ]
        return d


frozen_dataclass(WallScore)


class _SegmentJson(dict[Segment, tuple[str, str]]):
    """A wall segment's ``at`` and ``side`` as JSON gives them (``str(cell)``, the side's
    value), worked out on first use (bounded): the same cells' sides come in many walls."""

    def __missing__(self, segment: Segment) -> tuple[str, str]:
        if len(self) >= 20_000:
            self.clear()
        cell, side = segment
        texts = self[segment] = (str(cell), side.value)
        return texts


_SEGMENT_JSON = _SegmentJson()


new_wall_score = record_maker(WallScore)  # ``WallScore(...)`` without the frozen __init__


def _worked_out_once(method: Callable[[Any], _V]) -> cached_property[_V]:
    """``functools.cached_property(method)``, made when the class is made, in either build.

    Written as ``@cached_property``, mypy takes the decorator for a plain ``property`` and
    removes it, so the compiled build made a property that worked the value out at every
    read (a row's ``points`` and ``total``: 17,400 and 14,760 times for 600 scorings of the
    bench's 200 games, some 115 M instructions, issue 34, thirteenth step). Through this call
    the compiled class gets the real ``cached_property`` too."""
    return cached_property(method)


# a field's default_factory (dict): an __init__ given no value makes a new dict, as the
# generated one did (referee/scoring/frozen.py)
_FACTORY_DICT: dict[Any, Any] = {}


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class ScoringRow:
    """One participant's breakdown in one scoring: a line per category, in category order.

    ``categories`` maps a category key (``majority:T``, ``wall``, ``medina``) to its score;
    ``buildings`` and ``wall`` are the base game's view of it."""

    name: str
    is_dirk: bool
    categories: dict[str, CategoryScore]
    total_before: int
    labels: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False)

    def __init__(
        self,
        name: str,
        is_dirk: bool,
        categories: dict[str, CategoryScore],
        total_before: int,
        labels: dict[str, tuple[str, str]] = _FACTORY_DICT,
    ) -> None:
        if labels is _FACTORY_DICT:
            labels = {}
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "is_dirk", is_dirk)
        object.__setattr__(self, "categories", categories)
        object.__setattr__(self, "total_before", total_before)
        object.__setattr__(self, "labels", labels)

    @property
    def buildings(self) -> dict[BuildingType, TypeScore]:
        out: dict[BuildingType, TypeScore] = {}
        categories = self.categories
        for t, key in _MAJORITY_KEYS:
            s = categories.get(key)
            if isinstance(s, TypeScore):
                out[t] = s
        return out

    @property
    def wall(self) -> WallScore | None:
        s = self.categories.get("wall")
        return s if isinstance(s, WallScore) else None

    @property
    def modules(self) -> dict[str, CategoryScore]:
        """The categories beyond the base game's seven, in order."""
        categories = self.categories
        if categories.keys() <= BASE_KEYS:  # a base game's row: no module line
            return {}
        return {k: s for k, s in categories.items() if k not in BASE_KEYS}

    # worked out once: a row is never changed after the scoring built it (the ranking, the
    # report and the claims ask for these many times)
    @_worked_out_once
    def points(self) -> int:
        return sum(s.points for s in self.categories.values())

    @_worked_out_once
    def total(self) -> int:
        return self.total_before + self.points

    def label(self, key: str, lang: str = "en") -> str:
        """The breakdown label of a category of this row."""
        en, de = self.labels.get(key) or _registered_label(key)
        return de if lang == "de" and de else en

    def _category_dict(self, key: str, score: Any) -> dict[str, Any]:
        """A category line as data: its label (both languages), then the score; a point
        line's own detail (``2+3+5``) is ``detail``, so it never hides the label."""
        data = dict(score.to_dict())
        detail = data.pop("label", None) if isinstance(score, LineScore) else None
        out = {"label": self.label(key, "en"), "label_de": self.label(key, "de"), **data}
        if detail:
            out["detail"] = detail
            out["detail_de"] = score.label_de or detail
        return out

    def to_dict(self) -> dict[str, Any]:
        categories = self.categories
        buildings: dict[str, Any] = {}
        for code, key in _MAJORITY_CODES:  # self.buildings by the types' codes
            s = categories.get(key)
            if isinstance(s, TypeScore):
                buildings[code] = s.to_dict()
        wall = categories.get("wall")
        d: dict[str, Any] = {
            "name": self.name,
            "dirk": self.is_dirk,
            "buildings": buildings,
            "wall": wall.to_dict() if isinstance(wall, WallScore) else None,
        }
        mods = self.modules
        if mods:
            d["categories"] = {k: self._category_dict(k, s) for k, s in mods.items()}
        d["points"] = self.points
        d["total_before"] = self.total_before
        d["total"] = self.total
        return d


frozen_dataclass(ScoringRow)


def _highest_first(table: Mapping[BuildingType, Sequence[int]]) -> list[BuildingType]:
    """The building types by their points in ``table``, highest first (a function of its
    own: compiled, a method of a Python class may not hold a closure)."""
    return sorted(BUILDING_TYPES, key=lambda t: tuple(table[t]), reverse=True)


_TOTAL = attrgetter("total")


def _registered_label(key: str) -> tuple[str, str]:
    info = CATEGORIES.get(key.lower())
    return (info.label_en, info.label_de) if info is not None else (key, key)


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class ScoringResult:
    """The outcome of one scoring, per participant in entry order."""

    round: int
    rows: tuple[ScoringRow, ...]
    wall_mode: str = "trail"
    notes: tuple[str, ...] = field(default=())
    table: Mapping[BuildingType, Sequence[int]] | None = field(default=None, compare=False)
    """A replacement points table of the building majorities (None: the base table)."""
    table_label: tuple[str, str] | None = None  # where it comes from (English, German)

    def __init__(
        self,
        round: int,
        rows: tuple[ScoringRow, ...],
        wall_mode: str = "trail",
        notes: tuple[str, ...] = (),
        table: Mapping[BuildingType, Sequence[int]] | None = None,
        table_label: tuple[str, str] | None = None,
    ) -> None:
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "wall_mode", wall_mode)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "table_label", table_label)

    def table_text(self, lang: str = "en") -> str:
        """The replacement points table in one line (empty without one): ``scoring tile
        st:SGTCAP: T 21/13/6, C 20/12/5 ...``, highest first."""
        table = self.table
        if table is None:
            return ""
        label = self.table_label or ("replacement points table", "geänderte Punktetabelle")
        ordered = _highest_first(table)
        points = ", ".join(f"{t.code} {'/'.join(map(str, table[t]))}" for t in ordered)
        return f"{label[1] if lang == 'de' else label[0]}: {points}"

    def row(self, name: str | None) -> ScoringRow | None:
        """The row of a player (None: Dirk); names match case-insensitively."""
        if name is None:
            for r in self.rows:
                if r.is_dirk:
                    return r
            return None
        wanted = name.lower()
        for r in self.rows:
            if not r.is_dirk and r.name.lower() == wanted:
                return r
        return None

    def ranking(self) -> list[tuple[int, ScoringRow]]:
        """Players (not Dirk) by total, highest first, with their rank (ties share a rank)."""
        # a stable sort, reversed, keeps tied players in entry order (as a sort by -total)
        players = sorted([r for r in self.rows if not r.is_dirk], key=_TOTAL, reverse=True)
        ranked: list[tuple[int, ScoringRow]] = []
        rank, last = 0, None
        for i, r in enumerate(players, 1):
            total = r.total
            if total != last:
                rank, last = i, total
            ranked.append((rank, r))
        return ranked

    def winners(self) -> list[str]:
        """Final scoring: "Bei Gleichstand teilen sich die Spieler den Sieg." (Spielende)."""
        ranked = self.ranking()
        return [r.name for rank, r in ranked if rank == 1]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"round": self.round, "wall_mode": self.wall_mode}
        if self.table is not None:
            d["table"] = {
                "label": (self.table_label or ("", ""))[0] or "replacement points table",
                "label_de": (self.table_label or ("", ""))[1] or "geänderte Punktetabelle",
                "points": {t.code: list(self.table[t]) for t in BUILDING_TYPES},
            }
        return d | {
            "players": [r.to_dict() for r in self.rows],
            "ranking": [{"rank": k, "name": r.name, "total": r.total} for k, r in self.ranking()],
        }


frozen_dataclass(ScoringResult)


# ---------------------------------------------------------------------------- scoring


def participant(entry: ScoringEntry) -> Participant:
    """The categories' view of an entry: counts with the adjustments applied (never below 0)."""
    alhambra = entry.alhambra
    if alhambra is not None:
        base = _building_counts(alhambra)
    else:
        base = dict.fromkeys(BUILDING_TYPES, 0)
        for t, n in (entry.counts or {}).items():
            base[t] = int(n)
    counts: Mapping[BuildingType, Number] = base  # read only: shared when nothing is adjusted
    if entry.adjustments:
        adjusted: dict[BuildingType, Number] = dict(base)
        for adj in entry.adjustments:
            adjusted[adj.type] = norm(max(0, adjusted.get(adj.type, 0) + adj.amount))
        counts = adjusted
    return _new_participant(
        entry.name,
        entry.is_dirk,
        counts,
        base,
        tuple(entry.adjustments),
        alhambra,
        entry.wall_claim,
        entry.total_before,
    )


_new_participant = record_maker(Participant)
_NO_BUILDINGS = dict.fromkeys(BUILDING_TYPES, 0)


def _building_counts(alh: Alhambra) -> dict[BuildingType, int]:
    """``alh.counts()`` (buildings per type; the fountain, on 0,0 for good, has none), in one
    pass over the pieces (cheaper than a ``Counter`` or ``list.count``: an enum compares
    through Python-level slots)."""
    base = _NO_BUILDINGS.copy()
    for piece in alh.cells.values():
        t = piece.type
        if t is not None:
            base[t] += 1
    return base


def _apply_floor(score: CategoryScore, points: int) -> CategoryScore:
    """The score with its points cut to ``points`` (the old points kept as ``unfloored``)."""
    if hasattr(score, "unfloored"):
        return replace(score, points=points, unfloored=score.points)  # type: ignore[type-var]
    return LineScore(points, "", "", unfloored=score.points)


Scored = Sequence[tuple[str, Floor, Mapping[str, CategoryScore]]]  # (key, floor, by name)


def _floored_line(scored: Scored, name: str, total_before: int) -> tuple[dict[str, Any], int]:
    """A participant's line and its points when a category has a floor: in category order,
    a floored category's negative points are cut so that the points so far (with the total
    before, for "total") stay at zero or above."""
    line: dict[str, CategoryScore] = {}
    running = 0
    for key, floor, got in scored:
        s = got.get(name)
        if s is None:
            continue
        if floor is not None and s.points < 0:
            base_sum = running + (total_before if floor == "total" else 0)
            if base_sum + s.points < 0:
                s = _apply_floor(s, -base_sum if base_sum > 0 else 0)
        line[key] = s
        running += s.points
    return line, running


_BASE_LABELS = {c.key: (c.label_en, c.label_de) for c in base_categories()}
# (key, floor, category) of the base categories by the base table, in order
_BASE_KEYED: tuple[tuple[str, Floor, ScoringCategory], ...] = tuple(
    (c.key, c.floor, c) for c in base_categories()
)
_POINTS = attrgetter("points")
_new_row = record_maker(ScoringRow)
_new_result = record_maker(ScoringResult)

# the base categories by a replacement points table (``ScoringParts.table``), as (table,
# keyed, labels, floored) by the table's id: a module handing the same table object again (the
# same scoring tile at the same scoring, Wertungskärtchen) gets the same categories without
# making them again. The table is kept with them (its id is not reused while it is kept) and
# compared by identity; a table once handed over is read, never changed (ScoringParts is
# frozen, its table a Mapping). At most _TABLES_KEPT tables (then all are let go)
_TABLE_KEYED: dict[
    int,
    tuple[
        Mapping[BuildingType, Sequence[int]],
        tuple[tuple[str, Floor, ScoringCategory], ...],
        dict[str, tuple[str, str]],
        bool,
    ],
] = {}
_TABLES_KEPT = 64


def _table_keyed(
    table: Mapping[BuildingType, Sequence[int]],
) -> tuple[tuple[tuple[str, Floor, ScoringCategory], ...], dict[str, tuple[str, str]], bool]:
    """The base categories by ``table`` as :func:`score_round` reads them: (key, floor,
    category) in category order, each key's labels (English, German), and whether a category
    has a floor. Kept per table object (:data:`_TABLE_KEYED`); the labels are not to be changed
    (score_round copies them)."""
    kept = _TABLE_KEYED.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1], kept[2], kept[3]
    # a majority's key and labels are its type's whatever its table: those of the base
    # categories, made in the same order (six majorities, then the wall: category order)
    cats = base_categories(table)
    keyed = tuple([(k, c.floor, c) for (k, _f, _b), c in zip(_BASE_KEYED, cats, strict=True)])
    labels = _BASE_LABELS
    floored = any(floor is not None for _k, floor, _c in keyed)
    if len(_TABLE_KEYED) >= _TABLES_KEPT:
        _TABLE_KEYED.clear()
    _TABLE_KEYED[id(table)] = (table, keyed, labels, floored)
    return keyed, labels, floored


_LAST_BASE_ORDER = max(c.order for _k, _f, c in _BASE_KEYED)  # (the wall's)


def _after_the_wall(
    extra: Sequence[ScoringCategory], table: Mapping[BuildingType, Sequence[int]] | None
) -> tuple[list[tuple[str, Floor, ScoringCategory]], dict[str, tuple[str, str]], bool] | None:
    """:func:`score_round`'s categories, labels and floor question with module categories
    (``extra``) whose orders come after every base category's and follow each other (every
    bundled module's line): the list the stable sort by order gives, the base categories
    first, without sorting nor reading the base categories' keys and labels again (kept:
    :data:`_BASE_KEYED`, :data:`_BASE_LABELS`, :func:`_table_keyed`); the labels in the same
    order (a module key equal to a base key keeps the base key's place and takes the module's
    labels, as the comprehension over the sorted list gave). None for other orders."""
    last = _LAST_BASE_ORDER
    for c in extra:
        order = c.order
        if order < last:
            return None
        last = order
    if table is None:
        base: Sequence[tuple[str, Floor, ScoringCategory]] = _BASE_KEYED
        base_labels: Mapping[str, tuple[str, str]] = _BASE_LABELS
        floored = False  # (no base category has a floor: score_round's base path)
    else:
        base, base_labels, floored = _table_keyed(table)
    keyed = list(base)
    labels = dict(base_labels)
    for c in extra:
        key = c.key
        floor = c.floor
        keyed.append((key, floor, c))
        labels[key] = (c.label_en, c.label_de)
        if floor is not None:
            floored = True
    return keyed, labels, floored


def score_round(
    round_no: int,
    entries: Sequence[ScoringEntry],
    profile: RuleProfile = DEFAULT_PROFILE,
    extra: Sequence[ScoringCategory] = (),
    table: Mapping[BuildingType, Sequence[int]] | None = None,
    table_label: tuple[str, str] | None = None,
) -> ScoringResult:
    """Score one scoring (1, 2 or 3) for these participants.

    The base categories (six majorities by the base table or ``table``, the wall) and the
    ``extra`` (module) categories are scored; each row lists them in category order. A
    category with a ``floor`` never takes this scoring's points ("scoring") or the total
    ("total") below zero: its points are cut, in category order.
    """
    if round_no not in POINTS:
        raise ValueError(f"there is no scoring {round_no} (1, 2 or 3)")
    people = [participant(e) for e in entries]
    if len({person.name for person in people}) < len(people):
        taken: set[str] = set()
        for i, person in enumerate(people):  # results are by name: a second "Dirk" gets a mark
            if person.name in taken:
                people[i] = replace(person, name=f"{person.name}#{i + 1}")
            taken.add(people[i].name)
    keyed: Sequence[tuple[str, Floor, ScoringCategory]]
    after = _after_the_wall(extra, table) if extra else None
    if after is not None:  # the module categories after the base ones, in their order
        keyed, labels, floored = after
    elif extra:
        cats = base_categories(table)
        cats += extra
        cats.sort(key=lambda c: c.order)  # stable: base first, then modules as given
        keyed = [(c.key, c.floor, c) for c in cats]
        labels = {c.key: (c.label_en, c.label_de) for c in cats}
        floored = any(floor is not None for _k, floor, _c in keyed)
    elif table is not None:  # the base categories by a replacement table: kept per table
        keyed, table_labels, floored = _table_keyed(table)
        labels = dict(table_labels)
    else:  # the base categories alone: their keys and labels are known
        keyed = _BASE_KEYED
        labels = dict(_BASE_LABELS)
        floored = False
    scored = [(key, floor, c.score(round_no, people, profile)) for key, floor, c in keyed]
    rows: list[ScoringRow] = []
    for e, person in zip(entries, people, strict=True):
        name = person.name
        if floored:
            line, running = _floored_line(scored, name, e.total_before)
        else:
            line = {key: got[name] for key, _floor, got in scored if name in got}
            running = sum(map(_POINTS, line.values()))
        row = _new_row(e.name, e.is_dirk, line, e.total_before, labels)
        # the row's points and total, as its cached properties would work them out
        row.__dict__["points"] = running
        row.__dict__["total"] = e.total_before + running
        rows.append(row)
    return _new_result(
        round_no,
        tuple(rows),
        profile.wall_run,
        ("replacement points table",) if table is not None else (),
        table,
        table_label if table is not None else None,
    )


# ----------------------------------------------------------------------------- claims


@dataclass(init=False, repr=False, eq=False)
class ClaimMismatch:
    """A claimed figure that differs from the computed one."""

    player: str  # "Dirk" for Dirk
    what: str  # "points", "total", "wall" or a building-type code ("T")
    claimed: int
    computed: int
    line: str  # the computed breakdown line, as text
    row: Any = field(default=None, compare=False, repr=False)  # the row, for other languages

    def __init__(
        self,
        player: str,
        what: str,
        claimed: int,
        computed: int,
        line: str,
        row: Any = None,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "what", what)
        object.__setattr__(self, "claimed", claimed)
        object.__setattr__(self, "computed", computed)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "row", row)

    def shown(self) -> Any:
        """The breakdown line as a message value that renders in the message's language."""
        return self.line if self.row is None else BreakdownLine(self.row, self.what)

    def text(self) -> str:
        return (
            f"{self.player}: {self.what} claimed {self.claimed}, computed {self.computed} "
            f"({self.line})"
        )


frozen_dataclass(ClaimMismatch)


@dataclass(init=False, repr=False, eq=False)
class BreakdownLine:
    """One figure's breakdown line, shown in the language of the message it appears in."""

    row: ScoringRow
    what: str

    def __init__(
        self,
        row: ScoringRow,
        what: str,
    ) -> None:
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "what", what)

    def text(self, lang: str = "en") -> str:
        return breakdown_line(self.row, self.what, lang)

    def __str__(self) -> str:
        return self.text()


frozen_dataclass(BreakdownLine)


def breakdown_line(row: ScoringRow, what: str, lang: str = "en") -> str:
    """The breakdown line of one figure: a type code, "wall", "points", "total" or the key of a
    module category (``medina``)."""
    from referee.scoring.text import category_line, type_line, wall_line

    if what == "wall":
        return wall_line(row, lang)
    if what == "points":
        return f"{row.name}: +{row.points}"
    if what == "total":
        return f"{row.name}: {row.total_before} + {row.points} = {row.total}"
    if what in {t.code for t in BUILDING_TYPES}:
        return type_line(row, BuildingType(what), lang)
    return category_line(row, what, lang)


def _claimed_category(key: object) -> tuple[str, str]:
    """(category key, what a mismatch calls it) for a claim part's key."""
    if isinstance(key, BuildingType):
        return f"majority:{key.code}", key.code
    low = str(key).lower()
    if low == "wall":
        return "wall", "wall"
    from referee.scoring.categories import category_for_claim

    found = category_for_claim(low)
    if found is not None and found.startswith("majority:"):
        return found, found.split(":", 1)[1]
    return (found or low), (found or low)


def claim_mismatches(result: ScoringResult, claim: Claim) -> list[ClaimMismatch]:
    """Every figure of a claim that differs from the computed scoring.

    A claim for a name that is not in the scoring gives no mismatch here (the engine reports
    unknown names). A module part (``medina=-6``) is compared with that category's points; a
    category the scoring does not have (its module is not enabled) counts 0.
    """
    row = result.row(claim.player.name if claim.player is not None else None)
    if row is None:
        return []
    who = row.name
    found: list[ClaimMismatch] = []
    if claim.points is not None and claim.points != row.points:
        found.append(
            ClaimMismatch(
                who, "points", claim.points, row.points, breakdown_line(row, "points"), row
            )
        )
    if claim.total is not None and claim.total != row.total:
        found.append(
            ClaimMismatch(who, "total", claim.total, row.total, breakdown_line(row, "total"), row)
        )
    for part in claim.parts:
        key, what = _claimed_category(part.key)
        got = row.categories.get(key)
        computed = got.points if got is not None else 0
        if part.points != computed:
            found.append(
                ClaimMismatch(who, what, part.points, computed, breakdown_line(row, what), row)
            )
    return found


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
