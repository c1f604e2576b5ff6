"""The rule registry: every check the engine makes, with a stable code and its rulebook section.

Each :class:`Rule` names the rulebook section it comes from (file + section heading of
``/work/shared/rules/rulebook-base-de-2003.txt`` unless stated). Its names and message templates
(with named ``{placeholders}``), and the texts of its reasons, live in the message catalogue of
each language (:mod:`referee.messages`, keys ``CODE:name``, ``CODE`` and ``CODE/reason``). A
:class:`Violation` is one broken rule at one place of a record: code, reason and parameters
(data); it renders its sentence in the requested language only when shown.

Codes are stable: tools and tests match on them. Modules add their own rules with
:func:`register_rule`, which puts the rule's texts into the catalogue in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.messages import lookup, register_both, render

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

BASE = "rulebook-base-de-2003.txt"
BIGBOX = "rulebook-bigbox-de-2019.txt"

Severity: TypeAlias = 'Literal["error", "warning"]'


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule check: stable code, short names (EN/DE), source section, message templates.

    The texts are the catalogue's (:mod:`referee.messages`); a module builds a Rule with its own
    texts and :func:`register_rule` adds them to the catalogue.
    """

    code: str
    name_en: str
    name_de: str
    section: str
    message_en: str
    message_de: str

    def name(self, lang: str = "en") -> str:
        return lookup(lang, f"{self.code}:name") or self.code

    def template(self, lang: str = "en") -> str:
        return lookup(lang, self.code) or "{detail}"


RULES: dict[str, Rule] = {}


def register_rule(rule: Rule, reasons: Mapping[str, tuple[str, str]] | None = None) -> Rule:
    """Add a rule to the registry and its texts to the catalogue (modules call this for their
    own codes); ``reasons`` maps a reason to its English and German text."""
    en = {f"{rule.code}:name": rule.name_en, rule.code: rule.message_en}
    de = {f"{rule.code}:name": rule.name_de, rule.code: rule.message_de}
    for reason, (text_en, text_de) in (reasons or {}).items():
        en[f"{rule.code}/{reason}"] = text_en
        de[f"{rule.code}/{reason}"] = text_de
    register_both(en, de)
    RULES[rule.code] = rule
    return rule


