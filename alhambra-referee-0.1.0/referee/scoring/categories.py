"""Scoring categories: what a scoring pays for, one registered category per breakdown line.

A scoring is the sum of its categories. The base game has seven: a majority per building type
(``majority:P`` ... ``majority:T``) and the longest outer wall (``wall``). Modules add their own
(``medina``, ``task1``, ``chests``) through the engine hook ``Module.scoring_parts``, which also
carries count adjustments (a bonus card, a square) and a replacement points table for one
scoring (the new scoring tiles). Every key a claim may name is registered here
(:func:`register_category`), so the record parser can tell ``medina=-6`` from a typo.

The generic building blocks:

* :class:`Majority` -- places by a per-participant quantity, most or fewest first, a tie-breaker,
  shared places summed and divided, rounded down or up (by magnitude: a shared penalty of
  ``(-9-6)/2`` rounded up is ``-8``), its own points per place and scoring, who may rank (Dirk
  or not; by default only holders of at least one unit rank for "most", everybody for "fewest").
* :class:`PointLine` -- fixed points per participant with a label (may be negative), optionally
  floored so that the scoring or the total never falls below zero.
* :class:`Penalty` -- a point line whose amounts are subtracted.
* :class:`Combined` -- several of these under one key and one breakdown line (Medina: the ranked
  penalty plus the extra penalty for having no medina).

Quantities may be :class:`fractions.Fraction` (half buildings); ties compare exactly.
"""

# (annotations are text: a check does not import ``typing``, whose names they use)
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, itemgetter

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.interpreted import interpreted_class
from referee.scoring.frozen import frozen_dataclass
from referee.shapes import ScoringCategory

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction  # imported where a Fraction is made (half buildings only)
    from typing import Any, Final, Literal, TypeAlias, TypeVar

    from referee.geometry import Alhambra
    from referee.profiles import RuleProfile

Number: TypeAlias = "int | Fraction"
Direction: TypeAlias = 'Literal["most", "fewest"]'
Rounding: TypeAlias = 'Literal["down", "up"]'
Floor: TypeAlias = 'Literal["scoring", "total"] | None'

ORDER_MAJORITIES = 100
ORDER_WALL = 200
ORDER_MODULE = 500
ORDER_LAST = 900  # "Die Medinas werden zuletzt gewertet"


# ------------------------------------------------------------------------------ numbers


def norm(x: Number) -> Number:
    """A Fraction with denominator 1 as an int; anything else unchanged."""
    if type(x) is int:  # the common case, without isinstance's ABC machinery (Fraction)
        return x
    from fractions import Fraction

    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def num_text(x: Number) -> str:
    """``4``, ``4½``, ``-½``, ``7/3``: an amount for people."""
    x = norm(x)
    if isinstance(x, int):
        return str(x)
    if x.denominator == 2:
        whole = abs(x.numerator) // 2
        sign = "-" if x < 0 else ""
        return f"{sign}{whole if whole else ''}½"
    return f"{x.numerator}/{x.denominator}"


def num_json(x: Number) -> int | float:
    """An amount for JSON/YAML: an int stays an int, a fraction becomes a float (halves exact)."""
    x = norm(x)
    return x if isinstance(x, int) else float(x)


def signed(points: int) -> str:
    """Points with their sign for a breakdown line: ``+6``, ``−6`` (a real minus), ``0``."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"\u2212{-points}"
    return "0"


def share(total: int, n: int, rounding: Rounding) -> int:
    """``total / n`` rounded by magnitude: down (towards 0) or up (away from 0)."""
    if type(total) is int and type(n) is int and n > 0:  # whole numbers: no Fraction needed
        mag = abs(total) // n if rounding == "down" else -(-abs(total) // n)
        return -mag if total < 0 else mag
    from fractions import Fraction

    q = Fraction(total, n)
    mag = math.floor(abs(q)) if rounding == "down" else math.ceil(abs(q))
    return -mag if q < 0 else mag


def sum_text(paid: Sequence[int]) -> str:
    """``13+6``, ``-9-6``: the places' points joined."""
    out = str(paid[0])
    for p in paid[1:]:
        out += f"+{p}" if p >= 0 else str(p)
    return out


_NO_VALUE = object()  # a memo's answer for a key it does not hold


# ------------------------------------------------------------------------- participants


@interpreted_class  # compiled: a Python class (made by a record maker)
@dataclass(init=False, repr=False, eq=False)
class Participant:
    """One participant of a scoring as the categories see it.

    ``counts`` include the count adjustments (may hold Fractions); ``base_counts`` do not.
    ``alhambra`` is None for Dirk and for players scored from stated counts.
    """

    name: str
    is_dirk: bool
    counts: Mapping[BuildingType, Number]
    base_counts: Mapping[BuildingType, int]
    adjustments: tuple[Any, ...]  # CountAdjustment
    alhambra: Alhambra | None = None
    wall_claim: int | None = None
    total_before: int = 0

    def __init__(
        self,
        name: str,
        is_dirk: bool,
        counts: Mapping[BuildingType, Number],
        base_counts: Mapping[BuildingType, int],
        adjustments: tuple[Any, ...],
        alhambra: Alhambra | None = None,
        wall_claim: int | None = None,
        total_before: int = 0,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "is_dirk", is_dirk)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "base_counts", base_counts)
        object.__setattr__(self, "adjustments", adjustments)
        object.__setattr__(self, "alhambra", alhambra)
        object.__setattr__(self, "wall_claim", wall_claim)
        object.__setattr__(self, "total_before", total_before)


