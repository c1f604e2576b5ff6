"""Module pieces and module money in words (English / German) for the dispute tools and the
replay: ``md:5n`` is "medina 5" / "Medina 5", ``dm:7`` "diamond 7" / "Diamant 7".

A module's component token is ``kind:name`` (``docs/modules.md``); the kind names the piece.
The words for each kind are the piece's name in the module's rulebook section
(rulebook-bigbox-de-2019.txt; ``tests/test_dispute_modules.py`` checks that every component
kind of every module has words). A module gives them itself through its hooks
``Module.piece_words`` and ``Module.verb_words`` (so a new module needs no edit here); the
tables below are the fallback for modules that do not yet. A kind without words is written as
its token.
"""

from __future__ import annotations

import re

# kind: (English, German) -- the name the module's section gives the piece
PIECE_WORDS: dict[str, tuple[str, str]] = {
    "sc": ("scout card", "Kundschafterkarte"),  # DIE ANGREIFER
    "bh": ("bathhouse", "Badehaus"),  # Die Badehäuser
    "bl": ("building plot", "Baugrundstück"),  # Neues Bauland
    "mb": ("master-builder card", "Baumeisterkarte"),  # DIE BAUMEISTER
    "bs": ("building site", "Baustelle"),  # DIE BAUSTELLEN
    "bz": ("bazaar", "Bazar"),  # DIE BAZARE
    "dm": ("diamond", "Diamant"),  # DIE DIAMANTEN
    "fk": ("falcon", "Falke"),  # DIE FALKNER
    "fl": ("camp", "Feldlager"),  # DIE FELDLAGER
    "th": ("thief card", "Diebkarte"),  # DIE DIEBE
    "mg": ("magic building", "Magisches Gebäude"),  # DIE MAGISCHEN GEBÄUDE
    "md": ("medina", "Medina"),  # MEDINA
    "sq": ("square", "Platz"),  # DIE PLÄTZE
    "sz": ("treasure", "Schatz"),  # Die Schätze
    "su": ("sultan card", "Sultankarte"),  # DIE MACHT DES SULTANS
    "co": ("coin", "Münze"),  # DAS WECHSELGELD
    "ws": ("exchange certificate", "Wechselschein"),  # DIE WECHSELSCHEINE
    "ex": ("exchange office", "Wechselstube"),  # DIE WECHSELSTUBEN
    "wt": ("watchtower", "Wachturm"),  # DIE WACHTÜRME
    "st": ("scoring tile", "Wertungskärtchen"),  # DIE NEUEN WERTUNGSKÄRTCHEN
    "task": ("wish tile", "Aufgabenplättchen"),  # Die Wünsche des Kalifen
    "ww": ("wishing well", "Wunschbrunnen"),  # Der Wunschbrunnen
    "fr": ("fruit", "Frucht"),  # Die Obstgärten
    "bd": ("fruit board", "Obstgarten-Tableau"),  # Die Obstgärten
    "gate": ("gate card", "Stadttorkarte"),  # DIE TORE DER STADT
    "wl": ("wall card", "Mauerkarte"),  # DIE MAUERN
}

_NUMBER = re.compile(r"\d+")
_CURRENCY = re.compile(r"Gu|Di|De|Du")
# kinds whose token starts with the currency they belong to (th:De, mb:Gu, co:Du, su:GuA, ...)
_OF_CURRENCY = frozenset({"th", "mb", "co", "su", "bs", "ws", "bz"})


def _from_modules(hook: str, key: str, chance: bool | None = None) -> tuple[str, str] | None:
    """The words a registered module declares for ``key`` in its hook ``hook``
    (``piece_words`` / ``verb_words``), or None. A word may be one module's action verb and
    another's chance verb (``project``: Frische Farben takes a project, Die Großprojekte reveals
    one): ``chance`` (a chance line, an action line, or not known) prefers the module whose verb
    of that kind it is. No module declares a key twice for one kind, and none a key of the
    tables here (the contract test), so the answer does not depend on which modules a run has
    imported: see :func:`_from_all_modules`."""
    from referee.engine.extensions import MODULES

    found: tuple[str, str] | None = None
    for cls in MODULES.values():
        words = getattr(cls, hook, None)
        if words and key in words:
            got = (str(words[key][0]), str(words[key][1]))
            if chance is None or _verb_of_kind(cls, key, chance):
                return got
            found = found or got
    return found


