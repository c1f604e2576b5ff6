"""The message catalogue: both languages hold the same keys, every rule has its texts, every
finding passes the parameters its templates name, and a message is rendered only when shown."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.engine import check_game
from referee.engine.extensions import load_bundled_modules
from referee.engine.rules import RULES, Unverifiable, Violation
from referee.messages import (
    CATALOGUE,
    Join,
    Term,
    Text,
    lookup,
    placeholders,
    render,
    values,
)
from referee.notation import parse_text
from referee.simulate import simulate_text

load_bundled_modules()  # every bundled module's rules and texts registered

ROOT = Path(__file__).resolve().parent.parent


def test_both_languages_hold_the_same_keys() -> None:
    en, de = CATALOGUE["en"], CATALOGUE["de"]
    assert set(en) == set(de)
    assert len(en) > 250


def test_every_rule_has_names_and_templates_in_both_languages() -> None:
    for code, rule in RULES.items():
        for lang in ("en", "de"):
            assert lookup(lang, f"{code}:name"), (code, lang)
            assert lookup(lang, code), (code, lang)
            assert rule.name(lang) == lookup(lang, f"{code}:name")
        assert rule.section, code


def test_reason_keys_belong_to_a_rule() -> None:
    for key in CATALOGUE["en"]:
        if "/" in key and not key.startswith(("UNVERIFIED-", "GEOMETRY:", "LAYOUT:")):
            code = key.split("/", 1)[0].split(".", 1)[0]
            # VERBS/: the phrases of declared verbs' windows and limits (engine/verbs.py)
            phrases = {"BAG", "WORD", "SIDE", "GAME-END", "ACTION", "VERBS"}
            assert code in RULES or code in phrases, key


def test_no_template_names_a_language_suffixed_parameter() -> None:
    # parameters are data: a German template never reads a `*_de` twin of a parameter
    for lang in ("en", "de"):
        for key, text in CATALOGUE[lang].items():
            assert not any(p.endswith("_de") for p in placeholders(text)), (lang, key)


def test_german_templates_need_no_parameter_english_lacks_unless_data() -> None:
    """Per key the two languages name the same parameters; a language may leave one out
    (English says "cell"/"area", German needs no such word)."""
    allowed_only_de = {"bag_in", "cells", "code_v", "code_v2"}
    for key, en in CATALOGUE["en"].items():
        extra = placeholders(CATALOGUE["de"][key]) - placeholders(en)
        assert extra <= allowed_only_de, (key, extra)


def _findings(text: str, name: str) -> Iterator[Violation | Unverifiable]:
    for game in parse_text(text, name):
        report = check_game(game)
        yield from report.violations
        yield from report.unverifiable


def _needed(f: Violation | Unverifiable, lang: str) -> set[str]:
    if isinstance(f, Unverifiable):
        return placeholders(CATALOGUE[lang][f.key])
    need = placeholders(CATALOGUE[lang].get(f.code, "{detail}"))
    if f.reason is not None:
        need |= placeholders(CATALOGUE[lang][f"{f.code}/{f.reason}"])
        need.discard("detail")
    return need


def _nested(params: dict[str, object], lang: str) -> Iterator[tuple[str, set[str], set[str]]]:
    for v in params.values():
        parts = v.parts if isinstance(v, Join) else (v,)
        for p in (*parts, v.empty if isinstance(v, Join) else None):
            if isinstance(p, Text):
                yield p.key, placeholders(CATALOGUE[lang][p.key]), set(p.params)
                yield from _nested(dict(p.params), lang)


def _corpus() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "examples").glob("*.alh")):
        yield path.name, path.read_text(encoding="utf-8")
    for i in range(6):
        text = simulate_text(2 + i % 5, 300 + i)
        lines = text.split("\n")
        body = [k for k, line in enumerate(lines) if line[:1].isdigit()]
        del lines[body[len(body) // 2]]  # a dropped line: findings of every kind follow
        yield f"sim-{i}", "\n".join(lines)
    yield (
        "mods",
        simulate_text(4, 77, None, None, ["bonuskarten", "plaetze", "wechselstuben", "wesir"]),
    )


@functools.cache
def _corpus_findings() -> tuple[tuple[str, Violation | Unverifiable], ...]:
    """Every finding of the corpus with its text's name: found once a process for the two
    languages' tests (each renders its own language)."""
    return tuple((name, f) for name, text in _corpus() for f in _findings(text, name))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_finding_passes_the_parameters_its_templates_name(lang: str) -> None:
    seen = 0
    for name, f in _corpus_findings():
        seen += 1
        given = set(f.params) | ({"player"} if getattr(f, "player", None) else set())
        missing = _needed(f, lang) - given
        assert not missing, (name, f, missing)
        for key, need, have in _nested(f.params, lang):
            assert need <= have, (name, key, need - have)
        assert "?" not in f.message(lang).split(), (name, f.message(lang))
    assert seen > 50


def test_findings_carry_data_and_no_prose() -> None:
    """Parameters are numbers, names, codes or catalogue phrases, never an EN/DE twin."""
    text = (ROOT / "examples" / "illegal-setup.alh").read_text(encoding="utf-8")
    found = list(_findings(text, "illegal-setup.alh"))
    assert found
    for f in found:
        assert not any(k.endswith("_de") for k in f.params), f


