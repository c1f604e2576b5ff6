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
from typing import Any, ClassVar, cast

from referee.catalogue import SIDES, BuildingType, Side, TileKind
from referee.engine.context import Context
from referee.engine.state import GameState, PlayerState
from referee.messages import Text, register_both
from referee.modules.base import BundledModule, Scratch, bundled, module_data, rule, section
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, ModuleChance, Pos

H = "DIE PLÄTZE"
S_SETUP = section(H, "Änderungen in der Spielvorbereitung")
S_TAKE = section(H, "Neue Aktion: Platz errichten")
S_SCORE = section(H, "Wertungsänderungen")
KIND = "sq"
VERB = "square"
CHANCE_VERB = "squares"
WALL_LETTERS = {"n": Side.N, "e": Side.E, "o": Side.E, "s": Side.S, "w": Side.W}

rule(
    "SQUARE-TOKEN",
    "no such square",
    "kein solcher Platz",
    section(H, "Spielmaterial"),
    "{token} is no square: write sq: + the colour (P S A C G T, as the building types) + the "
    "sides with a wall (n e s w, 0 for none), e.g. sq:Tne",
    "{token} ist kein Platz: sq: + Farbe (P S A C G T wie die Gebäudearten) + die Seiten mit "
    "Mauer (n e s w, 0 für keine), z. B. sq:Tne",
)
rule(
    "SQUARE-SUPPLY",
    "square supply",
    "Vorrat an Plätzen",
    section(H, "Spielmaterial"),
    '{detail} ("Es gibt 3 blaue … 4 braune … 5 grüne … 3 rote … 4 weiße und 5 lila Plätze"; '
    '"Ist ein Stapel aufgebraucht, steht diese Sorte nicht mehr zur Verfügung")',
    "{detail} (3 blaue, 3 rote, 4 braune, 4 weiße, 5 grüne, 5 lila Plätze; ist ein Stapel "
    "aufgebraucht, steht diese Sorte nicht mehr zur Verfügung)",
)
rule(
    "SQUARE-FACE",
    "square stated two ways",
    "Platz verschieden angegeben",
    S_TAKE,
    "{detail}: a square's face is stated once and must not change",
    "{detail}: die Seite eines Platzes wird einmal angegeben und ändert sich nicht",
)
rule(
    "SQUARE-FACE-UNVERIFIED",
    "square face unverified",
    "Platzseite ungeprüft",
    section(H, "Wertungsänderungen"),
    '{token} shows no wall: by the rulebook a square counts as "null bis drei" buildings, '
    "which suggests every square shows at least one wall (the component data is not verified)",
    "{token} zeigt keine Mauer: laut Regel zählt ein Platz wie null bis drei Gebäude, jeder "
    "Platz zeigt also wohl mindestens eine Mauer (Materialdaten ungeprüft)",
)
rule(
    "SQUARE-NOT-REVEALED",
    "square not revealed",
    "Platz nicht aufgedeckt",
    S_SETUP,
    "{player} takes a {colour} square, but no `* squares` line revealed the top of that stack "
    '("Anschließend wird von jedem Stapel der oberste Platz aufgedeckt"; after a square is '
    'taken "Dann wird der nächste Platz des Stapels aufgedeckt")',
    "{player} nimmt einen Platz {colour}, aber keine Zeile `* squares` hat den obersten Platz "
    "dieses Stapels aufgedeckt (von jedem Stapel wird der oberste Platz aufgedeckt; nach dem "
    "Nehmen wird der nächste aufgedeckt)",
)
rule(
    "SQUARE-LIMIT",
    "at most three squares",
    "höchstens drei Plätze",
    S_TAKE,
    '{player} takes a fourth square (has {held}): "Jeder Spieler darf höchstens drei Plätze '
    'besitzen, dazu zählen auch Plätze in der Reserve"',
    "{player} nimmt einen vierten Platz (hat {held}): jeder Spieler darf höchstens drei Plätze "
    "besitzen, auch in der Reserve",
)


@dataclass(frozen=True, slots=True)
class Square:
    """A square tile as a piece of an Alhambra: walls like a tile, no building type of its own.

    ``type`` is None so that the base counts skip it; what it counts for is a scoring
    adjustment (:meth:`Plaetze.scoring_parts`).
    """

    colour: BuildingType
    walls: frozenset[Side]

    @property
    def type(self) -> None:
        return None

    @property
    def code(self) -> str:
        sides = "".join(s.value.lower() for s in SIDES if s in self.walls) or "0"
        return f"{KIND}:{self.colour.code}{sides}"

    def __str__(self) -> str:
        return self.code

    def matches(self, ref: ComponentRef) -> bool:
        if ref.kind.lower() != KIND:
            return False
        parsed = parse_square(ref.name)
        if parsed is None:
            return False
        colour, walls = parsed
        return colour is self.colour and (walls is None or walls == self.walls)


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
    if rest in ("0", "x"):
        return colour, frozenset()
    walls: set[Side] = set()
    for ch in rest:
        side = WALL_LETTERS.get(ch)
        if side is None or side in walls:
            return None
        walls.add(side)
    return colour, frozenset(walls)


