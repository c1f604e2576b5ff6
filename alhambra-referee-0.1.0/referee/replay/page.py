"""One self-contained HTML page that replays a game: every position of the record, stepable.

The page is built from the engine's one replay walker (:func:`referee.engine.walk.walk`):
one step per position (the start, one per body line, the end), each with its state snapshot and
the findings of that step. Nothing here applies a rule; it only shows what the walker gives.

Size: each distinct position is written once as JSON (``states``), each distinct Alhambra
layout once as an inline SVG fragment (``layouts``, drawn by
:func:`referee.reports.svg.alhambra_fragment`), each scoring breakdown once as an HTML table
(``scorings``); steps only point at them. The script (``assets/replay.js``) puts the chosen
step together in the browser.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape as _html_escape
from importlib import resources
from typing import Any, cast

from referee.catalogue import BUILDING_TYPES, CURRENCIES, SIDES, BuildingType, TileKind
from referee.engine.state import EMPTY, GameState
from referee.engine.walk import Step, walk
from referee.geometry import outer_wall_runs
from referee.geometry.walls import WallMode
from referee.profiles import RuleProfile
from referee.record.model import Coord, Game, Scoring, Turn
from referee.replay.words import item_text, item_words
from referee.reports.i18n import fmt_card, fmt_tile, register, t, type_name
from referee.reports.pieces import kind_words, piece_words
from referee.reports.svg import FILL, FOUNTAIN_FILL, LONGEST_COLOUR, alhambra_fragment, fragment_css
from referee.reports.terminal import CellView, cells_of
from referee.safe_text import xml_chars
from referee.scoring.core import ScoringResult, TypeScore
from referee.scoring.text import ordinal

# ----------------------------------------------------------------------------- strings

_UI: dict[str, tuple[str, str]] = {
    "title": ("Replay", "Wiederholung"),
    "first": ("First position", "Erste Stellung"),
    "prev": ("Previous position", "Vorige Stellung"),
    "next": ("Next position", "Nächste Stellung"),
    "last": ("Last position", "Letzte Stellung"),
    "slider": ("Position in the record", "Stellung in der Aufzeichnung"),
    "step": ("step {i} of {n}", "Schritt {i} von {n}"),
    "lines": ("Record", "Aufzeichnung"),
    "line": ("line", "Zeile"),
    "start": ("start", "Anfang"),
    "end": ("end", "Ende"),
    "turn": ("turn {n}", "Zug {n}"),
    "after_turn": ("after turn {n}", "nach Zug {n}"),
    "to_move": ("{player} to move", "{player} ist am Zug"),
    "over": ("game over", "Spielende"),
    "nobody": ("nobody to move yet", "noch niemand am Zug"),
    "deck": ("deck", "Stapel"),
    "bag": ("bag", "Beutel"),
    "discard": ("discard pile", "Ablage"),
    "deck_n": ("{n} card(s)", "{n} Karte(n)"),
    "bag_n": ("{n} tile(s)", "{n} Plättchen"),
    "unknown_n": ("about {n}", "etwa {n}"),
    "violations": ("Rule violations at this step", "Regelverstöße in diesem Schritt"),
    "unverifiable": ("Not verifiable", "Nicht überprüfbar"),
    "no_findings": ("No rule violation at this step.", "Kein Regelverstoß in diesem Schritt."),
    "modules": ("Expansion modules", "Erweiterungsmodule"),
    "unknown_tiles": ("+{n} unknown tile(s)", "+{n} unbekannte(s) Plättchen"),
    "tiles_built": ("{n} tile(s) built", "{n} Plättchen gebaut"),
    "keys": (
        "Keys: ← → step, Home / End first / last.",
        "Tasten: ← → blättern, Pos1 / Ende erste / letzte Stellung.",
    ),
    "made_by": ("made by alhambra-referee", "erstellt von alhambra-referee"),
    "scoring_title": ("Scoring {n}", "{n}. Wertung"),
    "final": ("final scoring", "Schlusswertung"),
    "count": ("count", "Anzahl"),
    "place": ("place", "Platz"),
    "sum": ("this scoring", "diese Wertung"),
    "total": ("total", "gesamt"),
    "wall": ("longest outer wall", "längste Außenmauer"),
    "wall_mode_trail": (
        "every segment of a closed ring counts",
        "jedes Stück eines geschlossenen Rings zählt",
    ),
    "wall_mode_simple-path": (
        "a closed ring of N segments counts N-1",
        "ein geschlossener Ring aus N Stücken zählt N-1",
    ),
    "tie": ("tie", "gleichauf"),
    "not_verified": ("stated, not verified", "angegeben, nicht geprüft"),
    "ranking": ("standings", "Stand"),
    "no_wall": ("no wall (Dirk)", "keine Mauer (Dirk)"),
    "error": ("error", "Fehler"),
    "warning": ("warning", "Warnung"),
    "wall_legend": (
        "gold: the longest outer wall at this scoring",
        "gold: die längste Außenmauer bei dieser Wertung",
    ),
    "fountain": ("fountain", "Brunnen"),
    "module_piece": ("module piece", "Modulteil"),
    "legend": ("Colours", "Farben"),
    "turn_link": ("link to this turn", "Link zu diesem Zug"),
    "value": ("value", "Wert"),
    "game_of": ("game {i} of {n}", "Partie {i} von {n}"),
    "noscript": (
        "This replay needs JavaScript to step through the game; the record's lines are listed "
        "below.",
        "Zum Durchblättern braucht diese Wiederholung JavaScript; die Zeilen der Aufzeichnung "
        "stehen unten.",
    ),
}

for _key, (_en, _de) in _UI.items():
    register(f"replay.{_key}", _en, _de)


def escape(text: str, quote: bool = True) -> str:
    """Record text for the page: ``html.escape``, then the characters HTML and XML forbid
    (controls) shown as escapes (:func:`referee.safe_text.xml_chars`)."""
    return xml_chars(_html_escape(text, quote))


def _u(key: str, lang: str, **params: object) -> str:
    return t(f"replay.{key}", lang, **params)


# --------------------------------------------------------------------------- the data


@dataclass
class _Tables:
    """What the steps point at: each distinct state, layout and scoring table once."""

    lang: str
    profile_mode: str
    states: list[dict[str, Any]] = field(default_factory=list)
    state_ids: dict[str, int] = field(default_factory=dict)
    layouts: list[str] = field(default_factory=list)
    legends: list[list[int]] = field(default_factory=list)  # per layout: colours it uses
    colours: list[list[str]] = field(default_factory=list)  # [fill, label]
    colour_ids: dict[str, int] = field(default_factory=dict)
    layout_ids: dict[frozenset[tuple[Coord, CellView]], tuple[int, int]] = field(
        default_factory=dict
    )
    raw_ids: dict[frozenset[Any], tuple[int, int]] = field(default_factory=dict)
    cards: dict[Any, str] = field(default_factory=dict)
    tiles: dict[str, list[Any]] = field(default_factory=dict)
    pieces: dict[str, list[str]] = field(default_factory=dict)  # module pieces on the page
    scorings: list[str] = field(default_factory=list)
    scoring_ids: dict[int, int] = field(default_factory=dict)

    def layout(self, alhambra: Any, marks: Mapping[Coord, str] | None = None) -> tuple[int, int]:
        """(index of the layout's SVG fragment, tiles in it without the fountain); ``marks``:
        module tokens on its tiles (``Extensions.cell_marks``)."""
        try:  # the pieces themselves, when hashable: no drawing view needed to recognise it
            raw: frozenset[Any] | None = frozenset(alhambra.items())
        except (TypeError, AttributeError):
            raw = None
        if getattr(alhambra, "layered", False) or marks:
            raw = None  # the layers (edges, corners, added walls) and marks are not in the cells
        if raw is not None and raw in self.raw_ids:
            return self.raw_ids[raw]
        cells = {at: _coloured(c) for at, c in cells_of(alhambra, marks).items()}
        key = frozenset(cells.items())
        found = self.layout_ids.get(key)
        if found is not None:
            if raw is not None:
                self.raw_ids[raw] = found
            return found
        longest: tuple[tuple[Coord, Any], ...] = ()
        try:
            runs = outer_wall_runs(alhambra, cast(WallMode, self.profile_mode))
            longest = tuple(runs[0].segments) if runs else ()
        except MemoryError:  # no page rather than one without the wall's trace
            raise
        except Exception:  # a layout the wall walker cannot follow: draw it without the trace
            longest = ()
        self.layouts.append(alhambra_fragment(cells, self.lang, longest=longest))
        self.legends.append(self._legend(alhambra, cells))
        count = sum(1 for c in cells.values() if not c.is_fountain)
        found = (len(self.layouts) - 1, count)
        self.layout_ids[key] = found
        if raw is not None:
            self.raw_ids[raw] = found
        return found

    def _legend(self, alhambra: Any, cells: dict[Coord, CellView]) -> list[int]:
        """The colours a layout uses, as indexes into ``colours`` ([fill, label] each)."""
        out: list[int] = []
        pieces = dict(alhambra.items()) if hasattr(alhambra, "items") else {}
        for at, cell in sorted(cells.items(), key=lambda ac: (ac[0].x, ac[0].y)):
            if cell.is_fountain:
                entry = [FOUNTAIN_FILL, _u("fountain", self.lang)]
            elif cell.type is not None and cell.fill is None:
                entry = [FILL[cell.type], type_name(cell.type, self.lang)]
            else:
                entry = [cell.fill or PIECE_FILL, _piece_label(pieces.get(at), self.lang)]
            key = "|".join(entry)
            if key not in self.colour_ids:
                self.colour_ids[key] = len(self.colours)
                self.colours.append(entry)
            if self.colour_ids[key] not in out:
                out.append(self.colour_ids[key])
        return out

    def tile(self, tile: Any) -> str | None:
        """A tile's code for the page (``?`` unknown); its type, price and walls noted once."""
        if tile is None:
            return "?"
        code = fmt_tile(tile, "en", "code")
        if isinstance(tile, TileKind) and code not in self.tiles:
            walls = "".join(s.value for s in SIDES if s in tile.walls)  # fixed order
            name = type_name(tile.type, self.lang)
            self.tiles[code] = [tile.type.code, tile.price, walls, name, tile.full_code]
        elif not isinstance(tile, TileKind) and code not in self.pieces:
            # a module piece: its name, its colour and its walls, for a chip of its own
            walls = "".join(s.value for s in SIDES if s in (getattr(tile, "walls", None) or ()))
            fill = getattr(tile, "cell_fill", None) or PIECE_FILL
            label = getattr(tile, "cell_label", None) or code.partition(":")[2][:5]
            self.pieces[code] = [fmt_tile(tile, self.lang, "name"), fill, walls, str(label)]
        return code

    def card(self, card: Any) -> str:
        """A money card's (or module card's) code; ``?`` unknown."""
        if card is None:
            return "?"
        try:
            found = self.cards.get(card)
        except TypeError:  # an unhashable module component
            return fmt_card(card, "en")
        if found is None:
            found = self.cards[card] = fmt_card(card, "en")
        return found

    def state(self, data: dict[str, Any]) -> int:
        key = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        idx = self.state_ids.get(key)
        if idx is None:
            idx = len(self.states)
            self.states.append(data)
            self.state_ids[key] = idx
        return idx

    def scoring(self, result: ScoringResult) -> int:
        idx = self.scoring_ids.get(id(result))
        if idx is None:
            self.scorings.append(scoring_table(result, self.lang))
            idx = len(self.scorings) - 1
            self.scoring_ids[id(result)] = idx
        return idx


def _to_move(state: GameState) -> str | None:
    """Who moves next, as the state says (the same reading as ``show``)."""
    if state.game_over:
        return None
    turn = state.turn
    if turn is not None and not turn.over:
        return state.players[turn.player].name
    if state.next_player is not None:
        return state.players[state.next_player].name
    return None


def _jsonable(value: Any) -> Any:
    """A module view as plain JSON data (anything unknown becomes its text)."""
    return json.loads(json.dumps(value, default=str))


def state_data(state: GameState, tables: _Tables) -> dict[str, Any]:
    """One position as the page's JSON (codes; the fragments and tiles noted in ``tables``)."""
    players = []
    for ps in state.players:
        layout, count = tables.layout(ps.alhambra, state.ext.cell_marks(state, ps))
        hand = [tables.card(c) for c in sorted(ps.hand.elements(), key=lambda c: c.sort_key)]
        hand += ["?"] * ps.hand_unknown
        players.append(
            {
                "name": ps.name,
                "score": ps.score,
                "hand": hand,
                "reserve": [tables.tile(x) for x in ps.reserve],
                "layout": layout,
                "tiles": count,
                "unknown": ps.alhambra_unknown,
            }
        )
    market = []
    for slot in state.market[:4]:
        market.append(None if slot is EMPTY else tables.tile(slot))
    display = [tables.card(c) for c in state.display]
    data: dict[str, Any] = {
        "players": players,
        "market": market,
        "display": display,
        "to_move": _to_move(state),
        "over": bool(state.game_over),
        "scorings": len(state.scorings_done),
        "deck": state.deck_size,
        "deck_uncertain": bool(state.deck_uncertain),
        "bag": state.bag_count,
        "bag_uncertain": bool(state.bag_uncertain),
        "discard": state.discard_size,
    }
    if state.dirk is not None:
        data["dirk"] = [tables.tile(x) for x in state.dirk]
    views = state.ext.views(state, tables.lang) if state.ext else {}
    if views:
        data["modules"] = _jsonable(_tokens_in_words(views, tables.lang))
    return data


# a module piece without a colour of its own (a building site: its building does not count)
# is drawn in this stone grey, never in the fountain's colour, and named in the legend
PIECE_FILL = "#c9c1b4"
_TOKEN_RE = re.compile(r"(?<![\w:])([a-z]{2,4}):([A-Za-z0-9_+-]+)")


def _coloured(cell: CellView) -> CellView:
    if cell.is_fountain or cell.fill is not None or cell.type is not None:
        return cell
    return dataclasses.replace(cell, fill=PIECE_FILL)


def _piece_label(piece: Any, lang: str) -> str:
    """The legend's name for a module piece's colour: the kind's words (``medina``); a piece
    that carries a tile (a building site) by the building site's words."""
    kind = str(getattr(piece, "code", "")).partition(":")[0]
    words = kind_words(kind, lang) if kind else None
    if words is None and getattr(piece, "carried_tile", None) is not None:
        words = kind_words("bs", lang)
    return words or _u("module_piece", lang)


def _tokens_in_words(value: Any, lang: str) -> Any:
    """A module view with each component token followed by its name (``sq:Pn (square)``)."""

    def sub(m: re.Match[str]) -> str:
        words = kind_words(m.group(1), lang)
        return m.group(0) if words is None else f"{m.group(0)} ({arg_words_of(m, lang)})"

    if isinstance(value, str):
        return _TOKEN_RE.sub(sub, value)
    if isinstance(value, dict):
        return {k: (v if k == "labels" else _tokens_in_words(v, lang)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_tokens_in_words(v, lang) for v in value]
    return value


def arg_words_of(m: re.Match[str], lang: str) -> str:
    from referee.record.model import ComponentRef

    return piece_words(ComponentRef(m.group(1), m.group(2)), lang) or m.group(0)


_CELL_RE = re.compile(r"-?\d+\s*,\s*-?\d+")


def violation_cells(params: dict[str, object]) -> tuple[list[str], list[str]]:
    """The cells a violation names: (its cell ``at``, other cells in ``cells``), as ``x,y``."""

    def cells(value: object) -> list[str]:
        if isinstance(value, Coord):
            return [f"{value.x},{value.y}"]
        if not isinstance(value, str):
            return []
        return [re.sub(r"\s+", "", m) for m in _CELL_RE.findall(value)]

    main = cells(params.get("at"))
    others = [c for c in cells(params.get("cells")) if c not in main]
    return main, others


def _violation(v: Any, lang: str) -> dict[str, Any]:
    d = v.to_dict(lang)
    main, others = violation_cells(v.params)
    card_words = []
    for key in ("tile", "cards", "card", "paid", "taken"):
        value = v.params.get(key)
        if isinstance(value, str):
            card_words += re.findall(r"[A-Za-z]+:?[A-Za-z0-9]*\d[a-z]*|\?", value)
    return {
        "code": d["code"],
        "name": d["name"],
        "section": d["section"],
        "severity": d["severity"],
        "where": f"{d['file']}:{d['line']}:{d['column']}",
        "turn": d["turn"],
        "player": d["player"],
        "message": d["message"],
        "at": main,
        "cells": others,
        "codes": card_words,
    }


def _step_turn_player(step: Step) -> tuple[int | None, str | None]:
    item = step.item
    if not isinstance(item, Turn):
        return None, None
    st = step.state
    player = item.player.name if item.player is not None else None
    number = item.number
    if st.turn is not None:
        # an unnumbered line of the turn it begins takes that turn's number and player; an
        # interrupting line (another player's, e.g. the vizier) keeps no number
        owner = st.players[st.turn.player].name
        if player is None or player.casefold() == owner.casefold():
            number = st.turn.number if number is None else number
            player = owner if player is None else player
    return number, player


def game_data(game: Game, lang: str, profile: RuleProfile | None = None) -> dict[str, Any]:
    """Everything the page shows, as JSON-able data (see the module docstring)."""
    steps_out: list[dict[str, Any]] = []
    tables: _Tables | None = None
    seen_results = 0
    turn_steps: dict[int, int] = {}
    scoring_steps: dict[int, int] = {}
    # the state is read once per step, right away: the walker's live state is enough (no
    # snapshot copies, which cost more than the page itself in a game with modules)
    before: tuple[int, bool, int] | None = None  # (index, between turns, turns) of the last step
    last: Step | None = None
    for step in walk(game, profile, snapshots=False):
        st = step.state
        if tables is None:
            tables = _Tables(lang, st.profile.wall_run)
        # "after turn N" (as ``show --at N``): the last position before the next turn line
        if isinstance(step.item, Turn) and before is not None:
            index, between, turns = before
            if between:
                for n in range(1, turns + 1):
                    turn_steps.setdefault(n, index)
        new_results = st.scoring_results[seen_results:]
        seen_results = len(st.scoring_results)
        number, player = _step_turn_player(step)
        if isinstance(step.item, Scoring):
            scoring_steps.setdefault(step.item.round, step.index)
        entry: dict[str, Any] = {
            "kind": step.kind,
            "line": step.line,
            "turn": number,
            "player": player,
            "words": item_words(step.item, lang, end=step.kind == "end"),
            "text": item_text(step.item),
            "state": tables.state(state_data(st, tables)),
        }
        if step.violations:
            entry["violations"] = [_violation(v, lang) for v in step.violations]
        if step.unverifiable:
            entry["unverifiable"] = [u.message(lang) for u in step.unverifiable]
        if new_results:
            entry["scorings"] = [tables.scoring(r) for r in new_results]
        steps_out.append(entry)
        before = (step.index, st.turn is None, st.turn_no)
        last = step
    assert tables is not None and last is not None
    turn_lines: dict[str, int] = {}  # turn N -> the step of its line (``#tN``)
    for i, entry in enumerate(steps_out):
        if entry["turn"] is not None and entry["kind"] != "end":
            turn_lines.setdefault(str(entry["turn"]), i)
    last_item = last.index - 1 if last.kind == "end" else last.index
    for n in range(1, last.state.turn_no + 1):
        turn_steps.setdefault(n, last_item)
    event = game.header("Event")
    return {
        "lang": lang,
        "title": event or ", ".join(game.players),
        "source": game.source,
        "players": list(game.players),
        "steps": steps_out,
        "states": tables.states,
        "layouts": tables.layouts,
        "legends": tables.legends,
        "colours": tables.colours,
        "tiles": tables.tiles,
        "pieces": tables.pieces,
        "scorings": tables.scorings,
        "turn_steps": {str(k): v for k, v in sorted(turn_steps.items())},
        "turn_lines": turn_lines,
        "scoring_steps": {str(k): v for k, v in sorted(scoring_steps.items())},
        "ui": {
            **{key: _u(key, lang) for key in _UI},
            **{
                key: t(key, lang)
                for key in ("market", "display", "dirk", "points", "reserve", "hand")
            },
            "badge": t("to_move", lang),
        },
        "types": {bt.code: [type_name(bt, lang), FILL[bt]] for bt in BuildingType},
        "currencies": {c.code: c.name_in(lang) for c in CURRENCIES},
    }


class NoSuchMoment(LookupError):
    """The moment asked for (turn N, scoring N) does not occur in the record."""


def start_step(data: dict[str, Any], game: Game, kind: str, n: int = 0) -> int:
    """The step shown first for a moment as ``show --at`` names it (``kind``: ``start``,
    ``end``, ``turn``, ``line``, ``scoring``; ``first``: step 0, before the first line);
    raises :class:`NoSuchMoment`."""
    steps = data["steps"]
    lang = data["lang"]
    if kind == "end":
        return len(steps) - 1
    if kind == "start":  # after the setup lines: just before the first turn
        first = next((i for i, item in enumerate(game.body) if isinstance(item, Turn)), None)
        return first if first is not None else len(steps) - 1
    if kind == "line":
        return sum(1 for item in game.body if item.pos.line <= n)
    if kind == "turn":
        found = data["turn_steps"].get(str(n))
        if found is None:
            raise NoSuchMoment(t("err.turns", lang, n=len(data["turn_steps"]), wanted=n))
        return int(found)
    if kind == "scoring":
        found = data["scoring_steps"].get(str(n))
        if found is None:
            raise NoSuchMoment(t("err.no_scoring", lang, n=n))
        return int(found)
    return 0


# ---------------------------------------------------------------------- scoring table


def _cell(score: TypeScore, lang: str) -> str:
    if score.place is None:
        place = "–"
    else:
        place = ordinal(score.place, lang)
        if score.tied_with:
            place += f" ({_u('tie', lang)}: {', '.join(score.tied_with)})"
    how = f"<small>{escape(score.split)}</small>" if score.split else ""
    extra = ""
    if score.adjustments:
        extra = "".join(
            f"<small>{escape(a.text(lang))} {a.amount:+d}</small>" for a in score.adjustments
        )
    return (
        f'<td><b>{score.points}</b><span class="cnt">{score.count}× · {escape(place)}</span>'
        f"{how}{extra}</td>"
    )


def scoring_table(result: ScoringResult, lang: str) -> str:
    """One scoring's breakdown as an HTML table (a column per participant)."""
    title = _u("scoring_title", lang, n=result.round)
    if result.round == 3:
        title += f" ({_u('final', lang)})"
    rows = result.rows
    head = "".join(f"<th>{escape(r.name)}</th>" for r in rows)
    body: list[str] = []
    for bt in BUILDING_TYPES:
        cells = "".join(
            _cell(r.buildings[bt], lang) if bt in r.buildings else "<td></td>" for r in rows
        )
        body.append(
            f'<tr><th scope="row"><i class="sw t{bt.code}"></i>'
            f"{escape(type_name(bt, lang, plural=True))}</th>{cells}</tr>"
        )
    wall_cells = []
    for r in rows:
        if r.wall is None:
            wall_cells.append(f"<td><small>{escape(_u('no_wall', lang))}</small></td>")
            continue
        note = "" if r.wall.verified else f"<small>{escape(_u('not_verified', lang))}</small>"
        wall_cells.append(
            f'<td><b>{r.wall.points}</b><span class="cnt">{r.wall.length}</span>{note}</td>'
        )
    body.append(
        f'<tr class="wallrow"><th scope="row"><i class="sw gold"></i>'
        f"{escape(_u('wall', lang))}</th>{''.join(wall_cells)}</tr>"
    )
    for key in dict.fromkeys(k for r in rows for k in r.modules):  # module lines, each its own
        label = next(r.label(key, lang) for r in rows if key in r.categories)
        mod_cells: list[str] = []
        for r in rows:
            s = r.categories.get(key)
            detail = s.detail(lang) if s is not None else ""
            how = f"<small>{escape(detail)}</small>" if detail else ""
            mod_cells.append("<td></td>" if s is None else f"<td><b>{s.points}</b>{how}</td>")
        body.append(
            f'<tr class="modrow"><th scope="row">{escape(label)}</th>{"".join(mod_cells)}</tr>'
        )
    body.append(
        f'<tr class="sum"><th scope="row">{escape(_u("sum", lang))}</th>'
        + "".join(f"<td><b>{r.points}</b></td>" for r in rows)
        + "</tr>"
    )
    body.append(
        f'<tr class="sum"><th scope="row">{escape(_u("total", lang))}</th>'
        + "".join(
            f'<td><b data-total="{escape(r.name)}">{r.total}</b>'
            f'<span class="cnt">{r.total_before} + {r.points}</span></td>'
            for r in rows
        )
        + "</tr>"
    )
    ranking = ", ".join(f"{k}. {escape(r.name)} {r.total}" for k, r in result.ranking())
    mode = _u(f"wall_mode_{result.wall_mode}", lang) if result.wall_mode else ""
    table = f" {escape(result.table_text(lang))}." if result.table is not None else ""
    return (
        f'<div class="scoring" data-round="{result.round}"><h3>{escape(title)}</h3>'
        f'<div class="tscroll"><table class="breakdown"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
        f'<p class="note">{escape(_u("ranking", lang))}: {ranking}. '
        f"{escape(_u('wall', lang))}: {escape(mode)}.{table}</p></div>"
    )


# ------------------------------------------------------------------------------- page


def _asset(name: str) -> str:
    return resources.files("referee.replay").joinpath("assets", name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON safe inside ``<script>`` (no ``</``, no ``<!--``, no U+2028/9 line breaks)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _line_list(data: dict[str, Any], lang: str) -> str:
    out: list[str] = []
    for i, s in enumerate(data["steps"]):
        if s["kind"] == "start":
            where = _u("start", lang)
        elif s["kind"] == "end":
            where = _u("end", lang)
        else:
            where = f"{_u('line', lang)} {s['line']}"
        who = ""
        if s["turn"] is not None or s["player"]:
            num = f"{s['turn']}. " if s["turn"] is not None else ""
            who = f'<span class="who">{escape(num)}{escape(s["player"] or "")}</span> '
        bad = " bad" if any(v["severity"] == "error" for v in s.get("violations", ())) else ""
        warn = " warn" if s.get("violations") and not bad else ""
        score = " scoring" if s.get("scorings") else ""
        text = f"<code>{escape(s['text'])}</code>" if s["text"] else ""
        codes = "".join(
            f' <span class="vcode">{escape(v["code"])}</span>' for v in s.get("violations", ())
        )
        out.append(
            f'<li id="ln{i}" data-step="{i}" class="ln{bad}{warn}{score}" tabindex="-1">'
            f'<span class="where">{escape(where)}</span> {who}'
            f'<span class="words">{escape(s["words"])}</span>{codes}{text}</li>'
        )
    return "\n".join(out)


_ICONS = {  # the shapes of the stepping buttons (no icon font needed)
    "first": "M3 2h2v12H3zM14 2v12L6 8z",
    "prev": "M12 2v12L4 8z",
    "next": "M4 2v12l8-6z",
    "last": "M2 2v12l8-6zM11 2h2v12h-2z",
}


def _button(key: str, lang: str) -> str:
    label = escape(_u(key, lang))
    return (
        f'<button type="button" id="{key}" title="{label}" aria-label="{label}">'
        f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
        f'<path d="{_ICONS[key]}"/></svg></button>'
    )


def page_html(
    game: Game,
    lang: str,
    profile: RuleProfile | None = None,
    *,
    at: tuple[str, int] = ("first", 0),
    game_no: int = 1,
    games: int = 1,
) -> str:
    """The whole page for one game; ``at`` (kind, n) is the moment shown first (as
    ``show --at``: ``("turn", 12)``, ``("end", 0)``...; raises :class:`NoSuchMoment`)."""
    data = game_data(game, lang, profile)
    data["start"] = start_step(data, game, *at)
    title = data["title"]
    subtitle = ", ".join(game.players)
    if games > 1:
        subtitle += f" — {_u('game_of', lang, i=game_no, n=games)}"
    css = (
        _asset("replay.css")
        .replace("/*FRAGMENT_CSS*/", fragment_css())
        .replace("/*GOLD*/", LONGEST_COLOUR)
    )
    type_css = "".join(f".t{bt.code}{{background:{FILL[bt]}}}" for bt in BuildingType)
    n = len(data["steps"])
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="alhambra-referee">
<title>{escape(title)} — {escape(_u("title", lang))}</title>
<style>
{css}
{type_css}
</style>
</head>
<body>
<header class="top">
<h1>{escape(title)}</h1>
<p class="sub">{escape(subtitle)} · <span class="src">{escape(game.source)}</span></p>
</header>
<nav class="controls" aria-label="{escape(_u("slider", lang))}">
{_button("first", lang)}
{_button("prev", lang)}
<input type="range" id="slider" min="0" max="{n - 1}" value="{data["start"]}"
 aria-label="{escape(_u("slider", lang))}">
{_button("next", lang)}
{_button("last", lang)}
<span id="stepinfo" aria-live="polite"></span>
</nav>
<noscript><p class="note">{escape(_u("noscript", lang))}</p></noscript>
<main class="layout">
<section class="board" aria-live="polite">
<div id="now" class="now"></div>
<div id="findings" class="findings"></div>
<div id="scoring" class="scoringbox"></div>
<div class="common">
<div id="market" class="market"></div>
<div id="display" class="display"></div>
<div id="supply" class="supply"></div>
</div>
<div id="players" class="players"></div>
<p id="legend" class="legend note"></p>
<div id="modules" class="modules"></div>
</section>
<aside class="record">
<h2>{escape(_u("lines", lang))}</h2>
<ol id="lines" class="lines">
{_line_list(data, lang)}
</ol>
<p class="note keys">{escape(_u("keys", lang))}</p>
</aside>
</main>
<footer class="foot">{escape(_u("made_by", lang))}</footer>
<script id="replay-data" type="application/json">{_script_json(data)}</script>
<script>
{_asset("replay.js")}
</script>
</body>
</html>
"""
