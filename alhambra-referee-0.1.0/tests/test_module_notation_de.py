"""``modules NAME --lang de`` explains each module's record lines in German: every module whose
YAML has a ``notation`` mapping has a ``notation_de`` with the same keys, and each German text
keeps the record examples (the parts in backquotes) exactly as the English one writes them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from referee.cli import cli
from referee.commands.modules import notation_label

MODULES = Path(__file__).resolve().parent.parent / "referee" / "modules"
# chosen when the file is collected (every xdist worker): libyaml's safe loader where PyYAML has
# it (the same data as ``yaml.safe_load``, about ten times faster); each test reads its file
# with ``yaml.safe_load`` itself
_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
WITH_NOTATION = sorted(
    p
    for p in MODULES.glob("*.yaml")
    if isinstance(yaml.load(p.read_text(encoding="utf-8"), Loader=_FAST).get("notation"), dict)
)


@pytest.mark.parametrize("path", WITH_NOTATION, ids=lambda p: p.stem)
def test_every_notation_line_has_a_german_text_with_the_same_record_examples(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    en, de = data["notation"], data.get("notation_de")
    assert isinstance(de, dict), f"{path.name} has no notation_de"
    assert list(de) == list(en)
    for key, text in en.items():
        assert re.findall(r"`[^`]*`", de[key]) == re.findall(r"`[^`]*`", text), key
        words = re.sub(r"`[^`]*`", "", text).strip(" .,;:()-'\"")
        if words:  # a text that is only a record example has nothing to translate
            assert de[key] != text, f"{path.name}: {key} is not translated"


def test_modules_in_german_shows_the_german_notation() -> None:
    got = CliRunner().invoke(cli, ["modules", "sultan", "--lang", "de"])
    assert got.exit_code == 0, got.output
    de = yaml.safe_load((MODULES / "sultan.yaml").read_text(encoding="utf-8"))["notation_de"]
    for key, text in de.items():  # the labels in German too (issue 31: `draw` -> `ziehen`)
        assert f"  {notation_label(key, 'de')}: {text}" in got.output
    en = CliRunner().invoke(cli, ["modules", "sultan", "--lang", "en"]).output
    assert "a sultan card revealed from the money deck" in en
