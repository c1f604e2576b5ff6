"""Module pieces and module money in words (English / German) for the dispute tools and the
replay: ``md:5n`` is "medina 5" / "Medina 5", ``dm:7`` "diamond 7" / "Diamant 7".

A module's component token is ``kind:name`` (``docs/modules.md``); the kind names the piece.
The words for each kind are the piece's name in the module's rulebook section
(rulebook-bigbox-de-2019.txt; ``tests/test_dispute_modules.py`` checks that every component
kind of every module has words here). A kind without words is written as its token.
"""

from __future__ import annotations

import re

# kind: (English, German) -- the name the module's section gives the piece
PIECE_WORDS: dict[str, tuple[str, str]] = {
    "sc": ("scout", "Späher"),  # DIE ANGREIFER
    "bh": ("bathhouse", "Badehaus"),  # Die Badehäuser
    "bl": ("building plot", "Baugrundstück"),  # Neues Bauland
    "mb": ("master-builder card", "Baumeisterkarte"),  # DIE BAUMEISTER
    "bs": ("building site", "Baustelle"),  # DIE BAUSTELLEN
    "bz": ("bazaar", "Bazar"),  # DIE BAZARE
    "dm": ("diamond", "Diamant"),  # DIE DIAMANTEN
    "th": ("thief card", "Diebkarte"),  # DIE DIEBE
    "mg": ("magic building", "Magisches Gebäude"),  # DIE MAGISCHEN GEBÄUDE
    "md": ("medina", "Medina"),  # MEDINA
    "sq": ("square", "Platz"),  # DIE PLÄTZE
    "sz": ("treasure", "Schatz"),  # Die Schätze
    "su": ("sultan card", "Sultankarte"),  # DIE MACHT DES SULTANS
    "co": ("coin", "Münze"),  # DAS WECHSELGELD
    "ws": ("exchange certificate", "Wechselschein"),  # DIE WECHSELSCHEINE
    "ex": ("exchange office", "Wechselstube"),  # DIE WECHSELSTUBEN
    "st": ("scoring tile", "Wertungskärtchen"),  # DIE NEUEN WERTUNGSKÄRTCHEN
    "task": ("wish tile", "Aufgabenplättchen"),  # Die Wünsche des Kalifen
    "ww": ("wishing well", "Wunschbrunnen"),  # Der Wunschbrunnen
    "fr": ("fruit", "Frucht"),  # Die Obstgärten
    "bd": ("fruit board", "Obstgarten-Tableau"),  # Die Obstgärten
}

_NUMBER = re.compile(r"\d+")


def kind_words(kind: str, lang: str) -> str | None:
    """The name of a module piece kind (``md`` -> ``medina`` / ``Medina``), or None."""
    words = PIECE_WORDS.get(kind.lower())
    if words is None:
        return None
    return words[1] if lang == "de" else words[0]


def piece_code(piece: object) -> str:
    """The token of a module piece or component (``md:5n``)."""
    kind = getattr(piece, "kind", None)
    name = getattr(piece, "name", None)
    if isinstance(kind, str) and isinstance(name, str):
        return f"{kind}:{name}"
    code = getattr(piece, "code", None)
    return str(code) if code is not None else str(piece)


def piece_words(piece: object, lang: str) -> str | None:
    """A module piece in words: its kind's name and its price or value when it has one
    (``medina 5``, ``Diamant 7``, ``square``); None when the token names no known kind."""
    code = piece_code(piece)
    kind, sep, rest = code.partition(":")
    if not sep:
        return None
    name = kind_words(kind, lang)
    if name is None:
        return None
    price = getattr(piece, "price", None)
    if not isinstance(price, int):
        price = getattr(piece, "value", None)
    if not isinstance(price, int):
        m = _NUMBER.match(rest)
        price = int(m.group()) if m and kind.lower() in _NUMBERED else None
    return name if price is None else f"{name} {price}"


# kinds whose token starts with the price or value (md:5n, dm:7, sz:3)
_NUMBERED = frozenset({"md", "dm", "sz"})
