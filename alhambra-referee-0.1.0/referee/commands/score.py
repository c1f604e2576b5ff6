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

from referee.commands._input import STDIN, no_games_message, read_text, real_games, shown_name
from referee.notation.messages import localize
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import Game, Turn
from referee.reports.check_report import violations_text
from referee.reports.i18n import lang_option, t
from referee.scoring import render_scoring_text
from referee.scoring.position import PositionScore, score_position

EXIT_OK, EXIT_PROBLEMS, EXIT_SYNTAX, EXIT_USAGE = 0, 1, 2, 3

_TEXT = {
    "en": {
        "game": "game at line",
        "ok": "Layouts possible: every tile used once, building rules kept.",
        "problems": "Layout problems (reported; the scoring below uses the position as written):",
        "profile": "rules",
        "counts_only": "Scored from stated counts (layout and wall not verified): {names}",
        "no_score": "No score line (the points before scoring {round} are taken as 0): {names}",
        "record": "A complete record: scoring {round} as the replay of every move computes it "
        "(alhambra-referee check {file} checks the moves).",
        "record_violations": "The record breaks the rules ({violations}); the scoring below "
        "follows the record as written: see alhambra-referee check {file}",
        "record_short": "{where}: this record has no scoring {round} (it ends before it): "
        "use alhambra-referee check {file}, or write a position block to score",
    },
    "de": {
        "game": "Spiel ab Zeile",
        "ok": "Aufbau möglich: jedes Plättchen einmal verwendet, Bauregeln eingehalten.",
        "problems": "Probleme im Aufbau (gemeldet; die Wertung nimmt die Stellung wie angegeben):",
        "profile": "Regeln",
        "counts_only": "Nach angegebenen Anzahlen gewertet (Aufbau und Mauer ungeprüft): {names}",
        "no_score": "Keine score-Zeile (die Punkte vor der {round}. Wertung zählen als 0): {names}",
        "record": "Eine vollständige Aufzeichnung: die {round}. Wertung, wie sie das Nachspielen "
        "aller Züge ergibt (alhambra-referee check {file} prüft die Züge).",
        "record_violations": "Die Aufzeichnung verstößt gegen die Regeln ({violations}); die "
        "Wertung unten folgt der Aufzeichnung wie geschrieben: siehe alhambra-referee check "
        "{file}",
        "record_short": "{where}: diese Aufzeichnung hat keine {round}. Wertung (sie endet "
        "vorher): alhambra-referee check {file} verwenden oder einen Stellungsblock zum Werten "
        "schreiben",
    },
}


def rule_profile_for(
    name: str | None, game: Game, lang: str = "en"
) -> tuple[RuleProfile, str | None]:
    """The rule profile: --rules, else the game's Rules header, else the default."""
    from referee.profiles.loader import load_profile

    wanted = name or game.header("Rules")
    if not wanted:
        return DEFAULT_PROFILE, None
    try:
        # a record's Rules header is untrusted text: bundled names only, never a file
        return load_profile(wanted, allow_files=bool(name)), None
    except MemoryError:  # no score rather than one under the default profile
        raise
    except Exception as exc:
        if name:
            raise click.BadParameter(str(exc), param_hint="--rules") from exc
        using = "es gilt" if lang == "de" else "using"
        return DEFAULT_PROFILE, f"Rules {wanted!r}: {exc}; {using} {DEFAULT_PROFILE.name}"


