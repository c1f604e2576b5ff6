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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.catalogue import BUILDING_TYPES, BuildingType, Side
from referee.geometry import Alhambra, longest_outer_wall
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import Claim, Coord

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


@dataclass(frozen=True)
class CountAdjustment:
    """A module's contribution to a building count, shown on its own breakdown line."""

    type: BuildingType
    amount: int
    label: str
    label_de: str | None = None  # the German line (the English one is used when missing)

    def text(self, lang: str = "en") -> str:
        return self.label_de if lang == "de" and self.label_de else self.label


@dataclass(frozen=True)
class ScoringEntry:
    """One participant of a scoring: a player (with an Alhambra or counts) or Dirk."""

    name: str
    alhambra: Alhambra | None = None  # None: Dirk, or the counts fallback
    counts: Mapping[BuildingType, int] | None = None  # used when alhambra is None
    wall_claim: int | None = None  # fallback: stated wall length ("wall not verified")
    is_dirk: bool = False  # Dirk: majorities, never a wall
    adjustments: tuple[CountAdjustment, ...] = ()  # module contributions, own breakdown lines
    total_before: int = 0


# ----------------------------------------------------------------------------- output


@dataclass(frozen=True)
class TypeScore:
    """One participant's result for one building type."""

    count: int  # including adjustments
    base_count: int
    adjustments: tuple[CountAdjustment, ...]
    place: int | None  # 1-based; None with no building of the type
    tied_with: tuple[str, ...]
    points: int
    split: str  # how a shared place was split, e.g. "(13+6)/2 = 9"; "" when not shared

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"count": self.count, "place": self.place, "points": self.points}
        if self.tied_with:
            d["tied_with"] = list(self.tied_with)
            d["split"] = self.split
        if self.adjustments:
            d["base_count"] = self.base_count
            d["adjustments"] = [{"amount": a.amount, "label": a.label} for a in self.adjustments]
        return d


@dataclass(frozen=True)
class WallScore:
    """The longest outer wall of a player's Alhambra (or the stated length, not verified)."""

    length: int
    points: int
    segments: tuple[tuple[Coord, Side], ...]
    verified: bool

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"length": self.length, "points": self.points}
        d["verified"] = self.verified
        if self.segments:
            d["segments"] = [{"at": str(c), "side": s.value} for c, s in self.segments]
        return d


@dataclass(frozen=True)
class ScoringRow:
    """One participant's breakdown in one scoring."""

    name: str
    is_dirk: bool
    buildings: dict[BuildingType, TypeScore]
    wall: WallScore | None
    points: int
    total_before: int

    @property
    def total(self) -> int:
        return self.total_before + self.points

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dirk": self.is_dirk,
            "buildings": {t.code: s.to_dict() for t, s in self.buildings.items()},
            "wall": self.wall.to_dict() if self.wall is not None else None,
            "points": self.points,
            "total_before": self.total_before,
            "total": self.total,
        }


@dataclass(frozen=True)
class ScoringResult:
    """The outcome of one scoring, per participant in entry order."""

    round: int
    rows: tuple[ScoringRow, ...]
    wall_mode: str = "trail"
    notes: tuple[str, ...] = field(default=())

    def row(self, name: str | None) -> ScoringRow | None:
        """The row of a player (None: Dirk); names match case-insensitively."""
        for r in self.rows:
            if name is None and r.is_dirk:
                return r
            if name is not None and not r.is_dirk and r.name.lower() == name.lower():
                return r
        return None

    def ranking(self) -> list[tuple[int, ScoringRow]]:
        """Players (not Dirk) by total, highest first, with their rank (ties share a rank)."""
        players = sorted((r for r in self.rows if not r.is_dirk), key=lambda r: -r.total)
        ranked: list[tuple[int, ScoringRow]] = []
        for i, r in enumerate(players):
            rank = ranked[-1][0] if ranked and ranked[-1][1].total == r.total else i + 1
            ranked.append((rank, r))
        return ranked

    def winners(self) -> list[str]:
        """Final scoring: "Bei Gleichstand teilen sich die Spieler den Sieg." (Spielende)."""
        ranked = self.ranking()
        return [r.name for rank, r in ranked if rank == 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "wall_mode": self.wall_mode,
            "players": [r.to_dict() for r in self.rows],
            "ranking": [{"rank": k, "name": r.name, "total": r.total} for k, r in self.ranking()],
        }


# ---------------------------------------------------------------------------- scoring


def _counts(entry: ScoringEntry) -> dict[BuildingType, int]:
    if entry.alhambra is not None:
        return entry.alhambra.counts()
    base = dict.fromkeys(BUILDING_TYPES, 0)
    for t, n in (entry.counts or {}).items():
        base[t] = int(n)
    return base


