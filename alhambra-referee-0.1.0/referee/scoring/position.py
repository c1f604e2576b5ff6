"""Scoring a finished physical game from a position block (the ``score`` command's core).

The position gives each player's Alhambra (tiles with coordinates), reserve and score before
the scoring, or the counts fallback (``counts P=2 A=3 wall=7``), and Dirk's tiles in a
two-player game. Before scoring, the layouts are checked: every catalogue tile is used at
most once across all Alhambras, reserves and Dirk (``rulebook-base-de-2003.txt``,
"Spielmaterial": "54 Gebäudeplättchen"), and every Alhambra keeps the building rules
("Alhambra-Bauregeln"). Problems are reported, never a reason to refuse: the scoring is still
computed from what was written.

The position is read by the engine's position reader (``referee.engine.start_state`` and
``apply_item``), so module components (squares, bonus cards ...) are the modules' own, and it
is scored by :func:`referee.scoring.state.score_state`, the code path of a ``scoring`` line in a
game. What the modules find wrong in the position is reported with their rule codes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.catalogue import BuildingType, TileKind
from referee.engine.rules import BIGBOX, Violation
from referee.geometry import ORIGIN, Alhambra, layout_problems
from referee.geometry.rules import PROBLEM_SECTION
from referee.messages import fill, lookup, value
from referee.notation import formatter
from referee.profiles import DEFAULT_PROFILE, RuleProfile
from referee.record.model import (
    ComponentRef,
    Coord,
    Game,
    Header,
    PlacedTile,
    PlayerPosition,
    Pos,
    Position,
    TileRef,
)
from referee.scoring.core import RULES_FILE, ScoringResult

if TYPE_CHECKING:
    from referee.engine.state import GameState

SECTION_MATERIAL = "Spielmaterial"
SECTION_BUILD = "Alhambra-Bauregeln"
SECTION_TWO = "Sonderregel für das Spiel zu zweit"

# code -> rulebook section; the texts (English, German, with {params} filled from the problem)
# are in the message catalogue (referee.messages, keys ``LAYOUT:CODE``).
SECTIONS: dict[str, str] = {
    "TILE-TWICE": SECTION_MATERIAL,
    "TILE-UNKNOWN": SECTION_MATERIAL,
    "TILE-NONE": SECTION_MATERIAL,
    "TILE-AMBIGUOUS": SECTION_MATERIAL,
    "CELL-TWICE": SECTION_BUILD,
    "CELL-FOUNTAIN": SECTION_BUILD,
    "DIRK-PLAYERS": SECTION_TWO,
    "COUNTS-DIFFER": SECTION_BUILD,
    "WALL-DIFFERS": "Siegpunkte für die Außenmauern",
    "PLAYER-MISSING": "Spielvorbereitung",
    "PLAYER-TWICE": "Spielvorbereitung",
    "NO-POSITION": "",
    "UNKNOWN-PLAYER": "Spielvorbereitung",
    "SETUP-PLAYERS": "Spielvorbereitung",
    "DIRK-MISSING": SECTION_TWO,
}


@dataclass(frozen=True)
class LayoutProblem:
    """A problem with the stated position: code, where, whose, and message parameters."""

    code: str
    player: str | None
    pos: Pos
    params: dict[str, str] = field(default_factory=dict)
    violation: Violation | None = None  # a module's finding in the position (own rule text)
    said: Any = None  # the message as the engine says it (a Text: the tile, the sides)

    @property
    def section(self) -> str:
        if self.violation is not None:
            return self.violation.cite()
        if self.code in PROBLEM_SECTION:
            return PROBLEM_SECTION[self.code]
        return SECTIONS[self.code]

    @property
    def rule_text(self) -> str:
        """``rulebook-base-de-2003.txt, Section``; a module's rule names its own file."""
        if not self.section:
            return ""
        if self.violation is not None:
            return self.section
        return f"{RULES_FILE}, {self.section}"

    def message(self, lang: str = "en") -> str:
        if self.violation is not None:
            return self.violation.message(lang)
        if self.said is not None:
            return str(value(lang, self.said))
        if self.code in PROBLEM_SECTION:
            text = lookup(lang, f"GEOMETRY:{self.code}") or self.code
            cells = self.params.get("cells", "")
            return f"{text} ({cells})" if cells else text
        return fill(lookup(lang, f"LAYOUT:{self.code}") or self.code, self.params)

    def text(self, source: str, lang: str = "en") -> str:
        who = f"{self.player}: " if self.player else ""
        where = f"[{self.rule_text}]" if self.section else ""
        return f"{source}:{self.pos}: {who}{self.code}: {self.message(lang)} {where}".rstrip()

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "code": self.code,
            "player": self.player,
            "line": self.pos.line,
            "column": self.pos.column,
            "rule": self.rule_text or None,
            "message": self.message(lang),
        }


