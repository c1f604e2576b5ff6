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
    hints = _hints()
    names = [f.name for f in fields(params.RuleProfile) if f.name not in params.META_FIELDS]
    assert list(PARAMETERS) == names  # declaration order
    assert PARAMETERS["reserve_limit"].nullable and PARAMETERS["reserve_limit"].kind == "int"
    assert PARAMETERS["gifts"].choices == typing.get_args(hints["gifts"])
    assert params.DEFAULT_PROFILE.parameters() == {
        name: getattr(params.DEFAULT_PROFILE, name) for name in names
    }
    assert "PARAMETERS" in profiles.__all__ and "PARAMETERS" in dir(params)


def _hints() -> dict[str, typing.Any]:
    """RuleProfile's field types evaluated by ``typing`` (the module's aliases are text naming
    ``Literal``, which it does not import at run time)."""
    return typing.get_type_hints(params.RuleProfile, localns={"Literal": typing.Literal})


def _typed(hint: typing.Any) -> tuple[str, tuple[str, ...], bool]:
    """(kind, choices, nullable) of an evaluated type, as the parameter table was made from
    ``typing.get_type_hints`` before the eighteenth step."""
    import types

    nullable = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        nullable = type(None) in typing.get_args(hint)
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) is typing.Literal:
        return "choice", tuple(typing.get_args(hint)), nullable
    return {int: "int", float: "float"}[hint], (), nullable


def test_the_parameter_table_is_what_the_evaluated_types_say() -> None:
    hints = _hints()
    for f in fields(params.RuleProfile):
        if f.name in params.META_FIELDS:
            continue
        assert isinstance(f.type, str)  # the annotation's text, read without typing
        assert params.read_annotation(f.type) == _typed(hints[f.name]), f.name
        spec = params.PARAMETERS[f.name]
        assert (spec.kind, spec.choices, spec.nullable) == _typed(hints[f.name])
        assert spec.default == f.default and spec.doc == params._DOCS[f.name][0]
    kinds = {params.PARAMETERS[n].kind for n in params.PARAMETERS}
    assert kinds == {"choice", "int", "float"}  # every form the reader knows is in use
    assert any(spec.nullable for spec in params.PARAMETERS.values())


def test_other_annotations_are_refused() -> None:
    assert params.read_annotation("GiftRule | None") == (
        "choice",
        ("dirk-only", "any-player"),
        True,
    )
    assert params.read_annotation("None | float") == ("float", (), True)
    for text in (
        "str",
        "bool",
        "int | float",
        "dict[str, str]",
        "META_FIELDS",  # a name of the module that is no Literal alias
        "DEFAULT_PROFILE",
        "Literal['a']",
        "NoSuchAlias",
        "",
    ):
        try:
            params.read_annotation(text)
        except TypeError as exc:
            assert repr(text) in str(exc)
        else:  # pragma: no cover
            raise AssertionError(text)


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
    # neither run read the YAML (checked against PARAMETERS): the profile came from the
    # package's literal (issue 34, twenty-third step; before it, the first run read the YAML and
    # the second had it kept in the cache, which tests/test_datacache.py still covers)
    assert "PARAMETERS made: False" in runs[0].stderr
    assert "PARAMETERS made: False" in runs[1].stderr
