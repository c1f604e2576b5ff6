"""What the module tests share: a position block with Anna to move (built from the parts a test
changes), checked; and the round trip of a moment of an example game as a position block
(``show --format record`` writes it, ``check`` and ``score`` read it back)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.engine import GameReport, check_game
from referee.engine.walk import At, state_at
from referee.notation import format_game, parse_text
from referee.record.model import Game

MARKET = "Gu:G11 Di:T11n De:P7 Du:C7ne"
DISPLAY = "Gu4 Di3 De8 Du2"
HANDS = {"Anna": "hand Gu6 Di5 De4 Du9", "Ben": "hand Du8 Di5 Gu1", "Cem": "hand Gu2 Di9"}

Lines = str | Iterable[str]


def _lines(part: Lines) -> list[str]:
    """The non-empty lines of a part: one string (may hold several lines) or several."""
    parts = [part] if isinstance(part, str) else list(part)
    return [line.strip() for text in parts for line in text.splitlines() if line.strip()]


def position_text(
    body: str = "",
    *,
    modules: str,
    players: Mapping[str, Lines] | None = None,
    market: str = MARKET,
    display: str = DISPLAY,
    table: Lines = (),
    names: str | None = None,
    to_move: str = "Anna",
) -> str:
    """A record: the ``Players`` and ``Modules`` headers, a position block with Anna to move,
    then ``body``. ``players`` gives each player's lines (hand, alhambra, the module's own
    lines); a player not given gets ``HANDS``'s hand. ``table`` holds the block's lines before
    the players (a module's public table). ``names`` is the ``Players`` header (default: Anna, Ben,
    Cem and any other player given); Dirk never gets a section. ``to_move``: the block's
    ``next`` player."""
    given = dict(players or {})
    default = [*HANDS, *(n for n in given if n not in HANDS)]
    seats = [n.strip() for n in names.split(",")] if names else default
    out = [f'[Players "{", ".join(seats)}"]', f'[Modules "{modules}"]', "", "position"]
    out += [f"  next {to_move}", f"  market {market}", f"  display {display}"]
    out += [f"  {line}" for line in _lines(table)]
    for name in seats:
        if name == "Dirk":
            continue
        out.append(f"  player {name}")
        out += [f"    {line}" for line in _lines(given.get(name, HANDS.get(name, "")))]
    out.append("end")
    return "\n".join(out) + "\n" + body


def check_position(body: str = "", **parts: Any) -> GameReport:
    """``position_text`` read (it must read without a notation error) and checked."""
    games = parse_text(position_text(body, **parts), "test.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0])


MOMENTS = ("early", "third", "middle", "late", "scoring-1", "scoring-2")


def moment_of(game: Game, moment: str) -> At:
    """A named moment of a game: after a scoring (``scoring-1``), or after an early, a third,
    the middle or a late turn."""
    if moment.startswith("scoring-"):
        return At("scoring", int(moment[-1]))
    last, _ = state_at(game, At("end"))
    n = last.turn_no
    return At(
        "turn", max(1, {"early": 2, "third": n // 3, "middle": n // 2, "late": n - 1}[moment])
    )


def assert_moment_round_trips(game: Game, moment: str) -> str:
    """The position block of a moment reads back to the same position, module views and final
    breakdown, is a ``fmt`` fixed point and checks clean; returns the block's text."""
    from referee.engine.position_text import position_text as block_of
    from referee.scoring.position import score_position
    from referee.scoring.state import score_state
    from tests.test_position_modules import _breakdown, _cut, _round_trip, _views

    state, state2, text, again = _round_trip(game, moment_of(game, moment))
    # (a two-player block after a scoring states Dirk's draw due: read to its end, it is over)
    assert block_of(state2) == block_of(state).replace("  due dirk\n", "")
    assert _views(state2) == _views(state)
    assert format_game(again) == text
    cut = _cut(text)
    assert [v for v in check_game(again).violations if (v.code, v.reason) not in cut] == []
    got = score_position(again)
    assert not got.problems, [p.message() for p in got.problems]
    assert got.result is not None
    assert _breakdown(got.result) == _breakdown(score_state(state.copy(), 3))
    return text
