"""Der Wunschbrunnen (Klaus-Jürgen Wrede): six wells in the tower, laid beside the market next
to the field they were drawn for, bought for their number in that currency, built in any
direction; a well scores its number when exactly that many buildings lie in an unbroken row in
its spout's direction.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Klaus-Jürgen Wrede: Der Wunschbrunnen.

Notation: a well is the component token ``ww:`` + its number + the direction of its spout
(``n e s w``; may be left out where it is drawn or bought): ``ww:4e``.

* ``* aside Gu ww:4, market Gu:A7`` -- "Ein neu gezogener Wunschbrunnen kommt neben den Bauhof
  angrenzend zu der Währung, für die er gezogen wurde. ... Dann wird sofort ein zusätzliches
  Plättchen gezogen, das an die entsprechende Währung gelegt wird." (E14)
* ``buy Gu ww:4 pay Gu4`` -- "kann der Spieler bei einem Kauf in der entsprechenden Währung
  wählen, ob er das Gebäude oder einen dort liegenden Wunschbrunnen kauft. Der Preis für einen
  Wunschbrunnen entspricht der Zahl auf dem Plättchen." (a side offer, E15)
* ``place ww:4e@0,-1`` -- "Wird der Wunschbrunnen eingebaut, kann er beliebig ausgerichtet
  werden": the token states the spout as placed.
* ``scoring 2: Ben +30 (well=4)`` -- the well line may be claimed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import repeat

from referee.catalogue import SIDES, Currency, Side
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.market_side import SideOffer
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.geometry.queries import is_building
from referee.modules.base import (
    BesideTheMarket,
    ModulePiece,
    Scratch,
    built_in,
    built_pieces_view,
    bundled,
    module_data,
    pieces_in_order,
    section,
)
from referee.notation.tokens import WALL_LETTERS
from referee.record.model import ComponentRef, Coord, Pos
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Klaus-Jürgen Wrede: Der Wunschbrunnen"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "ww"
TOKEN = re.compile(r"^(\d{1,2})([nesw]?)$")
STEP: dict[Side, tuple[int, int]] = {
    Side.N: (0, 1),
    Side.E: (1, 0),
    Side.S: (0, -1),
    Side.W: (-1, 0),
}


def numbers() -> list[int]:
    return [int(n) for n in module_data("wunschbrunnen")["components"]["wells"]["numbers"]]


@cache  # the component data does not change (module_data reads it once)
def _known_numbers() -> frozenset[int]:
    return frozenset(numbers())


@cache  # asked at every draw from the tower (engine/tower.py): worked out once
def _tower_counts() -> dict[str, int]:
    return dict(Counter(str(n) for n in numbers()))


@lru_cache(maxsize=256)  # a pure function of the token, asked for the same few again and again
def parse_well(name: str) -> tuple[int, Side | None] | None:
    """``4e`` -> (4, E); ``4`` -> (4, None); None: not a well token. Kept per spelling (the
    result is immutable)."""
    m = TOKEN.match(name)
    if m is None:
        return None
    return int(m.group(1)), WALL_LETTERS.get(m.group(2))


_NO_WALLS: frozenset[Side] = frozenset()


@dataclass(frozen=True, slots=True)
class Well(ModulePiece):
    """A wishing well: no building type (the majorities skip it), no walls (reading: the text
    names none), a number (its price and its points) and a spout direction as it lies."""

    number: int
    spout: Side | None = None

    KIND = KIND
    from_tower = True  # a tile of the tower (E5)
    cell_fill = "#7fb3e0"
    type = None  # no building type: a class attribute (read without a call)

    @property
    def price(self) -> int:
        return self.number

    # no walls: a class attribute (read without a call), not a property
    walls = _NO_WALLS

    @property
    def token_name(self) -> str:
        return f"{self.number}{self.spout.value.lower() if self.spout is not None else ''}"

    @property
    def cell_label(self) -> str:
        return f"Ww{self.number}"

    def named_by(self, name: str) -> bool:
        """A token names this well by its number (the spout is stated when it is built in)."""
        got = parse_well(name)
        return got is not None and got[0] == self.number

    def orientations(self) -> list[Well]:
        return [Well(self.number, s) for s in SIDES]

    def orient_by_token(
        self, ref: object, pos: Pos, player: str | None
    ) -> tuple[Well, list[Finding]]:
        """ "Wird der Wunschbrunnen eingebaut, kann er beliebig ausgerichtet werden": the
        placing token states the spout. Not stated: a well that never lay has no direction,
        and the scoring counts "in der Richtung des Wasserspeiers", so it is refused
        (``WELL-DIRECTION``); a well built in before keeps its direction (noted)."""
        got = parse_well(ref.name) if isinstance(ref, ComponentRef) else None
        if got is not None and got[1] is not None:
            return Well(self.number, got[1]), []
        if self.spout is None:
            return self, [problem("WELL-DIRECTION", pos, player, tile=self.code)]
        return self, [unverifiable(pos, "UNVERIFIED-ORIENTATION", player, tile=self.code)]


def row_length(alhambra: Any, at: Coord, well: Well, walls: str = "pass") -> int:
    """The buildings in an unbroken row from the well in its spout's direction (the first
    empty cell or piece that is no building ends it; walls do not, unless ``walls="stop"``:
    then a wall on the side between two cells of the row ends it too)."""
    if well.spout is None:
        return 0
    side = well.spout
    dx, dy = STEP[side]
    k = 0
    prev_piece: Any = well
    while True:
        c = Coord(at.x + dx * (k + 1), at.y + dy * (k + 1))
        piece = alhambra.get(c)
        if piece is None or not is_building(c, piece):
            return k
        if walls == "stop" and (
            side in getattr(prev_piece, "walls", frozenset())
            or side.opposite in getattr(piece, "walls", frozenset())
        ):
            return k
        prev_piece = piece
        k += 1


def _top_down(item: tuple[Coord, object]) -> tuple[int, int]:
    """The order wells are listed in: rows from the top, each from the left."""
    return (-item[0].y, item[0].x)


def score_wells(alhambra: Any, rule_: str = "exact", walls: str = "pass") -> tuple[int, str, str]:
    """The well line of one Alhambra: points, English and German detail."""
    total = 0
    en: list[str] = []
    de: list[str] = []
    # the wells picked out first, only they sorted (no two cells share a place in the order)
    for at, piece in pieces_in_order(alhambra, Well, _top_down):
        n = row_length(alhambra, at, piece, walls)
        hit = n == piece.number if rule_ == "exact" else n >= piece.number
        pts = piece.number if hit else 0
        total += pts
        en.append(f"{piece.code}@{at.x},{at.y}: {n} in a row -> {pts}")
        de.append(f"{piece.code}@{at.x},{at.y}: {n} in Reihe -> {pts}")
    return total, "; ".join(en), "; ".join(de)


@dataclass
class WellScratch(Scratch):
    # the wells beside the market: (the field index they were drawn for, the well)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    beside: list[tuple[int, Well]] = field(default_factory=list)


@bundled
class WunschbrunnenModule(BesideTheMarket):
    """Six wishing wells beside the market, bought for their number in the field's currency."""

    component_kinds = (KIND,)
    scratch_type = WellScratch
    draw_types = (Well,)  # its market_draw acts on these only (told of them only)
    plain_side_offers = True  # a well bought for its number; no purchase refinement

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die Wunschbrunnen werden mit den Gebäudeplättchen gemischt" (numbers unverified)."""
        return dict(_tower_counts())  # a copy: the caller's to keep

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        got = self._parse(state, ref, pos, None)
        return None if got is None else (str(got.number), got)

    def _parse(self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None) -> Well | None:
        token = f"{ref.kind}:{ref.name}"
        got = parse_well(ref.name) if ref.kind.lower() == KIND else None
        if got is None:
            state.flag("WELL-TOKEN", pos, who, reason="form", token=token)
            return None
        if got[0] not in _known_numbers():
            data = module_data(self.name)["components"]["wells"]
            state.flag(
                "WELL-TOKEN",
                pos,
                who,
                reason="no-such-number",
                token=token,
                numbers=", ".join(str(n) for n in numbers()),
                source=data.get("numbers_source", "-"),
            )
            return None
        return Well(got[0], got[1])

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A well in a position's reserve or Alhambra."""
        if where not in ("reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        got = self._parse(state, ref, ref.pos, who)
        if got is None:
            return True, None
        take_from_tower(state, self, str(got.number), f"{ref.kind}:{ref.name}", ref.pos, who)
        return True, got

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        """A well in an Alhambra stated without its spout scores nothing: reported
        (``WELL-SPOUT``), never silently."""
        for p in ctx.state.players:
            for _c, x in p.alhambra.items():
                if isinstance(x, Well) and x.spout is None:
                    ctx.flag("WELL-SPOUT", ctx.pos, p.name, token=x.code, name=p.name)

    # ------------------------------------------------- beside the market (E14, E15)

    def market_draw(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        """ "Ein neu gezogener Wunschbrunnen kommt neben den Bauhof angrenzend zu der Währung,
        für die er gezogen wurde." -- "Wenn nötig, wird solange weitergezogen" """
        if not isinstance(piece, Well):
            return None
        self.data(state).beside.append((field, piece))
        return "WELL-ASIDE"

    def side_offers(self, state: GameState) -> list[Any]:
        """Each well beside the market: bought in the currency of its field for its number."""
        return [
            SideOffer(w, self, Currency.of_field(f + 1), w.number, False, "WELL-BUY", True)
            for f, w in self.data(state).beside
        ]

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        return [ComponentRef(KIND, str(n)) for n in numbers()]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like wells (so that simulated games use the module)."""
        from referee.record.model import Buy

        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and isinstance(a.tile, ComponentRef)
            and a.tile.kind.lower() == KIND
        ]

    # ------------------------------------------------------------------- scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "bekommt der Spieler bei einer Wertung die Zahl auf dem Brunnen als Punkte": a
        ``well`` point line at every scoring for every player with a well built in."""
        if not built_in(state, Well):  # no line for anyone: the scoring's base path stays
            return None
        how = self.option("row")
        walls = self.option("walls")

        def points(p: Any) -> tuple[int, str, str] | None:
            if p.alhambra is None:
                return None
            if not any(map(isinstance, p.alhambra.cells.values(), repeat(Well))):  # in C
                return None
            return score_wells(p.alhambra, how, walls)

        line = PointLine("well", "wells", "Wunschbrunnen", S_SCORE, points, order=630)
        return ScoringParts(categories=(line,))

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """The wells beside the market by field, each player's wells and points now."""
        beside = (
            " ".join(
                f"{w.code} ({Currency.of_field(f + 1).code} {w.number})"
                for f, w in self.data(state).beside
            )
            or "-"
        )
        players = built_pieces_view(
            state, Well, "wells", lambda a: score_wells(a, self.option("row"), self.option("walls"))
        )
        return self.shown(
            {
                "beside the market": beside,
                "in the tower": str(tower_total(state, self)),
                "options": f"row={self.option('row')} walls={self.option('walls')}",
            },
            players,
        )
