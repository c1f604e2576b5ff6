"""The module platform: a module refines a base rule decision without editing anything else.

Two test-only modules, each one folder under ``tests/plugins/`` and registered only by being
imported: ``opengate`` relaxes the wall rule for arcades ("Alhambra-Bauregeln": "Aneinander
grenzende Seiten ... müssen gleich sein" — waived for one piece kind), ``anycoin`` lets Gulden
pay for any field (the base rule: "in der Währung des Feldes", Gebäude kaufen).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SETUP

from referee.engine import check_game
from referee.engine.context import Context
from referee.engine.ruleset import Decision, Ruleset
from referee.engine.state import GameState
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def test_modules() -> Iterator[None]:
    """Plug the two test-only modules in (importing a module's folder registers it) and take
    them out again afterwards, so no other test sees them."""
    from referee.engine.extensions import MODULES, register_module

    for folder, cls_name in (
        ("plugins.anycoin", "AnyCoin"),
        ("plugins.opengate", "OpenGate"),
        ("plugins.hoard", "Hoard"),
    ):
        register_module(getattr(importlib.import_module(folder), cls_name))
    yield
    MODULES.pop("anycoin", None)
    MODULES.pop("opengate", None)
    MODULES.pop("hoard", None)


def _codes(text: str) -> list[str]:
    games = parse_text(text, "t.alh")
    assert len(games) == 1 and not games[0].errors
    return [v.code for v in check_game(games[0]).violations]


def test_opengate_allows_the_wall_the_base_forbids() -> None:
    base = (ROOT / "examples" / "illegal-place.alh").read_text(encoding="utf-8")
    found = _codes(base)
    assert "PLACE-WALL" in found
    relaxed = base.replace('[Rules "queen-2003"]', '[Rules "queen-2003"]\n[Modules "opengate"]')
    # only the wall-matching rule is waived; the walker rule still applies to the same tile
    assert _codes(relaxed) == [c for c in found if c != "PLACE-WALL"]


def test_opengate_leaves_other_building_rules_alone() -> None:
    # A6sw not touching anything: still not reachable / not adjacent
    base = (ROOT / "examples" / "illegal-place.alh").read_text(encoding="utf-8")
    far = base.replace("place A6sw@1,0", "place A6sw@5,0")
    relaxed = far.replace('[Rules "queen-2003"]', '[Rules "queen-2003"]\n[Modules "opengate"]')
    assert _codes(far)  # the tile touches nothing
    assert _codes(relaxed) == _codes(far)


def test_anycoin_lets_gulden_pay_any_field() -> None:
    body = "1. Ben: buy De P7e pay Gu8, place P7e@1,0\n"
    plain = SETUP.format(players="Anna, Ben, Cem", modules="") + body
    assert "BUY-CURRENCY" in _codes(plain)
    with_module = SETUP.format(players="Anna, Ben, Cem", modules="anycoin") + body
    assert _codes(with_module) == []


def test_the_ruleset_lists_who_refines_what_in_order() -> None:
    from referee.engine.extensions import Extensions

    ext = Extensions(["anycoin", "opengate", "wechselstuben"])
    rules = Ruleset(DEFAULT_PROFILE, ext.modules)
    assert rules.refined_by(Decision.PAY_CURRENCIES) == ["anycoin", "wechselstuben"]
    assert rules.refined_by(Decision.PLACE_PROBLEMS) == ["opengate"]
    state = GameState(players=[], ext=ext)
    from referee.catalogue import Currency

    allowed = Context(state).decide(
        Decision.PAY_CURRENCIES, player=None, field=Currency.DENAR, purchase=_NoPurchase()
    )
    assert allowed == {Currency.DENAR, Currency.GULDEN}


class _NoPurchase:
    modules_paid: tuple[object, ...] = ()
    field = None


def test_a_piece_states_which_building_rules_apply_to_it() -> None:
    # geometry.pieces: a piece may say which building rules apply to it (data, no code)
    from dataclasses import dataclass

    from referee.catalogue import BuildingType, Side
    from referee.engine.state import PlayerState
    from referee.geometry.pieces import ALL_RULES, describe
    from referee.record.model import Coord

    @dataclass(frozen=True)
    class Gate:
        walls: frozenset[Side] = frozenset({Side.W})
        type: BuildingType | None = None
        building_rules: frozenset[str] = ALL_RULES - {"PLACE-WALL"}

    state = GameState(players=[PlayerState("Anna", 0)])
    anna = state.players[0]
    ctx = Context(state)
    # its west wall meets the fountain's open east side: a wall problem for any other piece
    plain = ctx.decide(
        Decision.PLACE_PROBLEMS, player=anna, at=Coord(1, 0), piece=Gate(building_rules=ALL_RULES)
    )
    assert [p.code for p in plain] == ["PLACE-WALL", "PLACE-WALK"]
    relaxed = ctx.decide(Decision.PLACE_PROBLEMS, player=anna, at=Coord(1, 0), piece=Gate())
    assert [p.code for p in relaxed] == ["PLACE-WALK"]  # only the rule it leaves out is gone
    assert describe(Gate()).counts_as == {}


def test_hoard_changes_what_counts_as_money_in_the_distribution() -> None:
    """``distribution.money``: the leftover tiles go to "das meiste Geld" as the modules count
    it. With 20 more Dukaten Anna (20), not Cem (15), has the most for the garden on the
    Dukaten field."""
    text = (Path(__file__).resolve().parents[1] / "examples" / "game-3p.alh").read_text("utf-8")
    assert "Du:G9 Cem@-6,-2" in text
    assert "END-DISTRIBUTE" not in _codes(text)
    players = '[Players "Anna, Ben, Cem"]'
    hoarded = text.replace(players, players + '\n[Modules "hoard"]')
    games = parse_text(hoarded, "t.alh")
    found = [v for v in check_game(games[0]).violations if v.code == "END-DISTRIBUTE"]
    assert len(found) == 1 and "Anna" in found[0].message()
