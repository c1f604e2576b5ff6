"""The auction service: one engine service that owns the verbs ``bid`` and ``pass``.

A module opens an auction with :func:`open_auction` (e.g. a character card revealed in the
display: "Der Spieler, der als Nächster am Zug ist, ist der Auktionator. Er bietet als Erster
oder passt. Reihum erhöhen die Spieler oder passen"). The auction is a stage
(:mod:`referee.engine.stages`) of kind ``auction`` in rounds: starting with the auctioneer (by
default the player who moves next), each player still in raises or passes; a player who passes
is out; it ends when only the highest bidder is left, or when everyone passed (no bid). The
lines are out-of-turn lines of the notation (N7)::

    * display Gu3 ch:Weiser        # the card is revealed: the auction starts
    Cem: bid 6 pay De6             # a bid, with the cards that would pay it
    Anna: bid 8 pay Gu8
    Ben: pass
    Cem: pass                      # Anna wins and pays Gu8 (to the discard pile)
    * display De4                  # the refill goes on (N12)

Every bid names the cards that would pay it; they are checked by the payment service
(:mod:`referee.engine.payment`) against the auction's terms (default: "in einer Währung", at
least the bid, module money allowed). A raise must beat the highest bid (``AUCTION-RAISE``).
When the auction ends, the winner pays the cards of his last bid (stage "spent": the discard
pile, module components where their modules put them), and the module that opened it hears
:meth:`Module.auction_closed` with the winner (None: no bid) and the price.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.catalogue import CURRENCIES, Currency
from referee.engine.payment import Mix, Payment, PaymentTerms, apply_payment, plan_payment
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.engine.stages import SERVICES, Stage, StageOrder, open_stage
from referee.record.model import NOWHERE, CardRef, GenericArg, ModuleAction, PlayerRef, Pos, Turn

if TYPE_CHECKING:
    from referee.engine.context import Context
    from referee.engine.state import GameState, PlayerState

AUCTION = "auction"
"""The service's name (``Stage.owner`` of every auction)."""

VERBS = ("bid", "pass")
"""The verbs the service owns; no module may declare them."""


@dataclass(frozen=True, slots=True)
class AuctionTerms:
    """How bids are paid."""

    mix: Mix = Mix.ONE  # "in einer Währung" (Mix.ANY: any combination)
    currency: Currency | None = None  # with Mix.FIELD: the one currency asked
    exact: bool = False  # the payment must be exactly the bid (else: at least the bid)
    components: bool = True  # module money may pay (diamonds: "auch für Gebote")
    min_bid: int = 1
    source: str = ""  # the rule section of the module that opens the auction


@dataclass(slots=True)
class Auction:
    """An auction under way (``Stage.data`` of its stage), then its result."""

    opener: str  # the module that opened it (hears ``auction_closed``)
    item: Any  # what is auctioned (the module's object)
    what: str  # how findings name it
    terms: AuctionTerms
    high: int = 0  # the highest bid so far
    leader: int | None = None  # who made it (seat index)
    paid: tuple[object, ...] = ()  # the cards his bid names
    bids: list[tuple[int, int]] = field(default_factory=list)  # (seat, amount) in order
    winner: int | None = None  # after the end: who won (None: no bid)
    price: int = 0  # what the winner paid
    payment: Payment | None = None  # the winner's payment

    def copy(self) -> Auction:
        return Auction(
            self.opener,
            self.item,
            self.what,
            self.terms,
            self.high,
            self.leader,
            self.paid,
            list(self.bids),
            self.winner,
            self.price,
            self.payment,
        )


def _rule(code: str, name_en: str, name_de: str, msg_en: str, msg_de: str, **reasons: Any) -> None:
    register_rule(
        Rule(
            code,
            name_en,
            name_de,
            f"{BIGBOX}: an auction a module opens (its section is named in the message)",
            msg_en,
            msg_de,
        ),
        {k.replace("_", "-"): v for k, v in reasons.items()},
    )


_rule(
    "AUCTION-RAISE",
    "raise or pass",
    "erhöhen oder passen",
    "{player} bids {amount} for {what}, but the highest bid is {high} ({leader}): each player "
    "raises or passes ({source})",
    "{player} bietet {amount} für {what}, das höchste Gebot ist aber {high} ({leader}): reihum "
    "erhöht jeder oder passt ({source})",
)
_rule(
    "AUCTION-BID",
    "bid",
    "Gebot",
    "{player}'s bid for {what}: {detail} ({source})",
    "Gebot von {player} für {what}: {detail} ({source})",
    form=("a bid is written `bid N pay <cards>`", "ein Gebot lautet `bid N pay <Karten>`"),
    no_payment=(
        "the bid names no cards that would pay it",
        "das Gebot nennt keine Karten, die es bezahlen",
    ),
    too_low=("the lowest bid is {min_bid}", "das niedrigste Gebot ist {min_bid}"),
    extra=(
        "a bid or a pass is the whole line ('{what_else}' follows)",
        "ein Gebot oder Passen ist die ganze Zeile ('{what_else}' folgt)",
    ),
)
_rule(
    "AUCTION-NONE",
    "no auction",
    "keine Versteigerung",
    "{player} writes '{verb}', but no auction is open",
    "{player} schreibt '{verb}', aber es läuft keine Versteigerung",
)


def open_auction(
    ctx: Context,
    opener: str,
    item: Any,
    what: str,
    terms: AuctionTerms | None = None,
    first: int | None = None,
    pos: Pos | None = None,
) -> Stage:
    """Open an auction of ``item`` (module ``opener`` hears the result): every player bids
    in rounds from ``first`` (default: the player who moves next, "der Auktionator")."""
    state = ctx.state
    n = len(state.players)
    start = first if first is not None else (state.next_player or 0)
    players = [(start + i) % n for i in range(n)]
    terms = terms or AuctionTerms()
    auction = Auction(opener, item, what, terms)
    stage = Stage(
        AUCTION,
        AUCTION,
        players,
        StageOrder.ROUNDS,
        VERBS,
        True,
        pos or ctx.pos or NOWHERE,
        terms.source,
        auction,
    )
    return open_stage(ctx, stage)


