"""Issue 31: "German everywhere: ... `modules NAME --lang de`, "(none)" ..." and the words of
module pieces and verbs coming from the modules (``Module.piece_words`` / ``verb_words``), so
that a new module needs no edit of ``referee/reports/pieces.py``."""

from __future__ import annotations

from typing import ClassVar

import pytest
from click.testing import CliRunner

from referee.cli import cli
from referee.commands.modules import _NOTATION_DE, _unique
from referee.engine.extensions import MODULES, Module
from referee.engine.fmt import fmt_cards
from referee.messages import render
from referee.modules.base import module_data
from referee.reports.pieces import kind_words, module_line_words, piece_words, verb_words


def test_every_notation_label_has_german() -> None:
    """Each label of a module's notation examples (``draw``, ``claim``, ...) is German under
    ``--lang de`` (read from every bundled module's YAML, not hand-listed)."""
    keys = {k for cls in _unique() for k in (module_data(cls.name).get("notation") or {})}
    assert keys, "no module has notation examples"
    assert keys <= set(_NOTATION_DE), sorted(keys - set(_NOTATION_DE))


def test_modules_name_in_german_has_german_labels() -> None:
    out = CliRunner().invoke(cli, ["modules", "medina", "--lang", "de"]).output
    assert "  ziehen: `* market Gu:md:5n`" in out
    assert "  Wertung: `scoring 2:" in out and "  Optionen: `[Modules" in out
    assert "\n  draw:" not in out and "\n  claim:" not in out
    en = CliRunner().invoke(cli, ["modules", "medina"]).output
    assert "  draw: `* market Gu:md:5n`" in en


def test_no_cards_is_a_word_of_the_language() -> None:
    """An empty display in a finding: "(none)" in English, "(keine)" in German."""
    shown = fmt_cards([])
    assert shown == "(none)"
    en = render("en", "REFILL-DISPLAY", {"display": shown}, "not-refilled")
    de = render("de", "REFILL-DISPLAY", {"display": shown}, "not-refilled")
    assert "the display (none) was not refilled" in en
    assert "die Auslage (keine) wurde" in de and "(none)" not in de


@pytest.fixture
def zoo_module():  # type: ignore[no-untyped-def]
    """A module of the test's own that names its pieces and verbs itself."""

    class Zoo(Module):
        name = "zoo-words"
        verbs = ("feed",)
        component_kinds = ("zz",)
        piece_words: ClassVar[dict[str, tuple[str, str]]] = {
            "zz": ("zebra", "Zebra"),
            "md": ("town quarter", "Stadtviertel"),
        }
        verb_words: ClassVar[dict[str, tuple[str, str]]] = {
            "feed": ("feeds the zebra", "füttert das Zebra")
        }

    MODULES[Zoo.name] = Zoo
    yield Zoo
    MODULES.pop(Zoo.name, None)


def test_a_module_names_its_pieces_and_verbs_itself(zoo_module: type[Module]) -> None:
    from referee.record.model import ComponentRef

    assert kind_words("zz", "de") == "Zebra" and kind_words("zz", "en") == "zebra"
    assert piece_words(ComponentRef("zz", "3"), "de") == "Zebra"
    assert verb_words("feed", "de") == "füttert das Zebra"
    assert module_line_words("feed", (ComponentRef("zz", "1"),), "en") == (
        "feeds the zebra: zebra (zz:1)"
    )
    # the module's own words come before the fallback table
    assert kind_words("md", "en") == "town quarter"


def test_without_the_hook_the_table_answers() -> None:
    assert kind_words("md", "de") == "Medina"
    assert verb_words("vizier", "en") == "uses the vizier"
    assert kind_words("nosuchkind", "en") is None
