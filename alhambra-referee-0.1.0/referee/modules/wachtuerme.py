"""Die Wachtürme (watchtowers): half-cell pieces with a wall on the long side, bought with a
building of their colour for a surcharge, worth 2 more each inside the longest wall.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE WACHTÜRME (rulings: ``docs/modules/wachtuerme.md``).

Notation (``wachtuerme.yaml``):

* ``buy Gu T9ne pay Gu9 Gu6 wt:T`` -- the watchtower added to the purchase is named in the
  payment (as a building site is): the price rises by 6 before scoring 1, 4 before scoring 2,
  2 before scoring 3; an exact total gives another action.
* ``place wt:Tsw@2,1`` -- at the end of the turn the triangle fills the south-west half of cell
  2,1 (``sw ne se nw``): its two legs are the sides of that half, its long side the diagonal.
* ``Anna: longest @2,1 d`` -- before a ``scoring`` line: the longest wall Anna scores among
  equally long ones, named by one of its segments (``n e s w``, ``d`` the diagonal of the
  watchtower on that cell).

The shape (a right triangle over half a cell) is only in the pictures: ``shape`` in the YAML is
``verified: false``, and each placement states the half it fills.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import SIDES, BuildingType, Side, TileKind
from referee.engine.actions.purchase import Purchase, payments
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, acts_at
from referee.engine.findings import Finding, problem
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import Arg, Limit, VerbSpec, Window
from referee.geometry.pieces import HALVES, Diagonal, Footprint, Profile, SideKind, profile_of
from referee.geometry.rules import BuildingProblem
from referee.geometry.walls import Segment, WallRun, chosen_longest, longest_runs
from referee.modules.base import NO_WALLS, BundledModule, ModulePiece, Scratch, bundled, module_data
from referee.record.model import (
    Buy,
    CardRef,
    ComponentRef,
    Coord,
    ModuleAction,
    Place,
    Pos,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE WACHTÜRME"
KIND = "wt"
CHOICE_VERB = "longest"
SIDE_WORDS = {"n": Side.N, "e": Side.E, "o": Side.E, "s": Side.S, "w": Side.W}
DIAGONAL_WORDS = ("d", "diag", "diagonal")


def _components() -> dict[str, Any]:
    data: dict[str, Any] = module_data("wachtuerme")["components"]
    return data


def per_colour() -> int:
    """ "Beachte: Für jede Farbe gibt es nur 3 Wachtürme." """
    return int(_components()["watchtowers"]["per_colour"])


def surcharge(scorings_held: int) -> int:
    """The price rise for a watchtower after ``scorings_held`` scorings: 6, 4, 2."""
    table = [int(v) for v in _components()["surcharge"]]
    return table[min(scorings_held, len(table) - 1)]


def wall_bonus() -> int:
    return int(_components()["wall_bonus"])


def _colour(letter: str) -> BuildingType | None:
    try:
        return BuildingType(letter.upper())
    except ValueError:
        return None


def parse_tower(name: str) -> tuple[BuildingType, str | None] | None:
    """``T`` -> (tower, None); ``Tsw`` -> (tower, "sw"); anything else None."""
    if not name:
        return None
    colour = _colour(name[0])
    rest = name[1:].lower()
    if colour is None or (rest and rest not in HALVES):
        return None
    return colour, rest or None


@dataclass(frozen=True, slots=True)
class Watchtower(ModulePiece):
    """A watchtower: the colour, and (once built) the half of its cell it fills.

    A half piece of the geometry platform (E24): the legs are the sides of the filled half
    (open, plain sides), the two sides of the empty half are closed, the diagonal is an outer
    wall segment. ``locked``: never removed or swapped ("Wachtürme dürfen weder in die Reserve
    gelegt noch umgebaut werden"). No building type: it counts in no majority."""

    colour: BuildingType
    half_at: str | None = None

    KIND = KIND
    footprint = Footprint.HALF
    profile = Profile(locked=True)
    walls = NO_WALLS

    @property
    def token_name(self) -> str:
        return f"{self.colour.code}{self.half_at or ''}"

    def named_by(self, name: str) -> bool:
        parsed = parse_tower(name)
        if parsed is None or parsed[0] is not self.colour:
            return False
        return parsed[1] is None or self.half_at is None or parsed[1] == self.half_at

    @property
    def cell_label(self) -> str:
        return self.colour.code

    @property
    def cell_fill(self) -> str:  # type: ignore[override]
        from referee.reports.svg import FILL

        return FILL[self.colour]

    @property
    def legs(self) -> frozenset[Side]:
        """The two short sides (the sides of the half it fills)."""
        if self.half_at is None:
            return frozenset()
        return frozenset(Side) - HALVES[self.half_at][1]

    @property
    def diagonal(self) -> Diagonal | None:
        return None if self.half_at is None else HALVES[self.half_at][0]

    def orientations(self) -> list[Watchtower]:
        """ "Wachtürme haben keine Ausrichtung, sie können beim Einbau beliebig gedreht
        werden": the four halves."""
        return [Watchtower(self.colour, h) for h in HALVES]

    def orient_by_token(
        self, ref: object, pos: Pos, player: str | None
    ) -> tuple[Watchtower, list[Finding]]:
        """The placing token states the half (``wt:Tsw``); a token without one is reported and
        the watchtower is judged in the south-west half."""
        parsed = parse_tower(ref.name) if isinstance(ref, ComponentRef) else None
        if parsed is not None and parsed[1] is not None:
            return Watchtower(self.colour, parsed[1]), []
        if self.half_at is not None:
            return self, []
        rpos = getattr(ref, "pos", None) or pos
        token = f"{ref.kind}:{ref.name}" if isinstance(ref, ComponentRef) else str(ref)
        found = [problem("WACHT-TOKEN", rpos, player, reason="half", token=token)]
        return Watchtower(self.colour, "sw"), found


def secured(alhambra: Any, at: Coord, tower: Watchtower, changed: dict[Coord, Any]) -> bool:
    """Whether one leg of ``tower`` at ``at`` touches a building of its colour, with the cells
    in ``changed`` replaced (None: empty). Squares and bazaars have no building type, so they
    never secure it ("Die Farben der Plätze und der Bazare sichern nicht die Platzierung")."""
    for side in tower.legs:
        nb = at.neighbour(side)
        piece = changed[nb] if nb in changed else alhambra.get(nb)
        if getattr(piece, "type", None) is tower.colour:
            return True
    return False


def leans_with_bastions(piece: Any) -> bool:
    """A piece with bastion sides (a camp of Die Feldlager; the piece's rule profile says it,
    no module is named)."""
    if isinstance(piece, Watchtower) or piece is None:
        return False
    return any(k is SideKind.BASTION for k in profile_of(piece).sides.values())


def _no_camp_beside(
    alh: Any, at: Coord, piece: Any, found: list[BuildingProblem]
) -> list[BuildingProblem]:
    """ "Feldlager können nicht an Wachturmplättchen angelegt werden" (L2448-2449): a camp
    placed beside a watchtower, or a watchtower beside a camp, is ``WACHT-CAMP`` (in place of
    the side rule's ``PLACE-SIDE`` / ``PLACE-CLOSED`` for those cells, which it explains)."""
    if not isinstance(piece, Watchtower) and not leans_with_bastions(piece):
        return found
    tower = isinstance(piece, Watchtower)

    def other(x: Any) -> bool:
        return leans_with_bastions(x) if tower else isinstance(x, Watchtower)

    cells = alh.cells
    touching = tuple(
        sorted(
            (c for c in (at.neighbour(s) for s in SIDES) if other(cells.get(c))),
            key=lambda c: (-c.y, c.x),
        )
    )
    if not touching:
        return found
    kept: list[BuildingProblem] = []
    for p in found:
        if p.code not in ("PLACE-SIDE", "PLACE-CLOSED"):
            kept.append(p)
            continue
        rest = tuple(c for c in p.cells if c not in touching)
        sides = tuple((c, s) for c, s in p.sides if c.neighbour(s) not in touching)
        if rest:
            kept.append(BuildingProblem(p.code, rest, sides))
    return [*kept, BuildingProblem("WACHT-CAMP", touching)]


def towers_of(alhambra: Any) -> list[tuple[Coord, Watchtower]]:
    return sorted(
        ((c, p) for c, p in alhambra.items() if isinstance(p, Watchtower)),
        key=lambda cp: (-cp[0].y, cp[0].x),
    )


def tower_segments(alhambra: Any) -> set[Segment]:
    return {(c, t.diagonal) for c, t in towers_of(alhambra) if t.diagonal is not None}


def towers_in(run: WallRun, alhambra: Any) -> int:
    """How many watchtowers lie in ``run`` (their diagonal is one of its segments)."""
    return len(tower_segments(alhambra) & set(run.segments))


def segment_text(seg: Segment) -> str:
    at, side = seg
    return f"@{at} {'d' if isinstance(side, Diagonal) else side.value.lower()}"


def read_segment(alhambra: Any, at: Coord, word: str) -> Segment | None:
    """``@x,y n`` -> (x,y, N); ``@x,y d`` -> the diagonal of the watchtower on x,y."""
    low = word.lower()
    if low in SIDE_WORDS:
        return at, SIDE_WORDS[low]
    if low in DIAGONAL_WORDS:
        piece = alhambra.get(at)
        diag = piece.diagonal if isinstance(piece, Watchtower) else None
        return None if diag is None else (at, diag)
    return None


def next_scoring(state: GameState) -> int:
    """The scoring a choice written now is for: the one whose card came, else (before the
    final scoring) the next one."""
    if state.scoring_pending:
        return state.scoring_pending[0]
    return len(state.scorings_done) + 1


def _no_tower_yet(state: GameState, name: str) -> bool:
    """Whether no watchtower was bought or laid yet (the module's part exists, ``taken``
    empty): every watchtower in a reserve, a turn's pending pieces or an Alhambra was counted
    in ``taken`` when it was bought (``on_purchase``) or stated by a position
    (``position_component``), and ``taken`` never shrinks."""
    data = state.modules.get(name)
    return data is not None and not data.taken


def _towers_in_payment(purchase: Purchase) -> list[ComponentRef]:
    return [r for r in purchase.modules_paid if r.kind.lower() == KIND]


@dataclass
class TowerScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    taken: Counter[BuildingType] = field(default_factory=Counter)  # watchtowers bought/built
    choices: dict[tuple[str, int], Segment] = field(default_factory=dict)  # (player, scoring)
    reserved: dict[str, int] = field(default_factory=dict)  # reported reserve count per player
    turn_found: int = 0  # findings before the turn began
    # the idle answers kept for the engine (Module.kept_idle, ``idle_at``'s answers at a turn's
    # start and end): True while no watchtower was bought or laid (``taken`` empty); False
    # from the first one on (set where ``taken`` grows: it never shrinks)
    idle_start: bool = field(default=True, repr=False, compare=False)
    idle_end: bool = field(default=True, repr=False, compare=False)


@bundled
class Wachtuerme(BundledModule):
    """18 watchtowers: bought with a base building of their colour for a surcharge, built at the
    turn's end touching their colour, counting in the longest wall with a bonus."""

    purchases_by_components = True  # its purchase refinements read only its own pieces
    placements_by_pieces = True  # a catalogue tile placed: only a swap may strand a tower
    # (where idle_at may say yes; at a turn's start and end kept in the part: idle_start,
    # idle_end, which turn False with the first watchtower taken)
    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END, Moment.SCORING_BEFORE})
    kept_idle = frozenset({Moment.TURN_START, Moment.TURN_END})

    verb_specs = (
        VerbSpec(
            CHOICE_VERB,
            kind=ActionKind.FREE,
            args=(Arg.COORD, Arg.WORD),
            window=Window.BEFORE_SCORING,
            limit=Limit.PER_SCORING,
            aliases=("längste",),
        ),
    )
    component_kinds = (KIND,)
    scratch_type = TowerScratch
    piece_type = Watchtower

    # ------------------------------------------------------------------ purchase

    @refines(Decision.PAY_PRICE)
    def watchtower_price(self, ctx: Context, price: int, *, purchase: Purchase, **_: Any) -> int:
        """ "Durch den Zukauf eines Wachturms erhöht sich der Kaufpreis eines Gebäudes vor der
        1. Wertung um 6, zwischen 1. und 2. Wertung um 4, zwischen 2. und 3. Wertung um 2";
        "Beide Plättchen werden zusammen ... bezahlt" (the exact test sees the total)."""
        if not _towers_in_payment(purchase):
            return price
        return price + surcharge(len(ctx.state.scorings_done))

    @refines(Decision.PAY_PROBLEMS)
    def watchtower_problems(
        self,
        ctx: Context,
        found: list[Finding],
        *,
        player: PlayerState,
        purchase: Purchase,
        **_: Any,
    ) -> list[Finding]:
        refs = _towers_in_payment(purchase)
        if not refs:
            return found
        out = list(found)
        ref = refs[0]
        pos = ref.pos or purchase.action.pos
        token = f"{ref.kind}:{ref.name}"
        if len(refs) > 1:
            out.append(
                problem(
                    "WACHT-TOKEN",
                    refs[1].pos or pos,
                    player.name,
                    reason="several",
                    token=f"{refs[1].kind}:{refs[1].name}",
                )
            )
        parsed = parse_tower(ref.name)
        if parsed is None:
            out.append(problem("WACHT-TOKEN", pos, player.name, reason="name", token=token))
            return out
        colour = parsed[0]
        tile = purchase.tile
        tile_text = str(getattr(tile, "code", None) or tile) if tile is not None else "?"
        if tile is not None:
            base = type(tile) is TileKind
            typed = getattr(tile, "type", None) is not None
            if not base and not (self.option("buildings") == "any" and typed):
                out.append(problem("WACHT-BASE", pos, player.name, token=token, tile=tile_text))
            elif getattr(tile, "type", None) is not colour:
                out.append(problem("WACHT-COLOUR", pos, player.name, token=token, tile=tile_text))
        state = ctx.state
        if self.data(state).taken[colour] >= per_colour():
            out.append(problem("WACHT-SUPPLY", pos, player.name, colour=colour.code))
        # "Wachtürme können nicht zusammen mit Baustellen erworben werden" (Die Baustellen,
        # Anmerkungen): a site token in the same payment
        for other in purchase.modules_paid:
            handler = state.ext.kind_handler(other.kind)
            if handler is not None and getattr(handler, "name", "") == "baustellen":
                out.append(problem("WACHT-SITE", pos, player.name, token=token))
                break
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """The watchtower bought goes with the building: it is placed at the end of the turn."""
        refs = _towers_in_payment(purchase)
        parsed = parse_tower(refs[0].name) if refs else None
        if parsed is None:
            return
        state = ctx.state
        data = self.data(state)
        if not data.taken:  # the first tower: the turn's start went unnoted (idle_at)
            data.turn_found = len(state.found)
            data.idle_start = data.idle_end = False  # (the kept answers: asked from now on)
        data.taken[parsed[0]] += 1
        if state.turn is not None:
            state.turn.pending.append(Watchtower(parsed[0]))

    # ------------------------------------------------------------------ building

    @refines(Decision.PLACE_PROBLEMS)
    def watchtower_place_problems(
        self,
        ctx: Context,
        found: list[BuildingProblem],
        *,
        player: PlayerState,
        at: Coord,
        piece: Any,
        how: str = "place",
        **_: Any,
    ) -> list[BuildingProblem]:
        """A watchtower placed must touch its colour; "in beliebiger Reihenfolge": while a
        building of its colour bought this turn waits to be placed, the check waits for the
        turn's end. A swap may not leave a neighbouring watchtower without its colour."""
        if not isinstance(piece, Watchtower) and _no_tower_yet(ctx.state, self.name):
            return found  # no watchtower anywhere: nothing to lean on, strand or report
        alh = player.alhambra
        found = _no_camp_beside(alh, at, piece, found)
        if isinstance(piece, Watchtower):
            if how != "place" or secured(alh, at, piece, {}):
                return found
            t = ctx.state.turn
            waiting = t is not None and any(
                getattr(x, "type", None) is piece.colour for x in t.pending
            )
            if waiting:
                return found
            return [*found, BuildingProblem("WACHT-SECURE", (at,))]
        if how != "swap":
            return found
        lost = self._left_alone(alh, at, piece)
        return [*found, BuildingProblem("WACHT-REDESIGN", lost)] if lost else found

    @refines(Decision.REMOVE_PROBLEMS)
    def watchtower_remove_problems(
        self,
        ctx: Context,
        found: list[BuildingProblem],
        *,
        player: PlayerState,
        at: Coord,
        **_: Any,
    ) -> list[BuildingProblem]:
        """ "Ein an einem Wachturm anliegendes Gebäudeplättchen darf nur umgebaut werden, wenn
        der Wachturm nach dem Umbau Kontakt zu wenigstens einem gleichfarbigen Gebäude hat." """
        if _no_tower_yet(ctx.state, self.name):
            return found  # no watchtower anywhere: none can be left without its colour
        lost = self._left_alone(player.alhambra, at, None)
        return [*found, BuildingProblem("WACHT-REDESIGN", lost)] if lost else found

    @staticmethod
    def _left_alone(alh: Any, at: Coord, new: Any) -> tuple[Coord, ...]:
        """The watchtowers next to ``at`` that touch their colour now and would not once the
        piece on ``at`` is replaced by ``new`` (None: removed)."""
        if isinstance(alh.get(at), Watchtower):
            return ()
        out = []
        for side in Side:
            nb = at.neighbour(side)
            tower = alh.get(nb)
            if not isinstance(tower, Watchtower) or side.opposite not in tower.legs:
                continue
            if secured(alh, nb, tower, {}) and not secured(alh, nb, tower, {at: new}):
                out.append(nb)
        return tuple(sorted(out, key=lambda c: (-c.y, c.x)))

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """A watchtower taken out by a redesign (already reported as ``REMOVE-LOCKED``) is not
        reported again when the turn ends with it in the reserve."""
        if isinstance(piece, Watchtower):
            data = self.data(state)
            data.reserved[player.name] = data.reserved.get(player.name, 0) + 1
        return []

    @acts_at(Moment.TURN_START, Moment.TURN_END, Moment.SCORING_BEFORE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """At the end of a turn every watchtower built is secured by its colour (the check
        that waited for a building bought in the same turn), and none lies in the reserve."""
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment == Moment.SCORING_BEFORE:
            self._unstated_choices(ctx)
            return
        if moment == Moment.TURN_START:
            data = self.data(state)
            if data.taken:  # (before the first tower nothing reads it: on_purchase notes it)
                data.turn_found = len(state.found)
        if moment != Moment.TURN_END or state.turn is None:
            return
        player = state.players[state.turn.player]
        pos = ctx.pos or state.turn.pos
        data = self.data(state)
        kept = [x for x in player.reserve if isinstance(x, Watchtower)]
        if len(kept) > data.reserved.get(player.name, 0):
            # a watchtower left unplaced is PLACE-MISSING already (the engine keeps it)
            missing = any(
                f.code == "PLACE-MISSING" and f.player == player.name
                for f in state.found[data.turn_found :]
            )
            for x in kept[data.reserved.get(player.name, 0) :] if not missing else ():
                ctx.flag("WACHT-RESERVE", pos, player.name, tower=x.code)
            data.reserved[player.name] = len(kept)
        if player.alhambra_unknown or player.counts is not None:
            return
        # one finding per watchtower: not again when it was reported placed or redesigned
        told: set[object] = set()
        for f in state.found:
            if f.player != player.name:
                continue
            if f.code == "WACHT-SECURE":
                told.add(f.params.get("at"))
            elif f.code == "WACHT-REDESIGN":
                told.update(str(f.params.get("cells", "")).split(", "))
        for at, tower in towers_of(player.alhambra):
            if str(at) in told or secured(player.alhambra, at, tower, {}):
                continue
            ctx.flag("WACHT-SECURE", pos, player.name, tile=tower.code, at=str(at))

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's start or end, or before a scoring,
        while no watchtower has been bought or laid (the module's part exists, ``taken``
        empty): no tower lies in a reserve or an Alhambra, so there is nothing to note, keep or
        report, and no player has equally long walls that differ in watchtowers."""
        if (
            moment is not Moment.TURN_START
            and moment is not Moment.TURN_END
            and moment is not Moment.SCORING_BEFORE
        ):
            return False
        data = state.modules.get(self.name)
        return data is not None and not data.taken

    # ------------------------------------------------------------------ scoring

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``longest @x,y n``: the segment lies in one of the player's equally long longest
        outer walls."""
        seg = self._segment(player, action)
        text = " ".join(str(a.value) for a in action.args)
        if seg is None:
            return [problem("WACHT-LONGEST", action.pos, player.name, reason="segment", text=text)]
        if player.alhambra_unknown or player.counts is not None:
            return []
        mode = ctx.state.profile.wall_run
        if chosen_longest(player.alhambra, seg, mode) is None:
            runs = longest_runs(player.alhambra, mode)
            return [
                problem(
                    "WACHT-LONGEST",
                    action.pos,
                    player.name,
                    reason="not-longest",
                    text=segment_text(seg),
                    name=player.name,
                    length=runs[0].length if runs else 0,
                    runs=", ".join(segment_text(r.segments[0]) for r in runs) or "-",
                )
            ]
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        seg = self._segment(player, action)
        if seg is not None:
            self.data(state).choices[(player.name, next_scoring(state))] = seg
        return []

    @staticmethod
    def _segment(player: PlayerState, action: ModuleAction) -> Segment | None:
        args = [a.value for a in action.args]
        if len(args) != 2 or not isinstance(args[0], Coord):
            return None
        return read_segment(player.alhambra, args[0], str(args[1]))

    def chosen_run(self, state: GameState, name: str, alhambra: Any, round_no: int) -> WallRun:
        """The longest wall a player scores: the stated choice, else (``choice=best``) the one
        with the most watchtowers among the equally long ones (the first in reading order)."""
        mode = state.profile.wall_run
        seg = self.data(state).choices.get((name, round_no))
        if seg is not None:
            run = chosen_longest(alhambra, seg, mode)
            if run is not None:
                return run
        runs = longest_runs(alhambra, mode)
        if not runs:
            return WallRun(())
        return max(runs, key=lambda r: towers_in(r, alhambra))  # max keeps the first of ties

    def _unstated_choices(self, ctx: Any) -> None:
        """``choice=stated``: equally long longest walls that differ in watchtowers need a
        ``longest`` line before the scoring."""
        state = ctx.state
        if self.option("choice") != "stated":
            return
        round_no = len(state.scorings_done) + 1  # the scoring line being computed
        mode = state.profile.wall_run
        for p in state.players:
            if p.alhambra_unknown or p.counts is not None or not towers_of(p.alhambra):
                continue
            if (p.name, round_no) in self.data(state).choices:
                continue
            runs = longest_runs(p.alhambra, mode)
            if len({towers_in(r, p.alhambra) for r in runs}) > 1:
                ctx.flag(
                    "WACHT-LONGEST",
                    ctx.pos,
                    p.name,
                    reason="unstated",
                    name=p.name,
                    count=len(runs),
                )

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Wachtürme ... zählen bei der Feststellung des längsten zusammenhängenden
        Mauerstückes jeweils 1 Punkt" (the platform's wall graph counts the diagonal);
        "Anschließend bringt jeder Wachturm im längsten Mauerabschnitt einen Bonus von 2
        weiteren Punkten": a ``watchtower`` line for every player with a watchtower. None
        while no watchtower was bought or laid (``taken`` empty: no Alhambra holds one, so no
        player would have the line)."""
        data = state.modules.get(self.name)
        if data is not None and not data.taken:
            return None
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        def points(p: Any) -> tuple[int, str, str] | None:
            if p.alhambra is None or not towers_of(p.alhambra):
                return None
            run = self.chosen_run(state, p.name, p.alhambra, round_no)
            n = towers_in(run, p.alhambra)
            where = segment_text(run.segments[0]) if run.segments else "-"
            return (
                wall_bonus() * n,
                f"{n} in the longest wall ({run.length}, from {where}) x {wall_bonus()}",
                f"{n} im längsten Mauerabschnitt ({run.length}, ab {where}) x {wall_bonus()}",
            )

        return ScoringParts(
            categories=(
                PointLine(
                    "watchtower", "watchtowers", "Wachtürme", self.section, points, order=210
                ),
            )
        )

    # ------------------------------------------------------------------ positions and view

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A built watchtower in a position's Alhambra (``alhambra wt:Tsw@2,1``); a moment
        inside a turn: one bought and not built yet (``bought wt:A A8e``, its colour only)."""
        if ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        parsed = parse_tower(ref.name)
        t = state.turn
        mover = t is not None and player is not None and t.player == player.index
        if where == "reserve" and mover and parsed is not None and parsed[1] is None:
            self._count_taken(state, parsed[0], ref, who)
            return True, Watchtower(parsed[0])
        if parsed is None or parsed[1] is None:
            state.flag("WACHT-TOKEN", ref.pos, who, reason="half", token=f"{KIND}:{ref.name}")
            return True, None
        self._count_taken(state, parsed[0], ref, who)
        return True, Watchtower(parsed[0], parsed[1])

    def _count_taken(
        self, state: GameState, colour: BuildingType, ref: ComponentRef, who: str | None
    ) -> None:
        data = self.data(state)
        if data.taken[colour] >= per_colour():
            state.flag("WACHT-SUPPLY", ref.pos, who, colour=colour.code)
        data.taken[colour] += 1
        data.idle_start = data.idle_end = False  # (the kept answers: asked from now on)

    def view(self, state: GameState) -> dict[str, Any]:
        """The watchtowers left per colour and each player's watchtowers built."""
        data = self.data(state)
        left = " ".join(f"{c.code}{per_colour() - data.taken[c]}" for c in BuildingType)
        players = {
            p.name: {"built": " ".join(f"{t.code}@{at}" for at, t in towers)}
            for p in state.players
            if (towers := towers_of(p.alhambra))
        }
        return self.shown({"left": left}, players)

    # ------------------------------------------------------------------ moves

    def legal_actions(self, ctx: Context, player: PlayerState) -> list[Any]:
        """Purchases of a market building with the watchtower of its colour (enough money of
        the field's currency for price + surcharge, no superfluous card), offered only while
        a cell next to a building of that colour would take the watchtower now, so that a
        simulated player can always build it."""
        state = ctx.state
        out: list[Any] = []
        if state.turn is not None and state.turn.interrupt is not None:
            return out
        if player.alhambra_unknown or player.counts is not None:
            return out
        data = self.data(state)
        hand = list(player.hand.elements())
        extra = surcharge(len(state.scorings_done))
        from referee.catalogue import Currency

        for idx, slot in enumerate(state.market):
            if type(slot) is not TileKind or data.taken[slot.type] >= per_colour():
                continue
            fld = Currency.of_field(idx + 1)
            # the first payment (the cheap question) before the cells (the costly one)
            combo = next(iter(payments(hand, frozenset({fld}), slot.price + extra)), None)
            if combo is None or not self._spots(ctx, player, Watchtower(slot.type), first=True):
                continue
            ref = TileRef(slot.type, slot.price, slot.walls, (slot,))
            paid: tuple[CardRef | ComponentRef, ...] = (
                *(CardRef(c) for c in combo),
                ComponentRef(KIND, slot.type.code),
            )
            out.append(Buy(fld, ref, paid))
        return out

    @staticmethod
    def _spots(
        ctx: Context, player: PlayerState, tower: Watchtower, first: bool = False
    ) -> list[Any]:
        """Where ``tower`` may be built now touching its colour: only the empty cells beside a
        building of its colour, each half whose leg faces that building, asked of the building
        rules (``first``: stop at the first one found)."""
        alh = player.alhambra
        out: list[Any] = []
        seen: set[tuple[Coord, str]] = set()
        for at, piece in sorted(alh.items(), key=lambda cp: (cp[0].x, cp[0].y)):
            if getattr(piece, "type", None) is not tower.colour:
                continue
            for side in Side:
                cell = at.neighbour(side)
                if alh.get(cell) is not None:
                    continue
                for turned in tower.orientations():
                    key = (cell, turned.half_at or "")
                    if side.opposite not in turned.legs or key in seen:
                        continue
                    seen.add(key)
                    if ctx.decide(
                        Decision.PLACE_PROBLEMS, player=player, at=cell, piece=turned, how="place"
                    ):
                        continue
                    out.append(Place(ComponentRef(KIND, turned.token_name), cell))
                    if first:
                        return out
        return out

    owed_before = "turn-end"  # the watchtower is placed among the turn's placements

    def owed_actions(self, ctx: Context, player: PlayerState) -> list[Any]:
        """A watchtower bought waits for its place: where it touches its colour now (the
        simulator builds it first; it may never go to the reserve)."""
        t = ctx.state.turn
        if t is None or t.player != player.index:
            return []
        for piece in t.pending:
            if isinstance(piece, Watchtower):
                return self._spots(ctx, player, piece)
        return []

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a purchase with a watchtower, so that simulated games build some."""
        if sim.rng.random() >= 0.5:
            return []
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and any(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
        ]


__all__ = ["Wachtuerme", "Watchtower", "parse_tower", "secured", "surcharge", "towers_in"]
