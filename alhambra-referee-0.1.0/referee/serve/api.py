"""The answers of ``alhambra-referee serve``: pure functions from a request's data to JSON data.

Every rule answer comes from the engine through the code the commands use:

- :func:`score_answer` reads the position block text with the notation reader, checks and scores
  it with :func:`referee.scoring.position.score_position` and turns it into the ``score``
  command's JSON (``referee.commands.score``'s own ``game_dict`` and profile choice), so
  ``alhambra-referee score FILE --format json`` of the same text gives the same ``game``. It
  adds what the page draws: each Alhambra as the replay's SVG fragment with its longest wall,
  the cells each finding names, the block read back as the page's model, and (when the
  position has a market) who gets each leftover tile as the engine's game end judges it.
- :func:`fit_answer` asks the engine's building decision (``place.problems``, refined by the
  enabled modules) for each of the 54 tiles at one cell, and which tiles the position already
  uses elsewhere; and the same for the enabled modules' pieces the player could build at that
  moment (:func:`referee.commands._pieces.candidate_pieces`, the pieces ``legal``/``explain``
  know: the player's reserve, the market, beside the market, what a module action such as
  taking a square would hand over), each with its name in words and its replay drawing.
- :func:`catalogue_answer` lists the tiles, profiles and modules the page offers.

Bad input raises :class:`ApiError` with an English and a German message; the server turns it
into a 400 answer. Nothing here prints or raises anything else on purpose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from referee.catalogue import SIDES, BuildingType, Currency, TileKind, catalogue
from referee.record.model import ComponentRef, Coord, Game, Position, TileRef

SOURCE = "<page>"
MAX_TEXT = 20_000
"""Characters of position text accepted (a six-player final position is about 1,200)."""

LANGS = ("en", "de")


@dataclass
class ApiError(Exception):
    """A request the server refuses: an HTTP status and the reason in English and German."""

    status: int
    en: str
    de: str

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"error": self.de if lang == "de" else self.en, "error_en": self.en}


# ------------------------------------------------------------------------------ reading


def _lang(value: object) -> str:
    return value if isinstance(value, str) and value in LANGS else "en"


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ApiError(
            400,
            "the request needs the position block as text ('text')",
            "die Anfrage braucht den Stellungsblock als Text ('text')",
        )
    if len(value) > MAX_TEXT:
        raise ApiError(
            413,
            f"the position text is too long ({len(value)} characters; at most {MAX_TEXT})",
            f"der Stellungstext ist zu lang ({len(value)} Zeichen; höchstens {MAX_TEXT})",
        )
    return value


def _round(value: object) -> int:
    if value is None:
        return 3
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3:
        raise ApiError(400, "'round' must be 1, 2 or 3", "'round' muss 1, 2 oder 3 sein")
    return value


def _one_game(text: str) -> Game:
    """The one game of ``text`` (syntax errors stay in ``game.errors`` for the caller)."""
    from referee.commands._input import real_games
    from referee.notation import parse_text

    try:
        games = real_games(parse_text(text, SOURCE))
    except (UnicodeError, ValueError) as exc:
        raise ApiError(
            400, f"the text cannot be read: {exc}", f"der Text ist nicht lesbar: {exc}"
        ) from exc
    if not games:
        raise ApiError(
            400,
            "no position block found: the text needs 'position' ... 'end'",
            "kein Stellungsblock gefunden: der Text braucht 'position' ... 'end'",
        )
    if len(games) > 1:
        raise ApiError(
            400,
            f"the text holds {len(games)} games; the page scores one at a time",
            f"der Text enthält {len(games)} Partien; die Seite wertet eine nach der anderen",
        )
    return games[0]


def _position(game: Game) -> Position:
    from referee.commands.score import is_record
    from referee.scoring.position import find_position

    if is_record(game):
        raise ApiError(
            400,
            "this is a game record with turns: score it with 'alhambra-referee score FILE' "
            "(the page scores a position block)",
            "das ist eine Aufzeichnung mit Zügen: mit 'alhambra-referee score DATEI' werten "
            "(die Seite wertet einen Stellungsblock)",
        )
    position = find_position(game)
    if position is None:
        raise ApiError(
            400,
            "no position block found: the text needs 'position' ... 'end'",
            "kein Stellungsblock gefunden: der Text braucht 'position' ... 'end'",
        )
    return position


def _syntax_errors(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "line": e.pos.line,
            "column": e.pos.column,
            "code": e.code,
            "message": e.message,
            "excerpt": e.excerpt or "",
        }
        for e in game.errors
    ]


# ------------------------------------------------------------------------------ the model


def _code(ref: object) -> str:
    """A tile or piece as the page writes it: the catalogue's short code, ``kind:name``."""
    if isinstance(ref, ComponentRef):
        return f"{ref.kind}:{ref.name}"
    if isinstance(ref, TileRef):
        if ref.kind is not None:
            return ref.kind.code
        from referee.scoring.position import tile_label

        return tile_label(ref)
    return str(ref)


