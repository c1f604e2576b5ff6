"""The rules engine: game state, events, every rule check, extension points.

* :func:`check_game` checks a whole record and returns a :class:`GameReport`.
* :func:`replay` steps a record to a line or turn and returns the :class:`GameState` there.
* :func:`check_action` / :func:`apply_action` for one action in a state (dispute tools,
  simulator); :meth:`GameState.copy` to branch.
* :mod:`referee.engine.rules` is the rule registry, :mod:`referee.engine.extensions` the module
  hooks.

Readings of ``rulebook-base-de-2003.txt`` where the text leaves room (quotes are the rulebook's):

* Start money, "eine Geldkarte nach der anderen ... bis der Gesamtwert 20 oder mehr beträgt.
  Dann bekommt der nächste Spieler sein Geld": the card that reaches 20 is the last one; the
  first player dealt is free (profile ``deal_first``), then seating order.
* Start player ties need the youngest: the ``Youngest`` header or ``start NAME youngest``;
  without either the claim is reported as unverifiable, not as wrong.
* "fünf etwa gleichhohe Stapel": with N cards left after the deal and the display, each pile
  holds N/5 ± ``pile_tolerance``; W1 (shuffled into pile 2) must turn up after lo..2·hi money
  cards of the refills, W2 (pile 4) after 3·lo..4·hi, at least one pile (lo) apart; "top"
  placement narrows this. A reshuffle before a scoring card turned up is reported.
* "Geld nehmen": one card of any value, or several whose sum is at most 5.
* Buying: cards of another currency are reported and do not count towards the price; "genau
  passend" compares the price with the sum of the field's currency.
* Redesigning is one of the three "Spielzüge"; only an exact purchase gives another, so a
  redesign ends the turn (the rulebook's example: "Ihr Spielzug ist damit beendet").
* Placement "ganz am Ende des eigenen Zuges – also auch nach eventuellen Umbaumaßnahmen – in
  beliebiger Reihenfolge": any main action after a placement is PLACE-ORDER.
* Game end "sobald – nach dem Zug eines Spielers – die Gebäudeplättchen nicht mehr komplett
  nachgelegt werden können": decided when the refill after a turn is over (the next line is no
  refill) with an empty field and an empty bag; "der Bauhof wird soweit möglich noch
  aufgefüllt". Leftover tiles go to the single player with the highest sum of that currency in
  hand (nobody with no such money; tie: it stays); building them is optional ("dürfen"), else
  they go to the reserve.
* Two players: Dirk's six tiles are drawn during the setup, six more right after scoring 1, a
  third (rounded down) of the bag as it is at the ``dirk`` line after scoring 2.
* Gifts to another player (house rule ``gifts: any-player``) land in the receiver's reserve.
* Unknown cards (``?``) are tracked by count: a known card may resolve an unknown one when a copy
  is still unaccounted for; where a known card becomes unknown (e.g. ``take ?`` from a known
  display) the engine forgets what it knew rather than guess, so it never reports a violation
  the record does not prove. After a ``position`` the deck size and bag content are unknown:
  refills, reshuffles and the game end are then taken from the record, reported unverifiable.
* Violations between turns (refills, scorings) carry the number of the turn just played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee import profiles as _profiles  # (its load_profile read per call: patchable)
from referee.engine.core import (
    apply_action,
    apply_item,
    begin_turn,
    check_action,
    end_turn,
    new_state,
)
from referee.engine.extensions import Extensions, Module, register_module
from referee.engine.rules import RULES, Rule, Unverifiable, Violation, register_rule
from referee.engine.run import run_game  # its own module: compiled (issue 34)
from referee.engine.state import EMPTY, GameState, PlayerState, TurnState
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import Game, Pos, Turn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "EMPTY",
    "RULES",
    "Extensions",
    "GameReport",
    "GameState",
    "Module",
    "PlayerState",
    "Rule",
    "TurnState",
    "Unverifiable",
    "Violation",
    "apply_action",
    "apply_item",
    "begin_turn",
    "check_action",
    "check_game",
    "end_turn",
    "profile_for",
    "register_module",
    "register_rule",
    "replay",
    "run_game",
    "start_state",
]


@dataclass
class GameReport:
    """The verdict on one game of a record."""

    source: str
    start_line: int
    players: list[str]
    valid: bool
    violations: list[Violation]
    unverifiable: list[Unverifiable]
    scorings: list[Any]  # referee.scoring.ScoringResult
    result: dict[str, int]
    winners: list[str]
    complete: bool
    profile: str
    headers: dict[str, str] = field(default_factory=dict)
    state: GameState | None = field(default=None, repr=False)


def profile_for(game: Game, override: RuleProfile | None = None) -> tuple[RuleProfile, str | None]:
    """The profile to check ``game`` with: the override, else the ``Rules`` header, else the
    default. The second item is a problem loading the named profile (or None)."""
    if override is not None:
        return override, None
    name = game.header("Rules")
    if not name:
        return DEFAULT_PROFILE, None
    try:
        # A record is untrusted input: its header may name a bundled profile, never a file.
        return _profiles.load_profile(name, allow_files=False), None
    except MemoryError:  # no verdict rather than one under the default profile
        raise
    except Exception as exc:  # a bad profile name is reported, never a traceback
        return DEFAULT_PROFILE, f"rule profile {name!r} cannot be loaded ({exc}); using the default"


def _modules(game: Game) -> list[str]:
    raw = game.header("Modules") or ""
    return [m.strip() for m in raw.split(",") if m.strip()]


_HEADER_FINDINGS: list[Callable[[list[str]], list[tuple[str, dict[str, str]]]]] = []
"""``referee.record_limits.module_header_findings``, once :func:`start_state` has imported it
(an import statement run per game costs about 7,900 instructions, CPython 3.11)."""


def start_state(game: Game, profile: RuleProfile | None = None) -> GameState:
    """The state before the first body line of ``game``."""
    prof, problem = profile_for(game, profile)
    ext = Extensions(_modules(game), None if prof.edition == "base" else prof.edition)
    state = new_state(game.players, prof, ext, source=game.source, youngest=game.header("Youngest"))
    pos = Pos(game.start_line, 1)
    if problem:
        state.note(pos, "UNVERIFIED-PROFILE", problem=problem)
    if game.header("Modules"):  # unknown names (the closest module), contradictory options
        if not _HEADER_FINDINGS:  # (imported on first use: a game without modules never needs it)
            from referee.record_limits import module_header_findings

            _HEADER_FINDINGS.append(module_header_findings)
        for code, params in _HEADER_FINDINGS[0](_modules(game)):
            state.flag(code, pos, None, **params)
    for name, option, allowed in ext.bad_options:
        state.flag("MODULE-OPTION", pos, module=name, option=option, allowed=allowed)
    return state


def replay(
    game: Game,
    profile: RuleProfile | None = None,
    until_line: int | None = None,
    until_turn: int | None = None,
    strict: bool = False,
) -> tuple[GameState, list[Violation]]:
    """Apply the record up to and including ``until_line`` / turn ``until_turn`` (None: all)."""
    state = start_state(game, profile)
    for item in game.body:
        line = item.pos.line
        if until_line is not None and line > until_line:
            break
        if until_turn is not None and isinstance(item, Turn) and state.turn_no >= until_turn:
            break
        apply_item(state, item)
        if strict and any(v.severity == "error" for v in state.found):
            break
    return state, list(state.found)


def check_game(game: Game, profile: RuleProfile | None = None, strict: bool = False) -> GameReport:
    """Check every event of ``game``; the report lists violations and unverifiable points."""
    return run_game(game, start_state(game, profile), game.body, strict)
