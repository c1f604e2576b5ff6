"""Issue 34, twenty-fourth step (helper silenta): silent Menagerie, Mauren and Schlüssel.

* Die Künste der Mauren finds a catalogue tile's price class without a call (the kept
  table's updater, the reserve's part of the count) and reads each tile's value once in a
  scoring's culture line: the count must be the one made afresh at every turn's end, the
  line what ``points`` and ``shows`` give.
* Die Menagerie finds a bought garden's cell without two calls per catalogue tile, looks for
  cells whose tile left only when one did, and spells out an animal token only for a finding:
  the reports must be those of the twenty-third step's lines. At a turn's end it leaves out
  the walk over the gardens with animals while the market equals the copy kept at the turn
  start's yes: its answers must be those with the walk.
* Der Schlüssel zum Tor names the building types its ``after_plain_purchase`` acts on
  (``Module.plain_purchase_types``: arcades); the one-pass purchase tells it of no other. The
  reports must be those of a Schlüssel told of every purchase, and it must still hear of the
  arcades.

Kept cheap: the modules' examples, one base example with the module enabled (its silent case)
and one simulated game of each module with Handwerker (market swaps, turned tiles).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.catalogue import BuildingType
from referee.engine.extensions import MODULES
from referee.engine.turns import Moment
from referee.modules.mauren import Mauren
from referee.modules.menagerie import Menagerie
from referee.modules.schluessel import Schluessel
from referee.simulate import simulate_many

ROOT = Path(__file__).resolve().parents[1]
_BASE = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")


def _texts(name: str) -> list[str]:
    """The module's example, a base game with the module enabled and a simulated game."""
    example = (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")
    silent = _BASE.replace("[Players", f'[Modules "{name}"]\n[Players', 1)
    sims = list(simulate_many(3, 2611 + len(name), 1, modules=(name, "handwerker")))
    return [example, silent, *sims]


def _report(text: str) -> str:
    from referee.api import check_game, parse_game

    return repr(check_game(parse_game(text)))


def _run(monkeypatch: Any, name: str, cls: type, texts: list[str]) -> list[str]:
    monkeypatch.setitem(MODULES, name, cls)
    return [_report(t) for t in texts]


def test_mauren_counts_and_culture_lines_are_the_general_ones(monkeypatch: Any) -> None:
    """The count with the catalogue tiles' class found inline (the kept table's updater, the
    reserve's part) is the count made afresh at every turn's end, and each scoring's culture
    line (each tile's value read once) is what ``points`` and ``shows`` give."""
    from referee.modules.mauren import _count, _counts

    texts = _texts("mauren")
    looked = [0, 0]

    class _Checked(Mauren):
        def at_moment(self, ctx: Any, moment: Moment) -> None:
            super().at_moment(ctx, moment)
            for typed in (False, True):
                for p in ctx.state.players:
                    whole = [*p.alhambra.cells.values(), *p.reserve]
                    assert _counts(p, typed) == _count(whole, typed)
                    looked[0] += 1

        def scoring_parts(self, state: Any, round_no: int) -> Any:
            parts = super().scoring_parts(state, round_no)
            (line,) = parts.categories
            for p in state.players:
                got = line.points(p)
                tiles = sorted(self.held(state, p).items())
                if not tiles:
                    assert got is None
                    continue
                detail = ", ".join(f"{c}: {self.shows(state, c, t)[0]}" for c, t in tiles)
                assert got == (self.points(state, p), detail, detail)
                looked[1] += 1
            return parts

    now = _run(monkeypatch, "mauren", _Checked, texts)
    assert now == _run(monkeypatch, "mauren", Mauren, texts)
    assert looked[0] > 100 and looked[1] > 5


def test_menagerie_places_and_checks_as_before(monkeypatch: Any) -> None:
    """The garden's cell found without a call per catalogue tile, the cells whose tile left
    looked for only when one did, the animal tokens not spelled out unless reported: the
    reports are those of the twenty-third step's lines."""
    from referee.modules.base import printed_piece

    texts = _texts("menagerie")
    placed = [0]

    class _Before(Menagerie):
        @staticmethod
        def _onto_cell(player: Any, mine: Any, piece: object, held: list[int]) -> bool:
            placed[0] += 1
            alh = player.alhambra
            for c, _q in alh.items():
                if c not in mine and printed_piece(alh.piece_at(c)) == printed_piece(piece):
                    mine[c] = list(held)
                    return True
            return False

    now = _run(monkeypatch, "menagerie", Menagerie, texts)
    before = _run(monkeypatch, "menagerie", _Before, texts)
    assert now == before
    assert placed[0] > 10  # (gardens with animals were built)
    assert "MENAGERIE" in now[0] or "animals" in now[0]


def test_menagerie_turn_end_answers_with_and_without_the_kept_market(monkeypatch: Any) -> None:
    """At a turn's end the walk over the gardens with animals is left out while the market
    equals the copy kept at the turn start's yes: every answer is the one with the walk."""
    texts = _texts("menagerie")
    fast: list[bool] = []
    slow: list[bool] = []
    skipped = [0]

    class _Fast(Menagerie):
        def idle_at(self, state: Any, moment: Any) -> bool:
            answer = super().idle_at(state, moment)
            if moment is Moment.TURN_END:
                data = state.modules.get(self.name)
                if data is not None and data.under and data.idle_start == state.market:
                    skipped[0] += 1
                fast.append(answer)
            return answer

    class _Walk(Menagerie):
        def idle_at(self, state: Any, moment: Any) -> bool:
            data = state.modules.get(self.name)
            if moment is not Moment.TURN_END or data is None:
                return super().idle_at(state, moment)
            kept = data.idle_start
            data.idle_start = None  # (the walk at every turn's end)
            try:
                answer = super().idle_at(state, moment)
            finally:
                data.idle_start = kept
            slow.append(answer)
            return answer

    now = _run(monkeypatch, "menagerie", _Fast, texts)
    before = _run(monkeypatch, "menagerie", _Walk, texts)
    assert now == before
    assert fast == slow and True in fast and False in fast
    assert skipped[0] > 20


def test_schluessel_told_of_arcades_only(monkeypatch: Any) -> None:
    texts = _texts("schluessel")
    told: list[object] = []
    everything: list[object] = []

    class _Promise(Schluessel):
        def after_plain_purchase(self, state: Any, buy: Any) -> None:
            told.append(getattr(buy.tile, "type", None))
            super().after_plain_purchase(state, buy)

    class _Everything(Schluessel):
        plain_purchase_types = None  # (told of every one-pass purchase)

        def after_plain_purchase(self, state: Any, buy: Any) -> None:
            everything.append(getattr(buy.tile, "type", None))
            super().after_plain_purchase(state, buy)

    now = _run(monkeypatch, "schluessel", _Promise, texts)
    before = _run(monkeypatch, "schluessel", _Everything, texts)
    assert now == before
    arcades = BuildingType.ARCADES
    assert told and set(told) == {arcades}  # (still hears of the arcades, of nothing else)
    assert told == [t for t in everything if t is arcades]
    assert len(everything) > 2 * len(told)


def test_the_promise_is_a_class_attribute() -> None:
    # the default tells a module of every one-pass purchase; Schlüssel names the arcades
    assert Mauren.plain_purchase_types is None and Menagerie.plain_purchase_types is None
    assert Schluessel.plain_purchase_types == frozenset({BuildingType.ARCADES})
