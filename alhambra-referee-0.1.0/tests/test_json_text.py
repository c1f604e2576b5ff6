"""The check command's JSON writer gives exactly the text ``json.dumps`` gives (issue 34).

``referee.reports.json_text.dumps`` replaces ``json.dumps(obj, ensure_ascii=False, indent=2)``
on the ``check --format json`` path (the standard library's indented encoder is pure Python);
its text must be the same for every document, including the ones it hands back to ``json``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.reports.json_text import dumps


def _stdlib(obj: Any, prefix: str = "") -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2).replace("\n", "\n" + prefix)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_keys = st.text()
_docs = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(_keys, inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(_docs, st.sampled_from(["", "    ", "  "]))
def test_same_text_as_json_dumps(doc: Any, prefix: str) -> None:
    assert dumps(doc, prefix) == _stdlib(doc, prefix)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.integers() | st.booleans() | st.none() | st.floats(), _scalars))
def test_other_keys_are_left_to_json(doc: dict[Any, Any]) -> None:
    assert dumps(doc, "    ") == _stdlib(doc, "    ")


def test_edge_values() -> None:
    class Name(str):
        pass

    class Count(int):
        pass

    docs: list[Any] = [
        {},
        [],
        {"a": {}, "b": [], "c": [[]], "d": [{}]},
        {"nan": math.nan, "inf": math.inf, "-inf": -math.inf},
        {"x": 1e300, "y": -0.0, "z": 5e-324},
        {"s": '\x00\x1f\x7f\u2028\ud800 "quoted" back\\slash\nline\ttab', "é": "ü€😀"},
        {Name("sub"): Name("class"), "n": Count(3), "b": True},
        [True, False, None, 0, -1, 2**70],
        ("tuple", ("inside",)),
    ]
    deep: Any = "leaf"
    for _ in range(300):  # deeper than the writer walks itself: handed to json.dumps
        deep = [deep]
    docs.append(deep)
    for doc in docs:
        for prefix in ("", "    "):
            assert dumps(doc, prefix) == _stdlib(doc, prefix)


def test_a_cycle_fails_as_in_json() -> None:
    cyc: list[Any] = []
    cyc.append(cyc)
    for writer in (dumps, _stdlib):
        try:
            writer(cyc)
        except ValueError:
            continue
        raise AssertionError("a cycle must fail")


def test_check_documents(tmp_path: Any) -> None:
    """Real check documents (scorings, violations, errors) of the examples."""
    from pathlib import Path

    from referee.commands.check import _check_job, _jobs, _Options

    examples = sorted(Path(__file__).resolve().parent.parent.joinpath("examples").glob("*.alh"))
    assert examples
    opts = _Options(None, False, "json", "en", True)
    seen = 0
    for job in _jobs(tuple(str(p) for p in examples[:12])):
        done = _check_job(job, opts)
        if done.data is None:
            continue
        seen += 1
        assert dumps(done.data, "    ") == _stdlib(done.data, "    ")
    assert seen >= 12
