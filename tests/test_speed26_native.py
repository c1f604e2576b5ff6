"""Issue 34, twenty-fourth step (helper "native"): the scoring's frozen dataclasses without
methods generated at run time (``referee/scoring/frozen.py``).

Each class of ``scoring.core`` and ``scoring.categories`` writes its own ``__init__`` and gets
``__repr__``, ``__eq__``, ``__hash__`` and the frozen refusals from :func:`frozen_dataclass`;
these tests hold them to what ``@dataclass(frozen=True)`` gives a class of the same fields (a
twin made by ``dataclasses.make_dataclass``), in the pure and the compiled build.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
import types
from typing import Any

import pytest

from referee.catalogue import BuildingType
from referee.scoring import categories, core
from referee.scoring.frozen import frozen_dataclass

CLASSES = [
    cls
    for mod in (categories, core)
    for cls in vars(mod).values()
    if isinstance(cls, type) and cls.__module__ == mod.__name__ and dataclasses.is_dataclass(cls)
]


def _twin(cls: type) -> type:
    """A ``@dataclass(frozen=True)`` of the same fields, name and qualname."""
    specs = []
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {"compare": f.compare, "repr": f.repr, "hash": f.hash}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**kw)))
    twin = dataclasses.make_dataclass(cls.__name__, specs, frozen=True)
    twin.__qualname__ = cls.__qualname__
    return twin


def _python_init(cls: type) -> bool:
    """The class's ``__init__`` takes any value (pure Python; compiled, a native class checks
    each argument's annotated type)."""
    return isinstance(cls.__init__, types.FunctionType)


