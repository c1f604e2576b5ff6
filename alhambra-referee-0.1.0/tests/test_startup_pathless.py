"""A plain ``check`` imports no ``pathlib`` (eleventh step, start-up): the cache files are
named by strings, the bundled profiles' folder is read as a string, and the check names its
inputs as ``str(Path(raw))`` would, asking pathlib only for what it would change."""

from __future__ import annotations

import errno
import io
import marshal
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from referee import cache, cli_plain, cli_startup
from referee.commands import check
from referee.profiles import loader

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"

NAMES = [
    "",
    ".",
    "..",
    "/",
    "//",
    "///",
    "a",
    "/a",
    "//a",
    "///a",
    "a/",
    "a//",
    "a//b",
    "./x",
    "x/.",
    "x/./y",
    "/a/./b/",
    "a/../b",
    "../a",
    "...",
    ".hidden",
    "a/.b",
    "-",
    "~",
    "~/x.alh",
    "game 1.alh",
    "dir/sub/game.alh",
    "ä/ö.alh",
    "a\\b",
]


@pytest.mark.parametrize("raw", NAMES)
def test_a_name_is_what_pathlib_writes(raw: str) -> None:
    assert check._name(raw) == str(Path(raw))


def test_is_dir_answers_as_pathlib(tmp_path: Path) -> None:
    (tmp_path / "f.alh").write_text("", "utf-8")
    (tmp_path / "d").mkdir()
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    for name in ("f.alh", "d", "missing", "f.alh/x", "dangling"):
        full = str(tmp_path / name)
        assert check._is_dir(full) is Path(full).is_dir(), name
    long = str(tmp_path / ("a" * 300))  # pathlib raises this one (ENAMETOOLONG) ...
    with pytest.raises(OSError) as caught:
        Path(long).is_dir()
    assert caught.value.errno == errno.ENAMETOOLONG
    # ... we read it as a file, whose reading says "File name too long" (exit 2, not 4:
    # tests/test_hardening_long_names.py)
    assert check._is_dir(long) is False


def test_the_inputs_are_named_and_found_as_before(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    (folder / "b").mkdir(parents=True)
    (folder / "b" / "z.alh").write_text("", "utf-8")
    (folder / "a.alh").write_text("", "utf-8")
    (folder / "empty").mkdir()
    raws = (f"{folder}//", f"{folder}/./a.alh", str(folder / "empty"), "-", str(folder / "no"))
    got = list(check._files(raws, echo=lambda *a, **k: None, lang="en"))
    assert got == [
        str(folder / "a.alh"),  # the folder's files in the scan's order, as pathlib names them
        str(folder / "b" / "z.alh"),
        str(folder / "a.alh"),
        str(folder / "empty"),  # a folder without games stands for itself
        "-",
        str(folder / "no"),
    ]
    assert all(isinstance(name, str) for name in got)


def test_the_games_of_a_file_are_open_games(tmp_path: Path) -> None:
    # check reads a file's games by open_games itself, which opens the file without pathlib
    from referee.notation.files import byte_lines, open_games
    from referee.notation.parser import split_games

    with Path(GAME).open("rb") as fh:  # the games, cut line by line from pathlib's open
        assert list(open_games(str(GAME))) == list(split_games(byte_lines(fh)))
    with pytest.raises(FileNotFoundError):
        list(open_games(str(tmp_path / "missing.alh")))


def test_a_missing_file_and_a_dot_name_say_what_they_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines: list[str] = []

    def echo(message: str, nl: bool = True, err: bool = False) -> None:
        lines.append(message)

    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.alh").write_bytes(GAME.read_bytes())
    code = check.run(
        ("./g.alh", "missing.alh", "sub//"),
        False,
        "text",
        None,
        True,
        1,
        None,
        check.DEFAULT_MAX_VIOLATIONS,
        "en",
        echo,
    )
    text = "\n".join(lines)
    assert code == 2
    assert text.startswith("g.alh:1: Anna, Ben, Cem, Dana: OK\n") and "./g.alh" not in text
    assert "\nmissing.alh: cannot read the file (No such file or directory)\n" in text
    assert "\nsub: cannot read the file (No such file or directory)\n" in text


def test_the_cache_files_are_strings_in_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "c"))
    name = cache.marshal_file("stem")
    assert isinstance(name, str)
    assert Path(name).parent == cache.cache_dir() == tmp_path / "c"
    cache.write_atomically(name, b"data")
    assert cache.read_trusted(name, 10) == b"data"
    assert cache.read_trusted(Path(name), 10) == b"data"  # a Path is taken too
    assert sorted(os.listdir(tmp_path / "c")) == [os.path.basename(name)]  # no temporary left
    monkeypatch.delenv(cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache.cache_dir() == tmp_path / "x" / "alhambra-referee"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == Path.home() / ".cache" / "alhambra-referee"


def test_the_bundled_folder_is_the_same(tmp_path: Path) -> None:
    assert Path(loader.__file__).resolve().parent == loader.BUNDLED_DIR
    assert isinstance(loader.BUNDLED_DIR, Path)
    stems = {p.stem for p in loader.BUNDLED_DIR.glob("*.yaml")}
    assert set(loader._bundled_names()) == stems


def test_a_code_table_keeps_only_texts_and_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    name = cli_startup._file()
    assert name is not None
    code = compile("pass", "<string>", "exec")
    cache.write_atomically(name, marshal.dumps({"a": code, "b": code}))
    assert cli_startup._load(name) == {"a": code, "b": code}
    cache.write_atomically(name, marshal.dumps({"a": code, "b": 1, 2: code}))
    assert cli_startup._load(name) == {"a": code}


def test_echo_strips_styles_only_where_there_are_some(monkeypatch: pytest.MonkeyPatch) -> None:
    class Plain(io.StringIO):
        def isatty(self) -> bool:
            return False

    out = Plain()
    monkeypatch.setattr(sys, "stdout", out)
    cli_plain.echo("plain line")
    cli_plain.echo("\x1b[1mbold\x1b[0m and \x1b lone", nl=False)
    assert out.getvalue() == "plain line\nbold and \x1b lone"


@pytest.mark.parametrize("game", [GAME, GAME.parent / "module-wesir.alh"], ids=["base", "module"])
def test_a_plain_check_imports_no_pathlib(tmp_path: Path, game: Path) -> None:
    # -S: no site (an editable install's finder imports pathlib); the tree and this
    # interpreter's packages on the path instead
    where = os.pathsep.join((str(ROOT), sysconfig.get_paths()["purelib"]))
    env = {**os.environ, "PYTHONPATH": where, "ALHAMBRA_REFEREE_CACHE": str(tmp_path / "c")}
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('pathlib' in sys.modules, file=sys.stderr))\n"
        f"sys.argv = ['alhambra-referee', 'check', {str(game)!r}]\n"
        "from referee.__main__ import run\n"
        "run()\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-S", "-c", code], env=env, cwd=tmp_path, capture_output=True
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout and b"1 valid" in runs[1].stdout
    assert runs[1].stderr.split()[-1] == b"False"  # the second run: profile and tables kept


