"""The ninth step's changes to Neues Bauland, Die Obstgärten, Die Baumeister and Die Wünsche des
Kalifen (issue 34): each keeps what the module reported and did.

* Neues Bauland's idle answer at a turn's end (every plot without a building the module made
  lies on the market, ``BaulandScratch.loose``): wherever it says yes, no Alhambra or reserve
  holds a plot without a building; a plot bought and placed without its building makes it say
  no, and the turn's end reports it. A building code read by one look-up answers as the enum
  call did.
* Die Obstgärten: a fruit line that empties a player's bought fruits does at once what the next
  laying step did with the empty list, and the state access asks the kit's follow only where
  it could move a fruit: against the former code (kept below) every finding, score, view and
  the module's part of the state at the game's end are the same, over the module's example
  with lines left out and simulated games (alone, and with Handwerker's market swaps, Wesir's
  and Sultan's purchases out of turn).
* Die Wünsche des Kalifen: the breakdown lines read from the kept texts equal those read from
  the task's data at each call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_many

from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game
from referee.engine.extensions import Extensions
from referee.engine.state import GameState
from referee.engine.turns import Moment
from referee.modules import bauland as bl
from referee.modules import obstgaerten as og
from referee.modules import wuensche as wu
from referee.modules.base import follow_market
from referee.notation import parse_text

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _texts(name: str, seed: int, games: int = 3, with_: tuple[str, ...] = ()) -> list[str]:
    """The module's example with copies leaving one line of play out, and simulated games."""
    text = (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(3, len(body) // 10)
    variants = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[1::step]]
    return variants + simulated_many(3, seed, games, (name, *with_))  # (once a run)


def _reports(texts: list[str]) -> list[GameReport]:
    return [check_game(g) for text in texts for g in parse_text(text)]


def _outcome(rep: GameReport) -> tuple[Any, ...]:
    state = rep.state
    assert state is not None
    views = state.ext.views(state)
    return (
        [(v.code, v.message()) for v in rep.violations],
        [repr(u) for u in rep.unverifiable],
        rep.result,
        rep.winners,
        repr(views),
    )


# ----------------------------------------------------------------------------- Neues Bauland


def _unbuilt_anywhere(state: GameState) -> list[str]:
    """The plots without a building in any Alhambra or reserve."""
    out = []
    for p in state.players:
        pieces = [*p.alhambra.cells.values(), *p.reserve]
        out += [x.code for x in bl.unbuilt_plots(pieces)]
    return out


def _watch_bauland(monkeypatch: pytest.MonkeyPatch) -> dict[bool, int]:
    """At every turn's end Neues Bauland is asked at: its answer, and when it is yes, no
    Alhambra or reserve holds a plot without a building."""
    answers = {True: 0, False: 0}
    at = Extensions.at

    def watched(self: Extensions, moment: Any, state: GameState, pos: Any = None) -> None:
        if moment is Moment.TURN_END:
            for m in self._asked_at(moment):
                if isinstance(m, bl.Bauland):
                    yes = m.idle_at(state, moment)
                    answers[yes] += 1
                    if yes:
                        assert _unbuilt_anywhere(state) == []
        at(self, moment, state, pos)

    monkeypatch.setattr(Extensions, "at", watched)
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)  # (at() every time,
    # also where every module asked is idle: else core._turn asks them itself, end_idle)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    return answers


def test_bauland_idle_at_a_turn_end_only_without_an_unbuilt_plot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = _texts("bauland", 9311, 3)  # (made before the watch: it checks the games, not
    # their simulation)
    texts += simulated_many(2, 9312, 2, ("bauland", "handwerker", "wesir"))
    answers = _watch_bauland(monkeypatch)
    _reports(texts)
    assert answers[True] > 50
    assert answers[False] > 0  # (lines left out leave plots without their building)


_PLOTS = """[Players "Anna, Ben, Cem"]
[Modules "bauland"]

* deal Anna Di9 Di9 Gu9
* deal Ben Gu9 Du9 Gu2
* deal Cem De9 Du9 De4
* display Gu2 Di3 De4 Du5
* market Gu:P3 Di:bl:2_5n De:A4 Du:C6
* plots 1 P A C
* plots 2 S G T
* plots 3 P S A
* plots 4 C G T
start Anna
"""


def test_bauland_a_plot_placed_without_its_building_is_reported_at_the_turn_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = _watch_bauland(monkeypatch)
    # bought and placed without ``plot X``: the turn's end must look (and report it)
    text = _PLOTS + "1. Anna: buy Di bl:2_5n pay Di9, place bl:2_5n@1,0\n"
    (rep,) = _reports([text])
    missing = [v for v in rep.violations if v.code == "BAULAND-CHOICE"]
    assert missing and answers[False] >= 1
    state = rep.state
    assert state is not None
    assert [p.code for p in state.modules["bauland"].loose] == ["bl:2_5n"]


def test_bauland_a_plot_built_leaves_the_loose_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = _watch_bauland(monkeypatch)
    text = _PLOTS + "1. Anna: buy Di bl:2_5n pay Di9, plot G, place bl:2_5n_G@1,0\n"
    (rep,) = _reports([text])
    assert [v.code for v in rep.violations if v.code.startswith("BAULAND")] == []
    state = rep.state
    assert state is not None
    assert state.modules["bauland"].loose == []
    assert answers == {True: 1, False: 0}


