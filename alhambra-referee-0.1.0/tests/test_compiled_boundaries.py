"""What the compiled build's list (setup.py ``MYPYC_MODULES``) must respect (issue 34, sixth step).

* The per-line loop (``run_game``) and the per-action dispatch (``run_action`` with its tables)
  live in modules of their own, so that they can be compiled (a package's ``__init__`` stays
  Python); the packages re-export them: the public names are the same objects.
* No class that Python code derives from may be defined in a compiled module: compiled code
  annotated with a class that has no subclass among the compiled modules checks for exactly
  that class at run time (mypyc), so a bundled module's object would stop the game with a
  ``TypeError``. Every bundled module class and every class it derives from is checked here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _compiled_module_names() -> set[str]:
    spec = importlib.util.spec_from_file_location("_alhambra_setup_b", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    return {p.removesuffix(".py").replace("/", ".") for p in setup.MYPYC_MODULES}


def test_the_loops_are_reexported_by_their_packages() -> None:
    import referee.engine as engine
    import referee.engine.actions as actions
    from referee.engine import run
    from referee.engine.actions import run as action_run

    assert engine.run_game is run.run_game and "run_game" in engine.__all__
    assert actions.run_action is action_run.run_action
    assert actions.HANDLERS is action_run.HANDLERS and actions.PLAIN is action_run.PLAIN
    compiled = _compiled_module_names()
    assert {"referee.engine.run", "referee.engine.actions.run"} <= compiled


def test_no_bundled_module_class_derives_from_a_compiled_class() -> None:
    from referee.engine.extensions import MODULES, load_bundled_modules

    load_bundled_modules()
    compiled = _compiled_module_names()
    assert len(MODULES) >= 43
    seen = 0
    for cls in set(MODULES.values()):
        for klass in cls.__mro__[1:]:
            if klass.__module__.startswith("referee."):
                seen += 1
                assert klass.__module__ not in compiled, (cls, klass)
        # the classes a module defines beside its module class (pieces, records, views)
        for value in vars(sys.modules[cls.__module__]).values():
            if isinstance(value, type) and value.__module__ == cls.__module__:
                for klass in value.__mro__[1:]:
                    if klass.__module__.startswith("referee."):
                        assert klass.__module__ not in compiled, (value, klass)
    assert seen  # every module class derives from extensions.Module at least


def test_a_wall_score_holds_what_the_wall_walk_gives_it() -> None:
    """``WallScore.segments`` is annotated with the wall walk's own ``Segment`` (a side or, with
    Die Wachtürme, a diagonal): compiled, ``to_dict`` checks each segment against the
    annotation, and ``tuple[Coord, Side]`` stopped Wachtürme's JSON report (seventh step)."""
    import typing

    from referee.catalogue import BuildingType
    from referee.geometry import Alhambra, Segment, longest_outer_wall
    from referee.geometry.pieces import Diagonal
    from referee.modules.wachtuerme import Watchtower
    from referee.record.model import Coord
    from referee.scoring.core import WallScore, new_wall_score

    tower = Watchtower(BuildingType.PAVILION, "sw")
    run = longest_outer_wall(Alhambra([(Coord(1, 0), tower)]))
    score = new_wall_score(run.length, run.length, run.segments, True)
    assert score.to_dict() == {  # compiled: the check of each segment admits the diagonal
        "length": 1,
        "points": 1,
        "verified": True,
        "segments": [{"at": str(Coord(1, 0)), "side": "nw-se"}],
    }
    core = sys.modules["referee.scoring.core"]
    if core.__file__ is not None and core.__file__.endswith(".py"):  # compiled: bare classes
        hints = typing.get_type_hints(WallScore, vars(core))
        assert hints["segments"] == tuple[Segment, ...]
        assert Diagonal in typing.get_args(typing.get_args(Segment)[1])


def test_the_payment_search_takes_a_modules_stand_in_cards() -> None:
    """``payments`` (engine/actions/purchase.py, compiled) is handed Die Baumeister's
    master-builder cards beside money cards: its items are a protocol, not ``MoneyCard``, which
    the compiled build would check each item against (``simulate --modules baumeister`` stopped
    with a ``TypeError`` there, sixteenth step)."""
    from dataclasses import dataclass

    from referee.catalogue import Currency, MoneyCard
    from referee.engine.actions.purchase import payments

    @dataclass(frozen=True)
    class StandIn:  # a card of the module's own, paid as money of value 3
        currency: Currency
        value: int

        @property
        def sort_key(self) -> tuple[int, int, int]:
            return (self.currency.field, self.value, 1)

    cur = next(iter(Currency))
    builder = StandIn(cur, 3)
    hand = [MoneyCard(cur, 2), builder, MoneyCard(cur, 4)]
    found = list(payments(hand, frozenset({cur}), 5))
    assert (MoneyCard(cur, 2), builder) in found  # exact: 2 + 3
    assert all(sum(c.value for c in pay) >= 5 for pay in found)
    assert not any(builder in pay and MoneyCard(cur, 4) in pay and len(pay) == 3 for pay in found)
