"""Hidden draws (extension point E12, ``referee/engine/hidden.py``): the bookkeeping of a
supply from which components are drawn seen (named) or unseen (``?``)."""

from __future__ import annotations

from referee.engine.hidden import UNSEEN, HiddenSupply, drawn_tokens
from referee.record.model import ComponentRef, GenericArg


def bag() -> HiddenSupply:
    return HiddenSupply(4, {"Gu": 2, "Di": 2})


def test_draws_seen_and_unseen_leave_the_pool() -> None:
    s = bag()
    assert s.draw("Anna", "Gu") == [] and s.draw("Anna", None) == []
    assert s.in_pool() == 2 and s.count("Anna") == 2
    assert s.shown("Anna", "co") == "co:Gu ?"
    assert s.pool() == {"Gu": 1, "Di": 2}  # what is left if every component is known


def test_drawing_from_an_empty_supply() -> None:
    s = bag()
    for _ in range(4):
        assert s.draw("Ben", None) == []
    assert s.draw("Ben", "Gu") == ["empty"]


def test_more_of_a_name_than_exist() -> None:
    s = bag()
    s.draw("Anna", "Gu")
    s.draw("Ben", "Gu")
    assert s.draw("Cem", "Gu") == ["supply"]


def test_an_unseen_component_is_revealed_when_spent() -> None:
    s = bag()
    s.draw("Anna", None)
    assert s.take("Anna", "Di") == []  # was the unseen one
    assert s.take("Anna", "Di") == ["not-held"]
    s.draw("Anna", "Gu")
    s.draw("Ben", "Gu")
    s.draw("Cem", None)
    assert s.take("Cem", "Gu") == ["supply"]  # both Gulden are known elsewhere


def test_discarded_components_leave_the_game() -> None:
    s = bag()
    s.draw("Anna", "Gu")
    assert s.discard("Anna", "Gu") == [] and s.gone["Gu"] == 1
    assert s.in_pool() == 3 and s.left_of("Gu") == 1
    assert s.discard("Anna", None) == ["not-held"]


def test_move_between_holders() -> None:
    s = bag()
    s.draw("@display", "Di")
    assert s.move("@display", "Anna", "Di") == [] and s.held("Anna") == {"Di": 1}
    assert s.move("@display", "Anna", "Di") == ["not-held"]


def test_tokens_of_a_chance_line() -> None:
    args = [GenericArg(ComponentRef("co", "Gu")), GenericArg(UNSEEN), GenericArg("Ben")]
    drawn, other = drawn_tokens(args, "co")
    assert drawn == ["Gu", None] and [a.value for a in other] == ["Ben"]  # type: ignore[attr-defined]
