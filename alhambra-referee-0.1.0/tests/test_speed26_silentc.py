"""Der Marktplatz's idle answer at a turn's end kept per seat (issue 34, twenty-fourth step).

``MarketScratch.idle_end`` holds, per seat, the player's ``reserve_version`` when ``idle_at``
last found him idle at a turn's end; ``core._turn`` reads it (``Module.kept_idle``: a dict is
idle while the mover's ``reserve_version`` is the number at his seat) instead of calling
``idle_at``. ``idle_at`` now also says yes when every building of the mover's reserve lies
under a market tile of its own (the step has nothing to lay and nothing to free). Checked here:

* wherever the kept note says idle, ``idle_at`` says yes and the step run on a copy changes
  nothing (the example, copies with a line left out, simulated games alone and beside Wesir,
  whose out-of-turn purchases go into a reserve);
* the findings and views are those with the kept answers ignored, and those of the old, narrower
  ``idle_at`` (an empty reserve and no building under a tile);
* a wrong note is caught; the engine reads the note without a call (``Extensions.end_solo``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_many

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.extensions import Extensions
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.modules.marktplatz import Marktplatz
from referee.notation import parse_text
from tests.conftest import PATCHES_ENGINE
from tests.test_speed13_dispatch import _checked, _outcome, _snapshot

ROOT = Path(__file__).resolve().parent.parent
NAME = "marktplatz"


def _texts() -> list[str]:
    """The example, copies leaving one line of play out, simulated games alone and with Wesir."""
    text = (ROOT / "examples" / f"module-{NAME}.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(3, len(body) // 8)
    variants = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[1::step]]
    return (
        variants + simulated_many(3, 2601, 2, (NAME,)) + simulated_many(3, 2602, 2, (NAME, "wesir"))
    )


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


def _old_idle_at(self: Marktplatz, state: GameState, moment: Any) -> bool:
    """``idle_at`` as it was before this step (no note kept, an empty reserve only)."""
    data = state.modules.get(self.name)
    if data is None:
        return False
    t = state.turn
    if t is None or t.interrupt is not None:
        return True
    p = state.players[t.player]
    if p.reserve:
        return False
    stalls = data.stalls.get(p.name)
    return stalls is not None and not stalls


def test_the_engine_reads_the_note_without_a_call() -> None:
    ext = Extensions([NAME])
    assert ext.kept_end == (NAME,)
    assert ext.end_solo is not None and ext.end_solo[0] == NAME
    assert ext.kept_start == ()  # (asked at a turn's end only)


def test_a_kept_yes_means_the_step_changes_nothing(
    texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    yes = _checked(monkeypatch)
    said: Counter[str] = Counter()
    idle_at = Marktplatz.idle_at

    def counted(self: Marktplatz, state: GameState, moment: Any) -> bool:
        answer = idle_at(self, state, moment)
        t = state.turn
        if answer and t is not None and t.interrupt is None and state.players[t.player].reserve:
            said["yes with a reserve"] += 1  # (the wider answer: every building under a tile)
            twin = state.copy()  # every such yes, kept or not: the step changes nothing
            before = _snapshot(twin)
            self.at_moment(Context(twin, None), moment)
            assert _snapshot(twin) == before
        return answer

    monkeypatch.setattr(Marktplatz, "idle_at", counted)
    for text in texts:
        for game in parse_text(text):
            check_game(game)
    assert yes[(NAME, str(Moment.TURN_END))] > 50, yes
    assert said["yes with a reserve"] > 0, said


def test_the_findings_are_those_without_kept_answers(
    texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [parse_text(t) for t in texts]
    fast = [_outcome(g) for g in games]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(g) for g in games] == fast


def test_the_findings_are_those_of_the_narrower_answer(
    texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [parse_text(t) for t in texts]
    fast = [_outcome(g) for g in games]
    monkeypatch.setattr(Marktplatz, "kept_idle", frozenset())
    monkeypatch.setattr(Marktplatz, "idle_at", _old_idle_at)
    assert [_outcome(g) for g in games] == fast


@PATCHES_ENGINE  # (PlayerState's reserve methods: compiled, the engine calls them past a patch)
def test_a_wrong_note_is_caught(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # a reserve changed past the notice (its number left as it was): the note taken before
    # says idle where idle_at, seeing a building under no tile, says no
    def add(self: PlayerState, piece: Any) -> None:
        self.reserve.append(piece)

    def extend(self: PlayerState, pieces: list[Any]) -> None:
        self.reserve.extend(pieces)

    monkeypatch.setattr(PlayerState, "reserve_add", add)
    monkeypatch.setattr(PlayerState, "reserve_extend", extend)
    _checked(monkeypatch)
    with pytest.raises(AssertionError, match="marktplatz"):
        for text in texts:
            for game in parse_text(text):
                check_game(game)


def test_the_note_is_dropped_where_the_module_changes_the_tiles() -> None:
    text = (ROOT / "examples" / f"module-{NAME}.alh").read_text(encoding="utf-8")
    (game,) = parse_text(text)
    state = check_game(game).state
    assert state is not None
    data = state.modules[NAME]
    module = next(m for m in state.ext.modules if m.name == NAME)
    for p in state.players:
        data.idle_end[p.index] = p.reserve_version
    p = state.players[0]
    module._forget(state, p)
    assert p.index not in data.idle_end
    assert all(q.index in data.idle_end for q in state.players[1:])


def test_the_turn_start_is_left_alone_only_where_nobody_is_asked() -> None:
    assert not Extensions().start_asked
    assert not Extensions([NAME]).start_asked  # (asked at a turn's end only)
    assert not Extensions(["wechselgeld"]).start_asked  # (at a refill's close only)
    assert Extensions(["schatzkammer"]).start_asked  # (asked at both)
    assert Extensions(["stadttore"]).start_asked  # (the mover's cells kept)
    assert Extensions([NAME, "schatzkammer"]).start_asked


def test_the_findings_are_those_with_the_turn_start_read(
    texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [parse_text(t) for t in texts]
    fast = [_outcome(g) for g in games]
    keep = Extensions._keep_answers

    def always(self: Extensions) -> None:
        keep(self)
        self.start_asked = bool(self.modules)

    monkeypatch.setattr(Extensions, "_keep_answers", always)
    assert [_outcome(g) for g in games] == fast


# ------------------------------------------------ the scoring with module categories


def _old_keyed(extra: list[Any], table: Any) -> tuple[list[Any], list[Any], bool]:
    """score_round's general path (before this step): base categories and module categories
    sorted by order, keys and labels read off each category."""
    from referee.scoring.categories import base_categories

    cats = base_categories(table)
    cats += extra
    cats.sort(key=lambda c: c.order)
    keyed = [(c.key, c.floor, c) for c in cats]
    labels = {c.key: (c.label_en, c.label_de) for c in cats}
    return keyed, list(labels.items()), any(f is not None for _k, f, _c in keyed)


def _line(key: str, order: int, floor: Any = None) -> Any:
    from referee.scoring.categories import PointLine

    return PointLine(key, f"{key} en", f"{key} de", "S", lambda p: None, order=order, floor=floor)


def test_module_categories_after_the_wall_read_without_the_sort() -> None:
    from referee.catalogue import BUILDING_TYPES
    from referee.scoring import core

    table = {t: (9, 4) for t in BUILDING_TYPES}
    cases = [
        [_line("a", 600)],
        [_line("a", 200), _line("b", 210), _line("c", 900)],
        [_line("wall", 650)],  # (a module key equal to a base key)
        [_line("a", 640, "total"), _line("b", 640)],
    ]
    for extra in cases:
        for tab in (None, table):
            got = core._after_the_wall(extra, tab)
            assert got is not None
            keyed, labels, floored = got
            old_keyed, old_labels, old_floored = _old_keyed(list(extra), tab)
            assert [(k, f) for k, f, _c in keyed] == [(k, f) for k, f, _c in old_keyed]
            assert [c for _k, _f, c in keyed] == [c for _k, _f, c in old_keyed]
            assert list(labels.items()) == old_labels
            assert floored == old_floored
    # an order before the wall, or not following the one before: the general path
    assert core._after_the_wall([_line("a", 150)], None) is None
    assert core._after_the_wall([_line("a", 640), _line("b", 610)], None) is None


@pytest.mark.parametrize(
    "name", ["angreifer", "schatzkammer", "wachtuerme", "wertungskaertchen", "bedienstete"]
)
def test_the_scorings_are_those_of_the_general_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.scoring import core

    text = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    games = parse_text(text)
    fast = _outcome(games)
    results = [
        [(repr(r), [list(row.labels.items()) for row in r.rows]) for r in rep.state.scoring_results]
        for rep in map(check_game, games)
        if rep.state is not None
    ]
    monkeypatch.setattr(core, "_after_the_wall", lambda extra, table: None)
    assert _outcome(games) == fast
    assert [
        [(repr(r), [list(row.labels.items()) for row in r.rows]) for r in rep.state.scoring_results]
        for rep in map(check_game, games)
        if rep.state is not None
    ] == results
