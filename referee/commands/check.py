"""``alhambra-referee check FILE...``: validate every event of every game against the rules.

Exit codes: 0 every game valid, 1 rule violations, 2 a game or file cannot be read.
Directories are searched recursively for ``*.alh`` files.

Batch checking: files are read game by game (never whole), each game is checked and written out
before the next one is read, so memory stays flat on files of many thousands of games;
``--jobs N`` checks the games in N processes (output in input order); a progress line on a
terminal (standard error, never when it is piped); a summary table at the end (games, valid,
violations by rule code).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import yaml

from referee.engine import check_game
from referee.profiles import RuleProfile
from referee.record.model import NotationError, Pos
from referee.reports.check_report import CheckedGame, game_dict, render_text
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


# ----------------------------------------------------------------------------- batch checking


@dataclass
class _Job:
    source: str
    start: int
    text: str | None  # None: the file cannot be read (``error`` says why)
    error: str = ""


@dataclass
class _Done:
    """One checked game, reduced to what the output needs (no game state is kept)."""

    valid: bool
    broken: bool
    codes: list[str] = field(default_factory=list)  # rule codes of the errors found
    size: int = 0  # characters of input (for the progress bar)
    text: str = ""
    data: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Options:
    profile: RuleProfile | None
    strict: bool
    fmt: str
    lang: str
    scorings: bool


def _jobs(paths: tuple[str, ...]) -> Iterator[_Job]:
    """The games of every file as raw text chunks, read lazily (one game in memory)."""
    from referee.notation.files import open_lines
    from referee.notation.parser import split_games

    for path in _files(paths):
        source = str(path)
        try:
            # "-" is standard input, e.g. `alhambra-referee simulate | ... check -`
            for start, chunk in split_games(open_lines(source)):
                yield _Job(source, start, chunk)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            yield _Job(source, 1, None, f"cannot read the file: {reason}")


def _check_job(job: _Job, opts: _Options) -> _Done:
    """Parse and check one game and render it (runs in a worker process with --jobs).

    Whatever goes wrong inside becomes an INTERNAL error of that game, never a traceback."""
    try:
        return _check_job_inner(job, opts)
    except Exception as exc:  # pragma: no cover - only a bug gets here
        err = NotationError(
            f"internal error while checking: {type(exc).__name__}: {exc}",
            Pos(job.start, 1),
            "INTERNAL",
        )
        g = CheckedGame(job.source, job.start, [], None, [err])
        done = _Done(False, True, [], size=len(job.text or ""))
        if opts.fmt == "text":
            done.text = f"{job.source}:{job.start}: INTERNAL: {err.message}"
        else:
            done.data = game_dict(g, opts.lang)
        return done


def _check_job_inner(job: _Job, opts: _Options) -> _Done:
    from referee.notation.messages import localize_error
    from referee.notation.parser import parse_game_text

    if job.text is None:
        err = NotationError(job.error, Pos(1, 1), "UNREADABLE")
        g = CheckedGame(job.source, 1, [], None, [err])
    else:
        game = parse_game_text(job.text, job.source, job.start)
        if game.errors:
            errors = [localize_error(e, opts.lang) for e in game.errors]  # --lang de: German
            g = CheckedGame(job.source, game.start_line, list(game.players), None, errors)
        else:
            try:
                report = check_game(game, opts.profile, strict=opts.strict)
                report.state = None  # the output never needs it; keeps memory flat
                g = CheckedGame(job.source, game.start_line, report.players, report)
            except Exception as exc:  # an engine bug is reported, never a traceback
                err = NotationError(
                    f"internal error while checking: {type(exc).__name__}: {exc}",
                    Pos(game.start_line, 1),
                    "INTERNAL",
                )
                g = CheckedGame(job.source, game.start_line, list(game.players), None, [err])
    codes = [v.code for v in g.report.violations if v.severity == "error"] if g.report else []
    done = _Done(g.valid, bool(g.errors), codes, size=len(job.text or ""))
    if opts.fmt == "text":
        # render_text ends with its one-game summary line: the batch writes its own at the end
        done.text = render_text([g], opts.lang, scorings=opts.scorings).rstrip("\n")
        done.text = done.text.rsplit("\n", 1)[0] if "\n" in done.text else ""
    else:
        done.data = game_dict(g, opts.lang)
    return done


def _results(jobs: Iterable[_Job], opts: _Options, workers: int) -> Iterator[_Done]:
    if workers <= 1:
        for job in jobs:
            yield _check_job(job, opts)
        return
    import multiprocessing

    from referee.notation.parser import _parser

    _parser()  # build the grammar once here: forked workers inherit it (about 2 s each else)
    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ctx.Pool(workers) as pool:
        # a bounded window of games in flight, yielded in input order: Pool.imap would read
        # the whole input ahead into its task queue, and memory would grow with the file
        window = workers * 8
        pending: deque[Any] = deque()
        for job in jobs:
            pending.append(pool.apply_async(_check_job, (job, opts)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


class _Progress:
    """A progress bar on standard error (by bytes of the input read), only on a terminal."""

    WIDTH = 30

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled = enabled
        self.total = max(total, 1)
        self.done = 0
        self.n = 0
        self.last = 0.0
        self.shown = False

    def step(self, size: int) -> None:
        self.n += 1
        self.done += size
        now = time.monotonic()
        if self.enabled and now - self.last > 0.1:
            self.last = now
            part = min(self.done / self.total, 1.0)
            fill = int(part * self.WIDTH)
            bar = "#" * fill + "." * (self.WIDTH - fill)
            sys.stderr.write(f"\r\x1b[Kchecking: [{bar}] {part:4.0%} {self.n} game(s)")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _total_size(paths: tuple[str, ...]) -> int:
    total = 0
    for path in _files(paths):
        try:
            total += path.stat().st_size
        except OSError:
            continue
    return total


_SUMMARY = {
    "en": ("games", "valid", "with violations", "unreadable", "violations by rule"),
    "de": ("Partien", "gültig", "mit Regelverstößen", "nicht lesbar", "Regelverstöße nach Regel"),
}


def summary_table(games: int, valid: int, broken: int, codes: Counter[str], lang: str) -> str:
    """The batch summary: games, valid, violations by rule code (most frequent first)."""
    from referee.engine import RULES

    words = _SUMMARY.get(lang, _SUMMARY["en"])
    rows = [
        (words[0], str(games)),
        (words[1], str(valid)),
        (words[2], str(games - valid - broken)),
        (words[3], str(broken)),
    ]
    width = max(len(k) for k, _ in rows)
    out = [f"  {k:<{width}}  {v:>7}" for k, v in rows]
    if codes:
        out.append(f"  {words[4]}:")
        cw = max(len(c) for c in codes)
        for code, n in sorted(codes.items(), key=lambda cn: (-cn[1], cn[0])):
            rule = RULES.get(code)
            name = rule.name(lang) if rule is not None else ""
            out.append(f"    {code:<{cw}}  {n:>7}  {name}")
    return "\n".join(out)


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
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Check games in this many processes (0: one per CPU).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on standard error (default: only when it is a terminal).",
)
@lang_option
def command(
    files: tuple[str, ...],
    strict: bool,
    fmt: str,
    rules: str | None,
    no_scoring: bool,
    jobs: int,
    progress: bool | None,
    lang: str,
) -> int:
    """Check every move of the games in FILES against the rulebook.

    FILES are .alh records or folders (searched for *.alh); - reads standard input. For each
    game: OK, or every violation with file:line:column, turn, player, rule code and section,
    and why.

    \b
    Examples:
      alhambra-referee check examples/game-4p.alh
      alhambra-referee check --lang de --no-scoring examples/
      alhambra-referee simulate --games 100 | alhambra-referee check --jobs 2 -

    \b
    Exit codes: 0 all valid, 1 rule violations, 2 syntax errors or unreadable input.
    """
    profile = _load_rules(rules)
    fmt = fmt.lower()
    opts = _Options(profile, strict, fmt, lang, not no_scoring)
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    if strict:
        workers = 1  # stop at the first violation: no games checked ahead
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(show, _total_size(files) if show else 0)
    n = valid = broken = 0
    codes: Counter[str] = Counter()
    if fmt == "json":
        click.echo('{\n  "games": [', nl=False)
    elif fmt == "yaml":
        click.echo("games:", nl=False)
    for done in _results(_jobs(files), opts, workers):
        n += 1
        valid += done.valid
        broken += done.broken
        codes.update(done.codes)
        bar.clear()
        if fmt == "text":
            if done.text:
                click.echo(done.text)
        elif fmt == "json":
            body = json.dumps(done.data, ensure_ascii=False, indent=2).replace("\n", "\n    ")
            click.echo(("," if n > 1 else "") + "\n    " + body, nl=False)
        else:
            click.echo(
                "\n" + yaml.safe_dump([done.data], allow_unicode=True, sort_keys=False), nl=False
            )
        bar.step(done.size)
        if strict and not done.valid:
            break
    bar.clear()
    all_valid = n == valid
    if fmt == "json":
        click.echo(("\n  ]" if n else "]") + f',\n  "valid": {json.dumps(all_valid)}\n}}')
    elif fmt == "yaml":
        click.echo((" []\n" if not n else "") + f"valid: {'true' if all_valid else 'false'}")
    else:
        from referee.reports.check_report import _t

        click.echo(
            _t("summary", lang, games=n, valid=valid, invalid=n - valid - broken, broken=broken)
        )
        if n > 1:
            click.echo(summary_table(n, valid, broken, codes, lang))
    sys.stdout.flush()
    if broken:
        return EXIT_SYNTAX
    if n != valid:
        return EXIT_VIOLATIONS
    return EXIT_OK
