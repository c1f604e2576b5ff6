"""Start-up (issue 34, tenth step): scoring/categories.py's dataclasses are made with evaluated
annotations (no ``from __future__ import annotations``); the few annotations naming what is
imported only for the type checker stay text. The categories score as before."""

from __future__ import annotations

import dataclasses
import pickle
import typing

from referee.profiles import DEFAULT_PROFILE
from referee.scoring import categories
from referee.scoring.categories import Majority, Participant, PointLine, ScoringParts


def test_field_types_are_evaluated_except_the_type_checkers_names() -> None:
    classes = [
        value
        for value in vars(categories).values()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == categories.__name__
    ]
    assert len(classes) >= 12
    texts = {
        (cls.__name__, f.name): f.type
        for cls in classes
        for f in dataclasses.fields(cls)
        if isinstance(f.type, str)
    }
    # Number is the text "int | Fraction" (fractions is imported only where a half is made)
    assert texts == {
        ("Participant", "alhambra"): "Alhambra | None",
        ("RankScore", "quantity"): "int | Fraction",
    }
    majority = {f.name: f.type for f in dataclasses.fields(Majority)}
    assert majority["direction"] == typing.Literal["most", "fewest"]
    assert majority["floor"] == typing.Literal["scoring", "total"] | None
    assert majority["dirk"] is bool


def test_categories_still_score_and_add() -> None:
    anna = Participant("Anna", False, {}, {}, ())
    ben = Participant("Ben", False, {}, {}, ())
    line = PointLine("demo", "Demo", "Demo", "x", points={"Anna": 2, "Ben": -1})
    scores = line.score(1, [anna, ben], DEFAULT_PROFILE)
    assert scores["Anna"].points == 2 and scores["Ben"].points == -1
    assert ScoringParts() + ScoringParts() == ScoringParts()
    assert pickle.loads(pickle.dumps(anna)) == anna
