"""``alhambra-referee render FILE [--at ...|--scoring N] -o out.svg [--player NAME]``
and ``alhambra-referee render FILE --html -o game.html``.

An SVG picture of one or all Alhambras at a moment of a record (or of a position file): tiles in
the game's colours with their price, walls thick, the longest outer wall highlighted,
coordinates on the axes, each player's name and score.

With ``--html``: a replay, one self-contained HTML page per game (:mod:`referee.replay`).
Where the pages go (``-o``):

* ``-`` (default): standard output; a record of several games needs ``--game N`` then;
* a folder (existing, or written with a trailing ``/``): ``FOLDER/STEM.html`` for a record of
  one game, ``FOLDER/STEM-1.html``, ``FOLDER/STEM-2.html``... for several (``STEM``: the
  record's file name without its extension, ``stdin`` for ``-``);
* a file name: that file for one game; ``game.html`` becomes ``game-1.html``,
  ``game-2.html``... for several.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import Any

import click
import yaml

from referee.commands.legal import legal_targets, piece_named, read_tile_option
from referee.commands.show import (
    At,
    PlayerSide,
    Situation,
    at_option,
    guarded,
    load_situation,
    longest_wall,
    pick_game,
    player_option_with,
    read_games,
)
from referee.record.model import Game, Header, Position
from referee.reports.i18n import current_lang, fmt_tile, lang_option, register, t
from referee.reports.svg import Panel, render_svg
from referee.reports.terminal import PlayerView, draw_market


def scoring_at(scoring: int | None, at: At) -> At:
    if scoring is None:
        return at
    if at.kind != "end":
        raise click.UsageError(t("err.at_and_scoring", current_lang()))
    if not 1 <= scoring <= 3:
        raise click.BadParameter(t("err.scoring_number", current_lang()), param_hint="--scoring")
    return At("scoring", scoring)


register(
    "render.html_options",
    "--html draws every player at every step: leave out --player and --tile",
    "--html zeigt alle Spieler in jedem Schritt: --player und --tile weglassen",
)
register(
    "render.several_games",
    "{path} holds {n} games: write them with -o FOLDER/ or -o NAME.html (one page each), "
    "or choose one with --game N",
    "{path} enthält {n} Partien: mit -o ORDNER/ oder -o NAME.html schreiben (eine Seite je "
    "Partie) oder eine mit --game N wählen",
)
register(
    "render.wrote",
    "{file}: game {game} ({steps} steps, {size} bytes)",
    "{file}: Partie {game} ({steps} Schritte, {size} Bytes)",
)


@click.command(name="render")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@at_option
@click.option(
    "--scoring",
    type=int,
    default=None,
    metavar="N",
    help="The position at scoring N (1-3), after its points were given.",
)
@player_option_with("Draw only this player's Alhambra (default: every player's).")
@click.option(
    "--tile",
    "tile_text",
    default=None,
    metavar="TILE",
    help="Mark every legal cell for this tile (notation, e.g. T13, G10n).",
)
@click.option("--game", "game_no", type=int, default=None, help="Which game of the file (1..).")
@click.option(
    "--html",
    "html",
    is_flag=True,
    help="Write a replay instead: one self-contained HTML page per game, stepping through "
    "every line (--at / --scoring: the position shown first).",
)
@click.option(
    "-o",
    "--output",
    "output",
    type=click.Path(writable=True, allow_dash=True),
    default="-",
    show_default=True,
    help="Where to write the SVG ('-' = standard output). With --html: a file, or a folder "
    "for one page per game.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"], case_sensitive=False),
    default="text",
    show_default=True,
    help="What to say on the terminal after writing the file.",
)
@lang_option
@guarded
def command(
    file: str,
    at: At,
    scoring: int | None,
    player: str | None,
    tile_text: str | None,
    game_no: int | None,
    html: bool,
    output: str,
    fmt: str,
    lang: str,
) -> None:
    """Draw one or all Alhambras as an SVG picture, or (--html) write a replay page (FILE: a
    record or position file; - reads standard input).

    \b
    Examples:
      alhambra-referee render game.alh --at 40 -o turn40.svg
      alhambra-referee render game.alh --scoring 2 --player Anna -o anna.svg --lang de
      alhambra-referee render position.alh --player Ben --tile T10w -o ben.svg
      alhambra-referee render game.alh --html -o game.html
      alhambra-referee render games.alh --html -o pages/ --lang de
    """
    moment = scoring_at(scoring, at)
    if html:
        if player is not None or tile_text is not None:
            raise click.UsageError(t("render.html_options", lang))
        ctx = click.get_current_context()
        explicit = (
            ctx.get_parameter_source("at") != click.core.ParameterSource.DEFAULT
            or scoring is not None
        )
        _write_html(file, moment if explicit else None, game_no, output, fmt, lang)
        return
    sit = load_situation(file, moment, game_no)
    chosen = [sit.player(player)] if player is not None else list(sit.players)
    wanted = read_tile_option(tile_text) if tile_text is not None else None
    # a module piece's token (md:5n) names the piece of this moment it means
    tile = None if wanted is None else piece_named(sit, sit.player(player), wanted)
    panels = [
        Panel(
            p_view,
            longest=longest_wall(p.alhambra, sit.profile),
            marks=tuple(legal_targets(sit, p.name, tile)) if tile is not None else (),
        )
        for p, p_view in zip(chosen, _views(sit, chosen, lang), strict=True)
    ]
    title = t("position_at", lang, where=sit.where(lang))
    event = sit.game.header("Event")
    if event:
        title = f"{event} \u2014 {title}"
    mark_label = (
        t("legal_cells", lang, tile=fmt_tile(tile, lang, "code")) if tile is not None else None
    )
    marks = sit.marks(lang)  # module tokens on market fields (a tile hidden under one, ...)
    market = draw_market(sit.market, lang, marks=marks) if marks else None
    svg = render_svg(panels, lang, title=title, mark_label=mark_label, market=market)
    if output == "-":
        click.echo(svg, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(svg)
    except OSError as exc:
        raise click.ClickException(t("err.cannot_write", lang, path=output, why=exc)) from exc
    summary = {
        "file": output,
        "at": sit.where(lang),
        "players": [
            {
                "name": p.name,
                "score": p.score,
                "longest_wall": len(pan.longest),
                "legal_cells": [str(c) for c in pan.marks] if tile is not None else None,
            }
            for p, pan in zip(chosen, panels, strict=True)
        ],
    }
    if fmt == "json":
        click.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(yaml.safe_dump(summary, allow_unicode=True, sort_keys=False), nl=False)
    else:
        click.echo(f"{output}: {', '.join(p.name for p in chosen)} ({sit.where(lang)})")


def _read(path: str) -> list[Any]:
    """Every game of ``path`` (``-``: standard input); syntax errors exit with code 2, and so
    does a game whose Players header names thousands of players (never replayed:
    :func:`referee.record_limits.table_error`)."""
    from referee.record_limits import table_error

    games = read_games(path)
    for game in games:
        err = table_error(game, current_lang())
        if err is not None:
            raise click.ClickException(
                f"{game.source}:{err.pos.line}:{err.pos.column}: {err.message}"
            )
    return games


def _with_players(game: Game) -> Game:
    """A position file may leave out the Players header: its player sections name them (as
    ``show`` reads it)."""
    if game.players:
        return game
    for item in game.body:
        if isinstance(item, Position) and item.players:
            names = ", ".join(p.player.name for p in item.players)
            return dataclasses.replace(game, headers=(*game.headers, Header("Players", names)))
    return game


def _targets(path: str, output: str, numbers: list[int], total: int) -> list[str]:
    """Where each chosen game's page goes (see the module docstring)."""
    stem = "stdin" if path == "-" else Path(path).stem
    if output == "-":
        return ["-"] * len(numbers)
    out = Path(output)
    if output.endswith(("/", os.sep)) or out.is_dir():
        if len(numbers) == 1 and total == 1:
            return [str(out / f"{stem}.html")]
        return [str(out / f"{stem}-{n}.html") for n in numbers]
    if len(numbers) == 1:
        return [output]
    suffix = out.suffix or ".html"
    base = out.with_suffix("") if out.suffix else out
    return [str(base.parent / f"{base.name}-{n}{suffix}") for n in numbers]


