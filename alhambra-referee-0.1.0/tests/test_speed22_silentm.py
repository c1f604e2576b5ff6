"""Issue 34, twentieth step: the market and purchase side of a silent module (Sultan, Die
Falkner, Die Wechselscheine, Das Wechselgeld).

* Sultan is no longer asked when a refill closes: the draws it notes (``fresh``) are stamped
  with the refills closed so far (``GameState.refills_closed``) and read only while that
  count holds, so a close lapses them as clearing them there did. The count is kept in one
  place (``core._refill_checks``) and only in a game whose module reads it
  (``Module.reads_refills_closed``: Sultan, Das Wechselgeld).
* Die Falkner adds no scoring part before a falcon was laid.
* Die Wechselscheine keeps a plain purchase without the property, the call and the tile's
  code (written when a finding names it).
* ``purchase_plain`` no longer calls to ask the modules once none is asked
  (``Extensions.leave_askers`` ``()``).
* The modules hearing the market's draws are told as one call (``Extensions.draw_heard``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import PATCHES_ENGINE, SETUP, run

from referee.engine import check_game, replay
from referee.engine.actions import purchase
from referee.engine.extensions import DrawHearers, Extensions
from referee.engine.turns import Moment
from referee.modules.sultan import _live
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_CACHE = Path("/work/notes/cache/bench-modules")


def _module(state: Any, name: str) -> Any:
    return next(m for m in state.ext.modules if m.name == name)


def test_who_counts_the_refills_and_who_is_asked_at_their_close() -> None:
    sultan = Extensions(["sultan"])
    assert sultan.refill_counted and not sultan.refill_asked and sultan.turn_asked
    money = Extensions(["wechselgeld"])
    assert money.refill_counted and money.refill_asked
    for name in ("falkner", "wechselscheine", "bazare"):
        assert not Extensions([name]).refill_counted, name
    assert not Extensions().refill_counted


def test_the_refills_closed_are_counted_only_where_a_module_reads_them() -> None:
    body = "1. Ben: take Gu8\n2. Cem: take Du2\n3. Anna: take De2\n"
    for name, counted in (("sultan", True), ("wechselgeld", True), ("falkner", False)):
        rep = run(body, name)
        assert rep.state is not None
        # two closes before a turn, and the record's end closes the last refill
        assert rep.state.refills_closed == (3 if counted else 0), name


def test_a_sultan_draw_lapses_when_the_refill_closes() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", modules="sultan") + (
        "1. Ben: buy Gu G11 pay Gu8 De3\n* market Gu:C8\n"
    )
    (game,) = parse_text(text, "t.alh")
    state, _ = replay(game)
    sultan = _module(state, "sultan")
    data = sultan.data(state)
    assert [(f, t.code) for f, t in _live(state, data)] == [(0, "C8")]
    # (a refill's draw keeps the turn-start answer: the refill closes before the next turn
    # begins, and the note lapses there: issue 34, twenty-third step, silentt)
    assert data.idle_start is True
    # the refill closes (no step of Sultan's): the note lapses where it lies
    text += "2. Cem: take Du2\n"
    (game,) = parse_text(text, "t.alh")
    state, _ = replay(game)
    data = sultan.data(state)
    assert _live(state, data) == [] and data.fresh_closed < state.refills_closed
    assert sultan.idle_at(state, Moment.TURN_START) and data.fresh == []
    assert data.idle_start is True


def test_a_claim_finds_the_open_refills_draw_and_not_a_closed_ones() -> None:
    # Anna holds no sultan card: the claim is reported, the tile drawn just now still leaves
    # the market; after the next close the same claim names a tile not drawn
    now = run(
        "1. Ben: buy Gu G11 pay Gu8 De3, place G11@1,0\n* market Gu:C8\n"
        "Anna: sultan su:De C8, place C8@1,0\n",
        "sultan",
    )
    reasons = [(v.code, v.reason) for v in now.violations if v.code.startswith("SULTAN")]
    assert ("SULTAN-CLAIM", "not-held") in reasons
    assert now.state is not None
    assert all(getattr(t, "code", None) != "C8" for t in now.state.market)  # it left the market
    later = run(
        "1. Ben: buy Gu G11 pay Gu8 De3, place G11@1,0\n* market Gu:C8\n2. Cem: take Du2\n"
        "Anna: sultan su:De C8, place C8@1,0\n",
        "sultan",
    )
    reasons = [(v.code, v.reason) for v in later.violations if v.code.startswith("SULTAN")]
    assert ("SULTAN-CLAIM", "not-drawn") in reasons


def test_the_sultan_example_still_claims() -> None:
    text = (_EXAMPLES / "module-sultan.alh").read_text(encoding="utf-8")
    (game,) = parse_text(text, "module-sultan.alh")
    rep = check_game(game)
    assert rep.valid, [v.code for v in rep.violations]
    assert rep.state is not None
    assert _module(rep.state, "sultan").data(rep.state).used  # a tile was claimed


def test_falkner_adds_no_scoring_part_before_a_falcon() -> None:
    rep = run("1. Ben: take Gu8\n", "falkner")
    assert rep.state is not None
    assert _module(rep.state, "falkner").scoring_parts(rep.state, 1) is None
    text = (_EXAMPLES / "module-falkner.alh").read_text(encoding="utf-8")
    (game,) = parse_text(text, "module-falkner.alh")
    example = check_game(game)
    assert example.valid, [v.code for v in example.violations]
    assert example.state is not None
    parts = _module(example.state, "falkner").scoring_parts(example.state, 1)
    assert parts is not None and [c.key for c in parts.categories] == ["falcons"]
    assert any("falcons" in row.categories for s in example.scorings for row in s.rows), (
        "the falcon line is scored in the example"
    )


def test_wechselscheine_keeps_a_plain_purchase_as_the_pipeline_does() -> None:
    body = "1. Ben: buy Gu G11 pay Gu8 De3\n"
    one = run(body, "wechselscheine")
    assert one.state is not None
    kept = _module(one.state, "wechselscheine").data(one.state).pending["Ben"]
    assert kept[1] == 0 and getattr(kept[2], "code", None) == "G11"
    over = run("1. Ben: buy Gu G11 pay Gu8 Di9 De3\n", "wechselscheine")
    assert over.state is not None
    kept = _module(over.state, "wechselscheine").data(over.state).pending.get("Ben")
    # Di9 cannot pay a Gulden field: the pipeline's purchase, its tile kept all the same
    assert kept is None or getattr(kept[2], "code", kept[2]) == "G11"


def test_a_certificate_names_the_tile_of_its_purchase() -> None:
    rep = run("1. Ben: buy Gu G11 pay Gu8 De3, certificate ws:De1\n", "wechselscheine")
    found = [v for v in rep.violations if v.code.startswith("CERTIFICATE")]
    assert [(v.code, v.reason) for v in found] == [("CERTIFICATE-NO-OVERPAY", "exact")]
    assert "G11" in found[0].message()


@PATCHES_ENGINE
@pytest.mark.parametrize("name", ["falkner", "sultan", "wechselscheine", "wechselgeld"])
def test_a_plain_purchase_asks_nobody_once_none_is_asked(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    short = purchase._modules_leave_purchases

    def counted(state: Any, p: Any, idx: int) -> bool:
        calls.append(idx)
        return short(state, p, idx)

    monkeypatch.setattr(purchase, "_modules_leave_purchases", counted)
    rep = run(
        "1. Ben: buy Gu G11 pay Gu8 De3, place G11@1,0\n* market Gu:C8\n"
        "2. Cem: buy Du T12 pay Du9 Di8, place T12@0,1\n* market Du:S5\n",
        name,
    )
    assert rep.state is not None
    assert rep.state.ext.leave_askers == ()
    assert len(calls) == 1  # the first purchase works the answer out; the second asks nobody


def test_the_draws_are_told_as_one_call() -> None:
    assert Extensions().draw_heard is None and Extensions(["falkner"]).draw_heard is None
    one = Extensions(["sultan"])
    heard = one.draw_heard
    assert getattr(heard, "__self__", None) is one.modules[0]
    both = Extensions(["sultan", "bazare"])
    assert isinstance(both.draw_heard, DrawHearers)
    assert both.draw_heard.hearers == both.drawing and len(both.drawing) == 2


@pytest.mark.skipif(not _CACHE.is_dir(), reason="the bench corpora are not on this machine")
@pytest.mark.parametrize("name", ["sultan", "falkner"])
def test_silent_games_stay_valid_and_sultan_is_never_stepped_at_a_close(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.modules.sultan import Sultan

    steps: list[Any] = []
    former = Sultan.at_moment

    def watched(self: Sultan, ctx: Any, moment: Any) -> None:
        steps.append(moment)
        former(self, ctx, moment)

    monkeypatch.setattr(Sultan, "at_moment", watched)
    text = (_CACHE / f"silent-{name}-20.alh").read_text(encoding="utf-8")
    for game in parse_text(text, "silent.alh")[:3]:
        rep = check_game(game)
        assert rep.valid and not rep.violations
    assert Moment.REFILL_DONE not in steps
