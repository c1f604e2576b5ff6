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

import gc
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from referee.commands._input import STDIN, is_empty_game, no_games_message, os_reason, shown_name
from referee.engine import check_game
from referee.notation.files import UnreadableInput, is_folder, open_games, scan_folder
from referee.profiles import RuleProfile
from referee.record.model import NotationError, Pos
from referee.reports.check_report import DEFAULT_MAX_VIOLATIONS, CheckedGame, game_dict, render_text
from referee.reports.i18n import current_lang, t

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import click

EXIT_OK, EXIT_VIOLATIONS, EXIT_SYNTAX = 0, 1, 2

# what the command writes its lines with: ``click.echo`` under Click, the plain path's writer
# without it (:mod:`referee.cli_plain`): (text, nl=True, err=False)
Echo = Callable[..., None]


def _click_echo() -> Echo:
    import click

    return click.echo


def _files(
    paths: tuple[str, ...], echo: Echo | None = None, lang: str | None = None
) -> Iterator[str]:
    """Every input as the name ``str(Path(raw))`` gives (a folder: its ``*.alh`` files)."""
    for raw in paths:
        name = _name(raw)
        if raw != STDIN and _is_dir(name):
            from pathlib import Path

            found, skipped = scan_folder(Path(name))
            for entry in skipped:  # dangling links, FIFOs named *.alh: said, never silent
                say = echo if echo is not None else _click_echo()
                say(entry.message(lang if lang is not None else current_lang()), err=True)
            yield from (str(f) for f in found)
            if not found:
                yield name  # a folder without games: reported as "no games found"
        else:
            yield name


# A check of files names them as pathlib writes them and reads them without importing
# ``pathlib`` (which, with the ``urllib.parse`` and ``ipaddress`` it imports, was 5 % of a
# one-game check's instructions in a regular install): a name that pathlib leaves as it is
# is used as it is, and pathlib answers whatever is not certain (other names, failed stats).


def _name(raw: str) -> str:
    """``str(Path(raw))``: ``raw`` itself when pathlib leaves it so (no empty or ``.`` part, no
    second leading ``/``), else what pathlib makes of it (``a//b`` is ``a/b``, ``./x`` is
    ``x``)."""
    rel = raw[1:] if raw.startswith("/") and not raw.startswith("//") else raw
    if rel and rel[0] != "/" and all(part not in ("", ".") for part in rel.split("/")):
        return raw
    from pathlib import Path

    return str(Path(raw))


def _is_dir(name: str) -> bool:
    """Whether the name :func:`_name` gave is a folder (:func:`referee.notation.files.is_folder`:
    a name the system cannot look at is read as a file, and reading it says why it failed)."""
    return is_folder(name)


def _load_rules(rules: str | None) -> RuleProfile | None:
    if not rules:
        return None
    import click

    try:
        from referee.profiles import load_profile
    except ImportError as exc:  # pragma: no cover - the loader ships with the package
        raise click.UsageError("--rules needs the profile loader") from exc
    try:
        return load_profile(rules)
    except MemoryError:  # not a bad --rules value: the process's own failure
        raise
    except Exception as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from exc


# ----------------------------------------------------------------------------- batch checking


@dataclass
class _Job:
    """One game's text as cut from its file (or why the file cannot be read)."""

    source: str
    start: int
    text: str | None  # None: the file cannot be read (``error`` says why)
    error: str = ""
    file_no: int = 0  # which input this game comes from (a file named twice counts twice)
    code: str = "UNREADABLE"
    exc: BaseException | None = None  # NO-FILE: why the file cannot be read


@dataclass
class _Done:
    """One checked game, reduced to what the output needs (no game state is kept)."""

    valid: bool
    broken: bool
    codes: list[str] = field(default_factory=list)  # rule codes of the errors found
    size: int = 0  # characters of input (for the progress bar)
    text: str = ""
    data: dict[str, Any] | None = None
    empty: bool = False  # no game at all (only comments): not counted, not shown
    note: str = ""  # an input that cannot be read: the message instead of "no games found"
    source: str = ""
    file_no: int = 0


@dataclass(frozen=True)
class _Options:
    """What every game of one ``check`` is checked and written with."""

    profile: RuleProfile | None
    strict: bool
    fmt: str
    lang: str
    scorings: bool
    max_violations: int = DEFAULT_MAX_VIOLATIONS


