"""The ``alhambra-referee`` command line.

Exit codes (documented in the README and in ``--help``):
  0  everything checked is valid
  1  rule violations were found
  2  syntax errors, or input that cannot be read
  3  usage errors (unknown option, missing argument)
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from referee import __version__

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_SYNTAX = 2
EXIT_USAGE = 3

_EPILOG = (
    "Exit codes: 0 valid, 1 rule violations, 2 syntax errors or unreadable input, 3 usage error."
)


@click.group(
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


def _load_commands() -> None:
    import referee.commands as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"referee.commands.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            cli.add_command(command)


_load_commands()


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the CLI and maps every outcome to the documented exit codes."""
    try:
        rv = cli.main(args=argv, prog_name="alhambra-referee", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click >= 8.2
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        sys.exit(EXIT_OK)
    except click.UsageError as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_SYNTAX)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    sys.exit(rv if isinstance(rv, int) else EXIT_OK)
