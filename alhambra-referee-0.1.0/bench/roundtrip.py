#!/usr/bin/env python
"""Positions round-trip over the module examples (issue 32): each moment (turns at 1, 1/3, 1/2,
2/3 and the last, scorings 1 and 2, the end) written as a ``position`` block and read back; the
two states are compared by their position text, the modules' views, the players' scores and
hands, market, display and whether the game is over. History a position does not state (cards
already played or used, earlier attacks, the vizier's uses) is left out of the comparison, as in
tests/test_position_modules.py.

    python bench/roundtrip.py            # every module example
    python bench/roundtrip.py module-plaetze.alh
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

from referee.engine.walk import At, NotReached, state_at
from referee.notation import parse_text
from referee.simulate.roundtrip import read_back, snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> int:
    names = sys.argv[1:] or [p.name for p in sorted(EXAMPLES.glob("module-*.alh"))]
    stats: Counter[str] = Counter()
    where: dict[str, list[str]] = defaultdict(list)
    for name in names:
        game = parse_text((EXAMPLES / name).read_text("utf-8"))[0]
        last, _ = state_at(game, At("end"))
        n = last.turn_no
        moments = [At("turn", k) for k in (1, n // 3, n // 2, (2 * n) // 3, n - 1)]
        moments += [At("scoring", 1), At("scoring", 2), At("end")]
        for at in moments:
            try:
                state, state2, _, again, errors = read_back(game, at)
            except NotReached:  # a game that ended before scoring 2
                continue
            if again.errors:
                stats["syntax error"] += 1
                where[name].append(f"{at.kind} {at.n}: {again.errors[0].message[:120]}")
                continue
            a, b = snapshot(state), snapshot(state2)
            if a != b:
                stats["differs"] += 1
                lost = [x for x in a if x not in b][:2]
                where[name].append(f"{at.kind} {at.n}: {' | '.join(lost)[:200]}")
            elif errors:
                stats["findings"] += 1
                where[name].append(f"{at.kind} {at.n}: {errors[0].code}")
            else:
                stats["same"] += 1
    total = sum(stats.values())
    print(f"moments {total}: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    for name, lines in sorted(where.items()):
        print(f"{name}: {len(lines)}")
        for line in lines[:2]:
            print(f"    {line}")
    return 0 if stats["same"] == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
