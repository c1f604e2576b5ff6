"""Instructions a part of the check costs, counted by valgrind: the same on a busy machine.

Timings on a shared 2-core machine swing by 15-30 % from run to run; an instruction count does
not move at all (``PYTHONHASHSEED`` fixed). It is a proxy: an instruction that misses the cache
costs more than one that hits, so a change that trades instructions for memory traffic (a big
memo table) must still be timed. For everything else it tells a 1 % change apart in a minute.

    python bench/count_instructions.py validate            # this tree
    python bench/count_instructions.py full --tree /tmp/before --games 40 --warm 1
    python bench/count_instructions.py chess --games 40            # needs python-chess
    python bench/count_instructions.py validate --file ~/.cache/alhambra-referee/bench-modules/X.alh
    python bench/count_instructions.py fullcold --games 60 --callgrind /tmp/cg    # a profile

Parts: ``validate`` (check_game of parsed games), ``parse`` (iter_games), ``full`` (the check
command's per-game path: read, check, text report), ``fullcold`` (``full`` as the first pass of
a fresh process: every memo starts empty), the first pass up to a stage (``cutcold``: the file
cut into games; ``parsecold``: and each game read; ``checkcold``: and checked; ``jsoncold``:
``fullcold`` with the JSON report, written as ``check`` writes it, instead of the text one;
the differences between them are what each stage costs on a first pass), ``chess``
(python-chess's ``read_game`` over the PGN ``bench_check.py`` makes beside that corpus: the
other side of the issue's ratio, per move, so the ratio can be read in instructions too) and
``startup`` (the whole process ``python -m referee check FILE`` as a user starts it, default
``examples/game-4p.alh``: bytecode cached and a cache folder of its own warmed by a first run,
so that no other tree's entries are read; besides it the bare interpreter, ``python -c pass``).
Each figure is the count of a run with the part minus that of the same run without it, over
the bench's corpus made for ``--games`` games (``--warm``: passes of the reader before, so its
memo tables are as a repeated read finds them).
Needs ``valgrind`` on the PATH (not a dependency of the project).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = r"""
import gc, sys
from pathlib import Path
from referee.commands.check import _check_job, _jobs, _Options
from referee.engine import check_game
from referee.notation import iter_games

part, passes, warm, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
opts = _Options(None, False, "text", "en", True)
gc.disable()

if part == "chess":  # python-chess's read_game over the bench's PGN (the ratio's other side)
    import io
    import chess.pgn

    pgn = path.read_text(encoding="utf-8")
    def read():
        stream = io.StringIO(pgn)
        while chess.pgn.read_game(stream) is not None:
            pass
    for _ in range(1 + warm):
        read()
    for _ in range(passes):
        read()
    sys.exit()

def full():
    for job in _jobs((str(path),)):
        _check_job(job, opts)

if part == "fullcold":
    for _ in range(passes):
        full()
    sys.exit()
if part in ("cutcold", "parsecold", "checkcold", "jsoncold"):  # a first pass, up to a stage
    from referee.notation.parser import parse_game_text
    if part == "jsoncold":
        opts = _Options(None, False, "json", "en", True)
    for _ in range(passes):
        for job in _jobs((str(path),)):
            if part == "cutcold":
                continue
            if part == "parsecold":
                parse_game_text(job.text, job.source, job.start)
            elif part == "checkcold":
                check_game(parse_game_text(job.text, job.source, job.start))
            else:  # the game's document as check writes it
                done = _check_job(job, opts)
                try:
                    from referee.reports.json_text import dumps
                except ImportError:  # a tree before it: what check wrote then
                    import json

                    def dumps(data, prefix):
                        text = json.dumps(data, ensure_ascii=False, indent=2)
                        return text.replace("\n", "\n" + prefix)
                if done.data is not None:
                    dumps(done.data, "    ")
    sys.exit()
games = list(iter_games(path))
for _ in range(warm):
    for _ in iter_games(path):
        pass
check_game(games[0])
for _ in range(passes):
    if part == "validate":
        for g in games:
            check_game(g)
    elif part == "parse":
        for _ in iter_games(path):
            pass
    else:
        full()
"""


def corpus(games: int) -> Path:
    """The bench's corpus made for ``games`` games (simulated, seed 1, 2 to 6 players), in a
    temporary file."""
    sys.path.insert(0, str(HERE))
    from bench_check import corpus as make_corpus

    out = Path(tempfile.gettempdir()) / f"alhambra-instructions-{games}.alh"
    out.write_text(make_corpus(games, 1), encoding="utf-8")
    return out


def chess_corpus(moves: int) -> tuple[Path, int] | None:
    """The bench's PGN for about ``moves`` moves (as ``bench_check.py`` makes it beside a
    corpus of that many turns) in a temporary file, and its moves; None without python-chess."""
    sys.path.insert(0, str(HERE))
    from bench_check import chess_pgn

    got = chess_pgn(1, moves)
    if got is None:
        return None
    text, _games, n = got
    out = Path(tempfile.gettempdir()) / f"alhambra-instructions-{moves}.pgn"
    out.write_text(text, encoding="utf-8")
    return out, n


def _compiled_copy(tree: Path, dest: Path) -> str:
    """A writable copy of ``tree`` with the package's bytecode compiled, as an installed package
    has it. A tree unpacked read-only (or fresh) has none, and the counted part would then also
    compile every module it is first to import (seventh step: a module row of the same tree
    counted 160,530 and 171,300 instructions a turn). ``PYTHONPYCACHEPREFIX`` will not do: it
    sets aside the standard library's bytecode too."""
    shutil.copytree(tree, dest, ignore=shutil.ignore_patterns(".git", "__pycache__"))
    for folder, _dirs, files in os.walk(dest):  # a read-only tree's modes came along
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(dest / "referee")],
        capture_output=True,
        check=False,
    )
    return str(dest)


