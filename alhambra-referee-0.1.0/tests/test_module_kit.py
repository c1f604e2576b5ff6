"""The module kit (``referee/modules/base.py``, ``referee/notation/tokens.py``): names and
texts read from a module's YAML, the piece base, the one walls reader, the money-pile windows,
the views. The bundled modules are checked by their own tests and the contract; here each part
is checked against what the modules did by hand before (the same answers)."""

from __future__ import annotations

import math
import sys
import types
from pathlib import Path

import pytest
from conftest import run, view
from hypothesis import given
from hypothesis import strategies as st

from referee.catalogue import SIDES, Side
from referee.engine.extensions import MODULES
from referee.engine.rules import RULES
from referee.messages import CATALOGUE, lookup
from referee.modules import BUNDLED
from referee.modules.base import (
    KIT_KEYS,
    BundledModule,
    ModulePiece,
    in_pile_window,
    module_data,
    pile_windows,
)
from referee.notation.tokens import WALL_LETTERS, read_walls, walls_token
from referee.record.model import ComponentRef

# ------------------------------------------------------------------------------ walls


def _by_hand(text: str, letters: str = "neosw") -> frozenset[Side] | None:
    """The loop the five modules each carried (magisch, medina, bauland, bazare, plaetze)."""
    if text == "x":
        return frozenset()
    found: set[Side] = set()
    for ch in text:
        side = WALL_LETTERS.get(ch) if ch in letters else None
        if side is None or side in found:
            return None
        found.add(side)
    return frozenset(found) if found else None


@given(st.text(alphabet="neoswxq0", max_size=5))
def test_read_walls_reads_as_every_module_did(text: str) -> None:
    assert read_walls(text) == _by_hand(text)
    assert read_walls(text, letters="nesw") == _by_hand(text, "nesw")


@given(st.sets(st.sampled_from(SIDES)))
def test_walls_token_reads_back(walls: set[Side]) -> None:
    written = walls_token(frozenset(walls))
    assert read_walls(written) == frozenset(walls)
    assert written == ("".join(s.value.lower() for s in SIDES if s in walls) or "x")


def test_walls_examples() -> None:
    assert read_walls("ne") == {Side.N, Side.E}
    assert read_walls("o") == {Side.E}  # Ost
    assert read_walls("o", letters="nesw") is None
    assert read_walls("nn") is None and read_walls("") is None
    assert read_walls("0", none=("0", "x")) == frozenset()
    assert (
        walls_token(frozenset(), none="") == "" and walls_token(frozenset({Side.W, Side.N})) == "nw"
    )


# ------------------------------------------------------------------------------ piles


@pytest.mark.parametrize("n", [0, 1, 7, 52, 90, 108])
@pytest.mark.parametrize("tol", [0.0, 0.1, 0.25, 0.5])
def test_pile_windows_are_the_arithmetic_the_modules_carried(n: int, tol: float) -> None:
    state = types.SimpleNamespace(
        reshuffles=0, setup_after=n, profile=types.SimpleNamespace(pile_tolerance=tol)
    )
    got = pile_windows(state, (2, 3, 4))  # type: ignore[arg-type]
    if n == 0:
        assert got is None
        return
    # Wechselstuben: "kommen je 2 Wechselstuben verdeckt in den 2., 3. und 4. Stapel"
    assert got == [
        (max(0, math.floor(n / 5 * (1 - tol))), min(n, math.ceil(4 * n / 5 * (1 + tol))))
    ]
    # Baumeister: "je 3 Baumeisterkarten in den 3. Stapel und 5. Stapel"
    (lo3, hi3), (lo5, hi5) = pile_windows(state, (5, 3))  # type: ignore[arg-type,misc]
    assert lo3 == max(0, math.floor(2 * n / 5 * (1 - tol)))
    assert hi3 == min(n, math.ceil(3 * n / 5 * (1 + tol)))
    assert lo5 == max(0, math.floor(4 * n / 5 * (1 - tol))) and hi5 is None
    for k in range(n + 3):
        assert in_pile_window(k, [(lo3, hi3), (lo5, hi5)]) == (lo3 <= k <= hi3 or lo5 <= k)


def test_no_pile_window_after_a_reshuffle() -> None:
    state = types.SimpleNamespace(
        reshuffles=1, setup_after=90, profile=types.SimpleNamespace(pile_tolerance=0.25)
    )
    assert pile_windows(state, (1,)) is None  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ pieces


def test_piece_defaults_are_what_the_engine_assumes_without_them() -> None:
    """``getattr(piece, name, default)`` in the engine, geometry and reports: the base states
    the same defaults, so a piece on the base behaves as one without the attribute."""

    class Bare:
        pass

    for name, engine_default in [
        ("from_tower", False),
        ("rotatable", False),
        ("rotation_rule", "PLACE-ROTATION"),
        ("cell_fill", None),
    ]:
        assert getattr(ModulePiece, name) == getattr(Bare(), name, engine_default)


