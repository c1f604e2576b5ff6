"""Applying a record's events to a :class:`GameState`, checking every rule on the way.

The entry points are :func:`new_state` (a fresh game), :func:`apply_item` (one body line),
:func:`finish` (end of the record), and for single actions :func:`apply_action` /
:func:`check_action`. After a violation the event is still applied "as played" wherever that
is physically possible, so one mistake does not hide the next.

Rule texts and sections live in :mod:`referee.engine.rules`; rule sections quoted below are from
``rulebook-base-de-2003.txt``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from referee.catalogue import (
    ALL_MONEY_CARDS,
    MONEY_COPIES,
    Currency,
    MoneyCard,
    TileKind,
    catalogue,
)
from referee.engine.context import Context as _Context
from referee.engine.context import kept_context as _kept_context
from referee.engine.deck import left_deck as _left_deck
from referee.engine.extensions import MODULES, Extensions, load_bundled_modules, module_owning_verb
from referee.engine.findings import problem as _problem
from referee.engine.findings import report as _report
from referee.engine.market_side import aside_event as _aside_event
from referee.engine.ruleset import Decision
from referee.engine.state import EMPTY, GameState, PlayerState, TurnState, decrement
from referee.engine.turns import Moment, Phase, Settle
from referee.messages import Join, Term, Text
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import (
    NOWHERE,
    Action,
    BodyItem,
    CardLike,
    CardRef,
    Chance,
    CommentLine,
    ComponentRef,
    Coord,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    Pos,
    Position,
    Reshuffle,
    Scoring,
    ScoringCardRef,
    StartPlayer,
    TileLike,
    TileRef,
    Turn,
)

DIRK_DRAW = 6  # "6 zufällig gezogene Gebäudeteile" (Sonderregel für das Spiel zu zweit)


# ---------------------------------------------------------------------------- formatting

from referee.engine.fmt import (  # noqa: E402  (re-exported: modules and tools use them)
    NO_CARDS,
    fmt_card,
    fmt_cards,
    fmt_market,
    fmt_ref,
    fmt_tile,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


# the enum members as module constants: an enum class attribute costs ten global lookups, and
# these are read on every turn (a hot path). A phase compared with the member it holds is equal
# at once (the same object); a string set by a tool still compares by its value
# (each ``Final``: compiled, a read is a C static instead of a look-up in the module's dict)
_SETUP: Final = Phase.SETUP
_TURN: Final = Phase.TURN
_REFILL: Final = Phase.REFILL
_BETWEEN: Final = Phase.BETWEEN
_OVER: Final = Phase.OVER
_TURN_FLOW = (Moment.REFILL_DONE, Moment.TURN_START, Moment.TURN_END)
"""The moments of a turn's one-pass paths in :func:`_turn` (leaving out their ``Extensions.at``)."""
_REFILL_DONE: Final = Moment.REFILL_DONE
_TURN_START: Final = Moment.TURN_START
_TURN_END: Final = Moment.TURN_END
_EMPTY_ID: Final = id(EMPTY)  # ``_EMPTY_ID in map(id, fields)``: an identity test of each field
_S_TURN: Final = Settle.TURN
_S_SCORING: Final = Settle.SCORING
_S_DISTRIBUTION: Final = Settle.DISTRIBUTION
_S_END: Final = Settle.END
# names of other modules read on every turn, as ``Final`` aliases (the same objects)
_EMPTY: Final = EMPTY
_CARD_REF: Final = CardRef
_COMPONENT_REF: Final = ComponentRef
_SCORING_CARD_REF: Final = ScoringCardRef
_TILE_REF: Final = TileRef


def _decide(state: GameState, decision: str, **args: Any) -> Any:
    """The game's answer to a rule decision (the ruleset: profile + modules)."""
    rules = state.rules
    constants = rules.constants
    if decision in constants:
        return constants[decision]
    return rules.answer[decision](state.context or _kept_context(state), **args)


def _bag_text(state: GameState, dative: bool = False) -> Text:
    from referee.engine.actions.supply import bag_text

    return bag_text(state, dative)


def money_total(two_player: bool, profile: RuleProfile) -> int:
    copies = profile.two_player_money_copies if two_player else MONEY_COPIES
    return copies * len(ALL_MONEY_CARDS)


def new_state(
    players: Sequence[str],
    profile: RuleProfile | None = None,
    ext: Extensions | None = None,
    source: str = "<text>",
    youngest: str | None = None,
) -> GameState:
    """A game before setup: full deck and bag, empty display and market."""
    prof = profile or DEFAULT_PROFILE
    two = len(players) == 2
    copies = prof.two_player_money_copies if two else MONEY_COPIES
    pool: Counter[MoneyCard] = Counter({c: copies for c in ALL_MONEY_CARDS})
    bag: Counter[TileKind] = Counter(catalogue().tiles)
    state = GameState(
        players=[PlayerState(name, i) for i, name in enumerate(players)],
        profile=prof,
        ext=ext or Extensions(),
        source=source,
        copies=copies,
        pool=pool,
        deck_unknown=pool.total(),
        bag=bag,
        bag_count=bag.total(),
        dirk=[] if two else None,
        youngest=youngest,
        dirk_due=0 if two else None,
    )
    if state.ext:
        _later("referee.engine.tower").fill_tower(state)
    return state


# ---------------------------------------------------------------------------- multisets


_dec = decrement  # the engine's one multiset decrement (referee.engine.state)


def _whereabouts(state: GameState, card: MoneyCard) -> Join:
    parts: list[Text] = []

    def add(n: int, where: str, name: str = "") -> None:
        if n:
            times = f" ({n}×)" if n > 1 else ""
            parts.append(Text(f"CARD-SUPPLY.where/{where}", name=name, times=times))

    for p in state.players:
        add(p.hand[card], "hand", p.name)
    add(state.display.count(card), "display")
    add(state.discard[card], "discard")
    add(state.deck_known[card], "deck")
    if state.standing:  # cards of standing bids, beside their offers
        from referee.engine.auction import standing_whereabouts

        for n, what in standing_whereabouts(state, card):
            add(n, "offer", what)
    return Join(tuple(parts), empty=Text("CARD-SUPPLY.where/revealed"))


def _card_supply(state: GameState, card: MoneyCard, pos: Pos, player: str | None = None) -> None:
    where = _whereabouts(state, card)
    state.flag("CARD-SUPPLY", pos, player, card=card.code, copies=state.copies, where=where)


# ---------------------------------------------------------------------------- money deck


def _reshuffle(state: GameState, pos: Pos = NOWHERE) -> None:
    state.deck_known.update(state.discard)
    state.deck_unknown += state.discard_unknown
    state.discard.clear()
    state.discard_unknown = 0
    state.reshuffles += 1
    state.deck_top = ()  # a new deck: nothing lies on top of it any more
    state.found.extend(state.ext.reshuffle(state, pos))


def _draw_money(state: GameState, card: MoneyCard | None, pos: Pos) -> bool:
    """Take one money card off the deck; False when there is none at all."""
    known = state.deck_known
    # deck_size == 0, inline; the unknown count is never negative, so it decides most draws
    if state.deck_unknown == 0 and not (known and known.total()):
        if state.discard_size == 0:
            state.flag(
                "REFILL-DISPLAY",
                pos,
                reason="no-money",
            )
            return False
        state.flag(
            "REFILL-RESHUFFLE",
            pos,
            reason="deck-empty",
            discard_size=state.discard_size,
        )
        _reshuffle(state, pos)
    if state.deck_top:  # cards a module put back on top: they come first (referee.engine.deck)
        _left_deck(state, (card,), pos)
    if card is None:
        if state.deck_unknown == 0:  # which known card it was is lost: forget the deck
            state.pool.update(state.deck_known)
            state.deck_unknown = state.deck_known.total()
            state.deck_known.clear()
        state.deck_unknown -= 1
        return True
    if state.deck_known.get(card, 0) > 0:  # get: no Counter.__missing__ call (a hot path)
        _dec(state.deck_known, card)
    elif state.deck_unknown > 0 and state.pool.get(card, 0) > 0:
        _dec(state.pool, card)
        state.deck_unknown -= 1
    else:
        _card_supply(state, card, pos)
        # as played: one card left the deck
        if state.deck_unknown > 0:
            state.deck_unknown -= 1
        else:
            first = next(iter(state.deck_known))
            _dec(state.deck_known, first)
    return True


# ---------------------------------------------------------------------------- tiles


def _draw_tile(state: GameState, ref: TileLike, pos: Pos) -> tuple[bool, Any]:
    """Draw one tile from the bag: (drawn at all, the tile or None if unknown; a module's piece
    from the tower: ``Any``, as a compiled build checks a ``TileKind`` at run time)."""
    if state.bag_count <= 0:
        state.flag(
            "TILE-SUPPLY",
            pos,
            reason="bag-empty",
            tile=fmt_ref(ref),
            bag=_bag_text(state),
        )
        return False, None
    state.bag_count -= 1
    if type(ref) is _TILE_REF and ref.type is not None:
        cands = ref.candidates
        if len(cands) == 1:
            one = cands[0]
            bag = state.bag
            n = bag.get(one, 0)
            if n > 0:  # _take_from_bag's common case (supply.resolve_from_bag), inline
                if n > 1:
                    bag[one] = n - 1
                else:
                    dict.__delitem__(bag, one)
                return True, one
        return True, _take_from_bag(state, ref, pos)
    if isinstance(ref, _COMPONENT_REF):  # a module's tile from the tower (E5)
        return True, _later("referee.engine.tower").draw_from_tower(state, ref, pos)
    if not ref.known:
        return True, None
    tile = _take_from_bag(state, ref, pos)
    return True, tile


draw_tile = _draw_tile  # public for the market-side pieces (referee/engine/market_side.py)
draw_money = _draw_money  # public for a module drawing the deck's top card to a hand (Bettler)


