"""``alhambra-referee render FILE [--at ...|--scoring N] -o out.svg [--player NAME]``.

An SVG picture of one or all Alhambras at a moment of a record (or of a position file): tiles in
the game's colours with their price, walls thick, the longest outer wall highlighted,
coordinates on the axes, each player's name and score.
"""

from __future__ import annotations

import json

import click
import yaml

from referee.commands.legal import legal_targets, read_tile_option
from referee.commands.show import (
    At,
    PlayerSide,
    Situation,
    at_option,
    guarded,
    load_situation,
    longest_wall,
    player_option_with,
)
from referee.reports.i18n import current_lang, lang_option, t
from referee.reports.svg import Panel, render_svg
from referee.reports.terminal import PlayerView


def scoring_at(scoring: int | None, at: At) -> At:
    if scoring is None:
        return at
    if at.kind != "end":
        raise click.UsageError(t("err.at_and_scoring", current_lang()))
    if not 1 <= scoring <= 3:
        raise click.BadParameter(t("err.scoring_number", current_lang()), param_hint="--scoring")
    return At("scoring", scoring)


@click.command(name="render")
@click.argument("file", type=click.Path(dir_okay=False))
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
    "-o",
    "--output",
    "output",
    type=click.Path(dir_okay=False, writable=True),
    default="-",
    show_default=True,
    help="Where to write the SVG ('-' = standard output).",
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
    output: str,
    fmt: str,
    lang: str,
) -> None:
    """Draw one or all Alhambras as an SVG picture (FILE: a record or position file; - reads
    standard input).

    \b
    Examples:
      alhambra-referee render game.alh --at 40 -o turn40.svg
      alhambra-referee render game.alh --scoring 2 --player Anna -o anna.svg --lang de
      alhambra-referee render position.alh --player Ben --tile T10w -o ben.svg
    """
    moment = scoring_at(scoring, at)
    sit = load_situation(file, moment, game_no)
    chosen = [sit.player(player)] if player is not None else list(sit.players)
    tile = read_tile_option(tile_text) if tile_text is not None else None
    panels = [
        Panel(
            p_view,
            longest=longest_wall(p.alhambra, sit.profile),
            marks=tuple(legal_targets(p.alhambra, tile)) if tile is not None else (),
        )
        for p, p_view in zip(chosen, _views(sit, chosen, lang), strict=True)
    ]
    title = t("position_at", lang, where=sit.where(lang))
    event = sit.game.header("Event")
    if event:
        title = f"{event} \u2014 {title}"
    mark_label = t("legal_cells", lang, tile=tile.code) if tile is not None else None
    svg = render_svg(panels, lang, title=title, mark_label=mark_label)
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


def _views(sit: Situation, chosen: list[PlayerSide], lang: str) -> list[PlayerView]:
    table = sit.table(lang)
    by_name = {v.name: v for v in table.players}
    return [by_name[p.name] for p in chosen]