def test_module_pieces_write_and_match_their_tokens() -> None:
    from referee.catalogue import BuildingType, Currency
    from referee.modules.bazare import Bazaar
    from referee.modules.magisch import MagicBuilding
    from referee.modules.medina import Medina
    from referee.modules.plaetze import Square

    mg = MagicBuilding(BuildingType.PAVILION, 9, frozenset({Side.N}), frozenset({Side.E}))
    assert str(mg) == mg.code == "mg:P9e" and mg.type is BuildingType.PAVILION
    assert mg.matches(ComponentRef("mg", "P9s")) and not mg.matches(ComponentRef("md", "P9"))
    md = Medina(5, frozenset())
    assert md.code == "md:5x" and md.type is None and md.rotation_rule == "MEDINA-FACE"
    assert Square(BuildingType.TOWER, frozenset()).code == "sq:T0"
    bz = Bazaar(next(iter(Currency)), (BuildingType.PAVILION,) * 3, frozenset())
    assert bz.code.startswith("bz:") and not bz.code.endswith("x")  # bazaars write no "x"
    assert isinstance(mg, ModulePiece) and not hasattr(mg, "__dict__")  # still slotted


# ------------------------------------------------------------------------------ YAML


@pytest.mark.parametrize("cls", BUNDLED, ids=lambda c: c.name)
def test_names_and_texts_come_from_the_yaml(cls: type[BundledModule]) -> None:
    data = module_data(cls.name)
    assert cls.title_en == data["title"]["en"] and cls.title_de == data["title"]["de"]
    if "summary" in data:
        assert cls.summary_de == data["summary"]["de"]
    for code, text in (data.get("rule_texts") or {}).items():
        rule = RULES[code]
        assert (rule.name_en, rule.name_de) == (text["name"]["en"], text["name"]["de"])
        assert lookup("de", code) == text["message"]["de"]
        for reason, both in (text.get("reasons") or {}).items():
            assert lookup("en", f"{code}/{reason}") == both["en"]
    for key, both in (data.get("messages") or {}).items():
        assert lookup("de", key) == both["de"]


def test_a_module_file_with_a_yaml_beside_it_is_filled_from_it(tmp_path: Path) -> None:
    (tmp_path / "kitdemo.yaml").write_text(
        """module: kitdemo
aliases: [kit-demo]
title: {en: "Kit demo", de: "Kit-Beispiel"}
section: "KIT DEMO"
page: 99
summary: {en: a demo, de: ein Beispiel}
switches:
  side: {default: left, values: [left, right], en: which side, de: welche Seite}
rule_texts:
  KITDEMO-RULE:
    part: Spielmaterial
    name: {en: demo rule, de: Beispielregel}
    message: {en: "{x} is wrong: {detail}", de: "{x} ist falsch: {detail}"}
    reasons:
      why: {en: because, de: weil}
view_terms_de:
  things: Dinge
""",
        encoding="utf-8",
    )
    source = tmp_path / "kitdemo.py"
    source.write_text(
        "from referee.modules.base import BundledModule\n\n"
        "class KitDemo(BundledModule):\n    summary = 'its own summary'\n",
        encoding="utf-8",
    )
    mod = types.ModuleType("kitdemo")
    mod.__file__ = str(source)
    sys.modules["kitdemo"] = mod
    try:
        exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), mod.__dict__)
    finally:
        del sys.modules["kitdemo"]
    cls = mod.KitDemo
    assert (cls.name, cls.aliases, cls.title_de) == ("kitdemo", ("kit-demo",), "Kit-Beispiel")
    assert cls.section == "rulebook-bigbox-de-2019.txt § KIT DEMO" and cls.page == 99
    assert cls.summary == "its own summary"  # what the class states itself wins
    assert cls.summary_de == "ein Beispiel"
    assert cls.options == {"side": ("left", ("left", "right"), "which side", "welche Seite")}
    assert cls.view_terms_de == {"things": "Dinge"}
    rule = RULES["KITDEMO-RULE"]
    assert rule.section == "rulebook-bigbox-de-2019.txt § KIT DEMO: Spielmaterial"
    assert lookup("de", "KITDEMO-RULE/why") == "weil"
    assert "kitdemo" not in MODULES  # registering stays @bundled's job
    del RULES["KITDEMO-RULE"]  # leave the registry and the catalogue as they were
    for texts in CATALOGUE.values():
        for key in [k for k in texts if k.startswith("KITDEMO-RULE")]:
            del texts[key]


def test_modules_command_shows_the_component_data_without_the_kit_keys() -> None:
    from referee.commands.modules import module_info

    info = module_info(MODULES["magisch"], with_data=True)
    assert "components" in info["data"] and not KIT_KEYS & set(info["data"])
    assert info["summary_de"].startswith("6 magische Gebäude")


# ------------------------------------------------------------------------------ views


def test_shown_puts_the_titles_first_and_leaves_out_what_is_none() -> None:
    module = MODULES["magisch"]()
    assert module.shown({"a": "1"}, {"Anna": {"b": "2"}}) == {
        "labels": {"en": "The Magic Buildings", "de": "Die magischen Gebäude"},
        "table": {"a": "1"},
        "players": {"Anna": {"b": "2"}},
    }
    assert list(module.shown(players={})) == ["labels", "players"]


