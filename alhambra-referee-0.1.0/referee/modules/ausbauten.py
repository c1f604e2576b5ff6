"""Die Ausbauten (extensions): three money cards matching a column of the tableau buy one of the
column's extension tiles, laid at once on an own building of its type; an extended building
counts as two for the majorities.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Rüdiger Dorn: Die Ausbauten (L3708-3764).

Notation: an extension tile is ``ab:`` + its building type (``ab:S``). The tableau's combinations
and numbers are picture-only (``ausbauten.yaml``, not verified): the record states them with the
tiles laid out at the setup, one chance line per column.

* ``* tableau 3 xxy 14 ab:S 11 ab:A 8 ab:P`` -- column 3, its combination (three slots, each a
  currency ``Gu Di De Du`` or a letter ``x y z``: equal letters one currency, different letters
  different currencies), then per field the number beside it and the tile on it.
* ``extend 3 ab:S S9 pay Du5 Du2 Di4`` -- the action "Ausbau eines Gebäudes": the column, the
  tile taken, the building it goes on (a tile the player holds or buys this turn; ``Dirk`` in a
  game of two), the three cards.
* position blocks: ``tableau 3 xxy 14 ab:S 11 empty 8 ab:P`` (outside the player sections),
  ``extend ab:S S9`` (a player's section: his extended buildings), ``extend ab:S Dirk``.

Rulings (``docs/modules/ausbauten.md``): values are free, only currencies make the combination;
a building bought later in the same turn may carry the extension (checked at the end of the
turn); only an extended building in the Alhambra counts twice; an extension given to Dirk needs a
building of its type of Dirk's not yet extended (switch ``dirk``).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import BuildingType, Currency, TileKind
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.payment import Mix, PaymentTerms, apply_payment, payment_findings, plan_payment
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import (
    Moment,
    end_main_action,
    main_action_findings,
    start_main_action,
    turn_goes_on_unsure,
)
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import BundledModule, Scratch, bundled, module_data, section
from referee.record.model import (
    NOWHERE,
    CardRef,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "Rüdiger Dorn: Die Ausbauten"
S_ACTION = section(H, "Neue Aktion: Ausbau eines Gebäudes")
S_SCORE = section(H, "Wertungsänderungen")
KIND = "ab"
VERB = "extend"
CHANCE = "tableau"
EMPTY = "empty"
DIRK = "dirk"
SLOT = re.compile(r"Gu|Di|De|Du|[xyz]", re.IGNORECASE)
CURRENCIES = {c.value.lower(): c for c in Currency}
DOING = Text("ACTION/extending")
NAME = "ausbauten"
_TURN_END = Moment.TURN_END


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("ausbauten")["components"]
    return data


def per_type() -> dict[BuildingType, int]:
    return {BuildingType(k): int(v) for k, v in _data()["extensions"]["per_type"].items()}


def total_tiles() -> int:
    return int(_data()["extensions"]["total"])


def assumed_columns() -> list[tuple[str, list[int]]]:
    return [
        (str(c["combination"]), [int(n) for n in c["numbers"]])
        for c in _data()["tableau"]["assumed_columns"]
    ]


def parse_type(ref: object) -> BuildingType | None:
    """``ab:S`` -> the seraglio type; None: no extension token."""
    if not isinstance(ref, ComponentRef) or ref.kind.lower() != KIND:
        return None
    name = ref.name.upper()
    return BuildingType(name) if name in {t.value for t in BuildingType} else None


def parse_combination(word: object) -> tuple[str, ...] | None:
    """``xxy`` -> ('x', 'x', 'y'); ``DuDuDi`` -> ('du', 'du', 'di'); None: no combination of
    three slots."""
    if not isinstance(word, str):
        return None
    slots = SLOT.findall(word)
    if len(slots) != 3 or "".join(slots) != word:
        return None
    return tuple(s.lower() for s in slots)


def combination_text(combo: tuple[str, ...]) -> str:
    return "".join(s if len(s) == 1 else s.capitalize() for s in combo)


def fits(combo: tuple[str, ...], currencies: list[Currency]) -> bool:
    """Whether three cards' currencies fit a combination in some order: a currency slot takes
    that currency; equal symbols one currency, different symbols different currencies (a
    letter is a currency the combination does not name)."""
    if len(currencies) != len(combo):
        return False
    named = {CURRENCIES[s] for s in combo if s in CURRENCIES}
    for order in itertools.permutations(currencies):
        bound: dict[str, Currency] = {}
        ok = True
        for slot, cur in zip(combo, order, strict=True):
            if slot in CURRENCIES:
                ok = CURRENCIES[slot] is cur
            elif slot in bound:
                ok = bound[slot] is cur
            elif cur in bound.values() or cur in named:
                ok = False
            else:
                bound[slot] = cur
            if not ok:
                break
        if ok:
            return True
    return False


@dataclass
class Column:
    """One column of the tableau: its combination, per field the number and the tile (None:
    taken)."""

    combination: tuple[str, ...]
    numbers: list[int]
    tiles: list[BuildingType | None]

    def text(self) -> str:
        fields = " ".join(
            f"{n} {'empty' if t is None else f'{KIND}:{t.code}'}"
            for n, t in zip(self.numbers, self.tiles, strict=True)
        )
        return f"{combination_text(self.combination)} {fields}"


@dataclass
class ExtensionScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    columns: dict[int, Column] = field(default_factory=dict)
    shown: Counter[BuildingType] = field(default_factory=Counter)  # tiles the record laid out
    extended: dict[str, list[TileKind]] = field(default_factory=dict)  # per player, in order
    dirk: list[BuildingType] = field(default_factory=list)  # extensions given to Dirk
    # extensions of the current turn, checked at its end: player, type, tile (None: Dirk), where
    # (and whether the player held a building of the type when he extended)
    due: list[tuple[str, BuildingType, TileKind | None, Pos, bool]] = field(default_factory=list)
    # the idle answer at a turn's end kept for the engine (Module.kept_idle, ``idle_at``'s
    # answer): True while ``due`` is empty (set where an extension is made and where the turn's
    # end checks them)
    idle_end: bool = field(default=True, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Extend:
    """An ``extend`` line as written."""

    column: int | None
    type: BuildingType | None
    token: str
    target: object  # TileRef, "dirk", or something else
    paid: list[object]


def _held(player: PlayerState, state: GameState) -> list[Any]:
    """The pieces a player holds: Alhambra, reserve and (in his turn) bought, not yet placed."""
    out: list[Any] = [p for _c, p in player.alhambra.items()]
    out += [p for p in player.reserve if p is not None]
    t = state.turn
    if t is not None and state.players[t.player] is player:
        out += [p for p in t.pending if p is not None]
    return out


def _has_type(pieces: list[Any], t: BuildingType) -> bool:
    return any(getattr(p, "type", None) is t for p in pieces)


def _item_text(v: object) -> str:
    if isinstance(v, ComponentRef):
        return f"{v.kind}:{v.name}"
    if isinstance(v, CardRef):
        return "?" if v.card is None else v.card.code
    if v is None:
        return "-"
    code = getattr(v, "code", None)
    return str(code) if code is not None else str(v)


@bundled
class Ausbauten(BundledModule):
    """The tableau of 12 extension tiles; extending a building is an action."""

    verb_specs = (VerbSpec(VERB),)
    chance_verbs = (CHANCE,)
    component_kinds = (KIND,)
    scratch_type = ExtensionScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("extension", "Ausbau")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        VERB: ("extends a building", "baut ein Gebäude aus"),
        CHANCE: ("the tableau's column", "Spalte des Tableaus"),
    }

    # ------------------------------------------------------------------ the tableau

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* tableau N COMBO n ab:X n ab:Y ...``: a column laid out at the setup."""
        report(state, self._lay_out(state, event.args, event.pos, setup=True))
        return []

    def _lay_out(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, *, setup: bool
    ) -> list[Finding]:
        vals = [a.value for a in args]
        written = " ".join(_item_text(v) for v in vals) or "-"
        combo = parse_combination(vals[1]) if len(vals) > 1 else None
        rest = vals[2:]
        numbers: list[int] = []
        tiles: list[BuildingType | None] = []
        ok = bool(vals) and isinstance(vals[0], int) and combo is not None
        ok = ok and bool(rest) and len(rest) % 2 == 0
        for n, tok in zip(rest[::2], rest[1::2], strict=False):
            t = parse_type(tok)
            empty = isinstance(tok, str) and tok.lower() == EMPTY and not setup
            if not isinstance(n, int) or isinstance(n, bool) or n < 0 or (t is None and not empty):
                ok = False
                break
            numbers.append(n)
            tiles.append(t)
        if not ok or combo is None:
            return [problem("EXT-TABLEAU", pos, None, reason="form", written=written)]
        data = self.data(state)
        col = vals[0]
        assert isinstance(col, int)
        out: list[Finding] = []
        if col in data.columns:
            before = data.columns[col].text()
            return [problem("EXT-TABLEAU", pos, None, reason="twice", column=col, before=before)]
        fields = sum(len(c.numbers) for c in data.columns.values()) + len(numbers)
        if fields > total_tiles():
            out.append(problem("EXT-TABLEAU", pos, None, reason="fields", n=fields))
        data.columns[col] = Column(combo, numbers, tiles)
        for t in tiles:
            if t is not None:
                out.extend(self._seen(state, t, pos, None))
        return out

    def _seen(self, state: GameState, t: BuildingType, pos: Pos, who: str | None) -> list[Finding]:
        """One more extension tile of type ``t`` shown by the record (laid out, or extended in
        a position): at most the supply's count of its type."""
        data = self.data(state)
        data.shown[t] += 1
        most = per_type().get(t, 0)
        if data.shown[t] <= most:
            return []
        where = self._where(state, t)
        return [
            problem(
                "EXT-SUPPLY",
                pos,
                who,
                token=f"{KIND}:{t.code}",
                n=data.shown[t],
                where=where,
                most=most,
            )
        ]

    def _where(self, state: GameState, t: BuildingType) -> str:
        data = self.data(state)
        out = [f"{CHANCE} {k}" for k, c in sorted(data.columns.items()) for x in c.tiles if x is t]
        for name, tiles in data.extended.items():
            out += [f"{name} {tile.code}" for tile in tiles if tile.type is t]
        out += ["Dirk" for x in data.dirk if x is t]
        return ", ".join(out) or "-"

    # ------------------------------------------------------------------ the verb

    def read(self, action: ModuleAction) -> Extend:
        vals = [a.value for a in action.args]
        col = vals[0] if vals and isinstance(vals[0], int) else None
        ref = vals[1] if len(vals) > 1 else None
        target = vals[2] if len(vals) > 2 else None
        if (
            isinstance(target, (str, PlayerRef))
            and str(getattr(target, "name", target)).lower() == DIRK
        ):
            target = DIRK
        paid: list[object] = [
            CardRef(None, getattr(a, "pos", NOWHERE)) if a.value == "?" else a.value  # unknown
            for a in action.args[3:]
            if not (isinstance(a.value, str) and a.value.lower() in ("pay", "zahlt"))
        ]
        return Extend(
            col, parse_type(ref), _item_text(ref) if ref is not None else "-", target, paid
        )

    def target_tile(self, state: GameState, player: PlayerState, target: object) -> TileKind | None:
        """The tile a target names: one the player holds among the tiles the text can mean,
        else the first of them."""
        if not isinstance(target, TileRef) or not target.candidates:
            return None
        held = _held(player, state)
        for c in target.candidates:
            if c in held:
                return c
        return target.candidates[0]

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Every rule of the action that the line alone decides (the building held is checked
        at the end of the turn: it may be bought later in it)."""
        state = ctx.state
        pos = action.pos
        who = player.name
        out: list[Finding] = []
        ext = self.read(action)
        if state.turn is not None:
            out.extend(main_action_findings(state, pos, player, DOING))
        if ext.type is None:
            out.append(problem("EXT-TOKEN", pos, who, token=ext.token))
        data = self.data(state)
        column = data.columns.get(ext.column) if ext.column is not None else None
        if column is None:
            stated = " ".join(str(k) for k in sorted(data.columns)) or "-"
            out.append(
                problem(
                    "EXT-COLUMN",
                    pos,
                    who,
                    reason="unknown",
                    token=ext.token,
                    column=ext.column or "?",
                    columns=stated,
                )
            )
        elif ext.type is not None and ext.type not in column.tiles:
            there = " ".join(f"{KIND}:{t.code}" for t in column.tiles if t is not None) or "-"
            out.append(
                problem(
                    "EXT-COLUMN",
                    pos,
                    who,
                    reason="not-there",
                    token=ext.token,
                    column=ext.column,
                    there=there,
                )
            )
        out.extend(self._pay_findings(ctx, player, ext, column, pos))
        out.extend(self._target_findings(state, player, ext, pos))
        return out

    def _pay_findings(
        self, ctx: Any, player: PlayerState, ext: Extend, column: Column | None, pos: Pos
    ) -> list[Finding]:
        who = player.name
        shown = " ".join(_item_text(v) for v in ext.paid) or "-"
        out: list[Finding] = []
        if len(ext.paid) != 3:
            out.append(
                problem(
                    "EXT-CARDS",
                    pos,
                    who,
                    reason="count",
                    token=ext.token,
                    paid=shown,
                    n=len(ext.paid),
                )
            )
        for v in ext.paid:
            if not isinstance(v, CardRef):
                out.append(
                    problem(
                        "EXT-CARDS",
                        getattr(v, "pos", None) or pos,
                        who,
                        reason="not-a-card",
                        token=ext.token,
                        paid=shown,
                        item=_item_text(v),
                    )
                )
        if out:
            return out
        plan = plan_payment(ctx, player, ext.paid, self._terms(ext), pos)
        out.extend(payment_findings(ctx, plan))
        cards = [v.card for v in ext.paid if isinstance(v, CardRef)]
        currencies = [c.currency for c in cards if c is not None]
        if column is not None and len(currencies) == 3 and not fits(column.combination, currencies):
            out.append(
                problem(
                    "EXT-COMBINATION",
                    pos,
                    who,
                    paid=shown,
                    column=ext.column,
                    combination=combination_text(column.combination),
                )
            )
        return out

    def _terms(self, ext: Extend) -> PaymentTerms:
        return PaymentTerms(
            0, ext.token, mix=Mix.ANY, superfluous=False, components=False, source=S_ACTION
        )

    def _target_findings(
        self, state: GameState, player: PlayerState, ext: Extend, pos: Pos
    ) -> list[Finding]:
        who = player.name
        if ext.target == DIRK:
            if state.dirk is None:
                return [
                    problem(
                        "EXT-BUILDING", pos, who, reason="no-dirk", token=ext.token, target="Dirk"
                    )
                ]
            if ext.type is not None and self.option("dirk") == "type":
                held = sum(1 for t in state.dirk if t is not None and t.type is ext.type)
                done = sum(1 for t in self.data(state).dirk if t is ext.type)
                if done >= held:
                    return [
                        problem(
                            "EXT-BUILDING",
                            pos,
                            who,
                            reason="dirk-full",
                            token=ext.token,
                            target="Dirk",
                            held=held,
                            extended=done,
                        )
                    ]
            return []
        tile = self.target_tile(state, player, ext.target)
        if tile is None:
            return [
                problem(
                    "EXT-BUILDING",
                    pos,
                    who,
                    reason="form",
                    token=ext.token,
                    target=_item_text(ext.target),
                )
            ]
        if ext.type is not None and tile.type is not ext.type:
            return [
                problem("EXT-BUILDING", pos, who, reason="type", token=ext.token, target=tile.code)
            ]
        if tile in self.data(state).extended.get(player.name, []):
            return [problem("EXT-ONCE", pos, who, target=tile.code)]
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Carry the action out (checked by :meth:`check_verb`): the cards paid, the tile off
        the tableau onto the building (or to Dirk); the turn goes on only when the sum is at
        most the number beside the tile."""
        from referee.engine.context import Context

        ctx = Context(state, action.pos)
        data = self.data(state)
        start_main_action(state)
        ext = self.read(action)
        column = data.columns.get(ext.column) if ext.column is not None else None
        number: int | None = None
        if column is not None and ext.type is not None:
            # the field with the largest number (a column may hold two tiles of one type)
            fields = [i for i, t in enumerate(column.tiles) if t is ext.type]
            if fields:
                best = max(fields, key=lambda i: column.numbers[i])
                number = column.numbers[best]
                column.tiles[best] = None
        cards_ok = len(ext.paid) == 3 and all(isinstance(v, CardRef) for v in ext.paid)
        plan = plan_payment(ctx, player, ext.paid if cards_ok else [], self._terms(ext), action.pos)
        apply_payment(ctx, plan)
        tile = None
        if ext.target == DIRK:
            if ext.type is not None:
                data.dirk.append(ext.type)
        else:
            tile = self.target_tile(state, player, ext.target)
            own = data.extended.setdefault(player.name, [])
            if tile is not None and tile not in own:
                own.append(tile)
        if ext.type is not None and (tile is not None or ext.target == DIRK):
            had = any(getattr(p, "type", None) is ext.type for p in _held(player, state))
            data.due.append((player.name, ext.type, tile, action.pos, had))
            data.idle_end = False
        if plan.unknown_paid or any(v.card is None for v in ext.paid if isinstance(v, CardRef)):
            turn_goes_on_unsure(state, DOING)
            return []
        total = sum(v.card.value for v in ext.paid if isinstance(v, CardRef) and v.card is not None)
        if number is None or total > number:
            end_main_action(
                state, Text("ACTION/extending-not-exact", sum=total, number=number or "?")
            )
        return []

    idle_moments = frozenset({Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_end: kept where ``due`` changes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """At a turn's end: idle when no extension of the turn waits for its check (``due``
        empty: the step would only put an empty list in its place)."""
        if moment is not _TURN_END:
            return False
        data = state.modules.get(NAME)
        return type(data) is ExtensionScratch and not data.due

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """At the end of the turn: each extension of the turn lies on a building the player
        holds ("besitzt (egal ob eingebaut oder in der Reserve) oder im gleichen Zug kauft");
        an extended building bought this turn and given to Dirk takes its extension along."""
        super().at_moment(ctx, moment)
        if moment != Moment.TURN_END:
            return
        state = ctx.state
        data = self.data(state)
        due, data.due = data.due, []
        data.idle_end = True  # (nothing due now: idle_at's answer)
        for name, t, tile, pos, had in due:
            player = next((p for p in state.players if p.name == name), None)
            if player is None:
                continue
            pieces = [p for _c, p in player.alhambra.items()] + [
                p for p in player.reserve if p is not None
            ]
            token = f"{KIND}:{t.code}"
            if tile is not None and tile not in pieces:
                if had and state.dirk is not None and tile in state.dirk:
                    data.extended[name].remove(tile)
                    data.dirk.append(t)
                elif state.checking:
                    state.flag(
                        "EXT-BUILDING", pos, name, reason="not-held", token=token, target=tile.code
                    )
            elif tile is None and not had and state.checking and not _has_type(pieces, t):
                state.flag("EXT-BUILDING", pos, name, reason="no-own", token=token, target="Dirk")

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Ein ausgebautes Gebäude zählt bei der Ermittlung der Mehrheiten wie 2 Gebäude": one
        more building of its type per extended building in the Alhambra (and per extension given
        to Dirk)."""
        from referee.scoring import CountAdjustment, ScoringParts

        data = self.data(state)
        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for player in state.players:
            if not data.extended.get(player.name):
                continue  # (no extension: nothing to look for)
            where = {p: c for c, p in player.alhambra.items()}
            out = []
            for tile in data.extended.get(player.name, []):
                at = where.get(tile)
                if at is not None:
                    out.append(
                        CountAdjustment(
                            tile.type,
                            1,
                            f"extension {KIND}:{tile.type.code} on {tile.code}@{at}: counts as 2",
                            f"Ausbau {KIND}:{tile.type.code} auf {tile.code}@{at}: zählt wie 2",
                        )
                    )
            if out:
                adjustments[player.name] = tuple(out)
        if data.dirk and state.dirk is not None:
            adjustments[None] = tuple(
                CountAdjustment(
                    t,
                    1,
                    f"extension {KIND}:{t.code} given to Dirk",
                    f"Ausbau {KIND}:{t.code} an Dirk",
                )
                for t in data.dirk
            )
        return ScoringParts(adjustments)

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``tableau N COMBO n ab:X n empty ...`` per column and ``extend ab:S Dirk`` (outside
        the player sections); ``extend ab:S S9`` per extended building of a player."""
        data = self.data(state)
        if player is None:
            out = []
            for k, c in sorted(data.columns.items()):
                args: list[Any] = [k, combination_text(c.combination)]
                for n, t in zip(c.numbers, c.tiles, strict=True):
                    args += [n, EMPTY if t is None else ComponentRef(KIND, t.code)]
                out.append(ModuleAction(CHANCE, tuple(GenericArg(a) for a in args)))
            out += [
                ModuleAction(VERB, (GenericArg(ComponentRef(KIND, t.code)), GenericArg("Dirk")))
                for t in data.dirk
            ]
            return out
        return [
            ModuleAction(
                VERB, (GenericArg(ComponentRef(KIND, tile.type.code)), GenericArg(_tile_ref(tile)))
            )
            for tile in data.extended.get(player.name, [])
        ]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        if verb == CHANCE and player is None:
            report(state, self._lay_out(state, line.args, line.pos, setup=False))
            return True
        if verb != VERB:
            return False
        vals = [a.value for a in line.args]
        t = parse_type(vals[0]) if vals else None
        token = _item_text(vals[0]) if vals else "-"
        who = player.name if player is not None else None
        target = vals[1] if len(vals) == 2 else None
        if (
            isinstance(target, (str, PlayerRef))
            and str(getattr(target, "name", target)).lower() == DIRK
        ):
            target = DIRK
        found: list[Finding] = []
        if t is None:
            found.append(problem("EXT-TOKEN", line.pos, who, token=token))
        elif player is None and target == DIRK:
            found.extend(self._seen(state, t, line.pos, None))
            self.data(state).dirk.append(t)
        elif player is not None and isinstance(target, TileRef):
            tile = self.target_tile(state, player, target)
            ext = Extend(None, t, token, target, [])
            found.extend(self._target_findings(state, player, ext, line.pos))
            found.extend(self._seen(state, t, line.pos, who))
            own = self.data(state).extended.setdefault(player.name, [])
            if tile is not None and tile.type is t and tile not in own:
                own.append(tile)
        else:
            found.append(
                problem(
                    "EXT-BUILDING",
                    line.pos,
                    who,
                    reason="form",
                    token=token,
                    target=_item_text(target),
                )
            )
        report(state, found)
        return True

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """The extension token on each extended building of the Alhambra (drawn on it)."""
        where = {p: at for at, p in player.alhambra.items()}
        return {
            where[t]: f"{KIND}:{t.type.code}"
            for t in self.data(state).extended.get(player.name, [])
            if t in where
        }

    def view(self, state: GameState) -> dict[str, Any]:
        """The tableau (per column its combination, numbers and tiles), each player's extended
        buildings, Dirk's extensions."""
        data = self.data(state)
        table: dict[str, str] = {f"column {k}": c.text() for k, c in sorted(data.columns.items())}
        if data.dirk:
            table["Dirk's extensions"] = " ".join(f"{KIND}:{t.code}" for t in data.dirk)
        table["options"] = f"dirk={self.option('dirk')}"
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            tiles = data.extended.get(p.name, [])
            if tiles:
                where = {x: c for c, x in p.alhambra.items()}
                players[p.name] = {
                    "extended": " ".join(
                        f"{t.code}@{where[t]}" if t in where else t.code for t in tiles
                    )
                }
        return self.shown(table, players)

    # ------------------------------------------------------------------ legal moves, simulator

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Per column and tile type on it: the player's cheapest three cards that fit the
        combination, onto a held building of that type not yet extended (or to Dirk)."""
        state = ctx.state
        t = state.turn
        if player.alhambra_unknown or player.hand_unknown:
            return []
        if t is not None and (t.over or t.placing):
            return []
        data = self.data(state)
        cards = sorted(player.hand.elements(), key=lambda c: (c.value, c.code))
        if len(cards) < 3:
            return []
        own = data.extended.get(player.name, [])
        free: dict[BuildingType, TileKind] = {}
        for p in _held(player, state):
            if isinstance(p, TileKind) and p not in own and p.type not in free:
                free[p.type] = p
        out: list[Any] = []
        for k, column in sorted(data.columns.items()):
            best = _cheapest(column.combination, cards)
            if best is None:
                continue
            paid = [GenericArg("pay")] + [GenericArg(CardRef(c)) for c in best]
            for ty in dict.fromkeys(x for x in column.tiles if x is not None):
                head = [GenericArg(k), GenericArg(ComponentRef(KIND, ty.code))]
                if ty in free:
                    out.append(
                        ModuleAction(VERB, tuple([*head, GenericArg(_tile_ref(free[ty])), *paid]))
                    )
                if state.dirk is not None and any(
                    getattr(p, "type", None) is ty for p in _held(player, state)
                ):
                    ext = Extend(k, ty, f"{KIND}:{ty.code}", DIRK, [])
                    if not self._target_findings(state, player, ext, NOWHERE):
                        out.append(ModuleAction(VERB, tuple([*head, GenericArg("Dirk"), *paid])))
        return out

    def sim_setup(self, sim: Any) -> list[Any]:
        """The 12 tiles shuffled onto the assumed tableau (ausbauten.yaml), one line per
        column."""
        tiles = [t for t, n in per_type().items() for _ in range(n)]
        sim.rng.shuffle(tiles)
        out = []
        for k, (combo, numbers) in enumerate(assumed_columns(), start=1):
            args: list[Any] = [k, combo]
            for n in numbers:
                args += [n, ComponentRef(KIND, tiles.pop().code)] if tiles else []
            out.append(ModuleChance(CHANCE, tuple(GenericArg(a) for a in args)))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like extensions (so that simulated games use the module), on their
        own buildings rather than Dirk's."""
        ext = [a for a in actions if isinstance(a, ModuleAction) and a.verb == VERB]
        own = [a for a in ext if not (len(a.args) > 2 and a.args[2].value == "Dirk")]
        return own or ext


def _cheapest(combo: tuple[str, ...], cards: list[Any]) -> tuple[Any, ...] | None:
    """The three cards of the smallest sum that fit the combination (None: none do)."""
    best: tuple[Any, ...] | None = None
    least = 0  # the sum of ``best`` (each trio's sum worked out once)
    for trio in itertools.combinations(cards, 3):
        total = trio[0].value + trio[1].value + trio[2].value
        if (best is None or total < least) and fits(combo, [c.currency for c in trio]):
            best, least = trio, total
    return best


def _tile_ref(tile: TileKind) -> TileRef:
    return TileRef(tile.type, tile.price, tile.walls, (tile,))
