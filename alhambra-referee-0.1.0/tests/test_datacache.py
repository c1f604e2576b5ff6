"""The cache of the bundled YAML data (``referee.datacache``; issue 13, start-up): what comes
from the cache is what parsing the file gives, an edited file or loader is never answered from
it, and a damaged, foreign, switched-off or unwritable cache only means parsing as before."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee import datacache
from referee.catalogue import components
from referee.modules import base
from referee.profiles import list_profiles, loader

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "game-4p.alh"
TILES = Path(components.__file__).with_name("tiles-base.yaml").read_text("utf-8")
MODULE_NAMES = sorted(p.stem for p in Path(base.MODULE_DIR).glob("*.yaml"))


def _parse_tiles(text: str) -> Any:
    """The catalogue's parse under another name: ``load_yaml`` answers the catalogue's own parse
    of the shipped text from the package's literal (tests/test_speed25_native.py), and these
    tests are about the cache."""
    return components._parse_tiles(text)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder, and a fresh read of it (the process's state is restored after)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("ALHAMBRA_REFEREE_CACHE", str(cache))
    datacache.reset()
    yield cache
    datacache.reset()
    loader._bundled_key.cache_clear()


def _files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def _fresh_run() -> None:
    """What the next process sees: this one's entries written, then the file read again."""
    datacache.save()
    datacache.reset()


def _refuse(*args: object) -> Any:
    raise AssertionError("parsed although the cache holds the text")


def _counting(parse: Callable[[str], Any]) -> tuple[Callable[[str], Any], list[str]]:
    calls: list[str] = []

    def counted(text: str) -> Any:
        calls.append(text)
        return parse(text)

    return counted, calls


# ------------------------------------------------------------------ hit == miss, everywhere


def test_the_tiles_from_the_cache_are_the_parsed_tiles(folder: Path) -> None:
    parsed = yaml.load(TILES, Loader=yaml.SafeLoader)
    miss = datacache.load_yaml("tiles", TILES, _parse_tiles)
    _fresh_run()
    (path,) = _files(folder)
    assert path.name.startswith("bundled-data-") and path.suffix == ".marshal"  # no temporary
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    hit = datacache.load_yaml("tiles", TILES, _refuse)
    assert miss == hit == parsed
    hit["building_tiles"].clear()  # what a caller does with its copy stays there
    assert datacache.load_yaml("tiles", TILES, _refuse) == parsed


