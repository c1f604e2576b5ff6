"""A module (and everything else outside ``referee/engine/``) sees the engine only through its
public names: no ``_private`` engine name is imported or reached through an engine module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# how an import of the engine is written, whatever the spaces (or a line continued) around
# its dot: a file without it binds no engine name and imports none of its private ones
_ENGINE_WRITTEN = re.compile(r"referee[\s\\]*\.[\s\\]*engine")


def _private_uses(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if not _ENGINE_WRITTEN.search(text):
        return []
    tree = ast.parse(text, str(path))
    engine_names: set[str] = set()  # local names bound to an engine module
    found: list[str] = []
    reached: list[ast.Attribute] = []  # x._name: a use when x is bound to an engine module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("referee.engine"):
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{path.name}:{node.lineno}: imports {node.module}.{alias.name}")
                if node.module == "referee.engine" or alias.name in ("core", "state", "walk"):
                    engine_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("referee.engine"):
                    engine_names.add(alias.asname or alias.name.split(".")[0])
        elif (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
        ):
            reached.append(node)
    for node in reached:
        assert isinstance(node.value, ast.Name)
        if node.value.id in engine_names:
            found.append(f"{path.name}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return found


def test_nothing_outside_the_engine_uses_a_private_engine_name() -> None:
    files = [
        p
        for folder in ("referee", "tests", "bench")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if "engine" not in p.relative_to(ROOT).parts[:2]
    ]
    assert len(files) > 50
    problems = [use for p in files if p.name not in WHITE_BOX for use in _private_uses(p)]
    assert problems == []
    assert all((ROOT / "tests" / name).is_file() for name in WHITE_BOX)


WHITE_BOX = {
    "test_compiled_final_aliases.py": "checks that the engine's private Final aliases of the "
    "compiled build are the objects they stand for: the private names are what it tests",
    "test_speed22_first22.py": "checks that the kept component answers "
    "(Extensions.component_purchases) are the questions the purchase path asked before, "
    "with the purchase's own private decision set",
    "test_speed25_cells.py": "checks that the legal-move generator's batched answer for a tile "
    "(legal._tile_cells) equals the whole chain asked cell by cell over the frontier "
    "(legal._frontier), as cells_for asked it before",
    "test_speed26_generic.py": "checks that the refill close's market test "
    "(core._refill_checks in the refill phase core._REFILL) answers the same for every pattern "
    "of open fields, with pieces whose __eq__ must never be asked",
}
"""Test files that test the engine's private names themselves (each with the reason)."""


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from referee.engine.core import _pile_bounds\nfrom referee.engine import core\n"
        "core._reshuffle(None)\n",
        encoding="utf-8",
    )
    assert len(_private_uses(bad)) == 2
