"""The module system: registry, the Modules header, modules not switched on, the command.

The helpers ``run``, ``codes`` and ``messages`` live in ``conftest.py`` (a three-player setup
whose start money, display and market are known); they are imported here too for the files
that still take them from this one.
"""

from __future__ import annotations

import json

import pytest
from conftest import NOISE, SETUP, codes, messages, run, view  # noqa: F401 - shared helpers

from referee.engine import GameReport, check_game
from referee.engine.extensions import MODULES, Extensions, module_owning_verb
from referee.modules import BUNDLED
from referee.modules.base import module_data
from referee.notation import parse_text
from referee.record.model import Coord

# ------------------------------------------------------------------------------ registry


def test_the_four_modules_are_registered_under_their_names_and_aliases() -> None:
    names = {cls.name for cls in BUNDLED}
    assert {"wesir", "wechselstuben", "bonuskarten", "plaetze"} <= names  # and later waves
    for cls in BUNDLED:
        assert MODULES[cls.name] is cls
        for alias in cls.aliases:
            assert MODULES[alias] is cls
        data = module_data(cls.name)
        assert data["module"] == cls.name
        assert cls.section.startswith("rulebook-bigbox-de-2019.txt § ")


def test_no_two_modules_share_a_verb_or_a_component_kind() -> None:
    verbs = [v for cls in BUNDLED for v in cls.verbs]
    kinds = [k for cls in BUNDLED for k in cls.component_kinds]
    assert len(verbs) == len(set(verbs))
    assert len(kinds) == len(set(kinds))
    assert module_owning_verb("wake") == "wesir"
    assert module_owning_verb("square") == "plaetze"


def test_modules_header_switches_modules_on_by_name_or_alias() -> None:
    ext = Extensions(["Wesir", "squares", " Plätze "])
    assert [m.name for m in ext.modules] == ["wesir", "plaetze"]  # an alias twice: once
    assert ext.unknown == []
    assert Extensions(["nonsense"]).unknown == ["nonsense"]


def test_an_unknown_module_in_the_header_is_reported() -> None:
    rep = run("1. Ben: take Gu1 Di4\n", modules="Wesir, Zauberteppich")
    # issue 32: an unknown name is MODULE-UNKNOWN (it is in the header, it is no module)
    assert "MODULE-UNKNOWN" in codes(rep)


# -------------------------------------------------------------- modules not switched on


@pytest.mark.parametrize(
    ("body", "module"),
    [
        ("1. Ben: wake\n", "wesir"),
        ("1. Ben: take Gu1 Di4\n* display De5 Du5\nAnna: vizier, buy Du T12 pay Du3\n", "wesir"),
        ("1. Ben: square sq:Tne, place sq:Tne@0,1\n", "plaetze"),
        ("* squares sq:Tne\n1. Ben: take Gu1 Di4\n", "plaetze"),
        ("1. Ben: take Gu1 Di4\n* display ex:GuDe Du5\n", "wechselstuben"),
        ("1. Ben: take ex:GuDe\n", "wechselstuben"),
        ("1. Ben: buy Gu G11 pay Gu8 ex:GuDe\n", "wechselstuben"),
        ("* bonus Anna ? ? ?\n1. Ben: take Gu1 Di4\n", "bonuskarten"),
        ("1. Ben: take Gu1 Di4, bonus G11\n", "bonuskarten"),
    ],
)
def test_actions_of_a_module_not_switched_on_are_reported(body: str, module: str) -> None:
    rep = run(body, modules="")
    found = [v for v in rep.violations if v.code == "MODULE-NOT-ENABLED"]
    assert found, messages(rep)
    assert all(v.params["module"] == module for v in found)
    assert f"belongs to the module {module}" in found[0].message()


def test_the_same_actions_are_accepted_when_the_module_is_on() -> None:
    rep = run("1. Ben: take Gu1 Di4\n* display ex:GuDe Du5\n", modules="wechselstuben")
    assert codes(rep) == []


# ------------------------------------------------------------------------------ command


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    from referee.cli import main

    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out + err


def test_modules_command_lists_the_four_modules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli(capsys, "modules")
    assert code == 0, out
    for name in ("wesir", "wechselstuben", "bonuskarten", "plaetze"):
        assert name in out
    assert "The Vizier's Favour" in out
    code, out = cli(capsys, "modules", "--lang", "de")
    assert "Die Gunst des Wesirs" in out


