"""Short texts of components for findings' parameters (``Gu3 De5``, ``T12``, market fields).

Shared by the engine and its modules; the reports have their own, language-aware formatting.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.catalogue import SIDES, Currency, MoneyCard, TileKind
from referee.messages import Term
from referee.record.model import ComponentRef, TileLike

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.state import MarketSlot, PlayerState


def fmt_card(card: MoneyCard | None) -> str:
    return "?" if card is None else card.code


# no cards: a word shown in the message's language ("(none)", "(keine)"; WORD/(none))
NO_CARDS = Term("(none)", "WORD")
# nothing written after a verb: "(nothing)", "(nichts)" (WORD/(nothing))
NOTHING = Term("(nothing)", "WORD")


def fmt_cards(cards: Iterable[MoneyCard | None]) -> str:
    cs = list(cards)
    known = sorted((c for c in cs if c is not None), key=lambda c: c.sort_key)
    out = [c.code for c in known] + ["?"] * sum(1 for c in cs if c is None)
    return " ".join(out) or NO_CARDS


def fmt_hand(p: PlayerState) -> str:
    cards: list[MoneyCard | None] = list(p.hand.elements())
    cards += [None] * p.hand_unknown
    return fmt_cards(cards) if cards else "empty"


def fmt_tile(tile: TileKind | None) -> str:
    return "?" if tile is None else tile.code


def fmt_tiles(tiles: Iterable[TileKind | None]) -> str:
    return " ".join(fmt_tile(t) for t in tiles) or "empty"


def fmt_ref(ref: TileLike | None) -> str:
    if ref is None:
        return "?"
    if isinstance(ref, ComponentRef):
        return f"{ref.kind}:{ref.name}"
    if not ref.known:
        return "?"
    if ref.kind is not None:
        return ref.kind.code
    # the sides in the fixed order N, E, S, W (a set's order would depend on the process)
    walls = (
        ""
        if ref.walls is None
        else "".join(s.value.lower() for s in SIDES if s in ref.walls) or "-"
    )
    return f"{ref.type.code if ref.type else '?'}{ref.price}{walls}"


def fmt_market(market: Sequence[MarketSlot]) -> str:
    from referee.engine.state import EMPTY

    parts = []
    for i, slot in enumerate(market):
        cur = Currency.of_field(i + 1).code
        text = "-" if slot is EMPTY else fmt_tile(slot)  # type: ignore[arg-type]
        parts.append(f"{cur}:{text}")
    return " ".join(parts)
