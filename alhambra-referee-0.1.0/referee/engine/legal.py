"""The legal-move generator: every legal action of the player to move, modules included.

:func:`legal_actions` lists the base actions, asking the game's :class:`~referee.engine.ruleset
.Ruleset` every rule question, so a module's refinement changes the generated moves as it
changes the checks:

* "Geld nehmen": one card of the display, or several whose sum is at most the take limit
  (decision ``take.limit``; 5 in the rulebook).
* "Gebäudeplättchen kaufen": a market tile, paid with cards of the currencies the ruleset allows
  for the field (``pay.currencies``), reaching the price with no superfluous card: the engine's
  one payment search (:func:`referee.engine.actions.purchase.payments`). A payment with a
  superfluous card is legal where the profile allows it ("es gibt kein Wechselgeld zurück"), but
  it is never better than the same payment without that card, so it is not listed.
* "Alhambra umbauen": a reserve piece built into each cell the building rules allow
  (``place.problems``, how="build"), an Alhambra piece removed where ``remove.problems`` is
  empty, a reserve piece swapped "exakt an die freigewordene Position" (how="swap").
* "Am Ende Ihres Spielzuges": each bought piece into each allowed cell (how="place") or the
  reserve (below the profile's reserve limit); a tile to Dirk in a two-player game, to another
  player under ``gifts: any-player``.

Then every enabled module adds its own moves with :meth:`Module.legal_actions` (its verbs, its
ways to pay, its cards to take). Main actions (base or module) are offered while the turn may go
on and nothing has been placed; module actions of kind ``free`` at any time of the turn.

:func:`legal_interrupts` lists the out-of-turn lines (a :class:`~referee.record.model.Turn`
without a number, e.g. the vizier) the modules allow now (:meth:`Module.legal_interrupts`).

Cells are looked for on the frontier of the Alhambra (empty cells next to a piece): a module
that lets a piece stand elsewhere must also say where (a later extension point).

Every listed action is a record node, accepted by :func:`referee.engine.check_action` (a
property test checks exactly that).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from referee.catalogue import ALL_MONEY_CARDS, Currency, MoneyCard, TileKind
from referee.engine.actions.purchase import Purchase, payment_value, payments, plan_purchase
from referee.engine.context import Context, OutOfTurnContext
from referee.engine.extensions import ActionKind, Module
from referee.engine.market_side import side_offers
from referee.engine.orientation import placements
from referee.engine.ruleset import Decision
from referee.engine.state import EMPTY
from referee.engine.tower import is_tower_piece
from referee.engine.turns import Phase
from referee.geometry import legal_cells
from referee.geometry.general import frontier
from referee.geometry.pieces import Part
from referee.record.model import (
    NOWHERE,
    Action,
    BuildFromReserve,
    Buy,
    CardRef,
    ComponentRef,
    Coord,
    Give,
    ModuleAction,
    Place,
    PlayerRef,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    TileLike,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from typing import Any

    from referee.engine.state import GameState, PlayerState

__all__ = [
    "build_actions",
    "buy_actions",
    "can_end_turn",
    "card_ref",
    "cells_for",
    "game_ends_here",
    "granted_actions",
    "is_exact",
    "legal_actions",
    "legal_interrupts",
    "main_actions",
    "main_actions_open",
    "may_act",
    "module_actions",
    "mover",
    "owed_actions",
    "piece_ref",
    "placement_actions",
    "placements_of",
    "plan_is_exact",
    "redesign_actions",
    "remove_actions",
    "swap_actions",
    "take_actions",
    "take_only",
    "tile_ref",
]

ORIGIN = Coord(0, 0)


# ----------------------------------------------------------------------------- record nodes


def card_ref(card: MoneyCard) -> CardRef:
    return CardRef(card)


_TILE_REFS: dict[TileKind, TileRef] = {}
"""The reference of each catalogue tile (tiles are interned, references immutable: one each)."""


def tile_ref(tile: TileKind) -> TileRef:
    got = _TILE_REFS.get(tile)
    if got is None:
        got = _TILE_REFS[tile] = TileRef(tile.type, tile.price, tile.walls, (tile,))
    return got


def piece_ref(piece: Any) -> TileLike:
    """How a record names a piece: a tile by its code, a module piece by its component token
    (its ``code`` is ``kind:name``, e.g. a square ``sq:Tne``)."""
    if isinstance(piece, TileKind):
        return tile_ref(piece)
    carried = getattr(piece, "carried_tile", None)  # a module piece on a tile: named by the tile
    if isinstance(carried, TileKind):
        return tile_ref(carried)
    kind, _, name = str(piece.code).partition(":")
    return ComponentRef(kind, name)


# ----------------------------------------------------------------------------- who, when


def mover(state: GameState) -> PlayerState | None:
    """The player whose turn it is (under way or next)."""
    if state.turn is not None:
        return state.players[state.turn.player]
    if not state.players:
        return None
    if state.next_player is None:
        claim = state.start_claim  # before the first turn: the start line says who
        return state.player_named(claim[0]) if claim else None
    return state.players[state.next_player]


def main_actions_open(state: GameState) -> bool:
    """Whether a main action may be made now: the turn has not used up its actions (nothing
    yet, or only exact purchases) and nothing has been placed."""
    t = state.turn
    return t is None or (not t.over and not t.placing)


def take_only(state: GameState) -> bool:
    """Whether a module left taking money as the turn's only main action (``TurnState.take_only``:
    Die Arbeiter after a roll)."""
    return state.turn is not None and state.turn.take_only is not None


def may_act(state: GameState) -> bool:
    """Whether the player to move may still take a main action (take, buy, redesign, ...)."""
    return mover(state) is not None and main_actions_open(state) and not state.game_over


def can_end_turn(state: GameState) -> bool:
    """The turn may end now: something was done and every bought piece is placed."""
    t = state.turn
    return t is not None and t.main_actions > 0 and not t.pending and not owed_actions(state)


def owed_actions(state: GameState) -> list[Action]:
    """Free module actions the player to move owes now (``Module.owed_actions``)."""
    p = mover(state)
    if p is None or not state.ext or state.turn is None:
        return []
    ctx = Context(state)
    return [a for m in state.ext.modules for a in m.owed_actions(ctx, p)]


def owed_after_buy(ctx: Context, player: PlayerState, buy: Buy, interrupt: str) -> list[Action]:
    """The free actions ``player`` would owe right after ``buy`` in an out-of-turn line of the
    module ``interrupt`` (e.g. a bought plot's building, "sofort"): tried on a copy of the
    state, and only when an enabled module declares owed actions at all. A generator of
    out-of-turn lines (the vizier's) writes one of them between the purchase and the
    placement, as a player would."""
    from referee.engine.actions import run_action
    from referee.engine.turns import begin_interrupt

    state = ctx.state
    if not any(type(m).owed_actions is not Module.owed_actions for m in state.ext.modules):
        return []
    trial = state.copy()
    begin_interrupt(trial, trial.players[player.index], interrupt, NOWHERE)
    run_action(trial, buy)
    return owed_actions(trial)


# ----------------------------------------------------------------------------- building rules


def _frontier(p: PlayerState, piece: Any = None) -> list[Coord]:
    """The cells to ask the building rules about (the geometry's frontier: for a two-cell
    piece also the anchors whose second cell lies beside the Alhambra)."""
    return sorted(frontier(p.alhambra, piece), key=lambda c: (c.x, c.y))


def cells_for(ctx: Context, p: PlayerState, piece: Any, how: str = "place") -> list[Coord]:
    """Every empty cell of ``p``'s Alhambra where the building rules (decision
    ``place.problems``, as refined by the modules) let ``piece`` enter."""
    state = ctx.state
    if Decision.PLACE_PROBLEMS not in state.rules.refined and hasattr(piece, "walls"):
        return sorted(legal_cells(p.alhambra, piece), key=lambda c: (c.x, c.y))  # the fast path
    if type(piece) is TileKind and (how == "place" or how == "build"):
        return _tile_cells(ctx, p, piece, how)
    return [
        at
        for at in _frontier(p, piece)
        if not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=at, piece=piece, how=how)
    ]


def _tile_cells(ctx: Context, p: PlayerState, tile: TileKind, how: str) -> list[Coord]:
    """:func:`cells_for` of a catalogue tile placed or built from the reserve while a module
    refines ``place.problems``: the answer of the per-cell question, worked out in one batch.

    A refining module promising to leave the tile entering a cell as the base building rules
    have it (:meth:`~referee.engine.extensions.Module.leaves_plain_placement`, the promise the
    one-pass placement of the check relies on: ``building._modules_refine_here``) needs no
    question of its chain there: the base layer's answer (``BaseRules.place_problems``: the
    geometry's ``placement_problems`` for a catalogue tile, no filter) is empty exactly on the
    cells of :func:`~referee.geometry.legal_cells`, computed once from the geometry's kept
    structure. A cell some module may refine is asked as before (the whole chain)."""
    state = ctx.state
    askers = state.ext.place_askers
    if askers is None:
        askers = state.ext.placement_askers()
    base: set[Coord] | None = None
    out: list[Coord] = []
    for at in _frontier(p, tile):
        for m in askers:
            if not m.leaves_plain_placement(state, p, at, tile):
                if not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=at, piece=tile, how=how):
                    out.append(at)
                break
        else:  # every refining module leaves it alone: the base rules' answer
            if base is None:
                base = set(legal_cells(p.alhambra, tile))
            if at in base:
                out.append(at)
    return out


def _distinct(pieces: Iterable[Any]) -> list[Any]:
    seen: list[Any] = []
    for t in pieces:
        if t is not None and t not in seen:
            seen.append(t)
    return seen


def _built(p: PlayerState) -> list[tuple[Coord, Any]]:
    return [
        (at, piece)
        for at, piece in sorted(p.alhambra.items(), key=lambda cp: (cp[0].x, cp[0].y))
        if at != ORIGIN
        and piece is not None
        and hasattr(piece, "walls")
        and not (type(piece) is Part and piece.index)  # a two-cell piece once, at its anchor
    ]


# ----------------------------------------------------------------------------- main actions


def sorted_hand(hand: Counter[MoneyCard]) -> tuple[MoneyCard, ...]:
    """``tuple(sorted(hand.elements(), key=sort_key))``: the distinct cards are sorted, then
    each is repeated as often as the hand holds it (equal cards are one key of the counter,
    and distinct cards have distinct sort keys: currency and value)."""
    try:
        cards = sorted(hand, key=_RANK.__getitem__)
    except KeyError:  # a card that is not one of the catalogue's (none is known)
        cards = sorted(hand, key=_sort_key)
    return tuple([c for c in cards for _ in range(hand[c])])


def _sort_key(card: MoneyCard) -> tuple[int, int]:
    return card.sort_key


_RANK: dict[MoneyCard, int] = {c: i for i, c in enumerate(sorted(ALL_MONEY_CARDS, key=_sort_key))}
"""Each catalogue money card's place in the order of ``sort_key`` (the keys are distinct: a
currency and a value), so that a hand is sorted without a call a card."""


def _card_ref(card: MoneyCard) -> CardRef:
    """The one kept reference of ``card`` (record nodes are immutable and compared by value;
    shared with :func:`paid_refs`)."""
    got = _CARD_REFS.get(card)
    if got is None:
        got = _CARD_REFS[card] = CardRef(card)
    return got


def take_actions(ctx: Context, p: PlayerState) -> list[TakeMoney]:
    """Every distinct take of money cards: one card, or several within the take limit."""
    limit = int(ctx.decide(Decision.TAKE_LIMIT, player=p))
    shown = [c for c in ctx.state.display if c is not None]
    try:
        cards = sorted(shown, key=_RANK.__getitem__)
    except KeyError:  # a card that is not one of the catalogue's (none is known)
        cards = sorted(shown, key=_sort_key)
    seen: set[tuple[MoneyCard, ...]] = set()
    out: list[TakeMoney] = []
    for r in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, r):
            if r > 1 and sum([c.value for c in combo]) > limit:
                continue
            if combo in seen:
                continue
            seen.add(combo)
            out.append(TakeMoney(tuple([_card_ref(c) for c in combo])))
    return out


def _market(state: GameState) -> list[tuple[Currency, Any]]:
    """The market's known tiles: base tiles and module tiles from the tower (E5)."""
    return [
        (Currency.of_field(i + 1), slot)
        for i, slot in enumerate(state.market)
        if slot is not EMPTY and (isinstance(slot, TileKind) or is_tower_piece(slot))
    ]


