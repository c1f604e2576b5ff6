"""first22, the twentieth step of issue 34.

* ``Extensions.component_purchases``: what the one-pass purchases of a module's piece or with
  a module's components ask of the modules taking part, kept per game, equals the questions
  as they were asked at every purchase (the promises read module by module).
* Wesir: a vizier line of one purchase and its placement has nothing to report besides them
  (``_line_findings`` answers ``{}``, which ``_use`` now takes without asking); a line naming
  nobody else has no contest.
* Obstgärten: ``_all_fruited`` and ``_missing`` look only at the fields without a fruit
  stated: the same answers and findings as the look at every field.
* Bauland: at a turn's end with every loose plot on the market, ``_unbuilt``'s look is left
  out (it would report nothing): the same findings as with the look taken every time.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import Currency, TileKind, catalogue
from referee.engine import check_game
from referee.engine.actions.purchase import _ON_PURCHASE, _PLAIN_DECISIONS
from referee.engine.extensions import Extensions, Module
from referee.modules import bauland, discover, obstgaerten
from referee.modules.obstgaerten import KINDS, PER_KIND, OrchardScratch
from referee.modules.wesir import USE_VERB, Wesir
from referee.notation import parse_text
from referee.record.model import NOWHERE, Buy, Give, ModuleAction, Place, Reserve
from referee.simulate import simulate_many
from tests.test_speed13_dispatch import _outcome, _read

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _asked_as_before(ext: Extensions) -> None:
    takers = ext.taking_part(_PLAIN_DECISIONS, _ON_PURCHASE)
    kept = ext.component_purchases()
    assert kept is ext.component_purchases()  # once a game
    assert kept[0] == takers
    assert kept[1] == tuple(
        m for m in takers if not (m.purchases_by_components or m.hears_component_purchases)
    )
    assert kept[2] == tuple(m for m in ext.after_plain if not m.hears_component_purchases)
    assert kept[3] == ext.overriding("plain_components")
    assert kept[4] == ext.overriding("plain_currencies")
    # the modules left out of the question answer yes: the default question with the promise
    for m in takers:
        if m not in kept[5]:
            assert type(m).leaves_plain_purchase is Module.leaves_plain_purchase
            assert m.leaves_plain_purchases is True


def test_component_answers_are_the_questions_of_every_purchase() -> None:
    _asked_as_before(Extensions())
    names = [cls.name for cls in discover()]
    for name in names:
        _asked_as_before(Extensions([name]))
    _asked_as_before(Extensions(names))
    rng = random.Random(22)
    for _ in range(30):
        _asked_as_before(Extensions(rng.sample(names, rng.randint(2, 8))))
    # after a swap of the modules (modules_changed), worked out again
    ext = Extensions(["schaetze", "wechselscheine"])
    before = ext.component_purchases()
    ext.modules.pop()
    ext.modules_changed()
    assert ext.component_purchases() is not before
    _asked_as_before(ext)


def _vizier_lines(text: str) -> list[tuple[Any, Any, Any]]:
    """(state, player, line) of each vizier line of one purchase and its placement."""
    out = []
    for game in parse_text(text):
        state = check_game(game).state
        assert state is not None
        for turn in game.body:
            acts = getattr(turn, "actions", None)
            if not acts or not isinstance(acts[0], ModuleAction):
                continue
            if acts[0].verb.lower() not in (USE_VERB, "wesir") or turn.player is None:
                continue
            player = state.player_named(turn.player.name)
            if player is not None:
                out.append((state, player, turn))
    return out


def test_a_vizier_line_of_a_purchase_and_its_placement_reports_nothing_else() -> None:
    texts = [(_EXAMPLES / "module-wesir.alh").read_text(encoding="utf-8")]
    texts += list(simulate_many(3, 2201, 3, modules=("wesir",)))
    wesir = Wesir()
    plain = 0
    for text in texts:
        for state, player, turn in _vizier_lines(text):
            acts = turn.actions
            one = (
                len(acts) == 3
                and isinstance(acts[1], Buy)
                and isinstance(acts[2], Place | Reserve | Give)
            )
            if one:
                plain += 1
                assert wesir._line_findings(state, player, turn) == {}
    assert plain > 5


def test_all_fruited_looks_as_at_every_field() -> None:
    tiles = list(catalogue().tiles[:12])
    rng = random.Random(2211)
    others: list[Any] = [None, "piece", object()]
    for _ in range(3000):
        n = rng.choice((0, 1, 3, 4, 4, 4))
        market: list[Any] = [
            rng.choice(tiles) if rng.random() < 0.6 else rng.choice(others) for _ in range(n)
        ]
        data = OrchardScratch()
        for slot in range(n):
            if rng.random() < 0.6:
                data.on_market[slot] = rng.choice((None, 1, 2, 3))
        if rng.random() < 0.3:
            data.on_market[n + 2] = 1  # (a field past the market's end)
        data.drawn = Counter({1: rng.choice((0, 5, KINDS * PER_KIND - 1, KINDS * PER_KIND))})
        want = sum(data.drawn.values()) >= KINDS * PER_KIND or all(
            not isinstance(t, TileKind) or slot in data.on_market for slot, t in enumerate(market)
        )
        assert obstgaerten._all_fruited(market, data) is want


def _missing_before(self: Any, state: Any, pos: Any, data: Any) -> None:
    """``Obstgaerten._missing`` as it was before this step (every field looked at once one
    lacks its fruit)."""
    on_market = data.on_market
    if on_market.keys() >= frozenset(range(len(state.market))):
        return
    if sum(data.drawn.values()) >= KINDS * PER_KIND:
        return
    for slot, tile in enumerate(state.market):
        if isinstance(tile, TileKind) and slot not in on_market:
            state.flag(
                "FRUIT-MISSING",
                pos or (state.turn.pos if state.turn is not None else NOWHERE),
                tile=tile.full_code,
                field=Currency.of_field(slot + 1).code,
            )
            data.on_market[slot] = None
            data.under[slot] = tile
            data.idle_start = None


@pytest.mark.parametrize("players", [2, 4])
def test_orchard_and_plot_looks_left_out_report_as_before(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games as checked now, and with Bauland's look at a turn's end taken every time and
    Obstgärten's ``_missing`` walking every field (as before this step): the same outcomes."""
    mods = ("bauland", "obstgaerten", "wesir", "baustellen", "schaetze")
    texts = list(simulate_many(players, 2230 + players, 3, modules=mods))
    for name in ("bauland", "obstgaerten"):
        texts.append((_EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8"))
    games = _read(texts)  # (read once, checked twice)
    now = [_outcome(t) for t in games]
    looks: list[int] = []
    unbuilt = bauland.Bauland._unbuilt

    def counted(self: Any, state: Any, ctx: Any) -> None:
        looks.append(1)
        unbuilt(self, state, ctx)

    monkeypatch.setattr(bauland, "_all_loose_on_market", lambda state, data: False)
    monkeypatch.setattr(bauland.Bauland, "_unbuilt", counted)
    monkeypatch.setattr(obstgaerten.Obstgaerten, "_missing", _missing_before)
    assert [_outcome(t) for t in games] == now
    assert len(looks) > 20


def _parts(parts: Any) -> tuple[Any, ...]:
    """A scoring's parts as compared here: a category made anew per call (its closures) by
    its class and key."""
    cats = [(type(c).__name__, getattr(c, "key", None)) for c in parts.categories]
    return (dict(parts.adjustments), cats, parts.table, parts.table_label)


def test_scoring_parts_are_the_sum_of_every_modules_parts() -> None:
    from referee.scoring.categories import NO_PARTS

    mods = ("plaetze", "baustellen", "medina", "bonuskarten", "angreifer", "obstgaerten")
    texts = list(simulate_many(3, 2240, 2, modules=mods))
    texts.append((_EXAMPLES / "module-baustellen.alh").read_text(encoding="utf-8"))
    added = 0
    for text in texts:
        for game in parse_text(text):
            state = check_game(game).state
            assert state is not None
            ext = state.ext
            for round_no in (1, 2, 3):
                want = NO_PARTS
                for m in ext.modules:
                    got = m.scoring_parts(state, round_no)
                    if got is not None:
                        want = want + got
                        added += 1
                got = ext.scoring_parts(state, round_no)
                assert _parts(got) == _parts(want)
    assert added > 10
    assert Extensions().scoring_parts(None, 1) is NO_PARTS  # type: ignore[arg-type]
