"""Medina (``referee/modules/medina.py``): rulebook-bigbox-de-2019.txt § MEDINA.

Every sentence of the section, its two examples exactly as printed, the readings the text
leaves open (below zero, Dirk) with their switches, and the corruptions a record can contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import codes, run

from referee.cli import cli
from referee.engine import check_game
from referee.notation import parse_text
from referee.scoring import category_line, render_scoring_text, score_round
from referee.scoring.core import ScoringEntry

MD = "medina"


def entries(*names: str) -> list[ScoringEntry]:
    return [ScoringEntry(n, counts={}, total_before=0, wall_claim=0) for n in names]


def medina_points(round_no: int, count: dict[str, int], dearest: dict[str, int]) -> dict[str, int]:
    from referee.modules.medina import medina_category

    result = score_round(
        round_no, entries(*count), extra=[medina_category(round_no, count, dearest)]
    )
    return {r.name: r.categories["medina"].points for r in result.rows}


def position(players: dict[str, str], scorings: int = 2, modules: str = MD) -> str:
    body = "".join(
        f"  player {name}\n    score 40\n    alhambra {alh}\n" for name, alh in players.items()
    )
    return (
        f'[Players "{", ".join(players)}"]\n[Modules "{modules}"]\n\n'
        f"position\n  scorings {scorings}\n{body}end\n"
    )


def players_of(out: str) -> dict[str, dict]:  # type: ignore[type-arg]
    """The players of ``score --format json`` by name."""
    doc = json.loads(out)
    return {p["name"]: p for p in doc["games"][0]["scoring"]["players"]}


def score_cli(text: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["score", "-", *args], input=text)
    assert result.exit_code == 0, result.output
    return result.output


# ------------------------------------------------------------------ the section's examples


def test_example_dearest_medina_breaks_the_tie() -> None:
    # "Beispiel: Spieler C hat die wenigsten Medinas und bekommt 9 Minuspunkte. Spieler A und B
    # haben beide 3 Medinas. Da der höchste Kaufpreis einer Medina von Spieler B eine 5 und von
    # Spieler A eine 8 ist, ist Spieler A der Gewinner und bekommt nur 3 Minuspunkte, während
    # Spieler B 6 Minuspunkte bekommt."
    text = position(
        {
            "A": "md:8x@1,0 md:7x@2,0 md:6x@3,0",
            "B": "md:5x@1,0 md:4x@2,0 md:3x@3,0",
            "C": "md:10x@1,0 md:9x@0,1",
        }
    )
    rows = players_of(score_cli(text, "--format", "json"))
    got = {n: r["categories"]["medina"]["points"] for n, r in rows.items()}
    assert got == {"A": -3, "B": -6, "C": -9}
    out = score_cli(text)
    assert "medina            3  2nd        \u22126  2nd fewest, dearest 5" in out
    assert "medina            2  1st        \u22129  fewest, dearest 10" in out
    de = score_cli(text, "--lang", "de")
    assert "2. Platz wenigste, teuerste 5" in de


def test_caption_two_players_without_medina_share_places_one_and_two() -> None:
    # caption "Beispiel: Eingebaute Medinas ... 3. Wertung -11 -11 -3 0"; "Falls 2 Spieler keine
    # Medina eingebaut haben, werden die Minuspunkte für den 1. und 2. Platz geteilt
    # (aufrunden!), die für den 3. Platz werden wie gewöhnlich vergeben" + 3 for no medina
    assert medina_points(3, {"A": 0, "B": 0, "C": 1, "D": 2}, {"C": 4, "D": 9}) == {
        "A": -11,
        "B": -11,
        "C": -3,
        "D": 0,
    }


def test_caption_through_a_position_and_the_breakdown_line() -> None:
    text = position({"A": "", "B": "", "C": "md:4x@1,0", "D": "md:9x@1,0 md:2x@2,0"}).replace(
        "    alhambra \n", ""
    )
    out = score_cli(text)
    assert (
        "medina            0  1st       \u221211  fewest, tie: B, (-9-6)/2 = -8; no medina \u22123"
        in out
    )
    assert "medina            1  3rd        \u22123  3rd fewest, dearest 4" in out


@pytest.mark.parametrize(
    ("round_no", "count", "expected"),
    [
        # "1. Wertung: Alle Spieler ohne Medina teilen die 3 Minuspunkte unter sich auf
        # (aufrunden)": ceil(3/2) = 2, plus 1 for none
        (1, {"A": 0, "B": 0, "C": 1}, {"A": -3, "B": -3, "C": 0}),
        # 1. Wertung, one player fewest: only "der Spieler, der die wenigsten Medinas ..."
        (1, {"A": 1, "B": 2, "C": 3}, {"A": -3, "B": 0, "C": 0}),
        # "2. Wertung: Falls mehrere Spieler keine Medina haben, werden die Minuspunkte für den
        # 1. und 2. Platz auf alle diese Spieler aufgeteilt (aufrunden)": 9/3 = 3, + 2
        (2, {"A": 0, "B": 0, "C": 0, "D": 1}, {"A": -5, "B": -5, "C": -5, "D": 0}),
        # 2. Wertung, two players: fewest -6, second fewest -3
        (2, {"A": 1, "B": 2, "C": 3}, {"A": -6, "B": -3, "C": 0}),
        # "Falls 3 oder mehr Spieler keine Medina eingebaut haben, werden die 18 Punkte auf alle
        # Beteiligten verteilt (aufrunden!)": ceil(18/4) = 5, + 3
        (3, {"A": 0, "B": 0, "C": 0, "D": 0}, {"A": -8, "B": -8, "C": -8, "D": -8}),
        # three without medina of five: 18/3 = 6, + 3; the others pay nothing
        (3, {"A": 0, "B": 0, "C": 0, "D": 1, "E": 2}, {"A": -9, "B": -9, "C": -9, "D": 0, "E": 0}),
    ],
)
def test_the_table_and_shared_places(
    round_no: int, count: dict[str, int], expected: dict[str, int]
) -> None:
    # table: fewest -3/-6/-9, second fewest 0/-3/-6, third fewest 0/0/-3
    dearest = {n: 5 + i for i, (n, c) in enumerate(count.items()) if c}
    assert medina_points(round_no, count, dearest) == expected


def test_equal_counts_and_equal_dearest_share() -> None:
    # reading: the text breaks a tie only by the dearest medina; equal prices share the places
    assert medina_points(2, {"A": 1, "B": 1, "C": 2}, {"A": 5, "B": 5, "C": 9}) == {
        "A": -5,
        "B": -5,
        "C": 0,
    }


def test_medinas_are_scored_last_and_not_as_buildings() -> None:
    # "Die Medinas werden zuletzt gewertet"; a medina is no building type: no majority counts it
    text = position({"A": "md:8x@1,0 G10n@0,1", "B": "P7@1,0", "C": "md:2x@1,0"}, scorings=0)
    a = players_of(score_cli(text, "--round", "1", "--format", "json"))["A"]
    assert list(a["categories"])[-1] == "medina"
    assert a["buildings"]["G"]["count"] == 1
    assert sum(b["count"] for b in a["buildings"].values()) == 1  # the medina counts for none


# ------------------------------------------------------------------ in a game


GAME = """\
1. Ben: buy Gu md:8 pay Gu8, place md:8n@1,0
* market Gu:md:2x
"""


@pytest.fixture
def medina_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared test setup with a medina on the Gulden field instead of G11."""
    import conftest as common

    monkeypatch.setattr(
        common, "SETUP", common.SETUP.replace("* market Gu:G11", "* market Gu:md:8n")
    )


