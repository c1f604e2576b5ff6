"""The base game's components: currencies, building types, money cards and building tiles.

Facts only (no rules): what exists, how many of each, and every name a record may use for it.
Tile data comes from ``tiles-base.yaml`` (shipped beside this file; see its header for sources).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


class Side(enum.Enum):
    """A tile side. Coordinates: x grows east, y grows north."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    # identity hash (members are singletons; Enum's own __hash__ is a Python-level call that
    # showed up in every profile of the check: dicts and sets keyed by these are on the hot path)
    __hash__ = object.__hash__

    @property
    def delta(self) -> tuple[int, int]:
        return _SIDE_DELTA[self]

    @property
    def opposite(self) -> Side:
        return _SIDE_OPPOSITE[self]


# ``Final``: C statics of the compiled build (else a look-up in the module's dict at each call)
_SIDE_DELTA: Final = {Side.N: (0, 1), Side.E: (1, 0), Side.S: (0, -1), Side.W: (-1, 0)}
_SIDE_OPPOSITE: Final = {Side.N: Side.S, Side.S: Side.N, Side.E: Side.W, Side.W: Side.E}
SIDES: tuple[Side, ...] = (Side.N, Side.E, Side.S, Side.W)


class Currency(enum.Enum):
    """The four currencies, in the order of the market (Bauhof) fields 1-4."""

    GULDEN = "Gu"
    DIRHAM = "Di"
    DENAR = "De"
    DUKATEN = "Du"

    # identity hash (members are singletons; Enum's own __hash__ is a Python-level call that
    # showed up in every profile of the check: dicts and sets keyed by these are on the hot path)
    __hash__ = object.__hash__

    @property
    def code(self) -> str:
        return self.value

    @property
    def field(self) -> int:
        """The market field (1-4) that is paid in this currency."""
        return _CURRENCY_ORDER.index(self) + 1

    @staticmethod
    def of_field(field: int) -> Currency:
        return _CURRENCY_ORDER[field - 1]

    @staticmethod
    def of_code(code: object) -> Currency | None:
        """The currency written ``code`` (``Gu``, ``di`` ...: its code in any case), or None."""
        return _BY_CODE.get(str(code).lower())

    def name_in(self, lang: str) -> str:
        return CURRENCY_NAMES[lang][self]


_CURRENCY_ORDER: tuple[Currency, ...] = (
    Currency.GULDEN,
    Currency.DIRHAM,
    Currency.DENAR,
    Currency.DUKATEN,
)
CURRENCIES = _CURRENCY_ORDER
_BY_CODE: dict[str, Currency] = {c.value.lower(): c for c in _CURRENCY_ORDER}
"""The currencies by their code in lower case (:meth:`Currency.of_code`)."""


