"""The guards edition ("Wächter"): a preview board, guards on buildings, guard abilities.

Source: ``summary-waechter-edition-de.txt`` (a player's summary, the only text of this edition;
cited by line, ``L54``), digest ``modules-digest.md`` §11. Selected by the rule profile
``waechter`` (``edition: waechter``); the rules below are this one unit on the module
platform's extension points. Where the summary is silent (the guard towers of each building,
the cost of each ability, the placement tiles and their numbers, the guards in the tableau) the
data in ``waechter.yaml`` is marked unverified and a record may state it (``* towers T13 2``).

Notation (generic module lines of the grammar and the fast reader)::

    * preview T13 G8 A6                (setup / refill: tiles from the tower onto the preview
                                        board, the field nearest the market first)
    * slide G8 T13                     (optional: what slid onto the market this refill)
    * towers T13 2, ability ab:3 2, stell 4 1 2 3 4 5 6   (stated material)
    12. Anna: guard ab:2 T13, buy Di G8 pay Di8, place G8@2,0
    13. Ben: guardpay ab:1 2, take Gu4  (points instead of a guard)
    scoring 3: Anna +50 (guards=12)

In a position block: ``preview T13 G8 A6`` and ``stell 4 1 2 3 4 5 6`` / ``placed 5`` outside
the player sections; ``guards T13 2`` inside a player's section.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from referee.catalogue import TileKind
from referee.engine.core import draw_tile, match_slot
from referee.engine.findings import problem, unverifiable
from referee.engine.fmt import fmt_tile
from referee.engine.legal import piece_ref, tile_ref
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec, Window
from referee.modules.base import BundledModule, Scratch, acts_at, module_data
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

SOURCE = "summary-waechter-edition-de.txt"
KIND = "ab"  # an ability tile: ab:1 .. ab:4
GUARD = "guard"
GUARDPAY = "guardpay"
PREVIEW = "preview"
SLIDE = "slide"
TOWERS = "towers"
ABILITY = "ability"
STELL = "stell"
PLACED = "placed"
GUARDS = "guards"
PAID = "paid"
# a moment inside a turn (position only): ``guardturn used ab:1 built G8ne gifts 1``, the
# abilities the open turn used, the buildings it gained (their guards come at its end) and
# the buildings it gave to Dirk (their guards go onto the placement tiles at its end)
TURNLINE = "guardturn"
PREVIEW_FIELDS = 3


def _data() -> dict[str, Any]:
    return dict(Waechter.yaml().get("components") or {})


def default_towers() -> int:
    return int(_data()["towers"]["default"])


def ability_count() -> int:
    return int(_data()["abilities"]["count"])


def default_cost() -> int:
    return int(_data()["abilities"]["cost"])


def default_stell() -> tuple[int, tuple[int, ...]]:
    d = _data()["placement_tiles"]
    return int(d["boxes"]), tuple(int(x) for x in d["numbers"])


def guard_supply() -> int:
    return int(_data()["guards"]["count"])


def vp_price(scorings_done: int) -> int:
    """L57-59: "1 SP vor 1. Wertung / 2 SP zwischen 1. und 2. Wertung / 3 SP nach 2. Wertung"."""
    return min(scorings_done, 2) + 1


@dataclass
class WScratch(Scratch):
    """The guards edition's own part of the game state (``state.modules``), copied with it."""

    preview: list[Any] = field(default_factory=lambda: [EMPTY] * PREVIEW_FIELDS)
    slid: list[Any] = field(default_factory=list)  # what slid at the last turn end
    guards: dict[str, dict[TileKind, int]] = field(default_factory=dict)
    towers: dict[TileKind, int] = field(default_factory=dict)  # stated
    costs: dict[int, int] = field(default_factory=dict)  # stated
    stell: tuple[int, tuple[int, ...]] | None = None  # stated (boxes per tile, numbers)
    placed: int = 0  # guards on the placement tiles, filled left to right
    used: set[int] = field(default_factory=set)  # abilities used this turn
    owned: set[TileKind] = field(default_factory=set)  # the mover's buildings at turn start
    dirk_seen: int = 0  # Dirk's tiles when last looked at
    dirk_draws_seen: int = 0
    paid: dict[str, int] = field(default_factory=dict)  # points paid since the last scoring
    tableau: int = 0  # guards taken from the guard tableau so far
    before: dict[str, set[TileKind]] = field(default_factory=dict)  # before the leftovers
    setup_checked: bool = False


