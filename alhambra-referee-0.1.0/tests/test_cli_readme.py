"""Every ``alhambra-referee ...`` command in README.md and docs/*.md runs as printed.

Commands are taken from fenced code blocks (``$ alhambra-referee ...`` followed by the output it
prints, or a bare ``alhambra-referee ...`` line) and from inline code. A shown output is
compared with what the command prints: exactly, or, where the README shortens it with ``...``
lines, line by line in order. Commands with placeholders (``FILE``, ``NAME``, ``game.alh``: a
file that is not in the repository) are templates, not examples, and are skipped.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_hardening_cli import run

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROG = "alhambra-referee"


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    command: str
    output: tuple[str, ...] | None  # None: no output shown


def _examples(path: Path) -> list[Example]:
    text = path.read_text("utf-8")
    lines = text.splitlines()
    found: list[Example] = []
    in_block = False
    i = 0
    name = str(path.relative_to(ROOT))
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = not in_block
            i += 1
            continue
        if in_block and line.startswith(f"$ {PROG} "):
            out: list[str] = []
            j = i + 1
            while j < len(lines) and not lines[j].startswith(("```", "$ ")):
                out.append(lines[j])
                j += 1
            found.append(Example(name, i + 1, line[2:], tuple(out)))
            i = j
            continue
        if in_block:
            m = re.search(rf"(?:^|&& ){PROG} .*", line)
            if m:
                found.append(Example(name, i + 1, m.group(0).removeprefix("&& "), None))
        else:
            for m in re.finditer(rf"`({PROG} [^`]+)`", line):
                found.append(Example(name, i + 1, m.group(1), None))
        i += 1
    return found


def _runnable(command: str) -> list[str] | None:
    """The arguments, or None for a template (placeholders, files not in the repository)."""
    words = shlex.split(command, comments=True)[1:]
    if not words or any(w.isupper() and len(w) > 1 for w in words):
        return None
    if "|" in words:
        return None  # a pipeline: its parts are run by the stdin tests of each command
    outputs = {words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-o", "--output")}
    for w in words:
        looks_like_file = w.endswith((".alh", ".yaml", ".svg", ".txt")) or w.endswith("/")
        if looks_like_file and w not in outputs and not (ROOT / w).exists():
            return None
    if len(words) == 1 and words[0] in ("check", "fmt", "parse", "score", "show"):
        return None  # the bare command name in prose
    if words[0] == "serve":
        return None  # a server runs until stopped: tests/test_serve_api.py starts it
    return words


EXAMPLES = [e for doc in DOCS for e in _examples(doc)]
RUNNABLE = [e for e in EXAMPLES if _runnable(e.command) is not None]


def test_the_readme_shows_commands() -> None:
    readme = [e for e in RUNNABLE if e.doc == "README.md"]
    assert len(readme) >= 6
    assert sum(1 for e in readme if e.output) >= 3


@pytest.mark.parametrize("example", RUNNABLE, ids=lambda e: f"{e.doc}:{e.line}")
def test_every_documented_command_runs_as_printed(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = _runnable(example.command)
    assert words is not None
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    written: dict[str, Path] = {}
    for k, w in enumerate(words[:-1]):
        if w in ("-o", "--output"):
            written[words[k + 1]] = tmp_path / Path(words[k + 1]).name
            words[k + 1] = str(written[words[k + 1]])
    code, out, err = run(*words)
    assert "Traceback" not in out + err and "internal error" not in (out + err).lower()
    # 0 valid/legal, 1 the violation or illegal move the example is about; never 2 or 3
    assert code in (0, 1), (example, code, out, err)
    for shown, path in written.items():
        assert path.is_file()
        if (ROOT / shown).is_file():  # a committed picture is what the command draws
            assert path.read_text("utf-8") == (ROOT / shown).read_text("utf-8"), shown
    for shown, path in written.items():
        out = out.replace(str(path), shown)
    if example.output is not None:
        expected = [ln.rstrip() for ln in example.output]
        while expected and not expected[-1]:
            expected.pop()
        actual = [ln.rstrip() for ln in out.splitlines()]
        if any(ln.strip() == "..." for ln in expected):
            rest = iter(actual)
            for want in expected:
                if want.strip() == "...":
                    continue
                assert any(_same(got, want) for got in rest), (example.doc, example.line, want)
        else:
            assert actual == expected, (example.doc, example.line)


def _same(got: str, want: str) -> bool:
    """A shown line; one that ends in ``...`` stands for every line that starts the same way."""
    if want.endswith("...") and want.strip() != "...":
        return got.startswith(want[:-3].rstrip())
    return got == want
