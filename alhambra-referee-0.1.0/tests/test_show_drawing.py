"""The terminal drawing of an Alhambra and of the table (golden files in tests/golden/show/).

Set ``UPDATE_GOLDEN=1`` to rewrite the golden files after a deliberate change (then read the
diff before committing it).
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.catalogue import Currency, MoneyCard, Side, catalogue
from referee.geometry import Alhambra, layout_problems
from referee.record.model import Coord
from referee.reports.terminal import (
    FOUNTAIN,
    PlayerView,
    TableView,
    cell_of,
    cells_of,
    draw_alhambra,
    draw_table,
    want_color,
)

GOLDEN = Path(__file__).parent / "golden" / "show"
TILES = {k.full_code: k for k in catalogue().tiles}


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_single_fountain() -> None:
    lines = draw_alhambra(Alhambra())
    assert lines == [
        "     0",
        "  ┌─────┐",
        "0 │  ** │",
        "  └─────┘",
    ]


def test_walls_heavy_open_sides_light() -> None:
    alh = Alhambra([(Coord(1, 0), TILES["P7e"])])  # pavilion 7: wall on the east side only
    lines = draw_alhambra(alh)
    assert lines == [
        "     0     1",
        "  ┌─────┬─────┒",
        "0 │  ** │  P7 ┃",
        "  └─────┴─────┚",
    ]


def test_north_is_up_and_coordinates_on_the_axes() -> None:
    alh = Alhambra([(Coord(0, 1), TILES["T11-"]), (Coord(0, -1), TILES["A9-"])])
    lines = draw_alhambra(alh)
    assert lines[0].split() == ["0"]
    rows = [line for line in lines if "T11" in line or "A9" in line or "**" in line]
    assert "T11" in rows[0] and "**" in rows[1] and "A9" in rows[2]
    assert rows[0].split()[0] == "1" and rows[2].split()[0] == "-1"


def test_marks_are_drawn_in_empty_cells_only() -> None:
    lines = draw_alhambra(Alhambra(), marks=[Coord(1, 0), Coord(0, 0)])
    assert "+" in lines[2]
    assert lines[2].count("+") == 1
    assert "**" in lines[2]


def test_colour_only_when_asked() -> None:
    alh = Alhambra([(Coord(1, 0), TILES["P7e"])])
    plain = "\n".join(draw_alhambra(alh))
    coloured = "\n".join(draw_alhambra(alh, color=True))
    assert "\x1b[" not in plain
    assert "\x1b[" in coloured
    assert (
        coloured.replace("\x1b[38;5;33m", "").replace("\x1b[38;5;45m", "").replace("\x1b[0m", "")
        == plain
    )


def test_want_color() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    class Pipe:
        def isatty(self) -> bool:
            return False

    assert want_color("auto", Tty(), {}) is True  # type: ignore[arg-type]
    assert want_color("auto", Pipe(), {}) is False  # type: ignore[arg-type]
    assert want_color("auto", Tty(), {"NO_COLOR": "1"}) is False  # type: ignore[arg-type]
    assert want_color("always", Pipe(), {"NO_COLOR": "1"}) is True  # type: ignore[arg-type]
    assert want_color("never", Tty(), {}) is False  # type: ignore[arg-type]


def test_cell_views() -> None:
    assert cells_of(Alhambra())[Coord(0, 0)] == FOUNTAIN
    view = cell_of(TILES["G10n"])
    assert view.text == "G10" and view.walls == frozenset({Side.N})


def anna_alhambra() -> Alhambra:
    """A legal seven-tile Alhambra (no building problem; longest outer wall 9)."""
    layout = {
        "0,1": "C8nw",
        "1,1": "C7ne",
        "-1,0": "A5nw",
        "1,0": "S9-",
        "2,0": "T8nes",
        "-1,-1": "G12s",
        "0,-1": "A10-",
    }
    return Alhambra((Coord(*map(int, at.split(","))), TILES[code]) for at, code in layout.items())


def test_example_layout_is_legal() -> None:
    assert layout_problems(anna_alhambra()) == []


def example_table(where: str = "after turn 12") -> TableView:
    anna = anna_alhambra()
    return TableView(
        players=(
            PlayerView(
                "Anna",
                score=23,
                hand=(MoneyCard(Currency.GULDEN, 3), MoneyCard(Currency.DENAR, 7)),
                reserve=(TILES["T9ne"],),
                alhambra=cells_of(anna),
            ),
            PlayerView("Ben", score=10, hand=None, alhambra=cells_of(Alhambra())),
        ),
        market={
            Currency.GULDEN: TILES["T10w"],
            Currency.DIRHAM: TILES["G8ne"],
            Currency.DENAR: None,
            Currency.DUKATEN: TILES["C9w"],
        },
        display=(MoneyCard(Currency.GULDEN, 1), MoneyCard(Currency.DIRHAM, 4)),
        to_move="Ben",
        scorings_done=1,
        where=where,
    )


def test_table_golden_en() -> None:
    check_golden("table-en.txt", draw_table(example_table(), "en"))


def test_table_golden_de() -> None:
    text = draw_table(example_table("nach Zug 12"), "de")
    check_golden("table-de.txt", text)
    assert "Bauhof" in text and "Auslage" in text and "Ben ist am Zug" in text


def test_table_only_one_player() -> None:
    text = draw_table(example_table(), "en", only="ben")
    assert "Anna" not in text and "Ben" in text


def test_dirk_is_shown_by_type() -> None:
    table = TableView(
        players=(),
        dirk=(TILES["T9ne"], TILES["T12-"], TILES["S5sw"], TILES["A7es"], TILES["C8nw"], None),
    )
    assert "Dirk: 6 tiles: S=1 A=1 C=1 T=2 ?=1" in draw_table(table, "en")
    few = TableView(players=(), dirk=(TILES["T9ne"],))
    assert "Dirk: T9ne (Turm 9)" in draw_table(few, "de")
