"""Die Menagerie with market buildings that change places (Handwerker's Mörtelmischer: "Tauscht
2 Gebäude auf dem Bauhof miteinander aus", L3138-3139): the animals lie "offen auf den Garten"
(L3441-3442), so they go with their garden to its new field. Found by the simulated games of
all modules (a garden moved by the Mörtelmischer was reported without animals)."""

from __future__ import annotations

from conftest import view

from referee.engine import GameReport, check_game
from referee.notation import parse_text


def _game(body: str) -> GameReport:
    text = f"""[Players "Anna, Ben, Cem"]
[Modules "handwerker, menagerie"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  animals Gu an:1 an:2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Di9
    craftsmen hw:moertelmischer hw:schreiner
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:goldschmied hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
{body}"""
    games = parse_text(text, "swap.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def test_the_animals_go_with_their_garden_when_two_market_buildings_swap() -> None:
    rep = _game(
        "1. Anna: moertelmischer Gu Di, take Gu4, handover hw:moertelmischer\n"
        "* display Gu3\n"
        "2. Ben: take Di3, handover hw:goldschmied\n"
    )
    assert [v.message() for v in rep.violations if v.severity == "error"] == []
    assert view(rep, "menagerie")["table"]["on the market"] == "Di: an:1 an:2"


def test_the_garden_bought_on_its_new_field_brings_its_animals() -> None:
    rep = _game(
        "1. Anna: moertelmischer Gu Di, buy Di G11 pay Di9 Di2, place G11@0,1, "
        "handover hw:moertelmischer\n"
    )
    assert [v.message() for v in rep.violations if v.severity == "error"] == []
    assert view(rep, "menagerie")["players"]["Anna"]["animals"] == "@0,1 an:1 an:2"
    assert view(rep, "menagerie")["table"]["on the market"] == "-"


def test_the_simulators_pile_refills_from_what_the_engine_counts_in_the_supply() -> None:
    """Animals of a garden claimed off the market before it was bought go back to the supply
    (``market_taken``); the simulator's face-down pile had lost them, so a garden laid late got
    no animals ("Wird im Bauhof ein Garten aufgedeckt, werden 2 der bereitliegenden Tiere
    gezogen", L3440) and every later line was refused (a game of all 43 modules)."""
    from referee.modules.menagerie import in_play, per_kind
    from referee.profiles import load_profile
    from referee.simulate.simulator import SimSettings, _Game

    game = _Game(SimSettings(3, load_profile("queen-2003"), ("menagerie",)), 5, "pile")
    game.setup()
    module = next(m for m in game.state.ext.modules if m.name == "menagerie")
    data = module.data(game.state)
    pile = module._pile(game.sim)
    drawn = sum(data.drawn.values())
    assert len(pile) == in_play() - drawn
    lost = pile[:3]
    del pile[:3]  # as if their garden had been claimed and the animals gone back
    again = module._pile(game.sim)
    assert len(again) == in_play() - drawn - 3  # 3 left over: enough for a garden
    pile.clear()
    again = module._pile(game.sim)
    box = game.sim.hidden["menagerie:box"]  # the two returned to the box unseen
    for k in range(1, 9):  # the pile is the engine's supply now, kind by kind
        assert again.count(k) == per_kind() - data.drawn.get(k, 0) - box.count(k)
    assert len(again) == in_play() - drawn
    assert set(lost) <= set(again)


def test_a_garden_moved_then_bought_as_a_building_site_brings_its_animals() -> None:
    """Baustellen's site lies on the bought garden ("legt es mit der Baustellenseite nach oben
    auf das angezahlte Gebäude"): the purchase's piece is the site, named by the garden under
    it. The animals were looked for by the piece alone, so after a Mörtelmischer swap they
    stayed on the market, while the simulator (which looked between the two actions) had
    moved them to the buyer (an animal move accepted in play, refused on read-back: a game of
    all 43 modules, bga 5 players seed 3)."""
    text = """[Players "Anna, Ben, Cem"]
[Modules "baustellen, handwerker, menagerie"]

position
  next Anna
  market Gu:G11- Di:T11n De:P7e Du:C7ne
  display Gu4 Di3 De6 Du2
  animals Gu an:1 an:2
  player Anna
    hand Gu4 De8 De4 De2 Du5 Du3 Di2 Di9
    craftsmen hw:moertelmischer hw:schreiner
  player Ben
    hand Du8 Di5 Gu1
    craftsmen hw:goldschmied hw:bauherr
  player Cem
    hand Gu2 Di9
    craftsmen hw:schmied hw:muenzer
end
1. Anna: moertelmischer Gu Di, buy Di G11 pay Di9 bs:Gu, place G11@0,1, handover hw:moertelmischer
"""
    games = parse_text(text, "site.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    rep = check_game(games[0])
    assert [v.message() for v in rep.violations if v.severity == "error"] == []
    assert view(rep, "menagerie")["players"]["Anna"]["animals"] == "@0,1 an:1 an:2"
    assert view(rep, "menagerie")["table"]["on the market"] == "-"
