"""``alhambra-referee legal FILE [--at ...] [--tile T10w] [--player NAME]``.

Every legal cell for a building tile in a player's Alhambra, listed and marked on the drawing
(rulebook-base-de-2003.txt, "Alhambra-Bauregeln"). Without ``--tile``: for every tile in the
market and in the player's reserve.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

import click

from referee.catalogue import TileKind
from referee.commands._pieces import candidate_pieces, is_piece, resolve_piece
from referee.commands._queries import Query, Situations, check_sources, read_queries
from referee.commands.show import (
    At,
    PlayerSide,
    Situation,
    ats_option,
    color_option,
    emit_data,
    format_option,
    guarded,
    load_game,
    player_option_with,
    use_color,
)
from referee.record.model import ComponentRef, Coord
from referee.reports.i18n import current_lang, fmt_coords, fmt_tile, lang_option, register, t
from referee.reports.terminal import draw_alhambra

_TILE_TEXT = re.compile(r"[^\W\d]+\d+(?:[^\W\d]+|-)?", re.IGNORECASE)


_COMPONENT = re.compile(r"(?P<kind>[A-Za-z]+):(?P<name>[A-Za-z0-9_+-]+)")


def read_tile_option(text: str) -> TileKind | ComponentRef:
    """A catalogue tile from its notation (``T13``, ``G10n``, ``Turm13``, ``garden10N``), or a
    module piece's token (``md:5n``, ``sq:Tw``: the piece of that moment it names)."""
    from referee.notation.tokens import read_tile

    m = _COMPONENT.fullmatch(text.strip())
    if m:
        return ComponentRef(m.group("kind").lower(), m.group("name"))
    if not _TILE_TEXT.fullmatch(text.strip()):
        raise click.BadParameter(
            t("err.not_a_tile", current_lang(), text=text), param_hint="--tile"
        )
    try:
        _type, _price, _walls, candidates, problem = read_tile(text.strip())
    except (KeyError, AssertionError) as exc:
        raise click.BadParameter(
            t("err.not_a_tile", current_lang(), text=text), param_hint="--tile"
        ) from exc
    if problem:
        raise click.BadParameter(problem, param_hint="--tile")
    if len(candidates) != 1:
        options = ", ".join(c.full_code for c in candidates)
        raise click.BadParameter(
            t("err.ambiguous_tile", current_lang(), text=text, options=options),
            param_hint="--tile",
        )
    return candidates[0]


def legal_targets(sit: Situation, name: str, piece: Any) -> list[Coord]:
    """Every empty cell of ``name``'s Alhambra where ``piece`` may be built, as the engine's
    rule decisions say (modules included); sorted north to south, west to east."""
    from referee.engine.context import Context
    from referee.engine.legal import cells_for

    state = sit.state
    ps = state.player_named(name) if state is not None else None
    if ps is None:  # pragma: no cover - every situation comes from the engine
        return []
    return sorted(cells_for(Context(state), ps, piece), key=lambda c: (-c.y, c.x))


register(
    "err.no_such_piece",
    "{text}: no piece of this moment is named so (market, beside the market, reserve, or what "
    "a module action of {player} would give now)",
    "{text}: kein Teil dieses Zeitpunkts heißt so (Bauhof, neben dem Bauhof, Reserve oder was "
    "eine Modulaktion von {player} jetzt geben würde)",
)
register(
    "legal.module_actions",
    "Module actions open to {player} now",
    "Modulaktionen, die {player} jetzt offenstehen",
)
register(
    "legal.interrupts",
    "Out-of-turn lines {player} may play now",
    "Zeilen außerhalb des Zuges, die {player} jetzt spielen darf",
)


def _candidate_tiles(sit: Situation, side: PlayerSide) -> list[Any]:
    """Every market, side-offer and reserve piece, and what a module action would give."""
    state = sit.state
    ps = state.player_named(side.name) if state is not None else None
    if ps is None:  # pragma: no cover - every situation comes from the engine
        return []
    return [x for x in candidate_pieces(state, ps) if is_piece(x)]


def piece_named(sit: Situation, side: PlayerSide, wanted: TileKind | ComponentRef) -> Any:
    state = sit.state
    ps = state.player_named(side.name) if state is not None else None
    piece = None if ps is None else resolve_piece(state, ps, wanted)
    if piece is None:
        text = f"{wanted.kind}:{wanted.name}" if isinstance(wanted, ComponentRef) else str(wanted)
        raise click.BadParameter(
            t("err.no_such_piece", current_lang(), text=text, player=side.name),
            param_hint="--tile",
        )
    return piece