def game_dict(source: str, game: Game, found: PositionScore | None, lang: str) -> dict[str, Any]:
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
    if found.no_score:
        d["no_score_line"] = list(found.no_score)
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
    """Score a finished physical game from the position block in FILE (- reads standard
    input).

    A complete game record (turns, no position block to score) is scored at its end: the
    breakdown of the final scoring (or of --round N) as replaying every move computes it; a
    record that ends before that scoring is refused (exit code 3: use `check`).

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
    Exit codes: 0 layouts possible, 1 a layout problem (or, for a record, a rule violation)
    was reported, 2 syntax errors, unreadable input or no games, 3 usage error (a record that
    does not reach the scoring asked for).
    """
    from referee.notation import iter_games, parse_text

    words = _TEXT.get(lang, _TEXT["en"])
    source = shown_name(file)
    docs: list[dict[str, Any]] = []
    text: list[str] = []
    exit_code = EXIT_OK
    try:
        if file == STDIN:
            games = parse_text(read_text(file), source)
        else:
            games = list(iter_games(Path(file), source))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        click.echo(t("err.unreadable", lang, path=source, why=reason), err=True)
        return EXIT_SYNTAX
    games = real_games(games)
    if not games:
        click.echo(no_games_message(file, lang), err=True)
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
                text.append(f"{source}:{err.pos}: {localize(err.message, lang)}")
                if err.excerpt:
                    text.extend("    " + ln for ln in err.excerpt.split("\n"))
            text.append("")
            docs.append(game_dict(source, game, None, lang))
            continue
        profile, note = rule_profile_for(rules, game, lang)
        if is_record(game):
            code = _score_record(game, file, header, profile, note, round_no, lang, text, docs)
            exit_code = max(exit_code, code)
            continue
        try:
            found = score_position(game, profile, round_no)
        except Exception as exc:  # a bug is reported, never a traceback
            exit_code = EXIT_SYNTAX
            error = t("err.internal", lang, error=repr(exc))
            text.append(f"{header}\n{source}:{game.start_line}:1: {error}\n")
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
            docs.append(game_dict(source, game, found, lang))
            continue
        if found.problems:
            exit_code = max(exit_code, EXIT_PROBLEMS)
            text.append(words["problems"])
            text.extend("  " + p.text(source, lang) for p in found.problems)
        else:
            text.append(words["ok"])
        if found.counts_only:
            text.append(words["counts_only"].format(names=", ".join(found.counts_only)))
        if found.no_score:
            names = ", ".join(found.no_score)
            text.append(words["no_score"].format(names=names, round=found.result.round))
        text.append("")
        text.append(render_scoring_text(found.result, lang))
        docs.append(game_dict(source, game, found, lang))
    fmt = fmt.lower()
    if fmt == "json":
        click.echo(json.dumps({"games": docs}, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(yaml.safe_dump({"games": docs}, allow_unicode=True, sort_keys=False), nl=False)
    else:
        click.echo("\n".join(text).rstrip() + "\n", nl=False)
    return exit_code


def is_record(game: Game) -> bool:
    """A game record (turns played), as opposed to a position block to score."""
    return any(isinstance(item, Turn) for item in game.body)


def _score_record(
    game: Game,
    file: str,
    header: str,
    profile: RuleProfile,
    note: str | None,
    round_no: int,
    lang: str,
    text: list[str],
    docs: list[dict[str, Any]],
) -> int:
    """``score`` of a complete record: the breakdown of its scoring ``round_no`` as the engine's
    replay of every move computes it (what ``check`` computes). A record that does not reach
    that scoring is refused with the usage exit code: ``check`` is the command for it."""
    from referee.engine import check_game

    source = shown_name(file)
    words = _TEXT.get(lang, _TEXT["en"])
    report = check_game(game, profile)
    report.state = None
    result = next((s for s in report.scorings if getattr(s, "round", None) == round_no), None)
    if result is None:
        where = f"{source}:{game.start_line}"
        text.append(header)
        text.append("  " + words["record_short"].format(where=where, round=round_no, file=file))
        text.append("")
        docs.append(
            {
                "file": source,
                "line": game.start_line,
                "record": True,
                "error": words["record_short"].format(where=where, round=round_no, file=file),
            }
        )
        return EXIT_USAGE
    errors = [v for v in report.violations if v.severity == "error"]
    text.append(header)
    text.append(f"  {words['profile']}: {report.profile or profile.name}")
    if note:
        text.append(f"  {note}")
    text.append(words["record"].format(round=round_no, file=file))
    if errors:
        text.append(
            words["record_violations"].format(
                violations=violations_text(len(errors), lang), file=file
            )
        )
    text.append("")
    text.append(render_scoring_text(result, lang))
    d: dict[str, Any] = {"file": source, "line": game.start_line, "record": True}
    event = game.header("Event")
    if event:
        d["event"] = event
    d["valid"] = report.valid
    d["violation_count"] = len(errors)
    d["scoring"] = result.to_dict()
    if round_no == 3:
        d["winners"] = result.winners()
    docs.append(d)
    return EXIT_PROBLEMS if errors else EXIT_OK