def test_a_reason_picks_its_text_in_each_language() -> None:
    v = Violation("SETUP-DEAL", 3, 1, None, "Anna", {"cards": "Gu3 Di4", "total": 17}, "t.alh")
    v = Violation(
        v.code,
        v.line,
        v.column,
        v.turn,
        v.player,
        {**v.params, "player": "Anna"},
        reason="stops-at",
    )
    assert v.message("en").startswith("Anna's start money Gu3 Di4 stops at 17: cards are dealt")
    assert v.message("de").startswith("Startgeld von Anna Gu3 Di4 endet bei 17: es wird")
    assert v.to_dict("de")["reason"] == "stops-at"


def test_phrases_and_terms_render_per_language() -> None:
    params: dict[str, object] = {
        "a": Text("BAG/tower"),
        "b": Join((Text("WORD/none"), "x"), sep=" + "),
        "c": Join((), empty=Text("WORD/nobody")),
        "d": Term("wall", "SCORE-CLAIM.what"),
        "e": Term("medina", "SCORE-CLAIM.what"),
    }
    assert render("en", "", {}) == "?"
    shown_en = {
        k: str(v) for k, v in zip(params, ("tile tower", "none + x", "nobody"), strict=False)
    }

    assert values("en", params) == {**shown_en, "d": "wall points", "e": "medina"}
    assert values("de", params) == {
        "a": "der Turm",
        "b": "keine + x",
        "c": "niemand",
        "d": "Mauerpunkte",
        "e": "medina",
    }
    assert Term("medina", "SCORE-CLAIM.what") == "medina"


def test_a_missing_parameter_shows_as_a_question_mark_and_never_raises() -> None:
    v = Violation("TAKE-SUM", 1, 1, 1, "Anna", {"display": "Gu3"})
    assert "?" in v.message("en")
    assert Violation("NO-SUCH-CODE", 1, 1).message("de") == "?"


@functools.cache
def _engine_and_module_calls() -> tuple[tuple[Path, tuple[ast.Call, ...]], ...]:
    """The calls in every source file of referee/engine and referee/modules, in the order of an
    ``ast.walk`` of each file: parsed once a process for the two static tests below (which only
    read the trees)."""
    out = []
    for folder in ("engine", "modules"):
        for path in sorted((ROOT / "referee" / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out.append((path, tuple(n for n in ast.walk(tree) if isinstance(n, ast.Call))))
    return tuple(out)


def test_no_flag_site_builds_english_and_german_prose() -> None:
    """No `_pair(en, de)`, no `x=..., x_de=...` keyword pair at a flag/note site."""
    offenders = []
    for path, calls in _engine_and_module_calls():
        for node in calls:
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name == "_pair":
                offenders.append(f"{path.name}:{node.lineno}")
            if name in {"flag", "problem", "note", "unverifiable"}:
                kws = {k.arg for k in node.keywords if k.arg}
                if any(k.endswith("_de") for k in kws):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_a_module_rule_registers_its_reasons_in_both_languages() -> None:
    from referee.modules.base import rule

    rule(
        "TEST-MSG-RULE",
        "test rule",
        "Testregel",
        "tests",
        "{player}: {detail}",
        "{player}: {detail}",
        reasons={"too-many": ("{n} is too many", "{n} sind zu viele")},
    )
    try:
        v = Violation(
            "TEST-MSG-RULE", 1, 1, 1, "Anna", {"player": "Anna", "n": 3}, reason="too-many"
        )
        assert v.message("en") == "Anna: 3 is too many"
        assert v.message("de") == "Anna: 3 sind zu viele"
        assert v.rule.name("de") == "Testregel"
    finally:
        RULES.pop("TEST-MSG-RULE")
        for lang in ("en", "de"):
            for key in ("TEST-MSG-RULE", "TEST-MSG-RULE:name", "TEST-MSG-RULE/too-many"):
                CATALOGUE[lang].pop(key)


def _constant(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def test_every_flag_site_passes_the_parameters_its_templates_name() -> None:
    """Static: each `flag`/`problem`/`note`/`unverifiable` call with a literal code (and reason
    or key) passes every parameter the English and German templates name."""
    checked, problems = 0, []
    for path, calls in _engine_and_module_calls():
        for node in calls:
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            given = {k.arg for k in node.keywords if k.arg}
            if any(k.arg is None for k in node.keywords):
                continue  # parameters passed as a mapping: checked at run time above
            if name in {"flag", "problem"} and node.args:
                code = _constant(node.args[0])
                if code is None or code not in RULES:
                    continue
                reason = next(
                    (_constant(k.value) for k in node.keywords if k.arg == "reason"), None
                )
                keys = [code] + ([f"{code}/{reason}"] if reason else [])
                if len(node.args) >= 3 or "player" in given:
                    given.add("player")
                if reason:
                    given.add("detail")
            elif name in {"note", "unverifiable"} and len(node.args) >= 2:
                key = _constant(node.args[1])
                if key is None:
                    continue
                keys = [key]
            else:
                continue
            need: set[str] = set()
            for key in keys:
                for lang in ("en", "de"):
                    text = CATALOGUE[lang].get(key)
                    if text is None:
                        problems.append(f"{path.name}:{node.lineno}: no text {key} ({lang})")
                        continue
                    need |= placeholders(text)
            checked += 1
            if not need <= given:
                problems.append(f"{path.name}:{node.lineno}: {keys} misses {need - given}")
    assert problems == []
    assert checked > 150, checked
