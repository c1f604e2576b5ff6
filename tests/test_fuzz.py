"""Fuzzing (issue 5): random text, token soup from the grammar's own terminals, and mutated
simulated records go through the parser, ``fmt`` and ``check``. Nothing but the project's own
error reporting may come out: no uncaught exception, no traceback, exit codes 0, 1 or 2.

A bounded, seeded run; ``python bench/fuzz.py --minutes N`` is the long run.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from referee.simulate import simulate_text
from referee.simulate.fuzz import (
    generators,
    mutate_record,
    run_one,
    terminal_samples,
    token_soup,
)

PER_KIND = 40


@pytest.fixture(scope="module")
def records() -> list[str]:
    return [simulate_text(n, 700 + n) for n in (2, 3, 4, 6)]


@pytest.mark.parametrize("kind", ["random-text", "token-soup", "mutated-record"])
def test_no_crash_no_traceback_exit_codes_0_1_2(
    kind: str, records: list[str], tmp_path: Path
) -> None:
    rng = random.Random(f"fuzz-{kind}")
    gen = generators(records)[kind]
    codes: Counter[int] = Counter()
    for _ in range(PER_KIND):
        text = gen(rng)
        out = run_one(text, tmp_path)
        assert out.crash is None, f"{kind} input {text!r} -> {out.crash}"
        assert set(out.codes) == {"check", "fmt"}
        codes.update(out.codes.values())
    assert set(codes) <= {0, 1, 2}
    if kind == "mutated-record":
        assert len(codes) > 1  # the inputs reach beyond the syntax check


def test_every_terminal_of_the_grammar_has_samples() -> None:
    samples = terminal_samples()
    for name in ("CARD", "TILE", "FIELD", "XY", "WORD", "STRING", "INT", "TURN_NUMBER", "DEAL"):
        assert samples.get(name), name
    soup = token_soup(random.Random(3), 50)
    assert soup.strip()


def test_mutated_records_differ_and_many_still_parse(records: list[str]) -> None:
    from referee.notation import parse_text

    rng = random.Random(5)
    parsed = 0
    for _ in range(30):
        text = mutate_record(rng, records[0], 2)
        parsed += all(not g.errors for g in parse_text(text, "m.alh"))
    assert parsed > 3  # some mutants get past the parser into the rules engine


def test_binary_and_odd_encodings_are_input_errors(tmp_path: Path) -> None:
    from referee.simulate.fuzz import _cli

    path = tmp_path / "bin.alh"
    path.write_bytes(bytes(range(256)) * 4)
    code, output = _cli(["check", str(path)])
    assert code == 2 and "Traceback" not in output
    path.write_bytes(b"\xff\xfe[\x00E\x00")
    code, output = _cli(["fmt", "--check", str(path)])
    assert code == 2 and "Traceback" not in output
