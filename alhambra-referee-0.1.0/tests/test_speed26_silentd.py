"""Issue 34, twenty-fourth step (helper silentd): silent Stadttore and Bazare, and the base
turn's share of the holdings notice.

- the engine's turn-start table (``GameState.turn_start``) copied again only when the mover's
  ``alhambra.version`` moved (``GameState.turn_start_version``): at every turn's start it holds
  the mover's cells, as a copy made then would;
- ``Alhambra.cells`` and ``Alhambra.kept_geometry`` plain attributes; Stadttore's turn-end answer
  reads the kept geometry and answers as the old formula did at every turn's end;
- ``Module.draw_types``: ``core._market`` asks a draw hearer only about the types it names;
  Bazare's reports are those of a Bazare told of every draw, and its ``market_draw`` changes
  nothing for a base tile (the promise);
- Bazare's bazaar kept per spelling: the pieces equal freshly made ones.

Kept cheap (the suite's budget): the two modules' examples and two cut copies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import catalogue
from referee.engine import check_game, replay
from referee.engine.extensions import MODULES, Extensions, acts_at
from referee.engine.turns import Moment
from referee.geometry.grid import TICKS, Alhambra
from referee.modules.bazare import Bazaar, BazareModule, _face, parse_bazaar
from referee.modules.stadttore import Stadttore
from referee.notation import parse_text
from referee.record.model import Coord

ROOT = Path(__file__).resolve().parents[1]
GATES = (ROOT / "examples" / "module-stadttore.alh").read_text(encoding="utf-8")
GATES_CUT = GATES.replace(", gate @-1,-3 e", "", 1)  # the first gate left out: GATE-MISSING
BAZARS = (ROOT / "examples" / "module-bazare.alh").read_text(encoding="utf-8")
# a bazaar written onto a market field (set aside by the module: BAZAAR-ASIDE, reason market)
BAZARS_CUT = BAZARS.replace("aside De bz:DeSAGs, market De:A9", "market De:bz:DeSAGs", 1)


def _report(text: str) -> str:
    (game,) = parse_text(text)
    return repr(check_game(game))


def _old_idle(state: Any, moment: Any) -> bool:
    """Stadttore's turn-end answer before this step (the geometry property read each time)."""
    if moment is not Moment.TURN_END:
        return False
    t = state.turn
    if t is None or not state.checking:
        return True
    player = state.players[t.player]
    if player.counts is not None or player.alhambra_unknown:
        return True
    return player.alhambra.geometry.reach is None


_SEEN: list[tuple[int, int, bool]] = []  # (tables told apart, turn number, answers differing)
_TABLES: set[int] = set()  # the kept tables met at the turns' starts (their ids)


class _Watched(Stadttore):
    """Stadttore with a step at both moments that checks the engine's kept table against the
    mover's cells at every turn's start (the engine copies before the modules' step) and its
    turn-end answer against the old formula."""

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        state = ctx.state
        t = state.turn
        if moment is Moment.TURN_START and t is not None:
            kept = state.turn_start[t.player]
            assert kept == state.players[t.player].alhambra.cells
            assert kept is not state.players[t.player].alhambra.cells
            _TABLES.add(id(kept))
            _SEEN.append((len(_TABLES), t.number, False))
            return
        super().at_moment(ctx, moment)

    def idle_at(self, state: Any, moment: Any) -> bool:
        got = super().idle_at(state, moment)
        if got != _old_idle(state, moment):
            _SEEN.append((-1, -1, True))
        return got


def test_stadttore_reports_and_tables_as_a_copy_at_every_turn_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = [_report(t) for t in (GATES, GATES_CUT)]
    assert "GATE-MISSING" in before[1] and "GATE-MISSING" not in before[0]
    monkeypatch.setitem(MODULES, "stadttore", _Watched)
    _SEEN.clear()
    _TABLES.clear()
    assert [_report(t) for t in (GATES, GATES_CUT)] == before
    assert _SEEN and not any(differs for _n, _t, differs in _SEEN)
    turns = sum(1 for _n, t, _d in _SEEN if t > 0)
    # the kept table equal to the cells at every turn's start (asserted in the step), made
    # anew only where the Alhambra changed: fewer tables than turns
    assert 0 < len(_TABLES) < turns


def test_the_kept_table_is_copied_again_once_the_version_moves() -> None:
    (game,) = parse_text(GATES)
    state, _found = replay(game)
    kept, versions = state.turn_start, state.turn_start_version
    assert kept and kept.keys() == versions.keys()
    for seat, table in kept.items():
        alh = state.players[seat].alhambra
        if versions[seat] == alh.version:  # nothing changed since: the same cells
            assert table == alh.cells
    copy = state.copy()
    assert copy.turn_start_version == versions and copy.turn_start_version is not versions
    (base,) = parse_text((ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8"))
    plain, _found = replay(base)
    assert plain.turn_start == {} and plain.turn_start_version == {}


def test_the_alhambras_plain_attributes_and_the_notice() -> None:
    tiles = [t for t in catalogue().tiles if not t.walls][:2]
    alh = Alhambra()
    assert alh.kept_geometry is None  # not built before it is read
    geo = alh.geometry
    assert alh.kept_geometry is geo and alh.geometry is geo
    before = alh.version
    assert alh.place_if_empty(Coord(1, 0), tiles[0])
    assert alh.version == TICKS.n and alh.version != before
    assert alh.cells[Coord(1, 0)] is tiles[0] and alh.kept_geometry is geo
    copy = alh.copy()
    assert copy.cells == alh.cells and copy.cells is not alh.cells
    assert copy.kept_geometry is not None and copy.kept_geometry is not geo
    assert copy.version == alh.version
    alh.remove(Coord(1, 0))
    assert alh.version == TICKS.n and Coord(1, 0) not in alh.cells


class _EveryDraw(BazareModule):
    """Bazare told of every draw in play (no promise), as before this step."""

    draw_types = None


def test_bazare_reports_as_a_bazare_told_of_every_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Extensions(["bazare"]).draw_types == frozenset({Bazaar})
    assert Extensions(["bazare", "sultan"]).draw_types is None  # Sultan hears every draw
    assert Extensions([]).draw_types is None
    now = [_report(t) for t in (BAZARS, BAZARS_CUT)]
    assert "BAZAAR-ASIDE" in now[1] and "BAZAAR-ASIDE" not in now[0]
    told: list[object] = []
    draw = BazareModule.market_draw

    def counted(self: Any, state: Any, field: int, piece: object, pos: Any) -> str | None:
        told.append(piece)
        mine = repr(self.data(state))
        got = draw(self, state, field, piece, pos)
        if type(piece) is not Bazaar:  # the promise: nothing changed, no answer
            assert got is None and repr(self.data(state)) == mine
        return got

    monkeypatch.setattr(BazareModule, "market_draw", counted)
    monkeypatch.setitem(MODULES, "bazare", _EveryDraw)
    assert [_report(t) for t in (BAZARS, BAZARS_CUT)] == now
    assert any(type(p) is not Bazaar for p in told)  # base tiles were told (and left alone)


def test_bazars_kept_per_spelling_equal_fresh_ones() -> None:
    for name in ("DuPSA", "DiSCTw", "GuPSAx", "DePCTn"):
        got = parse_bazaar(name)
        face = _face(name)
        assert not isinstance(got, str) and got is not None
        assert not isinstance(face, str) and face is not None
        cur, colours, walls = got
        assert face[4] == Bazaar(cur, colours, walls if walls is not None else frozenset())
        assert _face(name)[4] is face[4]  # type: ignore[index]
    assert BazareModule().tower_components() == BazareModule().tower_components()
