"""The build backend: setuptools', plus mypy as a build requirement of the compiled build.

``ALHAMBRA_REFEREE_MYPYC=1 pip install .`` compiles setup.py's ``MYPYC_MODULES`` with mypyc,
which ships with mypy; pip builds in a fresh environment, so this backend asks for mypy (and
what mypy needs to check the package: its run-time dependencies and the PyYAML stubs) in that
case only. Only the wheel is compiled: every other hook (requirements, metadata, sdist, an
editable install) runs setup.py without the switch, so it neither needs mypy nor compiles.
Without the switch this is setuptools' backend unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook of setuptools' backend)

SWITCH = "ALHAMBRA_REFEREE_MYPYC"
# mypy 2.4.1 is the version the compiled build was made and checked with (README.md)
COMPILED_BUILD_REQUIRES = [
    "mypy>=2.4",
    "types-PyYAML>=6.0",
    "click>=8.1",
    "lark>=1.1.9",
    "pyyaml>=6.0",
]


def _compiled() -> bool:
    return os.environ.get(SWITCH, "") == "1"


@contextmanager
def _pure() -> Iterator[None]:
    """setup.py run without the switch (restored after)."""
    saved = os.environ.pop(SWITCH, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[SWITCH] = saved


def _without_switch(hook: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        with _pure():
            return hook(*args, **kwargs)

    run.__name__ = hook.__name__
    return run


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    more = COMPILED_BUILD_REQUIRES if _compiled() else []
    with _pure():
        return list(_setuptools.get_requires_for_build_wheel(config_settings)) + more


prepare_metadata_for_build_wheel = _without_switch(_setuptools.prepare_metadata_for_build_wheel)
get_requires_for_build_sdist = _without_switch(_setuptools.get_requires_for_build_sdist)
build_sdist = _without_switch(_setuptools.build_sdist)
get_requires_for_build_editable = _without_switch(_setuptools.get_requires_for_build_editable)
prepare_metadata_for_build_editable = _without_switch(
    _setuptools.prepare_metadata_for_build_editable
)
build_editable = _without_switch(_setuptools.build_editable)
