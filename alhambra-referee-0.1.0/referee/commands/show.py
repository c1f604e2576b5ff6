"""``alhambra-referee show FILE [--at TURN|Lline|start|end] [--player NAME]``.

The state of the table at any point of a record, or of a position file: every Alhambra drawn
with its walls, the reserve, hand and score of each player, the market, the money display and
who is to move. The helpers here (reading a file, choosing the moment, building the table view)
are shared by ``explain``, ``legal`` and ``render``.

``--at`` syntax (documented in ``docs/dispute-tools.md``):

* ``12``    after turn 12 (the turn numbered 12, counting every player's turns)
* ``L40``   after line 40 of the file (everything on lines 1-40 has happened)
* ``S2``    right after the line ``scoring 2``
* ``start`` before the first turn (after the setup lines)
* ``end``   after the last line (the default)
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import click
import yaml

from referee.catalogue import Currency, TileKind
from referee.commands._input import no_games_message, read_text, real_games, shown_name
from referee.engine.state import EMPTY
from referee.geometry import Alhambra, outer_wall_runs
from referee.geometry.walls import WallMode
from referee.notation.messages import localize
from referee.record.model import (
    CardRef,
    Coord,
    Game,
    Header,
    Position,
    TileRef,
)
from referee.reports.i18n import current_lang, fmt_card, fmt_tile, lang_option, register, t
from referee.reports.terminal import (
    PlayerView,
    TableView,
    cells_of,
    draw_table,
    want_color,
)

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_SYNTAX = 2
EXIT_USAGE = 3

# --------------------------------------------------------------------------------- --at

AtKind = Literal["turn", "line", "start", "end", "scoring"]


@dataclass(frozen=True)
class At:
    """A moment of a record: after turn N, after line N, the start, the end, or scoring N."""

    kind: AtKind
    n: int = 0

    def describe(self, lang: str) -> str:
        if self.kind == "turn":
            return t("after_turn", lang, n=self.n)
        if self.kind == "line":
            return t("after_line", lang, n=self.n)
        if self.kind == "start":
            return t("at_start", lang)
        if self.kind == "scoring":
            return t("at_scoring", lang, n=self.n)
        return t("at_end", lang)


_AT_RE = re.compile(
    r"^\s*(?:(?P<turn>\d+)|l(?:ine)?\s*(?P<line>\d+)|s(?:coring)?\s*(?P<scoring>[123]))\s*$",
    re.IGNORECASE,
)


def parse_at(value: str | None) -> At:
    """``12`` -> after turn 12; ``L40`` -> after line 40; ``start``; ``end`` (and None)."""
    if value is None:
        return At("end")
    low = value.strip().lower()
    if low in ("end", "last", "ende"):
        return At("end")
    if low in ("start", "0", "anfang"):
        return At("start")
    m = _AT_RE.match(value)
    if not m:
        raise click.BadParameter(
            t("err.at", current_lang(), value=value),
            param_hint="--at",
        )
    if m.group("turn"):
        return At("turn", int(m.group("turn")))
    if m.group("scoring"):
        return At("scoring", int(m.group("scoring")))
    return At("line", int(m.group("line")))


def _at_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> At:
    return parse_at(value)


def _ats_callback(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[tuple[str, At], ...]:
    """Several ``--at`` points: ``(text as given, moment)`` each; none given: the end."""
    if not value:
        return (("end", At("end")),)
    return tuple((v, parse_at(v)) for v in value)


AT_METAVAR = "TURN|L<line>|S<scoring>|start|end"

at_option = click.option(
    "--at",
    "at",
    default=None,
    callback=_at_callback,
    metavar=AT_METAVAR,
    help="The moment: after turn N (12), after line N (L40), after scoring N (S2), start, or "
    "end (default).",
)
ats_option = click.option(
    "--at",
    "ats",
    multiple=True,
    callback=_ats_callback,
    metavar=AT_METAVAR,
    help="The moment: after turn N (12), after line N (L40), after scoring N (S2), start, or "
    "end (default). Repeat it to ask at several moments in one call.",
)


def player_option_with(help_text: str) -> Any:
    """``--player NAME`` with the help that says what it means for this command."""
    return click.option("--player", "player", default=None, metavar="NAME", help=help_text)


player_option = player_option_with(
    "Show only this player's Alhambra, hand, reserve and score (default: every player)."
)
format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"], case_sensitive=False),
    default="text",
    show_default=True,
    help="Output format.",
)
show_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml", "record"], case_sensitive=False),
    default="text",
    show_default=True,
    help="Output format (record: the moment as a position block that check, show and score "
    "read, with the modules' lines).",
)
color_option = click.option(
    "--color",
    "color_mode",
    type=click.Choice(["auto", "always", "never"], case_sensitive=False),
    default="auto",
    show_default=True,
    help="Colour the drawing (auto: only on a terminal and without NO_COLOR).",
)

# ----------------------------------------------------------------------------- moments


@dataclass
class PlayerSide:
    """One player at the chosen moment, in the shape every dispute tool needs."""

    name: str
    alhambra: Alhambra
    reserve: list[Any] = field(default_factory=list)
    hand: list[Any] | None = None
    score: int | None = None
    counts: dict[str, int] | None = None
    wall: int | None = None
    unknown_tiles: int = 0
    marks: dict[Coord, str] = field(default_factory=dict)  # module tokens on tiles (E17)
    area: tuple[tuple[str, str], ...] = ()  # module lines for the player's area (en, de)


@dataclass
class Situation:
    """The table at one moment of a game, plus what is needed to check an action there."""

    game: Game
    at: At
    players: list[PlayerSide]
    market: dict[Currency, Any] | None
    display: list[Any] | None
    dirk: list[Any] | None = None
    to_move: str | None = None
    game_over: bool = False
    scorings_done: int | None = None
    state: Any = None  # the engine's GameState when the moment came from a replay
    profile: Any = None
    violations: list[Any] = field(default_factory=list)  # rule violations up to the moment
    position_only: bool = False
    market_marks: dict[Currency, str] = field(default_factory=dict)  # module tokens on fields
    market_marks_de: dict[Currency, str] = field(default_factory=dict)  # the same in German

    def marks(self, lang: str) -> dict[Currency, str]:
        """The module tokens on the market fields in ``lang``."""
        return self.market_marks_de if lang == "de" else self.market_marks

    def player(self, name: str | None) -> PlayerSide:
        """The named player (case-insensitive); None: the player to move, else the first."""
        if name is None:
            wanted = self.to_move
            if wanted is None:
                return self.players[0]
            name = wanted
        for p in self.players:
            if p.name.lower() == name.lower():
                return p
        names = ", ".join(p.name for p in self.players)
        raise click.BadParameter(
            t("err.no_player", current_lang(), name=name, names=names), param_hint="--player"
        )

    def table(self, lang: str) -> TableView:
        return TableView(
            players=tuple(_player_view(p, lang) for p in self.players),
            market=self.market,
            market_marks=self.marks(lang),
            display=None if self.display is None else tuple(self.display),
            dirk=None if self.dirk is None else tuple(self.dirk),
            to_move=self.to_move,
            game_over=self.game_over,
            scorings_done=self.scorings_done,
            where=self.where(lang),
        )

    def where(self, lang: str) -> str:
        if self.position_only and self.at.kind == "end":
            line = next((item.pos.line for item in self.game.body if isinstance(item, Position)), 0)
            return t("position_block", lang, line=line)
        return self.at.describe(lang)


def record_text(sit: Situation) -> str:
    """The moment as a record of its own: the game's header tags (its result left out) and
    a ``position`` block (``referee.engine.position_text``) that ``check``, ``show`` and
    ``score`` read back to the same table and module state."""
    from referee.engine.position_compare import read_back_losses
    from referee.engine.position_text import position_lines
    from referee.notation.tokens import quote

    lines = [f"[{h.name} {quote(h.value)}]" for h in sit.game.headers if h.name.lower() != "result"]
    if sit.state is None:  # pragma: no cover - a replayed moment always has a state
        return "\n".join(lines) + "\n"
    body = position_lines(sit.state)
    text = "\n".join([*lines, "", *body] if lines else body) + "\n"
    lost = read_back_losses(sit.state, text)
    if lost:  # said in the block (and by `show` to the user), never dropped silently
        body.insert(1, "  # reads back without: " + "; ".join(lost))
        text = "\n".join([*lines, "", *body] if lines else body) + "\n"
    return text


def _player_view(p: PlayerSide, lang: str) -> PlayerView:
    return PlayerView(
        name=p.name,
        score=p.score,
        hand=None if p.hand is None else tuple(p.hand),
        reserve=tuple(p.reserve),
        alhambra=cells_of(p.alhambra, p.marks),
        counts=p.counts,
        wall=p.wall,
        unknown_tiles=p.unknown_tiles,
        area=p.area,
    )


def _tile_of(ref: Any) -> Any:
    """A placeable piece from a record token: the catalogue tile when known, else the ref."""
    if isinstance(ref, TileKind):
        return ref
    if isinstance(ref, TileRef):
        if ref.kind is not None:
            return ref.kind
        if ref.candidates:
            return ref.candidates[0]
        return ref
    return ref


def _card_of(ref: Any) -> Any:
    if isinstance(ref, CardRef):
        return ref.card if ref.card is not None else ref
    return ref


# ------------------------------------------------------------------------------ reading


def read_games(path: str) -> list[Game]:
    """Every game of a record file (``-``: standard input); unreadable input, syntax errors and
    a file without any game exit with code 2."""
    source = shown_name(path)
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise click.ClickException(
            t("err.unreadable", current_lang(), path=source, why=why)
        ) from exc
    games = real_games(parse_text(text, source))
    errors = [e for g in games for e in g.errors]
    if errors:
        lang = current_lang()
        lines = [
            f"{source}:{e.pos.line}:{e.pos.column}: {localize(e.message, lang)}" for e in errors
        ]
        raise click.ClickException("\n".join(lines))
    if not games:
        raise click.ClickException(no_games_message(path, current_lang()))
    return games


def parse_text(text: str, source: str) -> list[Game]:
    """Every game of a text, through the notation package's parser."""
    from referee import notation

    return notation.parse_text(text, source)


