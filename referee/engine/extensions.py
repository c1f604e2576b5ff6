"""Extension points for expansion modules.

An expansion module is a subclass of :class:`Module` registered under its name with
:func:`register_module` (the name is what the ``Modules`` header lists). The engine never knows
a module: it asks the enabled modules (:class:`Extensions`) at named points. A module plugs in
through four kinds of extension point, each with a do-nothing default:

1. **Rule decisions** (:mod:`referee.engine.ruleset`): a method marked ``@refines(Decision.X)``
   gets the answer so far (base layer: the rule profile) and returns its own: which currencies
   pay (``pay.currencies``), extra payment rules (``pay.problems``), exactness (``pay.exact``),
   the building rules (``place.problems``, ``remove.problems``), the take limit, the display's
   places (``display.occupied``) ... Every consumer (checker, legal moves, explain, simulator)
   asks the same ruleset. Order between modules: ``Module.after``.
2. **Moments of the turn flow** (:class:`~referee.engine.turns.Moment`): ``at_moment(ctx,
   moment)`` attaches a step at setup done, turn start/end, refill done, scoring done, leftovers
   handed out, game end; ``@acts_at`` names the moments it acts at, ``idle_at(state, moment)``
   answers per state that it has nothing to do now (the engine then leaves the step out).
3. **Its own record lines and components**:

   * ``verb_specs`` / ``action``  a player action the base game does not know
     (``ModuleAction``), each verb declared once as a :class:`~referee.engine.verbs.VerbSpec`
     with its kind (:class:`ActionKind`), so other modules ask the kind, never the spelling
   * ``out_of_turn``             an interrupting line without a turn number; precedence between
     modules and seats through the one :class:`~referee.engine.turns.InterruptArbiter`
     (``interrupt_rank``)
   * ``chance_verbs`` / ``chance``  a chance event the base game does not know
   * ``component_kinds``: ``display_component``, ``take_component``  module cards in the money
     display and taken from it
   * ``money_value``, ``deal_component``  components that are money (a take's sum, start
     money, dealt as start money; the simulator shuffles them in with ``sim_deck_components``)
   * ``on_purchase``             the "spent" stage of the purchase pipeline for its components
   * ``reshuffle``, ``removed``  the discard pile becomes the deck; a piece left an Alhambra
   * ``position_component`` / ``position_line``  its lines in a ``position`` block
   * ``money_components``        components that enter the money deck, and into which piles
   * ``tower_components`` / ``tower_piece``  tiles the module mixes into the tile tower (E5):
     counts per identity; the engine adds them to the tiles in the tower, resolves a
     ``* market Gu:md:5n`` / ``* dirk`` token through ``tower_piece`` and keeps the supply
     (:mod:`referee.engine.tower`); ``sim_tower`` gives the simulator their tokens
   * ``options``                 switches a record sets in the ``Modules`` header
     (``[Modules "medina floor=zero dirk=ranks"]``) where groups could read a rule differently
4. **Scoring, views, legal moves, simulation**:

   * ``scoring_parts``           what a scoring adds: count adjustments, scoring categories
                                 (point lines, penalties, majorities), a replacement table
   * ``view``                    its state for ``show``, JSON/YAML, ``render`` and the replay
   * ``legal_actions`` / ``legal_interrupts``  its moves for the legal-move generator
                                 (:mod:`referee.engine.legal`)
   * ``sim_money_components``, ``sim_deal``, ``sim_setup``, ``sim_reshuffle``, ``sim_refill``,
     ``sim_prefers``: the simulator's chance events and preferences, through a
     :class:`SimContext` (the game, the seeded random generator, the module's hidden part of
     the table)

A module sees the engine through :class:`~referee.engine.context.Context` and the public names
of :mod:`referee.engine` only (a test keeps private engine names inside the engine). Its own
part of the state is ``state.modules[name]`` (copied with the state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum

from referee.engine.ext_reads import ExtReads
from referee.engine.rules import Violation
from referee.engine.ruleset import Decision, refined_decisions
from referee.engine.turns import InterruptArbiter, Moment
from referee.interpreted import interpreted_class

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from referee.catalogue import Currency, MoneyCard
    from referee.engine.context import Context
    from referee.engine.sim_context import SimContext
    from referee.engine.state import GameState, PlayerState
    from referee.engine.verbs import VerbSpec
    from referee.record.model import (
        Action,
        Buy,
        ChanceEvent,
        ComponentRef,
        Coord,
        ModuleAction,
        ModuleChance,
        Pos,
        TakeMoney,
        Turn,
    )
    from referee.scoring.categories import ScoringParts


ENGINE_VERBS = frozenset({"bid", "pass"})
"""Verbs the engine's services own (the auction service); no module may declare them."""


@interpreted_class  # compiled: a Python class, as a native one cannot derive from TypeError
class ModuleDefinitionError(TypeError):
    """A module class breaks the module contract (raised when the class is created): a public
    method whose name is no hook but looks like one (a misspelt hook would never be called),
    or a verb that belongs to the engine."""


_HOOK_PREFIXES = (
    "sim_",
    "legal_",
    "position_",
    "on_",
    "at_",
    "stage_",
    "auction_",
    "display_",
    "take_",
    "market_",
    "tower_",
    "money_",
    "deal_",
    "scoring_",
    "could_",
    "check_",
    "holds_",
    "out_of_",
)


def check_hooks(cls: type) -> None:
    """The hook check (as pluggy checks an implementation against its specs): every public
    method a module class defines is a hook of :class:`Module`, or a helper whose name is far
    from every hook and from the hook prefixes (``sim_``, ``legal_``, ``position_``, ``on_``
    ...), or listed in ``helpers``. A misspelt hook (``legal_interupts``, ``at_moments``) is an
    error when the class is created, not a hook silently never called."""
    import types  # (not inspect: ``isfunction`` is this test; a module game need not import it)

    base = globals().get("Module")
    if base is None:  # Module itself is being created
        return
    hooks = {n for n in dir(base) if not n.startswith("_")}
    allowed = set(getattr(cls, "helpers", ()))
    for klass in cls.__mro__:
        if klass is base:
            break
        allowed |= set(getattr(klass, "helpers", ()))
    for name, value in cls.__dict__.items():
        if name.startswith("_") or name in hooks or name in allowed:
            continue
        if not isinstance(value, types.FunctionType):
            continue
        import difflib

        close = difflib.get_close_matches(name, hooks, n=1, cutoff=0.85)
        if close or name.startswith(_HOOK_PREFIXES):
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ModuleDefinitionError(
                f"module class {cls.__name__}: '{name}' is no hook of Module; {hint}"
                "a helper whose name looks like a hook is listed in `helpers`"
            )


def specs_from_declarations(cls: type) -> tuple[VerbSpec, ...]:
    """The verb specs of a module class: its ``verb_specs`` (its own or inherited), then --
    the *compatibility path* for classes of the older style -- a spec for every verb named
    in ``verbs`` that no spec covers, of the kind ``free_verbs`` / ``verb_kinds`` give it
    (``free_verbs`` first, as the engine read them; default: a main action). The bundled
    modules are moving to ``verb_specs``; a class may mix both while it moves."""
    from referee.engine.verbs import VerbSpec

    specs = list(getattr(cls, "verb_specs", ()))
    covered = {v.lower() for spec in specs for v in (spec.verb, *spec.aliases)}
    kinds = {k.lower(): v for k, v in getattr(cls, "verb_kinds", {}).items()}
    free = {v.lower() for v in getattr(cls, "free_verbs", ())}
    for verb in getattr(cls, "verbs", ()):
        low = verb.lower()
        if low in covered:
            continue
        covered.add(low)
        kind = ActionKind.FREE if low in free else ActionKind(kinds.get(low, ActionKind.MAIN))
        specs.append(VerbSpec(low, kind=kind))
    return tuple(specs)


class ActionKind(StrEnum):
    """What a module verb does, declared by its module (``VerbSpec.kind``); other modules
    ask the kind (``Extensions.verb_kind``), never the verb's spelling."""

    MAIN = "main"  # a main action of a turn (the default)
    FREE = "free"  # no action: allowed at any time, also inside another module's line
    ACQUIRE = "acquire"  # takes a piece without buying it (e.g. a square)
    INTERRUPT = "interrupt"  # opens out-of-turn play (e.g. the vizier)


ActionHandler = Callable[["GameState", "PlayerState", "ModuleAction"], list[Violation]]
ComponentAnswers = tuple[tuple["Module", ...], ...]
"""What :meth:`Extensions.component_purchases` keeps per game (six tuples of modules)."""