def _verb_of_kind(cls: type, key: str, chance: bool) -> bool:
    """Whether ``key`` is a chance verb (``chance``) or an action verb of module ``cls``."""
    if chance:
        return key in (v.lower() for v in getattr(cls, "chance_verbs", ()))
    return any(
        key in (spec.verb.lower(), *(a.lower() for a in spec.aliases))
        for spec in getattr(cls, "verb_specs", ())
    )


def _from_all_modules(hook: str, key: str, chance: bool | None = None) -> tuple[str, str] | None:
    """:func:`_from_modules` after every bundled module is imported (the engine imports only
    the modules a record names, and a text may name a piece of another)."""
    from referee.engine.extensions import load_bundled_modules

    load_bundled_modules()
    return _from_modules(hook, key, chance)


def kind_words(kind: str, lang: str) -> str | None:
    """The name of a module piece kind (``md`` -> ``medina`` / ``Medina``), or None: the
    module's own ``piece_words``, else the table here."""
    low = kind.lower()
    words = (
        _from_modules("piece_words", low)
        or PIECE_WORDS.get(low)
        or _from_all_modules("piece_words", low)
    )
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
    cur = _CURRENCY.match(rest)
    if cur is not None and kind.lower() in _OF_CURRENCY:  # a card or coin of a currency
        from referee.catalogue import Currency

        name = f"{name} {Currency(cur.group()).name_in(lang)}"
    price = getattr(piece, "price", None)
    if isinstance(price, int) and price <= 0:
        price = None  # no printed price (a bazaar's 0: the side offer derives it)
    if not isinstance(price, int):
        price = getattr(piece, "value", None)
    if not isinstance(price, int):
        m = _NUMBER.match(rest)
        price = int(m.group()) if m and kind.lower() in _NUMBERED else None
    return name if price is None else f"{name} {price}"


# kinds whose token starts with the price or value (md:5n, dm:7, sz:3)
_NUMBERED = frozenset({"md", "dm", "sz"})


# verb: (English, German) -- what a module's line does, in the words of its section
VERB_WORDS: dict[str, tuple[str, str]] = {
    # Die Gunst des Wesirs
    "vizier": ("uses the vizier", "setzt den Wesir ein"),
    "wesir": ("uses the vizier", "setzt den Wesir ein"),
    "wake": ("wakes the vizier", "weckt den Wesir"),
    "wecken": ("wakes the vizier", "weckt den Wesir"),
    # Die Diebe
    "thief": ("plays a thief card", "spielt eine Diebkarte aus"),
    "thieves": ("thief cards dealt", "Diebkarten verteilt"),
    # Die Macht des Sultans
    "sultan": ("sultan card", "Sultankarte"),
    # Die Baumeister
    "master": ("uses a master-builder card", "setzt eine Baumeisterkarte ein"),
    "builders": ("master-builder cards dealt", "Baumeisterkarten verteilt"),
    # Die Angreifer
    "scout": ("takes the scout card", "nimmt die Kundschafterkarte"),
    "scouts": ("scout cards laid out", "Kundschafterkarten ausgelegt"),
    "attack": ("attack card revealed", "Angriffskarte aufgedeckt"),
    # Neues Bauland
    "plot": ("chooses the plot's building", "wählt das Gebäude des Baugrundstücks"),
    "plots": ("building plots", "Baugrundstücke"),
    # Die Baustellen
    "complete": ("completes a building site", "vollendet eine Baustelle"),
    "sites": ("building sites", "Baustellen"),
    # Die Bonuskarten
    "bonus": ("bonus card", "Bonuskarte"),
    # Die Diamanten, Die Schätze, Das Wechselgeld, Die Wechselscheine
    "diamonds": ("diamonds", "Diamanten"),
    "treasures": ("treasures", "Schätze"),
    "change": ("change in coins", "Wechselgeld in Münzen"),
    "certificate": ("exchange certificate", "Wechselschein"),
    # Die Obstgärten
    "fruit": ("fruit", "Frucht"),
    "orchard": ("fruit boards dealt", "Obstgarten-Tableaus verteilt"),
    "fruitboard": ("fruit board", "Obstgarten-Tableau"),
    # Die Falkner
    "falcon": ("buys and places a falcon", "kauft und platziert einen Falken"),
    # Die Plätze
    "square": ("takes a square", "nimmt einen Platz"),
    "platz": ("takes a square", "nimmt einen Platz"),
    "squares": ("squares on offer", "Plätze im Angebot"),
    # Die neuen Wertungskärtchen, Die Wünsche des Kalifen
    "scoringtile": ("scoring tile", "Wertungskärtchen"),
    "tasks": ("wish tiles laid out", "Aufgabenplättchen ausgelegt"),
    # Die Tore der Stadt, Die Mauern
    "gate": ("sets a city gate", "setzt ein Stadttor"),
    "wall": ("builds a wall", "errichtet eine Mauer"),
    # Die Wachtürme
    "longest": ("chooses the longest wall", "wählt den längsten Mauerabschnitt"),
    "längste": ("chooses the longest wall", "wählt den längsten Mauerabschnitt"),
    # pieces set aside beside the market (bazaars, bathhouses, ...)
    "aside": ("set aside beside the market", "neben den Bauhof gelegt"),
}


