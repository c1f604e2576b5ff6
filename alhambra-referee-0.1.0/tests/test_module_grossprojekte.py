"""Die Großprojekte (rulebook-bigbox-de-2019.txt § Dirk Henn: Die Großprojekte, L2882-2911,
L2916-2927, L2931-2959).

A project is written ``gp:`` + its two building letters (``gp:PS``); built, with the side of
its second cell (``place gp:PSn@1,1``: the pavilion on 1,1, the seraglio on 1,2). The faces
are only in the pictures: records state them (``* project gp:PS``), the referee keeps one
project open and at most 15 revealed. The bids are the engine's standing-bid service
(``STANDING-*`` codes, ``tests/test_turn_standing.py`` tests the service itself).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import codes, messages, view

from referee.catalogue import BuildingType, Currency, MoneyCard, Side
from referee.engine import GameReport, check_game
from referee.modules.grossprojekte import (
    Project,
    assumed_faces,
    lowest_bid,
    parse_project,
    project_count,
)
from referee.notation import format_game, parse_text
from referee.record.model import Coord
from tests.module_support import check_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "module-grossprojekte.alh"
NOISE = ("TILE-SUPPLY",)


def position(
    body: str,
    top: str = "project gp:PS 1",
    anna: str = "Gu3 Du7 Du2 Du9 Di1 De9 De7",
    ben: str = "Du8 Di5 Gu1 De8 De9",
    alhambra: str = "T11-@1,0 G10-@0,1",
    modules: str = "grossprojekte",
) -> GameReport:
    """Anna to move; the project ``gp:PS`` lies open (unless ``top`` says otherwise)."""
    return check_position(
        body,
        modules=modules,
        market="Gu:G11- Di:T11n De:P7e Du:C7ne",
        table=top,
        players={
            "Anna": [f"hand {anna}", f"alhambra {alhambra}"],
            "Ben": f"hand {ben}",
            "Cem": "hand Gu2 Di9 Du3",
        },
    )


def found(rep: GameReport) -> list[str]:
    return codes(rep, NOISE)


def card(code: str) -> MoneyCard:
    return MoneyCard(Currency(code[:2]), int(code[2:]))


def table(rep: GameReport) -> dict[str, str]:
    return dict(view(rep, "grossprojekte")["table"])


# Anna bids 16 in dirhams; Ben and Cem take money; at the start of Anna's next turn (4) her
# bid still lies there: she has won gp:PS, builds it, and gp:AT is revealed
WON = (
    "1. Anna: bid 16 pay Du9 Du7\n"
    "2. Ben: take Gu4\n* display Gu5\n"
    "3. Cem: take Gu5\n* display Gu6\n"
    "4. Anna: take Gu6, place gp:PSn@1,1\n* display Gu7, project gp:AT\n"
)


# --------------------------------------------------------------------------- components


def test_fifteen_projects_bids_of_at_least_fifteen() -> None:
    # "15 Großprojektplättchen"; "ein Gebot von mindestens 15 Geld einer beliebigen Währung"
    assert project_count() == 15 and lowest_bid() == 15
    # the assumed faces (unverified): 15 pairs, 5 buildings of each type over all of them
    faces = assumed_faces()
    assert len(faces) == 15 and len(set(faces)) == 15
    assert Counter("".join(faces)) == dict.fromkeys("PSACGT", 5)


def test_project_tokens() -> None:
    assert parse_project("PS") == Project((BuildingType.PAVILION, BuildingType.SERAGLIO))
    assert parse_project("PSe") == Project((BuildingType.PAVILION, BuildingType.SERAGLIO), Side.E)
    assert parse_project("PSo") == parse_project("PSe")  # German "Osten"
    for bad in ("P", "PX", "PSx", "PSne", ""):
        assert parse_project(bad) is None, bad
    # the side says how it lies, not which project it is
    assert Project((BuildingType.PAVILION, BuildingType.SERAGLIO), Side.W).named_by("PSn")


# --------------------------------------------------------------------------- bidding


def test_the_rulebook_example_red_bids_sixteen_orange_overbids_with_seventeen() -> None:
    # "Der rote Spieler bietet 16 Denar ... Der orange-farbene Spieler überbietet mit seinen 17
    # Dirham das Gebot des roten Spielers. Der rote Spieler erhält sein Geld ... zurück."
    rep = position(
        "1. Anna: bid 16 pay De9 De7\n2. Ben: bid 17 pay Du8 Di5\n",
        ben="Du8 Du9 Di5 Gu1",
    )
    assert found(rep)[0] == "PAY-ONE-CURRENCY", messages(rep)  # Du8 + Di5 mixes two
    rep = position(
        "1. Anna: bid 16 pay De9 De7\n2. Ben: bid 17 pay Du9 Du8\n", ben="Du8 Du9 Di5 Gu1"
    )
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and anna.hand[card("De9")] == 1 and anna.hand[card("De7")] == 1
    assert table(rep)["bid"] == "Ben bids 17"


def test_a_bid_of_less_than_fifteen_is_refused() -> None:
    rep = position("1. Anna: bid 14 pay De9 Gu3\n")
    assert found(rep) == ["STANDING-LOW"]
    assert "15" in messages(rep)[0]


def test_a_bid_is_in_one_currency_but_need_not_match_the_earlier_one() -> None:
    # "wiederum aus einer beliebigen Währung bestehen muss (Die Währung muss nicht der des
    # vorherigen Gebots entsprechen)"
    rep = position("1. Anna: bid 16 pay De9 Du7\n")
    assert found(rep) == ["PAY-ONE-CURRENCY"], messages(rep)
    rep = position("1. Anna: bid 16 pay De9 De7\n2. Ben: bid 17 pay Du8 Du9\n", ben="Du8 Du9")
    assert found(rep) == [], messages(rep)


def test_an_overbid_must_be_higher_and_over_another_players_bid() -> None:
    # "darf ein nachfolgender Spieler das Gebot überbieten ... durch ein eigenes höheres"
    rep = position("1. Anna: bid 16 pay De9 De7\n2. Ben: bid 16 pay De8 De9\n")
    assert found(rep) == ["STANDING-LOW"]
    # "Liegt ein Gebot eines anderen Spielers": one's own bid is never raised -- it wins at
    # the start of its bidder's turn before he could (STANDING-OWN is the service's guard)
    rep = position(
        "1. Anna: take Gu4, reserve gp:PS\n* display Gu5\n",
        top="project gp:PS 1\n  bid Anna 16 pay Du9 Du7",
        anna="Gu3 Du2",
    )
    assert found(rep) == [], messages(rep)
    assert table(rep)["bid"] == "no bid" and table(rep)["open project"] == "gp:?"


def test_a_bid_is_the_turns_action_and_gives_no_extra_action() -> None:
    # "Der Spieler am Zug hat nun eine weitere Aktionsmöglichkeit": one of the turn's actions
    rep = position("1. Anna: bid 16 pay De9 De7, take Gu4\n")
    assert found(rep) == ["TURN-OVER"], messages(rep)


def test_the_bid_still_lying_at_the_start_of_ones_turn_wins() -> None:
    # "Liegt zu Beginn des eigenen Zuges ein eigenes Gebot neben dem Großprojekt, so hat der
    # Spieler das Großprojekt ersteigert ... Das gebotene Geld wird auf den Geld-Ablagestapel
    # gelegt." "Ein neues Großprojekt wird aufgedeckt"
    rep = position(
        "1. Anna: bid 16 pay Du9 Du7\n2. Ben: bid 17 pay De9 De8\n3. Cem: take Gu4\n"
        "* display Gu5\n4. Anna: bid 18 pay De9 De7 Gu3\n",
        anna="Gu3 Du7 Du9 De9 De7",
    )
    assert found(rep)[0] == "PAY-ONE-CURRENCY", messages(rep)  # Gu3 is another currency
    rep = position(WON)
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    assert rep.state.discard[card("Du9")] == 1 and rep.state.discard[card("Du7")] == 1
    ben = rep.state.player_named("Ben")
    assert ben is not None and ben.hand[card("De9")] == 1  # overbid: his money back
    # built at the end of the turn "nach den üblichen Bauregeln"
    anna = rep.state.player_named("Anna")
    assert anna is not None
    alh = anna.alhambra
    assert getattr(alh.get(Coord(1, 1)), "type", None) is BuildingType.PAVILION
    assert getattr(alh.get(Coord(1, 2)), "type", None) is BuildingType.SERAGLIO
    assert table(rep) == {"open project": "gp:AT", "bid": "no bid", "revealed": "2 of 15"}
    assert view(rep, "grossprojekte")["players"]["Anna"]["built"] == "gp:PSn@1,1"


def test_the_winner_may_bid_at_once_on_the_new_project_as_his_action() -> None:
    # "Ein neues Großprojekt wird aufgedeckt, auf das der aktive Spieler sofort wieder bieten
    # darf" (reading: as the turn's action; the won project is built at its end)
    body = WON.replace("4. Anna: take Gu6,", "4. Anna: bid 15 pay Di9 Di5 Di1,").replace(
        "* display Gu7, project", "* project"
    )
    rep = position(body, anna="Gu3 Du7 Du2 Du9 Di1 Di9 Di5")
    assert found(rep) == [], messages(rep)
    assert table(rep)["bid"] == "Anna bids 15"


def test_the_won_project_not_built_goes_to_the_reserve() -> None:
    body = WON.replace(", place gp:PSn@1,1", "")
    rep = position(body)
    assert found(rep) == ["PLACE-MISSING"]  # the record says where a won project goes
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and [str(p) for p in anna.reserve] == ["gp:PS"]


def test_the_project_is_built_by_the_usual_rules_both_cells_at_once() -> None:
    # the seraglio's cell (1,0) holds the towers already
    rep = position(WON.replace("gp:PSn@1,1", "gp:PSe@0,0"))
    assert found(rep) == ["PLACE-OCCUPIED"]
    assert "fountain" in messages(rep)[0]
    rep = position(WON.replace("gp:PSn@1,1", "gp:PSn@1,0"))
    assert found(rep) == ["PLACE-OCCUPIED"]
    assert "T11-@1,0" in messages(rep)[0] or "T11" in messages(rep)[0]
    rep = position(WON.replace("gp:PSn@1,1", "gp:PSe@5,5"))
    assert found(rep) == ["PLACE-ADJACENT"]
    # the token states the side of the second cell
    rep = position(WON.replace("gp:PSn@1,1", "gp:PS@1,1"))
    assert "GROSS-TOKEN" in found(rep)


def test_both_buildings_count_in_the_majorities() -> None:
    # "Die Gebäude der Großprojekte zählen in den Wertungen genauso wie die Einzelgebäude des
    # Basisspiels zu den Mehrheiten"
    from referee.api import score_state

    rep = position("", alhambra="gp:PSe@1,0 G10-@0,1")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None
    rows = {p["name"]: p for p in score_state(rep.state, 1).to_dict()["players"]}
    got = rows["Anna"]["buildings"]
    # the only pavilion and the only seraglio: first place in both (1 and 2 points)
    assert got["P"] == {"count": 1, "place": 1, "points": 1}
    assert got["S"] == {"count": 1, "place": 1, "points": 2}


def test_a_project_counts_as_one_tile_in_a_redesign() -> None:
    # "Anmerkung: Bei einem Umbau werden die Großprojekte als ein Plättchen betrachtet."
    rep = position("1. Anna: remove gp:PSe@2,1\n", alhambra="T11-@1,0 gp:PSe@1,1")
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None
    assert [str(p) for p in anna.reserve] == ["gp:PSe"]
    assert anna.alhambra.get(Coord(1, 1)) is None and anna.alhambra.get(Coord(2, 1)) is None


# --------------------------------------------------------------------------- revealing


def test_one_project_lies_open_and_fifteen_at_most_are_revealed() -> None:
    rep = position("1. Anna: take Gu4\n* display Gu5, project gp:AT\n")
    assert found(rep) == ["GROSS-REVEAL"]  # gp:PS lies open: no new one
    rep = position("1. Anna: take Gu4\n* display Gu5, project gp:AT\n", top="project none 15")
    assert found(rep) == ["GROSS-REVEAL"] and "15" in messages(rep)[0]
    rep = position("1. Anna: take Gu4\n* display Gu5, project gp:AT\n", top="project ? 3")
    assert found(rep) == [], messages(rep)
    assert table(rep)["open project"] == "gp:AT"
    rep = position("", top="project gp:PX 1")
    assert found(rep) == ["GROSS-TOKEN"]


def test_the_last_project_won_reveals_none() -> None:
    rep = position(WON.replace(", project gp:AT", ""), top="project gp:PS 15")
    assert found(rep) == [], messages(rep)
    assert table(rep)["open project"] == "-"
    rep = position(WON, top="project gp:PS 15")
    assert found(rep) == ["GROSS-REVEAL"]


def test_a_record_starts_with_the_first_project_revealed() -> None:
    from conftest import run

    rep = run("* project gp:CT\n1. Ben: bid 17 pay Di9 Gu8\n", "grossprojekte")
    assert "GROSS-REVEAL" not in found(rep)
    assert table(rep)["open project"] == "gp:CT"


# --------------------------------------------------------------------------- positions


@pytest.mark.parametrize("upto", [1, 2, 3, 4])
def test_a_position_states_the_project_and_the_bid_and_round_trips(upto: int) -> None:
    from referee.engine.position_text import position_text

    body = "".join(WON.splitlines(keepends=True)[: [1, 2, 4, 7][upto - 1]])
    rep = position(body)
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "project gp:" in text
    again = check_game(
        parse_text('[Players "Anna, Ben, Cem"]\n[Modules "grossprojekte"]\n\n' + text, "p")[0]
    )
    assert found(again) == [], messages(again)
    assert again.state is not None and position_text(again.state) == text
    assert table(again) == table(rep)


def test_legal_moves_offer_bids_of_at_least_fifteen() -> None:
    from referee.engine.legal import legal_actions
    from referee.notation.formatter import action

    rep = position("")
    assert rep.state is not None
    state = rep.state
    anna = state.player_named("Anna")
    assert anna is not None
    moves = [action(m) for m in legal_actions(state)]
    bids = [m for m in moves if m.startswith("bid ")]
    assert bids and all(int(m.split()[1]) >= 15 for m in bids), bids
    for m in bids:
        assert found(position(f"1. Anna: {m}\n")) == [], m


# --------------------------------------------------------------------------- the example


def test_the_example_game_is_clean_canonical_and_uses_the_module() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = parse_text(text, str(EXAMPLE))[0]
    rep = check_game(game)
    assert rep.violations == [] and rep.unverifiable == [] and rep.complete
    assert format_game(game) == text
    assert text.count("place gp:") >= 3 and text.count(": bid ") >= 4


@pytest.mark.parametrize(
    ("pattern", "new", "code"),
    [
        (r"bid (\d+) pay", "bid 14 pay", "STANDING-LOW"),
        (r"place gp:(\w\w)\w@", "place gp:\\1@", "GROSS-TOKEN"),
        (r"\* project gp:\w\w\n", "", "GROSS-REVEAL"),
    ],
)
def test_corruptions_of_the_example_are_caught(pattern: str, new: str, code: str) -> None:
    import re

    text = EXAMPLE.read_text(encoding="utf-8")
    if code == "GROSS-REVEAL":
        # a second project line before any was won
        bad = re.sub(r"(\* project gp:\w\w\n)", r"\1* project gp:PS\n", text, count=1)
    else:
        bad = re.sub(pattern, new, text, count=1)
    assert bad != text
    rep = check_game(parse_text(bad, "c.alh")[0])
    assert code in [v.code for v in rep.violations]
