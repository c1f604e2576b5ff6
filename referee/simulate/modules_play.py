"""Complete legal games with the modules of "Die Gunst des Wesirs".

``ModuleSim`` extends the base-game generator :class:`referee.simulate.scripted.Sim` (a seeded
random player, legal not clever) with the four modules as the rulebook
(rulebook-bigbox-de-2019.txt) states them:

* Wesir: after a turn (its refill and scoring written) a player with an awake vizier may buy
  one tile, paid exactly, and place or reserve it; the market is refilled; waking is an action.
* Wechselstuben: two exchange cards shuffled into each of money piles 2, 3 and 4; revealed into
  the display (4 cards in all), taken instead of money, one pays one tile in its two
  currencies and goes to the discard pile (back into the deck on a reshuffle).
* Bonuskarten: dealt face down (3/3/2/2/1 for 2-6 players), revealed when the tile is built,
  sometimes just before a scoring line.
* Plätze: six stacks, a square taken for free as an action (at most 3 per player), placed by
  the building rules. The squares' wall faces are not in the texts: the generator invents them
  (one or two walls each) and the records state them.

Like :class:`~referee.simulate.scripted.Sim` it plays 3 to 6 players under ``queen-2003`` (no
Dirk). ``alhambra-referee simulate --modules`` and ``tests/test_module_games.py`` (which writes
``examples/module-*.alh``) use it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from referee.catalogue import SIDES, BuildingType, Currency, MoneyCard, TileKind
from referee.geometry import legal_cells
from referee.modules.bonuskarten import card_tiles, deal_size
from referee.modules.plaetze import Square, per_colour
from referee.modules.wechselstuben import all_cards, currencies_of
from referee.simulate.scripted import Sim, _cards, record

ALL = ("wesir", "wechselstuben", "bonuskarten", "plaetze")

__all__ = ["ALL", "ModuleSim", "generate", "uses"]


def _pay(hand: Sequence[MoneyCard], curs: frozenset[Currency], price: int) -> list[MoneyCard]:
    """An exact payment of ``price`` from cards of ``curs`` (at most 5 cards), or []."""
    mine = sorted((c for c in hand if c.currency in curs), key=lambda c: -c.value)
    for r in range(1, min(len(mine), 5) + 1):
        for combo in itertools.combinations(mine, r):
            if sum(c.value for c in combo) == price:
                return list(combo)
    return []


class ModuleSim(Sim):
    """The base-game player of :class:`~referee.simulate.scripted.Sim` with the modules."""

    def __init__(self, n: int, seed: int, modules: Sequence[str]) -> None:
        super().__init__(n, seed)
        self.mods = set(modules)
        self.xhands: list[list[str]] = [[] for _ in range(n)]
        self.xdisplay: list[str] = []
        self.awake = [True] * n
        self.bonus: list[list[TileKind]] = [[] for _ in range(n)]
        self.shown: list[list[TileKind]] = [[] for _ in range(n)]
        self.stacks: dict[BuildingType, list[Square]] = {}
        self.squares = [0] * n
        self.used = {m: 0 for m in ALL}

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        super().setup()
        start = self.lines.pop()  # "start NAME": module setup lines go before it
        rng = self.rng
        if "wechselstuben" in self.mods:
            money = [c for c in self.deck if not isinstance(c, str)]
            n = len(money)
            sizes = [n // 5 + (1 if i < n % 5 else 0) for i in range(5)]
            sizes[1] += 1  # W1
            sizes[3] += 1  # W2
            bounds = list(itertools.accumulate([0, *sizes]))
            cards = [f"ex:{c}" for c in all_cards()]
            rng.shuffle(cards)
            for pile in (4, 3, 2):  # from the back: earlier indices stay valid
                lo, hi = bounds[pile - 1], bounds[pile]
                for _ in range(2):
                    self.deck.insert(rng.randint(lo, hi), cards.pop())
                    hi += 1
        if "bonuskarten" in self.mods:
            bonus_cards = list(card_tiles())
            rng.shuffle(bonus_cards)
            k = deal_size(len(self.names))
            for i, name in enumerate(self.names):
                self.bonus[i] = [bonus_cards.pop() for _ in range(k)]
                self.lines.append(f"* bonus {name} " + " ".join(t.code for t in self.bonus[i]))
        if "plaetze" in self.mods:
            for colour, count in per_colour().items():
                stack = []
                for _ in range(count):
                    walls = rng.sample(SIDES, rng.choice((1, 1, 2)))
                    stack.append(Square(colour, frozenset(walls)))
                self.stacks[colour] = stack
            self.lines.append("* squares " + " ".join(s[0].code for s in self.stacks.values()))
        self.lines.append(start)

    # ------------------------------------------------------------------ payments
    def _options(self, i: int) -> list[tuple[int, TileKind, list[MoneyCard], str | None]]:
        """Exact purchases: (field index, tile, cards, exchange card used or None)."""
        out: list[tuple[int, TileKind, list[MoneyCard], str | None]] = []
        for f, tile in enumerate(self.market):
            if tile is None:
                continue
            cur = Currency.of_field(f + 1)
            pay = _pay(self.hands[i], frozenset({cur}), tile.price)
            if pay:
                out.append((f, tile, pay, None))
                continue
            for x in self.xhands[i]:
                curs = currencies_of(x[3:])
                if cur in curs:
                    pay = _pay(self.hands[i], curs, tile.price)
                    if pay:
                        out.append((f, tile, pay, x))
                        break
        return out

    def _buy(self, i: int, option: tuple[int, TileKind, list[MoneyCard], str | None]) -> str:
        f, tile, pay, x = option
        for c in pay:
            self.hands[i].remove(c)
            self.discard.append(c)
        text = f"buy {Currency.of_field(f + 1).code} {tile.code} pay {_cards(pay)}"
        if x is not None:
            self.xhands[i].remove(x)
            self.discard.append(x)  # type: ignore[arg-type]  # reshuffled back in later
            text += f" {x}"
            self.used["wechselstuben"] += 1
        self.market[f] = None
        return text

    def _place_piece(self, i: int, piece: TileKind | Square) -> str:
        cells = legal_cells(self.alh[i], piece)
        if cells and self.rng.random() < 0.9:
            at = self.rng.choice(sorted(cells, key=lambda c: (c.x, c.y)))
            self.alh[i].place(at, piece)
            return f"place {piece.code}@{at}"
        self.reserve[i].append(piece)  # type: ignore[arg-type]
        return f"reserve {piece.code}"

    def _reveals(self, i: int) -> list[str]:
        out = []
        built = {p for _c, p in self.alh[i].items()}
        for card in list(self.bonus[i]):
            if card in built and self.rng.random() < 0.6:
                self.bonus[i].remove(card)
                self.shown[i].append(card)
                out.append(f"bonus {card.code}")
                self.used["bonuskarten"] += 1
        return out

    # ------------------------------------------------------------------ turns
    def play_turn(self) -> None:
        rng = self.rng
        i = self.current
        actions: list[str] = []
        pieces: list[TileKind | Square] = []
        while True:
            options = self._options(i)
            wanted = [o for o in options if o[1] in self.bonus[i]]  # a bonus card's tile
            if options and rng.random() < 0.85:
                opt = rng.choice(wanted or options)
                actions.append(self._buy(i, opt))
                pieces.append(opt[1])
                continue  # exact: another action
            actions.append(self._module_or_other(i, pieces))
            break
        for piece in pieces:
            actions.append(self._place_piece(i, piece))
        actions += self._reveals(i)
        self.turn += 1
        self.lines.append(f"{self.turn}. {self.names[i]}: " + ", ".join(actions))
        self.current = (i + 1) % len(self.names)

    def _module_or_other(self, i: int, pieces: list[TileKind | Square]) -> str:
        rng = self.rng
        if "wesir" in self.mods and not self.awake[i] and rng.random() < 0.4:
            self.awake[i] = True
            return "wake"
        if self.xdisplay and rng.random() < 0.5:
            x = rng.choice(self.xdisplay)
            self.xdisplay.remove(x)
            self.xhands[i].append(x)
            return f"take {x}"
        if "plaetze" in self.mods and self.squares[i] < 3 and rng.random() < 0.25:
            colours = [c for c, s in self.stacks.items() if s]
            if colours:
                sq = self.stacks[rng.choice(colours)].pop(0)
                self.squares[i] += 1
                pieces.append(sq)
                self.used["plaetze"] += 1
                self._square_reveal = sq.colour
                return f"square {sq.code}"
        if not self.display and self.xdisplay:
            x = self.xdisplay.pop(0)
            self.xhands[i].append(x)
            return f"take {x}"
        return self._other_action(i)

    _square_reveal: BuildingType | None = None

    # ------------------------------------------------------------------ refill
    def _refill_prelude(self) -> list[str]:
        events: list[str] = []
        if self._square_reveal is not None:
            stack = self.stacks[self._square_reveal]
            if stack:
                events.append(f"squares {stack[0].code}")
            self._square_reveal = None
        return events

    def _display_size(self) -> int:
        return len(self.display) + len(self.xdisplay)

    def _reveal_component(self, card: object) -> bool:
        if isinstance(card, str) and card.startswith("ex:"):
            self.xdisplay.append(card)
            return True
        return False

    def between(self) -> bool:
        """Out-of-turn moments after a complete turn: vizier purchases. True: game over."""
        if "wesir" not in self.mods:
            return False
        n = len(self.names)
        for k in range(n):  # the player who would move next decides first
            i = (self.current + k) % n
            if not self.awake[i] or self.rng.random() > 0.25:
                continue
            options = self._options(i)
            if not options:
                continue
            opt = self.rng.choice(options)
            actions = ["vizier", self._buy(i, opt), self._place_piece(i, opt[1])]
            actions += self._reveals(i)
            self.awake[i] = False
            self.used["wesir"] += 1
            self.lines.append(f"{self.names[i]}: " + ", ".join(actions))
            drawn = self._refill_market()
            if drawn:
                self.lines.append("* market " + " ".join(drawn))
            return any(t is None for t in self.market)
        return False

    def before_scoring(self) -> None:
        for i, name in enumerate(self.names):
            if self.rng.random() < 0.5:
                shown = self._reveals(i)
                if shown:
                    self.lines.append(f"{name}: " + ", ".join(shown))

    def play(self) -> list[str]:
        self.setup()
        while True:
            self.play_turn()
            scorings, over = self.refill()
            for s in scorings:
                if "bonuskarten" in self.mods:
                    self.before_scoring()
                self.lines.append(f"scoring {s}")
            if over or self.between():
                break
            if self.turn > 1000:  # pragma: no cover - safety net
                raise RuntimeError("game does not end")
        self.distribute()
        if "bonuskarten" in self.mods:
            self.before_scoring()
        self.lines.append("scoring 3")
        return self.lines


def generate(n: int, seed: int, modules: Sequence[str], event: str = "") -> str:
    """A complete legal game with ``modules``, with claimed totals and the result."""
    return record(ModuleSim(n, seed, modules), seed, event, modules)


def uses(text: str) -> dict[str, bool]:
    """Whether a record shows each module's actions (so an example really exercises it)."""
    lines = text.splitlines()
    body = [line for line in lines if line[:1].isdigit() or (": " in line and line[:1].isalpha())]
    return {
        "wesir": any(": vizier" in line for line in body) and any("wake" in line for line in body),
        "wechselstuben": any("take ex:" in line for line in body)
        and any(" ex:" in line.split(" pay ", 1)[1] for line in body if " pay " in line),
        "bonuskarten": any("bonus " in line for line in body),
        "plaetze": any("square sq:" in line for line in body)
        and any("place sq:" in line for line in body),
    }
