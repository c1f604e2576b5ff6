"""Start-up (issue 34, sixteenth step): what a one-game check no longer makes or imports.

* One slots twin a record class (:func:`referee.makers.slots_twin` keeps its answers): the fast
  reader asked twice for each of its record classes, for its makers and for its builders, and
  made a class each time.
* ``referee.notation``'s :func:`format_game` and :func:`format_games` come from the formatter's
  module on first use (a check writes no record).
* ``referee.engine.extensions`` names :class:`SimContext` for the type checker only; the
  simulator imports it from its own module.

tests/test_startup_deferred.py holds that a one-game check imports neither module."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from referee.makers import record_maker, slots_twin
from referee.record import model


def test_a_record_class_has_one_twin() -> None:
    twin = slots_twin(model.Buy)
    assert twin is not None and slots_twin(model.Buy) is twin
    assert record_maker(model.Buy).__globals__["_twin"] is twin


def test_the_reader_builds_with_the_makers_twins() -> None:
    from referee.notation import fast

    if not fast._MEMO:  # pragma: no cover - compiled records: no twins
        pytest.skip("the records are compiled")
    assert fast._TWINS
    for cls, twin in fast._TWINS.items():
        assert slots_twin(cls) is twin


def test_a_class_without_a_twin_is_asked_again_with_the_same_answer() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        """No slots: no twin."""

        x: int

    assert slots_twin(NoSlots) is None
    assert slots_twin(NoSlots) is None


def test_the_formatters_names_are_the_formatters() -> None:
    import referee.notation as notation
    from referee.notation import format_game, format_games, formatter

    assert format_game is formatter.format_game
    assert format_games is formatter.format_games
    assert notation.format_game is formatter.format_game
    assert {"format_game", "format_games"} <= set(notation.__all__)
    with pytest.raises(AttributeError):
        notation.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        from referee.notation import no_such_name  # noqa: F401


def test_the_formatter_is_imported_on_first_use() -> None:
    code = (
        "import sys\n"
        "import referee.notation as n\n"
        "assert 'referee.notation.formatter' not in sys.modules\n"
        "f = n.format_games\n"
        "assert 'referee.notation.formatter' in sys.modules\n"
        "assert f is sys.modules['referee.notation.formatter'].format_games\n"
        "import referee.engine.extensions as x\n"
        "assert 'referee.engine.sim_context' not in sys.modules\n"
        "from referee.simulate.simulator import SimContext\n"
        "from referee.engine.sim_context import SimContext as S\n"
        "assert SimContext is S\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