def per_colour() -> dict[BuildingType, int]:
    table = module_data("plaetze")["components"]["squares"]["per_colour"]
    return {BuildingType(k): int(v) for k, v in table.items()}


def limit_per_player() -> int:
    return int(module_data("plaetze")["components"]["limit_per_player"])


def plural(t: BuildingType, n: int) -> str:
    return t.name_in("en", plural=n != 1)


@dataclass
class SquareScratch(Scratch):
    left: dict[BuildingType, int] = field(default_factory=dict)  # squares still in each stack
    top: dict[BuildingType, Square | None] = field(default_factory=dict)  # face-up, None unknown
    taken: Counter[Square] = field(default_factory=Counter)  # faces seen leaving a stack


@bundled
class Plaetze(BundledModule):
    """Six stacks of squares; taking one is a free action; they count by like neighbours."""

    name = "plaetze"
    aliases = ("plätze", "squares", "platz")
    title_en = "The Squares"
    title_de = "Die Plätze"
    section = section(H)
    page = 11  # of rulebook-bigbox-de-2019.txt: the listing order
    summary = (
        "24 squares in the six colours (3,3,4,4,5,5), taken for free as an action, at most 3 "
        "per player; a square counts as one building of its colour per like neighbour not "
        "separated by a wall (0-3)"
    )
    verbs = (VERB, "platz")
    # a square is taken, never bought
    verb_kinds: ClassVar[dict[str, str]] = {VERB: "acquire", "platz": "acquire"}
    chance_verbs = (CHANCE_VERB,)
    component_kinds = (KIND,)
    scratch_type = SquareScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.left = per_colour()
        scratch.top = dict.fromkeys(BuildingType)

    view_terms_de: ClassVar[dict[str, str]] = {
        "squares": "Plätze",
    }
    """German for the words of :meth:`view` (``show --lang de``)."""

    def view(self, state: GameState) -> dict[str, Any]:
        """The six stacks (face up, squares left) and each player's squares."""
        data = self.data(state)
        return {
            "labels": {"en": self.title_en, "de": self.title_de},
            "table": {
                f"stack {c.code}": f"{'?' if top is None else top.code} ({data.left[c]} left)"
                for c, top in data.top.items()
            },
            "players": {
                p.name: {"squares": " ".join("?" if s is None else s.code for s in held) or "-"}
                for p in state.players
                if (held := self.held(state, p))
            },
        }

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        data = self.data(state)
        for arg in event.args:
            pos = arg.pos or event.pos
            sq = self._square(state, arg.value, pos, None)
            if sq is None:
                continue
            colour = sq.colour
            if isinstance(sq, tuple):  # pragma: no cover - _square returns squares only
                continue
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

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        data = self.data(state)
        pos = action.pos
        Context(state).main_action(pos, player, Text("ACTION/taking-square"))
        free = Text("ACTION/taking-square-free")
        if len(action.args) != 1:
            state.flag(
                "SQUARE-TOKEN",
                pos,
                player.name,
                token=" ".join(str(a.value) for a in action.args) or "(nothing)",
            )
            Context(state).end_main_action(free)
            return []
        arg = action.args[0]
        apos = arg.pos or pos
        colour_only = (
            isinstance(arg.value, ComponentRef)
            and arg.value.kind.lower() == KIND
            and (parsed := parse_square(arg.value.name)) is not None
            and parsed[1] is None
        )
        sq: Square | None
        if colour_only:
            assert isinstance(arg.value, ComponentRef)
            colour = BuildingType(arg.value.name[0].upper())
            sq = data.top[colour]
            if sq is None and not state.deck_uncertain and data.left[colour] > 0:
                state.flag("SQUARE-NOT-REVEALED", apos, player.name, colour=colour.code)
            elif sq is None:
                state.note(apos, "UNVERIFIED-SQUARE-FACE", player.name, code_v=colour.code)
        else:
            sq = self._square(state, arg.value, apos, player.name)
            if sq is None:
                Context(state).end_main_action(free)
                return []
            colour = sq.colour
            known = data.top[colour]
            if known is None and not state.deck_uncertain and data.left[colour] > 0:
                state.flag("SQUARE-NOT-REVEALED", apos, player.name, colour=colour.code)
            if known is not None and known != sq:
                state.flag(
                    "SQUARE-FACE",
                    apos,
                    player.name,
                    reason="other-face",
                    code_v=colour.code,
                    code_v2=known.code,
                    name=player.name,
                    code_v3=sq.code,
                )
        held = self.held(state, player)
        if len(held) >= limit_per_player():
            state.flag(
                "SQUARE-LIMIT",
                pos,
                player.name,
                held=" ".join("?" if s is None else s.code for s in held),
            )
        if data.left[colour] <= 0:
            state.flag(
                "SQUARE-SUPPLY",
                apos,
                player.name,
                reason="stack-empty",
                value=plural(colour, 2),
                code_v=colour.code,
            )
        else:
            data.left[colour] -= 1
        data.top[colour] = None  # "Dann wird der nächste Platz des Stapels aufgedeckt."
        if sq is not None:
            data.taken[sq] += 1
        t = state.turn
        assert t is not None
        t.pending.append(sq)  # type: ignore[arg-type]  # placed like a bought tile
        Context(state).end_main_action(free)
        return []

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """Each square counts as 0-3 buildings of its colour (:func:`square_count`): a count
        adjustment per square with its own breakdown line."""
        from referee.scoring import CountAdjustment, ScoringParts

        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for player in state.players:
            out = []
            for at, piece in sorted(player.alhambra.items(), key=lambda cp: (-cp[0].y, cp[0].x)):
                if not isinstance(piece, Square):
                    continue
                n = square_count(player, at, piece)
                if n:
                    out.append(
                        CountAdjustment(
                            piece.colour,
                            n,
                            f"square {piece.code}@{at}: counts as {n} {plural(piece.colour, n)}",
                            f"Platz {piece.code}@{at}: zählt wie {n} "
                            f"{piece.colour.name_in('de', plural=n != 1)}",
                        )
                    )
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
        own += [cast(Square, p) for p in player.reserve if isinstance(p, Square)]
        t = state.turn
        if t is not None and t.player == player.index:
            own += [cast(Square, p) for p in t.pending if isinstance(p, Square)]
        return own

    def _square(self, state: GameState, value: object, pos: Pos, who: str | None) -> Square | None:
        parsed = None
        token = str(value)
        if isinstance(value, ComponentRef):
            token = f"{value.kind}:{value.name}"
            if value.kind.lower() == KIND:
                parsed = parse_square(value.name)
        if parsed is None or parsed[1] is None:
            if parsed is not None:  # colour only where the face is needed
                state.note(pos, "UNVERIFIED-SQUARE-FACE-TOKEN", who, token=token)
                return None
            state.flag("SQUARE-TOKEN", pos, who, token=token)
            return None
        sq = Square(parsed[0], parsed[1])
        if not sq.walls:
            state.flag("SQUARE-FACE-UNVERIFIED", pos, who, severity="warning", token=sq.code)
        return sq


