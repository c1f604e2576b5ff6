"""The fountain copies, deep-copies and pickles in both builds (issue 34, nineteenth step).

Compiled by mypyc, a frozen slots dataclass's ``__setstate__`` went through the refusing
``__setattr__``: ``copy.deepcopy(FOUNTAIN)`` raised ``FrozenInstanceError``, so copying the
state of a Stadttore or Schlüssel game whose module scratch holds the fountain failed in the
compiled build only (found by tests/test_position_roundtrip.py run against the compiled
install). Copied with the other tests to a folder without ``referee/``, this tests the
installed build.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import importlib.util
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.geometry.grid import FOUNTAIN, Fountain
from referee.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_fountain_is_its_own_copy_and_pickles_to_an_equal_one() -> None:
    assert copy.copy(FOUNTAIN) is FOUNTAIN
    assert copy.deepcopy(FOUNTAIN) is FOUNTAIN
    assert copy.deepcopy([FOUNTAIN, {"f": FOUNTAIN}]) == [FOUNTAIN, {"f": FOUNTAIN}]
    again = pickle.loads(pickle.dumps(FOUNTAIN))
    assert isinstance(again, Fountain) and again == FOUNTAIN
    assert str(again) == "fountain" and again.walls == frozenset() and again.type is None


def test_a_state_whose_module_scratch_holds_the_fountain_copies() -> None:
    from referee.engine.walk import At, state_at

    # seed 0 of each: the moments where the module's scratch holds the fountain (the
    # compiled build raised at the first copy of them)
    for module in ("stadttore", "schluessel"):
        game = simulate_game(3, 0, modules=(module,))
        last, _ = state_at(game, At("end"))
        state, _ = state_at(game, At("turn", max(1, last.turn_no // 2)))
        twin = state.copy()
        assert twin is not state and twin.turn_no == state.turn_no
        assert [p.score for p in twin.players] == [p.score for p in state.players]


# --------------------------------------------------------------------------- every frozen class
#
# Every frozen dataclass of a compiled module (setup.py's MYPYC_MODULES) and the ten hot record
# classes (native when record/model.py is listed; the other record classes are Python classes in
# both builds, ``interpreted_class``), built once each and copied, deep-copied and pickled
# round-trip (issue 34, twentieth step). A compiled module's frozen dataclass is a native class:
# what copies it there is not what copies it pure, so each one is tried.


def _samples() -> dict[str, Callable[[], object]]:
    """One way to build each class, by ``module.Class`` (values of each field's declared type,
    pickleable: no lambdas)."""
    from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
    from referee.engine.payment import Mix
    from referee.geometry.pieces import Footprint, Profile, SideKind
    from referee.record.model import Coord, Pos
    from referee.scoring.categories import LineScore
    from referee.scoring.core import ScoringRow

    card = MoneyCard(Currency.DENAR, 3)
    kind = catalogue().tiles[7]
    pos = Pos(2, 5)
    profile = Profile({Side.N: next(iter(SideKind))}, False, False, False)
    row = ScoringRow("Anna", False, {}, 4, {"x": ("X", "X")})
    names = ("k", "Label", "Etikett", "§ 1")
    return {
        "referee.geometry.walls.WallRun": lambda: _cls("referee.geometry.walls", "WallRun")(
            ((Coord(0, 0), Side.N),), False
        ),
        "referee.catalogue.components.MoneyCard": lambda: card,
        "referee.catalogue.components.TileKind": lambda: kind,
        "referee.catalogue.components.Catalogue": catalogue,
        "referee.engine.turns.Claim": lambda: _cls("referee.engine.turns", "Claim")(
            "Anna", "wesir", pos
        ),
        "referee.engine.actions.building.PieceName": lambda: _cls(
            "referee.engine.actions.building", "PieceName"
        )(kind),
        "referee.geometry.grid.Fountain": lambda: _cls("referee.geometry.grid", "FOUNTAIN"),
        "referee.reports.terminal.CellView": lambda: _cell(),
        "referee.reports.terminal.PlayerView": lambda: _player(),
        "referee.reports.terminal.TableView": lambda: _cls("referee.reports.terminal", "TableView")(
            (_player(),), None, None, None, None, "Anna", False, 1, None
        ),
        "referee.engine.payment.PaymentTerms": lambda: _cls(
            "referee.engine.payment", "PaymentTerms"
        )(3, "tile", Currency.DENAR, next(iter(Mix)), True, False, False, "market", None),
        "referee.engine.ruleset.Refinement": lambda: _cls("referee.engine.ruleset", "Refinement")(
            "decision", "wesir", abs
        ),
        "referee.engine.ruleset._Template": lambda: _cls("referee.engine.ruleset", "_Template")(
            (1, 0), (("d", ((0, "m"),)),), frozenset({"d"}), {"c": 1}, {"a": abs}, {}
        ),
        "referee.engine.verbs.VerbSpec": lambda: _cls("referee.engine.verbs", "VerbSpec")(
            "swap", "action", None, None, None, ("tausch",), "swap"
        ),
        "referee.engine.market_side.SideOffer": lambda: _cls(
            "referee.engine.market_side", "SideOffer"
        )(kind, None, Currency.DENAR, 3, False, "rule", False, False, True, None),
        "referee.engine.rules.Rule": lambda: _cls("referee.engine.rules", "Rule")(
            "R1", "Rule", "Regel", "§ 1", "message", "Meldung"
        ),
        "referee.engine.rules.Violation": lambda: _cls("referee.engine.rules", "Violation")(
            "R1", 3, 4, 2, "Anna", {"n": 1}, "engine", "error", None, None
        ),
        "referee.engine.rules.Unverifiable": lambda: _cls("referee.engine.rules", "Unverifiable")(
            3, 4, "key", {"n": 1}, 2, "Anna", "engine"
        ),
        "referee.engine.deck.DeckTop": lambda: _cls("referee.engine.deck", "DeckTop")(
            (card, 2), 5, "code", "reason", None, (("n", 1),)
        ),
        "referee.geometry.rules.BuildingProblem": lambda: _cls(
            "referee.geometry.rules", "BuildingProblem"
        )("hole", (Coord(0, 1),), ((Coord(0, 1), Side.N),)),
        "referee.geometry.pieces.Profile": lambda: profile,
        "referee.geometry.pieces.Part": lambda: _cls("referee.geometry.pieces", "Part")(
            kind, 0, BuildingType.PAVILION, frozenset({Side.N})
        ),
        "referee.geometry.pieces.PieceFacts": lambda: _cls("referee.geometry.pieces", "PieceFacts")(
            next(iter(Footprint)),
            frozenset({Side.N}),
            frozenset({"r"}),
            {BuildingType.PAVILION: 1},
            profile,
        ),
        "referee.geometry.queries.Run": lambda: _cls("referee.geometry.queries", "Run")(
            "row", (Coord(0, 0), Coord(1, 0))
        ),
        "referee.scoring.core.CountAdjustment": lambda: _adjustment(),
        "referee.scoring.core.ScoringEntry": lambda: _cls("referee.scoring.core", "ScoringEntry")(
            "Anna", None, {BuildingType.PAVILION: 2}, None, False, (_adjustment(),), 4
        ),
        "referee.scoring.core.TypeScore": lambda: _cls("referee.scoring.core", "TypeScore")(
            2, 2, (), 1, (), 8, ""
        ),
        "referee.scoring.core.WallScore": lambda: _cls("referee.scoring.core", "WallScore")(
            2, 2, ((Coord(0, 0), Side.N),), True
        ),
        "referee.scoring.core.ScoringRow": lambda: row,
        "referee.scoring.core.ScoringResult": lambda: _cls("referee.scoring.core", "ScoringResult")(
            1, (row,), "wall", ("note",), None, None
        ),
        "referee.scoring.core.ClaimMismatch": lambda: _cls("referee.scoring.core", "ClaimMismatch")(
            "Anna", "total", 3, 4, "line", None
        ),
        "referee.scoring.core.BreakdownLine": lambda: _cls("referee.scoring.core", "BreakdownLine")(
            row, "total"
        ),
        "referee.scoring.categories.Participant": lambda: _cls(
            "referee.scoring.categories", "Participant"
        )("Anna", False, {BuildingType.PAVILION: 2}, {BuildingType.PAVILION: 2}, (), None, None, 4),
        "referee.scoring.categories.Placing": lambda: _cls("referee.scoring.categories", "Placing")(
            1, ("Ben",), 8, "8/2"
        ),
        "referee.scoring.categories.RankScore": lambda: _cls(
            "referee.scoring.categories", "RankScore"
        )(2, 1, (), 8, "", "most", None, None),
        "referee.scoring.categories.LineScore": lambda: LineScore(3, "Label", "Etikett", None),
        "referee.scoring.categories.CombinedScore": lambda: _cls(
            "referee.scoring.categories", "CombinedScore"
        )((LineScore(3, "Label", "Etikett", None),), 3, None),
        "referee.scoring.categories.CategoryInfo": lambda: _cls(
            "referee.scoring.categories", "CategoryInfo"
        )(*names, "claim"),
        "referee.scoring.categories.Majority": lambda: _cls(
            "referee.scoring.categories", "Majority"
        )(*names, {"Anna": 2}, {1: (8,)}, "most", "down", None, ("", ""), False, None, 0, None),
        "referee.scoring.categories.PointLine": lambda: _cls(
            "referee.scoring.categories", "PointLine"
        )(*names, {"Anna": 2}, "detail", "Einzelheit", False, 0, None),
        "referee.scoring.categories.Penalty": lambda: _cls("referee.scoring.categories", "Penalty")(
            *names, {"Anna": -2}, "detail", "Einzelheit", False, 0, "total"
        ),
        "referee.scoring.categories.Combined": lambda: _cls(
            "referee.scoring.categories", "Combined"
        )(*names, (), 0, None),
        "referee.scoring.categories.BuildingMajority": lambda: _cls(
            "referee.scoring.categories", "BuildingMajority"
        )(BuildingType.PAVILION, (1, 8, 16), 0, "scoring", "§ 1"),
        "referee.scoring.categories.WallCategory": lambda: _cls(
            "referee.scoring.categories", "WallCategory"
        )(*names, 9, None),
        "referee.scoring.categories.ScoringParts": lambda: _cls(
            "referee.scoring.categories", "ScoringParts"
        )({None: ()}, (), None, None),
    }


def _cls(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def _cell() -> object:
    from referee.catalogue import BuildingType, Side

    return _cls("referee.reports.terminal", "CellView")(
        BuildingType.PAVILION,
        3,
        frozenset({Side.N}),
        "P3",
        None,
        frozenset(),
        None,
        None,
        (),
        None,
        frozenset(),
        None,
    )


def _player() -> object:
    from referee.record.model import Coord

    return _cls("referee.reports.terminal", "PlayerView")(
        "Anna", 3, None, (), {Coord(0, 0): _cell()}, None, None, 0, (("a", "b"),)
    )


def _adjustment() -> object:
    from referee.catalogue import BuildingType

    return _cls("referee.scoring.core", "CountAdjustment")(BuildingType.PAVILION, 1, "bonus", None)


def _record_samples() -> dict[str, Callable[[], object]]:
    """The ten hot record classes (tests/test_record_behaviour.py's samples)."""
    from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
    from referee.record import model as m

    pos, note = m.Pos(2, 5), (m.Annotation("n", m.Pos(9, 9)),)
    card = m.CardRef(MoneyCard(Currency.DENAR, 3), pos)
    tile = m.TileRef(BuildingType.PAVILION, 3, frozenset({Side.N}), (catalogue().tiles[7],), pos)
    player = m.PlayerRef("Anna", pos)
    take = m.TakeMoney((card,), pos, note)
    buy = m.Buy(Currency.DENAR, tile, (card,), pos, note)
    place = m.Place(tile, m.Coord(1, 0), pos, note)
    reveal = m.DisplayReveal((card, m.CardRef(None, pos)), pos)
    draw = m.MarketDraw(((Currency.GULDEN, tile), (None, tile)), pos)
    turn = m.Turn(3, player, (take, buy, place), pos, note, "c")
    chance = m.Chance((reveal, draw), pos, note, "c")
    made = (card, tile, player, take, buy, place, reveal, draw, turn, chance)
    return {f"referee.record.model.{type(r).__name__}": (lambda r=r: r) for r in made}


def _frozen_classes_of_compiled_modules() -> set[str]:
    """``module.Class`` of every frozen dataclass defined in a module of MYPYC_MODULES (but
    record/model.py's, whose ten hot classes :func:`_record_samples` builds and whose other
    classes are Python classes in both builds) and the ten hot record classes."""
    spec = importlib.util.spec_from_file_location("_alhambra_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    found = set(_record_samples())
    for path in setup.MYPYC_MODULES:
        name = path[: -len(".py")].replace("/", ".")
        if name == "referee.record.model":
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == name
                and dataclasses.is_dataclass(value)
                and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
            ):
                found.add(f"{name}.{value.__qualname__}")
    return found


_ALL = {**_samples(), **_record_samples()}


def test_every_frozen_class_of_a_compiled_module_has_its_sample() -> None:
    assert _frozen_classes_of_compiled_modules() == set(_ALL)
    assert len(_ALL) == 55  # 45 (s21's compiled-frozen.txt) and the ten records


def _same(a: object, b: object) -> bool:
    """``b`` is a copy of ``a``: same class, every field equal."""
    names = [f.name for f in dataclasses.fields(a)]  # type: ignore[arg-type]
    return type(a) is type(b) and all(getattr(a, n) == getattr(b, n) for n in names)


@pytest.mark.parametrize("key", sorted(_ALL))
def test_a_frozen_class_copies_deep_copies_and_pickles(key: str) -> None:
    made = _ALL[key]()
    assert f"{type(made).__module__}.{type(made).__qualname__}" == key
    for again in (copy.copy(made), copy.deepcopy(made), pickle.loads(pickle.dumps(made))):
        assert _same(made, again), key
    nested = copy.deepcopy({"a": [made, made]})
    assert nested["a"][0] is nested["a"][1] and _same(made, nested["a"][0])
