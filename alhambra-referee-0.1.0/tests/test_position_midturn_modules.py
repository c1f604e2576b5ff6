"""Module state kept only for a turn, in a position written inside a turn (fourteenth step).

The survey: every proper prefix of every numbered turn line of the player to move, in the
examples whose modules keep such state, is written as a position block, read back and compared
(:func:`referee.engine.position_compare.snapshot`); then the rest of the turn line is appended
and the end state compared with the record's. A moment must read back the same and continue the
same, or the block must say what it cannot state (an open stage, the money taken ...). The
lines each module writes for it (docs/notation.md "A moment inside a turn"):

* Handwerker: ``craftsmen ... used hw:schreiner 2`` (the craftsman used, an unspent discount);
* Obstgärten: ``fruit ... bought fr:4 ?`` (the fruits bought and not laid yet);
* Menagerie: ``animals ... bought G10n an:3 moved`` (gardens bought, a move made);
* Schatzkammer: ``chests bought G R`` (chests bought, not placed);
* Wachtürme: ``bought wt:A A8e`` (a watchtower bought, not built);
* Frische Farben: ``projects overpaid 2 Gu Di C5 used`` (the purchase a colour may follow);
* Palastplaner: ``planner @1,0 e 3 moved @0,0 w n 2`` (the feet still to be chosen);
* Die Angreifer: ``scouts earned sc:A unsure sc:P`` (purchases that may earn a scout);
* the guards edition: ``guardturn used ab:1 built G8ne gifts 1``;

and the engine's lines of the open turn: ``limits takeonly ARBEITER-ROLL redesigns 1``,
``taken Du7 Gu3``, ``abilities Anna handwerker``.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import check_game
from referee.engine.position_compare import read_back_losses, snapshot
from referee.engine.position_text import position_text, unstated
from referee.engine.walk import walk
from referee.notation import parse_text
from referee.notation.formatter import action as written
from referee.notation.formatter import format_games, write_name
from referee.record.model import Coord, Turn
from referee.simulate import simulate_game
from referee.simulate.roundtrip import headers
from tests.test_notation_fast_position import fast_or_none, lark
from tests.test_position_midturn import inside_turns

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def moments(game: Any, every: int = 1) -> list[tuple[Turn, int, Any, Any]]:
    """(turn line, actions made, state, state after the line) after each proper prefix of each
    numbered turn line of the player to move: the moments the position tests look at."""
    return inside_turns(game, every)


def survey(game: Any, every: int = 1, only: Collection[int] | None = None) -> tuple[int, list[str]]:
    """The moments looked at and, for each one that reads back different or continues
    differently without the block saying why, what differs (empty: none). With ``only``, the
    moments looked at are those of these indices in :func:`moments`'s list (of ``every``)."""
    found: list[str] = []
    looked = moments(game, every)
    if only is not None:
        looked = [looked[i] for i in sorted(only) if i < len(looked)]
    for item, k, state, after in looked:
        text = headers(game) + "\n\n" + position_text(state)
        (again,) = parse_text(text)
        if again.errors:
            found.append(f"{item.pos.line}/{k}: {again.errors[0].message}")
            continue
        back = None
        for step in walk(again, finish=False, snapshots=False):  # the last state only
            back = step.state
        said = unstated(state)
        a = [x for x in snapshot(state) if not x.lstrip().startswith("#")]
        if said:  # said in the block (and by show): what it cannot state
            continue
        b = snapshot(back)
        ledger = [_this_turn(state), _this_turn(back)]
        if ledger[0] != ledger[1]:
            found.append(f"L{item.pos.line} after {k} action(s): abilities {ledger}")
            continue
        if a != b:
            lost = [x for x in a if x not in b]
            found.append(f"L{item.pos.line} after {k} action(s) reads back without {lost[:2]}")
            continue
        t = state.turn
        rest = ", ".join(written(x) for x in item.actions[k:])
        who = write_name(state.players[t.player].name)
        (whole,) = parse_text(f"{text}{t.number}. {who}: {rest}\n")
        done = None
        for step in walk(whole, finish=False, snapshots=False):
            done = step.state
        if done is None or done.turn is not None or snapshot(done) != snapshot(after):
            d = [x for x in snapshot(after) if done is None or x not in snapshot(done)]
            found.append(f"L{item.pos.line} after {k} action(s) continues to {d[:2]}")
    return len(looked), found


