"""A purchase with one module's components in one pass while other modules take part in
purchases too (issue 34, tenth step): ``purchase._purchase_with_components`` lets the owner of
the components vouch (``Module.plain_components``) when every other module taking part
promises to leave a purchase naming none of its components alone
(``Module.purchases_by_components``). Module pairs (and a triple, and the first 22 modules
together, where modules hearing of plain purchases send every such purchase to the pipeline)
give the same reports, module views, hands, Alhambras and reserves with the one-pass path as
with the pipeline (the path switched off), on simulated games with lines left out and with
the owner's component tokens changed."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.actions import purchase as _purchase_module
from referee.modules import BUNDLED
from referee.notation import parse_text
from tests.test_purchase_components_onepass import _variants

# These tests watch the engine through a patched module-level function
# (`purchase._purchase_with_components`); a compiled build (ALHAMBRA_REFEREE_MYPYC=1) calls it
# directly, so the patch is not seen there. The compiled build's behaviour is held by
# bench/same_output.py and tests/test_compiled_*.py.
pytestmark = pytest.mark.skipif(
    not str(_purchase_module.__file__).endswith(".py"),
    reason="watches a Python-level call that the compiled build makes directly",
)

PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]
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
FIRST22 = [
    "angreifer",
    "badehaeuser",
    "bauland",
    "baumeister",
    "baustellen",
    "bazare",
    "bonuskarten",
    "diamanten",
    "diebe",
    "magisch",
    "medina",
    "obstgaerten",
    "plaetze",
    "schaetze",
    "sultan",
    "wechselgeld",
    "wechselscheine",
    "wechselstuben",
    "wertungskaertchen",
    "wesir",
    "wuensche",
    "wunschbrunnen",
]


def _outcomes(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        for game in parse_text(text, "pairs.alh"):
            report = check_game(game)
            state = report.state
            if state is None:
                out.append(repr(report))
                continue
            players = [
                (
                    p.name,
                    sorted(map(str, p.hand.elements())),
                    p.hand_unknown,
                    [(str(at), repr(piece)) for at, piece in p.alhambra.items()],
                    [repr(piece) for piece in p.reserve],
                )
                for p in state.players
            ]
            out.append(repr(report) + repr(state.ext.views(state)) + repr(players))
    return out


def _texts(owner: str, modules: tuple[str, ...], seed: int, games: int = 2) -> list[str]:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    texts: list[str] = []
    for k in range(games):
        profile = load_profile(PROFILES[(seed + k) % len(PROFILES)])
        text = simulate_text(2 + k, seed + k, profile, f"pair {owner} {k}", modules)
        texts += _variants(text, KINDS[owner])
    return texts


def _compare(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    from referee.engine.actions import purchase

    taken: list[bool] = []
    real = purchase._purchase_with_components

    def counted(*args: Any) -> bool:
        done = real(*args)
        taken.append(done)
        return done

    monkeypatch.setattr(purchase, "_purchase_with_components", counted)
    one_pass = _outcomes(texts)
    monkeypatch.setattr(purchase, "_purchase_with_components", lambda *args: False)
    assert _outcomes(texts) == one_pass
    monkeypatch.undo()
    return taken


@pytest.mark.parametrize(
    ("owner", "others"), GROUPS, ids=lambda g: g if isinstance(g, str) else "+".join(g)
)
def test_a_purchase_with_components_beside_other_modules_reports_as_the_pipeline(
    owner: str, others: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    modules = tuple(sorted((owner, *others)))
    taken = _compare(_texts(owner, modules, 8100 + len(owner) * 7 + len(others)), monkeypatch)
    assert taken, f"{modules}: no purchase with components was made"
    if "wechselscheine" in others:
        # Wechselscheine hears of plain purchases too: the pipeline runs
        assert not any(taken)
    else:
        assert any(taken), f"{modules}: no purchase with components was made in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    text = simulate_text(2, 8300, load_profile("queen-2003"), "first 22", tuple(FIRST22))
    taken = _compare(_variants(text, "bs")[:4], monkeypatch)
    assert taken and not any(taken)  # modules hearing of plain purchases: the pipeline