frozen_dataclass(Participant)


# ------------------------------------------------------------------------------ results


@interpreted_class  # compiled: a Python class (scores of core.py derive from it)
class CategoryScore:
    """What one category gave one participant: ``points`` and how (``to_dict``, ``detail``)."""

    points: int

    def detail(self, lang: str = "en") -> str:
        """The explanation in parentheses on the breakdown line (may be empty)."""
        return ""

    def quantity_text(self) -> str:
        """What the count column shows (may be empty)."""
        return ""

    def place_text(self, lang: str = "en") -> str:
        """What the place column shows (may be empty)."""
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points}


@dataclass(init=False, repr=False, eq=False)
class Placing:
    """A participant's place in a ranking: 1-based place, who shares it, points, the split."""

    place: int
    tied_with: tuple[str, ...]
    points: int
    split: str  # "(13+6)/2 = 9"; "" when not shared

    def __init__(
        self,
        place: int,
        tied_with: tuple[str, ...],
        points: int,
        split: str,
    ) -> None:
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "tied_with", tied_with)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "split", split)


frozen_dataclass(Placing)


@interpreted_class  # compiled: a Python class (scores of core.py derive from it)
@dataclass(init=False, repr=False, eq=False)
class RankScore(CategoryScore):
    """A participant's result in a module :class:`Majority`."""

    quantity: Number
    place: int | None  # None: not ranked (not eligible)
    tied_with: tuple[str, ...]
    points: int
    split: str
    direction: Direction = "most"
    tiebreak: tuple[str, str, object] | None = None  # (label en, label de, value)
    unfloored: int | None = None  # the points before a floor at zero cut them

    def __init__(
        self,
        quantity: Number,
        place: int | None,
        tied_with: tuple[str, ...],
        points: int,
        split: str,
        direction: Direction = "most",
        tiebreak: tuple[str, str, object] | None = None,
        unfloored: int | None = None,
    ) -> None:
        object.__setattr__(self, "quantity", quantity)
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "tied_with", tied_with)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "direction", direction)
        object.__setattr__(self, "tiebreak", tiebreak)
        object.__setattr__(self, "unfloored", unfloored)

    def detail(self, lang: str = "en") -> str:
        from referee.scoring.text import ordinal

        if self.place is None:
            return "not ranked" if lang != "de" else "nicht gewertet"
        word = {"most": ("most", "meiste"), "fewest": ("fewest", "wenigste")}[self.direction]
        head = word[1] if lang == "de" else word[0]
        if self.place > 1:
            head = (
                f"{ordinal(self.place, lang)} {head}"
                if lang != "de"
                else f"{self.place}. Platz {head}"
            )
        parts = [head]
        if self.tied_with:
            tie = "gleichauf" if lang == "de" else "tie"
            parts.append(f"{tie}: {', '.join(self.tied_with)}, {self.split}")
        if self.tiebreak is not None and self.tiebreak[2] is not None:
            what = self.tiebreak[1] if lang == "de" else self.tiebreak[0]
            parts.append(f"{what} {self.tiebreak[2]}")
        if self.unfloored is not None:
            parts.append(_floored(self.unfloored, lang))
        return ", ".join(parts)

    def quantity_text(self) -> str:
        return num_text(self.quantity)

    def place_text(self, lang: str = "en") -> str:
        from referee.scoring.text import ordinal

        return "-" if self.place is None else ordinal(self.place, lang)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "quantity": num_json(self.quantity),
            "place": self.place,
            "points": self.points,
            "direction": self.direction,
        }
        if self.tied_with:
            d["tied_with"] = list(self.tied_with)
            d["split"] = self.split
        if self.tiebreak is not None and self.tiebreak[2] is not None:
            d["tiebreak"] = {"label": self.tiebreak[0], "value": self.tiebreak[2]}
        if self.unfloored is not None:
            d["unfloored"] = self.unfloored
        return d


frozen_dataclass(RankScore)


def _floored(raw: int, lang: str) -> str:
    if lang == "de":
        return f"statt {raw}: nicht unter null"
    return f"{raw} cut: never below zero"


