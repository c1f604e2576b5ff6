"""Die Mauern (city walls): wooden walls built on own tiles, counting like printed ones.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE MAUERN (rulings: ``docs/modules/mauern.md``).

Notation:

* ``* display Gu3 wl:ne Di5`` -- a wall card revealed: "wird diese neben dem Plan offen
  bereitgelegt" (several may lie there); it takes no place of the display;
* ``wall wl:ne @1,1`` -- the action "Mauer errichten": the card's walls built with sticks on the
  own tile at 1,1 (the fountain too); ``wall wl:ne T9`` on a tile in the reserve or bought in
  this turn (the walls go with it, E21 of the geometry platform: ``carry_walls``).

The rules:

- 8 cards, 2 each in money piles 2-5; 12 sticks (``MAUERN-SUPPLY``, ``MAUERN-PILE``);
- the card lies open beside the board (``MAUERN-NOT-OPEN``); one or two sides
  (``MAUERN-CARD``); "wie abgebildet" (``MAUERN-TURN``, switch ``rotate``);
- "auf einem beliebigen eigenen Gebäudeplättchen" (``MAUERN-TILE``); "Die vorhandenen
  aufgedruckten Mauern dürfen hierbei nicht überbaut werden" (``MAUERN-COVERED``);
- "Auch nach dem Bauen einer Mauer muss die Alhambra gemäß den Bauregeln aufgebaut sein"
  (``LAYOUT-BROKEN``, the platform's re-validation);
- "Bei den Wertungen zählen die Mauern wie die aufgedruckten Mauern": the overlay is part of the
  effective walls (``referee.geometry.layers.wall_between``), so every wall count uses it;
- "Mit einem Stadttor aus Holz dürfen nur aufgedruckte Mauern überbaut werden"
  (``MAUERN-GATE``, with Die Tore der Stadt).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.catalogue import SIDES, Side, TileKind
from referee.engine.actions.layer_rules import layout_now, revalidate
from referee.engine.context import Context
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.fmt import NOTHING
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.geometry.layers import edge_cells, edge_text
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    check_pile,
    module_data,
)
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, Pos, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KIND = "wl"
VERB = "wall"
NAME = "mauern"
ORDER = "nesw"
DOING = Text("ACTION/building-wall")


def _cards() -> dict[str, Any]:
    return dict(module_data(NAME)["components"]["wall_cards"])


def card_count() -> int:
    return int(_cards()["count"])


def stick_count() -> int:
    return int(module_data(NAME)["components"]["sticks"]["count"])


def pile_counts() -> dict[int, int]:
    return {int(k): int(v) for k, v in _cards()["piles"].items()}


def sides_text(sides: frozenset[Side]) -> str:
    return walls_token(sides)


def parse_card(ref: object) -> frozenset[Side] | None:
    """The sides a wall card token shows (``wl:ne``): one or two; None when it is no card."""
    if not isinstance(ref, ComponentRef) or ref.kind.lower() != KIND:
        return None
    sides = read_walls(ref.name.lower())
    if sides is None or not 1 <= len(sides) <= 2:
        return None
    return sides


def _turns(sides: frozenset[Side]) -> list[frozenset[Side]]:
    """The four turns of a wall pattern."""
    out = []
    cur = sides
    for _ in range(4):
        out.append(cur)
        cur = frozenset(SIDES[(SIDES.index(s) + 1) % 4] for s in cur)
    return out


def _card_ref(sides: frozenset[Side]) -> ComponentRef:
    return ComponentRef(KIND, sides_text(sides))


def _card_text(sides: frozenset[Side]) -> str:
    return f"{KIND}:{sides_text(sides)}"


@dataclass(frozen=True)
class Target:
    """Where a wall is built: a cell of the Alhambra (``at``), or a tile outside it."""

    where: str  # as written, for messages
    at: Coord | None
    piece: Any
    walls: frozenset[Side]  # what it shows already: printed and added


@dataclass
class WallScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    open: list[frozenset[Side]] = field(default_factory=list)  # beside the board
    revealed: int = 0
    used: list[tuple[str, str, str]] = field(default_factory=list)  # player, card, where
    sticks: int = 0
    gates_told: list[tuple[str, Any]] = field(default_factory=list)  # MAUERN-GATE reported


@bundled
class Mauern(BundledModule):
    """Wall cards beside the board; the action builds their walls on an own tile."""

    verb_specs = (VerbSpec(VERB),)
    component_kinds = (KIND,)
    scratch_type = WallScratch

    # ------------------------------------------------------------------ the deck

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        return {p: [None] * n for p, n in pile_counts().items()}

    def display_place(self, ref: ComponentRef) -> bool:
        """A wall card is laid beside the board, not into the display."""
        return False

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        """ "Wird während des Spiels eine Mauerkarte aufgedeckt, wird diese neben dem Plan offen
        bereitgelegt. (Es können auch mehrere Karten offen ausliegen.)" """
        data = self.data(state)
        sides = self._card(state, ref, pos, None)
        if sides is None:
            return []
        if data.revealed >= card_count():
            state.flag("MAUERN-SUPPLY", pos, reason="cards")
        self._check_pile(state, pos)
        data.revealed += 1
        data.open.append(sides)
        return []

    def _card(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> frozenset[Side] | None:
        sides = parse_card(ref)
        token = f"{ref.kind}:{ref.name}"
        if sides is None:
            state.flag("MAUERN-CARD", pos, who, token=token)
            return None
        if len(sides) == 2 and next(iter(sides)).opposite in sides:
            state.flag("MAUERN-CARD-UNVERIFIED", pos, who, severity="warning", token=token)
        return sides

    def _check_pile(self, state: GameState, pos: Pos) -> None:
        check_pile(state, pos, "MAUERN-PILE", pile_counts())

    # ------------------------------------------------------------------ the action

    def _parts(
        self, action: ModuleAction
    ) -> tuple[ComponentRef, Coord | TileRef, frozenset[Side] | None] | None:
        """``wall CARD WHERE [SIDES]`` read: the card, the tile, the sides built (None: as the
        card shows); None when the line has another shape."""
        args = [a.value for a in action.args]
        if len(args) not in (2, 3) or not isinstance(args[0], ComponentRef):
            return None
        if not isinstance(args[1], Coord | TileRef):
            return None
        built = None
        if len(args) == 3:
            built = read_walls(str(args[2]).lower())
            if built is None:
                return None
        return args[0], args[1], built

    def _target(
        self, state: GameState, player: PlayerState, where: Coord | TileRef
    ) -> Target | None:
        """The own tile a wall goes on: a cell of the Alhambra, or a tile of the reserve or
        bought in this turn (not yet placed)."""
        alh = player.alhambra
        if isinstance(where, Coord):
            piece = alh.get(where)
            if piece is None:
                return None
            return Target(f"@{where}", where, piece, piece.walls | alh.overlay(where))
        pending: list[Any] = []
        t = state.turn
        if t is not None and t.player == player.index:
            pending = list(t.pending)
        for piece in [*pending, *player.reserve]:
            tile = getattr(piece, "carried_tile", piece)
            if isinstance(tile, TileKind) and tile in where.candidates:
                return Target(tile.code, None, piece, piece.walls | alh.carried_walls(piece))
        return None

    def wall_findings(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        """What is wrong with ``action`` (pure); the layout after the walls is judged when they
        are built (``LAYOUT-BROKEN``)."""
        pos, who = action.pos, player.name
        parts = self._parts(action)
        line = " ".join(str(getattr(a.value, "name", a.value)) for a in action.args)
        if parts is None:
            return [problem("MAUERN-WALL", pos, who, reason="form", line=line or NOTHING)]
        ref, where, built = parts
        card = parse_card(ref)
        token = f"{ref.kind}:{ref.name}"
        if card is None:
            return [problem("MAUERN-CARD", ref.pos or pos, who, token=token)]
        out: list[Finding] = []
        data = self.data(state)
        if card not in data.open and not state.deck_uncertain:
            shown = " ".join(_card_text(c) for c in data.open) or "none"
            out.append(problem("MAUERN-NOT-OPEN", pos, who, token=token, open=shown))
        sides = card if built is None else built
        if built is not None and built != card:
            if self.option("rotate") == "shown":
                out.append(
                    problem(
                        "MAUERN-TURN",
                        pos,
                        who,
                        reason="shown",
                        built=sides_text(built),
                        token=token,
                    )
                )
            elif built not in _turns(card):
                out.append(
                    problem(
                        "MAUERN-TURN", pos, who, reason="any", built=sides_text(built), token=token
                    )
                )
        left = stick_count() - data.sticks
        if len(sides) > left:
            out.append(
                problem("MAUERN-SUPPLY", pos, who, reason="sticks", need=len(sides), left=left)
            )
        if player.counts is not None or player.alhambra_unknown:
            return out
        target = self._target(state, player, where)
        if target is None:
            shown = f"@{where}" if isinstance(where, Coord) else str(getattr(where, "kind", where))
            return [*out, problem("MAUERN-TILE", pos, who, where=shown)]
        covered = sides & target.walls
        if covered:
            out.append(
                problem(
                    "MAUERN-COVERED",
                    pos,
                    who,
                    where=target.where,
                    sides=sides_text(covered).upper(),
                )
            )
        return out

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        return self.wall_findings(ctx.state, player, action)

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """ "Ein Spieler darf sich eine beliebige offen ausliegende Mauerkarte nehmen. Er baut
        nun die dort dargestellten Mauern ... nach": a whole action (nothing is paid, so no
        extra action follows); the card leaves the game."""
        ctx = Context(state)
        ctx.main_action(action.pos, player, DOING)
        parts = self._parts(action)
        card = None if parts is None else parse_card(parts[0])
        if parts is not None and card is not None:
            self._build(state, player, action, parts[1], card if parts[2] is None else parts[2])
            data = self.data(state)
            if card in data.open:
                data.open.remove(card)
        ctx.end_main_action(DOING)
        return []

    def _build(
        self,
        state: GameState,
        player: PlayerState,
        action: ModuleAction,
        where: Coord | TileRef,
        sides: frozenset[Side],
    ) -> None:
        if player.counts is not None or player.alhambra_unknown:
            return
        target = self._target(state, player, where)
        if target is None:
            return
        sides = sides - target.walls  # never over a wall (reported by the check)
        data = self.data(state)
        data.sticks += len(sides)
        data.used.append((player.name, sides_text(sides), target.where))
        if not sides:
            return
        alh = player.alhambra
        if target.at is None:
            alh.carry_walls(target.piece, sides)
            return
        before = layout_now(player) if state.checking else []
        alh.add_overlay(target.at, sides)
        if state.checking:
            change = f"wall {target.where} {sides_text(sides)}"
            Context(state).report(revalidate(player, action.pos, change, before))

    # ------------------------------------------------------------------ with Die Tore der Stadt

    idle_moments = frozenset({Moment.TURN_END})  # (where idle_at may say yes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """At a turn's end: idle when nothing is checked or no piece lies on an edge of the
        mover's Alhambra (no gate can stand on a wooden wall), the step's own early returns."""
        if moment != Moment.TURN_END:
            return False
        t = state.turn
        if t is None or not state.checking:
            return True
        layers = state.players[t.player].alhambra.layers
        return layers is None or not layers.edges

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """At the end of a turn: "Mit einem Stadttor aus Holz dürfen nur aufgedruckte Mauern
        überbaut werden" -- a gate (an edge piece that opens the edge) on a wooden wall."""
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment != Moment.TURN_END or state.turn is None or not state.checking:
            return
        player = state.players[state.turn.player]
        layers = player.alhambra.layers
        if layers is None or not layers.edges:
            return
        data = self.data(state)
        alh = player.alhambra
        for edge, piece in sorted(layers.edges.items(), key=lambda e: (-e[0][0].y, e[0][0].x)):
            if not getattr(piece, "opens", False) or (player.name, edge) in data.gates_told:
                continue
            a, b = edge_cells(edge)
            side = edge[1]
            if side in alh.overlay(a) or side.opposite in alh.overlay(b):
                data.gates_told.append((player.name, edge))
                pos = getattr(piece, "pos", None) or ctx.pos or state.turn.pos
                ctx.flag("MAUERN-GATE", pos, player.name, edge=edge_text(edge))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``wall used N sticks N open wl:..`` (the table) and each player's walls:
        ``wall @x,y ne`` (a tile of the Alhambra), ``wall T9 ne`` (a tile of the reserve)."""
        data = self.data(state)
        if player is None:
            if not data.revealed and not data.sticks:
                return []
            args: list[Any] = ["used", len(data.used), "sticks", data.sticks]
            if data.open:
                args += ["open", *(_card_ref(c) for c in data.open)]
            return [ModuleAction(VERB, tuple(GenericArg(a) for a in args))]
        layers = player.alhambra.layers
        if layers is None:
            return []
        out = [
            ModuleAction(VERB, (GenericArg(at), GenericArg(sides_text(sides))))
            for at, sides in sorted(layers.overlays.items(), key=lambda e: (-e[0].y, e[0].x))
            if sides
        ]
        for piece in player.reserve:
            sides = player.alhambra.carried_walls(piece)
            tile = getattr(piece, "carried_tile", piece)
            if sides and isinstance(tile, TileKind):
                ref = TileRef(tile.type, tile.price, tile.walls, (tile,))
                out.append(ModuleAction(VERB, (GenericArg(ref), GenericArg(sides_text(sides)))))
            elif sides:  # a module's piece in the reserve (a flower bed ...), by its token
                from referee.engine.legal import piece_ref

                out.append(
                    ModuleAction(
                        VERB, (GenericArg(piece_ref(piece)), GenericArg(sides_text(sides)))
                    )
                )
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() != VERB:
            return False
        args = [a.value for a in line.args]
        text = " ".join(str(getattr(a, "name", a)) for a in args)
        who = player.name if player is not None else None
        if player is None:
            if self._table_line(state, args):
                return True
        elif len(args) == 2 and (sides := read_walls(str(args[1]).lower())):
            where = args[0]
            if isinstance(where, Coord) and where in player.alhambra:
                player.alhambra.add_overlay(where, sides)
                return True
            if isinstance(where, TileRef):
                target = self._target(state, player, where)
                if target is not None and target.at is None:
                    player.alhambra.carry_walls(target.piece, sides)
                    return True
            if isinstance(where, ComponentRef):  # a module's piece in the reserve
                from referee.engine.core import match_slot

                i = match_slot(where, list(player.reserve))
                if i is not None:
                    player.alhambra.carry_walls(player.reserve[i], sides)
                    return True
        state.flag("MAUERN-POSITION", line.pos, who, line=f"wall {text}")
        return True

    def _table_line(self, state: GameState, args: Sequence[object]) -> bool:
        if len(args) < 4 or args[0] != "used" or args[2] != "sticks":
            return False
        used, sticks = args[1], args[3]
        if not isinstance(used, int) or not isinstance(sticks, int):
            return False
        cards: list[frozenset[Side]] = []
        if len(args) > 4:
            if args[4] != "open":
                return False
            for a in args[5:]:
                sides = parse_card(a)
                if sides is None:
                    return False
                cards.append(sides)
        data = self.data(state)
        data.used = [("?", "?", "?")] * used
        data.sticks = sticks
        data.open = cards
        data.revealed = used + len(cards)
        return True

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            layers = p.alhambra.layers
            built = []
            if layers is not None:
                built = [
                    f"@{at} {sides_text(s)}"
                    for at, s in sorted(layers.overlays.items(), key=lambda e: (-e[0].y, e[0].x))
                    if s
                ]
            kept = [
                f"{getattr(x, 'code', x)} {sides_text(s)}"
                for x in p.reserve
                if (s := p.alhambra.carried_walls(x))
            ]
            if built or kept:
                players[p.name] = {
                    "walls built": "; ".join(built) or "none",
                    "in the reserve": "; ".join(kept) or "none",
                }
        return self.shown(
            {
                "open beside the board": " ".join(_card_text(c) for c in data.open) or "none",
                "cards used": len(data.used),
                "sticks left": stick_count() - data.sticks,
            },
            players,
        )

    # ------------------------------------------------------------------ moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Each open card built as shown on an own tile of the Alhambra where each of its walls
        faces an empty cell and no wall lies yet (such a wall never breaks a building rule).
        Walls facing a neighbour or on reserve tiles are legal too but not listed."""
        state = ctx.state
        data = self.data(state)
        if not data.open or player.counts is not None or player.alhambra_unknown:
            return []
        left = stick_count() - data.sticks
        alh = player.alhambra
        out: list[Any] = []
        for card in sorted(set(data.open), key=sides_text):
            if len(card) > left:
                continue
            for at in sorted(alh.cells, key=lambda c: (-c.y, c.x)):
                shown = alh[at].walls | alh.overlay(at)
                if card & shown or any(at.neighbour(s) in alh for s in card):
                    continue
                out.append(ModuleAction(VERB, (GenericArg(_card_ref(card)), GenericArg(at))))
        return out

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """The eight cards (faces invented: ``simulator_faces``), two into each of piles 2-5."""
        faces = [str(f) for f in _cards()["simulator_faces"]]
        sim.rng.shuffle(faces)
        out: dict[int, list[object]] = {}
        for pile, n in sorted(pile_counts().items()):
            out[pile] = [ComponentRef(KIND, faces.pop()) for _ in range(n)]
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like building walls (so that simulated games use the module)."""
        return [a for a in actions if isinstance(a, ModuleAction) and a.verb == VERB]