def _write_html(
    path: str, moment: At | None, game_no: int | None, output: str, fmt: str, lang: str
) -> None:
    from referee.replay import NoSuchMoment, page_html

    games = _read(path)
    numbers = [game_no] if game_no is not None else list(range(1, len(games) + 1))
    if game_no is not None:
        pick_game(games, game_no)  # a clean message for a number out of range
    if output == "-" and len(numbers) > 1:
        raise click.UsageError(t("render.several_games", lang, path=path, n=len(games)))
    targets = _targets(path, output, numbers, len(games))
    at = ("first", 0) if moment is None else (moment.kind, moment.n)
    written: list[dict[str, Any]] = []
    for number, target in zip(numbers, targets, strict=True):
        game = _with_players(games[number - 1])
        started = time.perf_counter()
        try:
            page = page_html(game, lang, at=at, game_no=number, games=len(games))
        except NoSuchMoment as exc:
            raise click.BadParameter(str(exc), param_hint="--at") from exc
        seconds = time.perf_counter() - started
        if target == "-":
            click.echo(page, nl=False)
            return
        try:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(page)
        except OSError as exc:
            raise click.ClickException(t("err.cannot_write", lang, path=target, why=exc)) from exc
        written.append(
            {
                "file": target,
                "game": number,
                "players": list(game.players),
                "steps": page.count('class="ln'),
                "bytes": len(page.encode("utf-8")),
                "seconds": round(seconds, 3),
            }
        )
    if fmt == "json":
        click.echo(json.dumps({"pages": written}, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(
            yaml.safe_dump({"pages": written}, allow_unicode=True, sort_keys=False), nl=False
        )
    else:
        for w in written:
            click.echo(
                t(
                    "render.wrote",
                    lang,
                    file=w["file"],
                    game=w["game"],
                    steps=w["steps"],
                    size=w["bytes"],
                )
            )


def _views(sit: Situation, chosen: list[PlayerSide], lang: str) -> list[PlayerView]:
    table = sit.table(lang)
    by_name = {v.name: v for v in table.players}
    return [by_name[p.name] for p in chosen]
