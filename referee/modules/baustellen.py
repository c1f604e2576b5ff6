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
from typing import Any, ClassVar, cast

from referee.catalogue import Currency, MoneyCard, Side, TileKind, catalogue
from referee.engine.actions.purchase import (
    Purchase,
    counted_cards,
    payment_value,
    payments,
)
from referee.engine.context import Context
from referee.engine.findings import Finding, problem
from referee.engine.payment import Mix, PaymentTerms, plan_payment
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState, decrement
from referee.engine.turns import Moment, Settle
from referee.messages import Text, register_both
from referee.modules.base import (
    BundledModule,
    Scratch,
    arg_player,
    bundled,
    module_data,
    rule,
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

H = "DIE BAUSTELLEN"
S_MATERIAL = section(H, "Spielmaterial")
S_SETUP = section(H, "Einrichten der Baustelle")
S_FLOW = section(H, "Änderungen im Spielablauf")
S_FINISH = section(H, "Fertigstellung des Gebäudes")
S_END = section(H, "Spielende")
S_NOTES = section(H, "Anmerkungen")

KIND = "bs"
HIDDEN = ("hidden", "verdeckt")
COMPLETE_VERB = "complete"
REVEAL_VERB = "sites"
COMPLETED_WORD = "completed"
ORIGIN_CELL = Coord(0, 0)  # the fountain
CURRENCIES = {c.code: c for c in Currency}

rule(
    "SITE-TOKEN",
    "no such site token",
    "kein solches Baustellenplättchen",
    S_MATERIAL,
    "{detail}: a site is written bs:Gu, bs:Di, bs:De, bs:Du (its back) or bs:hidden, one per "
    "purchase",
    "{detail}: eine Baustelle wird bs:Gu, bs:Di, bs:De, bs:Du (ihre Rückseite) oder bs:hidden "
    "geschrieben, eine pro Kauf",
    reasons={
        "name": ("{token} is no site", "{token} ist keine Baustelle"),
        "several": (
            "{player} sets up {n} sites with one purchase",
            "{player} richtet mit einem Kauf {n} Baustellen ein",
        ),
        "unknown-tile": (
            "the tile bought as a site is not written",
            "das als Baustelle gekaufte Plättchen ist nicht angegeben",
        ),
    },
)
rule(
    "SITE-HALF-PRICE",
    "site: at least half the price",
    "Baustelle: mindestens der halbe Preis",
    S_SETUP,
    '{player} pays {paid} for {tile} as a building site: "Der Spieler zahlt mindestens die '
    'Hälfte des geforderten Kaufpreises (abgerundet)" ({half} of {price})',
    "{player} zahlt {paid} für {tile} als Baustelle: der Spieler zahlt mindestens die Hälfte "
    "des Kaufpreises, abgerundet ({half} von {price})",
)
rule(
    "SITE-NONE-LEFT",
    "no site tile left",
    "kein Baustellenplättchen mehr",
    S_SETUP,
    "{player} sets up a building site, but all 8 site tiles are in use or out of the game",
    "{player} richtet eine Baustelle ein, aber alle 8 Baustellenplättchen sind verbaut oder "
    "aus dem Spiel",
)
rule(
    "SITE-SUPPLY",
    "site supply",
    "Vorrat an Baustellen",
    S_MATERIAL,
    'more than 2 sites with a {currency} back turn up ({seen}): "Je 2x in jeder der 4 Währungen"',
    "mehr als 2 Baustellen mit der Rückseite {currency} tauchen auf ({seen}): je 2 pro Währung",
)
rule(
    "SITE-VIZIER",
    "no site with the vizier",
    "keine Baustelle mit dem Wesir",
    S_NOTES,
    '{player} sets up a building site with a purchase out of turn: "Der Wesir kann nicht zur '
    'Errichtung einer Baustelle eingesetzt werden"',
    "{player} richtet mit einem Kauf außerhalb des eigenen Zuges eine Baustelle ein: der Wesir "
    "kann nicht zur Errichtung einer Baustelle eingesetzt werden",
)
rule(
    "SITE-NOT-FOUND",
    "no such building site",
    "keine solche Baustelle",
    S_FINISH,
    "{player} completes {tile}, but no building site lies on {tile} in {player}'s Alhambra or "
    "reserve ({sites})",
    "{player} stellt {tile} fertig, aber auf {tile} liegt in Alhambra oder Reserve von "
    "{player} keine Baustelle ({sites})",
)
rule(
    "SITE-BACK",
    "the site's back",
    "Rückseite der Baustelle",
    S_FINISH,
    '{detail}: a site is completed in "der Währung, die die Rückseite des '
    'Baustellenplättchens zeigt"',
    "{detail}: eine Baustelle wird in der Währung fertiggestellt, die die Rückseite des "
    "Baustellenplättchens zeigt",
    reasons={
        "missing": (
            "{player} completes {tile} without naming the site's back (bs:Gu ... bs:Du)",
            "{player} stellt {tile} fertig, ohne die Rückseite zu nennen (bs:Gu ... bs:Du)",
        ),
        "other": (
            "the site on {tile} was set up as bs:{known}, not bs:{named}",
            "die Baustelle auf {tile} wurde als bs:{known} eingerichtet, nicht als bs:{named}",
        ),
    },
)
rule(
    "SITE-CURRENCY",
    "site: paid in its back's currency",
    "Baustelle: in der Währung der Rückseite",
    S_FINISH,
    "{player} pays {card} to complete {tile}: the site's back shows {currency}, and \"der volle "
    "auf dem Gebäude angegebene Preis [wird] in der Währung, die die Rückseite ... zeigt, "
    'bezahlt"',
    "{player} zahlt {card}, um {tile} fertigzustellen: die Rückseite der Baustelle zeigt "
    "{currency}, bezahlt wird in dieser Währung",
)
rule(
    "SITE-UNDERPAID",
    "site: the full price",
    "Baustelle: der volle Preis",
    S_FINISH,
    '{player} pays {paid} to complete {tile} costing {price}: "Es reicht also nicht aus, den '
    'Differenzbetrag zu zahlen. Es wird der komplette Kaufpreis fällig."',
    "{player} zahlt {paid}, um {tile} zum Preis von {price} fertigzustellen: der Differenzbetrag "
    "reicht nicht, der komplette Kaufpreis wird fällig",
)
rule(
    "SITE-NOT-HELD",
    "site: card not held",
    "Baustelle: Karte nicht auf der Hand",
    S_FINISH,
    "{player} pays {card} to complete a site but does not hold it (hand: {hand})",
    "{player} zahlt {card} für eine Baustelle, hat die Karte aber nicht (Hand: {hand})",
)
rule(
    "SITE-REVEAL",
    "sites revealed at the end",
    "Baustellen bei Spielende aufgedeckt",
    S_END,
    '{detail}: "Bevor die restlichen Gebäudeplättchen an die Spieler verteilt werden, deckt '
    'jeder Spieler alle Baustellenplättchen in der eigenen Alhambra auf"',
    "{detail}: bevor die restlichen Gebäudeplättchen verteilt werden, deckt jeder Spieler alle "
    "Baustellenplättchen in der eigenen Alhambra auf",
    reasons={
        "timing": (
            "the sites are revealed before the game has ended",
            "die Baustellen werden vor Spielende aufgedeckt",
        ),
        "twice": (
            "{player}'s sites are revealed twice",
            "die Baustellen von {player} werden zweimal aufgedeckt",
        ),
        "count": (
            "{player} reveals {n} sites, but {m} lie in the Alhambra ({sites})",
            "{player} deckt {n} Baustellen auf, in der Alhambra liegen aber {m} ({sites})",
        ),
        "other": (
            "{player} reveals {named}, but the sites in the Alhambra were set up as {known}",
            "{player} deckt {named} auf, die Baustellen in der Alhambra wurden aber als {known} "
            "eingerichtet",
        ),
        "syntax": (
            "`sites` names a player and the backs (bs:Gu bs:Di bs:De bs:Du)",
            "`sites` nennt einen Spieler und die Rückseiten (bs:Gu bs:Di bs:De bs:Du)",
        ),
    },
)


def per_currency() -> int:
    return int(module_data("baustellen")["components"]["site_tiles"]["per_currency"])


def site_count() -> int:
    return int(module_data("baustellen")["components"]["site_tiles"]["count"])


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

    @property
    def type(self) -> None:
        return None

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
    set_up: int = 0  # sites taken from the stack (in play or completed)
    seen: Counter[str] = field(default_factory=Counter)  # backs known, by currency
    completed: list[tuple[int, str, str, str]] = field(
        default_factory=list
    )  # turn, who, tile, back
    revealed: dict[str, list[str]] = field(default_factory=dict)  # player -> backs at the end
    worthless: dict[str, list[str]] = field(default_factory=dict)  # player -> cards discarded


def _site_refs(purchase: Purchase) -> list[ComponentRef]:
    return [
        r for r in purchase.action.paid if isinstance(r, ComponentRef) and r.kind.lower() == KIND
    ]


def _replace_in_place(player: PlayerState, at: Coord, piece: object) -> None:
    """Put ``piece`` on the cell ``at`` keeping the Alhambra's order of cells (the order a
    position writes them in), so that a position read back writes the same lines."""
    later = [(c, p) for c, p in player.alhambra.items() if c != ORIGIN_CELL]
    later = later[[c for c, _p in later].index(at) :]
    for c, _p in later:
        player.alhambra.remove(c)
    player.alhambra.place(at, piece)  # type: ignore[arg-type]
    for c, p in later[1:]:
        player.alhambra.place(c, p)


def _tile_ref(tile: TileKind) -> TileRef:
    return TileRef(tile.type, tile.price, tile.walls, (tile,))


def _back(name: str) -> tuple[bool, str | None]:
    """(valid, currency code or None for hidden)."""
    low = name.lower()
    if low in HIDDEN:
        return True, None
    for code in CURRENCIES:
        if low == code.lower():
            return True, code
    return False, None


def _printed(purchase: Purchase) -> int | None:
    if purchase.tile is not None:
        return purchase.tile.price
    ref = purchase.action.tile
    return ref.price if isinstance(ref, TileRef) else None


@bundled
class Baustellen(BundledModule):
    """Eight site tiles: any building may be bought for half its price with a site on it; the
    site counts for walls only until it is completed for the full price in its back's currency;
    at the end the sites make hand cards of their currencies worthless."""

    name = "baustellen"
    aliases = ("sites", "building-sites")
    title_en = "The Building Sites"
    title_de = "Die Baustellen"
    section = section(H)
    page = 30  # printed page of rulebook-bigbox-de-2019.txt: the listing order
    summary = (
        "8 site tiles (2 per currency): a building bought for at least half its price (never "
        "exact) carries a site and counts for walls only; completing it costs the full price in "
        "the site's currency; at the end the sites' currencies in hand are worthless"
    )
    summary_de = (
        "8 Baustellenplättchen (je 2 pro Währung): ein Gebäude für mindestens den halben Preis "
        "(nie passend) trägt eine Baustelle und zählt nur mit seinen Mauern; die Fertigstellung "
        "kostet den vollen Preis in der Währung der Baustelle; bei Spielende sind Handkarten in "
        "den Währungen der Baustellen wertlos"
    )
    verbs = (COMPLETE_VERB,)
    chance_verbs = (REVEAL_VERB,)
    component_kinds = (KIND,)
    scratch_type = SiteScratch

    # ------------------------------------------------------------------ rules

    @refines(Decision.PAY_PRICE)
    def site_price(
        self, ctx: Context, price: int, *, player: Any, purchase: Purchase, **_: Any
    ) -> int:
        """ "Der Spieler zahlt mindestens die Hälfte des geforderten Kaufpreises (abgerundet)".
        A payment below it is reported once, as SITE-HALF-PRICE (the price stage then asks no
        more than was paid)."""
        if not _site_refs(purchase):
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

    @refines(Decision.PAY_EXACT)
    def site_never_exact(self, ctx: Context, exact: bool, *, purchase: Purchase, **_: Any) -> bool:
        """ "Ein solcher Kauf gilt immer als unpassend bezahlt." """
        return False if _site_refs(purchase) else exact

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
        refs = _site_refs(purchase)
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
        if printed is not None and purchase.price is not None and purchase.price < printed // 2:
            tile = purchase.tile.code if purchase.tile is not None else str(printed)
            out.append(
                problem(
                    "SITE-HALF-PRICE",
                    purchase.action.pos,
                    player.name,
                    paid=purchase.price,
                    tile=tile,
                    half=printed // 2,
                    price=printed,
                )
            )
        if purchase.tile is None:
            out.append(problem("SITE-TOKEN", pos, player.name, reason="unknown-tile"))
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """The kept site is put on the bought building ("legt es mit der Baustellenseite nach
        oben auf das angezahlte Gebäude"): the tile becomes a site piece."""
        refs = _site_refs(purchase)
        if not refs:
            return
        data = self.data(ctx.state)
        data.set_up += 1
        _ok, back = _back(refs[0].name)
        if back is not None:
            data.seen[back] += 1
        if isinstance(purchase.tile, TileKind):
            purchase.tile = SitePiece(purchase.tile, back)

    # ------------------------------------------------------------ completing

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        self._complete(state, player, action)
        return []

    def _complete(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        ctx = Context(state)
        pos = action.pos
        ctx.main_action(pos, player, Text("ACTION/completing-site"))
        args = [
            a for a in action.args if not (isinstance(a.value, str) and a.value.lower() == "pay")
        ]
        tref = args[0].value if args and isinstance(args[0].value, TileRef) else None
        where = self._find(player, tref)
        tile_text = _ref_text(tref)
        if where is None:
            state.flag(
                "SITE-NOT-FOUND",
                pos,
                player.name,
                tile=tile_text,
                sites=self._sites_text(player) or Text("WORD/none"),
            )
        piece = where[1] if where is not None else None
        if piece is not None:
            tile_text = piece.carried_tile.code
        back: str | None = None
        named = [
            a
            for a in args[1:]
            if isinstance(a.value, ComponentRef) and a.value.kind.lower() == KIND
        ]
        # module money among the payment (diamonds, coins ...): "Diamanten ... können zur
        # Einrichtung und Fertigstellung einer Baustelle eingesetzt werden"
        money = [
            a.value
            for a in args[1:]
            if isinstance(a.value, ComponentRef) and a.value.kind.lower() != KIND
        ]
        if not named:
            state.flag("SITE-BACK", pos, player.name, reason="missing", tile=tile_text)
        else:
            ok, back = _back(named[0].value.name)  # type: ignore[union-attr]
            if not ok or back is None:
                state.flag(
                    "SITE-TOKEN",
                    named[0].pos or pos,
                    player.name,
                    reason="name",
                    token=_ref_text(named[0].value),
                )
                back = None
            elif piece is not None and piece.back is not None and piece.back != back:
                state.flag(
                    "SITE-BACK",
                    named[0].pos or pos,
                    player.name,
                    reason="other",
                    tile=tile_text,
                    known=piece.back,
                    named=back,
                )
            elif piece is not None and piece.back is None:
                self._seen(state, back, named[0].pos or pos, player.name)
        if back is None and piece is not None:
            back = piece.back
        # the payment: the full printed price in the back's currency
        total = 0
        unknown = 0
        wrong = 0  # cards of another currency (reported as SITE-CURRENCY, not also underpaid)
        cards = [a for a in args[1:] if isinstance(a.value, CardRef)]
        for arg in cards:
            ref = arg.value
            assert isinstance(ref, CardRef)
            apos = arg.pos or pos
            c = ref.card
            if c is None:
                if player.hand_unknown > 0:
                    player.hand_unknown -= 1
                    state.discard_unknown += 1
                    unknown += 1
                else:
                    state.flag(
                        "SITE-NOT-HELD", apos, player.name, card="?", hand=_hand_text(player)
                    )
                continue
            if back is not None and c.currency.code != back:
                wrong += 1
                state.flag(
                    "SITE-CURRENCY", apos, player.name, card=c.code, tile=tile_text, currency=back
                )
            elif back is not None or piece is None:
                total += c.value
            if player.hand[c] > 0:
                decrement(player.hand, c)
                state.discard[c] += 1
            elif player.hand_unknown > 0 and state.pool[c] > 0:
                player.hand_unknown -= 1
                decrement(state.pool, c)
                state.discard[c] += 1
            else:
                state.flag("SITE-NOT-HELD", apos, player.name, card=c.code, hand=_hand_text(player))
        price = piece.carried_tile.price if piece is not None else None
        if money:
            total += self._module_money(ctx, player, action, tref, back, price, money, cards)
        exact = False
        if price is not None:
            if unknown:
                ctx.unverifiable(pos, "UNVERIFIED-SITE-PAYMENT", player.name, tile=tile_text)
            elif total < price and not wrong:
                state.flag(
                    "SITE-UNDERPAID", pos, player.name, paid=total, tile=tile_text, price=price
                )
            exact = total == price and not unknown
        if where is not None and piece is not None:
            place, _ = where
            tile = piece.carried_tile
            if isinstance(place, Coord):
                player.alhambra.remove(place)
                player.alhambra.place(place, tile)
            else:
                player.reserve[place] = tile
            # "Das Baustellenplättchen kommt nach der Fertigstellung eines Gebäudes aus dem Spiel."
            self.data(state).completed.append((state.turn_no, player.name, tile.code, back or "?"))
        if unknown and price is not None:
            from referee.engine.turns import turn_goes_on_unsure

            turn_goes_on_unsure(state, Text("ACTION/completing-site"))
        elif not exact:
            # "Wird dieser Preis passend bezahlt, ist der Spieler noch einmal am Zug."
            ctx.end_main_action(
                Text("ACTION/completing-site-paid", total=total, tile=tile_text, price=price or "?")
            )

    @staticmethod
    def _module_money(
        ctx: Context,
        player: PlayerState,
        action: ModuleAction,
        tref: TileRef | None,
        back: str | None,
        price: int | None,
        money: list[ComponentRef],
        cards: list[GenericArg],
    ) -> int:
        """What module money pays towards a completion, through the purchase pipeline's
        decisions as for any purchase: its value (``pay.value`` beyond the cards counted), its
        modules' own rules (``pay.problems``: held, not mixed ...) and where it goes (its
        modules' ``on_purchase``). The cards themselves are counted by the caller."""
        pos = action.pos
        field = Currency(back) if back in ("Gu", "Di", "De", "Du") else None
        what: object = tref if tref is not None else "?"
        terms = PaymentTerms(price or 0, what, currency=field, mix=Mix.FIELD, source=S_FINISH)
        # the payment service's plan (a purchase without a tile): the modules' payment rules
        # see the cards and components as in any purchase. The cards themselves are checked
        # and moved by the caller (under the site's own codes).
        buy = plan_payment(ctx, player, (*money, *(a.value for a in cards)), terms, pos)
        buy.price = price
        counted = sum(c.value for c in counted_cards(ctx, buy))
        extra = payment_value(ctx, buy) - counted
        ctx.report(ctx.decide(Decision.PAY_PROBLEMS, player=player, purchase=buy))
        state = ctx.state
        owners = {id(m): m for r in money if (m := state.ext.kind_handler(r.kind)) is not None}
        for m in owners.values():  # the components leave the hand where their module says
            m.on_purchase(ctx, buy)
        return extra

    @staticmethod
    def _find(player: PlayerState, ref: TileRef | None) -> tuple[Coord | int, SitePiece] | None:
        """Where a site on the named tile lies: a cell of the Alhambra, else a reserve index."""

        def fits(piece: object) -> bool:
            return isinstance(piece, SitePiece) and (
                ref is None or not ref.known or piece.carried_tile in ref.candidates
            )

        for at, piece in sorted(player.alhambra.items(), key=lambda x: (x[0].x, x[0].y)):
            if fits(piece):
                assert isinstance(piece, SitePiece)
                return at, piece
        for i, held in enumerate(cast(list[object], player.reserve)):
            if fits(held):
                assert isinstance(held, SitePiece)
                return i, held
        return None

    @staticmethod
    def sites_of(
        player: PlayerState, reserve: bool = False
    ) -> list[tuple[Coord | None, SitePiece]]:
        out: list[tuple[Coord | None, SitePiece]] = [
            (at, piece)
            for at, piece in sorted(player.alhambra.items(), key=lambda x: (x[0].x, x[0].y))
            if isinstance(piece, SitePiece)
        ]
        if reserve:
            out += [
                (None, p) for p in cast(list[object], player.reserve) if isinstance(p, SitePiece)
            ]
        return out

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
        gone: list[MoneyCard] = [c for c in p.hand.elements() if c.currency.code in worthless]
        for c in gone:
            decrement(p.hand, c)
            state.discard[c] += 1
        data.worthless[p.name] = [c.code for c in gone]

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
        gone = [c for c in p.hand.elements() if c.currency.code in worthless]
        for c in gone:
            decrement(p.hand, c)
            state.discard[c] += 1
        data.revealed[p.name] = list(backs)
        data.worthless[p.name] = [c.code for c in gone]

    # ------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """A site building counts for walls, not as a building: shown on its own line."""
        from referee.scoring import CountAdjustment, ScoringParts

        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for p in state.players:
            out = [
                CountAdjustment(
                    site.carried_tile.type,
                    0,
                    f"building site {site.code}@{at}: walls only, not counted",
                    f"Baustelle {site.code}@{at}: nur Mauern, zählt nicht",
                )
                for at, site in self.sites_of(p)
            ]
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
                        player.reserve[k] = SitePiece(kept, back)  # type: ignore[call-overload]
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
        for _at, piece in self.sites_of(player, reserve=True):
            args.append(GenericArg(_tile_ref(piece.carried_tile)))
            args.append(GenericArg(ComponentRef(KIND, piece.back or HIDDEN[0])))
        done = [(t, b) for _n, who, t, b in self.data(state).completed if who == player.name]
        if done:
            args.append(GenericArg(COMPLETED_WORD))
        for code, back in done:
            kind = next((t for t in catalogue().tiles if t.code == code), None)
            args.append(GenericArg(code if kind is None else _tile_ref(kind)))
            args.append(GenericArg(ComponentRef(KIND, HIDDEN[0] if back == "?" else back)))
        return [ModuleAction(REVEAL_VERB, tuple(args))] if args else []

    # ------------------------------------------------------------ views

    view_terms_de: ClassVar[dict[str, str]] = {
        "sites": "Baustellen",
        "completed": "fertiggestellt",
        "worthless": "wertlos",
        "backs seen": "gesehene Rückseiten",
    }
    """German for the words of :meth:`view` (``show --lang de``)."""

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
        return {
            "labels": {"en": self.title_en, "de": self.title_de},
            "players": players,
            "table": {
                "stack": site_count() - data.set_up,
                "backs seen": " ".join(f"{c} {data.seen[c]}" for c in CURRENCIES if data.seen[c])
                or "-",
            },
        }

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


def _hand_text(p: PlayerState) -> str:
    cards = " ".join(c.code for c in sorted(p.hand.elements(), key=lambda c: c.sort_key))
    return " ".join(x for x in (cards, " ".join("?" * p.hand_unknown)) if x) or "empty"


register_both(
    en={
        "ACTION/completing-site": "completing a building site",
        "ACTION/completing-site-paid": "paying {total} to complete {tile} costing {price} (not exact)",  # noqa: E501
        "UNVERIFIED-SITE-PAYMENT": "the completion of {tile} is paid with unknown cards: the amount is not checked",  # noqa: E501
        "UNVERIFIED-SITE-BACK": "{n} site back(s) in the Alhambra were never revealed: which hand cards became worthless is not known",  # noqa: E501
    },
    de={
        "ACTION/completing-site": "dem Fertigstellen einer Baustelle",
        "ACTION/completing-site-paid": "der Zahlung von {total} für die Fertigstellung von {tile} zum Preis von {price} (nicht passend)",  # noqa: E501
        "UNVERIFIED-SITE-PAYMENT": "die Fertigstellung von {tile} wird mit unbekannten Karten bezahlt: der Betrag ist ungeprüft",  # noqa: E501
        "UNVERIFIED-SITE-BACK": "{n} Rückseite(n) von Baustellen in der Alhambra wurden nie aufgedeckt: welche Handkarten wertlos wurden, ist unbekannt",  # noqa: E501
    },
)
