"""Die Gebäude der Macht: the tile table (which base tile each special tile replaces, only in
the pictures) stated in a record, checked against itself and the supply. Rulebook:
rulebook-bigbox-de-2019.txt § Mike Elliott: Die Gebäude der Macht, "12 Spezialplättchen"
(L3635), "Die Spezialplättchen ersetzen die entsprechenden Plättchen des Basisspiels (gleiches
Gebäude, gleicher Preis und gleiche Mauern)" (L3641-3643), "Die aussortierten Basis-Plättchen
kommen zurück in die Schachtel" (L3646-3647).
"""

from __future__ import annotations

from conftest import messages, run, view
from test_module_machtgebaeude import MOD, found, position, reasons

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.notation import parse_text

TABLE = "* table wh A8n C9w C7sw\n"  # T11n's special twin is really on C7sw (say)
BUY = "1. Ben: buy Di A9 pay Di9, place A9@1,0\n* market Di:"


def test_a_stated_table_moves_the_special_tiles_in_the_tower() -> None:
    rep = run(TABLE + BUY + "gm:wh_C7sw\n", MOD)
    assert found(rep) == [], messages(rep)
    table = view(rep, MOD)["table"]
    assert "wh:A8n,C9w,C7sw" in table["tile table stated"]
    # the base T11n is back in the tower, the base C7sw in the box
    assert found(run(TABLE + BUY + "T11n\n", MOD)) == []
    assert found(run(TABLE + BUY + "C7sw\n", MOD)) == ["TILE-SUPPLY"]
    # the special tile on T11n is no longer in the game
    assert reasons(run(TABLE + BUY + "gm:wh_T11n\n", MOD)) == ["MACHT-TOKEN"]
    # without the statement: the data's table (unverified)
    rep = run(BUY + "gm:wh_T11n\n", MOD)
    assert found(rep) == [], messages(rep)
    assert "tile table (unverified)" in view(rep, MOD)["table"]


def test_a_stated_table_is_checked_against_itself() -> None:
    def table_reasons(line: str) -> list[str]:
        return reasons(run(line + "1. Ben: take Gu1\n", MOD))

    assert table_reasons("* table xx A8n\n") == ["MACHT-TABLE/form"]
    assert table_reasons("* table wh A8n zz C9w\n") == ["MACHT-TABLE/form"]
    assert table_reasons("* table wh A8n A8n T11n\n") == ["MACHT-TABLE/form"]
    # "12 Spezialplättchen" (L3635): three functions from the data, this one with two
    assert table_reasons("* table wh A8n C9w\n") == ["MACHT-TABLE/count"]
    # a base tile is replaced by one special tile only (P6 is Wohlstand's in the data)
    # (and the base P6 is in the box already)
    assert table_reasons("* table wh A8n C9w P6\n") == ["MACHT-TABLE/twice", "MACHT-TABLE/seen"]
    # a statement differing from an earlier one
    twice = TABLE + "* table wh A8n C9w T11n\n"
    assert table_reasons(twice) == ["MACHT-TABLE/changed"]
    assert table_reasons(TABLE + TABLE) == []


def test_a_stated_table_is_checked_against_the_supply() -> None:
    # G11 lies on the market: it cannot be in the box
    rep = run("* table wh A8n C9w G11\n1. Ben: take Gu1\n", MOD)
    assert reasons(rep) == ["MACHT-TABLE/seen"]
    assert "G11" in messages(rep)[0]
    # the special tile on T11n was drawn already: the table cannot take it back
    rep = run(BUY + "gm:wh_T11n\n" + TABLE, MOD)
    assert reasons(rep) == ["MACHT-TABLE/seen"]
    assert "gm:wh_T11n" in messages(rep)[0]


def test_a_stated_table_round_trips_through_a_position() -> None:
    anna = "reserve gm:wh_C7sw"
    rep = position("", anna=anna, anna_dice="dice wh_C7sw black 3", common="table wh A8n C9w C7sw")
    assert found(rep) == [], messages(rep)
    assert rep.state is not None
    text = position_text(rep.state)
    assert "  table wh A8n C9w C7sw\n" in text
    assert "reserve gm:wh_C7sw" in text and "    dice wh_C7sw black 3\n" in text
    head = f'[Players "Anna, Ben, Cem"]\n[Modules "{MOD}"]\n\n'
    again = check_game(parse_text(head + text, "again.alh")[0])
    assert [v.code for v in again.violations] == [], messages(again)
    assert again.state is not None and position_text(again.state) == text
    # a special tile on a base tile no table names
    bad = position("1. Anna: take Du9\n", anna=anna, anna_dice="")
    assert reasons(bad) == ["MACHT-TOKEN"]
    # the table line belongs to the common part
    bad = position("", anna_dice="table wh A8n C9w C7sw")
    assert reasons(bad) == ["MACHT-POSITION/form"]
