"""Das Wechselgeld (small change): 24 coins of value 1 in a bag; overpaying a building draws one
coin per two units overpaid.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DAS WECHSELGELD.

Notation: a coin is the component token ``co:Gu`` (its currency). The coins drawn after an
overpaying purchase are a chance line, one token per coin, ``?`` for a coin nobody noted
(a hidden draw, :mod:`referee.engine.hidden`)::

    15. Ben: buy De G10 pay De9 De8, place G10@1,1      # 17 for 10: 7 overpaid
    * change Ben co:Gu co:De ?                          # 3 coins ("darf ... 3 Münzen ziehen")
    18. Ben: buy Gu P5 pay Gu4 co:Gu                    # a coin pays like a card of its currency

Coins paid go back into the bag; coins count for the leftover distribution at the end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import Currency
from referee.engine.actions.purchase import allowed_currencies, payment_value
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.hidden import UNVERIFIED_KEY, HiddenSupply, drawn_tokens, limits_of
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    market_probes,
    module_data,
    named_player,
    section,
    token_text,
)
from referee.record.model import (
    Buy,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    TakeMoney,
)
from referee.shapes import TupleBody, named_tuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DAS WECHSELGELD"
S_NOTES = section(H, "Anmerkungen")
KIND = "co"
VERB = "change"
_REFILL_DONE = Moment.REFILL_DONE


def _data() -> dict[str, Any]:
    return module_data("wechselgeld")


@cache
def _units_per_coin() -> int:
    """ "pro 2 überzahlte ... eine Münze": the units overpaid a coin is drawn for."""
    return int(_data()["change"]["units_per_coin"])


@cache
def _coin_value() -> int:
    """ "Sie haben den Wert 1": what a coin counts for."""
    return int(_data()["components"]["coins"]["value"])


def coin_currency(name: str) -> Currency | None:
    """The currency of a coin token's name (``Gu``, any case), or None."""
    return Currency.of_code(name)


@named_tuple
class ChangeClaim(TupleBody):
    """A purchase that was overpaid: how many coins its payer may draw (never changed once
    made: a NamedTuple, which :func:`_claim` makes without a call into Python)."""

    due: int | None  # None: the payment or price is unknown
    full: int  # floor(overpaid / 2), before the bag's limit
    paid: int
    price: int
    pos: Pos
    closed: int  # the refills closed when it was made (GameState.refills_closed): open till then


_tuple_new = tuple.__new__
"""``_tuple_new(ChangeClaim, (due, full, paid, price, pos, closed))`` is ``ChangeClaim(due,
full, paid, price, pos, closed)`` without the Python frame of the NamedTuple's ``__new__`` (a
claim is made on every purchase of a game with the module)."""


@dataclass
class CoinScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    coins: HiddenSupply = field(default_factory=lambda: HiddenSupply(0))
    # a player's claim lapses when the next refill closes: one whose ``closed`` is not the
    # state's ``refills_closed`` any more is read as gone (no step needed to take it away);
    # the step at a refill's close runs only for a claim with coins due (WECHSELGELD-FORFEIT)
    claims: dict[str, ChangeClaim] = field(default_factory=dict)
    # the kept answer at a refill's close (Module.kept_idle, ``idle_at``'s answer): True while
    # no claim with coins due is open (set by the step that reports them), None once one is
    # made (then ``idle_at`` is asked)
    idle_refill: bool | None = field(default=True, repr=False, compare=False)


def _paid_coins(purchase: Any) -> list[ComponentRef]:
    return [r for r in purchase.modules_paid if r.kind.lower() == KIND]


