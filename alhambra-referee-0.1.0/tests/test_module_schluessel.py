"""Der Schlüssel zum Tor (rulebook-bigbox-de-2019.txt § Michael Rieneck: Der Schlüssel zum Tor,
heading L3546-3547, text L3490-3545, L3549-3559, L3563-3603).

A key tile is laid by the chance line ``* key ky:N B1 B2 ...`` (the bonus in front of each
player's gate, in seat order from the key's owner: the key faces and the tableau are only in the
picture, the record states them); each player's bonus is an out-of-turn line ``keybonus``.
"""

from __future__ import annotations

from fractions import Fraction

from conftest import codes, messages, run, view

from referee.engine import GameReport, check_game
from referee.notation import parse_text

ANNA = "G10-@0,1 A9-@1,0"
BEN = "G11-@0,1 P8-@1,0"
CEM = "C10-@0,1 T11-@-1,0"
ARCADE_BUY = "1. Anna: buy Di A8e pay Di8, place A8e@0,-1\n* market Di:C6\n"


def position(
    body: str, *, modules: str = "schluessel", extra: str = "", more: str = ""
) -> GameReport:
    games = parse_text(record(body, modules=modules, extra=extra, more=more), "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


def record(body: str, *, modules: str = "schluessel", extra: str = "", more: str = "") -> str:
    """The test position (three players, Anna to move) with ``body`` after it."""
    return (
        f"""[Players "Anna, Ben, Cem"]
[Modules "{modules}"]

position
  next Anna
  market Gu:S9 Di:A8e De:P7e Du:S7
  display Gu4 Di3 De8 Du2
{extra}  player Anna
    hand Du3 De3 Di8 Gu9 Gu2 Gu5
    alhambra {ANNA}
{more}  player Ben
    hand Du8 Di5 Gu1
    alhambra {BEN}
  player Cem
    hand Gu2 Di9
    alhambra {CEM}
end
"""
        + body
    )


def found(rep: GameReport) -> list[str]:
    return [c for c in codes(rep) if c != "TILE-SUPPLY"]


def table(rep: GameReport) -> dict[str, str]:
    return dict(view(rep, "schluessel")["table"])


def players(rep: GameReport) -> dict[str, dict[str, str]]:
    return dict(view(rep, "schluessel").get("players", {}))


def hand(rep: GameReport, who: str) -> list[str]:
    assert rep.state is not None
    p = rep.state.player_named(who)
    assert p is not None
    return sorted(c.code for c in p.hand.elements())


# ---------------------------------------------------------------------- the key tile


def test_an_arcade_gives_a_key_tile_laid_after_the_refill() -> None:
    # "Kauft ein Spieler eine Arkade (braun), legt er das oberste Plättchen ... verdeckt vor sich
    # hin. Wenn am Ende seines Zuges alles eingebaut und aufgefüllt ist, legt er das
    # Schlüssel-Plättchen offen in beliebiger Ausrichtung in das Tor-Tableau." (L3514-3519)
    rep = position(ARCADE_BUY + "* key ky:5 points2 points1 points2\n")
    assert found(rep) == [], messages(rep)
    t = table(rep)
    assert t["key tiles left"] == "8"
    assert t["laid"] == "ky:5"


def test_no_key_without_an_arcade() -> None:
    rep = position("1. Anna: buy Gu S9 pay Gu9, place S9@0,-1\n* market Gu:C6\n* key ky:5 a b c\n")
    assert found(rep) == ["KEY-NOT-DUE"]


def test_a_key_not_laid_is_reported_at_the_next_turn() -> None:
    rep = position(ARCADE_BUY + "2. Ben: take Gu4\n* display Gu7\n")
    assert found(rep) == ["KEY-MISSING"]
    assert "Anna" in messages(rep)[0]


def test_each_key_tile_once_and_named_right() -> None:
    # "Sind alle Boni ausgeführt, wird das gerade genutzte Schlüssel-Plättchen aus dem Spiel
    # entfernt." (L3493-3495)
    body = (
        ARCADE_BUY
        + "* key ky:5 points1 points1 points1\n"
        + "2. Ben: buy Gu S9 pay Gu1 Du8, place S9@2,0\n* market Gu:A5\n"
        + "3. Cem: buy Gu A5 pay Gu2 Di9, place A5@0,-1\n* market Gu:C7\n"
        + "* key ky:5 points1 points1 points1\n"
    )
    rep = position(body)
    assert "KEY-SUPPLY" in found(rep)
    rep = position(ARCADE_BUY + "* key ky:12 points1 points1 points1\n")
    assert found(rep) == ["KEY-TOKEN"]
    rep = position(ARCADE_BUY + "* key ky:1 points1 flowers points1\n")
    assert found(rep) == ["KEY-TOKEN"]


def test_a_bonus_for_every_player() -> None:
    rep = position(ARCADE_BUY + "* key ky:1 points1 points1\n")
    assert found(rep) == ["KEY-BONUSES"]


def test_bonuses_in_seat_order_from_the_active_player() -> None:
    # "Angefangen beim Spieler am Zug und dann in Sitzreihenfolge erhält jetzt jeder Spieler den
    # Bonus, der vor dem Tor seiner Spielerfarbe gezeigt ist." (L3490-3493)
    body = ARCADE_BUY + "* key ky:1 points2 money points1\nAnna: keybonus points2\n"
    body += "Ben: keybonus money Gu4\nCem: keybonus points1\n* display Gu7\n"
    rep = position(body)
    assert found(rep) == [], messages(rep)
    assert "Gu4" in hand(rep, "Ben")
    pts = players(rep)
    assert pts["Anna"]["key points not scored yet"] == "2"
    assert pts["Cem"]["key points not scored yet"] == "1"
    # out of order: Cem before Ben
    body = ARCADE_BUY + "* key ky:1 points2 money points1\nCem: keybonus points1\n"
    body += "Ben: keybonus money Gu4\n* display Gu7\n"
    # Ben's chance passed when Cem took his bonus: the key is over for him
    assert "KEY-BONUS" in found(position(body))


def test_a_bonus_is_optional() -> None:
    # "Dieser Bonus muss nicht ausgeführt werden." (L3493-3494)
    body = ARCADE_BUY + "* key ky:1 points2 money points1\nCem: keybonus points1\n"
    rep = position(body + "2. Ben: take Gu4\n* display Gu7\n")
    assert found(rep) == [], messages(rep)


def test_the_bonus_in_front_of_ones_own_gate_only() -> None:
    body = ARCADE_BUY + "* key ky:1 points2 money points1\nAnna: keybonus points1\n"
    rep = position(body)
    assert found(rep) == ["KEY-BONUS"]
    assert "points2" in messages(rep)[0]


def test_a_bonus_line_without_a_key() -> None:
    rep = position("Anna: keybonus points1\n")
    assert found(rep) == ["KEY-BONUS"]


def test_the_rulebook_example() -> None:
    # three players: yellow (Anna) buys an arcade and takes a redesign, red (Ben) a money card;
    # there is no blue, orange or white player, so green (Cem) swaps 2 market buildings; then
    # the key tile is discarded (L3530-3544)
    body = (
        ARCADE_BUY
        + "* key ky:3 rebuild money trade\n"
        + "Anna: keybonus rebuild, remove A9@1,0\n"
        + "Ben: keybonus money Du2\n"
        + "Cem: keybonus trade 1 4\n"
        + "* display De4\n"
        + "2. Ben: buy Gu S7 pay Gu1 Du8, reserve S7\n"
    )
    rep = position(body)
    assert found(rep) == ["BUY-CURRENCY"], messages(rep)  # Du:S7 lies on the Gulden field now
    rep = position(body.replace("2. Ben: buy Gu S7 pay Gu1 Du8, reserve S7", "2. Ben: take Gu4"))
    assert found(rep) == [], messages(rep)
    assert "Du2" in hand(rep, "Ben")
    assert rep.state is not None
    assert [str(t) for t in rep.state.market] == ["S7", "C6", "P7", "S9"]


def test_money_card_must_be_in_the_display() -> None:
    body = ARCADE_BUY + "* key ky:1 points2 money points1\nBen: keybonus money Gu9\n"
    assert found(position(body)) == ["KEY-BONUS"]


def test_display_refilled_after_each_key_tile() -> None:
    # "Dabei werden ggfs. nach jedem Plättchen Bauhof und Geldkarten aufgefüllt." (L3500-3502)
    head = "1. Ben: buy Di A9 pay Di9, take Gu1, place A9@1,0\n* display Gu5, market Di:C6\n"
    head += "* key ky:2 money points1 points1\nBen: keybonus money Gu5\n"
    rep = run(head + "2. Cem: take Di4\n* display Gu7\n", "schluessel")
    assert codes(rep) == ["REFILL-DISPLAY"]
    rep = run(head + "* display Gu3\n2. Cem: take Di4\n* display Gu7\n", "schluessel")
    assert codes(rep) == [], messages(rep)


def test_trade_with_an_empty_field_but_not_two() -> None:
    # "2 Gebäude auf dem Bauhof tauschen. Dabei kann auch mit einem leeren Platz getauscht
    # werden." (L3573-3575)
    body = ARCADE_BUY + "* key ky:1 trade points1 points1\nAnna: keybonus trade 2 2\n"
    assert found(position(body)) == ["KEY-BONUS"]
    body = ARCADE_BUY + "* key ky:1 trade points1 points1\nAnna: keybonus trade 2 4\n"
    rep = position(body)
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    assert str(rep.state.market[1]) == "S7" and str(rep.state.market[3]) == "C6"


def test_half_building_counts_half_with_one_built() -> None:
    # "Eines der noch vorhandenen halben Gebäude an sich nehmen. Zählt bei einer Wertung wie ein
    # halbes Gebäude dieses Typs. Wirkt nur bei mindestens 1 eingebautem Gebäude des Typs."
    # (L3598-3601)
    from referee.api import score_state

    body = ARCADE_BUY + "* key ky:1 half half half\nAnna: keybonus half A\nBen: keybonus half T\n"
    rep = position(body)
    assert found(rep) == [], messages(rep)
    assert table(rep)["half buildings left"] == "P S C G"
    assert rep.state is not None
    result = score_state(rep.state, 1)
    counts = {r.name: r for r in result.rows}
    assert counts["Anna"] is not None
    adj = rep.state.ext.modules[0].scoring_parts(rep.state, 1)
    assert [a.amount for a in adj.for_participant("Anna")] == [Fraction(1, 2)]
    assert adj.for_participant("Ben") == ()  # Ben has no tower built
    body += "Cem: keybonus half A\n"
    assert found(position(body)) == ["KEY-SUPPLY"]


def test_points_scored_at_the_next_scoring() -> None:
    body = ARCADE_BUY + "* key ky:1 points2 points1 points1\nAnna: keybonus points2\n"
    rep = position(body)
    assert rep.state is not None
    parts = rep.state.ext.modules[0].scoring_parts(rep.state, 1)
    line = parts.categories[0]
    scored = line.score(1, [r for r in _participants(rep)], rep.state.profile)
    assert scored["Anna"].points == 2


def _participants(rep: GameReport) -> list:
    # what score_round gives a category: each entry made a Participant (a category's score
    # takes Participants; the compiled build checks that type, pure Python would not notice)
    from referee.scoring.core import participant
    from referee.scoring.state import scoring_entries

    assert rep.state is not None
    entries = scoring_entries(rep.state, 1)
    return [participant(e) for e in entries if not getattr(e, "is_dirk", False)]


def test_rebuild_is_one_redesign_or_a_move() -> None:
    # "Sofort 1 Umbauaktion ausführen. Statt einer regelgerechten Umbauaktion darf auch ein
    # Gebäude innerhalb der eigenen Alhambra an einen anderen Platz gelegt werden (Bauregeln
    # einhalten)." (L3585-3589)
    head = ARCADE_BUY + "* key ky:1 rebuild points1 points1\n"
    rep = position(head + "Anna: keybonus rebuild, remove A9@1,0, build A9@-1,0\n")
    assert found(rep) == [], messages(rep)
    rep = position(head + "Anna: keybonus rebuild, remove A9@1,0, remove G10-@0,1\n")
    assert found(rep) == ["KEY-BONUS"]


def test_buy_for_14_in_any_mix() -> None:
    # "1 Gebäude für 14 kaufen (Währung beliebig gemischt). Falls ein Spieler hierbei eine
    # Arkade erwirbt, wird das zugehörige Schlüssel-Plättchen am Ende des nächsten eigenen
    # Zuges abgehandelt." (L3577-3581)
    head = ARCADE_BUY + "* key ky:1 buy points1 points1\n"
    rep = position(
        head + "Anna: keybonus buy, buy Du S7 pay Gu9 Gu5, place S7@-1,0\n* market Du:A4\n"
    )
    assert found(rep) == [], messages(rep)
    rep = position(head + "Anna: keybonus buy, buy Du S7 pay Gu9 Gu2, place S7@-1,0\n")
    assert "BUY-UNDERPAID" in found(rep)


def test_an_arcade_bought_by_the_bonus_waits_for_the_next_own_turn() -> None:
    # "Eventuell vor dem eigenen Zug erhaltene Schlüssel-Plättchen werden immer am Ende des
    # nächsten eigenen Zuges abgehandelt." (L3496-3498)
    head = ARCADE_BUY.replace("Di:C6", "Di:A6ne") + "* key ky:1 points1 buy points1\n"
    body = head + "Ben: keybonus buy, buy Di A6ne pay Du8 Di5 Gu1, place A6ne@1,1\n* market Di:C6\n"
    # not due at once: a key line now has nothing to lay
    assert found(position(body + "* key ky:2 points1 points1 points1\n")) == ["KEY-NOT-DUE"]
    body += "2. Ben: take Gu4\n* display Gu7\n"
    rep = position(body + "* key ky:2 points1 points1 points1\n3. Cem: take Di3\n")
    assert found(rep) == [], messages(rep)
    rep = position(body + "3. Cem: take Di3\n")
    assert found(rep) == ["KEY-MISSING"] and "Ben" in messages(rep)[0]


def test_the_game_ends_without_further_keys() -> None:
    # "Falls nach der Auswertung eines Schlüssel-Plättchens beim Auffüllen des Bauhofes nicht
    # genügend Gebäudeplättchen vorhanden sind, endet das Spiel sofort, ohne weitere
    # Schlüssel-Plättchen auszuwerten." (L3524-3527)
    rep = position("* key ky:1 points1 points1 points1\n", extra="  key due Anna 1\n")
    assert found(rep) == [], messages(rep)


def test_switched_off() -> None:
    rep = position(ARCADE_BUY + "* key ky:1 points1 points1 points1\n", modules="")
    assert "MODULE-NOT-ENABLED" in found(rep)


def test_position_lines_round_trip() -> None:
    from referee.engine.position_text import position_text

    body = (
        ARCADE_BUY + "* key ky:1 half points2 half\nAnna: keybonus half A\nBen: keybonus points2\n"
    )
    rep = position(body)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "key laid 1" in text and "key halves A" in text and "key points 2" in text


def test_a_wall_piece_on_a_side_of_an_own_tile() -> None:
    # "Sofort 1 Mauerteil einbauen." (L3591); "7 Mauerteile" (L3553)
    head = ARCADE_BUY + "* key ky:1 wall points1 points1\n"
    rep = position(head + "Anna: keybonus wall @1,0 e\n")
    assert found(rep) == [], messages(rep)
    assert players(rep)["Anna"]["wall pieces"] == "@1,0 e"
    assert table(rep)["wall pieces left"] == "6"
    assert rep.state is not None
    from referee.engine.position_text import position_text

    assert "    key wall @1,0 e" in position_text(rep.state)
    rep = position(head + "Anna: keybonus wall @5,5 e\n")
    assert found(rep) == ["KEY-BONUS"]
    rep = position(head + "Anna: keybonus wall @1,0\n")
    assert found(rep) == ["KEY-BONUS"]
    # the Alhambra must still follow the building rules: a wall between the arcade and the
    # fountain (which has none there) breaks the wall rule
    rep = position(head + "Anna: keybonus wall @1,0 w\n")
    assert set(found(rep)) == {"LAYOUT-BROKEN"}


def test_the_example_replays_trusted_to_the_same_end() -> None:
    # the checks apart from the changes: a trusted replay (no checks) ends in the same state
    from pathlib import Path

    from tests.test_module_trusted_replay import end_state, picture

    path = Path(__file__).resolve().parents[1] / "examples" / "module-schluessel.alh"
    game = parse_text(path.read_text(encoding="utf-8"), str(path))[0]
    assert picture(end_state(game, False)) == picture(end_state(game, True))
    bad = path.read_text(encoding="utf-8").replace("keybonus money", "keybonus points1", 1)
    game = parse_text(bad, "bad.alh")[0]
    assert picture(end_state(game, False)) == picture(end_state(game, True))


def test_simulated_games_lay_keys_and_check_clean() -> None:
    # the simulator's chance lines after a complete turn (Module.sim_between_turns): every key
    # tile due is laid, its bonuses taken, the refill after it written
    from referee.notation.formatter import format_game
    from referee.simulate import simulate_game

    for players, seed in ((2, 5), (6, 7)):
        game = simulate_game(players, seed, modules=("schluessel",))
        text = format_game(game)
        assert "\n* key ky:" in text
        rep = check_game(parse_text(text, "sim.alh")[0])
        assert rep.violations == [], messages(rep)[:3]
        assert rep.complete


def test_every_offered_bonus_line_is_accepted() -> None:
    # explain / legal / the simulator offer a player's bonus lines from the same engine: each
    # line offered after each key tile of the example is accepted by the checker
    from pathlib import Path

    from referee.engine.core import apply_item
    from referee.engine.legal import legal_interrupts
    from referee.engine.walk import At, state_at

    path = Path(__file__).resolve().parents[1] / "examples" / "module-schluessel.alh"
    text = path.read_text(encoding="utf-8")
    game = parse_text(text, str(path))[0]
    lines = [i + 1 for i, line in enumerate(text.splitlines()) if line.startswith("* key ")]
    offered = 0
    for n in lines:
        state, _ = state_at(game, At("line", n))
        for line in legal_interrupts(state):
            trial = state.copy()
            before = len(trial.found)
            apply_item(trial, line)
            assert trial.found[before:] == [], (n, line)
            offered += 1
    assert offered > 0


def test_the_bonus_purchase_of_a_plot_offers_its_building_before_the_placement() -> None:
    """Bauland: "Anschließend sucht er sofort eines der Baugebäude aus, die unter dem
    entsprechenden Zahlenplättchen liegen" (L2859-2861) -- also when the plot is bought with
    the key's bonus "1 Gebäude für 14 kaufen" (L3577-3578). The bonus lines offered the
    purchase and the placement only, so the simulator wrote a plot without its building and
    the next line was refused (all 43 modules, the bench's seed 3502)."""
    from referee.engine import apply_item, start_state
    from referee.engine.legal import legal_interrupts
    from referee.notation.formatter import action

    plots = "  plots 1 P A C\n  plots 2 S G T\n  plots 3 A G P\n  plots 4 C T S\n"
    head = ARCADE_BUY.replace("* market Di:C6", "* market Di:bl:1_12n") + (
        "* key ky:1 buy points1 points1\n"
    )
    game = parse_text(record(head, modules="bauland, schluessel", extra=plots), "t.alh")[0]
    state = start_state(game)
    for item in game.body:
        apply_item(state, item)
    lines = [", ".join(action(a) for a in t.actions) for t in legal_interrupts(state)]
    plot_lines = [x for x in lines if "bl:1_12n" in x]
    # each purchase of the plot: its building (one of column 1's) before the placement
    assert plot_lines and all(", plot " in x for x in plot_lines), lines
    assert {x.split(", plot ")[1][0] for x in plot_lines} == {"P", "A", "C"}
    line = "Anna: keybonus buy, buy Di bl:1_12n pay Gu9 Gu5, plot P, place bl:1_12n_P@-1,0\n"
    rep = position(head + line, modules="bauland, schluessel", extra=plots)
    assert found(rep) == [], messages(rep)