def _ref(sq: Square) -> ComponentRef:
    return ComponentRef(KIND, sq.code[len(KIND) + 1 :])


def square_count(player: PlayerState, at: Coord, sq: Square) -> int:
    """What a square counts in a scoring: one building of its colour per neighbouring building
    of that colour with no wall between them, at most 3 ("null bis drei")."""
    n = 0
    for side in SIDES:
        nb = player.alhambra.get(at.neighbour(side))
        if not isinstance(nb, TileKind) or nb.type is not sq.colour:
            continue
        if side in sq.walls or side.opposite in nb.walls:
            continue  # "sofern sich ... keine Stadtmauer befindet"
        n += 1
    return min(n, 3)


# the texts of this module's reasons and open points, in both languages
register_both(
    en={
        "SQUARE-SUPPLY/stack-empty": "the {value} stack is used up",
        "SQUARE-SUPPLY/too-many": "more {value} squares than exist",
        "SQUARE-SUPPLY/stack-empty-reveal": "the {value} stack is used up; {code_v} cannot be revealed",  # noqa: E501
        "SQUARE-FACE/restated": "the face-up {code_v} square is {code_v2}, now stated as {code_v3}",
        "SQUARE-FACE/other-face": "the face-up {code_v} square is {code_v2}, but {name} takes {code_v3}",  # noqa: E501
        "UNVERIFIED-SQUARE-FACE-TOKEN": "{token}: the face is not written",
        "UNVERIFIED-SQUARE-FACE": "the face of the {code_v} square is not written: its walls and what it counts are not checked",  # noqa: E501
    },
    de={
        "SQUARE-SUPPLY/stack-empty": "der Stapel {code_v} ist aufgebraucht",
        "SQUARE-SUPPLY/too-many": "mehr Plätze {code_v} als es gibt",
        "SQUARE-SUPPLY/stack-empty-reveal": "der Stapel {code_v2} ist aufgebraucht; {code_v} kann nicht aufgedeckt werden",  # noqa: E501
        "SQUARE-FACE/restated": "der offene Platz {code_v} ist {code_v2}, jetzt als {code_v3} angegeben",  # noqa: E501
        "SQUARE-FACE/other-face": "der offene Platz {code_v} ist {code_v2}, aber {name} nimmt {code_v3}",  # noqa: E501
        "UNVERIFIED-SQUARE-FACE-TOKEN": "{token}: die Seite ist nicht angegeben",
        "UNVERIFIED-SQUARE-FACE": "die Seite des Platzes {code_v} ist nicht angegeben: Mauern und Wertung ungeprüft",  # noqa: E501
    },
)


register_both(
    en={
        "ACTION/taking-square": "taking a square",
        "ACTION/taking-square-free": "taking a square (it costs nothing, so it is never an exact payment)",  # noqa: E501
    },
    de={
        "ACTION/taking-square": "dem Nehmen eines Platzes",
        "ACTION/taking-square-free": "dem Nehmen eines Platzes (er kostet nichts, also nie passend bezahlt)",  # noqa: E501
    },
)
