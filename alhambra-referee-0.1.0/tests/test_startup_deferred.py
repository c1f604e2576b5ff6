"""Start-up (issue 34, fourteenth step): what a one-game base ``check`` process imports, and the
stand-ins :func:`referee.cli_startup.install` gives ``dataclasses`` for ``inspect`` and ``copy``
(modules it imports at its top and uses only for a class without a docstring and for
``asdict``/``astuple``). Each case runs in a fresh interpreter, since start-up is the subject."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"

# what a one-game check of a base record must not import: the command line's other paths
# (Click, the Lark reader, YAML: every table comes from the warm cache), the dispute tools and
# writers (the record formatter), the simulator's context, and the standard library's modules
# that only a class without a docstring (``inspect``, with ``ast``, ``dis`` and ``tokenize``)
# or ``dataclasses.asdict`` (``copy``) need
NOT_IMPORTED = {
    "click",
    "lark",
    "yaml",
    "json",
    "csv",
    "difflib",
    "fractions",
    "pathlib",
    "inspect",
    "ast",
    "dis",
    "tokenize",
    "linecache",
    "copy",
    "referee.notation.lark_reader",
    "referee.notation.formatter",  # writes records: sixteenth step
    "referee.engine.sim_context",  # the simulator's: sixteenth step
    "referee.reports.svg",
    "referee.replay",
    "referee.simulate",
    "referee.serve",
}

_MODULES_AT_EXIT = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
    "sys.argv = ['alhambra-referee', *sys.argv[1:]]\n"
    "from referee.__main__ import run\n"
    "run()\n"
)


def _env(tmp_path: Path) -> dict[str, str]:
    # -S below: no site (an editable install's finder imports pathlib); the tree and this
    # interpreter's packages on the path instead; a cache folder of this test's own
    where = os.pathsep.join((str(ROOT), sysconfig.get_paths()["purelib"]))
    return {**os.environ, "PYTHONPATH": where, "ALHAMBRA_REFEREE_CACHE": str(tmp_path / "c")}


def _check(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    command = [sys.executable, "-S", "-c", _MODULES_AT_EXIT, "check", *args]
    done = subprocess.run(
        command, env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, check=False
    )
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("MODULES "))
    return done, set(line.split()[1:])


@pytest.mark.parametrize("args", [(), ("--lang", "de"), ("--format", "json")])
def test_a_one_game_check_imports_nothing_it_does_not_need(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    first, _ = _check(tmp_path, str(GAME), *args)  # writes the caches (YAML read: yaml loaded)
    second, loaded = _check(tmp_path, str(GAME), *args)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and first.stdout
    assert "referee.commands.check" in loaded and "dataclasses" in loaded
    # the JSON report is written with the json module
    assert not (NOT_IMPORTED - ({"json"} if "json" in args else set())) & loaded


def test_a_one_module_game_imports_no_inspect_and_only_its_module(tmp_path: Path) -> None:
    """A record with one module: the engine loads that module's file alone (no listing of the
    folder through ``pkgutil``, which imports ``inspect``), its classes have docstrings (else
    ``dataclasses`` asks ``inspect`` for a ``__doc__``) and the hook check tells functions
    without ``inspect``."""
    game = ROOT / "examples" / "module-wesir.alh"
    first, _ = _check(tmp_path, str(game))
    second, loaded = _check(tmp_path, str(game))
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and first.stdout
    assert "referee.modules.wesir" in loaded
    others = {m for m in loaded if m.startswith("referee.modules.")}
    assert others == {"referee.modules.base", "referee.modules.wesir"}
    assert not {"inspect", "ast", "dis", "tokenize", "pkgutil"} & loaded
    # nor any command but check
    assert not {m for m in loaded if m.startswith("referee.commands.")} - {
        "referee.commands.check",
        "referee.commands._input",
    }


def test_the_check_writes_what_it_wrote_with_every_module_imported_first(tmp_path: Path) -> None:
    # the same process with inspect and copy imported before the command line starts:
    # dataclasses then holds the modules themselves, and the output is the same
    _check(tmp_path, str(GAME))
    deferred, loaded = _check(tmp_path, str(GAME))
    env = _env(tmp_path)
    code = "import inspect, copy\n" + _MODULES_AT_EXIT
    eager = subprocess.run(
        [sys.executable, "-S", "-c", code, "check", str(GAME)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "inspect" not in loaded
    assert eager.returncode == deferred.returncode == 0
    assert eager.stdout == deferred.stdout


_STANDINS = r"""
import sys
from referee import cli_startup
if sys.argv[1] == "eager":
    import dataclasses
else:
    cli_startup.install()
    import dataclasses
    assert type(dataclasses.inspect).__name__ == "_Deferred", dataclasses.inspect
    assert type(dataclasses.copy).__name__ == "_Deferred", dataclasses.copy
    assert "inspect" not in sys.modules and "copy" not in sys.modules
from dataclasses import asdict, astuple, dataclass, field

@dataclass
class Inner:
    values: list[int] = field(default_factory=list)

@dataclass(frozen=True)
class Undocumented:
    name: str
    inner: Inner
    count: int = 3

record = Undocumented("x", Inner([1, 2]))
copied = asdict(record)
copied["inner"]["values"].append(9)  # a deep copy: the record keeps its list
print(Undocumented.__doc__)
print(Inner.__doc__)
print(copied, asdict(record), astuple(record))
if sys.argv[1] != "eager":  # asked once, the modules themselves take the stand-ins' places
    import copy, inspect
    assert dataclasses.inspect is sys.modules["inspect"] is inspect
    assert dataclasses.copy is sys.modules["copy"] is copy
    cli_startup.uninstall()
"""


def test_the_stand_ins_answer_as_the_modules_do(tmp_path: Path) -> None:
    env = {**os.environ, "ALHAMBRA_REFEREE_CACHE": str(tmp_path / "c")}
    runs = {
        mode: subprocess.run(
            [sys.executable, "-c", _STANDINS, mode],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        for mode in ("eager", "deferred")
    }
    assert [r.returncode for r in runs.values()] == [0, 0], [r.stderr for r in runs.values()]
    assert runs["eager"].stdout == runs["deferred"].stdout
    lines = runs["deferred"].stdout.splitlines()
    # the __doc__ dataclasses makes from inspect.signature: the types, not the names of
    # dataclasses' own variables ('_type_name'), which the code table's code gave before
    assert lines[0] == "Undocumented(name: str, inner: __main__.Inner, count: int = 3)"
    assert lines[1] == "Inner(values: list[int] = <factory>)"
    assert lines[2].startswith("{'name': 'x', 'inner': {'values': [1, 2, 9]}, 'count': 3}")


def test_dataclasses_imported_before_keeps_the_modules_themselves(tmp_path: Path) -> None:
    code = (
        "import dataclasses, inspect, copy, sys\n"
        "from referee import cli_startup\n"
        "cli_startup.install()\n"
        "assert dataclasses.inspect is inspect and dataclasses.copy is copy\n"
        "assert sys.modules['inspect'] is inspect\n"
        "cli_startup.uninstall()\n"
    )
    env = {**os.environ, "ALHAMBRA_REFEREE_CACHE": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