_PAYMENTS: dict[tuple[object, ...], tuple[tuple[CardRef, ...], ...]] = {}
"""The payments of :func:`paid_refs` by the usable cards, price and ``exact_only`` (the same
cards are asked about again and again: each main action, each vizier's trial, each game)."""
_PAYMENTS_MAX = 20_000  # entries kept before the cache starts again (memory bound)
_CARD_REFS: dict[MoneyCard, CardRef] = {}


def paid_refs(
    hand: tuple[MoneyCard, ...], allowed: frozenset[Currency], price: int, exact_only: bool
) -> tuple[tuple[CardRef, ...], ...]:
    """The engine's payments (:func:`referee.engine.actions.purchase.payments`) of ``price``
    from ``hand`` (sorted by ``sort_key``) in ``allowed``, each as the card references a
    record writes. ``payments`` is a function of its arguments only and looks only at the cards
    of ``allowed`` (money cards are interned: equal cards are the same object), so its answer
    is kept by those cards, the price and ``exact_only``: asked again, the same references are
    given back (record nodes are immutable)."""
    usable = tuple([c for c in hand if c.currency in allowed])  # what payments looks at
    key = (usable, price, exact_only)
    got = _PAYMENTS.get(key)
    if got is None:
        if len(_PAYMENTS) >= _PAYMENTS_MAX:
            _PAYMENTS.clear()
        refs = _CARD_REFS
        got = tuple(
            tuple(refs.get(c) or refs.setdefault(c, CardRef(c)) for c in pay)
            for pay in payments(usable, allowed, price, exact_only)
        )
        _PAYMENTS[key] = got
    return got


