"""Memory running out never changes an answer: it gives no answer (the "not enough memory" line).

Found with ``check`` under ``ulimit -v`` (about 32-36 MB, caches off): a record with a syntax
error was reported with Lark's bare "unexpected ','" instead of the message a player gets with
memory enough ("an action is missing here ..."), because the code that words a syntax error
falls back to a plainer message on any failure. The same kind of fallback sat where a record's
``Rules`` header is loaded (the default profile would have been used: another verdict), where
the scoring breakdown is drawn, and where the longest wall is traced for a picture. Each now
lets a memory error through, so the command says it ran out of memory (exit 2 with the game's
INTERNAL line, or the one line with exit 4) and never answers otherwise than with memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import pytest
from click.testing import CliRunner

from referee.cli import cli
from referee.notation import errors
from referee.notation.parser import parse_chunk

ROOT = Path(__file__).resolve().parents[1]

BAD = '[Event "x"]\n[Players "A, B, C"]\n1. A: take Gu3 ,,,\n'
RULES = (
    '[Event "x"]\n[Players "A, B, C"]\n[Rules "queen-2003"]\n'
    "position\n  player A\n    alhambra G8ne@1,0\nend\n"
)


def _out_of_memory(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise MemoryError


def _lark_error(text: str) -> Exception:
    with pytest.raises(Exception) as caught:
        parse_chunk(text)
    return caught.value


def test_the_syntax_message_with_memory_enough() -> None:
    result = CliRunner().invoke(cli, ["check", "-"], input=BAD, standalone_mode=False)
    assert result.return_value == 2  # the exit code main() gives
    assert "3:17: SYNTAX: an action is missing here" in result.output


@pytest.mark.parametrize("where", ["_describe", "_match_label"])
def test_a_syntax_error_worded_without_memory_is_no_plainer_message(
    monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    exc = _lark_error("1. A: take Gu3 ,,,\n")
    assert errors.describe(exc, "1. A: take Gu3 ,,,\n").code == "SYNTAX"
    monkeypatch.setattr(errors, where, _out_of_memory)
    with pytest.raises(MemoryError):
        errors.describe(exc, "1. A: take Gu3 ,,,\n")
    result = CliRunner().invoke(cli, ["check", "-"], input=BAD, standalone_mode=False)
    assert result.return_value == 2  # the exit code main() gives
    assert "INTERNAL: not enough memory to check this game" in result.output
    assert "unexpected" not in result.output
    assert "Traceback" not in result.output


def test_the_example_index_is_kept_whole_or_not_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure half-way through building the index of example errors keeps nothing, so a
    later game of the same process (``--jobs``, ``serve``) is worded as with memory enough."""
    saved = dict(errors._INDEX)
    real = errors._parse_example
    calls = {"n": 0}

    def fails_on_the_fifth(example: str) -> object:
        calls["n"] += 1
        if calls["n"] == 5:
            raise MemoryError
        return real(example)

    errors._INDEX.clear()
    try:
        monkeypatch.setattr(errors, "_parse_example", fails_on_the_fifth)
        with pytest.raises(MemoryError):
            errors._example_index()
        assert errors._INDEX == {}
        monkeypatch.setattr(errors, "_parse_example", real)
        assert errors._example_index() is errors._INDEX
        assert errors._INDEX and None in errors._INDEX
    finally:
        errors._INDEX.clear()
        errors._INDEX.update(saved)
    result = CliRunner().invoke(cli, ["check", "-"], input=BAD, standalone_mode=False)
    assert "an action is missing here" in result.output


def test_a_rules_header_loaded_without_memory_is_not_the_default_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import referee.profiles
    import referee.profiles.loader
    from referee.engine import profile_for
    from referee.notation import parse_text

    game = parse_text(RULES)[0]
    profile, problem = profile_for(game)
    assert problem is None and profile.name == "queen-2003"
    monkeypatch.setattr(referee.profiles, "load_profile", _out_of_memory)
    with pytest.raises(MemoryError):
        profile_for(game)

    from referee.commands.score import rule_profile_for

    assert rule_profile_for(None, game)[1] is None
    monkeypatch.setattr(referee.profiles.loader, "load_profile", _out_of_memory)
    with pytest.raises(MemoryError):
        rule_profile_for(None, game)


def test_a_scoring_breakdown_drawn_without_memory_is_not_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.reports import check_report

    check_report._scoring_text(object(), "en")  # fills the renderer
    assert check_report._RENDER_SCORING
    monkeypatch.setattr(check_report, "_RENDER_SCORING", [_out_of_memory])
    with pytest.raises(MemoryError):
        check_report._scoring_text(object(), "en")


def test_a_wall_traced_without_memory_is_not_drawn_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from referee.commands import show
    from referee.engine.walk import walk
    from referee.notation import parse_text
    from referee.replay import page

    game = parse_text((ROOT / "examples" / "game-4p.alh").read_text(encoding="utf-8"))[0]
    state = list(walk(game))[-1].state
    alhambra = state.players[0].alhambra
    assert show.longest_wall(alhambra)
    monkeypatch.setattr(show, "outer_wall_runs", _out_of_memory)
    with pytest.raises(MemoryError):
        show.longest_wall(alhambra)
    monkeypatch.setattr(page, "outer_wall_runs", _out_of_memory)
    with pytest.raises(MemoryError):
        page.game_data(game, "en")
