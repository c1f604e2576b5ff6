"""``alhambra-referee parse``: read record files and report syntax problems."""

from __future__ import annotations

import json
import sys

import click
import yaml

from referee.notation import iter_games
from referee.notation.files import error_dict, error_line, expand_paths

EXIT_OK = 0
EXIT_SYNTAX = 2


@click.command(name="parse")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"]),
    default="text",
    show_default=True,
    help="Output format of the report.",
)
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], fmt: str) -> None:
    """Read game records and report syntax problems (no rules are checked).

    FILE may be a record file, a folder (every *.alh file below it) or - for standard input.
    Exit code 0 when every file reads cleanly, 2 when a file has syntax errors or cannot be
    read.

    \b
    Examples:
      alhambra-referee parse examples/notation-club-3p.alh
      alhambra-referee parse --format json examples/
      cat game.alh | alhambra-referee parse -
    """
    report: list[dict[str, object]] = []
    failed = False
    for name in expand_paths(files):
        shown = "<stdin>" if name == "-" else name
        entry_games: list[dict[str, object]] = []
        source = sys.stdin.buffer if name == "-" else name
        try:
            # streamed: one game in memory at a time, only a summary of each is kept
            for g in iter_games(source, source=shown):
                if g.errors:
                    failed = True
                entry_games.append(
                    {
                        "start_line": g.start_line,
                        "headers": [{"name": h.name, "value": h.value} for h in g.headers],
                        "body_items": len(g.body),
                        "errors": [error_dict(e) for e in g.errors],
                        "_errors": g.errors,
                    }
                )
        except (OSError, UnicodeDecodeError) as exc:
            failed = True
            report.append({"file": shown, "readable": False, "error": _reason(exc), "games": []})
            continue
        report.append({"file": shown, "readable": True, "games": entry_games})

    if fmt == "text":
        _print_text(report)
    else:
        clean = [_public(r) for r in report]
        if fmt == "json":
            click.echo(json.dumps({"files": clean, "ok": not failed}, indent=2, ensure_ascii=False))
        else:
            click.echo(
                yaml.safe_dump(
                    {"files": clean, "ok": not failed}, sort_keys=False, allow_unicode=True
                ),
                nl=False,
            )
    ctx.exit(EXIT_SYNTAX if failed else EXIT_OK)


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)  # pragma: no cover


def _public(entry: dict[str, object]) -> dict[str, object]:
    out = dict(entry)
    games = out.get("games", [])
    assert isinstance(games, list)
    out["games"] = [{k: v for k, v in g.items() if not k.startswith("_")} for g in games]
    return out


def _print_text(report: list[dict[str, object]]) -> None:
    for entry in report:
        name = str(entry["file"])
        if not entry["readable"]:
            click.echo(f"{name}: cannot read: {entry['error']}", err=False)
            continue
        games = entry["games"]
        assert isinstance(games, list)
        errors = [e for g in games for e in g["_errors"]]
        if not errors:
            n = len(games)
            click.echo(f"{name}: OK ({n} game{'s' if n != 1 else ''})")
            continue
        for err in errors:
            click.echo(error_line(name, err))
        bad = sum(1 for g in games if g["_errors"])
        click.echo(f"{name}: {len(errors)} error(s) in {bad} of {len(games)} game(s)")
    sys.stdout.flush()
