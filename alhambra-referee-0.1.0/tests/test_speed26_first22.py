"""first22, the twenty-fourth step of issue 34.

* ``Module.draw_types``: a module's ``market_draw`` acts on pieces of these classes only;
  ``DrawHearers`` tells each draw's class only the hearers concerned: the same answers, the same
  parts, as telling every hearer.
* ``Extensions._moments_of``: ``moments_asked`` of each enabled module's class, once a game: the
  modules asked at each moment are the same.
"""

from __future__ import annotations

import random
from typing import Any

from referee.catalogue import catalogue
from referee.engine.core import new_state
from referee.engine.extensions import (
    DrawHearers,
    Extensions,
    moments_asked,
)
from referee.engine.turns import Moment
from referee.modules import discover
from referee.modules.badehaeuser import Bathhouse
from referee.modules.bazare import Bazaar
from referee.modules.wunschbrunnen import Well
from referee.record.model import NOWHERE

_DRAW_HEARERS = ("badehaeuser", "bazare", "sultan", "wunschbrunnen")


class _Sim:
    rng = random.Random(26)


def _state_with(names: tuple[str, ...]) -> Any:
    ext = Extensions(list(names))
    state = new_state(["A", "B", "C"], ext=ext)
    for m in ext.modules:
        m.data(state)  # type: ignore[attr-defined]
    return state


def _module_pieces(state: Any) -> list[Any]:
    """One piece of each hearing module's class (made by its tower reader)."""
    out = []
    for m in state.ext.modules:
        only = type(m).draw_types
        if only is None:
            continue
        for ref in m.sim_tower(_Sim())[:2]:
            got = m.tower_piece(state, ref, NOWHERE)
            piece = None if got is None else got[1]
            if isinstance(piece, only):
                out.append(piece)
    return out


def test_each_draw_is_told_to_the_same_modules_with_the_same_answers() -> None:
    state = _state_with(_DRAW_HEARERS)
    heard = state.ext.draw_heard
    assert isinstance(heard, DrawHearers)
    promised = [m for m in heard.hearers if type(m).draw_types is not None]
    assert {m.name for m in promised} == {"badehaeuser", "bazare", "wunschbrunnen"}
    pieces = [*catalogue().tiles[:6], None, *_module_pieces(state)]
    assert {type(p) for p in pieces} >= {Bathhouse, Bazaar, Well}
    for piece in pieces:
        # every hearer told, as before, on a copy (its parts copied); the table on the state
        other = state.copy()
        want = None
        for m in state.ext.drawing:
            want = m.market_draw(other, 1, piece, NOWHERE)
            if want:
                break
        told = heard.by_class.get(type(piece)) or heard.told(type(piece))
        # the hearers left out are those whose promise leaves this class alone
        left_out = [m for m in heard.hearers if m.market_draw not in told]
        for m in left_out:
            assert not isinstance(piece, type(m).draw_types)  # type: ignore[arg-type]
        assert heard(state, 1, piece, NOWHERE) == want
        for m in state.ext.modules:
            assert repr(state.modules[m.name]) == repr(other.modules[m.name])


def test_a_promised_hearer_leaves_other_pieces_alone() -> None:
    state = _state_with(_DRAW_HEARERS)
    for m in state.ext.modules:
        only = type(m).draw_types
        if only is None:
            continue
        before = repr(state.modules[m.name])
        for piece in [*catalogue().tiles[:4], None]:
            assert m.market_draw(state, 0, piece, NOWHERE) is None
        assert repr(state.modules[m.name]) == before


def test_the_moments_asked_are_those_of_the_classes() -> None:
    names = [cls.name for cls in discover()]
    rng = random.Random(2026)
    for chosen in [names, *[rng.sample(names, rng.randint(1, 8)) for _ in range(10)]]:
        ext = Extensions(chosen)
        for moment in Moment:
            want = tuple(
                m for m in ext.modules if (o := moments_asked(type(m))) is None or moment in o
            )
            assert ext._asked_at(moment) == want
    # a list changed in place without modules_changed: a moment not asked yet is worked out
    # from it, as before
    ext = Extensions(["bauland"])
    ext.modules.append(Extensions(["sultan"]).modules[0])
    ext._asked.clear()
    assert [m.name for m in ext._asked_at(Moment.TURN_START)] == ["bauland", "sultan"]
