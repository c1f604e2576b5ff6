"""The ``Final`` aliases the compiled build reads (issue 34, sixteenth step).

Compiled, a module-level name that is not ``Final`` is read from the module's dict at every
use (mypyc's ``CPyDict_GetItem``); a ``Final`` one is a C static. So the names read on every
turn, purchase and scoring in engine/core.py, engine/actions/purchase.py and
geometry/walls.py are ``Final``, and the names of other modules they read there have
``Final`` aliases. An alias must be the very object it stands for (a class tested with
``type(x) is``, the market's empty field tested with ``is``), in either build.
"""

from __future__ import annotations

from referee.catalogue import CURRENCIES
from referee.engine import core, state, turns
from referee.engine.actions import purchase
from referee.engine.ruleset import Decision
from referee.record import model


def test_core_aliases_are_the_objects_they_stand_for() -> None:
    assert core._EMPTY is state.EMPTY
    assert id(state.EMPTY) == core._EMPTY_ID
    assert core._CARD_REF is model.CardRef
    assert core._COMPONENT_REF is model.ComponentRef
    assert core._SCORING_CARD_REF is model.ScoringCardRef
    assert core._TILE_REF is model.TileRef
    assert core._DISPLAY_SIZE is Decision.DISPLAY_SIZE
    assert core._DISPLAY_OCCUPIED is Decision.DISPLAY_OCCUPIED
    assert core._RESERVE_LIMIT is Decision.RESERVE_LIMIT


def test_core_phases_moments_and_settles_are_the_members() -> None:
    phase, moment, settle = turns.Phase, turns.Moment, turns.Settle
    assert (core._SETUP, core._TURN, core._REFILL) == (phase.SETUP, phase.TURN, phase.REFILL)
    assert core._SETUP is phase.SETUP and core._TURN is phase.TURN
    assert core._REFILL is phase.REFILL
    assert core._BETWEEN is phase.BETWEEN and core._OVER is phase.OVER
    assert core._TURN_FLOW == (core._REFILL_DONE, core._TURN_START, core._TURN_END)
    assert core._REFILL_DONE is moment.REFILL_DONE
    assert core._TURN_START is moment.TURN_START and core._TURN_END is moment.TURN_END
    assert core._S_TURN is settle.TURN and core._S_SCORING is settle.SCORING
    assert core._S_DISTRIBUTION is settle.DISTRIBUTION and core._S_END is settle.END


def test_purchase_aliases_are_the_objects_they_stand_for() -> None:
    assert purchase._CURRENCIES is CURRENCIES
    assert purchase._EMPTY is state.EMPTY
    assert purchase._CARD_REF is model.CardRef
    assert purchase._COMPONENT_REF is model.ComponentRef
    assert purchase._TILE_REF is model.TileRef
