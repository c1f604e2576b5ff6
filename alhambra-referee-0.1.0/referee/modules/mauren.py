"""Die Künste der Mauren (the arts of the Moors): a culture tile for two or more base buildings
of the same price, taken at the end of the turn; a stone marks how many there are; the action
"weiterentwickeln" turns every own tile one step until its stone faces the gem; every scoring
adds the value facing the gem.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE KÜNSTE DER MAUREN (L2196-2292).

Notation (names, texts, the reconstructed faces: ``mauren.yaml``; rulings:
``docs/modules/mauren.md``):

* nothing is written for taking a tile or moving a stone: the referee takes them at the end of
  the turn (L2212-2241) and at once after buildings got out of turn (L2258-2261);
* ``develop`` -- the action "Kulturplättchen weiterentwickeln" (L2244-2250);
* ``culture 8 3`` -- a statement (free, or on a line of its own before a scoring): the tile
  for price 8 shows 3 at the gem now (the faces are printed only);
* position blocks: ``culture 8 2 1`` (price, buildings marked, steps turned) and, when a value
  was stated for the section at the gem, that value as a fourth number (``culture 8 2 1 3``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import TileKind
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment, main_action_findings, start_main_action
from referee.engine.verbs import Arg, VerbSpec
from referee.geometry.grid import TICKS, register_place_updater
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    interrupting_player,
    module_data,
    run_verb,
    section,
)
from referee.record.model import NOWHERE, GenericArg, ModuleAction, Pos, Turn
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE KÜNSTE DER MAUREN"
S_SCORE = section(H, "Wertungsänderungen")
DEVELOP = "develop"
STATE = "culture"
DOING = Text("ACTION/developing-culture")


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("mauren")["components"]
    return data


@cache
def _tile_counts() -> dict[int, int]:
    return {int(k): int(v) for k, v in _data()["classes"].items()}


@cache
def _same_price() -> dict[int, int]:
    return {int(k): int(v) for k, v in _data()["same_price"].items()}


def tile_counts() -> dict[int, int]:
    """How many culture tiles each price class has (unverified data): class -> count."""
    return dict(_tile_counts())


def price_class(price: int) -> int:
    """The class a building price belongs to ("12" and "13" are one price, L2268-2269)."""
    return _same_price().get(price, price)


def face(cls: int) -> list[tuple[int, int]]:
    """The sections of a tile of class ``cls`` in the order they come to the gem: (points,
    squares); the reconstruction of ``mauren.yaml`` (unverified)."""
    return list(_face(cls))


@cache
def _face(cls: int) -> tuple[tuple[int, int], ...]:
    faces = _data()["faces"]
    raw = faces.get(cls, faces.get(str(cls), faces["default"]))
    return tuple((int(a), int(b)) for a, b in raw)


def max_squares(cls: int) -> int:
    return max(sq for _pts, sq in face(cls))


@cache
def mark_index(cls: int, marked: int) -> int:
    """The section the stone lies on for ``marked`` buildings: the one showing that many
    squares, the highest if several (L2231-2235); at most the tile's maximum (L2263-2266)."""
    sections = _face(cls)
    n = min(marked, max_squares(cls))
    same = [i for i, (_p, sq) in enumerate(sections) if sq == n]
    if same:
        return max(same)
    below = [i for i, (_p, sq) in enumerate(sections) if sq <= n]
    return max(below) if below else 0


@dataclass
class CultureTile:
    """One culture tile before a player: the buildings its stone marks, the steps turned."""

    marked: int
    turned: int = 0