def open_auctions(state: GameState) -> list[Auction]:
    """The auctions under way (innermost last)."""
    return [s.data for s in state.stages if s.owner == AUCTION]


def _payment_terms(a: Auction, amount: int) -> PaymentTerms:
    t = a.terms
    return PaymentTerms(
        amount,
        f"a bid of {amount} for {a.what}",
        currency=t.currency,
        mix=t.mix,
        exact=t.exact,
        components=t.components,
        source=t.source,
    )


def _bid_args(action: ModuleAction) -> tuple[int | None, tuple[object, ...]]:
    args = [a.value for a in action.args]
    amount = args[0] if args and isinstance(args[0], int) else None
    rest = args[1:]
    if rest and isinstance(rest[0], str) and rest[0].lower() in ("pay", "zahlt"):
        rest = rest[1:]
    return amount, tuple(rest)


class AuctionService:
    """The owner of every auction stage."""

    def stage_line(self, ctx: Context, stage: Stage, player: PlayerState, line: Turn) -> None:
        a: Auction = stage.data
        act = line.actions[0]
        assert isinstance(act, ModuleAction)
        src = a.terms.source
        if len(line.actions) > 1:
            other = line.actions[1]
            what_else = other.verb if isinstance(other, ModuleAction) else type(other).__name__
            ctx.flag(
                "AUCTION-BID",
                getattr(other, "pos", line.pos) or line.pos,
                player.name,
                reason="extra",
                what=a.what,
                what_else=what_else.lower(),
                source=src,
            )
        if act.verb.lower() == "pass":
            stage.drop(player.index)
        else:
            self._bid(ctx, stage, a, player, act)
        still = stage.still_in
        if not still or (a.leader is not None and still == [a.leader]):
            stage.finish()

    def _bid(
        self, ctx: Context, stage: Stage, a: Auction, player: PlayerState, act: ModuleAction
    ) -> None:
        src = a.terms.source
        amount, paid = _bid_args(act)
        if amount is None:
            ctx.flag("AUCTION-BID", act.pos, player.name, reason="form", what=a.what, source=src)
            return
        if amount <= a.high and a.leader is not None:
            ctx.flag(
                "AUCTION-RAISE",
                act.pos,
                player.name,
                amount=amount,
                what=a.what,
                high=a.high,
                leader=ctx.state.players[a.leader].name,
                source=src,
            )
            return
        if amount < a.terms.min_bid:
            ctx.flag(
                "AUCTION-BID",
                act.pos,
                player.name,
                reason="too-low",
                what=a.what,
                min_bid=a.terms.min_bid,
                source=src,
            )
            return
        if not paid:
            ctx.flag(
                "AUCTION-BID", act.pos, player.name, reason="no-payment", what=a.what, source=src
            )
        else:
            from referee.engine.payment import payment_findings

            plan = plan_payment(ctx, player, paid, _payment_terms(a, amount), act.pos)
            if ctx.state.checking:
                ctx.report(payment_findings(ctx, plan))
        a.high, a.leader, a.paid = amount, player.index, paid
        a.bids.append((player.index, amount))

    def stage_closed(self, ctx: Context, stage: Stage) -> None:
        a: Auction = stage.data
        state = ctx.state
        if a.leader is not None:
            winner = state.players[a.leader]
            if a.paid:  # "Der Höchstbietende legt die Karten ab": the cards of his bid
                plan = plan_payment(ctx, winner, a.paid, _payment_terms(a, a.high), stage.pos)
                apply_payment(ctx, plan)
                a.payment = plan
            a.winner, a.price = a.leader, a.high
        for m in state.ext.modules:
            if m.name == a.opener:
                m.auction_closed(ctx, a)

    def legal_stage_lines(self, ctx: Context, stage: Stage, player: PlayerState) -> list[Turn]:
        """A pass, and the lowest raise in each currency that the hand pays (one currency)."""
        from referee.engine.actions.purchase import payments

        a: Auction = stage.data
        who = PlayerRef(player.name)
        out = [Turn(None, who, (ModuleAction("pass", ()),))]
        amount = max(a.high + 1, a.terms.min_bid)
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        curs = [a.terms.currency] if a.terms.currency is not None else list(CURRENCIES)
        for cur in curs:
            for combo in payments(hand, frozenset({cur}), amount):
                args = (
                    GenericArg(amount),
                    GenericArg("pay"),
                    *(GenericArg(CardRef(c)) for c in combo),
                )
                out.append(Turn(None, who, (ModuleAction("bid", args),)))
                break
        return out


_SERVICE = AuctionService()
SERVICES[AUCTION] = lambda: _SERVICE


def no_auction(state: GameState, line: Turn) -> bool:
    """An out-of-turn ``bid`` / ``pass`` no module claimed and no auction is open: reported
    (``AUCTION-NONE``); True when the line was such a line."""
    acts = line.actions
    if not acts or not isinstance(acts[0], ModuleAction) or acts[0].verb.lower() not in VERBS:
        return False
    name = line.player.name if line.player is not None else None
    state.flag("AUCTION-NONE", acts[0].pos, name, verb=acts[0].verb)
    return True


__all__ = [
    "AUCTION",
    "VERBS",
    "Auction",
    "AuctionService",
    "AuctionTerms",
    "no_auction",
    "open_auction",
    "open_auctions",
]
