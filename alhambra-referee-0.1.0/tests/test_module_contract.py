"""The platform's contract, run over every registered module: what each module must offer.

A module that passes this test plugs into every part of the referee: its rules have codes,
English and German names and messages and a rulebook section; its example game checks clean,
is complete and is a ``fmt`` fixed point; switched off, its lines are reported; its state is
shown through its view; ``modules NAME`` describes it in both languages.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import PATCHES_ENGINE
from shared_store_support import contract_game

from referee.cli import cli
from referee.engine import check_game
from referee.engine.extensions import MODULES, ActionKind, Module
from referee.engine.rules import RULES
from referee.modules import BUNDLED
from referee.modules.base import module_data
from referee.notation import format_game, parse_text

ROOT = Path(__file__).resolve().parents[1]
NAMES = [cls.name for cls in BUNDLED]


def example(name: str) -> Path:
    return ROOT / "examples" / f"module-{name}.alh"


@functools.cache
def _example_checked(name: str) -> tuple[str, list[Any], Any]:
    """The module's example: its text, its games as read and the report of the first, made
    once a worker (two tests below read the same check; neither changes it)."""
    text = example(name).read_text(encoding="utf-8")
    games = parse_text(text, str(example(name)))
    return text, games, check_game(games[0])


@pytest.mark.parametrize("name", NAMES)
def test_module_is_registered_with_titles_section_and_data(name: str) -> None:
    cls = MODULES[name]
    assert cls.title_en and cls.title_de and cls.summary
    assert cls.section.startswith("rulebook-bigbox-de-2019.txt § ")
    assert cls.page > 0
    assert module_data(name)["module"] == name
    for alias in cls.aliases:
        assert MODULES[alias.lower()] is cls
    for verb, kind in cls.verb_kinds.items():
        assert verb in cls.verbs and ActionKind(kind)


@pytest.mark.parametrize("name", NAMES)
def test_module_rules_have_codes_texts_and_sections(name: str) -> None:
    cls = MODULES[name]
    own = [r for r in RULES.values() if r.section.startswith(cls.section)]
    assert own, f"{name} registers no rule"
    for r in own:
        assert r.code == r.code.upper() and " " not in r.code
        assert r.name_en and r.name_de and r.message_en and r.message_de, r.code
        assert r.section.startswith(cls.section)


def test_no_two_modules_share_a_verb_or_a_component_kind() -> None:
    verbs = [v for cls in BUNDLED for v in cls.verbs]
    kinds = [k for cls in BUNDLED for k in cls.component_kinds]
    assert len(verbs) == len(set(verbs))
    assert len(kinds) == len(set(kinds))


@pytest.mark.parametrize("name", NAMES)
def test_module_example_checks_clean_is_complete_and_canonical(name: str) -> None:
    text, games, report = _example_checked(name)
    assert len(games) == 1 and not games[0].errors
    assert report.valid and report.complete, [v.message() for v in report.violations]
    assert format_game(games[0]) == text  # a fmt fixed point
    assert report.state is not None
    views = report.state.ext.views(report.state)
    assert name in views, "the module shows no state through view()"
    assert views[name]["labels"]["en"] and views[name]["labels"]["de"]


def _view_keys(view: dict[str, Any]) -> list[str]:
    keys = list(view.get("table") or {})
    for values in (view.get("players") or {}).values():
        keys += list(values)
    return keys


@pytest.mark.parametrize("name", NAMES)
def test_module_state_is_shown_in_german(name: str) -> None:
    """Every word of the module's view is German under ``--lang de`` (its own
    ``view_terms_de`` and the shared ones): no English label is left in ``show``."""
    from referee.engine.extensions import VIEW_TERMS_DE

    report = _example_checked(name)[2]
    assert report.state is not None
    english = report.state.ext.views(report.state)[name]
    german = report.state.ext.views(report.state, "de")[name]
    terms = {**VIEW_TERMS_DE, **MODULES[name].view_terms_de}
    for en_key, de_key in zip(_view_keys(english), _view_keys(german), strict=True):
        words = re.findall(r"(?<![A-Za-z])[a-z]{3,}", en_key)  # its English words (not names)
        assert all(w not in de_key for w in words if w not in terms.values()), (en_key, de_key)
    result = CliRunner().invoke(cli, ["show", str(example(name)), "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert MODULES[name].title_de in result.output


@pytest.mark.parametrize("name", NAMES)
def test_module_lines_are_reported_when_it_is_switched_off(name: str) -> None:
    text = example(name).read_text(encoding="utf-8")
    off = "\n".join(line for line in text.splitlines() if not line.startswith("[Modules "))
    report = check_game(parse_text(off + "\n", "off.alh")[0])
    assert "MODULE-NOT-ENABLED" in [v.code for v in report.violations]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_modules_command_describes_it(name: str, lang: str) -> None:
    cls = MODULES[name]
    result = CliRunner().invoke(cli, ["modules", name, "--lang", lang])
    assert result.exit_code == 0, result.output
    assert (cls.title_de if lang == "de" else cls.title_en) in result.output


CHECKED: dict[str, tuple[int, ...]] = {
    "wesir": (0, 1, 3, 10, 13, 14, 24, 46),
    "wechselstuben": (0, 1, 3, 10, 11, 14, 19, 23, 37),
    "bonuskarten": (0, 1, 3, 6, 7, 8, 10, 19, 41),
    "plaetze": (0, 1, 2, 4, 10, 14, 19, 29),
    "stadttore": (0, 1, 2, 5, 10, 19, 36, 37, 38),
    "diamanten": (0, 1, 3, 14, 30, 34, 46, 49),
    "charaktere": (0, 1, 2, 7, 8, 10, 12, 14, 17, 19, 21, 22, 31),
    "feldlager": (0, 1, 2, 3, 6, 8, 10, 40, 42),
    "mauern": (0, 1, 3, 4, 10, 18, 22, 41, 46),
    "diebe": (0, 1, 3, 12, 14, 16, 19, 30, 31),
    "wechselgeld": (0, 1, 2, 3, 6, 7, 10, 19, 31),
    "haendler": (0, 1, 3, 4, 6, 8, 10, 21, 42),
    "sultan": (0, 1, 3, 6, 8, 10, 38, 42),
    "angreifer": (0, 1, 2, 3, 9, 10, 14, 42),
    "schatzkammer": (0, 1, 3, 10, 12, 18, 41, 46),
    "baumeister": (0, 1, 2, 3, 4, 10, 14, 16, 20, 46),
    "bazare": (0, 1, 3, 10, 14, 15, 16, 19, 38),
    "mauren": (0, 1, 10, 11, 14, 19, 23, 34),
    "wertungskaertchen": (0, 1, 3, 5, 10, 12, 14, 15, 17, 19, 41),
    "karawanserei": (0, 1, 3, 8, 10, 13, 18, 42, 43),
    "falkner": (0, 1, 2, 4, 6, 10, 18, 19),
    "wachtuerme": (0, 1, 2, 6, 7, 8, 10, 16, 23, 42),
    "baustellen": (0, 1, 2, 6, 8, 10, 12, 19, 22, 23, 30, 48),
    "wechselscheine": (0, 1, 2, 3, 8, 10, 11, 29, 34, 38, 42),
    "magisch": (0, 1, 2, 3, 7, 9, 10, 14, 15, 46),
    "medina": (0, 1, 4, 7, 10, 13, 16, 38, 46),
    "bauland": (0, 1, 2, 3, 4, 6, 8, 11, 26, 30, 42),
    "grossprojekte": (0, 1, 3, 6, 10, 11, 17, 21, 23, 42, 46),
    "bedienstete": (0, 1, 2, 3, 8, 17, 18, 21, 30, 42),
    "obstgaerten": (0, 1, 2, 3, 6, 10, 16, 19, 41),
    "handwerker": (0, 1, 2, 6, 10, 12, 19, 31, 45),
    "palastplaner": (0, 1, 2, 3, 4, 6, 10, 21, 26, 32, 46),
    "schluessel": (0, 1, 2, 3, 6, 10, 19, 31, 45),
    "menagerie": (0, 1, 2, 3, 6, 10, 21, 32, 42),
    "farben": (0, 1, 2, 3, 5, 7, 10, 12, 19, 36, 37, 38),
    "machtgebaeude": (0, 1, 2, 3, 4, 5, 7, 9, 10, 14, 19, 25, 28),
    "marktplatz": (0, 1, 7, 10, 14, 19, 20),
    "badehaeuser": (0, 1, 3, 10, 12, 14, 25, 42),
    "arbeiter": (0, 1, 2, 3, 6, 7, 10, 14, 19, 26, 45),
    "ausbauten": (0, 1, 4, 6, 8, 10, 19, 22, 23),
    "wuensche": (0, 1, 5, 10, 14, 22, 36, 39, 46),
    "wunschbrunnen": (0, 1, 3, 10, 14, 31, 46, 49),
    "schaetze": (0, 1, 4, 12, 14, 19, 27, 30),
}
"""The contract games (``k`` of :func:`contract_game`, of fifty) that each module's test below
checks: those other tests take from the run's store anyway (games 0-3 of the modules that
test_a_module_hearing_plain_purchases... and test_a_module_promising... read, and of
Machtgebäude (test_module_machtgebaeude); game 1 of every module, test_engine_dispatch's
one-pass purchases; the game test_engine_dispatch's corpus takes of the module, where it is
among them), then those that ran a line of ``referee`` the others did not (simulating,
reading, checking and writing the game; the lines each game ran, recorded one game at a time:
bench/README.md, issue 34, nineteenth step for the fifty, twenty-first step for this choice):
the games left out ran no line that these do not. Every profile is among each module's games;
not every number of players is (the lines are the same). A module missing here checks all
fifty."""


@pytest.mark.parametrize("name", NAMES)
def test_simulated_games_with_the_module_check_clean(name: str) -> None:
    """The module's contract games that :data:`CHECKED` names (of fifty: 2 to 6 players,
    every profile of ``CONTRACT_PROFILES``), each checked with no violation, a fmt fixed point,
    and at least half of them using the module (a line of one of its verbs or components)."""
    cls = MODULES[name]
    games = CHECKED.get(name, tuple(range(50)))
    used = 0
    for k in games:
        text = contract_game(name, k)  # 2 + k % 5 players, seed 1000 + k, profiles in turn
        game = parse_text(text, f"sim-{name}-{k}.alh")[0]
        assert not game.errors
        report = check_game(game)
        assert report.valid and report.complete, (k, [v.message() for v in report.violations])
        assert format_game(game) == text
        words = set(text.replace(",", " ").replace(":", " ").split())
        if words & set(cls.verbs) or any(f" {kind}:" in text for kind in cls.component_kinds):
            used += 1
    assert 2 * used >= len(games), f"{name} was used in only {used} of {len(games)} games"


# the modules that ``simulate`` plays with the guards edition (profile ``waechter``): those
# without pieces in the tower, whose preview board is filled from it (summary L82), and those
# whose tower pieces are buildings like base tiles (``Module.tower_pieces_previewed``)
WITH_GUARDS = [
    cls.name for cls in BUNDLED if not cls().tower_components() or cls.tower_pieces_previewed
]


@pytest.mark.parametrize("name", WITH_GUARDS)
def test_a_simulated_guards_edition_game_with_the_module_checks_clean(name: str) -> None:
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    text = simulate_text(3, 3000, load_profile("waechter"), f"guards {name}", (name,))
    game = parse_text(text, f"guards-{name}.alh")[0]
    assert not game.errors
    report = check_game(game)
    assert report.valid and report.complete, [v.message() for v in report.violations]
    assert format_game(game) == text


# the modules that hear of a purchase made in one pass (``Module.after_plain_purchase``)
HEARING_PLAIN = [
    cls.name for cls in BUNDLED if cls.after_plain_purchase is not Module.after_plain_purchase
]


def _dropped(text: str) -> list[str]:
    """``text`` and copies with one line of play left out (about eight, spread over the game):
    games that break rules, so the module's checks after a purchase have something to say."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    step = max(4, len(body) // 8)
    return [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[3::step]]


