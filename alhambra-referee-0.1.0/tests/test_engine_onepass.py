"""The one-pass take, buy, placement and build from the reserve (``actions.PLAIN``:
``take.take_plain``, ``purchase.purchase_plain``, ``placement.place_plain``,
``redesign.build_plain``) against the three stages (plan, findings, apply) that define the
rules (``actions.HANDLERS``).

Every take, buy, placement and build of simulated games, and of mutated and edited records
(violations of every kind, so that both paths are taken), runs through the engine as usual, and
through the stages on a copy of the state just before it; the table and what was reported must
be the same after.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from referee.catalogue import Currency, MoneyCard, TileKind, catalogue
from referee.engine import actions, check_game
from referee.engine.context import Context
from referee.engine.extensions import MODULES, Module
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState
from referee.geometry import BuildingProblem
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import BuildFromReserve, Buy, Place, TakeMoney
from referee.simulate import simulate_many
from referee.simulate.fuzz import mutate_record
from tests.purchase_onepass_support import chosen

KINDS = (TakeMoney, Buy, Place, BuildFromReserve)


def _table(state: GameState, found_from: int = 0, notes_from: int = 0) -> tuple[Any, ...]:
    t = state.turn
    return (
        [
            (
                dict(p.hand),
                p.hand_unknown,
                dict(p.alhambra.cells),
                p.alhambra_unknown,
                list(p.reserve),
                p.counts,
            )
            for p in state.players
        ],
        [
            (g.masks, g.front, g.reach, g.enclosed)
            for g in (p.alhambra.geometry for p in state.players)
        ],
        list(state.display),
        list(state.market),
        dict(state.pool),
        dict(state.discard),
        state.discard_unknown,
        dict(state.bag),
        state.dirk,
        None
        if t is None
        else (
            t.main_actions,
            t.over,
            t.unsure,
            repr(t.over_after),
            list(t.pending),
            t.placing,
            t.extra_redesigns,
        ),
        [repr(v) for v in state.found[found_from:]],
        [repr(u) for u in state.unverifiable[notes_from:]],
    )


class _Twin:
    """Stands in for one action kind's handler (the kind's one-pass path is taken out of
    ``actions.PLAIN``): each call runs the one-pass path, and the stages when it declines, as
    ``run_action`` does, and the stages alone on a copy of the state; both must agree."""

    def __init__(self, kind: type) -> None:
        self.plain: Callable[..., bool] = actions.PLAIN[kind]
        self.stages: Callable[..., None] = actions.HANDLERS[kind]
        self.calls = self.one_pass = 0

    def __call__(self, ctx: Context, p: Any, a: Any, check: bool) -> None:
        state = ctx.state
        twin = state.copy()
        self.stages(Context(twin), twin.players[p.index], a, check)
        found, notes = len(state.found), len(state.unverifiable)
        if self.plain(state, p, a, check):
            self.one_pass += 1
        else:
            self.stages(ctx, p, a, check)
        assert _table(state, found, notes) == _table(twin), a
        self.calls += 1


@pytest.fixture
def twins(monkeypatch: pytest.MonkeyPatch) -> dict[type, _Twin]:
    out: dict[type, _Twin] = {}
    for kind in KINDS:
        out[kind] = _Twin(kind)
        monkeypatch.delitem(actions.PLAIN, kind)
        monkeypatch.setitem(actions.HANDLERS, kind, out[kind])
    return out


def _both_ways(twins: dict[type, _Twin], least: int) -> None:
    """Every kind ran at least ``least`` times, in one pass and through the stages alone."""
    for kind, twin in twins.items():
        assert twin.calls >= least, (kind, twin.calls)
        assert twin.one_pass > 0, kind


def test_simulated_games_agree(twins: dict[type, _Twin]) -> None:
    for players in (2, 3, 5):
        for text in simulate_many(players, 40 + players, 2):
            for game in parse_text(text, "sim.alh"):
                assert check_game(game).valid
    _both_ways(twins, 20)
    assert all(twins[k].calls > 100 for k in (TakeMoney, Buy, Place))


# The copies the mutated and edited records' tests check (indices among each test's different
# texts, ``chosen``): those that run every referee line all the copies ran, test by test
# (coverage, one context a text: bench/README.md, issue 34, nineteenth step,
# "test_engine_onepass"); every copy is still made (the random edits' sequence is unchanged).
KEPT_MUTATED = (0, 1, 2, 3, 4, 5, 9, 10, 12, 13, 15, 18, 20, 22, 23, 25, 28, 30, 34, 36, 39, 42)
KEPT_MUTATED += (43, 44, 46, 52, 53, 54, 55, 56, 58, 59)  # 32 of 60
KEPT_EDITED = (0, 10, 15, 29, 31, 35, 54)  # of 60
KEPT_PLACES = (1, 5, 55, 59, 62, 66, 71, 81, 89, 109)  # of 110


def test_mutated_records_agree(twins: dict[type, _Twin]) -> None:
    rng = random.Random(13)
    sources = list(simulate_many(4, 7, 3))
    invalid = 0
    texts = [mutate_record(rng, rng.choice(sources), edits=1 + i % 4) for i in range(60)]
    for text in chosen(texts, KEPT_MUTATED):
        try:
            games = parse_text(text, "mutant.alh")
        except Exception:  # a mutation the notation refuses: nothing to walk
            continue
        for game in games:
            invalid += not check_game(game).valid
    assert invalid > 10
    _both_ways(twins, 20)
    assert any(t.one_pass < t.calls for t in twins.values())


def _edits(text: str) -> list[str]:
    """Variants of a record, each with one buy or take changed: another currency or value of
    a card paid or taken, a card more (wrong currency, over- and underpaid, sums over 5, cards
    not held or not shown)."""
    out = []
    for m in list(re.finditer(r"(pay|take) (Gu|Di|De|Du)(\d)", text))[:24:3]:
        cur, value = m.group(2), int(m.group(3))
        other = {"Gu": "Di", "Di": "De", "De": "Du", "Du": "Gu"}[cur]
        for new in (f"{other}{value}", f"{cur}{value % 9 + 1}", f"{cur}{value} {cur}{value}"):
            out.append(text[: m.start(2)] + new + text[m.end(3) :])
    return out


def _big_takes(text: str) -> list[str]:
    """Variants of a record where a one-card take also takes a second card of the display
    (followed through the record's display lines) so that the sum goes over 5."""
    out: list[str] = []
    lines = text.split("\n")
    display: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith("* ") and "display " in line:
            display += line.split("display ", 1)[1].split(",")[0].split()
            continue
        m = re.fullmatch(r"(\d+\. \w+: take )(\w\w)(\d)", line)
        if m is None:
            continue
        card = m.group(2) + m.group(3)
        other = next((c for c in display if c != card and int(c[2:]) + int(m.group(3)) > 5), None)
        if other is not None and len(out) < 6:
            out.append("\n".join([*lines[:i], f"{line} {other}", *lines[i + 1 :]]))
        if card in display:
            display.remove(card)
    return out


def test_edited_records_agree(twins: dict[type, _Twin]) -> None:
    strict = replace(DEFAULT_PROFILE, overpay_superfluous="illegal")
    codes: set[str] = set()
    texts = [e for text in simulate_many(3, 21, 2) for e in _edits(text) + _big_takes(text)]
    for edited in chosen(texts, KEPT_EDITED):
        for game in parse_text(edited, "edited.alh"):
            for profile in (None, strict):
                codes.update(v.code for v in check_game(game, profile).violations)
    assert {"BUY-CURRENCY", "BUY-UNDERPAID", "BUY-SUPERFLUOUS", "TAKE-SUM"} <= codes, codes


def _places(text: str) -> list[str]:
    """Variants of a record, each with one placement or build changed: to the next cell east
    (walls, a way on foot, holes), onto the fountain (occupied), far off (touching nothing),
    a tile not bought or not in the reserve."""
    out = []
    for m in list(re.finditer(r"(place|build) (\w+)@(-?\d+),(-?\d+)", text))[:40:3]:
        x, y = int(m.group(3)), int(m.group(4))
        for new in (f"{m.group(2)}@{x + 1},{y}", f"{m.group(2)}@0,0", f"{m.group(2)}@{x},{y + 9}"):
            out.append(text[: m.start(2)] + new + text[m.end(4) :])
        out.append(text[: m.start(2)] + ("T13" if m.group(2) != "T13" else "P2") + text[m.end(2) :])
    return out


def test_edited_placements_agree(twins: dict[type, _Twin]) -> None:
    codes: set[str] = set()
    texts = [edited for text in simulate_many(3, 23, 2) for edited in _places(text)]
    for edited in chosen(texts, KEPT_PLACES):
        for game in parse_text(edited, "edited.alh"):
            codes.update(v.code for v in check_game(game).violations)
    expected = {"PLACE-OCCUPIED", "PLACE-ADJACENT", "PLACE-NOT-BOUGHT", "REDESIGN-NOT-IN-RESERVE"}
    assert expected <= codes, codes
    assert codes & {"PLACE-WALL", "PLACE-WALK", "PLACE-HOLE"}, codes
    _both_ways(twins, 20)


def test_module_games_agree(twins: dict[type, _Twin]) -> None:
    for name in ("wechselstuben", "diebe", "baumeister", "magisch", "wesir"):
        for text in simulate_many(3, 11, 1, modules=(name,)):
            for game in parse_text(text, "mod.alh"):
                check_game(game)
    assert all(t.calls >= 10 for t in twins.values())
    assert twins[TakeMoney].one_pass and twins[Place].one_pass  # a buy: base games only


class _Strict(Module):
    """Test-only: no building may stand east of the fountain (a refinement that adds a
    problem where the base rules find none: the one-pass placement must leave it to the
    ruleset)."""

    name = "test-strict-east"

    @refines(Decision.PLACE_PROBLEMS)
    def east(self, ctx: Any, problems: list[Any], *, at: Any, **_: Any) -> list[Any]:
        if at.x > 0 and not problems:
            return [BuildingProblem("PLACE-ADJACENT", (at,))]
        return problems


@pytest.fixture
def strict() -> Iterator[None]:
    MODULES[_Strict.name] = _Strict
    yield
    MODULES.pop(_Strict.name, None)


def test_a_refined_placement_is_left_to_the_ruleset(strict: None, twins: dict[type, _Twin]) -> None:
    east = 0
    texts = list(simulate_many(3, 5, 2))  # the simulator plays base games: not counted
    twins[Place].calls = twins[Place].one_pass = 0
    for text in texts:
        east += len(re.findall(r"(?:place|build) \w+@[1-9]", text))
        text = re.sub(r'\[Result "[^"]*"\]', '[Modules "test-strict-east"]', text, count=1)
        for game in parse_text(text, "strict.alh"):
            found = [v for v in check_game(game).violations if v.code == "PLACE-ADJACENT"]
            assert len(found) >= 1
    assert east > 5
    assert twins[Place].calls > 20 and twins[Place].one_pass == 0


def test_cards_and_tiles_are_interned() -> None:
    import copy
    import dataclasses
    import pickle

    card = MoneyCard(Currency.DENAR, 3)
    assert MoneyCard(card.currency, 3) is card
    assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card
    assert dataclasses.replace(card, value=4) is MoneyCard(card.currency, 4)
    tile = catalogue().tiles[7]
    assert TileKind(tile.type, tile.price, set(tile.walls)) is tile  # type: ignore[arg-type]
    assert copy.deepcopy([tile])[0] is tile and pickle.loads(pickle.dumps(tile)) is tile