@pytest.mark.usefixtures("medina_setup")
def test_a_medina_comes_out_of_the_tower_and_is_bought_like_a_tile() -> None:
    # "Wenn ein Medinaplättchen aus dem Turm gezogen wird, kommt es genau wie die anderen
    # Gebäudeplättchen auf den Bauhof zum Verkauf. Erwirbt ein Spieler eine Medina, gelten die
    # gleichen Regeln wie für andere Gebäudeplättchen, einschließlich der Möglichkeit, es
    # zunächst in die Reserve zu legen."
    rep = run(GAME + "2. Cem: buy Gu md:2 pay Gu2, reserve md:2x\n* market Gu:T9ne\n", MD)
    assert codes(rep) == []
    state = rep.state
    assert state is not None
    ben, cem = state.player_named("Ben"), state.player_named("Cem")
    assert ben is not None and cem is not None
    assert [str(p) for _c, p in ben.alhambra.items() if "md" in str(p)] == ["md:8n"]
    assert [str(p) for p in cem.reserve] == ["md:2x"]
    assert state.bag_count == 54 + 9 - 4 - 2  # the tower holds the nine medinas too


@pytest.mark.usefixtures("medina_setup")
def test_an_underpaid_medina() -> None:
    rep = run("1. Ben: buy Gu md:8 pay Gu1\n", MD)
    assert "BUY-UNDERPAID" in codes(rep)


