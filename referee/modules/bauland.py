"""Neues Bauland (Dirk Henn): eight plots in the tower; a bought plot at once receives a building
from the column under its number tile.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Dirk Henn: Neues Bauland.

Notation: a plot is the component token ``bl:`` + its number (1-4) + ``_`` + its price + the
sides with a wall in the order ``n e s w`` (``x``: none), then optionally ``_`` + the building
it carries: ``bl:2_12n`` is the plot of number tile 2 priced 12 with a wall north,
``bl:2_12n_C`` the same plot carrying chambers.

* ``* plots 1 P A C`` -- the three plot buildings under number tile 1, top to bottom ("jeweils
  3 der Baugebäude offen untereinander"); one line per number tile before play.
* ``* market De:bl:2_12n`` -- a plot drawn from the tower ("mit den anderen Alhambra-Plättchen
  gemischt und in den Turm gegeben"); also among Dirk's tiles.
* ``buy De bl:2_12n pay De9 De3, plot C, place bl:2_12n_C@1,2`` -- bought for its price, then
  at once one building of its number's column chosen (``plot C``, no action) and laid on the
  plot, "auch in dem Fall, dass das Gebäude in die Reserve gelegt wird".
* Dirk's plots take the topmost building of their column (no line).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter, is_, ne

from referee.catalogue import SIDES, BuildingType, Side
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.state import GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.modules.base import BundledModule, ModulePiece, Scratch, bundled, module_data, section
from referee.notation.tokens import read_walls, walls_token
from referee.record.model import NOWHERE, ComponentRef, GenericArg, ModuleAction, ModuleChance, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Dirk Henn: Neues Bauland"
S_SCORE = section(H, "Wertungsänderungen")
S_TWO = section(H, "Sonderregeln im Spiel zu zweit")
KIND = "bl"
VERB = "plot"
CHANCE_VERB = "plots"
TOKEN = re.compile(r"^(\d)_(\d{1,2})([a-z]*)(?:_([psacgt]))?$", re.IGNORECASE)


# ----------------------------------------------------------------------------- data


_C: dict[str, Any] = module_data("bauland")["components"]
PER_NUMBER = {int(k): int(v) for k, v in _C["plots"]["per_number"].items()}
NUMBERS = [int(n) for n in _C["numbers"]]
_NUMBER_SET = frozenset(NUMBERS)
PRICE_RANGE = (int(_C["plots"]["price_range"][0]), int(_C["plots"]["price_range"][1]))
PER_TYPE = {BuildingType(str(k)): int(v) for k, v in _C["buildings"]["per_type"].items()}
COLUMN_SIZE = int(_C["column_size"])
_TOWER_COMPONENTS = {str(n): c for n, c in PER_NUMBER.items()}  # (Bauland.tower_components)


# ----------------------------------------------------------------------------- the piece


@dataclass(frozen=True, slots=True)
class ParsedPlot:
    """A plot's token as read: its number, its price, its walls (None: none written) and its
    building type (None: none written)."""

    number: int
    price: int
    walls: frozenset[Side] | None
    kind: BuildingType | None


@lru_cache(maxsize=256)  # asked for the same few tokens again and again; bounded (records)
def parse_plot(name: str) -> ParsedPlot | None:
    """``2_12n`` -> number 2, price 12, wall north; ``2_12n_C`` with chambers; else None."""
    m = TOKEN.match(name)
    if m is None:
        return None
    rest = m.group(3).lower()
    walls = read_walls(rest) if rest else None
    if rest and walls is None:
        return None
    kind = BuildingType(m.group(4).upper()) if m.group(4) else None
    return ParsedPlot(int(m.group(1)), int(m.group(2)), walls, kind)


@lru_cache(maxsize=64)  # a plot's walls: one of 16 sets; its code is asked at every step
def _walls_text(walls: frozenset[Side]) -> str:
    """``walls_token(walls)``, kept per set of walls (a pure function of it)."""
    return walls_token(walls)


@dataclass(frozen=True, slots=True)
class Plot(ModulePiece):
    """A building plot: a tile with its own walls and price (reading: the walls are the plot's,
    the building only gives the type), counting as a building of the type laid on it ("Die so
    entstandenen Gebäude zählen bei einer Wertung wie die anderen Gebäuden des gleichen
    Typs"); without a building it counts as none."""

    number: int
    price: int
    walls: frozenset[Side]
    kind: BuildingType | None = None
    # a building the drawing line stated (``* dirk bl:3_7w_A``): checked against Dirk's top
    # building; on the market a plot lies empty (BAULAND-TOKEN built)
    stated: BuildingType | None = field(default=None, compare=False)
    stated_pos: Pos | None = field(default=None, compare=False)

    KIND = KIND
    from_tower = True  # a tile of the tower (E5)
    rotation_rule = "BAULAND-FACE"  # a token stating other walls (E6 check)
    cell_fill = "#c8b48a"  # earth: a plot

    @property
    def type(self) -> BuildingType | None:
        return self.kind

    def built(self, kind: BuildingType) -> Plot:
        """The plot with the building ``kind``: ``dataclasses.replace(self, kind=kind)``, field
        by field (``replace`` walks the fields generically: some 190 bytecodes a call)."""
        return Plot(self.number, self.price, self.walls, kind, self.stated, self.stated_pos)

    @property
    def token_name(self) -> str:
        base = f"{self.number}_{self.price}{_walls_text(self.walls)}"
        return base if self.kind is None else f"{base}_{self.kind.code}"

    @property
    def cell_label(self) -> str:
        return f"{self.kind.code if self.kind else '-'}{self.price}#{self.number}"

    def named_by(self, name: str) -> bool:
        """A token names this plot by number and price (the building, if stated, is checked
        where it is stated: ``BAULAND-CHOICE``; the walls when built in: ``BAULAND-FACE``)."""
        parsed = parse_plot(name)
        return parsed is not None and (parsed.number, parsed.price) == (self.number, self.price)

    def stated_walls(self, ref: ComponentRef) -> frozenset[Side] | None:
        parsed = parse_plot(ref.name) if ref.kind.lower() == KIND else None
        return None if parsed is None else parsed.walls


# ``type`` read without a call: the slot of ``kind`` itself (the property above is what it
# answers and what type checkers read; issue 34, twenty-fifth step)
setattr(Plot, "type", Plot.__dict__["kind"])  # noqa: B010 (a property to type checkers)


_ALHAMBRA_AND_VERSION = attrgetter("alhambra", "alhambra.version")
_KIND = attrgetter("kind")
_TURN_START, _TURN_END = Moment.TURN_START, Moment.TURN_END
_RESERVE = attrgetter("reserve")


def _moment_pos(ctx: Any) -> Pos | None:
    """Where a moment's step reports: the moment's line, else the turn's (None: neither)."""
    state = ctx.state
    return ctx.pos or (state.turn.pos if state.turn is not None else None)


def plots_of(pieces: Any) -> list[Plot]:
    return [p for p in pieces if isinstance(p, Plot)]


def unbuilt_plots(pieces: Sequence[Any]) -> list[Plot]:
    """The plots without a building among ``pieces``, in their order: ``[p for p in
    plots_of(pieces) if p.kind is None]``, each step in C (``_unbuilt`` asks it of a whole
    Alhambra at every turn end; tests/test_module_bauland_fast.py holds the two equal)."""
    plots = list(compress(pieces, map(isinstance, pieces, repeat(Plot))))
    return list(compress(plots, map(is_, map(_KIND, plots), repeat(None))))


@dataclass
class BaulandScratch(Scratch):
    # the buildings under each number tile, top first
    """The module's own part of the game state (``state.modules``), copied with the state."""

    columns: dict[int, list[BuildingType]] = field(default_factory=dict)
    laid_out: Counter[BuildingType] = field(default_factory=Counter)
    missing_flagged: bool = False
    # plots already reported without a building (player, code)
    unbuilt_flagged: set[tuple[str, str]] = field(default_factory=set)
    # the buildings taken: (who, plot code)
    taken: list[tuple[str, str]] = field(default_factory=list)
    # the plot bought last in the current turn and still waiting for its building ("sofort"):
    # (turn number, plot code, the buy's line, the turn as it stood right after the purchase)
    waiting: tuple[int, str, int, tuple[Any, ...]] | None = None
    # [issue 34] every plot without a building this module made (drawn from the tower, stated
    # by a position) and has not itself replaced by its built copy since: only these can lie
    # without a building in an Alhambra or a reserve (a plot's building is never taken off; a
    # plot is made only here). Held by identity: a state's copy holds copies of them, never
    # found on the copy's market (its idle answer then says no: the step runs, as before)
    loose: list[Plot] = field(default_factory=list)
    # the idle answers kept for the engine (Module.kept_idle, ``idle_at``'s answers), True only
    # in a game without Dirk (his pieces change outside this module): at a turn's start once
    # the columns are complete or their lack reported; at its end while no plot is loose
    idle_start: bool | None = field(default=None, repr=False, compare=False)
    idle_end: bool | None = field(default=None, repr=False, compare=False)


@bundled
class Bauland(BundledModule):
    """Eight plots in the tower; a bought plot receives a building from its number's column."""

    purchases_by_components = True  # its purchase refinements read only its own pieces
    # a plot on a market field is bought as a catalogue tile; its on_purchase does for it only
    # what after_plain_purchase does (the plot waits for its building), for any purchase
    plain_market_pieces = True
    hears_component_purchases = True
    reads_changes = True  # its choice "sofort" compares GameState.changes (wait_for_change)

    aliases = ("neues-bauland", "building-land")
    # no action: the choice of a bought plot's building (its arguments checked here)
    verb_specs = (VerbSpec(VERB, kind="free"),)
    chance_verbs = (CHANCE_VERB,)
    component_kinds = (KIND,)
    scratch_type = BaulandScratch

    def __init__(self) -> None:
        super().__init__()
        # (module data, per seat (Alhambra, version), per seat the reserve) at _unbuilt's last look
        self._unbuilt_table: tuple[Any, ...] | None = None
        # Dirk's pieces when _dirk last left none of them a plot without a building
        self._dirk_built: list[Any] | None = None

    # ----------------------------------------------------------------- the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "Die 8 Baugrundstücke werden mit den anderen Alhambra-Plättchen gemischt und in den
        Turm gegeben": per number tile (two each: unverified, see the YAML)."""
        return dict(_TOWER_COMPONENTS)  # (a fresh copy, as each call made one)

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        parsed = self._parse(state, ref, pos, None)
        if parsed is None:
            return None
        token = f"{ref.kind}:{ref.name}"
        if parsed.walls is None:
            state.flag("BAULAND-TOKEN", pos, reason="no-walls", token=token)
            return str(parsed.number), None
        plot = Plot(parsed.number, parsed.price, parsed.walls, None, parsed.kind, ref.pos or pos)
        data = self.data(state)
        data.loose.append(plot)
        data.idle_end = None  # (a loose plot: the turn's end is asked)
        return str(parsed.number), plot

    def _parse(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> ParsedPlot | None:
        token = f"{ref.kind}:{ref.name}"
        parsed = parse_plot(ref.name) if ref.kind.lower() == KIND else None
        if parsed is None:
            state.flag("BAULAND-TOKEN", pos, who, reason="form", token=token)
            return None
        if parsed.number not in NUMBERS:
            state.flag(
                "BAULAND-TOKEN",
                pos,
                who,
                reason="no-such-number",
                token=token,
                numbers=", ".join(str(n) for n in NUMBERS),
            )
            return None
        low, high = PRICE_RANGE
        if not low <= parsed.price <= high:
            state.flag(
                "BAULAND-TOKEN",
                pos,
                who,
                reason="no-such-price",
                token=token,
                low=low,
                high=high,
                source=_C["plots"].get("price_range_source", "-"),
            )
            return None
        return parsed

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A plot in a position's market, Dirk's tiles, reserve or Alhambra (with its building
        where it has one)."""
        if where not in ("market", "reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        parsed = self._parse(state, ref, ref.pos, who)
        if parsed is None:
            return True, None
        token = f"{ref.kind}:{ref.name}"
        take_from_tower(state, self, str(parsed.number), token, ref.pos, who)
        if parsed.walls is None:
            state.flag("BAULAND-TOKEN", ref.pos, who, reason="no-walls", token=token)
            return True, None
        plot = Plot(parsed.number, parsed.price, parsed.walls, parsed.kind)
        if plot.kind is None:
            data = self.data(state)
            data.loose.append(plot)
            data.idle_end = None  # (a loose plot: the turn's end is asked)
        return True, plot

    # ----------------------------------------------------------------- the columns

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* plots 1 P A C``: the column under number tile 1, top to bottom."""
        data, pos = self.data(state), event.pos
        number, kinds, bad = _column(event.args)
        if number is None:
            state.flag("BAULAND-SETUP", bad or pos, reason="syntax")
            return []
        if state.phase != "setup":
            state.flag("BAULAND-SETUP", pos, reason="after-play")
        if number in data.columns:
            state.flag("BAULAND-SETUP", pos, reason="twice", number=number)
            return []
        if len(kinds) != COLUMN_SIZE:
            state.flag("BAULAND-SETUP", pos, reason="count", number=number, n=len(kinds))
        for k in kinds:
            data.laid_out[k] += 1
            if data.laid_out[k] > PER_TYPE.get(k, 0):
                state.flag("BAULAND-SETUP", pos, reason="supply", type=k.code, n=data.laid_out[k])
        data.columns[number] = kinds
        _keep_idle_start(state, data)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``plots 1 P A`` in a position block (outside a player section): the buildings still
        under number tile 1, top to bottom (0-3 of them)."""
        if player is not None or line.verb.lower() != CHANCE_VERB:
            return False
        data = self.data(state)
        number, kinds, _bad = _column(line.args)
        if number is None:
            state.flag("BAULAND-SETUP", line.pos, reason="syntax")
            return True
        if number in data.columns:
            state.flag("BAULAND-SETUP", line.pos, reason="twice", number=number)
            return True
        if len(kinds) > COLUMN_SIZE:
            state.flag("BAULAND-SETUP", line.pos, reason="count", number=number, n=len(kinds))
        data.columns[number] = kinds
        _keep_idle_start(state, data)
        if self._columns_known(state):
            self._position_supply(state, line.pos)
        return True

    def _position_supply(self, state: GameState, pos: Pos) -> None:
        """All four columns stated: the buildings still under the number tiles and those on
        plots (in the players' Alhambras and reserves, with Dirk, on the market) are at most
        the plot buildings that exist ("je 2 Gebäudeplättchen jedes Gebäudetyps")."""
        data = self.data(state)
        pieces: list[Any] = list(state.market) + list(state.dirk or [])
        for p in state.players:
            pieces += [x for _c, x in p.alhambra.items()] + list(p.reserve)
        seen: Counter[BuildingType] = Counter(k for col in data.columns.values() for k in col)
        seen.update(plot.kind for plot in plots_of(pieces) if plot.kind is not None)
        for kind, n in sorted(seen.items(), key=lambda x: x[0].code):
            if n > PER_TYPE.get(kind, 0):
                state.flag("BAULAND-SETUP", pos, reason="supply", type=kind.code, n=n)
        data.laid_out = seen

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``plots 1 P A`` for every column stated (``plots 4`` when it is empty); the plots
        themselves stand in the market, Dirk's tiles, reserves and Alhambras by their token."""
        if player is not None:
            return []
        return [
            ModuleAction(CHANCE_VERB, (GenericArg(n), *(GenericArg(k.code) for k in column)))
            for n, column in sorted(self.data(state).columns.items())
        ]

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        """A plot in an Alhambra stated without its building counts as no building: reported
        (``BAULAND-CHOICE``, reason ``position``), never silently. With ``leftover=none`` a
        plot handed out at the end rightly carries none: not reported then."""
        if self.option("leftover") == "none":
            return
        for p in ctx.state.players:
            for plot in plots_of(x for _c, x in p.alhambra.items()):
                if plot.kind is None:
                    ctx.flag(
                        "BAULAND-CHOICE",
                        ctx.pos,
                        p.name,
                        reason="position",
                        plot=plot.code,
                        name=p.name,
                    )

    def _columns_known(self, state: GameState) -> bool:
        return self.data(state).columns.keys() >= _NUMBER_SET

    # ----------------------------------------------------------------- the choice

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Anschließend sucht er sofort eines der Baugebäude aus": the turn as it stands right
        after a plot's purchase, so that ``plot`` can tell whether anything came between."""
        self._bought(ctx.state, purchase.player, purchase.tile, purchase.action.pos)

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """A purchase carried out in one pass (``purchase.purchase_plain``): what
        :meth:`on_purchase` does for it (a plot bought from a market field waits for its
        building; any other piece: nothing)."""
        plot = buy.tile
        if isinstance(plot, Plot) and plot.kind is None:  # (_bought's first look, inline)
            self._bought(state, buy.player, plot, buy.action.pos)

    def _bought(self, state: GameState, player: PlayerState, plot: Any, pos: Pos) -> None:
        """The purchase of ``plot`` (any piece bought) by ``player`` on line ``pos``: a plot
        without a building waits for its choice, which must come "sofort"."""
        t = state.turn
        if not isinstance(plot, Plot) or t is None or plot.kind is not None:
            return
        data = self.data(state)
        self._check_waiting(state, player, pos, before=True)
        # the purchase appends the plot to the turn's pieces to place after this hook; the
        # other modules' views are taken at the next change (_views_at_change), not here
        counts = _turn_mark(state, player, self, len(t.pending) + 1, False)
        data.waiting = (t.number, plot.code, pos.line, (state.changes, counts, None))
        state.wait_for_change(self._views_at_change)

    def _views_at_change(self, state: GameState, action: Any) -> None:
        """[dispatch, issue 34] The other modules' views for the waiting plot's mark, taken at
        the next raise of the engine's change counter after its purchase (GameState.
        wait_for_change: before anything changes the state again, so they are the views as the
        purchase left them; equal to taking them in ``on_purchase``, as before: held by
        tests/test_module_dispatch.py). Not taken when that next action is the choice itself
        (``plot``, the common case): then nothing ran between, and ``_late`` compares without
        them; the step waits for the change after it (a ``plot`` not written right leaves the
        plot waiting). Nor for a turn that has ended (``_late`` answers None there)."""
        waiting, t = (state.modules.get(self.name) or self.data(state)).waiting, state.turn
        if waiting is None or waiting[3][2] is not None or t is None or waiting[0] != t.number:
            return
        if isinstance(action, ModuleAction) and action.verb.lower() == VERB:
            state.wait_for_change(self._views_at_change)
            return
        changes, counts, _none = waiting[3]
        self.data(state).waiting = (*waiting[:3], (changes, counts, _views(state, self)))

    def _late(
        self, state: GameState, player: PlayerState, before: bool = False
    ) -> tuple[int, str, int, tuple[Any, ...]] | None:
        """The plot bought in this turn whose building was not chosen right after the purchase
        (pure; None: none)."""
        waiting, t = (state.modules.get(self.name) or self.data(state)).waiting, state.turn
        if waiting is None or t is None or waiting[0] != t.number:
            return None
        still = any(x.code == waiting[1] for x in plots_of(t.pending) if x.kind is None)
        if before and not still:
            return None  # its building was chosen (or it left the turn's pieces: reported there)
        # (the mark, every enabled module's view, only where it decides: not ``before``)
        if not before:
            # [dispatch, issue 34] the engine's change counter (GameState.changes) moved once
            # since the purchase, at this action's start: no action or module step ran between,
            # so every module's view is as at the purchase; the rest of the mark is compared
            # (equal to comparing the whole mark, tests/test_module_dispatch.py)
            changes, counts, views = waiting[3]
            if state.changes == changes + 1:
                same = _turn_mark(state, player, self, len(t.pending), False) == counts
            else:  # (the views were taken at the first change after the purchase)
                same = _turn_mark(state, player, self, len(t.pending)) == (*counts, views)
            if same:
                return None
        return waiting

    def _late_finding(self, waiting: Any, player: PlayerState, pos: Pos) -> Finding:
        _number, code, line, _mark = waiting
        name = player.name
        return problem("BAULAND-CHOICE", pos, name, reason="late", plot=code, line=line, name=name)

    def _check_waiting(
        self, state: GameState, player: PlayerState, pos: Pos, before: bool = False
    ) -> bool:
        """Report (``BAULAND-CHOICE``, reason ``late``) a plot bought in this turn whose
        building was not chosen right after the purchase; True when it was reported."""
        waiting = self._late(state, player, before)
        self.data(state).waiting = None
        if waiting is not None:
            report(state, [self._late_finding(waiting, player, pos)])
        return waiting is not None

    def _choice(
        self, state: GameState, player: PlayerState, action: ModuleAction, check: bool = True
    ) -> tuple[list[Finding], tuple[BuildingType, Plot | None, int | None] | None]:
        """What ``plot C`` breaks (pure), and what it does: the building, the plot it goes on
        (None: none) and that plot's index among the turn's pieces to place (None: the plot
        was placed or reserved already, late). None when it is not written right. Without
        ``check`` (the change only) the findings may be left incomplete: whether the choice
        came late (every module's view compared) is then asked only where the change needs
        it."""
        pos, name, args = action.pos, player.name, action.args
        kind = _building(args[0].value) if args else None
        named = args[1].value if len(args) > 1 else None
        if kind is None or len(args) > 2 or (named is not None and not _is_ref(named)):
            return [problem("BAULAND-CHOICE", pos, name, reason="syntax")], None
        pending = state.turn.pending if state.turn is not None else []
        index = next(
            (
                i
                for i, piece in enumerate(pending)
                if isinstance(piece, Plot)
                and piece.kind is None
                # named is a ComponentRef here (_is_ref above)
                and (named is None or piece.matches(named))  # type: ignore[arg-type]
            ),
            None,
        )
        waiting = self._late(state, player) if check or index is None else None
        found = [] if waiting is None else [self._late_finding(waiting, player, pos)]
        if index is None:
            placed = None if waiting is None else _unbuilt_plot(player, waiting[1])
            if placed is None:
                found.append(problem("BAULAND-CHOICE", pos, name, reason="no-plot", name=name))
                return found, (kind, None, None)
            # placed before its building was chosen: one finding (late), laid on it all the same
            found += self._column_findings(state, name, placed, kind, _turn_pos(state))
            return found, (kind, placed, None)
        plot = pending[index]
        assert isinstance(plot, Plot)
        if plot.stated is not None:  # drawn for the market with a building: it lies empty
            at = plot.stated_pos or pos
            found.append(problem("BAULAND-TOKEN", at, name, reason="built", token=plot.code))
        return found + self._column_findings(state, name, plot, kind, pos), (kind, plot, index)

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``plot C``: right after the purchase of a plot of this turn, a building of its
        number's column."""
        return self._choice(ctx.state, player, action)[0]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``plot C`` (``plot C bl:2_12n``): the building is taken from the column and laid on
        the plot ("auch in dem Fall, dass das Gebäude in die Reserve gelegt wird")."""
        chosen = self._choice(state, player, action, check=False)[1]
        if chosen is None:
            return []
        self.data(state).waiting = None
        kind, plot, index = chosen
        if plot is None:
            return []
        self._take(state, player.name, plot, kind, action.pos, checked=True)
        if index is not None and state.turn is not None:
            state.turn.pending[index] = plot.built(kind)
        else:
            _lay(player, plot, plot.built(kind))
        _replaced(state, self.data(state), plot)
        return []

    def _column_findings(
        self, state: GameState, who: str, plot: Plot, kind: BuildingType, pos: Pos
    ) -> list[Finding]:
        """``kind`` does not lie in the plot's column (none when the column's setup line is
        missing: that is reported once, BAULAND-SETUP missing)."""
        column = (state.modules.get(self.name) or self.data(state)).columns.get(plot.number)
        if column is None or kind in column:
            return []
        return [
            problem(
                "BAULAND-CHOICE",
                pos,
                who,
                reason="not-in-column",
                type=kind.code,
                number=plot.number,
                plot=plot.code,
                column=" ".join(k.code for k in column) or "-",
            )
        ]

    def _take(
        self,
        state: GameState,
        who: str,
        plot: Plot,
        kind: BuildingType,
        pos: Pos,
        checked: bool = False,
    ) -> None:
        """Take ``kind`` from the plot's column (reported when it does not lie there, unless
        the verb's check did)."""
        data = self.data(state)
        if not checked:
            report(state, self._column_findings(state, who, plot, kind, pos))
        data.taken.append((who, plot.built(kind).code))
        column = data.columns.get(plot.number)
        if column is not None and kind in column:
            column.remove(kind)

    def _top(self, state: GameState, who: str, plot: Plot, pos: Pos) -> Plot:
        """The plot with the topmost building of its column (Dirk; leftovers)."""
        column = self.data(state).columns.get(plot.number)
        if not column:
            return plot
        kind = column[0]
        self._take(state, who, plot, kind, pos)
        return plot.built(kind)

    # ----------------------------------------------------------------- moments

    @acts_at(
        Moment.TURN_START,
        Moment.TURN_END,
        Moment.SCORING_DONE,
        Moment.LEFTOVERS_BEFORE,
        Moment.LEFTOVERS_DONE,
    )
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        # asked twice a turn (TURN_START, TURN_END): the turn's end is told apart first; Dirk's
        # step is called only when Dirk has pieces (``_dirk`` returns at once without them)
        state: GameState = ctx.state
        if moment is _TURN_END:
            if state.dirk:
                self._dirk(state, _moment_pos(ctx))
            # (asked because another module is busy: with no plot loose, the kept answer, no
            # Alhambra or reserve holds one without a building: nothing to look at)
            data = state.modules.get(self.name)
            if data is None or (
                data.idle_end is not True and not _all_loose_on_market(state, data)
            ):
                self._unbuilt(state, ctx)  # (the place it reports at taken only to report)
            return
        if moment is _TURN_START:
            # self.data(state) without its call once the module's part exists
            data = state.modules.get(self.name) or self.data(state)
            if not data.missing_flagged and not data.columns.keys() >= _NUMBER_SET:
                data.missing_flagged = True
                state.flag(
                    "BAULAND-SETUP",
                    _moment_pos(ctx) or NOWHERE,
                    reason="missing",
                    numbers=", ".join(str(n) for n in NUMBERS if n not in data.columns),
                )
            if state.dirk:
                self._dirk(state, _moment_pos(ctx))
            elif state.dirk is None:  # (the columns complete or their lack reported: idle)
                data.idle_start = True
            return
        if moment == Moment.SETUP_DONE:  # the kit's step only (the module's part exists)
            super().at_moment(ctx, moment)
            return
        pos = _moment_pos(ctx)
        if moment in (Moment.SCORING_DONE, Moment.LEFTOVERS_BEFORE):
            self._dirk(state, pos)
        elif moment == Moment.LEFTOVERS_DONE:
            self._dirk(state, pos)
            if self.option("leftover") == "top":
                self._leftovers(state, pos)

    def _dirk(self, state: GameState, pos: Pos | None) -> None:
        """ "Erhält Dirk ein Baugrundstück, so nimmt er das am weitesten oben liegende
        Baugebäude": every plot with Dirk without a building takes the top one.

        Asked at every turn start and end, it walks Dirk's pieces only when they are not the
        same (equal, one by one) as when a walk last left no plot without a building there:
        equal pieces hold no such plot either (a plot's equality includes its building)."""
        dirk = state.dirk
        if not dirk or dirk == self._dirk_built:
            return
        left = False  # a plot without a building stays (its column is empty)
        for i, piece in enumerate(dirk):
            if isinstance(piece, Plot) and piece.kind is None:
                here = piece.stated_pos or pos or NOWHERE
                built = self._top(state, "Dirk", piece, here)
                if (
                    piece.stated is not None
                    and built.kind is not None
                    and built.kind != piece.stated
                ):
                    state.flag(
                        "BAULAND-DIRK",
                        here,
                        plot=piece.code,
                        top=built.kind.code,
                        stated=piece.stated.code,
                    )
                dirk[i] = built
                if built.kind is None:
                    left = True
                else:
                    _replaced(state, self.data(state), piece)
        self._dirk_built = None if left else list(dirk)

    def _unbuilt(self, state: GameState, ctx: Any) -> None:
        """A plot in an Alhambra or reserve without a building: its buyer chose none.

        Asked at every turn end, it looks again only at a player whose Alhambra (its
        ``version``) or reserve changed since it last looked with the same module data: a
        look reports every plot without a building, so an unchanged Alhambra and reserve have
        nothing new to report."""
        # self.data(state) without its call once the module's part exists (asked each turn)
        data = state.modules.get(self.name) or self.data(state)
        players = state.players
        # first the whole table in one comparison, its parts built in C (no Python step per
        # seat): when no seat's Alhambra, its version or reserve changed since the last look
        # with the same module data, the loop below would pass over every seat
        table = (
            data,
            list(map(_ALHAMBRA_AND_VERSION, players)),
            list(map(tuple, map(_RESERVE, players))),
        )
        old = self._unbuilt_table
        if table == old:
            return
        self._unbuilt_table = table
        # (the module data by identity first, as the tuples compare it: ``!=`` alone would
        # compare every field of the same scratch)
        if old is None or (old[0] is not data and old[0] != data) or len(old[1]) != len(players):
            seats: Iterable[int] = range(len(players))
        else:
            # only the seats whose Alhambra, its version or reserve changed since the last
            # look (each compared in C, by identity first, else by equality, which reports
            # the same: an equal Alhambra and reserve hold the same plots)
            now, then = zip(table[1], table[2], strict=True), zip(old[1], old[2], strict=True)
            seats = compress(range(len(players)), map(ne, now, then))
        for i in seats:
            p = players[i]
            for plot in unbuilt_plots((*p.alhambra.cells.values(), *p.reserve)):
                key = (p.name, plot.code)
                if key not in data.unbuilt_flagged:
                    data.unbuilt_flagged.add(key)
                    state.flag(
                        "BAULAND-CHOICE",
                        _moment_pos(ctx) or NOWHERE,
                        p.name,
                        reason="missing",
                        plot=plot.code,
                        name=p.name,
                    )

    def _leftovers(self, state: GameState, pos: Pos | None) -> None:
        """A plot handed out at the game end takes the topmost building of its column (reading,
        option ``leftover``)."""
        for p in state.players:
            # (the plots without a building, picked out in C: ``unbuilt_plots``)
            for plot in unbuilt_plots((*p.alhambra.cells.values(), *p.reserve)):
                if plot.kind is None:
                    built = self._top(state, p.name, plot, pos or NOWHERE)
                    _lay(p, plot, built)
                    if built.kind is not None:
                        _replaced(state, self.data(state), plot)

    # ----------------------------------------------------------------- view

    def view(self, state: GameState) -> dict[str, Any]:
        """The columns under the number tiles, plots left in the tower, each player's plots."""
        data = self.data(state)
        table: dict[str, str] = {}
        for n in NUMBERS:
            column = data.columns.get(n)
            table[f"number tile {n}"] = (
                "?" if column is None else (" ".join(k.code for k in column) or "-")
            )
        table["plots in the tower"] = str(tower_total(state, self))
        if state.dirk is not None:
            table["Dirk"] = " ".join(x.code for x in plots_of(state.dirk)) or "-"
        table["options"] = f"leftover={self.option('leftover')}"
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            built = plots_of(x for _c, x in p.alhambra.items())
            kept = plots_of(p.reserve)
            if built or kept:
                players[p.name] = {
                    "plots built": " ".join(x.code for x in built) or "-",
                    "in the reserve": " ".join(x.code for x in kept) or "-",
                }
        return self.shown(table, players)

    # ----------------------------------------------------------------- legal moves

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The building a bought plot must receive before it is placed ("sofort"): ``plot X``
        for the first plot of this turn still without a building, each type in its column
        (every type when the column is not known)."""
        state: GameState = ctx.state
        t = state.turn
        if t is None or state.players[t.player] is not player:
            return []
        waiting = [x for x in plots_of(t.pending) if x.kind is None]
        if not waiting:
            return []
        plot = waiting[0]
        column = self.data(state).columns.get(plot.number)
        kinds = list(dict.fromkeys(column)) if column is not None else list(PER_TYPE)
        named = (GenericArg(ComponentRef(KIND, plot.code.split(":", 1)[1])),)
        extra = named if len({(x.number, x.price) for x in waiting}) > 1 else ()
        return [ModuleAction(VERB, (GenericArg(k.code), *extra)) for k in kinds]

    legal_actions = owed_actions  # the owed choice is the only move of the module

    # ----------------------------------------------------------------- simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """The twelve plot buildings shuffled into four columns of three."""
        pool = [k for k, n in PER_TYPE.items() for _ in range(n)]
        sim.rng.shuffle(pool)
        size = COLUMN_SIZE
        out = []
        for i, n in enumerate(NUMBERS):
            col = pool[i * size : (i + 1) * size]
            out.append(
                ModuleChance(CHANCE_VERB, (GenericArg(n), *(GenericArg(k.code) for k in col)))
            )
        return out

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        """The eight plots with prices and walls the simulator makes up (only the pictures
        showed them): two per number, distinct prices, none, one or two walls."""
        low, high = PRICE_RANGE
        out = []
        for n, count in PER_NUMBER.items():
            for price in sim.rng.sample(range(low, high + 1), count):
                walls = frozenset(sim.rng.sample(SIDES, sim.rng.choice((0, 1, 1, 2))))
                out.append(ComponentRef(KIND, f"{n}_{price}{walls_token(walls)}"))
        return out

    # ----------------------------------------------------------------- idle moments

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's start once the number columns are
        complete or their lack reported, when Dirk holds no piece or the same pieces as when
        his last walk left no plot without a building (``_dirk`` returns at once). Nothing to
        do at a turn's end either with Dirk so, when every plot without a building the module
        made and did not build lies on the market (:attr:`BaulandScratch.loose`, by identity):
        then no Alhambra or reserve holds one, and ``_unbuilt`` would report nothing. The
        module's part must exist."""
        data = state.modules.get(self.name)
        if data is None:
            return False
        if state.dirk and state.dirk != self._dirk_built:
            return False
        if moment is _TURN_END:
            # (by identity, in C: the live objects' ids; the market's slots hold pieces)
            loose = data.loose
            if not loose:
                return True
            if len(loose) == 1:  # (the common case: one plot's id among the market's, no sets)
                return id(loose[0]) in map(id, state.market)
            return set(map(id, loose)) <= set(map(id, state.market))
        return moment is _TURN_START and (
            data.missing_flagged or data.columns.keys() >= _NUMBER_SET
        )

    # (the idle answer: at a turn's start and end)
    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})
    kept_idle = idle_moments  # (its part's idle_start, idle_end: kept where they change)

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        # no plot is loose yet: a turn's end is idle in a game without Dirk (the kept answer)
        scratch.idle_end = True if state.dirk is None else None


