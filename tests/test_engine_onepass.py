"""The one-pass take and buy (``take.take_plain``, ``purchase.purchase_plain``) against the
three stages (plan, findings, apply) that define the rules.

Every take and buy of simulated games, and of mutated records (violations of every kind, so
that both paths are taken), runs through the engine as usual, and through the three stages on
a copy of the state just before it; the table and what was reported must be the same after.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from referee.catalogue import Currency, MoneyCard, TileKind, catalogue
from referee.engine import actions, check_game
from referee.engine.actions import purchase, take
from referee.engine.context import Context
from referee.engine.state import GameState
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Buy, TakeMoney
from referee.simulate import simulate_many
from referee.simulate.fuzz import mutate_record


def _stages_take(ctx: Context, p: Any, a: TakeMoney, check: bool) -> None:
    plan = take.plan_take(ctx.state, p, a)
    if check:
        ctx.report(take.take_findings(ctx, plan))
    take.apply_take(ctx, plan)


def _stages_buy(ctx: Context, p: Any, a: Buy, check: bool) -> None:
    plan = purchase.plan_purchase(ctx.state, p, a)
    if check:
        ctx.report(purchase.purchase_findings(ctx, plan))
    purchase.apply_purchase(ctx, plan)


def _table(state: GameState, found_from: int = 0, notes_from: int = 0) -> tuple[Any, ...]:
    t = state.turn
    return (
        [(dict(p.hand), p.hand_unknown) for p in state.players],
        list(state.display),
        list(state.market),
        dict(state.pool),
        dict(state.discard),
        state.discard_unknown,
        dict(state.bag),
        None
        if t is None
        else (t.main_actions, t.over, t.unsure, repr(t.over_after), list(t.pending)),
        [repr(v) for v in state.found[found_from:]],
        [repr(u) for u in state.unverifiable[notes_from:]],
    )


class _Twin:
    """Wraps a handler: each call also runs the three stages on a copy and compares."""

    def __init__(self, real: Callable[..., None], stages: Callable[..., None]) -> None:
        self.real, self.stages = real, stages
        self.calls = 0

    def __call__(self, ctx: Context, p: Any, a: Any, check: bool) -> None:
        state = ctx.state
        twin = state.copy()
        self.stages(Context(twin), twin.players[p.index], a, check)
        found, notes = len(state.found), len(state.unverifiable)
        self.real(ctx, p, a, check)
        assert _table(state, found, notes) == _table(twin), a
        self.calls += 1


@pytest.fixture
def twins(monkeypatch: pytest.MonkeyPatch) -> tuple[_Twin, _Twin]:
    t = _Twin(actions.HANDLERS[TakeMoney], _stages_take)
    b = _Twin(actions.HANDLERS[Buy], _stages_buy)
    monkeypatch.setitem(actions.HANDLERS, TakeMoney, t)
    monkeypatch.setitem(actions.HANDLERS, Buy, b)
    return t, b


def test_simulated_games_agree(twins: tuple[_Twin, _Twin]) -> None:
    for players in (2, 3, 5):
        for text in simulate_many(players, 40 + players, 2):
            for game in parse_text(text, "sim.alh"):
                assert check_game(game).valid
    assert twins[0].calls > 100 and twins[1].calls > 100


def test_mutated_records_agree(twins: tuple[_Twin, _Twin]) -> None:
    rng = random.Random(13)
    sources = list(simulate_many(4, 7, 3))
    invalid = 0
    for i in range(60):
        text = mutate_record(rng, rng.choice(sources), edits=1 + i % 4)
        try:
            games = parse_text(text, "mutant.alh")
        except Exception:  # a mutation the notation refuses: nothing to walk
            continue
        for game in games:
            invalid += not check_game(game).valid
    assert invalid > 10 and twins[0].calls > 100 and twins[1].calls > 100


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


def test_edited_records_agree(twins: tuple[_Twin, _Twin]) -> None:
    strict = replace(DEFAULT_PROFILE, overpay_superfluous="illegal")
    codes: set[str] = set()
    for text in simulate_many(3, 21, 2):
        for edited in _edits(text) + _big_takes(text):
            for game in parse_text(edited, "edited.alh"):
                for profile in (None, strict):
                    codes.update(v.code for v in check_game(game, profile).violations)
    assert {"BUY-CURRENCY", "BUY-UNDERPAID", "BUY-SUPERFLUOUS", "TAKE-SUM"} <= codes, codes


def test_module_games_agree(twins: tuple[_Twin, _Twin]) -> None:
    for name in ("wechselstuben", "diebe", "baumeister"):
        for text in simulate_many(3, 11, 1, modules=(name,)):
            for game in parse_text(text, "mod.alh"):
                check_game(game)
    assert twins[0].calls > 20 and twins[1].calls > 20


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