@dataclass
class CultureScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    held: dict[str, dict[int, CultureTile]] = field(default_factory=dict)
    # (class, section) -> (value stated, where): the faces as the record states them
    stated: dict[tuple[int, int], tuple[int, str]] = field(default_factory=dict)
    # per player, his holdings' change notice when his tiles were last brought up to date
    # (:meth:`Mauren._sync`): ``(player.reserve_version, player.alhambra.version)``, the engine's
    # notice (docs/modules/extension-points.md, "Whose holdings changed"). While the player's
    # notice is the one noted, his Alhambra and reserve are as they were, so his count is the
    # same, and so is what bringing his tiles up to date would write (the stack only shrinks);
    # emptied when a position line sets a tile. A cache: not shown, not compared
    synced: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False, compare=False)
    # ``TICKS.n`` (geometry.grid) when every player was last found brought up to date: while
    # it stands, no holdings changed anywhere since, so nobody needs it (-1: not known). A
    # cache: not shown, not compared
    seen: int = field(default=-1, repr=False, compare=False)


def base_buildings(player: PlayerState, typed: bool = False) -> Counter[int]:
    """The player's base buildings per price class, Alhambra and reserve (L2212-2215): only
    the base game's buildings count (L2253); a building site counts once it is completed (it
    is then the base tile again, Baustellen L2578-2579). ``typed`` (switch buildings=typed):
    every piece of a building type with a price counts (a magic building too), a site still
    not (its ``type`` is None until completed)."""
    return Counter(_counts(player, typed))


def _class_of(piece: object, typed: bool) -> int | None:
    """The price class a piece counts for in :func:`base_buildings` (None: it does not)."""
    if isinstance(piece, TileKind) and piece.type is not None:
        cost = piece.price  # (price_class(piece.price), inline: a call fewer per building)
        return _same_price().get(cost, cost)
    if typed and getattr(piece, "type", None) is not None:
        price = getattr(piece, "price", None)
        if isinstance(price, int):
            return price_class(price)
    return None


def _count(pieces: Iterable[object], typed: bool) -> dict[int, int]:
    out: dict[int, int] = {}
    same = _same_price()
    for piece in pieces:
        # (_class_of, its catalogue tile case inline: no call for a base building)
        if type(piece) is TileKind and piece.type is not None:
            cost = piece.price
            cls: int | None = same.get(cost, cost)
        else:
            cls = _class_of(piece, typed)
        if cls is not None:
            out[cls] = out.get(cls, 0) + 1
    return out


# The Alhambra's part of the count is kept among its derived facts: copied with it, dropped by
# a removal or a layered change, brought up to date by a placement (the updaters below); the
# kept table is never changed in place (copies of an Alhambra share it).
_KEYS = {False: "mauren.base_buildings", True: "mauren.base_buildings.typed"}


def _counts(player: PlayerState, typed: bool) -> dict[int, int]:
    """:func:`base_buildings` as a plain table (read it, do not change it)."""
    alhambra = player.alhambra
    derived = alhambra.derived
    key = _KEYS[typed]
    kept: dict[int, int] | None = derived.get(key)  # type: ignore[assignment]
    if kept is None:
        kept = derived[key] = _count(alhambra.cells.values(), typed)
    if not player.reserve:
        return kept
    out = dict(kept)
    same = _same_price()
    for piece in player.reserve:
        # (_class_of, its catalogue tile case inline: no call for a base building)
        if type(piece) is TileKind and piece.type is not None:
            cost = piece.price
            cls: int | None = same.get(cost, cost)
        else:
            cls = _class_of(piece, typed)
        if cls is not None:
            out[cls] = out.get(cls, 0) + 1
    return out


def _updater(typed: bool) -> Callable[[Any, object, Any, object], object | None]:
    def placed(_alhambra: Any, old: object, _coord: Any, piece: object) -> object | None:
        # (_class_of, its catalogue tile case inline: no call for a base building)
        if type(piece) is TileKind and piece.type is not None:
            cost = piece.price
            cls: int | None = _same_price().get(cost, cost)
        else:
            cls = _class_of(piece, typed)
        if cls is None or not isinstance(old, dict):
            return old
        new = dict(old)
        new[cls] = new.get(cls, 0) + 1
        return new

    return placed


for _typed, _key in _KEYS.items():
    register_place_updater(_key, _updater(_typed))