def test_modules_command_json_names_verbs_and_sections(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = cli(capsys, "modules", "--format", "json")
    assert code == 0, out
    by_name = {m["name"]: m for m in json.loads(out)["modules"]}
    assert set(by_name) == {cls.name for cls in BUNDLED}
    assert {"wesir", "wechselstuben", "bonuskarten", "plaetze"} <= set(by_name)
    assert "wake" in by_name["wesir"]["verbs"]
    assert by_name["plaetze"]["components"] == ["sq"]
    assert by_name["wechselstuben"]["section"].endswith("DIE WECHSELSTUBEN")


def test_modules_command_one_module_in_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    code, out = cli(capsys, "modules", "squares", "--format", "yaml")
    assert code == 0, out
    data = yaml.safe_load(out)
    assert [m["name"] for m in data["modules"]] == ["plaetze"]
    assert data["modules"][0]["data"]["components"]["squares"]["per_colour"]["T"] == 5


def test_modules_command_unknown_name_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = cli(capsys, "modules", "nonsense")
    assert code == 3
    assert "no module named" in out and "Traceback" not in out


# ---------------------------------------------------------------------------- positions

POSITION = """[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Ben
  market Gu:T13e Di:A9 De:P7 Du:C9w
  display Gu1 Di4 De6 Du2
  player Anna
    hand Gu9 De7 Du3
    alhambra G10-@1,0 T12-@0,1
    {line}
  player Ben
    hand Di9
  player Cem
    hand Du9
end
"""


def position_report(line: str, modules: str, body: str = "") -> GameReport:
    text = POSITION.format(modules=modules, line=line) + body
    games = parse_text(text, "pos.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


def test_module_lines_in_a_position_are_stated_or_reported() -> None:
    assert codes(position_report("vizier asleep", "wesir")) == []
    assert codes(position_report("vizier asleep", "")) == ["MODULE-NOT-ENABLED"]
    assert codes(position_report("nonsense 3", "wesir")) == ["UNKNOWN-VERB"]


def test_a_position_states_a_sleeping_vizier() -> None:
    rep = position_report(
        "vizier asleep",
        "wesir",
        "1. Ben: take Gu1\n* display Gu2\nAnna: vizier, buy Du C9w pay Du9\n",
    )
    assert "WESIR-ASLEEP" in codes(rep)


def test_a_position_states_revealed_bonus_cards() -> None:
    rep = position_report(
        "bonus G10 T12", "bonuskarten", "1. Ben: take Gu1\n* display W1\nscoring 1\n"
    )
    assert [c for c in codes(rep) if c != "SCORING-CARD-PILE"] == []
    row = next(r for r in rep.scorings[0].rows if r.name == "Anna")
    from referee.catalogue import BuildingType

    assert row.buildings[BuildingType.GARDEN].count == 2
    assert row.buildings[BuildingType.TOWER].count == 2
    assert codes(position_report("bonus G11", "bonuskarten")) == ["BONUS-NOT-BUILT"]


def test_a_position_holds_module_components() -> None:
    text = """[Players "Anna, Ben, Cem"]
[Modules "plaetze, wechselstuben"]

position
  next Ben
  market Gu:T13e Di:G8ne De:P7 Du:C9w
  display Gu1 Di4 De6 ex:GuDe
  player Anna
    hand Gu9 De7 ex:DiDu
    alhambra A9-@1,0 A10-@1,1 sq:An@0,1
  player Ben
    hand Di9
    reserve sq:Tne
  player Cem
    hand Du9
end
1. Ben: take ex:GuDe
"""
    rep = check_game(parse_text(text, "pos.alh")[0])
    assert codes(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and str(anna.alhambra.get(Coord(0, 1))) == "sq:An"
    shown = view(rep, "wechselstuben")["players"]  # the hands, as `show` prints them
    assert shown["Anna"]["exchange cards"] == "ex:DiDu"
    assert shown["Ben"]["exchange cards"] == "ex:GuDe"
    off = check_game(parse_text(text.replace("plaetze, ", ""), "pos.alh")[0])
    assert "MODULE-NOT-ENABLED" in codes(off)