_FIELD_BUYS: dict[tuple[object, ...], tuple[Buy, ...]] = {}
"""The purchases of :func:`_field_buys` by field, tile, usable cards, price, ``exact_only`` and
``must_use`` (a hand's cards of the other currencies do not change them)."""


def _field_buys(
    cur: Currency,
    tile: TileKind,
    hand: tuple[MoneyCard, ...],
    allowed: frozenset[Currency],
    price: int,
    exact_only: bool,
    must_use: frozenset[Currency] | None,
) -> tuple[Buy, ...]:
    """The purchases of the catalogue tile ``tile`` on field ``cur`` at ``price`` from ``hand``
    (sorted by ``sort_key``) in ``allowed``, as :func:`buy_actions` lists them: one ``Buy`` a
    payment of :func:`paid_refs` (those using a card of ``must_use``, when given). A function
    of the cards of ``allowed`` in the hand (what ``paid_refs`` looks at), the tile, the field,
    the price and the two options, so kept by them: asked again, the same (immutable) record
    nodes are given back."""
    usable = tuple([c for c in hand if c.currency in allowed])
    key = (cur, tile, usable, price, exact_only, must_use)
    got = _FIELD_BUYS.get(key)
    if got is None:
        if len(_FIELD_BUYS) >= _PAYMENTS_MAX:
            _FIELD_BUYS.clear()
        ref = tile_ref(tile)
        got = _FIELD_BUYS[key] = tuple(
            [
                Buy(cur, ref, pay)
                for pay in paid_refs(usable, allowed, price, exact_only)
                if must_use is None or any(c.card.currency in must_use for c in pay)  # type: ignore[union-attr]
            ]
        )
    return got