def _wall_mismatch(alh: Alhambra, at: Any, side: Any) -> Any:
    """PLACE-WALL for one side of a typed-in layout, in the words ``explain`` uses: the tile
    at ``at``, its side ``side`` (wall or open) and the neighbour's side it meets."""
    from referee.engine.actions.building import PieceName
    from referee.messages import Text

    tile = alh.get(at)
    nb = at.neighbour(side)
    q = alh.get(nb)
    its = "arcades" if getattr(tile, "type", None) is BuildingType.ARCADES else "other"
    mine = "wall" if side in getattr(tile, "walls", ()) else "open"
    theirs = "wall" if side.opposite in getattr(q, "walls", ()) else "open"
    of = (
        Text("PLACE-WALL.of/fountain")
        if nb == ORIGIN
        else Text("PLACE-WALL.of/tile", tile=str(getattr(q, "code", q)))
    )
    if at == ORIGIN:  # the fountain has no walls of its own to name: speak from the tile
        return _wall_mismatch(alh, nb, side.opposite)
    detail = Text(
        "PLACE-WALL.side/text",
        its=Text(f"PLACE-WALL.its/{its}"),
        side=Text(f"SIDE/{side.name}"),
        mine=Text(f"PLACE-WALL.mine/{mine}"),
        theirs=Text(f"PLACE-WALL.theirs/{theirs}"),
        opposite=Text(f"SIDE/{side.opposite.name}"),
        neighbour=of,
        at=str(nb),
    )
    return Text("PLACE-WALL", tile=PieceName(tile), at=str(at), detail=detail)


@dataclass(frozen=True)
class PositionScore:
    """What ``score`` found for one game: the problems and the scoring."""

    problems: tuple[LayoutProblem, ...]
    result: ScoringResult | None
    alhambras: dict[str, Alhambra]
    counts_only: tuple[str, ...] = ()  # players scored from stated counts (not verified)
    no_score: tuple[str, ...] = ()  # players without a ``score`` line (their points taken as 0)


def tile_label(ref: object) -> str:
    if isinstance(ref, ComponentRef):
        return f"{ref.kind}:{ref.name}"
    if isinstance(ref, TileRef):
        if not ref.known:
            return "?"
        walls = ""
        if ref.walls is not None:
            walls = (
                "".join(
                    s.value.lower() for s in sorted(ref.walls, key=lambda s: "NESW".index(s.value))
                )
                or "-"
            )
        return f"{ref.type.code if ref.type else '?'}{ref.price}{walls}"
    return str(ref)


class _Resolver:
    """Turns tile references into catalogue tiles, counting every use."""

    def __init__(self) -> None:
        self.uses: dict[TileKind, list[tuple[str | None, Pos]]] = defaultdict(list)
        self.problems: list[LayoutProblem] = []

    def resolve(self, ref: object, player: str | None, pos: Pos) -> TileKind | None:
        if isinstance(ref, ComponentRef):
            return None  # a module's component: the module reads it (and reports it)
        if not isinstance(ref, TileRef) or not ref.known:
            self.problems.append(LayoutProblem("TILE-UNKNOWN", player, pos))
            return None
        if not ref.candidates:
            self.problems.append(LayoutProblem("TILE-NONE", player, pos, {"tile": tile_label(ref)}))
            return None
        kind = ref.candidates[0]
        if len(ref.candidates) > 1:
            unused = [c for c in ref.candidates if not self.uses.get(c)]
            kind = unused[0] if unused else ref.candidates[0]
            self.problems.append(
                LayoutProblem(
                    "TILE-AMBIGUOUS",
                    player,
                    pos,
                    {
                        "tile": tile_label(ref),
                        "options": ", ".join(c.full_code for c in ref.candidates),
                        "taken": kind.full_code,
                    },
                )
            )
        self.uses[kind].append((player, pos))
        return kind

    def duplicates(self) -> list[LayoutProblem]:
        found: list[LayoutProblem] = []
        for kind, uses in self.uses.items():
            if len(uses) > 1:
                for player, pos in uses[1:]:
                    found.append(
                        LayoutProblem(
                            "TILE-TWICE", player, pos, {"tile": kind.full_code, "n": str(len(uses))}
                        )
                    )
        return found


