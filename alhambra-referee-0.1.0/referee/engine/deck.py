"""The money deck as modules use it: a card drawn into a hand, cards drawn together (their order
not written), cards put back on top of the deck, and the check that the next cards drawn from
the deck are the cards put back on it.

A module that puts cards back onto the deck (Die Gebäude der Macht, Gebäude der Weisheit: "Die
übrigen Karten darf er beliebig sortiert auf den Stapel zurücklegen", rulebook-bigbox-de-2019.txt
L3624-3625) calls :func:`put_on_top`: the cards lie in the deck again (known cards) and, as a
*layer* on top of it, they are the next cards any draw from the deck turns up (a refill of the
display, a module's draw, another draw of cards put back), in any order the player chose. The
engine's draw (``core._draw_money``) and a scoring card turned up (``core._scoring_card``)
report every card that leaves the deck to :func:`left_deck`, which checks it against the top
layer; a card that is not one of them is reported under the code and reason the module gave
(its rule, its words) and the order is forgotten from then on (one finding, not one per later
draw). A card drawn unseen (``?``) takes one of the layer's cards, which one is not known.

The engine keeps the layers in ``GameState.deck_top`` (outermost first); no module's name is in
here. ``docs/modules/extension-points.md`` ("The money deck for modules") describes the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.catalogue import MoneyCard
from referee.engine.state import GameState, PlayerState
from referee.record.model import ComponentRef, Pos, ScoringCardRef

DeckCard = MoneyCard | int | ComponentRef | None
"""A card leaving the deck: a money card, a scoring card (its number 1 or 2), a module's own
card (its token: an exchange card, a diamond, a character card ...), None unseen."""


@dataclass(frozen=True, slots=True)
class DeckTop:
    """Cards put back on top of the deck by one line, still to be drawn (in any order)."""

    cards: tuple[MoneyCard | int, ...]
    """The cards still expected (a scoring card as its number); more than ``left`` when cards
    of the layer were drawn unseen."""
    left: int
    """How many of them still lie on the deck."""
    code: str
    reason: str
    player: str | None
    params: tuple[tuple[str, object], ...]
    """The module's finding for a card drawn that is not one of them: code, reason, player and
    the data its message shows (besides ``card``, ``expected`` and ``n``, given here)."""


def card_text(card: DeckCard) -> str:
    """A card as a record writes it (``De3``, ``W1``, ``?``)."""
    if card is None:
        return "?"
    if isinstance(card, int):
        return f"W{card}"
    if isinstance(card, ComponentRef):
        return f"{card.kind}:{card.name}"
    return card.code


def put_on_top(
    state: GameState,
    cards: Sequence[MoneyCard | int],
    *,
    code: str,
    reason: str,
    player: str | None = None,
    **params: object,
) -> None:
    """``cards`` (taken off the deck before) go back on top of it: the money cards lie in the
    deck again as known cards, and the next ``len(cards)`` cards drawn from the deck must be
    these, in any order (a scoring card, given as its number, is still unseen: it turns up from
    the deck as usual). A card drawn that is not one of them is reported as ``code`` /
    ``reason`` with ``params`` (and ``card``, ``expected``, ``n``)."""
    for c in cards:
        if isinstance(c, MoneyCard):
            state.deck_known[c] += 1
    if not cards:
        return
    layer = DeckTop(tuple(cards), len(cards), code, reason, player, tuple(params.items()))
    state.deck_top = (layer, *state.deck_top)


def left_deck(state: GameState, drawn: Sequence[DeckCard], pos: Pos) -> None:
    """``drawn`` left the deck together (their order among them not known): the cards put back
    on top of it must come first. Called by the engine for each card it draws; the caller checks
    ``state.deck_top`` first (empty: nothing to check)."""
    layers = list(state.deck_top)
    rest = list(drawn)
    while rest and layers:
        top = layers[0]
        take = min(len(rest), top.left)
        expected = list(top.cards)
        used: list[MoneyCard | int] = []
        for c in rest:
            if (
                c is not None
                and not isinstance(c, ComponentRef)
                and len(used) < take
                and c in expected
            ):
                expected.remove(c)
                used.append(c)
        unseen = min(take - len(used), rest.count(None))
        if len(used) + unseen < take:
            wrong = list(rest)
            for c in used:
                wrong.remove(c)
            shown = " ".join(card_text(c) for c in wrong if c is not None)
            state.flag(
                top.code,
                pos,
                top.player,
                reason=top.reason,
                card=shown,
                expected=" ".join(card_text(c) for c in top.cards),
                n=top.left,
                **dict(top.params),
            )
            state.deck_top = ()  # the order is lost: one finding, not one per later draw
            return
        for c in used:
            rest.remove(c)
        for _ in range(unseen):
            rest.remove(None)
        if top.left > take:
            layers[0] = replace(top, cards=tuple(expected), left=top.left - take)
        else:
            layers.pop(0)
    state.deck_top = tuple(layers)


def module_card_left(state: GameState, ref: ComponentRef, pos: Pos) -> None:
    """A module's own card turned up from the deck (revealed into the display, drawn by a
    module): it is none of the cards put back on top (those are money and scoring cards), so
    while cards lie there it is reported as the top layer's module asked (:func:`left_deck`)."""
    if state.deck_top:
        left_deck(state, (ComponentRef(ref.kind, ref.name),), pos)


