"""Record lines in words (English / German) for the HTML replay's line list.

Only presentation: what a line *says* (``buys tower 12 from the florin field``), never whether
it is legal (the engine's walker decides that and the page shows its findings).
"""

from __future__ import annotations

from referee.catalogue import BuildingType, Currency
from referee.notation import formatter
from referee.record.model import (
    BodyItem,
    BuildFromReserve,
    Buy,
    CardRef,
    Chance,
    Claim,
    CommentLine,
    ComponentRef,
    Coord,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    Give,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    Place,
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
from referee.reports.i18n import register, t, type_name
from referee.reports.pieces import arg_words, module_line_words

_WORDS: dict[str, tuple[str, str]] = {
    "take": ("takes {cards}", "nimmt {cards}"),
    "buy": ("buys {tile}{field}, pays {cards}", "kauft {tile}{field}, zahlt {cards}"),
    "buy_field": (" from the {currency} field", " vom {currency}-Feld"),
    "build": ("builds {tile} from the reserve at {at}", "baut {tile} aus der Reserve an {at}"),
    "remove": ("moves {tile} at {at} to the reserve", "legt {tile} von {at} in die Reserve"),
    "swap": ("swaps {tile} from the reserve in at {at}", "tauscht {tile} aus der Reserve an {at}"),
    "swap_out": (" for {tile}", " gegen {tile}"),
    "place": ("places {tile} at {at}", "setzt {tile} an {at}"),
    "reserve": ("puts {tile} into the reserve", "legt {tile} in die Reserve"),
    "give": ("gives {tile} to {who}", "gibt {tile} an {who}"),
    "deal": ("start money for {player}: {cards}", "Startgeld für {player}: {cards}"),
    "display": ("money display: {cards}", "Geldauslage: {cards}"),
    "reshuffle": ("the discard pile becomes the new deck", "der Ablagestapel wird neu gemischt"),
    "market": ("market: {tiles}", "Bauhof: {tiles}"),
    "dirk": ("Dirk gets {tiles}", "Dirk bekommt {tiles}"),
    "start": ("{player} starts", "{player} beginnt"),
    "start_youngest": ("{player} starts (youngest)", "{player} beginnt (jüngste Person)"),
    "scoring": ("scoring {n}", "{n}. Wertung"),
    "distribute": ("leftover market tiles: {awards}", "restliche Bauhof-Plättchen: {awards}"),
    "award_none": ("{tile} to nobody", "{tile} an niemanden"),
    "award": ("{tile} to {player}", "{tile} an {player}"),
    "award_at": ("{tile} to {player} at {at}", "{tile} an {player} auf {at}"),
    "award_reserve": ("{tile} to {player}'s reserve", "{tile} in die Reserve von {player}"),
    "comment": ("comment: {text}", "Kommentar: {text}"),
    "position": ("position block", "Stellung"),
    "before": ("before the first line", "vor der ersten Zeile"),
    "end": ("end of the record (game end completed)", "Ende der Aufzeichnung (Spielende)"),
    "nothing": ("(empty)", "(leer)"),
}

for _key, (_en, _de) in _WORDS.items():
    register(f"replay.w.{_key}", _en, _de)


def _w(key: str, lang: str, **params: object) -> str:
    return t(f"replay.w.{key}", lang, **params)


def tile_words(ref: object, lang: str) -> str:
    """``tower 12 (T12)``; ``?`` for an unknown tile; a module piece as written."""
    if ref is None:
        return "?"
    if isinstance(ref, ComponentRef):
        return arg_words(ref, lang)
    if isinstance(ref, TileRef):
        code = formatter.tile(ref)
        if ref.type is None:
            return "?"
        price = "" if ref.price is None else f" {ref.price}"
        return f"{type_name(ref.type, lang)}{price} ({code})"
    return str(ref)


def cards_words(cards: tuple[CardRef | ScoringCardRef | ComponentRef, ...], lang: str) -> str:
    if not cards:
        return _w("nothing", lang)
    return " ".join(
        arg_words(c, lang) if isinstance(c, ComponentRef) else formatter.card(c) for c in cards
    )


def _at(c: Coord) -> str:
    return f"{c.x},{c.y}"


def action_words(a: object, lang: str) -> str:
    """One action of a turn line in words."""
    if isinstance(a, TakeMoney):
        return _w("take", lang, cards=cards_words(a.cards, lang))
    if isinstance(a, Buy):
        field = "" if a.field is None else _w("buy_field", lang, currency=_currency(a.field, lang))
        return _w(
            "buy", lang, tile=tile_words(a.tile, lang), field=field, cards=cards_words(a.paid, lang)
        )
    if isinstance(a, BuildFromReserve):
        return _w("build", lang, tile=tile_words(a.tile, lang), at=_at(a.at))
    if isinstance(a, RemoveToReserve):
        what = tile_words(a.tile, lang) if a.tile is not None else "?"
        return _w("remove", lang, tile=what, at=_at(a.at))
    if isinstance(a, Swap):
        text = _w("swap", lang, tile=tile_words(a.tile, lang), at=_at(a.at))
        if a.out is not None:
            text += _w("swap_out", lang, tile=tile_words(a.out, lang))
        return text
    if isinstance(a, Place):
        return _w("place", lang, tile=tile_words(a.tile, lang), at=_at(a.at))
    if isinstance(a, Reserve):
        return _w("reserve", lang, tile=tile_words(a.tile, lang))
    if isinstance(a, Give):
        who = a.to.name if a.to is not None else t("dirk", lang)
        return _w("give", lang, tile=tile_words(a.tile, lang), who=who)
    if isinstance(a, ModuleAction):
        return module_line_words(a.verb, a.args, lang, chance=False)
    return str(a)


def _currency(c: Currency, lang: str) -> str:
    return c.name_in(lang)


def _event_words(e: object, lang: str) -> str:
    if isinstance(e, Deal):
        return _w("deal", lang, player=e.player.name, cards=cards_words(e.cards, lang))
    if isinstance(e, DisplayReveal):
        return _w("display", lang, cards=cards_words(e.cards, lang))
    if isinstance(e, Reshuffle):
        return _w("reshuffle", lang)
    if isinstance(e, MarketDraw):
        tiles = ", ".join(
            (f"{f.code}: " if f is not None else "") + tile_words(tl, lang) for f, tl in e.entries
        )
        return _w("market", lang, tiles=tiles)
    if isinstance(e, DirkDraw):
        return _w("dirk", lang, tiles=", ".join(tile_words(tl, lang) for tl in e.tiles))
    if isinstance(e, ModuleChance):
        return module_line_words(e.verb, e.args, lang, chance=True)
    return str(e)


def _claim_words(c: Claim) -> str:
    who = c.player.name if c.player is not None else "Dirk"
    parts = [who]
    if c.points is not None:
        parts.append(f"+{c.points}")
    if c.total is not None:
        parts.append(f"={c.total}")
    if c.parts:
        inner = ", ".join(
            f"{p.key.code if isinstance(p.key, BuildingType) else p.key}={p.points}"
            for p in c.parts
        )
        parts.append(f"({inner})")
    return " ".join(parts)


def item_words(item: BodyItem | None, lang: str, *, end: bool = False) -> str:
    """A body line in words (``None``: the start, or with ``end`` the end of the record)."""
    if item is None:
        return _w("end" if end else "before", lang)
    if isinstance(item, Turn):
        return "; ".join(action_words(a, lang) for a in item.actions) or _w("nothing", lang)
    if isinstance(item, Chance):
        return "; ".join(_event_words(e, lang) for e in item.events) or _w("nothing", lang)
    if isinstance(item, StartPlayer):
        return _w("start_youngest" if item.youngest else "start", lang, player=item.player.name)
    if isinstance(item, Scoring):
        text = _w("scoring", lang, n=item.round)
        if item.claims:
            text += ": " + ", ".join(_claim_words(c) for c in item.claims)
        return text
    if isinstance(item, Distribution):
        awards = []
        for aw in item.awards:
            tl = tile_words(aw.tile, lang)
            if aw.player is None:
                awards.append(_w("award_none", lang, tile=tl))
            elif aw.at is not None:
                awards.append(_w("award_at", lang, tile=tl, player=aw.player.name, at=_at(aw.at)))
            elif aw.reserve:
                awards.append(_w("award_reserve", lang, tile=tl, player=aw.player.name))
            else:
                awards.append(_w("award", lang, tile=tl, player=aw.player.name))
        return _w("distribute", lang, awards=", ".join(awards))
    if isinstance(item, CommentLine):
        text = item.text or " ".join(n.text for n in item.notes)
        return _w("comment", lang, text=text.strip())
    if isinstance(item, Position):
        return _w("position", lang)
    return str(item)


def item_text(item: BodyItem | None) -> str:
    """The line as written in canonical notation (several lines for a position block)."""
    if item is None:
        return ""
    return "\n".join(formatter.body_lines(item))
