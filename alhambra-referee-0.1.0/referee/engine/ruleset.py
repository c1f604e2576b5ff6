"""The rules of one game as named decisions that modules refine.

Every rule question the engine asks ("how much may a take add up to?", "which currencies may
pay for this field?", "was this payment exact?", "what breaks the building rules here?") is a
*decision* with a stable name (:class:`Decision`). A :class:`Ruleset` answers it in two layers:

1. the **base layer**: the rulebook's answer, parametrised by the game's rule profile
   (:mod:`referee.profiles`): the profile is the base layer's data;
2. the **refinements** of the enabled modules, in a declared order: each gets the answer so far
   and returns its own, so it may add a condition, relax one (drop a problem), or replace the
   answer outright, for one kind of piece, one player or one moment, as its rule says.

A module declares a refinement with the :func:`refines` decorator on a method::

    class CityGates(BundledModule):
        @refines(Decision.PLACE_PROBLEMS)
        def gates_open_walls(self, ctx, problems, *, player, at, piece):
            if is_gate(piece):
                return [p for p in problems if p.code != "PLACE-WALL"]
            return problems

and orders itself against other modules with ``Module.after`` (names of modules whose
refinements must run first). Every consumer (the checker, the legal-move generator, ``explain``,
``legal``, the simulator) asks the same :class:`Ruleset`, so a refinement is written once.

What each decision receives and returns is documented on :class:`Decision`; the keyword
arguments are fixed per decision so that refinements of different modules compose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from referee.interpreted import interpreted_class

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final, TypeVar

    from referee.engine.extensions import Module
    from referee.profiles import RuleProfile

    F = TypeVar("F", bound=Callable[..., Any])


@interpreted_class  # compiled: a Python class (its names are read by vars(), modules read them)
class Decision:
    """The named rule decisions. Value types and keyword arguments:

    * ``take.limit`` -> int: the largest sum several money cards taken at once may reach
      ("mehrere Geldkarten, wenn ihre Summe nicht größer als 5 ist"). Args: ``player``.
    * ``pay.price`` -> int: what a purchase costs (the printed price; e.g. a building site is
      bought for half). Args: ``player``, ``purchase``, ``printed``.
    * ``pay.currencies`` -> frozenset[Currency]: the currencies whose cards may pay for a tile of
      the market field ``field`` ("in der Währung des Feldes"). Args: ``player``, ``field``,
      ``purchase`` (the :class:`~referee.engine.purchase.Purchase` being made).
    * ``pay.value`` -> int: what the payment counts for. Args: ``player``, ``purchase``,
      ``counted`` (the money cards that count).
    * ``pay.exact`` -> bool: whether the payment was exact ("genau passend"), which gives the
      player another action. Args: ``player``, ``purchase``, ``value``, ``price``.
    * ``pay.problems`` -> list[Problem]: problems of how a purchase was paid beyond currency and
      amount (e.g. currencies that may not be mixed). Args: ``player``, ``purchase``.
    * ``place.problems`` -> list[BuildingProblem]: what breaks the building rules when
      ``piece`` enters ``player``'s Alhambra at ``at``. Args: ``player``, ``at``, ``piece``,
      ``how`` ("place", "build" from the reserve, "swap", "distribute").
    * ``remove.problems`` -> list[BuildingProblem]: what breaks the building rules when the
      piece at ``at`` leaves. Args: ``player``, ``at``, ``piece``.
    * ``turn.extra_action`` -> bool: whether an exact purchase gives another action. Args:
      ``player``, ``purchase``.
    * ``display.size`` -> int: how many cards the money display holds (4).
    * ``display.occupied`` -> int: how many places of the display are taken (money cards plus
      module cards lying there). Args: none.
    * ``market.size`` -> int: market fields (4).
    * ``start.money`` -> int: the start money threshold (20).
    * ``reserve.limit`` -> int | None: the most tiles a reserve may hold (None: no limit).
      Args: ``player``.
    * ``distribution.money`` -> int | None: how much money of ``currency`` counts for
      ``player`` in the leftover distribution at the game end ("wer das meiste Geld dieser
      Währung besitzt"); None: not known (unknown cards or components). Base: the hand's money
      cards of that currency. Args: ``player``, ``currency``.
    """

    TAKE_LIMIT: Final = "take.limit"
    PAY_PRICE: Final = "pay.price"
    PAY_CURRENCIES: Final = "pay.currencies"
    PAY_VALUE: Final = "pay.value"
    PAY_EXACT: Final = "pay.exact"
    PAY_PROBLEMS: Final = "pay.problems"
    PLACE_PROBLEMS: Final = "place.problems"
    REMOVE_PROBLEMS: Final = "remove.problems"
    TURN_EXTRA_ACTION: Final = "turn.extra_action"
    DISPLAY_SIZE: Final = "display.size"
    DISPLAY_OCCUPIED: Final = "display.occupied"
    MARKET_SIZE: Final = "market.size"
    START_MONEY: Final = "start.money"
    RESERVE_LIMIT: Final = "reserve.limit"
    DISTRIBUTION_MONEY: Final = "distribution.money"


DECISIONS: frozenset[str] = frozenset(
    v for k, v in vars(Decision).items() if k.isupper() and isinstance(v, str)
)
"""Every decision's name. (Plain strings, not an Enum: a decision is looked up on every rule
question, and a str hashes in C.)"""

CONSTANT_DECISIONS: frozenset[str] = frozenset(
    {
        Decision.TAKE_LIMIT,
        Decision.DISPLAY_SIZE,
        Decision.MARKET_SIZE,
        Decision.START_MONEY,
        Decision.RESERVE_LIMIT,
    }
)
"""Decisions whose base answer depends on the profile only (no argument, no state)."""

_REFINES_ATTR = "__refines__"


def refines(decision: str) -> Callable[[F], F]:
    """Method decorator: this module method refines ``decision``.

    The method is called as ``method(ctx, result, **args)`` and returns the refined result.
    """
    name = str(decision)
    if name not in DECISIONS:
        raise ValueError(f"no rule decision {name!r} (known: {', '.join(sorted(DECISIONS))})")

    def mark(func: F) -> F:
        marks: list[str] = list(getattr(func, _REFINES_ATTR, ()))
        marks.append(name)
        setattr(func, _REFINES_ATTR, tuple(marks))
        return func

    return mark


@dataclass(frozen=True, slots=True)
class Refinement:
    """One module's refinement of one decision."""

    decision: str
    module: str
    func: Callable[..., Any]