def _take_from_bag(state: GameState, ref: TileRef, pos: Pos) -> TileKind | None:
    """Resolve a known tile reference against the unseen tiles and take it out of them."""
    if not _SUPPLY:  # imported on first use (the actions import this module)
        import importlib  # (a compiled build: no module bound by an import inside a function)

        _SUPPLY.append(importlib.import_module("referee.engine.actions.supply"))
    supply = _SUPPLY[0]
    tile, taken, found = supply.resolve_from_bag(state, ref, pos)
    if found:
        _report(state, found)
    if taken and tile is not None:
        supply.take_out_of_bag(state, tile)
    return tile


_SUPPLY: list[Any] = []


_LATER: Final[dict[str, Any]] = {}
"""Engine modules this one does not import at its top (a base game never needs them, or they
import this one), by name: imported by :func:`_later` on first use and kept, since an ``import``
statement inside a function costs about 8,700 instructions each time it runs (CPython 3.11,
bench/README.md, "Issue 34, fifth step: the slow modules")."""


def _later(name: str) -> Any:
    """The module ``name`` (``referee.engine.verbs``, ...), imported on first use."""
    got = _LATER.get(name)
    if got is None:
        import importlib  # (a compiled build: no module bound by an import inside a function)

        got = _LATER[name] = importlib.import_module(name)
    return got


def match_slot(ref: TileLike | None, slots: Sequence[object]) -> int | None:
    """Index of the first slot holding a tile the reference can mean (None: no match)."""
    if isinstance(ref, _COMPONENT_REF):  # a module piece says whether the token means it
        for i, slot in enumerate(slots):
            matches = getattr(slot, "matches", None)
            if matches is not None and matches(ref):
                return i
        return None
    if ref is None or not ref.known:
        return None
    cands = ref.candidates
    for i, slot in enumerate(slots):
        if slot is not None and slot is not _EMPTY and slot in cands:
            return i
    for i, slot in enumerate(slots):  # a module piece carrying a tile is named by its tile
        if getattr(slot, "carried_tile", None) in cands:
            return i
    return None


def _unknown_tile_note(state: GameState, pos: Pos, player: str | None) -> None:
    state.note(pos, "UNVERIFIED-BUILD-UNKNOWN-TILE", player)


# ---------------------------------------------------------------------------- building


def _build(state: GameState, p: PlayerState, tile: Any, at: Coord, pos: Pos) -> bool:
    """Put a tile into the Alhambra with every building rule checked; False if it cannot lie
    there physically (occupied cell)."""
    # (the building module imports this one: on first use, by _later)
    built = _later("referee.engine.actions.building").check_and_build(
        _Context(state), p, tile, at, pos, "distribute"
    )
    if built:
        state.ext.placed(state, p, at, tile, "distribute", pos)
    return built


# ---------------------------------------------------------------------------- setup


def _deal(state: GameState, ev: Deal, pos: Pos) -> None:
    p = state.find_player(ev.player, pos)
    if p is None:
        for c in ev.cards:  # the cards still left the deck
            if isinstance(c, CardRef):
                _draw_money(state, c.card, c.pos or pos)
        return
    if state.phase is not _SETUP:
        state.flag(
            "SETUP-ORDER",
            pos,
            p.name,
            reason="deal-after-play",
        )
    elif state.display:
        state.flag(
            "SETUP-ORDER",
            pos,
            p.name,
            reason="deal-after-display",
        )
    if p.dealt or p.dealt_pos != NOWHERE:
        state.flag(
            "SETUP-DEAL-ORDER",
            pos,
            p.name,
            order=", ".join(state.names),
            reason="twice",
            name=p.name,
        )
    else:
        dealt = [q for q in state.players if q.dealt_pos != NOWHERE]
        if dealt:
            last = max(dealt, key=lambda q: q.dealt_pos.line * 10000 + q.dealt_pos.column)
            expected = state.players[(last.index + 1) % len(state.players)]
        else:
            expected = None
            if state.profile.deal_first == "youngest" and state.youngest:
                expected = state.player_named(state.youngest)
        if expected is not None and expected is not p and expected.dealt_pos == NOWHERE:
            state.flag(
                "SETUP-DEAL-ORDER",
                pos,
                p.name,
                order=", ".join(state.names),
                reason="out-of-order",
                name=p.name,
                expected=expected.name,
            )
    p.dealt_pos = pos
    total = 0
    reached_at: int | None = None
    unknown = False
    for i, ref in enumerate(ev.cards):
        cpos = getattr(ref, "pos", pos) or pos
        if isinstance(ref, ScoringCardRef):
            state.flag(
                "SETUP-DEAL",
                cpos,
                p.name,
                cards=fmt_cards(p.dealt),
                reason="scoring-card",
                number=ref.number,
            )
            continue
        if isinstance(ref, ComponentRef):
            handler = state.ext.kind_handler(ref.kind)
            value = None if handler is None else handler.money_value(state, ref)
            if handler is None:
                _unhandled_component(state, ref, cpos, p.name)
            elif value is not None:  # module money (e.g. a diamond): start money like a card
                state.found.extend(handler.deal_component(state, p, ref, cpos) or [])
                p.dealt_more.append(value)
                total += value
                if (
                    reached_at is None
                    and not unknown
                    and total >= _decide(state, Decision.START_MONEY)
                ):
                    reached_at = i
            else:
                token = f"{ref.kind}:{ref.name}"
                state.flag(
                    "SETUP-DEAL",
                    cpos,
                    p.name,
                    cards=fmt_cards(p.dealt),
                    reason="not-money",
                    token=token,
                )
            continue
        if not _draw_money(state, ref.card, cpos):
            continue
        if ref.card is None:
            p.hand_unknown += 1
            unknown = True
        else:
            p.hand[ref.card] += 1
            total += ref.card.value
        p.dealt.append(ref.card)
        if reached_at is None and not unknown and total >= _decide(state, Decision.START_MONEY):
            reached_at = i
    if reached_at is not None and reached_at < len(ev.cards) - 1:
        state.flag(
            "SETUP-DEAL",
            pos,
            p.name,
            cards=fmt_cards(p.dealt),
            reason="goes-on",
            reached=_dealt_prefix(state, ev.cards, reached_at),
        )
    elif unknown:
        state.note(pos, "UNVERIFIED-START-MONEY-UNKNOWN", p.name, name=p.name)
    elif total < _decide(state, Decision.START_MONEY):
        state.flag(
            "SETUP-DEAL",
            pos,
            p.name,
            cards=fmt_cards(p.dealt),
            reason="stops-at",
            total=total,
        )
    state.deals_done += 1


def total_prefix(cards: Sequence[MoneyCard | None], upto: int) -> int:
    return sum(c.value for c in cards[: upto + 1] if c is not None)


def _dealt_prefix(state: GameState, refs: Sequence[object], upto: int) -> int:
    """The value of the first ``upto + 1`` cards of a deal line (module money included)."""
    total = 0
    for ref in refs[: upto + 1]:
        card = getattr(ref, "card", None)
        if isinstance(card, MoneyCard):
            total += card.value
        else:
            total += state.ext.money_value(state, ref) or 0
    return total


def _compute_start(state: GameState, pos: Pos) -> int | None:
    """The start player by the rulebook ("Spielvorbereitung"), checked against the claim."""
    players = state.players
    if not players:
        return None
    claim = state.start_claim
    claimed = state.player_named(claim[0]) if claim else None
    if any(p.hand_unknown for p in players) or any(not (p.dealt or p.dealt_more) for p in players):
        if claimed is not None:
            state.note(claim[2] if claim else pos, "UNVERIFIED-START-PLAYER-MONEY")
            return claimed.index
        return None
    use_total = state.profile.start_tiebreak == "cards-total-youngest"

    def key(p: PlayerState) -> tuple[int, int]:
        total = sum(c.value for c in p.dealt if c is not None) + sum(p.dealt_more)
        return (len(p.dealt) + len(p.dealt_more), total if use_total else 0)

    best = min(key(p) for p in players)
    tied = [p for p in players if key(p) == best]

    def why() -> Text:  # the message text, built only when a finding needs it
        return Text(
            "SETUP-START.why/" + ("cards-total" if use_total else "cards"),
            players=Join(
                tuple(
                    Text("SETUP-START.why/player", name=p.name, cards=len(p.dealt), total=key(p)[1])
                    for p in players
                )
            ),
        )

    if len(tied) == 1:
        start = tied[0]
    else:
        young = state.player_named(state.youngest) if state.youngest else None
        if young is not None and young in tied:
            start = young
        elif claimed is not None and claimed in tied:
            if not (claim and claim[1]):
                state.note(
                    claim[2] if claim else pos,
                    "UNVERIFIED-START-TIE-CLAIMED",
                    players=", ".join(p.name for p in tied),
                )
            return claimed.index
        elif claimed is None:
            state.note(pos, "UNVERIFIED-START-TIE", players=", ".join(p.name for p in tied))
            return None
        else:
            start = tied[0]
            if young is None:
                state.flag(
                    "SETUP-START",
                    claim[2] if claim else pos,
                    claimed=claimed.name,
                    computed=Join(tuple(p.name for p in tied), sep=Text("WORD/or")),
                    why=why(),
                )
                return claimed.index
    if claimed is not None and claimed is not start:
        state.flag(
            "SETUP-START",
            claim[2] if claim else pos,
            claimed=claimed.name,
            computed=start.name,
            why=why(),
        )
        return claimed.index  # as played
    return start.index


