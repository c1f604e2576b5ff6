"""Die Bazare: eight bazaars in the tower, laid beside the market, bought for the price on their
currency's field (exact payment only), scored in the last scoring only.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE BAZARE.

Notation: a bazaar is the component token ``bz:`` + its coin's currency + the three colours
(building type codes) + its walls in lower case (``n e s w``; none written: no wall):
``bz:DuPSA`` is the Dukaten bazaar showing blue, red and brown.

* ``* aside bz:DuPSA, market Gu:T9ne`` -- "Wird beim Auffüllen des Bauhofs ein Bazar gezogen,
  wird er offen neben den Bauhof gelegt. Es werden solange weitere Gebäudeplättchen gezogen,
  bis wieder 4 Gebäude auf dem Bauhof liegen" (E14 of the engine).
* ``buy bz:DuPSA pay Du7`` -- "Der Preis entspricht dem des Gebäudeplättchens, welches auf dem
  Bauhof bei der entsprechenden Währung liegt. Ein Bazar darf nur passend bezahlt werden. Der
  Spieler ist nochmal an der Reihe." (a side offer, E15).
* ``place bz:DuPSA@1,0``, ``reserve``, ``build``, ``remove``, ``swap`` -- "Bazare werden
  genauso platziert oder umgebaut wie die Gebäude aus dem Basisspiel".
* ``scoring 3: Anna +52 (T=13, bazaar=12)`` -- the bazaar line may be claimed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import repeat

from referee.catalogue import SIDES, BuildingType, Currency, Side
from referee.engine.market_side import SideOffer
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.geometry.queries import is_building, neighbours8
from referee.modules.base import (
    TYPE_LETTER,
    BundledModule,
    ModulePiece,
    Scratch,
    built_in,
    built_pieces_view,
    bundled,
    module_data,
    pieces_in_order,
    section,
)
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import ComponentRef, Pos
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE BAZARE"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "bz"
_CODE = {c: c.code for c in Currency}  # (``Currency.code`` is a property: a call each read)
TOKEN = re.compile(r"^([A-Za-z]{2})([PSACGT]{3})([nesw]*|x)$")


@lru_cache(maxsize=256)  # a pure function of the token, asked for the same few again and again
def parse_bazaar(
    name: str,
) -> tuple[Currency, tuple[BuildingType, ...], frozenset[Side] | None] | str | None:
    """``DuPSAn`` -> (Du, (P, S, A), {N}); walls None when none are written. A string: the
    reason it is no bazaar (``form``, ``colours``). Kept per spelling (the result is
    immutable: enum members, a tuple, a frozenset)."""
    m = TOKEN.match(name)
    if m is None:
        return "form"
    cur = Currency.of_code(m.group(1))
    if cur is None:
        return "form"
    types = tuple(BuildingType(ch) for ch in m.group(2))
    if len(set(types)) != 3:
        return "colours"
    rest = m.group(3)
    if rest == "":
        return cur, types, None
    walls = read_walls(rest, letters="nesw")
    return "form" if walls is None else (cur, types, walls)


@lru_cache(maxsize=256)  # per spelling, as parse_bazaar: the same few tokens again and again
def _face(
    name: str,
) -> tuple[Currency, tuple[BuildingType, ...], frozenset[Side] | None, str, Bazaar] | str | None:
    """:func:`parse_bazaar`'s answer with the bazaar's key among the faces stated (its
    currency's code and its colours' letters sorted: ``DuAPS``) and the bazaar with the walls
    the spelling states (none written: none), worked out once per spelling (the piece is
    immutable: one object serves every game; a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``)."""
    got = parse_bazaar(name)
    if got is None or isinstance(got, str):
        return got
    cur, colours, walls = got
    key = cur.code + "".join(sorted([TYPE_LETTER[t] for t in colours]))
    return cur, colours, walls, key, Bazaar(cur, colours, walls or frozenset())


@cache  # asked at every draw from the tower (engine/tower.py): worked out once
def _tower_counts() -> dict[str, int]:
    n = int(module_data("bazare")["components"]["bazaars"]["per_currency"])
    return {c.code: n for c in Currency}


@dataclass(frozen=True, slots=True)
class Bazaar(ModulePiece):
    """A bazaar: a tile of no building type (the majorities skip it) that is placed and
    redesigned like a building ("unterliegen den gleichen Regeln")."""

    currency: Currency
    colours: tuple[BuildingType, ...]
    walls: frozenset[Side]

    KIND = KIND
    from_tower = True  # a tile of the tower (E5)
    rotation_rule = "BAZAAR-FACE"  # a token stating other walls (E6 check)
    # "Feldlager ... und Bazare können nicht als Baustellen eingerichtet werden" (L2563-2564)
    never_site = True
    cell_fill = "#e0a458"
    type = None  # no building type: a class attribute (read without a call)
    price = 0  # no printed price: the side offer derives it (E15)

    @property
    def name(self) -> str:
        return self.currency.code + "".join([TYPE_LETTER[t] for t in self.colours])

    @property
    def token_name(self) -> str:
        return f"{self.name}{walls_token(self.walls, none='')}"

    @property
    def cell_label(self) -> str:
        return f"Bz{self.currency.code}"

    def named_by(self, name: str) -> bool:
        """A token names this bazaar by its currency and colours (walls, if stated, are
        checked when it is built in: ``BAZAAR-FACE``)."""
        got = parse_bazaar(name)
        return (
            not isinstance(got, str)
            and got is not None
            and got[0] == self.currency
            and set(got[1]) == set(self.colours)
        )

    def stated_walls(self, ref: ComponentRef) -> frozenset[Side] | None:
        got = parse_bazaar(ref.name) if ref.kind.lower() == KIND else None
        if got is None or isinstance(got, str):
            return None
        return got[2] if got[2] is not None else frozenset()


def bazaar_points(alhambra: Any, at: Any, bazaar: Bazaar) -> tuple[int, int]:
    """(m, k): the buildings of the bazaar's colours among its eight neighbours ("Auch
    diagonal angrenzende Gebäude gelten als benachbart"; walls do not matter; squares and the
    fountain are no buildings), and how many of its colours are among them."""
    colours = set(bazaar.colours)
    m = 0
    present: set[BuildingType] = set()
    for c in neighbours8(at):
        piece = alhambra.get(c)
        if piece is None or not is_building(c, piece):
            continue
        if piece.type in colours:
            m += 1
            present.add(piece.type)
    return m, len(present)


def _top_down(item: tuple[Any, object]) -> tuple[int, int]:
    """The order bazaars are listed in: rows from the top, each from the left."""
    return (-item[0].y, item[0].x)


def score_bazaars(alhambra: Any) -> tuple[int, str, str]:
    """The bazaar line of one Alhambra: points, English and German detail."""
    parts: list[str] = []  # the same in English and German
    total = 0
    # the bazaars picked out first, only they sorted (no two cells share a place in the order)
    for at, piece in pieces_in_order(alhambra, Bazaar, _top_down):
        m, k = bazaar_points(alhambra, at, piece)
        total += m * k
        parts.append(f"{piece.code}@{at.x},{at.y}: {m} × {k} = {m * k}")
    return total, "; ".join(parts), "; ".join(parts)


@dataclass
class BazaarScratch(Scratch):
    # the bazaars lying beside the market, in the order they were set aside
    """The module's own part of the game state (``state.modules``), copied with the state."""

    beside: list[Bazaar] = field(default_factory=list)
    # the walls stated for each bazaar (by currency + colours)
    faces: dict[str, frozenset[Side]] = field(default_factory=dict)