def pick_game(games: list[Game], number: int | None) -> Game:
    if number is None:
        return games[0]
    if not 1 <= number <= len(games):
        raise click.BadParameter(
            t(
                "err.game_number.one" if len(games) == 1 else "err.game_number",
                current_lang(),
                n=len(games),
            ),
            param_hint="--game",
        )
    return games[number - 1]


def load_game(path: str, game_no: int | None = None) -> Game:
    """The chosen game of a record file (``-``: standard input), read once."""
    return pick_game(read_games(path), game_no)


def load_situation(path: str, at: At, game_no: int | None = None) -> Situation:
    """The situation of ``path``'s game at moment ``at``."""
    return situation_of(load_game(path, game_no), at)


def situation_of(game: Game, at: At) -> Situation:
    """The situation of a game at moment ``at``, from the engine's replay (a position block is
    read by the engine's position reader like any other line)."""
    only_position = any(isinstance(item, Position) for item in game.body) and all(
        isinstance(item, Position) or type(item).__name__ == "CommentLine" for item in game.body
    )
    sit = situation_from_replay(game, at)
    if only_position and sit.state is not None:
        # what a position does not state is unknown, not empty; counts are not a layout
        for p, ps in zip(sit.players, sit.state.players, strict=True):
            if ps.counts is not None:
                p.counts = {k.code: n for k, n in ps.counts.items() if n}
            p.wall = ps.wall_claim
            if not ps.hand_known:
                p.hand = None
            if not ps.score_known:
                p.score = None
        sit.position_only = True
    return sit


