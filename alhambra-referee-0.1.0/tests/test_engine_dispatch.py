"""Modules asked only where they take part (issue 34), derived from the module classes:

* ``Extensions.at`` asks a module at a moment only when its ``at_moment`` may act then
  (``extensions.moments_asked``: Module's default acts nowhere, the kit's ``BundledModule`` at
  setup done (``@acts_at``), any other override everywhere), so a new module needs nothing;
* the one-pass purchase is kept when no enabled module refines a decision it asks or hears of
  purchases (``purchase._modules_leave_purchases``).

Both are held to the unfiltered engine: the same findings and results over simulated games of
every bundled module alone and of mixes.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from shared_store_support import contract_game

from referee.engine import check_game, extensions
from referee.engine.actions import purchase
from referee.engine.extensions import MODULES, Extensions, Module, acts_at, moments_asked
from referee.engine.turns import Moment
from referee.modules.base import BundledModule
from referee.notation import parse_text
from referee.record.model import Game
from referee.simulate import simulate_many
from tests.conftest import ENGINE_COMPILED, PATCHES_ENGINE


def _names() -> list[str]:
    extensions.load_bundled_modules()
    return sorted({cls.name for cls in MODULES.values()})


class _Quiet(Module):
    name = "quiet-test"


class _Kit(BundledModule):
    name = "kit-test"
    reads_changes = True  # the engine keeps the change counter (asserted below)


class _Everywhere(BundledModule):
    name = "everywhere-test"

    def at_moment(self, ctx: Any, moment: Any) -> None:
        super().at_moment(ctx, moment)


class _TurnEnd(BundledModule):
    name = "turnend-test"

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Any) -> None:
        super().at_moment(ctx, moment)


class _Below(_TurnEnd):
    name = "below-test"

    def at_moment(self, ctx: Any, moment: Any) -> None:  # no mark: asked everywhere
        super().at_moment(ctx, moment)


def test_the_moments_a_class_is_asked_at_come_from_its_overrides() -> None:
    assert moments_asked(_Quiet) == frozenset()
    assert moments_asked(_Kit) == {Moment.SETUP_DONE}
    assert moments_asked(_Everywhere) is None
    assert moments_asked(_TurnEnd) == {Moment.SETUP_DONE, Moment.TURN_END}
    assert moments_asked(_Below) is None


@pytest.mark.skipif(
    ENGINE_COMPILED,
    reason="a state stand-in: compiled, the engine's Context takes a real GameState only",
)
def test_at_asks_only_the_modules_of_the_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[tuple[str, str]] = []

    def record(self: Module, ctx: Any, moment: Any) -> None:
        heard.append((self.name, str(moment)))

    for cls in (_Quiet, _Kit, _Everywhere, _TurnEnd):
        monkeypatch.setitem(MODULES, cls.name, cls)
    ext = Extensions([_Quiet.name, _Kit.name, _Everywhere.name, _TurnEnd.name])
    by_name = {m.name: m for m in ext.modules}
    for m in ext.modules:  # the step itself replaced on the instance: who is asked, in order
        monkeypatch.setattr(m, "at_moment", record.__get__(m))
    # a state stand-in with the engine's change counter, which `at` raises once for each
    # moment at which it asks a module (GameState.changes)
    state: Any = SimpleNamespace(changes=0, at_next_change=None, context=None)
    ext.at(Moment.SETUP_DONE, state)
    ext.at(Moment.TURN_START, state)
    ext.at(Moment.TURN_END, state)
    assert heard == [
        ("kit-test", "setup-done"),
        ("everywhere-test", "setup-done"),
        ("turnend-test", "setup-done"),
        ("everywhere-test", "turn-start"),
        ("everywhere-test", "turn-end"),
        ("turnend-test", "turn-end"),
    ]
    assert state.changes == 3
    assert set(by_name) == {"quiet-test", "kit-test", "everywhere-test", "turnend-test"}


def test_overriding_names_the_modules_that_override_a_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for cls in (_Quiet, _Kit, _Everywhere):
        monkeypatch.setitem(MODULES, cls.name, cls)
    ext = Extensions([_Quiet.name, _Kit.name, _Everywhere.name])
    assert [m.name for m in ext.overriding("at_moment")] == ["kit-test", "everywhere-test"]
    assert ext.overriding("on_purchase") == ()


# The contract game (``k`` of :func:`contract_game`) each module's game of the corpus below is:
# one test_module_contract checks (its CHECKED), so that it is simulated once a run for both;
# of the players the corpus took before (2 to 5 in turn, modules in sorted order), under the
# default profile where CHECKED has such a game, else another profile. Wunschbrunnen's game 12
# (4 players, no such game in CHECKED) is simulated for this test alone. The corpus's lines
# (the test's three checks) before (games 0, 16, 12, 8 by players, default profile) and after:
# bench/README.md, issue 34, twenty-second step.
_CORPUS_K = {
    "angreifer": 0,
    "arbeiter": 1,
    "ausbauten": 22,
    "badehaeuser": 3,
    "bauland": 0,
    "baumeister": 16,
    "baustellen": 12,
    "bazare": 3,
    "bedienstete": 0,
    "bonuskarten": 1,
    "charaktere": 12,
    "diamanten": 3,
    "diebe": 0,
    "falkner": 1,
    "farben": 12,
    "feldlager": 8,
    "grossprojekte": 0,
    "haendler": 1,
    "handwerker": 12,
    "karawanserei": 8,
    "machtgebaeude": 0,
    "magisch": 1,
    "marktplatz": 7,
    "mauern": 3,
    "mauren": 0,
    "medina": 16,
    "menagerie": 32,
    "obstgaerten": 3,
    "palastplaner": 0,
    "plaetze": 1,
    "schaetze": 12,
    "schatzkammer": 3,
    "schluessel": 0,
    "stadttore": 36,
    "sultan": 42,
    "wachtuerme": 8,
    "wechselgeld": 0,
    "wechselscheine": 1,
    "wechselstuben": 37,
    "wertungskaertchen": 3,
    "wesir": 0,
    "wuensche": 36,
    "wunschbrunnen": 12,
}


def _corpus() -> list[str]:
    names = _names()
    assert sorted(_CORPUS_K) == names  # a new module: give it a game here
    texts = [contract_game(name, _CORPUS_K[name]) for name in names]
    rng = random.Random(34)
    for k in range(3):
        texts.extend(simulate_many(3 + k, 950 + k, 1, modules=tuple(sorted(rng.sample(names, 4)))))
    return texts


def _results(games: list[Game]) -> list[Any]:
    out = []
    for game in games:
        r = check_game(game)
        out.append(
            (
                r.valid,
                [repr(v) for v in r.violations],
                [repr(u) for u in r.unverifiable],
                repr(r.scorings),
                repr(getattr(r, "result", None)),
            )
        )
    return out


@PATCHES_ENGINE
def test_module_games_are_checked_as_by_the_unfiltered_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (the corpus read once, checked twice: a check leaves the records as they are)
    games = [game for text in _corpus() for game in parse_text(text, "sim.alh")]
    plain_calls = 0
    real = purchase._modules_leave_purchases

    def counting(state: Any, p: Any, idx: int) -> bool:
        nonlocal plain_calls
        got = real(state, p, idx)
        plain_calls += got
        return got

    with pytest.MonkeyPatch.context() as patch:  # (the counter only watches)
        patch.setattr(purchase, "_modules_leave_purchases", counting)
        fast = _results(games)
    assert plain_calls > 0  # some module games keep the one-pass purchase
    # the unfiltered engine: every module asked at every moment, no one-pass purchase
    monkeypatch.setattr(extensions, "moments_asked", lambda cls: None)
    monkeypatch.setattr(purchase, "_modules_leave_purchases", lambda state, p, idx: False)
    assert _results(games) == fast


def test_one_pass_purchases_of_module_games_agree_with_the_stages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every buy of module games (each module alone) through the one-pass path where the
    modules leave purchases alone, and through the stages on a copy: the same table after.
    The games are test_module_contract's game 1 of each module (3 players, the profile
    queen-bigbox-2019; it checks that game too), simulated once a run, in place of seeds
    700 + i of this test's own (3 players, the default profile): of the 22,398 lines of
    ``referee`` those ran, 406 are not run here (lines of the modules' own code and the
    geometry, none of ``engine/actions``; test_module_contract's
    test_simulated_games_with_the_module_check_clean runs every one but ``simulate_many``'s,
    which :func:`_corpus` runs) and 256 others are (bench/README.md, issue 34, twenty-first
    step)."""
    from test_engine_onepass import _Twin

    from referee.engine import actions
    from referee.record.model import Buy

    twin = _Twin(Buy)
    monkeypatch.delitem(actions.PLAIN, Buy)
    monkeypatch.setitem(actions.HANDLERS, Buy, twin)
    for name in _names():
        for game in parse_text(contract_game(name, 1), "sim.alh"):
            check_game(game)
    assert twin.calls > 100
    assert 0 < twin.one_pass < twin.calls
