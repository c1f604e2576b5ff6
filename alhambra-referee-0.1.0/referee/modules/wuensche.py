"""Die Wünsche des Kalifen (the caliph's wishes): three open tasks scored at the end of the game.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Stefan Schiltz: Die Wünsche des Kalifen.

"Die Aufgabenplättchen werden gemischt. Anschließend werden 3 davon offen neben dem Bauhof
ausgelegt." -- "Neben den üblichen Punkten werden am Ende des Spiels die Sonderpunkte für die
Aufgaben vergeben."

Notation: ``* tasks task:1 task:6 task:9`` names the open tasks (the numbers follow the
rulebook's task list). At the final scoring each open task is a point line of its own
(``task 1: 2 rows × 3``), claimable as ``task1=6``. Every task is a read-only geometric query
(:mod:`referee.geometry.queries`). Readings where groups could differ are module options
(``[Modules "wuensche task5=line"]``), listed in :data:`Wuensche.options` and docs/modules.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import TileKind
from referee.engine.extensions import acts_at
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.geometry import Alhambra
from referee.geometry import queries as q
from referee.geometry.grid import ORIGIN, Piece
from referee.modules.base import BundledModule, Scratch, bundled, module_data, section
from referee.record.model import ComponentRef, Coord, GenericArg, ModuleAction, ModuleChance, Pos
from referee.scoring import ScoringParts
from referee.scoring.categories import CategoryInfo, PointLine, register_category

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Stefan Schiltz: Die Wünsche des Kalifen"
S_TASKS = section(H, "Die einzelnen Aufgaben")
KIND = "task"
VERB = "tasks"
TASKS = tuple(range(1, 10))


# the claim keys task1 ... task9 ("(T=21, task1=6)") are known even before a game enables them
for _n in TASKS:
    register_category(
        CategoryInfo(f"task{_n}", f"task {_n}", f"Aufgabe {_n}", S_TASKS, f"task{_n}")
    )


def task_data(n: int) -> dict[str, Any]:
    tasks = module_data("wuensche")["components"]["tasks"]["list"]
    return dict(tasks.get(n, tasks.get(str(n))))


def types_table() -> dict[int, int]:
    return {int(k): int(v) for k, v in task_data(5)["table"].items()}


def _standard(at: Coord, piece: Piece) -> bool:
    """A standard building: one of the base game's building tiles (no module piece)."""
    return at != ORIGIN and isinstance(piece, TileKind)


@dataclass(frozen=True)
class TaskResult:
    """What one task gives one Alhambra: points and the breakdown text in both languages."""

    task: int
    points: int
    en: str
    de: str


DEFAULTS: dict[str, str] = {}  # filled from Wuensche.options below


@cache
def _task_points(n: int) -> int:
    """Task ``n``'s points per unit (``wuensche.yaml``, read once: the component data does
    not change)."""
    return int(task_data(n).get("points", 0))


@cache
def _task_texts(n: int, key: str) -> tuple[tuple[str, Sequence[str], str], ...]:
    """Task ``n``'s breakdown texts ``key`` (read once): per language (en, de) the language,
    the unit's singular and plural, and the text."""
    data = task_data(n)
    return tuple(
        (lang, (data.get("unit") or {}).get(lang) or ["", ""], str(data[key][lang]))
        for lang in ("en", "de")
    )


def _said(n: int, count: int, points: int, where: object = "", key: str = "text") -> TaskResult:
    """Task ``n``'s breakdown line in both languages, from its texts in ``wuensche.yaml``
    (``{count}``, ``{unit}`` singular or plural, ``{pts}`` per unit, ``{points}``, ``{where}``:
    one text, or ``{"en": ..., "de": ...}``)."""
    pts = _task_points(n)
    said = []
    for lang, units, text in _task_texts(n, key):
        at = where.get(lang, "") if isinstance(where, dict) else where
        unit = units[0] if count == 1 else units[1]
        said.append(text.format(count=count, unit=unit, pts=pts, points=points, where=at))
    return TaskResult(n, points, said[0], said[1])


