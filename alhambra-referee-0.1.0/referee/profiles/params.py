"""Rule parameters: every point where editions, online implementations or house rules differ.

A :class:`RuleProfile` is what the engine and scoring read; they never test an edition's name.
Bundled profiles and user files (YAML) are loaded by :mod:`referee.profiles.loader`.
The defaults are the 2003 Queen rulebook (``queen-2003``).

Each parameter has a one-line doc and, for numbers, the range of possible values (``_DOCS``);
:data:`PARAMETERS` turns that and the field's type into one :class:`ParamSpec` per parameter,
which the loader validates against and ``profiles show`` / ``docs/profiles.md`` describe.
"""

# (annotations are text, and the aliases below too: nothing here imports ``typing``; the
# parameters' types are read from that text by read_annotation when PARAMETERS is first made)
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias

ScoringCardPlacement: TypeAlias = 'Literal["shuffled", "top"]'
StartTiebreak: TypeAlias = 'Literal["cards-total-youngest", "cards-youngest"]'
DealFirst: TypeAlias = 'Literal["any", "youngest"]'
TileSupply: TypeAlias = 'Literal["bag", "tower"]'
GiftRule: TypeAlias = 'Literal["dirk-only", "any-player"]'
OverpayRule: TypeAlias = 'Literal["allowed", "warn", "illegal"]'
WallRun: TypeAlias = 'Literal["trail", "simple-path"]'
WallPoints: TypeAlias = 'Literal["edge", "tile"]'
GameEnd: TypeAlias = 'Literal["market-incomplete", "bag-empty"]'
ExtraAction: TypeAlias = 'Literal["optional", "compulsory"]'
Edition: TypeAlias = 'Literal["base", "waechter"]'
GuardScoring: TypeAlias = 'Literal["end", "every"]'

# Fields of RuleProfile that describe the profile rather than a rule.
META_FIELDS: frozenset[str] = frozenset(
    {"name", "description", "extends", "origin", "sources", "rulebook"}
)


@dataclass(frozen=True)
class RuleProfile:
    """A rule profile: the house rules and editions a game is checked under (docs/profiles.md)."""

    name: str = "queen-2003"
    description: str = "Queen Games base rulebook, 2003 (default)"
    # Where the two scoring cards go in piles 2 and 4: shuffled in, or laid on top.
    scoring_card_placement: ScoringCardPlacement = "shuffled"
    # How far a pile of the 5-pile setup may differ from an even fifth, as a fraction of it
    # ("fünf etwa gleichhohe Stapel": roughly equal).
    pile_tolerance: float = 0.25
    # Start player tie-break after "fewest cards".
    start_tiebreak: StartTiebreak = "cards-total-youngest"
    # Who is dealt start money first (then clockwise): not fixed, or the youngest player.
    deal_first: DealFirst = "any"
    # Where the building tiles are drawn from; wording only (messages say bag or tower).
    tile_supply: TileSupply = "bag"
    # Money cards per (currency, value) in a two-player game (one of three removed).
    two_player_money_copies: int = 2
    # Dirk's draw after the 2nd scoring: None = a third of the tiles left (rounded down).
    dirk_second_draw: int | None = None
    # House rules.
    reserve_limit: int | None = None
    gifts: GiftRule = "dirk-only"
    overpay_superfluous: OverpayRule = "allowed"
    # Wall scoring: "trail" counts every segment of a closed ring (N); "simple-path" N-1.
    wall_run: WallRun = "trail"
    # Wall points: one per outer-wall tile edge of the run ("edge"), or one per tile ("tile").
    wall_points: WallPoints = "edge"
    # Game end: the market cannot be completely refilled, or the bag runs out during a refill.
    game_end: GameEnd = "market-incomplete"
    # After an exact payment: the player may act again ("optional", may decline) or must.
    extra_action: ExtraAction = "optional"
    # Module Die Schätze: a bribe while the hand holds enough money of the currencies that pay
    # ("und ihm Geld einer beliebigen Währung fehlt": the payment lacks, or the hand lacks).
    treasure_hand_short: OverpayRule = "warn"
    # The edition played: the base game, or the guards edition ("Wächter", referee/editions/),
    # whose rules unit the engine then switches on like a module.
    edition: Edition = "base"
    # Guards edition: the guard scoring at the game end only, or at every scoring (a score pad).
    guard_scoring: GuardScoring = "end"
    # Dirk's draw after the 2nd scoring takes this many thirds of the tiles left (1: a third;
    # 2: the guards edition's "und genauso viele Gebäude-Plättchen" read as as many again).
    dirk_second_thirds: int = 1
    # Where each parameter's value comes from (file and section), for `profiles show`.
    sources: dict[str, str] = field(default_factory=dict, compare=False)
    # The profile this one extends (None for a root profile) and where it was loaded from
    # ("bundled" or a file path); information only.
    extends: str | None = field(default=None, compare=False)
    origin: str = field(default="bundled", compare=False)
    # The rulebook (a file of /work/shared/rules) whose sections the base game's findings cite
    # under this profile; a module's findings cite the module's own section.
    rulebook: str = field(default="rulebook-base-de-2003.txt", compare=False)

    def parameters(self) -> dict[str, Any]:
        """The rule parameters and their values, in declaration order."""
        return {name: getattr(self, name) for name in _parameters()}


