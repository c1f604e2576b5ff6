"""Positions of the wave-C modules (issue 16): a moment of a game written as a ``position``
block (``show --format record``) and read back gives the same table and module state, and
``score`` of it the same breakdown; a position that leaves out what a module needs to score is
reported with the module's code, never scored silently without it.

The modules: Die Bazare, Die Badehäuser, Der Wunschbrunnen, Neues Bauland, Die Angreifer, Die
Obstgärten (rulebook-bigbox-de-2019.txt). What a position states for them:

* pieces beside the market: ``aside bz:DePSA`` / ``aside Du bh:PSAC`` / ``aside De ww:4``
  ("Wird beim Auffüllen des Bauhofs ein Bazar gezogen, wird er offen neben den Bauhof gelegt";
  bathhouses and wells "neben den Bauhof angrenzend zu der Währung, für die es gezogen wurde");
* the building-land columns: ``plots 1 G S T`` ("Darunter werden dann zufällig jeweils 3 der
  Baugebäude offen untereinander ... ausgelegt"), plots with their building ``bl:1_12n_C``;
* the attack cards ``attack 1 E`` (revealed) / ``attack 3 W`` (the next one), the open scouts
  ``scouts sc:T sc:S``, a player's scouts ``scouts sc:A``;
* the fruits on the market ``fruit Gu fr:5``, a player's board ``orchard bd:7`` (with its
  layout where stated), the fruits on it and face down ``fruit fr:2 17 down 2``;
* bathhouses, wells and bazaars in an Alhambra by their token, turned as built (``bh:PSAC``
  names the type on each side N, E, S, W; ``ww:3e`` the spout).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import cli
from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.engine.walk import At, state_at
from referee.notation import parse_text
from referee.notation.formatter import format_game
from referee.record.model import Game
from referee.scoring.position import score_position
from referee.scoring.state import score_state

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
WAVE_C = ("bazare", "badehaeuser", "wunschbrunnen", "bauland", "sultan", "angreifer", "obstgaerten")


def _game(name: str) -> Game:
    """``module-NAME.alh``; ``wave-c``: the combined game of the seven wave-C modules."""
    return parse_text((EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8"))[0]


def _headers(game: Game) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def _views(state: Any) -> str:
    views = state.ext.views(state)
    for player in views.get("angreifer", {}).get("players", {}).values():
        # the points each earlier attack cost: history, already in the scores (a position
        # states the cards, not the Alhambras they hit)
        player.pop("attacks", None)
    sultan = views.get("sultan", {})
    # history a position does not state: the used cards, how many were revealed, the face each
    # mark was rolled from (the mark is what counts from then on)
    sultan.get("table", {}).pop("revealed", None)
    for player in sultan.get("players", {}).values():
        player.pop("used", None)
    sultan["players"] = {
        k: v
        for k, v in sultan.get("players", {}).items()
        if v.get("sultan cards", "none") != "none"
    }
    text = json.dumps(views, sort_keys=True, default=str)
    return re.sub(r", rolled [PSACGT]\)", ")", text)


def _breakdown(result: Any) -> dict[str, Any]:
    return {
        row.name: (
            row.total_before,
            {k: (c.points, c.detail("en")) for k, c in row.categories.items()},
        )
        for row in result.rows
    }


def _cut(text: str) -> set[tuple[str, str | None]]:
    """What a block read alone to its end reports because it stops where the game did not:
    a block after scoring 1 or 2 of a two-player game states Dirk's draw still to come (``due
    dirk``, the sixteenth step), so a record that ends there lacks it, as the game's own record
    cut at that moment does (``DIRK-DRAW`` missing-after-scoring)."""
    return {("DIRK-DRAW", "missing-after-scoring")} if "  due dirk\n" in text else set()


def _round_trip(game: Game, at: At) -> tuple[Any, Any, str, Game]:
    state, _ = state_at(game, at)
    text = _headers(game) + "\n\n" + position_text(state)
    again = parse_text(text, "position.alh")[0]
    state2, found = state_at(again, At("end"))
    found = [v for v in found if (v.code, v.reason) not in _cut(text)]
    assert found == [], [v.message() for v in found]
    return state, state2, text, again


def _moments(game: Game) -> list[At]:
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    return [At("turn", k) for k in (1, n // 3, n // 2, (2 * n) // 3, n - 1)] + [
        At("scoring", 1),
        At("scoring", 2),
    ]


@pytest.mark.parametrize("name", [*WAVE_C, "wave-c"])
def test_a_moment_written_as_a_position_reads_back_to_the_same_state_and_score(
    name: str,
) -> None:
    game = _game(name)
    for at in _moments(game):
        state, state2, text, again = _round_trip(game, at)
        # (read to its end, the block's due Dirk draw is over: reported missing, below)
        assert position_text(state2) == position_text(state).replace("  due dirk\n", ""), at
        assert _views(state2) == _views(state), at
        assert format_game(again) == text  # canonical: a fixed point of fmt
        cut = _cut(text)
        assert [v for v in check_game(again).violations if (v.code, v.reason) not in cut] == []
        found = score_position(again)
        codes = {p.code for p in found.problems}
        # only what a position cannot know yet: the attack card of the last scoring
        assert codes <= {"ATTACK-MISSING"}, [p.message() for p in found.problems]
        assert found.result is not None
        assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3)), at


def test_every_wave_c_module_states_its_part_in_the_combined_game() -> None:
    """In the combined game's middle every kind of line occurs (and is read back)."""
    game = _game("wave-c")
    texts = [_round_trip(game, at)[2] for at in _moments(game)]
    joined = "\n".join(texts)
    for needle in ("aside ", "plots ", "attack 1 ", "scouts sc:", "fruit Gu", "orchard bd:"):
        assert needle in joined, needle
    assert any(" bz:" in t and "alhambra" in t for t in texts)
    assert any("ww:" in t for t in texts)
    assert any("bl:" in t and "_" in t for t in texts)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=st.integers(min_value=1, max_value=150))
