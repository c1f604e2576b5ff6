"""The one-pass purchase with a module's components (``purchase._purchase_with_components``):
a module that answers ``Module.plain_components`` (Die Schätze: a bribe) gets the same reports,
the same module views and the same final state as with the whole purchase pipeline, on its
example and simulated games, with lines left out and with its components' names changed (so
that its own findings and the engine's sum checks have something to say), and the one-pass
path is really taken."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from referee.engine.extensions import Module
from referee.modules import BUNDLED
from tests.purchase_onepass_support import (
    PROFILES,
    ROOT,
    SKIP_COMPILED,
    chosen_from,
    compare,
    variants,
)

pytestmark = SKIP_COMPILED

# the modules that let the engine carry out a purchase with their components in one pass
VOUCHING = [cls for cls in BUNDLED if cls.plain_components is not Module.plain_components]


# The copies each test checks, by their index among its different texts: the others ran no
# line of ``referee`` that these do not (coverage, one context a text, on main at 350ea36:
# bench/README.md, issue 34, eighteenth step, one-pass tests).
# Twenty-second step: the copies kept are fewer, chosen over the one-pass files together
# (tests/test_purchase_*_onepass.py, tests/test_placement_pieces_onepass.py): the copies left
# out run no line of ``referee`` that the copies kept in those files do not run (every test
# keeps one at least; coverage, one context a test and text, on main at df1d0bf:
# bench/README.md, issue 34, twenty-second step, "the one-pass twins"). The tests that count
# copies taking or declining the path keep theirs. A simulated game none of whose copies is
# kept is not simulated (``chosen_from``).
KEPT = {
    "wechselstuben": (12,),
    "diamanten": (11, 12, 16, 35),
    "wechselgeld": (0, 3, 4, 10, 11, 12, 15, 20, 21, 31, 40, 50, 67, 94, 98),
    "baustellen": (0, 2, 12, 13, 15, 20, 23, 26, 42, 51, 62, 64, 66, 72, 86, 96, 100),
    "wechselscheine": (11, 30, 31, 85),
    "schaetze": (33,),
}


def test_some_module_vouches_for_its_components() -> None:
    assert any(cls.name == "schaetze" for cls in VOUCHING)


@pytest.mark.parametrize("cls", VOUCHING, ids=lambda c: c.name)
def test_a_purchase_with_a_modules_components_in_one_pass_reports_as_the_pipeline(
    cls: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    name = cls.name
    kind = cls.component_kinds[0]
    example = ROOT / "examples" / f"module-{name}.alh"
    texts = variants(example.read_text(encoding="utf-8"), kind) if example.exists() else []

    def games() -> Iterator[list[str]]:  # (each simulated as chosen_from asks)
        yield texts
        for k in range(4):
            profile = load_profile(PROFILES[k % len(PROFILES)])
            yield variants(
                simulate_text(2 + k, 5200 + k, profile, f"pay {name} {k}", (name,)), kind
            )

    taken = compare(chosen_from(games(), KEPT[name]), monkeypatch)
    assert any(taken), f"{name}: no purchase with its components was made in one pass"
    assert not all(taken), f"{name}: every purchase with its components was made in one pass"
