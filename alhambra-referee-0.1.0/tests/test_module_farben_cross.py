"""Frische Farben with the modules that also react to an overpayment or change which currency
pays (digest §13.2.1: one purchase, its after-purchase reactions in a fixed order: change coins,
certificate, ..., the Frische Farben take). The texts of the modules never exclude each other, so
each reaction happens, computed from the one overpayment (``purchase.overpaid``)."""

from __future__ import annotations

from conftest import codes, messages, view
from test_module_farben import FIELDS, position

NOISE = ("REFILL-DISPLAY", "FARBEN-MISSING")


def test_change_and_a_colour_take_from_one_overpayment() -> None:
    # Wechselgeld: "Überzahlt ein Spieler beim Gebäudekauf, hat er nun Anspruch auf
    # Wechselgeld" (one coin per two overpaid); Frische Farben: "und das Gebäude
    # überbezahlt, darf er ..." (L3305-3312): 9 for the arcades 4 overpays 5: two coins and
    # the take
    body = "1. Anna: buy Gu A4 pay Gu9, colour fc:p fc:p, reserve A4\n* change Anna co:Gu co:De\n"
    rep = position(body, modules="farben, wechselgeld")
    assert codes(rep, NOISE) == [], messages(rep)
    assert view(rep, "farben")["players"]["Anna"]["colour tiles"] == "2 purple"


def test_an_overpayment_by_one_takes_colours_but_draws_no_coin() -> None:
    body = "1. Anna: buy Gu A4 pay Gu3 Gu2, colour fc:b, reserve A4\n* change Anna co:Gu\n"
    rep = position(body, hand="Gu3 Gu2 De8", modules="farben, wechselgeld")
    assert codes(rep, NOISE) == ["WECHSELGELD-CLAIM"], messages(rep)
    rep = position(body.split("*")[0], hand="Gu3 Gu2 De8", modules="farben, wechselgeld")
    assert codes(rep, NOISE) == [], messages(rep)


def test_a_stored_certificate_and_a_colour_take_from_one_overpayment() -> None:
    # Wechselscheine: the overpaid 5 are stored; the same overpayment takes a colour tile
    body = "1. Anna: buy Gu A4 pay Gu9, certificate ws:De5, colour fc:b, reserve A4\n"
    rep = position(body, modules="farben, wechselscheine")
    assert codes(rep, NOISE) == [], messages(rep)


def test_an_exchange_card_takes_from_the_field_s_column() -> None:
    # Wechselstuben: a Gulden building paid with Gulden and Denar and the exchange card GuDe.
    # Reading (column=field): the paid currency is the field's, Gulden (docs/modules/farben.md)
    body = "1. Anna: buy Gu A4 pay Gu2 De8 ex:GuDe, colour fc:r fc:r, reserve A4\n"
    table = FIELDS + "\n  column De rr g p"
    rep = position(body, hand="Gu2 De8 ex:GuDe", modules="farben, wechselstuben", table=table)
    assert codes(rep, NOISE) == ["FARBEN-COLUMN"], messages(rep)
    ok = body.replace("fc:r fc:r", "fc:b")
    rep = position(ok, hand="Gu2 De8 ex:GuDe", modules="farben, wechselstuben", table=table)
    assert codes(rep, NOISE) == [], messages(rep)
    # column=paid: the Denar column, whose money paid too
    rep = position(
        body, hand="Gu2 De8 ex:GuDe", modules="farben column=paid, wechselstuben", table=table
    )
    assert codes(rep, NOISE) == [], messages(rep)
    rep = position(
        "1. Anna: buy Gu A4 pay Gu2 De8 ex:GuDe, project fp:A, reserve A4\n",
        hand="Gu2 De8 ex:GuDe",
        modules="farben column=paid, wechselstuben",
    )
    assert codes(rep, NOISE) == [], messages(rep)  # the Denar field's project


def test_an_exact_payment_with_an_exchange_card_takes_nothing() -> None:
    body = "1. Anna: buy Gu A4 pay Gu2 De2 ex:GuDe, colour fc:b, reserve A4\n"
    rep = position(body, hand="Gu2 De2 ex:GuDe", modules="farben, wechselstuben")
    assert codes(rep, NOISE) == ["FARBEN-NO-OVERPAY"], messages(rep)
