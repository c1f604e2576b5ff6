"""The module fuzzer (issue 32; ``python bench/fuzz.py --modules`` for the long run): seeds are
every module example, the edits know module tokens and the Modules header. A small sample here:
no traceback, internal error, time-out, memory error or fmt non-fixed point."""

from __future__ import annotations

import pytest

from referee.simulate import fuzz


@pytest.fixture(scope="module")
def records() -> list[str]:
    found = fuzz.module_records()
    assert len(found) >= 22  # one example per module, and the combined ones
    return found


def test_the_module_edits_change_module_text(records: list[str]) -> None:
    import random

    rng = random.Random(5)
    seeds = tuple(records)
    edited = [fuzz.module_edit(rng, records[i % len(records)], seeds) for i in range(20)]
    assert sum(e != records[i % len(records)] for i, e in enumerate(edited)) >= 15
    headers = [fuzz.module_header(rng, records[i % len(records)]) for i in range(20)]
    assert sum(h != records[i % len(records)] for i, h in enumerate(headers)) >= 15


def test_a_sample_of_module_inputs_runs_clean(records: list[str]) -> None:
    gens = fuzz.module_generators(records)
    kinds = set()
    for index in range(40):
        kind, data = fuzz.make_input(records, 32, index, gens, fuzz.MODULE_MIX)
        kinds.add(kind)
        outcome = fuzz.run_one(data)
        assert outcome.failure is None, (kind, index, outcome.detail[-1500:])
    assert {"module-edit", "mutated-record"} <= kinds
