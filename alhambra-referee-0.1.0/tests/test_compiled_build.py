"""The compiled build (issue 34): setup.py's list of modules, and the pure package beside it.

``ALHAMBRA_REFEREE_MYPYC=1 pip install .`` compiles setup.py's ``MYPYC_MODULES`` with mypyc;
``pip install .`` stays pure Python. The compiled build itself is not made here (minutes of C
compilation); README.md ("Faster: a compiled build") tells how. When the package under test
*is* a compiled build, the last test compares its output with the pure source tree's.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    """setup.py or build_backend.py as a module (setup() runs only as a script)."""
    spec = importlib.util.spec_from_file_location(f"_alhambra_{name}", ROOT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_list_names_existing_modules_of_the_package() -> None:
    listed = _load("setup").MYPYC_MODULES
    assert listed and len(set(listed)) == len(listed)
    for path in listed:
        assert path.startswith("referee/") and path.endswith(".py"), path
        assert (ROOT / path).is_file(), path
        assert not path.endswith("__init__.py"), path  # a package stays importable as Python
    # the reader calls the record classes itself when they are compiled
    # (referee.notation.fast.NATIVE_RECORDS): compiled records come with a compiled reader
    if "referee/record/model.py" in listed:
        assert "referee/notation/fast.py" in listed


def test_the_modules_whose_functions_become_methods_stay_python() -> None:
    """referee/scoring/frozen.py sets its functions on classes as their methods (a frozen
    dataclass's ``__eq__``, ``__repr__`` ...): a compiled function would not bind as a method,
    so the module is not compiled (issue 34, twenty-fourth step)."""
    assert "referee/scoring/frozen.py" not in _load("setup").MYPYC_MODULES


def test_the_list_is_in_setup_py_only() -> None:
    """One place: no other file of the build names a compiled module."""
    for name in ("setup.cfg", "pyproject.toml", "build_backend.py"):
        text = (ROOT / name).read_text("utf-8")
        assert "referee/engine/core.py" not in text, name


def test_a_build_without_the_switch_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALHAMBRA_REFEREE_MYPYC", raising=False)
    setup = _load("setup")
    assert not setup.compiled_build()
    assert setup._ext_modules() == []
    monkeypatch.setenv("ALHAMBRA_REFEREE_MYPYC", "0")
    assert _load("setup")._ext_modules() == []


def test_only_the_compiled_build_asks_for_mypy(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("setuptools")
    from setuptools import build_meta

    monkeypatch.chdir(ROOT)
    backend = _load("build_backend")
    monkeypatch.delenv("ALHAMBRA_REFEREE_MYPYC", raising=False)
    pure = backend.get_requires_for_build_wheel()
    assert pure == build_meta.get_requires_for_build_wheel()
    assert not any(r.lower().startswith("mypy") for r in pure)
    monkeypatch.setenv("ALHAMBRA_REFEREE_MYPYC", "1")
    compiled = backend.get_requires_for_build_wheel()
    assert any(r.startswith("mypy>=") for r in compiled)


def test_only_the_wheel_hook_sees_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Metadata, sdist and editable builds run setup.py pure (no mypy needed, no compile)."""
    backend = _load("build_backend")
    seen: list[str | None] = []
    monkeypatch.setattr(
        backend._setuptools,
        "build_sdist",
        lambda *a, **k: seen.append(os.environ.get("ALHAMBRA_REFEREE_MYPYC")) or "x.tar.gz",
    )
    monkeypatch.setenv("ALHAMBRA_REFEREE_MYPYC", "1")
    backend = _load("build_backend")
    assert backend.build_sdist("dist") == "x.tar.gz"
    assert seen == [None] and os.environ["ALHAMBRA_REFEREE_MYPYC"] == "1"
    assert backend.build_wheel is backend._setuptools.build_wheel


def test_the_pure_package_has_no_compiled_dependency() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    needs = [r.strip() for r in cfg["options"]["install_requires"].split("\n") if r.strip()]
    assert {r.split(">")[0].split("=")[0] for r in needs} == {"click", "lark", "pyyaml"}
    # no module of the package imports mypy's run-time helpers (mypy_extensions) or mypyc
    for path in (ROOT / "referee").rglob("*.py"):
        text = path.read_text("utf-8")
        if "mypy" not in unicodedata.normalize("NFKC", text):
            continue  # no import can name them (Python reads a name as its NFKC form)
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in ("mypy", "mypyc", "mypy_extensions"), path


def test_the_source_tree_reader_makes_records_with_its_makers() -> None:
    """Run from the source (pure Python), the reader keeps its memo and makers."""
    from referee.engine import core
    from referee.notation import fast
    from referee.record import model

    if not core.__file__.endswith(".py"):
        pytest.skip("a compiled build is installed")
    assert fast.NATIVE_RECORDS is False and fast._MEMO is True
    assert fast.Turn is not model.Turn  # the maker


def _compiled_installed() -> bool:
    from referee.engine import core

    return not core.__file__.endswith((".py", ".pyc"))


@pytest.mark.skipif(not _compiled_installed(), reason="no compiled build installed")
def test_the_compiled_build_checks_as_the_pure_source_does(tmp_path: Path) -> None:
    """The same ``check`` output (EN, DE, JSON) from the compiled package and from the same
    installed package without its compiled modules (a copy holding the .py files only, first
    on PYTHONPATH) for every example game."""
    import referee
    from referee.notation import fast

    # the compiled build's records (setup.py): the ten of record/model.py's _NATIVE_SHAPE are
    # native classes, which the compiled reader calls; it keeps its memo (issue 34,
    # nineteenth step)
    assert fast._MEMO is True
    if fast.NATIVE_RECORDS:
        assert fast.Turn is fast._model.Turn and fast._turn_record is fast._native_turn
    pure_root = tmp_path / "pure"
    shutil.copytree(
        Path(referee.__file__).parent,
        pure_root / "referee",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    games = sorted((ROOT / "examples").glob("*.alh"))
    assert games
    outputs = []
    for pure in (False, True):
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if pure:
            env["PYTHONPATH"] = str(pure_root)
        got = []
        for flags in ((), ("--lang", "de"), ("--format", "json")):
            run = subprocess.run(
                [sys.executable, "-m", "referee", "check", *flags, *map(str, games)],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
                timeout=600,
            )
            got.append((run.returncode, run.stdout, run.stderr))
        outputs.append(got)
    assert outputs[0] == outputs[1]
