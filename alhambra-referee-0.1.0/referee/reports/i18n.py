"""English and German texts for everything the referee shows to people.

* :data:`LANGS` are the supported languages; :func:`resolve_lang` picks one (an explicit value
  wins, else the environment's locale, else English).
* :data:`lang_option` is the ``--lang en|de`` option every reporting command carries; its value
  reaches the command already resolved (``"en"`` or ``"de"``, never None).
* :func:`t` looks up a UI string by key and fills ``{placeholders}``. Building types and
  currencies come from the catalogue's names: ``t("type.T", lang)``, ``t("types.T", lang)``
  (plural), ``t("currency.Gu", lang)``.
* :func:`fmt_tile`, :func:`fmt_card` and friends write components for people.

Other packages may add their own strings with :func:`register` (one key, both languages), so
that every user-facing text stays in one table per language.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from referee.catalogue import (
    BuildingType,
    Currency,
    MoneyCard,
    Side,
    TileKind,
    wall_code,
)

LANGS: tuple[str, ...] = ("en", "de")
DEFAULT_LANG = "en"

_ENV_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")


def resolve_lang(value: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: ``value`` when given, else from the locale variables, else English.

    The locale variables are read in POSIX precedence (``LC_ALL``, ``LC_MESSAGES``, ``LANG``);
    the first one that is set and not empty decides: ``de...`` (``de_DE.UTF-8``, ``de_AT``)
    means German, anything else English. An explicit ``value`` that is not a supported
    language falls back the same way.
    """
    if value:
        low = value.strip().lower()
        if low in LANGS:
            return low
    env = os.environ if environ is None else environ
    for var in _ENV_VARS:
        setting = env.get(var, "")
        if setting:
            return "de" if setting.lower().startswith("de") else DEFAULT_LANG
    return DEFAULT_LANG


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias, TypeVar

    import click

    F = TypeVar("F", bound=Callable[..., Any])


def _lang_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    return resolve_lang(value)


def _lang_option() -> Callable[[F], F]:
    """``--lang [en|de]``; the command receives ``lang`` already resolved to ``"en"`` or
    ``"de"``. Made on first use (``from referee.reports.i18n import lang_option``): a plain
    ``check`` runs without Click (:mod:`referee.cli_plain`) and reads these texts too."""
    import click

    return click.option(
        "--lang",
        type=click.Choice(LANGS, case_sensitive=False),
        default=None,
        callback=_lang_callback,
        is_eager=True,  # resolved first, so that other options' errors can use it
        help="Language of the output (default: from LC_ALL / LC_MESSAGES / LANG, else en).",
    )


def __getattr__(name: str) -> Callable[[F], F]:
    if name == "lang_option":
        option: Callable[[F], F] = _lang_option()
        globals()["lang_option"] = option
        return option
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def current_lang() -> str:
    """The language of the running command (its ``--lang``), else from the environment."""
    import click

    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        value = ctx.params.get("lang")
        if isinstance(value, str) and value in LANGS:
            return value
        ctx = ctx.parent
    return resolve_lang(None)


# ------------------------------------------------------------------------------ strings

