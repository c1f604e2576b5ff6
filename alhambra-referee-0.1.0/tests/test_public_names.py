"""Every name a module of the package lists in ``__all__`` is there at run time.

Since the seventeenth step of issue 34 the names used only in annotations are imported under
``if TYPE_CHECKING:`` (``typing`` stays off a check's path): a name listed in ``__all__`` but
imported only there would be missing when a club's script imports it (mypy does not see it)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import referee

PACKAGE = Path(referee.__file__).resolve().parent  # the source tree's, or an install's
MODULES = sorted(
    ".".join(("referee", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
    for p in PACKAGE.rglob("*.py")
    if p.name != "__main__.py"
)


def test_the_modules_are_found() -> None:
    assert len(MODULES) > 100 and "referee.engine.actions.purchase" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_is_there_at_run_time(name: str) -> None:
    module = importlib.import_module(name)
    missing = [n for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert missing == [], f"{name}: listed in __all__, missing at run time: {missing}"
