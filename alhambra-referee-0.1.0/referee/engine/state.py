"""The game state that a record's events are applied to.

Money cards and tiles are multisets (:class:`collections.Counter`): copies of a card are
indistinguishable. Unknown components (``?`` in a record) are tracked by count:

* ``pool`` holds every money card whose whereabouts are unknown: still in the deck, or an
  unknown card in a hand, the display or the discard pile. A card revealed face up is taken out
  of it; a revealed card the pool no longer holds appears more often than it exists.
* the deck is ``deck_known`` (cards known to be in it, e.g. after a reshuffle of a known discard
  pile) plus ``deck_unknown`` cards from the pool.
* ``bag`` is every tile not yet seen; ``bag_count`` the tiles still in the bag (module tiles
  in the tower included); ``tower`` the module tiles not yet seen (``module:identity`` ->
  count, :mod:`referee.engine.tower`).

``None`` stands for an unknown card or tile wherever a list holds components (display, market,
reserves, Dirk's tiles); an empty market field is :data:`EMPTY`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.catalogue import MoneyCard, TileKind
from referee.engine.extensions import NOT_COUNTED, NOT_COUNTED_WHY, Extensions
from referee.engine.rules import BASE, Unverifiable, Violation, cited_section, rule
from referee.engine.ruleset import Ruleset
from referee.engine.turns import Phase
from referee.geometry import Alhambra
from referee.geometry.grid import TICKS
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import NOWHERE, PlayerRef, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeAlias


class _Empty:
    """An empty market field."""

    _inst: ClassVar[_Empty | None] = None

    def __new__(cls) -> _Empty:
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "EMPTY"

    def __copy__(self) -> _Empty:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Empty:
        return self


EMPTY = _Empty()


def decrement(counter: Counter[Any], key: object) -> None:
    """One copy of ``key`` less in a multiset (the key disappears at zero)."""
    n = counter.get(key, 0) - 1
    if n > 0:
        counter[key] = n
    elif n == 0:  # dict's own deletion: Counter's is a Python-level call (a hot path)
        dict.__delitem__(counter, key)


def counter_copy(counter: Counter[Any]) -> Counter[Any]:
    """A copy of a multiset: ``counter.copy()`` (the same entries in the same order, zero
    counts too) without ``Counter.__init__`` and ``update`` (Python-level calls; the state's
    copies make several at every trial of the simulator)."""
    new: Counter[Any] = Counter.__new__(Counter)
    dict.update(new, counter)
    return new


# None: an unknown tile lies there; Any: a module's own piece drawn from the tower (a bazaar, a
# plot, a camp, ...). Compiled (mypyc), a slot's annotated type is checked at run time, so the
# union must admit every piece the modules lay on the market.
MarketSlot: TypeAlias = "TileKind | None | _Empty | Any"  # noqa: RUF036
# A building held by a player (reserve, bought and not yet placed, refused, Dirk's): a
# catalogue tile, None (not named) or a module's own piece; compiled, checked at run time.
HeldPiece: TypeAlias = "TileKind | None | Any"  # noqa: RUF036


@dataclass(slots=True)
class PlayerState:
    """One player's table: hand, Alhambra, reserve and score."""

    name: str
    index: int
    hand: Counter[MoneyCard] = field(default_factory=Counter)
    hand_unknown: int = 0
    alhambra: Alhambra = field(default_factory=Alhambra)
    alhambra_unknown: int = 0  # unknown tiles built (their cells are not in the grid)
    reserve: list[HeldPiece] = field(default_factory=list)
    score: int = 0
    dealt: list[MoneyCard | None] = field(default_factory=list)
    dealt_pos: Pos = NOWHERE
    # a position's fallback ``counts P=2 ... wall=7``: building counts instead of a layout
    counts: dict[Any, int] | None = None
    wall_claim: int | None = None
    # a position that does not state the hand / the score leaves them unknown (not empty / 0)
    hand_known: bool = True
    score_known: bool = True
    # values of module money components dealt as start money (e.g. diamonds): cards too
    dealt_more: list[int] = field(default_factory=list)
    # the name as looked up (casefolded): computed once, not at every lookup (a hot path)
    key: str = field(default="", compare=False, repr=False)
    # the reserve's change notice: a number no other change has (``geometry.grid.TICKS``),
    # taken by each change of the reserve (the ``reserve_*`` methods below, the one way to
    # change it); with ``alhambra.version`` it tells a module whose holdings changed since it
    # last looked (docs/modules/extension-points.md, "Whose holdings changed"); copied with
    # the player; not compared, not shown
    reserve_version: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.key = self.name.casefold()

    # the reserve's changes (each takes a new notice number: ``reserve_version``); nothing else
    # changes ``reserve`` in place or replaces it (tests/test_holdings_notice.py holds every site
    # to it)

    def reserve_add(self, piece: HeldPiece) -> None:
        """Put ``piece`` into the reserve (at its end)."""
        self.reserve.append(piece)
        self.reserve_version = TICKS.n = TICKS.n + 1

    def reserve_extend(self, pieces: list[HeldPiece]) -> None:
        """Put ``pieces`` into the reserve (at its end, in their order)."""
        if pieces:
            self.reserve.extend(pieces)
            self.reserve_version = TICKS.n = TICKS.n + 1

    def reserve_pop(self, index: int) -> HeldPiece:
        """Take the piece at ``index`` out of the reserve."""
        piece = self.reserve.pop(index)
        self.reserve_version = TICKS.n = TICKS.n + 1
        return piece

    def reserve_remove(self, piece: HeldPiece) -> None:
        """Take the first piece equal to ``piece`` out of the reserve (ValueError: none)."""
        self.reserve.remove(piece)
        self.reserve_version = TICKS.n = TICKS.n + 1

    def reserve_set(self, index: int, piece: HeldPiece) -> None:
        """Put ``piece`` in the reserve's place ``index`` instead of the piece there."""
        self.reserve[index] = piece
        self.reserve_version = TICKS.n = TICKS.n + 1

    def reserve_replace(self, pieces: list[HeldPiece]) -> None:
        """The reserve is ``pieces`` from now on (a new list: a position's statement)."""
        self.reserve = pieces
        self.reserve_version = TICKS.n = TICKS.n + 1

    def copy(self) -> PlayerState:
        return PlayerState(
            self.name,
            self.index,
            counter_copy(self.hand),
            self.hand_unknown,
            self.alhambra.copy(),
            self.alhambra_unknown,
            list(self.reserve),
            self.score,
            list(self.dealt),
            self.dealt_pos,
            None if self.counts is None else dict(self.counts),
            self.wall_claim,
            self.hand_known,
            self.score_known,
            list(self.dealt_more),
            reserve_version=self.reserve_version,
        )

    @property
    def hand_size(self) -> int:
        return self.hand.total() + self.hand_unknown


