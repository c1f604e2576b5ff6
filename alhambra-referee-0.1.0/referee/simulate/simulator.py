"""Complete random legal games, written as canonical records that check themselves.

The simulator holds what the table hides (the order of the money deck and of the tile bag) and
lets the engine hold everything else: each body line is built as a record node and applied to a
:class:`referee.engine.GameState` at once. The legal-move generator proposes, the engine
judges: every chosen action and every out-of-turn or stage line is first applied to a copy of
the state (:meth:`_Game.pick`, :meth:`_Game.pick_line`); one the engine refuses is dropped and
another chosen (the refusals are kept in ``_Game.refused`` for the harness), and a free action
that would leave a granted redesign impossible is refused too. A line the engine refuses after
it was written (a module's chance line, the turn's end) is a bug and raises
:class:`SimulationError`.

The game follows ``rulebook-base-de-2003.txt`` (and the chosen profile's parameters):

* "Spielvorbereitung": start money dealt face up until it reaches 20, four cards in the display,
  the rest in five roughly equal piles with "1. Wertung" in the second and "2. Wertung" in the
  fourth (shuffled in, or on top under ``scoring_card_placement: top``), four tiles on the
  market fields 1 to 4; the start player by fewest cards (then total, then youngest).
* after each turn the display and the market are refilled (field 1 to 4), the discard pile is
  reshuffled when the deck runs out, a revealed scoring card is scored before the next turn.
* "Spielende": the market cannot be completely refilled (or the bag runs out, profile
  ``game_end: bag-empty``); the leftover tiles go to the player with the most money of their
  currency (none on a tie), then scoring 3.
* "Sonderregel für das Spiel zu zweit": 72 money cards; Dirk gets 6 tiles at the start, 6 after
  scoring 1 and a third of the bag (or the profile's number) after scoring 2.

Claimed totals are written at every scoring (``=total`` per player, ``+points`` for Dirk) and
the ``Result`` header at the end, so a changed move shows up as a violation.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.catalogue import ALL_MONEY_CARDS, Currency, MoneyCard, TileKind, catalogue
from referee.engine import (
    EMPTY,
    GameState,
    apply_action,
    apply_item,
    end_turn,
    start_state,
)
from referee.engine.context import Context
from referee.engine.extensions import ActionKind, Extensions, Module
from referee.engine.legal import (
    build_actions,
    buy_actions,
    can_end_turn,
    cells_for,
    granted_actions,
    legal_interrupts,
    main_actions,
    may_act,
    module_actions,
    mover,
    owed_actions,
    piece_ref,
    placement_actions,
    redesign_actions,
    remove_actions,
    swap_actions,
    take_actions,
    take_only,
    tile_ref,
)
from referee.engine.orientation import placements
from referee.engine.ruleset import Decision
from referee.engine.sim_context import SimContext
from referee.engine.state import COPY_POLICY
from referee.engine.tower import is_tower_piece
from referee.engine.turns import Phase
from referee.notation import format_game
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import (
    Action,
    Award,
    BodyItem,
    Buy,
    CardRef,
    Chance,
    Claim,
    ComponentRef,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    Game,
    GenericArg,
    Header,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    Reshuffle,
    Scoring,
    ScoringCardRef,
    StartPlayer,
    TakeMoney,
    TileRef,
    Turn,
)
from referee.simulate.policy import Policy

NAMES = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritz")
DIRK_FIRST = 6  # "6 zufällig gezogene Gebäudeteile" (Sonderregel für das Spiel zu zweit)
MAX_TURNS = 2000  # a safety net: real games end after about 60-200 turns
MAX_INTERRUPTS = 3  # out-of-turn lines played at one moment, at most
MAX_BETWEEN = 12  # module chance lines after one turn (e.g. key tiles), at most
MAX_STAGE_LINES = 500  # a safety net: a stage (an auction's rounds) ends long before
MAX_REFUSED = 60  # offers the engine refuses in a row before the simulator gives up

_T = TypeVar("_T")
Scorer = int  # a scoring card in the deck: 1 or 2
DeckCard = MoneyCard | Scorer | ComponentRef  # ComponentRef: a module's card (e.g. ex:GuDe)


class LazyOptions:
    """The legal main actions of the player to move, each kind enumerated on first use.

    Module moves (:meth:`referee.engine.Module.legal_actions`) join the kind they are: a module
    card taken joins the takes, a module way to pay joins the buys, module verbs are
    :meth:`verbs`.

    Each kind is enumerated once: :meth:`_Game.pick` asks the policy again after each refusal,
    and a refusal is asked on a copy of the state (:meth:`_Game.refusal`), so the state these
    options describe is the same at every ask; only the offers refused so far are left out."""

    def __init__(self, state: GameState, sim: SimContext | None = None) -> None:
        self.state = state
        self.sim = sim
        self.prefers = True
        """False (set by the simulator): no enabled module overrides ``Module.sim_prefers``
        (:meth:`wanted` asks none)."""
        self.ctx = Context(state)
        self.p = mover(state)
        self.open = self.p is not None and may_act(state)
        # after a roll of Die Arbeiter only a take is left (TurnState.take_only)
        self.more = self.open and not take_only(state)
        self._modules: list[Action] | None = None
        self._kinds: dict[str, list[Action]] = {}
        self.refused: list[Action] = []
        """Offers the engine refused when asked (:meth:`_Game.pick`): never offered again."""

    def _ok(self, actions: list[Action]) -> list[Action]:
        return [a for a in actions if a not in self.refused] if self.refused else actions

    def _once(self, kind: str, make: Callable[[], list[Action]]) -> list[Action]:
        """The actions of ``kind`` (made by ``make`` on first use), less those refused."""
        got = self._kinds.get(kind)
        if got is None:
            got = self._kinds[kind] = make()
        return self._ok(got) if self.refused else list(got)

    def _module(self) -> list[Action]:
        if self._modules is None:
            self._modules = (
                module_actions(self.ctx, self.p) if self.open and self.p and self.state.ext else []
            )
        return self._modules

    def takes(self) -> list[Action]:
        if not self.open or self.p is None:
            return []
        p = self.p
        return self._once(
            "takes",
            lambda: [*take_actions(self.ctx, p), *(a for a in self._module() if _is(a, "take"))],
        )

    def buys(self) -> list[Action]:
        if not self.more or self.p is None:
            return []
        p = self.p
        return self._once(
            "buys",
            lambda: [*buy_actions(self.ctx, p), *(a for a in self._module() if _is(a, "buy"))],
        )

    def builds(self) -> list[Action]:
        p = self.p
        if not self.more or not p:
            return []
        return self._once("builds", lambda: build_actions(self.ctx, p))

    def removes(self) -> list[Action]:
        p = self.p
        if not self.more or not p:
            return []
        return self._once("removes", lambda: remove_actions(self.ctx, p))

    def swaps(self) -> list[Action]:
        p = self.p
        if not self.more or not p:
            return []
        return self._once("swaps", lambda: swap_actions(self.ctx, p))

    def verbs(self) -> list[Action]:
        """Module verbs that are main actions (e.g. waking the vizier, taking a square)."""
        return self._once(
            "verbs",
            lambda: [
                a
                for a in self._module()
                if isinstance(a, ModuleAction)
                and self.state.ext.verb_kind(a.verb) not in (ActionKind.FREE, ActionKind.INTERRUPT)
            ],
        )

    def has_reserve(self) -> bool:
        return bool(self.p and self.p.reserve)

    def wanted(self, actions: list[Action]) -> list[Action]:
        """Of ``actions``, those a module makes the player want (``Module.sim_prefers``)."""
        if self.sim is None or self.p is None or not self.state.ext or not self.prefers:
            return []
        out: list[Action] = []
        for m in self.state.ext.modules:
            out += [a for a in m.sim_prefers(self.sim, self.p, actions) if a not in out]
        return out

    def all(self) -> list[Action]:
        return self._once(
            "all",
            lambda: (
                main_actions(self.state)
                + [
                    a
                    for a in self._module()
                    if not (
                        isinstance(a, ModuleAction) and self.state.ext.verb_kind(a.verb) == "free"
                    )
                ]
            ),
        )


_INIT_FIELDS: dict[type, tuple[str, ...]] = {}
"""The ``__init__`` fields of each record class (:func:`_at`), in order."""


def _at(node: _T, pos: Pos) -> _T:
    """``dataclasses.replace(node, pos=pos)`` for a record node (a frozen dataclass whose
    fields are all ``__init__`` arguments, none of them keyword-only): the same class made
    from the same values, ``pos`` given."""
    cls = type(node)
    names = _INIT_FIELDS.get(cls)
    if names is None:
        fields = dataclasses.fields(node)  # type: ignore[arg-type]
        if "pos" not in {f.name for f in fields} or any(not f.init or f.kw_only for f in fields):
            # (no record node is such a class: kept for safety)
            return dataclasses.replace(node, pos=pos)  # type: ignore[type-var]
        names = _INIT_FIELDS[cls] = tuple(f.name for f in fields)
    return cls(*[pos if n == "pos" else getattr(node, n) for n in names])


def _without(actions: Sequence[_T], refused: Sequence[object]) -> list[_T]:
    return [a for a in actions if a not in refused] if refused else list(actions)


def _is(a: Action, kind: str) -> bool:
    return (kind == "take" and isinstance(a, TakeMoney)) or (kind == "buy" and isinstance(a, Buy))


def _has_free_verbs(ext: Extensions) -> bool:
    """Whether an enabled module declares a verb that is no action (kind ``free``): only
    such a verb's action is of that kind (``Extensions.verb_kind`` reads the enabled
    modules' specs), so without one :func:`free_actions` has nothing to list."""
    return any(spec.kind == ActionKind.FREE for m in ext.modules for spec in m.verb_specs)


