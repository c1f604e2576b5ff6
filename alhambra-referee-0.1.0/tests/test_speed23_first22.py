"""first22, the twenty-first step of issue 34: two purchases of the first 22 modules' games that
went to the purchase pipeline take the one-pass paths, with the same outcomes.

* ``buy Gu ? pay Gu7 co:Gu``: the unknown tile ``?`` bought from a named market field holding
  a module's piece (a medina, a magic building ...), which the pipeline takes to be that piece
  as a token naming it would (``purchase._unnamed_piece_field``, then the piece's path and, with
  components, ``_purchase_with_components``).
* ``buy Di bh:TPAG pay Di6 De2 ex:DiDe``: a piece beside the market paid with money cards and
  the components of one module (an exchange card) (``purchase._side_offer_with_components``).

The reports, module views and states, hands, Alhambras, reserves and discard pile are the same
as with the path switched off (the pipeline), over the simulated games of the first 22 modules
(``purchase_onepass_support.first22_game``, made once a run) and copies with a purchase's
field, payment or token changed.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import PATCHES_ENGINE
from tests.purchase_onepass_support import compare, first22_game

pytestmark = PATCHES_ENGINE

_UNNAMED = re.compile(r"\bbuy (Gu|Di|De|Du) \? pay ")
_SIDE_EX = re.compile(r"\bbuy (Gu|Di|De|Du) (bh|ww):\S+ pay [^,\n]*\bex:")


def _copies(text: str, pattern: re.Pattern[str], changes: tuple[int, ...]) -> list[str]:
    """``text`` and copies with one purchase ``pattern`` finds changed, a purchase each, by
    ``changes`` in turn: 0 another field named (BUY-FIELD, or another piece bought), 1 a card
    more paid (BUY-NOT-HELD or BUY-SUPERFLUOUS), 2 the first component dropped (underpaid, or
    no second currency), 3 the component named otherwise (another coin's currency, an exchange
    card of other currencies)."""
    lines = text.splitlines()
    found = [i for i, line in enumerate(lines) if pattern.search(line)]
    out = [text]
    for i, change in zip(found, changes, strict=False):
        line = lines[i]
        m = pattern.search(line)
        assert m is not None
        other = {"Gu": "Di", "Di": "De", "De": "Du", "Du": "Gu"}[m.group(1)]
        new = (
            line[: m.start(1)] + other + line[m.end(1) :],
            line.replace(" pay ", " pay Gu9 ", 1),
            re.sub(r" (co|ex):\S+", "", line, count=1),
            re.sub(r"\bex:\w+", "ex:GuDu", re.sub(r"\bco:\w+", "co:Du", line, count=1), count=1),
        )[change]
        out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n")
    return out


@pytest.fixture(scope="module")
def first22_text() -> str:
    """The 3-player game of the first 22 modules (shared with the other one-pass tests): four
    ``buy Gu ? pay ... co:Gu`` purchases of a medina or magic building, a side offer paid with
    an exchange card."""
    return first22_game(3)


def test_unknown_tile_on_a_field_of_a_module_piece(
    first22_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _copies(first22_text, _UNNAMED, (0, 3, 1))
    taken = compare(texts, monkeypatch, scratch=True, path="_unnamed_piece_field", off=None)
    assert any(taken) and not all(taken)


def test_side_offer_paid_with_components(
    first22_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _copies(first22_text, _SIDE_EX, (3,))
    taken = compare(texts, monkeypatch, scratch=True, path="_side_offer_with_components")
    assert any(taken) and not all(taken)
