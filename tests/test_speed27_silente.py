"""Issue 34, twenty-fifth step (helper silente): silent Die Menagerie.

The module's steps changed for speed, each held here to main 19d44a2's version of the same
steps (kept below in ``_Main``, the general paths) on records where the module acts: its
example (animals drawn, bought, moved, carried to the reserve), a base game with the module
enabled (its silent case), simulated games of the module alone and beside Handwerker (market
swaps, turned tiles), the market-swap records of ``test_module_menagerie_market_swap.py`` and
the example with its ``* animals`` lines spelled otherwise (codes in other cases, animals with
a leading zero, out of range, in capitals):

* ``after_plain_purchase``: a catalogue building that is no garden, bought from a field
  without animals, leaves the part alone (the market animals' follow left to the next access);
* ``at_moment`` and ``animals_of`` do not sync a player found settled at his holdings' notice
  with no bought garden waiting;
* ``_market`` and ``_draw`` read field codes and animals as mostly written by one look-up;
* ``idle_at`` tests a turn's end first; the module keeps no answer at a turn's end
  (``kept_idle``: the turn's start only);
* ``_onto_cell`` finds a bought garden's cell in C when every piece is a catalogue tile but
  the fountain.

The reports, the module's part and its view at every game's end must be main's; every answer
of ``idle_at``, every purchase hook's change and every cell found must be main's, call by call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.catalogue import Currency, TileKind
from referee.engine.extensions import MODULES, acts_at
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.geometry.grid import FOUNTAIN, TICKS
from referee.modules.base import printed_piece, token_text
from referee.modules.menagerie import (
    _ABSENT,
    _GARDEN,
    _TURN_END,
    _TURN_START,
    KIND,
    AnimalScratch,
    Menagerie,
    _is_garden,
    in_play,
    parse_animal,
    per_garden,
    per_kind,
)
from referee.record.model import ComponentRef, Coord, GenericArg, Pos
from referee.simulate import simulate_many

ROOT = Path(__file__).resolve().parents[1]
_BASE = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")
_EXAMPLE = (ROOT / "examples" / "module-menagerie.alh").read_text(encoding="utf-8")

_SWAP = """[Players "Anna, Ben, Cem"]
[Modules "handwerker, menagerie"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  animals Gu an:1 an:2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Di9
    craftsmen hw:moertelmischer hw:schreiner
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:goldschmied hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
"""
_SWAPS = (
    "1. Anna: moertelmischer Gu Di, take Gu4, handover hw:moertelmischer\n"
    "* display Gu3\n"
    "2. Ben: take Di3, handover hw:goldschmied\n",
    "1. Anna: moertelmischer Gu Di, buy Di G11 pay Di9 Di2, place G11@0,1, "
    "handover hw:moertelmischer\n",
    "1. Anna: moertelmischer Gu Di, buy Gu T11n pay Gu4, place T11n@0,1, "
    "handover hw:moertelmischer\n",
)


def _respelled(text: str) -> str:
    """The example with its ``* animals`` lines spelled otherwise: field codes in lower and
    upper case, an animal with a leading zero, one in capitals, one out of range."""
    out: list[str] = []
    n = 0
    for line in text.splitlines():
        if line.startswith("* animals "):
            words = line.split()
            field = words[2]
            words[2] = (field.lower(), field.upper(), field)[n % 3]
            if n % 4 == 1:
                words[3] = words[3].replace("an:", "an:0")
            elif n % 4 == 2:
                words[3] = words[3].replace("an:", "AN:")
            elif n % 4 == 3:
                words[-1] = "an:9"
            n += 1
            line = " ".join(words)
        out.append(line)
    assert n > 4
    return "\n".join(out) + "\n"


def _texts() -> list[str]:
    silent = _BASE.replace("[Players", '[Modules "menagerie"]\n[Players', 1)
    sims = [
        *simulate_many(3, 27051, 2, modules=("menagerie",)),
        *simulate_many(4, 27052, 2, modules=("menagerie", "handwerker")),
    ]
    return [_EXAMPLE, _respelled(_EXAMPLE), silent, *sims, *(_SWAP + body for body in _SWAPS)]


_TEXTS: list[str] = []


def _all_texts() -> list[str]:
    if not _TEXTS:
        _TEXTS.extend(_texts())
    return _TEXTS


def _outcome(text: str) -> tuple[str, Any, Any]:
    """The report, the module's part and the module's view at the game's end."""
    from referee.api import check_game, parse_game

    rep = check_game(parse_game(text))
    state = rep.state
    assert state is not None
    part = state.modules.get("menagerie")
    return repr(rep), part, state.ext.views(state)


class _Main(Menagerie):
    """Die Menagerie with main 19d44a2's steps (the general paths)."""

    kept_idle = frozenset({Moment.TURN_START, Moment.TURN_END})

    def animals_of(self, state: GameState, player: PlayerState) -> dict[Coord, list[int]]:
        """The animals in ``player``'s Alhambra by cell (reserve tiles built again bring
        theirs along)."""
        data = self.data(state)  # (taken once: _sync moves no market animals)
        self._sync(state, player, final=False, data=data)
        mine: dict[Coord, list[int]] = data.on_tiles.get(player.name, {})
        return mine

    @staticmethod
    def _onto_cell(
        player: PlayerState, mine: dict[Coord, list[int]], piece: object, held: list[int]
    ) -> bool:
        alh = player.alhambra
        target = printed_piece(piece)
        for c, q in alh.items():  # (a garden turned by Handwerker's Mosaikleger: by its tile)
            if c in mine:
                continue
            # a catalogue tile (the fountain) is its own whole piece and its own printed piece
            # (no calls);
            # anything else (a part of a two-cell piece, a turned tile, a module's piece) is
            # taken as a whole and as printed
            printed = q if type(q) is TileKind or q is FOUNTAIN else printed_piece(alh.piece_at(c))
            if printed == target:
                mine[c] = list(held)
                return True
        return False

    def _market(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, position: bool
    ) -> None:
        data = self.data(state)
        groups: list[tuple[GenericArg, list[GenericArg]]] = []
        for arg in args:
            # (a component, ``an:3``, is never a field's code: no look-up, which would spell
            # the component out first)
            if type(arg.value) is not ComponentRef and Currency.of_code(arg.value) is not None:
                groups.append((arg, []))
            elif groups:
                groups[-1][1].append(arg)
            else:
                state.flag("MENAGERIE-DRAW", arg.pos or pos, reason="form", field="?")
                return
        data.idle_start = None  # (_unkept: fields get animals, the answer is worked out again)
        for where, what in groups:
            cur = Currency.of_code(where.value)
            assert cur is not None
            wpos = where.pos or pos
            slot = cur.field - 1
            tile = state.market[slot] if 0 <= slot < len(state.market) else None
            if not _is_garden(tile):
                shown = "-" if tile is None else str(tile)
                state.flag("MENAGERIE-DRAW", wpos, reason="no-garden", field=cur.code, tile=shown)
                continue
            held = data.on_market.get(slot)
            if held:
                state.flag(
                    "MENAGERIE-DRAW",
                    wpos,
                    reason="has-animals",
                    field=cur.code,
                    held=" ".join(f"{KIND}:{k}" for k in held),
                )
                continue
            got = self._draw(state, what, wpos, data)
            if len(what) != per_garden():
                state.flag("MENAGERIE-DRAW", wpos, reason="count", field=cur.code, n=len(what))
            data.on_market[slot] = got
            data.under[slot] = tile

    def _draw(
        self,
        state: GameState,
        args: list[GenericArg],
        pos: Pos,
        data: AnimalScratch | None = None,
    ) -> list[int]:
        """Animals that leave the face-down supply, checked against it (``data``: the
        module's state just taken)."""
        if data is None:
            data = self.data(state)
        out: list[int] = []
        for arg in args:
            apos = arg.pos or pos
            k = parse_animal(arg.value)
            # (the token's text for a finding only: made where one is reported)
            if k is None:
                state.flag("MENAGERIE-TOKEN", apos, token=token_text(arg.value))
                continue
            if data.drawn[k] >= per_kind():
                token = token_text(arg.value)
                state.flag("MENAGERIE-SUPPLY", apos, reason="kind-out", token=token)
                continue
            if sum(data.drawn.values()) >= in_play():
                token = token_text(arg.value)
                state.flag("MENAGERIE-SUPPLY", apos, reason="all-out", token=token)
                continue
            data.drawn[k] += 1
            data.idle_start = None  # (the supply changed: see _unkept)
            out.append(k)
        return out

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass."""
        data = self.data(state)
        slot, tile = buy.slot, buy.tile
        under = data.under
        if under.get(slot) is not tile:  # (else _slot_of's answer: the field itself)
            # _slot_of (kit field_under), inline: the same tests, without its three calls
            carried = getattr(tile, "carried_tile", None)
            here = under.get(slot, _ABSENT)
            if here is _ABSENT or not (here == tile or (carried is not None and here == carried)):
                held_on = data.on_market
                for s, t in under.items():
                    if (t == tile or (carried is not None and t == carried)) and s in held_on:
                        slot = s
                        break
        held = data.on_market.pop(slot, None)
        data.under.pop(slot, None)
        data.idle_start = None  # (see _unkept)
        if held:
            data.pending.setdefault(buy.player.name, []).append((buy.tile, held))

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Whether :meth:`at_moment` would change nothing: the market animals lie where their
        gardens lie (:meth:`data` has nothing to follow), and at a turn's start every garden on
        the market has its animals (or nothing is checked, or the supply is out: nothing to
        report); at a turn's end every player's animals are settled (:meth:`_sync` has nothing
        to do: his part exists, no bought garden waits, each carried garden is still in his
        reserve, each cell with animals still holds a tile). The module's part must exist.

        A yes at a turn's start while checking is kept (``idle_start``: a copy of the market):
        the answer reads the market and the module's part, and every step changing the part
        drops it (:func:`_unkept`), so while the market holds the same pieces it stands."""
        data: AnimalScratch | None = state.modules.get(self.name)
        if data is None:
            return False
        market = state.market
        held = data.on_market
        under = data.under
        # at a turn's end, a market equal to the copy kept at a yes (``idle_start``, dropped by
        # every step changing the fields' animals or the gardens under them) still has every
        # garden with animals where it was: no walk
        kept = data.idle_start
        if under and (moment is not _TURN_END or kept is None or kept != market):
            n = len(market)
            for slot, tile in under.items():
                if slot in held and (slot >= n or market[slot] != tile):
                    return False  # (a garden that moved or left: the step runs)
        if moment is _TURN_START:
            if not state.checking:
                return True
            if sum(data.drawn.values()) < in_play():
                for slot, piece in enumerate(market):
                    if slot not in held and getattr(piece, "type", None) is _GARDEN:
                        return False
            data.idle_start = market.copy()  # (kept: see above)
            return True
        if moment is not _TURN_END:
            return False
        pending = data.pending
        if pending and any(pending.values()):  # (a bought garden waits: _sync places it)
            return False
        if data.settled_at == TICKS.n:  # (nothing changed since all were found settled)
            return True
        on_tiles = data.on_tiles
        carried = data.carried
        settled = data.settled
        for p in state.players:
            name = p.name
            notice = (p.reserve_version, p.alhambra.version)
            if settled.get(name) == notice:
                continue  # (found settled at this notice, his entries unchanged since)
            mine = on_tiles.get(name)
            keep = carried.get(name)
            if mine is None or keep is None:
                return False
            # (a cell's tile left: no piece is None in an Alhambra's cells)
            if mine and not mine.keys() <= p.alhambra.cells.keys():
                return False
            if keep:  # each carried garden still in the reserve (rebuilt keeps it carried)
                if len(keep) == 1 and keep[0][0] in p.reserve:
                    continue  # (the very piece, or an equal one: the same printed piece)
                reserve = [printed_piece(x) for x in p.reserve]
                for item in keep:
                    piece = printed_piece(item[0])
                    if piece not in reserve:
                        return False
                    reserve.remove(piece)
            settled[name] = notice
        data.settled_at = TICKS.n
        return True

    @acts_at(
        Moment.TURN_START,
        Moment.TURN_END,
        Moment.SCORING_BEFORE,
        Moment.LEFTOVERS_BEFORE,
        Moment.LEFTOVERS_DONE,
    )
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        # (the kit's step acts at the setup's end only, where this one is not registered)
        state = ctx.state
        data = self.data(state)
        data.idle_start = None  # (_unkept: the step may change the fields' animals)
        if moment in (Moment.TURN_END, Moment.LEFTOVERS_BEFORE, Moment.SCORING_BEFORE):
            for p in state.players:
                self._sync(state, p, final=True, data=data)
        if moment == Moment.LEFTOVERS_DONE:
            # a garden handed out from the market at the end is not bought ("Die Tiere werden
            # zusammen mit dem Garten gekauft", L3443-3444; the text is silent on the
            # distribution): its animals go back to the box
            for slot in [s for s in data.on_market if not _is_garden(state.market[s])]:
                data.gone.extend(data.on_market.pop(slot))
                data.under.pop(slot, None)
        if moment == Moment.TURN_START and state.checking:
            if sum(data.drawn.values()) >= in_play():
                return
            for slot, tile in enumerate(state.market):
                if _is_garden(tile) and slot not in data.on_market:
                    where = ctx.pos if ctx.pos is not None else state.turn.pos
                    state.flag(
                        "MENAGERIE-MISSING",
                        where,
                        tile=str(tile),
                        field=Currency.of_field(slot + 1).code,
                    )
                    data.on_market[slot] = []  # reported once
                    data.under[slot] = tile


def _run(monkeypatch: Any, cls: type) -> list[tuple[str, Any, Any]]:
    monkeypatch.setitem(MODULES, "menagerie", cls)
    return [_outcome(t) for t in _all_texts()]


def test_reports_parts_and_views_are_mains(monkeypatch: Any) -> None:
    """Every report, the module's part and its view at each game's end: main's."""
    main = _run(monkeypatch, _Main)
    now = _run(monkeypatch, Menagerie)
    assert len(now) == len(main)
    for (rep_a, part_a, view_a), (rep_b, part_b, view_b) in zip(main, now, strict=True):
        assert rep_b == rep_a
        assert part_b == part_a
        assert view_b == view_a
    # the respelled lines are read (a code in any case, ``an:03``, ``AN:3``) or reported
    # (``an:9``: no animal) as main reads them
    assert "MENAGERIE-TOKEN" in now[1][0]
    # the module acted: animals drawn, bought and laid in most games
    assert sum(1 for _r, part, _v in now if part is not None and part.on_tiles) >= 6


def _copied(state: GameState) -> AnimalScratch:
    part: AnimalScratch = state.modules["menagerie"]
    return part.copy()  # type: ignore[return-value]


def _same_part(a: AnimalScratch, b: AnimalScratch) -> None:
    assert a == b
    assert a.idle_start == b.idle_start
    assert a.settled == b.settled


def test_every_answer_and_hook_is_mains_call_by_call(monkeypatch: Any) -> None:
    """``idle_at``'s answers (and the notes it keeps), ``after_plain_purchase``'s change of
    the part (the follow it leaves to the next access made on both) and the cells
    ``_onto_cell`` finds, each against main's on a copy of the part."""
    seen = {"start": 0, "end": 0, "quick": 0, "hook": 0, "cells": 0, "fast cells": 0}

    class _Both(Menagerie):
        def _twice(self, state: GameState, run_main: Any, run_now: Any) -> tuple[Any, ...]:
            """Main's step on a copy of the part, then this one's on the part itself: both
            answers and both parts."""
            part: AnimalScratch = state.modules["menagerie"]
            state.modules["menagerie"] = part.copy()
            try:
                got_main = run_main()
                part_main = state.modules["menagerie"]
            finally:
                state.modules["menagerie"] = part
            got_now = run_now()
            return got_main, part_main, got_now, state.modules["menagerie"]

        def idle_at(self, state: GameState, moment: Any) -> bool:
            if state.modules.get("menagerie") is None:
                return Menagerie.idle_at(self, state, moment)
            got_main, part_main, got_now, part_now = self._twice(
                state,
                lambda: _Main.idle_at(self, state, moment),
                lambda: Menagerie.idle_at(self, state, moment),
            )
            assert got_now == got_main
            _same_part(part_now, part_main)
            seen["start" if moment is _TURN_START else "end"] += 1
            return bool(got_now)

        def after_plain_purchase(self, state: GameState, buy: Any) -> None:
            part = state.modules.get("menagerie")
            if part is None:
                Menagerie.after_plain_purchase(self, state, buy)
                return
            quick = (
                type(buy.tile) is TileKind
                and buy.tile.type is not _GARDEN
                and buy.slot not in part.on_market
            )
            _g, part_main, _n, part_now = self._twice(
                state,
                lambda: _Main.after_plain_purchase(self, state, buy),
                lambda: Menagerie.after_plain_purchase(self, state, buy),
            )
            # the market animals' follow, left to the next access by the quick path, made on
            # both (``data`` follows)
            state.modules["menagerie"] = part_main
            Menagerie.data(self, state)
            state.modules["menagerie"] = part_now
            Menagerie.data(self, state)
            _same_part(part_now, part_main)
            seen["quick" if quick else "hook"] += 1

        @staticmethod
        def _onto_cell(
            player: PlayerState, mine: dict[Coord, list[int]], piece: object, held: list[int]
        ) -> bool:
            other = {c: list(v) for c, v in mine.items()}
            got_main = _Main._onto_cell(player, other, piece, held)
            got_now = Menagerie._onto_cell(player, mine, piece, held)
            assert got_now == got_main
            assert mine == other
            seen["cells"] += 1
            if type(printed_piece(piece)) is TileKind and all(
                type(q) is TileKind or q is FOUNTAIN for q in player.alhambra.cells.values()
            ):
                seen["fast cells"] += 1
            return got_now

    _run(monkeypatch, _Both)
    assert seen["start"] > 50 and seen["end"] > 100, seen
    assert seen["quick"] > 30 and seen["hook"] > 5, seen
    assert seen["cells"] > 10 and seen["fast cells"] > 5, seen


def test_the_turn_end_is_asked_not_read() -> None:
    """The module keeps its answer at a turn's start only; alone in a game, the engine reads
    it there (``start_solo``) and asks ``idle_at`` at a turn's end (``end_idle``)."""
    from referee.api import check_game, parse_game

    assert Menagerie.kept_idle == frozenset({Moment.TURN_START})
    silent = _BASE.replace("[Players", '[Modules "menagerie"]\n[Players', 1)
    state = check_game(parse_game(silent)).state
    assert state is not None
    ext = state.ext
    assert ext.start_solo is not None and ext.start_solo[0] == "menagerie"
    assert ext.end_solo is None and ext.read_end is None
    assert [m.name for m in ext.end_idle] == ["menagerie"]


def test_a_cell_with_animals_already_is_passed_over_as_main_does() -> None:
    """``_onto_cell`` on a garden whose cell has animals already (the C search then hands
    over to the loop) and on a tile in nobody's Alhambra (no cell): main's answers."""
    from referee.api import check_game, parse_game

    state = check_game(parse_game(_EXAMPLE)).state
    assert state is not None
    tried = 0
    for p in state.players:
        for c, q in p.alhambra.cells.items():
            if not _is_garden(q):
                continue
            for mine in ({c: [1]}, {}):
                other = {k: list(v) for k, v in mine.items()}
                got = Menagerie._onto_cell(p, mine, q, [3, 3])
                assert got == _Main._onto_cell(p, other, q, [3, 3])
                assert mine == other
                tried += 1
    assert tried >= 4
    loose = next(t for t in state.market if isinstance(t, TileKind))
    p = state.players[0]
    assert Menagerie._onto_cell(p, {}, loose, [1]) is _Main._onto_cell(p, {}, loose, [1])
