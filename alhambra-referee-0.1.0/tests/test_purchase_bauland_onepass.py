"""Neues Bauland's plots bought from a market field in one pass (issue 34, fourteenth step): the
module promises that its pieces on a market field are bought as catalogue tiles
(``Module.plain_market_pieces``: it refines no purchase decision; its ``on_purchase`` does for
a plot only what its ``after_plain_purchase`` does, the plot waiting for its building "sofort"),
and it hears of every purchase so (``hears_component_purchases``), so
``purchase.purchase_plain`` buys a plot paid with money cards of the hand. The reports, module
views and states, hands, Alhambras, reserves and discard pile are the same as with the whole
purchase pipeline (the path switched off), on the module's example and simulated games alone,
beside the modules hearing of plain purchases and those paid with components (in both module
orders) and among the first 22, with lines left out and some payments changed; a choice made
late (a second plot bought before the first one's building) is reported as the pipeline
reports it; the path is really taken, and without the promise the pipeline buys the plot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.modules.bauland import Bauland
from tests.purchase_onepass_support import (
    ROOT,
    SKIP_COMPILED,
    chosen,
    chosen_from,
    compare,
    first22_game,
    outcomes,
    piece_field_taken,
    simulated_games,
    simulated_variants,
    variants,
)

pytestmark = SKIP_COMPILED

EXAMPLE = ROOT / "examples" / "module-bauland.alh"


# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` that these do not (coverage, one context a text, on main at 350ea36:
# bench/README.md, issue 34, eighteenth step, one-pass tests).
# (15 kept beside the cover: its assertion counts three purchases the path declines, and the
# cover's copies hold two, 30 and 75)
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = (0, 1, 2, 5, 9, 11, 14, 15, 18, 19, 21, 22, 26, 30, 32, 35, 39, 53, 72, 75)
KEPT_BESIDE = {
    "others0-bauland-first": (0,),
    "others0-bauland-last": (13,),
    "others1-bauland-first": (0,),
    "others1-bauland-last": (13,),
    "others2-bauland-first": (0, 1, 2, 4, 5, 9, 10, 11, 13, 16, 19, 20, 22, 24, 31, 34, 35, 37),
    "others2-bauland-last": (14,),
    "others3-bauland-first": (0,),
    "others3-bauland-last": (15,),
}
KEPT_COMPONENTS = {
    "schaetze": (9,),
    "baustellen": (19,),
    "wechselgeld": (11,),
}
KEPT_FIRST22 = (0,)
# (the last copy, 39, kept too: the coverage run's last write of its lines failed)
KEPT_UNPROMISED = (15,)


def _on(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    return piece_field_taken(texts, monkeypatch)


def _texts(modules: tuple[str, ...], seed: int, games: int = 3) -> list[str]:
    return simulated_variants(modules, seed, "bl", "plots", games)


def _games(modules: tuple[str, ...], seed: int, games: int) -> Iterator[list[str]]:
    return simulated_games(modules, seed, "bl", "plots", games)


def test_a_plot_bought_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = variants(EXAMPLE.read_text(encoding="utf-8"), "bl")
    taken = _on(chosen(texts + _texts(("bauland",), 15500), KEPT), monkeypatch)
    assert taken.count(True) >= 10, "no plot was bought in one pass"
    assert taken.count(False) >= 3, "every plot purchase took the one-pass path"


def test_a_late_choice_is_reported_as_the_pipeline_reports_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Turn 54 of the example buys a tile, then a plot, then chooses; written with the plot's
    choice after the placement (late), and with the plot bought first and a tile after it."""
    text = EXAMPLE.read_text(encoding="utf-8")
    line = (
        "54. Anna: buy Gu T9nw pay Gu9, buy De bl:4_9e pay De4 De7, plot C, "
        "place T9nw@-2,2, place bl:4_9e_C@-1,3"
    )
    assert line in text
    late = text.replace(
        line,
        "54. Anna: buy De bl:4_9e pay De4 De7, buy Gu T9nw pay Gu9, plot C, "
        "place T9nw@-2,2, place bl:4_9e_C@-1,3",
    )
    texts = [text, late]
    taken = _on(texts, monkeypatch)
    assert any(taken)
    reports = outcomes([late])[0]
    assert "BAULAND-CHOICE" in reports


@pytest.mark.parametrize("bauland_first", [True, False], ids=["bauland-first", "bauland-last"])
@pytest.mark.parametrize(
    "others",
    [
        ("angreifer", "obstgaerten"),
        ("wechselgeld", "wechselscheine"),
        ("baustellen",),
        ("schaetze", "medina"),
    ],
)
def test_a_plot_beside_modules_taking_part_in_purchases_reports_as_the_pipeline(
    others: tuple[str, ...],
    bauland_first: bool,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    modules = ("bauland", *others) if bauland_first else (*others, "bauland")
    texts = _games(modules, 15600 + len(others) * 5 + bauland_first, 2)
    taken = _on(chosen_from(texts, KEPT_BESIDE[request.node.callspec.id]), monkeypatch)
    assert any(taken), f"{modules}: no plot was bought in one pass"


@pytest.mark.parametrize("owner", ["schaetze", "baustellen", "wechselgeld"])
def test_purchases_with_components_beside_neues_bauland_report_as_the_pipeline(
    owner: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neues Bauland hears of every purchase now: a purchase with another module's components
    still takes its one-pass path beside it, with the same outcome."""
    kind = {"schaetze": "sz", "baustellen": "bs", "wechselgeld": "co"}[owner]
    texts = simulated_games(("bauland", owner), 15700 + len(owner), kind, "beside", 2)
    taken = compare(chosen_from(texts, KEPT_COMPONENTS[owner]), monkeypatch, scratch=True)
    assert any(taken), f"{owner}: no purchase with components was made in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = _on(chosen(variants(first22_game(3), "bl")[:4], KEPT_FIRST22), monkeypatch)
    assert any(taken)


def test_without_the_promise_the_pipeline_buys_the_plot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Bauland, "plain_market_pieces", False)
    taken = _on(chosen_from(_games(("bauland",), 15900, 2), KEPT_UNPROMISED), monkeypatch)
    assert taken and not any(taken)