def find_position(game: Game) -> Position | None:
    """The position block to score: the last one in the game."""
    found = [item for item in game.body if isinstance(item, Position)]
    return found[-1] if found else None


def _build(
    pp: PlayerPosition, name: str, resolver: _Resolver, problems: list[LayoutProblem]
) -> tuple[dict[Coord, TileKind], dict[tuple[int, int], PlacedTile]]:
    """Resolve a player's Alhambra lines: the base tile taken for each cell, and the line of
    each cell (module components included) for the positions of problems."""
    chosen: dict[Coord, TileKind] = {}
    where: dict[tuple[int, int], PlacedTile] = {}
    for placed in pp.alhambra:
        kind = resolver.resolve(placed.tile, name, placed.pos)
        if placed.at == ORIGIN:
            problems.append(LayoutProblem("CELL-FOUNTAIN", name, placed.pos, {"at": str(ORIGIN)}))
            continue
        if (placed.at.x, placed.at.y) in where:
            kept = formatter.tile(where[(placed.at.x, placed.at.y)].tile)
            params = {"at": str(placed.at), "kept": kept, "left": formatter.tile(placed.tile)}
            problems.append(LayoutProblem("CELL-TWICE", name, placed.pos, params))
            continue
        if kind is None and not isinstance(placed.tile, ComponentRef):
            continue
        if kind is not None:
            chosen[placed.at] = kind
        where[(placed.at.x, placed.at.y)] = placed
    return chosen, where


def _fmt_counts(counts: dict[BuildingType, int]) -> str:
    return " ".join(f"{t.code}={n}" for t, n in counts.items() if n) or "-"


_MODULE_CODES = frozenset({"MODULE-NOT-ENABLED", "UNKNOWN-VERB"})


def _is_module_finding(v: Violation) -> bool:
    """A finding of the engine's position reader that the base checks here do not cover: a
    module's own rule, or a module component no enabled module takes."""
    return v.code in _MODULE_CODES or v.rule.section.startswith(BIGBOX)


def position_state(
    game: Game, position: Position, profile: RuleProfile, players: list[str] | None = None
) -> tuple[GameState, list[Violation]]:
    """The engine's state of the position: the players are those the position lists (in its
    order), the modules those of the ``Modules`` header. Returns the state and the findings of
    the position reader."""
    from referee.engine import apply_item, start_state

    names = ", ".join(
        players if players is not None else [pp.player.name for pp in position.players]
    )
    headers = tuple(h for h in game.headers if h.name.lower() != "players")
    state = start_state(replace(game, headers=(*headers, Header("Players", names))), profile)
    before = len(state.found)
    apply_item(state, position)
    return state, list(state.found[before:])


def _module_needs(state: GameState, position: Position, round_no: int) -> list[Violation]:
    """What the enabled modules need to score ``round_no`` and the position leaves out
    (``Module.position_scoring``): their findings, at the position block."""
    from referee.engine.context import Context

    before = len(state.found)
    ctx = Context(state, position.pos)
    for m in state.ext.modules:
        m.position_scoring(ctx, round_no)
    return list(state.found[before:])


