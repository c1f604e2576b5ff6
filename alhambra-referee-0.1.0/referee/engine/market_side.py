"""Pieces beside the market: market-draw interception (E14) and side offers (E15).

Several modules change what happens to a tile drawn for the market while it is refilled:
"Wird beim Auffüllen des Bauhofs ein Bazar gezogen, wird er offen neben den Bauhof gelegt. Es
werden solange weitere Gebäudeplättchen gezogen, bis wieder 4 Gebäude auf dem Bauhof liegen"
(Die Bazare); bathhouses and wells are laid next to the field they were drawn for; a sultan
card holder may claim a drawn tile. The engine therefore asks every enabled module about each
piece drawn for a market field (:meth:`~referee.engine.extensions.Module.market_draw`): the
module may set it aside (it keeps the piece in its own state), or let it lie on the field.

**E14, the notation** (digest §2.3 N6): a piece set aside is written as a chance event

    * aside bz:DuPSA, market Gu:T9ne        # the bazaar beside the market, the next tile on Gu
    * aside Du bh:PSAC, market Du:G8ne      # drawn for the Dukaten field, laid next to it

``aside`` draws one piece from the tower (the supply and ``TILE-SUPPLY`` as for ``market``) for
the lowest empty field (the field may be named; it is checked like a ``market`` entry) and asks
the modules. A piece written on a field that a module sets aside is reported under the module's
rule (the code its ``market_draw`` returns, reason ``market``) and set aside all the same; a
piece written ``aside`` that no module sets aside is ``MARKET-ASIDE`` and lies on the field.

The game end ("nicht mehr komplett aufgefüllt") and ``REFILL-MARKET`` count only what lies on
the four fields, so pieces beside the market never break the test.

**E15, side offers**: the pieces beside the market that may be bought
(:meth:`~referee.engine.extensions.Module.side_offers`): each :class:`SideOffer` has the
currency that pays, a price derived now (None: cannot be bought now) and whether only an exact
payment is allowed. ``buy bz:DuPSA pay Du7`` (or ``buy Du bh:PSAC pay Du8``) finds the piece
among the offers; the one purchase pipeline (``referee/engine/actions/purchase.py``) then
applies: currencies (decision ``pay.currencies`` for the offer's currency), payment value,
exactness and the extra action, the spent cards; the owning module takes the piece out of its
offers (:meth:`~referee.engine.extensions.Module.take_side_offer`). A price that cannot be
derived or an inexact payment of an exact-only offer is reported under the offer's ``rule``
(reasons ``no-price`` / ``not-exact``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.catalogue import Currency, TileKind
from referee.engine.extensions import Module  # at run time: compiled, SideOffer looks it up
from referee.engine.rules import BASE, Rule, register_rule
from referee.engine.state import EMPTY
from referee.record.model import ComponentRef, GenericArg, ModuleChance, Pos, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.state import GameState, PlayerState

ASIDE_VERB = "aside"


@dataclass(frozen=True, slots=True)
class SideOffer:
    """A piece beside the market that may be bought (E15).

    ``price`` None: it cannot be bought now (e.g. the field that sets a bazaar's price is
    empty); ``rule`` is the module's code for that and for an inexact payment of an
    ``exact_only`` offer; ``field_named`` says whether a record names the currency in the
    ``buy`` line (``buy Du bh:PSAC``) as the legal-move generator writes it; ``placed`` False
    for a piece that is no building (it is never placed or reserved)."""

    piece: Any
    module: Module
    currency: Currency
    price: int | None
    exact_only: bool
    rule: str
    field_named: bool = False
    placed: bool = True
    """False: the bought piece is no building to place or reserve; it lies in front of the
    buyer in its module's state (a sultan card, "Der Käufer legt die Karte ... offen vor sich
    ab"), so the turn owes no placement for it."""
    own_turn: bool = False
    """True: only the player to move may buy it, in his own turn; the legal-move generator
    leaves it out of an out-of-turn line and out of another player's moves (E30: "von allen
    anderen Spielern in ihrem jeweiligen Zug", a building of a personal market)."""
    payee: str | None = None
    """The player who receives the money cards paid (E30: a building bought from another
    player's personal market, "Die beim Kauf ausgespielten Währungskarten erhält der
    ursprüngliche Besitzer"); None: they go to the discard pile."""


def side_offers(state: GameState) -> list[SideOffer]:
    """Every piece beside the market that may be bought, over all enabled modules."""
    out: list[SideOffer] = []
    for m in state.ext.overriding("side_offers"):  # (the default offers nothing)
        out.extend(m.side_offers(state))
    return out


