"""Issue 34, nineteenth step: what a silent module costs a turn (Die Charaktere, Sultan).

* Die Charaktere hears no purchase made in one pass (no ``after_plain_purchase``): its
  ``on_purchase`` acts on a plain purchase only for a holder of the Geizhals (his card becomes
  due), so :meth:`Charaktere.leaves_plain_purchase` says no for him (the pipeline runs and
  ``on_purchase`` counts the purchase) and yes for everyone else (one pass, nothing to hear).
* Its scoring parts and its Händler's limit do no work while nobody holds a card / nobody used
  the Händler: the same answers.
* ``core._market`` asks the modules hearing a draw (``Extensions.drawing``) itself, as
  ``market_side.intercept`` does: a Sultan draw is noted, a piece set aside is reported.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SETUP, run

from referee.engine import GameReport, check_game
from referee.engine.extensions import Extensions
from referee.modules.charaktere import GEIZHALS, Charaktere
from referee.modules.sultan import _live
from referee.notation import parse_text

CH = "charaktere"


def _position(body: str, anna: str = "", hand: str = "Gu4 Gu2 Gu5") -> GameReport:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "{CH}"]
position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand {hand}
    alhambra P8-@-1,0 S9-@0,1
    {anna}
  player Ben
    hand Du8 Di5 Gu1
  player Cem
    hand Gu2 Di9
end
{body}"""
    games = parse_text(text, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def _codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations if v.code not in ("CHARAKTERE-PILE", "EXCHANGE-PILE")]


def _module(rep: GameReport) -> Any:
    assert rep.state is not None
    return next(m for m in rep.state.ext.modules if m.name == CH)


def test_charaktere_hears_no_purchase_made_in_one_pass() -> None:
    ext = Extensions([CH])
    chars = next(m for m in ext.modules if m.name == CH)
    assert chars not in ext.after_plain
    assert chars in ext.purchase_askers()  # asked: its answer depends on the buyer
    assert not Charaktere.leaves_plain_purchases


def test_only_a_holder_of_the_geizhals_is_told_no() -> None:
    rep = _position("", anna="characters ch:Geizhals")
    state = rep.state
    assert state is not None
    chars = _module(rep)
    anna, ben = state.player_named("Anna"), state.player_named("Ben")
    assert anna is not None and ben is not None
    assert chars.holds(state, anna, GEIZHALS)
    assert chars.leaves_plain_purchase(state, anna, 0) is False
    assert chars.leaves_plain_purchase(state, ben, 0) is True
    other = _position("", anna="characters ch:Baumeister")
    assert other.state is not None
    anna2 = other.state.player_named("Anna")
    assert anna2 is not None
    assert _module(other).leaves_plain_purchase(other.state, anna2, 0) is True


@pytest.mark.parametrize("holder", [True, False])
def test_a_purchase_reaches_on_purchase_only_for_the_geizhals(
    holder: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    former = Charaktere.on_purchase

    def watched(self: Charaktere, ctx: Any, purchase: Any) -> None:
        seen.append(purchase.player.name)
        former(self, ctx, purchase)

    monkeypatch.setattr(Charaktere, "on_purchase", watched)
    anna = "characters ch:Geizhals" if holder else "characters ch:Baumeister"
    rep = _position("1. Anna: buy Gu G11- pay Gu4 Gu2 Gu5, place G11-@1,0\n", anna=anna)
    assert _codes(rep) == []
    assert seen == (["Anna"] if holder else [])  # the pipeline for the holder, else one pass
    assert rep.state is not None
    due = _module(rep).data(rep.state).miser_due
    assert due == ({"Anna": (1, 1)} if holder else {})


def test_the_geizhals_still_takes_his_card_after_a_purchase_of_10() -> None:
    rep = _position(
        "1. Anna: buy Gu G11- pay Gu4 Gu2 Gu5, miser Di3, place G11-@1,0\n",
        anna="characters ch:Geizhals",
    )
    assert _codes(rep) == []
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and sorted(c.code for c in anna.hand.elements()) == ["Di3"]
    rep = _position(
        "1. Anna: buy De P7e pay De8, place P7e@1,0, miser Gu4\n",
        anna="characters ch:Geizhals",
        hand="Gu4 De8 De4",
    )
    assert [(v.code, v.reason) for v in rep.violations if v.code.startswith("CHARAKTERE-M")] == [
        ("CHARAKTERE-MISER", "no-purchase")
    ]


def test_scoring_parts_need_a_card_held() -> None:
    rep = _position("")
    assert rep.state is not None
    assert _module(rep).scoring_parts(rep.state, 1) is None
    guard = _position("", anna="characters ch:Stadtwache")
    assert guard.state is not None
    parts = _module(guard).scoring_parts(guard.state, 1)
    assert parts is not None and [c.key for c in parts.categories] == ["guard"]


def test_the_haendler_limit_is_the_same() -> None:
    # "Der Händler – erlaubt, mehrere Geldkarten zu nehmen, wenn ihre Summe nicht größer als 7
    # ist (statt sonst 5)." (L1077-1080): before any use, and once used
    rep = _position("", anna="characters ch:Haendler")
    state = rep.state
    assert state is not None
    anna = state.player_named("Anna")
    assert anna is not None
    ctx = type("Ctx", (), {"state": state})()
    assert _module(rep).merchant_limit(ctx, 5, player=anna) == 5  # no turn under way
    assert (
        _codes(_position("1. Anna: merchant, take Gu4 Di3\n", anna="characters ch:Haendler")) == []
    )
    assert _codes(_position("1. Anna: take Gu4 Di3\n", anna="characters ch:Haendler")) != []


def test_a_drawn_tile_is_noted_by_sultan_and_a_piece_set_aside_is_reported() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", modules="sultan") + (
        "1. Ben: buy Gu G11 pay Gu8 De3\n* market Gu:C8\n"
    )
    (game,) = parse_text(text, "t.alh")
    from referee.engine import replay

    state, _ = replay(game)
    sultan = next(m for m in state.ext.modules if m.name == "sultan")
    fresh = sultan.data(state).fresh
    assert [(f, t.code) for f, t in fresh] == [(0, "C8")]
    rep = run(
        "1. Ben: buy Gu G11 pay Gu8 De3, place G11@1,0\n* market Gu:C8\n2. Cem: take Du2\n",
        "sultan",
    )
    assert rep.state is not None
    # the refill closed: nothing open (the note lapsed where it lies: _live)
    assert _live(rep.state, sultan.data(rep.state)) == []
