"""Die Bonuskarten (rulebook-bigbox-de-2019.txt § DIE BONUSKARTEN).

Setup of ``conftest`` with the wall-less garden G10- on the Dirham field; Cem buys it
in turn 5 with Di8 Di2 and builds it at 1,0 (the rulebook example's garden "ohne Stadtmauer
mit dem Preis 10").
"""

from __future__ import annotations

import pytest
from conftest import SETUP, codes, messages

from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game
from referee.modules.bonuskarten import card_tiles, deal_size
from referee.notation import parse_text
from referee.scoring import render_scoring_text

B = "bonuskarten"
IGNORE = ("SCORING-CARD-PILE",)  # W1 turns up early on purpose
G10 = (
    "1. Ben: take Du2\n* display Du5\n"
    "2. Cem: take Di2\n* display Gu4\n"
    "3. Anna: take Gu4\n* display Gu3\n"
    "4. Ben: take Gu3\n* display Du6\n"
    "5. Cem: buy Di G10 pay Di8 Di2, place G10@1,0\n* market Di:T9ne\n"
)
SCORE = "* display W1\n"


def run(body: str, deal: str = "") -> GameReport:
    text = SETUP.format(players="Anna, Ben, Cem", modules=B)
    text = text.replace("Di:A9", "Di:G10-").replace("Gu1 Di4 De6 Du2", "Gu1 Di2 De6 Du2")
    text = text.replace("start Ben", deal + "start Ben")
    games = parse_text(text + body, "bonus.alh")
    assert not games[0].errors, games[0].errors
    return check_game(games[0])


def gardens(rep: GameReport, name: str, scoring: int = 0) -> int:
    row = next(r for r in rep.scorings[scoring].rows if r.name == name)
    return row.buildings[BuildingType.GARDEN].count


def test_ten_cards_one_per_wall_less_tile() -> None:
    # "Die 10 Karten zeigen all diejenigen Gebäudeplättchen, die über keinerlei Stadtmauer
    # verfügen."
    tiles = card_tiles()
    assert len(tiles) == 10 and all(not t.walls for t in tiles)
    assert [t.full_code for t in tiles if t.type is BuildingType.GARDEN] == ["G10-", "G11-"]


def test_cards_dealt_by_the_number_of_players() -> None:
    # "Bei 2 und 3 Spielern erhält jeder 3 Bonuskarten, bei 4 und 5 Spielern erhält jeder 2
    # Bonuskarten und bei 6 Spielern erhält jeder 1 Bonuskarte."
    assert [deal_size(n) for n in range(2, 7)] == [3, 3, 2, 2, 1]
    assert codes(run(G10, deal="* bonus Anna T12 P8 ?\n"), IGNORE) == []
    assert codes(run(G10, deal="* bonus Anna T12 P8\n"), IGNORE) == ["BONUS-DEAL"]


def test_rulebook_example_a_revealed_card_counts_as_one_more_building() -> None:
    # "Bei einer Wertung hätte dieser Spieler nun 2 Gärten."
    rep = run(G10 + "Cem: bonus G10\n" + SCORE + "scoring 1\n")
    assert codes(rep, IGNORE) == [], messages(rep)
    assert gardens(rep, "Cem") == 2
    text = render_scoring_text(rep.scorings[0])
    assert "+1" in text and "bonus card G10-" in text


def test_the_card_may_be_revealed_inside_the_turn_it_is_no_action() -> None:
    body = G10.replace("place G10@1,0\n", "place G10@1,0, bonus G10\n")
    rep = run(body + SCORE + "scoring 1\n")
    assert codes(rep, IGNORE) == [] and gardens(rep, "Cem") == 2
    rep = run(G10 + "6. Anna: bonus G10\n")
    assert "TURN-EMPTY" in codes(rep, IGNORE)


def test_the_card_may_be_revealed_during_a_scoring() -> None:
    # Anmerkungen: "Eine passende Bonuskarte darf man jederzeit aufdecken, falls das
    # Gebäudeplättchen schon in der eigenen Alhambra verbaut ist, d.h. auch während einer
    # Wertung." Written just before the scoring line.
    rep = run(G10 + SCORE + "Cem: bonus G10\nscoring 1\n")
    assert codes(rep, IGNORE) == [] and gardens(rep, "Cem") == 2
    rep = run(G10 + SCORE + "scoring 1\nCem: bonus G10\n")
    assert gardens(rep, "Cem") == 1  # too late for this scoring


def test_only_while_the_building_stands_in_the_own_alhambra() -> None:
    rep = run(G10 + "Anna: bonus G10\n")
    assert codes(rep, IGNORE) == ["BONUS-NOT-BUILT"]
    rep = run("Ben: bonus T12\n" + G10)
    assert "BONUS-NOT-BUILT" in codes(rep, IGNORE)


@pytest.mark.parametrize("token", ["G10n", "P7", "T13"])
def test_walled_tiles_have_no_card(token: str) -> None:
    rep = run(G10 + f"Cem: bonus {token}\n")
    assert codes(rep, IGNORE) == ["BONUS-CARD"]


def test_a_card_dealt_to_another_player() -> None:
    rep = run(G10 + "Cem: bonus G10\n", deal="* bonus Anna G10 T12 P8\n")
    assert "BONUS-SUPPLY" in codes(rep, IGNORE)


def test_a_card_not_in_the_known_hand() -> None:
    rep = run(G10 + "Cem: bonus G10\n", deal="* bonus Cem T12 P8 S9\n")
    assert "BONUS-NOT-HELD" in codes(rep, IGNORE)


def test_revealed_once() -> None:
    rep = run(G10 + "Cem: bonus G10\nCem: bonus G10\n")
    assert codes(rep, IGNORE) == ["BONUS-REVEALED"]


def test_a_removed_building_takes_its_card_back_to_the_hand() -> None:
    # Anmerkungen: "Baut ein Spieler ein Gebäudeplättchen wieder ab, ... muss er diese
    # Bonuskarte zurück auf die Hand nehmen. Weder die Bonuskarte noch das Gebäudeplättchen in
    # der Reserve zählen bei einer Wertung. Erst wenn das Gebäudeplättchen wieder in die
    # Alhambra eingebaut wird, zählt auch die hierzu passende, wieder aufgedeckte Bonuskarte."
    base = G10 + "Cem: bonus G10\n6. Anna: take Du5\n* display Di3\n7. Ben: take Di3\n"
    base += "* display Di4\n8. Cem: remove G10@1,0\n"
    rep = run(base + SCORE + "scoring 1\n")
    assert codes(rep, IGNORE) == [] and gardens(rep, "Cem") == 0
    rebuilt = base + "9. Anna: take Di4\n* display De1\n10. Ben: take De1\n* display Gu2\n"
    rebuilt += "11. Cem: build G10@1,0\n"
    rep = run(rebuilt + SCORE + "scoring 1\n")
    assert gardens(rep, "Cem") == 1  # the card is in the hand again
    rep = run(rebuilt + "Cem: bonus G10\n" + SCORE + "scoring 1\n")
    assert codes(rep, IGNORE) == [] and gardens(rep, "Cem") == 2


def test_reveal_lines_are_reported_when_the_module_is_off() -> None:
    text = SETUP.format(players="Anna, Ben, Cem", modules="")
    rep = check_game(parse_text(text + "Cem: bonus G10\n")[0])
    assert "MODULE-NOT-ENABLED" in [v.code for v in rep.violations]