def replay_state(game: Game, at: At) -> tuple[Any, list[Any]]:
    """The engine's state at the moment ``at`` (:func:`referee.engine.walk.state_at`) and the
    violations up to it; a moment the record does not reach is a usage error."""
    from referee.engine.walk import At as EngineAt
    from referee.engine.walk import NotReached, state_at

    if not game.players:
        names = _position_players(game)
        if not names:
            where = f"{game.source}:{game.start_line}"
            raise click.ClickException(t("err.no_players", current_lang(), where=where))
        # a position file may leave out the Players header: its player sections name them
        game = dataclasses.replace(
            game, headers=(*game.headers, Header("Players", ", ".join(names)))
        )
    try:
        return state_at(game, EngineAt(at.kind, at.n))
    except NotReached as exc:
        if at.kind == "turn":
            raise click.BadParameter(
                t("err.turns", current_lang(), n=exc.turns, wanted=at.n), param_hint="--at"
            ) from exc
        raise click.BadParameter(
            t("err.no_scoring", current_lang(), n=at.n), param_hint="--at"
        ) from exc


def _position_players(game: Game) -> list[str]:
    for item in game.body:
        if isinstance(item, Position):
            return [p.player.name for p in item.players]
    return []


def situation_from_replay(game: Game, at: At) -> Situation:
    """Replay the record to the moment with the engine."""
    state, violations = replay_state(game, at)
    return situation_from_state(game, state, at, violations)