@interpreted_class  # compiled: a Python class, as every module class derives from it
class Module:
    """Base class of an expansion module. Override only the hooks the module needs."""

    name: ClassVar[str] = ""
    """The module's name as written in the ``Modules`` header (lower case)."""

    verb_specs: ClassVar[tuple[VerbSpec, ...]] = ()
    """The module's verbs, each declared once (:class:`~referee.engine.verbs.VerbSpec`: kind,
    aliases, argument shape, an ability's window and limit). This is the one declaration the
    engine reads (:class:`Extensions`: who handles a verb, its kind, its checks). The engine
    checks shape, window and limit before :meth:`action` runs (only while checking) and keeps
    the counts of uses."""

    verbs: ClassVar[tuple[str, ...]] = ()
    """Derived from :attr:`verb_specs` (every verb and alias, lower case), for readers such as
    ``modules NAME``. *Compatibility*: a class that still declares ``verbs`` (with
    ``verb_kinds`` / ``free_verbs``) instead of ``verb_specs`` has them converted into specs
    when the class is created (:func:`specs_from_declarations`)."""

    verb_kinds: ClassVar[dict[str, str]] = {}
    """Derived from :attr:`verb_specs`: the :class:`ActionKind` of each verb that is not a
    plain main action. *Compatibility*: declared by a class of the older style, converted."""

    free_verbs: ClassVar[tuple[str, ...]] = ()
    """*Compatibility* only (older style): verbs of kind ``free``; converted into specs."""

    helpers: ClassVar[tuple[str, ...]] = ()
    """Public methods of the module that are no hooks although their names look like one
    (the hook check at class creation would refuse them otherwise)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_hooks(cls)
        specs = specs_from_declarations(cls)
        cls.verb_specs = specs
        every = [v.lower() for spec in specs for v in (spec.verb, *spec.aliases)]
        cls.verbs = tuple(dict.fromkeys((*(v.lower() for v in cls.verbs), *every)))
        cls.verb_kinds = {
            v.lower(): str(spec.kind)
            for spec in specs
            if spec.kind != ActionKind.MAIN
            for v in (spec.verb, *spec.aliases)
        }
        reserved = [v for v in every if v in ENGINE_VERBS]
        if reserved:
            raise ModuleDefinitionError(
                f"module class {cls.__name__}: the verbs {', '.join(reserved)} belong to the "
                "engine's auction service (open an auction with referee.engine.auction)"
            )
        cls._settle_plain_purchase_promise()

    def holds_ability(self, ctx: Context, player: PlayerState, ability: str) -> bool:
        """Whether ``player`` holds the ability ``ability`` (a declared verb with a window or
        limit; e.g. a character card owned). Default: yes."""
        return True

    def check_verb(self, ctx: Context, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The pure check of one of the module's verbs (findings, no change), run before
        :meth:`action` and only while checking: a trusted replay skips it. Default: none."""
        return []

    view_terms_de: ClassVar[dict[str, str]] = {}
    """German for the words of this module's :meth:`view` (its keys, and phrases inside its
    values): ``{"vizier": "Wesir", "awake": "wach"}``. Words many modules share ("in the
    reserve", "after turn" ...) are in :data:`VIEW_TERMS_DE`. ``show``, ``render`` and the replay
    page show a German view through them (:func:`localize_view`); JSON keeps the English keys."""

    piece_words: ClassVar[dict[str, tuple[str, str]]] = {}
    """The names of the module's piece kinds (English, German), as its rulebook section calls
    them: ``{"md": ("medina", "Medina")}``. The dispute tools and the replay write a piece
    ``md:5n`` as "medina 5" / "Medina 5" (:mod:`referee.reports.pieces`); a kind the module
    leaves out falls back to that module's table there."""

    verb_words: ClassVar[dict[str, tuple[str, str]]] = {}
    """What each of the module's verbs does, in words (English, German):
    ``{"vizier": ("uses the vizier", "setzt den Wesir ein")}``; a verb left out falls back to
    the table in :mod:`referee.reports.pieces`."""

    chance_verbs: ClassVar[tuple[str, ...]] = ()
    """Chance-line verbs the module owns (``ModuleChance.verb``, lower case)."""

    component_kinds: ClassVar[tuple[str, ...]] = ()
    """Component token kinds the module interprets (``ComponentRef.kind``, e.g. ``ex``)."""

    after: ClassVar[tuple[str, ...]] = ()
    """Modules whose rule refinements (``@refines``) must run before this module's."""

    interrupt_rank: ClassVar[int] = 0
    """The one precedence setting of out-of-turn play: among modules, lower acts first (and
    reads an out-of-turn line first); within a module, seats from the player who would move
    next (``turns.InterruptArbiter``)."""

    def could_claim(self, ctx: Context, player: PlayerState, want: object) -> bool:
        """Whether ``player`` could really act out of turn with this module now, wanting
        ``want`` (what the acting line takes: a money card, a tile; None: anything). The
        arbiter counts a contender named on another player's line only when this says yes
        ("precedence belongs to players who could make the claim": a thief of that currency
        held, an awake vizier and a tile paid exactly ...). Default: yes."""
        return True

    # ------------------------------------------------------------ stages

    def stage_line(self, ctx: Context, stage: Any, player: PlayerState, line: Turn) -> None:
        """A line of ``player`` in a stage this module opened (:mod:`referee.engine.stages`;
        the engine has checked who may act and in which order): check and apply it."""

    def stage_closed(self, ctx: Context, stage: Any) -> None:
        """A stage this module opened is over (``stage.abandoned``: another line came before
        every player had acted)."""

    def legal_stage_lines(self, ctx: Context, stage: Any, player: PlayerState) -> list[Turn]:
        """The lines ``player`` may write now in a stage this module opened. Default: none."""
        return []

    def auction_closed(self, ctx: Context, auction: Any) -> None:
        """An auction this module opened (:func:`referee.engine.auction.open_auction`) is
        over: ``auction.winner`` (a seat index, None: no bid) paid ``auction.price``; the
        module hands over the item (or puts it out of the game)."""

    options: ClassVar[dict[str, tuple[str, tuple[str, ...], str, str]]] = {}
    """Switches a group may set where readings of the rules differ, written after the module's
    name in the ``Modules`` header (``[Modules "wuensche task5=types"]``): option name ->
    (default, allowed values, what it means in English, in German). Read with :meth:`option`."""

    def __init__(self) -> None:
        self.settings: dict[str, str] = {}
        """The options set for this game (``Extensions`` sets them; a missing one: default)."""

    def option(self, name: str) -> str:
        """The value of one of this module's :attr:`options` in this game."""
        return self.settings.get(name, self.options[name][0])

    def tower_components(self) -> dict[str, int]:
        """Tiles this module mixes into the tile tower / bag, as identity -> count (e.g.
        ``{"5": 1}`` for a medina priced 5). The engine adds them to the tiles in the tower
        (so the game end and Dirk's third count them) and keeps their supply: each draw or
        position names one through :meth:`tower_piece`; more than the count is ``TILE-SUPPLY``.
        """
        return {}

    def tower_replaces(self) -> dict[str, int]:
        """Base tiles this module's tower tiles replace, as tile code -> count (e.g. ``{"T9ne":
        1}``: "Die aussortierten Basis-Plättchen kommen zurück in die Schachtel"). The engine
        takes them out of the base tiles in the tower at the setup, before
        :meth:`tower_components` are added, so the tower's total and the supply of each base
        tile count right. Default: none."""
        return {}

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        """The tower tile a component token of this module names, as it comes out of the tower
        (``* market Gu:md:5n``, ``* dirk``, a position's market): (identity, the piece). The
        module checks what the token states against earlier statements (faces only a picture
        showed) and reports problems itself. None: the token names none of its tower tiles
        (the module has reported it)."""
        return None

    def sim_tower(self, sim: SimContext) -> list[ComponentRef]:
        """The simulator's tokens of this module's tower tiles (faces as written on a market
        line), shuffled with the base tiles at setup. Default: none."""
        return []

    def market_draw(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        """E14 (``referee/engine/market_side.py``): ``piece`` was drawn for market field
        ``field`` (0-3). Return the module's rule code to set it aside (the module then keeps
        it, e.g. beside the market, and the refill goes on for that field), None to let it lie
        on the field. Called for every piece drawn for the market, base tiles included
        (narrowed by :attr:`draw_types` for the draws in play)."""
        return None

    draw_types: ClassVar[tuple[type, ...] | None] = None
    """The exact types of the pieces drawn for the market that :meth:`market_draw` may do
    anything about (set aside, note, count), e.g. ``(Bazaar,)``; None (the default): every
    piece. A promise: for a piece of any other type the module's ``market_draw`` changes
    nothing and answers None. Then the engine leaves the call out for such a piece where the
    draws are in play (``core._market``: :attr:`Extensions.draw_types`); a position's
    ``refill`` statement and ``* aside`` lines tell every hearer as before
    (``market_side.intercept``). Where several modules hear the draws, :class:`DrawHearers`
    tells each drawn piece's type only the hearers concerned (worked out per type once a game).
    Checked by ``tests/test_speed26_silentd.py`` and ``tests/test_speed26_first22.py`` for the
    bundled modules that make it."""

    def side_offers(self, state: GameState) -> list[Any]:
        """E15: the module's pieces beside the market that may be bought now, as
        :class:`~referee.engine.market_side.SideOffer` (currency, derived price, exact only).
        Default: none."""
        return []

    def take_side_offer(self, state: GameState, piece: object) -> None:
        """E15: ``piece`` (one of :meth:`side_offers`) was bought: take it out of the offers."""

    def sim_market_draw(self, sim: SimContext, field: int, ref: ComponentRef) -> bool:
        """E14 in the simulator: whether the tower token ``ref`` drawn for field ``field`` is
        written ``* aside`` (set aside) instead of on the field. Default: no."""
        return False

    def market_refill_from(
        self, state: GameState, field: int, ref: object, pos: Pos
    ) -> tuple[object] | None:
        """A refill of market field ``field`` (0-3) that turns up a piece the module keeps
        instead of drawing one from the tower (a tile hidden under the field, Die Gebäude der
        Baukunst: "wird beim Auffüllen des Bauhofes dieses Plättchen umgedreht, statt eines zu
        ziehen"). ``ref`` is the tile the refill line names; the module checks it against its
        piece (None: no line names it, an edition's own refill asks, e.g. the guards edition
        before its preview board slides). Return ``(piece,)`` to lay ``piece`` on the field
        (nothing is drawn from the tower), None to draw as usual. Default: None."""
        return None

    def sim_market_refill(self, sim: SimContext, field: int) -> object | None:
        """:meth:`market_refill_from` in the simulator: the token (a ``TileKind`` or a
        ``ComponentRef``) written for field ``field`` instead of the bag's next tile, or None.
        Default: None."""
        return None

    def distribution_pick(
        self, state: GameState, field: int, award: Any, pos: Pos
    ) -> tuple[object, PlayerState | None, bool, str] | None:
        """The leftover distribution's award ``award`` (a ``distribute`` entry) for market field
        ``field`` (0-3), when the module decides that field (e.g. two tiles on it, one of them
        hidden there by Die Gebäude der Baukunst): ``(piece given, the player who should get
        it or None, whether that is known, the money shown)``; the engine then checks the named
        player against it and builds or reserves the piece as for a base award. None: the base
        rule (the field's tile, the most money). Default: None."""
        return None

    def sim_distribution(self, sim: SimContext, field: int) -> list[Any] | None:
        """:meth:`distribution_pick` in the simulator: the ``Award`` entries written for market
        field ``field`` (None: the simulator's base award). Default: None."""
        return None

    interrupt_not_next: ClassVar[bool] = False
    """True: the player who would move next may not interrupt with this module (the thieves:
    "Der Spieler am Zug darf keinen Dieb spielen"); the arbiter answers ``may_interrupt``."""

    interrupt_in_refill: ClassVar[bool] = False
    """True: this module's out-of-turn play belongs to the market refill (a drawn tile claimed
    before the refill is closed, e.g. "Die Macht des Sultans"), not to the window after a
    complete turn: the arbiter leaves it out of ``possible_claims`` once the refill is closed
    (e.g. when a thief line names a contender). Default: False."""

    tower_pieces_previewed: ClassVar[bool] = False
    """True: the module's pieces in the tower are buildings bought from the market like base
    tiles (Die Gebäude der Macht), so an edition's preview board, filled from the tower, may
    hold them and ``simulate`` plays the module with that edition. Default: False (``simulate``
    refuses a module with tower pieces together with such an edition)."""

    display_places: ClassVar[tuple[str, str] | None] = None
    """``(method, attribute)``: a promise about the module's refinement of ``display.occupied``
    named ``method``: it answers the places taken so far plus its own pieces lying in the
    display, held by the module's part (``state.modules[name]``) in its ``attribute``: a list
    (one place each) or a Counter (its total), whenever the part exists and that attribute is
    a list or a Counter; else it may do more (make the part, fill the attribute). The engine's
    own question of it (``core.display_occupied``, asked before each card turned up and at each
    refill's close) then reads the attribute instead of calling the method, and calls it where
    the promise does not say (``Ruleset.occupied_reads``). Default: None (the method is
    called)."""

    def display_place(self, ref: ComponentRef) -> bool:
        """Whether the module's card ``ref`` revealed from the money deck takes one of the
        display's places (exchange cards, diamonds: yes; a card laid beside the board, e.g. a
        sultan card, no). The engine's check is the decision ``display.occupied``; this tells
        the simulator how many cards to reveal. Default: True."""
        return True

    def money_components(self, state: GameState) -> dict[int, list[object]]:
        """Components that enter the money deck, keyed by the pile (1-5) they are shuffled into.

        The engine uses it to know which non-money cards may turn up in the display and when.
        """
        return {}

    def money_currency(self, state: GameState, ref: ComponentRef) -> Any:
        """The currency (a :class:`~referee.catalogue.Currency`) of one of this module's
        components that is a money card of a currency (a master-builder card is "eine normale
        Geldkarte mit dem Wert 3" of its currency: a thief of that currency may take it);
        None: the component has no currency. Default: None."""
        return None

    def money_value(self, state: GameState, ref: ComponentRef) -> int | None:
        """The face value of a component of this module that is *money* (a card got "wie
        andere Geldkarten auch", e.g. a diamond): it counts in the sum of a take of several
        cards and in the start money. None: the component is no money (the default)."""
        return None

    def deal_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, pos: Pos
    ) -> list[Violation] | None:
        """A money component of this module dealt as start money (``* deal Anna Gu3 dm:7``):
        move it from the deck to the player. Called only when :meth:`money_value` gives a
        value; the engine counts that value towards the start money and the card for the
        start player ("die wenigsten Karten"). None: not handled."""
        return None

    def chance(self, state: GameState, event: ModuleChance) -> list[Violation]:
        """A chance event of this module (``chance_verbs``): apply it and check it."""
        return []

    def action(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Violation]:
        """A player action of this module (``verbs``), during ``player``'s turn.

        ``state.turn`` says what the turn has done; set ``state.turn.actions_left`` /
        ``state.turn.over`` when the action uses up the turn.
        """
        return []

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Violation] | None:
        """An interrupting line (a Turn without a number) by ``turn.player``.

        Return None when this module does not claim the line (the engine then reports it),
        else the violations found while applying it.
        """
        return None

    out_of_turn_verbs: ClassVar[frozenset[str] | None] = None
    """The verbs (lower case) of the out-of-turn lines :meth:`out_of_turn` may claim, e.g.
    ``frozenset({"vizier", "wesir"})``; None (the default): any line. A promise: for a line
    whose first action is not a :class:`~referee.record.model.ModuleAction` with one of these
    verbs (or that has no action) the module's ``out_of_turn`` changes nothing and answers None.
    Then :meth:`Extensions.out_of_turn` asks such a line only of the modules concerned (those
    without a promise, those whose promise names the first verb; in their rank order, worked
    out per verb once a game). Checked by ``tests/test_speed27_first22b.py`` for the bundled
    modules that make it."""

    def display_component(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> list[Violation] | None:
        """A component of this module revealed into the money display; None: not handled."""
        return None

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Violation] | None:
        """``take`` of a component of this module from the display; None: not handled."""
        return None

    def reshuffle(self, state: GameState, pos: Pos) -> list[Violation]:
        """The discard pile is shuffled into a new deck (the base deck already is)."""
        return []

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """A purchase is carried out (stage "spent" of the purchase pipeline): move this
        module's components named in the payment (``purchase.modules_paid``) where they go.
        No checks here: checks belong in a ``pay.problems`` refinement."""

    purchases_by_components: ClassVar[bool] = False
    """True: the module's purchase refinements (``pay.*``, ``turn.extra_action``) and its
    :meth:`on_purchase` act only on a purchase that names one of its components (paid with or
    bought) or its piece beside the market; a *plain purchase* (a catalogue tile from a market
    field, paid with known money cards of the hand) they leave as the base game has it. A
    class keeping the default :meth:`leaves_plain_purchase` has its
    :attr:`leaves_plain_purchases` from it. A promise, checked by
    ``tests/test_module_dispatch.py`` (the same reports as with the purchase pipeline)."""

    hears_component_purchases: ClassVar[bool] = False
    """True: the module's purchase refinements act only on a purchase naming its components
    (as :attr:`purchases_by_components` promises), and its :meth:`on_purchase`, for a
    purchase otherwise plain that names another module's components, does what its
    :meth:`after_plain_purchase` does given the whole sum (``total``), the price and
    exactness as the pipeline decides them, and the tile as its :meth:`on_purchase` finds it
    (the piece another module put in its stead before, e.g. a building site). Then such a
    purchase may take the one-pass path (:meth:`plain_components`) beside this module. A
    promise, checked by ``tests/test_purchase_hearers_onepass.py``. The same holds for a
    purchase of another module's piece from a market field (:attr:`plain_market_pieces`): the
    tile it hears of is that piece."""

    plain_market_pieces: ClassVar[bool] = False
    """True: a piece of this module lying on a market field is bought as a catalogue tile is
    (paid with money cards, at the piece's ``price``): the module's purchase refinements leave
    such a purchase alone, its :meth:`on_purchase` leaves it alone or does for it only what its
    :meth:`after_plain_purchase` does (then it sets :attr:`hears_component_purchases` too: e.g.
    Neues Bauland, a plot waiting for its building), and the piece waits to be placed as a
    tile does. Then, when every other module taking part in purchases promises to leave it
    alone (:attr:`purchases_by_components`) or hears of it (:attr:`hears_component_purchases`),
    the engine buys it in one pass (``purchase.purchase_plain``). A promise, checked by
    ``tests/test_purchase_pieces_onepass.py``."""

    plain_side_offers: ClassVar[bool] = False
    """True: a piece of this module's offers beside the market (E15, :meth:`side_offers`)
    bought in a turn's main action with known money cards of the hand is bought as a
    catalogue tile is: at the offer's ``price``, in its ``currency`` (the base layer's
    ``pay.price``, ``pay.currencies``, ``pay.exact`` and ``turn.extra_action``, and only an
    exact payment when the offer is ``exact_only``); the module's purchase refinements and its
    :meth:`on_purchase` leave such a purchase alone; :meth:`take_side_offer` is all it does
    with it; no other module's offer is named by a token of its kinds. Then, when every other
    module taking part in purchases promises to leave it alone
    (:attr:`purchases_by_components`) or hears of it (:attr:`hears_component_purchases`: its
    :meth:`after_plain_purchase`, with ``slot`` None, does what its :meth:`on_purchase`
    does for it), the engine buys it in one pass (``purchase.purchase_plain``); an offer with
    a ``payee``, an out-of-turn line and anything the pipeline would report go to the
    pipeline (an out-of-turn line takes the one-pass path when the module takes no part in
    purchases at all: nothing of it can tell the two apart). A promise, checked by
    ``tests/test_purchase_offers_onepass.py`` and
    ``tests/test_purchase_offers_vizier_onepass.py``."""

    leaves_plain_purchases: ClassVar[bool] = False
    """The one answer the engine reads first to "does this module leave a *plain purchase*
    (a catalogue tile from a market field, paid with known money cards of the hand) as the
    base game has it?". True: yes, to every plain purchase (the module's refinements pass when
    none of its pieces is named, and its :meth:`after_plain_purchase` does what its
    :meth:`on_purchase` would do); the engine takes that answer without asking
    (``Extensions.purchase_askers``). False: the engine asks :meth:`leaves_plain_purchase`
    before each plain purchase.

    The one rule between the two (:meth:`_settle_plain_purchase_promise`, at class creation):
    an answer that never changes is this attribute; one that depends on the position is the
    method. A class that states neither keeps the default method, which answers this
    attribute, and has it from :attr:`purchases_by_components` (a module acting only on its
    own pieces leaves every plain purchase alone); a class that defines the method without
    stating this attribute in its body is asked (False), whatever a base class promised. A
    class may state True beside a method of its own (the method then serves the paths that
    ask it directly, e.g. a purchase naming another module's components): a promise, checked
    for every bundled module that makes it by ``tests/test_module_contract.py`` (the method
    asked at every plain purchase of its example and simulated games answers yes)."""

    leaves_plain_purchases_in_turn: ClassVar[bool] = False
    """True: the module's :meth:`leaves_plain_purchase` answers yes to every plain purchase
    made while no out-of-turn action is under way (``state.turn.interrupt`` None), so the
    one-pass purchase of a turn (``purchase.purchase_plain``) does not ask it then
    (``Extensions.leave_askers_in_turn``); inside an interrupt it is asked as before. For a
    module whose purchase rule acts only inside an out-of-turn action of its own (Der
    Schlüssel zum Tor: the bonus "1 Gebäude für 14 kaufen", issue 34, twenty-fifth step). A
    promise, like :attr:`leaves_plain_purchases` (which, when True, says more)."""

    @classmethod
    def _settle_plain_purchase_promise(cls) -> None:
        """:attr:`leaves_plain_purchases` of a new module class by the rule told there (and
        :attr:`leaves_plain_purchases_in_turn`: not inherited by a class that defines the
        method without stating it)."""
        own = vars(cls)
        if "leaves_plain_purchase" in own and "leaves_plain_purchases_in_turn" not in own:
            cls.leaves_plain_purchases_in_turn = False
        if "leaves_plain_purchases" in own:
            return
        if "leaves_plain_purchase" in own:
            cls.leaves_plain_purchases = False
        elif cls.leaves_plain_purchase is Module.leaves_plain_purchase:
            cls.leaves_plain_purchases = cls.purchases_by_components

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        """Whether this module leaves ``player``'s plain purchase of the catalogue tile on
        market field ``field`` (0-3) *now* as the base game has it: every refinement it has of
        a purchase decision returns the answer it gets, and its :meth:`on_purchase` does
        nothing but what its :meth:`after_plain_purchase` does. Then the engine keeps the
        one-pass purchase (``purchase.purchase_plain``: no
        :class:`~referee.engine.actions.purchase.Purchase`, no context, the base layer's
        answers). Asked before each plain purchase of the modules that refine a purchase
        decision or override :meth:`on_purchase` (else the one-pass path is on anyway) and
        make no promise (:attr:`leaves_plain_purchases`, which tells when to override this);
        it must be cheap (a flag of the module's state, a class attribute). Default: the
        promise (:attr:`leaves_plain_purchases`). A module whose :meth:`on_purchase` reacts
        to every purchase answers True when its :meth:`after_plain_purchase` does for this
        purchase what its :meth:`on_purchase` would do."""
        return self.leaves_plain_purchases

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """A plain purchase was carried out in one pass (``purchase.purchase_plain``, taken
        because every module said :meth:`leaves_plain_purchase`); ``buy`` is a
        :class:`~referee.engine.actions.purchase.PlainPurchase`: the player, the ``buy`` line,
        the market field and its tile, the money cards paid, the currencies that may pay, the
        price, what the payment counts for (``pay.value``) and whether it was exact
        (``pay.exact``; ``buy.overpaid`` as ``purchase.overpaid`` gives it). Called where the
        pipeline calls :meth:`on_purchase` (the tile off its field, the cards spent, the tile
        not yet among the turn's placements), in module order, only for the modules whose
        class overrides it. A module whose :meth:`on_purchase` reacts to every purchase
        (change, a scout earned by an exact purchase, the fruit lying on the tile) does here
        what that would do for this purchase, with no context, no findings and no rule
        question asked. Default: nothing."""

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[MoneyCard, ...],
        allowed: frozenset[Currency],
        price: int,
    ) -> tuple[int, bool] | tuple[int, bool, int] | None:
        """A purchase otherwise plain (a catalogue tile from a market field, paid with known
        money cards of the hand, every card of a currency that may pay) names this module's
        components ``refs`` too, and this module is the only one that takes part in purchases
        (refines a purchase decision or hears :meth:`on_purchase`), or every other one that
        does promises to leave it alone (:attr:`purchases_by_components`) and hears of no
        plain purchase. ``allowed`` and ``price`` are the base layer's answers. Answer
        ``(value, exact)`` only when the pipeline would give the same: this module's
        refinements of ``pay.price`` and ``pay.currencies`` return what they get
        (``pay.currencies`` may answer otherwise when ``cards`` is empty: no card is checked
        against it, e.g. diamonds alone), its ``pay.problems`` adds
        nothing, its ``pay.value`` adds ``value`` to the cards' sum, its ``pay.exact`` is
        ``exact`` or what it gets, and ``turn.extra_action`` is left alone; then the engine
        carries the purchase out in one pass (the engine's own checks of the sum stay the
        engine's) and calls :meth:`spend_plain_components` where the pipeline calls
        :meth:`on_purchase`, then, when this module overrides :meth:`after_plain_purchase`
        (and no other module does), that hook with the whole sum (``total``: the cards and
        ``value``); its two calls together do what its :meth:`on_purchase` does. A module
        whose ``pay.price`` refinement changes the price answers ``(value, exact, price)``:
        ``price`` is then that refinement's answer and ``exact`` its ``pay.exact`` answer
        outright (e.g. a building site: half the price, never exact). Pure, no context.
        Default None: the pipeline runs."""
        return None

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> Any:
        """What :meth:`on_purchase` does for a purchase :meth:`plain_components` let the
        engine carry out in one pass (the components paid go where they go; ``tile``: the
        catalogue tile bought). Returns the piece that waits to be placed in the tile's stead
        when :meth:`on_purchase` makes one (a building site on it), else None (the tile).
        Default: nothing."""

    plain_components_pieces: ClassVar[bool] = False
    """True: what :meth:`plain_components` (and :meth:`plain_currencies`) answer holds too
    when the piece bought is another module's piece lying on a market field that is bought as
    a catalogue tile is (:attr:`plain_market_pieces`: a medina, a magic building, a plot), at
    that piece's ``price``: this module's purchase refinements and its :meth:`on_purchase`
    read the price, the field and the payment, never what is bought. Then such a purchase
    paid partly with this module's components may take the one-pass path too. A promise,
    checked by ``tests/test_purchase_exchange_onepass.py``."""

    def plain_currencies(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        field: Currency,
        allowed: frozenset[Currency],
    ) -> frozenset[Currency]:
        """The currencies that may pay (``pay.currencies``) for a purchase otherwise plain
        that names this module's components ``refs`` (as for :meth:`plain_components`), as
        this module's refinement of ``pay.currencies`` answers it given ``allowed`` (the base
        layer's answer for market field ``field``), e.g. an exchange card's second currency.
        Asked before the money cards' currencies are checked, only of a module whose class
        overrides it; :meth:`plain_components` is asked with this answer. Pure, no context.
        Default: ``allowed`` (the refinement returns what it gets)."""
        return allowed

    placements_by_pieces: ClassVar[bool] = False
    """True: the module's ``place.problems`` refinement returns the answer it is given when a
    catalogue tile is placed or built from the reserve (not swapped): it adds or drops
    problems only for its own pieces entering, or for swaps. The default
    :meth:`leaves_plain_placement` answers with it. A promise, checked by
    ``tests/test_module_dispatch.py``."""

    def leaves_plain_placement(
        self, state: GameState, player: PlayerState, at: Coord, tile: Any
    ) -> bool:
        """Whether this module's ``place.problems`` refinement leaves the catalogue tile
        ``tile`` entering ``player``'s Alhambra at ``at`` (placed, or built from the reserve)
        as the base building rules have it *now*. Then the engine keeps the one-pass placement
        (``building.plain_slot``: the base rules' quick test, no context, no findings built).
        Asked only of the modules refining ``place.problems``, before each such placement of
        a game with them; it must be cheap. Default: :attr:`placements_by_pieces`."""
        return self.placements_by_pieces

    def market_taken(self, state: GameState, field: int, piece: Any, player: PlayerState) -> None:
        """A piece left market field ``field`` (0-3) for ``player`` other than by a purchase
        (e.g. a tile claimed out of turn), through
        :func:`referee.engine.market_side.take_from_market`: what this module keeps for the
        field goes along with it (e.g. the fruit lying on a building)."""

    def removed(
        self, state: GameState, player: PlayerState, at: Coord, piece: Any
    ) -> list[Violation]:
        """A piece left ``player``'s Alhambra at ``at`` (redesign: remove or swap)."""
        return []

    def placed(self, ctx: Any, player: PlayerState, at: Coord, piece: Any, how: str) -> None:
        """A piece entered ``player``'s Alhambra at ``at`` (``piece`` None: a tile the record
        does not name); ``how``: ``place`` (bought, in a turn or an out-of-turn line), ``build``
        (from the reserve), ``swap`` (into the cell a swapped piece left) or ``distribute`` (a
        leftover tile at the game end). Called right after the piece lies there, before the
        next action, so a module sees the placements of a turn one by one, in their order
        (``ctx.pos``: the placing action's position; report with ``ctx.flag``). Default:
        nothing."""

    plain_purchase_types: ClassVar[frozenset[Any] | None] = None
    """The building types (``BuildingType``) of the pieces whose one-pass purchase from a
    market field this module's :meth:`after_plain_purchase` may act on (None: every one): for
    a piece of any other type, or of none (``getattr(piece, "type", None)``), it does nothing,
    and ``purchase.purchase_plain`` does not call it there (nor builds the
    :class:`~referee.engine.actions.purchase.PlainPurchase` when no module hearing of the
    purchase is told of it). A promise, like :attr:`placed_hows`; e.g. Der Schlüssel zum Tor
    hears only of arcades (a key tile, L3514-3516). The other one-pass purchases (a side
    offer, a purchase with components) call the hook as before."""

    placed_hows: ClassVar[frozenset[str] | None] = None
    """The kinds of placement (``how``: ``place``, ``build``, ``swap``, ``distribute``) at
    which this module's :meth:`placed` may act (None: every one): at any other placement it
    does nothing, and the engine does not call it there (:meth:`Extensions.placed` builds no
    context when no module is told of that placement). A promise, checked by
    ``tests/test_speed23_silentc.py`` (the same reports with every placement told)."""

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        """A component of this module in a ``position`` block: ``where`` is ``display``,
        ``hand``, ``reserve``, ``alhambra``, ``market`` or ``dirk`` (Dirk's tiles, two
        players). A piece among Dirk's tiles of a module whose pieces are in the bag
        (:meth:`tower_components`) is asked with ``reserve`` (drawn from the bag, unplaced);
        ``dirk`` only of the other modules. Return (handled, the piece to put there for
        ``reserve``/``alhambra``/``dirk``, else None)."""
        return False, None

    def position_layout(self, state: GameState, player: PlayerState) -> list[Any]:
        """The building problems (:class:`referee.geometry.rules.BuildingProblem`) of this
        module's own building rules in ``player``'s Alhambra as a ``position`` block states it
        (the platform's rules are checked by the engine): each is ``POSITION-INVALID``."""
        return []

    def position_held(self, state: GameState, player: PlayerState | None) -> list[ComponentRef]:
        """The cards of this module in ``player``'s hand (None: in the money display), as the
        tokens a ``position`` block states them by (diamonds, exchange cards, master builders,
        coins); :meth:`position_component` reads them back (``referee.engine.position_text``)."""
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """A line of this module in a ``position`` block (in a ``player`` section or not):
        apply it and return True, or False when the module does not know it."""
        return False

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """The lines of this module that state its part of ``state`` in a ``position`` block
        (``player`` None: the lines outside the player sections), so that the block, read back
        through :meth:`position_line` / :meth:`position_component`, gives the same module
        state (``referee.engine.position_text``, ``show --format record``). Pieces in an
        Alhambra, a reserve or on the market are written by the engine through their ``code``."""
        return []

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        """``score`` of a position: before scoring ``round_no``, report (``ctx.flag`` with the
        module's code, at ``ctx.pos``, the position block) what the position leaves out that
        this module needs to score it, so that nothing is silently omitted."""

    def scoring_parts(self, state: GameState, round_no: int) -> ScoringParts | None:
        """What this module adds to scoring ``round_no``: a
        :class:`~referee.scoring.categories.ScoringParts` with count adjustments per player
        (None: Dirk), scoring categories (``Majority``, ``PointLine``, ``Penalty`` ...) and a
        replacement points table for the building majorities. None: nothing."""
        return None

    def at_moment(self, ctx: Any, moment: Any) -> None:
        """A step of this module at a named moment of the turn flow
        (:class:`~referee.engine.turns.Moment`: setup done, turn start, turn end, refill done,
        scoring done, leftovers handed out, game end). ``ctx`` is the engine's
        :class:`~referee.engine.context.Context`."""

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Whether :meth:`at_moment` would do nothing at ``moment`` in ``state`` as it stands
        (no change of the state, the module's part included, and no finding): a pure answer,
        asked just before the step would run. When every module asked at a moment answers yes,
        the engine leaves the moment's step out (:meth:`Extensions.at`: no context is built,
        no step runs, ``GameState.changes`` does not move), so a module that registered for a
        moment of every turn (``@acts_at(Moment.TURN_END)``) keeps the base turn's one-pass
        paths in the turns where it has nothing to do there. Default: no (the step runs).
        A module answers only what it can tell cheaply and surely (its part exists, nothing is
        pending); when unsure, it answers no. ``tests/test_speed10_dispatch.py`` holds every
        yes of the bundled modules to a step that changes nothing."""
        return False

    idle_moments: ClassVar[frozenset[Any] | None] = None
    """The moments at which :meth:`idle_at` can answer yes (None: at every moment its step is
    asked). At any other moment the engine runs the step without asking it, nor the other
    modules asked there (one no is enough)."""

    kept_idle: ClassVar[frozenset[Any]] = frozenset()
    """The moments of every turn (``Moment.TURN_START``, ``Moment.TURN_END``,
    ``Moment.REFILL_DONE``) at which the module keeps its :meth:`idle_at` answer as state, so
    that the engine reads it without a call (the turn's one-pass paths in ``core._turn``). Its
    part (``state.modules[name]``) holds the kept answer as ``idle_start`` / ``idle_end`` /
    ``idle_refill``: ``True``, idle (kept by the
    module's own steps, each setting it again when it changes what the answer reads); a list,
    idle while ``state.market`` holds pieces equal to it field by field (a copy of the market
    taken when the module found itself idle: for an answer that reads the market, which many
    steps of the engine and of other modules change); a dict, idle while it holds the
    mover's ``PlayerState.reserve_version`` at his seat (read at a turn's start and end: for
    an answer that reads the mover's reserve and the module's own part, noted where
    :meth:`idle_at` found him idle and dropped by the module's own steps that change what it
    reads; Der Marktplatz); anything else, not known: the engine
    asks as before (:meth:`Extensions.at`, :meth:`idle_at`). The engine reads kept answers at
    a moment only when every module asked then keeps one there, and never where the module's
    part does not exist. A kept yes must be a yes :meth:`idle_at` would give at that point
    (``tests/test_speed13_dispatch.py`` runs the step on a copy at every kept yes of the
    bundled modules and requires that nothing changes)."""

    reads_refills_closed: ClassVar[bool] = False
    """True: the module reads how many refills have closed (``GameState.refills_closed``),
    e.g. to let a note lapse when the open refill closes without a step at ``REFILL_DONE``.
    The engine counts the closes only in a game where an enabled module says so
    (:attr:`Extensions.refill_counted`); elsewhere the count stays 0."""

    reads_turn_start: ClassVar[bool] = False
    """True: the module reads each player's cells at the start of his last turn
    (``GameState.turn_start``: seat -> a copy of ``alhambra.cells``), e.g. to tell which tiles
    were laid in this turn. The engine keeps those copies only in a game where an enabled
    module says so (:attr:`Extensions.turn_start_kept`), at each turn's start (after a standing
    offer's turn start, before the modules' step), so that the module needs no step of its own
    there; elsewhere the table stays empty. A table is copied again only when the mover's
    ``alhambra.version`` moved since the last copy (``GameState.turn_start_version``); else the
    kept one holds the same cells."""

    reads_changes: ClassVar[bool] = False
    """True: the module reads the engine's change counter (``GameState.changes``) or waits for
    its next raise (``GameState.wait_for_change``). The engine keeps the counter only in a game
    where an enabled module says so (:attr:`Extensions.counting`); in any other game
    ``state.changes`` holds :data:`NOT_COUNTED`, which refuses every comparison, sum, hash and
    truth test, and ``wait_for_change`` raises: a module that reads the counter without saying
    so fails at its first read instead of comparing counts that never move
    (``tests/test_speed12_dispatch.py`` also holds every bundled module's source to it)."""

    # --------------------------------------------------------- legal moves

    def legal_actions(self, ctx: Context, player: PlayerState) -> list[Action]:
        """The module's moves for ``player`` now, as record nodes the checker accepts: its
        verbs (e.g. ``wake``, ``square sq:Tne``), module cards taken (``take ex:GuDe``) and its
        ways to pay (a ``buy`` whose payment names an exchange card). The generator keeps main
        actions only while the turn allows one, and verbs of kind ``free`` at any time of the
        turn; placements of the pieces a module action adds are the generator's. Default:
        none."""
        return []

    owed_before: ClassVar[str] = "next"
    """When this module's owed actions (:meth:`owed_actions`) fall due: ``"next"``, before any
    other action (a plot's building "sofort", a gate behind a double wall), or
    ``"turn-end"``, at any time before the turn ends (a watchtower bought waits for its place
    among the turn's placements). ``explain`` says which."""

    def owed_actions(self, ctx: Context, player: PlayerState) -> list[Action]:
        """Free actions ``player`` owes now (e.g. the building a bought plot receives
        "sofort" before it is placed, the gate a tile placed behind a double wall waits for):
        one of them must be taken, when :attr:`owed_before` says. The simulator takes one
        while any is owed, right after the main action or placement that made it owed;
        ``can_end_turn`` is False while one is owed. Default: none."""
        return []

    def legal_interrupts(self, ctx: Context) -> list[Turn]:
        """Out-of-turn lines (a ``Turn`` without a number, whole: e.g. ``Ben: vizier, buy ...,
        place ...``) the module allows now. Called between two turns with the table settled
        (refill written); a due scoring may still be pending. Default: none."""
        return []

    def legal_refill_interrupts(self, ctx: Context) -> list[Turn]:
        """Out-of-turn lines the module allows *inside* the refill, before it is closed (the
        state as written so far, not settled: e.g. a sultan card claiming a tile just drawn
        for the market; the next refill line then fills the field again). Default: none."""
        return []

    # ------------------------------------------------------------ simulator

    def sim_money_components(self, sim: SimContext) -> dict[int, list[object]]:
        """Components the simulator shuffles into the money piles (1-5) at setup, as record
        tokens (e.g. ``ComponentRef("ex", "GuDe")``); each turns up in the display as it
        comes. Default: none."""
        return {}

    def sim_deal(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events of the module's setup that come *before* the start money is dealt
        (e.g. cards dealt face down "Danach bekommt jeder Spieler sein Startgeld"). Default:
        none."""
        return []

    def sim_setup(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events of the module's setup (cards dealt, stacks laid out), written after
        the base setup and before the start player. Default: none."""
        return []

    def sim_before_distribution(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events written when the game has ended, before the leftover tiles are handed
        out (e.g. hidden pieces revealed). Default: none."""
        return []

    def sim_before_scoring(self, sim: SimContext, round_no: int) -> list[ChanceEvent]:
        """Chance events written just before the line of scoring ``round_no`` (e.g. the attack
        card that scoring reveals, whose points are part of it). Default: none."""
        return []

    def sim_reshuffle(self, sim: SimContext) -> list[object]:
        """The module's components on the discard pile, shuffled with it into the new money
        deck. Default: none."""
        return []

    def sim_refill(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events written with the refill after a turn or an out-of-turn line (e.g. the
        next square of a stack turned face up). Default: none."""
        return []

    def sim_after_refill(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events written on a line of their own right after the refill is applied
        (the new market tiles are known, e.g. a fruit laid on each). Default: none."""
        return []

    def sim_between_turns(self, sim: SimContext) -> list[ChanceEvent]:
        """Chance events a module writes after a complete turn (its refill and the scorings
        it revealed), each line followed by the lines of the stage it opens and a refill; asked
        again until no module has one (Der Schlüssel zum Tor: a key tile laid, every player's
        bonus, the refill after each key tile). Default: none."""
        return []

    def sim_turn_start(self, sim: SimContext, player: PlayerState) -> list[Action]:
        """Free actions a simulated player may make as the first act of his turn, before any
        main action (e.g. a caravanserai stone moved "zu Beginn seines Spielzuges – als erste
        Handlung"); the simulator plays at most one of all modules' (its ``free`` weight).
        Default: none."""
        return []

    def sim_played(self, sim: SimContext, player: PlayerState, action: Action) -> list[Action]:
        """The simulator played ``action`` as a free act at the start of ``player``'s turn
        (one of :meth:`sim_turn_start`'s, or one this hook returned): the module takes from
        the simulator's hidden table what the action drew (the Bettler's card from
        ``sim.deck``) and returns the free acts that may follow at once (his one more card);
        the simulator plays one of them or none. Default: nothing."""
        return []

    def sim_interrupts(self, sim: SimContext) -> list[Turn]:
        """Out-of-turn lines a simulated player writes now, between turns (the table settled,
        a due scoring not yet written), before the simulator's random choice among the legal
        ones: lines that draw what only the simulator knows (the Tänzerin's building from
        ``sim.bag``) or that a player always writes (the Weise's type before a scoring).
        Default: none."""
        return []

    def sim_prefers(
        self, sim: SimContext, player: PlayerState, actions: list[Action]
    ) -> list[Action]:
        """Of ``actions`` (legal moves of one kind, e.g. the exact purchases), those a simulated
        player would rather make because of this module (e.g. the tile of a hidden bonus card),
        so that simulated games use the module. Default: none (no preference)."""
        return []

    def sim_deck_components(self, sim: SimContext) -> list[object]:
        """Components the simulator shuffles into the whole money deck *before* the start
        money is dealt (e.g. diamonds: "zusammen mit den anderen Geldkarten gemischt. Dann
        erhalten die Spieler ihr Startgeld"), as record tokens; they may be dealt (when
        :meth:`money_value` says they are money), lie in the opening display or in any pile.
        Default: none."""
        return []

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Tokens this module keeps on tiles of ``player``'s Alhambra (E17: "things on tiles"),
        as a short text per cell (``ab:S``); the drawings show them on their tiles (terminal,
        SVG, the HTML replay). Default: none."""
        return {}

    def market_marks(self, state: GameState) -> dict[int, str]:
        """Tokens this module keeps on market fields (field index 0-3: Gulden, Dinar, Denar,
        Dukaten), as a short text per field (``wk Anna Ben``, ``hidden C5``); the terminal's
        market line writes them beside the field's tile, the SVG picture (``render``) writes
        that line under its title when a field has a mark. English words in it are translated
        for German by the module's view terms (``view_terms_de``). Default: none."""
        return {}

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """What this module keeps in ``player``'s area before him, not in his Alhambra (cards,
        boards, tiles on strips), as short lines (English, German) that the drawings write in
        the player's block under his name (terminal) or under his Alhambra (SVG). Default:
        none, so every drawing without such a module is unchanged."""
        return []

    def view(self, state: GameState) -> dict[str, Any]:
        """This module's state for people and tools (``show``, JSON/YAML, ``render``, the HTML
        replay): a JSON-able mapping. Conventional keys: ``"table"`` (shared state, a mapping
        of label -> value), ``"players"`` (player name -> mapping of label -> value) and
        ``"labels"`` (``{"en": title, "de": title}``). Empty: nothing to show."""
        return {}


MODULES: dict[str, type[Module]] = {}
"""Every known module class by name (lower case)."""


def acts_at(*moments: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Method decorator for an ``at_moment`` that does something only at ``moments`` (a
    promise the engine uses to ask it only then). Optional: an ``at_moment`` without it is
    asked at every moment. The moments of the ``at_moment`` it overrides (``super()``) are
    added by :func:`moments_asked`, so a subclass names only its own."""

    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        func.acts_at = frozenset(moments)  # type: ignore[attr-defined]
        return func

    return mark


def idle_answers(cls: type[Module], moment: Any) -> bool:
    """Whether a module class's :meth:`Module.idle_at` may answer yes at ``moment``: it
    overrides the default (no), and its :attr:`Module.idle_moments`, if set, name ``moment``."""
    if cls.idle_at is Module.idle_at:
        return False
    return cls.idle_moments is None or moment in cls.idle_moments


_MOMENTS_ASKED: dict[type, frozenset[Any] | None] = {}


def moments_asked(cls: type[Module]) -> frozenset[Any] | None:
    """The moments at which a module class's ``at_moment`` may act, derived once per class
    from the class itself: none when it keeps :class:`Module`'s do-nothing default; the union
    of the :func:`acts_at` marks along its chain of overrides; None (every moment) as soon as
    one override in the chain carries no mark. A new module needs nothing for this: an
    ``at_moment`` of its own is asked at every moment."""
    if cls in _MOMENTS_ASKED:
        return _MOMENTS_ASKED[cls]
    found: frozenset[Any] | None = frozenset()
    for klass in cls.__mro__:
        if klass is Module:
            break
        func = klass.__dict__.get("at_moment")
        if func is None:
            continue
        marked = getattr(func, "acts_at", None)
        if marked is None:
            found = None
            break
        found = found | marked
    _MOMENTS_ASKED[cls] = found
    return found


def register_module(cls: type[Module]) -> type[Module]:
    """Class decorator: make a module known under ``cls.name``."""
    MODULES[cls.name.lower()] = cls
    return cls


EDITIONS: dict[str, type[Module]] = {}
"""The rules units of editions (``referee/editions/``) by the profile's ``edition`` value: a
profile switches one on for the whole game; a ``Modules`` header cannot name it."""


def load_editions() -> None:
    """Import :mod:`referee.editions` once, so the editions' units are registered."""
    import referee.editions  # noqa: F401


def load_bundled_modules() -> None:
    """Import every bundled module (once), so that all of them are registered."""
    from referee.modules import discover

    discover()


def load_module(name: str) -> type[Module] | None:
    """The registered module called ``name`` (a name or an alias, any case), importing only its
    own file when it is a bundled module not yet imported; every bundled module is imported
    only when ``name`` is none of the files' names (an alias, or no module at all)."""
    low = name.lower()
    cls = MODULES.get(low)
    if cls is None:
        from referee.modules import load

        load(low)
        cls = MODULES.get(low)
    if cls is None:
        load_bundled_modules()
        cls = MODULES.get(low)
    return cls


def module_owning_verb(verb: str) -> str | None:
    """The name of the registered module that owns an action verb, if any."""
    load_bundled_modules()
    low = verb.lower()
    for name, cls in MODULES.items():
        if any(low == v.lower() for spec in cls.verb_specs for v in (spec.verb, *spec.aliases)):
            return name
    return None


NOT_COUNTED_WHY = (
    "GameState.changes is kept only in a game where an enabled module declares "
    "`reads_changes = True` (Module.reads_changes); declare it on the module that reads the "
    "change counter or waits for its next raise"
)


class _NotCounted:
    """The type of :data:`NOT_COUNTED`: every comparison, sum, hash and truth test raises."""

    __slots__ = ()

    def _refuse(self, *_: object) -> Any:
        raise TypeError(NOT_COUNTED_WHY)

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __iadd__ = __isub__ = _refuse
    __hash__ = __bool__ = __int__ = __index__ = __float__ = _refuse

    def __repr__(self) -> str:
        return "NOT_COUNTED"

    def __reduce__(self) -> str:
        return "NOT_COUNTED"  # one value (a copy or a pickle gives it back)


NOT_COUNTED: Any = _NotCounted()
"""``GameState.changes`` in a game where the engine keeps no change counter (no enabled module
declares :attr:`Module.reads_changes`): a read of the counter there is an error at once."""


_CONTEXT: list[type[Context]] = []
"""The :class:`~referee.engine.context.Context` class once :func:`_context_class` has imported
it (on first use, as the import inside the methods did before): an import statement run at
every moment asked costs about 8,700 instructions (counted with valgrind, CPython 3.11), a list
lookup almost nothing."""

_PLACE_HOWS = ("place", "build", "swap", "distribute")  # the ``how``s of Module.placed

_MODULE_ACTION: list[type[ModuleAction]] = []
"""``referee.record.model.ModuleAction`` once :meth:`Extensions.out_of_turn` has looked it up."""

_PLACE_PROBLEMS = frozenset({Decision.PLACE_PROBLEMS})
"""The decision a one-pass placement asks about (:meth:`Extensions.placement_askers`)."""

_LATER: dict[str, Any] = {}
"""Modules this one does not import at its top (they import the engine, or a game without a
module never needs them), by name: imported by :func:`_later` on first use and kept (an import
statement inside a method costs about 7,900 instructions each time it runs, CPython 3.11)."""


def _later(name: str) -> Any:
    """The module ``name`` (``referee.scoring.categories``, ...), imported on first use."""
    got = _LATER.get(name)
    if got is None:
        import importlib  # (once: later calls find the module kept)

        got = _LATER[name] = importlib.import_module(name)
    return got


def _solo(
    read: tuple[tuple[str, Module], ...] | None, beside: tuple[Module, ...]
) -> tuple[str, Module] | None:
    """:attr:`Extensions.start_solo`'s answer: the one (name, module) of ``read`` when nobody is
    asked ``beside`` it, else None."""
    if read is not None and len(read) == 1 and not beside:
        return read[0]
    return None


def _context_class() -> type[Context]:
    """The ``Context`` class (imported on first use, then kept in :data:`_CONTEXT`)."""
    if not _CONTEXT:
        from referee.engine.context import Context

        _CONTEXT.append(Context)
    return _CONTEXT[0]


class DrawHearers:
    """Several modules hearing the market's draws (:attr:`Extensions.drawing`) told as one
    (:attr:`Extensions.draw_heard`): the one place where the engine asks them in turn. Each
    is told of the piece until one sets it aside; its rule code is the answer (the later ones
    are not told), else None (the piece lies on the field)."""

    __slots__ = ("by_class", "hearers")

    def __init__(self, hearers: tuple[Module, ...]) -> None:
        self.hearers = hearers
        # per class of a piece drawn: the hearers told of it (``market_draw``, bound), in
        # order: those without a promise (:attr:`Module.draw_types`) and those whose promise
        # names the class; the others would answer None and change nothing
        self.by_class: dict[type, tuple[Callable[[GameState, int, object, Pos], str | None], ...]]
        self.by_class = {}

    def told(self, kind: type) -> tuple[Callable[[GameState, int, object, Pos], str | None], ...]:
        """The hearers told of a piece of class ``kind``, worked out and kept on first ask."""
        got = self.by_class[kind] = tuple(
            [
                m.market_draw
                for m in self.hearers
                if (only := type(m).draw_types) is None or kind in only
            ]
        )
        return got

    def __call__(self, state: GameState, field: int, piece: object, pos: Pos) -> str | None:
        told = self.by_class.get(type(piece))
        if told is None:
            told = self.told(type(piece))
        for heard in told:
            code = heard(state, field, piece, pos)
            if code:
                return code
        return None


class _LowerKeys(dict):
    """A table keyed by lower-case words, read through its ``__getitem__`` as a function of
    the word as written: the word itself found, the answer in C (no Python call); else the word
    lower-cased and looked up again (``__missing__``); absent: None. The same answer as
    ``table.get(word.lower())`` (:meth:`Extensions.kind_handler`, :meth:`Extensions.verb_handler`
    and :meth:`Extensions.verb_spec` are such readers: asked several times a module turn)."""

    __slots__ = ()

    def __missing__(self, word: str) -> Any:
        low = word.lower()
        return None if low == word else self.get(low)


_NOBODY: Callable[[str], Any] = {}.get  # type: ignore[assignment]
"""The readers of :class:`Extensions` without a module: nobody owns any word (``None``); a
class attribute (a built-in method: read from the class unbound, called as it is)."""


class Extensions:
    """The modules enabled for one game, and the engine's calls into them."""

    kind_handler: Callable[[str], Module | None] = _NOBODY
    """The enabled module owning a component kind (``kind`` as written: lower-cased to look
    up), or None: ``kind_handler("mb")``. A C function (a :class:`_LowerKeys` table's
    ``__getitem__``, made per game; without a module the class's :data:`_NOBODY`): several
    callers a module turn."""
    verb_handler: Callable[[str], Module | None] = _NOBODY
    """The enabled module owning a verb (as written), or None (as :attr:`kind_handler`)."""
    verb_spec: Callable[[str], VerbSpec | None] = _NOBODY
    """The declared spec of an enabled module's verb (as written; None: no enabled module owns
    it), as :attr:`kind_handler`."""

    # The answers a path of every turn asks, worked out once per game in ``__init__`` (when a
    # module is enabled) and kept as attributes: one attribute read on the hot paths, no call.
    # The same as ``overriding(...)`` / ``acting_at(...)`` answer; without modules, all empty.
    refilling_from: tuple[Module, ...] = ()
    """``overriding("market_refill_from")``: the modules that may turn up a piece of their own
    for an empty market field (none: every refill entry is a draw from the bag)."""
    drawing: tuple[Module, ...] = ()
    """``overriding("market_draw")``: the modules that may set a drawn tile aside."""
    draw_heard: Callable[[GameState, int, object, Pos], str | None] | None = None
    """:attr:`drawing` told of a piece drawn for a market field, as one call (``core._market``,
    ``market_side.intercept``): None without them; the one module's ``market_draw``; else a
    :class:`DrawHearers` (each told until one sets the piece aside). Answer: the rule code of
    the module that set it aside, or None."""
    draw_types: frozenset[type] | None = None
    """The types of drawn pieces :attr:`draw_heard` is asked about in ``core._market``: None,
    every piece (a hearer makes no :attr:`Module.draw_types` promise, or there is no hearer);
    else the union of the hearers' :attr:`Module.draw_types` (a piece of another type: no
    hearer does anything about it, so no call)."""
    placing: tuple[Module, ...] = ()
    """``overriding("placed")``: the modules told that a piece entered an Alhambra."""
    placing_place: tuple[Module, ...] = ()
    """:attr:`placing` told of a ``place`` (a bought tile placed; :attr:`Module.placed_hows`):
    the one-pass placements read it before calling :meth:`placed`."""
    _placing_how: dict[str, tuple[Module, ...]]
    """:attr:`placing` per ``how`` of a placement: those whose :attr:`Module.placed_hows`
    admit it (:meth:`placed`)."""
    after_plain: tuple[Module, ...] = ()
    """``overriding("after_plain_purchase")``: the modules told of a one-pass purchase."""
    in_turn_flow: bool = False
    """``acting_at((REFILL_DONE, TURN_START, TURN_END))``: whether a module is asked at a
    refill's close, a turn's start or its end (when not, the turn's one-pass paths in
    ``core._turn`` leave those steps out)."""
    refill_asked: bool = False
    """Whether a module is asked at a refill's close (``REFILL_DONE``): when not, the turn's
    one-pass path in ``core._turn`` leaves the call out."""
    refill_idle: tuple[Module, ...] = ()
    """The modules asked at a refill's close when each of them answers :meth:`Module.idle_at`
    there (else, and without a module asked then, empty): ``core._turn`` asks them itself
    instead of calling :meth:`at` (every one idle: nothing runs; a no: :meth:`run_at`)."""
    turn_asked: bool = False
    """``acting_at((TURN_START, TURN_END))``: whether a module is asked at a turn's start or
    its end (when not, ``core._turn`` leaves both out; a module asked only at a refill's close
    costs nothing there)."""
    start_asked: bool = True  # (until worked out: read as before)
    """Whether a module is asked at a turn's start or the engine keeps the mover's cells then
    (:attr:`turn_start_kept`): when not, ``core._turn``'s one-pass turn start reads none of the
    kept answers there (a game whose modules are asked at a turn's end only, Der Marktplatz;
    a standing offer is looked at all the same)."""
    refill_kept: str | None = None
    """The name of the one module asked at a refill's close when it keeps its answer there
    (:attr:`Module.kept_idle`: its part's ``idle_refill``, True or not known) and answers
    :meth:`Module.idle_at` then; else None (:attr:`refill_idle` says how the engine asks).
    ``core._turn`` reads the kept answer; not True (or no part yet), it asks the module
    (:attr:`refill_idle`: ``idle_at``, then :meth:`run_at` on a no)."""
    kept_start: tuple[str, ...] | None = None
    """The parts (module names) whose kept answers (:attr:`Module.kept_idle`) are read at a
    turn's start (the others asked then: :attr:`ask_start`), when one module asked then keeps
    one and each answers :meth:`Module.idle_at` there (``()``: nobody is asked); None: the
    engine asks (:meth:`at`)."""
    kept_end: tuple[str, ...] | None = None
    """:attr:`kept_start` at a turn's end."""
    read_start: tuple[tuple[str, Module], ...] | None = None
    """:attr:`kept_start` as ``core._turn`` reads it: (name, module) of each, None with it.
    A kept answer that does not say idle is not the end: the module is asked
    (:meth:`Module.idle_at`), as :meth:`at` would ask it."""
    read_end: tuple[tuple[str, Module], ...] | None = None
    """:attr:`read_start` at a turn's end."""
    ask_start: tuple[Module, ...] = ()
    """The modules asked at a turn's start that keep no answer there, beside those named in
    :attr:`kept_start` (each of them answers :meth:`Module.idle_at` at that moment): when
    every kept answer says idle, ``core._turn`` asks these (``idle_at``) instead of calling
    :meth:`at`; a no runs the step (:meth:`run_at`)."""
    ask_end: tuple[Module, ...] = ()
    """:attr:`ask_start` at a turn's end."""
    start_idle: tuple[Module, ...] = ()
    """The modules asked at a turn's start when none keeps its answer there (:attr:`read_start`
    None) and each of them answers :meth:`Module.idle_at` then (else, and without a module asked
    then, empty): ``core._turn`` asks them itself instead of calling :meth:`at` (every one idle:
    nothing runs; a no: :meth:`run_at`), as :attr:`refill_idle` at a refill's close."""
    end_idle: tuple[Module, ...] = ()
    """:attr:`start_idle` at a turn's end."""
    start_solo: tuple[str, Module] | None = None
    """The one entry of :attr:`read_start` when it holds one and :attr:`ask_start` is empty
    (one module asked at a turn's start, keeping its answer there), else None: ``core._turn``
    reads that module's kept answer without a loop."""
    end_solo: tuple[str, Module] | None = None
    """:attr:`start_solo` at a turn's end."""
    refill_counted: bool = False
    """Whether an enabled module declares :attr:`Module.reads_refills_closed`: only then does
    ``core._refill_checks`` count the refills closed (``GameState.refills_closed``)."""
    turn_start_kept: bool = False
    """Whether an enabled module declares :attr:`Module.reads_turn_start`: only then does the
    engine copy the mover's cells at each turn's start (``GameState.turn_start``); such a game
    counts as one with a module asked at a turn's start (:attr:`turn_asked`)."""
    counting: bool = False
    """Whether an enabled module declares :attr:`Module.reads_changes`: only then does the
    engine keep the change counter (``GameState.changes``, raised per action and per module
    step) and run the steps waiting for its raise (``GameState.wait_for_change``)."""

    kept: ExtReads
    """The kept answers the engine reads on every turn (``modules``, ``counting``,
    ``refill_asked``, ``turn_asked``, ``refilling_from``, ``draw_heard``, ``draw_types``,
    ``after_plain``) as one object of native fields in the compiled build
    (:class:`~referee.engine.ext_reads.ExtReads`), made anew each time the answers are worked
    out (``__init__``, :meth:`modules_changed`): one attribute read a path instead of one per
    answer (issue 34, twenty-fifth step)."""

    _moments_of: tuple[frozenset[Any] | None, ...] = ()
    """Per enabled module, in order: :func:`moments_asked` of its class (worked out in
    :meth:`_keep_answers` when a module is enabled)."""

    def __init__(self, names: Iterable[str] = (), edition: str | None = None) -> None:
        names = list(names)
        self.modules: list[Module] = []
        self.unknown: list[str] = []
        self.bad_options: list[tuple[str, str, str]] = []
        """(module, the option as written, what is allowed) for each option that is refused."""
        if edition is not None:  # the edition's rules unit comes first (a profile's choice)
            load_editions()
            self.modules.append(EDITIONS[edition]())
        enabled = {type(m) for m in self.modules}  # (a set: one look-up per name)
        for raw in names:
            words = raw.split()
            if not words:
                continue
            cls = load_module(words[0])
            if cls is None:
                self.unknown.append(raw.strip())
            elif cls not in enabled:  # a name and its alias: once
                enabled.add(cls)
                module = cls()
                # (no option written: no settings, without the call)
                module.settings = self._settings(cls, words[1:]) if len(words) > 1 else {}
                self.modules.append(module)
        # the one declaration of every verb: the modules' specs (verb and aliases); without a
        # module, empty tables read by the class's readers (nothing made per game)
        modules = self.modules
        self._verbs: dict[str, Module] = _LowerKeys() if modules else {}
        self._specs: dict[str, VerbSpec] = _LowerKeys() if modules else {}
        for m in modules:
            for spec in m.verb_specs:
                for v in (spec.verb, *spec.aliases):
                    self._verbs[v.lower()] = m
                    self._specs[v.lower()] = spec
        self._chance: dict[str, Module] = {v: m for m in self.modules for v in m.chance_verbs}
        self.chance_owners = self._chance
        """The module owning each chance verb (:meth:`chance_handler`'s table, asked with the
        verb lower-cased; read without its call by ``core._module_chance``)."""
        if modules:
            self._kinds: dict[str, Module] = _LowerKeys(
                [(k.lower(), m) for m in modules for k in m.component_kinds]
            )
            # (the three readers, each a C function: see their docstrings above)
            self.kind_handler = self._kinds.__getitem__
            self.verb_handler = self._verbs.__getitem__
            self.verb_spec = self._specs.__getitem__
        else:
            self._kinds = {}
        self.arbiter = InterruptArbiter(
            {m.name: m.interrupt_rank for m in self.modules},
            [
                m.name
                for m in self.modules
                if any(spec.kind == ActionKind.INTERRUPT for spec in m.verb_specs)
            ],
            frozenset(m.name for m in self.modules if m.interrupt_not_next),
            frozenset(m.name for m in self.modules if m.interrupt_in_refill),
            {m.name: m for m in self.modules},
        )
        self._keep_answers()

    def _keep_answers(self) -> None:
        """Work out the answers kept per game from the enabled modules' classes (the memos of
        :meth:`overriding`, :meth:`taking_part`, :meth:`acting_at` and the moments asked,
        and the kept attributes)."""
        self._overriding: dict[str, tuple[Module, ...]] = {}
        # the one precedence setting also orders who reads an out-of-turn line first; only the
        # modules whose class overrides ``out_of_turn`` (the default claims no line: asking it
        # is a call that answers None)
        self._by_rank = sorted(self._find_overriding("out_of_turn"), key=lambda m: m.interrupt_rank)
        # per first verb of an out-of-turn line ("": none), the modules asked about it
        # (:attr:`Module.out_of_turn_verbs`; worked out on first ask); None: every one asked,
        # as no module makes the promise
        self._by_verb: dict[str, tuple[Module, ...]] | None = (
            {}
            if self._by_rank and any(type(m).out_of_turn_verbs is not None for m in self._by_rank)
            else None
        )
        # per moment: the modules whose ``at_moment`` may act then (:func:`moments_asked`)
        self._asked: dict[Any, tuple[Module, ...]] = {}
        # per moment: whether every module asked then answers ``idle_at`` (see ``_asked_at``)
        self._idle: dict[Any, bool] = {}
        self._acting: dict[tuple[Any, ...], bool] = {}
        self._taking: dict[tuple[frozenset[str], tuple[str, ...]], tuple[Module, ...]] = {}
        self._purchasing: tuple[Module, ...] | None = None  # (see purchase_takers)
        # (see purchase_askers; None until the first plain purchase asks)
        self.leave_askers: tuple[Module, ...] | None = None
        # (see purchase_askers; None, not known: asked as before)
        self.leave_askers_in_turn: tuple[Module, ...] | None = None
        # (see placement_askers; None until the first placement of a catalogue tile asks)
        self.place_askers: tuple[Module, ...] | None = None
        self._components: ComponentAnswers | None = None  # (see component_purchases)
        # the answers a path of every turn asks (see the class attributes above): worked out
        # here once per game when a module is enabled
        if not self.modules:  # nobody to ask (again, after :meth:`modules_changed`)
            self.refilling_from = self.drawing = self.placing = self.after_plain = ()
            self._placing_how = {}
            self.placing_place = ()
            self.draw_heard = None
            self.draw_types = None
            self.in_turn_flow = self.counting = self.refill_asked = self.refill_counted = False
            self.turn_start_kept = self.start_asked = False
            self.refill_idle = ()
            self.kept_start = self.kept_end = self.read_start = self.read_end = None
            self.ask_start = self.ask_end = self.start_idle = self.end_idle = ()
            self.start_solo = self.end_solo = None
            self.turn_asked = False
            self.refill_kept = None
            self._keep_reads()
            return
        # per enabled module, in order: :func:`moments_asked` of its class (asked once a game
        # here, not once per module and moment by :meth:`_asked_at`)
        self._moments_of = tuple([moments_asked(type(m)) for m in self.modules])
        find = self._find_overriding
        self.refilling_from = find("market_refill_from")
        self.drawing = find("market_draw")
        drawing = self.drawing
        self.draw_heard = (
            None
            if not drawing
            else drawing[0].market_draw
            if len(drawing) == 1
            else DrawHearers(drawing)
        )
        promised = [type(m).draw_types for m in drawing]
        self.draw_types = (
            None
            if not promised or any(t is None for t in promised)
            else frozenset(t for types in promised if types is not None for t in types)
        )
        self.placing = find("placed")
        # per ``how`` of a placement, the modules told of it (Module.placed_hows); a ``how``
        # not listed here: all of :attr:`placing`
        self._placing_how = {
            how: tuple([m for m in self.placing if (h := m.placed_hows) is None or how in h])
            for how in _PLACE_HOWS
        }
        self.placing_place = self._placing_how["place"]
        self.after_plain = find("after_plain_purchase")
        for hook in ("on_purchase", "distribution_pick", "scoring_parts"):
            find(hook)  # asked in nearly every game (a purchase, the leftovers, a scoring)
        self.in_turn_flow = self.acting_at((Moment.REFILL_DONE, Moment.TURN_START, Moment.TURN_END))
        if self.in_turn_flow:
            refill = self._asked_at(Moment.REFILL_DONE)
            self.refill_asked = bool(refill)
            self.refill_idle = refill if self._idle[Moment.REFILL_DONE] else ()
            self.kept_start = self._kept_at(Moment.TURN_START)
            self.kept_end = self._kept_at(Moment.TURN_END)
            self.read_start = self._read(Moment.TURN_START, self.kept_start)
            self.read_end = self._read(Moment.TURN_END, self.kept_end)
            self.ask_start = self._asked_beside(Moment.TURN_START, self.kept_start)
            self.ask_end = self._asked_beside(Moment.TURN_END, self.kept_end)
            self.start_idle = self._idle_unkept(Moment.TURN_START, self.read_start)
            self.end_idle = self._idle_unkept(Moment.TURN_END, self.read_end)
            self.start_solo = _solo(self.read_start, self.ask_start)
            self.end_solo = _solo(self.read_end, self.ask_end)
            self.turn_asked = self.acting_at((Moment.TURN_START, Moment.TURN_END))
            kept_refill = self._kept_at(Moment.REFILL_DONE)
            self.refill_kept = kept_refill[0] if kept_refill and len(refill) == 1 else None
        else:  # nobody asked at these moments: nothing to call, nothing to read
            self.refill_asked = False
            self.refill_idle = ()
            self.kept_start = self.kept_end = self.read_start = self.read_end = ()
            self.ask_start = self.ask_end = self.start_idle = self.end_idle = ()
            self.start_solo = self.end_solo = None
            self.turn_asked = False
            self.refill_kept = None
        # (a game's state takes this answer when it is made: GameState.__post_init__)
        self.counting = any(type(m).reads_changes for m in self.modules)
        self.refill_counted = any(type(m).reads_refills_closed for m in self.modules)
        self.turn_start_kept = any(type(m).reads_turn_start for m in self.modules)
        if self.turn_start_kept:  # (core._turn copies the cells in its module part only)
            self.turn_asked = True
        self.start_asked = self.turn_start_kept or (
            self.in_turn_flow and bool(self._asked_at(Moment.TURN_START))
        )
        self._keep_reads()

    def _keep_reads(self) -> None:
        """:attr:`kept`: the answers above that the engine reads on every turn, copied (the
        last step of :meth:`_keep_answers`)."""
        self.kept = ExtReads(
            self.modules,
            self.counting,
            self.refill_asked,
            self.turn_asked,
            self.refilling_from,
            self.draw_heard,
            self.draw_types,
            self.after_plain,
        )

    def modules_changed(self) -> None:
        """The list :attr:`modules` was changed in place after this object was made (a tool
        or a test swapping a module instance): work every kept answer out again."""
        self._keep_answers()

    def _settings(self, cls: type[Module], words: list[str]) -> dict[str, str]:
        """The ``option=value`` words after a module's name, checked against its options."""
        out: dict[str, str] = {}
        for word in words:
            key, eq, value = word.partition("=")
            spec = cls.options.get(key.lower())
            if not eq or spec is None:
                known = ", ".join(f"{k}=..." for k in cls.options) or "none"
                self.bad_options.append((cls.name, word, known))
            elif value.lower() not in spec[1]:
                self.bad_options.append((cls.name, word, f"{key}=" + "|".join(spec[1])))
            else:
                out[key.lower()] = value.lower()
        return out

    def __bool__(self) -> bool:
        return bool(self.modules)

    def overriding(self, hook: str) -> tuple[Module, ...]:
        """The enabled modules whose class overrides the hook ``hook`` (a method of
        :class:`Module`), in module order; worked out once per game and hook. A one-pass path
        of the engine asks it to know that no enabled module takes part (e.g.
        ``on_purchase``)."""
        try:  # the kept answer (a subscript: cheaper than ``get`` on every ask)
            return self._overriding[hook]
        except KeyError:
            return self._find_overriding(hook)

    def _find_overriding(self, hook: str) -> tuple[Module, ...]:
        """Work out and keep :meth:`overriding`'s answer for ``hook`` (``__init__`` calls it
        for the hooks every game asks: no missed subscript, whose exception costs about as
        much as 16 hits save)."""
        default = getattr(Module, hook)
        # (a list made in a comprehension, not a generator resumed per module; without a
        # module nothing to look at. The attributes read and told apart in C loops instead,
        # ``compress(map(is_not, map(getattr, ...)))``, cost more: 43,000 instructions a set-up
        # of the 22 first modules, counted with valgrind in the twenty-fifth step)
        modules = self.modules
        got = self._overriding[hook] = (
            tuple([m for m in modules if getattr(type(m), hook) is not default]) if modules else ()
        )
        return got

    def purchase_takers(self) -> tuple[Module, ...]:
        """:meth:`taking_part` for the decisions a one-pass purchase asks and ``on_purchase``
        (``purchase._PLAIN_DECISIONS``), kept per game: asked before every purchase of a
        module game."""
        got = self._purchasing
        if got is None:
            purchase = _later("referee.engine.actions.purchase")  # (it imports the engine)
            got = self._purchasing = self.taking_part(
                purchase._PLAIN_DECISIONS, purchase._ON_PURCHASE
            )
        return got

    def purchase_askers(self) -> tuple[Module, ...]:
        """:meth:`purchase_takers` that a plain purchase asks
        (:meth:`Module.leaves_plain_purchase`, ``purchase._modules_leave_purchases``): those
        that do not promise a yes to every plain purchase (:attr:`Module.leaves_plain_purchases`,
        the one flag read; a class keeping the default question has it from
        :attr:`Module.purchases_by_components`). Kept per game (:attr:`leave_askers`, which
        ``purchase.purchase_plain`` reads: once it is ``()`` nobody is asked, not even this).
        Worked out with it: :attr:`leave_askers_in_turn`, those of them asked inside a turn
        with no out-of-turn action under way (not promising
        :attr:`Module.leaves_plain_purchases_in_turn`); ``purchase_plain`` reads it only while
        :attr:`leave_askers` is known (not None)."""
        got = self.leave_askers
        if got is None:
            got = self.leave_askers = tuple(
                m for m in self.purchase_takers() if not m.leaves_plain_purchases
            )
            self.leave_askers_in_turn = tuple(
                m for m in got if not m.leaves_plain_purchases_in_turn
            )
        return got

    def placement_askers(self) -> tuple[Module, ...]:
        """The modules refining ``place.problems`` that a one-pass placement asks
        (:meth:`Module.leaves_plain_placement`, ``building._modules_refine_here``): those whose
        answer is not a yes given by the class (one keeping :class:`Module`'s question, which
        answers :attr:`Module.placements_by_pieces`, with that promise made). Kept per game
        (:attr:`place_askers`, which ``building._modules_refine_here`` reads)."""
        got = self.place_askers
        if got is None:
            default = Module.leaves_plain_placement
            got = self.place_askers = tuple(
                m
                for m in self.taking_part(_PLACE_PROBLEMS, ())
                if type(m).leaves_plain_placement is not default or not m.placements_by_pieces
            )
        return got

    def component_purchases(self) -> ComponentAnswers:
        """What a one-pass purchase of a module's piece or with a module's components asks of
        the enabled modules (``purchase._purchase_with_components``, ``_purchase_side_offer``,
        ``_plain_piece_field``), kept per game from their classes:

        0. :meth:`purchase_takers` (the modules taking part in purchases);
        1. those of them that promise neither to leave a purchase naming none of their
           components alone (:attr:`Module.purchases_by_components`) nor to hear of it as of
           a plain one (:attr:`Module.hears_component_purchases`): one such module beside the
           owner of the pieces named, and the pipeline runs;
        2. the modules hearing of plain purchases (:attr:`after_plain`) that do not hear of
           a purchase naming another module's components;
        3. ``overriding("plain_components")``; 4. ``overriding("plain_currencies")``;
        5. the takers asked :meth:`Module.leave_plain_purchase` for a module's piece on a
           market field: all but those keeping the default question with the promise
           :attr:`Module.leaves_plain_purchases` (whose answer is that promise: yes).
        """
        got = self._components
        if got is None:
            takers = self.purchase_takers()
            default = Module.leaves_plain_purchase
            got = self._components = (
                takers,
                tuple(
                    m
                    for m in takers
                    if not (m.purchases_by_components or m.hears_component_purchases)
                ),
                tuple(m for m in self.after_plain if not m.hears_component_purchases),
                self.overriding("plain_components"),
                self.overriding("plain_currencies"),
                tuple(
                    m
                    for m in takers
                    if type(m).leaves_plain_purchase is not default or not m.leaves_plain_purchases
                ),
            )
        return got

    def taking_part(self, decisions: frozenset[str], hooks: tuple[str, ...]) -> tuple[Module, ...]:
        """The enabled modules that refine one of ``decisions`` (``@refines``) or override one
        of ``hooks``, in module order; worked out once per game and question (from the
        modules' classes). A one-pass path asks them whether they leave its case alone
        (e.g. :meth:`Module.leaves_plain_purchase`)."""
        try:
            return self._taking[decisions, hooks]
        except KeyError:
            over = {id(m) for hook in hooks for m in self.overriding(hook)}
            got = self._taking[decisions, hooks] = tuple(
                m
                for m in self.modules
                if id(m) in over or not decisions.isdisjoint(refined_decisions(type(m)))
            )
            return got

    def verb_kind(self, verb: str) -> ActionKind | None:
        """The declared kind of an enabled module's verb (None: no enabled module owns it)."""
        spec = self.verb_spec(verb)
        return None if spec is None else ActionKind(spec.kind)

    def chance_handler(self, verb: str) -> Module | None:
        return self._chance.get(verb.lower())

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Violation] | None:
        asked: Iterable[Module] = self._by_rank
        by_verb = self._by_verb
        if by_verb is not None:  # a module promises the lines it claims: asked by first verb
            acts = turn.actions
            first = acts[0] if acts else None
            if not _MODULE_ACTION:
                _MODULE_ACTION.append(_later("referee.record.model").ModuleAction)
            verb = first.verb.lower() if isinstance(first, _MODULE_ACTION[0]) else ""
            told = by_verb.get(verb)
            if told is None:
                told = by_verb[verb] = tuple(
                    [
                        m
                        for m in self._by_rank
                        if (only := type(m).out_of_turn_verbs) is None or verb in only
                    ]
                )
            asked = told
        for m in asked:
            found = m.out_of_turn(state, turn)
            if found is not None:
                return found
        return None

    def display_component(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> list[Violation] | None:
        m = self.kind_handler(ref.kind)
        return None if m is None else m.display_component(state, ref, pos)

    def take_component(
        self, state: GameState, player: PlayerState, ref: ComponentRef, action: TakeMoney
    ) -> list[Violation] | None:
        m = self.kind_handler(ref.kind)
        return None if m is None else m.take_component(state, player, ref, action)

    def money_value(self, state: GameState, ref: object) -> int | None:
        """The money value of a module component (None: no money, or not a component)."""
        if not self._kinds:  # no enabled module owns a component kind
            return None
        kind = getattr(ref, "kind", None)
        if not isinstance(kind, str):
            return None
        m = self.kind_handler(kind)
        return None if m is None else m.money_value(state, ref)  # type: ignore[arg-type]

    def reshuffle(self, state: GameState, pos: Pos) -> list[Violation]:
        """The findings of the modules that override :meth:`Module.reshuffle` (the default
        finds nothing), in module order."""
        if not self.modules:
            return []
        return [v for m in self.overriding("reshuffle") for v in m.reshuffle(state, pos)]

    def removed(
        self, state: GameState, player: PlayerState, at: Coord, piece: Any
    ) -> list[Violation]:
        """The findings of the modules that override :meth:`Module.removed` (the default finds
        nothing), in module order."""
        if not self.modules:
            return []
        return [v for m in self.overriding("removed") for v in m.removed(state, player, at, piece)]

    def placed(
        self, state: GameState, player: PlayerState, at: Coord, piece: Any, how: str, pos: Pos
    ) -> None:
        """Tell the enabled modules that override :meth:`Module.placed` that a piece entered
        ``player``'s Alhambra (nothing is built when none does)."""
        asked = self.placing
        if not asked:
            return
        asked = self._placing_how.get(how, asked)  # (Module.placed_hows)
        if not asked:  # nobody acts at this kind of placement: no context built
            return
        ctx = (_CONTEXT[0] if _CONTEXT else _context_class())(state, pos)
        for m in asked:
            m.placed(ctx, player, at, piece, how)

    def scoring_parts(self, state: GameState, round_no: int) -> ScoringParts:
        """Every enabled module's scoring parts, added up in module order: what
        ``NO_PARTS + first + second + ...`` gives (``ScoringParts.__add__``), made in one pass
        (each sum made a new table of every adjustment so far: about 120 bytecodes a module
        in every scoring of a game with many modules)."""
        categories_module = _later("referee.scoring.categories")
        if not self.modules:
            return categories_module.NO_PARTS
        adj: dict[str | None, tuple[Any, ...]] = {}
        categories: tuple[Any, ...] = ()
        table: Any = None
        label: Any = None
        added = False
        for m in self.overriding("scoring_parts"):  # (the default adds nothing: None)
            got = m.scoring_parts(state, round_no)
            if got is None:
                continue
            added = True
            for k, v in got.adjustments.items():
                adj[k] = adj.get(k, ()) + tuple(v)
            categories += got.categories
            if got.table is not None:  # (the last table given, with its label)
                table, label = got.table, got.table_label
        if not added:
            return categories_module.NO_PARTS
        return categories_module.ScoringParts(adj, categories, table, label)

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """Every enabled module's lines for ``player``'s area (English, German)."""
        out: list[tuple[str, str]] = []
        for m in self.modules:
            out.extend(m.player_area(state, player))
        return out

    def market_marks(self, state: GameState, lang: str = "en") -> dict[int, str]:
        """Every enabled module's tokens on the market fields, per field index (joined by a
        space); in German (``lang="de"``) their words translated as the module's view is
        (:func:`view_terms`)."""
        out: dict[int, str] = {}
        for m in self.modules:
            marks = m.market_marks(state)
            if marks and lang != "en":
                marks = localize_view(marks, view_terms(m, lang), lang)
            for slot, text in marks.items():
                out[slot] = f"{out[slot]} {text}" if slot in out else text
        return out

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """Every enabled module's tokens on ``player``'s tiles, per cell (joined by a space)."""
        out: dict[Coord, str] = {}
        for m in self.modules:
            for at, text in m.cell_marks(state, player).items():
                out[at] = f"{out[at]} {text}" if at in out else text
        return out

    def _asked_at(self, moment: Any) -> tuple[Module, ...]:
        """The enabled modules whose ``at_moment`` may act at ``moment`` (kept per moment)."""
        asked = self._asked.get(moment)
        if asked is None:
            # (a list made in a comprehension, not a generator resumed per module: asked for
            # every moment in every game's set-up and first turns)
            mods = self.modules
            if mods:
                of = self._moments_of
                if len(of) != len(mods):  # (the list changed in place without modules_changed)
                    of = self._moments_of = tuple([moments_asked(type(m)) for m in mods])
                asked = tuple(
                    [m for m, o in zip(mods, of, strict=True) if o is None or moment in o]
                )
            else:  # nobody to ask
                asked = ()
            self._asked[moment] = asked
            # whether each of them may answer that it is idle then (:func:`idle_answers`); when
            # one cannot, the step runs without asking the others
            self._idle[moment] = bool(asked) and all(idle_answers(type(m), moment) for m in asked)
        return asked

    def _kept_at(self, moment: Any) -> tuple[str, ...] | None:
        """:attr:`kept_start`'s answer at ``moment``: the names of the modules asked then that
        keep their idle answer there (:attr:`Module.kept_idle`), when one does and each module
        asked then answers :meth:`Module.idle_at` (the others are :meth:`_asked_beside`);
        ``()`` when nobody is asked; else None."""
        asked = self._asked_at(moment)
        if not asked:
            return ()
        keep = [m.name for m in asked if moment in type(m).kept_idle]
        if keep and self._idle[moment]:  # (each asked answers idle_at then: read or asked)
            return tuple(keep)
        return None

    def _read(
        self, moment: Any, kept: tuple[str, ...] | None
    ) -> tuple[tuple[str, Module], ...] | None:
        """:attr:`read_start`'s answer at ``moment`` for the ``kept`` names (:meth:`_kept_at`)."""
        if kept is None:
            return None
        return tuple((m.name, m) for m in self._asked_at(moment) if m.name in kept)

    def _asked_beside(self, moment: Any, kept: tuple[str, ...] | None) -> tuple[Module, ...]:
        """:attr:`ask_start`'s answer at ``moment``: the modules asked then that are not among
        the ``kept`` names (:meth:`_kept_at`; none when ``kept`` is None)."""
        if kept is None:
            return ()
        return tuple(m for m in self._asked_at(moment) if m.name not in kept)

    def _idle_unkept(
        self, moment: Any, read: tuple[tuple[str, Module], ...] | None
    ) -> tuple[Module, ...]:
        """:attr:`start_idle`'s answer at ``moment`` given its ``read`` (:meth:`_read`): the
        modules asked then when none keeps an answer (``read`` None) and each answers
        :meth:`Module.idle_at` then; else ``()``."""
        if read is not None:
            return ()
        asked = self._asked_at(moment)
        return asked if self._idle[moment] else ()

    def acting_at(self, moments: tuple[Any, ...]) -> bool:
        """Whether :meth:`at` asks an enabled module at one of ``moments`` (worked out once per
        game and tuple of moments): when not, the engine may leave those calls out (the base
        turn's one-pass paths in ``core._turn``)."""
        got = self._acting.get(moments)
        if got is None:
            got = self._acting[moments] = any(self._asked_at(m) for m in moments)
        return got

    def at(self, moment: Any, state: GameState, pos: Pos | None = None) -> None:
        """Run every enabled module's step at ``moment`` (in refinement order); ``pos`` is the
        record line the moment belongs to, when there is one (``ctx.pos``). Only the modules
        whose ``at_moment`` may act then are asked (:func:`moments_asked`); when each of them
        answers :meth:`Module.idle_at` and every answer is yes, nothing runs (the step would
        change nothing; the change counter does not move)."""
        asked = self._asked.get(moment)
        if asked is None:
            asked = self._asked_at(moment)
        if not asked:  # no enabled module acts at this moment: nothing to build or call
            return
        if self._idle[moment]:  # each of them can tell that it has nothing to do now
            for m in asked:
                if not m.idle_at(state, moment):
                    break
            else:  # every one idle (Module.idle_at): the step would change nothing
                return
        if self.counting:  # a module step (GameState.changes: kept when a module reads it)
            if state.at_next_change is not None:
                state.before_change(None)
            state.changes += 1
        if pos is None:  # the state's kept context (GameState.context), else a new one
            ctx = state.context
            if ctx is None:
                ctx = (_CONTEXT[0] if _CONTEXT else _context_class())(state)
        else:
            ctx = (_CONTEXT[0] if _CONTEXT else _context_class())(state, pos)
        for m in asked:
            m.at_moment(ctx, moment)

    def run_at(self, moment: Any, state: GameState) -> None:
        """:meth:`at` when one of the modules asked at ``moment`` has already answered no
        (:meth:`Module.idle_at`; ``core._turn``, :attr:`ask_start`): the step runs without
        asking again (at() after its questions; kept apart, not called from at(), which is
        asked at many moments of every module turn)."""
        if self.counting:  # a module step (GameState.changes: kept when a module reads it)
            if state.at_next_change is not None:
                state.before_change(None)
            state.changes += 1
        ctx = state.context  # the state's kept context (GameState.context), else a new one
        if ctx is None:
            ctx = (_CONTEXT[0] if _CONTEXT else _context_class())(state)
        for m in self._asked[moment]:
            m.at_moment(ctx, moment)

    def views(self, state: GameState, lang: str = "en") -> dict[str, dict[str, Any]]:
        """Every enabled module's :meth:`Module.view` that shows something, by module name;
        in German (``lang="de"``) its keys and the phrases of its values translated through
        the module's :attr:`Module.view_terms_de` and :data:`VIEW_TERMS_DE`."""
        out: dict[str, dict[str, Any]] = {}
        for m in self.modules:
            v = m.view(state)
            if v:
                out[m.name] = localize_view(v, view_terms(m, lang), lang)
        return out


# ----------------------------------------------------------------------------- views in German

VIEW_TERMS_DE: dict[str, str] = {
    "after turn": "nach Zug",
    "built": "gebaut",
    "in the reserve": "in der Reserve",
    "in the tower": "im Turm",
    "in the deck": "im Stapel",
    "in the display": "in der Auslage",
    "in the bag": "im Beutel",
    "out of the game": "aus dem Spiel",
    "display": "Auslage",
    "discard": "Ablagestapel",
    "played": "gespielt",
    "revealed": "aufgedeckt",
    "face down": "verdeckt",
    "scored": "gewertet",
    "scoring": "Wertung",
    "options": "Optionen",
    "stack": "Stapel",
    "left": "übrig",
    "none": "keine",
    "open": "offen",
    "total": "Summe",
    "points": "Punkte",
}
"""German for view words that several modules use (a module's own terms come first)."""


def view_terms(module: Module, lang: str) -> dict[str, str]:
    """The translation table of ``module``'s view into ``lang`` (empty for English)."""
    if lang != "de":
        return {}
    return {**VIEW_TERMS_DE, **module.view_terms_de}


def _phrase_pattern(terms: dict[str, str]) -> Any:
    import re

    words = sorted(terms, key=len, reverse=True)  # the longest phrase wins
    # whole words only, and never inside a record token (``task:4``, ``floor=none``, ``@1,0``)
    return re.compile(r"(?<![\w=:@-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w=:@-])")


def localize_view(view: Any, terms: dict[str, str], lang: str = "en") -> Any:
    """``view`` in ``lang``: a value given in both languages (``{"en": ..., "de": ...}``) is
    shown in ``lang``; keys and the phrases inside string values are translated by ``terms``
    (English phrase -> translation; whole words only). The ``labels`` stay as they are (they
    hold both languages already)."""
    pattern = _phrase_pattern(terms) if terms else None

    def text(value: str) -> str:
        if pattern is None:
            return value
        if value in terms:
            return terms[value]
        return str(pattern.sub(lambda m: terms[m.group(1)], value))

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, dict) and set(value) == {"en", "de"}:
            return value.get(lang, value["en"])
        if isinstance(value, dict):
            return {
                (text(k) if isinstance(k, str) else k): (v if k == "labels" else walk(v))
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [walk(v) for v in value]
        return value

    players = view.get("players") if isinstance(view, dict) else None
    out = walk({k: v for k, v in view.items() if k != "players"})
    if isinstance(players, dict):  # player names are names, never translated
        out["players"] = {name: walk(values) for name, values in players.items()}
    return out
