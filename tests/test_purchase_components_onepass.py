"""The one-pass purchase with a module's components (``purchase._purchase_with_components``):
a module that answers ``Module.plain_components`` (Die Schätze: a bribe) gets the same reports,
the same module views and the same final state as with the whole purchase pipeline, on its
example and simulated games, with lines left out and with its components' names changed (so
that its own findings and the engine's sum checks have something to say), and the one-pass
path is really taken."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.engine import check_game
from referee.engine.actions import purchase as _purchase_module
from referee.engine.extensions import Module
from referee.modules import BUNDLED
from referee.notation import parse_text

# These tests watch the engine through a patched module-level function
# (`purchase._purchase_with_components`); a compiled build (ALHAMBRA_REFEREE_MYPYC=1) calls it
# directly, so the patch is not seen there. The compiled build's behaviour is held by
# bench/same_output.py and tests/test_compiled_*.py.
pytestmark = pytest.mark.skipif(
    not str(_purchase_module.__file__).endswith(".py"),
    reason="watches a Python-level call that the compiled build makes directly",
)

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]

# the modules that let the engine carry out a purchase with their components in one pass
VOUCHING = [cls for cls in BUNDLED if cls.plain_components is not Module.plain_components]


def _variants(text: str, kind: str) -> list[str]:
    """``text``, copies with one line of play left out, and copies with the ``kind:NAME``
    tokens of some payments named otherwise (another value, a second token, one dropped)."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    step = max(4, len(body) // 8)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[3::step]]
    token = re.compile(rf"\b{kind}:(\w+)")
    paying = [i for i, line in enumerate(lines) if token.search(line)]
    for n, i in enumerate(paying[:12]):
        line = lines[i]
        if n % 4 == 0:
            new = token.sub(
                lambda m: (
                    f"{kind}:{(int(m.group(1)) % 5) + 1}"
                    if m.group(1).isdigit()
                    else f"{kind}:{m.group(1).swapcase()}"
                ),  # a coin's currency, in another case
                line,
                count=1,
            )
        elif n % 4 == 1:
            new = token.sub(lambda m: f"{m.group(0)} {kind}:1", line, count=1)
        elif n % 4 == 2:
            new = token.sub(f"{kind}:9", line, count=1)
        else:
            new = re.sub(r" pay ", " pay Gu9 ", line, count=1)
        out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n")
    return out


def _outcomes(texts: list[str]) -> list[str]:
    out = []
    for text in texts:
        for game in parse_text(text, "components.alh"):
            report = check_game(game)
            state = report.state
            views = state.ext.views(state) if state is not None else None
            hands = (
                [(p.name, sorted(map(str, p.hand.elements()))) for p in state.players]
                if state
                else None
            )
            out.append(repr(report) + repr(views) + repr(hands))
    return out


def test_some_module_vouches_for_its_components() -> None:
    assert any(cls.name == "schaetze" for cls in VOUCHING)


@pytest.mark.parametrize("cls", VOUCHING, ids=lambda c: c.name)
def test_a_purchase_with_a_modules_components_in_one_pass_reports_as_the_pipeline(
    cls: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine.actions import purchase
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    name = cls.name
    kind = cls.component_kinds[0]
    example = ROOT / "examples" / f"module-{name}.alh"
    texts = _variants(example.read_text(encoding="utf-8"), kind) if example.exists() else []
    for k in range(4):
        profile = load_profile(PROFILES[k % len(PROFILES)])
        texts += _variants(
            simulate_text(2 + k, 5200 + k, profile, f"pay {name} {k}", (name,)), kind
        )
    taken: list[bool] = []
    real = purchase._purchase_with_components

    def counted(*args: Any) -> bool:
        done = real(*args)
        taken.append(done)
        return done

    monkeypatch.setattr(purchase, "_purchase_with_components", counted)
    one_pass = _outcomes(texts)
    assert any(taken), f"{name}: no purchase with its components was made in one pass"
    assert not all(taken), f"{name}: every purchase with its components was made in one pass"
    monkeypatch.setattr(purchase, "_purchase_with_components", lambda *args: False)
    assert _outcomes(texts) == one_pass