def test_any_turn_of_the_combined_game_round_trips(turn: int) -> None:
    game = _game("wave-c")
    last, _ = state_at(game, At("end"))
    at = At("turn", min(turn, last.turn_no - 1))
    state, state2, _text, again = _round_trip(game, at)
    assert position_text(state2) == position_text(state)
    assert _views(state2) == _views(state)
    found = score_position(again)
    assert found.result is not None
    assert _breakdown(found.result) == _breakdown(score_state(state.copy(), 3))


def test_show_format_record_writes_the_position_that_check_and_score_read(tmp_path: Path) -> None:
    runner = CliRunner()
    source = EXAMPLES / "module-wave-c.alh"
    got = runner.invoke(cli, ["show", str(source), "--at", "40", "--format", "record"])
    assert got.exit_code == 0, got.output
    text = got.output
    assert text.startswith("[Event ")
    assert "[Result" not in text
    assert "\nposition\n" in text and text.endswith("end\n")
    path = tmp_path / "p.alh"
    path.write_text(text, encoding="utf-8")
    assert runner.invoke(cli, ["fmt", "--check", str(path)]).exit_code == 0
    checked = runner.invoke(cli, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    scored = runner.invoke(cli, ["score", str(path), "--format", "json"])
    data = json.loads(scored.output)
    game = data["games"][0] if "games" in data else data
    codes = [p["code"] for p in game.get("problems", [])]
    assert codes == ["ATTACK-MISSING"]  # scoring 3's card is not revealed at turn 40


# --------------------------------------------------------------- what a position must state


def _score(body: str, modules: str, players: str = "Anna, Ben, Cem") -> Any:
    text = f'[Players "{players}"]\n[Modules "{modules}"]\n\nposition\n{body}end\n'
    return score_position(parse_text(text, "p.alh")[0])


def _codes(found: Any) -> list[str]:
    return [p.code for p in found.problems]


TILES = {"Anna": "G6", "Ben": "S6", "Cem": "P4", "A": "G6", "B": "S6", "C": "P4"}


class _Alh:
    """A player section with one base tile south of the fountain (each player another)."""

    @staticmethod
    def format(name: str, more: str) -> str:
        return f"  player {name}\n    alhambra {TILES[name]}@0,-1 {more}\n"


ALH = _Alh()


def test_a_position_without_the_attack_card_of_the_scoring_says_so() -> None:
    """ "Direkt im Anschluss an eine Wertung wird die oberste Angriffskarte aufgedeckt": the
    final scoring of a position without ``attack 3 X`` is reported, with it the attack counts."""
    body = "".join(ALH.format(name=n, more="") for n in ("Anna", "Ben", "Cem"))
    missing = _score("  scorings 2\n" + body, "angreifer")
    assert "ATTACK-MISSING" in _codes(missing)
    told = next(p for p in missing.problems if p.code == "ATTACK-MISSING")
    assert "`attack SCORING N|E|S|W`" in told.message() and "* attack" not in told.message()
    assert "Stellungsblock" in told.message("de")
    assert "attack" not in missing.result.rows[0].categories
    stated = _score("  scorings 2\n  attack 1 N\n  attack 2 E\n  attack 3 S\n" + body, "angreifer")
    assert "ATTACK-MISSING" not in _codes(stated)
    # the single tile G6 at 0,-1 (no walls): the open south sides of G6 (3 points each) and
    # the east and west sides of the start tile and G6 (1 each)
    row = stated.result.rows[0]
    assert row.categories["attack"].points < 0
    # the next scoring's card: `attack S` means scoring 3 after two scorings
    short = _score("  scorings 2\n  attack S\n" + body, "angreifer")
    assert "ATTACK-MISSING" not in _codes(short)


def test_a_position_states_an_attack_direction_once() -> None:
    """One card per direction: a direction stated for two scorings is ``ATTACK-SUPPLY``."""
    body = "".join(ALH.format(name=n, more="") for n in ("Anna", "Ben", "Cem"))
    found = _score("  scorings 2\n  attack 1 N\n  attack 2 N\n" + body, "angreifer")
    assert "ATTACK-SUPPLY" in _codes(found)
    twice = _score("  attack 1 N\n  attack 1 E\n" + body, "angreifer")
    assert "ATTACK-TIMING" in _codes(twice)
    bad = _score("  attack 4 N\n" + body, "angreifer")
    assert "ATTACK-TIMING" in _codes(bad)


def test_a_position_without_a_players_fruit_board_says_so() -> None:
    """ "Am Ende des Spiels erhält der Spieler für jede komplett mit Früchten belegte
    Punktegruppe seines Tableaus die dort angegebenen Punkte": a player without a board in
    the position is ``ORCHARD-POSITION`` (the others are scored)."""
    body = (
        ALH.format(name="Anna", more="")
        + "    orchard bd:1\n    fruit fr:1 1 fr:2 2 fr:3 3 down 2\n"
        + ALH.format(name="Ben", more="")
        + "    orchard bd:2\n"
        + ALH.format(name="Cem", more="")
    )
    found = _score(body, "obstgaerten")
    assert [(p.code, p.player) for p in found.problems] == [("ORCHARD-POSITION", "Cem")]
    anna = found.result.rows[0].categories["orchard"]
    assert anna.points == 1 + 2 + 2  # groups 1 and 2 of the placeholder board 1, 2 face down


def test_a_position_without_a_wells_spout_or_a_plots_building_says_so() -> None:
    well = _score(
        "".join(ALH.format(name=n, more="ww:3@1,0" if n == "A" else "") for n in "ABC"),
        "wunschbrunnen",
        "A, B, C",
    )
    assert "WELL-SPOUT" in _codes(well)
    plot = _score(
        "".join(ALH.format(name=n, more="bl:1_12n@1,0" if n == "A" else "") for n in "ABC"),
        "bauland",
        "A, B, C",
    )
    assert "BAULAND-CHOICE" in _codes(plot)
    with_building = _score(
        "".join(ALH.format(name=n, more="bl:1_12n_C@1,0" if n == "A" else "") for n in "ABC"),
        "bauland",
        "A, B, C",
    )
    assert "BAULAND-CHOICE" not in _codes(with_building)
    none_option = _score(
        "".join(ALH.format(name=n, more="bl:1_12n@1,0" if n == "A" else "") for n in "ABC"),
        "bauland leftover=none",
        "A, B, C",
    )
    assert "BAULAND-CHOICE" not in _codes(none_option)


def test_pieces_beside_the_market_in_a_position() -> None:
    """``aside`` states the pieces lying beside the market; each comes out of the tower (a
    third bazaar of a currency is more than exist) and is offered at its price."""
    text = (
        '[Players "Anna, Ben, Cem"]\n[Modules "bazare, badehaeuser"]\n\nposition\n'
        "  market Gu:T10 Di:G8ne De:A6sw Du:C9w\n"
        "  aside bz:DePSA Du bh:PSAC\n"
        "  player Anna\n    hand De6\n  player Ben\n  player Cem\n"
        "end\n"
    )
    state, found = state_at(parse_text(text)[0], At("end"))
    assert found == []
    from referee.engine.market_side import side_offers

    offers = {str(o.piece.code): (o.currency.code, o.price) for o in side_offers(state)}
    assert offers == {"bz:DePSA": ("De", 6), "bh:PSAC": ("Du", 8)}
    assert "aside bz:DePSA Du bh:PSAC" in position_text(state)
    too_many = text.replace("aside bz:DePSA", "aside bz:DePSA bz:DeCGT bz:DeTAS")
    _s, found = state_at(parse_text(too_many)[0], At("end"))
    assert "TILE-SUPPLY" in [v.code for v in found]
    not_aside = text.replace("aside bz:DePSA Du bh:PSAC", "aside Du bh:PSAC").replace(
        "bazare, badehaeuser", "bazare"
    )
    _s, found = state_at(parse_text(not_aside)[0], At("end"))
    assert "MODULE-NOT-ENABLED" in [v.code for v in found]
    bad = text.replace("aside bz:DePSA Du bh:PSAC", "aside Du")
    _s, found = state_at(parse_text(bad)[0], At("end"))
    assert [v.code for v in found] == ["MARKET-ASIDE"]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("module-*.alh")), ids=lambda p: p.stem)
