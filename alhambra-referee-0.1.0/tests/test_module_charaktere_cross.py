"""Die Charaktere with the modules whose sections name it (digest §13.1), each with both
modules enabled: the vizier (L1061-1063), diamonds (L992-993), exchange cards (L1037-1039),
change (L1385-1387), master builders (L1664-1666), scouts (L1755-1757), bazaars (L1856-1857)
and the caravanserai with the Bettler (L2168-2170)."""

from __future__ import annotations

from conftest import view
from test_module_charaktere import REST, T1, codes, owned, position, reasons, run


def test_no_character_with_the_vizier() -> None:
    # "Anmerkung: Wer seinen Wesirstein einsetzt [siehe Seite 8], darf dabei keine
    # Charakterkarte verwenden." (L1061-1063)
    turn = "1. Anna: take Gu4\n* display Gu5\n"
    body = turn + "Ben: vizier, buy Gu G11- pay ch:Goenner, place G11-@1,0\n"
    rep = position(body + "* market Gu:T9ne\n", "charaktere, wesir", ben="characters ch:Goenner")
    assert "CHARAKTERE-VIZIER" in codes(rep)
    # the Geizhals is not triggered by a vizier purchase either
    body = turn + "Ben: vizier, buy Gu G11- pay Gu1 Gu5 Gu5, place G11-@1,0\n"
    rep = position(
        body + "* market Gu:T9ne\n2. Ben: miser Di3, take Du8\n",
        "charaktere, wesir",
        ben="characters ch:Geizhals",
    )
    assert ("CHARAKTERE-MISER", "no-purchase") in reasons(rep)


def test_diamonds_may_pay_a_bid() -> None:
    # "Mit Diamanten darf auch ein Gebot für eine Charakterkarte ... bezahlt werden." (L992-993)
    auction = "1. Anna: take Gu4\n* display Gu5 ch:Weise\nBen: pass\nCem: pass\n"
    body = auction + "Anna: bid 9 pay dm:5 dm:4\n"
    rep = position(body, "charaktere, diamanten", hand="dm:5 dm:4 Gu3")
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Anna") == "ch:Weise"


def test_an_exchange_card_may_be_used_for_a_bid() -> None:
    # "Man darf nur Beträge bieten, die man in einer Währung bezahlen kann (eine
    # Wechselstubenkarte darf genutzt werden)." (L1036-1039)
    auction = "1. Anna: take Di3\n* display Gu5 ch:Weise\nBen: pass\nCem: pass\n"
    body = auction + "Anna: bid 6 pay Gu4 De2 ex:GuDe\n"
    rep = position(body, "charaktere, wechselstuben", hand="Gu4 De2 ex:GuDe")
    assert codes(rep) == [], rep.violations
    assert owned(rep, "Anna") == "ch:Weise"
    body = (
        "1. Anna: take Di3\n* display Gu5 ch:Weise\nBen: pass\nCem: pass\nAnna: bid 6 pay Gu4 De2\n"
    )
    rep = position(body, "charaktere, wechselstuben", hand="Gu4 De2 ex:GuDe")
    assert "PAY-ONE-CURRENCY" in codes(rep)


def test_an_overpaid_bid_gets_change() -> None:
    # "Wer beim Ersteigern der Charakterkarten [siehe Seite 14] ... überzahlt, bekommt ebenfalls
    # Wechselgeld." (L1385-1387)
    bid = T1 + "* display Gu3 ch:Weise\nCem: pass\nAnna: bid 5 pay De7\nBen: pass\n"
    rep = run(
        bid + "* display De4, change Anna co:Gu\n2. Cem: take De4\n", "charaktere, wechselgeld"
    )
    assert codes(rep) == [], rep.violations
    rep = run(bid + REST, "charaktere, wechselgeld")
    assert "WECHSELGELD-FORFEIT" in codes(rep)


def test_the_baumeister_character_and_a_master_builder_card_in_one_turn() -> None:
    # "Der Charakter „Baumeister“ darf zusammen mit 1 Baumeisterkarte am Ende eines Spielzuges
    # eingesetzt werden." (L1664-1666)
    body = "1. Anna: take Di3, architect, remove S9-@0,1, master mb:Du, build S9-@0,1\n"
    rep = position(
        body, "charaktere, baumeister", anna="characters ch:Baumeister", hand="Gu4 mb:Du"
    )
    assert [c for c in codes(rep) if c != "BAUMEISTER-DEAL"] == [], rep.violations


