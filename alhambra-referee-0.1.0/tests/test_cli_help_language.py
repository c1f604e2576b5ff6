"""A command's ``--help`` is in the language of the call, however many calls a process makes.

Found by the test suite run with ``--dist worksteal``: the German help of ``show``, ``legal`` and
``explain`` was written into the shared command objects at their first load and never taken
back, so an English ``--help`` later in the same process (a club's script calling the command
line twice, the tests) came out German."""

from __future__ import annotations

import pytest

from referee.cli import main

# what each language's help shows (check's own text is English in both; its epilog is not)
ENGLISH = {
    "explain": ("Is ACTION legal", "Show this message and exit."),
    "show": ("Show the table", "Exit codes: 0 shown", "Show this message and exit."),
    "legal": ("List and mark every legal cell", "Show this message and exit."),
    "check": ("Exit codes: 0 all valid", "Show this message and exit."),
}
GERMAN = {
    "explain": ("Ist AKTION zu diesem Zeitpunkt erlaubt?", "Die Person, die handelt"),
    "show": ("Zeigt den Tisch", "Rückgabewerte: 0 gezeigt"),
    "legal": ("Listet und markiert jedes erlaubte Feld", "Rückgabewerte: 0 beantwortet"),
    "check": ("Rückgabewerte: 0 jede Partie gültig",),
}
NOT_ENGLISH = ("Rückgabewerte:", "Diese Hilfe zeigen und beenden.")
NOT_GERMAN = {
    "explain": ("Is ACTION legal", "Show this message and exit."),
    "show": ("Show the table", "Exit codes: 0 shown", "Show this message and exit."),
    "legal": ("List and mark every legal cell", "Show this message and exit."),
    "check": ("Show this message and exit.",),
}


def _help(command: str, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    """``--help`` through :func:`referee.cli.main`, as the program runs it, in this process."""
    with pytest.raises(SystemExit) as ended:
        main([command, "--help", "--lang", lang])
    assert ended.value.code in (0, None)
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", sorted(ENGLISH))
def test_help_follows_each_calls_language(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("de", "en", "de", "en"):
        out = _help(command, lang, capsys)
        wanted = (GERMAN if lang == "de" else ENGLISH)[command]
        unwanted = NOT_GERMAN[command] if lang == "de" else NOT_ENGLISH
        for words in wanted:
            assert words in out, (command, lang, words, out)
        for words in unwanted:
            assert words not in out, (command, lang, words, out)
