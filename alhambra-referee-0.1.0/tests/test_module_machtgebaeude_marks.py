"""Die Gebäude der Macht, Gebäude der Baukunst: the tile hidden under a market field ("legt es
verdeckt unter eines der Plättchen auf dem Bauhof", rulebook-bigbox-de-2019.txt L3610-3611) on
the terminal's market line (``show``) and the SVG picture's (``render``), in English and German
(golden files ``tests/golden/show/machtgebaeude-hidden-*.txt`` and
``tests/golden/render/machtgebaeude-hidden-*.svg``; ``UPDATE_GOLDEN=1`` rewrites them).
Platform: ``Module.market_marks`` (translated by the module's view terms) and ``render_svg``'s
``market`` line.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import cli
from referee.reports.svg import render_svg

GOLDEN = Path(__file__).parent / "golden"

RECORD = """[Players "Anna, Ben, Cem"]
[Modules "machtgebaeude"]

position
  next Anna
  market Gu:G11 Di:gm:bk_A7 De:P7 Du:T12
  display Gu4 Di3 De2 Du9
  player Anna
    score 10
    hand Di9 Di1 Gu8 De7 Du5
  player Ben
    hand Du8 Di5 Gu1
  player Cem
    hand Gu2 Di9
end
1. Anna: buy Di gm:bk_A7 pay Di9, place gm:bk_A7@1,1
* market Di:C10, roll Anna red 3, hide Anna Gu C5 back T7 A5
"""


def check_golden(path: Path, text: str) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def run(tmp_path: Path, *args: str, record: str = RECORD) -> str:
    src = tmp_path / "hidden.alh"
    src.write_text(record, encoding="utf-8")
    res = CliRunner().invoke(cli, [args[0], str(src), *args[1:]])
    assert res.exit_code == 0, res.output
    return res.output.replace(str(tmp_path) + os.sep, "")  # the same golden in every folder


@pytest.mark.parametrize(("lang", "word"), [("en", "hidden"), ("de", "verdeckt")])
def test_the_market_line_shows_the_hidden_tile(tmp_path: Path, lang: str, word: str) -> None:
    out = run(tmp_path, "show", "--lang", lang, "--color", "never")
    line = next(x for x in out.splitlines() if x.startswith(("Market:", "Bauhof:")))
    assert "Gu: G11 " in line and f"[{word} C5]" in line
    check_golden(GOLDEN / "show" / f"machtgebaeude-hidden-{lang}.txt", out)
    # before the tile is hidden: no mark
    before = run(tmp_path, "show", "--lang", lang, "--at", "start", "--color", "never")
    assert f"[{word}" not in before


@pytest.mark.parametrize(("lang", "word"), [("en", "hidden"), ("de", "verdeckt")])
def test_the_svg_writes_the_market_line_with_the_hidden_tile(
    tmp_path: Path, lang: str, word: str
) -> None:
    svg = run(tmp_path, "render", "--lang", lang)
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [e for e in root.iter("{http://www.w3.org/2000/svg}text") if e.get("class") == "market"]
    assert len(texts) == 1 and f"[{word} C5]" in (texts[0].text or "")
    check_golden(GOLDEN / "render" / f"machtgebaeude-hidden-{lang}.svg", svg)


def test_a_picture_without_marks_has_no_market_line(tmp_path: Path) -> None:
    plain = RECORD.replace(", roll Anna red 3, hide Anna Gu C5 back T7 A5", "")
    assert 'class="market"' not in run(tmp_path, "render", record=plain)


def test_the_market_line_is_escaped_in_the_svg() -> None:
    # record text goes into the picture escaped (a mark is a module's text from record tokens)
    svg = render_svg([], "en", title="t", market='Market: Gu: G11 [<b>&"x"]')
    ET.fromstring(svg.encode("utf-8"))
    assert "[&lt;b&gt;&amp;" in svg and "<b>" not in svg
