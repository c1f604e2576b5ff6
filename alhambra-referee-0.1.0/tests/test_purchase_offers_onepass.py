"""Pieces bought from a module's own offer beside the market (E15) in one pass (issue 34,
thirteenth step): Der Sultan, Die Bazare, Die Badehäuser and Der Wunschbrunnen promise that a
piece of their offers bought with money cards of the hand in a turn's main action is bought as
a catalogue tile is (``Module.plain_side_offers``: the offer's price and currency, the base
layer's answers, only an exact payment for an exact-only offer, ``take_side_offer`` all the
module does), so ``purchase.purchase_plain`` buys it (``purchase._purchase_side_offer``). The
reports, module views and states, hands, Alhambras, reserves and discard pile are the same as
with the whole purchase pipeline (the path switched off), on each module's example and
simulated games alone, beside the modules hearing of plain purchases (in both module orders)
and among the first 22, with lines left out and some payments changed; the path is really
taken, it declines what the pipeline reports, and without the promise the pipeline buys the
piece."""

from __future__ import annotations

import pytest

from referee.modules.bazare import BazareModule
from tests.purchase_onepass_support import (
    ROOT,
    SKIP_COMPILED,
    chosen,
    chosen_from,
    compare,
    first22_game,
    simulated_games,
    simulated_variants,
    variants,
)

pytestmark = SKIP_COMPILED

MODULES = {  # module -> (component kind, example file)
    "sultan": ("su", "module-sultan.alh"),
    "bazare": ("bz", "module-bazare.alh"),
    "badehaeuser": ("bh", "module-badehaeuser.alh"),
    "wunschbrunnen": ("ww", "module-wunschbrunnen.alh"),
}


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
    "badehaeuser": (0, 1, 2, 3, 5, 11, 13, 19, 20, 26, 27, 29, 30, 33, 35, 39, 42, 49, 52, 58, 64),
    "bazare": (0, 11, 13, 17, 18, 19, 20, 24, 30, 34, 39, 41, 46, 52, 64, 67, 77, 79),
    "sultan": (0, 1, 2, 7, 14, 19, 20, 25, 30, 33, 38, 41, 42, 52, 54, 55, 56, 57, 60, 69),
    "wunschbrunnen": (0, 3, 7, 13, 14, 15, 16, 17, 18, 22, 24, 32, 33, 36, 43, 77),
}
KEPT_BESIDE = {
    "sultan-others0-owner-first": (4,),
    "sultan-others0-owner-last": (37,),
    "sultan-others1-owner-first": (12,),
    "sultan-others1-owner-last": (10,),
    "badehaeuser-others0-owner-first": (17,),
    "badehaeuser-others0-owner-last": (10,),
    "badehaeuser-others1-owner-first": (33,),
    "badehaeuser-others1-owner-last": (0,),
}
KEPT_UNPROMISED = (32,)


def _on(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of the side-offer path carried its purchase out (the outcomes with
    the path and with the pipeline asserted equal)."""
    return compare(texts, monkeypatch, scratch=True, path="_purchase_side_offer", off=False)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_piece_of_the_offer_bought_in_one_pass_reports_as_the_pipeline(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind, name = MODULES[module]
    example = ROOT / "examples" / name
    texts = variants(example.read_text(encoding="utf-8"), kind) if example.exists() else []
    seed = 15100 + 10 * sorted(MODULES).index(module)
    texts += simulated_variants((module,), seed, kind, module)
    taken = _on(chosen(texts, KEPT[module]), monkeypatch)
    assert taken.count(True) >= 5, f"{module}: no piece was bought in one pass"
    assert taken.count(False) >= 1, f"{module}: every purchase of the offer took the path"


@pytest.mark.parametrize("owner_first", [True, False], ids=["owner-first", "owner-last"])
@pytest.mark.parametrize(
    "others", [("angreifer", "obstgaerten"), ("wechselgeld", "wechselscheine")]
)
@pytest.mark.parametrize("module", ["sultan", "badehaeuser"])
def test_a_piece_of_the_offer_beside_the_hearers_reports_as_the_pipeline(
    module: str,
    others: tuple[str, ...],
    owner_first: bool,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    kind = MODULES[module][0]
    modules = (module, *others) if owner_first else (*others, module)
    seed = 15200 + 7 * len(module) + 3 * len(others[0]) + owner_first
    texts = simulated_games(modules, seed, kind, "offers", 2)
    taken = _on(chosen_from(texts, KEPT_BESIDE[request.node.callspec.id]), monkeypatch)
    assert any(taken), f"{modules}: no piece was bought in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts: list[str] = []
    for k, kind in enumerate(("su", "bz")):
        texts += variants(first22_game(3 + k), kind)[:3]
    taken = _on(texts, monkeypatch)
    assert taken.count(True) >= 3


def test_an_inexact_payment_for_a_bazaar_goes_to_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Ein Bazar darf nur passend bezahlt werden": a card more paid for a bazaar is the
    module's finding (BAZAAR-PRICE, not-exact), which only the pipeline writes."""
    texts = simulated_variants(("bazare",), 15400, "bz", "bazaar", 3)
    changed = [t for t in texts if " pay Gu9 " in t]
    assert changed
    _on(changed, monkeypatch)


def test_without_the_promise_the_pipeline_buys_the_piece(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.engine.actions import purchase  # the engine's own path, watched

    called: list[object] = []
    real = purchase._purchase_side_offer
    monkeypatch.setattr(BazareModule, "plain_side_offers", False)
    monkeypatch.setattr(purchase, "_purchase_side_offer", lambda *a: called.append(a) or real(*a))
    from tests.purchase_onepass_support import outcomes

    outcomes(chosen_from(simulated_games(("bazare",), 15500, "bz", "bazaar", 2), KEPT_UNPROMISED))
    assert not called
