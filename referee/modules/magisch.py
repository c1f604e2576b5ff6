"""Die magischen Gebäude: six buildings in the tower that may be turned at every placement.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE MAGISCHEN GEBÄUDE.

Notation: a magic building is the component token ``mg:`` + its type (the building type code
P S A C G T) + its price + the sides with a wall in the order ``n e s w`` (``x``: none):
``mg:P9ne`` is the magic pavilion priced 9 lying with walls north and east.

* ``* market De:mg:P9n`` -- drawn from the tower ("werden ebenfalls auf den Bauhof gelegt und
  zum Verkauf angeboten"): type, price and the printed walls (in any orientation); also among
  Dirk's tiles.
* ``buy De mg:P9 pay De9`` -- bought like any tile.
* ``place mg:P9e@-1,0``, ``build mg:P9s@2,1``, ``swap mg:P9w@1,0 for A5``, ``distribute
  De:mg:P9e Ben@-1,0`` -- every placement states the walls as placed ("Bei jedem Einbau darf das
  Gebäude dann beliebig gedreht werden"); they must be a rotation of the printed walls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from referee.catalogue import SIDES, BuildingType, Side
from referee.engine.orientation import rotations
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.modules.base import BundledModule, ModulePiece, Scratch, bundled, module_data
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import ComponentRef, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KIND = "mg"
TOKEN = re.compile(r"^([psacgt])(\d{1,2})?([a-z]*)$", re.IGNORECASE)


# a game names the same few tokens again and again, and the answer is immutable
@lru_cache(maxsize=256)
def parse_magic(name: str) -> tuple[BuildingType, int | None, frozenset[Side] | None] | None:
    """``P9ne`` -> (pavilion, 9, {N, E}); ``P9`` -> (pavilion, 9, None); ``P`` -> (pavilion,
    None, None); ``P9x`` -> no walls; else None."""
    m = TOKEN.match(name)
    if m is None:
        return None
    kind = BuildingType(m.group(1).upper())
    price = int(m.group(2)) if m.group(2) else None
    rest = m.group(3).lower()
    if rest == "":
        return kind, price, None
    if price is None:
        return None  # walls need the price before them
    walls = read_walls(rest)
    return None if walls is None else (kind, price, walls)


@dataclass(frozen=True, slots=True)
class MagicBuilding(ModulePiece):
    """A magic building: a building of its type in every scoring ("zählen bei einer Wertung
    wie jedes andere Gebäude derselben Sorte"), turned freely at every placement (E6)."""

    kind: BuildingType
    price: int
    printed_walls: frozenset[Side]
    walls: frozenset[Side]

    KIND = KIND
    from_tower = True  # a tile of the tower (E5)
    rotatable = True  # "Bei jedem Einbau ... beliebig gedreht" (E6)
    rotation_rule = "MAGIC-ROTATION"
    cell_fill = "#ffd700"  # drawn with a gold ring: recognisably magic

    @property
    def type(self) -> BuildingType:
        return self.kind

    @property
    def token_name(self) -> str:
        return f"{self.kind.code}{self.price}{walls_token(self.walls)}"

    @property
    def cell_label(self) -> str:
        return f"{self.kind.code}{self.price}*"

    def named_by(self, name: str) -> bool:
        """A token names this building by type (and price, if written); the walls it states
        are the orientation, checked when it is built in."""
        parsed = parse_magic(name)
        return (
            parsed is not None
            and parsed[0] is self.kind
            and (parsed[1] is None or parsed[1] == self.price)
        )

    def stated_walls(self, ref: ComponentRef) -> frozenset[Side] | None:
        parsed = parse_magic(ref.name) if ref.kind.lower() == KIND else None
        return None if parsed is None else parsed[2]

    def turned(self, walls: frozenset[Side]) -> MagicBuilding:
        return replace(self, walls=frozenset(walls))


# ``type`` read without a call: the slot of ``kind`` itself (the property above is what it
# answers and what type checkers read; issue 34, twenty-fifth step)
setattr(MagicBuilding, "type", MagicBuilding.__dict__["kind"])  # noqa: B010 (as Plot)


@dataclass
class MagicScratch(Scratch):
    # price and printed walls stated for each type (the first statement counts)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    faces: dict[BuildingType, tuple[int, frozenset[Side]]] = field(default_factory=dict)


_DATA: dict[str, Any] = module_data("magisch")["components"]["buildings"]
PER_TYPE = {str(k): int(v) for k, v in _DATA["per_type"].items()}


@bundled
class Magisch(BundledModule):
    """Six magic buildings in the tower; turned freely whenever they are built in."""

    component_kinds = (KIND,)
    scratch_type = MagicScratch
    plain_market_pieces = True  # a magic building on a field is bought as a catalogue tile

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die 6 Magischen Gebäude werden mit den übrigen Gebäuden gemischt und in den
        Plättchenturm gelegt": one per type (unverified, see the YAML)."""
        return dict(PER_TYPE)  # a fresh dict: callers may change it

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        got = self._read(state, ref, pos, None)
        if got is None:
            return None
        kind, piece = got
        return kind.code, piece

    def _read(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> tuple[BuildingType, MagicBuilding | None] | None:
        """The building a token names where it comes out of the tower (or stands in a
        position): its face must be written and agree with earlier statements."""
        token = f"{ref.kind}:{ref.name}"
        parsed = parse_magic(ref.name) if ref.kind.lower() == KIND else None
        if parsed is None:
            state.flag("MAGIC-TOKEN", pos, who, reason="form", token=token)
            return None
        kind, price, walls = parsed
        if price is None or walls is None:
            state.flag("MAGIC-TOKEN", pos, who, reason="no-face", token=token)
            return kind, None
        faces = self.data(state).faces
        known = faces.get(kind)
        if known is not None:
            k_price, k_walls = known
            if k_price != price or walls not in rotations(k_walls):
                state.flag(
                    "MAGIC-FACE",
                    pos,
                    who,
                    token=token,
                    type=kind.name_in("en"),
                    known=f"{KIND}:{kind.code}{k_price}{walls_token(k_walls)}",
                )
            return kind, MagicBuilding(kind, k_price, k_walls, k_walls)
        faces[kind] = (price, walls)
        return kind, MagicBuilding(kind, price, walls, walls)

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A magic building in a position's market, Dirk's tiles, reserve or Alhambra (where
        it lies as written: ``alhambra mg:P9e@-1,0``)."""
        if where not in ("market", "reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        got = self._read(state, ref, ref.pos, who)
        if got is None:
            return True, None
        kind, piece = got
        take_from_tower(state, self, kind.code, f"{ref.kind}:{ref.name}", ref.pos, who)
        if piece is not None:
            walls = piece.stated_walls(ref)
            if walls is not None and walls in rotations(piece.printed_walls):
                piece = piece.turned(walls)
        return True, piece

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """Magic buildings left in the tower, the faces stated so far, each player's."""
        faces = self.data(state).faces
        table = {
            "in the tower": str(tower_total(state, self)),
            "faces stated": " ".join(
                f"{KIND}:{k.code}{p}{walls_token(w)}"
                for k, (p, w) in sorted(faces.items(), key=lambda kv: kv[0].code)
            )
            or "-",
        }
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            built = [
                f"{x.code}@{at}" for at, x in p.alhambra.items() if isinstance(x, MagicBuilding)
            ]
            kept = [str(x) for x in p.reserve if isinstance(x, MagicBuilding)]
            if built or kept:
                players[p.name] = {
                    "magic buildings": " ".join(built) or "-",
                    "in the reserve": " ".join(kept) or "-",
                }
        if state.dirk is not None:
            table["Dirk"] = (
                " ".join(str(x) for x in state.dirk if isinstance(x, MagicBuilding)) or "-"
            )
        return self.shown(table, players)

    # ----------------------------------------------------------------- simulator

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        """The six buildings as the component data guesses them (one per type, the price one
        above the dearest base tile, 1/2/3 walls on random sides): the faces are not in the
        texts."""
        out = []
        for code, n in PER_TYPE.items():
            for _ in range(n):
                k = int(_DATA["wall_counts"][code])
                walls = frozenset(sim.rng.sample(SIDES, k))
                out.append(ComponentRef(KIND, f"{code}{_DATA['prices'][code]}{walls_token(walls)}"))
        return out
