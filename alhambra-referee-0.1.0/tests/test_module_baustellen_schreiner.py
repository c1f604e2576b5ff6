"""Die Baustellen with Handwerker's Schreiner (found by the simulated games of all modules): a
building site is set up by paying "mindestens die Hälfte des geforderten Kaufpreises
(abgerundet)" (Baustellen); the Schreiner "Verringert beim Bezahlen den Kaufpreis eines
ausliegenden Gebäudes um 1 oder 2" (L3131-3133). A payment of at least half the printed price
was reported as SITE-HALF-PRICE when the Schreiner lowered the price (the lowered price was
compared, not the value paid)."""

from __future__ import annotations

from conftest import codes, messages

from referee.engine import GameReport, check_game
from referee.notation import parse_text


def _game(body: str) -> GameReport:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "baustellen, handwerker"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Gu9
    craftsmen hw:goldschmied hw:schreiner
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:moertelmischer hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
{body}"""
    games = parse_text(text, "site.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def test_a_site_paid_with_half_the_price_under_the_schreiner_is_clean() -> None:
    # P7: half 3; De4 is paid while the Schreiner lowers the price by 2
    rep = _game(
        "1. Anna: schreiner 2, buy De P7e pay De4 bs:De, reserve P7e, handover hw:schreiner\n"
    )
    assert "SITE-HALF-PRICE" not in codes(rep), messages(rep)


def test_less_than_half_the_printed_price_is_still_reported() -> None:
    rep = _game(
        "1. Anna: schreiner 2, buy De P7e pay De2 bs:De, reserve P7e, handover hw:schreiner\n"
    )
    assert "SITE-HALF-PRICE" in codes(rep), messages(rep)
    assert "pays 2 for P7" in messages(rep)[codes(rep).index("SITE-HALF-PRICE")]
