"""Issue 34, nineteenth step (tidy): one rule for "don't ask me about plain purchases".

``Module.leaves_plain_purchases`` is the one flag the engine reads before asking
``Module.leaves_plain_purchase`` (``Extensions.purchase_askers``); a class has it by the rule
of ``Module._settle_plain_purchase_promise``: stated in its body, kept; a question of its own
without the flag, False (asked); neither, from ``purchases_by_components`` (the default
question answers the flag).
"""

from __future__ import annotations

from typing import Any

from referee.engine.extensions import Extensions, Module
from referee.modules import BUNDLED


def _ext(*modules: Module) -> Extensions:
    ext = Extensions()
    ext.modules.extend(modules)
    ext.modules_changed()
    return ext


class _Hearing(Module):
    name = "hearing-tidy21"

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        return None


def test_a_class_stating_nothing_has_the_promise_from_its_components_flag() -> None:
    class Own(_Hearing):
        name = "own-tidy21"
        purchases_by_components = True

    class NotOwn(Own):
        name = "notown-tidy21"
        purchases_by_components = False

    assert not _Hearing.leaves_plain_purchases
    assert Own.leaves_plain_purchases and not NotOwn.leaves_plain_purchases
    own, other = Own(), NotOwn()
    assert own.leaves_plain_purchase(None, None, 0)  # type: ignore[arg-type]
    assert not other.leaves_plain_purchase(None, None, 0)  # type: ignore[arg-type]
    ext = _ext(own, other)
    assert ext.purchase_takers() == (own, other)
    assert ext.purchase_askers() == (other,)


def test_a_question_of_its_own_is_asked_unless_the_class_states_the_promise() -> None:
    class Promising(_Hearing):
        name = "promising-tidy21"
        purchases_by_components = True
        leaves_plain_purchases = True

        def leaves_plain_purchase(self, state: Any, player: Any, field: int) -> bool:
            return True

    class Asking(Promising):  # a new answer: the base class's promise does not cover it
        name = "asking-tidy21"

        def leaves_plain_purchase(self, state: Any, player: Any, field: int) -> bool:
            return field != 2

    class Inheriting(Promising):  # the answer and its promise inherited together
        name = "inheriting-tidy21"

    assert Promising.leaves_plain_purchases and Inheriting.leaves_plain_purchases
    assert not Asking.leaves_plain_purchases
    mods = Promising(), Asking(), Inheriting()
    assert _ext(*mods).purchase_askers() == (mods[1],)


def test_every_bundled_module_keeps_the_rule() -> None:
    """A bundled module promising a yes has no question of its own saying otherwise by class
    (the contract test asks it over games); one keeping the default question answers its
    promise, which is its components flag unless stated."""
    promising = set()
    for cls in BUNDLED:
        if cls.leaves_plain_purchase is Module.leaves_plain_purchase:
            assert cls().leaves_plain_purchase(None, None, 0) is cls.leaves_plain_purchases  # type: ignore[arg-type]
            if "leaves_plain_purchases" not in vars(cls):
                assert cls.leaves_plain_purchases is cls.purchases_by_components
        elif cls.leaves_plain_purchases:
            promising.add(cls.name)
    # the modules whose answer is always yes, promised (issue 34, nineteenth step)
    assert {
        "obstgaerten",
        "angreifer",
        "farben",
        "menagerie",
        "wechselscheine",
        "wechselgeld",
    } <= promising
