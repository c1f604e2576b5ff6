"""Der Schlüssel zum Tor in the drawings: what lies before a player (the key tiles held face
down, "legt er das oberste Plättchen ... verdeckt vor sich hin", L3514-3516; the half buildings
taken, "an sich nehmen", L3598; the bonus points not scored yet; the wall pieces) in his area
(``Module.player_area``: terminal, SVG), the key tile in the gate tableau while its bonuses are
taken (the view: ``show``, the HTML replay), the plaza on its cell (its label ``pzT``), in
English and German. Record text is escaped where it goes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import module

from referee.cli import cli
from tests.test_module_schluessel import ARCADE_BUY, position, record

BODY = (
    ARCADE_BUY
    + "* key ky:5 wall half plaza\n"
    + "Anna: keybonus wall @1,0 e\n"
    + "Ben: keybonus half P\n"
    + "Cem: keybonus plaza pz:T0, place pz:T0@-1,1\n"
)


def _area(who: str, body: str = BODY) -> list[tuple[str, str]]:
    rep = position(body)
    assert rep.state is not None
    p = rep.state.player_named(who)
    assert p is not None
    return module(rep, "schluessel").player_area(rep.state, p)


def test_the_players_area_in_both_languages() -> None:
    assert _area("Anna") == [("wall pieces: @1,0 east", "Mauerteile: @1,0 Ost")]
    assert _area("Ben") == [("half buildings: pavilion (P)", "halbe Gebäude: Pavillon (P)")]
    assert _area("Cem") == []  # the plaza lies in his Alhambra, drawn on its cell


def test_key_tiles_held_and_points_in_the_area() -> None:
    # an arcade bought by the "für 14" bonus: its key tile waits face down before the buyer
    body = ARCADE_BUY + "* key ky:1 points2 points1 points1\nAnna: keybonus points2\n"
    assert _area("Anna", body) == [
        ("key bonus points not scored yet: 2", "Schlüssel-Siegpunkte noch nicht gewertet: 2")
    ]
    rep = position("", extra="", more="    key held 2\n")
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None
    assert module(rep, "schluessel").player_area(rep.state, anna) == [
        ("key tiles face down: 2", "Schlüssel-Plättchen verdeckt: 2")
    ]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_terminal_svg_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "key.alh"
    path.write_text(record(BODY), encoding="utf-8")
    text = _cli("show", str(path))
    assert "wall pieces: @1,0 east" in text and "half buildings: pavilion (P)" in text
    assert "pzT" in text  # the plaza on its cell
    de = _cli("show", "--lang", "de", str(path))
    assert "halbe Gebäude: Pavillon (P)" in de and "Mauerteile: @1,0 Ost" in de
    svg = tmp_path / "key.svg"
    _cli("render", str(path), "-o", str(svg))
    drawn = svg.read_text(encoding="utf-8")
    assert ">half buildings: pavilion (P)</text>" in drawn and "pzT" in drawn
    html = tmp_path / "key.html"
    _cli("render", str(path), "--html", "-o", str(html))
    page = html.read_text(encoding="utf-8")
    assert (
        "in the gate tableau" in page and "ky:5 (key tile): Anna wall, Ben half, Cem plaza" in page
    )


def test_the_key_tile_in_the_gate_tableau_while_its_bonuses_are_taken(tmp_path: Path) -> None:
    path = tmp_path / "key.alh"
    text = record(BODY)
    path.write_text(text, encoding="utf-8")
    line = next(i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("Anna: keybonus"))
    during = _cli("show", "--at", f"L{line}", str(path))
    assert "in the gate tableau: ky:5: Anna wall, Ben half, Cem plaza" in during
    de = _cli("show", "--lang", "de", "--at", f"L{line}", str(path))
    assert "im Tor-Tableau: ky:5: Anna wall, Ben half, Cem plaza" in de
    after = _cli("show", str(path))  # removed from the game once every bonus is taken
    assert "in the gate tableau" not in after