_MESSAGES: dict[str, dict[str, str]] = {
    # areas of the table
    "alhambra": {"en": "Alhambra", "de": "Alhambra"},
    "reserve": {"en": "Reserve", "de": "Reserve"},
    "hand": {"en": "Hand", "de": "Hand"},
    "score": {"en": "Score", "de": "Punkte"},
    "market": {"en": "Market", "de": "Bauhof"},
    "display": {"en": "Display", "de": "Auslage"},
    "dirk": {"en": "Dirk", "de": "Dirk"},
    "to_move": {"en": "to move", "de": "am Zug"},
    "player_to_move": {"en": "{player} to move", "de": "{player} ist am Zug"},
    "nobody_to_move": {"en": "nobody to move (game over)", "de": "niemand am Zug (Spielende)"},
    "unknown_to_move": {"en": "who moves next is unknown", "de": "wer am Zug ist, ist unbekannt"},
    "fountain": {"en": "fountain", "de": "Brunnen"},
    "empty": {"en": "empty", "de": "leer"},
    "none": {"en": "none", "de": "keine"},
    "unknown": {"en": "unknown", "de": "unbekannt"},
    "player": {"en": "Player", "de": "Spieler"},
    "players": {"en": "Players", "de": "Spieler"},
    "turn": {"en": "turn", "de": "Zug"},
    "line": {"en": "line", "de": "Zeile"},
    "scoring": {"en": "Scoring", "de": "Wertung"},
    "scorings_done": {"en": "scorings done: {n}", "de": "Wertungen erfolgt: {n}"},
    "wall": {"en": "outer wall", "de": "Außenmauer"},
    "longest_wall": {"en": "longest outer wall", "de": "längste Außenmauer"},
    "points": {"en": "points", "de": "Punkte"},
    "total": {"en": "total", "de": "gesamt"},
    "cards": {"en": "cards", "de": "Karten"},
    "tiles": {"en": "tiles", "de": "Plättchen"},
    "card_count": {"en": "{n} cards", "de": "{n} Karten"},
    "value_total": {"en": "total value {n}", "de": "Gesamtwert {n}"},
    "walls": {"en": "walls", "de": "Mauern"},
    "unknown_tiles": {
        "en": "and {n} unknown tiles in the Alhambra (not drawn)",
        "de": "und {n} unbekannte Plättchen in der Alhambra (nicht gezeichnet)",
    },
    "unknown_tiles.one": {
        "en": "and 1 unknown tile in the Alhambra (not drawn)",
        "de": "und 1 unbekanntes Plättchen in der Alhambra (nicht gezeichnet)",
    },
    "no_walls": {"en": "no walls", "de": "keine Mauern"},
    "legend": {"en": "Legend", "de": "Legende"},
    "legend_walls": {
        "en": "heavy lines = walls, light lines = open sides, ** = fountain",
        "de": "dicke Linien = Mauern, dünne Linien = offene Seiten, ** = Brunnen",
    },
    "legend_legal": {
        "en": "[+] = legal cell for {tile}",
        "de": "[+] = erlaubtes Feld für {tile}",
    },
    "position_at": {"en": "Position {where}", "de": "Stellung {where}"},
    "at_start": {"en": "at the start", "de": "zu Beginn"},
    "at_end": {"en": "at the end of the record", "de": "am Ende der Aufzeichnung"},
    "position_block": {
        "en": "as given in the position block (line {line})",
        "de": "wie im Stellungsblock angegeben (Zeile {line})",
    },
    "after_turn": {"en": "after turn {n}", "de": "nach Zug {n}"},
    "after_line": {"en": "after line {n}", "de": "nach Zeile {n}"},
    "at_scoring": {"en": "after scoring {n}", "de": "nach der {n}. Wertung"},
    "side.N": {"en": "north", "de": "Norden"},
    "side.E": {"en": "east", "de": "Osten"},
    "side.S": {"en": "south", "de": "Süden"},
    "side.W": {"en": "west", "de": "Westen"},
    "cell": {"en": "cell {at}", "de": "Feld {at}"},
    # verdicts (explain / legal)
    "legal": {"en": "legal", "de": "erlaubt"},
    "illegal": {"en": "not legal", "de": "nicht erlaubt"},
    "action_legal": {"en": "Legal: {action}", "de": "Erlaubt: {action}"},
    "action_illegal": {"en": "Not legal: {action}", "de": "Nicht erlaubt: {action}"},
    "rule_broken": {"en": "Rule broken", "de": "Verletzte Regel"},
    "alternatives": {"en": "Legal alternatives", "de": "Erlaubte Alternativen"},
    "legal_cells": {"en": "Legal cells for {tile}", "de": "Erlaubte Felder für {tile}"},
    "no_legal_cells": {
        "en": "No legal cell for {tile}.",
        "de": "Kein erlaubtes Feld für {tile}.",
    },
    "legal_takes": {"en": "Legal money takes", "de": "Erlaubtes Geldnehmen"},
    "no_legal_takes": {"en": "No money can be taken.", "de": "Es kann kein Geld genommen werden."},
    "affordable": {"en": "Affordable purchases", "de": "Bezahlbare Käufe"},
    "nothing_affordable": {"en": "Nothing is affordable.", "de": "Nichts ist bezahlbar."},
    "exact": {"en": "exact (one more action)", "de": "passend (noch ein Spielzug)"},
    "overpaid": {"en": "overpaid by {n} (turn ends)", "de": "{n} zu viel (Zug endet)"},
    "pay_with": {"en": "pay {cards}", "de": "zahle {cards}"},
    "on_field": {"en": "on the {currency} field", "de": "auf dem {currency}-Feld"},
    # input and usage errors of the dispute tools
    "err.at": {
        "en": "{value!r}: use a turn number (12), L and a line number (L40), S and a scoring "
        "(S2), 'start' or 'end'",
        "de": "{value!r}: eine Zugnummer (12), L und eine Zeilennummer (L40), S und eine Wertung "
        "(S2), 'start' oder 'end' angeben",
    },
    "err.no_player": {
        "en": "no player {name!r} (players: {names})",
        "de": "kein Spieler {name!r} (Spieler: {names})",
    },
    "err.unreadable": {
        "en": "{path}: cannot read the file ({why})",
        "de": "{path}: die Datei kann nicht gelesen werden ({why})",
    },
    "err.no_game": {"en": "{path}: no game in the file", "de": "{path}: keine Partie in der Datei"},
    "err.cannot_read": {
        "en": "cannot read the file: {why}",
        "de": "die Datei kann nicht gelesen werden: {why}",
    },
    "err.internal": {
        "en": "internal error: {error}",
        "de": "interner Fehler: {error}",
    },
    "err.internal_check": {
        "en": "internal error while checking: {error}",
        "de": "interner Fehler beim Prüfen: {error}",
    },
    "err.memory_check": {
        "en": "not enough memory to check this game: the process reached the memory it may use"
        " (a limit set for it, or the machine's); this is no verdict on the game",
        "de": "nicht genug Arbeitsspeicher, um diese Partie zu prüfen: der Prozess hat den"
        " Speicher erreicht, den er nutzen darf (eine ihm gesetzte Grenze oder die der"
        " Maschine); das ist kein Urteil über die Partie",
    },
    "err.game_number": {
        "en": "the file holds {n} games",
        "de": "die Datei enthält {n} Partien",
    },
    "err.game_number.one": {
        "en": "the file holds 1 game",
        "de": "die Datei enthält 1 Partie",
    },
    "err.no_players": {
        "en": '{where}: this game names no players (write a [Players "..."] header)',
        "de": '{where}: diese Partie nennt keine Spieler ([Players "..."] angeben)',
    },
    "err.turns": {
        "en": "the record has {n} turns, not {wanted}",
        "de": "die Aufzeichnung hat {n} Züge, nicht {wanted}",
    },
    "err.no_scoring": {
        "en": "the record has no line 'scoring {n}'",
        "de": "die Aufzeichnung hat keine Zeile 'scoring {n}'",
    },
    "err.not_a_tile": {
        "en": "{text!r} is not a tile (e.g. T13, G10n)",
        "de": "{text!r} ist kein Plättchen (z. B. T13, G10n)",
    },
    "err.ambiguous_tile": {
        "en": "{text!r} can mean {options}: write the walls to say which",
        "de": "{text!r} kann {options} bedeuten: die Mauern angeben",
    },
    "err.at_and_scoring": {
        "en": "give either --at or --scoring, not both",
        "de": "entweder --at oder --scoring angeben, nicht beides",
    },
    "err.scoring_number": {
        "en": "a game has scorings 1, 2 and 3",
        "de": "eine Partie hat die Wertungen 1, 2 und 3",
    },
    "err.cannot_write": {
        "en": "{path}: cannot write ({why})",
        "de": "{path}: kann nicht geschrieben werden ({why})",
    },
    "err.not_an_action": {
        "en": '{text!r} is not one turn\'s action(s) (e.g. "place T10w@1,0")',
        "de": '{text!r} ist keine Aktion eines Zuges (z. B. "place T10w@1,0")',
    },
    "no_tiles_to_check": {
        "en": "No tile to check: give one with --tile.",
        "de": "Kein Plättchen zu prüfen: eines mit --tile angeben.",
    },
    "rule_source_build": {
        "en": "building rules: rulebook-base-de-2003.txt, section Alhambra-Bauregeln",
        "de": "Bauregeln: rulebook-base-de-2003.txt, Abschnitt Alhambra-Bauregeln",
    },
}


