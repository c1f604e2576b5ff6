"""Declared verbs and ability windows.

A module declares each of its verbs once, as a :class:`VerbSpec`: its kind (main action, free,
acquire, interrupt), its aliases, the shape of its arguments, and -- for an *ability* -- the
moment it may be used (:class:`Window`) and how often (:class:`Limit`). The engine then checks,
before the module's handler runs and only while checking (a trusted replay skips it):

* the arguments against the declared shape (``VERB-ARGS``);
* the window (``ABILITY-WINDOW``): at the start of one's own turn ("zu Beginn seines Zuges --
  als erste Handlung"), before placing, at the end of the turn ("am Ende des Zuges (nach dem
  eventuellen Platzieren)"), between turns, or before a due scoring (the lines of players'
  choices: "bei jeder Wertung ... für eine Gebäudesorte"), or any time of one's own turn;
* the limit (``ABILITY-LIMIT``): once per turn, once per round, once per scoring, or once in
  the game ("kommen nach ihrem Einsatz ganz aus dem Spiel"); the engine keeps the counts
  (``GameState.abilities``);
* that the player holds the ability (``Module.holds_ability``; ``ABILITY-NOT-HELD``).

A *round* is every player's turn once, counted by turn numbers (turns 1..n are round 1 with n
players; out-of-turn lines belong to the round of the turn before them).

A module verb may also have a pure check apart from its change: ``Module.check_verb(ctx,
player, action)`` returns findings and runs only while checking; ``Module.action`` then only
changes the state (the split the base actions have).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.engine.findings import Finding, problem
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.record.model import (
    CardRef,
    ComponentRef,
    Coord,
    ModuleAction,
    PlayerRef,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.context import Context
    from referee.engine.state import GameState, PlayerState


class Window(StrEnum):
    """When an ability (a verb with a window) may be used."""

    OWN_TURN = "own-turn"  # any time of one's own turn
    TURN_START = "turn-start"  # in one's own turn, before its first main action
    BEFORE_PLACING = "before-placing"  # in one's own turn, before its first placement
    TURN_END = "turn-end"  # in one's own turn, after its main actions: no main action follows
    BETWEEN_TURNS = "between-turns"  # out of turn, after a complete turn
    BEFORE_SCORING = "before-scoring"  # out of turn, while a scoring is due, before its line


OUT_OF_TURN = frozenset({Window.BETWEEN_TURNS, Window.BEFORE_SCORING})
"""Windows whose lines have no turn number (``Anna: favour G`` before ``scoring 1``)."""


class Limit(StrEnum):
    """How often an ability may be used."""

    PER_TURN = "turn"
    PER_ROUND = "round"
    PER_SCORING = "scoring"  # once for each scoring (the one that comes next)
    ONCE = "once"  # once in the game (then out of the game)


class Arg(StrEnum):
    """The shape of one argument of a declared verb."""

    INT = "number"
    WORD = "word"
    CARD = "money card"
    COMPONENT = "component"
    COORD = "@x,y"
    PLAYER = "player"
    TILE = "tile"
    PAYMENT = "[pay] cards..."  # the rest: cards and components, after an optional ``pay``


@dataclass(frozen=True, slots=True)
class VerbSpec:
    """One verb of a module, declared (``Module.verb_specs``)."""

    verb: str
    kind: str = "main"  # an ActionKind value: main, free, acquire, interrupt
    args: tuple[Arg, ...] | None = None  # None: not checked by the engine
    window: Window | None = None  # an ability's moment (None: the kind decides)
    limit: Limit | None = None
    aliases: tuple[str, ...] = ()
    ability: str = ""  # the ledger's name for the ability (default: the verb)

    @property
    def key(self) -> str:
        return self.ability or self.verb

    @property
    def checked(self) -> bool:
        return self.args is not None or self.window is not None or self.limit is not None


def _rule(code: str, name_en: str, name_de: str, msg_en: str, msg_de: str) -> None:
    register_rule(
        Rule(
            code,
            name_en,
            name_de,
            f"{BIGBOX}: a module's declared verb (its section is named by the module)",
            msg_en,
            msg_de,
        )
    )


_rule(
    "VERB-ARGS",
    "arguments",
    "Angaben",
    "`{verb}` is written `{verb} {expected}`, not `{verb} {got}`",
    "`{verb}` wird `{verb} {expected}` geschrieben, nicht `{verb} {got}`",
)
_rule(
    "ABILITY-WINDOW",
    "not now",
    "nicht jetzt",
    "{player} uses {ability} {when}: it may be used only {window}",
    "{player} setzt {ability} {when} ein: das geht nur {window}",
)
_rule(
    "ABILITY-LIMIT",
    "used up",
    "schon genutzt",
    "{player} uses {ability} again: it may be used {limit} (used {before})",
    "{player} setzt {ability} erneut ein: das geht nur {limit} (schon {before})",
)
_rule(
    "ABILITY-NOT-HELD",
    "not held",
    "nicht vorhanden",
    "{player} uses {ability} without holding it",
    "{player} setzt {ability} ein, ohne es zu besitzen",
)

_WINDOW_TEXT = {
    Window.OWN_TURN: ("in one's own turn", "im eigenen Zug"),
    Window.TURN_START: ("at the start of one's turn, as the first act", "zu Beginn des Zuges"),
    Window.BEFORE_PLACING: ("before placing", "vor dem Platzieren"),
    Window.TURN_END: ("at the end of one's turn", "am Ende des Zuges"),
    Window.BETWEEN_TURNS: ("between two turns", "zwischen zwei Zügen"),
    Window.BEFORE_SCORING: ("before a due scoring", "vor einer fälligen Wertung"),
}
_LIMIT_TEXT = {
    Limit.PER_TURN: ("once per turn", "einmal pro Zug"),
    Limit.PER_ROUND: ("once per round", "einmal pro Runde"),
    Limit.PER_SCORING: ("once per scoring", "einmal pro Wertung"),
    Limit.ONCE: ("once in the game", "einmal im Spiel"),
}


_ENDING = ("using an ability at the end of the turn", "dem Einsatz einer Fähigkeit am Zugende")


def _register_texts() -> None:
    from referee.messages import register_both

    pairs = [*_WINDOW_TEXT.values(), *_LIMIT_TEXT.values(), _ENDING]
    pairs += [
        ("before a due scoring", "vor einer fälligen Wertung"),
        ("out of turn", "außerhalb des Zuges"),
        ("after placing", "nach dem Platzieren"),
        ("after an action of the turn", "nach einer Aktion des Zuges"),
        ("at the start of the turn", "zu Beginn des Zuges"),
    ]
    register_both({f"WORD/{en}": en for en, _ in pairs}, {f"WORD/{en}": de for en, de in pairs})


_register_texts()


def _text(pair: tuple[str, str]) -> object:
    from referee.messages import Text

    return Text(f"WORD/{pair[0]}")


def _arg_ok(kind: Arg, value: object) -> bool:
    if kind is Arg.INT:
        return isinstance(value, int)
    if kind is Arg.WORD:
        return isinstance(value, str)
    if kind is Arg.CARD:
        return isinstance(value, CardRef)
    if kind is Arg.COMPONENT:
        return isinstance(value, ComponentRef)
    if kind is Arg.COORD:
        return isinstance(value, Coord)
    if kind is Arg.PLAYER:
        return isinstance(value, PlayerRef | str)
    if kind is Arg.TILE:
        return isinstance(value, TileRef)
    return False  # pragma: no cover - PAYMENT is read by args_findings


def args_findings(spec: VerbSpec, action: ModuleAction, player: str | None) -> list[Finding]:
    """``VERB-ARGS`` when the arguments do not have the declared shape."""
    if spec.args is None:
        return []
    values: list[object] = [a.value for a in action.args]
    shape = list(spec.args)
    ok = True
    rest: list[object] = []
    if shape and shape[-1] is Arg.PAYMENT:
        shape.pop()
        rest = values[len(shape) :]
        values = values[: len(shape)]
        if rest and isinstance(rest[0], str) and rest[0].lower() in ("pay", "zahlt"):
            rest = rest[1:]
        ok = all(isinstance(r, CardRef | ComponentRef) for r in rest)
    ok = ok and len(values) == len(shape) and all(map(_arg_ok, shape, values))
    if ok:
        return []
    expected = " ".join(f"<{a.value}>" for a in spec.args)
    got = " ".join(str(getattr(a.value, "name", a.value)) for a in action.args) or "(nothing)"
    return [problem("VERB-ARGS", action.pos, player, verb=action.verb, expected=expected, got=got)]


def round_of(state: GameState) -> int:
    """The round the game is in: every player's turn once (turns 1..n: round 1)."""
    n = len(state.players) or 1
    no = state.turn.number if state.turn is not None else state.turn_no
    return (max(no, 1) - 1) // n + 1


