#!/usr/bin/env python
"""Benchmark of the referee against python-chess (a script, not a test; issue 13).

In one process, interleaved (referee, chess, referee, chess, ...), best of ``--runs``:

* **full check, streamed**: the path ``alhambra-referee check`` takes for every game of a file
  (``referee.commands.check``: the file cut into games while it is read, each game parsed,
  checked, scored and its text report rendered, then dropped), over a fixed simulated corpus
  (``--games`` games, 2 to 6 players, seed ``--seed``), in turns/s;
* **python-chess** ``chess.pgn.read_game`` (SAN parsing and legality of every move) over a fixed
  PGN of random legal games (seed ``--seed``, about as many moves as the corpus has turns), in
  moves/s; then the ratio turns/s / moves/s.

python-chess is a bench-only dependency (``pip install -e '.[bench]'``); without it the chess
side is skipped with a message. Besides, for context: parse only and validate only (both
streamed), the headers-only scan (``read_headers``, games/s: what ``alhambra-referee headers``
runs), and with ``--startup N`` the wall time of ``alhambra-referee check`` of one game as a
new process (median and min of N runs, plus the CPU time of the child; ``--startup-before TREE``
times another source tree interleaved with this one). ``--lark-only``
switches the fast reader off (every game read by the Lark grammar): the "before" of the parse.
Times are wall clock (``perf_counter``) with the process's CPU time (``process_time``) beside,
since the machine is shared. ``--profile`` prints a cProfile table of the streamed full check.

    python bench/bench_check.py                      # 200 games, 3 runs, startup 15 runs
    python bench/bench_check.py --lark-only          # the same without the fast reader
    python bench/bench_check.py --games 60 --startup 0 --profile
    python bench/bench_check.py --mb 100             # also peak memory of check --jobs
    python bench/bench_check.py --runs 1 --startup 12 --startup-before /tmp/sr-before
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import platform
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def corpus(games: int, seed: int) -> str:
    """``games`` simulated games, 2 to 6 players in turn, as one multi-game text (fixed)."""
    from referee.simulate import simulate_many

    per = max(1, games // 5)
    texts: list[str] = []
    for n in (2, 3, 4, 5, 6):
        texts.extend(simulate_many(n, seed + n, per))
    return "\n".join(texts)


def count_turns(text: str) -> int:
    """Numbered turn lines (``12. Ben: ...``)."""
    return sum(1 for line in text.splitlines() if line[:1].isdigit())


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = ", load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    return f"{os.cpu_count()} CPUs (nproc), {cpu}, Python {platform.python_version()}{load}"


class Timing:
    """Best wall and best CPU seconds over the runs of one measure."""

    def __init__(self, name: str, units: int, unit: str) -> None:
        self.name, self.units, self.unit = name, units, unit
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def run(self, fn: Callable[[], object]) -> None:
        gc.collect()
        w, c = time.perf_counter(), time.process_time()
        fn()
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)

    def rate(self, cpu: bool = False) -> float:
        return self.units / min(self.cpu if cpu else self.wall)

    def row(self) -> str:
        return (
            f"{self.name:<40} {min(self.wall):>8.3f} {self.rate():>11,.0f} "
            f"{min(self.cpu):>8.3f} {self.rate(True):>11,.0f}  {self.unit}/s"
        )


# ------------------------------------------------------------------------------ referee


def check_streamed(path: Path) -> int:
    """Every game of the file through the check command's own per-game path; games valid."""
    from referee.commands.check import _check_job, _jobs, _Options

    opts = _Options(None, False, "text", "en", True)
    valid = 0
    for job in _jobs((str(path),)):
        done = _check_job(job, opts)
        valid += done.valid
    return valid


def parse_streamed(path: Path) -> None:
    from referee.notation import iter_games

    for _ in iter_games(path):
        pass


def validate_only(games: list[object]) -> None:
    from referee.engine import check_game

    for g in games:
        check_game(g)  # type: ignore[arg-type]


def headers_only(path: Path) -> None:
    from referee.notation import read_headers

    for _ in read_headers(path):
        pass


# -------------------------------------------------------------------------------- chess


