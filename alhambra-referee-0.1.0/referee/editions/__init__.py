"""Editions: rule sets that change the game's material and flow beyond a profile's switches.

An edition is selected by a rule profile (``edition: waechter`` in
``referee/profiles/waechter.yaml``, so ``[Rules "waechter"]``); its rules live in one unit
built on the module platform's extension points (``referee/engine/extensions.py``), registered
in :data:`referee.engine.extensions.EDITIONS` under the profile's value. A ``Modules`` header
cannot name an edition's unit, and ``alhambra-referee modules`` does not list it.
See ``docs/profiles.md`` ("The guards edition").
"""

from __future__ import annotations

from referee.editions.waechter import Waechter
from referee.engine.extensions import EDITIONS

EDITIONS["waechter"] = Waechter

__all__ = ["Waechter"]
