"""Purchases paid with an exchange card, and module pieces on a market field paid with
components, in one pass (issue 34, fourteenth step). Die Wechselstuben answers for a purchase
otherwise plain that names one of its cards (``Module.plain_currencies``: the card's second
currency may pay; ``plain_components``: one card, held, showing the field's currency, counting
nothing itself; ``spend_plain_components``: the card to the discard pile), so
``purchase._purchase_with_components`` carries it out. Die Wechselstuben and Das Wechselgeld
promise that their answers hold for another module's piece on a market field too
(``Module.plain_components_pieces``: a medina, a magic building, a plot of Neues Bauland), so
such a piece paid partly with coins or an exchange card takes the path as well. The reports,
module views and states, hands, Alhambras, reserves and discard pile are the same as with the
whole purchase pipeline (the path switched off), on the module's example and simulated games,
beside the piece modules and the modules hearing of plain purchases, and among the first 22,
with lines left out and the cards' tokens changed (a second card, a card that is none, another
spelling, a money card more); the path is really taken, and without the promises the pipeline
runs."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from referee.modules import BUNDLED
from referee.modules.wechselgeld import Wechselgeld
from referee.modules.wechselstuben import Wechselstuben
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

PIECE_KINDS = {"medina": "md", "magisch": "mg", "bauland": "bl"}

# The copies each test checks, by their index in its list of texts: the others ran no line of
# ``referee`` (with the path and without it) that these do not (coverage, one context a text,
# on main at c7568e1: bench/README.md, issue 34, seventeenth step, one-pass tests).
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT_BESIDE = {  # (owner, others, owner first)
    ("wechselstuben", ("medina", "magisch"), True): (4,),
    ("wechselstuben", ("medina", "magisch"), False): (9,),
    ("wechselstuben", ("bauland",), True): (17,),
    ("wechselstuben", ("bauland",), False): (9,),
    ("wechselstuben", ("angreifer", "obstgaerten"), True): (18,),
    ("wechselstuben", ("angreifer", "obstgaerten"), False): (12,),
    ("wechselstuben", ("wechselgeld", "wechselscheine"), True): (16,),
    ("wechselstuben", ("wechselgeld", "wechselscheine"), False): (54,),
    ("wechselgeld", ("medina", "magisch"), True): (51,),
    ("wechselgeld", ("medina", "magisch"), False): (5,),
    ("wechselgeld", ("bauland", "obstgaerten"), True): (11,),
    ("wechselgeld", ("bauland", "obstgaerten"), False): (12,),
}
KEPT_PIECES = (19,)
KEPT_FIRST22 = (4,)
KEPT_PROMISES = (1, 11, 13, 19, 35, 41, 44, 50, 58, 60, 69, 70, 75, 76, 77, 83, 89)


def _texts(modules: tuple[str, ...], seed: int, kind: str = "ex", games: int = 3) -> list[str]:
    return simulated_variants(modules, seed, kind, "exchange", games)


def test_the_modules_promising_their_answers_for_pieces() -> None:
    assert sorted(cls.name for cls in BUNDLED if cls.plain_components_pieces) == [
        "wechselgeld",
        "wechselstuben",
    ]


def test_an_exchange_card_purchase_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    example = ROOT / "examples" / "module-wechselstuben.alh"
    texts = variants(example.read_text(encoding="utf-8"), "ex") if example.exists() else []
    # (every copy: the counts below are of copies, fewer copies decline the path fewer times)
    taken = compare(texts + _texts(("wechselstuben",), 16500), monkeypatch, scratch=True)
    assert taken.count(True) >= 5, "no exchange card purchase was made in one pass"
    assert taken.count(False) >= 3, "every exchange card purchase took the one-pass path"


@pytest.mark.parametrize("owner_first", [True, False], ids=["owner-first", "owner-last"])
@pytest.mark.parametrize(
    ("owner", "others"),
    [
        ("wechselstuben", ("medina", "magisch")),
        ("wechselstuben", ("bauland",)),
        ("wechselstuben", ("angreifer", "obstgaerten")),
        ("wechselstuben", ("wechselgeld", "wechselscheine")),
        ("wechselgeld", ("medina", "magisch")),
        ("wechselgeld", ("bauland", "obstgaerten")),
    ],
    ids=lambda g: g if isinstance(g, str) else "+".join(g),
)
def test_pieces_and_hearers_beside_the_owner_report_as_the_pipeline(
    owner: str, others: tuple[str, ...], owner_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = (owner, *others) if owner_first else (*others, owner)
    kind = "ex" if owner == "wechselstuben" else "co"
    seed = 16600 + len(owner) * 7 + len(others) * 3 + owner_first
    pieces: list[Any] = []
    games = simulated_games(modules, seed, kind, "exchange", 3)
    texts = chosen_from(games, KEPT_BESIDE[owner, others, owner_first])
    taken = compare(texts, monkeypatch, pieces, scratch=True)
    assert any(taken), f"{modules}: no purchase with components was made in one pass"


def test_pieces_paid_with_components_take_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some of the purchases carried out so are of a piece on a market field."""
    pieces: list[Any] = []
    games = itertools.chain(
        simulated_games(("medina", "wechselgeld", "magisch"), 16800, "co", "exchange", 3),
        simulated_games(("bauland", "wechselstuben", "medina"), 16810, "ex", "exchange", 3),
    )
    compare(chosen_from(games, KEPT_PIECES), monkeypatch, pieces, scratch=True)
    kinds = {getattr(p, "KIND", None) for p in pieces}
    assert kinds & set(PIECE_KINDS.values()), kinds


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = chosen(variants(first22_game(3), "ex")[:5], KEPT_FIRST22)
    taken = compare(texts, monkeypatch, scratch=True)
    assert any(taken)


def test_without_the_promises_the_pipeline_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts(("medina", "wechselgeld", "magisch"), 16800, "co", 3)
    alone = _texts(("wechselstuben",), 16960, "ex", 2)
    texts, alone = list(dict.fromkeys(texts)), list(dict.fromkeys(alone))
    n = len(texts)  # (the indices count on over the two lists' different texts)
    texts = [texts[i] for i in KEPT_PROMISES if i < n]
    alone = [alone[i - n] for i in KEPT_PROMISES if i >= n]
    on_pieces = {"md", "mg"}
    pieces: list[Any] = []
    compare(texts, monkeypatch, pieces)
    assert any(getattr(p, "KIND", None) in on_pieces for p in pieces)
    monkeypatch.setattr(Wechselgeld, "plain_components_pieces", False)
    pieces = []
    compare(texts, monkeypatch, pieces)
    assert not any(getattr(p, "KIND", None) in on_pieces for p in pieces)
    monkeypatch.setattr(Wechselstuben, "plain_components_pieces", False)
    monkeypatch.setattr(Wechselstuben, "plain_components", lambda *args: None)
    taken = compare(alone, monkeypatch)
    assert taken and not any(taken)
