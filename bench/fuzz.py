#!/usr/bin/env python
"""Long fuzz run: random text, token soup from the grammar's terminals and mutated simulated
records through the parser, ``fmt`` and ``check`` (the bounded version is tests/test_fuzz.py).

Stops after ``--minutes`` (or ``--inputs``), reports how many inputs of each kind it tried, the
exit codes seen, and every crash (an uncaught exception, a traceback, an exit code other than
0/1/2) with the input that caused it, saved under ``--out``.

    python bench/fuzz.py --minutes 10
    python bench/fuzz.py --inputs 2000 --seed 7 --no-cli    # library only, faster
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from referee.simulate import simulate_text
from referee.simulate.fuzz import generators, run_one


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--inputs", type=int, default=0, help="stop after this many (0: no limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-cli", action="store_true", help="skip the check/fmt commands")
    ap.add_argument("--out", default="fuzz-crashes", help="folder for crashing inputs")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    records = [simulate_text(2 + i % 5, 10_000 + args.seed * 100 + i) for i in range(10)]
    gens = generators(records)
    kinds = sorted(gens)
    tried: Counter[str] = Counter()
    codes: Counter[tuple[str, str, int]] = Counter()
    crashes = 0
    deadline = time.monotonic() + args.minutes * 60
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        while time.monotonic() < deadline and (
            not args.inputs or sum(tried.values()) < args.inputs
        ):
            kind = kinds[sum(tried.values()) % len(kinds)]
            text = gens[kind](rng)
            out = run_one(text, work, cli=not args.no_cli)
            tried[kind] += 1
            for cmd, code in out.codes.items():
                codes[(kind, cmd, code)] += 1
            if out.crash:
                crashes += 1
                folder = Path(args.out)
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"crash-{crashes}.alh").write_text(text, "utf-8", errors="replace")
                (folder / f"crash-{crashes}.txt").write_text(out.crash, "utf-8")
                print(f"CRASH {crashes} ({kind}): {out.crash.strip().splitlines()[-1]}")
            n = sum(tried.values())
            if n % 200 == 0:
                rate = n / (time.monotonic() - started)
                print(f"  {n} inputs, {crashes} crashes, {rate:.1f} inputs/s", file=sys.stderr)
    total = sum(tried.values())
    secs = time.monotonic() - started
    print(f"tried {total} inputs in {secs:.0f} s ({total / secs:.1f}/s), seed {args.seed}:")
    for kind in kinds:
        seen = ", ".join(
            f"{cmd} exit {code}: {n}" for (k, cmd, code), n in sorted(codes.items()) if k == kind
        )
        print(f"  {kind:<15} {tried[kind]:>7}   {seen}")
    print(f"crashes: {crashes}" + (f" (inputs saved in {args.out}/)" if crashes else ""))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
