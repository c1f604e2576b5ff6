"""A purchase with one module's components in one pass beside modules that hear of plain
purchases (issue 34, eleventh step): a module overriding ``after_plain_purchase`` that
declares ``Module.hears_component_purchases`` (Angreifer, Obstgärten, Wechselgeld,
Wechselscheine) hears of such a purchase at its own place in module order, with the whole
sum, the pipeline's exactness and price, and the tile as its ``on_purchase`` would find it
there (the building site Baustellen put on it, when Baustellen comes first). Each owner of
components beside each such hearer, in both module orders, gives the same reports, module
views, hands, Alhambras, reserves and discard pile with the one-pass path as with the
pipeline, on simulated games with lines left out and the owner's tokens changed; a module
hearing of plain purchases without the promise still sends such a purchase to the
pipeline."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from referee.engine.extensions import Extensions, Module
from referee.modules import BUNDLED
from referee.modules.baustellen import SitePiece
from tests.purchase_onepass_support import (
    PROFILES,
    SKIP_COMPILED,
    chosen_from,
    compare,
    variants,
)

pytestmark = SKIP_COMPILED

KINDS = {cls.name: cls.component_kinds[0] for cls in BUNDLED if cls.component_kinds}
HEARING = sorted(
    cls.name for cls in BUNDLED if cls.after_plain_purchase is not Module.after_plain_purchase
)
VOUCHING_HEARERS = sorted(cls.name for cls in BUNDLED if cls.hears_component_purchases)

# (owner of the components, the modules hearing of plain purchases beside it)
GROUPS = [
    ("baustellen", ("obstgaerten",)),
    ("baustellen", ("wechselscheine",)),
    ("baustellen", ("angreifer",)),
    ("baustellen", ("wechselgeld",)),
    ("schaetze", ("wechselscheine",)),
    ("schaetze", ("angreifer", "obstgaerten")),
    ("diamanten", ("obstgaerten", "wechselgeld")),
    ("wechselgeld", ("angreifer", "wechselscheine")),
]

# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` (with the path and without it) that these do not (coverage, one context a
# text, on main at 350ea36: bench/README.md, issue 34, eighteenth step, one-pass tests).
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = {
    "baustellen-obstgaerten-owner-first": (19,),
    "baustellen-obstgaerten-owner-last": (20,),
    "baustellen-wechselscheine-owner-first": (34,),
    "baustellen-wechselscheine-owner-last": (20,),
    "baustellen-angreifer-owner-first": (11,),
    "baustellen-angreifer-owner-last": (21,),
    "baustellen-wechselgeld-owner-first": (16,),
    "baustellen-wechselgeld-owner-last": (8,),
    "schaetze-wechselscheine-owner-first": (11,),
    "schaetze-wechselscheine-owner-last": (0,),
    "schaetze-angreifer+obstgaerten-owner-first": (9,),
    "schaetze-angreifer+obstgaerten-owner-last": (16,),
    "diamanten-obstgaerten+wechselgeld-owner-first": (0,),
    "diamanten-obstgaerten+wechselgeld-owner-last": (11,),
    "wechselgeld-angreifer+wechselscheine-owner-first": (11,),
    "wechselgeld-angreifer+wechselscheine-owner-last": (11,),
}
KEPT_UNPROMISED = (15, 16)


def test_the_modules_hearing_of_plain_purchases_that_vouch() -> None:
    assert VOUCHING_HEARERS == [
        "angreifer",
        "bauland",
        "obstgaerten",
        "wechselgeld",
        "wechselscheine",
    ]
    assert set(VOUCHING_HEARERS) <= set(HEARING)


def _texts(modules: tuple[str, ...], owner: str, seed: int) -> Iterator[list[str]]:
    """The copies of two simulated games, game by game (made as ``chosen_from`` asks)."""
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    for k in range(2):
        profile = load_profile(PROFILES[(seed + k) % len(PROFILES)])
        text = simulate_text(2 + k, seed + k, profile, f"hearers {owner} {k}", modules)
        yield variants(text, KINDS[owner])


@pytest.mark.parametrize("owner_first", [True, False], ids=["owner-first", "owner-last"])
@pytest.mark.parametrize(
    ("owner", "hearers"), GROUPS, ids=lambda g: g if isinstance(g, str) else "+".join(g)
)
def test_a_purchase_with_components_beside_hearing_modules_reports_as_the_pipeline(
    owner: str, hearers: tuple[str, ...], owner_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = (owner, *hearers) if owner_first else (*hearers, owner)
    seed = 9100 + len(owner) * 11 + len(hearers) * 3 + owner_first
    pieces: list[Any] = []
    key = f"{owner}-{'+'.join(hearers)}-owner-{'first' if owner_first else 'last'}"
    texts = chosen_from(_texts(modules, owner, seed), KEPT[key])
    taken = compare(texts, monkeypatch, pieces, scratch=True)
    assert any(taken), f"{modules}: no purchase with components was made in one pass"
    if owner == "baustellen":  # (a site waits to be placed; coins buy the tile itself)
        assert any(type(p) is SitePiece for p in pieces)


def test_the_module_order_is_the_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two orders above are two orders of the hooks: the modules as the record names them."""
    ext = Extensions(["obstgaerten", "baustellen"])
    assert [m.name for m in ext.modules] == ["obstgaerten", "baustellen"]
    assert [m.name for m in ext.after_plain] == ["obstgaerten"]


def test_a_hearing_module_without_the_promise_sends_the_purchase_to_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.modules.angreifer import Angreifer

    monkeypatch.setattr(Angreifer, "hears_component_purchases", False)
    modules = ("schaetze", "angreifer")
    taken = compare(chosen_from(_texts(modules, "schaetze", 9300), KEPT_UNPROMISED), monkeypatch)
    assert taken and not any(taken)
