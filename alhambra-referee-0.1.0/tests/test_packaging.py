"""The package layout: every package folder is installed, and the data files ship with it."""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _listed_packages() -> set[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    return {p.strip() for p in cfg["options"]["packages"].split() if p.strip()}


def test_every_package_folder_is_listed_in_setup_cfg() -> None:
    found = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "referee").rglob("__init__.py")
    }
    found.add("referee.grammar")
    assert found == _listed_packages()


def test_grammar_and_tile_data_ship_with_the_package() -> None:
    import referee.grammar
    from referee.catalogue import catalogue

    assert referee.grammar.GRAMMAR_FILE.is_file()
    assert len(catalogue().tiles) == 54