@dataclass(slots=True)
class TurnState:
    """What the current turn has done so far."""

    number: int
    player: int
    main_actions: int = 0  # take / buy / redesign / module actions done
    over: bool = False  # no further main action allowed
    over_after: Any = None  # what ended it: a message value (``ACTION/...`` phrase)
    unsure: bool = False  # an unknown payment: whether the turn went on cannot be told
    placing: bool = False  # a placement (place/reserve/give) has been made
    pending: list[HeldPiece] = field(default_factory=list)  # bought, not yet placed
    pos: Pos = NOWHERE
    interrupt: str | None = None  # out-of-turn play: the module whose line this is (else None)
    # redesigns granted on top of the turn's actions (e.g. a master-builder card at the end of
    # the turn): each may follow even when no main action may (turns.grant_redesign)
    extra_redesigns: int = 0
    # bought tiles whose purchase was refused: placed if the record places them, but a missing
    # placement is not a second finding (one mistake, one finding)
    refused: list[HeldPiece] = field(default_factory=list)
    # what the turn's takes took, as written (money cards and module money): a module that
    # reacts to the value of money taken reads it (Bediensteten: "Geld im Wert von weniger als 6")
    taken: list[object] = field(default_factory=list)
    # a module's rule code when the turn's only main action left is taking money (Die Arbeiter:
    # "Würfelt er, darf er ausschließlich die Aktion: Geld nehmen ausführen"); any other main
    # action is reported under that code (turns.main_action_findings), the generator offers takes
    take_only: str | None = None

    def copy(self) -> TurnState:
        return TurnState(
            self.number,
            self.player,
            self.main_actions,
            self.over,
            self.over_after,
            self.unsure,
            self.placing,
            list(self.pending),
            self.pos,
            self.interrupt,
            self.extra_redesigns,
            list(self.refused),
            list(self.taken),
            self.take_only,
        )


