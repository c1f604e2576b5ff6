"""``alhambra-referee headers``: every game's header tags, without reading the moves.

Golden outputs of the three formats are in ``tests/golden/headers/`` (``UPDATE_GOLDEN=1``
rewrites them). The rows must be what the full reader gives (``iter_games``: the headers of
every game, in order), whatever the input: examples, simulated batches, standard input.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from test_hardening_cli import run

from referee.notation import iter_games
from referee.simulate import simulate_text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden" / "headers"
FILES = ["examples/game-4p.alh", "examples/final-6p.alh", "examples/module-wesir.alh"]


@pytest.fixture(autouse=True)
def _in_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # file names in the output are relative: examples/...


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        ([], "three.txt"),
        (["--lang", "de"], "three-de.txt"),
        (["--format", "csv"], "three.csv"),
        (["--format", "json"], "three.json"),
        (["--columns", "Result,event"], "columns.txt"),
    ],
)
def test_golden(args: list[str], golden: str) -> None:
    code, out, err = run("headers", *args, *FILES)
    assert code == 0 and err == ""
    check_golden(golden, out)


def _full_reader(path: Path, name: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for g in iter_games(path, source=name):
        if not g.headers and not g.body and not g.errors:
            continue
        out.append(
            {
                "file": name,
                "line": g.headers[0].pos.line if g.headers else None,
                "headers": [{"name": h.name, "value": h.value} for h in g.headers],
            }
        )
    return out


def test_json_is_what_the_full_reader_reads(tmp_path: Path) -> None:
    batch = tmp_path / "batch.alh"
    text = "\n\n".join(simulate_text(n, 70 + n) for n in (2, 3, 4, 5, 6))
    batch.write_text("# a club's evening\n\n" + text, encoding="utf-8")
    paths = [batch, *sorted((ROOT / "examples").glob("*.alh"))]
    code, out, err = run("headers", "--format", "json", *map(str, paths))
    assert code == 0 and err == ""
    data = json.loads(out)
    want = [g for p in paths for g in _full_reader(p, str(p))]
    assert data == {"games": want, "ok": True}
    assert len([g for g in want if g["file"] == str(batch)]) == 5


def test_csv_rows_and_columns(tmp_path: Path) -> None:
    code, out, _ = run("headers", "--format", "csv", "--columns", "Players,Rules", "examples/")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["file", "line", "Players", "Rules"]
    by_file = {r[0]: r for r in rows[1:]}
    assert by_file["examples/game-4p.alh"][2:] == ["Anna, Ben, Cem, Dana", "queen-2003"]
    games = sum(len(_full_reader(p, str(p))) for p in (ROOT / "examples").glob("*.alh"))
    assert len(rows) == 1 + games


def test_standard_input_and_a_folder() -> None:
    text = "\n\n".join(simulate_text(2, 80 + i) for i in range(3))
    code, out, err = run("headers", "--columns", "Event", "-", stdin=text)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["file", "line", "Event"] and len(lines) == 4
    assert all(ln.startswith("<stdin>") for ln in lines[1:])


def test_problems_go_to_standard_error_and_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.alh"
    empty.write_text("# nothing here\n\n", encoding="utf-8")
    bad = tmp_path / "bad.alh"
    bad.write_bytes(b'[Event "a"]\n\n1. A: take Gu3\n\n[Event "b"]\n\n1. A: take Gu\xff3\n')
    code, out, err = run("headers", "--format", "csv", str(empty), str(bad), "no-such.alh")
    assert code == 2
    assert out.splitlines()[1:] == [f"{bad},1,a"]  # the game before the bad byte is listed
    assert err.splitlines() == [
        f"{empty}: no games found",
        f"{bad}:7:14: cannot read: not UTF-8 text: byte 0xFF at line 7, column 14 "
        "(byte offset 55) cannot be read: save the file as UTF-8",
        "no-such.alh: cannot read: No such file or directory",
    ]
    code, out, err = run("headers", "--format", "json", "--lang", "de", str(empty))
    assert code == 2 and json.loads(out) == {"games": [], "ok": False}
    assert err == f"{empty}: keine Partien gefunden\n"


def test_long_values_are_cut_in_the_table_only(tmp_path: Path) -> None:
    path = tmp_path / "long.alh"
    long = "a very long event name " * 4
    path.write_text(f'[Event "{long}"]\n\n1. A: take Gu3\n', encoding="utf-8")
    _, out, _ = run("headers", str(path))
    cell = out.splitlines()[1].split("  ")[-1]
    assert cell.endswith("…") and len(cell) == 40 and long.startswith(cell[:-1])
    _, out, _ = run("headers", "--format", "csv", str(path))
    assert long in out


def test_help_names_the_formats() -> None:
    code, out, _ = run("headers", "--help")
    assert code == 0
    assert "--format [text|csv|json]" in out and "--columns" in out and "without reading" in out
