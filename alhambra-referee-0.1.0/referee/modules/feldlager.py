"""Die Feldlager (camps): tiles of the tower that lean with their bastions on the city walls
and score, at every scoring, the tiles in a straight gapless line in their arrows' directions.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE FELDLAGER.

Notation: a camp is the component token ``fl:`` + its price + ``b`` + its bastion sides + ``a``
+ the directions of its arrows (sides ``N E S W``, ``O`` for Ost too): ``fl:6bSaS`` is the camp
priced 6 with a bastion on its south side and an arrow pointing south. The faces were only in
the pictures: a record states them where the camp comes out of the tower.

* ``* market Du:fl:6bSaS`` -- drawn onto the market like a building (E5);
* ``buy Du fl:6bSaS pay Du6`` -- "zum aufgedruckten Preis gekauft" (the base purchase);
* ``place fl:6bSaS@0,2`` / ``reserve fl:6bSaS`` -- placed at the turn's end like a tile, by the
  building rules with the camp's rule profile (E20: bastion and green sides, no walk rule);
* ``scoring 1: Anna +20 (T=8, camps=4)`` -- the camp line may be claimed.

Rulings (``docs/modules/feldlager.md``): a wall a bastion leans on still counts for the
longest outer wall (switch ``walls``); a camp's line starts at the tile beside it in the
arrow's direction and ends at the first empty cell or camp (switch ``line``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.catalogue import SIDES, Side
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.geometry.layers import cell_walls
from referee.geometry.pieces import Profile, SideKind
from referee.geometry.rules import BuildingProblem
from referee.modules.base import (
    BundledModule,
    ModulePiece,
    built_pieces_view,
    bundled,
    module_data,
    section,
)
from referee.notation.tokens import read_walls
from referee.record.model import ComponentRef, Coord, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE FELDLAGER"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "fl"
IDENTITY = "camp"  # the tower knows 8 camps; their faces are stated by the record
TOKEN = re.compile(r"^(\d{1,2})b([a-z]{1,4})a([a-z]{1,4})$", re.IGNORECASE)
ARROW = {Side.N: "↑", Side.E: "→", Side.S: "↓", Side.W: "←"}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("feldlager")["components"]["camps"]
    return data


def camp_count() -> int:
    return int(_data()["count"])


def _sides(sides: frozenset[Side]) -> str:
    return "".join(s.value for s in SIDES if s in sides)


@dataclass(frozen=True, slots=True)
class Camp(ModulePiece):
    """A camp: no building type (it counts for no majority), no walls of its own (reading: its
    sides are bastions or green), a price, its bastion sides and its arrows. ``transparent``:
    the switch ``walls`` (a wall a bastion leans on stays an outer wall)."""

    price: int
    bastions: frozenset[Side]
    arrows: frozenset[Side]
    transparent: bool = True

    KIND = KIND
    from_tower = True  # "Die Feldlager werden mit den anderen Gebäuden gemischt" (E5)
    cell_fill = "#9cc47a"  # the green of the camps' sides
    never_site = True  # "Feldlager ... können nicht als Baustellen eingerichtet werden"

    @property
    def walls(self) -> frozenset[Side]:
        return frozenset()

    @property
    def profile(self) -> Profile:
        """E20: bastion sides meet walls of buildings, the other ("grüne") sides only green
        sides; "Die Fußgänger-Regel gilt nicht für Feldlager"."""
        kinds = {s: SideKind.BASTION if s in self.bastions else SideKind.GREEN for s in SIDES}
        return Profile(kinds, walk_exempt=True, transparent=self.transparent)

    @property
    def token_name(self) -> str:
        return f"{self.price}b{_sides(self.bastions)}a{_sides(self.arrows)}"

    @property
    def cell_label(self) -> str:
        return f"F{self.price}" + "".join(ARROW[s] for s in SIDES if s in self.arrows)

    def named_by(self, name: str) -> bool:
        """The whole face, or the price alone (``buy Du fl:6``)."""
        if name.isdigit():
            return int(name) == self.price
        got = parse_camp(name)
        return got is not None and got[:3] == (self.price, self.bastions, self.arrows)


def parse_camp(name: str) -> tuple[int, frozenset[Side], frozenset[Side]] | None:
    """``6bSaS`` -> (6, {S}, {S}); None: not a camp's face."""
    m = TOKEN.match(name)
    if m is None:
        return None
    bastions = read_walls(m.group(2).lower(), none=())
    arrows = read_walls(m.group(3).lower(), none=())
    if not bastions or not arrows:
        return None
    return int(m.group(1)), bastions, arrows


