"""Helpers for commands that read record files: expanding paths, reading text, error lines."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from referee.record.model import NotationError

EXTENSION = ".alh"


def expand_paths(paths: Iterable[str]) -> list[str]:
    """Files as given; a directory stands for every ``*.alh`` file below it (sorted)."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if p != "-" and path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob(f"*{EXTENSION}")) if f.is_file())
        else:
            out.append(p)
    return out


def read_source(name: str) -> str:
    """The text of a file (or stdin for ``-``), exactly as stored (BOM and CRLF kept).

    Raises ``OSError`` or ``UnicodeDecodeError`` when it cannot be read.
    """
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    return data.decode("utf-8")


def error_line(source: str, err: NotationError, excerpt: bool = True) -> str:
    """``file:line:column: message`` plus the caret excerpt, indented."""
    text = f"{source}:{err.pos.line}:{err.pos.column}: {err.message}"
    if excerpt and err.excerpt:
        text += "\n" + "\n".join("    " + ln for ln in err.excerpt.split("\n"))
    return text


def error_dict(err: NotationError) -> dict[str, object]:
    return {
        "line": err.pos.line,
        "column": err.pos.column,
        "code": err.code,
        "message": err.message,
    }