def _outcomes(games: list[Any]) -> list[str]:
    out = []
    for game in games:
        report = check_game(game)
        views = report.state.ext.views(report.state) if report.state is not None else None
        out.append(repr(report) + repr(views))
    return out


@pytest.mark.parametrize("name", HEARING_PLAIN)
@PATCHES_ENGINE
def test_a_module_hearing_plain_purchases_reports_as_the_pipeline(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module overriding ``after_plain_purchase`` does there what its ``on_purchase`` does
    for such a purchase, and says so with ``leaves_plain_purchase``: its example and four
    simulated games (each also with lines left out) give the same reports and the same module
    views with the one-pass purchase as with the whole pipeline for every purchase, and the
    one-pass purchase is really heard. The four games are the first four of the fifty above
    (2 to 5 players, the four profiles in turn, as this test's own seeds 4100-4103 were)."""
    from referee.engine.actions import purchase

    cls = MODULES[name]
    assert cls.on_purchase is not Module.on_purchase  # the hook mirrors a reaction
    texts = _dropped(example(name).read_text(encoding="utf-8"))
    for k in range(4):
        texts += _dropped(contract_game(name, k))
    # read once: the two runs below check the same games (records are immutable)
    games = [game for text in texts for game in parse_text(text, "hearing.alh")]
    heard: list[int] = []
    hook = cls.after_plain_purchase

    def counted(self: Module, state: Any, buy: Any) -> None:
        heard.append(buy.slot)
        hook(self, state, buy)

    monkeypatch.setattr(cls, "after_plain_purchase", counted)
    one_pass = _outcomes(games)
    assert heard, f"{name}: no purchase was made in one pass"
    monkeypatch.setattr(purchase, "_modules_leave_purchases", lambda state, p, idx: False)
    monkeypatch.setattr(purchase, "_plain_piece_field", lambda *args: None)  # (a plot: Bauland)
    heard.clear()
    assert _outcomes(games) == one_pass
    assert not heard


# the modules whose class promises a yes to every plain purchase beside a question of their own
# (``Module.leaves_plain_purchases`` stated with ``leaves_plain_purchase`` overridden); a module
# keeping the default question answers its promise by construction (checked below too)
PROMISING_PLAIN = [
    cls.name
    for cls in BUNDLED
    if cls.leaves_plain_purchases and cls.leaves_plain_purchase is not Module.leaves_plain_purchase
]


@pytest.mark.parametrize("name", PROMISING_PLAIN)
@PATCHES_ENGINE
def test_a_module_promising_to_leave_plain_purchases_says_yes_to_each(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module whose class promises a yes to every plain purchase
    (``Module.leaves_plain_purchases``: the engine does not ask it) answers yes when asked
    (``leaves_plain_purchase``) before every plain purchase of its example and four simulated
    games (the first four of the fifty above). Every module keeping the default question
    answers with its promise."""
    from referee.engine.actions import purchase

    for cls in BUNDLED:
        if cls.leaves_plain_purchase is Module.leaves_plain_purchase:
            assert cls().leaves_plain_purchase(None, None, 0) is cls.leaves_plain_purchases  # type: ignore[arg-type]
    asked: list[int] = []
    short = purchase._modules_leave_purchases

    def asking(state: Any, p: Any, idx: int) -> bool:
        for m in state.ext.modules:
            if m.name == name:
                assert m.leaves_plain_purchases
                assert m.leaves_plain_purchase(state, p, idx), (name, p.name, idx)
                asked.append(idx)
        got = short(state, p, idx)
        # purchase_plain calls this only while a module may be asked (Extensions.leave_askers
        # not ``()``): forgotten again, so that every plain purchase comes here
        state.ext.leave_askers = None
        return got

    monkeypatch.setattr(purchase, "_modules_leave_purchases", asking)
    texts = [example(name).read_text(encoding="utf-8")]
    texts += [contract_game(name, k) for k in range(4)]
    for text in texts:
        for game in parse_text(text, "promising.alh"):
            check_game(game)
    assert len(asked) >= 20, f"{name}: asked at {len(asked)} plain purchases only"
