"""The table scoring page (``alhambra-referee serve``) in a real headless browser.

What the players do at the table: tap a cell of an Alhambra, pick the tile, type the points
before the scoring, and read the breakdown. The figures on the screen must be what
``alhambra-referee score`` says of the position block the page shows; a wall mismatch is shown
on its tiles; the page fits a 390 px phone; it speaks German.

Needs Debian's ``chromium`` and ``chromium-driver`` and ``selenium``, like the replay's browser
tests (``tests/test_replay_browser.py``); without them every test here is skipped with the
reason as a warning.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium
from serve_support import running_server, score_json

from referee.catalogue import Side, catalogue
from referee.notation import parse_text
from referee.scoring.position import find_position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CSS = "css selector"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium("serve page")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running_server() as server:
        yield server.url


# ------------------------------------------------------------------------------ helpers


def _wait(drv: Any, what: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(drv, timeout, poll_frequency=0.05).until(what)


def _open(drv: Any, url: str, lang: str = "en") -> None:
    drv.set_window_size(1280, 1000)
    drv.get(url + ("?lang=de" if lang == "de" else ""))
    drv.get_log("browser")
    _settled(drv)


def _settled(drv: Any) -> None:
    """Wait until the page's last request has its answer on the screen."""
    _wait(
        drv,
        lambda d: d.execute_script(
            "return document.body.getAttribute('data-state') !== null && "
            "!document.body.classList.contains('busy') && "
            "!document.querySelector('#picker:not([hidden])')"
        ),
    )