def _this_turn(state: Any) -> list[tuple[int, str]]:
    """The engine's ledger of abilities used in the open turn (not in the snapshot)."""
    t = state.turn
    return sorted(
        k for k, stamps in state.abilities.items() if t is not None and t.number in stamps
    )


# the examples whose modules keep state for a turn only (each a case of its own); the waves
# that combine them
EXAMPLES_CONCERNED = [
    "module-handwerker.alh",
    "module-obstgaerten.alh",
    "module-menagerie.alh",
    "module-schatzkammer.alh",
    "module-wachtuerme.alh",
    "module-farben.alh",
    "module-palastplaner.alh",
    "module-angreifer.alh",
    "waechter.alh",
    "waechter-two-player.alh",
    "notation-club-3p.alh",
    "module-arbeiter.alh",  # a turn that may only take money (limits takeonly)
    "module-baumeister.alh",  # redesigns granted on top (limits redesigns)
    "module-bedienstete.alh",  # the money taken, read by the marshal (taken)
    "module-machtgebaeude.alh",  # a building of power bought with its die
]
WAVES = [
    "module-wave-c.alh",
    "module-wave-c-first-expansion.alh",
    "module-wave-d.alh",
    "module-wave-d-first-expansion.alh",
    "module-wave-e.alh",
    "module-wave-e-first-expansion.alh",
    "module-wave-f.alh",
    "module-wave-f-first-expansion.alh",
]


def _games(name: str) -> list[Any]:
    return [g for g in parse_text((EXAMPLES / name).read_text("utf-8")) if not g.errors]


MOMENTS_CONCERNED: dict[str, tuple[tuple[int, ...], ...]] = {
    "module-angreifer.alh": ((0, 9, 10, 12, 32, 35, 41, 43, 46, 47),),
    "module-arbeiter.alh": ((2, 3, 36, 58, 71, 98, 102, 106, 113, 127, 135),),
    "module-baumeister.alh": ((0, 2, 7, 10, 24, 50, 55, 62, 63, 65, 72),),
    "module-bedienstete.alh": ((0, 4, 10, 11, 36, 45, 58, 64, 71, 77, 88, 103, 107),),
    "module-farben.alh": ((2, 30, 44, 59, 68, 71, 75, 77, 85),),
    "module-handwerker.alh": ((0, 8, 10, 13, 48, 88, 100, 214),),
    "module-machtgebaeude.alh": ((5, 6, 8, 10, 13, 26, 29, 31, 42, 49, 58),),
    "module-menagerie.alh": ((0, 1, 4, 18, 22, 37, 40, 51, 59, 67, 71, 89, 107),),
    "module-obstgaerten.alh": ((0, 11, 42, 45, 59, 80, 84, 101),),
    "module-palastplaner.alh": ((2, 10, 12, 20, 29, 47, 52, 78, 86),),
    "module-schatzkammer.alh": ((9, 23, 24, 31, 42, 47, 67, 78, 83, 88),),
    "module-wachtuerme.alh": ((0, 3, 5, 12, 24, 46, 56, 58, 80),),
    "notation-club-3p.alh": (
        (2, 3, 4, 5),
        (0,),
    ),
    "waechter-two-player.alh": ((0, 3, 4, 5, 11, 13, 15, 54, 101),),
    "waechter.alh": ((2, 6, 14, 24, 32, 37, 45, 49, 86),),
}
"""The moments (indices in :func:`moments`'s list of every moment, a tuple a game of the
example) that the test below surveys: 145 of the 1,557 moments of these examples; the others
ran no line of ``referee`` that these do not (each moment's survey recorded alone; the walk
and the copies of every moment still run: bench/README.md, issue 34, twenty-first step)."""


@pytest.mark.parametrize("name", EXAMPLES_CONCERNED)
def test_every_moment_inside_a_turn_reads_back_and_continues_the_same(name: str) -> None:
    looked = 0
    for i, game in enumerate(_games(name)):
        n, found = survey(game, only=MOMENTS_CONCERNED[name][i])
        looked += n
        assert found == [], found[:5]
    assert looked


