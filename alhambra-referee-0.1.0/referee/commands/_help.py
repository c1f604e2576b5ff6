"""What every command's ``--help`` ends with (its exit codes), and the German ``--help`` of the
dispute commands (``show``, ``explain``, ``legal``, ``score``) under ``--lang de``.

:class:`referee.cli.LazyGroup` calls :func:`localize_command` when it loads a command: the
command gets its exit codes as the epilog (in the language of the call), and under German its
help and its options' help in German (Click's own words are German through
:mod:`referee.reports.click_de`).
"""

from __future__ import annotations

import weakref

import click

# every command: 4 when the tool itself failed (a bug, memory exhausted: no verdict), 141 when
# the output pipe was closed
FAULT = (
    "4 a fault of the tool itself (no verdict)",
    "4 ein Fehler des Werkzeugs selbst (kein Urteil)",
)
PIPE = ("141 output pipe closed", "141 Ausgabe-Pipe geschlossen")

# command: (English, German) -- the exit codes, each command's own meanings
EXIT_CODES: dict[str, tuple[str, str]] = {
    "check": (
        "0 every game valid, 1 rule violations, 2 syntax errors, unreadable input or no games, "
        "3 usage error",
        "0 jede Partie gültig, 1 Regelverstöße, 2 Syntaxfehler, unlesbare Eingabe oder keine "
        "Partie, 3 Aufruffehler",
    ),
    "show": (
        "0 shown, 2 syntax errors, unreadable input or no games, 3 usage error (e.g. a moment "
        "the record does not reach)",
        "0 gezeigt, 2 Syntaxfehler, unlesbare Eingabe oder keine Partie, 3 Aufruffehler (z. B. "
        "ein Zeitpunkt, den die Aufzeichnung nicht erreicht)",
    ),
    "explain": (
        "0 legal, 1 not legal, 2 syntax errors, unreadable input or a question that cannot be "
        "answered, 3 usage error",
        "0 erlaubt, 1 nicht erlaubt, 2 Syntaxfehler, unlesbare Eingabe oder eine nicht "
        "beantwortbare Frage, 3 Aufruffehler",
    ),
    "legal": (
        "0 answered, 2 syntax errors, unreadable input or a question that cannot be answered, "
        "3 usage error",
        "0 beantwortet, 2 Syntaxfehler, unlesbare Eingabe oder eine nicht beantwortbare Frage, "
        "3 Aufruffehler",
    ),
    "render": (
        "0 written, 2 syntax errors, unreadable input or no games, 3 usage error",
        "0 geschrieben, 2 Syntaxfehler, unlesbare Eingabe oder keine Partie, 3 Aufruffehler",
    ),
    "score": (
        "0 layouts possible, 1 a layout problem (for a record: a rule violation), 2 syntax "
        "errors, unreadable input or no games, 3 usage error",
        "0 Aufbau möglich, 1 ein Problem im Aufbau (bei einer Aufzeichnung: ein Regelverstoß), "
        "2 Syntaxfehler, unlesbare Eingabe oder keine Partie, 3 Aufruffehler",
    ),
    "fmt": (
        "0 done (or already canonical), 1 with --check/--diff: a file would change, 2 syntax "
        "errors or unreadable input, 3 usage error",
        "0 erledigt (oder schon kanonisch), 1 mit --check/--diff: eine Datei würde sich ändern, "
        "2 Syntaxfehler oder unlesbare Eingabe, 3 Aufruffehler",
    ),
    "parse": (
        "0 every file reads cleanly, 2 syntax errors or unreadable input, 3 usage error",
        "0 jede Datei fehlerfrei gelesen, 2 Syntaxfehler oder unlesbare Eingabe, 3 Aufruffehler",
    ),
    "headers": (
        "0 every input read, 2 an input cannot be read or holds no game, 3 usage error",
        "0 jede Eingabe gelesen, 2 eine Eingabe ist unlesbar oder enthält keine Partie, "
        "3 Aufruffehler",
    ),
    "modules": (
        "0 listed, 3 usage error (e.g. an unknown module)",
        "0 aufgelistet, 3 Aufruffehler (z. B. ein unbekanntes Modul)",
    ),
    "profiles": (
        "0 ok, 2 a profile file is invalid or unreadable, 3 usage error",
        "0 in Ordnung, 2 eine Profildatei ist ungültig oder unlesbar, 3 Aufruffehler",
    ),
    "simulate": (
        "0 games written, 2 a game could not be written, 3 usage error",
        "0 Partien geschrieben, 2 eine Partie konnte nicht geschrieben werden, 3 Aufruffehler",
    ),
}
GENERIC = (
    "0 ok, 1 rule violations, 2 syntax errors or unreadable input, 3 usage error",
    "0 in Ordnung, 1 Regelverstöße, 2 Syntaxfehler oder unlesbare Eingabe, 3 Aufruffehler",
)