def find_offer(
    state: GameState, ref: object, field: Currency | None = None, paid: Sequence[object] = ()
) -> SideOffer | None:
    """The side offer a ``buy`` token names (a module piece's token), or None; of several
    the one of the named currency first; when the line names none, the one of the currency of
    the first money card paid (a piece offered in every currency: ``buy kw:3 pay De8``)."""
    if isinstance(ref, TileRef):  # a catalogue tile offered beside the market (E30)
        if not ref.known:
            return None
        found = [o for o in side_offers(state) if _offered_tile(o.piece) in ref.candidates]
    elif not isinstance(ref, ComponentRef):
        return None
    else:
        return pick_offer(side_offers(state), ref, field, paid)
    return _picked(found, field, paid)


def pick_offer(
    offers: Sequence[SideOffer],
    ref: ComponentRef,
    field: Currency | None = None,
    paid: Sequence[object] = (),
) -> SideOffer | None:
    """The offer among ``offers`` whose piece a module piece's token ``ref`` names, picked as
    :func:`find_offer` picks it (the one purchase path and the one-pass path of a module's
    own offers, ``purchase._purchase_side_offer``, ask the same)."""
    found = [
        o for o in offers if getattr(o.piece, "matches", None) is not None and o.piece.matches(ref)
    ]
    return _picked(found, field, paid)


def _picked(
    found: list[SideOffer], field: Currency | None, paid: Sequence[object]
) -> SideOffer | None:
    """Of the offers a token names, the one of the named currency first; when the line names
    none, the one of the currency of the first money card paid; else the first."""
    if field is None and len(found) > 1:
        card = next((getattr(c, "card", None) for c in paid if getattr(c, "card", None)), None)
        field = getattr(card, "currency", None)
    for offer in found:
        if field is None or offer.currency == field:
            return offer
    return found[0] if found else None


def _offered_tile(piece: object) -> object:
    """The catalogue tile a record names an offered piece by: the tile itself, or the tile a
    module piece lies on (``carried_tile``); None for other module pieces."""
    if isinstance(piece, TileKind):
        return piece
    return getattr(piece, "carried_tile", None)


def intercept(
    state: GameState, field: int, piece: object, pos: Pos, every: bool = False
) -> str | None:
    """Tell the modules that hear the market's draws of ``piece`` drawn for market field
    ``field`` (0-3): the one place the engine does (the draws in play, ``aside``, and those a
    position's ``refill`` line states). Only the modules whose class overrides ``market_draw``
    are told (the default says None). Answer: the rule code of the first module that sets the
    piece aside (it now keeps it; the later ones are not told), or None (it lies on the
    field). ``every``: tell each of them and ignore what they answer (None): the piece is
    stated as lying on the field (``position.position_refill``). (``Extensions.draw_heard``
    asks them, as ``core._market`` does for each draw in play.)"""
    if every:  # each told, whatever it answers
        for m in state.ext.drawing:  # (overriding("market_draw"), kept per game)
            m.market_draw(state, field, piece, pos)
        return None
    heard = state.ext.draw_heard
    return None if heard is None else heard(state, field, piece, pos)


_CORE: list[Any] = []
"""``referee.engine.core`` once :func:`_core` has imported it (it imports this module, so not at
the top): an ``import`` statement inside a function costs about 8,700 instructions each run."""


def _core() -> Any:
    """``referee.engine.core`` (imported on first use, then kept in :data:`_CORE`)."""
    if not _CORE:
        import importlib

        _CORE.append(importlib.import_module("referee.engine.core"))
    return _CORE[0]


def aside_event(state: GameState, ev: ModuleChance, pos: Pos) -> None:
    """``* aside [field] token``: a piece drawn for the market and set aside."""
    core = _core()
    draw_tile, market_target = core.draw_tile, core.market_target

    args: Sequence[GenericArg] = ev.args
    named: Currency | None = None
    ref: ComponentRef | None = None
    for arg in args:
        v = arg.value
        cur = _currency_of(v)
        if cur is not None and named is None and ref is None:
            named = cur
        elif isinstance(v, ComponentRef) and ref is None:
            ref = v
        else:
            state.flag("MARKET-ASIDE", arg.pos or pos, reason="form")
            return
    if ref is None:
        state.flag("MARKET-ASIDE", pos, reason="form")
        return
    target = market_target(state, named, ref.pos or pos)
    drawn, piece = draw_tile(state, ref, ref.pos or pos)
    if not drawn or piece is None or target is None:
        return
    if intercept(state, target, piece, ref.pos or pos) is None:
        state.flag(
            "MARKET-ASIDE",
            ref.pos or pos,
            reason="not-aside",
            tile=f"{ref.kind}:{ref.name}",
            field=Currency.of_field(target + 1).code,
        )
        state.market[target] = piece


