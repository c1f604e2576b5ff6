"""Helpers shared by the test files (pytest puts this folder on the import path).

``run``, ``codes`` and ``messages`` check a record body after a three-player setup whose start
money, display and market are known; ``view`` reads a module's state the public way, through
its :meth:`~referee.engine.extensions.Module.view` (what ``show`` prints), never through
``state.modules[...]``.
"""

from __future__ import annotations

import compileall
import gc
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_store_support import use_folder

from referee.engine import GameReport, check_game
from referee.notation import parse_text


def pytest_configure(config: pytest.Config) -> None:
    """Write the bytecode of the checkout's ``referee`` once, in the process that starts the run
    (not in each xdist worker), before any test starts ``python -m referee``.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (this project's CI machines set it) and the checkout
    is fresh, every child process would otherwise compile the package's ~170 modules from source
    again: about 0.3 s of cpu each, for several hundred children a run. ``compileall`` writes
    ``__pycache__`` as an ordinary import would without that variable (git ignores it); an
    installed package (the compiled build's tests run beside one) already has its bytecode, and
    a checkout that cannot be written to is left as it is: only slower."""
    if hasattr(config, "workerinput"):
        return
    package = Path(__file__).resolve().parent.parent / "referee"
    if package.is_dir():
        compileall.compile_dir(str(package), quiet=2)


TESTS = Path(__file__).resolve().parent


