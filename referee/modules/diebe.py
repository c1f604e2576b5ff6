"""Die Diebe (the thieves): out of turn, take one display card of the thief's currency.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE DIEBE. Names, summary and rule texts:
``diebe.yaml``.

Notation (see ``diebe.yaml`` and ``docs/modules/diebe.md``):

* ``* thieves Anna th:Gu th:De ? ?`` -- setup, optional: the thief cards dealt to a player
  (face down, so ``?`` where the recorder did not see them). Without the line a player holds
  the table's number of unknown thieves.
* ``Anna: thief th:De, take De5`` -- an out-of-turn line (no turn number) after a turn has
  completely ended: the thief is revealed and leaves the game, the card goes to the hand. The
  display refill follows as a chance line (``* display Gu3``); several thieves are several
  lines, each followed by its refill.
* ``Anna: thief th:De Cem, take De5`` -- Cem also wanted to interrupt at that moment (with a
  thief or with any other interruption of an enabled module): the platform's arbiter checks
  that Anna comes first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import Currency
from referee.engine.context import Context
from referee.engine.extensions import ActionKind
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.fmt import NO_CARDS
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Claim, Phase, Settle, seat_order
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    HiddenHands,
    Scratch,
    bundled,
    interrupting_player,
    module_data,
    named_player,
)
from referee.notation import formatter
from referee.record.model import (
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    TakeMoney,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

USE_VERB = "thief"
DEAL_VERB = "thieves"
KIND = "th"

CURRENCIES = {c.code: c for c in Currency}
# a thief card's currency code by its lower-case name, the first code of that spelling
_CODE_OF: dict[str, str] = {}
for _code in CURRENCIES:
    _CODE_OF.setdefault(_code.lower(), _code)


def deal_size(players: int) -> int:
    table = module_data("diebe")["components"]["deal"]
    return int(table.get(players, table.get(str(players), 0)))


def per_currency() -> int:
    return int(module_data("diebe")["components"]["thief_cards"]["per_currency"])


@dataclass
class ThiefScratch(HiddenHands, Scratch):
    """The thieves held face down (:class:`HiddenHands`: known by currency, or counted), the
    thieves played, and the thieves known to exist by currency."""

    played: list[tuple[int, str, str, str]] = field(default_factory=list)  # turn, who, cur, card
    seen: Counter[str] = field(default_factory=Counter)


@bundled
class Diebe(BundledModule):
    """Twelve thief cards dealt face down; each takes one display card of its currency out of
    turn, then leaves the game."""

    verb_specs = (VerbSpec(USE_VERB, kind=ActionKind.INTERRUPT),)
    chance_verbs = (DEAL_VERB,)
    component_kinds = (KIND,)
    interrupt_not_next = True
    scratch_type = ThiefScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.deal_unseen(state.names, deal_size(len(state.players)))

    # ------------------------------------------------------------------ views

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's thieves in hand (known by currency, or counted as ``?``) and the
        thieves played."""
        data = self.data(state)
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            known, unknown = data.hidden_parts(p.name, lambda c: f"{KIND}:{c}")
            mine = [f"{KIND}:{c}" for _, who, c, _ in data.played if who == p.name]
            players[p.name] = {
                "thieves": " ".join([*known, *"?" * unknown]) or "-",
                "played": " ".join(mine) or "-",
            }
        played = [f"after turn {n}: {who} {KIND}:{c} {card}" for n, who, c, card in data.played]
        return self.shown({"played": "; ".join(played) or "-"}, players)

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* thieves Anna th:Gu th:De ? ?``: the cards dealt to one player."""
        data = self.data(state)
        pos = event.pos
        if not event.args:
            state.flag("THIEF-DEAL", pos, reason="syntax")
            return []
        p = named_player(state, event.args[0], pos)
        if p is None:
            return []
        if state.phase != Phase.SETUP:
            state.flag("THIEF-DEAL", pos, p.name, reason="after-play", name=p.name)
        if data.dealt_known[p.name]:
            state.flag("THIEF-DEAL", pos, p.name, reason="twice", name=p.name)
            return []
        cards = event.args[1:]
        if len(cards) != deal_size(len(state.players)):
            n_players = len(state.players)
            state.flag(
                "THIEF-DEAL",
                pos,
                p.name,
                reason="count",
                name=p.name,
                n_cards=len(cards),
                n_players=n_players,
            )
        self._hold(state, p, cards, pos)
        return []

    def _hold(self, state: GameState, p: PlayerState, cards: Any, pos: Pos) -> None:
        """The thieves ``p`` holds, as a deal line or a position states them."""
        data = self.data(state)
        data.dealt_known[p.name] = True
        data.hand[p.name] = Counter()
        data.hand_unknown[p.name] = 0
        for arg in cards:
            if arg.value == "?":
                data.hand_unknown[p.name] += 1
                continue
            cur = self._currency(state, arg.value, arg.pos or pos, p.name)
            if cur is not None:
                data.hand[p.name][cur] += 1
                self._seen(state, cur, arg.pos or pos, p.name)

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``thief`` inside a numbered turn: a thief is played between turns only."""
        name = player.name
        return [problem("THIEF-TIMING", action.pos, name, reason="inside-turn", name=name)]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        return []  # a thief inside a turn changes nothing (check_verb reports it)

    out_of_turn_verbs = frozenset({USE_VERB})  # (its out_of_turn reads a `thief` line only)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() != USE_VERB:
            return None
        player = interrupting_player(state, turn)
        if player is not None:
            self._use(Context(state, turn.pos), player, turn)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``thieves th:Gu ?`` in a player's section of a position: the thieves held."""
        if player is None or line.verb.lower() != DEAL_VERB:
            return False
        self._hold(state, player, line.args, line.pos)
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``thieves th:Gu ? ?`` in a player's section: the thieves still held, known ones by
        currency, the others as ``?`` (``thieves`` alone: none left). A player still holding
        the unknown cards dealt needs no line. The thieves played are history a position does
        not state: each "wird ... aufgedeckt und kommt aus dem Spiel", so nothing later depends
        on them."""
        if player is None:
            return []
        data = self.data(state)
        hand, unknown = self.held(state, player)
        if (
            not data.dealt_known.get(player.name, False)
            and not +hand
            and unknown == deal_size(len(state.players))
        ):
            return []
        args = [GenericArg(ComponentRef(KIND, c)) for c in sorted(hand.elements())]
        args += [GenericArg("?") for _ in range(unknown)]
        return [ModuleAction(DEAL_VERB, tuple(args))]

    # ---------------------------------------------------------------- playing

    def _use(self, ctx: Context, player: PlayerState, turn: Turn) -> None:
        """A thief line: the checks of the line (pure, reported where each belongs), then the
        thief leaves the hand and the card is taken as a base take."""
        state = ctx.state
        pos = turn.pos
        use = turn.actions[0]
        assert isinstance(use, ModuleAction)
        no_turn_yet = state.phase == Phase.SETUP  # no turn yet (a position block ends the setup)
        # "Jedesmal, wenn ein Spielzug komplett beendet ist": its refill, scoring, Dirk done
        ctx.settle_before(pos, Settle.TURN)
        if state.game_over or state.distributed or state.phase == Phase.OVER:
            why = state.end_reason or Text("TURN-AFTER-END.why/scoring-3")
            ctx.flag("THIEF-TIMING", pos, player.name, reason="game-over", why=why)
            return
        if no_turn_yet:
            ctx.flag("THIEF-TIMING", pos, player.name, reason="before-first-turn")
        if not state.ext.arbiter.may_interrupt(state, player, self.name):
            ctx.flag("THIEF-NEXT-PLAYER", use.pos, player.name)
        cur = None
        token = "?"
        if use.args:
            first = use.args[0]
            token = _token_text(first.value)
            cur = self._currency(state, first.value, first.pos or use.pos, player.name)
        else:
            ctx.flag("THIEF-CARD", use.pos, player.name, token=NO_CARDS)
        takes = [a for a in turn.actions[1:] if isinstance(a, TakeMoney)]
        want = next(
            (a.cards[0].card for a in takes if a.cards and isinstance(a.cards[0], CardRef)), None
        )
        self._check_priority(ctx, player, use, want)
        if cur is not None:
            self._play_card(state, player, cur, use.args[0].pos or use.pos)
        acts = turn.actions
        taken = "?"
        if len(acts) == 2 and type(acts[1]) is TakeMoney:
            # the common line, one take: what the loop below does for it (its one finding
            # list, _line_findings' for it)
            one = acts[1]
            assert isinstance(one, TakeMoney)
            found = self._take_findings(state, player, one, cur, token) if state.checking else []
            saved = ctx.begin_interrupt(player, self.name, pos)
            ctx.report(found)
            taken = self._take_one(ctx, state, one, taken)
        else:
            shape = self._line_findings(state, player, turn, cur, token) if state.checking else {}
            saved = ctx.begin_interrupt(player, self.name, pos)
            for i, a in enumerate(turn.actions[1:], 1):
                ctx.report(shape.get(i, ()))
                if isinstance(a, TakeMoney) and a is takes[0]:
                    taken = self._take_one(ctx, state, a, taken)
                elif isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE:
                    ctx.run_action(a)  # no action at all (e.g. a bonus card revealed)
            ctx.report(shape.get(0, ()))
        (state.modules.get(self.name) or self.data(state)).played.append(
            (state.turn_no, player.name, cur or "?", taken)
        )
        # "Nach jedem Dieb werden die ausliegenden Geldkarten wieder auf 4 ergänzt": a refill
        # follows; play resumes with the player who was next
        ctx.end_interrupt(saved)

    def _line_findings(
        self, state: GameState, player: PlayerState, turn: Turn, cur: str | None, token: str
    ) -> dict[int, list[Finding]]:
        """The thief line's own faults by the index of the action concerned (0: the line):
        one card per thief ("nur eine Geldkarte"), of the thief's currency ("eine Geldkarte in
        der abgebildeten Währung"; a module's money card of a currency counts as one: a
        master-builder card is "eine normale Geldkarte"), nothing else on the line."""
        out: dict[int, list[Finding]] = {}
        name = player.name
        took = False
        for i, a in enumerate(turn.actions[1:], 1):
            apos = getattr(a, "pos", None) or turn.pos
            if isinstance(a, TakeMoney) and not took:
                took = True
                out[i] = self._take_findings(state, player, a, cur, token)
            elif not (
                isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE
            ):
                out[i] = [problem("THIEF-ACTION", apos, name, what=formatter.action(a))]
        if not took:
            out[0] = [problem("THIEF-ONE-CARD", turn.actions[0].pos, name, n_cards=0)]
        return out

    def _take_findings(
        self, state: GameState, player: PlayerState, a: TakeMoney, cur: str | None, token: str
    ) -> list[Finding]:
        out: list[Finding] = []
        if len(a.cards) != 1:
            out.append(problem("THIEF-ONE-CARD", a.pos, player.name, n_cards=len(a.cards)))
        if not a.cards:
            return out
        ref = a.cards[0]
        rpos = getattr(ref, "pos", a.pos) or a.pos
        if isinstance(ref, CardRef):
            if ref.card is None:
                note = unverifiable(rpos, "UNVERIFIED-THIEF-CURRENCY", player.name, token=token)
                return [*out, note]
            of: Currency | None = ref.card.currency
        else:
            of = self._module_money(state, ref)
        if of is None or (cur is not None and of.code != cur):
            card = self._shown(state, ref)
            out.append(
                problem(
                    "THIEF-CURRENCY",
                    rpos,
                    player.name,
                    token=token,
                    card=card,
                    currency=cur or "?",
                )
            )
        return out

    @staticmethod
    def _module_money(state: GameState, ref: object) -> Currency | None:
        """The currency of a module's money card (``Module.money_currency``); an exchange
        card or another component of no currency: None."""
        if not isinstance(ref, ComponentRef):
            return None
        for m in state.ext.modules:
            found = m.money_currency(state, ref)
            if found is not None:
                return found
        return None

    def _take_one(self, ctx: Context, state: GameState, a: TakeMoney, taken: str) -> str:
        """The thief's take ``a``: its first card, whatever its value, taken; that card as
        shown (``taken`` when the take names none)."""
        if not a.cards:
            return taken
        shown = self._shown(state, a.cards[0])
        ctx.run_action(TakeMoney((a.cards[0],), a.pos, a.notes))
        return shown

    @staticmethod
    def _shown(state: GameState, ref: object) -> str:
        if isinstance(ref, CardRef):
            return "?" if ref.card is None else ref.card.code
        return _token_text(ref)

    def _play_card(self, state: GameState, player: PlayerState, cur: str, pos: Pos) -> None:
        """The thief leaves the hand ("Der gespielte Dieb kommt aus dem Spiel")."""
        data = state.modules.get(self.name) or self.data(state)
        if data.take_known(player.name, cur):
            return
        if data.hand_unknown[player.name] > 0:
            data.hand_unknown[player.name] -= 1
            self._seen(state, cur, pos, player.name)
            return
        held = _held_text(data.hand[player.name], 0) or Text("THIEF-NOT-HELD.held/none")
        state.flag("THIEF-NOT-HELD", pos, player.name, token=f"{KIND}:{cur}", held=held)

    def _check_priority(
        self, ctx: Context, player: PlayerState, use: ModuleAction, want: object = None
    ) -> None:
        """Players named after the thief card also wanted to interrupt now: with a thief or
        with any other interruption an enabled module allows them. "Will ein Spieler den Wesir,
        ein anderer den Dieb spielen, entscheidet alleine die Spielreihenfolge." The one
        arbiter counts a contender only with a claim he could really make: a thief of the
        currency of the card taken ("eine bestimmte Geldkarte"), not as the next player ("Der
        Spieler am Zug darf keinen Dieb spielen"), or an awake vizier with a tile he can pay
        exactly."""
        acting = Claim(player, self.name, use.pos)
        ctx.state.ext.arbiter.contest(
            ctx, acting, use.args[1:], "THIEF-PRIORITY", want=want, modules=()
        )

    def could_claim(self, ctx: Context, player: PlayerState, want: object) -> bool:
        """A thief may be played by a player holding one of the currency of the card wanted
        (an unknown thief card: one of that currency may still be unseen)."""
        hand, unknown = self.held(ctx.state, player)
        cur = getattr(getattr(want, "currency", None), "code", None)
        if cur is None:
            return unknown > 0 or hand.total() > 0
        return hand[cur] > 0 or (unknown > 0 and self.data(ctx.state).seen[cur] < per_currency())

    # ---------------------------------------------------------------- helpers

    def _currency(self, state: GameState, value: object, pos: Pos, who: str | None) -> str | None:
        if isinstance(value, ComponentRef) and value.kind.lower() == KIND:
            code = _CODE_OF.get(value.name.lower())  # the loop over CURRENCIES, one look-up
            if code is not None:
                return code
        state.flag("THIEF-CARD", pos, who, token=_token_text(value))
        return None

    def _seen(self, state: GameState, cur: str, pos: Pos, who: str | None) -> None:
        data = state.modules.get(self.name) or self.data(state)
        data.seen[cur] += 1
        if data.seen[cur] > per_currency():
            state.flag("THIEF-SUPPLY", pos, who, currency=cur, seen=data.seen[cur])

    def held(self, state: GameState, player: PlayerState) -> tuple[Counter[str], int]:
        data = self.data(state)
        return data.hand.get(player.name, Counter()), data.hand_unknown.get(player.name, 0)

    # ------------------------------------------------------------ legal moves

    def legal_interrupts(self, ctx: Context) -> list[Turn]:
        """Every thief line now: a player other than the next one, a thief of a currency held
        (or an unknown one), one display card of that currency. Not before the first turn,
        not while a scoring is due, not once the game has ended."""
        state = ctx.state
        if state.turn_no == 0 or state.scoring_pending or state.game_over or state.distributed:
            return []
        if state.phase == Phase.OVER:
            return []
        arbiter = state.ext.arbiter
        out: list[Turn] = []
        for p in seat_order(state):
            if not arbiter.may_interrupt(state, p, self.name):
                continue
            hand, unknown = self.held(state, p)
            curs = set(CURRENCIES) if unknown else {c for c in hand if hand[c] > 0}
            if unknown:
                data = self.data(state)
                curs = {c for c in curs if hand[c] > 0 or data.seen[c] < per_currency()}
            seen: set[object] = set()
            for card in state.display:
                if card is None or card in seen or card.currency.code not in curs:
                    continue
                seen.add(card)
                use = ModuleAction(USE_VERB, (GenericArg(ComponentRef(KIND, card.currency.code)),))
                out.append(Turn(None, PlayerRef(p.name), (use, TakeMoney((CardRef(card),)))))
        return out

    # ------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """The twelve thieves shuffled and dealt (4/4/3/2/2); the simulator writes them."""
        cards = [c for c in CURRENCIES for _ in range(per_currency())]
        sim.rng.shuffle(cards)
        k = deal_size(len(sim.state.players))
        out = []
        for p in sim.state.players:
            dealt = sorted(cards.pop() for _ in range(k))
            args = (GenericArg(p.name), *(GenericArg(ComponentRef(KIND, c)) for c in dealt))
            out.append(ModuleChance(DEAL_VERB, args))
        return out


def _token_text(value: object) -> str:
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    if isinstance(value, CardRef):
        return "?" if value.card is None else value.card.code
    if isinstance(value, PlayerRef):
        return value.name
    return str(value)


def _held_text(hand: Counter[str], unknown: int) -> str:
    known = " ".join(f"{KIND}:{c}" for c in sorted(hand.elements()))
    return " ".join(x for x in (known, " ".join("?" * unknown)) if x)
