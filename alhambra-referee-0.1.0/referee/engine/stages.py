"""Stages: other players act while a turn or a refill is resolved.

A *stage* is a part of someone's turn (or of a refill) in which other players act out of turn:
the bids of an auction, chests passed to the left neighbour who places them, workers taken
back, a bonus for every player. A module (or an engine service, such as the auction service of
:mod:`referee.engine.auction`) opens a stage with :func:`open_stage`; the stage says

* **who** may act (``players``, in order) and **how** (:class:`StageOrder`): each once in seat
  order, each once in any order, or in rounds among those still in (raise or pass);
* **what** they may write (``verbs``: the verbs of the lines that belong to the stage; empty:
  any out-of-turn line of the listed players);
* **whether** every listed player must write a line (``required``) or may let it pass by
  writing nothing ("hat die Möglichkeit").

The engine then routes every out-of-turn line (no turn number) of the stage's players to the
stage's owner (:meth:`Module.stage_line`), checks the order, and ends the stage when its last
player has acted, or when the owner calls :meth:`Stage.finish` (an auction with one bidder
left). A line that does not belong to the stage (the next turn, a chance line, a scoring, a
line of another module) ends it first: players who still had to act are reported
(``STAGE-OPEN``) and the owner hears :meth:`Module.stage_closed` with ``abandoned`` set.

In a record, a stage opened inside a numbered turn is resolved by the out-of-turn lines right
after the turn's line; a stage opened inside a refill (a card revealed by a ``* display``
line) by the lines right after that chance line, after which the refill may go on with the
next chance line (N12: "a refill line may be split by such lines"). Stage lines never close
the refill.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.record.model import NOWHERE, ModuleAction, Pos, Turn
from referee.shapes import StageOwner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.context import Context
    from referee.engine.state import GameState


class StageOrder(StrEnum):
    """In which order the players of a stage act."""

    SEATS = "seats"  # each listed player once, in the listed order (a player may be skipped
    # silently when the stage is not ``required``)
    ANY = "any"  # each listed player at most once, in any order
    ROUNDS = "rounds"  # round after round among the players still in, in the listed order,
    # until the owner finishes the stage (e.g. raise or pass: a player who passes is out)


@dataclass(slots=True)
class Stage:
    """A stage under way (``GameState.stages``, innermost last)."""

    kind: str  # what it is, for people: "auction", "hand-over" ...
    owner: str  # the module (or engine service) that opened it and hears its lines
    players: list[int]  # seat indices of the players who take part, in order
    order: StageOrder = StageOrder.SEATS
    verbs: tuple[str, ...] = ()  # the verbs of its lines (empty: any out-of-turn line)
    required: bool = True  # every listed player must write a line (ROUNDS: the one to act)
    pos: Pos = NOWHERE  # the record line that opened it
    source: str = ""  # the rule section it comes from (named in the stage's findings)
    data: Any = None  # the owner's state for this stage (copied with ``.copy()`` if it has one)
    at: int = 0  # SEATS / ROUNDS: the index in ``players`` of who acts now
    acted: list[int] = field(default_factory=list)  # who wrote a line, in order
    out: list[int] = field(default_factory=list)  # ROUNDS: who is out (``drop``)
    done: bool = False  # the owner finished it, or its last player acted
    abandoned: bool = False  # it ended because another line came first

    def copy(self) -> Stage:
        data = self.data.copy() if hasattr(self.data, "copy") else self.data
        return Stage(
            self.kind,
            self.owner,
            list(self.players),
            self.order,
            self.verbs,
            self.required,
            self.pos,
            self.source,
            data,
            self.at,
            list(self.acted),
            list(self.out),
            self.done,
            self.abandoned,
        )

    # ------------------------------------------------------------ the owner's calls

    def finish(self) -> None:
        """The stage is over (the engine pops it after the current line)."""
        self.done = True

    def drop(self, player: int) -> None:
        """ROUNDS: ``player`` is out (e.g. passed); later rounds skip him."""
        if player not in self.out:
            self.out.append(player)

    @property
    def still_in(self) -> list[int]:
        """The players not out, in the stage's order."""
        return [p for p in self.players if p not in self.out]

    def expected(self) -> int | None:
        """Who must act now (SEATS / ROUNDS); None: anyone listed (ANY) or nobody left."""
        if self.order is StageOrder.ANY or self.done:
            return None
        if self.order is StageOrder.SEATS:
            return self.players[self.at] if self.at < len(self.players) else None
        left = self.still_in
        if not left:
            return None
        n = len(self.players)
        for i in range(n):
            p = self.players[(self.at + i) % n]
            if p not in self.out:
                return p
        return None  # pragma: no cover - ``left`` is not empty

    def missing(self) -> list[int]:
        """The players who still had to act when the stage ended early."""
        if not self.required or self.done:
            return []
        if self.order is StageOrder.ROUNDS:
            nxt = self.expected()
            return [] if nxt is None else [nxt]
        if self.order is StageOrder.SEATS:
            return self.players[self.at :]
        return [p for p in self.players if p not in self.acted]