def rule(code: str) -> Rule:
    """The rule with this code; an unknown code gets a generic rule (never raises)."""
    found = RULES.get(code)
    if found is None:
        return Rule(code, code, code, "", "{detail}", "{detail}")
    return found


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule at a place of the record.

    ``line``/``column`` point into ``source``; ``turn`` is the turn number (None during setup and
    between turns); ``player`` the player concerned (None for chance events); ``reason`` picks
    one of the rule's reason texts (``CODE/reason``, which fills ``{detail}``); ``params`` fill
    the templates. ``severity`` "warning" is reported but does not make the game invalid (e.g. a
    profile that only warns about superfluous cards).
    """

    code: str
    line: int
    column: int
    turn: int | None = None
    player: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    source: str = "<text>"
    severity: Severity = "error"
    reason: str | None = None
    section: str | None = None  # the rule text this finding cites, when not the rule's own

    @property
    def rule(self) -> Rule:
        return rule(self.code)

    def cite(self) -> str:
        """The rulebook section this finding cites: its own (a module's scoring part, the
        profile's book) or else its rule's."""
        return self.section or rule(self.code).section

    def message(self, lang: str = "en") -> str:
        return render(lang, self.code, self.params, self.reason)

    def location(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        r = self.rule
        out: dict[str, object] = {
            "code": self.code,
            "name": r.name(lang),
            "section": self.section or r.section,
            "severity": self.severity,
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "player": self.player,
            "message": self.message(lang),
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class Unverifiable:
    """Something the record leaves open (unknown cards/tiles): neither proven legal nor not.

    ``key`` names its text in the catalogue (``UNVERIFIED-...``), ``params`` fill it."""

    line: int
    column: int
    key: str
    params: dict[str, object] = field(default_factory=dict)
    turn: int | None = None
    player: str | None = None
    source: str = "<text>"

    def message(self, lang: str = "en") -> str:
        return render(lang, self.key, self.params)

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "player": self.player,
            "key": self.key,
            "message": self.message(lang),
        }


def _r(code: str, section: str) -> None:
    """A base rule; its texts are in the catalogues already."""
    RULES[code] = Rule(
        code,
        lookup("en", f"{code}:name") or code,
        lookup("de", f"{code}:name") or code,
        section,
        lookup("en", code) or "{detail}",
        lookup("de", code) or "{detail}",
    )


S_MATERIAL = f"{BASE} § Spielmaterial"
S_SETUP = f"{BASE} § Spielvorbereitung"
S_PLAY = f"{BASE} § Spielablauf"
S_TAKE = f"{BASE} § Geld nehmen"
S_BUY = f"{BASE} § Gebäudeplättchen kaufen und platzieren: Kaufen"
S_PLACE = f"{BASE} § Gebäudeplättchen kaufen und platzieren: Platzieren"
S_BUILD = f"{BASE} § Alhambra-Bauregeln"
S_REDESIGN = f"{BASE} § Alhambra umbauen"
S_END_TURN = f"{BASE} § Am Ende Ihres Spielzuges"
S_SCORING = f"{BASE} § Wertungen"
S_END = f"{BASE} § Spielende"
S_TWO = f"{BASE} § Sonderregel für das Spiel zu zweit"
S_PROFILE = "rule profile (house rule / edition)"
S_NOTATION = "docs/notation.md"

# The Big Box book (rulebook-bigbox-de-2019.txt) tells the same base game under its own
# headings; a profile whose ``rulebook`` is that book cites them (line of each heading there).
BIGBOX_BASE_SECTIONS: dict[str, str] = {
    "Spielmaterial": "Spielmaterial",  # L73
    "Spielvorbereitung": "Spielvorbereitung",  # L188
    "Spielablauf": "Spielablauf",  # L294
    "Geld nehmen": "Spielablauf: Geld nehmen",  # L218
    # L224
    "Gebäudeplättchen kaufen und platzieren: Kaufen": "Spielablauf: Gebäudeplättchen kaufen",
    "Gebäudeplättchen kaufen und platzieren: Platzieren": "Gebäudeplättchen platzieren",  # L322
    "Alhambra-Bauregeln": "Alhambra-Bauregeln",  # L335
    "Alhambra umbauen": "Alhambra umbauen",  # L241
    "Am Ende Ihres Spielzuges": "Ende des Spielzuges",  # L369
    "Wertungen": "Wertungen",  # L459
    "Spielende": "Spielende",  # L538
    "Sonderregel für das Spiel zu zweit": "Sonderregel für das Spiel zu zweit",  # L540
}


def cited_section(section: str, rulebook: str) -> str:
    """``section`` (a rule's citation of the 2003 book) as the profile's ``rulebook`` names it:
    unchanged for the 2003 book; for the Big Box book each ``BASE § heading`` becomes that
    book's heading. A heading without a counterpart keeps the 2003 citation."""
    if rulebook != BIGBOX or BASE not in section:
        return section
    out = section
    for old, new in BIGBOX_BASE_SECTIONS.items():
        out = out.replace(f"{BASE} § {old}", f"{BIGBOX} § {new}")
    return out.replace(f"{BASE} (2-6 Personen)", f"{BIGBOX} (2-6 Personen)")


# --------------------------------------------------------------------------------- setup
_r("SETUP-PLAYERS", f"{BASE} (2-6 Personen); {S_TWO}")
_r("SETUP-DEAL", S_SETUP)
_r("SETUP-DEAL-ORDER", S_SETUP)
_r("SETUP-START", S_SETUP)
_r("SETUP-DISPLAY", S_SETUP)
_r("SETUP-MARKET", S_SETUP)
_r("SETUP-ORDER", S_SETUP)
_r("CARD-SUPPLY", S_MATERIAL)
_r("TILE-SUPPLY", S_MATERIAL)
_r("SCORING-CARD-PILE", S_SETUP)
# --------------------------------------------------------------------------------- turns
_r("TURN-ORDER", S_PLAY)
_r("TURN-NUMBER", S_NOTATION)
_r("TURN-EMPTY", S_PLAY)
_r("TURN-EXTRA-ACTION", S_PLAY)
_r("SCORING-CARD-ORDER", S_SETUP)
_r("TURN-OVER", S_BUY)
_r("TURN-AFTER-END", S_END)
# --------------------------------------------------------------------------------- money
_r("TAKE-NOT-IN-DISPLAY", S_TAKE)
_r("TAKE-SUM", S_TAKE)
_r("TAKE-EMPTY", S_TAKE)
# --------------------------------------------------------------------------------- buying
_r("BUY-NOT-IN-MARKET", S_BUY)
_r("BUY-FIELD", S_BUY)
_r("BUY-CURRENCY", S_BUY)
_r("BUY-NOT-HELD", S_BUY)
_r("BUY-UNDERPAID", S_BUY)
_r("BUY-SUPERFLUOUS", S_PROFILE)
# --------------------------------------------------------------------------------- redesign
_r("REDESIGN-NOT-IN-RESERVE", S_REDESIGN)
_r("REDESIGN-WRONG-TILE", S_REDESIGN)
_r("REDESIGN-SWAP-EMPTY", S_REDESIGN)
# --------------------------------------------------------------------------------- building
_r("PLACE-OCCUPIED", S_BUILD)
_r("PLACE-ADJACENT", S_BUILD)
_r("PLACE-WALL", S_BUILD)
_r("PLACE-WALK", S_BUILD)
_r("PLACE-HOLE", S_BUILD)
_r("REMOVE-FOUNTAIN", S_REDESIGN)
_r("REMOVE-EMPTY", S_REDESIGN)
_r("REMOVE-WALK", S_REDESIGN)
_r("REMOVE-HOLE", S_REDESIGN)
_r("PLACE-NOT-BOUGHT", S_END_TURN)
_r("PLACE-MISSING", S_END_TURN)
_r("PLACE-ORDER", S_END_TURN)
_r("RESERVE-LIMIT", S_PROFILE)
_r("GIFT-NOT-ALLOWED", S_TWO)
# --------------------------------------------------------------------------------- refill
_r("REFILL-DISPLAY", S_END_TURN)
_r("REFILL-MARKET", S_END_TURN)
_r("REFILL-RESHUFFLE", S_END_TURN)
# --------------------------------------------------------------------------------- scoring
_r("SCORING-MISSING", S_SCORING)
_r("SCORING-UNEXPECTED", S_SCORING)
_r("SCORE-CLAIM", S_SCORING)
_r("DIRK-DRAW", S_TWO)
# --------------------------------------------------------------------------------- game end
_r("END-DISTRIBUTE", S_END)
_r("END-EARLY", S_END)
_r("RESULT", S_END)
# --------------------------------------------------------------------------------- record
_r("MODULE-NOT-ENABLED", S_NOTATION)
_r("MODULE-OPTION", S_NOTATION)
_r("UNKNOWN-VERB", S_NOTATION)
_r("UNKNOWN-PLAYER", S_NOTATION)
_r("UNKNOWN-TILE", S_NOTATION)
_r("POSITION-INVALID", S_NOTATION)

# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
