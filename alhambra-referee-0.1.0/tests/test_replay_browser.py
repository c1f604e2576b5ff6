"""The HTML replay in a real headless browser: Debian's Chromium driven by selenium.

What a person does: open the page, step with the buttons, the arrow keys, the slider and the
line list, and read the figures off the screen; these must be what ``show --at N`` says. A
violation step shows its rule code, a scoring step its breakdown and the gold wall (a
screenshot is saved under pytest's tmp dir).

Needs ``chromium`` and ``chromium-driver`` (Debian packages; ``.ci/run`` installs them when it
can) and ``selenium`` (the ``test`` extra). Without them every test here is skipped, with the
reason as the skip message and as a warning in the summary.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium
from click.testing import CliRunner

from referee.cli import cli
from referee.commands.show import parse_text, read_games
from referee.engine.extensions import MODULES, Module, register_module
from referee.record.model import Turn
from referee.replay import page_html

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium("HTML replay")


def _write(tmp_path: Path, name: str, game: Any, lang: str = "en") -> Path:
    path = tmp_path / name
    path.write_text(page_html(game, lang), encoding="utf-8")
    return path


def _open(drv: Any, path: Path) -> None:
    drv.get(path.as_uri())
    drv.get_log("browser")  # the log of earlier pages is not this page's


def _errors(drv: Any) -> list[dict[str, Any]]:
    return [e for e in drv.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def _step(drv: Any) -> int:
    return int(drv.find_element("css selector", "body").get_attribute("data-step"))


def _shown(drv: Any) -> dict[str, Any]:
    """The figures the page shows now, read off the DOM."""
    return drv.execute_script(
        """
        var players = Array.from(document.querySelectorAll('#players .player')).map(function (p) {
          return {name: p.getAttribute('data-player'),
                  score: +p.querySelector('.score').getAttribute('data-score'),
                  tiles: +p.getAttribute('data-tiles'),
                  hand: Array.from(p.querySelectorAll('.hand [data-code]')).map(
                      function (c) { return c.getAttribute('data-code'); })};
        });
        var market = Array.from(document.querySelectorAll('#market .slot')).map(function (s) {
          var code = s.querySelector('.tile').getAttribute('data-code');
          return code === '' ? null : code;
        });
        return {players: players, market: market,
                tomove: document.getElementById('tomove').textContent};
        """
    )


def _show(path: Path, at: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["show", str(path), "--at", at, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _assert_same(shown: dict[str, Any], show: dict[str, Any]) -> None:
    assert [p["name"] for p in shown["players"]] == [p["name"] for p in show["players"]]
    assert [p["score"] for p in shown["players"]] == [p["score"] for p in show["players"]]
    assert shown["market"] == list(show["market"].values())
    for mine, theirs in zip(shown["players"], show["players"], strict=True):
        assert mine["tiles"] == sum(1 for c in theirs["alhambra"] if c["tile"] != "fountain")
        assert mine["hand"] == theirs["hand"]
    if show["to_move"]:
        assert show["to_move"] in shown["tomove"]


def _after_turn_step(game: Any, n: int) -> int:
    for i, item in enumerate(game.body):
        if isinstance(item, Turn) and item.number == n + 1:
            return i
    raise AssertionError(f"no turn {n + 1}")


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    game = read_games(str(EXAMPLES / "game-4p.alh"))[0]
    return game, _write(tmp_path_factory.mktemp("replay"), "game-4p.html", game)


def test_loads_without_console_errors(browser: Any, four: tuple[Any, Path]) -> None:
    game, path = four
    _open(browser, path)
    assert _errors(browser) == []
    assert _step(browser) == 0
    assert browser.title.startswith(game.header("Event") or "")
    # every record line is in the clickable list
    items = browser.find_elements("css selector", "#lines li[data-step]")
    assert len(items) == len(game.body) + 2
    info = browser.find_element("id", "stepinfo").text
    assert info.startswith(f"step 0 of {len(game.body) + 1}")
    # stepping through the whole game raises no error either
    browser.find_element("css selector", "body").send_keys("\ue010")  # End
    assert _step(browser) == len(game.body) + 1
    assert _errors(browser) == []


def test_keys_and_buttons_show_what_show_says(browser: Any, four: tuple[Any, Path]) -> None:
    from selenium.webdriver.common.keys import Keys

    game, path = four
    _open(browser, path)
    body = browser.find_element("css selector", "body")
    # keys: from the start, right arrow to "after turn 3"
    target = _after_turn_step(game, 3)
    for _ in range(target):
        body.send_keys(Keys.ARROW_RIGHT)
    assert _step(browser) == target
    assert "after turn 3" in browser.find_element("id", "stepinfo").text
    _assert_same(_shown(browser), _show(EXAMPLES / "game-4p.alh", "3"))
    # buttons: next twice, previous twice comes back to the same figures
    before = _shown(browser)
    browser.find_element("id", "next").click()
    browser.find_element("id", "next").click()
    assert _step(browser) == target + 2
    browser.find_element("id", "prev").click()
    browser.find_element("id", "prev").click()
    assert _shown(browser) == before
    # the line list: click the line just before turn 31
    target = _after_turn_step(game, 30)
    item = browser.find_element("id", f"ln{target}")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", item)
    item.click()
    assert _step(browser) == target
    assert "cur" in item.get_attribute("class").split()
    _assert_same(_shown(browser), _show(EXAMPLES / "game-4p.alh", "30"))
    # the slider
    target = _after_turn_step(game, 60)
    browser.execute_script(
        "var s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));",
        target,
    )
    assert _step(browser) == target
    _assert_same(_shown(browser), _show(EXAMPLES / "game-4p.alh", "60"))
    # last / first buttons and the Home key
    browser.find_element("id", "last").click()
    _assert_same(_shown(browser), _show(EXAMPLES / "game-4p.alh", "end"))
    body.send_keys(Keys.HOME)
    assert _step(browser) == 0
    browser.find_element("id", "last").click()
    browser.find_element("id", "first").click()
    assert _step(browser) == 0
    assert browser.find_element("id", "first").get_attribute("disabled") is not None
    assert _errors(browser) == []


def test_violation_step_shows_rule_code_and_cell(browser: Any, tmp_path: Path) -> None:
    game = read_games(str(EXAMPLES / "illegal-place.alh"))[0]
    path = _write(tmp_path, "illegal.html", game, "de")
    _open(browser, path)
    bad = browser.find_element("css selector", "#lines li.bad")
    assert "PLACE-WALL" in bad.text
    bad.click()
    findings = browser.find_element("id", "findings").text
    assert "PLACE-WALL" in findings and "PLACE-WALK" in findings
    assert "Alhambra-Bauregeln" in findings  # the rulebook section
    assert "Seiten passen nicht" in findings  # the rule's German name
    # the concerned cell is highlighted in Cem's Alhambra, and Cem's board is marked
    cem = browser.find_element("css selector", '.player[data-player="Cem"]')
    assert "vplayer" in cem.get_attribute("class").split()
    marks = cem.find_elements("css selector", "svg.alh rect.hl")
    assert [m.get_attribute("data-at") for m in marks] == ["1,0", "1,0"]
    # the step after it has no finding
    browser.find_element("id", "next").click()
    assert browser.find_elements("css selector", "#findings .v") == []
    assert _errors(browser) == []


def test_scoring_step_screenshot(browser: Any, four: tuple[Any, Path], tmp_path: Path) -> None:
    _, path = four
    _open(browser, path)
    first_scoring = browser.find_element("css selector", "#lines li.scoring")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", first_scoring)
    first_scoring.click()
    table = browser.find_element("css selector", "#scoring table.breakdown")
    assert table.is_displayed()
    assert "Scoring 1" in browser.find_element("id", "scoring").text
    walls = browser.find_elements("css selector", "#players svg.alh path.longest")
    assert walls and all(w.is_displayed() for w in walls)
    gold = browser.execute_script(
        "return getComputedStyle(document.querySelector('#players path.longest')).stroke;"
    )
    assert gold == "rgb(255, 176, 0)"  # LONGEST_COLOUR of the SVG drawing
    browser.execute_script("window.scrollTo(0, 0);")
    shot = tmp_path / "scoring-step.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 20_000
    # away from a scoring step the gold trace is hidden
    browser.find_element("id", "next").click()
    walls = browser.find_elements("css selector", "#players svg.alh path.longest")
    assert not any(w.is_displayed() for w in walls)


def test_phone_width_reflows(browser: Any, four: tuple[Any, Path], tmp_path: Path) -> None:
    _, path = four
    browser.set_window_size(390, 844)
    try:
        _open(browser, path)
        browser.find_element("id", "last").click()
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth;"
        )
        assert overflow <= 1
        widths = browser.execute_script(
            "return Array.from(document.querySelectorAll('#players svg.alh'))"
            ".map(function (s) { return s.getBoundingClientRect().width; });"
        )
        assert widths and max(widths) <= 390
        browser.save_screenshot(str(tmp_path / "phone.png"))
    finally:
        browser.set_window_size(1280, 1000)


def test_print_shows_the_position_only(browser: Any, four: tuple[Any, Path]) -> None:
    _, path = four
    _open(browser, path)
    browser.find_element("id", "last").click()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element("css selector", ".controls").is_displayed()
        assert not browser.find_element("css selector", ".record").is_displayed()
        assert browser.find_element("id", "players").is_displayed()
        assert len(browser.find_elements("css selector", "#players svg.alh")) == 4
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert browser.find_element("css selector", ".controls").is_displayed()


class _Lanterns(Module):
    """Test-only module, drawn only through its view."""

    name = "replaybrowserlanterns"

    def view(self, state: Any) -> dict[str, Any]:
        return {
            "labels": {"en": "Lanterns", "de": "Laternen"},
            "table": {"lit": state.turn_no},
            "players": {p.name: {"cards": p.hand_size} for p in state.players},
        }


def test_module_view_drawn(browser: Any, tmp_path: Path) -> None:
    register_module(_Lanterns)
    try:
        text = (EXAMPLES / "game-3p.alh").read_text(encoding="utf-8")
        text = text.replace("[Players", f'[Modules "{_Lanterns.name}"]\n[Players', 1)
        game = parse_text(text, "lanterns.alh")[0]
        path = _write(tmp_path, "lanterns.html", game, "de")
    finally:
        MODULES.pop(_Lanterns.name, None)
    _open(browser, path)
    target = _after_turn_step(game, 5)
    browser.find_element("id", f"ln{target}").click()
    panel = browser.find_element("css selector", f'.module[data-module="{_Lanterns.name}"]')
    assert "Laternen" in panel.text
    assert "lit" in panel.text and "5" in panel.text
    rows = panel.find_elements("css selector", "tr[data-player]")
    assert [r.get_attribute("data-player") for r in rows] == list(game.players)
    assert _errors(browser) == []