class Waechter(BundledModule):
    """The guards edition's rules unit (switched on by the profile, never by ``Modules``)."""

    section: ClassVar[str] = SOURCE
    chance_verbs = (PREVIEW, SLIDE, TOWERS, ABILITY, STELL, PLACED, GUARDS, PAID, TURNLINE)
    # the last four: position lines only (a chance line of them is WAECHTER-MATERIAL)
    component_kinds = (KIND,)
    scratch_type = WScratch
    verb_specs = (
        VerbSpec(GUARD, kind="free", window=Window.BEFORE_PLACING),
        VerbSpec(GUARDPAY, kind="free", window=Window.BEFORE_PLACING),
    )

    # ------------------------------------------------------------------ material

    def towers(self, state: GameState, tile: TileKind | None) -> int:
        """Guard towers on a building: stated in the record, else the unverified default."""
        if tile is None:
            return default_towers()
        if not isinstance(tile, TileKind):
            return 0  # a module's tile (a building of power): no guard towers (``owned``)
        return self.data(state).towers.get(tile, default_towers())

    def cost(self, state: GameState, ability: int) -> int:
        return self.data(state).costs.get(ability, default_cost())

    def stell(self, state: GameState) -> tuple[int, tuple[int, ...]]:
        return self.data(state).stell or default_stell()

    def capacity(self, state: GameState) -> int:
        boxes, numbers = self.stell(state)
        return boxes * len(numbers)

    def stell_value(self, state: GameState) -> int:
        """L129: the number under the rightmost placement tile holding 1-x guards (0: none)."""
        placed = self.data(state).placed
        if placed <= 0:
            return 0
        boxes, numbers = self.stell(state)
        return numbers[min((placed - 1) // boxes, len(numbers) - 1)]

    def guards_of(self, state: GameState, p: PlayerState) -> dict[TileKind, int]:
        return self.data(state).guards.setdefault(p.name, {})

    def owned(self, p: PlayerState) -> set[TileKind]:
        """The player's base buildings: only they carry this edition's guard towers (a
        module's tile from the tower, e.g. a building of power, is no guards-edition tile; L69
        "Gibt es auf dem Gebäude Wächtertürme"; ``docs/profiles.md``)."""
        out = {t for _, t in p.alhambra.items() if isinstance(t, TileKind)}
        out.update(t for t in p.reserve if isinstance(t, TileKind))
        return out

    def _to_stell(self, state: GameState, n: int, pos: Pos | None, why: str) -> None:
        """``n`` guards onto the next free boxes of the placement tiles (L55-57)."""
        data = self.data(state)
        room = self.capacity(state) - data.placed
        if n > room and pos is not None:  # the summary does not say: reported, no violation
            state.note(pos, "UNVERIFIED-WAECHTER-STELL-FULL", why=why, n=n, room=room)
        data.placed += min(n, max(room, 0))

    def _from_tableau(self, state: GameState, n: int, pos: Pos | None) -> None:
        data = self.data(state)
        data.tableau += n
        if data.tableau > guard_supply() and pos is not None:
            state.note(pos, "UNVERIFIED-WAECHTER-SUPPLY", count=guard_supply())

    # ------------------------------------------------------------------ turn flow

    @acts_at(
        Moment.SETUP_DONE,
        Moment.TURN_START,
        Moment.TURN_END,
        Moment.LEFTOVERS_BEFORE,
        Moment.LEFTOVERS_DONE,
        Moment.SCORING_DONE,
    )
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state: GameState = ctx.state
        data = self.data(state)
        pos = ctx.pos or (state.turn.pos if state.turn is not None else None)
        if moment == Moment.SETUP_DONE:
            data.dirk_seen = len(state.dirk or [])
            data.dirk_draws_seen = len(state.dirk_draws)
            return
        if moment == Moment.TURN_START and state.turn is not None:
            # L82: the preview board lies full from the start and is refilled after each turn
            free = sum(1 for s in data.preview if s is EMPTY)
            if free and state.bag_count > 0 and not state.bag_uncertain and pos is not None:
                if not data.setup_checked:
                    state.flag("WAECHTER-PREVIEW", pos, reason="setup", free=free)
                else:
                    state.flag(
                        "WAECHTER-PREVIEW",
                        pos,
                        reason="not-refilled",
                        free=free,
                        bag_count=state.bag_count,
                    )
            data.setup_checked = True
            self._dirk_draws(state, pos)
            data.used = set()
            p = state.players[state.turn.player]
            data.owned = self.owned(p)
            data.dirk_seen = len(state.dirk or [])
            return
        if moment == Moment.TURN_END and state.turn is not None:
            p = state.players[state.turn.player]
            self._new_buildings(state, p, data.owned, pos)
            self._gifts(state, pos)
            data.used = set()
            self._slide(state, pos)
            return
        if moment == Moment.LEFTOVERS_BEFORE:
            data.before = {p.name: self.owned(p) for p in state.players}
            return
        if moment == Moment.LEFTOVERS_DONE:
            for p in state.players:  # L124: "Diese Gebäude, inkl. ihrer Wächter"
                if p.name in data.before:
                    self._new_buildings(state, p, data.before[p.name], pos)
            data.before = {}
            return
        if moment == Moment.SCORING_DONE:
            data.paid = {}

    def _new_buildings(
        self, state: GameState, p: PlayerState, before: set[TileKind], pos: Pos | None
    ) -> None:
        """L69: "Gibt es auf dem Gebäude Wächtertürme, kommt auf jeden Turm 1 WÄCHTER aus dem
        Vorrat des Wächter-Tableaus"."""
        mine = self.guards_of(state, p)
        for tile in sorted(self.owned(p) - before, key=fmt_tile):
            n = self.towers(state, tile)
            if n and tile not in mine:
                mine[tile] = n
                self._from_tableau(state, n, pos)
        for tile in [t for t in mine if t not in self.owned(p)]:
            del mine[tile]  # a building that left the player (not in this edition's rules)

    def _gifts(self, state: GameState, pos: Pos | None) -> None:
        """L104-105: buildings given to Dirk this turn; "Evtl. darauf sitzende Wächter kommen
        nun aber auf die Stell-Plättchen" (reading: the guards of its towers)."""
        data = self.data(state)
        if state.dirk is None:
            return
        for tile in state.dirk[data.dirk_seen :]:
            n = self.towers(state, tile)
            if n:
                self._from_tableau(state, n, pos)
                self._to_stell(state, n, pos, "gift")
        data.dirk_seen = len(state.dirk)

    def _dirk_draws(self, state: GameState, pos: Pos | None) -> None:
        """L99-101: after scorings 1 and 2 Dirk's new buildings: half of the guards shown on
        them (rounded up) onto the placement tiles. Not at the setup draw (L99 "wie anfangs"
        names only the count)."""
        data = self.data(state)
        if state.dirk is None:
            return
        draws = state.dirk_draws[data.dirk_draws_seen :]
        new = state.dirk[data.dirk_seen :]
        data.dirk_draws_seen = len(state.dirk_draws)
        data.dirk_seen = len(state.dirk)
        if not any(d in (1, 2) for d in draws):
            return
        shown = sum(self.towers(state, t) for t in new)
        if any(t is None for t in new) and pos is not None:
            state.note(pos, "UNVERIFIED-WAECHTER-DIRK")
        half = math.ceil(shown / 2)
        if half:
            self._from_tableau(state, half, pos)
            self._to_stell(state, half, pos, "dirk")

    def _slide(self, state: GameState, pos: Pos | None = None) -> None:
        """L83-86: preview field 3 onto the lowest free market field, the rest slide right;
        again, while a market field is free and the preview holds a building. A field whose
        module turns up a piece of its own there (a tile hidden under it, Die Gebäude der
        Baukunst: "wird beim Auffüllen des Bauhofes dieses Plättchen umgedreht, statt eines zu
        ziehen", Big Box L3614-3616) is refilled by it first and is not free for the slide."""
        data = self.data(state)
        data.slid = []
        prev = data.preview
        for i, slot in enumerate(state.market):
            if slot is not EMPTY:
                continue
            for m in state.ext.overriding("market_refill_from"):
                got = m.market_refill_from(state, i, None, pos or NOWHERE)
                if got is not None:
                    state.market[i] = got[0]
                    break
        while any(s is EMPTY for s in state.market) and any(s is not EMPTY for s in prev):
            while prev[-1] is EMPTY:  # "Übrige Gebäude ... rutschen dort nach rechts"
                prev[:] = [EMPTY, *prev[:-1]]
            target = next(i for i, s in enumerate(state.market) if s is EMPTY)
            state.market[target] = prev[-1]
            data.slid.append(prev[-1])
            prev[:] = [EMPTY, *prev[:-1]]

    # ------------------------------------------------------------------ chance lines

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        verb = event.verb.lower()
        if verb == PREVIEW:
            self._preview(state, event.args, event.pos)
        elif verb == SLIDE:
            self._slide_statement(state, event.args, event.pos)
        else:
            self._material(state, verb, event.args, event.pos)
        return []

    def _preview(self, state: GameState, args: tuple[GenericArg, ...], pos: Pos) -> None:
        """Tiles onto the preview board's free fields, the field nearest the market first."""
        data = self.data(state)
        for a in args:
            ref = a.value
            apos = a.pos or pos
            if not isinstance(ref, TileRef | ComponentRef):
                state.flag("WAECHTER-PREVIEW", apos, reason="form", token=str(ref))
                continue
            free = [i for i, s in enumerate(data.preview) if s is EMPTY]
            if not free:
                state.flag("WAECHTER-PREVIEW", apos, reason="full", tile=_text(ref))
                continue
            # a module's tile drawn from the tower (a building of power) lies there as well
            drawn, tile = draw_tile(state, ref, apos)
            if drawn:
                data.preview[free[-1]] = tile

    def _position_slid(self, state: GameState, line: ModuleAction) -> None:
        """``slide G8sw ...`` in a position block: the buildings that slid onto the market at
        the last turn's end (each on the market now), for the ``* slide`` line still to come."""
        data = self.data(state)
        data.slid = []
        left = [s for s in state.market if s is not EMPTY]
        for a in line.args:
            ref = a.value
            got = next(
                (
                    s
                    for s in left
                    if (isinstance(ref, TileRef) and ref.known and s in ref.candidates)
                    or (isinstance(ref, ComponentRef) and match_slot(ref, [s]) == 0)
                ),
                None,
            )
            if got is None:
                state.flag("WAECHTER-MATERIAL", a.pos or line.pos, reason="form", what=SLIDE)
                continue
            left.remove(got)
            data.slid.append(got)

    def _slide_statement(self, state: GameState, args: tuple[GenericArg, ...], pos: Pos) -> None:
        """``* slide G8 T13``: the buildings that slid onto the market at the last turn end, in
        order; checked against the preview board's slide (L83-86)."""
        data = self.data(state)
        stated = [a.value for a in args]
        ok = len(stated) == len(data.slid) and all(
            (isinstance(r, TileRef) and (not r.known or s is None or s in r.candidates))
            or (isinstance(r, ComponentRef) and match_slot(r, [s]) == 0)
            for r, s in zip(stated, data.slid, strict=False)
        )
        if not ok:
            state.flag(
                "WAECHTER-SLIDE",
                pos,
                stated=" ".join(_text(r) for r in stated) or "-",
                slid=" ".join(_slot_text(t) for t in data.slid) or "-",
            )

    def _material(
        self, state: GameState, verb: str, args: tuple[GenericArg, ...], pos: Pos
    ) -> None:
        """Stated material where the summary is silent (unverified data): ``towers T13 2``,
        ``ability ab:3 2``, ``stell BOXES N1 N2 ...``."""
        data = self.data(state)
        vals = [a.value for a in args]
        if verb == TOWERS and len(vals) == 2 and isinstance(vals[0], TileRef):
            tile = vals[0].kind
            n = vals[1]
            if tile is not None and isinstance(n, int) and 0 <= n <= 4:
                if any(tile in g for g in data.guards.values()):
                    state.flag("WAECHTER-MATERIAL", pos, reason="late", what=fmt_tile(tile))
                data.towers[tile] = n
                return
        if verb == ABILITY and len(vals) == 2 and isinstance(vals[0], ComponentRef):
            number = _ability_number(vals[0])
            n = vals[1]
            if number is not None and isinstance(n, int) and 1 <= n <= 4:
                data.costs[number] = n
                return
        ints = [v for v in vals if isinstance(v, int)]
        if verb == STELL and len(vals) >= 2 and len(ints) == len(vals):
            boxes, numbers = ints[0], tuple(ints[1:])
            if 1 <= boxes <= 9 and all(0 <= v <= 99 for v in numbers):
                if data.placed > boxes * len(numbers):
                    state.flag("WAECHTER-MATERIAL", pos, reason="late", what=STELL)
                data.stell = (boxes, numbers)
                return
        state.flag(
            "WAECHTER-MATERIAL",
            pos,
            reason="form",
            what=" ".join([verb, *(_text(v) for v in vals)]),
        )

    # ------------------------------------------------------------------ abilities

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        return self._use(ctx.state, player, action, apply=False)

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        self._use(state, player, action, apply=True)
        return []

    def _use(
        self, state: GameState, player: PlayerState, action: ModuleAction, apply: bool
    ) -> list[Any]:
        """L54-59: an ability used once per turn, paid with its cost in guards taken from the
        player's Alhambra or reserve onto the next free placement boxes, or -- without any guard
        -- with 1/2/3 points by the scorings held. Its effect is not in the summary."""
        data = self.data(state)
        pos = action.pos
        found: list[Any] = []
        args = action.args
        verb = action.verb.lower()
        number = _ability_number(args[0].value) if args else None
        if number is None or not 1 <= number <= ability_count():
            found.append(
                problem(
                    "WAECHTER-ABILITY",
                    pos,
                    player.name,
                    reason="no-such",
                    token=_text(args[0].value) if args else "-",
                    count=ability_count(),
                )
            )
            return found
        if number in data.used:
            found.append(
                problem("WAECHTER-ABILITY", pos, player.name, reason="twice", ability=number)
            )
        mine = self.guards_of(state, player)
        if verb == GUARD:
            cost = self.cost(state, number)
            refs = [a.value for a in args[1:]]
            taken: list[TileKind] = []
            left = dict(mine)
            for r in refs:
                slots = [t for t, n in left.items() if n > 0]
                i = match_slot(r, slots) if isinstance(r, TileRef) else None
                if i is None:
                    found.append(
                        problem(
                            "WAECHTER-PAY",
                            pos,
                            player.name,
                            reason="no-guard",
                            tile=_text(r),
                            held=_held(mine),
                        )
                    )
                    continue
                left[slots[i]] -= 1
                taken.append(slots[i])
            if len(refs) != cost:
                found.append(
                    problem(
                        "WAECHTER-PAY",
                        pos,
                        player.name,
                        reason="count",
                        ability=number,
                        cost=cost,
                        n=len(refs),
                    )
                )
            room = self.capacity(state) - data.placed
            if len(taken) > room:
                found.append(problem("WAECHTER-PAY", pos, player.name, reason="full", room=room))
            if apply:
                for t in taken:
                    mine[t] -= 1
                    if mine[t] <= 0:
                        del mine[t]
                self._to_stell(state, len(taken), None, "pay")
        else:  # guardpay: points instead of a guard
            due = vp_price(len(state.scorings_done))
            paid = args[1].value if len(args) == 2 else None
            if sum(mine.values()) > 0:
                found.append(
                    problem("WAECHTER-VP", pos, player.name, reason="has-guard", held=_held(mine))
                )
            if not isinstance(paid, int) or paid != due:
                found.append(
                    problem(
                        "WAECHTER-VP",
                        pos,
                        player.name,
                        reason="period",
                        paid=_text(paid) if paid is not None else "-",
                        due=due,
                        held=len(state.scorings_done),
                    )
                )
            if apply:
                data.paid[player.name] = data.paid.get(player.name, 0) + due
        found.append(unverifiable(pos, "UNVERIFIED-WAECHTER-EFFECT", player.name, ability=number))
        if apply:
            data.used.add(number)
        return found

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The abilities not used this turn, paid with a guard of each building holding one,
        or with points when the player holds no guard."""
        state: GameState = ctx.state
        t = state.turn
        if t is None or t.placing:
            return []
        data = self.data(state)
        mine = {k: v for k, v in self.guards_of(state, player).items() if v > 0}
        room = self.capacity(state) - data.placed
        out: list[Any] = []
        for number in range(1, ability_count() + 1):
            if number in data.used:
                continue
            ab = GenericArg(ComponentRef(KIND, str(number)))
            cost = self.cost(state, number)
            if mine and cost == 1 and room >= 1:  # one line per building holding a guard
                for tile in sorted(mine, key=fmt_tile):
                    out.append(ModuleAction(GUARD, (ab, GenericArg(tile_ref(tile)))))
            elif mine and sum(mine.values()) >= cost and room >= cost:
                pay: list[TileKind] = []
                for tile in sorted(mine, key=fmt_tile):
                    pay.extend([tile] * min(mine[tile], cost - len(pay)))
                out.append(
                    ModuleAction(GUARD, (ab, *(GenericArg(tile_ref(x)) for x in pay[:cost])))
                )
            elif not mine:
                due = vp_price(len(state.scorings_done))
                out.append(ModuleAction(GUARDPAY, (ab, GenericArg(due))))
        return out

    # ------------------------------------------------------------------ scoring

    def guards_on_wall(self, state: GameState, p: PlayerState) -> int:
        """Reading of L128-129 "je Wächter auf seiner längsten zusammenhängenden Außenmauer":
        a guard counts when its building (in the Alhambra) has a side in the longest run."""
        from referee.geometry.walls import longest_outer_wall

        mine = self.guards_of(state, p)
        if not mine:
            return 0
        run = longest_outer_wall(p.alhambra, state.profile.wall_run)
        cells = {seg[0] for seg in run.segments}
        return sum(n for tile, n in mine.items() if _cell_of(p, tile) in cells)

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        from referee.scoring.categories import Penalty, PointLine, ScoringParts

        data = self.data(state)
        cats: list[Any] = []
        if data.paid:
            cats.append(
                Penalty(
                    "guardpay",
                    "points paid for abilities",
                    "für Fähigkeiten abgegebene SP",
                    f"{SOURCE} L57-59",
                    points=dict(data.paid),
                    detail_en="instead of guards",
                    detail_de="statt Wächtern",
                )
            )
        if round_no == 3 or state.profile.guard_scoring == "every":
            value = self.stell_value(state)
            counts = {p.name: self.guards_on_wall(state, p) for p in state.players}
            cats.append(
                PointLine(
                    "guards",
                    "guards on the longest outer wall",
                    "Wächter auf der längsten Außenmauer",
                    f"{SOURCE} L126-129",
                    points=_guard_points(counts, value),
                )
            )
        if not cats:
            return None
        return ScoringParts(categories=tuple(cats))

    # ------------------------------------------------------------------ positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        data = self.data(state)
        if player is None and verb == PREVIEW:
            data.preview = [EMPTY] * PREVIEW_FIELDS
            self._preview(state, line.args, line.pos)
            return True
        if player is None and verb in (TOWERS, ABILITY, STELL):
            self._material(state, verb, line.args, line.pos)
            return True
        if player is None and verb == PLACED:
            n = line.args[0].value if len(line.args) == 1 else None
            if isinstance(n, int) and 0 <= n <= self.capacity(state):
                data.placed = n
            else:
                state.flag("WAECHTER-MATERIAL", line.pos, reason="form", what=PLACED)
            return True
        if player is None and verb == TURNLINE:
            self._position_turn(state, line)
            return True
        if player is None and verb == SLIDE:  # what slid at the last turn's end (L83-86)
            self._position_slid(state, line)
            return True
        if player is not None and verb == PAID:  # points paid since the last scoring
            n = line.args[0].value if len(line.args) == 1 else None
            if isinstance(n, int) and 0 < n <= 999:
                data.paid[player.name] = n
            else:
                state.flag("WAECHTER-MATERIAL", line.pos, reason="form", what=PAID)
            return True
        if player is not None and verb == GUARDS:
            vals = [a.value for a in line.args]
            if len(vals) == 2 and isinstance(vals[0], TileRef) and isinstance(vals[1], int):
                slots = sorted(self.owned(player), key=fmt_tile)
                i = match_slot(vals[0], slots)
                if i is not None and 0 < vals[1] <= 9:
                    self.guards_of(state, player)[slots[i]] = vals[1]
                    return True
            state.flag("WAECHTER-MATERIAL", line.pos, reason="form", what=GUARDS)
            return True
        return False

    def _position_turn(self, state: GameState, line: ModuleAction) -> None:
        """``guardturn [used ab:N ...] [built TILE ...] [gifts N]`` (after the ``turn`` line of
        a moment inside a turn, the player sections read): the abilities the open turn used
        (L54: "1 - x Wächter-Fähigkeiten nutzen, jede 1-mal", WAECHTER-ABILITY ``twice``), the
        mover's buildings gained in it (L69: their towers get guards at its
        end) and the buildings given to Dirk in it (L104-105)."""
        data = self.data(state)
        t = state.turn
        bad = t is None
        part = ""
        used: set[int] = set()
        built: list[TileRef] = []
        gifts = 0
        for a in line.args:
            v = a.value
            if isinstance(v, str) and v.lower() in ("used", "built", "gifts"):
                part = v.lower()
            elif part == "used" and isinstance(v, ComponentRef) and _ability_number(v):
                used.add(_ability_number(v) or 0)
            elif part == "built" and isinstance(v, TileRef):
                built.append(v)
            elif part == "gifts" and isinstance(v, int) and v >= 0 and not gifts:
                gifts = v
            else:
                bad = True
        if bad or t is None:
            form = "'guardturn [used ab:N ...] [built TILE ...] [gifts N]' after a 'turn' line"
            state.flag("POSITION-INVALID", line.pos, reason="turn-state", form=form)
            return
        data.used = used
        owned = self.owned(state.players[t.player])
        for ref in built:
            slots = sorted(owned, key=fmt_tile)
            i = match_slot(ref, slots)
            if i is None:
                form = "'guardturn built TILE ...' naming the mover's buildings"
                state.flag("POSITION-INVALID", line.pos, reason="turn-state", form=form)
                continue
            owned.discard(slots[i])
        data.owned = owned
        data.dirk_seen = max(len(state.dirk or []) - gifts, 0)

    def _turn_line(self, state: GameState) -> list[ModuleAction]:
        """The ``guardturn`` line of a moment inside a turn (:meth:`_position_turn`)."""
        data = self.data(state)
        t = state.turn
        if t is None or not 0 <= t.player < len(state.players):
            return []
        args: list[GenericArg] = []
        if data.used:
            args.append(GenericArg("used"))
            args += [GenericArg(ComponentRef(KIND, str(n))) for n in sorted(data.used)]
        built = self.owned(state.players[t.player]) - data.owned
        if built:
            args.append(GenericArg("built"))
            args += [GenericArg(tile_ref(x)) for x in sorted(built, key=fmt_tile)]
        gifts = len(state.dirk or []) - data.dirk_seen
        if state.dirk is not None and gifts > 0:
            args += [GenericArg("gifts"), GenericArg(gifts)]
        return [ModuleAction(TURNLINE, tuple(args))]

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        data = self.data(state)
        if player is not None:
            mine = self.guards_of(state, player)
            owed = data.paid.get(player.name, 0)
            paid = [ModuleAction(PAID, (GenericArg(owed),))] if owed else []
            return paid + [
                ModuleAction(GUARDS, (GenericArg(tile_ref(t)), GenericArg(n)))
                for t, n in sorted(mine.items(), key=lambda kv: fmt_tile(kv[0]))
                if n > 0
            ]
        out: list[ModuleAction] = []
        tiles = [s for s in reversed(data.preview) if s is not EMPTY and s is not None]
        if tiles:
            out.append(ModuleAction(PREVIEW, tuple(GenericArg(piece_ref(t)) for t in tiles)))
        for tile, n in sorted(data.towers.items(), key=lambda kv: fmt_tile(kv[0])):
            out.append(ModuleAction(TOWERS, (GenericArg(tile_ref(tile)), GenericArg(n))))
        for number, n in sorted(data.costs.items()):
            out.append(
                ModuleAction(ABILITY, (GenericArg(ComponentRef(KIND, str(number))), GenericArg(n)))
            )
        if data.stell is not None:
            boxes, numbers = data.stell
            out.append(ModuleAction(STELL, tuple(GenericArg(v) for v in (boxes, *numbers))))
        if data.placed:
            out.append(ModuleAction(PLACED, (GenericArg(data.placed),)))
        if data.slid and state.turn is None:
            # the buildings that slid at the last turn's end (a ``* slide`` line may follow)
            out.append(ModuleAction(SLIDE, tuple(GenericArg(piece_ref(t)) for t in data.slid)))
        return out + self._turn_line(state)

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        prev = " ".join(
            f"{i + 1}:{'-' if s is EMPTY else _slot_text(s)}" for i, s in enumerate(data.preview)
        )
        boxes, numbers = self.stell(state)
        table = {
            "preview board": prev,
            "placement tiles": f"{data.placed}/{boxes * len(numbers)} boxes filled, "
            f"numbers {' '.join(map(str, numbers))}, value now {self.stell_value(state)}",
            "abilities used this turn": " ".join(f"ab:{n}" for n in sorted(data.used)) or "-",
        }
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            mine = self.guards_of(state, p)
            players[p.name] = {
                "guards": _held(mine),
                "guards on the longest wall": str(self.guards_on_wall(state, p)),
            }
        return self.shown(table, players)

    # ------------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """The preview board laid out from the tower after the market (L82: it is refilled
        like the market)."""
        return self._sim_preview(sim)

    def sim_refill(self, sim: Any) -> list[Any]:
        data = self.data(sim.state)
        out: list[Any] = []
        if data.slid:
            out.append(ModuleChance(SLIDE, tuple(GenericArg(piece_ref(t)) for t in data.slid)))
        # the market line of this refill took its tiles from the bag already: what is left
        # goes onto the preview (none when the market stayed incomplete: the game is over)
        out.extend(self._sim_preview(sim))
        return out

    def _sim_preview(self, sim: Any) -> list[Any]:
        data = self.data(sim.state)
        free = sum(1 for s in data.preview if s is EMPTY)
        tiles = [sim.bag.pop() for _ in range(min(free, len(sim.bag)))]
        if not tiles:
            return []
        # a module's tile in the tower (the simulator's bag holds its token) is drawn onto the
        # preview like any other: "zusammengemischt und in den Turm gegeben" (Big Box L3644-3645)
        refs = (t if isinstance(t, ComponentRef) else piece_ref(t) for t in tiles)
        return [ModuleChance(PREVIEW, tuple(GenericArg(r) for r in refs))]


def _guard_points(counts: dict[str, int], value: int) -> Any:
    """The guard scoring's line of each player: guards on the wall × the placement value."""

    def points(part: Any) -> tuple[int, str, str] | None:
        n = counts.get(part.name)
        if n is None:
            return None
        en = "1 guard" if n == 1 else f"{n} guards"
        return n * value, f"{en} × {value}", f"{n} Wächter × {value}"

    return points


def _ability_number(value: object) -> int | None:
    if isinstance(value, ComponentRef) and value.kind.lower() == KIND and value.name.isdigit():
        return int(value.name)
    return None


def _text(value: object) -> str:
    if isinstance(value, TileRef):
        return fmt_tile(value.kind) if value.kind is not None else "?"
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    return str(value)


def _slot_text(piece: object) -> str:
    """A tile on the preview board as a record writes it (a module's tile by its token)."""
    if piece is None or isinstance(piece, TileKind):
        return fmt_tile(piece)
    return str(getattr(piece, "code", "?"))


def _held(mine: dict[TileKind, int]) -> str:
    held = sorted(mine.items(), key=lambda kv: fmt_tile(kv[0]))
    return " ".join(f"{fmt_tile(t)}×{n}" for t, n in held if n > 0) or "none"


def _cell_of(p: PlayerState, tile: TileKind) -> Any:
    for at, piece in p.alhambra.items():
        if piece is tile:
            return at
    return None


__all__ = ["Waechter", "module_data"]
