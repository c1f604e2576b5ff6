"""The engine imports only the modules a record names (issue 34: a command checking a game with
one module does not pay for importing all of them); the answers must not depend on which modules
a run has imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.extensions import MODULES, load_bundled_modules, load_module
from referee.modules import discover

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

_CHILD = r"""
import sys
from click.testing import CliRunner
from referee.cli import cli
from referee.engine.extensions import MODULES, load_bundled_modules
if sys.argv[1] == "all":
    load_bundled_modules()
out = []
for args in (["check", sys.argv[2]], ["check", sys.argv[2], "--lang", "de"],
             ["check", sys.argv[2], "--format", "json"], ["show", sys.argv[2]]):
    out.append(CliRunner().invoke(cli, args).output)
sys.stdout.write("\x00".join(out))
sys.stderr.write(",".join(sorted({c.name for c in MODULES.values()})))
"""


def _run(mode: str, path: Path) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, mode, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout, done.stderr


@pytest.mark.parametrize("module", ["wesir", "feldlager", "medina", "bazare"])
def test_a_one_module_game_imports_that_module_alone_and_answers_the_same(module: str) -> None:
    path = EXAMPLES / f"module-{module}.alh"
    alone, imported = _run("one", path)
    assert imported == module  # no other module was imported to check and show the game
    everything, _ = _run("all", path)
    assert alone == everything  # the same text (EN, DE), JSON and picture


def test_an_unknown_name_imports_every_module_for_the_closest_one() -> None:
    assert load_module("no-such-module") is None
    assert {cls.name for cls in MODULES.values()} == {cls.name for cls in discover()}


def test_a_name_from_a_record_is_never_a_path() -> None:
    from referee.modules import load

    for name in ("../engine/core", "base", "_private", "os.path", "wesir\x00", ""):
        load(name)  # imports nothing, raises nothing
    assert "referee.modules.base" in sys.modules  # imported by the package itself


def test_no_two_modules_declare_words_for_the_same_key() -> None:
    """The words of a piece or verb are looked up among the modules imported so far and then
    among all (``referee.reports.pieces``): the same answer either way only while no key is
    declared twice for one kind (a piece; an action verb; a chance verb), by two modules or by
    a module and the fallback tables."""
    from referee.reports.pieces import PIECE_WORDS, VERB_WORDS

    load_bundled_modules()
    for hook, table in (("piece_words", PIECE_WORDS), ("verb_words", VERB_WORDS)):
        owner: dict[tuple[str, str], str] = {}
        for cls in discover():
            chance = {v.lower() for v in cls.chance_verbs}
            for key in getattr(cls, hook, None) or {}:
                assert key not in table, (hook, cls.name, key)
                kind = "chance" if hook == "verb_words" and key in chance else "other"
                got = owner.setdefault((key, kind), cls.name)
                assert got == cls.name, (hook, key, kind, got)


def test_a_word_that_is_one_module_s_action_and_another_s_chance_line() -> None:
    """``project``: Frische Farben's action (a project taken) and Die Großprojekte's chance
    line (a project revealed) are told apart by the kind of line."""
    from referee.reports.pieces import verb_words

    load_bundled_modules()
    assert verb_words("project", "en", chance=False) == "takes a project"
    assert verb_words("project", "en", chance=True) == "a major project is revealed"