@interpreted_class  # compiled: a Python class (scores of core.py derive from it)
@dataclass(init=False, repr=False, eq=False)
class LineScore(CategoryScore):
    """A participant's result in a :class:`PointLine` or :class:`Penalty`."""

    points: int
    label_en: str = ""
    label_de: str = ""
    unfloored: int | None = None

    def __init__(
        self,
        points: int,
        label_en: str = "",
        label_de: str = "",
        unfloored: int | None = None,
    ) -> None:
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "unfloored", unfloored)

    def detail(self, lang: str = "en") -> str:
        text = self.label_de if lang == "de" and self.label_de else self.label_en
        if self.unfloored is not None:
            text = (
                f"{text}, {_floored(self.unfloored, lang)}"
                if text
                else _floored(self.unfloored, lang)
            )
        return text

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"points": self.points}
        if self.label_en:  # the line's explanation ("2 rows × 3"); "label" names the category
            d["detail"] = self.label_en
            d["detail_de"] = self.label_de or self.label_en
        if self.unfloored is not None:
            d["unfloored"] = self.unfloored
        return d


frozen_dataclass(LineScore)


@interpreted_class  # compiled: a Python class (scores of core.py derive from it)
@dataclass(init=False, repr=False, eq=False)
class CombinedScore(CategoryScore):
    """The parts of a :class:`Combined` category for one participant, and their sum."""

    parts: tuple[CategoryScore, ...]
    points: int
    unfloored: int | None = None

    def __init__(
        self,
        parts: tuple[CategoryScore, ...],
        points: int,
        unfloored: int | None = None,
    ) -> None:
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "unfloored", unfloored)

    def detail(self, lang: str = "en") -> str:
        texts = []
        for p in self.parts:
            d = p.detail(lang)
            if isinstance(p, LineScore):
                d = f"{d} {signed(p.points)}".strip()
            if d:
                texts.append(d)
        if self.unfloored is not None:
            texts.append(_floored(self.unfloored, lang))
        return "; ".join(texts)

    def quantity_text(self) -> str:
        return next((p.quantity_text() for p in self.parts if p.quantity_text()), "")

    def place_text(self, lang: str = "en") -> str:
        return next((p.place_text(lang) for p in self.parts if p.place_text(lang)), "")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"points": self.points, "parts": [p.to_dict() for p in self.parts]}
        if self.unfloored is not None:
            d["unfloored"] = self.unfloored
        return d


frozen_dataclass(CombinedScore)


# --------------------------------------------------------------------------- categories


def label(category: ScoringCategory, lang: str = "en") -> str:
    return category.label_de if lang == "de" and category.label_de else category.label_en


@dataclass(init=False, repr=False, eq=False)
class CategoryInfo:
    """A registered category key: what claims may name and how the breakdown labels it."""

    key: str
    label_en: str
    label_de: str
    section: str
    claim_key: str  # how a claim names it: "T", "wall", "medina"

    def __init__(
        self,
        key: str,
        label_en: str,
        label_de: str,
        section: str,
        claim_key: str,
    ) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "claim_key", claim_key)


frozen_dataclass(CategoryInfo)


CATEGORIES: dict[str, CategoryInfo] = {}
"""Every registered category by key (lower case)."""
_CLAIM_KEYS: dict[str, str] = {}


def register_category(
    category: ScoringCategory | CategoryInfo, claim_key: str | None = None
) -> CategoryInfo:
    """Make a category key known (to claims, the breakdown and ``docs``); returns its info.

    ``claim_key`` is how a claim names it (default: the key). Registering the same key again
    replaces the entry (a module reloaded in tests).
    """
    info = (
        category
        if isinstance(category, CategoryInfo)
        else CategoryInfo(
            category.key,
            category.label_en,
            category.label_de,
            category.section,
            claim_key or category.key,
        )
    )
    CATEGORIES[info.key.lower()] = info
    _CLAIM_KEYS[info.claim_key.lower()] = info.key
    return info


def claim_section(what: str) -> str | None:
    """The rule text a wrong claim of ``what`` (a category key as a mismatch names it) cites
    when it is a module's part (``"medina"``: its section in the Big Box book); None for the
    base game's figures (the claim rule's own section, Wertungen)."""
    info = CATEGORIES.get(what.lower())
    if info is None or "§" not in info.section:
        return None
    return info.section


def unregister_category(key: str) -> None:
    """Forget a registered key (tests that register a category of their own)."""
    info = CATEGORIES.pop(key.lower(), None)
    if info is not None:
        _CLAIM_KEYS.pop(info.claim_key.lower(), None)


def category_for_claim(word: str) -> str | None:
    """The category key a claim part names (``T`` -> ``majority:T``, ``medina``), or None.

    Bundled modules are loaded first, so their keys are known.
    """
    low = word.lower()
    if low not in _CLAIM_KEYS:
        from referee.engine.extensions import load_bundled_modules

        load_bundled_modules()
    return _CLAIM_KEYS.get(low)


def module_claim_keys() -> list[str]:
    """The claim keys of every bundled module's and edition's categories (not the base
    seven), sorted: all of them loaded first, so the list never depends on what a run
    happened to import."""
    from referee.engine.extensions import load_bundled_modules, load_editions

    load_bundled_modules()
    load_editions()
    return sorted(i.claim_key for i in CATEGORIES.values() if i.key not in BASE_KEYS)


