#!/usr/bin/env python
"""Long fuzz run over ``parse``, ``fmt`` and ``check`` (the bounded version is tests/test_fuzz.py).

Inputs (see ``referee.simulate.fuzz``): random text, token soup from the grammar's terminals,
short mutated fragments of records, several games in one file, damaged bytes, and whole mutated
records as a share. Each input runs in-process under a CPU time limit (``--time-limit``) in one
of ``--jobs`` worker processes (forked after the parser is built; each worker's address space is
limited to ``--memory-mb``). A failure is an uncaught exception or traceback, an INTERNAL error,
an input over the time limit, a MemoryError, or fmt output that is not a fixed point or reads to
other records; its input is saved under ``--out`` with the reason.

Input number i of a run is made from (seed, i) alone, so a run can be resumed (``--start``) and
any input made again (``--show i``). A summary is written to ``--out``/summary.json while the
run goes on.

    python bench/fuzz.py --inputs 1000000 --jobs 2 --seed 1
    python bench/fuzz.py --minutes 5
    python bench/fuzz.py --seed 1 --show 123456          # print input 123456 of seed 1
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import queue
import resource
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from referee.simulate import fuzz

REPORT_EVERY = 500  # inputs between two progress messages of a worker


def _worker(
    wid: int,
    jobs: int,
    start: int,
    end: int,
    seed: int,
    records: list[str],
    out: str,
    memory_mb: int,
    deadline: float,
    q: Any,
    modules: bool = False,
) -> None:
    try:
        os.nice(0)
        if memory_mb:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        gens = fuzz.module_generators(records) if modules else fuzz.generators(records)
        mix = fuzz.MODULE_MIX if modules else None
        codes: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        failures: Counter[str] = Counter()
        slow: list[tuple[float, int, str]] = []
        cpu = [0.0]
        done = 0
        index = start + wid
        last = time.monotonic()
        while index < end and time.time() < deadline:
            kind, data = fuzz.make_input(records, seed, index, gens, mix)
            result = fuzz.run_one(data)
            kinds[kind] += 1
            for cmd, code in result.codes.items():
                codes[f"{cmd} exit {code}"] += 1
            cpu[0] = max(cpu[0], result.seconds)
            if result.seconds > 0.5:
                slow.append((result.seconds, index, kind))
            if result.failure:
                failures[result.failure] += 1
                folder = Path(out)
                folder.mkdir(parents=True, exist_ok=True)
                raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
                (folder / f"fail-{seed}-{index}.alh").write_bytes(raw)
                (folder / f"fail-{seed}-{index}.txt").write_text(
                    f"{result.failure} ({kind}, {result.seconds:.2f} s)\n{result.detail}",
                    "utf-8",
                    errors="replace",
                )
            done += 1
            index += jobs
            if done % REPORT_EVERY == 0 or time.monotonic() - last > 20:
                q.put(
                    (
                        "progress",
                        wid,
                        done,
                        index,
                        dict(kinds),
                        dict(codes),
                        dict(failures),
                        cpu[0],
                        slow[-20:],
                    )
                )
                kinds.clear()
                codes.clear()
                failures.clear()
                slow.clear()
                done = 0
                last = time.monotonic()
        q.put(
            (
                "progress",
                wid,
                done,
                index,
                dict(kinds),
                dict(codes),
                dict(failures),
                cpu[0],
                slow[-20:],
            )
        )
        q.put(("finished", wid, index))
    except BaseException as exc:  # a worker must always say why it stopped
        q.put(("died", wid, f"{type(exc).__name__}: {exc}"))


def _machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {model}, Python {platform.python_version()}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--inputs", type=int, default=0, help="inputs to run (0: until --minutes)")
    ap.add_argument("--minutes", type=float, default=0.0, help="stop after this (0: no limit)")
    ap.add_argument("--start", type=int, default=0, help="first input number (to resume)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--time-limit", type=float, default=fuzz.TIME_LIMIT, help="CPU s per input")
    ap.add_argument("--memory-mb", type=int, default=1536, help="address space per worker")
    ap.add_argument("--out", default="fuzz-out", help="folder for failing inputs and summary")
    ap.add_argument("--show", type=int, default=-1, help="print input SHOW of the seed and stop")
    ap.add_argument(
        "--modules",
        action="store_true",
        help="the module fuzzer: seeds = every module example, module-aware edits",
    )
    args = ap.parse_args()
    if not args.inputs and not args.minutes and args.show < 0:
        args.minutes = 5.0

    fuzz.TIME_LIMIT = args.time_limit
    records = fuzz.module_records() if args.modules else fuzz.seed_records(args.seed)
    gens = fuzz.module_generators(records) if args.modules else fuzz.generators(records)
    mix = fuzz.MODULE_MIX if args.modules else None
    if args.show >= 0:
        kind, data = fuzz.make_input(records, args.seed, args.show, gens, mix)
        print(f"# input {args.show} of seed {args.seed}: {kind}", file=sys.stderr)
        raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        sys.stdout.buffer.write(raw)
        return 0

    from referee.notation.errors import _example_index
    from referee.notation.parser import _parser

    _parser()  # built once here: the forked workers inherit it
    _example_index()
    fuzz.terminal_samples()
    for i in range(300):  # warm-up: every module a run imports is loaded before the fork
        fuzz.run_one(fuzz.make_input(records, args.seed + 1, i, gens, mix)[1])
    end = args.start + args.inputs if args.inputs else 1 << 62
    deadline = time.time() + args.minutes * 60 if args.minutes else float("inf")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    procs = [
        ctx.Process(
            target=_worker,
            args=(
                w,
                args.jobs,
                args.start,
                end,
                args.seed,
                records,
                str(out),
                args.memory_mb,
                deadline,
                q,
                args.modules,
            ),
            daemon=True,
        )
        for w in range(args.jobs)
    ]
    started = time.time()
    for p in procs:
        p.start()
    kinds: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    slowest: list[tuple[float, int, str]] = []
    max_cpu = 0.0
    next_index = {w: args.start + w for w in range(args.jobs)}
    running = set(range(args.jobs))
    died: dict[int, str] = {}
    last_seen = {w: time.time() for w in range(args.jobs)}
    last_write = 0.0

    def summary(final: bool) -> dict[str, Any]:
        total = sum(kinds.values())
        secs = time.time() - started
        return {
            "command": " ".join(["python", *sys.argv]),
            "machine": _machine(),
            "seed": args.seed,
            "start": args.start,
            "inputs": total,
            "resume_from": min(next_index.values()) if next_index else args.start,
            "seconds": round(secs, 1),
            "inputs_per_second": round(total / secs, 1) if secs else 0,
            "time_limit_cpu_s": args.time_limit,
            "memory_mb": args.memory_mb,
            "kinds": dict(sorted(kinds.items())),
            "codes": dict(sorted(codes.items())),
            "failures": dict(sorted(failures.items())),
            "slowest_cpu_s": round(max_cpu, 3),
            "slowest_inputs": [
                {"cpu_s": round(s, 3), "index": i, "kind": k}
                for s, i, k in sorted(slowest, reverse=True)[:10]
            ],
            "workers_died": died,
            "finished": final and not died and not running,
            "utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        }

    while running:
        try:
            msg = q.get(timeout=5)
        except queue.Empty:
            msg = None
        now = time.time()
        if msg is not None:
            what, wid = msg[0], msg[1]
            last_seen[wid] = now
            if what == "progress":
                _, _, _done, index, k, c, f, cpu, slow = msg
                kinds.update(k)
                codes.update(c)
                failures.update(f)
                max_cpu = max(max_cpu, cpu)
                slowest.extend(slow)
                slowest = sorted(slowest, reverse=True)[:10]
                next_index[wid] = index
            elif what == "finished":
                running.discard(wid)
                next_index[wid] = msg[2]
            elif what == "died":
                running.discard(wid)
                died[wid] = msg[2]
        for w in list(running):
            # a worker silent for long is stuck outside Python (the CPU timer could not fire)
            if now - last_seen[w] > 600 or not procs[w].is_alive():
                procs[w].kill()
                running.discard(w)
                died[w] = f"silent or gone; its next input was {next_index[w]} (or after)"
                failures["worker-stuck"] += 1
        if now - last_write > 30 or not running:
            last_write = now
            doc = summary(not running)
            (out / "summary.json").write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
            print(
                f"  {doc['inputs']} inputs, {doc['inputs_per_second']}/s, failures "
                f"{sum(failures.values())}, slowest {max_cpu:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    for p in procs:
        p.join(timeout=5)
    doc = summary(True)
    (out / "summary.json").write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
    print(json.dumps(doc, indent=2))
    return 1 if failures or died else 0


if __name__ == "__main__":
    sys.exit(main())
