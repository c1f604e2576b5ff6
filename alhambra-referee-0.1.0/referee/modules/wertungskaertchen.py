"""Die neuen Wertungskärtchen (new scoring tiles): each scoring pays by its own order of types.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE NEUEN WERTUNGSKÄRTCHEN.

"3 Kärtchen werden zufällig gezogen und der Reihe nach von rechts nach links offen in die 3
Aussparungen des Punkteanzeigers eingelegt." -- "Welche Gebäudesorte wie viele Punkte einbringt,
kann man dem Punkteanzeiger und dem eingelegten Wertungskärtchen entnehmen." -- "Die Siegpunkte
auf den Wertungskarten und den Reservetableaus des Basisspiels werden nicht berücksichtigt."

Notation: a tile is ``st:`` + the six building type codes from the type that scores the fewest
points to the type that scores the most (``st:PSACGT`` would be the base table). The setup states
the tile of each slot of the points indicator, the slot being the scoring it serves::

    * scoringtile 1 st:PCTSAG, scoringtile 2 st:SGTCAP, scoringtile 3 st:TSPGCA

At each scoring the building majorities are paid by that tile's order with the indicator's points
(a replacement points table, :class:`~referee.scoring.categories.ScoringParts`); Dirk is ranked by
the same table. The base scoring cards still trigger the scorings (nothing changes there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

from referee.catalogue import BUILDING_TYPES, BuildingType
from referee.engine.extensions import acts_at
from referee.engine.fmt import NOTHING
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.modules.base import BundledModule, Scratch, bundled, module_data, token_text
from referee.record.model import ComponentRef, GenericArg, ModuleAction, ModuleChance, Pos
from referee.scoring import ScoringParts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE NEUEN WERTUNGSKÄRTCHEN"
KIND = "st"
VERB = "scoringtile"

Order = tuple[BuildingType, ...]


@cache  # (the component data does not change: read once)
def listed_orders() -> tuple[Order, ...]:
    """The 18 orders of the component data (unverified), lowest-paying type first."""
    raw = module_data("wertungskaertchen")["components"]["tiles"]["orders"]
    return tuple(tuple(BuildingType(ch) for ch in str(o)) for o in raw)


@cache  # (the same: one answer per scoring round)
def indicator_points(round_no: int) -> tuple[tuple[int, ...], ...]:
    """The indicator's points per place for scoring ``round_no``, by position (lowest first)."""
    table = module_data("wertungskaertchen")["components"]["indicator"]["points"]
    rows = table.get(round_no, table.get(str(round_no)))
    return tuple(tuple(int(x) for x in row) for row in rows)


@lru_cache(maxsize=64)  # a pure function of the token (immutable answer), bounded (records)
def parse_order(name: str) -> Order | None:
    """``PCTSAG`` -> the six types in that order; None if it is not a permutation of the six.
    Kept per spelling."""
    try:
        order = tuple(BuildingType(ch.upper()) for ch in name)
    except ValueError:
        return None
    if len(order) != len(BUILDING_TYPES) or set(order) != set(BUILDING_TYPES):
        return None
    return order


def code(order: Order) -> str:
    return f"{KIND}:" + "".join(t.code for t in order)


def points_table(order: Order, round_no: int) -> dict[BuildingType, tuple[int, ...]]:
    """Points per place of each type at scoring ``round_no`` by a tile's ``order``: the type in
    position k takes the indicator's k-th row."""
    rows = indicator_points(round_no)
    return {t: rows[k] for k, t in enumerate(order)}


@dataclass
class TileScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    slots: dict[int, Order] = field(default_factory=dict)  # slot (= scoring) -> the tile