_TURN_END = Moment.TURN_END
_INTERRUPT_END = Moment.INTERRUPT_END


def _num(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@bundled
class Mauren(BundledModule):
    """Culture tiles for buildings of the same price; the action turns them; each scoring pays
    the value facing the gem."""

    verb_specs = (
        VerbSpec(DEVELOP, aliases=("weiterentwickeln",)),
        VerbSpec(STATE, kind="free", args=(Arg.INT, Arg.INT)),
    )
    scratch_type = CultureScratch
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        DEVELOP: ("develops the culture tiles", "entwickelt die Kulturplättchen weiter"),
        STATE: ("states a culture tile's value", "nennt den Wert eines Kulturplättchens"),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.held = {p.name: {} for p in state.players}

    def held(self, state: GameState, player: PlayerState) -> dict[int, CultureTile]:
        """The player's culture tiles by price class (Dirk is no player: he gets none, L2278)."""
        return self.data(state).held.setdefault(player.name, {})

    def _left(self, state: GameState, cls: int) -> int | None:
        """Tiles of ``cls`` left in the stack (None: no limit, switch supply=open)."""
        if self.option("supply") == "open":
            return None
        taken = 0  # (a loop, not sum() over a generator: no call a player)
        for tiles in self.data(state).held.values():
            if cls in tiles:
                taken += 1
        return _tile_counts().get(cls, 0) - taken

    # ------------------------------------------------------------------ taking, marking

    def _sync(self, state: GameState, player: PlayerState) -> None:
        """Take the tiles due and move the stones (L2212-2241): a tile for each price of which
        the player owns two or more base buildings and holds none yet ("falls er noch kein
        solches besitzt"), while the stack has one; every stone marks the count now."""
        # (self.option("buildings"), inline: its answer without the call)
        typed = self.settings.get("buildings", self.options["buildings"][0]) == "typed"
        counts = _counts(player, typed)
        data: CultureScratch | None = state.modules.get(self.name)  # (the kit's data, inline)
        if data is None:
            data = self.data(state)
        data.synced[player.name] = (player.reserve_version, player.alhambra.version)  # (the notice)
        held = data.held.setdefault(player.name, {})
        classes = _tile_counts()
        for cls in sorted(counts):
            n = counts[cls]
            if cls in held:
                held[cls].marked = n
            elif n >= 2 and cls in classes:
                left = self._left(state, cls)
                if left is None or left > 0:
                    held[cls] = CultureTile(n)
        for cls, tile in held.items():
            if cls not in counts:
                tile.marked = 0

    idle_moments = frozenset({Moment.TURN_END})  # (where idle_at may say yes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Whether :meth:`at_moment` would change nothing: at a turn's end, when no player's
        holdings changed since his tiles were last brought up to date (each player's change
        notice is the one :meth:`_sync` noted; the engine's notice, docs/modules/
        extension-points.md, "Whose holdings changed"), or outside a turn. The module's part
        must exist."""
        if moment is not _TURN_END:
            return False
        data: CultureScratch | None = state.modules.get(self.name)
        if data is None:
            return False
        t = state.turn
        if t is None or data.seen == TICKS.n:  # (no holdings changed anywhere since)
            return True
        synced = data.synced
        players = state.players
        p = players[t.player]  # (the mover first: the one most often changed)
        if synced.get(p.name) != (p.reserve_version, p.alhambra.version):
            return False
        for p in players:
            if synced.get(p.name) != (p.reserve_version, p.alhambra.version):
                return False
        data.seen = TICKS.n  # (a note: everybody up to date at this number)
        return True

    @acts_at(Moment.TURN_END, Moment.INTERRUPT_END, Moment.LEFTOVERS_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """The end of a turn: the mover's tiles (L2212, L2238-2241), then in seat order those of
        anybody who got buildings inside the turn from another module (out of his turn: "at
        once", L2258-2261); the end of an out-of-turn action (vizier, sultan): its player's
        (L2258-2261); the leftover buildings handed out: everybody's. (Not registered for
        the setup's end: the kit's step, which makes the part there, is not asked.)"""
        state = ctx.state
        t = state.turn
        if moment is _INTERRUPT_END and t is not None:
            self._sync(state, state.players[t.player])
        elif moment is _TURN_END and t is not None:
            # in seat order from the mover; a player whose holdings' notice is the one noted
            # when his tiles were last brought up to date is left out: his count is the same,
            # each stone marks it already, and a tile not taken then is not taken now (none of
            # its price was left, and the stack only shrinks)
            data: CultureScratch | None = state.modules.get(self.name)  # (the kit's data)
            if data is None:
                data = self.data(state)
            synced = data.synced
            players = state.players
            first = t.player
            for p in players[first:] + players[:first]:
                if synced.get(p.name) != (p.reserve_version, p.alhambra.version):
                    self._sync(state, p)
            data.seen = TICKS.n  # (everybody up to date at this number)
        elif moment == Moment.LEFTOVERS_DONE:
            for p in state.players:
                self._sync(state, p)

    # ------------------------------------------------------------------ the action

    def _turnable(self, state: GameState, player: PlayerState) -> list[int]:
        """The classes whose tile the action turns: the stone not yet at the gem."""
        return [
            cls
            for cls, tile in sorted(self.held(state, player).items())
            if tile.turned < mark_index(cls, tile.marked)
        ]

    def _tiles_text(self, state: GameState, player: PlayerState) -> str:
        return ", ".join(
            f"{cls}: {t.marked}@{t.turned}" for cls, t in sorted(self.held(state, player).items())
        )

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        if action.verb.lower() == STATE:
            return self._statement_findings(ctx.state, player, action)
        state = ctx.state
        pos = action.pos
        out = main_action_findings(state, pos, player, DOING)
        if not self.held(state, player):
            out.append(problem("MAUREN-DEVELOP", pos, player.name, reason="none"))
        elif not self._turnable(state, player):
            tiles = self._tiles_text(state, player)
            out.append(problem("MAUREN-DEVELOP", pos, player.name, reason="stuck", tiles=tiles))
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        if action.verb.lower() == STATE:
            self._state(state, player, action)
            return []
        start_main_action(state)
        held = self.held(state, player)
        for cls in self._turnable(state, player):
            held[cls].turned += 1
        return []

    # ------------------------------------------------------------------ stated faces

    def _args(self, action: ModuleAction) -> tuple[int | None, int | None]:
        if len(action.args) != 2:
            return None, None
        return _num(action.args[0].value), _num(action.args[1].value)

    def _statement_findings(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        """ "Die Zahl auf dem Kulturplättchen, die nach oben (in Richtung Edelstein) zeigt"
        (L2272-2275): the value stated for the tile's section at the gem, checked against the
        tile held, earlier statements of the same section and (faces=data) the data."""
        price, value = self._args(action)
        if price is None or value is None:
            return []  # VERB-ARGS
        pos, who = action.pos, player.name
        cls = price_class(price)
        tile = self.held(state, player).get(cls)
        if tile is None:
            held = " ".join(str(c) for c in sorted(self.held(state, player))) or Text("WORD/none")
            return [problem("MAUREN-NOT-HELD", pos, who, price=price, held=held)]
        return self._face_findings(state, who, cls, tile.turned, value, pos)

    def _face_findings(
        self, state: GameState, who: str, cls: int, at: int, value: int, pos: Pos
    ) -> list[Finding]:
        common: dict[str, Any] = {"price": cls, "value": value, "section": at}
        if at == 0 and value != 0:
            return [problem("MAUREN-FACE", pos, who, reason="zero", **common)]
        known = self.data(state).stated.get((cls, at))
        if known is not None and known[0] != value:
            where = known[1]
            return [
                problem(
                    "MAUREN-FACE", pos, who, reason="stated", known=known[0], where=where, **common
                )
            ]
        data_value = _face(cls)[at][0]
        if self.option("faces") == "data" and data_value != value:
            return [problem("MAUREN-FACE", pos, who, reason="data", known=data_value, **common)]
        return []

    def _state(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        price, value = self._args(action)
        if price is None or value is None:
            return
        cls = price_class(price)
        tile = self.held(state, player).get(cls)
        if tile is not None:
            where = f"{player.name}, L{action.pos.line}" if action.pos != NOWHERE else player.name
            self.data(state).stated.setdefault((cls, tile.turned), (value, where))

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        """``Ben: culture 8 3`` on a line of its own (before a scoring): a statement."""
        acts = turn.actions
        if not acts or not all(
            isinstance(a, ModuleAction) and a.verb.lower() == STATE for a in acts
        ):
            return None
        player = interrupting_player(state, turn)
        if player is None:
            return []
        for a in acts:
            assert isinstance(a, ModuleAction)
            run_verb(self, state, player, a)
        return []

    # ------------------------------------------------------------------ scoring

    def shows(self, state: GameState, cls: int, tile: CultureTile) -> tuple[int, bool]:
        """The value facing the gem and whether the record stated it (else the data)."""
        known = self.data(state).stated.get((cls, tile.turned))
        if known is not None:
            return known[0], True
        return _face(cls)[tile.turned][0], False

    def points(self, state: GameState, player: PlayerState) -> int:
        return sum(self.shows(state, c, t)[0] for c, t in self.held(state, player).items())

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Bei jeder Wertung erhält ein Spieler zusätzliche Siegpunkte für seine
        Kulturplättchen" (L2272-2275): a ``culture`` point line for each player holding one."""
        by_name = {p.name: p for p in state.players}

        def points(p: Any) -> tuple[int, str, str] | None:
            player = by_name.get(p.name)
            if player is None:
                return None
            data = self.data(state)
            held = data.held.setdefault(player.name, {})  # (self.held, inline)
            if not held:
                return None
            # each tile's value at the gem once (self.shows, inline); the sum is self.points
            stated = data.stated
            total = 0
            parts: list[str] = []
            for c, t in sorted(held.items()):
                known = stated.get((c, t.turned))
                value = known[0] if known is not None else _face(c)[t.turned][0]
                total += value
                parts.append(f"{c}: {value}")
            detail = ", ".join(parts)
            return total, detail, detail

        line = PointLine("culture", "culture tiles", "Kulturplättchen", S_SCORE, points, order=655)
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``culture 8 2 1`` (``culture 8 2 1 3``) in a player's section: the tile for price 8,
        its stone on 2 buildings, turned 1 step (showing 3, stated)."""
        if player is None or line.verb.lower() != STATE:
            return False
        pos, who = line.pos, player.name
        nums = [_num(a.value) for a in line.args]
        if len(nums) not in (3, 4) or any(n is None for n in nums):
            state.flag("MAUREN-TOKEN", pos, who, reason="form", token=STATE)
            return True
        price, marked, turned = int(nums[0] or 0), int(nums[1] or 0), int(nums[2] or 0)
        cls = price_class(price)
        token = f"{STATE} {price}"
        held = self.held(state, player)
        prices = ", ".join(str(c) for c in sorted(tile_counts()))
        if cls not in tile_counts():
            state.flag("MAUREN-TOKEN", pos, who, reason="price", token=token, prices=prices)
            return True
        if cls in held:
            state.flag("MAUREN-TOKEN", pos, who, reason="twice", token=token)
            return True
        # a stone on fewer than two buildings is no error, nor a tile turned past its stone: a
        # tile once taken stays, and the stone follows the count when a building leaves the
        # player (bought from his personal market, swapped away by the Tänzerin) after the tile
        # was turned, so play reaches such a tile; a tile cannot turn past its last section
        steps = len(face(cls)) - 1
        if turned > steps:
            state.flag(
                "MAUREN-TOKEN", pos, who, reason="steps", token=token, turned=turned, steps=steps
            )
        left = self._left(state, cls)
        if left is not None and left <= 0:
            where = ", ".join(n for n, tiles in self.data(state).held.items() if cls in tiles)
            state.flag("MAUREN-SUPPLY", pos, who, price=cls, count=tile_counts()[cls], where=where)
        turned = min(turned, len(face(cls)) - 1)
        held[cls] = CultureTile(marked, turned)
        data = self.data(state)
        data.synced.clear()  # (a stone set as stated: the next sync moves it)
        data.seen = -1
        if len(nums) == 4:
            value = int(nums[3] or 0)
            if state.checking:
                report(state, self._face_findings(state, who, cls, turned, value, pos))
            self.data(state).stated.setdefault((cls, turned), (value, f"{who}, L{pos.line}"))
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        if player is None:
            return []
        out: list[ModuleAction] = []
        for cls, tile in sorted(self.held(state, player).items()):
            nums = [cls, tile.marked, tile.turned]
            value, stated = self.shows(state, cls, tile)
            if stated:
                nums.append(value)
            out.append(ModuleAction(STATE, tuple(GenericArg(n) for n in nums)))
        return out

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        """The tiles left per price, each player's tiles (stone, steps, value at the gem) and
        culture points now."""
        if self.option("supply") == "open":
            left = "-"
        else:
            left = " ".join(f"{c}:{self._left(state, c)}" for c in sorted(tile_counts()))
        players: dict[str, dict[str, object]] = {}
        for p in state.players:
            tiles = sorted(self.held(state, p).items())
            if not tiles:
                continue
            players[p.name] = {
                "culture tiles": {
                    lang: "; ".join(self._tile_words(state, c, t, lang) for c, t in tiles)
                    for lang in ("en", "de")
                },
                "culture points now": str(self.points(state, p)),
            }
        options = " ".join(f"{k}={self.option(k)}" for k in ("faces", "supply", "buildings"))
        return self.shown({"left per price": left, "options": options}, players)

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """The tiles on the player's docking strips (not in his Alhambra): a line each under
        his name (terminal) or his Alhambra (SVG), e.g. ``culture tile 7: 3 at the gem (stone
        on 3, turned 1)``."""
        tiles = sorted(self.held(state, player).items())
        if not tiles:
            return []
        out: list[tuple[str, str]] = []
        for cls, tile in tiles:
            value = self.shows(state, cls, tile)[0]
            name = "12/13" if cls == 12 else str(cls)
            out.append(
                (
                    f"culture tile {name}: {value} at the gem "
                    f"(stone on {tile.marked}, turned {tile.turned})",
                    f"Kulturplättchen {name}: {value} am Edelstein "
                    f"(Stein auf {tile.marked}, {tile.turned} gedreht)",
                )
            )
        return out

    def _tile_words(self, state: GameState, cls: int, tile: CultureTile, lang: str) -> str:
        value, stated = self.shows(state, cls, tile)
        name = "12/13" if cls == 12 else str(cls)
        if lang == "de":
            how = "genannt" if stated else "Daten"
            return (
                f"{name}: Stein auf {tile.marked} Gebäuden, {tile.turned} Stufe(n) gedreht, "
                f"{value} am Edelstein ({how})"
            )
        how = "stated" if stated else "data"
        return (
            f"{name}: stone on {tile.marked} buildings, turned {tile.turned} step(s), "
            f"{value} at the gem ({how})"
        )

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The action when it turns a tile and a main action may follow now."""
        state = ctx.state
        t = state.turn
        if t is not None and t.interrupt is not None:
            return []
        if not self._turnable(state, player):
            return []
        if main_action_findings(state, NOWHERE, player, DOING):
            return []
        return [ModuleAction(DEVELOP, ())]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players develop now and then (so that simulated games use the module)."""
        if sim.rng.random() >= 0.5:
            return []
        return [a for a in actions if isinstance(a, ModuleAction) and a.verb == DEVELOP]
