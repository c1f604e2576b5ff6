"""German throughout under ``--lang de`` for show/explain/legal/render/score/check/simulate/
modules/profiles, and the grammar slips issue 12 names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_hardening_cli import run

EX = Path(__file__).resolve().parents[1] / "examples"

ENGLISH = re.compile(r"\b(the|is|are|not|with|cannot|must|turn|player|violations?)\b")


def _english_lines(text: str) -> list[str]:
    # rule sections, file names and option spellings (``neighbours=may|must``: record syntax)
    # are the same in both languages
    return [
        ln
        for ln in text.splitlines()
        if ENGLISH.search(re.sub(r"\[[^\]]*\]|\S+\.alh\S*|\"[^\"]*\"|\S+=\S+", "", ln))
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(EX), "--max-violations", "0"],
        ["show", str(EX / "game-4p.alh"), "--at", "10", "--color", "never"],
        ["show", str(EX / "two-player-queen-2003.alh"), "--color", "never"],
        ["legal", str(EX / "game-4p.alh"), "--at", "10", "--color", "never"],
        [
            "explain",
            str(EX / "game-4p.alh"),
            "--at",
            "10",
            "buy Gu T10 pay Gu9",
            "--color",
            "never",
        ],
        [
            "explain",
            str(EX / "position-midgame.alh"),
            "take Gu4 Di3",
            "take Du2",
            "--color",
            "never",
        ],
        ["score", str(EX / "final-6p.alh")],
        ["score", str(EX / "final-2p-dirk.alh")],
        ["score", str(EX / "final-counts.alh")],
        ["score", str(EX / "game-3p.alh")],
        ["modules"],
        ["profiles", "show", "bga"],
    ],
    ids=lambda a: "-".join(x for x in a[:2] if "/" not in x) if isinstance(a, list) else str(a),
)
def test_german_output_has_no_english_sentences(argv: list[str]) -> None:
    code, out, err = run(*argv, "--lang", "de")
    assert code in (0, 1), err
    text = out + err
    if argv[0] == "profiles":
        # the parameters' documentation and the profiles' descriptions are data (English
        # YAML/Python of the profiles package); the frame around them is German
        assert "Werte:" in text and "Quelle:" in text and "values:" not in text
        return
    assert _english_lines(text) == []


def test_module_descriptions_in_german() -> None:
    _, out, _ = run("modules", "--lang", "de")
    assert "10 Karten, eine je Plättchen ohne Mauer" in out
    assert "Aktionen:" in out and "actions:" not in out
    assert 'Module werden mit dem Kopf [Modules "Name, Name"] eingeschaltet.' in out
    _, out, _ = run("modules", "--lang", "en")
    assert "10 cards, one per wall-less tile" in out


def test_arcades_take_ihre(tmp_path: Path) -> None:
    # die Arkaden (plural): "ihre W-Seite", never "seine"
    path = tmp_path / "pos.alh"
    path.write_text(
        '[Players "Anna, Ben, Cem"]\n\nposition\n  next Anna\n  player Anna\n  player Ben\n'
        "  player Cem\nend\n",
        encoding="utf-8",
    )
    code, out, _ = run("explain", str(path), "place A6sw@1,0", "--lang", "de", "--color", "never")
    assert code == 1
    assert "Arkaden A6sw auf 1,0: ihre W-Seite (Mauer)" in out
    code, out, _ = run("explain", str(path), "place T10w@1,0", "--lang", "de", "--color", "never")
    assert "seine W-Seite" in out  # der Turm


def test_scoring_missing_names_the_scoring() -> None:
    _, out, _ = run("check", "--no-scoring", str(EX / "illegal-scoring.alh"))
    assert "(write `scoring 1`)" in out and "{number}" not in out
    _, out, _ = run("check", "--no-scoring", "--lang", "de", str(EX / "illegal-scoring.alh"))
    assert "(`scoring 1` schreiben)" in out and "{number}" not in out


def test_an_underpayment_of_one_card_is_grammatical(tmp_path: Path) -> None:
    path = tmp_path / "pos.alh"
    path.write_text(
        '[Players "Anna, Ben, Cem"]\n\nposition\n  next Anna\n  market Gu:T10 Di:G8ne De:A6sw '
        "Du:C9w\n  player Anna\n    hand Du2 Gu9\n  player Ben\n  player Cem\nend\n",
        encoding="utf-8",
    )
    _, out, _ = run("explain", str(path), "buy Du C9w pay Du2", "--color", "never")
    assert "the payment (Du2) comes to only 2" in out and "sum to only" not in out
    _, out, _ = run("explain", str(path), "buy Du C9w pay Du2", "--lang", "de", "--color", "never")
    assert "die Zahlung (Du2) ergibt nur 2" in out and "Du2 ergeben" not in out


def test_click_usage_errors_in_german() -> None:
    code, _out, err = run("check", "--bogus", "--lang", "de")
    assert code == 3
    assert "Aufruf: alhambra-referee check" in err and "Fehler: Keine Option '--bogus'" in err
    code, _out, err = run("show", str(EX / "game-3p.alh"), "--at", "zz", "--lang", "de")
    assert code == 3 and "Ungültiger Wert für --at" in err
    code, _out, err = run("check", "--bogus")
    assert "Usage:" in err and "No such option" in err  # English stays English


def test_simulate_and_profiles_speak_german() -> None:
    code, _out, err = run("simulate", "--modules", "nope", "--lang", "de")
    assert code == 3 and "unbekanntes Modul nope" in err
    code, out, _ = run("profiles", "--lang", "de")
    assert (code == 0 and "(Vorgabe)" not in out) or "queen-2003" in out
    code, _out, err = run("profiles", "show", "nope", "--lang", "de")
    assert code == 3 and "weder ein mitgeliefertes Profil" in err