@pytest.mark.usefixtures("medina_setup")
def test_building_rules_apply_to_a_medina() -> None:
    # its wall north faces the open south side of a tile placed above it: PLACE-WALL
    rep = run(GAME + "2. Cem: buy Gu md:2 pay Gu2, place md:2x@0,1\n", MD)
    assert codes(rep) == []
    rep = run("1. Ben: buy Gu md:8 pay Gu8, place md:8n@0,-1\n", MD)
    assert "PLACE-WALL" in codes(rep)  # its north wall meets the fountain's open side


@pytest.mark.usefixtures("medina_setup")
def test_a_medina_stated_two_ways() -> None:
    # drawn as md:8n, placed as md:8e: a tile is never turned (MEDINA-FACE)
    rep = run("1. Ben: buy Gu md:8 pay Gu8, place md:8e@1,0\n", MD)
    assert "MEDINA-FACE" in codes(rep)
    msg = next(v for v in rep.violations if v.code == "MEDINA-FACE")
    assert msg.message().startswith("md:8n is stated with walls e, but it was stated as n")
    assert msg.rule.name("de") == "Medina verschieden angegeben"


@pytest.mark.usefixtures("medina_setup")
def test_more_medinas_than_exist() -> None:
    # one medina per price (component data, unverified): a second md:8 is more than exist
    rep = run(GAME.replace("market Gu:md:2x", "market Gu:md:8n"), MD)
    assert "TILE-SUPPLY" in codes(rep)
    v = next(v for v in rep.violations if v.code == "TILE-SUPPLY")
    assert "more tiles than exist" in v.message()
    assert "mehr Plättchen als es gibt" in v.message("de")


@pytest.mark.parametrize(
    ("token", "reason"), [("md:8q", "form"), ("md:12n", "no-such-price"), ("md:8", "no-walls")]
)
def test_bad_medina_tokens(token: str, reason: str) -> None:
    import conftest as common

    setup = common.SETUP.replace("Gu:G11", f"Gu:{token}")
    rep = check_game(parse_text(setup.format(players="Anna, Ben, Cem", modules=MD), "t.alh")[0])
    found = [v for v in rep.violations if v.code == "MEDINA-TOKEN"]
    assert found and found[0].reason == reason, [v.message() for v in rep.violations]
    assert found[0].message("de")


def test_switched_off() -> None:
    import conftest as common

    setup = common.SETUP.replace("Gu:G11", "Gu:md:8n")
    rep = check_game(parse_text(setup.format(players="Anna, Ben, Cem", modules=""), "t.alh")[0])
    assert "MODULE-NOT-ENABLED" in [v.code for v in rep.violations]


# ------------------------------------------------------------------ claims


EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "module-medina.alh"