@dataclass(slots=True)
class GameState:
    """Everything on the table, plus where the record stands (whose turn, what is due)."""

    players: list[PlayerState]
    profile: RuleProfile = DEFAULT_PROFILE
    ext: Extensions = field(default_factory=Extensions)
    source: str = "<text>"
    copies: int = 3
    # money
    pool: Counter[MoneyCard] = field(default_factory=Counter)
    deck_known: Counter[MoneyCard] = field(default_factory=Counter)
    deck_unknown: int = 0
    discard: Counter[MoneyCard] = field(default_factory=Counter)
    discard_unknown: int = 0
    display: list[MoneyCard | None] = field(default_factory=list)
    # tiles
    bag: Counter[TileKind] = field(default_factory=Counter)
    bag_count: int = 0
    tower: Counter[str] = field(default_factory=Counter)  # module tiles not yet seen
    market: list[MarketSlot] = field(default_factory=lambda: [EMPTY, EMPTY, EMPTY, EMPTY])
    dirk: list[HeldPiece] | None = None
    # where the game stands
    phase: Phase = Phase.SETUP  # setup | turn | refill | between | over (turns.Phase)
    turn_no: int = 0
    next_player: int | None = None
    turn: TurnState | None = None
    youngest: str | None = None
    start_claim: tuple[str, bool, Pos] | None = None
    deals_done: int = 0
    setup_after: int = 0  # money cards in the deck when play began (for the pile check)
    money_draws: int = 0  # money cards revealed from the deck since play began
    reshuffles: int = 0
    # cards a module put back on top of the deck, outermost first (referee.engine.deck.DeckTop)
    deck_top: tuple[Any, ...] = ()
    # a refill the record did not write (reported once): the cards it turned up, unknown until
    # a late refill line names them, and the market fields reported as not refilled
    # (referee.engine.core._unwritten_refill, _newly_unrefilled)
    unwritten_cards: int = 0
    unrefilled: list[int] = field(default_factory=list)
    # the market fields (0-3) drawn in the refill now open, with the piece drawn, kept only when
    # a module in play hears the market's draws (Module.market_draw: Sultan's claims of a tile
    # just drawn); None again when a line closes the refill (a block's ``refill`` line: ()
    # with nothing drawn yet, the refill open). A position block states it (``refill``).
    refill_drawn: tuple[tuple[int, Any], ...] | None = None
    # after a position: how many cards are in the deck / tiles in the bag is not known
    deck_uncertain: bool = False
    bag_uncertain: bool = False
    maybe_over: bool = False
    scoring_seen: dict[int, int] = field(default_factory=dict)  # card -> money draws before
    scoring_flagged: set[int] = field(default_factory=set)
    scoring_pending: list[int] = field(default_factory=list)
    scorings_done: list[int] = field(default_factory=list)
    dirk_due: int | None = None  # which Dirk draw is due: 0 setup, 1/2 after a scoring
    dirk_draws: list[int] = field(default_factory=list)
    game_over: bool = False
    end_reason: Any = None  # why the game ended: a message value (referee.messages.Text)
    distributed: bool = False
    scoring_results: list[Any] = field(default_factory=list)
    modules: dict[str, Any] = field(default_factory=dict)
    # other players acting inside a turn or a refill (referee.engine.stages), innermost last
    stages: list[Any] = field(default_factory=list)
    # standing offers across turns (referee.engine.auction: a bid that stands until it is
    # overbid or its bidder's next turn begins), in the order opened
    standing: list[Any] = field(default_factory=list)
    # uses of abilities (referee.engine.verbs): (seat, ability) -> the stamps of its uses
    abilities: dict[tuple[int, str], tuple[int, ...]] = field(default_factory=dict)
    rules: Any = None  # the game's Ruleset (referee.engine.ruleset); built from profile + modules
    # False: a trusted replay; no check runs and nothing is reported (only the changes happen)
    checking: bool = True
    # the change counter: raised at the start of every action (a turn line's, or one a module
    # runs) and of every module step (``Extensions.at``), so that a module can tell cheaply
    # that nothing ran between two points of the game (Neues Bauland's choice, issue 34); kept
    # only in a game where an enabled module declares that it reads it
    # (``Module.reads_changes``, ``Extensions.counting``), elsewhere ``NOT_COUNTED`` (any use
    # of it raises; an int or that value, hence ``Any`` for the compiled build)
    changes: Any = 0
    # steps waiting for the next raise of ``changes`` (None: none): each runs once, at the raise
    # site, before the counter moves and the action or module step begins (:meth:`before_change`)
    at_next_change: list[Any] | None = None
    # how many refills have closed, counted in a game where a module reads it
    # (``Module.reads_refills_closed``, ``Extensions.refill_counted``; ``core._refill_checks``,
    # before the ``REFILL_DONE`` step): a module's note that lapses when the refill closes is
    # stamped with it and read as gone once it moves, without a step of its own (Das
    # Wechselgeld's claim for change, Sultan's draws noted); not compared, not shown
    refills_closed: int = field(default=0, repr=False, compare=False)
    # each player's cell table (a copy of ``alhambra.cells``) at the start of his last turn,
    # by seat, kept in a game where an enabled module reads it (``Module.reads_turn_start``,
    # ``Extensions.turn_start_kept``; ``core._turn`` and ``core.begin_turn``, after a standing
    # offer's turn start and before the modules' step): which tiles were laid in this turn
    # (Die Tore der Stadt); each table is a new dict never changed afterwards, so a copy of
    # the state shares them; not compared, not shown
    turn_start: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)
    # the mover's ``alhambra.version`` when his table above was copied: at his next turn's
    # start the engine copies again only when the version moved (else the kept table holds the
    # same cells: the change notice, docs/modules/extension-points.md); not compared, not shown
    turn_start_version: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    # findings
    found: list[Violation] = field(default_factory=list)
    unverifiable: list[Unverifiable] = field(default_factory=list)
    # the TurnState of the last turn that ended on the engine's one-pass path in a game without
    # modules (engine.core._turn), reset there for the next such turn instead of a new one: by
    # then nothing holds it (``state.turn`` is None; every copy of a state copies its turn)
    spare_turn: TurnState | None = None
    # the engine's context of this state while ``run.run_game`` runs it (``context.kept_context``):
    # one :class:`~referee.engine.context.Context` without a record line, handed to every
    # module call the engine makes without a line (a refinement of ``display.occupied``, a
    # module verb's handler, a moment's step) instead of a new one each time; a context holds
    # nothing but its state and line, so one serves them all. Set when the game's lines start
    # and cleared when they end (the two would hold each other: a cycle only the collector
    # frees); None elsewhere (a new context each time, as before). A copy starts without one;
    # not compared, not shown
    context: Any = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------------ helpers

    @property
    def two_player(self) -> bool:
        return len(self.players) == 2

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def __post_init__(self) -> None:
        if self.rules is None:
            self.rules = Ruleset.of(self.profile, self.ext.modules)
            if not self.ext.counting:  # no enabled module reads the change counter
                self.changes = NOT_COUNTED

    def player_named(self, name: str) -> PlayerState | None:
        low = name.casefold()
        for p in self.players:
            if p.key == low:
                return p
        return None

    def find_player(self, ref: PlayerRef, pos: Pos) -> PlayerState | None:
        """The player a record names; an unknown name is flagged UNKNOWN-PLAYER (then None)."""
        p = self.player_named(ref.name)
        if p is None:
            self.flag("UNKNOWN-PLAYER", ref.pos or pos, ref.name, players=", ".join(self.names))
        return p

    @property
    def deck_size(self) -> int:
        return self.deck_known.total() + self.deck_unknown

    @property
    def discard_size(self) -> int:
        return self.discard.total() + self.discard_unknown

    def copy(self) -> GameState:
        """An independent copy (Counters and lists copied; records and rules shared).

        The copy starts with empty findings lists. Built from the fields by
        :data:`COPY_POLICY` (a field without a policy is an error at import).
        """
        return _COPY(self)

    def wait_for_change(self, step: Callable[[GameState, Any], None]) -> None:
        """Run ``step(state, action)`` once, at the next raise of :attr:`changes` (before it:
        nothing of that action or module step has run yet; ``action`` is the action about to
        run, None for a module step). A step already waiting is not added twice. So a module
        can take what it needs about the state "as it stands now" only when something is about
        to change it (Neues Bauland's views at a plot's purchase, issue 34). Only in a game
        that keeps the counter (a module declaring ``Module.reads_changes``), else a
        TypeError."""
        if not self.ext.counting:
            raise TypeError(NOT_COUNTED_WHY)
        waiting = self.at_next_change
        if waiting is None:
            self.at_next_change = [step]
        elif step not in waiting:
            waiting.append(step)

    def before_change(self, action: Any) -> None:
        """Run the steps waiting for this raise of :attr:`changes` (the raise sites call it
        when :attr:`at_next_change` is set, before raising; a step may wait again)."""
        steps = self.at_next_change
        self.at_next_change = None
        for step in steps or ():
            step(self, action)

    # ----------------------------------------------------------------------- findings

    def flag(
        self,
        code: str,
        pos: Pos,
        player: str | None = None,
        *,
        severity: str = "error",
        reason: str | None = None,
        section: object = None,  # a str; typed wide so that ``**params`` of a finding pass
        **params: object,
    ) -> None:
        """Record a violation of rule ``code`` at ``pos`` (turn number taken from the state);
        ``reason`` picks the rule's reason text (``CODE/reason`` in :mod:`referee.messages`),
        ``params`` are the data its templates show; ``section`` is the rule text this finding
        cites when it is not the rule's own (a module's scoring part). A base section is cited
        in the profile's rulebook."""
        if not self.checking:
            return
        if player is not None and "player" not in params:
            params["player"] = player
        cite: str | None = section if isinstance(section, str) else None
        if cite is not None or self.profile.rulebook != BASE:
            own = rule(code).section
            cited = cited_section(cite or own, self.profile.rulebook)
            cite = None if cited == own else cited
        # during a turn its number; between turns (refill, scoring) the turn just played
        turn = self.turn.number if self.turn is not None else (self.turn_no or None)
        self.found.append(
            Violation(
                code,
                pos.line,
                pos.column,
                turn,
                player,
                params,
                self.source,
                "warning" if severity == "warning" else "error",
                reason,
                cite,
            )
        )

    def note(self, pos: Pos, key: str, player: str | None = None, **params: object) -> None:
        """Record something the record leaves unverifiable (``key``: its catalogue text)."""
        if not self.checking:
            return
        turn = self.turn.number if self.turn is not None else (self.turn_no or None)
        self.unverifiable.append(
            Unverifiable(pos.line, pos.column, key, params, turn, player, self.source)
        )