def _lookup(source: Mapping[str, Any] | Callable[[Participant], Any] | None, p: Participant) -> Any:
    if source is None:
        return None
    if callable(source):
        return source(p)
    for name, value in source.items():
        if name.lower() == p.name.lower():
            return value
    return None


def rank(
    values: Sequence[tuple[str, Number, object]],
    table: Sequence[int],
    direction: Direction = "most",
    rounding: Rounding = "down",
) -> dict[str, Placing]:
    """Places for ``(name, quantity, tiebreak)``: the first place goes to the most (or fewest),
    then to the higher (or, for "fewest", lower) tie-breaker; participants with a tie-breaker
    come before those without (``None``), who stay tied among themselves.
    Tied participants share the sum of their places' points (places past the table pay 0),
    divided and rounded by magnitude; the next participant takes the place after them."""
    sign = -1 if direction == "most" else 1

    def key(v: tuple[str, Number, object]) -> tuple[Number, int, object]:
        # with a tie-breaker before without one; equal keys share a place
        tb = v[2]
        if tb is None:
            return (sign * v[1], 1, 0)
        return (sign * v[1], 0, sign * tb)  # type: ignore[operator]

    keyed = sorted(((key(v), v) for v in values), key=lambda kv: kv[0])
    out: dict[str, Placing] = {}
    place = 1
    k = 0
    while k < len(keyed):
        first = keyed[k][0]
        end = k + 1
        while end < len(keyed) and keyed[end][0] == first:  # equal keys lie together
            end += 1
        group = [kv[1] for kv in keyed[k:end]]
        paid = [table[p - 1] if p - 1 < len(table) else 0 for p in range(place, place + len(group))]
        points = share(sum(paid), len(group), rounding)
        split = f"({sum_text(paid)})/{len(group)} = {points}" if len(group) > 1 else ""
        for v in group:
            out[v[0]] = Placing(place, tuple(w[0] for w in group if w[0] != v[0]), points, split)
        place += len(group)
        k += len(group)
    return out


Table = Mapping[int, Sequence[int]] | Callable[[int], Sequence[int]]
if TYPE_CHECKING:
    _Name = TypeVar("_Name", str, int)  # who ranks: a name, or a position


@dataclass(init=False, repr=False, eq=False)
class Majority:
    """A ranking over any per-participant quantity with its own points table.

    ``quantity`` maps a participant (by name, or a function of the :class:`Participant`) to a
    number; a participant with no quantity (None) is not ranked. ``table`` gives the points per
    place for a scoring (``{1: (3,), 2: (6, 3)}`` or a function of the round). ``eligible``
    decides who ranks (default: "most" needs at least one unit -- "dass man mindestens 1
    Gebäudeteil besitzen muss" -- "fewest" ranks everybody, zero being fewest). ``dirk`` says
    whether Dirk ranks. ``tiebreak`` (by name or function; higher wins for "most", lower takes
    the first place for "fewest") separates equal quantities; equal or missing tie-breakers
    share. ``tiebreak_label`` names it in the breakdown (``("dearest", "teuerste")``).
    """

    key: str
    label_en: str
    label_de: str
    section: str
    quantity: Mapping[str, Number] | Callable[[Participant], Number | None]
    table: Table
    direction: Direction = "most"
    rounding: Rounding = "down"
    tiebreak: Mapping[str, object] | Callable[[Participant], object] | None = None
    tiebreak_label: tuple[str, str] = ("", "")
    dirk: bool = True
    eligible: Callable[[Participant, Number], bool] | None = None
    order: int = ORDER_MODULE
    floor: Floor = None

    def __init__(
        self,
        key: str,
        label_en: str,
        label_de: str,
        section: str,
        quantity: Mapping[str, Number] | Callable[[Participant], Number | None],
        table: Table,
        direction: Direction = "most",
        rounding: Rounding = "down",
        tiebreak: Mapping[str, object] | Callable[[Participant], object] | None = None,
        tiebreak_label: tuple[str, str] = ("", ""),
        dirk: bool = True,
        eligible: Callable[[Participant, Number], bool] | None = None,
        order: int = ORDER_MODULE,
        floor: Floor = None,
    ) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "quantity", quantity)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "direction", direction)
        object.__setattr__(self, "rounding", rounding)
        object.__setattr__(self, "tiebreak", tiebreak)
        object.__setattr__(self, "tiebreak_label", tiebreak_label)
        object.__setattr__(self, "dirk", dirk)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "floor", floor)

    def points_table(self, round_no: int) -> Sequence[int]:
        if callable(self.table):
            return self.table(round_no)
        return self.table.get(round_no, ())

    def _may_rank(self, p: Participant, q: Number) -> bool:
        if self.eligible is not None:
            return self.eligible(p, q)
        return q > 0 if self.direction == "most" else True

    def placings(
        self, round_no: int, participants: Sequence[Participant]
    ) -> tuple[dict[str, Number], dict[str, object], dict[str, Placing]]:
        """(quantities, tie-breakers, placings) of the participants this category concerns."""
        quantities: dict[str, Number] = {}
        breaks: dict[str, object] = {}
        values: list[tuple[str, Number, object]] = []
        for p in participants:
            if p.is_dirk and not self.dirk:
                continue
            q = _lookup(self.quantity, p)
            if q is None:
                continue
            quantities[p.name] = q
            tb = _lookup(self.tiebreak, p)
            breaks[p.name] = tb
            if self._may_rank(p, q):
                values.append((p.name, q, tb))
        table = self.points_table(round_no)
        return quantities, breaks, rank(values, table, self.direction, self.rounding)

    def score(
        self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
    ) -> dict[str, CategoryScore]:
        quantities, breaks, placed = self.placings(round_no, participants)
        out: dict[str, CategoryScore] = {}
        for name, q in quantities.items():
            pl = placed.get(name)
            tb = (self.tiebreak_label[0], self.tiebreak_label[1], breaks.get(name))
            out[name] = RankScore(
                quantity=norm(q),
                place=pl.place if pl else None,
                tied_with=pl.tied_with if pl else (),
                points=pl.points if pl else 0,
                split=pl.split if pl else "",
                direction=self.direction,
                tiebreak=tb if self.tiebreak is not None else None,
            )
        return out


