"""Die Diebe (the thieves): out of turn, take one display card of the thief's currency.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE DIEBE.

Notation (see ``diebe.yaml`` and ``docs/modules.md``):

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
from typing import Any, ClassVar

from referee.catalogue import Currency
from referee.engine.context import Context
from referee.engine.extensions import ActionKind
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Claim, Phase, Settle, seat_order
from referee.messages import Text, register_both
from referee.modules.base import (
    BundledModule,
    Scratch,
    arg_player,
    bundled,
    interrupting_player,
    module_data,
    rule,
    section,
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

H = "DIE DIEBE"
S_MATERIAL = section(H, "Spielmaterial")
S_SETUP = section(H, "Änderungen in der Spielvorbereitung")
S_USE = section(H, "Wie werden Diebe eingesetzt?")
S_NOTES = section(H, "Anmerkungen")

USE_VERB = "thief"
DEAL_VERB = "thieves"
KIND = "th"

rule(
    "THIEF-DEAL",
    "thieves dealt",
    "Diebe verteilt",
    S_SETUP,
    "{detail}: with 2 and 3 players each gets 4 thieves, with 4 players 3, with 5 and 6 "
    "players 2, dealt face down before the first turn",
    "{detail}: bei 2 und 3 Spielern erhält jeder 4 Diebe, bei 4 Spielern 3, bei 5 und 6 "
    "Spielern 2, verdeckt vor dem ersten Zug",
    reasons={
        "syntax": (
            "`thieves` names a player and the thief cards dealt (th:Gu th:Di th:De th:Du or ?)",
            "`thieves` nennt einen Spieler und die verteilten Diebe (th:Gu th:Di th:De th:Du "
            "oder ?)",
        ),
        "after-play": (
            "{name}'s thieves are dealt after play began",
            "die Diebe von {name} werden nach Spielbeginn verteilt",
        ),
        "twice": ("{name} is dealt thieves twice", "{name} bekommt zweimal Diebe"),
        "count": (
            "{name} is dealt {n_cards} thieves in a game of {n_players}",
            "{name} bekommt {n_cards} Diebe im Spiel zu {n_players}",
        ),
    },
)
rule(
    "THIEF-CARD",
    "no such thief card",
    "keine solche Diebkarte",
    S_MATERIAL,
    "{token} is no thief card: there are 12, 3 for each of the 4 currencies, written th:Gu "
    "th:Di th:De th:Du",
    "{token} ist keine Diebkarte: es gibt 12, je 3 für die 4 Währungen, geschrieben th:Gu "
    "th:Di th:De th:Du",
)
rule(
    "THIEF-SUPPLY",
    "thief supply",
    "Vorrat an Diebkarten",
    S_MATERIAL,
    'more than 3 thieves of {currency} turn up ({seen}): "12 Diebkarten, je 3 passend zu den '
    '4 Geldfarben"',
    "mehr als 3 Diebe der Währung {currency} tauchen auf ({seen}): es gibt je 3 Diebkarten "
    "pro Währung",
)
rule(
    "THIEF-NOT-HELD",
    "thief not held",
    "Dieb nicht auf der Hand",
    S_USE,
    "{player} plays the thief {token} but does not hold it (thieves held: {held})",
    "{player} spielt den Dieb {token}, hat ihn aber nicht (Diebe auf der Hand: {held})",
)
rule(
    "THIEF-NEXT-PLAYER",
    "thief: not before one's own turn",
    "Dieb: nicht vor dem eigenen Zug",
    S_USE,
    '{player} moves next and plays a thief: "Vor dem eigenen Zug darf ein Spieler keinen '
    'Dieb einsetzen" ("Der Spieler am Zug darf keinen Dieb spielen"; the vizier may be used)',
    "{player} ist als Nächster am Zug und spielt einen Dieb: vor dem eigenen Zug darf ein "
    "Spieler keinen Dieb einsetzen (den Wesirstein darf er einsetzen)",
)
rule(
    "THIEF-CURRENCY",
    "thief: its own currency",
    "Dieb: nur seine Währung",
    S_USE,
    "{player}'s thief {token} takes {card}: a thief takes \"eine Geldkarte in der abgebildeten "
    'Währung aus der Auslage" ({currency})',
    "der Dieb {token} von {player} nimmt {card}: ein Dieb nimmt eine Geldkarte in der "
    "abgebildeten Währung aus der Auslage ({currency})",
)
rule(
    "THIEF-ONE-CARD",
    "thief: one card",
    "Dieb: eine Karte",
    S_NOTES,
    '{player} takes {n_cards} cards with one thief: "Ein Spieler darf für jeden ausgespielten '
    "Dieb nur eine Geldkarte nehmen. Es ist nicht erlaubt, mehrere Geldkarten im Wert bis zu 5 "
    'zu nehmen."',
    "{player} nimmt mit einem Dieb {n_cards} Karten: für jeden ausgespielten Dieb darf ein "
    "Spieler nur eine Geldkarte nehmen, nicht mehrere im Wert bis zu 5",
)
rule(
    "THIEF-ACTION",
    "thief: a card and nothing else",
    "Dieb: eine Karte und sonst nichts",
    S_USE,
    "{player} does '{what}' on a thief line: the thief is a special action that takes one "
    'money card from the display ("als Sonderaktion seinen Dieb einsetzen, indem er eine '
    'Geldkarte ... aus der Auslage nimmt"); one thief per line, each followed by its refill',
    "{player} macht '{what}' in einer Diebeszeile: der Dieb ist eine Sonderaktion, die eine "
    "Geldkarte aus der Auslage nimmt; ein Dieb pro Zeile, danach wird aufgefüllt",
)
rule(
    "THIEF-TIMING",
    "thief: after a complete turn",
    "Dieb: nach einem beendeten Zug",
    S_USE,
    '{detail}: a thief is played "Jedesmal, wenn ein Spielzug komplett beendet ist", on a '
    "line without a turn number",
    "{detail}: ein Dieb wird eingesetzt, wenn ein Spielzug komplett beendet ist, in einer "
    "Zeile ohne Zugnummer",
    reasons={
        "inside-turn": (
            "{name} plays a thief inside a numbered turn",
            "{name} spielt einen Dieb innerhalb eines Zuges",
        ),
        "before-first-turn": (
            "no turn has been played yet",
            "es wurde noch kein Zug gespielt",
        ),
        "game-over": (
            "the game has ended ({why})",
            "das Spiel ist zu Ende ({why})",
        ),
    },
)
rule(
    "THIEF-PRIORITY",
    "thief: precedence",
    "Dieb: Vorrang",
    S_NOTES,
    "{player} plays a thief, but {other} wanted to interrupt at the same moment and comes "
    'first in the order {order}: "hat derjenige Vorrang, der in der Spielreihenfolge am '
    'Weitesten vorne ist" (against the vizier too: "entscheidet alleine die Spielreihenfolge")',
    "{player} spielt einen Dieb, aber {other} wollte im selben Moment unterbrechen und kommt "
    "in der Reihenfolge {order} zuerst (auch gegenüber dem Wesir entscheidet allein die "
    "Spielreihenfolge)",
)

CURRENCIES = {c.code: c for c in Currency}


def deal_size(players: int) -> int:
    table = module_data("diebe")["components"]["deal"]
    return int(table.get(players, table.get(str(players), 0)))


def per_currency() -> int:
    return int(module_data("diebe")["components"]["thief_cards"]["per_currency"])


@dataclass
class ThiefScratch(Scratch):
    dealt_known: dict[str, bool] = field(default_factory=dict)  # a `* thieves` line was given
    hand: dict[str, Counter[str]] = field(default_factory=dict)  # known thieves by currency
    hand_unknown: dict[str, int] = field(default_factory=dict)
    played: list[tuple[int, str, str, str]] = field(default_factory=list)  # turn, who, cur, card
    seen: Counter[str] = field(default_factory=Counter)  # thieves known to exist, by currency


@bundled
class Diebe(BundledModule):
    """Twelve thief cards dealt face down; each takes one display card of its currency out of
    turn, then leaves the game."""

    name = "diebe"
    aliases = ("thieves",)
    title_en = "The Thieves"
    title_de = "Die Diebe"
    section = section(H)
    page = 17  # printed page of rulebook-bigbox-de-2019.txt: the listing order
    summary = (
        "12 thief cards (3 per currency) dealt face down (4/4/3/2/2 for 2-6 players); after "
        "any complete turn a player other than the next one plays a thief to take one display "
        "card of its currency, whatever its value"
    )
    summary_de = (
        "12 Diebkarten (je 3 pro Währung), verdeckt verteilt (4/4/3/2/2 bei 2-6 Spielern); nach "
        "jedem beendeten Zug nimmt ein Spieler, der nicht als Nächster am Zug ist, mit einem Dieb "
        "eine Geldkarte seiner Währung aus der Auslage, egal welchen Werts"
    )
    verbs = (USE_VERB,)
    chance_verbs = (DEAL_VERB,)
    component_kinds = (KIND,)
    verb_kinds: ClassVar[dict[str, str]] = {USE_VERB: "interrupt"}
    interrupt_not_next = True
    scratch_type = ThiefScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        n = deal_size(len(state.players))
        for p in state.players:
            scratch.dealt_known[p.name] = False
            scratch.hand[p.name] = Counter()
            scratch.hand_unknown[p.name] = n

    # ------------------------------------------------------------------ views

    view_terms_de: ClassVar[dict[str, str]] = {
        "thieves": "Diebe",
    }
    """German for the words of :meth:`view` (``show --lang de``)."""

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's thieves in hand (known by currency, or counted as ``?``) and the
        thieves played."""
        data = self.data(state)
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            known = " ".join(f"{KIND}:{c}" for c in sorted(data.hand[p.name].elements()))
            unknown = " ".join("?" * data.hand_unknown.get(p.name, 0))
            players[p.name] = {
                "thieves": " ".join(x for x in (known, unknown) if x) or "-",
                "played": " ".join(f"{KIND}:{c}" for _, who, c, _ in data.played if who == p.name)
                or "-",
            }
        return {
            "labels": {"en": self.title_en, "de": self.title_de},
            "players": players,
            "table": {
                "played": "; ".join(
                    f"after turn {n}: {who} {KIND}:{c} {card}" for n, who, c, card in data.played
                )
                or "-"
            },
        }

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* thieves Anna th:Gu th:De ? ?``: the cards dealt to one player."""
        data = self.data(state)
        pos = event.pos
        if not event.args:
            state.flag("THIEF-DEAL", pos, reason="syntax")
            return []
        who = arg_player(state, event.args[0])
        if who.player is None:
            state.flag("UNKNOWN-PLAYER", who.pos or pos, who.name, players=", ".join(state.names))
            return []
        p = who.player
        if state.phase != Phase.SETUP:
            state.flag("THIEF-DEAL", pos, p.name, reason="after-play", name=p.name)
        if data.dealt_known[p.name]:
            state.flag("THIEF-DEAL", pos, p.name, reason="twice", name=p.name)
            return []
        cards = event.args[1:]
        want = deal_size(len(state.players))
        if len(cards) != want:
            state.flag(
                "THIEF-DEAL",
                pos,
                p.name,
                reason="count",
                name=p.name,
                n_cards=len(cards),
                n_players=len(state.players),
            )
        data.dealt_known[p.name] = True
        data.hand_unknown[p.name] = 0
        for arg in cards:
            if arg.value == "?":
                data.hand_unknown[p.name] += 1
                continue
            cur = self._currency(state, arg.value, arg.pos or pos, p.name)
            if cur is None:
                continue
            data.hand[p.name][cur] += 1
            self._seen(state, cur, arg.pos or pos, p.name)
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``thief`` inside a numbered turn: a thief is played between turns only."""
        state.flag("THIEF-TIMING", action.pos, player.name, reason="inside-turn", name=player.name)
        return []

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() != USE_VERB:
            return None
        player = interrupting_player(state, turn)
        if player is None:
            return []
        self._use(state, player, turn)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``thieves th:Gu ?`` in a player's section of a position: the thieves held."""
        if player is None or line.verb.lower() != DEAL_VERB:
            return False
        data = self.data(state)
        data.dealt_known[player.name] = True
        data.hand[player.name] = Counter()
        data.hand_unknown[player.name] = 0
        for arg in line.args:
            if arg.value == "?":
                data.hand_unknown[player.name] += 1
                continue
            cur = self._currency(state, arg.value, arg.pos or line.pos, player.name)
            if cur is not None:
                data.hand[player.name][cur] += 1
                self._seen(state, cur, arg.pos or line.pos, player.name)
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

    def _use(self, state: GameState, player: PlayerState, turn: Turn) -> None:
        ctx = Context(state)
        pos = turn.pos
        use = turn.actions[0]
        assert isinstance(use, ModuleAction)
        no_turn_yet = state.phase == Phase.SETUP  # no turn yet (a position block ends the setup)
        # "Jedesmal, wenn ein Spielzug komplett beendet ist": its refill, scoring, Dirk done
        ctx.settle_before(pos, Settle.TURN)
        if state.game_over or state.distributed or state.phase == Phase.OVER:
            why = state.end_reason or Text("TURN-AFTER-END.why/scoring-3")
            state.flag("THIEF-TIMING", pos, player.name, reason="game-over", why=why)
            return
        if no_turn_yet:
            state.flag("THIEF-TIMING", pos, player.name, reason="before-first-turn")
        arbiter = state.ext.arbiter
        if not arbiter.may_interrupt(state, player, self.name):
            state.flag("THIEF-NEXT-PLAYER", use.pos, player.name)
        cur = None
        token = "?"
        if use.args:
            first = use.args[0]
            token = _token_text(first.value)
            cur = self._currency(state, first.value, first.pos or use.pos, player.name)
        else:
            state.flag("THIEF-CARD", use.pos, player.name, token="(none)")
        want = next(
            (
                a.cards[0].card
                for a in turn.actions[1:]
                if isinstance(a, TakeMoney) and a.cards and isinstance(a.cards[0], CardRef)
            ),
            None,
        )
        self._check_priority(ctx, player, use, want)
        if cur is not None:
            self._play_card(state, player, cur, use.args[0].pos or use.pos)
        saved = ctx.begin_interrupt(player, self.name, pos)
        taken = "?"
        takes = 0
        for a in turn.actions[1:]:
            apos = getattr(a, "pos", pos) or pos
            if isinstance(a, TakeMoney) and takes == 0:
                takes += 1
                taken = self._take(ctx, player, a, cur, token)
                continue
            if isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE:
                ctx.run_action(a)  # no action at all (e.g. a bonus card revealed)
                continue
            what = formatter.action(a)  # the action as written, never a class name
            state.flag("THIEF-ACTION", apos, player.name, what=what)
        if takes == 0:
            state.flag("THIEF-ONE-CARD", use.pos, player.name, n_cards=0)
        self.data(state).played.append((state.turn_no, player.name, cur or "?", taken))
        # "Nach jedem Dieb werden die ausliegenden Geldkarten wieder auf 4 ergänzt": a refill
        # follows; play resumes with the player who was next
        ctx.end_interrupt(saved)

    def _take(
        self, ctx: Context, player: PlayerState, a: TakeMoney, cur: str | None, token: str
    ) -> str:
        state = ctx.state
        cards = list(a.cards)
        if len(cards) != 1:
            state.flag("THIEF-ONE-CARD", a.pos, player.name, n_cards=len(cards))
        if not cards:
            return "?"
        ref = cards[0]
        rpos = getattr(ref, "pos", a.pos) or a.pos
        if isinstance(ref, CardRef) and ref.card is not None:
            shown = ref.card.code
            if cur is not None and ref.card.currency.code != cur:
                state.flag(
                    "THIEF-CURRENCY", rpos, player.name, token=token, card=shown, currency=cur
                )
        elif isinstance(ref, CardRef):
            shown = "?"
            ctx.unverifiable(rpos, "UNVERIFIED-THIEF-CURRENCY", player.name, token=token)
        else:  # a module card (an exchange card ...) is no "Geldkarte in der ... Währung"
            shown = _token_text(ref)
            state.flag(
                "THIEF-CURRENCY", rpos, player.name, token=token, card=shown, currency=cur or "?"
            )
        ctx.run_action(TakeMoney((ref,), a.pos, a.notes))  # one card, whatever its value
        return shown

    def _play_card(self, state: GameState, player: PlayerState, cur: str, pos: Pos) -> None:
        """The thief leaves the hand ("Der gespielte Dieb kommt aus dem Spiel")."""
        data = self.data(state)
        hand = data.hand[player.name]
        if hand[cur] > 0:
            hand[cur] -= 1
            data.hand[player.name] = +hand
        elif data.hand_unknown[player.name] > 0:
            data.hand_unknown[player.name] -= 1
            self._seen(state, cur, pos, player.name)
        else:
            state.flag(
                "THIEF-NOT-HELD",
                pos,
                player.name,
                token=f"{KIND}:{cur}",
                held=_held_text(hand, 0) or Text("THIEF-NOT-HELD.held/none"),
            )

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
            for code in CURRENCIES:
                if value.name.lower() == code.lower():
                    return code
        state.flag("THIEF-CARD", pos, who, token=_token_text(value))
        return None

    def _seen(self, state: GameState, cur: str, pos: Pos, who: str | None) -> None:
        data = self.data(state)
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


register_both(
    en={
        "THIEF-NOT-HELD.held/none": "none",
        "UNVERIFIED-THIEF-CURRENCY": "the card taken with the thief {token} is not written: "
        "whether it is of the thief's currency is not checked",
    },
    de={
        "THIEF-NOT-HELD.held/none": "keine",
        "UNVERIFIED-THIEF-CURRENCY": "die mit dem Dieb {token} genommene Karte ist nicht "
        "angegeben: ob sie die Währung des Diebes hat, ist ungeprüft",
    },
)
