"""Die Baustellen (building sites): buy a building for half its price, finish it later.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE BAUSTELLEN.

Notation (see ``baustellen.yaml`` and ``docs/modules.md``):

* ``8. Ben: buy Du T13 pay Du7 bs:hidden, place T13@0,2`` -- a purchase with a site token in
  its payment is a half-price purchase ("Einrichten der Baustelle"): at least half the price
  (rounded down), never exact; the kept site's back is hidden from the others (``bs:hidden``,
  the record's ``?`` for a site) or written as the recorder saw it (``bs:De``).
* ``20. Ben: complete T13 bs:De pay De9 De4`` -- the action "Fertigstellung des Gebäudes": the
  full printed price in the currency of the site's back (now shown); exact gives another
  action; the site leaves the game.
* ``* sites Ben bs:De bs:Gu`` -- after the game end, before ``distribute``: the backs of every
  site in Ben's Alhambra are revealed; his hand cards of those currencies are worthless and
  discarded.
* ``sites T13 bs:De`` in a player's section of a position block: that tile carries a site.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat

from referee.catalogue import ALL_MONEY_CARDS, Currency, MoneyCard, Side, TileKind, catalogue
from referee.engine.actions.purchase import Purchase, payment_value, payments, spend_cards
from referee.engine.context import Context
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.payment import (
    Mix,
    Payment,
    PaymentTerms,
    payment_findings,
    plan_payment,
)
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, Phase, PlayerState, decrement
from referee.engine.turns import Moment, Settle, main_action_findings, start_main_action
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    arg_player,
    bundled,
    module_data,
    pieces_in_order,
    section,
)
from referee.record.model import (
    Buy,
    CardRef,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    TileRef,
)
from referee.scoring import CountAdjustment, ScoringParts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

S_FINISH = section("DIE BAUSTELLEN", "Fertigstellung des Gebäudes")

KIND = "bs"
HIDDEN = ("hidden", "verdeckt")
COMPLETE_VERB = "complete"
REVEAL_VERB = "sites"
COMPLETED_WORD = "completed"
WORTHLESS_WORD = "worthless"
NONE_WORD = "none"
ORIGIN_CELL = Coord(0, 0)  # the fountain
CURRENCIES = {c.code: c for c in Currency}
_BACKS = {code.lower(): code for code in CURRENCIES}  # read in any case (``_back``)


def per_currency() -> int:
    return int(module_data("baustellen")["components"]["site_tiles"]["per_currency"])


def site_count() -> int:
    return int(module_data("baustellen")["components"]["site_tiles"]["count"])


def _card_order(card: MoneyCard) -> tuple[int, int]:
    """A money card's place in the cards' order (a position block writes a hand in it)."""
    return card.sort_key


@dataclass(frozen=True, slots=True)
class SitePiece:
    """A bought tile with a building site on it: its walls count, the building does not
    ("zählen die Mauern bei einer Wertung mit, nicht aber das Gebäude"), so ``type`` is None.
    It is named by the tile it carries (``carried_tile``: ``place T13@0,2``)."""

    carried_tile: TileKind
    back: str | None = None  # the currency on the site's back; None: hidden from the record

    @property
    def walls(self) -> frozenset[Side]:
        return self.carried_tile.walls

    type = None  # its building does not count: a class attribute (read without a call)

    @property
    def code(self) -> str:
        return "~" + self.carried_tile.code

    def __str__(self) -> str:
        return self.code

    def matches(self, ref: ComponentRef) -> bool:
        return False

    def shown(self) -> str:
        return f"{self.code} {KIND}:{self.back or '?'}"


@dataclass
class SiteScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    set_up: int = 0  # sites taken from the stack (in play or completed)
    seen: Counter[str] = field(default_factory=Counter)  # backs known, by currency
    completed: list[tuple[int, str, str, str]] = field(
        default_factory=list
    )  # turn, who, tile, back
    revealed: dict[str, list[str]] = field(default_factory=dict)  # player -> backs at the end
    worthless: dict[str, list[str]] = field(default_factory=dict)  # player -> cards discarded


def _site_refs(purchase: Purchase) -> list[ComponentRef]:
    paid = purchase.action.paid
    # asked four times a purchase (price, exactness, problems, after it): a payment of money
    # cards only (no component at all, told in C) names no site either
    if not any(map(isinstance, paid, repeat(ComponentRef))):
        return []
    return [r for r in paid if isinstance(r, ComponentRef) and r.kind.lower() == KIND]


def _site_refs_kept(purchase: Purchase, kept: list[Any]) -> list[ComponentRef]:
    """:func:`_site_refs`, kept for the payment it was last asked of (``kept``: [the payment,
    its refs]; a payment is a tuple of immutable references, so the same tuple names the same
    sites): asked four times a purchase, it walks the payment once. Read only."""
    paid = purchase.action.paid
    if paid is kept[0]:
        refs: list[ComponentRef] = kept[1]
        return refs
    refs = _site_refs(purchase)
    kept[0], kept[1] = paid, refs
    return refs


def _cell_order(item: tuple[Coord, object]) -> tuple[int, int]:
    """The order in which sites are listed: by the cell's x, then y."""
    return (item[0].x, item[0].y)


