"""A piece of a module's own offer beside the market bought on a vizier's out-of-turn line in
one pass (issue 34, fourteenth step): when the offer's module takes no part in purchases (no
purchase refinement, no ``on_purchase``: Die Bazare, Die Badehäuser, Der Wunschbrunnen),
nothing of it can tell an out-of-turn purchase from one in a turn, so
``purchase._purchase_side_offer`` buys it there too; Der Sultan (its ``pay.problems`` reports
an out-of-turn purchase: "Mit einem Wesir kann man keine Sultankarte kaufen") still sends it to
the pipeline. The reports, module views and states, hands, Alhambras, reserves and discard
pile are the same as with the whole pipeline (the path switched off), on simulated games of
Der Wesir with the offering modules, with lines left out and payments changed, and among the
first 22; the path is really taken out of turn."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.actions import purchase as _purchase_module
from tests.purchase_onepass_support import (
    SKIP_COMPILED,
    chosen_from,
    compare,
    first22_game,
    simulated_games,
    variants,
)

pytestmark = SKIP_COMPILED

KINDS = {"bazare": "bz", "badehaeuser": "bh", "wunschbrunnen": "ww", "sultan": "su"}


# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` that these do not (coverage, one context a text, on main at 350ea36:
# bench/README.md, issue 34, eighteenth step, one-pass tests).
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = {
    "wesir+bazare": (17,),
    "badehaeuser+wesir+wunschbrunnen": (32,),
    "wesir+sultan": (7, 14),
}
KEPT_OUT_OF_TURN = (49, 185, 221)


def _watched(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[list[bool], list[Any]]:
    """:func:`compare` over the side-offer path, and the out-of-turn calls that took it (the
    module of each offer bought on a vizier's line in one pass)."""
    real = _purchase_module._purchase_side_offer
    out_of_turn: list[Any] = []

    def watching(state: Any, p: Any, a: Any, ref: Any, owner: Any, check: bool) -> bool:
        interrupted = state.turn.interrupt is not None
        done = real(state, p, a, ref, owner, check)
        if done and interrupted:
            out_of_turn.append(owner.name)
        return done

    monkeypatch.setattr(_purchase_module, "_purchase_side_offer", watching)
    taken = compare(texts, monkeypatch, scratch=True, path="_purchase_side_offer", off=False)
    return taken, out_of_turn


@pytest.mark.parametrize(
    "modules",
    [("wesir", "bazare"), ("badehaeuser", "wesir", "wunschbrunnen"), ("wesir", "sultan")],
    ids="+".join,
)
def test_an_offer_bought_on_a_vizier_line_reports_as_the_pipeline(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = next(KINDS[m] for m in modules if m in KINDS)
    games = simulated_games(modules, 17100 + 7 * len(modules), kind, "vizier", 4)
    texts = chosen_from(games, KEPT["+".join(modules)])
    taken, out_of_turn = _watched(texts, monkeypatch)
    assert any(taken), f"{modules}: no piece of an offer was bought in one pass"
    assert "sultan" not in out_of_turn  # (its refinement reports it: the pipeline)


def test_offers_are_bought_out_of_turn_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    games = (
        game
        for k, module in enumerate(("bazare", "badehaeuser", "wunschbrunnen"))
        for game in simulated_games(("wesir", module), 17200 + k, KINDS[module], "vizier", 4)
    )
    _taken, out_of_turn = _watched(chosen_from(games, KEPT_OUT_OF_TURN), monkeypatch)
    assert out_of_turn, "no piece of an offer was bought on a vizier's line in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken, _out = _watched(variants(first22_game(4), "bz")[:4], monkeypatch)
    assert any(taken)
