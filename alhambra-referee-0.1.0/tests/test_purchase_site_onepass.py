"""Die Baustellen's half-price purchase in one pass (issue 34, tenth step): a purchase that
sets up a building site (``buy De C8 pay De6 bs:hidden``) is carried out by
``purchase._purchase_with_components`` when Baustellen vouches for it
(``Baustellen.plain_components``: the price halved, never exact) and the site piece that
``spend_plain_components`` returns waits to be placed in the tile's stead. The reports, the
module's view, the hands and every player's Alhambra and reserve are the same as with the
whole purchase pipeline (the path switched off), on the module's example and on simulated
games, with lines left out and with the site tokens and payments of some purchases changed so
that the module's findings (several sites, a back that is no currency, the payment below half
the price, the stack or a back's supply used up) and the engine's sum checks (a superfluous
card, a card of another currency) have something to say."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from referee.catalogue import ALL_MONEY_CARDS
from referee.modules.baustellen import Baustellen, SitePiece, per_currency, site_count
from referee.record.model import ComponentRef
from tests.purchase_onepass_support import PROFILES, ROOT, SKIP_COMPILED, compare

pytestmark = SKIP_COMPILED

SITE = re.compile(r"\bbs:(\w+)")
PAYING = re.compile(r"(buy \w+ \S+ pay )((?:\w\w\d+ )*)(bs:\w+)")


def _edit(line: str, n: int) -> str:
    """One site purchase of ``line`` changed (the ``n``-th kind of change)."""
    m = PAYING.search(line)
    if m is None:
        return line
    head, cards, token = m.group(1), m.group(2), m.group(3)
    kind = n % 8
    if kind == 0:  # the back written as the recorder saw it
        new = f"{head}{cards}bs:{'DeGuDiDu'[2 * (n // 8 % 4) : 2 * (n // 8 % 4) + 2]}"
    elif kind == 1:  # two site tokens
        new = f"{head}{cards}{token} bs:Di"
    elif kind == 2:  # a back that is no currency
        new = f"{head}{cards}bs:Xy"
    elif kind == 3:  # no card at all: below half the price
        new = f"{head}{token}"
    elif kind == 4:  # a card more of the field's currency (full price, or superfluous)
        cur = head.split()[1]
        new = f"{head}{cards}{cur}9 {token}"
    elif kind == 5:  # a card of another currency
        new = f"{head}Gu9 Di9 {cards}{token}"
    elif kind == 6:  # the back in another case
        new = f"{head}{cards}{token.swapcase()}"
    else:  # every site of one back (its supply used up later)
        new = f"{head}{cards}bs:Du"
    return line[: m.start()] + new + line[m.end() :]


def _variants(text: str) -> list[str]:
    """``text``; copies with one line of play left out; copies with one site purchase
    changed; one copy with every site purchase naming the same back."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    step = max(4, len(body) // 6)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[2::step]]
    paying = [i for i, line in enumerate(lines) if PAYING.search(line)]
    for n, i in enumerate(paying[:16]):
        out.append("\n".join([*lines[:i], _edit(lines[i], n), *lines[i + 1 :]]) + "\n")
    same = [_edit(line, 7) if PAYING.search(line) else line for line in lines]
    out.append("\n".join(same) + "\n")
    return out


def _texts() -> list[str]:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    example = ROOT / "examples" / "module-baustellen.alh"
    texts = _variants(example.read_text(encoding="utf-8"))
    for k in range(4):
        profile = load_profile(PROFILES[k])
        texts += _variants(simulate_text(2 + k, 7300 + k, profile, f"sites {k}", ("baustellen",)))
    return texts


def test_site_purchases_in_one_pass_report_as_the_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    pieces: list[Any] = []
    taken = compare(_texts(), monkeypatch, pieces)
    assert taken.count(True) >= 10, "the site purchases did not take the one-pass path"
    assert taken.count(False) >= 10, "no site purchase with a problem went to the pipeline"
    assert pieces and all(type(p) is SitePiece for p in pieces)


def _cards(*codes: str) -> tuple[Any, ...]:
    by_code = {c.code: c for c in ALL_MONEY_CARDS}
    return tuple(by_code[c] for c in codes)


def _state(set_up: int = 0, seen: dict[str, int] | None = None, interrupt: Any = None) -> Any:
    from collections import Counter

    data = SimpleNamespace(set_up=set_up, seen=Counter(seen or {}))
    return SimpleNamespace(modules={"baustellen": data}, turn=SimpleNamespace(interrupt=interrupt))


def test_the_site_answer_names_half_the_price_and_declines_what_the_module_reports() -> None:
    module = Baustellen()
    hidden = (ComponentRef("bs", "hidden"),)
    every = frozenset()
    player = SimpleNamespace(name="Anna")
    # a payment of at least half (rounded down): nothing added, never exact, half the price
    assert module.plain_components(_state(), player, hidden, _cards("De6"), every, 13) == (
        0,
        False,
        6,
    )
    assert module.plain_components(_state(), player, hidden, _cards("De3", "De4"), every, 13) == (
        0,
        False,
        6,
    )
    back = (ComponentRef("bs", "dE"),)
    assert module.plain_components(_state(), player, back, _cards("De5"), every, 11) == (
        0,
        False,
        5,
    )
    # what site_problems would report: the pipeline runs
    assert module.plain_components(_state(), player, hidden, _cards("De5"), every, 13) is None
    assert module.plain_components(_state(), player, hidden * 2, _cards("De6"), every, 13) is None
    bad = (ComponentRef("bs", "Xy"),)
    assert module.plain_components(_state(), player, bad, _cards("De6"), every, 13) is None
    full = _state(set_up=site_count())
    assert module.plain_components(full, player, hidden, _cards("De6"), every, 13) is None
    used = _state(seen={"De": per_currency()})
    assert module.plain_components(used, player, back, _cards("De6"), every, 13) is None
    assert module.plain_components(used, player, hidden, _cards("De6"), every, 13) == (0, False, 6)
    vizier = _state(interrupt=object())
    assert module.plain_components(vizier, player, hidden, _cards("De6"), every, 13) is None