def refinements_of(module: Module) -> list[Refinement]:
    """The refinements a module instance declares (methods marked with :func:`refines`)."""
    return [
        Refinement(decision, module.name, getattr(module, attr))
        for attr, decisions in _refining_methods(type(module))
        for decision in decisions
    ]


_REFINING: dict[type, tuple[tuple[str, tuple[str, ...]], ...]] = {}


def _refining_methods(cls: type) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The names of ``cls``'s methods marked with :func:`refines`, with their decisions: found
    once per class (``dir`` and a look-up per attribute are the cost of every game's start)."""
    found = _REFINING.get(cls)
    if found is None:
        out: list[tuple[str, tuple[str, ...]]] = []
        for attr in dir(cls):
            marks = getattr(getattr(cls, attr, None), _REFINES_ATTR, None)
            if marks:
                out.append((attr, tuple(marks)))
        found = _REFINING[cls] = tuple(out)
    return found


def refined_decisions(cls: type) -> frozenset[str]:
    """The decisions a module class refines (its methods marked with :func:`refines`)."""
    return frozenset(d for _attr, decisions in _refining_methods(cls) for d in decisions)


def module_order(modules: Sequence[Module]) -> list[Module]:
    """The modules in refinement order: each after the modules its ``after`` names (when they
    are enabled), otherwise in the order given. A cycle is broken by the given order."""
    by_name = {m.name: m for m in modules}
    done: list[Module] = []
    visiting: set[str] = set()

    def visit(m: Module) -> None:
        if m in done or m.name in visiting:
            return
        visiting.add(m.name)
        for before in getattr(m, "after", ()):
            dep = by_name.get(before)
            if dep is not None:
                visit(dep)
        visiting.discard(m.name)
        done.append(m)

    for m in modules:
        visit(m)
    return done


_GEOMETRY: list[Any] = []
_TILE_KIND: list[type] = []


def _tile_kind() -> type:
    """``referee.catalogue.TileKind``, imported on first use."""
    if not _TILE_KIND:
        from referee.catalogue import TileKind

        _TILE_KIND.append(TileKind)
    return _TILE_KIND[0]


def _geometry_rules() -> Any:
    """``referee.geometry.rules``, imported on first use (kept out of this module's imports)."""
    if not _GEOMETRY:
        from referee.geometry import rules

        _GEOMETRY.append(rules)
    return _GEOMETRY[0]


@cache
def _only(field: Any) -> frozenset[Any]:
    """``{field}``, one frozen set per currency (an answer is a value: shared, not rebuilt)."""
    return frozenset({field})


class BaseRules:
    """The base layer: the rulebook's answer to each decision, read from the rule profile.

    Methods are named after the decision (dots become underscores) and take ``(ctx, **args)``.
    The purchase answers (``pay.*``, ``turn.extra_action``) read the profile and their value
    arguments only (never ``ctx``, ``player`` or ``purchase``), so a game may keep them
    (:attr:`Ruleset.memo`).
    """

    def __init__(self, profile: RuleProfile) -> None:
        self.profile = profile

    def take_limit(self, ctx: Any, **_: Any) -> int:
        return 5  # "mehrere Geldkarten, wenn ihre Summe nicht größer als 5 ist" (Geld nehmen)

    def pay_price(self, ctx: Any, *, printed: int, **_: Any) -> int:
        return printed  # "mindestens den aufgedruckten Preis" (Gebäude kaufen)

    def pay_currencies(self, ctx: Any, *, field: Any, **_: Any) -> frozenset[Any]:
        return _only(field)  # "in der Währung ... des Feldes" (Gebäude kaufen)

    def pay_value(self, ctx: Any, *, counted: Iterable[Any], **_: Any) -> int:
        return sum([c.value for c in counted])

    def pay_exact(self, ctx: Any, *, value: int, price: int, **_: Any) -> bool:
        return value == price  # "genau passend"

    def pay_problems(self, ctx: Any, **_: Any) -> list[Any]:
        return []

    def place_problems(
        self, ctx: Any, *, player: Any, at: Any, piece: Any, how: str = "place", **_: Any
    ) -> list[Any]:
        rules = _GEOMETRY[0] if _GEOMETRY else _geometry_rules()
        if how == "swap":
            found: list[Any] = rules.swap_problems(player.alhambra, at, piece)
        else:
            found = rules.placement_problems(player.alhambra, at, piece)
        if not found:
            return found
        # a piece's own data (geometry.pieces); a catalogue tile has none (no attribute lookup)
        applies = None if type(piece) is _tile_kind() else getattr(piece, "building_rules", None)
        if applies is not None:
            found = [p for p in found if p.code in applies]
        return found

    def remove_problems(self, ctx: Any, *, player: Any, at: Any, **_: Any) -> list[Any]:
        return _geometry_rules().removal_problems(player.alhambra, at)

    def turn_extra_action(self, ctx: Any, **_: Any) -> bool:
        return True  # "ist man sogar noch einmal an der Reihe"

    def display_size(self, ctx: Any, **_: Any) -> int:
        return 4  # "4 Geldkarten offen" (Spielvorbereitung)

    def display_occupied(self, ctx: Any, **_: Any) -> int:
        return display_cards(ctx.state)

    def market_size(self, ctx: Any, **_: Any) -> int:
        return 4

    def start_money(self, ctx: Any, **_: Any) -> int:
        return 20  # "bis der Gesamtwert 20 oder mehr beträgt" (Spielvorbereitung)

    def reserve_limit(self, ctx: Any, **_: Any) -> int | None:
        return self.profile.reserve_limit

    def distribution_money(self, ctx: Any, *, player: Any, currency: Any, **_: Any) -> int | None:
        if player.hand_unknown:
            return None  # "wer ... das meiste Geld" cannot be told with unknown cards
        return sum(c.value * n for c, n in player.hand.items() if c.currency is currency)


def display_cards(state: Any) -> int:
    """The base answer to ``display.occupied``: the money cards lying in the display (a
    function of the state alone, so a game no module refines it for asks it without a
    context)."""
    return len(state.display)


def _constant(value: Any) -> Callable[..., Any]:
    def answer(ctx: Any, **_: Any) -> Any:
        return value

    return answer


def _chained(
    base: Callable[..., Any], refinements: tuple[Callable[..., Any], ...]
) -> Callable[..., Any]:
    # a question without arguments (e.g. ``display.occupied``) is passed on without them: the
    # same calls, without building a keyword dict for each link
    if len(refinements) == 1:
        only = refinements[0]

        def answer_one(ctx: Any, **args: Any) -> Any:
            if args:
                return only(ctx, base(ctx, **args), **args)
            return only(ctx, base(ctx))

        return answer_one

    def answer(ctx: Any, **args: Any) -> Any:
        if args:
            result = base(ctx, **args)
            for func in refinements:
                result = func(ctx, result, **args)
            return result
        result = base(ctx)
        for func in refinements:
            result = func(ctx, result)
        return result

    return answer


_BASE_MEMOS: dict[RuleProfile, dict[tuple[Any, ...], Any]] = {}
""":attr:`Ruleset.memo` per rule profile (a handful of profiles, a few hundred answers each)."""


_BASE_RULESETS: dict[RuleProfile, Ruleset] = {}
""":meth:`Ruleset.of` for games without modules, per rule profile."""


_BASE_LAYERS: dict[RuleProfile, BaseRules] = {}
""":class:`BaseRules` per rule profile (it holds the profile alone: games share it)."""


@dataclass(frozen=True, slots=True)
class _Template:
    """What a :class:`Ruleset` derives from its profile and its modules' classes alone, worked
    out once per combination (a game's start paid it in every module game): the refinement
    order, per decision the refining methods (module index in that order, attribute name), the
    base layer's answers and the constants."""

    order: tuple[int, ...]
    chain: tuple[tuple[str, tuple[tuple[int, str], ...]], ...]
    refined: frozenset[str]
    constants: dict[str, Any]
    base_answers: dict[str, Callable[..., Any]]
    base_only: dict[str, Callable[..., Any]]


_TEMPLATES: dict[tuple[Any, ...], _Template] = {}


def _template(profile: RuleProfile, modules: Sequence[Module]) -> _Template:
    key = (
        profile,
        tuple((type(m), m.name, tuple(getattr(m, "after", ()))) for m in modules),
    )
    got = _TEMPLATES.get(key)
    if got is not None:
        return got
    base = _BASE_LAYERS.get(profile)
    if base is None:
        base = _BASE_LAYERS[profile] = BaseRules(profile)
    ordered = module_order(modules)
    order = tuple(next(i for i, m in enumerate(modules) if m is o) for o in ordered)
    chain: dict[str, list[tuple[int, str]]] = {}
    for j, m in enumerate(ordered):
        for attr, decisions in _refining_methods(type(m)):
            for decision in decisions:
                chain.setdefault(decision, []).append((j, attr))
    constants = {
        d: getattr(base, d.replace(".", "_"))(None) for d in CONSTANT_DECISIONS if d not in chain
    }
    base_answers: dict[str, Callable[..., Any]] = {}
    for d in DECISIONS:
        if d in constants:
            base_answers[d] = _constant(constants[d])
        elif d not in chain:
            base_answers[d] = getattr(base, d.replace(".", "_"))
    base_only = dict(base_answers)
    for d in chain:
        base_only[d] = getattr(base, d.replace(".", "_"))
    got = _TEMPLATES[key] = _Template(
        order,
        tuple((d, tuple(refs)) for d, refs in chain.items()),
        frozenset(chain),
        constants,
        base_answers,
        base_only,
    )
    return got


class Ruleset:
    """The decisions of one game: the profile's base layer refined by the enabled modules."""

    constants: dict[str, Any]
    answer: dict[str, Callable[..., Any]]

    def __init__(self, profile: RuleProfile, modules: Sequence[Module] = ()) -> None:
        self.profile = profile
        # what the profile and the modules' classes decide is worked out once per combination
        # (:func:`_template`); a game binds only its module instances' refining methods
        t = _template(profile, modules)
        self.base = _BASE_LAYERS[profile]
        self.modules = [modules[i] for i in t.order]
        self._chain: dict[str, list[Refinement]] = {
            d: [
                Refinement(d, self.modules[j].name, getattr(self.modules[j], attr))
                for j, attr in refs
            ]
            for d, refs in t.chain
        }
        # the decisions an enabled module refines (a base-only fast path asks this first)
        self.refined: frozenset[str] = t.refined
        # decisions whose base answer is a constant of the profile and that no module refines:
        # answered without a call (the table sizes, start money, take and reserve limits);
        # read-only for callers (a fast path that needs no context)
        self.constants = t.constants
        # per decision: the one callable that answers it, ``answer[d](ctx, **args)``. When no
        # enabled module refines the decision it is the base layer's method itself (or the
        # constant), so a base-only game pays one call per rule question and nothing for the
        # module platform; otherwise it runs the base layer and the refinements in order.
        self.answer = dict(t.base_answers)
        # per decision: the base layer's answer alone (refinements left out), for a one-pass
        # path whose case every refining module leaves alone (``Module.leaves_plain_purchase``)
        self.base_answer: dict[str, Callable[..., Any]] = t.base_only
        for d, found in self._chain.items():
            self.answer[d] = _chained(
                getattr(self.base, d.replace(".", "_")), tuple(r.func for r in found)
            )
        # ``display.occupied``'s refinements in order (empty: none), for the engine's one
        # question of it without arguments (``core._occupied``, asked before every card turned
        # up): the base answer is ``display_cards(state)`` for every profile, so the engine
        # passes it through these without the chain's calls
        self.occupied: tuple[Callable[..., int], ...] = tuple(
            r.func for r in self._chain.get(Decision.DISPLAY_OCCUPIED, ())
        )
        # the same, as the engine's question reads them (``core._occupied``): per refinement,
        # its module's name, the attribute of its part whose pieces it promises to add
        # (``Module.display_places``; "": no promise, called) and the refinement
        self.occupied_reads: tuple[tuple[str, str, Callable[..., int]], ...] = tuple(
            [
                (r.module, _display_attr(r.func), r.func)
                for r in self._chain.get(Decision.DISPLAY_OCCUPIED, ())
            ]
        )
        # answers a base-only fast path keeps (``purchase.purchase_plain``): only for decisions
        # no module refines, whose base answer depends on the profile and the values in the key
        # alone (see :class:`BaseRules`), so games of one profile share them; keys are tuples
        # led by a str naming their use
        self.memo: dict[tuple[Any, ...], Any] = _BASE_MEMOS.setdefault(profile, {})

    @classmethod
    def of(cls, profile: RuleProfile, modules: Sequence[Module] = ()) -> Ruleset:
        """The ruleset of a game: built for the modules, or, for a game without modules, the
        one shared base ruleset of the profile (it holds no state of a game: read-only
        tables and the profile's :attr:`memo`; building one costs as much as 50 turns' checks).
        """
        if modules:
            return cls(profile, modules)
        got = _BASE_RULESETS.get(profile)
        if got is None:
            got = _BASE_RULESETS[profile] = cls(profile)
        return got

    def decide(self, decision: str, ctx: Any, **args: Any) -> Any:
        """The answer to ``decision``: the base layer's, passed through every refinement."""
        return self.answer[decision](ctx, **args)

    def refined_by(self, decision: str) -> list[str]:
        """The modules refining ``decision``, in the order they run."""
        return [r.module for r in self._chain.get(decision, ())]


def _display_attr(func: Callable[..., int]) -> str:
    """The attribute of a module's part that its refinement ``func`` of ``display.occupied``
    promises to add (:attr:`~referee.engine.extensions.Module.display_places`, naming that
    method), else ``""``."""
    promise = getattr(type(getattr(func, "__self__", None)), "display_places", None)
    if promise is None or getattr(func, "__name__", None) != promise[0]:
        return ""  # (no attribute has this name: the engine calls the refinement)
    return str(promise[1])


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
