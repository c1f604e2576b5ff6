"""Issue 16's checklist over the six wave-C modules, where a module's own tests do not cover it
with every module of the pieces beside the market at once.

"Die Spielende-Bedingung" of the base game ("Der Bauhof kann nicht mehr komplett aufgefüllt
werden") counts only what lies on the four fields: bazaars ("offen neben den Bauhof gelegt"),
bathhouses and wells ("neben den Bauhof angrenzend zu der Währung, für die es gezogen wurde")
set aside never fill a field, and never keep the game going.
"""

from __future__ import annotations

from conftest import beside, codes, run

from referee.engine.core import settle_before
from referee.engine.state import EMPTY
from referee.engine.turns import Phase  # the phase is an enum (compared by identity)
from referee.record.model import NOWHERE

MODS = "bazare, badehaeuser, wunschbrunnen"
# Ben buys A9 exactly, takes Gu1, keeps A9; the refill draws a well, a bathhouse and a bazaar
# before A6ne fills the Dirham field.
REFILL = (
    "1. Ben: buy Di A9 pay Di9, take Gu1, reserve A9\n"
    "* display Du5, aside Di ww:4, aside Di bh:PSAC, aside bz:DePSA, market Di:A6ne\n"
)


def test_the_three_kinds_of_pieces_beside_the_market_lie_there_together() -> None:
    rep = run(REFILL, MODS)
    assert codes(rep) == [], [v.message() for v in rep.violations]
    assert [code for _f, code in beside(rep, "wunschbrunnen")] == ["ww:4"]
    assert [code for _f, code in beside(rep, "badehaeuser")] == ["bh:PSAC"]
    assert [code for _f, code in beside(rep, "bazare")] == ["bz:DePSA"]


def test_pieces_set_aside_never_break_the_game_end_test() -> None:
    rep = run(REFILL, MODS)
    assert rep.state is not None
    full = rep.state.copy()
    full.phase, full.bag_count = Phase.REFILL, 0
    settle_before(full, NOWHERE, "turn")
    assert not full.game_over  # four buildings on the fields; three pieces beside them
    for field in range(4):
        short = rep.state.copy()
        short.phase, short.bag_count = Phase.REFILL, 0
        short.market[field] = EMPTY
        settle_before(short, NOWHERE, "turn")
        assert short.game_over, field  # three pieces beside the market fill no field


def test_a_well_and_a_bathhouse_are_bought_in_their_fields_currency_only() -> None:
    """ "Liegt ein (oder mehrere) Wunschbrunnen neben dem Bauhof, so kann der Spieler bei einem
    Kauf in der entsprechenden Währung wählen, ob er das Gebäude oder einen dort liegenden
    Wunschbrunnen kauft" / "Der Preis für einen Wunschbrunnen entspricht der Zahl auf dem
    Plättchen"; "Alle Badehäuser kosten 8 Geld in der entsprechenden Währung"."""
    ok = run(REFILL + "2. Cem: buy Di ww:4 pay Di1 Di3, place ww:4e@1,0\n", MODS)
    assert "BUY-CURRENCY" not in codes(ok) and "BUY-UNDERPAID" not in codes(ok)
    wrong = run(REFILL + "2. Cem: buy Di ww:4 pay Du5\n", MODS)
    assert "BUY-CURRENCY" in codes(wrong)
    short = run(REFILL + "2. Cem: buy Di bh:PSAC pay Di1\n", MODS)
    assert "BUY-UNDERPAID" in codes(short)