def camp_lines(alhambra: Any, at: Coord, camp: Camp, line: str = "touching") -> list[int]:
    """The tiles each arrow of the camp scores: the straight gapless line in its direction
    ("Innen liegende Stadtmauern unterbrechen diese Linie nicht"; "Startplättchen und Plätze
    zählen hier wie Gebäude mit"), from the tile beside the camp to the first empty cell or
    camp. ``line="first"``: empty cells before the line's first tile are skipped."""
    out: list[int] = []
    cells = alhambra.cells
    for side in (s for s in SIDES if s in camp.arrows):
        c = at.neighbour(side)
        if line == "first":
            far = 0
            while c not in cells and far < 40:  # an Alhambra is never that wide
                c, far = c.neighbour(side), far + 1
        n = 0
        while True:
            piece = cells.get(c)
            if piece is None or isinstance(piece, Camp):
                break
            n += 1
            c = c.neighbour(side)
        out.append(n)
    return out


def score_camps(alhambra: Any, line: str = "touching") -> tuple[int, str, str] | None:
    """The camp line of one Alhambra: points and the English and German detail (None: no
    camp built)."""
    total = 0
    en: list[str] = []
    de: list[str] = []
    camps = [(c, p) for c, p in alhambra.items() if isinstance(p, Camp)]
    if not camps:
        return None
    for at, camp in sorted(camps, key=lambda cp: (-cp[0].y, cp[0].x)):
        runs = camp_lines(alhambra, at, camp, line)
        total += sum(runs)
        arrows = [s for s in SIDES if s in camp.arrows]
        parts = ", ".join(f"{s.value} {n}" for s, n in zip(arrows, runs, strict=True))
        en.append(f"{camp.code}@{at}: {parts}")
        de.append(f"{camp.code}@{at}: {parts.replace('E ', 'O ')}")
    return total, "; ".join(en), "; ".join(de)


def leans_on_a_wall(alhambra: Any, at: Coord, camp: Camp) -> bool:
    """ "Feldlager dürfen nur mit Bastion(en) an Stadtmauer(n) eines Gebäudeplättchens angelegt
    werden": a bastion side faces a piece that is no camp and shows a wall there."""
    cells = alhambra.cells
    for side in camp.bastions:
        nb = at.neighbour(side)
        piece = cells.get(nb)
        if piece is None or isinstance(piece, Camp):
            continue
        if side.opposite in cell_walls(cells, alhambra.layers, nb):
            return True
    return False