def forget_kept() -> None:
    """Empty the kept payments (``paid_refs``) and catalogue purchases (``_field_buys``): what
    is asked next is worked out afresh, as in a new process (a test compares the two answers;
    a long-running process may give the memory back)."""
    _PAYMENTS.clear()
    _FIELD_BUYS.clear()


def buy_actions(
    ctx: Context,
    p: PlayerState,
    extra: Sequence[object] = (),
    exact_only: bool = False,
    must_use: frozenset[Currency] | None = None,
) -> list[Buy]:
    """Every purchase of a market tile paid from ``p``'s hand with no superfluous card, in the
    currencies the ruleset allows for the field.

    ``extra``: module components paid as well (e.g. an exchange card; they change what the
    ruleset allows); ``must_use``: only payments using a card of one of these currencies (a
    module's payment way is listed where it makes a difference)."""
    out: list[Buy] = []
    hand = sorted_hand(p.hand)
    more = tuple(extra)
    rules = ctx.state.rules
    # no module refines the price or the currencies: the base answers read neither the
    # purchase nor the player (``BaseRules``), so a catalogue tile's terms need no plan
    refined = rules.refined
    plain = (
        not more and Decision.PAY_PRICE not in refined and Decision.PAY_CURRENCIES not in refined
    )
    memo = rules.memo
    for cur, tile in _market(ctx.state):
        if plain and isinstance(tile, TileKind):
            # what plan_purchase finds for it: the tile on its own field, its printed price
            # through ``pay.price``; ``pay.currencies`` of the field. Neither decision is
            # refined, and the base layer's answers read only the profile, the field and the
            # printed price: kept per profile (:attr:`Ruleset.memo`)
            key = ("buy.terms", cur, tile.price)
            terms: tuple[int, frozenset[Currency]] | None = memo.get(key)
            if terms is None:
                terms = memo[key] = (
                    int(
                        ctx.decide(Decision.PAY_PRICE, player=p, purchase=None, printed=tile.price)
                    ),
                    frozenset(
                        ctx.decide(Decision.PAY_CURRENCIES, player=p, field=cur, purchase=None)
                    ),
                )
            price, allowed = terms
            out.extend(_field_buys(cur, tile, hand, allowed, price, exact_only, must_use))
            continue
        ref = piece_ref(tile)
        probe = plan_purchase(ctx.state, p, Buy(cur, ref, more))  # type: ignore[arg-type]
        allowed = frozenset(
            ctx.decide(Decision.PAY_CURRENCIES, player=p, field=cur, purchase=probe)
        )
        price = probe.price if probe.price is not None else tile.price  # decision pay.price
        for pay in paid_refs(hand, allowed, price, exact_only):
            if must_use is not None and not any(c.card.currency in must_use for c in pay):  # type: ignore[union-attr]
                continue
            out.append(Buy(cur, ref, (*pay, *more) if more else pay))  # type: ignore[arg-type]
    for offer in side_offers(ctx.state) if ctx.state.ext else ():  # E15: beside the market
        if offer.price is None:
            continue
        if offer.own_turn and (ctx.out_of_turn or p is not mover(ctx.state)):
            continue  # only the player to move, in his own turn (E30)
        named = offer.currency if offer.field_named else None
        ref = piece_ref(offer.piece)
        probe = plan_purchase(ctx.state, p, Buy(named, ref, more))  # type: ignore[arg-type]
        allowed = frozenset(
            ctx.decide(Decision.PAY_CURRENCIES, player=p, field=offer.currency, purchase=probe)
        )
        price = probe.price if probe.price is not None else offer.price
        for pay in paid_refs(hand, allowed, price, exact_only or offer.exact_only):
            if must_use is not None and not any(c.card.currency in must_use for c in pay):  # type: ignore[union-attr]
                continue
            out.append(Buy(named, ref, (*pay, *more) if more else pay))  # type: ignore[arg-type]
    return out