def test_the_example_claims_each_medina_line() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "(medina=-9)" in text and "(medina=-3)" in text
    rep = check_game(parse_text(text, str(EXAMPLE))[0])
    assert rep.valid and rep.complete


def test_a_wrong_penalty_claim_is_caught() -> None:
    # Dana has the fewest medinas at scoring 3 (one, priced 2): -9; the example claims it,
    # a claim of -6 is SCORE-CLAIM naming the medina line
    text = EXAMPLE.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("scoring 3:"))
    bad = line.replace("Dana =57 (medina=-9)", "Dana =57 (medina=-6)")
    assert bad != line
    rep = check_game(parse_text(text.replace(line, bad), "bad.alh")[0])
    claims = [v for v in rep.violations if v.code == "SCORE-CLAIM"]
    assert len(claims) == 1 and claims[0].player == "Dana", [v.message() for v in rep.violations]
    assert "medina" in claims[0].message() and "-9" in claims[0].message().replace("\u2212", "-")


# ------------------------------------------------------------------ the open readings


def test_below_zero_by_default_and_floor_switch() -> None:
    # the section never says "unter Null kann man aber nicht fallen" (as Angreifer and
    # Bediensteten do): by default a medina penalty may take a total below zero.
    # B has built nothing and 1 point: scoring 2 gives 0 points and medina -6 - 2 = -8
    text = position({"A": "md:8x@1,0", "B": "", "C": "md:9x@1,0 md:2x@2,0"}, 0)
    text = text.replace("score 40", "score 1").replace("    alhambra \n", "")
    b = players_of(score_cli(text, "--round", "2", "--format", "json"))["B"]
    assert b["categories"]["medina"]["points"] == -8  # fewest -6, no medina -2
    assert b["total"] == -7
    # floor=zero: the total stops at zero, the line shows what was cut
    floored = text.replace('[Modules "medina"]', '[Modules "medina floor=zero"]')
    b = players_of(score_cli(floored, "--round", "2", "--format", "json"))["B"]
    assert b["total"] == 0 and b["categories"]["medina"]["unfloored"] == -8
    assert b["categories"]["medina"]["points"] == -1
    out = score_cli(floored, "--round", "2")
    assert "-8 cut: never below zero" in out


def test_negative_totals_can_be_claimed() -> None:
    game = parse_text('[Players "A, B"]\n\nscoring 1: A -3 =-3 (medina=-4), dirk -1\n', "t")[0]
    assert not game.errors
    from referee.notation import format_game

    assert "A -3 =-3 (medina=-4), dirk -1" in format_game(game)


def _two_player(modules: str) -> str:
    return (
        '[Players "A, B"]\n'
        f'[Modules "{modules}"]\n\n'
        "position\n  scorings 0\n  dirk md:6x T9ne\n"
        "  player A\n    score 10\n    alhambra md:2x@1,0\n"
        "  player B\n    score 10\n    alhambra md:3x@1,0 md:4x@2,0\n"
        "end\n"
    )


def test_dirk_does_not_rank_by_default_and_ranks_with_the_switch() -> None:
    # "Dirk baut zwar keine Alhambra": the rule counts medinas "in seiner Alhambra eingebaut"
    rows = players_of(score_cli(_two_player(MD), "--round", "2", "--format", "json"))
    got = {n: p.get("categories", {}).get("medina", {}).get("points") for n, p in rows.items()}
    assert got == {"A": -6, "B": -3, "Dirk": None}
    rows = players_of(
        score_cli(_two_player("medina dirk=ranks"), "--round", "2", "--format", "json")
    )
    got = {n: p.get("categories", {}).get("medina", {}).get("points") for n, p in rows.items()}
    # Dirk and A have one medina each: A's dearest (2) is cheaper, so A is fewest (-6) and
    # Dirk second (-3); B, with two, pays nothing
    assert got == {"A": -6, "B": 0, "Dirk": -3}


