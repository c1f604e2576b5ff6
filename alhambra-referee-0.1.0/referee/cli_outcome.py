"""How a run of the command line ends, with Click (:mod:`referee.cli`) or without it
(:mod:`referee.cli_plain`): the exit status of every outcome, a closed output pipe, a failure
of the tool itself, terminals guarded, and the process's own quick exit.

Nothing here imports Click: a plain ``check`` (:mod:`referee.cli_plain`) ends through the same
functions as every command run by Click.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

EXIT_OK = 0
EXIT_INTERNAL = 4  # a failure of the tool itself (a bug, memory exhausted): never 1
EXIT_PIPE = 128 + 13  # 141: killed by SIGPIPE, what a shell shows for `... | head`


def _pipe_closed(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) is a write to a closed pipe."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, BrokenPipeError):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _quiet_exit(code: int) -> NoReturn:
    """Leave with ``code`` after a closed pipe: nothing more is written, no flush error at exit.

    Python flushes standard output once more when it shuts down; on a closed pipe that flush
    fails and prints "Exception ignored ...". Pointing both streams at /dev/null first keeps
    the exit silent.
    """
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # pragma: no cover - odd streams
            pass
    sys.exit(code)


def _internal_failure(error: str) -> NoReturn:
    """Leave with :data:`EXIT_INTERNAL` after a failure of the tool itself (a bug, memory
    exhausted): one line on standard error, never the code of rule violations (1)."""
    from referee.safe_text import bounded, line

    error = bounded(line(error), 300)
    sys.stderr.write(
        f"alhambra-referee: internal error ({error}); nothing above is a verdict on the "
        f"record / interner Fehler ({error}); nichts oben ist ein Urteil über die Partie\n"
    )
    sys.exit(EXIT_INTERNAL)


def conclude(command: Callable[[], object]) -> NoReturn:
    """Run ``command`` (what the arguments asked for; Click's own outcomes are mapped to their
    codes inside it) and leave with its status: an int as it is, anything else 0.

    A closed output pipe (``alhambra-referee check big.alh | head``) ends every command the
    same way, here and nowhere else: quietly, with status 141 (128 + SIGPIPE), as a program
    killed by SIGPIPE would. A bug or exhausted memory: :func:`_internal_failure`."""
    try:
        rv = command()
        sys.stdout.flush()  # a closed pipe shows here when the output was small
    except KeyboardInterrupt:
        sys.exit(130)
    except MemoryError:
        _internal_failure("MemoryError")
    except Exception as exc:  # a bug: reported in one line, never a traceback or exit code 1
        if _pipe_closed(exc):
            _quiet_exit(EXIT_PIPE)
        _internal_failure(f"{type(exc).__name__}: {exc}")
    sys.exit(rv if isinstance(rv, int) else EXIT_OK)


def _leave(code: int) -> NoReturn:
    """End the process with ``code`` as :func:`sys.exit` would, without the interpreter's
    tear-down of every module, class and table (3 % of a one-game ``check``): the output is
    flushed and the exit handlers run (the data cache's, multiprocessing's), then the process
    ends. When a flush fails (a closed pipe) or another thread still runs, the interpreter
    leaves the usual way, as before."""
    import atexit
    import os

    threading = sys.modules.get("threading")
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        sys.exit(code)
    if threading is not None and threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(code)


def _guard_terminals() -> tuple[object, object]:
    """Standard output and error, as they were; each one that is a terminal is replaced by a
    :class:`referee.safe_text.TerminalStream`, so that no control sequence from a record (a
    window title, a hyperlink, a cursor move) reaches it (docs/security.md). Output to a file
    or a pipe is written as it is (records, JSON, SVG: escaped for their own format)."""
    from referee.safe_text import TerminalStream

    before = (sys.stdout, sys.stderr)
    for name, progress in (("stdout", False), ("stderr", True)):
        stream = getattr(sys, name)
        try:
            tty = bool(stream.isatty())
        except (AttributeError, OSError, ValueError):
            tty = False
        if tty and not isinstance(stream, TerminalStream):
            setattr(sys, name, TerminalStream(stream, progress))
    return before
