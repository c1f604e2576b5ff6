"""The display question read without the refinements' calls, and the vizier line's common shape
(issue 34, twenty-third step).

* A module may promise what its refinement of ``display.occupied`` adds
  (``Module.display_places``: the method, and the attribute of its part holding its pieces in
  the display). The engine's own question (``core.display_occupied``) then reads that attribute
  (``Ruleset.occupied_reads``) where the promise holds, and calls the refinement elsewhere (no
  part yet, a Counter not made yet). Each bundled promise names a refinement of that decision,
  and the engine's answer is the chain's with the parts missing, empty and holding pieces.
* The vizier line of one purchase and its placement runs without the general loop: the findings
  are those of the loop (``Wesir._use``), held by the module's own tests and by the first22
  games' reports (bench/README.md, same_output).
"""

from __future__ import annotations

import pytest

from referee.engine.context import Context
from referee.engine.core import display_occupied, new_state
from referee.engine.extensions import Extensions
from referee.engine.ruleset import Decision, refinements_of
from referee.modules import discover
from referee.modules.baumeister import DISPLAY as BAUMEISTER_DISPLAY

_DISPLAY_REFINERS = ("baumeister", "diamanten", "wechselstuben")


def test_every_promise_names_a_refinement_of_the_display_question() -> None:
    promising = {cls.name: cls.display_places for cls in discover() if cls.display_places}
    assert set(promising) == set(_DISPLAY_REFINERS)
    for name, (method, attr) in promising.items():
        ext = Extensions([name])
        (module,) = ext.modules
        refining = [
            r.func.__name__
            for r in refinements_of(module)
            if r.decision == Decision.DISPLAY_OCCUPIED
        ]
        assert refining == [method]
        part = module.data(new_state(["A", "B"], ext=ext))
        assert hasattr(part, attr)


def _fill(state: object, module: object, n: int) -> None:
    """``n`` of the module's pieces in the display, as its own part holds them."""
    part = module.data(state)  # type: ignore[attr-defined]
    held = part.display
    if isinstance(held, list):
        held[:] = [None] * n
    else:  # Baumeister: its cards' live multiset of the display (``display`` once asked)
        cards = part.cards.held(BAUMEISTER_DISPLAY)
        cards.clear()
        if n:
            cards["builder"] = n


@pytest.mark.parametrize("modules", [_DISPLAY_REFINERS, ("wesir", "diamanten", "baumeister")])
def test_the_engines_reads_answer_as_the_chain(modules: tuple[str, ...]) -> None:
    ext = Extensions(list(modules))
    state = new_state(["A", "B", "C"], ext=ext)
    rules = state.rules
    reads = rules.occupied_reads
    assert [name for name, _attr, _f in reads] == rules.refined_by(Decision.DISPLAY_OCCUPIED)
    assert [attr for _name, attr, _f in reads] == ["display"] * len(reads)
    chain = rules.answer[Decision.DISPLAY_OCCUPIED]
    # no part made yet: the refinements are called (they make the parts), as the chain does
    for m in ext.modules:
        state.modules.pop(m.name, None)
    assert display_occupied(state) == len(state.display)
    for n in (0, 1, 2):
        for m in ext.modules:
            if m.name in _DISPLAY_REFINERS:
                _fill(state, m, n)
        for display in ([], [None], [None, None]):
            state.display[:] = display
            assert display_occupied(state) == chain(Context(state))
            refining = sum(1 for m in modules if m in _DISPLAY_REFINERS)
            assert display_occupied(state) == len(display) + n * refining
    # Baumeister's multiset not read yet: its refinement is called (it keeps it), as before
    if "baumeister" in modules:
        part = state.modules["baumeister"]
        part.display = None
        state.display[:] = []
        assert display_occupied(state) == chain(Context(state)) == 2 * len(reads)
        assert part.display is part.cards.held(BAUMEISTER_DISPLAY)
