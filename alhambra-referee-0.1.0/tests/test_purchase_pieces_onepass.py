"""A module's piece bought from a market field in one pass (issue 34, eleventh step): when the
piece's module promises that its pieces on a market field are bought as catalogue tiles
(``Module.plain_market_pieces``: Die Medina), ``purchase.purchase_plain`` buys one paid with
money cards of the hand (``purchase._plain_piece_field`` finds its field), beside modules that
leave such a purchase alone (``purchases_by_components``) or hear of it
(``hears_component_purchases``). The reports, module views and states, hands, Alhambras,
reserves and discard pile are the same as with the whole purchase pipeline (the path switched
off), on the module's example and simulated games alone, beside each module hearing of plain
purchases (in both module orders), and among the first 22 modules, with lines left out and
some payments changed; the path is really taken, and a module without the promise (or another
module taking part without one) sends the purchase to the pipeline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.modules import BUNDLED
from referee.modules.medina import MedinaModule
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

PROMISING = sorted(cls.name for cls in BUNDLED if cls.plain_market_pieces)


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
KEPT = (0, 1, 2, 5, 9, 11, 12, 13, 21, 22, 27, 31, 35, 48, 51, 53, 57, 61, 68, 83)
KEPT_BESIDE = {
    "others0-medina-first": (1, 4, 8, 11, 13, 14, 19, 23, 24, 25, 30, 31, 32, 35),
    "others0-medina-last": (8,),
    "others1-medina-first": (18, 36),
    "others1-medina-last": (19, 36),
    "others2-medina-first": (14,),
    "others2-medina-last": (14,),
}
KEPT_UNPROMISED = (12,)
KEPT_MENAGERIE = (0, 1, 2, 29)


def _on(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    return piece_field_taken(texts, monkeypatch)


def _texts(modules: tuple[str, ...], seed: int, games: int = 3) -> list[str]:
    return simulated_variants(modules, seed, "md", "pieces", games)


def _games(modules: tuple[str, ...], seed: int, games: int) -> Iterator[list[str]]:
    return simulated_games(modules, seed, "md", "pieces", games)


def test_the_modules_promising_plain_market_pieces() -> None:
    assert PROMISING == ["bauland", "magisch", "medina"]


def test_a_medina_bought_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = ROOT / "examples" / "module-medina.alh"
    texts = variants(example.read_text(encoding="utf-8"), "md") if example.exists() else []
    taken = _on(chosen(texts + _texts(("medina",), 9500), KEPT), monkeypatch)
    assert taken.count(True) >= 10, "no medina was bought in one pass"
    assert taken.count(False) >= 3, "every medina purchase took the one-pass path"


@pytest.mark.parametrize("medina_first", [True, False], ids=["medina-first", "medina-last"])
@pytest.mark.parametrize(
    "others", [("angreifer", "obstgaerten"), ("wechselgeld", "wechselscheine"), ("schaetze",)]
)
def test_a_medina_beside_modules_taking_part_in_purchases_reports_as_the_pipeline(
    others: tuple[str, ...],
    medina_first: bool,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    modules = ("medina", *others) if medina_first else (*others, "medina")
    texts = _games(modules, 9600 + len(others) * 5 + medina_first, 2)
    taken = _on(chosen_from(texts, KEPT_BESIDE[request.node.callspec.id]), monkeypatch)
    assert any(taken), f"{modules}: no medina was bought in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = _on(variants(first22_game(2), "md")[:4], monkeypatch)
    assert any(taken)


def test_without_the_promise_the_pipeline_buys_the_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MedinaModule, "plain_market_pieces", False)
    taken = _on(chosen_from(_games(("medina",), 9800, 2), KEPT_UNPROMISED), monkeypatch)
    assert taken and not any(taken)


def test_a_module_taking_part_without_a_promise_sends_the_piece_to_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Die Menagerie hears of plain purchases and has not promised to hear of these
    taken = _on(chosen_from(_games(("medina", "menagerie"), 9900, 2), KEPT_MENAGERIE), monkeypatch)
    assert taken and not any(taken)
