"""Issue 34, twenty-third step (helper notice): Die Künste der Mauren and Die Menagerie read the
engine's change notice of a player's holdings (``PlayerState.reserve_version``,
``Alhambra.version``; docs/modules/extension-points.md, "Whose holdings changed") instead of
looking at every player at every turn's end. The reports must be those of the modules looking
at everybody each time (subclasses that drop their notes first).

Kept cheap (the suite's budget): the two modules' examples and one base example with Mauren
enabled. The guard that no change of a reserve or an Alhambra goes past the notice is
``tests/test_holdings_notice.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine.extensions import MODULES
from referee.engine.state import TurnState
from referee.engine.turns import Moment
from referee.modules.mauren import Mauren
from referee.modules.menagerie import Menagerie

ROOT = Path(__file__).resolve().parents[1]
MAUREN = (ROOT / "examples" / "module-mauren.alh").read_text(encoding="utf-8")
MENAGERIE = (ROOT / "examples" / "module-menagerie.alh").read_text(encoding="utf-8")
_BASE = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")
# a base game with Mauren enabled and nobody turning a tile (its silent case)
SILENT_MAUREN = _BASE.replace("[Players", '[Modules "mauren"]\n[Players', 1)


class _LooksAtEverybody(Mauren):
    """Mauren before the notice: never idle, every player brought up to date at every turn's
    end."""

    idle_moments = frozenset()

    def idle_at(self, state: Any, moment: Any) -> bool:
        return False

    def at_moment(self, ctx: Any, moment: Moment) -> None:
        data = ctx.state.modules.get(self.name)
        if data is not None:
            data.synced.clear()
        super().at_moment(ctx, moment)


class _AsksEverybody(Menagerie):
    """Menagerie before the notice: its turn's-end answer looks at every player each time."""

    def idle_at(self, state: Any, moment: Any) -> bool:
        data = state.modules.get(self.name)
        if data is not None:
            data.settled.clear()
        return super().idle_at(state, moment)


def _report(text: str) -> str:
    from referee.api import check_game, parse_game

    return repr(check_game(parse_game(text)))


def _syncs(monkeypatch: Any, cls: type[Mauren], text: str) -> tuple[str, int]:
    calls = [0]
    sync = cls._sync

    def counted(self: Mauren, state: Any, player: Any) -> None:
        calls[0] += 1
        sync(self, state, player)

    monkeypatch.setattr(cls, "_sync", counted)
    try:
        return _report(text), calls[0]
    finally:
        monkeypatch.setattr(cls, "_sync", sync)


def test_mauren_reports_are_those_of_looking_at_everybody(monkeypatch: Any) -> None:
    assert SILENT_MAUREN != _BASE
    now = [_syncs(monkeypatch, Mauren, t) for t in (MAUREN, SILENT_MAUREN)]
    assert "MAUREN" in now[0][0] or "mauren" in now[0][0].lower()
    monkeypatch.setitem(MODULES, "mauren", _LooksAtEverybody)
    before = [_syncs(monkeypatch, _LooksAtEverybody, t) for t in (MAUREN, SILENT_MAUREN)]
    assert [r for r, _ in now] == [r for r, _ in before]
    # the notice left players out: a small part of the old syncs
    for (_, n), (_, m) in zip(now, before, strict=True):
        assert 0 < n < m / 2


def test_menagerie_reports_are_those_of_asking_everybody(monkeypatch: Any) -> None:
    noted: list[int] = []

    class _Watching(Menagerie):
        def idle_at(self, state: Any, moment: Any) -> bool:
            data = state.modules.get(self.name)
            if data is not None and moment is Moment.TURN_END:
                noted.append(len(data.settled))
            return super().idle_at(state, moment)

    monkeypatch.setitem(MODULES, "menagerie", _Watching)
    now = _report(MENAGERIE)
    assert max(noted) > 0  # (players were left out at some turn's end)
    monkeypatch.setitem(MODULES, "menagerie", _AsksEverybody)
    assert _report(MENAGERIE) == now


def test_the_notice_moves_with_the_holdings_and_stays_with_a_copy() -> None:
    from referee.engine import replay
    from referee.notation import parse_text

    (game,) = parse_text(SILENT_MAUREN)
    state, _found = replay(game)
    copy = state.copy()
    a, b = state.players[0], copy.players[0]
    assert (a.reserve_version, a.alhambra.version) == (b.reserve_version, b.alhambra.version)
    b.reserve_add(None)
    assert b.reserve_version != a.reserve_version and not a.reserve[len(b.reserve) - 1 :]
    c = copy.copy().players[0]
    c.reserve_pop(len(c.reserve) - 1)
    assert c.reserve == a.reserve
    assert c.reserve_version not in (a.reserve_version, b.reserve_version)
    synced = state.modules["mauren"].synced
    assert synced[a.name] == (a.reserve_version, a.alhambra.version)
    (mauren,) = [m for m in state.ext.modules if isinstance(m, Mauren)]
    turn_end = Moment.TURN_END
    for s in (state, copy):
        s.turn = TurnState(99, 0)  # (a turn's end: the answer reads the notes)
    assert mauren.idle_at(state, turn_end) and not mauren.idle_at(copy, turn_end)
    state.players[-1].reserve_add(None)  # (a reserve changed: that player is looked at)
    assert not mauren.idle_at(state, turn_end)