def score_position(
    game: Game, profile: RuleProfile = DEFAULT_PROFILE, round_no: int = 3
) -> PositionScore:
    """Check the layouts of the game's position block and score it."""
    position = find_position(game)
    if position is None:
        return PositionScore(
            (LayoutProblem("NO-POSITION", None, Pos(game.start_line, 1)),), None, {}
        )
    problems: list[LayoutProblem] = []
    sections, dirk_sections, n_players = _sections(game, position, problems)
    seen: set[str] = set()
    unique: list[PlayerPosition] = []
    for pp in sections:
        if pp.player.name.lower() in seen:  # one section per player: the first one counts
            problems.append(LayoutProblem("PLAYER-TWICE", None, pp.pos, {"name": pp.player.name}))
            continue
        seen.add(pp.player.name.lower())
        unique.append(pp)
    sections = unique
    resolver = _Resolver()
    chosen: dict[str, dict[Coord, TileKind]] = {}
    where: dict[str, dict[tuple[int, int], PlacedTile]] = {}
    stated: dict[str, dict[BuildingType, int]] = {}
    for pp in sections:
        name = pp.player.name
        for ref in pp.reserve:
            resolver.resolve(ref, name, getattr(ref, "pos", pp.pos))
        mine: dict[BuildingType, int] = {}
        for part in pp.counts:
            if isinstance(part.key, BuildingType):
                mine[part.key] = mine.get(part.key, 0) + part.points
        stated[name] = mine
        if pp.alhambra or not pp.counts:
            chosen[name], where[name] = _build(pp, name, resolver, problems)
    dirk_kinds: list[TileKind] = []
    has_dirk = position.dirk is not None or bool(dirk_sections)
    if has_dirk:
        # Dirk's buildings: the tiles of the `dirk` line and of a `player Dirk` section (its
        # `alhambra` and `reserve` tiles, coordinates aside); its counts are the engine's
        refs = [(ref, getattr(ref, "pos", position.pos)) for ref in position.dirk or ()]
        for pp in dirk_sections:
            refs += [(placed.tile, placed.pos) for placed in pp.alhambra]
            refs += [(ref, getattr(ref, "pos", pp.pos)) for ref in pp.reserve]
        for ref, at in refs:
            kind = resolver.resolve(ref, "Dirk", at)
            if kind is not None:
                dirk_kinds.append(kind)
        if n_players != 2:
            problems.append(
                LayoutProblem("DIRK-PLAYERS", "Dirk", position.pos, {"n": str(n_players)})
            )
    elif n_players == 2:
        problems.append(LayoutProblem("DIRK-MISSING", "Dirk", position.pos))

    engine_position = replace(position, players=tuple(sections) + tuple(dirk_sections))
    state, found = position_state(
        game, engine_position, profile, [pp.player.name for pp in sections]
    )
    alhambras: dict[str, Alhambra] = {}
    for pp, p in zip(sections, state.players, strict=True):
        name = pp.player.name
        if name not in chosen:  # counts only: the stated counts and wall
            p.counts = {t: stated[name].get(t, 0) for t in BuildingType}
            p.wall_claim = pp.wall or 0
            continue
        # a typed-in layout: counts and wall written next to it are compared, not scored
        p.counts = None
        p.wall_claim = None
        alh = p.alhambra
        for at, kind in chosen[name].items():  # the tile reported as taken ("taken as ...")
            piece = alh.get(at)
            if isinstance(piece, TileKind) and piece != kind:
                alh.remove(at)
                alh.place(at, kind)
        alhambras[name] = alh
        line_pos = pp.alhambra[0].pos if pp.alhambra else pp.pos
        for prob in layout_problems(alh):
            if prob.sides:  # one finding per side that does not match, naming both pieces
                for c, side in prob.sides:
                    tile_at = c.neighbour(side) if c == ORIGIN else c  # the tile, not the fountain
                    placed = where[name].get((tile_at.x, tile_at.y))
                    said = _wall_mismatch(alh, c, side)
                    problems.append(
                        LayoutProblem(
                            prob.code,
                            name,
                            placed.pos if placed else line_pos,
                            {"cells": f"{c} {side.value}"},
                            said=said,
                        )
                    )
                continue
            cells = ", ".join(str(c) for c in prob.cells)
            known = [where[name][(c.x, c.y)] for c in prob.cells if (c.x, c.y) in where[name]]
            pos = known[0].pos if known else line_pos
            problems.append(LayoutProblem(prob.code, name, pos, {"cells": cells}))
        if pp.counts:
            actual = {t: n for t, n in alh.counts().items() if n}
            if {t: n for t, n in stated[name].items() if n} != actual:
                problems.append(
                    LayoutProblem(
                        "COUNTS-DIFFER",
                        name,
                        pp.counts[0].pos,
                        {"stated": _fmt_counts(stated[name]), "actual": _fmt_counts(actual)},
                    )
                )
    if not has_dirk:
        state.dirk = None
    elif n_players != 2:
        state.dirk = list(dirk_kinds)  # scored as written, reported as DIRK-PLAYERS
        counts: dict[BuildingType, int] = {}
        for pp in dirk_sections:
            for part in pp.counts:
                if isinstance(part.key, BuildingType):
                    counts[part.key] = counts.get(part.key, 0) + part.points
        state.modules["_dirk_counts"] = counts
    found += _module_needs(state, position, round_no)
    for v in found:
        if _is_module_finding(v):
            problems.append(LayoutProblem(v.code, v.player, Pos(v.line, v.column), violation=v))
    named = {pp.player.name.lower() for pp in sections}
    for name in game.players:
        if name.lower() not in named:
            problems.append(LayoutProblem("PLAYER-MISSING", None, position.pos, {"name": name}))
    problems = resolver.problems + resolver.duplicates() + problems
    problems.sort(key=lambda p: (p.pos.line, p.pos.column))
    from referee.scoring.state import score_state

    result = score_state(state, round_no)
    # wall stated next to a typed-in layout: compare
    for pp in sections:
        if pp.wall is not None and (pp.alhambra or not pp.counts):
            row = result.row(pp.player.name)
            if row is not None and row.wall is not None and row.wall.length != pp.wall:
                problems.append(
                    LayoutProblem(
                        "WALL-DIFFERS",
                        pp.player.name,
                        pp.pos,
                        {"stated": str(pp.wall), "actual": str(row.wall.length)},
                    )
                )
    counts_only = tuple(pp.player.name for pp in sections if pp.counts and not pp.alhambra)
    if any(pp.counts for pp in dirk_sections):
        counts_only += ("Dirk",)
    # a player without a score line is scored from 0: said, never silent (before scoring 1
    # nobody has points yet, so only from scoring 2 on)
    no_score = tuple(pp.player.name for pp in sections if pp.score is None and round_no > 1)
    return PositionScore(tuple(problems), result, alhambras, counts_only, no_score)