WAVE_MOMENTS: dict[str, tuple[tuple[int, ...], ...]] = {
    "module-wave-c-first-expansion.alh": ((0, 2, 6, 17, 18, 20, 22, 24, 27, 29),),
    "module-wave-c.alh": ((0, 1, 7, 10, 13, 15, 27, 28, 30, 32, 33),),
    "module-wave-d-first-expansion.alh": (
        (0, 1, 3, 5, 6, 12, 19, 26, 27, 34, 38, 42, 43, 47, 49, 57),
    ),
    "module-wave-d.alh": ((0, 1, 5, 11, 19, 21, 26, 31, 33, 40, 43, 55, 58, 63, 72),),
    "module-wave-e-first-expansion.alh": ((0, 3, 7, 9, 12, 14, 15, 20, 21),),
    "module-wave-e.alh": ((3, 4, 5, 6, 7, 12, 14, 15, 16, 18, 19, 22),),
    "module-wave-f-first-expansion.alh": (
        (1, 2, 3, 6, 12, 19, 36, 39, 46, 49, 52, 55, 63, 66, 67, 69, 77, 80, 81, 87, 90),
    ),
    "module-wave-f.alh": (
        (0, 3, 10, 12, 17, 18, 19, 27, 35, 41, 42, 45, 55, 63, 75, 77, 79, 81, 85, 86),
    ),
}
"""The moments (of every fourth: indices in :func:`moments`'s list, a tuple a game of the
example) that the waves' test surveys: the others ran no line of ``referee`` that these do not
(each moment's survey recorded alone; every fourth moment's walk and copies still run:
bench/README.md, issue 34, twenty-first step)."""


@pytest.mark.parametrize("name", WAVES)
def test_moments_inside_turns_of_the_module_waves(name: str) -> None:
    looked = 0
    for i, game in enumerate(_games(name)):
        # every fourth moment: the waves are long; a step of 4 runs 21,062 of the 21,067 referee/
        # lines a step of 2 runs (coverage, twentieth step). The five others are error branches
        # run elsewhere: a position's layout problem and a cut walk (test_geometry_notation's
        # test_a_position_without_the_gate_breaks_the_walker_rule, test_rules_building's
        # test_position_layout_checked), a Händler refill without a move-in
        # (test_module_haendler's test_the_new_resident_from_the_supply)
        n, found = survey(game, every=4, only=WAVE_MOMENTS[name][i])
        looked += n
        assert found == [], found[:5]
    assert looked


MODULE_SETS = [
    ("handwerker",),
    ("obstgaerten",),
    ("menagerie",),
    ("schatzkammer",),
    ("wachtuerme",),
    ("farben",),
    ("palastplaner",),
    ("angreifer",),
    ("handwerker", "obstgaerten", "menagerie"),
    # the tower modules (pieces in the bag, beside the market, among Dirk's tiles): the
    # seventeenth step's sweep found their losses in two-player games only (eighteenth step)
    ("badehaeuser",),
    ("bazare",),
]


@settings(max_examples=9, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    players=st.sampled_from((2, 2, 3, 4, 5)),  # two players (Dirk) twice as often
    modules=st.sampled_from(MODULE_SETS),
)
def test_moments_inside_turns_of_simulated_games(
    seed: int, players: int, modules: tuple[str, ...]
) -> None:
    game = simulate_game(players, seed, modules=modules)
    (game,) = parse_text(format_games([game]))  # as written: the lines carry their places
    _n, found = survey(game, every=5)
    assert found == [], found[:5]


# ------------------------------------------------------------------ the lines themselves


def _state(text: str) -> tuple[Any, list[str]]:
    (game,) = parse_text(text)
    assert not game.errors, game.errors
    state = None
    for step in walk(game, finish=False):
        state = step.state
    assert state is not None
    codes = [v.code for v in check_game(game).violations if v.severity == "error"]
    return state, codes


CRAFT = """[Players "Anna, Ben, Cem"]
[Modules "handwerker"]

position
  next Anna
  market Gu:P3 Di:G8ne De:S7 Du:A9
  display Gu7 Di5 Du6 Du7
  turn 3 Anna 0
  player Anna
    hand Gu8 Di6
    {craft}
  player Ben
    craftsmen hw:goldschmied hw:bauherr
  player Cem
    craftsmen hw:moertelmischer hw:steinmetz
end
"""