def test_view_helper_reads_a_module_through_its_view() -> None:
    rep = run("1. Ben: take Gu8\n", "magisch")
    shown = view(rep, "magisch")
    assert shown["labels"]["de"] == "Die magischen Gebäude"
    assert shown["table"]["in the tower"] == "6"
    assert "im Turm" in view(rep, "magisch", "de")["table"]


# ------------------------------------------------------------------------------ hidden hands


def test_hidden_hands_deal_show_and_take() -> None:
    from collections import Counter

    from referee.modules.base import HiddenHands

    hands = HiddenHands()
    hands.deal_unseen(["Anna", "Ben"], 3)
    assert hands.hidden_parts("Anna", str) == ([], 3) and hands.dealt_known == {
        "Anna": False,
        "Ben": False,
    }
    hands.hand["Anna"].update(["T12", "G10"])
    held = hands.hand["Anna"]
    assert hands.hidden_parts("Anna", str.lower) == (["g10", "t12"], 3)
    assert hands.take_known("Anna", "G10") and not hands.take_known("Anna", "G10")
    assert hands.hand["Anna"] is held and held == Counter({"T12": 1})  # the same Counter
    assert "G10" not in held  # no zero count left behind


def test_bonus_cards_view_shows_known_and_unknown_face_down_cards() -> None:
    rep = run("* bonus Anna G10 ?\n1. Ben: take Gu8\n", "bonuskarten", players="Anna, Ben")
    shown = view(rep, "bonuskarten")["players"]
    assert shown["Anna"]["face down"] == "G10- ?" and shown["Ben"]["face down"] == "? ? ?"


# ------------------------------------------------------------------------------ named players


def test_named_contenders_flag_unknown_names_and_leave_out_the_lines_own_player() -> None:
    from referee.modules.base import named_contenders, named_player
    from referee.record.model import GenericArg, Pos

    rep = run("1. Ben: take Gu8\n")
    state = rep.state
    assert state is not None
    anna, ben = state.player_named("Anna"), state.player_named("Ben")
    at = Pos(7, 3)
    before = len(state.found)
    args = [GenericArg("Ben", Pos(7, 9)), GenericArg("Zed", Pos(7, 13)), GenericArg("Anna")]
    assert named_contenders(state, args, at, skip=anna) == [(ben, Pos(7, 9))]
    found = state.found[before:]
    assert [(v.code, v.column, v.player) for v in found] == [("UNKNOWN-PLAYER", 13, "Zed")]
    assert "Anna, Ben, Cem" in found[0].message()
    assert named_player(state, GenericArg("Cem"), at) is state.player_named("Cem")


# ------------------------------------------------------------------------------ the template


def _blocks(language: str) -> list[str]:
    text = (Path(__file__).resolve().parents[1] / "docs" / "modules.md").read_text("utf-8")
    parts = text.split(f"```{language}\n")[1:]
    return [p.split("```", 1)[0] for p in parts]


def test_the_guides_template_is_a_working_module(tmp_path: Path) -> None:
    """docs/modules.md's template and its YAML, written to files, make a module: registered,
    named and titled from the YAML, its rule text registered, its piece writing and reading
    its token, its default view."""
    from referee.engine.state import GameState

    code = next(b for b in _blocks("python") if "class Beispiele" in b)
    data = next(b for b in _blocks("yaml") if "module: beispiele" in b)
    (tmp_path / "beispiele.yaml").write_text(data, encoding="utf-8")
    source = tmp_path / "beispiele.py"
    source.write_text(code, encoding="utf-8")
    mod = types.ModuleType("beispiele")
    mod.__file__ = str(source)
    sys.modules["beispiele"] = mod
    try:
        exec(compile(code, str(source), "exec"), mod.__dict__)
        cls = MODULES["beispiele"]
        assert cls is mod.Beispiele and MODULES["examples"] is cls
        assert cls.title_de == "Die Beispiele" and cls.page == 99
        assert cls.section == "rulebook-bigbox-de-2019.txt § DIE BEISPIELE"
        assert RULES["EXAMPLE-TOKEN"].section.endswith("DIE BEISPIELE: Spielmaterial")
        piece = mod.Example(5, frozenset({Side.N}))
        assert str(piece) == "bs:5n" and piece.matches(ComponentRef("bs", "5"))
        assert not piece.matches(ComponentRef("bs", "7n")) and piece.type is None
        assert mod.parse_example("5x") == (5, frozenset()) and mod.parse_example("5q") is None
        state = GameState.__new__(GameState)  # the default view reads only the players
        state.players = []
        module = cls()
        assert module.tower_components() == {"5": 1, "7": 1}
        assert module.shown()["labels"] == {"en": "The Examples", "de": "Die Beispiele"}
    finally:
        del sys.modules["beispiele"]
        for key in ("beispiele", "examples"):
            MODULES.pop(key, None)
        RULES.pop("EXAMPLE-TOKEN", None)
        for texts in CATALOGUE.values():
            for key in [k for k in texts if k.startswith("EXAMPLE-TOKEN")]:
                del texts[key]
