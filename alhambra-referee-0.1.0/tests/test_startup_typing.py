"""Start-up (issue 34, seventeenth step): a one-game ``check`` does not import :mod:`typing`
(about 12 M instructions with :mod:`contextlib`, which only ``typing`` imported on that path,
and ``dataclasses`` tests each text annotation for ``typing.ClassVar`` when ``typing`` is
loaded). The referee's modules take ``TYPE_CHECKING`` as a constant of their own, import
typing's names for the type checker only, write aliases as text, and make their named tuples
and protocols without ``typing`` (:mod:`referee.shapes`).

The process tests run in a fresh interpreter on the source tree; copied with the other tests
to a folder without ``referee/`` (the compiled tests' folder), they test the installed build.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from referee.messages import Shown, value
from referee.record.model import Coord, Pos

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"

# at exit: the modules loaded, and every field of a dataclass of the referee's that was made
# from a ``ClassVar`` annotation (with typing absent, ``dataclasses`` cannot tell one written as
# text: it would be a field)
_AT_EXIT = (
    "import atexit, sys\n"
    "def _report():\n"
    "    loaded = sorted(sys.modules)\n"
    "    import dataclasses\n"
    "    bad = []\n"
    "    for name, mod in list(sys.modules.items()):\n"
    "        if not name.startswith('referee'):\n"
    "            continue\n"
    "        for v in list(vars(mod).values()):\n"
    "            if isinstance(v, type) and dataclasses.is_dataclass(v):\n"
    "                bad += [f'{v.__qualname__}.{f.name}' for f in dataclasses.fields(v)\n"
    "                        if 'ClassVar' in str(f.type)]\n"
    "    print('CLASSVARS', *bad, file=sys.stderr)\n"
    "    print('MODULES', *loaded, file=sys.stderr)\n"
    "atexit.register(_report)\n"
    "sys.argv = ['alhambra-referee', *sys.argv[1:]]\n"
    "from referee.__main__ import run\n"
    "run()\n"
)


def _check(
    tmp_path: Path, *args: str, cache: bool = True, probe: str = ""
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    # -S: no site (an editable install's finder imports contextlib); the tree and this
    # interpreter's packages on the path instead; a cache folder of this test's own (or none)
    where = os.pathsep.join((str(ROOT), sysconfig.get_paths()["purelib"]))
    folder = str(tmp_path / "c") if cache else "0"
    env = {**os.environ, "PYTHONPATH": where, "ALHAMBRA_REFEREE_CACHE": folder}
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe + _AT_EXIT, "check", *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stderr.splitlines()
    assert next(ln for ln in lines if ln.startswith("CLASSVARS")) == "CLASSVARS"
    line = next(ln for ln in lines if ln.startswith("MODULES "))
    return done, set(line.split()[1:])


@pytest.mark.parametrize("args", [(), ("--lang", "de"), ("--format", "json")])
def test_a_one_game_check_does_not_import_typing(tmp_path: Path, args: tuple[str, ...]) -> None:
    first, _ = _check(tmp_path, str(GAME), *args)  # writes the caches
    second, loaded = _check(tmp_path, str(GAME), *args)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and first.stdout
    assert "referee.engine.core" in loaded
    assert "typing" not in loaded
    assert "contextlib" not in loaded


# every bundled example with modules or an edition (illegal-module.alh names a module that
# does not exist: an error path, not a check of a module game; its hint's list of known names
# no longer imports typing either, which tests/test_tidy21_startup.py shows)
MODULE_GAMES = sorted(
    p.name
    for p in (ROOT / "examples").glob("*.alh")
    if p.name != "illegal-module.alh"
    and any(h in p.read_text(encoding="utf-8") for h in ('[Modules "', '[Rules "waechter"]'))
)


def test_a_one_game_check_of_a_module_game_does_not_import_typing(tmp_path: Path) -> None:
    first, _ = _check(tmp_path, str(ROOT / "examples" / "module-wesir.alh"))
    second, loaded = _check(tmp_path, str(ROOT / "examples" / "module-wesir.alh"))
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout
    assert "referee.modules.wesir" in loaded
    assert "typing" not in loaded and "contextlib" not in loaded


def test_no_module_game_imports_typing(tmp_path: Path) -> None:
    # every module and edition at once (one process; no cache: a cold run reads the YAML), and
    # no dataclass of theirs has a field made from a ClassVar annotation (_AT_EXIT's check)
    assert len(MODULE_GAMES) > 50
    done, loaded = _check(
        tmp_path, *(str(ROOT / "examples" / n) for n in MODULE_GAMES), cache=False
    )
    assert done.returncode in (0, 1) and "unreadable" in done.stdout
    assert " 0 unreadable" in done.stdout.splitlines()[-1]
    from referee.modules import discover

    assert {f"referee.modules.{cls.__module__.rsplit('.', 1)[1]}" for cls in discover()} <= loaded
    assert "referee.editions.waechter" in loaded
    assert "typing" not in loaded and "contextlib" not in loaded


@pytest.mark.parametrize("name", ["two-player-bigbox-2019.alh", "two-player-bga.alh"])
def test_a_check_reading_a_profile_file_does_not_import_typing(tmp_path: Path, name: str) -> None:
    # no cache: the record's bundled profile (not the default) is read from its YAML file and
    # checked against the parameter table, which is made (eighteenth step: without typing); the
    # package's literal of the bundled profiles is an empty one, so that the YAML is read
    probe = (
        "import atexit, sys, types\n"
        "sys.modules['referee.profiles.bundled_literal'] = types.SimpleNamespace(TEXTS={})\n"
        "atexit.register(lambda: print('MADE', bool(sys.modules['referee.profiles.params']._made),"
        " file=sys.stderr))\n"
    )
    done, loaded = _check(tmp_path, str(ROOT / "examples" / name), cache=False, probe=probe)
    assert done.returncode == 0 and done.stdout
    assert "MADE True" in done.stderr.splitlines()
    assert "typing" not in loaded and "contextlib" not in loaded


# ----------------------------------------------------------- what typing made, made without it


def test_the_named_tuples_are_collections_named_tuples() -> None:
    p = Pos(3, 7)
    assert p == (3, 7) and hash(p) == hash((3, 7)) and p < Pos(3, 8) and isinstance(p, tuple)
    assert repr(p) == "Pos(line=3, column=7)" and str(p) == "3:7"
    assert Pos._fields == ("line", "column") and Pos.__match_args__ == ("line", "column")
    assert p._replace(column=9) == Pos(3, 9) and type(p._replace(column=9)) is Pos
    assert p._asdict() == {"line": 3, "column": 7} and Pos._make((1, 2)) == Pos(1, 2)
    assert (p.line, p.column) == (3, 7) and tuple(p) == (3, 7)
    assert Pos.__module__ == "referee.record.model" and Pos.__qualname__ == "Pos"
    assert Pos.__doc__ is not None and Pos.__doc__.startswith("A source position")
    assert Pos.__mro__ == (Pos, tuple, object) and not hasattr(p, "__dict__")
    c = Coord(1, -2)
    assert repr(c) == "Coord(1, -2)" and str(c) == "1,-2" and c.x == 1 and c.y == -2
    assert Coord._fields == ("x", "y") and Coord.neighbour.__qualname__ == "Coord.neighbour"
    for v in (p, c):
        again = pickle.loads(pickle.dumps(v))
        assert again == v and type(again) is type(v)
    with pytest.raises(AttributeError):
        p.line = 4  # type: ignore[misc]


def test_wall_facts_is_the_layers_named_tuple() -> None:
    from referee.geometry import WallFacts as exported
    from referee.geometry.layers import WallFacts

    facts = WallFacts(True, False, False, True)
    assert exported is WallFacts and WallFacts.__module__ == "referee.geometry.layers"
    assert repr(facts) == "WallFacts(wall=True, double=False, passable=False, outer=True)"
    assert WallFacts._fields == ("wall", "double", "passable", "outer")
    assert pickle.loads(pickle.dumps(facts)) == facts


def test_shown_is_what_has_a_text() -> None:
    @dataclasses.dataclass
    class Summary:
        def text(self, lang: str = "en") -> str:
            return "kurz" if lang == "de" else "short"

    class Blocked:
        text = None

    assert isinstance(Summary(), Shown) and not isinstance(Blocked(), Shown)
    assert not isinstance("text", Shown) and not isinstance(3, Shown)
    assert value("de", Summary()) == "kurz" and value("en", "plain") == "plain"


def test_the_parameters_still_read_their_types() -> None:
    from referee.profiles import PARAMETERS

    spec = PARAMETERS["scoring_card_placement"]
    assert spec.kind == "choice" and spec.choices == ("shuffled", "top")
    assert PARAMETERS["dirk_second_thirds"].kind == "int"


def test_the_module_pieces_class_constants_are_no_fields() -> None:
    # written without ClassVar annotations (eighteenth step): the same fields and constants
    from referee.geometry.pieces import Footprint, Profile
    from referee.modules.badehaeuser import Bathhouse
    from referee.modules.bazare import Bazaar
    from referee.modules.falkner import Falcon
    from referee.modules.grossprojekte import Project
    from referee.modules.sultan import SultanCard
    from referee.modules.wachtuerme import Watchtower

    names = {cls: [f.name for f in dataclasses.fields(cls)] for cls in (Bathhouse, Falcon)}
    assert names == {Bathhouse: ["sides"], Falcon: ["colour", "shows"]}
    assert [f.name for f in dataclasses.fields(Project)] == ["types", "laid"]
    assert [f.name for f in dataclasses.fields(Watchtower)] == ["colour", "half_at"]
    assert "price" not in {f.name for f in dataclasses.fields(Bazaar)}
    assert [f.name for f in dataclasses.fields(SultanCard)][:2] == ["currency", "serial"]
    assert (Bathhouse.price, Bazaar.price, SultanCard.price, SultanCard.type) == (8, 0, 7, None)
    assert Falcon.footprint is Footprint.CORNER and Falcon.leaves_on_redesign is True
    assert Project.footprint is Footprint.TWO_CELLS and Watchtower.footprint is Footprint.HALF
    assert Project.walls == Watchtower.walls == frozenset() and Project.part_walls == (set(),) * 2
    assert Watchtower.profile == Profile(locked=True)
    constants = {
        Bathhouse: {"price"},
        Bazaar: {"price"},
        Falcon: {"footprint", "leaves_on_redesign"},
        Project: {"footprint", "walls", "part_walls"},
        Watchtower: {"footprint", "profile", "walls"},
    }
    for cls, names in constants.items():
        assert not names & set(cls.__slots__), cls
