"""Issue 31, messages: "A wrong module score claim cites `rulebook-base-de-2003.txt § Wertungen`;
under `[Rules "queen-bigbox-2019"]` base findings cite the 2003 book. Cite the module's section
and the profile's book."

Each finding carries the rule text it cites (``Violation.cite()``): a module's scoring part cites
the module's section of the Big Box book (``rulebook-bigbox-de-2019.txt § MEDINA:
Wertungsänderungen``: "Bei jeder Wertung erhält der Spieler mit den wenigsten Medinas ...");
a base finding cites the book the profile names (``rulebook:``), the Big Box book telling the
same base game under its own headings ("Geld nehmen" under "Spielablauf", "Ende des Spielzuges").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import cli
from referee.engine.rules import BASE, BIGBOX, BIGBOX_BASE_SECTIONS, RULES, cited_section
from referee.profiles import ProfileError, load_profile

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
RULES_DIR = Path("/work/shared/rules")


def _violations(path: Path) -> list[dict[str, object]]:
    res = CliRunner().invoke(cli, ["check", str(path), "--format", "json"])
    return json.loads(res.output)["games"][0]["violations"]  # type: ignore[no-any-return]


def _variant(tmp_path: Path, name: str, edits: list[tuple[str, str]]) -> Path:
    text = (EX / name).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


@pytest.mark.parametrize("profile", ["queen-2003", "queen-bigbox-2019"])
def test_a_wrong_module_score_claim_cites_the_module_section(tmp_path: Path, profile: str) -> None:
    """The record's medina claim of scoring 1 (Cem -3) changed to -2: the finding cites the
    MEDINA section, under either profile (the module's text is the Big Box book's)."""
    path = _variant(
        tmp_path,
        "module-medina.alh",
        [("Cem =7 (medina=-3)", "Cem =7 (medina=-2)"), ("queen-2003", profile)],
    )
    (v,) = _violations(path)
    assert v["code"] == "SCORE-CLAIM"
    assert v["section"] == f"{BIGBOX} § MEDINA: Wertungsänderungen"
    res = CliRunner().invoke(cli, ["check", str(path)])
    assert f"[{BIGBOX} § MEDINA: Wertungsänderungen]" in res.output, res.output


def test_a_base_claim_cites_the_profile_book(tmp_path: Path) -> None:
    """A wrong total cites § Wertungen of the book the profile names."""
    edits = [("Anna =12 (medina=0)", "Anna =13 (medina=0)")]
    (v,) = _violations(_variant(tmp_path, "module-medina.alh", edits))
    assert v["section"] == f"{BASE} § Wertungen"
    edits.append(("queen-2003", "queen-bigbox-2019"))
    (v,) = _violations(_variant(tmp_path, "module-medina.alh", edits))
    assert v["section"] == f"{BIGBOX} § Wertungen"


def test_base_findings_under_the_bigbox_profile_cite_the_bigbox_book(tmp_path: Path) -> None:
    """Geld nehmen: "mehrere Karten ... deren Gesamtwert höchstens 5 beträgt" -- the Big Box
    book tells it under Spielablauf (L218); the 2003 profile keeps the 2003 section."""
    (v,) = _violations(EX / "illegal-take.alh")
    assert (v["code"], v["section"]) == ("TAKE-SUM", f"{BASE} § Geld nehmen")
    (v,) = _violations(
        _variant(tmp_path, "illegal-take.alh", [("queen-2003", "queen-bigbox-2019")])
    )
    assert (v["code"], v["section"]) == ("TAKE-SUM", f"{BIGBOX} § Spielablauf: Geld nehmen")
    res = CliRunner().invoke(cli, ["check", str(tmp_path / "illegal-take.alh"), "--lang", "de"])
    assert f"[{BIGBOX} § Spielablauf: Geld nehmen]" in res.output


def test_every_base_section_has_its_bigbox_heading() -> None:
    """Every base rule's citation becomes a Big Box citation, and every mapped heading is one
    the Big Box book has (its lines are checked where the rulebooks are at hand)."""
    for r in RULES.values():
        if r.section.startswith(BASE):
            cited = cited_section(r.section, BIGBOX)
            assert BASE not in cited, (r.code, cited)
    assert cited_section(f"{BASE} § Wertungen", BASE) == f"{BASE} § Wertungen"
    book = RULES_DIR / BIGBOX
    if not book.exists():
        pytest.skip("the rulebooks are not beside the checkout")
    lines = {line.strip() for line in book.read_text(encoding="utf-8").splitlines()}
    for heading in BIGBOX_BASE_SECTIONS.values():
        for part in heading.split(": "):
            assert part in lines, part


def test_the_profile_names_its_rulebook(tmp_path: Path) -> None:
    """``rulebook`` is inherited (a club profile extending the Big Box one cites it too) and must
    be a book of the project."""
    assert load_profile("queen-2003").rulebook == BASE
    assert load_profile("queen-bigbox-2019").rulebook == BIGBOX
    club = tmp_path / "club.yaml"
    club.write_text("extends: queen-bigbox-2019\nreserve_limit: 4\n", encoding="utf-8")
    assert load_profile(str(club)).rulebook == BIGBOX
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: queen-2003\nrulebook: my-notes.txt\n", encoding="utf-8")
    with pytest.raises(ProfileError, match="rulebook"):
        load_profile(str(bad))
