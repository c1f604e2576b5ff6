"""What every expansion module of ``referee/modules/`` shares: its YAML data, its scratch space in
the game state, its rules, and small helpers for reading a module verb's arguments.

A module is one unit: ``referee/modules/<name>.py`` (a :class:`~referee.engine.Module` subclass,
registered with :func:`bundled`) plus ``referee/modules/<name>.yaml`` (its component data, each
fact marked ``verified: true`` or ``false``). See ``docs/modules.md``.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from itertools import compress, repeat
from operator import itemgetter

from referee.catalogue import SIDES, BuildingType, MoneyCard, TileKind
from referee.engine.extensions import MODULES, Module, acts_at, register_module
from referee.engine.fmt import fmt_ref
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment, Settle
from referee.messages import register_both
from referee.record.model import (
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    PlayerRef,
    Pos,
    TileRef,
    Turn,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    from referee.catalogue import Side

    M = TypeVar("M", bound=type[Module])
    C = TypeVar("C")

MODULE_DIR = os.path.dirname(os.path.realpath(__file__))

TYPE_LETTER: dict[BuildingType, str] = {t: t.value for t in BuildingType}
"""Each building type's letter (its ``value``) by a dict subscript: ``.value`` costs two
Python-level calls (the enum's property), on paths a module asks at purchases and scorings."""
"""The folder of the bundled modules and their YAML files (a plain name: a module game's start-up
need not import ``pathlib``)."""


@cache
def module_data(name: str) -> dict[str, Any]:
    """The parsed ``<name>.yaml`` next to this file (read once; from the cache of bundled data
    when the text is the same as last time)."""
    from referee.datacache import load_yaml

    path = os.path.join(MODULE_DIR, f"{name}.yaml")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    data = load_yaml("safe_load", text, partial(_safe_load, path))
    if not isinstance(data, dict):  # pragma: no cover - our own files
        raise ValueError(f"{name}.yaml: a mapping expected")
    return data


def _safe_load(path: str, text: str) -> Any:
    import io

    import yaml

    stream = io.StringIO(text)
    stream.name = path  # what a YAML error names, as for the file
    return yaml.safe_load(stream)


class Scratch:
    """A module's own part of the game state (``state.modules[name]``): copied with the state."""

    def copy(self) -> Scratch:
        """A deep copy, the same as ``copy.deepcopy(self)`` gives (aliases kept), made by kind:
        see :func:`_deep_copy`."""
        return _deep_copy(self, {})


# How :func:`_deep_copy` copies a value of each type (found once per type):
_ATOM = 0  # immutable: the value itself (deepcopy's atomic types, Enum members)
_LIST = 1
_DICT = 2
_TUPLE = 3  # a plain tuple: the same tuple when no item changes, as deepcopy
_SET = 4
_FROZENSET = 5
_COUNTER = 6
_OBJECT = 7  # a plain class instance (no slots, no copy or pickle hooks): its __dict__
_NAMEDTUPLE = 8
_HOOK = 9  # the type's own __deepcopy__
_OTHER = 10  # anything else: copy.deepcopy
_FROZEN = 11  # a frozen dataclass with slots: its fields, as its pickle state gives them
_KINDS: dict[type, int] = {
    type(None): _ATOM,
    int: _ATOM,
    float: _ATOM,
    bool: _ATOM,
    complex: _ATOM,
    str: _ATOM,
    bytes: _ATOM,
    range: _ATOM,
    type: _ATOM,
    list: _LIST,
    dict: _DICT,
    tuple: _TUPLE,
    set: _SET,
    frozenset: _FROZENSET,
    Counter: _COUNTER,
}


_ATOMS: set[type] = {t for t, k in _KINDS.items() if k == _ATOM} | {
    type(EMPTY),  # each one's __deepcopy__ returns the value itself
    MoneyCard,
    TileKind,
}
"""The types whose values are their own deep copy (Enum classes are added when first met)."""


_FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each frozen dataclass met (:data:`_FROZEN`), in their order."""


def _made_by_dataclasses(fn: object, name: str) -> bool:
    """Whether ``fn`` is the pickle hook ``dataclasses`` gives a frozen class with slots (told by
    its own module and name, without reading the module's private names: on a Python where
    they differ, such classes go to ``copy.deepcopy``, which gives the same copy)."""
    return getattr(fn, "__module__", None) == "dataclasses" and (
        getattr(fn, "__qualname__", None) == name
    )


def _kind(cls: type) -> int:
    import copyreg
    import enum

    table: dict[type, Any] = copy._deepcopy_dispatch  # type: ignore[attr-defined]
    own = table.get(cls)
    if own is copy._deepcopy_atomic or issubclass(cls, type):  # type: ignore[attr-defined]
        kind = _ATOM
    elif own is not None or cls in copyreg.dispatch_table:
        kind = _OTHER
    elif issubclass(cls, enum.Enum) and cls.__deepcopy__ is enum.Enum.__deepcopy__:
        kind = _ATOM  # Enum.__deepcopy__ returns the member itself
    elif getattr(cls, "__deepcopy__", None) is not None:
        kind = _HOOK
    elif (
        issubclass(cls, tuple)
        and hasattr(cls, "_fields")
        and cls.__reduce_ex__ is tuple.__reduce_ex__
        and cls.__reduce__ is tuple.__reduce__
        and "__getstate__" not in vars(cls)
        and "__setstate__" not in vars(cls)
        and cls.__new__ is not tuple.__new__
    ):
        kind = _NAMEDTUPLE  # a NamedTuple: rebuilt from its items, as its __getnewargs__ does
    elif (
        cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and _made_by_dataclasses(cls.__getstate__, "_dataclass_getstate")
        and _made_by_dataclasses(getattr(cls, "__setstate__", None), "_dataclass_setstate")
        and getattr(cls, "__getnewargs_ex__", None) is None
        and getattr(cls, "__getnewargs__", None) is None
        and cls.__new__ is object.__new__
    ):
        # deepcopy: ``cls.__new__``, remembered, then the list of its fields' values (deep
        # copied) set by ``object.__setattr__`` in the fields' order
        kind = _FROZEN
        _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    elif (
        cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and cls.__getstate__ is object.__getstate__  # type: ignore[attr-defined,unused-ignore]
        and getattr(cls, "__setstate__", None) is None
        and getattr(cls, "__getnewargs_ex__", None) is None
        and getattr(cls, "__getnewargs__", None) is None
        and all("__slots__" not in vars(c) for c in cls.__mro__)
        and cls.__new__ is object.__new__
    ):
        kind = _OBJECT
    else:
        kind = _OTHER
    _KINDS[cls] = kind
    if kind == _ATOM:
        _ATOMS.add(cls)
    return kind


def _deep_copy(x: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(x, memo)`` without its generic machinery for the values a module's
    scratch holds: a container of immutable values is copied in one step (a tuple of them is
    kept, as deepcopy keeps it), other containers item by item, plain objects by their
    ``__dict__``, Counters without ``__reduce_ex__``; a value seen before (an alias) is copied
    once, as deepcopy does, and a set is rebuilt from its items in their order, as deepcopy
    rebuilds it. A type not known here goes to ``copy.deepcopy`` with the same memo."""
    cls: Any = type(x)
    if cls in _ATOMS:
        return x
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _kind(cls)
        if kind == _ATOM:
            return x
    d = id(x)
    y = memo.get(d)
    if y is not None:
        return y
    atoms = _ATOMS
    if kind == _DICT:
        if atoms.issuperset(map(type, x.values())) and atoms.issuperset(map(type, x)):
            y = x.copy()
            memo[d] = y
        else:
            y = {}
            memo[d] = y
            for k, v in x.items():
                y[k if type(k) in atoms else _deep_copy(k, memo)] = (
                    v if type(v) in atoms else _deep_copy(v, memo)
                )
    elif kind == _LIST:
        if atoms.issuperset(map(type, x)):
            y = x.copy()
            memo[d] = y
        else:
            y = []
            memo[d] = y
            y.extend([v if type(v) in atoms else _deep_copy(v, memo) for v in x])
    elif kind == _TUPLE:
        if atoms.issuperset(map(type, x)):
            return x  # deepcopy keeps such a tuple, and does not remember it
        items = [v if type(v) in atoms else _deep_copy(v, memo) for v in x]
        y = memo.get(d)  # the tuple held itself
        if y is not None:
            return y
        if all(a is b for a, b in zip(items, x, strict=True)):
            return x
        y = tuple(items)
        memo[d] = y
    elif kind == _COUNTER:
        y = Counter()
        memo[d] = y
        if atoms.issuperset(map(type, x.values())) and atoms.issuperset(map(type, x)):
            dict.update(y, x)
        else:
            for k, v in x.items():
                dict.__setitem__(y, _deep_copy(k, memo), _deep_copy(v, memo))
    elif kind == _OBJECT:
        y = cls.__new__(cls)
        memo[d] = y
        y.__dict__.update(
            {k: v if type(v) in atoms else _deep_copy(v, memo) for k, v in x.__dict__.items()}
        )
    elif kind == _SET:
        y = set([_deep_copy(v, memo) for v in x])
        memo[d] = y
    elif kind == _FROZENSET:
        y = frozenset([_deep_copy(v, memo) for v in x])
        memo[d] = y
    elif kind == _NAMEDTUPLE:
        y = tuple.__new__(cls, [_deep_copy(v, memo) for v in x])
        memo[d] = y
    elif kind == _FROZEN:
        y = cls.__new__(cls)
        memo[d] = y
        values = [_deep_copy(getattr(x, name), memo) for name in _FIELDS[cls]]
        for name, value in zip(_FIELDS[cls], values, strict=True):
            object.__setattr__(y, name, value)
    elif kind == _HOOK:
        y = x.__deepcopy__(memo)
        if y is x:
            return x
        memo[d] = y
    else:
        return copy.deepcopy(x, memo)
    return y


KIT_KEYS = frozenset(
    {"page", "summary", "switches", "rule_texts", "messages", "categories", "view_terms_de"}
)
"""The keys of a module's YAML that :class:`BundledModule` reads as the module's metadata and
texts (``modules NAME --format yaml`` shows the component data without them)."""


_BESIDE: dict[type, dict[str, Any] | None] = {}


def _yaml_beside(cls: type) -> dict[str, Any] | None:
    """The YAML file beside the file that defines ``cls`` (``magisch.py`` -> ``magisch.yaml``),
    parsed (once), or None when there is none. Found once per class: a module asks for its data
    in every game, and resolving the path costs file-system calls."""
    if cls not in _BESIDE:
        _BESIDE[cls] = _find_yaml_beside(cls)
    return _BESIDE[cls]


def _find_yaml_beside(cls: type) -> dict[str, Any] | None:
    import sys

    file = getattr(sys.modules.get(cls.__module__), "__file__", None)
    if not file:
        return None
    path = os.path.splitext(os.path.realpath(file))[0] + ".yaml"
    if not os.path.exists(path):
        return None
    if os.path.dirname(path) == MODULE_DIR:
        return module_data(os.path.splitext(os.path.basename(path))[0])
    return _yaml_file(path)


@cache
def _yaml_file(path: str) -> dict[str, Any] | None:
    with open(path, encoding="utf-8") as fh:
        data = _safe_load(path, fh.read())
    return data if isinstance(data, dict) else None


def _both(value: Any) -> tuple[str, str]:
    """``{en: ..., de: ...}`` -> (English, German)."""
    return str(value["en"]), str(value["de"])


def _where(cls: type[BundledModule], text: dict[str, Any]) -> str:
    """A rule's source: the module's section, with ``part`` the part of it (``Spielmaterial``),
    or ``where`` written out when the rule stands under another heading."""
    if "where" in text:
        return str(text["where"])
    part = text.get("part")
    return f"{cls.section}: {part}" if part else cls.section


def _read_metadata(cls: type[BundledModule], data: dict[str, Any]) -> None:
    """Fill what the class does not state itself from its YAML (one source): name, aliases,
    titles, section, page, summaries, option switches and the German words of its view; then
    register its rule texts, its
    further catalogue texts and its scoring categories."""
    own = cls.__dict__
    fill: dict[str, Any] = {
        "name": data.get("module"),
        "aliases": tuple(data["aliases"]) if "aliases" in data else None,
        "title_en": data["title"]["en"] if "title" in data else None,
        "title_de": data["title"]["de"] if "title" in data else None,
        "section": section(data["section"]) if "section" in data else None,
        "page": data.get("page"),
        "summary": (data.get("summary") or {}).get("en"),
        "summary_de": (data.get("summary") or {}).get("de"),
    }
    if "view_terms_de" in data:
        fill["view_terms_de"] = {str(k): str(v) for k, v in data["view_terms_de"].items()}
    if "switches" in data:
        fill["options"] = {
            key: (str(o["default"]), tuple(o["values"]), str(o["en"]), str(o["de"]))
            for key, o in data["switches"].items()
        }
    for attr, value in fill.items():
        if value is not None and attr not in own:
            setattr(cls, attr, value)
    for code, text in (data.get("rule_texts") or {}).items():
        reasons = {r: _both(v) for r, v in (text.get("reasons") or {}).items()}
        name_en, name_de = _both(text["name"])
        msg_en, msg_de = _both(text["message"])
        register_rule(Rule(code, name_en, name_de, _where(cls, text), msg_en, msg_de), reasons)
    texts = data.get("messages") or {}
    if texts:
        register_both(
            {k: str(v["en"]) for k, v in texts.items()}, {k: str(v["de"]) for k, v in texts.items()}
        )
    for key, cat in (data.get("categories") or {}).items():
        from referee.scoring.categories import CategoryInfo, register_category

        label_en, label_de = _both(cat)
        claim = str(cat.get("claim", key))
        register_category(CategoryInfo(key, label_en, label_de, _where(cls, cat), claim))


class BundledModule(Module):
    """A module of this package: names, titles and rulebook section for ``modules`` and docs.

    A subclass takes them from the YAML beside its file (``<name>.yaml``: ``module``,
    ``aliases``, ``title``, ``section``, ``page``, ``summary``, ``switches``) unless it states
    them itself, and registers the ``rule_texts``, ``messages`` and ``categories`` written
    there (see ``docs/modules.md``)."""

    summary_de: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        data = _yaml_beside(cls)
        if data is not None and data.get("module"):
            _read_metadata(cls, data)

    title_en: ClassVar[str] = ""
    title_de: ClassVar[str] = ""
    section: ClassVar[str] = ""  # rulebook file § section heading
    page: ClassVar[int] = 0  # the rulebook page of the section: modules are listed in that order
    summary: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    scratch_type: ClassVar[type[Scratch]] = Scratch

    def data(self, state: GameState) -> Any:
        """This module's scratch space in ``state`` (created on first use)."""
        found = state.modules.get(self.name)
        if found is None:
            found = self.scratch_type()
            self.init_scratch(state, found)
            state.modules[self.name] = found
        return found

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        """Fill a fresh scratch space (players are known; setup may not be complete)."""

    @classmethod
    def yaml(cls) -> dict[str, Any]:
        """The module's YAML (beside its file): its component data under ``components``."""
        return _yaml_beside(cls) or {}

    def shown(
        self,
        table: Mapping[str, object] | None = None,
        players: Mapping[str, Mapping[str, object]] | None = None,
    ) -> dict[str, Any]:
        """A view (:meth:`view`): this module's titles as its labels, then its ``table`` and its
        ``players`` part (each left out when None)."""
        out: dict[str, Any] = {"labels": {"en": self.title_en, "de": self.title_de}}
        if table is not None:
            out["table"] = table
        if players is not None:
            out["players"] = players
        return out

    piece_type: ClassVar[type | None] = None
    """The module's piece class (a :class:`ModulePiece`), for the default :meth:`view`."""

    def view(self, state: GameState) -> dict[str, Any]:
        """The default view: the module's pieces left in the tower (when it has some) and, per
        player who has any, its pieces built (``code@x,y``) and in the reserve."""
        table: dict[str, str] = {}
        if self.tower_components():
            from referee.engine.tower import tower_total

            table["in the tower"] = str(tower_total(state, self))
        players: dict[str, dict[str, str]] = {}
        kind = self.piece_type or ModulePiece
        for p in state.players if self.piece_type is not None else ():
            built = [f"{x}@{at}" for at, x in p.alhambra.items() if isinstance(x, kind)]
            kept = [str(x) for x in p.reserve if isinstance(x, kind)]
            if built or kept:
                players[p.name] = {
                    "built": " ".join(built) or "-",
                    "in the reserve": " ".join(kept) or "-",
                }
        return self.shown(table or None, players)

    @acts_at(Moment.SETUP_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """When the setup is complete the module's part of the state exists (even if no line of
        the module came yet), so views and scorings see it."""
        if moment == Moment.SETUP_DONE:
            self.data(ctx.state)


def bundled(cls: M) -> M:
    """Class decorator: register a bundled module under its name and its aliases."""
    register_module(cls)
    for alias in getattr(cls, "aliases", ()):
        MODULES[alias.lower()] = cls
    return cls


def section(heading: str, part: str = "") -> str:
    """A rule source: ``rulebook-bigbox-de-2019.txt § HEADING: part``."""
    return f"{BIGBOX} § {heading}" + (f": {part}" if part else "")


def rule(
    code: str,
    name_en: str,
    name_de: str,
    where: str,
    msg_en: str,
    msg_de: str,
    reasons: Mapping[str, tuple[str, str]] | None = None,
) -> None:
    """Register a module rule with its texts in both languages (into the message catalogue,
    :mod:`referee.messages`); ``reasons`` maps a reason to its English and German text
    (``CODE/reason``, shown in the template's ``{detail}``)."""
    register_rule(Rule(code, name_en, name_de, where, msg_en, msg_de), reasons)


@dataclass(frozen=True, slots=True)
class ArgPlayer:
    """A player named by a module line's argument: the player (None: no such player), the
    name as written, where it stands."""

    player: PlayerState | None
    name: str
    pos: Pos


_PIECE = itemgetter(1)


def pieces_in_order(
    alhambra: Any, kind: type, order: Callable[[tuple[Any, Any]], Any]
) -> list[tuple[Any, Any]]:
    """The (cell, piece) pairs of an Alhambra whose piece is a ``kind``, sorted by ``order``:
    ``[(at, piece) for at, piece in sorted(alhambra.items(), key=order) if isinstance(piece,
    kind)]``, the pieces picked out in C first and only they sorted (the same list wherever no
    two cells share a place in ``order``, as for an order by the cell's coordinates)."""
    items = list(alhambra.items())
    found = list(compress(items, map(isinstance, map(_PIECE, items), repeat(kind))))
    found.sort(key=order)
    return found


def built_in(state: GameState, kind: type) -> bool:
    """Whether some player's Alhambra holds a piece of ``kind``. A module whose scoring line
    reads a player's own Alhambra alone (Dirk has none) asks this before it adds its category:
    without such a piece nobody has the line, so the module adds none and the scoring keeps the
    base game's path (its rows are the same)."""
    for p in state.players:
        alhambra = p.alhambra
        if alhambra is not None and any(map(isinstance, alhambra.cells.values(), repeat(kind))):
            return True
    return False


def arg_player(state: GameState, arg: GenericArg) -> ArgPlayer:
    """A player named by a verb argument (a word or a quoted name)."""
    v = arg.value
    name = v.name if isinstance(v, PlayerRef) else str(v)
    return ArgPlayer(state.player_named(name), name, arg.pos)


def interrupting_player(state: GameState, turn: Turn) -> PlayerState | None:
    """The player of an out-of-turn line (no turn number); flags UNKNOWN-PLAYER when the name
    matches nobody (then None)."""
    assert turn.player is not None
    return state.find_player(turn.player, turn.pos)


def run_verb(module: Module, state: GameState, player: PlayerState, action: ModuleAction) -> None:
    """A module's verb on a line the module reads itself (an out-of-turn line, ``out_of_turn``):
    as the engine runs a verb inside a turn -- its pure ``check_verb`` (only while checking; a
    trusted replay skips it), then its ``action`` (the change)."""
    if state.checking:
        from referee.engine.context import Context
        from referee.engine.findings import report

        report(state, module.check_verb(Context(state, action.pos), player, action))
    state.found.extend(module.action(state, player, action))


def takes_with_money(
    ctx: Any, player: PlayerState, cards: Iterable[tuple[ComponentRef, int]], last: bool = False
) -> list[Any]:
    """The legal takes of module money cards lying in the display (``cards``: each card's
    token and value): each alone, and with money cards of the display whose sum with it is at
    most the take limit ("Karten im Gesamtwert von „5”"); the module card first, or ``last``
    (Baumeister, Diamanten)."""
    from itertools import combinations

    from referee.engine.legal import card_ref
    from referee.engine.ruleset import Decision
    from referee.record.model import TakeMoney

    cards = list(cards)
    if not cards:
        return []
    limit = int(ctx.decide(Decision.TAKE_LIMIT, player=player))
    money = sorted((c for c in ctx.state.display if c is not None), key=lambda c: c.sort_key)
    out: list[Any] = []
    for ref, value in cards:
        out.append(TakeMoney((ref,)))
        for r in range(1, len(money) + 1):
            for combo in dict.fromkeys(combinations(money, r)):  # equal cards: once
                if value + sum(c.value for c in combo) <= limit:
                    more = tuple(card_ref(c) for c in combo)
                    out.append(TakeMoney((*more, ref) if last else (ref, *more)))
    return out


def action_pos(action: ModuleAction) -> Pos:
    return action.pos


def unique_names() -> list[str]:
    """The bundled modules, each once (aliases left out), in registration order."""
    seen: list[str] = []
    for cls in MODULES.values():
        if cls.name not in seen:
            seen.append(cls.name)
    return seen


def built_pieces_view(
    state: GameState,
    kind: type,
    label: str,
    score: Callable[[Any], tuple[int, str, str]],
    points_label: str = "points now",
) -> dict[str, dict[str, str]]:
    """The ``players`` part of a module's view for pieces built in an Alhambra and kept in the
    reserve (bazaars, bathhouses, wells): per player who has one, what ``score`` (the
    module's own scoring of an Alhambra: points, English text, German text) says of the built
    ones, its points, and the pieces in the reserve."""
    players: dict[str, dict[str, str]] = {}
    for p in state.players:
        built = any(isinstance(x, kind) for _c, x in p.alhambra.items())
        kept = [str(x) for x in p.reserve if isinstance(x, kind)]
        if built or kept:
            pts, en, _de = score(p.alhambra)
            players[p.name] = {
                label: en or "-",
                points_label: str(pts),
                "in the reserve": " ".join(kept) or "-",
            }
    return players


class BesideTheMarket(BundledModule):
    """A module whose tower pieces are set aside beside the market, each next to the field it
    was drawn for (E14), and sold from there (E15): Die Badehäuser, Der Wunschbrunnen. Its
    scratch keeps ``beside``, a list of (field index, piece); the module still says which
    pieces it sets aside (``market_draw``) and offers them (``side_offers``)."""

    def take_side_offer(self, state: GameState, piece: object) -> None:
        """The bought piece leaves the place beside the market."""
        beside = self.data(state).beside
        for i, (_field, lying) in enumerate(beside):
            if lying == piece:
                del beside[i]
                return

    def sim_market_draw(self, sim: Any, field: int, ref: ComponentRef) -> bool:
        """In the simulator every token of this module drawn for the market is set aside."""
        return ref.kind.lower() in self.component_kinds


NO_WALLS: frozenset[Side] = frozenset()
"""The walls of a piece that has none (a class constant: ``walls = NO_WALLS``)."""


class ModulePiece:
    """The base of a module's piece (a tile or token that lies in an Alhambra, a reserve, the
    market or among Dirk's tiles): the piece attributes the engine, the geometry and the
    reports read, as typed defaults (each the value the engine assumes for a piece without
    it), and the token spec -- ``KIND`` and :attr:`token_name` make :attr:`code` and
    ``str()``; :meth:`named_by` makes :meth:`matches`.

    A subclass is a frozen, slotted dataclass (``@dataclass(frozen=True, slots=True)``) that
    states ``KIND``, :attr:`token_name` and :meth:`named_by`, and overrides what differs: a
    building type (``type``), the walls, ``from_tower`` for a tile of the tower,
    ``rotatable``/``rotation_rule`` for turning, ``cell_fill``/``cell_label`` for drawing. Its
    class constants are written without an annotation (``from_tower = True``, ``walls =
    NO_WALLS``): ``dataclasses`` tells a ``ClassVar`` written as text from a field only when
    ``typing`` is loaded, and a check does not load it. The
    optional hooks ``stated_walls``, ``turned``, ``orientations`` and ``orient_by_token`` are
    looked up by name, so only a piece that has them defines them (``docs/modules.md``)."""

    __slots__ = ()

    KIND: ClassVar[str] = ""
    """The component kind of its token (``mg`` in ``mg:P9ne``)."""
    from_tower: ClassVar[bool] = False
    """A tile of the tower: drawn for the market, bought, given to Dirk (E5)."""
    rotatable: ClassVar[bool] = False
    """May be turned when it is built in (its walls are stated as placed; E6)."""
    rotation_rule: ClassVar[str] = "PLACE-ROTATION"
    """The rule a placing token that states other walls breaks."""
    cell_fill: ClassVar[str | None] = None
    """The colour of its cell in drawings (None: the colour of its building type)."""
    never_site: ClassVar[bool] = False
    """Never set up as a building site (Die Baustellen, "Anmerkungen": "Feldlager und Bazare
    können nicht als Baustellen eingerichtet werden")."""

    @property
    def type(self) -> BuildingType | None:
        """The building type it counts as in the majorities (None: none)."""
        return None

    @property
    def token_name(self) -> str:
        """Its token after ``KIND:`` (``P9ne``)."""
        raise NotImplementedError

    @property
    def code(self) -> str:
        return f"{self.KIND}:{self.token_name}"

    def __str__(self) -> str:
        return self.code

    def named_by(self, name: str) -> bool:
        """Whether a token of this kind (its part after ``KIND:``) names this piece."""
        raise NotImplementedError

    def matches(self, ref: ComponentRef) -> bool:
        """Whether a component token names this piece."""
        return ref.kind.lower() == self.KIND and self.named_by(ref.name)


def pile_windows(state: GameState, piles: Iterable[int]) -> list[tuple[int, int | None]] | None:
    """When a card shuffled into the money piles ``piles`` (of the five roughly equal piles of
    the setup, "Spielvorbereitung"; numbers 1-5) may turn up: per run of adjacent piles, the
    fewest and the most money cards drawn before it (``pile_tolerance`` of the profile widens
    each fifth, as for the scoring cards; None: no most, the run ends with pile 5). None when
    it cannot be told: before play, or after a reshuffle."""
    if state.reshuffles or state.setup_after <= 0:
        return None
    n = state.setup_after
    tol = state.profile.pile_tolerance
    runs: list[list[int]] = []
    for p in sorted(set(piles)):
        if runs and runs[-1][-1] == p - 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return [
        (
            max(0, math.floor((run[0] - 1) * n / 5 * (1 - tol))),
            None if run[-1] >= 5 else min(n, math.ceil(run[-1] * n / 5 * (1 + tol))),
        )
        for run in runs
    ]


def in_pile_window(k: int, windows: list[tuple[int, int | None]]) -> bool:
    """Whether a card after ``k`` money cards drawn lies in one of the windows."""
    return any(lo <= k and (hi is None or k <= hi) for lo, hi in windows)


@dataclass
class HiddenHands:
    """Cards dealt face down, per player: those the record named (``hand``, a Counter) and
    those only counted (``hand_unknown``), and whether a line stated the deal
    (``dealt_known``). A module's scratch inherits it (``class BonusScratch(HiddenHands,
    Scratch)``): bonus cards, thieves."""

    dealt_known: dict[str, bool] = field(default_factory=dict)
    hand: dict[str, Counter[Any]] = field(default_factory=dict)
    hand_unknown: dict[str, int] = field(default_factory=dict)

    def deal_unseen(self, names: Iterable[str], n: int) -> None:
        """Each player holds ``n`` cards nobody has named yet."""
        for name in names:
            self.dealt_known[name] = False
            self.hand[name] = Counter()
            self.hand_unknown[name] = n

    def hidden_parts(self, name: str, write: Callable[[Any], str]) -> tuple[list[str], int]:
        """The known face-down cards of ``name`` as ``write`` spells them (sorted), and how
        many more are unknown."""
        known = sorted(write(c) for c in self.hand.get(name, Counter()).elements())
        return known, self.hand_unknown.get(name, 0)

    def take_known(self, name: str, card: object) -> bool:
        """Take ``card`` out of the known face-down cards of ``name`` (False: not among
        them); the hand stays the same Counter."""
        held = self.hand[name]
        n = held[card]
        if n <= 0:
            return False
        held[card] = n - 1
        # in place (the same Counter stays the hand): every count not above zero dropped, as
        # ``held += Counter()`` drops them, without making the empty Counter and adding it
        for gone in [c for c, k in held.items() if not k > 0]:
            del held[gone]
        return True


def named_player(state: GameState, arg: GenericArg, pos: Pos) -> PlayerState | None:
    """The player a line names in an argument (``* bonus Anna ...``); a name that matches
    nobody is flagged (``UNKNOWN-PLAYER``, listing the players) and gives None."""
    who = arg_player(state, arg)
    if who.player is None:
        state.flag("UNKNOWN-PLAYER", who.pos or pos, who.name, players=", ".join(state.names))
    return who.player


def named_contenders(
    state: GameState, args: Iterable[GenericArg], pos: Pos, skip: PlayerState | None = None
) -> list[tuple[PlayerState, Pos]]:
    """The other players an out-of-turn line names as wanting the same moment (``vizier
    ... Ben Cem``): each with the place of its name; names that match nobody are flagged as
    in :func:`named_player`, the line's own player (``skip``) is left out. The module then
    says which of them could have acted and asks the arbiter who comes first."""
    out: list[tuple[PlayerState, Pos]] = []
    for arg in args:
        found = named_player(state, arg, pos)
        if found is not None and found is not skip:
            out.append((found, arg.pos or pos))
    return out


_MISSED_REFILL = frozenset({"REFILL-DISPLAY", "REFILL-MARKET"})


def settle_turn_over(ctx: Any, pos: Pos, code: str, player: PlayerState) -> None:
    """Settle the table before an out-of-turn line played "wenn ein Spielzug ... komplett
    beendet ist" (the vizier, a thief): the turn's refill closed, a due scoring flagged. When the
    refill is not complete yet, the scribe wrote the line before the turn's refill lines: that
    is one fault of the line, ``code`` with the reason ``before-refill``, not a refill missing
    (the refill lines may follow it)."""
    state = ctx.state
    before = len(state.found)
    ctx.settle_before(pos, Settle.TURN)
    found = state.found[before:]
    kept = [v for v in found if v.code not in _MISSED_REFILL or v.reason != "not-refilled"]
    if len(kept) < len(found):
        state.found[before:] = kept
        ctx.flag(code, pos, player.name, reason="before-refill", name=player.name)


def rebuilt(
    player: PlayerState,
    carried: list[C],
    piece_of: Callable[[C], object],
    taken: Iterable[Any],
) -> tuple[list[C], list[tuple[Any, C]]]:
    """Tokens that went into the reserve with their tile (``carried``, each naming its tile by
    ``piece_of``): a tile still in the reserve keeps its token carried; a tile built again
    brings it onto its new cell (a cell not in ``taken``). Returns (still carried, [(cell,
    item)]); an item whose tile is in neither place stays carried (e.g. in the middle of a
    swap)."""
    alh = player.alhambra
    reserve = list(player.reserve)
    used = set(taken)
    keep: list[C] = []
    landed: list[tuple[Any, C]] = []
    for item in carried:
        piece = printed_piece(piece_of(item))
        i = next((i for i, x in enumerate(reserve) if printed_piece(x) == piece), None)
        if i is not None:
            del reserve[i]
            keep.append(item)
            continue
        at = next(
            (
                c
                for c, _ in alh.items()
                if c not in used and printed_piece(alh.piece_at(c)) == piece
            ),
            None,
        )
        if at is None:
            keep.append(item)
        else:
            used.add(at)
            landed.append((at, item))
    return keep, landed


def printed_piece(piece: object) -> object:
    """A tile as printed: a piece that is a tile lying turned (Handwerker's Mosaikleger,
    "beliebig gedreht einzubauen", L3128-3129: the tile's building, only its walls turned) is
    named by its tile, so the tokens on it are the tile's whichever way it lies. Any other
    piece is itself: a piece carrying a tile as something else (a Baustellen building site,
    no building) is not the tile."""
    tile = getattr(piece, "carried_tile", None)
    if tile is not None and getattr(piece, "type", None) == getattr(tile, "type", None):
        return tile
    return piece


def follow_market(market: Any, held: dict[int, Any], under: dict[int, object]) -> None:
    """Tokens lying on market buildings (``held``: field index -> tokens, ``under``: field
    index -> the building they lie on) follow their building when market buildings change
    fields (Handwerker's Mörtelmischer: "Tauscht 2 Gebäude auf dem Bauhof miteinander aus",
    L3138-3139). The building is found by value (a copied state holds copies). Tokens whose
    building left the market stay on their field (the hooks that took it handle them, with
    :func:`field_under`), and no other tokens move onto that field; the others move.

    Most calls change nothing: every building a token lies on is still on its field (the same
    object: tiles are interned) or has left the market. That is told by one look (about 2,800
    instructions against 6,500 for the walk, issue 34); only a building found on another
    field, or an equal copy, takes :func:`_follow_moved` (tests/test_module_obstgaerten_follow.py
    holds the two equal)."""
    n = len(market)
    for slot, tile in under.items():
        if slot in held and (slot >= n or market[slot] is not tile) and tile in market:
            break
    else:
        return
    _follow_moved(market, held, under)


def _follow_moved(market: Any, held: dict[int, Any], under: dict[int, object]) -> None:
    """:func:`follow_market` without its first look: the tokens whose building changed fields
    follow it."""
    for slot, tile in under.items():  # most calls: every building still on its field
        if slot in held and not (
            slot < len(market) and (market[slot] is tile or market[slot] == tile)
        ):
            break
    else:
        return
    moved = {
        slot: tile
        for slot, tile in under.items()
        if slot in held and not (slot < len(market) and market[slot] == tile)
    }
    if not moved:
        return
    gone = {slot for slot, tile in moved.items() if tile not in market}
    free = [j for j in range(len(market)) if (j not in held or j in moved) and j not in gone]
    target: dict[int, int] = {}
    for slot, tile in moved.items():
        if slot in gone:
            continue
        j = next((j for j in free if j not in target.values() and market[j] == tile), None)
        if j is None:
            continue
        target[slot] = j
    while True:  # never onto a field whose tokens stay
        stay = set(moved) - set(target)
        kept = {slot: j for slot, j in target.items() if j not in stay}
        if kept == target:
            break
        target = kept
    if not target:
        return
    tokens = {slot: held.pop(slot) for slot in target}
    pieces = {slot: under.pop(slot) for slot in target}
    for slot, j in target.items():
        held[j] = tokens[slot]
        under[j] = pieces[slot]


def field_under(held: dict[int, Any], under: dict[int, object], slot: int, piece: object) -> int:
    """The field whose tokens lie on ``piece``, taken from field ``slot``: the field itself,
    unless the building came there after its tokens were laid (market buildings swapped)."""
    # a building bought as a module piece lying on it (a Baustellen site) is named by its tile
    tile = getattr(piece, "carried_tile", None)
    if slot in under and (under[slot] == piece or (tile is not None and under[slot] == tile)):
        return slot
    return next(
        (
            s
            for s, t in under.items()
            if (t == piece or (tile is not None and t == tile)) and s in held
        ),
        slot,
    )


def token_text(value: object) -> str:
    """A line's argument as the record wrote it, for a message: a component ``kind:name``, a
    tile as ``fmt_ref`` spells it, a money card's code (``?`` unknown), a player's name, else
    the word or number itself (the copies of this in the modules, once)."""
    if isinstance(value, GenericArg):
        value = value.value
    if isinstance(value, ComponentRef | TileRef):
        return fmt_ref(value)
    if isinstance(value, CardRef):
        return "?" if value.card is None else value.card.code
    if isinstance(value, PlayerRef):
        return value.name
    return str(value)


def market_probes(
    ctx: Any, player: PlayerState, paid: Iterable[Any] = (), priced: bool = False
) -> list[tuple[Any, Any, frozenset[Any], int]]:
    """Each building on the market as ``player`` would buy it paying ``paid`` (a module's
    tokens): its field's currency, the tile, the currencies that may pay and the price, as the
    purchase pipeline decides them -- the loop a module's ``legal_actions`` runs before it
    lists its payments. Only base tiles, unless ``priced`` (then any piece with a price)."""
    from referee.catalogue import Currency, TileKind
    from referee.engine.actions.purchase import plan_purchase
    from referee.engine.legal import tile_ref
    from referee.engine.ruleset import Decision
    from referee.record.model import Buy

    out: list[tuple[Any, Any, frozenset[Any], int]] = []
    for i, tile in enumerate(ctx.state.market):
        if not (hasattr(tile, "price") if priced else isinstance(tile, TileKind)):
            continue
        cur = Currency.of_field(i + 1)
        probe = plan_purchase(ctx.state, player, Buy(cur, tile_ref(tile), tuple(paid)))
        allowed = frozenset(
            ctx.decide(Decision.PAY_CURRENCIES, player=player, field=cur, purchase=probe)
        )
        out.append((cur, tile, allowed, probe.price if probe.price is not None else tile.price))
    return out


def check_pile(state: Any, pos: Pos, code: str, counts: Any) -> None:
    """A module card revealed outside the piles it is shuffled into (``counts``: pile ->
    cards, as :func:`pile_windows` reads them): ``code`` with reason ``opening`` during the
    set-up, ``early`` before its first pile (the pile check the card modules share)."""
    if state.deck_uncertain:
        return
    if state.phase == "setup":
        state.flag(code, pos, reason="opening")
        return
    windows = pile_windows(state, counts)
    if windows is not None and not in_pile_window(state.money_draws, windows):
        state.flag(
            code, pos, reason="early", k=state.money_draws, n=state.setup_after, lo=windows[0][0]
        )


def like_neighbours(player: PlayerState, at: Any, colour: BuildingType, walls: Any) -> int:
    """A square-like piece's count (the kit's copy of the rule, once): the building tiles of
    ``colour`` beside ``at`` with no wall between them (a wall on either side separates), at
    most 3 ("Bei einer Wertung zählt ein Platz wie null bis drei Gebäudeplättchen der gleichen
    Farbe ... sofern sich jeweils zwischen Platz und gleichfarbigem Nachbargebäude keine
    Stadtmauer befindet", DIE PLÄTZE, Wertungsänderungen). Used by Die Plätze and by the plaza
    tiles of Der Schlüssel zum Tor."""
    n = 0
    for side in SIDES:
        nb = player.alhambra.get(at.neighbour(side))
        if not isinstance(nb, TileKind) or nb.type is not colour:
            continue
        if side in walls or side.opposite in nb.walls:
            continue
        n += 1
    return min(n, 3)
