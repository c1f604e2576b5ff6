"""The kit's ``token_text`` (``referee/modules/base.py``): a line's argument spelt as the record
wrote it, for a message -- the one copy of what four modules each carried (obstgaerten,
wechselgeld, wechselscheine, wertungskaertchen)."""

from __future__ import annotations

from referee.catalogue import Currency, MoneyCard
from referee.modules.base import token_text
from referee.record.model import CardRef, ComponentRef, GenericArg, PlayerRef


def test_each_kind_of_argument_reads_as_written() -> None:
    assert token_text(ComponentRef("ws", "De5")) == "ws:De5"
    assert token_text(GenericArg(ComponentRef("fr", "4"))) == "fr:4"  # the argument's value
    assert token_text(CardRef(MoneyCard(Currency("De"), 5))) == "De5"
    assert token_text(CardRef(None)) == "?"
    assert token_text(PlayerRef("Anna")) == "Anna"
    assert token_text(GenericArg("down")) == "down"
    assert token_text(17) == "17"
