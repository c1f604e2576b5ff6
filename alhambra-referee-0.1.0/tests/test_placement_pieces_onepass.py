"""A module's piece placed in one pass (issue 34, fourteenth step): ``placement.place_plain``
places a bought piece the record names by its token (``placement._place_piece``) when the
pipeline (``placement.place``) would report nothing: the piece among the turn's bought pieces,
lying as the token states, the Alhambra known, no module refining ``place.problems``, the base
building rules finding nothing. The reports, module views and states, hands, Alhambras,
reserves and discard pile are the same as with the pipeline (the path switched off), on the
examples and simulated games of the modules whose pieces are placed (medinas, magic buildings,
plots, bathhouses, bazaars, wells), alone and together,
with lines left out and tokens changed (other walls stated, another piece named); the path is
really taken and declines what the pipeline reports."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.actions import placement as _placement
from tests.purchase_onepass_support import (
    ROOT,
    SKIP_COMPILED,
    chosen,
    first22_game,
    outcomes,
    simulated_variants,
    variants,
)

pytestmark = SKIP_COMPILED

PIECES = {  # module -> the kind of its pieces placed
    "medina": "md",
    "magisch": "mg",
    "bauland": "bl",
    "badehaeuser": "bh",
    "bazare": "bz",
    "wunschbrunnen": "ww",
}

# The copies each test checks, by their index in its list of texts: the others ran no line of
# ``referee`` (with the path and without it) that these do not (coverage, one context a text,
# on main at c7568e1: bench/README.md, issue 34, seventeenth step, one-pass tests).
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = {
    "badehaeuser": (23,),
    "bauland": (0,),
    "bazare": (85,),
    "magisch": (
        0,
        8,
        9,
        11,
        12,
        15,
        22,
        27,
        28,
        30,
        34,
        36,
        38,
        40,
        43,
        44,
        46,
        54,
        62,
        75,
        83,
        86,
    ),
    "medina": (37,),
    "wunschbrunnen": (22,),
    "first 22": (0, 1, 2, 3, 4, 6, 8, 9, 11, 12, 13),
    "beside": (16, 24, 27, 47, 76, 94, 103, 122, 158),
}


def _compare(texts: list[str], monkeypatch: pytest.MonkeyPatch, scratch: bool = True) -> list[bool]:
    """Check ``texts`` with the one-pass placement of pieces and without it; assert the same
    outcomes (``scratch``: the modules' states too, for modules whose state has a ``repr``
    of its values); whether each call placed its piece."""
    taken: list[bool] = []
    real = _placement._place_piece

    def counted(*args: Any) -> bool:
        done = real(*args)
        taken.append(done)
        return done

    monkeypatch.setattr(_placement, "_place_piece", counted)
    one_pass = outcomes(texts, scratch)
    monkeypatch.setattr(_placement, "_place_piece", lambda *args: False)
    assert outcomes(texts, scratch) == one_pass
    monkeypatch.undo()
    return taken


def _walls_changed(text: str, kind: str) -> list[str]:
    """Copies of ``text`` with the walls stated on some placed pieces' tokens changed."""
    out = []
    lines = text.splitlines()
    placing = [i for i, line in enumerate(lines) if f"place {kind}:" in line]
    for n, i in enumerate(placing[:4]):
        line = lines[i]
        at = line.index(f"place {kind}:") + len(f"place {kind}:")
        end = line.find("@", at)
        if end < 0:
            continue
        token = line[at:end]
        new = token + "n" if n % 2 == 0 else token[:-1]
        out.append("\n".join([*lines[:i], line[:at] + new + line[end:], *lines[i + 1 :]]) + "\n")
    return out


@pytest.mark.parametrize("module", sorted(PIECES))
def test_a_piece_placed_in_one_pass_reports_as_the_pipeline(
    module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = PIECES[module]
    example = ROOT / "examples" / f"module-{module}.alh"
    texts: list[str] = []
    if example.exists():
        text = example.read_text(encoding="utf-8")
        texts += variants(text, kind) + _walls_changed(text, kind)
    seed = 18100 + 10 * sorted(PIECES).index(module)
    sims = simulated_variants((module,), seed, kind, f"place {module}", 3)
    texts += sims + [w for s in sims[:3] for w in _walls_changed(s, kind)]
    taken = _compare(chosen(texts, KEPT[module]), monkeypatch)
    assert any(taken), f"{module}: no piece was placed in one pass"


def test_the_first_22_modules_together_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = []
    for k, kind in enumerate(("md", "bl", "bh")):
        text = first22_game(2 + k)  # seed 18400 + k
        texts += variants(text, kind)[:3] + _walls_changed(text, kind)[:2]
    taken = _compare(chosen(texts, KEPT["first 22"]), monkeypatch)
    assert taken.count(True) >= 10
    assert taken.count(False) >= 1


def test_the_pieces_of_other_modules_with_building_rules_report_as_the_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Modules refining ``place.problems`` (Stadttore, Feldlager, Bedienstete) or with pieces
    of their own rules (Wachtürme, Mauern) beside pieces placed: the path declines where it
    must."""
    texts: list[str] = []
    for k, others in enumerate((("stadttore",), ("feldlager",), ("wachtuerme",), ("mauern",))):
        texts += simulated_variants(("medina", *others), 18500 + k, "md", "beside", 2)
    _compare(
        chosen(texts, KEPT["beside"]), monkeypatch, scratch=False
    )  # (their states print no values)
