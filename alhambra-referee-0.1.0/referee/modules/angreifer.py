"""Die Angreifer (invaders): attack cards revealed with every scoring, scouts to spy on them.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE ANGREIFER.

"Direkt im Anschluss an eine Wertung wird die oberste Angriffskarte aufgedeckt. Sie legt fest,
aus welcher Richtung die Alhambra angegriffen wird." -- "Für jede offene Seite (am Rand ohne
Mauer) eines Gebäudeplättchens sowie des Startplättchens in dieser Richtung wird dem Spieler je
1 Siegpunkt abgezogen (unter Null kann man aber nicht fallen)."

Notation::

    * scouts sc:T sc:G                       # setup, and after scorings 1 and 2
    21. Ben: buy Du T11 pay Du9 Du2, scout sc:T, place T11@0,2
    * attack W                               # the card revealed with scoring 1
    scoring 1: Anna =9, Ben =4               # the totals after the attack

The attack card is stated on a chance line just before the scoring line it belongs to: the
scoring line states the totals once the scoring is complete, and the attack is the scoring's
last breakdown line (``attack``, claimable as ``attack=-3``), floored so that the total never
falls below zero. Open sides are a read-only geometric query
(:func:`referee.geometry.queries.open_sides`). Taking a scout lets the buyer look at the next
attack card: hidden information the record need not state (the card is checked when revealed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.catalogue import BuildingType, Side
from referee.engine.actions.purchase import payment_value
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.ruleset import Decision
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.geometry import Alhambra
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    module_data,
    section,
    token_text,
)
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, ModuleChance
from referee.scoring import ScoringParts
from referee.scoring.categories import ORDER_LAST, Penalty

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE ANGREIFER"
S_POINTS = section(H, "Angriff nach der 1. Wertung")
ATTACK = "attack"
SCOUTS = "scouts"
GONE = "gone"  # in a position's `scouts` line: the scouts revealed earlier, out of the game
# ... ``reveals N`` (``aufgedeckt``): the reveals made, when one after a scoring is still to come
REVEALS = ("reveals", "aufgedeckt")
SCOUT = "scout"
# a moment inside a turn (the mover's `scouts` line): the exact purchases of the open turn that
# may earn a scout, by building type (`earned sc:A`; `unsure sc:P`: the payment was not known)
EARNED, UNSURE = ("earned", "verdient"), ("unsure", "unsicher")
KIND = "sc"
NAME = "angreifer"  # (the part's name in ``state.modules``)
ORDER_ATTACK = ORDER_LAST + 50  # "Direkt im Anschluss an eine Wertung": after every other line

_DATA = module_data("angreifer")["components"]
DIRECTIONS: tuple[str, ...] = tuple(_DATA["attack_cards"]["directions"])
POINTS: dict[int, int] = {int(k): int(v) for k, v in _DATA["attack_cards"]["points"].items()}
NEIGHBOUR_POINTS = int(_DATA["attack_cards"]["neighbour_points_3"])
SCOUT_TYPES: tuple[str, ...] = tuple(_DATA["scouts"]["types"])
SCOUTS_OPEN = int(_DATA["scouts"]["open"])
WORDS = {str(w): d for d, words in _DATA["attack_cards"]["words"].items() for w in words}
_TYPE_CODE: dict[object, str] = {t: t.value for t in BuildingType}  # what ``.value`` gives
_SIDE_OF = {s.value: s for s in Side}  # what Side(value) gives, by one look-up
NEIGHBOURS = {"N": ("W", "E"), "E": ("N", "S"), "S": ("E", "W"), "W": ("S", "N")}


@dataclass
class AttackScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    cards: dict[int, str] = field(default_factory=dict)  # scoring -> direction
    open_scouts: list[str] = field(default_factory=list)
    revealed_scouts: list[str] = field(default_factory=list)
    reveals: int = 0  # scout reveals done (setup, after scoring 1, after scoring 2)
    taken: dict[str, list[str]] = field(default_factory=dict)  # player -> scouts taken
    # exact purchases that may earn a scout: (player, building type, line of the turn, known)
    earned: list[tuple[str, str, object, bool]] = field(default_factory=list)
    penalties: dict[str, dict[int, int]] = field(default_factory=dict)  # player -> round -> pts


def _building_or_start(at: Coord, piece: Any) -> bool:
    return at == ORIGIN or piece.type is not None


_OPEN_SIDES_KEY = "angreifer.open-sides"


def open_sides_text(alh: Alhambra) -> str:
    """The view's open sides of ``alh`` in every direction (``N=3 E=1 S=2 W=0``: the count of
    ``queries.open_side_count``), kept among the Alhambra's derived facts (``Alhambra.derived``:
    dropped at its next change, copied with it, as Wünsche's ``kept_task``): another module's
    look at every view (Bauland's turn mark) asks again and again on an unchanged Alhambra.
    ``tests/test_module_angreifer_open_count.py`` holds it equal to counting afresh."""
    derived = alh.derived
    got = derived.get(_OPEN_SIDES_KEY)
    if not isinstance(got, str):
        got = derived[_OPEN_SIDES_KEY] = " ".join(
            f"{d}={q.open_side_count(alh, Side(d))}" for d in DIRECTIONS
        )
    return got


def attack_penalty(
    alh: Alhambra, direction: str, round_no: int, pieces: str = "all"
) -> tuple[int, str, str]:
    """The points an attack from ``direction`` after scoring ``round_no`` costs (before the
    floor at zero), with its explanation in English and German. ``pieces``: "all" (every piece
    in a cell) or "buildings" (building tiles and the start tile)."""
    member = None if pieces == "all" else _building_or_start
    side = _SIDE_OF[direction]  # Side(direction), one look-up (a direction of the YAML)
    main = q.open_side_count(alh, side, member)
    per = POINTS[round_no]
    points = main * per
    en = f"{main} open {direction} × {per}"
    de = f"{main} offen {direction} × {per}"
    if round_no == 3:
        for other in NEIGHBOURS[direction]:
            n = q.open_side_count(alh, _SIDE_OF[other], member)
            points += n * NEIGHBOUR_POINTS
            en += f" + {n} open {other} × {NEIGHBOUR_POINTS}"
            de += f" + {n} offen {other} × {NEIGHBOUR_POINTS}"
    return points, en, de


@bundled
class Angreifer(BundledModule):
    verb_specs = (VerbSpec(SCOUT, kind="free"),)  # any number of scout tokens
    chance_verbs = (ATTACK, SCOUTS)
    component_kinds = (KIND,)
    scratch_type = AttackScratch
    hears_component_purchases = True  # after_plain_purchase: any purchase it hears of

    # ------------------------------------------------------------------ lines

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        if event.verb.lower() == ATTACK:
            self._attack(state, event)
        else:
            self._reveal_scouts(state, event)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """In a ``position`` block: ``attack W`` (the card of the next scoring, already
        revealed), ``scouts sc:T sc:G`` (the open scouts), ``scouts sc:T`` in a player section
        (the scouts that player took)."""
        verb = line.verb.lower()
        data = self.data(state)
        if verb == ATTACK and player is None and len(line.args) in (1, 2):
            # ``attack W`` (the next scoring's card) or ``attack 2 W`` (scoring 2's card,
            # revealed already or about to be): the cards stated are checked as drawn ones
            round_no = max([0, *state.scorings_done]) + 1
            if len(line.args) == 2:
                first = line.args[0].value
                if not isinstance(first, int) or not 1 <= first <= 3:
                    state.flag("ATTACK-TIMING", line.pos, reason="over")
                    return True
                round_no = first
            arg = line.args[-1]
            direction = _direction(arg.value)
            if direction is None:
                state.flag("ATTACK-TOKEN", arg.pos or line.pos, token=_token(arg.value))
                return True
            if round_no in data.cards:
                state.flag("ATTACK-TIMING", line.pos, reason="twice", round=round_no)
                return True
            if direction in data.cards.values():
                seen = " ".join(f"{k}:{d}" for k, d in sorted(data.cards.items()))
                state.flag("ATTACK-SUPPLY", arg.pos or line.pos, direction=direction, seen=seen)
                return True
            data.cards[round_no] = direction
            return True
        if verb == SCOUTS and player is not None:
            args = list(line.args)
            cut = next(
                (
                    i
                    for i, a in enumerate(args)
                    if isinstance(a.value, str) and a.value.lower() in EARNED + UNSURE
                ),
                None,
            )
            if cut is not None:
                self._position_earned(state, player, args[cut:], line.pos)
                if not args[:cut]:
                    return True
                line = ModuleAction(line.verb, tuple(args[:cut]), line.pos)
        if verb == SCOUTS:
            kinds: list[str] = []
            gone: list[str] = []  # after the word `gone`: revealed earlier, out of the game
            into = kinds
            args = list(line.args)
            made = None  # ``reveals N`` at the end: the reveals made so far
            if player is None and len(args) >= 2 and str(args[-2].value).lower() in REVEALS:
                n = args[-1].value
                due = 1 + len([s for s in state.scorings_done if s in (1, 2)])
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < due:
                    # fewer than the setup's and the scorings' reveals, when one is to come
                    at = args[-2].pos or line.pos
                    state.flag("SCOUT-REVEAL", at, reason="position", n=token_text(n), due=due)
                else:
                    made = n
                args = args[:-2]
            for arg in args:
                if player is None and str(arg.value).lower() == GONE and into is kinds:
                    into = gone
                    continue
                kind = _scout_type(arg.value)
                if kind is None or kind in data.revealed_scouts or kind in kinds:
                    code = "SCOUT-TOKEN" if kind is None else "SCOUT-SUPPLY"
                    state.flag(code, arg.pos or line.pos, token=_token(arg.value), scout=kind)
                    continue
                if kind in gone:
                    state.flag(
                        "SCOUT-SUPPLY", arg.pos or line.pos, token=_token(arg.value), scout=kind
                    )
                    continue
                into.append(kind)
            data.revealed_scouts.extend(kinds + gone)
            if player is None:
                data.open_scouts = kinds
                data.reveals = max(
                    data.reveals, 1 + len([s for s in state.scorings_done if s in (1, 2)])
                )
                if made is not None:  # the reveal after the last scoring is still to come
                    data.reveals = made
            else:
                data.taken.setdefault(player.name, []).extend(kinds)
            return True
        return False

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``attack 1 E`` for every attack card known (revealed, or the next one stated),
        ``scouts sc:P sc:A gone sc:C`` (the open scouts, then those revealed earlier and out of
        the game; ``scouts`` alone: none open after a reveal);
        ``scouts sc:T`` in a player section (taken)."""
        data = self.data(state)
        if player is not None:
            taken = data.taken.get(player.name, [])
            args = [GenericArg(ComponentRef(KIND, k)) for k in taken]
            line = _turn_key(state)
            mine = [e for e in data.earned if e[0] == player.name and e[2] == line]
            for word, known in (("earned", True), ("unsure", False)):
                kinds = [e[1] for e in mine if e[3] is known]
                if kinds:
                    args += [GenericArg(word), *(GenericArg(ComponentRef(KIND, k)) for k in kinds)]
            return [ModuleAction(SCOUTS, tuple(args))] if args else []
        out = [
            ModuleAction(ATTACK, (GenericArg(r), GenericArg(d)))
            for r, d in sorted(data.cards.items())
        ]
        if data.reveals or data.open_scouts:
            scouts = [GenericArg(ComponentRef(KIND, k)) for k in data.open_scouts]
            taken = {k for ks in data.taken.values() for k in ks}
            gone = [k for k in data.revealed_scouts if k not in data.open_scouts and k not in taken]
            if gone:
                scouts += [GenericArg(GONE), *(GenericArg(ComponentRef(KIND, k)) for k in gone)]
            if data.reveals < 1 + len([s for s in state.scorings_done if s in (1, 2)]):
                # "Nach der 1. und 2. Wertung werden jeweils 2 neue Kundschafterkarten
                # aufgedeckt" (rulebook-bigbox-de-2019.txt L1750-1751): that one still to come
                scouts += [GenericArg(REVEALS[0]), GenericArg(data.reveals)]
            out.append(ModuleAction(SCOUTS, tuple(scouts)))
        return out

    def _position_earned(
        self, state: GameState, player: PlayerState, args: list[GenericArg], pos: Any
    ) -> None:
        """``earned sc:A [unsure sc:P]`` at the end of the mover's ``scouts`` line (a moment
        inside a turn): the building types of the open turn's exact purchases that may still
        earn a scout (``unsure``: the payment was not known)."""
        t = state.turn
        known = True
        out: list[tuple[str, str, object, bool]] = []
        bad = t is None or t.player != player.index
        for a in args:
            v = a.value
            if isinstance(v, str) and v.lower() in EARNED + UNSURE:
                known = v.lower() in EARNED
                continue
            kind = _scout_type(v)
            if kind is None:
                bad = True
                continue
            out.append((player.name, kind, _turn_key(state), known))
        if bad:
            form = "'scouts ... earned sc:TYPE ... [unsure sc:TYPE ...]' in the mover's section"
            state.flag("POSITION-INVALID", pos, player.name, reason="turn-state", form=form)
            return
        for e in out:
            _earn(self.data(state).earned, e)

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        """A position scored without the attack card of that scoring: reported
        (``ATTACK-MISSING``), never silently left out."""
        if round_no not in self.data(ctx.state).cards:
            ctx.flag("ATTACK-MISSING", ctx.pos, reason="position", round=round_no)

    def _scouts_taken(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> tuple[list[Finding], list[tuple[str, Any]]]:
        """What ``scout sc:T ...`` breaks, and the scouts it takes (each with the exact purchase
        of its building type in this turn that earns it), in the order written."""
        if self.option("variant") == "open":
            return [problem("SCOUT-REVEAL", action.pos, player.name, reason="variant")], []
        data = self.data(state)
        found: list[Finding] = []
        takes: list[tuple[str, Any]] = []
        open_now, earned, line = list(data.open_scouts), list(data.earned), _turn_key(state)
        for arg in action.args or (GenericArg("", action.pos),):
            apos, kind = arg.pos or action.pos, _scout_type(arg.value)
            if kind is None:
                found.append(problem("SCOUT-TOKEN", apos, player.name, token=_token(arg.value)))
                continue
            if kind not in open_now:
                shown = " ".join(f"sc:{s}" for s in open_now) or "-"
                found.append(problem("SCOUT-NOT-OPEN", apos, player.name, scout=kind, open=shown))
                continue
            match = next((e for e in earned if e[:3] == (player.name, kind, line)), None)
            if match is None:
                found.append(problem("SCOUT-PURCHASE", apos, player.name, scout=kind))
                continue
            if not match[3]:
                found.append(
                    unverifiable(apos, "UNVERIFIED-SCOUT-PAYMENT", player.name, scout=kind)
                )
            earned.remove(match)
            open_now.remove(kind)
            takes.append((kind, match))
        return found, takes

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``scout sc:T``: an open scout, after an exact purchase of a tower in the same turn."""
        return self._scouts_taken(ctx.state, player, action)[0]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The scouts taken: "Der verwendete Kundschafter wird aus dem Spiel genommen"."""
        data = self.data(state)
        for kind, match in self._scouts_taken(state, player, action)[1]:
            data.earned.remove(match)
            data.open_scouts.remove(kind)
            data.taken.setdefault(player.name, []).append(kind)
        return []

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """Remember an exact purchase ("kauft und passend bezahlt"): it may earn a scout. The
        vizier's and the patron's purchases are exact too (Anmerkungen) and run through here."""
        tile = purchase.tile
        btype = getattr(tile, "type", None)
        state = ctx.state
        if btype is None or purchase.price is None or state.turn is None:
            return
        known = not purchase.unknown_paid
        if known:
            total = payment_value(ctx, purchase)
            exact = bool(
                ctx.decide(
                    Decision.PAY_EXACT,
                    player=purchase.player,
                    purchase=purchase,
                    value=total,
                    price=purchase.price,
                )
            )
            if not exact:
                return
        _earn(self.data(state).earned, (purchase.player.name, btype.value, _turn_key(state), known))

    leaves_plain_purchases = True  # its leaves_plain_purchase: yes to every plain purchase

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no purchase rule; a plain purchase is heard in after_plain_purchase

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass (a catalogue tile, every card
        known): an exact one may earn a scout (not a building site: its ``type`` is None).
        (:func:`_earn` and :func:`_turn_key` inline, the type's code read from a table, the
        part without :meth:`data`'s call once it exists: heard at every exact purchase of a
        game with the module, issue 34.)"""
        if not buy.exact:
            return
        btype = getattr(buy.tile, "type", None)
        t = state.turn
        if btype is None or t is None:
            return
        code = _TYPE_CODE.get(btype)
        if code is None:  # (a type not in the table: its enum value, as before)
            code = btype.value
        pos = t.pos
        key = (t.number, t.player, t.interrupt, pos.line, pos.column)  # _turn_key(state)
        earned = (state.modules.get(NAME) or self.data(state)).earned
        if earned and earned[-1][2] != key:  # _earn: the purchases of earlier turns dropped
            earned.clear()
        earned.append((buy.player.name, code, key, True))

    @acts_at(Moment.SCORING_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment != Moment.SCORING_DONE or ctx.pos is None or not state.scorings_done:
            return
        r = state.scorings_done[-1]
        data = self.data(state)
        if r not in data.cards:
            ctx.flag("ATTACK-MISSING", ctx.pos, reason="record", round=r)
            return
        result = state.scoring_results[-1]
        for row in result.rows:
            if getattr(row, "is_dirk", False):
                continue
            cat = row.categories.get(ATTACK) if hasattr(row, "categories") else None
            if cat is not None:
                data.penalties.setdefault(row.name, {})[r] = cat.points

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """The attack after the scoring: the last breakdown line, the total floored at zero."""
        direction = self.data(state).cards.get(round_no)
        if direction is None:
            return None
        pieces = str(self.option("pieces"))

        def points(p: Any) -> tuple[int, str, str] | None:
            if p.alhambra is None:
                return None  # scored from stated counts: no layout to look at
            return attack_penalty(p.alhambra, direction, round_no, pieces)

        line = Penalty(
            ATTACK,
            "attack",
            "Angriff",
            S_POINTS,
            points,
            order=ORDER_ATTACK,
            floor="total",
        )
        return ScoringParts(categories=(line,))

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        hidden = self.option("variant") != "open"
        table: dict[str, Any] = {
            "attack cards": " ".join(f"{r}:{d}" for r, d in sorted(data.cards.items())) or "-",
            "next attack": "?" if hidden else "(open)",
        }
        if hidden:
            table["open scouts"] = " ".join(f"sc:{s}" for s in data.open_scouts) or "-"
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            row: dict[str, Any] = {}
            if p.counts is None:
                row["open sides"] = open_sides_text(p.alhambra)
            if data.taken.get(p.name):
                row["scouts"] = " ".join(f"sc:{s}" for s in data.taken[p.name])
            if data.penalties.get(p.name):
                row["attacks"] = " ".join(
                    f"{r}:{pts}" for r, pts in sorted(data.penalties[p.name].items())
                )
            players[p.name] = row
        return self.shown(table, players)

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Taking an open scout after an exact purchase of its building type in this turn."""
        state = ctx.state
        if self.option("variant") == "open" or state.turn is None:
            return []
        data = self.data(state)
        line = _turn_key(state)
        kinds = {e[1] for e in data.earned if e[0] == player.name and e[2] == line and e[3]}
        return [
            ModuleAction(SCOUT, (GenericArg(ComponentRef(KIND, k)),))
            for k in data.open_scouts
            if k in kinds
        ]

    # ------------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """The scout cards shuffled, the top two face up; the attack cards shuffled face down
        (the simulator keeps their order)."""
        if self.option("variant") == "open":
            return []
        return [self._sim_scouts(sim)]

    def sim_before_scoring(self, sim: Any, round_no: int) -> list[Any]:
        """The attack card of this scoring (the top card of the shuffled pile)."""
        order = self._sim_piles(sim)["attacks"]
        return [ModuleChance(ATTACK, (GenericArg(order[round_no - 1]),))]

    def sim_refill(self, sim: Any) -> list[Any]:
        """After scorings 1 and 2 two new scouts are revealed (with the next refill)."""
        state = sim.state
        if self.option("variant") == "open":
            return []
        data = self.data(state)
        due = len([s for s in state.scorings_done if s in (1, 2)])
        if data.reveals <= due and data.reveals < 3 and 3 not in state.scorings_done:
            return [self._sim_scouts(sim)]
        return []

    def _sim_piles(self, sim: Any) -> dict[str, list[str]]:
        """The face-down attack pile and scout pile (the simulator's hidden table)."""

        def make() -> dict[str, list[str]]:
            attacks, scouts = list(DIRECTIONS), list(SCOUT_TYPES)
            sim.rng.shuffle(attacks)
            sim.rng.shuffle(scouts)
            return {"attacks": attacks, "scouts": scouts}

        piles: dict[str, list[str]] = sim.mine(self, make)
        return piles

    def _sim_scouts(self, sim: Any) -> ModuleChance:
        pile = self._sim_piles(sim)["scouts"]
        drawn = [pile.pop() for _ in range(min(SCOUTS_OPEN, len(pile)))]
        return ModuleChance(SCOUTS, tuple(GenericArg(ComponentRef(KIND, k)) for k in drawn))

    # ------------------------------------------------------------------ helpers

    def _attack(self, state: GameState, event: ModuleChance) -> None:
        data = self.data(state)
        pos = event.pos
        if len(event.args) != 1:
            state.flag("ATTACK-TOKEN", pos, token=" ".join(_token(a.value) for a in event.args))
            return
        arg = event.args[0]
        direction = _direction(arg.value)
        if direction is None:
            state.flag("ATTACK-TOKEN", arg.pos or pos, token=_token(arg.value))
            return
        if 3 in state.scorings_done:
            state.flag("ATTACK-TIMING", pos, reason="over")
            return
        r = max([0, *state.scorings_done]) + 1
        if state.game_over and r < 3 and r not in state.scoring_pending:
            r = 3  # the game ended before scoring r's card turned up: the final scoring is next
        due = r in state.scoring_pending or (r == 3 and state.game_over)
        if self.option("variant") == "open":
            due = True  # "Die aktuelle Angriffskarte wird aufgedeckt": open from the start
        if r in data.cards:
            state.flag("ATTACK-TIMING", pos, reason="twice", round=r)
            return
        if not due:
            state.flag("ATTACK-TIMING", pos, reason="early")
            return
        if direction in data.cards.values():
            seen = " ".join(f"{k}:{d}" for k, d in sorted(data.cards.items()))
            state.flag("ATTACK-SUPPLY", pos, direction=direction, seen=seen)
        data.cards[r] = direction

    def _reveal_scouts(self, state: GameState, event: ModuleChance) -> None:
        data = self.data(state)
        pos = event.pos
        if self.option("variant") == "open":
            state.flag("SCOUT-REVEAL", pos, reason="variant")
            return
        done = len([s for s in state.scorings_done if s in (1, 2)])
        if data.reveals > done or data.reveals >= 3 or 3 in state.scorings_done:
            state.flag(
                "SCOUT-REVEAL",
                pos,
                reason="timing",
                done=data.reveals,
                scorings=" ".join(str(s) for s in state.scorings_done) or "-",
            )
            return
        if len(event.args) != SCOUTS_OPEN:
            state.flag("SCOUT-REVEAL", pos, reason="count", n=len(event.args))
        fresh: list[str] = []
        for arg in event.args:
            kind = _scout_type(arg.value)
            if kind is None:
                state.flag("SCOUT-TOKEN", arg.pos or pos, token=_token(arg.value))
                continue
            if kind in data.revealed_scouts or kind in fresh:
                state.flag("SCOUT-SUPPLY", arg.pos or pos, scout=kind)
                continue
            fresh.append(kind)
        data.reveals += 1
        data.revealed_scouts.extend(fresh)
        # "eventuell noch offen ausliegende Kundschafter kommen aus dem Spiel"
        data.open_scouts = fresh


def _earn(
    earned: list[tuple[str, str, object, bool]], purchase: tuple[str, str, object, bool]
) -> None:
    """Keep an exact purchase that may earn a scout. "a scout is earned in the turn of the
    purchase": every reader matches the current turn's key, and a turn (or out-of-turn line)
    never comes back once another began, so the purchases of earlier turns are dropped here
    (instead of at every turn start)."""
    if earned and earned[-1][2] != purchase[2]:
        earned.clear()
    earned.append(purchase)


def _turn_key(state: GameState) -> object:
    """The current turn (or out-of-turn line), as a value that survives copying the state."""
    t = state.turn
    if t is None:
        return None
    return (t.number, t.player, t.interrupt, t.pos.line, t.pos.column)


def _token(value: object) -> str:
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    return str(value)


def _direction(value: object) -> str | None:
    if isinstance(value, ComponentRef):
        return None
    return WORDS.get(str(value).strip().lower())


def _scout_type(value: object) -> str | None:
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    name = value.name.upper()
    return name if name in SCOUT_TYPES else None  # the YAML lists building types
