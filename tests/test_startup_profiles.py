"""Start-up (issue 34, tenth step): ``PARAMETERS`` is made on first use, and the bundled profiles
are listed without pathlib's glob. The values are what they were."""

from __future__ import annotations

import os
import subprocess
import sys
import typing
from dataclasses import fields
from pathlib import Path

import referee
import referee.profiles as profiles
from referee.profiles import loader, params

ROOT = Path(referee.__file__).resolve().parent.parent
GAME = ROOT / "examples" / "game-4p.alh"


def test_parameters_is_one_dictionary_for_every_importer() -> None:
    from referee.profiles import PARAMETERS
    from referee.profiles.params import PARAMETERS as FROM_PARAMS

    assert PARAMETERS is FROM_PARAMS is profiles.PARAMETERS is params.PARAMETERS
    hints = params.field_types()  # get_type_hints with Literal (text aliases: no typing)
    names = [f.name for f in fields(params.RuleProfile) if f.name not in params.META_FIELDS]
    assert list(PARAMETERS) == names  # declaration order
    assert PARAMETERS["reserve_limit"].nullable and PARAMETERS["reserve_limit"].kind == "int"
    assert PARAMETERS["gifts"].choices == typing.get_args(hints["gifts"])
    assert params.DEFAULT_PROFILE.parameters() == {
        name: getattr(params.DEFAULT_PROFILE, name) for name in names
    }
    assert "PARAMETERS" in profiles.__all__ and "PARAMETERS" in dir(params)


def test_unknown_names_still_fail() -> None:
    for module in (profiles, params):
        try:
            module.NO_SUCH_NAME  # noqa: B018
        except AttributeError as exc:
            assert "NO_SUCH_NAME" in str(exc)
        else:  # pragma: no cover
            raise AssertionError(module)


def test_bundled_names_are_the_yaml_files_of_the_folder() -> None:
    stems = {p.stem for p in loader.BUNDLED_DIR.glob("*.yaml")}
    listed = loader.list_profiles()
    assert set(listed) == stems and len(listed) == len(stems)
    assert listed[:4] == ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]
    assert listed[4:] == sorted(stems - set(listed[:4]))


def test_a_check_with_the_cached_default_profile_does_not_make_parameters(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {**os.environ, "ALHAMBRA_REFEREE_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    probe = (
        "import atexit, sys\n"
        "def said():\n"
        "    p = sys.modules['referee.profiles.params']\n"
        "    sys.stderr.write('PARAMETERS made: %s\\n' % bool(p._made))\n"
        "atexit.register(said)\n"
        f"sys.argv = ['referee', 'check', {str(GAME)!r}]\n"
        "import runpy\n"
        "runpy.run_module('referee', run_name='__main__')\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "1 valid" in run.stdout
    assert runs[0].stdout == runs[1].stdout
    # the first run read the YAML (and checked it against PARAMETERS); the second had it kept
    assert "PARAMETERS made: True" in runs[0].stderr
    assert "PARAMETERS made: False" in runs[1].stderr