@bundled
class Wechselgeld(BundledModule):
    """24 coins of value 1; one drawn per two units overpaid; coins pay like money."""

    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = CoinScratch
    hears_component_purchases = True  # after_plain_purchase: any purchase it hears of
    plain_components_pieces = True  # its refinements read the price and payment, not the piece
    leaves_plain_purchases = True  # leaves_plain_purchase: yes to every plain purchase
    reads_refills_closed = True  # a claim lapses when the refill after it closes (ChangeClaim)
    kept_idle = frozenset({_REFILL_DONE})  # (its part's idle_refill: kept where claims change)

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        coins = _data()["components"]["coins"]
        scratch.coins = HiddenSupply(int(coins["count"]), limits_of(coins["per_currency"]))

    def supply(self, state: GameState) -> HiddenSupply:
        coins: HiddenSupply = self.data(state).coins
        return coins

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        """The bag and every player's coins ("Die Münzen liegen offen vor den Spielern aus")."""
        coins = self.supply(state)
        return self.shown(
            {"coins in the bag": coins.in_pool()},
            {p.name: {"coins": coins.shown(p.name, KIND) or "-"} for p in state.players},
        )

    # ------------------------------------------------------------------ change

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``change PLAYER co:Gu ... ?``: the coins drawn for an overpaid purchase."""
        pos = event.pos
        if not event.args:
            state.flag("WECHSELGELD-TOKEN", pos, reason="syntax", token=VERB)
            return []
        p = named_player(state, event.args[0], pos)
        if p is None:
            return []
        drawn, other = drawn_tokens(event.args[1:], KIND)
        for a in other:
            assert isinstance(a, GenericArg)
            state.flag(
                "WECHSELGELD-TOKEN", a.pos or pos, p.name, reason="syntax", token=token_text(a)
            )
        data = self.data(state)
        coins = data.coins
        claim = data.claims.pop(p.name, None)
        if claim is not None and claim.closed != state.refills_closed:
            claim = None  # lapsed: a refill closed since it was made
        if claim is None:
            state.flag("WECHSELGELD-CLAIM", pos, p.name, reason="none")
        elif claim.due is None:
            state.note(pos, "UNVERIFIED-CHANGE-COUNT", p.name, name=p.name)
        elif claim.full == 0 and drawn:
            state.flag(
                "WECHSELGELD-CLAIM",
                pos,
                p.name,
                reason="exact",
                paid=claim.paid,
                price=claim.price,
                over=claim.paid - claim.price,
            )
        elif len(drawn) > claim.full:
            state.flag(
                "WECHSELGELD-COUNT",
                pos,
                p.name,
                drawn=len(drawn),
                over=claim.paid - claim.price,
                paid=claim.paid,
                price=claim.price,
                due=claim.full,
            )
        elif len(drawn) < claim.due:
            self._forfeit(state, p.name, claim, len(drawn), pos)
        empty_flagged = False
        for arg in event.args[1:]:
            apos = getattr(arg, "pos", pos) or pos
            one, _ = drawn_tokens([arg], KIND)
            if not one:
                continue
            name = one[0]
            cur = None if name is None else coin_currency(name)
            if name is not None and cur is None:
                state.flag("WECHSELGELD-TOKEN", apos, p.name, reason="coin", token=f"{KIND}:{name}")
                continue
            code = None if cur is None else cur.code
            found = coins.draw(p.name, code)
            if "empty" in found and not empty_flagged:
                empty_flagged = True
                state.flag("WECHSELGELD-BAG-EMPTY", apos, p.name, coin=_coin(code))
            if "supply" in found and code is not None:
                self._supply_flag(state, coins, code, apos, p.name)
        unseen = drawn.count(None)
        if unseen:
            state.note(pos, UNVERIFIED_KEY, p.name, name=p.name, count=unseen, what=f"{KIND}:?")
        return []

    def _forfeit(
        self, state: GameState, who: str, claim: ChangeClaim, drawn: int, pos: Pos
    ) -> None:
        state.flag(
            "WECHSELGELD-FORFEIT",
            pos,
            who,
            severity="warning",
            over=claim.paid - claim.price,
            paid=claim.paid,
            price=claim.price,
            due=claim.due,
            drawn=drawn,
        )

    def _supply_flag(
        self, state: GameState, coins: HiddenSupply, code: str, pos: Pos, who: str | None
    ) -> None:
        where = ", ".join(
            f"{name} {held[code]}" for name, held in coins.known.items() if held[code]
        )
        state.flag(
            "WECHSELGELD-SUPPLY",
            pos,
            who,
            coin=f"{KIND}:{code}",
            limit=coins.limits.get(code, 0),
            where=where or "-",
        )

    @acts_at(Moment.REFILL_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """A claim not drawn before the next line of play (the refill closed) lapses: one with
        coins due is reported (``WECHSELGELD-FORFEIT``); the others lapse without a step (a
        claim made before this close reads as gone, :class:`CoinScratch`)."""
        if moment != _REFILL_DONE:
            super().at_moment(ctx, moment)
            return
        state = ctx.state
        # self.data(state) without its call once the module's part exists
        data = state.modules.get(self.name) or self.data(state)
        claims = data.claims
        closing = state.refills_closed - 1  # (the close under way has counted itself)
        due = False
        for who, claim in claims.items():  # (a finding changes no claim)
            if claim.due and claim.closed == closing:
                due = True
                self._forfeit(state, who, claim, 0, claim.pos)
        if due:  # (else nothing changes: the others lapse as they are read)
            claims.clear()
        data.idle_refill = True

    # ------------------------------------------------------- purchase pipeline

    @staticmethod
    def _allowed(ctx: Any, purchase: Any) -> frozenset[Currency]:
        return allowed_currencies(ctx, purchase)

    @refines(Decision.PAY_VALUE)
    def coin_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Sie haben den Wert 1 und werden wie eine Geldkarte in der entsprechenden Währung
        eingesetzt": each coin of a currency that may pay counts 1."""
        refs = _paid_coins(purchase)
        if not refs:
            return value
        allowed = self._allowed(ctx, purchase)
        value_each = int(_data()["components"]["coins"]["value"])
        return value + sum(
            value_each
            for r in refs
            if (c := coin_currency(r.name)) is not None
            and (purchase.field is None or c in allowed or c is purchase.field)
        )

    @refines(Decision.PAY_PROBLEMS)
    def coin_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """A coin paid must be the payer's and of a currency that may pay."""
        refs = _paid_coins(purchase)
        if not refs:
            return found
        out = list(found)
        allowed = self._allowed(ctx, purchase)
        coins = self.supply(ctx.state)
        # the payment tried on a copy: ``take`` changes only the payer's known coins and his
        # unseen count, so only those are copied (the others are read, never changed)
        known = dict(coins.known)
        have = known.get(player.name)
        known[player.name] = Counter() if have is None else have.copy()
        trial = HiddenSupply(
            coins.total, coins.limits, known, coins.unseen.copy(), coins.gone, coins.gone_unseen
        )
        held = trial.shown(player.name, KIND) or "none"
        for ref in refs:
            pos = ref.pos or purchase.action.pos
            cur = coin_currency(ref.name)
            if cur is None:
                out.append(
                    problem(
                        "WECHSELGELD-TOKEN",
                        pos,
                        player.name,
                        reason="coin",
                        token=f"{KIND}:{ref.name}",
                    )
                )
                continue
            # as for money cards: the field's own currency is barred only by a module that
            # reports it under its own rule (diamonds: DIAMOND-MIX), never as BUY-CURRENCY
            if purchase.field is not None and cur not in allowed and cur is not purchase.field:
                out.append(
                    problem(
                        "BUY-CURRENCY",
                        pos,
                        player.name,
                        card=f"{KIND}:{cur.code}",
                        currency=purchase.field.code,
                    )
                )
            got = trial.take(player.name, cur.code)
            if "not-held" in got:
                out.append(
                    problem(
                        "WECHSELGELD-NOT-HELD", pos, player.name, coin=_coin(cur.code), held=held
                    )
                )
            elif "supply" in got:
                out.append(self._supply_finding(trial, cur.code, pos, player.name))
        return out

    def _supply_finding(self, coins: HiddenSupply, code: str, pos: Pos, who: str) -> Finding:
        where = ", ".join(f"{n} {h[code]}" for n, h in coins.known.items() if h[code])
        return problem(
            "WECHSELGELD-SUPPLY",
            pos,
            who,
            coin=f"{KIND}:{code}",
            limit=coins.limits.get(code, 0),
            where=where or "-",
        )

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Wird mit Münzen bezahlt, kommen diese zurück in den Beutel"; then the payer's claim:
        one coin per two units overpaid, as far as the bag holds coins."""
        state = ctx.state
        p = purchase.player
        data = self.data(state)
        coins = data.coins
        for ref in _paid_coins(purchase):
            cur = coin_currency(ref.name)
            if cur is not None:
                coins.put_back(p.name, cur.code)
        closed = state.refills_closed
        if purchase.price is None or purchase.unknown_paid:
            data.claims[p.name] = ChangeClaim(None, 0, 0, 0, purchase.action.pos, closed)
            return
        paid = payment_value(ctx, purchase)
        price = int(purchase.price)
        full = max(0, paid - price) // _units_per_coin()
        due = min(full, max(0, coins.in_pool()))
        data.claims[p.name] = ChangeClaim(due, full, paid, price, purchase.action.pos, closed)
        if due:
            data.idle_refill = None  # (asked at the refill's close: coins due)

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[Any, ...],
        allowed: frozenset[Any],
        price: int,
    ) -> tuple[int, bool] | None:
        """A purchase paid with coins besides money cards that :meth:`coin_problems` passes
        and :meth:`coin_value` counts whole: every coin of a currency that may pay, and as many
        coins of each currency named before in the payer's known coins (``take`` then leaves
        his unseen ones alone). Their value; exact as the base rule has it. The claim is made
        by :meth:`after_plain_purchase` on the whole sum, as :meth:`on_purchase` makes it."""
        # self.data(state) without its call once the module's part exists
        have = (state.modules.get(self.name) or self.data(state)).coins.known.get(player.name)
        if not have:
            return None
        need: dict[str, int] = {}
        for ref in refs:
            cur = coin_currency(ref.name)
            if cur is None or cur not in allowed:
                return None  # WECHSELGELD-TOKEN, or BUY-CURRENCY (the field's own: not told)
            n = need.get(cur.code, 0) + 1
            if have[cur.code] < n:
                return None  # WECHSELGELD-NOT-HELD, or an unseen coin revealed
            need[cur.code] = n
        return len(refs) * _coin_value(), False

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> None:
        """:meth:`on_purchase`'s first half for a purchase :meth:`plain_components` passed: the
        coins go back into the bag (:meth:`after_plain_purchase` makes the claim)."""
        coins = self.data(state).coins
        for ref in refs:
            cur = coin_currency(ref.name)
            if cur is not None:
                coins.put_back(player.name, cur.code)

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no coin paid: the refinements pass; the claim in after_plain_purchase

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass (money cards only): the payer's
        claim."""
        # self.data(state) without its call once the module's part exists
        data = state.modules.get(self.name) or self.data(state)
        total, price = buy.total, buy.price
        if total > price:
            full = (total - price) // _units_per_coin()
            due = min(full, max(0, data.coins.in_pool())) if full else 0  # the bag counted
            if due:
                data.idle_refill = None  # (asked at the refill's close: coins due)
        else:
            full = due = 0
        data.claims[buy.player.name] = _tuple_new(
            ChangeClaim, (due, full, total, price, buy.action.pos, state.refills_closed)
        )

    # ------------------------------------------------------- leftover distribution

    @refines(Decision.DISTRIBUTION_MONEY)
    def coins_count_at_the_end(
        self, ctx: Any, money: int | None, *, player: PlayerState, currency: Currency, **_: Any
    ) -> int | None:
        """ "... die jeweils das meiste Geld der entsprechenden Währung vorweisen können, zählen
        die Münzen mit." Unseen coins leave the sum unknown."""
        coins = self.supply(ctx.state)
        if money is None or coins.unseen[player.name]:
            return None
        return money + coins.held(player.name)[currency.code]

    # ------------------------------------------------------- coins elsewhere

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        state.flag("WECHSELGELD-TOKEN", pos, reason="where", token=f"{ref.kind}:{ref.name}")
        return []

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Any]:
        state.flag(
            "WECHSELGELD-TOKEN",
            ref.pos or action.pos,
            player.name,
            reason="where",
            token=f"{ref.kind}:{ref.name}",
        )
        return []

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``change PAID PRICE DUE`` in a player's section: his purchase (of the turn just played
        or the open one) whose change is still to be drawn ("Überzahlt ein Spieler beim
        Gebäudekauf, hat er nun Anspruch auf Wechselgeld. Für je zwei überzahlte Geldeinheiten
        darf der Spieler eine Münze aus dem Beutel ziehen", rulebook-bigbox-de-2019.txt
        L1360-1363): the payment, the price and the coins the bag held for it; ``change ?``
        when the payment or the price is unknown."""
        if player is None:
            return []
        claim = self.data(state).claims.get(player.name)
        if claim is None or claim.closed != state.refills_closed:
            return []  # (none, or lapsed: a refill closed since)
        if claim.due is None:
            return [ModuleAction(VERB, (GenericArg("?"),))]
        values = (claim.paid, claim.price, claim.due)
        return [ModuleAction(VERB, tuple(GenericArg(v) for v in values))]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """:meth:`position_lines`' ``change`` line read back: the claim, drawn by the next
        ``change`` chance line as in the game (a malformed one: ``WECHSELGELD-TOKEN``)."""
        if line.verb.lower() != VERB:
            return False
        vals = [a.value for a in line.args]
        data = self.data(state)
        closed = state.refills_closed
        had = None if player is None else data.claims.get(player.name)
        free = had is None or had.closed != closed  # (a lapsed claim is none)
        if player is not None and vals == ["?"] and free:
            data.claims[player.name] = ChangeClaim(None, 0, 0, 0, line.pos, closed)
            return True
        ints = [v for v in vals if isinstance(v, int) and not isinstance(v, bool) and v >= 0]
        if player is not None and len(ints) == len(vals) == 3 and free:
            paid, price, due = ints
            full = max(0, paid - price) // _units_per_coin()
            if paid >= price and due <= full:  # (every purchase's claim: none when exact)
                data.claims[player.name] = ChangeClaim(due, full, paid, price, line.pos, closed)
                if due:
                    data.idle_refill = None  # (asked at the refill's close: coins due)
                return True
        text = " ".join([VERB, *(token_text(v) for v in vals)])
        who = player.name if player is not None else None
        state.flag("WECHSELGELD-TOKEN", line.pos, who, reason="position", token=text)
        return True

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        """The coins ``player`` holds, as a position's ``hand`` line names them (``co:Gu``;
        read back by :meth:`position_component`)."""
        if player is None:
            return []
        return [
            ComponentRef(KIND, c) for c in sorted(self.supply(state).held(player.name).elements())
        ]

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """Coins a player holds in a position block: ``hand Gu3 co:Gu``."""
        if where != "hand" or player is None:
            return False, None
        cur = coin_currency(ref.name)
        if cur is None:
            state.flag(
                "WECHSELGELD-TOKEN", ref.pos, player.name, reason="coin", token=f"{KIND}:{ref.name}"
            )
            return True, None
        coins = self.supply(state)
        found = coins.draw(player.name, cur.code)
        if "empty" in found:
            state.flag("WECHSELGELD-BAG-EMPTY", ref.pos, player.name, coin=_coin(cur.code))
        elif "supply" in found:
            self._supply_flag(state, coins, cur.code, ref.pos, player.name)
        return True, None

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Purchases paid with coins. A payment with a coin and no superfluous item is exact
        (leaving out a coin of value 1 must fall short), so these are the exact payments of
        hand cards plus 1, 2 ... of the player's coins of a currency that may pay."""
        from referee.engine.actions.purchase import payments
        from referee.engine.legal import card_ref, tile_ref

        state = ctx.state
        held = self.supply(state).held(player.name)
        if not +held:
            return []
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        out: list[Any] = []
        for cur, tile, allowed, price in market_probes(ctx, player, priced=True):
            usable = [c.code for c in Currency if c in allowed for _ in range(held[c.code])]
            for k in range(1, min(len(usable), price) + 1):
                # coins of the field's currency first, then the others allowed
                usable.sort(key=lambda code: (code != cur.code, code))
                coins = tuple(ComponentRef(KIND, code) for code in usable[:k])
                rest = price - k
                if rest == 0:
                    out.append(Buy(cur, tile_ref(tile), coins))
                    continue
                for pay in payments(hand, allowed, rest, exact_only=True):
                    out.append(Buy(cur, tile_ref(tile), (*(card_ref(c) for c in pay), *coins)))
        return out

    # ------------------------------------------------------------ simulator

    def sim_refill(self, sim: Any) -> list[Any]:
        """The coins an overpaid purchase of the turn just played brings, drawn from the bag at
        random (every coin seen)."""
        state = sim.state
        data = self.data(state)
        out: list[Any] = []
        taken: Counter[str] = Counter()  # drawn by an earlier claim of the same line
        for who, claim in list(data.claims.items()):
            if not claim.due or claim.closed != state.refills_closed:
                continue  # (nothing due, or lapsed)
            pool = data.coins.pool()
            bag = [code for code in sorted(pool) for _ in range(pool[code] - taken[code])]
            sim.rng.shuffle(bag)
            drawn = bag[: claim.due]
            taken.update(drawn)
            args = [GenericArg(who)] + [GenericArg(ComponentRef(KIND, code)) for code in drawn]
            out.append(ModuleChance(VERB, tuple(args)))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Paying with coins when a purchase allows it (so simulated games use them)."""
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and any(isinstance(c, ComponentRef) and c.kind == KIND for c in a.paid)
        ]

    # ------------------------------------------------------------ idle moments

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do when the refill closes while no claim made before
        it has coins due (the module's part exists; a claim with none due lapses as it is read:
        :meth:`at_moment` leaves it)."""
        if moment is not _REFILL_DONE:  # (the module's constant: no attribute read)
            return False
        data = state.modules.get(self.name)
        if data is None:
            return False
        closing = state.refills_closed - 1  # (the close under way has counted itself)
        for claim in data.claims.values():
            if claim.due and claim.closed >= closing:  # (>=: never kept past an open claim)
                return False
        # kept till a claim with coins due is made (the claims of this close lapse with it):
        # after a claim's coins were drawn, the next closes are read, not asked
        data.idle_refill = True
        return True


def _coin(code: str | None) -> str:
    return f"{KIND}:{code}" if code else "?"