def situation_from_state(game: Game, state: Any, at: At, violations: Any = ()) -> Situation:
    """A situation from the engine's ``GameState`` (``referee.engine.state``)."""
    players = []
    for ps in state.players:
        hand: list[Any] = sorted(ps.hand.elements(), key=lambda c: c.sort_key)
        hand.extend(CardRef(None) for _ in range(getattr(ps, "hand_unknown", 0)))
        players.append(
            PlayerSide(
                name=ps.name,
                alhambra=ps.alhambra,
                reserve=[x if x is not None else TileRef(None, None, None, ()) for x in ps.reserve],
                hand=hand,
                score=ps.score,
                unknown_tiles=getattr(ps, "alhambra_unknown", 0),
                marks=state.ext.cell_marks(state, ps),
                area=tuple(state.ext.player_area(state, ps)),
            )
        )
    market: dict[Currency, Any] = {}
    for i, slot in enumerate(state.market[:4]):
        cur = Currency.of_field(i + 1)
        if slot is None:
            market[cur] = TileRef(None, None, None, ())
        elif isinstance(slot, TileKind):
            market[cur] = slot
        elif slot is EMPTY:
            market[cur] = None
        else:  # a module's piece on the field (a medina, a square, a bazaar, ...)
            market[cur] = slot
    display = [c if c is not None else CardRef(None) for c in state.display]
    dirk = None
    if state.dirk is not None:
        dirk = [x if x is not None else TileRef(None, None, None, ()) for x in state.dirk]
    to_move = None
    turn = state.turn
    if turn is not None and not turn.over:
        to_move = state.players[turn.player].name
    elif state.next_player is not None:
        to_move = state.players[state.next_player].name
    return Situation(
        game=game,
        at=at,
        players=players,
        market=market,
        display=display,
        dirk=dirk,
        to_move=to_move,
        game_over=bool(state.game_over),
        scorings_done=len(state.scorings_done),
        state=state,
        profile=state.profile,
        violations=list(violations),
        market_marks={
            Currency.of_field(i + 1): text
            for i, text in state.ext.market_marks(state).items()
            if 0 <= i < 4
        },
        market_marks_de={
            Currency.of_field(i + 1): text
            for i, text in state.ext.market_marks(state, "de").items()
            if 0 <= i < 4
        },
    )


# ------------------------------------------------------------------------------- output


def longest_wall(alh: Alhambra, profile: Any = None) -> tuple[tuple[Coord, Any], ...]:
    """The segments of the longest outer wall (empty when there is none)."""
    mode = getattr(profile, "wall_run", "trail") if profile is not None else "trail"
    try:
        runs = outer_wall_runs(alh, cast(WallMode, mode))
    except MemoryError:  # no drawing rather than one without the wall's trace
        raise
    except Exception:
        return ()
    return tuple(runs[0].segments) if runs else ()


def _jsonable_tile(tile: Any) -> str | None:
    return None if tile is None else fmt_tile(tile, "en", "code")


def _jsonable_card(card: Any) -> str:
    return fmt_card(card, "en")


def _say_unstated(sit: Situation, lang: str, text: str) -> None:
    """Tell the user (standard error, EN/DE) what the written position ``text`` (the block
    :func:`record_text` wrote for ``sit``) does not state."""
    from referee.engine.position_text import unstated

    lost = unstated(sit.state, lang)
    if "# reads back without: " in text:
        lost.append(t("show.record.differs", lang))
    if lost:
        click.echo(t("show.record.unstated", lang, what="; ".join(lost)), err=True)


register(
    "show.record.unstated",
    "note: this position block does not state everything of the moment; it reads back "
    "without: {what}",
    "Hinweis: dieser Stellungsblock gibt den Zeitpunkt nicht vollständig an; eingelesen "
    "fehlt: {what}",
)
register(
    "show.record.differs",
    "part of the modules' state (see the comment in the block)",
    "ein Teil des Modulzustands (siehe den Kommentar im Block)",
)
register(
    "show.violations",
    "{n} rule violations up to this moment: see `alhambra-referee check {file}`",
    "{n} Regelverstöße bis hierher: siehe `alhambra-referee check {file}`",
)
register(
    "show.violations.one",
    "1 rule violation up to this moment: see `alhambra-referee check {file}`",
    "1 Regelverstoß bis hierher: siehe `alhambra-referee check {file}`",
)