@bundled
class BazareModule(BundledModule):
    """Eight bazaars beside the market, bought at the price on their currency's field."""

    component_kinds = (KIND,)
    scratch_type = BazaarScratch
    plain_side_offers = True  # a bazaar bought at its field's price, exactly; no refinement
    # market_draw acts on a bazaar only (any other piece: None, nothing changed), so the
    # engine asks it about no other draw in play (Module.draw_types)
    draw_types = (Bazaar,)

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die Bazare kommen zusammen mit den Gebäudeplättchen in den Plättchenturm": two
        per currency (unverified reading, see the YAML)."""
        # a dict of its own each call (Module.tower_components' contract: a caller may change
        # it), copied from the kept table: four entries
        return _tower_counts().copy()

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        got = self._parse(state, ref, pos, None)
        if got is None:
            return None
        return _CODE[got.currency], got

    def _parse(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> Bazaar | None:
        got = _face(ref.name) if ref.kind.lower() == KIND else "form"
        if got is None or isinstance(got, str):
            token = f"{ref.kind}:{ref.name}"
            if got == "colours":
                state.flag("BAZAAR-TOKEN", pos, who, reason="colours", token=token)
            else:
                state.flag("BAZAAR-TOKEN", pos, who, reason="form", token=token)
            return None
        cur, colours, _walls, key, piece = got
        faces = (state.modules.get(self.name) or self.data(state)).faces
        known = faces.get(key)
        stated = piece.walls  # (the walls written; none written: none)
        if known is not None and known != stated:
            state.flag(
                "BAZAAR-FACE",
                pos,
                who,
                tile=f"{ref.kind}:{ref.name}",
                stated=walls_token(stated, none="-"),
                allowed=walls_token(known, none="-"),
            )
            faces[key] = known
            return Bazaar(cur, colours, known)
        faces[key] = stated
        return piece

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A bazaar in a position's reserve or Alhambra."""
        if where not in ("reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        got = self._parse(state, ref, ref.pos, who)
        if got is None:
            return True, None
        take_from_tower(state, self, got.currency.code, f"{ref.kind}:{ref.name}", ref.pos, who)
        return True, got

    # ------------------------------------------------- beside the market (E14, E15)

    def market_draw(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        """ "Wird beim Auffüllen des Bauhofs ein Bazar gezogen, wird er offen neben den Bauhof
        gelegt." -- "Es können beliebig viele Bazare neben dem Bauhof im Angebot liegen." """
        if not isinstance(piece, Bazaar):
            return None
        self.data(state).beside.append(piece)
        return "BAZAAR-ASIDE"

    def side_offers(self, state: GameState) -> list[Any]:
        """Each bazaar beside the market: its coin's currency; "Der Preis entspricht dem des
        Gebäudeplättchens, welches auf dem Bauhof bei der entsprechenden Währung liegt" (None
        while that field is empty or unknown); "Ein Bazar darf nur passend bezahlt werden"."""
        out = []
        for b in self.data(state).beside:
            slot = state.market[b.currency.field - 1]
            price = getattr(slot, "price", None) if slot is not EMPTY and slot is not None else None
            if isinstance(slot, Bazaar):  # pragma: no cover - bazaars never lie on a field
                price = None
            out.append(SideOffer(b, self, b.currency, price, True, "BAZAAR-PRICE"))
        return out

    def take_side_offer(self, state: GameState, piece: object) -> None:
        beside = self.data(state).beside
        if piece in beside:
            beside.remove(piece)

    def sim_market_draw(self, sim: Any, field: int, ref: ComponentRef) -> bool:
        return ref.kind.lower() == KIND

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like bazaars (so that simulated games use the module)."""
        from referee.record.model import Buy

        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and isinstance(a.tile, ComponentRef)
            and a.tile.kind.lower() == KIND
        ]

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        """The eight bazaars with the faces of the YAML (invented; walls: none or one)."""
        out = []
        for face in module_data("bazare")["components"]["bazaars"]["sim_faces"]:
            walls = frozenset(sim.rng.sample(SIDES, sim.rng.choice((0, 1))))
            out.append(ComponentRef(KIND, f"{face}{walls_token(walls, none='')}"))
        return out

    # ------------------------------------------------------------------- scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Bazare erzielen nur in der letzten Wertung Siegpunkte": a ``bazaar`` point line
        at scoring 3 for every player with a bazaar."""
        if round_no != 3:
            return None

        if not built_in(state, Bazaar):  # no line for anyone: the scoring's base path stays
            return None

        def points(p: Any) -> tuple[int, str, str] | None:
            if p.alhambra is None:
                return None
            if not any(map(isinstance, p.alhambra.cells.values(), repeat(Bazaar))):  # in C
                return None
            return score_bazaars(p.alhambra)

        return ScoringParts(
            categories=(PointLine("bazaar", "bazaars", "Bazare", S_SCORE, points, order=610),)
        )

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """The bazaars beside the market with their price now, each player's bazaars with what
        they would score in the last scoring now."""
        offers = self.side_offers(state)
        beside = (
            " ".join(
                f"{o.piece.code} ({o.currency.code} {o.price if o.price is not None else '-'})"
                for o in offers
            )
            or "-"
        )
        players = built_pieces_view(
            state, Bazaar, "bazaars", score_bazaars, "points (last scoring)"
        )
        return self.shown(
            {"beside the market": beside, "in the tower": str(tower_total(state, self))}, players
        )