# ----------------------------------------------------------------------------- copy policy

COPY_POLICY: dict[str, str] = {
    "players": "each",  # a new list of each item's .copy()
    "profile": "share",  # read-only for the game
    "ext": "share",
    "source": "share",
    "copies": "share",
    "pool": "counter",  # a Counter's copy (counter_copy)
    "deck_known": "counter",
    "deck_unknown": "share",
    "discard": "counter",
    "discard_unknown": "share",
    "display": "list",  # a new list of the same items
    "bag": "counter",
    "bag_count": "share",
    "tower": "counter",
    "market": "list",
    "dirk": "list?",  # None or a new list
    "phase": "share",
    "turn_no": "share",
    "next_player": "share",
    "turn": "copy?",  # None or .copy()
    "youngest": "share",
    "start_claim": "share",
    "deals_done": "share",
    "setup_after": "share",
    "money_draws": "share",
    "reshuffles": "share",
    "deck_top": "share",  # a tuple of frozen layers
    "unwritten_cards": "share",
    "unrefilled": "list",
    "refill_drawn": "share",  # a tuple (replaced, never changed in place)
    "deck_uncertain": "share",
    "bag_uncertain": "share",
    "maybe_over": "share",
    "scoring_seen": "dict",
    "scoring_flagged": "set",
    "scoring_pending": "list",
    "scorings_done": "list",
    "dirk_due": "share",
    "dirk_draws": "list",
    "game_over": "share",
    "end_reason": "share",
    "distributed": "share",
    "scoring_results": "list",
    "modules": "values",  # a new dict of each value's .copy() (when it has one)
    "stages": "each",
    "standing": "each",
    "abilities": "dict",
    "rules": "share",
    "checking": "share",
    "changes": "share",  # an int: the copy counts on from the same value
    "at_next_change": "list?",  # its steps take the state they run on as an argument
    "refills_closed": "share",  # an int: the copy counts on from the same value
    "turn_start": "dict",  # a new dict of the same tables (never changed in place)
    "turn_start_version": "dict",  # (with turn_start: a new dict of the same numbers)
    "found": "fresh",  # a copy starts with no findings
    "unverifiable": "fresh",
    "spare_turn": "fresh",  # a copy starts without one (never shared between two states)
    "context": "fresh",  # a copy makes its own (a context names the state it serves)
}
"""How :meth:`GameState.copy` copies each field (every field has one; a test and the import
check it)."""

