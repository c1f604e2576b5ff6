"""The rule registry: every check the engine makes, with a stable code, names and texts.

Each :class:`Rule` names the rulebook section it comes from (file + section heading of
``/work/shared/rules/rulebook-base-de-2003.txt`` unless stated) and carries an English and a
German message template with named ``{placeholders}``. A :class:`Violation` is one broken rule
at one place of a record; it renders its sentence in either language.

Codes are stable: tools and tests match on them. Modules add their own rules with
:func:`register_rule`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BASE = "rulebook-base-de-2003.txt"
BIGBOX = "rulebook-bigbox-de-2019.txt"

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule check: stable code, short names (EN/DE), source section, message templates."""

    code: str
    name_en: str
    name_de: str
    section: str
    message_en: str
    message_de: str

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en

    def template(self, lang: str = "en") -> str:
        return self.message_de if lang == "de" else self.message_en


RULES: dict[str, Rule] = {}


def register_rule(rule: Rule) -> Rule:
    """Add a rule to the registry (modules call this for their own codes)."""
    RULES[rule.code] = rule
    return rule


def rule(code: str) -> Rule:
    """The rule with this code; an unknown code gets a generic rule (never raises)."""
    found = RULES.get(code)
    if found is None:
        return Rule(code, code, code, "", "{detail}", "{detail}")
    return found


