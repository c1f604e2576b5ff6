"""A test-only module (never bundled): crates handed on to the left neighbour.

Modelled on Die Schatzkammer (rulebook-bigbox-de-2019.txt § DIE SCHATZKAMMER): "Schatztruhen,
die der Spieler nicht platzieren kann, gehen an seinen linken Nachbarn, der die Möglichkeit hat,
sie ... zu platzieren, usw." -- ``crates N`` (a main action) hands N crates on; the other
players, from the left neighbour on, may each keep some (``Cem: crate 2``) in seat order or let
them pass by writing nothing; crates nobody keeps go back to the supply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.rules import Rule, register_rule
from referee.engine.stages import Stage, StageOrder, left_of, open_stage
from referee.messages import Text

SOURCE = "rulebook-bigbox-de-2019.txt § DIE SCHATZKAMMER (test module turnhandover)"

register_rule(
    Rule(
        "HANDOVER-TOO-MANY",
        "more than handed on",
        "mehr als weitergegeben",
        SOURCE,
        "{player} keeps {n} crates, but only {left} are left",
        "{player} behält {n} Kisten, es sind aber nur {left} übrig",
    )
)


register_rule(
    Rule(
        "HANDOVER-OVER",
        "hand-over over",
        "Weitergabe vorbei",
        SOURCE,
        "{player} keeps crates, but no crates are being handed on now",
        "{player} behält Kisten, es werden aber gerade keine weitergegeben",
    )
)


@dataclass
class Crates:
    kept: dict[str, int] = field(default_factory=dict)
    back: int = 0  # returned to the supply

    def copy(self) -> Crates:
        return Crates(dict(self.kept), self.back)


@dataclass
class Left:
    n: int

    def copy(self) -> Left:
        return Left(self.n)


@register_module
class TurnHandover(Module):
    name = "turnhandover"
    verbs = ("crates", "crate")

    def scratch(self, state: Any) -> Crates:
        return state.modules.setdefault(self.name, Crates())  # type: ignore[no-any-return]

    def out_of_turn(self, state: Any, turn: Any) -> list[Any] | None:
        acts = turn.actions
        if not acts or getattr(acts[0], "verb", "").lower() != "crate":
            return None
        state.flag("HANDOVER-OVER", acts[0].pos, turn.player.name)  # no stage is open
        return []

    def action(self, state: Any, player: Any, action: Any) -> list[Any]:
        ctx = Context(state, action.pos)
        ctx.main_action(action.pos, player, Text("ACTION/buying"))
        ctx.end_main_action(Text("ACTION/buying"))  # handing on is the turn's action
        n = int(action.args[0].value) if action.args else 0
        stage = Stage(
            "hand-over",
            self.name,
            left_of(state, player.index),
            StageOrder.SEATS,
            ("crate",),
            required=False,
            pos=action.pos,
            source=SOURCE,
            data=Left(n),
        )
        open_stage(ctx, stage)
        return []

    def legal_actions(self, ctx: Context, player: Any) -> list[Any]:
        from referee.record.model import GenericArg, ModuleAction

        return [ModuleAction("crates", (GenericArg(k),)) for k in (1, 2, 3)]

    def stage_line(self, ctx: Context, stage: Stage, player: Any, line: Any) -> None:
        act = line.actions[0]
        n = int(act.args[0].value) if act.args else 0
        left: Left = stage.data
        if n > left.n:
            ctx.flag("HANDOVER-TOO-MANY", act.pos, player.name, n=n, left=left.n)
            n = left.n
        left.n -= n
        kept = self.scratch(ctx.state).kept
        kept[player.name] = kept.get(player.name, 0) + n
        if left.n == 0:
            stage.finish()

    def stage_closed(self, ctx: Context, stage: Stage) -> None:
        self.scratch(ctx.state).back += stage.data.n  # "kommen zurück in den Beutel"

    def legal_stage_lines(self, ctx: Context, stage: Stage, player: Any) -> list[Any]:
        from referee.record.model import GenericArg, ModuleAction, PlayerRef, Turn

        return [
            Turn(None, PlayerRef(player.name), (ModuleAction("crate", (GenericArg(k),)),))
            for k in range(1, stage.data.n + 1)
        ]