def register(key: str, en: str, de: str) -> None:
    """Add (or replace) one UI string in both languages."""
    _MESSAGES[key] = {"en": en, "de": de}


def has(key: str) -> bool:
    """Whether a UI string with this key exists (catalogue names included)."""
    if key in _MESSAGES:
        return True
    return _component_name(key, DEFAULT_LANG) is not None


def keys() -> tuple[str, ...]:
    """All keys of the string table (without the catalogue-derived ``type.``/``currency.``)."""
    return tuple(_MESSAGES)


def _component_name(key: str, lang: str) -> str | None:
    prefix, _, code = key.partition(".")
    try:
        if prefix == "type":
            return BuildingType(code).name_in(lang)
        if prefix == "types":
            return BuildingType(code).name_in(lang, plural=True)
        if prefix == "currency":
            return Currency(code).name_in(lang)
    except ValueError:
        return None
    return None


def t(key: str, lang: str, /, **params: object) -> str:
    """The text for ``key`` in ``lang`` with ``{placeholders}`` filled from ``params``.

    Unknown languages fall back to English; an unknown key is returned as it is (so a missing
    string shows up in the output instead of crashing the referee).
    """
    if lang not in LANGS:
        lang = DEFAULT_LANG
    entry = _MESSAGES.get(key)
    if entry is None:
        text = _component_name(key, lang)
        if text is None:
            return key
    else:
        text = entry.get(lang) or entry[DEFAULT_LANG]
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


