"""The language layer: choosing the language, UI strings, components named in English/German."""

from __future__ import annotations

import click
from click.testing import CliRunner

from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
from referee.record.model import CardRef, ComponentRef, ScoringCardRef, TileRef
from referee.reports.i18n import (
    LANGS,
    fmt_card,
    fmt_cards,
    fmt_coord,
    fmt_tile,
    fmt_walls,
    keys,
    lang_option,
    register,
    resolve_lang,
    t,
)


def test_langs() -> None:
    assert LANGS == ("en", "de")


def test_explicit_value_wins_over_environment() -> None:
    assert resolve_lang("en", {"LANG": "de_DE.UTF-8"}) == "en"
    assert resolve_lang("de", {"LANG": "en_GB.UTF-8"}) == "de"
    assert resolve_lang("DE", {}) == "de"


def test_environment_precedence() -> None:
    assert resolve_lang(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert resolve_lang(None, {"LC_ALL": "de_AT", "LANG": "en_US"}) == "de"
    assert resolve_lang(None, {"LC_ALL": "C", "LANG": "de_DE"}) == "en"  # LC_ALL decides
    assert resolve_lang(None, {"LC_MESSAGES": "de_CH", "LANG": "en_US"}) == "de"
    assert resolve_lang(None, {"LC_ALL": "", "LANG": "de_DE"}) == "de"  # empty = unset
    assert resolve_lang(None, {}) == "en"
    assert resolve_lang("fr", {"LANG": "de_DE"}) == "de"


def test_every_string_has_both_languages() -> None:
    for key in keys():
        assert t(key, "en") and t(key, "de"), key


def test_section_titles() -> None:
    assert t("market", "en") == "Market"
    assert t("market", "de") == "Bauhof"
    assert t("display", "de") == "Auslage"
    assert t("reserve", "de") == "Reserve"
    assert t("to_move", "de") == "am Zug"
    assert t("player_to_move", "en", player="Ben") == "Ben to move"


def test_catalogue_names_through_t() -> None:
    assert t("type.T", "de") == "Turm"
    assert t("types.G", "de") == "Gärten"
    assert t("type.C", "en") == "chambers"
    assert t("currency.Gu", "en") == "florin"
    assert t("currency.Du", "de") == "Dukaten"


def test_unknown_key_and_language_do_not_crash() -> None:
    assert t("no-such-key", "de") == "no-such-key"
    assert t("market", "fr") == "Market"
    assert t("player_to_move", "en") == "{player} to move"  # missing parameter: template


def test_register() -> None:
    register("test.greeting", "Hello {name}", "Hallo {name}")
    assert t("test.greeting", "de", name="Anna") == "Hallo Anna"


def test_fmt_tile() -> None:
    tower = catalogue().find(BuildingType.TOWER, 13, None)[0]
    assert fmt_tile(tower, "en") == "T13 (tower 13)"
    assert fmt_tile(tower, "de") == "T13 (Turm 13)"
    assert fmt_tile(tower, "de", "name") == "Turm 13"
    assert fmt_tile(tower, "de", "code") == "T13"
    garden = catalogue().find(BuildingType.GARDEN, 10, frozenset({Side.N}))
    assert len(garden) == 1
    assert fmt_tile(garden[0], "de") == "G10n (Garten 10)"


def test_fmt_tile_from_record_refs() -> None:
    kinds = catalogue().find(BuildingType.GARDEN, 10, None)
    ambiguous = TileRef(BuildingType.GARDEN, 10, None, kinds)
    assert fmt_tile(ambiguous, "en") == "G10 (garden 10)"
    unknown = TileRef(None, None, None, ())
    assert fmt_tile(unknown, "en") == "?"
    assert fmt_tile(None, "en") == "?"
    # a module piece is named like a tile (issue 31): its token and its name in words
    assert fmt_tile(ComponentRef("sq", "T"), "en") == "sq:T (square)"
    assert fmt_tile(ComponentRef("md", "5n"), "de") == "md:5n (Medina 5)"
    assert fmt_tile(ComponentRef("sq", "T"), "en", "code") == "sq:T"


def test_fmt_card() -> None:
    card = MoneyCard(Currency.GULDEN, 3)
    assert fmt_card(card, "en") == "Gu3"
    assert fmt_card(card, "en", "name") == "florin 3"
    assert fmt_card(card, "de", "both") == "Gu3 (Gulden 3)"
    assert fmt_card(CardRef(card), "de", "name") == "Gulden 3"
    assert fmt_card(CardRef(None), "de") == "?"
    assert fmt_card(ScoringCardRef(2), "de") == "W2"
    assert fmt_cards([], "de") == "keine"
    assert fmt_cards([card, MoneyCard(Currency.DENAR, 9)], "en") == "Gu3, De9"


def test_fmt_walls_and_coord() -> None:
    assert fmt_walls(frozenset({Side.S, Side.N}), "de") == "Mauern Norden, Süden"
    assert fmt_walls(frozenset(), "en") == "no walls"
    from referee.record.model import Coord

    assert fmt_coord(Coord(1, -2)) == "1,-2"


def test_lang_option_resolves_before_the_command_runs() -> None:
    @click.command()
    @lang_option
    def hello(lang: str) -> None:
        click.echo(t("market", lang))

    runner = CliRunner()
    assert runner.invoke(hello, ["--lang", "de"]).output == "Bauhof\n"
    assert (
        runner.invoke(
            hello, [], env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
        ).output
        == "Bauhof\n"
    )
    assert (
        runner.invoke(hello, [], env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}).output
        == "Market\n"
    )
    assert runner.invoke(hello, ["--lang", "fr"]).exit_code == 2
