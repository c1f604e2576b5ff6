"""first22b, the twenty-fifth step of issue 34.

* ``Extensions.kind_handler``, ``verb_handler`` and ``verb_spec``: C lookups in a
  ``_LowerKeys`` table; the same answers as ``table.get(word.lower())``.
* ``Extensions._find_overriding``: the same modules as the comprehension (``()`` without a
  module).
* ``Module.out_of_turn_verbs``: a module's ``out_of_turn`` claims only lines whose first verb
  it names; ``Extensions.out_of_turn`` asks a line only of the modules concerned: the same
  answers and reports as asking every module in rank order.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.engine import check_game
from referee.engine.core import new_state
from referee.engine.extensions import Extensions, Module
from referee.modules import discover
from referee.notation import iter_games
from referee.notation.parser import parse_game_text
from referee.record.model import ModuleAction, Turn

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_NAMES = [cls.name for cls in discover()]
_PROMISING = ("bonuskarten", "diebe", "sultan", "wesir")


def _words(keys: list[str]) -> list[str]:
    """Each key as written, upper-cased, capitalised, and words nobody owns."""
    out = ["", "x", "X", "zz:", "Nothing", "ÄÖ"]
    for k in keys:
        out += [k, k.upper(), k.capitalize(), k + "x"]
    return out


def test_the_lookups_answer_as_the_tables_lower_cased() -> None:
    rng = random.Random(27)
    sets = [[], _NAMES, *[rng.sample(_NAMES, rng.randint(1, 8)) for _ in range(8)]]
    for chosen in sets:
        ext = Extensions(chosen)
        kinds = {k.lower(): m for m in ext.modules for k in m.component_kinds}
        verbs = {}
        specs = {}
        for m in ext.modules:
            for spec in m.verb_specs:
                for v in (spec.verb, *spec.aliases):
                    verbs[v.lower()] = m
                    specs[v.lower()] = spec
        for w in _words([*kinds, *verbs, "mb", "ws", "vizier", "thief"]):
            assert ext.kind_handler(w) is kinds.get(w.lower())
            assert ext.verb_handler(w) is verbs.get(w.lower())
            assert ext.verb_spec(w) is specs.get(w.lower())
        # a word looked up lower-cased is not kept under its written form
        assert all(k == k.lower() for k in ext._kinds)
        assert dict(ext._kinds) == kinds


def test_the_overriding_modules_are_those_of_the_classes() -> None:
    hooks = [n for n in dir(Module) if not n.startswith("_") and callable(getattr(Module, n))]
    rng = random.Random(2027)
    for chosen in [_NAMES, *[rng.sample(_NAMES, rng.randint(1, 10)) for _ in range(8)]]:
        ext = Extensions(chosen)
        for hook in hooks:
            default = getattr(Module, hook)
            want = tuple([m for m in ext.modules if getattr(type(m), hook) is not default])
            assert ext._find_overriding(hook) == want
            assert ext.overriding(hook) == want


_LINES = """[Players "Anna, Ben, Cem"]
[Rules "queen-2003"]
[Modules "bonuskarten, diebe, sultan, wesir"]

