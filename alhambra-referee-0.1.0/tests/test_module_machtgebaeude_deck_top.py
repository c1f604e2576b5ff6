"""Die Gebäude der Macht, Gebäude der Weisheit, reading (h) completed (thirteenth step): the
cards put back "beliebig sortiert auf den Stapel" (rulebook-bigbox-de-2019.txt L3624-3625) are
the next cards drawn from the deck, so a module's own card turned up from the deck before them
(an exchange card, a diamond, a character card revealed into the display; a character card the
Bettler draws) is ``MACHT-WISDOM`` ``back-order`` too; and a position block carries the cards
still on top (``ontop Anna 2 De3 Gu7``), so the check goes on after it.
"""

from __future__ import annotations

import pytest
from test_module_machtgebaeude import MOD, position, reasons
from test_module_machtgebaeude_weisheit import BUY, HAND, MARKET

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.notation import parse_text

WISDOM = "* roll Anna red 3, wisdom Anna keep Di5 back De3 Gu7\n"
BEN = "2. Ben: take Du9\n"  # one card to refill


def _after(rest: str, modules: str = MOD) -> list[str]:
    rep = position(BUY + WISDOM + rest, modules=modules, market=MARKET, hand=HAND)
    return [r for r in reasons(rep) if r.startswith("MACHT-WISDOM")]


@pytest.mark.parametrize(
    ("module", "token"),
    [("wechselstuben", "ex:GuDe"), ("diamanten", "dm:5"), ("charaktere", "ch:Weise")],
)
def test_a_module_card_revealed_before_the_cards_put_back_is_reported(
    module: str, token: str
) -> None:
    got = _after(BEN + f"* display {token}\n", f"{MOD}, {module}")
    assert got == ["MACHT-WISDOM/back-order"]


def test_a_module_card_after_the_cards_put_back_is_clean() -> None:
    cem = "3. Cem: take Gu4\n"
    body = BEN + "* display Gu7\n" + cem + "* display De3\n4. Anna: take Di3\n* display ex:GuDe\n"
    assert _after(body, f"{MOD}, wechselstuben") == []


def test_the_message_names_the_module_card_and_the_cards_expected() -> None:
    rep = position(
        BUY + WISDOM + BEN + "* display ex:GuDe\n",
        modules=f"{MOD}, wechselstuben",
        market=MARKET,
        hand=HAND,
    )
    v = next(v for v in rep.violations if v.reason == "back-order")
    assert "ex:GuDe" in v.message("en") and "De3 Gu7" in v.message("en")
    assert "ex:GuDe" in v.message("de")


def _position_of(rest: str = "") -> str:
    rep = position(BUY + WISDOM + rest, market=MARKET, hand=HAND)
    assert rep.state is not None
    return f'[Players "Anna, Ben, Cem"]\n[Modules "{MOD}"]\n\n' + position_text(rep.state)


def test_a_position_carries_the_cards_on_top_of_the_deck() -> None:
    text = _position_of()
    assert "  ontop Anna 2 De3 Gu7\n" in text
    (again,) = parse_text(text)
    assert not again.errors
    state = check_game(again).state
    assert state is not None
    (layer,) = state.deck_top
    assert (layer.player, layer.left, [str(c) for c in layer.cards]) == ("Anna", 2, ["De3", "Gu7"])
    assert position_text(state) == text.split("\n\n", 1)[1]  # the same block again


def test_after_the_position_the_next_cards_are_still_checked() -> None:
    text = _position_of()
    clean = check_game(parse_text(text + BEN + "* display Gu7\n")[0])
    assert [v.reason for v in clean.violations if v.code == "MACHT-WISDOM"] == []
    wrong = check_game(parse_text(text + BEN + "* display Gu6\n")[0])
    assert [v.reason for v in wrong.violations if v.code == "MACHT-WISDOM"] == ["back-order"]


def test_one_card_drawn_leaves_one_on_top_in_the_position() -> None:
    text = _position_of(BEN + "* display Gu7\n")
    assert "  ontop Anna 1 De3\n" in text


@pytest.mark.parametrize("line", ["ontop Anna", "ontop Anna 3 De3 Gu7", "ontop Anna 1 T9"])
def test_an_ontop_line_of_another_form_is_reported(line: str) -> None:
    text = _position_of().replace("  ontop Anna 2 De3 Gu7\n", f"  {line}\n")
    rep = check_game(parse_text(text)[0])
    assert [v.reason for v in rep.violations if v.code == "MACHT-POSITION"] == ["form"]


def test_ontop_outside_a_position_is_reported() -> None:
    rep = position(BUY + "* ontop Anna 1 De3\n", market=MARKET, hand=HAND)
    assert "MACHT-POSITION/outside" in reasons(rep)