def _sites_in(alhambra: Any) -> list[tuple[Coord, SitePiece]]:
    """The (cell, site) pairs of an Alhambra in :func:`_cell_order`: ``[(at, piece) for at,
    piece in sorted(alhambra.items(), key=_cell_order) if isinstance(piece, SitePiece)]``,
    the kit's :func:`pieces_in_order` (no two cells share a place in the order, so both give
    the same list; tests/test_module_baustellen.py holds the two equal)."""
    return pieces_in_order(alhambra, SitePiece, _cell_order)


def _replace_in_place(player: PlayerState, at: Coord, piece: object) -> None:
    """Put ``piece`` on the cell ``at`` keeping the Alhambra's order of cells (the order a
    position writes them in), so that a position read back writes the same lines."""
    alh = player.alhambra
    cells = [c for c, _p in alh.items() if c != ORIGIN_CELL]
    later = []
    for c in cells[cells.index(at) :]:
        # a piece of two cells (a Großprojekt) once, from its anchor; the walls added to a
        # piece go with it
        if c in alh and alh.anchor_of(c) == c:
            later.append((c, *alh.remove_with_overlay(c)))
    alh.place(at, piece)  # type: ignore[arg-type]
    for c, p, added in later[1:]:
        alh.place_with_overlay(c, p, added)


def _tile_ref(tile: TileKind) -> TileRef:
    return TileRef(tile.type, tile.price, tile.walls, (tile,))


def _back(name: str) -> tuple[bool, str | None]:
    """(valid, currency code or None for hidden)."""
    low = name.lower()
    if low in HIDDEN:
        return True, None
    code = _BACKS.get(low)  # the currency whose code is ``low`` in any case
    return (False, None) if code is None else (True, code)


def _printed(purchase: Purchase) -> int | None:
    if purchase.tile is not None:
        return purchase.tile.price
    ref = purchase.action.tile
    return ref.price if isinstance(ref, TileRef) else None


@dataclass(frozen=True, slots=True)
class _Completion:
    """A completion line resolved against the state: where the site lies (a cell or a reserve
    index) and its piece, the tile as messages name it, the back token named (whether it is a
    site's back, which), the back that counts, and the payment's plan."""

    where: tuple[Coord | int, SitePiece] | None
    piece: SitePiece | None
    tile_text: str
    named: GenericArg | None
    named_ok: bool
    named_back: str | None
    back: str | None
    plan: Payment