def test_every_modules_data_from_the_cache_is_its_parsed_file(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(MODULE_NAMES) >= 4
    parsed = {
        n: yaml.safe_load((Path(base.MODULE_DIR) / f"{n}.yaml").read_text("utf-8"))
        for n in MODULE_NAMES
    }
    miss = {n: base.module_data.__wrapped__(n) for n in MODULE_NAMES}
    _fresh_run()
    monkeypatch.setattr(base, "_safe_load", _refuse)
    hit = {n: base.module_data.__wrapped__(n) for n in MODULE_NAMES}
    assert miss == hit == parsed
    for name in MODULE_NAMES:
        assert repr(hit[name]) == repr(parsed[name])  # the same types (bool, int, float, str)


def _all_fields(profile: loader.RuleProfile) -> dict[str, tuple[type, Any]]:
    return {f.name: (type(v), v) for f in fields(profile) for v in [getattr(profile, f.name)]}


def test_every_bundled_profile_from_the_cache_is_the_one_read_from_yaml(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = list_profiles()
    assert len(names) >= 4
    read = {n: loader._load_bundled(n, ()) for n in names}
    miss = {n: loader._bundled.__wrapped__(n) for n in names}
    _fresh_run()
    monkeypatch.setattr(loader, "_load_bundled", _refuse)
    hit = {n: loader._bundled.__wrapped__(n) for n in names}
    for name in names:
        assert miss[name] == hit[name] == read[name]
        # the fields equality leaves out, with their types and the sources' order
        assert _all_fields(hit[name]) == _all_fields(read[name]) == _all_fields(miss[name])
        assert list(hit[name].sources) == list(read[name].sources)
    assert hit["queen-bigbox-2019"].extends is not None
    assert {p.origin for p in hit.values()} == {"bundled"}
    assert "yaml" not in repr(_all_fields(hit["bga"]))  # nothing of PyYAML's in it


# -------------------------------------------------------------- never stale after an edit


def test_an_edited_text_is_parsed_again(folder: Path) -> None:
    parse, calls = _counting(_parse_tiles)
    datacache.load_yaml("tiles", TILES, parse)
    _fresh_run()
    edited = TILES.replace("price: 3", "price: 4", 1)
    assert edited != TILES
    assert datacache.load_yaml("tiles", edited, parse) == yaml.safe_load(edited)
    assert datacache.load_yaml("tiles", TILES, parse) == yaml.safe_load(TILES)
    assert calls == [TILES, edited]  # the old text still hits; the new one was parsed
    assert datacache.load_yaml("safe_load", TILES, yaml.safe_load) == yaml.safe_load(TILES)
    assert len(calls) == 2  # another kind of parse is another entry


def _copy_profiles(tmp_path: Path) -> Path:
    copy = tmp_path / "profiles"
    copy.mkdir()
    for name in list_profiles():
        text = (loader.BUNDLED_DIR / f"{name}.yaml").read_text("utf-8")
        (copy / f"{name}.yaml").write_text(text, encoding="utf-8")
    return copy


def test_an_edited_profile_or_loader_is_read_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy_profiles(tmp_path)
    monkeypatch.setattr(loader, "BUNDLED_DIR", copy)
    loader._bundled_key.cache_clear()
    first = loader._bundled.__wrapped__("queen-2003")
    assert first.reserve_limit is None
    _fresh_run()
    # the profile's text changes: the cached fields are not used
    text = (copy / "queen-2003.yaml").read_text("utf-8")
    assert "\nreserve_limit: null\n" in text
    edited = text.replace("\nreserve_limit: null\n", "\nreserve_limit: 3\n")
    (copy / "queen-2003.yaml").write_text(edited, encoding="utf-8")
    loader._bundled_key.cache_clear()
    assert loader._bundled.__wrapped__("queen-2003").reserve_limit == 3
    # a profile it extends changes: the extending profile is read again
    assert loader._bundled.__wrapped__("queen-bigbox-2019").reserve_limit == 3
    _fresh_run()
    # the loader's code changes (a copy of it with one more line): nothing cached is used
    code = tmp_path / "loader.py"
    code.write_bytes(Path(loader.__file__).read_bytes() + b"\n# edited\n")
    monkeypatch.setattr(loader, "__file__", str(code))
    loader._bundled_key.cache_clear()
    reads: list[str] = []
    real = loader._load_bundled

    def counted(name: str, chain: tuple[str, ...]) -> loader.RuleProfile:
        reads.append(name)
        return real(name, chain)

    monkeypatch.setattr(loader, "_load_bundled", counted)
    assert loader._bundled.__wrapped__("queen-2003").reserve_limit == 3
    assert reads == ["queen-2003"]


def test_a_profile_key_is_kept_beside_a_few_others(folder: Path) -> None:
    fields_ = {"name": "x"}
    for i in range(datacache._MAX_PROFILE_KEYS + 2):
        datacache.keep_profile(("key", i), "x", fields_)
    _fresh_run()
    kept = [
        i
        for i in range(datacache._MAX_PROFILE_KEYS + 2)
        if datacache.profile_fields(("key", i), "x")
    ]
    assert kept == list(range(2, datacache._MAX_PROFILE_KEYS + 2))  # the oldest went
    assert datacache.profile_fields(("key", 5), "y") is None
    assert datacache.profile_fields(["not hashable"], "x") is None  # type: ignore[arg-type]


# ------------------------------------------------- a damaged or missing cache: parse as before


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00garbage",
        marshal.dumps([1, 2, 3]),  # another program's marshal file
        marshal.dumps({"format": 99, "stamp": b"", "texts": {}, "profiles": {}}),
        marshal.dumps({"format": 1, "stamp": b"another PyYAML", "texts": {}, "profiles": {}}),
        "cut",
        "wrong values",
    ],
)
def test_a_damaged_or_foreign_file_is_ignored(folder: Path, content: bytes | str) -> None:
    datacache.load_yaml("tiles", TILES, _parse_tiles)
    _fresh_run()
    (path,) = _files(folder)
    if content == "cut":
        content = path.read_bytes()[: len(path.read_bytes()) // 2]
    elif content == "wrong values":  # the right shape, but an entry that is not marshal bytes
        data = marshal.loads(path.read_bytes())
        data["texts"] = {("tiles", TILES): b"\xff\xff", ("x", "y"): 3, "z": b""}
        content = marshal.dumps(data)
    assert isinstance(content, bytes)
    path.write_bytes(content)
    datacache.reset()
    parse, calls = _counting(_parse_tiles)
    assert datacache.load_yaml("tiles", TILES, parse) == yaml.safe_load(TILES)
    assert calls == [TILES]
    _fresh_run()  # and the file is good again
    assert datacache.load_yaml("tiles", TILES, _refuse) == yaml.safe_load(TILES)


def test_an_oversized_file_is_not_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    datacache.load_yaml("tiles", TILES, _parse_tiles)
    _fresh_run()
    monkeypatch.setattr(datacache, "_MAX_BYTES", 100)
    datacache.reset()
    parse, calls = _counting(_parse_tiles)
    datacache.load_yaml("tiles", TILES, parse)
    assert calls == [TILES]


def test_values_marshal_cannot_hold_are_not_kept(folder: Path) -> None:
    text = "day: 2026-11-23\n"
    parse, calls = _counting(yaml.safe_load)
    first = datacache.load_yaml("safe_load", text, parse)
    _fresh_run()
    assert datacache.load_yaml("safe_load", text, parse) == first
    assert len(calls) == 2 and _files(folder) == []  # nothing new to write


def test_switched_off_or_unwritable_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    try:
        for setting in ("0", "", str(blocker / "cache")):
            monkeypatch.setenv("ALHAMBRA_REFEREE_CACHE", setting)
            datacache.reset()
            parse, calls = _counting(_parse_tiles)
            assert datacache.load_yaml("tiles", TILES, parse) == yaml.safe_load(TILES)
            datacache.keep_profile(("k",), "x", {"name": "x"})
            _fresh_run()
            assert datacache.load_yaml("tiles", TILES, parse) == yaml.safe_load(TILES)
            assert len(calls) == 2  # nothing kept between runs
            assert datacache.profile_fields(("k",), "x") is None
        assert blocker.read_text() == "not a folder"
    finally:
        datacache.reset()


def test_a_full_file_keeps_this_runs_texts(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datacache, "_MAX_ENTRIES", 3)
    for i in range(5):
        datacache.load_yaml("old", f"n: {i}\n", yaml.safe_load)
    _fresh_run()
    datacache.load_yaml("tiles", TILES, _parse_tiles)
    datacache.load_yaml("old", "n: 4\n", _refuse)
    _fresh_run()
    kept = marshal.loads(_files(folder)[0].read_bytes())["texts"]
    assert sorted(kept) == [("old", "n: 4\n"), ("tiles", TILES)]


# ------------------------------------------------------------ the command line, end to end

_CHECK = """
import sys
from referee.cli import main
try:
    main({args!r})
except SystemExit as exc:
    code = exc.code
print("EXIT", code, file=sys.stderr)
yaml = sorted(m for m in sys.modules if m == "yaml" or m.startswith("yaml."))
print("YAML", yaml, file=sys.stderr)
"""


def _check(cache: str, args: list[str]) -> tuple[str, str]:
    out = subprocess.run(
        [sys.executable, "-c", _CHECK.format(args=args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "ALHAMBRA_REFEREE_CACHE": cache},
        check=True,
    )
    return out.stdout, out.stderr


def test_a_warm_check_does_not_import_yaml_and_says_the_same(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    for args in (["check", str(GAME)], ["check", "--rules", "bga", "--lang", "de", str(GAME)]):
        plain = _check("0", args)
        # no cache: still no PyYAML (the tiles and profiles from the package's literals)
        assert "YAML []" in plain[1]
        cold = _check(cache, args)
        files = _files(Path(cache))
        stamps = [p.stat().st_mtime_ns for p in files]
        warm = _check(cache, args)
        assert plain[0] == cold[0] == warm[0]
        exits = {run[1].splitlines()[-2] for run in (plain, cold, warm)}
        assert exits == {"EXIT 0" if "--rules" not in args else "EXIT 1"}
        assert "YAML []" in warm[1]
        assert [p.stat().st_mtime_ns for p in _files(Path(cache))] == stamps  # not rewritten


def test_a_module_game_reads_its_data_from_the_cache(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    game = ROOT / "examples" / "module-wesir.alh"
    plain = _check("0", ["check", str(game)])
    _check(cache, ["check", str(game)])
    warm = _check(cache, ["check", str(game)])
    assert plain[0] == warm[0] and "EXIT 0" in warm[1] and "YAML []" in warm[1]