def test_every_module_example_is_written_as_a_readable_canonical_position(path: Path) -> None:
    """Every module's example, at mid-game, is written as a position the referee reads without
    a syntax error and that ``fmt`` leaves as it is (pieces on a tile, such as building sites,
    are named by their tile). The full round trip (same state, views and score) is tested here
    for wave C and in test_position_pos_a.py / test_position_pos_b.py for the modules with
    position lines of their own; modules whose state is only their pieces (in hands, reserves,
    Alhambras, on the market) are written by the engine through each piece's code."""
    game = parse_text(path.read_text(encoding="utf-8"))[0]
    last, _ = state_at(game, At("end"))
    state, _ = state_at(game, At("turn", max(1, last.turn_no // 2)))
    text = _headers(game) + "\n\n" + position_text(state)
    again = parse_text(text, "position.alh")[0]
    assert not again.errors, again.errors
    assert format_game(again) == text


def test_scouts_open_taken_and_gone_are_stated_once_each() -> None:
    """ "Nach der 1. und 2. Wertung werden jeweils 2 neue Kundschafterkarten aufgedeckt,
    eventuell noch offen ausliegende Kundschafter kommen aus dem Spiel": a position states the
    open scouts, those out of the game (`gone`) and each player's; one card per type."""
    body = (
        "  scorings 1\n  attack 1 E\n  scouts sc:T sc:S gone sc:P\n"
        + ALH.format(name="Anna", more="")
        + "    scouts sc:A\n"
        + ALH.format(name="Ben", more="")
        + ALH.format(name="Cem", more="")
    )
    text = f'[Players "Anna, Ben, Cem"]\n[Modules "angreifer"]\n\nposition\n{body}end\n'
    state, found = state_at(parse_text(text)[0], At("end"))
    assert found == []
    shown = state.ext.views(state, "en")["angreifer"]  # the public view, not the scratch
    assert shown["table"]["open scouts"] == "sc:T sc:S"
    assert {n: r.get("scouts") for n, r in shown["players"].items()} == {
        "Anna": "sc:A",
        "Ben": None,
        "Cem": None,
    }
    assert "  scouts sc:T sc:S gone sc:P\n" in position_text(state)
    twice = text.replace("gone sc:P", "gone sc:A")  # Anna holds sc:A
    _s, found = state_at(parse_text(twice)[0], At("end"))
    assert [v.code for v in found] == ["SCOUT-SUPPLY"]


def test_plot_buildings_in_a_position_are_checked_against_the_supply() -> None:
    """ "je 2 Gebäudeplättchen jedes Gebäudetyps": the columns stated plus the buildings on
    plots may hold at most two of a type."""
    body = (
        "  plots 1 C G\n  plots 2 S G T\n  plots 3 P A\n  plots 4 T S\n"
        + ALH.format(name="A", more="bl:1_12n_C@1,0")
        + ALH.format(name="B", more="")
        + ALH.format(name="C", more="")
    )
    text = f'[Players "A, B, C"]\n[Modules "bauland"]\n\nposition\n{body}end\n'
    _s, found = state_at(parse_text(text)[0], At("end"))
    assert found == []
    third = text.replace("plots 3 P A", "plots 3 C A")  # C under 1 and 3, and on A's plot
    _s, found = state_at(parse_text(third)[0], At("end"))
    assert [(v.code, v.reason) for v in found] == [("BAULAND-SETUP", "supply")]
