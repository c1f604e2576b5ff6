"""``alhambra-referee legal FILE [--at ...] [--tile T10w] [--player NAME]``.

Every legal cell for a building tile in a player's Alhambra, listed and marked on the drawing
(rulebook-base-de-2003.txt, "Alhambra-Bauregeln"). Without ``--tile``: for every tile in the
market and in the player's reserve.
"""

from __future__ import annotations

import re
from typing import Any

import click

from referee.catalogue import TileKind
from referee.commands.show import (
    At,
    PlayerSide,
    Situation,
    at_option,
    color_option,
    emit_data,
    format_option,
    guarded,
    load_situation,
    player_option,
    use_color,
)
from referee.geometry import Alhambra, legal_cells
from referee.record.model import Coord
from referee.reports.i18n import current_lang, fmt_coords, fmt_tile, lang_option, t
from referee.reports.terminal import draw_alhambra

_TILE_TEXT = re.compile(r"[^\W\d]+\d+(?:[^\W\d]+|-)?", re.IGNORECASE)


def read_tile_option(text: str) -> TileKind:
    """A catalogue tile from its notation (``T13``, ``G10n``, ``Turm13``, ``garden10N``)."""
    from referee.notation.tokens import read_tile

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


def legal_targets(alhambra: Alhambra, piece: Any) -> list[Coord]:
    """Every empty cell where ``piece`` may be built (sorted north to south, west to east)."""
    return sorted(legal_cells(alhambra, piece), key=lambda c: (-c.y, c.x))


def _candidate_tiles(sit: Situation, side: PlayerSide) -> list[TileKind]:
    seen: list[TileKind] = []
    for tile in list((sit.market or {}).values()) + list(side.reserve):
        if isinstance(tile, TileKind) and tile not in seen:
            seen.append(tile)
    return seen


@click.command(name="legal")
@click.argument("file", type=click.Path(dir_okay=False))
@at_option
@click.option(
    "--tile",
    "tile_text",
    default=None,
    metavar="TILE",
    help="The tile (notation, e.g. T13, G10n). Default: every market and reserve tile.",
)
@player_option
@click.option("--game", "game_no", type=int, default=None, help="Which game of the file (1..).")
@format_option
@color_option
@lang_option
@guarded
def command(
    file: str,
    at: At,
    tile_text: str | None,
    player: str | None,
    game_no: int | None,
    fmt: str,
    color_mode: str,
    lang: str,
) -> None:
    """List and mark every legal cell for a tile in a player's Alhambra.

    The player is --player, else the player to move. Cells follow the building rules of
    rulebook-base-de-2003.txt, "Alhambra-Bauregeln".

    \b
    Examples:
      alhambra-referee legal game.alh --at 12 --tile T10w
      alhambra-referee legal position.alh --player Ben --lang de
    """
    tile = read_tile_option(tile_text) if tile_text is not None else None
    sit = load_situation(file, at, game_no)
    side = sit.player(player)
    tiles = [tile] if tile is not None else _candidate_tiles(sit, side)
    results = [(x, legal_targets(side.alhambra, x)) for x in tiles]
    if fmt != "text":
        emit_data(
            {
                "player": side.name,
                "at": sit.where(lang),
                "section": "rulebook-base-de-2003.txt § Alhambra-Bauregeln",
                "tiles": [
                    {
                        "tile": x.code,
                        "name": fmt_tile(x, lang, "name"),
                        "cells": [str(c) for c in cells],
                    }
                    for x, cells in results
                ],
            },
            fmt,
        )
        return
    color = use_color(color_mode)
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
            out.append(t("legend_legal", lang, tile=x.code))
    out.append(f"[{t('rule_source_build', lang)}]")
    click.echo("\n".join(out), color=color)