@bundled
class Wertungskaertchen(BundledModule):
    """Three scoring tiles drawn at setup; each scoring pays by its tile's order."""

    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = TileScratch

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        self._state_tile(state, event.args, event.pos)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``scoringtile 2 st:SGTCAP`` in a position block (outside a player section). A
        position states the table as it lies, so the tile of a scoring already over may be
        stated too (it stays in its slot of the points indicator)."""
        if line.verb.lower() != VERB or player is not None:
            return False
        self._state_tile(state, line.args, line.pos, in_position=True)
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``scoringtile 2 st:SGTCAP``, one line per slot whose tile is known, outside the
        player sections, as :meth:`position_line` reads them back."""
        if player is not None:
            return []
        slots = self.data(state).slots
        return [
            ModuleAction(VERB, (GenericArg(slot), GenericArg(_ref(slots[slot]))))
            for slot in sorted(slots)
        ]

    @acts_at(Moment.SCORING_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """After a scoring: was its tile stated? (It was scored by the base table if not.)"""
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment != Moment.SCORING_DONE or ctx.pos is None or not state.scorings_done:
            return
        round_no = state.scorings_done[-1]
        if round_no not in self.data(state).slots:
            ctx.flag("SCORINGTILE-MISSING", ctx.pos, round=round_no)

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """This scoring's tile as a replacement points table (none stated: the base table)."""
        order = self.data(state).slots.get(round_no)
        if order is None:
            return None
        return _tile_parts(order, round_no)

    def view(self, state: GameState) -> dict[str, Any]:
        """The three slots of the points indicator: the tile in each, and what it pays."""
        data = self.data(state)
        table: dict[str, str] = {}
        for slot in (1, 2, 3):
            order = data.slots.get(slot)
            if order is None:
                table[f"scoring {slot}"] = "?"
                continue
            best = points_table(order, slot)
            pays = " ".join(
                f"{t.code}{'/'.join(map(str, best[t]))}" for t in reversed(order)
            )  # highest first
            done = " (scored)" if slot in state.scorings_done else ""
            table[f"scoring {slot}"] = f"{code(order)}: {pays}{done}"
        return self.shown(table)

    # ------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "3 Kärtchen werden zufällig gezogen": three different tiles, one per slot."""
        orders = list(listed_orders())
        drawn = sim.rng.sample(orders, 3)
        return [
            ModuleChance(VERB, (GenericArg(slot), GenericArg(_ref(order))))
            for slot, order in zip((1, 2, 3), drawn, strict=True)
        ]

    # ---------------------------------------------------------------- helpers

    def _state_tile(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, in_position: bool = False
    ) -> None:
        data = self.data(state)
        if (
            len(args) != 2
            or not isinstance(args[0].value, int)
            or not isinstance(args[1].value, ComponentRef)
            or args[1].value.kind.lower() != KIND
        ):
            shown = " ".join(token_text(a.value) for a in args) or NOTHING
            state.flag("SCORINGTILE-TOKEN", pos, reason="form", token=shown)
            return
        slot = args[0].value
        ref = args[1].value
        spos = args[0].pos or pos
        tpos = args[1].pos or pos
        token = f"{ref.kind}:{ref.name}"
        if slot not in (1, 2, 3):
            state.flag("SCORINGTILE-SLOT", spos, reason="range", slot=slot)
            return
        order = parse_order(ref.name)
        if order is None:
            state.flag("SCORINGTILE-TOKEN", tpos, reason="not-an-order", token=token)
            return
        if self.option("tiles") == "listed" and order not in listed_orders():
            state.flag("SCORINGTILE-TOKEN", tpos, reason="not-listed", token=code(order))
            return
        known = data.slots.get(slot)
        if known is not None and known != order:
            state.flag(
                "SCORINGTILE-SLOT",
                tpos,
                reason="restated",
                slot=slot,
                known=code(known),
                token=code(order),
            )
            return
        if slot in state.scorings_done and known is None and not in_position:
            state.flag("SCORINGTILE-SLOT", spos, reason="scored", slot=slot)
        for other, o in data.slots.items():
            if o == order and other != slot:
                state.flag("SCORINGTILE-TWICE", tpos, token=code(order), slot=slot, other=other)
                return
        data.slots[slot] = order


@lru_cache(maxsize=64)  # 18 orders by 3 scorings at most in the data; bounded (records)
def _tile_parts(order: Order, round_no: int) -> ScoringParts:
    """The scoring parts of a tile ``order`` at scoring ``round_no``: its replacement points
    table and its label. Made once per tile and scoring and shared: nothing changes a scoring's
    parts or their table (``score_round`` reads them)."""
    return ScoringParts(
        table=points_table(order, round_no),
        table_label=(
            f"scoring tile {round_no} {code(order)}",
            f"Wertungskärtchen {round_no} {code(order)}",
        ),
    )


def _ref(order: Order) -> ComponentRef:
    return ComponentRef(KIND, "".join(t.code for t in order))