def free_actions(state: GameState) -> list[Action]:
    """Module actions that are no action (e.g. revealing a bonus card) open now."""
    p = mover(state)
    if p is None or not state.ext or not _has_free_verbs(state.ext):
        return []
    return [
        a
        for a in module_actions(Context(state), p)
        if isinstance(a, ModuleAction) and state.ext.verb_kind(a.verb) == ActionKind.FREE
    ]


def _shown(revealed: list[CardRef | ScoringCardRef | ComponentRef]) -> list[object]:
    return [DisplayReveal(tuple(revealed))] if revealed else []


def _bag_ref(t: TileKind | ComponentRef) -> TileRef | ComponentRef:
    """How a tile drawn from the tower is written: a base tile by its code, a module tile by
    its token."""
    return t if isinstance(t, ComponentRef) else tile_ref(t)


_LOST = "the redesign the turn was granted would be impossible after it"


def _owes_redesign(state: GameState) -> bool:
    """Whether the turn owes a granted redesign (a master-builder card played) and has no
    bought piece left to place."""
    t = state.turn
    return t is not None and t.extra_redesigns > 0 and not t.pending and mover(state) is not None


_FRESH = {f for f, how in COPY_POLICY.items() if how == "fresh"}
# (``context``: the state keeps its own, which names it; the trial's names the trial)
if {"found", "unverifiable", "spare_turn", "context"} != _FRESH:  # pragma: no cover - a new field
    raise TypeError(f"_take_over does not know the fields {sorted(_FRESH)}")
_TAKEN = tuple(f.name for f in dataclasses.fields(GameState) if f.name not in _FRESH)


def _make_take_over() -> Callable[[GameState, GameState], None]:
    """:func:`_take_over` as one generated function: an assignment a field (a loop of
    ``setattr(state, name, getattr(trial, name))`` costs two calls a field)."""
    lines = [f"    s.{name} = t.{name}" for name in _TAKEN]
    text = "def take_over(s, t):\n" + "\n".join(lines) + "\n"
    namespace: dict[str, Any] = {}
    exec(compile(text, "<take_over>", "exec"), namespace)
    return namespace["take_over"]