# command: German help (the English one is the command's docstring)
HELP_DE: dict[str, str] = {
    "show": """Zeigt den Tisch zu einem beliebigen Zeitpunkt einer Aufzeichnung oder
Stellungsdatei (DATEI; - liest die Standardeingabe).

Jede Alhambra wird mit Norden oben gezeichnet: dicke Linien sind Mauern, dünne offene Seiten,
in jedem Feld Gebäudeart und Preis, ** ist der Brunnen; dann Reserve, Hand und Punkte jeder
Person, der Bauhof, die Geldauslage, wer am Zug ist, und der Stand jedes Erweiterungsmoduls.

\b
Beispiele:
  alhambra-referee show partie.alh --at 12
  alhambra-referee show partie.alh --at L40 --player Anna
  alhambra-referee show stellung.alh --lang de""",
    "explain": """Ist AKTION zu diesem Zeitpunkt erlaubt? Wenn nicht: welche Regel (Name,
Abschnitt, Felder, Karten) und welche Alternativen erlaubt sind. DATEI ist eine Aufzeichnung
oder Stellungsdatei (- liest die Standardeingabe). Eine Zeile außerhalb des Zuges (Wesir, Dieb,
Sultan) wird geprüft wie von check: "Anna: vizier, buy Du S5 pay Du5, reserve S5".

Mehrere Fragen auf einmal: mehrere AKTIONen und/oder mehrere --at (jede Aktion zu jedem
Zeitpunkt) oder eine Datei mit Anfragen (--queries).

\b
Beispiele:
  alhambra-referee explain partie.alh --at 12 "place T10w@1,0"
  alhambra-referee explain partie.alh --at L40 "take Gu1 Di4"
  alhambra-referee explain partie.alh --at 20 --player Anna "vizier, buy Gu P7 pay Gu7"
  alhambra-referee explain partie.alh --queries fragen.txt --format json""",
    "legal": """Listet und markiert jedes erlaubte Feld für ein Plättchen oder Modulteil in
der Alhambra einer Person, dazu die Modulaktionen und Zeilen außerhalb des Zuges, die ihr
offenstehen.

DATEI ist eine Aufzeichnung oder Stellungsdatei (- liest die Standardeingabe). Die Person ist
--player, sonst wer am Zug ist. Die Felder folgen den Bauregeln (rulebook-base-de-2003.txt,
"Alhambra-Bauregeln") und den Regeln der Module.

\b
Beispiele:
  alhambra-referee legal partie.alh --at 12 --tile T10w
  alhambra-referee legal partie.alh --at 3 --tile md:3ns
  alhambra-referee legal stellung.alh --player Ben --lang de""",
    "score": """Wertet eine beendete Partie am Tisch aus dem Stellungsblock in DATEI (- liest
die Standardeingabe).

Prüft, ob die Auslagen möglich sind (jedes Plättchen einmal, Bauregeln eingehalten), meldet
jedes Problem und gibt die Wertung (Mehrheiten mit Gleichständen, längste Außenmauer) und die
Rangfolge aus. Eine vollständige Aufzeichnung wird an ihrem Ende gewertet.

\b
Beispiele:
  alhambra-referee score examples/final-6p.alh
  alhambra-referee score examples/final-2p-dirk.alh --lang de
  alhambra-referee score examples/final-counts.alh --round 2 --format json""",
}