def _files_collected_whole(config: pytest.Config) -> list[Path]:
    """The test files of this folder the run imports, in collection order, when it names this
    folder or some of its files plainly (no ``--ignore``, the default import mode); else []."""
    if config.getoption("importmode") != "prepend" or str(TESTS) not in sys.path:
        return []
    if config.getoption("ignore") or config.getoption("ignore_glob"):
        return []
    files: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path == TESTS:
            files.update(TESTS.glob("test_*.py"))
        elif path.parent == TESTS and path.name.startswith("test_") and path.suffix == ".py":
            files.add(path)
    return sorted(files)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """Keep the test modules as pytest rewrites them for their assertions, and let the xdist
    workers start their imports apart, so that each file is rewritten once a run, not once a
    worker.

    Rewriting a test file's ``assert`` statements is two thirds of collecting this suite (about
    20 of 29 s of cpu; ``--assert=plain`` collects in 8.5 s), and every worker collects every
    file. pytest keeps a rewritten module in ``__pycache__`` beside the file and reads it back
    whenever it is there, but writes it only where ``sys.dont_write_bytecode`` is false, and
    ``PYTHONDONTWRITEBYTECODE`` (set on this project's CI machines) makes it true. So, during
    collection only, it is false here (git ignores ``__pycache__``; ``pytest_configure`` above
    writes ``referee``'s bytecode the same way), and worker k of n first imports the files from
    the k-th n-th of the sorted list on (pytest finds them imported when its collection gets
    there): on a fresh checkout the two workers of ``-n 2`` each rewrite about half and read
    the other half back, and a later run rewrites only the files changed since. Collection order
    and the collected tests are pytest's own; only when a module is first executed differs, and
    test modules do nothing at import that another test module's import sees. A module whose
    import fails here is left to pytest's own import, which reports it as always."""
    keep = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "")
        count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
        if worker.startswith("gw") and worker[2:].isdigit() and count > 1:
            files = _files_collected_whole(session.config)
            for path in files[int(worker[2:]) * len(files) // count :]:
                try:
                    importlib.import_module(path.stem)
                except (KeyboardInterrupt, SystemExit):
                    raise
                except BaseException:  # pytest's import of it reports what went wrong
                    sys.modules.pop(path.stem, None)
        return (yield)
    finally:
        sys.dont_write_bytecode = keep


GC_THRESHOLDS = (50_000, 20, 10)
"""The cyclic collector's thresholds in a test process once its tests are collected (see
:func:`pytest_collection_finish`); Python's own are ``(700, 10, 10)``."""

GC_FROZEN: list[int] = []
"""How many objects :func:`pytest_collection_finish` moved out of the collector's sight (one
number a collection of this process)."""


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collecting the suite made out of the cyclic collector's sight, and let it run
    less often, in each process that runs tests (each xdist worker; the one process without).

    A worker holds some 430,000 long-lived objects after collecting the suite (the test
    modules, the items, their parameters, ``referee``'s modules and tables); each full
    collection walked them again and found nothing to free, and the young generations were
    collected every 700 new objects: about 10 % of the cpu of the contract and dispatch tests
    went to the collector (bench/README.md, issue 34, twenty-fourth step, the suite).
    ``gc.freeze`` moves them to the permanent generation (as ``referee.cli`` does with what
    start-up makes), and :data:`GC_THRESHOLDS` collects the youngest generation every 50,000
    new objects and the middle one every twentieth time (measured against 7,000 and ten: about
    half the collector's time left again, the same peak memory). The collector stays on:
    cycles a test makes are still freed (later: more objects wait), and ``gc.collect()`` frees
    them at once. No test's outcome depends on when a cycle is freed (``test_simulate_batch``'s
    peak of traced memory is the same: the check pauses the collector itself); a test that asks
    the collector's state itself (``test_startup_gc``) restores what it changed."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    GC_FROZEN.append(gc.get_freeze_count())


@pytest.fixture(scope="session", autouse=True)
def _shared_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Texts several tests make the same way (``shared_store_support``) are kept for the run in
    its temporary folder: under xdist in the folder above the worker's own, which every worker
    of the run shares, named by the run's id (a ``--basetemp`` given again keeps that folder);
    without xdist in the session's own folder (its parent holds earlier runs)."""
    base = tmp_path_factory.getbasetemp()
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    use_folder(base.parent / f"shared-{run}" if run else base / "shared")
    yield


# Anna 21 in 4 cards, Ben 20 in 3 cards, Cem 22 in 4 cards: Ben starts (fewest cards),
# then Cem, then Anna (rulebook-base-de-2003.txt, "Spielvorbereitung").
# Tests that count an engine function's calls by patching it (``monkeypatch.setattr`` on a
# module of setup.py's MYPYC_MODULES) see nothing against the compiled install: a compiled
# module calls its own functions directly, past the patch. They test the pure build (CI's);
# against a compiled install they are skipped with this mark.
from referee.engine import core as _core  # noqa: E402

ENGINE_COMPILED = not _core.__file__.endswith((".py", ".pyc"))
PATCHES_ENGINE = pytest.mark.skipif(
    ENGINE_COMPILED,
    reason="counts an engine function's calls by patching it: compiled, the engine's own calls "
    "go past the patch",
)


SETUP = """[Players "{players}"]
[Modules "{modules}"]

* deal Anna Gu9 De7 De2 Du3
* deal Ben Di9 Gu8 De3
* deal Cem Du9 Di8 Gu2 De3
* display Gu1 Di4 De6 Du2
* market Gu:G11 Di:A9 De:P7 Du:T12
start Ben
"""

NOISE = ("EXCHANGE-PILE",)  # unit tests reveal exchange cards early on purpose


def run(body: str, modules: str = "", players: str = "Anna, Ben, Cem") -> GameReport:
    """The report of ``SETUP`` (with ``modules`` switched on) followed by ``body``."""
    text = SETUP.format(players=players, modules=modules) + body
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(report: GameReport, ignore: tuple[str, ...] = NOISE) -> list[str]:
    """The codes of the report's findings, in order (``ignore`` left out)."""
    return [v.code for v in report.violations if v.code not in ignore]


def messages(report: GameReport) -> list[str]:
    return [v.message() for v in report.violations]


def view(report: GameReport, module: str, lang: str = "en") -> dict[str, Any]:
    """The module's view at the end of the checked record (``show``'s module part)."""
    assert report.state is not None
    return report.state.ext.views(report.state, lang)[module]


def module(report: GameReport, name: str) -> Any:
    """The enabled module ``name`` of the checked record, for its public methods."""
    assert report.state is not None
    found = [m for m in report.state.ext.modules if m.name == name]
    assert found, f"{name} is not switched on"
    return found[0]


def beside(report: GameReport, name: str) -> list[tuple[int, str]]:
    """The pieces of module ``name`` beside the market, as its side offers name them: (the
    index of the market field they lie next to, the piece's token)."""
    assert report.state is not None
    offers = module(report, name).side_offers(report.state)
    return [(o.currency.field - 1, o.piece.code) for o in offers]
