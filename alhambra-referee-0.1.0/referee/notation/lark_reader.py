"""The Lark side of the reader: the parser (built once, cached on disk) and its embedded
transformer, which builds the record objects while the LALR parser reduces.

The grammar (``grammar/alhambra.lark``) is the single source of truth for the syntax. Lark reads
what the fast reader (:mod:`referee.notation.fast`) declines: single lines, and whole games with
a syntax error or a position block it does not read. This module is imported only then, so
reading canonical records (``check`` of a simulated or formatted file, of a position block as
``fmt`` or ``show --format record`` writes it) never loads Lark.

Transformer callbacks never raise: a token the grammar accepts but the catalogue does not know
(``T14``: no tower costs 14) becomes a :class:`NotationError` in a list, and the record keeps the
reference as written.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer

from referee.cache import CACHE_ENV, cache_dir, trusted  # noqa: F401 (CACHE_ENV: re-exported)
from referee.catalogue import BuildingType, Currency
from referee.catalogue.components import TYPE_SPELLINGS
from referee.grammar import GRAMMAR_FILE
from referee.notation import tokens as tk
from referee.notation.errors import visible
from referee.notation.parser import (
    _KNOWN_BY_LOWER,
    COORD_LIMIT,
    MAX_DIGITS,
    digits_too_long,
    number_too_long,
)
from referee.record.model import (
    Annotation,
    Award,
    BuildFromReserve,
    Buy,
    CardRef,
    Chance,
    Claim,
    ClaimPart,
    CommentLine,
    ComponentRef,
    Coord,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    GenericArg,
    Give,
    Header,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    NotationError,
    Place,
    PlacedTile,
    PlayerPosition,
    PlayerRef,
    Pos,
    Position,
    RemoveToReserve,
    Reserve,
    Reshuffle,
    Scoring,
    ScoringCardRef,
    StartPlayer,
    Swap,
    TakeMoney,
    TileRef,
    Turn,
)


def _short(text: str, keep: int = 12) -> str:
    return text if len(text) <= keep else f"{text[:keep]}..."


def _comment(tok: Token) -> str:
    return tok.value[1:].strip()


def _note(tok: Token, off: int) -> Annotation:
    return Annotation(tok.value[1:-1].strip(), Pos(tok.line + off, tok.column))  # type: ignore[operator,arg-type]


class _Build(Transformer[Token, Any]):
    """The embedded transformer: builds record objects while the LALR parser reduces.

    ``off`` is the line offset of the game being parsed inside its file; ``problems`` collects
    notation errors. Both are reset per parse (under the module lock).
    """

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.off = 0
        self.problems: list[NotationError] = []

    # ------------------------------------------------------------------------ helpers
    def _pos(self, tok: Token) -> Pos:
        return Pos(tok.line + self.off, tok.column)  # type: ignore[operator,arg-type]

    def _problem(self, message: str, tok: Token, code: str) -> None:
        self.problems.append(NotationError(message, self._pos(tok), code))

    def _int(self, tok: Token, text: str | None = None) -> int:
        """The value of a number token; a number of more than MAX_DIGITS digits is a problem."""
        digits = tok.value if text is None else text
        if number_too_long(digits):
            n = len(digits.lstrip("+-"))
            self._problem(
                f"number too large: '{_short(digits)}' has {n} digits "
                f"(the notation reads at most {MAX_DIGITS})",
                tok,
                "NUMBER-RANGE",
            )
            return 0
        return int(digits)

    def _tail(self, items: Iterable[Any]) -> tuple[tuple[Annotation, ...], str | None]:
        notes: list[Annotation] = []
        comment = None
        for it in items:
            if isinstance(it, Token):
                if it.type == "ANNOTATION":
                    notes.append(_note(it, self.off))
                elif it.type == "COMMENT":
                    comment = _comment(it)
        return tuple(notes), comment

    # ------------------------------------------------------------------------- tokens
    def card_like(self, c: list[Token]) -> CardRef | ScoringCardRef | ComponentRef:
        tok = c[0]
        pos = self._pos(tok)
        t = tok.type
        if t == "CARD":
            return CardRef(tk.read_card(tok.value), pos)
        if t == "SCORECARD":
            return ScoringCardRef(int(tok.value[-1]), pos)
        if t == "COMPONENT":
            return self._component(tok, pos)
        return CardRef(None, pos)

    def _component(self, tok: Token, pos: Pos) -> ComponentRef:
        """A module's component token; a number of more than MAX_DIGITS digits in it is a
        problem, as for any number."""
        kind, name = tok.value.split(":", 1)
        if digits_too_long(name):
            self._problem(
                f"number too large in '{_short(tok.value)}' "
                f"(the notation reads at most {MAX_DIGITS} digits)",
                tok,
                "NUMBER-RANGE",
            )
        return ComponentRef(kind, name, pos)

    def tile_like(self, c: list[Token]) -> TileRef | ComponentRef:
        tok = c[0]
        return self._tile(tok)

    def _tile(self, tok: Token) -> TileRef | ComponentRef:
        pos = self._pos(tok)
        t = tok.type
        if t == "TILE":
            type_, price, walls, cands, problem = tk.read_tile(tok.value)
            if problem:
                self._problem(problem, tok, "UNKNOWN-TILE")
            return TileRef(type_, price, walls, cands, pos)
        if t == "COMPONENT":
            return self._component(tok, pos)
        return TileRef(None, None, None, (), pos)

    def field(self, c: list[Token]) -> Currency | None:
        if c[0].type == "INT" and number_too_long(c[0].value):
            self._int(c[0])
            return None
        cur, problem = tk.read_field(c[0].value)
        if problem:
            self._problem(problem, c[0], "UNKNOWN-FIELD")
        return cur

    def name(self, c: list[Token]) -> PlayerRef:
        tok = c[0]
        text = tk.unquote(tok.value) if tok.type == "STRING" else tok.value
        return PlayerRef(text, self._pos(tok))

    def coord(self, c: list[Token]) -> Coord:
        tok = c[0]
        x_text, y_text = (part.strip(" \t\f") for part in tok.value.split(","))
        too_long = number_too_long(x_text) or number_too_long(y_text)
        if too_long or abs(int(x_text)) > COORD_LIMIT or abs(int(y_text)) > COORD_LIMIT:
            self._problem(
                f"coordinate {_short(x_text)},{_short(y_text)} out of range: x and y lie "
                f"between -{COORD_LIMIT} and {COORD_LIMIT} (the fountain is 0,0)",
                tok,
                "COORD-RANGE",
            )
            return Coord(0, 0)
        return Coord(int(x_text), int(y_text))

    def signed_int(self, c: list[Token]) -> int:
        return -self._int(c[1]) if len(c) == 2 else self._int(c[0])

    def marg(self, c: list[Any]) -> GenericArg:
        v = c[0]
        if isinstance(v, Token):
            pos = self._pos(v)
            t = v.type
            if t == "CARD":
                return GenericArg(CardRef(tk.read_card(v.value), pos), pos)
            if t == "SCORECARD":
                return GenericArg(ScoringCardRef(int(v.value[-1]), pos), pos)
            if t in ("TILE", "COMPONENT"):
                return GenericArg(self._tile(v), pos)
            if t == "STRING":
                return GenericArg(PlayerRef(tk.unquote(v.value), pos), pos)
            return GenericArg(v.value, pos)  # WORD or "?"
        return GenericArg(v)  # Coord or int (no token of their own)

    def part(self, c: list[Token]) -> ClaimPart:
        key_tok, value = c
        low = key_tok.value.lower()
        key: BuildingType | str
        if low in WALL_KEYS_LOWER:
            key = "wall"
        elif low in TYPE_SPELLINGS:
            key = TYPE_SPELLINGS[low]
        else:
            key = key_tok.value
            self._problem(
                f"unknown building type '{visible(key_tok.value)}' "
                "(write P, S, A, C, G, T or their names, or wall)",
                key_tok,
                "UNKNOWN-TYPE",
            )
        return ClaimPart(key, self._int(value), self._pos(key_tok))

    def claim_part(self, c: list[Any]) -> ClaimPart:
        """``T=21``, ``wall=3``, ``medina=-6``: a building type, the wall, or the key of a
        registered scoring category (see :mod:`referee.scoring.categories`)."""
        key_tok, value = c
        low = key_tok.value.lower()
        key: BuildingType | str
        if low in WALL_KEYS_LOWER:
            key = "wall"
        elif low in TYPE_SPELLINGS:
            key = TYPE_SPELLINGS[low]
        else:
            from referee.scoring.categories import CATEGORIES, category_for_claim, module_claim_keys

            found = category_for_claim(low)
            if found is not None:
                key = CATEGORIES[found.lower()].claim_key
            else:
                key = key_tok.value
                known = ", ".join(module_claim_keys())
                word = key_tok.value
                self._problem(
                    f"unknown claim part '{word}' (write P, S, A, C, G, T or their names, wall, "
                    f"or a scoring category of a module: {known or 'none registered'}) / "
                    f"unbekannter Wertungsteil '{word}' (P, S, A, C, G, T oder ihre Namen, wall "
                    f"oder eine Wertungskategorie eines Moduls: {known or 'keine registriert'})",
                    key_tok,
                    "UNKNOWN-TYPE",
                )
        return ClaimPart(key, int(value), self._pos(key_tok))

    # ------------------------------------------------------------------ chance events
    def deal(self, c: list[Any]) -> Deal:
        return Deal(c[1], tuple(c[2:]), self._pos(c[0]))

    def display(self, c: list[Any]) -> DisplayReveal:
        return DisplayReveal(tuple(c[1:]), self._pos(c[0]))

    def reshuffle(self, c: list[Token]) -> Reshuffle:
        return Reshuffle(self._pos(c[0]))

    def market_entry(self, c: list[Any]) -> tuple[Currency | None, Any]:
        return (c[0], c[1]) if len(c) == 2 else (None, c[0])

    def market(self, c: list[Any]) -> MarketDraw:
        return MarketDraw(tuple(c[1:]), self._pos(c[0]))

    def dirk(self, c: list[Any]) -> DirkDraw:
        return DirkDraw(tuple(c[1:]), self._pos(c[0]))

    def module_chance(self, c: list[Any]) -> ModuleChance:
        return ModuleChance(c[0].value, tuple(c[1:]), self._pos(c[0]))

    def chance_line(self, c: list[Any]) -> Chance:
        events = tuple(x for x in c[1:] if not isinstance(x, Token))
        notes, comment = self._tail(c)
        return Chance(events, self._pos(c[0]), notes, comment)

    # -------------------------------------------------------------------------- lines
    def header(self, c: list[Token]) -> Header:
        name_tok, value_tok = c[0], c[1]
        name = _KNOWN_BY_LOWER.get(name_tok.value.lower(), name_tok.value)
        comment = _comment(c[2]) if len(c) > 2 else None
        return Header(name, tk.unquote(value_tok.value), self._pos(name_tok), comment)

    def blank(self, c: list[Token]) -> None:
        return None

    def note_line(self, c: list[Token]) -> CommentLine:
        notes, comment = self._tail(c)
        return CommentLine(comment, self._pos(c[0]), notes)

    def start_line(self, c: list[Any]) -> StartPlayer:
        youngest = any(isinstance(x, Token) and x.type == "YOUNGEST" for x in c)
        notes, comment = self._tail(c[2:])
        return StartPlayer(c[1], youngest, self._pos(c[0]), notes, comment)

    def claim_points(self, c: list[Token]) -> tuple[str, int]:
        # "+21", or "-3" (a scoring whose penalties outweigh its points)
        return ("points", -self._int(c[1]) if len(c) == 2 else self._int(c[0]))

    def claim_total(self, c: list[Any]) -> tuple[str, int]:
        return ("total", c[0])  # a signed_int: "=30", "=-3"

    def claim_parts(self, c: list[ClaimPart]) -> tuple[str, tuple[ClaimPart, ...]]:
        return ("parts", tuple(c))

    def claim(self, c: list[Any]) -> Claim:
        who = c[0]
        if isinstance(who, Token):  # DIRK
            player, pos = None, self._pos(who)
        else:
            player, pos = who, who.pos
        got = dict(c[1:])
        return Claim(player, got.get("points"), got.get("total"), got.get("parts", ()), pos)

    def scoring_line(self, c: list[Any]) -> Scoring:
        claims = tuple(x for x in c[2:] if isinstance(x, Claim))
        notes, comment = self._tail(c[2:])
        return Scoring(self._int(c[1]), claims, self._pos(c[0]), notes, comment)

    def award(self, c: list[Any]) -> Award:
        i = 0
        cur: Currency | None = None
        if not isinstance(c[0], (TileRef, ComponentRef)):
            cur, i = c[0], 1
        tile = c[i]
        rest = c[i + 1 :]
        player: PlayerRef | None = None
        at: Coord | None = None
        reserve = False
        for x in rest:
            if isinstance(x, PlayerRef):
                player = x
            elif isinstance(x, Coord):
                at = x
            elif isinstance(x, Token) and x.type == "RESERVE":
                reserve = True
        return Award(cur, tile, player, at, reserve, tile.pos)

    def distribute_line(self, c: list[Any]) -> Distribution:
        awards = tuple(x for x in c[1:] if isinstance(x, Award))
        notes, comment = self._tail(c[1:])
        return Distribution(awards, self._pos(c[0]), notes, comment)

    # ------------------------------------------------------------------------ actions
    def take(self, c: list[Any]) -> TakeMoney:
        return TakeMoney(tuple(c[1:]), self._pos(c[0]))

    def buy(self, c: list[Any]) -> Buy:
        i = 1
        cur: Currency | None = None
        if not isinstance(c[1], (TileRef, ComponentRef)):
            cur, i = c[1], 2
        return Buy(cur, c[i], tuple(c[i + 2 :]), self._pos(c[0]))

    def build(self, c: list[Any]) -> BuildFromReserve:
        return BuildFromReserve(c[1], c[2], self._pos(c[0]))

    def remove(self, c: list[Any]) -> RemoveToReserve:
        if len(c) == 3:
            return RemoveToReserve(c[1], c[2], self._pos(c[0]))
        return RemoveToReserve(None, c[1], self._pos(c[0]))

    def swap(self, c: list[Any]) -> Swap:
        out = c[4] if len(c) == 5 else None
        return Swap(c[1], c[2], out, self._pos(c[0]))

    def place(self, c: list[Any]) -> Place:
        return Place(c[1], c[2], self._pos(c[0]))

    def reserve(self, c: list[Any]) -> Reserve:
        return Reserve(c[1], self._pos(c[0]))

    def give(self, c: list[Any]) -> Give:
        to = None if isinstance(c[2], Token) else c[2]
        return Give(c[1], to, self._pos(c[0]))

    def module_action(self, c: list[Any]) -> ModuleAction:
        return ModuleAction(c[0].value, tuple(c[1:]), self._pos(c[0]))

    def action(self, c: list[Any]) -> Any:
        if len(c) == 1:
            return c[0]
        return replace(c[0], notes=tuple(_note(t, self.off) for t in c[1:]))

    def turn_number(self, c: list[Token]) -> tuple[int, Pos]:
        return self._int(c[0], c[0].value[:-1]), self._pos(c[0])

    def turn_player(self, c: list[PlayerRef]) -> PlayerRef:
        return c[0]

    def turn_line(self, c: list[Any]) -> Turn:
        number: int | None = None
        player: PlayerRef | None = None
        pos: Pos | None = None
        actions: list[Any] = []
        comment = None
        for x in c:
            if isinstance(x, tuple):
                number, pos = x
            elif isinstance(x, PlayerRef):
                player = x
                pos = pos or x.pos
            elif isinstance(x, Token):
                comment = _comment(x)
            else:
                actions.append(x)
                pos = pos or x.pos
        assert pos is not None
        return Turn(number, player, tuple(actions), pos, (), comment)

    # ----------------------------------------------------------------------- position
    def _line(self, c: list[Any], key: str) -> tuple[str, Any, Token, tuple[Any, ...]]:
        comment = None
        values = []
        for x in c[1:]:
            if isinstance(x, Token) and x.type == "COMMENT":
                comment = x
            else:
                values.append(x)
        return key, comment, c[0], tuple(values)

    def pos_next(self, c: list[Any]) -> Any:
        return self._line(c, "next")

    def pos_scorings(self, c: list[Any]) -> Any:
        return self._line(c, "scorings")

    def pos_market_entry(self, c: list[Any]) -> tuple[Currency | None, Any]:
        tile = None if isinstance(c[-1], Token) else c[-1]
        return (c[0], tile) if len(c) == 2 else (None, tile)

    def pos_market(self, c: list[Any]) -> Any:
        return self._line(c, "market")

    def pos_display(self, c: list[Any]) -> Any:
        return self._line(c, "display")

    def pos_dirk(self, c: list[Any]) -> Any:
        return self._line(c, "dirk")

    def pos_player(self, c: list[Any]) -> Any:
        return self._line(c, "player")

    def pos_score(self, c: list[Any]) -> Any:
        return self._line(c, "score")

    def pos_hand(self, c: list[Any]) -> Any:
        return self._line(c, "hand")

    def pos_reserve(self, c: list[Any]) -> Any:
        return self._line(c, "reserve")

    def placed(self, c: list[Any]) -> PlacedTile:
        return PlacedTile(c[0], c[1], c[0].pos)

    def pos_alhambra(self, c: list[Any]) -> Any:
        return self._line(c, "alhambra")

    def pos_counts(self, c: list[Any]) -> Any:
        return self._line(c, "counts")

    def pos_module(self, c: list[Any]) -> Any:
        comment = None
        args = []
        for x in c[1:]:
            if isinstance(x, Token):
                comment = x
            else:
                args.append(x)
        act = ModuleAction(c[0].value, tuple(args), self._pos(c[0]))
        return "module", comment, c[0], (act,)

    def pos_comment(self, c: list[Token]) -> Any:
        return "comment", c[0], c[0], ()

    def position(self, c: list[Any]) -> Position:
        return _assemble_position(self, c)

    def start(self, c: list[Any]) -> list[Any]:
        return c


WALL_KEYS_LOWER = tk.WALL_KEYS


def _assemble_position(b: _Build, c: list[Any]) -> Position:
    head = c[0]
    lines = [x for x in c[1:] if isinstance(x, tuple)]
    # the comment after "position" / "end" on their own lines
    comments: list[CommentLine] = []
    for x in c[1:]:
        if isinstance(x, Token) and x.type == "COMMENT":
            comments.append(CommentLine(_comment(x), b._pos(x)))
    to_move = scorings = market = display = dirk = None
    extra: list[ModuleAction] = []
    players: list[dict[str, Any]] = []

    for key, comment_tok, kw, values in lines:
        cl = CommentLine(_comment(comment_tok), b._pos(comment_tok)) if comment_tok else None
        cur = players[-1] if players else None
        if key == "player":
            players.append(
                {
                    "player": values[0],
                    "pos": b._pos(kw),
                    "score": None,
                    "hand": None,
                    "reserve": (),
                    "alhambra": (),
                    "counts": (),
                    "wall": None,
                    "extra": [],
                    "comments": [cl] if cl else [],
                }
            )
            continue
        target = cur["comments"] if cur is not None else comments
        if cl is not None:
            target.append(cl)
        if key == "comment":
            continue
        if key == "next":
            to_move = values[0]
        elif key == "scorings":
            scorings = b._int(values[0])
        elif key == "market":
            market = values
        elif key == "display":
            display = values
        elif key == "dirk":
            dirk = values
        elif key == "module":
            (cur["extra"] if cur is not None else extra).append(values[0])
        elif cur is None:
            b._problem(
                f"'{kw.value}' describes a player: write 'player NAME' on a line before it",
                kw,
                "POSITION-NO-PLAYER",
            )
        elif key == "score":
            v = values[0]  # a signed number (a medina penalty may leave a score below 0)
            cur["score"] = v if isinstance(v, int) else b._int(v)
        elif key == "hand":
            cur["hand"] = values
        elif key == "reserve":
            cur["reserve"] = values
        elif key == "alhambra":
            cur["alhambra"] = values
        elif key == "counts":
            counts = []
            for part in values:
                if part.key == "wall":
                    cur["wall"] = part.points
                else:
                    counts.append(part)
            cur["counts"] = tuple(counts)

    built = tuple(
        PlayerPosition(
            p["player"],
            p["score"],
            p["hand"],
            p["reserve"],
            p["alhambra"],
            p["counts"],
            p["wall"],
            tuple(p["extra"]),
            p["pos"],
            tuple(p["comments"]),
        )
        for p in players
    )
    return Position(
        to_move,
        scorings,
        market,
        display,
        built,
        dirk,
        tuple(extra),
        b._pos(head),
        tuple(comments),
    )


# ------------------------------------------------------------------------- the parser

_LOCK = threading.Lock()


def _build_lark(**options: Any) -> Lark:
    """The Lark parser of the grammar, loaded from the user's cache folder when it is there.

    Building the LALR tables takes 70-120 ms; loading them 10 ms. The cache file (Lark's own
    format, a pickle) lives in a folder of the user's (never the shared temporary folder, where
    anyone could put a file to be unpickled) and is named after a digest of the grammar, the
    options and the Lark and Python versions; Lark checks that digest again inside the file.
    When the folder cannot be made or written (a read-only home, a sandbox), the parser is
    built without a cache, as before. ``ALHAMBRA_REFEREE_CACHE`` names another folder ("" or
    "0": no cache).
    """
    import hashlib

    import lark as lark_pkg

    grammar = GRAMMAR_FILE.read_text(encoding="utf-8")
    folder = cache_dir()
    if folder is not None:
        settings = sorted((k, repr(v)) for k, v in options.items() if k != "transformer")
        key = "|".join([grammar, repr(settings), lark_pkg.__version__, sys.version])
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
        path = folder / f"grammar-{digest}.lark-cache"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            folder = None  # an unwritable place: no cache
        # the file is a pickle: only the user's own file in the user's own folder, writable by
        # nobody else, is loaded (referee.cache.trusted); anything else means no cache
        if folder is not None and (
            not trusted(folder) or (os.path.lexists(path) and not trusted(path))
        ):
            folder = None
        if folder is not None:
            # Lark reads the file when it is there and its digest matches; else it builds the
            # tables and writes the file (a failed write is ignored). A file cut short by a
            # concurrent writer fails to load, and Lark then builds the tables itself.
            return Lark(grammar, cache=str(path), **options)
    return Lark(grammar, **options)


@cache
def _parser() -> tuple[Lark, _Build]:
    """The LALR parser with its embedded transformer, built once (lazily)."""
    build = _Build()
    lark = _build_lark(
        parser="lalr",
        lexer="contextual",
        transformer=build,
        maybe_placeholders=False,
    )
    return lark, build


@cache
def _plain_parser() -> Lark:
    """The same grammar without the transformer (for error-example matching)."""
    return _build_lark(parser="lalr", lexer="contextual")


@cache
def _token_res() -> tuple[tuple[str, re.Pattern[str]], ...]:
    lark, _ = _parser()
    names = ("CARD", "TILE", "FIELD", "SCORECARD")
    return tuple(
        (t.name, re.compile(t.pattern.to_regexp())) for t in lark.terminals if t.name in names
    )


def looks_like_component_token(text: str) -> bool:
    """Whether ``text`` would be read as a card, tile, field or scoring card."""
    return token_kind(text) is not None


def token_kind(text: str) -> str | None:
    """``CARD``, ``TILE``, ``FIELD`` or ``SCORECARD`` when ``text`` reads as one, else None."""
    for name, r in _token_res():
        if r.fullmatch(text):
            return name
    return None


def parse_chunk(text: str, line_offset: int = 0) -> tuple[list[Any], list[NotationError]]:
    """Parse one game's text: its lines as records, and the notation errors found.

    Raises Lark's ``UnexpectedInput`` on a syntax error (positions relative to ``text``).
    """
    lark, build = _parser()
    with _LOCK:
        build.off = line_offset
        build.problems = []
        try:
            items = lark.parse(text + "\n")
        finally:
            problems = build.problems
            build.problems = []
    return items, problems  # type: ignore[return-value]
