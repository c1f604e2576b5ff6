#!/usr/bin/env python
"""Peak memory of ``alhambra-referee check --jobs N FILE``: the parent and its workers summed.

``/usr/bin/time -f %M`` gives the largest single process only; with ``--jobs`` the workers
hold the readers' memo tables, so this samples the resident size of the command's whole
process tree every 0.1 s and prints the peak (and the parent's own peak).

    python bench/jobs_memory.py FILE [--jobs 2] [--tree TREE]

To see whether memory stays flat as a file grows, run it over a corpus and over the same
corpus repeated (``for i in 1 2 3 4; do cat c.alh; echo; done > c4.alh``). Linux only
(``/proc``). Not a test: nothing here asserts anything.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _parents() -> dict[int, int]:
    out: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", encoding="ascii", errors="replace") as f:
                    out[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tree", default=None, help="source tree on PYTHONPATH (default: installed)")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.tree:
        env["PYTHONPATH"] = str(Path(args.tree).resolve())
    cmd = [sys.executable, "-m", "referee", "check", "--jobs", str(args.jobs), str(args.file)]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env, cwd="/")
    peak_tree = peak_parent = 0
    while proc.poll() is None:
        parents = _parents()
        family = {proc.pid}
        grew = True
        while grew:
            grew = False
            for child, parent in parents.items():
                if parent in family and child not in family:
                    family.add(child)
                    grew = True
        peak_tree = max(peak_tree, sum(_rss_kb(p) for p in family))
        peak_parent = max(peak_parent, _rss_kb(proc.pid))
        time.sleep(0.1)
    print(
        f"{args.file.name} --jobs {args.jobs}: exit {proc.returncode}, "
        f"{time.monotonic() - start:.0f} s; peak RSS, parent and workers summed: "
        f"{peak_tree / 1024:.1f} MB; the parent alone: {peak_parent / 1024:.1f} MB"
    )


if __name__ == "__main__":
    main()
