"""Medina: nine craft-quarter tiles in the tower; the fewest medinas cost points at a scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § MEDINA.

Notation: a medina is the component token ``md:`` + its price + the sides with a wall in the
order ``n e s w`` (``x``: no wall): ``md:5n`` is the medina priced 5 with a wall north.

* ``* market Gu:md:5n`` -- drawn from the tower onto a market field ("kommt es genau wie die
  anderen Gebäudeplättchen auf den Bauhof zum Verkauf"); also among Dirk's tiles.
* ``buy Gu md:5 pay Gu5``, ``place md:5n@1,0``, ``reserve md:5``, ``build`` / ``remove`` /
  ``swap`` -- "gelten die gleichen Regeln wie für andere Gebäudeplättchen".
* ``scoring 2: Anna +12 (T=13, medina=-6)`` -- the medina line may be claimed.
* ``[Modules "medina floor=zero dirk=ranks"]`` -- the two readings the text leaves open.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import compress, repeat
from operator import itemgetter

from referee.catalogue import SIDES, Side
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.modules.base import BundledModule, ModulePiece, Scratch, bundled, module_data, section
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import ComponentRef, Pos
from referee.scoring import ScoringParts
from referee.scoring.categories import ORDER_LAST, Combined, Majority, Penalty

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "MEDINA"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "md"
TOKEN = re.compile(r"^(\d{1,2})([a-z]*)$", re.IGNORECASE)


@lru_cache(maxsize=256)  # a pure function of the token, asked for the same few again and again
def parse_medina(name: str) -> tuple[int, frozenset[Side] | None] | None:
    """``5n`` -> (5, {N}); ``5`` -> (5, None); ``5x`` -> (5, {}); else None. Kept per
    spelling (the result is immutable)."""
    m = TOKEN.match(name)
    if m is None:
        return None
    price, rest = int(m.group(1)), m.group(2).lower()
    if rest == "":
        return price, None
    walls = read_walls(rest)
    return None if walls is None else (price, walls)


@dataclass(frozen=True, slots=True)
class Medina(ModulePiece):
    """A medina tile: bought and built like a building ("gelten die gleichen Regeln wie für
    andere Gebäudeplättchen"), but of no building type, so the majorities skip it."""

    price: int
    walls: frozenset[Side]

    KIND = KIND
    from_tower = True  # a tile of the tower: bought, given to Dirk (E5)
    rotation_rule = "MEDINA-FACE"  # a token stating other walls (E6 check)
    cell_fill = "#d9b77e"  # sand: drawn as a medina, not a fountain
    type = None  # no building type: a class attribute (read without a call)

    @property
    def token_name(self) -> str:
        return f"{self.price}{walls_token(self.walls)}"

    @property
    def cell_label(self) -> str:
        return f"Md{self.price}"

    def named_by(self, name: str) -> bool:
        """A token names this medina by its price (the walls, if stated, are checked when it
        is built in: ``MEDINA-FACE``)."""
        parsed = parse_medina(name)
        return parsed is not None and parsed[0] == self.price

    def stated_walls(self, ref: ComponentRef) -> frozenset[Side] | None:
        parsed = parse_medina(ref.name) if ref.kind.lower() == KIND else None
        return None if parsed is None else parsed[1]


def prices() -> list[int]:
    return [int(p) for p in module_data("medina")["components"]["medinas"]["prices"]]


@cache  # the component data does not change (module_data reads it once)
def _known_prices() -> frozenset[int]:
    return frozenset(prices())


@cache  # asked at every draw from the tower (engine/tower.py): worked out once
def _tower_counts() -> dict[str, int]:
    return {str(p): n for p, n in Counter(prices()).items()}


@cache
def _penalties() -> dict[int, tuple[int, ...]]:
    table = module_data("medina")["components"]["penalties"]
    return {int(k): tuple(int(x) for x in v) for k, v in table.items()}


def penalty_table() -> dict[int, tuple[int, ...]]:
    return dict(_penalties())  # a copy: the caller's to keep


@cache
def _none_penalties() -> dict[int, int]:
    table = module_data("medina")["components"]["none_penalty"]
    return {int(k): int(v) for k, v in table.items()}


def none_penalty() -> dict[int, int]:
    return dict(_none_penalties())  # a copy: the caller's to keep


@dataclass
class MedinaScratch(Scratch):
    # the walls stated for each medina (by price)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    faces: dict[int, frozenset[Side]] = field(default_factory=dict)


def medinas_of(pieces: Any) -> list[Medina]:
    """``[p for p in pieces if isinstance(p, Medina)]``, picked out in C."""
    items = list(pieces)
    return list(compress(items, map(isinstance, items, repeat(Medina))))


_PIECE = itemgetter(1)


@bundled
class MedinaModule(BundledModule):
    """Nine medinas in the tower, bought like buildings; the fewest medinas lose points."""

    aliases = ("medinas",)
    component_kinds = (KIND,)
    plain_market_pieces = True  # a medina on a field is bought as a catalogue tile
    scratch_type = MedinaScratch

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die 9 Medinaplättchen werden mit den übrigen Gebäuden gemischt und in den
        Plättchenturm gelegt": one per price (prices unverified, see the YAML)."""
        return dict(_tower_counts())  # a copy: the caller's to keep

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        return self._medina(state, ref, pos, None, False)

    def _medina(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None, take: bool
    ) -> tuple[str, Medina | None] | None:
        """The medina a token names, with its price (the tower's key); ``take``: it leaves
        the tower here (a position's component). Its walls must be written."""
        token = f"{ref.kind}:{ref.name}"
        parsed = self._parse(state, ref, pos, who)
        if parsed is None:
            return None
        price, walls = parsed
        if take:
            take_from_tower(state, self, str(price), token, pos, who)
        if walls is None:
            state.flag("MEDINA-TOKEN", pos, who, reason="no-walls", token=token)
            return str(price), None
        # the walls stated first stand; a second statement of other walls is MEDINA-FACE
        faces = (state.modules.get(self.name) or self.data(state)).faces
        known = faces.setdefault(price, walls)
        if known != walls:
            stated, allowed = walls_token(walls), walls_token(known)
            state.flag("MEDINA-FACE", pos, who, tile=token, stated=stated, allowed=allowed)
        return str(price), Medina(price, known)

    def _parse(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> tuple[int, frozenset[Side] | None] | None:
        token = f"{ref.kind}:{ref.name}"
        parsed = parse_medina(ref.name) if ref.kind.lower() == KIND else None
        if parsed is None:
            state.flag("MEDINA-TOKEN", pos, who, reason="form", token=token)
            return None
        if parsed[0] not in _known_prices():
            data = module_data("medina")["components"]["medinas"]
            state.flag(
                "MEDINA-TOKEN",
                pos,
                who,
                reason="no-such-price",
                token=token,
                prices=", ".join(str(p) for p in prices()),
                source=data.get("prices_source", "-"),
            )
            return None
        return parsed

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A medina in a position's market, Dirk's tiles, reserve or Alhambra."""
        if where not in ("market", "reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        got = self._medina(state, ref, ref.pos, player.name if player else None, True)
        return True, None if got is None else got[1]

    # ------------------------------------------------------------------- scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Die Medinas werden zuletzt gewertet": one ``medina`` line per player (the ranked
        penalty of the fewest medinas plus the penalty for having none)."""
        count: dict[str, int] = {}
        dearest: dict[str, int] = {}
        for p in state.players:
            built = medinas_of(map(_PIECE, p.alhambra.items()))
            count[p.name] = len(built)
            if built:
                dearest[p.name] = max(m.price for m in built)
        dirk = self.option("dirk") == "ranks" and state.dirk is not None
        if dirk:
            own = medinas_of(state.dirk or ())
            count["Dirk"] = len(own)
            if own:
                dearest["Dirk"] = max(m.price for m in own)
        return ScoringParts(categories=(medina_category(round_no, count, dearest, self, dirk),))

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """Medinas left in the tower, each player's medinas (built and in the reserve)."""
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            built = sorted(medinas_of(x for _c, x in p.alhambra.items()), key=lambda m: m.price)
            kept = medinas_of(p.reserve)
            if built or kept:
                players[p.name] = {
                    "medinas built": " ".join(m.code for m in built) or "-",
                    "dearest": str(max(m.price for m in built)) if built else "-",
                    "in the reserve": " ".join(m.code for m in kept) or "-",
                }
        table = {"in the tower": str(tower_total(state, self))}
        if state.dirk is not None:
            table["Dirk"] = " ".join(m.code for m in medinas_of(state.dirk)) or "-"
        table["options"] = f"floor={self.option('floor')} dirk={self.option('dirk')}"
        return self.shown(table, players)

    # ----------------------------------------------------------------- simulator

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        """The nine medinas with walls the simulator makes up (the faces are not in the texts):
        none, one or two walls on random sides."""
        out = []
        for price in prices():
            walls = frozenset(sim.rng.sample(SIDES, sim.rng.choice((0, 1, 1, 2))))
            out.append(ComponentRef(KIND, f"{price}{walls_token(walls)}"))
        return out


def medina_category(
    round_no: int,
    count: dict[str, int],
    dearest: dict[str, int],
    module: BundledModule | None = None,
    dirk: bool = False,
) -> Any:
    """The ``medina`` line of scoring ``round_no`` from the generic blocks
    (``referee/scoring/categories.py``):

    * a :class:`Majority` of the *fewest* medinas with the table -3 / -6,-3 / -9,-6,-3, places
      shared and rounded up ("aufrunden"), the dearest medina as tie-breaker (the lower price
      takes the worse place: "Derjenige Spieler mit dem niedrigeren Kaufpreis gilt als
      Verlierer");
    * a :class:`Penalty` of 1 / 2 / 3 for every player without a medina;
    * together under one key, scored last (``ORDER_LAST``), floored at a zero total when the
      module option ``floor=zero`` is set.
    """

    floor = module.option("floor") if module is not None else "none"
    nones = _none_penalties()
    ranked = Majority(
        "medina-rank",
        "medina",
        "Medina",
        S_SCORE,
        quantity=dict(count),
        table=penalty_table(),
        direction="fewest",
        rounding="up",
        tiebreak=dict(dearest),
        tiebreak_label=("dearest", "teuerste"),
        dirk=dirk,
    )
    none = Penalty(
        "medina-none",
        "no medina",
        "keine Medina",
        S_SCORE,
        points={n: nones[round_no] for n, c in count.items() if c == 0},
        detail_en="no medina",
        detail_de="keine Medina",
        dirk=dirk,
    )
    return Combined(
        "medina",
        "medina",
        "Medina",
        S_SCORE,
        (ranked, none),
        order=ORDER_LAST,
        floor="total" if floor == "zero" else None,
    )