_TAKE_FIELDS = _make_take_over()


def _take_over(state: GameState, trial: GameState) -> None:
    """Make ``state`` what its copy ``trial`` has become (``trial`` is ``state.copy()`` with
    one line applied since): every field the copy made its own or shared is taken from it,
    the findings made on it are added to the state's (a copy starts without findings). The
    state stays the same object (the simulator's contexts hold it); ``trial`` is not used
    again."""
    _TAKE_FIELDS(state, trial)
    state.found.extend(trial.found)
    state.unverifiable.extend(trial.unverifiable)
    if trial.spare_turn is not None:
        state.spare_turn = trial.spare_turn


class SimulationError(RuntimeError):
    """The engine rejected an action the legal-move generator offered (a bug in one of them)."""


@dataclass(frozen=True)
class SimSettings:
    players: int = 3
    profile: RuleProfile = DEFAULT_PROFILE
    modules: tuple[str, ...] = ()


def game_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a run with ``seed`` (stable across versions)."""
    return seed * 1_000_003 + index


class _Replay(Exception):
    """The fast way (no trial copies) met a line the engine refuses: the game is played again
    from its start, each line tried on a copy first (:meth:`_Game.play`)."""


@dataclass(frozen=True)
class FastWayReplay:
    """A game the fast way could not finish, played again with trials (:meth:`_Game.play`)."""

    event: str
    seed: int
    reason: str
    """``"refused"``: the engine refused a line the fast way applied (by design: the trials
    drop such an offer); else the name of the exception the fast way met (a defect of the fast
    way alone: the game's record is the trials' all the same)."""
    message: str


_REJECTS = "the engine rejects"  # :meth:`_Game._ensure_clean`'s refusal (a line applied)
_REPLAYS: list[FastWayReplay] = []
_REPLAYS_KEPT = 100  # the first ones of a process: enough to name a defect, bounded


def fast_way_replays() -> tuple[FastWayReplay, ...]:
    """The games of this process the simulator played again with trials (the first 100), in
    order: a test over many games asserts that none had a reason other than ``"refused"``."""
    return tuple(_REPLAYS)


class _Game:
    def __init__(self, settings: SimSettings, seed: int, event: str, trials: bool = False) -> None:
        self.seed = seed
        self.event = event
        self.trials = trials
        """True: every offer is tried on a copy of the state first (:meth:`refusal`), and one
        the engine refuses is dropped. False (the fast way): an offer is applied to the state
        itself, and a refusal there makes :meth:`play` play the whole game again with trials
        (:class:`_Replay`)."""
        self.rng = random.Random(seed)
        self.settings = settings
        self.profile = settings.profile
        self.policy = Policy(self.rng)
        n = settings.players
        if not 2 <= n <= 6:
            raise ValueError("2 to 6 players")
        self.names = list(NAMES[:n])
        self.youngest = self.rng.choice(self.names)
        headers = [
            Header("Event", event),
            Header("Players", ", ".join(self.names)),
            Header("Youngest", self.youngest),
            Header("Rules", self.profile.name),
        ]
        if settings.modules:
            headers.append(Header("Modules", ", ".join(settings.modules)))
        self.headers = headers
        self.body: list[BodyItem] = []
        self.state: GameState = start_state(Game(tuple(headers), ()), self.profile)
        self.deck: list[DeckCard] = []
        self.bag: list[TileKind | ComponentRef] = []  # module tiles as their tokens (E5)
        self.ctx = Context(self.state)
        self.sim = SimContext(self.ctx, self.rng)
        self.display_size = int(self.ctx.decide(Decision.DISPLAY_SIZE))
        self.stage_owners = [
            m
            for m in self.state.ext.modules
            if type(m).stage_line is not Module.stage_line
            or type(m).auction_closed is not Module.auction_closed
        ]
        self.market_size = int(self.ctx.decide(Decision.MARKET_SIZE))
        # the hooks an enabled module overrides (``Extensions.overriding``; the default of each
        # answers nothing): one no module overrides is not asked, which gives what the loop
        # over the modules would (nothing). The modules are the game's from its start (a copy
        # of the state taken over has the same modules' classes).
        ext = self.state.ext
        self.owing = bool(ext.overriding("owed_actions"))
        """Whether an enabled module may make an action owed (else :meth:`_owed` asks none)."""
        self.free_verbs = bool(ext) and _has_free_verbs(ext)
        """Whether an enabled module has a verb that is no action (:func:`free_actions`)."""
        self.prefers = bool(ext.overriding("sim_prefers"))
        # the modules asked for each ``sim_*`` hook: those that override it, in module order
        self.starters = ext.overriding("sim_turn_start")
        self.interrupters = ext.overriding("sim_interrupts")
        self.betweeners = ext.overriding("sim_between_turns")
        self.refillers = ext.overriding("sim_refill")
        self.after_refillers = ext.overriding("sim_after_refill")
        self.market_keepers = ext.overriding("sim_market_refill")
        self.market_drawers = ext.overriding("sim_market_draw")
        self.refused: list[str] = []
        """The generator's offers the engine refused (:meth:`pick`), for the harness."""
        self.accepted: tuple[object, Pos | None, GameState] | None = None
        """The offer :meth:`pick` (with the position it was tried at) or :meth:`pick_line`
        (None) just accepted and the copy of the state it was tried on, now the state after it:
        :meth:`_do` and :meth:`_apply` take that copy over instead of applying the same line
        to the state a second time (:meth:`_take_trial`)."""

    # ---------------------------------------------------------------------------- helpers

    def _apply(self, item: BodyItem) -> None:
        before = len(self.state.found)
        if not self._take_trial(item):
            apply_item(self.state, item)
        self._ensure_clean(before, item)
        self.body.append(item)

    def _take_trial(self, item: object, here: Pos | None = None) -> bool:
        """When ``item`` (an action offered, at ``here``; a line, placed) is the one just
        accepted on a copy of the state (:attr:`accepted`), make the state that copy
        (:func:`_take_over`) and say True: the engine applied the same line to the same state
        there. Otherwise False: the caller applies ``item`` itself."""
        accepted, self.accepted = self.accepted, None
        if accepted is None or accepted[0] is not item or accepted[1] != here:
            return False
        _take_over(self.state, accepted[2])
        return True

    def _ensure_clean(self, before: int, what: object) -> None:
        found = [v for v in self.state.found[before:] if v.severity == "error"]
        if found:
            raise SimulationError(f"{_REJECTS} {what!r}: " + "; ".join(v.message() for v in found))

    def _owed(self) -> list[Action]:
        """:func:`owed_actions` now: none when no enabled module overrides
        ``Module.owed_actions`` (its default owes nothing)."""
        return owed_actions(self.state) if self.owing else []

    def _frees(self) -> list[Action]:
        """:func:`free_actions` now: none when no enabled module has a free verb."""
        return free_actions(self.state) if self.free_verbs else []

    def _pos(self) -> Pos:
        """Where the next body line will stand in the written record (headers incl. Result,
        a blank line, then the body, one item a line)."""
        return Pos(len(self.headers) + 3 + len(self.body), 1)

    def _chance(self, events: Sequence[object]) -> None:
        if events:
            self._apply(Chance(tuple(events), pos=self._pos()))  # type: ignore[arg-type]

    # ------------------------------------------------------------------------------ setup

    def setup(self) -> None:
        rng = self.rng
        state = self.state
        copies = state.copies
        cards: list[DeckCard] = [c for c in ALL_MONEY_CARDS for _ in range(copies)]
        for m in state.ext.modules:  # module money shuffled in before the start money
            cards.extend(m.sim_deck_components(self.sim))  # type: ignore[arg-type]
        rng.shuffle(cards)

        def worth(card: DeckCard) -> int:  # module money (a diamond) counts like a card
            if isinstance(card, MoneyCard):
                return card.value
            return state.ext.money_value(state, card) or 0

        order = list(range(len(self.names)))
        if self.profile.deal_first == "youngest":
            first = self.names.index(self.youngest)
            order = order[first:] + order[:first]
        for m in state.ext.modules:  # the modules' deals before the start money
            for event in m.sim_deal(self.sim):
                self._chance([event])
        dealt: dict[int, list[MoneyCard]] = {}
        for i in order:
            got: list[DeckCard] = []
            while sum(worth(c) for c in got) < int(self.ctx.decide(Decision.START_MONEY)):
                got.append(cards.pop())
            dealt[i] = got  # type: ignore[assignment]  # module money too
            refs = tuple(c if isinstance(c, ComponentRef) else CardRef(c) for c in got)  # type: ignore[arg-type]
            self._chance([Deal(PlayerRef(self.names[i]), refs, self._pos())])
        display = [cards.pop() for _ in range(self.display_size)]
        shown = tuple(c if isinstance(c, ComponentRef) else CardRef(c) for c in display)  # type: ignore[arg-type]
        self._chance([DisplayReveal(shown, self._pos())])
        # five roughly equal piles; W1 into pile 2, W2 into pile 4 (Spielvorbereitung)
        n = len(cards)
        sizes = [n // 5 + (1 if i < n % 5 else 0) for i in range(5)]
        piles: list[list[DeckCard]] = []
        at = 0
        for s in sizes:
            piles.append(list(cards[at : at + s]))
            at += s
        for pile, number in ((piles[1], 1), (piles[3], 2)):
            where = (
                0 if self.profile.scoring_card_placement == "top" else rng.randrange(len(pile) + 1)
            )
            pile.insert(where, number)
        for m in state.ext.modules:  # module cards shuffled into their piles
            for number, comps in sorted(m.sim_money_components(self.sim).items()):
                pile = piles[number - 1]
                for comp in comps:
                    pile.insert(rng.randrange(len(pile) + 1), comp)  # type: ignore[arg-type]
        self.deck = [c for p in piles for c in p]  # index 0 is the top card
        self.sim.deck = self.deck  # modules name the top cards (the Bettler, the Schmied)
        tiles: list[TileKind | ComponentRef] = list(catalogue().tiles)
        for m in state.ext.modules:  # base tiles a module's tiles replace go back to the box
            for code, n in m.tower_replaces().items():
                for _ in range(n):
                    gone = next((t for t in tiles if str(getattr(t, "code", "")) == code), None)
                    if gone is not None:
                        tiles.remove(gone)
        for m in state.ext.modules:  # module tiles mixed into the tower (E5)
            tiles.extend(m.sim_tower(self.sim))
        rng.shuffle(tiles)
        self.bag = tiles
        self.sim.bag = self.bag  # a module drawing onto its own board pops the same tiles
        self._chance(self._market_refill())  # module tiles set aside go beside it (E14)
        if state.dirk is not None:
            dirk_tiles = tuple(_bag_ref(self.bag.pop()) for _ in range(DIRK_FIRST))
            self._chance([DirkDraw(dirk_tiles, self._pos())])
        for m in state.ext.modules:  # the modules' setup: cards dealt, stacks laid out
            for event in m.sim_setup(self.sim):
                self._chance([event])
        # start player: fewest cards, then lower total (profile), then the youngest
        use_total = self.profile.start_tiebreak == "cards-total-youngest"
        key = {
            i: (len(got), sum(worth(c) for c in got) if use_total else 0)
            for i, got in dealt.items()
        }
        best = min(key.values())
        tied = [i for i in range(len(self.names)) if key[i] == best]
        if self.profile.deal_first != "youngest":
            # nobody's age mattered so far: the youngest is one of the tied players, if any
            self.youngest = self.rng.choice(
                [self.names[i] for i in tied] if len(tied) > 1 else self.names
            )
            self.headers[2] = Header("Youngest", self.youngest)
            self.state.youngest = self.youngest
        if len(tied) == 1:
            start, by_age = tied[0], False
        elif self.names.index(self.youngest) in tied:
            start, by_age = self.names.index(self.youngest), True
        else:
            # the youngest player is not among the tied ones: the younger of those starts
            start, by_age = self.rng.choice(tied), True
        self._apply(StartPlayer(PlayerRef(self.names[start]), by_age, self._pos()))

    # ------------------------------------------------------------------------------ turns

    def _do(self, action: Action, here: Pos) -> Action:
        """Play ``action`` (already accepted by :meth:`pick`) in the turn being written."""
        offered = action
        action = _at(action, here)
        before = len(self.state.found)
        drawn = self.state.money_draws
        if not self._take_trial(offered, here):
            apply_action(self.state, action)
        # money cards a module line turned up from the deck (the Schmied names the top ones)
        del self.deck[: self.state.money_draws - drawn]
        self._ensure_clean(before, action)
        if not self.trials and self._redesign_lost(self.state, spare=False):
            raise _Replay(f"turn {self.state.turn_no}: {action!r}: {_LOST}")
        return action

    def refusal(self, action: Action, here: Pos) -> str | None:
        """Why the engine refuses ``action`` now (None: it accepts it), asked on a copy of the
        state: the errors of the action itself, or -- while the turn owes a granted redesign
        (a master-builder card played) -- that after it no redesign would be possible any more
        (e.g. the marshal walking onto the only tile that could be moved).

        The fast way (:attr:`trials` False) asks nothing here: :meth:`_do` applies the offer
        to the state itself and asks the same two questions there; a refusal replays the game
        with trials (:meth:`play`)."""
        self.accepted = None
        if not self.trials:
            return None
        state = self.state
        trial = state.copy()
        errors = [
            v
            for v in apply_action(trial, dataclasses.replace(action, pos=here))
            if v.severity == "error"
        ]
        if errors:
            return "; ".join(v.message() for v in errors)
        if self._redesign_lost(trial, spare=True):
            return _LOST
        if _owes_redesign(trial):
            return None  # the copy was asked more than the action: not kept for :meth:`_do`
        self.accepted = (action, here, trial)
        return None

    @staticmethod
    def _redesign_lost(state: GameState, spare: bool) -> bool:
        """Whether ``state`` (just after an action) owes a granted redesign that no redesign
        can make any more. ``spare``: ``state`` is a trial copy, asked itself; else the
        question is asked on a copy (it may make a module's scratch: the state stays as the
        action left it, as when the trial copy was asked and dropped)."""
        if not _owes_redesign(state):
            return False
        trial = state if spare else state.copy()
        p = mover(trial)
        assert p is not None
        return not redesign_actions(Context(trial), p)

    def pick(self, choose: Callable[[list[Action]], Action | None], here: Pos) -> Action | None:
        """The first action ``choose`` offers (given the offers refused so far) that the engine
        accepts (:meth:`refusal`); None when ``choose`` offers nothing more. The simulator
        never writes a line the engine refuses: the generator's offer is a candidate, the
        engine the judge (each refusal is kept in :attr:`refused` for the harness)."""
        refused: list[Action] = []
        for _ in range(MAX_REFUSED):
            action = choose(refused)
            if action is None:
                return None
            why = self.refusal(action, here)
            if why is None:
                return action
            refused.append(action)
            self.refused.append(f"turn {self.state.turn_no}: {action!r}: {why}")
        raise SimulationError(f"{MAX_REFUSED} offers refused: " + "; ".join(self.refused[-3:]))

    def pick_from(
        self, options: Sequence[Action], choose: Callable[[list[Action]], Action | None], here: Pos
    ) -> Action | None:
        """:meth:`pick` over a list of offers: ``choose`` sees those not refused yet (and is
        not asked when none is left)."""

        def left(refused: list[Action]) -> Action | None:
            rest = _without(options, refused)
            return choose(rest) if rest else None

        return self.pick(left, here)

    def line_from(
        self, lines: Sequence[Turn], choose: Callable[[list[Turn]], Turn | None]
    ) -> Turn | None:
        """:meth:`pick_line` over a list of lines."""
        return self.pick_line(lambda refused: choose(_without(lines, refused)))

    def pick_line(self, choose: Callable[[list[Any]], Turn | None]) -> Turn | None:
        """Like :meth:`pick` for a whole out-of-turn or stage line (placed where it will stand):
        the first one ``choose`` offers that applies to a copy of the state without an error."""
        refused: list[Any] = []
        here = self._pos()
        for _ in range(MAX_REFUSED):
            line = choose(refused)
            if line is None:
                return None
            placed = dataclasses.replace(
                line,
                actions=tuple(dataclasses.replace(a, pos=here) for a in line.actions),
                pos=here,
            )
            self.accepted = None
            if not self.trials:  # the fast way: :meth:`_apply` applies it to the state
                return placed
            trial = self.state.copy()
            before = len(trial.found)
            apply_item(trial, placed)
            errors = [v for v in trial.found[before:] if v.severity == "error"]
            if not errors:
                self.accepted = (placed, None, trial)
                return placed
            refused.append(line)
            self.refused.append(f"line {line!r}: " + "; ".join(v.message() for v in errors))
        raise SimulationError(f"{MAX_REFUSED} lines refused: " + "; ".join(self.refused[-3:]))

    def must(self, options: list[Action], here: Pos, what: str) -> Action:
        """One of ``options`` the engine accepts, at random (something is owed: one must be
        played)."""
        got = self.pick_from(options, self.rng.choice, here)
        if got is None:
            raise SimulationError(
                f"turn {self.state.turn_no + 1}: the engine refuses every {what} offered: "
                + "; ".join(self.refused[-3:])
            )
        return got

    def turn(self) -> None:
        state = self.state
        before = len(state.found)
        number = state.turn_no + 1
        mp = mover(state)
        if mp is None:
            raise SimulationError(f"turn {number}: nobody to move")
        who = mp.index
        here = self._pos()
        actions: list[Action] = []
        if self.starters:  # a free act some module allows only as the turn's first (E13)
            opening = [a for m in self.starters for a in m.sim_turn_start(self.sim, mp)]
            free = self.pick_from(opening, self.policy.choose_free, here)
            while free is not None:
                actions.append(self._do(free, here))
                # what the act drew, and the acts that may follow it (the Bettler's one more)
                # (the mover anew: a line taken over from its trial copy replaces the players)
                mp = state.players[who]
                then = [a for m in state.ext.modules for a in m.sim_played(self.sim, mp, free)]
                free = self.pick_from(then, self.policy.choose_free, here) if then else None
        first = True
        while True:
            options = LazyOptions(state, self.sim)
            options.prefers = self.prefers

            def main(
                refused: list[Action], options: LazyOptions = options, first: bool = first
            ) -> Action | None:
                options.refused = refused
                return self.policy.choose_main(options, first)

            choice = self.pick(main, here)
            if choice is None:
                if first:
                    why = (
                        f" (refused: {'; '.join(self.refused[-2:])[-600:]})" if self.refused else ""
                    )
                    raise SimulationError(
                        f"turn {number}: no legal action for {self.names[who]}{why}"
                    )
                break
            actions.append(self._do(choice, here))
            first = False
            # a free action owed "sofort" (a bought plot's building) comes before any other
            while owed := self._owed():
                actions.append(self._do(self.must(owed, here, "owed action"), here))
            assert state.turn is not None
            if state.turn.over:
                break
        # the player is looked up at each use: a line taken over from its trial copy
        # (:meth:`_take_trial`) replaces the players' objects
        while True:  # free actions owed before placing (e.g. a bought plot's building)
            owed = self._owed()
            if not owed:
                break
            actions.append(self._do(self.must(owed, here, "owed action"), here))
        while True:
            places = placement_actions(state)
            if not places:
                break
            choice = self.pick_from(
                places,
                functools.partial(self.policy.choose_placement, alh=state.players[who].alhambra),
                here,
            )
            if choice is None:
                raise SimulationError(
                    f"turn {number}: the engine refuses every placement offered: "
                    + "; ".join(self.refused[-3:])
                )
            actions.append(self._do(choice, here))
            # a free action a placement makes owed (a gate on the double wall a tile was
            # placed behind) comes right after it, before the next placement
            while owed := self._owed():
                actions.append(self._do(self.must(owed, here, "owed action"), here))
        while True:  # module actions that are no action (e.g. a bonus card revealed)
            frees = self._frees()
            free = self.pick_from(frees, self.policy.choose_free, here)
            if free is None:
                break
            actions.append(self._do(free, here))
            while owed := self._owed():
                actions.append(self._do(self.must(owed, here, "owed action"), here))
        while state.turn is not None and state.turn.extra_redesigns > 0:
            granted = granted_actions(state)  # e.g. after a master-builder card
            if not granted and may_act(state):
                # the grant came while main actions are still open (after an exact purchase of
                # a piece that is not built, e.g. a sultan card): the redesign it grants is
                # made now, "eine zusätzliche Umbauaktion"
                granted = redesign_actions(Context(state), state.players[who])
            if not granted:
                break
            actions.append(self._do(self.must(granted, here, "granted redesign"), here))
            # a free action the redesign made owed (a gate on the double wall a tile was
            # moved behind, the trader it displaced moved on) comes right after it
            while owed := self._owed():
                actions.append(self._do(self.must(owed, here, "owed action"), here))
        if not can_end_turn(state):
            t = state.turn
            why = (
                "no turn"
                if t is None
                else f"main actions {t.main_actions}, pending {list(t.pending)!r}, "
                f"owed {[str(a) for a in owed_actions(state)]!r}"
            )
            raise SimulationError(f"turn {number}: the turn cannot end ({why})")
        self.accepted = None
        end_turn(state, here)
        if any(v.severity == "error" for v in state.found[before:]):  # the text only then
            from referee.notation.formatter import action as written

            self._ensure_clean(before, f"turn {number} ({', '.join(map(written, actions))})")
        self.body.append(Turn(number, PlayerRef(self.names[who]), tuple(actions), here))
        self.stages()  # other players act inside the turn (e.g. things handed on)

    # ----------------------------------------------------------------------------- refill

    def refill(self) -> tuple[list[int], bool]:
        """Refill display and market; the scorings revealed and whether the game is over.

        The display holds 4 cards in all, module cards lying there included; a module card
        (e.g. an exchange card) turns up from the deck like money."""
        state = self.state
        events: list[object] = []
        revealed: list[CardRef | ScoringCardRef | ComponentRef] = []
        scorings: list[int] = []
        shown = int(self.ctx.decide(Decision.DISPLAY_OCCUPIED))
        reshuffled = False
        while shown < self.display_size:
            if not self.deck:
                # during a refill nothing is discarded: one reshuffle empties the pile
                extra = [c for m in state.ext.modules for c in m.sim_reshuffle(self.sim)]
                if reshuffled or not (state.discard or extra):
                    break
                reshuffled = True
                if revealed:
                    events.append(DisplayReveal(tuple(revealed)))
                    revealed = []
                events.append(Reshuffle())
                money = sorted(state.discard.elements(), key=lambda c: c.sort_key)
                discard: list[DeckCard] = [*money, *extra]  # type: ignore[list-item]
                self.rng.shuffle(discard)
                self.deck = list(discard)
                self.sim.deck = self.deck
            card = self.deck.pop(0)
            if isinstance(card, int):
                revealed.append(ScoringCardRef(card))
                scorings.append(card)
                continue
            revealed.append(card if isinstance(card, ComponentRef) else CardRef(card))
            if isinstance(card, ComponentRef) and self._opens_stage([*events, *_shown(revealed)]):
                # the card opens a stage (e.g. an auction): the refill line ends with it, the
                # stage's lines follow, then the refill goes on in a line of its own (N12)
                self._chance([*events, *_shown(revealed)])
                events, revealed = [], []
                self.stages()
            if isinstance(card, ComponentRef) and not all(
                m.display_place(card)
                for m in state.ext.modules
                if card.kind.lower() in m.component_kinds
            ):
                continue  # a card laid beside the board takes no place (e.g. a sultan card)
            shown += 1
        if revealed:
            events.append(DisplayReveal(tuple(revealed)))
        events.extend(self._market_refill())
        for m in self.refillers:
            events.extend(m.sim_refill(self.sim))
        self._chance(events)
        after = [e for m in self.after_refillers for e in m.sim_after_refill(self.sim)]
        if after:  # e.g. a fruit laid on every new market tile
            self._chance(after)
        return scorings, self._over()

    def _opens_stage(self, events: list[object]) -> bool:
        """Whether a chance line of ``events`` would open a stage (tried on a copy; only when
        an enabled module owns stages or auctions at all)."""
        if not self.stage_owners:
            return False
        trial = self.state.copy()
        apply_item(trial, Chance(tuple(events), pos=self._pos()))  # type: ignore[arg-type]
        return bool(trial.stages) and len(trial.stages) > len(self.state.stages)

    def stages(self) -> None:
        """The lines of the stages open now (an auction's bids and passes, things handed on):
        a player who must act writes one of the lines the stage allows; one who may let it
        pass sometimes writes nothing (the next line then ends the stage)."""
        state = self.state
        for _ in range(MAX_STAGE_LINES):
            if not state.stages:
                return
            stage = state.stages[-1]
            lines = legal_interrupts(state)
            required = stage.required
            line = self.line_from(
                lines, functools.partial(self.policy.choose_stage, required=required)
            )
            if line is None:
                return
            self._apply(line)
        raise SimulationError("a stage does not end")

    def _market_refill(self) -> list[object]:
        """One tile per empty field; a module tile a module sets aside (E14) is written
        ``* aside`` and the next tile is drawn for the same field."""
        events: list[object] = []
        drawn: list[tuple[Currency, object]] = []
        for f in range(self.market_size):
            if self.state.market[f] is not EMPTY:
                continue
            kept = next(
                (k for m in self.market_keepers if (k := m.sim_market_refill(self.sim, f))), None
            )
            if kept is not None:  # a piece a module kept for the field turns up (no draw)
                drawn.append((Currency.of_field(f + 1), _bag_ref(kept)))  # type: ignore[arg-type]
                continue
            while self.bag:
                ref = _bag_ref(self.bag.pop())
                cur = Currency.of_field(f + 1)
                if isinstance(ref, ComponentRef) and any(
                    m.sim_market_draw(self.sim, f, ref) for m in self.market_drawers
                ):
                    if drawn:
                        events.append(MarketDraw(tuple(drawn)))  # type: ignore[arg-type]
                        drawn = []
                    args = (GenericArg(cur.code), GenericArg(ref))
                    events.append(ModuleChance("aside", args))
                    continue
                drawn.append((cur, ref))
                break
        if drawn:
            events.append(MarketDraw(tuple(drawn)))  # type: ignore[arg-type]
        return events

    def _over(self) -> bool:
        if self.profile.game_end == "bag-empty":
            return not self.bag
        return any(s is EMPTY for s in self.state.market)

    def between_turns(self) -> bool:
        """Chance lines the modules write after a complete turn (``sim_between_turns``), each
        followed by the stage it opens and its refill. True: the game is over."""
        if not self.betweeners:
            return False
        for _ in range(MAX_BETWEEN):
            events = [e for m in self.betweeners for e in m.sim_between_turns(self.sim)]
            if not events:
                return False
            self._chance(events)
            self.stages()
            scorings, over = self.refill()
            for s in scorings:
                self.scoring(s)
            if over:
                return True
        return False

    # ------------------------------------------------------------------------- interrupts

    def interrupts(self) -> bool:
        """Out-of-turn lines the modules allow now (e.g. the vizier, a bonus card revealed),
        each followed by its refill. True: the game is over."""
        if not self.state.ext:
            return False
        wanted = [line for m in self.interrupters for line in m.sim_interrupts(self.sim)]
        for own in wanted:  # lines the modules write now (e.g. the Weise's type)
            if self._interrupt(own):
                return True
        for _ in range(MAX_INTERRUPTS):
            lines = legal_interrupts(self.state)
            line = self.line_from(lines, self.policy.choose_interrupt)
            if line is None:
                return False
            if self._interrupt(line):
                return True
        return False

    def _interrupt(self, line: Turn) -> bool:
        """Write the out-of-turn ``line`` and the refill it makes due. True: the game is over."""
        here = self._pos()
        line = dataclasses.replace(
            line,
            actions=tuple(dataclasses.replace(a, pos=here) for a in line.actions),
            pos=here,
        )
        market = list(self.state.market)
        self._apply(line)
        if self.state.phase is not Phase.REFILL and any(
            a is not b for a, b in zip(market, self.state.market, strict=False)
        ):  # a building laid on the market without a refill (e.g. the Tänzerin's)
            after = [e for m in self.after_refillers for e in m.sim_after_refill(self.sim)]
            if after:  # e.g. the fruit drawn onto it
                self._chance(after)
        if self.state.phase is Phase.REFILL:  # the line used the market or the display
            scorings, over = self.refill()  # both are refilled (a thief empties a place)
            for s in scorings:
                self.scoring(s)
            if over:
                return True
        return False

    # ---------------------------------------------------------------------------- scoring

    def scoring(self, round_no: int) -> None:
        state = self.state
        events = [e for m in state.ext.modules for e in m.sim_before_scoring(self.sim, round_no)]
        if events:  # e.g. the attack card revealed with the scoring
            self._chance(events)
        before = len(state.found)
        here = self._pos()
        probe = Scoring(round_no, (), here)
        self.accepted = None
        apply_item(state, probe)
        self._ensure_clean(before, probe)
        result = state.scoring_results[-1]
        claims = []
        for row in result.rows:
            if row.is_dirk:
                claims.append(Claim(None, row.points, None, ()))
            else:
                claims.append(Claim(PlayerRef(row.name), None, row.total, ()))
        self.body.append(Scoring(round_no, tuple(claims), here))
        if state.dirk is not None and round_no in (1, 2):
            want = DIRK_FIRST
            if round_no == 2:
                second = self.profile.dirk_second_draw
                thirds = self.profile.dirk_second_thirds
                want = len(self.bag) // 3 * thirds if second is None else second
            want = min(want, len(self.bag))
            tiles = [self.bag.pop() for _ in range(want)]
            self._chance([DirkDraw(tuple(_bag_ref(t) for t in tiles))])

    # ------------------------------------------------------------------------------- end

    def distribute(self) -> None:
        state = self.state
        events = [e for m in state.ext.modules for e in m.sim_before_distribution(self.sim)]
        if events:  # e.g. building sites revealed "Bevor die restlichen Gebäudeplättchen ..."
            self._chance(events)
        awards: list[Award] = []
        for f, slot in enumerate(state.market):
            if not isinstance(slot, TileKind) and not is_tower_piece(slot):
                continue
            cur = Currency.of_field(f + 1)
            own = next(
                (
                    a
                    for m in state.ext.modules
                    if (a := m.sim_distribution(self.sim, f)) is not None
                ),
                None,
            )
            if own is not None:  # a module decides this field (e.g. a tile hidden under it)
                awards.extend(own)
                continue
            # what counts as money is the engine's decision (modules add coins ...)
            sums = [
                int(self.ctx.decide(Decision.DISTRIBUTION_MONEY, player=p, currency=cur) or 0)
                for p in state.players
            ]
            best = max(sums)
            who = [i for i, s in enumerate(sums) if s == best]
            if best == 0 or len(who) != 1:
                awards.append(Award(cur, piece_ref(slot), None, None, False))
                continue
            p = state.players[who[0]]
            # a piece that may be turned: every orientation's cells (E6)
            options = {
                at: turned
                for turned in placements(slot)
                for at in cells_for(self.ctx, p, turned, "distribute")
            }
            at = self.policy.choose_cell(sorted(options, key=lambda c: (c.x, c.y)), p.alhambra)
            piece: Any = options[at] if at is not None else slot
            awards.append(Award(cur, piece_ref(piece), PlayerRef(p.name), at, at is None))
            if at is not None:
                p.alhambra.place(at, piece)  # later awards see the tile (undone below)
        # the engine builds the tiles itself: undo the trial placements first
        for aw in awards:
            if aw.at is not None and aw.player is not None:
                owner = state.player_named(aw.player.name)
                assert owner is not None
                owner.alhambra.remove(aw.at)
        if awards:
            self._apply(Distribution(tuple(awards), self._pos()))

    # ------------------------------------------------------------------------------ game

    def play(self) -> Game:
        """The whole game as a record. The fast way first (no trial copies, :attr:`trials`);
        when the engine refuses a line there (or anything fails), the game is played again
        from its start with trials, as it always was: the same seed makes the same choices up
        to that line, so the record is the one the trials write (every line of a game the fast
        way finishes is one the engine accepted, applied to the same state a trial would have
        copied and taken over)."""
        if self.trials:
            return self._play()
        try:
            return self._play()
        except Exception as exc:
            if len(_REPLAYS) < _REPLAYS_KEPT:
                refused = isinstance(exc, _Replay) or (
                    isinstance(exc, SimulationError) and str(exc).startswith(_REJECTS)
                )
                reason = "refused" if refused else type(exc).__name__
                _REPLAYS.append(FastWayReplay(self.event, self.seed, reason, str(exc)[:500]))
            again = _Game(self.settings, self.seed, self.event, trials=True)
            try:
                return again._play()
            finally:
                self.__dict__.update(again.__dict__)  # the harness reads refused, state, body

    def _play(self) -> Game:
        self.setup()
        over = False
        while not over:
            if self.state.turn_no >= MAX_TURNS:
                raise SimulationError("the game does not end")
            self.turn()
            due = list(self.state.scoring_pending)  # a scoring card drawn in the turn (Bettler)
            scorings, over = self.refill()
            scorings = [*due, *scorings]
            if scorings:
                self.interrupts()  # e.g. bonus cards revealed just before the scoring
            for s in scorings:
                self.scoring(s)
            if not over:
                over = self.between_turns()
            if not over:
                over = self.interrupts()
        self.distribute()
        self.interrupts()
        self.scoring(3)
        if not self.state.game_over:
            raise SimulationError("the engine does not see the game end")
        result = ", ".join(f"{p.name} {p.score}" for p in self.state.players)
        headers = [*self.headers, Header("Result", result)]
        return Game(tuple(headers), tuple(self.body))


def simulate_game(
    players: int,
    seed: int,
    profile: RuleProfile | None = None,
    event: str | None = None,
    modules: Sequence[str] = (),
) -> Game:
    """One complete legal game as a record (positions are not set; format it to get text)."""
    settings = SimSettings(players, profile or DEFAULT_PROFILE, tuple(modules))
    return _Game(settings, seed, event or f"simulated game, seed {seed}").play()


def simulate_text(
    players: int,
    seed: int,
    profile: RuleProfile | None = None,
    event: str | None = None,
    modules: Sequence[str] = (),
) -> str:
    """One complete legal game as canonical record text."""
    return format_game(simulate_game(players, seed, profile, event, modules))


def simulate_many(
    players: int,
    seed: int,
    games: int,
    profile: RuleProfile | None = None,
    modules: Sequence[str] = (),
) -> Iterator[str]:
    """``games`` records of a run with ``seed``: game ``i`` uses :func:`game_seed` (seed, i)."""
    for i in range(games):
        s = game_seed(seed, i)
        yield simulate_text(players, s, profile, f"simulated game {i + 1} of run {seed}", modules)
