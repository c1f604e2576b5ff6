"""German for every message of the notation layer (syntax errors and token problems).

The notation layer writes its messages in English (``NotationError.message``); each English
template here has its German twin. :func:`localize` finds the template a message was made from
(placeholders such as ``{tok}`` match any text) and fills the German one with the same values.
A message without a German template stays English (a test keeps the table complete).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache

from referee.catalogue import BuildingType
from referee.record.model import NotationError

# English template -> German template. ``{name}`` placeholders carry over (same names).
GERMAN: dict[str, str] = {
    # --- syntax errors (referee.notation.errors.MESSAGES), one per label
    "missing 'pay' before the cards paid: buy FIELD TILE pay CARD CARD...": (
        "'pay' fehlt vor den bezahlten Karten: buy FELD PLÄTTCHEN pay KARTE KARTE..."
    ),
    "a coordinate needs two whole numbers: @x,y (e.g. @1,-2)": (
        "eine Koordinate braucht zwei ganze Zahlen: @x,y (z. B. @1,-2)"
    ),
    "'{tok}' is not a money card: write a currency (Gu, Di, De, Du) and a value 1-9": (
        "'{tok}' ist keine Geldkarte: eine Währung (Gu, Di, De, Du) und einen Wert 1-9 schreiben"
    ),
    "a turn number must end with a dot: '12. Ben: ...'": (
        "eine Zugnummer endet mit einem Punkt: '12. Ben: ...'"
    ),
    'unterminated header: write [Name "value"] on one line': (
        'Kopfzeile nicht abgeschlossen: [Name "Wert"] auf eine Zeile schreiben'
    ),
    'a header value must be in double quotes: [Name "value"]': (
        'der Wert einer Kopfzeile steht in doppelten Anführungszeichen: [Name "Wert"]'
    ),
    'a header needs a name first: [Name "value"]': (
        'eine Kopfzeile braucht zuerst einen Namen: [Name "Wert"]'
    ),
    "missing 'end' of the position block": "das 'end' des Positionsblocks fehlt",
    "'{tok}' is not a building tile: write the type (P S A C G T) and the price, plus the walls "
    "where needed (T13, G10n)": (
        "'{tok}' ist kein Gebäudeplättchen: den Typ (P S A C G T) und den Preis schreiben, wo "
        "nötig mit den Mauern (T13, G10n)"
    ),
    "missing coordinate: write the tile and where it goes, e.g. A6sw@0,-1": (
        "Koordinate fehlt: das Plättchen und seinen Ort schreiben, z. B. A6sw@0,-1"
    ),
    "'give' needs a receiver: give TILE dirk, or give TILE PLAYER": (
        "'give' braucht einen Empfänger: give PLÄTTCHEN dirk oder give PLÄTTCHEN SPIELER"
    ),
    "an event is missing after '*' or ',' (deal, display, market, dirk...)": (
        "nach '*' oder ',' fehlt ein Ereignis (deal, display, market, dirk...)"
    ),
    "a scoring needs its number: scoring 1, scoring 2 or scoring 3": (
        "eine Wertung braucht ihre Nummer: scoring 1, scoring 2 oder scoring 3"
    ),
    "write claimed figures as +points, =total and (T=6, wall=3): e.g. Anna +9 =23 (T=6)": (
        "behauptete Zahlen als +Punkte, =Summe und (T=6, wall=3) schreiben: z. B. Anna +9 =23 (T=6)"
    ),
    "write a breakdown as (TYPE=points, ..., wall=points), e.g. (T=6, wall=3)": (
        "eine Aufschlüsselung als (TYP=Punkte, ..., wall=Punkte) schreiben, z. B. (T=6, wall=3)"
    ),
    "join the market field and its tile with ':' (Gu:T10n)": (
        "Marktfeld und Plättchen mit ':' verbinden (Gu:T10n)"
    ),
    "say who gets each leftover tile: Gu:T9ne Ben@3,1, Gu:T9ne Ben reserve, or Gu:T9ne none": (
        "für jedes übrige Plättchen angeben, wer es bekommt: Gu:T9ne Ben@3,1, "
        "Gu:T9ne Ben reserve oder Gu:T9ne none"
    ),
    'a player name is missing here (quote names with spaces: "Anna Lena")': (
        'hier fehlt ein Spielername (Namen mit Leerzeichen in Anführungszeichen: "Anna Lena")'
    ),
    "an action is missing here (take, buy, build, remove, swap, place...)": (
        "hier fehlt eine Aktion (take, buy, build, remove, swap, place...)"
    ),
    "missing ',' between two actions: write 'take Gu1, buy ...'": (
        "',' fehlt zwischen zwei Aktionen: 'take Gu1, buy ...' schreiben"
    ),
    "an annotation {...} goes after the action or event it is about": (
        "eine Anmerkung {...} steht nach der Aktion oder dem Ereignis, zu dem sie gehört"
    ),
    "not a line of a position block: next, scorings, market, display, dirk, player, score, "
    "hand, reserve, alhambra, counts (or a module line)": (
        "keine Zeile eines Positionsblocks: next, scorings, market, display, dirk, player, "
        "score, hand, reserve, alhambra, counts (oder eine Modulzeile)"
    ),
    "'{tok}' is a building tile, but money cards are expected here": (
        "'{tok}' ist ein Gebäudeplättchen, hier werden aber Geldkarten erwartet"
    ),
    # --- syntax errors made from the offending token (referee.notation.errors)
    "'{tok}' is a money card, but a building tile is expected here": (
        "'{tok}' ist eine Geldkarte, hier wird aber ein Gebäudeplättchen erwartet"
    ),
    "unknown currency '{cur}' in '{tok}': the currencies are Gu (Gulden/florin), Di (Dirham), "
    "De (Denar/dinar), Du (Dukaten/ducat)": (
        "unbekannte Währung '{cur}' in '{tok}': die Währungen sind Gu (Gulden), Di (Dirham), "
        "De (Denar), Du (Dukaten)"
    ),
    "'{tok}': a money card's value is 1-9": "'{tok}': der Wert einer Geldkarte ist 1-9",
    "unknown building type '{kind}' in '{tok}': the types are P (pavilion), S (seraglio), "
    "A (arcades), C (chambers), G (garden), T (tower)": (
        "unbekannter Gebäudetyp '{kind}' in '{tok}': die Typen sind P (Pavillon), S (Serail), "
        "A (Arkaden), C (Gemächer), G (Garten), T (Turm)"
    ),
    'unterminated string: a closing " is missing': (
        'Zeichenkette nicht abgeschlossen: das schließende " fehlt'
    ),
    "unterminated annotation: a closing } is missing": (
        "Anmerkung nicht abgeschlossen: die schließende } fehlt"
    ),
    "unexpected character '{ch}'": "unerwartetes Zeichen '{ch}'",
    "unexpected the end of the line": "unerwartetes Zeilenende",
    "unexpected the end of the text": "unerwartetes Textende",
    "unexpected '{tok}'": "unerwartet: '{tok}'",
    "syntax error": "Syntaxfehler",
    # --- problems found while reading tokens (referee.notation.parser / tokens)
    "number too large: '{digits}' has {n} digits (the notation reads at most {max})": (
        "Zahl zu groß: '{digits}' hat {n} Stellen (die Notation liest höchstens {max})"
    ),
    "coordinate {xy} out of range: x and y lie between -{lim} and {lim2} (the fountain is 0,0)": (
        "Koordinate {xy} außerhalb des Bereichs: x und y liegen zwischen -{lim} und {lim2} "
        "(der Brunnen ist 0,0)"
    ),
    "number too large in '{tok}' (the notation reads at most {max} digits)": (
        "Zahl zu groß in '{tok}' (die Notation liest höchstens {max} Stellen)"
    ),
    "number too large in tile '{tok}': no tile costs that much": (
        "Zahl zu groß im Plättchen '{tok}': kein Plättchen kostet so viel"
    ),
    "unknown building type '{kind}' (write P, S, A, C, G, T or their names, or wall)": (
        "unbekannter Gebäudetyp '{kind}' (P, S, A, C, G, T oder ihre Namen schreiben, oder wall)"
    ),
    "'{kw}' describes a player: write 'player NAME' on a line before it": (
        "'{kw}' beschreibt einen Spieler: davor eine Zeile 'player NAME' schreiben"
    ),
    "a header tag must come before the moves of its game": (
        "eine Kopfzeile muss vor den Zügen ihrer Partie stehen"
    ),
    "a line of prose, not a line of the notation (no action verb: take, buy, place, build, "
    "remove, swap, or a module's verb): write it as a comment after #": (
        "eine Zeile Fließtext, keine Zeile der Notation (kein Aktionsverb: take, buy, place, "
        "build, remove, swap oder das Verb eines Moduls): bitte als Kommentar nach # schreiben"
    ),
    "there is no market field {n}: the fields are 1-4 (Gu, Di, De, Du)": (
        "es gibt kein Marktfeld {n}: die Felder sind 1-4 (Gu, Di, De, Du)"
    ),
    "wall letter written twice in tile '{tok}'": (
        "Mauerbuchstabe doppelt geschrieben im Plättchen '{tok}'"
    ),
    "there is no {type} costing {price} (the {types} cost {listed})": (
        "es gibt kein Plättchen {type} zum Preis {price} (Preise für {types}: {listed})"
    ),
    "there is no {type} {price} with walls '{walls}' (there is {options})": (
        "es gibt kein Plättchen {type} {price} mit den Mauern '{walls}' (es gibt {options})"
    ),
    # --- the notation version header (referee.notation.parser)
    "unknown notation version '{v}': this referee reads notation version {known}": (
        "unbekannte Notationsversion '{v}': dieser Schiedsrichter liest Notationsversion {known}"
    ),
}

_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9]*)\}")


def _pattern(template: str) -> re.Pattern[str]:
    out: list[str] = []
    pos = 0
    seen: set[str] = set()
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[pos : m.start()]))
        name = m[1]
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.DOTALL)


@cache
def _table() -> tuple[tuple[re.Pattern[str], str], ...]:
    # longer literal text first: "unexpected the end of the line" before "unexpected '{tok}'"
    items = sorted(GERMAN.items(), key=lambda kv: -len(_PLACEHOLDER.sub("", kv[0])))
    return tuple((_pattern(en), de) for en, de in items)


def _type_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for t in BuildingType:
        names[t.name_in("en")] = t.name_in("de")
        names[t.name_in("en", plural=True)] = t.name_in("de", plural=True)
    return names


_FIX: dict[str, Callable[[str], str]] = {
    "type": lambda v: _type_names().get(v, v),
    "types": lambda v: _type_names().get(v, v),
}


def localize(message: str, lang: str) -> str:
    """``message`` (an English notation message) in ``lang``; English stays as it is."""
    if lang != "de":
        return message
    for pattern, german in _table():
        m = pattern.fullmatch(message)
        if m is None:
            continue
        values = {k: _FIX.get(k, str)(v) for k, v in m.groupdict().items()}
        return _PLACEHOLDER.sub(lambda p, vals=values: vals.get(p[1], p[0]), german)  # type: ignore[misc]
    return message


def has_german(message: str) -> bool:
    """Whether ``message`` matches a template of the table (a test keeps them all covered)."""
    return any(p.fullmatch(message) for p, _ in _table())


def localize_error(err: NotationError, lang: str) -> NotationError:
    """The same error with its message in ``lang`` (position, code and excerpt kept)."""
    if lang != "de":
        return err
    return replace(err, message=localize(err.message, lang))
