"""Die Schätze (treasures, Frank Sander): a purchase short of money may be bribed down by one
treasure and then always counts as exact; treasures kept score their value at the end.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Frank Sander: Die Schätze.

Notation: a treasure is the component token ``sz:3`` (the paying player's treasure of value 3),
given in a payment: ``15. Ben: buy Di A9 pay Di7 sz:3, place A9@1,1``. Which treasures a player
still has may be stated in a ``position`` block (``treasures 1 3 5`` in the player's section) or
in the record (``* treasures Ben 1 3 5``: checked against the game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from referee.engine.actions.purchase import counted_cards
from referee.engine.findings import problem, unverifiable
from referee.engine.fmt import fmt_cards, fmt_ref, fmt_tile
from referee.engine.ruleset import Decision, refines
from referee.engine.state import GameState, PlayerState
from referee.modules.base import BundledModule, Scratch, bundled, module_data, named_player, section
from referee.record.model import (
    Buy,
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
)
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Frank Sander: Die Schätze"
S_SCORING = section(H, "Wertungsänderungen")
KIND = "sz"
STATE_VERB = "treasures"


@cache
def treasure_values() -> tuple[int, ...]:
    return tuple(int(v) for v in module_data("schaetze")["setup"]["per_player"])


def treasure_value(ref: ComponentRef) -> int | None:
    """The value of a treasure token (``sz:3`` -> 3), or None when it is none."""
    name = ref.name
    if not name.isdigit():
        return None
    value = int(name)
    return value if value in treasure_values() else None


def _fmt(values: list[int] | tuple[int, ...]) -> str:
    return " ".join(f"{KIND}:{v}" for v in sorted(values)) or "-"


@dataclass
class TreasureScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    kept: dict[str, list[int]] = field(default_factory=dict)
    given: list[tuple[str, int, int]] = field(default_factory=list)  # player, value, line


@bundled
class Schaetze(BundledModule):
    """Five treasures per player: one bribes a purchase short of money (always exact); those
    kept score their value at the end."""

    purchases_by_components = True  # its purchase refinements read only its own pieces

    chance_verbs = (STATE_VERB,)
    component_kinds = (KIND,)
    scratch_type = TreasureScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        # "Jeder Spieler erhält die 5 Schätze in seiner Spielerfarbe"
        scratch.kept = {p.name: list(treasure_values()) for p in state.players}

    def kept(self, state: GameState, player: PlayerState) -> list[int]:
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        got = data.kept.get(player.name)  # (the default list made only when missing)
        if got is None:
            got = data.kept.setdefault(player.name, list(treasure_values()))
        return got

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's treasures: kept (worth their value at the end) and given."""
        data = self.data(state)
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            kept = self.kept(state, p)
            given = [v for who, v, _ in data.given if who == p.name]
            players[p.name] = {
                "treasures": _fmt(kept),
                "worth": sum(kept),
                "given": _fmt(given),
            }
        return self.shown(players=players)

    # ------------------------------------------------------- purchase pipeline

    @staticmethod
    def _paid(purchase: Any) -> list[ComponentRef]:
        return [r for r in purchase.modules_paid if r.kind.lower() == KIND]

    def _bribe(self, purchase: Any) -> int:
        """The value the first valid treasure of a purchase takes off the price (0: none)."""
        for ref in self._paid(purchase):
            value = treasure_value(ref)
            if value is not None:
                return value
        return 0

    @refines(Decision.PAY_VALUE)
    def bribe_value(self, ctx: Any, value: int, *, purchase: Any, **_: Any) -> int:
        """ "Der Schatz reduziert die Kosten ... um die Anzahl, die auf dem Schatzplättchen
        abgedruckt ist": the payment counts the treasure's value with the cards (the
        rulebook's example: 7 and the 3-treasure buy the arcades 9 "für 10")."""
        return value + self._bribe(purchase)

    @refines(Decision.PAY_EXACT)
    def bribe_exact(self, ctx: Any, exact: bool, *, purchase: Any, **_: Any) -> bool:
        """ "Egal, mit welchem Schatz er den Bauherrn besticht, der Kauf gilt immer als
        passend": a purchase with a treasure is exact."""
        return exact or self._bribe(purchase) > 0

    @refines(Decision.PAY_PROBLEMS)
    def bribe_problems(
        self, ctx: Any, found: list[Any], *, player: PlayerState, purchase: Any, **_: Any
    ) -> list[Any]:
        """One treasure, still the payer's, and only when money is lacking."""
        refs = self._paid(purchase)
        if not refs:
            return found
        out = list(found)
        a = purchase.action
        if len(refs) > 1:
            out.append(
                problem(
                    "SCHATZ-ONE-PER-BUY",
                    refs[1].pos or a.pos,
                    player.name,
                    tokens=" ".join(f"{r.kind}:{r.name}" for r in refs),
                )
            )
        state = ctx.state
        kept = list(self.kept(state, player))
        first: ComponentRef | None = None
        for ref in refs:
            pos = ref.pos or a.pos
            value = treasure_value(ref)
            if value is None:
                out.append(problem("SCHATZ-TOKEN", pos, player.name, token=f"{KIND}:{ref.name}"))
                continue
            first = first or ref
            if value in kept:
                kept.remove(value)
                continue
            given = [
                line for who, v, line in self.data(state).given if who == player.name and v == value
            ]
            left = _fmt(self.kept(state, player))
            if given:
                out.append(
                    problem(
                        "SCHATZ-SPENT",
                        pos,
                        player.name,
                        reason="given",
                        token=f"{KIND}:{value}",
                        kept=left,
                        line=given[-1],
                    )
                )
            else:
                out.append(
                    problem(
                        "SCHATZ-SPENT",
                        pos,
                        player.name,
                        reason="stated",
                        token=f"{KIND}:{value}",
                        kept=left,
                    )
                )
        price = purchase.price
        if first is None or price is None or purchase.unknown_paid:
            return out
        cards = counted_cards(ctx, purchase)
        paid = sum(c.value for c in cards)
        tile = fmt_tile(purchase.tile) if purchase.tile is not None else fmt_ref(a.tile)
        token = f"{KIND}:{first.name}"
        if paid >= price:
            out.append(
                problem(
                    "SCHATZ-NOT-SHORT",
                    first.pos or a.pos,
                    player.name,
                    cards=fmt_cards(list(purchase.cards_paid)) or "-",
                    sum=paid,
                    tile=tile,
                    price=price,
                    token=token,
                )
            )
            return out
        # the strict reading: the hand lacks the money (a warning; unknown cards: unverifiable)
        allowed = purchase.allowed or frozenset()
        held: list[Any] = sorted(
            (c for c in player.hand.elements() if c.currency in allowed), key=lambda c: c.sort_key
        )
        total = sum(c.value for c in held)
        strict = state.profile.treasure_hand_short  # allowed | warn | illegal
        if total >= price and strict != "allowed":
            out.append(
                problem(
                    "SCHATZ-COULD-PAY",
                    first.pos or a.pos,
                    player.name,
                    severity="warning" if strict == "warn" else "error",
                    token=token,
                    tile=tile,
                    price=price,
                    held=fmt_cards(held),
                    sum=total,
                )
            )
        elif player.hand_unknown and strict != "allowed":
            out.append(unverifiable(first.pos or a.pos, "UNVERIFIED-SCHATZ-HAND", player.name))
        return out

    def plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        cards: tuple[Any, ...],
        allowed: frozenset[Any],
        price: int,
    ) -> tuple[int, bool] | None:
        """A bribe the pipeline passes without a finding of :meth:`bribe_problems` (one
        treasure, still the payer's; the cards short of the price; the hand short of it too,
        or the profile's reading allowing it, with no unknown card): its value, and exact."""
        if len(refs) != 1:
            return None
        value = treasure_value(refs[0])
        if value is None or value not in self.kept(state, player):
            return None
        if sum(c.value for c in cards) >= price:
            return None  # SCHATZ-NOT-SHORT
        if state.profile.treasure_hand_short != "allowed":
            if player.hand_unknown:
                return None  # UNVERIFIED-SCHATZ-HAND (or SCHATZ-COULD-PAY)
            hand = player.hand.items()
            held = sum(c.value * n for c, n in hand if n > 0 and c.currency in allowed)
            if held >= price:
                return None  # SCHATZ-COULD-PAY
        return value, True

    def spend_plain_components(
        self,
        state: GameState,
        player: PlayerState,
        refs: tuple[ComponentRef, ...],
        action: Buy,
        tile: Any,
    ) -> None:
        """:meth:`on_purchase` for a bribe :meth:`plain_components` passed."""
        ref = refs[0]
        value = treasure_value(ref)
        assert value is not None
        self.kept(state, player).remove(value)
        (state.modules.get(self.name) or self.data(state)).given.append(
            (player.name, value, (ref.pos or action.pos).line)
        )

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "darf er den Bauherrn bestechen und ihm einen seiner Schätze geben": the treasure
        leaves the player for good."""
        refs = self._paid(purchase)
        if not refs:
            return
        player = purchase.player
        data = self.data(ctx.state)
        kept = self.kept(ctx.state, player)
        for ref in refs:
            value = treasure_value(ref)
            if value is None:
                continue
            if value in kept:
                kept.remove(value)
            data.given.append((player.name, value, (ref.pos or purchase.action.pos).line))

    # ---------------------------------------------------------------- scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Schätze, die ein Spieler zu Spielende noch besitzt, zählen ihrem Wert
        entsprechend Punkte": a point line of the final scoring."""
        if round_no != 3:
            return None
        points = {p.name: sum(self.kept(state, p)) for p in state.players}
        line = PointLine(
            "treasures",
            "treasures",
            "Schätze",
            S_SCORING,
            lambda part: (
                None
                if part.is_dirk or part.name not in points
                else (
                    points[part.name],
                    self._detail(state, part.name),
                    self._detail(state, part.name),
                )
            ),
        )
        return ScoringParts(categories=(line,))

    def _detail(self, state: GameState, name: str) -> str:
        kept = self.data(state).kept.get(name, [])
        return "+".join(str(v) for v in sorted(kept)) or "0"

    # ------------------------------------------------------- statements

    def _values(self, state: GameState, args: Any, pos: Pos, who: str | None) -> list[int] | None:
        out: list[int] = []
        for arg in args:
            raw = str(arg.value)
            if raw.lower().startswith(f"{KIND}:"):
                raw = raw[len(KIND) + 1 :]
            value = int(raw) if raw.isdigit() else None
            if value is None or value not in treasure_values() or value in out:
                state.flag("SCHATZ-TOKEN", arg.pos or pos, who, token=str(arg.value))
                return None
            out.append(value)
        return sorted(out)

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* treasures Ben 1 3 5``: the treasures a player still has, checked."""
        pos = event.pos
        if not event.args:
            state.flag("UNKNOWN-PLAYER", pos, None, players=", ".join(state.names))
            return []
        who = named_player(state, event.args[0], pos)
        stated = None if who is None else self._values(state, event.args[1:], pos, who.name)
        if who is None or stated is None:
            return []
        kept = sorted(self.kept(state, who))
        if stated != kept:
            name = who.name
            state.flag("SCHATZ-STATED", pos, name, name=name, stated=_fmt(stated), kept=_fmt(kept))
        return []

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``treasures 1 3 5`` in a player's section of a position: the treasures kept."""
        if player is None or line.verb.lower() != STATE_VERB:
            return False
        stated = self._values(state, line.args, line.pos, player.name)
        if stated is not None:
            self.data(state).kept[player.name] = stated
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``treasures 1 3 5`` in the section of a player who has given treasures away (all
        five, the start, need no line; none left: ``treasures`` alone). To whom and in which
        line a treasure was given is history a position does not state: a treasure given
        again is then ``SCHATZ-SPENT`` "not among the treasures stated", and the end scores
        the treasures kept ("Schätze, die ein Spieler zu Spielende noch besitzt, zählen ihrem
        Wert entsprechend Punkte")."""
        if player is None:
            return []
        kept = sorted(self.kept(state, player))
        if kept == sorted(treasure_values()):
            return []
        return [ModuleAction(STATE_VERB, tuple(GenericArg(v) for v in kept))]

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Each purchase bribed with a treasure the player still has, where the hand lacks
        the money in the currencies that pay (the strict reading, so a generated bribe is
        never questioned): the cards reach the price less the treasure with no superfluous
        card, or the treasure alone covers the price."""
        from referee.catalogue import Currency, TileKind
        from referee.engine.actions.purchase import payments, plan_purchase
        from referee.engine.legal import card_ref, tile_ref

        state = ctx.state
        kept = sorted(set(self.kept(state, player)))
        if not kept:
            return []
        hand = sorted(player.hand.elements(), key=lambda c: c.sort_key)
        out: list[Any] = []
        for i, tile in enumerate(state.market):
            if not isinstance(tile, TileKind):
                continue
            cur = Currency.of_field(i + 1)
            for value in kept:
                extra = (ComponentRef(KIND, str(value)),)
                probe = plan_purchase(state, player, Buy(cur, tile_ref(tile), extra))
                allowed = frozenset(
                    ctx.decide(Decision.PAY_CURRENCIES, player=player, field=cur, purchase=probe)
                )
                price = probe.price if probe.price is not None else tile.price
                if sum(c.value for c in hand if c.currency in allowed) >= price:
                    break  # the hand does not lack the money: no bribe for this tile
                need = price - value
                if need <= 0:
                    out.append(Buy(cur, tile_ref(tile), extra))
                    continue
                for pay in payments(hand, allowed, need):
                    paid: tuple[Any, ...] = (*(card_ref(c) for c in pay), *extra)
                    out.append(Buy(cur, tile_ref(tile), paid))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Now and then a bribe whose treasure just covers what the cards lack (a treasure
        kept is worth its value at the end, so a simulated player does not waste it)."""
        if sim.rng.random() >= 0.3:
            return []
        out: list[Any] = []
        for a in actions:
            if not isinstance(a, Buy):
                continue
            values = [
                treasure_value(r) for r in a.paid if isinstance(r, ComponentRef) and r.kind == KIND
            ]
            price = getattr(a.tile, "price", None)
            if len(values) != 1 or values[0] is None or not isinstance(price, int):
                continue
            cards = sum(
                c.card.value for c in a.paid if isinstance(c, CardRef) and c.card is not None
            )
            if cards + values[0] == price:
                out.append(a)
        return out
