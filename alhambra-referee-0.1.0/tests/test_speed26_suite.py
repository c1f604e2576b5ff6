"""The test processes' cyclic collector (issue 34, twenty-fourth step, the suite's time).

``conftest.pytest_collection_finish`` freezes what collecting the suite made and collects the
youngest generation less often (:data:`conftest.GC_THRESHOLDS`). The collector must still be
on and still free the cycles a test makes; what was frozen is what collection left alive.
"""

from __future__ import annotations

import gc
import weakref

import conftest


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_collection_was_frozen_and_the_thresholds_set() -> None:
    assert conftest.GC_FROZEN and conftest.GC_FROZEN[-1] > 0
    # (test_tidy21_mypyc_locals sets them again after mypy's build changed them in-process)
    assert gc.get_threshold() == conftest.GC_THRESHOLDS
    assert gc.isenabled()
    # this test module's namespace, made while the suite was collected, is in the permanent
    # generation: no longer among the objects the collector walks (generations 0 to 2)
    gc.collect()
    walked = {id(o) for o in gc.get_objects()}
    assert id(globals()) not in walked and id(conftest.GC_FROZEN) not in walked
    assert gc.is_tracked(globals())  # frozen, not untracked: still a container the gc knows


def test_a_cycle_is_still_freed() -> None:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is None  # a full collection frees it at once
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    kept: list[_Node] = []
    for _ in range(2 * conftest.GC_THRESHOLDS[0]):
        kept.append(_Node())  # new container objects kept alive: the collector runs by itself
        if gone() is None:
            break
    assert gone() is None  # freed by the youngest generation's collection, without a collect
    assert len(kept) <= conftest.GC_THRESHOLDS[0] + 1
