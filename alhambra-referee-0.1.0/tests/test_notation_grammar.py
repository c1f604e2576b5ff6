"""The grammar builds as a conflict-free LALR(1) grammar with no colliding terminals."""

from __future__ import annotations

import logging

import pytest
from lark import Lark, logger

from referee.grammar import GRAMMAR_FILE
from referee.notation.parser import _parser


def test_grammar_builds_in_strict_mode() -> None:
    # strict=True raises on any shift/reduce conflict and (with interegular installed) on
    # terminals of equal priority whose regular expressions can match the same text.
    pytest.importorskip("interegular")
    Lark(GRAMMAR_FILE.read_text("utf-8"), parser="lalr", lexer="contextual", strict=True)


def _conflicts_logged(grammar: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    # Without strict mode Lark resolves a shift/reduce conflict as a shift and only logs it
    # ("Shift/Reduce conflict for terminal ...", lark/parsers/lalr_analysis.py; warning level
    # with debug=True).
    caplog.clear()
    old = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            Lark(grammar, parser="lalr", lexer="contextual", debug=True)
    finally:
        logger.setLevel(old)
    return [r.getMessage() for r in caplog.records if "conflict" in r.getMessage().lower()]


def test_no_conflict_is_resolved_silently(caplog: pytest.LogCaptureFixture) -> None:
    assert _conflicts_logged(GRAMMAR_FILE.read_text("utf-8"), caplog) == []


def test_the_conflict_check_does_see_a_conflict(caplog: pytest.LogCaptureFixture) -> None:
    # the same check on a grammar with a known shift/reduce conflict
    assert _conflicts_logged('start: a | a "x"\na: "y" "x"?\n', caplog) != []


def test_parser_is_built_once() -> None:
    assert _parser() is _parser()