SERVICES: dict[str, Callable[[], StageOwner]] = {}
"""Engine services that own stages (their name -> how to get the service), e.g. the auction
service; a module owns the stages it opens under its own name."""


def owner_of(state: GameState, stage: Stage) -> StageOwner | None:
    service = SERVICES.get(stage.owner)
    if service is not None:
        return service()
    for m in state.ext.modules:
        if m.name == stage.owner:
            return m
    return None


def _rule(code: str, name_en: str, name_de: str, msg_en: str, msg_de: str) -> None:
    register_rule(
        Rule(
            code,
            name_en,
            name_de,
            f"{BIGBOX}: other players act inside a turn or a refill (the module's section "
            "is named in the message)",
            msg_en,
            msg_de,
        )
    )


_rule(
    "STAGE-ORDER",
    "out of order",
    "außer der Reihe",
    "{player} writes a line of the {stage} out of order: {expected} acts now (order {order}; "
    "{source})",
    "{player} schreibt eine Zeile der Phase '{stage}' außer der Reihe: {expected} ist jetzt dran "
    "(Reihenfolge {order}; {source})",
)
_rule(
    "STAGE-PLAYER",
    "no part in it",
    "nicht beteiligt",
    "{player} has no part in the {stage} now (it is for {players}; {source})",
    "{player} ist an der Phase '{stage}' jetzt nicht beteiligt (sie ist für {players}; {source})",
)
_rule(
    "STAGE-OPEN",
    "not finished",
    "nicht abgeschlossen",
    "the {stage} is not over before this line: {missing} still had to act ({source})",
    "die Phase '{stage}' ist vor dieser Zeile nicht abgeschlossen: {missing} hätte noch handeln "
    "müssen ({source})",
)


def open_stage(ctx: Context, stage: Stage) -> Stage:
    """Open ``stage`` (the lines that follow belong to it). An empty stage ends at once."""
    state = ctx.state
    state.stages.append(stage)
    if not stage.players:
        stage.done = True
        _pop(state, stage, ctx.pos or stage.pos)
    return stage


def _names(state: GameState, players: list[int]) -> str:
    return ", ".join(state.players[i].name for i in players) or "-"


def _first_verb(line: Turn) -> str | None:
    acts = line.actions
    if acts and isinstance(acts[0], ModuleAction):
        return acts[0].verb.lower()
    return None


def belongs(stage: Stage, line: Turn) -> bool:
    """Whether ``line`` is a line of ``stage`` (an out-of-turn line with one of its verbs)."""
    if line.number is not None or line.player is None:
        return False
    if not stage.verbs:
        return True
    return _first_verb(line) in stage.verbs


