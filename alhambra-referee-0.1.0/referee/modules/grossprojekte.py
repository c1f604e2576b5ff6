"""Die Großprojekte (major projects): two-cell tiles bringing two buildings, auctioned by
standing bids across turns.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Dirk Henn: Die Großprojekte (L2882-2911,
L2916-2927, L2931-2959).

Notation: a project is the component token ``gp:`` + its two building letters (``gp:PS``, a
pavilion and a seraglio); built, the token adds the side on which the second building lies
(``place gp:PSe@1,0``: the pavilion on 1,0, the seraglio on 2,0).

* ``* project gp:PS`` -- the project laid open ("Eines wird aufgedeckt"): at setup, and after
  a project was won ("Ein neues Großprojekt wird aufgedeckt"); the face is picture-only, so
  the record states it (the referee keeps one project open, at most 15 revealed).
* ``bid 16 pay De9 De7`` -- the engine's standing-bid service (E27,
  :mod:`referee.engine.auction`): at least 15 in one currency, only over another player's bid;
  the overbid player takes his money back; a bid still lying there when its bidder's next turn
  begins wins the project (the money to the discard pile).
* ``place gp:PSe@1,0`` -- the won project is built like a bought tile at the end of that turn
  (or goes to the reserve, ``reserve gp:PS``); the geometry platform (E24) judges both cells
  at once and redesigns it as one tile; both buildings count in the majorities.
* position blocks: ``project gp:PS 3`` (the open project, the third revealed) outside the
  player sections, the service's ``bid Anna 16 pay De9 De7``; built projects in ``alhambra``
  and ``reserve`` lines.

Rulings (``docs/modules/grossprojekte.md``): bidding at once on the new project is the turn's
action; a bid lying at the game's end is neither won nor scored; a project's walls are read as
none (picture-only, unverified).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalogue import BuildingType, Side
from referee.engine.auction import AuctionTerms, open_standing, withdraw_standing
from referee.engine.context import Context
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.geometry.pieces import Footprint
from referee.modules.base import (
    NO_WALLS,
    BundledModule,
    ModulePiece,
    Scratch,
    bundled,
    module_data,
    section,
)
from referee.record.model import ComponentRef, GenericArg, ModuleAction, ModuleChance, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "Dirk Henn: Die Großprojekte"
KIND = "gp"
VERB = "project"
NONE = "none"  # a position's "no project lies open"
SOURCE = section(H, "Neue Aktion: Auf Großprojekt bieten")
_SIDES = {s.value.lower(): s for s in Side}
_SIDES["o"] = Side.E  # German "Osten"


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("grossprojekte")["components"]
    return data


def project_count() -> int:
    return int(_data()["projects"]["count"])


def lowest_bid() -> int:
    return int(_data()["lowest_bid"])


def assumed_faces() -> list[str]:
    return [str(f) for f in _data()["projects"]["assumed_faces"]]


@dataclass(frozen=True, slots=True)
class Project(ModulePiece):
    """A major project: two buildings on one two-cell tile (E24). ``laid`` is where the
    second building lies from the first (None: not built, the face only; the geometry's
    ``second`` then reads east, so a question about the face alone never fails). Its two parts
    count as two buildings in the majorities ("zählen ... genauso wie die Einzelgebäude des
    Basisspiels zu den Mehrheiten"); the pieces' walls are picture-only and read as none."""

    types: tuple[BuildingType, BuildingType]
    laid: Side | None = None

    KIND = KIND
    footprint = Footprint.TWO_CELLS
    walls = NO_WALLS
    part_walls = (NO_WALLS, NO_WALLS)

    @property
    def second(self) -> Side:
        """The side of the second cell, as the geometry platform reads it."""
        return self.laid if self.laid is not None else Side.E

    @property
    def face(self) -> str:
        return f"{self.types[0].code}{self.types[1].code}"

    @property
    def token_name(self) -> str:
        return self.face + (self.laid.value.lower() if self.laid is not None else "")

    @property
    def cell_label(self) -> str:
        return self.face

    def named_by(self, name: str) -> bool:
        """The face names it; a side in the token says how it is laid (re-read at each
        placement by :meth:`orient_by_token`), not which project it is."""
        got = parse_project(name)
        return got is not None and got.types == self.types

    def orientations(self) -> list[Project]:
        """The four ways to lay it (the second building north, east, south or west)."""
        return [Project(self.types, s) for s in Side]

    def orient_by_token(
        self, ref: object, pos: Pos, player: str | None
    ) -> tuple[Project, list[Finding]]:
        """The placing token states the side of the second cell (``gp:PSe``); without one it
        is reported (``GROSS-TOKEN``) and judged with the second building to the east."""
        got = parse_project(ref.name) if isinstance(ref, ComponentRef) else None
        if got is not None and got.laid is not None:
            return Project(self.types, got.laid), []
        if self.laid is not None:
            return self, []
        token = f"{ref.kind}:{ref.name}" if isinstance(ref, ComponentRef) else str(ref)
        rpos = getattr(ref, "pos", None) or pos
        return Project(self.types, Side.E), [problem("GROSS-TOKEN", rpos, player, token=token)]


def parse_project(name: str) -> Project | None:
    """``PS`` -> the face (a pavilion and a seraglio); ``PSe`` -> laid with the seraglio east."""
    if len(name) not in (2, 3):
        return None
    try:
        a, b = BuildingType(name[0].upper()), BuildingType(name[1].upper())
    except ValueError:
        return None
    if len(name) == 2:
        return Project((a, b))
    side = _SIDES.get(name[2].lower())
    return None if side is None else Project((a, b), side)


def _ref(p: Project | None) -> GenericArg:
    """The face as a token; ``?`` when no line stated it yet."""
    return GenericArg(ComponentRef(KIND, p.face) if p is not None else "?")


@dataclass
class ProjectScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    revealed: int = 0  # projects laid open so far ("15 Großprojektplättchen")
    open_face: Project | None = None  # the face of the project lying open (None: not stated)
    awaiting: bool = False  # a project was laid open whose face no line stated yet


@bundled
class Grossprojekte(BundledModule):
    """One open project; standing bids; the winner builds it at the end of his turn."""

    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("major project", "Großprojekt")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("a major project is revealed", "ein Großprojekt wird aufgedeckt"),
    }
    scratch_type = ProjectScratch
    piece_type = Project

    # ------------------------------------------------------------------ the offer

    def _terms(self) -> AuctionTerms:
        # "ein Gebot von mindestens 15 Geld einer beliebigen Währung" (one currency, any)
        return AuctionTerms(min_bid=lowest_bid(), source=SOURCE)

    def _offer(self, state: GameState) -> Any:
        for o in state.standing:
            if o.opener == self.name:
                return o
        return None

    def _lay_out(self, ctx: Context, face: Project | None) -> None:
        """A project laid open: the standing offer (its face may come on a later line)."""
        data = self.data(ctx.state)
        data.revealed += 1
        data.open_face = face
        data.awaiting = face is None
        what = face.code if face is not None else "gp:?"
        open_standing(ctx, self.name, face, what, "", self._terms())

    @acts_at(Moment.SETUP_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        if moment == Moment.SETUP_DONE:
            data = self.data(ctx.state)
            if data.revealed == 0 and self._offer(ctx.state) is None:
                self._lay_out(ctx, None)  # "Eines wird aufgedeckt" (face stated by a line)

    def auction_closed(self, ctx: Context, auction: Any) -> None:
        """A bid lay there at the start of its bidder's turn: the project is his, to be built
        at the end of this turn ("am Ende des Zuges ... eingebaut"); the next one is laid
        open ("Ein neues Großprojekt wird aufgedeckt")."""
        if not auction.standing or auction.opener != self.name:
            return
        state = ctx.state
        data = self.data(state)
        piece = data.open_face if data.open_face is not None else auction.item
        if state.turn is not None:
            state.turn.pending.append(piece)  # built (or reserved) like a bought tile
        data.open_face = None
        if data.revealed < project_count():
            self._lay_out(ctx, None)

    # ------------------------------------------------------------------ chance lines

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* project gp:PS``: the face of the project laid open."""
        for arg in event.args:
            pos = arg.pos or event.pos
            face = self._face(state, arg.value, pos)
            if face is None:
                continue
            self._reveal(state, face, pos)
        return []

    def _face(self, state: GameState, value: object, pos: Pos) -> Project | None:
        token = f"{value.kind}:{value.name}" if isinstance(value, ComponentRef) else str(value)
        got = (
            parse_project(value.name)
            if isinstance(value, ComponentRef) and value.kind.lower() == KIND
            else None
        )
        if got is None or got.laid is not None:
            state.flag("GROSS-TOKEN", pos, None, token=token)
            return None
        return got

    def _reveal(self, state: GameState, face: Project, pos: Pos) -> None:
        data = self.data(state)
        offer = self._offer(state)
        ctx = Context(state, pos)
        if offer is None and data.revealed == 0:
            self._lay_out(ctx, face)  # "Eines wird aufgedeckt", stated before the first turn
            return
        if offer is None:
            if data.revealed >= project_count():
                state.flag(
                    "GROSS-REVEAL", pos, reason="all-out", token=face.code, count=project_count()
                )
            else:
                state.flag("GROSS-REVEAL", pos, reason="none-open", token=face.code)
            return
        if data.open_face is not None and data.open_face != face:
            state.flag(
                "GROSS-REVEAL", pos, reason="restated", token=face.code, known=data.open_face.code
            )
            return
        data.open_face = face
        data.awaiting = False
        offer.item, offer.what = face, face.code

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``project gp:PS 3``: the open project and how many were revealed (outside the
        player sections; the service writes the bid lying beside it); ``project ? 3`` while
        no line stated the face, ``project none 15`` when none lies open."""
        if player is not None:
            return []
        data = self.data(state)
        if self._offer(state) is None:
            return [ModuleAction(VERB, (GenericArg(NONE), GenericArg(data.revealed)))]
        return [ModuleAction(VERB, (_ref(data.open_face), GenericArg(data.revealed)))]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``project gp:PS 3`` (``project ? 3``: the face not stated; ``project none 15``: no
        project open, all revealed) in a position block."""
        if player is not None or line.verb.lower() != VERB:
            return False
        vals = [a.value for a in line.args]
        ctx = Context(state, line.pos)
        data = self.data(state)
        for o in [o for o in state.standing if o.opener == self.name]:
            withdraw_standing(ctx, o)
        count = vals[1] if len(vals) > 1 and isinstance(vals[1], int) else None
        first = vals[0] if vals else None
        face: Project | None = None
        if isinstance(first, ComponentRef):
            face = self._face(state, first, line.pos)
        n = count if count is not None else max(data.revealed, 1)
        if n > project_count() or n < 0:
            state.flag(
                "GROSS-REVEAL",
                line.pos,
                reason="all-out",
                token=face.code if face is not None else "gp:?",
                count=project_count(),
            )
            n = project_count()
        if isinstance(first, str) and first.lower() == NONE:
            data.revealed, data.open_face, data.awaiting = n, None, False
            return True
        data.revealed = n - 1
        self._lay_out(ctx, face)
        return True

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """``gp:PSe@1,0`` in an ``alhambra`` line, ``gp:PS`` in a ``reserve`` line."""
        if ref.kind.lower() != KIND or where not in ("alhambra", "reserve"):
            return False, None
        got = parse_project(ref.name)
        who = player.name if player is not None else None
        if got is None or (where == "alhambra" and got.laid is None):
            state.flag("GROSS-TOKEN", ref.pos, who, token=f"{ref.kind}:{ref.name}")
            return True, None
        return True, got

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        offer = self._offer(state)
        if offer is None:
            lying = "-"
        elif offer.leader is None:
            lying = "no bid"
        else:
            lying = f"{state.players[offer.leader].name} bids {offer.high}"
        open_text = "-" if offer is None else (data.open_face.code if data.open_face else "gp:?")
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            built = [f"{x.code}@{at}" for at, x in p.alhambra.pieces() if isinstance(x, Project)]
            kept = [str(x) for x in p.reserve if isinstance(x, Project)]
            if built or kept:
                players[p.name] = {
                    "built": " ".join(built) or "-",
                    "in the reserve": " ".join(kept) or "-",
                }
        return self.shown(
            {
                "open project": open_text,
                "bid": lying,
                "revealed": f"{data.revealed} of {project_count()}",
            },
            players,
        )

    # ------------------------------------------------------------------ simulator

    def _stack(self, sim: Any) -> list[Project]:
        def make() -> list[Project]:
            faces = [p for f in assumed_faces() if (p := parse_project(f)) is not None]
            sim.rng.shuffle(faces)
            return faces

        stack: list[Project] = sim.mine(self, make)
        return stack

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "Eines wird aufgedeckt": ``* project gp:PS``."""
        stack = self._stack(sim)
        return [ModuleChance(VERB, (_ref(stack[0]),))] if stack else []

    def sim_refill(self, sim: Any) -> list[Any]:
        """A project was won and a new one laid open: its face."""
        data = self.data(sim.state)
        if not data.awaiting or self._offer(sim.state) is None:
            return []
        stack = self._stack(sim)
        i = data.revealed - 1
        return [ModuleChance(VERB, (_ref(stack[i]),))] if 0 <= i < len(stack) else []

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like bidding on a project now and then (so games use it)."""
        bids = [a for a in actions if isinstance(a, ModuleAction) and a.verb == "bid"]
        if bids and sim.rng.random() < 0.4:
            return bids
        return []
