"""Fuzzing (issues 5 and 12, point 9): random text, token soup, mutated fragments, several games,
damaged bytes and mutated records go through ``parse``, ``fmt`` and ``check``. Nothing but the
project's own error reporting may come out: no traceback, no INTERNAL error, no input over the
time limit, and fmt output is a fixed point that reads to the same records.

A bounded, seeded run; ``python bench/fuzz.py --inputs N --jobs 2`` is the long run.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

import pytest

from referee.simulate import fuzz, simulate_text
from referee.simulate.fuzz import (
    MIX,
    generators,
    make_input,
    mutate_record,
    run_one,
    terminal_samples,
    time_limit,
    token_soup,
)

PER_KIND = 40


@pytest.fixture(scope="module")
def records() -> list[str]:
    return [simulate_text(n, 700 + n) for n in (2, 3, 4, 6)]


@pytest.mark.parametrize("kind", sorted(MIX))
def test_no_failure_on_any_kind_of_input(kind: str, records: list[str]) -> None:
    rng = random.Random(f"fuzz-{kind}")
    gen = generators(records)[kind]
    codes: Counter[str] = Counter()
    for _ in range(PER_KIND):
        data = gen(rng)
        out = run_one(data)
        assert out.failure is None, f"{kind} input {data!r} -> {out.failure}: {out.detail}"
        assert set(out.codes) == {"parse", "fmt", "check"}
        assert out.codes["parse"] == out.codes["fmt"]  # both read the same text
        codes.update(f"{cmd} {code}" for cmd, code in out.codes.items())
    assert {c.split()[1] for c in codes} <= {"0", "1", "2"}
    if kind in ("fragment", "mutated-record"):
        assert len(codes) > 3  # the inputs reach beyond the syntax check


def test_the_cli_paths_agree_on_a_few_inputs(records: list[str], tmp_path: Path) -> None:
    gens = generators(records)
    for i in range(6):
        kind, data = make_input(records, 4, i, gens)
        out = run_one(data, tmp_path, cli=True)
        assert out.failure is None, f"{kind}: {out.detail}"
        assert out.codes["cli-check"] == out.codes["check"]


def test_the_time_limit_stops_a_slow_input_and_reports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # point 9: an input over its time is a failure (a stand-in for a hang: a busy loop)
    def busy(data: bytes) -> int:
        while True:
            sum(range(1000))

    monkeypatch.setattr(fuzz, "_parse_path", busy)
    monkeypatch.setattr(fuzz, "TIME_LIMIT", 0.3)
    started = time.monotonic()
    out = run_one("1. Anna: take Gu1\n")
    assert out.failure == "over-time"
    assert time.monotonic() - started < 5


def test_time_limit_raises_after_the_cpu_time() -> None:
    with pytest.raises(fuzz.OverTime), time_limit(0.2):
        while True:
            sum(range(1000))


def test_a_formatter_that_is_not_a_fixed_point_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.notation as notation

    real = notation.format_games
    calls = [0]

    def drifting(games: object) -> str:
        calls[0] += 1
        return real(games) + "#" * calls[0] + "\n"  # a different comment on every call

    monkeypatch.setattr(notation, "format_games", drifting)
    out = run_one('[Event "x"]\n\n1. Anna: take Gu1\n')
    assert out.failure in ("fmt-not-fixed", "fmt-changes-meaning")


HANGS = {
    # issue 12: a tile that does not touch the Alhambra, later removed (the flood fill hang)
    "far tile removed": (
        '[Players "Anna, Ben"]\n\nposition\n  next Anna\n  player Anna\n'
        "    alhambra A9@1,0\n  player Ben\nend\n"
        "1. Anna: build T12@5,5\n2. Ben: take Gu1\n3. Anna: remove @5,5\n"
    ),
    "huge coordinate": "1. Anna: place T13@999999999,0\n",
    "5000-digit claim": "scoring 1: Anna +" + "9" * 5000 + "\n",
    "5000-digit turn": "9" * 5000 + ". Anna: take Gu1\n",
}


@pytest.mark.parametrize("name", sorted(HANGS))
def test_former_hangs_and_crashes_pass_quickly(name: str) -> None:
    out = run_one(HANGS[name])
    assert out.failure is None, out.detail
    assert out.seconds < fuzz.TIME_LIMIT


def test_inputs_are_reproducible_from_their_number(records: list[str]) -> None:
    assert make_input(records, 9, 1234) == make_input(records, 9, 1234)
    kinds = Counter(make_input(records, 9, i)[0] for i in range(400))
    assert set(kinds) == set(MIX)
    assert kinds["fragment"] > kinds["mutated-record"]  # mostly short inputs


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
