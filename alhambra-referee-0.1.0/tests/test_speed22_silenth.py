"""Die Wachtürme, Die Arbeiter and Die Großprojekte enabled and never used cost less (issue 34,
twentieth step: a silent module <= 1.10x a base turn).

* Die Wachtürme keeps its idle answers at a turn's start and end in its part (True until the
  first watchtower is taken), is idle before a scoring then too, adds no scoring line and
  leaves every placement and redesign alone while no watchtower exists;
* Die Arbeiter keeps its idle answer at a turn's start (True while no field is noted as bought
  from), hears no one-pass purchase (a purchase from a field where workers lie takes the
  pipeline) and adds no scoring line while no worker lies on a tile;
* the engine asks a standing offer at a turn's start only where the mover's bid lies (Die
  Großprojekte's open project with no bid on it costs a turn nothing).

Each is held to its games: a base game with the module's header checks as the base game does
(the same scores) without the module's steps, and the module's example still acts and is still
valid; the kept answers are checked as ``tests/test_speed13_dispatch.py`` checks the others'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.extensions import Extensions
from referee.engine.turns import Moment
from referee.notation import parse_text
from tests.purchase_onepass_support import chosen
from tests.test_speed13_dispatch import _checked, _outcome, _read, _texts

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_TURN = (Moment.TURN_START, Moment.TURN_END)


@pytest.fixture(scope="module")
def base_text() -> str:
    from shared_store_support import simulated_text

    return simulated_text(3, 11, None, "base game", ())  # (once a run)


def _with(text: str, name: str) -> str:
    return text.replace("[Result ", f'[Modules "{name}"]\n[Result ', 1)


def _checked_once(text: str) -> Any:
    (game,) = parse_text(text)
    report = check_game(game)
    assert report.valid, [v.message() for v in report.violations]
    return report


def _example(name: str) -> str:
    return (_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")


def _steps(monkeypatch: pytest.MonkeyPatch, cls: type, moments: list[Any]) -> None:
    step = cls.at_moment

    def counted(self: Any, ctx: Any, moment: Any) -> None:
        moments.append(moment)
        step(self, ctx, moment)

    monkeypatch.setattr(cls, "at_moment", counted)


def _scores(report: Any) -> list[int]:
    return [p.score for p in report.state.players]


# ---------------------------------------------------------------------------- Die Wachtürme


def test_silent_wachtuerme_runs_no_step_and_scores_as_the_base_game(
    base_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.modules.wachtuerme import Wachtuerme

    ran: list[Any] = []
    _steps(monkeypatch, Wachtuerme, ran)
    asked: list[Any] = []
    idle = Wachtuerme.idle_at

    def counted_idle(self: Any, state: Any, moment: Any) -> bool:
        asked.append(moment)
        return idle(self, state, moment)

    monkeypatch.setattr(Wachtuerme, "idle_at", counted_idle)
    base = _checked_once(base_text)
    report = _checked_once(_with(base_text, "wachtuerme"))
    assert _scores(report) == _scores(base)
    assert not set(ran) & {*_TURN, Moment.SCORING_BEFORE}, ran
    assert Moment.SCORING_BEFORE in asked  # (idle there: asked, answered yes)
    turns = report.state.turn_no
    assert asked.count(Moment.TURN_START) + asked.count(Moment.TURN_END) < turns  # kept: read
    part = report.state.modules["wachtuerme"]
    assert part.idle_start is True and part.idle_end is True and not part.taken
    module = report.state.ext.modules[0]
    assert module.scoring_parts(report.state, 3) is None
    assert all("watchtower" not in row.categories for row in report.scorings[-1].rows)


def test_wachtuerme_still_acts_where_towers_are_bought(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.modules.wachtuerme import Wachtuerme, Watchtower

    ran: list[Any] = []
    _steps(monkeypatch, Wachtuerme, ran)
    report = _checked_once(_example("wachtuerme"))
    assert Moment.TURN_END in ran and Moment.TURN_START in ran
    state = report.state
    part = state.modules["wachtuerme"]
    assert part.taken and part.idle_start is False and part.idle_end is False
    built = [
        p
        for p in state.players
        if any(isinstance(x, Watchtower) for x in p.alhambra.cells.values())
    ]
    assert built
    assert state.ext.modules[0].scoring_parts(state, 3) is not None
    assert any("watchtower" in row.categories for row in report.scorings[-1].rows)


def test_wachtuerme_leaves_placements_and_redesigns_alone_only_without_towers(
    base_text: str,
) -> None:
    from referee.engine.context import Context
    from referee.geometry.rules import BuildingProblem
    from referee.modules.wachtuerme import Watchtower, _no_tower_yet

    silent = _checked_once(_with(base_text, "wachtuerme")).state
    module = silent.ext.modules[0]
    p = silent.players[0]
    at = next(iter(p.alhambra.cells))
    found = [BuildingProblem("PLACE-SIDE", (at,))]
    ctx = Context(silent)
    assert _no_tower_yet(silent, "wachtuerme")
    assert module.watchtower_remove_problems(ctx, found, player=p, at=at) is found
    tile = p.alhambra.cells[at]
    for how in ("place", "swap"):
        got = module.watchtower_place_problems(ctx, found, player=p, at=at, piece=tile, how=how)
        assert got is found
    # a watchtower itself is always judged (the simulator asks before the first is bought)
    tower = Watchtower(tile.type, "sw") if getattr(tile, "type", None) else None
    if tower is not None:
        got = module.watchtower_place_problems(ctx, [], player=p, at=at, piece=tower, how="place")
        assert [x.code for x in got] == ["WACHT-SECURE"] or got == []
    towers = _checked_once(_example("wachtuerme")).state
    assert not _no_tower_yet(towers, "wachtuerme")


# ---------------------------------------------------------------------------- Die Arbeiter


def test_silent_arbeiter_runs_no_turn_step_and_hears_no_one_pass_purchase(
    base_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine.actions import purchase
    from referee.modules.arbeiter import Arbeiter

    assert Extensions(["arbeiter"]).after_plain == ()
    ran: list[Any] = []
    _steps(monkeypatch, Arbeiter, ran)
    piped: list[Any] = []
    pipeline = purchase.apply_purchase

    def counted(*args: Any, **kwargs: Any) -> Any:
        piped.append(args)
        return pipeline(*args, **kwargs)

    monkeypatch.setattr(purchase, "apply_purchase", counted)
    base = _checked_once(base_text)
    base_piped = len(piped)
    piped.clear()
    report = _checked_once(_with(base_text, "arbeiter"))
    assert _scores(report) == _scores(base)
    assert Moment.TURN_START not in ran
    assert len(piped) == base_piped  # every purchase the base game makes in one pass, too
    part = report.state.modules["arbeiter"]
    assert part.idle_start is True and not part.bought and not part.market
    assert report.state.ext.modules[0].scoring_parts(report.state, 3) is None
    assert set(part.tiles) == {p.name for p in report.state.players}  # as reading them left it


def test_arbeiter_example_still_notes_the_fields_bought_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.modules.arbeiter import Arbeiter

    ran: list[Any] = []
    _steps(monkeypatch, Arbeiter, ran)
    noted: list[Any] = []
    hook = Arbeiter.on_purchase

    def counted(self: Any, ctx: Any, purchase: Any) -> None:
        hook(self, ctx, purchase)
        noted.append(dict(self.data(ctx.state).bought))

    monkeypatch.setattr(Arbeiter, "on_purchase", counted)
    report = _checked_once(_example("arbeiter"))
    assert Moment.TURN_START in ran  # a field noted as bought from: cleared at the next start
    assert any(noted)
    assert report.state.ext.modules[0].scoring_parts(report.state, 3) is not None


def test_arbeiter_leaves_a_plain_purchase_only_from_a_field_without_workers() -> None:
    report = _checked_once(_example("arbeiter"))
    state = report.state.copy()
    module = state.ext.modules[0]
    part = state.modules["arbeiter"]
    p = state.players[0]
    part.market.clear()
    state.turn = None
    assert all(module.leaves_plain_purchase(state, p, f) for f in range(4))
    part.market[2] = [p.name]
    assert [module.leaves_plain_purchase(state, p, f) for f in range(4)] == [
        True,
        True,
        False,
        True,
    ]
    del state.modules["arbeiter"]
    assert not module.leaves_plain_purchase(state, p, 0)  # no part: the pipeline makes it


# ---------------------------------------------------------------------------- Die Großprojekte


def test_an_offer_without_the_movers_bid_is_not_asked_at_his_turns_start(
    base_text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine import auction

    started: list[int] = []
    start = auction.standing_turn_start

    def counted(state: Any, player: int, pos: Any) -> None:
        started.append(player)
        start(state, player, pos)

    monkeypatch.setattr(auction, "standing_turn_start", counted)
    base = _checked_once(base_text)
    report = _checked_once(_with(base_text, "grossprojekte"))
    assert _scores(report) == _scores(base)
    assert report.state.standing and report.state.standing[0].leader is None  # lying open
    assert started == []
    report = _checked_once(_example("grossprojekte"))
    assert started  # bids lying at their bidders' turns: the projects are won
    from referee.modules.grossprojekte import Project

    assert any(
        isinstance(x, Project) for p in report.state.players for _at, x in p.alhambra.pieces()
    )


# ---------------------------------------------------------------------------- kept answers


KEEPERS22 = ("wachtuerme", "arbeiter")


@pytest.mark.parametrize("name", KEEPERS22)
def test_a_kept_yes_means_the_step_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(name, 2200 + len(name))  # (made before the watch: it checks the games,
    # not their simulation)
    yes = _checked(monkeypatch)
    for text in chosen(texts, (0, 1, 5, len(texts) - 5, len(texts) - 1)):
        for game in parse_text(text):
            check_game(game)
    assert (name, str(Moment.TURN_START)) in yes, yes
    if name == "wachtuerme":
        assert (name, str(Moment.TURN_END)) in yes, yes


@pytest.mark.parametrize("name", KEEPERS22)
def test_the_findings_are_those_without_kept_answers(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts(name, 2300 + len(name))
    texts = _read(chosen(texts, (0, 2, 6, len(texts) - 6, len(texts) - 2)))  # (read once)
    fast = [_outcome(t) for t in texts]
    monkeypatch.setattr(Extensions, "_kept_at", lambda self, moment: None)
    # (and where every module asked is idle: core._turn would ask them itself)
    monkeypatch.setattr(Extensions, "_idle_unkept", lambda self, moment, read: ())
    assert [_outcome(t) for t in texts] == fast
