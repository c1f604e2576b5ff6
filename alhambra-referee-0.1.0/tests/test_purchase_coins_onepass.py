"""Das Wechselgeld's coin payment in one pass (issue 34, ninth step): a purchase paid with
money cards and coins (``pay Du2 Du3 co:Du``) is carried out by
``purchase._purchase_with_components`` when Wechselgeld vouches for it
(``Wechselgeld.plain_components``), and the module then hears of it through
``after_plain_purchase`` with the whole sum (the change claim). The reports, the module's view
(bag, every player's coins) and the hands are the same as with the whole purchase pipeline, on
the module's example and on simulated games, also with the coins of some payments named
otherwise (another currency, a coin added, a coin drawn unseen before, a card added), with
lines left out, and with an overpayment paid partly with coins (a claim of no coin: the
claim's count itself is ``after_plain_purchase``'s, held by the module contract test)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.actions import purchase as _purchase_module
from referee.modules.wechselgeld import Wechselgeld
from referee.notation import parse_text

# These tests watch the engine through a patched module-level function
# (`purchase._purchase_with_components`); a compiled build (ALHAMBRA_REFEREE_MYPYC=1) calls it
# directly, so the patch is not seen there. The compiled build's behaviour is held by
# bench/same_output.py and tests/test_compiled_*.py.
pytestmark = pytest.mark.skipif(
    not str(_purchase_module.__file__).endswith(".py"),
    reason="watches a Python-level call that the compiled build makes directly",
)

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]
COIN = re.compile(r"\bco:(Gu|Di|De|Du)\b", re.IGNORECASE)
NEXT = {"gu": "Di", "di": "De", "de": "Du", "du": "Gu"}


def _variants(text: str) -> list[str]:
    """``text``; copies with one line of play left out; copies with the coins of one payment
    or one change line named otherwise."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    step = max(4, len(body) // 6)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[2::step]]
    paying = [i for i, line in enumerate(lines) if " pay " in line and COIN.search(line)]
    changes = [i for i, line in enumerate(lines) if "change " in line and COIN.search(line)]
    edits: list[tuple[int, str]] = []
    for n, i in enumerate(paying[:10]):
        line = lines[i]
        if n % 4 == 0:  # another currency
            new = COIN.sub(lambda m: f"co:{NEXT[m.group(1).lower()]}", line, count=1)
        elif n % 4 == 1:  # one or two coins more of the same (an overpayment)
            found = COIN.search(line)
            assert found is not None
            more = " ".join([found.group(0)] * (1 + n % 8 // 4))
            new = line.replace(found.group(0), f"{found.group(0)} {more}", 1)
        elif n % 4 == 2:  # cards of every currency added (one may not pay: the pipeline)
            new = re.sub(r" pay ", " pay Gu9 Di9 De9 Du9 ", line, count=1)
        else:  # the coin in another case
            new = COIN.sub(lambda m: f"co:{m.group(1).swapcase()}", line, count=1)
        edits.append((i, new))
    for i in changes[:4]:  # a coin drawn unseen: paying it later reveals it (the pipeline)
        edits.append((i, COIN.sub("?", lines[i], count=1)))
    for i, new in edits:
        out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n")
    return out


def _outcomes(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        for game in parse_text(text, "coins.alh"):
            report = check_game(game)
            state = report.state
            views = state.ext.views(state) if state is not None else None
            hands = (
                [(p.name, sorted(map(str, p.hand.elements()))) for p in state.players]
                if state
                else None
            )
            out.append(repr(report) + repr(views) + repr(hands))
    return out


def _texts() -> list[str]:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    example = ROOT / "examples" / "module-wechselgeld.alh"
    texts = _variants(example.read_text(encoding="utf-8"))
    for k in range(4):
        profile = load_profile(PROFILES[k])
        texts += _variants(simulate_text(2 + k, 6100 + k, profile, f"coins {k}", ("wechselgeld",)))
    return texts


def test_a_coin_payment_in_one_pass_reports_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.engine.actions import purchase

    texts = _texts()
    taken: list[bool] = []
    claims: list[int] = []  # what each coin payment made in one pass overpaid
    real = purchase._purchase_with_components
    real_after = Wechselgeld.after_plain_purchase

    def counted(*args: Any) -> bool:
        done = real(*args)
        taken.append(done)
        return done

    def heard(self: Wechselgeld, state: Any, buy: Any) -> None:
        if any(r.kind == "co" for r in getattr(buy.action, "paid", ()) if hasattr(r, "kind")):
            claims.append(buy.total - buy.price)
        real_after(self, state, buy)

    monkeypatch.setattr(purchase, "_purchase_with_components", counted)
    monkeypatch.setattr(Wechselgeld, "after_plain_purchase", heard)
    one_pass = _outcomes(texts)
    assert any(taken), "no coin payment was made in one pass"
    assert not all(taken), "every coin payment was made in one pass"
    assert any(over >= 1 for over in claims), "no one-pass coin payment overpaid"
    monkeypatch.setattr(purchase, "_purchase_with_components", lambda *args: False)
    assert _outcomes(texts) == one_pass


def test_the_module_vouches_only_for_coins_held_and_allowed() -> None:
    """``plain_components`` answers only for coins the payer is known to hold (as many of each
    currency), of a currency that may pay; their value, not exact by itself."""
    from referee.catalogue import Currency
    from referee.engine.state import GameState

    texts = [(ROOT / "examples" / "module-wechselgeld.alh").read_text(encoding="utf-8")]
    game = next(iter(parse_text(texts[0], "coins.alh")))
    state = check_game(game).state
    assert isinstance(state, GameState)
    module = next(m for m in state.ext.modules if isinstance(m, Wechselgeld))
    coins = module.supply(state)
    holder = next(p for p in state.players if +coins.held(p.name))
    held = coins.held(holder.name)
    code, n = next(iter(held.items()))
    cur = Currency.of_code(code)
    assert cur is not None
    from referee.record.model import ComponentRef

    one = (ComponentRef("co", code),)
    every = frozenset(Currency)
    assert module.plain_components(state, holder, one, (), every, 5) == (1, False)
    assert module.plain_components(state, holder, one * n, (), every, 5) == (n, False)
    assert module.plain_components(state, holder, one * (n + 1), (), every, 5) is None
    assert module.plain_components(state, holder, one, (), every - {cur}, 5) is None
    bad = (ComponentRef("co", "Xx"),)
    assert module.plain_components(state, holder, bad, (), every, 5) is None
