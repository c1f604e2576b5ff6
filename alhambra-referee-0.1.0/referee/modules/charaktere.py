"""Die Charaktere (characters): ten character cards shuffled into the money piles 2-4; a card
revealed in the display is auctioned at once, and its owner uses its ability from then on.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE CHARAKTERE (L1014-1124, heading L1117).

Notation (names, texts, the unverified usage symbols: ``charaktere.yaml``; rulings:
``docs/modules/charaktere.md``). A card is ``ch:NAME`` (``ch:Goenner``, ``ch:Weise`` ...)::

    * display Gu3 ch:Weise      # the card is revealed: the auction starts, Cem moves next
    Cem: bid 6 pay De6          # the engine's auction service (referee/engine/auction.py)
    Anna: bid 8 pay Gu8
    Ben: pass
    Cem: pass                   # Anna wins, pays Gu8; no bid: the card leaves the game
    Anna: juggler keep          # after winning the Gauklerin: keep (8 points) or
    Anna: juggler ch:Weise      #   swap for the top set-aside card
    * display De4               # the refill goes on
    * symbol ch:Geizhals round  # a card's usage symbol stated (picture-only)

The abilities: ``buy Gu T9ne pay ch:Goenner`` (Gönner: exact without cards), ``miser Gu4``
(Geizhals, after a purchase of price 10 or more), ``architect`` (Baumeister: an extra redesign
at the end of the turn), ``merchant`` (Händler: takes up to 7 this turn, first act),
``Anna: sage G`` (Weise: the type for the next scoring, before its line), ``Anna: dancer Di
T9ne`` (Tänzerin, before her turn: the Dirham field's building back into the tower, T9ne drawn
for it; a sultan card may claim T9ne),
``changer De7 Gu6`` (Geldwechsler, first act), ``beggar Gu5`` (Bettler, first act: the top
card of the deck); the Gauklerin and the Stadtwache score by themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from referee.catalogue import BuildingType, Currency, MoneyCard, TileKind
from referee.engine.auction import AuctionTerms, open_auction
from referee.engine.context import Context
from referee.engine.extensions import ActionKind
from referee.engine.findings import Finding, problem
from referee.engine.ruleset import Decision, refines
from referee.engine.stages import Stage, StageOrder, open_stage
from referee.engine.state import GameState, PlayerState
from referee.engine.verbs import Arg, Limit, VerbSpec, Window, due_scoring, round_of
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    check_pile,
    interrupting_player,
    market_probes,
    module_data,
    section,
    token_text,
)
from referee.record.model import (
    NOWHERE,
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    ScoringCardRef,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "DIE CHARAKTERE"
SRC = section(H, "Wie bekommt man Charakterkarten?")
KIND = "ch"
SYMBOL = "symbol"
CHARACTERS = "characters"  # a position's line
SYMBOLS = ("round", "scoring", "once", "none")

GOENNER, GEIZHALS, BAUMEISTER, HAENDLER, GAUKLERIN = (
    "Goenner",
    "Geizhals",
    "Baumeister",
    "Haendler",
    "Gauklerin",
)
WEISE, TAENZERIN, GELDWECHSLER, BETTLER, STADTWACHE = (
    "Weise",
    "Taenzerin",
    "Geldwechsler",
    "Bettler",
    "Stadtwache",
)

# verb -> the card whose ability it is
MISER, ARCHITECT, MERCHANT, JUGGLER = "miser", "architect", "merchant", "juggler"
SAGE, DANCER, CHANGER, BEGGAR = "sage", "dancer", "changer", "beggar"
VERB_CARD = {
    MISER: GEIZHALS,
    ARCHITECT: BAUMEISTER,
    MERCHANT: HAENDLER,
    SAGE: WEISE,
    DANCER: TAENZERIN,
    CHANGER: GELDWECHSLER,
    BEGGAR: BETTLER,
}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("charaktere")["components"]
    return data


def names() -> tuple[str, ...]:
    return tuple(str(n) for n in _data()["cards"]["names"])


def card_name(text: str) -> str | None:
    """The canonical name a token names (``weise``, ``Gönner`` ...), None for no card."""
    key = text.strip().casefold().replace(" ", "")
    for n in names():
        if n.casefold() == key:
            return n
    spelled = _data()["cards"]["spellings"].get(key)
    return str(spelled) if spelled is not None else None


def default_symbol(name: str) -> str:
    return str(_data()["symbols"][name])


def _piles() -> dict[int, int]:
    return {int(k): int(v) for k, v in _data()["piles"].items()}


def _ref(name: str) -> ComponentRef:
    return ComponentRef(KIND, name)


@dataclass
class CharScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    owned: dict[str, list[str]] = field(default_factory=dict)  # player -> cards, in order
    revealed: list[str] = field(default_factory=list)  # revealed from the piles
    gone: list[str] = field(default_factory=list)  # out of the game
    aside_in: list[str] = field(default_factory=list)  # laid on the set-aside pile (swapped)
    aside_out: list[str] = field(default_factory=list)  # taken from the set-aside pile
    symbols: dict[str, str] = field(default_factory=dict)  # card -> stated symbol
    round_used: dict[str, tuple[int, str]] = field(default_factory=dict)  # player -> (round, card)
    sage: dict[str, tuple[int, str]] = field(default_factory=dict)  # player -> (scoring, type)
    merchant: dict[str, int] = field(default_factory=dict)  # player -> turn of the use
    architect: dict[str, int] = field(default_factory=dict)  # player -> turn of the use
    miser_due: dict[str, tuple[int, int]] = field(default_factory=dict)  # player -> (turn, n)
    # player -> (turn, draws in it, whether the last was a money card)
    beggar: dict[str, tuple[int, int, bool]] = field(default_factory=dict)
    kept: list[str] = field(default_factory=list)  # players who kept the Gauklerin
    deciding: str | None = None  # the player who must decide on the Gauklerin now


@bundled
class Charaktere(BundledModule):
    """Character cards auctioned from the display; each owner's ability."""

    verb_specs = (
        VerbSpec(MISER, kind=ActionKind.FREE, args=(Arg.CARD,), window=Window.OWN_TURN),
        VerbSpec(ARCHITECT, kind=ActionKind.FREE, args=(), window=Window.TURN_END),
        VerbSpec(MERCHANT, kind=ActionKind.FREE, args=(), window=Window.TURN_START),
        VerbSpec(JUGGLER, kind=ActionKind.FREE),
        VerbSpec(
            SAGE,
            kind=ActionKind.FREE,
            args=(Arg.WORD,),
            window=Window.BEFORE_SCORING,
            limit=Limit.PER_SCORING,
        ),
        VerbSpec(DANCER, kind=ActionKind.FREE, window=Window.BETWEEN_TURNS),
        VerbSpec(
            CHANGER, kind=ActionKind.FREE, args=(Arg.CARD, Arg.CARD), window=Window.TURN_START
        ),
        VerbSpec(BEGGAR, kind=ActionKind.FREE, window=Window.TURN_START),
    )
    chance_verbs = (SYMBOL, CHARACTERS)  # `characters`: a position's line only
    component_kinds = (KIND,)
    scratch_type = CharScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("character card", "Charakterkarte")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        MISER: ("takes a card with the Geizhals", "nimmt eine Karte mit dem Geizhals"),
        ARCHITECT: ("redesigns once more with the Baumeister", "baut mit dem Baumeister um"),
        MERCHANT: ("takes up to 7 with the Händler", "nimmt mit dem Händler bis 7"),
        JUGGLER: ("decides on the Gauklerin", "entscheidet über die Gauklerin"),
        SAGE: ("names the Weise's building type", "nennt die Gebäudeart des Weisen"),
        DANCER: ("swaps a building with the Tänzerin", "tauscht ein Gebäude mit der Tänzerin"),
        CHANGER: ("changes money with the Geldwechsler", "wechselt Geld mit dem Geldwechsler"),
        BEGGAR: ("draws a card with the Bettler", "zieht eine Karte mit dem Bettler"),
        SYMBOL: ("a character card's usage symbol", "das Nutzungssymbol einer Charakterkarte"),
        CHARACTERS: ("the character cards' piles", "die Stapel der Charakterkarten"),
    }

    # ------------------------------------------------------------------ cards and symbols

    def owned(self, state: GameState, player: PlayerState) -> list[str]:
        return self.data(state).owned.setdefault(player.name, [])

    def holds(self, state: GameState, player: PlayerState, card: str) -> bool:
        return card in self.data(state).owned.get(player.name, [])

    def symbol(self, state: GameState, card: str) -> str:
        """The card's usage symbol: as stated in the record, else the (unverified) data."""
        return self.data(state).symbols.get(card) or default_symbol(card)

    def _where(self, state: GameState, name: str, revealed: bool = True) -> Text | None:
        """Where a card already is (None: nowhere seen yet; ``revealed``: a card revealed
        from the piles counts as seen)."""
        data = self.data(state)
        for who, cards in data.owned.items():
            if name in cards:
                return Text("CHARAKTERE-SUPPLY.where/owned", name=who)
        if name in data.gone:
            return Text("CHARAKTERE-SUPPLY.where/gone")
        if name in data.aside_in:
            return Text("CHARAKTERE-SUPPLY.where/aside")
        if revealed and (name in data.revealed or name in data.aside_out):
            return Text("CHARAKTERE-SUPPLY.where/revealed")
        return None

    def _parse(self, state: GameState, ref: object, pos: Pos, who: str | None) -> str | None:
        if not isinstance(ref, ComponentRef) or ref.kind.lower() != KIND:
            state.flag(
                "CHARAKTERE-TOKEN", pos, who, token=token_text(ref), names=", ".join(names())
            )
            return None
        name = card_name(ref.name)
        if name is None:
            token = f"{ref.kind}:{ref.name}"
            state.flag("CHARAKTERE-TOKEN", pos, who, token=token, names=", ".join(names()))
        return name

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* symbol ch:NAME round|scoring|once|none``: a card's usage symbol as printed."""
        pos = event.pos
        vals = [a.value for a in event.args]
        if event.verb.lower() == CHARACTERS:  # a position's line, not a chance event
            state.flag("CHARAKTERE-TOKEN", pos, token=CHARACTERS, names=", ".join(names()))
            return []
        if len(vals) != 2 or str(vals[1]).lower() not in SYMBOLS:
            state.flag(
                "CHARAKTERE-SYMBOL", pos, reason="form", card=token_text(vals[0] if vals else "?")
            )
            return []
        name = self._parse(state, vals[0], pos, None)
        if name is None:
            return []
        new = str(vals[1]).lower()
        data = self.data(state)
        old = data.symbols.get(name)
        if old is not None and old != new:
            state.flag(
                "CHARAKTERE-SYMBOL", pos, reason="changed", card=f"{KIND}:{name}", old=old, new=new
            )
        data.symbols[name] = new
        return []

    # ------------------------------------------------------------------ the auction

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        out: dict[int, list[object]] = {}
        for pile, n in _piles().items():
            out[pile] = [KIND] * n
        return out

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """Six of the ten cards, two each into piles 2, 3 and 4; the rest lie aside."""
        cards = list(names())
        sim.rng.shuffle(cards)
        out: dict[int, list[object]] = {}
        for pile, n in _piles().items():
            out[pile] = [_ref(cards.pop()) for _ in range(n)]
        return out

    def display_place(self, ref: ComponentRef) -> bool:
        return False  # auctioned at once: it takes no place of the display

    def display_component(self, state: GameState, ref: ComponentRef, pos: Pos) -> list[Any]:
        """ "Wird eine Charakterkarte vom Stapel aufgedeckt, wird das Spiel sofort unterbrochen
        und die Karte versteigert. Der Spieler, der als nächstes an der Reihe ist, übernimmt
        die Rolle des Auktionators" (L1030-1035)."""
        name = self._parse(state, ref, pos, None)
        if name is not None:
            self._reveal(state, name, pos)
        return []

    def _reveal(self, state: GameState, name: str, pos: Pos) -> None:
        """A character card turned up from the deck (the display, the Bettler's draw)."""
        data = self.data(state)
        where = self._where(state, name)
        if where is not None:
            state.flag("CHARAKTERE-SUPPLY", pos, card=f"{KIND}:{name}", where=where)
        if len(data.revealed) >= sum(_piles().values()):
            state.flag("CHARAKTERE-PILE", pos, reason="many")
        check_pile(state, pos, "CHARAKTERE-PILE", _piles())
        data.revealed.append(name)
        if state.phase == "setup":
            data.gone.append(name)  # no auction before play (flagged above)
            return
        t = state.turn  # drawn inside a turn (the Bettler): the next player is the one after
        first = (t.player + 1) % len(state.players) if t is not None else None
        ctx = Context(state, pos)
        open_auction(ctx, self.name, name, f"{KIND}:{name}", AuctionTerms(source=SRC), first)

    def auction_closed(self, ctx: Context, auction: Any) -> None:
        """ "Der Spieler mit dem höchsten Gebot ... bekommt die Charakterkarte" (L1040-1043);
        "Eine Charakterkarte, für die niemand ein Gebot abgibt, kommt ganz aus dem Spiel"
        (L1045-1047). The Gauklerin's owner decides at once (L1082-1088)."""
        state = ctx.state
        data = self.data(state)
        name = str(auction.item)
        if auction.winner is None:
            data.gone.append(name)
            return
        winner = state.players[auction.winner]
        self.owned(state, winner).append(name)
        if name == GAUKLERIN:
            data.deciding = winner.name
            stage = Stage(
                "decision",
                self.name,
                [winner.index],
                StageOrder.SEATS,
                (JUGGLER,),
                True,
                ctx.pos or NOWHERE,
                section(H, "Die Gauklerin"),
            )
            open_stage(ctx, stage)

    # ------------------------------------------------------------------ the Gauklerin

    def stage_line(self, ctx: Context, stage: Any, player: PlayerState, line: Turn) -> None:
        act = line.actions[0]
        assert isinstance(act, ModuleAction)
        self._juggle(ctx.state, player, act)

    def stage_closed(self, ctx: Context, stage: Any) -> None:
        data = self.data(ctx.state)
        if data.deciding is not None:  # no decision written: she is kept
            data.kept.append(data.deciding)
            data.deciding = None

    def legal_stage_lines(self, ctx: Context, stage: Any, player: PlayerState) -> list[Turn]:
        """``juggler keep``. A swap takes the top card of the face-down set-aside pile, which
        nobody at the table can name beforehand: it is not listed (any card not seen yet may
        be written, ``juggler ch:NAME``)."""
        who = PlayerRef(player.name)
        return [Turn(None, who, (ModuleAction(JUGGLER, (GenericArg("keep"),)),))]

    def _juggle(self, state: GameState, player: PlayerState, act: ModuleAction) -> None:
        data = self.data(state)
        pos = act.pos
        if data.deciding != player.name:
            state.flag("CHARAKTERE-JUGGLER", pos, player.name, reason="no-decision")
            return
        vals = [a.value for a in act.args]
        if len(vals) != 1:
            state.flag("CHARAKTERE-JUGGLER", pos, player.name, reason="form")
            return
        data.deciding = None
        if isinstance(vals[0], str) and vals[0].lower() in ("keep", "behalten"):
            data.kept.append(player.name)
            return
        name = self._parse(state, vals[0], pos, player.name)
        if name is None:
            data.kept.append(player.name)
            return
        where = self._where(state, name)
        if where is not None:
            state.flag(
                "CHARAKTERE-JUGGLER",
                pos,
                player.name,
                reason="not-aside",
                card=f"{KIND}:{name}",
                where=where,
            )
        # "wird die Gauklerin gegen die oberste verdeckt beiseite gelegte Charakterkarte
        # ausgetauscht. Die neue Karte legt der Spieler offen aus und kann sie ab sofort benutzen"
        owned = self.owned(state, player)
        if GAUKLERIN in owned:
            owned.remove(GAUKLERIN)
        data.aside_in.append(GAUKLERIN)
        data.aside_out.append(name)
        owned.append(name)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not isinstance(acts[0], ModuleAction):
            return None
        if acts[0].verb.lower() != JUGGLER:
            return None
        p = interrupting_player(state, turn)
        if p is not None:
            state.flag("CHARAKTERE-JUGGLER", acts[0].pos, p.name, reason="no-decision")
        return []

    # ------------------------------------------------------------------ using a card

    def holds_ability(self, ctx: Context, player: PlayerState, ability: str) -> bool:
        card = VERB_CARD.get(ability)
        return card is None or self.holds(ctx.state, player, card)

    def _use_findings(
        self, state: GameState, player: PlayerState, card: str, pos: Pos, vizier: bool = False
    ) -> list[Finding]:
        """What the card's symbol and the vizier say about using ``card`` now."""
        out: list[Finding] = []
        ref = f"{KIND}:{card}"
        if not self.holds(state, player, card):
            owned = " ".join(f"{KIND}:{c}" for c in self.owned(state, player)) or "-"
            out.append(problem("CHARAKTERE-NOT-HELD", pos, player.name, card=ref, owned=owned))
        t = state.turn
        if vizier and t is not None and t.interrupt is not None:
            out.append(problem("CHARAKTERE-VIZIER", pos, player.name, card=ref))
        if self.symbol(state, card) == "round":
            used = self.data(state).round_used.get(player.name)
            now = _round(state)
            if used is not None and used[0] == now:
                out.append(
                    problem(
                        "CHARAKTERE-ROUND",
                        pos,
                        player.name,
                        card=ref,
                        round=now,
                        first=f"{KIND}:{used[1]}",
                    )
                )
        return out

    def _used(self, state: GameState, player: PlayerState, card: str) -> None:
        data = self.data(state)
        sym = self.symbol(state, card)
        if sym == "round":
            data.round_used[player.name] = (_round(state), card)
        elif sym == "once":  # "kommen nach ihrem Einsatz ganz aus dem Spiel"
            owned = self.owned(state, player)
            if card in owned:
                owned.remove(card)
                data.gone.append(card)

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        state = ctx.state
        verb = action.verb.lower()
        card = VERB_CARD.get(verb)
        if card is None:
            return []
        out = self._use_findings(state, player, card, action.pos)
        out = [f for f in out if f.code != "CHARAKTERE-NOT-HELD"]  # ABILITY-NOT-HELD says it
        if verb == BEGGAR and self._beggar_drew(state, player):  # the one more card: the
            out = [f for f in out if f.code != "CHARAKTERE-ROUND"]  # same use of the card
        checker = getattr(self, f"_check_{verb}", None)
        if checker is not None:
            out.extend(checker(state, player, action))
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        verb = action.verb.lower()
        if verb == JUGGLER:
            self._juggle(state, player, action)
            return []
        card = VERB_CARD.get(verb)
        if card is None:
            return []
        doer = getattr(self, f"_do_{verb}")
        doer(state, player, action)
        self._used(state, player, card)
        return []

    # ----- Der reiche Gönner: "bezahlt er ohne Abgabe von Geldkarten genau passend" (L1065-1067)

    @staticmethod
    def _patron(purchase: Any) -> list[ComponentRef]:
        return [
            r
            for r in getattr(purchase, "modules_paid", ())
            if r.kind.lower() == KIND and card_name(r.name) == GOENNER
        ]

    @refines(Decision.PAY_VALUE)
    def patron_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        if self._patron(purchase) and purchase.price is not None and _is_building(purchase):
            return int(purchase.price)
        return value

    @refines(Decision.PAY_PROBLEMS)
    def patron_rules(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        out = list(found)
        state = ctx.state
        refs = [r for r in getattr(purchase, "modules_paid", ()) if r.kind.lower() == KIND]
        for ref in refs:
            pos = ref.pos or purchase.action.pos
            name = card_name(ref.name)
            if name != GOENNER:
                out.append(
                    problem(
                        "CHARAKTERE-TOKEN",
                        pos,
                        player.name,
                        token=f"{ref.kind}:{ref.name}",
                        names=f"{KIND}:{GOENNER}",
                    )
                )
                continue
            tile = token_text(purchase.action.tile)
            if not _is_building(purchase):
                out.append(
                    problem("CHARAKTERE-PATRON", pos, player.name, reason="no-building", tile="-")
                )
                continue
            out.extend(self._use_findings(state, player, GOENNER, pos, vizier=True))
            others = [c.code for c in purchase.cards_paid] + [
                f"{r.kind}:{r.name}" for r in purchase.modules_paid if r is not ref
            ]
            if others or purchase.unknown_paid:
                shown = " ".join(others) or "?"
                out.append(
                    problem(
                        "CHARAKTERE-PATRON",
                        pos,
                        player.name,
                        reason="cards",
                        tile=tile,
                        cards=shown,
                    )
                )
        return out

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        state = ctx.state
        player = purchase.player
        if self._patron(purchase) and _is_building(purchase):
            self._used(state, player, GOENNER)
        t = state.turn
        if (
            _is_building(purchase)
            and t is not None
            and t.interrupt is None
            and purchase.price is not None
            and purchase.price >= int(_data()["miser_price"])
            and self.holds(state, player, GEIZHALS)
        ):
            turn, n = self.data(state).miser_due.get(player.name, (t.number, 0))
            if turn != t.number:
                n = 0
            self.data(state).miser_due[player.name] = (t.number, n + 1)

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        """No Gönner is paid in a plain purchase (money cards only): the refinements pass. Its
        :meth:`on_purchase` then acts only for a holder of the Geizhals (his card becomes due):
        his purchase takes the pipeline, every other one the one-pass path, which this module
        need not hear of (no ``after_plain_purchase``: no note built per purchase, issue 34)."""
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        return GEIZHALS not in data.owned.get(player.name, ())

    # ----- Der Geizhals: "darf er sich sofort eine offene Geldkarte auf die Hand nehmen"

    def _miser_ready(self, state: GameState, player: PlayerState) -> bool:
        t = state.turn
        due = self.data(state).miser_due.get(player.name)
        return t is not None and due is not None and due[0] == t.number and due[1] > 0

    def _check_miser(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        out: list[Finding] = []
        ref = action.args[0].value if action.args else None
        card = ref.card if isinstance(ref, CardRef) else None
        shown = token_text(ref) if ref is not None else "?"
        if not self._miser_ready(state, player):
            out.append(
                problem(
                    "CHARAKTERE-MISER",
                    action.pos,
                    player.name,
                    reason="no-purchase",
                    card=shown,
                    last="-",
                )
            )
        if card is not None and card not in state.display:
            out.append(
                problem(
                    "CHARAKTERE-MISER",
                    action.pos,
                    player.name,
                    reason="not-shown",
                    card=shown,
                    display=_display_text(state),
                )
            )
        return out

    def _do_miser(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        data = self.data(state)
        due = data.miser_due.get(player.name)
        if due is not None:
            data.miser_due[player.name] = (due[0], max(0, due[1] - 1))
        ref = action.args[0].value if action.args else None
        if isinstance(ref, CardRef) and ref.card is not None and ref.card in state.display:
            _take_shown(state, player, ref.card)

    # ----- Der Baumeister: "am Ende des Zuges ... einen zusätzlichen Umbauzug" (L1073-1075)

    def _check_architect(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        t = state.turn
        if t is None:
            return []
        reason = ""
        extra: dict[str, Any] = {}
        if self.data(state).architect.get(player.name) == t.number:
            reason = "twice"
        elif t.main_actions == 0:
            reason = "before-action"
        elif t.pending:
            from referee.engine.fmt import fmt_tiles

            reason, extra = "before-placing", {"pending": fmt_tiles(t.pending)}
        if not reason:
            return []
        return [problem("CHARAKTERE-TIMING", action.pos, player.name, reason=reason, **extra)]

    def _do_architect(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        t = state.turn
        data = self.data(state)
        if t is not None and data.architect.get(player.name) != t.number:
            data.architect[player.name] = t.number
            Context(state, action.pos).grant_redesign()

    # ----- Der Händler: "Geldkarten zu nehmen, wenn ihre Summe nicht größer als 7 ist"

    def _do_merchant(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        if state.turn is not None:
            self.data(state).merchant[player.name] = state.turn.number

    @refines(Decision.TAKE_LIMIT)
    def merchant_limit(self, ctx: Any, limit: int, *, player: Any = None, **_: Any) -> int:
        t = ctx.state.turn
        if player is None or t is None:
            return limit
        state = ctx.state
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        if data.merchant.get(player.name) == t.number:
            return max(limit, int(_data()["merchant_limit"]))
        return limit

    # ----- Der Weise: "Bei jeder Wertung sucht sich der Spieler eine Gebäudeart aus"

    def _check_sage(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        word = str(action.args[0].value) if action.args else ""
        if _type_of(word) is None:
            return [problem("CHARAKTERE-SAGE", action.pos, player.name, word=word)]
        return []

    def _do_sage(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        word = str(action.args[0].value) if action.args else ""
        kind = _type_of(word)
        if kind is None:
            return
        due = due_scoring(state)
        number = due if due is not None else len(state.scorings_done) + 1
        self.data(state).sage[player.name] = (number, kind.code)

    # ----- Die Tänzerin: "ein Gebäude des Bauhofs gegen ein neues Gebäude (verdeckt aus dem
    # Turm gezogen) austauschen. Das alte Gebäude wird zurück in den Turm geschoben."

    def _dance(self, state: GameState, action: ModuleAction) -> tuple[int | None, object]:
        vals = [a.value for a in action.args]
        if len(vals) != 2:
            return None, None
        cur = Currency.of_code(str(vals[0])) if isinstance(vals[0], str) else None
        if cur is None or not isinstance(vals[1], TileRef | ComponentRef):
            return None, None
        return cur.field - 1, vals[1]

    def _check_dancer(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        i, _ = self._dance(state, action)
        if i is None:
            return [problem("CHARAKTERE-DANCER", action.pos, player.name, reason="form")]
        if state.turn is None and state.next_player != player.index:
            nxt = state.players[state.next_player or 0].name
            return [
                problem("CHARAKTERE-DANCER", action.pos, player.name, reason="not-next", next=nxt)
            ]
        if i >= len(state.market) or not isinstance(state.market[i], TileKind):
            field_ = str(action.args[0].value)
            return [
                problem("CHARAKTERE-DANCER", action.pos, player.name, reason="empty", field=field_)
            ]
        return []

    def _do_dancer(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        from referee.engine.core import draw_tile

        i, ref = self._dance(state, action)
        if i is None or i >= len(state.market):
            return
        old = state.market[i]
        if not isinstance(old, TileKind) or not isinstance(ref, TileRef):
            return
        ok, tile = draw_tile(state, ref, action.pos)
        if not ok:
            return
        # "Das alte Gebäude wird zurück in den Turm geschoben": it leaves the market other than
        # by a purchase, so what a module keeps for it goes along (switch dancer=supply, the
        # default: a fruit or the animals on it go back to the supply, as for a building
        # claimed off the market), and the new building is laid on the market like any other
        # (it gets its own fruit). dancer=field: only the building is exchanged; what lies on
        # the field stays there, on the new building (the modules are not told it left)
        if self.option("dancer") != "field":
            for m in state.ext.modules:
                m.market_taken(state, i, old, player)
        state.market[i] = tile
        state.bag[old] += 1
        state.bag_count += 1
        if tile is not None:  # drawn for the market: the modules hear of it (E14), e.g. a
            from referee.engine.market_side import intercept  # sultan card may claim it

            intercept(state, i, tile, action.pos)  # (Sultan L2056-2058)

    # ----- Der Geldwechsler: "eine Geldkarte von der Hand auf den Ablagestapel legen und sich
    # dafür eine höchstens gleich hohe offen ausliegende Karte beliebiger Währung ... nehmen"

    def _check_changer(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        vals = [a.value for a in action.args]
        if len(vals) != 2 or not all(isinstance(v, CardRef) for v in vals):
            return []  # VERB-ARGS
        give, take = vals[0].card, vals[1].card  # type: ignore[union-attr]
        words: dict[str, Any] = {"give": token_text(vals[0]), "take": token_text(vals[1])}
        out: list[Finding] = []
        if give is not None and player.hand[give] <= 0 and player.hand_unknown <= 0:
            out.append(
                problem("CHARAKTERE-CHANGER", action.pos, player.name, reason="not-held", **words)
            )
        if take is not None and take not in state.display:
            out.append(
                problem(
                    "CHARAKTERE-CHANGER",
                    action.pos,
                    player.name,
                    reason="not-shown",
                    display=_display_text(state),
                    **words,
                )
            )
        if give is not None and take is not None and take.value > give.value:
            out.append(
                problem("CHARAKTERE-CHANGER", action.pos, player.name, reason="higher", **words)
            )
        return out

    def _do_changer(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        vals = [a.value for a in action.args]
        if len(vals) != 2 or not all(isinstance(v, CardRef) for v in vals):
            return
        give, take = vals[0].card, vals[1].card  # type: ignore[union-attr]
        if give is not None:
            if player.hand[give] > 0:
                player.hand[give] -= 1
                player.hand += type(player.hand)()  # drop a zero count
                state.discard[give] += 1
            elif player.hand_unknown > 0 and state.pool[give] > 0:
                player.hand_unknown -= 1
                state.pool[give] -= 1
                state.pool += type(state.pool)()
                state.discard[give] += 1
        if take is not None and take in state.display:
            _take_shown(state, player, take)

    # ----- Der Bettler: "bei Zugbeginn die oberste Geldkarte vom Stapel nehmen, falls man
    # keine, nur 1 oder 2 Geldkarten auf der Hand hat" (L1104-1109)

    def _check_beggar(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        out: list[Finding] = []
        ref = action.args[0].value if len(action.args) == 1 else None
        if not (isinstance(ref, CardRef | ScoringCardRef) or _deck_card(state, ref)):
            out.append(problem("CHARAKTERE-BEGGAR", action.pos, player.name, reason="form"))
        t = state.turn
        turn, draws, money = self.data(state).beggar.get(player.name, (-1, 0, True))
        if t is not None and turn == t.number and draws > 0:
            mode = self.option("beggar")
            if draws >= 2 or (mode == "other" and money):
                out.append(
                    problem("CHARAKTERE-BEGGAR", action.pos, player.name, reason="again", mode=mode)
                )
            return out
        n = self.beggar_count(state, player)
        if n > 2:
            out.append(
                problem("CHARAKTERE-BEGGAR", action.pos, player.name, reason="too-many", n=n)
            )
        return out

    def beggar_count(self, state: GameState, player: PlayerState) -> int:
        """The Bettler's count "keine, nur 1 oder 2 Geldkarten auf der Hand" (L1104-1106): the
        money cards in the hand (unknown ones included) and the module cards held that are
        money of a currency (a diamond, "Diamanten-Karten in der neuen Währung" L955-957; a
        master-builder card, "eine normale Geldkarte"); exchange cards only with
        ``beggar_hand=exchange`` (the Bettler's own text names them apart: "keine Geld- oder
        Wechselstubenkarte"); caravanserais never (L2168-2170: they are no cards a module
        holds in the hand)."""
        n = player.hand.total() + player.hand_unknown
        exchange = self.option("beggar_hand") == "exchange"
        for m in state.ext.overriding("position_held"):
            for ref in m.position_held(state, player):
                if _money_card(state, ref) or (exchange and _hand_card(state, ref)):
                    n += 1
        return n

    def _beggar_drew(self, state: GameState, player: PlayerState) -> bool:
        t = state.turn
        turn, draws, _money = self.data(state).beggar.get(player.name, (-1, 0, True))
        return t is not None and turn == t.number and draws > 0

    def _do_beggar(self, state: GameState, player: PlayerState, action: ModuleAction) -> None:
        """The top card of the deck. "Ist dies keine Geld- oder Wechselstubenkarte, wird nach
        der entsprechenden Regel verfahren" (L1106-1108): a money card, and a module's card
        that lies in the display like money (a diamond, an exchange card, a master-builder
        card: ``display_place``), goes into the hand; a scoring card is scored before the next
        player's turn (base rule, L412-418 of the base game's section); a card laid beside
        the board when it turns up (a character card: auctioned at once; a sultan, wall or
        gate card) goes where its module lays it (``display_component``)."""
        from referee.engine.deck import draw_to_hand, turn_up_scoring

        ref = action.args[0].value if action.args else None
        t = state.turn
        data = self.data(state)
        turn, draws, _money = data.beggar.get(player.name, (-1, 0, True))
        number = t.number if t is not None else -1
        data.beggar[player.name] = (
            number,
            (draws if turn == number else 0) + 1,
            isinstance(ref, CardRef) or _hand_card(state, ref),
        )
        pos = action.pos
        if isinstance(ref, ScoringCardRef):
            turn_up_scoring(state, ref, pos)
            return
        if isinstance(ref, ComponentRef) and _deck_card(state, ref):
            handler = state.ext.kind_handler(ref.kind)
            assert handler is not None
            if state.deck_top:  # the deck's top card: cards put back on top come first
                from referee.engine.deck import module_card_left

                module_card_left(state, ref, pos)
            if not _hand_card(state, ref):  # laid beside the board (auctioned, ...)
                state.found.extend(handler.display_component(state, ref, pos) or [])
            elif state.ext.money_value(state, ref) is not None:  # money (a diamond)
                state.found.extend(handler.deal_component(state, player, ref, pos) or [])
            else:  # an exchange card, a master-builder card: out of the deck into the hand
                handled, _ = handler.position_component(state, player, "hand", ref)
                if not handled:  # a module that keeps no such card in a hand
                    state.flag("CHARAKTERE-BEGGAR", pos, player.name, reason="form")
            return
        if isinstance(ref, CardRef):  # the engine's draw into a hand (referee/engine/deck.py)
            draw_to_hand(state, player, ref.card, pos)

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """The Weise (+½ of the chosen type), the Stadtwache (1 per 3 wall segments), the kept
        Gauklerin (8 points: at the final scoring, or at each with ``juggler=each``)."""
        data = self.data(state)
        if not any(data.owned.values()):
            return None  # nobody holds a card: no part (each one below needs its card held)
        from referee.scoring import CountAdjustment, ScoringParts
        from referee.scoring.categories import PointLine

        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for p in state.players:
            chosen = data.sage.get(p.name)
            if self.holds(state, p, WEISE) and chosen is not None and chosen[0] == round_no:
                kind = _type_of(chosen[1])
                assert kind is not None
                adjustments[p.name] = (
                    CountAdjustment(
                        kind,
                        Fraction(1, 2),
                        f"ch:Weise: half a building more ({kind.code})",
                        f"ch:Weise: ein halbes Gebäude mehr ({kind.code})",
                    ),
                )
        guards = {p.name for p in state.players if self.holds(state, p, STADTWACHE)}
        per = int(_data()["guard_segments"])

        def guard(part: Any) -> int | None:
            if part.is_dirk or part.name not in guards:
                return None
            if part.alhambra is None:
                return (part.wall_claim or 0) // per
            from referee.geometry.walls import longest_outer_wall

            return longest_outer_wall(part.alhambra).length // per

        cats: list[Any] = []
        if guards:
            cats.append(
                PointLine("guard", "city guard", "Stadtwache", section(H, "Die Stadtwache"), guard)
            )
        final = round_no == 3 or self.option("juggler") == "each"
        kept = {
            n
            for n in data.kept
            if any(p.name == n and self.holds(state, p, GAUKLERIN) for p in state.players)
        }
        if final and kept:
            pts = int(_data()["juggler_points"])
            cats.append(
                PointLine(
                    "juggler",
                    "Gauklerin",
                    "Gauklerin",
                    section(H, "Die Gauklerin"),
                    {n: pts for n in kept},
                )
            )
        if not adjustments and not cats:
            return None
        return ScoringParts(adjustments, tuple(cats))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """A player's cards (``characters ch:Weise ch:Bettler``), a kept Gauklerin (``juggler
        keep``) and the Weise's type (``sage G 2``: for scoring 2); outside the player
        sections the cards revealed, out of the game, laid aside and taken from the set-aside
        pile (``characters revealed ch:Weise ...``) and the symbols stated."""
        data = self.data(state)

        def cards(word: str, items: list[str]) -> list[ModuleAction]:
            if not items:
                return []
            args = (GenericArg(word), *(GenericArg(_ref(n)) for n in items))
            return [ModuleAction(CHARACTERS, args)]

        if player is None:
            out = cards("revealed", data.revealed) + cards("out", data.gone)
            out += cards("aside", data.aside_in) + cards("taken", data.aside_out)
            for name, sym in sorted(data.symbols.items()):
                out.append(ModuleAction(SYMBOL, (GenericArg(_ref(name)), GenericArg(sym))))
            return out
        out = []
        owned = data.owned.get(player.name, [])
        if owned:
            out.append(ModuleAction(CHARACTERS, tuple(GenericArg(_ref(n)) for n in owned)))
        if player.name in data.kept:
            out.append(ModuleAction(JUGGLER, (GenericArg("keep"),)))
        if player.name in data.sage:
            number, code = data.sage[player.name]
            out.append(ModuleAction(SAGE, (GenericArg(code), GenericArg(number))))
        t = state.turn
        turn, draws, money = data.beggar.get(player.name, (-1, 0, True))
        if t is not None and turn == t.number and draws > 0:  # the Bettler's draws this turn
            words = (GenericArg(draws), *((GenericArg("money"),) if money else ()))
            out.append(ModuleAction(BEGGAR, words))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        data = self.data(state)
        vals = [a.value for a in line.args]
        pos = line.pos
        who = player.name if player is not None else None
        if verb == SYMBOL and player is None:
            self.chance(state, ModuleChance(SYMBOL, line.args, pos))
            return True
        if verb == JUGGLER and player is not None:
            data.kept.append(player.name)
            return True
        if verb == BEGGAR and player is not None and vals and isinstance(vals[0], int):
            # ``beggar N [money]`` inside a turn: the Bettler drew N cards in it (the last one
            # money), so a further draw is judged as in the game
            if state.turn is None or vals[0] < 1 or vals[1:] not in ([], ["money"]):
                state.flag("CHARAKTERE-BEGGAR", pos, who, reason="form")
                return True
            data.beggar[player.name] = (state.turn.number, vals[0], len(vals) == 2)
            return True
        if verb == SAGE and player is not None and len(vals) == 2:
            kind = _type_of(str(vals[0]))
            if kind is None or not isinstance(vals[1], int):
                state.flag("CHARAKTERE-SAGE", pos, who, word=str(vals[0]))
                return True
            data.sage[player.name] = (vals[1], kind.code)
            return True
        if verb != CHARACTERS:
            return False
        head = str(vals[0]).lower() if vals and isinstance(vals[0], str) else ""
        rest = vals[1:] if head else vals
        parsed = [n for n in (self._parse(state, v, pos, who) for v in rest) if n is not None]
        for name in parsed:
            if head in ("revealed", "taken"):
                continue
            where = self._where(state, name, revealed=False)
            if where is not None:
                state.flag("CHARAKTERE-SUPPLY", pos, who, card=f"{KIND}:{name}", where=where)
        if player is not None and not head:
            self.owned(state, player).extend(parsed)
        elif player is None and head == "revealed":
            data.revealed.extend(parsed)
        elif player is None and head == "out":
            data.gone.extend(parsed)
        elif player is None and head == "aside":
            data.aside_in.extend(parsed)
        elif player is None and head == "taken":
            data.aside_out.extend(parsed)
        else:
            state.flag("CHARAKTERE-TOKEN", pos, who, token=head or "-", names=", ".join(names()))
        return True

    # ------------------------------------------------------------------ legal moves

    def _may_use(self, state: GameState, player: PlayerState, card: str) -> bool:
        return self.holds(state, player, card) and not self._use_findings(
            state, player, card, NOWHERE, vizier=True
        )

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The owner's abilities usable now: purchases paid with the Gönner, the Geizhals'
        card after a purchase of 10 or more, the Baumeister's redesign at the end of the
        turn, the first acts of a turn (Händler, Geldwechsler) and the Bettler's draw as
        ``beggar ?`` (the deck's top card is hidden until drawn). The Tänzerin's building from
        the tower is hidden too: her swap is not listed."""
        from referee.engine.legal import tile_ref
        from referee.record.model import Buy

        state = ctx.state
        t = state.turn
        out: list[Any] = []
        # asked for an out-of-turn line (a vizier's purchase: "Wer seinen Wesirstein einsetzt
        # ..., darf dabei keine Charakterkarte verwenden", L1061-1063): no Gönner
        if not ctx.out_of_turn and self._may_use(state, player, GOENNER):
            for cur, tile, _allowed, _price in market_probes(ctx, player, (_ref(GOENNER),)):
                out.append(Buy(cur, tile_ref(tile), (_ref(GOENNER),)))
        if self._may_use(state, player, GEIZHALS) and self._miser_ready(state, player):
            for c in sorted({c for c in state.display if c is not None}, key=lambda c: c.sort_key):
                out.append(ModuleAction(MISER, (GenericArg(CardRef(c)),)))
        if (
            self._may_use(state, player, BAUMEISTER)
            and t is not None
            and not self._check_architect(state, player, ModuleAction(ARCHITECT, ()))
            and not state.game_over
        ):
            from referee.engine.legal import build_actions, remove_actions

            if build_actions(ctx, player) or remove_actions(ctx, player):
                out.append(ModuleAction(ARCHITECT, ()))
        out += self._openers(state, player)
        out += self._beggar_moves(state, player)
        return out

    def _beggar_moves(self, state: GameState, player: PlayerState) -> list[Any]:
        """``beggar ?`` (the deck's top card, hidden until drawn) when the Bettler may draw now:
        the first act of the turn, his first card or the one more."""
        t = state.turn
        if t is not None and (t.interrupt is not None or t.main_actions or t.placing):
            return []
        if not self.holds(state, player, BETTLER):
            return []
        act = ModuleAction(BEGGAR, (GenericArg(CardRef(None)),))
        return [] if self.check_verb(Context(state), player, act) else [act]

    def _openers(self, state: GameState, player: PlayerState) -> list[Any]:
        t = state.turn
        if t is not None and (t.interrupt is not None or t.main_actions or t.placing):
            return []
        out: list[Any] = []
        data = self.data(state)
        number = t.number if t is not None else state.turn_no + 1
        if self._may_use(state, player, HAENDLER) and data.merchant.get(player.name) != number:
            out.append(ModuleAction(MERCHANT, ()))
        if self._may_use(state, player, GELDWECHSLER):
            shown = sorted({c for c in state.display if c is not None}, key=lambda c: c.sort_key)
            for give in sorted(player.hand, key=lambda c: c.sort_key):
                for take in shown:
                    if take.value <= give.value and take != give:
                        args = (GenericArg(CardRef(give)), GenericArg(CardRef(take)))
                        out.append(ModuleAction(CHANGER, args))
        return out

    def legal_interrupts(self, ctx: Any) -> list[Turn]:
        """Before a due scoring: the Weise's owner names a building type (once per scoring)."""
        state = ctx.state
        number = due_scoring(state)
        if number is None or (state.turn is not None and state.turn.interrupt is None):
            return []
        out: list[Turn] = []
        for p in state.players:
            chosen = self.data(state).sage.get(p.name)
            if not self.holds(state, p, WEISE) or (chosen is not None and chosen[0] == number):
                continue
            for kind in BuildingType:
                act = ModuleAction(SAGE, (GenericArg(kind.code),))
                out.append(Turn(None, PlayerRef(p.name), (act,)))
        return out

    def sim_turn_start(self, sim: Any, player: PlayerState) -> list[Any]:
        """The first acts: the Händler, the Geldwechsler, the Bettler's draw (the top card of
        the simulator's deck)."""
        return self._openers(sim.state, player) + self._sim_beggar(sim, player)

    def _sim_beggar(self, sim: Any, player: PlayerState) -> list[Any]:
        """``beggar`` with the deck's top card, when the Bettler may draw now (the first card,
        or the one more after it)."""
        state = sim.state
        if not sim.deck or not self.holds(state, player, BETTLER):
            return []
        top = sim.deck[0]
        if isinstance(top, int):
            token: CardRef | ScoringCardRef | ComponentRef = ScoringCardRef(top)
        elif isinstance(top, MoneyCard):
            token = CardRef(top)
        else:
            token = top
        act = ModuleAction(BEGGAR, (GenericArg(token),))
        if self.check_verb(Context(state), player, act):
            return []
        return [act]

    def sim_played(self, sim: Any, player: PlayerState, action: Any) -> list[Any]:
        """The Bettler's card leaves the simulator's deck; he may draw one more. A money card
        the engine drew is taken off by the simulator itself (``SimContext.deck``); a scoring
        or module card is taken off here."""
        if not isinstance(action, ModuleAction) or action.verb.lower() != BEGGAR:
            return []
        drawn = action.args[0].value if action.args else None
        if sim.deck and not isinstance(drawn, CardRef):
            sim.deck.pop(0)
        return self._sim_beggar(sim, player)

    def sim_interrupts(self, sim: Any) -> list[Turn]:
        """Before a due scoring, each owner of the Weise names a type (the one he has most
        of; "Bei jeder Wertung sucht sich der Spieler eine Gebäudeart aus"); between turns,
        now and then, the Tänzerin's owner who moves next swaps a market building for the
        tower's top one (``sim.bag``)."""
        state = sim.state
        if state.turn is not None or state.stages:
            return []
        number = due_scoring(state)
        if number is not None:
            out: list[Turn] = []
            for p in state.players:
                chosen = self.data(state).sage.get(p.name)
                if not self.holds(state, p, WEISE) or (chosen is not None and chosen[0] == number):
                    continue
                counts = p.alhambra.counts()
                kind = max(BuildingType, key=lambda k: (counts[k], sim.rng.random()))
                act = ModuleAction(SAGE, (GenericArg(kind.code),))
                out.append(Turn(None, PlayerRef(p.name), (act,)))
            return out
        return [] if state.game_over else self._sim_dance(sim)

    def _sim_dance(self, sim: Any) -> list[Turn]:
        from referee.engine.legal import tile_ref

        state = sim.state
        nxt = state.next_player
        if nxt is None or not sim.bag or not isinstance(sim.bag[-1], TileKind):
            return []
        player = state.players[nxt]
        if not self._may_use(state, player, TAENZERIN):
            return []
        fields = [i for i, t in enumerate(state.market) if isinstance(t, TileKind)]
        hidden = sim.mine(self, dict)
        if not fields or hidden.get("danced") == state.turn_no or sim.rng.random() >= 0.5:
            return []
        hidden["danced"] = state.turn_no
        field_ = sim.rng.choice(fields)
        old = state.market[field_]
        new = sim.bag.pop()  # "ein neues Gebäude (verdeckt aus dem Turm gezogen)"
        sim.bag.insert(sim.rng.randrange(len(sim.bag) + 1), old)  # "zurück in den Turm"
        args = (GenericArg(Currency.of_field(field_ + 1).code), GenericArg(tile_ref(new)))
        return [Turn(None, PlayerRef(player.name), (ModuleAction(DANCER, args),))]

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a purchase paid with the Gönner."""
        if sim.rng.random() >= 0.3:
            return []
        return [
            a
            for a in actions
            if any(isinstance(r, ComponentRef) and r.kind == KIND for r in getattr(a, "paid", ()))
        ]

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        seen = {n for n in names() if self._where(state, n) is not None}
        table: dict[str, object] = {
            "still in the piles": max(0, sum(_piles().values()) - len(data.revealed)),
            "out of the game": " ".join(f"{KIND}:{n}" for n in data.gone) or "-",
            "set aside": " ".join(f"{KIND}:{n}" for n in data.aside_in) or "-",
            "unknown": len(names()) - len(seen),
        }
        if data.symbols:
            table["symbols stated"] = ", ".join(
                f"{KIND}:{k} {v}" for k, v in sorted(data.symbols.items())
            )
        players: dict[str, dict[str, object]] = {}
        for p in state.players:
            cards = data.owned.get(p.name, [])
            if not cards:
                continue
            row: dict[str, object] = {
                "characters": " ".join(f"{KIND}:{c}" for c in cards),
            }
            if p.name in data.kept and GAUKLERIN in cards:
                row["kept, 8 points"] = f"{KIND}:{GAUKLERIN}"
            if p.name in data.sage:
                row["sage's type"] = f"{data.sage[p.name][1]} (scoring {data.sage[p.name][0]})"
            players[p.name] = row
        return self.shown(table, players)


def _deck_card(state: GameState, value: object) -> bool:
    """A card of an enabled module that lies in the money deck: one its module shuffles into
    the piles (``money_components``) or money of a currency (a diamond, a master-builder
    card)."""
    if not isinstance(value, ComponentRef):
        return False
    handler = state.ext.kind_handler(value.kind)
    if handler is None:
        return False
    return bool(handler.money_components(state)) or _money_card(state, value)


def _money_card(state: GameState, value: object) -> bool:
    """A module card that is money of a currency: it has a value (a diamond) or a currency
    (a master-builder card, "eine normale Geldkarte mit dem Wert 3")."""
    if not isinstance(value, ComponentRef):
        return False
    if state.ext.money_value(state, value) is not None:
        return True
    handler = state.ext.kind_handler(value.kind)
    return handler is not None and handler.money_currency(state, value) is not None


def _hand_card(state: GameState, value: object) -> bool:
    """A module card of the deck that is taken into the hand like money (it takes a place of
    the display when it turns up: a diamond, an exchange card, a master-builder card), not
    laid beside the board (a character, sultan, wall or gate card)."""
    if not _deck_card(state, value):
        return False
    assert isinstance(value, ComponentRef)
    handler = state.ext.kind_handler(value.kind)
    return handler is not None and handler.display_place(value)


def _type_of(word: str) -> BuildingType | None:
    """A building type named by its letter (P S A C G T)."""
    word = word.strip().upper()
    return BuildingType(word) if word in {t.value for t in BuildingType} else None


def _round(state: GameState) -> int:
    """The round of the turn under way, or between turns of the turn that comes next (the
    legal moves of the player to move)."""
    if state.turn is None:
        return state.turn_no // (len(state.players) or 1) + 1
    return round_of(state)


def _is_building(purchase: Any) -> bool:
    """A building purchase (not a payment of the payment service, e.g. a bid)."""
    return getattr(purchase, "terms", None) is None


def _display_text(state: GameState) -> str:
    from referee.engine.fmt import fmt_cards

    return str(fmt_cards(c for c in state.display if c is not None))


def _take_shown(state: GameState, player: PlayerState, card: MoneyCard) -> None:
    """A card lying open in the display goes into the hand (its place is refilled after the
    turn)."""
    state.display.remove(card)
    player.hand[card] += 1