# ----------------------------------------------------------------------------- formatting

Style: TypeAlias = 'Literal["code", "name", "both"]'


def type_name(type_: BuildingType | None, lang: str, plural: bool = False) -> str:
    if type_ is None:
        return t("fountain", lang)
    return type_.name_in(_lang(lang), plural=plural)


def currency_name(currency: Currency, lang: str) -> str:
    return currency.name_in(_lang(lang))


def _lang(lang: str) -> str:
    return lang if lang in LANGS else DEFAULT_LANG


def _resolve_tile(tile: object) -> TileKind | None:
    """A catalogue tile from a TileKind or an unambiguous TileRef-like object."""
    if isinstance(tile, TileKind):
        return tile
    kind = getattr(tile, "kind", None)
    if isinstance(kind, TileKind):
        return kind
    return None


def fmt_walls(walls: Iterable[Side], lang: str) -> str:
    """Walls for people: ``walls north, east`` / ``Mauern Norden, Osten`` / ``no walls``."""
    ws = set(walls)
    names = [t(f"side.{s.value}", lang) for s in (Side.N, Side.E, Side.S, Side.W) if s in ws]
    if not names:
        return t("no_walls", lang)
    return f"{t('walls', lang)} {', '.join(names)}"


def fmt_tile(tile: object, lang: str, style: Style = "both") -> str:
    """A building tile for people.

    ``style="code"``: the notation code (``T13``, ``G10n``), the same in every language;
    ``"name"``: ``tower 13`` / ``Turm 13``; ``"both"`` (default): ``T13 (tower 13)``.
    Accepts a catalogue ``TileKind``, a record ``TileRef`` (unknown ``?`` and ambiguous short
    forms are written as typed), a module ``ComponentRef`` (``kind:name``), or None (``?``).
    """
    if tile is None or getattr(tile, "known", True) is False:
        return "?"  # nothing, or the unknown tile of a record
    kind = _resolve_tile(tile)
    if kind is not None:
        code = kind.code
        name = f"{type_name(kind.type, lang)} {kind.price}"
    else:
        if hasattr(tile, "kind") and hasattr(tile, "name") and not hasattr(tile, "type"):
            return _module_piece(tile, lang, style)  # a module component
        type_ = getattr(tile, "type", None)
        price = getattr(tile, "price", None)
        if not isinstance(type_, BuildingType) or ":" in str(getattr(tile, "code", "")):
            # the fountain or something without a building type
            if type_ is None and price is None and getattr(tile, "code", None) is None:
                return t("fountain", lang)
            return _module_piece(tile, lang, style)  # a square, a building site ...
        walls = getattr(tile, "walls", None)
        code = f"{type_.code}{price if price is not None else ''}"
        if walls is not None:
            code += wall_code(walls)
        name = f"{type_name(type_, lang)} {price if price is not None else '?'}"
    if style == "code":
        return code
    if style == "name":
        return name
    return f"{code} ({name})"


