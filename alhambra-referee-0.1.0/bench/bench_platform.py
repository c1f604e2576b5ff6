#!/usr/bin/env python
"""Before/after benchmark of the full check across two source trees, in one run (a script).

The module-platform redesign must not slow the full check down. This script times the same
corpus (simulated base games, written once) with two versions of the referee, interleaved and
best of ``--runs``, each version in its own subprocess (``PYTHONPATH`` = its tree):

    git worktree add /tmp/ref-before 9a6a8f9     # the commit before the platform
    python bench/bench_platform.py --before /tmp/ref-before --after . --games 100

It prints turns/s of parse + validate + score for each tree and the ratio after/before.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TIMER = r"""
import json, sys, time
from referee.engine import check_game
from referee.notation import parse_text
text = open(sys.argv[1], encoding="utf-8").read()
best = None
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    games = parse_text(text, "corpus.alh")
    turns = 0
    for g in games:
        report = check_game(g)
        assert report.valid, [v.code for v in report.violations][:5]
        turns += report.state.turn_no
    dt = time.perf_counter() - t0
    best = dt if best is None or dt < best else best
print(json.dumps({"turns": turns, "games": len(games), "seconds": best}))
"""


def run(tree: Path, corpus: Path, runs: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", TIMER, str(corpus), str(runs)],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, default=Path("."))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (best counts)")
    args = ap.parse_args()
    from referee.simulate import simulate_many

    corpus = Path(tempfile.mkdtemp()) / "corpus.alh"
    players = [3, 4, 5, 6, 2]
    texts = [next(iter(simulate_many(players[i % 5], 1000 + i, 1))) for i in range(args.games)]
    corpus.write_text("\n".join(texts), encoding="utf-8")
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name, tree in (("before", args.before), ("after", args.after)):
            got = run(tree.resolve(), corpus, args.runs)
            if name not in best or got["seconds"] < best[name]["seconds"]:
                best[name] = got
    for name in ("before", "after"):
        b = best[name]
        print(
            f"{name:7} {b['games']} games, {b['turns']} turns: {b['seconds']:.2f} s, "
            f"{b['turns'] / b['seconds']:.0f} turns/s"
        )
    ratio = best["before"]["seconds"] / best["after"]["seconds"]
    print(f"after/before speed: {ratio:.2f}x")


if __name__ == "__main__":
    main()
