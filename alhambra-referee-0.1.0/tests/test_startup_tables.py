"""Tables written out in the source instead of computed at import (start-up, issue 34): each one
is the table its function computes."""

from __future__ import annotations

from referee.geometry.incremental import RING_GROUPS, _ring_groups_of


def test_ring_groups_is_what_ring_groups_of_gives_for_every_mask() -> None:
    computed = tuple(
        _ring_groups_of([not (mask >> i) & 1 for i in range(8)]) for mask in range(256)
    )
    assert computed == RING_GROUPS
    # the table's own sense, at its ends: a ring with nothing on it is one empty group; a full
    # ring has none; two side neighbours apart with the cells between them filled: two groups
    assert RING_GROUPS[0] == 1 and RING_GROUPS[0xFF] == 0
    assert RING_GROUPS[0b11101110] == 2  # ring cells 0 and 4 (two opposite sides) empty
