"""Die Wechselstuben (exchange offices): cards that let one purchase mix two currencies.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE WECHSELSTUBEN.

Notation: an exchange card is the component token ``ex:GuDe`` (its two currencies, either
order). It turns up in the display like money (``* display De3 ex:GuDe``), is taken instead of
money (``take ex:GuDe``) and is played in a payment (``buy Gu G11 pay Gu9 De2 ex:GuDe``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from referee.catalogue import CURRENCIES, Currency
from referee.engine.findings import problem, report
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.messages import Join, Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    in_pile_window,
    module_data,
    pile_windows,
    section,
)
from referee.record.model import CardRef, ComponentRef, Pos, TakeMoney

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE WECHSELSTUBEN"
S_NOTES = section(H, "Anmerkungen")
KIND = "ex"


@lru_cache(maxsize=256)  # a pure function of the token, asked for the same few again and again
def card_name(name: str) -> str | None:
    """The canonical card (``GuDe``) for ``GuDe``/``dega``..., or None when it is none."""
    if len(name) != 4:
        return None
    by_code = {c.code.lower(): c for c in CURRENCIES}
    a = by_code.get(name[:2].lower())
    b = by_code.get(name[2:].lower())
    if a is None or b is None or a is b:
        return None
    first, second = sorted((a, b), key=lambda c: c.field)
    return first.code + second.code


@lru_cache(maxsize=64)  # a pure function of the canonical name (six cards)
def currencies_of(card: str) -> frozenset[Currency]:
    return frozenset({Currency(card[:2]), Currency(card[2:])})


def _token(c: object) -> str:
    if isinstance(c, ComponentRef):
        return f"{c.kind}:{c.name}"
    card = getattr(c, "card", None)
    if card is not None:
        return str(card.code)
    number = getattr(c, "number", None)
    return f"W{number}" if number is not None else "?"


def all_cards() -> list[str]:
    data = module_data("wechselstuben")["components"]["exchange_cards"]
    return [str(entry["card"]) for entry in data["pairs"]]


@cache
def _is_card(card: str) -> bool:
    """Whether ``card`` (a canonical name) is one of the exchange cards: ``card in
    all_cards()``, kept per name (the module's data does not change)."""
    return card in all_cards()


@dataclass
class ExchangeScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    deck: Counter[str] = field(default_factory=Counter)
    display: list[str] = field(default_factory=list)
    hands: dict[str, Counter[str]] = field(default_factory=dict)
    discard: Counter[str] = field(default_factory=Counter)
    played: list[tuple[str, str, int]] = field(default_factory=list)  # player, card, line


def _fmt(cards: Counter[str] | list[str]) -> str:
    items = sorted(cards.elements()) if isinstance(cards, Counter) else list(cards)
    return " ".join(f"{KIND}:{c}" for c in items) or "none"


@bundled
class Wechselstuben(BundledModule):
    """Six exchange cards in the money deck; one pays a purchase in two currencies."""

    purchases_by_components = True  # its purchase refinements read only its own pieces
    plain_components_pieces = True  # they read the field and the payment, never the piece

    component_kinds = (KIND,)
    scratch_type = ExchangeScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.deck = Counter(all_cards())
        scratch.hands = {p.name: Counter() for p in state.players}

    def view(self, state: GameState) -> dict[str, Any]:
        """Exchange cards in the display, in hands, on the discard pile."""
        data = self.data(state)
        return self.shown(
            {
                "display": _fmt(data.display),
                "discard": _fmt(data.discard),
                "in the deck": data.deck.total(),
            },
            {name: {"exchange cards": _fmt(hand)} for name, hand in data.hands.items() if +hand},
        )

    def hand(self, state: GameState, player: PlayerState) -> Counter[str]:
        # as ``hands.setdefault(player.name, Counter())``, without a new empty multiset (and
        # data's call) at each call
        hands = (state.modules.get(self.name) or self.data(state)).hands
        got = hands.get(player.name)
        if got is None:
            got = hands[player.name] = Counter()
        return got

    @staticmethod
    def _card_problem(ref: ComponentRef, pos: Pos, who: str | None) -> Any:
        return problem(
            "EXCHANGE-CARD",
            pos,
            who,
            token=f"{ref.kind}:{ref.name}",
            cards=", ".join(f"{KIND}:{c}" for c in all_cards()),
        )

    def _card(self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None) -> str | None:
        card = card_name(ref.name)
        if card is None or not _is_card(card):
            report(state, [self._card_problem(ref, pos, who)])
            return None
        return card

    # ------------------------------------------------------------------ hooks

    @staticmethod
    def _piles() -> dict[int, int]:
        """How many exchange cards go into which money pile ("in den 2., 3. und 4. Stapel")."""
        piles = module_data("wechselstuben")["components"]["exchange_cards"]["piles"]
        return {int(k): int(v) for k, v in piles.items()}

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        return {k: [None] * v for k, v in self._piles().items()}  # which ones: unknown

    # its refinement adds its part's pieces in the display, as the engine may read them
    display_places = ("exchange_cards_in_display", "display")

    @refines(Decision.DISPLAY_OCCUPIED)
    def exchange_cards_in_display(self, ctx: Any, occupied: int, **_: Any) -> int:
        """Exchange cards lying in the display take places of its four."""
        # asked at every display question: the module's part as self.data(state) gives it,
        # without its call once it exists
        state = ctx.state
        return occupied + len((state.modules.get(self.name) or self.data(state)).display)

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        data = self.data(state)
        card = self._card(state, ref, pos, None)
        if card is None:
            return []
        if state.phase == "setup":
            state.flag(
                "EXCHANGE-PILE",
                pos,
                reason="opening-display",
                KIND=KIND,
                card=card,
            )
        elif (windows := pile_windows(state, self._piles())) is not None:
            (lo, hi), n, k = windows[0], state.setup_after, state.money_draws
            if not in_pile_window(k, windows):
                state.flag(
                    "EXCHANGE-PILE",
                    pos,
                    reason="outside-piles",
                    KIND=KIND,
                    card=card,
                    k=k,
                    n=n,
                    lo=lo,
                    hi=hi,
                )
        shown = len(state.display) + len(data.display)
        if shown >= 4:
            state.flag(
                "EXCHANGE-DISPLAY",
                pos,
                display=core_cards(state, data),
                card=f"{KIND}:{card}",
            )
        if not self._from_deck(state, card, pos):
            self._take_from_anywhere(state, card)
        data.display.append(card)
        return []

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Any]:
        data = self.data(state)
        pos = ref.pos or action.pos
        first = next(c for c in action.cards if isinstance(c, ComponentRef))
        if len(action.cards) != 1 and first is ref:
            shown = " ".join(_token(c) for c in action.cards)
            state.flag("EXCHANGE-TAKE", action.pos, player.name, cards=shown)
        card = self._card(state, ref, pos, player.name)
        if card is None:
            return []
        if card in data.display:
            data.display.remove(card)
        else:
            state.flag(
                "TAKE-NOT-IN-DISPLAY",
                pos,
                player.name,
                card=f"{KIND}:{card}",
                display=core_cards(state, data),
            )
            self._take_from_anywhere(state, card)
        self.hand(state, player)[card] += 1
        return []

    # ------------------------------------------------------- purchase pipeline

    @staticmethod
    def _paid_cards(purchase: Any) -> Sequence[ComponentRef]:
        paid = purchase.modules_paid
        if not paid:  # most purchases name no module component: the empty tuple
            return paid
        return [r for r in paid if r.kind.lower() == KIND]

    @refines(Decision.PAY_CURRENCIES)
    def exchange_currencies(
        self, ctx: Any, allowed: frozenset[Currency], *, field: Currency, purchase: Any, **_: Any
    ) -> frozenset[Currency]:
        """ "Mit dieser Karte kann man ... in beiden Währungen bezahlen": the first exchange card
        of a purchase adds its other currency when the field's currency is on it."""
        refs = self._paid_cards(purchase)
        if not refs:
            return allowed
        card = card_name(refs[0].name)
        if card is None or not _is_card(card):
            return allowed
        cur = currencies_of(card)
        return allowed | cur if field in cur else allowed

    @refines(Decision.PAY_PROBLEMS)
    def exchange_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """One card per purchase, held by the payer, showing the field's currency."""
        refs = self._paid_cards(purchase)
        if not refs or purchase.field is None:
            return found
        out = list(found)
        a = purchase.action
        if len(refs) > 1:
            out.append(
                problem(
                    "EXCHANGE-ONE-PER-BUY",
                    refs[1].pos or a.pos,
                    player.name,
                    cards=" ".join(f"{r.kind}:{r.name}" for r in refs),
                )
            )
        hand = Counter(self.hand(ctx.state, player))
        for ref in refs:
            pos = ref.pos or a.pos
            card = card_name(ref.name)
            if card is None or not _is_card(card):
                out.append(self._card_problem(ref, pos, player.name))
                continue
            if hand[card] > 0:
                hand[card] -= 1
            else:
                out.append(
                    problem(
                        "EXCHANGE-NOT-HELD",
                        pos,
                        player.name,
                        card=f"{KIND}:{card}",
                        held=_fmt(+hand),
                    )
                )
            if purchase.field not in currencies_of(card):
                out.append(
                    problem(
                        "EXCHANGE-FIELD",
                        pos,
                        player.name,
                        card=f"{KIND}:{card}",
                        field=purchase.field.code,
                    )
                )
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "danach kommt sie auf den Ablagestapel": the played card leaves the hand."""
        refs = self._paid_cards(purchase)
        if not refs or purchase.field is None:
            return
        state = ctx.state
        player = purchase.player
        data = self.data(state)
        hand = self.hand(state, player)
        for ref in refs:
            card = card_name(ref.name)
            if card is None or not _is_card(card):
                continue
            if hand[card] > 0:
                hand[card] -= 1
                hand += Counter()
                data.hands[player.name] = hand
            else:
                self._take_from_anywhere(state, card)
            data.discard[card] += 1
            data.played.append((player.name, card, (ref.pos or purchase.action.pos).line))

    def _plain_card(self, state: GameState, player: PlayerState, refs: Any, field: Any) -> Any:
        """The one exchange card of a purchase that :meth:`exchange_problems` passes: a card
        of the module, held by the payer, showing the field's currency (canonical name); else
        None."""
        if len(refs) != 1:
            return None  # EXCHANGE-ONE-PER-BUY
        card = card_name(refs[0].name)
        if card is None or not _is_card(card):
            return None  # EXCHANGE-CARD
        hand = (state.modules.get(self.name) or self.data(state)).hands.get(player.name)
        if not hand or hand[card] <= 0 or field not in currencies_of(card):
            return None  # EXCHANGE-NOT-HELD, EXCHANGE-FIELD
        return card

    def plain_currencies(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        field: Currency,
        allowed: frozenset[Currency],
    ) -> frozenset[Currency]:
        """:meth:`exchange_currencies` for a purchase otherwise plain: the card's two
        currencies added when the field's is one of them."""
        card = card_name(refs[0].name) if refs else None
        if card is None or not _is_card(card):
            return allowed
        cur = currencies_of(card)
        return allowed | cur if field in cur else allowed

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[Any, ...],
        allowed: frozenset[Currency],
        price: int,
    ) -> tuple[int, bool] | None:
        """A purchase paid with money cards and one exchange card that :meth:`exchange_problems`
        passes (one card, held, showing the field's currency: the field is the one currency
        the base layer's ``allowed`` holds): the card counts nothing itself, the purchase is
        exact as the base rule has it (its currencies came from :meth:`plain_currencies`)."""
        if len(allowed) != 1:
            return None
        (field,) = allowed
        if self._plain_card(state, player, refs, field) is None:
            return None
        return 0, False

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Any,
        tile: Any,
    ) -> None:
        """:meth:`on_purchase` for a purchase :meth:`plain_components` passed: the card leaves
        the hand for the discard pile."""
        data = self.data(state)
        ref = refs[0]
        card = card_name(ref.name)
        assert card is not None
        hand = self.hand(state, player)
        hand[card] -= 1
        hand += Counter()
        data.hands[player.name] = hand
        data.discard[card] += 1
        data.played.append((player.name, card, (ref.pos or action.pos).line))

    def reshuffle(self, state: GameState, pos: Pos) -> list[Any]:
        data = self.data(state)
        if data.deck.total() > 0:
            state.flag("EXCHANGE-RESHUFFLE", pos, cards=_fmt(data.deck))
        # "der Ablagestapel – inklusive abgeworfener Wechselstuben – gemischt"
        data.deck.update(data.discard)
        data.discard.clear()
        return []

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        """The exchange cards in ``player``'s hand (None: in the display), as a position's
        ``hand`` / ``display`` line names them (read back by :meth:`position_component`)."""
        if player is None:
            cards = list(self.data(state).display)
        else:
            cards = sorted(self.hand(state, player).elements())
        return [ComponentRef(KIND, c) for c in cards]

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """An exchange card in a position's display or in a player's hand."""
        if where not in ("display", "hand") or (where == "hand" and player is None):
            return False, None
        card = self._card(state, ref, ref.pos, player.name if player else None)
        if card is None:
            return True, None
        data = self.data(state)
        self._from_deck(state, card, ref.pos)
        if where == "display":
            data.display.append(card)
        else:
            assert player is not None
            self.hand(state, player)[card] += 1
        return True, None

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Each exchange card of the display taken "anstelle des Geldes" (alone), and each
        purchase paid with a held card "in beiden Währungen": the card's field currency plus
        its other one, for a tile on a field whose currency is on the card. Payments that use
        no card of the other currency are legal too but waste the card; they are not listed."""
        from referee.engine.legal import buy_actions

        data = self.data(ctx.state)
        out: list[Any] = [
            TakeMoney((ComponentRef(KIND, card),)) for card in sorted(set(data.display))
        ]
        for card in sorted(self.hand(ctx.state, player)):
            if self.hand(ctx.state, player)[card] <= 0:
                continue
            curs = currencies_of(card)
            ref = ComponentRef(KIND, card)
            for buy in buy_actions(ctx, player, extra=(ref,)):
                field = buy.field
                if field is None or field not in curs:
                    continue
                other = curs - {field}
                if any(
                    isinstance(c, CardRef) and c.card is not None and c.card.currency in other
                    for c in buy.paid
                ):
                    out.append(buy)
        return out

    # ------------------------------------------------------------ simulator

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """ "kommen je 2 Wechselstuben verdeckt in den 2., 3. und 4. Stapel": the six cards,
        shuffled, two into each of those piles."""
        cards = all_cards()
        sim.rng.shuffle(cards)
        piles = sorted(self._piles().items())
        return {pile: [ComponentRef(KIND, cards.pop()) for _ in range(n)] for pile, n in piles}

    def sim_reshuffle(self, sim: Any) -> list[object]:
        """ "der Ablagestapel – inklusive abgeworfener Wechselstuben – gemischt"."""
        data = self.data(sim.state)
        return [ComponentRef(KIND, c) for c in sorted(data.discard.elements())]

    # ---------------------------------------------------------------- helpers

    def _where(self, state: GameState, card: str) -> Join:
        data = self.data(state)
        parts: list[Text] = []
        for name, hand in data.hands.items():
            if hand[card]:
                parts.append(Text("EXCHANGE-SUPPLY.where/hand", name=name))
        if card in data.display:
            parts.append(Text("EXCHANGE-SUPPLY.where/display"))
        if data.discard[card]:
            parts.append(Text("EXCHANGE-SUPPLY.where/discard"))
        return Join(tuple(parts), empty=Text("EXCHANGE-SUPPLY.where/revealed"))

    def _from_deck(self, state: GameState, card: str, pos: Pos) -> bool:
        """The card leaves the deck; not in it (six cards, each once): EXCHANGE-SUPPLY, False."""
        deck = self.data(state).deck
        if deck[card] > 0:
            deck[card] -= 1
            deck += Counter()  # in place: drops the zero count
            return True
        where = self._where(state, card)
        state.flag("EXCHANGE-SUPPLY", pos, card=f"{KIND}:{card}", where=where)
        return False

    def _take_from_anywhere(self, state: GameState, card: str) -> None:
        """As played: the card was somewhere; take one copy out of where it was last seen."""
        data = self.data(state)
        if data.deck[card]:
            data.deck[card] -= 1
            data.deck += Counter()
            return
        if data.discard[card]:
            data.discard[card] -= 1
            data.discard += Counter()
            return
        if card in data.display:
            data.display.remove(card)
            return
        for hand in data.hands.values():
            if hand[card]:
                hand[card] -= 1
                return


def core_cards(state: GameState, data: ExchangeScratch) -> str:
    from referee.engine.fmt import fmt_cards

    money = fmt_cards(state.display) if state.display else ""
    extra = " ".join(f"{KIND}:{c}" for c in data.display)
    return " ".join(x for x in (money, extra) if x) or "empty"