Anna: take Du3
Anna: bid 3
Anna: vizier, buy Di S3 pay Di3, place S3@0,-1
Anna: Vizier, buy Di S3 pay Di3
Anna: wesir, buy Di S3 pay Di3
Anna: thief Du, take Du4
Anna: THIEF Du
Anna: sultan su:Gu S
Anna: bonus G11
Anna: bonus G11, bonus C10
Anna: favour G
Anna: wake
"""


def _out_of_turn_lines() -> list[Turn]:
    game = parse_game_text(_LINES, "<test>", 1)
    lines = [i for i in game.body if isinstance(i, Turn) and i.number is None]
    assert len(lines) == 12
    return lines


def test_a_promising_module_claims_no_other_line() -> None:
    ext = Extensions(list(_PROMISING))
    state = new_state(["Anna", "Ben", "Cem"], ext=ext)
    for m in ext.modules:
        m.data(state)  # type: ignore[attr-defined]
    promised = {m.name for m in ext.modules if type(m).out_of_turn_verbs is not None}
    assert promised == set(_PROMISING)
    for m in ext.modules:
        only = type(m).out_of_turn_verbs
        assert only is not None and all(v == v.lower() for v in only)
        for line in _out_of_turn_lines():
            first = line.actions[0] if line.actions else None
            if isinstance(first, ModuleAction) and first.verb.lower() in only:
                continue
            before = repr(state.modules[m.name])
            assert m.out_of_turn(state, line) is None
            assert repr(state.modules[m.name]) == before


def test_each_line_is_asked_of_the_modules_concerned_in_rank_order() -> None:
    ext = Extensions([*_PROMISING, "schatzkammer", "charaktere"])
    assert ext._by_verb is not None
    state = new_state(["Anna", "Ben", "Cem"], ext=ext)
    for line in _out_of_turn_lines():
        ext.out_of_turn(state.copy(), line)
    for verb, asked in ext._by_verb.items():
        want = tuple(
            m for m in ext._by_rank if (only := type(m).out_of_turn_verbs) is None or verb in only
        )
        assert asked == want
        assert {m.name for m in asked} >= {"schatzkammer", "charaktere"}  # (no promise)
    # (a base action first, as `take`: the verb "")
    assert set(ext._by_verb) >= {"", "vizier", "wesir", "thief", "sultan", "bonus", "favour"}
    assert [m.name for m in ext._by_verb["vizier"] if m.name in _PROMISING] == ["wesir"]
    # no module promising: every one asked, as before
    assert Extensions(["schatzkammer", "charaktere"])._by_verb is None


def _reports(paths: list[Path]) -> list[str]:
    return [repr(check_game(g)) for p in paths for g in iter_games(p)]


def test_the_reports_are_those_of_asking_every_module(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [
        _EXAMPLES / f"{n}.alh"
        for n in ("module-wesir", "module-diebe", "module-sultan", "module-wave-b")
    ]
    promised = _reports(paths)
    for cls in discover():
        if cls.out_of_turn_verbs is not None:
            monkeypatch.setattr(cls, "out_of_turn_verbs", None)
    assert Extensions(list(_PROMISING))._by_verb is None
    assert _reports(paths) == promised


def test_the_pieces_types_and_walls_read_without_a_call() -> None:
    from referee.catalogue.components import BuildingType
    from referee.modules.badehaeuser import Bathhouse
    from referee.modules.bauland import Plot
    from referee.modules.baustellen import SitePiece
    from referee.modules.bazare import Bazaar
    from referee.modules.magisch import MagicBuilding
    from referee.modules.medina import Medina
    from referee.modules.plaetze import Square
    from referee.modules.wunschbrunnen import Well

    fields = {
        Bathhouse: ["sides"],
        Well: ["number", "spout"],
        Plot: ["number", "price", "walls", "kind", "stated", "stated_pos"],
        MagicBuilding: ["kind", "price", "printed_walls", "walls"],
    }
    for cls, names in fields.items():  # the attributes are no fields (init, eq, repr as before)
        assert list(cls.__dataclass_fields__) == names
    for cls in (Bathhouse, Well, Bazaar, Medina, Square, SitePiece):
        assert cls.type is None
        assert "type" not in cls.__dataclass_fields__
    assert Bathhouse.walls == frozenset() and Well.walls == frozenset()
    plot = Plot(1, 5, frozenset())
    assert plot.type is None
    for kind in BuildingType:
        assert plot.built(kind).type is kind
        magic = MagicBuilding(kind, 7, frozenset(), frozenset())
        assert magic.type is kind
        assert repr(magic) == repr(MagicBuilding(kind, 7, frozenset(), frozenset()))
