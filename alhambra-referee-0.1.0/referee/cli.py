"""The ``alhambra-referee`` command line.

Exit codes (documented in the README and in ``--help``):
  0  everything checked is valid
  1  rule violations were found
  2  syntax errors, or input that cannot be read
  3  usage errors (unknown option, missing argument)
  4  an internal error of the tool (a bug, memory exhausted): no verdict
  141 the output pipe was closed (`... | head`): the status a shell shows for SIGPIPE
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

import click

from referee import __version__
from referee.cli_outcome import EXIT_INTERNAL as EXIT_INTERNAL
from referee.cli_outcome import EXIT_PIPE as EXIT_PIPE
from referee.cli_outcome import _guard_terminals, _leave, _pipe_closed, conclude
from referee.reports import click_de

if TYPE_CHECKING:
    from types import ModuleType

# Click's texts made while this module is imported (the --version help below) go through the
# German table too; Click's own gettext would search the locale folders for a translation file
# (and import ``locale``) for each of them.
click_de.install()

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_SYNTAX = 2
EXIT_USAGE = 3

_EPILOG = (
    "Exit codes: 0 valid, 1 rule violations, 2 syntax errors, unreadable input or no games, "
    "3 usage error, 4 a fault of the tool itself (no verdict), 141 output pipe closed."
)


class LazyGroup(click.Group):
    """The command group that imports a command's module only when that command runs.

    Every module of :mod:`referee.commands` whose name does not start with ``_`` holds one
    command, named like the module, as ``command``; ``list_commands`` reads the module names
    without importing them, so ``alhambra-referee check ...`` loads ``check`` and what it needs
    (no SVG, replay or explanation code). ``--help`` imports all of them for their short help.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*_command_modules(), *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from referee.commands._help import localize_command
        from referee.reports import click_de

        known = self.commands.get(cmd_name)  # imported before (an earlier call in this process)
        if known is not None:
            _start_done()
            localize_command(known, cmd_name, click_de.current_lang())  # this call's language
            return known
        module = _command_module(cmd_name)
        if module is None:
            return None
        _start_done()
        command = getattr(module, "command", None)
        if not isinstance(command, click.Command):  # pragma: no cover - a broken command module
            return None
        localize_command(command, cmd_name, click_de.current_lang())  # exit codes, German help
        self.add_command(command, cmd_name)
        return command


_gc_paused = False  # main() holds the garbage collector while the command line starts


def _start_done() -> None:
    """The command's module is imported: the collector runs again (when :func:`main` held it).

    Starting a command builds some 100,000 long-lived objects (modules, classes, functions,
    tables); the collector walked them again and again while they were made (4 % of a one-game
    ``check``), and found nothing to free. They are moved out of its sight
    (``gc.freeze``: they live as long as the process) and it runs as before for what the
    command makes."""
    global _gc_paused
    if _gc_paused:
        import gc

        _gc_paused = False
        gc.freeze()
        gc.enable()


def _command_module(name: str) -> ModuleType | None:
    """The module of the command ``name``, imported; None when no command module has that name
    (one starting with ``_``, not a module name, or no such module). The package folder is not
    listed for it (:func:`_command_modules` is for ``--help``)."""
    if name.startswith("_") or not name.isidentifier():
        return None
    full = f"referee.commands.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def _command_modules() -> list[str]:
    """The command modules' names, read from the package folder (nothing imported)."""
    import pkgutil

    import referee.commands as pkg

    return sorted(
        info.name for info in pkgutil.iter_modules(pkg.__path__) if not info.name.startswith("_")
    )


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=_EPILOG,
)
@click.version_option(__version__, prog_name="alhambra-referee")
def cli() -> None:
    """Referee for Alhambra game records: check every move, score, and settle disputes.

    \b
    Examples:
      alhambra-referee check examples/game-3p.alh
      alhambra-referee fmt --check examples/
      alhambra-referee score examples/final-6p.alh
    """


