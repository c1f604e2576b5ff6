"""Every legal action of the player to move, in a :class:`referee.engine.GameState`.

The enumeration follows ``rulebook-base-de-2003.txt``:

* "Geld nehmen": one card of the display, or several whose sum is at most 5.
* "Gebäudeplättchen kaufen": a market tile, paid with cards of the field's currency summing to at
  least the price ("mindestens den aufgedruckten Preis ... es gibt kein Wechselgeld zurück").
  Every such set of cards is listed when the profile allows superfluous cards (the rulebook
  does: ``overpay_superfluous: allowed``); under a profile that forbids or warns about them,
  only payments without a superfluous card (one that could be left out and still pay).
* "Alhambra umbauen": a reserve tile built to any legal cell, an Alhambra tile removed where the
  building rules allow it, a reserve tile swapped for an Alhambra tile "exakt an die
  freigewordene Position".
* "Am Ende Ihres Spielzuges": every bought tile into the Alhambra (each legal cell) or the
  reserve; in a two-player game also to Dirk ("Sonderregel für das Spiel zu zweit"), and to
  another player under a profile with ``gifts: any-player``.

Main actions are offered while the turn may go on (nothing done yet, or every purchase so far
paid exactly) and no tile has been placed yet; placements once main actions are over or the
player chooses to stop. Every action is a record node (:mod:`referee.record.model`), so it can
be checked with :func:`referee.engine.check_action` and written by the formatter.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

from referee.catalogue import Currency, MoneyCard, TileKind
from referee.engine import EMPTY, GameState, PlayerState
from referee.geometry import legal_cells, removal_problems, swap_problems
from referee.record.model import (
    Action,
    BuildFromReserve,
    Buy,
    CardRef,
    Coord,
    Give,
    Place,
    PlayerRef,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    TileRef,
)

TAKE_LIMIT = 5  # "wenn ihre Summe nicht größer als 5 ist" (Geld nehmen)
MAX_PAY_CARDS = 9  # a bound on the search; no payment of more cards occurs in practice

__all__ = [
    "build_actions",
    "buy_actions",
    "can_end_turn",
    "card_ref",
    "legal_actions",
    "main_actions",
    "may_act",
    "mover",
    "payments",
    "placement_actions",
    "redesign_actions",
    "remove_actions",
    "swap_actions",
    "take_actions",
    "tile_ref",
]


def card_ref(card: MoneyCard) -> CardRef:
    return CardRef(card)


def tile_ref(tile: TileKind) -> TileRef:
    return TileRef(tile.type, tile.price, tile.walls, (tile,))


def mover(state: GameState) -> PlayerState | None:
    """The player whose turn it is (under way or next)."""
    if state.turn is not None:
        return state.players[state.turn.player]
    if not state.players:
        return None
    if state.next_player is None:
        # before the first turn the setup is closed by the engine; the start claim says who
        claim = state.start_claim
        return state.player_named(claim[0]) if claim else None
    return state.players[state.next_player]


def _may_act(state: GameState) -> bool:
    t = state.turn
    if t is None:
        return True
    return not t.over and not t.placing


def _card_key(c: MoneyCard) -> tuple[int, int]:
    return c.sort_key


def take_actions(display: Iterable[MoneyCard | None]) -> list[TakeMoney]:
    """Every distinct take: one card, or several with a sum of at most 5."""
    cards = sorted((c for c in display if c is not None), key=_card_key)
    seen: set[tuple[MoneyCard, ...]] = set()
    out: list[TakeMoney] = []
    for r in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, r):
            if r > 1 and sum(c.value for c in combo) > TAKE_LIMIT:
                continue
            if combo in seen:
                continue
            seen.add(combo)
            out.append(TakeMoney(tuple(card_ref(c) for c in combo)))
    return out


def payments(
    hand: Counter[MoneyCard], currency: Currency, price: int, superfluous: bool = False
) -> list[tuple[MoneyCard, ...]]:
    """Every distinct set of ``currency`` cards from ``hand`` paying at least ``price``.

    Without ``superfluous`` only sets without a superfluous card (no card could be left out and
    still pay the price); with it every paying set (of at most :data:`MAX_PAY_CARDS` cards).
    """
    mine = sorted((c for c in hand.elements() if c.currency is currency), key=lambda c: -c.value)
    if sum(c.value for c in mine) < price:
        return []
    seen: set[tuple[MoneyCard, ...]] = set()
    out: list[tuple[MoneyCard, ...]] = []
    for r in range(1, min(len(mine), MAX_PAY_CARDS) + 1):
        for combo in itertools.combinations(mine, r):
            s = sum(c.value for c in combo)
            if s < price or combo in seen:
                continue
            if not superfluous and s - min(c.value for c in combo) >= price:
                continue  # the smallest card is superfluous
            seen.add(combo)
            out.append(combo)
    return out


def buy_actions(state: GameState, p: PlayerState) -> list[Buy]:
    out: list[Buy] = []
    extra = state.profile.overpay_superfluous == "allowed"
    for i, slot in enumerate(state.market):
        if slot is EMPTY or slot is None or not isinstance(slot, TileKind):
            continue
        cur = Currency.of_field(i + 1)
        for pay in payments(p.hand, cur, slot.price, extra):
            out.append(Buy(cur, tile_ref(slot), tuple(card_ref(c) for c in pay)))
    return out


def _distinct(tiles: Iterable[TileKind | None]) -> list[TileKind]:
    seen: list[TileKind] = []
    for t in tiles:
        if t is not None and t not in seen:
            seen.append(t)
    return seen


def build_actions(p: PlayerState) -> list[Action]:
    """Redesign 1: a reserve tile built into the Alhambra, to each legal cell."""
    return [
        BuildFromReserve(tile_ref(tile), at)
        for tile in _distinct(p.reserve)
        for at in legal_cells(p.alhambra, tile)
    ]


def _tiles(p: PlayerState) -> list[tuple[Coord, TileKind]]:
    origin = Coord(0, 0)
    return [
        (at, piece)
        for at, piece in sorted(p.alhambra.items(), key=lambda cp: (cp[0].x, cp[0].y))
        if at != origin and isinstance(piece, TileKind)
    ]


def remove_actions(p: PlayerState) -> list[Action]:
    """Redesign 2: an Alhambra tile into the reserve, wherever the building rules allow it."""
    return [
        RemoveToReserve(tile_ref(piece), at)
        for at, piece in _tiles(p)
        if not removal_problems(p.alhambra, at)
    ]


def swap_actions(p: PlayerState) -> list[Action]:
    """Redesign 3: a reserve tile exactly in the place of an Alhambra tile."""
    reserve = _distinct(p.reserve)
    if not reserve:
        return []
    return [
        Swap(tile_ref(tile), at, tile_ref(piece))
        for at, piece in _tiles(p)
        for tile in reserve
        if tile != piece and not swap_problems(p.alhambra, at, tile)
    ]


def redesign_actions(p: PlayerState) -> list[Action]:
    """Build a reserve tile, remove an Alhambra tile, swap a reserve tile in (Alhambra umbauen)."""
    return build_actions(p) + remove_actions(p) + swap_actions(p)


def may_act(state: GameState) -> bool:
    """Whether the player to move may still take a main action (take, buy, redesign)."""
    return mover(state) is not None and _may_act(state) and not state.game_over


def main_actions(state: GameState) -> list[Action]:
    """Take, buy and redesign actions open to the player to move (empty when the turn is over)."""
    p = mover(state)
    if p is None or not may_act(state):
        return []
    out: list[Action] = []
    out.extend(take_actions(state.display))
    out.extend(buy_actions(state, p))
    out.extend(redesign_actions(p))
    return out


def placement_actions(state: GameState) -> list[Action]:
    """Where each tile bought this turn may go: each legal cell, the reserve, Dirk, a player."""
    t = state.turn
    if t is None or not t.pending:
        return []
    p = state.players[t.player]
    out: list[Action] = []
    limit = state.profile.reserve_limit
    for tile in _distinct(t.pending):
        ref = tile_ref(tile)
        for at in legal_cells(p.alhambra, tile):
            out.append(Place(ref, at))
        if limit is None or len(p.reserve) < limit:
            out.append(Reserve(ref))
        if state.dirk is not None:
            out.append(Give(ref, None))
        if state.profile.gifts == "any-player":
            for other in state.players:
                if other is not p and (limit is None or len(other.reserve) < limit):
                    out.append(Give(ref, PlayerRef(other.name)))
    return out


def can_end_turn(state: GameState) -> bool:
    """The turn may end now: something was done and every bought tile is placed."""
    t = state.turn
    return t is not None and t.main_actions > 0 and not t.pending


def legal_actions(state: GameState) -> list[Action]:
    """Every legal next action of the player to move (main actions first, then placements).

    A reserve limit (house rule) is checked at the end of the turn; a player over it must build
    from the reserve, so reserve placements are only offered below the limit.
    """
    return main_actions(state) + placement_actions(state)