frozen_dataclass(Majority)


@dataclass(init=False, repr=False, eq=False)
class PointLine:
    """Fixed points per participant with a label: ``points`` by name or a function returning
    ``(points, label_en, label_de)`` or just the points (None: no line). May be negative;
    ``floor`` "scoring"/"total" keeps this scoring's points / the total at zero or above."""

    key: str
    label_en: str
    label_de: str
    section: str
    points: Mapping[str, int] | Callable[[Participant], int | tuple[int, str, str] | None]
    detail_en: str = ""
    detail_de: str = ""
    dirk: bool = False
    order: int = ORDER_MODULE
    floor: Floor = None

    def __init__(
        self,
        key: str,
        label_en: str,
        label_de: str,
        section: str,
        points: Mapping[str, int] | Callable[[Participant], int | tuple[int, str, str] | None],
        detail_en: str = "",
        detail_de: str = "",
        dirk: bool = False,
        order: int = ORDER_MODULE,
        floor: Floor = None,
    ) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "detail_en", detail_en)
        object.__setattr__(self, "detail_de", detail_de)
        object.__setattr__(self, "dirk", dirk)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "floor", floor)

    # a property, not a ClassVar: compiled (setup.py's MYPYC_MODULES) a dataclass's annotations
    # lose ClassVar and ``sign`` would become a field (issue 34, sixth step)
    @property
    def sign(self) -> int:
        """1: the amounts are points (:class:`Penalty`: -1, they are subtracted)."""
        return 1

    def score(
        self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
    ) -> dict[str, CategoryScore]:
        out: dict[str, CategoryScore] = {}
        for p in participants:
            if p.is_dirk and not self.dirk:
                continue
            got = _lookup(self.points, p)
            if got is None:
                continue
            en, de = self.detail_en, self.detail_de
            if isinstance(got, tuple):
                got, en, de = got
            out[p.name] = LineScore(self.sign * int(got), en, de)
        return out


@dataclass(init=False, repr=False, eq=False)
class Penalty(PointLine):
    """A point line whose amounts are penalties: ``{"Anna": 3}`` subtracts 3."""

    @property
    def sign(self) -> int:
        return -1


frozen_dataclass(PointLine)  # after Penalty: a frozen base takes no non-frozen dataclass
frozen_dataclass(Penalty)


@dataclass(init=False, repr=False, eq=False)
class Combined:
    """Several categories under one key and one breakdown line (their points summed)."""

    key: str
    label_en: str
    label_de: str
    section: str
    parts: tuple[ScoringCategory, ...]
    order: int = ORDER_MODULE
    floor: Floor = None

    def __init__(
        self,
        key: str,
        label_en: str,
        label_de: str,
        section: str,
        parts: tuple[ScoringCategory, ...],
        order: int = ORDER_MODULE,
        floor: Floor = None,
    ) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "floor", floor)

    def score(
        self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
    ) -> dict[str, CategoryScore]:
        scored = [part.score(round_no, participants, profile) for part in self.parts]
        out: dict[str, CategoryScore] = {}
        for p in participants:
            mine = tuple(s[p.name] for s in scored if p.name in s)
            if mine:
                out[p.name] = CombinedScore(mine, sum(m.points for m in mine))
        return out


frozen_dataclass(Combined)


# ----------------------------------------------------------------------- base categories