def test_the_goenner_pays_exactly_so_the_scout_may_follow() -> None:
    # "Beim „Wesir“ und „Der reiche Gönner“ wird passend bezahlt: Dies ermöglicht auch den
    # Kundschafter." (L1755-1757)
    body = "1. Anna: buy Gu G11- pay ch:Goenner, place G11-@1,0, scout sc:G\n"
    rep = position(
        body, "charaktere, angreifer", anna="characters ch:Goenner", table="  scouts sc:G\n"
    )
    assert codes(rep) == [], rep.violations


def test_the_goenner_may_buy_a_bazaar() -> None:
    # "Mit „Wesir“ und „Der reiche Gönner“ können Bazare gekauft werden." (L1856-1857)
    body = "1. Anna: buy bz:DePSA pay ch:Goenner, take Gu4, place bz:DePSA@1,0\n"
    rep = position(
        body, "charaktere, bazare", anna="characters ch:Goenner", table="  aside De bz:DePSA\n"
    )
    assert codes(rep) == [], rep.violations


def test_caravanserais_are_no_money_cards_for_the_bettler() -> None:
    # "Der Bettler: Karawansereien zählen nicht zu den Geldkarten, die der Spieler auf der Hand
    # hat." (L2168-2170)
    rep = position(
        "1. Anna: beggar Gu5, take Gu4\n",
        "charaktere, karawanserei",
        anna="characters ch:Bettler\n    caravan kw:1 Du2",
        hand="Du3 Di2",
    )
    assert codes(rep) == [], rep.violations
    assert view(rep, "karawanserei")["players"]["Anna"]


def test_the_taenzerin_s_new_building_may_be_claimed_with_a_sultan_card() -> None:
    # "Das von der Tänzerin [siehe Seite 14] neu gezogene Gebäudeplättchen kann durch die
    # „Macht des Sultans“ erworben werden." (L2056-2058): Ben swaps the Dirham field's
    # building before his turn, Anna claims the new tower with her card marked T
    body = (
        "1. Anna: take Gu4\n* display Gu5\n"
        "Ben: dancer Di T9ne\n"
        "Anna: sultan su:DeT T9ne, reserve T9ne\n"
        "* market Di:G8ne\n"
        "2. Ben: take Du2\n"
    )
    rep = position(body, "charaktere, sultan", anna="sultan su:DeT", ben="characters ch:Taenzerin")
    assert codes(rep) == [], rep.violations
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and [str(t) for t in anna.reserve] == ["T9ne"]


def test_the_bettler_may_draw_a_diamond() -> None:
    # "Ist dies keine Geld- oder Wechselstubenkarte, wird nach der entsprechenden Regel
    # verfahren" (L1106-1108): a diamond is money ("Diamanten bekommt man wie andere
    # Geldkarten auch", L972)
    rep = position(
        "1. Anna: beggar dm:5, take Gu4\n",
        "charaktere, diamanten",
        anna="characters ch:Bettler",
        hand="Du3",
    )
    assert codes(rep) == [], rep.violations
    assert "dm:5" in str(view(rep, "diamanten"))


def test_no_vizier_line_is_offered_with_a_character_card() -> None:
    # the legal-move generator asks the same rule (L1061-1063): Ben holds the Gönner, which
    # pays a purchase in his own turn, but no vizier line offers it
    from test_module_charaktere import _text

    from referee.engine.legal import legal_interrupts
    from referee.engine.walk import At, state_at
    from referee.notation import parse_text
    from referee.notation.formatter import action as written

    turn = "1. Anna: take Gu4\n* display Gu5\n"
    text = _text(turn, "charaktere, wesir", ben="characters ch:Goenner")
    state, _ = state_at(parse_text(text)[0], At("turn", 1))
    lines = [written(a) for line in legal_interrupts(state) for a in line.actions]
    assert not [x for x in lines if "ch:Goenner" in x], lines
