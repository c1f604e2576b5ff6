"""`alhambra-referee profiles` and `profiles show`: text, JSON and YAML; exit codes 0 / 2 / 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from referee.cli import main
from referee.profiles import PARAMETERS, list_profiles, load_profile


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_list_names_every_bundled_profile_with_a_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "profiles")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == list_profiles()
    assert "(default)" in lines[0]
    for line, name in zip(lines, list_profiles(), strict=True):
        assert load_profile(name).description in line


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_list_as_data(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "profiles", "--format", fmt)
    assert code == 0
    data = json.loads(out) if fmt == "json" else yaml.safe_load(out)
    assert [d["name"] for d in data] == list_profiles()
    assert [d["default"] for d in data] == [True, False, False, False, False]
    assert data[2]["extends"] == "queen-2003"


def test_show_prints_each_parameter_with_its_value_and_source(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "profiles", "show", "piatnik-hu")
    assert code == 0
    assert out.startswith("piatnik-hu: ")
    for name in PARAMETERS:
        assert any(line.startswith(name + " ") for line in out.splitlines()), name
    assert "dirk_second_draw         2   (differs from queen-2003)" in out
    assert "csak 2 db-ot" in out  # the Hungarian text quoted as the source
    assert out.count("source: ") == len(PARAMETERS)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_show_as_data(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "profiles", "show", "bga", "--format", fmt)
    assert code == 0
    data = json.loads(out) if fmt == "json" else yaml.safe_load(out)
    assert data["name"] == "bga"
    assert data["parameters"] == load_profile("bga").parameters()
    assert set(data["sources"]) == set(PARAMETERS)
    assert data["sources"]["wall_run"].startswith("issue 8")


def test_show_checks_a_user_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "club.yaml"
    good.write_text("extends: queen-bigbox-2019\nreserve_limit: 4\n", encoding="utf-8")
    code, out, _ = run(capsys, "profiles", "show", str(good), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["parameters"]["reserve_limit"] == 4
    assert data["parameters"]["tile_supply"] == "tower"
    assert data["origin"] == str(good)


def test_an_invalid_user_file_exits_2_with_every_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("gifts: anyone\nreserve_limt: 4\n", encoding="utf-8")
    code, out, err = run(capsys, "profiles", "show", str(bad))
    assert code == 2
    assert out == ""
    assert f"error: {bad}:1:8: gifts: " in err
    assert f"error: {bad}:2:1: reserve_limt: unknown key" in err
    assert "Traceback" not in err


def test_an_unknown_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "profiles", "show", "queen-2004")
    assert code == 3
    assert "queen-2004" in err and "queen-2003" in err


def test_an_unknown_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "profiles", "--format", "xml")
    assert code == 3


def test_an_empty_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "profiles", "show", "")
    assert code == 3


def test_a_folder_is_reported_as_unreadable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "profiles", "show", str(tmp_path))
    assert code == 2
    assert "not a file" in err


# The record names its profile in the header; `check --rules NAME|FILE` overrides it.
EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "two-player-queen-2003.alh")


def test_check_uses_the_header_profile_and_rules_overrides_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, "check", EXAMPLE)[0] == 0
    code, out, _ = run(capsys, "check", EXAMPLE, "--rules", "piatnik-hu")
    assert code == 1
    assert "DIRK-DRAW" in out
    club = tmp_path / "club.yaml"
    club.write_text("extends: queen-2003\ndirk_second_draw: 2\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", EXAMPLE, "--rules", str(club))
    assert code == 1 and "DIRK-DRAW" in out
    club.write_text("extends: queen-2003\ntile_supply: tower\n", encoding="utf-8")
    assert run(capsys, "check", EXAMPLE, "--rules", str(club))[0] == 0


def test_check_with_a_broken_profile_file_names_file_line_and_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: queen-2003\ngifts: anyone\n", encoding="utf-8")
    code, _, err = run(capsys, "check", EXAMPLE, "--rules", str(bad))
    assert code in (2, 3)
    assert f"{bad}:2:8: gifts:" in err
    assert "Traceback" not in err
