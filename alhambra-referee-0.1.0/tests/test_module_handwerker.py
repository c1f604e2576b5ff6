"""Die Wanderhandwerker (``referee/modules/handwerker.py``): rulebook-bigbox-de-2019.txt §
Klaus-Jürgen Wrede: Die Wanderhandwerker (heading L3110-3111; text L3076-3105, L3117-3170).

The setup (craftsmen by player count, two open, the start player's third face down), the
hand-over to the left neighbour at the end of every turn, the abilities the referee checks
(Goldschmied, Schreiner, Mörtelmischer, Steinmetz, ...; the Mosaikleger in
``tests/test_module_handwerker_mosaik.py``), the corruptions a record can contain. Each test
quotes the sentence it tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine import GameReport, check_game
from referee.engine.position_text import position_text
from referee.engine.state import GameState
from referee.engine.walk import At, state_at
from referee.notation import format_game, parse_text
from referee.record.model import Coord, Game
from referee.simulate import simulate_text

HW = "handwerker"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-handwerker.alh"


def position(
    body: str,
    anna: str = "craftsmen hw:goldschmied hw:schreiner down hw:steinmetz",
    ben: str = "craftsmen hw:moertelmischer hw:bauherr",
    cem: str = "craftsmen hw:schmied hw:muenzer",
    modules: str = HW,
    build: str = "",
) -> GameReport:
    return check_game(make(body, anna, ben, cem, modules, build))


def make(
    body: str,
    anna: str = "craftsmen hw:goldschmied hw:schreiner down hw:steinmetz",
    ben: str = "craftsmen hw:moertelmischer hw:bauherr",
    cem: str = "craftsmen hw:schmied hw:muenzer",
    modules: str = HW,
    build: str = "",
) -> Game:
    built = f"alhambra {build}" if build else ""
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Gu9
    {built}
    {anna}
  player Ben
    hand Du8 Di5 Gu1
    {ben}
  player Cem
    hand Gu2 Di9
    {cem}
end
{body}"""
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return games[0]


