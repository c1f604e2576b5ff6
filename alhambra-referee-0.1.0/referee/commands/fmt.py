"""``alhambra-referee fmt``: rewrite record files in canonical form (like ``black``)."""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import sys
import tempfile
from pathlib import Path

import click
import yaml

from referee.notation import format_games, parse_text
from referee.notation.files import (
    Skipped,
    UnreadableInput,
    error_dict,
    error_line,
    expand_paths,
    read_source,
)
from referee.notation.messages import localize_error
from referee.reports.i18n import lang_option

EXIT_OK = 0
EXIT_CHANGES = 1
EXIT_SYNTAX = 2

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "unreadable": "{name}: cannot read: {reason}",
        "not_formatted": "{name}: not formatted (syntax errors)",
        "would_reformat": "would reformat {name}",
        "reformatted": "reformatted {name}",
        "summary": "{changed} file(s) {would}reformatted, {same} file(s) unchanged",
        "would": "would be ",
    },
    "de": {
        "unreadable": "{name}: nicht lesbar: {reason}",
        "not_formatted": "{name}: nicht formatiert (Syntaxfehler)",
        "would_reformat": "würde {name} neu formatieren",
        "reformatted": "{name} neu formatiert",
        "summary": "{changed} Datei(en) {would}neu formatiert, {same} Datei(en) unverändert",
        "would": "würden ",
    },
}


@click.command(name="fmt")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a file is not canonical.")
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
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
def command(
    ctx: click.Context, files: tuple[str, ...], check: bool, diff: bool, fmt: str, lang: str
) -> None:
    """Rewrite game records in canonical form.

    FILE may be a record file, a folder (every *.alh file below it) or - (read standard input,
    write the canonical text to standard output). A file with syntax errors is reported and
    never rewritten.

    \b
    Exit codes: 0 done (or already canonical), 1 with --check/--diff: some file would change,
    2 a file has syntax errors or cannot be read.

    \b
    Examples:
      alhambra-referee fmt game.alh
      alhambra-referee fmt --check examples/
      alhambra-referee fmt --diff game.alh
      alhambra-referee fmt - < game.alh > clean.alh
    """
    results: list[dict[str, object]] = []
    syntax = False
    would_change = False
    skipped: list[Skipped] = []
    names = expand_paths(files, skipped, inside_only=True)
    for skip in skipped:  # dangling links, FIFOs, links out of the folder: said, not read
        if fmt == "text":
            click.echo(skip.message(lang), err=True)
        results.append({"file": str(skip.path), "status": "skipped", "reason": skip.reason})
    for name in names:
        shown = "<stdin>" if name == "-" else name
        try:
            text = read_source(name)
        except (OSError, UnicodeDecodeError) as exc:
            syntax = True
            entry_bad: dict[str, object] = {"file": shown, "status": "unreadable"}
            if isinstance(exc, UnreadableInput):
                entry_bad["error"] = exc.message(lang)
                if not exc.utf16:
                    entry_bad.update(line=exc.line, column=exc.column, byte_offset=exc.offset)
            else:
                entry_bad["error"] = (
                    exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
                )
            results.append(entry_bad)
            continue
        games = parse_text(text, shown)
        errors = [localize_error(e, lang) for g in games for e in g.errors]
        if errors:
            syntax = True
            results.append(
                {
                    "file": shown,
                    "status": "error",
                    "errors": [error_dict(e) for e in errors],
                    "_text": "\n".join(error_line(shown, e) for e in errors),
                }
            )
            continue
        canonical = format_games(games)
        changed = canonical != text
        entry: dict[str, object] = {"file": shown, "status": "changed" if changed else "same"}
        if changed and diff:
            entry["diff"] = "".join(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    canonical.splitlines(keepends=True),
                    fromfile=f"{shown} (original)",
                    tofile=f"{shown} (canonical)",
                )
            )
        if name == "-" and not check and not diff:
            sys.stdout.write(canonical)
            sys.stdout.flush()
            entry["status"] = "written"
            results.append(entry)
            continue
        if changed:
            if check or diff:
                would_change = True
            else:
                _write(Path(name), canonical)
                entry["status"] = "reformatted"
        results.append(entry)

    stdin_only = all(r["file"] == "<stdin>" and r["status"] == "written" for r in results)
    if fmt == "text":
        if not stdin_only:
            _print_text(results, check or diff, lang)
    else:
        public = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        doc = {"files": public}
        out = (
            json.dumps(doc, indent=2, ensure_ascii=False)
            if fmt == "json"
            else yaml.safe_dump(doc, sort_keys=False, allow_unicode=True).rstrip("\n")
        )
        click.echo(out, err=stdin_only)
    if syntax:
        ctx.exit(EXIT_SYNTAX)
    ctx.exit(EXIT_CHANGES if would_change else EXIT_OK)


def _write(path: Path, text: str) -> None:
    """Replace the file atomically (a crash never leaves half a record)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        with contextlib.suppress(OSError):
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _print_text(results: list[dict[str, object]], dry: bool, lang: str = "en") -> None:
    words = _TEXT.get(lang, _TEXT["en"])
    changed = 0
    for r in results:
        status = r["status"]
        name = r["file"]
        if status == "unreadable":
            where = f"{name}:{r['line']}:{r['column']}" if "line" in r else name
            click.echo(words["unreadable"].format(name=where, reason=r["error"]), err=True)
        elif status == "error":
            click.echo(str(r["_text"]), err=True)
            click.echo(words["not_formatted"].format(name=name), err=True)
        elif status in ("changed", "reformatted"):
            changed += 1
            if "diff" in r:
                click.echo(str(r["diff"]), nl=False)
            verb = words["would_reformat"] if dry else words["reformatted"]
            click.echo(verb.format(name=name), err=True)
    same = sum(1 for r in results if r["status"] == "same")
    would = words["would"] if dry else ""
    click.echo(words["summary"].format(changed=changed, would=would, same=same), err=True)