def chess_pgn(seed: int, moves_wanted: int) -> tuple[str, int, int] | None:
    """A fixed PGN of random legal games (40-140 plies each) with about ``moves_wanted``
    moves: (text, games, moves); None when python-chess is not installed."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    out = io.StringIO()
    moves = games = 0
    while moves < moves_wanted:
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
        games += 1
        print(game, file=out, end="\n\n")
    return out.getvalue(), games, moves


def chess_read(pgn: str) -> None:
    import chess.pgn

    stream = io.StringIO(pgn)
    while chess.pgn.read_game(stream) is not None:
        pass


# ------------------------------------------------------------------------------ start-up


def startup(
    runs: int, record: Path, trees: dict[str, str | None]
) -> dict[str, tuple[list[float], list[float]]]:
    """Wall and CPU seconds (of the child) of ``python -m referee check RECORD`` as a new
    process, per run and per source tree (None: this one; a path: run with ``PYTHONPATH``), the
    trees interleaved; one warm-up round first."""
    out: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in trees}
    for i in range(runs + 1):
        for name, tree in trees.items():
            env = dict(os.environ)
            if tree is not None:
                env["PYTHONPATH"] = tree
            cwd = "/" if tree is not None else str(ROOT)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "referee", "check", str(record)],
                stdout=subprocess.DEVNULL,
                env=env,
                cwd=cwd,
                check=False,
            )
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:
                out[name][0].append(wall)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                out[name][1].append(cpu)
    return out


# -------------------------------------------------------------------------------- memory


def memory_run(text: str, mb: int, jobs: int) -> tuple[int, float, int, float]:
    """Check a file of about ``mb`` MB (the corpus repeated) in a subprocess: (games, seconds,
    peak RSS in kB of the largest process, file size in MB)."""
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
            peak = max(peak, *(_hwm(pid) for pid in _tree(proc.pid)))
            time.sleep(0.2)
        secs = time.perf_counter() - t
    return games, secs, peak, size


def _tree(pid: int) -> list[int]:
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
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


# ---------------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games in the corpus (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="repetitions (the best counts)")
    ap.add_argument("--startup", type=int, default=15, help="runs of one-game check, 0: skip")
    ap.add_argument(
        "--startup-before",
        metavar="TREE",
        help="also time the start-up of another source tree (PYTHONPATH), interleaved",
    )
    ap.add_argument("--lark-only", action="store_true", help="switch the fast reader off")
    ap.add_argument("--mb", type=int, default=0, help="size of a memory-run file, 0: skip")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--jobs of that run")
    ap.add_argument("--profile", action="store_true", help="cProfile the streamed full check")
    args = ap.parse_args()

    if args.lark_only:
        os.environ["ALHAMBRA_REFEREE_LARK_ONLY"] = "1"  # for the start-up runs too
    try:
        import referee.notation.fast as fast

        fast.ENABLED = not args.lark_only
    except ImportError:  # a source tree from before the fast reader (PYTHONPATH=...)
        args.lark_only = True
    from referee.notation import iter_games

    t = time.perf_counter()
    text = corpus(args.games, args.seed)
    gen = time.perf_counter() - t
    n_turns, n_lines = count_turns(text), text.count("\n")
    print(f"machine: {machine()}")
    import referee

    print(f"referee: {Path(referee.__file__).parent}")
    print(f"reader: {'Lark only' if args.lark_only else 'fast reader, Lark fallback'}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.alh"
        path.write_text(text, encoding="utf-8")
        games = list(iter_games(path))
        n_games = len(games)
        print(
            f"corpus: {n_games} simulated games (2-6 players, seed {args.seed}), {n_turns} turns, "
            f"{n_lines} lines, {len(text.encode()) / 1e6:.2f} MB; simulated in {gen:.1f} s"
        )
        valid = check_streamed(path)  # warm-up: grammar, catalogue, caches
        print(f"check: {valid} of {n_games} games valid")
        pgn = chess_pgn(args.seed, n_turns)
        if pgn is None:
            print("python-chess: not installed, chess side skipped (pip install -e '.[bench]')")
        else:
            print(f"PGN: {pgn[1]} random legal games, {pgn[2]} moves, {len(pgn[0]) / 1e6:.2f} MB")

        full = Timing("full check, streamed (check's path)", n_turns, "turns")
        chess_t = Timing("python-chess read_game", pgn[2], "moves") if pgn else None
        parse = Timing("parse only, streamed", n_turns, "turns")
        validate = Timing("validate + score only (parsed)", n_turns, "turns")
        heads = Timing("headers only (read_headers)", n_games, "games")
        for _ in range(args.runs):
            full.run(lambda: check_streamed(path))
            if chess_t is not None and pgn is not None:
                chess_t.run(lambda: chess_read(pgn[0]))
        for _ in range(args.runs):
            parse.run(lambda: parse_streamed(path))
            validate.run(lambda: validate_only(games))  # type: ignore[arg-type]
            heads.run(lambda: headers_only(path))

        print()
        print(
            f"{'measure (one process, best of ' + str(args.runs) + ')':<40} {'wall s':>8} "
            f"{'rate':>11} {'CPU s':>8} {'rate (CPU)':>11}"
        )
        for m in (full, chess_t, parse, validate, heads):
            if m is not None:
                print(m.row())
        if chess_t is not None:
            print(
                f"ratio full check / python-chess: {full.rate() / chess_t.rate():.3f} (wall), "
                f"{full.rate(True) / chess_t.rate(True):.3f} (CPU)"
            )

        if args.startup:
            trees: dict[str, str | None] = {"this tree": None}
            if args.startup_before:
                trees = {"before": args.startup_before, "this tree": None}
            record = ROOT / "examples" / "game-4p.alh"
            for name, (walls, cpus) in startup(args.startup, record, trees).items():
                print(
                    f"one-game check incl. start-up, {name} ({record.name}, {args.startup} runs): "
                    f"wall median {statistics.median(walls) * 1000:.0f} ms, "
                    f"min {min(walls) * 1000:.0f} ms; CPU median "
                    f"{statistics.median(cpus) * 1000:.0f} ms, min {min(cpus) * 1000:.0f} ms"
                )
        if args.mb:
            g, secs, peak, size = memory_run(text, args.mb, args.jobs)
            print(
                f"memory: check --jobs {args.jobs} of a {size:.0f} MB file ({g} games): "
                f"{secs:.0f} s, {g / secs:,.0f} games/s, peak RSS {peak / 1024:.0f} MB"
            )
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            check_streamed(path)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
            print(out.getvalue())


if __name__ == "__main__":
    main()