_EXPR = {
    "share": "s.{f}",
    "copy": "s.{f}.copy()",
    "counter": "counter_copy(s.{f})",
    "list": "list(s.{f})",
    "list?": "None if s.{f} is None else list(s.{f})",
    "copy?": "None if s.{f} is None else s.{f}.copy()",
    "dict": "dict(s.{f})",
    "set": "set(s.{f})",
    "each": "[x.copy() for x in s.{f}]",
    "values": '{{k: (v.copy() if hasattr(v, "copy") else v) for k, v in s.{f}.items()}}',
}


def _make_copy() -> Any:
    """``GameState.copy`` as one generated function of keyword arguments (as fast as one
    written by hand), from the fields and :data:`COPY_POLICY`."""
    from dataclasses import fields

    names = [f.name for f in fields(GameState)]
    missing = [n for n in names if n not in COPY_POLICY]
    unknown = [n for n in COPY_POLICY if n not in names]
    if missing or unknown:
        raise TypeError(f"GameState.copy: no policy for {missing}, no field {unknown}")
    args = ", ".join(
        f"{n}={_EXPR[COPY_POLICY[n]].format(f=n)}" for n in names if COPY_POLICY[n] != "fresh"
    )
    from referee.cli_startup import compiled  # the command line keeps the compiled text

    namespace: dict[str, Any] = {"GameState": GameState, "counter_copy": counter_copy}
    exec(compiled(f"def copy(s):\n    return GameState({args})\n"), namespace)
    return namespace["copy"]


_COPY = _make_copy()