@bundled
class Feldlager(BundledModule):
    """Eight camps in the tower, bought and built like tiles by their own side rules."""

    component_kinds = (KIND,)

    # ------------------------------------------------------------------ the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "8 Feldlagerplättchen", mixed into the tower with the buildings."""
        return {IDENTITY: camp_count()}

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        camp = self._parse(state, ref, pos, None)
        return None if camp is None else (IDENTITY, camp)

    def _parse(self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None) -> Camp | None:
        got = parse_camp(ref.name) if ref.kind.lower() == KIND else None
        if got is None:
            state.flag("FELDLAGER-TOKEN", pos, who, token=f"{ref.kind}:{ref.name}")
            return None
        price, bastions, arrows = got
        most = int(_data()["most_bastions"])
        if len(bastions) > most or len(arrows) > int(_data()["most_arrows"]):
            state.flag("FELDLAGER-FACE", pos, who, token=f"{ref.kind}:{ref.name}")
        return Camp(price, bastions, arrows, self.option("walls") == "transparent")

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A camp in a position's market, Dirk's tiles, reserve or Alhambra
        (``alhambra fl:6bSaS@0,2``)."""
        if where not in ("market", "reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        camp = self._parse(state, ref, ref.pos, who)
        if camp is None:
            return True, None
        take_from_tower(state, self, IDENTITY, camp.code, ref.pos, who)
        return True, camp

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        """The assumed faces (``feldlager.yaml``, not verified)."""
        return [ComponentRef(KIND, str(f)) for f in _data()["assumed_faces"]]

    # ------------------------------------------------------------------ building rules

    placements_by_pieces = True  # place.problems: only a camp entering is judged here

    @refines(Decision.PLACE_PROBLEMS)
    def camps_lean_on_walls(
        self, ctx: Any, problems: list[Any], *, player: Any, at: Any, piece: Any, **_: Any
    ) -> list[Any]:
        """A camp must lean with a bastion on a wall of a building (touching only other camps
        is not enough); the side rules themselves are the platform's ``PLACE-SIDE`` (a camp that
        breaks them is not reported twice)."""
        if not isinstance(piece, Camp) or not isinstance(at, Coord):
            return problems
        if any(p.code in ("PLACE-ADJACENT", "PLACE-OCCUPIED", "PLACE-SIDE") for p in problems):
            return problems
        if player.alhambra_unknown or leans_on_a_wall(player.alhambra, at, piece):
            return problems
        return [*problems, BuildingProblem("FELDLAGER-BASTION", (at,))]

    def position_layout(self, state: GameState, player: PlayerState) -> list[Any]:
        """A camp stated in a position leans on a wall too ("Feldlager dürfen nur mit
        Bastion(en) an Stadtmauer(n) eines Gebäudeplättchens angelegt werden"). A bastion
        facing a building without a wall there is the platform's ``PLACE-SIDE`` already: the
        camp is reported here when its bastions face no building at all (as in a turn)."""
        alh = player.alhambra
        if player.alhambra_unknown:
            return []
        cells = alh.cells

        def faces_a_building(at: Coord, camp: Camp) -> bool:
            return any(
                cells.get(at.neighbour(s)) is not None
                and not isinstance(cells.get(at.neighbour(s)), Camp)
                for s in camp.bastions
            )

        return [
            BuildingProblem("FELDLAGER-BASTION", (at,))
            for at, camp in sorted(alh.items(), key=lambda cp: (-cp[0].y, cp[0].x))
            if isinstance(camp, Camp)
            and not leans_on_a_wall(alh, at, camp)
            and not faces_a_building(at, camp)
        ]

    @refines(Decision.REMOVE_PROBLEMS)
    def camps_keep_their_wall(
        self, ctx: Any, problems: list[Any], *, player: Any, at: Any, **_: Any
    ) -> list[Any]:
        """ "Auch nach den Umbaumaßnahmen muss die Alhambra gemäß den Bauregeln aufgebaut
        sein" (base game): a camp whose only wall would leave stands no more."""
        alh = player.alhambra
        if player.alhambra_unknown or not isinstance(at, Coord) or at not in alh.cells:
            return problems
        beside = [
            (c, p)
            for c in (at.neighbour(s) for s in SIDES)
            if isinstance(p := alh.cells.get(c), Camp)
        ]
        if not beside:
            return problems
        trial = alh.copy()
        trial.remove(at)
        lost = tuple(c for c, camp in beside if not leans_on_a_wall(trial, c, camp))
        if not lost:
            return problems
        return [*problems, BuildingProblem("FELDLAGER-BASTION", lost)]

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Bei jeder Wertung werden die Feldlager berücksichtigt": a ``camps`` point line."""
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        line_rule = self.option("line")

        def points(p: Any) -> tuple[int, str, str] | None:
            return None if p.alhambra is None else score_camps(p.alhambra, line_rule)

        line = PointLine("camps", "camps", "Feldlager", S_SCORE, points, order=650)
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        """The camps left in the tower, each player's camps and their points now."""
        line_rule = self.option("line")
        players = built_pieces_view(
            state,
            Camp,
            "camps",
            lambda a: score_camps(a, line_rule) or (0, "", ""),
        )
        return self.shown(
            {
                "in the tower": str(tower_total(state, self)),
                "options": f"walls={self.option('walls')} line={line_rule}",
            },
            players,
        )

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like camps (so that simulated games use the module)."""
        from referee.record.model import Buy

        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and isinstance(a.tile, ComponentRef)
            and a.tile.kind.lower() == KIND
        ]