@pytest.mark.parametrize("used", ["used", "benutzt"])
def test_a_craftsman_used_in_the_open_turn_is_read_in_both_languages(used: str) -> None:
    text = CRAFT.format(craft=f"craftsmen hw:schreiner hw:muenzer {used} hw:schreiner 2")
    assert fast_or_none(text) == lark(text)
    state, codes = _state(text)
    assert not {"POSITION-INVALID", "HANDWERKER-TOKEN"} & set(codes), codes
    data = state.modules["handwerker"]
    assert data.used["Anna"] == (3, "schreiner")
    assert data.discount == ("Anna", 3, 2)
    again = position_text(state)
    assert "craftsmen hw:schreiner hw:muenzer used hw:schreiner 2" in again
    assert format_games(parse_text(again)) == again


def test_an_ability_used_once_a_turn_cannot_be_used_again_after_the_block() -> None:
    # "in seinem Zug darf ein Spieler die Fähigkeit eines offenen Handwerkers nutzen" (one):
    # the engine's ledger of the open turn is stated by the `abilities` line
    text = CRAFT.format(craft="craftsmen hw:schreiner hw:muenzer used hw:schreiner")
    text = text.replace("  turn 3 Anna 0\n", "  turn 3 Anna 0\n  abilities Anna handwerker\n")
    assert fast_or_none(text) == lark(text)
    state, _codes = _state(text)
    assert "  abilities Anna handwerker\n" in position_text(state)
    (game,) = parse_text(text + "3. Anna: muenzer\n")
    codes = [v.code for v in check_game(game).violations if v.severity == "error"]
    assert "ABILITY-LIMIT" in codes
    (game,) = parse_text(text.replace("  abilities Anna handwerker\n", "") + "3. Anna: muenzer\n")
    codes = [v.code for v in check_game(game).violations if v.severity == "error"]
    assert "ABILITY-LIMIT" not in codes  # without the line: no use of this turn is known


@pytest.mark.parametrize("line", ["abilities", "abilities Anna", "abilities Anna 3"])
def test_a_malformed_abilities_line_is_reported(line: str) -> None:
    text = CRAFT.format(craft="craftsmen hw:schreiner hw:muenzer")
    _s, codes = _state(text.replace("  turn 3 Anna 0\n", f"  turn 3 Anna 0\n  {line}\n"))
    assert "POSITION-INVALID" in codes


@pytest.mark.parametrize(
    "craft",
    [
        "craftsmen hw:schreiner hw:muenzer used",
        "craftsmen hw:schreiner hw:muenzer used hw:schreiner 3",
        "craftsmen hw:schreiner hw:muenzer used hw:nobody",
    ],
)
def test_a_malformed_used_craftsman_is_reported(craft: str) -> None:
    _s, codes = _state(CRAFT.format(craft=craft))
    assert "POSITION-INVALID" in codes


ORCHARD = """[Players "Anna, Ben, Cem"]
[Modules "obstgaerten"]

position
  next Anna
  market Gu:P3 Di:G8ne De:S7 Du:A9
  display Gu7 Di5 Du6 Du7
  turn 3 Anna 1 over
  bought G6
  player Anna
    orchard bd:1
    fruit {fruit}
  player Ben
    orchard bd:2
  player Cem
    orchard bd:3
end
"""


@pytest.mark.parametrize("word", ["bought", "gekauft"])
def test_fruits_bought_and_not_laid_are_read_and_laid_at_the_turn_end(word: str) -> None:
    text = ORCHARD.format(fruit=f"{word} fr:4 ?")
    assert fast_or_none(text) == lark(text)
    state, codes = _state(text)
    assert not {"POSITION-INVALID", "FRUIT-TOKEN"} & set(codes), codes
    assert state.modules["obstgaerten"].pending["Anna"] == [4, None]
    assert "fruit bought fr:4 ?" in position_text(state)


def test_a_position_at_a_line_boundary_writes_no_turn_state() -> None:
    path = EXAMPLES / "module-handwerker.alh"
    (game,) = parse_text(path.read_text("utf-8"))[:1]
    state = None
    for step in walk(game, finish=False):
        state = step.state
    text = position_text(state)
    for word in (" used ", " bought ", "guardturn", " overpaid ", " moved ", " earned "):
        assert word not in text


def test_show_names_no_loss_for_a_moment_inside_a_turn_of_the_craftsmen() -> None:
    path = EXAMPLES / "module-handwerker.alh"
    (game,) = parse_text(path.read_text("utf-8"))[:1]
    for item, k, state, _after in moments(game, every=7)[:6]:
        text = headers(game) + "\n\n" + position_text(state)
        if not unstated(state):
            assert read_back_losses(state, text) == [], (item.pos.line, k)