# ------------------------------------------- the cache files' interpreter key (eighteenth step)


class _Version(tuple):  # type: ignore[type-arg]  # sys.version_info's fields, for a test
    releaselevel = property(lambda self: self[3])


def test_a_release_names_its_cache_files_by_tag_and_whole_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(sys, "version", "3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]")
    monkeypatch.setattr(sys, "version_info", _Version((3, 11, 7, "final", 0)))
    if sys.implementation.name != "cpython":  # pragma: no cover
        pytest.skip("the short key is for CPython releases")
    tag = sys.implementation.cache_tag
    assert cache.interpreter_key() == f"{tag}-{sys.hexversion:08x}"
    assert cache.marshal_file("stem") == str(tmp_path / f"stem-{tag}-{sys.hexversion:08x}.marshal")
    monkeypatch.setattr(sys, "hexversion", sys.hexversion + 1)  # another micro version or serial
    assert cache.interpreter_key() == f"{tag}-{sys.hexversion:08x}"


@pytest.mark.parametrize(
    ("version", "level"),
    [
        ("3.14.0a1+ (heads/main:0123abc, Oct  1 2026, 10:00:00) [GCC 12.2.0]", "alpha"),
        ("3.11.7+ (heads/3.11:4567def, May  9 2026, 07:35:25) [GCC 12.2.0]", "final"),
        ("3.14.0b2 (main, Oct  1 2026, 10:00:00) [GCC 12.2.0]", "beta"),
    ],
)
def test_a_build_between_releases_adds_its_build_string(
    monkeypatch: pytest.MonkeyPatch, version: str, level: str
) -> None:
    import binascii

    monkeypatch.setattr(sys, "version_info", _Version((3, 14, 0, level, 1)))
    monkeypatch.setattr(sys, "version", version)
    key = cache.interpreter_key()
    base = f"{sys.implementation.cache_tag}-{sys.hexversion:08x}"
    assert key == f"{base}-{binascii.crc32(version.encode()):08x}"
    monkeypatch.setattr(sys, "version", version.replace("10:00", "10:01").replace("07:35", "07:36"))
    assert cache.interpreter_key() != key  # another build of the same version: another file


def test_the_key_takes_nothing_from_importlib(tmp_path: Path) -> None:
    # public names loaded with the interpreter: no importlib.util (and its contextlib), no
    # private module of the standard library
    source = (ROOT / "referee" / "cache.py").read_text(encoding="utf-8")
    assert "_bootstrap" not in source and "import importlib" not in source
    probe = (
        "import sys\n"
        "from referee import cache\n"
        "print(cache.marshal_file('x'))\n"
        "print(*[m for m in ('importlib.util', 'contextlib', 'binascii') if m in sys.modules])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), cache.CACHE_ENV: str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    name, loaded = done.stdout.split("\n")[:2]
    assert name == str(tmp_path / f"x-{cache.interpreter_key()}.marshal")
    release = sys.implementation.name == "cpython" and "+" not in sys.version.split()[0]
    assert loaded == ("" if release and sys.version_info.releaselevel == "final" else "binascii")
