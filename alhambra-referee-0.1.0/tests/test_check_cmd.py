"""The ``check`` command: exit codes, text/JSON/YAML output, --strict, --lang, folders, and
every ``examples/illegal-*.alh`` record with the violation its header comment names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from referee.cli import cli
from referee.engine import check_game
from referee.notation import parse_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ILLEGAL = sorted(EXAMPLES.glob("illegal-*.alh"))
EXPECT = re.compile(r"^# expect: (?P<code>[A-Z-]+) line (?P<line>\d+)", re.MULTILINE)


def invoke(*args: str):
    runner = CliRunner()
    return runner.invoke(cli, ["check", *args], standalone_mode=False, catch_exceptions=False)


def exit_code(result) -> int:
    return result.return_value if isinstance(result.return_value, int) else result.exit_code


def test_there_is_an_illegal_example_per_rule_family() -> None:
    codes = {EXPECT.search(p.read_text("utf-8")).group("code") for p in ILLEGAL}  # type: ignore[union-attr]
    families = {c.split("-")[0] for c in codes}
    assert {
        "SETUP",
        "TAKE",
        "BUY",
        "TURN",
        "PLACE",
        "REMOVE",
        "REFILL",
        "CARD",
        "SCORING",
        "SCORE",
        "END",
        "GIFT",
        "UNKNOWN",
    } <= families


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_illegal_example(path: Path) -> None:
    text = path.read_text("utf-8")
    m = EXPECT.search(text)
    assert m is not None, "every illegal example names its expected violation"
    rep = check_game(parse_text(text, str(path))[0])
    assert not rep.valid
    first = rep.violations[0]
    assert (first.code, first.line) == (m.group("code"), int(m.group("line")))
    result = invoke("--no-scoring", str(path))
    assert exit_code(result) == 1
    assert f"{path}:{first.line}:{first.column}" in result.output
    assert first.code in result.output


def test_legal_games_exit_0_and_show_scorings() -> None:
    result = invoke(str(EXAMPLES / "game-3p.alh"), "--lang", "en")
    assert exit_code(result) == 0
    assert ": OK" in result.output
    assert "winner" in result.output.lower()


def test_json_document() -> None:
    result = invoke(
        "--format", "json", str(EXAMPLES / "game-4p.alh"), str(EXAMPLES / "illegal-take.alh")
    )
    assert exit_code(result) == 1
    doc = json.loads(result.output)
    good, bad = doc["games"]
    assert doc["valid"] is False
    assert good["valid"] is True and good["violations"] == []
    assert [s["round"] for s in good["scorings"]] == [1, 2, 3]
    assert set(good["result"]) == {"Anna", "Ben", "Cem", "Dana"}
    assert good["winners"]
    v = bad["violations"][0]
    assert {k: v[k] for k in ("code", "line", "turn", "player")} == {
        "code": "TAKE-SUM",
        "line": 14,
        "turn": 1,
        "player": "Cem",
    }
    assert "at most 5" in v["message"] and isinstance(v["column"], int)
    assert bad["unverifiable"]  # the record stops before the game end


def test_yaml_german() -> None:
    result = invoke("--format", "yaml", "--lang", "de", str(EXAMPLES / "illegal-buy.alh"))
    doc = yaml.safe_load(result.output)
    msg = doc["games"][0]["violations"][0]["message"]
    assert msg == "Cem hat Di4 nicht auf der Hand: die Hand ist Gu9 De5 De6"


def test_strict_stops_at_first() -> None:
    path = str(EXAMPLES / "illegal-buy.alh")
    loose = json.loads(invoke("--format", "json", path).output)
    strict = json.loads(invoke("--format", "json", "--strict", path).output)
    assert len(loose["games"][0]["violations"]) == 2
    assert len(strict["games"][0]["violations"]) == 1


def test_folder_recursion_and_syntax_error(tmp_path: Path) -> None:
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (sub / "ok.alh").write_text((EXAMPLES / "game-3p.alh").read_text("utf-8"), "utf-8")
    (tmp_path / "skip.txt").write_text("not a record", "utf-8")
    result = invoke(str(tmp_path))
    assert exit_code(result) == 0 and "1 game(s): 1 valid" in result.output
    (tmp_path / "broken.alh").write_text('[Players "A, B, C"]\n\n1. A: take Gu99 !!\n', "utf-8")
    result = invoke(str(tmp_path))
    assert exit_code(result) == 2
    assert "broken.alh:3:" in result.output


def test_missing_file_is_exit_2_without_traceback() -> None:
    result = invoke("/nonexistent/file.alh")
    assert exit_code(result) == 2
    assert "Traceback" not in result.output


def test_rules_option() -> None:
    path = str(EXAMPLES / "game-3p.alh")
    assert exit_code(invoke("--rules", "queen-2003", path)) == 0


def test_garbage_never_tracebacks(tmp_path: Path) -> None:
    for i, text in enumerate(
        [
            "",
            '[Players "A"]\n\n1. A: take Gu1\n',
            '[Players "A, B, C"]\n\nposition\nend\n1. B: remove @0,0\n',
            '[Players "A, B, C"]\n\n* display W1 W1 W2\nscoring 3\ndistribute Gu:T13 A@9,9\n',
        ]
    ):
        p = tmp_path / f"g{i}.alh"
        p.write_text(text, "utf-8")
        result = invoke("--format", "json", str(p))
        assert exit_code(result) in (0, 1, 2)
        json.loads(result.output)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LINES = (EXAMPLES / "game-4p.alh").read_text("utf-8").splitlines()
_TOKENS = ["?", "Gu1", "T13", "@0,0", "Anna", "W1", "W2", "dirk", "none", "reserve", "Du:?"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["drop", "dup", "swap", "token"]),
            st.integers(0, len(_LINES) - 1),
            st.integers(0, len(_LINES) - 1),
            st.sampled_from(_TOKENS),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_mutated_records_never_crash_the_engine(edits: list[tuple[str, int, int, str]]) -> None:
    lines = list(_LINES)
    for op, i, j, tok in edits:
        i, j = i % len(lines), j % len(lines)
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[j])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split(" ")
            words[j % len(words)] = tok
            lines[i] = " ".join(words)
        if not lines:
            return
    for g in parse_text("\n".join(lines) + "\n", "m.alh"):
        if not g.errors:
            rep = check_game(g)
            assert rep.valid == (not [v for v in rep.violations if v.severity == "error"])