def due_scoring(state: GameState) -> int | None:
    """The scoring due now, whose players' choices (``Window.BEFORE_SCORING`` lines) come
    before its line: a revealed scoring card's, or the final one once the game is over
    ("Die dritte und letzte Wertung findet am Spielende statt"); None: none is due."""
    if state.scoring_pending:
        return state.scoring_pending[0]
    if state.game_over and 3 not in state.scorings_done:
        return 3
    return None


def limited_specs(state: GameState) -> dict[str, VerbSpec]:
    """The abilities with a limit of the modules in play, by their ledger key."""
    return {
        spec.key: spec
        for m in state.ext.modules
        for spec in getattr(m, "verb_specs", ())
        if spec.limit is not None
    }


def stamp(state: GameState, limit: Limit) -> int:
    """The ledger's stamp of a use made now under ``limit`` (a use limits a later one with the
    same stamp; a once-a-game use limits every later one)."""
    if limit is Limit.PER_TURN:
        return state.turn.number if state.turn is not None else state.turn_no
    if limit is Limit.PER_ROUND:
        return round_of(state)
    if limit is Limit.PER_SCORING:  # the scoring that comes next
        due = due_scoring(state)
        return due if due is not None else len(state.scorings_done) + 1
    return 0


def _when(state: GameState) -> tuple[str, str]:
    t = state.turn
    if t is None:
        if due_scoring(state) is not None:
            return ("before a due scoring", "vor einer fälligen Wertung")
        return ("out of turn", "außerhalb des Zuges")
    if t.placing:
        return ("after placing", "nach dem Platzieren")
    if t.main_actions:
        return ("after an action of the turn", "nach einer Aktion des Zuges")
    return ("at the start of the turn", "zu Beginn des Zuges")


