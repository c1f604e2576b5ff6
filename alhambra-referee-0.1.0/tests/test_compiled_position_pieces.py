"""A module's piece in a ``position`` block, in either build (issue 34, thirteenth step).

``engine/position.py``'s ``_tile`` hands back what a module's kind handler made of a component
(a square, a plot, a camp, a bathhouse...) as well as a tile. It was annotated ``TileKind |
None``; compiled, mypyc checks a return value against its annotation, so every end position
that holds a module's piece stopped with "INTERNAL: internal error while checking: TypeError:
referee.catalogue.components.TileKind or None object expected; got referee.modules.plaetze.Square"
(exit 2), while the pure build checked it. Run this file against the compiled install too
(from ``/tmp``: ``<compiled venv>/bin/python -m pytest <this file>``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# one example for each kind of module piece that an end position of the examples holds
PIECE_EXAMPLES = (
    "module-badehaeuser.alh",  # bathhouses
    "module-bauland.alh",  # plots
    "module-bazare.alh",  # bazaars
    "module-feldlager.alh",  # camps
    "module-grossprojekte.alh",  # projects
    "module-machtgebaeude.alh",  # power tiles
    "module-magisch.alh",  # magic buildings
    "module-medina.alh",  # medinas
    "module-plaetze.alh",  # squares
    "module-schluessel.alh",  # plazas
    "module-wachtuerme.alh",  # watchtowers
    "module-wunschbrunnen.alh",  # wells
)


def _run(*args: str) -> tuple[int, str]:
    got = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return got.exit_code, got.output


def _result(output: str) -> str:
    found = re.search(r"^  result: .*$", output, re.MULTILINE)
    assert found is not None, output
    return found.group(0)


@pytest.mark.parametrize("name", PIECE_EXAMPLES)
def test_an_end_position_holding_module_pieces_is_checked(name: str, tmp_path: Path) -> None:
    """The game's end written as a position (``show --format record``) checks as valid, with
    the whole game's result: the module pieces in its Alhambras are taken as they stand."""
    game = str(EXAMPLES / name)
    code, whole = _run("check", game)
    assert code == 0, whole
    code, record = _run("show", "--format", "record", game)
    assert code == 0, record
    assert "position" in record
    target = tmp_path / name
    target.write_text(record, encoding="utf-8")
    code, checked = _run("check", str(target))
    assert "INTERNAL" not in checked, checked
    assert code == 0, checked
    assert _result(checked) == _result(whole)
