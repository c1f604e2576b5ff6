"""``alhambra-referee parse``: read record files and report syntax problems."""

from __future__ import annotations

import json
import sys

import click
import yaml

from referee.notation import iter_games
from referee.notation.files import (
    Skipped,
    UnreadableInput,
    error_dict,
    error_line,
    expand_paths,
)
from referee.notation.messages import localize_error
from referee.reports.i18n import lang_option

EXIT_OK = 0
EXIT_SYNTAX = 2

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "ok": "{name}: OK ({n} game{s})",
        "unreadable": "{name}: cannot read: {reason}",
        "errors": "{name}: {errors} error(s) in {bad} of {n} game(s)",
    },
    "de": {
        "ok": "{name}: OK ({n} Partie{s})",
        "unreadable": "{name}: nicht lesbar: {reason}",
        "errors": "{name}: {errors} Fehler in {bad} von {n} Partie(n)",
    },
}


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
@lang_option
@click.pass_context
def command(ctx: click.Context, files: tuple[str, ...], fmt: str, lang: str) -> None:
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
    skipped: list[Skipped] = []
    names = expand_paths(files, skipped)
    for skip in skipped:  # dangling links, FIFOs named *.alh: said, never silent
        click.echo(skip.message(lang), err=True)
    for name in names:
        shown = "<stdin>" if name == "-" else name
        entry_games: list[dict[str, object]] = []
        source = sys.stdin.buffer if name == "-" else name
        try:
            # streamed: one game in memory at a time, only a summary of each is kept
            for g in iter_games(source, source=shown):
                if g.errors:
                    failed = True
                errors = [localize_error(e, lang) for e in g.errors]
                entry_games.append(
                    {
                        "start_line": g.start_line,
                        "headers": [{"name": h.name, "value": h.value} for h in g.headers],
                        "body_items": len(g.body),
                        "errors": [error_dict(e) for e in errors],
                        "_errors": errors,
                    }
                )
        except (OSError, UnicodeDecodeError) as exc:
            failed = True
            entry: dict[str, object] = {"file": shown, "readable": False}
            entry["error"] = _reason(exc, lang)
            if isinstance(exc, UnreadableInput) and not exc.utf16:
                entry.update(line=exc.line, column=exc.column, byte_offset=exc.offset)
            entry["games"] = []
            report.append(entry)
            continue
        report.append({"file": shown, "readable": True, "games": entry_games})

    if fmt == "text":
        _print_text(report, lang)
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


def _reason(exc: Exception, lang: str = "en") -> str:
    if isinstance(exc, UnreadableInput):
        return exc.message(lang)
    if isinstance(exc, UnicodeDecodeError):  # pragma: no cover - the reader raises the above
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


def _print_text(report: list[dict[str, object]], lang: str = "en") -> None:
    words = _TEXT.get(lang, _TEXT["en"])
    for entry in report:
        name = str(entry["file"])
        if not entry["readable"]:
            where = f"{name}:{entry['line']}:{entry['column']}" if "line" in entry else name
            click.echo(words["unreadable"].format(name=where, reason=entry["error"]), err=False)
            continue
        games = entry["games"]
        assert isinstance(games, list)
        errors = [e for g in games for e in g["_errors"]]
        if not errors:
            n = len(games)
            plural = ("en" if lang == "de" else "s") if n != 1 else ""
            click.echo(words["ok"].format(name=name, n=n, s=plural))
            continue
        for err in errors:
            click.echo(error_line(name, err))
        bad = sum(1 for g in games if g["_errors"])
        click.echo(words["errors"].format(name=name, errors=len(errors), bad=bad, n=len(games)))
    sys.stdout.flush()
