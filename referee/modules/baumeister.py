"""Die Baumeister (master builders): 16 money cards of value 3 that may instead pay for one
extra redesign at the end of one's turn.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE BAUMEISTER.

Notation: a master-builder card is the component token ``mb:Gu`` (its currency)::

    * builders Anna mb:Gu ?              # setup, before the start money: 2 cards face down
    * display mb:De Gu4                  # from piles 3 and 5, like money
    7. Ben: take mb:De Du2               # "Karten im Gesamtwert von 5 nehmen" (3 + 2)
    9. Anna: buy Gu T15 pay Gu9 mb:Gu mb:Gu, place ...    # money function
    12. Anna: take Gu3, master mb:Gu, remove T9ne@1,2      # build function, after placements

A played card (either function) leaves the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import Currency
from referee.engine.context import Context
from referee.engine.core import display_occupied
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.hidden import UNVERIFIED_KEY, HiddenSupply, drawn_args, limits_of
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment, grant_redesign
from referee.engine.verbs import VerbSpec
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    in_pile_window,
    module_data,
    named_player,
    pile_windows,
    section,
    takes_with_money,
)
from referee.record.model import (
    NOWHERE,
    Buy,
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    TakeMoney,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE BAUMEISTER"
S_BUILD = section(H, "Baufunktion")
KIND = "mb"
DEAL = "builders"
VERB = "master"
DISPLAY = "@display"  # the holder "money display" in the card bookkeeping
_SETUP_DONE, _TURN_START, _TURN_END = Moment.SETUP_DONE, Moment.TURN_START, Moment.TURN_END


def _data() -> dict[str, Any]:
    return module_data("baumeister")


def card_currency(name: str) -> Currency | None:
    return Currency.of_code(name)


_CODES: dict[str, str] = {cur.code.lower(): cur.code for cur in Currency}
"""A card's currency code by how it is written in any case (``card_currency(name).code`` by one
look-up: ``Currency.of_code`` reads ``str(name).lower()`` in a table of the same keys)."""

_CODE_OF: dict[Currency, str] = {cur: cur.code for cur in Currency}
"""``currency.code`` by one look-up (the property reads the enum's value through two calls)."""


def _card_code(name: object) -> str | None:
    """``card_currency(name).code``, None where that is None."""
    return _CODES.get(str(name).lower())


_WINDOWS: dict[tuple[int, float], list[tuple[int, int | None]]] = {}
"""``pile_windows(state, (3, 5))`` by what it reads of the state: the money cards of the
setup's piles and the profile's pile tolerance (where it gives windows)."""


def _windows(state: GameState) -> list[tuple[int, int | None]] | None:
    """``pile_windows(state, (3, 5))``, worked out once per setup size and tolerance."""
    if state.reshuffles or state.setup_after <= 0:
        return None  # (as pile_windows answers)
    key = (state.setup_after, state.profile.pile_tolerance)
    got = _WINDOWS.get(key)
    if got is None:
        got = pile_windows(state, (3, 5))
        if got is not None and len(_WINDOWS) < 256:
            _WINDOWS[key] = got
    return got


@cache  # (the component data does not change)
def card_value() -> int:
    return int(_data()["components"]["builder_cards"]["value"])


def piles_for(players: int) -> dict[int, int]:
    setup = _data()["setup"]
    table = setup["piles_six_players"] if players >= 6 else setup["piles"]
    return {int(k): int(v) for k, v in table.items()}


@dataclass
class BuilderScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    cards: HiddenSupply = field(default_factory=lambda: HiddenSupply(0))
    dealt: dict[str, Pos] = field(default_factory=dict)
    played: dict[str, list[str]] = field(default_factory=dict)  # player -> cards played
    master: dict[str, Any] = field(default_factory=dict)  # this turn's build-function card
    deal_due: bool = False  # the setup is complete: who got no cards is still to be reported
    # ``cards.held(DISPLAY)``, the display's live multiset, once the display question made it
    # (the same object: a holder's multiset is never replaced, and a copy of the part copies
    # the two references as one)
    display: Counter[str] | None = None
    # the idle answers kept for the engine (Module.kept_idle, ``idle_at``'s answers): at a
    # turn's end ``not master``, at its start ``not master and not deal_due``, set again by
    # every step that changes ``master`` or ``deal_due``
    idle_start: bool = field(default=True, repr=False, compare=False)
    idle_end: bool = field(default=True, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class _Card:
    """A master-builder card as an item of the payment search (``payments``)."""

    currency: Currency
    value: int

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (self.currency.field, self.value, 1)


@bundled
class Baumeister(BundledModule):
    """16 master-builder cards: money of value 3, or one extra redesign at the turn's end."""

    purchases_by_components = True  # its purchase refinements read only its own pieces

    # no action of its own: an extra redesign at the turn's end (one card, checked here)
    verb_specs = (VerbSpec(VERB, kind="free"),)
    chance_verbs = (DEAL,)
    component_kinds = (KIND,)
    scratch_type = BuilderScratch

    def __init__(self) -> None:
        super().__init__()
        # the key of the module's part in ``state.modules`` (``self.name``) as an attribute of
        # the instance: read at every display question and idle answer, where the class's
        # attribute read through the instance costs more
        self._part = self.name
        # the card the last ``master`` line checked plays (``_master_card(action, ...)[1]``, a
        # function of the line alone), kept by the line's identity for its ``action`` step
        self._checked: tuple[ModuleAction, Any] | None = None

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        cards = _data()["components"]["builder_cards"]
        n = len(state.players)
        total = int(cards["count"])
        # the part's fresh supply made as HiddenSupply(total, limits) (its own empty multisets
        # kept: no second set of them made)
        supply = scratch.cards
        supply.total, supply.limits = total, limits_of(cards["per_currency"])
        # "Bei weniger als 5 Spielern bleiben Baumeisterkarten übrig. Sie werden aus dem Spiel
        # genommen.": unseen, out of the game from the start
        in_play = n * int(_data()["setup"]["dealt_each"]) + sum(piles_for(n).values())
        scratch.cards.gone_unseen = max(0, total - in_play)

    def supply(self, state: GameState) -> HiddenSupply:
        # self.data(state) without its call once the module's part exists
        cards: HiddenSupply = (state.modules.get(self._part) or self.data(state)).cards
        return cards

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        cards = data.cards
        return self.shown(
            {
                "master builders in the display": cards.shown(DISPLAY, KIND) or "-",
                "master builders in the deck": cards.in_pool(),
                "master builders out of the game": cards.gone.total() + cards.gone_unseen,
            },
            {
                p.name: {
                    "master builders": cards.shown(p.name, KIND) or "-",
                    "played": " ".join(f"{KIND}:{c}" for c in data.played.get(p.name, [])) or "-",
                }
                for p in state.players
            },
        )

    # ------------------------------------------------------------------ setup

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``builders PLAYER mb:Gu ?``: the two cards dealt face down before the start money."""
        pos = event.pos
        if not event.args:
            state.flag("BAUMEISTER-TOKEN", pos, reason="deal", token=DEAL)
            return []
        p = named_player(state, event.args[0], pos)
        if p is None:
            return []
        data = self.data(state)
        drawn, other = drawn_args(event.args[1:], KIND)
        for a in other:
            assert isinstance(a, GenericArg)
            state.flag("BAUMEISTER-TOKEN", a.pos or pos, p.name, reason="deal", token=_tok(a))
        if state.phase != "setup":
            state.flag("BAUMEISTER-DEAL", pos, p.name, reason="after-setup")
        elif p.name in data.dealt:
            state.flag("BAUMEISTER-DEAL", pos, p.name, reason="twice")
        elif state.deals_done > 0:
            state.flag("BAUMEISTER-DEAL", pos, p.name, reason="after-start-money")
        want = int(_data()["setup"]["dealt_each"])
        if len(drawn) != want:
            state.flag("BAUMEISTER-DEAL", pos, p.name, reason="count", n=len(drawn))
        data.dealt.setdefault(p.name, pos)
        cards = data.cards
        unseen = 0
        for arg, name in drawn:
            apos = getattr(arg, "pos", pos) or pos
            code = self._code(state, name, apos, p.name)
            if name is None:
                unseen += 1
            elif code is None:
                continue
            self._report(state, cards.draw(p.name, code), code, apos, p.name)
        if unseen:
            state.note(pos, UNVERIFIED_KEY, p.name, name=p.name, count=unseen, what=f"{KIND}:?")
        return []

    @acts_at(Moment.SETUP_DONE, Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        # asked twice a turn (TURN_START, TURN_END): each moment is told apart once, the
        # module's part read once (the kit's step at SETUP_DONE makes it, as before)
        state = ctx.state
        if moment == _TURN_END:
            # self.data(state) without its call once the module's part exists (the same
            # state.modules entry)
            data = state.modules.get(self._part) or self.data(state)
            master = data.master
            if master:
                t = state.turn
                played = master.get("card")
                if t is not None and played is not None and t.extra_redesigns > 0:
                    p = state.players[t.player]
                    state.flag("BAUMEISTER-REDESIGN", master["pos"], p.name, card=played)
                    t.extra_redesigns = 0
                master.clear()
                data.idle_end = True
                data.idle_start = not data.deal_due
        elif moment == _TURN_START:
            # nothing to do at most turn starts: the missing deals are reported once, and a
            # card is left in ``master`` only by a card played in an out-of-turn line (which
            # has no TURN_END); whether a turn is the player's own is read from the turn itself
            # (``check_verb``), not noted here
            data = state.modules.get(self._part) or self.data(state)  # (as above)
            if data.deal_due:
                self._missing_deals(state, state.turn.pos if state.turn else NOWHERE)
            if data.master:
                data.master.clear()
                data.idle_end = True
                data.idle_start = not data.deal_due
        elif moment == _SETUP_DONE:
            super().at_moment(ctx, moment)  # the kit's step (the data() below does it again)
            data = self.data(state)
            # reported at the start line (else at the first turn): the setup is complete there
            data.deal_due = True
            data.idle_start = False
            if state.start_claim is not None:
                self._missing_deals(state, state.start_claim[2])

    def _missing_deals(self, state: GameState, pos: Pos) -> None:
        data = self.data(state)
        data.deal_due = False
        data.idle_start = not data.master
        for p in state.players:
            if p.name not in data.dealt:
                state.flag("BAUMEISTER-DEAL", pos, p.name, reason="missing")

    # ------------------------------------------------------------- the display

    # its refinement adds its part's pieces in the display, as the engine may read them
    display_places = ("builders_in_display", "display")

    @refines(Decision.DISPLAY_OCCUPIED)
    def builders_in_display(self, ctx: Any, occupied: int, **_: Any) -> int:
        """Master-builder cards are money cards: they take places of the display's four."""
        # asked at every display question: the module's part as self.data(state) gives it
        # (without its call once it exists), the live multiset read where it exists (else
        # ``held`` makes it, as before), counted as ``Counter.total`` does (without its
        # Python-level call); an empty one adds nothing
        data = ctx.state.modules.get(self._part)
        if data is not None:
            held = data.display
            if held is not None:
                return occupied + sum(held.values()) if held else occupied
        else:
            data = self.data(ctx.state)
        held = data.display = data.cards.held(DISPLAY)  # (made here where it is missing)
        return occupied + sum(held.values())

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        code = self._code(state, ref.name, pos, None)
        if code is None:
            return []
        card = f"{KIND}:{code}"
        self._pile_check(state, card, pos)
        ctx = Context(state)
        size = ctx.decide(Decision.DISPLAY_SIZE)
        if display_occupied(state) >= size:  # (the engine's own question, as Diamanten's)
            state.flag(
                "REFILL-DISPLAY",
                pos,
                reason="display-full",
                display=self._display_text(state),
                card=card,
            )
        self._report(state, self.supply(state).draw(DISPLAY, code), code, pos, None)
        return []

    def _pile_check(self, state: GameState, card: str, pos: Pos) -> None:
        if state.phase == "setup":
            state.flag("BAUMEISTER-PILE", pos, reason="opening-display", card=card)
            return
        windows = _windows(state)  # "in den 3. Stapel und 5. Stapel"
        if windows is None:
            return
        (lo3, hi3), (lo5, _) = windows
        k = state.money_draws
        if not in_pile_window(k, windows):
            state.flag(
                "BAUMEISTER-PILE",
                pos,
                reason="outside-piles",
                card=card,
                k=k,
                n=state.setup_after,
                lo3=lo3,
                hi3=hi3,
                lo5=lo5,
            )

    def _display_text(self, state: GameState) -> str:
        from referee.engine.fmt import fmt_cards

        money = fmt_cards(state.display) if state.display else ""
        extra = self.supply(state).shown(DISPLAY, KIND)
        return " ".join(x for x in (money, extra) if x) or "empty"

    def money_currency(self, state: GameState, ref: ComponentRef) -> Currency | None:
        """A master-builder card is "eine normale Geldkarte mit dem Wert 3" of its currency
        (a thief of that currency may take it)."""
        return card_currency(ref.name) if ref.kind.lower() == KIND else None

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Any]:
        """Taken like money: "Auch für diese Karten gelten alle Regeln, die das Geld betreffen
        (z.B. Karten im Gesamtwert von „5” nehmen)"."""
        pos = ref.pos or action.pos
        mine = [c for c in action.cards if isinstance(c, ComponentRef) and c.kind.lower() == KIND]
        if mine and mine[0] is ref and len(action.cards) > 1:
            self._take_sum(state, player, action)
        code = self._code(state, ref.name, pos, player.name)
        if code is None:
            return []
        cards = self.supply(state)
        if cards.held(DISPLAY).get(code, 0) <= 0:
            state.flag(
                "TAKE-NOT-IN-DISPLAY",
                pos,
                player.name,
                card=f"{KIND}:{code}",
                display=self._display_text(state),
            )
            self._report(state, cards.draw(player.name, code), code, pos, player.name)
            return []
        cards.move(DISPLAY, player.name, code)
        return []

    def _take_sum(self, state: GameState, player: PlayerState, action: TakeMoney) -> None:
        """The take limit over every card of the take, master builders at their value 3 (the
        base check adds the money cards only; this one reports only what it adds)."""
        limit = int(Context(state).decide(Decision.TAKE_LIMIT, player=player))
        base = sum(
            c.card.value for c in action.cards if isinstance(c, CardRef) and c.card is not None
        )
        ours = sum(
            card_value()
            for c in action.cards
            if isinstance(c, ComponentRef) and c.kind.lower() == KIND
        )
        if base <= limit < base + ours:
            state.flag(
                "TAKE-SUM",
                action.pos,
                player.name,
                display=self._display_text(state),
                cards=" ".join(_tok(GenericArg(c)) for c in action.cards),
                sum=base + ours,
            )

    # ------------------------------------------------------- money function

    @staticmethod
    def _paid(purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    @staticmethod
    def _allowed(ctx: Any, purchase: Any) -> frozenset[Currency]:
        from referee.engine.actions.purchase import allowed_currencies

        return allowed_currencies(ctx, purchase)

    @refines(Decision.PAY_VALUE)
    def builder_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Zunächst ist jede Baumeisterkarte eine normale Geldkarte mit dem Wert „3”"."""
        refs = self._paid(purchase)
        if not refs:
            return value
        allowed = self._allowed(ctx, purchase)
        return value + sum(
            card_value()
            for r in refs
            if (c := card_currency(r.name)) is not None
            and (purchase.field is None or c in allowed or c is purchase.field)
        )

    @refines(Decision.PAY_PROBLEMS)
    def builder_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """A card paid must be the payer's, of a currency that may pay."""
        refs = self._paid(purchase)
        if not refs:
            return found
        out = list(found)
        allowed = self._allowed(ctx, purchase)
        trial = _trial(self.supply(ctx.state), player.name)
        for ref in refs:
            pos = ref.pos or purchase.action.pos
            cur = card_currency(ref.name)
            if cur is None:
                out.append(
                    problem(
                        "BAUMEISTER-TOKEN", pos, player.name, reason="card", token=_ref_text(ref)
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
            out += self._play_findings(ctx.state, trial, player, cur.code, pos)
        return out

    def _play_findings(
        self, state: GameState, cards: HiddenSupply, player: PlayerState, code: str, pos: Pos
    ) -> list[Finding]:
        held = cards.shown(player.name, KIND) or "none"
        got = cards.discard(player.name, code)
        if "not-held" in got:
            played = self.data(state).played.get(player.name, [])
            return [
                problem(
                    "BAUMEISTER-NOT-HELD",
                    pos,
                    player.name,
                    card=f"{KIND}:{code}",
                    held=held,
                    played=" ".join(f"{KIND}:{c}" for c in played) or "none",
                )
            ]
        if "supply" in got:
            return [self._supply_finding(cards, code, pos, player.name)]
        return []

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Anders als normale Geldkarten kommen Baumeisterkarten nach dem Ausspielen (egal in
        welcher Funktion) aus dem Spiel.\""""
        refs = self._paid(purchase)
        if not refs:
            return
        data = self.data(ctx.state)
        p = purchase.player
        for ref in refs:
            cur = card_currency(ref.name)
            if cur is not None:
                data.cards.discard(p.name, cur.code)
                data.played.setdefault(p.name, []).append(cur.code)

    @refines(Decision.DISTRIBUTION_MONEY)
    def builders_count_at_the_end(
        self, ctx: Any, money: int | None, *, player: PlayerState, currency: Currency, **_: Any
    ) -> int | None:
        """A master-builder card is "eine normale Geldkarte": it counts for the most money of
        its currency. Cards held face down and never named leave the sum unknown."""
        state = ctx.state
        cards = (state.modules.get(self._part) or self.data(state)).cards  # (as ``supply``)
        if money is None or cards.unseen.get(player.name):
            return None
        return money + card_value() * cards.held(player.name).get(_CODE_OF[currency], 0)

    # ------------------------------------------------------- build function

    def _master_card(self, action: ModuleAction, player: str) -> tuple[list[Finding], Any]:
        """The card ``master mb:Gu`` plays (its currency code, and where it is written), with
        the findings of how it is written."""
        pos = action.pos
        args = action.args
        refs = []
        for a in args:  # (a loop: a line has one argument, a comprehension is a call more)
            v = a.value
            if isinstance(v, ComponentRef) and v.kind.lower() == KIND:
                refs.append(v)
        found = []
        if len(refs) != 1 or len(args) != 1:
            found.append(problem("BAUMEISTER-TOKEN", pos, player, reason="master", token=VERB))
            if not refs:
                return found, None
        ref = refs[0]
        code = _card_code(ref.name)
        if code is None:
            token = f"{KIND}:{ref.name}"
            found.append(
                problem("BAUMEISTER-TOKEN", ref.pos or pos, player, reason="card", token=token)
            )
            return found, None
        return found, (code, ref.pos or pos)

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``master mb:Gu``: at the end of one's own turn (after an action, everything placed),
        one card per turn, a card the player holds."""
        state, pos, name = ctx.state, action.pos, player.name
        found, played = self._master_card(action, name)
        self._checked = (action, played)
        if played is None:
            return found
        code, at = played
        data = state.modules.get(self._part) or self.data(state)  # (as in ``supply``)
        t = state.turn  # (the card's text, ``card``, made only for a finding)
        # an out-of-turn line (a vizier's, a thief's) runs in a turn of its own, marked with
        # the module whose line it is: "am Ende seines Zuges" is then not the player's turn
        if t is not None and t.interrupt is not None:
            card = f"{KIND}:{code}"
            found.append(problem("BAUMEISTER-TIMING", pos, name, reason="out-of-turn", card=card))
        elif t is not None and t.main_actions == 0:
            card = f"{KIND}:{code}"
            found.append(problem("BAUMEISTER-TIMING", pos, name, reason="before-action", card=card))
        elif t is not None and t.pending:
            from referee.engine.fmt import fmt_tiles

            pending, card = fmt_tiles(t.pending), f"{KIND}:{code}"
            found.append(
                problem(
                    "BAUMEISTER-TIMING",
                    pos,
                    name,
                    reason="before-placing",
                    card=card,
                    pending=pending,
                )
            )
        first = data.master.get("card")
        if first is not None:
            card = f"{KIND}:{code}"
            found.append(problem("BAUMEISTER-ONE-PER-TURN", pos, name, card=card, first=first))
        # a card the player is known to hold: playing it (``_play_findings`` on a trial copy)
        # finds nothing, so no copy is made; else the trial as before
        own = data.cards.known.get(name)
        if own is not None and own.get(code, 0) > 0:
            return found
        return found + self._play_findings(state, _trial(data.cards, name), player, code, at)

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The card is played (out of the game) for one extra redesign at the end of the turn;
        the redesign (``build``/``remove``/``swap``) follows it."""
        checked = self._checked
        if checked is not None and checked[0] is action:  # the card its check read
            played = checked[1]
        else:
            played = self._master_card(action, player.name)[1]
        if played is None:
            return []
        data = state.modules.get(self._part) or self.data(state)  # (as in ``supply``)
        data.cards.discard(player.name, played[0])
        data.played.setdefault(player.name, []).append(played[0])
        if data.master.get("card") is None:
            data.master.update(card=f"{KIND}:{played[0]}", pos=action.pos)
            data.idle_start = data.idle_end = False
            grant_redesign(state)  # (Context.grant_redesign, without making a context)
        return []

    # ------------------------------------------------------------ positions

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        """The master-builder cards in ``player``'s hand (None: in the display), as a
        position's ``hand`` / ``display`` line names them (read back by
        :meth:`position_component`)."""
        holder = DISPLAY if player is None else player.name
        return [ComponentRef(KIND, c) for c in sorted(self.supply(state).held(holder).elements())]

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A card in a position's display or in a player's hand."""
        if where not in ("display", "hand") or (where == "hand" and player is None):
            return False, None
        who = player.name if player is not None and where == "hand" else None
        code = self._code(state, ref.name, ref.pos, who)
        if code is None:
            return True, None
        holder = who if who is not None else DISPLAY
        self._report(state, self.supply(state).draw(holder, code), code, ref.pos, who)
        return True, None

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Master-builder cards taken (alone, or with money within the take limit), purchases
        paid with them, and ``master`` at the end of the turn when a redesign is possible."""
        state = ctx.state
        cards = self.supply(state)
        out: list[Any] = []
        out += self._takes(ctx, player, cards)
        out += self._buys(ctx, player, cards)
        out += self._masters(ctx, player, cards)
        return out

    def _takes(self, ctx: Any, player: PlayerState, cards: HiddenSupply) -> list[Any]:
        shown = sorted(cards.held(DISPLAY))
        return takes_with_money(ctx, player, ((ComponentRef(KIND, c), card_value()) for c in shown))

    def _buys(self, ctx: Any, player: PlayerState, cards: HiddenSupply) -> list[Any]:
        from referee.engine.actions.purchase import payments, plan_purchase
        from referee.engine.legal import card_ref, tile_ref

        held = cards.held(player.name)
        if not +held:
            return []
        state = ctx.state
        mine = [_Card(c, card_value()) for c in Currency for _ in range(held[c.code])]
        items: list[Any] = [*player.hand.elements(), *mine]
        out: list[Any] = []
        for i, slot in enumerate(state.market):
            if not hasattr(slot, "price"):
                continue
            cur = Currency.of_field(i + 1)
            tile = slot
            probe = plan_purchase(state, player, Buy(cur, tile_ref(tile), ()))
            allowed = frozenset(
                ctx.decide(Decision.PAY_CURRENCIES, player=player, field=cur, purchase=probe)
            )
            price = probe.price if probe.price is not None else tile.price
            for pay in payments(items, allowed, price):
                if not any(isinstance(c, _Card) for c in pay):
                    continue
                paid = tuple(
                    ComponentRef(KIND, c.currency.code) if isinstance(c, _Card) else card_ref(c)
                    for c in pay
                )
                out.append(Buy(cur, tile_ref(tile), paid))
        return out

    def _masters(self, ctx: Any, player: PlayerState, cards: HiddenSupply) -> list[Any]:
        from referee.engine.legal import build_actions, remove_actions

        t = ctx.state.turn
        data = self.data(ctx.state)
        if t is None or t.main_actions == 0 or t.pending or data.master:
            return []
        held = sorted(cards.held(player.name))
        if not held or ctx.state.game_over:
            return []
        if not (build_actions(ctx, player) or remove_actions(ctx, player)):
            return []
        return [ModuleAction(VERB, (GenericArg(ComponentRef(KIND, code)),)) for code in held]

    # ------------------------------------------------------------ simulator

    def _deck(self, sim: Any) -> list[str]:
        def shuffled() -> list[str]:
            names = [n for n, k in sorted(self.supply(sim.state).limits.items()) for _ in range(k)]
            sim.rng.shuffle(names)
            return names

        deck: list[str] = sim.mine(self, shuffled)
        return deck

    def sim_deal(self, sim: Any) -> list[Any]:
        """ "Die Baumeisterkarten werden gemischt. Jeder Spieler erhält davon 2 Karten verdeckt
        auf die Hand." (written before the start money; every card named)."""
        deck = self._deck(sim)
        want = int(_data()["setup"]["dealt_each"])
        out: list[Any] = []
        for p in sim.state.players:
            args = [GenericArg(p.name)] + [
                GenericArg(ComponentRef(KIND, deck.pop())) for _ in range(want)
            ]
            out.append(ModuleChance(DEAL, tuple(args)))
        return out

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """ "werden je 3 Baumeisterkarten in den 3. Stapel und 5. Stapel eingemischt" (6
        players: 1 into pile 5); the rest leaves the game."""
        deck = self._deck(sim)
        out: dict[int, list[object]] = {}
        for pile, count in sorted(piles_for(len(sim.state.players)).items()):
            out[pile] = [ComponentRef(KIND, deck.pop()) for _ in range(count)]
        deck.clear()
        return out

    # ------------------------------------------------------------ helpers

    def _code(self, state: GameState, name: str | None, pos: Pos, who: str | None) -> str | None:
        if name is None:
            return None
        code = _card_code(name)
        if code is None:
            state.flag("BAUMEISTER-TOKEN", pos, who, reason="card", token=f"{KIND}:{name}")
        return code

    def _report(
        self,
        state: GameState,
        found: Sequence[str],
        code: str | None,
        pos: Pos,
        who: str | None,
    ) -> None:
        if not found:
            return
        if "empty" in found:
            piles = sum(piles_for(len(state.players)).values())
            state.flag("BAUMEISTER-SUPPLY", pos, who, reason="deck", card=_card(code), piles=piles)
        elif "supply" in found and code is not None:
            f = self._supply_finding(self.supply(state), code, pos, who)
            report(state, [f])

    @staticmethod
    def _supply_finding(cards: HiddenSupply, code: str, pos: Pos, who: str | None) -> Finding:
        where = ", ".join(
            f"{'display' if n == DISPLAY else n} {h[code]}"
            for n, h in cards.known.items()
            if h[code]
        )
        if cards.gone[code]:
            where = ", ".join(x for x in (where, f"played {cards.gone[code]}") if x)
        return problem(
            "BAUMEISTER-SUPPLY",
            pos,
            who,
            reason="currency",
            card=f"{KIND}:{code}",
            where=where or "-",
        )

    # ------------------------------------------------------------ idle moments

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's end when no build-function card was
        played in the turn (the module's part exists, ``master`` empty: the step would clear
        an empty record); nothing to do at a turn's start when, besides, no missing deal is
        still to be reported (``deal_due``: the step reports it once). Where the module's part
        does not exist yet, the step runs (it makes it)."""
        data = state.modules.get(self._part)
        if data is None or data.master:
            return False
        if moment is _TURN_END:
            return True
        return moment is _TURN_START and not data.deal_due

    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_start, idle_end: kept where they change)


def _trial(cards: HiddenSupply, holder: str) -> HiddenSupply:
    """A copy of ``cards`` for trying out what ``holder`` plays (``_play_findings``): the
    parts a ``discard`` by ``holder`` changes are copied (the table of holders, ``holder``'s
    own multiset, the unseen and gone counts), every other holder's multiset is shared, as
    nothing on a trial changes it (read only by ``seen``/``left_of``). A full copy of every
    multiset gives the same findings (tests/test_module_baumeister.py holds the two equal)."""
    known = dict(cards.known)
    own = known.get(holder)
    if own is not None:
        known[holder] = own.copy()
    return HiddenSupply(
        cards.total,
        cards.limits,
        known,
        cards.unseen.copy(),
        cards.gone.copy(),
        cards.gone_unseen,
    )


def _card(code: str | None) -> str:
    return f"{KIND}:{code}" if code else "?"


def _ref_text(ref: ComponentRef) -> str:
    return f"{ref.kind}:{ref.name}"


def _tok(a: GenericArg) -> str:
    v = a.value
    if isinstance(v, ComponentRef):
        return f"{v.kind}:{v.name}"
    if isinstance(v, CardRef):
        return v.card.code if v.card else "?"
    return str(getattr(v, "name", v))
