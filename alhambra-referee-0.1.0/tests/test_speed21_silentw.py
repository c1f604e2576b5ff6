"""A Wechselgeld claim lapses without a step (issue 34, nineteenth step).

A claim for change is made on every purchase of a game with Das Wechselgeld and lapses when the
next refill closes. It is stamped with the refills closed so far (``GameState.refills_closed``)
and read as gone once that count moves; the module's step at a refill's close runs only for a
claim with coins due (``WECHSELGELD-FORFEIT``), and ``core._turn`` reads the module's kept
answer there (``idle_refill``, ``Extensions.refill_kept``) instead of asking. Checked here
against the eager way it had before (a step at every close with a claim open, every claim
cleared there): the same findings and the same position at every line, and who is asked.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.extensions import MODULES, Extensions
from referee.engine.position_text import position_text
from referee.engine.turns import Moment
from referee.engine.walk import At, state_at
from referee.modules import discover
from referee.modules.wechselgeld import Wechselgeld
from referee.notation import parse_text
from referee.simulate import simulate_many

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "module-wechselgeld.alh"
_FLOW = (Moment.TURN_START, Moment.TURN_END)


def _texts() -> list[str]:
    """The module's example, three copies with lines dropped, and simulated games."""
    text = _EXAMPLE.read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    rng = random.Random(21)
    out = [text]
    for _ in range(3):
        drop = set(rng.sample(body, 3))
        out.append("\n".join(x for i, x in enumerate(lines) if i not in drop) + "\n")
    return out + list(simulate_many(3, 2134, 2, modules=("wechselgeld",)))


def _silent(text: str) -> str:
    """A base game with the module enabled (its players overpay and never draw change)."""
    return text.replace("[Result ", '[Modules "wechselgeld"]\n[Result ', 1)


def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim's lapse as it was: the step runs at every refill's close (no kept answer, no
    idle answer) and clears every claim."""
    at = Wechselgeld.at_moment

    def at_moment(self: Wechselgeld, ctx: Any, moment: Any) -> None:
        at(self, ctx, moment)
        if moment == Moment.REFILL_DONE:
            self.data(ctx.state).claims.clear()

    monkeypatch.setattr(Wechselgeld, "kept_idle", frozenset())
    monkeypatch.setattr(Wechselgeld, "idle_at", lambda self, state, moment: False)
    monkeypatch.setattr(Wechselgeld, "at_moment", at_moment)


def _findings(text: str) -> list[str]:
    out = []
    for game in parse_text(text):
        report = check_game(game)
        out += [repr(v) for v in report.violations] + [repr(u) for u in report.unverifiable]
    return out


def _positions(text: str, every: int) -> list[str]:
    (game,) = parse_text(text)
    n = len(text.splitlines())
    return [position_text(state_at(game, At("line", k))[0]) for k in range(1, n + 1, every)]


def test_wechselgeld_is_read_not_asked_at_a_refills_close() -> None:
    ext = Extensions(["wechselgeld"])
    assert ext.refill_asked and ext.refill_kept == "wechselgeld"
    assert not ext.turn_asked  # asked at no turn's start or end: core._turn leaves both out
    assert Moment.REFILL_DONE in Wechselgeld.kept_idle


def test_every_module_alone_kept_and_turn_answers() -> None:
    discover()
    for name, cls in sorted(MODULES.items()):
        if cls.name != name:
            continue
        ext = Extensions([name])
        assert ext.turn_asked == ext.acting_at(_FLOW), name
        asked = ext._asked_at(Moment.REFILL_DONE)
        if ext.refill_kept is not None:  # the one module asked there, keeping its answer
            assert [m.name for m in asked] == [ext.refill_kept], name
            assert Moment.REFILL_DONE in type(asked[0]).kept_idle, name
        else:
            assert not any(Moment.REFILL_DONE in type(m).kept_idle for m in asked), name


@pytest.mark.parametrize("silent", [False, True])
def test_the_same_findings_as_the_eager_lapse(
    silent: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [_silent(t) for t in simulate_many(4, 2135, 2)] if silent else _texts()
    lazy = [_findings(t) for t in texts]
    assert any("WECHSELGELD-FORFEIT" in r for f in lazy for r in f)
    _eager(monkeypatch)
    assert [_findings(t) for t in texts] == lazy


def test_the_same_position_at_every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _EXAMPLE.read_text(encoding="utf-8")
    sim = next(iter(simulate_many(3, 2136, 1, modules=("wechselgeld",))))
    lazy = (_positions(text, 2), _positions(sim, 4))
    assert any("    change " in b for b in lazy[0])  # claims are stated, and lapse
    _eager(monkeypatch)
    assert (_positions(text, 2), _positions(sim, 4)) == lazy


def test_a_step_runs_only_for_coins_due(monkeypatch: pytest.MonkeyPatch) -> None:
    """In base games with the module (every purchase claims, none draws change): each step
    at a refill's close reports a forfeit, and the number of steps is the number of closes
    with coins due."""
    steps: list[int] = []
    at = Wechselgeld.at_moment

    def counted(self: Wechselgeld, ctx: Any, moment: Any) -> None:
        before = len(ctx.state.found)
        at(self, ctx, moment)
        if moment == Moment.REFILL_DONE:
            steps.append(len(ctx.state.found) - before)

    monkeypatch.setattr(Wechselgeld, "at_moment", counted)
    texts = [_silent(t) for t in simulate_many(5, 2137, 2)]
    claims = sum(1 for t in texts for line in t.splitlines() if ": buy " in line)
    forfeits = sum(f.count("WECHSELGELD-FORFEIT") for t in texts for f in _findings(t))
    assert claims and steps and forfeits
    assert all(n >= 1 for n in steps)  # each step reports (a forfeit)
    assert len(steps) < claims  # claims with no coins due: no step
