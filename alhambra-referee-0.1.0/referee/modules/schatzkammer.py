"""Die Schatzkammer (treasure chamber): 42 chests in a bag, 4 in each of 3 rooms; a new action
buys one room's chests for at least 8 in any mix of currencies; the buyer places them on his
buildings of the chest's colour, what he cannot place is handed on to the left, the rest goes
back into the bag; the most chests score at every scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE SCHATZKAMMER (L1512-1604).

Notation: a chest is its colour, the building letter (``P`` blau, ``S`` rot, ``A`` braun,
``C`` weiß, ``G`` grün, ``T`` lila).

* ``* chests 1 G G T P, chests 2 A C S G, chests 3 T T P A`` -- the rooms filled from the bag
  at the setup, and ``* chests 2 S G P T`` when an emptied room is filled again (the draws are
  stated like any revealed component; the referee checks them against the bag).
* ``chests 2 pay Du3 De3 Di4`` -- the action "Schatztruhen kaufen" (room 2); then the buyer's
  placements ``chest A @1,0, chest G @0,1`` (free, after the placements of bought tiles).
* ``Cem: chest C @2,2`` -- a player the rest is handed on to places some (an out-of-turn line
  right after the turn; writing nothing lets them pass on). Dirk (two players) takes his share
  by himself.
* positions: ``chests 1 G G T P`` / ``chests 3 empty`` / ``chests dirk G T`` outside the player
  sections, ``chest G @1,0`` in a player's section.
* ``scoring 1: Anna +7 (chests=7)`` -- the chest majority may be claimed.

Rulings: ``docs/modules/schatzkammer.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import BuildingType
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report, unverifiable
from referee.engine.payment import Mix, PaymentTerms, apply_payment, payment_findings, plan_payment
from referee.engine.stages import Stage, StageOrder, left_of, open_stage
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment, end_main_action, main_action_findings, start_main_action
from referee.engine.verbs import Arg, VerbSpec
from referee.messages import Join, Text
from referee.modules.base import BundledModule, Scratch, bundled, module_data, section, token_text
from referee.record.model import (
    CardRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    Turn,
)
from referee.scoring import ScoringParts
from referee.scoring.categories import Majority

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE SCHATZKAMMER"
BUY = "chests"  # the action, the chance line (a room filled) and the position lines
PUT = "chest"  # one chest placed
COLOURS = ("P", "S", "A", "C", "G", "T")
EMPTY_WORDS = ("empty", "leer", "-")
DUE = ("due", "faellig", "fällig")
DIRK_WORDS = ("dirk",)
# a moment inside a turn: `chests bought G R`, the chests the open turn bought and did not place
# yet (none left: the purchase's turn end is still to come)
BOUGHT = ("bought", "gekauft")
DOING = Text("ACTION/buying-chests")
S_BUY = section(H, "Wie bekommt man die Schatztruhen?")
S_PUT = section(H, "Wohin kommen die Schatztruhen?")
S_SCORE = section(H, "Wertungsänderungen")


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("schatzkammer")["components"]
    return data


def per_colour() -> dict[str, int]:
    return dict(_per_colour())


@cache
def _per_colour() -> dict[str, int]:  # (made once; read it, do not change it)
    return {k: int(v) for k, v in _data()["chests"]["per_colour"].items()}


@cache
def rooms_count() -> int:
    return int(_data()["chests"]["rooms"])


@cache
def per_room() -> int:
    return int(_data()["chests"]["per_room"])


@cache
def price() -> int:
    return int(_data()["chests"]["price"])


def points_table() -> dict[int, tuple[int, ...]]:
    return {int(k): tuple(int(x) for x in v) for k, v in _data()["points"].items()}


def colour_text(c: str) -> Text:
    """The chest colour in words (``green (G)`` / ``grün (G)``)."""
    return Text(f"WORD/chest-{c}")


def parse_colour(value: object) -> str | None:
    """A chest as a line writes it: a building letter (``G``), else None."""
    if isinstance(value, str) and value.upper() in COLOURS and len(value) == 1:
        return value.upper()
    return None


def chest_list(chests: list[str]) -> str:
    return " ".join(chests) or "-"


@dataclass
class ChestScratch(Scratch):
    # the rooms: the chests in each (None: not stated, unknown; [] empty)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    rooms: list[list[str] | None] = field(default_factory=list)
    due: list[int] = field(default_factory=list)  # emptied rooms waiting for a refill line
    stopped: bool = False  # "Von nun an werden keine Truhen mehr nachgelegt."
    setup_told: bool = False  # the rooms not stated at the setup were reported
    on: dict[str, dict[Coord, str]] = field(default_factory=dict)  # player -> cell -> chest
    dirk: Counter[str] = field(default_factory=Counter)  # Dirk's chests by colour
    pending: list[str] = field(default_factory=list)  # bought / handed on, not placed yet
    buyer: int | None = None  # seat of the buyer while his chests are placed and handed on
    bought_turn: int | None = None  # the turn whose action bought chests
    pos: Pos | None = None  # the purchase's line
    # the idle answers kept for the engine (Module.kept_idle, ``idle_at``'s answers): True
    # only while it holds (set where the step leaves nothing to do, undone where that changes:
    # a room emptied, chests bought); None: not known, ``idle_at`` is asked
    idle_start: bool | None = field(default=None, repr=False, compare=False)
    idle_end: bool | None = field(default=True, repr=False, compare=False)  # (none bought)

    def chests_of(self, name: str) -> dict[Coord, str]:
        return self.on.setdefault(name, {})

    def visible(self) -> Counter[str]:
        """Every chest out of the bag whose colour is known."""
        out: Counter[str] = Counter()
        for room in self.rooms:
            out.update(room or ())
        for held in self.on.values():
            out.update(held.values())
        out.update(self.dirk)
        out.update(self.pending)
        return out

    def unknown_out(self) -> int:
        """Chests out of the bag whose colours are unknown (rooms not stated)."""
        return sum(per_room() for room in self.rooms if room is None)

    def bag_total(self, seen: Counter[str] | None = None) -> int:
        """The chests left in the bag (``seen``: :meth:`visible`'s answer, when made already)."""
        if seen is None:
            seen = self.visible()
        return sum(_per_colour().values()) - sum(seen.values()) - self.unknown_out()

    def bag_most(self, c: str, seen: Counter[str] | None = None) -> int:
        """The most chests of colour ``c`` the bag can hold (``seen`` as for :meth:`bag_total`)."""
        if seen is None:
            seen = self.visible()
        return max(0, _per_colour()[c] - seen[c])


@bundled
class Schatzkammer(BundledModule):
    """The chamber's rooms, the chests on buildings, the hand-over and the chest majority."""

    verb_specs = (
        VerbSpec(BUY, args=(Arg.INT, Arg.PAYMENT), aliases=("truhen",)),
        VerbSpec(PUT, kind="free", args=(Arg.WORD, Arg.COORD), aliases=("truhe",)),
    )
    chance_verbs = (BUY, "truhen")
    scratch_type = ChestScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {"chest": ("chest", "Schatztruhe")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        BUY: ("buys the chests of a room", "kauft die Truhen eines Raumes"),
        PUT: ("places a chest", "platziert eine Truhe"),
    }
    helpers = ("chest_findings",)

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.rooms = [None] * rooms_count()

    # ------------------------------------------------------------------ the rooms (chance)

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* chests N C C C C``: room N filled from the bag (setup or refill)."""
        data = self.data(state)
        pos = event.pos
        args = [a.value for a in event.args]
        room = args[0] if args and isinstance(args[0], int) else None
        if room is None or not 1 <= room <= rooms_count():
            state.flag(
                "CHEST-ROOM", pos, reason="number", room=token_text(args[0]) if args else "-"
            )
            return []
        drawn = self._colours(state, event.args[1:], pos, None)
        i = room - 1
        held = data.rooms[i]
        if held and i not in data.due:
            state.flag("CHEST-ROOM", pos, reason="full", room=room, held=chest_list(held))
            return []
        if data.stopped:
            state.flag("CHEST-REFILL", pos, reason="stopped", room=room)
            return []
        if len(drawn) != per_room():
            state.flag("CHEST-REFILL", pos, reason="count", room=room, n=len(drawn))
        data.rooms[i] = []  # the old content (unknown or empty) is replaced: not in the bag count
        self._check_bag(state, drawn, pos)
        data.rooms[i] = drawn
        if i in data.due:
            data.due.remove(i)
            _keep_start(data)
        return []

    def _colours(self, state: GameState, args: Any, pos: Pos, who: str | None) -> list[str]:
        out: list[str] = []
        for a in args:
            c = parse_colour(a.value)
            if c is None:
                state.flag("CHEST-TOKEN", a.pos or pos, who, token=token_text(a.value))
            else:
                out.append(c)
        return out

    def _check_bag(self, state: GameState, drawn: list[str], pos: Pos) -> None:
        data = self.data(state)
        # the chests out of the bag counted once (ChestScratch.visible: a table of every room,
        # player and pending list), for bag_total and each colour's bag_most (nothing here
        # changes them)
        seen = data.visible()
        left = data.bag_total(seen)
        if len(drawn) > left:
            state.flag("CHEST-SUPPLY", pos, reason="bag-total", n=len(drawn), left=left)
            return
        for c, n in sorted(Counter(drawn).items()):
            most = data.bag_most(c, seen)
            if n > most:
                state.flag(
                    "CHEST-SUPPLY",
                    pos,
                    reason="bag",
                    n=n,
                    colour=colour_text(c),
                    left=most,
                    total=per_colour()[c],
                )

    # ------------------------------------------------------------------ the action

    def _room_arg(self, action: ModuleAction) -> int | None:
        v = action.args[0].value if action.args else None
        return v if isinstance(v, int) else None

    def _paid(self, action: ModuleAction) -> list[object]:
        return [
            a.value
            for a in action.args[1:]
            if not (isinstance(a.value, str) and a.value.lower() in ("pay", "zahlt"))
        ]

    def _terms(self) -> PaymentTerms:
        return PaymentTerms(
            price(),
            Text("ACTION/buying-chests"),
            mix=Mix.ANY,
            source=S_BUY,
        )

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        if action.verb.lower() in (PUT, "truhe"):
            return self.chest_findings(ctx, player, action)
        state = ctx.state
        pos = action.pos
        who = player.name
        data = self.data(state)
        out: list[Finding] = list(main_action_findings(state, pos, player, DOING))
        room = self._room_arg(action)
        if room is None or not 1 <= room <= rooms_count():
            out.append(problem("CHEST-ROOM", pos, who, reason="number", room=str(room)))
        else:
            held = data.rooms[room - 1]
            if held is not None and not held:
                out.append(problem("CHEST-ROOM", pos, who, reason="empty", room=room))
            elif held is None:
                out.append(unverifiable(pos, "UNVERIFIED-CHEST-ROOM", who, room=room))
        plan = plan_payment(ctx, player, self._paid(action), self._terms(), pos)
        out.extend(payment_findings(ctx, plan))
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        if action.verb.lower() in (PUT, "truhe"):
            self._put(state, player, action)
            return []
        from referee.engine.context import Context

        ctx = Context(state, action.pos)
        data = self.data(state)
        start_main_action(state)
        plan = plan_payment(ctx, player, self._paid(action), self._terms(), action.pos)
        apply_payment(ctx, plan)
        # "Wer die Schatztruhen genau passend bezahlt, bekommt keinen Extrazug!"
        end_main_action(state, DOING)
        room = self._room_arg(action)
        if room is None or not 1 <= room <= rooms_count():
            return []
        i = room - 1
        held = data.rooms[i]
        if held is not None and not held:
            return []
        data.pending.extend(held or ())
        data.rooms[i] = []
        if i not in data.due and not data.stopped:  # "Von nun an werden keine Truhen mehr
            data.due.append(i)  # nachgelegt": once stopped, an emptied room stays empty
            data.idle_start = None
        data.buyer = player.index
        data.bought_turn = state.turn.number if state.turn is not None else None
        data.idle_end = None
        data.pos = action.pos
        return []

    # ------------------------------------------------------------------ placing a chest

    def _chest_args(self, action: ModuleAction) -> tuple[str | None, Coord | None, str]:
        vals = [a.value for a in action.args]
        c = parse_colour(vals[0]) if vals else None
        at = vals[1] if len(vals) > 1 and isinstance(vals[1], Coord) else None
        return c, at, token_text(vals[0]) if vals else "-"

    def _placing(self, state: GameState, player: PlayerState) -> bool:
        """Whether ``player`` holds chests to place now: the buyer in his buying turn, or a
        player of the hand-over under way."""
        data = self.data(state)
        t = state.turn
        if t is not None:
            return data.bought_turn == t.number and data.buyer == player.index == t.player
        return any(s.owner == self.name and player.index in s.players for s in state.stages)

    def chest_findings(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """One chest placed: held, on a building of its colour, one per building."""
        state = ctx.state
        data = self.data(state)
        pos = action.pos
        who = player.name
        c, at, token = self._chest_args(action)
        if c is None:
            return [problem("CHEST-TOKEN", pos, who, token=token)]
        if at is None:
            return []  # the verb's shape is reported by the engine (VERB-ARGS)
        colour = colour_text(c)
        if not self._placing(state, player) or not data.pending:
            return [problem("CHEST-HELD", pos, who, reason="none", colour=colour)]
        out: list[Finding] = []
        if c not in data.pending:
            out.append(
                problem(
                    "CHEST-HELD",
                    pos,
                    who,
                    reason="not-held",
                    colour=colour,
                    held=chest_list(data.pending),
                )
            )
        out.extend(self._cell_findings(state, player, c, at, pos))
        return out

    def _cell_findings(
        self, state: GameState, player: PlayerState, c: str, at: Coord, pos: Pos
    ) -> list[Finding]:
        who = player.name
        colour = colour_text(c)
        piece = player.alhambra.get(at)
        if piece is None:
            return [problem("CHEST-COLOUR", pos, who, reason="empty", colour=colour, at=at)]
        kind = getattr(piece, "type", None)
        if getattr(piece, "carried_tile", None) is not None and kind is None:  # a site
            return [
                problem("CHEST-COLOUR", pos, who, reason="site", colour=colour, at=at, piece=piece)
            ]
        if not isinstance(kind, BuildingType):
            return [
                problem(
                    "CHEST-COLOUR",
                    pos,
                    who,
                    reason="no-building",
                    colour=colour,
                    at=at,
                    piece=str(piece),
                )
            ]
        out: list[Finding] = []
        if kind.code != c:
            out.append(
                problem(
                    "CHEST-COLOUR",
                    pos,
                    who,
                    reason="colour",
                    colour=colour,
                    at=at,
                    piece=str(piece),
                )
            )
        if at in self.data(state).on.get(player.name, {}):
            out.append(problem("CHEST-FULL", pos, who, colour=colour, at=at))
        return out

    def _put(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        """The chest leaves the chests to place; it stands on the cell when a piece lies there
        that holds no chest yet (else it is back in the bag)."""
        data = self.data(state)
        c, at, _token = self._chest_args(action)
        if c is None or c not in data.pending or not self._placing(state, player):
            return
        data.pending.remove(c)
        held = data.chests_of(player.name)
        if at is not None and player.alhambra.get(at) is not None and at not in held:
            held[at] = c

    def free_cells(self, state: GameState, player: PlayerState, c: str) -> list[Coord]:
        """The buildings of colour ``c`` in ``player``'s Alhambra without a chest."""
        held = self.data(state).on.get(player.name, {})
        out: list[Coord] = []
        for at, piece in player.alhambra.items():
            kind = getattr(piece, "type", None)
            if isinstance(kind, BuildingType) and kind.code == c and at not in held:
                out.append(at)
        return sorted(out, key=lambda k: (-k.y, k.x))

    def _could_place(self, state: GameState, player: PlayerState, chests: list[str]) -> list[str]:
        """Of ``chests``, those ``player`` could still place (one per free building)."""
        out: list[str] = []
        for c, n in sorted(Counter(chests).items()):
            k = min(n, len(self.free_cells(state, player, c)))
            out += [c] * k
        return out

    def _unplaced(self, state: GameState, player: PlayerState, pos: Pos, reason: str) -> None:
        could = self._could_place(state, player, self.data(state).pending)
        for c in dict.fromkeys(could):
            there = Join(tuple(f"@{x}" for x in self.free_cells(state, player, c)), ", ")
            if reason == "buyer":
                state.flag(
                    "CHEST-UNPLACED",
                    pos,
                    player.name,
                    reason="buyer",
                    colour=colour_text(c),
                    there=there,
                )
            else:
                state.flag(
                    "CHEST-UNPLACED",
                    pos,
                    player.name,
                    reason="neighbour",
                    colour=colour_text(c),
                    there=there,
                )

    # ------------------------------------------------------------------ hand-over

    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_start, idle_end: kept where they change)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Nothing to do at a turn's start once the setup's rooms were told and no emptied room
        waits for its refill line (:meth:`_turn_start`); nothing at a turn's end unless this
        turn's main action bought chests (:meth:`_turn_end`). The module's part must exist
        (its step would make it)."""
        data = state.modules.get(self.name)
        if data is None:
            return False
        if moment == Moment.TURN_START:
            return bool(data.setup_told and not data.due)
        if moment == Moment.TURN_END:
            t = state.turn
            return t is None or data.bought_turn != t.number or data.buyer != t.player
        return False

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment == Moment.TURN_START:
            self._turn_start(state)
        elif moment == Moment.TURN_END:
            self._turn_end(ctx)

    def _turn_start(self, state: GameState) -> None:
        data = self.data(state)
        pos = state.turn.pos if state.turn is not None else None
        if pos is None:
            return
        if not data.setup_told:
            data.setup_told = True
            for i, room in enumerate(data.rooms):
                if room is None and state.checking:
                    state.flag("CHEST-REFILL", pos, reason="setup", room=i + 1)
        for i in list(data.due):
            state.flag("CHEST-REFILL", pos, reason="missing", room=i + 1, left=data.bag_total())
            data.rooms[i] = None  # filled, but with what the record does not say
            data.due.remove(i)
        _keep_start(data)

    def _turn_end(self, ctx: Any) -> None:
        state = ctx.state
        data = self.data(state)
        t = state.turn
        if t is None or data.bought_turn != t.number or data.buyer != t.player:
            return
        buyer = state.players[t.player]
        pos = data.pos or t.pos
        if state.checking:
            self._unplaced(state, buyer, pos, "buyer")
        if data.pending and len(state.players) == 2 and state.dirk is not None:
            self._to_dirk(state, pos)
        data.bought_turn = None
        data.idle_end = True
        if not data.pending:
            self._after_hand_over(state)
            return
        stage = Stage(
            "hand-over",
            self.name,
            left_of(state, buyer.index),
            StageOrder.SEATS,
            (PUT, "truhe"),
            required=False,
            pos=pos,
            source=S_PUT,
            data=HandOver(0),
        )
        open_stage(ctx, stage)

    def _to_dirk(self, state: GameState, pos: Pos) -> None:
        """ "Beim 2-Personen-Spiel werden Schatztruhen, die nicht platziert werden können, immer
        zuerst an Dirk ... weitergegeben, bei dem sie auf passende Gebäude platziert werden"."""
        data = self.data(state)
        tiles = state.dirk or []
        free = Counter(
            t.type.code for t in tiles if t is not None and isinstance(t.type, BuildingType)
        )
        free.subtract(data.dirk)
        taken: list[str] = []
        for c in list(data.pending):
            if free[c] > 0:
                free[c] -= 1
                taken.append(c)
                data.pending.remove(c)
                data.dirk[c] += 1
        if any(t is None for t in tiles):
            state.note(pos, "UNVERIFIED-CHEST-DIRK", taken=chest_list(taken))

    def stage_line(self, ctx: Any, stage: Stage, player: PlayerState, line: Turn) -> None:
        """A player the chests are handed on to places some (``Cem: chest C @2,2``)."""
        state = ctx.state
        data = self.data(state)
        if self.option("neighbours") == "must" and state.checking:
            self._skipped(state, stage, player.index, line.pos)
        for act in line.actions:
            if not isinstance(act, ModuleAction) or act.verb.lower() not in (PUT, "truhe"):
                continue
            if state.checking:
                report(state, self.chest_findings(ctx, player, act))
            self._put(state, player, act)
        if self.option("neighbours") == "must" and state.checking:
            self._unplaced(state, player, line.pos, "neighbour")
        stage.data.next = stage.players.index(player.index) + 1
        if not data.pending:
            stage.finish()

    def _skipped(self, state: GameState, stage: Stage, upto: int | None, pos: Pos) -> None:
        """neighbours=must: the players the hand-over passed without a line had to place."""
        end = stage.players.index(upto) if upto is not None else len(stage.players)
        for i in stage.players[stage.data.next : end]:
            self._unplaced(state, state.players[i], pos, "neighbour")

    def stage_closed(self, ctx: Any, stage: Stage) -> None:
        """ "Truhen, die von keinem Spieler platziert werden können, gehen zurück in den
        Beutel." """
        state = ctx.state
        data = self.data(state)
        if self.option("neighbours") == "must" and state.checking and data.pending:
            self._skipped(state, stage, None, ctx.pos or stage.pos)
        data.pending.clear()
        self._after_hand_over(state)

    def _after_hand_over(self, state: GameState) -> None:
        """The rest is back in the bag: an emptied room is filled again, or, with fewer than 4
        chests left, stays empty and no more are laid out."""
        data = self.data(state)
        data.pending.clear()
        data.buyer = None
        if data.due and data.bag_total() < per_room():
            data.stopped = True
            data.due.clear()
            _keep_start(data)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() not in (PUT, "truhe"):
            return None
        name = turn.player.name if turn.player is not None else None
        state.flag("CHEST-PASS", acts[0].pos, name)
        return []

    def legal_stage_lines(self, ctx: Any, stage: Stage, player: PlayerState) -> list[Turn]:
        """Every chest the player can place (one line), or each one alone."""
        state = ctx.state
        moves = self._placements(state, player)
        if not moves:
            return []
        lines = [Turn(None, PlayerRef(player.name), tuple(moves))]
        if len(moves) > 1:
            lines += [Turn(None, PlayerRef(player.name), (m,)) for m in moves]
        return lines

    def _placements(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        """A chest on a free building of its colour for as many held chests as can go."""
        out: list[ModuleAction] = []
        for c, n in sorted(Counter(self.data(state).pending).items()):
            for at in self.free_cells(state, player, c)[:n]:
                out.append(ModuleAction(PUT, (GenericArg(c), GenericArg(at))))
        return out

    # ------------------------------------------------------------------ redesign

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """ "Wird ein Gebäude mit Schatztruhe abgebaut, wird die Truhe zurück in den Beutel
        gelegt." """
        self.data(state).on.get(player.name, {}).pop(at, None)
        return []

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """The chest majority at every scoring: "Wer die meisten Truhen hat, bekommt die Punkte
        für den 1. Platz ... Bei Gleichstand ... wie in den Wertungen der Gebäude"."""
        data = self.data(state)
        counts = {name: len(held) for name, held in data.on.items()}
        dirk = sum(data.dirk.values())

        def quantity(p: Any) -> int:
            if p.is_dirk:
                return dirk
            return int(counts.get(p.name, 0))

        table = points_table()
        return ScoringParts(
            categories=(
                Majority(
                    "chests",
                    "chests",
                    "Schatztruhen",
                    S_SCORE,
                    quantity=quantity,
                    table=lambda r: table.get(r, ()),
                ),
            )
        )

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        data = self.data(state)
        if player is not None:
            held = data.on.get(player.name, {})
            return [
                ModuleAction(PUT, (GenericArg(c), GenericArg(at)))
                for at, c in sorted(held.items(), key=lambda kv: (-kv[0].y, kv[0].x))
            ]
        out: list[ModuleAction] = []
        for i, room in enumerate(data.rooms):
            if room is None:
                continue
            # an emptied room waiting for its refill line is "due"; "empty" once refills stopped
            empty = "due" if i in data.due else "empty"
            words = [GenericArg(c) for c in room] or [GenericArg(empty)]
            out.append(ModuleAction(BUY, (GenericArg(i + 1), *words)))
        if data.dirk:
            chests = sorted(data.dirk.elements(), key=COLOURS.index)
            out.append(ModuleAction(BUY, (GenericArg("dirk"), *(GenericArg(c) for c in chests))))
        t = state.turn
        if t is not None and data.bought_turn == t.number and data.buyer == t.player:
            held = (GenericArg(c) for c in data.pending)
            out.append(ModuleAction(BUY, (GenericArg("bought"), *held)))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        data = self.data(state)
        pos = line.pos
        if player is not None and verb in (PUT, "truhe"):
            c, at, token = self._chest_args(line)
            if c is None:
                state.flag("CHEST-TOKEN", pos, player.name, token=token)
                return True
            if at is None:
                return True
            report(state, self._cell_findings(state, player, c, at, pos))
            self._check_bag(state, [c], pos)
            held = data.chests_of(player.name)
            if player.alhambra.get(at) is not None and at not in held:
                held[at] = c
            return True
        if player is not None or verb not in (BUY, "truhen") or not line.args:
            return False
        head = line.args[0].value
        if isinstance(head, str) and head.lower() in BOUGHT:
            self._position_bought(state, line)
            return True
        if isinstance(head, str) and head.lower() in DIRK_WORDS:
            drawn = self._colours(state, line.args[1:], pos, None)
            self._check_bag(state, drawn, pos)
            data.dirk.update(drawn)
            return True
        if not isinstance(head, int) or not 1 <= head <= rooms_count():
            state.flag("CHEST-ROOM", pos, reason="number", room=token_text(head))
            return True
        rest = line.args[1:]
        if (
            len(rest) == 1
            and isinstance(rest[0].value, str)
            and rest[0].value.lower() in EMPTY_WORDS
        ):
            data.rooms[head - 1] = []
            data.stopped = True  # a room stays empty only once the refills have stopped
            return True
        if len(rest) == 1 and isinstance(rest[0].value, str) and rest[0].value.lower() in DUE:
            data.rooms[head - 1] = []
            if head - 1 not in data.due:
                data.due.append(head - 1)  # emptied, its refill line comes next
                data.idle_start = None
            data.setup_told = True
            return True
        drawn = self._colours(state, rest, pos, None)
        if len(drawn) != per_room():
            state.flag("CHEST-REFILL", pos, reason="count", room=head, n=len(drawn))
        data.rooms[head - 1] = []  # replaced: the old content is not counted against the bag
        self._check_bag(state, drawn, pos)
        data.rooms[head - 1] = drawn
        data.setup_told = True
        return True

    def _position_bought(self, state: GameState, line: ModuleAction) -> None:
        """``chests bought G R`` after a ``turn`` line: the open turn's player bought the
        chests of a room and holds these, not placed yet ("Die Schatztruhen müssen in dem Zug,
        in dem sie gekauft wurden, auf farblich passende Gebäude verteilt werden", Big Box
        L1589-1591; none: all placed, the hand-over and the refill, L1548-1559, still to come
        at the turn's end)."""
        data = self.data(state)
        t = state.turn
        if t is None:
            form = "'chests bought COLOUR ...' after a 'turn' line"
            state.flag("POSITION-INVALID", line.pos, reason="turn-state", form=form)
            return
        drawn = self._colours(state, line.args[1:], line.pos, None)
        self._check_bag(state, drawn, line.pos)
        data.pending = list(drawn)
        data.buyer = t.player
        data.bought_turn = t.number
        data.idle_end = None
        data.pos = line.pos

    # ------------------------------------------------------------------ drawings

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """A chest on its building, written as the record writes it (``chest G``); its words
        in both languages are in the view."""
        held = self.data(state).on.get(player.name, {})
        return {at: f"{PUT} {c}" for at, c in held.items()}

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        table: dict[str, str] = {}
        for i, room in enumerate(data.rooms):
            table[f"room {i + 1}"] = (
                "unknown" if room is None else (chest_list(room) if room else "empty")
            )
        table["in the bag"] = str(data.bag_total())
        table["refills"] = "stopped" if data.stopped else "go on"
        if data.pending:
            table["being handed on"] = chest_list(data.pending)
        if data.dirk:
            table["Dirk's chests"] = chest_list(sorted(data.dirk.elements(), key=COLOURS.index))
        table["options"] = f"neighbours={self.option('neighbours')}"
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            held = data.on.get(p.name, {})
            if held:
                players[p.name] = {
                    "chests": " ".join(
                        f"{c}@{at}"
                        for at, c in sorted(held.items(), key=lambda kv: (-kv[0].y, kv[0].x))
                    ),
                    "chests now": str(len(held)),
                }
        return self.shown(table, players)

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Buying each room that holds chests (known ones), paid with the fewest large cards
        that reach 8 (no superfluous card)."""
        state = ctx.state
        t = state.turn
        if t is None or t.over or t.placing or player.hand_unknown:
            return []
        data = self.data(state)
        cards = sorted(player.hand.elements(), key=lambda c: (-c.value, c.code))
        paid: list[Any] = []
        total = 0
        for c in cards:
            if total >= price():
                break
            paid.append(c)
            total += c.value
        if total < price():
            return []
        pay = (GenericArg("pay"), *(GenericArg(CardRef(c)) for c in paid))
        return [
            ModuleAction(BUY, (GenericArg(i + 1), *pay))
            for i, room in enumerate(data.rooms)
            if room
        ]

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The buyer places what he can once the tiles bought this turn are placed ("müssen
        ... verteilt werden")."""
        state = ctx.state
        t = state.turn
        if t is None or t.pending or not self._placing(state, player):
            return []
        return self._placements(state, player)

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "Jeweils 4 Truhen werden aus dem Beutel gezogen": the three rooms."""
        return self._fills(sim)

    def sim_refill(self, sim: Any) -> list[Any]:
        """ "Nun wird der geleerte Raum ... mit 4 zufällig gezogenen Truhen wieder gefüllt"."""
        return self._fills(sim)

    def _fills(self, sim: Any) -> list[Any]:
        data = self.data(sim.state)
        bag = Counter(per_colour())
        bag.subtract(data.visible())
        bag.update(data.pending)  # a hand-over still open ends before the draw: back in the bag
        pool = sorted(bag.elements(), key=COLOURS.index)
        out: list[Any] = []
        for i, room in enumerate(data.rooms):
            if data.stopped or not (room is None or i in data.due) or len(pool) < per_room():
                continue
            drawn = sim.rng.sample(pool, per_room())
            for c in drawn:
                pool.remove(c)
            out.append(ModuleChance(BUY, (GenericArg(i + 1), *(GenericArg(c) for c in drawn))))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like chests when they own buildings of a colour in a room."""
        data = self.data(sim.state)
        out = []
        for a in actions:
            n = self._room_arg(a) if isinstance(a, ModuleAction) and a.verb == BUY else None
            if n is not None and 1 <= n <= rooms_count():
                room = data.rooms[n - 1]
                if room and self._could_place(sim.state, player, room):
                    out.append(a)
        return out


@dataclass
class HandOver:
    """The hand-over's own count: the index in its players of the next one who has not
    written a line (neighbours=must checks the players it passed)."""

    next: int = 0

    def copy(self) -> HandOver:
        return HandOver(self.next)


def _keep_start(data: ChestScratch) -> None:
    """Keep the turn's start idle answer (:attr:`ChestScratch.idle_start`) where it may have
    become true: the setup's rooms told and no emptied room waiting for its refill line."""
    data.idle_start = True if data.setup_told and not data.due else None
