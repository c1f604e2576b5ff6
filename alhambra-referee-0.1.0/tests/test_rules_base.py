"""Every rule code of the base-game engine: a legal and an illegal case each.

Rule sections cited are those of ``/work/shared/rules/rulebook-base-de-2003.txt``.
Records are written in the notation (docs/notation.md) and parsed; positions of violations
are checked where the rule points at a specific token.
"""

from __future__ import annotations

import pytest

from referee.engine import check_game, replay
from referee.engine.rules import RULES
from referee.notation import parse_text
from referee.profiles import RuleProfile

PLAYERS = "Anna, Ben, Cem"
MARKET = "Gu:T10 Di:G8ne De:A6sw Du:C9w"
# Anna Gu3 De7 Du2 Di9 = 21 (4 cards); Ben Du8 Du4 Gu2 De9 = 23 (4 cards);
# Cem De6 De5 Gu9 = 20 (3 cards): Cem has the fewest cards and starts.
DEALS = "* deal Anna Gu3 De7 Du2 Di9\n* deal Ben Du8 Du4 Gu2 De9\n* deal Cem De6 De5 Gu9\n"
DISPLAY = "Gu1 Di4 De6 Du9"


def setup(market: str = MARKET, display: str = DISPLAY, deals: str = DEALS, start: str = "Cem"):
    text = deals + f"* display {display}\n* market {market}\n"
    if start:
        text += f"start {start}\n"
    return text


def record(body: str, players: str = PLAYERS, headers: str = "", **kw: str) -> str:
    return f'[Players "{players}"]\n{headers}\n' + setup(**kw) + body


def game(text: str):
    games = parse_text(text, "t.alh")
    assert len(games) == 1
    assert not games[0].errors, games[0].errors
    return games[0]


def run(body: str, profile: RuleProfile | None = None, **kw: str):
    return check_game(game(record(body, **kw)), profile)


def codes(report) -> list[str]:
    return [v.code for v in report.violations]