def take_from_market(state: GameState, field: int, player: PlayerState) -> object:
    """Take the piece on market field ``field`` (0-3) for ``player`` without a purchase (a
    claim out of turn): the field is left empty for the next market line, and every enabled
    module hears of it (:meth:`~referee.engine.extensions.Module.market_taken`), so that what it
    keeps for the field goes along (the purchase pipeline's ``on_purchase`` is the same for a
    purchase). Returns the piece."""
    piece = state.market[field]
    state.market[field] = EMPTY
    for m in state.ext.overriding("market_taken"):  # (the default keeps nothing for a field)
        m.market_taken(state, field, piece, player)
    return piece


def position_aside(state: GameState, line: ModuleChance | Any) -> None:
    """``aside [FIELD] TOKEN ...`` in a ``position`` block (outside the player sections): the
    pieces lying beside the market, each drawn out of the tower (the supply is kept) and handed
    to the module that sets such a piece aside (E14), next to the named field (default: the
    first). The market fields are not touched. A piece no enabled module sets aside is
    ``MARKET-ASIDE`` (reason ``not-aside``) and dropped; a line of another form is
    ``MARKET-ASIDE`` (reason ``form``)."""
    from referee.engine.tower import draw_from_tower

    pos = line.pos
    named: Currency | None = None
    seen = False
    for arg in line.args:
        v = arg.value
        cur = _currency_of(v)
        if cur is not None and named is None:
            named = cur
            continue
        if not isinstance(v, ComponentRef):
            state.flag("MARKET-ASIDE", arg.pos or pos, reason="form")
            return
        seen = True
        target = named.field - 1 if named is not None else 0
        named = None
        piece = draw_from_tower(state, v, v.pos or pos)
        if piece is None:
            continue
        if intercept(state, target, piece, v.pos or pos) is None:
            state.flag(
                "MARKET-ASIDE",
                v.pos or pos,
                reason="not-aside",
                tile=f"{v.kind}:{v.name}",
                field=Currency.of_field(target + 1).code,
            )
    if not seen or named is not None:
        state.flag("MARKET-ASIDE", pos, reason="form")


def aside_lines(state: GameState) -> list[GenericArg]:
    """The arguments of a position's ``aside`` line: every piece beside the market (E15's
    offers), with the field where the module lays it next to one (``Du bh:PSAC``)."""
    args: list[GenericArg] = []
    for offer in side_offers(state):
        if not offer.placed:  # a card beside the board, no tile: its module writes its lines
            continue
        if offer.payee is not None:  # in a player's area (a personal market): his section has it
            continue
        code = str(getattr(offer.piece, "code", ""))
        if ":" not in code:
            continue
        kind, name = code.split(":", 1)
        if offer.field_named:
            args.append(GenericArg(offer.currency.code))
        args.append(GenericArg(ComponentRef(kind, name)))
    return args


def _currency_of(v: object) -> Currency | None:
    if isinstance(v, Currency):
        return v
    if isinstance(v, str):
        return Currency.of_code(v)
    return None


def market_buildings(state: GameState) -> int:
    """How many pieces really lie on the market fields (pieces beside it never count)."""
    return sum(1 for s in state.market if s is not EMPTY)


register_rule(
    Rule(
        "MARKET-ASIDE",
        "piece set aside",
        "Plättchen beiseitegelegt",
        f"{BASE} § Am Ende Ihres Spielzuges",
        "{detail}",
        "{detail}",
    ),
    {
        "form": (
            "write a piece set aside while refilling as * aside TOKEN or * aside FIELD TOKEN "
            "(e.g. * aside bz:DuPSA, * aside Du bh:PSAC)",
            "ein beim Auffüllen beiseitegelegtes Plättchen wird * aside TOKEN oder * aside "
            "FELD TOKEN geschrieben (z. B. * aside bz:DuPSA, * aside Du bh:PSAC)",
        ),
        "not-aside": (
            "{tile} is written as set aside, but no enabled module lays such a piece beside "
            "the market: it lies on the {field} field",
            "{tile} ist als beiseitegelegt geschrieben, aber kein eingeschaltetes Modul legt "
            "ein solches Plättchen neben den Bauhof: es liegt auf dem Feld {field}",
        ),
    },
)

# compiled: copies and pickles of the frozen dataclasses above (referee/frozen_copies.py)
from referee.frozen_copies import mend_frozen_copies  # noqa: E402

mend_frozen_copies(globals())
