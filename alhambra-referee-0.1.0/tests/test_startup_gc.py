"""The command line holds the garbage collector while it starts (issue 34, fourth step).

``referee.cli.main`` called as a process's entry point (no ``argv``) disables the collector
until the command's module is imported, then freezes what start-up made and enables it again;
called from a program (``argv`` given) it leaves the collector alone. Either way the collector
is on again when the command runs and after ``main`` returns, and the output is the same.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from referee import cli

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "game-4p.alh"


def _run_main(monkeypatch: pytest.MonkeyPatch, argv: list[str] | None) -> tuple[int, list[bool]]:
    """Run ``cli.main`` and note whether the collector was on when the check command ran."""
    from referee.commands import check

    seen: list[bool] = []
    real = check._check_job

    def spy(job: object, opts: object) -> object:
        seen.append(gc.isenabled())
        return real(job, opts)  # type: ignore[arg-type]

    monkeypatch.setattr(check, "_check_job", spy)
    monkeypatch.setattr(sys, "argv", ["alhambra-referee", "check", str(GAME)])
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    return int(stop.value.code or 0), seen


def _unfreeze(before: int) -> None:
    """Undo what ``main`` froze: the permanent generation emptied, and frozen again when the
    test process had frozen its own objects before (``conftest.pytest_collection_finish``;
    what is alive now is frozen then, as collecting the suite had left it)."""
    gc.unfreeze()
    if before:
        gc.freeze()


def test_the_entry_point_runs_the_command_with_the_collector_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gc.isenabled()
    before = gc.get_freeze_count()  # (what the test process froze itself: conftest.py)
    try:
        code, seen = _run_main(monkeypatch, None)
        frozen = gc.get_freeze_count()
    finally:
        _unfreeze(before)
    assert code == 0 and seen == [True]  # the command ran with the collector on
    assert gc.isenabled() and not cli._gc_paused
    assert frozen > before  # what start-up made was moved out of the collector's sight
    out = capsys.readouterr().out
    again, _ = _run_main(monkeypatch, ["check", str(GAME)])
    assert again == 0 and capsys.readouterr().out == out


def test_a_call_from_a_program_leaves_the_collector_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = gc.get_freeze_count()
    code, seen = _run_main(monkeypatch, ["check", str(GAME)])
    # nothing frozen: a freeze moves every object the collector tracks (thousands); the count
    # may only fall, where an object the test process froze itself (conftest.py) was freed
    assert code == 0 and seen == [True] and gc.get_freeze_count() <= before
    gc.disable()
    try:
        code, seen = _run_main(monkeypatch, None)
        assert seen == [False] and not gc.isenabled()  # held by the caller: not switched on
    finally:
        gc.enable()
        _unfreeze(before)


def test_help_and_usage_errors_give_the_collector_back(tmp_path: Path) -> None:
    probe = (
        "import gc, sys\n"
        "from referee.cli import main\n"
        "sys.argv = ['alhambra-referee'] + sys.argv[1:]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    print('enabled', gc.isenabled(), 'exit', stop.code)\n"
    )
    for args, code in (["--help"], 0), (["no-such-command"], 3), (["check"], 3):
        run = subprocess.run(
            [sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=ROOT
        )
        assert run.stdout.strip().splitlines()[-1] == f"enabled True exit {code}"


def test_the_process_entry_pauses_the_collector_before_click_loads() -> None:
    """``referee.__main__.run`` (the script's and ``python -m referee``'s entry) pauses the
    collector before the command line's modules load: no collection runs until the command's
    module is loaded and start-up frozen; the command then runs with it on, says the same as
    ``main``, and an exit handler finds it on."""
    probe = (
        "import atexit, gc, sys\n"
        "early, started = [], []\n"
        "gc.callbacks.append(lambda phase, info: started and phase == 'start'"
        " and 'referee.commands.check' not in sys.modules and early.append(info['generation']))\n"
        "atexit.register(lambda: print('early', early, 'enabled', gc.isenabled(),"
        " 'frozen', gc.get_freeze_count() > 0, file=sys.stderr))\n"
        "from referee.__main__ import run\n"
        "assert 'click' not in sys.modules\n"
        "sys.argv = ['alhambra-referee'] + sys.argv[1:]\n"
        "started.append(True)\n"
        "run()\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe, "check", str(GAME)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0
    assert run.stderr.strip().splitlines()[-1] == "early [] enabled True frozen True"
    direct = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", "check", str(GAME)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert direct.returncode == 0 and direct.stdout == run.stdout