def _wall(entry: ScoringEntry, profile: RuleProfile) -> WallScore | None:
    if entry.is_dirk:
        return None  # "eine Außenmauer wird für ihn jedoch nicht gewertet"
    if entry.alhambra is None:
        length = entry.wall_claim or 0
        return WallScore(length, length, (), verified=False)
    run = longest_outer_wall(entry.alhambra, profile.wall_run)
    if getattr(profile, "wall_points", "edge") == "tile":
        points = len({c for c, _s in run.segments})
    else:
        points = run.length
    return WallScore(run.length, points, run.segments, verified=True)


def score_round(
    round_no: int, entries: Sequence[ScoringEntry], profile: RuleProfile = DEFAULT_PROFILE
) -> ScoringResult:
    """Score one scoring (1, 2 or 3) for these participants."""
    if round_no not in POINTS:
        raise ValueError(f"there is no scoring {round_no} (1, 2 or 3)")
    base = [_counts(e) for e in entries]
    counts: list[dict[BuildingType, int]] = []
    for e, b in zip(entries, base, strict=True):
        c = dict(b)
        for adj in e.adjustments:
            c[adj.type] = max(0, c.get(adj.type, 0) + adj.amount)
        counts.append(c)

    per_type: list[dict[BuildingType, TypeScore]] = [{} for _ in entries]
    for t in BUILDING_TYPES:
        holders = sorted(
            (i for i in range(len(entries)) if counts[i][t] > 0), key=lambda i: -counts[i][t]
        )
        place = 1
        k = 0
        while k < len(holders):
            group = [i for i in holders[k:] if counts[i][t] == counts[holders[k]][t]]
            paid = [place_points(round_no, t, p) for p in range(place, place + len(group))]
            share = sum(paid) // len(group)
            split = ""
            if len(group) > 1:
                split = f"({'+'.join(str(p) for p in paid)})/{len(group)} = {share}"
            for i in group:
                per_type[i][t] = TypeScore(
                    count=counts[i][t],
                    base_count=base[i][t],
                    adjustments=tuple(a for a in entries[i].adjustments if a.type is t),
                    place=place,
                    tied_with=tuple(entries[j].name for j in group if j != i),
                    points=share,
                    split=split,
                )
            place += len(group)
            k += len(group)
        for i in range(len(entries)):
            if t not in per_type[i]:
                per_type[i][t] = TypeScore(
                    count=counts[i][t],
                    base_count=base[i][t],
                    adjustments=tuple(a for a in entries[i].adjustments if a.type is t),
                    place=None,
                    tied_with=(),
                    points=0,
                    split="",
                )

    rows: list[ScoringRow] = []
    for i, e in enumerate(entries):
        wall = _wall(e, profile)
        points = sum(s.points for s in per_type[i].values()) + (wall.points if wall else 0)
        rows.append(
            ScoringRow(
                name=e.name,
                is_dirk=e.is_dirk,
                buildings=per_type[i],
                wall=wall,
                points=points,
                total_before=e.total_before,
            )
        )
    return ScoringResult(round_no, tuple(rows), wall_mode=profile.wall_run)


# ----------------------------------------------------------------------------- claims


@dataclass(frozen=True)
class ClaimMismatch:
    """A claimed figure that differs from the computed one."""

    player: str  # "Dirk" for Dirk
    what: str  # "points", "total", "wall" or a building-type code ("T")
    claimed: int
    computed: int
    line: str  # the computed breakdown line, as text

    def text(self) -> str:
        return (
            f"{self.player}: {self.what} claimed {self.claimed}, computed {self.computed} "
            f"({self.line})"
        )


def breakdown_line(row: ScoringRow, what: str, lang: str = "en") -> str:
    """The breakdown line of one figure: a type code, "wall", "points" or "total"."""
    from referee.scoring.text import type_line, wall_line

    if what == "wall":
        return wall_line(row, lang)
    if what == "points":
        return f"{row.name}: +{row.points}"
    if what == "total":
        return f"{row.name}: {row.total_before} + {row.points} = {row.total}"
    t = BuildingType(what)
    return type_line(row, t, lang)


def claim_mismatches(result: ScoringResult, claim: Claim) -> list[ClaimMismatch]:
    """Every figure of a claim that differs from the computed scoring.

    A claim for a name that is not in the scoring gives no mismatch here (the engine reports
    unknown names).
    """
    row = result.row(claim.player.name if claim.player is not None else None)
    if row is None:
        return []
    who = row.name
    found: list[ClaimMismatch] = []
    if claim.points is not None and claim.points != row.points:
        found.append(
            ClaimMismatch(who, "points", claim.points, row.points, breakdown_line(row, "points"))
        )
    if claim.total is not None and claim.total != row.total:
        found.append(
            ClaimMismatch(who, "total", claim.total, row.total, breakdown_line(row, "total"))
        )
    for part in claim.parts:
        if isinstance(part.key, BuildingType):
            computed = row.buildings[part.key].points
            what = part.key.code
        elif str(part.key).lower() == "wall":
            computed = row.wall.points if row.wall is not None else 0
            what = "wall"
        else:
            continue
        if part.points != computed:
            found.append(ClaimMismatch(who, what, part.points, computed, breakdown_line(row, what)))
    return found
