"""``python -m referee`` and the ``alhambra-referee`` script (setup.cfg) run the command line
through :func:`run`."""

import gc
import os

# the line :func:`_cannot_start` writes when even making its own text fails (memory exhausted):
# made now, so that writing it needs no new object
_LAST_WORD = (
    "alhambra-referee: cannot run (not enough memory); nothing above is a verdict on the "
    "record / kann nicht laufen (nicht genug Arbeitsspeicher); nichts oben ist ein Urteil "
    "über die Partie\n"
).encode()


def run() -> None:
    """The process's entry point: the garbage collector paused, then the command line loaded
    and run (:func:`referee.cli.entry`).

    Starting a command makes some 100,000 long-lived objects (Click's and the standard
    library's modules and classes, then the referee's); the collector walked them again and
    again while they were made and found nothing to free. It is paused here, before the first
    of them is made, and :func:`referee.cli._start_done` moves them out of its sight
    (``gc.freeze``) and enables it once the command's module is loaded. (Paused only when
    :func:`referee.cli.main` starts, after Click was loaded: 1.2 % more instructions in a
    one-game ``check``.)

    A plain ``check FILE...`` (:func:`referee.cli_plain.plain_check`) runs without Click, which
    it does not need: 13 % of a one-game check's instructions were Click's import."""
    try:
        _run()
    except KeyboardInterrupt:  # interrupted while loading: quietly, as conclude does later
        import os

        os._exit(130)
    except MemoryError:
        _cannot_start("not enough memory", "nicht genug Arbeitsspeicher")
    except Exception as exc:  # a broken install (a module that cannot be loaded), or a bug
        _cannot_start(f"{type(exc).__name__}: {exc}", f"{type(exc).__name__}: {exc}")


def _cannot_start(en: str, de: str) -> None:
    """A failure outside the commands' own handling (:func:`referee.cli_outcome.conclude`):
    while the program loads or reads its caches, for instance with memory exhausted under a
    limit set for the process. One line on standard error and status 4, never a traceback;
    nothing is imported here, since the failure may be that nothing more can be loaded."""
    import sys

    def clean(text: str) -> str:  # one line of printable text (the text may name a file)
        return "".join(c if c.isprintable() else "?" for c in text)[:300]

    try:  # noqa: SIM105 - no contextlib: nothing more is imported here
        sys.stdout.flush()
    except (OSError, ValueError, MemoryError, AttributeError):
        pass
    try:
        sys.stderr.write(
            f"alhambra-referee: cannot run ({clean(en)}); nothing above is a verdict on the "
            f"record / kann nicht laufen ({clean(de)}); nichts oben ist ein Urteil über die "
            f"Partie\n"
        )
        sys.stderr.flush()
    except (OSError, ValueError, MemoryError, AttributeError):
        try:  # noqa: SIM105 - the line made at start-up, unbuffered (no contextlib here)
            os.write(2, _LAST_WORD)
        except OSError:
            pass
    os._exit(4)  # EXIT_INTERNAL (referee.cli_outcome), which may be what cannot be loaded


def _run() -> None:
    paused = gc.isenabled()
    gc.disable()
    import sys

    from referee.cli_plain import plain_check

    plain = plain_check(sys.argv[1:])
    if plain is not None:  # a plain check: run without loading Click (referee.cli_plain)
        from referee.cli_plain import run as run_plain

        run_plain(plain, paused)
    from referee.cli import entry

    entry(collector_paused=paused)


if __name__ == "__main__":
    run()
