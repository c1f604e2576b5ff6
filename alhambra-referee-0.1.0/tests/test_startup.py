"""Start-up (issue 13): only the command that runs is loaded, nothing heavy on the ``check`` path,
and the Lark grammar's cache lives in the user's cache folder (or nowhere when that is not
writable). Each case runs in a fresh interpreter, since start-up is what it is about."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import cli

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"

_LOADED = """
import sys
from referee.cli import main
try:
    main({args!r})
except SystemExit as exc:
    code = exc.code
print("EXIT", code)
print("\\n".join(sorted(sys.modules)))
"""


def _modules_after(args: list[str], env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    out = subprocess.run(
        [sys.executable, "-c", _LOADED.format(args=args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        check=True,
    ).stdout
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("EXIT "))
    return int(lines[at].split()[1]), set(lines[at + 1 :])


def test_check_loads_only_what_it_needs(tmp_path: Path) -> None:
    # a cache folder of its own, warmed by a first run: what a second check loads does not
    # depend on what other runs (other trees, other tests) left in the user's shared cache,
    # which keeps two profile keys only (a miss reads the YAML and imports difflib ...)
    env = {"ALHAMBRA_REFEREE_CACHE": str(tmp_path / "cache")}
    _modules_after(["check", str(GAME)], env)
    code, loaded = _modules_after(["check", str(GAME)], env)
    assert code == 0
    assert "referee.commands.check" in loaded
    others = {"explain", "fmt", "legal", "modules", "parse", "profiles", "render", "show"}
    assert not {f"referee.commands.{c}" for c in others} & loaded
    # no SVG / replay code, and not the stack xml.sax.saxutils pulls in
    heavy = {"referee.reports.svg", "referee.replay", "xml.sax.saxutils", "urllib.request"}
    heavy |= {"http.client", "email", "ssl", "socket"}
    assert not heavy & loaded
    # a canonical record is read by the fast reader: Lark is not even imported
    assert "lark" not in loaded and "referee.notation.lark_reader" not in loaded
    # nor what only other formats, messages, half buildings or the simulator need
    assert not {"json", "difflib", "fractions"} & loaded


def test_a_record_the_fast_reader_declines_still_reads(tmp_path: Path) -> None:
    text = GAME.read_text(encoding="utf-8")
    path = tmp_path / "g.alh"
    path.write_text(text.replace("place", "Place", 1), encoding="utf-8")  # a keyword's other case
    code, loaded = _modules_after(["check", str(path)])
    assert code == 0 and "lark" in loaded


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in ("check", "explain", "fmt", "legal", "modules", "parse", "profiles", "render"):
        assert f"  {name} " in result.output
    for name in ("score", "show", "simulate"):
        assert f"  {name} " in result.output
    bad = CliRunner().invoke(cli, ["chek", str(GAME)])
    assert bad.exit_code == 2 and "chek" in bad.output


_BUILD = """
from referee.notation.parser import _parser, parse_chunk
_parser()
items, problems = parse_chunk("12. Ben: take Gu3, place T10@1,0 # x")
print(repr(items))
"""


def _build(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BUILD],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
    )


def _own(folder: Path) -> list[Path]:
    """The cache files but the bundled data's (tests/test_datacache.py), which every run that
    reads a tile or a profile writes beside them."""
    return sorted(p for p in folder.iterdir() if not p.name.startswith("bundled-data-"))


def test_the_grammar_cache_is_written_once_and_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first = _build({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    files = _own(folder)
    assert len(files) == 1 and files[0].name.endswith(".lark-cache")  # no temporary left
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    stamp = files[0].stat().st_mtime_ns
    second = _build({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    assert second.stdout == first.stdout and second.stderr == ""
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again


def test_the_cache_goes_to_xdg_cache_home(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ALHAMBRA_REFEREE_CACHE"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    subprocess.run([sys.executable, "-c", _BUILD], cwd=ROOT, env=env, check=True, text=True)
    assert [p.suffix for p in _own(tmp_path / "alhambra-referee")] == [".lark-cache"]


def test_an_unwritable_cache_folder_means_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    plain = _build({"ALHAMBRA_REFEREE_CACHE": ""})
    blocked = _build({"ALHAMBRA_REFEREE_CACHE": str(blocker / "cache")})
    assert blocked.stdout == plain.stdout and blocked.stderr == ""
    assert blocker.read_text() == "not a folder"


# ------------------------------------------------------- the record classes' compiled code

_CHECK = """
import sys
from referee.cli import main
main({args!r})
"""


def _check_run(
    env: dict[str, str], args: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _CHECK.format(args=args or ["check", str(GAME)])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
        check=False,
    )


def test_the_dataclass_code_cache_is_written_once_and_gives_the_same_output(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cache"
    plain = _check_run({"ALHAMBRA_REFEREE_CACHE": ""})
    first = _check_run({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    files = [p.name for p in _own(folder)]
    assert len(files) == 1 and files[0].startswith("dataclass-code-"), files  # no temporary
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    stamp = (folder / files[0]).stat().st_mtime_ns
    second = _check_run({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    assert plain.returncode == first.returncode == second.returncode == 0
    assert plain.stdout == first.stdout == second.stdout and second.stderr == ""
    assert (folder / files[0]).stat().st_mtime_ns == stamp  # read, not written again


def test_a_damaged_or_unwritable_code_cache_is_ignored(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    plain = _check_run({"ALHAMBRA_REFEREE_CACHE": ""})
    _check_run({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    (path,) = _own(folder)
    path.write_bytes(path.read_bytes()[:1000])  # cut short
    cut = _check_run({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    assert cut.stdout == plain.stdout and cut.stderr == "" and cut.returncode == 0
    path.write_bytes(b"\x00garbage")
    bad = _check_run({"ALHAMBRA_REFEREE_CACHE": str(folder)})
    assert bad.stdout == plain.stdout and bad.stderr == "" and bad.returncode == 0
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    blocked = _check_run({"ALHAMBRA_REFEREE_CACHE": str(blocker / "cache")})
    assert blocked.stdout == plain.stdout and blocked.stderr == "" and blocked.returncode == 0
    assert blocker.read_text() == "not a folder"


def test_the_code_cache_gives_the_classes_dataclasses_would_compile(tmp_path: Path) -> None:
    import dataclasses

    from referee import cli_startup

    try:
        cli_startup.install()
        assert dataclasses.exec is cli_startup._exec  # type: ignore[attr-defined]

        @dataclasses.dataclass(frozen=True, slots=True)
        class A:
            x: int
            y: str = "b"

        @dataclasses.dataclass(frozen=True, slots=True)
        class B:  # the same methods' text: the table's code is used
            x: int
            y: str = "b"

        assert A(1) == A(1, "b") and A(1) != A(2) and hash(A(1)) == hash(A(1, "b"))
        assert repr(B(3)).endswith("<locals>.B(x=3, y='b')")
        try:
            A(1).x = 2  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            pass
        else:  # pragma: no cover
            raise AssertionError("frozen")
    finally:
        cli_startup.uninstall()
    assert not hasattr(dataclasses, "exec")


def test_the_code_cache_keeps_this_runs_texts_when_it_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses
    import marshal

    from referee import cli_startup

    monkeypatch.setenv("ALHAMBRA_REFEREE_CACHE", str(tmp_path))
    monkeypatch.setattr(cli_startup, "_MAX_ENTRIES", 3)
    monkeypatch.setattr(cli_startup, "_table", {})
    monkeypatch.setattr(cli_startup, "_used", set())
    stale = {f"# stale {i}": compile("pass", "<string>", "exec") for i in range(5)}
    name = cli_startup._file()  # a string (no pathlib at start-up)
    assert name is not None
    path = Path(name)
    path.write_bytes(marshal.dumps(stale))
    try:
        cli_startup.install()

        @dataclasses.dataclass(frozen=True)
        class C:
            x: int

        assert C(1) == C(1)
        cli_startup.save()
    finally:
        cli_startup.uninstall()
    kept = marshal.loads(path.read_bytes())
    assert kept and not any(k.startswith("# stale") for k in kept)
    assert all("__create_fn__" in k for k in kept)


def test_generated_code_comes_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee import cli_startup
    from referee.makers import record_maker
    from referee.notation import fast

    monkeypatch.setattr(cli_startup, "_table", {})
    monkeypatch.setattr(cli_startup, "_used", set())
    source = "def make(v0, v1=default1):\n    o = new(cls)\n    set0(o, v0)\n    return o\n"
    code = cli_startup.compiled(source)
    assert code == compile(source, "<string>", "exec")  # what exec(source) would run
    assert cli_startup.compiled(source) is code and source in cli_startup._used
    # the reader's record makers are made from such texts: the same records as the classes'
    model = fast._model
    ref = record_maker(model.PlayerRef)("Anna", model.Pos(3, 7))
    assert ref == model.PlayerRef("Anna", model.Pos(3, 7)) and type(ref) is model.PlayerRef
    assert ref.pos == (3, 7)
    assert len(cli_startup._table) == 2


def test_a_lazy_pattern_compiles_on_first_use_and_answers_as_the_pattern() -> None:
    import re

    from referee.lazy_re import lazy_pattern

    lazy = lazy_pattern(r"(?P<w>[a-z]+)|(?P<s> +)", re.I)
    assert "search" not in vars(lazy)  # nothing compiled yet
    plain = re.compile(r"(?P<w>[a-z]+)|(?P<s> +)", re.I)
    assert lazy.fullmatch("Ab") is not None and lazy.fullmatch("1") is None
    assert vars(lazy)["search"] == plain.search  # the compiled pattern's own method from now on
    assert [m.lastgroup for m in lazy.finditer("ab  Cd")] == ["w", "s", "w"]
    assert lazy.search("12 x", 2).group() == " " and lazy.match("x").span() == (0, 1)
    assert lazy.pattern == plain.pattern and lazy.flags == plain.flags
    assert lazy.sub("-", "ab cd") == plain.sub("-", "ab cd")
