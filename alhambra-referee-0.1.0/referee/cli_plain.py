"""A plain ``alhambra-referee check FILE...``, run without loading Click.

Importing Click (with the ``uuid``/``platform``, ``datetime`` and ``gettext`` it loads) was 51 M
of the 383 M instructions of a one-game ``check`` (bench/README.md, "Issue 34, ninth step:
start-up"), to read two words of arguments. :func:`plain_check` recognises the arguments of a
plain check, whose meaning Click would read the same way without a doubt:

* ``check`` and then one or more files, and among them at most once each ``--lang en|de``
  (``--lang=de``), ``--format text|json`` (``--format=json``), ``--no-scoring``, ``--strict``;
* every file a word that does not start with ``-`` (so neither ``-``, standard input, nor a
  file named like an option), and one that Click's ``click.Path()`` takes as it is: a name
  that does not exist, or one that may be read;
* standard output and error the interpreter's own text streams, in an encoding other than
  ASCII (where ``click.echo`` writes to the stream itself), on a POSIX system (not a Windows
  console), and no shell completion asked for.

Then :func:`run` does what :func:`referee.cli.main` would: the code table of the record classes
(:mod:`referee.cli_startup`), terminals guarded, :func:`referee.commands.check.run` with the
options Click would pass (every other one at its default), its lines written as ``click.echo``
writes them to such a stream (:func:`echo`), the same exit status and the same quick exit
(:mod:`referee.cli_outcome`). Everything else — help, ``--version``, any other command, option,
spelling or value, a usage error — goes to Click (:mod:`referee.cli`), as before.
tests/test_cli_plain.py holds the two paths to the same output, status and exit.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

COMMAND = "check"
# the options a plain check may carry: flags, and options with the values taken as written
_FLAGS = {"--strict": "strict", "--no-scoring": "no_scoring"}
_VALUES = {"--lang": ("lang", ("en", "de")), "--format": ("fmt", ("text", "json"))}
# what ``click.echo`` removes from the text it writes to a stream that is not a terminal (ANSI
# control sequences: Click's documented "strip styles when not a terminal")
_STYLE = r"\033\[[0-?]*[ -/]*[@-~]"
_style: list[Any] = []  # the compiled pattern, made on first use


class Plain:
    """The files and options of a plain check (:func:`plain_check`)."""

    __slots__ = ("files", "options")

    def __init__(self, files: tuple[str, ...], options: dict[str, Any]) -> None:
        self.files = files
        self.options = options


def plain_check(args: list[str]) -> Plain | None:
    """The plain check that ``args`` (the command line's arguments) ask for, or None when Click
    has to read them (see the module's description)."""
    if len(args) < 2 or args[0] != COMMAND or os.environ.get("_ALHAMBRA_REFEREE_COMPLETE"):
        return None
    if os.name != "posix":  # Click writes to a Windows console through its own stream
        return None
    files: list[str] = []
    options: dict[str, Any] = {}
    i = 1
    while i < len(args):
        arg = args[i]
        if not arg.startswith("-"):
            files.append(arg)
        elif arg in _FLAGS:
            if _FLAGS[arg] in options:
                return None
            options[_FLAGS[arg]] = True
        else:
            key, equals, value = arg.partition("=")
            if key not in _VALUES:
                return None
            if not equals:
                i += 1
                if i == len(args):
                    return None
                value = args[i]
            name, allowed = _VALUES[key]
            if name in options or value not in allowed:
                return None
            options[name] = value
        i += 1
    if not files or not all(_taken_as_it_is(path) for path in files):
        return None
    if not (_plain_stream(sys.stdout) and _plain_stream(sys.stderr)):
        return None
    return Plain(tuple(files), options)


def _taken_as_it_is(path: str) -> bool:
    """Whether Click's ``click.Path()`` (files and folders, to be read) returns ``path``
    unchanged: it does not exist, or it may be read (else: a usage error, Click's to say)."""
    try:
        os.stat(path)
    except OSError:
        return True
    except Exception:  # Click's own outcome, whatever it is
        return False
    return os.access(path, os.R_OK)


def _plain_stream(stream: object) -> bool:
    """Whether ``stream`` is one ``click.echo`` writes to itself: the interpreter's text stream,
    with error handling and an encoding that is not ASCII (Click wraps such a stream anew)."""
    import io

    if type(stream) is not io.TextIOWrapper or stream.errors is None:
        return False
    import codecs

    try:
        return codecs.lookup(stream.encoding).name != "ascii"
    except LookupError:
        return True


def echo(message: str, nl: bool = True, err: bool = False) -> None:
    """``message`` written to standard output (``err``: error) as ``click.echo`` writes text to
    a stream :func:`plain_check` accepted (a :class:`referee.safe_text.TerminalStream` in front
    of one included): with a line break (``nl``), without style sequences when the stream is
    not a terminal, flushed."""
    stream = sys.stderr if err else sys.stdout
    out = message + "\n" if nl else message
    if out:
        try:
            terminal = stream.isatty()
        except Exception:
            terminal = False
        if not terminal and "\033" in out:  # a style sequence starts with ESC
            if not _style:
                import re

                _style.append(re.compile(_STYLE))
            out = _style[0].sub("", out)
        stream.write(out)
    stream.flush()


def run(plain: Plain, collector_paused: bool) -> NoReturn:
    """Run the plain check and end the process as :func:`referee.cli.entry` would.
    ``collector_paused``: the caller paused the garbage collector; it runs again (all that
    start-up made frozen) once the command's module is loaded, as under Click."""
    from referee import cli_startup
    from referee.cli_outcome import _guard_terminals, _leave, conclude

    try:
        cli_startup.install()
        streams = _guard_terminals()
        try:
            conclude(lambda: _check(plain, collector_paused))
        finally:
            sys.stdout, sys.stderr = streams
            cli_startup.save()
            cli_startup.uninstall()
    except SystemExit as exc:
        if not isinstance(exc.code, int | None):
            raise
        _leave(exc.code or 0)
    raise AssertionError("unreachable")  # pragma: no cover - conclude always leaves


def _check(plain: Plain, collector_paused: bool) -> int:
    from referee.commands import check

    if collector_paused:
        import gc

        gc.freeze()
        gc.enable()
    from referee.reports.i18n import resolve_lang

    opts = plain.options
    lang = resolve_lang(opts.get("lang"))
    try:
        return check.run(
            plain.files,
            bool(opts.get("strict")),
            opts.get("fmt", "text"),
            None,
            bool(opts.get("no_scoring")),
            1,
            None,
            check.DEFAULT_MAX_VIOLATIONS,
            lang,
            echo,
        )
    except EOFError:  # Click's path: an abort, "Aborted." and status 3 (referee.cli._run)
        echo("Aborted.", err=True)
        return 3