def test_an_unknown_option_is_reported() -> None:
    rep = check_game(parse_text(_two_player("medina floor=sometimes"), "t.alh")[0])
    v = next(v for v in rep.violations if v.code == "MODULE-OPTION")
    assert "floor=none|zero" in v.message() and "Voreinstellung" in v.message("de")


# ------------------------------------------------------------------ Dirk and the tower


def test_dirk_receives_medinas_and_they_count_for_no_majority() -> None:
    dirk = players_of(score_cli(_two_player(MD), "--round", "2", "--format", "json"))["Dirk"]
    counts = {t: b["count"] for t, b in dirk["buildings"].items()}
    assert counts["T"] == 1 and sum(counts.values()) == 1  # md:6x counts for nothing


def test_the_tower_holds_the_medinas_for_the_game_end_and_dirk() -> None:
    from referee.engine import start_state
    from referee.engine.core import dirk_wanted

    game = parse_text('[Players "A, B"]\n[Modules "medina"]\n\n', "t")[0]
    state = start_state(game)
    assert state.bag_count == 63  # 54 buildings + 9 medinas in the Plättchenturm
    state.bag_count = 30
    assert dirk_wanted(state, 2)[0] == 10  # "ein Drittel ... der noch im Turm verbliebenen"


# ------------------------------------------------------------------ show, render, modules


def test_show_and_render_draw_medinas() -> None:
    text = position({"A": "md:8x@1,0", "B": "md:5n@1,0"}, scorings=0)
    shown = CliRunner().invoke(cli, ["show", "-"], input=text)
    assert shown.exit_code == 0, shown.output
    assert "Md8" in shown.output and "Medina" in shown.output and "in the tower: 7" in shown.output
    data = json.loads(CliRunner().invoke(cli, ["show", "-", "--format", "json"], input=text).output)
    assert data["modules"]["medina"]["players"]["A"]["medinas built"] == "md:8x"
    svg = CliRunner().invoke(cli, ["render", "-", "-o", "-"], input=text)
    assert svg.exit_code == 0, svg.output
    assert ">Md8<" in svg.output and "#d9b77e" in svg.output  # a sand tile, not a fountain


@pytest.mark.parametrize("lang", ["en", "de"])
def test_modules_lists_medina(lang: str) -> None:
    out = CliRunner().invoke(cli, ["modules", "--lang", lang]).output
    assert "medina" in out and "MEDINA" in out
    assert ("Minuspunkte" in out) == (lang == "de")


def test_category_line_in_both_languages() -> None:
    from referee.modules.medina import medina_category

    cat = medina_category(3, {"A": 3, "B": 3, "C": 2}, {"A": 8, "B": 5, "C": 6})
    result = score_round(3, entries("A", "B", "C"), extra=[cat])
    b = result.row("B")
    assert b is not None
    assert category_line(b, "medina") == "B, medina \u22126 (2nd fewest, dearest 5)"
    assert "Medina" in render_scoring_text(result, "de")


def test_a_wrong_claim_is_explained_in_german_too() -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "Dana =57 (medina=-9)", "Dana =57 (medina=-6)"
    )
    rep = check_game(parse_text(text, "bad.alh")[0])
    v = next(v for v in rep.violations if v.code == "SCORE-CLAIM")
    assert "Medina \u22129 (wenigste, teuerste 2)" in v.message("de")
    assert "medina \u22129 (fewest, dearest 2)" in v.message("en")


def test_a_piece_that_is_not_in_the_tower_cannot_be_drawn() -> None:
    # squares are taken from their own stacks, never drawn from the tower (E5 is per module)
    import conftest as common

    setup = common.SETUP.replace("Gu:G11", "Gu:sq:Tne")
    rep = check_game(
        parse_text(setup.format(players="Anna, Ben, Cem", modules="plaetze, medina"), "t")[0]
    )
    v = next(v for v in rep.violations if v.code == "TILE-SUPPLY")
    assert v.reason == "not-in-tower" and "plaetze" in v.message()