def _plays_module(a: Any) -> bool:
    from referee.record.model import Buy, ModuleAction, TakeMoney

    if isinstance(a, ModuleAction):
        return True
    if isinstance(a, Buy):
        return isinstance(a.tile, ComponentRef) or any(isinstance(c, ComponentRef) for c in a.paid)
    if isinstance(a, TakeMoney):
        return any(isinstance(c, ComponentRef) for c in a.cards)
    return False


def module_moves(sit: Situation, name: str) -> tuple[list[str], list[str]]:
    """The module actions open to ``name`` now (as if it were their turn when it is not) and
    the out-of-turn lines they may play, from the engine's generator, in notation."""
    from referee.engine import core
    from referee.engine.legal import legal_actions, legal_interrupts, owed_actions
    from referee.notation import formatter

    state = sit.state
    if state is None or not state.ext:
        return [], []
    ps = state.player_named(name)
    if ps is None:  # pragma: no cover - the name comes from the situation
        return [], []
    trial = state.copy()
    if trial.turn is None and not trial.game_over:
        core.begin_trial_turn(trial, ps.index)
    acts: list[str] = []
    owed = owed_actions(trial) if trial.turn is not None else []
    if owed and trial.turn is not None and trial.turn.player == ps.index:
        # "Anschließend ... sofort" (Neues Bauland): an owed step comes before anything else
        acts = list(dict.fromkeys(formatter.action(a) for a in owed))
    elif trial.turn is not None and trial.turn.player == ps.index:
        # the generator's actions that play a module: its verbs, its pieces bought, its money
        # paid or taken (placements of pieces are the cells listed above)
        for a in legal_actions(trial):
            if not _plays_module(a):
                continue
            text = formatter.action(a)
            if text not in acts:
                acts.append(text)
    lines: list[str] = []
    for line in legal_interrupts(state):
        if line.player is not None and line.player.name == name:
            text = ", ".join(formatter.action(a) for a in line.actions)
            if text not in lines:
                lines.append(text)
    return acts, lines


@dataclass
class LegalAnswer:
    """What ``legal`` answers: the data of the JSON answer and the lines of the text answer."""

    data: dict[str, Any]
    lines: list[str]


def answer(
    sit: Situation,
    tile: TileKind | ComponentRef | None,
    player: str | None,
    lang: str,
    color: bool,
) -> LegalAnswer:
    """Every legal cell for ``tile`` (None: every market, side-offer and reserve piece, and
    the pieces a module action would give) in the Alhambra of ``player`` (None: the player to
    move); without a tile also the module actions and out-of-turn lines open to the player."""
    side = sit.player(player)
    tiles = [piece_named(sit, side, tile)] if tile is not None else _candidate_tiles(sit, side)
    results = [(x, legal_targets(sit, side.name, x)) for x in tiles]
    acts, lines = module_moves(sit, side.name) if tile is None else ([], [])
    data: dict[str, Any] = {
        "player": side.name,
        "at": sit.where(lang),
        "section": "rulebook-base-de-2003.txt § Alhambra-Bauregeln",
        "tiles": [
            {
                "tile": fmt_tile(x, "en", "code"),
                "name": fmt_tile(x, lang, "name"),
                "cells": [str(c) for c in cells],
            }
            for x, cells in results
        ],
    }
    if acts or lines:
        data["module_actions"] = acts
        data["out_of_turn"] = lines
    out = [f"{side.name} \u2014 {sit.where(lang)}"]
    if not results:
        out.append(t("no_tiles_to_check", lang))
    for x, cells in results:
        name = fmt_tile(x, lang)
        out.append("")
        if cells:
            out.append(f"{t('legal_cells', lang, tile=name)}: {fmt_coords(cells)}")
        else:
            out.append(t("no_legal_cells", lang, tile=name))
        if tile is not None or len(results) == 1:
            out.append("")
            out.extend(
                ("  " + line).rstrip()
                for line in draw_alhambra(side.alhambra, marks=cells, color=color)
            )
            out.append("")
            out.append(t("legend_legal", lang, tile=fmt_tile(x, lang, "code")))
    for key, items in (("legal.module_actions", acts), ("legal.interrupts", lines)):
        if items:
            out.append("")
            out.append(t(key, lang, player=side.name) + ":")
            out.extend("  " + x for x in items)
    out.append(f"[{t('rule_source_build', lang)}]")
    return LegalAnswer(data, out)