def _turn_mark(
    state: GameState, player: PlayerState, me: Bauland, pending: int, with_views: bool = True
) -> tuple[Any, ...]:
    """What any action of the turn changes: the turn's counters and pieces to place, the
    player's money, Alhambra and reserve, and the other modules' views (a module whose own
    purchase step runs after this one's is left out: its view changes with the purchase; the
    views, the last item, left out ``with_views`` False)."""
    t = state.turn
    assert t is not None
    hand = tuple(sorted((str(c), n) for c, n in player.hand.items() if n))
    counts = (
        t.main_actions,
        t.placing,
        t.extra_redesigns,
        pending,
        hand,
        player.hand_unknown,
        len(player.alhambra),
        len(player.reserve),
    )
    if not with_views:
        return counts
    return (*counts, _views(state, me))


def _views(state: GameState, me: Bauland) -> tuple[str, ...]:
    """The other modules' views, the last item of :func:`_turn_mark`."""
    modules = list(state.ext.modules)
    mine = next((i for i, m in enumerate(modules) if m is me), len(modules))
    hearing = state.ext.overriding("on_purchase")  # the modules told of a purchase
    views = []
    for i, m in enumerate(modules):
        if m is me or (i > mine and m in hearing):
            continue
        views.append(repr(m.view(state)))
    return tuple(views)


