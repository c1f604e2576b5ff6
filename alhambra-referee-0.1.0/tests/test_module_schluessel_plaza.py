"""The plaza bonus of Der Schlüssel zum Tor: "Sofort 1 Plaza-Plättchen einbauen oder in die
Reserve legen." (rulebook-bigbox-de-2019.txt L3594-3595; "6 Plaza-Plättchen", L3555; "Die
Mauerteile, halben Gebäude und die Plaza-Plättchen werden neben dem Tor-Tableau platziert",
L3508-3510). The face and the effect are only in the picture: a plaza is read as a square of
Die Plätze (switch ``plaza``; docs/modules/schluessel.md ruling 14)."""

from __future__ import annotations

from conftest import messages

from referee.engine.position_text import position_text
from referee.notation import parse_text
from referee.scoring.state import score_state
from tests.test_module_schluessel import ARCADE_BUY, found, players, position, record, table

PLAZAS = ARCADE_BUY + "* key ky:5 plaza plaza plaza\n"


def _adjustments(rep, who: str) -> list[str]:  # type: ignore[no-untyped-def]
    assert rep.state is not None
    module = next(m for m in rep.state.ext.modules if m.name == "schluessel")
    parts = module.scoring_parts(rep.state, 1)
    return [f"{a.type.code}+{a.amount}" for a in parts.for_participant(who)]


def test_a_plaza_is_built_by_the_building_rules() -> None:
    # Anna's arcade A9 lies at 1,0 with no walls: the plaza of the arcades' colour beside it
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, place pz:As@2,0\n")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None
    from referee.record.model import Coord

    assert str(anna.alhambra.get(Coord(2, 0))) == "pz:As"
    assert table(rep)["plazas left"] == "pz:P pz:S pz:C pz:G pz:T"
    # read as a square: one arcade beside it with no wall between -> counts as 1 arcade
    assert _adjustments(rep, "Anna") == ["A+1"]


def test_a_plaza_may_go_into_the_reserve() -> None:
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, reserve pz:As\n")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and [str(x) for x in anna.reserve] == ["pz:As"]
    assert _adjustments(rep, "Anna") == []  # a plaza in the reserve counts nothing


def test_a_plaza_not_placed_is_reported_and_lies_in_the_reserve() -> None:
    # "Sofort ... einbauen oder in die Reserve legen": on the bonus line itself
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As\n")
    assert found(rep) == ["PLACE-MISSING"]
    assert rep.state is not None
    anna = rep.state.player_named("Anna")
    assert anna is not None and [str(x) for x in anna.reserve] == ["pz:As"]


def test_the_building_rules_apply_to_a_plaza() -> None:
    # not beside the Alhambra / a wall against an open side
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, place pz:As@5,5\n")
    assert found(rep) and "KEY-BONUS" not in found(rep)
    rep = position(PLAZAS + "Anna: keybonus plaza pz:Aw, place pz:Aw@2,0\n")
    assert found(rep) and "KEY-BONUS" not in found(rep)


def test_six_plazas_one_of_each_colour() -> None:
    # "6 Plaza-Plättchen" (L3555): one of each colour assumed (picture-only)
    body = (
        PLAZAS
        + "Anna: keybonus plaza pz:As, reserve pz:As\nBen: keybonus plaza pz:An, reserve pz:An\n"
    )
    rep = position(body)
    assert found(rep) == ["KEY-SUPPLY"]
    assert "pz:P pz:S pz:C pz:G pz:T" in messages(rep)[0]
    assert rep.state is not None
    ben = rep.state.player_named("Ben")
    assert ben is not None and ben.reserve == []  # not taken


def test_the_plaza_token() -> None:
    for token in ("pz:A", "pz:X0", "A9", "sq:Tn"):
        rep = position(PLAZAS + f"Anna: keybonus plaza {token}\n")
        assert "KEY-TOKEN" in found(rep), token
    rep = position(PLAZAS + "Anna: keybonus plaza\n")
    assert found(rep) == ["KEY-TOKEN"]


def test_only_a_placement_on_the_plaza_line() -> None:
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, place pz:As@2,0, reserve pz:As\n")
    assert found(rep) == ["KEY-BONUS"]
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, take Gu4\n")
    assert found(rep) == ["KEY-BONUS"]


def test_only_the_player_whose_gate_shows_it() -> None:
    body = ARCADE_BUY + "* key ky:5 points1 plaza points1\nAnna: keybonus plaza pz:As\n"
    assert found(position(body)) == ["KEY-BONUS"]


def test_switch_walls_counts_no_building() -> None:
    rep = position(
        PLAZAS + "Anna: keybonus plaza pz:As, place pz:As@2,0\n", modules="schluessel plaza=walls"
    )
    assert found(rep) == [], messages(rep)
    assert _adjustments(rep, "Anna") == []
    assert table(rep)["options"] == "plaza=walls"


