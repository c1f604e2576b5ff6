"""Start-up (issue 34): scoring/categories.py's dataclasses. The tenth step made them with
evaluated annotations; the seventeenth writes them as text again (``from __future__ import
annotations``), since evaluating them needed ``typing`` (``Literal``, ``Any``), which a check
no longer imports (tests/test_startup_typing.py). The field types are the annotations' text;
the categories score as before."""

from __future__ import annotations

import dataclasses
import pickle
import sys

import pytest

from referee.profiles import DEFAULT_PROFILE
from referee.scoring import categories
from referee.scoring.categories import Majority, Participant, PointLine, ScoringParts


def test_field_types_are_the_annotations_text() -> None:
    if not str(categories.__file__).endswith(".py"):  # compiled: mypyc evaluates them itself
        pytest.skip("scoring.categories is compiled")
    classes = [
        value
        for value in vars(categories).values()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == categories.__name__
    ]
    assert len(classes) >= 12
    assert all(isinstance(f.type, str) for cls in classes for f in dataclasses.fields(cls))
    types = {(cls.__name__, f.name): f.type for cls in classes for f in dataclasses.fields(cls)}
    assert types[("Participant", "alhambra")] == "Alhambra | None"
    assert types[("RankScore", "quantity")] == "Number"  # the alias "int | Fraction"
    majority = {f.name: f.type for f in dataclasses.fields(Majority)}
    assert majority["direction"] == "Direction" and majority["floor"] == "Floor"
    assert majority["dirk"] == "bool"
    assert categories.Direction == 'Literal["most", "fewest"]'  # an alias written as text
    module = sys.modules[categories.__name__]
    assert not hasattr(module, "Literal") and not hasattr(module, "Any")


def test_categories_still_score_and_add() -> None:
    anna = Participant("Anna", False, {}, {}, ())
    ben = Participant("Ben", False, {}, {}, ())
    line = PointLine("demo", "Demo", "Demo", "x", points={"Anna": 2, "Ben": -1})
    scores = line.score(1, [anna, ben], DEFAULT_PROFILE)
    assert scores["Anna"].points == 2 and scores["Ben"].points == -1
    assert ScoringParts() + ScoringParts() == ScoringParts()
    assert pickle.loads(pickle.dumps(anna)) == anna
