"""Issue 25 (the geometry platform): the full check of base games before and after, timed in
one run.

Both trees check the same corpus (the bench's simulated base games) through ``check``'s own
per-game path, interleaved (before, after, before, after ...) so that the load of the shared
machine falls on both alike; the best of ``--runs`` counts. Instructions (the steadier figure
on a busy machine) come from ``count_instructions.py full --tree``.

    git worktree add /tmp/geo-before 58cf371
    python bench/bench_geometry.py --before /tmp/geo-before --games 40 --runs 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from count_instructions import _CHILD, corpus  # noqa: E402  (a script beside this one)


def timed(tree: Path, path: Path, passes: int) -> float:
    """Seconds of one child process: a warm pass, then ``passes`` full checks of the corpus,
    minus the same child with no pass (start-up and the warm pass)."""

    def run(n: int) -> float:
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(tree))
        cmd = [sys.executable, "-c", _CHILD, "full", str(n), "1", str(path)]
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, cwd=tempfile.gettempdir())
        return time.perf_counter() - start

    return run(passes) - run(0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the tree before (a git worktree)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--passes", type=int, default=2)
    args = ap.parse_args()
    path = corpus(args.games)
    trees = {"before": Path(args.before), "after": HERE.parent}
    best = {k: float("inf") for k in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            best[name] = min(best[name], timed(tree, path, args.passes))
    for name in trees:
        print(f"{name:6} {best[name] / args.passes:.3f} s per pass of {args.games} games")
    print(f"after / before: {best['after'] / best['before']:.3f}")


if __name__ == "__main__":
    main()
