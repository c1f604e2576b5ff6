"""``alhambra-referee score FILE``: the final scoring of a finished physical game.

The file holds a position block per game: each player's Alhambra (tiles with coordinates), the
reserve, the score before the scoring, and Dirk's tiles in a two-player game. The layouts are
checked (each tile used once, building rules kept) and problems are reported, then the
breakdown and the ranking are printed. ``--round 1|2`` scores an intermediate scoring instead.

Exit codes: 0 layouts possible, 1 a layout problem was reported, 2 syntax errors or
unreadable input (or no position block).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import yaml

from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import Game
from referee.reports.i18n import lang_option
from referee.scoring import render_scoring_text
from referee.scoring.position import PositionScore, score_position

EXIT_OK, EXIT_PROBLEMS, EXIT_SYNTAX = 0, 1, 2

_TEXT = {
    "en": {
        "game": "game at line",
        "ok": "Layouts possible: every tile used once, building rules kept.",
        "problems": "Layout problems (reported; the scoring below uses the position as written):",
        "profile": "rules",
        "counts_only": "Scored from stated counts (layout and wall not verified): {names}",
    },
    "de": {
        "game": "Spiel ab Zeile",
        "ok": "Aufbau möglich: jedes Plättchen einmal verwendet, Bauregeln eingehalten.",
        "problems": "Probleme im Aufbau (gemeldet; die Wertung nimmt die Stellung wie angegeben):",
        "profile": "Regeln",
        "counts_only": "Nach angegebenen Anzahlen gewertet (Aufbau und Mauer ungeprüft): {names}",
    },
}


def _profile(name: str | None, game: Game) -> tuple[RuleProfile, str | None]:
    """The rule profile: --rules, else the game's Rules header, else the default."""
    from referee.profiles.loader import load_profile

    wanted = name or game.header("Rules")
    if not wanted:
        return DEFAULT_PROFILE, None
    try:
        # a record's Rules header is untrusted text: bundled names only, never a file
        return load_profile(wanted, allow_files=bool(name)), None
    except Exception as exc:
        if name:
            raise click.BadParameter(str(exc), param_hint="--rules") from exc
        return DEFAULT_PROFILE, f"Rules {wanted!r}: {exc}; using {DEFAULT_PROFILE.name}"


def _game_dict(source: str, game: Game, found: PositionScore | None, lang: str) -> dict[str, Any]:
    d: dict[str, Any] = {"file": source, "line": game.start_line}
    event = game.header("Event")
    if event:
        d["event"] = event
    if game.errors:
        d["errors"] = [
            {"line": e.pos.line, "column": e.pos.column, "code": e.code, "message": e.message}
            for e in game.errors
        ]
        return d
    assert found is not None
    d["possible"] = not found.problems
    d["counts_only"] = list(found.counts_only)
    d["problems"] = [p.to_dict(lang) for p in found.problems]
    d["scoring"] = found.result.to_dict() if found.result is not None else None
    if found.result is not None and found.result.round == 3:
        d["winners"] = found.result.winners()
    return d


@click.command("score")
@click.argument("file", type=click.Path())
@click.option(
    "--round",
    "round_no",
    type=click.IntRange(1, 3),
    default=3,
    show_default=True,
    help="Which scoring: 3 is the final one; 1 or 2 an intermediate scoring.",
)
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
    help="Rule profile (default: the game's Rules header, else queen-2003).",
)
@lang_option
def command(file: str, round_no: int, fmt: str, rules: str | None, lang: str) -> int:
    """Score a finished physical game from the position block in FILE.

    Checks that the layouts are possible (each tile used once across all Alhambras, reserves
    and Dirk; building rules kept) and reports every problem, then prints the scoring
    breakdown (majorities with ties, longest outer wall) and the ranking. Players who did not
    type their layout may give `counts P=2 A=3 wall=7` instead: the wall is then marked "not
    verified".

    \b
    Examples:
      alhambra-referee score examples/final-6p.alh
      alhambra-referee score examples/final-2p-dirk.alh --lang de
      alhambra-referee score examples/final-counts.alh --round 2 --format json

    \b
    Exit codes: 0 layouts possible, 1 a layout problem was reported, 2 syntax errors or
    unreadable input.
    """
    from referee.notation import iter_games, parse_text
    from referee.notation.files import read_source

    words = _TEXT.get(lang, _TEXT["en"])
    source = "<stdin>" if file == "-" else file
    docs: list[dict[str, Any]] = []
    text: list[str] = []
    exit_code = EXIT_OK
    try:
        if file == "-":
            games = parse_text(read_source("-"), source)  # the shared reader (bytes)
        else:
            games = list(iter_games(Path(file), source))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        click.echo(f"{source}: cannot read the file: {reason}", err=True)
        return EXIT_SYNTAX
    if not games:
        click.echo(f"{source}: no game in the file", err=True)
        return EXIT_SYNTAX
    for game in games:
        header = f"{source}: {words['game']} {game.start_line}"
        event = game.header("Event")
        if event:
            header += f' "{event}"'
        if game.errors:
            exit_code = EXIT_SYNTAX
            text.append(header)
            for err in game.errors:
                text.append(f"{source}:{err.pos}: {err.message}")
                if err.excerpt:
                    text.extend("    " + ln for ln in err.excerpt.split("\n"))
            text.append("")
            docs.append(_game_dict(source, game, None, lang))
            continue
        profile, note = _profile(rules, game)
        try:
            found = score_position(game, profile, round_no)
        except Exception as exc:  # a bug is reported, never a traceback
            exit_code = EXIT_SYNTAX
            text.append(f"{header}\n{source}:{game.start_line}:1: internal error: {exc!r}\n")
            docs.append({"file": source, "line": game.start_line, "internal_error": repr(exc)})
            continue
        text.append(header)
        text.append(f"  {words['profile']}: {profile.name}")
        if note:
            text.append(f"  {note}")
        if found.result is None:
            exit_code = EXIT_SYNTAX
            text.extend(p.text(source, lang) for p in found.problems)
            text.append("")
            docs.append(_game_dict(source, game, found, lang))
            continue
        if found.problems:
            exit_code = max(exit_code, EXIT_PROBLEMS)
            text.append(words["problems"])
            text.extend("  " + p.text(source, lang) for p in found.problems)
        else:
            text.append(words["ok"])
        if found.counts_only:
            text.append(words["counts_only"].format(names=", ".join(found.counts_only)))
        text.append("")
        text.append(render_scoring_text(found.result, lang))
        docs.append(_game_dict(source, game, found, lang))
    fmt = fmt.lower()
    if fmt == "json":
        click.echo(json.dumps({"games": docs}, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(yaml.safe_dump({"games": docs}, allow_unicode=True, sort_keys=False), nl=False)
    else:
        click.echo("\n".join(text).rstrip() + "\n", nl=False)
    return exit_code