def _sections(
    game: Game, position: Position, problems: list[LayoutProblem]
) -> tuple[list[PlayerPosition], list[PlayerPosition], int]:
    """The position's player sections as ``(players, Dirk's sections, number of players)``.

    A ``player Dirk`` section is Dirk's (the imaginary third player of a two-player game,
    "Sonderregel für das Spiel zu zweit") unless a real player of the Players header is called
    Dirk. With a Players header, a section for any other name is reported (UNKNOWN-PLAYER, as
    ``check`` does) and not scored. Fewer than 2 or more than 6 players is reported.
    """
    header = [name.casefold() for name in game.players]
    dirk = [pp for pp in position.players if pp.player.name.casefold() == "dirk"]
    dirk = [] if "dirk" in header else dirk
    sections = [pp for pp in position.players if all(pp is not d for d in dirk)]
    if header:
        for pp in sections:
            if pp.player.name.casefold() not in header:
                problems.append(
                    LayoutProblem(
                        "UNKNOWN-PLAYER",
                        pp.player.name,
                        pp.player.pos if pp.player.pos.line else pp.pos,
                        {"name": pp.player.name, "names": ", ".join(game.players)},
                    )
                )
        sections = [pp for pp in sections if pp.player.name.casefold() in header]
    names = list(game.players) if header else [pp.player.name for pp in sections]
    n = len(names)
    if n < 2 or n > 6:
        problems.append(
            LayoutProblem(
                "SETUP-PLAYERS",
                None,
                position.pos,
                {
                    "n": str(n),
                    "players": "player" if n == 1 else "players",
                    "names": ", ".join(names) or "-",
                },
            )
        )
    return sections, dirk, n
