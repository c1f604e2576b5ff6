"""Module lines in the scoring breakdown speak the report's language (issue 6: every breakdown
in English and German)."""

from pathlib import Path

from click.testing import CliRunner

from referee.catalogue import BuildingType
from referee.cli import cli
from referee.scoring import CountAdjustment

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-all-four.alh"


def test_adjustment_text_falls_back_to_english() -> None:
    both = CountAdjustment(BuildingType.TOWER, 1, "bonus card T12", "Bonuskarte T12")
    only_en = CountAdjustment(BuildingType.TOWER, 1, "bonus card T12")
    assert both.text("de") == "Bonuskarte T12"
    assert both.text("en") == "bonus card T12"
    assert only_en.text("de") == "bonus card T12"


def test_bonus_cards_and_squares_in_german_breakdown() -> None:
    de = CliRunner().invoke(cli, ["check", "--lang", "de", str(EXAMPLE)]).output
    en = CliRunner().invoke(cli, ["check", "--lang", "en", str(EXAMPLE)]).output
    assert "Bonuskarte P8" in de and "bonus card" not in de
    assert "zählt wie 1 Pavillon" in de and "counts as" not in de
    assert "bonus card P8" in en and "counts as 1 pavilion" in en
