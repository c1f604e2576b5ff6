"""The public API: every example of docs/api.md runs as written (doctest), and the names the
page promises are importable from :mod:`referee`."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import referee

ROOT = Path(__file__).resolve().parents[1]


def test_every_example_of_the_api_page_runs() -> None:
    here = os.getcwd()
    os.chdir(ROOT)  # the examples name files relative to the project root
    try:
        result = doctest.testfile(
            str(ROOT / "docs" / "api.md"),
            module_relative=False,
            optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        )
    finally:
        os.chdir(here)
    assert result.attempted > 20
    assert result.failed == 0


def test_the_public_names_resolve() -> None:
    import referee.api

    assert sorted(referee.api.__all__) == sorted(referee.__all__[1:])  # __version__ aside
    for name in referee.__all__:
        assert getattr(referee, name) is not None, name


def test_a_bad_action_text_is_a_value_error_with_positions() -> None:
    import pytest

    with pytest.raises(referee.ActionSyntaxError) as err:
        referee.parse_action("buy Gu G5 pay Du1")
    assert err.value.errors and err.value.errors[0].pos.column == 8
