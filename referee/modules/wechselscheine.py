"""Die Wechselscheine (exchange certificates): an overpayment of up to 6 is stored on the
player's certificate with a currency stone and later pays like one money card of that value and
currency.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE WECHSELSCHEINE.

Notation: the stored credit is the component token ``ws:De5`` (currency and amount). It is
stored with the free verb ``certificate`` in the line of the overpaying purchase
(``6. Anna: buy Di A4 pay Di9, certificate ws:De5, place A4@1,0``) and paid like a card
(``9. Anna: buy De T12 pay De8 ws:De5, ...``). A position block states a certificate in the
player's section (``certificate ws:De5``; ``certificate none`` for an empty one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import CURRENCIES, Currency
from referee.engine.actions.purchase import allowed_currencies, overpaid
from referee.engine.findings import Finding, problem
from referee.engine.fmt import NOTHING, fmt_ref, fmt_tile
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.verbs import VerbSpec
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    market_probes,
    module_data,
    token_text,
)
from referee.record.model import Buy, CardRef, ComponentRef, GenericArg, ModuleAction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE WECHSELSCHEINE"
KIND = "ws"
VERB = "certificate"


def max_stored() -> int:
    return int(module_data("wechselscheine")["components"]["certificates"]["max_stored"])


def stones_per_currency(players: int) -> int:
    table = module_data("wechselscheine")["setup"]["stones_per_currency"]
    return int(table.get(players, table.get(str(players), 0)))


def parse_credit(value: object) -> tuple[Currency, int] | None:
    """``ws:De5`` (or the card-like ``De5``) -> (Denar, 5); None when it is none. Amounts
    above 6 are read (CERTIFICATE-OVER-6 names them); 0 and below are not."""
    if isinstance(value, ComponentRef):
        if value.kind.lower() != KIND:
            return None
        name = value.name
    elif isinstance(value, CardRef) and value.card is not None:
        return value.card.currency, value.card.value
    else:
        name = str(value)
    cur = Currency.of_code(name[:2])
    rest = name[2:]
    if cur is None or not rest.isdigit() or int(rest) <= 0:
        return None
    return cur, int(rest)


def _turn_mark(state: GameState) -> int:
    """Which stretch of play a purchase belongs to: twice the turn number, plus one while a
    regular turn is under way. It changes exactly at a turn's start (``Moment.TURN_START``:
    the number grows) and at its end (``Moment.TURN_END``: the turn closes), where the
    module dropped what a turn kept (storing belongs to the purchase's line) when it acted at
    those moments. Now it acts at neither (so a game with it alone takes the engine's
    one-pass turn paths, issue 34, seventh step): a kept purchase counts only while the mark
    it was kept with holds (:func:`_kept`), which reads as the dropping did
    (tests/test_module_wechselscheine_mark.py holds the two equal)."""
    t = state.turn
    return 2 * state.turn_no + (t is not None and t.interrupt is None)


def _kept(
    data: CertificateScratch, state: GameState, name: str
) -> tuple[int, int | None, Any, int] | None:
    """The purchase ``name`` made in the current stretch of play (:func:`_turn_mark`), if any."""
    pending = data.pending.get(name)
    if pending is not None and pending[3] != _turn_mark(state):
        return None
    return pending


def _tile_text(tile: object) -> str:
    """A kept purchase's tile as a finding names it (the tile's code; a reference the
    pipeline could not resolve is kept as written)."""
    return tile if isinstance(tile, str) else fmt_tile(tile)  # type: ignore[arg-type]


def credit_code(credit: tuple[Currency, int] | None) -> str:
    return "-" if credit is None else f"{KIND}:{credit[0].code}{credit[1]}"


@dataclass
class CertificateScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    stones: Counter[Currency] = field(default_factory=Counter)  # in the middle
    held: dict[str, tuple[Currency, int] | None] = field(default_factory=dict)
    # the latest purchase of each player: (line, overpaid or None when unknown, the tile
    # bought (written by _tile_text when read) or the reference as written, the turn mark it
    # was made in: read through _kept only while the mark holds, see _turn_mark)
    pending: dict[str, tuple[int, int | None, Any, int]] = field(default_factory=dict)
    stored: list[tuple[str, str, int]] = field(default_factory=list)  # player, credit, line
    spent: list[tuple[str, str, int]] = field(default_factory=list)  # player, credit, line


def _stones_text(stones: Counter[Currency]) -> str:
    return ", ".join(f"{c.code} {stones[c]}" for c in CURRENCIES)


@bundled
class Wechselscheine(BundledModule):
    """A certificate per player stores an overpayment (up to 6) as a credit in any currency
    whose stone is available; the credit later pays like one money card."""

    # stored in the line of the purchase it belongs to: no action of its own
    verb_specs = (VerbSpec(VERB, kind="free"),)
    component_kinds = (KIND,)
    scratch_type = CertificateScratch
    hears_component_purchases = True  # after_plain_purchase: any purchase it hears of

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        # "Jeder Spieler erhält ein Wechselscheinplättchen ... Von den Währungssteinen wird je
        # nach Spielerzahl eine bestimmte Anzahl jeder Farbe in die Mitte gelegt"
        n = stones_per_currency(len(state.players))
        scratch.stones = Counter({c: n for c in CURRENCIES})
        scratch.held = {p.name: None for p in state.players}

    def held(self, state: GameState, player: PlayerState) -> tuple[Currency, int] | None:
        return self.data(state).held.get(player.name)

    def view(self, state: GameState) -> dict[str, Any]:
        """The stones in the middle and each player's certificate."""
        data = self.data(state)
        return self.shown(
            {"stones in the middle": _stones_text(data.stones)},
            {p.name: {"certificate": credit_code(data.held.get(p.name))} for p in state.players},
        )

    # ------------------------------------------------------- purchase pipeline

    @staticmethod
    def _paid(purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    @refines(Decision.PAY_VALUE)
    def credit_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Diesen Betrag kann der Spieler nun für einen Kauf einsetzen ... genauso wie bei
        einer Geldkarte gleicher Höhe": a stored amount of a currency that may pay counts."""
        refs = self._paid(purchase)
        if not refs or purchase.field is None:
            return value
        allowed = allowed_currencies(ctx, purchase)
        for ref in refs:
            credit = parse_credit(ref)
            # as a money card: one of the field's own currency counts even when a module bars
            # it (diamonds: reported as DIAMOND-MIX)
            if (
                credit is not None
                and credit[1] <= max_stored()
                and (credit[0] in allowed or credit[0] is purchase.field)
            ):
                value += credit[1]
        return value

    @refines(Decision.PAY_PROBLEMS)
    def credit_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """The amount is stored on the payer's certificate and its currency may pay."""
        refs = self._paid(purchase)
        if not refs or purchase.field is None:
            return found
        out = list(found)
        a = purchase.action
        held = self.held(ctx.state, player)
        allowed = allowed_currencies(ctx, purchase)
        for ref in refs:
            pos = ref.pos or a.pos
            token = f"{ref.kind}:{ref.name}"
            credit = parse_credit(ref)
            if credit is None or credit[1] > max_stored():
                out.append(problem("CERTIFICATE-TOKEN", pos, player.name, token=token))
                continue
            if credit != held:
                out.append(
                    problem(
                        "CERTIFICATE-NOT-HELD",
                        pos,
                        player.name,
                        token=token,
                        held=credit_code(held),
                    )
                )
            else:
                held = None  # used up: a second token is not held
            if credit[0] not in allowed and credit[0] is not purchase.field:
                out.append(
                    problem(
                        "CERTIFICATE-CURRENCY",
                        pos,
                        player.name,
                        token=token,
                        field=purchase.field.code,
                    )
                )
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Nach dem Einsetzen wird der Währungsstein wieder in die Mitte gelegt"; and the
        purchase's overpayment is kept for a ``certificate`` line that stores it."""
        state = ctx.state
        data = self.data(state)
        player = purchase.player
        line = purchase.action.pos.line
        for ref in self._paid(purchase):
            credit = parse_credit(ref)
            if credit is not None and credit == data.held.get(player.name):
                data.held[player.name] = None
                data.stones[credit[0]] += 1
                data.spent.append((player.name, credit_code(credit), line))
        # (the tile itself: written only when a finding names it, _tile_text)
        tile = purchase.tile if purchase.tile is not None else fmt_ref(purchase.action.tile)
        data.pending[player.name] = (line, overpaid(ctx, purchase), tile, _turn_mark(state))

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[Any, ...],
        allowed: frozenset[Any],
        price: int,
    ) -> tuple[int, bool] | None:
        """A purchase paid with the amount stored on the payer's certificate besides money
        cards, which :meth:`credit_problems` passes and :meth:`credit_value` counts whole: one
        token, a stored amount (at most :func:`max_stored`) the payer holds, of a currency
        that may pay. Its amount; exact as the base rule has it. The stone goes back by
        :meth:`spend_plain_components`, the overpayment is kept by
        :meth:`after_plain_purchase`, as :meth:`on_purchase` does both."""
        if len(refs) != 1:
            return None  # CERTIFICATE-NOT-HELD for the second token
        credit = parse_credit(refs[0])
        if credit is None or credit[1] > max_stored():
            return None  # CERTIFICATE-TOKEN
        data = state.modules.get(self.name)
        if data is None or credit != data.held.get(player.name):
            return None  # CERTIFICATE-NOT-HELD
        if credit[0] not in allowed:
            return None  # CERTIFICATE-CURRENCY (the field's own currency barred: not told)
        return credit[1], False

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> None:
        """:meth:`on_purchase`'s first half for a purchase :meth:`plain_components` passed: the
        stone back into the middle, the certificate empty (:meth:`after_plain_purchase` keeps
        the overpayment)."""
        data = self.data(state)
        credit = parse_credit(refs[0])
        if credit is not None and credit == data.held.get(player.name):
            data.held[player.name] = None
            data.stones[credit[0]] += 1
            data.spent.append((player.name, credit_code(credit), action.pos.line))

    leaves_plain_purchases = True  # its leaves_plain_purchase: yes to every plain purchase

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no credit paid: the refinements pass; after_plain_purchase keeps it

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass (money cards only): its
        overpayment kept for a ``certificate`` line."""
        # (heard at every plain purchase: self.data(state) without its call once it exists;
        # buy.overpaid and _turn_mark(state) worked out inline, the tile written when read)
        over = buy.total - buy.price
        t = state.turn
        (state.modules.get(self.name) or self.data(state)).pending[buy.player.name] = (
            buy.action.pos.line,
            0 if buy.exact or over < 0 else over,
            buy.tile,
            2 * state.turn_no + (t is not None and t.interrupt is None),
        )

    # ---------------------------------------------------------------- storing

    def _credit(self, state: GameState, player: PlayerState, action: ModuleAction) -> Any:
        """What a ``certificate`` line stores: the credit (None: no credit token), the
        purchase of the line whose overpayment it stores (None: none), and the stones in the
        middle once the old stone went back."""
        data = state.modules.get(self.name) or self.data(state)
        credit = parse_credit(action.args[0].value) if len(action.args) == 1 else None
        pending = _kept(data, state, player.name)
        if pending is not None and pending[0] != action.pos.line:
            pending = None
        stones = Counter(data.stones)
        held = data.held.get(player.name)
        if held is not None:
            stones[held[0]] += 1  # as played: the old stone went back
        return credit, pending, held, stones

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        """ "Wenn ein Spieler beim Kauf ... überbezahlt, darf er den überbezahlten Betrag
        (maximal 6) ... auf seinem Wechselschein ... markieren": the token, the purchase of
        the line and its overpayment, the amount, the certificate empty, a stone left."""
        pos = action.pos
        who = player.name
        if len(action.args) != 1:
            shown = " ".join(token_text(a.value) for a in action.args) or NOTHING
            return [problem("CERTIFICATE-TOKEN", pos, who, token=shown)]
        apos = action.args[0].pos or pos
        credit, pending, held, stones = self._credit(ctx.state, player, action)
        if credit is None:
            return [problem("CERTIFICATE-TOKEN", apos, who, token=token_text(action.args[0].value))]
        token = credit_code(credit)
        cur, amount = credit
        over = pending[1] if pending is not None else None
        too_much = max(amount, over or 0)
        out: list[Finding] = []
        if pending is None:
            reason = "no-purchase"
        elif over is None:
            reason = "unknown"
        elif over == 0:
            reason = "exact"
        else:
            reason = ""
        if reason:
            tile: dict[str, Any] = {} if pending is None else {"tile": _tile_text(pending[2])}
            out.append(
                problem("CERTIFICATE-NO-OVERPAY", apos, who, reason=reason, token=token, **tile)
            )
        elif pending is not None and too_much <= max_stored() and amount != over:
            out.append(
                problem(
                    "CERTIFICATE-AMOUNT",
                    apos,
                    who,
                    amount=amount,
                    tile=_tile_text(pending[2]),
                    over=over,
                )
            )
        if too_much > max_stored():
            out.append(problem("CERTIFICATE-OVER-6", apos, who, token=token, over=too_much))
        if held is not None:
            out.append(
                problem("CERTIFICATE-OCCUPIED", apos, who, token=token, held=credit_code(held))
            )
        if stones[cur] <= 0:
            out.append(
                problem(
                    "CERTIFICATE-NO-STONE",
                    apos,
                    who,
                    token=token,
                    currency=cur.code,
                    stones=_stones_text(stones),
                )
            )
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The stone of the credit's currency goes onto the certificate (the old one back to
        the middle); one stone per purchase."""
        credit, pending, _held, stones = self._credit(state, player, action)
        if credit is None:
            return []
        data = self.data(state)
        if pending is not None:
            del data.pending[player.name]
        if stones[credit[0]] > 0:
            stones[credit[0]] -= 1
        data.stones = stones
        data.held[player.name] = credit
        data.stored.append((player.name, credit_code(credit), action.pos.line))
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``certificate ws:De5`` (or ``certificate none``) in a player's section of a position."""
        if player is None or line.verb.lower() != VERB or len(line.args) != 1:
            return False
        data = self.data(state)
        value = line.args[0].value
        old = data.held.get(player.name)
        if old is not None:
            data.stones[old[0]] += 1
            data.held[player.name] = None
        if str(value).lower() in ("none", "empty", "leer", "keiner"):
            return True
        credit = parse_credit(value)
        pos = line.args[0].pos or line.pos
        if credit is None or credit[1] > max_stored():
            state.flag("CERTIFICATE-TOKEN", pos, player.name, token=token_text(value))
            return True
        if data.stones[credit[0]] <= 0:
            state.flag(
                "CERTIFICATE-NO-STONE",
                pos,
                player.name,
                token=credit_code(credit),
                currency=credit[0].code,
                stones=_stones_text(data.stones),
            )
        else:
            data.stones[credit[0]] -= 1
        data.held[player.name] = credit
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``certificate ws:De5`` in the section of a player whose certificate holds a credit
        (an empty certificate, the start, needs no line). The stones in the middle follow from
        the certificates held; which credits were stored and spent before is history a
        position does not state (nor need: "Auf einem Wechselschein kann nur ein Währungsstein
        platziert werden")."""
        if player is None:
            return []
        credit = self.data(state).held.get(player.name)
        if credit is None:
            return []
        return [ModuleAction(VERB, (GenericArg(ComponentRef(KIND, credit_code(credit)[3:])),))]

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Storing the latest purchase's overpayment (1-6) with each stone in the middle, when
        the certificate is empty; and each purchase paid with the stored amount, where its
        currency may pay, reaching the price with neither a superfluous card nor a superfluous
        credit."""
        from referee.engine.actions.purchase import payments
        from referee.engine.legal import card_ref, tile_ref

        state = ctx.state
        data = self.data(state)
        out: list[Any] = []
        held = data.held.get(player.name)
        pending = _kept(data, state, player.name)
        t = state.turn
        if (
            pending is not None
            and held is None
            and t is not None
            and pending[1] is not None
            and 1 <= pending[1] <= max_stored()
        ):
            for cur in CURRENCIES:
                if data.stones[cur] > 0:
                    ref = ComponentRef(KIND, f"{cur.code}{pending[1]}")
                    out.append(ModuleAction(VERB, (GenericArg(ref),)))
        if held is None:
            return out
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        token = ComponentRef(KIND, f"{held[0].code}{held[1]}")
        for cur, tile, allowed, price in market_probes(ctx, player, (token,)):
            if held[0] not in allowed:
                continue
            need = price - held[1]
            if need <= 0:
                out.append(Buy(cur, tile_ref(tile), (token,)))
                continue
            for pay in payments(hand, allowed, need):
                if sum(c.value for c in pay) >= price:
                    continue  # the credit would be superfluous
                paid: tuple[Any, ...] = (*(card_ref(c) for c in pay), token)
                out.append(Buy(cur, tile_ref(tile), paid))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a purchase with the stored amount (it is money like any card)."""
        if sim.rng.random() >= 0.5:
            return []
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and any(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
        ]
