"""The reader's first pass (issue 34, fourth step): a group's template is made from the record
read where the group first stands, not by reading its text again at a stand-in line when it
comes back. The template must be the one the stand-in read gives, for every group of simulated
games of base and module mixes, wherever the group stands; and the records read from it the
general path's (tests/test_notation_fast.py checks the records line by line)."""

from __future__ import annotations

import pytest

from referee.notation import fast
from referee.simulate import simulate_text

MIXES: tuple[tuple[str, ...], ...] = (
    (),
    ("wesir",),
    ("bonuskarten",),
    ("wechselstuben", "plaetze"),
    ("obstgaerten", "bauland", "menagerie"),
)


@pytest.mark.parametrize("modules", MIXES, ids=lambda m: "+".join(m) or "base")
def test_first_sight_templates_are_the_stand_in_reads(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    for table in ("_actions", "_events", "_heads", "_turn_lines", "_chance_lines"):
        monkeypatch.setattr(fast, table, {})
    text = simulate_text(4, 61, modules=modules) + simulate_text(3, 62, modules=modules)
    plain = [ln for ln in text.splitlines() if ln[:1] == "*" or ln[:1].isdigit()]
    checked = 0
    for n, line in enumerate(plain, 1):
        fast.read_line(line, n + 500)
    for memo, read in ((fast._actions, fast._action), (fast._events, fast._event)):
        for group, template in memo.items():
            again = fast._memo_group({}, read, group)  # read anew at the stand-in line
            if template is None:
                assert again is None, group
                continue
            assert again is not None, group
            assert template[2] == again[2] and template[1] == again[1], group
            assert [type(v) for v in template[1]] == [type(v) for v in again[1]], group
            checked += 1
    assert checked > 50
