"""Die Badehäuser (Klaus-Jürgen Wrede): six bathhouses in the tower, laid beside the market next
to the field they were drawn for, bought for 8 in that currency, built in any rotation, each
side scoring the distance to the first building of the type it names.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Klaus-Jürgen Wrede: Die Badehäuser.

Notation: a bathhouse is the component token ``bh:`` + the building types it names on its
north, east, south and west side (as it lies): ``bh:PSAC``.

* ``* aside Du bh:PSAC, market Du:G8ne`` -- "Ein neu gezogenes Badehaus kommt neben den Bauhof
  angrenzend zu der Währung, für die es gezogen wurde. Dann wird zusätzlich ein weiteres
  Gebäude gezogen, das auf den Bauhof zur entsprechenden Währung gelegt wird." (E14)
* ``buy Du bh:PSAC pay Du8`` -- "kann der Spieler bei einem Kauf in der entsprechenden Währung
  wählen, ob er das Gebäude oder ein Badehaus kauft. Alle Badehäuser kosten 8 Geld in der
  entsprechenden Währung." (a side offer, E15)
* ``place bh:ACPS@1,0`` -- "Ein Badehaus darf beliebig gedreht in die Alhambra eingebaut
  werden": the token states the sides as placed, a rotation of the drawn face.
* ``scoring 1: Anna +12 (G=4, bathhouse=5)`` -- the bathhouse line may be claimed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import repeat

from referee.catalogue import SIDES, BuildingType, Currency, Side
from referee.engine.findings import Finding, problem
from referee.engine.market_side import SideOffer
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.modules.base import (
    TYPE_LETTER,
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
from referee.record.model import ComponentRef, Coord, Pos
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Klaus-Jürgen Wrede: Die Badehäuser"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "bh"
IDENTITY = "bathhouse"


@lru_cache(maxsize=256)  # asked for the same few tokens again and again; bounded (records)
def parse_bath(name: str) -> tuple[BuildingType, ...] | str:
    """``PSAC`` -> (P, S, A, C) (north, east, south, west); a string: why it is none."""
    if len(name) != 4 or any(ch not in "PSACGT" for ch in name):
        return "form"
    types = tuple(BuildingType(ch) for ch in name)
    if len(set(types)) != 4:
        return "types"
    return types


def turns_of(sides: tuple[BuildingType, ...]) -> list[tuple[BuildingType, ...]]:
    """The four orientations (quarter turns clockwise: north's type moves east)."""
    return [sides[4 - k :] + sides[: 4 - k] for k in range(4)]


def letters(sides: tuple[BuildingType, ...]) -> str:
    return "".join([TYPE_LETTER[t] for t in sides])


_NO_WALLS: frozenset[Side] = frozenset()


@dataclass(frozen=True, slots=True)
class Bathhouse(ModulePiece):
    """A bathhouse: no building type (the majorities skip it), no walls (reading: the text
    names none), a building type named on each side (north, east, south, west as it lies)."""

    sides: tuple[BuildingType, ...]

    KIND = KIND
    from_tower = True  # a tile of the tower (E5)
    price = 8  # "Alle Badehäuser kosten 8 Geld"
    cell_fill = "#9fd3e6"
    # no building type, no walls: class attributes (read without a call), not properties
    type = None
    walls = _NO_WALLS

    @property
    def token_name(self) -> str:
        return letters(self.sides)

    @property
    def cell_label(self) -> str:
        return f"Bh{letters(self.sides)}"

    def named_by(self, name: str) -> bool:
        """A token names this bathhouse by its four types (a placing token must then be one of
        its rotations: ``BATH-ROTATION``, checked when it is built in)."""
        got = parse_bath(name)
        return not isinstance(got, str) and set(got) == set(self.sides)

    def orientations(self) -> list[Bathhouse]:
        return [Bathhouse(s) for s in turns_of(self.sides)]

    def orient_by_token(
        self, ref: object, pos: Pos, player: str | None
    ) -> tuple[Bathhouse, list[Finding]]:
        """The bathhouse as the placing token states it: one of its four rotations."""
        if not isinstance(ref, ComponentRef) or ref.kind.lower() != KIND:
            return self, []
        got = parse_bath(ref.name)
        if isinstance(got, str):
            token = f"{ref.kind}:{ref.name}"
            where = ref.pos or pos
            if got == "types":
                return self, [problem("BATH-TOKEN", where, player, reason="types", token=token)]
            return self, [problem("BATH-TOKEN", where, player, reason="form", token=token)]
        if got not in turns_of(self.sides):
            return self, [
                problem(
                    "BATH-ROTATION",
                    ref.pos or pos,
                    player,
                    tile=f"{ref.kind}:{ref.name}",
                    stated=letters(got),
                    printed=letters(self.sides),
                    allowed=", ".join(letters(s) for s in turns_of(self.sides)),
                )
            ]
        return Bathhouse(got), []


_DELTAS = tuple(s.delta for s in SIDES)  # each side's step, in the order of SIDES


def side_points(alhambra: Any, at: Coord, bath: Bathhouse) -> list[tuple[Side, BuildingType, int]]:
    """Each side's points: "so viele Punkte, wie die Entfernung des ersten Gebäudes des
    geforderten Typs vom Badehaus ist. Dabei dürfen sich Doppelmauern auf dem Weg befinden,
    jedoch keine Lücken." The walk stops at the first empty cell (0 points); other pieces on
    the way (other types, the fountain, squares) are passed. (The cells are read from the
    Alhambra's dict by plain tuples, equal to the coordinates; a building is
    :func:`~referee.geometry.queries.is_building`: not the fountain's cell, a type.)"""
    out = []
    get = alhambra.cells.get
    x, y = at
    for side, (dx, dy), wanted in zip(SIDES, _DELTAS, bath.sides, strict=True):
        cx, cy = x + dx, y + dy
        k, got = 1, 0
        while True:
            piece = get((cx, cy))
            if piece is None:
                break
            if (cx or cy) and piece.type is not None and piece.type == wanted:
                got = k
                break
            k += 1
            cx += dx
            cy += dy
        out.append((side, wanted, got))
    return out


def _top_down(item: tuple[Coord, object]) -> tuple[int, int]:
    """The order bathhouses are listed in: rows from the top, each from the left."""
    return (-item[0].y, item[0].x)


def score_bathhouses(alhambra: Any) -> tuple[int, str, str]:
    """The bathhouse line of one Alhambra: points, English and German detail (the bathhouses
    picked out first, only they sorted: no two cells share a place in the order)."""
    total = 0
    en: list[str] = []
    for at, piece in pieces_in_order(alhambra, Bathhouse, _top_down):
        parts = side_points(alhambra, at, piece)
        pts = sum(p for _s, _t, p in parts)
        total += pts
        how = " + ".join([f"{TYPE_LETTER[t]} {p}" for _s, t, p in parts])
        en.append(f"{piece.code}@{at.x},{at.y}: {how} = {pts}")
    text = "; ".join(en)
    return total, text, text


@cache  # asked at every draw from the tower (engine/tower.py): worked out once
def _tower_counts(name: str) -> dict[str, int]:
    return {IDENTITY: int(module_data(name)["components"]["bathhouses"]["count"])}


@dataclass
class BathScratch(Scratch):
    # the bathhouses beside the market: (the field index they were drawn for, the bathhouse)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    beside: list[tuple[int, Bathhouse]] = field(default_factory=list)


@bundled
class BadehaeuserModule(BesideTheMarket):
    """Six bathhouses beside the market, bought for 8 in the field's currency."""

    component_kinds = (KIND,)
    scratch_type = BathScratch
    draw_types = (Bathhouse,)  # its market_draw acts on these only (told of them only)
    plain_side_offers = True  # a bathhouse bought for 8; no purchase refinement

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die Badehäuser werden zu den übrigen Gebäudeplättchen gegeben und eingemischt"."""
        return dict(_tower_counts(self.name))  # a copy: the caller's to keep

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        got = self._parse(state, ref, pos, None)
        return None if got is None else (IDENTITY, got)

    def _parse(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> Bathhouse | None:
        got = parse_bath(ref.name) if ref.kind.lower() == KIND else "form"
        if isinstance(got, str):
            token = f"{ref.kind}:{ref.name}"
            if got == "types":
                state.flag("BATH-TOKEN", pos, who, reason="types", token=token)
            else:
                state.flag("BATH-TOKEN", pos, who, reason="form", token=token)
            return None
        return Bathhouse(got)

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A bathhouse in a position's reserve or Alhambra."""
        if where not in ("reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        got = self._parse(state, ref, ref.pos, who)
        if got is None:
            return True, None
        take_from_tower(state, self, IDENTITY, f"{ref.kind}:{ref.name}", ref.pos, who)
        return True, got

    # ------------------------------------------------- beside the market (E14, E15)

    def market_draw(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        """ "Ein neu gezogenes Badehaus kommt neben den Bauhof angrenzend zu der Währung, für
        die es gezogen wurde." -- "Wenn nötig, wird solange weitergezogen, bis ein anderes
        Gebäude als ein Badehaus gezogen wird." """
        if not isinstance(piece, Bathhouse):
            return None
        self.data(state).beside.append((field, piece))
        return "BATH-ASIDE"

    def side_offers(self, state: GameState) -> list[Any]:
        """Each bathhouse beside the market: bought in the currency of its field for 8."""
        return [
            SideOffer(b, self, Currency.of_field(f + 1), b.price, False, "BATH-BUY", True)
            for f, b in self.data(state).beside
        ]

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        faces = module_data(self.name)["components"]["bathhouses"]["sim_faces"]
        return [ComponentRef(KIND, str(f)) for f in faces]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like bathhouses (so that simulated games use the module)."""
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
        """A ``bathhouse`` point line for every player with a bathhouse built in, at every
        scoring (option ``scoring=final``: the last only)."""
        if self.option("scoring") == "final" and round_no != 3:
            return None

        if not built_in(state, Bathhouse):  # no line for anyone: the scoring's base path stays
            return None

        def points(p: Any) -> tuple[int, str, str] | None:
            if p.alhambra is None:
                return None
            if not any(map(isinstance, p.alhambra.cells.values(), repeat(Bathhouse))):  # in C
                return None
            return score_bathhouses(p.alhambra)

        line = PointLine("bathhouse", "bathhouses", "Badehäuser", S_SCORE, points, order=620)
        return ScoringParts(categories=(line,))

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """The bathhouses beside the market by field, each player's bathhouses and points now."""
        beside = (
            " ".join(
                f"{b.code} ({Currency.of_field(f + 1).code} 8)" for f, b in self.data(state).beside
            )
            or "-"
        )
        players = built_pieces_view(state, Bathhouse, "bathhouses", score_bathhouses)
        return self.shown(
            {
                "beside the market": beside,
                "in the tower": str(tower_total(state, self)),
                "options": f"scoring={self.option('scoring')}",
            },
            players,
        )