def score_task(
    n: int,
    alh: Alhambra,
    settings: Mapping[str, str] | None = None,
    wall_mode: str = "trail",
    wall_points: str = "edge",
) -> TaskResult:
    """Task ``n`` (1-9) on one Alhambra, with the module's options (``settings``: option ->
    value; missing ones take the default)."""
    opt = {**DEFAULTS, **(settings or {})}
    member = q.building_or_fountain if opt["fountain"] == "building" else q.is_building
    pts = _task_points(n)
    if n in (1, 2):
        lines = q.lines_with_run(alh, "row" if n == 1 else "column", 3, member)
        count = len(lines) if opt["rows"] == "row" else sum(len(found) for found in lines.values())
        where = ", ".join(str(k) for k in lines)
        return _said(n, count, count * pts, f" ({'yx'[n - 1]} = {where})" if where else "")
    if n == 3:
        pairs = q.same_type_pairs(alh, _standard)
        count = len(q.disjoint_pairs(pairs) if opt["pairs"] == "disjoint" else pairs)
        return _said(n, count, count * pts)
    if n == 4:
        run = q.second_longest_wall(alh, wall_mode, opt["wall2"])  # type: ignore[arg-type]
        points = len({c for c, _s in run.segments}) if wall_points == "tile" else run.length
        where = f" ({run.segments[0][0]}..{run.segments[-1][0]})" if run.segments else ""
        return _said(n, run.length, points * pts, where)
    if n == 5:
        line = opt["task5"] == "line"
        count = q.most_types_in_a_line(alh)[0] if line else len(q.building_types(alh))
        return _said(n, count, types_table().get(count, 0), key="text_line" if line else "text")
    if n in (6, 7):
        count = len(q.double_walls(alh) if n == 6 else q.blocks_2x2(alh, member))
        return _said(n, count, count * pts)
    if n == 8:
        diag = q.longest_diagonal(alh, q.building_or_fountain)
        count = diag.length if diag is not None else 0
        return _said(n, count, count * pts, f" ({diag})" if diag is not None else "")
    if n == 9:
        way = q.farthest_building(alh, on_foot=opt["path"] == "walk")
        count = max(0, len(way) - 1) if opt["pathcount"] == "steps" else len(way)
        to = {"en": f" to {way[-1]}", "de": f" zu {way[-1]}"} if way else ""
        return _said(n, count, count * pts, to)
    raise ValueError(f"there is no task {n} (1-9)")


def kept_task(
    n: int,
    alh: Alhambra,
    settings: Mapping[str, str],
    wall_mode: str = "trail",
    wall_points: str = "edge",
) -> TaskResult:
    """:func:`score_task`, kept among the Alhambra's derived facts (``Alhambra.derived``,
    dropped at its next change, copied with it): a view asked again and again (another
    module's view of the whole table after each of its moves) computes a task on an unchanged
    Alhambra once."""
    key = f"wuensche.task{n}:{sorted(settings.items())}:{wall_mode}:{wall_points}"
    derived = alh.derived
    got = derived.get(key)
    if not isinstance(got, TaskResult):
        got = derived[key] = score_task(n, alh, settings, wall_mode, wall_points)
    return got


@dataclass
class TaskScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    open: list[int] = field(default_factory=list)  # the open tasks, in the order stated