def body_line(text: str, snippet: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if snippet in line:
            return i
    raise AssertionError(snippet)


def assert_legal(report) -> None:
    assert codes(report) == [], [v.message() for v in report.violations]


# ------------------------------------------------------------------------------ setup


def test_legal_opening_and_first_turn() -> None:
    assert_legal(run("1. Cem: take Gu1 Di4\n* display Gu2 Gu4\n"))


def test_setup_players_too_many_and_legal_two() -> None:
    six = "A, B, C, D, E, F, G"
    rep = check_game(game(f'[Players "{six}"]\n\n1. A: take ?\n'))
    assert "SETUP-PLAYERS" in codes(rep)
    rep = check_game(game('[Players "A, B, C"]\n\n1. A: take ?\n'))
    assert "SETUP-PLAYERS" not in codes(rep)


def test_setup_deal_goes_on_after_20() -> None:
    # Spielvorbereitung: "bis der Gesamtwert 20 oder mehr beträgt"
    deals = DEALS.replace("De6 De5 Gu9", "De6 De5 Gu9 Gu1")
    rep = run("", deals=deals)
    assert "SETUP-DEAL" in codes(rep)
    v = next(v for v in rep.violations if v.code == "SETUP-DEAL")
    assert v.player == "Cem" and "20" in v.message()


def test_setup_deal_stops_below_20() -> None:
    deals = DEALS.replace("De6 De5 Gu9", "De6 De5 Gu8")
    rep = run("1. Cem: take Gu1\n* display Gu2\n", deals=deals, start="")
    assert "SETUP-DEAL" in codes(rep)


def test_setup_deal_order() -> None:
    deals = "* deal Ben Du8 Du4 Gu2 De9\n* deal Anna Gu3 De7 Du2 Di9\n* deal Cem De6 De5 Gu9\n"
    rep = run("1. Cem: take Gu1\n* display Gu2\n", deals=deals)
    # Ben first is fine (the dealer starts anywhere), but then Cem comes before Anna
    assert "SETUP-DEAL-ORDER" in codes(rep)
    assert_legal(run("1. Cem: take Gu1\n* display Gu2\n"))


def test_setup_start_player() -> None:
    rep = run("1. Anna: take Gu1\n* display Gu2\n", start="Anna")
    assert codes(rep)[0] == "SETUP-START"
    assert "Cem" in rep.violations[0].message()


def test_setup_start_tie_needs_youngest() -> None:
    # Anna and Ben both 4 cards and total 21: the youngest decides
    deals = "* deal Anna Gu3 De7 Du2 Di9\n* deal Ben Du3 Di7 Gu2 De9\n* deal Cem De6 De5 Gu3 Du8\n"
    rep = run("1. Anna: take Gu1\n* display Gu2\n", deals=deals, start="Anna youngest")
    assert_legal(rep)
    rep = check_game(
        game(
            record(
                "1. Ben: take Gu1\n* display Gu2\n",
                headers='[Youngest "Anna"]\n',
                deals=deals,
                start="Ben",
            )
        )
    )
    assert "SETUP-START" in codes(rep)


def test_setup_display_wrong_count() -> None:
    rep = run("1. Cem: take Gu1\n* display Gu2\n", display="Gu1 Di4 De6")
    assert "SETUP-DISPLAY" in codes(rep)


def test_setup_market_order_and_count() -> None:
    rep = run("1. Cem: take Gu1\n* display Gu2\n", market="Di:G8ne Gu:T10 De:A6sw Du:C9w")
    assert "SETUP-MARKET" in codes(rep)
    rep = run("1. Cem: take Gu1\n* display Gu2\n", market="Gu:T10 Di:G8ne De:A6sw")
    assert "SETUP-MARKET" in codes(rep)


def test_setup_order_deal_after_play() -> None:
    rep = run("1. Cem: take Gu1\n* display Gu2\n* deal Anna Gu5\n")
    assert "SETUP-ORDER" in codes(rep)


def test_card_supply() -> None:
    # Material: every card exists three times. De6 is in Cem's hand, the display, and two more:
    rep = run("1. Cem: take Gu1\n* display De6\n2. Anna: take Di4\n* display De6\n")
    assert "CARD-SUPPLY" in codes(rep)
    v = next(v for v in rep.violations if v.code == "CARD-SUPPLY")
    assert "De6" in v.message() and "3" in v.message()


def test_tile_supply() -> None:
    # only one T13 exists
    rep = run(
        "1. Cem: buy De A6sw pay De6, take Gu1, reserve A6sw\n* display Gu2, market De:T13\n"
        "2. Anna: take Gu2\n* display Gu4\n",
        market="Gu:T13 Di:G8ne De:A6sw Du:C9w",
    )
    assert "TILE-SUPPLY" in codes(rep)
    assert_legal(
        run("1. Cem: buy De A6sw pay De6, take Gu1, reserve A6sw\n* display Gu2, market De:T12\n")
    )


# ------------------------------------------------------------------------------ turns


def test_turn_order_and_number() -> None:
    body = "1. Cem: take Gu1\n* display Gu2\n2. Ben: take Gu2\n* display Gu3\n"
    rep = run(body)
    assert codes(rep) == ["TURN-ORDER"]  # Anna sits after Cem
    body = "1. Cem: take Gu1\n* display Gu2\n3. Anna: take Gu2\n* display Gu3\n"
    assert codes(run(body)) == ["TURN-NUMBER"]
    assert_legal(run("1. Cem: take Gu1\n* display Gu2\n2. Anna: take Gu2\n* display Gu3\n"))


def test_turn_over_after_overpaying_garden() -> None:
    # "Der Garten im Angebot kostet 10 Denar ... Da Sie jedoch nicht genau 10 Denar bezahlen
    # (sondern 11), ist Ihr Spielzug damit beendet" (Kaufen)
    market = "Gu:T10 Di:G8ne De:G10n Du:C9w"
    body = "1. Cem: buy De G10n pay De5 De6, take Gu1, place G10n@0,1\n"
    text = record(body, market=market)
    rep = check_game(game(text))
    assert codes(rep)[0] == "TURN-OVER"
    assert rep.violations[0].line == body_line(text, "1. Cem")
    assert rep.violations[0].turn == 1 and rep.violations[0].player == "Cem"
    # without the extra action the overpaid purchase is legal
    rep = run("1. Cem: buy De G10n pay De5 De6, place G10n@0,1\n* market De:T12\n", market=market)
    assert_legal(rep)


def test_exact_payment_gives_another_action() -> None:
    body = "1. Cem: buy De A6sw pay De6, take Gu1, place A6sw@0,-1\n* display Gu2, market De:T12\n"
    assert_legal(run(body))


def test_turn_empty() -> None:
    # a turn whose only content is a placement of nothing bought
    rep = check_game(game(record("1. Cem: reserve A6sw\n")))
    assert "TURN-EMPTY" in codes(rep)


# ------------------------------------------------------------------------------ money


@pytest.mark.parametrize(
    ("take", "legal"),
    [("Gu1 Di4", True), ("De6", True), ("Du9", True), ("Gu1 De6", False), ("Di4 De6", False)],
)
def test_take_money_display_1_4_6_9(take: str, legal: bool) -> None:
    # Geld nehmen: any one card, or several summing to at most 5 (display 1, 4, 6, 9)
    rep = run(f"1. Cem: take {take}\n* display {' '.join(['Gu2', 'Gu3'][: len(take.split())])}\n")
    if legal:
        assert_legal(rep)
    else:
        assert codes(rep) == ["TAKE-SUM"]
        msg = rep.violations[0].message()
        assert "Gu1 Di4 De6 Du9" in msg and "at most 5" in msg


def test_take_not_in_display() -> None:
    rep = run("1. Cem: take Gu7\n* display Gu2\n")
    assert codes(rep)[0] == "TAKE-NOT-IN-DISPLAY"
    assert "Gu1 Di4 De6 Du9" in rep.violations[0].message()


def test_take_empty_via_api() -> None:
    from referee.engine import check_action
    from referee.record.model import TakeMoney

    state, _ = replay(game(record("")))
    state_codes = [v.code for v in check_action(state, TakeMoney(()))]
    assert "TAKE-EMPTY" in state_codes


# ------------------------------------------------------------------------------ buying


def test_buy_not_in_market() -> None:
    rep = run("1. Cem: buy T13 pay Gu9\n")
    assert "BUY-NOT-IN-MARKET" in codes(rep)


def test_buy_field() -> None:
    rep = run("1. Cem: buy Du A6sw pay De6, place A6sw@0,-1\n* display Gu2, market De:T12\n")
    assert "BUY-FIELD" in codes(rep)
    rep = run("1. Cem: buy A6sw pay De6, place A6sw@0,-1\n* market De:T12\n")
    assert_legal(rep)


def test_buy_currency() -> None:
    rep = run("1. Cem: buy Gu T10 pay De6 De5, reserve T10\n* market Gu:T12\n")
    assert "BUY-CURRENCY" in codes(rep)


def test_buy_not_held() -> None:
    text = record("1. Cem: buy Di G8ne pay Di4 Di4, reserve G8ne\n* market Di:T12\n")
    rep = check_game(game(text))
    assert "BUY-NOT-HELD" in codes(rep)
    v = next(v for v in rep.violations if v.code == "BUY-NOT-HELD")
    assert v.message() == "Cem does not hold Di4: the hand is Gu9 De5 De6"


def test_buy_underpaid() -> None:
    rep = run("1. Cem: buy Gu T10 pay Gu9, reserve T10\n* market Gu:T12\n")
    assert codes(rep) == ["BUY-UNDERPAID"]


def test_buy_superfluous_by_profile() -> None:
    body = "1. Cem: buy De A6sw pay De6 De5, reserve A6sw\n* market De:T12\n"
    assert_legal(run(body))
    rep = run(body, profile=RuleProfile(overpay_superfluous="illegal"))
    assert codes(rep) == ["BUY-SUPERFLUOUS"]
    rep = run(body, profile=RuleProfile(overpay_superfluous="warn"))
    assert rep.valid and rep.violations[0].severity == "warning"


# ------------------------------------------------------------------------------ placement


def test_place_not_bought_missing_and_order() -> None:
    rep = run("1. Cem: take Gu1, place A6sw@0,-1\n* display Gu2\n")
    assert "PLACE-NOT-BOUGHT" in codes(rep)
    rep = run("1. Cem: buy De A6sw pay De6, take Gu1\n* display Gu2, market De:T12\n")
    assert "PLACE-MISSING" in codes(rep)
    rep = run(
        "1. Cem: buy De A6sw pay De6, place A6sw@0,-1, take Gu1\n* display Gu2, market De:T12\n"
    )
    assert "PLACE-ORDER" in codes(rep)


def test_reserve_limit_profile() -> None:
    body = "1. Cem: buy De A6sw pay De6, take Gu1, reserve A6sw\n* display Gu2, market De:T12\n"
    assert_legal(run(body))
    rep = run(body, profile=RuleProfile(name="review", reserve_limit=0))
    assert codes(rep) == ["RESERVE-LIMIT"]


def test_gift() -> None:
    body = "1. Cem: buy De A6sw pay De6, take Gu1, give A6sw Anna\n* display Gu2, market De:T12\n"
    rep = run(body)
    assert "GIFT-NOT-ALLOWED" in codes(rep)
    assert_legal(run(body, profile=RuleProfile(gifts="any-player")))
    rep = run(body.replace("give A6sw Anna", "give A6sw dirk"))
    assert "GIFT-NOT-ALLOWED" in codes(rep)


# ------------------------------------------------------------------------------ refill


def test_refill_display_and_market() -> None:
    rep = run("1. Cem: take Gu1\n2. Anna: take Di4\n")
    assert "REFILL-DISPLAY" in codes(rep)
    rep = run("1. Cem: take Gu1\n* display Gu2 Gu3\n2. Anna: take Di4\n")
    assert "REFILL-DISPLAY" in codes(rep)
    rep = run("1. Cem: buy De A6sw pay De6, reserve A6sw\n2. Anna: take Di4\n* display Gu2\n")
    assert "REFILL-MARKET" in codes(rep)
    rep = run(
        "1. Cem: buy De A6sw pay De6, buy Gu T10 pay Gu9 Gu1, reserve A6sw, reserve T10\n"
        "* market De:T12 Gu:T11n\n"
    )
    assert "REFILL-MARKET" in codes(rep)  # field 1 before field 3
    rep = run("1. Cem: buy De A6sw pay De6, take Gu1, reserve A6sw\n* market De:T12, display Gu2\n")
    assert_legal(rep)


def test_refill_reshuffle_too_early() -> None:
    rep = run("1. Cem: take Gu1\n* reshuffle, display Gu2\n")
    assert "REFILL-RESHUFFLE" in codes(rep)


# ------------------------------------------------------------------------------ modules


def test_unknown_verb_and_unknown_player() -> None:
    rep = run("1. Cem: frobnicate 3\n* display Gu2\n")
    assert "UNKNOWN-VERB" in codes(rep)
    rep = run("1. Zoe: take Gu1\n* display Gu2\n")
    assert "UNKNOWN-PLAYER" in codes(rep)


def test_module_not_enabled() -> None:
    from referee.engine.extensions import MODULES, Module, register_module

    class Vizier(Module):
        name = "test-vizier"
        verbs = ("wake",)

    register_module(Vizier)
    try:
        rep = run("1. Cem: wake\n* display Gu2\n")
        assert "MODULE-NOT-ENABLED" in codes(rep)
        rep = check_game(
            game(
                record(
                    "1. Cem: take Gu1, wake\n* display Gu2\n", headers='[Modules "test-vizier"]\n'
                )
            )
        )
        assert "MODULE-NOT-ENABLED" not in codes(rep)
        assert "UNKNOWN-VERB" not in codes(rep)
    finally:
        MODULES.pop("test-vizier", None)


def test_every_rule_has_names_section_and_both_texts() -> None:
    for code, r in RULES.items():
        assert r.code == code
        assert r.name_en and r.name_de and r.section
        assert r.message_en and r.message_de


# ------------------------------------------------------------------------------ partial records


def test_unknown_cards_are_unverifiable_not_illegal() -> None:
    body = (
        "1. Cem: take ? ?\n* display ? ?\n"
        "2. Anna: buy De A6sw pay ?, place A6sw@0,-1\n* market De:?\n"
        "3. Ben: take Du9\n* display ?\n"
    )
    rep = run(body)
    assert_legal(rep)
    texts = " | ".join(u.message() for u in rep.unverifiable)
    assert "sum" in texts and "payment" in texts


def test_unknown_cards_still_conserve_the_supply() -> None:
    # an unknown card revealed before does not hide a fourth known De6 (Cem holds one, the
    # display shows one)
    body = (
        "1. Cem: take Gu1\n* display ?\n2. Anna: take Di4\n* display De6\n"
        "3. Ben: take Du9\n* display De6\n"
    )
    rep = run(body)
    assert "CARD-SUPPLY" in codes(rep)


# ------------------------------------------------------------------------------ properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["Gu1", "Di4", "De6", "Du9"]), min_size=1, max_size=4, unique=True))
def test_take_property(cards: list[str]) -> None:
    # Geld nehmen: legal exactly when one card is taken or the cards sum to at most 5
    from referee.engine import check_action
    from referee.record.model import TakeMoney

    g = game(record("1. Cem: take " + " ".join(cards) + "\n"))
    state, _ = replay(g, until_line=8)
    action = next(it for it in g.body if it.pos.line == 9).actions[0]
    assert isinstance(action, TakeMoney)
    found = [v.code for v in check_action(state, action)]
    total = sum(int(c[2:]) for c in cards)
    assert (found == []) == (len(cards) == 1 or total <= 5)
    assert state.turn is None and len(state.display) == 4  # check_action changed nothing


def test_reshuffle_missing_when_the_deck_is_empty() -> None:
    from referee.engine import apply_item

    g = game(record("1. Cem: take Gu1\n* display Gu2\n"))
    state, _ = replay(g, until_line=9)
    # pretend the deck ran out: the discard pile holds cards
    state.pool.subtract(state.pool)
    state.pool += state.pool  # drop zero counts
    state.deck_unknown = 0
    state.deck_known.clear()
    from referee.catalogue import Currency, MoneyCard

    state.discard[MoneyCard(Currency.GULDEN, 2)] += 1
    apply_item(state, next(it for it in g.body if it.pos.line == 10))
    assert state.found[0].code == "REFILL-RESHUFFLE"
    assert "reshuffle" in state.found[0].message()


def test_ambiguous_tile_reference() -> None:
    # three gardens cost 10 (G10n, G10w, G10-): a drawn "G10" cannot be told apart
    rep = run("", market="Gu:T10 Di:G10 De:A6sw Du:C9w")
    assert "UNKNOWN-TILE" in codes(rep)
    rep = run("", market="Gu:T10 Di:G10w De:A6sw Du:C9w")
    assert "UNKNOWN-TILE" not in codes(rep)


def test_scoring_card_pile_bounds_top_profile() -> None:
    from referee.engine.core import pile_bounds

    state, _ = replay(game(record("1. Cem: take Gu1\n* display Gu2\n")))
    assert state.setup_after == 93  # 108 - 11 dealt - 4 displayed
    # five piles of 18.6 cards, each 25 % smaller or larger at most: 13 to 24 cards
    w1, w2, gap = pile_bounds(state)
    assert (w1, w2, gap) == ((13, 48), (39, 80), (13, 72))
    top = state.copy()
    top.profile = RuleProfile(scoring_card_placement="top")
    assert pile_bounds(top) == ((13, 24), (39, 67), (26, 48))


def test_start_tiebreak_profile() -> None:
    # Anna (4 cards, 21) and Ben (4 cards, 23): Queen 2003 gives it to the lower total (Anna);
    # Piatnik's "fewest cards, then the younger" needs the youngest (Ben here).
    deals = "* deal Anna Gu3 De7 Du2 Di9\n* deal Ben Du8 Du4 Gu2 De9\n* deal Cem De6 De4 Gu3 Du9\n"
    body = "1. Anna: take Gu1\n* display Gu2\n"
    assert_legal(run(body, deals=deals, start="Anna"))
    piatnik = RuleProfile(start_tiebreak="cards-youngest")
    assert_legal(run(body.replace("Anna", "Ben"), piatnik, deals=deals, start="Ben youngest"))
    rep = check_game(
        game(record(body, headers='[Youngest "Ben"]\n', deals=deals, start="Anna")), piatnik
    )
    assert "SETUP-START" in codes(rep)
