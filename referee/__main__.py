"""``python -m referee`` and the ``alhambra-referee`` script (setup.cfg) run the command line
through :func:`run`."""

import gc


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
