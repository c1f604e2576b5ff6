#!/usr/bin/env python
"""Benchmark of the referee on simulated games (a script, not a test).

Measures on one core:

* full check: parse + validate every event + the three scorings, in turns/s and games/s
* parse only (text -> typed records) and headers only (``read_headers``)
* peak memory of ``alhambra-referee check`` on a multi-game file of ``--mb`` megabytes
  (streamed game by game; the largest peak resident set, VmHWM, of the checking processes)
* when python-chess is installed (``pip install chess``; not a dependency of the project):
  its PGN reader on random legal chess games, in moves/s, for the ratio in one run

and prints a table. ``--profile`` adds the top functions of a cProfile run of the full check.

    python bench/bench_check.py                 # corpus of 200 games, 100 MB memory run
    python bench/bench_check.py --mb 0          # skip the memory run
    python bench/bench_check.py --profile --games 60 --mb 0
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.engine import check_game
from referee.notation import parse_text, read_headers
from referee.simulate import simulate_many


def corpus(games: int, seed: int) -> str:
    """``games`` simulated games, 2 to 6 players in turn, as one multi-game text."""
    per = max(1, games // 5)
    texts: list[str] = []
    for n in (2, 3, 4, 5, 6):
        texts.extend(simulate_many(n, seed + n, per))
    return "\n".join(texts)


def count_turns(text: str) -> int:
    return sum(1 for line in text.splitlines() if line[:1].isdigit())


def best_of(runs: int, fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs (nproc), {cpu}, Python {platform.python_version()}"


def memory_run(text: str, mb: int, jobs: int) -> tuple[int, float, int, float]:
    """Write a file of about ``mb`` MB (the corpus repeated) and check it in a subprocess:
    (games, seconds, peak RSS in kB of the largest process, file size in MB)."""
    block = text.rstrip("\n") + "\n\n"
    reps = max(1, (mb * 1_000_000) // len(block.encode()))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.alh"
        with path.open("w", encoding="utf-8") as fh:
            for _ in range(reps):
                fh.write(block)
        size = path.stat().st_size / 1e6
        games = reps * block.count("[Event ")
        cmd = [sys.executable, "-m", "referee", "check", "--no-scoring", "--jobs", str(jobs)]
        t = time.perf_counter()
        proc = subprocess.Popen([*cmd, str(path)], stdout=subprocess.DEVNULL)
        peak = 0
        while proc.poll() is None:
            # VmHWM is each process's own peak; ru_maxrss of the children would count the
            # pages of this (large) process that a forked child holds until it execs
            peak = max(peak, *(_hwm(pid) for pid in _tree(proc.pid)))
            time.sleep(0.2)
        secs = time.perf_counter() - t
    return games, secs, peak, size


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return out


def _hwm(pid: int) -> int:
    """Peak resident set of a process in kB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def chess_run(games: int, seed: int) -> tuple[int, float] | None:
    """python-chess's PGN reader (parse + validate) on random legal games: (moves, seconds)."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    out = io.StringIO()
    moves = 0
    for _ in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randrange(40, 140)):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            mv = rng.choice(legal)
            node = node.add_variation(mv)
            board.push(mv)
            moves += 1
        print(game, file=out, end="\n\n")
    pgn = out.getvalue()

    def read() -> None:
        stream = io.StringIO(pgn)
        while chess.pgn.read_game(stream) is not None:
            pass

    return moves, best_of(3, read)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games in the corpus (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mb", type=int, default=100, help="size of the memory-run file, 0: skip")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--jobs of that run")
    ap.add_argument("--runs", type=int, default=3, help="repetitions (best time counts)")
    ap.add_argument("--profile", action="store_true", help="cProfile the full check")
    args = ap.parse_args()

    t = time.perf_counter()
    text = corpus(args.games, args.seed)
    gen = time.perf_counter() - t
    games = parse_text(text, "corpus.alh")  # also builds the parser once
    n_games, n_turns, n_lines = len(games), count_turns(text), text.count("\n")
    print(f"machine: {machine()}")
    print(
        f"corpus: {n_games} simulated games (2-6 players), {n_turns} turns, {n_lines} lines, "
        f"{len(text.encode()) / 1e6:.1f} MB; simulated in {gen:.1f} s "
        f"({n_games / gen:.1f} games/s)"
    )

    def full() -> None:
        for g in parse_text(text, "corpus.alh"):
            check_game(g)

    def parse_only() -> None:
        parse_text(text, "corpus.alh")

    def validate_only() -> None:
        for g in games:
            check_game(g)

    def headers_only() -> None:
        for _ in read_headers(text=text):
            pass

    rows: list[tuple[str, float, str]] = []
    s = best_of(args.runs, full)
    rows.append(("full check (parse+validate+score)", s, "turns"))
    rows.append(("parse only", best_of(args.runs, parse_only), "turns"))
    rows.append(("validate+score only (parsed)", best_of(args.runs, validate_only), "turns"))
    rows.append(("headers only", best_of(args.runs, headers_only), "games"))
    print()
    print(
        f"{'measure (one core)':<36} {'seconds':>8} {'turns/s':>10} {'games/s':>10} {'lines/s':>10}"
    )
    for name, secs, _unit in rows:
        print(
            f"{name:<36} {secs:>8.3f} {n_turns / secs:>10,.0f} {n_games / secs:>10,.1f} "
            f"{n_lines / secs:>10,.0f}"
        )
    cr = chess_run(max(50, args.games), args.seed)
    if cr is None:
        print("python-chess: not installed (pip install chess to compare)")
    else:
        moves, secs = cr
        print(
            f"{'python-chess PGN read (for scale)':<36} {secs:>8.3f} {moves / secs:>10,.0f} "
            "  (chess moves/s)"
        )
        print(f"ratio full check / python-chess: {n_turns / s / (moves / secs):.2f}")
    if args.mb:
        g, secs, peak, size = memory_run(text, args.mb, args.jobs)
        print(
            f"memory: check --jobs {args.jobs} of a {size:.0f} MB file ({g} games): "
            f"{secs:.0f} s, {g / secs:,.0f} games/s, peak RSS {peak / 1024:.0f} MB "
            "(largest process)"
        )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        full()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())


if __name__ == "__main__":
    main()
