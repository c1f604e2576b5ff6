"""Die Obstgärten with market buildings that change places (Handwerker's Mörtelmischer:
"Tauscht 2 Gebäude auf dem Bauhof miteinander aus", rulebook-bigbox-de-2019.txt L3138-3139).
The fruit lies on the building ("offen auf das Gebäudeplättchen gelegt", L3038-3041) and comes
with it ("bekommt er neben dem Gebäude auch die Frucht", L3043-3046), so it goes with its
building to the new field (as the animals of Die Menagerie do)."""

from __future__ import annotations

from conftest import view

from referee.engine import GameReport, check_game
from referee.notation import parse_text


def _game(body: str, modules: str = "handwerker, obstgaerten") -> GameReport:
    market = "Gu:G11- Di:T11n De:P7e Du:C7ne"
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market {market}
  display Gu4 Di3 De6 Du2
  fruit Gu fr:1 Di fr:2 De fr:3 Du fr:4
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Di9 Gu9 Gu3
    craftsmen hw:moertelmischer hw:schreiner
    orchard bd:1
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:goldschmied hw:bauherr
    orchard bd:2
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
    orchard bd:3
end
{body}"""
    games = parse_text(text, "swap.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def _errors(rep: GameReport) -> list[str]:
    return [v.message() for v in rep.violations if v.severity == "error"]


def test_the_fruits_go_with_their_buildings_when_two_market_buildings_swap() -> None:
    rep = _game(
        "1. Anna: moertelmischer Gu Di, take Gu4, handover hw:moertelmischer\n"
        "* display Gu3\n"
        "2. Ben: take Di3, handover hw:goldschmied\n"
    )
    assert _errors(rep) == []
    shown = view(rep, "obstgaerten")["table"]["fruits on the market"]
    assert shown == "Gu:fr:2 Di:fr:1 De:fr:3 Du:fr:4"


def test_the_building_bought_on_its_new_field_brings_its_fruit() -> None:
    # G11 (fruit 1) swapped from Gu to Di, then bought there: Anna gets fruit 1, not fruit 2
    rep = _game(
        "1. Anna: moertelmischer Gu Di, buy Di G11 pay Di9 Di2, place G11@0,1, fruit fr:1 1, "
        "handover hw:moertelmischer\n"
    )
    assert _errors(rep) == []
    assert view(rep, "obstgaerten")["table"]["fruits on the market"] == "Gu:fr:2 De:fr:3 Du:fr:4"


def test_a_building_moved_then_bought_as_a_building_site_brings_its_fruit() -> None:
    # Baustellen: the purchase's piece is the site lying on G11 ("legt es mit der
    # Baustellenseite nach oben auf das angezahlte Gebäude"), found by the tile under it
    rep = _game(
        "1. Anna: moertelmischer Gu Di, buy Di G11 pay Di9 bs:Gu, place G11@0,1, fruit fr:1 1, "
        "handover hw:moertelmischer\n",
        modules="baustellen, handwerker, obstgaerten",
    )
    assert _errors(rep) == []
    assert view(rep, "obstgaerten")["table"]["fruits on the market"] == "Gu:fr:2 De:fr:3 Du:fr:4"


def test_a_building_gone_from_the_market_does_not_hold_back_the_others() -> None:
    """A fruit whose building left the market without a hook (Charaktere's Tänzerin pushes it
    "zurück in den Turm") stays on its field; the fruit of a building swapped later still goes
    with it (it stayed behind and the simulator drew a second fruit for the building: all 43
    modules, queen-2003 3 players seed 18)."""
    from referee.modules.base import field_under, follow_market

    t9, t11, g10, c12 = "T9es", "T11s", "G10-", "mg:C12ns"  # compared by value only
    market = [g10, "md:5e", c12, t11]  # T11s swapped from Gu to Du; T9es left De
    held: dict[int, int | None] = {0: 1, 2: 5}
    under: dict[int, object] = {0: t11, 2: t9}
    follow_market(market, held, under)
    assert held == {3: 1, 2: 5} and under == {3: t11, 2: t9}
    assert field_under(held, under, 2, t9) == 2  # the hook that takes T9es finds its fruit
    # two buildings swapped, one of them bought at once: the other waits, then follows
    market = ["A", "", "C", "D"]  # B (was on 0) bought from field 1, A came from 1 to 0
    held, under = {0: 7, 1: 6}, {0: "B", 1: "A"}
    follow_market(market, held, under)
    assert held == {0: 7, 1: 6}  # A may not go onto B's field before B's fruit is taken
    assert field_under(held, under, 1, "B") == 0
    held.pop(0), under.pop(0)
    follow_market(market, held, under)
    assert held == {0: 6} and under == {0: "A"}