def _column(args: Any) -> tuple[int | None, list[BuildingType], Pos | None]:
    """``plots 1 P A C``: the number tile and its buildings, top first; the number None when
    it is not written right, with the place of the word that is no building (None: the
    line's)."""
    if not args or not isinstance(args[0].value, int) or args[0].value not in NUMBERS:
        return None, [], None
    kinds = [_building(a.value) for a in args[1:]]
    bad = next((a for a, k in zip(args[1:], kinds, strict=True) if k is None), None)
    if bad is not None:
        return None, [], bad.pos
    return int(args[0].value), [k for k in kinds if k is not None], None


def _building(value: object) -> BuildingType | None:
    text = str(getattr(value, "name", value)).strip().upper()
    type_ = getattr(value, "type", None)
    if isinstance(type_, BuildingType) and getattr(value, "price", None) is None:
        return type_
    return _BY_CODE.get(text)  # BuildingType(text), None for no such value


_BY_CODE: dict[str, BuildingType] = {k.value: k for k in BuildingType}


def _unbuilt_plot(player: PlayerState, code: str) -> Plot | None:
    """The plot ``code`` placed or reserved by ``player`` without its building."""
    pieces = [*(x for _c, x in player.alhambra.items()), *player.reserve]
    return next((x for x in plots_of(pieces) if x.kind is None and x.code == code), None)


