"""A test-only module (never bundled): an item on a standing offer, bid on across turns.

Modelled on Die Großprojekte (rulebook-bigbox-de-2019.txt § Dirk Henn: Die Großprojekte): one
item ``ts:N`` lies open ("Eines wird aufgedeckt"); the player to move may bid on it as his
turn's action ("Neue Aktion: Auf Großprojekt bieten"), a later player may overbid, and a bid
still lying there when its bidder's next turn begins wins it; the next item (``ts:N+1``) is laid
out at once, up to ``items`` items. The engine's auction service does all of it; this module
only lays the items out and keeps who won what. Options: ``min`` (the lowest bid; the rulebook
says 15, the tests' hands are small) and ``currency`` (``any``: "einer beliebigen Währung"; or
one named currency, to test a module that asks for one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.catalogue import Currency
from referee.engine.auction import AuctionTerms, open_standing, withdraw_standing
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.engine.turns import Moment
from referee.record.model import ComponentRef, GenericArg, ModuleAction

SOURCE = "rulebook-bigbox-de-2019.txt § Dirk Henn: Die Großprojekte (test module turnstanding)"
ITEMS = 3


@dataclass
class Won:
    won: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # name -> (item, price)

    def copy(self) -> Won:
        return Won({k: list(v) for k, v in self.won.items()})


@register_module
class TurnStanding(Module):
    name = "turnstanding"
    component_kinds = ("ts",)
    verbs = ("offer", "won")  # its lines in a position block (the bids are the service's)
    options: ClassVar[dict[str, tuple[str, tuple[str, ...], str, str]]] = {
        "min": ("5", ("5", "15"), "the lowest bid", "das niedrigste Gebot"),
        "currency": (
            "any",
            ("any", "gu", "di", "de", "du"),
            "the currency of a bid",
            "die Währung eines Gebots",
        ),
    }

    def scratch(self, state: Any) -> Won:
        return state.modules.setdefault(self.name, Won())  # type: ignore[no-any-return]

    def _terms(self) -> AuctionTerms:
        cur = self.option("currency")
        return AuctionTerms(
            currency=None if cur == "any" else Currency(cur.capitalize()),
            min_bid=int(self.option("min")),
            source=SOURCE,
        )

    def _lay_out(self, ctx: Context, n: int) -> None:
        open_standing(ctx, self.name, n, f"ts:{n}", f"ts:{n}", self._terms())

    def at_moment(self, ctx: Any, moment: Any) -> None:
        if moment == Moment.SETUP_DONE:
            self.scratch(ctx.state)
            self._lay_out(ctx, 1)  # "Eines wird aufgedeckt"

    def auction_closed(self, ctx: Context, auction: Any) -> None:
        if not auction.standing:
            return
        name = ctx.state.players[auction.winner].name
        self.scratch(ctx.state).won.setdefault(name, []).append((auction.item, auction.price))
        if auction.item < ITEMS:  # "Ein neues Großprojekt wird aufgedeckt"
            self._lay_out(ctx, auction.item + 1)

    def position_lines(self, state: Any, player: Any) -> list[ModuleAction]:
        if player is not None:
            won = self.scratch(state).won.get(player.name, [])
            return [ModuleAction("won", (GenericArg(i), GenericArg(p))) for i, p in won]
        return [
            ModuleAction("offer", (GenericArg(ComponentRef("ts", str(o.item))),))
            for o in state.standing
            if o.opener == self.name
        ]

    def position_line(self, state: Any, player: Any, line: ModuleAction) -> bool:
        verb = line.verb.lower()
        ctx = Context(state, line.pos)
        if verb == "offer" and player is None:
            for o in [o for o in state.standing if o.opener == self.name]:
                withdraw_standing(ctx, o)
            ref = line.args[0].value
            assert isinstance(ref, ComponentRef)
            self._lay_out(ctx, int(ref.name))
            return True
        if verb == "won" and player is not None:
            item, price = (int(a.value) for a in line.args)  # type: ignore[call-overload]
            self.scratch(state).won.setdefault(player.name, []).append((item, price))
            return True
        return False

    def view(self, state: Any) -> dict[str, Any]:
        offers = [o for o in state.standing if o.opener == self.name]
        table = {
            o.what: (
                f"{state.players[o.leader].name} bids {o.high}" if o.leader is not None else "open"
            )
            for o in offers
        }
        players = {
            k: {"won": [f"ts:{i} for {p}" for i, p in v]}
            for k, v in self.scratch(state).won.items()
        }
        return {"table": table, "players": players}
