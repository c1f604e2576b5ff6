"""Die Gunst des Wesirs (the vizier): buy one market tile out of turn, exactly paid.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE GUNST DES WESIRS. Names, summary and rule
texts: ``wesir.yaml``.

Notation (see ``wesir.yaml`` and ``docs/modules/wesir.md``):

* ``Ben: vizier, buy Di A6sw pay Di6, place A6sw@1,0`` -- an out-of-turn line (no turn number)
  after a turn has completely ended (its refill and any scoring written). The market refill
  follows as a chance line; the next numbered turn is the player who was next anyway.
* ``Ben: vizier Cem, buy ...`` -- Cem also wanted to use his vizier at that moment (checked: Ben
  comes first in the order starting with the player who would move next).
* ``7. Ben: wake`` -- the action "Den Wesirstein wieder aufwecken".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine.context import Context
from referee.engine.extensions import ActionKind
from referee.engine.findings import Finding, problem
from referee.engine.state import GameState, PlayerState, TurnState
from referee.engine.turns import Claim, Phase, main_action_findings, start_main_action
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    interrupting_player,
    settle_turn_over,
)
from referee.notation import formatter
from referee.record.model import (
    Action,
    Buy,
    GenericArg,
    Give,
    ModuleAction,
    Place,
    Pos,
    Reserve,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.actions.purchase import Purchase

USE_VERB = "vizier"
WAKE_VERB = "wake"
WAKING = Text("ACTION/waking-vizier")


@dataclass
class VizierScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    awake: dict[str, bool] = field(default_factory=dict)
    uses: list[tuple[int, str]] = field(default_factory=list)  # (after turn number, player)


def _starts_awake() -> bool:
    return bool(Wesir.yaml()["components"]["vizier_tokens"]["start"] == "awake")


@bundled
class Wesir(BundledModule):
    """The vizier: one token per player; out-of-turn purchase; waking is an action."""

    verb_specs = (
        VerbSpec(USE_VERB, kind=ActionKind.INTERRUPT, aliases=("wesir",)),
        VerbSpec(WAKE_VERB, aliases=("wecken",), args=()),
    )
    scratch_type = VizierScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.awake = {p.name: _starts_awake() for p in state.players}

    def awake(self, state: GameState, player: PlayerState) -> bool:
        # (asked at every vizier line and claim: self.data(state) without its call once the
        # module's part exists)
        data = state.modules.get(self.name) or self.data(state)
        return bool(data.awake.get(player.name, True))

    # ------------------------------------------------------------------ verbs

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``wake``: an action ("Neue Aktion"), of a vizier that sleeps; ``vizier`` inside a
        numbered turn: the vizier is used between turns only."""
        if action.verb.lower() not in (WAKE_VERB, "wecken"):
            return [
                problem(
                    "WESIR-TIMING", action.pos, player.name, reason="inside-turn", name=player.name
                )
            ]
        out = main_action_findings(ctx.state, action.pos, player, WAKING)
        if self.awake(ctx.state, player):
            out.append(problem("WESIR-AWAKE", action.pos, player.name))
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        if action.verb.lower() in (WAKE_VERB, "wecken"):
            start_main_action(state)
            (state.modules.get(self.name) or self.data(state)).awake[player.name] = True
            Context(state).end_main_action(WAKING)
        return []  # `vizier` inside a numbered turn changes nothing (check_verb reports it)

    out_of_turn_verbs = frozenset({USE_VERB, "wesir"})  # (its out_of_turn reads these only)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() not in (USE_VERB, "wesir"):
            return None
        player = interrupting_player(state, turn)
        if player is not None:
            self._use(Context(state, turn.pos), player, turn)
        return []

    # ------------------------------------------------------------ positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``vizier awake`` / ``vizier asleep`` in a player's section of a position."""
        words = [str(a.value).lower() for a in line.args]
        if player is None or line.verb.lower() not in (USE_VERB, "wesir") or len(words) != 1:
            return False
        if words[0] not in ("awake", "asleep", "wach", "schlafend"):
            return False
        self.data(state).awake[player.name] = words[0] in ("awake", "wach")
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``vizier asleep`` (or ``vizier awake``) in a player's section when the token is not
        as it starts ("wach" in ``wesir.yaml``), as :meth:`position_line` reads it back. The
        earlier uses (``uses`` in the view: after which turn who bought) are history a position
        does not state; the rest of the game needs only whether each vizier is awake."""
        if player is None or self.awake(state, player) == _starts_awake():
            return []
        word = "awake" if self.awake(state, player) else "asleep"
        return [ModuleAction(USE_VERB, (GenericArg(word),))]

    # ---------------------------------------------------------- the vizier line

    def _use(self, ctx: Context, player: PlayerState, turn: Turn) -> None:
        """A vizier line: the checks of the line itself (pure, reported where the old single
        pass reported them), then its purchase and placement run as base actions."""
        state = ctx.state
        pos = turn.pos
        use = turn.actions[0]
        assert isinstance(use, ModuleAction)
        # The turn before must be completely over: its refill, a scoring it triggered, Dirk.
        settle_turn_over(ctx, pos, "WESIR-TIMING", player)
        if state.game_over or state.distributed or state.phase == Phase.OVER:
            why = state.end_reason or Text("TURN-AFTER-END.why/scoring-3")
            ctx.flag("WESIR-GAME-END", pos, player.name, why=why)
            return
        if state.turn_no == 0:
            ctx.flag("WESIR-TIMING", pos, player.name, reason="before-first-turn")
        # (self.awake(state, player) without its calls once the module's part exists)
        if not (state.modules.get(self.name) or self.data(state)).awake.get(player.name, True):
            ctx.flag("WESIR-ASLEEP", use.pos, player.name)
        if use.args:  # (nobody else named: no contest, nothing reported; nearly every line)
            self._check_priority(ctx, player, use)
        acts = turn.actions
        if len(acts) == 3 and type(acts[1]) is Buy and type(acts[2]) in _PLACING:
            shape = _NO_SHAPE  # one purchase and its placement: what _line_findings finds (none)
        else:
            shape = self._line_findings(state, player, turn) if state.checking else {}
        saved = ctx.begin_interrupt(player, self.name, pos)
        t = state.turn
        assert t is not None
        if shape is _NO_SHAPE:  # the common line: the loop below for it, with nothing to report
            buy = acts[1]
            assert isinstance(buy, Buy)  # (the guard above: type(acts[1]) is Buy)
            _buy(ctx, t, buy, pos, player, True)
            ctx.run_action(acts[2])
        else:
            buys = 0
            for i, a in enumerate(turn.actions[1:], 1):
                ctx.report(shape.get(i, ()))
                if isinstance(a, Buy):
                    buys += 1
                    _buy(ctx, t, a, pos, player, buys == 1)
                elif isinstance(a, _PLACING_TYPES) or self._kind(state, a) == ActionKind.FREE:
                    ctx.run_action(a)
            ctx.report(shape.get(0, ()))
        ctx.close_placements(pos, player)
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        data.awake[player.name] = False
        data.uses.append((state.turn_no, player.name))
        # "Der Bauhof wird dann wieder auf 4 Gebäude aufgefüllt": a refill follows; play
        # resumes "bei demjenigen Spieler, der eigentlich an der Reihe gewesen wäre".
        ctx.end_interrupt(saved)

    @staticmethod
    def _kind(state: GameState, a: Action) -> ActionKind | None:
        return state.ext.verb_kind(a.verb) if isinstance(a, ModuleAction) else None

    def _line_findings(
        self, state: GameState, player: PlayerState, turn: Turn
    ) -> dict[int, list[Finding]]:
        """What the vizier line does besides one purchase and its placement, by the index of
        the action concerned (0: the line as a whole): "Er hat keinen Bonuszug"; no square
        ("erlaubt einem Spieler nicht, sich einen Platz zu nehmen"). One mistake gives one
        finding: a line that does something else instead of buying is not also reported as
        buying nothing."""
        out: dict[int, list[Finding]] = {}
        buys = 0
        for i, a in enumerate(turn.actions[1:], 1):
            apos = getattr(a, "pos", None) or turn.pos
            kind = self._kind(state, a)
            if isinstance(a, Buy):
                buys += 1
                if buys > 1:
                    out[i] = [
                        problem(
                            "WESIR-ACTION",
                            apos,
                            player.name,
                            reason="second-tile",
                            name=player.name,
                        )
                    ]
            elif isinstance(a, Place | Reserve | Give) or kind == ActionKind.FREE:
                continue
            elif kind == ActionKind.ACQUIRE:
                out[i] = [problem("WESIR-NO-SQUARE", apos, player.name)]
            else:  # the action as written, never a class name
                out[i] = [
                    problem(
                        "WESIR-ACTION",
                        apos,
                        player.name,
                        reason="other-action",
                        name=player.name,
                        what=formatter.action(a),
                    )
                ]
        if buys == 0 and not out:
            use = turn.actions[0]
            out[0] = [
                problem(
                    "WESIR-ACTION", use.pos, player.name, reason="no-purchase", name=player.name
                )
            ]
        return out

    def _check_priority(self, ctx: Context, player: PlayerState, use: ModuleAction) -> None:
        """Other players named on the line also wanted their vizier now: the one arbiter says
        who comes first ("wer eigentlich am Zug wäre, ist der Erste"). A contender counts only
        when he could use his vizier: it is awake ("Sein Wesir muss wach sein"; an asleep one
        is reported) and he can pay a tile exactly ("Er muss das Gebäudeplättchen genau
        passend bezahlen (können)")."""
        state = ctx.state

        def asleep(other: PlayerState, pos: Pos) -> None:
            if not self.awake(state, other):
                ctx.flag("WESIR-ASLEEP", pos, other.name)

        acting = Claim(player, self.name, use.pos)
        state.ext.arbiter.contest(ctx, acting, use.args, "WESIR-PRIORITY", refused=asleep)

    def could_claim(self, ctx: Context, player: PlayerState, want: object) -> bool:
        """A vizier may be used by a player whose vizier is awake and who can pay a market
        tile exactly (an unknown hand card: he may be able to)."""
        if not self.awake(ctx.state, player):
            return False
        return player.hand_unknown > 0 or bool(self._exact_buys(ctx, player))

    @staticmethod
    def _exact_buys(ctx: Context, p: PlayerState) -> list[Buy]:
        """The purchases ``p`` could pay exactly now (in any way the purchase pipeline
        accepts, module payments included)."""
        return [buy for buy, _ in Wesir._exact_plans(ctx, p)]

    @staticmethod
    def _exact_plans(ctx: Context, p: PlayerState) -> list[tuple[Buy, Purchase]]:
        """:meth:`_exact_buys`, each with the plan ``plan_purchase`` made of it (the table is
        not changed by planning: the same plan as asked again)."""
        from referee.engine import legal
        from referee.engine.actions.purchase import plan_purchase

        buys: list[Buy] = legal.buy_actions(ctx, p, exact_only=True)
        for m in ctx.state.ext.modules:
            buys += [a for a in m.legal_actions(ctx, p) if isinstance(a, Buy)]
        out: list[tuple[Buy, Purchase]] = []
        for buy in buys:
            plan = plan_purchase(ctx.state, p, buy)
            if legal.plan_is_exact(ctx, p, plan):
                out.append((buy, plan))
        return out

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Context, player: PlayerState) -> list[Any]:
        """ "Den Wesirstein wieder aufwecken" is an action, for an asleep vizier only."""
        if self.awake(ctx.state, player):
            return []
        return [ModuleAction(WAKE_VERB, ())]

    def legal_interrupts(self, ctx: Context) -> list[Turn]:
        """Each awake player's vizier lines: one market tile paid exactly (in any way the
        purchase pipeline accepts, module payments included), then placed or reserved. Not
        before the first turn, not while a scoring is due (it comes first), not once the game
        has ended."""
        from referee.engine import legal
        from referee.engine.turns import seat_order
        from referee.record.model import PlayerRef

        state = ctx.state
        if state.turn_no == 0 or state.scoring_pending or state.game_over or state.distributed:
            return []
        if state.phase == Phase.OVER:
            return []
        out: list[Turn] = []
        for p in seat_order(state):
            if not self.awake(state, p):
                continue
            places: dict[int, list[Any]] = {}  # the places of a piece (by identity) for p
            for buy, plan in self._exact_plans(ctx, p):
                # the piece bought: a market tile, a module tile, or a piece beside the market
                tile = plan.tile
                if tile is None or (plan.offer is not None and not plan.offer.placed):
                    continue  # the vizier buys a building to place or reserve (no card)
                # free actions owed before placing (e.g. a bought plot's building, "sofort")
                owed: list[tuple[Any, ...]] = [
                    (a,) for a in legal.owed_after_buy(ctx, p, buy, self.name)
                ] or [()]
                for first in owed:
                    # the owed step is taken first (a watchtower set, a plot's building): the
                    # places of the bought tile are those left after it
                    wheres: list[Any] | None
                    if first:
                        where_ctx, who = self._after(ctx, p, buy, first)
                        wheres = legal.placements_of(where_ctx, who, tile)
                    else:  # the same table for every payment of the same piece
                        wheres = places.get(id(tile))
                        if wheres is None:
                            wheres = places[id(tile)] = legal.placements_of(ctx, p, tile)
                    for where in wheres:
                        if isinstance(where, Give):
                            continue
                        line = (ModuleAction(USE_VERB, ()), buy, *first, where)
                        out.append(Turn(None, PlayerRef(p.name), line))
        return out

    def _after(
        self, ctx: Context, p: PlayerState, buy: Any, first: tuple[Any, ...]
    ) -> tuple[Context, PlayerState]:
        """The table after the vizier's purchase ``buy`` and the owed steps ``first`` (on a
        copy), and ``p`` there: where the bought tile may go then."""
        from referee.engine.actions import run_action
        from referee.engine.context import OutOfTurnContext
        from referee.engine.turns import begin_interrupt
        from referee.record.model import NOWHERE

        trial = ctx.state.copy()
        who = trial.players[p.index]
        begin_interrupt(trial, who, self.name, NOWHERE)
        run_action(trial, buy)
        for action in first:
            run_action(trial, action)
        return OutOfTurnContext(trial), who

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        return self.shown(
            {"uses": [f"after turn {n}: {who}" for n, who in data.uses]},
            {name: {"vizier": "awake" if up else "asleep"} for name, up in data.awake.items()},
        )


