"""What a record must not do before it is replayed: an impossible table, suspicious names.

A record is untrusted input (docs/security.md). Two things are looked at before a game is
replayed, for ``check`` and ``render --html``:

* **the table size**: a ``Players`` header of thousands of names is no game of Alhambra
  (rulebook-base-de-2003.txt, "Spielmaterial"/"Spielvorbereitung": 2 to 6 players). Replaying it
  would cost memory and output in proportion to the names for every line (a finding naming all
  players per line), so :func:`table_error` reports it as one error of the game, which is then
  not replayed. A table of up to :data:`REPLAYED` names is replayed as before (7 to 12 names
  give the engine's own ``SETUP-PLAYERS`` finding, with every other finding).
* **player names**: a name with NUL or another control character, an invisible character
  (zero width, bidi, a separator other than the space) or a spelling not in Unicode normal form
  NFC (two spellings of one name look alike and are two players) is reported as the warning
  ``PLAYER-NAME`` (:func:`name_warnings`); the game is still checked.
"""

from __future__ import annotations

from referee.record.model import Game, NotationError, Pos
from referee.safe_text import bounded, line, name_problems

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.rules import Violation

REPLAYED = 12  # at most this many names are replayed (the engine reports more than 6 itself)

_TABLE = {
    "en": (
        "the Players header names {n} players ({names}); Alhambra is for 2 to 6 players "
        "[rulebook-base-de-2003.txt § Spielvorbereitung]: the game is not replayed"
    ),
    "de": (
        "der Players-Kopf nennt {n} Spieler ({names}); Alhambra ist für 2 bis 6 Personen "
        "[rulebook-base-de-2003.txt § Spielvorbereitung]: die Partie wird nicht nachgespielt"
    ),
}

_NAME_REASONS = {
    "control": ("a control character (NUL or another)", "ein Steuerzeichen (NUL oder ein anderes)"),
    "invisible": (
        "an invisible character (zero width, direction mark, special space)",
        "ein unsichtbares Zeichen (ohne Breite, Schreibrichtung, besonderes Leerzeichen)",
    ),
    "unnormalised": (
        "a spelling that is not in Unicode normal form NFC (a look-alike of another spelling)",
        "eine Schreibung nicht in Unicode-Normalform NFC (gleich aussehend wie eine andere)",
    ),
    "blank": ("only spaces", "nur Leerzeichen"),
}


def names_shown(names: tuple[str, ...] | list[str], limit: int = 8) -> str:
    """The first ``limit`` names, escaped, and how many more."""
    shown = ", ".join(line(n) for n in names[:limit])
    if len(names) > limit:
        shown += f", ... (+{len(names) - limit})"
    return bounded(shown, 400)


def table_error(game: Game, lang: str = "en") -> NotationError | None:
    """The error of a game whose ``Players`` header names more than :data:`REPLAYED`
    players (the game is then not replayed), else None."""
    n = len(game.players)
    if n <= REPLAYED:
        return None
    text = _TABLE.get(lang, _TABLE["en"]).format(n=n, names=names_shown(game.players))
    at = next((h.pos for h in game.headers if h.name.lower() == "players"), None)
    return NotationError(text, at or Pos(game.start_line, 1), "SETUP-PLAYERS")


_registered = False


def _register() -> None:
    global _registered
    if _registered:
        return
    from referee.engine.rules import Rule, register_rule

    reasons = {k: v for k, v in _NAME_REASONS.items()}
    register_rule(
        Rule(
            "PLAYER-NAME",
            "suspicious player name",
            "verdächtiger Spielername",
            "docs/security.md",
            "the name {name} holds {detail}: it is shown escaped; write the name in plain letters",
            "der Name {name} enthält {detail}: er wird maskiert gezeigt; bitte den Namen in "
            "einfachen Buchstaben schreiben",
        ),
        reasons,
    )
    _registered = True