@dataclass(init=False, repr=False, eq=False)
class BuildingMajority:
    """``majority:<type>``: the majority of one building type, by the base points table or a
    replacement for this scoring (``table``: the points per place)."""

    type: BuildingType
    table: Sequence[int] | None = None  # None: the base table of the round
    order: int = ORDER_MAJORITIES
    floor: Floor = None
    section: str = "Siegpunkte für Mehrheiten bei den Gebäuden"

    def __init__(
        self,
        type: BuildingType,
        table: Sequence[int] | None = None,
        order: int = ORDER_MAJORITIES,
        floor: Floor = None,
        section: str = "Siegpunkte für Mehrheiten bei den Gebäuden",
    ) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "floor", floor)
        object.__setattr__(self, "section", section)

    @property
    def key(self) -> str:
        return f"majority:{self.type.code}"

    @property
    def label_en(self) -> str:
        return self.type.name_in("en", plural=True)

    @property
    def label_de(self) -> str:
        return self.type.name_in("de", plural=True)

    def score(
        self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
    ) -> dict[str, CategoryScore]:
        type_score = _core.type_score
        t = self.type
        table = self.table if self.table is not None else _core.POINTS[round_no][t]
        # each participant's count of the type, and whether any has an adjustment (by C-level
        # maps: ``tuple([p.counts[t] for p in participants])``, ``any([p.adjustments ...])``)
        counts = tuple(map(_COUNT_OF[t], map(_COUNTS, participants)))
        # no adjustment of this type: every count is its base count (only an adjusted type's
        # count differs, see participant), so the common case below holds for this type
        if not any(map(_ADJUSTMENTS, participants)) or t not in map(
            _TYPE, chain.from_iterable(map(_ADJUSTMENTS, participants))
        ):
            known = scores_by_position(counts, table)
            if known is not None:  # the common case: no count adjustment, whole counts
                scores, ties = known
                out: dict[str, CategoryScore] = dict(
                    zip(map(_NAME, participants), scores, strict=True)
                )
                for group, shared, points, split in ties:  # a tie names the others
                    c = int(counts[group[0]])  # whole (see scores_by_position)
                    if len(group) == 2:  # the common tie: the lines below for two names
                        a = participants[group[0]].name
                        b = participants[group[1]].name
                        if a != b:
                            out[a] = type_score(c, c, (), shared, (b,), points, split)
                            out[b] = type_score(c, c, (), shared, (a,), points, split)
                            continue
                    names = [participants[i].name for i in group]
                    for name in names:
                        others = tuple([n for n in names if n != name])
                        out[name] = type_score(c, c, (), shared, others, points, split)
                return out
        out = {}
        for p, count, pl in zip(participants, counts, placings(counts, table), strict=True):
            adjustments = tuple(a for a in p.adjustments if a.type is t) if p.adjustments else ()
            place: int | None = None
            tied_with: tuple[str, ...] = ()
            points, split = 0, ""
            if pl is not None:
                place, tied, points, split = pl
                if tied:
                    tied_with = tuple([participants[i].name for i in tied])
            out[p.name] = type_score(
                norm(count), p.base_counts[t], adjustments, place, tied_with, points, split
            )
        return out


frozen_dataclass(BuildingMajority)


# ``Final``: C statics of the compiled build (a name that is not is a look-up in the module's
# dict at every use there; BuildingMajority.score reads these six times a majority)
_NAME: Final = attrgetter("name")
_COUNTS: Final = attrgetter("counts")
_ADJUSTMENTS: Final = attrgetter("adjustments")
_TYPE: Final = attrgetter("type")  # a count adjustment's building type (a member: == is identity)
# a counts mapping -> the type's count
_COUNT_OF: Final = {t: itemgetter(t) for t in BUILDING_TYPES}

Placed = tuple[int, tuple[int, ...], int, str]  # place, positions tied with, points, split
Placings = tuple[Placed | None, ...]
_MemoKey = tuple[tuple[Number, ...], tuple[int, ...]]  # (counts by position, points table)
_PLACINGS: dict[_MemoKey, Placings] = {}
# the scores by position when no participant has a count adjustment (see scores_by_position)
Ties = tuple[tuple[tuple[int, ...], int, int, str], ...]  # (positions, place, points, split)
_SCORES: dict[_MemoKey, tuple[tuple[Any, ...], Ties] | None] = {}
_MEMO_MAX = 20_000  # entries of each memo (emptied when full)


def scores_by_position(
    counts: tuple[Number, ...], table: Sequence[int]
) -> tuple[tuple[Any, ...], Ties] | None:
    """A building majority of participants without count adjustments, by position: (the
    TypeScore of each position, the ties: each shared place's positions, in ascending order as
    :func:`most_wins` lists them, with its place, points and split), or None when a count is
    not whole. A tied position's score names the others, so it is made by the caller (its
    entry in the scores is None, a place holder). Kept per (counts, table): the same few come
    back in every scoring (bounded memo)."""
    key = (counts, tuple(table))
    found = _SCORES.get(key, _NO_VALUE)
    if found is _NO_VALUE:
        found = _whole_scores(counts, table)
        if len(_SCORES) >= _MEMO_MAX:
            _SCORES.clear()
        _SCORES[key] = found
    return found  # type: ignore[return-value]


