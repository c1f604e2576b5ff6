"""German for Click's own messages (usage errors, help headings) under ``--lang de``.

Click writes its messages through ``gettext``; :func:`install` points the ``gettext`` and
``ngettext`` names of Click's modules at functions that answer from the table below when the
output language is German, and otherwise return Click's English text unchanged. The language is
set by :func:`set_lang` (the CLI entry reads ``--lang`` from the arguments before Click parses
them, so that even an error in the arguments themselves is reported in German).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

_LANG: list[str] = ["en"]

_DE: dict[str, str] = {
    "Usage:": "Aufruf:",
    "Options": "Optionen",
    "Commands": "Befehle",
    "Positional arguments": "Argumente",
    "Error: {message}": "Fehler: {message}",
    "Try '{command} {option}' for help.": "Hilfe: '{command} {option}'.",
    "Invalid value for {param_hint}: {message}": "Ungültiger Wert für {param_hint}: {message}",
    "Invalid value: {message}": "Ungültiger Wert: {message}",
    "Missing argument": "Fehlendes Argument",
    "Missing option": "Fehlende Option",
    "Missing parameter": "Fehlender Parameter",
    "Missing {param_type}": "{param_type} fehlt",
    "Missing command.": "Befehl fehlt.",
    "No such command {name!r}.": "Kein Befehl {name!r}.",
    "No such option {name!r}.": "Keine Option {name!r}.",
    "Option {name!r} does not take a value.": "Die Option {name!r} nimmt keinen Wert.",
    "Show the version and exit.": "Version zeigen und beenden.",
    "Show this message and exit.": "Diese Hilfe zeigen und beenden.",
    "default: {default}": "Vorgabe: {default}",
    "{value!r} is not a valid {number_type}.": "{value!r} ist keine gültige Zahl ({number_type}).",
    "{value} is not in the range {range}.": "{value} liegt nicht im Bereich {range}.",
    "{name} {filename!r} does not exist.": "{name} {filename!r} gibt es nicht.",
    "{name} {filename!r} is a directory.": "{name} {filename!r} ist ein Ordner.",
    "{name} {filename!r} is a file.": "{name} {filename!r} ist eine Datei.",
    "{name} {filename!r} is not readable.": "{name} {filename!r} ist nicht lesbar.",
    "{name} {filename!r} is not writable.": "{name} {filename!r} ist nicht schreibbar.",
    "Could not open file {filename!r}: {message}": (
        "Die Datei {filename!r} kann nicht geöffnet werden: {message}"
    ),
    "file": "Datei",
    "directory": "Ordner",
    "path": "Pfad",
    "Aborted!": "Abgebrochen!",
}

_DE_PLURAL: dict[str, tuple[str, str]] = {
    "Got unexpected extra argument ({args})": (
        "Unerwartetes zusätzliches Argument ({args})",
        "Unerwartete zusätzliche Argumente ({args})",
    ),
    "Did you mean {possibility}?": (
        "Meinten Sie {possibility}?",
        "(Meinten Sie eine von: {possibilities}?)",
    ),
    "Option {name!r} requires an argument.": (
        "Die Option {name!r} braucht einen Wert.",
        "Die Option {name!r} braucht {nargs} Werte.",
    ),
    "{value!r} is not {choice}.": (
        "{value!r} ist nicht {choice}.",
        "{value!r} ist keiner von {choices}.",
    ),
}

_MODULES = ("core", "exceptions", "parser", "types", "decorators", "formatting", "termui", "utils")


def set_lang(lang: str) -> None:
    """The language of Click's messages from now on (``en`` or ``de``)."""
    _LANG[0] = lang


def current_lang() -> str:
    """The language of Click's messages (set by :func:`set_lang`)."""
    return _LANG[0]


def gettext_de(message: str) -> str:
    if _LANG[0] == "de":
        return _DE.get(message, message)
    return message


def ngettext_de(singular: str, plural: str, n: int) -> str:
    if _LANG[0] == "de" and singular in _DE_PLURAL:
        one, many = _DE_PLURAL[singular]
        return one if n == 1 else many
    return singular if n == 1 else plural


def install() -> None:
    """Route Click's ``gettext``/``ngettext`` through this module's German table."""
    for name in _MODULES:
        try:
            module = importlib.import_module(f"click.{name}")
        except ImportError:  # pragma: no cover - a Click without that module
            continue
        patch: dict[str, Callable[..., str]] = {"_": gettext_de, "ngettext": ngettext_de}
        for attr, func in patch.items():
            if hasattr(module, attr):
                setattr(module, attr, func)


def lang_from_args(args: list[str]) -> str | None:
    """``de``/``en`` when the arguments say ``--lang de`` (or ``--lang=de``), else None."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1].strip().lower()
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1].strip().lower()
        else:
            continue
        return value if value in ("en", "de") else None
    return None
