"""Moments of the module example games where the record plays a module action, derived from
the records (``examples/module-<name>.alh``), and variants of those lines that a module's rule
forbids. Shared by ``tests/test_dispute_modules.py``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.catalogue import Currency
from referee.commands.show import At, load_game
from referee.modules.base import module_data
from referee.notation import formatter, read_headers
from referee.record.model import (
    Buy,
    CardRef,
    ComponentRef,
    Game,
    GenericArg,
    ModuleAction,
    Turn,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def single_module_examples() -> list[tuple[str, Path]]:
    """(module, example game) for every example that enables exactly one module."""
    out = []
    for path in sorted(EXAMPLES.glob("module-*.alh")):
        # the first game's headers only (read when the test file is collected: no body read)
        headers = next(read_headers(path))
        value = next((h.value for h in headers if h.name.lower() == "modules"), "")
        mods = [m.strip() for m in value.split(",") if m.strip()]
        if len(mods) == 1:
            out.append((mods[0], path))
    return out


def plays_module(x: Any, depth: int = 0) -> bool:
    """Whether a record node is (or holds) a module verb or a module component token."""
    if isinstance(x, ComponentRef | ModuleAction):
        return True
    if depth > 5:
        return False
    if isinstance(x, tuple | list):
        return any(plays_module(y, depth + 1) for y in x)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return any(
            plays_module(getattr(x, f.name), depth + 1)
            for f in dataclasses.fields(x)
            if f.name != "pos"
        )
    return False


@dataclass(frozen=True)
class Moment:
    """A record line that plays a module action, and the moment just before it."""

    module: str
    path: Path
    game: Game
    line: Turn

    @property
    def text(self) -> str:
        return formatter.body_lines(self.line)[0]

    @property
    def before(self) -> At:
        return At("line", self.line.pos.line - 1)

    @property
    def out_of_turn(self) -> bool:
        return self.line.number is None


def moments(module: str, path: Path) -> list[Moment]:
    game = load_game(str(path))
    return [
        Moment(module, path, game, item)
        for item in game.body
        if isinstance(item, Turn) and any(plays_module(a) for a in item.actions)
    ]


def section_of(module: str) -> str:
    """The module's rulebook section heading (its rule codes cite it)."""
    return str(module_data(module)["section"])


def _with_actions(line: Turn, actions: tuple[Any, ...]) -> str:
    return formatter.body_lines(dataclasses.replace(line, actions=actions))[0]


def _mutated_token(ref: ComponentRef) -> list[ComponentRef]:
    name = ref.name
    out = []
    if len(name) > 1:
        out.append(ComponentRef(ref.kind, name[:-1]))  # a face or a value left out
    out.append(ComponentRef(ref.kind, name + "n" if not name.endswith("n") else name[:-1] + "s"))
    digits = len(name) - len(name.lstrip("0123456789"))
    if digits:  # a number no such piece has
        out.append(ComponentRef(ref.kind, str(int(name[:digits]) + 90) + name[digits:]))
    if len(name) > 1 and name[-1] in "nesw" and name[-2] not in "nesw":
        out += [ComponentRef(ref.kind, name[:-1] + side) for side in "nesw" if side != name[-1]]
    if len(name) > 1 and name[0] != name[1]:
        out.append(ComponentRef(ref.kind, name[1] + name[0] + name[2:]))  # two faces swapped
    return out


def variants(m: Moment, state: Any = None) -> Iterator[tuple[At, str, str | None]]:
    """(moment, text, player) variants of the line that a rule may forbid: the same line
    again right after it was played and at the start of the game; another player's out-of-turn
    line; the payment short by its first or last item, or with one more card of the hand
    (``state``: the table before the line); a module piece bought on another field; each
    module token with another face."""
    yield At("line", m.line.pos.line), m.text, None
    yield At("start"), m.text, None
    if m.out_of_turn and m.line.player is not None:
        for name in m.game.players:
            if name != m.line.player.name:
                yield m.before, m.text.partition(":")[2].strip(), name
    acts = m.line.actions
    for i, a in enumerate(acts):
        if isinstance(a, Buy) and len(a.paid) > 1:
            for paid in (a.paid[:-1], a.paid[1:]):
                short = dataclasses.replace(a, paid=paid)
                yield m.before, _with_actions(m.line, (*acts[:i], short, *acts[i + 1 :])), None
        if isinstance(a, Buy) and state is not None and m.line.player is not None:
            who = state.player_named(m.line.player.name)
            paid = {c.card for c in a.paid if isinstance(c, CardRef)}
            for card in sorted(set(who.hand.elements()) - paid, key=lambda c: c.sort_key)[:3]:
                more = dataclasses.replace(a, paid=(*a.paid, CardRef(card)))
                yield m.before, _with_actions(m.line, (*acts[:i], more, *acts[i + 1 :])), None
        if isinstance(a, Buy) and a.field is not None and isinstance(a.tile, ComponentRef):
            for cur in Currency:
                if cur is not a.field:
                    other = dataclasses.replace(a, field=cur)
                    yield m.before, _with_actions(m.line, (*acts[:i], other, *acts[i + 1 :])), None
        if isinstance(a, ModuleAction):
            for j, arg in enumerate(a.args):
                if isinstance(arg.value, ComponentRef):
                    for ref in _mutated_token(arg.value):
                        args = (*a.args[:j], GenericArg(ref), *a.args[j + 1 :])
                        b = dataclasses.replace(a, args=args)
                        yield m.before, _with_actions(m.line, (*acts[:i], b, *acts[i + 1 :])), None
        for field_name in ("tile",):
            ref = getattr(a, field_name, None)
            if isinstance(ref, ComponentRef):
                for other in _mutated_token(ref):
                    b = dataclasses.replace(a, **{field_name: other})
                    yield m.before, _with_actions(m.line, (*acts[:i], b, *acts[i + 1 :])), None