def _buy(ctx: Context, t: TurnState, buy: Buy, pos: Pos, player: PlayerState, first: bool) -> None:
    """A vizier line's purchase run; an overpaid first purchase reported (WESIR-EXACT), once:
    the placement still follows."""
    ctx.run_action(buy)
    if first and t.over and not t.unsure:
        ctx.flag("WESIR-EXACT", buy.pos or pos, player.name, paid=_paid(t.over_after))
    t.over = False


_PLACING: frozenset[type] = frozenset({Place, Reserve, Give})
"""The record's classes of a vizier line's placement step (:meth:`Wesir._line_findings` lets
them pass; its ``isinstance`` admits no subclass of them in the records)."""
_PLACING_TYPES: tuple[type, ...] = (Place, Reserve, Give)
"""The same classes for ``isinstance`` (a tuple: ``Place | Reserve | Give`` makes a union at
every test)."""
_NO_SHAPE: dict[int, list[Finding]] = {}  # (read only: a line with nothing to report)


def _paid(over_after: object) -> object:
    """The purchase that ended the turn, as WESIR-EXACT names it (German without the article
    the TURN-OVER phrase needs)."""
    if isinstance(over_after, Text) and over_after.key == "ACTION/paying":
        return Text("WESIR-EXACT.paid/paying", **over_after.params)
    return over_after