def _whole_scores(
    counts: tuple[Any, ...],  # Numbers: ints once the first test has passed
    table: Sequence[int],
) -> tuple[tuple[Any, ...], Ties] | None:
    """:func:`scores_by_position` worked out: :func:`placings` directly on whole counts
    (``tests/test_scoring_majority_paths.py`` holds the two equal). A position's place is one
    more than the number of greater counts (the index of its count in the counts sorted
    down); it shares the place with the positions of an equal count (issue 34, eighth step:
    about half the bytecodes of placings' general ranking, which a memo miss took)."""
    for c in counts:
        if type(c) is not int:
            return None
    type_score = _core.type_score
    kept = _core._TYPE_SCORES.get  # type_score's memo (only emptied, never replaced), inline
    down = sorted(counts, reverse=True)
    last = len(down) - 1
    size = len(table)
    scores: list[Any] = []
    ties: dict[int, tuple[tuple[int, ...], int, int, str]] = {}  # by place
    i = -1
    for n in counts:
        i += 1
        if n <= 0:  # not ranked (most_wins ranks the positive counts)
            found = kept((n, n, None, (), 0, ""))  # type_score(n, n, (), None, (), 0, "")
            scores.append(type_score(n, n, (), None, (), 0, "") if found is None else found)
            continue
        k = down.index(n)  # the number of greater counts
        if k == last or down[k + 1] != n:  # a place of its own
            paid = table[k] if k < size else 0
            points = paid if type(paid) is int else share(paid, 1, "down")
            found = kept((n, n, k + 1, (), points, ""))  # type_score's memo, inline
            scores.append(type_score(n, n, (), k + 1, (), points, "") if found is None else found)
            continue
        scores.append(None)  # tied: made by the caller
        if k + 1 in ties:
            continue
        # the tie's first position: the tie as most_wins has it (the places' points shared)
        if k + 1 == last or down[k + 2] != n:  # the common tie of two, written out
            a = table[k] if k < size else 0
            b = table[k + 1] if k + 1 < size else 0
            if type(a) is int and type(b) is int:
                total = a + b
                points = -(-total // 2) if total < 0 else total // 2  # rounded towards 0
                split = f"({a}+{b})/2 = {points}" if b >= 0 else f"({a}{b})/2 = {points}"
                ties[k + 1] = ((i, counts.index(n, i + 1)), k + 1, points, split)
                continue
        group = tuple([j for j, q in enumerate(counts) if q == n])
        g = len(group)
        shares = [table[j] if j < size else 0 for j in range(k, k + g)]
        points = share(sum(shares), g, "down")
        ties[k + 1] = (group, k + 1, points, f"({sum_text(shares)})/{g} = {points}")
    return tuple(scores), tuple(ties.values())


def placings(counts: Sequence[Number], table: Sequence[int]) -> Placings:
    """:func:`most_wins` over participants by position (those with a positive count rank):
    per position ``(place, positions tied with, points, split)``, or None when not ranked.
    Kept per (counts, table): the same few come back in every scoring (bounded memo)."""
    key = (tuple(counts), tuple(table))
    found = _PLACINGS.get(key)
    if found is None:
        placed = most_wins([(i, q) for i, q in enumerate(counts) if q > 0], table)
        found = tuple(placed.get(i) for i in range(len(counts)))
        if len(_PLACINGS) >= _MEMO_MAX:
            _PLACINGS.clear()
        _PLACINGS[key] = found
    return found


def most_wins(
    values: Sequence[tuple[_Name, Number]], table: Sequence[int]
) -> dict[_Name, tuple[int, tuple[_Name, ...], int, str]]:
    """The plain majority: :func:`rank` ``(values, table, "most", "down")`` without
    tie-breakers, as ``(place, tied_with, points, split)`` per name, without its general
    machinery (the six building majorities of every scoring go through here)."""
    ordered = sorted(values, key=_QUANTITY, reverse=True)  # stable: equal counts keep order
    out: dict[_Name, tuple[int, tuple[_Name, ...], int, str]] = {}
    n, size = len(ordered), len(table)
    k = 0
    while k < n:
        q = ordered[k][1]
        end = k + 1
        while end < n and ordered[end][1] == q:  # equal counts lie together
            end += 1
        if end == k + 1:  # a place of its own
            paid = table[k] if k < size else 0
            points = paid if type(paid) is int else share(paid, 1, "down")
            out[ordered[k][0]] = (k + 1, (), points, "")
        else:
            group = [v[0] for v in ordered[k:end]]
            shares = [table[i] if i < size else 0 for i in range(k, end)]
            points = share(sum(shares), len(group), "down")
            split = f"({sum_text(shares)})/{len(group)} = {points}"
            for name in group:
                out[name] = (k + 1, tuple(w for w in group if w != name), points, split)
        k = end
    return out


_QUANTITY = itemgetter(1)


@dataclass(init=False, repr=False, eq=False)
class WallCategory:
    """``wall``: the longest outer wall; Dirk gets no line ("eine Außenmauer wird für ihn
    jedoch nicht gewertet")."""

    key: str = "wall"
    label_en: str = "wall"
    label_de: str = "Außenmauer"
    section: str = "Siegpunkte für die Außenmauern"
    order: int = ORDER_WALL
    floor: Floor = None

    def __init__(
        self,
        key: str = "wall",
        label_en: str = "wall",
        label_de: str = "Außenmauer",
        section: str = "Siegpunkte für die Außenmauern",
        order: int = ORDER_WALL,
        floor: Floor = None,
    ) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label_en", label_en)
        object.__setattr__(self, "label_de", label_de)
        object.__setattr__(self, "section", section)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "floor", floor)

    def score(
        self, round_no: int, participants: Sequence[Participant], profile: RuleProfile
    ) -> dict[str, CategoryScore]:
        new_wall_score = _core.new_wall_score
        out: dict[str, CategoryScore] = {}
        for p in participants:
            if p.is_dirk:
                continue
            if p.alhambra is None:
                length = p.wall_claim or 0
                out[p.name] = new_wall_score(length, length, (), False)
                continue
            run = _geometry.longest_outer_wall(p.alhambra, profile.wall_run)
            if getattr(profile, "wall_points", "edge") == "tile":
                points = len({c for c, _s in run.segments})
            else:
                points = run.length
            out[p.name] = new_wall_score(run.length, points, run.segments, True)
        return out