# One line for people and the numeric limits of each parameter.
_DOCS: dict[str, tuple[str, dict[str, float]]] = {
    "scoring_card_placement": (
        "where the scoring cards go in piles 2 and 4: shuffled in, or laid on top",
        {},
    ),
    "pile_tolerance": (
        "how far a pile of the five may differ from an even fifth (fraction of a fifth)",
        {"minimum": 0.0, "maximum": 1.0},
    ),
    "start_tiebreak": (
        "start player: fewest cards, then lower total, then youngest;"
        " or fewest cards, then youngest",
        {},
    ),
    "deal_first": ("who is dealt start money first: not fixed, or the youngest player", {}),
    "tile_supply": (
        "where tiles are drawn from (wording only): the cloth bag or the tile tower",
        {},
    ),
    "two_player_money_copies": (
        "copies of each money card in a two-player game",
        {"minimum": 1, "maximum": 3},
    ),
    "dirk_second_draw": (
        "tiles Dirk gets after the 2nd scoring: null = a third of the tiles left (rounded down)",
        {"minimum": 0, "maximum": 54},
    ),
    "reserve_limit": (
        "most tiles a reserve may hold (null = unlimited)",
        {"minimum": 0, "maximum": 54},
    ),
    "gifts": (
        "who a bought tile may be given to: Dirk only (two players), or any other player",
        {},
    ),
    "overpay_superfluous": (
        "paying with a card that could be left out: allowed, warned, or illegal",
        {},
    ),
    "wall_run": (
        "longest wall: a closed ring of N segments scores N (trail) or N-1 (simple-path)",
        {},
    ),
    "wall_points": (
        "wall points: one per outer-wall tile edge of the run, or one per tile of it",
        {},
    ),
    "game_end": (
        "game end: the market cannot be completely refilled, or the bag runs out in a refill",
        {},
    ),
    "extra_action": (
        "after an exact payment the player may take another action (optional) or must (compulsory)",
        {},
    ),
    "treasure_hand_short": (
        "module Die Schätze: a treasure bribe while the hand holds enough money of the currencies"
        " that pay: allowed, warned, or illegal",
        {},
    ),
    "edition": (
        "the edition played: the base game, or the guards edition (Wächter: preview board,"
        " guards, guard abilities)",
        {},
    ),
    "guard_scoring": (
        "guards edition: the guard scoring at the game end only, or at every scoring",
        {},
    ),
    "dirk_second_thirds": (
        "Dirk's draw after the 2nd scoring when dirk_second_draw is null: this many thirds of"
        " the tiles left (rounded down)",
        {"minimum": 1, "maximum": 2},
    ),
}


DEFAULT_PROFILE = RuleProfile()


