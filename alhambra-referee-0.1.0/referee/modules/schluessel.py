"""Der Schlüssel zum Tor (key to the gate): buying an arcade gives a key tile; at the end of the
turn, once everything is built and refilled, it is laid into the gate tableau and every player,
from the active one on in seat order, may take the bonus in front of his colour's gate.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Michael Rieneck: Der Schlüssel zum Tor (heading
L3546-3547; text L3490-3545, L3549-3559, L3563-3603).

Notation:

* ``* key ky:5 rebuild money trade`` -- the key tile ky:5 is laid (after the turn's refill
  lines); the words name the bonus lying in front of each player's gate, in seat order from the
  player whose key it is (the key faces and the tableau are only in the picture: the record
  states them). Bonuses: ``trade`` (swap 2 market buildings), ``buy`` (one building for 14 in
  any mix), ``points1``, ``points2``, ``rebuild`` (a redesign or a move), ``wall``, ``money``,
  ``plaza``, ``half``.
* then one optional line per player, in that order: ``Ben: keybonus points2``,
  ``Ben: keybonus plaza pz:Tne, place pz:Tne@1,0`` (or ``, reserve pz:Tne``; a plaza is
  ``pz:`` + its colour + the sides with a wall, ``0`` for none),
  ``Cem: keybonus money Gu3``, ``Anna: keybonus trade 1 3`` (market fields 1-4),
  ``Anna: keybonus half T``, ``Ben: keybonus rebuild, remove T9es@1,0``,
  ``Cem: keybonus buy, buy Di A8e pay Gu5 De9, place A8e@0,1``;
* then the refill after the key tile (``* display ...``, ``* market ...``), the next key tile.
* positions: ``key laid 3 5`` / ``key due Ben 1`` outside the player sections;
  ``key held 1``, ``key points 2``, ``key halves T``, ``key wall @1,0 n`` in a player's section;
  a plaza lies in the Alhambra or the reserve like a tile (``alhambra ... pz:As@2,0``).
* drawings: what lies before a player (held key tiles, half buildings, points, wall pieces) in
  ``player_area``; the key tile in the gate tableau while its bonuses are taken in the view.

Rulings: ``docs/modules/schluessel.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from referee.catalogue import BuildingType, Currency, MoneyCard, Side
from referee.engine.context import Context
from referee.engine.findings import Finding, problem, report
from referee.engine.ruleset import Decision, refines
from referee.engine.stages import Stage, StageOrder, open_stage
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment, Phase, Settle, grant_redesign
from referee.engine.verbs import VerbSpec
from referee.modules.base import (
    BundledModule,
    ModulePiece,
    Scratch,
    acts_at,
    bundled,
    like_neighbours,
    module_data,
    section,
    token_text,
)
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import (
    NOWHERE,
    BuildFromReserve,
    Buy,
    CardRef,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Place,
    PlayerRef,
    RemoveToReserve,
    Reserve,
    TileRef,
    Turn,
)
from referee.scoring import CountAdjustment, ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "Michael Rieneck: Der Schlüssel zum Tor"
KEY = "key"  # the chance line: a key tile laid
BONUS = "keybonus"  # a player's bonus line
POSITION = KEY  # the position lines (``key laid 3 5``)
KIND = "ky"
PLAZA = "pz"  # a plaza tile: pz:Tne
S_FLOW = section(H, "Änderungen im Spielablauf")
S_BONUS = section(H, "Die einzelnen Boni")
SIM_BONUSES = ("trade", "buy", "points1", "points2", "money", "half", "rebuild", "wall", "plaza")
"""The bonuses the simulator lays (all nine of the tableau, L3573-3601)."""


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("schluessel")["components"]
    return data


@cache
def key_count() -> int:
    return int(_data()["keys"])


def wall_count() -> int:
    return int(_data()["walls"])


def read_side(value: object) -> Side | None:
    """One side of a tile (``n e s w``, ``o`` for Ost), else None."""
    if not isinstance(value, str) or len(value) != 1:
        return None
    sides = read_walls(value.lower())
    return next(iter(sides)) if sides else None


def plaza_colours() -> list[BuildingType]:
    """The colours of the 6 plaza tiles (picture-only, YAML not verified: one of each)."""
    return [BuildingType(str(t)) for t in _data()["plaza_colours"]]


@dataclass(frozen=True, slots=True)
class Plaza(ModulePiece):
    """A plaza tile of the key's bonus ("Sofort 1 Plaza-Plättchen einbauen oder in die Reserve
    legen", L3594-3595): read as a square of Die Plätze (a colour, walls, no building type of
    its own; ``docs/modules/schluessel.md`` ruling 14). ``type`` is None so that the base counts
    skip it; what it counts for is a scoring adjustment (module switch ``plaza``)."""

    colour: BuildingType
    walls: frozenset[Side]

    KIND = PLAZA

    @property
    def token_name(self) -> str:
        return f"{self.colour.code}{walls_token(self.walls, none='0')}"

    @property
    def cell_label(self) -> str:
        return f"pz{self.colour.code}"

    def named_by(self, name: str) -> bool:
        parsed = parse_plaza(name)
        return parsed is not None and parsed == (self.colour, self.walls)


def parse_plaza(name: str) -> tuple[BuildingType, frozenset[Side]] | None:
    """``Tne`` -> (tower, {N, E}); ``T0`` -> (tower, no wall); the face is always written (it is
    only in the picture); else None."""
    if len(name) < 2:
        return None
    try:
        colour = BuildingType(name[0].upper())
    except ValueError:
        return None
    walls = read_walls(name[1:].lower(), none=("0", "x"))
    return None if walls is None else (colour, walls)


def read_plaza(value: object) -> Plaza | None:
    """The plaza a ``pz:`` token names, else None."""
    if isinstance(value, ComponentRef) and value.kind.lower() == PLAZA:
        parsed = parse_plaza(value.name)
        if parsed is not None:
            return Plaza(*parsed)
    return None


def half_types() -> list[str]:
    return [str(t) for t in _data()["half_types"]]


def bonus_names() -> tuple[str, ...]:
    return tuple(_data()["bonuses"])


def bonus_word(value: object) -> str | None:
    """The bonus a word names (English or German), else None."""
    if not isinstance(value, str):
        return None
    w = value.lower()
    bonuses, aliases = _bonus_tables()
    if w in bonuses:
        return w
    alias = aliases.get(w)
    return str(alias) if alias else None


@cache
def _bonus_tables() -> tuple[Any, Any]:
    """The bundled bonus names and their aliases (read once: the data do not change)."""
    data = _data()
    return data["bonuses"], data["bonus_aliases"]


def key_number(value: object) -> int | None:
    """``ky:5`` -> 5 (1-9), else None."""
    if isinstance(value, ComponentRef) and value.kind.lower() == KIND and value.name.isdigit():
        n = int(value.name)
        return n if 1 <= n <= key_count() else None
    return None


def _where(at: object) -> str:
    """A wall piece's place: ``@1,0`` on a built tile, the tile's token in the reserve."""
    return f"@{at}" if isinstance(at, Coord) else str(at)


def _same_tile(a: object, b: object) -> bool:
    """Two tile references name the same tile (the move: removed, then built elsewhere)."""
    if a is None or b is None:
        return False
    if isinstance(a, ComponentRef) or isinstance(b, ComponentRef):  # a module piece (a plaza)
        return (
            isinstance(a, ComponentRef)
            and isinstance(b, ComponentRef)
            and a.kind.lower() == b.kind.lower()
            and a.name[:1].upper() == b.name[:1].upper()
        )
    return (getattr(a, "type", None), getattr(a, "price", None)) == (
        getattr(b, "type", None),
        getattr(b, "price", None),
    )


def _keep_idle(data: KeyScratch) -> None:
    """Keep :meth:`Schluessel.idle_at`'s answers in the part (``idle_start``, ``idle_end``),
    from what they read: at a turn's start no key tile due (``due <= 0``); at a turn's end no
    key tile due, no ``due_player`` and no player holding a key tile (then none is held by the
    turn's player either: the step would pop nothing). Otherwise not known (None): the engine
    asks ``idle_at``, which looks at the turn's player."""
    data.idle_start = True if data.due <= 0 else None
    data.idle_end = True if data.due == 0 and data.due_player is None and not data.held else None


@dataclass
class KeyStage:
    """The key tile being resolved: its number and the bonus in front of each seat's gate."""

    tile: int
    bonuses: dict[int, str | None]
    owner: int

    def copy(self) -> KeyStage:
        return KeyStage(self.tile, dict(self.bonuses), self.owner)


@dataclass
class KeyScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    laid: list[int] = field(default_factory=list)  # key tiles laid (out of the game)
    held: dict[str, int] = field(default_factory=dict)  # face down in front of a player
    due: int = 0  # key tiles to lay now (after the turn of ``due_player``)
    due_player: int | None = None
    points: dict[str, int] = field(default_factory=dict)  # bonus points not scored yet
    halves: dict[str, list[str]] = field(default_factory=dict)  # half buildings taken
    buying: bool = False  # a "buy for 14" bonus is under way
    plazas: list[Plaza] = field(default_factory=list)  # plaza tiles taken (out of the supply)
    # wall pieces built: the tile they were built on (it carries them when moved) and the side
    walls: dict[str, list[tuple[Any, Side]]] = field(default_factory=dict)
    # the idle answers the engine reads first (Module.kept_idle), kept by :func:`_keep_idle`
    # wherever ``due``, ``due_player`` or ``held`` change: True, idle; None, not known (the
    # engine asks ``idle_at``). A fresh part (nothing due, nothing held) is idle at both
    idle_start: bool | None = field(default=True, repr=False, compare=False)
    idle_end: bool | None = field(default=True, repr=False, compare=False)

    def walls_used(self) -> int:
        return sum(len(v) for v in self.walls.values())

    def taken_keys(self) -> int:
        return len(self.laid) + sum(self.held.values()) + self.due

    def plazas_left(self) -> list[BuildingType]:
        left = plaza_colours()
        for p in self.plazas:
            if p.colour in left:
                left.remove(p.colour)
        return left

    def halves_left(self) -> list[str]:
        left = list(half_types())
        for got in self.halves.values():
            for t in got:
                if t in left:
                    left.remove(t)
        return left


@bundled
class Schluessel(BundledModule):
    """The key tiles, the gate tableau's bonuses, the half buildings and the bonus points."""

    verb_specs = (VerbSpec(BONUS, kind="interrupt", aliases=("schluesselbonus", "torbonus")),)
    chance_verbs = (KEY, "schluessel")
    component_kinds = (KIND, PLAZA)
    scratch_type = KeyScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {
        KIND: ("key tile", "Schlüssel-Plättchen"),
        PLAZA: ("plaza", "Plaza-Plättchen"),
    }
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        BONUS: ("takes the bonus of his gate", "nimmt den Bonus seines Tores"),
        KEY: ("lays a key tile into the gate tableau", "legt ein Schlüssel-Plättchen ins Tor"),
        "schluessel": (
            "lays a key tile into the gate tableau",
            "legt ein Schlüssel-Plättchen ins Tor",
        ),
    }

    # ------------------------------------------------------------------ getting a key tile

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Kauft ein Spieler eine Arkade (braun), legt er das oberste Plättchen des
        Schlüssel-Plättchen-Stapels verdeckt vor sich hin" (L3514-3516); an arcade bought out of
        turn (the vizier, the bonus "für 14") is resolved at the end of the next own turn
        (L3496-3498, L3577-3581). No tile is left: nothing more."""
        tile = purchase.tile
        if getattr(tile, "type", None) is not BuildingType.ARCADES:
            return
        data = self.data(ctx.state)
        if data.taken_keys() >= key_count():
            return
        name = purchase.player.name
        data.held[name] = data.held.get(name, 0) + 1
        data.idle_end = None  # (a key held: the turn's end may have work)

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        """Yes unless the bonus "1 Gebäude für 14 kaufen" is under way: its refinements of
        ``pay.price`` and ``pay.currencies`` return what they get then (:meth:`_buying`), and
        :meth:`after_plain_purchase` gives the key tile an arcade earns as :meth:`on_purchase`
        does."""
        t = state.turn  # (not _buying: its tests, the interrupt's first)
        return t is None or t.interrupt != self.name or not self.data(state).buying

    # (after_plain_purchase acts on arcades only: the engine tells it of no other one-pass
    # purchase from a market field)
    plain_purchase_types = frozenset({BuildingType.ARCADES})

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass."""
        if getattr(buy.tile, "type", None) is not BuildingType.ARCADES:
            return
        data = self.data(state)
        if data.taken_keys() >= key_count():
            return
        name = buy.player.name
        data.held[name] = data.held.get(name, 0) + 1
        data.idle_end = None  # (a key held: the turn's end may have work)

    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (KeyScratch.idle_start, idle_end: :func:`_keep_idle`)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Nothing to do at a turn's start while no key tile is due (:meth:`at_moment`), nor at
        the end of a turn whose player holds no key tile while none is due: the step would
        change nothing. The module's part must exist (its step would make it)."""
        data = state.modules.get(self.name)
        if data is None:
            return False
        t = state.turn
        if moment == Moment.TURN_START:
            return t is None or data.due <= 0
        if moment == Moment.TURN_END:
            if t is None or t.interrupt is not None:
                return True
            return (
                data.due == 0
                and data.due_player is None
                and state.players[t.player].name not in data.held
            )
        return False

    @acts_at(Moment.TURN_START, Moment.TURN_END, Moment.SCORING_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        data = self.data(state)
        t = state.turn
        if moment == Moment.TURN_START and t is not None and data.due > 0:
            # the keys of the turn before were never laid (L3516-3519)
            owner = state.players[data.due_player or 0].name
            state.flag("KEY-MISSING", t.pos, owner, owner=owner, n=data.due)
            data.due = 0
            data.due_player = None
        elif moment == Moment.TURN_END and t is not None and t.interrupt is None:
            # "Eventuell vor dem eigenen Zug erhaltene Schlüssel-Plättchen werden immer am Ende
            # des nächsten eigenen Zuges abgehandelt" (L3496-3498): every key held now is due
            name = state.players[t.player].name
            data.due += data.held.pop(name, 0)
            data.due_player = t.player if data.due else None
        elif moment == Moment.SCORING_DONE:
            data.points.clear()  # scored in this scoring's "keys" line
        _keep_idle(data)

    # ------------------------------------------------------------------ laying a key tile

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* key ky:5 B1 B2 ...``: the key tile laid into the tableau, the bonus in front of
        each player's gate in seat order from its owner."""
        pos = event.pos
        ctx = Context(state, pos)
        # "Wenn am Ende seines Zuges alles eingebaut und aufgefüllt ist" (L3516-3519): the
        # turn's (or the previous key tile's) refill is over, a scoring it revealed done first
        # (L3521-3524)
        ctx.settle_before(pos, Settle.TURN)
        data = self.data(state)
        if state.game_over or state.phase is Phase.OVER:
            state.flag("KEY-GAME-END", pos)
            data.due = 0
            _keep_idle(data)
            return []
        if data.due <= 0 or data.due_player is None:
            state.flag("KEY-NOT-DUE", pos, reason="none")
            return []
        args = list(event.args)
        n = key_number(args[0].value) if args else None
        if n is None:
            state.flag(
                "KEY-TOKEN", pos, reason="tile", token=token_text(args[0].value) if args else "-"
            )
        elif n in data.laid:
            state.flag(
                "KEY-SUPPLY",
                pos,
                reason="tile",
                what=f"ky:{n}",
                laid=" ".join(f"ky:{k}" for k in data.laid),
            )
        words: list[str | None] = []
        for a in args[1:]:
            b = bonus_word(a.value) if a.value != "-" else None
            if b is None and a.value != "-":
                state.flag("KEY-TOKEN", a.pos or pos, reason="bonus", token=token_text(a.value))
            words.append(b)
        players = len(state.players)
        if len(words) != players:
            state.flag("KEY-BONUSES", pos, n=len(words), players=players)
        owner = data.due_player
        order = [(owner + i) % players for i in range(players)]
        bonuses = {seat: (words[i] if i < len(words) else None) for i, seat in enumerate(order)}
        data.due -= 1
        _keep_idle(data)
        if n is not None and n not in data.laid:
            data.laid.append(n)
        else:
            data.laid.append(0)  # an unnamed tile: one fewer in the stack all the same
        stage = KeyStage(n or 0, bonuses, owner)
        open_stage(
            ctx,
            Stage(
                "key bonuses",
                self.name,
                [s for s in order if bonuses.get(s) is not None],
                StageOrder.SEATS,
                (BONUS, "schluesselbonus", "torbonus"),
                required=False,  # "Dieser Bonus muss nicht ausgeführt werden" (L3493-3494)
                pos=pos,
                source=S_FLOW,
                data=stage,
            ),
        )
        return []

    def stage_closed(self, ctx: Any, stage: Stage) -> None:
        """ "Sind alle Boni ausgeführt, wird das gerade genutzte Schlüssel-Plättchen aus dem Spiel
        entfernt" (L3493-3495); "Dabei werden ggfs. nach jedem Plättchen Bauhof und Geldkarten
        aufgefüllt" (L3500-3502): a refill follows."""
        state = ctx.state
        data = self.data(state)
        if data.due == 0:
            data.due_player = None
            _keep_idle(data)
        self._refill_follows(state)

    # ------------------------------------------------------------------ the bonuses

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() not in (BONUS, "schluesselbonus", "torbonus"):
            return None
        name = turn.player.name if turn.player is not None else None
        state.flag("KEY-BONUS", acts[0].pos, name, reason="no-key", name=name or "?")
        return []

    def stage_line(self, ctx: Any, stage: Stage, player: PlayerState, line: Turn) -> None:
        state = ctx.state
        act = line.actions[0]
        assert isinstance(act, ModuleAction)
        pos = act.pos or line.pos
        who = player.name
        written = bonus_word(act.args[0].value) if act.args else None
        stated = stage.data.bonuses.get(player.index)
        if written is None:
            token = token_text(act.args[0].value) if act.args else "-"
            state.flag("KEY-TOKEN", pos, who, reason="bonus", token=token)
            return
        if written != stated:
            state.flag(
                "KEY-BONUS",
                pos,
                who,
                reason="not-his",
                name=who,
                stated=stated or "-",
                written=written,
            )
            return
        rest = line.actions[1:]
        if written in ("rebuild", "buy", "plaza"):
            self._with_actions(ctx, player, line, written)
            return
        if rest:
            state.flag("KEY-BONUS", rest[0].pos or pos, who, reason="other-actions", name=who)
        if state.checking:
            report(state, self._bonus_findings(state, player, act, written))
        self._apply(state, player, act, written)
        self._refill_follows(state)

    @staticmethod
    def _refill_follows(state: GameState) -> None:
        """After the key tile a refill follows (``stage_closed``); a bonus that used the market
        or the display already says so (the next chance line ends the key's stage)."""
        if not state.game_over and state.phase is not Phase.OVER:
            state.phase = Phase.REFILL

    def _bonus_findings(
        self, state: GameState, player: PlayerState, act: ModuleAction, bonus: str
    ) -> list[Finding]:
        pos = act.pos
        who = player.name
        args = [a.value for a in act.args[1:]]
        if bonus == "money":
            card = args[0].card if args and isinstance(args[0], CardRef) else None
            if card is None:
                return [problem("KEY-BONUS", pos, who, reason="money-card", name=who)]
            if card not in state.display and None not in state.display:
                shown = " ".join(c.code if c else "?" for c in state.display) or "-"
                return [
                    problem(
                        "KEY-BONUS",
                        pos,
                        who,
                        reason="money-not-shown",
                        name=who,
                        card=card.code,
                        display=shown,
                    )
                ]
        elif bonus == "trade":
            fields = self._fields(args)
            if fields is None:
                return [problem("KEY-BONUS", pos, who, reason="trade-fields", name=who)]
            a, b = fields
            if state.market[a] is EMPTY and state.market[b] is EMPTY:
                return [problem("KEY-BONUS", pos, who, reason="trade-empty", name=who)]
        elif bonus == "wall":
            return self._wall_findings(state, player, act)
        elif bonus == "half":
            t = args[0].upper() if args and isinstance(args[0], str) else None
            if t not in half_types():
                return [problem("KEY-BONUS", pos, who, reason="half-type", name=who)]
            left = self.data(state).halves_left()
            if t not in left:
                return [
                    problem(
                        "KEY-SUPPLY",
                        pos,
                        who,
                        reason="half",
                        what=f"half {t}",
                        left=" ".join(left) or "-",
                    )
                ]
        return []

    def _wall_args(self, act: ModuleAction) -> tuple[Coord, Side] | None:
        args = [a.value for a in act.args[1:]]
        if len(args) != 2 or not isinstance(args[0], Coord):
            return None
        side = read_side(args[1])
        return None if side is None else (args[0], side)

    def _wall_findings(
        self, state: GameState, player: PlayerState, act: ModuleAction
    ) -> list[Finding]:
        """ "Sofort 1 Mauerteil einbauen" (L3591): a wall piece on a side of an own tile that
        has no wall there; one of the 7 pieces (L3553). The layout after it is judged when it
        is built (``LAYOUT-BROKEN``)."""
        pos = act.pos
        who = player.name
        where = self._wall_args(act)
        if where is None:
            return [problem("KEY-BONUS", pos, who, reason="wall-form", name=who)]
        left = wall_count() - self.data(state).walls_used()
        if left <= 0:
            return [problem("KEY-SUPPLY", pos, who, reason="wall", what="wall piece", left=left)]
        if player.alhambra_unknown or player.counts is not None:
            return []
        at, side = where
        piece = player.alhambra.get(at)
        if piece is None:
            return [problem("KEY-BONUS", pos, who, reason="wall-tile", name=who, at=f"@{at}")]
        if side in (piece.walls | player.alhambra.overlay(at)):
            return [
                problem(
                    "KEY-BONUS",
                    pos,
                    who,
                    reason="wall-there",
                    name=who,
                    at=f"@{at}",
                    side=walls_token(frozenset({side})),
                )
            ]
        return []

    def _build_wall(self, state: GameState, player: PlayerState, act: ModuleAction) -> None:
        from referee.engine.actions.layer_rules import layout_now, revalidate

        where = self._wall_args(act)
        data = self.data(state)
        if where is None or data.walls_used() >= wall_count():
            return
        at, side = where
        alh = player.alhambra
        piece = alh.get(at)
        if piece is None or side in (piece.walls | alh.overlay(at)):
            return
        before = layout_now(player) if state.checking else []
        alh.add_overlay(at, frozenset({side}))
        data.walls.setdefault(player.name, []).append((piece, side))
        if state.checking:
            change = f"wall @{at} {walls_token(frozenset({side}))}"
            Context(state).report(revalidate(player, act.pos, change, before))

    @staticmethod
    def _fields(args: Sequence[object]) -> tuple[int, int] | None:
        if len(args) != 2 or not all(isinstance(a, int) and 1 <= a <= 4 for a in args):
            return None
        a, b = (int(x) - 1 for x in args)  # type: ignore[call-overload]
        return None if a == b else (a, b)

    def _apply(self, state: GameState, player: PlayerState, act: ModuleAction, bonus: str) -> None:
        data = self.data(state)
        args = [a.value for a in act.args[1:]]
        name = player.name
        if bonus in ("points1", "points2"):
            # "1 bzw. 2 Siegpunkte erhalten" (L3583)
            data.points[name] = data.points.get(name, 0) + (1 if bonus == "points1" else 2)
        elif bonus == "money":
            card = args[0].card if args and isinstance(args[0], CardRef) else None
            if card is None:
                return
            if card in state.display:
                state.display.remove(card)
            elif None in state.display:
                state.display.remove(None)  # an unknown card of the display: this one
            else:
                return
            player.hand[card] += 1
        elif bonus == "trade":
            fields = self._fields(args)
            if fields is None:
                return
            a, b = fields
            m = state.market
            m[a], m[b] = m[b], m[a]
            state.unrefilled = [b if i == a else a if i == b else i for i in state.unrefilled]
        elif bonus == "wall":
            self._build_wall(state, player, act)
        elif bonus == "half":
            t = args[0].upper() if args and isinstance(args[0], str) else None
            if t in data.halves_left():
                data.halves.setdefault(name, []).append(str(t))

    def _with_actions(self, ctx: Any, player: PlayerState, line: Turn, bonus: str) -> None:
        """ "Sofort 1 Umbauaktion ausführen" / "1 Gebäude für 14 kaufen": the base actions
        written after the bonus run as a short out-of-turn action of the player (the building
        rules, the reserve and the purchase pipeline apply unchanged)."""
        state = ctx.state
        pos = line.pos
        who = player.name
        rest = list(line.actions[1:])
        moved = (
            bonus == "rebuild"
            and len(rest) == 2
            and isinstance(rest[0], RemoveToReserve)
            and isinstance(rest[1], BuildFromReserve)
            and _same_tile(getattr(rest[0], "tile", None), getattr(rest[1], "tile", None))
        )
        if bonus == "rebuild" and len(rest) != 1 and not moved:
            state.flag("KEY-BONUS", pos, who, reason="rebuild-actions", name=who)
            return
        if bonus == "buy" and (not rest or not isinstance(rest[0], Buy)):
            state.flag("KEY-BONUS", pos, who, reason="buy-actions", name=who)
            return
        plaza = None
        if bonus == "plaza":
            head = line.actions[0]
            assert isinstance(head, ModuleAction)
            plaza = self._plaza_taken(state, player, head)
            if plaza is None:
                return
            if len(rest) > 1 or any(not isinstance(a, Place | Reserve) for a in rest):
                state.flag("KEY-BONUS", pos, who, reason="plaza-actions", name=who)
                return
        saved = ctx.begin_interrupt(player, self.name, pos)
        t = state.turn
        assert t is not None
        data = self.data(state)
        if plaza is not None:
            # "Sofort 1 Plaza-Plättchen einbauen oder in die Reserve legen" (L3594-3595): built
            # by the building rules or reserved on the same line (none written: PLACE-MISSING,
            # and it lies in the reserve)
            t.over = True
            data.plazas.append(plaza)
            t.pending.append(plaza)  # placed like a bought tile
            for a in rest:
                ctx.run_action(a)
        elif bonus == "rebuild":
            t.over = True  # no main action: only the granted redesign(s)
            grant_redesign(state, 2 if moved else 1)
            for a in rest:
                ctx.run_action(a)
        else:
            data.buying = True
            for i, a in enumerate(rest):
                if i > 0 and isinstance(a, Buy):
                    state.flag("KEY-BONUS", a.pos or pos, who, reason="buy-actions", name=who)
                    continue
                ctx.run_action(a)
                t.over = False  # an exact payment gives no extra action: placements follow
            data.buying = False
        ctx.close_placements(pos, player)
        ctx.end_interrupt(saved)  # the refill follows (after the key tile)
        self._refill_follows(state)

    def _plaza_taken(
        self, state: GameState, player: PlayerState, act: ModuleAction
    ) -> Plaza | None:
        """The plaza a ``keybonus plaza pz:Tne`` line takes: its token (the face is only in the
        picture: the record states it), one of the 6 plaza tiles still beside the tableau
        (L3508-3510, L3555; one of each colour assumed, not verified)."""
        pos = act.pos
        who = player.name
        value = act.args[1].value if len(act.args) == 2 else None
        plaza = read_plaza(value)
        if plaza is None:
            token = token_text(value) if value is not None else "-"
            state.flag("KEY-TOKEN", pos, who, reason="plaza", token=token)
            return None
        left = self.data(state).plazas_left()
        if plaza.colour not in left:
            state.flag(
                "KEY-SUPPLY",
                pos,
                who,
                reason="plaza",
                what=plaza.code,
                left=" ".join(f"pz:{c.code}" for c in left) or "-",
            )
            return None
        return plaza

    @refines(Decision.PAY_PRICE)
    def key_price(self, ctx: Any, price: int, **_: Any) -> int:
        """ "1 Gebäude für 14 kaufen" (L3577)."""
        return int(_data()["buy_price"]) if self._buying(ctx.state) else price

    @refines(Decision.PAY_CURRENCIES)
    def key_currencies(
        self, ctx: Any, allowed: frozenset[Currency], **_: Any
    ) -> frozenset[Currency]:
        """ "(Währung beliebig gemischt)" (L3577-3578)."""
        return frozenset(Currency) if self._buying(ctx.state) else allowed

    def _buying(self, state: GameState) -> bool:
        t = state.turn
        return t is not None and t.interrupt == self.name and self.data(state).buying

    def wall_places(self, state: GameState, player: PlayerState) -> list[tuple[Any, Side]]:
        """Each wall piece of ``player`` where it is now: the cell of the tile it was built on,
        or that tile in the reserve (the walls go with a tile that is moved, E21)."""
        alh = player.alhambra
        out: list[tuple[Any, Side]] = []
        for piece, side in self.data(state).walls.get(player.name, []):
            at = next((c for c, x in alh.items() if x == piece), None)  # each tile is unique
            if at is not None and side in alh.overlay(at):
                out.append((at, side))
            elif piece in player.reserve and side in alh.carried_walls(piece):
                out.append((TileRef(piece.type, piece.price, piece.walls, (piece,)), side))
        return out

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """The bonus points got since the last scoring, and each half building: "Zählt bei
        einer Wertung wie ein halbes Gebäude dieses Typs. Wirkt nur bei mindestens 1 eingebautem
        Gebäude des Typs" (L3598-3601)."""
        data = self.data(state)
        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for p in state.players:
            got = data.halves.get(p.name, [])
            out = []
            for t in got:
                kind = BuildingType(t)
                if any(getattr(x, "type", None) is kind for _at, x in p.alhambra.items()):
                    out.append(
                        CountAdjustment(kind, Fraction(1, 2), "half building", "halbes Gebäude")
                    )
            # (a plaza lies in an Alhambra only once taken: every plaza taken is in ``plazas``,
            # by the bonus or a position, and none leaves it)
            if data.plazas and self.option("plaza") == "square":
                out += self._plaza_counts(p)
            if out:
                adjustments[p.name] = tuple(out)
        points = dict(data.points)
        line = PointLine(
            "keys",
            "key bonus points",
            "Schlüssel-Siegpunkte",
            S_BONUS,
            lambda p: points.get(p.name) or None,
            order=660,
        )
        return ScoringParts(adjustments, (line,))

    @staticmethod
    def _plaza_counts(player: PlayerState) -> list[Any]:
        """Each built plaza, read as a square of Die Plätze (switch ``plaza=square``): "Bei einer
        Wertung zählt ein Platz wie null bis drei Gebäudeplättchen der gleichen Farbe" by its
        like neighbours with no wall between (DIE PLÄTZE, Wertungsänderungen; ruling 14)."""
        out: list[Any] = []
        # (the plazas first, then sorted: most Alhambras hold none, and a sort of every cell
        # called its key once a cell at every scoring)
        plazas = [(at, piece) for at, piece in player.alhambra.items() if isinstance(piece, Plaza)]
        if not plazas:
            return out
        for at, piece in sorted(plazas, key=lambda cp: (-cp[0].y, cp[0].x)):
            n = like_neighbours(player, at, piece.colour, piece.walls)
            if n:
                en = piece.colour.name_in("en", plural=n != 1)
                de = piece.colour.name_in("de", plural=n != 1)
                out.append(
                    CountAdjustment(
                        piece.colour,
                        n,
                        f"plaza {piece.code}@{at}: counts as {n} {en}",
                        f"Plaza {piece.code}@{at}: zählt wie {n} {de}",
                    )
                )
        return out

    # ------------------------------------------------------------------ positions

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A plaza in a position's Alhambra or reserve (``alhambra pz:Tne@0,1``): one of the 6
        plaza tiles, out of the supply."""
        if where not in ("alhambra", "reserve") or ref.kind.lower() != PLAZA:
            return False, None
        who = player.name if player is not None else None
        plaza = read_plaza(ref)
        if plaza is None:
            state.flag("KEY-TOKEN", ref.pos, who, reason="plaza", token=token_text(ref))
            return True, None
        data = self.data(state)
        left = data.plazas_left()
        if plaza.colour not in left:
            state.flag(
                "KEY-SUPPLY",
                ref.pos,
                who,
                reason="plaza",
                what=plaza.code,
                left=" ".join(f"pz:{c.code}" for c in left) or "-",
            )
        data.plazas.append(plaza)
        return True, plaza

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        data = self.data(state)

        def line(*words: Any) -> ModuleAction:
            return ModuleAction(POSITION, tuple(GenericArg(w) for w in words))

        if player is None:
            out = []
            if data.laid:
                out.append(line("laid", *data.laid))
            if data.due and data.due_player is not None:
                out.append(line("due", state.players[data.due_player].name, data.due))
            return out
        out = []
        if data.held.get(player.name):
            out.append(line("held", data.held[player.name]))
        if data.points.get(player.name):
            out.append(line("points", data.points[player.name]))
        if data.halves.get(player.name):
            out.append(line("halves", *data.halves[player.name]))
        for where, side in self.wall_places(state, player):
            out.append(line("wall", where, walls_token(frozenset({side}))))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() != POSITION or not line.args:
            return False
        data = self.data(state)
        head = str(line.args[0].value).lower()
        rest = [a.value for a in line.args[1:]]
        if player is None and head == "laid":
            data.laid = [int(v) for v in rest if isinstance(v, int)]
            return True
        if player is None and head == "due" and len(rest) == 2:
            who = state.player_named(str(rest[0]))
            if who is not None and isinstance(rest[1], int):
                data.due_player = who.index
                data.due = rest[1]
                _keep_idle(data)
            return True
        if player is not None and head in ("held", "points") and rest:
            n = rest[0] if isinstance(rest[0], int) else 0
            (data.held if head == "held" else data.points)[player.name] = n
            _keep_idle(data)
            return True
        if player is not None and head == "wall" and len(rest) == 2:
            side = read_side(rest[1])
            at = rest[0]
            alh = player.alhambra
            if side is None:
                return False
            if isinstance(at, Coord) and alh.get(at) is not None:
                alh.add_overlay(at, frozenset({side}))
                data.walls.setdefault(player.name, []).append((alh.get(at), side))
                return True
            if isinstance(at, TileRef):
                for piece in player.reserve:
                    if piece in at.candidates:
                        alh.carry_walls(piece, frozenset({side}))
                        data.walls.setdefault(player.name, []).append((piece, side))
                        return True
            return False
        if player is not None and head == "halves":
            data.halves[player.name] = [str(v).upper() for v in rest]
            return True
        return False

    # ------------------------------------------------------------------ view

    def _laying(self, state: GameState) -> str | None:
        """The key tile lying in the gate tableau while its bonuses are taken, with the bonus
        in front of each player's gate in seat order from its owner (``ky:5: Anna points1, Ben
        money``); None when none lies there ("Sind alle Boni ausgeführt, wird das gerade
        genutzte Schlüssel-Plättchen aus dem Spiel entfernt", L3493-3495)."""
        stage = next((s for s in reversed(state.stages) if s.owner == self.name), None)
        if stage is None or not isinstance(stage.data, KeyStage):
            return None
        key = stage.data
        n = len(state.players)
        gates = ", ".join(
            f"{state.players[seat].name} {key.bonuses.get(seat) or '-'}"
            for seat in ((key.owner + i) % n for i in range(n))
        )
        return f"{'ky:' + str(key.tile) if key.tile else '?'}: {gates}"

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """What lies before a player (terminal map, SVG): the key tiles he holds face down
        ("legt er das oberste Plättchen ... verdeckt vor sich hin", L3514-3516), the half
        buildings he took ("an sich nehmen", L3598), his bonus points not scored yet and his
        wall pieces (drawn on their tiles as added walls)."""
        data = self.data(state)
        out: list[tuple[str, str]] = []
        held = data.held.get(player.name)
        if held:
            out.append((f"key tiles face down: {held}", f"Schlüssel-Plättchen verdeckt: {held}"))
        halves = [BuildingType(t) for t in data.halves.get(player.name, [])]
        if halves:
            en = ", ".join(f"{t.name_in('en')} ({t.code})" for t in halves)
            de = ", ".join(f"{t.name_in('de')} ({t.code})" for t in halves)
            out.append((f"half buildings: {en}", f"halbe Gebäude: {de}"))
        points = data.points.get(player.name)
        if points:
            out.append(
                (
                    f"key bonus points not scored yet: {points}",
                    f"Schlüssel-Siegpunkte noch nicht gewertet: {points}",
                )
            )
        walls = self.wall_places(state, player)
        if walls:
            words = {Side.N: ("north", "Nord"), Side.E: ("east", "Ost")}
            words |= {Side.S: ("south", "Süd"), Side.W: ("west", "West")}
            en = ", ".join(f"{_where(w)} {words[side][0]}" for w, side in walls)
            de = ", ".join(f"{_where(w)} {words[side][1]}" for w, side in walls)
            out.append((f"wall pieces: {en}", f"Mauerteile: {de}"))
        return out

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        table: dict[str, str] = {
            "key tiles left": str(key_count() - data.taken_keys()),
            "laid": " ".join(f"ky:{k}" for k in data.laid if k) or "none",
            "half buildings left": " ".join(data.halves_left()) or "none",
            "wall pieces left": str(wall_count() - data.walls_used()),
            "plazas left": " ".join(f"pz:{c.code}" for c in data.plazas_left()) or "none",
            "options": f"plaza={self.option('plaza')}",
        }
        if data.due and data.due_player is not None:
            table["due now"] = f"{state.players[data.due_player].name} {data.due}"
        laying = self._laying(state)
        if laying is not None:
            table["in the gate tableau"] = laying
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            row: dict[str, str] = {}
            if data.held.get(p.name):
                row["held"] = str(data.held[p.name])
            if data.points.get(p.name):
                row["key points not scored yet"] = str(data.points[p.name])
            if data.halves.get(p.name):
                row["half buildings"] = " ".join(data.halves[p.name])
            walls = self.wall_places(state, p)
            if walls:
                row["wall pieces"] = " ".join(
                    f"{'@' if isinstance(w, Coord) else ''}{w} {walls_token(frozenset({side}))}"
                    for w, side in walls
                )
            if row:
                players[p.name] = row
        return self.shown(table, players)

    # ------------------------------------------------------------------ legal moves

    def legal_stage_lines(self, ctx: Any, stage: Stage, player: PlayerState) -> list[Turn]:
        """The bonus in front of the player's gate, each way it can be taken."""
        state = ctx.state
        bonus = stage.data.bonuses.get(player.index)
        acts: list[ModuleAction] = []

        def act(*words: Any) -> ModuleAction:
            return ModuleAction(BONUS, tuple(GenericArg(w) for w in words))

        if bonus in ("points1", "points2"):
            acts.append(act(bonus))
        elif bonus == "money":
            for c in dict.fromkeys(c for c in state.display if isinstance(c, MoneyCard)):
                acts.append(act(bonus, CardRef(c)))
        elif bonus == "trade":
            m = state.market
            for a in range(len(m)):
                for b in range(a + 1, len(m)):
                    if m[a] is not EMPTY or m[b] is not EMPTY:
                        acts.append(act(bonus, a + 1, b + 1))
        elif bonus == "half":
            for t in dict.fromkeys(self.data(state).halves_left()):
                acts.append(act(bonus, t))
        elif bonus == "rebuild":
            return self._rebuild_lines(ctx, player)
        elif bonus == "wall" and self.data(state).walls_used() < wall_count():
            acts += self._wall_moves(player)
        elif bonus == "plaza":
            return self._plaza_lines(ctx, player)
        elif bonus == "buy":
            return self._buy_lines(ctx, player)
        return [Turn(None, PlayerRef(player.name), (a,)) for a in acts]

    def _plaza_lines(self, ctx: Any, player: PlayerState) -> list[Turn]:
        """A plaza still beside the tableau, built where the building rules let it in, or put
        into the reserve. Its face is only in the picture (the record states it): the lines
        offer each colour left with one wall on each side in turn, a few places each."""
        from referee.engine.legal import placements_of

        out: list[Turn] = []
        for colour in self.data(ctx.state).plazas_left():
            for side in (Side.N, Side.E, Side.S, Side.W):
                plaza = Plaza(colour, frozenset({side}))
                ref = GenericArg(ComponentRef(PLAZA, plaza.token_name))
                head = ModuleAction(BONUS, (GenericArg("plaza"), ref))
                moves = placements_of(ctx, player, plaza)
                for a in [*moves[:2], *moves[-1:]]:  # two places and the reserve
                    if isinstance(a, Place | Reserve):
                        out.append(Turn(None, PlayerRef(player.name), (head, a)))
        return out

    def _buy_lines(self, ctx: Any, player: PlayerState) -> list[Turn]:
        """ "1 Gebäude für 14 kaufen (Währung beliebig gemischt)" (L3577-3578): each purchase
        the player's hand pays (price 14, any currency), with a placement of the building; a
        free action the purchase owes at once comes between them (Bauland: "Anschließend sucht
        er sofort eines der Baugebäude aus", the plot's building, as the vizier's lines do)."""
        from referee.engine.actions import run_action
        from referee.engine.legal import buy_actions, owed_actions, placements_of
        from referee.engine.turns import begin_interrupt

        state = ctx.state
        trial = state.copy()
        p = trial.players[player.index]
        begin_interrupt(trial, p, self.name, NOWHERE)
        self.data(trial).buying = True
        head = ModuleAction(BONUS, (GenericArg("buy"),))
        out: list[Turn] = []
        for buy in buy_actions(type(ctx)(trial), p)[:6]:
            after = trial.copy()
            after.checking = False
            run_action(after, buy)
            firsts: list[tuple[Any, ...]] = [(a,) for a in owed_actions(after)[:3]] or [()]
            for first in firsts:
                done = after
                if first:
                    done = after.copy()
                    run_action(done, first[0])
                t = done.turn
                if t is None or not t.pending:
                    continue
                who = done.players[p.index]
                for place in placements_of(type(ctx)(done), who, t.pending[0])[:2]:
                    if isinstance(place, Place | Reserve):
                        out.append(Turn(None, PlayerRef(player.name), (head, buy, *first, place)))
        return out

    @staticmethod
    def _wall_moves(player: PlayerState) -> list[ModuleAction]:
        """A wall piece on an outer side of a tile (no neighbour there: no building rule can
        break), a few of them."""
        out: list[ModuleAction] = []
        alh = player.alhambra
        if player.alhambra_unknown or player.counts is not None:
            return out
        for at, piece in sorted(alh.items(), key=lambda kv: (-kv[0].y, kv[0].x)):
            if getattr(piece, "footprint", None) is not None or not hasattr(piece, "walls"):
                continue
            for side in (Side.N, Side.E, Side.S, Side.W):
                dx, dy = side.delta
                if side in (piece.walls | alh.overlay(at)) or alh.get(Coord(at.x + dx, at.y + dy)):
                    continue
                word = walls_token(frozenset({side}))
                out.append(
                    ModuleAction(BONUS, (GenericArg("wall"), GenericArg(at), GenericArg(word)))
                )
        return out[:6]

    def _rebuild_lines(self, ctx: Any, player: PlayerState) -> list[Turn]:
        from referee.engine.legal import redesign_actions

        state = ctx.state
        trial = state.copy()
        p = trial.players[player.index]
        saved_turn = trial.turn
        from referee.engine.state import TurnState

        trial.turn = TurnState(trial.turn_no, p.index, interrupt=self.name)
        trial.turn.over = True
        grant_redesign(trial, 1)
        moves = redesign_actions(type(ctx)(trial), p)
        trial.turn = saved_turn
        head = ModuleAction(BONUS, (GenericArg("rebuild"),))
        return [Turn(None, PlayerRef(player.name), (head, m)) for m in moves[:8]]

    def sim_between_turns(self, sim: Any) -> list[Any]:
        """A key tile due now is laid: a tile not laid yet, a bonus for every gate (the key
        faces are only in the picture: the simulator picks them)."""
        state = sim.state
        data = self.data(state)
        others = any(s.owner != self.name for s in state.stages)  # the last key's ends here
        if data.due <= 0 or others or state.game_over or state.turn is not None:
            return []
        free = [k for k in range(1, key_count() + 1) if k not in data.laid]
        if not free:
            return []
        tile = sim.rng.choice(free)
        words = [sim.rng.choice(SIM_BONUSES) for _ in state.players]
        return [
            ModuleChance(
                KEY,
                (GenericArg(ComponentRef(KIND, str(tile))), *(GenericArg(w) for w in words)),
            )
        ]
