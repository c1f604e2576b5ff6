"""Issue 34, nineteenth step (tidy): start-up and the cache folder.

* A ``check`` of a record naming an unknown module (its hint lists every module's name) no
  longer loads :mod:`typing`: :func:`referee.modules.discover` reads the folder's names itself
  (:mod:`pkgutil`'s import loaded ``inspect`` and ``typing``). The commands run through Click
  still load ``typing``: Click itself imports it.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

import referee.modules
from tests.test_startup_typing import ROOT, _check


def test_the_modules_folder_names_are_pkgutils() -> None:
    found = sorted(info.name for info in pkgutil.iter_modules(referee.modules.__path__))
    assert referee.modules._module_names() == found
    assert "wesir" in found and "base" in found


def test_a_check_naming_an_unknown_module_does_not_import_typing(tmp_path: Path) -> None:
    game = ROOT / "examples" / "illegal-module.alh"
    done, loaded = _check(tmp_path, str(game), cache=False)
    assert done.returncode == 1
    assert "did you mean" in done.stdout
    assert {f"referee.modules.{cls.name}" for cls in referee.modules.BUNDLED} <= loaded
    assert "typing" not in loaded and "contextlib" not in loaded
