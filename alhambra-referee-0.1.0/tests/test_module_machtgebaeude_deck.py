"""Die Gebäude der Macht, Gebäude der Weisheit: the cards put back lie on top of the deck, so the
next cards drawn from it are those ("Die übrigen Karten darf er beliebig sortiert auf den Stapel
zurücklegen", rulebook-bigbox-de-2019.txt L3624-3625; reading (h) of docs/modules/machtgebaeude.md:
on top, in any order the player chose). Platform: ``referee/engine/deck.py`` (``put_on_top``,
``left_deck``, ``drawn_together``, ``draw_to_hand``), called by the engine's draw of a money card
and its scoring card turned up; the finding is the module's (``MACHT-WISDOM`` ``back-order``).
"""

from __future__ import annotations

from test_module_machtgebaeude import reasons
from test_module_machtgebaeude_weisheit import weisheit

from referee.catalogue import Currency, MoneyCard
from referee.engine import GameReport
from referee.engine.deck import draw_to_hand, drawn_together, left_deck, put_on_top
from referee.record.model import Pos

WISDOM = "* roll Anna red 3, wisdom Anna keep Di5 back De3 Gu7\n"
BEN = "2. Ben: take Du9\n"  # one card to refill
CEM = "3. Cem: take Gu4\n"


def card(code: str) -> MoneyCard:
    cur = Currency.of_code(code[:2])
    assert cur is not None
    return MoneyCard(cur, int(code[2:]))


def order(rep: GameReport) -> list[str]:
    return [r for r in reasons(rep) if r == "MACHT-WISDOM/back-order"]


def test_the_next_refill_turns_up_the_cards_put_back_in_any_order() -> None:
    # the line writes De3 first; the player may have put Gu7 on top ("beliebig sortiert")
    for first, second in (("Gu7", "De3"), ("De3", "Gu7")):
        body = WISDOM + BEN + f"* display {first}\n" + CEM + f"* display {second}\n"
        rep = weisheit(body)
        assert reasons(rep) == [], [v.message() for v in rep.violations]
        assert rep.state is not None and rep.state.deck_top == ()
    # once both are drawn, the deck below them is unknown again: any card
    after = WISDOM + BEN + "* display Gu7\n" + CEM + "* display De3\n4. Anna: take Di3\n"
    assert reasons(weisheit(after + "* display Gu6\n")) == []


def test_another_card_from_the_deck_is_reported_with_the_cards_expected() -> None:
    rep = weisheit(WISDOM + BEN + "* display Gu6\n")
    assert order(rep) == ["MACHT-WISDOM/back-order"]
    v = next(v for v in rep.violations if v.reason == "back-order")
    en, de = v.message("en"), v.message("de")
    assert "De3 Gu7" in en and "Gu6" in en and "any order" in en and "line 21" in en
    assert "De3 Gu7" in de and "Gu6" in de and "beliebiger Reihenfolge" in de
    assert v.player == "Anna" and v.line == 23
    # one finding: the order is forgotten from then on (the next card is not reported again)
    rep = weisheit(WISDOM + BEN + "* display Gu6\n" + CEM + "* display Gu5\n")
    assert order(rep) == ["MACHT-WISDOM/back-order"]


def test_a_card_drawn_unseen_takes_one_of_them() -> None:
    # a refill the record does not name ("?"): one of the cards put back, which one is unknown
    assert reasons(weisheit(WISDOM + BEN + "* display ?\n" + CEM + "* display Gu7\n")) == []
    rep = weisheit(WISDOM + BEN + "* display ?\n" + CEM + "* display Gu6\n")
    assert order(rep) == ["MACHT-WISDOM/back-order"]


