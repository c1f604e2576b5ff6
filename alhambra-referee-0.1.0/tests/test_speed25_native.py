"""The bundled data's literal modules (issue 34, twenty-third step, helper native).

``referee/catalogue/tiles_literal.py`` and ``referee/profiles/bundled_literal.py`` (written by
``tools/bundled_literals.py``) hold the YAML texts of the tile catalogue and the bundled rule
profiles and what parsing them gives, so that a check needs neither PyYAML nor a parse for them.
Here: they hold what parsing the files gives now (else: run the tool again), they are used only
when the files hold exactly their texts (the tiles' literal, by ``datacache.load_yaml``, also only
for the catalogue's own parse), and a check of a base game imports no PyYAML."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from referee import datacache
from referee.catalogue import components, tiles_literal
from referee.profiles import bundled_literal, list_profiles, loader

ROOT = Path(__file__).resolve().parents[1]
STALE = "stale: run `python tools/bundled_literals.py` and commit what it writes"


def _text(path: Path) -> str:
    with open(path, encoding="utf-8") as fh:  # as the package reads it
        return fh.read()


def test_the_tiles_literal_is_what_the_yaml_gives() -> None:
    text = _text(Path(components.__file__).with_name("tiles-base.yaml"))
    assert text == tiles_literal.TEXT, STALE
    assert components._parse_tiles(text) == tiles_literal.DATA, STALE


def test_the_profiles_literal_is_what_the_loader_gives() -> None:
    folder = Path(loader._bundled_dir())
    assert list(bundled_literal.TEXTS) == list_profiles(), STALE
    for name, text in bundled_literal.TEXTS.items():
        assert _text(folder / f"{name}.yaml") == text, STALE
        parsed = loader._load_bundled(name, ())
        want = {f.name: getattr(parsed, f.name) for f in fields(parsed)}
        got = bundled_literal.FIELDS[name]
        assert got == want, STALE
        # the same types too (1 == 1.0 == True): the literal is what parsing gives, exactly
        assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in want.items()}
        # the profile made from the literal is the parsed one, sources (compare=False) included
        made = loader._bundled.__wrapped__(name)
        assert made == parsed and made.sources == parsed.sources


def test_the_tiles_literal_answers_its_own_parse_of_its_own_text_only() -> None:
    text = tiles_literal.TEXT
    parse = components._parse_tiles
    got = datacache._literal("tiles", text, parse)
    assert got == tiles_literal.DATA and got is not tiles_literal.DATA  # a copy: callers' own
    got["building_tiles"].clear()
    assert len(datacache.load_yaml("tiles", text, parse)["building_tiles"]) == 54

    def other(text: str) -> Any:
        return parse(text)

    missing = datacache._MISSING
    assert datacache._literal("tiles", text, other) is missing  # another parse: not answered
    assert datacache._literal("tiles", text + "\n", parse) is missing  # another text
    assert datacache._literal("safe_load", text, parse) is missing  # another kind


def test_the_catalogue_from_the_literal_is_the_parsed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = components.catalogue.__wrapped__()
    # another text in the literal: the file is parsed (the literal's data is not used)
    monkeypatch.setattr(tiles_literal, "TEXT", tiles_literal.TEXT + "\n")
    monkeypatch.setattr(tiles_literal, "DATA", {"building_tiles": [], "start_tile": {"count": 0}})
    parsed = components.catalogue.__wrapped__()
    assert parsed == kept and len(parsed.tiles) == 54


def test_a_profile_literal_is_used_for_the_same_texts_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "profiles"
    copy.mkdir()
    for name, text in bundled_literal.TEXTS.items():
        (copy / f"{name}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(loader, "BUNDLED_DIR", copy)
    got = loader._literal_fields("bga")
    assert got == bundled_literal.FIELDS["bga"]
    assert got is not None and got["sources"] is not bundled_literal.FIELDS["bga"]["sources"]
    assert loader._literal_fields("no-such") is None
    # a profile another extends is edited: no literal for any of them
    text = bundled_literal.TEXTS["queen-2003"]
    edited = text.replace("\nreserve_limit: null\n", "\nreserve_limit: 3\n")
    assert edited != text
    (copy / "queen-2003.yaml").write_text(edited, encoding="utf-8")
    assert loader._literal_fields("queen-2003") is None
    assert loader._literal_fields("queen-bigbox-2019") is None
    assert loader._bundled.__wrapped__("queen-bigbox-2019").reserve_limit == 3
    (copy / "bga.yaml").unlink()  # a file gone: no literal
    (copy / "queen-2003.yaml").write_text(text, encoding="utf-8")
    assert loader._literal_fields("queen-2003") is None


def test_a_base_check_imports_no_yaml() -> None:
    code = (
        "import sys\n"
        "from referee.catalogue.components import catalogue\n"
        "from referee.profiles import load_profile\n"
        "assert len(catalogue().tiles) == 54\n"
        "assert load_profile('bga').name == 'bga'\n"
        "assert load_profile().name == 'queen-2003'\n"
        "assert 'yaml' not in sys.modules, sorted(sys.modules)\n"
    )
    env = {**os.environ, "ALHAMBRA_REFEREE_CACHE": "0"}
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env)