def dealt(body: str, players: str = "Anna, Ben, Cem", deal: str = "") -> GameReport:
    text = f"""[Players "{players}"]
[Modules "{HW}"]

{deal}
{body}"""
    games = parse_text(text, "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def codes(rep: GameReport) -> list[str]:
    return [v.code for v in rep.violations]


def reasons(rep: GameReport) -> list[tuple[str, Any]]:
    return [(v.code, v.reason) for v in rep.violations]


def seen(state: GameState, lang: str = "en") -> dict[str, Any]:
    out: dict[str, Any] = state.ext.views(state, lang)[HW]
    return out


def craftsmen(body: str, name: str, **kw: str) -> dict[str, Any]:
    state, _ = state_at(make(body, **kw), At("end"))
    return dict(seen(state, "de")["players"][name])


# ---------------------------------------------------------------- the setup


def test_each_player_two_open_start_player_a_third_face_down() -> None:
    """ "Jeder Spieler erhält 2 Handwerker, die er offen vor sich ablegt. Der Startspieler
    erhält einen dritten Handwerker, den er verdeckt vor sich ablegt." (L3090-3093)"""
    text = simulate_text(3, 5, modules=(HW,))
    assert "* craftsmen" in text
    games = parse_text(text, "sim.alh")
    rep = check_game(games[0])
    assert rep.violations == [], [v.message() for v in rep.violations]
    state, _ = state_at(games[0], At("turn", 1), check=False)
    # after turn 1 the start player's face-down craftsman is open, the left neighbour's
    # received one lies face down: exactly one player has one face down
    parts = seen(state)["players"]
    assert sum(1 for part in parts.values() if part["face down"] != "-") == 1


@pytest.mark.parametrize(("players", "in_play"), [(2, "9"), (4, "9"), (5, "11"), (6, "13")])
def test_craftsmen_in_play_by_player_count(players: int, in_play: str) -> None:
    """ "Bei 2-4 Spielern werden die Handwerker, die mit 6 und 5/6 gekennzeichnet sind,
    aussortiert. Bei 5 Spielern werden die Handwerker, die mit einer 6 gekennzeichnet sind,
    aussortiert. Bei 6 Spielern werden alle Handwerker gebraucht." (L3082-3088)"""
    text = simulate_text(players, 3, modules=(HW,))
    game = parse_text(text, "sim.alh")[0]
    rep = check_game(game)
    assert rep.violations == [], [v.message() for v in rep.violations]
    table = seen(state_at(game, At("turn", 1))[0])["table"]
    assert table["craftsmen in play"] == f"{in_play} / 13"


def test_a_kind_twice_with_three_players_is_more_than_in_play() -> None:
    """With 2-4 players the marked craftsmen are sorted out (L3082-3084): reading, the nine
    kinds once each (handwerker.yaml, unverified)."""
    rep = position("", ben="craftsmen hw:goldschmied hw:bauherr")
    assert ("HANDWERKER-SUPPLY", "kind") in reasons(rep)


def test_dirk_gets_no_craftsmen() -> None:
    """ "Sonderregeln im Spiel zu zweit: Dirk erhält keine Handwerker." (L3124-3126)"""
    rep = dealt("", players="Anna, Ben", deal="* craftsmen Dirk hw:schmied hw:muenzer")
    assert ("HANDWERKER-DEAL", "dirk") in reasons(rep)


def test_deal_tokens_and_twice() -> None:
    rep = dealt(
        "",
        deal="* craftsmen Anna hw:schmied hw:zauberer, craftsmen Anna hw:muenzer hw:bauherr",
    )
    assert "HANDWERKER-TOKEN" in codes(rep)
    assert ("HANDWERKER-DEAL", "twice") in reasons(rep)


# ---------------------------------------------------------------- the hand-over


def test_the_used_craftsman_goes_face_down_to_the_left_neighbour() -> None:
    """ "Am Ende seines Zuges gibt er den benutzten Handwerker an seinen linken Nachbarn
    weiter. Dieser legt ihn verdeckt neben seine beiden offenen Handwerker. Anschließend dreht
    der abgebende (noch aktive) Spieler seinen verdeckt vor sich ausliegenden Handwerker um"
    (L3101-3105, L3117-3120)."""
    rep = position("1. Anna: goldschmied, take Gu4 Di3, handover hw:goldschmied\n")
    assert rep.violations == [], [v.message() for v in rep.violations]
    body = "1. Anna: goldschmied, take Gu4 Di3, handover hw:goldschmied\n"
    anna = craftsmen(body, "Anna")
    ben = craftsmen(body, "Ben")
    assert anna["offene Handwerker"] == "Schreiner, Steinmetz"
    assert anna["verdeckt"] == "-"
    assert ben["verdeckt"] == "Goldschmied"
    assert ben["offene Handwerker"] == "Mörtelmischer, Bauherr"


def test_a_craftsman_is_passed_on_even_when_none_was_used() -> None:
    """ "Sollte der Spieler am Zug keine Handwerkerfähigkeit genutzt haben, so muss er
    trotzdem einen seiner beiden offen ausliegenden Handwerker weitergeben." (L3120-3122)"""
    ok = position("1. Anna: take Gu4, handover hw:schreiner\n")
    assert ok.violations == []
    missing = position("1. Anna: take Gu4\n")
    assert ("HANDWERKER-HANDOVER", "missing") in reasons(missing)


def test_the_used_one_is_passed_on_not_another() -> None:
    """ "gibt er den benutzten Handwerker an seinen linken Nachbarn weiter" (L3101-3102)"""
    rep = position("1. Anna: goldschmied, take Gu4 Di3, handover hw:schreiner\n")
    assert ("HANDWERKER-HANDOVER", "not-used") in reasons(rep)


def test_only_an_open_craftsman_is_passed_on_or_used() -> None:
    """ "die besondere Fähigkeit eines seiner beiden offen ausliegenden Handwerker" (L3097-3099):
    the face-down one is not open."""
    rep = position("1. Anna: steinmetz Gu4 Gu4, take Gu4, handover hw:steinmetz\n")
    assert codes(rep).count("HANDWERKER-NOT-OPEN") == 2
    msg = next(v.message() for v in rep.violations if v.code == "HANDWERKER-NOT-OPEN")
    assert "face down: hw:steinmetz" in msg


def test_missing_hand_over_passes_the_used_one_all_the_same() -> None:
    """One mistake, one finding: the used craftsman is the one to pass (L3101-3102)."""
    rep = position("1. Anna: goldschmied, take Gu4 Di3\n")
    assert reasons(rep) == [("HANDWERKER-HANDOVER", "missing")]
    ben = craftsmen("1. Anna: goldschmied, take Gu4 Di3\n", "Ben")
    assert ben["verdeckt"] == "Goldschmied"


def test_no_hand_over_out_of_turn() -> None:
    """A craftsman is passed on at the end of one's own turn (L3101-3102); a main action after
    the hand-over is too late (the hand-over ends the turn's actions)."""
    rep = position("1. Anna: handover hw:schreiner, take Gu4\n")
    assert "TURN-OVER" in codes(rep)


# ---------------------------------------------------------------- the abilities


def test_one_ability_per_turn() -> None:
    """ "Während seines Zuges darf der Spieler die besondere Fähigkeit eines seiner beiden
    offen ausliegenden Handwerker nutzen." (L3097-3099): one craftsman's ability a turn."""
    rep = position("1. Anna: goldschmied, schreiner 2, take Gu4 Di3, handover hw:goldschmied\n")
    assert "ABILITY-LIMIT" in codes(rep)


def test_goldschmied_takes_up_to_8() -> None:
    """Goldschmied: "Erlaubt, sich weitere Geldkarten bis zu einem Gesamtwert von 8 (statt 5)
    zu nehmen." (L3135-3136)"""
    assert (
        position("1. Anna: goldschmied, take Gu4 Di3, handover hw:goldschmied\n").violations == []
    )
    rep = position("1. Anna: take Gu4 Di3, handover hw:goldschmied\n")
    assert "TAKE-SUM" in codes(rep)
    rep = position("1. Anna: goldschmied, take Gu4 Di3 Du2, handover hw:goldschmied\n")
    assert "TAKE-SUM" in codes(rep)


def test_schreiner_lowers_the_price_by_1_or_2() -> None:
    """Schreiner: "Verringert beim Bezahlen den Kaufpreis eines ausliegenden Gebäudes um 1 oder
    2." (L3131-3133); exact against the lowered price (reading)."""
    rep = position(
        "1. Anna: schreiner 2, buy Gu G11- pay Gu9, take Gu4, place G11-@1,0,"
        " handover hw:schreiner\n"
    )
    assert rep.violations == [], [v.message() for v in rep.violations]
    short = position("1. Anna: buy Gu G11- pay Gu9, place G11-@1,0, handover hw:schreiner\n")
    assert codes(short) == ["BUY-UNDERPAID"]
    twice = position(
        "1. Anna: schreiner 2, buy Gu G11- pay Gu9, buy De P7e pay De4, place G11-@1,0,"
        " place P7e@0,1, handover hw:schreiner\n"
    )
    assert codes(twice) == ["BUY-UNDERPAID"]  # "eines ausliegenden Gebäudes": one purchase
    three = position("1. Anna: schreiner 3, take Gu4, handover hw:schreiner\n")
    assert ("HANDWERKER-ARGS", "amount") in reasons(three)


def test_moertelmischer_swaps_two_market_buildings() -> None:
    """Mörtelmischer: "Tauscht 2 Gebäude auf dem Bauhof miteinander aus." (L3138-3139); each
    building then costs the currency of its new field (reading)."""
    rep = position(
        "1. Anna: moertelmischer Gu Di, take Gu4, handover hw:moertelmischer\n",
        anna="craftsmen hw:moertelmischer hw:schreiner",
        ben="craftsmen hw:goldschmied hw:bauherr",
    )
    assert rep.violations == [], [v.message() for v in rep.violations]
    state = rep.state
    assert state is not None
    assert [str(t) for t in state.market[:2]] == ["T11n", "G11"]
    same = position(
        "1. Anna: moertelmischer Gu Gu, take Gu4, handover hw:moertelmischer\n",
        anna="craftsmen hw:moertelmischer hw:schreiner",
        ben="craftsmen hw:goldschmied hw:bauherr",
    )
    assert ("HANDWERKER-ARGS", "same") in reasons(same)


def test_steinmetz_at_the_start_swaps_a_card_of_the_same_currency() -> None:
    """Steinmetz: "Erlaubt es, zu Beginn des Zuges eine Geldkarte von der Hand mit einer
    ausliegenden Geldkarte der gleichen Währung zu tauschen." (L3141-3143)"""
    anna = "craftsmen hw:steinmetz hw:schreiner"
    ben = "craftsmen hw:goldschmied hw:bauherr"
    rep = position("1. Anna: steinmetz De2 De6, take Gu4, handover hw:steinmetz\n", anna, ben)
    assert rep.violations == [], [v.message() for v in rep.violations]
    state = rep.state
    assert state is not None
    assert sorted(c.code for c in state.players[0].hand.elements() if c.code.startswith("De")) == [
        "De4",
        "De6",
        "De8",
    ]
    assert "De2" in [c.code for c in state.display if c is not None]
    late = position("1. Anna: take Gu4, steinmetz De2 De6, handover hw:steinmetz\n", anna, ben)
    assert "ABILITY-WINDOW" in codes(late)
    wrong = position("1. Anna: steinmetz Du3 De6, take Gu4, handover hw:steinmetz\n", anna, ben)
    assert ("HANDWERKER-ARGS", "currency") in reasons(wrong)
    absent = position("1. Anna: steinmetz Gu1 Gu4, take Di3, handover hw:steinmetz\n", anna, ben)
    assert ("HANDWERKER-ARGS", "hand") in reasons(absent)


BUILT = "P8-@-1,0 S9-@0,1 A9-@1,0"
PATRON = {
    "ben": "craftsmen hw:goldschmied hw:moertelmischer",
    "anna": "craftsmen hw:bauherr hw:ziegelmacher",
    "cem": "craftsmen hw:schmied hw:steinmetz",
}


def test_bauherr_moves_a_building_inside_the_alhambra() -> None:
    """Bauherr: "Erlaubt eine Umbauaktion; hierbei darf auch innerhalb der Alhambra umgebaut
    werden (ein Gebäude an einen anderen Platz legen). Alle Bauregeln müssen dabei sowohl für
    den alten als auch den neuen Bauplatz beachtet und eingehalten werden." (L3144-3148)"""
    body = "1. Anna: bauherr @1,0 @0,-1, handover hw:bauherr\n"
    rep = position(body, build=BUILT, **PATRON)
    assert rep.violations == [], [v.message() for v in rep.violations]
    state = rep.state
    assert state is not None
    assert str(state.players[0].alhambra.get(Coord(0, -1))) == "A9"
    assert state.players[0].alhambra.get(Coord(1, 0)) is None
    apart = position("1. Anna: bauherr @1,0 @2,0, handover hw:bauherr\n", build=BUILT, **PATRON)
    assert "PLACE-ADJACENT" in codes(apart)  # the new place: the building rules
    empty = position("1. Anna: bauherr @3,0 @2,0, handover hw:bauherr\n", build=BUILT, **PATRON)
    assert ("HANDWERKER-MOVE", "empty") in reasons(empty)
    taken = position("1. Anna: bauherr @1,0 @0,1, handover hw:bauherr\n", build=BUILT, **PATRON)
    assert ("HANDWERKER-MOVE", "taken") in reasons(taken)


def test_bauherr_is_the_turns_redesign_by_default() -> None:
    """ "Erlaubt eine Umbauaktion" (L3144): the redesign is the turn's action (option
    bauherr=action); bauherr=extra reads it as a redesign on top of it."""
    body = "1. Anna: take Gu4, bauherr @1,0 @0,-1, handover hw:bauherr\n"
    assert "TURN-OVER" in codes(position(body, build=BUILT, **PATRON))
    extra = position(body, build=BUILT, modules="handwerker bauherr=extra", **PATRON)
    assert extra.violations == [], [v.message() for v in extra.violations]


def test_ziegelmacher_swaps_a_bought_building_into_the_alhambra() -> None:
    """Ziegelmacher: "Erlaubt es, 1 in diesem Spielzug gekauftes Gebäude gegen 1 schon in der
    Alhambra eingebautes Gebäude zu tauschen (alle Bauregeln müssen dabei beachtet werden!).
    Das ersetzte Plättchen baut der Spieler dann unter Beachtung der Bauregeln unmittelbar
    wieder in seine Alhambra ein oder legt es in seine Reserve." (L3157-3163)"""
    buy = "1. Anna: buy Gu G11- pay Gu9 Gu4, ziegelmacher G11- @1,0, "
    placed = position(buy + "place A9-@0,-1, handover hw:ziegelmacher\n", build=BUILT, **PATRON)
    assert placed.violations == [], [v.message() for v in placed.violations]
    kept = position(buy + "reserve A9-, handover hw:ziegelmacher\n", build=BUILT, **PATRON)
    assert kept.violations == [], [v.message() for v in kept.violations]
    state = kept.state
    assert state is not None
    assert str(state.players[0].alhambra.get(Coord(1, 0))) == "G11"
    assert [str(x) for x in state.players[0].reserve] == ["A9"]
    lost = position(buy + "handover hw:ziegelmacher\n", build=BUILT, **PATRON)
    assert "PLACE-MISSING" in codes(lost)  # the replaced one must be built or reserved
    other = position(
        "1. Anna: buy Gu G11- pay Gu9 Gu4, ziegelmacher T11n @1,0, place G11-@0,-1,"
        " handover hw:ziegelmacher\n",
        build=BUILT,
        **PATRON,
    )
    assert ("HANDWERKER-ARGS", "bought") in reasons(other)


MINTER = {
    "ben": "craftsmen hw:goldschmied hw:moertelmischer",
    "anna": "craftsmen hw:muenzer hw:ziegelmacher",
    "cem": "craftsmen hw:schmied hw:steinmetz",
}


def test_muenzer_pays_with_money_from_the_hand_and_the_display() -> None:
    """Münzer: "Erlaubt, 1 Gebäude mit einer Kombination aus Geld aus der Hand und/oder der
    Auslage zu kaufen." (L3165-3167): Du5 from the hand and Du2 from the display pay C7ne
    exactly."""
    body = "1. Anna: muenzer Du2, buy Du C7ne pay Du5 Du2, take Gu4, place C7ne@1,1, "
    rep = position(body + "handover hw:muenzer\n", build=BUILT, **MINTER)
    assert rep.violations == [], [v.message() for v in rep.violations]
    without = position(
        "1. Anna: buy Du C7ne pay Du5 Du2, place C7ne@1,1, handover hw:muenzer\n",
        build=BUILT,
        **MINTER,
    )
    assert without.violations != []
    absent = position(
        "1. Anna: muenzer Du8, buy Du C7ne pay Du5 Du3, place C7ne@1,1, handover hw:muenzer\n",
        build=BUILT,
        **MINTER,
    )
    assert ("HANDWERKER-ARGS", "shown") in reasons(absent)
    unspent = position(
        "1. Anna: muenzer Du2 Gu4, buy Du C7ne pay Du5 Du2, place C7ne@1,1, handover hw:muenzer\n",
        build=BUILT,
        **MINTER,
    )
    assert reasons(unspent) == [("HANDWERKER-ARGS", "unspent")]
    state = unspent.state
    assert state is not None
    assert "Gu4" in [c.code for c in state.display if c is not None]


def test_no_ability_out_of_turn_or_switched_off() -> None:
    rep = position("1. Anna: take Gu4, handover hw:schreiner\n", modules="")
    assert "MODULE-NOT-ENABLED" in codes(rep) or "UNKNOWN-VERB" in codes(rep)


# ---------------------------------------------------------------- positions, simulation


def test_position_round_trip() -> None:
    rep = position("1. Anna: goldschmied, take Gu4 Di3, handover hw:goldschmied\n")
    state = rep.state
    assert state is not None
    text = position_text(state)
    assert "craftsmen hw:moertelmischer hw:bauherr down hw:goldschmied" in text
    again = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "handwerker"]\n\n' + text)[0]
    state2, found = state_at(again, At("end"))
    assert found == []
    assert position_text(state2) == text
    assert seen(state2) == seen(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulated_games_are_legal(players: int) -> None:
    text = simulate_text(players, 11 + players, modules=(HW,))
    games = parse_text(text, "sim.alh")
    rep = check_game(games[0])
    assert rep.violations == [], [v.message() for v in rep.violations]
    assert "handover hw:" in text
    assert format_game(games[0]) == text


def test_an_unknown_craftsman_is_revealed_when_used_and_checked_against_the_supply() -> None:
    """The start player's third lies face down ("den er verdeckt vor sich ablegt", L3092-3093):
    unknown until he uses or passes it on; then it is checked against those in play."""
    ok = position(
        "1. Anna: take Gu4, handover hw:ziegelmacher\n",
        anna="craftsmen ? hw:schreiner",
    )
    assert ok.violations == []
    twice = position("1. Anna: take Gu4, handover hw:bauherr\n", anna="craftsmen ? hw:schreiner")
    assert ("HANDWERKER-SUPPLY", "kind") in reasons(twice)


def test_craftsmen_in_show_in_both_languages() -> None:
    rep = position("1. Anna: goldschmied, take Gu4 Di3, handover hw:goldschmied\n")
    state = rep.state
    assert state is not None
    en = seen(state)["players"]["Ben"]
    assert en == {
        "open craftsmen": "mortar mixer (Mörtelmischer), master of works (Bauherr)",
        "face down": "goldsmith (Goldschmied)",
    }


@pytest.mark.parametrize("moment", ["early", "third", "middle", "late", "scoring-1", "scoring-2"])
def test_a_moment_of_the_example_round_trips_as_a_position(moment: str) -> None:
    """``show --format record`` writes each player's craftsmen (``craftsmen hw:... down
    hw:...``); ``check`` reads the block back to the same table and views."""
    from tests.test_position_modules import _game, _round_trip

    game = _game(HW)
    if moment.startswith("scoring-"):
        at = At("scoring", int(moment[-1]))
    else:
        last, _ = state_at(game, At("end"))
        n = last.turn_no
        at = At(
            "turn", max(1, {"early": 1, "third": n // 3, "middle": n // 2, "late": n - 1}[moment])
        )
    state, state2, text, again = _round_trip(game, at)
    assert "craftsmen hw:" in text
    assert position_text(state2) == position_text(state)
    assert seen(state2) == seen(state)
    assert format_game(again) == text
    assert check_game(again).violations == []


def test_generated_craftsman_moves_are_accepted() -> None:
    """The legal-move generator's abilities and hand-overs are accepted by the checker, and
    each checked ability shows up at some position."""
    import random

    from referee.engine import check_action
    from referee.engine.legal import legal_actions
    from tests.test_legal_generator import _errors, positions

    rng = random.Random(5)
    verbs: set[str] = set()
    text = (EXAMPLE).read_text(encoding="utf-8")
    for state in positions(text, 3, rng):
        for a in legal_actions(state):
            verb = getattr(a, "verb", None)
            if verb is None or verb in verbs:
                continue
            assert _errors(check_action(state, a)) == [], a
            verbs.add(verb)
    assert {"goldschmied", "schreiner", "moertelmischer", "steinmetz", "handover"} <= verbs


def test_a_trusted_replay_ends_in_the_same_state() -> None:
    """``check_verb`` only checks, ``action`` only changes: a replay without checks ends the
    same (tests/test_module_trusted_replay.py's property, for this module's example)."""
    from tests.test_module_trusted_replay import end_state, picture

    game = parse_text(EXAMPLE.read_text(encoding="utf-8"), "ex.alh")[0]
    assert picture(end_state(game, True)) == picture(end_state(game, False))


# ---------------------------------------------------------------- the dispute tools, pictures


def test_show_render_and_replay_show_the_craftsmen_in_the_players_area() -> None:
    """The craftsmen in front of each player: under the reserve in the terminal, under the
    Alhambra in the SVG (``player_area``), in the replay's module part, in both languages."""
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    path = str(EXAMPLE)
    out = runner.invoke(cli, ["show", path, "--at", "5"]).output
    assert "Reserve: none\ncraftsmen: carpenter (Schreiner), goldsmith (Goldschmied)\n" in out
    de = runner.invoke(cli, ["show", path, "--at", "5", "--lang", "de"]).output
    assert "Handwerker: Mosaikleger, Bauherr" in de
    first = runner.invoke(cli, ["show", path, "--at", "1", "--lang", "de"]).output
    assert "Handwerker: Mosaikleger, unbekannt (?)" in first  # the start player's third
    svg = runner.invoke(cli, ["render", path, "--at", "5", "--lang", "de", "-o", "-"]).output
    assert ">Handwerker: Schreiner, Goldschmied<" in svg
    page = runner.invoke(cli, ["render", path, "--html", "--lang", "de", "-o", "-"]).output
    assert "Mörtelmischer" in page and "offene Handwerker" in page


def test_explain_and_legal_answer_for_a_craftsman() -> None:
    """ "may Anna use the Steinmetz now?": explain checks the ability with its window and
    holding; legal lists the abilities open now."""
    from click.testing import CliRunner

    from referee.cli import cli

    runner = CliRunner()
    path = str(EXAMPLE)
    ok = runner.invoke(cli, ["explain", path, "--at", "2", "steinmetz De4 De2"]).output
    assert "Legal: steinmetz De4 De2" in ok
    late = runner.invoke(
        cli, ["explain", path, "--at", "2", "take Gu3, steinmetz De4 De2", "--lang", "de"]
    ).output
    assert "ABILITY-WINDOW" in late and "zu Beginn des Zuges" in late
    held = runner.invoke(cli, ["explain", path, "--at", "2", "goldschmied"]).output
    assert "HANDWERKER-NOT-OPEN" in held
    listed = runner.invoke(cli, ["legal", path, "--at", "2"]).output
    assert "schreiner 2" in listed and "steinmetz De4 De2" in listed


@pytest.mark.parametrize("profile", ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"])
def test_simulated_games_for_every_profile(profile: str) -> None:
    from referee.profiles import load_profile

    text = simulate_text(3, 31, load_profile(profile), modules=(HW,))
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.violations == [], [v.message() for v in rep.violations]


def test_an_exact_purchase_of_a_piece_not_placed_still_owes_the_hand_over() -> None:
    """With Die Karawanserei a card bought exactly leaves nothing to place: the hand-over is
    owed at once (the simulator used to end such a turn without it)."""
    text = simulate_text(3, 4, modules=("schatzkammer", "karawanserei", "bauland", HW))
    rep = check_game(parse_text(text, "sim.alh")[0])
    assert rep.violations == [], [v.message() for v in rep.violations]


def test_a_deal_missing_late_or_of_the_wrong_size_is_reported() -> None:
    """ "Jeder Spieler erhält 2 Handwerker ... Der Startspieler erhält einen dritten" (L3090-3093),
    in the setup ("Änderungen in der Spielvorbereitung")."""
    text = simulate_text(3, 5, modules=(HW,))
    lines = text.splitlines()
    deals = [i for i, line in enumerate(lines) if line.startswith("* craftsmen")]
    without = "\n".join(line for i, line in enumerate(lines) if i not in deals) + "\n"
    rep = check_game(parse_text(without, "sim.alh")[0])
    assert ("HANDWERKER-DEAL", "missing") in reasons(rep)
    start = next(line for line in lines if line.startswith("start "))
    first = lines[deals[0]]
    wrong = text.replace(first, first + " hw:schmied hw:muenzer")
    rep = check_game(parse_text(wrong, "sim.alh")[0])
    assert ("HANDWERKER-DEAL", "count") in reasons(rep)
    moved = [line for i, line in enumerate(lines) if i != deals[0]]
    moved.insert(moved.index(start) + 2, first)
    rep = check_game(parse_text("\n".join(moved) + "\n", "sim.alh")[0])
    assert ("HANDWERKER-DEAL", "late") in reasons(rep)