def _module_piece(piece: object, lang: str, style: Style) -> str:
    """A module piece or component: its token (``md:5n``), its name from
    :mod:`referee.reports.pieces` (``medina 5``), or both (``md:5n (medina 5)``)."""
    from referee.reports.pieces import piece_code, piece_words

    code = piece_code(piece)
    words = piece_words(piece, lang)
    if style == "code" or words is None:
        return code
    if style == "name":
        return words
    return f"{code} ({words})"


def fmt_card(card: object, lang: str, style: Style = "code") -> str:
    """A money card for people.

    ``style="code"`` (default, for lists): ``Gu3``; ``"name"``: ``florin 3`` / ``Gulden 3``;
    ``"both"``: ``Gu3 (florin 3)``. Accepts a ``MoneyCard``, a record ``CardRef`` (``?`` when
    unknown), a ``ScoringCardRef`` (``W1``) or a module ``ComponentRef``.
    """
    if card is None:
        return "?"
    mc: MoneyCard | None
    if isinstance(card, MoneyCard):
        mc = card
    elif hasattr(card, "card"):
        mc = card.card
        if mc is None:
            return "?"
    elif hasattr(card, "number"):
        return f"W{card.number}"
    elif hasattr(card, "kind") and hasattr(card, "name"):
        return _module_piece(card, lang, style)
    else:
        return str(card)
    if not isinstance(mc, MoneyCard):
        return str(mc)
    code = mc.code
    name = f"{currency_name(mc.currency, lang)} {mc.value}"
    if style == "code":
        return code
    if style == "name":
        return name
    return f"{code} ({name})"


def fmt_cards(cards: Iterable[object], lang: str, style: Style = "code") -> str:
    """Cards as a comma-separated list, or ``none`` / ``keine`` when there are none."""
    parts = [fmt_card(c, lang, style) for c in cards]
    return ", ".join(parts) if parts else t("none", lang)


def fmt_tiles(tiles: Iterable[object], lang: str, style: Style = "code") -> str:
    """Tiles as a comma-separated list, or ``none`` / ``keine``."""
    parts = [fmt_tile(x, lang, style) for x in tiles]
    return ", ".join(parts) if parts else t("none", lang)


def fmt_coord(at: object) -> str:
    """A coordinate as in the notation: ``1,-2``."""
    x = getattr(at, "x", None)
    y = getattr(at, "y", None)
    if isinstance(x, int) and isinstance(y, int):
        return f"{x},{y}"
    if isinstance(at, tuple) and len(at) == 2:
        return f"{at[0]},{at[1]}"
    return str(at)


def fmt_coords(cells: Iterable[object]) -> str:
    """Coordinates as ``1,0 2,0 0,-1``."""
    return " ".join(fmt_coord(c) for c in cells)