def test_the_money_taken_and_the_turn_limits_are_read_and_kept() -> None:
    text = CRAFT.format(craft="craftsmen hw:schreiner hw:muenzer").replace(
        "  turn 3 Anna 0\n",
        "  turn 3 Anna 1 over\n  limits takeonly HANDWERKER-TOKEN redesigns 1\n  taken Du7 ? Gu3\n",
    )
    assert fast_or_none(text) == lark(text)
    state, codes = _state(text)
    assert "POSITION-INVALID" not in codes
    t = state.turn
    assert t.take_only == "HANDWERKER-TOKEN" and t.extra_redesigns == 1
    assert [None if c.card is None else c.card.code for c in t.taken] == ["Du7", None, "Gu3"]
    again = position_text(state)
    assert "  limits takeonly HANDWERKER-TOKEN redesigns 1\n  taken Du7 ? Gu3\n" in again
    assert "# not stated" not in again
    assert format_games(parse_text(again)) == again


@pytest.mark.parametrize(
    "line",
    [
        "limits takeonly",
        "limits takeonly NO-SUCH-RULE",
        "limits redesigns 0",
        "limits sometimes 2",
        "taken T9",
    ],
)
def test_a_malformed_limits_or_taken_line_is_reported(line: str) -> None:
    text = CRAFT.format(craft="craftsmen hw:schreiner hw:muenzer")
    _s, codes = _state(text.replace("  turn 3 Anna 0\n", f"  turn 3 Anna 0\n  {line}\n"))
    assert "POSITION-INVALID" in codes


def test_a_turn_limited_to_taking_money_reads_back_so() -> None:
    # Die Arbeiter: "Würfelt er, darf er ausschließlich die Aktion: Geld nehmen ausführen"
    (game,) = parse_text((EXAMPLES / "module-arbeiter.alh").read_text("utf-8"))[:1]
    limited = [m for m in moments(game) if m[2].turn.take_only is not None]
    assert limited
    for item, k, state, _after in limited[:3]:
        text = headers(game) + "\n\n" + position_text(state)
        assert "  limits takeonly " in text and "# not stated" not in text
        (again,) = parse_text(text)
        back = None
        for step in walk(again, finish=False, snapshots=False):
            back = step.state
        assert back.turn.take_only == state.turn.take_only, (item.pos.line, k)


def test_a_building_turned_and_not_built_yet_reads_back() -> None:
    """The Mosaikleger turns a building of the reserve ("Erlaubt es, 1 Gebäude (auch aus der
    Reserve) beliebig gedreht einzubauen.", rulebook-bigbox-de-2019.txt L3128-3129); a moment
    after the ``mosaikleger`` line and before the build states it turned (``mosaikleger P5
    ne`` in the mover's section). Found by the simulated-games property (seed 0, three
    players, Die Handwerker): the block had written the reserve's P5 as printed."""
    game = simulate_game(3, 0, modules=("handwerker",))
    (game,) = parse_text(format_games([game]))
    n, found = survey(game, every=5)
    assert n > 0 and found == [], found[:5]


# ------------------------------------------------------------------ regressions (fixed seeds)