class drawn_together:
    """A module draws ``drawn`` off the deck at once, in an order its line does not write (a
    Weisheit draw): they are checked against the cards on top of the deck as one group
    (:func:`left_deck`); inside the block the single draws (``draw_money``, a scoring card
    turned up) are not checked again, and cards put back on top inside it
    (:func:`put_on_top`) lie above the rest of the earlier layers afterwards.

    A context manager (a class, not ``contextlib.contextmanager``: a check does not otherwise
    import :mod:`contextlib`); the check and the lifting happen when the block is entered."""

    def __init__(self, state: GameState, drawn: Sequence[DeckCard], pos: Pos) -> None:
        self.state = state
        self.drawn = drawn
        self.pos = pos
        self.below: tuple[DeckTop, ...] = ()

    def __enter__(self) -> None:
        state = self.state
        if state.deck_top:
            left_deck(state, self.drawn, self.pos)
        self.below = state.deck_top
        # a declared empty tuple: ``= ()`` would narrow the attribute to ``tuple[()]`` for the
        # type checker, which the compiled build checks at run time
        nothing: tuple[DeckTop, ...] = ()
        state.deck_top = nothing

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        state = self.state
        state.deck_top = (*state.deck_top, *self.below)


def take_off(state: GameState, card: MoneyCard | None, pos: Pos) -> bool:
    """A module takes a card off the deck that it does not keep (looked at, then put back with
    :func:`put_on_top`): the engine's draw (``card`` checked against the supply and the cards on
    top of the deck), not counted as a money card revealed. False when there is no card."""
    from referee.engine.core import draw_money

    return draw_money(state, card, pos)


def draw_to_hand(state: GameState, player: PlayerState, card: MoneyCard | None, pos: Pos) -> bool:
    """A module draws the deck's top card into ``player``'s hand (the Bettler, a Weisheit draw's
    card kept): the engine's draw (``card`` checked against the supply and the cards on top of
    the deck; None: unseen), counted as a money card revealed (``state.money_draws``, the
    scoring cards' pile check). False when the deck and the discard pile are empty."""
    from referee.engine.core import draw_money

    if not draw_money(state, card, pos):
        return False
    state.money_draws += 1
    if card is None:
        player.hand_unknown += 1
    else:
        player.hand[card] += 1
    return True


def turn_up_scoring(state: GameState, ref: ScoringCardRef, pos: Pos) -> None:
    """A scoring card a module draws from the deck outside a refill (the Bettler, a Weisheit
    draw's card played): the base path of a scoring card turned up (scored before the next
    player's turn, its pile checked against ``state.money_draws``)."""
    from referee.engine.core import scoring_card_drawn

    scoring_card_drawn(state, ref, pos)


def scoring_piles(state: GameState) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """The money cards allowed before W1, before W2, and between them (the base setup's piles),
    for a module that turns a scoring card up at a count of its own."""
    from referee.engine.core import pile_bounds

    return pile_bounds(state)


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
