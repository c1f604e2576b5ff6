"""The build backend: setuptools', plus mypy as a build requirement of the compiled build.

``ALHAMBRA_REFEREE_MYPYC=1 pip install .`` compiles setup.py's ``MYPYC_MODULES`` with mypyc,
which ships with mypy; pip builds in a fresh environment, so this backend asks for mypy (and
what mypy needs to check the package: its run-time dependencies and the PyYAML stubs) in that
case only. Without the switch it is setuptools' backend unchanged: the pure build needs nothing
more than setuptools.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook of setuptools' backend)

# mypy 2.4.1 is the version the compiled build was made and checked with (README.md)
COMPILED_BUILD_REQUIRES = [
    "mypy>=2.4",
    "types-PyYAML>=6.0",
    "click>=8.1",
    "lark>=1.1.9",
    "pyyaml>=6.0",
]


def _compiled() -> bool:
    return os.environ.get("ALHAMBRA_REFEREE_MYPYC", "") == "1"


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    more = COMPILED_BUILD_REQUIRES if _compiled() else []
    return _setuptools.get_requires_for_build_wheel(config_settings) + more