def _pile_bounds(state: GameState) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Allowed money cards revealed before W1, before W2, and between them."""
    profile = state.profile
    return _pile_bounds_of(
        state.setup_after, profile.pile_tolerance, profile.scoring_card_placement == "top"
    )


@lru_cache(maxsize=256)
def _pile_bounds_of(
    n: int, tol: float, top: bool
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    fifth = n / 5
    lo = max(0, math.floor(fifth * (1 - tol)))
    hi = math.ceil(fifth * (1 + tol))
    if top:
        w1 = (lo, hi)
        w2 = (3 * lo, min(3 * hi, n - 2 * lo))
        gap = (2 * lo, 2 * hi)
    else:
        w1 = (lo, min(2 * hi, n - 3 * lo))
        w2 = (3 * lo, min(4 * hi, n - lo))
        gap = (lo, 3 * hi)
    return w1, w2, gap


def _pile_text(state: GameState, number: int, lo: int, hi: int) -> Text:
    """Where scoring card ``number`` lies and when it turns up (``SCORING-CARD-PILE.how/...``)."""
    placement = "top" if state.profile.scoring_card_placement == "top" else "shuffled"
    return Text(
        f"SCORING-CARD-PILE.how/{placement}",
        pile=2 if number == 1 else 4,
        cards=state.setup_after,
        number=number,
        lo=lo,
        hi=hi,
    )


def _check_pile_overrun(state: GameState, pos: Pos) -> None:
    """A scoring card that has not turned up although its pile is exhausted."""
    if state.setup_after <= 0:
        return
    seen, flagged = state.scoring_seen, state.scoring_flagged
    if (1 in seen or 1 in flagged) and (2 in seen or 2 in flagged):
        return  # both cards turned up (or reported): nothing to watch (a hot path)
    profile = state.profile  # _pile_bounds(state), inline
    bounds = _pile_bounds_of(
        state.setup_after, profile.pile_tolerance, profile.scoring_card_placement == "top"
    )
    for number in (1, 2):
        if number in seen or number in flagged:
            continue
        lo, hi = bounds[number - 1]
        if state.money_draws > hi or state.reshuffles:
            state.scoring_flagged.add(number)
            how = _pile_text(state, number, lo, hi)
            state.flag(
                "SCORING-CARD-PILE",
                pos,
                reason="not-turned-up",
                money_draws=state.money_draws,
                number=number,
                how=how,
            )


def _scoring_card(state: GameState, ref: ScoringCardRef, pos: Pos) -> None:
    number = ref.number
    if state.deck_top:  # cards a module put back on top of the deck come first
        _left_deck(state, (number,), pos)
    if number not in (1, 2) or number in state.scoring_seen:
        state.flag(
            "SCORING-UNEXPECTED",
            pos,
            reason="card-again",
            number=number,
        )
        return
    if number == 2 and 1 not in state.scoring_seen:
        state.flag("SCORING-CARD-ORDER", pos)
    state.scoring_seen[number] = state.money_draws
    state.scoring_pending.append(number)
    if state.setup_after <= 0 or number in state.scoring_flagged:
        return
    bounds = _pile_bounds(state)
    lo, hi = bounds[number - 1]
    k = state.money_draws
    how = _pile_text(state, number, lo, hi)
    if state.reshuffles or not lo <= k <= hi:
        state.scoring_flagged.add(number)
        state.flag(
            "SCORING-CARD-PILE",
            pos,
            reason="outside-pile",
            number=number,
            k=k,
            how=how,
        )
    elif number == 2 and 1 in state.scoring_seen:
        glo, ghi = bounds[2]
        gap = k - state.scoring_seen[1]
        if not glo <= gap <= ghi and 2 not in state.scoring_flagged:
            state.scoring_flagged.add(2)
            state.flag(
                "SCORING-CARD-PILE",
                pos,
                reason="piles-apart",
                gap=gap,
                glo=glo,
                ghi=ghi,
            )


scoring_card_drawn = _scoring_card  # public: a scoring card a module draws from the deck
# outside a refill (the Bettler): the base rule, scored before the next player's turn
pile_bounds = _pile_bounds  # public: the money cards allowed before W1, before W2, between them


def _display(state: GameState, ev: DisplayReveal, pos: Pos) -> None:
    setup = state.phase is _SETUP
    rules = state.rules
    size = rules.constants.get(Decision.DISPLAY_SIZE)  # None: a module decides it
    refined = _DISPLAY_OCCUPIED in rules.refined
    display = state.display
    for ref in ev.cards:
        cpos = ref.pos or pos
        if type(ref) is _CARD_REF:  # the common case first: a money card
            card = ref.card
            # the occupied places: display_cards(state) (len(state.display)) unless refined
            if (_occupied(state) if refined else len(state.display)) >= (
                size if size is not None else _decide(state, _DISPLAY_SIZE)
            ):
                if state.unwritten_cards and None in display:
                    _late_card(state)
                else:
                    _display_full(state, card, cpos, setup)
            if (
                state.deck_unknown > 0
                and not state.deck_known
                and not state.deck_top
                and card is not None
                and state.pool.get(card, 0) > 0
            ):
                # _draw_money's common case, inline: a known card from the unknown deck
                pool = state.pool
                n = pool[card] - 1
                if n:
                    pool[card] = n
                else:
                    dict.__delitem__(pool, card)
                state.deck_unknown -= 1
            elif not _draw_money(state, card, cpos):
                continue
            if not setup:
                state.money_draws += 1
            display.append(card)
        elif isinstance(ref, _SCORING_CARD_REF):
            if setup:
                state.flag(
                    "SETUP-DISPLAY",
                    cpos,
                    reason="scoring-card",
                    number=ref.number,
                )
            _scoring_card(state, ref, cpos)
        elif isinstance(ref, _COMPONENT_REF):
            if state.deck_top and not setup and state.ext.kind_handler(ref.kind) is not None:
                # a module's card turned up from the deck: cards put back on top come first
                from referee.engine.deck import module_card_left

                module_card_left(state, ref, cpos)
            handled = state.ext.display_component(state, ref, cpos)
            if handled is None:
                _unhandled_component(state, ref, cpos)
            else:
                state.found.extend(handled)
    if not setup and state.setup_after > 0:
        seen, flagged = state.scoring_seen, state.scoring_flagged
        # _check_pile_overrun's tests, inline: it reports a card not turned up (nor reported)
        # only past its pile's last card or after a reshuffle
        one = 1 in seen or 1 in flagged
        two = 2 in seen or 2 in flagged
        if not (one and two):
            profile = state.profile
            w1, w2, _gap = _pile_bounds_of(
                state.setup_after, profile.pile_tolerance, profile.scoring_card_placement == "top"
            )
            draws = state.money_draws
            if state.reshuffles or (not one and draws > w1[1]) or (not two and draws > w2[1]):
                _check_pile_overrun(state, pos)


_DISPLAY_SIZE: Final = Decision.DISPLAY_SIZE
_DISPLAY_OCCUPIED: Final = Decision.DISPLAY_OCCUPIED
_FIELD_INDEX: Final = {c: c.field - 1 for c in Currency}
_RESERVE_LIMIT: Final = Decision.RESERVE_LIMIT  # a currency's market field (0-3)
# public for a module turning cards up into the display inside a turn (the Schmied of Die
# Wanderhandwerker widens it to 6): the same checks as a refill line, against the display size
# the module's refinement of ``display.size`` answers while it reveals
reveal_display = _display


def _occupied(state: GameState) -> int:
    """The answer to ``display.occupied`` (``rules.answer``'s): the base answer (the money
    cards in the display, ``ruleset.display_cards``) passed through the enabled modules'
    refinements in their order (``Ruleset.occupied``), each called as the chain calls it,
    ``refine(ctx, occupied)``; the state's kept context (``GameState.context``) only when a
    refinement is called. A refinement whose module promises what it adds
    (``Module.display_places``, ``Ruleset.occupied_reads``) is read instead where the promise
    holds: the pieces its part holds in the display."""
    found: int = len(state.display)
    reads = state.rules.occupied_reads
    if reads:
        # a refinement promising to add its part's pieces in the display
        # (``Module.display_places``): that attribute read where the promise holds, no call
        # (no promise: the attribute "", which no part has; no part yet: None, which has none)
        parts = state.modules
        ctx: _Context | None = None
        for name, attr, refine in reads:
            held = getattr(parts.get(name), attr, None)
            if type(held) is list:
                found += len(held)
            elif type(held) is Counter:
                if held:
                    found += sum(held.values())
            else:
                if ctx is None:
                    ctx = state.context or _kept_context(state)
                found = refine(ctx, found)
    return found


# public for a tool or test asking what the engine asks before each card turned up (held to
# the rule chain's answer by tests/test_speed12_dispatch.py)
display_occupied = _occupied


def _display_full(state: GameState, card: MoneyCard | None, pos: Pos, setup: bool) -> None:
    """A card turned up although the display is full."""
    if setup:
        state.flag(
            "SETUP-DISPLAY",
            pos,
            reason="fifth-card",
            card=fmt_card(card),
        )
    else:
        state.flag(
            "REFILL-DISPLAY",
            pos,
            reason="display-full",
            display=fmt_cards(state.display),
            card=fmt_card(card),
        )


def _late_field(state: GameState, named: int | None, expected: int | None) -> int | None:
    """A refill line after the next turn names the unknown tile an unwritten refill left on a
    field (the named field, else the first such field while no field is empty): that tile
    is this one, drawn from the bag now."""
    fields = state.unrefilled
    if named in fields:
        pick: int | None = named
    elif named is None and expected is None and fields:
        pick = fields[0]
    else:
        return None
    assert pick is not None
    if state.market[pick] is not None:
        return None
    fields.remove(pick)
    return pick


def market_target(state: GameState, named: Currency | None, pos: Pos) -> int | None:
    """The market field (0-3) a tile drawn now is for: the lowest empty field; a named other
    field is reported (``SETUP-MARKET`` / ``REFILL-MARKET``) and used if it is empty."""
    market = state.market
    expected = None  # the lowest empty field
    for i, slot in enumerate(market):
        if slot is EMPTY:
            expected = i
            break
    target = named.field - 1 if named is not None else expected
    if target == expected and expected is not None:
        return target  # the common case: nothing to report
    if state.unrefilled:
        late = _late_field(state, target if named is not None else None, expected)
        if late is not None:
            return late
    code = "SETUP-MARKET" if state.phase is _SETUP else "REFILL-MARKET"
    if expected is None:
        state.flag(
            code,
            pos,
            reason="market-full",
            market=fmt_market(state.market),
        )
    elif target is not None and state.market[target] is not EMPTY:
        cur = Currency.of_field(target + 1).code
        state.flag(
            code,
            pos,
            reason="field-taken",
            field=cur,
            tile=fmt_tile(state.market[target]),  # type: ignore[arg-type]
        )
        target = expected
    elif target != expected:
        cur = Currency.of_field(target + 1).code  # type: ignore[operator]
        exp = Currency.of_field(expected + 1).code
        state.flag(
            code,
            pos,
            reason="field-order",
            field=cur,
            expected=exp,
        )
    return target


def _market(state: GameState, ev: MarketDraw, pos: Pos) -> None:
    if state.unrefilled:
        _placeholders_gone(state)
    # the modules' kept answers, read once a line (without a module: () and None, the class
    # defaults of Extensions): ``refilling``, those that may lay a piece of their own on an
    # empty field (none: every entry is a draw, and _refill_from would answer False); ``heard``,
    # those hearing the draws as one call (Extensions.draw_heard)
    ext = state.ext
    refilling = ext.refilling_from
    heard = ext.draw_heard
    heard_types = ext.draw_types  # (None: every piece; else the only types they act on)
    market = state.market
    for fld, ref in ev.entries:
        epos = getattr(ref, "pos", pos) or pos
        if (
            fld is not None
            and refilling
            and fld.field <= len(state.market)
            and state.market[fld.field - 1] is _EMPTY
            and _refill_from(state, fld.field - 1, ref, epos)
        ):
            # a piece a module kept for the named field turned up: nothing is drawn, so the
            # order of the draws does not apply (the field before may stay empty for good)
            continue
        # market_target(state, fld, epos)'s common case first: the lowest empty field, named
        expected = None
        for i, slot in enumerate(market):
            if slot is _EMPTY:
                expected = i
                break
        if expected is None or (fld is not None and _FIELD_INDEX[fld] != expected):
            target = market_target(state, fld, epos)
        else:
            target = expected
        if target is not None and refilling and _refill_from(state, target, ref, epos):
            continue  # a piece a module kept for the field turned up (nothing is drawn)
        drawn, tile = _draw_tile(state, ref, epos)
        if drawn and target is not None:
            if heard is not None and tile is not None:
                # market_side.intercept without its call: the modules hearing the draws, as one
                # call (Extensions.draw_heard); the first that sets the piece aside (E14: the
                # record should have written ``* aside``: reported under that module's rule,
                # reason ``market``); else it lies there. Not asked about a piece of a type
                # none of them acts on (Module.draw_types: their promise)
                if heard_types is None or type(tile) in heard_types:
                    aside = heard(state, target, tile, epos)
                    if aside:
                        state.flag(aside, epos, reason="market", tile=fmt_ref(ref))
                        continue
                if state.phase is _REFILL:  # the open refill's draws (a position states them)
                    # (two tuples joined by ``+``: no list built in between, as unpacking does)
                    so_far = state.refill_drawn
                    pair = ((target, tile),)
                    state.refill_drawn = so_far + pair if so_far else pair
            state.market[target] = tile


def _refill_from(state: GameState, target: int, ref: TileLike, pos: Pos) -> bool:
    """A module turns up its own piece for field ``target`` instead of a draw
    (:meth:`~referee.engine.extensions.Module.market_refill_from`): it lies there."""
    for m in state.ext.refilling_from:
        got = m.market_refill_from(state, target, ref, pos)
        if got is not None:
            state.market[target] = got[0]
            return True
    return False


def dirk_wanted(state: GameState, due: int) -> tuple[int, Text]:
    """How many tiles Dirk's draw ``due`` (0 setup, 1/2 after that scoring) takes, and why
    (a catalogue phrase, ``DIRK-DRAW.how/...``). "Nach der 2. Wertung bekommt Dirk ... ein
    Drittel – abgerundet – der noch im Beutel verbliebenen Plättchen" (Sonderregel für das Spiel
    zu zweit); never more than the bag holds."""
    if due == 2:
        want = state.profile.dirk_second_draw
        if want is None:
            want = state.bag_count // 3 * state.profile.dirk_second_thirds
            how = Text("DIRK-DRAW.how/third", bag_count=state.bag_count)
            if state.profile.dirk_second_thirds != 1:
                how = Text("DIRK-DRAW.how/profile", profile=state.profile.name)
        else:
            how = Text("DIRK-DRAW.how/profile", profile=state.profile.name)
    else:
        want = DIRK_DRAW
        how = Text("DIRK-DRAW.how/" + ("start" if due == 0 else "after-scoring-1"))
    return min(want, max(state.bag_count, 0)), how


def _dirk(state: GameState, ev: DirkDraw, pos: Pos) -> None:
    if state.dirk is None:
        state.flag(
            "DIRK-DRAW",
            pos,
            reason="not-two-player",
            n_players=len(state.players),
        )
        for ref in ev.tiles:
            _draw_tile(state, ref, pos)
        return
    due = state.dirk_due
    n = len(ev.tiles)
    if due is None:
        state.flag(
            "DIRK-DRAW",
            pos,
            reason="not-due",
        )
    else:
        want, how = dirk_wanted(state, due)
        if n != want:
            state.flag(
                "DIRK-DRAW",
                pos,
                reason="count",
                n=n,
                want=want,
                how=how,
            )
        state.dirk_draws.append(due)
        state.dirk_due = None
    for ref in ev.tiles:
        drawn, tile = _draw_tile(state, ref, getattr(ref, "pos", pos) or pos)
        if drawn:
            state.dirk.append(tile)


def _finish_setup(state: GameState, pos: Pos) -> None:
    """Called when the first turn starts: everything of the setup must be there."""
    names = state.names
    n = len(names)
    if n < 2 or n > 6 or len({x.casefold() for x in names}) != n:
        state.flag(
            "SETUP-PLAYERS",
            pos,
            reason="count",
            n=n,
            names=Join(tuple(names), empty=Text("WORD/none")),
        )
    missing = [p.name for p in state.players if p.dealt_pos == NOWHERE]
    if missing:
        state.flag(
            "SETUP-DEAL",
            pos,
            ", ".join(missing),
            cards=NO_CARDS,
            reason="missing",
        )
    shown = _decide(state, Decision.DISPLAY_OCCUPIED)  # module money there too (diamonds)
    if shown != _decide(state, Decision.DISPLAY_SIZE):
        state.flag(
            "SETUP-DISPLAY",
            pos,
            reason="count",
            n_display=shown,
        )
    if any(s is EMPTY for s in state.market):
        state.flag(
            "SETUP-MARKET",
            pos,
            reason="opening",
            market=fmt_market(state.market),
        )
    if state.dirk is not None and state.dirk_due == 0:
        state.flag(
            "DIRK-DRAW",
            pos,
            reason="missing",
        )
        state.dirk_due = None
    state.setup_after = state.deck_size
    start = _compute_start(state, pos)
    state.next_player = start
    state.phase = _BETWEEN
    state.ext.at(Moment.SETUP_DONE, state)


# ---------------------------------------------------------------------------- between turns


def _close_refill(state: GameState, pos: Pos, check: bool = True) -> None:
    """After a turn's refill lines: the display and market must be full where possible.

    ``check`` False (the record simply ends here): only decide whether the game is over.
    """
    if state.phase is not _REFILL:
        return
    _refill_checks(state, pos, check)
    if state.ext.modules:
        state.ext.at(Moment.REFILL_DONE, state)


def _refill_checks(state: GameState, pos: Pos, check: bool) -> None:
    state.phase = _BETWEEN
    if state.unrefilled:
        _placeholders_gone(state)
    if not state.ext.modules:  # catalogue tiles and None: ``in`` compares them in C
        market_open = _EMPTY in state.market
    else:  # a module's pieces: identity tests (no __eq__ call per field)
        market = state.market
        if len(market) == 4:  # the four fields, each by ``is`` (no map, no id() call each)
            market_open = (
                market[0] is _EMPTY
                or market[1] is _EMPTY
                or market[2] is _EMPTY
                or market[3] is _EMPTY
            )
        else:  # another number of fields (a module's market): the same test, in C
            market_open = _EMPTY_ID in map(id, market)
        if state.ext.refill_counted:  # the one place GameState.refills_closed is counted:
            state.refills_closed += 1  # every close, before its REFILL_DONE step
        if state.refill_drawn is not None and check:
            # closed by a line: its draws are no longer open (the record's end closes it only
            # to decide whether the game is over: a block written there states it open)
            state.refill_drawn = None
    if state.bag_uncertain and market_open:
        # a position does not say how many tiles are left: the record decides
        state.maybe_over = True
        check = False
        state.note(pos, "UNVERIFIED-BAG-AFTER-POSITION")
    if check:
        rules = state.rules
        size = rules.constants.get(_DISPLAY_SIZE)  # None: a module decides it
        if size is None:
            size = _decide(state, _DISPLAY_SIZE)
        if state.deck_uncertain and len(state.display) < size:
            state.note(pos, "UNVERIFIED-DECK-AFTER-POSITION")
        elif (
            _occupied(state) if _DISPLAY_OCCUPIED in rules.refined else len(state.display)
        ) < size and (state.deck_size + state.discard_size) > 0:
            state.flag(
                "REFILL-DISPLAY",
                pos,
                reason="not-refilled",
                display=fmt_cards(state.display),
            )
            _unwritten_refill(state, size)
        if market_open and state.bag_count > len(state.unrefilled):
            state.flag(
                "REFILL-MARKET",
                pos,
                reason="not-refilled",
                market=fmt_market(state.market),
                bag_count=state.bag_count,
                bag=_bag_text(state),
            )
            market_open = _unwritten_market(state)
    left = state.bag_count - len(state.unrefilled)  # tiles of an unwritten refill are out
    if state.profile.game_end == "bag-empty":
        if left == 0:
            _game_over(state, Text("GAME-END.why/bag-empty", bag=_bag_text(state)))
    elif market_open and left == 0:
        _game_over(state, Text("GAME-END.why/market-incomplete"))


def _unwritten_refill(state: GameState, size: int) -> None:
    """A refill the record does not write (reported once, REFILL-DISPLAY): the cards were
    turned up all the same ("Dazu werden nun fehlende Geldkarten und fehlende
    Gebäudeplättchen wieder auf jeweils vier Stück ergänzt", § Am Ende Ihres Spielzuges), so
    they lie in the display as unknown cards. One missing line is one finding, not one on
    every later turn; a later take names what they were."""
    for _ in range(size):
        if _occupied(state) >= size or state.deck_size == 0:
            return
        _draw_money(state, None, NOWHERE)
        state.money_draws += 1
        state.display.append(None)
        state.unwritten_cards += 1


def _unwritten_market(state: GameState) -> bool:
    """The market's side of :func:`_unwritten_refill`: each empty field holds an unknown tile
    from then on (in field order, while the bag has one). The tile is counted out of the bag
    only when it leaves the field (bought) or a late refill line names it: a repeated purchase
    line then draws nothing twice. Whether a field stays empty (the bag is used up)."""
    market = state.market
    for i, slot in enumerate(market):
        if slot is _EMPTY and state.bag_count > len(state.unrefilled):
            market[i] = None
            state.unrefilled.append(i)
    return _EMPTY in market


def _placeholders_gone(state: GameState) -> None:
    """An unknown tile of an unwritten refill that left its field was drawn after all."""
    for i in list(state.unrefilled):
        if state.market[i] is not None:
            state.unrefilled.remove(i)
            state.bag_count -= 1


def _late_card(state: GameState) -> None:
    """A refill line after the next turn names a card the unwritten refill turned up: the
    unknown card is that one (drawn once, not twice)."""
    state.unwritten_cards -= 1
    state.display.remove(None)
    state.deck_unknown += 1
    state.money_draws -= 1


def _game_over(state: GameState, why: Text) -> None:
    """The game is over; ``why`` (a catalogue phrase, ``GAME-END.why/...``) is shown in the
    findings about play after the end."""
    state.game_over = True
    state.end_reason = why


def settle_before(state: GameState, pos: Pos, before: Settle | str) -> None:
    """Everything that must have happened before a turn / scoring / distribution line
    (``before``: a :class:`~referee.engine.turns.Settle`; its string value is accepted, a
    misspelt one is an error): the setup finished, the refill closed, a due scoring flagged.
    Public for tools that start a turn on a state by hand.
    Open stages (other players acting inside a turn or refill) end first."""
    if state.stages:
        _close_stages(state, pos)
    if before.__class__ is not Settle:
        before = Settle(before)  # a misspelt mode is an error, never a silent no-op
    if state.phase is _SETUP:
        _finish_setup(state, pos)
    if before is _S_SCORING:  # the market may still be refilled after a scoring 1 or 2
        return
    _close_refill(state, pos, check=before is not _S_END)
    _settle_due(state, pos)


def _settle_due(state: GameState, pos: Pos) -> None:
    """The end of :func:`settle_before` (the refill closed): a due scoring, a due Dirk draw."""
    if state.scoring_pending:
        for number in list(state.scoring_pending):
            state.flag(
                "SCORING-MISSING",
                pos,
                reason="due",
                number=number,
            )
            _do_scoring(state, number, pos)
        state.scoring_pending.clear()
    if state.dirk_due not in (1, 2):  # the common case: no Dirk draw is due
        return
    if dirk_wanted(state, state.dirk_due)[0] == 0:
        # a third of fewer than 3 tiles, or an empty bag: no draw happens, none is written.
        # After a position block the bag count is not certain, but it is an upper bound (every
        # tile the block states is taken out of the 54; a tile it leaves out stays counted):
        # a third of it rounding to zero means a third of the real bag does too
        # ("ein Drittel – abgerundet – der noch im Beutel verbliebenen Plättchen")
        state.dirk_draws.append(state.dirk_due)
        state.dirk_due = None
        return
    state.flag(
        "DIRK-DRAW",
        pos,
        reason="missing-after-scoring",
        dirk_due=state.dirk_due,
    )
    state.dirk_due = None


# ---------------------------------------------------------------------------- scoring


def _scoring_entries(state: GameState, round_no: int) -> list[object]:
    return list(_later("referee.scoring.state").scoring_entries(state, round_no))


def _do_scoring(state: GameState, round_no: int, pos: Pos, claim: Scoring | None = None) -> None:
    if state.ext.modules:
        state.ext.at(Moment.SCORING_BEFORE, state, pos)
    try:  # (imported on first use, by _later: a function-level import costs at every scoring)
        claim_mismatches = _later("referee.scoring").claim_mismatches
        claim_section = _later("referee.scoring.categories").claim_section
        score_state = _later("referee.scoring.state").score_state
    except ImportError:  # pragma: no cover - scoring package missing
        state.note(pos, "UNVERIFIED-SCORING-UNAVAILABLE")
        return
    if any(p.alhambra_unknown for p in state.players) or (
        state.dirk is not None and None in state.dirk
    ):
        state.note(pos, "UNVERIFIED-SCORING-UNKNOWN-TILES", round_no=round_no)
    result = score_state(state, round_no)  # the categories, with the modules' parts
    state.scoring_results.append(result)
    state.scorings_done.append(round_no)
    for row in result.rows:
        p = state.player_named(row.name) if not getattr(row, "is_dirk", False) else None
        if p is not None:
            p.score = row.total
        elif getattr(row, "is_dirk", False):
            state.modules["_dirk_score"] = row.total
    if claim is not None:
        for c in claim.claims:
            cpos = c.pos if c.pos != NOWHERE else claim.pos
            if c.player is not None and state.player_named(c.player.name) is None:
                state.flag("UNKNOWN-PLAYER", cpos, c.player.name, players=", ".join(state.names))
                continue
            if c.player is None and state.dirk is None:
                state.flag("UNKNOWN-PLAYER", cpos, "Dirk", players=", ".join(state.names))
                continue
            for mm in claim_mismatches(result, c):
                state.flag(
                    "SCORE-CLAIM",
                    cpos,
                    mm.player,
                    section=claim_section(mm.what),  # a module's part cites its own section
                    round=round_no,
                    what=Term(mm.what, "SCORE-CLAIM.what"),
                    claimed=mm.claimed,
                    computed=mm.computed,
                    line=mm.shown(),  # the breakdown line in the message's language
                )
    if state.dirk is not None and round_no in (1, 2):
        state.dirk_due = round_no
    state.ext.at(Moment.SCORING_DONE, state, pos)


def _scoring(state: GameState, item: Scoring) -> None:
    pos = item.pos
    r = item.round
    settle_before(state, pos, _S_DISTRIBUTION if r == 3 else _S_SCORING)
    if r in (1, 2):
        if r in state.scoring_pending:
            state.scoring_pending.remove(r)
            _do_scoring(state, r, pos, item)
            return
        seen = " ".join(f"W{n}" for n in state.scoring_pending) or "no scoring card"
        state.flag(
            "SCORING-UNEXPECTED",
            pos,
            reason="not-due",
            r=r,
            seen=seen,
        )
        return
    if r == 3:
        if 3 in state.scorings_done:
            state.flag(
                "SCORING-UNEXPECTED",
                pos,
                reason="final-done",
            )
            return
        if not state.game_over and state.maybe_over:
            _game_over(state, Text("GAME-END.why/market-not-refilled"))
        if not state.game_over:
            state.flag(
                "END-EARLY",
                pos,
                reason="final-scoring",
                market=fmt_market(state.market),
                bag_count=state.bag_count,
                bag=_bag_text(state),
                bag_in=_bag_text(state, dative=True),
            )
        if not state.distributed:
            _check_distribution(state, None, pos)
        state.ext.at(Moment.LEFTOVERS_DONE, state)
        _do_scoring(state, 3, pos, item)
        state.phase = _OVER
        state.ext.at(Moment.GAME_END, state)
        return
    state.flag(
        "SCORING-UNEXPECTED",
        pos,
        reason="no-such-round",
        r=r,
    )


# ---------------------------------------------------------------------------- game end


def _most_money(state: GameState, cur: Currency) -> tuple[PlayerState | None, bool, str]:
    """The player with the most money of a currency (None on a tie), whether it is known.

    What counts as money is the decision ``distribution.money`` (the hand's cards; modules add
    their own money, e.g. coins)."""
    sums: list[tuple[int, PlayerState]] = []
    known = True
    for p in state.players:
        money = _decide(state, Decision.DISTRIBUTION_MONEY, player=p, currency=cur)
        if money is None:
            known = False
            money = sum(c.value for c in p.hand.elements() if c.currency is cur)
        sums.append((money, p))
    best = max(s for s, _ in sums) if sums else 0
    top = [p for s, p in sums if s == best]
    shown = ", ".join(f"{p.name} {s}" for s, p in sums)
    if best == 0 or len(top) != 1:
        return None, known, shown
    return top[0], known, shown


def _check_distribution(state: GameState, item: Distribution | None, pos: Pos) -> None:
    state.distributed = True
    # the modules' steps "Bevor die restlichen Gebäudeplättchen an die Spieler verteilt werden"
    state.ext.at(Moment.LEFTOVERS_BEFORE, state)
    judge = state.game_over  # before the game end only END-EARLY is reported
    awarded: set[int] = set()
    if item is not None:
        for aw in item.awards:
            apos = aw.pos or pos
            idx: int | None = aw.field.field - 1 if aw.field is not None else None
            slot_idx = match_slot(aw.tile, state.market)
            if idx is None:
                idx = slot_idx
            tile: Any  # a TileKind or a module's piece (compiled: no run-time check)
            pick = _distribution_pick(state, idx, aw, apos) if idx is not None else None
            if pick is not None:  # a module decides this field (distribution_pick)
                assert idx is not None
                piece, winner, known, shown = pick
                tile = piece
                awarded.add(idx)
                cur = Currency.of_field(idx + 1)
            else:
                if idx is None or state.market[idx] is EMPTY:
                    state.flag(
                        "END-DISTRIBUTE",
                        apos,
                        reason="not-in-market",
                        tile=fmt_ref(aw.tile),
                        market=fmt_market(state.market),
                    )
                    continue
                slot = state.market[idx]
                tile = slot
                if slot is None and isinstance(aw.tile, TileRef) and aw.tile.known:
                    tile = _take_from_bag(state, aw.tile, apos)
                elif (
                    isinstance(aw.tile, TileRef)
                    and aw.tile.known
                    and slot is not None
                    and slot not in aw.tile.candidates
                ):
                    state.flag(
                        "END-DISTRIBUTE",
                        apos,
                        reason="other-tile",
                        field=Currency.of_field(idx + 1).code,
                        tile=fmt_tile(tile),
                        claimed=fmt_ref(aw.tile),
                    )
                awarded.add(idx)
                cur = Currency.of_field(idx + 1)
                winner, known, shown = _most_money(state, cur)
            named = state.find_player(aw.player, apos) if aw.player is not None else None
            if aw.player is not None and named is None:
                continue
            if not judge:
                pass
            elif not known:
                state.note(apos, "UNVERIFIED-LEFTOVER-MAJORITY", currency=cur.code)
            elif named is not winner:
                right = winner.name if winner else Text("END-DISTRIBUTE.right/tie")
                state.flag(
                    "END-DISTRIBUTE",
                    apos,
                    named.name if named else None,
                    reason="wrong-player",
                    tile=fmt_tile(tile),
                    field=cur.code,
                    shown=shown,
                    right=right,
                    named=named.name if named else Text("WORD/nobody"),
                )
            if named is None:
                continue
            state.market[idx] = EMPTY
            if aw.at is not None:
                orient = _later("referee.engine.orientation").orient
                tile, turn_found = orient(tile, aw.tile, apos, named.name)  # E6: stated walls
                _report(state, turn_found)
                if not _build(state, named, tile, aw.at, apos):
                    named.reserve_add(tile)
            else:
                named.reserve_add(tile)
    # tiles nobody was given although someone had the most money
    for idx, slot in enumerate(state.market):
        if slot is EMPTY or idx in awarded:
            continue
        cur = Currency.of_field(idx + 1)
        winner, known, shown = _most_money(state, cur)
        if judge and known and winner is not None:
            state.flag(
                "END-DISTRIBUTE",
                item.pos if item is not None else pos,
                reason="not-given",
                tile=fmt_tile(slot),  # type: ignore[arg-type]  # a tile here: not EMPTY
                field=cur.code,
                name=winner.name,
                shown=shown,
            )


def _distribution_pick(
    state: GameState, idx: int, aw: Any, pos: Pos
) -> tuple[object, PlayerState | None, bool, str] | None:
    """A module's answer for a leftover award on field ``idx``
    (:meth:`~referee.engine.extensions.Module.distribution_pick`), or None (the base rule)."""
    if not state.ext:
        return None
    for m in state.ext.overriding("distribution_pick"):
        got = m.distribution_pick(state, idx, aw, pos)
        if got is not None:
            return got
    return None


def _distribution(state: GameState, item: Distribution) -> None:
    settle_before(state, item.pos, _S_DISTRIBUTION)
    if state.distributed:
        state.flag(
            "END-DISTRIBUTE",
            item.pos,
            reason="done-already",
        )
        return
    if not state.game_over and state.maybe_over:
        _game_over(state, Text("GAME-END.why/market-not-refilled"))
    if not state.game_over:
        state.flag(
            "END-EARLY",
            item.pos,
            reason="leftovers",
            market=fmt_market(state.market),
            bag_count=state.bag_count,
            bag=_bag_text(state),
            bag_in=_bag_text(state, dative=True),
        )
    _check_distribution(state, item, item.pos)


# ---------------------------------------------------------------------------- turns


def begin_turn(
    state: GameState, player: int, number: int | None = None, pos: Pos = NOWHERE
) -> None:
    """Start a turn of ``player`` (index); the turn counter advances."""
    state.turn_no += 1
    # TurnState(number, player, pos=pos), positionally: keyword calls cost more (a hot path)
    state.turn = TurnState(
        number if number is not None else state.turn_no,
        player,
        0,
        False,
        None,
        False,
        False,
        [],
        pos,
    )
    state.phase = _TURN
    if state.ext.modules:  # no module: no moment to run (not even the call)
        if state.standing:  # a bid still lying at the start of its bidder's turn wins
            _later("referee.engine.auction").standing_turn_start(state, player, pos)
        if state.ext.turn_start_kept:  # (Module.reads_turn_start: the mover's cells now)
            alh = state.players[player].alhambra
            if state.turn_start_version.get(player) != alh.version:  # (else the kept copy)
                state.turn_start[player] = alh.cells.copy()
                state.turn_start_version[player] = alh.version
        state.ext.at(Moment.TURN_START, state)


_CLOSE_PLACEMENTS: Final[list[Callable[[GameState, PlayerState, Pos], None]]] = []


def end_turn(state: GameState, pos: Pos) -> None:
    """Close the current turn: every bought tile placed, the turn did something."""
    t = state.turn
    if t is None:
        return
    p = state.players[t.player]
    if t.main_actions == 0:
        state.flag("TURN-EMPTY", pos, p.name)
    elif not t.over and state.profile.extra_action == "compulsory":
        # the last main action was an exact purchase and no action followed
        state.flag("TURN-EXTRA-ACTION", pos, p.name, profile=state.profile.name)
    if not _CLOSE_PLACEMENTS:  # imported on first use (the actions import this module)
        from referee.engine.actions.placement import close_placements

        _CLOSE_PLACEMENTS.append(close_placements)
    if t.pending or p.reserve:  # else close_placements has nothing to do
        _CLOSE_PLACEMENTS[0](state, p, pos)
    if state.ext.modules:
        state.ext.at(Moment.TURN_END, state)
    state.next_player = (t.player + 1) % len(state.players)
    state.phase = _REFILL
    state.turn = None


def _turn(state: GameState, item: Turn) -> None:
    pos = item.pos
    # other players act inside a turn or a refill (engine/stages.py)
    if state.stages and _later("referee.engine.stages").stage_turn(state, item):
        return
    # a turn a position left open (its `turn` line): only then
    if state.turn is not None and _later("referee.engine.position").continue_open_turn(state, item):
        return
    if item.number is None and item.player is not None and state.ext.modules:
        handled = state.ext.out_of_turn(state, item)
        if handled is not None:
            state.found.extend(handled)
            return
        if _ability_line(state, item):  # e.g. a player's choice before a scoring
            return
        # `bid` / `pass` belong to an open auction only
        if _later("referee.engine.auction").no_auction(state, item):
            return
    # the one-pass paths below (the refill closed, the turn begun and ended without the general
    # calls) are settle_before/begin_turn/end_turn: without a module step when no module acts
    # at those moments (Extensions.at asks none) and no standing offer waits; else each with
    # its moment's step (Extensions.at, which leaves it out where every module asked is idle)
    # and its standing offer (tests/test_module_dispatch.py, tests/test_speed10_dispatch.py)
    # (a module asked only at a refill's close leaves the turn's start and end alone)
    modules = state.ext.modules and (state.standing or state.ext.turn_asked)
    if state.phase is _REFILL and not state.stages:
        # settle_before(state, pos, _S_TURN)'s common case, without its two calls: the refill
        # closed (_close_refill: the checks, then the modules' step), then a due scoring or
        # Dirk draw as it has them
        _refill_checks(state, pos, True)
        if state.ext.refill_asked:  # (only with a module enabled)
            # Extensions.at(_REFILL_DONE, state), its questions asked here when each module
            # asked then answers idle_at (Extensions.refill_idle): every one idle, nothing runs
            ext = state.ext
            refill_one = ext.refill_kept
            if refill_one is not None:  # the one module asked keeps its answer (idle_refill)
                try:  # (its part read without a look-up that allows for none)
                    refill_asks = state.modules[refill_one].idle_refill is not True
                except KeyError:  # no part yet: asked
                    refill_asks = True
            else:
                refill_asks = True
            if refill_asks:  # not known idle: asked
                # (not ``idle``: the step's other ``idle`` holds a bool, and a compiled
                # function keeps one type a local name)
                askers = ext.refill_idle
                if askers:
                    for m in askers:
                        if not m.idle_at(state, _REFILL_DONE):
                            ext.run_at(_REFILL_DONE, state)  # one no: the step (at's, asked)
                            break
                else:
                    ext.at(_REFILL_DONE, state)
        if state.scoring_pending or state.dirk_due in (1, 2):
            _settle_due(state, pos)
    else:
        settle_before(state, pos, _S_TURN)
    players = state.players
    if not players:  # no Players header: nobody can move (SETUP-PLAYERS is reported)
        return
    if state.game_over or state.phase is _OVER:
        state.flag(
            "TURN-AFTER-END",
            pos,
            item.player.name if item.player else None,
            why=state.end_reason or Text("TURN-AFTER-END.why/scoring-3"),
        )
    expected = state.next_player
    actual = expected
    wrong_order: tuple[str, str, str] | None = None
    if item.player is not None:
        low = item.player.name.casefold()  # state.find_player, its common case inline
        named: PlayerState | None = None
        for q in players:
            if q.key == low:
                named = q
                break
        else:
            named = state.find_player(item.player, pos)
        if named is not None:
            actual = named.index
            if expected is not None and named.index != expected:
                order = [
                    state.players[(expected + i) % len(state.players)].name
                    for i in range(len(state.players))
                ]
                wrong_order = (named.name, state.players[expected].name, " → ".join(order))
    if actual is None:
        actual = 0
        state.note(pos, "UNVERIFIED-WHO-MOVES")
    number = state.turn_no + 1
    if item.number is not None and item.number != number:
        begin_turn(state, actual, number, pos)
        state.flag(
            "TURN-NUMBER", pos, state.players[actual].name, expected=number, claimed=item.number
        )
    else:  # begin_turn(state, actual, number, pos), inline
        state.turn_no = number
        t = state.spare_turn  # the last turn's, when it ended on the one-pass path below
        if t is None:
            # every field given (the three lists as [] rather than by their default factory,
            # which costs a call each): the same TurnState as TurnState(number, actual, pos=pos)
            state.turn = TurnState(
                number, actual, 0, False, None, False, False, [], pos, None, 0, [], [], None
            )
        else:  # reset to TurnState(number, actual, pos=pos) (its pending list is empty)
            state.spare_turn = None
            t.number = number
            t.player = actual
            t.main_actions = 0
            t.over = False
            t.over_after = None
            t.unsure = False
            t.placing = False
            t.pos = pos
            t.interrupt = None
            t.extra_redesigns = 0
            if t.refused:
                t.refused.clear()
            if t.taken:
                t.taken.clear()
            t.take_only = None
            state.turn = t
        state.phase = _TURN
        if modules and (state.ext.start_asked or state.standing):
            # begin_turn's module part: a standing offer, the turn's start (without a module
            # asked then nor cells kept, only a standing offer: Extensions.start_asked)
            # (standing_turn_start acts only where the mover's bid lies: asked only then; the
            # common case, no such offer, is this loop alone, without a call)
            for lying in state.standing:
                if lying.leader == actual:
                    _later("referee.engine.auction").standing_turn_start(state, actual, pos)
                    break
            if state.ext.turn_start_kept:  # (Module.reads_turn_start: the mover's cells now)
                alh = players[actual].alhambra
                if state.turn_start_version.get(actual) != alh.version:  # (else the kept copy)
                    state.turn_start[actual] = alh.cells.copy()
                    state.turn_start_version[actual] = alh.version
            # (the same steps as at the turn's end below, written out at both places: one
            # function for the two, tried, cost 1.1 % of a module-game turn, counted with
            # valgrind on the silent Wachtürme and Mauern corpora: see the closing note of
            # issue 34's twenty-first step)
            solo = state.ext.start_solo
            if solo is not None:  # the one module asked keeps its answer (Extensions.start_solo)
                try:
                    idle = state.modules[solo[0]].idle_start
                except KeyError:  # a part not made yet: its step makes it (asked as before)
                    state.ext.at(_TURN_START, state)
                else:  # (a kept yes: nothing more is read)
                    if (
                        idle is not True
                        and idle != state.market
                        and (  # a note per seat (Module.kept_idle): the mover's reserve as noted
                            type(idle) is not dict
                            or idle.get(actual) != players[actual].reserve_version
                        )
                    ):
                        try:
                            runs = not solo[1].idle_at(state, _TURN_START)
                        except KeyError:  # (as the read above, as before)
                            runs = False
                            state.ext.at(_TURN_START, state)
                        if runs:  # a no: the step runs (Extensions.at after its question)
                            state.ext.run_at(_TURN_START, state)
            else:
                kept = state.ext.read_start
                if kept is None:
                    # Extensions.at(_TURN_START, state), its questions asked here when each module
                    # asked then answers idle_at (Extensions.start_idle): every one idle, no call
                    askers = state.ext.start_idle
                    if askers:
                        for m in askers:
                            if not m.idle_at(state, _TURN_START):
                                state.ext.run_at(_TURN_START, state)  # one no: the step
                                break
                    else:
                        state.ext.at(_TURN_START, state)
                elif kept:  # the kept answers (Module.kept_idle) read; a module asked where
                    # not known
                    try:
                        for name, m in kept:
                            idle = state.modules[name].idle_start
                            if (
                                idle is not True
                                and idle != state.market
                                and (
                                    type(idle) is not dict
                                    or idle.get(actual) != players[actual].reserve_version
                                )
                                and not m.idle_at(state, _TURN_START)
                            ):
                                break
                        else:  # then the modules that keep no answer here (Extensions.ask_start)
                            for m in state.ext.ask_start:
                                if not m.idle_at(state, _TURN_START):
                                    break
                            else:
                                kept = None  # every one idle: nothing runs
                    except KeyError:  # a part not made yet: its step makes it (asked as before)
                        kept = None
                        state.ext.at(_TURN_START, state)
                    if kept is not None:  # one no: the step runs (at() after its questions)
                        state.ext.run_at(_TURN_START, state)
    if wrong_order is not None:
        state.flag("TURN-ORDER", pos, wrong_order[0], expected=wrong_order[1], order=wrong_order[2])
    if not _PLAIN_ACTIONS:
        _runner()
    plain_of, handler_of = _PLAIN_ACTIONS
    counting = state.ext.counting  # (GameState.changes: kept when a module reads it)
    for action in item.actions:
        # run_action(state, action), inline: the one-pass case first, else the handler
        if counting:
            if state.at_next_change is not None:
                state.before_change(action)
            state.changes += 1
        kind = type(action)
        check = state.checking
        t = state.turn
        assert t is not None
        p = players[t.player]
        plain = plain_of.get(kind)
        if plain is not None and plain(state, p, action, check):
            continue
        handler = handler_of.get(kind)
        if handler is not None:
            handler(state.context or _kept_context(state), p, action, check)
    t = state.turn
    if (
        t is None
        or t.main_actions == 0
        or t.pending
        or (not t.over and state.profile.extra_action == "compulsory")
    ):
        end_turn(state, pos)
        return
    reserve = players[t.player].reserve
    if reserve:  # close_placements' reserve limit, inline: the profile's limit, no finding
        constants = state.rules.constants
        if _RESERVE_LIMIT not in constants:
            end_turn(state, pos)
            return
        limit = constants[_RESERVE_LIMIT]
        if limit is not None and len(reserve) > limit:
            end_turn(state, pos)
            return
    # end_turn(state, pos)'s common case: nothing to report, nothing to place; the modules'
    # step at the turn's end (the turn still under way)
    if modules:
        solo = state.ext.end_solo
        if solo is not None:  # the one module asked keeps its answer (Extensions.end_solo)
            try:
                idle = state.modules[solo[0]].idle_end
            except KeyError:  # a part not made yet: its step makes it (asked as before)
                state.ext.at(_TURN_END, state)
            else:  # (a kept yes: nothing more is read)
                if (
                    idle is not True
                    and idle != state.market
                    and (  # a note per seat (Module.kept_idle): the mover's reserve as noted
                        type(idle) is not dict
                        or idle.get(t.player) != players[t.player].reserve_version
                    )
                ):
                    try:
                        runs = not solo[1].idle_at(state, _TURN_END)
                    except KeyError:  # (as the read above, as before)
                        runs = False
                        state.ext.at(_TURN_END, state)
                    if runs:  # a no: the step runs (Extensions.at after its question)
                        state.ext.run_at(_TURN_END, state)
        else:
            kept = state.ext.read_end
            if kept is None:
                # Extensions.at(_TURN_END, state), its questions asked here (Extensions.end_idle)
                askers = state.ext.end_idle
                if askers:
                    for m in askers:
                        if not m.idle_at(state, _TURN_END):
                            state.ext.run_at(_TURN_END, state)  # one no: the step
                            break
                else:
                    state.ext.at(_TURN_END, state)
            elif kept:  # the kept answers (Module.kept_idle) read; a module asked where not known
                try:
                    for name, m in kept:
                        idle = state.modules[name].idle_end
                        if (
                            idle is not True
                            and idle != state.market
                            and (
                                type(idle) is not dict
                                or idle.get(t.player) != players[t.player].reserve_version
                            )
                            and not m.idle_at(state, _TURN_END)
                        ):
                            break
                    else:  # then the modules that keep no answer here (Extensions.ask_end)
                        for m in state.ext.ask_end:
                            if not m.idle_at(state, _TURN_END):
                                break
                        else:
                            kept = None  # every one idle: nothing runs
                except KeyError:  # a part not made yet: its step makes it (asked as before)
                    kept = None
                    state.ext.at(_TURN_END, state)
                if kept is not None:  # one no: the step runs (Extensions.at after its questions)
                    state.ext.run_at(_TURN_END, state)
    state.next_player = (t.player + 1) % len(players)
    state.phase = _REFILL
    state.turn = None
    # kept for the next turn (reset there, not made anew): no module keeps a turn or its lists
    # past its hook (the kit's rule; tests/test_engine_turn_reuse.py over the module examples)
    state.spare_turn = t


def module_action(state: GameState, p: PlayerState, a: ModuleAction) -> None:
    """A module verb: handed to the enabled module that owns it, else reported."""
    handler = state.ext.verb_handler(a.verb)
    if handler is not None:
        spec = state.ext.verb_spec(a.verb)
        if state.checking:  # a trusted replay skips every check
            _declared_verb(state, handler, p, a, spec)
        state.found.extend(handler.action(state, p, a))
        if spec is not None:
            _later("referee.engine.verbs").record_use(state, p, spec)
        return
    if state.standing and a.verb.lower() == "bid":  # a bid on a standing offer (its turn)
        _later("referee.engine.auction").standing_bid(state, p, a)
        return
    if state.turn is not None:  # whatever it was, the player did something
        state.turn.main_actions += 1
    owner = module_owning_verb(a.verb)
    if owner is not None:
        state.flag("MODULE-NOT-ENABLED", a.pos, p.name, verb=a.verb, module=owner)
    else:
        from referee.messages.hints import VerbHint

        state.flag("UNKNOWN-VERB", a.pos, p.name, verb=a.verb, hint=VerbHint(a.verb))


def _declared_verb(
    state: GameState, handler: Any, p: PlayerState, a: ModuleAction, spec: Any
) -> None:
    """The engine's checks of a module verb before its handler changes anything (only while
    checking): the declared shape, window and limit (``VerbSpec``), then the module's own pure
    check (``Module.check_verb``)."""
    if not state.checking:
        return
    ctx = _Context(state, a.pos)
    if spec is not None and spec.checked:
        holds = handler.holds_ability(ctx, p, spec.key)
        found = _later("referee.engine.verbs").ability_findings(ctx, p, spec, a, holds)
        if found:  # (report's loop over nothing left out: most lines pass)
            _report(state, found)
    found = handler.check_verb(ctx, p, a)
    if found:
        _report(state, found)


def _ability_line(state: GameState, item: Turn) -> bool:
    """An out-of-turn line whose first verb is declared for an out-of-turn window (a choice
    before a scoring, an ability between turns): checked and handed to its module, without
    closing the refill. True when it was such a line."""
    acts = item.actions
    if not acts or not isinstance(acts[0], ModuleAction) or item.player is None:
        return False
    spec = state.ext.verb_spec(acts[0].verb)
    if spec is None or spec.window not in _later("referee.engine.verbs").OUT_OF_TURN:
        return False
    p = state.find_player(item.player, item.pos)
    if p is None:
        return True
    for a in acts:
        if isinstance(a, ModuleAction):
            module_action(state, p, a)
        else:
            from referee.notation.formatter import action as written

            # the action as the player wrote it, never a class name
            state.flag("UNKNOWN-VERB", a.pos, p.name, verb=written(a), hint="")
    return True


_RUN_ACTION: Final[list[Callable[[GameState, Action], None]]] = []


_PLAIN_ACTIONS: Final[
    list[dict[type, Any]]
] = []  # actions.PLAIN and actions.HANDLERS (run_action's)


def _runner() -> Callable[[GameState, Action], None]:
    """``referee.engine.actions.run_action`` (imported on first use: the actions import this
    module)."""
    if not _RUN_ACTION:
        from referee.engine.actions import HANDLERS, PLAIN, run_action

        _RUN_ACTION.append(run_action)
        _PLAIN_ACTIONS[:] = [PLAIN, HANDLERS]
    return _RUN_ACTION[0]


def _action(state: GameState, action: Action) -> None:
    _runner()(state, action)


def apply_action(state: GameState, action: Action) -> list:
    """Apply one action of the player to move (starting a turn if none is under way).

    Returns the violations found; the state is changed. Use :func:`end_turn` to close the turn.
    """
    before = len(state.found)
    if not state.players:
        return []
    if state.turn is None:
        settle_before(state, getattr(action, "pos", NOWHERE), _S_TURN)
        who = state.next_player if state.next_player is not None else 0
        begin_turn(state, who)
    _action(state, action)
    return state.found[before:]


def check_action(state: GameState, action: Action) -> list:
    """Whether one action is legal now: the violations it would cause (state unchanged)."""
    trial = state.copy()
    return apply_action(trial, action)


# ---------------------------------------------------------------------------- chance


def _chance(state: GameState, item: Chance) -> None:
    if state.stages:  # a chance line ends the open stages (a refill goes on after them)
        _close_stages(state, item.pos)
    for ev in item.events:
        pos = ev.pos  # every event carries its own position (a Pos is never false)
        if state.phase is _TURN:  # pragma: no cover - a turn is one line
            end_turn(state, pos)
        _CHANCE_EVENTS[type(ev)](state, ev, pos)


def _reshuffle_event(state: GameState, ev: Reshuffle, pos: Pos) -> None:
    if state.deck_uncertain:
        state.note(pos, "UNVERIFIED-RESHUFFLE-AFTER-POSITION")
        _reshuffle(state)
    elif state.deck_size > 0:
        state.flag(
            "REFILL-RESHUFFLE",
            pos,
            reason="deck-not-empty",
            deck_size=state.deck_size,
        )
    else:
        _reshuffle(state, pos)
        _check_pile_overrun(state, pos)


def _module_chance(state: GameState, ev: ModuleChance, pos: Pos) -> None:
    verb = ev.verb.lower()
    if verb == "aside":
        _aside_event(state, ev, pos)  # E14: a piece drawn for the market, set aside
        return
    handler = state.ext.chance_owners.get(verb)  # (Extensions.chance_handler, without its call)
    if handler is not None:
        state.found.extend(handler.chance(state, ev))
        return
    owner = next(
        (n for n, cls in _module_classes() if ev.verb.lower() in cls.chance_verbs),
        None,
    )
    if owner is not None:
        state.flag("MODULE-NOT-ENABLED", pos, verb=ev.verb, module=owner)
    else:
        from referee.messages.hints import VerbHint

        state.flag("UNKNOWN-VERB", pos, verb=ev.verb, hint=VerbHint(ev.verb))


def unhandled_component_finding(ref: ComponentRef, pos: Pos, player: str | None = None) -> Any:
    """A ``kind:name`` token no enabled module takes: its module is not enabled, or unknown."""
    token = f"{ref.kind}:{ref.name}"
    owner = next(
        (n for n, cls in _module_classes() if ref.kind.lower() in cls.component_kinds), None
    )
    if owner is not None:
        return _problem("MODULE-NOT-ENABLED", pos, player, verb=token, module=owner)
    return _problem("UNKNOWN-VERB", pos, player, verb=token, hint="")


def unhandled_component(
    state: GameState, ref: ComponentRef, pos: Pos, player: str | None = None
) -> None:
    _report(state, [unhandled_component_finding(ref, pos, player)])


_unhandled_component = unhandled_component


def _module_classes() -> list:
    load_bundled_modules()
    return list(MODULES.items())


def _start(state: GameState, item: StartPlayer) -> None:
    p = state.find_player(item.player, item.pos)
    if p is None:
        return
    if state.phase is not _SETUP:
        state.flag(
            "SETUP-ORDER",
            item.pos,
            reason="start-after-play",
        )
        return
    state.start_claim = (p.name, item.youngest, item.pos)


# one handler per chance event type (a table instead of an isinstance chain: a hot path)
_CHANCE_EVENTS: Final[dict[type, Callable[[GameState, Any, Pos], None]]] = {
    Deal: _deal,
    DisplayReveal: _display,
    Reshuffle: _reshuffle_event,
    MarketDraw: _market,
    DirkDraw: _dirk,
    ModuleChance: _module_chance,
}


def apply_item(state: GameState, item: BodyItem) -> None:
    """Apply one body line of a record."""
    apply = _ITEMS.get(type(item))
    if apply is not None:
        apply(state, item)


def _position(state: GameState, item: Position) -> None:
    _later("referee.engine.position").apply_position(state, item)


def _comment(state: GameState, item: CommentLine) -> None:
    return


# one handler per body line type (a table instead of an isinstance chain: a hot path)
_ITEMS: Final[dict[type, Callable[[GameState, Any], None]]] = {
    Turn: _turn,
    Chance: _chance,
    StartPlayer: _start,
    Scoring: _scoring,
    Distribution: _distribution,
    Position: _position,
    CommentLine: _comment,
}


def line_handlers() -> dict[type, Callable[[GameState, Any], None]]:
    """What :func:`apply_item` calls per body line type (for loops that dispatch inline)."""
    return _ITEMS


def _close_stages(state: GameState, pos: Pos) -> None:
    _later("referee.engine.stages").close_stages(state, pos)


def finish(state: GameState, pos: Pos) -> None:
    """The record ends here: what the game end needs and the record did not show."""
    if state.stages:
        _close_stages(state, pos)
    if state.phase is _SETUP:
        if state.deals_done or state.display or any(x is not _EMPTY for x in state.market):
            _finish_setup(state, pos)  # a record of the setup alone: the setup is checked
        return
    if state.turn is not None:
        end_turn(state, pos)
    settle_before(state, pos, _S_END)
    if state.game_over and 3 not in state.scorings_done:
        if not state.distributed:
            _check_distribution(state, None, pos)
        state.flag(
            "SCORING-MISSING",
            pos,
            reason="final",
            over=state.end_reason or "",
        )
        state.ext.at(Moment.LEFTOVERS_DONE, state)
        _do_scoring(state, 3, pos)
        state.phase = _OVER
        state.ext.at(Moment.GAME_END, state)
    elif not state.game_over:
        state.note(pos, "UNVERIFIED-RECORD-ENDS-EARLY")


def winners(state: GameState) -> list[str]:
    if not state.players:
        return []
    best = max(p.score for p in state.players)
    return [p.name for p in state.players if p.score == best]


def unused(*_: object) -> None:  # keep imports referenced for type checkers
    _ = (CardLike,)


def begin_trial_turn(state: GameState, player: int, pos: Pos = NOWHERE) -> None:
    """Begin a hypothetical turn of ``player`` (index) on ``state`` (use a copy): what was due
    before it (closing the refill, a pending scoring) is done first and not blamed on what the
    trial turn does; its findings are cleared. For dispute tools ("what if X did this now?")."""
    state.next_player = player
    settle_before(state, pos, _S_TURN)
    begin_turn(state, player, None, pos)
    state.found.clear()
    state.unverifiable.clear()


def assume_bought(state: GameState, tile: TileKind) -> None:
    """For a trial turn: ``tile`` counts as bought in this turn (so its placement can be
    asked about on its own)."""
    if state.turn is not None:
        state.turn.pending.append(tile)


# Public names of helpers other parts of the project (and tests) use.
pile_bounds = _pile_bounds
most_money = _most_money
reshuffle = _reshuffle