def _errors(drv: Any) -> list[dict[str, Any]]:
    return [e for e in drv.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def _player_index(drv: Any, name: str) -> int:
    cards = drv.find_elements(CSS, "article.player")
    names = [c.get_attribute("data-player") for c in cards]
    return names.index(name)


def _click(drv: Any, element: Any) -> None:
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()


def _lay(drv: Any, player: int, at: str, code: str) -> None:
    """Tap the cell ``at`` of a player's Alhambra and pick ``code`` (from the tiles that fit,
    or else from those that do not)."""
    from selenium.common.exceptions import StaleElementReferenceException

    _settled(drv)

    def tap(d: Any) -> bool:
        try:  # the drawing is replaced when an answer arrives: find it again
            _click(d, d.find_element(CSS, f'#pic-{player} svg rect.hit[data-at="{at}"]'))
        except StaleElementReferenceException:
            return False
        return True

    _wait(drv, tap)
    _wait(drv, lambda d: d.find_elements(CSS, "#picker-body button.choice"))
    buttons = drv.find_elements(CSS, f'#picker-body button.choice[data-code="{code}"]')
    assert len(buttons) == 1, code
    if not buttons[0].is_displayed():  # among the tiles that do not fit
        _click(drv, drv.find_element(CSS, "#misfits summary"))
    assert buttons[0].get_attribute("disabled") is None, f"{code} greyed out"
    _click(drv, buttons[0])
    _wait(
        drv,
        lambda d: (
            d.find_elements(CSS, f'#pic-{player} svg g.c[data-at="{at}"]')
            and not d.execute_script("return document.body.classList.contains('busy')")
        ),
    )


def _set_points(drv: Any, player: int, points: int) -> None:
    from selenium.webdriver.common.keys import Keys

    box = drv.find_element(CSS, f"#score-{player}")
    box.clear()
    box.send_keys(str(points), Keys.TAB)
    _settled(drv)


def _bfs_order(cells: dict[str, str]) -> list[str]:
    """The cells in an order where each touches the fountain or an earlier one (so each lies
    in the ring of empty cells the page draws around the layout)."""
    done = {"0,0"}
    order: list[str] = []
    while len(order) < len(cells):
        for at in sorted(cells):
            if at in done:
                continue
            x, y = (int(v) for v in at.split(","))
            if any(f"{x + dx},{y + dy}" in done for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                done.add(at)
                order.append(at)
                break
        else:
            raise AssertionError("a cell not connected to the fountain")
    return order


def _table(drv: Any) -> dict[tuple[str, str], str]:
    """The breakdown table as shown: (player, key) -> the bold figure."""
    out = {}
    for td in drv.find_elements(CSS, "#breakdown td[data-player]"):
        bold = td.find_elements(CSS, "b")
        if bold:
            out[(td.get_attribute("data-player"), td.get_attribute("data-key"))] = bold[0].text
    return out


def _three_players() -> dict[str, tuple[int, dict[str, str]]]:
    """Three layouts of examples/final-6p.alh (legal, no tile twice) and the points before."""
    game = parse_text((EXAMPLES / "final-6p.alh").read_text("utf-8"), "final-6p.alh")[0]
    position = find_position(game)
    assert position is not None
    out = {}
    for pp in position.players[:3]:
        cells = {f"{p.at.x},{p.at.y}": p.tile.kind.code for p in pp.alhambra}  # type: ignore[union-attr]
        out[pp.player.name] = (pp.score or 0, cells)
    return out


def _agrees_with_score(drv: Any) -> dict[str, Any]:
    """The table on the screen equals ``score`` of the position block the page shows."""
    text = drv.find_element(CSS, "#position-text").get_attribute("value")
    code, game = score_json(text)
    shown = _table(drv)
    for row in game["scoring"]["players"]:
        name = row["name"]
        for key, b in row["buildings"].items():
            assert shown[(name, key)] == str(b["points"]), (name, key)
        if row["wall"] is not None:
            assert shown[(name, "wall")] == str(row["wall"]["points"])
        assert shown[(name, "points")] == str(row["points"])
        assert shown[(name, "total")] == str(row["total"])
    codes = [f.get_attribute("data-code") for f in drv.find_elements(CSS, "#findings .v")]
    assert codes == [p["code"] for p in game["problems"]]
    return {"code": code, "game": game, "text": text}


# -------------------------------------------------------------------------------- tests


def test_a_three_player_game_laid_out_by_clicking_scores_as_the_score_command(
    browser: Any, url: str, tmp_path: Path
) -> None:
    _open(browser, url)
    plan = _three_players()
    for name, (points, cells) in plan.items():
        i = _player_index(browser, name)
        _set_points(browser, i, points)
        for at in _bfs_order(cells):
            _lay(browser, i, at, cells[at])
    _settled(browser)
    found = _agrees_with_score(browser)
    assert found["code"] == 0 and found["game"]["possible"]
    # the block holds exactly the layouts laid out
    game = parse_text(found["text"], "<page>")[0]
    position = find_position(game)
    assert position is not None
    for pp in position.players:
        points, cells = plan[pp.player.name]
        assert pp.score == points
        assert {f"{p.at.x},{p.at.y}": p.tile.kind.code for p in pp.alhambra} == cells  # type: ignore[union-attr]
    # the totals the command computes for these layouts (examples/final-6p.alh's first three
    # players, scored among themselves)
    totals = {r["name"]: r["total"] for r in found["game"]["scoring"]["players"]}
    assert set(totals) == set(plan)
    shown = {
        b.get_attribute("data-total"): int(b.text)
        for b in browser.find_elements(CSS, "#breakdown b[data-total]")
    }
    assert shown == totals
    # every longest wall is drawn in gold on its Alhambra (segments as the scoring lists them)
    for row in found["game"]["scoring"]["players"]:
        i = _player_index(browser, row["name"])
        gold = browser.find_elements(CSS, f"#pic-{i} svg path.longest")
        assert len(gold) == 1 and gold[0].is_displayed()
        d = gold[0].get_attribute("d")
        assert d.count("M") == row["wall"]["length"]
    assert not _errors(browser)
    browser.save_screenshot(str(tmp_path / "three-players.png"))


def _tile_without(side: Side, exclude: str) -> str:
    return next(
        k.code for k in catalogue().tiles if side not in k.walls and k.code != exclude and k.walls
    )


def test_a_wall_mismatch_is_shown_on_its_tiles(browser: Any, url: str) -> None:
    _open(browser, url)
    tower = next(k for k in catalogue().tiles if k.code == "T13")
    assert Side.E in tower.walls  # "the one tower 13 has an east wall"
    other = _tile_without(Side.W, "T13")
    _lay(browser, 0, "1,0", "T13")
    _lay(browser, 0, "2,0", other)  # its open west side meets the tower's east wall
    _settled(browser)
    found = _agrees_with_score(browser)
    assert found["code"] == 1
    assert "PLACE-WALL" in [p["code"] for p in found["game"]["problems"]]
    for at in ("1,0", "2,0"):
        marks = browser.find_elements(
            CSS, f'#pic-0 svg rect.finding[data-code="PLACE-WALL"][data-at="{at}"]'
        )
        assert len(marks) == 1, at
    labels = [t.text for t in browser.find_elements(CSS, "#pic-0 svg text.fcode")]
    assert "PLACE-WALL" in labels
    box = browser.find_element(CSS, '#findings .v[data-code="PLACE-WALL"]')
    assert "Alhambra-Bauregeln" in box.text and "1,0" in box.text
    assert "vplayer" in browser.find_element(CSS, "#player-0").get_attribute("class")
    # the picker offered the tile among those that do not fit, with the engine's reason
    _click(browser, browser.find_element(CSS, '#pic-0 svg rect.hit[data-at="2,0"]'))
    _wait(browser, lambda d: d.find_elements(CSS, "#picker-body button.choice"))
    tower_button = browser.find_element(CSS, '#picker-body button.choice[data-code="T13"]')
    assert tower_button.get_attribute("disabled") is not None  # used at 1,0: greyed out
    _click(browser, browser.find_element(CSS, "#picker-close"))
    assert not _errors(browser)


@pytest.mark.parametrize(
    "path",
    [
        EXAMPLES / "final-6p.alh",
        EXAMPLES / "final-counts.alh",  # counts instead of layouts, kept as written
        EXAMPLES.parent / "tests" / "golden" / "score" / "module-plaetze-final.alh",
    ],
    ids=lambda p: p.name,
)
def test_loading_a_position_block_gives_the_score_commands_result(
    browser: Any, url: str, path: Path
) -> None:
    _open(browser, url)
    text = path.read_text("utf-8")
    players = len(find_position(parse_text(text, "x")[0]).players)  # type: ignore[union-attr]
    browser.execute_script("document.getElementById('load-text').value = arguments[0];", text)
    _click(browser, browser.find_element(CSS, "#load"))
    _wait(browser, lambda d: len(d.find_elements(CSS, "article.player")) == players)
    _wait(browser, lambda d: len(d.find_elements(CSS, "#breakdown th[scope=col]")) == players)
    _settled(browser)
    found = _agrees_with_score(browser)
    original = score_json(text)[1]
    assert found["game"]["scoring"] == original["scoring"]
    assert browser.find_element(CSS, "#winners").text.endswith(", ".join(original["winners"]))


def test_the_page_fits_a_phone(browser: Any, url: str, tmp_path: Path) -> None:
    _open(browser, url)
    text = (EXAMPLES / "final-6p.alh").read_text("utf-8")
    browser.execute_script("document.getElementById('load-text').value = arguments[0];", text)
    _click(browser, browser.find_element(CSS, "#load"))
    _wait(browser, lambda d: len(d.find_elements(CSS, "#breakdown th[scope=col]")) == 6)
    browser.set_window_size(390, 844)
    try:
        _settled(browser)
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert width <= 390
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        for svg in browser.find_elements(CSS, "article.player svg.alh"):
            assert svg.size["width"] <= width
        # the wide breakdown table scrolls inside its own box, not the page
        box = browser.find_element(CSS, "#scoring .tscroll")
        assert box.size["width"] <= width
        # the picker fits too
        _click(browser, browser.find_elements(CSS, "#pic-0 svg rect.hit.free")[0])
        _wait(browser, lambda d: d.find_elements(CSS, "#picker-body button.choice"))
        sheet = browser.find_element(CSS, "#picker .sheet")
        assert sheet.size["width"] <= width
        browser.save_screenshot(str(tmp_path / "phone-picker.png"))
        _click(browser, browser.find_element(CSS, "#picker-close"))
    finally:
        browser.set_window_size(1280, 1000)
    assert not _errors(browser)


def test_the_german_page(browser: Any, url: str) -> None:
    _open(browser, url)
    _click(browser, browser.find_element(CSS, "#lang-de"))
    _wait(browser, lambda d: d.find_element(CSS, "#title").text == "Wertung am Tisch")
    _lay(browser, 0, "1,0", "T13")
    _lay(browser, 0, "2,0", _tile_without(Side.W, "T13"))
    _settled(browser)
    assert browser.find_element(CSS, "html").get_attribute("lang") == "de"
    rows = [th.text for th in browser.find_elements(CSS, "#breakdown th[scope=row]")]
    assert rows[:6] == ["Pavillon", "Serail", "Arkaden", "Gemächer", "Garten", "Turm"]
    assert "längste Außenmauer" in rows
    box = browser.find_element(CSS, '#findings .v[data-code="PLACE-WALL"]')
    text = browser.find_element(CSS, "#position-text").get_attribute("value")
    _code, game = score_json(text, "--lang", "de")
    german = next(p for p in game["problems"] if p["code"] == "PLACE-WALL")
    assert german["message"] in box.text  # the engine's German message
    assert "Mauer" in german["message"]
    assert browser.find_element(CSS, "#textbox h2").text == "Stellungsblock"
    # and back
    _click(browser, browser.find_element(CSS, "#lang-en"))
    _wait(browser, lambda d: d.find_element(CSS, "#title").text == "Scoring at the table")
    assert not _errors(browser)


def test_record_text_is_never_markup(browser: Any, url: str) -> None:
    """A player name or event with HTML in it is shown as text, nothing runs."""
    _open(browser, url)
    text = (
        '[Event "<img src=x onerror=window.pwned=1>"]\n[Players "A<b>x</b>, B<script>"]\n\n'
        'position\n  player "A<b>x</b>"\n    alhambra T13@1,0\n  player "B<script>"\nend\n'
    )
    browser.execute_script("document.getElementById('load-text').value = arguments[0];", text)
    _click(browser, browser.find_element(CSS, "#load"))
    _wait(browser, lambda d: d.find_elements(CSS, 'article.player[data-player="A<b>x</b>"]'))
    _settled(browser)
    assert browser.execute_script("return window.pwned === undefined")
    assert not browser.find_elements(CSS, "article.player b b, article.player img, main script")
    names = [e.text for e in browser.find_elements(CSS, "article.player .pname")]
    assert names == ["A<b>x</b>", "B<script>"]
    heads = [e.text for e in browser.find_elements(CSS, "#breakdown th[scope=col]")]
    assert heads[:2] == names  # Dirk follows in a two-player game


def _select(drv: Any, css: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(drv.find_element(CSS, css)).select_by_value(value)


def _pick_from_supply(drv: Any, opener: str, code: str) -> None:
    _click(drv, drv.find_element(CSS, opener))
    _wait(drv, lambda d: d.find_elements(CSS, f'#picker-body button.choice[data-code="{code}"]'))
    _click(drv, drv.find_element(CSS, f'#picker-body button.choice[data-code="{code}"]'))
    _settled(drv)


def test_two_players_with_dirk_money_and_a_leftover_tile(browser: Any, url: str) -> None:
    _open(browser, url)
    _click(browser, browser.find_element(CSS, 'button[data-remove="2"]'))
    _settled(browser)
    assert browser.find_element(CSS, "#dirkbox").is_displayed()
    _lay(browser, 0, "1,0", "T13")
    _lay(browser, 1, "0,1", "A8n")
    _pick_from_supply(browser, "#dirk-add", "S9")
    for player, card in ((0, "9"), (1, "5")):
        _click(browser, browser.find_element(CSS, f"#hand-{player} summary"))
        _select(browser, f"#cur-{player}", "Gu")
        _select(browser, f"#val-{player}", card)
        _click(browser, browser.find_element(CSS, f"#addcard-{player}"))
        _settled(browser)
    _click(browser, browser.find_element(CSS, "#leftovers summary"))
    _pick_from_supply(browser, "#market-Gu", "P4")
    text = browser.find_element(CSS, "#position-text").get_attribute("value")
    assert "  dirk S9\n" in text and "hand Gu9" in text and "hand Gu5" in text
    assert "market Gu:P4 Di:- De:- Du:-" in text
    found = _agrees_with_score(browser)
    assert [r["name"] for r in found["game"]["scoring"]["players"]] == ["Anna", "Ben", "Dirk"]
    # the leftover tile goes to the most Gulden, as the server (the engine) says
    item = _wait(browser, lambda d: d.find_element(CSS, '#leftover-answer li[data-field="Gu"]'))
    assert "P4" in item.text and "Anna" in item.text and "Anna 9, Ben 5" in item.text
    # a tile picked for Dirk is greyed out in the players' pickers
    _click(browser, browser.find_element(CSS, '#pic-0 svg rect.hit[data-at="2,0"]'))
    _wait(browser, lambda d: d.find_elements(CSS, "#picker-body button.choice"))
    s9 = browser.find_element(CSS, '#picker-body button.choice[data-code="S9"]')
    assert s9.get_attribute("disabled") is not None and "Dirk" in s9.get_attribute("textContent")
    _click(browser, browser.find_element(CSS, "#picker-close"))
    assert not _errors(browser)


def test_a_module_piece_by_its_token(browser: Any, url: str) -> None:
    _open(browser, url)
    _click(browser, browser.find_element(CSS, "#modules summary"))
    _click(browser, browser.find_element(CSS, '#modules input[value="plaetze"]'))
    _settled(browser)
    _click(browser, browser.find_element(CSS, '#pic-0 svg rect.hit[data-at="0,1"]'))
    box = _wait(browser, lambda d: d.find_element(CSS, "#piece-token"))
    box.send_keys("sq:Tn")  # a tower square with a north wall
    _click(browser, browser.find_element(CSS, "#piece-place"))
    _wait(browser, lambda d: d.find_elements(CSS, '#pic-0 svg g.c[data-at="0,1"]'))
    _settled(browser)
    text = browser.find_element(CSS, "#position-text").get_attribute("value")
    assert '[Modules "plaetze"]' in text and "alhambra sq:Tn@0,1" in text
    _agrees_with_score(browser)
    assert not _errors(browser)


def test_a_module_piece_picked_from_the_list(browser: Any, url: str) -> None:
    """Issue 33: the tap offers the modules' pieces at hand with words and a picture; picking
    the medina of Dana's reserve lays it there, and the table is ``score``'s."""
    golden = EXAMPLES.parent / "tests" / "golden" / "score" / "module-plaetze-final.alh"
    text = golden.read_text("utf-8").replace('"plaetze"]', '"plaetze, medina"]')
    text = text.replace("reserve A4nes C7ne", "reserve A4nes C7ne sq:Gn md:5n")
    _open(browser, url)
    browser.execute_script("document.getElementById('load-text').value = arguments[0];", text)
    _click(browser, browser.find_element(CSS, "#load"))
    _wait(browser, lambda d: len(d.find_elements(CSS, "article.player")) == 4)
    _settled(browser)
    dana = _player_index(browser, "Dana")
    _click(browser, browser.find_element(CSS, f'#pic-{dana} svg rect.hit[data-at="0,4"]'))
    _wait(browser, lambda d: d.find_elements(CSS, "#choices-pieces button"))
    buttons = browser.find_elements(CSS, "#choices-pieces button")
    assert [b.get_attribute("data-code") for b in buttons] == ["sq:Gn", "md:5n"]
    medina = buttons[1]
    assert medina.get_attribute("data-fits") == "yes"
    assert medina.find_element(CSS, ".piecename").text == "medina 5, walls N"
    assert medina.find_elements(CSS, "svg g.c")  # the replay's drawing of the piece
    assert browser.find_element(CSS, "#piece-token")  # the typed token stays
    _click(browser, medina)
    _wait(browser, lambda d: d.find_elements(CSS, f'#pic-{dana} svg g.c[data-at="0,4"]'))
    _settled(browser)
    shown = browser.find_element(CSS, "#position-text").get_attribute("value")
    assert "md:5n@0,4" in shown
    assert "reserve A4 C7ne sq:Gn\n" in shown  # it left the reserve
    found = _agrees_with_score(browser)
    assert not found["game"]["problems"]
    assert not _errors(browser)
