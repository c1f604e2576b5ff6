"""``alhambra-referee simulate --modules``: module games that check themselves.

The engine-driven simulator plays behind the command, through the engine's legal-move generator,
for any player count (2 with Dirk) and any rule profile; every game it writes must pass
``check`` with no violation, be a fixed point of ``fmt``, carry the ``Modules`` header and
really use its modules; the same seed gives the same bytes; an unknown module is a usage error
(exit 3).
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_module_games import ALL, uses

from referee.cli import cli
from referee.engine import check_game
from referee.modules import BUNDLED
from referee.notation import format_games, parse_text

# `python -m referee` runs outside the source tree, so that it runs the installed package (an
# unpacked sdist's referee/ lacks referee.grammar, which setup.cfg maps from grammar/).
# an empty folder of its own: a stray *.py in the shared temp folder (say gettext.py) would
# shadow the standard library for "python -m referee" run there
OUTSIDE = tempfile.mkdtemp(prefix="alhambra-referee-cwd-")
atexit.register(shutil.rmtree, OUTSIDE, ignore_errors=True)  # removed at the end of the run

MODULE_SETS = [(m,) for m in ALL] + [ALL]


def _simulate(*args: str) -> str:
    res = CliRunner().invoke(cli, ["simulate", *args])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m))
@pytest.mark.parametrize(
    ("players", "seed", "rules"), [(2, 1, "bga"), (3, 1, "queen-2003"), (6, 3, "piatnik-hu")]
)
def test_module_games_check_and_are_fmt_fixed_points(
    modules: tuple[str, ...], players: int, seed: int, rules: str
) -> None:
    text = _simulate(
        "--modules",
        ",".join(modules),
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--rules",
        rules,
    )
    games = parse_text(text, "sim.alh")
    assert len(games) == 1 and not games[0].errors
    assert format_games(games) == text  # canonical: fmt leaves it as it is
    game = games[0]
    assert [m.strip() for m in (game.header("Modules") or "").split(",")] == list(modules)
    assert len(game.players) == players and game.header("Rules") == rules
    rep = check_game(game)
    assert rep.violations == [], [v.message() for v in rep.violations][:5]
    assert rep.valid and rep.complete and [s.round for s in rep.scorings] == [1, 2, 3]
    assert rep.unverifiable == []


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m))
def test_module_games_use_their_modules(modules: tuple[str, ...]) -> None:
    """Over a few games of a run every module's actions show up."""
    text = _simulate("--modules", ",".join(modules), "--players", "4", "--games", "4")
    games = parse_text(text, "run.alh")
    assert len(games) == 4
    for m in modules:
        assert any(uses(g)[m] for g in games), m


def test_several_games_in_one_file_check_with_the_check_command(tmp_path: Path) -> None:
    out = tmp_path / "mods.alh"
    runner = CliRunner()
    res = runner.invoke(
        cli, ["simulate", "--modules", ",".join(ALL), "-p", "5", "-n", "3", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert len(parse_text(out.read_text("utf-8"), str(out))) == 3
    res = runner.invoke(cli, ["check", str(out)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["fmt", "--check", str(out)])
    assert res.exit_code == 0, res.output


def test_same_seed_same_bytes_and_aliases_name_the_modules() -> None:
    a = _simulate("--modules", "wesir,plaetze", "--seed", "9", "--games", "2")
    b = _simulate("--modules", "vizier, Plätze", "--seed", "9", "--games", "2")
    assert a == b and '[Modules "wesir, plaetze"]' in a
    assert _simulate("--modules", "wesir,plaetze", "--seed", "10", "--games", "2") != a


@pytest.mark.parametrize(
    ("args", "says"),
    [
        # every bundled module is listed (sorted by name)
        (["--modules", "nope"], "available: "),  # then every bundled module (tested below)
        (["--modules", "wesir,nope"], "unknown module nope"),
        # a misspelt name: the closest module, not the whole list (as MODULE-UNKNOWN does)
        (["--modules", "wesri"], "unknown module wesri: did you mean wesir?"),
        (["--modules", "plaetze,diamanen"], "unknown module diamanen: did you mean diamanten?"),
        (["--modules", ","], "no module"),
        (["--modules", "wesir", "--players", "7"], "--players"),
        (["--modules", "wesir", "--rules", "nope"], "--rules"),
    ],
)
def test_bad_module_options_are_usage_errors(args: list[str], says: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "referee", "simulate", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=OUTSIDE,
    )
    assert proc.returncode == 3, proc.stderr
    assert says in proc.stderr and "Traceback" not in proc.stderr
    if says == "available: ":  # every bundled module is named (the text may be wrapped)
        listed = " ".join(proc.stderr.split())
        assert all(cls.name in listed for cls in BUNDLED), listed
    assert proc.stdout == ""
