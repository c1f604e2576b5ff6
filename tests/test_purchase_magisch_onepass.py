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

import pytest

from referee.modules.magisch import Magisch
from tests.purchase_onepass_support import (
    ROOT,
    SKIP_COMPILED,
    first22_game,
    piece_field_taken,
    simulated_variants,
    variants,
)

pytestmark = SKIP_COMPILED


def _on(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    return piece_field_taken(texts, monkeypatch)


def _texts(modules: tuple[str, ...], seed: int, games: int = 3) -> list[str]:
    return simulated_variants(modules, seed, "mg", "magic", games)


def test_a_magic_building_bought_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = ROOT / "examples" / "module-magisch.alh"
    texts = variants(example.read_text(encoding="utf-8"), "mg") if example.exists() else []
    taken = _on(texts + _texts(("magisch",), 14500), monkeypatch)
    assert taken.count(True) >= 10, "no magic building was bought in one pass"
    assert taken.count(False) >= 3, "every magic building purchase took the one-pass path"


@pytest.mark.parametrize("magisch_first", [True, False], ids=["magisch-first", "magisch-last"])
@pytest.mark.parametrize(
    "others", [("angreifer", "obstgaerten"), ("wechselgeld", "wechselscheine"), ("medina",)]
)
def test_a_magic_building_beside_modules_taking_part_in_purchases_reports_as_the_pipeline(
    others: tuple[str, ...], magisch_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = ("magisch", *others) if magisch_first else (*others, "magisch")
    taken = _on(_texts(modules, 14600 + len(others) * 5 + magisch_first, 2), monkeypatch)
    assert any(taken), f"{modules}: no magic building was bought in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = _on(variants(first22_game(3), "mg")[:4], monkeypatch)
    assert any(taken)


def test_without_the_promise_the_pipeline_buys_the_building(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Magisch, "plain_market_pieces", False)
    taken = _on(_texts(("magisch",), 14800, 2), monkeypatch)
    assert taken and not any(taken)
