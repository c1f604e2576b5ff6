#!/usr/bin/env python
"""Lines of each module file before and after a change: non-blank lines of
``referee/modules/<name>.py``, plus each module's share of what ``referee/modules/base.py`` and
``referee/notation/tokens.py`` gained (spread evenly over the modules moved), and its YAML.

    python bench/module_lines.py [BEFORE_COMMIT] [--markdown]

BEFORE_COMMIT defaults to 58cf371 (before issue 26's module kit); "after" is the work tree.
Every module that existed at BEFORE_COMMIT is on the kit now (the four out-of-turn modules
since the second session of issue 26) and gets its share of the kit's growth; modules written
after it (on the kit from the start) are listed apart, with their lines.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("referee/modules/base.py", "referee/notation/tokens.py")


def non_blank(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def at(commit: str, path: str) -> str:
    done = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else ""


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    before = args[0] if args else "58cf371"
    files = (ROOT / "referee/modules").glob("*.py")
    every = sorted(p.stem for p in files if p.stem not in ("base", "__init__"))
    names = [n for n in every if at(before, f"referee/modules/{n}.py")]
    new = [n for n in every if n not in names]
    moved = names
    grown = sum(
        non_blank((ROOT / p).read_text(encoding="utf-8")) - non_blank(at(before, p)) for p in SHARED
    )
    share = grown / len(moved)
    rows = []
    for n in names:
        path = f"referee/modules/{n}.py"
        b = non_blank(at(before, path))
        a = non_blank((ROOT / path).read_text(encoding="utf-8"))
        with_share = a + (share if n in moved else 0)
        yb = non_blank(at(before, f"referee/modules/{n}.yaml"))
        ya = non_blank((ROOT / f"referee/modules/{n}.yaml").read_text(encoding="utf-8"))
        rows.append((n, b, a, with_share, yb, ya))
    md = "--markdown" in argv
    head = ("module", "before", "after", "after + kit share", "change", "yaml before", "yaml after")
    print("| " + " | ".join(head) + " |" if md else "  ".join(head))
    if md:
        print("|---|" + "---:|" * (len(head) - 1))
    for n, b, a, s, yb, ya in rows:
        cells = (n, str(b), str(a), f"{s:.0f}", f"{(s - b) / b:+.0%}", str(yb), str(ya))
        print("| " + " | ".join(cells) + " |" if md else "  ".join(cells))
    mb = sum(r[1] for r in rows if r[0] in moved)
    ma = sum(r[3] for r in rows if r[0] in moved)
    mean = sum((r[3] - r[1]) / r[1] for r in rows if r[0] in moved) / len(moved)
    print(
        f"\n{len(moved)} modules moved onto the kit: {mb} -> {ma:.0f} non-blank lines "
        f"({(ma - mb) / mb:+.1%} in all, {mean:+.1%} on average per module); the kit "
        f"({', '.join(SHARED)}) grew by {grown} lines, {share:.1f} per module."
    )
    if new:
        sizes = ", ".join(
            f"{n} {non_blank((ROOT / f'referee/modules/{n}.py').read_text(encoding='utf-8'))}"
            for n in new
        )
        print(f"Written on the kit since: {sizes} non-blank lines.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