def verb_words(verb: str, lang: str, chance: bool | None = None) -> str | None:
    """What a module verb does, in words (``vizier`` -> ``uses the vizier``), or None: the
    module's own ``verb_words``, else the table here; ``chance``: the verb heads a chance line
    (True) or an action (False), when known."""
    low = _canonical_verb(verb.lower())
    words = (
        _from_modules("verb_words", low, chance)
        or VERB_WORDS.get(low)
        or _from_all_modules("verb_words", low, chance)
    )
    if words is None:
        return None
    return words[1] if lang == "de" else words[0]


def _canonical_verb(verb: str) -> str:
    """The verb an alias stands for (``hofmarschall`` -> ``marshal``), by the modules'
    declarations (``VerbSpec.aliases``); the verb itself otherwise."""
    from referee.engine.extensions import MODULES, load_bundled_modules
    from referee.engine.verbs import specs_of

    for everything in (False, True):  # the modules imported so far, then every bundled one
        if everything:
            load_bundled_modules()
        for cls in MODULES.values():
            spec = specs_of(getattr(cls, "verb_specs", ())).get(verb)
            if spec is not None:
                return spec.verb.lower()
    return verb


def arg_words(value: object, lang: str) -> str:
    """One argument of a module line for people: a piece or component with its name
    (``co:Du (coin)``), a player by name, a cell as ``1,0``, a word as written."""
    from referee.notation import formatter
    from referee.record.model import CardRef, ComponentRef, Coord, PlayerRef, TileRef

    if isinstance(value, ComponentRef):
        words = piece_words(value, lang)
        token = f"{value.kind}:{value.name}"
        return token if words is None else f"{words} ({token})"
    if isinstance(value, PlayerRef):
        return value.name
    if isinstance(value, Coord):
        return f"{value.x},{value.y}"
    if isinstance(value, CardRef):
        return formatter.card(value)
    if isinstance(value, TileRef):
        return formatter.tile(value)
    return str(value)


def module_line_words(
    verb: str, args: tuple[object, ...], lang: str, chance: bool | None = None
) -> str:
    """A module's action or chance line (``chance``) in words: ``uses a master-builder card:
    master-builder card (mb:Du)``; a verb without words is written as in the record."""
    parts = [arg_words(getattr(a, "value", a), lang) for a in args]
    words = verb_words(verb, lang, chance)
    if words is None:
        return " ".join([verb, *parts])
    return f"{words}: {', '.join(parts)}" if parts else words
