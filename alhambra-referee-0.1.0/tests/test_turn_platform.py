"""The turn platform: stages inside a turn or a refill, the auction service, the payment
service, with test-only modules under ``tests/plugins/turn_*`` (registered only here).

The setup of ``test_module_common``: Ben moves first, then Cem, then Anna. Hands: Anna Gu9 De7
De2 Du3, Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3; display Gu1 Di4 De6 Du2; market Gu:G11 Di:A9
De:P7 Du:T12.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from test_module_common import SETUP, codes, messages, run

from referee.catalogue import Currency, MoneyCard
from referee.engine import legal
from referee.notation import parse_text

PLUGINS = (
    ("plugins.turn_auction", "TurnAuction", "turnauction"),
    ("plugins.turn_handover", "TurnHandover", "turnhandover"),
    ("plugins.turn_payment", "TurnPayment", "turnpayment"),
    ("plugins.turn_ability", "TurnAbility", "turnability"),
    ("plugins.turn_choice", "TurnChoice", "turnchoice"),
)


@pytest.fixture(autouse=True)
def test_modules() -> Iterator[None]:
    from referee.engine.extensions import MODULES, register_module

    for folder, cls_name, _ in PLUGINS:
        register_module(getattr(importlib.import_module(folder), cls_name))
    yield
    for _, _, name in PLUGINS:
        MODULES.pop(name, None)


def card(code: str) -> MoneyCard:
    return MoneyCard(Currency(code[:2]), int(code[2:]))


# ------------------------------------------------------------------ auction inside a refill

A = "turnauction"
T1 = "1. Ben: take Gu1 Di4\n* display Gu3 ta:Vase\n"  # Cem moves next: the auctioneer
REST = "* display De4\n2. Cem: take De4\n"  # the refill goes on after the auction (N12)


def test_an_auction_with_three_bidders_inside_a_refill() -> None:
    # "Der Spieler, der als Nächster am Zug ist, ist der Auktionator. Er bietet als Erster
    # oder passt. Reihum erhöhen die Spieler oder passen" -- Cem, Anna, Ben; a passer is out.
    body = (
        T1 + "Cem: bid 6 pay Di8\n"
        "Anna: bid 7 pay De7\n"
        "Ben: pass\n"
        "Cem: bid 8 pay Di8\n"
        "Anna: bid 9 pay Gu9\n"
        "Cem: pass\n" + REST
    )
    rep = run(body, A)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    assert state.modules[A].won == {"Anna": [("Vase", 9)]}
    anna = state.player_named("Anna")
    assert anna is not None and anna.hand[card("Gu9")] == 0  # paid: to the discard pile
    assert state.discard[card("Gu9")] == 1
    cem = state.player_named("Cem")
    assert cem is not None and cem.hand[card("Di8")] == 1  # a bid that lost costs nothing
    assert not state.stages
    assert len([c for c in state.display if c is not None]) == 4 - 1  # Cem took De4


def test_the_refill_is_complete_only_after_its_last_line() -> None:
    # the display gets Gu3 before and De4 after the auction: no REFILL-DISPLAY in between
    body = T1 + "Cem: pass\nAnna: pass\nBen: pass\n" + REST
    rep = run(body, A)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    assert state.modules[A].unsold == ["Vase"]  # no bid: "kommt die Karte aus dem Spiel"
    # without the second refill line the display stays short
    rep = run(T1 + "Cem: pass\nAnna: pass\nBen: pass\n2. Cem: take Gu3\n", A)
    assert codes(rep) == ["REFILL-DISPLAY"]


def test_a_bid_must_raise() -> None:
    rep = run(T1 + "Cem: bid 6 pay Di8\nAnna: bid 6 pay De7\n", A)
    assert codes(rep) == ["AUCTION-RAISE", "STAGE-OPEN"]
    assert "the highest bid is 6 (Cem)" in messages(rep)[0]


def test_bids_go_round_in_seat_order_from_the_auctioneer() -> None:
    # Anna is next after Cem's bid; Ben writing first is out of order
    rep = run(T1 + "Cem: bid 6 pay Di8\nBen: pass\nAnna: pass\n" + REST, A)
    assert codes(rep)[0] == "STAGE-ORDER"
    assert "Anna acts now" in messages(rep)[0]
    # a player who passed is out
    rep = run(T1 + "Cem: bid 6 pay Di8\nAnna: pass\nBen: pass\n" + REST, A)
    assert codes(rep) == [], messages(rep)
    rep = run(T1 + "Cem: pass\nAnna: bid 2 pay De2\nCem: bid 3 pay De3\nBen: pass\n" + REST, A)
    assert codes(rep) == ["STAGE-PLAYER"]
    assert "Cem has no part in the auction now (it is for Anna, Ben" in messages(rep)[0]
    # once only the highest bidder is left the auction is over: a later bid belongs to none
    rep = run(T1 + "Cem: pass\nAnna: bid 2 pay De2\nBen: pass\nCem: bid 3 pay De3\n" + REST, A)
    assert codes(rep) == ["AUCTION-NONE"]


def test_a_bid_is_paid_in_one_currency_with_cards_held() -> None:
    # "Ein Gebot muss in einer Währung bezahlt werden können"
    rep = run(T1 + "Cem: bid 5 pay De3 Gu2\nAnna: pass\nBen: pass\n" + REST, A)
    assert codes(rep) == ["PAY-ONE-CURRENCY"], messages(rep)
    rep = run(T1 + "Cem: bid 5 pay Du5\nAnna: pass\nBen: pass\n" + REST, A)
    assert codes(rep) == ["BUY-NOT-HELD"], messages(rep)
    rep = run(T1 + "Cem: bid 9 pay Di8\nAnna: pass\nBen: pass\n" + REST, A)
    assert codes(rep) == ["BUY-UNDERPAID"], messages(rep)
    rep = run(T1 + "Cem: bid 9\nAnna: pass\nBen: pass\n" + REST, A)
    assert codes(rep) == ["AUCTION-BID"], messages(rep)


def test_an_auction_left_open_is_reported_and_the_highest_bid_wins() -> None:
    rep = run(T1 + "Cem: bid 6 pay Di8\n" + REST, A)
    assert codes(rep) == ["STAGE-OPEN"]
    assert "Anna still had to act" in messages(rep)[0]
    state = rep.state
    assert state is not None and state.modules[A].won == {"Cem": [("Vase", 6)]}


def test_bid_and_pass_without_an_auction() -> None:
    rep = run("1. Ben: take Gu1 Di4\n* display Gu3 De4\nAnna: bid 5 pay De2 De3\n", A)
    assert codes(rep) == ["AUCTION-NONE"]


def test_the_legal_moves_of_an_auction_are_the_stage_s() -> None:
    games = parse_text(
        SETUP.format(players="Anna, Ben, Cem", modules=A) + T1 + "Cem: bid 6 pay Di8\n",
        "t.alh",
    )
    from referee.engine import replay

    state, _ = replay(games[0])  # the record stops inside the auction (no end of game)
    lines = legal.legal_interrupts(state)
    assert {line.player.name for line in lines if line.player} == {"Anna"}
    shown = sorted(" ".join(str(a.value) for a in line.actions[0].args) for line in lines)
    assert "" in shown  # pass
    assert any(s.startswith("7 pay") for s in shown)  # the lowest raise Anna can pay


# --------------------------------------------------------- hand-over to the left neighbour

H = "turnhandover"


def test_crates_go_to_the_left_neighbour_and_on() -> None:
    # Ben hands 3 crates on: Cem (his left neighbour) keeps 2, then Anna 1
    rep = run("1. Ben: crates 3\nCem: crate 2\nAnna: crate 1\n2. Cem: take Gu1\n", H)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    assert state.modules[H].kept == {"Cem": 2, "Anna": 1}
    assert state.modules[H].back == 0


def test_a_neighbour_may_let_them_pass_and_the_rest_goes_back() -> None:
    # "der die Möglichkeit hat": Cem writes nothing; crates nobody keeps go back
    rep = run("1. Ben: crates 3\nAnna: crate 1\n2. Cem: take Gu1\n", H)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    assert state.modules[H].kept == {"Anna": 1}
    assert state.modules[H].back == 2


def test_the_hand_over_goes_in_seat_order_and_not_back_to_the_giver() -> None:
    # Anna, the last in the order, kept one: the hand-over is over, Cem's line comes too late
    rep = run("1. Ben: crates 3\nAnna: crate 1\nCem: crate 1\n", H)
    assert codes(rep) == ["HANDOVER-OVER"]
    rep = run("1. Ben: crates 3\nBen: crate 1\n", H)
    assert codes(rep) == ["STAGE-PLAYER"]
    rep = run("1. Ben: crates 3\nCem: crate 4\n", H)
    assert codes(rep) == ["HANDOVER-TOO-MANY"]


# ------------------------------------------------------------ payment "at least 8, any mix"

P = "turnpayment"
T12 = "1. Ben: take Gu1 Di4\n* display De5 Du5\n2. Cem: take Du2\n* display Gu3\n"


def _pay_setup(hand: str) -> str:
    # Anna's hand is replaced by a position-free deal: the three hands of test_module_common
    return T12 + f"3. Anna: chests pay {hand}\n"


def test_at_least_8_in_any_mix() -> None:
    # the rulebook's example: "3 Dukaten + 3 Dinar + 4 Dirham"; Anna holds Du3 De7 De2 Gu9
    rep = run(_pay_setup("Du3 De2 Gu9"), P)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None
    assert anna.hand[card("Gu9")] == 0 and anna.hand[card("Du3")] == 0
    assert state.discard[card("Gu9")] == 1
    assert state.modules[P].by == [("Anna", False)]
    rep = run(_pay_setup("Du3 De2 De3"), P)  # exactly 8: no extra action all the same
    assert codes(rep) == ["BUY-NOT-HELD"]  # Anna holds no De3


def test_a_payment_under_8_and_superfluous_cards() -> None:
    rep = run(_pay_setup("Du3 De2"), P)
    assert codes(rep) == ["BUY-UNDERPAID"]
    assert "4 chests costs 8" in messages(rep)[0]
    # 19: Du3 would not be needed; the profile (queen-2003: "mindestens") allows it, as for a
    # market purchase
    rep = run(_pay_setup("Du3 De7 Gu9"), P)
    assert codes(rep) == []


def test_an_exact_payment_gives_no_extra_action() -> None:
    rep = run(_pay_setup("Du3 De2 Gu9, take Gu3"), P)
    assert "TURN-OVER" in codes(rep)


# ------------------------------------------------------- an ability usable once per round

AB = "turnability"


def test_an_ability_once_per_round_at_the_turn_start() -> None:
    # Ben takes Gu1 Di4 Du2 (7) with the trader: allowed; without it only up to 5
    rep = run("1. Ben: trader, take Gu1 Di4 Du2\n* display De5 Du5 Gu3\n", AB)
    assert codes(rep) == [], messages(rep)
    rep = run("1. Ben: take Gu1 Di4 Du2\n* display De5 Du5 Gu3\n", AB)
    assert codes(rep) == ["TAKE-SUM"]
    # "Ein Spieler darf in einer Runde nur 1 Karte mit [Symbol] nutzen": in turn 4 (round 2)
    # Ben may use it again
    body = (
        "1. Ben: trader, take Gu1 Di4 Du2\n* display De5 Du5 Gu3\n"
        "2. Cem: take De5\n* display Gu4\n"
        "3. Anna: take Du5\n* display Gu5\n"
        "4. Ben: trader, take Gu3 Gu4\n* display Di5 Di6\n"
    )
    rep = run(body, AB)
    assert codes(rep) == [], messages(rep)
    state = rep.state
    assert state is not None
    ben = state.player_named("Ben")
    assert ben is not None and state.abilities[(ben.index, "trader")] == (1, 2)  # rounds 1, 2


def test_an_ability_used_twice_in_a_round_or_too_late() -> None:
    rep = run("1. Ben: trader, trader, take Gu1 Di4\n* display De5 Du5\n", AB)
    assert codes(rep) == ["ABILITY-LIMIT"]
    assert "once per round" in messages(rep)[0]
    # "zu Beginn seines Zuges": not after the turn's action
    rep = run("1. Ben: take Gu1 Di4, trader\n* display De5 Du5\n", AB)
    assert codes(rep) == ["ABILITY-WINDOW"]
    assert "after an action of the turn" in messages(rep)[0]


def test_an_ability_not_held_and_its_arguments() -> None:
    rep = run("1. Ben: trader, take Gu1 Di4\n* display De5 Du5\n", AB + " holder=anna")
    assert codes(rep) == ["ABILITY-NOT-HELD"]
    rep = run("1. Ben: trader 3, take Gu1 Di4\n* display De5 Du5\n", AB)
    assert codes(rep) == ["VERB-ARGS"]
    rep = run("1. Ben: händler, take Gu1 Di4\n* display De5 Du5\n", AB)  # an alias
    assert codes(rep) == [], messages(rep)


# --------------------------------------------------------- a choice line before a scoring

CH = "turnchoice"
SCORED = "1. Ben: take Gu1 Di4\n* display De5 Du5\n* display W1\n"
IGNORE = ("SCORING-CARD-PILE", "EXCHANGE-PILE")  # W1 turns up early on purpose


def test_a_choice_before_a_scoring_counts_at_it() -> None:
    from referee.catalogue import BuildingType
    from referee.scoring.core import POINTS

    rep = run(SCORED + "Anna: favour G\nscoring 1\n", CH)
    assert codes(rep, IGNORE) == [], messages(rep)
    state = rep.state
    assert state is not None
    scores = {p.name: p.score for p in state.players}
    assert scores == {"Anna": POINTS[1][BuildingType.GARDEN][0], "Ben": 0, "Cem": 0}
    rep = run(SCORED + "scoring 1\n", CH)
    assert rep.state is not None and all(p.score == 0 for p in rep.state.players)


def test_a_choice_only_before_a_due_scoring_and_once() -> None:
    rep = run("1. Ben: take Gu1 Di4\n* display De5 Du5\nAnna: favour G\n", CH)
    assert codes(rep, IGNORE) == ["ABILITY-WINDOW"]
    rep = run(SCORED + "Anna: favour G\nAnna: favour T\nscoring 1\n", CH)
    assert codes(rep, IGNORE) == ["ABILITY-LIMIT"]
    rep = run(SCORED + "Anna: favour\nscoring 1\n", CH)
    assert codes(rep, IGNORE) == ["VERB-ARGS"]


# ------------------------------------------------------------------------ typed contracts


def test_every_state_field_has_a_copy_policy_and_the_copy_is_independent() -> None:
    from dataclasses import fields

    from referee.engine.state import COPY_POLICY, GameState

    assert {f.name for f in fields(GameState)} == set(COPY_POLICY)
    rep = run("1. Ben: crates 3\nCem: crate 1\n", "turnhandover")
    state = rep.state
    assert state is not None
    copy = state.copy()
    assert copy.found == [] and copy.players[0] is not state.players[0]
    copy.players[0].hand.clear()
    copy.display.append(None)
    copy.modules["turnhandover"].kept["Anna"] = 9
    assert state.players[0].hand and None not in state.display
    assert "Anna" not in state.modules["turnhandover"].kept
    assert copy.phase is state.phase and copy.rules is state.rules


def test_the_phase_is_an_enum_and_settle_before_refuses_a_misspelt_mode() -> None:
    from referee.engine.core import settle_before
    from referee.engine.turns import Phase, Settle
    from referee.record.model import NOWHERE

    rep = run("1. Ben: take Gu1 Di4\n* display De5 Du5\n")
    state = rep.state
    assert state is not None and isinstance(state.phase, Phase)
    settle_before(state, NOWHERE, Settle.TURN)
    settle_before(state, NOWHERE, "turn")  # the string value is still accepted
    with pytest.raises(ValueError):
        settle_before(state, NOWHERE, "trun")


def test_a_misspelt_hook_is_an_error_when_the_module_class_is_made() -> None:
    from referee.engine.extensions import Module, ModuleDefinitionError

    with pytest.raises(ModuleDefinitionError, match="did you mean 'legal_interrupts'"):
        type("Misspelt", (Module,), {"legal_interupts": lambda self, ctx: []})
    with pytest.raises(ModuleDefinitionError, match="auction service"):
        type("Bidder", (Module,), {"verbs": ("bid",)})
    helper = type("Helper", (Module,), {"helpers": ("sim_cache",), "sim_cache": lambda s: 1})
    assert helper.helpers == ("sim_cache",)
    type("Plain", (Module,), {"awake": lambda self: True})  # a helper far from every hook


def test_verb_specs_are_the_one_declaration_the_engine_reads() -> None:
    from referee.engine.extensions import MODULES, ActionKind, Extensions, Module
    from referee.engine.verbs import VerbSpec

    # the compatibility path: a class of the older style has its declarations converted
    old = type(
        "Old",
        (Module,),
        {
            "name": "oldstyle",
            "verbs": ("tick", "tock", "poke"),
            "verb_kinds": {"tock": "acquire", "tick": "main"},
            "free_verbs": ("tick",),  # free_verbs first, as the engine read them
        },
    )
    assert {s.verb: s.kind for s in old.verb_specs} == {
        "tick": ActionKind.FREE,
        "tock": ActionKind.ACQUIRE,
        "poke": ActionKind.MAIN,
    }
    new = type(
        "New",
        (Module,),
        {
            "name": "newstyle",
            "verb_specs": (VerbSpec("ring", kind=ActionKind.FREE, aliases=("klingeln",)),),
            "verbs": ("knock",),  # a class that mixes both while it moves
        },
    )
    assert [s.verb for s in new.verb_specs] == ["ring", "knock"]
    assert new.verbs == ("knock", "ring", "klingeln")  # derived, for readers
    assert new.verb_kinds == {"ring": "free", "klingeln": "free"}
    MODULES["oldstyle"], MODULES["newstyle"] = old, new
    try:
        ext = Extensions(["oldstyle", "newstyle"])
        assert ext.verb_kind("TICK") is ActionKind.FREE
        assert ext.verb_kind("klingeln") is ActionKind.FREE
        assert ext.verb_kind("knock") is ActionKind.MAIN
        assert ext.verb_kind("nothing") is None
        assert ext.verb_handler("Klingeln") is ext.modules[1]
        # the engine reads the specs, not the derived names: a spec is the one source
        new.verb_specs = (VerbSpec("ring", kind=ActionKind.ACQUIRE),)
        ext = Extensions(["newstyle"])
        assert ext.verb_kind("ring") is ActionKind.ACQUIRE and ext.verb_handler("knock") is None
    finally:
        MODULES.pop("oldstyle", None)
        MODULES.pop("newstyle", None)


def test_the_default_view_word_built_is_german_too() -> None:
    from referee.engine.extensions import Module, localize_view, view_terms

    view = {"players": {"Anna": {"built": "mg:P9ne@1,0", "in the reserve": "-"}}}
    shown = localize_view(view, view_terms(Module(), "de"), "de")
    assert shown == {"players": {"Anna": {"gebaut": "mg:P9ne@1,0", "in der Reserve": "-"}}}