def test_a_scoring_card_put_back_is_among_the_next_cards() -> None:
    # "oder mit den übrigen Karten verdeckt auf den Stapel zurücklegen" (L3628-3629): it lies
    # on top with them, so it turns up with the next cards
    back = "* roll Anna red 3, wisdom Anna keep Di5 back W1 De3\n"
    assert reasons(weisheit(back + BEN + "* display W1 De3\nscoring 1\n")) == []
    rep = weisheit(back + BEN + "* display Gu6\n")
    assert order(rep) == ["MACHT-WISDOM/back-order"]
    assert "W1 De3" in next(v for v in rep.violations if v.reason == "back-order").message()


def test_the_deck_api_checks_draws_together_and_layers() -> None:
    # the platform alone, on the state after the wisdom line: the cards put back by a later
    # draw lie above the ones left from an earlier one
    rep = weisheit(WISDOM)
    state = rep.state
    assert state is not None
    state.checking = True
    here = Pos(30, 1)
    assert [c for layer in state.deck_top for c in layer.cards] == [card("De3"), card("Gu7")]
    # a draw of three at once (a second Weisheit, its order not written): both cards put back
    # are among them, the third comes from below
    before = len(state.found)
    with drawn_together(state, [card("Gu7"), card("Gu2"), card("De3")], here):
        put_on_top(state, [card("Gu2")], code="MACHT-WISDOM", reason="back-order", line="x", at=1)
    assert len(state.found) == before
    assert [layer.cards for layer in state.deck_top] == [(card("Gu2"),)]
    # a module's draw into a hand (the Bettler) is checked the same way
    anna = state.players[0]
    assert draw_to_hand(state, anna, card("Gu2"), here)
    assert state.deck_top == ()
    put_on_top(state, [card("Di6"), 2], code="MACHT-WISDOM", reason="back-order", line="x", at=1)
    put_on_top(state, [card("De4")], code="MACHT-WISDOM", reason="back-order", line="y", at=2)
    # a group of two: the upper layer (De4) and one of the lower (Di6 or W2)
    left_deck(state, [2, card("De4")], here)
    assert len(state.found) == before
    assert [(layer.cards, layer.left) for layer in state.deck_top] == [((card("Di6"),), 1)]
    left_deck(state, [card("Gu3")], here)
    assert state.deck_top == ()
    assert [v.reason for v in state.found[before:]] == ["back-order"]


def test_simulated_weisheit_draws_keep_to_the_rule() -> None:
    # the simulator puts the cards back on top of its own deck: its next refills turn them up
    from referee.engine import check_game
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    used = 0
    for seed in range(4):
        text = simulate_text(
            4, seed, load_profile("queen-2003"), f"deck {seed}", ("machtgebaeude",)
        )
        rep = check_game(parse_text(text, "sim.alh")[0])
        assert rep.violations == [], [v.message() for v in rep.violations]
        used += text.count(", wisdom ")
    assert used >= 1


def test_the_bettler_draws_the_cards_put_back_too() -> None:
    # Die Charaktere's Bettler takes "die oberste Geldkarte vom Stapel" (L1104-1105): with
    # cards put back by a Weisheit draw, that is one of them
    from test_module_charaktere import position as with_characters

    def game(card: str) -> GameReport:
        body = (
            "1. Anna: buy De gm:ws_C8 pay De7 De2, reserve gm:ws_C8\n"
            "* market De:C10, roll Anna red 4, wisdom Anna keep Di5 back De3 Gu7 Gu6\n"
            "2. Ben: take Du2\n* display De3\n3. Cem: take Gu4\n* display Gu7\n"
            f"4. Anna: beggar {card}, take Gu7\n* display Gu2\n"
        )
        return with_characters(
            body,
            "charaktere, machtgebaeude",
            anna="characters ch:Bettler",
            hand="De7 De2",
            market="Gu:G11- Di:T12 De:gm:ws_C8 Du:C7ne",
        )

    good = game("Gu6")
    assert [v.code for v in good.violations if v.severity == "error"] == [], [
        v.message() for v in good.violations
    ]
    assert order(game("Du1")) == ["MACHT-WISDOM/back-order"]
