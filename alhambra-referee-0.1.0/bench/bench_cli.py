#!/usr/bin/env python
"""What users get: ``alhambra-referee check FILE`` over a fresh corpus, against python-chess
(a script, not a test; issue 34).

The corpus: ``--games`` simulated games (default 1,000; 2 to 6 players in turn, seed
``--seed``), made once into ``~/.cache/alhambra-referee/bench-cli/`` (or
``$ALHAMBRA_REFEREE_CACHE/bench-cli``) and reused by later runs, so two trees are measured on the
same file. Each run is a new process running the command exactly as a user types it (the
console script ``alhambra-referee`` next to this Python, else ``python -m referee``), default text
output, the file read once: every memo of the reader starts empty (a **first pass**). Start-up
is subtracted: the same command on a one-game file (the corpus's first game) is run alternately
with it, and its time taken off per run; the rest is divided by the corpus's turn lines.

python-chess (the ``[bench]`` extra) reads a fixed PGN of random legal games with about as many
moves as the corpus has turns, ``chess.pgn.read_game`` in a new process too (its import is
subtracted the same way), alternating with the referee's runs: the ratio is chess's µs a move
over the referee's µs a turn, both from the same minutes of the same machine. CPU time of the
child (user + sys) is the figure (the machine is shared); wall time is printed beside it.

    python bench/bench_cli.py                  # 1,000 games, 3 rounds
    python bench/bench_cli.py --games 200 --rounds 5
    python bench/bench_cli.py --cmd "python -m referee"   # another way to start the command
    python bench/bench_cli.py --format json    # check --format json
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402  (the corpus and the PGN maker)


def cache_dir() -> Path:
    base = os.environ.get("ALHAMBRA_REFEREE_CACHE")
    root = Path(base) if base else Path.home() / ".cache" / "alhambra-referee"
    return root / "bench-cli"


def corpus_files(games: int, seed: int) -> tuple[Path, Path, Path, int]:
    """(the corpus, its first game alone, the chess PGN, turns): made once, then reused."""
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    big = d / f"corpus-{games}-seed{seed}.alh"
    one = d / f"corpus-{games}-seed{seed}-first.alh"
    pgn = d / f"chess-{games}-seed{seed}.pgn"
    if not big.exists():
        print(f"making the corpus ({games} games, seed {seed}) into {big} ...", file=sys.stderr)
        text = bench_check.corpus(games, seed)
        tmp = big.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(big)
    text = big.read_text(encoding="utf-8")
    turns = bench_check.count_turns(text)
    if not one.exists():
        first = text.split("\n[Event ")[0]
        one.write_text(first.rstrip("\n") + "\n", encoding="utf-8")
    if not pgn.exists():
        made = bench_check.chess_pgn(seed, turns)
        if made is not None:
            pgn.with_suffix(".moves").write_text(str(made[2]), encoding="utf-8")
            pgn.write_text(made[0], encoding="utf-8")
    return big, one, pgn, turns


_CHESS = r"""
import io, sys
import chess.pgn
if sys.argv[1] != "-":
    stream = open(sys.argv[1], encoding="utf-8")
    while chess.pgn.read_game(stream) is not None:
        pass
"""


def child(cmd: list[str], ok: tuple[int, ...] = (0, 1)) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds) of one run of ``cmd``, output discarded.
    An exit code not in ``ok`` stops the bench (1: a game with violations, none in the corpus;
    python-chess's runs must exit with 0: an import error is 1 too)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited with {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def referee_command(given: str | None) -> list[str]:
    if given:
        return shlex.split(given)
    script = Path(sys.executable).with_name("alhambra-referee")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "referee"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (median counts)")
    ap.add_argument("--cmd", default=None, help="how to start the referee (default: console)")
    ap.add_argument(
        "--format", default="text", choices=["text", "json"], help="check's output format"
    )
    args = ap.parse_args()

    big, one, pgn, turns = corpus_files(args.games, args.seed)
    counted = pgn.with_suffix(".moves")
    moves = int(counted.read_text(encoding="utf-8")) if pgn.exists() and counted.exists() else 0
    if importlib.util.find_spec("chess") is None:  # the PGN may come from another Python's run
        moves = 0
    ref = referee_command(args.cmd)
    print(bench_check.machine())
    print(f"corpus: {big} ({big.stat().st_size / 1e6:.1f} MB, {args.games} games, {turns} turns)")
    fmt = ["--format", "json"] if args.format == "json" else []
    print(
        f"command: {' '.join(ref)} check {' '.join([*fmt, ''])}FILE "
        f"({args.format} output, a first pass in a new process)"
    )
    ours: list[float] = []
    ours_wall: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    for r in range(args.rounds):
        cpu_big, wall_big = child([*ref, "check", *fmt, str(big)])
        cpu_one, wall_one = child([*ref, "check", *fmt, str(one)])
        us_turn = (cpu_big - cpu_one) / turns * 1e6
        ours.append(us_turn)
        ours_wall.append((wall_big - wall_one) / turns * 1e6)
        line = (
            f"round {r + 1}: referee {us_turn:.1f} µs a turn CPU "
            f"({turns / (cpu_big - cpu_one):,.0f} turns/s; wall {ours_wall[-1]:.1f} µs; "
            f"start-up {cpu_one * 1e3:.0f} ms CPU)"
        )
        if moves:
            c_all, _ = child([sys.executable, "-c", _CHESS, str(pgn)], (0,))
            c_imp, _ = child([sys.executable, "-c", _CHESS, "-"], (0,))
            us_move = (c_all - c_imp) / moves * 1e6
            theirs.append(us_move)
            ratios.append(us_move / us_turn)
            line += f"; python-chess {us_move:.1f} µs a move; ratio {ratios[-1]:.3f}"
        print(line, flush=True)
    print(f"median: referee {statistics.median(ours):.1f} µs a turn (CPU, start-up subtracted)")
    if ratios:
        print(
            f"median: python-chess {statistics.median(theirs):.1f} µs a move; "
            f"ratio {statistics.median(ratios):.3f} (runs {', '.join(f'{x:.3f}' for x in ratios)})"
        )
    else:
        print("python-chess is not installed (pip install -e '.[bench]'): no ratio")


if __name__ == "__main__":
    main()
