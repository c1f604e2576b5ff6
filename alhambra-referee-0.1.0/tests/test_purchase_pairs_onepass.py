"""A purchase with one module's components in one pass while other modules take part in
purchases too (issue 34, tenth step): ``purchase._purchase_with_components`` lets the owner of
the components vouch (``Module.plain_components``) when every other module taking part
promises to leave a purchase naming none of its components alone
(``Module.purchases_by_components``) or, hearing of plain purchases, vouches for one naming
another module's components (``Module.hears_component_purchases``). Module pairs (and a
triple, and the first 22 modules together) give the same reports, module views, hands,
Alhambras and reserves with the one-pass path as with the pipeline (the path switched off),
on simulated games with lines left out and with the owner's component tokens changed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.modules import BUNDLED
from tests.purchase_onepass_support import (
    PROFILES,
    SKIP_COMPILED,
    chosen_from,
    compare,
    first22_game,
    variants,
)

pytestmark = SKIP_COMPILED

KINDS = {cls.name: cls.component_kinds[0] for cls in BUNDLED if cls.component_kinds}

# (owner of the components, other modules): each owner answers plain_components; the others
# take part in purchases with ``purchases_by_components`` (or hear of plain purchases)
GROUPS = [
    ("baustellen", ("schaetze",)),
    ("baustellen", ("diamanten",)),
    ("baustellen", ("bauland",)),
    ("baustellen", ("wachtuerme",)),
    ("schaetze", ("diamanten",)),
    ("schaetze", ("sultan",)),
    ("schaetze", ("baumeister",)),
    ("diamanten", ("wechselstuben",)),
    ("diamanten", ("karawanserei",)),
    ("wechselgeld", ("baustellen",)),
    ("wechselgeld", ("sultan",)),
    ("wechselgeld", ("wechselscheine",)),  # another module hearing of plain purchases
    ("baustellen", ("schaetze", "diamanten")),
]

# The copies each pair checks (indices among its different texts, ``chosen``): those that run
# every referee line all 527 copies ran, test by test (coverage, one context a text:
# bench/README.md, issue 34, nineteenth step, "test_purchase_pairs_onepass"): 182 of the 523.
# The games are simulated as before. The first 22 modules' test checks its 4 copies.
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = {
    ("baustellen", ("schaetze",)): (13,),
    ("baustellen", ("diamanten",)): (12,),
    ("baustellen", ("bauland",)): (12,),
    ("baustellen", ("wachtuerme",)): (3, 22, 23),
    ("schaetze", ("diamanten",)): (11,),
    ("schaetze", ("sultan",)): (14,),
    ("schaetze", ("baumeister",)): (0,),
    ("diamanten", ("wechselstuben",)): (9,),
    ("diamanten", ("karawanserei",)): (2, 5, 26),
    ("wechselgeld", ("baustellen",)): (12,),
    ("wechselgeld", ("sultan",)): (10,),
    ("wechselgeld", ("wechselscheine",)): (0,),
    ("baustellen", ("schaetze", "diamanten")): (5,),
}


def _texts(owner: str, modules: tuple[str, ...], seed: int, games: int = 2) -> Iterator[list[str]]:
    """The copies of ``games`` simulated games, game by game (made as ``chosen_from`` asks)."""
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    for k in range(games):
        profile = load_profile(PROFILES[(seed + k) % len(PROFILES)])
        text = simulate_text(2 + k, seed + k, profile, f"pair {owner} {k}", modules)
        yield variants(text, KINDS[owner])


@pytest.mark.parametrize(
    ("owner", "others"), GROUPS, ids=lambda g: g if isinstance(g, str) else "+".join(g)
)
def test_a_purchase_with_components_beside_other_modules_reports_as_the_pipeline(
    owner: str, others: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = tuple(sorted((owner, *others)))
    texts = _texts(owner, modules, 8100 + len(owner) * 7 + len(others))
    taken = compare(chosen_from(texts, KEPT[owner, others]), monkeypatch)
    assert taken, f"{modules}: no purchase with components was made"
    # (Wechselscheine hears of plain purchases and vouches for those with another module's
    # components: ``Module.hears_component_purchases``, issue 34, eleventh step)
    assert any(taken), f"{modules}: no purchase with components was made in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = compare(variants(first22_game(2), "bs")[:4], monkeypatch)
    # the four modules hearing of plain purchases vouch for those with another module's
    # components (eleventh step; before it, none of these took the path)
    assert any(taken)