def name_warnings(game: Game) -> list[Violation]:
    """A ``PLAYER-NAME`` warning (:class:`referee.engine.rules.Violation`) for each problem of
    each name in the ``Players`` header, at that header."""
    found = [(name, why) for name in game.players for why in name_problems(name)]
    if not found:
        return []
    _register()
    from referee.engine.rules import Violation

    at = next((h.pos for h in game.headers if h.name.lower() == "players"), None)
    pos = at or Pos(game.start_line, 1)
    return [
        Violation(
            "PLAYER-NAME",
            pos.line,
            pos.column,
            None,
            None,
            {"name": bounded(line(repr(name)[1:-1]), 80)},
            game.source,
            "warning",
            why,
        )
        for name, why in found
    ]


# ------------------------------------------------------------------ the Modules header

_MODULE_RULES = {
    "MODULE-UNKNOWN": (
        ("unknown module", "unbekanntes Modul"),
        (
            "the Modules header names '{name}', which is no module{detail}; its lines are not "
            "checked (`alhambra-referee modules` lists every module)",
            "der Modules-Kopf nennt '{name}', das kein Modul ist{detail}; seine Zeilen werden "
            "nicht geprüft (`alhambra-referee modules` nennt alle Module)",
        ),
        {
            "near": (" (did you mean {closest}?)", " (gemeint: {closest}?)"),
            "far": ("", ""),
        },
    ),
    "MODULE-OPTION-CONFLICT": (
        ("contradictory module options", "widersprüchliche Moduloptionen"),
        (
            "the Modules header sets {option} for the module {module} twice, differently "
            "({values}): say which reading the game was played with",
            "der Modules-Kopf setzt {option} für das Modul {module} zweimal verschieden "
            "({values}): bitte nur die gespielte Lesart angeben",
        ),
        {},
    ),
}
_modules_registered = False


def _register_module_rules() -> None:
    global _modules_registered
    if _modules_registered:
        return
    from referee.engine.rules import Rule, register_rule

    for code, ((name_en, name_de), (text_en, text_de), reasons) in _MODULE_RULES.items():
        register_rule(
            Rule(code, name_en, name_de, "docs/notation.md", text_en, text_de), reasons or None
        )
    _modules_registered = True


_EXTENSIONS: list[Any] = []
"""``referee.engine.extensions`` once :func:`module_header_findings` has imported it (not at
this module's top: the reader's limits need no engine)."""


def module_header_findings(entries: list[str]) -> list[tuple[str, dict[str, str]]]:
    """The problems of a ``Modules`` header's entries (``"medina floor=zero"`` each), as
    ``(code, parameters)``: a name that is no module (``MODULE-UNKNOWN``, with the closest
    module name when one is close), and an option set twice to different values for one module,
    in one entry or in two entries of the same module (``MODULE-OPTION-CONFLICT``: no reading
    is silently preferred)."""
    if not entries:
        return []
    if not _EXTENSIONS:  # (imported on first use: an import statement run per game costs)
        from referee.engine import extensions

        _EXTENSIONS.append(extensions)
    modules = _EXTENSIONS[0].MODULES
    load_module = _EXTENSIONS[0].load_module
    _register_module_rules()
    out: list[tuple[str, dict[str, str]]] = []
    seen: dict[tuple[str, str], list[str]] = {}
    for raw in entries:
        words = raw.split()
        if not words:
            continue
        cls = load_module(words[0])  # every module is imported only for a name that is none
        if cls is None:
            from difflib import get_close_matches  # (only for a name that is no module)

            near = get_close_matches(words[0].lower(), sorted(modules), n=1, cutoff=0.6)
            closest = modules[near[0]].name if near else ""
            out.append(
                (
                    "MODULE-UNKNOWN",
                    {
                        "name": bounded(line(words[0]), 60),
                        "closest": closest,
                        "reason": "near" if closest else "far",
                    },
                )
            )
            continue
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if eq:
                seen.setdefault((cls.name, key.lower()), []).append(value.lower())
    for (module, option), values in seen.items():
        if len(set(values)) > 1:
            shown = ", ".join(f"{option}={v}" for v in dict.fromkeys(values))
            out.append(
                (
                    "MODULE-OPTION-CONFLICT",
                    {"module": module, "option": option, "values": bounded(line(shown), 200)},
                )
            )
    return out