def is_exact(ctx: Context, p: PlayerState, buy: Buy) -> bool:
    """Whether ``buy`` would be paid exactly (decisions ``pay.value`` and ``pay.exact``)."""
    return plan_is_exact(ctx, p, plan_purchase(ctx.state, p, buy))


def plan_is_exact(ctx: Context, p: PlayerState, plan: Purchase) -> bool:
    """:func:`is_exact` of the purchase ``plan`` (made by ``plan_purchase``) resolves."""
    if plan.price is None:
        return False
    value = payment_value(ctx, plan)
    return bool(
        ctx.decide(Decision.PAY_EXACT, player=p, purchase=plan, value=value, price=plan.price)
    )


def build_actions(ctx: Context, p: PlayerState) -> list[Action]:
    """Redesign 1: a reserve piece built into the Alhambra, to each allowed cell."""
    return [
        BuildFromReserve(piece_ref(turned), at)
        for piece in _distinct(p.reserve)
        for turned in placements(piece)  # a piece that may be turned: each orientation (E6)
        for at in cells_for(ctx, p, turned, "build")
    ]


def remove_actions(ctx: Context, p: PlayerState) -> list[Action]:
    """Redesign 2: an Alhambra piece into the reserve, wherever the building rules allow."""
    return [
        RemoveToReserve(piece_ref(piece), at)
        for at, piece in _built(p)
        if not ctx.decide(Decision.REMOVE_PROBLEMS, player=p, at=at, piece=piece)
    ]