class BuildingType(enum.Enum):
    """The six building types, in scoring-table order (pavilion ... tower)."""

    PAVILION = "P"
    SERAGLIO = "S"
    ARCADES = "A"
    CHAMBERS = "C"
    GARDEN = "G"
    TOWER = "T"

    # identity hash (members are singletons; Enum's own __hash__ is a Python-level call that
    # showed up in every profile of the check: dicts and sets keyed by these are on the hot path)
    __hash__ = object.__hash__

    @property
    def code(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        """0 for pavilion ... 5 for tower (the row of the scoring table)."""
        return BUILDING_TYPES.index(self)

    def name_in(self, lang: str, plural: bool = False) -> str:
        table = TYPE_NAMES_PLURAL if plural else TYPE_NAMES
        return table[lang][self]


BUILDING_TYPES: tuple[BuildingType, ...] = tuple(BuildingType)

# Display names (used by reports); English and German.
CURRENCY_NAMES: dict[str, dict[Currency, str]] = {
    "en": {
        Currency.GULDEN: "florin",
        Currency.DIRHAM: "dirham",
        Currency.DENAR: "denar",
        Currency.DUKATEN: "ducat",
    },
    "de": {
        Currency.GULDEN: "Gulden",
        Currency.DIRHAM: "Dirham",
        Currency.DENAR: "Denar",
        Currency.DUKATEN: "Dukaten",
    },
}
TYPE_NAMES: dict[str, dict[BuildingType, str]] = {
    "en": {
        BuildingType.PAVILION: "pavilion",
        BuildingType.SERAGLIO: "seraglio",
        BuildingType.ARCADES: "arcades",
        BuildingType.CHAMBERS: "chambers",
        BuildingType.GARDEN: "garden",
        BuildingType.TOWER: "tower",
    },
    "de": {
        BuildingType.PAVILION: "Pavillon",
        BuildingType.SERAGLIO: "Serail",
        BuildingType.ARCADES: "Arkaden",
        BuildingType.CHAMBERS: "Gemächer",
        BuildingType.GARDEN: "Garten",
        BuildingType.TOWER: "Turm",
    },
}
TYPE_NAMES_PLURAL: dict[str, dict[BuildingType, str]] = {
    "en": {
        BuildingType.PAVILION: "pavilions",
        BuildingType.SERAGLIO: "seraglios",
        BuildingType.ARCADES: "arcades",
        BuildingType.CHAMBERS: "chambers",
        BuildingType.GARDEN: "gardens",
        BuildingType.TOWER: "towers",
    },
    "de": {
        BuildingType.PAVILION: "Pavillons",
        BuildingType.SERAGLIO: "Serails",
        BuildingType.ARCADES: "Arkaden",
        BuildingType.CHAMBERS: "Gemächer",
        BuildingType.GARDEN: "Gärten",
        BuildingType.TOWER: "Türme",
    },
}

# Every spelling a record may use (matched case-insensitively). Short codes first.
CURRENCY_SPELLINGS: dict[str, Currency] = {
    "gu": Currency.GULDEN,
    "gulden": Currency.GULDEN,
    "florin": Currency.GULDEN,
    "florins": Currency.GULDEN,
    "di": Currency.DIRHAM,
    "dirham": Currency.DIRHAM,
    "dirhams": Currency.DIRHAM,
    "de": Currency.DENAR,
    "denar": Currency.DENAR,
    "denare": Currency.DENAR,
    "denars": Currency.DENAR,
    "dinar": Currency.DENAR,
    "du": Currency.DUKATEN,
    "dukaten": Currency.DUKATEN,
    "dukate": Currency.DUKATEN,
    "ducat": Currency.DUKATEN,
    "ducats": Currency.DUKATEN,
}
TYPE_SPELLINGS: dict[str, BuildingType] = {
    "p": BuildingType.PAVILION,
    "pavilion": BuildingType.PAVILION,
    "pavillon": BuildingType.PAVILION,
    "s": BuildingType.SERAGLIO,
    "seraglio": BuildingType.SERAGLIO,
    "serail": BuildingType.SERAGLIO,
    "a": BuildingType.ARCADES,
    "arcades": BuildingType.ARCADES,
    "arcade": BuildingType.ARCADES,
    "arkaden": BuildingType.ARCADES,
    "arkade": BuildingType.ARCADES,
    "c": BuildingType.CHAMBERS,
    "chambers": BuildingType.CHAMBERS,
    "chamber": BuildingType.CHAMBERS,
    "gemächer": BuildingType.CHAMBERS,
    "gemaecher": BuildingType.CHAMBERS,
    "gemach": BuildingType.CHAMBERS,
    "g": BuildingType.GARDEN,
    "garden": BuildingType.GARDEN,
    "garten": BuildingType.GARDEN,
    "t": BuildingType.TOWER,
    "tower": BuildingType.TOWER,
    "turm": BuildingType.TOWER,
}
# Wall letters: N E S W, and German O (Ost) for east.
SIDE_SPELLINGS: dict[str, Side] = {"n": Side.N, "e": Side.E, "o": Side.E, "s": Side.S, "w": Side.W}

MONEY_VALUES = range(1, 10)
MONEY_COPIES = 3  # each (currency, value) card exists three times: 108 cards


@dataclass(frozen=True, slots=True, init=False, eq=False)
class MoneyCard:
    """A money card: a currency and a value 1-9. Copies of a card are indistinguishable.

    Interned: ``MoneyCard(c, v)`` always hands out the one instance of that card (also through
    ``dataclasses.replace``, ``copy`` and ``pickle``), so equality and hashing are the object's
    identity, done in C (cards are dict keys and list items on every action of the engine)."""

    currency: Currency
    value: int

    def __new__(cls, currency: Currency, value: int) -> MoneyCard:
        card = _MONEY_CARDS.get((currency, value))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "currency", currency)
            object.__setattr__(card, "value", value)
            _MONEY_CARDS[(currency, value)] = card
        return card

    def __reduce__(self) -> tuple[type[MoneyCard], tuple[Currency, int]]:
        return (MoneyCard, (self.currency, self.value))

    def __copy__(self) -> MoneyCard:
        return self

    def __deepcopy__(self, memo: object) -> MoneyCard:
        return self

    @property
    def code(self) -> str:
        return f"{self.currency.code}{self.value}"

    def __str__(self) -> str:
        return self.code

    @property
    def sort_key(self) -> tuple[int, int]:
        """Field order of the currency, then value (the canonical order of a card list)."""
        return (self.currency.field, self.value)


_MONEY_CARDS: dict[tuple[Currency, int], MoneyCard] = {}  # the interned cards

ALL_MONEY_CARDS: tuple[MoneyCard, ...] = tuple(
    MoneyCard(c, v) for c in CURRENCIES for v in MONEY_VALUES
)