def test_every_scoring_dataclass_is_made_by_frozen_dataclass() -> None:
    assert len(CLASSES) == 21
    for cls in CLASSES:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen and params.eq and params.init and params.repr, cls
        for name in ("__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
            method = getattr(cls, name)
            assert method.__module__ in (
                "referee.scoring.frozen",
                "referee.dataclass_methods",  # (repr and eq, shared with plain_dataclass)
            ), (cls, name)
            assert method.__qualname__ == f"{cls.__qualname__}.{name}", (cls, name)
        assert "__create_fn__" not in getattr(cls.__init__, "__qualname__", ""), cls


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_class_behaves_as_its_frozen_dataclass_twin(cls: type) -> None:
    if not _python_init(cls):
        pytest.skip("compiled native class: typed arguments (the typed tests below)")
    twin = _twin(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    assert names == [f.name for f in dataclasses.fields(twin)]
    assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    values = [(i, f"v{i}") for i in range(len(names))]
    other = [*values[:-1], ("other",)]
    a, a2, b = cls(*values), cls(*values), cls(*other)
    ta, ta2, tb = twin(*values), twin(*values), twin(*other)
    assert repr(a) == repr(ta)
    assert (a == a2, a == b, a != b) == (ta == ta2, ta == tb, ta != tb)
    assert hash(a) == hash(ta) and hash(a) == hash(a2)
    assert a != ta and a.__eq__(ta) is NotImplemented
    for name in (names[0], "not_a_field"):
        with pytest.raises(dataclasses.FrozenInstanceError) as got:
            setattr(a, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError) as want:
            setattr(ta, name, 1)
        assert str(got.value) == str(want.value)
        with pytest.raises(dataclasses.FrozenInstanceError) as got:
            delattr(a, name)
        with pytest.raises(dataclasses.FrozenInstanceError) as want:
            delattr(ta, name)
        assert str(got.value) == str(want.value)
    # keywords and defaults as the generated __init__ takes them
    required = [f for f in dataclasses.fields(cls) if _required(f)]
    kw = {f.name: values[i] for i, f in enumerate(dataclasses.fields(cls)) if _required(f)}
    assert repr(cls(**kw)) == repr(twin(**kw))
    assert len(required) <= len(names)
    changed = dataclasses.replace(a, **{names[0]: "new"})
    assert repr(changed) == repr(dataclasses.replace(ta, **{names[0]: "new"}))
    assert copy.copy(a) == a and copy.deepcopy(a) == a


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def test_a_recursive_repr_and_the_default_factories() -> None:
    row = core.ScoringRow("Anna", False, {}, 0)
    other = core.ScoringRow("Anna", False, {}, 0)
    assert row.labels == {} and row.labels is not other.labels
    assert row.labels is not core._FACTORY_DICT
    parts, more = categories.ScoringParts(), categories.ScoringParts()
    assert parts.adjustments == {} and parts.adjustments is not more.adjustments
    given = {"x": ("a", "b")}
    assert core.ScoringRow("Anna", False, {}, 0, given).labels is given
    # labels do not compare (field(compare=False)), as before
    assert core.ScoringRow("Anna", False, {}, 0, given) == row
    loop: dict[str, Any] = {}
    looped = core.ScoringRow("Anna", False, loop, 0)
    loop["self"] = looped
    assert repr(looped) == (
        "ScoringRow(name='Anna', is_dirk=False, categories={'self': ...}, total_before=0, "
        "labels={})"
    )


def test_the_typed_classes_in_either_build() -> None:
    """Values of the fields' types, so that the compiled native classes take them too."""
    tower = BuildingType("T")
    placing = categories.Placing(1, ("Ben",), 9, "(13+6)/2 = 9")
    assert repr(placing) == "Placing(place=1, tied_with=('Ben',), points=9, split='(13+6)/2 = 9')"
    assert placing == categories.Placing(1, ("Ben",), 9, "(13+6)/2 = 9")
    assert placing != categories.Placing(2, ("Ben",), 9, "(13+6)/2 = 9")
    assert hash(placing) == hash((1, ("Ben",), 9, "(13+6)/2 = 9"))
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'place'"):
        placing.place = 2  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(placing)) == placing
    assert copy.deepcopy(placing) == placing
    assert dataclasses.replace(placing, place=3).place == 3

    line = categories.Penalty("debt", "debt", "Schulden", "s", {"Anna": 2}, order=600)
    assert isinstance(line, categories.PointLine) and line.sign == -1
    assert line.order == 600 and line.detail_en == "" and line.floor is None
    assert repr(line).startswith("Penalty(key='debt', label_en='debt', label_de='Schulden'")
    assert line == categories.Penalty("debt", "debt", "Schulden", "s", {"Anna": 2}, order=600)
    assert line != categories.PointLine("debt", "debt", "Schulden", "s", {"Anna": 2}, order=600)
    assert pickle.loads(pickle.dumps(line)) == line

    adjustment = core.CountAdjustment(tower, 2, "two towers", label_de="zwei Türme")
    assert adjustment.text("de") == "zwei Türme"
    assert hash(adjustment) == hash(core.CountAdjustment(tower, 2, "two towers", "zwei Türme"))
    wall = categories.WallCategory()
    assert (wall.key, wall.label_de, wall.order) == ("wall", "Außenmauer", categories.ORDER_WALL)
    majority = categories.BuildingMajority(tower)
    assert majority.key == "majority:T" and majority.table is None
    info = categories.CategoryInfo("medina", "medina", "Medina", "s", "medina")
    assert {info: 1}[categories.CategoryInfo("medina", "medina", "Medina", "s", "medina")] == 1
    mismatch = core.ClaimMismatch("Anna", "points", 3, 4, "Anna: +4", row=object())
    assert repr(mismatch) == (
        "ClaimMismatch(player='Anna', what='points', claimed=3, computed=4, line='Anna: +4')"
    )
    assert mismatch == core.ClaimMismatch("Anna", "points", 3, 4, "Anna: +4")
    with pytest.raises(dataclasses.FrozenInstanceError):
        del mismatch.row


def test_a_frozen_dataclass_may_derive_from_one_and_a_plain_one_may_not() -> None:
    @dataclasses.dataclass(frozen=True)
    class Scored(categories.LineScore):
        extra: int = 0

    made = Scored(3, extra=2)
    assert repr(made).endswith(
        ".<locals>.Scored(points=3, label_en='', label_de='', unfloored=None, extra=2)"
    )
    assert made.points == 3 and made.extra == 2  # (compiled, a Python subclass may not call
    # the compiled class's methods: setup.py's rule, unchanged)
    with pytest.raises(TypeError, match="non-frozen"):

        @dataclasses.dataclass
        class Loose(categories.LineScore):
            extra: int = 0


def test_frozen_dataclass_keeps_a_class_s_own_methods_and_refuses_its_setattr() -> None:
    @dataclasses.dataclass(init=False, repr=False, eq=False)
    class Own:
        a: int

        def __init__(self, a: int) -> None:
            object.__setattr__(self, "a", a)

        def __repr__(self) -> str:
            return "own"

        def __hash__(self) -> int:
            return 7

    frozen_dataclass(Own)
    assert repr(Own(1)) == "own" and hash(Own(1)) == 7 and Own(1) == Own(1)

    @dataclasses.dataclass(init=False, repr=False, eq=False)
    class Settable:
        a: int

        def __setattr__(self, name: str, value: object) -> None:
            object.__setattr__(self, name, value)

    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        frozen_dataclass(Settable)


def test_importing_the_scoring_generates_no_dataclass_method() -> None:
    probe = (
        "import dataclasses, sys\n"
        "import referee.commands.check, referee.engine\n"
        "made = []\n"
        "original = dataclasses._create_fn\n"
        "def counting(name, *args, **kwargs):\n"
        "    made.append(name)\n"
        "    return original(name, *args, **kwargs)\n"
        "dataclasses._create_fn = counting\n"
        "import referee.scoring.core, referee.scoring.categories, referee.scoring.text\n"
        "print(made)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def _typed_samples() -> list[tuple[type, tuple[Any, ...]]]:
    """Instances' arguments of the fields' types (the compiled classes check them)."""
    tower = BuildingType("T")
    line = categories.LineScore(3, "two rows", "zwei Reihen")
    typed = core.TypeScore(4, 4, (), 1, ("Ben",), 9, "(13+6)/2 = 9")
    row = core.ScoringRow("Anna", False, {"majority:T": typed}, 12)
    return [
        (categories.LineScore, (3, "two rows", "zwei Reihen", None)),
        (categories.RankScore, (2, 1, ("Ben",), 6, "(6+3)/2 = 4", "fewest", None, 8)),
        (categories.CombinedScore, ((line,), 3, None)),
        (core.TypeScore, (4, 4, (), 1, ("Ben",), 9, "(13+6)/2 = 9")),
        (core.WallScore, (5, 5, (), True)),
        (core.ScoringRow, ("Anna", False, {"majority:T": typed}, 12, {})),
        (core.ScoringResult, (2, (row,), "trail", ("note",), None, None)),
        (core.ScoringEntry, ("Anna", None, {tower: 2}, 3, False, (), 7)),
        (core.BreakdownLine, (row, "T")),
    ]


@pytest.mark.parametrize("index", range(9))
def test_the_typed_python_classes_against_their_twins_in_either_build(index: int) -> None:
    cls, values = _typed_samples()[index]
    twin = _twin(cls)
    made, again, theirs = cls(*values), cls(*values), twin(*values)
    assert repr(made) == repr(theirs)
    assert made == again and made.__eq__(theirs) is NotImplemented
    assert _hash_or_error(made) == _hash_or_error(theirs)  # a dict field: TypeError both
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"):
        setattr(made, name, values[0])
    assert copy.copy(made) == made


def _hash_or_error(obj: object) -> object:
    try:
        return hash(obj)
    except TypeError as error:
        return str(error)
