"""Die Plätze (squares): free tiles that count like 0-3 buildings of their colour.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE PLÄTZE.

Notation: a square is the component token ``sq:`` + its colour (the building type code) + the
sides that show a wall, in the order ``n e s w`` (``0`` for none): ``sq:Tne`` is a purple
(tower) square with walls north and east; ``sq:T`` names the colour only.

* ``* squares sq:Pn sq:Se sq:An sq:Cw sq:Gs sq:Tne`` -- the face-up top squares, at setup and
  after each take (optional; a face stated here must match every later statement).
* ``square sq:Tne`` -- the action "Platz errichten" (free, so no extra action follows).
* ``place sq:Tne@1,0`` / ``reserve sq:Tne`` at the end of the turn; ``build`` / ``remove`` /
  ``swap`` redesign squares like tiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from referee.catalogue import SIDES, BuildingType, Side
from referee.engine.findings import Finding, problem, report, unverifiable
from referee.engine.fmt import NOTHING
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import end_main_action, main_action_findings, start_main_action
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    ModulePiece,
    Scratch,
    bundled,
    like_neighbours,
    module_data,
    pieces_in_order,
)
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, ModuleChance, Pos
from referee.scoring import CountAdjustment, ScoringParts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE PLÄTZE"
KIND = "sq"
VERB = "square"
CHANCE_VERB = "squares"


@dataclass(frozen=True, slots=True)
class Square(ModulePiece):
    """A square tile as a piece of an Alhambra: walls like a tile, no building type of its own.

    ``type`` is None so that the base counts skip it; what it counts for is a scoring
    adjustment (:meth:`Plaetze.scoring_parts`).
    """

    colour: BuildingType
    walls: frozenset[Side]

    KIND = KIND
    type = None  # (a class attribute: read without a call)

    @property
    def token_name(self) -> str:
        return f"{self.colour.code}{walls_token(self.walls, none='0')}"

    def named_by(self, name: str) -> bool:
        parsed = parse_square(name)
        if parsed is None:
            return False
        colour, walls = parsed
        return colour is self.colour and (walls is None or walls == self.walls)


@lru_cache(maxsize=256)  # a pure function of the token, asked for the same few again and again
def parse_square(name: str) -> tuple[BuildingType, frozenset[Side] | None] | None:
    """``Tne`` -> (tower, {N, E}); ``T`` -> (tower, None); ``T0`` -> (tower, {}); else None."""
    if not name:
        return None
    try:
        colour = BuildingType(name[0].upper())
    except ValueError:
        return None
    rest = name[1:].lower()
    if rest == "":
        return colour, None
    walls = read_walls(rest, none=("0", "x"))
    return None if walls is None else (colour, walls)


def per_colour() -> dict[BuildingType, int]:
    table = module_data("plaetze")["components"]["squares"]["per_colour"]
    return {BuildingType(k): int(v) for k, v in table.items()}


def limit_per_player() -> int:
    return int(module_data("plaetze")["components"]["limit_per_player"])


def plural(t: BuildingType, n: int) -> str:
    return t.name_in("en", plural=n != 1)


@dataclass
class SquareScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    left: dict[BuildingType, int] = field(default_factory=dict)  # squares still in each stack
    top: dict[BuildingType, Square | None] = field(default_factory=dict)  # face-up, None unknown
    taken: Counter[Square] = field(default_factory=Counter)  # faces seen leaving a stack


@bundled
class Plaetze(BundledModule):
    """Six stacks of squares; taking one is a free action; they count by like neighbours."""

    # "Platz errichten": a square is taken, never bought
    verb_specs = (VerbSpec(VERB, kind="acquire", aliases=("platz",)),)
    chance_verbs = (CHANCE_VERB,)
    component_kinds = (KIND,)
    scratch_type = SquareScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.left = per_colour()
        scratch.top = dict.fromkeys(BuildingType)

    def view(self, state: GameState) -> dict[str, Any]:
        """The six stacks (face up, squares left) and each player's squares."""
        data = self.data(state)
        return self.shown(
            {
                f"stack {c.code}": f"{'?' if top is None else top.code} ({data.left[c]} left)"
                for c, top in data.top.items()
            },
            {
                p.name: {"squares": " ".join("?" if s is None else s.code for s in held) or "-"}
                for p in state.players
                if (held := self.held(state, p))
            },
        )

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        data = state.modules.get(self.name) or self.data(state)
        for arg in event.args:
            pos = arg.pos or event.pos
            sq = self._square(state, arg.value, pos, None)
            if sq is None:
                continue
            colour = sq.colour
            if data.left[colour] <= 0:
                state.flag(
                    "SQUARE-SUPPLY",
                    pos,
                    reason="stack-empty-reveal",
                    value=plural(colour, 2),
                    code_v=sq.code,
                    code_v2=colour.code,
                )
                continue
            known = data.top[colour]
            if known is not None and known != sq:
                state.flag(
                    "SQUARE-FACE",
                    pos,
                    reason="restated",
                    code_v=colour.code,
                    code_v2=known.code,
                    code_v3=sq.code,
                )
            data.top[colour] = sq
        return []

    def _named(self, arg: GenericArg, pos: Pos, who: str) -> tuple[Any, list[Finding]]:
        """What a ``square`` line takes: the square its token states, the colour only
        (:class:`BuildingType`: the face on top of that stack), or None (no square token),
        with the findings of the token."""
        value = arg.value
        if isinstance(value, ComponentRef) and value.kind.lower() == KIND:
            parsed = parse_square(value.name)
            if parsed is not None and parsed[1] is None:
                return parsed[0], []
        return read_square(value, pos, who)

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """ "Platz errichten" (a main action, a free one): the token, the face on top of the
        stack, "höchstens drei Plätze", the stack not empty."""
        state = ctx.state
        pos = action.pos
        out = main_action_findings(state, pos, player, Text("ACTION/taking-square"))
        if len(action.args) != 1:
            token = " ".join(str(a.value) for a in action.args) or NOTHING
            return [*out, problem("SQUARE-TOKEN", pos, player.name, token=token)]
        data = state.modules.get(self.name) or self.data(state)
        apos = action.args[0].pos or pos
        got, found = self._named(action.args[0], apos, player.name)
        out += found
        if got is None:
            return out
        colour = got if isinstance(got, BuildingType) else got.colour
        known = data.top[colour]
        if known is None and not state.deck_uncertain and data.left[colour] > 0:
            out.append(problem("SQUARE-NOT-REVEALED", apos, player.name, colour=colour.code))
        elif known is None and isinstance(got, BuildingType):
            out.append(
                unverifiable(apos, "UNVERIFIED-SQUARE-FACE", player.name, code_v=colour.code)
            )
        if isinstance(got, Square) and known is not None and known != got:
            out.append(
                problem(
                    "SQUARE-FACE",
                    apos,
                    player.name,
                    reason="other-face",
                    code_v=colour.code,
                    code_v2=known.code,
                    name=player.name,
                    code_v3=got.code,
                )
            )
        held = self.held(state, player)
        if len(held) >= limit_per_player():
            shown = " ".join("?" if s is None else s.code for s in held)
            out.append(problem("SQUARE-LIMIT", pos, player.name, held=shown))
        if data.left[colour] <= 0:
            out.append(
                problem(
                    "SQUARE-SUPPLY",
                    apos,
                    player.name,
                    reason="stack-empty",
                    value=plural(colour, 2),
                    code_v=colour.code,
                )
            )
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The square leaves its stack for the player (placed like a bought tile); the next
        one of the stack is turned up ("Dann wird der nächste Platz des Stapels aufgedeckt")."""
        start_main_action(state)
        got = self._named(action.args[0], action.pos, player.name)[0] if action.args else None
        if got is not None and len(action.args) == 1:
            data = state.modules.get(self.name) or self.data(state)
            colour = got if isinstance(got, BuildingType) else got.colour
            sq = data.top[colour] if isinstance(got, BuildingType) else got
            if data.left[colour] > 0:
                data.left[colour] -= 1
            data.top[colour] = None
            if sq is not None:
                data.taken[sq] += 1
            if state.turn is not None:
                state.turn.pending.append(sq)  # placed like a bought tile
        end_main_action(state, Text("ACTION/taking-square-free"))
        return []

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """Each square counts as 0-3 buildings of its colour (:func:`square_count`): a count
        adjustment per square with its own breakdown line."""
        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for player in state.players:
            out = []
            for at, piece in _squares_in(player.alhambra):
                n = square_count(player, at, piece)
                if n:
                    out.append(_square_line(at, piece, n, CountAdjustment))
            if out:
                adjustments[player.name] = tuple(out)
        return ScoringParts(adjustments)

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``squares sq:Aw sq:Cs ...``: the face-up top of each stack (outside the player
        sections), as the chance line states them; read back by :meth:`position_line`."""
        if player is not None:
            return []
        tops = [
            GenericArg(ComponentRef(KIND, str(sq.code).partition(":")[2]))
            for sq in self.data(state).top.values()
            if sq is not None
        ]
        return [ModuleAction(CHANCE_VERB, tuple(tops))] if tops else []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``squares ...`` in a position block: the stacks' tops, as the chance line."""
        if line.verb.lower() != CHANCE_VERB or player is not None:
            return False
        self.chance(state, ModuleChance(CHANCE_VERB, line.args, line.pos))
        return True

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A square in a position's Alhambra or reserve (``alhambra sq:Tne@0,1``)."""
        if where not in ("alhambra", "reserve") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        sq = self._square(state, ref, ref.pos, who)
        if sq is None:
            return True, None  # reported (or the face is missing): an unknown piece
        data = self.data(state)
        if data.left[sq.colour] <= 0:
            state.flag(
                "SQUARE-SUPPLY",
                ref.pos,
                who,
                reason="too-many",
                value=plural(sq.colour, 2),
                code_v=sq.colour.code,
            )
        else:
            data.left[sq.colour] -= 1
        data.taken[sq] += 1
        return True, sq

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """ "Platz errichten": any face-up square (its face known), while the player owns fewer
        than three ("höchstens drei Plätze ... auch Plätze in der Reserve")."""
        state = ctx.state
        if len(self.held(state, player)) >= limit_per_player():
            return []
        data = self.data(state)
        out: list[Any] = []
        for colour in BuildingType:
            top = data.top.get(colour)
            if top is None or data.left.get(colour, 0) <= 0:
                continue
            out.append(ModuleAction(VERB, (GenericArg(ComponentRef(KIND, top.code[3:])),)))
        return out

    # ------------------------------------------------------------ simulator

    def _stacks(self, sim: Any) -> dict[BuildingType, list[Square]]:
        """The face-down stacks in the simulator's hands. The faces are not in the texts: each
        square gets one wall (two of three) or two walls on random sides."""

        def make() -> dict[BuildingType, list[Square]]:
            stacks: dict[BuildingType, list[Square]] = {}
            for colour, count in per_colour().items():
                stacks[colour] = [
                    Square(colour, frozenset(sim.rng.sample(SIDES, sim.rng.choice((1, 1, 2)))))
                    for _ in range(count)
                ]
            return stacks

        stacks: dict[BuildingType, list[Square]] = sim.mine(self, make)
        return stacks

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "von jedem Stapel der oberste Platz aufgedeckt": ``* squares`` with six faces."""
        stacks = self._stacks(sim)
        tops = [stack[0] for stack in stacks.values() if stack]
        return [ModuleChance(CHANCE_VERB, tuple(GenericArg(_ref(sq)) for sq in tops))]

    def sim_refill(self, sim: Any) -> list[Any]:
        """ "Dann wird der nächste Platz des Stapels aufgedeckt": after a take, the next face."""
        stacks = self._stacks(sim)
        data = self.data(sim.state)
        shown: list[Square] = []
        for colour, stack in stacks.items():
            while len(stack) > data.left.get(colour, 0):
                stack.pop(0)  # taken
            if stack and data.top.get(colour) is None:
                shown.append(stack[0])
        if not shown:
            return []
        return [ModuleChance(CHANCE_VERB, tuple(GenericArg(_ref(sq)) for sq in shown))]

    # ---------------------------------------------------------------- helpers

    def held(self, state: GameState, player: PlayerState) -> list[Square | None]:
        """The squares a player owns: Alhambra, reserve and (this turn) not yet placed."""
        own: list[Square | None] = [p for _c, p in player.alhambra.items() if isinstance(p, Square)]
        own += [p for p in player.reserve if isinstance(p, Square)]
        t = state.turn
        if t is not None and t.player == player.index:
            own += [p for p in t.pending if isinstance(p, Square)]
        return own

    def _square(self, state: GameState, value: object, pos: Pos, who: str | None) -> Square | None:
        sq, found = read_square(value, pos, who)
        report(state, found)
        return sq


def read_square(value: object, pos: Pos, who: str | None) -> tuple[Square | None, list[Finding]]:
    """The square a token states with its face (None: no square token, or only its colour
    where the face is needed), and the findings of the token."""
    parsed = None
    if isinstance(value, ComponentRef):
        token = f"{value.kind}:{value.name}"
        if value.kind.lower() == KIND:
            parsed = parse_square(value.name)
    else:  # (a ComponentRef's str, its dataclass repr, is not needed: the token above)
        token = str(value)
    if parsed is not None and parsed[1] is None:  # colour only where the face is needed
        return None, [unverifiable(pos, "UNVERIFIED-SQUARE-FACE-TOKEN", who, token=token)]
    if parsed is None or parsed[1] is None:
        return None, [problem("SQUARE-TOKEN", pos, who, token=token)]
    sq = Square(parsed[0], parsed[1])
    if not sq.walls:
        return sq, [problem("SQUARE-FACE-UNVERIFIED", pos, who, severity="warning", token=sq.code)]
    return sq, []


def _scoring_order(item: tuple[Coord, object]) -> tuple[int, int]:
    """The order a scoring lists squares in: top row first (by y, falling), then by x."""
    return (-item[0].y, item[0].x)


def _squares_in(alhambra: Any) -> list[tuple[Coord, Square]]:
    """The (cell, square) pairs of an Alhambra in :func:`_scoring_order`: ``[(at, piece) for
    at, piece in sorted(alhambra.items(), key=_scoring_order) if isinstance(piece, Square)]``,
    the kit's :func:`pieces_in_order` (no two cells share a place in the order, so both give
    the same list; tests/test_module_plaetze_fast.py holds the two equal)."""
    return pieces_in_order(alhambra, Square, _scoring_order)


@lru_cache(maxsize=256, typed=True)  # a square counting as many: the same line each scoring
def _square_line(at: Coord, piece: Square, n: int, make: Any) -> Any:
    """A square's line of a scoring (``make``: the scoring's CountAdjustment, a frozen
    record): the same square on the same cell counting ``n`` gives an equal line."""
    return make(
        piece.colour,
        n,
        f"square {piece.code}@{at}: counts as {n} {plural(piece.colour, n)}",
        f"Platz {piece.code}@{at}: zählt wie {n} {piece.colour.name_in('de', plural=n != 1)}",
    )


def _ref(sq: Square) -> ComponentRef:
    return ComponentRef(KIND, sq.code[len(KIND) + 1 :])


def square_count(player: PlayerState, at: Coord, sq: Square) -> int:
    """What a square counts in a scoring: one building of its colour per neighbouring building
    of that colour with no wall between them, at most 3 ("null bis drei"; the kit's
    :func:`~referee.modules.base.like_neighbours`)."""
    return like_neighbours(player, at, sq.colour, sq.walls)
