"""Die Diamanten with module money (issue 31): a payment that combines diamonds with a
master-builder card or a coin is DIAMOND-MIX naming those cards, never "mb:Gu is not Gu".

rulebook-bigbox-de-2019.txt:
* § Die Diamanten, "Wie setzt man Diamanten ein?" (L976-980): "Diamanten ersetzen dabei jede
  andere Währung. Allerdings dürfen sie nicht mit anderen Währungen kombiniert werden."
* § Die Baumeister, "Geldfunktion" (L1639-1643): "Zunächst ist jede Baumeisterkarte eine
  normale Geldkarte mit dem Wert „3” (in den verschiedenen Währungen). Auch für diese Karten
  gelten alle Regeln, die das Geld betreffen".
* § Das Wechselgeld (L1371-1373): Münzen "haben den Wert 1 und werden wie eine Geldkarte in
  der entsprechenden Währung eingesetzt".
"""

from __future__ import annotations

import pytest

from referee.engine import GameReport, check_game
from referee.notation import parse_text

RECORD = """[Players "Anna, Ben, Cem"]
[Modules "diamanten, baumeister, wechselgeld"]

position
  scorings 0
  market Gu:G11 Di:T9ne De:A5 Du:C8
  display Gu1 Di4 De6 Du2
  player Anna
    score 0
    hand Gu1 Di2 dm:7 mb:Gu mb:Di co:Gu
  player Ben
    score 0
    hand Gu3
  player Cem
    score 0
    hand Di3
end
1. Anna: buy Gu G11 pay {pay}
"""


def run(pay: str) -> GameReport:
    games = parse_text(RECORD.format(pay=pay), "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


@pytest.mark.parametrize(
    ("pay", "named"),
    [
        ("dm:7 mb:Gu", "mb:Gu"),  # a master-builder card of the field's currency
        ("dm:7 co:Gu", "co:Gu"),  # a coin of the field's currency
        ("dm:7 Gu1 mb:Gu", "Gu1 mb:Gu"),  # a money card and a master-builder card
    ],
)
def test_diamonds_with_module_money_is_diamond_mix(pay: str, named: str) -> None:
    rep = run(pay)
    codes = [v.code for v in rep.violations]
    assert "BUY-CURRENCY" not in codes, [v.message() for v in rep.violations]
    (mix,) = [v for v in rep.violations if v.code == "DIAMOND-MIX"]
    assert mix.player == "Anna"
    assert f"Anna pays dm:7 together with {named}:" in mix.message()
    assert f"Anna bezahlt dm:7 zusammen mit {named}:" in mix.message("de")
    assert "kombiniert werden" in mix.message("de")
    for v in rep.violations:  # never "mb:Gu is not Gu"
        assert " is not Gu" not in v.message()


def test_diamonds_with_module_money_of_another_currency() -> None:
    # named in DIAMOND-MIX; that it is not the field's currency is reported as for a Di card
    rep = run("dm:7 mb:Di")
    (mix,) = [v for v in rep.violations if v.code == "DIAMOND-MIX"]
    assert "together with mb:Di:" in mix.message()
    card = run("dm:7 Di2")
    assert [v.code for v in rep.violations] == [v.code for v in card.violations]


def test_module_money_of_the_field_counts_like_a_card_of_it() -> None:
    # a master-builder card "mit dem Wert 3" counts as laid down, as a money card of the
    # field's currency does: 7 + 1 + 3 = 11 is no underpayment (only the mix is wrong)
    rep = run("dm:7 Gu1 mb:Gu")
    assert "BUY-UNDERPAID" not in [v.code for v in rep.violations]


def test_module_money_without_diamonds_is_still_checked_for_its_currency() -> None:
    rep = run("Gu1 mb:Di mb:Gu co:Gu")
    (v,) = [v for v in rep.violations if v.code == "BUY-CURRENCY"]
    assert "mb:Di" in v.message()
