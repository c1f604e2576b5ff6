"""Die Baustellen (rulebook-bigbox-de-2019.txt § DIE BAUSTELLEN).

The setup of ``test_module_common``: Ben moves first, then Cem, then Anna. Hands: Anna Gu9 De7
De2 Du3, Ben Di9 Gu8 De3, Cem Du9 Di8 Gu2 De3; display Gu1 Di4 De6 Du2; market Gu:G11 Di:A9
De:P7 Du:T12 (P7 is P7e, G11 and A9 have no wall).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_module_common import codes, messages, run, view

from referee.catalogue import BuildingType, Currency, MoneyCard
from referee.cli import cli
from referee.engine import check_game
from referee.modules.baustellen import SitePiece
from referee.notation import parse_text
from referee.record.model import Coord

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

B = "baustellen"
SITE_P7 = "1. Ben: buy De P7 pay De3 bs:hidden, place P7@1,0\n* market De:G10n\n"


def position(
    anna: str, ben: str = "hand De3 Du9", cem: str = "hand Di8", market: str = "", modules: str = B
) -> str:
    return (
        f'[Players "Anna, Ben, Cem"]\n[Modules "{modules}"]\n\nposition\n  next Anna\n'
        f"  market {market or 'Gu:G11 Di:A9 De:C6 Du:T12'}\n  display Gu1 Di4 De6 Du2\n"
        f"  player Anna\n    {anna}\n  player Ben\n    {ben}\n  player Cem\n    {cem}\nend\n"
    )


def check(text: str) -> tuple[list[str], object]:
    games = parse_text(text, "t.alh")
    assert not games[0].errors, games[0].errors
    rep = check_game(games[0])
    return [v.code for v in rep.violations], rep


# ------------------------------------------------------------------ setting up a site


def test_any_building_may_be_bought_for_half_its_price_with_a_site_on_it() -> None:
    # "Der Spieler zahlt mindestens die Hälfte des geforderten Kaufpreises (abgerundet) und
    # erhält das Gebäudeplättchen" (P7: 3); "Das Gebäudeplättchen mit der Baustelle darf er wie
    # gewohnt einbauen oder in die Reserve legen."
    rep = run(SITE_P7 + "2. Cem: take Du2\n", B)
    assert codes(rep) == [], messages(rep)
    assert rep.state is not None
    ben = rep.state.player_named("Ben")
    assert ben is not None
    piece = ben.alhambra.get(Coord(1, 0))
    assert isinstance(piece, SitePiece) and piece.back is None and piece.carried_tile.code == "P7"
    # "Ist das Gebäudeplättchen mit Baustelle eingebaut, zählen die Mauern ..., nicht aber das
    # Gebäude"
    assert ben.alhambra.counts()[BuildingType.PAVILION] == 0
    assert piece.walls == piece.carried_tile.walls
    assert view(rep, "baustellen")["table"]["stack"] == 7  # one of the 8 sites is set up
    rep = run(
        "1. Ben: buy De P7 pay De3 bs:De, reserve P7\n* market De:G10n\n2. Cem: take Du2\n", B
    )
    assert codes(rep) == [], messages(rep)


def test_a_site_purchase_is_never_exact() -> None:
    # "Ein solcher Kauf gilt immer als unpassend bezahlt." (De3 is exactly half of P7: still
    # no further action)
    rep = run("1. Ben: buy De P7 pay De3 bs:hidden, take Gu1, place P7@1,0\n", B)
    assert codes(rep) == ["TURN-OVER"]


def test_less_than_half_the_price_is_reported() -> None:
    # T12 half: 6; Anna pays Du3.
    body = "1. Ben: take Gu1 Di4\n* display De5 Du5\n2. Cem: take Du2\n* display Gu3\n"
    rep = run(body + "3. Anna: buy Du T12 pay Du3 bs:hidden, reserve T12\n* market Du:G10n\n", B)
    assert codes(rep) == ["SITE-HALF-PRICE"], messages(rep)
    assert "mindestens die Hälfte" in messages(rep)[0]


def test_the_half_price_is_paid_in_the_fields_currency() -> None:
    # reading: the text does not name another currency for "angezahlt"
    rep = run("1. Ben: buy De P7 pay Gu8 bs:hidden, reserve P7\n* market De:G10n\n", B)
    assert "BUY-CURRENCY" in codes(rep)


def test_site_tokens() -> None:
    rep = run("1. Ben: buy De P7 pay De3 bs:Xy, reserve P7\n* market De:G10n\n", B)
    assert codes(rep) == ["SITE-TOKEN"]
    rep = run("1. Ben: buy De P7 pay De3 bs:De bs:Gu, reserve P7\n* market De:G10n\n", B)
    assert codes(rep) == ["SITE-TOKEN"]


def test_two_sites_per_currency() -> None:
    # "8 achteckige Baustellenplättchen: Je 2x in jeder der 4 Währungen"
    text = position("hand Gu9\n    reserve P7 A8e\n    sites P7 bs:De A8e bs:De")
    text += "1. Anna: buy Gu G11 pay Gu9 bs:De, reserve G11\n"
    found, _ = check(text)
    assert found == ["SITE-SUPPLY"]


def test_no_site_when_all_eight_are_used() -> None:
    # "Wenn nur noch 1 Plättchen da ist, nimmt der Spieler dieses und hat keine Auswahl mehr":
    # with none left there is nothing to put on the building.
    tiles = ["P7", "T9ne", "G10n", "S5", "A8e", "G8nw", "C7ne", "P6"]
    reserve = " ".join(tiles)
    sites = " ".join(f"{t} bs:hidden" for t in tiles)
    text = position(f"hand Gu9\n    reserve {reserve}\n    sites {sites}")
    found, _ = check(text + "1. Anna: buy Gu G11 pay Gu9 bs:hidden, reserve G11\n")
    assert found == ["SITE-NONE-LEFT"]


def test_no_site_with_the_vizier() -> None:
    # "Der Wesir kann nicht zur Errichtung einer Baustelle eingesetzt werden."
    body = "1. Ben: take Gu1 Di4\n* display De5 Du5\n"
    rep = run(
        body + "Anna: vizier, buy De P7 pay De7 bs:hidden, reserve P7\n* market De:G10n\n",
        "wesir, baustellen",
    )
    assert "SITE-VIZIER" in codes(rep)


# ------------------------------------------------------------------ completing a site


def test_completion_costs_the_full_price_in_the_backs_currency_exact_gives_an_action() -> None:
    # "Um das Gebäude fertigzustellen, muss der volle auf dem Gebäude angegebene Preis in der
    # Währung, die die Rückseite des Baustellenplättchens zeigt, bezahlt werden." "Wird dieser
    # Preis passend bezahlt, ist der Spieler noch einmal am Zug."
    text = position("hand De7 Gu9\n    alhambra P7@1,0\n    sites P7 bs:hidden")
    found, rep = check(text + "1. Anna: complete P7 bs:De pay De7, take Gu1\n")
    assert found == [], [v.message() for v in rep.violations]  # type: ignore[attr-defined]
    state = rep.state  # type: ignore[attr-defined]
    anna = state.player_named("Anna")
    # "Das Baustellenplättchen kommt nach der Fertigstellung eines Gebäudes aus dem Spiel."
    assert anna.alhambra.get(Coord(1, 0)).code == "P7"
    assert anna.alhambra.counts()[BuildingType.PAVILION] == 1
    shown = view(rep, "baustellen")  # type: ignore[arg-type]
    assert shown["players"]["Anna"] == {"sites": "-", "completed": "P7"}
    assert shown["table"]["backs seen"] == "De 1"


def test_completion_overpaid_ends_the_turn_and_reserve_sites_can_be_completed() -> None:
    text = position("hand De9 Gu9\n    reserve P7\n    sites P7 bs:De")
    found, _ = check(text + "1. Anna: complete P7 bs:De pay De9\n")
    assert found == []
    found, _ = check(text + "1. Anna: complete P7 bs:De pay De9, take Gu1\n")
    assert found == ["TURN-OVER"]


def test_the_difference_is_not_enough() -> None:
    # "Es reicht also nicht aus, den Differenzbetrag zu zahlen. Es wird der komplette Kaufpreis
    # fällig." (P7 set up for 3; paying 4 more is not enough)
    text = position("hand De4 Gu9\n    alhambra P7@1,0\n    sites P7 bs:De")
    # The completion is paid through the payment service: the codes of a market purchase.
    found, _ = check(text + "1. Anna: complete P7 bs:De pay De4\n")
    assert found == ["BUY-UNDERPAID"]


def test_a_site_paid_in_the_wrong_currency() -> None:
    text = position("hand De7 Gu9\n    alhambra P7@1,0\n    sites P7 bs:De")
    # "in der Währung, die auf der Rückseite ... abgebildet ist": the payment service's
    # currency check (one mistake: the wrong card is not also an underpayment)
    found, _ = check(text + "1. Anna: complete P7 bs:De pay Gu9\n")
    assert found == ["PAY-CURRENCY"]


def test_the_back_named_at_completion_must_be_the_sites() -> None:
    text = position("hand De7 Gu9\n    alhambra P7@1,0\n    sites P7 bs:De")
    found, _ = check(text + "1. Anna: complete P7 bs:Gu pay Gu9\n")
    assert found == ["SITE-BACK"]
    found, _ = check(text + "1. Anna: complete P7 pay De7\n")
    assert found == ["SITE-BACK"]


def test_completing_a_tile_without_a_site_or_a_card_not_held() -> None:
    text = position("hand De7 Gu9\n    alhambra P7@1,0")
    found, _ = check(text + "1. Anna: complete P7 bs:De pay De7\n")
    assert found == ["SITE-NOT-FOUND"]
    text = position("hand Gu9\n    alhambra P7@1,0\n    sites P7 bs:De")
    found, _ = check(text + "1. Anna: complete P7 bs:De pay De7\n")
    assert "BUY-NOT-HELD" in found


# ------------------------------------------------------------------ game end


END = "1. Anna: buy Gu G11 pay Gu9 Gu2, reserve G11\n"  # the Gulden field stays empty: game over


def end_position(sites: str = "sites P7 bs:hidden", extra: str = "") -> str:
    return position(
        f"hand Gu9 Gu2 De5 Du3\n    alhambra P7@1,0\n    {sites}{extra}",
        ben="hand De3 Du9",
        cem="hand Di8",
        market="Gu:G11 Di:A9 De:C6 Du:-",
    )


def test_sites_are_revealed_and_their_currencies_become_worthless_before_the_distribution() -> None:
    # "Bevor die restlichen Gebäudeplättchen an die Spieler verteilt werden, deckt jeder Spieler
    # alle Baustellenplättchen in der eigenen Alhambra auf. Alle Geldscheine auf seiner Hand,
    # die die Währungen zeigen, ..., sind jetzt wertlos und werden abgeworfen. Erst jetzt
    # werden die restlichen Gebäudeplättchen verteilt." Anna's De5 no longer beats Ben's De3.
    body = END + "* sites Anna bs:De\ndistribute Di:A9 Cem reserve, De:C6 Ben reserve\nscoring 3\n"
    found, rep = check(end_position() + body)
    assert found == [], [v.message() for v in rep.violations]  # type: ignore[attr-defined]
    state = rep.state  # type: ignore[attr-defined]
    anna = state.player_named("Anna")
    assert MoneyCard(Currency.DENAR, 5) not in anna.hand
    assert MoneyCard(Currency.DUKATEN, 3) in anna.hand
    assert view(rep, "baustellen")["players"]["Anna"]["worthless"] == "De5"  # type: ignore[arg-type]
    # the other way round is wrong now
    body = END + "* sites Anna bs:De\ndistribute Di:A9 Cem reserve, De:C6 Anna reserve\n"
    found, _ = check(end_position() + body)
    assert "END-DISTRIBUTE" in found


def test_a_known_site_needs_no_reveal_line_a_hidden_one_is_unverifiable() -> None:
    body = END + "distribute Di:A9 Cem reserve, De:C6 Ben reserve\nscoring 3\n"
    found, rep = check(end_position("sites P7 bs:De") + body)
    assert found == []
    found, rep = check(end_position() + body)
    keys = [u.key for u in rep.unverifiable]  # type: ignore[attr-defined]
    assert "UNVERIFIED-SITE-BACK" in keys


def test_sites_in_the_reserve_are_ignored() -> None:
    # "Baustellen in der Reserve werden nicht beachtet."
    text = position(
        "hand Gu9 Gu2 De5 Du3\n    reserve P7\n    sites P7 bs:De",
        market="Gu:G11 Di:A9 De:C6 Du:-",
    )
    body = END + "distribute Di:A9 Cem reserve, De:C6 Anna reserve\nscoring 3\n"
    found, _ = check(text + body)
    assert found == []


def test_reveal_lines_are_checked() -> None:
    found, _ = check(end_position() + END + "* sites Anna\n")
    assert found == ["SITE-REVEAL"]
    found, _ = check(end_position("sites P7 bs:Du") + END + "* sites Anna bs:De\n")
    assert found == ["SITE-REVEAL"]
    text = position("hand De7\n    alhambra P7@1,0\n    sites P7 bs:hidden")
    found, _ = check(text + "* sites Anna bs:De\n")
    assert found == ["SITE-REVEAL"]  # before the game end


# ------------------------------------------------------------------ views and scoring


def test_breakdown_show_and_json_carry_the_sites() -> None:
    text = position("hand De7 Gu9\n    alhambra P7@1,0\n    sites P7 bs:hidden")
    runner = CliRunner()
    out = runner.invoke(cli, ["score", "-"], input=text + "scoring 1\n")
    assert "building site ~P7@1,0: walls only, not counted" in out.output, out.output
    out = runner.invoke(cli, ["score", "-", "--lang", "de"], input=text + "scoring 1\n")
    assert "Baustelle ~P7@1,0" in out.output, out.output
    out = runner.invoke(cli, ["show", "-", "--format", "json"], input=text)
    data = json.loads(out.output)
    assert data["modules"]["baustellen"]["players"]["Anna"]["sites"] == "~P7 bs:?@1,0"
    out = runner.invoke(cli, ["show", "-"], input=text)
    assert "~P7" in out.output and "The Building Sites" in out.output


def test_a_site_keeps_its_site_in_the_reserve_and_is_built_again_by_its_tile() -> None:
    # "Das Gebäudeplättchen mit der Baustelle darf er wie gewohnt einbauen oder in die Reserve
    # legen"; a redesign moves the tile with its site (reading: "Baustellen in der Reserve").
    text = position("hand De7 Gu9\n    alhambra P7@1,0\n    sites P7 bs:De")
    found, rep = check(text + "1. Anna: remove P7@1,0\n2. Ben: take Du2\n3. Cem: take Di4\n")
    assert found == [], [v.message() for v in rep.violations]  # type: ignore[attr-defined]
    anna = rep.state.player_named("Anna")  # type: ignore[attr-defined]
    assert [str(p) for p in anna.reserve] == ["~P7"]
    runner = CliRunner()
    out = runner.invoke(cli, ["show", "-"], input=text + "1. Anna: remove P7@1,0\n")
    assert "Reserve: ~P7" in out.output, out.output
    body = "1. Anna: remove P7@1,0\n2. Ben: take Du2\n3. Cem: take Di4\n4. Anna: build P7@1,0\n"
    found, rep = check(text + body)
    anna = rep.state.player_named("Anna")  # type: ignore[attr-defined]
    assert isinstance(anna.alhambra.get(Coord(1, 0)), SitePiece)


# ------------------------------------------------------ a trusted replay gives the same game


def _final(text: str, check: bool) -> tuple[object, ...]:
    from referee.engine.walk import walk

    game = parse_text(text, "t.alh")[0]
    state = None
    for step in walk(game, snapshots=False, check=check):
        state = step.state
    assert state is not None
    players = tuple(
        (p.name, sorted(c.code for c in p.hand.elements()), p.hand_unknown, sorted(
            f"{at}:{x}" for at, x in p.alhambra.items()
        ), sorted(map(str, p.reserve)))
        for p in state.players
    )  # fmt: skip
    return players, json.dumps(state.ext.views(state), sort_keys=True, default=str)


@pytest.mark.parametrize("name", ["baustellen", "diebe", "sultan", "wesir"])
def test_a_trusted_replay_gives_the_same_final_state(name: str) -> None:
    # the module's checks (check_verb, the line's own faults) change nothing: replaying the
    # example without any check ends in the same game, and so does a record with mistakes
    text = (EXAMPLES / f"module-{name}.alh").read_text(encoding="utf-8")
    assert _final(text, True) == _final(text, False)


def test_a_trusted_replay_of_a_faulty_completion_gives_the_same_state() -> None:
    text = position("hand De4 Gu9 Di2\n    alhambra P7@1,0\n    sites P7 bs:De")
    for line in ("complete P7 bs:De pay De4", "complete P7 bs:Gu pay Gu9 Di2", "complete Q9"):
        body = text + f"1. Anna: {line}\n"
        assert _final(body, True) == _final(body, False), line


def test_the_end_position_states_the_money_that_became_worthless() -> None:
    # "Am Spielende ... ist das Geld in dieser Währung wertlos" (§ DIE BAUSTELLEN): the cards
    # discarded at the end are part of the end position, so `show --format record` of a
    # finished game reads back to the same state (issue 32, positions round-trip)
    from referee.engine.walk import At
    from referee.simulate.roundtrip import read_back, snapshot

    game = parse_text((EXAMPLES / "module-baustellen.alh").read_text("utf-8"))[0]
    state, again_state, text, again, errors = read_back(game, At("end"))
    assert not again.errors and not errors
    assert "worthless Gu5" in text and "worthless none" in text
    assert snapshot(state) == snapshot(again_state)
    module = next(m for m in again_state.ext.modules if m.name == "baustellen")
    assert module.view(again_state)["players"]["Anna"]["worthless"] == "Gu5"
