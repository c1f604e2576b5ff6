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
(``purchase_onepass_support.first22_game``, made once a run) and copies with the purchases'
field, payment and tokens changed.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import PATCHES_ENGINE
from tests.purchase_onepass_support import compare, first22_game

pytestmark = PATCHES_ENGINE

_UNNAMED = re.compile(r"\bbuy (Gu|Di|De|Du) \? pay ")
_SIDE_EX = re.compile(r"\bbuy (Gu|Di|De|Du) (bh|ww):\S+ pay [^,\n]*\bex:")


def _upper(m: re.Match[str]) -> str:
    return f"{m.group(1)}:{m.group(2).upper()}"


def _copies(text: str, pattern: re.Pattern[str], most: int) -> list[str]:
    """``text`` and copies with one purchase ``pattern`` finds changed: another field named,
    a card more paid, the first component dropped, a component in another case or name."""
    lines = text.splitlines()
    found = [i for i, line in enumerate(lines) if pattern.search(line)]
    out = [text]
    for n, i in enumerate(found[:most]):
        line = lines[i]
        m = pattern.search(line)
        assert m is not None
        field = m.group(1)
        other = {"Gu": "Di", "Di": "De", "De": "Du", "Du": "Gu"}[field]
        changes = [
            line[: m.start(1)] + other + line[m.end(1) :],  # BUY-FIELD, or another piece
            line.replace(" pay ", " pay Gu9 ", 1),  # BUY-NOT-HELD or BUY-SUPERFLUOUS
            re.sub(r" (co|ex):\S+", "", line, count=1),  # underpaid, or the card not counted
            re.sub(r"\b(co|ex):(\w+)", _upper, line, count=1),  # a token in another case
            re.sub(r"\bex:\w+", "ex:GuDu", re.sub(r"\bco:\w+", "co:Du", line, count=1), count=1),
        ]
        for new in changes[n % 2 :: 2] if n > 1 else changes:
            out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n")
    return out


@pytest.fixture(scope="module")
def first22_texts() -> list[str]:
    return [first22_game(n) for n in (2, 3, 4)]


def test_unknown_tile_on_a_field_of_a_module_piece(
    first22_texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [c for text in first22_texts for c in _copies(text, _UNNAMED, 4)]
    taken = compare(texts, monkeypatch, scratch=True, path="_unnamed_piece_field", off=None)
    assert any(taken) and not all(taken)


def test_side_offer_paid_with_components(
    first22_texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [c for text in first22_texts for c in _copies(text, _SIDE_EX, 4)]
    taken = compare(texts, monkeypatch, scratch=True, path="_side_offer_with_components")
    assert any(taken) and not all(taken)
