#!/usr/bin/env python
"""Differential check for speed work: the ``check`` path's complete output, to compare trees.

Every speed change of issue 13 was held to this: the output of ``check``'s per-game path
(text report in English and German, JSON) over a fixed corpus must stay byte for byte the same.

    python bench/same_output.py OUT.txt                 # dump this tree's output
    PYTHONPATH=<other tree> python bench/same_output.py BEFORE.txt
    cmp BEFORE.txt OUT.txt

The corpus is made once into ``--corpus`` (default ``~/.cache/alhambra-referee/same-output``)
and reused, so two trees read the same files: 200 simulated base games (2 to 6 players, the
bench's corpus), three simulated games of every registered module alone and a dozen mixes of
four modules, 600 mutated records (deleted, duplicated, swapped and edited lines, so that
violations of every kind are reported), and a copy of ``examples/`` checked under every bundled
profile. It takes one to three minutes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]


def build_corpus(d: Path) -> None:
    """The fixed corpus files in ``d`` (made once; existing files are kept)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_check

    from referee.engine.extensions import MODULES, load_bundled_modules
    from referee.simulate import simulate_many
    from referee.simulate.fuzz import mutate_record

    d.mkdir(parents=True, exist_ok=True)
    load_bundled_modules()
    base = d / "corpus-base.alh"
    if not base.exists():
        base.write_text(bench_check.corpus(200, 1), encoding="utf-8")
    mods = d / "corpus-modules.alh"
    if not mods.exists():
        texts: list[str] = []
        names = sorted(MODULES)
        for i, name in enumerate(names):
            texts.extend(simulate_many(2 + i % 5, 100 + i, 3, modules=(name,)))
        rng = random.Random(5)
        for k in range(12):
            pick = tuple(sorted(rng.sample(names, 4)))
            try:
                texts.extend(simulate_many(3 + k % 4, 500 + k, 2, modules=pick))
            except Exception as exc:  # a mix the simulator cannot play: skipped, said
                print(f"mix {pick} skipped: {exc}", file=sys.stderr)
        mods.write_text("\n".join(texts), encoding="utf-8")
    mutated = d / "corpus-mutated.alh"
    if not mutated.exists():
        rng = random.Random(7)

        def games(path: Path) -> list[str]:
            parts = path.read_text(encoding="utf-8").split("\n[Event ")[:60]
            return [p if p.startswith("[Event ") else "[Event " + p for p in parts]

        plain, with_modules = games(base), games(mods)
        out = [
            mutate_record(rng, rng.choice(plain if i % 2 else with_modules), edits=1 + i % 4)
            for i in range(600)
        ]
        mutated.write_text("\n\n".join(t.rstrip("\n") for t in out) + "\n", encoding="utf-8")
    examples = d / "examples"
    if not examples.exists():
        shutil.copytree(ROOT / "examples", examples)


def dump(path: Path, fh: TextIO, profiles: tuple[str | None, ...] = (None,)) -> None:
    """The check path's output for every game of ``path``, per profile, format and language."""
    from referee.commands.check import _check_job, _jobs, _Options
    from referee.profiles.loader import load_profile

    for name in profiles:
        prof = load_profile(name) if name else None
        for fmt, lang in (("text", "en"), ("text", "de"), ("json", "en")):
            opts = _Options(prof, False, fmt, lang, True)
            for job in _jobs((str(path),)):
                done = _check_job(job, opts)
                fh.write(f"=== {path.name} {name} {fmt} {lang} {job.start}\n")
                if fmt == "text":
                    fh.write((done.text or "") + "\n")
                else:
                    data = json.dumps(done.data, sort_keys=True, default=str, ensure_ascii=False)
                    fh.write(data + "\n")
                fh.write(f"valid={done.valid} codes={done.codes}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("out", type=Path, help="where the output goes")
    ap.add_argument(
        "--corpus",
        type=Path,
        default=Path.home() / ".cache" / "alhambra-referee" / "same-output",
        help="folder of the fixed corpus (made on first use)",
    )
    args = ap.parse_args()
    from referee.profiles.loader import list_profiles

    build_corpus(args.corpus)
    with args.out.open("w", encoding="utf-8") as fh:
        for name in ("corpus-base.alh", "corpus-modules.alh", "corpus-mutated.alh"):
            dump(args.corpus / name, fh)
        for p in sorted((args.corpus / "examples").glob("*.alh")):
            dump(p, fh, profiles=(None, *list_profiles()))


if __name__ == "__main__":
    main()