@bundled
class Wuensche(BundledModule):
    """Nine task tiles, three open; each a geometric wish scored at the end of the game."""

    chance_verbs = (VERB,)
    component_kinds = (KIND,)
    scratch_type = TaskScratch

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        self._state_tasks(state, event.args, event.pos)
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``tasks task:1 task:6 task:9`` in a position block (outside a player section)."""
        if line.verb.lower() != VERB or player is not None:
            return False
        # a position states the tasks that lay open, also one after the final scoring (an
        # end position: the tasks were scored, not revealed late)
        self._state_tasks(state, line.args, line.pos, late_ok=True)
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``tasks task:1 task:6 task:9``: the open tasks in the order stated, outside the
        player sections, as :meth:`position_line` reads them back."""
        opened = self.data(state).open
        if player is not None or not opened:
            return []
        return [ModuleAction(VERB, tuple(GenericArg(ComponentRef(KIND, str(n))) for n in opened))]

    @acts_at(Moment.SCORING_DONE)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """After the final scoring: were the three open tasks known?"""
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment != Moment.SCORING_DONE or ctx.pos is None or state.scorings_done[-1:] != [3]:
            return
        opened = self.data(state).open
        if len(opened) < 3:
            ctx.flag(
                "TASK-MISSING",
                ctx.pos,
                known=len(opened),
                open=" ".join(f"task:{n}" for n in opened) or "-",
            )

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """At the end of the game ("am Ende des Spiels"): a point line per open task."""
        if round_no != 3:
            return None
        opened = self.data(state).open
        if not opened:
            return None
        settings = dict(self.settings)
        mode, wall_points = state.profile.wall_run, state.profile.wall_points
        cats = []
        for n in sorted(opened):

            def points(p: Any, n: int = n) -> tuple[int, str, str] | None:
                if p.alhambra is None:
                    return None  # a player scored from stated counts: no layout to ask
                r = score_task(n, p.alhambra, settings, mode, wall_points)
                return r.points, r.en, r.de

            cats.append(
                PointLine(f"task{n}", f"task {n}", f"Aufgabe {n}", S_TASKS, points, order=600 + n)
            )
        return ScoringParts(categories=tuple(cats))

    def view(self, state: GameState) -> dict[str, Any]:
        """The open tasks, and what each would give each player now."""
        data = self.data(state)
        names = {n: str(task_data(n)["what"]) for n in TASKS}
        table = {"open tasks": " ".join(f"task:{n} ({names[n]})" for n in data.open) or "?"}
        players: dict[str, dict[str, Any]] = {}
        mode, wall_points = state.profile.wall_run, state.profile.wall_points
        for p in state.players:
            if p.counts is not None or not data.open:
                continue
            now: dict[str, Any] = {}
            for n in data.open:
                r = kept_task(n, p.alhambra, self.settings, mode, wall_points)
                now[f"task {n}"] = {"en": f"{r.points} ({r.en})", "de": f"{r.points} ({r.de})"}
            players[p.name] = now
        return self.shown(table, players)

    # ------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """ "Die Aufgabenplättchen werden gemischt. Anschließend werden 3 davon offen ...
        ausgelegt": three of the nine."""
        drawn = sorted(sim.rng.sample(list(TASKS), 3))
        return [ModuleChance(VERB, tuple(GenericArg(ComponentRef(KIND, str(n))) for n in drawn))]

    # ---------------------------------------------------------------- helpers

    def _state_tasks(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, late_ok: bool = False
    ) -> None:
        data = self.data(state)
        seen: list[int] = []
        for arg in args:
            apos = arg.pos or pos
            v = arg.value
            n = _task_number(v)
            if n is None:
                token = f"{v.kind}:{v.name}" if isinstance(v, ComponentRef) else str(v)
                state.flag("TASK-TOKEN", apos, token=token)
                continue
            if n in seen:
                state.flag("TASK-TWICE", apos, task=n)
                continue
            seen.append(n)
            if 3 in state.scorings_done and not late_ok:
                state.flag("TASK-LATE", apos, task=n)
                continue
            if n in data.open:
                continue  # stated again: the same open tile
            if len(data.open) >= 3:
                state.flag(
                    "TASK-COUNT", apos, task=n, open=" ".join(f"task:{k}" for k in data.open)
                )
                continue
            data.open.append(n)


def _task_number(value: object) -> int | None:
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    if not value.name.isdigit():
        return None
    n = int(value.name)
    return n if n in TASKS else None


DEFAULTS.update({k: v[0] for k, v in Wuensche.options.items()})
