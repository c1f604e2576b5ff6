"""Record text made safe for where it goes, and names read as the record means them (issue 32,
"Names and text"): one escaping layer (``referee.safe_text``) for the terminal, SVG/XML, HTML
and CSV; JSON and YAML escape by themselves; suspicious player names are reported; a player
named Dirk is not the neutral Dirk; module names and options; a line of prose."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from referee import safe_text
from referee.engine import check_game
from referee.notation import format_games, parse_text

ROOT = Path(__file__).resolve().parents[1]
GAME3 = ROOT / "examples" / "game-3p.alh"
TWO = ROOT / "examples" / "two-player-queen-2003.alh"
MEDINA = ROOT / "examples" / "module-medina.alh"

OSC_TITLE = "\x1b]0;owned\x07"
OSC_LINK = "\x1b]8;;http://evil.example\x07click\x1b]8;;\x07"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def _renamed(tmp_path: Path, name: str, event: str = "club night") -> Path:
    """game-3p.alh with Anna renamed (quoted everywhere) and another Event."""
    text = GAME3.read_text("utf-8")
    text = re.sub(r"\bAnna\b", lambda m: '"' + name.replace('"', '\\"') + '"', text)
    text = text.replace(f'[Players ""{name}", Ben, Cem"]', '[Players "' + name + ', Ben, Cem"]')
    text = re.sub(r"\[Result [^\n]*\]\n", "", text)
    text = re.sub(r"\[Youngest [^\n]*\]\n", "", text)
    text = re.sub(r'\[Event "[^"]*"\]', lambda m: f'[Event "{event}"]', text)
    path = tmp_path / "g.alh"
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- the layer


def test_terminal_shows_every_control_and_invisible_character() -> None:
    assert safe_text.terminal(OSC_TITLE) == "\\x1b]0;owned\\x07"
    assert safe_text.terminal("a\u202eb\u200bc\x85d\ne") == "a\\u202eb\\u200bc\\x85d\ne"
    assert safe_text.line("a\nb\rc") == "a\\x0ab\\x0dc"
    assert safe_text.terminal("Anna Öz → 3") == "Anna Öz → 3"
    assert safe_text.terminal("a\u00adb\u180ec") == "a\\xadb\\u180ec"  # soft hyphen, MVS


def test_the_terminal_stream_keeps_only_the_tools_own_colours() -> None:
    own = "\x1b[38;5;33mP\x1b[0m \x1b[1;38;5;208m*\x1b[0m"
    assert safe_text.terminal_output(own) == own
    assert safe_text.terminal_output("\x1b[8mhidden\x1b[2J") == "\\x1b[8mhidden\\x1b[2J"
    assert safe_text.terminal_output("\r\x1b[K") == "\\x0d\\x1b[K"  # stdout: no erase-line
    assert safe_text.terminal_output("\r\x1b[Kx", progress=True) == "\r\x1b[Kx"
    sink = io.StringIO()
    stream = safe_text.TerminalStream(sink)
    stream.write(OSC_LINK)
    assert "\x1b" not in sink.getvalue() and "http://evil.example" in sink.getvalue()
    with pytest.raises(AttributeError):
        stream.buffer  # noqa: B018  (no byte path around the filter)


def test_the_command_line_guards_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee import cli

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", Tty())
    with pytest.raises(SystemExit):
        cli.main(["modules", "--help"])
    before = cli._guard_terminals()
    try:
        sys.stdout.write(OSC_TITLE)
    finally:
        sys.stdout, sys.stderr = before  # type: ignore[assignment]
    assert "\x1b" not in out.getvalue() and "\\x1b]0;owned\\x07" in out.getvalue()


def test_xml_keeps_a_document_well_formed_whatever_the_text() -> None:
    text = "A\x01<b>&\"'\ufffe\x85"
    doc = f"<svg><text a={safe_text.xml_attr(text)}>{safe_text.xml(text)}</text></svg>"
    node = ET.fromstring(doc).find("text")
    assert node is not None and node.text == "A\\x01<b>&\"'\\ufffe\\x85"


@pytest.mark.parametrize("cell", ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\t=x", "＝1"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(cell: str) -> None:
    assert safe_text.csv_cell(cell) == "'" + cell
    assert safe_text.csv_cell("Anna 12") == "Anna 12"


# ---------------------------------------------------------------------------- commands


def test_check_text_shows_record_escapes_never_sends_them(tmp_path: Path) -> None:
    path = _renamed(tmp_path, f"Ann{OSC_TITLE}a", event=OSC_LINK.replace('"', ""))
    done = _cli("check", "--no-scoring", str(path))
    assert done.returncode == 0, done.stdout
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "Ann\\x1b]0;owned\\x07a" in done.stdout
    heads = _cli("headers", str(path))
    assert "\x1b" not in heads.stdout and "\\x1b]8;;http://evil.example" in heads.stdout


def test_headers_csv_neutralises_formulas(tmp_path: Path) -> None:
    path = tmp_path / "f.alh"
    path.write_text(
        '[Event "=HYPERLINK(\\"http://x\\")"]\n[Site "+1"]\n[Players "@A, -B, Cem"]\n\n',
        encoding="utf-8",
    )
    done = _cli("headers", "--format", "csv", str(path))
    row = done.stdout.splitlines()[1]
    assert '"\'=HYPERLINK(""http://x"")"' in row and ",'+1," in row
    assert '"\'@A, -B, Cem"' in row


def test_svg_and_html_stay_valid_with_a_control_character_in_a_name(tmp_path: Path) -> None:
    path = _renamed(tmp_path, "An\x01<na>&")
    svg = tmp_path / "g.svg"
    assert _cli("render", str(path), "-o", str(svg)).returncode == 0
    ET.parse(svg)  # well-formed XML
    assert "An\\x01&lt;na&gt;&amp;" in svg.read_text("utf-8")
    page = tmp_path / "g.html"
    assert _cli("render", "--html", str(path), "-o", str(page)).returncode == 0
    html = page.read_text("utf-8")
    assert "\x01" not in html and "An\\x01&lt;na&gt;&amp;" in html


def test_json_and_yaml_escape_control_characters_themselves(tmp_path: Path) -> None:
    path = _renamed(tmp_path, f"Ann{OSC_TITLE}a")
    out = _cli("check", "--format", "json", str(path)).stdout
    assert "\x1b" not in out and json.loads(out)["games"][0]["players"][0] == f"Ann{OSC_TITLE}a"
    out = _cli("check", "--format", "yaml", str(path)).stdout
    assert "\x1b" not in out and yaml.safe_load(out)["games"][0]["players"][0].startswith("Ann")


@pytest.mark.parametrize(
    ("name", "reason", "en", "de"),
    [
        ("An\x01na", "control", "a control character", "ein Steuerzeichen"),
        ("An\u200bna", "invisible", "an invisible character", "ein unsichtbares Zeichen"),
        ("Rene\u0301", "unnormalised", "not in Unicode normal form NFC", "Normalform NFC"),
    ],
)
def test_suspicious_player_names_are_reported(
    tmp_path: Path, name: str, reason: str, en: str, de: str
) -> None:
    path = _renamed(tmp_path, name)
    done = json.loads(_cli("check", "--format", "json", str(path)).stdout)["games"][0]
    (warning,) = [v for v in done["violations"] if v["code"] == "PLAYER-NAME"]
    assert (
        warning["reason"] == reason
        and warning["severity"] == "warning"
        and en in warning["message"]
    )
    assert done["valid"]  # reported, the game is still checked
    german = json.loads(_cli("check", "--lang", "de", "--format", "json", str(path)).stdout)
    assert any(de in v["message"] for v in german["games"][0]["violations"])
    assert safe_text.name_problems("Anna") == []


def test_a_player_really_named_dirk_is_not_the_neutral_dirk() -> None:
    # as a club would write it: the name as it is, quoted only where the keyword cannot stand
    # (a leftover tile's receiver); the claims and the gifts keep their spelling
    text = TWO.read_text("utf-8").replace("Ben", "Dirk").replace(" Dirk@", ' "Dirk"@')
    game = parse_text(text, "dirk.alh")[0]
    assert game.players == ("Anna", "Dirk") and not game.errors
    report = check_game(game)
    assert [v.code for v in report.violations if v.severity == "error"] == []  # no SCORE-CLAIM
    assert report.result == {"Anna": 112, "Dirk": 121}
    again = format_games([game])
    assert 'scoring 1: Anna +12 =12, "Dirk" +7 =7, dirk +14' in again
    assert format_games(parse_text(again, "dirk.alh")) == again  # a fmt fixed point
    # the neutral Dirk written with the player's spelling is the player: a gift is refused
    gift = text.replace("give C5 dirk", "give C5 Dirk")
    codes = [v.code for v in check_game(parse_text(gift, "g.alh")[0]).violations]
    assert "GIFT-NOT-ALLOWED" in codes


def _medina(tmp_path: Path, header: str) -> list[str]:
    text = MEDINA.read_text("utf-8").replace('[Modules "medina"]', f'[Modules "{header}"]')
    path = tmp_path / "m.alh"
    path.write_text(text, encoding="utf-8")
    return _cli("check", "--no-scoring", str(path)).stdout.splitlines()


def test_a_misspelt_module_is_unknown_with_the_closest_name(tmp_path: Path) -> None:
    out = _medina(tmp_path, "medina, wesri")
    assert any("MODULE-UNKNOWN" in x for x in out)
    assert any("names 'wesri', which is no module (did you mean wesir?)" in x for x in out)
    assert not any("wesri (unknown module)" in x for x in out)


@pytest.mark.parametrize(
    "header", ["medina floor=zero, medina floor=none", "medina floor=zero floor=none"]
)
def test_contradictory_module_options_are_an_error(tmp_path: Path, header: str) -> None:
    out = _medina(tmp_path, header)
    assert out[0].endswith("1 violation")
    assert "sets floor for the module medina twice, differently (floor=zero, floor=none)" in out[2]


def test_a_line_of_prose_is_a_syntax_error(tmp_path: Path) -> None:
    text = GAME3.read_text("utf-8").replace(
        "1. Cem: take Di6\n", "1. Cem: take Di6\nThen Anna thought for a long time\n", 1
    )
    (game,) = parse_text(text, "p.alh")
    assert [e.code for e in game.errors] == ["SYNTAX"]
    assert "a line of prose" in game.errors[0].message
    short = GAME3.read_text("utf-8").replace("1. Cem: take Di6\n", "1. Cem: fly Gu3\n", 1)
    assert not parse_text(short, "p.alh")[0].errors  # a turn of an unknown verb: UNKNOWN-VERB