def test_a_plaza_counts_by_its_like_neighbours() -> None:
    # "Grenzt ein Platz an ein gleichfarbiges Gebäude, zählt er wie ein weiteres Gebäude" (DIE
    # PLÄTZE, Wertungsänderungen; the kit's like_neighbours, shared with Die Plätze): Cem's
    # tower T11- at -1,0 below, his chambers C10 beside (another colour)
    rep = position(PLAZAS + "Cem: keybonus plaza pz:Tn, place pz:Tn@-1,1\n")
    assert found(rep) == [], messages(rep)
    assert _adjustments(rep, "Cem") == ["T+1"]


def test_a_plaza_in_a_position_round_trips() -> None:
    rep = position(
        PLAZAS
        + "Anna: keybonus plaza pz:As, place pz:As@2,0\nBen: keybonus plaza pz:Gn, reserve pz:Gn\n"
    )
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "pz:As@2,0" in text and "reserve pz:Gn" in text
    game = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "schluessel"]\n\n' + text, "p.alh")[0]
    from referee.engine import check_game

    again = check_game(game)
    assert again.violations == [], messages(again)
    assert again.state is not None
    assert position_text(again.state) == text
    assert table(again)["plazas left"] == "pz:P pz:S pz:C pz:T"
    # a seventh plaza / a second of one colour in a position is a supply error
    twice = text.replace("reserve pz:Gn", "reserve pz:Gn pz:An")
    game = parse_text('[Players "Anna, Ben, Cem"]\n[Modules "schluessel"]\n\n' + twice, "p.alh")[0]
    assert "KEY-SUPPLY" in [v.code for v in check_game(game).violations]


def test_the_score_counts_the_plaza() -> None:
    # the arcades A9 and A8e + the plaza beside A9 (one like neighbour, no wall between); its
    # wall on the south side is an outer wall ("Die Stadtmauern auf den Plätzen werden wie
    # üblich gewertet", DIE PLÄTZE)
    rep = position(PLAZAS + "Anna: keybonus plaza pz:As, place pz:As@2,0\n")
    assert rep.state is not None
    row = score_state(rep.state.copy(), 3).row("Anna")
    arcades = row.categories["majority:A"]
    assert (arcades.base_count, arcades.count) == (2, 3)
    assert [a.label for a in arcades.adjustments] == ["plaza pz:As@2,0: counts as 1 arcades"]
    assert row.categories["wall"].length == 1


def test_legal_lines_offer_the_plaza() -> None:
    # explain / legal / the simulator offer the plaza lines from the same engine: each is
    # accepted by the checker
    from referee.engine.core import apply_item
    from referee.engine.legal import legal_interrupts
    from referee.engine.walk import At, state_at

    text = record(PLAZAS)
    game = parse_text(text, "t.alh")[0]
    n = next(i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("* key"))
    state, _ = state_at(game, At("line", n))
    lines = legal_interrupts(state)
    plaza = [ln for ln in lines if "plaza" in str(ln.actions[0])]
    assert plaza
    from referee.record.model import Place, Reserve

    assert {type(ln.actions[1]) for ln in plaza} == {Place, Reserve}
    for line in plaza:
        trial = state.copy()
        before = len(trial.found)
        apply_item(trial, line)
        assert trial.found[before:] == [], line


def test_players_area_and_view() -> None:
    rep = position(PLAZAS + "Ben: keybonus plaza pz:Gn, reserve pz:Gn\n")
    assert "Ben" not in players(rep) or "plaza" not in str(players(rep)["Ben"])


def test_simulated_games_take_every_bonus() -> None:
    # the simulator lays all nine bonuses of the tableau (L3573-3601) and plays each of them:
    # across two seeds every bonus is taken at least once, and the games check clean
    from referee.engine import check_game
    from referee.modules.schluessel import bonus_names
    from referee.simulate import simulate_text
    from referee.simulate.simulator import game_seed

    taken: set[str] = set()
    for seed in (2, 11):  # `alhambra-referee simulate --modules schluessel --seed 2` and 11
        text = simulate_text(3, game_seed(seed, 0), modules=("schluessel",))
        for line in text.splitlines():
            if ": keybonus " in line:
                taken.add(line.split(": keybonus ", 1)[1].split()[0].rstrip(","))
        rep = check_game(parse_text(text, "sim.alh")[0])
        assert rep.violations == [], messages(rep)[:3]
    assert taken == set(bonus_names())


def test_a_plaza_is_redesigned_and_moved_like_a_tile() -> None:
    # "Statt einer regelgerechten Umbauaktion darf auch ein Gebäude innerhalb der eigenen
    # Alhambra an einen anderen Platz gelegt werden" (L3585-3589): the same plaza moved is one
    # move; two different pieces are two redesigns, not one
    from referee.engine import check_game
    from tests.test_module_schluessel import ANNA

    def run_it(line: str) -> list[str]:
        text = record(
            f"* key ky:1 rebuild points1 points1\n{line}\n",
            extra="  key due Anna 1\n",
            more="    reserve pz:Gn\n",
        ).replace(f"alhambra {ANNA}", f"alhambra {ANNA} pz:A0@2,0")
        return found(check_game(parse_text(text, "t.alh")[0]))

    assert run_it("Anna: keybonus rebuild, remove pz:A0@2,0, build pz:A0@1,1") == []
    assert run_it("Anna: keybonus rebuild, remove pz:A0@2,0, build pz:Gn@1,1") == ["KEY-BONUS"]
