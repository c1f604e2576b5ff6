"""Die Arbeiter: a player who rolls at the start of his turn lays a worker on the market field
or the own building whose price the roll matches (then he only takes money); a buyer spends his
workers on the field to change the price by 1 each; the largest connected group of tiles with
workers scores one point per worker at every scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Stefan Feld: Die Arbeiter (heading L3852-3853; text
L3770-3850 and L3857-3878).

Notation (every die is a fact the record states; the referee checks the placement against it):

* ``roll 1 6 Di`` -- at the start of the turn: the dice rolled in order (1 to 3), then where the
  worker goes: a market field (``Gu``/``Di``/``De``/``Du``), an own building ``@x,y`` or a
  reserve tile (``G10n``); ``roll 1 2 4`` without a target: the rolling was without success.
  Then the turn's only action is a take (``ARBEITER-ONLY-TAKE``).
* ``buy Di G7 pay Di6 wk:down`` -- a worker of the buyer on the field spent: ``wk:down`` lowers
  the price by 1, ``wk:up`` raises it; spent workers leave the game.
* ``* workers Di Anna Ben`` -- after a purchase from a field with workers left there, the players
  who take theirs back, in seat order from the start player (the others leave them lying).
* position blocks: ``workers Gu Anna Anna Di Ben`` outside the player sections (the workers on
  the market by owner); ``workers @1,0 @0,1 G10n gone 2`` in a player's section (the cells and
  reserve tiles with his worker, then how many left the game).

Rulings (``docs/modules/arbeiter.md``): a worker stays on its tile in the reserve and comes back
with it; a tile without a price (the fountain, a module piece) is reached by a triple only; the
third roll combines all three dice (switch ``three=subsets``: also two of them); workers not
named in a ``* workers`` line stay on the field.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache, lru_cache

from referee.catalogue import CURRENCIES, SIDES, Currency
from referee.engine.core import match_slot
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.ruleset import Decision, refines
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import Limit, VerbSpec, Window
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    module_data,
    printed_piece,
    rebuilt,
    section,
    token_text,
)
from referee.record.model import (
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE ARBEITER"
S_SCORE = section(H, "Arbeiter in der Alhambra")
KIND = "wk"
ROLL = "roll"
VERB = "workers"
ONLY = "ARBEITER-ONLY-TAKE"
DOWN, UP = "down", "up"


@cache
def per_player() -> int:
    """ "48 Arbeiter (je 8 Arbeiter in einer Spielerfarbe)" (L3771)."""
    return int(module_data("arbeiter")["components"]["workers"]["per_player"])


@cache
def faces() -> tuple[int, ...]:
    return tuple(int(f) for f in module_data("arbeiter")["components"]["dice"]["faces"])


@lru_cache(maxsize=512)  # (a pure function of the dice written; a record has few kinds)
def results(dice: tuple[int, ...], three: str = "all") -> frozenset[int]:
    """What a roll reaches: one die its face; two dice their sum or difference ("die Summe oder
    die Differenz der beiden Würfel", L3808); three dice "eine beliebige Kombination aus der
    Summe/Differenz der drei Würfel" (L3814): every sum and difference of all three (``three``
    ``subsets``: of two of them too). Only positive results count."""
    groups: list[tuple[int, ...]] = [dice]
    if len(dice) == 3 and three == "subsets":
        groups += list(itertools.combinations(dice, 2))
    out: set[int] = set()
    for group in groups:
        first, rest = group[0], group[1:]
        for signs in itertools.product((1, -1), repeat=len(rest)):
            total = abs(first + sum(s * d for s, d in zip(signs, rest, strict=True)))
            if total > 0:
                out.add(total)
    return frozenset(out)


def is_joker(dice: tuple[int, ...]) -> bool:
    """ "Ein Dreierpasch zählt als Joker-Wurf" (L3817)."""
    return len(dice) == 3 and len(set(dice)) == 1


def largest_group(cells: set[Coord]) -> int:
    """The largest set of orthogonally adjacent cells ("vertikal und horizontal (nicht diagonal)
    benachbarter", L3867-3868); walls do not count ("Auch durch Doppelmauern getrennte
    Plättchen sind benachbart", L3872-3873)."""
    seen: set[Coord] = set()
    best = 0
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        todo, size = [start], 0
        while todo:
            c = todo.pop()
            size += 1
            for side in SIDES:
                nb = c.neighbour(side)
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        best = max(best, size)
    return best


def _order(c: Coord) -> tuple[int, int]:
    return (-c.y, c.x)


def _field(value: object) -> int | None:
    return _FIELDS.get(value.lower()) if isinstance(value, str) else None


# the field index of each currency code (lower case), as ``Currency.of_code`` finds them
_FIELDS = {c.value.lower(): c.field - 1 for c in CURRENCIES}


def _field_code(slot: int) -> str:
    return Currency.of_field(slot + 1).code


def _price(piece: object) -> int | None:
    price = getattr(piece, "price", None)
    return price if isinstance(price, int) else None


@dataclass
class WorkerScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    market: dict[int, list[str]] = field(default_factory=dict)  # field index -> owners
    tiles: dict[str, list[Coord]] = field(default_factory=dict)  # cells with the player's worker
    carried: dict[str, list[object]] = field(default_factory=dict)  # reserve tiles with one
    gone: dict[str, int] = field(default_factory=dict)  # spent: out of the game
    rolled: dict[str, int] = field(default_factory=dict)  # player -> turn of his last roll
    bought: dict[int, int] = field(default_factory=dict)  # field -> turn it was bought from
    # the idle answer kept for the engine at a turn's start (Module.kept_idle, ``idle_at``'s
    # answer): True while ``bought`` is empty (the turn's start has nothing to clear); False
    # where a field is noted in it, True again where the turn's start clears it
    idle_start: bool = field(default=True, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll line as read: the dice, what follows them (None: nothing), where the line stands,
    and whether it has the right form (dice first, at most one word after them)."""

    dice: tuple[int, ...]
    target: object  # None: no success
    pos: Pos
    ok: bool


@bundled
class Arbeiter(BundledModule):
    """Workers and dice; names and texts: the YAML."""

    verb_specs = (
        VerbSpec(
            ROLL,
            kind="free",
            window=Window.TURN_START,  # "nur zu Beginn des Zuges" (L3783-3786)
            limit=Limit.PER_TURN,
            aliases=("wuerfeln",),
        ),
    )
    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = WorkerScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("worker", "Arbeiter")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        ROLL: ("rolls for a worker", "würfelt um einen Arbeiter"),
        VERB: ("takes workers back", "nimmt Arbeiter zurück"),
    }

    # ------------------------------------------------------------------ where the workers are

    def cells_of(self, state: GameState, player: PlayerState) -> list[Coord]:
        """The cells of ``player``'s Alhambra with his worker (reserve tiles built again bring
        theirs along)."""
        self._sync(state, player)
        mine: list[Coord] = self.data(state).tiles.get(player.name, [])
        return mine

    def _sync(self, state: GameState, player: PlayerState) -> None:
        data = self.data(state)
        alh = player.alhambra
        mine = data.tiles.setdefault(player.name, [])
        mine[:] = [c for c in mine if alh.get(c) is not None]
        carried = data.carried.get(player.name)
        if not carried:
            return
        keep, landed = rebuilt(player, carried, lambda piece: piece, mine)
        mine.extend(at for at, _ in landed)
        data.carried[player.name] = keep

    def held(self, state: GameState, player: PlayerState) -> int:
        """Workers not yet laid: 8 less those on tiles, on the market and out of the game."""
        data = self.data(state)
        name = player.name
        used = len(self.cells_of(state, player)) + len(data.carried.get(name, []))
        used += sum(owners.count(name) for owners in data.market.values())
        return per_player() - used - data.gone.get(name, 0)

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """A worker stays on its tile when the tile goes to the reserve (ruling a)."""
        data = self.data(state)
        mine = data.tiles.setdefault(player.name, [])
        if at in mine:
            mine.remove(at)
            data.carried.setdefault(player.name, []).append(printed_piece(piece))
        return []

    # ------------------------------------------------------------------ the roll

    def _read_roll(self, action: ModuleAction) -> Roll:
        dice: list[int] = []
        rest: list[object] = []
        for arg in action.args:
            if isinstance(arg.value, int) and not isinstance(arg.value, bool) and not rest:
                dice.append(arg.value)
            else:
                rest.append(arg.value)
        ok = bool(dice) and len(rest) <= 1
        return Roll(tuple(dice), rest[0] if rest else None, action.pos, ok)

    def _target(
        self, state: GameState, player: PlayerState, target: object
    ) -> tuple[str, object, str | None]:
        """Where a worker would go: (what, piece, why not): ``what`` is ``field``, ``cell`` or
        ``reserve``; ``why not`` a reason of ARBEITER-TARGET (None: it may go there)."""
        slot = _field(target)
        if slot is not None:
            tile = state.market[slot] if slot < len(state.market) else None
            if tile is None or tile is EMPTY:
                return "field", None, "empty-field"
            return "field", tile, None
        if isinstance(target, Coord):
            piece = player.alhambra.piece_at(target)
            if piece is None:
                return "cell", None, "no-tile"
            if target in self.cells_of(state, player):
                return "cell", piece, "occupied"
            return "cell", piece, None
        if isinstance(target, (TileRef, ComponentRef)) and not (
            isinstance(target, ComponentRef) and target.kind.lower() == KIND
        ):
            free = list(player.reserve)
            for piece in self.data(state).carried.get(player.name, []):
                if piece in free:
                    free.remove(piece)
            i = match_slot(target, free)
            if i is None:
                return "reserve", None, "not-in-reserve"
            return "reserve", free[i], None
        return "?", None, "form"

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """Every rule of a roll, without changing anything."""
        state = ctx.state
        who = player.name
        roll = self._read_roll(action)

        def shown() -> str:  # (the line's words, for a message only)
            return " ".join(token_text(a.value) for a in action.args) or "-"

        if not roll.ok:
            return [problem("ARBEITER-ROLL", action.pos, who, reason="form", token=shown())]
        out: list[Finding] = []
        if len(roll.dice) > 3:
            out.append(
                problem(
                    "ARBEITER-ROLL",
                    action.pos,
                    who,
                    reason="count",
                    token=shown(),
                    n=len(roll.dice),
                )
            )
        bad = [d for d in roll.dice if d not in faces()]
        if bad:
            out.append(
                problem("ARBEITER-ROLL", action.pos, who, reason="face", token=shown(), face=bad[0])
            )
        if out or roll.target is None:
            return out
        target = token_text(roll.target)
        if isinstance(roll.target, Coord):
            target = f"@{roll.target}"
        _what, piece, why = self._target(state, player, roll.target)
        if why is not None:
            return [problem("ARBEITER-TARGET", action.pos, who, **_params(why, target=target))]
        if self.held(state, player) <= 0:
            out.append(problem("ARBEITER-SUPPLY", action.pos, who))
        if is_joker(roll.dice):
            return out
        price = _price(piece)
        dice = " ".join(map(str, roll.dice))
        if price is None:
            out.append(
                problem(
                    "ARBEITER-MATCH", action.pos, who, reason="no-price", target=target, dice=dice
                )
            )
            return out
        reach = results(roll.dice, self.option("three"))
        if price not in reach:
            out.append(
                problem(
                    "ARBEITER-MATCH",
                    action.pos,
                    who,
                    reason="differs",
                    target=target,
                    dice=dice,
                    price=price,
                    results=", ".join(map(str, sorted(reach))) or "-",
                )
            )
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The worker is laid; the turn's only action left is taking money."""
        data = self.data(state)
        t = state.turn
        if t is not None:
            t.take_only = ONLY
            data.rolled[player.name] = t.number
        roll = self._read_roll(action)
        if not roll.ok or roll.target is None or self.held(state, player) <= 0:
            return []
        what, piece, why = self._target(state, player, roll.target)
        if why is not None:
            return []
        if what == "field":
            slot = _field(roll.target)
            assert slot is not None
            data.market.setdefault(slot, []).append(player.name)
        elif what == "cell":
            assert isinstance(roll.target, Coord)
            data.tiles.setdefault(player.name, []).append(roll.target)
        else:
            data.carried.setdefault(player.name, []).append(printed_piece(piece))
        return []

    # ------------------------------------------------------------------ workers spent

    @staticmethod
    def _spent(purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    @refines(Decision.PAY_PRICE)
    def worker_price(self, ctx: Any, price: int, *, purchase: Any, **_: Any) -> int:
        """ "um den Preis des Gebäudes um 1 zu erhöhen oder zu senken" (L3834-3835), per worker."""
        if purchase is None:
            return price
        for ref in self._spent(purchase):
            name = ref.name.lower()
            price += -1 if name == DOWN else 1 if name == UP else 0
        return price

    @refines(Decision.PAY_PROBLEMS)
    def worker_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """Only the buyer's own workers on the field bought from; each one up or down."""
        spent = self._spent(purchase)
        if not spent:
            return found
        out = list(found)
        pos = purchase.action.pos
        who = player.name
        shown = " ".join(f"{KIND}:{r.name}" for r in spent)
        if any(r.name.lower() not in (DOWN, UP) for r in spent):
            out.append(problem("ARBEITER-SPEND", pos, who, reason="form", token=shown))
            return out
        if purchase.slot is None:
            out.append(problem("ARBEITER-SPEND", pos, who, reason="not-market", token=shown))
            return out
        held = self.data(ctx.state).market.get(purchase.slot, []).count(who)
        if len(spent) > held:
            out.append(
                problem(
                    "ARBEITER-SPEND",
                    pos,
                    who,
                    reason="not-there",
                    token=shown,
                    n=len(spent),
                    held=held,
                    field=_field_code(purchase.slot),
                )
            )
        if purchase.price is not None and purchase.price < 1:
            out.append(
                problem(
                    "ARBEITER-SPEND",
                    pos,
                    who,
                    reason="below-one",
                    token=shown,
                    price=purchase.price,
                )
            )
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Eingesetzte Arbeiter gehen aus dem Spiel" (L3857); the other workers on the field
        wait for their owners' decisions (``* workers``)."""
        if purchase.slot is None:
            return
        data = self.data(ctx.state)
        owners = data.market.get(purchase.slot, [])
        who = purchase.player.name
        for _ref in self._spent(purchase):
            if who in owners:
                owners.remove(who)
                data.gone[who] = data.gone.get(who, 0) + 1
        if not owners:
            data.market.pop(purchase.slot, None)
        else:
            t = ctx.state.turn
            data.bought[purchase.slot] = t.number if t is not None else 0
            data.idle_start = False  # (the kept answer: the turn's start clears ``bought``)

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        """No worker spent and none lying on the field: the refinements pass and
        :meth:`on_purchase` does nothing, unless the turn may only take money (its finding is
        the pipeline's). A purchase from a field where workers lie (``market`` names the field
        only while one lies there) takes the pipeline, where :meth:`on_purchase` notes the
        field for its owners' decisions (no ``after_plain_purchase``: a game where nobody lays
        a worker builds nothing for a purchase to hear)."""
        t = state.turn
        if t is not None and t.take_only is not None:
            return False
        data = state.modules.get(self.name)
        return data is not None and field not in data.market

    # ------------------------------------------------------------------ taken back or left

    def _start_order(self, state: GameState) -> list[str]:
        """Seat order from the start player (the `start` line; else the first of [Players])."""
        names = [p.name for p in state.players]
        claim = state.start_claim
        first = names.index(claim[0]) if claim is not None and claim[0] in names else 0
        return names[first:] + names[:first]

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* workers Di Anna Ben``: the players who take their workers on ``Di`` back."""
        data = self.data(state)
        args = list(event.args)
        shown = " ".join(token_text(a.value) for a in args) or "-"
        slot = _field(args[0].value) if args else None
        found: list[Finding] = []
        if slot is None or any(not isinstance(a.value, str) for a in args[1:]):
            report(state, [problem("ARBEITER-BACK", event.pos, None, reason="form", token=shown)])
            return []
        code = _field_code(slot)
        if slot not in data.bought:
            found.append(
                problem(
                    "ARBEITER-BACK", event.pos, None, reason="not-bought", token=shown, field=code
                )
            )
        order = self._start_order(state)
        owners = data.market.get(slot, [])
        names: list[str] = []
        for arg in args[1:]:
            name = str(arg.value)
            apos = arg.pos or event.pos
            if name not in owners or name in names:
                found.append(
                    problem(
                        "ARBEITER-BACK",
                        apos,
                        None,
                        reason="no-worker",
                        token=shown,
                        name=name,
                        field=code,
                    )
                )
                continue
            names.append(name)
        if [n for n in order if n in names] != names:
            found.append(
                problem(
                    "ARBEITER-BACK",
                    event.pos,
                    None,
                    reason="order",
                    token=shown,
                    order=", ".join(order),
                )
            )
        report(state, found)
        left = [o for o in owners if o not in names]
        if left:
            data.market[slot] = left
        else:
            data.market.pop(slot, None)
        return []

    @staticmethod
    def _decision(state: GameState, slot: int, owners: list[str]) -> ModuleChance:
        return ModuleChance(VERB, (GenericArg(_field_code(slot)), *(GenericArg(n) for n in owners)))

    @acts_at(Moment.TURN_START)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        if moment == Moment.TURN_START:
            data = self.data(ctx.state)
            data.bought.clear()  # the decisions came before this turn
            data.idle_start = True  # (the kept answer: nothing left to clear)

    idle_moments = frozenset({Moment.TURN_START})
    kept_idle = idle_moments  # (its part's idle_start: kept where ``bought`` changes)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's start while no market field is noted
        as bought from (``bought`` empty: the step only clears it)."""
        if moment is not Moment.TURN_START:
            return False
        data = state.modules.get(self.name)
        return data is not None and not data.bought

    # ------------------------------------------------------------------ scoring

    def points(self, state: GameState, player: PlayerState) -> int:
        """ "Nur die größte Anzahl mit Arbeitern besetzter ... benachbarter Gebäudeplättchen
        erzielt Punkte. Je Arbeiter in dem Verbund erhält der Spieler einen Punkt" (L3867-3870)."""
        return largest_group(set(self.cells_of(state, player)))

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """A ``workers`` line for each player with workers in his Alhambra. None while no
        worker lies on a tile or a reserve tile: every player would score 0 (no line); what
        reading the players' cells would leave behind (an empty list per player in ``tiles``)
        is left so here too."""
        data = self.data(state)
        if not any(data.tiles.values()) and not any(data.carried.values()):
            tiles = data.tiles
            for p in state.players:
                tiles.setdefault(p.name, [])
            return None
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        def points(p: Any) -> tuple[int, str, str] | None:
            player = state.player_named(p.name)
            if player is None:
                return None
            n = self.points(state, player)
            return (n, f"{n} {KIND}", f"{n} {KIND}") if n else None

        return ScoringParts(
            categories=(PointLine("workers", "workers", "Arbeiter", S_SCORE, points, order=665),)
        )

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        from referee.engine.legal import piece_ref

        data = self.data(state)
        if player is None:
            args: list[GenericArg] = []
            for slot in sorted(data.market):
                if data.market[slot]:
                    args.append(GenericArg(_field_code(slot)))
                    args += [GenericArg(n) for n in data.market[slot]]
            if data.bought:  # bought from in the last turn: its `* workers` lines still to come
                args.append(GenericArg("bought"))
                args += [GenericArg(_field_code(slot)) for slot in sorted(data.bought)]
            return [ModuleAction(VERB, tuple(args))] if args else []
        parts = [GenericArg(c) for c in sorted(self.cells_of(state, player), key=_order)]
        parts += [GenericArg(piece_ref(p)) for p in data.carried.get(player.name, [])]
        gone = data.gone.get(player.name, 0)
        if gone:
            parts += [GenericArg("gone"), GenericArg(gone)]
        return [ModuleAction(VERB, tuple(parts))] if parts else []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() != VERB:
            return False
        if player is None:
            self._position_market(state, line)
        else:
            self._position_player(state, player, line)
        return True

    def _position_market(self, state: GameState, line: ModuleAction) -> None:
        data = self.data(state)
        found: list[Finding] = []
        slot: int | None = None
        names = {p.name for p in state.players}
        bought = False  # after the word `bought`: the fields bought from in the last turn
        for arg in line.args:
            v = arg.value
            apos = arg.pos or line.pos
            if isinstance(v, str) and v.lower() in ("bought", "gekauft") and v not in names:
                bought = True
                continue
            s = _field(v)
            if bought:
                if s is None:
                    found.append(
                        problem("ARBEITER-POSITION", apos, None, reason="form", token=token_text(v))
                    )
                else:
                    data.bought[s] = state.turn.number if state.turn is not None else state.turn_no
                    data.idle_start = False  # (the kept answer: the turn's start clears it)
                continue
            if s is not None:
                slot = s
                tile = state.market[s] if s < len(state.market) else None
                # workers stay on the field ("auf das entsprechende Kauffeld", L3794), so a field
                # emptied at the end (the leftover distribution) may still hold them
                if tile is None:
                    found.append(
                        problem("ARBEITER-POSITION", apos, None, reason="empty-field", token=v)
                    )
                continue
            if slot is None or not isinstance(v, str) or v not in names:
                found.append(
                    problem("ARBEITER-POSITION", apos, None, reason="form", token=token_text(v))
                )
                continue
            data.market.setdefault(slot, []).append(v)
        report(state, found)

    def _position_player(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        data = self.data(state)
        who = player.name
        mine = data.tiles.setdefault(who, [])
        carried = data.carried.setdefault(who, [])
        free = list(player.reserve)
        for piece in carried:
            if piece in free:
                free.remove(piece)
        found: list[Finding] = []
        args = list(line.args)
        i = 0
        while i < len(args):
            v = args[i].value
            apos = args[i].pos or line.pos
            i += 1
            n = args[i].value if i < len(args) else None
            if v == "gone" and isinstance(n, int):
                data.gone[who] = data.gone.get(who, 0) + n
                i += 1
            elif isinstance(v, Coord):
                if player.alhambra.piece_at(v) is None:
                    found.append(
                        problem("ARBEITER-POSITION", apos, who, reason="empty", token=f"@{v}")
                    )
                elif v not in mine:
                    mine.append(v)
            elif isinstance(v, (TileRef, ComponentRef)):
                k = match_slot(v, free)
                if k is None:
                    found.append(
                        problem(
                            "ARBEITER-POSITION",
                            apos,
                            who,
                            reason="not-in-reserve",
                            token=token_text(v),
                        )
                    )
                else:
                    carried.append(printed_piece(free.pop(k)))
            else:
                found.append(
                    problem("ARBEITER-POSITION", apos, who, reason="form", token=token_text(v))
                )
        if self.held(state, player) < 0:
            found.append(problem("ARBEITER-POSITION", line.pos, who, reason="too-many", token=who))
        report(state, found)

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Drawn on the tiles (E17): ``wk`` on each tile with the player's worker."""
        return {
            at: KIND
            for at in self.data(state).tiles.get(player.name, [])
            if player.alhambra.get(at) is not None
        }

    def market_marks(self, state: GameState) -> dict[int, str]:
        """Drawn on the market line: ``wk`` and the owners of the workers on each field."""
        data = self.data(state)
        return {s: f"{KIND} " + " ".join(owners) for s, owners in data.market.items() if owners}

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        market = ", ".join(
            f"{_field_code(s)}: " + " ".join(owners)
            for s, owners in sorted(data.market.items())
            if owners
        )
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            row = {"workers left": str(self.held(state, p))}
            cells = sorted(self.cells_of(state, p), key=_order)
            if cells:
                row["on tiles"] = " ".join(f"@{c}" for c in cells)
            carried = data.carried.get(p.name)
            if carried:
                row["on reserve tiles"] = " ".join(str(x) for x in carried)
            if data.gone.get(p.name):
                row["out of the game"] = str(data.gone[p.name])
            row["largest group now"] = str(self.points(state, p))
            players[p.name] = row
        return self.shown({"on the market": market or "-"}, players)

    # ------------------------------------------------------------------ legal moves

    def _targets(self, ctx: Any, player: PlayerState) -> list[tuple[object, int | None]]:
        """Every place a worker may go now, with its price (None: no price)."""
        from referee.engine.legal import piece_ref

        state = ctx.state
        out: list[tuple[object, int | None]] = []
        for slot, tile in enumerate(state.market):
            if tile is not None and tile is not EMPTY:
                out.append((_field_code(slot), _price(tile)))
        mine = set(self.cells_of(state, player))
        for c, _ in player.alhambra.items():
            piece = player.alhambra.piece_at(c)
            if c not in mine and piece is not None and c == player.alhambra.anchor_of(c):
                out.append((c, _price(piece)))
        free = list(player.reserve)
        for piece in self.data(state).carried.get(player.name, []):
            if piece in free:
                free.remove(piece)
        for piece in free:
            out.append((piece_ref(piece), _price(piece)))
        return out

    def roll_for(self, ctx: Any, player: PlayerState, dice: tuple[int, ...]) -> list[ModuleAction]:
        """The roll lines a player may write after rolling ``dice``: each target it reaches,
        and the roll without success."""
        args = tuple(GenericArg(d) for d in dice)
        out = [ModuleAction(ROLL, args)]
        if self.held(ctx.state, player) <= 0:
            return out
        reach = results(dice, self.option("three"))
        for target, price in self._targets(ctx, player):
            if is_joker(dice) or (price is not None and price in reach):
                out.append(ModuleAction(ROLL, (*args, GenericArg(target))))  # type: ignore[arg-type]
        return out

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """A roll at the start of the turn (a few sample rolls: the dice are the record's
        facts), when the display holds money to take; and the buys that spend workers."""
        from referee.engine.legal import mover
        from referee.engine.verbs import window_open

        state = ctx.state
        t = state.turn
        if player.hand_unknown or player.alhambra_unknown or state.game_over:
            return []
        if t is None:  # between turns: the next player's turn starts with his first line
            starting = mover(state) is player
        else:
            starting = window_open(state, player, Window.TURN_START) and (
                self.data(state).rolled.get(player.name) != t.number
            )
        out: list[Any] = []
        if starting and any(c is not None for c in state.display):
            for dice in ((1,), (1, 6), (2, 5, 4), (3, 3, 3)):
                out += self.roll_for(ctx, player, dice)
        if t is None or t.take_only is None:
            out += self.spend_buys(ctx, player)
        return out

    def spend_buys(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Purchases from a field holding the player's workers, one spent up or down, paid
        exactly (what a worker is for: "helfen dabei, Gebäude passend zu bezahlen")."""
        from referee.engine.actions.purchase import payments
        from referee.engine.legal import card_ref, tile_ref
        from referee.record.model import Buy

        state = ctx.state
        data = self.data(state)
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        out: list[Any] = []
        for slot, owners in sorted(data.market.items()):
            if player.name not in owners:
                continue
            tile = state.market[slot] if slot < len(state.market) else None
            if tile is None or tile is EMPTY or _price(tile) is None:
                continue
            for way in (DOWN, UP):
                extra = (ComponentRef(KIND, way),)
                cur = Currency.of_field(slot + 1)
                from referee.engine.actions.purchase import plan_purchase

                probe = plan_purchase(state, player, Buy(cur, tile_ref(tile), extra))
                if probe.price is None or probe.price < 1:
                    continue
                allowed = frozenset(
                    ctx.decide(Decision.PAY_CURRENCIES, player=player, field=cur, purchase=probe)
                )
                for pay in payments(hand, allowed, probe.price, True):
                    out.append(Buy(cur, tile_ref(tile), (*(card_ref(c) for c in pay), *extra)))
        return out[:12]

    # ------------------------------------------------------------------ simulator

    def sim_turn_start(self, sim: Any, player: PlayerState) -> list[Any]:
        """Roll the dice (1, then 2, then 3 until a result fits) and lay the worker on a
        fitting place; the policy decides whether to roll at all."""
        from referee.engine.context import Context

        state = sim.state
        if not any(c is not None for c in state.display) or self.held(state, player) <= 0:
            return []
        ctx = Context(state)
        dice: tuple[int, ...] = ()
        for _ in range(3):
            dice = (*dice, sim.rng.choice(faces()))
            options = self.roll_for(ctx, player, dice)[1:]
            if options:
                return [sim.rng.choice(options)]
        return [ModuleAction(ROLL, tuple(GenericArg(d) for d in dice))]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """A purchase made exact by spending a worker is worth it."""
        return [
            a
            for a in actions
            if any(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
        ]

    def sim_refill(self, sim: Any) -> list[Any]:
        """After a purchase from a field with workers left on it, each owner takes his back or
        leaves them (half the time), in seat order from the start player."""
        state = sim.state
        data = self.data(state)
        out: list[Any] = []
        for slot in sorted(data.bought):
            owners = data.market.get(slot, [])
            back = [n for n in self._start_order(state) if n in owners and sim.rng.random() < 0.5]
            if back:
                out.append(self._decision(state, slot, back))
        return out


def _params(reason: str | None, **params: object) -> dict[str, Any]:
    """A finding's reason (chosen at run time) and parameters as one mapping."""
    return {"reason": reason, **params}
