"""Issue 34, twenty-second step (helper "silentr"): scoring parts of modules whose pieces no
player has, cheaper without a verdict changed (bench/README.md, "Issue 34, twenty-second step:
silent Bazare, Badehäuser, Wunschbrunnen, Wertungskärtchen, Farben").

- Die Bazare, Die Badehäuser, Der Wunschbrunnen and Frische Farben add no scoring category
  while no player could have its line (no bazaar, bathhouse or well built in; no completed
  project): the scoring keeps the base game's path. The reports are those with the category
  added as before (``built_in`` / ``_any_done`` put back to "yes" with ``monkeypatch``), also
  where a claim names the module's line in a game where nobody has it (the mismatch's text
  takes the registered label, the same words). Compared: the findings and what ``check``
  writes (text EN, DE, JSON); the scoring rows' ``repr`` (in a claim mismatch's finding too)
  differs by the labels they keep.
- Die Wertungskärtchen make a tile's scoring parts once per tile and scoring: equal to parts
  made afresh, and the example's report is the same.

A few games (the modules' examples, the base example with a module header), no corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# module -> (its module file, the guard a scoring asks, the claim key of its line)
GUARDED = {
    "bazare": ("bazare", "built_in", "bazaar"),
    "badehaeuser": ("badehaeuser", "built_in", "bathhouse"),
    "wunschbrunnen": ("wunschbrunnen", "built_in", "well"),
    "farben": ("farben", "_any_done", "projects"),
}


def _report(text: str) -> Any:
    from referee.api import check_game, parse_game

    return check_game(parse_game(text))


def _output(text: str, tmp: Path) -> str:
    """What ``check`` writes for the game: text in English and German, JSON (as
    ``bench/same_output.py`` dumps it). A scoring's rows keep the labels of every category
    scored (``ScoringRow.labels``, not compared, read only for the categories a row has): the
    written output, not the rows' ``repr``, is what must not change."""
    import json

    from referee.commands.check import _check_job, _jobs, _Options

    path = tmp / "game.alh"
    path.write_text(text, encoding="utf-8")
    out = []
    for fmt, lang in (("text", "en"), ("text", "de"), ("json", "en")):
        for job in _jobs((str(path),)):
            done = _check_job(job, _Options(None, False, fmt, lang, True))
            data = json.dumps(done.data, sort_keys=True, default=str, ensure_ascii=False)
            out.append(f"{done.text if fmt == 'text' else data}\n{done.valid} {done.codes}")
    return "\n".join(out)


def _silent(module: str, claim: str) -> str:
    """The base example with the module's header, and a claim of the module's line (2 points)
    for Anna at the last scoring: nobody has the line (a mismatch, reported)."""
    text = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")
    text = text.replace("[Result ", f'[Modules "{module}"]\n[Result ', 1)
    return text.replace("scoring 3: Anna =98,", f"scoring 3: Anna =98 ({claim}=2),", 1)


def _old_way(monkeypatch: Any, module: str) -> None:
    """The category added at every scoring, as before this step."""
    import importlib

    file, guard, _claim = GUARDED[module]
    mod = importlib.import_module(f"referee.modules.{file}")
    if guard == "_any_done":
        monkeypatch.setattr(mod.Farben, guard, lambda self, state: True)
    else:
        monkeypatch.setattr(mod, guard, lambda state, kind: True)


def _asked(monkeypatch: Any, module: str) -> list[bool]:
    """Record whether each scoring got the module's parts (the module's method, wrapped)."""
    from referee.engine.extensions import Extensions

    got: list[bool] = []
    kept = Extensions.scoring_parts

    def counted(self: Any, state: Any, round_no: int) -> Any:
        m = next(m for m in self.modules if m.name == module)
        got.append(m.scoring_parts(state, round_no) is not None)
        return kept(self, state, round_no)

    monkeypatch.setattr(Extensions, "scoring_parts", counted)
    return got


@pytest.mark.parametrize("module", sorted(GUARDED))
def test_no_category_while_nobody_has_the_line_and_the_same_output(
    monkeypatch: Any, tmp_path: Path, module: str
) -> None:
    text = _silent(module, GUARDED[module][2])
    with monkeypatch.context() as mp:
        asked = _asked(mp, module)
        written = _output(text, tmp_path)
    assert asked and not any(asked)  # the scorings (three, each format), no part added
    assert "SCORE-CLAIM" in written  # Anna's claim of the module's line: computed 0
    assert GUARDED[module][2] in written  # the mismatch names the line
    with monkeypatch.context() as mp:
        _old_way(mp, module)
        assert _output(text, tmp_path) == written


@pytest.mark.parametrize("module", sorted(GUARDED))
def test_the_module_still_scores_in_its_example(
    monkeypatch: Any, tmp_path: Path, module: str
) -> None:
    text = (ROOT / "examples" / f"module-{module}.alh").read_text(encoding="utf-8")
    with monkeypatch.context() as mp:
        asked = _asked(mp, module)
        written = _output(text, tmp_path)
    assert any(asked)  # a piece built (a project completed): the line is scored
    with monkeypatch.context() as mp:
        _old_way(mp, module)
        assert _output(text, tmp_path) == written


def test_wertungskaertchen_parts_made_once_equal_fresh_ones(monkeypatch: Any) -> None:
    from referee.modules import wertungskaertchen as wk

    for order in wk.listed_orders()[:4]:
        for round_no in (1, 2, 3):
            assert wk._tile_parts(order, round_no) == wk._tile_parts.__wrapped__(order, round_no)
    assert wk.parse_order("pctsag") == wk.parse_order.__wrapped__("pctsag")
    assert wk.parse_order("PCTSAX") is None
    text = (ROOT / "examples" / "module-wertungskaertchen.alh").read_text(encoding="utf-8")
    now = _report(text)
    monkeypatch.setattr(wk, "_tile_parts", wk._tile_parts.__wrapped__)
    assert repr(_report(text)) == repr(now)
