"""Issue 34, nineteenth step (tidy): ``tools/mypyc_locals.py``, the compiled build's rule "one
type a local name" checked without a build.

The whole check of setup.py's ``MYPYC_MODULES`` is a mypy run of about 14 s of cpu without a
cache (run it as ``python tools/mypyc_locals.py``; README, "Faster: a compiled build"); here a
small module of the pattern (about 3 s): the eighteenth step's ``idle`` (a tuple first, later
a value read through ``Any``) is found, and what compiled code does not check is not.
"""

from __future__ import annotations

import gc
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("mypy")


@pytest.fixture(scope="module", autouse=True)
def _collector_restored() -> Iterator[None]:
    """mypy's build, run in this process here, sets the collector's thresholds to its own and
    unfreezes every frozen object (``mypy.build``): what the test process had set
    (``conftest.pytest_collection_finish``) is set again after this file's tests."""
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    yield
    gc.set_threshold(*thresholds)
    if frozen and not gc.get_freeze_count():
        gc.freeze()


ROOT = Path(__file__).resolve().parents[1]

PROBE = """\
from __future__ import annotations

from typing import Any


class Native:
    pass


def turn(ext: Any, mods: dict[str, Any]) -> int:
    idle: tuple[int, ...] = ext.refill_idle
    n = len(idle)
    for m in mods.values():
        idle = m.idle_start  # a bool or None read through Any: TypeError when compiled
        n += 1 if idle else 0
    return n


def inferred(ext: list[int], mods: Any) -> bool:
    idle = tuple(ext)
    idle = mods.idle_start
    return bool(idle)


def looped(mods: Any, rows: list[Any]) -> int:
    at = 0
    for at in rows:  # a loop's name: Any
        pass
    native = Native()
    a, native = 1, mods.piece  # a class of a compiled module, read through Any
    return at + a


def unchecked(mods: Any) -> object:
    x = mods.a  # first Any: the name holds any object
    x = 3
    y: object = 1
    y = mods.b
    f = print
    f = mods.c  # a callable: any object when compiled
    k = 1
    k = True  # a subtype
    return (x, y, f, k)
"""


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mypyc_locals", ROOT / "tools" / "mypyc_locals.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_local_given_another_type_later_is_found(tmp_path: Path) -> None:
    (tmp_path / "probe_mod.py").write_text(PROBE, encoding="utf-8")
    found = [
        (line, func, name) for _, line, func, name, _ in _tool().check(["probe_mod.py"], tmp_path)
    ]
    assert found == [
        (14, "turn", "idle"),
        (21, "inferred", "idle"),
        (27, "looped", "at"),
        (30, "looped", "native"),
    ]


def test_the_accepted_findings_name_compiled_modules() -> None:
    tool = _tool()
    compiled = set(tool.compiled_modules())
    assert "referee/engine/core.py" in compiled
    assert {path for path, _, _ in tool.ACCEPTED} <= compiled
