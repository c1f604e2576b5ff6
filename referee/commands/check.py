"""``alhambra-referee check FILE...``: validate every event of every game against the rules.

Exit codes: 0 every game valid, 1 rule violations, 2 a game or file cannot be read.
Directories are searched recursively for ``*.alh`` files.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from referee.engine import check_game
from referee.profiles import RuleProfile
from referee.record.model import NotationError, Pos
from referee.reports.check_report import CheckedGame, render_json, render_text, render_yaml
from referee.reports.i18n import lang_option

EXIT_OK, EXIT_VIOLATIONS, EXIT_SYNTAX = 0, 1, 2


def _files(paths: tuple[str, ...]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.alh") if p.is_file())
        else:
            yield path


def _load_rules(rules: str | None) -> RuleProfile | None:
    if not rules:
        return None
    try:
        from referee.profiles import load_profile  # type: ignore[attr-defined]
    except ImportError as exc:  # pragma: no cover - the loader ships with the package
        raise click.UsageError("--rules needs the profile loader") from exc
    try:
        return load_profile(rules)
    except Exception as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from exc


def check_paths(
    paths: tuple[str, ...], profile: RuleProfile | None = None, strict: bool = False
) -> list[CheckedGame]:
    """Check every game of every file; unreadable files become games with an error."""
    from referee.notation import iter_games

    games: list[CheckedGame] = []
    for path in _files(paths):
        source = str(path)
        try:
            for game in iter_games(path, source):
                if game.errors:
                    games.append(
                        CheckedGame(
                            source, game.start_line, list(game.players), None, list(game.errors)
                        )
                    )
                    continue
                try:
                    report = check_game(game, profile, strict=strict)
                except Exception as exc:  # an engine bug is reported, never a traceback
                    err = NotationError(
                        f"internal error while checking: {type(exc).__name__}: {exc}",
                        Pos(game.start_line, 1),
                        "INTERNAL",
                    )
                    games.append(
                        CheckedGame(source, game.start_line, list(game.players), None, [err])
                    )
                    continue
                games.append(CheckedGame(source, game.start_line, report.players, report))
                if strict and not report.valid:
                    return games
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            err = NotationError(f"cannot read the file: {reason}", Pos(1, 1), "UNREADABLE")
            games.append(CheckedGame(source, 1, [], None, [err]))
    return games


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Stop at the first rule violation.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"], case_sensitive=False),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--rules",
    metavar="NAME|FILE",
    default=None,
    help="Rule profile to check with (default: each game's Rules header, else queen-2003).",
)
@click.option("--no-scoring", is_flag=True, help="Text output without scoring breakdowns.")
@lang_option
def command(
    files: tuple[str, ...], strict: bool, fmt: str, rules: str | None, no_scoring: bool, lang: str
) -> int:
    """Check every move of the games in FILES against the rulebook.

    FILES are .alh records or folders (searched for *.alh). For each game: OK, or every
    violation with file:line:column, turn, player, rule code and section, and why.

    \b
    Exit codes: 0 all valid, 1 rule violations, 2 syntax errors or unreadable input.
    """
    profile = _load_rules(rules)
    games = check_paths(files, profile, strict)
    fmt = fmt.lower()
    if fmt == "json":
        click.echo(render_json(games, lang))
    elif fmt == "yaml":
        click.echo(render_yaml(games, lang), nl=False)
    else:
        click.echo(render_text(games, lang, scorings=not no_scoring), nl=False)
    sys.stdout.flush()
    if any(g.errors for g in games):
        return EXIT_SYNTAX
    if any(not g.valid for g in games):
        return EXIT_VIOLATIONS
    return EXIT_OK