def _lay(player: PlayerState, plot: Plot, built: Plot) -> None:
    """``built`` (the plot with its building) takes the place of ``plot`` in the Alhambra or
    the reserve."""
    at = next((c for c, x in player.alhambra.items() if x == plot), None)
    if at is None:
        player.reserve_set(player.reserve.index(plot), built)
    else:
        player.alhambra.remove(at)
        player.alhambra.place(at, built)


def _replaced(state: GameState, data: BaulandScratch, plot: Plot) -> None:
    """``plot`` (without a building) was replaced by its built copy where it lay: no longer one
    of the module's loose plots (:attr:`BaulandScratch.loose`, by identity). The last one gone
    in a game without Dirk, the turn's end is idle again (the kept answer)."""
    loose = data.loose
    for i, x in enumerate(loose):
        if x is plot:
            del loose[i]
            if not loose and state.dirk is None:
                data.idle_end = True
            return


def _all_loose_on_market(state: GameState, data: BaulandScratch) -> bool:
    """Whether every plot without a building the module made and did not build lies on the
    market (:attr:`BaulandScratch.loose`, by identity, as :meth:`Bauland.idle_at` asks it at
    a turn's end): then no Alhambra or reserve holds one, and ``_unbuilt`` would report
    nothing (its look left out: asked at a turn's end when another module's step runs then,
    or Dirk plays). A state's copy holds copies of the plots, never found on its market by
    identity: there the look is taken, as before."""
    loose = data.loose
    return not loose or set(map(id, loose)) <= set(map(id, state.market))


def _keep_idle_start(state: GameState, data: BaulandScratch) -> None:
    """A column stated: with all four known in a game without Dirk, a turn's start is idle
    (the kept answer, :attr:`BaulandScratch.idle_start`)."""
    if state.dirk is None and data.columns.keys() >= _NUMBER_SET:
        data.idle_start = True


def _is_ref(value: object) -> bool:
    return isinstance(value, ComponentRef) and value.kind.lower() == KIND


def _turn_pos(state: GameState) -> Pos:
    return state.turn.pos if state.turn is not None else NOWHERE