@dataclass(frozen=True)
class ParamSpec:
    """What a parameter may be: one of ``choices``, or a number within limits."""

    name: str
    kind: Literal["choice", "int", "float"]
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    nullable: bool = False
    minimum: float | None = None
    maximum: float | None = None

    def describe(self) -> str:
        """The values this parameter accepts, for people."""
        if self.kind == "choice":
            text = " | ".join(self.choices)
        else:
            what = "a whole number" if self.kind == "int" else "a number"
            lo = "" if self.minimum is None else f" ≥ {_num(self.minimum)}"
            hi = "" if self.maximum is None else f" ≤ {_num(self.maximum)}"
            text = what + lo + ("," if lo and hi else "") + hi
        return text + (" | null" if self.nullable else "")

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed, or None when it is (``value`` as YAML constructs it)."""
        if value is None:
            return None if self.nullable else f"null is not allowed; expected {self.describe()}"
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return None
            return f"{_show(value)} is not allowed; expected {self.describe()}"
        ok_types: tuple[type, ...] = (int,) if self.kind == "int" else (int, float)
        if isinstance(value, bool) or not isinstance(value, ok_types):
            return f"{_show(value)} is not {self.describe()}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{_show(value)} is not {self.describe()}"
        number: float = value  # type: ignore[assignment]  # an int or a float here
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            return f"{_show(value)} is out of range; expected {self.describe()}"
        return None


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"a {type(value).__name__}"


def _spec(f: Any) -> ParamSpec:
    kind, choices, nullable = read_annotation(f.type)
    doc, limits = _DOCS[f.name]
    return ParamSpec(
        name=f.name,
        kind=kind,
        default=f.default,
        doc=doc,
        choices=choices,
        nullable=nullable,
        minimum=limits.get("minimum"),
        maximum=limits.get("maximum"),
    )


def read_annotation(text: str) -> tuple[Literal["choice", "int", "float"], tuple[str, ...], bool]:
    """What a parameter's annotation allows: (kind, choices, nullable), read from its text
    (this module's annotations are text) in the forms :class:`RuleProfile` uses: ``int``,
    ``float`` or the name of one of the aliases above (a ``Literal`` of strings, written as
    text), each alone or ``| None``. Anything else is a ``TypeError``. Read here rather than
    evaluated with ``typing.get_type_hints``, so that making :data:`PARAMETERS` (a profile file
    named by a record) does not import ``typing``; tests/test_startup_profiles.py checks it
    against ``get_type_hints`` for every parameter."""
    parts = [part.strip() for part in text.split("|")]
    nullable = "None" in parts
    named = [part for part in parts if part != "None"]
    if len(named) == 1 and named[0] in ("int", "float"):
        return named[0], (), nullable  # type: ignore[return-value]  # "int" or "float"
    alias = globals().get(named[0]) if len(named) == 1 and named[0].isidentifier() else None
    if isinstance(alias, str) and alias.startswith("Literal[") and alias.endswith("]"):
        choices = tuple(part.strip() for part in alias[len("Literal[") : -1].split(","))
        if all(len(c) > 2 and c[0] == c[-1] == '"' and '"' not in c[1:-1] for c in choices):
            return "choice", tuple(c[1:-1] for c in choices), nullable
    raise TypeError(f"unsupported parameter type: {text!r}")


def _specs() -> dict[str, ParamSpec]:
    return {f.name: _spec(f) for f in fields(RuleProfile) if f.name not in META_FIELDS}


_made: dict[str, ParamSpec] = {}


def _parameters() -> dict[str, ParamSpec]:
    """:data:`PARAMETERS`, made on its first use (always the same dictionary)."""
    if not _made:
        _made.update(_specs())
    return _made


if TYPE_CHECKING:
    PARAMETERS: dict[str, ParamSpec]
    """Every rule parameter, in declaration order."""


def __getattr__(name: str) -> Any:
    """``PARAMETERS`` (every rule parameter, in declaration order) is made when it is first
    read: a check with a bundled profile (from the data cache) never reads it, and making it
    (then with ``typing.get_type_hints``, and a :class:`ParamSpec` per parameter) took 1.3
    million instructions at every start-up. Then it is a plain global of this module."""
    if name == "PARAMETERS":
        value = globals()["PARAMETERS"] = _parameters()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
