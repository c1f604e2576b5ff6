"""Every rendered message stays the same: a snapshot of every finding's text in both languages.

The snapshot renders every violation and unverifiable point (code, reason-free line/column,
turn, player, severity, rule name and message, in English and German) of every example, every
``tests/golden`` record, and of simulated games with random line edits (lines deleted,
doubled, swapped, numbers changed, currencies and players exchanged), plus the texts of every
building problem and of ``score``'s position problems. It was written before the messages moved
into the catalogue (:mod:`referee.messages`) and is compared after: the rendered text must not
change. ``python tests/test_messages_snapshot.py --write`` rewrites the stored snapshot (only
after a deliberate change of a text, listed in the commit).
"""

from __future__ import annotations

import gzip
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STORED = ROOT / "tests" / "golden" / "messages" / "snapshot.txt.gz"
#: games simulated for the full comparison (``--full``); the test runs the quick share
FULL = (120, 80)
QUICK = (20, 10)


def _records() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "examples").glob("*.alh")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "tests" / "golden").rglob("*.alh")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8-sig")


_CUR = ("Gu", "Di", "De", "Du")


def _mutate(rng: random.Random, text: str) -> str:
    """One to three edits that keep most lines readable, so the engine sees them."""
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("*")]
    for _ in range(rng.randrange(1, 4)):
        if not body:
            break
        i = rng.choice(body)
        op = rng.randrange(6)
        if op == 0:
            lines[i] = ""
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rng.choice(body)
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines[i] = re.sub(
                r"\d+",
                lambda m: str(max(0, int(m.group()) + rng.choice((-1, 1, 2)))),
                lines[i],
                count=rng.randrange(1, 3),
            )
        elif op == 4:
            a, b = rng.sample(_CUR, 2)
            lines[i] = lines[i].replace(a, b, 1)
        else:
            lines[i] = re.sub(
                r"@-?\d+,-?\d+", f"@{rng.randrange(-3, 4)},{rng.randrange(-3, 4)}", lines[i]
            )
    return "\n".join(lines)


def _simulated(simulated: int, module_games: int) -> Iterator[tuple[str, str]]:
    from referee.profiles import load_profile
    from referee.simulate import simulate_text

    profiles = ["queen-2003", "bga", "piatnik-hu", "queen-bigbox-2019"]
    for i in range(simulated):
        players = 2 + i % 5
        profile = load_profile(profiles[i % 4])
        text = simulate_text(players, 1000 + i, profile)
        yield f"sim-{i}", _mutate(random.Random(i), text)
    combos = [
        ["bonuskarten"],
        ["plaetze"],
        ["wechselstuben"],
        ["wesir"],
        ["bonuskarten", "plaetze", "wechselstuben", "wesir"],
    ]
    for i in range(module_games):
        mods = combos[i % len(combos)]
        text = simulate_text(3 + i % 4, 2000 + i, None, None, mods)
        yield f"mod-{i}", _mutate(random.Random(5000 + i), text) if i % 4 else text


def _game_lines(name: str, text: str) -> Iterator[str]:
    from referee.engine import check_game
    from referee.notation import parse_text

    for g, game in enumerate(parse_text(text, source=name)):
        try:
            report = check_game(game)
        except Exception as exc:
            yield f"{name}#{g} CRASH {type(exc).__name__}"
            continue
        for v in report.violations:
            d_en, d_de = v.to_dict("en"), v.to_dict("de")
            yield (
                f"{name}#{g} V {v.code} {v.line}:{v.column} t={v.turn} p={v.player} "
                f"{v.severity} [{d_en['name']}|{d_de['name']}|{d_en['section']}]"
            )
            yield f"  en: {v.message('en')}"
            yield f"  de: {v.message('de')}"
        for u in report.unverifiable:
            yield f"{name}#{g} U {u.line}:{u.column} t={u.turn} p={u.player}"
            yield f"  en: {u.message('en')}"
            yield f"  de: {u.message('de')}"


def _score_lines(name: str, text: str) -> Iterator[str]:
    from referee.notation import parse_text
    from referee.scoring.position import find_position, score_position

    for g, game in enumerate(parse_text(text, source=name)):
        if find_position(game) is None:
            continue
        try:
            score = score_position(game)
        except Exception as exc:
            yield f"{name}#{g} SCORE CRASH {type(exc).__name__}"
            continue
        for p in score.problems:
            yield f"{name}#{g} S {p.code} {p.pos} {p.player} [{p.rule_text}]"
            yield f"  en: {p.message('en')}"
            yield f"  de: {p.message('de')}"


def _geometry_lines() -> Iterator[str]:
    from referee.catalogue.components import Side
    from referee.geometry.rules import PROBLEM_SECTION, BuildingProblem
    from referee.record.model import Coord

    for code in sorted(PROBLEM_SECTION):
        for prob in (
            BuildingProblem(code),
            BuildingProblem(code, (Coord(1, 0), Coord(0, -2))),
            BuildingProblem(code, (Coord(1, 0),), ((Coord(1, 0), Side.N),)),
        ):
            yield f"G {code} {prob.section}"
            yield f"  en: {prob.text('en')}"
            yield f"  de: {prob.text('de')}"


def snapshot(counts: tuple[int, int] = QUICK) -> list[str]:
    out: list[str] = []
    for name, text in [*_records(), *_simulated(*counts)]:
        out.extend(_game_lines(name, text))
        out.extend(_score_lines(name, text))
    out.extend(_geometry_lines())
    return out


def test_rendered_messages_unchanged() -> None:
    # a fixed hash seed: some records of the simulator spell wall sets in set order
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [sys.executable, __file__], env=env, capture_output=True, text=True, check=True
    )
    stored = gzip.decompress(STORED.read_bytes()).decode("utf-8").split("\n")
    now = run.stdout.rstrip("\n").split("\n")
    assert len(now) == len(stored)
    diff = [(a, b) for a, b in zip(stored, now, strict=True) if a != b]
    assert diff == []


if __name__ == "__main__":
    lines = snapshot(FULL if "--full" in sys.argv else QUICK)
    if "--write" in sys.argv:
        STORED.parent.mkdir(parents=True, exist_ok=True)
        # write with PYTHONHASHSEED=0 (see the test)
        STORED.write_bytes(gzip.compress("\n".join(lines).encode("utf-8"), mtime=0))
    else:
        sys.stdout.write("\n".join(lines) + "\n")