def _source_line(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def model_of(game: Game, position: Position, text: str) -> dict[str, Any]:
    """The position block as the page's model: players (name, score, hand, reserve, cells),
    Dirk's tiles, the leftover market, profile, modules, and the module lines as written."""
    lines = text.splitlines()
    players = []
    for pp in position.players:
        if pp.player.name.casefold() == "dirk" and "dirk" not in [
            n.casefold() for n in game.players
        ]:
            continue
        players.append(
            {
                "name": pp.player.name,
                "score": pp.score,
                "hand": None if pp.hand is None else [_card(c) for c in pp.hand],
                "reserve": [_code(r) for r in pp.reserve],
                "cells": {f"{p.at.x},{p.at.y}": _code(p.tile) for p in pp.alhambra},
                "extra": (
                    [_source_line(lines, pp.counts[0].pos.line)] if pp.counts else []
                )  # the counts fallback (``counts P=2 wall=7``), kept as written
                + [_source_line(lines, x.pos.line) for x in pp.extra],
            }
        )
    dirk = [_code(r) for r in position.dirk or ()]
    for pp in position.players:
        if pp.player.name.casefold() == "dirk" and all(
            p["name"] != pp.player.name for p in players
        ):
            dirk += [_code(p.tile) for p in pp.alhambra] + [_code(r) for r in pp.reserve]
    market: dict[str, str | None] = {}
    for i, (field, ref) in enumerate(position.market or ()):
        cur = field or Currency.of_field(i + 1)
        market[cur.code] = None if ref is None else _code(ref)
    return {
        "event": game.header("Event") or "",
        "rules": game.header("Rules") or "",
        "modules": game.header("Modules") or "",
        "scorings": position.scorings_done,
        "players": players,
        "dirk": dirk if position.dirk is not None or dirk else None,
        "market": market,
        "extra": [_source_line(lines, x.pos.line) for x in position.extra],
    }


def _card(card: object) -> str:
    from referee.reports.i18n import fmt_card

    return fmt_card(card, "en")


# ------------------------------------------------------------------------------ findings

_CELL = re.compile(r"(-?\d+)\s*,\s*(-?\d+)(?:\s+([NESW])\b)?")


def _cells_named(params: dict[str, Any]) -> list[str]:
    """The cells a finding's parameters name (``at``, ``cells``); a wall side ``1,0 N`` names
    the cell beyond that side too (both tiles of a mismatching pair)."""
    out: list[str] = []
    for key in ("at", "cells"):
        value = params.get(key)
        if isinstance(value, Coord):
            value = f"{value.x},{value.y}"
        if not isinstance(value, str):
            continue
        for m in _CELL.finditer(value):
            x, y = int(m.group(1)), int(m.group(2))
            found = [f"{x},{y}"]
            if m.group(3):
                dx, dy = next(s.delta for s in SIDES if s.value == m.group(3))
                found.append(f"{x + dx},{y + dy}")
            out += [c for c in found if c not in out]
    return out


def _findings(position: Position, problems: tuple[Any, ...], lang: str) -> list[dict[str, Any]]:
    """Each problem as the ``score`` command's JSON, plus the player and cells it is about (the
    tile written at its line and column, and the cells it names)."""
    at_pos: dict[tuple[int, int], tuple[str, str]] = {}
    for pp in position.players:
        for placed in pp.alhambra:
            at_pos[(placed.pos.line, placed.pos.column)] = (
                pp.player.name,
                f"{placed.at.x},{placed.at.y}",
            )
    out = []
    for p in problems:
        d = p.to_dict(lang)
        params = dict(p.params)
        if p.violation is not None:
            params.update(p.violation.params)
        cells = _cells_named(params)
        player = p.player
        where = at_pos.get((p.pos.line, p.pos.column))
        if where is not None:
            player = player or where[0]
            if where[1] not in cells:
                cells.insert(0, where[1])
        d["player"] = player
        d["cells"] = cells
        out.append(d)
    return out


# ------------------------------------------------------------------------------ answers


def _layouts(found: Any, lang: str) -> dict[str, str]:
    """Each typed-in Alhambra as the replay's SVG fragment (one empty ring around it, for
    tapping), its longest outer wall (as the scoring found it) in gold."""
    from referee.reports.svg import alhambra_fragment
    from referee.reports.terminal import cells_of

    out: dict[str, str] = {}
    for name, alh in found.alhambras.items():
        row = found.result.row(name) if found.result is not None else None
        longest = tuple(row.wall.segments) if row is not None and row.wall is not None else ()
        out[name] = alhambra_fragment(cells_of(alh), lang, longest=longest, pad=1)
    return out


def _leftovers(game: Game, position: Position, profile: Any) -> list[dict[str, Any]]:
    """Who gets each tile left in the market ("Spielende": "an die Spieler vergeben, die in der
    jeweiligen Währung das meiste Geld auf der Hand haben ... Bei Gleichstand bleibt das
    Gebäudeteil auf dem Bauhof"), as the engine's game end judges it: the position is taken as
    the game's end and an empty ``distribute`` line is applied to it; the engine names the
    player each tile should have gone to (``END-DISTRIBUTE``, reason ``not-given``), and names
    nobody on a tie or when a hand is not known."""
    if not position.market or not any(ref is not None for _, ref in position.market):
        return []
    from referee.engine import apply_item
    from referee.record.model import Distribution
    from referee.scoring.position import position_state

    state, _ = position_state(game, position, profile)
    market = list(state.market[:4])
    unknown = any(p.hand_unknown for p in state.players)
    state.game_over = True  # the position is the table at the end: the leftovers go out now
    before = len(state.found)
    apply_item(state, Distribution((), position.pos))
    given = {
        str(v.params.get("field")): v.params
        for v in state.found[before:]
        if v.code == "END-DISTRIBUTE" and v.reason == "not-given"
    }
    out = []
    for i, slot in enumerate(market):
        if not isinstance(slot, TileKind | ComponentRef):
            continue
        cur = Currency.of_field(i + 1).code
        found = given.get(cur)
        out.append(
            {
                "field": cur,
                "tile": slot.code if isinstance(slot, TileKind) else _code(slot),
                "player": str(found["name"]) if found is not None else None,
                "known": not unknown,
                "money": str(found["shown"]) if found is not None else "",
            }
        )
    return out


def score_answer(data: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/score``: ``{"text": ..., "lang": "en"|"de", "round": 1-3}``."""
    from referee.commands.score import game_dict, rule_profile_for
    from referee.scoring.position import score_position

    lang = _lang(data.get("lang"))
    text = _text(data.get("text"))
    round_no = _round(data.get("round"))
    game = _one_game(text)
    if game.errors:
        return {"ok": False, "syntax_errors": _syntax_errors(game)}
    position = _position(game)
    profile, note = rule_profile_for(None, game, lang)
    found = score_position(game, profile, round_no)
    answer: dict[str, Any] = {
        "ok": True,
        "profile": profile.name,
        "note": note,
        "round": round_no,
        "game": game_dict(SOURCE, game, found, lang),
        "findings": _findings(position, found.problems, lang),
        "layouts": _layouts(found, lang),
        "model": model_of(game, position, text),
    }
    answer["leftovers"] = _leftovers(game, position, profile)
    return answer


def fit_answer(data: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/fit``: ``{"text", "player", "at": "x,y", "lang"}`` -> every base tile with
    the engine's building problems at that cell (none: it fits) and who already uses it."""
    from referee.engine.context import Context
    from referee.engine.ruleset import Decision
    from referee.messages import lookup
    from referee.scoring.position import position_state

    lang = _lang(data.get("lang"))
    text = _text(data.get("text"))
    name = data.get("player")
    at_text = data.get("at")
    if name is None and at_text is None:  # a tile for Dirk or the market: no cell to fit
        return _supply_answer(text)
    m = re.fullmatch(r"(-?\d{1,2}),(-?\d{1,2})", at_text) if isinstance(at_text, str) else None
    if not isinstance(name, str) or m is None:
        raise ApiError(
            400,
            "the request needs 'player' (a name) and 'at' (a cell 'x,y', -99 to 99)",
            "die Anfrage braucht 'player' (einen Namen) und 'at' (ein Feld 'x,y', -99 bis 99)",
        )
    at = Coord(int(m.group(1)), int(m.group(2)))
    if at == Coord(0, 0):
        raise ApiError(
            400,
            "the fountain's cell takes no tile",
            "auf das Feld des Brunnens kommt kein Plättchen",
        )
    game = _one_game(text)
    if game.errors:
        raise ApiError(
            400,
            "the position text has syntax errors: score it to see them",
            "der Stellungstext hat Syntaxfehler: werten zeigt sie",
        )
    position = _position(game)
    from referee.commands.score import rule_profile_for

    profile, _ = rule_profile_for(None, game, lang)
    names = [pp.player.name for pp in position.players if pp.player.name.casefold() != "dirk"]
    state, _found = position_state(game, position, profile, names)
    player = state.player_named(name)
    if player is None:
        raise ApiError(
            400,
            f"no player {name!r} in the position",
            f"kein Spieler {name!r} in der Stellung",
        )
    held = player.alhambra.cells.get(at)
    if at in player.alhambra.cells:  # which tiles could lie here instead
        player.alhambra.remove(at)
    used = _used(position, (name, at))
    ctx = Context(state, position.pos)
    tiles = []
    for kind in _tiles():
        problems = ctx.decide(
            Decision.PLACE_PROBLEMS, player=player, at=at, piece=kind, how="place"
        )
        tiles.append(
            {
                "code": kind.code,
                "fits": not problems,
                "problems": [
                    {
                        "code": p.code,
                        "message": lookup(lang, f"GEOMETRY:{p.code}") or p.code,
                    }
                    for p in problems
                ],
                "used_by": used.get(kind),
            }
        )
    pieces = _module_pieces(ctx, player, at, held, lang)
    return {"at": f"{at.x},{at.y}", "player": name, "tiles": tiles, "pieces": pieces}


def _module_pieces(
    ctx: Any, player: Any, at: Coord, held: object, lang: str
) -> list[dict[str, Any]]:
    """The enabled modules' pieces ``player`` could build now (the piece the cell held, then
    :func:`referee.commands._pieces.candidate_pieces`: reserve, market, beside the market,
    what a module action would hand over), each with the engine's building problems at ``at``,
    where it lies, its name in words and the replay's drawing of it (one cell)."""
    from referee.commands._pieces import candidate_pieces, distinct, is_piece
    from referee.engine.orientation import placements

    found = [held] if held is not None else []
    found += candidate_pieces(ctx.state, player)
    out = []
    for lying in distinct(found):
        if isinstance(lying, TileKind) or not is_piece(lying):
            continue  # base tiles are listed above; money and cards are not built
        for piece in placements(lying):  # a piece that may be turned: each orientation (E6)
            entry = _module_piece(ctx, player, at, piece, lying, held, lang)
            if entry is not None:
                out.append(entry)
    return out


def _module_piece(
    ctx: Any, player: Any, at: Coord, piece: Any, lying: Any, held: object, lang: str
) -> dict[str, Any] | None:
    """One module piece (``piece``: ``lying`` as turned) at ``at``: see :func:`_module_pieces`."""
    from referee.engine.ruleset import Decision
    from referee.messages import lookup
    from referee.reports.svg import alhambra_fragment
    from referee.reports.terminal import cells_of

    code = getattr(piece, "code", None)
    if not isinstance(code, str):
        return None
    problems = ctx.decide(Decision.PLACE_PROBLEMS, player=player, at=at, piece=piece, how="place")
    if lying is held:
        lies = "cell"
    elif lying in player.reserve:
        lies = "reserve"
    elif lying in ctx.state.market[:4]:
        lies = "market"
    else:
        lies = "offer"
    words_en, words_de = (_piece_name(piece, code, lg) for lg in LANGS)
    picture = alhambra_fragment(cells_of({at: piece}), lang)  # the replay's drawing
    return {
        "code": code,
        "held": getattr(lying, "code", code),
        "fits": not problems,
        "problems": [
            {
                "code": p.code,
                "message": lookup(lang, f"GEOMETRY:{p.code}") or p.code,
            }
            for p in problems
        ],
        "lies": lies,
        "name_en": words_en,
        "name_de": words_de,
        "picture": picture,
    }


def _piece_name(piece: object, code: str, lang: str) -> str:
    """A module piece in words: its kind (and price) as the dispute tools say it, the building
    colour it shows when it has one (a square's), and its walls (``square, Garden, walls N``)."""
    from referee.reports.i18n import type_name
    from referee.reports.pieces import piece_words

    parts = [piece_words(piece, lang) or code]
    colour = getattr(piece, "colour", None)
    if not isinstance(colour, BuildingType):
        colour = getattr(piece, "type", None)
    if isinstance(colour, BuildingType) and type_name(colour, lang) not in parts[0]:
        parts.append(type_name(colour, lang))
    walls = getattr(piece, "walls", None)
    if isinstance(walls, frozenset):
        sides = "".join(s.value for s in SIDES if s in walls)
        parts.append(
            (f"Mauern {sides}" if sides else "ohne Mauer")
            if lang == "de"
            else (f"walls {sides}" if sides else "no wall")
        )
    return ", ".join(parts)


def _used(position: Position, skip: tuple[str, Coord] | None = None) -> dict[TileKind, str]:
    """Who holds each catalogue tile the position names (Alhambras, reserves, Dirk, market);
    ``skip``: a player's cell whose tile is being chosen again."""
    used: dict[TileKind, str] = {}
    for pp in position.players:
        refs = [p.tile for p in pp.alhambra if skip is None or (pp.player.name, p.at) != skip]
        for ref in [*refs, *pp.reserve]:
            if isinstance(ref, TileRef) and ref.kind is not None:
                used.setdefault(ref.kind, pp.player.name)
    for ref in position.dirk or ():
        if isinstance(ref, TileRef) and ref.kind is not None:
            used.setdefault(ref.kind, "Dirk")
    for field, slot in position.market or ():
        if isinstance(slot, TileRef) and slot.kind is not None:
            used.setdefault(slot.kind, field.code if field is not None else "market")
    return used


def _supply_answer(text: str) -> dict[str, Any]:
    """Every base tile and who already holds it (a tile for Dirk or the market)."""
    game = _one_game(text)
    if game.errors:
        raise ApiError(
            400,
            "the position text has syntax errors: score it to see them",
            "der Stellungstext hat Syntaxfehler: werten zeigt sie",
        )
    used = _used(_position(game))
    tiles: list[dict[str, Any]] = [
        {"code": k.code, "fits": True, "problems": [], "used_by": used.get(k)} for k in _tiles()
    ]
    return {"at": None, "player": None, "tiles": tiles}


def _tiles() -> list[TileKind]:
    order = list(BuildingType)
    return sorted(
        catalogue().tiles,
        key=lambda k: (
            order.index(k.type),
            k.price,
            "".join(s.value for s in SIDES if s in k.walls),
        ),
    )


def catalogue_answer() -> dict[str, Any]:
    """``GET /api/catalogue``: the 54 tiles (code, type, price, walls, names), the bundled
    profiles and the modules (name, titles, the component kinds their pieces are written with)."""
    from referee.engine.extensions import MODULES, load_bundled_modules
    from referee.profiles.loader import list_profiles
    from referee.reports.i18n import type_name

    load_bundled_modules()
    tiles = [
        {
            "code": k.code,
            "full": k.full_code,
            "type": k.type.code,
            "price": k.price,
            "walls": "".join(s.value for s in SIDES if s in k.walls),
            "name_en": f"{type_name(k.type, 'en')} {k.price}",
            "name_de": f"{type_name(k.type, 'de')} {k.price}",
        }
        for k in _tiles()
    ]
    modules = [
        {
            "name": name,
            "title_en": getattr(cls, "title_en", "") or name,
            "title_de": getattr(cls, "title_de", "") or name,
            "kinds": list(cls.component_kinds),
        }
        for name, cls in sorted(MODULES.items())
        if name == cls.name
    ]
    types = {bt.code: {"en": type_name(bt, "en"), "de": type_name(bt, "de")} for bt in BuildingType}
    return {"tiles": tiles, "profiles": list_profiles(), "modules": modules, "types": types}