def _jobs(
    paths: tuple[str, ...], echo: Echo | None = None, lang: str | None = None
) -> Iterator[_Job]:
    """The games of every file as raw text chunks, read lazily (one game in memory)."""
    for file_no, path in enumerate(_files(paths, echo, lang)):
        source = shown_name(path)
        if _is_dir(path):  # a folder without any *.alh file
            yield _Job(source, 1, None, "", file_no, "NO-GAMES")
            continue
        games = 0
        try:
            # "-" is standard input, e.g. `alhambra-referee simulate | ... check -`
            for start, chunk in open_games(path):
                games += 1
                yield _Job(source, start, chunk, file_no=file_no)
        except (OSError, UnicodeDecodeError) as exc:
            if games or not isinstance(exc, OSError):  # a bad byte, or a file broken inside
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                # a bad byte or an over-long line: named at its line, in the user's language
                unreadable = exc if isinstance(exc, UnreadableInput) else None
                yield _Job(source, 1, None, reason, file_no, exc=unreadable)
            else:  # a missing or unreadable file: reported, never counted as a game
                yield _Job(source, 1, None, "", file_no, "NO-FILE", exc)
            continue
        if not games:  # an empty file (or only blank lines)
            yield _Job(source, 1, None, "", file_no, "NO-GAMES")


