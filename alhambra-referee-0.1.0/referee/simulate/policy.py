"""A simple random player: legal, not clever, but varied.

It buys and places as well as takes money, prefers exact payments (another action,
"Kann man hingegen den Preis genau passend bezahlen, ist man sogar noch einmal an der Reihe"),
sometimes overpays, sometimes redesigns, uses the reserve, and in two-player games sometimes
gives a bought tile to Dirk. Every choice is made among the actions
:mod:`referee.engine.legal` lists, with the simulator's seeded random generator only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from referee.geometry import Alhambra
from referee.record.model import (
    Action,
    Buy,
    CardRef,
    Coord,
    Give,
    ModuleAction,
    Place,
    Reserve,
    TakeMoney,
    Turn,
)


class Options(Protocol):
    """The legal main actions by kind (see :class:`referee.simulate.simulator.LazyOptions`)."""

    def takes(self) -> list[Action]: ...
    def buys(self) -> list[Action]: ...
    def builds(self) -> list[Action]: ...
    def removes(self) -> list[Action]: ...
    def swaps(self) -> list[Action]: ...
    def verbs(self) -> list[Action]: ...
    def wanted(self, actions: list[Action]) -> list[Action]: ...
    def has_reserve(self) -> bool: ...
    def all(self) -> list[Action]: ...


@dataclass(frozen=True)
class Weights:
    """How often the player does what (probabilities, each checked on its own)."""

    exact_buy: float = 0.85  # an exact purchase is available: take it
    overpay_buy: float = 0.30  # a purchase that ends the turn
    go_on: float = 0.85  # after an exact purchase: act again rather than stop
    build: float = 0.45  # a reserve tile can be built: build it instead of taking money
    remove: float = 0.03  # take a tile back into the reserve
    swap: float = 0.08  # swap a reserve tile into the Alhambra
    best_take: float = 0.75  # take the most money the display allows (else any take)
    place: float = 0.88  # a bought tile is built when a cell is free (else reserved)
    dirk: float = 0.10  # two-player game: give the tile to Dirk
    gift: float = 0.03  # profile allows gifts to players: give it away
    verb: float = 0.30  # a module's main action (wake the vizier, take a square ...)
    free: float = 0.60  # a module's free action (reveal a bonus card)
    interrupt: float = 0.30  # an out-of-turn line (use the vizier, reveal a bonus card)
    stage_pass: float = 0.45  # in a stage (an auction): pass rather than bid
    stage_skip: float = 0.30  # in a stage a player may let pass: write nothing


def _neighbours(alh: Alhambra, at: Coord) -> int:
    cells = alh.cells
    return sum(
        Coord(at.x + dx, at.y + dy) in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    )


def _value(a: TakeMoney) -> int:
    return sum(c.card.value for c in a.cards if isinstance(c, CardRef) and c.card is not None)


class Policy:
    """Chooses among legal actions; ``rng`` is the simulator's generator (determinism)."""

    def __init__(self, rng: random.Random, weights: Weights | None = None) -> None:
        self.rng = rng
        self.w = weights or Weights()

    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def choose_main(self, options: Options, first: bool) -> Action | None:
        """A main action (take, buy, redesign), or None to stop (only when not ``first``).

        ``options`` lists the legal actions by kind, computed only when asked for (removals and
        swaps are costly to enumerate and rarely wanted).
        """
        w = self.w
        if not first and not self._chance(w.go_on):
            return None
        buys = [a for a in options.buys() if isinstance(a, Buy)]
        # each purchase's overpayment, worked out once (0: paid exactly)
        extra = [_overpaid(a) for a in buys]
        exact = [a for a, d in zip(buys, extra, strict=True) if d == 0]
        wanted = options.wanted(list(buys))  # a module makes these worth more
        if wanted and self._chance(w.exact_buy):
            return self.rng.choice(wanted)
        if exact and self._chance(w.exact_buy):
            return self.rng.choice(exact)
        # module ways to pay: only if wanted
        over = [(a, d) for a, d in zip(buys, extra, strict=True) if d > 0]
        if over and self._chance(w.overpay_buy):
            least = min(d for _a, d in over)
            return self.rng.choice([a for a, d in over if d == least])
        if options.has_reserve() and self._chance(w.swap):
            swaps = options.swaps()
            if swaps:
                return self.rng.choice(swaps)
        if self._chance(w.remove):
            removes = options.removes()
            if removes:
                return self.rng.choice(removes)
        if options.has_reserve() and self._chance(w.build):
            builds = options.builds()
            if builds:
                return self.rng.choice(builds)
        verbs = options.verbs()
        if verbs and self._chance(w.verb):
            return self.rng.choice(verbs)
        takes = [a for a in options.takes() if isinstance(a, TakeMoney)]
        if takes:
            if self._chance(w.best_take):
                values = [_value(a) for a in takes]
                best = max(values)
                return self.rng.choice([a for a, v in zip(takes, values, strict=True) if v == best])
            return self.rng.choice(takes)
        if not first:
            return None
        every = options.all()
        return self.rng.choice(every) if every else None

    def choose_placement(self, options: Sequence[Action], alh: Alhambra) -> Action:
        """Where the next bought tile goes."""
        w = self.w
        gives = [a for a in options if isinstance(a, Give)]
        dirk = [a for a in gives if a.to is None]
        players = [a for a in gives if a.to is not None]
        if dirk and self._chance(w.dirk):
            return dirk[0]
        if players and self._chance(w.gift):
            return self.rng.choice(players)
        places = [a for a in options if isinstance(a, Place)]
        reserves = [a for a in options if isinstance(a, Reserve)]
        if places and (not reserves or self._chance(w.place)):
            # a compact Alhambra: prefer cells touching more tiles, then at random
            near = [_neighbours(alh, a.at) for a in places]
            most = max(near)
            pool = [a for a, n in zip(places, near, strict=True) if n >= most - 1]
            return self.rng.choice(pool)
        if reserves:
            return reserves[0]
        return self.rng.choice(list(options))

    def choose_free(self, options: Sequence[Action]) -> Action | None:
        """A module action that is no action (e.g. reveal a bonus card), or None."""
        if not options or not self._chance(self.w.free):
            return None
        return self.rng.choice(list(options))

    def choose_interrupt(self, lines: Sequence[Turn]) -> Turn | None:
        """An out-of-turn line to play now, or None."""
        if not lines or not self._chance(self.w.interrupt):
            return None
        return self.rng.choice(list(lines))

    def choose_stage(self, lines: Sequence[Turn], required: bool) -> Turn | None:
        """A line of the stage open now (``lines``: what it allows, e.g. a pass and the lowest
        raise in each currency); None: write nothing (only where the stage allows it)."""
        if not lines or (not required and self._chance(self.w.stage_skip)):
            return None
        passes = [t for t in lines if _passes(t)]
        if passes and (len(passes) == len(lines) or self._chance(self.w.stage_pass)):
            return passes[0]
        return self.rng.choice([t for t in lines if not _passes(t)])

    def choose_cell(self, cells: Sequence[Coord], alh: Alhambra) -> Coord | None:
        """Where a tile given at the game end is built (None: into the reserve)."""
        if not cells or not self._chance(self.w.place):
            return None
        near = [_neighbours(alh, c) for c in cells]
        most = max(near)
        return self.rng.choice([c for c, n in zip(cells, near, strict=True) if n == most])