@pytest.mark.parametrize(
    "value",
    ["P", "p", " c ", "S", "g", "T", "a", "X", "", "PA", "1", "chambers", "C ", "t\n"],
)
def test_bauland_building_code_as_the_enum_call(value: str) -> None:
    text = value.strip().upper()
    try:
        expected: BuildingType | None = BuildingType(text)
    except ValueError:
        expected = None
    assert bl._building(value) is expected


# ----------------------------------------------------------------------------- Die Obstgärten


def _former_data(self: og.Obstgaerten, state: GameState) -> Any:
    """The state access before this step: the kit's follow whenever the market changed."""
    data = state.modules.get(self.name)
    if data is None:
        data = self._kept(state)
    if data.under:
        market = state.market
        now = tuple(market)
        if now != data.followed:
            follow_market(market, data.on_market, data.under)
            data.followed = now
    else:
        data.followed = ()
    return data


def _former_action(self: og.Obstgaerten, state: GameState, player: Any, action: Any) -> list[Any]:
    """The fruit line's change before this step: an emptied list stays until a laying step."""
    data = state.modules.get(self.name) or self._kept(state)
    kept = data.planned
    data.planned = None
    if kept is not None and kept[0] is action and kept[1] == state.changes:
        lay = kept[2]
    else:
        lay = self._plan(state, player, action)[1]
    if lay.take is not False:
        data.pending.setdefault(player.name, []).remove(lay.take)
    if lay.board is not None:
        data.used.add(lay.board)
    if lay.down:
        data.face_down[player.name] = data.face_down.get(player.name, 0) + 1
    if lay.field is not None:
        data.fields.setdefault(player.name, {})[lay.field] = lay.kind
    return []


def _orchard_part(rep: GameReport) -> tuple[Any, ...]:
    """The module's part at the game's end, dictionaries compared as mappings (the emptied
    lists leave at another moment now, so an entry's place in a dictionary may differ)."""
    state = rep.state
    assert state is not None
    d = state.modules["obstgaerten"]
    return (
        d.boards,
        d.on_market,
        d.under,
        d.drawn,
        {k: v for k, v in d.fields.items()},
        d.face_down,
        {k: v for k, v in d.pending.items() if v},
        d.leftovers,
        d.used,
        d.boards_checked,
    )


@pytest.mark.parametrize(
    "with_", [(), ("handwerker",), ("wesir", "sultan"), ("handwerker", "wechselgeld")]
)
def test_obstgaerten_reports_as_the_former_code(
    with_: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts("obstgaerten", 9400 + len(with_) * 7 + len("".join(with_)), 3, with_)
    games = [g for text in texts for g in parse_text(text)]  # (read once, checked twice)
    now = [check_game(g) for g in games]
    monkeypatch.setattr(og.Obstgaerten, "data", _former_data)
    monkeypatch.setattr(og.Obstgaerten, "action", _former_action)
    # the former code keyed its plan by the change counter: it reads it, so it declares it
    monkeypatch.setattr(og.Obstgaerten, "reads_changes", True)
    monkeypatch.setattr(og.Obstgaerten, "kept_idle", frozenset())  # (nor kept idle answers)
    before = [check_game(g) for g in games]
    assert len(now) == len(before) > 3
    for a, b in zip(now, before, strict=True):
        assert _outcome(a) == _outcome(b)
        assert _orchard_part(a) == _orchard_part(b)


def test_obstgaerten_a_turn_end_after_every_fruit_laid_by_its_line_is_idle() -> None:
    # a bought fruit laid by its line leaves no list for the turn's end, whose step is then
    # left out (most turns of the simulated games); one left to the turn's end is laid there
    asked = {True: 0, False: 0}
    idle = og.Obstgaerten.idle_at
    texts = simulated_many(3, 9450, 2, ("obstgaerten",))  # (made before the watch)

    def counted(self: og.Obstgaerten, state: GameState, moment: Any) -> bool:
        yes = idle(self, state, moment)
        if moment is Moment.TURN_END:
            asked[yes] += 1
            if yes:
                assert not any(state.modules["obstgaerten"].pending.values())
        return yes

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(og.Obstgaerten, "idle_at", counted)
        mp.setattr(og.Obstgaerten, "kept_idle", frozenset())  # (asked, not read as kept)
        reps = _reports(texts)
    assert asked[True] > 2 * asked[False] > 0
    for rep in reps:
        state = rep.state
        assert state is not None
        assert all(state.modules["obstgaerten"].pending.values())  # no emptied list kept


# ----------------------------------------------------------------------------- Die Wünsche


def _former_said(
    n: int, count: int, points: int, where: object = "", key: str = "text"
) -> wu.TaskResult:
    data = wu.task_data(n)
    pts = int(data.get("points", 0))
    said = []
    for lang in ("en", "de"):
        units = (data.get("unit") or {}).get(lang) or ["", ""]
        at = where.get(lang, "") if isinstance(where, dict) else where
        unit = units[0] if count == 1 else units[1]
        said.append(
            str(data[key][lang]).format(count=count, unit=unit, pts=pts, points=points, where=at)
        )
    return wu.TaskResult(n, points, said[0], said[1])


@pytest.mark.parametrize("n", wu.TASKS)
def test_wuensche_breakdown_lines_as_read_from_the_task_data(n: int) -> None:
    keys = ["text"] + (["text_line"] if "text_line" in wu.task_data(n) else [])
    for key in keys:
        for count in (0, 1, 2, 7):
            for where in ("", " (y = 1, 2)", {"en": " to (1,2)", "de": " zu (1,2)"}):
                assert wu._said(n, count, count * 3, where, key) == _former_said(
                    n, count, count * 3, where, key
                )
    assert wu._task_points(n) == int(wu.task_data(n).get("points", 0))