# the table before turn 128 of simulate_game(3, 0, modules=("handwerker", "obstgaerten",
# "menagerie")) as main wrote it (30 November 2026): Ben's reserve garden G7 carries two animals
MOSAIC_ANIMALS = (
    '[Players "Anna, Ben, Cem"]\n[Rules "queen-2003"]\n'
    '[Modules "handwerker, obstgaerten, menagerie"]\n\n'
    "position\n"
    "  next Ben\n"
    "  scorings 2\n"
    "  market Gu:A10 Di:C6 De:T9nw Du:G8ne\n"
    "  display Di5 De5 Di1 Du6\n"
    "  fruit Gu fr:5 Di fr:6 De fr:6 Du fr:1\n"
    "  animals Du an:1 an:6\n"
    "  turns 127\n"
    "  abilities Anna handover handwerker\n"
    "  player Anna\n"
    "    score 50\n"
    "    hand Gu5 Gu7 De7 Du4\n"
    "    alhambra A6ne@0,1 C9w@-1,0 G11@1,0 P7@-1,-1 T12@2,0 "
    "T10@-2,-1 T11-@2,1 A9@3,0 C7sw@1,-1 S9@2,2 T9es@-1,-2 P2@-2,0 G6@3,-1 G8sw@-2,-2 S5@2,3\n"
    "    craftsmen hw:bauherr hw:muenzer\n"
    "    mosaikleger S5 ne\n"
    "    orchard bd:2\n"
    "    fruit fr:2 1 fr:3 2 fr:4 3 fr:6 5 fr:7 6 fr:2 "
    "8 fr:3 9 fr:4 10 fr:7 13 fr:2 15 fr:4 17 fr:7 20 fr:1 21 down 2\n"
    "    animals @-2,-1 an:7 @1,-1 an:2 @3,-1 an:1 an:6 @-2,-2 an:4 an:1\n"
    "  player Ben\n"
    "    score 47\n"
    "    hand Di1 De1 De3 Du6 Du9\n"
    "    reserve G7 G8nw\n"
    "    alhambra G12@1,0 T8@2,0 G10w@1,1 C11@1,2 "
    "P3@0,2 S8@0,-1 S7@-1,-1 G10-@-1,0 P5@-2,0 A7@2,1 C9s@-1,-2 C8@1,3 A5@-2,-2\n"
    "    craftsmen hw:ziegelmacher hw:mosaikleger down hw:schreiner\n"
    "    orchard bd:7\n"
    "    fruit fr:1 2 fr:2 3 fr:3 4 fr:4 5 fr:5 6 fr:6 7 "
    "fr:1 9 fr:2 10 fr:3 11 fr:4 12 fr:5 13 fr:1 16 fr:2 17 fr:3 18 fr:5 20\n"
    "    animals @-2,0 an:5 @-1,0 an:6 @1,0 "
    "an:7 an:5 an:4 @2,0 an:7 G7 an:2 an:2 G8nw an:3 an:5\n"
    "  player Cem\n"
    "    score 34\n"
    "    hand De9\n"
    "    reserve A4 S3\n"
    "    alhambra C7ne@0,1 G9@0,-1 T11s@-1,1 T7@1,1 S6@1,0 A8e@-1,2 P6@-1,0 P4@0,-2\n"
    "    craftsmen hw:steinmetz hw:moertelmischer\n"
    "    orchard bd:4\n"
    "    fruit fr:5 2 fr:6 3 fr:1 5 fr:3 7 fr:7 11 fr:2 13 fr:3 14 fr:5 16 fr:7 18 fr:2 20\n"
    "    animals @-1,0 an:4 @1,0 an:8\n"
    "end\n"
    "128. Ben: mosaikleger G7 nes, build G7@2,3, handover hw:mosaikleger\n"
    "129. Cem: moertelmischer Di Du, buy De T9nw pay De9, take Du6, place T9nw@-2,0, "
    "handover hw:moertelmischer, fruit fr:6 10\n"
    "* display De6, market De:P8\n"
)


def test_animals_of_a_reserve_garden_built_turned_come_along() -> None:
    """Die Menagerie: the animals "werden zusammen mit dem Garten gekauft ... und eingebaut"
    (rulebook-bigbox-de-2019.txt L3444-3445) and stay on their tile in the reserve
    (docs/modules/menagerie.md, ruling a); Handwerker's Mosaikleger builds a reserve tile turned
    ("auch aus der Reserve", L3128-3129). The engine looked for the printed G7 in the Alhambra
    and never found the turned one: the animals stayed "on reserve tiles" for the rest of the
    game (never scored) and a position block wrote them on a reserve tile it did not hold.
    Found by the simulated-games property (seed 0, three players, handwerker + obstgaerten +
    menagerie: L301 after 1 action)."""
    (game,) = parse_text(MOSAIC_ANIMALS)
    assert not game.errors, game.errors
    state = None
    for step in walk(game, finish=False):
        state = step.state
    data = state.modules["menagerie"]
    assert data.on_tiles["Ben"][Coord(2, 3)] == [2, 2]
    assert [x[1] for x in data.carried["Ben"]] == [[3, 5]]  # G8nw's, still in the reserve
    assert "G7 an:2" not in position_text(state)
    n, found = survey(game)  # after the mosaikleger line too (the reserve's G7 lies turned)
    assert n == 7 and found == [], found[:5]
    codes = [v.code for v in check_game(game).violations if v.severity == "error"]
    assert codes == [], codes