def _passes(line: Turn) -> bool:
    act = line.actions[0] if line.actions else None
    return isinstance(act, ModuleAction) and act.verb.lower() == "pass"


def _paid(a: Buy) -> int:
    return sum(c.card.value for c in a.paid if isinstance(c, CardRef) and c.card is not None)


def _price(a: Buy) -> int:
    price = getattr(a.tile, "price", None)
    return price if isinstance(price, int) else 0


_OVERPAID: dict[int, tuple[Buy, int]] = {}
""":func:`_overpaid` by the purchase's identity, the purchase kept beside its answer (so its
identity is not reused while the entry lives): the generator hands out the same ``Buy`` nodes
again and again (:func:`referee.engine.legal.buy_actions` keeps a catalogue tile's purchases)."""
_OVERPAID_MAX = 20_000  # entries kept before the memo starts again (memory bound)


def _overpaid(a: Buy) -> int:
    """``_paid(a) - _price(a)``: what ``a`` pays beyond its price (0: exact). Record nodes are
    immutable, so the answer for one node never changes."""
    got = _OVERPAID.get(id(a))
    if got is not None and got[0] is a:
        return got[1]
    if len(_OVERPAID) >= _OVERPAID_MAX:
        _OVERPAID.clear()
    d = _paid(a) - _price(a)
    _OVERPAID[id(a)] = (a, d)
    return d