def wall_code(walls: Iterable[Side]) -> str:
    """Walls as lowercase letters in N, E, S, W order; ``-`` for no walls."""
    ws = set(walls)
    return "".join(s.value.lower() for s in SIDES if s in ws) or "-"


@dataclass(frozen=True, slots=True, init=False, eq=False)
class TileKind:
    """One building tile of the catalogue. Type + price + walls identify it uniquely.

    Interned like :class:`MoneyCard`: ``TileKind(t, p, w)`` hands out the one instance of that
    tile, so equality and hashing are the object's identity (done in C)."""

    type: BuildingType
    price: int
    walls: frozenset[Side]

    def __new__(cls, type: BuildingType, price: int, walls: AbstractSet[Side]) -> TileKind:
        # (walls any set of sides, kept as a frozenset: compiled, a ``frozenset`` annotation
        # refused the plain set the pure build takes)
        key = (type, price, frozenset(walls))
        tile = _TILE_KINDS.get(key)
        if tile is None:
            tile = object.__new__(cls)
            object.__setattr__(tile, "type", type)
            object.__setattr__(tile, "price", price)
            object.__setattr__(tile, "walls", key[2])
            _TILE_KINDS[key] = tile
        return tile

    def __reduce__(self) -> tuple[object, tuple[BuildingType, int, frozenset[Side]]]:
        return (TileKind, (self.type, self.price, self.walls))

    def __copy__(self) -> TileKind:
        return self

    def __deepcopy__(self, memo: object) -> TileKind:
        return self

    @property
    def full_code(self) -> str:
        return f"{self.type.code}{self.price}{wall_code(self.walls)}"

    @property
    def code(self) -> str:
        """The shortest unambiguous code: type + price, plus walls only where needed."""
        return short_code(self)

    def has_wall(self, side: Side) -> bool:
        return side in self.walls

    def __str__(self) -> str:
        return self.code


_TILE_KINDS: dict[tuple[BuildingType, int, frozenset[Side]], TileKind] = {}  # interned tiles


@dataclass(frozen=True)
class Catalogue:
    """The building tiles of the base game, and lookups over them."""

    tiles: tuple[TileKind, ...]
    start_tile_count: int

    def by_type_price(self, type_: BuildingType, price: int) -> tuple[TileKind, ...]:
        """The tiles of this type and price, in catalogue order (looked up in an index of the
        tiles made on the first call: the reader asks once per tile code it meets, and the
        scan of all tiles per question was most of a first game's catalogue work)."""
        index = _INDEXES.get(self.tiles)
        if index is None:
            built: dict[tuple[BuildingType, int], list[TileKind]] = {}
            for t in self.tiles:
                built.setdefault((t.type, t.price), []).append(t)
            index = _INDEXES[self.tiles] = {k: tuple(v) for k, v in built.items()}
        return index.get((type_, price), ())

    def find(
        self, type_: BuildingType, price: int, walls: frozenset[Side] | None
    ) -> tuple[TileKind, ...]:
        """Tiles matching type and price, and walls when given (None: any walls)."""
        return tuple(
            t for t in self.by_type_price(type_, price) if walls is None or t.walls == walls
        )


# the tiles of a catalogue by (type, price), made on first use (Catalogue.by_type_price); keyed
# by the tiles themselves, so equal catalogues share one index and the class's fields, equality,
# repr and pickling stay as they are
_INDEXES: dict[tuple[TileKind, ...], dict[tuple[BuildingType, int], tuple[TileKind, ...]]] = {}


@cache
def catalogue() -> Catalogue:
    """The base-game tile catalogue, loaded once from the shipped YAML file."""
    try:  # the file beside this one (importlib.resources, for a zipped install, costs 8 ms)
        with open(
            os.path.join(os.path.dirname(__file__), "tiles-base.yaml"), encoding="utf-8"
        ) as fh:
            text = fh.read()
    except OSError:  # pragma: no cover - not a plain folder
        from importlib import resources

        text = resources.files("referee.catalogue").joinpath("tiles-base.yaml").read_text("utf-8")
    # the parsed text from the cache of bundled data (PyYAML is not even imported then)
    from referee.datacache import load_yaml

    data = load_yaml("tiles", text, _parse_tiles)
    tiles = tuple(
        TileKind(
            BuildingType[str(entry["type"]).upper()],
            int(entry["price"]),
            frozenset(Side[w] for w in entry["walls"]),
        )
        for entry in data["building_tiles"]
    )
    return Catalogue(tiles=tiles, start_tile_count=int(data["start_tile"]["count"]))


def _parse_tiles(text: str) -> Any:
    import yaml

    # libyaml's loader when PyYAML has it (the same data; the pure-Python one took 25 ms of a
    # one-game check's start-up)
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@cache
def short_code(tile: TileKind) -> str:
    if len(catalogue().by_type_price(tile.type, tile.price)) == 1:
        return f"{tile.type.code}{tile.price}"
    return tile.full_code


# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