def swap_actions(ctx: Context, p: PlayerState) -> list[Action]:
    """Redesign 3: a reserve piece exactly in the place of an Alhambra piece."""
    reserve = _distinct(p.reserve)
    if not reserve:
        return []
    return [
        Swap(piece_ref(turned), at, piece_ref(old))
        for at, old in _built(p)
        for piece in reserve
        for turned in placements(piece)  # each orientation of a piece that may be turned (E6)
        if piece != old
        and not ctx.decide(Decision.PLACE_PROBLEMS, player=p, at=at, piece=turned, how="swap")
    ]


def redesign_actions(ctx: Context, p: PlayerState) -> list[Action]:
    """Build, remove, swap (Alhambra umbauen)."""
    return build_actions(ctx, p) + remove_actions(ctx, p) + swap_actions(ctx, p)


def _kind(state: GameState, action: Action) -> ActionKind:
    if isinstance(action, ModuleAction):
        return state.ext.verb_kind(action.verb) or ActionKind.MAIN
    return ActionKind.MAIN


def module_actions(ctx: Context, p: PlayerState) -> list[Action]:
    """What the enabled modules add for ``p`` now (:meth:`Module.legal_actions`), keeping main
    actions only while main actions are open, and never an interrupting verb; and the bids on
    the standing offers modules laid out (:func:`referee.engine.auction.standing_bids`)."""
    state = ctx.state
    open_ = main_actions_open(state) and not state.game_over
    out: list[Action] = []
    for m in state.ext.modules:
        for a in m.legal_actions(ctx, p):
            kind = _kind(state, a)
            if kind == ActionKind.INTERRUPT:
                continue
            if kind != ActionKind.FREE and not open_:
                continue
            if kind != ActionKind.FREE and take_only(state) and not isinstance(a, TakeMoney):
                continue  # after a roll of Die Arbeiter: takes only (module money included)
            out.append(a)
    if (
        state.standing and open_ and not take_only(state)
    ):  # bids on standing offers (the auction service's)
        from referee.engine.auction import standing_bids

        out += standing_bids(ctx, p)
    return out


def granted_actions(state: GameState) -> list[Action]:
    """Redesigns granted on top of the turn's actions (``turns.grant_redesign``), open while
    the grant lasts even when no main action may follow."""
    t = state.turn
    p = mover(state)
    if t is None or p is None or t.extra_redesigns <= 0 or main_actions_open(state):
        return []
    return redesign_actions(Context(state), p)