def _run(args: list[str]) -> object:
    """Click's ``main`` without its own closed-pipe handling (which exits with 1, the code for
    rule violations): parse the arguments and invoke the command."""
    from referee.reports import click_de
    from referee.reports.i18n import resolve_lang

    # Click's own messages (usage errors, help headings) follow --lang, read before Click
    # parses the arguments, so that an error in them is reported in that language too
    click_de.install()
    click_de.set_lang(resolve_lang(click_de.lang_from_args(args)))
    try:
        with cli.make_context("alhambra-referee", args) as ctx:
            return cli.invoke(ctx)
    except EOFError as exc:
        raise click.exceptions.Abort() from exc


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the CLI and maps every outcome to the documented exit codes.

    A closed output pipe (``alhambra-referee check big.alh | head``) ends every command the
    same way, here and nowhere else: quietly, with status 141 (128 + SIGPIPE), as a program
    killed by SIGPIPE would.

    The record classes' compiled code is read from the user's cache folder and written back
    when it grew (:mod:`referee.cli_startup`): a third of the start-up time otherwise.
    """
    global _gc_paused
    import gc

    from referee import cli_startup

    if argv is None and gc.isenabled():  # a process of its own (not a call from a program)
        gc.disable()
        _gc_paused = True
    cli_startup.install()
    streams = _guard_terminals()
    try:
        _main(argv)
    finally:
        _start_done()
        sys.stdout, sys.stderr = streams
        cli_startup.save()
        cli_startup.uninstall()  # called in-process (tests, embedding): leave no patch behind


def entry(collector_paused: bool = False) -> None:
    """The process's entry point (the ``alhambra-referee`` script, ``python -m referee``, both
    through :func:`referee.__main__.run`): :func:`main`, and then the process ends through
    :func:`_leave`. A program that calls :func:`main` itself gets its :class:`SystemExit` as
    before. ``collector_paused``: the caller paused the garbage collector before this module
    was loaded; it is enabled again as if :func:`main` had paused it (:func:`_start_done`)."""
    global _gc_paused
    if collector_paused:
        _gc_paused = True
    try:
        main()
    except SystemExit as exc:
        if not isinstance(exc.code, int | None):
            raise
        _leave(exc.code or 0)


COMPLETE_VAR = "_ALHAMBRA_REFEREE_COMPLETE"


def _complete() -> int | None:
    """Shell completion (Click's, which ``cli.main`` would run but this entry point does not
    call): with ``_ALHAMBRA_REFEREE_COMPLETE=bash_source`` (``zsh_source``, ``fish_source``) the
    script for the shell's start file; with ``..._complete`` the completions the script asks
    for. None when the variable is not set (a normal call). See docs/cli.md, "Completion"."""
    import os

    instruction = os.environ.get(COMPLETE_VAR)
    if not instruction:
        return None
    from click.shell_completion import shell_complete

    return shell_complete(cli, {}, "alhambra-referee", COMPLETE_VAR, instruction)


def _main(argv: list[str] | None) -> None:
    if argv is None:
        completed = _complete()
        if completed is not None:
            sys.exit(completed)
    conclude(lambda: _outcome(sys.argv[1:] if argv is None else list(argv)))


def _outcome(args: list[str]) -> object:
    """What the command asked for by ``args`` returned, or the code of Click's outcome (a usage
    error, an abort, ``--help``); everything else is :func:`referee.cli_outcome.conclude`'s."""
    try:
        rv = _run(args)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        rv = EXIT_OK
    except click.UsageError as exc:
        if _pipe_closed(exc):
            raise BrokenPipeError from exc
        exc.show()
        rv = EXIT_USAGE
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        rv = EXIT_USAGE
    except click.ClickException as exc:
        if _pipe_closed(exc):
            raise BrokenPipeError from exc
        exc.show()
        rv = EXIT_SYNTAX
    except click.exceptions.Exit as exc:
        rv = exc.exit_code
    return rv