def stage_turn(state: GameState, line: Turn) -> bool:
    """A record line while a stage is open: True when the line belonged to it (then it is
    handled), False when it did not (then every open stage has been closed first)."""
    from referee.engine.context import Context

    stage = state.stages[-1]
    if not belongs(stage, line):
        close_stages(state, line.pos)
        return False
    assert line.player is not None
    player = state.find_player(line.player, line.pos)
    if player is None:
        return True
    ctx = Context(state, line.pos)
    who = player.index
    if who not in stage.players or (stage.order is StageOrder.ROUNDS and who in stage.out):
        ctx.flag(
            "STAGE-PLAYER",
            line.pos,
            player.name,
            stage=stage.kind,
            players=_names(state, stage.still_in),
            source=stage.source,
        )
        return True
    expected = stage.expected()
    if expected is not None and expected != who:
        skip_ok = stage.order is StageOrder.SEATS and not stage.required
        later = stage.order is StageOrder.SEATS and stage.players.index(who) > stage.at
        if not (skip_ok and later):
            ctx.flag(
                "STAGE-ORDER",
                line.pos,
                player.name,
                stage=stage.kind,
                expected=state.players[expected].name,
                order=" → ".join(state.players[i].name for i in stage.players),
                source=stage.source,
            )
    if stage.order is StageOrder.SEATS:
        idx = stage.players.index(who)
        if idx >= stage.at:  # an earlier player's line again is out of order (flagged above)
            stage.at = idx + 1
    elif stage.order is StageOrder.ROUNDS:
        stage.at = (stage.players.index(who) + 1) % len(stage.players)
    elif who in stage.acted:  # ANY: each once
        ctx.flag(
            "STAGE-ORDER",
            line.pos,
            player.name,
            stage=stage.kind,
            expected=_names(state, [p for p in stage.players if p not in stage.acted]),
            order=_names(state, stage.players),
            source=stage.source,
        )
    stage.acted.append(who)
    owner = owner_of(state, stage)
    if owner is not None:
        owner.stage_line(ctx, stage, player, line)
    seats_done = stage.order is StageOrder.SEATS and stage.at >= len(stage.players)
    if seats_done or (stage.order is StageOrder.ANY and set(stage.players) <= set(stage.acted)):
        stage.done = True
    if stage.done and stage in state.stages:
        _pop(state, stage, line.pos)
    return True


def _pop(state: GameState, stage: Stage, pos: Pos) -> None:
    from referee.engine.context import Context

    if stage in state.stages:
        state.stages.remove(stage)
    owner = owner_of(state, stage)
    if owner is not None:
        owner.stage_closed(Context(state, pos), stage)


def close_stages(state: GameState, pos: Pos) -> None:
    """Another line comes: every open stage ends here (innermost first); the players who
    still had to act are reported (``STAGE-OPEN``)."""
    while state.stages:
        stage = state.stages[-1]
        missing = stage.missing()
        if missing:
            state.flag(
                "STAGE-OPEN",
                pos,
                state.players[missing[0]].name,
                stage=stage.kind,
                missing=_names(state, missing),
                source=stage.source,
            )
        stage.abandoned = not stage.done
        stage.done = True
        _pop(state, stage, pos)


def legal_stage_lines(state: GameState) -> list[Turn]:
    """The lines the innermost open stage allows now (its owner's, for the players who may
    act)."""
    from referee.engine.context import Context

    if not state.stages:
        return []
    stage = state.stages[-1]
    owner = owner_of(state, stage)
    if owner is None:
        return []
    expected = stage.expected()
    if expected is not None:
        who = [expected]
        if stage.order is StageOrder.SEATS and not stage.required:
            who = stage.players[stage.at :]
    else:
        who = [p for p in stage.players if p not in stage.acted]
    ctx = Context(state)
    return [line for i in who for line in owner.legal_stage_lines(ctx, stage, state.players[i])]


def left_of(state: GameState, player: int) -> list[int]:
    """Every other player, starting with the left neighbour of ``player`` (the next one in
    seat order: play passes "im Uhrzeigersinn" to the left), e.g. for things passed on."""
    n = len(state.players)
    return [(player + i) % n for i in range(1, n)]
