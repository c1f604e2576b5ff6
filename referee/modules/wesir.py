"""Die Gunst des Wesirs (the vizier): buy one market tile out of turn, exactly paid.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE GUNST DES WESIRS.

Notation (see ``wesir.yaml`` and ``docs/modules.md``):

* ``Ben: vizier, buy Di A6sw pay Di6, place A6sw@1,0`` -- an out-of-turn line (no turn number)
  after a turn has completely ended (its refill and any scoring written). The market refill
  follows as a chance line; the next numbered turn is the player who was next anyway.
* ``Ben: vizier Cem, buy ...`` -- Cem also wanted to use his vizier at that moment (checked: Ben
  comes first in the order starting with the player who would move next).
* ``7. Ben: wake`` -- the action "Den Wesirstein wieder aufwecken".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.engine.context import Context
from referee.engine.extensions import ActionKind
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Claim, Phase, Settle
from referee.messages import Text, register_both
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    interrupting_player,
    module_data,
    rule,
    section,
)
from referee.notation import formatter
from referee.record.model import (
    Buy,
    GenericArg,
    Give,
    ModuleAction,
    Place,
    Pos,
    Reserve,
    Turn,
)

H = "DIE GUNST DES WESIRS"
S_USE = section(H, "Die Gunst des Wesirs in Anspruch nehmen")
S_WAKE = section(H, "Neue Aktion: Den Wesirstein wieder aufwecken")
S_NOTES = section(H, "Anmerkungen")

rule(
    "WESIR-ASLEEP",
    "vizier asleep",
    "Wesir schläft",
    S_USE,
    "{player}'s vizier is asleep: only an awake vizier may be used (\"Sein Wesir muss wach "
    'sein"); wake it first with the action `wake`',
    "der Wesir von {player} schläft: nur ein wacher Wesir darf eingesetzt werden; erst mit der "
    "Aktion `wake` aufwecken",
)
rule(
    "WESIR-AWAKE",
    "vizier already awake",
    "Wesir ist schon wach",
    S_WAKE,
    "{player} wakes a vizier that is already awake",
    "{player} weckt einen Wesir, der schon wach ist",
)
rule(
    "WESIR-EXACT",
    "vizier: exact payment",
    "Wesir: passend bezahlen",
    S_USE,
    "{player}'s purchase with the vizier is not exact ({paid}): the tile must be paid exactly "
    '("Er muss das Gebäudeplättchen genau passend bezahlen")',
    "der Kauf von {player} mit dem Wesir ist nicht passend ({paid}): das Plättchen muss "
    "genau passend bezahlt werden",
)
rule(
    "WESIR-ACTION",
    "vizier: one purchase only",
    "Wesir: nur ein Kauf",
    S_USE,
    "{detail}: the vizier lets a player buy one market tile and place or reserve it, nothing "
    'else ("Er hat keinen Bonuszug")',
    "{detail}: der Wesir erlaubt nur den Kauf eines Gebäudeplättchens aus dem Bauhof und "
    "dessen Platzierung oder Reserve",
)
rule(
    "WESIR-NO-SQUARE",
    "vizier: no square",
    "Wesir: kein Platz",
    S_NOTES,
    '{player} takes a square with the vizier: "Der Einsatz des Wesirsteins erlaubt einem '
    'Spieler nicht, sich einen Platz zu nehmen"',
    "{player} nimmt mit dem Wesir einen Platz: der Einsatz des Wesirsteins erlaubt keinen Platz",
)
rule(
    "WESIR-TIMING",
    "vizier: between turns",
    "Wesir: zwischen den Zügen",
    S_USE,
    '{detail}: the vizier is used after a turn has completely ended ("Jedesmal, wenn ein '
    'Spielzug eines beliebigen Spielers komplett beendet ist"), on a line without a turn '
    "number",
    "{detail}: der Wesir wird eingesetzt, wenn ein Spielzug komplett beendet ist, in einer "
    "Zeile ohne Zugnummer",
)
rule(
    "WESIR-GAME-END",
    "vizier: not at the game end",
    "Wesir: nicht bei Spielende",
    S_NOTES,
    '{player} uses the vizier after the game has ended ({why}): "Wenn bei Spielende die '
    "letzten Gebäudeplättchen verteilt werden, kann der Wesirstein nicht mehr eingesetzt "
    'werden"',
    "{player} setzt den Wesir nach Spielende ein ({why}): bei der Verteilung der letzten "
    "Gebäudeplättchen kann der Wesirstein nicht mehr eingesetzt werden",
)
rule(
    "WESIR-PRIORITY",
    "vizier: precedence",
    "Wesir: Vorrang",
    S_NOTES,
    "{player} and {other} both wanted to use their vizier; {other} comes first in the order "
    "{order} (the player who would move next is first, the one who just moved last)",
    "{player} und {other} wollten beide ihren Wesir einsetzen; {other} kommt in der Reihenfolge "
    "{order} zuerst (wer eigentlich am Zug wäre, ist der Erste, wer gerade gezogen hat, der "
    "Letzte)",
)

USE_VERB = "vizier"
WAKE_VERB = "wake"


@dataclass
class VizierScratch(Scratch):
    awake: dict[str, bool] = field(default_factory=dict)
    uses: list[tuple[int, str]] = field(default_factory=list)  # (after turn number, player)


@bundled
class Wesir(BundledModule):
    """The vizier: one token per player; out-of-turn purchase; waking is an action."""

    name = "wesir"
    aliases = ("vizier",)
    title_en = "The Vizier's Favour"
    title_de = "Die Gunst des Wesirs"
    section = section(H)
    page = 8  # of rulebook-bigbox-de-2019.txt: the listing order
    summary = (
        "after any turn, a player with an awake vizier buys one market tile, paid exactly, "
        "without an extra action; waking the vizier is an action"
    )
    verbs = (USE_VERB, WAKE_VERB, "wesir", "wecken")
    verb_kinds: ClassVar[dict[str, str]] = {USE_VERB: "interrupt", "wesir": "interrupt"}
    scratch_type = VizierScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        tokens = module_data("wesir")["components"]["vizier_tokens"]
        awake = tokens["start"] == "awake"
        scratch.awake = {p.name: awake for p in state.players}

    def awake(self, state: GameState, player: PlayerState) -> bool:
        return bool(self.data(state).awake.get(player.name, True))

    # ------------------------------------------------------------------ hooks

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        verb = action.verb.lower()
        if verb in (WAKE_VERB, "wecken"):
            self._wake(state, player, action)
        else:  # `vizier` inside a numbered turn
            state.flag(
                "WESIR-TIMING",
                action.pos,
                player.name,
                reason="inside-turn",
                name=player.name,
            )
        return []

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() not in (USE_VERB, "wesir"):
            return None
        player = interrupting_player(state, turn)
        if player is None:
            return []
        self._use(state, player, turn)
        return []

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
        if player is None:
            return []
        start = module_data("wesir")["components"]["vizier_tokens"]["start"] == "awake"
        awake = self.awake(state, player)
        if awake == start:
            return []
        return [ModuleAction(USE_VERB, (GenericArg("awake" if awake else "asleep"),))]

    # ---------------------------------------------------------------- actions

    def _wake(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        ctx = Context(state)
        ctx.main_action(action.pos, player, Text("ACTION/waking-vizier"))
        if self.awake(state, player):
            state.flag("WESIR-AWAKE", action.pos, player.name)
        self.data(state).awake[player.name] = True
        ctx.end_main_action(Text("ACTION/waking-vizier"))

    def _use(self, state: GameState, player: PlayerState, turn: Turn) -> None:
        ctx = Context(state)
        pos = turn.pos
        use = turn.actions[0]
        assert isinstance(use, ModuleAction)
        # The turn before must be completely over: its refill, a scoring it triggered, Dirk.
        ctx.settle_before(pos, Settle.TURN)
        if state.game_over or state.distributed or state.phase == Phase.OVER:
            state.flag(
                "WESIR-GAME-END",
                pos,
                player.name,
                why=state.end_reason or Text("TURN-AFTER-END.why/scoring-3"),
            )
            return
        if state.turn_no == 0:
            state.flag(
                "WESIR-TIMING",
                pos,
                player.name,
                reason="before-first-turn",
            )
        if not self.awake(state, player):
            state.flag("WESIR-ASLEEP", use.pos, player.name)
        self._check_priority(ctx, player, use)
        saved = ctx.begin_interrupt(player, self.name, pos)
        t = state.turn
        assert t is not None
        buys = 0
        for a in turn.actions[1:]:
            apos = getattr(a, "pos", pos)
            if isinstance(a, Buy):
                buys += 1
                if buys > 1:
                    state.flag(
                        "WESIR-ACTION",
                        apos,
                        player.name,
                        reason="second-tile",
                        name=player.name,
                    )
                ctx.run_action(a)
                if buys == 1 and t.over and not t.unsure:
                    state.flag(
                        "WESIR-EXACT",
                        apos,
                        player.name,
                        paid=_paid(t.over_after),
                    )
                t.over = False  # reported once; the placement still follows
            elif isinstance(a, Place | Reserve | Give):
                ctx.run_action(a)
            elif isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.ACQUIRE:
                # "erlaubt einem Spieler nicht, sich einen Platz zu nehmen": no piece is taken
                # with the vizier other than by buying a market tile
                state.flag("WESIR-NO-SQUARE", apos, player.name)
            elif isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE:
                ctx.run_action(a)
            else:
                what = formatter.action(a)  # the action as written, never a class name
                state.flag(
                    "WESIR-ACTION",
                    apos,
                    player.name,
                    reason="other-action",
                    name=player.name,
                    what=what,
                )
        if buys == 0:
            state.flag(
                "WESIR-ACTION",
                use.pos,
                player.name,
                reason="no-purchase",
                name=player.name,
            )
        ctx.close_placements(pos, player)
        data = self.data(state)
        data.awake[player.name] = False
        data.uses.append((state.turn_no, player.name))
        # "Der Bauhof wird dann wieder auf 4 Gebäude aufgefüllt": a refill follows; play
        # resumes "bei demjenigen Spieler, der eigentlich an der Reihe gewesen wäre".
        ctx.end_interrupt(saved)

    def _check_priority(self, ctx: Context, player: PlayerState, use: ModuleAction) -> None:
        """Other players named on the line also wanted their vizier now: the one arbiter says
        who comes first ("wer eigentlich am Zug wäre, ist der Erste"). A contender counts only
        when he could use his vizier: it is awake ("Sein Wesir muss wach sein"; an asleep one
        is reported) and he can pay a tile exactly ("Er muss das Gebäudeplättchen genau
        passend bezahlen (können)")."""
        state = ctx.state

        def asleep(other: PlayerState, pos: Pos) -> None:
            if not self.awake(state, other):
                state.flag("WESIR-ASLEEP", pos, other.name)

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
        from referee.engine import legal

        buys: list[Buy] = legal.buy_actions(ctx, p, exact_only=True)
        for m in ctx.state.ext.modules:
            buys += [a for a in m.legal_actions(ctx, p) if isinstance(a, Buy)]
        return [b for b in buys if legal.is_exact(ctx, p, b)]

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
        from referee.engine.actions.purchase import plan_purchase
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
            for buy in self._exact_buys(ctx, p):
                # the piece bought: a market tile, a module tile, or a piece beside the market
                plan = plan_purchase(state, p, buy)
                tile = plan.tile
                if tile is None or (plan.offer is not None and not plan.offer.placed):
                    continue  # the vizier buys a building to place or reserve (no card)
                # free actions owed before placing (e.g. a bought plot's building, "sofort")
                owed: list[tuple[Any, ...]] = [
                    (a,) for a in legal.owed_after_buy(ctx, p, buy, self.name)
                ] or [()]
                for where in legal.placements_of(ctx, p, tile):
                    if isinstance(where, Give):
                        continue
                    for first in owed:
                        line = (ModuleAction(USE_VERB, ()), buy, *first, where)
                        out.append(Turn(None, PlayerRef(p.name), line))
        return out

    view_terms_de: ClassVar[dict[str, str]] = {
        "vizier": "Wesir",
        "awake": "wach",
        "asleep": "schläft",
        "uses": "Einsätze",
    }
    """German for the words of :meth:`view` (``show --lang de``)."""

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        return {
            "labels": {"en": self.title_en, "de": self.title_de},
            "players": {
                name: {"vizier": "awake" if awake else "asleep"}
                for name, awake in data.awake.items()
            },
            "table": {"uses": [f"after turn {n}: {who}" for n, who in data.uses]},
        }


# the texts of this module's reasons and open points, in both languages
register_both(
    en={
        "WESIR-TIMING/inside-turn": "{name} uses the vizier inside a turn",
        "WESIR-TIMING/before-first-turn": "no turn has been played yet",
        "WESIR-ACTION/no-purchase": "{name} uses the vizier without buying a tile",
        "WESIR-ACTION/second-tile": "{name} buys a second tile",
        "WESIR-ACTION/other-action": "{name} does '{what}' with the vizier",
    },
    de={
        "WESIR-TIMING/inside-turn": "{name} setzt den Wesir innerhalb eines Zuges ein",
        "WESIR-TIMING/before-first-turn": "es wurde noch kein Zug gespielt",
        "WESIR-ACTION/no-purchase": "{name} setzt den Wesir ein, ohne ein Plättchen zu kaufen",
        "WESIR-ACTION/second-tile": "{name} kauft ein zweites Plättchen",
        "WESIR-ACTION/other-action": "{name} macht '{what}' mit dem Wesir",
    },
)


def _paid(over_after: object) -> object:
    """The purchase that ended the turn, as WESIR-EXACT names it (German without the article
    the TURN-OVER phrase needs)."""
    if isinstance(over_after, Text) and over_after.key == "ACTION/paying":
        return Text("WESIR-EXACT.paid/paying", **over_after.params)
    return over_after


register_both(
    en={
        "ACTION/waking-vizier": "waking the vizier",
        "WESIR-EXACT.paid/paying": "paying {total} for {tile} costing {price} (not exact)",
    },
    de={
        "ACTION/waking-vizier": "dem Aufwecken des Wesirs",
        "WESIR-EXACT.paid/paying": "Zahlung von {total} für {tile} zum Preis von {price} (nicht passend)",  # noqa: E501
    },
)