class _SafeDict(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule at a place of the record.

    ``line``/``column`` point into ``source``; ``turn`` is the turn number (None during setup and
    between turns); ``player`` the player concerned (None for chance events); ``params`` fill
    the rule's message template. ``severity`` "warning" is reported but does not make the game
    invalid (e.g. a profile that only warns about superfluous cards).
    """

    code: str
    line: int
    column: int
    turn: int | None = None
    player: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    source: str = "<text>"
    severity: Severity = "error"

    @property
    def rule(self) -> Rule:
        return rule(self.code)

    def message(self, lang: str = "en") -> str:
        text = self.rule.template(lang)
        try:
            return text.format_map(_SafeDict(self.params))
        except (ValueError, IndexError):  # a malformed template never hides the finding
            return f"{self.code}: {self.params}"

    def location(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        r = self.rule
        return {
            "code": self.code,
            "name": r.name(lang),
            "section": r.section,
            "severity": self.severity,
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "player": self.player,
            "message": self.message(lang),
        }


@dataclass(frozen=True, slots=True)
class Unverifiable:
    """Something the record leaves open (unknown cards/tiles): neither proven legal nor not."""

    line: int
    column: int
    what_en: str
    what_de: str
    turn: int | None = None
    player: str | None = None
    source: str = "<text>"

    def message(self, lang: str = "en") -> str:
        return self.what_de if lang == "de" else self.what_en

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "player": self.player,
            "message": self.message(lang),
        }


def _r(code: str, en: str, de: str, section: str, msg_en: str, msg_de: str) -> None:
    register_rule(Rule(code, en, de, section, msg_en, msg_de))


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

# --------------------------------------------------------------------------------- setup
_r(
    "SETUP-PLAYERS",
    "number of players",
    "Spielerzahl",
    f"{BASE} (2-6 Personen); {S_TWO}",
    "{detail}",
    "{detail_de}",
)
_r(
    "SETUP-DEAL",
    "start money",
    "Startgeld",
    S_SETUP,
    "{player}'s start money {cards} {detail}: cards are dealt one by one until the total is "
    "20 or more, then the next player gets money",
    "Startgeld von {player} {cards} {detail_de}: es wird eine Karte nach der anderen gezogen, "
    "bis der Gesamtwert 20 oder mehr beträgt, dann bekommt der nächste Spieler sein Geld",
)
_r(
    "SETUP-DEAL-ORDER",
    "deal order",
    "Reihenfolge beim Geldverteilen",
    S_SETUP,
    "{detail}; start money is dealt in seating order ({order})",
    "{detail_de}; das Startgeld wird in Sitzreihenfolge verteilt ({order})",
)
_r(
    "SETUP-START",
    "start player",
    "Startspieler",
    S_SETUP,
    "the record names {claimed} as start player, but {computed} starts: {why}",
    "die Aufzeichnung nennt {claimed} als Startspieler, aber {computed} beginnt: {why_de}",
)
_r(
    "SETUP-DISPLAY",
    "opening display",
    "Geldauslage zu Beginn",
    S_SETUP,
    "{detail}; the opening money display has exactly 4 money cards",
    "{detail_de}; zu Beginn liegen genau 4 Geldkarten offen aus",
)
_r(
    "SETUP-MARKET",
    "opening market",
    "Bauhof zu Beginn",
    S_SETUP,
    "{detail}; at the start 4 tiles are drawn onto market fields 1 to 4 in order",
    "{detail_de}; zu Beginn werden 4 Plättchen der Reihe nach auf die Felder 1 bis 4 gelegt",
)
_r(
    "SETUP-ORDER",
    "setup before play",
    "Vorbereitung vor dem Spiel",
    S_SETUP,
    "{detail}",
    "{detail_de}",
)
_r(
    "CARD-SUPPLY",
    "money card supply",
    "Vorrat an Geldkarten",
    S_MATERIAL,
    "{card} appears more often than it exists: all {copies} copies are already {where}",
    "{card} taucht öfter auf als es sie gibt: alle {copies} Exemplare sind schon {where_de}",
)
_r(
    "TILE-SUPPLY",
    "tile supply",
    "Vorrat an Gebäudeplättchen",
    S_MATERIAL,
    "{detail}",
    "{detail_de}",
)
_r(
    "SCORING-CARD-PILE",
    "scoring card position",
    "Lage der Wertungskarten",
    S_SETUP,
    "{detail}",
    "{detail_de}",
)
# --------------------------------------------------------------------------------- turns
_r(
    "TURN-ORDER",
    "turn order",
    "Zugreihenfolge",
    S_PLAY,
    "it is {expected}'s turn, not {player}'s (play goes clockwise: {order})",
    "{expected} ist an der Reihe, nicht {player} (gespielt wird reihum: {order})",
)
_r(
    "TURN-NUMBER",
    "turn number",
    "Zugnummer",
    S_NOTATION,
    "this is turn {expected}, the record says {claimed}",
    "dies ist Zug {expected}, die Aufzeichnung sagt {claimed}",
)
_r(
    "TURN-EMPTY",
    "turn without action",
    "Zug ohne Spielzug",
    S_PLAY,
    "{player} did nothing: a player must take money, buy a tile or redesign",
    "{player} hat nichts getan: man muss Geld nehmen, ein Plättchen kaufen oder umbauen",
)
_r(
    "TURN-EXTRA-ACTION",
    "extra action not taken",
    "Extra-Spielzug nicht genutzt",
    S_PLAY,
    "{player} paid exactly and ended the turn without another action; under profile {profile} "
    'the extra action is compulsory ("ist man sogar noch einmal an der Reihe")',
    "{player} hat passend bezahlt und den Zug ohne weiteren Spielzug beendet; mit dem Profil "
    "{profile} ist der Extra-Spielzug Pflicht",
)
_r(
    "SCORING-CARD-ORDER",
    "scoring cards in order",
    "Reihenfolge der Wertungskarten",
    S_SETUP,
    'W2 turned up before W1: W1 is shuffled into pile 2 and W2 into pile 4 ("In den zweiten '
    'Stapel mischen Sie die Karte „1. Wertung“, in den vierten Stapel die Karte „2. Wertung“"), '
    "so W1 always comes first; the cards were swapped at the table",
    "W2 erschien vor W1: W1 wird in den zweiten, W2 in den vierten Stapel gemischt, also kommt W1 "
    "immer zuerst; die Karten wurden am Tisch vertauscht",
)
_r(
    "TURN-OVER",
    "turn already over",
    "Zug schon beendet",
    S_BUY,
    "{player}'s turn was already over after {after}: only a purchase paid exactly gives "
    "another action",
    "der Zug von {player} war nach {after_de} schon beendet: nur ein genau passend bezahlter "
    "Kauf gibt einen weiteren Spielzug",
)
_r(
    "TURN-AFTER-END",
    "turn after the game end",
    "Zug nach Spielende",
    S_END,
    "the game was already over ({why}); no more turns are played",
    "das Spiel war schon beendet ({why_de}); es wird kein Zug mehr gespielt",
)
# --------------------------------------------------------------------------------- money
_r(
    "TAKE-NOT-IN-DISPLAY",
    "card not in the display",
    "Karte nicht in der Auslage",
    S_TAKE,
    "{card} is not in the display: the display is {display}",
    "{card} liegt nicht in der Auslage: die Auslage ist {display}",
)
_r(
    "TAKE-SUM",
    "too much money taken",
    "zu viel Geld genommen",
    S_TAKE,
    "display {display}: the cards taken ({cards}) sum to {sum}; several cards may sum to at most 5",
    "Auslage {display}: die genommenen Karten ({cards}) ergeben {sum}; mehrere Karten dürfen "
    "zusammen höchstens 5 ergeben",
)
_r(
    "TAKE-EMPTY",
    "no card taken",
    "keine Karte genommen",
    S_TAKE,
    "{player} takes no card",
    "{player} nimmt keine Karte",
)
# --------------------------------------------------------------------------------- buying
_r(
    "BUY-NOT-IN-MARKET",
    "tile not in the market",
    "Plättchen nicht im Bauhof",
    S_BUY,
    "{tile} is not in the market: the market is {market}",
    "{tile} liegt nicht im Bauhof: der Bauhof ist {market}",
)
_r(
    "BUY-FIELD",
    "wrong market field",
    "falsches Bauhoffeld",
    S_BUY,
    "{tile} lies on the {actual} field, not on the {claimed} field",
    "{tile} liegt auf dem {actual}-Feld, nicht auf dem {claimed}-Feld",
)
_r(
    "BUY-CURRENCY",
    "wrong currency",
    "falsche Währung",
    S_BUY,
    "{card} is not {currency}: a tile on the {currency} field is paid only in {currency}",
    "{card} ist kein {currency}: ein Plättchen auf dem {currency}-Feld wird nur in {currency} "
    "bezahlt",
)
_r(
    "BUY-NOT-HELD",
    "card not held",
    "Karte nicht auf der Hand",
    S_BUY,
    "{player} does not hold {card}: the hand is {hand}",
    "{player} hat {card} nicht auf der Hand: die Hand ist {hand}",
)
_r(
    "BUY-UNDERPAID",
    "price not paid",
    "Preis nicht bezahlt",
    S_BUY,
    "{tile} costs {price}, but the payment ({cards}) comes to only {sum}: at least the printed "
    "price is paid",
    "{tile} kostet {price}, aber die Zahlung ({cards}) ergibt nur {sum}: es wird mindestens der "
    "aufgedruckte Preis bezahlt",
)
_r(
    "BUY-SUPERFLUOUS",
    "superfluous cards paid",
    "überflüssige Karten gezahlt",
    S_PROFILE,
    "{tile} costs {price}: {cards} would be paid even without {card} (profile {profile})",
    "{tile} kostet {price}: {cards} reichen auch ohne {card} (Profil {profile})",
)
# --------------------------------------------------------------------------------- redesign
_r(
    "REDESIGN-NOT-IN-RESERVE",
    "tile not in the reserve",
    "Plättchen nicht in der Reserve",
    S_REDESIGN,
    "{tile} is not in {player}'s reserve: the reserve is {reserve}",
    "{tile} liegt nicht in der Reserve von {player}: die Reserve ist {reserve}",
)
_r(
    "REDESIGN-WRONG-TILE",
    "other tile at that cell",
    "anderes Plättchen auf dem Feld",
    S_REDESIGN,
    "the tile at {at} is {actual}, not {claimed}",
    "auf {at} liegt {actual}, nicht {claimed}",
)
_r(
    "REDESIGN-SWAP-EMPTY",
    "swap with an empty cell",
    "Tausch mit leerem Feld",
    S_REDESIGN,
    "there is no tile at {at} to swap: a swap puts the reserve tile exactly where an Alhambra "
    "tile was removed",
    "auf {at} liegt kein Plättchen zum Tauschen: beim Tausch kommt das neue Plättchen exakt an "
    "die freigewordene Position",
)
# --------------------------------------------------------------------------------- building
_r(
    "PLACE-OCCUPIED",
    "cell occupied",
    "Feld besetzt",
    S_BUILD,
    "the {tile} cannot go to {at}: {occupant} already lies there",
    "{tile_de} kann nicht auf {at}: dort liegt schon {occupant}",
)
_r(
    "PLACE-ADJACENT",
    "no side contact",
    "keine Seite berührt",
    S_BUILD,
    "the {tile} at {at} does not touch the Alhambra along a side (corner contact is not enough)",
    "{tile_de} auf {at} grenzt mit keiner Seite an die Alhambra (über Eck genügt nicht)",
)
_r(
    "PLACE-WALL",
    "sides do not match",
    "Seiten passen nicht",
    S_BUILD,
    "the {tile} at {at}: {detail}; touching sides must both show a wall or both be open",
    "{tile_de} auf {at}: {detail_de}; sich berührende Seiten zeigen beide eine Mauer oder "
    "beide keine",
)
_r(
    "PLACE-WALK",
    "walker rule",
    "Fußgänger-Regel",
    S_BUILD,
    "the {tile} at {at} cannot be reached on foot from the fountain without crossing a wall",
    "{tile_de} auf {at} ist vom Startplättchen aus nicht zu Fuß erreichbar, ohne eine Mauer zu "
    "überqueren",
)
_r(
    "PLACE-HOLE",
    "enclosed empty area",
    "umbauter leerer Bereich",
    S_BUILD,
    "the {tile} at {at} would enclose the empty {cells_word} {cells}",
    "{tile_de} auf {at} würde den leeren Bereich {cells} vollständig umbauen",
)
_r(
    "REMOVE-FOUNTAIN",
    "fountain never moves",
    "Startplättchen bleibt",
    S_REDESIGN,
    "the fountain at 0,0 may never be moved or removed",
    "das Startplättchen auf 0,0 darf niemals umgebaut oder entfernt werden",
)
_r(
    "REMOVE-EMPTY",
    "nothing to remove",
    "nichts zu entfernen",
    S_REDESIGN,
    "there is no tile at {at} in {player}'s Alhambra",
    "in der Alhambra von {player} liegt auf {at} kein Plättchen",
)
_r(
    "REMOVE-WALK",
    "removal cuts off tiles",
    "Abbau trennt Plättchen ab",
    S_REDESIGN,
    "removing the tile at {at} would leave {cells} unreachable on foot from the fountain",
    "ohne das Plättchen auf {at} wären {cells} vom Startplättchen nicht mehr zu Fuß erreichbar",
)
_r(
    "REMOVE-HOLE",
    "removal opens a hole",
    "Abbau erzeugt ein Loch",
    S_REDESIGN,
    "removing the tile at {at} would leave the empty {cells_word} {cells} enclosed",
    "ohne das Plättchen auf {at} wäre der leere Bereich {cells} vollständig umbaut",
)
_r(
    "PLACE-NOT-BOUGHT",
    "tile not acquired this turn",
    "Plättchen nicht in diesem Zug erworben",
    S_END_TURN,
    "{player} did not acquire {tile} in this turn (bought and not yet placed: {pending})",
    "{player} hat {tile} in diesem Zug nicht erworben (gekauft und noch nicht platziert: "
    "{pending})",
)
_r(
    "PLACE-MISSING",
    "bought tile not placed",
    "gekauftes Plättchen nicht platziert",
    S_END_TURN,
    "{player} bought {tiles} but did not place {them} in the Alhambra or the reserve at the "
    "end of the turn",
    "{player} hat {tiles} gekauft, aber am Ende des Zuges nicht in die Alhambra oder die "
    "Reserve gelegt",
)
_r(
    "PLACE-ORDER",
    "placement before the end of the turn",
    "Platzieren vor Zugende",
    S_END_TURN,
    "{player} places tiles before {action}: bought tiles are placed at the very end of the "
    "turn, after any redesign",
    "{player} platziert Plättchen vor {action_de}: gekaufte Plättchen werden ganz am Ende des "
    "Zuges platziert, auch nach dem Umbauen",
)
_r(
    "RESERVE-LIMIT",
    "reserve limit",
    "Reservegrenze",
    S_PROFILE,
    "{player}'s reserve holds {n} tiles; profile {profile} allows at most {limit}",
    "die Reserve von {player} hat {n} Plättchen; Profil {profile} erlaubt höchstens {limit}",
)
_r(
    "GIFT-NOT-ALLOWED",
    "gift not allowed",
    "Verschenken nicht erlaubt",
    S_TWO,
    "{player} gives {tile} to {to}: {why}",
    "{player} schenkt {tile} an {to}: {why_de}",
)
# --------------------------------------------------------------------------------- refill
_r(
    "REFILL-DISPLAY",
    "money display refill",
    "Geldauslage auffüllen",
    S_END_TURN,
    "{detail}",
    "{detail_de}",
)
_r(
    "REFILL-MARKET",
    "market refill",
    "Bauhof auffüllen",
    S_END_TURN,
    "{detail}",
    "{detail_de}",
)
_r(
    "REFILL-RESHUFFLE",
    "discard reshuffle",
    "Ablagestapel mischen",
    S_END_TURN,
    "{detail}",
    "{detail_de}",
)
# --------------------------------------------------------------------------------- scoring
_r(
    "SCORING-MISSING",
    "scoring missing",
    "Wertung fehlt",
    S_SCORING,
    "{detail}",
    "{detail_de}",
)
_r(
    "SCORING-UNEXPECTED",
    "unexpected scoring",
    "unerwartete Wertung",
    S_SCORING,
    "{detail}",
    "{detail_de}",
)
_r(
    "SCORE-CLAIM",
    "claimed points",
    "behauptete Punkte",
    S_SCORING,
    "scoring {round}: the record claims {claimed} for {player}'s {what}, the rules give "
    "{computed} ({line})",
    "Wertung {round}: die Aufzeichnung nennt {claimed} für {player} ({what_de}), nach den Regeln "
    "sind es {computed} ({line})",
)
_r(
    "DIRK-DRAW",
    "Dirk's tiles",
    "Dirks Plättchen",
    S_TWO,
    "{detail}",
    "{detail_de}",
)
# --------------------------------------------------------------------------------- game end
_r(
    "END-DISTRIBUTE",
    "leftover tiles",
    "restliche Plättchen",
    S_END,
    "{detail}",
    "{detail_de}",
)
_r(
    "END-EARLY",
    "game not over",
    "Spiel noch nicht zu Ende",
    S_END,
    "{detail}",
    "{detail_de}",
)
_r(
    "RESULT",
    "result",
    "Ergebnis",
    S_END,
    "the Result header says {claimed} for {player}, the final total is {computed}",
    "der Result-Eintrag nennt {claimed} für {player}, die Endsumme ist {computed}",
)
# --------------------------------------------------------------------------------- record
_r(
    "MODULE-NOT-ENABLED",
    "module not enabled",
    "Modul nicht aktiv",
    S_NOTATION,
    "'{verb}' belongs to the module {module}, which is not in the Modules header",
    "'{verb}' gehört zum Modul {module}, das nicht im Modules-Eintrag steht",
)
_r(
    "UNKNOWN-VERB",
    "unknown action",
    "unbekannte Aktion",
    S_NOTATION,
    "'{verb}' is no action of the base game nor of any known module",
    "'{verb}' ist weder eine Aktion des Grundspiels noch eines bekannten Moduls",
)
_r(
    "UNKNOWN-PLAYER",
    "unknown player",
    "unbekannter Spieler",
    S_NOTATION,
    "{player} is not in the Players header ({players})",
    "{player} steht nicht im Players-Eintrag ({players})",
)
_r(
    "UNKNOWN-TILE",
    "ambiguous tile",
    "mehrdeutiges Plättchen",
    S_NOTATION,
    "{tile} can mean {candidates}; write the walls to say which",
    "{tile} kann {candidates} bedeuten; die Mauern angeben",
)
_r(
    "POSITION-INVALID",
    "impossible position",
    "unmögliche Stellung",
    S_NOTATION,
    "{detail}",
    "{detail_de}",
)
