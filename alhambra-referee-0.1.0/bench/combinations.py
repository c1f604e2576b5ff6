#!/usr/bin/env python
"""Simulated games of random module combinations (issue 32), for minutes: any module set, every
profile, 2-6 players. Each game must play without an internal error, read back, be a ``fmt``
fixed point and check clean (``referee.simulate.combinations.problems``); each runs under a CPU
time limit. The suite runs a few (tests/test_simulate_combinations.py).

    python bench/combinations.py --games 5000 --jobs 2 --seed 1
    python bench/combinations.py --minutes 10
    python bench/combinations.py --all-modules --games 20   # every game with all 43 modules

Prints one line per failing game (with the command that plays it again) and a summary.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import resource
import signal
import time
from collections import Counter
from typing import Any

from referee.simulate.combinations import Case, module_names, problems, random_case


class _OverTime(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _OverTime


def _play(job: tuple[Case, float]) -> tuple[Case, list[str], float, int]:
    case, limit = job
    signal.signal(signal.SIGXCPU, _alarm)
    start = time.process_time()
    soft = int(start + limit) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
    try:
        found = problems(case)
    except _OverTime:
        found = [f"over the time limit ({limit:.0f} s of CPU)"]
    except MemoryError:
        found = ["MemoryError"]
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return case, found, time.process_time() - start, len(case.modules)


def _init(memory_mb: int) -> None:
    if memory_mb:
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=0, help="games to play (0: until --minutes)")
    ap.add_argument("--minutes", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=120.0, help="CPU s per game")
    ap.add_argument("--memory-mb", type=int, default=1536, help="address space per worker")
    ap.add_argument(
        "--all-modules",
        action="store_true",
        help="every game with every bundled module (profile, players and seed drawn)",
    )
    args = ap.parse_args()
    if not args.games and not args.minutes:
        args.minutes = 5.0
    names = module_names()
    rng = random.Random(args.seed)
    deadline = time.time() + args.minutes * 60 if args.minutes else float("inf")
    total = args.games or 1 << 62

    def cases() -> Any:
        for _ in range(total):
            if time.time() > deadline:
                return
            case = random_case(rng, names)
            if args.all_modules:
                case = Case(names, case.profile, case.players, case.seed)
            yield case, args.time_limit

    started = time.time()
    n = bad = 0
    cpu = 0.0
    sizes: Counter[int] = Counter()
    kinds: Counter[str] = Counter()
    with mp.get_context("fork").Pool(args.jobs, _init, (args.memory_mb,)) as pool:
        for case, found, secs, size in pool.imap_unordered(_play, cases()):
            n += 1
            cpu += secs
            sizes[size] += 1
            if found:
                bad += 1
                kinds[found[0].split(":")[0]] += 1
                print(f"FAIL {case.command()}: {found[0][:300]}", flush=True)
            if n % 50 == 0:
                print(f"... {n} games, {bad} failing, {time.time() - started:.0f} s", flush=True)
            if time.time() > deadline:  # the pool has cases queued ahead: stop here
                break
    print(
        f"games {n}, failing {bad}, wall {time.time() - started:.0f} s, "
        f"CPU {cpu:.0f} s ({cpu / max(n, 1):.2f} s a game), jobs {args.jobs}, seed {args.seed}"
    )
    print("module-set sizes:", dict(sorted(sizes.items())))
    if kinds:
        print("failures by kind:", dict(kinds))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
