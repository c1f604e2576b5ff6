"""The first random-game generator (written for the engine tests), kept as it was.

It plays legal (not clever) games of the base rules as written in
``rulebook-base-de-2003.txt`` with its own bookkeeping (hands, Alhambras, deck and bag), not
through the engine: start money until 20, start player by fewest cards / lower total /
youngest, the five-pile deck with W1 in pile 2 and W2 in pile 4, exact payments giving another
action, placements by the building rules (``referee.geometry.legal_cells``), refills,
reshuffles, scorings, the game end with the leftover tiles. Its records reveal every card and
tile, and carry the claimed totals (filled in from a first check) so that the record checks
itself.

``tests/test_engine_games.py`` uses it; the examples ``examples/game-{3,4,6}p.alh`` came from
it. :mod:`referee.simulate.modules_play` extends :class:`Sim` with the expansion modules
(``alhambra-referee simulate --modules``, ``examples/module-*.alh``).
:mod:`referee.simulate.simulator` is the engine-driven simulator behind ``alhambra-referee
simulate`` without modules (legal moves enumerated and checked by the engine, every profile).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from referee.catalogue import ALL_MONEY_CARDS, Currency, MoneyCard, TileKind, catalogue
from referee.engine import check_game
from referee.geometry import Alhambra, legal_cells
from referee.notation import parse_text

NAMES = ["Anna", "Ben", "Cem", "Dana", "Emil", "Fritz"]

__all__ = ["NAMES", "Sim", "generate", "record"]


def _cards(cards: Sequence[MoneyCard]) -> str:
    return " ".join(c.code for c in cards)


def _payment(hand: list[MoneyCard], cur: Currency, price: int) -> tuple[list[MoneyCard], bool]:
    """Cards of ``cur`` paying ``price``: an exact subset if there is one, else the smallest
    overpayment without superfluous cards; ([], False) if the player cannot pay."""
    mine = sorted((c for c in hand if c.currency is cur), key=lambda c: -c.value)
    best: list[MoneyCard] | None = None
    for r in range(1, min(len(mine), 5) + 1):
        for combo in itertools.combinations(mine, r):
            s = sum(c.value for c in combo)
            if s == price:
                return list(combo), True
            minimal = s > price and all(s - c.value < price for c in combo)
            if minimal and (best is None or s < sum(c.value for c in best)):
                best = list(combo)
    return (best or []), False


class Sim:
    def __init__(self, n: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.names = NAMES[:n]
        self.lines: list[str] = []
        self.hands: list[list[MoneyCard]] = [[] for _ in range(n)]
        self.alh = [Alhambra() for _ in range(n)]
        self.reserve: list[list[TileKind]] = [[] for _ in range(n)]
        self.discard: list[MoneyCard] = []
        self.display: list[MoneyCard] = []
        self.market: list[TileKind | None] = [None] * 4
        self.turn = 0
        self.youngest: str | None = None

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        rng = self.rng
        cards = [c for c in ALL_MONEY_CARDS for _ in range(3)]
        rng.shuffle(cards)
        deals = []
        for i, name in enumerate(self.names):
            got: list[MoneyCard] = []
            while sum(c.value for c in got) < 20:
                got.append(cards.pop())
            self.hands[i] = list(got)
            deals.append(got)
            self.lines.append(f"* deal {name} {_cards(got)}")
        self.display = [cards.pop() for _ in range(4)]
        self.lines.append(f"* display {_cards(self.display)}")
        # five roughly equal piles; W1 shuffled into pile 2, W2 into pile 4 (Spielvorbereitung)
        n = len(cards)
        sizes = [n // 5 + (1 if i < n % 5 else 0) for i in range(5)]
        piles: list[list[object]] = []
        at = 0
        for s in sizes:
            piles.append(list(cards[at : at + s]))
            at += s
        piles[1].insert(rng.randrange(len(piles[1]) + 1), "W1")
        piles[3].insert(rng.randrange(len(piles[3]) + 1), "W2")
        self.deck: list[object] = [c for p in piles for c in p]  # index 0 = top
        tiles = list(catalogue().tiles)
        rng.shuffle(tiles)
        self.bag = tiles
        self.market = [self.bag.pop() for _ in range(4)]
        self.lines.append(
            "* market "
            + " ".join(
                f"{Currency.of_field(i + 1).code}:{t.code}"  # type: ignore[union-attr]
                for i, t in enumerate(self.market)
            )
        )
        key = [(len(d), sum(c.value for c in d)) for d in deals]
        best = min(key)
        tied = [i for i, k in enumerate(key) if k == best]
        self.current = tied[0]
        if len(tied) > 1:
            self.youngest = self.names[tied[0]]
            self.lines.append(f"start {self.names[tied[0]]} youngest")
        else:
            self.lines.append(f"start {self.names[tied[0]]}")

    # ------------------------------------------------------------------ turns
    def _place(self, i: int, tile: TileKind) -> str:
        cells = legal_cells(self.alh[i], tile)
        if cells and self.rng.random() < 0.9:
            at = self.rng.choice(sorted(cells, key=lambda c: (c.x, c.y)))
            self.alh[i].place(at, tile)
            return f"place {tile.code}@{at}"
        self.reserve[i].append(tile)
        return f"reserve {tile.code}"

    def play_turn(self) -> None:
        rng = self.rng
        i = self.current
        hand = self.hands[i]
        actions: list[str] = []
        bought: list[TileKind] = []
        while True:
            options = []
            for f, tile in enumerate(self.market):
                if tile is None:
                    continue
                pay, exact = _payment(hand, Currency.of_field(f + 1), tile.price)
                if pay:
                    options.append((exact, f, tile, pay))
            exact_opts = [o for o in options if o[0]]
            if exact_opts and rng.random() < 0.9:
                _, f, tile, pay = rng.choice(exact_opts)
            elif options and rng.random() < (0.35 if not actions else 0.5):
                _, f, tile, pay = rng.choice(options)
            else:
                actions.append(self._other_action(i))
                break
            for c in pay:
                hand.remove(c)
                self.discard.append(c)
            self.market[f] = None
            bought.append(tile)
            actions.append(f"buy {Currency.of_field(f + 1).code} {tile.code} pay {_cards(pay)}")
            if sum(c.value for c in pay) != tile.price:
                break
        for tile in bought:
            actions.append(self._place(i, tile))
        self.turn += 1
        self.lines.append(f"{self.turn}. {self.names[i]}: " + ", ".join(actions))
        self.current = (i + 1) % len(self.names)

    def _other_action(self, i: int) -> str:
        rng = self.rng
        if self.reserve[i] and rng.random() < 0.5:
            for tile in list(self.reserve[i]):
                cells = legal_cells(self.alh[i], tile)
                if cells:
                    at = rng.choice(sorted(cells, key=lambda c: (c.x, c.y)))
                    self.reserve[i].remove(tile)
                    self.alh[i].place(at, tile)
                    return f"build {tile.code}@{at}"
        small = [c for c in self.display if c.value <= 5]
        rng.shuffle(small)
        take: list[MoneyCard] = []
        if small and rng.random() < 0.6:
            for c in small:
                if sum(x.value for x in take) + c.value <= 5:
                    take.append(c)
        if not take and self.display:
            take = [rng.choice(self.display)]
        if not take:
            raise RuntimeError("stuck: nothing to take")
        for c in take:
            self.display.remove(c)
            self.hands[i].append(c)
        return f"take {_cards(take)}"

    # ------------------------------------------------------------------ refill
    def _refill_prelude(self) -> list[str]:
        """Chance events written before the display refill (modules: a square turned up)."""
        return []

    def _display_size(self) -> int:
        """Cards lying in the display (modules: exchange offices count too)."""
        return len(self.display)

    def _reveal_component(self, card: object) -> bool:
        """Put a module card turned up into the display; False: not a module card."""
        return False

    def _refill_market(self) -> list[str]:
        """Fill the empty market fields from field 1 to 4; the draws as notation."""
        drawn = []
        for f in range(4):
            if self.market[f] is None and self.bag:
                self.market[f] = self.bag.pop()
                drawn.append(f"{Currency.of_field(f + 1).code}:{self.market[f].code}")  # type: ignore[union-attr]
        return drawn

    def refill(self) -> tuple[list[int], bool]:
        events: list[str] = self._refill_prelude()
        revealed: list[str] = []
        scorings: list[int] = []
        while self._display_size() < 4:
            if not self.deck:
                if not self.discard:
                    break
                if revealed:
                    events.append("display " + " ".join(revealed))
                    revealed = []
                events.append("reshuffle")
                self.deck = list(self.discard)
                self.discard = []
                self.rng.shuffle(self.deck)
            card = self.deck.pop(0)
            if self._reveal_component(card):
                revealed.append(card)  # type: ignore[arg-type]
                continue
            if isinstance(card, str):
                revealed.append(card)
                scorings.append(int(card[1]))
                continue
            revealed.append(card.code)  # type: ignore[attr-defined]
            self.display.append(card)  # type: ignore[arg-type]
        if revealed:
            events.append("display " + " ".join(revealed))
        drawn = self._refill_market()
        if drawn:
            events.append("market " + " ".join(drawn))
        if events:
            self.lines.append("* " + ", ".join(events))
        over = any(t is None for t in self.market)
        return scorings, over

    # ------------------------------------------------------------------ end
    def distribute(self) -> None:
        awards = []
        for f, tile in enumerate(self.market):
            if tile is None:
                continue
            cur = Currency.of_field(f + 1)
            sums = [sum(c.value for c in h if c.currency is cur) for h in self.hands]
            best = max(sums)
            who = [i for i, s in enumerate(sums) if s == best]
            if best == 0 or len(who) != 1:
                awards.append(f"{cur.code}:{tile.code} none")
                continue
            i = who[0]
            cells = legal_cells(self.alh[i], tile)
            if cells:
                at = sorted(cells, key=lambda c: (c.x, c.y))[0]
                self.alh[i].place(at, tile)
                awards.append(f"{cur.code}:{tile.code} {self.names[i]}@{at}")
            else:
                awards.append(f"{cur.code}:{tile.code} {self.names[i]} reserve")
        if awards:
            self.lines.append("distribute " + ", ".join(awards))

    def play(self) -> list[str]:
        self.setup()
        while True:
            self.play_turn()
            scorings, over = self.refill()
            for s in scorings:
                self.lines.append(f"scoring {s}")
            if over:
                break
            if self.turn > 1000:  # pragma: no cover - safety net
                raise RuntimeError("game does not end")
        self.distribute()
        self.lines.append("scoring 3")
        return self.lines


def generate(n: int, seed: int, event: str = "") -> str:
    """A complete legal game of ``n`` players as record text, with claims and the result."""
    return record(Sim(n, seed), seed, event)


def record(sim: Sim, seed: int, event: str = "", modules: Sequence[str] = ()) -> str:
    """Play ``sim`` to the end and write its record: headers (a ``Modules`` header when
    ``modules`` are given), the moves, the claimed totals at every scoring and the result.

    Shared by :func:`generate` and :func:`referee.simulate.modules_play.generate`.
    """
    lines = sim.play()
    headers = [f'[Event "{event or f"generated game, seed {seed}"}"]']
    headers.append(f'[Players "{", ".join(sim.names)}"]')
    if sim.youngest:
        headers.append(f'[Youngest "{sim.youngest}"]')
    headers.append('[Rules "queen-2003"]')
    if modules:
        headers.append(f'[Modules "{", ".join(modules)}"]')
    text = "\n".join(headers) + "\n\n" + "\n".join(lines) + "\n"
    rep = check_game(parse_text(text, "gen.alh")[0])
    # claims: each scoring line states every player's total (a checksum the referee verifies)
    out: list[str] = []
    results = iter(rep.scorings)
    for line in text.splitlines():
        if line.startswith("scoring "):
            res = next(results)
            claims = ", ".join(f"{row.name} ={row.total}" for row in res.rows if not row.is_dirk)
            line = f"{line}: {claims}"
        out.append(line)
    result = ", ".join(f"{k} {v}" for k, v in rep.result.items())
    out.insert(len(headers), f'[Result "{result}"]')  # canonical order: Result last
    return "\n".join(out) + "\n"
