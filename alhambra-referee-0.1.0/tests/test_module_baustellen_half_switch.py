"""Die Baustellen's switch ``half``: "Der Spieler zahlt mindestens die Hälfte des geforderten
Kaufpreises (abgerundet)" (rulebook-bigbox-de-2019.txt L2505-2507) when Handwerker's Schreiner
"Verringert beim Bezahlen den Kaufpreis eines ausliegenden Gebäudes um 1 oder 2" (L3131-3133).

``half=printed`` (the default): half the price printed on the building (P7: 3), reported as
SITE-HALF-PRICE; ``half=asked``: half the price asked once the Schreiner lowered it (P7 lowered
by 2: 5, half 2), reported as SITE-HALF-ASKED. Also: a site on a building bought and not yet
placed is stated in a position inside the turn (``sites`` names the bought piece).
"""

from __future__ import annotations

import pytest

from referee.engine import apply_action, check_game
from referee.engine.position_text import position_text
from referee.engine.walk import walk
from referee.notation import parse_text
from referee.record.model import Turn


def _text(body: str, switch: str = "") -> str:
    return f"""[Players "Anna, Ben, Cem"]
[Modules "baustellen{switch}, handwerker"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Gu9 De1
    craftsmen hw:goldschmied hw:schreiner
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:moertelmischer hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
{body}"""


def _site_findings(body: str, switch: str = "") -> list[tuple[str, dict[str, object]]]:
    (game,) = parse_text(_text(body, switch))
    assert not game.errors, game.errors
    found = check_game(game).violations
    return [(v.code, dict(v.params)) for v in found if v.code.startswith("SITE-HALF")]


def _schreiner(pay: str) -> str:
    return f"1. Anna: schreiner 2, buy De P7e pay {pay} bs:De, reserve P7e, handover hw:schreiner\n"


@pytest.mark.parametrize("switch", ["", " half=printed"])
def test_printed_half_of_the_printed_price_is_asked_under_the_schreiner(switch: str) -> None:
    assert _site_findings(_schreiner("De4"), switch) == []  # 4 >= 7 // 2
    found = _site_findings(_schreiner("De2"), switch)  # 2 < 3
    assert [(c, p["half"], p["price"]) for c, p in found] == [("SITE-HALF-PRICE", 3, 7)]


def test_asked_half_of_the_lowered_price_is_enough() -> None:
    assert _site_findings(_schreiner("De2"), " half=asked") == []  # 2 >= (7 - 2) // 2
    found = _site_findings(_schreiner("De1"), " half=asked")  # 1 < 2
    assert [(c, p["half"], p["asked"], p["price"]) for c, p in found] == [
        ("SITE-HALF-ASKED", 2, 5, 7)
    ]


@pytest.mark.parametrize("switch", ["", " half=printed", " half=asked"])
def test_without_a_lowered_price_both_readings_ask_half_the_printed_price(switch: str) -> None:
    found = _site_findings("1. Anna: buy De P7e pay De2 bs:De, reserve P7e\n", switch)
    assert [(c, p["half"]) for c, p in found] == [("SITE-HALF-PRICE", 3)]


def test_the_asked_message_reads_in_both_languages() -> None:
    (game,) = parse_text(_text(_schreiner("De1"), " half=asked"))
    (v,) = [v for v in check_game(game).violations if v.code == "SITE-HALF-ASKED"]
    assert "geforderten Kaufpreises" in v.message("en") and "1 for P7" in v.message("en")
    assert "Schalter half=asked" in v.message("de")


def test_a_site_on_a_building_bought_and_not_placed_is_stated_inside_the_turn() -> None:
    (game,) = parse_text(_text("1. Anna: buy De P7e pay De4 bs:De, reserve P7e\n"))
    before = None
    for step in walk(game, finish=False):
        if isinstance(step.item, Turn):
            break
        before = step.state
    assert before is not None
    state = before.copy()
    apply_action(state, step.item.actions[0])
    assert state.turn is not None and [str(x) for x in state.turn.pending] == ["~P7"]
    text = position_text(state)
    assert "  bought P7" in text and "sites P7 bs:De" in text
    header = '[Players "Anna, Ben, Cem"]\n[Modules "baustellen, handwerker"]\n\n'
    (again,) = parse_text(header + text)
    back = None
    for s in walk(again, finish=False):
        back = s.state
    assert back is not None and back.turn is not None
    assert [str(x) for x in back.turn.pending] == ["~P7"]
    assert position_text(back) == text
