"""The payment platform pays a player (E30): ``PaymentTerms.payee`` and ``SideOffer.payee``
put the money cards paid into that player's hand instead of the discard pile
(``referee/engine/payment.py``, ``referee/engine/actions/purchase.py``); first used by Der
persönliche Marktplatz ("Die beim Kauf ausgespielten Währungskarten erhält der ursprüngliche
Besitzer", rulebook-bigbox-de-2019.txt L3898-3899)."""

from __future__ import annotations

from referee.catalogue import Currency, MoneyCard
from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.payment import Mix, PaymentTerms, pay
from referee.notation import parse_text
from referee.record.model import NOWHERE, CardRef

TEXT = """[Players "Anna, Ben"]

position
  next Ben
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu2
  player Ben
    hand De5 De4 Du8 ?
end
"""


def _state():  # type: ignore[no-untyped-def]
    rep = check_game(parse_text(TEXT, "t.alh")[0])
    assert rep.state is not None
    return rep.state


def test_a_payment_with_a_payee_goes_into_the_payees_hand() -> None:
    state = _state()
    ben, anna = state.player_named("Ben"), state.player_named("Anna")
    assert ben is not None and anna is not None
    de5, de4 = MoneyCard(Currency.DENAR, 5), MoneyCard(Currency.DENAR, 4)
    terms = PaymentTerms(9, "T9ne", currency=Currency.DENAR, mix=Mix.FIELD, payee="Anna")
    plan, exact = pay(Context(state), ben, [CardRef(de5), CardRef(de4)], terms, NOWHERE)
    assert exact and plan.cards_paid == [de5, de4]
    assert anna.hand[de5] == 1 and anna.hand[de4] == 1
    assert state.discard.total() == 0 and ben.hand[de5] == 0


def test_an_unknown_card_paid_reaches_the_payee_unknown() -> None:
    state = _state()
    ben, anna = state.player_named("Ben"), state.player_named("Anna")
    assert ben is not None and anna is not None
    terms = PaymentTerms(3, "x", mix=Mix.ANY, payee="Anna")
    pay(Context(state), ben, [CardRef(None)], terms, NOWHERE)
    assert anna.hand_unknown == 1 and ben.hand_unknown == 0 and state.discard_unknown == 0


def test_without_a_payee_the_cards_go_to_the_discard_pile() -> None:
    state = _state()
    ben, anna = state.player_named("Ben"), state.player_named("Anna")
    assert ben is not None and anna is not None
    du8 = MoneyCard(Currency.DUKATEN, 8)
    pay(Context(state), ben, [CardRef(du8)], PaymentTerms(8, "x", mix=Mix.ANY), NOWHERE)
    assert state.discard[du8] == 1 and anna.hand[du8] == 0
