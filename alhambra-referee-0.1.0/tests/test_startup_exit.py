"""How a process of its own starts and ends (start-up, issue 34, fifth step).

``alhambra-referee`` / ``python -m referee`` run :func:`referee.cli.entry`, which leaves through
:func:`referee.cli._leave`: output flushed, exit handlers run, then the process ends without the
interpreter's tear-down. These cases compare that with the same command called in-process
(``main(argv)``, which raises :class:`SystemExit` as before), and check what the start-up no
longer loads."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import _command_module, cli, main

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
OUTSIDE = tempfile.mkdtemp(
    prefix="alhambra-referee-cwd-"
)  # not the source tree (see test_cli_pipe)
atexit.register(shutil.rmtree, OUTSIDE, ignore_errors=True)  # removed at the end of the run


def _process(
    args: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        text=True,
        cwd=OUTSIDE,
        env={**os.environ, **(env or {})},
        check=False,
    )


def _in_process(args: list[str]) -> tuple[int, str, str]:
    runner = CliRunner()
    with runner.isolation() as (out, err, _mixed):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["check", str(EX / "game-4p.alh")], 0),
        (["check", "--lang", "de", str(EX / "illegal-take.alh")], 1),
        (["check", "--format", "json", str(EX / "module-wesir.alh")], 0),
        (["check", str(EX / "no-such-file.alh")], 2),
        (["check", "--no-such-option"], 3),
        (["no-such-command"], 3),
        (["--version"], 0),
    ],
)
def test_a_process_says_and_exits_as_the_call_in_process(args: list[str], code: int) -> None:
    run = _process(args)
    assert run.returncode == code
    assert (run.returncode, run.stdout, run.stderr) == _in_process(args)


def test_the_exit_handlers_still_run_the_caches_are_written(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    # a module game: a base game's tiles and profiles come from the package's literals (issue
    # 34, twenty-third step), a module's data file from the cache of bundled data
    game = str(EX / "module-wesir.alh")
    first = _process(["check", game], {"ALHAMBRA_REFEREE_CACHE": str(cache)})
    assert first.returncode == 0
    names = sorted(p.name.split("-cpython")[0].split("-py")[0] for p in cache.iterdir())
    # the bundled data cache is written by an exit handler, the code table by main itself
    assert any(n.startswith("bundled-data") for n in names), names
    assert any(n.startswith("dataclass-code") for n in names), names
    again = _process(["check", game], {"ALHAMBRA_REFEREE_CACHE": str(cache)})
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)


def test_a_command_module_is_found_by_its_name_only() -> None:
    assert _command_module("check") is not None
    for name in ("_help", "_input", "no_such", "check.py", "../check", "", "Check x"):
        assert _command_module(name) is None, name
    # what the group answers is what the folder listing says
    listed = cli.list_commands(None)  # type: ignore[arg-type]
    assert "check" in listed and not any(n.startswith("_") for n in listed)
    for name in listed:
        assert _command_module(name) is not None, name


def test_start_up_loads_no_locale_search_and_no_package_listing() -> None:
    script = (
        "import sys\n"
        "from referee.cli import main\n"
        "try:\n"
        f"    main({['check', str(EX / 'game-4p.alh')]!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('locale', 'pkgutil') if m in sys.modules), file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert run.stderr.strip().splitlines()[-1] == "[]"


def test_the_version_option_says_what_it_said() -> None:
    # in a new process: a German call earlier in this one (tests/test_cli_german.py) leaves the
    # commands' help translated for the rest of the process
    script = (
        "from referee.cli import cli, click_de\n"
        "help = next(p for p in cli.params if p.name == 'version').help\n"
        "print(help)\n"
        "print(click_de.gettext_de('Show the version and exit.') == help)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert run.stdout.splitlines() == ["Show the version and exit.", "True"]


def test_the_script_and_python_m_run_the_entry_and_main_still_raises() -> None:
    setup = (ROOT / "setup.cfg").read_text(encoding="utf-8")
    # both through referee.__main__.run, which pauses the collector and runs cli.entry
    assert "alhambra-referee = referee.__main__:run" in setup
    main_text = (ROOT / "referee" / "__main__.py").read_text(encoding="utf-8")
    assert "entry(collector_paused=paused)" in main_text and "    run()" in main_text
    with pytest.raises(SystemExit) as stop:  # a program calling main() is not ended by it
        main(["--version"])
    assert stop.value.code == 0
