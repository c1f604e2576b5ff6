"""The player actions of the base game, each as a pure check and a state change.

================  ==========================  =================================
action            check (pure, findings)       change (no checks)
================  ==========================  =================================
take money        ``take.take_findings``       ``take.apply_take``
buy               ``purchase.purchase_findings``  ``purchase.apply_purchase``
build (reserve)   ``redesign.build_from_reserve`` (check=…)
remove            ``redesign.remove_findings``  ``redesign.remove``
swap              ``redesign.swap_findings``    ``redesign.swap``
place / reserve / give  ``placement.*_findings``  ``placement.place`` …
================  ==========================  =================================

:func:`run_action` runs one action of the player whose turn is under way: the check (unless
``check`` is False, for replaying a trusted record), then the change "as played". Module verbs
(``ModuleAction``) go to the enabled module that owns the verb.

Take, buy, place and build (from the reserve) first try their common case in one pass
(:data:`PLAIN`: ``take.take_plain``, ``purchase.purchase_plain``, ``placement.place_plain``,
``redesign.build_plain``: nothing to report, no unknown or module piece, no module refining
the rule decisions involved); anything else changes nothing there and the handler runs the
stages above, which stay the definition of the rule (and what ``explain``, the legal-move
generator and the modules call). A one-pass path needs no :class:`Context`: one is made only
for a handler.
"""

from __future__ import annotations

# the dispatch lives in a module of its own so that the compiled build can compile it
# (setup.py's MYPYC_MODULES; a package's ``__init__`` stays Python, issue 34)
from referee.engine.actions.run import HANDLERS, PLAIN, run_action

__all__ = ["HANDLERS", "PLAIN", "run_action"]
