"""Die Tore der Stadt (city gates): a gate lets a tile be placed behind a double wall.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE TORE DER STADT (rulings:
``docs/modules/stadttore.md``).

Notation:

* ``* display Gu3 gate:card De4`` -- a gate card revealed: "wird diese neben den Holztoren offen
  bereitgelegt oder auf den Ablagestapel geworfen, falls noch eine Stadttorkarte ausliegt"; it
  takes no place of the display;
* ``take gate:card`` -- "anstelle einer Geldkarte ... die Stadttorkarte auf die Hand nehmen";
* ``buy Di G10w pay Di10, place G10w@2,1, gate @1,1 e`` -- the gate on the double wall between
  1,1 and 2,1 (an edge piece of the geometry platform, E22: it opens the edge for the walker and
  locks both tiles against redesign).

The rules:

- one gate card and one wooden gate per player; the cards go into money piles 3-5
  (``GATE-SUPPLY``, ``GATE-PILE``);
- the card is taken alone instead of money (``GATE-TAKE``, switch ``take``);
- "Vielmehr erlaubt das Stadttor, ein Gebäudeplättchen zu legen, das nur durch Doppelmauer(n)
  mit der Alhambra verbunden ist und nicht „zu Fuß“ vom Startplättchen aus erreichbar ist":
  ``PLACE-WALK`` waits for the gate while the player holds a card for it; "Auf eine entstandene
  Doppelmauer wird ein Holztor gesetzt" (``GATE-EDGE``, ``GATE-NEW-TILE``, switch ``where``;
  ``GATE-NO-CARD``); the turn cannot end with the tile cut off (``GATE-MISSING``);
- "Weder ein platziertes Stadttor noch die beiden darunter liegenden Gebäudeplättchen dürfen
  umgebaut werden": the gate ``locks`` its two tiles (``REMOVE-LOCKED``, the geometry's check);
- "Das eingesetzte Stadttor „öffnet“ die Stadtmauer": the gate ``opens`` the edge for every later
  walk; the double wall under it never scores (an inner wall).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.catalogue import SIDES, Side
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, acts_at
from referee.engine.findings import Finding, problem
from referee.engine.fmt import NOTHING
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import Arg, VerbSpec
from referee.geometry import reachable
from referee.geometry.layers import Edge, edge_cells, edge_key, edge_text, read_edge, wall_between
from referee.geometry.pieces import Footprint, profile_of
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    check_pile,
    module_data,
)
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    Pos,
    TakeMoney,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KIND = "gate"
CARD = "card"
VERB = "gate"
NAME = "stadttore"


@dataclass(frozen=True, slots=True)
class Gate:
    """A wooden gate on an edge (E22): opens the double wall for the walker, locks both tiles.

    ``pos`` (the record line that set it) takes no part in equality: two gates are alike."""

    footprint: Footprint = Footprint.EDGE
    opens: bool = True
    locks: bool = True
    walls: frozenset[Side] = frozenset()
    type: None = None
    code: str = "gate"
    cell_label: str = "G"
    pos: Pos = field(default=NOWHERE, compare=False)

    def __str__(self) -> str:
        return "gate"


def _data() -> dict[str, Any]:
    return dict(module_data(NAME)["components"]["gate_cards"])


def piles() -> tuple[int, ...]:
    return tuple(int(p) for p in _data()["piles"])


def split(n: int) -> dict[int, int]:
    """``n`` cards "möglichst gleichmäßig verteilt" over piles 3, 4, 5 (the first piles take
    what is left over: not stated, and the check does not depend on it)."""
    ps = piles()
    out = {p: n // len(ps) for p in ps}
    for p in ps[: n % len(ps)]:
        out[p] += 1
    return out


def _order(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


_NONE = object()  # (no piece on the cell at the turn's start: equal to no piece)
_TURN_END = Moment.TURN_END


@dataclass
class GateScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    open: int = 0  # face up beside the wooden gates (0 or 1)
    discard: int = 0  # gate cards on the discard pile (they come back on a reshuffle)
    held: dict[str, int] = field(default_factory=dict)
    used: dict[str, int] = field(default_factory=dict)  # gates set (cards out of the game)
    cut: dict[str, list[Coord]] = field(default_factory=dict)  # unreachable at the turn start

    def out_of_deck(self) -> int:
        return self.open + self.discard + sum(self.held.values()) + sum(self.used.values())


@bundled
class Stadttore(BundledModule):
    """Gate cards beside the display; gates on double walls of tiles placed behind them."""

    verb_specs = (VerbSpec(VERB, kind=ActionKind.FREE, args=(Arg.COORD, Arg.WORD)),)
    component_kinds = (KIND,)
    scratch_type = GateScratch
    # each player's cells at the start of his last turn, kept by the engine
    # (``GameState.turn_start``; :meth:`_fresh`): no step of the module at a turn's start
    reads_turn_start = True

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.held = {p.name: 0 for p in state.players}
        scratch.used = {p.name: 0 for p in state.players}

    def cards(self, state: GameState) -> int:
        """How many gate cards (and wooden gates) are in play: one per player."""
        return int(_data()["per_player"]) * len(state.players)

    def held(self, state: GameState, player: PlayerState) -> int:
        return int(self.data(state).held.get(player.name, 0))

    def gates(self, player: PlayerState) -> list[Edge]:
        """The edges where ``player``'s gates stand."""
        layers = player.alhambra.layers
        if layers is None:
            return []
        return sorted(
            (e for e, piece in layers.edges.items() if isinstance(piece, Gate)),
            key=lambda e: (*_order(e[0]), e[1].value),
        )

    # ------------------------------------------------------------------ the deck

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        return {p: [None] * n for p, n in split(self.cards(state)).items() if n}

    def display_place(self, ref: ComponentRef) -> bool:
        """A gate card is laid beside the wooden gates, not into the display."""
        return False

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        """ "Wird eine Stadttorkarte aufgedeckt, wird diese neben den Holztoren offen
        bereitgelegt oder auf den Ablagestapel geworfen, falls noch eine Stadttorkarte
        ausliegt." """
        data = self.data(state)
        if not self._token_ok(state, ref, pos, None):
            return []
        if data.out_of_deck() >= self.cards(state):
            state.flag("GATE-SUPPLY", pos, n=self.cards(state))
        self._check_pile(state, pos)
        if data.open:
            data.discard += 1
        else:
            data.open = 1
        return []

    def _check_pile(self, state: GameState, pos: Pos) -> None:
        check_pile(state, pos, "GATE-PILE", piles())

    def _token_ok(self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None) -> bool:
        if ref.name.lower() == CARD:
            return True
        state.flag("GATE-CARD", pos, who, token=f"{ref.kind}:{ref.name}")
        return False

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Any]:
        """ "Ab jetzt darf man anstelle einer Geldkarte [oder Wechselstube] auch die
        Stadttorkarte auf die Hand nehmen": the whole take (switch ``take``)."""
        data = self.data(state)
        pos = ref.pos or action.pos
        if not self._token_ok(state, ref, pos, player.name):
            return []
        first = next(c for c in action.cards if isinstance(c, ComponentRef))
        if len(action.cards) != 1 and first is ref and self.option("take") == "alone":
            shown = " ".join(
                f"{c.kind}:{c.name}" if isinstance(c, ComponentRef) else str(c)
                for c in action.cards
            )
            state.flag("GATE-TAKE", action.pos, player.name, reason="with-money", cards=shown)
        if data.open:
            data.open -= 1
        elif not state.deck_uncertain:
            state.flag("GATE-TAKE", pos, player.name, reason="none-open")
        data.held[player.name] = data.held.get(player.name, 0) + 1
        return []

    def reshuffle(self, state: GameState, pos: Pos) -> list[Any]:
        """A gate card thrown on the discard pile is shuffled back with it (a card like any
        other on that pile)."""
        self.data(state).discard = 0
        return []

    # ------------------------------------------------------------------ the gate

    def _edge(self, action: ModuleAction) -> Edge | None:
        args = [a.value for a in action.args]
        if len(args) == 2 and isinstance(args[0], Coord) and isinstance(args[1], str):
            return read_edge(args[0], args[1])
        return None

    def _fresh(self, state: GameState, player: PlayerState) -> set[Coord]:
        """The cells of ``player``'s Alhambra whose tile was laid in this turn."""
        before = state.turn_start.get(player.index)
        if before is None:
            return set()
        # (c, piece) not among the pairs of the start: no piece there then, or another one
        return {
            c
            for c, piece in player.alhambra.items()
            if (was := before.get(c, _NONE)) is not piece and was != piece
        }

    def gate_findings(
        self, state: GameState, player: PlayerState, edge: Edge | None, pos: Pos, line: str
    ) -> list[Finding]:
        """What is wrong with ``player`` setting a gate on ``edge`` now (pure)."""
        if edge is None:
            return [problem("GATE-EDGE", pos, player.name, reason="form", edge=line)]
        out: list[Finding] = []
        where = edge_text(edge)
        if self.held(state, player) <= 0:
            out.append(problem("GATE-NO-CARD", pos, player.name, edge=where))
        if player.counts is not None or player.alhambra_unknown:
            return out
        alh = player.alhambra
        a, b = edge_cells(edge)
        if a not in alh or b not in alh:
            return [*out, problem("GATE-EDGE", pos, player.name, reason="no-tiles", edge=where)]
        if alh.edge(*edge) is not None:
            return [*out, problem("GATE-EDGE", pos, player.name, reason="occupied", edge=where)]
        if not wall_between(alh.cells, alh.layers, edge[0], edge[1]).double:
            return [*out, problem("GATE-EDGE", pos, player.name, reason="not-double", edge=where)]
        fresh = self._fresh(state, player)
        if self.option("where") == "new" and not ({a, b} & fresh):
            out.append(problem("GATE-NEW-TILE", pos, player.name, edge=where))
        reach = reachable(alh)
        if a in reach and b in reach:
            out.append(problem("GATE-NEEDLESS", pos, player.name, severity="warning", edge=where))
        return out

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        line = " ".join(str(a.value) for a in action.args) or NOTHING
        return self.gate_findings(ctx.state, player, self._edge(action), action.pos, line)

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The gate is set and its card leaves the game ("Die eingesetzte Stadttorkarte kommt
        aus dem Spiel")."""
        edge = self._edge(action)
        if edge is None or player.counts is not None or player.alhambra_unknown:
            return []
        a, b = edge_cells(edge)
        alh = player.alhambra
        if a not in alh or b not in alh or alh.edge(*edge) is not None:
            return []
        alh.place_edge(edge[0], edge[1], Gate(pos=action.pos))
        data = self.data(state)
        data.held[player.name] = max(0, data.held.get(player.name, 0) - 1)
        data.used[player.name] = data.used.get(player.name, 0) + 1
        return []

    @refines(Decision.PLACE_PROBLEMS)
    def walk_waits_for_the_gate(
        self,
        ctx: Any,
        problems: list[Any],
        *,
        player: Any,
        at: Any,
        piece: Any,
        how: str = "place",
        **_: Any,
    ) -> list[Any]:
        """``PLACE-WALK`` waits for the gate ("erlaubt das Stadttor, ein Gebäudeplättchen zu
        legen, das nur durch Doppelmauer(n) mit der Alhambra verbunden ist") while the player
        holds a card for it and a gate on a double wall of the new tile would open the way."""
        if not any(p.code == "PLACE-WALK" for p in problems):
            return problems
        if piece is None or not isinstance(at, Coord) or player is None:
            return problems
        state = ctx.state
        t = state.turn
        if how == "distribute":
            # the leftover distribution at the end ("Das Ausspielen bzw. Einsetzen
            # eines Stadttores ist kein eigener Spielzug. Vielmehr erlaubt das Stadttor, ein
            # Gebäudeplättchen zu legen ..."): a gate is set in one's own turn, and no turn
            # follows the distribution to set it in, so the walker rule stands
            return problems
        if t is not None and (t.player != player.index or t.interrupt is not None):
            return problems  # a gate is set in one's own turn only (not with the vizier)
        if ctx.out_of_turn:
            return problems  # asked for an out-of-turn line (a vizier's purchase)
        spare = self.held(state, player) - len(self._waiting(state, player))
        if spare <= 0:
            return problems
        trial = player.alhambra.copy()
        if not trial.place_if_empty(at, piece):
            return problems
        if self._opening_gates(trial, at):
            return [p for p in problems if p.code != "PLACE-WALK"]
        return problems

    def leaves_plain_placement(
        self, state: GameState, player: PlayerState, at: Coord, tile: Any
    ) -> bool:
        """:meth:`walk_waits_for_the_gate` returns the problems it is given while ``player``
        holds no gate card (no card to spare for a gate), whatever the placement."""
        data = state.modules.get(NAME)
        return data is None or data.held.get(player.name, 0) <= 0

    @staticmethod
    def _opening_gates(alh: Any, at: Coord) -> list[Edge]:
        """The double walls of the tile on ``at`` whose gate makes it reachable on foot (of
        printed walls only: with Die Mauern "dürfen nur aufgedruckte Mauern überbaut werden")."""
        out: list[Edge] = []
        for side in SIDES:
            edge = edge_key(at, side)
            if alh.edge(*edge) is not None or at.neighbour(side) not in alh:
                continue
            if side in alh.overlay(at) or side.opposite in alh.overlay(at.neighbour(side)):
                continue  # an added wall: "nur aufgedruckte Mauern" (Die Mauern)
            if wall_between(alh.cells, alh.layers, at, side).double:
                with_gate = alh.copy()
                with_gate.place_edge(at, side, Gate())
                if at in reachable(with_gate):
                    out.append(edge)
        return out

    def _waiting(self, state: GameState, player: PlayerState) -> list[Coord]:
        """Tiles laid in this turn that cannot be reached on foot (they wait for a gate); a
        piece the walk rule does not bind (a camp: "Die „Fußgänger-Regel” [aus dem
        Basisspiel] gilt nicht für Feldlager", § DIE FELDLAGER) waits for nothing."""
        if player.counts is not None or player.alhambra_unknown:
            return []
        alh = player.alhambra
        reach = reachable(alh)
        return sorted(
            (
                c
                for c in self._fresh(state, player)
                if c not in reach and not profile_of(alh.cells.get(c)).walk_exempt
            ),
            key=_order,
        )

    idle_moments = frozenset({Moment.TURN_END})  # (where idle_at may say yes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """At a turn's end: idle when every tile of the mover's Alhambra is reachable on foot
        (the kept geometry's ``reach`` is None), so no tile waits for a gate; or when nothing is
        checked, or his Alhambra is not known tile by tile (:meth:`_waiting` finds nothing)."""
        if moment is not _TURN_END:
            return False
        t = state.turn
        if t is None or not state.checking:
            return True
        player = state.players[t.player]
        if player.counts is not None or player.alhambra_unknown:
            return True
        # (the kept geometry read as a plain attribute: no call of the ``geometry`` property
        # at every turn's end; built through it the first time)
        geo = player.alhambra.kept_geometry
        if geo is None:
            geo = player.alhambra.geometry
        return geo.reach is None

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """At the turn's end every tile laid in the turn must be reachable on foot ("und damit
        die Fußgänger-Regel wieder erfüllt"); the tiles of the turn's start are the engine's
        (:attr:`reads_turn_start`)."""
        state = ctx.state
        t = state.turn
        super().at_moment(ctx, moment)
        if t is None or moment is not _TURN_END:
            return
        player = state.players[t.player]
        waiting = self._waiting(state, player)
        if waiting and state.checking:
            where = ", ".join(str(c) for c in waiting)
            ctx.flag("GATE-MISSING", ctx.pos or t.pos, player.name, cells=where)

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``gate open N discard N`` (the table, when a card lies open or discarded) and
        ``gate @x,y e`` for each gate of a player."""
        if player is None:
            data = self.data(state)
            if not (data.open or data.discard):
                return []
            words = ("open", data.open, "discard", data.discard)
            return [ModuleAction(VERB, tuple(GenericArg(w) for w in words))]
        return [
            ModuleAction(VERB, (GenericArg(at), GenericArg(side.value.lower())))
            for at, side in self.gates(player)
        ]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() != VERB:
            return False
        data = self.data(state)
        args = [a.value for a in line.args]
        text = " ".join(str(a) for a in args)
        if player is None:
            if (
                len(args) == 4
                and args[0] == "open"
                and args[2] == "discard"
                and isinstance(args[1], int)
                and isinstance(args[3], int)
            ):
                data.open, data.discard = args[1], args[3]
                self._position_supply(state, line.pos, text)
            else:
                state.flag("GATE-POSITION", line.pos, reason="form", line=f"gate {text}")
            return True
        edge = self._edge(line)
        if edge is None or player.alhambra.edge(*edge) is not None:
            state.flag("GATE-POSITION", line.pos, player.name, reason="form", line=f"gate {text}")
            return True
        player.alhambra.place_edge(edge[0], edge[1], Gate(pos=line.pos))
        data.used[player.name] = data.used.get(player.name, 0) + 1
        self._position_supply(state, line.pos, text)
        return True

    def _position_supply(self, state: GameState, pos: Pos, text: str) -> None:
        if self.data(state).out_of_deck() > self.cards(state):
            n = self.cards(state)
            state.flag("GATE-POSITION", pos, reason="too-many", line=f"gate {text}", n=n)

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        if player is None:
            return []
        return [ComponentRef(KIND, CARD)] * self.held(state, player)

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        if where != "hand" or player is None or ref.kind.lower() != KIND:
            return False, None
        if self._token_ok(state, ref, ref.pos, player.name):
            data = self.data(state)
            data.held[player.name] = data.held.get(player.name, 0) + 1
            self._position_supply(state, ref.pos, f"{ref.kind}:{ref.name}")
        return True, None

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        players: dict[str, dict[str, object]] = {}
        for p in state.players:
            held, gates = self.held(state, p), self.gates(p)
            if held or gates:
                players[p.name] = {
                    "gate cards": held,
                    "gates": " ".join(edge_text(e) for e in gates) or "none",
                }
        return self.shown(
            {
                "open beside the gates": data.open,
                "on the discard pile": data.discard,
                "still in the deck": max(0, self.cards(state) - data.out_of_deck()),
            },
            players,
        )

    # ------------------------------------------------------------------ moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The open gate card taken (alone), and the gates a placement of this turn waits
        for (:meth:`owed_actions`)."""
        state = ctx.state
        out: list[Any] = []
        if self.data(state).open:
            out.append(TakeMoney((ComponentRef(KIND, CARD),)))
        return out + self.owed_actions(ctx, player)

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The gates on double walls of a tile laid in this turn that cannot be reached on
        foot, each one that makes it reachable; the turn cannot end before one is set."""
        state = ctx.state
        if state.turn is None or state.players[state.turn.player] is not player:
            return []
        if self.held(state, player) <= 0:
            return []
        alh = player.alhambra
        out: list[Any] = []
        for at in self._waiting(state, player):
            for edge in self._opening_gates(alh, at):
                side_word = edge[1].value.lower()
                act = ModuleAction(VERB, (GenericArg(edge[0]), GenericArg(side_word)))
                if act not in out:
                    out.append(act)
        return out

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """ "kommen die Stadttorkarten – möglichst gleichmäßig verteilt – verdeckt in den 3., 4.
        und 5. Stapel"."""
        n = self.cards(sim.state)
        return {p: [ComponentRef(KIND, CARD)] * k for p, k in split(n).items() if k}

    def sim_reshuffle(self, sim: Any) -> list[object]:
        return [ComponentRef(KIND, CARD)] * self.data(sim.state).discard

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players take an open gate card (so that simulated games use gates)."""
        return [
            a
            for a in actions
            if isinstance(a, TakeMoney)
            and any(isinstance(c, ComponentRef) and c.kind.lower() == KIND for c in a.cards)
        ]