def main_actions(state: GameState) -> list[Action]:
    """Base take, buy and redesign actions open to the player to move (no module actions)."""
    p = mover(state)
    if p is None or not may_act(state):
        return []
    ctx = Context(state)
    if take_only(state):
        return list(take_actions(ctx, p))
    return [*take_actions(ctx, p), *buy_actions(ctx, p), *redesign_actions(ctx, p)]


# ----------------------------------------------------------------------------- placements


def placements_of(ctx: Context, p: PlayerState, piece: Any) -> list[Action]:
    """Where one bought piece may go at the end of the turn."""
    state = ctx.state
    ref = piece_ref(piece)
    out: list[Action] = [
        Place(piece_ref(turned), at)
        for turned in placements(piece)  # a piece that may be turned: each orientation (E6)
        for at in cells_for(ctx, p, turned, "place")
    ]
    limit = ctx.decide(Decision.RESERVE_LIMIT, player=p)
    if limit is None or len(p.reserve) < limit:
        out.append(Reserve(ref))
    if isinstance(piece, TileKind) or is_tower_piece(piece):  # Dirk takes module tiles too
        if state.dirk is not None:
            out.append(Give(ref, None))
        if state.profile.gifts == "any-player":
            for other in state.players:
                if other is p:
                    continue
                other_limit = ctx.decide(Decision.RESERVE_LIMIT, player=other)
                if other_limit is None or len(other.reserve) < other_limit:
                    out.append(Give(ref, PlayerRef(other.name)))
    return out


def placement_actions(state: GameState) -> list[Action]:
    """Where each piece bought (or taken) this turn may go."""
    t = state.turn
    if t is None or not t.pending:
        return []
    p = state.players[t.player]
    ctx = Context(state)
    return [a for piece in _distinct(t.pending) for a in placements_of(ctx, p, piece)]


# ----------------------------------------------------------------------------- the generator


def game_ends_here(state: GameState) -> bool:
    """Whether the game is over once the refill just written is closed ("sobald – nach dem Zug
    eines Spielers – die Gebäudeplättchen nicht mehr komplett nachgelegt werden können")."""
    from referee.engine.core import settle_before

    if state.game_over:
        return True
    if state.turn is not None or state.phase is not Phase.REFILL:
        return False
    if state.bag_count > 0 and not state.bag_uncertain:
        return False
    trial = state.copy()
    settle_before(trial, NOWHERE, "turn")
    return trial.game_over


def legal_actions(state: GameState) -> list[Action]:
    """Every legal next action of the player to move: base main actions, then the modules'
    actions, then placements. Empty when nobody is to move or the game is over."""
    p = mover(state)
    if p is None or game_ends_here(state):
        return []
    ctx = Context(state)
    return (
        main_actions(state)
        + module_actions(ctx, p)
        + placement_actions(state)
        + granted_actions(state)
    )


def legal_interrupts(state: GameState) -> list[Turn]:
    """Every out-of-turn line the enabled modules allow now (between two turns, the table
    settled: refill written, Dirk's draw written; a due scoring may still come, e.g. a bonus
    card revealed just before it)."""
    from referee.engine.core import settle_before

    if state.stages:  # other players act inside a turn or refill: the stage's lines only
        from referee.engine.stages import legal_stage_lines

        return legal_stage_lines(state)
    if not state.ext or state.turn is not None or not state.players or state.phase is Phase.SETUP:
        return []
    early: list[Turn] = []  # lines inside the open refill (the state as written so far)
    if state.phase is Phase.REFILL:
        here = OutOfTurnContext(state)
        early = [line for m in state.ext.modules for line in m.legal_refill_interrupts(here)]
    if not any(type(m).legal_interrupts is not Module.legal_interrupts for m in state.ext.modules):
        return early  # no enabled module offers lines between turns: nothing to settle for
    trial = state.copy()
    before = len(trial.found)
    settle_before(trial, NOWHERE, "scoring" if trial.scoring_pending else "turn")
    if any(v.severity == "error" for v in trial.found[before:]):
        return early
    ctx = OutOfTurnContext(trial)
    return early + [line for m in trial.ext.modules for line in m.legal_interrupts(ctx)]