frozen_dataclass(WallCategory)


def base_categories(
    table: Mapping[BuildingType, Sequence[int]] | None = None,
) -> list[ScoringCategory]:
    """The base game's categories: the six majorities (by ``table`` if given) and the wall."""
    if table is None:
        return list(_BASE_CATEGORIES)
    cats: list[ScoringCategory] = [BuildingMajority(t, tuple(table[t])) for t in BUILDING_TYPES]
    cats.append(WallCategory())
    return cats


# the base categories by the base table (immutable: made once)
_BASE_CATEGORIES: tuple[ScoringCategory, ...] = (
    *(BuildingMajority(t) for t in BUILDING_TYPES),
    WallCategory(),
)


BASE_KEYS = frozenset([*(f"majority:{t.code}" for t in BUILDING_TYPES), "wall"])

for _t in BUILDING_TYPES:
    register_category(BuildingMajority(_t), claim_key=_t.code)
register_category(WallCategory())


# --------------------------------------------------------------------- the module hook


# a field's default_factory (dict): an __init__ given no value makes a new dict, as the
# generated one did (referee/scoring/frozen.py)
_FACTORY_DICT: dict[Any, Any] = {}


@dataclass(init=False, repr=False, eq=False)
class ScoringParts:
    """What modules add to one scoring (``Module.scoring_parts``): count adjustments per
    participant (by player name; None is Dirk), extra categories, and a replacement points
    table for the building majorities of this scoring (type -> points per place) with a label
    naming where it comes from (shown with the breakdown: ``scoring tile st:SGTCAP``)."""

    adjustments: Mapping[str | None, tuple[Any, ...]] = field(default_factory=dict)
    categories: tuple[ScoringCategory, ...] = ()
    table: Mapping[BuildingType, Sequence[int]] | None = None
    table_label: tuple[str, str] | None = None  # where the table comes from (English, German)

    def __init__(
        self,
        adjustments: Mapping[str | None, tuple[Any, ...]] = _FACTORY_DICT,
        categories: tuple[ScoringCategory, ...] = (),
        table: Mapping[BuildingType, Sequence[int]] | None = None,
        table_label: tuple[str, str] | None = None,
    ) -> None:
        if adjustments is _FACTORY_DICT:
            adjustments = {}
        object.__setattr__(self, "adjustments", adjustments)
        object.__setattr__(self, "categories", categories)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "table_label", table_label)

    def for_participant(self, name: str | None) -> tuple[Any, ...]:
        """The count adjustments of a player (case-insensitive) or of Dirk (None)."""
        if name is None:
            return tuple(self.adjustments.get(None, ()))
        for k, v in self.adjustments.items():
            if k is not None and k.lower() == name.lower():
                return tuple(v)
        return ()

    def __add__(self, other: ScoringParts) -> ScoringParts:
        adj: dict[str | None, tuple[Any, ...]] = {k: tuple(v) for k, v in self.adjustments.items()}
        for k, v in other.adjustments.items():
            adj[k] = adj.get(k, ()) + tuple(v)
        theirs = other.table is not None
        return ScoringParts(
            adj,
            self.categories + other.categories,
            other.table if theirs else self.table,
            other.table_label if theirs else self.table_label,
        )


frozen_dataclass(ScoringParts)


NO_PARTS = ScoringParts()


# Last: the base categories' scores are made by referee.scoring.core, which builds on this module
# (a module attribute looked up at every score, not an import statement per call)
from referee import geometry as _geometry  # noqa: E402

# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402
from referee.scoring import core as _core  # noqa: E402

mend_frozen_copies(globals())