@bundled
class Baustellen(BundledModule):
    """Eight site tiles: any building may be bought for half its price with a site on it; the
    site counts for walls only until it is completed for the full price in its back's currency;
    at the end the sites make hand cards of their currencies worthless."""

    purchases_by_components = True  # its purchase refinements read only its own pieces

    verb_specs = (VerbSpec(COMPLETE_VERB),)
    chance_verbs = (REVEAL_VERB,)
    component_kinds = (KIND,)
    scratch_type = SiteScratch

    def __init__(self) -> None:
        super().__init__()
        # the payment the sites were last picked out of, and its sites (_site_refs_kept)
        self._refs_kept: list[Any] = [None, []]
        # True while switch half=asked asks the price stage without this module's halving
        self._asking = False

    # ------------------------------------------------------------------ rules

    @refines(Decision.PAY_PRICE)
    def site_price(
        self, ctx: Context, price: int, *, player: Any, purchase: Purchase, **_: Any
    ) -> int:
        """ "Der Spieler zahlt mindestens die Hälfte des geforderten Kaufpreises (abgerundet)".
        A payment below it is reported once, as SITE-HALF-PRICE (the price stage then asks no
        more than was paid)."""
        if self._asking or not _site_refs_kept(purchase, self._refs_kept):
            return price
        half = price // 2
        if purchase.field is None:
            return half
        if purchase.unknown_paid:
            return half  # an unknown card: the amount is not known
        # what the payment counts for, through the pipeline (diamonds, coins ... count too:
        # "Diamanten ... können zur Einrichtung und Fertigstellung einer Baustelle eingesetzt
        # werden")
        paid = payment_value(ctx, purchase)
        return min(half, paid)

    def _asked(self, ctx: Context, player: Any, purchase: Purchase, printed: int) -> int:
        """The price asked of a site purchase once every other module has lowered it (switch
        ``half=asked``; Handwerker's Schreiner: "Verringert beim Bezahlen den Kaufpreis ... um 1
        oder 2", L3131-3133): the price stage asked again with this module's halving left out."""
        self._asking = True
        try:
            return int(
                ctx.decide(Decision.PAY_PRICE, player=player, purchase=purchase, printed=printed)
            )
        finally:
            self._asking = False

    @refines(Decision.PAY_EXACT)
    def site_never_exact(self, ctx: Context, exact: bool, *, purchase: Purchase, **_: Any) -> bool:
        """ "Ein solcher Kauf gilt immer als unpassend bezahlt." """
        return False if _site_refs_kept(purchase, self._refs_kept) else exact

    @refines(Decision.PAY_PROBLEMS)
    def site_problems(
        self,
        ctx: Context,
        found: list[Finding],
        *,
        player: PlayerState,
        purchase: Purchase,
        **_: Any,
    ) -> list[Finding]:
        refs = _site_refs_kept(purchase, self._refs_kept)
        if not refs:
            return found
        out = list(found)
        state = ctx.state
        pos = refs[0].pos or purchase.action.pos
        if len(refs) > 1:
            out.append(
                problem(
                    "SITE-TOKEN", refs[1].pos or pos, player.name, reason="several", n=len(refs)
                )
            )
        ok, back = _back(refs[0].name)
        if not ok:
            out.append(
                problem(
                    "SITE-TOKEN", pos, player.name, reason="name", token=f"{KIND}:{refs[0].name}"
                )
            )
        data = self.data(state)
        if data.set_up >= site_count():
            out.append(problem("SITE-NONE-LEFT", pos, player.name))
        if back is not None and data.seen[back] >= per_currency():
            out.append(
                problem("SITE-SUPPLY", pos, player.name, currency=back, seen=data.seen[back] + 1)
            )
        if state.turn is not None and state.turn.interrupt is not None:
            out.append(problem("SITE-VIZIER", pos, player.name))
        printed = _printed(purchase)
        # the value paid, not the price asked: another module may lower the price after this
        # one (Handwerker's Schreiner, "Verringert beim Bezahlen den Kaufpreis ... um 1 oder
        # 2", L3131-3133), and a payment of at least half the printed price is always enough
        paid = purchase.price
        if paid is not None and purchase.field is not None and not purchase.unknown_paid:
            paid = payment_value(ctx, purchase)
        # switch half: "die Hälfte des geforderten Kaufpreises" is half the printed price
        # (printed, the default) or half the price asked once another module lowered it (asked)
        asked = printed
        if printed is not None and self.option("half") == "asked":
            asked = self._asked(ctx, player, purchase, printed)
        if asked is not None and paid is not None and paid < asked // 2:
            tile = purchase.tile.code if purchase.tile is not None else str(printed)
            # the price asked when a module lowered it (switch half=asked), else the printed one
            lowered: dict[str, Any] = {} if asked == printed else {"asked": asked}
            out.append(
                problem(
                    "SITE-HALF-ASKED" if lowered else "SITE-HALF-PRICE",
                    purchase.action.pos,
                    player.name,
                    paid=paid,
                    tile=tile,
                    half=asked // 2,
                    **lowered,
                    price=printed,
                )
            )
        if purchase.tile is None:
            out.append(problem("SITE-TOKEN", pos, player.name, reason="unknown-tile"))
        elif getattr(purchase.tile, "never_site", False):
            # "Feldlager ... und Bazare können nicht als Baustellen eingerichtet werden": the
            # piece says so itself (ModulePiece.never_site), no module is named here
            tile = str(getattr(purchase.tile, "code", purchase.tile))
            out.append(problem("SITE-PIECE", pos, player.name, tile=tile))
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """The kept site is put on the bought building ("legt es mit der Baustellenseite nach
        oben auf das angezahlte Gebäude"): the tile becomes a site piece."""
        refs = _site_refs_kept(purchase, self._refs_kept)
        if not refs:
            return
        data = self.data(ctx.state)
        data.set_up += 1
        _ok, back = _back(refs[0].name)
        if back is not None:
            data.seen[back] += 1
        if isinstance(purchase.tile, TileKind):
            purchase.tile = SitePiece(purchase.tile, back)

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[MoneyCard, ...],
        allowed: frozenset[Currency],
        price: int,
    ) -> tuple[int, bool, int] | None:
        """A half-price purchase setting up a site (a catalogue tile from a market field, paid
        with money cards of the hand that may pay, and this module is the only one taking part)
        that :meth:`site_problems` passes: one site token, a back named or hidden, a site left
        in the stack and of that back, no vizier's purchase, the cards worth at least half the
        price (``price``: the base layer's answer, the printed price). The site is no money
        (nothing added), the price is half (:meth:`site_price`: the payment is at least that),
        never exact (:meth:`site_never_exact`)."""
        if len(refs) != 1:
            return None  # SITE-TOKEN (several)
        ok, back = _back(refs[0].name)
        if not ok:
            return None  # SITE-TOKEN (name)
        data = state.modules.get(self.name)
        if data is not None:
            if data.set_up >= site_count():
                return None  # SITE-NONE-LEFT
            if back is not None and data.seen[back] >= per_currency():
                return None  # SITE-SUPPLY
        t = state.turn
        if t is not None and t.interrupt is not None:
            return None  # SITE-VIZIER
        half = price // 2
        if sum([c.value for c in cards]) < half:
            return None  # SITE-HALF-PRICE
        return 0, False, half

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> SitePiece:
        """:meth:`on_purchase` for a purchase :meth:`plain_components` passed: the site leaves
        the stack onto the tile, which waits to be placed as a site piece."""
        data = self.data(state)
        data.set_up += 1
        _ok, back = _back(refs[0].name)
        if back is not None:
            data.seen[back] += 1
        return SitePiece(tile, back)

    # ------------------------------------------------------------ completing

    def _completion(self, ctx: Context, player: PlayerState, action: ModuleAction) -> _Completion:
        """``complete T13 bs:De pay De9 De4`` resolved against the state (nothing changed):
        the site, the back named, and the payment through the payment service -- the full
        printed price ("Es wird der komplette Kaufpreis fällig") in the back's currency, module
        money included ("Diamanten ... können zur Einrichtung und Fertigstellung einer
        Baustelle eingesetzt werden"), the same stages and codes as a market purchase."""
        args = [
            a for a in action.args if not (isinstance(a.value, str) and a.value.lower() == "pay")
        ]
        tref = args[0].value if args and isinstance(args[0].value, TileRef) else None
        where = self._find(player, tref)
        piece = where[1] if where is not None else None
        tile_text = piece.carried_tile.code if piece is not None else _ref_text(tref)
        named = [
            a
            for a in args[1:]
            if isinstance(a.value, ComponentRef) and a.value.kind.lower() == KIND
        ]
        ok, back = _back(named[0].value.name) if named else (True, None)  # type: ignore[union-attr]
        if not ok or back is None:
            back = None
        shown = back
        if back is None and piece is not None:
            back = piece.back
        paid = [
            a.value
            for a in args[1:]
            if isinstance(a.value, CardRef | ComponentRef) and a not in named
        ]
        price = piece.carried_tile.price if piece is not None else None
        cur = CURRENCIES.get(back) if back is not None else None  # Currency(back): code = value
        terms = PaymentTerms(
            price or 0, tile_text, currency=cur, mix=Mix.FIELD, superfluous=False, source=S_FINISH
        )
        plan = plan_payment(ctx, player, paid, terms, action.pos)
        return _Completion(
            where, piece, tile_text, named[0] if named else None, ok, shown, back, plan
        )

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The action "Fertigstellung des Gebäudes" (pure): a main action, a site on the named
        tile, its back named as set up, the payment."""
        state = ctx.state
        pos = action.pos
        out = main_action_findings(state, pos, player, Text("ACTION/completing-site"))
        done = self._completion(ctx, player, action)
        name = player.name
        if done.where is None:
            sites = self._sites_text(player) or Text("WORD/none")
            out.append(problem("SITE-NOT-FOUND", pos, name, tile=done.tile_text, sites=sites))
        piece = done.piece
        if done.named is None:
            out.append(problem("SITE-BACK", pos, name, reason="missing", tile=done.tile_text))
        else:
            npos = done.named.pos or pos
            back = done.named_back
            if not done.named_ok or back is None:
                token = _ref_text(done.named.value)
                out.append(problem("SITE-TOKEN", npos, name, reason="name", token=token))
            elif piece is not None and piece.back is not None and piece.back != back:
                out.append(
                    problem(
                        "SITE-BACK",
                        npos,
                        name,
                        reason="other",
                        tile=done.tile_text,
                        known=piece.back,
                        named=back,
                    )
                )
            elif piece is not None and piece.back is None:
                seen = self.data(state).seen[back] + 1
                if seen > per_currency():
                    out.append(problem("SITE-SUPPLY", npos, name, currency=back, seen=seen))
        paid = payment_findings(ctx, done.plan)
        if any(f.code == "PAY-CURRENCY" for f in paid):
            # one mistake, one finding: the card of another currency is the fault, the
            # shortfall it leaves is not reported again
            paid = [f for f in paid if f.code != "BUY-UNDERPAID"]
        return out + paid

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The completion carried out (no checks): the cards paid, the site's back now known,
        the building in place of the site ("Das Baustellenplättchen kommt nach der
        Fertigstellung eines Gebäudes aus dem Spiel"); only an exact payment lets the turn go
        on ("Wird dieser Preis passend bezahlt, ist der Spieler noch einmal am Zug")."""
        ctx = Context(state, action.pos)
        start_main_action(state)
        done = self._completion(ctx, player, action)
        piece = done.piece
        if piece is not None and piece.back is None and done.named_back is not None:
            self.data(state).seen[done.named_back] += 1
        plan = done.plan
        total = payment_value(ctx, plan)
        # the cards to the discard pile; module money where its module puts it. A completion is
        # no "Gebäudekauf": only the modules whose money was paid hear of it (Wechselgeld's
        # change, "Überzahlt ein Spieler beim Gebäudekauf", is not due)
        spend_cards(state, player, plan.steps)
        owners = {id(m): m for r in plan.modules_paid if (m := state.ext.kind_handler(r.kind))}
        for m in owners.values():
            m.on_purchase(ctx, plan)
        if done.where is not None and piece is not None:
            place, _ = done.where
            tile = piece.carried_tile
            if isinstance(place, Coord):
                player.alhambra.remove(place)
                player.alhambra.place(place, tile)
            else:
                player.reserve_set(place, tile)
            self.data(state).completed.append(
                (state.turn_no, player.name, tile.code, done.back or "?")
            )
        price = piece.carried_tile.price if piece is not None else None
        if plan.unknown_paid and price is not None:
            from referee.engine.turns import turn_goes_on_unsure

            turn_goes_on_unsure(state, Text("ACTION/completing-site"))
        elif price is None or plan.unknown_paid or total != price:
            paid = Text(
                "ACTION/completing-site-paid", total=total, tile=done.tile_text, price=price or "?"
            )
            ctx.end_main_action(paid)
        return []

    @staticmethod
    def _find(player: PlayerState, ref: TileRef | None) -> tuple[Coord | int, SitePiece] | None:
        """Where a site on the named tile lies: a cell of the Alhambra, else a reserve index."""

        def fits(piece: object) -> bool:
            return isinstance(piece, SitePiece) and (
                ref is None or not ref.known or piece.carried_tile in ref.candidates
            )

        for at, piece in _sites_in(player.alhambra):
            if fits(piece):
                return at, piece
        for i, held in enumerate(player.reserve):
            if fits(held):
                assert isinstance(held, SitePiece)
                return i, held
        return None

    @staticmethod
    def sites_of(
        player: PlayerState, reserve: bool = False
    ) -> list[tuple[Coord | None, SitePiece]]:
        out: list[tuple[Coord | None, SitePiece]] = list(_sites_in(player.alhambra))
        if reserve:
            out += [(None, p) for p in player.reserve if isinstance(p, SitePiece)]
        return out

    @staticmethod
    def sites_bought(state: GameState, player: PlayerState) -> list[SitePiece]:
        """The sites on buildings ``player`` bought in the open turn and did not place yet."""
        t = state.turn
        if t is None or state.players[t.player] is not player:
            return []
        return [p for p in t.pending if isinstance(p, SitePiece)]

    def _sites_text(self, player: PlayerState) -> str:
        return "; ".join(
            f"{piece.shown()}{'@' + str(at) if at is not None else ' (reserve)'}"
            for at, piece in self.sites_of(player, reserve=True)
        )

    def _seen(self, state: GameState, back: str, pos: Pos, who: str | None) -> None:
        data = self.data(state)
        data.seen[back] += 1
        if data.seen[back] > per_currency():
            state.flag("SITE-SUPPLY", pos, who, currency=back, seen=data.seen[back])

    # ------------------------------------------------------------- game end

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* sites Anna bs:De bs:Gu``: the backs of Anna's sites, revealed at the end."""
        pos = event.pos
        if not event.args:
            state.flag("SITE-REVEAL", pos, reason="syntax")
            return []
        who = arg_player(state, event.args[0])
        if who.player is None:
            state.flag("UNKNOWN-PLAYER", who.pos or pos, who.name, players=", ".join(state.names))
            return []
        p = who.player
        ctx = Context(state)
        ctx.settle_before(pos, Settle.DISTRIBUTION)  # the last refill is closed: is the game over?
        if not (state.game_over or state.maybe_over) or state.distributed:
            state.flag("SITE-REVEAL", pos, p.name, reason="timing")
        data = self.data(state)
        if p.name in data.revealed:
            state.flag("SITE-REVEAL", pos, p.name, reason="twice")
            return []
        backs: list[str] = []
        for arg in event.args[1:]:
            ok, back = (
                _back(arg.value.name) if isinstance(arg.value, ComponentRef) else (False, None)
            )
            if not ok or back is None:
                state.flag(
                    "SITE-TOKEN", arg.pos or pos, p.name, reason="name", token=_ref_text(arg.value)
                )
                continue
            backs.append(back)
        self._reveal(state, p, backs, pos)
        return []

    def _reveal(self, state: GameState, p: PlayerState, backs: list[str], pos: Pos) -> None:
        """The sites in ``p``'s Alhambra show ``backs``; hand cards of those currencies are
        discarded ("sind jetzt wertlos und werden abgeworfen"). Sites in the reserve are
        ignored ("Baustellen in der Reserve werden nicht beachtet")."""
        data = self.data(state)
        sites = self.sites_of(p)
        if len(backs) != len(sites):
            state.flag(
                "SITE-REVEAL",
                pos,
                p.name,
                reason="count",
                n=len(backs),
                m=len(sites),
                sites=self._sites_text(p) or Text("WORD/none"),
            )
        left = Counter(backs)
        known = Counter(s.back for _, s in sites if s.back is not None)
        if known - left:
            state.flag(
                "SITE-REVEAL",
                pos,
                p.name,
                reason="other",
                named=" ".join(f"{KIND}:{b}" for b in backs) or "-",
                known=" ".join(f"{KIND}:{b}" for b in sorted(known.elements())),
            )
        rest = left - known
        for at, site in sites:  # the hidden sites take the backs not yet accounted for
            if site.back is None and rest and at is not None:
                back = sorted(rest.elements())[0]
                rest[back] -= 1
                rest = +rest
                self._seen(state, back, pos, p.name)
                p.alhambra.remove(at)
                p.alhambra.place(at, SitePiece(site.carried_tile, back))
        data.revealed[p.name] = list(backs)
        worthless = set(backs)
        # in the cards' order (as a hand is written): a hand is a set, not the order taken
        gone: list[MoneyCard] = sorted(
            (c for c in p.hand.elements() if c.currency.code in worthless), key=_card_order
        )
        for c in gone:
            decrement(p.hand, c)
            state.discard[c] += 1
        data.worthless[p.name] = [c.code for c in gone]

    @acts_at(Moment.LEFTOVERS_BEFORE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        if moment != Moment.LEFTOVERS_BEFORE:
            return
        state = ctx.state
        data = self.data(state)
        for p in state.players:
            if p.name in data.revealed:
                continue
            sites = self.sites_of(p)
            if not sites:
                data.revealed[p.name] = []
                continue
            backs = [s.back for _, s in sites if s.back is not None]
            if len(backs) != len(sites):
                ctx.unverifiable(
                    NOWHERE_POS, "UNVERIFIED-SITE-BACK", p.name, n=len(sites) - len(backs)
                )
            if len(backs) == len(sites):
                self._reveal(state, p, backs, NOWHERE_POS)
            else:
                self._discard_known(state, p, backs)

    def _discard_known(self, state: GameState, p: PlayerState, backs: list[str]) -> None:
        data = self.data(state)
        worthless = set(backs)
        gone = sorted(
            (c for c in p.hand.elements() if c.currency.code in worthless), key=_card_order
        )
        for c in gone:
            decrement(p.hand, c)
            state.discard[c] += 1
        data.revealed[p.name] = list(backs)
        data.worthless[p.name] = [c.code for c in gone]

    # ------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """A site building counts for walls, not as a building: shown on its own line."""
        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for p in state.players:
            out = [_site_line(at, site, CountAdjustment) for at, site in self.sites_of(p)]
            if out:
                adjustments[p.name] = tuple(out)
        return ScoringParts(adjustments)

    # ------------------------------------------------------------ positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``sites T13 bs:De G8 bs:hidden`` in a player's section: those tiles (in the Alhambra
        or the reserve) carry a site. After the word ``completed``, the buildings the player
        has completed, each with its site's back (``completed C8 bs:Di``): "Das
        Baustellenplättchen kommt nach der Fertigstellung eines Gebäudes aus dem Spiel", so
        those sites are no longer in the stack and their backs are known."""
        if player is None or line.verb.lower() != REVEAL_VERB:
            return False
        data = self.data(state)
        args = list(line.args)
        i = 0
        completed = False
        while i < len(args):
            arg = args[i]
            if isinstance(arg.value, str) and arg.value.lower() == COMPLETED_WORD:
                completed = True
                i += 1
                continue
            if isinstance(arg.value, str) and arg.value.lower() == WORTHLESS_WORD:
                self._position_worthless(state, player, args[i + 1 :], line)
                break
            back: str | None = None
            if i + 1 < len(args) and isinstance(args[i + 1].value, ComponentRef):
                _ok, back = _back(args[i + 1].value.name)  # type: ignore[union-attr]
                i += 1
            i += 1
            ref = arg.value if isinstance(arg.value, TileRef) else None
            if ref is None or not ref.known:
                state.flag(
                    "SITE-TOKEN",
                    arg.pos or line.pos,
                    player.name,
                    reason="name",
                    token=_ref_text(arg.value),
                )
                continue
            if completed:
                tile = ref.candidates[0]
                data.set_up += 1
                data.completed.append((state.turn_no, player.name, tile.code, back or "?"))
                if back is not None:
                    self._seen(state, back, arg.pos or line.pos, player.name)
                continue
            placed = False
            for at, piece in list(player.alhambra.items()):
                if isinstance(piece, TileKind) and piece in ref.candidates:
                    _replace_in_place(player, at, SitePiece(piece, back))
                    placed = True
                    break
            if not placed:
                for k, kept in enumerate(player.reserve):
                    if isinstance(kept, TileKind) and kept in ref.candidates:
                        player.reserve_set(k, SitePiece(kept, back))
                        placed = True
                        break
            t = state.turn
            if not placed and t is not None and state.players[t.player] is player:
                for k, kept in enumerate(t.pending):  # bought in the open turn, not placed yet
                    if isinstance(kept, TileKind) and kept in ref.candidates:
                        t.pending[k] = SitePiece(kept, back)
                        placed = True
                        break
            if not placed:
                state.flag(
                    "SITE-NOT-FOUND",
                    arg.pos or line.pos,
                    player.name,
                    tile=_ref_text(ref),
                    sites=self._sites_text(player) or Text("WORD/none"),
                )
                continue
            data.set_up += 1
            if back is not None:
                self._seen(state, back, arg.pos or line.pos, player.name)
        return True

    def _position_worthless(
        self, state: GameState, player: PlayerState, args: list[GenericArg], line: ModuleAction
    ) -> None:
        """``... worthless Gu5 Gu2`` (``worthless none``: no card) at the end of a finished game's
        ``sites`` line: the sites were revealed and these hand cards were discarded as
        worthless ("ist das Geld in dieser Währung wertlos"), so the position states the end as
        it was and the reveal does not happen a second time."""
        data = self.data(state)
        cards: list[str] = []
        for arg in args:
            if isinstance(arg.value, CardRef) and arg.value.card is not None:
                cards.append(arg.value.card.code)
            elif not (isinstance(arg.value, str) and arg.value.lower() == NONE_WORD):
                state.flag(
                    "SITE-TOKEN",
                    arg.pos or line.pos,
                    player.name,
                    reason="name",
                    token=_ref_text(arg.value),
                )
        data.worthless[player.name] = cards
        data.revealed[player.name] = [
            s.back for _, s in self.sites_of(player) if s.back is not None
        ]

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``sites T13 bs:De G8 bs:hidden completed C8 bs:Di`` in a player's section: the
        tiles carrying a site (in the Alhambra, then the reserve; the tiles themselves are
        written by the engine), then the buildings the player completed, in that order, with
        their sites' backs (the sites left the game: the stack and the backs known follow).
        History a position does not state: the turn of each completion, and after the game
        end the backs revealed and the hand cards discarded as worthless (the hands stated
        are those left)."""
        if player is None:
            return []
        args: list[GenericArg] = []
        pieces = [p for _at, p in self.sites_of(player, reserve=True)]
        for piece in pieces + self.sites_bought(state, player):  # (bought: a `bought` piece)
            args.append(GenericArg(_tile_ref(piece.carried_tile)))
            args.append(GenericArg(ComponentRef(KIND, piece.back or HIDDEN[0])))
        done = [(t, b) for _n, who, t, b in self.data(state).completed if who == player.name]
        if done:
            args.append(GenericArg(COMPLETED_WORD))
        for code, back in done:
            kind = next((t for t in catalogue().tiles if t.code == code), None)
            args.append(GenericArg(code if kind is None else _tile_ref(kind)))
            args.append(GenericArg(ComponentRef(KIND, HIDDEN[0] if back == "?" else back)))
        gone = self.data(state).worthless.get(player.name)
        if gone is not None and state.phase is Phase.OVER:  # the end: what became worthless
            args.append(GenericArg(WORTHLESS_WORD))
            by_code = {c.code: c for c in ALL_MONEY_CARDS}
            if gone:
                args.extend(GenericArg(CardRef(by_code[code])) for code in gone)
            else:
                args.append(GenericArg(NONE_WORD))
        return [ModuleAction(REVEAL_VERB, tuple(args))] if args else []

    # ------------------------------------------------------------ views

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            players[p.name] = {
                "sites": self._sites_text(p) or "-",
                "completed": " ".join(t for _, who, t, _ in data.completed if who == p.name) or "-",
            }
            if p.name in data.worthless:
                players[p.name]["worthless"] = " ".join(data.worthless[p.name]) or "-"
        seen = " ".join(f"{c} {data.seen[c]}" for c in CURRENCIES if data.seen[c])
        table = {"stack": site_count() - data.set_up, "backs seen": seen or "-"}
        return self.shown(table, players)

    # ------------------------------------------------------------ legal moves

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a half-price purchase that sets up a building site ("Jedes beliebige
        Gebäude ... für mindestens die Hälfte des Preises"), so simulated games use sites."""
        if sim.rng.random() >= 0.3:
            return []
        return [
            a
            for a in actions
            if isinstance(a, Buy)
            and any(isinstance(r, ComponentRef) and r.kind == KIND for r in a.paid)
        ]

    def legal_actions(self, ctx: Context, player: PlayerState) -> list[Any]:
        """Half-price purchases of every market tile (at least half, no superfluous card; the
        site's back one of those the supply still allows), and completions of the player's
        sites whose back is known."""
        state = ctx.state
        out: list[Any] = []
        data = self.data(state)
        if state.turn is not None and state.turn.interrupt is not None:
            return out
        hand = list(player.hand.elements())
        if data.set_up < site_count():
            backs = [c for c in CURRENCIES if data.seen[c] < per_currency()]
            for idx, slot in enumerate(state.market):
                if not isinstance(slot, TileKind):
                    continue
                fld = Currency.of_field(idx + 1)
                half = slot.price // 2
                if half < 1:
                    continue
                ref = TileRef(slot.type, slot.price, slot.walls, (slot,))
                for combo in payments(hand, frozenset({fld}), half):
                    if sum(c.value for c in combo) >= slot.price:
                        continue  # would pay the full price: an ordinary purchase
                    for back in backs:
                        paid: tuple[CardRef | ComponentRef, ...] = (
                            *(CardRef(c) for c in combo),
                            ComponentRef(KIND, back),
                        )
                        out.append(Buy(fld, ref, paid))
        for _at, site in self.sites_of(player, reserve=True):
            if site.back is None:
                continue
            cur = CURRENCIES[site.back]
            for combo in payments(hand, frozenset({cur}), site.carried_tile.price):
                args = (
                    GenericArg(
                        TileRef(
                            site.carried_tile.type,
                            site.carried_tile.price,
                            site.walls,
                            (site.carried_tile,),
                        )
                    ),
                    GenericArg(ComponentRef(KIND, site.back)),
                    GenericArg("pay"),
                    *(GenericArg(CardRef(c)) for c in combo),
                )
                out.append(ModuleAction(COMPLETE_VERB, args))
        return out

    def sim_before_distribution(self, sim: Any) -> list[Any]:
        """Every player with sites in the Alhambra reveals their backs."""
        out = []
        for p in sim.state.players:
            sites = self.sites_of(p)
            if sites:
                args = (
                    GenericArg(p.name),
                    *(GenericArg(ComponentRef(KIND, s.back or "hidden")) for _, s in sites),
                )
                out.append(ModuleChance(REVEAL_VERB, args))
        return out


NOWHERE_POS = Pos(0, 0)


@lru_cache(maxsize=256, typed=True)  # a site stays on its cell scoring after scoring: its line kept
def _site_line(at: Coord, site: SitePiece, make: Any) -> Any:
    """A site's line of a scoring (``make``: the scoring's CountAdjustment, a frozen record):
    the same site on the same cell gives an equal line."""
    return make(
        site.carried_tile.type,
        0,
        f"building site {site.code}@{at}: walls only, not counted",
        f"Baustelle {site.code}@{at}: nur Mauern, zählt nicht",
    )


def _ref_text(value: object) -> str:
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    if isinstance(value, TileRef):
        return (
            value.kind.code
            if value.kind is not None
            else f"{value.type.code if value.type else '?'}{value.price or ''}"
        )
    if isinstance(value, PlayerRef):
        return value.name
    return str(value) if value is not None else "?"