def window_open(state: GameState, player: PlayerState, window: Window) -> bool:
    """Whether ``window`` is open for ``player`` now."""
    t = state.turn
    if window in OUT_OF_TURN:
        if t is not None and t.interrupt is None:
            return False
        if window is Window.BEFORE_SCORING:
            return due_scoring(state) is not None
        return True
    if t is None or t.player != player.index or t.interrupt is not None:
        return False
    if window is Window.TURN_START:
        return t.main_actions == 0 and not t.placing
    if window is Window.BEFORE_PLACING:
        return not t.placing
    if window is Window.TURN_END:
        return True  # the turn's end is checked when a main action follows (``closing``)
    return True


def ability_findings(
    ctx: Context, player: PlayerState, spec: VerbSpec, action: ModuleAction, holds: bool
) -> list[Finding]:
    """The engine's check of a declared verb (pure): arguments, holding, window, limit."""
    state = ctx.state
    out = args_findings(spec, action, player.name)
    name = f"`{spec.key}`"
    if not holds:
        out.append(problem("ABILITY-NOT-HELD", action.pos, player.name, ability=name))
    if spec.window is not None and not window_open(state, player, spec.window):
        out.append(
            problem(
                "ABILITY-WINDOW",
                action.pos,
                player.name,
                ability=name,
                when=_text(_when(state)),
                window=_text(_WINDOW_TEXT[spec.window]),
            )
        )
    if spec.limit is not None:
        now = stamp(state, spec.limit)
        uses = state.abilities.get((player.index, spec.key), ())
        before = [u for u in uses if spec.limit is Limit.ONCE or u == now]
        if before:
            out.append(
                problem(
                    "ABILITY-LIMIT",
                    action.pos,
                    player.name,
                    ability=name,
                    limit=_text(_LIMIT_TEXT[spec.limit]),
                    before=len(before),
                )
            )
    return out


def record_use(state: GameState, player: PlayerState, spec: VerbSpec) -> None:
    """Count one use of an ability (the ledger, ``GameState.abilities``); a turn-end ability
    closes the turn's main actions."""
    if spec.limit is not None:
        key = (player.index, spec.key)
        state.abilities[key] = (*state.abilities.get(key, ()), stamp(state, spec.limit))
    if spec.window is Window.TURN_END and state.turn is not None:
        from referee.engine.turns import end_main_action

        end_main_action(state, _text(_ENDING))


def specs_of(verbs: Sequence[VerbSpec]) -> dict[str, VerbSpec]:
    """Each verb and alias (lower case) -> its spec."""
    out: dict[str, VerbSpec] = {}
    for spec in verbs:
        for v in (spec.verb, *spec.aliases):
            out[v.lower()] = spec
    return out


__all__ = [
    "OUT_OF_TURN",
    "Arg",
    "Limit",
    "VerbSpec",
    "Window",
    "ability_findings",
    "args_findings",
    "limited_specs",
    "record_use",
    "round_of",
    "specs_of",
    "stamp",
    "window_open",
]

# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
