"""Cross-module rules of wave B with both modules enabled (digest §13.1; each quoted from
rulebook-bigbox-de-2019.txt). The positions are those of ``test_module_diamanten`` (three
players, the market of the Diamanten section's example: Gu:S9 Di:A7 De:P6 Du:T12).
"""

from __future__ import annotations

from conftest import codes, messages, module
from test_module_diamanten import at


def test_change_is_drawn_when_diamonds_overpay() -> None:
    # Das Wechselgeld: "Auch wenn mit Diamanten [siehe Seite 13] überzahlt wird, gibt es
    # Wechselgeld."
    # the arcades 7 paid with diamonds 5 + 4 = 9: two units overpaid, one coin
    body = "1. Anna: buy Di A7 pay dm:5 dm:4, reserve A7\n* market Di:G8ne, change Anna co:Gu\n"
    rep = at(body, modules="diamanten, wechselgeld")
    assert codes(rep) == [], messages(rep)


def test_change_for_diamonds_is_counted_like_any_overpayment() -> None:
    body = (
        "1. Anna: buy Di A7 pay dm:5 dm:4, reserve A7\n* market Di:G8ne, change Anna co:Gu co:Di\n"
    )
    rep = at(body, modules="diamanten, wechselgeld")
    assert codes(rep) == ["WECHSELGELD-COUNT"], messages(rep)


def test_diamonds_set_up_a_building_site() -> None:
    # Die Baustellen: "Diamanten ... können zur Einrichtung und Fertigstellung einer Baustelle
    # eingesetzt werden." -- the tower 12 for half its price, 6, paid with diamonds 5 + 4
    rep = at(
        "1. Anna: buy Du T12 pay dm:5 dm:4 bs:De, reserve T12\n", modules="diamanten, baustellen"
    )
    assert codes(rep) == [], messages(rep)


def test_diamonds_below_half_the_price_do_not_set_up_a_site() -> None:
    rep = at("1. Anna: buy Du T12 pay dm:5 bs:De, reserve T12\n", modules="diamanten, baustellen")
    assert codes(rep) == ["SITE-HALF-PRICE"], messages(rep)


def test_module_order_in_the_header_does_not_matter() -> None:
    body = "1. Anna: buy Du T12 pay dm:5 dm:4 bs:De, reserve T12\n"
    assert codes(at(body, modules="baustellen, diamanten")) == []


_SITE = (
    "1. Anna: buy Du T12 pay dm:6 bs:De, place T12@1,0\n* market Du:G8ne\n"
    "2. Ben: take Gu1\n* display Gu2\n3. Cem: take Di4\n* display Di5\n"
)


def test_diamonds_complete_a_building_site() -> None:
    # "... können zur Einrichtung und Fertigstellung einer Baustelle eingesetzt werden": the
    # full price 12 paid with diamonds 5 + 4 + 3 is exact ("noch einmal am Zug": the take)
    body = _SITE + "4. Anna: complete T12 bs:De pay dm:5 dm:4 dm:3, take Gu2\n"
    rep = at(body, hand="dm:6 dm:5 dm:4 dm:3", modules="diamanten, baustellen")
    assert codes(rep) == [], messages(rep)
    anna = rep.state.player_named("Anna") if rep.state is not None else None
    assert anna is not None and not module(rep, "diamanten").hand(rep.state, anna)


def test_diamonds_short_of_the_full_price_do_not_complete_a_site() -> None:
    body = _SITE + "4. Anna: complete T12 bs:De pay dm:5 dm:4\n"
    rep = at(body, hand="dm:6 dm:5 dm:4 dm:3", modules="diamanten, baustellen")
    assert codes(rep) == ["BUY-UNDERPAID"], messages(rep)  # the payment service's code


def test_diamonds_do_not_mix_with_the_backs_currency_when_completing() -> None:
    body = _SITE + "4. Anna: complete T12 bs:De pay dm:5 dm:4 De3\n"
    rep = at(body, hand="dm:6 dm:5 dm:4 De3", modules="diamanten, baustellen")
    assert codes(rep) == ["DIAMOND-MIX"], messages(rep)
