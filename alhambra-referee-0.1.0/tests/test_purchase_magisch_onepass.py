"""Die magischen Gebäude's buildings bought from a market field in one pass (issue 34, twelfth
step): the module promises that its pieces on a market field are bought as catalogue tiles
(``Module.plain_market_pieces``: it refines no purchase decision and has no ``on_purchase``;
a magic building is bought at its printed price and waits to be placed as a tile does), so
``purchase.purchase_plain`` buys one paid with money cards of the hand. The reports, module
views and states, hands, Alhambras, reserves and discard pile are the same as with the whole
purchase pipeline (the path switched off), on the module's example and simulated games alone,
beside the modules hearing of plain purchases (in both module orders) and among the first 22,
with lines left out and some payments changed; the path is really taken, and without the
promise the pipeline buys the building."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.modules.magisch import Magisch
from tests.purchase_onepass_support import (
    ROOT,
    SKIP_COMPILED,
    chosen,
    chosen_from,
    first22_game,
    piece_field_taken,
    simulated_games,
    simulated_variants,
    variants,
)

pytestmark = SKIP_COMPILED


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
KEPT = (0, 1, 4, 8, 9, 12, 15, 22, 24, 34, 36, 40, 41, 45, 54, 56, 57, 65, 72, 83)
KEPT_BESIDE = {
    "others0-magisch-first": (11,),
    "others0-magisch-last": (10,),
    "others1-magisch-first": (4, 15),
    "others1-magisch-last": (38,),
    "others2-magisch-first": (13,),
    "others2-magisch-last": (16,),
}
KEPT_FIRST22 = (0,)
KEPT_UNPROMISED = (11,)


def _on(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    return piece_field_taken(texts, monkeypatch)


def _texts(modules: tuple[str, ...], seed: int, games: int = 3) -> list[str]:
    return simulated_variants(modules, seed, "mg", "magic", games)


def _games(modules: tuple[str, ...], seed: int, games: int) -> Iterator[list[str]]:
    return simulated_games(modules, seed, "mg", "magic", games)


def test_a_magic_building_bought_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = ROOT / "examples" / "module-magisch.alh"
    texts = variants(example.read_text(encoding="utf-8"), "mg") if example.exists() else []
    taken = _on(chosen(texts + _texts(("magisch",), 14500), KEPT), monkeypatch)
    assert taken.count(True) >= 10, "no magic building was bought in one pass"
    assert taken.count(False) >= 3, "every magic building purchase took the one-pass path"


@pytest.mark.parametrize("magisch_first", [True, False], ids=["magisch-first", "magisch-last"])
@pytest.mark.parametrize(
    "others", [("angreifer", "obstgaerten"), ("wechselgeld", "wechselscheine"), ("medina",)]
)
def test_a_magic_building_beside_modules_taking_part_in_purchases_reports_as_the_pipeline(
    others: tuple[str, ...],
    magisch_first: bool,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    modules = ("magisch", *others) if magisch_first else (*others, "magisch")
    texts = _games(modules, 14600 + len(others) * 5 + magisch_first, 2)
    taken = _on(chosen_from(texts, KEPT_BESIDE[request.node.callspec.id]), monkeypatch)
    assert any(taken), f"{modules}: no magic building was bought in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = _on(chosen(variants(first22_game(3), "mg")[:4], KEPT_FIRST22), monkeypatch)
    assert any(taken)


def test_without_the_promise_the_pipeline_buys_the_building(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Magisch, "plain_market_pieces", False)
    taken = _on(chosen_from(_games(("magisch",), 14800, 2), KEPT_UNPROMISED), monkeypatch)
    assert taken and not any(taken)