# option name: German help (shared by the commands that have the option)
OPTION_DE: dict[str, str] = {
    "at": "Der Zeitpunkt: nach Zug N (12), nach Zeile N (L40), nach Wertung N (S2), start oder "
    "end (voreingestellt). Mehrfach angeben, um zu mehreren Zeitpunkten zu fragen.",
    "ats": "Der Zeitpunkt: nach Zug N (12), nach Zeile N (L40), nach Wertung N (S2), start "
    "oder end (voreingestellt). Mehrfach angeben, um zu mehreren Zeitpunkten zu fragen.",
    "game_no": "Welche Partie der Datei (1..).",
    "fmt": "Ausgabeformat.",
    "color_mode": "Die Zeichnung färben (auto: nur im Terminal und ohne NO_COLOR).",
    "queries": "Auch jede Anfrage aus DATEI beantworten, eine pro Zeile: ZEITPUNKT "
    "[player=NAME] AKTION oder PLÄTTCHEN (- liest die Standardeingabe).",
    "tile_texts": "Das Plättchen (Notation, z. B. T13, G10n) oder ein Modulteil (md:5n, "
    "sq:Tw); mehrfach angeben für mehrere. Voreingestellt: jedes Teil im Bauhof, daneben und in "
    "der Reserve.",
    "round_no": "Welche Wertung: 3 ist die Schlusswertung, 1 oder 2 eine Zwischenwertung.",
    "rules": "Regelprofil (voreingestellt: der Rules-Kopf der Partie, sonst queen-2003).",
    "lang": "Sprache der Ausgabe (voreingestellt: aus LC_ALL / LC_MESSAGES / LANG).",
}
PLAYER_DE: dict[str, str] = {
    "show": "Nur die Alhambra, Hand, Reserve und Punkte dieser Person zeigen (voreingestellt: "
    "alle).",
    "explain": "Die Person, die handelt (voreingestellt: der Name am Anfang der Aktion wie in "
    '"Ben: take Gu1", sonst wer am Zug ist). Wer nicht am Zug ist, wird geprüft, als wäre '
    "sie am Zug; eine Zeile außerhalb des Zuges gilt für diese Person.",
    "legal": "Die Person, in deren Alhambra das Teil käme (voreingestellt: wer am Zug ist).",
}


def exit_codes(name: str, lang: str) -> str:
    """``Exit codes: ...`` of a command in ``lang``."""
    en, de = EXIT_CODES.get(name, GENERIC)
    if lang == "de":
        return f"Rückgabewerte: {de}, {FAULT[1]}, {PIPE[1]}."
    return f"Exit codes: {en}, {FAULT[0]}, {PIPE[0]}."


# each command's English texts (help, short help, epilog, options' help), kept at its first
# localisation: a command object lives as long as the process, and a later call in another
# language (a script calling the command line twice, the tests) must find them again
_ENGLISH: weakref.WeakKeyDictionary[
    click.Command, tuple[str | None, str | None, str | None, dict[str, str | None]]
] = weakref.WeakKeyDictionary()


def localize_command(command: click.Command, name: str, lang: str) -> None:
    """Give ``command`` its exit codes as the epilog and, under ``lang`` de, German help;
    under any other language its English texts (as at its first localisation)."""
    english = _ENGLISH.get(command)
    if english is None:
        options = {
            p.name: p.help
            for p in command.params
            if isinstance(p, click.Option) and p.name is not None
        }
        english = (command.help, command.short_help, command.epilog, options)
        _ENGLISH[command] = english
    command.help, command.short_help, command.epilog = english[:3]
    for param in command.params:
        if isinstance(param, click.Option) and param.name in english[3]:
            param.help = english[3][param.name]
    if "exit code" not in (command.help or "").lower() or lang == "de":
        command.epilog = exit_codes(name, lang)
    help_option = getattr(command, "_help_option", None)  # Click >= 8.1.8 keeps it made once
    if isinstance(help_option, click.Option):  # its text is in the language it was made in
        from referee.reports.click_de import gettext_de

        help_option.help = gettext_de("Show this message and exit.")
    if lang != "de":
        return
    if name in HELP_DE:
        command.help = HELP_DE[name]
        command.short_help = None
    for param in command.params:
        if not isinstance(param, click.Option) or param.name is None:
            continue
        if param.name == "player" and name in PLAYER_DE:
            param.help = PLAYER_DE[name]
        elif param.name in OPTION_DE and name in HELP_DE:
            param.help = OPTION_DE[param.name]
