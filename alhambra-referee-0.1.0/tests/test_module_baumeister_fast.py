"""Die Baumeister's trial copy (``referee/modules/baumeister.py`` ``_trial``): a payer's cards
tried out on a copy that shares the other holders' multisets gives the same answers as a copy
of every multiset (the copy the module made before), and leaves the real bookkeeping as it
was."""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.hidden import HiddenSupply
from referee.modules.baumeister import Baumeister, _trial

CODES = ["De", "Di", "Du", "Gu"]
HOLDERS = ["@display", "Anna", "Ben", "Cem"]
HAND = st.dictionaries(st.sampled_from(CODES), st.integers(0, 3))


def _supply(known: dict[str, dict[str, int]], unseen: dict[str, int], gone: dict[str, int]):
    return HiddenSupply(
        16,
        {c: 4 for c in CODES},
        {h: Counter(v) for h, v in known.items()},
        Counter(unseen),
        Counter(gone),
        1,
    )


def _parts(cards: HiddenSupply) -> tuple[object, ...]:
    return (
        cards.total,
        dict(cards.limits),
        {h: dict(c) for h, c in cards.known.items()},
        dict(cards.unseen),
        dict(cards.gone),
        cards.gone_unseen,
    )


@settings(deadline=None)  # no timing: a busy machine must not fail it
@given(
    st.dictionaries(st.sampled_from(HOLDERS), HAND),
    st.dictionaries(st.sampled_from(HOLDERS[1:]), st.integers(0, 2)),
    HAND,
    st.sampled_from(HOLDERS[1:]),
    st.lists(st.sampled_from(CODES), max_size=4),
)
def test_trial_answers_as_a_full_copy(
    known: dict[str, dict[str, int]],
    unseen: dict[str, int],
    gone: dict[str, int],
    holder: str,
    played: list[str],
) -> None:
    cards = _supply(known, unseen, gone)
    before = _parts(cards)
    full, trial = copy.deepcopy(cards), _trial(cards, holder)
    for code in played:  # what _play_findings asks of the trial, card by card
        assert trial.shown(holder, "mb") == full.shown(holder, "mb")
        assert trial.discard(holder, code) == full.discard(holder, code)
        assert Baumeister._supply_finding(trial, code, None, holder) == (  # type: ignore[arg-type]
            Baumeister._supply_finding(full, code, None, holder)  # type: ignore[arg-type]
        )
    assert _parts(trial) == _parts(full)
    assert _parts(cards) == before  # the real bookkeeping untouched
