"""Hints in messages: the closest known word to one that is not known (``kaufe`` -> ``buy``).

A verb nobody knows is reported (UNKNOWN-VERB); when the word looks like a known one -- a
base action, a module's verb, or the German word for a base action ("kaufen", "nehmen", ...)
-- the message names the verb the record probably meant.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

BASE_VERBS = ("take", "buy", "build", "remove", "swap", "place", "reserve", "give")

# German words for the base actions (and their usual short forms) -> the notation's verb
GERMAN_VERBS: dict[str, str] = {
    "nehmen": "take",
    "nimm": "take",
    "nehme": "take",
    "kaufen": "buy",
    "kaufe": "buy",
    "kauf": "buy",
    "bauen": "build",
    "baue": "build",
    "bau": "build",
    "abbauen": "remove",
    "entfernen": "remove",
    "tauschen": "swap",
    "tausche": "swap",
    "setzen": "place",
    "setze": "place",
    "platzieren": "place",
    "legen": "place",
    "reservieren": "reserve",
    "reserve": "reserve",
    "geben": "give",
    "gib": "give",
    # the words of a position block (docs/notation.md, "Positions")
    "spieler": "player",
    "spielerin": "player",
    "punkte": "score",
    "stand": "score",
    "auslage": "display",
    "bauhof": "market",
    "anzahlen": "counts",
}
POSITION_WORDS = ("player", "score", "hand", "reserve", "alhambra", "counts", "market", "display")


def module_verbs() -> list[str]:
    """Every verb of every bundled module (actions and chance lines)."""
    from referee.engine.extensions import MODULES, load_bundled_modules

    load_bundled_modules()
    out: list[str] = []
    for cls in MODULES.values():
        for verb in (*getattr(cls, "verbs", ()), *getattr(cls, "chance_verbs", ())):
            if verb not in out:
                out.append(verb)
    return out


def closest_verb(word: str) -> str | None:
    """The known verb ``word`` most likely means, or None when none is close."""
    low = word.lower()
    if low in GERMAN_VERBS:
        return GERMAN_VERBS[low]
    known = [*BASE_VERBS, *POSITION_WORDS, *module_verbs()]
    candidates = [*known, *GERMAN_VERBS]
    found = difflib.get_close_matches(low, candidates, n=1, cutoff=0.75)
    if not found:
        return None
    return GERMAN_VERBS.get(found[0], found[0])


@dataclass(frozen=True)
class VerbHint:
    """A message parameter: "; did you mean 'buy'?" in the message's language, or nothing."""

    word: str

    def text(self, lang: str = "en") -> str:
        verb = closest_verb(self.word)
        if verb is None or verb == self.word.lower():
            return ""
        return f"; meinten Sie '{verb}'?" if lang == "de" else f"; did you mean '{verb}'?"