def count(
    tree: Path, part: str, passes: int, warm: int, path: Path, callgrind: str | None = None
) -> int:
    """Instructions (valgrind's "I refs") of one child run; with ``callgrind`` (a path
    prefix) the run is profiled by callgrind instead, into ``{callgrind}-{passes}.out``."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(tree))
    if callgrind is None:
        tool = ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    else:
        out = Path(f"{callgrind}-{passes}.out").resolve()
        tool = ["--tool=callgrind", f"--callgrind-out-file={out}"]
    cmd = [
        "valgrind",
        *tool,
        sys.executable,
        "-c",
        _CHILD,
        part,
        str(passes),
        str(warm),
        str(path),
    ]
    # run elsewhere: ``-c`` puts the working folder first on the path, before PYTHONPATH's tree;
    # an empty folder of its own, not the shared temporary folder, whose listing (read again by
    # every import the counted part makes) changes with whatever else runs on the machine; and
    # without address-space randomisation where ``setarch -R`` is there, so that hashing by
    # address and the collector see the same layout every run (sixth step: the same tree had
    # counted up to +-5 % apart without both)
    if shutil.which("setarch"):
        cmd = ["setarch", platform.machine(), "-R", *cmd]
    with (
        tempfile.TemporaryDirectory(prefix="alhambra-count-") as empty,
        tempfile.TemporaryDirectory(prefix="alhambra-tree-") as copy,
    ):
        if (tree / "referee").is_dir():
            env["PYTHONPATH"] = _compiled_copy(tree, Path(copy) / "tree")
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False, cwd=empty)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        sys.exit(f"valgrind run failed:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def count_startup(tree: Path, path: Path) -> None:
    """Instructions of the whole process ``python -m referee check FILE`` (start-up included)
    and of the bare interpreter, with bytecode written and a warmed cache folder of its own."""
    with tempfile.TemporaryDirectory(prefix="alhambra-startup-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir(mode=0o700)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONHASHSEED="0", PYTHONPATH=str(tree), ALHAMBRA_REFEREE_CACHE=str(cache))
        command = [sys.executable, "-m", "referee", "check", str(path)]
        for _ in range(2):  # bytecode and caches written, as a user's second run finds them
            subprocess.run(command, env=env, cwd=tmp, capture_output=True, check=False)
        totals = []
        grind = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
        if shutil.which("setarch"):  # no address-space randomisation (see count)
            grind = ["setarch", platform.machine(), "-R", *grind]
        grind.append("--cachegrind-out-file=/dev/null")
        for cmd in (command, [sys.executable, "-c", "pass"]):
            run = subprocess.run(
                [*grind, *cmd],
                env=env,
                cwd=tmp,
                capture_output=True,
                text=True,
                check=False,
            )
            found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
            if found is None:
                sys.exit(f"valgrind run failed:\n{run.stderr[-2000:]}")
            totals.append(int(found.group(1).replace(",", "")))
    whole, bare = totals
    print(f"{tree} startup: check {path.name}: {whole:,} instructions (the interpreter alone")
    print(f"  {bare:,}; the referee's part {whole - bare:,})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "part",
        choices=[
            *("validate", "parse", "full", "fullcold", "chess"),
            *("cutcold", "parsecold", "checkcold", "jsoncold", "startup"),
        ],
    )
    ap.add_argument("--tree", default=str(HERE.parent), help="source tree (default: this one)")
    ap.add_argument("--games", type=int, default=40, help="games of the bench corpus (40)")
    ap.add_argument("--warm", type=int, default=0, help="reader passes before (0)")
    ap.add_argument(
        "--callgrind",
        metavar="PREFIX",
        default=None,
        help="profile both runs with callgrind into PREFIX-0.out (without the part) and "
        "PREFIX-1.out (with it); compare them function by function with callgrind_annotate",
    )
    ap.add_argument(
        "--file",
        type=Path,
        default=None,
        help="count over this record file instead (e.g. a corpus of bench_modules.py)",
    )
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    if args.part == "startup":
        tree = Path(args.tree).resolve()
        count_startup(tree, args.file.resolve() if args.file else tree / "examples/game-4p.alh")
        return
    path = args.file.resolve() if args.file else corpus(args.games)
    turns = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line[:1].isdigit())
    tree = Path(args.tree).resolve()
    if args.part == "chess":
        made = chess_corpus(turns)
        if made is None:
            sys.exit("python-chess is not installed")
        pgn, moves = made
        n = count(tree, "chess", 1, args.warm, pgn) - count(tree, "chess", 0, args.warm, pgn)
        print(f"python-chess read_game: {n:,} instructions, {n // max(moves, 1):,} per move")
        return
    without = count(tree, args.part, 0, args.warm, path, args.callgrind)
    with_part = count(tree, args.part, 1, args.warm, path, args.callgrind)
    n = with_part - without
    per_turn = n // max(turns, 1)
    print(f"{tree} {args.part}: {n:,} instructions, {per_turn:,} per turn ({turns} turns)")


if __name__ == "__main__":
    main()
