#!/usr/bin/env python
"""What a module costs a turn (a script, not a test; issue 34).

Per turn, in one process, CPU time, best of ``--runs``:

* ``base``: simulated base games (2 to 6 players);
* ``silent X``: the same base games with ``[Modules "X"]`` added to their headers: module X is
  enabled and never acts (its lines are absent), so the row is the cost of merely being asked
  (a module whose rules need its own setup lines reports a violation there; the row says how
  many games stay valid);
* ``alone X``: simulated games with module X alone (the module plays its part);
* ``first22``: simulated games with the issue's 22 first modules at once (:data:`FIRST_22`,
  the modules before waves D, E and F);
* ``all``: simulated games with every registered module at once.

The ``first22`` and ``all`` rows hold ``--games`` games each, like the others: a seed the
simulator cannot play is skipped and named (on stderr and in a ``.skipped`` file beside the
corpus, one line a seed with the reason), and further seeds are tried until the row is full.

Two figures a row: **validate** (``check_game`` over the parsed games: the engine and the
scorings) and **full** (the check command's per-game path: read, check, text report, as
``alhambra-referee check`` runs it, the reader's memo warm after the first run), both in µs a
turn, and each as a factor of the base row's. On a shared machine the load moves from minute
to minute, so the base games are timed again beside every row (the two alternate, best of
``--runs`` each) and a row's factor is taken against that base figure; the base row itself
shows the first one. The corpora are simulated once into
``~/.cache/alhambra-referee/bench-modules/`` (or ``$ALHAMBRA_REFEREE_CACHE/bench-modules``) and
reused, so two trees are measured on the same files.

``--instructions`` counts instead of timing (valgrind, see ``count_instructions.py``): the
instructions a turn of ``check_game`` over each row's games, which do not move with the load
(about a minute a row).

    python bench/bench_modules.py                    # every module, 3 runs
    python bench/bench_modules.py --only wesir bauland --runs 5
    python bench/bench_modules.py --instructions --only wesir --rows base silent
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402

FIRST_22 = (
    *("angreifer", "badehaeuser", "bauland", "baumeister", "baustellen", "bazare"),
    *("bonuskarten", "diamanten", "diebe", "magisch", "medina", "obstgaerten", "plaetze"),
    *("schaetze", "sultan", "wechselgeld", "wechselscheine", "wechselstuben"),
    *("wertungskaertchen", "wesir", "wuensche", "wunschbrunnen"),
)
"""The issue's 22 first modules (those before waves D, E and F): its target for them together
is 2x a base turn."""


def cache_dir() -> Path:
    base = os.environ.get("ALHAMBRA_REFEREE_CACHE")
    root = Path(base) if base else Path.home() / ".cache" / "alhambra-referee"
    return root / "bench-modules"


def module_names() -> list[str]:
    from referee.engine.extensions import MODULES, load_bundled_modules

    load_bundled_modules()
    return sorted({cls.name for cls in MODULES.values()})


def make(path: Path, texts: list[str]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(t.rstrip("\n") + "\n" for t in texts), encoding="utf-8")
    tmp.replace(path)


def corpora(
    names: list[str],
    games: int,
    every: list[str],
    rows: tuple[str, ...] = ("silent", "alone", "first22", "all"),
) -> dict[str, Path]:
    """Row label -> corpus file (made on first use), for the kinds of rows in ``rows``."""
    from referee.simulate import simulate_many

    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    base = d / f"base-{games}.alh"
    if not base.exists():
        make(base, [bench_check.corpus(games, 34)])
    out["base"] = base
    base_games = base.read_text(encoding="utf-8").split("\n[Event ")
    base_games = [g if g.startswith("[Event ") else "[Event " + g for g in base_games]
    for name in names if "silent" in rows else ():
        silent = d / f"silent-{name}-{games}.alh"
        if not silent.exists():
            make(
                silent,
                [g.replace("[Result ", f'[Modules "{name}"]\n[Result ', 1) for g in base_games],
            )
        out[f"silent {name}"] = silent
    for i, name in enumerate(names):
        if "alone" not in rows:
            break
        alone = d / f"alone-{name}-{games}.alh"
        if not alone.exists():
            print(f"simulating {name} ...", file=sys.stderr, flush=True)
            texts: list[str] = []
            for n in range(games):
                texts.extend(simulate_many(2 + (i + n) % 5, 3400 + 10 * i + n, 1, modules=(name,)))
            make(alone, texts)
        out[f"alone {name}"] = alone
    if "first22" in rows:
        first = d / f"first22-{games}.alh"
        out["first22"] = together_corpus(first, FIRST_22, games, 3600, (2, 3, 4, 5, 6))
    if "all" in rows:
        every_file = d / f"all-{len(every)}-{games}.alh"
        out["all"] = together_corpus(every_file, every, games, 3499, (3, 4))
    return out


def together_corpus(
    path: Path,
    modules: tuple[str, ...] | list[str],
    games: int,
    seed: int,
    players: tuple[int, ...],
) -> Path:
    """A corpus of ``games`` simulated games with every module of ``modules`` at once (made on
    first use): seeds ``seed``, ``seed + 1``, ... with the numbers of ``players`` in turn (all
    43 modules: 3 and 4 players, as the row had them when it held two games, so its first
    games are the same). A seed the simulator cannot play is skipped and said, on stderr and
    in ``<corpus>.skipped`` (one line a seed: seed, players, the error), and the next one
    tried, up to ``3 * games`` seeds."""
    from referee.simulate import simulate_many

    if path.exists():
        return path
    print(f"simulating {len(modules)} modules together ...", file=sys.stderr, flush=True)
    texts: list[str] = []
    skipped: list[str] = []
    for n in range(3 * games):
        if len(texts) == games:
            break
        k = players[n % len(players)]
        try:
            texts.extend(simulate_many(k, seed + n, 1, modules=tuple(modules)))
            print(f"seed {seed + n} ({k} players) played", file=sys.stderr, flush=True)
        except Exception as exc:  # a bench: say it and try the next seed
            line = f"seed {seed + n} ({k} players) not played: {exc!r:.300}"
            print(line, file=sys.stderr, flush=True)
            skipped.append(line)
    path.with_suffix(".skipped").write_text("".join(x + "\n" for x in skipped), encoding="utf-8")
    make(path, texts)
    return path


def prepare(path: Path) -> tuple[int, int, int, Any]:
    """(games, valid games, turns, a function timing one run: (validate s, full s))."""
    from referee.commands.check import _check_job, _jobs, _Options
    from referee.engine import check_game
    from referee.notation import iter_games

    text = path.read_text(encoding="utf-8")
    turns = bench_check.count_turns(text)
    games = list(iter_games(path))
    valid = sum(1 for g in games if check_game(g).valid)  # type: ignore[union-attr]
    opts = _Options(None, False, "text", "en", True)

    def once() -> tuple[float, float]:
        gc.collect()
        t = time.process_time()
        for g in games:
            check_game(g)
        v = time.process_time() - t
        gc.collect()
        t = time.process_time()
        for job in _jobs((str(path),)):
            _check_job(job, opts)
        return v, time.process_time() - t

    return len(games), valid, turns, once


def measure_beside(
    path: Path, base: Any, base_turns: int, runs: int
) -> tuple[int, int, int, float, float, float, float]:
    """``measure`` of ``path`` with the base games timed in alternation: (games, valid, turns,
    validate µs, full µs, base validate µs, base full µs), each the best of ``runs``."""
    games, valid, turns, once = prepare(path)
    bv = bf = v = f = float("inf")
    for _ in range(runs):
        a, b = base()
        bv, bf = min(bv, a), min(bf, b)
        a, b = once()
        v, f = min(v, a), min(f, b)
    scale = 1e6
    return (
        games,
        valid,
        turns,
        v / turns * scale,
        f / turns * scale,
        bv / base_turns * scale,
        bf / base_turns * scale,
    )


def instructions(path: Path) -> tuple[int, int]:
    """(turns, instructions a turn of ``check_game`` over the games of ``path``), counted by
    valgrind in a child process of this tree."""
    import count_instructions

    tree = HERE.parent
    turns = bench_check.count_turns(path.read_text(encoding="utf-8"))
    n = count_instructions.count(tree, "validate", 1, 0, path) - count_instructions.count(
        tree, "validate", 0, 0, path
    )
    return turns, n // max(turns, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games a row (default 20)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None, help="these modules only")
    ap.add_argument(
        "--rows",
        nargs="*",
        default=["base", "silent", "alone", "first22", "all"],
        help="kinds of rows (base silent alone first22 all; default every kind)",
    )
    ap.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind) instead"
    )
    args = ap.parse_args()
    every = module_names()
    names = args.only or every
    files = {
        label: path
        for label, path in corpora(names, args.games, every, tuple(args.rows)).items()
        if label == "base" or label.split()[0] in args.rows
    }
    print(bench_check.machine())
    if args.instructions:
        print(
            "| row | turns | validate instructions/turn | × base |\n|---|---:|---:|---:|",
            flush=True,
        )
        base_n = 0
        for label, path in files.items():
            turns, n = instructions(path)
            if label == "base":
                base_n = n
            if label != "base" or "base" in args.rows:
                print(f"| {label} | {turns} | {n:,} | {n / base_n:.2f} |", flush=True)
        return
    print(
        "| row | games (valid) | turns | validate µs/turn | × base | full µs/turn | × base |\n"
        "|---|---:|---:|---:|---:|---:|---:|"
    )
    _games, _ok, base_turns, base_once = prepare(files["base"])
    for label, path in files.items():
        g, ok, turns, v, f, bv, bf = measure_beside(path, base_once, base_turns, args.runs)
        if label == "base":
            v, f = bv, bf = min(v, bv), min(f, bf)
        print(
            f"| {label} | {g} ({ok}) | {turns} | {v:.1f} | {v / bv:.2f} | {f:.1f} | {f / bf:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
