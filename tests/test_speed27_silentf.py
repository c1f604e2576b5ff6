"""Issue 34, twenty-fifth step (helper "silentf"): silent Die Künste der Mauren, Die Wünsche des
Kalifen and Der Schlüssel zum Tor cheaper without a verdict changed (bench/README.md, "Issue 34,
twenty-fifth step: silent Mauren, Wünsche, Schlüssel").

- Mauren: a turn's end leaves out, without building his pair, a player with no change since
  everybody was found up to date (``CultureScratch.seen``). The reports are those of a Mauren
  without the shortcut.
- Wünsche: the final scoring's task lines (``_task_line``) are :func:`score_task`'s answers; a
  breakdown text read as a ``%`` text gives ``str.format``'s text; the queries' cell sets,
  building types, double walls and walk without a call per cell give the general answers.
- Schlüssel: no scoring category while nobody has a half building, a plaza or bonus points
  (what ``check`` writes is the same as with the empty line); the purchase question is not
  asked inside a turn (``Module.leaves_plain_purchases_in_turn``), where it answers yes, and
  the reports are those of asking it at every purchase.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from referee.engine.extensions import MODULES, Module
from referee.geometry import queries as q
from referee.modules import wuensche as wu
from referee.modules.mauren import Mauren
from referee.modules.schluessel import Schluessel
from referee.record.model import Coord
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine
from referee.simulate import simulate_many

ROOT = Path(__file__).resolve().parents[1]
_BASE = (ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8")


def _with(name: str) -> str:
    return _BASE.replace("[Players", f'[Modules "{name}"]\n[Players', 1)


def _example(name: str) -> str:
    return (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")


def _report(text: str) -> str:
    from referee.api import check_game, parse_game

    return repr(check_game(parse_game(text)))


def _output(text: str, tmp: Path) -> str:
    """What ``check`` writes for the game: text in English and German, and JSON."""
    from referee.commands.check import _check_job, _jobs, _Options

    path = tmp / "game.alh"
    path.write_text(text, encoding="utf-8")
    out = []
    for fmt, lang in (("text", "en"), ("text", "de"), ("json", "en")):
        for job in _jobs((str(path),)):
            done = _check_job(job, _Options(None, False, fmt, lang, True))
            data = json.dumps(done.data, sort_keys=True, default=str, ensure_ascii=False)
            out.append(f"{done.text if fmt == 'text' else data}\n{done.valid} {done.codes}")
    return "\n".join(out)


# ----------------------------------------------------------------------------- Mauren


class _FormerMauren(Mauren):
    """Mauren without the ``seen`` shortcut (every player's pair compared at a turn's end)."""

    def idle_at(self, state: Any, moment: Any) -> bool:
        data = state.modules.get(self.name)
        if data is not None:
            data.seen = -1
        return super().idle_at(state, moment)

    def at_moment(self, ctx: Any, moment: Any) -> None:
        data = ctx.state.modules.get(self.name)
        if data is not None:
            data.seen = -1
        super().at_moment(ctx, moment)


class _CheckedMauren(Mauren):
    """Mauren checking, before each step and question, that every player the shortcut would
    pass over (both numbers at most ``seen``) has his pair as his note."""

    passed: ClassVar[list[int]] = [0]

    def _check(self, state: Any) -> None:
        data = state.modules.get(self.name)
        if data is None or data.seen < 0:
            return
        for p in state.players:
            if p.reserve_version <= data.seen and p.alhambra.version <= data.seen:
                assert data.synced.get(p.name) == (p.reserve_version, p.alhambra.version)
                self.passed[0] += 1

    def idle_at(self, state: Any, moment: Any) -> bool:
        self._check(state)
        return super().idle_at(state, moment)

    def at_moment(self, ctx: Any, moment: Any) -> None:
        self._check(ctx.state)
        super().at_moment(ctx, moment)


def _mauren_texts() -> list[str]:
    sims = list(simulate_many(4, 2725, 1, modules=("mauren", "wesir", "sultan")))
    sims += list(simulate_many(3, 2726, 1, modules=("mauren", "handwerker")))
    return [_example("mauren"), _with("mauren"), *sims]


def test_mauren_reports_are_those_without_the_shortcut(monkeypatch: Any) -> None:
    texts = _mauren_texts()
    syncs = [0]
    sync = Mauren._sync

    def counted(self: Mauren, state: Any, player: Any) -> None:
        syncs[0] += 1
        sync(self, state, player)

    monkeypatch.setattr(Mauren, "_sync", counted)
    now = [_report(t) for t in texts]
    assert syncs[0] > 50
    monkeypatch.setattr(Mauren, "_sync", sync)
    monkeypatch.setitem(MODULES, "mauren", _FormerMauren)
    assert [_report(t) for t in texts] == now
    monkeypatch.setitem(MODULES, "mauren", _CheckedMauren)
    assert [_report(t) for t in texts] == now
    assert _CheckedMauren.passed[0] > 100


# ----------------------------------------------------------------------------- Wünsche


def _final_alhambras() -> list[Any]:
    from referee.api import parse_game
    from referee.engine import check_game

    out = []
    texts = [_example("wuensche"), _BASE]
    texts += list(simulate_many(4, 2727, 2, modules=("wuensche", "mauern")))
    for text in texts:
        state = check_game(parse_game(text)).state
        assert state is not None
        out += [p.alhambra for p in state.players if p.alhambra is not None]
    return out


SETTINGS = [
    {},
    {"fountain": "building", "rows": "run", "pairs": "disjoint", "task5": "line"},
    {"path": "fly", "pathcount": "tiles", "wall2": "piece"},
]


def test_wuensche_task_lines_are_score_task() -> None:
    for alh in _final_alhambras():
        for settings in SETTINGS:
            opt = {**wu.DEFAULTS, **settings}
            for mode, points in (("trail", "edge"), ("trail", "tile")):
                for n in wu.TASKS:
                    r = wu.score_task(n, alh, settings, mode, points)
                    assert wu._task_line(n, alh, opt, mode, points) == (r.points, r.en, r.de)


@pytest.mark.parametrize(
    "text",
    [
        "{count} {unit} × {pts}{where}",
        "100% {count}: {points}",
        "{{count}} {where} %s {pts}",
        "{count!r} {unit}",
        "{count:>3} {unit}",
        "{other} {unit}",
        "nothing to fill",
    ],
)
def test_a_percent_text_is_the_format_text(text: str) -> None:
    form = wu._percent_form(text)
    for values in ((0, "rows", 3, 0, ""), (1, "Paar", 2, 2, " (y = 1, 2)"), (7, "%s", 1, 7, "%")):
        want = None
        try:
            want = text.format(**dict(zip(wu._FIELDS, values, strict=True)))
        except (KeyError, ValueError):
            assert form is None
            continue
        if form is None:  # (left to str.format: a conversion, a spec, no field)
            continue
        assert form[0] % form[1](values) == want


def test_every_bundled_task_text_has_a_percent_form() -> None:
    for n in wu.TASKS:
        for key in ["text"] + (["text_line"] if "text_line" in wu.task_data(n) else []):
            for _lang, _units, _text, form in wu._task_texts(n, key):
                assert form is not None


def test_queries_fast_paths_are_the_general_answers() -> None:
    from referee.geometry.queries import (
        _cells,
        _double_walls_general,
        _plain,
        _walked_general,
        _walked_plain,
    )

    asked = 0
    for alh in _final_alhambras():

        def standard(at: Any, piece: Any) -> bool:
            return q.standard_building(at, piece)

        def building(at: Any, piece: Any) -> bool:
            return q.is_building(at, piece)

        assert _cells(alh, q.standard_building) == _cells(alh, standard)
        assert q.building_types(alh) == q.building_types(alh, building)
        assert q.same_type_pairs(alh, wu._standard) == q.same_type_pairs(alh, standard)
        for member in (q.building_or_fountain, q.is_building):
            # the first longest run in reading order, north-east before south-east
            best = None
            for direction in ("ne", "se"):
                for run in q.runs(alh, direction, member):
                    if best is None or run.length > best.length:
                        best = run
            assert q.longest_diagonal(alh, member) == best
        geo = _plain(alh)
        if geo is not None:
            asked += 1
            assert q.double_walls(alh) == _double_walls_general(alh)
            # (the same parents, found in the same order: N, E, S, W from each cell)
            assert list(_walked_plain(geo).items()) == list(_walked_general(alh, True).items())
            assert all(type(c) is Coord for c in _walked_plain(geo))
    assert asked > 5


# ----------------------------------------------------------------------------- Schlüssel


class _AlwaysKeysLine(Schluessel):
    """Schlüssel adding its "keys" category at every scoring, as before this step (with
    nothing to score, the line answers None for everybody, as the former one did)."""

    def scoring_parts(self, state: Any, round_no: int) -> Any:
        got = super().scoring_parts(state, round_no)
        if got is not None:
            return got
        line = PointLine(
            "keys",
            "key bonus points",
            "Schlüssel-Siegpunkte",
            "Michael Rieneck: Der Schlüssel zum Tor",
            lambda p: None,
            order=660,
        )
        return ScoringParts({}, (line,))


def _schluessel_texts() -> list[str]:
    silent = _with("schluessel")
    claimed = silent.replace("scoring 3: Anna =98,", "scoring 3: Anna =98 (keys=2),", 1)
    sims = list(simulate_many(3, 2728, 2, modules=("schluessel",)))
    sims += list(simulate_many(4, 2729, 1, modules=("schluessel", "wesir")))
    return [_example("schluessel"), silent, claimed, *sims]


def test_schluessel_written_output_is_that_of_the_empty_line(
    monkeypatch: Any, tmp_path: Path
) -> None:
    texts = _schluessel_texts()
    assert "(keys=2)" in texts[2]
    now = [_output(t, tmp_path) for t in texts]
    monkeypatch.setitem(MODULES, "schluessel", _AlwaysKeysLine)
    assert [_output(t, tmp_path) for t in texts] == now


class _AskedAlways(Schluessel):
    """Schlüssel asked at every plain purchase (no promise), noting each answer."""

    leaves_plain_purchases_in_turn = False
    answers: ClassVar[list[tuple[bool, bool]]] = []

    def leaves_plain_purchase(self, state: Any, player: Any, field: int) -> bool:
        got = super().leaves_plain_purchase(state, player, field)
        t = state.turn
        self.answers.append((t is not None and t.interrupt is None, got))
        return got


class _Promising(_AskedAlways):
    leaves_plain_purchases_in_turn = True
    answers: ClassVar[list[tuple[bool, bool]]] = []


def test_schluessel_is_asked_only_inside_an_interrupt(monkeypatch: Any) -> None:
    texts = _schluessel_texts()
    monkeypatch.setitem(MODULES, "schluessel", _AskedAlways)
    before = [_report(t) for t in texts]
    in_turn = [got for turn, got in _AskedAlways.answers if turn]
    assert len(in_turn) > 20 and all(in_turn)  # the promise: yes at every one of them
    monkeypatch.setitem(MODULES, "schluessel", _Promising)
    assert [_report(t) for t in texts] == before
    # with the promise, a plain purchase inside a turn asks it once at most (the first, while
    # the askers are not known yet) per game
    assert sum(1 for turn, _got in _Promising.answers if turn) <= len(texts)


def test_the_in_turn_promise_is_not_inherited_by_a_method() -> None:
    assert Module.leaves_plain_purchases_in_turn is False
    assert Schluessel.leaves_plain_purchases_in_turn is True

    class Own(Schluessel):
        def leaves_plain_purchase(self, state: Any, player: Any, field: int) -> bool:
            return False

    assert Own.leaves_plain_purchases_in_turn is False
    assert _Promising.leaves_plain_purchases_in_turn is True
