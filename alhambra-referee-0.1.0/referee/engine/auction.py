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

from referee.catalogue import CURRENCIES, Currency, MoneyCard
from referee.engine.context import Context
from referee.engine.payment import (
    Mix,
    Payment,
    PaymentTerms,
    apply_payment,
    payment_findings,
    plan_payment,
)
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.engine.stages import SERVICES, Stage, StageOrder, open_stage
from referee.engine.state import decrement
from referee.messages import Text, register_both
from referee.record.model import (
    NOWHERE,
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    PlayerRef,
    Pos,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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
    # a standing offer (``open_standing``): the token that names it on a line (``ts:2``), the
    # cards of the standing bid held beside it (taken from the bidder's hand) and how many of
    # them the record left unknown
    key: str = ""
    standing: bool = False
    held: tuple[MoneyCard, ...] = ()
    held_unknown: int = 0

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
            self.key,
            self.standing,
            self.held,
            self.held_unknown,
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


# ------------------------------------------------------------------- standing offers
#
# A *standing offer* lies open across turns (Die Großprojekte, rulebook-bigbox-de-2019.txt
# § Dirk Henn: Die Großprojekte): "Gibt es noch kein Gebot für das aktuell ausliegende
# Großprojekt, darf der Spieler am Zug dafür ein Gebot von mindestens 15 Geld einer beliebigen
# Währung abgeben. Dazu legt er das gebotene Geld mit seinem Marker neben das Großprojekt" --
# "Der Spieler am Zug hat nun eine weitere Aktionsmöglichkeit": a bid is the main action of the
# bidder's own turn, written in his numbered turn (``7. Ben: bid 16 pay De9 De7``; with several
# offers open the offer's token comes first: ``bid ts:2 16 pay De9 De7``). The cards leave the
# hand and lie beside the offer. "Liegt ein Gebot eines anderen Spielers neben dem angebotenen
# Großprojekt, darf ein nachfolgender Spieler das Gebot überbieten ... Der überbotene Spieler
# bekommt Geld und Marker zurück" -- a higher bid replaces it and the cards go back to the hand
# of the player overbid; one's own standing bid is not overbid. "Liegt zu Beginn des eigenen
# Zuges ein eigenes Gebot neben dem Großprojekt, so hat der Spieler das Großprojekt ersteigert
# ... Das gebotene Geld wird auf den Geld-Ablagestapel gelegt": when the bidder's next turn
# begins (before its first action) the cards go to the discard pile and the opener hears
# :meth:`Module.auction_closed` with ``auction.standing`` set, ``winner`` and ``price``; it
# hands the item over and may open the next offer at once ("auf das der aktive Spieler sofort
# wieder bieten darf": the bid on it is that turn's action).
#
# The bid is the money laid down: the number written is the value of its cards (``PAY-NOT-
# EXACT`` / ``BUY-UNDERPAID`` otherwise), in one currency (``Mix.ONE``; a module may ask for one
# named currency), money cards only (module money lies beside the offer only if its module
# kept it there, which none does: ``PAY-SOURCE``).

_STANDING_WHY = "ACTION/bidding"


def _standing_texts() -> None:
    register_both(
        {
            _STANDING_WHY: "bidding",
            "CARD-SUPPLY.where/offer": "in a bid beside {name}{times}",
        },
        {
            _STANDING_WHY: "dem Bieten",
            "CARD-SUPPLY.where/offer": "in einem Gebot neben {name}{times}",
        },
    )


_standing_texts()

_rule(
    "STANDING-LOW",
    "bid too low",
    "Gebot zu niedrig",
    "{player} bids {amount} for {what}: {detail} ({source})",
    "{player} bietet {amount} für {what}: {detail} ({source})",
    too_low=("the lowest bid is {min_bid}", "das niedrigste Gebot ist {min_bid}"),
    not_higher=(
        "{leader}'s bid of {high} lies there; an overbid must be higher",
        "dort liegt das Gebot von {leader} über {high}; ein Überbieten muss höher sein",
    ),
)
_rule(
    "STANDING-OWN",
    "own bid",
    "eigenes Gebot",
    "{player} bids for {what}, but his own bid of {high} lies there: only another player's "
    "bid may be overbid ({source})",
    "{player} bietet für {what}, dort liegt aber sein eigenes Gebot über {high}: überboten "
    "werden darf nur das Gebot eines anderen Spielers ({source})",
)
_rule(
    "STANDING-BID",
    "standing bid",
    "Gebot",
    "{player}'s bid: {detail}",
    "Gebot von {player}: {detail}",
    form=(
        "a bid is written `bid N pay <cards>` (with several offers open: `bid <offer> N pay "
        "<cards>`; open: {offers})",
        "ein Gebot lautet `bid N pay <Karten>` (bei mehreren offenen Angeboten: `bid <Angebot> "
        "N pay <Karten>`; offen: {offers})",
    ),
    which=(
        "several offers are open ({offers}): the bid names one",
        "mehrere Angebote liegen aus ({offers}): das Gebot nennt eines",
    ),
    unknown=(
        "no offer {key} is open (open: {offers})",
        "kein Angebot {key} liegt aus (offen: {offers})",
    ),
    no_payment=(
        "the bid names no cards: the money is laid beside the offer",
        "das Gebot nennt keine Karten: das Geld wird neben das Angebot gelegt",
    ),
    position=(
        "a standing bid in a position is written `bid [<offer>] <player> N pay <cards>`",
        "ein liegendes Gebot in einer Stellung lautet `bid [<Angebot>] <Spieler> N pay <Karten>`",
    ),
)


def open_standing(
    ctx: Context,
    opener: str,
    item: Any,
    what: str,
    key: str = "",
    terms: AuctionTerms | None = None,
) -> Auction:
    """Lay out a standing offer of ``item`` (module ``opener`` hears the result through
    :meth:`Module.auction_closed`); ``key`` is the token that names it on a line (needed
    when several offers are open), ``what`` how findings name it. Default terms: at least 1,
    in one currency."""
    offer = Auction(opener, item, what, terms or AuctionTerms(), key=key, standing=True)
    ctx.state.standing.append(offer)
    return offer


def standing_offers(state: GameState) -> list[Auction]:
    """The standing offers open now, in the order laid out."""
    return list(state.standing)


def _give_back(state: GameState, offer: Auction) -> None:
    """The player overbid (or the offer withdrawn) takes his money back."""
    if offer.leader is not None:
        p = state.players[offer.leader]
        p.hand.update(offer.held)
        p.hand_unknown += offer.held_unknown
    offer.held, offer.held_unknown, offer.leader, offer.high = (), 0, None, 0


def withdraw_standing(ctx: Context, offer: Auction) -> None:
    """Take a standing offer away (e.g. its module ends it): a bid lying there goes back to
    its bidder's hand."""
    state = ctx.state
    _give_back(state, offer)
    if offer in state.standing:
        state.standing.remove(offer)


def _offer_keys(state: GameState) -> str:
    return ", ".join(o.key or o.what for o in state.standing) or "-"


def _which_offer(
    state: GameState, values: list[object], pos: Pos, player: str | None
) -> tuple[Auction | None, list[object]]:
    """The offer a bid names (its token first) or the only one; the rest of the arguments."""
    first = values[0] if values else None
    token = None
    if isinstance(first, ComponentRef):
        token = f"{first.kind}:{first.name}"
    elif isinstance(first, str) and first.lower() not in ("pay", "zahlt"):
        token = first
    if token is not None:
        for o in state.standing:
            if o.key and o.key.lower() == token.lower():
                return o, values[1:]
        state.flag(
            "STANDING-BID",
            pos,
            player,
            reason="unknown",
            key=token,
            offers=_offer_keys(state),
        )
        return None, values[1:]
    if len(state.standing) == 1:
        return state.standing[0], values
    state.flag("STANDING-BID", pos, player, reason="which", offers=_offer_keys(state))
    return None, values


def _split_bid(values: list[object]) -> tuple[int | None, tuple[object, ...]]:
    amount = values[0] if values and isinstance(values[0], int) else None
    rest = values[1:] if amount is not None else values
    if rest and isinstance(rest[0], str) and rest[0].lower() in ("pay", "zahlt"):
        rest = rest[1:]
    return amount, tuple(rest)


def _standing_terms(offer: Auction, amount: int) -> PaymentTerms:
    t = offer.terms
    return PaymentTerms(
        amount,
        f"a bid of {amount} for {offer.what}",
        currency=t.currency,
        mix=Mix.FIELD if t.currency is not None else t.mix,
        exact=True,  # the bid is the money laid down
        components=False,  # money cards only lie beside the offer
        source=t.source,
    )


def _bid_problems(ctx: Context, offer: Auction, player: PlayerState, amount: int, pos: Pos) -> bool:
    """The rules of a standing bid (``STANDING-OWN``, ``STANDING-LOW``); True: refused."""
    src = offer.terms.source
    if offer.leader == player.index:
        ctx.flag("STANDING-OWN", pos, player.name, what=offer.what, high=offer.high, source=src)
        return True
    if amount < offer.terms.min_bid:
        ctx.flag(
            "STANDING-LOW",
            pos,
            player.name,
            reason="too-low",
            amount=amount,
            what=offer.what,
            min_bid=offer.terms.min_bid,
            source=src,
        )
        return True
    if offer.leader is not None and amount <= offer.high:
        ctx.flag(
            "STANDING-LOW",
            pos,
            player.name,
            reason="not-higher",
            amount=amount,
            what=offer.what,
            high=offer.high,
            leader=ctx.state.players[offer.leader].name,
            source=src,
        )
        return True
    return False


def _hold(state: GameState, p: PlayerState, offer: Auction, plan: Payment) -> None:
    """The cards of a bid leave the hand and lie beside the offer."""
    held: list[MoneyCard] = []
    unknown = 0
    for step in plan.steps:
        c = step.card
        if step.source == "hand" and c is not None:
            decrement(p.hand, c)
            held.append(c)
        elif step.source == "resolve" and c is not None:
            p.hand_unknown -= 1
            decrement(state.pool, c)
            held.append(c)
        elif step.source == "unknown":
            p.hand_unknown -= 1
            unknown += 1
        elif step.source == "forget":
            p.hand_unknown = p.hand.total() - 1
            state.pool.update(p.hand)
            p.hand.clear()
            unknown += 1
    offer.held = tuple(sorted(held, key=lambda c: c.sort_key))
    offer.held_unknown = unknown


def standing_bid(state: GameState, p: PlayerState, action: ModuleAction) -> None:
    """``bid`` in a numbered turn while standing offers are open: the turn's main action."""
    ctx = Context(state, action.pos)
    pos = action.pos
    ctx.main_action(pos, p, Text(_STANDING_WHY))
    ctx.end_main_action(Text(_STANDING_WHY))  # a bid gives no further action
    values: list[object] = [a.value for a in action.args]
    offer, rest = _which_offer(state, values, pos, p.name)
    if offer is None:
        return
    amount, paid = _split_bid(rest)
    if amount is None:
        ctx.flag("STANDING-BID", pos, p.name, reason="form", offers=_offer_keys(state))
        return
    if _bid_problems(ctx, offer, p, amount, pos):
        return
    if not paid:
        ctx.flag("STANDING-BID", pos, p.name, reason="no-payment")
        return
    plan = plan_payment(ctx, p, paid, _standing_terms(offer, amount), pos)
    if state.checking:
        ctx.report(payment_findings(ctx, plan))
    _give_back(state, offer)  # "Der überbotene Spieler bekommt Geld und Marker zurück"
    _hold(state, p, offer, plan)
    offer.high, offer.leader, offer.paid = amount, p.index, paid
    offer.bids.append((p.index, amount))


def standing_turn_start(state: GameState, player: int, pos: Pos) -> None:
    """A turn of ``player`` begins: every offer where his bid still lies is his ("Liegt zu
    Beginn des eigenen Zuges ein eigenes Gebot ... so hat der Spieler ... ersteigert"): the
    cards to the discard pile, the opener told (:meth:`Module.auction_closed`)."""
    won = [o for o in state.standing if o.leader == player]
    if not won:
        return
    ctx = Context(state, pos)
    for offer in won:
        state.standing.remove(offer)
        state.discard.update(offer.held)  # "Das gebotene Geld wird auf den Geld-Ablagestapel"
        state.discard_unknown += offer.held_unknown
        offer.winner, offer.price = offer.leader, offer.high
        for m in state.ext.modules:
            if m.name == offer.opener:
                m.auction_closed(ctx, offer)


def standing_bids(ctx: Context, player: PlayerState) -> list[ModuleAction]:
    """The legal bids of ``player`` on the open offers (the lowest he can make in each
    currency; none on an offer where his own bid lies)."""
    from referee.engine.actions.purchase import payments

    state = ctx.state
    out: list[ModuleAction] = []
    hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
    several = len(state.standing) > 1
    for offer in state.standing:
        if offer.leader == player.index:
            continue
        floor = max(offer.terms.min_bid, offer.high + 1 if offer.leader is not None else 0)
        t = offer.terms
        curs = [t.currency] if t.currency is not None else list(CURRENCIES)
        for cur in curs:
            for combo in payments(hand, frozenset({cur}), floor):
                total = sum(c.value for c in combo)
                head = (GenericArg(offer.key),) if several and offer.key else ()
                args = (
                    *head,
                    GenericArg(total),
                    GenericArg("pay"),
                    *(GenericArg(CardRef(c)) for c in combo),
                )
                out.append(ModuleAction("bid", args))
                break
    return out


def standing_position_lines(state: GameState) -> list[ModuleAction]:
    """The standing bids as lines of a ``position`` block (outside the player sections,
    after the modules' lines that lay the offers out): ``bid [<offer>] <player> N pay
    <cards>``."""
    from referee.notation.tokens import needs_quotes

    out: list[ModuleAction] = []
    several = len(state.standing) > 1
    for offer in state.standing:
        if offer.leader is None:
            continue
        head = (GenericArg(offer.key),) if several and offer.key else ()
        name = state.players[offer.leader].name
        who = GenericArg(PlayerRef(name) if needs_quotes(name) else name)
        cards = [GenericArg(CardRef(c)) for c in offer.held]
        cards += [GenericArg("?")] * offer.held_unknown
        args = (*head, who, GenericArg(offer.high), GenericArg("pay"))
        out.append(ModuleAction("bid", (*args, *cards)))
    return out


def standing_position_line(state: GameState, line: ModuleAction) -> None:
    """A standing bid stated in a ``position`` block: its cards lie beside the offer."""
    values: list[object] = [a.value for a in line.args]
    pos = line.pos
    if not state.standing:
        state.flag("STANDING-BID", pos, None, reason="unknown", key="-", offers="-")
        return
    head: list[object] = []
    if values and isinstance(values[0], ComponentRef):
        head, values = values[:1], values[1:]
    who = values[0] if values else None
    name = who.name if isinstance(who, PlayerRef) else who if isinstance(who, str) else None
    p = state.player_named(name) if name is not None else None
    if p is None:
        state.flag("STANDING-BID", pos, None, reason="position")
        return
    offer, rest = _which_offer(state, head + values[1:], pos, p.name)
    if offer is None:
        return
    amount, paid = _split_bid(rest)
    if amount is None:
        state.flag("STANDING-BID", pos, p.name, reason="position")
        return
    held: list[MoneyCard] = []
    unknown = 0
    for ref in paid:
        card = ref.card if isinstance(ref, CardRef) else None
        if card is None:
            unknown += 1
            continue
        if state.pool[card] > 0:
            decrement(state.pool, card)
        else:
            from referee.engine.core import _card_supply

            _card_supply(state, card, getattr(ref, "pos", pos) or pos, p.name)
        held.append(card)
        state.deck_unknown -= 1
    offer.leader, offer.high, offer.paid = p.index, amount, tuple(paid)
    offer.held = tuple(sorted(held, key=lambda c: c.sort_key))
    offer.held_unknown = unknown


def standing_whereabouts(state: GameState, card: MoneyCard) -> list[tuple[int, str]]:
    """How many copies of ``card`` lie in bids beside which offers (for ``CARD-SUPPLY``)."""
    return [(o.held.count(card), o.what) for o in state.standing if card in o.held]


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
    "open_standing",
    "standing_bid",
    "standing_bids",
    "standing_offers",
    "standing_position_line",
    "standing_position_lines",
    "standing_turn_start",
    "withdraw_standing",
]
