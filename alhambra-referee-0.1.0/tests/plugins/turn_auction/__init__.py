"""A test-only module (never bundled): a card revealed in the money display is auctioned.

Modelled on Die Charaktere (rulebook-bigbox-de-2019.txt § DIE CHARAKTERE): "Wird eine
Charakterkarte aufgedeckt, wird das Spiel sofort unterbrochen ... Der Spieler, der als Nächster
am Zug ist, ist der Auktionator" -- a ``ta:NAME`` card in a ``* display`` line opens an auction
on the engine's auction service (three bidders in the tests); the winner takes the card, the
refill goes on afterwards (N12). No bid: the card leaves the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.auction import AuctionTerms, open_auction
from referee.engine.context import Context
from referee.engine.extensions import Module, register_module
from referee.record.model import ComponentRef

SOURCE = "rulebook-bigbox-de-2019.txt § DIE CHARAKTERE (test module turnauction)"


@dataclass
class Won:
    won: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    unsold: list[str] = field(default_factory=list)

    def copy(self) -> Won:
        return Won({k: list(v) for k, v in self.won.items()}, list(self.unsold))


@register_module
class TurnAuction(Module):
    name = "turnauction"
    component_kinds = ("ta",)

    def scratch(self, state: Any) -> Won:
        return state.modules.setdefault(self.name, Won())  # type: ignore[no-any-return]

    def display_component(self, state: Any, ref: Any, pos: Any) -> list[Any]:
        ctx = Context(state, pos)
        open_auction(ctx, self.name, ref.name, f"ta:{ref.name}", AuctionTerms(source=SOURCE))
        return []

    def display_place(self, ref: Any) -> bool:
        return False  # the card is auctioned at once: it takes no place in the display

    def sim_money_components(self, sim: Any) -> dict[int, list[object]]:
        """Two cards shuffled into the piles 2 and 4 (like the character cards, piles 2-4)."""
        return {2: [ComponentRef("ta", "Vase")], 4: [ComponentRef("ta", "Lamp")]}

    def auction_closed(self, ctx: Context, auction: Any) -> None:
        data = self.scratch(ctx.state)
        if auction.winner is None:
            data.unsold.append(auction.item)  # "kommt die Karte aus dem Spiel"
            return
        name = ctx.state.players[auction.winner].name
        data.won.setdefault(name, []).append((auction.item, auction.price))

    def view(self, state: Any) -> dict[str, Any]:
        data = self.scratch(state)
        return {
            "players": {k: {"won": [f"{i} for {p}" for i, p in v]} for k, v in data.won.items()}
        }
