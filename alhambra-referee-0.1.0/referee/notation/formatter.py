"""Records -> canonical text.

The canonical form: headers in canonical order (known tags first, then the others as written),
a blank line, then the body one item per line with single spaces between tokens and ``, ``
between actions/events; the shortest unambiguous tile codes; card codes like ``Gu3``;
coordinates attached to their tile (``A6sw@0,-1``); comments (`` # text``) and annotations
(``{text}``) kept. Games are separated by one blank line; the text ends with a newline.

The formatter knows no rules: it writes the turn numbers and players the record has. A caller
that can work them out (the rules engine) passes ``fill``, a function that returns the game
with them filled in, to :func:`format_game`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from referee.catalogue import BuildingType, Currency
from referee.catalogue.components import wall_code
from referee.notation.parser import KNOWN_HEADERS
from referee.notation.tokens import quote, write_name
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
    Game,
    GenericArg,
    Give,
    Header,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    Place,
    PlacedTile,
    PlayerPosition,
    PlayerRef,
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

Fill = Callable[[Game], Game]

_HEADER_RANK = {name: i for i, name in enumerate(KNOWN_HEADERS)}


# ------------------------------------------------------------------------------ tokens


def card(c: CardRef | ScoringCardRef | ComponentRef) -> str:
    if isinstance(c, CardRef):
        return c.card.code if c.card is not None else "?"
    if isinstance(c, ScoringCardRef):
        return f"W{c.number}"
    return f"{c.kind}:{c.name}"


def tile(t: TileRef | ComponentRef | None) -> str:
    if t is None:
        return "-"
    if isinstance(t, ComponentRef):
        return f"{t.kind}:{t.name}"
    if t.type is None:
        return "?"
    kind = t.kind
    if kind is not None:
        return kind.code
    walls = "" if t.walls is None else wall_code(t.walls)
    return f"{t.type.code}{t.price}{walls}"


def coord(c: Coord) -> str:
    return f"@{c.x},{c.y}"


def field(f: Currency | None) -> str:
    return f"{f.code}:" if f is not None else ""


def name(p: PlayerRef) -> str:
    return write_name(p.name)


def _notes(notes: Iterable[Annotation]) -> str:
    return "".join(f" {{{n.text}}}" for n in notes)


def _comment(text: str | None) -> str:
    if text is None:
        return ""
    return f" # {text}" if text else " #"


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _cards(cards: Iterable[CardRef | ScoringCardRef | ComponentRef]) -> str:
    return " ".join(card(c) for c in cards)


def _arg(a: GenericArg) -> str:
    v = a.value
    if isinstance(v, (CardRef, ScoringCardRef)):
        return card(v)
    if isinstance(v, (TileRef, ComponentRef)):
        return tile(v)
    if isinstance(v, Coord):
        return coord(v)
    if isinstance(v, PlayerRef):
        return quote(v.name)
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return str(v)
    return v


def _args(args: Iterable[GenericArg]) -> str:
    return " ".join(_arg(a) for a in args)


def _part(p: ClaimPart) -> str:
    key = p.key.code if isinstance(p.key, BuildingType) else p.key
    return f"{key}={p.points}"


# ------------------------------------------------------------------------------ actions


def action(a: object) -> str:
    if isinstance(a, TakeMoney):
        text = _join("take", _cards(a.cards))
    elif isinstance(a, Buy):
        f = a.field.code if a.field is not None else ""
        text = _join("buy", f, tile(a.tile), "pay", _cards(a.paid))
    elif isinstance(a, BuildFromReserve):
        text = f"build {tile(a.tile)}{coord(a.at)}"
    elif isinstance(a, RemoveToReserve):
        text = f"remove {tile(a.tile) if a.tile is not None else ''}{coord(a.at)}"
    elif isinstance(a, Swap):
        text = f"swap {tile(a.tile)}{coord(a.at)}"
        if a.out is not None:
            text += f" for {tile(a.out)}"
    elif isinstance(a, Place):
        text = f"place {tile(a.tile)}{coord(a.at)}"
    elif isinstance(a, Reserve):
        text = f"reserve {tile(a.tile)}"
    elif isinstance(a, Give):
        text = f"give {tile(a.tile)} {name(a.to) if a.to is not None else 'dirk'}"
    elif isinstance(a, ModuleAction):
        text = _join(a.verb, _args(a.args))
    else:  # pragma: no cover - the record model has no other action
        raise TypeError(f"not an action: {a!r}")
    return text + _notes(a.notes)


def chance_event(e: object) -> str:
    if isinstance(e, Deal):
        return _join("deal", name(e.player), _cards(e.cards))
    if isinstance(e, DisplayReveal):
        return _join("display", _cards(e.cards))
    if isinstance(e, Reshuffle):
        return "reshuffle"
    if isinstance(e, MarketDraw):
        return _join("market", " ".join(field(f) + tile(t) for f, t in e.entries))
    if isinstance(e, DirkDraw):
        return _join("dirk", " ".join(tile(t) for t in e.tiles))
    if isinstance(e, ModuleChance):
        return _join(e.verb, _args(e.args))
    raise TypeError(f"not a chance event: {e!r}")  # pragma: no cover


def _claim(c: Claim) -> str:
    parts = [name(c.player) if c.player is not None else "dirk"]
    if c.points is not None:
        parts.append(f"+{c.points}" if c.points >= 0 else str(c.points))
    if c.total is not None:
        parts.append(f"={c.total}")
    if c.parts:
        parts.append("(" + ", ".join(_part(p) for p in c.parts) + ")")
    return " ".join(parts)


def _award(a: Award) -> str:
    text = field(a.field) + tile(a.tile)
    if a.player is None:
        return f"{text} none"
    text += f" {name(a.player)}"
    if a.at is not None:
        text += coord(a.at)
    elif a.reserve:
        text += " reserve"
    return text


# -------------------------------------------------------------------------------- lines


def _position(p: Position) -> list[str]:
    out = ["position"]
    out += [f"  #{(' ' + c.text) if c.text else ''}" for c in p.comments if c.text is not None]
    if p.to_move is not None:
        out.append(f"  next {name(p.to_move)}")
    if p.scorings_done is not None:
        out.append(f"  scorings {p.scorings_done}")
    if p.market is not None:
        out.append(_join("  market", " ".join(field(f) + tile(t) for f, t in p.market)))
    if p.display is not None:
        out.append(_join("  display", _cards(p.display)))
    if p.dirk is not None:
        out.append(_join("  dirk", " ".join(tile(t) for t in p.dirk)))
    out += [f"  {action(m)}" for m in p.extra]
    for pl in p.players:
        out += _player(pl)
    out.append("end")
    return out


def _player(pl: PlayerPosition) -> list[str]:
    out = [f"  player {name(pl.player)}"]
    out += [f"    #{(' ' + c.text) if c.text else ''}" for c in pl.comments if c.text is not None]
    if pl.score is not None:
        out.append(f"    score {pl.score}")
    if pl.hand is not None:
        out.append(_join("    hand", _cards(pl.hand)))
    if pl.reserve:
        out.append(_join("    reserve", " ".join(tile(t) for t in pl.reserve)))
    if pl.alhambra:
        out.append(_join("    alhambra", " ".join(_placed(t) for t in pl.alhambra)))
    counts = [_part(c) for c in pl.counts]
    if pl.wall is not None:
        counts.append(f"wall={pl.wall}")
    if counts:
        out.append("    counts " + " ".join(counts))
    out += [f"    {action(m)}" for m in pl.extra]
    return out


def _placed(t: PlacedTile) -> str:
    return tile(t.tile) + coord(t.at)


def body_lines(item: object) -> list[str]:
    """The canonical line(s) of one body item."""
    if isinstance(item, Turn):
        head = ""
        if item.number is not None:
            head = f"{item.number}. "
        if item.player is not None:
            head += f"{name(item.player)}: "
        acts = ", ".join(action(a) for a in item.actions)
        line = head + acts + _notes(item.notes)
        return [line + _comment(item.comment)]
    if isinstance(item, Chance):
        line = "* " + ", ".join(chance_event(e) for e in item.events)
        return [line + _notes(item.notes) + _comment(item.comment)]
    if isinstance(item, StartPlayer):
        line = f"start {name(item.player)}" + (" youngest" if item.youngest else "")
        return [line + _notes(item.notes) + _comment(item.comment)]
    if isinstance(item, Scoring):
        line = f"scoring {item.round}"
        if item.claims:
            line += ": " + ", ".join(_claim(c) for c in item.claims)
        return [line + _notes(item.notes) + _comment(item.comment)]
    if isinstance(item, Distribution):
        line = "distribute " + ", ".join(_award(a) for a in item.awards)
        return [line + _notes(item.notes) + _comment(item.comment)]
    if isinstance(item, CommentLine):
        return [(_notes(item.notes) + _comment(item.text)).lstrip(" ")]
    if isinstance(item, Position):
        return _position(item)
    raise TypeError(f"not a body item: {item!r}")  # pragma: no cover


def _header(h: Header) -> str:
    return f"[{h.name} {quote(h.value)}]" + _comment(h.comment)


def sorted_headers(headers: Iterable[Header]) -> list[Header]:
    """Known tags in canonical order, then the others in the order written."""
    indexed = list(enumerate(headers))
    indexed.sort(key=lambda ih: (_HEADER_RANK.get(ih[1].name, len(_HEADER_RANK)), ih[0]))
    return [h for _, h in indexed]


def format_game(game: Game, fill: Fill | None = None) -> str:
    """One game in canonical form (ends with a newline).

    ``fill`` (optional) may return the game with missing turn numbers and players filled in;
    the notation layer cannot do that itself because it knows no rules.
    """
    if fill is not None:
        game = fill(game)
    lines: list[str] = []
    for c in game.leading_comments:
        lines += body_lines(c)
    if game.leading_comments and game.headers:
        lines.append("")
    lines += [_header(h) for h in sorted_headers(game.headers)]
    if game.headers and game.body:
        lines.append("")
    for item in game.body:
        lines += body_lines(item)
    return "\n".join(lines) + "\n"


def format_games(games: Iterable[Game], fill: Fill | None = None) -> str:
    """Several games, separated by one blank line."""
    return "\n".join(format_game(g, fill) for g in games)