def _check_job(job: _Job, opts: _Options) -> _Done:
    """Parse and check one game and render it (runs in a worker process with --jobs).

    Whatever goes wrong inside becomes an INTERNAL error of that game, never a traceback.

    No garbage collection runs while one game is read, checked and rendered: its records and
    state are freed by reference counting when the game is dropped, and a collection in the
    middle would only walk the live game again and again (about 8 % of a check). What cycles a
    game leaves are collected by the next collection after it; memory stays one game's worth.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        done = _check_job_inner(job, opts)
        done.source, done.file_no = job.source, job.file_no
        return done
    except Exception as exc:  # only a bug, or exhausted memory, gets here
        err = NotationError(_internal_text(exc, opts.lang), Pos(job.start, 1), "INTERNAL")
        g = CheckedGame(job.source, job.start, [], None, [err])
        done = _Done(False, True, [], size=len(job.text or ""))
        done.source, done.file_no = job.source, job.file_no
        if opts.fmt == "text":
            done.text = f"{job.source}:{job.start}: INTERNAL: {err.message}"
        else:
            done.data = game_dict(g, opts.lang)
        return done
    finally:
        if collecting:
            gc.enable()


def _internal_text(exc: Exception, lang: str) -> str:
    """What a game's INTERNAL error says: exhausted memory in words (a process with a memory
    limit, a huge record), anything else as the bug it is."""
    if isinstance(exc, MemoryError):
        return t("err.memory_check", lang)
    return t("err.internal_check", lang, error=f"{type(exc).__name__}: {exc}")


def _check_job_inner(job: _Job, opts: _Options) -> _Done:
    from referee.notation.parser import parse_game_text

    if job.code == "NO-GAMES":
        return _Done(False, False, empty=True)
    if job.code == "NO-FILE":  # in the user's language, and no game
        why = os_reason(job.exc, opts.lang) if job.exc is not None else "?"
        return _Done(
            False, False, empty=True, note=t("err.unreadable", opts.lang, path=job.source, why=why)
        )
    if job.text is None:
        if isinstance(job.exc, UnreadableInput):  # where the bad byte / long line is
            bad = job.exc
            why = bad.message(opts.lang)
            at = Pos(max(bad.line, 1), max(bad.column, 1))
            code = getattr(bad, "code", "UNREADABLE")
        else:
            why, at, code = job.error, Pos(1, 1), "UNREADABLE"
        err = NotationError(t("err.cannot_read", opts.lang, why=why), at, code)
        g = CheckedGame(job.source, 1, [], None, [err])
    else:
        game = parse_game_text(job.text, job.source, job.start)
        if is_empty_game(game):
            return _Done(False, False, size=len(job.text), empty=True)
        from referee.record_limits import name_warnings, names_shown, table_error

        table = table_error(game, opts.lang)  # thousands of names: not replayed
        if game.errors or table is not None:
            from referee.notation.messages import localize_error  # (a valid game: not loaded)

            errors = [localize_error(e, opts.lang) for e in game.errors]  # --lang de: German
            errors += [table] if table is not None else []
            players = list(game.players) if table is None else [names_shown(game.players)]
            g = CheckedGame(job.source, game.start_line, players, None, errors)
        else:
            try:
                report = check_game(game, opts.profile, strict=opts.strict)
                report.state = None  # the output never needs it; keeps memory flat
                report.violations[:0] = name_warnings(game)
                g = CheckedGame(job.source, game.start_line, report.players, report)
            except Exception as exc:  # an engine bug is reported, never a traceback
                err = NotationError(
                    _internal_text(exc, opts.lang), Pos(game.start_line, 1), "INTERNAL"
                )
                g = CheckedGame(job.source, game.start_line, list(game.players), None, [err])
    codes = [v.code for v in g.report.violations if v.severity == "error"] if g.report else []
    done = _Done(g.valid, bool(g.errors), codes, size=len(job.text or ""))
    if opts.fmt == "text":
        # render_text ends with its one-game summary line: the batch writes its own at the end
        done.text = render_text(
            [g], opts.lang, scorings=opts.scorings, max_violations=opts.max_violations
        ).rstrip("\n")
        done.text = done.text.rsplit("\n", 1)[0] if "\n" in done.text else ""
    else:
        done.data = game_dict(g, opts.lang, max_violations=opts.max_violations)
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

    def __init__(self, enabled: bool, total: int, lang: str = "en") -> None:
        self.enabled = enabled
        self.lang = lang
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
            words = ("prüfe", "Partien") if self.lang == "de" else ("checking", "games")
            sys.stderr.write(f"\r\x1b[K{words[0]}: [{bar}] {part:4.0%}, {words[1]}: {self.n}")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def _total_size(paths: tuple[str, ...], echo: Echo, lang: str) -> int:
    total = 0
    for path in _files(paths, echo, lang):
        try:
            total += os.stat(path).st_size
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
    # the counts of games are the summary line's (issue 31: the summary appears once); the
    # table adds what the line does not say, the violations by rule
    out: list[str] = []
    if codes:
        out.append(f"  {words[4]}:")
        cw = max(len(c) for c in codes)
        for code, n in sorted(codes.items(), key=lambda cn: (-cn[1], cn[0])):
            rule = RULES.get(code)
            name = rule.name(lang) if rule is not None else ""
            out.append(f"    {code:<{cw}}  {n:>7}  {name}")
    return "\n".join(out)


def _command(
    files: tuple[str, ...],
    strict: bool,
    fmt: str,
    rules: str | None,
    no_scoring: bool,
    jobs: int,
    progress: bool | None,
    max_violations: int,
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
    import click

    return run(
        files, strict, fmt, rules, no_scoring, jobs, progress, max_violations, lang, click.echo
    )


def _make_command() -> click.Command:
    """The ``check`` command: :func:`_command` with its arguments and options (made when
    :data:`command` is first read, by the command line's group; a plain check, read without
    Click by :mod:`referee.cli_plain`, never makes it)."""
    import click

    from referee.reports.i18n import lang_option

    max_violations_option = click.option(
        "--max-violations",
        "max_violations",
        type=click.IntRange(0),
        default=DEFAULT_MAX_VIOLATIONS,
        show_default=True,
        metavar="N",
        help="Show at most N rule violations (and N notes of what cannot be verified) per game "
        "and say how many were left out (0: show all). JSON/YAML give the true count in "
        "violation_count and violations_omitted.",
    )
    # the decorators of the command as they were written above a ``def`` (the last applied first)
    callback: Any = lang_option(_command)
    callback = max_violations_option(callback)
    callback = click.option(
        "--progress/--no-progress",
        default=None,
        help="Progress on standard error (default: only when it is a terminal).",
    )(callback)
    callback = click.option(
        "--jobs",
        "-j",
        type=click.IntRange(0),
        default=1,
        show_default=True,
        help="Check games in this many processes (0: one per CPU).",
    )(callback)
    callback = click.option(
        "--no-scoring", is_flag=True, help="Text output without scoring breakdowns."
    )(callback)
    callback = click.option(
        "--rules",
        metavar="NAME|FILE",
        default=None,
        help="Rule profile to check with (default: each game's Rules header, else queen-2003).",
    )(callback)
    callback = click.option(
        "--format",
        "fmt",
        type=click.Choice(["text", "json", "yaml"], case_sensitive=False),
        default="text",
        show_default=True,
        help="Output format.",
    )(callback)
    callback = click.option("--strict", is_flag=True, help="Stop at the first rule violation.")(
        callback
    )
    callback = click.argument("files", nargs=-1, required=True, type=click.Path())(callback)
    return click.command("check")(callback)


def __getattr__(name: str) -> click.Command:
    if name == "command":
        made = _make_command()
        globals()["command"] = made
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run(
    files: tuple[str, ...],
    strict: bool,
    fmt: str,
    rules: str | None,
    no_scoring: bool,
    jobs: int,
    progress: bool | None,
    max_violations: int,
    lang: str,
    echo: Echo,
) -> int:
    """The check of ``files`` with the command's options (``lang`` resolved), its lines written
    with ``echo`` (``click.echo``'s parameters); the exit status."""
    profile = _load_rules(rules)
    fmt = fmt.lower()
    opts = _Options(profile, strict, fmt, lang, not no_scoring, max_violations)
    workers = (os.cpu_count() or 1) if jobs == 0 else jobs
    if strict:
        workers = 1  # stop at the first violation: no games checked ahead
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(show, _total_size(files, echo, lang) if show else 0, lang)
    n = valid = broken = 0
    codes: Counter[str] = Counter()
    empty_inputs: list[str] = []  # inputs that hold no game: "no games found", exit 2
    current: tuple[int, str, bool] | None = None  # (file_no, source, a game seen)
    notes: dict[int, str] = {}  # file_no -> why it cannot be read

    def close_input() -> None:
        if current is not None and not current[2]:
            empty_inputs.append(current[1])
            if fmt == "text":
                bar.clear()
                echo(notes.get(current[0]) or no_games_message(current[1], lang))

    if fmt == "json":
        echo('{\n  "games": [', nl=False)
    elif fmt == "yaml":
        echo("games:", nl=False)
    for done in _results(_jobs(files, echo, lang), opts, workers):
        if current is None or current[0] != done.file_no:
            close_input()
            current = (done.file_no, done.source, False)
        if done.empty:
            if done.note:
                notes[done.file_no] = done.note
            bar.step(done.size)
            continue
        current = (done.file_no, done.source, True)
        n += 1
        valid += done.valid
        broken += done.broken
        codes.update(done.codes)
        bar.clear()
        if fmt == "text":
            if done.text:
                echo(done.text)
        elif fmt == "json":
            # json.dumps(data, ensure_ascii=False, indent=2), each line indented by four more
            from referee.reports.json_text import dumps

            body = dumps(done.data, "    ")
            echo(("," if n > 1 else "") + "\n    " + body, nl=False)
        else:
            import yaml  # only for --format yaml: a one-game check does not load PyYAML

            echo("\n" + yaml.safe_dump([done.data], allow_unicode=True, sort_keys=False), nl=False)
        bar.step(done.size)
        if strict and not done.valid:
            current = None  # stopped: the rest of the input was not read
            break
    close_input()
    bar.clear()
    all_valid = n == valid and not empty_inputs
    if fmt == "json":
        import json

        echo(("\n  ]" if n else "]") + f',\n  "valid": {json.dumps(all_valid)}', nl=False)
        if empty_inputs:
            no_games = json.dumps(empty_inputs, ensure_ascii=False)
            echo(f',\n  "no_games": {no_games}', nl=False)
        echo("\n}")
    elif fmt == "yaml":
        echo((" []\n" if not n else "") + f"valid: {'true' if all_valid else 'false'}")
        if empty_inputs:
            import yaml

            echo(yaml.safe_dump({"no_games": empty_inputs}, allow_unicode=True), nl=False)
    else:
        from referee.reports.check_report import _t

        echo(_t("summary", lang, games=n, valid=valid, invalid=n - valid - broken, broken=broken))
        if n > 1 and codes:
            echo(summary_table(n, valid, broken, codes, lang))
    sys.stdout.flush()
    if broken or empty_inputs:
        return EXIT_SYNTAX
    if n != valid:
        return EXIT_VIOLATIONS
    return EXIT_OK