def situation_data(sit: Situation, lang: str, only: str | None = None) -> dict[str, Any]:
    """The situation as plain data (for ``--format json|yaml``)."""
    players = []
    for p in sit.players:
        if only is not None and p.name.lower() != only.lower():
            continue
        cells = []
        for at, piece in sorted(p.alhambra.items(), key=lambda cp: (-cp[0].y, cp[0].x)):
            cell = cells_of({at: piece})[at]
            cells.append(
                {
                    "at": str(at),
                    "tile": "fountain" if cell.is_fountain else cell.text,
                    "type": None if cell.type is None else cell.type.name_in(lang),
                    "price": cell.price,
                    "walls": "".join(s.value for s in sorted(cell.walls, key=_side_order)),
                }
            )
        wall = longest_wall(p.alhambra, sit.profile)
        players.append(
            {
                "name": p.name,
                "score": p.score,
                "hand": None if p.hand is None else [_jsonable_card(c) for c in p.hand],
                "reserve": [_jsonable_tile(x) for x in p.reserve],
                "alhambra": cells,
                "longest_wall": len(wall) if p.alhambra.cells else p.wall,
                "counts": p.counts,
            }
        )
    return {
        "at": sit.where(lang),
        "to_move": None if sit.game_over else sit.to_move,
        "game_over": sit.game_over,
        "scorings_done": sit.scorings_done,
        "market": None
        if sit.market is None
        else {cur.code: _jsonable_tile(tile) for cur, tile in sit.market.items()},
        "display": None if sit.display is None else [_jsonable_card(c) for c in sit.display],
        "dirk": None if sit.dirk is None else [_jsonable_tile(x) for x in sit.dirk],
        "players": players,
        "modules": {} if sit.state is None else sit.state.ext.views(sit.state),
        "violations": [
            v.to_dict(lang) if hasattr(v, "to_dict") else str(v) for v in sit.violations
        ],
    }


def module_lines(views: Mapping[str, Any], lang: str, only: str | None = None) -> list[str]:
    """Each enabled module's state as text lines (from the modules' own views)."""
    out: list[str] = []
    for view in views.values():
        title = view.get("labels", {}).get(lang) or view.get("labels", {}).get("en", "")
        lines = [f"  {k}: {v}" for k, v in (view.get("table") or {}).items()]
        for name, values in (view.get("players") or {}).items():
            if only is not None and name.lower() != only.lower():
                continue
            lines.append(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in values.items()))
        if lines:
            out += ["", title, "=" * len(title), *lines]
    return out


def _side_order(side: Any) -> int:
    return "NESW".index(side.value)


def emit_data(data: Mapping[str, Any], fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(yaml.safe_dump(dict(data), allow_unicode=True, sort_keys=False), nl=False)


def use_color(mode: str) -> bool:
    return want_color(mode, sys.stdout)  # type: ignore[arg-type]


def check_player(sit: Situation, name: str | None) -> None:
    if name is not None:
        sit.player(name)


def guarded(func: Any) -> Any:
    """Turn unexpected errors into a clean message (exit 2): no traceback reaches the user."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            raise  # a closed output pipe: the CLI entry ends quietly with 141
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            raise click.ClickException(t("err.internal", current_lang(), error=error)) from exc

    return wrapper


@click.command(name="show")
@click.argument("file", type=click.Path(dir_okay=False))
@at_option
@player_option
@click.option("--game", "game_no", type=int, default=None, help="Which game of the file (1..).")
@show_format_option
@color_option
@lang_option
@guarded
def command(
    file: str,
    at: At,
    player: str | None,
    game_no: int | None,
    fmt: str,
    color_mode: str,
    lang: str,
) -> None:
    """Show the table at any moment of a record or position file (FILE; - reads standard
    input).

    Each Alhambra is drawn north up with heavy lines for walls and light lines for open sides,
    the type and price in each cell and ** for the fountain; then reserve, hand and score of
    each player, the market, the money display and who is to move.

    \b
    Examples:
      alhambra-referee show game.alh --at 12
      alhambra-referee show game.alh --at L40 --player Anna
      alhambra-referee show position.alh --lang de
    """
    sit = load_situation(file, at, game_no)
    check_player(sit, player)
    if fmt == "record":
        text = record_text(sit)
        click.echo(text, nl=False)
        if sit.state is not None:
            _say_unstated(sit, lang, text)
        return
    if fmt != "text":
        emit_data(situation_data(sit, lang, player), fmt)
        return
    color = use_color(color_mode)
    click.echo(draw_table(sit.table(lang), lang, color=color, only=player), nl=False, color=color)
    if sit.state is not None:
        for line in module_lines(sit.state.ext.views(sit.state, lang), lang, player):
            click.echo(line)
    errors = [v for v in sit.violations if getattr(v, "severity", "error") == "error"]
    if errors:
        key = "show.violations.one" if len(errors) == 1 else "show.violations"
        click.echo(t(key, lang, n=len(errors), file=file))