@click.command(name="legal")
@click.argument("file", type=click.Path(dir_okay=False))
@ats_option
@click.option(
    "--tile",
    "tile_texts",
    multiple=True,
    metavar="TILE",
    help="The tile (notation, e.g. T13, G10n) or a module piece (md:5n, sq:Tw); repeat it to "
    "ask for several tiles. Default: every market, side-offer and reserve piece.",
)
@player_option_with(
    "The player whose Alhambra the tile would go into (default: the player to move)."
)
@click.option(
    "--queries",
    "queries",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Answer every query of FILE too, one per line: MOMENT [player=NAME] [TILE] "
    "(- reads standard input; format in docs/dispute-tools.md).",
)
@click.option("--game", "game_no", type=int, default=None, help="Which game of the file (1..).")
@format_option
@color_option
@lang_option
@guarded
def command(
    file: str,
    ats: tuple[tuple[str, At], ...],
    tile_texts: tuple[str, ...],
    player: str | None,
    queries: str | None,
    game_no: int | None,
    fmt: str,
    color_mode: str,
    lang: str,
) -> None:
    """List and mark every legal cell for a tile in a player's Alhambra.

    FILE is a record or position file (- reads standard input). The player is --player, else
    the player to move. Cells follow the building rules of rulebook-base-de-2003.txt,
    "Alhambra-Bauregeln".

    Several questions in one call: repeat --tile and/or --at (every tile is asked at every
    point), or give a file of queries (--queries). Each answer is then shown under its
    question, and JSON/YAML give a list of {question, answer}; exit code 2 when a question
    cannot be answered.

    \b
    Examples:
      alhambra-referee legal game.alh --at 12 --tile T10w
      alhambra-referee legal position.alh --player Ben --lang de
      alhambra-referee legal game.alh --at 10 --at 20 --tile T13 --tile G10n --format json
    """
    check_sources(file, queries)

    def _token(x: TileKind | ComponentRef | None) -> str | None:
        if x is None:
            return None
        return f"{x.kind}:{x.name}" if isinstance(x, ComponentRef) else x.code

    tiles: list[TileKind | ComponentRef | None] = [read_tile_option(x) for x in tile_texts] or [
        None
    ]
    questions = [(Query(text, at, player, _token(x)), x) for text, at in ats for x in tiles]
    if queries is not None:
        default_at = ats[0] if len(ats) == 1 else ("end", At("end"))
        if not tile_texts:
            questions = []  # with a queries file, the command line asks only with --tile
        for q in read_queries(queries, default_at, "[TILE]"):
            if q.player is None:
                q = dataclasses.replace(q, player=player)
            questions.append((q, None))
    batch = queries is not None or len(questions) > 1
    game = load_game(file, game_no)
    color = use_color(color_mode)
    situations = Situations(game)
    if not batch:
        q, tile = questions[0]
        ans = answer(situations.at(q.at), tile, q.player, lang, color)
        if fmt != "text":
            emit_data(ans.data, fmt)
        else:
            click.echo("\n".join(ans.lines), color=color)
        return
    code = 0
    docs: list[dict[str, Any]] = []
    for n, (q, tile) in enumerate(questions, 1):
        echo = {**q.echo(), "tile": q.subject}
        if fmt == "text":
            if n > 1:
                click.echo("")
            click.echo(t("query.head", lang, n=n, question=q.label("tile")))
        try:
            if tile is None and q.subject is not None:
                tile = read_tile_option(q.subject)
            ans = answer(situations.at(q.at), tile, q.player, lang, color)
        except click.ClickException as exc:
            code = 2
            docs.append({"question": echo, "error": exc.format_message()})
            if fmt == "text":
                click.echo("  " + t("query.error", lang, error=exc.format_message()))
            continue
        docs.append({"question": echo, "answer": ans.data})
        if fmt == "text":
            click.echo("\n".join("  " + ln if ln else "" for ln in ans.lines), color=color)
    if fmt != "text":
        emit_data({"questions": docs}, fmt)
    raise click.exceptions.Exit(code)
