"""Build script: the package is declared in setup.cfg; this file only adds the compiled build.

``pip install .`` installs pure Python (no compiler, no extra build dependency).
``ALHAMBRA_REFEREE_MYPYC=1 pip install .`` compiles the modules of :data:`MYPYC_MODULES` with
mypyc (mypy's compiler for type-annotated Python: the same source, made into C extensions), so
the wheel is platform-specific and needs a C compiler and the Python headers. pyproject.toml's
build backend (``build_backend.py``) adds mypy to the build requirements in that case only.
README.md ("Faster: a compiled build") and bench/README.md tell what it gives.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

# The modules compiled by ``ALHAMBRA_REFEREE_MYPYC=1`` (paths under the project root), the
# one place this list lives (tests/test_compiled_build.py checks that each exists and that the
# pure package needs none of it). Every other module stays Python and calls into these as into
# any module; a compiled class must not be subclassed or patched by Python code.
MYPYC_MODULES = [
    # The records (record/model.py, issue 34, nineteenth step): the ten classes the reader
    # makes ten of a turn are native classes (its _NATIVE_SHAPE), made by the compiled reader's
    # native constructor calls, also in its memo's builders, and read as native fields by the
    # compiled engine; the other record classes stay Python classes. (The sixth step's native
    # records were slower: the reader then called the classes through dataclasses' __init__ and
    # kept no memo.) The fast reader's memo's "seen once" mark is told apart by identity (issue
    # 34, eighth step), so no test of it may follow a test that narrows the entry to its
    # fixed-length tuple type, which mypyc boxes anew.
    "referee/record/model.py",
    "referee/notation/fast.py",
    "referee/engine/state.py",
    "referee/engine/core.py",
    "referee/geometry/walls.py",
    # the rest of a base turn (issue 34, fourth step): a compiled function or native attribute
    # checks its annotated type at run time, so a module is listed once every path a module's
    # own piece takes through it admits that piece (bench/README.md, "Issue 34, fourth step").
    "referee/catalogue/components.py",
    "referee/engine/turns.py",
    # tile paths (issue 34, fifth step): the pieces a module hands them are annotated with the
    # piece protocol (geometry.grid.Piece) or a union admitting them (engine.state.HeldPiece).
    # actions/purchase.py since engine/payment.py's Payment is a record of its own (a Python
    # class cannot derive from a native one).
    "referee/engine/actions/placement.py",
    "referee/engine/actions/purchase.py",
    "referee/engine/actions/redesign.py",
    "referee/engine/actions/building.py",
    "referee/engine/actions/layer_rules.py",
    "referee/engine/actions/take.py",
    "referee/engine/actions/supply.py",
    "referee/geometry/grid.py",
    "referee/geometry/incremental.py",
    "referee/geometry/layers.py",
    "referee/reports/terminal.py",
    # the per-line and per-action loops (issue 34, sixth step): modules of their own, since a
    # package's __init__ stays Python; engine/__init__.py and engine/actions/__init__.py
    # re-export them.
    "referee/engine/run.py",
    "referee/engine/actions/run.py",
    # engine rest (issue 34, fifth to seventh step): a compiled function checks each annotated
    # argument and item at run time, so every annotation here admits what modules hand it
    # (found by builds: engine/extensions.py stays Python, since Module, the base of every
    # module class, must be "any object" to compiled code; PointLine.sign a property;
    # deck.py's declared empty tuple; WallScore.segments admits Wachtuerme's diagonals).
    "referee/engine/payment.py",
    "referee/engine/context.py",
    "referee/engine/ruleset.py",
    "referee/engine/stages.py",
    "referee/engine/verbs.py",
    "referee/engine/market_side.py",
    "referee/engine/rules.py",
    "referee/engine/position.py",
    "referee/engine/deck.py",
    "referee/geometry/rules.py",
    "referee/geometry/general.py",
    "referee/geometry/pieces.py",
    "referee/geometry/queries.py",
    "referee/geometry/codes.py",
    "referee/scoring/core.py",
    "referee/scoring/categories.py",
    "referee/scoring/state.py",
    "referee/scoring/text.py",
]

ENV_SWITCH = "ALHAMBRA_REFEREE_MYPYC"


def compiled_build() -> bool:
    """Whether this build compiles (``ALHAMBRA_REFEREE_MYPYC=1``)."""
    return os.environ.get(ENV_SWITCH, "") == "1"


def _ext_modules() -> list:  # type: ignore[type-arg]
    if not compiled_build():
        return []
    from mypyc.build import mypycify  # only the compiled build needs mypy

    opt_level = os.environ.get("ALHAMBRA_REFEREE_MYPYC_OPT_LEVEL", "3")
    # the mypy settings of setup.cfg's [mypy] section apply (config_file)
    return mypycify(
        ["--config-file", "setup.cfg", *MYPYC_MODULES],
        opt_level=opt_level,
        multi_file=sys.platform == "win32",
    )


if __name__ == "__main__":
    setup(ext_modules=_ext_modules())
